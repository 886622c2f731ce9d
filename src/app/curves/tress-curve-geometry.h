/* tress-curve-geometry.h: the curve view's geometry, without GTK
 *
 * Frame/value ↔ pixel mapping under zoom and pan, hit-testing of keys and
 * Hermite handles, box selection, frame snapping, handle positions, and the
 * per-pixel-column sampling the view draws from (min/max per column, so the
 * cost grows with the width and not with the number of keys). Everything here
 * is plain maths over TressCurve, so it is unit-tested without a display.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "core/tress-curve.h"

G_BEGIN_DECLS

/* The visible rectangle: frames grow to the right, values grow upwards. */
typedef struct
{
  double frame_min;
  double frame_max;
  double value_min;
  double value_max;
  double width; /* pixels */
  double height;
} TressCurveViewport;

/* How a curve's values are shown: shown = value * scale + offset (normalized view). */
typedef struct
{
  double scale;
  double offset;
} TressValueMap;

#define TRESS_VALUE_MAP_IDENTITY ((TressValueMap){ 1.0, 0.0 })

typedef enum
{
  TRESS_CURVE_PART_NONE,
  TRESS_CURVE_PART_KEY,
  TRESS_CURVE_PART_IN_HANDLE,
  TRESS_CURVE_PART_OUT_HANDLE,
} TressCurvePart;

typedef enum
{
  TRESS_AXIS_LOCK_NONE,
  TRESS_AXIS_LOCK_FRAME, /* only the frame changes (horizontal moves) */
  TRESS_AXIS_LOCK_VALUE, /* only the value changes (vertical moves) */
} TressAxisLock;

/* One curve as the view shows it. */
typedef struct
{
  const TressCurve *curve;
  TressValueMap map;
  gboolean visible;
  gboolean locked; /* drawn, never hit */
} TressCurveLayer;

typedef struct
{
  int layer;
  int key;
  TressCurvePart part;
} TressCurveHit;

void tress_curve_viewport_init (TressCurveViewport *vp, double width, double height);
double tress_curve_viewport_frame_to_x (const TressCurveViewport *vp, double frame);
double tress_curve_viewport_value_to_y (const TressCurveViewport *vp, double value);
double tress_curve_viewport_x_to_frame (const TressCurveViewport *vp, double x);
double tress_curve_viewport_y_to_value (const TressCurveViewport *vp, double y);
/* Frames per pixel and values per pixel. */
double tress_curve_viewport_frames_per_px (const TressCurveViewport *vp);
double tress_curve_viewport_values_per_px (const TressCurveViewport *vp);
/* Zooms by @frame_factor / @value_factor (> 1 zooms in) keeping the point under
 * (@anchor_x, @anchor_y) fixed; a factor of 1 leaves that axis alone. */
void tress_curve_viewport_zoom (TressCurveViewport *vp, double frame_factor, double value_factor,
                                double anchor_x, double anchor_y);
/* Moves the content by (@dx, @dy) pixels (a drag to the right shows earlier frames). */
void tress_curve_viewport_pan (TressCurveViewport *vp, double dx, double dy);
/* Shows the given range with @margin_px of room on every side; an empty range
 * (a single key) gets a span of one frame / one value unit around it. */
void tress_curve_viewport_fit (TressCurveViewport *vp, double frame_min, double frame_max,
                               double value_min, double value_max, double margin_px);

/* Rounds @frame to a multiple of @step (step <= 0: unchanged). */
double tress_curve_snap_frame (double frame, double step);
/* Applies an axis lock to a move. */
void tress_curve_axis_lock_apply (TressAxisLock lock, double *d_frame, double *d_value);

/* Value of segment @i (from key i to key i+1) at @frame; the last key holds. */
double tress_curve_geometry_segment_value (const TressCurve *curve, guint i, double frame);
/* Value at any frame, the wrap modes applied outside the keys. */
double tress_curve_geometry_value (const TressCurve *curve, double frame);

/* Handles are drawn at ±(segment length)/3 in time, so dragging one changes the
 * slope only. The in handle exists when the segment ending at the key is
 * Hermite; the out handle when the segment starting at it is. Curves whose
 * slopes the format does not store (limits.slopes_derived) have none. */
gboolean tress_curve_key_has_handle (const TressCurve *curve, guint i, TressCurvePart part);
gboolean tress_curve_handle_point (const TressCurve *curve, guint i, TressCurvePart part,
                                   double *frame, double *value);
/* The slope a handle of key @i gets when its point is dragged to @value. */
double tress_curve_handle_slope (const TressCurve *curve, guint i, TressCurvePart part,
                                 double value);

/* The nearest key or handle within @radius pixels of (@x, @y) on a visible,
 * unlocked layer; handles only when @with_handles. Keys win over handles at
 * equal distance; later layers (drawn on top) win ties. */
gboolean tress_curve_hit_test (const TressCurveLayer *layers, guint n_layers,
                               const TressCurveViewport *vp, double x, double y, double radius,
                               gboolean with_handles, TressCurveHit *hit);
/* Appends to @hits (TressCurveHit) every key, and handle when @with_handles,
 * of the visible unlocked layers whose point lies in the rectangle (any corner order). */
void tress_curve_box_select (const TressCurveLayer *layers, guint n_layers,
                             const TressCurveViewport *vp, double x0, double y0, double x1,
                             double y1, gboolean with_handles, GArray *hits);

/* One step of a key drag: the keys @keys (indices, sorted) of @edit take their
 * frame and value in @orig plus (@d_frame, @d_value); the automatic slopes of
 * those keys and their neighbours are recomputed. Costs O(n_keys moved), not
 * O(keys in the curve). Returns FALSE, leaving @edit unsorted, when a moved key
 * reached or passed a neighbour (the caller re-sorts). */
gboolean tress_curve_drag_step (TressCurve *edit, const TressCurve *orig, const guint *keys,
                                guint n_keys, double d_frame, double d_value);

/* Index of the first key with frame >= @frame (n_keys when none). */
guint tress_curve_lower_bound (const TressCurve *curve, double frame);

/* One pixel column of a drawn curve, in pixels: the curve enters the column at
 * y_first, spans y_min…y_max and leaves at y_last. */
typedef struct
{
  float y_first;
  float y_min;
  float y_max;
  float y_last;
} TressCurveColumn;

/* Samples the curve into @n_columns columns starting at pixel column
 * @first_column; column c covers pixels [c, c + 1). Columns outside the keys
 * (before the first, after the last) are filled when @extrapolate (wrap modes),
 * and get NaN otherwise. Returns the number of columns inside the keys. Costs
 * one binary search where the keys are entered, then O(columns + keys in view):
 * the segments are walked left to right, each set up once as a cubic. */
guint tress_curve_sample_columns (const TressCurve *curve, TressValueMap map,
                                  const TressCurveViewport *vp, int first_column, guint n_columns,
                                  gboolean extrapolate, TressCurveColumn *columns);

/* Writes the grid number @v into @buf, the grid's lines being @step apart
 * over @lo…@hi: with as many digits as it takes for neighbours to differ
 * (fixed decimals, or significant digits for numbers too large for that),
 * and no "-0". */
void tress_curve_format_tick (char *buf, gsize size, double v, double step, double lo, double hi);
/* A "nice" step between grid lines (1, 2 or 5 × 10^n) near @span / @divisions. */
double tress_curve_nice_step (double span, double divisions);

/* A map showing the curve's value range as −1…1 (normalized view). */
TressValueMap tress_curve_normalize_map (const TressCurve *curve);

G_END_DECLS
