/* test-scene-gizmo-niff.c: posing a NIFF object in the preview with the
 * gizmo, driven by the X server's pointer and keyboard in a 960×640 window.
 *
 * The N64 SDK's Rings.niff: Sweep15_3's ring clicked, "Pose" clicked, at a
 * whole frame where its RotateX/Y/Z channels have no key. A drag of its X ring
 * moves the picture and Escape (or the right button) puts it back with
 * nothing written; a drag of ~31° with Ctrl (5° steps) stores one undo step
 * "Rotate Sweep15_3 at frame N", the ring turning on screen the way the
 * pointer went. The file saved is read with the independent reading of the
 * format page (tests/niff/niff-anim-ref.h): the object's local rotation at the
 * playhead turned 30° (± one f32 step) about its own X axis, a key inserted in
 * RotateX (Y and Z play what they did), every other frame, channel and AnimGroup as before
 * outside the segments meeting the new keys, everything outside the AnimList
 * byte-identical, validate clean. Undo gives back the very bytes.
 *
 * Then the model frame: the X arrow dragged 40 pixels moves the object 40
 * pixels on screen along it, and the file's Translation X by as much, Y and Z
 * as they were ("Move Sweep15_3 at frame N"). With Auto-Key off the
 * trackball dragged a quarter radius only previews, and Key Pose (I in the
 * preview) stores a turn of a quarter radian.
 *
 * No N64 SDK checker is run: none is available to the tests (the samples
 * come from the SDK; its tools do not run here).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <string.h>

#include "gizmo-test-common.h"
#include "niff/niff-anim-ref.h"
#include "tress-test-pointer.h"
#include "tress-test-scene.h"
#include "tress-test-utils.h"
#include "tress-test-window.h"

#define GROUP "Sweep15_3_Animation"
#define OBJECT "Sweep15_3"
#define TRANSLATION 5 /* the NIFF2 channel */

/* The AnimGroup named GROUP in @bytes, read; its index goes to @index. */
static void
read_group (GBytes *bytes, NrGroup *g, guint *index)
{
  gsize size;
  const guint8 *d = g_bytes_get_data (bytes, &size);
  gsize list = niff_raw_find_list (d, size, 0x000c0000);
  guint n = niff_be32 (d + list + 12);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = NULL;

      nr_group_read (d, size, i, g);
      name = nr_name (d, size, g->name_index);
      if (g_strcmp0 (name, GROUP) == 0)
        {
          *index = i;
          return;
        }
      nr_group_clear (g);
    }
  g_error ("no AnimGroup %s", GROUP);
}

/* A whole frame inside the group where none of RotateX/Y/Z has a key. */
static double
unkeyed_frame (const NrGroup *g)
{
  for (guint j = g->n_keys[1] / 2; j + 1 < g->n_keys[1]; j++)
    {
      guint32 f = g->keys[1][j].key + 1;
      gboolean none = f < g->keys[1][j + 1].key;

      for (guint c = 2; c <= 3 && none; c++)
        for (guint k = 0; k < g->n_keys[c]; k++)
          none &= g->keys[c][k].key != f;
      if (none)
        return f;
    }
  g_error ("no frame without rotation keys");
}

static GBytes *
save (TressTestScene *f, const char *dir, const char *name)
{
  g_autofree char *out = g_build_filename (dir, name, NULL);
  g_autoptr (GFile) file = g_file_new_for_path (out);
  g_autoptr (GError) error = NULL;
  GBytes *bytes;

  g_assert_true (tress_document_save (TRESS_DOCUMENT (f->doc), file, TRUE, NULL, &error));
  g_assert_no_error (error);
  bytes = tress_test_read_file (out);
  g_unlink (out);
  return bytes;
}

/* @a and @b alike outside the AnimGroup @index (the list's and the file's
 * sizes aside), the group's other channels and records as they were, the
 * channels @changed (a mask) as they were outside the keys around @frame
 * and keyed at it; validate clean on @b. */
