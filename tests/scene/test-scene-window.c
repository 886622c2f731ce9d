/* test-scene-window.c: the animation preview in the application window
 *
 * Opens Animal_Bass_Animation.bfres in a TressWindow under Xvfb: the Bass
 * model is found beside it, the preview draws the mesh (pixels other than the
 * background where the model is), scrubbing and a key drag change the drawn
 * pose (the drag before it is committed), selecting curves highlights their
 * bones, clicking a bone selects its curves in the tree, a model that cannot
 * be read is an error in the preview's place while curve editing goes on.
 * With GDK_DEBUG=gl-disable (the "scene-window-nogl" test) the preview says
 * GL is unavailable and the rest works.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gtk/gtk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "curves/tress-curve-editor.h"
#include "scene/tress-scene-pane.h"
#include "scene/tress-scene-renderer.h"
#include "tress-application.h"
#include "tress-document-page.h"
#include "tress-test-utils.h"
#include "tress-window.h"

static TressApplication *app;

#define WAIT_FOR(cond) TRESS_TEST_WAIT_FOR (cond)

typedef struct
{
  TressWindow *window;
  TressCurveEditor *editor;
  TressCurveView *view;
  TressCurveDocument *doc;
  TressScenePane *pane;
  TressScenePreview *preview;
} Fixture;

static gboolean
open_window (Fixture *f, const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);

  f->window = tress_window_new (GTK_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (f->window), 960, 640);
  gtk_window_present (GTK_WINDOW (f->window));
  WAIT_FOR (gtk_widget_get_mapped (GTK_WIDGET (f->window)));
  tress_window_open_file (f->window, file);
  WAIT_FOR (tress_window_get_n_documents (f->window) == 1 && !tress_window_get_busy (f->window));
  f->editor = TRESS_CURVE_EDITOR (
      tress_document_page_get_editor (tress_window_get_current_page (f->window)));
  f->view = tress_curve_editor_get_view (f->editor);
  f->doc = tress_curve_editor_get_document (f->editor);
  f->pane = TRESS_SCENE_PANE (tress_curve_editor_get_preview (f->editor));
  g_assert_nonnull (f->pane);
  f->preview = tress_scene_pane_get_preview (f->pane);
  WAIT_FOR (gtk_widget_get_mapped (GTK_WIDGET (f->preview)));
  return TRUE;
}

static void
close_window (Fixture *f)
{
  g_object_add_weak_pointer (G_OBJECT (f->window), (gpointer *)&f->window);
  gtk_window_destroy (GTK_WINDOW (f->window));
  WAIT_FOR (f->window == NULL);
}

static gboolean
is_background (const guint8 *p)
{
  return abs (p[0] - TRESS_SCENE_BACKGROUND_R) <= 2 && abs (p[1] - TRESS_SCENE_BACKGROUND_G) <= 2
         && abs (p[2] - TRESS_SCENE_BACKGROUND_B) <= 2;
}

static guint
count_model_pixels (GBytes *pixels)
{
  gsize n;
  const guint8 *d = g_bytes_get_data (pixels, &n);
  guint count = 0;

  for (gsize i = 0; i + 3 < n; i += 4)
    if (!is_background (d + i))
      count++;
  return count;
}

static guint
count_different (GBytes *a, GBytes *b)
{
  gsize n, m;
  const guint8 *x = g_bytes_get_data (a, &n), *y = g_bytes_get_data (b, &m);
  guint count = 0;

  g_assert_cmpuint (n, ==, m);
  for (gsize i = 0; i + 3 < n; i += 4)
    if (memcmp (x + i, y + i, 3) != 0)
      count++;
  return count;
}

static int
curve_by_path (TressCurveDocument *doc, const char *path)
{
  for (guint i = 0; i < tress_curve_document_get_n_curves (doc); i++)
    if (g_strcmp0 (tress_curve_document_get_curve (doc, i)->path, path) == 0)
      return (int)i;
  return -1;
}

static void
show_curve (Fixture *f, const char *path)
{
  int c = curve_by_path (f->doc, path);
  guint u;

  g_assert_cmpint (c, >=, 0);
  u = (guint)c;
  tress_curve_view_set_curves (f->view, &u, 1);
}

/* What is drawn after the next frame. */
static GBytes *
grab (Fixture *f)
{
  GBytes *pixels;
  int w, h;

  /* Once the area has its size (the first frames of a window). */
  WAIT_FOR ((pixels = tress_scene_preview_grab (f->preview, &w, &h)) != NULL);
  return pixels;
}

