/* tress-gl-camera.c: the orbit camera and screen-space picking of the 3D previews
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-gl-camera.h"

#include <math.h>
#include <string.h>

void
tress_gl_camera_init (TressGlCamera *cam, double distance, double yaw, double pitch)
{
  memset (cam, 0, sizeof *cam);
  cam->distance = distance;
  cam->yaw = yaw;
  cam->pitch = CLAMP (pitch, -89, 89);
}

void
tress_gl_camera_eye (const TressGlCamera *cam, float eye[3])
{
  double cy = cos (cam->pitch * G_PI / 180), sy = sin (cam->pitch * G_PI / 180);
  double cx = cos (cam->yaw * G_PI / 180), sx = sin (cam->yaw * G_PI / 180);
  double d = cam->distance;

  eye[0] = (float)(cam->target[0] + d * cy * sx);
  eye[1] = (float)(cam->target[1] + d * sy);
  eye[2] = (float)(cam->target[2] + d * cy * cx);
}

/* A view matrix in graphene's row-vector layout (graphene's own look_at does
 * not map the eye to the origin in the graphene shipped with GTK 4.8). */
static void
look_at (graphene_matrix_t *m, const graphene_vec3_t *eye, const graphene_vec3_t *center)
{
  graphene_vec3_t f, s, u, up;
  float v[16];

  graphene_vec3_subtract (center, eye, &f);
  graphene_vec3_normalize (&f, &f);
  graphene_vec3_init (&up, 0, 1, 0);
  graphene_vec3_cross (&f, &up, &s);
  graphene_vec3_normalize (&s, &s);
  graphene_vec3_cross (&s, &f, &u);
  v[0] = graphene_vec3_get_x (&s);
  v[1] = graphene_vec3_get_x (&u);
  v[2] = -graphene_vec3_get_x (&f);
  v[3] = 0;
  v[4] = graphene_vec3_get_y (&s);
  v[5] = graphene_vec3_get_y (&u);
  v[6] = -graphene_vec3_get_y (&f);
  v[7] = 0;
  v[8] = graphene_vec3_get_z (&s);
  v[9] = graphene_vec3_get_z (&u);
  v[10] = -graphene_vec3_get_z (&f);
  v[11] = 0;
  v[12] = -graphene_vec3_dot (&s, eye);
  v[13] = -graphene_vec3_dot (&u, eye);
  v[14] = graphene_vec3_dot (&f, eye);
  v[15] = 1;
  graphene_matrix_init_from_float (m, v);
}

void
tress_gl_camera_matrices (const TressGlCamera *cam, double width, double height,
                          graphene_matrix_t *view, graphene_matrix_t *projection,
                          graphene_matrix_t *mvp)
{
  graphene_matrix_t v, p;
  graphene_vec3_t eye_v, center;
  float eye[3];
  double d = cam->distance;

  width = MAX (width, 1);
  height = MAX (height, 1);
  tress_gl_camera_eye (cam, eye);
  graphene_vec3_init (&center, cam->target[0], cam->target[1], cam->target[2]);
  graphene_vec3_init (&eye_v, eye[0], eye[1], eye[2]);
  look_at (&v, &eye_v, &center);
  graphene_matrix_init_perspective (&p, (float)TRESS_GL_CAMERA_FOV_DEGREES, (float)(width / height),
                                    (float)MAX (d * 0.01, 1e-4), (float)(d * 10 + 10));
  if (view != NULL)
    *view = v;
  if (projection != NULL)
    *projection = p;
  if (mvp != NULL)
    graphene_matrix_multiply (&v, &p, mvp);
}

void
tress_gl_camera_mvp (const TressGlCamera *cam, double width, double height, float mvp[16])
{
  graphene_matrix_t m;

  tress_gl_camera_matrices (cam, width, height, NULL, NULL, &m);
  graphene_matrix_to_float (&m, mvp);
}

void
tress_gl_camera_orbit (TressGlCamera *cam, double yaw, double pitch)
{
  cam->yaw += yaw;
  cam->pitch = CLAMP (cam->pitch + pitch, -89, 89);
}

