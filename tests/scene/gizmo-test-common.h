/* gizmo-test-common.h: what the pose gizmo's UI tests share: rotations
 * written out from the format pages' order (independent of the code under
 * test), pointer paths, the handle's point to press
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <math.h>

#include "scene/tress-scene-gizmo-math.h"
#include "scene/tress-scene-gizmo.h"

#define DEG (G_PI / 180)

/* R = Rz · Ry · Rx, written out (X first, as the format pages say). */
static inline void
gt_ref_matrix (const double e[3], double m[3][3])
{
  double cx = cos (e[0]), sx = sin (e[0]), cy = cos (e[1]), sy = sin (e[1]), cz = cos (e[2]),
         sz = sin (e[2]);

  m[0][0] = cz * cy, m[0][1] = cz * sy * sx - sz * cx, m[0][2] = cz * sy * cx + sz * sx;
  m[1][0] = sz * cy, m[1][1] = sz * sy * sx + cz * cx, m[1][2] = sz * sy * cx - cz * sx;
  m[2][0] = -sy, m[2][1] = cy * sx, m[2][2] = cy * cx;
}

/* D = Aᵀ·B: the turn from Euler angles @a to @b in the bone's own frame. */
static inline void
gt_turn (const double a[3], const double b[3], double d[3][3])
{
  double ma[3][3], mb[3][3];

  gt_ref_matrix (a, ma);
  gt_ref_matrix (b, mb);
  for (guint i = 0; i < 3; i++)
    for (guint j = 0; j < 3; j++)
      d[i][j] = ma[0][i] * mb[0][j] + ma[1][i] * mb[1][j] + ma[2][i] * mb[2][j];
}

/* The turn from @a to @b about the bone's own X axis (D = Rx(angle)), and in
 * *off how far D is from a turn about X alone. */
static inline double
gt_angle_about_x (const double a[3], const double b[3], double *off)
{
  double d[3][3];

  gt_turn (a, b, d);
  *off = fabs (d[0][0] - 1) + fabs (d[0][1]) + fabs (d[0][2]) + fabs (d[1][0]) + fabs (d[2][0]);
  return atan2 (d[2][1] - d[1][2], d[1][1] + d[2][2]);
}

/* The angle of the turn from @a to @b (whatever its axis), and its axis in
 * the bone's own frame. */
static inline double
gt_angle (const double a[3], const double b[3], double axis[3])
{
  double d[3][3], len;

  gt_turn (a, b, d);
  axis[0] = d[2][1] - d[1][2];
  axis[1] = d[0][2] - d[2][0];
  axis[2] = d[1][0] - d[0][1];
  len = sqrt (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  for (guint k = 0; k < 3; k++)
    axis[k] = len > 0 ? axis[k] / len : 0;
  return atan2 (len / 2, (d[0][0] + d[1][1] + d[2][2] - 1) / 2);
}

/* Points of a turn of @degrees around (@cx, @cy) from (@x, @y), in @n steps. */
static inline double *
gt_arc (double cx, double cy, double x, double y, double degrees, guint n)
{
  double *p = g_new (double, 2 * n), r = hypot (x - cx, y - cy), a0 = atan2 (y - cy, x - cx);

  for (guint i = 0; i < n; i++)
    {
      double a = a0 + degrees * DEG * (i + 1) / n;

      p[2 * i] = cx + r * cos (a);
      p[2 * i + 1] = cy + r * sin (a);
    }
  return p;
}

/* The point of ring @axis inside the picture farthest from the bone on
 * screen that the gizmo takes for that ring (whole pixels), its distance
 * returned. */
static inline double
gt_ring_point (const TressGizmoFrame *frame, const float mvp[16], double w, double h, guint shown,
               int axis, double *x, double *y)
{
  double xy[2 * TRESS_GIZMO_SEGMENTS], cx, cy, best = 0;
  gboolean front[TRESS_GIZMO_SEGMENTS];

  g_assert_true (tress_gizmo_project (mvp, w, h, frame->origin, &cx, &cy));
  g_assert_true (tress_gizmo_ring_points (frame, mvp, w, h, axis, xy, front));
  for (guint i = 0; i < TRESS_GIZMO_SEGMENTS; i++)
    {
      double d = hypot (xy[2 * i] - cx, xy[2 * i + 1] - cy);

      if (front[i] && d > best && xy[2 * i] > 2 && xy[2 * i] < w - 2 && xy[2 * i + 1] > 2
          && xy[2 * i + 1] < h - 2
          && tress_gizmo_hit_handle (frame, mvp, w, h, shown, round (xy[2 * i]),
                                     round (xy[2 * i + 1]))
                 == axis)
        {
          best = d;
          *x = round (xy[2 * i]);
          *y = round (xy[2 * i + 1]);
        }
    }
  return best;
}

/* The point of arrow @axis farthest out along it inside the picture that
 * the gizmo takes for that arrow (whole pixels), and the arrow's direction on
 * screen (unit); FALSE when there is none. */
static inline gboolean
gt_arrow_point (const TressGizmoFrame *frame, const float mvp[16], double w, double h, guint shown,
                int axis, double *x, double *y, double *ux, double *uy)
{
  double xy[4], len;

  if (!tress_gizmo_arrow_points (frame, mvp, w, h, axis, xy))
    return FALSE;
  len = hypot (xy[2] - xy[0], xy[3] - xy[1]);
  *ux = (xy[2] - xy[0]) / len;
  *uy = (xy[3] - xy[1]) / len;
  for (double back = 4; back < len; back += 2)
    {
      *x = round (xy[2] - *ux * back);
      *y = round (xy[3] - *uy * back);
      if (*x > 3 && *x < w - 3 && *y > 3 && *y < h - 3
          && tress_gizmo_hit_handle (frame, mvp, w, h, shown, *x, *y) == TRESS_GIZMO_ARROW_X + axis)
        return TRUE;
    }
  return FALSE;
}

/* The message dialog shown (a question before a lossy store), or NULL. */
static inline GtkWidget *
gt_find_question (void)
{
  GListModel *tops = gtk_window_get_toplevels (); /* not ours */

  for (guint i = 0; i < g_list_model_get_n_items (tops); i++)
    {
      g_autoptr (GtkWidget) w = g_list_model_get_item (tops, i);

      if (GTK_IS_MESSAGE_DIALOG (w) && gtk_widget_get_visible (w))
        return w;
    }
  return NULL;
}
