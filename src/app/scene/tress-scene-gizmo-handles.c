/* tress-scene-gizmo-handles.c: the pose gizmo's trackball and arrows, and
 * all its handles hit and drawn together
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "tress-scene-gizmo-math-private.h"
#include "tress-scene-sticks.h"

#define ARROW_TOLERANCE 8.0
#define CENTRE 12.0 /* pixels around the bone where no handle is hit */

/* The world point under widget point (@x, @y) at the depth of @at. */
static gboolean
unproject (const float mvp[16], double width, double height, const double at[3], double x, double y,
           double out[3])
{
  graphene_matrix_t m, inv;
  float clip[4], ndc[3], q[4];

  tress_gizmo_to_clip (mvp, at, clip);
  if (!(clip[3] > 1e-6) || width <= 0 || height <= 0)
    return FALSE;
  graphene_matrix_init_from_float (&m, mvp);
  if (!graphene_matrix_inverse (&m, &inv))
    return FALSE;
  ndc[0] = (float)(2 * x / width - 1);
  ndc[1] = (float)(1 - 2 * y / height);
  ndc[2] = clip[2] / clip[3];
  for (guint j = 0; j < 4; j++)
    q[j] = ndc[0] * graphene_matrix_get_value (&inv, 0, j)
           + ndc[1] * graphene_matrix_get_value (&inv, 1, j)
           + ndc[2] * graphene_matrix_get_value (&inv, 2, j)
           + graphene_matrix_get_value (&inv, 3, j);
  if (fabs (q[3]) < 1e-12)
    return FALSE;
  for (guint k = 0; k < 3; k++)
    out[k] = q[k] / q[3];
  return TRUE;
}

/* Widget point (@x, @y) in clip space at the depth of clip point @at. */
static void
widget_to_clip (const float at[4], double width, double height, double x, double y, float out[4])
{
  out[0] = (float)((2 * x / width - 1) * at[3]);
  out[1] = (float)((1 - 2 * y / height) * at[3]);
  out[2] = at[2];
  out[3] = at[3];
}

/* ---- arrows --------------------------------------------------------------- */

/* The arrow's world end points; FALSE when the bone is behind the eye. */
static gboolean
arrow_world (const TressGizmoFrame *frame, const float mvp[16], double width, double height,
             int axis, double start[3], double end[3])
{
  double r0 = tress_gizmo_world_radius (frame, mvp, width, height, TRESS_GIZMO_ARROW_START);
  double r1 = tress_gizmo_world_radius (frame, mvp, width, height, TRESS_GIZMO_ARROW_END);

  if (r0 <= 0 || r1 <= 0)
    return FALSE;
  for (guint k = 0; k < 3; k++)
    {
      start[k] = frame->origin[k] + r0 * frame->axes[axis][k];
      end[k] = frame->origin[k] + r1 * frame->axes[axis][k];
    }
  return TRUE;
}

gboolean
tress_gizmo_arrow_points (const TressGizmoFrame *frame, const float mvp[16], double width,
                          double height, int axis, double xy[4])
{
  double start[3], end[3], cx, cy;

  g_return_val_if_fail (axis >= 0 && axis < 3, FALSE);
  return arrow_world (frame, mvp, width, height, axis, start, end)
         && tress_gizmo_project (mvp, width, height, frame->origin, &cx, &cy)
         && tress_gizmo_project (mvp, width, height, start, &xy[0], &xy[1])
         && tress_gizmo_project (mvp, width, height, end, &xy[2], &xy[3])
         && hypot (xy[2] - cx, xy[3] - cy) >= TRESS_GIZMO_ARROW_MIN;
}

