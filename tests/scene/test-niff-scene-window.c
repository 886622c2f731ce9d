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
#include <string.h>

#include "scene/tress-scene-renderer.h"
#include "tress-test-scene.h"
#include "tress-test-utils.h"

typedef TressTestScene Fixture;

static void
open_window (Fixture *f, const char *path)
{
  tress_test_scene_open (f, path);
  tress_test_scene_wait_scene (f);
}

/* What is drawn at @frame, once the pose for it has reached the preview. */
static GBytes *
grab_at (Fixture *f, double frame)
{
  GBytes *pixels;
  int w, h;

  tress_curve_view_set_playhead (f->view, frame);
  TRESS_TEST_WAIT_FOR ((pixels = tress_scene_preview_grab (f->preview, &w, &h)) != NULL);
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

  if (!tress_test_scene_wait_gl (&f))
    {
      g_assert_nonnull (strstr (tress_scene_preview_get_gl_error (f.preview), "unavailable"));
      tress_test_scene_nudge_key (&f, 1u);
      tress_test_scene_close (&f);
      return;
    }

  /* The rings are drawn, in their materials' colours. */
  curve = tress_test_scene_curve (&f, "Sweep15_3_Animation/RotateX/X");
  g_assert_cmpint (curve, >=, 0);
  c = (guint)curve;
  tress_curve_view_set_curves (f.view, &c, 1);
  TRESS_TEST_WAIT_FOR (tress_scene_preview_is_highlighted (f.preview, 1));
  rest = grab_at (&f, 0);
  total = (guint)(g_bytes_get_size (rest) / 4);
  g_test_message ("%u of %u pixels drawn; cyan %u, blue %u", tress_test_pixels_drawn (rest, 4),
                  total, tress_test_pixels_cyan_or_blue (rest, 4, TRUE),
                  tress_test_pixels_cyan_or_blue (rest, 4, FALSE));
  g_assert_cmpuint (tress_test_pixels_drawn (rest, 4), >, total / 50);
  g_assert_cmpuint (tress_test_pixels_cyan_or_blue (rest, 4, TRUE), >, total / 500);
  g_assert_cmpuint (tress_test_pixels_cyan_or_blue (rest, 4, FALSE), >, total / 500);
  tress_scene_preview_set_show_mesh (f.preview, FALSE);
  {
    g_autoptr (GBytes) bones = grab_at (&f, 0);
    g_assert_cmpuint (tress_test_pixels_cyan_or_blue (bones, 4, TRUE)
                          + tress_test_pixels_cyan_or_blue (bones, 4, FALSE),
                      ==, 0);
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
    g_test_message ("dragging: %u pixels changed",
                    tress_test_pixels_different (before, watch.during, 4, 0));
    g_assert_cmpuint (tress_test_pixels_different (before, watch.during, 4, 0), >, total / 300);
    g_bytes_unref (watch.during);
    g_assert_true (tress_document_get_modified (TRESS_DOCUMENT (f.doc)));
    g_assert_cmpfloat (tress_curve_get_key (tress_curve_document_get_curve (f.doc, c), key)->value,
                       >, 0.5);
    /* Committed: the file's own keys give the new pose, before the next frame. */
    TRESS_TEST_WAIT_FOR (tress_scene_pane_get_n_poses (f.pane) > poses);
    after = grab_at (&f, key_frame);
    g_test_message ("committed: %u pixels changed",
                    tress_test_pixels_different (before, after, 4, 0));
    g_assert_cmpuint (tress_test_pixels_different (before, after, 4, 0), >, total / 300);
    far_after = grab_at (&f, 50);
    g_assert_cmpuint (tress_test_pixels_different (far_before, far_after, 4, 0), ==, 0);
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
  TRESS_TEST_WAIT_FOR (tress_scene_preview_is_highlighted (f.preview, (guint)hight_right));
  g_assert_false (tress_scene_preview_is_highlighted (f.preview, 1));
  g_assert_cmpuint (tress_curve_view_get_n_curves (f.view), ==, 9);
  for (guint i = 0; i < 9; i++)
    g_assert_true (g_str_has_prefix (
        tress_curve_document_get_curve (f.doc, tress_curve_view_get_curve_index (f.view, i))->path,
        "HightRight_Animation/"));
  tress_test_scene_close (&f);
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
    guint c = (guint)tress_test_scene_curve (&f, "Sweep15_3_Animation/RotateZ/Z");
    tress_curve_view_set_curves (f.view, &c, 1);
  }
  tress_test_scene_nudge_key (&f, 3u);
  tress_test_scene_close (&f);
}

int
main (int argc, char *argv[])
{
  tress_test_scene_init (&argc, &argv);
  g_test_add_func ("/niff-scene-window/rings", test_rings);
  g_test_add_func ("/niff-scene-window/broken-scene", test_broken_scene);
  return g_test_run ();
}
