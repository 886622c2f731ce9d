/* tress-curve-paint.h: painting curve lines with cairo, one pixel column at a time
 *
 * The curve view and the drawing benchmark share this code. A curve is sampled
 * into min/max per pixel column (tress_curve_sample_columns), so a frame costs
 * O(width) per curve however many keys or samples it holds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>

#include "tress-curve-geometry.h"

G_BEGIN_DECLS

/* X/Y/Z/W are red/green/blue/yellow; other components take a colour from a
 * palette by @fallback_index. */
void tress_curve_component_color (const char *component, guint fallback_index, double rgb[3]);

/* Strokes the visible layers into @cr (device pixels 0…width, 0…height); the
 * layers' colours come from @colors (three doubles per layer). Parts outside the
 * keys are drawn as a faint ghost when the curve loops or wraps. Locked layers
 * are drawn dimmed. */
void tress_curve_paint_lines (cairo_t *cr, const TressCurveLayer *layers, guint n_layers,
                              const TressCurveViewport *vp, const double *colors);

/* Caps the threads a frame with many layers is painted with (0, the default:
 * one per processor, at most 8). The drawing benchmark compares both. */
void tress_curve_paint_set_max_threads (guint n);

G_END_DECLS
