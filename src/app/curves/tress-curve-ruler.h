/* tress-curve-ruler.h: the frame ruler along the curve graph's bottom
 *
 * A child widget of TressCurveView, as wide as the graph and on its time
 * axis: the frame numbers, the playhead's frame in a box (the numbers keep
 * clear of it) and the play range's markers. A press or drag on it moves the
 * playhead (whole frames while the view snaps; Ctrl inverts it), or a play
 * range marker when pressed on one. It reads and sets everything through the
 * view's API; the view asks it to draw again when its frames change.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-curve-view.h"

G_BEGIN_DECLS

/* The ruler's height in pixels. */
#define TRESS_CURVE_RULER_HEIGHT 20

#define TRESS_TYPE_CURVE_RULER (tress_curve_ruler_get_type ())
G_DECLARE_FINAL_TYPE (TressCurveRuler, tress_curve_ruler, TRESS, CURVE_RULER, GtkWidget)

/* A ruler for @view's time axis (not a reference: @view is its parent). */
GtkWidget *tress_curve_ruler_new (TressCurveView *view);

/* The pointer on the ruler, in its own pixels (the view's x): what its drag
 * gesture calls, and what the view's pointer actions call for a point on it. */
void tress_curve_ruler_press (TressCurveRuler *self, double x);
void tress_curve_ruler_motion (TressCurveRuler *self, double x, gboolean invert_snap);
void tress_curve_ruler_release (TressCurveRuler *self, double x, gboolean invert_snap);

G_END_DECLS
