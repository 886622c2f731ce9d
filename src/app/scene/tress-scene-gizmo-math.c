/* tress-scene-gizmo-math.c: the rotation gizmo's maths, without GTK or GL
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-scene-gizmo-math-private.h"

#include <math.h>
#include <string.h>

#include "tress-scene-sticks.h"

void
tress_gizmo_to_clip (const float m[16], const double p[3], float clip[4])
{
  for (guint j = 0; j < 4; j++)
    clip[j] = (float)(p[0] * m[j] + p[1] * m[4 + j] + p[2] * m[8 + j] + m[12 + j]);
}

double
tress_gizmo_length3 (const double v[3])
{
  return sqrt (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

gboolean
tress_gizmo_frame_from_world (const graphene_matrix_t *world, TressGizmoFrame *out)
{
  for (guint r = 0; r < 3; r++)
    {
      double len;

      for (guint c = 0; c < 3; c++)
        out->axes[r][c] = graphene_matrix_get_value (world, r, c);
      len = tress_gizmo_length3 (out->axes[r]);
      if (!(len > 1e-12))
        return FALSE;
      for (guint c = 0; c < 3; c++)
        out->axes[r][c] /= len;
    }
  for (guint c = 0; c < 3; c++)
    out->origin[c] = graphene_matrix_get_value (world, 3, c);
  return TRUE;
}

gboolean
tress_gizmo_clip_to_widget (const float clip[4], double width, double height, double *x, double *y)
{
  if (!(clip[3] > 1e-6))
    return FALSE;
  *x = (clip[0] / clip[3] + 1) / 2 * width;
  *y = (1 - clip[1] / clip[3]) / 2 * height;
  return TRUE;
}

gboolean
tress_gizmo_project (const float mvp[16], double width, double height, const double p[3], double *x,
                     double *y)
{
  float clip[4];

  tress_gizmo_to_clip (mvp, p, clip);
  return tress_gizmo_clip_to_widget (clip, width, height, x, y);
}

double
tress_gizmo_world_radius (const TressGizmoFrame *frame, const float mvp[16], double width,
                          double height, double pixels)
{
  graphene_matrix_t m, inv;
  float clip[4], ndc[4], q[4];
  double d[3];

  tress_gizmo_to_clip (mvp, frame->origin, clip);
  if (!(clip[3] > 1e-6) || width <= 0)
    return 0;
  graphene_matrix_init_from_float (&m, mvp);
  if (!graphene_matrix_inverse (&m, &inv))
    return 0;
  /* The point @pixels to the right of the origin at its depth, back in the world. */
  ndc[0] = (float)(clip[0] / clip[3] + 2 * pixels / width);
  ndc[1] = clip[1] / clip[3];
  ndc[2] = clip[2] / clip[3];
  ndc[3] = 1;
  for (guint j = 0; j < 4; j++)
    q[j] = ndc[0] * graphene_matrix_get_value (&inv, 0, j)
           + ndc[1] * graphene_matrix_get_value (&inv, 1, j)
           + ndc[2] * graphene_matrix_get_value (&inv, 2, j)
           + graphene_matrix_get_value (&inv, 3, j);
  if (fabs (q[3]) < 1e-12)
    return 0;
  for (guint k = 0; k < 3; k++)
    d[k] = q[k] / q[3] - frame->origin[k];
  return tress_gizmo_length3 (d);
}

/* @b made unit and square to @a (a unit vector across @a where @b lies
 * along it) as @u, and @a × @u as @v. */
