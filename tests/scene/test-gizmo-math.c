/* test-gizmo-math.c: the pose gizmo's maths (no display): Euler angles
 * and back, continuous with the angles before; a turn about the bone's own
 * axis; rings of constant size on screen and hitting them; a drag's angle
 * following the pointer around the bone, fine steps and 5° snapping; a turn
 * of the world taken into the bone's frame; the trackball turning the
 * sphere's front after the pointer; arrows hit where drawn, hidden end on,
 * and moving the bone as far on screen as the pointer went along them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "app/gl/tress-gl-camera.h"
#include "app/scene/tress-scene-gizmo-math.h"
#include "app/scene/tress-scene-sticks.h"
#include "formats/bfres/tress-bfres-pose.h"

#define W 960.0
#define H 640.0
#define DEG (G_PI / 180)

static double
matrix_diff (const double a[3][3], const double b[3][3])
{
  double d = 0;

  for (guint i = 0; i < 3; i++)
    for (guint j = 0; j < 3; j++)
      d = MAX (d, fabs (a[i][j] - b[i][j]));
  return d;
}

static void
random_euler (GRand *rand, double e[3])
{
  e[0] = g_rand_double_range (rand, -G_PI, G_PI);
  e[1] = g_rand_double_range (rand, -1.5, 1.5);
  e[2] = g_rand_double_range (rand, -G_PI, G_PI);
}

static void
test_euler (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);

  for (guint n = 0; n < 2000; n++)
    {
      double e[3], m[3][3], back[3], m2[3][3], near[3], q[4], mq[3][3];
      int turns[3];

      random_euler (rand, e);
      tress_gizmo_euler_to_matrix (e, m);
      /* The same rotation as the pose code's quaternion. */
      tress_bfres_euler_to_quaternion (e, q);
      tress_gizmo_quaternion_to_matrix (q, mq);
      g_assert_cmpfloat (matrix_diff (m, mq), <, 1e-9);
      /* Back to the same angles, and a whole turn away near angles a turn away. */
      tress_gizmo_matrix_to_euler (m, e, back);
      for (guint k = 0; k < 3; k++)
        g_assert_cmpfloat (fabs (back[k] - e[k]), <, 1e-7);
      for (guint k = 0; k < 3; k++)
        {
          turns[k] = g_rand_int_range (rand, -3, 4);
          near[k] = e[k] + turns[k] * 2 * G_PI + g_rand_double_range (rand, -0.3, 0.3);
        }
      tress_gizmo_matrix_to_euler (m, near, back);
      for (guint k = 0; k < 3; k++)
        g_assert_cmpfloat (fabs (back[k] - (e[k] + turns[k] * 2 * G_PI)), <, 1e-7);
      tress_gizmo_euler_to_matrix (back, m2);
      g_assert_cmpfloat (matrix_diff (m, m2), <, 1e-9);
    }
  /* The other solution (X and Z half a turn on, Y mirrored) when it is the near one. */
  {
    double e[3] = { 0.3, 0.2, -0.4 }, m[3][3], near[3], back[3];

    near[0] = e[0] + G_PI, near[1] = G_PI - e[1], near[2] = e[2] + G_PI;
    tress_gizmo_euler_to_matrix (e, m);
    tress_gizmo_matrix_to_euler (m, near, back);
    for (guint k = 0; k < 3; k++)
      g_assert_cmpfloat (fabs (back[k] - near[k]), <, 1e-7);
  }
  /* Y at 90°: the rotation survives, X is kept. */
  {
    double e[3] = { 0.5, G_PI / 2, 0.2 }, m[3][3], back[3], m2[3][3];

    tress_gizmo_euler_to_matrix (e, m);
    tress_gizmo_matrix_to_euler (m, e, back);
    tress_gizmo_euler_to_matrix (back, m2);
    g_assert_cmpfloat (matrix_diff (m, m2), <, 1e-9);
    g_assert_cmpfloat (fabs (back[0] - 0.5), <, 1e-9);
  }
}