static void
check_local (GBytes *a, GBytes *b, guint index, double frame, guint changed, const char *dir)
{
  gsize la, lb, list0, list1, size0, size1;
  const guint8 *d0 = g_bytes_get_data (a, &la), *d1 = g_bytes_get_data (b, &lb);
  g_auto (NrGroup) g0 = { 0 };
  g_auto (NrGroup) g1 = { 0 };
  guint i0, i1, n;

  read_group (a, &g0, &i0);
  read_group (b, &g1, &i1);
  g_assert_cmpuint (i0, ==, index);
  g_assert_cmpuint (i1, ==, index);
  for (guint c = 0; c < 8; c++)
    {
      double lo = -G_MAXDOUBLE, hi = G_MAXDOUBLE, end = 0;

      if (!(changed & (1u << c)))
        {
          g_assert_cmpuint (g1.n_keys[c], ==, g0.n_keys[c]);
          g_assert_cmpmem (g1.keys[c], sizeof (NrKey) * g1.n_keys[c], g0.keys[c],
                           sizeof (NrKey) * g0.n_keys[c]);
          continue;
        }
      /* A key at the frame, and the curve as before outside its neighbours. */
      {
        gboolean keyed = FALSE;

        for (guint j = 0; j < g1.n_keys[c]; j++)
          keyed |= g1.keys[c][j].key == frame;
        g_assert_true (keyed);
      }
      for (guint j = 0; j < g0.n_keys[c]; j++)
        {
          double k = g0.keys[c][j].key;

          end = MAX (end, k);
          if (k < frame)
            lo = MAX (lo, k);
          if (k > frame)
            hi = MIN (hi, k);
        }
      for (guint v = 0; v < nr_components[c]; v++)
        for (double fr = 0; fr <= end + 1; fr += 0.25)
          if (!(fr > lo && fr < hi)
              && nr_channel_eval (&g0, c, v, fr) != nr_channel_eval (&g1, c, v, fr))
            g_error ("channel %u.%u frame %g (outside %g … %g) changed", c, v, fr, lo, hi);
    }
  g_assert_cmpuint (g1.n_rec, ==, g0.n_rec);
  g_assert_cmpmem (g1.rec, sizeof (NrRecord) * g1.n_rec, g0.rec, sizeof (NrRecord) * g0.n_rec);

  /* Outside the group: the same bytes (the list and file sizes aside). */
  list0 = niff_raw_find_list (d0, la, 0x000c0000);
  list1 = niff_raw_find_list (d1, lb, 0x000c0000);
  g_assert_cmpuint (list1, ==, list0);
  size0 = niff_be32 (d0 + list0 + 8);
  size1 = niff_be32 (d1 + list1 + 8);
  g_assert_cmpuint (lb - la, ==, size1 - size0);
  for (gsize i = 0; i < list0; i++)
    if (d0[i] != d1[i] && !(i >= 4 && i < 8) && !(i >= 0x4C && i < 0x50))
      g_error ("byte 0x%" G_GSIZE_MODIFIER "x before the AnimList changed", i);
  g_assert_cmpmem (d1 + list1 + size1, lb - list1 - size1, d0 + list0 + size0, la - list0 - size0);
  n = niff_be32 (d0 + list0 + 12);
  for (guint i = 0; i < n; i++)
    if (i != index)
      {
        gsize p0 = niff_raw_group (d0, la, i), p1 = niff_raw_group (d1, lb, i);

        g_assert_cmpmem (d1 + p1, niff_be32 (d1 + p1 + 0x0C), d0 + p0, niff_be32 (d0 + p0 + 0x0C));
      }
  {
    g_autofree char *path = g_build_filename (dir, "check.niff", NULL);
    const char *argv[] = { "validate", path, NULL };
    g_autofree char *vo = NULL;

    g_assert_true (g_file_set_contents (path, g_bytes_get_data (b, NULL), (gssize)lb, NULL));
    g_assert_cmpint (tress_test_run_cli (argv, &vo, NULL), ==, 0);
    g_assert_nonnull (strstr (vo, "0 errors"));
    g_unlink (path);
  }
}

/* The object's rotation at @frame in @bytes, as the format page reads it. */
static void
read_rotation (GBytes *bytes, double frame, double e[3])
{
  g_auto (NrGroup) g = { 0 };
  guint index;

  read_group (bytes, &g, &index);
  for (guint k = 0; k < 3; k++)
    e[k] = nr_channel_eval (&g, 1 + k, 0, frame);
}

