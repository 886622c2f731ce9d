/* tress-curve.c: the format-neutral animation curve
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve.h"

#include <glib/gi18n-lib.h>

#include <float.h>
#include <math.h>

#include "tress-error.h"

G_DEFINE_BOXED_TYPE (TressCurve, tress_curve, tress_curve_ref, tress_curve_unref)

void
tress_curve_limits_init_unbounded (TressCurveLimits *limits)
{
  *limits = (TressCurveLimits){
    .frame_step = 0,
    .frame_min = -G_MAXDOUBLE,
    .frame_max = G_MAXDOUBLE,
    .value_min = -G_MAXDOUBLE,
    .value_max = G_MAXDOUBLE,
    .value_kind = TRESS_VALUE_FLOAT,
    .interp_mask = TRESS_INTERP_MASK_ALL,
  };
}

TressCurve *
tress_curve_new (void)
{
  TressCurve *curve = g_new0 (TressCurve, 1);

  g_atomic_ref_count_init (&curve->ref_count);
  curve->keys = g_array_new (FALSE, TRUE, sizeof (TressKey));
  tress_curve_limits_init_unbounded (&curve->limits);
  return curve;
}

TressCurve *
tress_curve_ref (TressCurve *curve)
{
  g_return_val_if_fail (curve != NULL, NULL);
  g_atomic_ref_count_inc (&curve->ref_count);
  return curve;
}

void
tress_curve_unref (TressCurve *curve)
{
  if (curve == NULL || !g_atomic_ref_count_dec (&curve->ref_count))
    return;
  g_array_unref (curve->keys);
  g_free (curve->path);
  g_free (curve->kind);
  g_free (curve->owner);
  g_free (curve->component);
  g_free (curve->type_label);
  g_free (curve->note);
  g_free (curve->euler_group);
  g_free (curve);
}

/* A copy of @curve without its keys (room for @room of them). */
static TressCurve *
copy_without_keys (const TressCurve *curve, guint room)
{
  TressCurve *copy = g_new0 (TressCurve, 1);

  g_atomic_ref_count_init (&copy->ref_count);
  copy->keys = g_array_sized_new (FALSE, TRUE, sizeof (TressKey), room);
  copy->limits = curve->limits;
  copy->pre_wrap = curve->pre_wrap;
  copy->post_wrap = curve->post_wrap;
  copy->path = g_strdup (curve->path);
  copy->kind = g_strdup (curve->kind);
  copy->owner = g_strdup (curve->owner);
  copy->component = g_strdup (curve->component);
  copy->type_label = g_strdup (curve->type_label);
  copy->note = g_strdup (curve->note);
  copy->frame_count = curve->frame_count;
  copy->fps = curve->fps;
  copy->loops = curve->loops;
  copy->quant_error = curve->quant_error;
  copy->value_step = curve->value_step;
  copy->value_base = curve->value_base;
  copy->value_steps = curve->value_steps;
  copy->rest_value = curve->rest_value;
  copy->angle = curve->angle;
  copy->euler_order = curve->euler_order;
  copy->euler_axis = curve->euler_axis;
  copy->euler_group = g_strdup (curve->euler_group);
  return copy;
}

TressCurve *
tress_curve_copy (const TressCurve *curve)
{
  TressCurve *copy = copy_without_keys (curve, curve->keys->len);

  g_array_append_vals (copy->keys, curve->keys->data, curve->keys->len);
  return copy;
}

void
tress_curve_set_text (char **field, const char *text)
{
  if (*field == text)
    return;
  g_free (*field);
  *field = g_strdup (text);
}

guint
tress_curve_append_key (TressCurve *curve, const TressKey *key)
{
  g_array_append_vals (curve->keys, key, 1);
  return curve->keys->len - 1;
}

int
tress_curve_insert_key (TressCurve *curve, const TressKey *key)
{
  guint lo = 0, hi = curve->keys->len;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (tress_curve_get_key (curve, mid)->frame < key->frame)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < curve->keys->len && tress_curve_get_key (curve, lo)->frame == key->frame)
    return -1;
  g_array_insert_vals (curve->keys, lo, key, 1);
  return (int)lo;
}