static void
test_rotate_local (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (11);

  for (guint n = 0; n < 2000; n++)
    {
      double e[3], out[3], a[3][3], b[3][3], off;
      int axis = g_rand_int_range (rand, 0, 3);
      double angle = g_rand_double_range (rand, -3, 3);

      random_euler (rand, e);
      tress_gizmo_rotate_local (e, axis, angle, out);
      tress_gizmo_euler_to_matrix (e, a);
      tress_gizmo_euler_to_matrix (out, b);
      /* Exactly a turn by @angle about the bone's own axis, and nothing else. */
      g_assert_cmpfloat (fabs (tress_gizmo_angle_between (a, b, axis, &off) - angle), <, 1e-7);
      g_assert_cmpfloat (off, <, 1e-6);
      /* Continuous: a small turn moves the angles a little. */
      tress_gizmo_rotate_local (e, axis, 0.01, out);
      if (fabs (cos (e[1])) > 0.2)
        for (guint k = 0; k < 3; k++)
          g_assert_cmpfloat (fabs (out[k] - e[k]), <, 0.1);
    }
  /* About X of a bone with no rotation: only the X angle moves. */
  {
    double e[3] = { 0, 0, 0 }, out[3];

    tress_gizmo_rotate_local (e, 0, 30 * DEG, out);
    g_assert_cmpfloat (fabs (out[0] - 30 * DEG), <, 1e-12);
    g_assert_cmpfloat (fabs (out[1]), <, 1e-12);
    g_assert_cmpfloat (fabs (out[2]), <, 1e-12);
  }
}

/* A frame at the origin turned by @euler, seen by a camera looking at the origin. */
static void
setup (const double euler[3], double distance, double yaw, double pitch, TressGizmoFrame *f,
       float mvp[16])
{
  TressGlCamera cam;
  double m[3][3];

  tress_gl_camera_init (&cam, distance, yaw, pitch);
  tress_gl_camera_mvp (&cam, W, H, mvp);
  tress_gizmo_euler_to_matrix (euler, m);
  memset (f, 0, sizeof *f);
  /* The bone's axes are the matrix's columns. */
  for (guint a = 0; a < 3; a++)
    for (guint k = 0; k < 3; k++)
      f->axes[a][k] = m[k][a];
}

static double
max_radius (const TressGizmoFrame *f, const float mvp[16], int axis, double cx, double cy)
{
  double xy[2 * TRESS_GIZMO_SEGMENTS], r = 0;
  gboolean front[TRESS_GIZMO_SEGMENTS];

  g_assert_true (tress_gizmo_ring_points (f, mvp, W, H, axis, xy, front));
  for (guint i = 0; i < TRESS_GIZMO_SEGMENTS; i++)
    {
      g_assert_true (front[i]);
      r = MAX (r, hypot (xy[2 * i] - cx, xy[2 * i + 1] - cy));
    }
  return r;
}

static void
test_rings (void)
{
  double euler[3] = { 0.4, -0.7, 1.1 };
  TressGizmoFrame f;
  float mvp[16];

  /* The same size on screen near and far. */
  for (double distance = 0.5; distance < 500; distance *= 10)
    {
      double cx, cy;

      setup (euler, distance, 30, 20, &f, mvp);
      g_assert_true (tress_gizmo_project (mvp, W, H, f.origin, &cx, &cy));
      g_assert_cmpfloat (fabs (cx - W / 2), <, 1e-3);
      g_assert_cmpfloat (fabs (cy - H / 2), <, 1e-3);
      for (int axis = 0; axis < 3; axis++)
        {
          double r = max_radius (&f, mvp, axis, cx, cy);

          g_assert_cmpfloat (r, >, TRESS_GIZMO_RADIUS - 2);
          g_assert_cmpfloat (r, <, TRESS_GIZMO_RADIUS + 4);
        }
    }

  /* Hits: on each ring's points (away from where rings cross), none at the
   * centre or outside. */
  setup (euler, 5, 30, 20, &f, mvp);
  for (int axis = 0; axis < 3; axis++)
    {
      double xy[2 * TRESS_GIZMO_SEGMENTS];
      gboolean front[TRESS_GIZMO_SEGMENTS];
      guint hits = 0;

      g_assert_true (tress_gizmo_ring_points (&f, mvp, W, H, axis, xy, front));
      for (guint i = 0; i < TRESS_GIZMO_SEGMENTS; i++)
        {
          int hit = tress_gizmo_hit (&f, mvp, W, H, xy[2 * i] + 2, xy[2 * i + 1] - 2);

          g_assert_cmpint (hit, >=, 0);
          hits += hit == axis;
        }
      g_assert_cmpuint (hits, >, TRESS_GIZMO_SEGMENTS / 2);
    }
  g_assert_cmpint (tress_gizmo_hit (&f, mvp, W, H, W / 2, H / 2), ==, -1);
  g_assert_cmpint (tress_gizmo_hit (&f, mvp, W, H, W / 2 + TRESS_GIZMO_RADIUS + 20, H / 2), ==, -1);

  /* The overlay: triangles in clip space, more for the active ring (wider). */
  {
    g_autoptr (GArray) tris = g_array_new (FALSE, FALSE, sizeof (TressStickVertex));

    tress_gizmo_build (&f, mvp, W, H, 0, tris);
    g_assert_cmpuint (tris->len, ==, 3 * TRESS_GIZMO_SEGMENTS * 6);
  }
}

