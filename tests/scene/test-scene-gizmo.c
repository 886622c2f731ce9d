/* test-scene-gizmo.c: posing a bone in the preview with the rotation gizmo,
 * driven by the X server's pointer and keyboard in a 960×640 window.
 *
 * Animal_Bass_Animation.bfres on Animal_Bass.bfres: Spine_2 clicked, "Pose"
 * clicked; a drag of its X ring moves the picture and Escape (or the right
 * button) puts it back with nothing written; a drag of ~30° with Ctrl (5°
 * steps) asks first (Dead's s8 keys are too fine; the graph's question,
 * "Widen to s16" clicked) and stores one undo step "Rotate Spine_2 at frame
 * N". The file saved is read with the independent
 * reader of the format page (tests/bfres/bfres-setpose-check.h): the bone's
 * local rotation at the playhead turned 30° (± one stored step) about its own
 * X axis, every other bone, frame and animation as before. Undo gives back
 * the very bytes. With Auto-Key off the same drag only previews, and Key
 * Pose (I in the preview, not the editor's insert-key) stores the same bytes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "bfres/bfres-setpose-check.h"
#include "gizmo-test-common.h"
#include "tress-test-pointer.h"
#include "tress-test-scene.h"
#include "tress-test-utils.h"
#include "tress-test-window.h"

#define FRAME 10

/* The Euler angles of Spine_2 at FRAME in FRES bytes @d (the format page's
 * reading), bind pose from @model. */
static void
read_rotation (GBytes *bytes, const guint8 *model, const char *anim, double e[3], double *step)
{
  const guint8 *d = g_bytes_get_data (bytes, NULL);
  gsize fska = ref_fska_find (d, anim);
  RefFska f;
  RefBoneAnim ba = { 0 };
  double bind[REF_BASE_SLOTS];

  g_assert_cmpuint (fska, !=, 0);
  g_assert_true (sp_bone (d, fska, "Spine_2", &f, &ba));
  g_assert_true (sp_bind (model, "Spine_2", bind));
  for (guint k = 0; k < 3; k++)
    e[k] = sp_value (d, &ba, 0x20 + 4 * k, FRAME, bind);
  if (step != NULL)
    *step = sp_step (d, &ba, 0x20, e[0]);
  g_free (ba.name);
}

/* The question before a lossy store: nothing stored while it is up; the
 * pointer clicks @button. */
static void
answer (TressHistory *history, const char *button)
{
  GtkWidget *question = NULL, *wider;

  TRESS_TEST_WAIT_FOR ((question = gt_find_question ()) != NULL);
  TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (question));
  g_assert_false (tress_history_can_undo (history));
  TRESS_TEST_WAIT_FOR ((wider = tress_test_find_button (question, button, NULL)) != NULL
                       && gtk_widget_get_width (wider) > 0);
  tress_test_wait_frame (question);
  tress_test_pointer_click (wider, gtk_widget_get_width (wider) / 2.0,
                            gtk_widget_get_height (wider) / 2.0);
  TRESS_TEST_WAIT_FOR (gt_find_question () == NULL);
}

/* The bone's world matrix in the scene shown now (the preview's scene is
 * made again after every stored edit, undo and redo). */
static const graphene_matrix_t *
spine2_world (TressScenePane *pane, int node)
{
  return &tress_scene_get_node (tress_scene_pane_get_animator (pane)->scene, (guint)node)->world;
}

