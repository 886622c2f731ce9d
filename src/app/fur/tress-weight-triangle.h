/* tress-weight-triangle.h: three weights as a point in a triangle
 *
 * The three referenced body parts sit at the corners; each weight triple
 * (reference order, summing to 255) is a point inside. Dragging a point moves
 * every shown point by the same offset (a multi-selection moves together);
 * with Shift held, every point takes the dragged point's weights (set equal).
 * Nothing is edited while dragging: at the end "points-moved" hands over the
 * new triples (whole bytes summing to 255) and the owner records one command.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TRESS_TYPE_WEIGHT_TRIANGLE (tress_weight_triangle_get_type ())
G_DECLARE_FINAL_TYPE (TressWeightTriangle, tress_weight_triangle, TRESS, WEIGHT_TRIANGLE, GtkWidget)

GtkWidget *tress_weight_triangle_new (void);
/* Copies @n triples (reference order). */
void tress_weight_triangle_set_points (TressWeightTriangle *self, const guint8 (*weights)[3],
                                       guint n);
guint tress_weight_triangle_get_n_points (TressWeightTriangle *self);
/* The triples as shown (during a drag: where they would go). */
const guint8 (*tress_weight_triangle_get_points (TressWeightTriangle *self))[3];
/* Corner labels (e.g. "5 · left leg"); NULL clears. */
void tress_weight_triangle_set_labels (TressWeightTriangle *self, const char *const labels[3]);

/* The gesture without a pointer, for keyboard use and tests: moves point
 * @index to widget position (@x, @y) (the others follow, or become equal when
 * @set_equal) and emits "points-moved". */
void tress_weight_triangle_drag_to (TressWeightTriangle *self, guint index, double x, double y,
                                    gboolean set_equal);
/* Widget position of point @index. */
void tress_weight_triangle_get_point_position (TressWeightTriangle *self, guint index, double *x,
                                               double *y);

/* Signal "points-moved" (gpointer triples: const guint8 (*)[3], guint n). */

G_END_DECLS
