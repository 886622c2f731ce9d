/* tress-fur-geometry.c: weight triangle and UV map geometry
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-fur-geometry.h"

#include <math.h>

/* ---- weight triangle ------------------------------------------------------ */

void
tress_weight_geom_layout (TressWeightGeom *tri, double width, double height, double margin)
{
  double w = MAX (width - 2 * margin, 1), h = MAX (height - 2 * margin, 1);
  double side = MIN (w, h * 2 / sqrt (3.0));
  double th = side * sqrt (3.0) / 2;
  double cx = width / 2, top = (height - th) / 2;

  tri->corner[0] = (TressFurPoint){ cx, top };
  tri->corner[1] = (TressFurPoint){ cx - side / 2, top + th };
  tri->corner[2] = (TressFurPoint){ cx + side / 2, top + th };
}

TressFurPoint
tress_weight_geom_point (const TressWeightGeom *tri, const guint8 w[3])
{
  double sum = (double)w[0] + w[1] + w[2];
  double f[3];
  TressFurPoint p = { 0, 0 };
  guint k;

  for (k = 0; k < 3; k++)
    f[k] = sum > 0 ? w[k] / sum : 1.0 / 3;
  for (k = 0; k < 3; k++)
    {
      p.x += f[k] * tri->corner[k].x;
      p.y += f[k] * tri->corner[k].y;
    }
  return p;
}

static void
barycentric (const TressWeightGeom *tri, double x, double y, double f[3])
{
  const TressFurPoint *a = &tri->corner[0], *b = &tri->corner[1], *c = &tri->corner[2];
  double det = (b->y - c->y) * (a->x - c->x) + (c->x - b->x) * (a->y - c->y);

  if (fabs (det) < 1e-12)
    {
      f[0] = f[1] = f[2] = 1.0 / 3;
      return;
    }
  f[0] = ((b->y - c->y) * (x - c->x) + (c->x - b->x) * (y - c->y)) / det;
  f[1] = ((c->y - a->y) * (x - c->x) + (a->x - c->x) * (y - c->y)) / det;
  f[2] = 1 - f[0] - f[1];
}

void
tress_weight_geom_fractions (const TressWeightGeom *tri, double x, double y, double f[3])
{
  double best = G_MAXDOUBLE;
  guint e;

  barycentric (tri, x, y, f);
  if (f[0] >= 0 && f[1] >= 0 && f[2] >= 0)
    return;
  /* Outside: the nearest point on the three edges. */
  for (e = 0; e < 3; e++)
    {
      const TressFurPoint *p = &tri->corner[e], *q = &tri->corner[(e + 1) % 3];
      double dx = q->x - p->x, dy = q->y - p->y;
      double len2 = dx * dx + dy * dy;
      double t = len2 > 0 ? ((x - p->x) * dx + (y - p->y) * dy) / len2 : 0;
      double px, py, d;

      t = CLAMP (t, 0, 1);
      px = p->x + t * dx;
      py = p->y + t * dy;
      d = (px - x) * (px - x) + (py - y) * (py - y);
      if (d < best)
        {
          best = d;
          f[e] = 1 - t;
          f[(e + 1) % 3] = t;
          f[(e + 2) % 3] = 0;
        }
    }
}

void
tress_weight_bytes_from_fractions (const double f[3], guint8 out[3])
{
  double sum = 0, scaled[3], rem[3];
  guint total = 0, k;

  for (k = 0; k < 3; k++)
    sum += MAX (f[k], 0);
  for (k = 0; k < 3; k++)
    {
      double v = sum > 0 ? MAX (f[k], 0) / sum * 255 : 85;

      scaled[k] = floor (v);
      rem[k] = v - scaled[k];
      total += (guint)scaled[k];
    }
  /* Hand the missing units to the largest remainders (ties: lower index). */
  while (total < 255)
    {
      guint best = 0;

      for (k = 1; k < 3; k++)
        if (rem[k] > rem[best])
          best = k;
      scaled[best] += 1;
      rem[best] = -1;
      total++;
    }
  for (k = 0; k < 3; k++)
    out[k] = (guint8)scaled[k];
}

void
tress_weight_geom_weights (const TressWeightGeom *tri, double x, double y, guint8 out[3])
{
  double f[3];

  tress_weight_geom_fractions (tri, x, y, f);
  tress_weight_bytes_from_fractions (f, out);
}

void
tress_weight_geom_translate (const TressWeightGeom *tri, const guint8 w[3], double dx, double dy,
                             guint8 out[3])
{
  TressFurPoint p = tress_weight_geom_point (tri, w);

  tress_weight_geom_weights (tri, p.x + dx, p.y + dy, out);
}

int
tress_weight_geom_hit (const TressWeightGeom *tri, const guint8 (*weights)[3], guint n, double x,
                       double y, double radius)
{
  double best = radius * radius;
  int found = -1;
  guint i;

  for (i = 0; i < n; i++)
    {
      TressFurPoint p = tress_weight_geom_point (tri, weights[i]);
      double d = (p.x - x) * (p.x - x) + (p.y - y) * (p.y - y);

      if (d <= best)
        {
          best = d;
          found = (int)i;
        }
    }
  return found;
}