static void
test_gizmo (void)
{
  g_autofree char *path = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *model_path = tress_test_sample_path ("bfres/Animal_Bass.bfres");
  const char *screenshot = g_getenv ("TRESS_GIZMO_SCREENSHOT");
  TressTestScene f = { 0 };
  TressSceneAnimator *animator;
  TressSceneGizmo *gizmo;
  TressHistory *history;
  GtkWidget *area, *pose;
  g_autoptr (GBytes) original = NULL, model = NULL, still = NULL, moved = NULL, back = NULL;
  g_autoptr (GBytes) saved = NULL, undone = NULL;
  g_autofree char *dir = NULL, *out = NULL, *out2 = NULL, *link = NULL, *anim = NULL;
  g_autofree double *path1 = NULL, *path2 = NULL;
  TressGizmoFrame frame;
  graphene_matrix_t world_before;
  float mvp[16];
  double w, h, cx, cy, sx = 0, sy = 0, best = 0, e0[3], e1[3], step, off, angle;
  double xy[2 * TRESS_GIZMO_SEGMENTS];
  gboolean front[TRESS_GIZMO_SEGMENTS];
  int spine2, spine1;
  guint total;

  if (path == NULL || model_path == NULL)
    return;
  original = tress_test_read_file (path);
  model = tress_test_read_file (model_path);
  tress_test_scene_open (&f, path);
  if (!tress_test_pointer_available (GTK_WIDGET (f.window)))
    {
      tress_test_scene_close (&f);
      return;
    }
  tress_test_scene_wait_scene (&f);
  animator = tress_scene_pane_get_animator (f.pane);
  g_assert_nonnull (animator);
  if (!tress_test_scene_wait_gl (&f))
    {
      g_test_skip ("needs GL");
      tress_test_scene_close (&f);
      return;
    }
  area = f.area = tress_test_find_type (GTK_WIDGET (f.preview), GTK_TYPE_GL_AREA);
  history = tress_document_get_history (TRESS_DOCUMENT (f.doc));
  gizmo = tress_scene_pane_get_gizmo (f.pane);
  tress_curve_view_set_playhead (f.view, FRAME);
  anim = g_strdup (animator->anim_names[tress_scene_pane_get_animation (f.pane)]);
  g_test_message ("animation posed: %s", anim);

  tress_test_pointer_move (GTK_WIDGET (f.view), 5, 5);
  {
    int gw, gh;

    TRESS_TEST_WAIT_FOR (tress_scene_preview_grab (f.preview, &gw, &gh) != NULL);
  }
  g_bytes_unref (tress_test_scene_settled_screen (&f));

  /* Spine_2 clicked on its stick; then "Pose". */
  spine2 = tress_scene_find_node (animator->scene, "Spine_2");
  spine1 = tress_scene_find_node (animator->scene, "Spine_1");
  g_assert_true (tress_scene_preview_node_position (f.preview, (guint)spine2, &cx, &cy));
  g_assert_true (tress_scene_preview_node_position (f.preview, (guint)spine1, &sx, &sy));
  sx = sx + (cx - sx) * 0.7;
  sy = sy + (cy - sy) * 0.7;
  g_test_message ("Spine_2 at (%.0f, %.0f), clicked at (%.0f, %.0f): node %d", cx, cy, sx, sy,
                  tress_scene_preview_pick (f.preview, sx, sy));
  g_assert_cmpint (tress_scene_preview_pick (f.preview, sx, sy), ==, spine2);
  tress_test_pointer_click (area, sx, sy);
  TRESS_TEST_WAIT_FOR (tress_scene_gizmo_get_bone (gizmo) == spine2);
  pose = tress_test_find_tooltip (
      GTK_WIDGET (f.preview),
      "Pose: turn the selected bone by its rings or the trackball, move it by its arrows (Shift: "
      "fine, Ctrl: 5° steps, Esc or right button: cancel)");
  g_assert_nonnull (pose);
  tress_test_pointer_click (pose, gtk_widget_get_width (pose) / 2.0,
                            gtk_widget_get_height (pose) / 2.0);
  TRESS_TEST_WAIT_FOR (tress_scene_gizmo_get_pose_mode (gizmo));
  tress_test_pointer_move (GTK_WIDGET (f.view), 5, 5);
  still = tress_test_scene_settled_screen (&f);
  total = (guint)(gtk_widget_get_width (area) * gtk_widget_get_height (area));

  /* The X ring's point farthest from the bone on screen that hits X. */
  tress_scene_preview_get_mvp (f.preview, mvp, &w, &h);
  g_assert_true (tress_gizmo_frame_from_world (
      &tress_scene_get_node (animator->scene, (guint)spine2)->world, &frame));
  g_assert_true (tress_gizmo_project (mvp, w, h, frame.origin, &cx, &cy));
  g_assert_true (tress_gizmo_ring_points (&frame, mvp, w, h, 0, xy, front));
  for (guint i = 0; i < TRESS_GIZMO_SEGMENTS; i++)
    {
      double d = hypot (xy[2 * i] - cx, xy[2 * i + 1] - cy);

      if (front[i] && d > best
          && tress_gizmo_hit (&frame, mvp, w, h, round (xy[2 * i]), round (xy[2 * i + 1])) == 0)
        {
          best = d;
          sx = round (xy[2 * i]);
          sy = round (xy[2 * i + 1]);
        }
    }
  g_test_message ("X ring grabbed at (%.0f, %.0f), %.0f px from Spine_2", sx, sy, best);
  g_assert_cmpfloat (best, >, 20);
  world_before = tress_scene_get_node (animator->scene, (guint)spine2)->world;

  /* A drag the picture follows, taken back by Escape: nothing written. */
  path1 = gt_arc (cx, cy, sx, sy, 25, 8);
  tress_test_pointer_move (area, sx, sy);
  tress_test_pointer_button (1, TRUE);
  for (guint i = 0; i < 8; i++)
    tress_test_pointer_move (area, path1[2 * i], path1[2 * i + 1]);
  moved = tress_test_screen_changed (area, still, total / 400);
  g_test_message ("during the drag: %u of %u pixels changed",
                  tress_test_pixels_different (still, moved, 3, 6), total);
  g_assert_false (graphene_matrix_equal_fast (
      &world_before, &tress_scene_get_node (animator->scene, (guint)spine2)->world));
  if (screenshot != NULL)
    tress_test_screen_save_png (GTK_WIDGET (f.window), screenshot);
  tress_test_pointer_key (GDK_KEY_Escape, TRUE);
  tress_test_pointer_key (GDK_KEY_Escape, FALSE);
  tress_test_pointer_button (1, FALSE);
  TRESS_TEST_WAIT_FOR (graphene_matrix_equal_fast (
      &world_before, &tress_scene_get_node (animator->scene, (guint)spine2)->world));
  tress_test_pointer_move (GTK_WIDGET (f.view), 5, 5);
  back = tress_test_scene_settled_screen (&f);
  g_test_message ("after Escape: %u pixels differ from before the drag",
                  tress_test_pixels_different (still, back, 3, 6));
  g_assert_cmpuint (tress_test_pixels_different (still, back, 3, 6), <, total / 2000);
  g_assert_false (tress_history_can_undo (history));
  g_assert_false (tress_document_get_modified (TRESS_DOCUMENT (f.doc)));

  /* The right button during the drag takes it back too. */
  tress_test_pointer_move (area, sx, sy);
  tress_test_pointer_button (1, TRUE);
  for (guint i = 0; i < 8; i++)
    tress_test_pointer_move (area, path1[2 * i], path1[2 * i + 1]);
  TRESS_TEST_WAIT_FOR (!graphene_matrix_equal_fast (
      &world_before, &tress_scene_get_node (animator->scene, (guint)spine2)->world));
  tress_test_pointer_button (3, TRUE);
  tress_test_pointer_button (3, FALSE);
  tress_test_pointer_button (1, FALSE);
  TRESS_TEST_WAIT_FOR (graphene_matrix_equal_fast (
      &world_before, &tress_scene_get_node (animator->scene, (guint)spine2)->world));
  g_assert_false (tress_history_can_undo (history));

  /* ~31° with Ctrl: 30° stored, one undo step. */
  path2 = gt_arc (cx, cy, sx, sy, 31, 12);
  tress_test_pointer_move (area, sx, sy);
  tress_test_pointer_key (GDK_KEY_Control_L, TRUE);
  tress_test_pointer_button (1, TRUE);
  for (guint i = 0; i < 12; i++)
    tress_test_pointer_move (area, path2[2 * i], path2[2 * i + 1]);
  tress_test_pointer_key (GDK_KEY_Control_L, FALSE);
  tress_test_pointer_button (1, FALSE);
  /* Spine_2's X rotation in Dead has s8 keys too fine for 30°: asked first,
   * as the graph asks; the wider type chosen. */
  answer (history, "Widen to s16");
  TRESS_TEST_WAIT_FOR (tress_history_can_undo (history));
  g_assert_cmpstr (tress_history_get_undo_label (history), ==, "Rotate Spine_2 at frame 10");
  g_assert_null (tress_scene_gizmo_get_message (gizmo));
  /* The bone stays the gizmo's, its curves selected again. */
  TRESS_TEST_WAIT_FOR (tress_scene_gizmo_get_bone (gizmo) == spine2
                       && tress_curve_view_get_n_curves (f.view) > 0);

  /* Saved, and read with the format page's reader. */
  dir = g_dir_make_tmp ("tress-gizmo-XXXXXX", NULL);
  out = g_build_filename (dir, "Animal_Bass_Animation.bfres", NULL);
  link = g_build_filename (dir, "Animal_Bass.bfres", NULL);
  g_assert_cmpint (symlink (model_path, link), ==, 0);
  {
    g_autoptr (GFile) file = g_file_new_for_path (out);
    g_autoptr (GError) error = NULL;

    g_assert_true (tress_document_save (TRESS_DOCUMENT (f.doc), file, TRUE, NULL, &error));
    g_assert_no_error (error);
  }
  saved = tress_test_read_file (out);
  read_rotation (original, g_bytes_get_data (model, NULL), anim, e0, NULL);
  read_rotation (saved, g_bytes_get_data (model, NULL), anim, e1, &step);
  angle = gt_angle_about_x (e0, e1, &off);
  g_test_message ("Spine_2 at frame %d: (%.4f %.4f %.4f) → (%.4f %.4f %.4f) rad: %.4f° about "
                  "its X axis (step %.3g°), %.2g off it",
                  FRAME, e0[0], e0[1], e0[2], e1[0], e1[1], e1[2], angle / DEG, step / DEG, off);
  g_assert_cmpfloat (fabs (fabs (angle) - 30 * DEG), <=, step * (1 + 1e-6) + 1e-6);
  g_assert_cmpfloat (off, <, 1e-4);
  {
    /* R · Rx(a) is (x + a, y, z): every other bone, frame and animation as before. */
    SpCase c = { .anim = anim, .bone = "Spine_2", .frame = FRAME };

    c.rotate[0] = (e0[0] + (angle > 0 ? 30 : -30) * DEG) / DEG;
    c.rotate[1] = e0[1] / DEG;
    c.rotate[2] = e0[2] / DEG;
    sp_check (original, saved, g_bytes_get_data (model, NULL), &c);
    g_test_message ("%u components changed, %u became curves", c.changed, c.added);
  }

  /* Undo: the very bytes again. */
  g_assert_true (tress_history_undo (history));
  out2 = g_build_filename (dir, "undone.bfres", NULL);
  {
    g_autoptr (GFile) file = g_file_new_for_path (out2);
    g_autoptr (GError) error = NULL;

    g_assert_true (tress_document_save (TRESS_DOCUMENT (f.doc), file, TRUE, NULL, &error));
    g_assert_no_error (error);
  }
  undone = tress_test_read_file (out2);
  g_assert_true (g_bytes_equal (undone, original));

  /* Auto-Key off: the same drag only previews; Key Pose (I) stores the very
   * bytes the drag stored above. */
  {
    GtkWidget *auto_key = tress_test_find_tooltip (
        GTK_WIDGET (f.preview), "Auto-Key: store keys at the playhead when a drag ends; off: a "
                                "drag only previews until Key Pose");
    GtkWidget *key_pose = tress_test_find_tooltip (GTK_WIDGET (f.preview),
                                                   "Key Pose: store the pose previewed at the "
                                                   "playhead (I)");
    g_autoptr (GBytes) keyed = NULL;
    g_autofree char *out3 = g_build_filename (dir, "keyed.bfres", NULL);
    g_autoptr (GFile) file = g_file_new_for_path (out3);
    g_autoptr (GError) error = NULL;

    g_assert_nonnull (auto_key);
    g_assert_nonnull (key_pose);
    tress_test_pointer_click (auto_key, gtk_widget_get_width (auto_key) / 2.0,
                              gtk_widget_get_height (auto_key) / 2.0);
    g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (auto_key)));
    g_assert_false (gtk_widget_get_sensitive (key_pose));
    TRESS_TEST_WAIT_FOR (graphene_matrix_equal_fast (&world_before, spine2_world (f.pane, spine2)));
    tress_test_pointer_move (area, sx, sy);
    tress_test_pointer_key (GDK_KEY_Control_L, TRUE);
    tress_test_pointer_button (1, TRUE);
    for (guint i = 0; i < 12; i++)
      tress_test_pointer_move (area, path2[2 * i], path2[2 * i + 1]);
    tress_test_pointer_key (GDK_KEY_Control_L, FALSE);
    tress_test_pointer_button (1, FALSE);
    tress_test_wait_idle ();
    /* Shown, not stored. */
    g_assert_null (gt_find_question ());
    g_assert_false (tress_history_can_undo (history));
    g_assert_true (gtk_widget_get_sensitive (key_pose));
    g_assert_false (graphene_matrix_equal_fast (&world_before, spine2_world (f.pane, spine2)));
    tress_test_pointer_key (GDK_KEY_i, TRUE);
    /* The question takes the release. */
    tress_test_pointer_key_unwatched (GDK_KEY_i, FALSE);
    answer (history, "Widen to s16");
    TRESS_TEST_WAIT_FOR (tress_history_can_undo (history));
    g_assert_cmpstr (tress_history_get_undo_label (history), ==, "Rotate Spine_2 at frame 10");
    g_assert_true (tress_document_save (TRESS_DOCUMENT (f.doc), file, TRUE, NULL, &error));
    g_assert_no_error (error);
    keyed = tress_test_read_file (out3);
    g_assert_true (g_bytes_equal (keyed, saved));
    /* The editor's I (insert a key at the playhead) was not triggered. */
    g_assert_cmpstr (tress_history_get_undo_label (history), ==, "Rotate Spine_2 at frame 10");
    g_unlink (out3);
  }

  tress_test_scene_close (&f);
  g_unlink (out);
  g_unlink (out2);
  g_unlink (link);
  g_rmdir (dir);
}

