/* test-fur-geometry.c: weight triangle and UV map geometry
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "app/fur/tress-fur-geometry.h"

static void
assert_sum_255 (const guint8 w[3])
{
  g_assert_cmpuint ((guint)w[0] + w[1] + w[2], ==, 255);
}

static void
test_triangle_layout (void)
{
  TressWeightGeom tri;
  double side;

  tress_weight_geom_layout (&tri, 200, 200, 10);
  /* Equilateral, inside the margins, reference 0 on top. */
  side = tri.corner[2].x - tri.corner[1].x;
  g_assert_cmpfloat_with_epsilon (side, 180, 1e-9);
  g_assert_cmpfloat_with_epsilon (tri.corner[1].y, tri.corner[2].y, 1e-9);
  g_assert_cmpfloat (tri.corner[0].y, <, tri.corner[1].y);
  g_assert_cmpfloat_with_epsilon (tri.corner[0].x, 100, 1e-9);
  g_assert_cmpfloat_with_epsilon (
      hypot (tri.corner[0].x - tri.corner[1].x, tri.corner[0].y - tri.corner[1].y), side, 1e-9);
  /* A wide area is limited by its height. */
  tress_weight_geom_layout (&tri, 1000, 100, 0);
  g_assert_cmpfloat_with_epsilon (tri.corner[1].y - tri.corner[0].y, 100, 1e-9);
}

static void
test_triangle_value_to_point (void)
{
  TressWeightGeom tri;
  const guint8 only0[3] = { 255, 0, 0 }, only2[3] = { 0, 0, 255 }, half[3] = { 0, 128, 127 };
  const guint8 zero[3] = { 0, 0, 0 };
  TressFurPoint p;

  tress_weight_geom_layout (&tri, 300, 260, 20);
  p = tress_weight_geom_point (&tri, only0);
  g_assert_cmpfloat_with_epsilon (p.x, tri.corner[0].x, 1e-9);
  g_assert_cmpfloat_with_epsilon (p.y, tri.corner[0].y, 1e-9);
  p = tress_weight_geom_point (&tri, only2);
  g_assert_cmpfloat_with_epsilon (p.x, tri.corner[2].x, 1e-9);
  p = tress_weight_geom_point (&tri, half);
  g_assert_cmpfloat_with_epsilon (p.y, tri.corner[1].y, 1e-9);
  g_assert_cmpfloat (fabs (p.x - 150), <, 1);
  /* An all-zero (broken) triple sits at the centre. */
  p = tress_weight_geom_point (&tri, zero);
  g_assert_cmpfloat_with_epsilon (p.x, 150, 1e-9);
}

static void
test_triangle_round_trip (void)
{
  TressWeightGeom tri;
  guint a, b;

  tress_weight_geom_layout (&tri, 400, 360, 12);
  /* Every byte triple summing to 255 survives value → point → value. */
  for (a = 0; a <= 255; a += 3)
    for (b = 0; a + b <= 255; b += 5)
      {
        guint8 w[3] = { (guint8)a, (guint8)b, (guint8)(255 - a - b) }, back[3];
        TressFurPoint p = tress_weight_geom_point (&tri, w);

        tress_weight_geom_weights (&tri, p.x, p.y, back);
        assert_sum_255 (back);
        g_assert_cmpmem (w, 3, back, 3);
      }
}

static void
test_triangle_outside_and_bytes (void)
{
  TressWeightGeom tri;
  guint8 w[3];
  const double thirds[3] = { 1.0 / 3, 1.0 / 3, 1.0 / 3 };
  const double neg[3] = { -0.5, 0.25, 0.75 };

  tress_weight_geom_layout (&tri, 200, 200, 10);
  /* Far above the top corner: all weight on reference 0. */
  tress_weight_geom_weights (&tri, 100, -500, w);
  g_assert_cmpuint (w[0], ==, 255);
  /* Below the bottom edge, left of centre: only references 1 and 2. */
  tress_weight_geom_weights (&tri, 60, 1000, w);
  g_assert_cmpuint (w[0], ==, 0);
  g_assert_cmpuint (w[1], >, w[2]);
  assert_sum_255 (w);
  g_assert_false (tress_weight_geom_contains (&tri, 60, 1000));
  g_assert_true (tress_weight_geom_contains (&tri, 100, 120));

  /* 255 / 3 = 85 exactly; uneven splits still sum to 255. */
  tress_weight_bytes_from_fractions (thirds, w);
  g_assert_cmpuint (w[0], ==, 85);
  g_assert_cmpuint (w[2], ==, 85);
  tress_weight_bytes_from_fractions (neg, w);
  g_assert_cmpuint (w[0], ==, 0);
  assert_sum_255 (w);
  for (guint i = 0; i < 1000; i++)
    {
      double f[3] = { g_test_rand_double (), g_test_rand_double (), g_test_rand_double () };

      tress_weight_bytes_from_fractions (f, w);
      assert_sum_255 (w);
    }
}