typedef struct
{
  Fixture *f;
  GBytes *during; /* the picture while the drag is in progress */
  gboolean modified_during;
} DragWatch;

static void
on_drag_update (TressCurveView *view, DragWatch *watch)
{
  if (watch->during != NULL)
    return;
  watch->during = grab (watch->f);
  watch->modified_during = tress_document_get_modified (TRESS_DOCUMENT (watch->f->doc));
}

static void
test_preview (void)
{
  g_autofree char *path = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *model = tress_test_sample_path ("bfres/Animal_Bass.bfres");
  Fixture f = { 0 };
  TressSceneAnimator *animator;
  g_autoptr (GBytes) rest = NULL, scrubbed = NULL, after = NULL;
  int curve, spine2, head;
  guint total;
  double x, y;

  if (path == NULL || model == NULL)
    return;
  open_window (&f, path);
  /* The Bass model is found beside the animation file. */
  WAIT_FOR (tress_scene_pane_get_animator (f.pane) != NULL
            || tress_scene_preview_get_message (f.preview) != NULL);
  animator = tress_scene_pane_get_animator (f.pane);
  g_assert_nonnull (animator);
  g_assert_null (tress_scene_preview_get_message (f.preview));
  g_assert_cmpstr (animator->scene->name, ==, "Bass");
  g_assert_cmpstr (animator->source, ==, "Animal_Bass.bfres");

  WAIT_FOR (tress_scene_preview_get_gl_ready (f.preview)
            || tress_scene_preview_get_gl_error (f.preview) != NULL);
  if (!tress_scene_preview_get_gl_ready (f.preview))
    {
      /* Without GL the pane says so, and the editor still edits. */
      g_assert_nonnull (strstr (tress_scene_preview_get_gl_error (f.preview), "unavailable"));
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "curve.select-key", "(uub)",
                                                 tress_curve_view_get_curve_index (f.view, 0), 1u,
                                                 FALSE));
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "curve.nudge", "(ii)", 0, 1));
      g_assert_true (tress_document_get_modified (TRESS_DOCUMENT (f.doc)));
      close_window (&f);
      return;
    }

  /* The mesh is drawn: many pixels other than the background. */
  show_curve (&f, "Dead/Skl_Root/Rotate Z");
  tress_curve_view_set_playhead (f.view, 0);
  WAIT_FOR (tress_scene_preview_is_highlighted (
      f.preview, (guint)tress_scene_find_node (animator->scene, "Skl_Root")));
  rest = grab (&f);
  g_assert_nonnull (rest);
  total = (guint)(g_bytes_get_size (rest) / 4);
  g_test_message ("preview: %u of %u pixels show the model", count_model_pixels (rest), total);
  g_assert_cmpuint (count_model_pixels (rest), >, total / 50);
  /* The bones alone draw far less than the mesh. */
  tress_scene_preview_set_show_mesh (f.preview, FALSE);
  {
    g_autoptr (GBytes) bones = grab (&f);

    g_assert_cmpuint (count_model_pixels (bones), <, count_model_pixels (rest) / 3);
    g_assert_cmpuint (count_model_pixels (bones), >, 20);
  }
  tress_scene_preview_set_show_mesh (f.preview, TRUE);

  /* Scrubbing: Dead turns the fish on its side by frame 25. */
  tress_curve_view_set_playhead (f.view, 25);
  scrubbed = grab (&f);
  g_assert_cmpuint (count_different (rest, scrubbed), >, total / 100);
  g_assert_cmpint (tress_scene_pane_get_animation (f.pane), >=, 0);
  g_assert_cmpstr (animator->anim_names[tress_scene_pane_get_animation (f.pane)], ==, "Dead");

  /* Playback poses every frame it plays. */
  {
    guint poses = tress_scene_pane_get_n_poses (f.pane);

    g_object_set (f.view, "playing", TRUE, NULL);
    WAIT_FOR (tress_scene_pane_get_n_poses (f.pane) >= poses + 3);
    g_object_set (f.view, "playing", FALSE, NULL);
    tress_curve_view_set_playhead (f.view, 25);
  }

  /* The shown curve's bone is highlighted, the others not. */
  g_assert_true (tress_scene_preview_is_highlighted (
      f.preview, (guint)tress_scene_find_node (animator->scene, "Skl_Root")));
  head = tress_scene_find_node (animator->scene, "Head");
  g_assert_false (tress_scene_preview_is_highlighted (f.preview, (guint)head));

  /* A key drag changes the drawn pose before it is committed. */
  {
    DragWatch watch = { &f, NULL, TRUE };
    guint poses_at_commit;
    gulong id;
    guint c;

    curve = curve_by_path (f.doc, "Dead/Skl_Root/Rotate Z");
    c = (guint)curve;
    /* The key nearest the playhead, dragged up by a third of the graph. */
    {
      const TressCurve *cv = tress_curve_document_get_curve (f.doc, c);
      guint k = 0;

      for (guint i = 0; i < tress_curve_get_n_keys (cv); i++)
        if (fabs (tress_curve_get_key (cv, i)->frame - 25)
            < fabs (tress_curve_get_key (cv, k)->frame - 25))
          k = i;
      g_assert_true (tress_curve_view_get_point (f.view, c, k, TRESS_CURVE_PART_KEY, &x, &y));
      id = g_signal_connect (f.view, "drag-update", G_CALLBACK (on_drag_update), &watch);
      g_assert_true (gtk_widget_activate_action (
          GTK_WIDGET (f.view), "curve.drag", "(ddddb)", x, y, x,
          y - gtk_widget_get_height (GTK_WIDGET (f.view)) / 3.0, FALSE));
      g_signal_handler_disconnect (f.view, id);
      poses_at_commit = tress_scene_pane_get_n_poses (f.pane);
    }
    g_assert_nonnull (watch.during);
    g_assert_false (watch.modified_during); /* not yet committed */
    g_assert_cmpuint (count_different (scrubbed, watch.during), >, total / 200);
    g_assert_true (tress_document_get_modified (TRESS_DOCUMENT (f.doc)));
    /* The committed curve is posed before the next frame. */
    WAIT_FOR (tress_scene_pane_get_n_poses (f.pane) > poses_at_commit);
    after = grab (&f);
    g_assert_cmpuint (count_different (scrubbed, after), >, total / 200);
    /* Undo brings the picture back (posed before the next frame). */
    {
      guint poses = tress_scene_pane_get_n_poses (f.pane);

      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.window), "win.undo", NULL));
      WAIT_FOR (tress_scene_pane_get_n_poses (f.pane) > poses);
    }
    {
      g_autoptr (GBytes) undone = grab (&f);

      g_assert_cmpuint (count_different (scrubbed, undone), ==, 0);
    }
    g_bytes_unref (watch.during);
  }

  /* Clicking a bone selects its curves in the tree (and the graph shows them). */
  spine2 = tress_scene_find_node (animator->scene, "Spine_2");
  g_assert_true (tress_scene_preview_node_position (f.preview, (guint)spine2, &x, &y));
  {
    double px, py;
    int spine1 = tress_scene_find_node (animator->scene, "Spine_1");

    g_assert_true (tress_scene_preview_node_position (f.preview, (guint)spine1, &px, &py));
    /* On the stick from Spine_1 to Spine_2, past the middle. */
    g_assert_cmpint (tress_scene_preview_pick (f.preview, px + (x - px) * 0.7, py + (y - py) * 0.7),
                     ==, spine2);
    g_signal_emit_by_name (f.preview, "node-clicked", spine2, (GdkModifierType)0);
  }
  /* The highlight follows the graph's new curves before the next frame. */
  WAIT_FOR (tress_scene_preview_is_highlighted (f.preview, (guint)spine2));
  g_assert_cmpuint (tress_curve_view_get_n_curves (f.view), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      const TressCurve *c
          = tress_curve_document_get_curve (f.doc, tress_curve_view_get_curve_index (f.view, i));

      g_assert_true (g_str_has_prefix (c->path, "Dead/Spine_2/"));
    }
  {
    GtkSelectionModel *sel = tress_curve_editor_get_tree_selection (f.editor);
    g_autoptr (GtkBitset) set = gtk_selection_model_get_selection (sel);
    g_autoptr (GtkTreeListRow) row = NULL;
    g_autoptr (TressCurveNode) node = NULL;

    g_assert_cmpuint (gtk_bitset_get_size (set), ==, 1);
    row = g_list_model_get_item (G_LIST_MODEL (sel), gtk_bitset_get_nth (set, 0));
    node = gtk_tree_list_row_get_item (row);
    g_assert_cmpstr (tress_curve_node_get_name (node), ==, "Spine_2");
  }
  g_assert_true (tress_scene_preview_is_highlighted (f.preview, (guint)spine2));
  g_assert_false (tress_scene_preview_is_highlighted (f.preview, (guint)head));
  close_window (&f);
}

