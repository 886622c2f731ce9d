/* test-niff-scene-window.c: NIFF scenes in the animation preview of the window
 *
 * Opens Rings.niff in a TressWindow at 960×640 under Xvfb: the rings are
 * drawn in their colours (no "Model…" button: the file holds its scene),
 * moving a RotateX key changes the picture at that key's time (while it is
 * dragged and once committed) and not at a time the key does not reach,
 * clicking a ring selects its object's curves, and a broken scene list is an
 * error in the preview's place while the curves still edit. With
 * GDK_DEBUG=gl-disable ("niff-scene-window-nogl") the preview says GL is
 * unavailable and the rest works.
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

static void
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
  WAIT_FOR (tress_scene_pane_get_animator (f->pane) != NULL
            || tress_scene_preview_get_message (f->preview) != NULL);
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
count_drawn (GBytes *pixels)
{
  gsize n;
  const guint8 *d = g_bytes_get_data (pixels, &n);
  guint count = 0;

  for (gsize i = 0; i + 3 < n; i += 4)
    count += !is_background (d + i);
  return count;
}

/* Pixels of a cyan (green and blue high, red low) or a deep blue (blue high,
 * green and red low): the colours of Reflection's and HightRight's materials. */
static guint
count_colour (GBytes *pixels, gboolean cyan)
{
  gsize n;
  const guint8 *d = g_bytes_get_data (pixels, &n);
  guint count = 0;

  for (gsize i = 0; i + 3 < n; i += 4)
    if (cyan ? d[i] < 60 && d[i + 1] > 120 && d[i + 2] > 120
             : d[i] < 60 && d[i + 1] < 90 && d[i + 2] > 120)
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
    count += memcmp (x + i, y + i, 3) != 0;
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

/* What is drawn at @frame, once the pose for it has reached the preview. */
static GBytes *
grab_at (Fixture *f, double frame)
{
  GBytes *pixels;
  int w, h;

  tress_curve_view_set_playhead (f->view, frame);
  WAIT_FOR ((pixels = tress_scene_preview_grab (f->preview, &w, &h)) != NULL);
  return pixels;
}

typedef struct
{
  Fixture *f;
  double frame;
  GBytes *during;
  gboolean modified_during;
} DragWatch;

static void
on_drag_update (TressCurveView *view, DragWatch *watch)
{
  int w, h;

  if (watch->during != NULL)
    return;
  watch->during = tress_scene_preview_grab (watch->f->preview, &w, &h);
  watch->modified_during = tress_document_get_modified (TRESS_DOCUMENT (watch->f->doc));
}

static void
test_rings (void)
{
  g_autofree char *path = tress_test_sample_path ("niff/Rings.niff");
  g_autoptr (GBytes) rest = NULL, before = NULL, after = NULL, far_before = NULL, far_after = NULL;
  Fixture f = { 0 };
  TressSceneAnimator *animator;
  int curve, hight_right;
  guint total, key = 0, c;
  double key_frame;

  if (path == NULL)
    return;
  open_window (&f, path);
  animator = tress_scene_pane_get_animator (f.pane);
  g_assert_nonnull (animator);
  g_assert_null (tress_scene_preview_get_message (f.preview));
  g_assert_cmpstr (animator->scene->name, ==, "Braid001");
  g_assert_cmpstr (animator->source, ==, "Rings.niff");
  g_assert_cmpuint (animator->scene->meshes->len, ==, 3);

  WAIT_FOR (tress_scene_preview_get_gl_ready (f.preview)
            || tress_scene_preview_get_gl_error (f.preview) != NULL);
  if (!tress_scene_preview_get_gl_ready (f.preview))
    {
      g_assert_nonnull (strstr (tress_scene_preview_get_gl_error (f.preview), "unavailable"));
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "curve.select-key", "(uub)",
                                                 tress_curve_view_get_curve_index (f.view, 0), 1u,
                                                 FALSE));
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "curve.nudge", "(ii)", 0, 1));
      g_assert_true (tress_document_get_modified (TRESS_DOCUMENT (f.doc)));
      close_window (&f);
      return;
    }

  /* The rings are drawn, in their materials' colours. */
  curve = curve_by_path (f.doc, "Sweep15_3_Animation/RotateX/X");
  g_assert_cmpint (curve, >=, 0);
  c = (guint)curve;
  tress_curve_view_set_curves (f.view, &c, 1);
  WAIT_FOR (tress_scene_preview_is_highlighted (f.preview, 1));
  rest = grab_at (&f, 0);
  total = (guint)(g_bytes_get_size (rest) / 4);
  g_test_message ("%u of %u pixels drawn; cyan %u, blue %u", count_drawn (rest), total,
                  count_colour (rest, TRUE), count_colour (rest, FALSE));
  g_assert_cmpuint (count_drawn (rest), >, total / 50);
  g_assert_cmpuint (count_colour (rest, TRUE), >, total / 500);
  g_assert_cmpuint (count_colour (rest, FALSE), >, total / 500);
  tress_scene_preview_set_show_mesh (f.preview, FALSE);
  {
    g_autoptr (GBytes) bones = grab_at (&f, 0);
    g_assert_cmpuint (count_colour (bones, TRUE) + count_colour (bones, FALSE), ==, 0);
  }
  tress_scene_preview_set_show_mesh (f.preview, TRUE);

  /* Moving a RotateX key changes the picture at its time: the key at frame
   * 139 (0.4 rad), dragged up by a third of the graph. Frame 50 lies in
   * segments the key does not touch, and stays as it was. */
  {
    const TressCurve *cv = tress_curve_document_get_curve (f.doc, c);
    DragWatch watch = { &f, 0, NULL, TRUE };
    double x, y;
    gulong id;
    guint poses;

    for (guint i = 0; i < tress_curve_get_n_keys (cv); i++)
      if (tress_curve_get_key (cv, i)->frame == 139)
        key = i;
    g_assert_cmpuint (key, >, 0);
    key_frame = tress_curve_get_key (cv, key)->frame;
    far_before = grab_at (&f, 50);
    before = grab_at (&f, key_frame);
    g_assert_true (tress_curve_view_get_point (f.view, c, key, TRESS_CURVE_PART_KEY, &x, &y));
    id = g_signal_connect (f.view, "drag-update", G_CALLBACK (on_drag_update), &watch);
    g_assert_true (
        gtk_widget_activate_action (GTK_WIDGET (f.view), "curve.drag", "(ddddb)", x, y, x,
                                    y - gtk_widget_get_height (GTK_WIDGET (f.view)) / 3.0, FALSE));
    g_signal_handler_disconnect (f.view, id);
    poses = tress_scene_pane_get_n_poses (f.pane);
    g_assert_nonnull (watch.during);
    g_assert_false (watch.modified_during);
    g_test_message ("dragging: %u pixels changed", count_different (before, watch.during));
    g_assert_cmpuint (count_different (before, watch.during), >, total / 300);
    g_bytes_unref (watch.during);
    g_assert_true (tress_document_get_modified (TRESS_DOCUMENT (f.doc)));
    g_assert_cmpfloat (tress_curve_get_key (tress_curve_document_get_curve (f.doc, c), key)->value,
                       >, 0.5);
    /* Committed: the file's own keys give the new pose, before the next frame. */
    WAIT_FOR (tress_scene_pane_get_n_poses (f.pane) > poses);
    after = grab_at (&f, key_frame);
    g_test_message ("committed: %u pixels changed", count_different (before, after));
    g_assert_cmpuint (count_different (before, after), >, total / 300);
    far_after = grab_at (&f, 50);
    g_assert_cmpuint (count_different (far_before, far_after), ==, 0);
  }

  /* Clicking a ring (away from the sticks) selects its object's curves. */
  tress_scene_preview_set_show_bones (f.preview, FALSE);
  hight_right = tress_scene_find_node (animator->scene, "HightRight");
  g_assert_cmpint (hight_right, >=, 0);
  {
    int w = gtk_widget_get_width (GTK_WIDGET (f.preview));
    int h = gtk_widget_get_height (GTK_WIDGET (f.preview));
    double found_x = -1, found_y = -1;

    for (int y = 0; y < h && found_x < 0; y += 2)
      for (int x = 0; x < w && found_x < 0; x += 2)
        if (tress_scene_preview_pick (f.preview, x, y) == hight_right)
          found_x = x, found_y = y;
    g_assert_cmpfloat (found_x, >=, 0);
    g_test_message ("HightRight's ring at (%g, %g)", found_x, found_y);
    g_signal_emit_by_name (f.preview, "node-clicked", hight_right, (GdkModifierType)0);
  }
  WAIT_FOR (tress_scene_preview_is_highlighted (f.preview, (guint)hight_right));
  g_assert_false (tress_scene_preview_is_highlighted (f.preview, 1));
  g_assert_cmpuint (tress_curve_view_get_n_curves (f.view), ==, 9);
  for (guint i = 0; i < 9; i++)
    g_assert_true (g_str_has_prefix (
        tress_curve_document_get_curve (f.doc, tress_curve_view_get_curve_index (f.view, i))->path,
        "HightRight_Animation/"));
  close_window (&f);
}