gboolean
tress_gizmo_move_begin (TressGizmoDrag *drag, const TressGizmoFrame *frame, const float mvp[16],
                        double width, double height, int axis, double x, double y)
{
  double r = tress_gizmo_world_radius (frame, mvp, width, height, TRESS_GIZMO_RADIUS);
  double tip[3], tx, ty, len;

  memset (drag, 0, sizeof *drag);
  drag->axis = axis;
  if (r <= 0 || !tress_gizmo_project (mvp, width, height, frame->origin, &drag->cx, &drag->cy))
    return FALSE;
  for (guint k = 0; k < 3; k++)
    tip[k] = frame->origin[k] + r * frame->axes[axis][k];
  if (!tress_gizmo_project (mvp, width, height, tip, &tx, &ty))
    return FALSE;
  len = hypot (tx - drag->cx, ty - drag->cy);
  if (len < 1e-3)
    return FALSE;
  drag->dir_x = (tx - drag->cx) / len;
  drag->dir_y = (ty - drag->cy) / len;
  drag->per_unit = len / r;
  drag->x = x;
  drag->y = y;
  drag->width = width;
  drag->height = height;
  /* Clip space is affine in the world: origin + t·axis lands at clip0 + t·clipd. */
  {
    float c0[4], c1[4];
    double unit[3];

    for (guint k = 0; k < 3; k++)
      unit[k] = frame->origin[k] + frame->axes[axis][k];
    tress_gizmo_to_clip (mvp, frame->origin, c0);
    tress_gizmo_to_clip (mvp, unit, c1);
    for (guint k = 0; k < 4; k++)
      {
        drag->clip0[k] = c0[k];
        drag->clipd[k] = (double)c1[k] - c0[k];
      }
  }
  return TRUE;
}

double
tress_gizmo_move_update (TressGizmoDrag *drag, double x, double y, gboolean fine)
{
  double d = (x - drag->x) * drag->dir_x + (y - drag->y) * drag->dir_y;
  double px, py, ndc, t;
  guint c;

  drag->along += fine ? d * TRESS_GIZMO_FINE : d;
  drag->x = x;
  drag->y = y;
  /* The screen point that far along the arrow, and the t that lands there:
   * (clip0 + t·clipd)[c] / (clip0 + t·clipd)[w] = ndc, on the screen
   * coordinate the arrow runs along most. */
  px = drag->cx + drag->along * drag->dir_x;
  py = drag->cy + drag->along * drag->dir_y;
  if (fabs (drag->dir_x) >= fabs (drag->dir_y))
    c = 0, ndc = 2 * px / drag->width - 1;
  else
    c = 1, ndc = 1 - 2 * py / drag->height;
  t = (ndc * drag->clip0[3] - drag->clip0[c]) / (drag->clipd[c] - ndc * drag->clipd[3]);
  /* Towards the horizon of the axis (or past it): as far as it stays in front. */
  if (!isfinite (t) || !(drag->clip0[3] + t * drag->clipd[3] > 1e-6))
    t = drag->along / drag->per_unit;
  drag->accumulated = t;
  return t;
}

/* ---- the trackball -------------------------------------------------------- */

static void
normalize (double v[3])
{
  double len = tress_gizmo_length3 (v);

  for (guint k = 0; k < 3; k++)
    v[k] = len > 0 ? v[k] / len : 0;
}

void
tress_gizmo_trackball_begin (TressGizmoDrag *drag, const TressGizmoFrame *frame,
                             const float mvp[16], double width, double height, double x, double y)
{
  double p[3];

  memset (drag, 0, sizeof *drag);
  drag->axis = -1;
  drag->x = x;
  drag->y = y;
  drag->pixels = TRESS_GIZMO_TRACKBALL_RADIUS;
  for (guint k = 0; k < 3; k++)
    drag->turn[k][k] = 1;
  if (!tress_gizmo_project (mvp, width, height, frame->origin, &drag->cx, &drag->cy))
    return;
  /* The screen's right and up, as world directions at the bone. */
  if (unproject (mvp, width, height, frame->origin, drag->cx + 10, drag->cy, p))
    for (guint k = 0; k < 3; k++)
      drag->right[k] = p[k] - frame->origin[k];
  if (unproject (mvp, width, height, frame->origin, drag->cx, drag->cy - 10, p))
    for (guint k = 0; k < 3; k++)
      drag->up[k] = p[k] - frame->origin[k];
  normalize (drag->right);
  normalize (drag->up);
}