void
tress_curve_remove_key (TressCurve *curve, guint index)
{
  g_return_if_fail (index < curve->keys->len);
  g_array_remove_index (curve->keys, index);
}

int
tress_curve_find_segment (const TressCurve *curve, double frame)
{
  guint lo = 0, hi = curve->keys->len;

  /* first key with frame > @frame */
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (tress_curve_get_key (curve, mid)->frame <= frame)
        lo = mid + 1;
      else
        hi = mid;
    }
  return (int)lo - 1;
}

int
tress_curve_find_key (const TressCurve *curve, double frame, double tolerance)
{
  int i = tress_curve_find_segment (curve, frame);
  int best = -1;
  double best_d = tolerance;

  for (int j = MAX (i, 0); j <= i + 1 && j < (int)curve->keys->len; j++)
    {
      double d = fabs (tress_curve_get_key (curve, j)->frame - frame);
      if (d <= best_d)
        {
          best = j;
          best_d = d;
        }
    }
  return best;
}

static int
compare_keys (gconstpointer a, gconstpointer b)
{
  const TressKey *ka = a, *kb = b;
  return (ka->frame > kb->frame) - (ka->frame < kb->frame);
}

gboolean
tress_curve_sort (TressCurve *curve)
{
  g_array_sort (curve->keys, compare_keys);
  for (guint i = 1; i < curve->keys->len; i++)
    if (tress_curve_get_key (curve, i)->frame == tress_curve_get_key (curve, i - 1)->frame)
      return FALSE;
  return TRUE;
}

double
tress_hermite (double p0, double p1, double m0, double m1, double d, double t)
{
  double t2 = t * t, t3 = t2 * t;
  double h00 = 2 * t3 - 3 * t2 + 1;
  double h10 = t3 - 2 * t2 + t;
  double h01 = -2 * t3 + 3 * t2;
  double h11 = t3 - t2;

  return h00 * p0 + h10 * d * m0 + h01 * p1 + h11 * d * m1;
}

double
tress_hermite_derivative (double p0, double p1, double m0, double m1, double d, double t)
{
  double t2 = t * t;
  double d00 = 6 * t2 - 6 * t;
  double d10 = 3 * t2 - 4 * t + 1;
  double d01 = -6 * t2 + 6 * t;
  double d11 = 3 * t2 - 2 * t;

  if (d == 0)
    return 0;
  /* d/dframe = d/dt / d */
  return (d00 * p0 + d01 * p1) / d + d10 * m0 + d11 * m1;
}

void
tress_hermite_to_cubic (double p0, double p1, double m0, double m1, double d, double c[4])
{
  c[0] = p0;
  c[1] = m0 * d;
  c[2] = 3 * (p1 - p0) - (2 * m0 + m1) * d;
  c[3] = 2 * (p0 - p1) + (m0 + m1) * d;
}

void
tress_cubic_to_hermite (const double c[4], double d, double *p0, double *p1, double *m0, double *m1)
{
  *p0 = c[0];
  *p1 = c[0] + c[1] + c[2] + c[3];
  *m0 = d != 0 ? c[1] / d : 0;
  *m1 = d != 0 ? (c[1] + 2 * c[2] + 3 * c[3]) / d : 0;
}

static double
segment_value (const TressKey *a, const TressKey *b, double frame)
{
  double d = b->frame - a->frame;
  double t = d > 0 ? (frame - a->frame) / d : 0;

  switch (a->interp)
    {
    case TRESS_INTERP_STEP:
      return a->value;
    case TRESS_INTERP_LINEAR:
    case TRESS_INTERP_BAKED:
      return a->value + (tress_key_in_value (b) - a->value) * t;
    case TRESS_INTERP_HERMITE:
    default:
      return tress_hermite (a->value, tress_key_in_value (b), a->out_slope, b->in_slope, d, t);
    }
}

static double
segment_slope (const TressKey *a, const TressKey *b, double frame)
{
  double d = b->frame - a->frame;
  double t = d > 0 ? (frame - a->frame) / d : 0;

  switch (a->interp)
    {
    case TRESS_INTERP_STEP:
      return 0;
    case TRESS_INTERP_LINEAR:
    case TRESS_INTERP_BAKED:
      return d > 0 ? (tress_key_in_value (b) - a->value) / d : 0;
    case TRESS_INTERP_HERMITE:
    default:
      return tress_hermite_derivative (a->value, tress_key_in_value (b), a->out_slope, b->in_slope,
                                       d, t);
    }
}