static void
across (const double a[3], const double b[3], double u[3], double v[3])
{
  double dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2], len;

  for (guint k = 0; k < 3; k++)
    u[k] = b[k] - dot * a[k];
  len = tress_gizmo_length3 (u);
  if (len < 1e-9)
    {
      /* Along @a: any vector across it. */
      double t[3] = { fabs (a[0]) < 0.9 ? 1 : 0, fabs (a[0]) < 0.9 ? 0 : 1, 0 };

      dot = a[0] * t[0] + a[1] * t[1] + a[2] * t[2];
      for (guint k = 0; k < 3; k++)
        u[k] = t[k] - dot * a[k];
      len = tress_gizmo_length3 (u);
    }
  for (guint k = 0; k < 3; k++)
    u[k] /= len;
  v[0] = a[1] * u[2] - a[2] * u[1];
  v[1] = a[2] * u[0] - a[0] * u[2];
  v[2] = a[0] * u[1] - a[1] * u[0];
}

/* Two unit vectors across axis @axis (orthonormal, whatever shear the
 * bone's axes have): the ring's plane. */
static void
ring_basis (const TressGizmoFrame *frame, int axis, double u[3], double v[3])
{
  across (frame->axes[axis], frame->axes[(axis + 1) % 3], u, v);
}

static void
ring_point (const TressGizmoFrame *frame, const double u[3], const double v[3], double r, guint i,
            double out[3])
{
  double t = 2 * G_PI * i / TRESS_GIZMO_SEGMENTS, c = cos (t), s = sin (t);

  for (guint k = 0; k < 3; k++)
    out[k] = frame->origin[k] + r * (c * u[k] + s * v[k]);
}

gboolean
tress_gizmo_ring_points (const TressGizmoFrame *frame, const float mvp[16], double width,
                         double height, int axis, double *xy, gboolean *front)
{
  double r = tress_gizmo_world_radius (frame, mvp, width, height, TRESS_GIZMO_RADIUS);
  double u[3], v[3], p[3];

  g_return_val_if_fail (axis >= 0 && axis < 3, FALSE);
  if (r <= 0)
    return FALSE;
  ring_basis (frame, axis, u, v);
  for (guint i = 0; i < TRESS_GIZMO_SEGMENTS; i++)
    {
      ring_point (frame, u, v, r, i, p);
      front[i] = tress_gizmo_project (mvp, width, height, p, &xy[2 * i], &xy[2 * i + 1]);
    }
  return TRUE;
}

double
tress_gizmo_segment_distance (double px, double py, double ax, double ay, double bx, double by)
{
  double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
  double t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;

  t = CLAMP (t, 0, 1);
  return hypot (px - (ax + t * dx), py - (ay + t * dy));
}

double
tress_gizmo_ring_distance (const TressGizmoFrame *frame, const float mvp[16], double width,
                           double height, int axis, double x, double y)
{
  double xy[2 * TRESS_GIZMO_SEGMENTS];
  gboolean front[TRESS_GIZMO_SEGMENTS];
  double best = G_MAXDOUBLE;

  if (!tress_gizmo_ring_points (frame, mvp, width, height, axis, xy, front))
    return G_MAXDOUBLE;
  for (guint i = 0; i < TRESS_GIZMO_SEGMENTS; i++)
    {
      guint j = (i + 1) % TRESS_GIZMO_SEGMENTS;

      if (front[i] && front[j])
        best = MIN (best, tress_gizmo_segment_distance (x, y, xy[2 * i], xy[2 * i + 1], xy[2 * j],
                                                        xy[2 * j + 1]));
    }
  return best;
}

int
tress_gizmo_hit (const TressGizmoFrame *frame, const float mvp[16], double width, double height,
                 double x, double y)
{
  double best = TRESS_GIZMO_TOLERANCE;
  int hit = -1;

  for (int axis = 0; axis < 3; axis++)
    {
      double d = tress_gizmo_ring_distance (frame, mvp, width, height, axis, x, y);

      if (d <= best)
        {
          best = d;
          hit = axis;
        }
    }
  return hit;
}

/* ---- dragging ------------------------------------------------------------- */

