/* test-gl-camera.c: the previews' orbit camera and screen-space picking
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "app/gl/tress-gl-camera.h"

static void
project_ok (const TressGlCamera *cam, const float p[3], double out[3])
{
  float mvp[16];

  tress_gl_camera_mvp (cam, 400, 300, mvp);
  g_assert_true (tress_gl_project (mvp, p, 400, 300, out));
}

/* The target lands in the middle of the viewport from any direction; the eye
 * sits at the distance; what is behind the eye is not projected. */
static void
test_target_centred (void)
{
  TressGlCamera cam;
  const float target[3] = { 1, 2, 3 };
  double out[3];
  float eye[3], mvp[16], behind[3];
  double yaw, pitch;

  tress_gl_camera_init (&cam, 5, 0, 0);
  memcpy (cam.target, target, sizeof target);
  for (yaw = -180; yaw <= 180; yaw += 45)
    for (pitch = -80; pitch <= 80; pitch += 40)
      {
        cam.yaw = yaw;
        cam.pitch = pitch;
        project_ok (&cam, target, out);
        g_assert_cmpfloat_with_epsilon (out[0], 200, 1e-3);
        g_assert_cmpfloat_with_epsilon (out[1], 150, 1e-3);
        g_assert_cmpfloat (out[2], >, -1);
        g_assert_cmpfloat (out[2], <, 1);
        tress_gl_camera_eye (&cam, eye);
        g_assert_cmpfloat_with_epsilon (hypot (hypot (eye[0] - 1, eye[1] - 2), eye[2] - 3), 5,
                                        1e-4);
        /* Twice as far from the target as the eye, on the eye's side. */
        for (guint i = 0; i < 3; i++)
          behind[i] = 2 * eye[i] - target[i] + (eye[i] - target[i]);
        tress_gl_camera_mvp (&cam, 400, 300, mvp);
        g_assert_false (tress_gl_project (mvp, behind, 400, 300, out));
      }
}

/* Yaw 0, pitch 0 looks down −Z: +X is to the right, +Y up (screen y down). */
static void
test_axes (void)
{
  TressGlCamera cam;
  const float right[3] = { 1, 0, 0 }, up[3] = { 0, 1, 0 };
  double out[3];

  tress_gl_camera_init (&cam, 10, 0, 0);
  project_ok (&cam, right, out);
  g_assert_cmpfloat (out[0], >, 210);
  g_assert_cmpfloat_with_epsilon (out[1], 150, 1e-3);
  project_ok (&cam, up, out);
  g_assert_cmpfloat (out[1], <, 140);
  g_assert_cmpfloat_with_epsilon (out[0], 200, 1e-3);
}

/* Framing a box brings all its corners into view, near the edges. */
static void
test_frame (void)
{
  TressGlCamera cam;
  const float lo[3] = { -3, 10, 4 }, hi[3] = { 5, 12, 9 }, bad_lo[3] = { 0, 1, 0 },
              bad_hi[3] = { 1, 0, 1 };
  double out[3], min_x = G_MAXDOUBLE, max_x = -G_MAXDOUBLE;
  guint c;

  tress_gl_camera_init (&cam, 1, 30, 20);
  g_assert_true (tress_gl_camera_frame (&cam, lo, hi));
  g_assert_cmpfloat (cam.target[0], ==, 1);
  g_assert_cmpfloat (cam.target[1], ==, 11);
  g_assert_cmpfloat (cam.target[2], ==, 6.5);
  for (c = 0; c < 8; c++)
    {
      float p[3] = { c & 1 ? hi[0] : lo[0], c & 2 ? hi[1] : lo[1], c & 4 ? hi[2] : lo[2] };

      project_ok (&cam, p, out);
      g_assert_cmpfloat (out[0], >=, 0);
      g_assert_cmpfloat (out[0], <=, 400);
      g_assert_cmpfloat (out[1], >=, 0);
      g_assert_cmpfloat (out[1], <=, 300);
      min_x = MIN (min_x, out[0]);
      max_x = MAX (max_x, out[0]);
    }
  /* Not lost in the middle either. */
  g_assert_cmpfloat (max_x - min_x, >, 100);
  g_assert_false (tress_gl_camera_frame (&cam, bad_lo, bad_hi));
  g_assert_cmpfloat (cam.target[0], ==, 1);
}

/* A drag orbits from where it began; a pan keeps the target under the
 * pointer; zoom and pitch stay in range. */
static void
test_drag (void)
{
  TressGlCamera cam;
  float before[3], mvp[16];
  double out[3];

  tress_gl_camera_init (&cam, 4, 10, 0);
  tress_gl_camera_drag_begin (&cam);
  tress_gl_camera_drag_update (&cam, 50, 0, 300, FALSE);
  tress_gl_camera_drag_update (&cam, 100, 1000, 300, FALSE);
  g_assert_cmpfloat_with_epsilon (cam.yaw, 10 - 40, 1e-9);
  g_assert_cmpfloat (cam.pitch, ==, 89);

  tress_gl_camera_init (&cam, 4, 30, 20);
  memcpy (before, cam.target, sizeof before);
  tress_gl_camera_drag_begin (&cam);
  tress_gl_camera_drag_update (&cam, 40, 0, 300, TRUE);
  /* The old target now sits 40 pixels right of the middle. */
  tress_gl_camera_mvp (&cam, 400, 300, mvp);
  g_assert_true (tress_gl_project (mvp, before, 400, 300, out));
  g_assert_cmpfloat_with_epsilon (out[0], 240, 0.5);
  g_assert_cmpfloat_with_epsilon (out[1], 150, 0.5);

  tress_gl_camera_zoom (&cam, 1e-9);
  g_assert_cmpfloat (cam.distance, ==, 1e-4);
  tress_gl_camera_zoom (&cam, 1e20);
  g_assert_cmpfloat (cam.distance, ==, 1e6);
  tress_gl_camera_orbit (&cam, 0, -500);
  g_assert_cmpfloat (cam.pitch, ==, -89);
}

static void
test_pick_helpers (void)
{
  const double a[3] = { 0, 0, 0.1 }, b[3] = { 10, 0, 0.5 }, c[3] = { 0, 10, 0.9 };
  const double flat_b[3] = { 10, 0, 0 }, flat_c[3] = { 20, 0, 0 };
  double depth = 0;

  g_assert_true (tress_gl_triangle_hit (a, b, c, 1, 1, &depth));
  g_assert_cmpfloat_with_epsilon (depth, 0.8 * 0.1 + 0.1 * 0.5 + 0.1 * 0.9, 1e-12);
  g_assert_true (tress_gl_triangle_hit (c, b, a, 1, 1, NULL)); /* either winding */
  g_assert_false (tress_gl_triangle_hit (a, b, c, 6, 6, &depth));
  g_assert_false (tress_gl_triangle_hit (a, flat_b, flat_c, 5, 0, &depth));
  g_assert_cmpfloat_with_epsilon (tress_gl_segment_distance (a, b, 5, 3), 3, 1e-12);
  g_assert_cmpfloat_with_epsilon (tress_gl_segment_distance (a, b, -3, 4), 5, 1e-12);
  g_assert_cmpfloat_with_epsilon (tress_gl_segment_distance (a, a, 3, 4), 5, 1e-12);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gl/camera/target-centred", test_target_centred);
  g_test_add_func ("/gl/camera/axes", test_axes);
  g_test_add_func ("/gl/camera/frame", test_frame);
  g_test_add_func ("/gl/camera/drag", test_drag);
  g_test_add_func ("/gl/pick/helpers", test_pick_helpers);
  return g_test_run ();
}
