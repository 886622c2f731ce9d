/* test-curve-compare.c: "Compare with…" in the curve editor, in a 960×640 window
 *
 * Another file's version of the shown curves (made with tress-cli set-key)
 * and then the saved file's version (after an edit in the editor) are drawn
 * as ghost curves behind the edited ones; stopping takes them away.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <stdlib.h>
#include <string.h>

#include "curves/tress-curve-editor.h"
#include "tress-application.h"
#include "tress-document-page.h"
#include "tress-test-utils.h"
#include "tress-test-window.h"
#include "tress-window.h"

typedef struct
{
  guint8 *data;
  gsize stride;
  int width, height;
} Shot;

/* The view's own snapshot(), rendered in software: the pixels a frame shows. */
static void
take_shot (GtkWidget *view, Shot *shot, const char *name)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GskRenderer) renderer = gsk_cairo_renderer_new ();
  g_autoptr (GdkTexture) texture = NULL;
  g_autoptr (GError) error = NULL;
  graphene_rect_t vp
      = GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (view), gtk_widget_get_height (view));

  GTK_WIDGET_GET_CLASS (view)->snapshot (view, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  g_assert_true (gsk_renderer_realize (renderer, NULL, &error));
  g_assert_no_error (error);
  texture = gsk_renderer_render_texture (renderer, node, &vp);
  /* To look at: TRESS_TEST_SHOTS=DIR keeps the pictures */
  if (g_getenv ("TRESS_TEST_SHOTS") != NULL)
    {
      g_autofree char *file = g_build_filename (g_getenv ("TRESS_TEST_SHOTS"), name, NULL);
      gdk_texture_save_to_png (texture, file);
    }
  shot->width = gdk_texture_get_width (texture);
  shot->height = gdk_texture_get_height (texture);
  shot->stride = (gsize)shot->width * 4;
  shot->data = g_malloc (shot->stride * shot->height);
  gdk_texture_download (texture, shot->data, shot->stride);
  gsk_renderer_unrealize (renderer);
}

/* Pixels within @radius of (x, y) that differ between the two shots. */
static guint
differing (const Shot *a, const Shot *b, double x, double y, int radius)
{
  guint n = 0;

  g_assert_cmpint (a->width, ==, b->width);
  g_assert_cmpint (a->height, ==, b->height);
  for (int dy = -radius; dy <= radius; dy++)
    for (int dx = -radius; dx <= radius; dx++)
      {
        int px = (int)x + dx, py = (int)y + dy;

        if (px < 0 || py < 0 || px >= a->width || py >= a->height)
          continue;
        n += memcmp (a->data + (gsize)py * a->stride + (gsize)px * 4,
                     b->data + (gsize)py * b->stride + (gsize)px * 4, 4)
             != 0;
      }
  return n;
}

/* Pixels of exactly this colour (downloads are ARGB32 in memory order: B, G, R, A). */
static guint
count_color (const Shot *s, guint8 r, guint8 g, guint8 b)
{
  guint n = 0;

  for (int y = 0; y < s->height; y++)
    for (int x = 0; x < s->width; x++)
      {
        const guint8 *p = s->data + (gsize)y * s->stride + (gsize)x * 4;

        n += p[2] == r && p[1] == g && p[0] == b;
      }
  return n;
}

/* Whether a file chooser is on screen. */
static gboolean
chooser_shown (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWidget) w = g_list_model_get_item (toplevels, i);

      if (GTK_IS_FILE_CHOOSER_DIALOG (w) && gtk_widget_get_visible (w))
        return TRUE;
    }
  return FALSE;
}