double
tress_curve_stored_value (const TressCurve *curve, double value, gboolean *fits)
{
  double k;

  if (fits != NULL)
    *fits = TRUE;
  if (!(curve->value_step > 0) || !isfinite (value))
    return value;
  k = round ((value - curve->value_base) / curve->value_step);
  if (fits != NULL)
    *fits = fabs (k) <= curve->value_steps;
  return curve->value_base + k * curve->value_step;
}

double
tress_curve_get_precision (const TressCurve *curve)
{
  double m = 1.0;

  /* A hair over half a step: the error of a value on the nearest step is
   * worked out in doubles. */
  if (curve->value_step > 0)
    return curve->value_step / 2 * (1 + 1e-6);
  for (guint i = 0; i < curve->keys->len; i++)
    m = MAX (m, fabs (tress_curve_get_key (curve, i)->value));
  return m * FLT_EPSILON;
}

/* Maps @frame into [first, last] following the wrap modes. */
static double
wrap_frame (const TressCurve *curve, double frame)
{
  guint n = curve->keys->len;
  double first = tress_curve_get_key (curve, 0)->frame;
  double last = tress_curve_get_key (curve, n - 1)->frame;
  double len = last - first;
  TressWrap mode;

  if (len <= 0 || (frame >= first && frame <= last))
    return frame;
  mode = frame < first ? curve->pre_wrap : curve->post_wrap;
  if (mode == TRESS_WRAP_CLAMP)
    return frame;
  else
    {
      double rel = frame - first;
      double cycles = floor (rel / len);
      double local = rel - cycles * len;

      if (mode == TRESS_WRAP_MIRROR && fmod (fabs (cycles), 2.0) == 1.0)
        local = len - local;
      return first + local;
    }
}

double
tress_curve_evaluate (const TressCurve *curve, double frame)
{
  guint n = curve->keys->len;
  int i;

  if (n == 0)
    return curve->rest_value;
  frame = wrap_frame (curve, frame);
  i = tress_curve_find_segment (curve, frame);
  if (i < 0)
    return tress_curve_get_key (curve, 0)->value;
  if ((guint)i >= n - 1)
    return tress_curve_get_key (curve, n - 1)->value;
  return segment_value (tress_curve_get_key (curve, i), tress_curve_get_key (curve, i + 1), frame);
}

double
tress_curve_slope (const TressCurve *curve, double frame)
{
  guint n = curve->keys->len;
  int i;

  if (n < 2)
    return 0;
  frame = wrap_frame (curve, frame);
  i = tress_curve_find_segment (curve, frame);
  if (i < 0 || (guint)i >= n - 1)
    return 0;
  return segment_slope (tress_curve_get_key (curve, i), tress_curve_get_key (curve, i + 1), frame);
}

void
tress_curve_get_bounds (const TressCurve *curve, double *frame_min, double *frame_max,
                        double *value_min, double *value_max)
{
  guint n = curve->keys->len;
  double vmin = G_MAXDOUBLE, vmax = -G_MAXDOUBLE;

  if (n == 0)
    {
      if (frame_min)
        *frame_min = 0;
      if (frame_max)
        *frame_max = 0;
      if (value_min)
        *value_min = 0;
      if (value_max)
        *value_max = 0;
      return;
    }
  for (guint i = 0; i < n; i++)
    {
      const TressKey *k = tress_curve_get_key (curve, i);

      vmin = MIN (vmin, MIN (k->value, tress_key_in_value (k)));
      vmax = MAX (vmax, MAX (k->value, tress_key_in_value (k)));
      if (k->interp == TRESS_INTERP_HERMITE && i + 1 < n)
        {
          const TressKey *next = tress_curve_get_key (curve, i + 1);
          for (int s = 1; s < 16; s++)
            {
              double f = k->frame + (next->frame - k->frame) * s / 16.0;
              double v = segment_value (k, next, f);
              vmin = MIN (vmin, v);
              vmax = MAX (vmax, v);
            }
        }
    }
  if (frame_min)
    *frame_min = tress_curve_get_key (curve, 0)->frame;
  if (frame_max)
    *frame_max = tress_curve_get_key (curve, n - 1)->frame;
  if (value_min)
    *value_min = vmin;
  if (value_max)
    *value_max = vmax;
}