/* Skl_Root's X arrow (its own axis), dragged 40 pixels along itself: the
 * bone lands 40 pixels on along it on screen; the store asks first (the s16
 * steps are too fine), the wider type chosen; the file's translation of
 * Skl_Root at the playhead changed, nothing else (the format page's reader);
 * one undo step "Move Skl_Root at frame 10", undone to the very bytes. */
static void
test_move (void)
{
  g_autofree char *path = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *model_path = tress_test_sample_path ("bfres/Animal_Bass.bfres");
  TressTestScene f = { 0 };
  TressSceneAnimator *animator;
  TressSceneGizmo *gizmo;
  TressHistory *history;
  GtkWidget *area;
  g_autoptr (GBytes) original = NULL, model = NULL, saved = NULL, undone = NULL;
  g_autofree char *dir = NULL, *out = NULL, *link = NULL, *anim = NULL;
  TressGizmoFrame frame;
  float mvp[16];
  double w, h, sx = -1, sy = -1, ux = 0, uy = 0, ox, oy, nx, ny, along, across, points[10];
  int root;

  if (path == NULL || model_path == NULL)
    return;
  original = tress_test_read_file (path);
  model = tress_test_read_file (model_path);
  tress_test_scene_open (&f, path);
  if (!tress_test_pointer_available (GTK_WIDGET (f.window)))
    {
      tress_test_scene_close (&f);
      return;
    }
  tress_test_scene_wait_scene (&f);
  if (!tress_test_scene_wait_gl (&f))
    {
      g_test_skip ("needs GL");
      tress_test_scene_close (&f);
      return;
    }
  animator = tress_scene_pane_get_animator (f.pane);
  area = f.area = tress_test_find_type (GTK_WIDGET (f.preview), GTK_TYPE_GL_AREA);
  history = tress_document_get_history (TRESS_DOCUMENT (f.doc));
  gizmo = tress_scene_pane_get_gizmo (f.pane);
  tress_curve_view_set_playhead (f.view, FRAME);
  anim = g_strdup (animator->anim_names[tress_scene_pane_get_animation (f.pane)]);
  tress_test_pointer_move (GTK_WIDGET (f.view), 5, 5);
  g_bytes_unref (tress_test_scene_settled_screen (&f));

  /* Skl_Root clicked where the pointer picks it (its stick or square). */
  root = tress_scene_find_node (animator->scene, "Skl_Root");
  g_assert_cmpint (root, >=, 0);
  g_assert_true (tress_scene_preview_node_position (f.preview, (guint)root, &ox, &oy));
  ox = round (ox);
  oy = round (oy);
  for (int d = 0; d <= 12 && sx < 0; d++)
    for (int i = -d; i <= d && sx < 0; i++)
      for (int j = -d; j <= d && sx < 0; j++)
        if (tress_scene_preview_pick (f.preview, ox + i, oy + j) == root)
          sx = ox + i, sy = oy + j;
  g_assert_cmpfloat (sx, >=, 0);
  g_test_message ("Skl_Root at (%.0f, %.0f), clicked at (%.0f, %.0f)", ox, oy, sx, sy);
  tress_test_pointer_click (area, sx, sy);
  TRESS_TEST_WAIT_FOR (tress_scene_gizmo_get_bone (gizmo) == root);
  tress_scene_gizmo_set_pose_mode (gizmo, TRUE);
  /* Dead moves Skl_Root: its arrows are shown. */
  TRESS_TEST_WAIT_FOR (tress_scene_gizmo_get_handles (gizmo)
                       == (TRESS_GIZMO_TURNING | TRESS_GIZMO_MOVING));
  tress_test_pointer_move (GTK_WIDGET (f.view), 5, 5);
  g_bytes_unref (tress_test_scene_settled_screen (&f));

  /* The X arrow, pressed as far out as the picture shows it, dragged 40 px
   * back along it (towards the bone: the picture is small). */
  tress_scene_preview_get_mvp (f.preview, mvp, &w, &h);
  g_assert_true (tress_scene_gizmo_get_frame (gizmo, &frame));
  g_assert_true (gt_arrow_point (&frame, mvp, w, h, tress_scene_gizmo_get_handles (gizmo), 0, &sx,
                                 &sy, &ux, &uy));
  g_test_message ("picture %.0f×%.0f, X arrow pressed at (%.0f, %.0f)", w, h, sx, sy);
  if (g_getenv ("TRESS_GIZMO_MOVE_SCREENSHOT") != NULL)
    tress_test_screen_save_png (GTK_WIDGET (f.window), g_getenv ("TRESS_GIZMO_MOVE_SCREENSHOT"));
  g_assert_true (tress_scene_preview_node_position (f.preview, (guint)root, &ox, &oy));
  for (guint i = 0; i < 5; i++)
    {
      points[2 * i] = sx - ux * 8 * (i + 1);
      points[2 * i + 1] = sy - uy * 8 * (i + 1);
    }
  tress_test_pointer_move (area, sx, sy);
  tress_test_pointer_button (1, TRUE);
  for (guint i = 0; i < 5; i++)
    tress_test_pointer_move (area, points[2 * i], points[2 * i + 1]);
  tress_test_pointer_button (1, FALSE);
  /* Dead's s16 translation steps are too fine for the new value: asked
   * first, as the graph asks; the wider type chosen. */
  answer (history, "Widen to 32-bit float");
  TRESS_TEST_WAIT_FOR (tress_history_can_undo (history));
  g_assert_cmpstr (tress_history_get_undo_label (history), ==, "Move Skl_Root at frame 10");
  g_assert_null (tress_scene_gizmo_get_message (gizmo));
  TRESS_TEST_WAIT_FOR (tress_scene_gizmo_get_bone (gizmo) == root
                       && tress_curve_view_get_n_curves (f.view) > 0);
  tress_test_wait_idle ();
  animator = tress_scene_pane_get_animator (f.pane);
  g_assert_true (tress_scene_preview_node_position (f.preview, (guint)root, &nx, &ny));
  along = (nx - ox) * ux + (ny - oy) * uy;
  across = (nx - ox) * uy - (ny - oy) * ux;
  g_test_message ("X arrow dragged 40 px back: Skl_Root moved %.1f px along it, %.1f across", along,
                  across);
  g_assert_cmpfloat (fabs (along + 40), <, 3);
  g_assert_cmpfloat (fabs (across), <, 2);

  /* Saved, and read with the format page's reader. */
  dir = g_dir_make_tmp ("tress-gizmo-XXXXXX", NULL);
  out = g_build_filename (dir, "Animal_Bass_Animation.bfres", NULL);
  link = g_build_filename (dir, "Animal_Bass.bfres", NULL);
  g_assert_cmpint (symlink (model_path, link), ==, 0);
  {
    g_autoptr (GFile) file = g_file_new_for_path (out);
    g_autoptr (GError) error = NULL;

    g_assert_true (tress_document_save (TRESS_DOCUMENT (f.doc), file, TRUE, NULL, &error));
    g_assert_no_error (error);
  }
  saved = tress_test_read_file (out);
  {
    const guint8 *d0 = g_bytes_get_data (original, NULL), *d1 = g_bytes_get_data (saved, NULL);
    SpCase c = {
      .anim = anim, .bone = "Skl_Root", .frame = FRAME, .no_rotate = TRUE, .has_translate = TRUE
    };
    RefFska f0, f1;
    RefBoneAnim b0 = { 0 }, b1 = { 0 };
    double bind[REF_BASE_SLOTS], moved = 0;

    g_assert_true (sp_bone (d0, ref_fska_find (d0, anim), "Skl_Root", &f0, &b0));
    g_assert_true (sp_bone (d1, ref_fska_find (d1, anim), "Skl_Root", &f1, &b1));
    g_assert_true (sp_bind (g_bytes_get_data (model, NULL), "Skl_Root", bind));
    for (guint k = 0; k < 3; k++)
      {
        double t0 = sp_value (d0, &b0, 0x10 + 4 * k, FRAME, bind);

        c.translate[k] = sp_value (d1, &b1, 0x10 + 4 * k, FRAME, bind);
        moved += fabs (c.translate[k] - t0);
        g_test_message ("Translate %c at frame %d: %.5g → %.5g", "XYZ"[k], FRAME, t0,
                        c.translate[k]);
      }
    g_assert_cmpfloat (moved, >, 0);
    /* Only Skl_Root's translation, around frame 10. */
    sp_check (original, saved, g_bytes_get_data (model, NULL), &c);
    g_free (b0.name);
    g_free (b1.name);
  }

  /* Undo: the very bytes again. */
  g_assert_true (tress_history_undo (history));
  {
    g_autofree char *out2 = g_build_filename (dir, "undone.bfres", NULL);
    g_autoptr (GFile) file = g_file_new_for_path (out2);
    g_autoptr (GError) error = NULL;

    g_assert_true (tress_document_save (TRESS_DOCUMENT (f.doc), file, TRUE, NULL, &error));
    g_assert_no_error (error);
    undone = tress_test_read_file (out2);
    g_unlink (out2);
  }
  tress_test_assert_bytes_equal (undone, original);

  tress_test_scene_close (&f);
  g_unlink (out);
  g_unlink (link);
  g_rmdir (dir);
}

int
main (int argc, char *argv[])
{
  tress_test_scene_init (&argc, &argv);
  g_test_add_func ("/scene-gizmo/drag", test_gizmo);
  g_test_add_func ("/scene-gizmo/move", test_move);
  return g_test_run ();
}
