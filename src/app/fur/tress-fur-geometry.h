/* tress-fur-geometry.h: the maths behind the fur editor's custom widgets
 *
 * GLib only, so it is unit tested without a display: the weight triangle
 * (three weights ↔ a point, whole bytes summing to 255, hit-testing) and the
 * UV map (where a hair piece's points sit in the UV table, UV ↔ view
 * coordinates, hit-testing points and pieces).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  double x, y;
} TressFurPoint;

/* ---- weight triangle ------------------------------------------------------ */

/* The triangle's corners: reference 0 at the top, 1 bottom left, 2 bottom
 * right; the largest equilateral triangle inside @width × @height less @margin. */
typedef struct
{
  TressFurPoint corner[3];
} TressWeightGeom;

void tress_weight_geom_layout (TressWeightGeom *tri, double width, double height, double margin);
/* The point of weights @w (reference order, summing to 255; other sums are
 * normalised, all-zero is the centre). */
TressFurPoint tress_weight_geom_point (const TressWeightGeom *tri, const guint8 w[3]);
/* Barycentric coordinates of (@x, @y), clamped onto the triangle (a point
 * outside goes to the nearest point of the triangle); they sum to 1. */
void tress_weight_geom_fractions (const TressWeightGeom *tri, double x, double y, double f[3]);
/* Whole bytes summing to exactly 255 closest to @f × 255 (largest remainder). */
void tress_weight_bytes_from_fractions (const double f[3], guint8 out[3]);
/* The weights for the point (@x, @y): fractions, then bytes. */
void tress_weight_geom_weights (const TressWeightGeom *tri, double x, double y, guint8 out[3]);
/* @w moved by (@dx, @dy) in widget coordinates (a multi-selection drag moves
 * every point by the same offset; each is clamped onto the triangle). */
void tress_weight_geom_translate (const TressWeightGeom *tri, const guint8 w[3], double dx,
                                  double dy, guint8 out[3]);
/* Index of the point of @weights (@n triples) nearest (@x, @y) within
 * @radius, or -1. */
int tress_weight_geom_hit (const TressWeightGeom *tri, const guint8 (*weights)[3], guint n,
                           double x, double y, double radius);
/* TRUE if (@x, @y) is inside the triangle (edges included). */
gboolean tress_weight_geom_contains (const TressWeightGeom *tri, double x, double y);

/* ---- UV map --------------------------------------------------------------- */

/* A UV table's shape: row n (1…rows) holds hairs of n sections, each of 2n+2
 * points in "Z" order; the table is ordered row, group, piece, point. */
typedef struct
{
  guint rows, groups, pieces;
} TressUvLayout;

typedef struct
{
  guint row; /* 0-based: row r holds hairs of r + 1 sections */
  guint group;
  guint piece;
} TressUvPiece;

/* Points of one piece of row @row (0-based): 2 (row + 1) + 2. */
guint tress_uv_piece_n_points (guint row);
/* Total points of the table, G_MAXUINT64 on overflow. */
guint64 tress_uv_layout_n_points (const TressUvLayout *layout);
/* Index (in points, not floats) of the first point of @piece. */
guint64 tress_uv_piece_first_point (const TressUvLayout *layout, const TressUvPiece *piece);
/* The piece and point-within-piece that point @index belongs to; FALSE when out of range. */
gboolean tress_uv_point_locate (const TressUvLayout *layout, guint64 index, TressUvPiece *piece,
                                guint *point_in_piece);
/* Bounding box of a piece's points in UV space; FALSE when the table (@n_floats
 * floats) is too short for it. */
gboolean tress_uv_piece_bounds (const TressUvLayout *layout, const float *uv, gsize n_floats,
                                const TressUvPiece *piece, double *u0, double *v0, double *u1,
                                double *v1);

/* Where the unit UV square sits in the widget: UV (0,0) at (x, y), (1,1) at
 * (x + size, y + size) (the texture is square and keeps its aspect). */
typedef struct
{
  double x, y, size;
} TressUvView;

void tress_uv_view_fit (TressUvView *view, double width, double height, double margin);
TressFurPoint tress_uv_view_to_widget (const TressUvView *view, double u, double v);
void tress_uv_view_from_widget (const TressUvView *view, double x, double y, double *u, double *v);
/* The point nearest (@x, @y) within @radius widget units, or -1. */
gint64 tress_uv_hit_point (const TressUvView *view, const float *uv, gsize n_floats, double x,
                           double y, double radius);
/* The smallest piece whose box holds (@x, @y); FALSE if none. */
gboolean tress_uv_hit_piece (const TressUvLayout *layout, const TressUvView *view, const float *uv,
                             gsize n_floats, double x, double y, TressUvPiece *piece);

G_END_DECLS