static double
snap_frame (const TressCurveLimits *limits, double frame)
{
  if (limits->frame_step > 0)
    frame = round (frame / limits->frame_step) * limits->frame_step;
  return CLAMP (frame, limits->frame_min, limits->frame_max);
}

int
tress_curve_insert_on_curve (TressCurve *curve, double frame, GError **error)
{
  TressKey key = { 0 };
  guint n = curve->keys->len;
  int seg, at;

  if (curve->limits.fixed_key_count)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "This curve has a fixed number of keys: a key cannot be inserted");
      return -1;
    }
  if (curve->limits.frame_step > 0)
    frame = round (frame / curve->limits.frame_step) * curve->limits.frame_step;
  if (frame < curve->limits.frame_min || frame > curve->limits.frame_max)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "Frame %g is outside the frames this curve stores (%g to %g)", frame,
                   curve->limits.frame_min, curve->limits.frame_max);
      return -1;
    }
  if (tress_curve_find_key (curve, frame, 1e-9) >= 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, "A key already sits at frame %g",
                   frame);
      return -1;
    }
  seg = tress_curve_find_segment (curve, frame);
  key.frame = frame;
  key.value = tress_curve_evaluate (curve, frame);
  key.tangent = TRESS_TANGENT_MANUAL;
  if (n == 0)
    key.interp = TRESS_INTERP_HERMITE;
  else
    {
      const TressKey *ref = tress_curve_get_key (curve, MAX (seg, 0));

      key.interp = ref->interp;
      key.native_interp = ref->native_interp;
      key.flags = ref->flags & ~TRESS_KEY_BROKEN;
      if (seg >= 0 && (guint)seg < n - 1)
        key.in_slope = key.out_slope = tress_curve_slope (curve, frame);
    }
  if (!(curve->limits.interp_mask & TRESS_INTERP_MASK (key.interp)))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, "This curve cannot hold %s keys",
                   tress_interp_to_string (key.interp));
      return -1;
    }
  if (curve->limits.value_kind != TRESS_VALUE_FLOAT)
    key.value = round (key.value);
  at = tress_curve_insert_key (curve, &key);
  /* Outside the keys a clamped curve holds its end value: the new segment
   * between the old end key and the new one must be flat too. Where both
   * slopes of a key are one (tied), the old end key's slope also shapes the
   * segment on its other side: that new segment becomes linear instead, flat
   * between two equal values. Otherwise the old end key's slope on the new
   * side becomes 0. */
  if (at >= 0 && n > 0 && curve->limits.tied_tangents
      && (curve->limits.interp_mask & TRESS_INTERP_MASK (TRESS_INTERP_LINEAR))
      && ((guint)at == n ? curve->post_wrap : curve->pre_wrap) == TRESS_WRAP_CLAMP
      && ((guint)at == n || at == 0))
    {
      /* A segment takes the interpolation of the key that starts it. */
      TressKey *start = tress_curve_get_key (curve, (guint)at == n ? n - 1 : 0);

      if (start->interp == TRESS_INTERP_HERMITE)
        start->interp = TRESS_INTERP_LINEAR;
    }
  else if (at >= 0 && n > 0 && !curve->limits.tied_tangents
           && ((guint)at == n ? curve->post_wrap : curve->pre_wrap) == TRESS_WRAP_CLAMP
           && ((guint)at == n || at == 0))
    {
      TressKey *end = tress_curve_get_key (curve, (guint)at == n ? n - 1 : 1);
      double *slope = (guint)at == n ? &end->out_slope : &end->in_slope;

      if (*slope != 0)
        {
          *slope = 0;
          if (end->in_slope != end->out_slope)
            end->flags |= TRESS_KEY_BROKEN;
        }
    }
  return at;
}

static double
secant (const TressKey *a, const TressKey *b)
{
  double d = b->frame - a->frame;
  return d != 0 ? (tress_key_in_value (b) - a->value) / d : 0;
}