gboolean
tress_weight_geom_contains (const TressWeightGeom *tri, double x, double y)
{
  double f[3];

  barycentric (tri, x, y, f);
  return f[0] >= -1e-9 && f[1] >= -1e-9 && f[2] >= -1e-9;
}

/* ---- UV map --------------------------------------------------------------- */

guint
tress_uv_piece_n_points (guint row)
{
  return 2 * (row + 1) + 2;
}

guint64
tress_uv_layout_n_points (const TressUvLayout *layout)
{
  guint64 per = 0, r;

  for (r = 0; r < layout->rows; r++)
    per += tress_uv_piece_n_points ((guint)r);
  if (layout->groups != 0 && layout->pieces != 0
      && per > G_MAXUINT64 / layout->groups / layout->pieces)
    return G_MAXUINT64;
  return per * layout->groups * layout->pieces;
}

guint64
tress_uv_piece_first_point (const TressUvLayout *layout, const TressUvPiece *piece)
{
  guint64 first = 0;
  guint r;

  for (r = 0; r < piece->row; r++)
    first += (guint64)tress_uv_piece_n_points (r) * layout->groups * layout->pieces;
  return first
         + ((guint64)piece->group * layout->pieces + piece->piece)
               * tress_uv_piece_n_points (piece->row);
}

gboolean
tress_uv_point_locate (const TressUvLayout *layout, guint64 index, TressUvPiece *piece,
                       guint *point_in_piece)
{
  guint r;

  for (r = 0; r < layout->rows; r++)
    {
      guint64 n = tress_uv_piece_n_points (r);
      guint64 row_points = n * layout->groups * layout->pieces;

      if (index < row_points)
        {
          guint64 k = index / n;

          piece->row = r;
          piece->group = (guint)(k / layout->pieces);
          piece->piece = (guint)(k % layout->pieces);
          if (point_in_piece != NULL)
            *point_in_piece = (guint)(index % n);
          return TRUE;
        }
      index -= row_points;
    }
  return FALSE;
}

gboolean
tress_uv_piece_bounds (const TressUvLayout *layout, const float *uv, gsize n_floats,
                       const TressUvPiece *piece, double *u0, double *v0, double *u1, double *v1)
{
  guint64 first = tress_uv_piece_first_point (layout, piece);
  guint n = tress_uv_piece_n_points (piece->row), i;

  if (piece->row >= layout->rows || piece->group >= layout->groups || piece->piece >= layout->pieces
      || first + n > n_floats / 2)
    return FALSE;
  *u0 = *v0 = G_MAXDOUBLE;
  *u1 = *v1 = -G_MAXDOUBLE;
  for (i = 0; i < n; i++)
    {
      double u = uv[2 * (first + i)], v = uv[2 * (first + i) + 1];

      *u0 = MIN (*u0, u);
      *v0 = MIN (*v0, v);
      *u1 = MAX (*u1, u);
      *v1 = MAX (*v1, v);
    }
  return TRUE;
}

void
tress_uv_view_fit (TressUvView *view, double width, double height, double margin)
{
  view->size = MAX (MIN (width, height) - 2 * margin, 1);
  view->x = (width - view->size) / 2;
  view->y = (height - view->size) / 2;
}

TressFurPoint
tress_uv_view_to_widget (const TressUvView *view, double u, double v)
{
  return (TressFurPoint){ view->x + u * view->size, view->y + v * view->size };
}

void
tress_uv_view_from_widget (const TressUvView *view, double x, double y, double *u, double *v)
{
  *u = (x - view->x) / view->size;
  *v = (y - view->y) / view->size;
}

gint64
tress_uv_hit_point (const TressUvView *view, const float *uv, gsize n_floats, double x, double y,
                    double radius)
{
  double best = radius * radius;
  gint64 found = -1;
  gsize i;

  for (i = 0; i + 1 < n_floats; i += 2)
    {
      TressFurPoint p = tress_uv_view_to_widget (view, uv[i], uv[i + 1]);
      double d = (p.x - x) * (p.x - x) + (p.y - y) * (p.y - y);

      if (d <= best)
        {
          best = d;
          found = (gint64)(i / 2);
        }
    }
  return found;
}

gboolean
tress_uv_hit_piece (const TressUvLayout *layout, const TressUvView *view, const float *uv,
                    gsize n_floats, double x, double y, TressUvPiece *piece)
{
  double u, v, best = G_MAXDOUBLE;
  TressUvPiece p;
  gboolean found = FALSE;

  tress_uv_view_from_widget (view, x, y, &u, &v);
  for (p.row = 0; p.row < layout->rows; p.row++)
    for (p.group = 0; p.group < layout->groups; p.group++)
      for (p.piece = 0; p.piece < layout->pieces; p.piece++)
        {
          double u0, v0, u1, v1;

          if (!tress_uv_piece_bounds (layout, uv, n_floats, &p, &u0, &v0, &u1, &v1))
            return found;
          if (u >= u0 && u <= u1 && v >= v0 && v <= v1 && (u1 - u0) * (v1 - v0) < best)
            {
              best = (u1 - u0) * (v1 - v0);
              *piece = p;
              found = TRUE;
            }
        }
  return found;
}