static void
test_triangle_translate_and_hit (void)
{
  TressWeightGeom tri;
  const guint8 pts[3][3] = { { 255, 0, 0 }, { 85, 85, 85 }, { 0, 0, 255 } };
  guint8 a[3], b[3];
  TressFurPoint c;

  tress_weight_geom_layout (&tri, 300, 300, 10);
  c = tress_weight_geom_point (&tri, pts[1]);
  g_assert_cmpint (tress_weight_geom_hit (&tri, pts, 3, c.x + 3, c.y - 2, 6), ==, 1);
  g_assert_cmpint (tress_weight_geom_hit (&tri, pts, 3, c.x + 30, c.y, 6), ==, -1);
  g_assert_cmpint (tress_weight_geom_hit (&tri, pts, 3, tri.corner[2].x - 1, tri.corner[2].y, 6),
                   ==, 2);

  /* Moving two points by the same offset moves both; the corner one is clamped. */
  tress_weight_geom_translate (&tri, pts[1], 0, 40, a);
  tress_weight_geom_translate (&tri, pts[0], 0, -40, b);
  assert_sum_255 (a);
  g_assert_cmpuint (a[0], <, 85);
  g_assert_cmpuint (a[1], ==, a[2]);
  g_assert_cmpmem (b, 3, pts[0], 3);
  /* A zero offset changes nothing. */
  tress_weight_geom_translate (&tri, pts[1], 0, 0, a);
  g_assert_cmpmem (a, 3, pts[1], 3);
}

static void
test_uv_layout (void)
{
  const TressUvLayout retail = { 7, 3, 4 };
  TressUvPiece p = { 0, 0, 0 }, q;
  guint in_piece;
  guint64 i;

  g_assert_cmpuint (tress_uv_layout_n_points (&retail), ==, 840);
  g_assert_cmpuint (tress_uv_piece_n_points (0), ==, 4);
  g_assert_cmpuint (tress_uv_piece_n_points (6), ==, 16);
  g_assert_cmpuint (tress_uv_piece_first_point (&retail, &p), ==, 0);
  p = (TressUvPiece){ 0, 1, 2 };
  g_assert_cmpuint (tress_uv_piece_first_point (&retail, &p), ==, (1 * 4 + 2) * 4);
  p = (TressUvPiece){ 1, 0, 0 };
  g_assert_cmpuint (tress_uv_piece_first_point (&retail, &p), ==, 4 * 12);
  p = (TressUvPiece){ 6, 2, 3 };
  g_assert_cmpuint (tress_uv_piece_first_point (&retail, &p) + 16, ==, 840);

  /* locate is the inverse of first_point for every point. */
  for (i = 0; i < 840; i++)
    {
      g_assert_true (tress_uv_point_locate (&retail, i, &q, &in_piece));
      g_assert_cmpuint (tress_uv_piece_first_point (&retail, &q) + in_piece, ==, i);
      g_assert_cmpuint (in_piece, <, tress_uv_piece_n_points (q.row));
    }
  g_assert_false (tress_uv_point_locate (&retail, 840, &q, &in_piece));
}

/* A table laid out like the retail texture: each row a horizontal band, each
 * group × piece a column; points in Z order down the piece. */