void
tress_curve_update_tangent (TressCurve *curve, guint index)
{
  guint n = curve->keys->len;
  TressKey *k;
  const TressKey *prev, *next;
  double in = 0, out = 0;

  g_return_if_fail (index < n);
  k = tress_curve_get_key (curve, index);
  prev = index > 0 ? tress_curve_get_key (curve, index - 1) : NULL;
  next = index + 1 < n ? tress_curve_get_key (curve, index + 1) : NULL;

  switch (k->tangent)
    {
    case TRESS_TANGENT_MANUAL:
      return;
    case TRESS_TANGENT_FLAT:
      in = out = 0;
      break;
    case TRESS_TANGENT_LINEAR:
      in = prev ? secant (prev, k) : (next ? secant (k, next) : 0);
      out = next ? secant (k, next) : in;
      if (curve->limits.tied_tangents)
        in = out = (in + out) / 2;
      break;
    case TRESS_TANGENT_AUTO:
    case TRESS_TANGENT_AUTO_CLAMPED:
      if (prev && next)
        in = out = (next->value - prev->value) / (next->frame - prev->frame);
      else if (next)
        in = out = secant (k, next);
      else if (prev)
        in = out = secant (prev, k);
      if (k->tangent == TRESS_TANGENT_AUTO_CLAMPED)
        {
          if (prev == NULL || next == NULL)
            in = out = 0;
          else if ((k->value >= prev->value && k->value >= next->value)
                   || (k->value <= prev->value && k->value <= next->value))
            in = out = 0;
          else
            {
              /* Keep the segments monotone (Fritsch–Carlson bound). */
              double lim = 3 * MIN (fabs (secant (prev, k)), fabs (secant (k, next)));
              if (fabs (out) > lim)
                in = out = copysign (lim, out);
            }
        }
      break;
    default:
      return;
    }
  k->in_slope = in;
  k->out_slope = out;
}

void
tress_curve_update_all_tangents (TressCurve *curve)
{
  for (guint i = 0; i < curve->keys->len; i++)
    tress_curve_update_tangent (curve, i);
}

static gboolean
nearly (double a, double b)
{
  return fabs (a - b) <= 1e-9 * MAX (1.0, MAX (fabs (a), fabs (b)));
}

gboolean
tress_curve_key_has_slopes (const TressCurve *curve, guint index, const char **why)
{
  const char *reason = NULL;

  if (curve->limits.no_slopes != NULL)
    reason = curve->limits.no_slopes;
  else if (curve->limits.slopes_derived)
    reason = _ ("the curve stores no slopes (they follow from the interpolation)");
  else if (!(curve->limits.interp_mask & TRESS_INTERP_MASK (TRESS_INTERP_HERMITE)))
    reason = _ ("the curve holds no Hermite segments, and stores no slopes");
  if (why != NULL)
    *why = reason;
  return reason == NULL;
}

gboolean
tress_curve_check_key_slopes (const TressCurve *curve, guint index, GError **error)
{
  const char *why = NULL;

  if (tress_curve_key_has_slopes (curve, index, &why))
    return TRUE;
  g_set_error (
      error, TRESS_ERROR, TRESS_ERROR_REFUSED,
      /* TRANSLATORS: a key's index, a curve's path, and why the key's slopes cannot be set */
      _ ("cannot set the slopes of key %u of %s: %s"), index,
      curve->path != NULL ? curve->path : _ ("the curve"), why);
  return FALSE;
}