static void
test_compare (void)
{
  g_autoptr (GBytes) original = tress_test_load_sample ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *path = NULL, *other = NULL;
  g_autoptr (GError) error = NULL;
  TressTestWindow tw;
  TressWindow *window;
  TressCurveEditor *editor;
  TressCurveView *view;
  TressCurveDocument *cd;
  const TressCurve *ghost;
  TressCurveViewport vp;
  Shot with = { 0 }, without = { 0 };
  double shown_value, other_value, x, y_other;
  const guint curve = 0, key = 2;

  if (original == NULL)
    return;
  path = g_build_filename (tress_test_tmpdir (), "bass.bfres", NULL);
  other = g_build_filename (tress_test_tmpdir (), "bass-other.bfres", NULL);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (original, NULL),
                                      (gssize)g_bytes_get_size (original), &error));
  {
    /* The other file: key 2 of curve 0 well away from its value. */
    const char *argv[] = { "set-key", path, "0", "2", "--value", "0.6", "-o", other, NULL };
    g_assert_cmpint (tress_test_run_cli (argv, NULL, NULL), ==, 0);
  }

  tress_test_window_open (&tw, path, TRESS_TYPE_CURVE_EDITOR, 960, 640);
  window = tw.window;
  editor = TRESS_CURVE_EDITOR (tw.editor);
  view = tress_curve_editor_get_view (editor);
  cd = tress_curve_editor_get_document (editor);
  tress_curve_view_set_curves (view, &curve, 1);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, 960);
  shown_value = tress_curve_get_key (tress_curve_document_get_curve (cd, curve), key)->value;

  /* Another file: its version of every curve, behind the shown one. */
  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (editor), "curves.compare-with-file", "s", other));
  TRESS_TEST_WAIT_FOR (tress_curve_editor_get_compare_name (editor) != NULL);
  g_assert_cmpstr (tress_curve_editor_get_compare_name (editor), ==, "bass-other.bfres");
  g_assert_cmpuint (tress_curve_view_get_n_ghosts (view), ==,
                    tress_curve_document_get_n_curves (cd));
  ghost = tress_curve_view_get_ghost (view, curve);
  g_assert_nonnull (ghost);
  other_value = tress_curve_get_key (ghost, key)->value;
  /* The status counts the shown curves that differ. */
  g_assert_cmpstr (tress_curve_editor_get_message (editor), ==,
                   "Comparing with bass-other.bfres: 1 of the 1 shown curve differs");
  g_assert_cmpfloat_with_epsilon (other_value, 0.6, 1e-3);
  /* the document's curve is its own */
  g_assert_cmpfloat (tress_curve_get_key (tress_curve_document_get_curve (cd, curve), key)->value,
                     ==, shown_value);

  /* Drawn: where the ghost's key is, the graph has pixels it has not without it. */
  tress_curve_view_get_viewport (view, &vp);
  {
    /* the whole curve and the other version's key in view */
    double lo = MIN (shown_value, other_value), hi = MAX (shown_value, other_value);
    const TressCurve *c = tress_curve_document_get_curve (cd, curve);
    double f0, f1, v0, v1;

    tress_curve_get_bounds (c, &f0, &f1, &v0, &v1);
    vp.frame_min = f0 - 1;
    vp.frame_max = f1 + 1;
    vp.value_min = MIN (lo, v0) - 0.2;
    vp.value_max = MAX (hi, v1) + 0.2;
    /* Values as stored (no degrees), so the viewport is in the curve's units. */
    g_object_set (view, "degrees", FALSE, NULL);
    tress_curve_view_set_viewport (view, &vp);
    tress_curve_view_get_viewport (view, &vp);
  }
  /* Where the key is drawn once the graph has its size (a resize keeps the
   * frames and values in view, not their pixels). */
  tress_test_wait_frame (GTK_WIDGET (view));
  tress_curve_view_get_viewport (view, &vp);
  g_assert_cmpfloat (vp.width, ==, gtk_widget_get_width (GTK_WIDGET (view)));
  x = tress_curve_viewport_frame_to_x (&vp, tress_curve_get_key (ghost, key)->frame);
  y_other = tress_curve_viewport_value_to_y (&vp, other_value);
  take_shot (GTK_WIDGET (view), &with, "compare-with.png");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (editor), "curves.stop-comparing", NULL));
  g_assert_cmpuint (tress_curve_view_get_n_ghosts (view), ==, 0);
  g_assert_null (tress_curve_editor_get_compare_name (editor));
  tress_test_wait_frame (GTK_WIDGET (view));
  take_shot (GTK_WIDGET (view), &without, "compare-without.png");
  g_assert_cmpuint (differing (&with, &without, x, y_other, 3), >, 0);
  /* In a colour of its own, and named in a legend: amber there, none without. */
  g_assert_cmpuint (count_color (&with, 0xFA, 0xBF, 0x2E), >, 50);
  g_assert_cmpuint (count_color (&without, 0xFA, 0xBF, 0x2E), ==, 0);
  g_free (with.data);
  g_free (without.data);

  /* The saved file: an edit in the editor, and the ghost is the file as saved. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "curve.select-key", "(uub)", curve,
                                             key, FALSE));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "curve.nudge", "(ii)", 0, 5));
  g_assert_cmpfloat (tress_curve_get_key (tress_curve_document_get_curve (cd, curve), key)->value,
                     !=, shown_value);
  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (editor), "curves.compare-with-saved", NULL));
  TRESS_TEST_WAIT_FOR (tress_curve_editor_get_compare_name (editor) != NULL);
  ghost = tress_curve_view_get_ghost (view, curve);
  g_assert_nonnull (ghost);
  g_assert_cmpfloat (tress_curve_get_key (ghost, key)->value, ==, shown_value);

  tress_document_revert (tw.document, NULL, NULL);
  tress_test_window_close (&tw);
}

/* "Compare with…" left open when the window closes: the chooser goes with
 * the window, and lets go of the editor and the document. */
static void
test_chooser_left_open (void)
{
  g_autofree char *path = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  TressTestWindow tw;

  if (path == NULL)
    return;
  tress_test_window_open (&tw, path, TRESS_TYPE_CURVE_EDITOR, 960, 640);
  g_assert_true (gtk_widget_activate_action (tw.editor, "curves.compare-with", NULL));
  TRESS_TEST_WAIT_FOR (chooser_shown ());
  tress_test_window_close (&tw);
  g_assert_false (chooser_shown ());
}

int
main (int argc, char *argv[])
{
  tress_test_window_init (&argc, &argv);
  g_test_add_func ("/curves/compare", test_compare);
  g_test_add_func ("/curves/compare/chooser-left-open", test_chooser_left_open);
  return g_test_run ();
}