void
tress_gizmo_trackball_update (TressGizmoDrag *drag, double x, double y, gboolean fine,
                              gboolean snap, double turn[3][3])
{
  double dx = x - drag->x, dy = y - drag->y, len = hypot (dx, dy);

  /* Right turns the front right (about up), down turns it down (about right). */
  if (len > 0 && drag->pixels > 0)
    {
      double axis[3], step[3][3];

      for (guint k = 0; k < 3; k++)
        axis[k] = drag->up[k] * dx + drag->right[k] * dy;
      normalize (axis);
      if (tress_gizmo_length3 (axis) > 0)
        {
          tress_gizmo_axis_matrix (axis, len / drag->pixels * (fine ? TRESS_GIZMO_FINE : 1), step);
          tress_gizmo_multiply3 (step, drag->turn, drag->turn);
        }
    }
  drag->x = x;
  drag->y = y;
  memcpy (turn, drag->turn, sizeof drag->turn);
  if (snap)
    {
      /* The same axis, the angle in whole steps. */
      double (*m)[3] = drag->turn;
      double axis[3] = { m[2][1] - m[1][2], m[0][2] - m[2][0], m[1][0] - m[0][1] };
      double angle = atan2 (tress_gizmo_length3 (axis) / 2,
                            CLAMP ((m[0][0] + m[1][1] + m[2][2] - 1) / 2, -1, 1));

      normalize (axis);
      if (tress_gizmo_length3 (axis) > 0)
        tress_gizmo_axis_matrix (axis, round (angle / TRESS_GIZMO_SNAP) * TRESS_GIZMO_SNAP, turn);
    }
}

/* ---- all the handles ------------------------------------------------------ */

int
tress_gizmo_hit_handle (const TressGizmoFrame *frame, const float mvp[16], double width,
                        double height, guint shown, double x, double y)
{
  double best = G_MAXDOUBLE, cx, cy;
  int hit = -1;

  /* The bone itself is no handle (a ring seen edge on, an arrow end on pass by it). */
  if (!tress_gizmo_project (mvp, width, height, frame->origin, &cx, &cy)
      || hypot (x - cx, y - cy) < CENTRE)
    return -1;
  for (int h = 0; h < TRESS_GIZMO_N_HANDLES; h++)
    {
      double d, reach = TRESS_GIZMO_TOLERANCE, xy[4];

      if (!(shown & (1u << h)))
        continue;
      if (h <= TRESS_GIZMO_RING_Z)
        d = tress_gizmo_ring_distance (frame, mvp, width, height, h, x, y);
      else if (h == TRESS_GIZMO_TRACKBALL)
        d = fabs (hypot (x - cx, y - cy) - TRESS_GIZMO_TRACKBALL_RADIUS);
      else if (tress_gizmo_arrow_points (frame, mvp, width, height, h - TRESS_GIZMO_ARROW_X, xy))
        {
          d = tress_gizmo_segment_distance (x, y, xy[0], xy[1], xy[2], xy[3]);
          reach = ARROW_TOLERANCE;
        }
      else
        continue;
      if (d <= reach && d < best)
        {
          best = d;
          hit = h;
        }
    }
  return hit;
}

static void
build_trackball (const TressGizmoFrame *frame, const float mvp[16], double width, double height,
                 gboolean hot, GArray *out)
{
  float o[4], a[4], b[4], colour[4];
  double cx, cy;

  tress_gizmo_to_clip (mvp, frame->origin, o);
  if (!tress_gizmo_clip_to_widget (o, width, height, &cx, &cy))
    return;
  tress_gizmo_hot_colour (3, hot, colour);
  widget_to_clip (o, width, height, cx + TRESS_GIZMO_TRACKBALL_RADIUS, cy, a);
  for (guint i = 1; i <= TRESS_GIZMO_SEGMENTS; i++)
    {
      double t = 2 * G_PI * i / TRESS_GIZMO_SEGMENTS;

      widget_to_clip (o, width, height, cx + TRESS_GIZMO_TRACKBALL_RADIUS * cos (t),
                      cy + TRESS_GIZMO_TRACKBALL_RADIUS * sin (t), b);
      tress_scene_sticks_push_line (out, a, b, width, height, hot ? 3.5 : 2.0, colour);
      memcpy (a, b, sizeof a);
    }
}