/* One step of f32 at the largest of @e. */
static double
f32_step (const double e[3])
{
  float m = (float)MAX (fabs (e[0]), MAX (fabs (e[1]), fabs (e[2])));

  return nextafterf (m, G_MAXFLOAT) - m;
}

static const graphene_matrix_t *
world_of (TressTestScene *f, int node)
{
  return &tress_scene_get_node (tress_scene_pane_get_animator (f->pane)->scene, (guint)node)->world;
}

/* The screen angle around the object of its Y axis' tip (a ring radius out). */
static double
y_tip_angle (TressTestScene *f, int node, double cx, double cy)
{
  TressGizmoFrame fr;
  float mvp[16];
  double w, h, r, p[3], x, y;

  tress_scene_preview_get_mvp (f->preview, mvp, &w, &h);
  g_assert_true (tress_gizmo_frame_from_world (world_of (f, node), &fr));
  r = tress_gizmo_world_radius (&fr, mvp, w, h, TRESS_GIZMO_RADIUS);
  for (guint k = 0; k < 3; k++)
    p[k] = fr.origin[k] + r * fr.axes[1][k];
  g_assert_true (tress_gizmo_project (mvp, w, h, p, &x, &y));
  return atan2 (y - cy, x - cx);
}

static void
test_rings (void)
{
  g_autofree char *path = tress_test_sample_path ("niff/Rings.niff");
  const char *screenshot = g_getenv ("TRESS_GIZMO_SCREENSHOT");
  TressTestScene f = { 0 };
  TressSceneAnimator *animator;
  TressSceneGizmo *gizmo;
  TressHistory *history;
  GtkWidget *area, *pose;
  g_autoptr (GBytes) original = NULL, still = NULL, moved = NULL, back = NULL, saved = NULL;
  g_autoptr (GBytes) undone = NULL;
  g_autofree char *dir = NULL;
  g_autofree double *path1 = NULL, *path2 = NULL;
  g_auto (NrGroup) g0 = { 0 };
  TressGizmoFrame frame;
  graphene_matrix_t world_before;
  float mvp[16];
  double w, h, cx, cy, sx = -1, sy = -1, e0[3], e1[3], off, angle, step, frame_no, tip0, tip1;
  guint total, index;
  int node;

  if (path == NULL)
    return;
  original = tress_test_read_file (path);
  read_group (original, &g0, &index);
  frame_no = unkeyed_frame (&g0);
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
  dir = g_dir_make_tmp ("tress-gizmo-niff-XXXXXX", NULL);
  tress_curve_view_set_playhead (f.view, frame_no);
  tress_test_pointer_move (GTK_WIDGET (f.view), 5, 5);
  g_bytes_unref (tress_test_scene_settled_screen (&f));

  /* Sweep15_3's ring clicked (a point of it with ring all around); then "Pose". */
  node = tress_scene_find_node (animator->scene, OBJECT);
  g_assert_cmpint (node, >=, 0);
  {
    int aw = gtk_widget_get_width (area), ah = gtk_widget_get_height (area);

    for (int py = 3; py + 3 < ah && sx < 0; py += 3)
      for (int px = 3; px + 3 < aw && sx < 0; px += 3)
        if (tress_scene_preview_pick (f.preview, px, py) == node
            && tress_scene_preview_pick (f.preview, px - 3, py) == node
            && tress_scene_preview_pick (f.preview, px + 3, py) == node
            && tress_scene_preview_pick (f.preview, px, py - 3) == node
            && tress_scene_preview_pick (f.preview, px, py + 3) == node)
          sx = px, sy = py;
  }
  g_assert_cmpfloat (sx, >=, 0);
  tress_test_pointer_click (area, sx, sy);
  TRESS_TEST_WAIT_FOR (tress_scene_gizmo_get_bone (gizmo) == node);
  pose = tress_test_find_tooltip (
      GTK_WIDGET (f.preview),
      "Pose: turn the selected bone by its rings or the trackball, move it by its arrows (Shift: "
      "fine, Ctrl: 5° steps, Esc or right button: cancel)");
  g_assert_nonnull (pose);
  g_assert_true (gtk_widget_get_visible (pose));
  tress_test_pointer_click (pose, gtk_widget_get_width (pose) / 2.0,
                            gtk_widget_get_height (pose) / 2.0);
  TRESS_TEST_WAIT_FOR (tress_scene_gizmo_get_pose_mode (gizmo));
  /* Rings, the trackball and (Translation has keys) the arrows. */
  TRESS_TEST_WAIT_FOR (tress_scene_gizmo_get_handles (gizmo)
                       == (TRESS_GIZMO_TURNING | TRESS_GIZMO_MOVING));
  tress_test_pointer_move (GTK_WIDGET (f.view), 5, 5);
  still = tress_test_scene_settled_screen (&f);
  total = (guint)(gtk_widget_get_width (area) * gtk_widget_get_height (area));

  /* The X ring's point farthest from the object that the gizmo takes for it. */
  tress_scene_preview_get_mvp (f.preview, mvp, &w, &h);
  g_assert_true (tress_scene_gizmo_get_frame (gizmo, &frame));
  g_assert_true (tress_gizmo_project (mvp, w, h, frame.origin, &cx, &cy));
  g_assert_cmpfloat (
      gt_ring_point (&frame, mvp, w, h, tress_scene_gizmo_get_handles (gizmo), 0, &sx, &sy), >, 20);
  g_test_message ("frame %g; %s at (%.0f, %.0f); X ring grabbed at (%.0f, %.0f)", frame_no, OBJECT,
                  cx, cy, sx, sy);
  world_before = *world_of (&f, node);
  tip0 = y_tip_angle (&f, node, cx, cy);

  /* A drag the picture follows, taken back by Escape: nothing written. */
  path1 = gt_arc (cx, cy, sx, sy, 25, 8);
  tress_test_pointer_move (area, sx, sy);
  tress_test_pointer_button (1, TRUE);
  for (guint i = 0; i < 8; i++)
    tress_test_pointer_move (area, path1[2 * i], path1[2 * i + 1]);
  moved = tress_test_screen_changed (area, still, total / 400);
  g_test_message ("during the drag: %u of %u pixels changed",
                  tress_test_pixels_different (still, moved, 3, 6), total);
  g_assert_false (graphene_matrix_equal_fast (&world_before, world_of (&f, node)));
  if (screenshot != NULL)
    tress_test_screen_save_png (GTK_WIDGET (f.window), screenshot);
  tress_test_pointer_key (GDK_KEY_Escape, TRUE);
  tress_test_pointer_key (GDK_KEY_Escape, FALSE);
  tress_test_pointer_button (1, FALSE);
  TRESS_TEST_WAIT_FOR (graphene_matrix_equal_fast (&world_before, world_of (&f, node)));
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
  TRESS_TEST_WAIT_FOR (!graphene_matrix_equal_fast (&world_before, world_of (&f, node)));
  tress_test_pointer_button (3, TRUE);
  tress_test_pointer_button (3, FALSE);
  tress_test_pointer_button (1, FALSE);
  TRESS_TEST_WAIT_FOR (graphene_matrix_equal_fast (&world_before, world_of (&f, node)));
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
  TRESS_TEST_WAIT_FOR (tress_history_can_undo (history));
  {
    g_autofree char *label = g_strdup_printf ("Rotate %s at frame %g", OBJECT, frame_no);

    g_assert_cmpstr (tress_history_get_undo_label (history), ==, label);
  }
  g_assert_null (tress_scene_gizmo_get_message (gizmo));
  g_assert_null (gt_find_question ());
  /* The scene shows the stored curves: the ring turned the pointer's way
   * (its Y axis' tip is a point of it). */
  TRESS_TEST_WAIT_FOR (!graphene_matrix_equal_fast (&world_before, world_of (&f, node)));
  tress_test_wait_idle ();
  tip1 = y_tip_angle (&f, node, cx, cy);
  g_test_message ("Y axis tip on screen: %.1f° → %.1f°", tip0 / DEG, tip1 / DEG);
  g_assert_cmpfloat (remainder (tip1 - tip0, 2 * G_PI), >, 5 * DEG);

  /* Saved, and read with the format page's reading. */
  saved = save (&f, dir, "Rings.niff");
  read_rotation (original, frame_no, e0);
  read_rotation (saved, frame_no, e1);
  angle = gt_angle_about_x (e0, e1, &off);
  step = f32_step (e1);
  g_test_message ("%s at frame %g: (%.5f %.5f %.5f) → (%.5f %.5f %.5f) rad: %.6f° about its X "
                  "axis (f32 step %.2g°), %.2g off it",
                  OBJECT, frame_no, e0[0], e0[1], e0[2], e1[0], e1[1], e1[2], angle / DEG,
                  step / DEG, off);
  g_assert_cmpfloat (fabs (fabs (angle) - 30 * DEG), <=, step);
  g_assert_cmpfloat (off, <, 4 * step);
  /* R · Rx(a) = Rz · Ry · Rx(x + a): a key in RotateX only. */
  g_assert_cmpfloat (e1[1], ==, e0[1]);
  g_assert_cmpfloat (e1[2], ==, e0[2]);
  check_local (original, saved, index, frame_no, 1u << 1, dir);

  /* Undo: the very bytes again. */
  g_assert_true (tress_history_undo (history));
  undone = save (&f, dir, "undone.niff");
  tress_test_assert_bytes_equal (undone, original);
  TRESS_TEST_WAIT_FOR (graphene_matrix_equal_fast (&world_before, world_of (&f, node)));

  /* The model's frame: the X arrow dragged 40 pixels along itself. */
  {
    GtkWidget *model = tress_test_find_tooltip (
        GTK_WIDGET (f.preview),
        "Model Frame: rings and arrows along the model's axes; off: along the bone's own");
    g_auto (NrGroup) g1 = { 0 };
    g_autoptr (GBytes) moved_file = NULL;
    double ux = 0, uy = 0, ox, oy, nx, ny, along, across, t0[3], t1[3];
    double points[10];
    guint i1;

    g_assert_nonnull (model);
    tress_test_pointer_click (model, gtk_widget_get_width (model) / 2.0,
                              gtk_widget_get_height (model) / 2.0);
    TRESS_TEST_WAIT_FOR (tress_scene_gizmo_get_frame (gizmo, &frame) && frame.axes[0][0] == 1);
    /* As for Auto-Key below: the projection of the frame drawn after the
     * toggle's layout. */
    tress_test_wait_frame (area);
    tress_test_wait_frame (area);
    tress_scene_preview_get_mvp (f.preview, mvp, &w, &h);
    g_assert_true (gt_arrow_point (&frame, mvp, w, h, tress_scene_gizmo_get_handles (gizmo), 0, &sx,
                                   &sy, &ux, &uy));
    g_assert_true (tress_scene_preview_node_position (f.preview, (guint)node, &ox, &oy));
    for (guint i = 0; i < 5; i++)
      {
        points[2 * i] = sx + ux * 8 * (i + 1);
        points[2 * i + 1] = sy + uy * 8 * (i + 1);
      }
    tress_test_pointer_move (area, sx, sy);
    tress_test_pointer_button (1, TRUE);
    for (guint i = 0; i < 5; i++)
      tress_test_pointer_move (area, points[2 * i], points[2 * i + 1]);
    tress_test_pointer_button (1, FALSE);
    TRESS_TEST_WAIT_FOR (tress_history_can_undo (history));
    {
      g_autofree char *label = g_strdup_printf ("Move %s at frame %g", OBJECT, frame_no);

      g_assert_cmpstr (tress_history_get_undo_label (history), ==, label);
    }
    tress_test_wait_idle ();
    g_assert_true (tress_scene_preview_node_position (f.preview, (guint)node, &nx, &ny));
    along = (nx - ox) * ux + (ny - oy) * uy;
    across = (nx - ox) * uy - (ny - oy) * ux;
    g_test_message ("X arrow dragged 40 px: %s moved %.1f px along it, %.1f across", OBJECT, along,
                    across);
    g_assert_cmpfloat (fabs (along - 40), <, 3);
    g_assert_cmpfloat (fabs (across), <, 2);
    moved_file = save (&f, dir, "moved.niff");
    read_group (moved_file, &g1, &i1);
    for (guint k = 0; k < 3; k++)
      {
        t0[k] = nr_channel_eval (&g0, TRANSLATION, k, frame_no);
        t1[k] = nr_channel_eval (&g1, TRANSLATION, k, frame_no);
      }
    g_test_message ("Translation at frame %g: (%g %g %g) → (%g %g %g)", frame_no, t0[0], t0[1],
                    t0[2], t1[0], t1[1], t1[2]);
    /* The scene's root does not move: the model's X is the object's parent's X. */
    g_assert_cmpfloat (fabs (t1[0] - t0[0]), >, 0);
    g_assert_cmpfloat (t1[1], ==, t0[1]);
    g_assert_cmpfloat (t1[2], ==, t0[2]);
    check_local (original, moved_file, index, frame_no, 1u << TRANSLATION, dir);
    g_assert_true (tress_history_undo (history));
  }

  /* Auto-Key off: a quarter radius of trackball only previews; Key Pose (I)
   * stores a quarter radian. */
  {
    GtkWidget *auto_key = tress_test_find_tooltip (
        GTK_WIDGET (f.preview), "Auto-Key: store keys at the playhead when a drag ends; off: a "
                                "drag only previews until Key Pose");
    GtkWidget *key_pose = tress_test_find_tooltip (GTK_WIDGET (f.preview),
                                                   "Key Pose: store the pose previewed at the "
                                                   "playhead (I)");
    g_autoptr (GBytes) keyed = NULL;
    double axis[3], r = TRESS_GIZMO_TRACKBALL_RADIUS;

    tress_test_pointer_click (auto_key, gtk_widget_get_width (auto_key) / 2.0,
                              gtk_widget_get_height (auto_key) / 2.0);
    g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (auto_key)));
    TRESS_TEST_WAIT_FOR (graphene_matrix_equal_fast (&world_before, world_of (&f, node)));
    /* The projection the picture was last drawn with: after the toggle's
     * layout, or the handle is aimed at where it was. */
    tress_test_wait_frame (area);
    tress_test_wait_frame (area);
    tress_scene_preview_get_mvp (f.preview, mvp, &w, &h);
    g_assert_true (tress_scene_gizmo_get_frame (gizmo, &frame));
    g_assert_true (tress_gizmo_project (mvp, w, h, frame.origin, &cx, &cy));
    /* Its circle on the left, dragged down: no other handle there. */
    sx = round (cx - r * cos (20 * DEG));
    sy = round (cy + r * sin (20 * DEG));
    g_assert_cmpint (
        tress_gizmo_hit_handle (&frame, mvp, w, h, tress_scene_gizmo_get_handles (gizmo), sx, sy),
        ==, TRESS_GIZMO_TRACKBALL);
    tress_test_pointer_move (area, sx, sy);
    tress_test_pointer_button (1, TRUE);
    for (guint i = 1; i <= 6; i++)
      tress_test_pointer_move (area, sx, sy + r / 4 * i / 6);
    tress_test_pointer_button (1, FALSE);
    tress_test_wait_idle ();
    /* Shown, not stored. */
    g_assert_false (tress_history_can_undo (history));
    g_assert_true (gtk_widget_get_sensitive (key_pose));
    g_assert_false (graphene_matrix_equal_fast (&world_before, world_of (&f, node)));
    tress_test_pointer_key (GDK_KEY_i, TRUE);
    tress_test_pointer_key (GDK_KEY_i, FALSE);
    TRESS_TEST_WAIT_FOR (tress_history_can_undo (history));
    {
      g_autofree char *label = g_strdup_printf ("Rotate %s at frame %g", OBJECT, frame_no);

      g_assert_cmpstr (tress_history_get_undo_label (history), ==, label);
    }
    keyed = save (&f, dir, "keyed.niff");
    read_rotation (keyed, frame_no, e1);
    angle = gt_angle (e0, e1, axis);
    g_test_message ("trackball: %.3f rad about (%.3f %.3f %.3f) in the object's frame", angle,
                    axis[0], axis[1], axis[2]);
    g_assert_cmpfloat (fabs (angle - 0.25), <, 0.01);
    check_local (original, keyed, index, frame_no,
                 (e1[0] != e0[0]) << 1 | (e1[1] != e0[1]) << 2 | (e1[2] != e0[2]) << 3, dir);
  }

  tress_test_scene_close (&f);
  g_rmdir (dir);
}

int
main (int argc, char *argv[])
{
  tress_test_scene_init (&argc, &argv);
  g_test_add_func ("/scene-gizmo-niff/rings", test_rings);
  return g_test_run ();
}