gboolean
tress_curve_check_limits (const TressCurve *curve, GError **error)
{
  const TressCurveLimits *l = &curve->limits;
  guint n = curve->keys->len;

  for (guint i = 0; i < n; i++)
    {
      const TressKey *k = tress_curve_get_key (curve, i);

      if (!isfinite (k->frame) || !isfinite (k->value) || !isfinite (k->in_slope)
          || !isfinite (k->out_slope) || !isfinite (tress_key_in_value (k)))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "Key %u holds a value that is not a finite number", i);
          return FALSE;
        }
      if (i > 0 && k->frame <= tress_curve_get_key (curve, i - 1)->frame)
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "Key %u at frame %g is not after key %u at frame %g: keys must be in "
                       "strictly increasing frame order",
                       i, k->frame, i - 1, tress_curve_get_key (curve, i - 1)->frame);
          return FALSE;
        }
      if (l->frame_step > 0 && !nearly (round (k->frame / l->frame_step) * l->frame_step, k->frame))
        {
          if (l->frame_step == 1)
            g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                         "Key %u is at frame %g, but this curve stores whole frames only", i,
                         k->frame);
          else
            g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                         "Key %u is at frame %g, which is not on this curve's frame grid of %g", i,
                         k->frame, l->frame_step);
          return FALSE;
        }
      if (k->frame < l->frame_min || k->frame > l->frame_max)
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "Key %u is at frame %g; this curve stores frames from %g to %g", i, k->frame,
                       l->frame_min, l->frame_max);
          return FALSE;
        }
      if (k->value < l->value_min || k->value > l->value_max)
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "Key %u has the value %g; this curve stores values from %g to %g", i,
                       k->value, l->value_min, l->value_max);
          return FALSE;
        }
      if (l->value_kind != TRESS_VALUE_FLOAT && !nearly (round (k->value), k->value))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "Key %u has the value %g, but this curve holds %s values", i, k->value,
                       l->value_kind == TRESS_VALUE_BOOL ? "true/false (0/1)" : "whole-number");
          return FALSE;
        }
      if (l->value_kind == TRESS_VALUE_BOOL && k->value != 0 && k->value != 1)
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "Key %u has the value %g, but this curve holds only 0 or 1", i, k->value);
          return FALSE;
        }
      if (!(l->interp_mask & TRESS_INTERP_MASK (k->interp)))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "Key %u uses %s interpolation, which this curve cannot store", i,
                       tress_interp_to_string (k->interp));
          return FALSE;
        }
      if (l->uniform_interp && i > 0 && i + 1 < n
          && k->interp != tress_curve_get_key (curve, 0)->interp)
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "Key %u uses %s interpolation but key 0 uses %s: every segment of this "
                       "curve must use the same interpolation",
                       i, tress_interp_to_string (k->interp),
                       tress_interp_to_string (tress_curve_get_key (curve, 0)->interp));
          return FALSE;
        }
      if (l->tied_tangents && k->interp == TRESS_INTERP_HERMITE
          && !nearly (k->in_slope, k->out_slope))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "Key %u has broken tangents (in %g, out %g), but this format stores one "
                       "slope per key",
                       i, k->in_slope, k->out_slope);
          return FALSE;
        }
    }
  return TRUE;
}

void
tress_curve_conform (TressCurve *curve)
{
  const TressCurveLimits *l = &curve->limits;

  for (guint i = 0; i < curve->keys->len; i++)
    {
      TressKey *k = tress_curve_get_key (curve, i);

      k->frame = snap_frame (l, k->frame);
      if (l->value_kind != TRESS_VALUE_FLOAT)
        {
          k->value = round (k->value);
          k->in_gap = 0; /* whole numbers are held, never reached along a segment */
        }
      if (l->value_kind == TRESS_VALUE_BOOL)
        k->value = k->value != 0 ? 1 : 0;
      k->value = CLAMP (k->value, l->value_min, l->value_max);
      if (l->tied_tangents)
        {
          double s = (k->in_slope + k->out_slope) / 2;
          k->in_slope = k->out_slope = s;
          k->flags &= ~TRESS_KEY_BROKEN;
        }
    }
}

TressCurve *
tress_curve_bake (const TressCurve *curve, double first, double last)
{
  TressCurve *baked;

  first = ceil (first);
  last = floor (last);
  if (!(last - first < TRESS_CURVE_MAX_BAKED))
    return NULL;
  baked = tress_curve_copy (curve);
  g_array_set_size (baked->keys, 0);
  for (double f = first; f <= last; f += 1)
    {
      TressKey k = { .frame = f,
                     .value = tress_curve_evaluate (curve, f),
                     .interp = TRESS_INTERP_BAKED,
                     .tangent = TRESS_TANGENT_MANUAL };
      k.in_slope = k.out_slope = tress_curve_slope (curve, f);
      g_array_append_val (baked->keys, k);
    }
  return baked;
}