/* A ring facing the eye: moving the pointer along it from point @i by @k
 * points turns by 2πk/N, whichever way the axis points. */
static void
test_drag (void)
{
  double facing[2][3] = { { 0, 0, 0 }, { G_PI, 0, 0 } }; /* Z at the eye, Z away */

  for (guint t = 0; t < 2; t++)
    {
      TressGizmoFrame f;
      TressGizmoDrag drag;
      float mvp[16];
      double xy[2 * TRESS_GIZMO_SEGMENTS], angle = 0;
      gboolean front[TRESS_GIZMO_SEGMENTS];

      /* yaw 0, pitch 0: the eye on +Z looking down −Z. */
      setup (facing[t], 5, 0, 0, &f, mvp);
      g_assert_true (tress_gizmo_ring_points (&f, mvp, W, H, 2, xy, front));
      tress_gizmo_drag_begin (&drag, &f, mvp, W, H, 2, xy[0], xy[1]);
      g_assert_cmpfloat (fabs (drag.cx - W / 2), <, 1e-3);
      for (guint k = 1; k <= 30; k++)
        {
          guint i = k % TRESS_GIZMO_SEGMENTS;

          angle = tress_gizmo_drag_update (&drag, xy[2 * i], xy[2 * i + 1], FALSE, FALSE);
          g_assert_cmpfloat (fabs (angle - 2 * G_PI * k / TRESS_GIZMO_SEGMENTS), <, 1e-4);
        }
      /* Past half a turn the angle goes on growing (no jump at ±π). */
      for (guint k = 31; k <= 100; k++)
        {
          guint i = k % TRESS_GIZMO_SEGMENTS;

          angle = tress_gizmo_drag_update (&drag, xy[2 * i], xy[2 * i + 1], FALSE, FALSE);
        }
      g_assert_cmpfloat (fabs (angle - 2 * G_PI * 100 / TRESS_GIZMO_SEGMENTS), <, 1e-4);
    }

  /* Oblique rings: a step along the ring is a positive turn. */
  {
    g_autoptr (GRand) rand = g_rand_new_with_seed (3);

    for (guint n = 0; n < 300; n++)
      {
        double e[3], xy[2 * TRESS_GIZMO_SEGMENTS], m[3][3], eye_dot;
        gboolean front[TRESS_GIZMO_SEGMENTS];
        int axis = g_rand_int_range (rand, 0, 3);
        TressGizmoFrame f;
        TressGizmoDrag drag;
        float mvp[16];
        guint i = (guint)g_rand_int_range (rand, 0, TRESS_GIZMO_SEGMENTS);

        random_euler (rand, e);
        setup (e, 5, 0, 0, &f, mvp);
        tress_gizmo_euler_to_matrix (e, m);
        eye_dot = f.axes[axis][2]; /* the eye is on +Z */
        if (fabs (eye_dot) < 0.4)
          continue;
        g_assert_true (tress_gizmo_ring_points (&f, mvp, W, H, axis, xy, front));
        tress_gizmo_drag_begin (&drag, &f, mvp, W, H, axis, xy[2 * i], xy[2 * i + 1]);
        i = (i + 3) % TRESS_GIZMO_SEGMENTS;
        g_assert_cmpfloat (tress_gizmo_drag_update (&drag, xy[2 * i], xy[2 * i + 1], FALSE, FALSE),
                           >, 0);
      }
  }
}