static float *
make_table (const TressUvLayout *l, gsize *n_floats)
{
  guint64 n = tress_uv_layout_n_points (l);
  float *uv = g_new0 (float, 2 * n);
  TressUvPiece p;

  for (p.row = 0; p.row < l->rows; p.row++)
    for (p.group = 0; p.group < l->groups; p.group++)
      for (p.piece = 0; p.piece < l->pieces; p.piece++)
        {
          guint64 first = tress_uv_piece_first_point (l, &p);
          guint np = tress_uv_piece_n_points (p.row), k;
          double col = p.group * l->pieces + p.piece, cols = l->groups * l->pieces;

          for (k = 0; k < np; k++)
            {
              uv[2 * (first + k)] = (float)((col + (k % 2 ? 0.9 : 0.1)) / cols);
              uv[2 * (first + k) + 1]
                  = (float)((p.row + 0.1 + 0.8 * (k / 2) / (np / 2 - 1)) / l->rows);
            }
        }
  *n_floats = 2 * n;
  return uv;
}

static void
test_uv_view_and_hits (void)
{
  const TressUvLayout l = { 7, 3, 4 };
  gsize n_floats;
  g_autofree float *uv = make_table (&l, &n_floats);
  TressUvView view;
  TressUvPiece piece;
  TressFurPoint w;
  double u, v, u0, v0, u1, v1;
  gint64 hit;

  tress_uv_view_fit (&view, 500, 400, 10);
  g_assert_cmpfloat_with_epsilon (view.size, 380, 1e-9);
  g_assert_cmpfloat_with_epsilon (view.x, 60, 1e-9);
  w = tress_uv_view_to_widget (&view, 0.25, 0.5);
  g_assert_cmpfloat_with_epsilon (w.x, 60 + 95, 1e-9);
  tress_uv_view_from_widget (&view, w.x, w.y, &u, &v);
  g_assert_cmpfloat_with_epsilon (u, 0.25, 1e-12);
  g_assert_cmpfloat_with_epsilon (v, 0.5, 1e-12);

  /* The piece at row 2, group 1, piece 3 and its bounds. */
  piece = (TressUvPiece){ 2, 1, 3 };
  g_assert_true (tress_uv_piece_bounds (&l, uv, n_floats, &piece, &u0, &v0, &u1, &v1));
  g_assert_cmpfloat_with_epsilon (u0, (7 + 0.1) / 12, 1e-6);
  g_assert_cmpfloat_with_epsilon (v1, (2 + 0.9) / 7, 1e-6);
  w = tress_uv_view_to_widget (&view, (u0 + u1) / 2, (v0 + v1) / 2);
  piece = (TressUvPiece){ 0, 0, 0 };
  g_assert_true (tress_uv_hit_piece (&l, &view, uv, n_floats, w.x, w.y, &piece));
  g_assert_cmpuint (piece.row, ==, 2);
  g_assert_cmpuint (piece.group, ==, 1);
  g_assert_cmpuint (piece.piece, ==, 3);
  /* Between columns there is no piece. */
  w = tress_uv_view_to_widget (&view, 1.0 / 12, 0.5);
  g_assert_false (tress_uv_hit_piece (&l, &view, uv, n_floats, w.x, w.y, &piece));

  /* Point hit: the exact point, a near miss, nothing far away. */
  w = tress_uv_view_to_widget (&view, uv[2 * 100], uv[2 * 100 + 1]);
  g_assert_cmpint (tress_uv_hit_point (&view, uv, n_floats, w.x + 1, w.y, 4), ==, 100);
  g_assert_cmpint (tress_uv_hit_point (&view, uv, n_floats, -50, -50, 4), ==, -1);
  /* A short table: bounds of a piece past its end are refused. */
  piece = (TressUvPiece){ 6, 2, 3 };
  g_assert_false (tress_uv_piece_bounds (&l, uv, n_floats - 2, &piece, &u0, &v0, &u1, &v1));
  hit = tress_uv_hit_point (&view, uv, 0, w.x, w.y, 4);
  g_assert_cmpint (hit, ==, -1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fur-geometry/triangle/layout", test_triangle_layout);
  g_test_add_func ("/fur-geometry/triangle/value-to-point", test_triangle_value_to_point);
  g_test_add_func ("/fur-geometry/triangle/round-trip", test_triangle_round_trip);
  g_test_add_func ("/fur-geometry/triangle/outside-and-bytes", test_triangle_outside_and_bytes);
  g_test_add_func ("/fur-geometry/triangle/translate-and-hit", test_triangle_translate_and_hit);
  g_test_add_func ("/fur-geometry/uv/layout", test_uv_layout);
  g_test_add_func ("/fur-geometry/uv/view-and-hits", test_uv_view_and_hits);
  return g_test_run ();
}