/* A broken scene list is an error in the preview's place, naming the list,
 * field and offset; the curves still edit. */
static void
test_broken_scene (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/Rings.niff");
  g_autofree char *broken = NULL;
  Fixture f = { 0 };
  const char *message;
  guint8 *d;
  gsize size, pos;

  if (bytes == NULL)
    return;
  size = g_bytes_get_size (bytes);
  d = g_memdup2 (g_bytes_get_data (bytes, NULL), size);
  /* The VtxList: its first VtxGroup's vertex count made too large. */
  pos = GUINT32_FROM_BE (*(guint32 *)(d + 12));
  while (GUINT32_FROM_BE (*(guint32 *)(d + pos)) != 0x00040000)
    pos += GUINT32_FROM_BE (*(guint32 *)(d + pos + 8));
  pos += GUINT32_FROM_BE (*(guint32 *)(d + pos + 4));
  *(guint32 *)(d + pos + 20) = GUINT32_TO_BE (100000);
  broken = g_build_filename (tress_test_tmpdir (), "Rings-broken.niff", NULL);
  g_assert_true (g_file_set_contents (broken, (const char *)d, size, NULL));
  g_free (d);

  open_window (&f, broken);
  message = tress_scene_preview_get_message (f.preview);
  g_assert_nonnull (message);
  g_test_message ("%s", message);
  g_assert_nonnull (strstr (message, "The scene cannot be shown"));
  g_assert_nonnull (strstr (message, "VtxGroup 0 count at offset 0x"));
  g_assert_null (tress_scene_pane_get_animator (f.pane));
  g_assert_cmpuint (tress_curve_document_get_n_curves (f.doc), ==, 54);
  {
    guint c = (guint)curve_by_path (f.doc, "Sweep15_3_Animation/RotateZ/Z");
    tress_curve_view_set_curves (f.view, &c, 1);
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "curve.select-key", "(uub)",
                                             tress_curve_view_get_curve_index (f.view, 0), 3u,
                                             FALSE));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "curve.nudge", "(ii)", 0, 1));
  g_assert_true (tress_document_get_modified (TRESS_DOCUMENT (f.doc)));
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
  g_test_add_func ("/niff-scene-window/rings", test_rings);
  g_test_add_func ("/niff-scene-window/broken-scene", test_broken_scene);
  return g_test_run ();
}