void
tress_gizmo_drag_begin (TressGizmoDrag *drag, const TressGizmoFrame *frame, const float mvp[16],
                        double width, double height, int axis, double x, double y)
{
  float o[4], tip[4];
  double r = tress_gizmo_world_radius (frame, mvp, width, height, TRESS_GIZMO_RADIUS);
  double p[3];

  drag->axis = axis;
  drag->accumulated = 0;
  drag->cx = x;
  drag->cy = y;
  tress_gizmo_project (mvp, width, height, frame->origin, &drag->cx, &drag->cy);
  /* Seen from the eye, a right-handed turn about an axis pointing at it is
   * anticlockwise: the pointer's angle (y down) decreases. */
  for (guint k = 0; k < 3; k++)
    p[k] = frame->origin[k] + (r > 0 ? r : 1) * frame->axes[axis][k];
  tress_gizmo_to_clip (mvp, frame->origin, o);
  tress_gizmo_to_clip (mvp, p, tip);
  drag->sign = tip[3] < o[3] ? -1 : 1;
  drag->valid = hypot (x - drag->cx, y - drag->cy) > 1;
  drag->last = atan2 (y - drag->cy, x - drag->cx);
}

double
tress_gizmo_drag_update (TressGizmoDrag *drag, double x, double y, gboolean fine, gboolean snap)
{
  double angle, result;

  /* At the centre the pointer's angle means nothing. */
  if (hypot (x - drag->cx, y - drag->cy) > 1)
    {
      double now = atan2 (y - drag->cy, x - drag->cx);

      if (drag->valid)
        {
          double d = remainder (now - drag->last, 2 * G_PI);

          drag->accumulated += fine ? d * TRESS_GIZMO_FINE : d;
        }
      drag->last = now;
      drag->valid = TRUE;
    }
  angle = drag->accumulated * drag->sign;
  result = snap ? round (angle / TRESS_GIZMO_SNAP) * TRESS_GIZMO_SNAP : angle;
  return result;
}

/* ---- rotations ------------------------------------------------------------ */

