/* tress-curve-geometry.c: the curve view's geometry, without GTK
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-geometry.h"

#include <math.h>

#define MIN_SPAN 1e-9

void
tress_curve_viewport_init (TressCurveViewport *vp, double width, double height)
{
  vp->frame_min = 0;
  vp->frame_max = 100;
  vp->value_min = -1;
  vp->value_max = 1;
  vp->width = MAX (width, 1);
  vp->height = MAX (height, 1);
}

double
tress_curve_viewport_frame_to_x (const TressCurveViewport *vp, double frame)
{
  return (frame - vp->frame_min) / (vp->frame_max - vp->frame_min) * vp->width;
}

double
tress_curve_viewport_value_to_y (const TressCurveViewport *vp, double value)
{
  return (vp->value_max - value) / (vp->value_max - vp->value_min) * vp->height;
}

double
tress_curve_viewport_x_to_frame (const TressCurveViewport *vp, double x)
{
  return vp->frame_min + x / vp->width * (vp->frame_max - vp->frame_min);
}

double
tress_curve_viewport_y_to_value (const TressCurveViewport *vp, double y)
{
  return vp->value_max - y / vp->height * (vp->value_max - vp->value_min);
}

double
tress_curve_viewport_frames_per_px (const TressCurveViewport *vp)
{
  return (vp->frame_max - vp->frame_min) / vp->width;
}

double
tress_curve_viewport_values_per_px (const TressCurveViewport *vp)
{
  return (vp->value_max - vp->value_min) / vp->height;
}

void
tress_curve_viewport_zoom (TressCurveViewport *vp, double frame_factor, double value_factor,
                           double anchor_x, double anchor_y)
{
  if (frame_factor > 0 && frame_factor != 1)
    {
      double a = tress_curve_viewport_x_to_frame (vp, anchor_x);
      double span = (vp->frame_max - vp->frame_min) / frame_factor;

      if (span > MIN_SPAN && span < 1e12)
        {
          vp->frame_min = a - anchor_x / vp->width * span;
          vp->frame_max = vp->frame_min + span;
        }
    }
  if (value_factor > 0 && value_factor != 1)
    {
      double a = tress_curve_viewport_y_to_value (vp, anchor_y);
      double span = (vp->value_max - vp->value_min) / value_factor;

      if (span > MIN_SPAN && span < 1e15)
        {
          vp->value_max = a + anchor_y / vp->height * span;
          vp->value_min = vp->value_max - span;
        }
    }
}

void
tress_curve_viewport_pan (TressCurveViewport *vp, double dx, double dy)
{
  double df = dx * tress_curve_viewport_frames_per_px (vp);
  double dv = dy * tress_curve_viewport_values_per_px (vp);

  vp->frame_min -= df;
  vp->frame_max -= df;
  vp->value_min += dv;
  vp->value_max += dv;
}

void
tress_curve_viewport_fit (TressCurveViewport *vp, double frame_min, double frame_max,
                          double value_min, double value_max, double margin_px)
{
  double fspan, vspan, mx, my;

  if (!(frame_max >= frame_min) || !isfinite (frame_min) || !isfinite (frame_max))
    frame_min = 0, frame_max = 0;
  if (!(value_max >= value_min) || !isfinite (value_min) || !isfinite (value_max))
    value_min = 0, value_max = 0;
  if (frame_max - frame_min < 1e-6)
    frame_min -= 0.5, frame_max += 0.5;
  if (value_max - value_min < 1e-9)
    value_min -= 0.5, value_max += 0.5;

  /* The margin in pixels becomes a margin in units once the scale is known. */
  mx = CLAMP (margin_px, 0, vp->width / 4);
  my = CLAMP (margin_px, 0, vp->height / 4);
  fspan = (frame_max - frame_min) * vp->width / (vp->width - 2 * mx);
  vspan = (value_max - value_min) * vp->height / (vp->height - 2 * my);
  vp->frame_min = frame_min - mx / vp->width * fspan;
  vp->frame_max = vp->frame_min + fspan;
  vp->value_min = value_min - my / vp->height * vspan;
  vp->value_max = vp->value_min + vspan;
}

