/* tress-scene-gizmo-math-private.h: what the gizmo's maths files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-scene-gizmo-math.h"

G_BEGIN_DECLS

/* Handle colours: X, Y, Z, the trackball. */
extern const float tress_gizmo_colours[4][4];

void tress_gizmo_to_clip (const float m[16], const double p[3], float clip[4]);
gboolean tress_gizmo_clip_to_widget (const float clip[4], double width, double height, double *x,
                                     double *y);
double tress_gizmo_length3 (const double v[3]);
double tress_gizmo_segment_distance (double px, double py, double ax, double ay, double bx,
                                     double by);
void tress_gizmo_multiply3 (const double a[3][3], const double b[3][3], double out[3][3]);
/* The pixels from widget point (@x, @y) to ring @axis (G_MAXDOUBLE: not seen). */
double tress_gizmo_ring_distance (const TressGizmoFrame *frame, const float mvp[16], double width,
                                  double height, int axis, double x, double y);
/* Ring @axis as triangles (brighter and wider when @hot). */
void tress_gizmo_build_ring (const TressGizmoFrame *frame, const float mvp[16], double width,
                             double height, int axis, gboolean hot, GArray *out);
/* The colour of handle colour @which (0–3), brighter when @hot. */
void tress_gizmo_hot_colour (int which, gboolean hot, float colour[4]);

G_END_DECLS