void
tress_gizmo_multiply3 (const double a[3][3], const double b[3][3], double out[3][3])
{
  double t[3][3];

  for (guint i = 0; i < 3; i++)
    for (guint j = 0; j < 3; j++)
      t[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
  memcpy (out, t, sizeof t);
}

static void
axis_matrix (int axis, double angle, double m[3][3])
{
  double c = cos (angle), s = sin (angle);
  int i = (axis + 1) % 3, j = (axis + 2) % 3;

  memset (m, 0, sizeof (double) * 9);
  m[axis][axis] = 1;
  m[i][i] = c;
  m[j][j] = c;
  m[i][j] = -s;
  m[j][i] = s;
}

void
tress_gizmo_euler_to_matrix (const double euler[3], double m[3][3])
{
  double x[3][3], y[3][3], z[3][3];

  axis_matrix (0, euler[0], x);
  axis_matrix (1, euler[1], y);
  axis_matrix (2, euler[2], z);
  tress_gizmo_multiply3 (y, x, m);
  tress_gizmo_multiply3 (z, m, m);
}

void
tress_gizmo_quaternion_to_matrix (const double q[4], double m[3][3])
{
  double n = sqrt (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  double x = q[0], y = q[1], z = q[2], w = q[3];

  if (n > 0)
    x /= n, y /= n, z /= n, w /= n;
  else
    w = 1;
  m[0][0] = 1 - 2 * (y * y + z * z);
  m[0][1] = 2 * (x * y - z * w);
  m[0][2] = 2 * (x * z + y * w);
  m[1][0] = 2 * (x * y + z * w);
  m[1][1] = 1 - 2 * (x * x + z * z);
  m[1][2] = 2 * (y * z - x * w);
  m[2][0] = 2 * (x * z - y * w);
  m[2][1] = 2 * (y * z + x * w);
  m[2][2] = 1 - 2 * (x * x + y * y);
}

static double
nearest_turn (double angle, double near)
{
  return angle + 2 * G_PI * round ((near - angle) / (2 * G_PI));
}

void
tress_gizmo_matrix_to_euler (const double m[3][3], const double near[3], double out[3])
{
  double sy = CLAMP (-m[2][0], -1, 1), cy = sqrt (m[2][1] * m[2][1] + m[2][2] * m[2][2]);
  double sol[2][3], cost[2] = { 0, 0 };

  if (cy < 1e-9)
    {
      /* Y at ±90°: only X − Z (or X + Z) is known; X stays. */
      double x = near[0];

      sol[0][0] = x;
      sol[0][1] = sy > 0 ? G_PI / 2 : -G_PI / 2;
      sol[0][2] = sy > 0 ? x - atan2 (m[0][1], m[0][2]) : atan2 (-m[0][1], -m[0][2]) - x;
      memcpy (sol[1], sol[0], sizeof sol[0]);
    }
  else
    {
      sol[0][0] = atan2 (m[2][1], m[2][2]);
      sol[0][1] = atan2 (sy, cy);
      sol[0][2] = atan2 (m[1][0], m[0][0]);
      sol[1][0] = sol[0][0] + G_PI;
      sol[1][1] = G_PI - sol[0][1];
      sol[1][2] = sol[0][2] + G_PI;
    }
  for (guint s = 0; s < 2; s++)
    for (guint k = 0; k < 3; k++)
      {
        sol[s][k] = nearest_turn (sol[s][k], near[k]);
        cost[s] += (sol[s][k] - near[k]) * (sol[s][k] - near[k]);
      }
  memcpy (out, sol[cost[1] < cost[0] ? 1 : 0], sizeof sol[0]);
}

void
tress_gizmo_rotate_local (const double euler[3], int axis, double angle, double out[3])
{
  double m[3][3], r[3][3];

  g_return_if_fail (axis >= 0 && axis < 3);
  tress_gizmo_euler_to_matrix (euler, m);
  axis_matrix (axis, angle, r);
  tress_gizmo_multiply3 (m, r, m);
  tress_gizmo_matrix_to_euler (m, euler, out);
}

void
tress_gizmo_axis_matrix (const double axis[3], double angle, double m[3][3])
{
  double c = cos (angle), s = sin (angle), t = 1 - c;
  double x = axis[0], y = axis[1], z = axis[2];

  m[0][0] = t * x * x + c, m[0][1] = t * x * y - s * z, m[0][2] = t * x * z + s * y;
  m[1][0] = t * x * y + s * z, m[1][1] = t * y * y + c, m[1][2] = t * y * z - s * x;
  m[2][0] = t * x * z - s * y, m[2][1] = t * y * z + s * x, m[2][2] = t * z * z + c;
}

/* @frame's axes made orthonormal (X kept, Y then Z across it), as the
 * columns of @f. */
static void
orthonormal (const TressGizmoFrame *frame, double f[3][3])
{
  double x[3], y[3], z[3], len;

  memcpy (x, frame->axes[0], sizeof x);
  len = tress_gizmo_length3 (x);
  for (guint k = 0; k < 3; k++)
    x[k] = len > 0 ? x[k] / len : k == 0;
  across (x, frame->axes[1], y, z);
  for (guint k = 0; k < 3; k++)
    {
      f[k][0] = x[k];
      f[k][1] = y[k];
      f[k][2] = z[k];
    }
}

void
tress_gizmo_rotate_world (const double euler[3], const TressGizmoFrame *frame,
                          const double turn[3][3], const double near[3], double out[3])
{
  double f[3][3], ft[3][3], d[3][3], m[3][3];

  orthonormal (frame, f);
  for (guint i = 0; i < 3; i++)
    for (guint j = 0; j < 3; j++)
      ft[i][j] = f[j][i];
  tress_gizmo_multiply3 (ft, turn, d);
  tress_gizmo_multiply3 (d, f, d);
  tress_gizmo_euler_to_matrix (euler, m);
  tress_gizmo_multiply3 (m, d, m);
  tress_gizmo_matrix_to_euler (m, near, out);
}

gboolean
tress_gizmo_solve3 (const double m[3][3], const double v[3], double x[3])
{
  double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
               - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
               + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  double scale = 0;

  for (guint i = 0; i < 3; i++)
    for (guint j = 0; j < 3; j++)
      scale = MAX (scale, fabs (m[i][j]));
  if (!(fabs (det) > 1e-12 * scale * scale * scale) || !isfinite (det))
    return FALSE;
  /* Cramer's rule. */
  for (guint c = 0; c < 3; c++)
    {
      double a[3][3];

      memcpy (a, m, sizeof a);
      for (guint r = 0; r < 3; r++)
        a[r][c] = v[r];
      x[c] = (a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
              - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
              + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]))
             / det;
    }
  return TRUE;
}