static void
test_fine_snap (void)
{
  TressGizmoFrame f;
  TressGizmoDrag drag;
  float mvp[16];
  double zero[3] = { 0, 0, 0 };

  setup (zero, 5, 0, 0, &f, mvp);
  /* Pointer angles around the centre, y down: a right-handed turn about Z
   * (at the eye) is anticlockwise on screen, so the pointer's angle falls. */
#define AT(deg) W / 2 + 100 * cos (-(deg)*DEG), H / 2 + 100 * sin (-(deg)*DEG)
  tress_gizmo_drag_begin (&drag, &f, mvp, W, H, 2, AT (0));
  g_assert_cmpfloat (fabs (tress_gizmo_drag_update (&drag, AT (32), FALSE, FALSE) - 32 * DEG), <,
                     1e-9);
  g_assert_cmpfloat (fabs (tress_gizmo_drag_update (&drag, AT (32), FALSE, TRUE) - 30 * DEG), <,
                     1e-9);
  g_assert_cmpfloat (fabs (tress_gizmo_drag_update (&drag, AT (33), FALSE, TRUE) - 35 * DEG), <,
                     1e-9);
  /* Shift: the next 20° of pointer count 2°. */
  g_assert_cmpfloat (fabs (tress_gizmo_drag_update (&drag, AT (53), TRUE, FALSE) - 35 * DEG), <,
                     1e-9);
  g_assert_cmpfloat (fabs (tress_gizmo_drag_update (&drag, AT (63), FALSE, FALSE) - 45 * DEG), <,
                     1e-9);
  /* The centre itself changes nothing. */
  g_assert_cmpfloat (fabs (tress_gizmo_drag_update (&drag, W / 2, H / 2, FALSE, FALSE) - 45 * DEG),
                     <, 1e-9);
#undef AT
}

/* A turn of the world Q taken into the bone: the bone's world rotation F
 * (its axes as columns) becomes Q·F; about the bone's own axis it is the
 * local turn. */
static void
test_rotate_world (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (5);

  for (guint n = 0; n < 2000; n++)
    {
      double parent[3], local[3], out[3], p[3][3], l[3][3], f[3][3], q[3][3], want[3][3];
      double got[3][3], axis[3], len = 0, angle = g_rand_double_range (rand, -3, 3);
      TressGizmoFrame frame = { 0 };
      int k = g_rand_int_range (rand, 0, 3);

      random_euler (rand, parent);
      random_euler (rand, local);
      tress_gizmo_euler_to_matrix (parent, p);
      tress_gizmo_euler_to_matrix (local, l);
      /* The bone's world rotation F = P·L; its axes are F's columns. */
      for (guint i = 0; i < 3; i++)
        for (guint j = 0; j < 3; j++)
          f[i][j] = p[i][0] * l[0][j] + p[i][1] * l[1][j] + p[i][2] * l[2][j];
      for (guint a = 0; a < 3; a++)
        for (guint c = 0; c < 3; c++)
          frame.axes[a][c] = f[c][a] * (1 + a); /* scaled axes: the frame normalizes */
      for (guint c = 0; c < 3; c++)
        {
          axis[c] = g_rand_double_range (rand, -1, 1);
          len += axis[c] * axis[c];
        }
      for (guint c = 0; c < 3; c++)
        axis[c] /= sqrt (len);
      tress_gizmo_axis_matrix (axis, angle, q);
      tress_gizmo_rotate_world (local, &frame, q, local, out);
      /* P · L' = Q · P · L */
      tress_gizmo_euler_to_matrix (out, l);
      for (guint i = 0; i < 3; i++)
        for (guint j = 0; j < 3; j++)
          {
            got[i][j] = p[i][0] * l[0][j] + p[i][1] * l[1][j] + p[i][2] * l[2][j];
            want[i][j] = q[i][0] * f[0][j] + q[i][1] * f[1][j] + q[i][2] * f[2][j];
          }
      g_assert_cmpfloat (matrix_diff (got, want), <, 1e-9);
      /* About the bone's own axis k: the local turn. */
      for (guint c = 0; c < 3; c++)
        axis[c] = f[c][k];
      tress_gizmo_axis_matrix (axis, angle, q);
      tress_gizmo_rotate_world (local, &frame, q, local, out);
      tress_gizmo_rotate_local (local, k, angle, got[0]);
      for (guint c = 0; c < 3; c++)
        g_assert_cmpfloat (fabs (out[c] - got[0][c]), <, 1e-7);
    }
}

/* The trackball: a drag to the right turns the world about the screen's up,
 * the sphere's front (towards the eye) following the pointer; a drag down
 * turns it down; a radius of motion is a radian; Shift a tenth; Ctrl 5°. */