/* A model that cannot be read is an error in the preview's place, naming
 * field and offset; the curves still edit. */
static void
test_bad_model (void)
{
  g_autoptr (GBytes) anims = tress_test_load_sample ("bfres/Animal_Bass_Animation.bfres");
  g_autoptr (GBytes) model = tress_test_load_sample ("bfres/Animal_Bass.bfres");
  g_autofree char *dir = NULL, *anim_path = NULL, *model_path = NULL;
  g_autoptr (GByteArray) broken = g_byte_array_new ();
  Fixture f = { 0 };
  const char *message;

  if (anims == NULL || model == NULL)
    return;
  dir = g_build_filename (tress_test_tmpdir (), "bad", NULL);
  g_mkdir_with_parents (dir, 0755);
  anim_path = g_build_filename (dir, "Animal_Bass_Animation.bfres", NULL);
  model_path = g_build_filename (dir, "Animal_Bass.bfres", NULL);
  g_assert_true (g_file_set_contents (anim_path, g_bytes_get_data (anims, NULL),
                                      g_bytes_get_size (anims), NULL));
  /* The model cut inside its vertex data. */
  g_byte_array_append (broken, g_bytes_get_data (model, NULL), 0x11000);
  g_assert_true (g_file_set_contents (model_path, (const char *)broken->data, broken->len, NULL));

  open_window (&f, anim_path);
  WAIT_FOR (tress_scene_preview_get_message (f.preview) != NULL);
  message = tress_scene_preview_get_message (f.preview);
  g_test_message ("%s", message);
  g_assert_nonnull (strstr (message, "offset 0x"));
  g_assert_null (tress_scene_pane_get_animator (f.pane));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "curve.select-key", "(uub)",
                                             tress_curve_view_get_curve_index (f.view, 0), 1u,
                                             FALSE));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "curve.nudge", "(ii)", 0, 1));
  g_assert_true (tress_document_get_modified (TRESS_DOCUMENT (f.doc)));

  /* Choosing the good model (as "Model…" does) shows it, and is remembered. */
  {
    g_autofree char *good = tress_test_sample_path ("bfres/Animal_Bass.bfres");
    g_autoptr (GFile) file = g_file_new_for_path (good);

    tress_scene_pane_load (f.pane, file);
    g_assert_nonnull (tress_scene_pane_get_animator (f.pane));
    g_assert_null (tress_scene_preview_get_message (f.preview));
  }
  close_window (&f);
  open_window (&f, anim_path);
  WAIT_FOR (tress_scene_pane_get_animator (f.pane) != NULL
            || tress_scene_preview_get_message (f.preview) != NULL);
  g_assert_nonnull (tress_scene_pane_get_animator (f.pane));
  close_window (&f);
}

int
main (int argc, char *argv[])
{
  g_autoptr (GError) error = NULL;

  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  app = tress_application_new ();
  g_application_set_flags (G_APPLICATION (app),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  g_test_add_func ("/scene-window/preview", test_preview);
  g_test_add_func ("/scene-window/bad-model", test_bad_model);
  return g_test_run ();
}