static double
sample_slope (const TressKey *s, guint n, guint i)
{
  if (n < 2)
    return 0;
  if (i == 0)
    return secant (&s[0], &s[1]);
  if (i == n - 1)
    return secant (&s[n - 2], &s[n - 1]);
  return (s[i + 1].value - s[i - 1].value) / (s[i + 1].frame - s[i - 1].frame);
}

static gboolean
segment_fits (const TressKey *s, guint n, guint a, guint b, TressInterp interp, double tolerance)
{
  TressKey ka = s[a], kb = s[b];

  ka.interp = interp;
  ka.out_slope = sample_slope (s, n, a);
  kb.in_slope = sample_slope (s, n, b);
  for (guint i = a + 1; i < b; i++)
    if (fabs (segment_value (&ka, &kb, s[i].frame) - s[i].value) > tolerance)
      return FALSE;
  return TRUE;
}

TressCurve *
tress_curve_fit (const TressCurve *baked, double tolerance, TressInterp interp)
{
  const TressKey *s = (const TressKey *)baked->keys->data;
  guint n = baked->keys->len;
  TressCurve *fit = copy_without_keys (baked, n);
  guint a = 0;

  if (n == 0)
    return fit;
  while (TRUE)
    {
      TressKey k = s[a];
      guint b = a + 1;

      k.interp = interp;
      k.tangent = TRESS_TANGENT_MANUAL;
      k.in_slope = k.out_slope = interp == TRESS_INTERP_HERMITE ? sample_slope (s, n, a) : 0;
      g_array_append_val (fit->keys, k);
      if (a + 1 >= n)
        break;
      /* Extend the segment while every sample inside stays within the tolerance. */
      while (b + 1 < n && b + 1 - a <= 1024 && segment_fits (s, n, a, b + 1, interp, tolerance))
        b++;
      a = b;
    }
  return fit;
}

static const char *const interp_names[] = { "step", "linear", "hermite", "baked" };

const char *
tress_interp_to_label (TressInterp interp)
{
  static const char *const labels[] = { N_ ("Step"), N_ ("Linear"), N_ ("Hermite"), N_ ("Baked") };

  if ((guint)interp < G_N_ELEMENTS (labels))
    return g_dgettext (GETTEXT_PACKAGE, labels[interp]);
  return g_dgettext (GETTEXT_PACKAGE, "unknown");
}

const char *
tress_interp_to_string (TressInterp interp)
{
  if ((guint)interp < G_N_ELEMENTS (interp_names))
    return interp_names[interp];
  return "unknown";
}

gboolean
tress_interp_from_string (const char *s, TressInterp *out)
{
  for (guint i = 0; i < G_N_ELEMENTS (interp_names); i++)
    if (g_ascii_strcasecmp (s, interp_names[i]) == 0)
      {
        *out = (TressInterp)i;
        return TRUE;
      }
  if (g_ascii_strcasecmp (s, "cubic") == 0)
    *out = TRESS_INTERP_HERMITE;
  else if (g_ascii_strcasecmp (s, "constant") == 0 || g_ascii_strcasecmp (s, "hold") == 0)
    *out = TRESS_INTERP_STEP;
  else
    return FALSE;
  return TRUE;
}

const char *
tress_tangent_mode_to_string (TressTangentMode mode)
{
  switch (mode)
    {
    case TRESS_TANGENT_MANUAL:
      return "manual";
    case TRESS_TANGENT_AUTO:
      return "auto";
    case TRESS_TANGENT_AUTO_CLAMPED:
      return "auto-clamped";
    case TRESS_TANGENT_FLAT:
      return "flat";
    case TRESS_TANGENT_LINEAR:
      return "linear";
    default:
      return "unknown";
    }
}

static const char *const euler_names[] = { NULL, "XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX" };

const char *
tress_euler_order_to_string (TressEulerOrder order)
{
  return (guint)order < G_N_ELEMENTS (euler_names) ? euler_names[order] : NULL;
}

guint
tress_euler_order_middle_axis (TressEulerOrder order)
{
  const char *name = tress_euler_order_to_string (order);

  return name != NULL ? (guint)(name[1] - 'X') : 1;
}