double
tress_curve_snap_frame (double frame, double step)
{
  if (step <= 0)
    return frame;
  return round (frame / step) * step;
}

void
tress_curve_axis_lock_apply (TressAxisLock lock, double *d_frame, double *d_value)
{
  if (lock == TRESS_AXIS_LOCK_FRAME)
    *d_value = 0;
  else if (lock == TRESS_AXIS_LOCK_VALUE)
    *d_frame = 0;
}

static double
hermite (double p0, double p1, double m0, double m1, double d, double u)
{
  double u2 = u * u, u3 = u2 * u;

  return (2 * u3 - 3 * u2 + 1) * p0 + (u3 - 2 * u2 + u) * d * m0 + (-2 * u3 + 3 * u2) * p1
         + (u3 - u2) * d * m1;
}

double
tress_curve_geometry_segment_value (const TressCurve *curve, guint i, double frame)
{
  guint n = tress_curve_get_n_keys (curve);
  const TressKey *k0, *k1;
  double d, u;

  if (n == 0)
    return 0;
  if (i + 1 >= n)
    return tress_curve_get_key (curve, n - 1)->value;
  k0 = tress_curve_get_key (curve, i);
  k1 = tress_curve_get_key (curve, i + 1);
  d = k1->frame - k0->frame;
  if (d <= 0)
    return k0->value;
  u = CLAMP ((frame - k0->frame) / d, 0, 1);
  switch (k0->interp)
    {
    case TRESS_INTERP_STEP:
      return k0->value; /* the jump belongs to the next segment */
    case TRESS_INTERP_HERMITE:
      return hermite (k0->value, tress_key_in_value (k1), k0->out_slope, k1->in_slope, d, u);
    case TRESS_INTERP_LINEAR:
    case TRESS_INTERP_BAKED:
    default:
      return k0->value + (tress_key_in_value (k1) - k0->value) * u;
    }
}