double
tress_gizmo_angle_between (const double a[3][3], const double b[3][3], int axis, double *off)
{
  double d[3][3], at[3][3], back[3][3], angle;
  int i = (axis + 1) % 3, j = (axis + 2) % 3;

  for (guint r = 0; r < 3; r++)
    for (guint c = 0; c < 3; c++)
      at[r][c] = a[c][r];
  tress_gizmo_multiply3 (at, b, d);
  angle = atan2 (d[j][i] - d[i][j], d[i][i] + d[j][j]);
  if (off != NULL)
    {
      double trace;

      axis_matrix (axis, -angle, back);
      tress_gizmo_multiply3 (d, back, back);
      trace = back[0][0] + back[1][1] + back[2][2];
      *off = acos (CLAMP ((trace - 1) / 2, -1, 1));
    }
  return angle;
}

/* ---- drawing -------------------------------------------------------------- */

const float tress_gizmo_colours[4][4] = { { 0.93f, 0.26f, 0.26f, 1 },
                                          { 0.36f, 0.84f, 0.32f, 1 },
                                          { 0.30f, 0.52f, 1.0f, 1 },
                                          { 0.78f, 0.78f, 0.78f, 1 } };

void
tress_gizmo_hot_colour (int which, gboolean hot, float colour[4])
{
  for (guint k = 0; k < 4; k++)
    colour[k] = hot && k < 3 ? tress_gizmo_colours[which][k] * 0.6f + 0.4f
                             : tress_gizmo_colours[which][k];
}

void
tress_gizmo_build_ring (const TressGizmoFrame *frame, const float mvp[16], double width,
                        double height, int axis, gboolean hot, GArray *out)
{
  double r = tress_gizmo_world_radius (frame, mvp, width, height, TRESS_GIZMO_RADIUS);
  float colour[4], a[4], b[4];
  double u[3], v[3], p[3];

  if (r <= 0)
    return;
  tress_gizmo_hot_colour (axis, hot, colour);
  ring_basis (frame, axis, u, v);
  ring_point (frame, u, v, r, 0, p);
  tress_gizmo_to_clip (mvp, p, a);
  for (guint i = 1; i <= TRESS_GIZMO_SEGMENTS; i++)
    {
      ring_point (frame, u, v, r, i % TRESS_GIZMO_SEGMENTS, p);
      tress_gizmo_to_clip (mvp, p, b);
      if (a[3] > 1e-6 && b[3] > 1e-6)
        tress_scene_sticks_push_line (out, a, b, width, height, hot ? 4.0 : 2.5, colour);
      memcpy (a, b, sizeof a);
    }
}

void
tress_gizmo_build (const TressGizmoFrame *frame, const float mvp[16], double width, double height,
                   int active, GArray *out)
{
  /* The active ring last, over the others. */
  for (int n = 0; n < 3; n++)
    {
      int axis = active >= 0 && active < 3 ? (active + 1 + n) % 3 : n;

      tress_gizmo_build_ring (frame, mvp, width, height, axis, axis == active, out);
    }
}