static void
test_trackball (void)
{
  double zero[3] = { 0, 0, 0 };
  TressGizmoFrame f;
  TressGizmoDrag drag;
  float mvp[16];
  double turn[3][3], r = TRESS_GIZMO_TRACKBALL_RADIUS, x, y, front[3], moved[3];

  /* yaw 0, pitch 0: the eye on +Z, up +Y, right +X. */
  setup (zero, 5, 0, 0, &f, mvp);
  tress_gizmo_trackball_begin (&drag, &f, mvp, W, H, W / 2 + r, H / 2);
  g_assert_cmpfloat (fabs (drag.right[0] - 1), <, 1e-4);
  g_assert_cmpfloat (fabs (drag.up[1] - 1), <, 1e-4);
  tress_gizmo_trackball_update (&drag, W / 2 + r + r * 0.5, H / 2, FALSE, FALSE, turn);
  /* Half a radius right: half a radian about +Y. */
  g_assert_cmpfloat (fabs (turn[0][2] - sin (0.5)), <, 1e-4);
  g_assert_cmpfloat (fabs (turn[1][1] - 1), <, 1e-6);
  /* The front of a sphere around the bone, on screen, went right. */
  for (guint k = 0; k < 3; k++)
    front[k] = 0.5 * (k == 2);
  for (guint k = 0; k < 3; k++)
    moved[k] = turn[k][0] * front[0] + turn[k][1] * front[1] + turn[k][2] * front[2];
  g_assert_true (tress_gizmo_project (mvp, W, H, moved, &x, &y));
  g_assert_cmpfloat (x, >, W / 2 + 20);
  g_assert_cmpfloat (fabs (y - H / 2), <, 0.01);

  /* Down, fine: a tenth, about +X, the front going down. */
  tress_gizmo_trackball_begin (&drag, &f, mvp, W, H, W / 2, H / 2 + r);
  tress_gizmo_trackball_update (&drag, W / 2, H / 2 + r + r, TRUE, FALSE, turn);
  for (guint k = 0; k < 3; k++)
    moved[k] = turn[k][0] * front[0] + turn[k][1] * front[1] + turn[k][2] * front[2];
  g_assert_cmpfloat (fabs (asin (turn[2][1]) - 0.1), <, 1e-4);
  g_assert_true (tress_gizmo_project (mvp, W, H, moved, &x, &y));
  g_assert_cmpfloat (y, >, H / 2 + 1);

  /* Ctrl: 32° of motion turns 30°, about the same axis. */
  tress_gizmo_trackball_begin (&drag, &f, mvp, W, H, W / 2 + r, H / 2);
  tress_gizmo_trackball_update (&drag, W / 2 + r + r * 32 * DEG, H / 2, FALSE, TRUE, turn);
  g_assert_cmpfloat (fabs (turn[0][2] - sin (30 * DEG)), <, 1e-6);
  g_assert_cmpfloat (fabs (turn[0][0] - cos (30 * DEG)), <, 1e-6);
  g_assert_cmpfloat (fabs (turn[1][1] - 1), <, 1e-6);
}

/* Arrows: hit along their length, the trackball on its circle, rings on
 * theirs; an arrow seen end on is not shown; a drag along an arrow moves the
 * bone as far as the pointer went (the bone's new screen position under it). */