void
tress_gl_camera_zoom (TressGlCamera *cam, double factor)
{
  cam->distance = CLAMP (cam->distance * factor, 1e-4, 1e6);
}

void
tress_gl_camera_drag_begin (TressGlCamera *cam)
{
  cam->drag_yaw = cam->yaw;
  cam->drag_pitch = cam->pitch;
  memcpy (cam->drag_target, cam->target, sizeof cam->target);
}

void
tress_gl_camera_drag_update (TressGlCamera *cam, double dx, double dy, double height, gboolean pan)
{
  if (pan)
    {
      double scale
          = cam->distance * 2 * tan (TRESS_GL_CAMERA_FOV_DEGREES * G_PI / 360) / MAX (height, 1);
      double cx = cos (cam->yaw * G_PI / 180), sx = sin (cam->yaw * G_PI / 180);

      /* Right vector (cx, 0, -sx), up approximately (0, 1, 0). */
      cam->target[0] = (float)(cam->drag_target[0] - dx * scale * cx);
      cam->target[1] = (float)(cam->drag_target[1] + dy * scale);
      cam->target[2] = (float)(cam->drag_target[2] + dx * scale * sx);
    }
  else
    {
      cam->yaw = cam->drag_yaw - dx * 0.4;
      cam->pitch = CLAMP (cam->drag_pitch + dy * 0.4, -89, 89);
    }
}

gboolean
tress_gl_camera_frame (TressGlCamera *cam, const float lo[3], const float hi[3])
{
  double r2 = 0, radius;
  guint i;

  for (i = 0; i < 3; i++)
    if (!(lo[i] <= hi[i]))
      return FALSE;
  for (i = 0; i < 3; i++)
    {
      cam->target[i] = (lo[i] + hi[i]) / 2;
      r2 += ((double)hi[i] - lo[i]) * ((double)hi[i] - lo[i]);
    }
  radius = sqrt (r2) / 2;
  cam->distance = MAX (radius, 1e-3) / sin (TRESS_GL_CAMERA_FOV_DEGREES * G_PI / 360) * 1.05;
  return TRUE;
}

gboolean
tress_gl_project (const float m[16], const float p[3], double width, double height, double out[3])
{
  double clip[4];

  for (guint j = 0; j < 4; j++)
    clip[j] = p[0] * m[j] + p[1] * m[4 + j] + p[2] * m[8 + j] + m[12 + j];
  if (clip[3] <= 1e-9)
    return FALSE;
  out[0] = (clip[0] / clip[3] + 1) / 2 * width;
  out[1] = (1 - clip[1] / clip[3]) / 2 * height;
  out[2] = clip[2] / clip[3];
  return TRUE;
}

double
tress_gl_segment_distance (const double a[3], const double b[3], double x, double y)
{
  double dx = b[0] - a[0], dy = b[1] - a[1], l2 = dx * dx + dy * dy;
  double t = l2 > 0 ? ((x - a[0]) * dx + (y - a[1]) * dy) / l2 : 0;

  t = CLAMP (t, 0, 1);
  return hypot (a[0] + t * dx - x, a[1] + t * dy - y);
}

gboolean
tress_gl_triangle_hit (const double a[3], const double b[3], const double c[3], double x, double y,
                       double *depth)
{
  double det = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[1] - c[1]);
  double l0, l1, l2;

  if (fabs (det) <= 1e-12)
    return FALSE;
  l0 = ((b[1] - c[1]) * (x - c[0]) + (c[0] - b[0]) * (y - c[1])) / det;
  l1 = ((c[1] - a[1]) * (x - c[0]) + (a[0] - c[0]) * (y - c[1])) / det;
  l2 = 1 - l0 - l1;
  if (l0 < 0 || l1 < 0 || l2 < 0)
    return FALSE;
  if (depth != NULL)
    *depth = l0 * a[2] + l1 * b[2] + l2 * c[2];
  return TRUE;
}