static void
push_vertex (GArray *out, const float clip[4], const float colour[4])
{
  TressStickVertex v;

  memcpy (v.clip, clip, sizeof v.clip);
  memcpy (v.colour, colour, sizeof v.colour);
  g_array_append_val (out, v);
}

static void
build_arrow (const TressGizmoFrame *frame, const float mvp[16], double width, double height,
             int axis, gboolean hot, GArray *out)
{
  double start[3], end[3], xy[4], ux, uy, len, bx, by;
  float a[4], e[4], neck[4], left[4], right[4], colour[4];

  if (!tress_gizmo_arrow_points (frame, mvp, width, height, axis, xy)
      || !arrow_world (frame, mvp, width, height, axis, start, end))
    return;
  tress_gizmo_hot_colour (axis, hot, colour);
  tress_gizmo_to_clip (mvp, start, a);
  tress_gizmo_to_clip (mvp, end, e);
  len = hypot (xy[2] - xy[0], xy[3] - xy[1]);
  if (len < 1)
    return;
  ux = (xy[2] - xy[0]) / len;
  uy = (xy[3] - xy[1]) / len;
  /* The shaft up to the head's base, then the head: a triangle on screen. */
  bx = xy[2] - ux * MIN (TRESS_GIZMO_ARROW_HEAD, len / 2);
  by = xy[3] - uy * MIN (TRESS_GIZMO_ARROW_HEAD, len / 2);
  widget_to_clip (e, width, height, bx, by, neck);
  tress_scene_sticks_push_line (out, a, neck, width, height, hot ? 4.0 : 2.5, colour);
  widget_to_clip (e, width, height, bx - uy * (hot ? 7 : 6), by + ux * (hot ? 7 : 6), left);
  widget_to_clip (e, width, height, bx + uy * (hot ? 7 : 6), by - ux * (hot ? 7 : 6), right);
  push_vertex (out, e, colour);
  push_vertex (out, left, colour);
  push_vertex (out, right, colour);
}

static void
build_handle (const TressGizmoFrame *frame, const float mvp[16], double width, double height, int h,
              gboolean hot, GArray *out)
{
  if (h <= TRESS_GIZMO_RING_Z)
    tress_gizmo_build_ring (frame, mvp, width, height, h, hot, out);
  else if (h == TRESS_GIZMO_TRACKBALL)
    build_trackball (frame, mvp, width, height, hot, out);
  else
    build_arrow (frame, mvp, width, height, h - TRESS_GIZMO_ARROW_X, hot, out);
}

void
tress_gizmo_build_handles (const TressGizmoFrame *frame, const float mvp[16], double width,
                           double height, guint shown, int active, GArray *out)
{
  /* The trackball under the rings, the arrows over them, the active one last. */
  static const int order[]
      = { TRESS_GIZMO_TRACKBALL, TRESS_GIZMO_RING_X,  TRESS_GIZMO_RING_Y, TRESS_GIZMO_RING_Z,
          TRESS_GIZMO_ARROW_X,   TRESS_GIZMO_ARROW_Y, TRESS_GIZMO_ARROW_Z };

  if (tress_gizmo_world_radius (frame, mvp, width, height, TRESS_GIZMO_RADIUS) <= 0)
    return;

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    if ((shown & (1u << order[i])) && order[i] != active)
      build_handle (frame, mvp, width, height, order[i], FALSE, out);
  if (active >= 0 && active < TRESS_GIZMO_N_HANDLES && (shown & (1u << active)))
    build_handle (frame, mvp, width, height, active, TRUE, out);
}
