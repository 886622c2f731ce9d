/* test-niff-scene-clicks.c: a NIFF scene moved by a user's clicks, seen on the screen
 *
 * Opens Rings.niff in a TressWindow of the default size (960×640) under Xvfb
 * and drives it with the X server's own pointer and keyboard (XTest): a click
 * on a tree row chooses the RotateX channel of Sweep15_3's AnimGroup, a click
 * on the timeline scrubs, "." puts the playhead on the next key (and selects
 * it), and a drag of that key moves the ring on screen: what the X server
 * shows in the preview's place (XGetImage, the pixels a screenshot takes) is
 * compared before and after. A click on the "Bones" toggle hides the sticks
 * and a click on HightRight's ring selects its curves. Skipped without X11,
 * XTest or GL.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gtk/gtk.h>
#include <string.h>

#include "tress-test-pointer.h"
#include "tress-test-scene.h"
#include "tress-test-utils.h"

static TressApplication *app;

typedef TressTestScene Fixture;

static void
click_middle (GtkWidget *widget)
{
  tress_test_pointer_click (widget, gtk_widget_get_width (widget) / 2.0,
                            gtk_widget_get_height (widget) / 2.0);
}

static void
press_key (guint keyval)
{
  tress_test_pointer_key (keyval, TRUE);
  tress_test_pointer_key (keyval, FALSE);
}

static const char *
shown_path (Fixture *f)
{
  if (tress_curve_view_get_n_curves (f->view) != 1)
    return NULL;
  return tress_curve_document_get_curve (f->doc, tress_curve_view_get_curve_index (f->view, 0))
      ->path;
}

static void
test_clicks (void)
{
  g_autofree char *path = tress_test_sample_path ("niff/Rings.niff");
  g_autoptr (GBytes) start = NULL, before = NULL, after = NULL;
  Fixture fx = { 0 }, *f = &fx;
  GtkWidget *root, *row, *scale, *bones;
  TressSceneAnimator *animator;
  double best, x, y, key_value;
  int width, height, hight_right;
  guint total, curve, key, poses;

  if (path == NULL)
    return;
  f->window = tress_window_new (GTK_APPLICATION (app));
  tress_window_set_remember_size (f->window, FALSE);
  gtk_window_get_default_size (GTK_WINDOW (f->window), &width, &height);
  g_assert_cmpint (width, ==, 960);
  g_assert_cmpint (height, ==, 640);
  gtk_window_present (GTK_WINDOW (f->window));
  TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (GTK_WIDGET (f->window)));
  root = GTK_WIDGET (f->window);
  if (!tress_test_pointer_available (root))
    {
      tress_test_scene_close (f);
      return;
    }
  tress_test_scene_load (f, path);
  if (!tress_test_scene_wait_gl (f))
    {
      g_test_skip ("the preview has no GL here");
      tress_test_scene_close (f);
      return;
    }
  animator = tress_scene_pane_get_animator (f->pane);
  g_assert_nonnull (animator);
  f->area = tress_test_find_type (GTK_WIDGET (f->preview), GTK_TYPE_GL_AREA);
  g_assert_nonnull (f->area);
  TRESS_TEST_WAIT_FOR (gtk_widget_get_width (f->area) > 0
                       && tress_scene_preview_get_n_frames (f->preview) > 0);
  g_test_message ("window %d×%d, preview picture %d×%d", gtk_widget_get_width (root),
                  gtk_widget_get_height (root), gtk_widget_get_width (f->area),
                  gtk_widget_get_height (f->area));
  g_assert_cmpint (gtk_widget_get_width (f->area), >=, 120);
  g_assert_cmpint (gtk_widget_get_height (f->area), >=, 120);

  /* On the screen: the rings, in their materials' colours. */
  start = tress_test_scene_settled_screen (f);
  total = (guint)(g_bytes_get_size (start) / 3);
  g_test_message ("on screen: cyan %u, blue %u of %u",
                  tress_test_pixels_cyan_or_blue (start, 3, TRUE),
                  tress_test_pixels_cyan_or_blue (start, 3, FALSE), total);
  g_assert_cmpuint (tress_test_pixels_cyan_or_blue (start, 3, TRUE), >, total / 500);
  g_assert_cmpuint (tress_test_pixels_cyan_or_blue (start, 3, FALSE), >, total / 500);

  /* Choosing a channel: a click on the RotateY row, then on the RotateX row
   * (Sweep15_3's, the topmost). */
  best = G_MAXDOUBLE;
  row = tress_test_find_label (GTK_WIDGET (f->editor), "RotateY", root, &best);
  g_assert_nonnull (row);
  click_middle (row);
  TRESS_TEST_WAIT_FOR (g_strcmp0 (shown_path (f), "Sweep15_3_Animation/RotateY/Y") == 0);
  best = G_MAXDOUBLE;
  row = tress_test_find_label (GTK_WIDGET (f->editor), "RotateX", root, &best);
  g_assert_nonnull (row);
  click_middle (row);
  TRESS_TEST_WAIT_FOR (g_strcmp0 (shown_path (f), "Sweep15_3_Animation/RotateX/X") == 0);
  curve = tress_curve_view_get_curve_index (f->view, 0);

  /* Scrubbing: a click on the timeline a little past its middle; then, with
   * the graph focused (a click on its empty top left, 40 px in: GtkPaned
   * takes presses a few pixels beside its handle), "." puts the playhead on
   * the next key and selects it. */
  scale = tress_test_find_type (GTK_WIDGET (f->editor), GTK_TYPE_SCALE);
  g_assert_nonnull (scale);
  tress_test_pointer_click (scale, gtk_widget_get_width (scale) * 0.55,
                            gtk_widget_get_height (scale) / 2.0);
  TRESS_TEST_WAIT_FOR (tress_curve_view_get_playhead (f->view) > 1);
  g_test_message ("timeline click: frame %.2f", tress_curve_view_get_playhead (f->view));
  tress_test_pointer_click (GTK_WIDGET (f->view), 40, 12);
  TRESS_TEST_WAIT_FOR (gtk_widget_is_focus (GTK_WIDGET (f->view)));
  {
    double scrubbed = tress_curve_view_get_playhead (f->view);

    press_key (GDK_KEY_period);
    TRESS_TEST_WAIT_FOR (tress_curve_view_get_playhead (f->view) > scrubbed);
  }
  {
    const TressCurve *c = tress_curve_document_get_curve (f->doc, curve);
    double frame = tress_curve_view_get_playhead (f->view);

    key = tress_curve_lower_bound (c, frame);
    g_assert_cmpuint (key, <, tress_curve_get_n_keys (c));
    g_assert_cmpfloat (tress_curve_get_key (c, key)->frame, ==, frame);
    key_value = tress_curve_get_key (c, key)->value;
    g_test_message ("next key: %u at frame %g, value %g", key, frame, key_value);
  }
  before = tress_test_scene_settled_screen (f);

  /* Dragging that key up by a third of the graph, in steps, as a hand does. */
  g_assert_true (tress_curve_view_get_point (f->view, curve, key, TRESS_CURVE_PART_KEY, &x, &y));
  poses = tress_scene_pane_get_n_poses (f->pane);
  {
    double lift = gtk_widget_get_height (GTK_WIDGET (f->view)) / 3.0;
    double points[] = { x, y, x, y - 4, x, y - lift / 3, x, y - 2 * lift / 3, x, y - lift };

    tress_test_pointer_drag (GTK_WIDGET (f->view), 1, points, G_N_ELEMENTS (points) / 2);
  }
  g_assert_true (tress_document_get_modified (TRESS_DOCUMENT (f->doc)));
  g_test_message ("key value %g -> %g", key_value,
                  tress_curve_get_key (tress_curve_document_get_curve (f->doc, curve), key)->value);
  g_assert_cmpfloat (
      tress_curve_get_key (tress_curve_document_get_curve (f->doc, curve), key)->value, >,
      key_value + 0.5);
  TRESS_TEST_WAIT_FOR (tress_scene_pane_get_n_poses (f->pane) > poses);
  after = tress_test_scene_settled_screen (f);
  g_test_message ("the ring moved: %u of %u screen pixels changed",
                  tress_test_pixels_different (before, after, 3, 0), total);
  g_assert_cmpuint (tress_test_pixels_different (before, after, 3, 0), >, total / 300);

  /* A click on "Bones" hides the sticks; a click on HightRight's ring
   * selects its nine curves. */
  bones = tress_test_find_button (GTK_WIDGET (f->preview), "Bones", NULL);
  g_assert_nonnull (bones);
  click_middle (bones);
  TRESS_TEST_WAIT_FOR (!tress_scene_preview_get_show_bones (f->preview));
  tress_test_scene_settled_screen (f);
  hight_right = tress_scene_find_node (animator->scene, "HightRight");
  g_assert_cmpint (hight_right, >=, 0);
  {
    int w = gtk_widget_get_width (f->area), h = gtk_widget_get_height (f->area);
    double found_x = -1, found_y = -1;

    /* A point of HightRight's ring whose neighbours 3 px around are the
     * ring too (away from its edges), on a 3 px grid. */
    for (int py = 3; py + 3 < h && found_x < 0; py += 3)
      for (int px = 3; px + 3 < w && found_x < 0; px += 3)
        if (tress_scene_preview_pick (f->preview, px, py) == hight_right
            && tress_scene_preview_pick (f->preview, px - 3, py) == hight_right
            && tress_scene_preview_pick (f->preview, px + 3, py) == hight_right
            && tress_scene_preview_pick (f->preview, px, py - 3) == hight_right
            && tress_scene_preview_pick (f->preview, px, py + 3) == hight_right)
          found_x = px, found_y = py;
    g_assert_cmpfloat (found_x, >=, 0);
    g_test_message ("clicking HightRight's ring at (%g, %g)", found_x, found_y);
    tress_test_pointer_click (f->area, found_x, found_y);
  }
  TRESS_TEST_WAIT_FOR (tress_scene_preview_is_highlighted (f->preview, (guint)hight_right));
  TRESS_TEST_WAIT_FOR (tress_curve_view_get_n_curves (f->view) == 9);
  for (guint i = 0; i < 9; i++)
    g_assert_true (g_str_has_prefix (
        tress_curve_document_get_curve (f->doc, tress_curve_view_get_curve_index (f->view, i))
            ->path,
        "HightRight_Animation/"));

  /* Playback, looped: a click on the timeline near its end, a click on the
   * play button; the playhead wraps to the start (the loop toggle is on) and
   * the preview is posed on the way; a second click stops it. Rings' groups
   * store frame rate 1, not a rate: the editor plays 30 frames a second. */
  {
    GtkWidget *play = tress_test_find_button (GTK_WIDGET (f->editor), NULL, "curve.playing");
    gboolean playing = FALSE;
    double near_end;

    g_assert_nonnull (play);
    tress_test_pointer_click (scale, gtk_widget_get_width (scale) * 0.97,
                              gtk_widget_get_height (scale) / 2.0);
    TRESS_TEST_WAIT_FOR (tress_curve_view_get_playhead (f->view) > 200);
    near_end = tress_curve_view_get_playhead (f->view);
    g_assert_cmpfloat (tress_curve_view_get_fps (f->view), ==, 30);
    poses = tress_scene_pane_get_n_poses (f->pane);
    click_middle (play);
    g_object_get (f->view, "playing", &playing, NULL);
    g_assert_true (playing);
    TRESS_TEST_WAIT_FOR (tress_curve_view_get_playhead (f->view) < near_end - 100);
    TRESS_TEST_WAIT_FOR (tress_scene_pane_get_n_poses (f->pane) > poses + 2);
    g_test_message ("playback from %.1f wrapped to %.1f; %u poses", near_end,
                    tress_curve_view_get_playhead (f->view),
                    tress_scene_pane_get_n_poses (f->pane) - poses);
    click_middle (play);
    g_object_get (f->view, "playing", &playing, NULL);
    g_assert_false (playing);
  }

  tress_test_scene_close (f);
}

int
main (int argc, char *argv[])
{
  app = tress_test_scene_init (&argc, &argv);
  g_test_add_func ("/niff-scene-clicks/rings", test_clicks);
  return g_test_run ();
}