static void
test_arrows (void)
{
  double euler[3] = { 0.4, -0.7, 1.1 }, zero[3] = { 0, 0, 0 }, cx, cy;
  guint all = (1u << TRESS_GIZMO_N_HANDLES) - 1;
  TressGizmoFrame f;
  float mvp[16];

  setup (euler, 5, 30, 20, &f, mvp);
  g_assert_true (tress_gizmo_project (mvp, W, H, f.origin, &cx, &cy));
  for (int axis = 0; axis < 3; axis++)
    {
      double xy[4], mx, my;
      TressGizmoDrag drag;
      double t, p[3], px, py, len;

      g_assert_true (tress_gizmo_arrow_points (&f, mvp, W, H, axis, xy));
      len = hypot (xy[2] - cx, xy[3] - cy);
      g_assert_cmpfloat (len, <=, TRESS_GIZMO_ARROW_END + 1);
      /* Beyond the trackball, only the arrow. */
      mx = cx + (xy[2] - cx) * (TRESS_GIZMO_TRACKBALL_RADIUS + 12) / len;
      my = cy + (xy[3] - cy) * (TRESS_GIZMO_TRACKBALL_RADIUS + 12) / len;
      if (len > TRESS_GIZMO_TRACKBALL_RADIUS + 20)
        g_assert_cmpint (tress_gizmo_hit_handle (&f, mvp, W, H, all, mx, my), ==,
                         TRESS_GIZMO_ARROW_X + axis);
      /* Not offered: not hit. */
      g_assert_cmpint (tress_gizmo_hit_handle (&f, mvp, W, H, TRESS_GIZMO_TURNING, xy[2], xy[3]),
                       !=, TRESS_GIZMO_ARROW_X + axis);
      /* 40 pixels along the arrow on screen. */
      g_assert_true (tress_gizmo_move_begin (&drag, &f, mvp, W, H, axis, xy[2], xy[3]));
      t = tress_gizmo_move_update (&drag, xy[2] + 40 * drag.dir_x + 7 * drag.dir_y,
                                   xy[3] + 40 * drag.dir_y - 7 * drag.dir_x, FALSE);
      for (guint k = 0; k < 3; k++)
        p[k] = f.origin[k] + t * f.axes[axis][k];
      g_assert_true (tress_gizmo_project (mvp, W, H, p, &px, &py));
      g_assert_cmpfloat (fabs (hypot (px - cx, py - cy) - 40), <, 0.01);
      g_assert_cmpfloat (fabs ((px - cx) * drag.dir_y - (py - cy) * drag.dir_x), <, 0.01);
      /* Shift: a tenth (10 more pixels count 1). */
      t = tress_gizmo_move_update (&drag, xy[2] + 50 * drag.dir_x, xy[3] + 50 * drag.dir_y, TRUE);
      for (guint k = 0; k < 3; k++)
        p[k] = f.origin[k] + t * f.axes[axis][k];
      g_assert_true (tress_gizmo_project (mvp, W, H, p, &px, &py));
      g_assert_cmpfloat (fabs (hypot (px - cx, py - cy) - 41), <, 0.01);
    }
  /* The trackball's circle, and nothing at the centre. */
  g_assert_cmpint (tress_gizmo_hit_handle (&f, mvp, W, H, all,
                                           cx - TRESS_GIZMO_TRACKBALL_RADIUS * 0.6,
                                           cy + TRESS_GIZMO_TRACKBALL_RADIUS * 0.8 + 2),
                   ==, TRESS_GIZMO_TRACKBALL);
  g_assert_cmpint (tress_gizmo_hit_handle (&f, mvp, W, H, all, cx, cy), ==, -1);

  /* Z at the eye: its arrow is a dot, not shown, not hit. */
  setup (zero, 5, 0, 0, &f, mvp);
  {
    double xy[4];
    g_autoptr (GArray) tris = g_array_new (FALSE, FALSE, sizeof (TressStickVertex));
    g_autoptr (GArray) rings = g_array_new (FALSE, FALSE, sizeof (TressStickVertex));

    g_assert_false (tress_gizmo_arrow_points (&f, mvp, W, H, 2, xy));
    g_assert_true (tress_gizmo_arrow_points (&f, mvp, W, H, 0, xy));
    g_assert_cmpint (tress_gizmo_hit_handle (&f, mvp, W, H, all, W / 2, H / 2), ==, -1);
    /* Drawn: the rings as before, the trackball's circle, two arrows of a
     * shaft and a head each. */
    tress_gizmo_build (&f, mvp, W, H, -1, rings);
    tress_gizmo_build_handles (&f, mvp, W, H, all, -1, tris);
    g_assert_cmpuint (tris->len, ==, rings->len + 6 * TRESS_GIZMO_SEGMENTS + 2 * (6 + 3));
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gizmo-math/euler", test_euler);
  g_test_add_func ("/gizmo-math/rotate-local", test_rotate_local);
  g_test_add_func ("/gizmo-math/rings", test_rings);
  g_test_add_func ("/gizmo-math/drag", test_drag);
  g_test_add_func ("/gizmo-math/fine-snap", test_fine_snap);
  g_test_add_func ("/gizmo-math/rotate-world", test_rotate_world);
  g_test_add_func ("/gizmo-math/trackball", test_trackball);
  g_test_add_func ("/gizmo-math/arrows", test_arrows);
  return g_test_run ();
}