guint
tress_curve_lower_bound (const TressCurve *curve, double frame)
{
  guint lo = 0, hi = tress_curve_get_n_keys (curve);

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (tress_curve_get_key (curve, mid)->frame < frame)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Index of the segment holding @frame, inside the keys. */
static guint
segment_at (const TressCurve *curve, double frame)
{
  guint lb = tress_curve_lower_bound (curve, frame);
  guint n = tress_curve_get_n_keys (curve);

  if (lb < n && tress_curve_get_key (curve, lb)->frame == frame)
    return lb;
  return lb == 0 ? 0 : lb - 1;
}

static double
wrap_frame (const TressCurve *curve, double frame)
{
  guint n = tress_curve_get_n_keys (curve);
  double first = tress_curve_get_key (curve, 0)->frame;
  double last = tress_curve_get_key (curve, n - 1)->frame;
  double period = last - first;
  TressWrap wrap;
  double cycles, local;

  if (frame >= first && frame <= last)
    return frame;
  wrap = frame < first ? curve->pre_wrap : curve->post_wrap;
  /* A looping animation plays its whole length again: within it the curve
   * holds its end values (as tress_curve_evaluate does), outside it the frame
   * comes back into it. Without a known length the keys' span repeats. */
  if (wrap == TRESS_WRAP_CLAMP && curve->loops && curve->frame_count > 0)
    {
      double length = curve->frame_count;

      if (frame < 0 || frame > length)
        frame -= floor (frame / length) * length;
      return CLAMP (frame, first, last);
    }
  if (wrap == TRESS_WRAP_CLAMP && curve->loops)
    wrap = TRESS_WRAP_REPEAT;
  if (wrap == TRESS_WRAP_CLAMP || period <= 0)
    return frame < first ? first : last;
  cycles = floor ((frame - first) / period);
  local = frame - first - cycles * period;
  if (wrap == TRESS_WRAP_MIRROR && fmod (fabs (cycles), 2.0) == 1.0)
    local = period - local;
  return first + local;
}

double
tress_curve_geometry_value (const TressCurve *curve, double frame)
{
  guint n = tress_curve_get_n_keys (curve);

  if (n == 0)
    return 0;
  frame = wrap_frame (curve, frame);
  return tress_curve_geometry_segment_value (curve, segment_at (curve, frame), frame);
}

gboolean
tress_curve_key_has_handle (const TressCurve *curve, guint i, TressCurvePart part)
{
  guint n = tress_curve_get_n_keys (curve);

  /* Slopes the format does not store (NIFF1 KEY records) get no handles. */
  if (i >= n || curve->limits.slopes_derived)
    return FALSE;
  if (part == TRESS_CURVE_PART_OUT_HANDLE)
    return i + 1 < n && tress_curve_get_key (curve, i)->interp == TRESS_INTERP_HERMITE;
  if (part == TRESS_CURVE_PART_IN_HANDLE)
    return i > 0 && tress_curve_get_key (curve, i - 1)->interp == TRESS_INTERP_HERMITE;
  return FALSE;
}

gboolean
tress_curve_handle_point (const TressCurve *curve, guint i, TressCurvePart part, double *frame,
                          double *value)
{
  const TressKey *k;
  double third;

  if (!tress_curve_key_has_handle (curve, i, part))
    return FALSE;
  k = tress_curve_get_key (curve, i);
  if (part == TRESS_CURVE_PART_OUT_HANDLE)
    {
      third = (tress_curve_get_key (curve, i + 1)->frame - k->frame) / 3;
      *frame = k->frame + third;
      *value = k->value + k->out_slope * third;
    }
  else
    {
      third = (k->frame - tress_curve_get_key (curve, i - 1)->frame) / 3;
      *frame = k->frame - third;
      *value = k->value - k->in_slope * third;
    }
  return TRUE;
}

double
tress_curve_handle_slope (const TressCurve *curve, guint i, TressCurvePart part, double value)
{
  double frame, old_value, third;
  const TressKey *k = tress_curve_get_key (curve, i);

  if (!tress_curve_handle_point (curve, i, part, &frame, &old_value))
    return part == TRESS_CURVE_PART_IN_HANDLE ? k->in_slope : k->out_slope;
  third = fabs (frame - k->frame);
  if (third <= 0)
    return part == TRESS_CURVE_PART_IN_HANDLE ? k->in_slope : k->out_slope;
  if (part == TRESS_CURVE_PART_OUT_HANDLE)
    return (value - k->value) / third;
  return (k->value - value) / third;
}

static void
point_px (const TressCurveViewport *vp, TressValueMap map, double frame, double value, double *x,
          double *y)
{
  *x = tress_curve_viewport_frame_to_x (vp, frame);
  *y = tress_curve_viewport_value_to_y (vp, value * map.scale + map.offset);
}

/* The range of keys whose frame lies within [f0, f1], widened by one key on each
 * side (their handles reach into the neighbouring segments). */
static void
key_range (const TressCurve *curve, double f0, double f1, guint *first, guint *end)
{
  guint n = tress_curve_get_n_keys (curve);
  guint a = tress_curve_lower_bound (curve, f0);
  guint b = tress_curve_lower_bound (curve, f1);

  while (b < n && tress_curve_get_key (curve, b)->frame <= f1)
    b++;
  *first = a > 0 ? a - 1 : 0;
  *end = MIN (b + 1, n);
}

/* A key whose marker is under the pointer (its square of 9 pixels, the
 * smallest it is drawn) is taken before any handle, however near the handle:
 * handles of neighbouring keys are drawn close to keys, and the key is what a
 * click on its marker means. */
#define KEY_MARKER_HALF 4.5

gboolean
tress_curve_hit_test (const TressCurveLayer *layers, guint n_layers, const TressCurveViewport *vp,
                      double x, double y, double radius, gboolean with_handles, TressCurveHit *hit)
{
  double best = radius * radius, best_key = radius * radius;
  gboolean found = FALSE, found_key = FALSE, key_under = FALSE;
  double slack = radius * tress_curve_viewport_frames_per_px (vp);
  TressCurveHit key_hit = { 0 };

  for (guint l = 0; l < n_layers; l++)
    {
      const TressCurveLayer *layer = &layers[l];
      double f = tress_curve_viewport_x_to_frame (vp, x);
      guint first, end;

      if (!layer->visible || layer->locked || layer->curve == NULL)
        continue;
      key_range (layer->curve, f - slack, f + slack, &first, &end);
      for (guint i = first; i < end; i++)
        {
          static const TressCurvePart parts[]
              = { TRESS_CURVE_PART_KEY, TRESS_CURVE_PART_IN_HANDLE, TRESS_CURVE_PART_OUT_HANDLE };
          for (guint p = 0; p < G_N_ELEMENTS (parts); p++)
            {
              double pf, pv, px, py, d2;

              if (parts[p] == TRESS_CURVE_PART_KEY)
                {
                  const TressKey *k = tress_curve_get_key (layer->curve, i);
                  pf = k->frame;
                  pv = k->value;
                }
              else if (!with_handles
                       || !tress_curve_handle_point (layer->curve, i, parts[p], &pf, &pv))
                continue;
              point_px (vp, layer->map, pf, pv, &px, &py);
              d2 = (px - x) * (px - x) + (py - y) * (py - y);
              if (parts[p] == TRESS_CURVE_PART_KEY && d2 <= best_key)
                {
                  /* The nearest key; later layers win ties. */
                  best_key = d2;
                  found_key = TRUE;
                  key_hit = (TressCurveHit){ (int)l, (int)i, parts[p] };
                  key_under
                      = key_under
                        || (fabs (px - x) <= KEY_MARKER_HALF && fabs (py - y) <= KEY_MARKER_HALF);
                }
              /* Keys are preferred over handles at equal distance. */
              if (d2 > best)
                continue;
              if (found && d2 == best && hit->part == TRESS_CURVE_PART_KEY
                  && parts[p] != TRESS_CURVE_PART_KEY)
                continue;
              best = d2;
              found = TRUE;
              *hit = (TressCurveHit){ (int)l, (int)i, parts[p] };
            }
        }
    }
  if (found_key && key_under)
    *hit = key_hit;
  return found;
}

void
tress_curve_box_select (const TressCurveLayer *layers, guint n_layers, const TressCurveViewport *vp,
                        double x0, double y0, double x1, double y1, gboolean with_handles,
                        GArray *hits)
{
  double xa = MIN (x0, x1), xb = MAX (x0, x1), ya = MIN (y0, y1), yb = MAX (y0, y1);
  double fa = tress_curve_viewport_x_to_frame (vp, xa);
  double fb = tress_curve_viewport_x_to_frame (vp, xb);

  for (guint l = 0; l < n_layers; l++)
    {
      const TressCurveLayer *layer = &layers[l];
      guint first, end;

      if (!layer->visible || layer->locked || layer->curve == NULL)
        continue;
      key_range (layer->curve, fa, fb, &first, &end);
      for (guint i = first; i < end; i++)
        {
          static const TressCurvePart parts[]
              = { TRESS_CURVE_PART_KEY, TRESS_CURVE_PART_IN_HANDLE, TRESS_CURVE_PART_OUT_HANDLE };
          for (guint p = 0; p < G_N_ELEMENTS (parts); p++)
            {
              double pf, pv, px, py;

              if (parts[p] == TRESS_CURVE_PART_KEY)
                {
                  const TressKey *k = tress_curve_get_key (layer->curve, i);
                  pf = k->frame;
                  pv = k->value;
                }
              else if (!with_handles
                       || !tress_curve_handle_point (layer->curve, i, parts[p], &pf, &pv))
                continue;
              point_px (vp, layer->map, pf, pv, &px, &py);
              if (px >= xa && px <= xb && py >= ya && py <= yb)
                {
                  TressCurveHit h = { (int)l, (int)i, parts[p] };
                  g_array_append_val (hits, h);
                }
            }
        }
    }
}

/* One segment as a cubic in pixels: y(u) = c0 + u (c1 + u (c2 + u c3)) with
 * u = (frame − f0) × inv_d, set up once when the walk enters the segment so
 * that each column costs a few multiplications (no division, no call). */
typedef struct
{
  double f0, inv_d;
  double c0, c1, c2, c3;
} SegPoly;

static inline void
seg_poly_init (SegPoly *p, const TressKey *keys, guint n, guint i, double voff, double scale,
               double ypx)
{
  const TressKey *k0 = &keys[MIN (i, n - 1)];
  double v0 = k0->value, a1 = 0, a2 = 0, a3 = 0;

  p->f0 = k0->frame;
  p->inv_d = 0;
  if (i + 1 < n && keys[i + 1].frame > k0->frame && k0->interp != TRESS_INTERP_STEP)
    {
      const TressKey *k1 = &keys[i + 1];
      double d = k1->frame - k0->frame, v1 = tress_key_in_value (k1);

      p->inv_d = 1 / d;
      if (k0->interp == TRESS_INTERP_HERMITE)
        {
          double dm0 = d * k0->out_slope, dm1 = d * k1->in_slope;

          a1 = dm0;
          a2 = -3 * v0 - 2 * dm0 + 3 * v1 - dm1;
          a3 = 2 * v0 + dm0 - 2 * v1 + dm1;
        }
      else
        a1 = v1 - v0;
    }
  /* The value → pixel mapping is affine: apply it to the coefficients. */
  p->c0 = (voff - v0 * scale) * ypx;
  p->c1 = -a1 * scale * ypx;
  p->c2 = -a2 * scale * ypx;
  p->c3 = -a3 * scale * ypx;
}

/* Sets @p up for segment @i unless it is already (*@at says for which). */
static inline void
seg_poly_ensure (SegPoly *p, guint *at, const TressKey *keys, guint n, guint i, double voff,
                 double scale, double ypx)
{
  if (*at != i)
    {
      seg_poly_init (p, keys, n, i, voff, scale, ypx);
      *at = i;
    }
}

static inline float
seg_poly_y (const SegPoly *p, double frame)
{
  double u = (frame - p->f0) * p->inv_d;

  u = u < 0 ? 0 : (u > 1 ? 1 : u);
  return (float)(p->c0 + u * (p->c1 + u * (p->c2 + u * p->c3)));
}

/* The value of a curve outside its keys, in pixels, column after column: the
 * frame wrapped into the keys (as tress_curve_geometry_value() does), its
 * segment found from the last one (the wrapped frames mostly move forward)
 * and that segment's polynomial kept. */
typedef struct
{
  const TressCurve *curve;
  const TressKey *keys;
  guint n;
  guint seg;     /* the segment of the last frame */
  guint poly_at; /* the segment @poly is set up for */
  SegPoly poly;
  double voff, scale, ypx;
} Ghost;

static float
ghost_y (Ghost *g, double frame)
{
  const TressKey *keys = g->keys;
  guint n = g->n, s = g->seg;

  frame = wrap_frame (g->curve, frame);
  /* segment_at(): the key at the frame itself, else the one before it; the
   * last segment or the next one, else a search. */
  if (keys[s].frame <= frame && (s + 1 >= n || keys[s + 1].frame > frame))
    ;
  else if (s + 1 < n && keys[s + 1].frame <= frame && (s + 2 >= n || keys[s + 2].frame > frame))
    s++;
  else
    s = segment_at (g->curve, frame);
  /* Keys on the same frame (a jump) resolve as segment_at() resolves them. */
  if (s > 0 && keys[s - 1].frame == frame)
    s = segment_at (g->curve, frame);
  g->seg = s;
  seg_poly_ensure (&g->poly, &g->poly_at, keys, n, s, g->voff, g->scale, g->ypx);
  return seg_poly_y (&g->poly, frame);
}

guint
tress_curve_sample_columns (const TressCurve *curve, TressValueMap map,
                            const TressCurveViewport *vp, int first_column, guint n_columns,
                            gboolean extrapolate, TressCurveColumn *columns)
{
  guint n = tress_curve_get_n_keys (curve);
  const TressKey *keys;
  double fpp = tress_curve_viewport_frames_per_px (vp);
  double voff = vp->value_max - map.offset;
  double ypx = vp->height / (vp->value_max - vp->value_min); /* pixels per shown value */
  float gap_px = (float)(map.scale * ypx); /* pixels per value of a key's in_gap */
  double first_frame, last_frame;
  guint inside = 0;
  guint seg = 0, poly_seg = G_MAXUINT; /* the segment @poly is set up for */
  gboolean have_seg = FALSE;
  gboolean prev_inside = FALSE, prev_outside = FALSE;
  float y_prev = 0, y_prev_outside = 0;
  SegPoly poly = { 0 };
  Ghost ghost;

#define TO_Y(v) ((float)((voff - (v)*map.scale) * ypx))

  if (n == 0)
    {
      for (guint c = 0; c < n_columns; c++)
        columns[c].y_first = columns[c].y_min = columns[c].y_max = columns[c].y_last = NAN;
      return 0;
    }
  keys = (const TressKey *)curve->keys->data;
  first_frame = keys[0].frame;
  last_frame = keys[n - 1].frame;
  ghost = (Ghost){ curve, keys, n, 0, G_MAXUINT, { 0 }, voff, map.scale, ypx };

  for (guint c = 0; c < n_columns; c++)
    {
      TressCurveColumn *col = &columns[c];
      double a = vp->frame_min + (first_column + (double)c) * fpp;
      double b = a + fpp;
      float y, y_min, y_max;

      if (b < first_frame || a > last_frame)
        {
          if (extrapolate)
            {
              /* A column starts where the one before it ended. */
              float ya = prev_outside ? y_prev_outside : ghost_y (&ghost, a);
              float ym = ghost_y (&ghost, (a + b) / 2);
              float yb = ghost_y (&ghost, b);

              y_prev_outside = yb;
              prev_outside = TRUE;
              col->y_first = ya;
              col->y_last = yb;
              col->y_min = MIN (ya, MIN (ym, yb));
              col->y_max = MAX (ya, MAX (ym, yb));
            }
          else
            col->y_first = col->y_min = col->y_max = col->y_last = NAN;
          prev_inside = FALSE;
          continue;
        }

      inside++;
      prev_outside = FALSE;
      /* The part of the column inside the keys. */
      a = MAX (a, first_frame);
      b = MIN (b, last_frame);
      /* Columns move left to right, so the segment only ever advances: one
       * binary search where the keys are entered, then a walk. */
      if (!have_seg || keys[seg].frame > a)
        {
          seg = segment_at (curve, a);
          have_seg = TRUE;
        }
      if (seg + 1 < n && keys[seg + 1].frame <= a)
        while (seg + 1 < n && keys[seg + 1].frame <= a)
          seg++;
      seg_poly_ensure (&poly, &poly_seg, keys, n, seg, voff, map.scale, ypx);
      /* A column starts where the previous one ended. The extremes are kept
       * in locals (min/max without branches) and stored once. */
      y = prev_inside ? y_prev : seg_poly_y (&poly, a);
      y_min = y_max = y;
      col->y_first = y;
      /* Every key inside the column: the value arriving at it (the end of the
       * previous segment, which differs for steps and where stored segments do
       * not join) and its own value; a Hermite segment lying wholly inside the
       * column adds its middle (its bulge). */
      while (seg + 1 < n && keys[seg + 1].frame <= b)
        {
          const TressKey *k0 = &keys[seg];
          const TressKey *k1 = &keys[seg + 1];
          float v, arrive;

          if (k0->interp == TRESS_INTERP_HERMITE && k0->frame >= a)
            {
              seg_poly_ensure (&poly, &poly_seg, keys, n, seg, voff, map.scale, ypx);
              v = seg_poly_y (&poly, (k0->frame + k1->frame) / 2);
              y_min = MIN (y_min, v);
              y_max = MAX (y_max, v);
            }
          /* TO_Y is affine: the arrival is the key's y less its gap in pixels. */
          v = TO_Y (k1->value);
          arrive = k0->interp == TRESS_INTERP_STEP ? TO_Y (k0->value) : v - k1->in_gap * gap_px;
          y_min = MIN (y_min, MIN (v, arrive));
          y_max = MAX (y_max, MAX (v, arrive));
          seg++;
        }
      /* Segments wholly inside the column need no polynomial of their own. */
      seg_poly_ensure (&poly, &poly_seg, keys, n, seg, voff, map.scale, ypx);
      y_prev = seg_poly_y (&poly, b);
      col->y_last = y_prev;
      col->y_min = MIN (y_min, y_prev);
      col->y_max = MAX (y_max, y_prev);
      prev_inside = TRUE;
    }
#undef TO_Y
  return inside;
}

TressValueMap
tress_curve_normalize_map (const TressCurve *curve)
{
  guint n = tress_curve_get_n_keys (curve);
  double lo = G_MAXDOUBLE, hi = -G_MAXDOUBLE;
  TressValueMap map = TRESS_VALUE_MAP_IDENTITY;

  for (guint i = 0; i < n; i++)
    {
      const TressKey *k = tress_curve_get_key (curve, i);

      lo = MIN (lo, k->value);
      hi = MAX (hi, k->value);
      if (k->interp == TRESS_INTERP_HERMITE && i + 1 < n)
        for (int s = 1; s < 4; s++)
          {
            double f = k->frame + (tress_curve_get_key (curve, i + 1)->frame - k->frame) * s / 4;
            double v = tress_curve_geometry_segment_value (curve, i, f);
            lo = MIN (lo, v);
            hi = MAX (hi, v);
          }
    }
  if (n == 0)
    return map;
  if (hi - lo < 1e-12)
    {
      map.scale = 1;
      map.offset = -lo;
      return map;
    }
  map.scale = 2 / (hi - lo);
  map.offset = -(hi + lo) / (hi - lo);
  return map;
}

gboolean
tress_curve_drag_step (TressCurve *edit, const TressCurve *orig, const guint *keys, guint n_keys,
                       double d_frame, double d_value)
{
  guint n = tress_curve_get_n_keys (edit);

  for (guint k = 0; k < n_keys; k++)
    {
      TressKey *e = tress_curve_get_key (edit, keys[k]);
      const TressKey *o = tress_curve_get_key (orig, keys[k]);

      e->frame = o->frame + d_frame;
      e->value = o->value + d_value;
    }
  for (guint k = 0; k < n_keys; k++)
    {
      guint ki = keys[k];
      double f = tress_curve_get_key (edit, ki)->frame;

      if ((ki > 0 && tress_curve_get_key (edit, ki - 1)->frame >= f)
          || (ki + 1 < n && tress_curve_get_key (edit, ki + 1)->frame <= f))
        return FALSE;
    }
  for (guint k = 0; k < n_keys; k++)
    {
      guint ki = keys[k];

      for (guint j = ki > 0 ? ki - 1 : 0; j <= ki + 1 && j < n; j++)
        tress_curve_update_tangent (edit, j);
    }
  return TRUE;
}

void
tress_curve_format_tick (char *buf, gsize size, double v, double step, double lo, double hi)
{
  double big = MAX (fabs (lo), fabs (hi));
  int decimals = step >= 1 || !(step > 0) ? 0 : (int)ceil (-log10 (step) - 1e-9);
  char spec[16];

  /* A number within half a step of zero is zero. */
  if (fabs (v) < step / 2)
    v = 0;
  if (big < 1e7 && decimals <= 8)
    g_snprintf (spec, sizeof spec, "%%.%df", decimals);
  else
    g_snprintf (spec, sizeof spec, "%%.%dg",
                CLAMP ((int)ceil (log10 (MAX (big, step) / step) + 1e-9) + 1, 2, 17));
  g_ascii_formatd (buf, size, spec, v);
}

/* A "nice" step (1, 2 or 5 × 10^n) near @span / @divisions. */
double
tress_curve_nice_step (double span, double divisions)
{
  double raw = span / divisions;
  double p, m;

  if (!(raw > 0) || !isfinite (raw))
    return 1;
  p = pow (10, floor (log10 (raw)));
  m = raw / p;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}
