/* tress-curve-edit.c: what the editor and tress-cli do to the keys of curves
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-edit.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#include "tress-error.h"

/* ------------------------------------------------------------- helpers -- */

static const char *
curve_name (const TressCurve *c)
{
  return c->path != NULL ? c->path : _ ("the curve");
}

static double
snap_to_grid (const TressCurve *c, double frame)
{
  double step = c->limits.frame_step;

  return step > 0 ? round (frame / step) * step : frame;
}

static int
compare_uint (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *)a, y = *(const guint *)b;

  return (x > y) - (x < y);
}

gboolean
tress_curve_sort_tracking (TressCurve *c, GArray *tracked)
{
  guint n = tress_curve_get_n_keys (c);
  g_autofree guint *order = NULL;
  g_autofree guint *where = NULL;
  g_autoptr (GArray) sorted = NULL;
  gboolean in_order = TRUE;

  for (guint i = 1; i < n && in_order; i++)
    if (tress_curve_get_key (c, i)->frame <= tress_curve_get_key (c, i - 1)->frame)
      in_order = FALSE;
  if (in_order)
    return TRUE;
  order = g_new (guint, n);
  where = g_new (guint, n);
  for (guint i = 0; i < n; i++)
    order[i] = i;
  /* Insertion sort: edits move few keys past few others. */
  for (guint i = 1; i < n; i++)
    for (guint j = i;
         j > 0
         && tress_curve_get_key (c, order[j - 1])->frame > tress_curve_get_key (c, order[j])->frame;
         j--)
      {
        guint t = order[j];
        order[j] = order[j - 1];
        order[j - 1] = t;
      }
  sorted = g_array_sized_new (FALSE, FALSE, sizeof (TressKey), n);
  for (guint i = 0; i < n; i++)
    {
      g_array_append_val (sorted, *tress_curve_get_key (c, order[i]));
      where[order[i]] = i;
    }
  memcpy (c->keys->data, sorted->data, n * sizeof (TressKey));
  if (tracked != NULL)
    for (guint i = 0; i < tracked->len; i++)
      g_array_index (tracked, guint, i) = where[g_array_index (tracked, guint, i)];
  for (guint i = 1; i < n; i++)
    if (tress_curve_get_key (c, i)->frame <= tress_curve_get_key (c, i - 1)->frame)
      return FALSE;
  return TRUE;
}

void
tress_curve_update_tangents_around (TressCurve *c, guint i)
{
  guint n = tress_curve_get_n_keys (c);

  for (guint k = i > 0 ? i - 1 : 0; k <= i + 1 && k < n; k++)
    tress_curve_update_tangent (c, k);
}

void
tress_curve_conform_values (TressCurve *c)
{
  const TressCurveLimits *l = &c->limits;

  for (guint i = 0; i < tress_curve_get_n_keys (c); i++)
    {
      TressKey *k = tress_curve_get_key (c, i);

      if (l->value_kind != TRESS_VALUE_FLOAT)
        {
          k->value = round (k->value);
          k->in_gap = 0; /* whole numbers are held, never reached along a segment */
        }
      if (l->value_kind == TRESS_VALUE_BOOL)
        k->value = k->value != 0 ? 1 : 0;
      k->value = CLAMP (k->value, l->value_min, l->value_max);
    }
}

gboolean
tress_curve_same_keys (const TressCurve *a, const TressCurve *b)
{
  return tress_curve_get_n_keys (a) == tress_curve_get_n_keys (b)
         && memcmp (a->keys->data, b->keys->data, tress_curve_get_n_keys (a) * sizeof (TressKey))
                == 0;
}

int
tress_curve_key_in (const TressCurve *before, guint index, const TressCurve *now)
{
  double frame = tress_curve_get_key (before, index)->frame;
  int at = tress_curve_find_segment (now, frame);

  return at >= 0 && tress_curve_get_key (now, (guint)at)->frame == frame ? at : -1;
}

GArray *
tress_curve_remap_keys (const TressCurve *before, GArray *keys, const TressCurve *now)
{
  GArray *mapped = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < keys->len; i++)
    {
      guint k = g_array_index (keys, guint, i);
      int at = k < tress_curve_get_n_keys (before) ? tress_curve_key_in (before, k, now) : -1;

      if (at >= 0)
        g_array_append_val (mapped, at);
    }
  return mapped;
}

gboolean
tress_curve_only_past_end (const TressCurve *c)
{
  g_autoptr (TressCurve) longer = NULL;
  guint n = tress_curve_get_n_keys (c);

  if (n == 0 || tress_curve_get_key (c, n - 1)->frame <= c->limits.frame_max)
    return FALSE;
  longer = tress_curve_copy (c);
  longer->limits.frame_max = G_MAXDOUBLE;
  return tress_curve_check_limits (longer, NULL);
}

static gboolean
refuse_shared_frame (const TressCurve *c, GError **error)
{
  g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, _ ("two keys of %s would share a frame"),
               curve_name (c));
  return FALSE;
}

static gboolean
refuse_fixed_count (const TressCurve *c, GError **error)
{
  g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
               _ ("%s has a fixed number of keys: keys cannot be inserted or deleted"),
               c->path != NULL ? c->path : _ ("This curve"));
  return FALSE;
}

/* ---------------------------------------------------------- operations -- */

static const char *const tangent_edit_names[] = {
  [TRESS_TANGENT_EDIT_MANUAL] = "manual",
  [TRESS_TANGENT_EDIT_AUTO] = "auto",
  [TRESS_TANGENT_EDIT_AUTO_CLAMPED] = "auto-clamped",
  [TRESS_TANGENT_EDIT_FLAT] = "flat",
  [TRESS_TANGENT_EDIT_LINEAR] = "linear",
  [TRESS_TANGENT_EDIT_UNIFIED] = "unified",
  [TRESS_TANGENT_EDIT_BROKEN] = "broken",
};

gboolean
tress_tangent_edit_from_string (const char *s, TressTangentEdit *out)
{
  for (guint i = 0; i < G_N_ELEMENTS (tangent_edit_names) && s != NULL; i++)
    if (g_str_equal (s, tangent_edit_names[i]))
      {
        *out = (TressTangentEdit)i;
        return TRUE;
      }
  return FALSE;
}

const char *
tress_tangent_edit_to_string (TressTangentEdit mode)
{
  if ((guint)mode < G_N_ELEMENTS (tangent_edit_names))
    return tangent_edit_names[mode];
  return "unknown";
}

gboolean
tress_curve_edit_move (TressCurve *c, GArray *keys, double d_frame, double d_value, GError **error)
{
  gboolean reordered = FALSE;

  for (guint i = 0; i < keys->len; i++)
    {
      TressKey *k = tress_curve_get_key (c, g_array_index (keys, guint, i));

      k->frame += d_frame;
      k->value += d_value;
    }
  /* Moved by the pointer or the keyboard: values take what the format holds
   * (whole numbers for int and bool curves, its range). */
  tress_curve_conform_values (c);
  for (guint i = 1; i < tress_curve_get_n_keys (c) && !reordered; i++)
    reordered = tress_curve_get_key (c, i)->frame <= tress_curve_get_key (c, i - 1)->frame;
  if (!tress_curve_sort_tracking (c, keys))
    return refuse_shared_frame (c, error);
  /* Keys that passed others left old neighbours as well as new ones. */
  if (reordered)
    tress_curve_update_all_tangents (c);
  else
    for (guint i = 0; i < keys->len; i++)
      tress_curve_update_tangents_around (c, g_array_index (keys, guint, i));
  return TRUE;
}

gboolean
tress_curve_edit_scale (TressCurve *c, GArray *keys, double pivot_frame, double frame_factor,
                        double value_factor, gboolean value_at_pivot, GError **error)
{
  double vmin = G_MAXDOUBLE, vmax = -G_MAXDOUBLE, pivot_value;

  for (guint i = 0; i < keys->len; i++)
    {
      TressKey *k = tress_curve_get_key (c, g_array_index (keys, guint, i));

      vmin = MIN (vmin, k->value);
      vmax = MAX (vmax, k->value);
    }
  pivot_value = value_at_pivot ? tress_curve_evaluate (c, pivot_frame) : (vmin + vmax) / 2;
  for (guint i = 0; i < keys->len; i++)
    {
      TressKey *k = tress_curve_get_key (c, g_array_index (keys, guint, i));

      k->frame = snap_to_grid (c, pivot_frame + (k->frame - pivot_frame) * frame_factor);
      k->value = pivot_value + (k->value - pivot_value) * value_factor;
      /* The value it is reached with scales as well. */
      k->in_gap = (float)(k->in_gap * value_factor);
      if (frame_factor != 0)
        {
          k->in_slope *= value_factor / frame_factor;
          k->out_slope *= value_factor / frame_factor;
        }
    }
  tress_curve_conform_values (c);
  if (!tress_curve_sort_tracking (c, keys))
    return refuse_shared_frame (c, error);
  return TRUE;
}

gboolean
tress_curve_edit_insert (TressCurve *c, GArray *keys, double frame, GError **error)
{
  int index = tress_curve_insert_on_curve (c, frame, error);
  guint u;

  if (index < 0)
    return FALSE;
  u = (guint)index;
  g_array_set_size (keys, 0);
  g_array_append_val (keys, u);
  return TRUE;
}

gboolean
tress_curve_edit_delete (TressCurve *c, GArray *keys, GError **error)
{
  if (keys->len == 0)
    return TRUE;
  if (keys->len >= tress_curve_get_n_keys (c))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, _ ("%s must keep at least one key"),
                   c->path ? c->path : _ ("a curve"));
      return FALSE;
    }
  if (c->limits.fixed_key_count)
    return refuse_fixed_count (c, error);
  for (guint i = keys->len; i > 0; i--)
    tress_curve_remove_key (c, g_array_index (keys, guint, i - 1));
  g_array_set_size (keys, 0);
  tress_curve_update_all_tangents (c);
  return TRUE;
}

gboolean
tress_curve_edit_paste (TressCurve *c, GArray *keys, const TressKey *src, guint n, double offset,
                        GError **error)
{
  if (n > 0 && c->limits.fixed_key_count)
    return refuse_fixed_count (c, error);
  g_array_set_size (keys, 0);
  for (guint i = 0; i < n; i++)
    {
      TressKey k = src[i];
      int at;
      guint u;

      k.origin = 0; /* a new key, whatever it was copied from */
      /* The segment that reaches it is new too: it ends where the key sits. */
      k.in_gap = 0;
      k.frame = snap_to_grid (c, k.frame + offset);
      if (c->limits.tied_tangents)
        k.in_slope = k.out_slope = (k.in_slope + k.out_slope) / 2;
      if (!(c->limits.interp_mask & TRESS_INTERP_MASK (k.interp)))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, _ ("%s cannot hold %s keys"),
                       curve_name (c), tress_interp_to_label (k.interp));
          return FALSE;
        }
      /* Where the format derives the slopes (NIFF1 KEY records, whose Hermite
       * is an ease), Hermite keys from a curve that stores them would change
       * shape: refused, unless they are such eases themselves. */
      if (c->limits.slopes_derived && k.interp == TRESS_INTERP_HERMITE
          && !(k.flags & TRESS_KEY_EASE_ASSUMED))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       _ ("%s stores no slopes: Hermite keys with their own slopes would change "
                          "shape there"),
                       curve_name (c));
          return FALSE;
        }
      at = tress_curve_insert_key (c, &k);
      if (at < 0)
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       _ ("a key already sits at frame %g of %s"), k.frame, curve_name (c));
          return FALSE;
        }
      /* Earlier new keys after the insertion point moved one up. */
      for (guint j = 0; j < keys->len; j++)
        if (g_array_index (keys, guint, j) >= (guint)at)
          g_array_index (keys, guint, j)++;
      u = (guint)at;
      g_array_append_val (keys, u);
    }
  /* The new keys in index order, as a selection is kept. */
  g_array_sort (keys, compare_uint);
  return TRUE;
}

gboolean
tress_curve_edit_duplicate (TressCurve *c, GArray *keys, double offset, GError **error)
{
  g_autoptr (GArray) src = g_array_new (FALSE, FALSE, sizeof (TressKey));

  if (keys->len == 0)
    return TRUE;
  for (guint i = 0; i < keys->len; i++)
    g_array_append_val (src, *tress_curve_get_key (c, g_array_index (keys, guint, i)));
  return tress_curve_edit_paste (c, keys, (const TressKey *)src->data, src->len, offset, error);
}

gboolean
tress_curve_edit_set_interp (TressCurve *c, GArray *keys, TressInterp interp, GError **error)
{
  guint n = tress_curve_get_n_keys (c);

  if (!(c->limits.interp_mask & TRESS_INTERP_MASK (interp)))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, _ ("%s cannot hold %s segments"),
                   curve_name (c), tress_interp_to_label (interp));
      return FALSE;
    }
  if (c->limits.uniform_interp)
    {
      /* The format stores one interpolation per curve: every segment follows. */
      for (guint i = 0; i < n; i++)
        tress_curve_get_key (c, i)->interp = interp;
      return TRUE;
    }
  for (guint i = 0; i < keys->len; i++)
    tress_curve_get_key (c, g_array_index (keys, guint, i))->interp = interp;
  return TRUE;
}

gboolean
tress_curve_edit_set_tangent (TressCurve *c, GArray *keys, TressTangentEdit mode, GError **error)
{
  if (c->limits.slopes_derived)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   _ ("%s stores no slopes: they follow from its interpolation"), curve_name (c));
      return FALSE;
    }
  if (mode == TRESS_TANGENT_EDIT_BROKEN && c->limits.tied_tangents)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   _ ("%s stores one slope per key: in and out slopes cannot differ"),
                   curve_name (c));
      return FALSE;
    }
  for (guint i = 0; i < keys->len; i++)
    {
      guint ki = g_array_index (keys, guint, i);
      TressKey *k = tress_curve_get_key (c, ki);

      switch (mode)
        {
        case TRESS_TANGENT_EDIT_BROKEN:
          k->flags |= TRESS_KEY_BROKEN;
          break;
        case TRESS_TANGENT_EDIT_UNIFIED:
          k->flags &= ~TRESS_KEY_BROKEN;
          k->in_slope = k->out_slope = (k->in_slope + k->out_slope) / 2;
          break;
        case TRESS_TANGENT_EDIT_AUTO:
        case TRESS_TANGENT_EDIT_AUTO_CLAMPED:
        case TRESS_TANGENT_EDIT_FLAT:
        case TRESS_TANGENT_EDIT_LINEAR:
        case TRESS_TANGENT_EDIT_MANUAL:
        default:
          k->tangent
              = mode <= TRESS_TANGENT_EDIT_LINEAR ? (TressTangentMode)mode : TRESS_TANGENT_MANUAL;
          tress_curve_update_tangent (c, ki);
          tress_curve_get_key (c, ki)->flags &= ~TRESS_KEY_BROKEN;
          break;
        }
    }
  return TRUE;
}

gboolean
tress_curve_edit_set_slopes (TressCurve *c, GArray *keys, guint index, double in_slope,
                             double out_slope, GError **error)
{
  TressKey *k;

  if (index >= tress_curve_get_n_keys (c))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, _ ("there is no key %u"), index);
      return FALSE;
    }
  if (c->limits.slopes_derived)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   _ ("%s stores no slopes: they follow from its interpolation"), curve_name (c));
      return FALSE;
    }
  if (!tress_curve_check_key_slopes (c, index, error))
    return FALSE;
  if (c->limits.tied_tangents && in_slope != out_slope)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   _ ("%s stores one slope per key: in and out slopes cannot differ"),
                   curve_name (c));
      return FALSE;
    }
  k = tress_curve_get_key (c, index);
  k->tangent = TRESS_TANGENT_MANUAL;
  k->in_slope = in_slope;
  k->out_slope = out_slope;
  if (in_slope != out_slope)
    k->flags |= TRESS_KEY_BROKEN;
  return TRUE;
}

gboolean
tress_curve_edit_set_key (TressCurve *c, GArray *keys, guint index, const TressKey *value,
                          GError **error)
{
  TressKey v = *value;
  TressKey *k;

  if (index >= tress_curve_get_n_keys (c))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, _ ("there is no key %u"), index);
      return FALSE;
    }
  k = tress_curve_get_key (c, index);
  if (c->limits.tied_tangents && v.in_slope != v.out_slope)
    {
      /* The slope that changed wins. Both changed, to two values: the limits
       * refuse it, rather than one being dropped unseen. */
      gboolean in_changed = v.in_slope != k->in_slope, out_changed = v.out_slope != k->out_slope;

      if (in_changed && !out_changed)
        v.out_slope = v.in_slope;
      else if (!in_changed)
        v.in_slope = v.out_slope;
    }
  if (v.in_slope != k->in_slope || v.out_slope != k->out_slope)
    {
      /* Slopes the format would not store are refused, not dropped unseen. */
      TressKey was = *k;

      *k = v; /* with its new interpolation */
      if (!tress_curve_check_key_slopes (c, index, error))
        {
          *k = was;
          return FALSE;
        }
      v.tangent = TRESS_TANGENT_MANUAL;
    }
  *k = v;
  g_array_set_size (keys, 0);
  g_array_append_val (keys, index);
  if (!tress_curve_sort_tracking (c, keys))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, _ ("a key already sits at frame %g"),
                   v.frame);
      return FALSE;
    }
  tress_curve_update_tangents_around (c, g_array_index (keys, guint, 0));
  return TRUE;
}

gboolean
tress_curve_edit_bake (TressCurve *c, GArray *keys, GError **error)
{
  g_autoptr (TressCurve) baked = NULL;
  guint n = tress_curve_get_n_keys (c);

  if (n < 2)
    return TRUE;
  if (!(c->limits.interp_mask & TRESS_INTERP_MASK (TRESS_INTERP_BAKED)))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, _ ("%s cannot hold baked samples"),
                   curve_name (c));
      return FALSE;
    }
  baked = tress_curve_bake (c, tress_curve_get_key (c, 0)->frame,
                            tress_curve_get_key (c, n - 1)->frame);
  if (baked == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   _ ("%s spans more than %d frames: too many to bake one sample each"),
                   curve_name (c), TRESS_CURVE_MAX_BAKED);
      return FALSE;
    }
  g_array_set_size (c->keys, 0);
  g_array_append_vals (c->keys, baked->keys->data, baked->keys->len);
  g_array_set_size (keys, 0);
  return TRUE;
}

gboolean
tress_curve_edit_fit (TressCurve *c, GArray *keys, double tolerance, GError **error)
{
  g_autoptr (TressCurve) fit = NULL;
  g_autoptr (TressCurve) samples = NULL;
  TressInterp interp;
  guint n = tress_curve_get_n_keys (c);
  gboolean baked = n > 0;

  /* Hermite keys only where the format stores their slopes: where it derives
   * them (NIFF1 KEY records) the fitted slopes would be lost, and the shape. */
  if ((c->limits.interp_mask & TRESS_INTERP_MASK (TRESS_INTERP_HERMITE))
      && !c->limits.slopes_derived)
    interp = TRESS_INTERP_HERMITE;
  else if (c->limits.interp_mask & TRESS_INTERP_MASK (TRESS_INTERP_LINEAR))
    interp = TRESS_INTERP_LINEAR;
  else
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   _ ("%s can hold neither Hermite nor linear keys"), curve_name (c));
      return FALSE;
    }
  /* The fit follows samples, one a frame: keys that are not samples are
   * sampled first, so that it follows the curve's shape, not its keys. */
  for (guint i = 0; i < n && baked; i++)
    baked = tress_curve_get_key (c, i)->interp == TRESS_INTERP_BAKED;
  if (!baked && n > 1)
    {
      samples = tress_curve_bake (c, tress_curve_get_key (c, 0)->frame,
                                  tress_curve_get_key (c, n - 1)->frame);
      if (samples == NULL)
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       _ ("%s spans more than %d frames: too many to fit"), curve_name (c),
                       TRESS_CURVE_MAX_BAKED);
          return FALSE;
        }
    }
  fit = tress_curve_fit (samples != NULL ? samples : c, tolerance, interp);
  g_array_set_size (c->keys, 0);
  g_array_append_vals (c->keys, fit->keys->data, fit->keys->len);
  g_array_set_size (keys, 0);
  return TRUE;
}

/* -------------------------------------------------------------- unwrap -- */

/* How unwrapping changes a key of one curve: value' = sign · value + offset. */
typedef struct
{
  double sign;
  double offset;
} Turn;

#define TURN (2 * G_PI)

/* @v moved by whole turns to the nearest of @target. */
static double
nearest_turn (double v, double target)
{
  return v + TURN * round ((target - v) / TURN);
}

/* Whether @v is an angle as an exporter that wraps writes it: within −π…π
 * (and the float nearest π). A change between keys stored outside that
 * range is motion the file spells out (a fast spin between sparse keys), not
 * a wrap, and is kept. */
static gboolean
is_wrapped (double v)
{
  return fabs (v) <= G_PI + 1e-6;
}

/* The whole turns to take off the change from key @i − 1 to key @i of @c (as
 * stored) where it is a wrap, 0 where it is motion. Between two wrapped
 * values, the nearest turn (an exporter wrapped them). Otherwise only a
 * change of more than half a turn, on the segment's own evidence: a step
 * segment shows the same rotation at every frame either way, so it is
 * unwrapped; a Hermite segment when its slopes deny the jump, the change
 * they make (their mean times the segment's length) lying at least twice as
 * near the change less whole turns as the change itself (a key moved a turn
 * away from its neighbours, its slopes left as they were); where they carry
 * the jump (a fast spin spelled out between sparse keys) it is kept, as on
 * linear and baked segments, which have nothing but their two values. */
static double
wrap_turns (const TressCurve *c, guint i)
{
  const TressKey *a = tress_curve_get_key (c, i - 1), *b = tress_curve_get_key (c, i);
  double d = b->value - a->value, k, s;

  if (is_wrapped (a->value) && is_wrapped (b->value))
    return round (d / TURN);
  if (fabs (d) <= G_PI)
    return 0;
  k = round (d / TURN);
  switch (a->interp)
    {
    case TRESS_INTERP_STEP:
      return k;
    case TRESS_INTERP_HERMITE:
      s = (b->frame - a->frame) * (a->out_slope + b->in_slope) / 2;
      return fabs (d - k * TURN - s) <= fabs (d - s) / 2 ? k : 0;
    default:
      return 0;
    }
}

static gboolean
same_turn (const Turn *a, const Turn *b)
{
  return a->sign == b->sign && a->offset == b->offset;
}

/* Whether @slope is the secant of keys @a < @b of @raw, within the rounding of
 * the floats it was stored in. */
static gboolean
is_secant (const TressKey *raw, guint a, guint b, double slope, double *secant)
{
  double d = raw[b].frame - raw[a].frame;

  if (d <= 0)
    return FALSE;
  *secant = (tress_key_in_value (&raw[b]) - raw[a].value) / d;
  return fabs (slope - *secant) <= 1e-4 * fabs (*secant) + 1e-9;
}

/* A slope of key @i of @raw that is a secant across a change of turn (to a
 * neighbour, or between both) becomes that secant of @c's new values;
 * otherwise it turns with its key. @out: the out slope, else the in slope. */
static double
turned_slope (const TressCurve *c, const TressKey *raw, const Turn *t, guint n, guint i,
              gboolean out)
{
  double slope = out ? raw[i].out_slope : raw[i].in_slope, secant;
  /* The secants an exporter may have stored, the likeliest first. */
  guint pairs[3][2] = { { i, i + 1 }, { i - 1, i + 1 }, { i - 1, i } };

  if (!out)
    {
      pairs[0][0] = i - 1, pairs[0][1] = i;
      pairs[2][0] = i, pairs[2][1] = i + 1;
    }
  for (guint p = 0; p < 3; p++)
    {
      guint a = pairs[p][0], b = pairs[p][1];

      /* (i − 1 wraps around for the first key: out of range.) */
      if (a >= n || b >= n || same_turn (&t[a], &t[b]) || !is_secant (raw, a, b, slope, &secant))
        continue;
      return (tress_key_in_value (tress_curve_get_key (c, b)) - tress_curve_get_key (c, a)->value)
             / (raw[b].frame - raw[a].frame);
    }
  return t[i].sign * slope;
}

/* Gives @c's keys their turns. */
static void
apply_turns (TressCurve *c, const Turn *t)
{
  guint n = tress_curve_get_n_keys (c);
  g_autofree TressKey *raw = g_memdup2 (c->keys->data, (gsize)n * sizeof (TressKey));

  /* Both values of a key turn alike: the one it leaves with and the one it is reached with. */
  for (guint i = 0; i < n; i++)
    {
      TressKey *k = tress_curve_get_key (c, i);

      k->value = t[i].sign * raw[i].value + t[i].offset;
      k->in_gap = (float)(t[i].sign * raw[i].in_gap);
    }
  for (guint i = 0; i < n; i++)
    {
      TressKey *k = tress_curve_get_key (c, i);

      k->in_slope = turned_slope (c, raw, t, n, i, FALSE);
      k->out_slope = turned_slope (c, raw, t, n, i, TRUE);
    }
}

static gboolean
refuse_no_angles (const TressCurve *c, GError **error)
{
  g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
               _ ("%s holds no angles: there is nothing to unwrap"), curve_name (c));
  return FALSE;
}

gboolean
tress_curve_edit_unwrap (TressCurve *c, GArray *keys, GError **error)
{
  guint n = tress_curve_get_n_keys (c);
  g_autofree Turn *t = NULL;

  if (!c->angle)
    return refuse_no_angles (c, error);
  if (n == 0)
    return TRUE;
  t = g_new (Turn, n);
  t[0] = (Turn){ 1, 0 };
  /* Each key takes the turns of the key before, less those of the jump to it. */
  for (guint i = 1; i < n; i++)
    {
      t[i] = t[i - 1];
      t[i].offset -= TURN * wrap_turns (c, i);
    }
  apply_turns (c, t);
  return TRUE;
}

gboolean
tress_curve_needs_unwrap (const TressCurve *c)
{
  guint n = tress_curve_get_n_keys (c);

  if (!c->angle)
    return FALSE;
  for (guint i = 1; i < n; i++)
    if (wrap_turns (c, i) != 0)
      return TRUE;
  return FALSE;
}

guint
tress_curve_count_jumps (const TressCurve *c)
{
  guint n = tress_curve_get_n_keys (c), jumps = 0;

  for (guint i = 1; c->angle && i < n; i++)
    jumps
        += fabs (tress_curve_get_key (c, i)->value - tress_curve_get_key (c, i - 1)->value) > G_PI;
  return jumps;
}

gboolean
tress_curve_edit_unwrap_euler (TressCurve *xyz[3], TressEulerOrder order, GError **error)
{
  guint n = tress_curve_get_n_keys (xyz[0]);
  guint middle = tress_euler_order_middle_axis (order);
  Turn *t[3] = { NULL };

  for (guint a = 0; a < 3; a++)
    if (!xyz[a]->angle)
      return refuse_no_angles (xyz[a], error);
  for (guint a = 1; a < 3; a++)
    {
      gboolean same = tress_curve_get_n_keys (xyz[a]) == n;

      for (guint i = 0; i < n && same; i++)
        same = tress_curve_get_key (xyz[a], i)->frame == tress_curve_get_key (xyz[0], i)->frame;
      if (!same)
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       _ ("%s and %s have keys at different frames: their rotation cannot be "
                          "unwrapped as one"),
                       curve_name (xyz[0]), curve_name (xyz[a]));
          return FALSE;
        }
    }
  if (n == 0)
    return TRUE;
  for (guint a = 0; a < 3; a++)
    {
      t[a] = g_new (Turn, n);
      t[a][0] = (Turn){ 1, 0 };
    }
  for (guint i = 1; i < n; i++)
    {
      Turn best[3];
      double best_d = G_MAXDOUBLE;
      gboolean wrapped = TRUE;

      for (guint a = 0; a < 3; a++)
        wrapped = wrapped && is_wrapped (tress_curve_get_key (xyz[a], i)->value)
                  && is_wrapped (tress_curve_get_key (xyz[a], i - 1)->value);
      if (!wrapped)
        {
          /* Not all as a wrapping exporter writes them: each angle on its own,
           * as tress_curve_edit_unwrap() takes it (a spin the file spells out
           * keeps its change). */
          for (guint a = 0; a < 3; a++)
            {
              t[a][i] = t[a][i - 1];
              t[a][i].offset -= t[a][i].sign * TURN * wrap_turns (xyz[a], i);
            }
          continue;
        }

      /* The angles as stored, then the other triple of the same rotation. */
      for (int flip = 0; flip < 2; flip++)
        {
          Turn cand[3];
          double d = 0;

          for (guint a = 0; a < 3; a++)
            {
              double raw = tress_curve_get_key (xyz[a], i)->value;
              double before = t[a][i - 1].sign * tress_curve_get_key (xyz[a], i - 1)->value
                              + t[a][i - 1].offset;
              double sign = flip && a == middle ? -1 : 1;
              double v = nearest_turn (sign * raw + (flip ? G_PI : 0), before);

              cand[a] = (Turn){ sign, v - sign * raw };
              d += fabs (v - before);
            }
          /* A flip wins only when clearly nearer (not on a tie). */
          if (d < best_d - 1e-9)
            {
              memcpy (best, cand, sizeof best);
              best_d = d;
            }
        }
      for (guint a = 0; a < 3; a++)
        t[a][i] = best[a];
    }
  for (guint a = 0; a < 3; a++)
    {
      apply_turns (xyz[a], t[a]);
      g_free (t[a]);
    }
  return TRUE;
}

void
tress_curve_edit_set_unwrap_group (TressCurveEdit *edit, const TressCurve *const *curves,
                                   guint n_curves, guint i)
{
  const TressCurve *c = curves[i];

  memset (edit->euler, 0, sizeof edit->euler);
  if (c->euler_order == TRESS_EULER_NONE || c->euler_group == NULL || c->euler_axis > 2)
    return;
  for (guint j = 0; j < n_curves; j++)
    {
      const TressCurve *o = curves[j];

      if (o->angle && o->euler_order == c->euler_order && o->euler_axis <= 2
          && g_strcmp0 (o->euler_group, c->euler_group) == 0 && edit->euler[o->euler_axis] == NULL)
        edit->euler[o->euler_axis] = o;
    }
  if (edit->euler[0] == NULL || edit->euler[1] == NULL || edit->euler[2] == NULL)
    memset (edit->euler, 0, sizeof edit->euler);
}

/* An UNWRAP of @c: with the Euler filter when its rotation's three curves are
 * given and keyed alike, else of @c alone. */
static gboolean
edit_unwrap (const TressCurveEdit *e, TressCurve *c, GArray *keys, GError **error)
{
  TressCurve *xyz[3] = { NULL };
  gboolean ok = FALSE, together = e->euler[0] != NULL && e->euler[1] != NULL && e->euler[2] != NULL
                                  && c->euler_axis <= 2;

  if (!together)
    return tress_curve_edit_unwrap (c, keys, error);
  /* The curve as it is now, its siblings as they were given. */
  for (guint a = 0; a < 3; a++)
    xyz[a] = tress_curve_copy (a == c->euler_axis ? c : e->euler[a]);
  if (tress_curve_edit_unwrap_euler (xyz, c->euler_order, NULL))
    {
      g_array_set_size (c->keys, 0);
      g_array_append_vals (c->keys, xyz[c->euler_axis]->keys->data,
                           tress_curve_get_n_keys (xyz[c->euler_axis]));
      ok = TRUE;
    }
  for (guint a = 0; a < 3; a++)
    tress_curve_unref (xyz[a]);
  /* Keyed at other frames: each angle on its own. */
  return ok || tress_curve_edit_unwrap (c, keys, error);
}

gboolean
tress_curve_edit_apply (const TressCurveEdit *e, TressCurve *curve, GArray *keys, GError **error)
{
  switch (e->kind)
    {
    case TRESS_CURVE_EDIT_MOVE:
      return tress_curve_edit_move (curve, keys, e->d_frame, e->d_value, error);
    case TRESS_CURVE_EDIT_SCALE:
      return tress_curve_edit_scale (curve, keys, e->pivot_frame, e->frame_factor, e->value_factor,
                                     e->value_at_pivot, error);
    case TRESS_CURVE_EDIT_INSERT:
      return tress_curve_edit_insert (curve, keys, e->frame, error);
    case TRESS_CURVE_EDIT_DELETE:
      return tress_curve_edit_delete (curve, keys, error);
    case TRESS_CURVE_EDIT_DUPLICATE:
      return tress_curve_edit_duplicate (curve, keys, e->d_frame, error);
    case TRESS_CURVE_EDIT_PASTE:
      return tress_curve_edit_paste (curve, keys, e->src, e->n_src, e->d_frame, error);
    case TRESS_CURVE_EDIT_INTERP:
      return tress_curve_edit_set_interp (curve, keys, e->interp, error);
    case TRESS_CURVE_EDIT_TANGENT:
      return tress_curve_edit_set_tangent (curve, keys, e->tangent, error);
    case TRESS_CURVE_EDIT_SET_KEY:
      return tress_curve_edit_set_key (curve, keys, e->key, &e->value, error);
    case TRESS_CURVE_EDIT_SET_SLOPES:
      return tress_curve_edit_set_slopes (curve, keys, e->key, e->value.in_slope,
                                          e->value.out_slope, error);
    case TRESS_CURVE_EDIT_BAKE:
      return tress_curve_edit_bake (curve, keys, error);
    case TRESS_CURVE_EDIT_FIT:
      return tress_curve_edit_fit (curve, keys, e->tolerance, error);
    case TRESS_CURVE_EDIT_UNWRAP:
      return edit_unwrap (e, curve, keys, error);
    default:
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, _ ("unknown curve edit %d"), e->kind);
      return FALSE;
    }
}

/* ------------------------------------------------------------- labels -- */

/* The interpolation as undo labels name it. */
static const char *
interp_label (TressInterp interp)
{
  switch (interp)
    {
    case TRESS_INTERP_STEP:
      return C_ ("interpolation", "step");
    case TRESS_INTERP_LINEAR:
      return C_ ("interpolation", "linear");
    case TRESS_INTERP_HERMITE:
      return C_ ("interpolation", "Hermite");
    case TRESS_INTERP_BAKED:
    default:
      return C_ ("interpolation", "baked");
    }
}

/* The tangent mode as undo labels name it. */
static const char *
tangent_label (TressTangentEdit mode)
{
  switch (mode)
    {
    case TRESS_TANGENT_EDIT_AUTO:
      return C_ ("tangent", "auto");
    case TRESS_TANGENT_EDIT_AUTO_CLAMPED:
      return C_ ("tangent", "auto clamped");
    case TRESS_TANGENT_EDIT_FLAT:
      return C_ ("tangent", "flat");
    case TRESS_TANGENT_EDIT_LINEAR:
      return C_ ("tangent", "linear");
    case TRESS_TANGENT_EDIT_UNIFIED:
      return C_ ("tangent", "unified");
    case TRESS_TANGENT_EDIT_BROKEN:
      return C_ ("tangent", "broken");
    case TRESS_TANGENT_EDIT_MANUAL:
    default:
      return C_ ("tangent", "manual");
    }
}

char *
tress_curve_edit_dup_label (const TressCurveEdit *e, guint n)
{
  switch (e->kind)
    {
    case TRESS_CURVE_EDIT_MOVE:
      /* A move in time alone says by how much ("Move 12 keys by 2 frames"). */
      if (e->d_value == 0 && e->d_frame != 0)
        {
          g_autofree char *by
              = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%g frame", "%g frames",
                                              fabs (e->d_frame) == 1 ? 1 : 2),
                                 e->d_frame);

          /* TRANSLATORS: %u counts keys, %s is a number of frames ("2 frames") */
          return g_strdup_printf (
              g_dngettext (GETTEXT_PACKAGE, "Move %u key by %s", "Move %u keys by %s", n), n, by);
        }
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Move %u key", "Move %u keys", n), n);
    case TRESS_CURVE_EDIT_SCALE:
      /* A scale in time alone says by what and about which frame. */
      if (e->value_factor == 1 && !e->value_at_pivot)
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "Scale %u key in time by %g about frame %g",
                                             "Scale %u keys in time by %g about frame %g", n),
                                n, e->frame_factor, e->pivot_frame + 0.0 /* not -0 */);
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Scale %u key", "Scale %u keys", n), n);
    case TRESS_CURVE_EDIT_INSERT:
      return g_strdup_printf (_ ("Insert key at frame %g"), e->frame);
    case TRESS_CURVE_EDIT_DELETE:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Delete %u key", "Delete %u keys", n),
                              n);
    case TRESS_CURVE_EDIT_DUPLICATE:
      return g_strdup_printf (
          g_dngettext (GETTEXT_PACKAGE, "Duplicate %u key", "Duplicate %u keys", n), n);
    case TRESS_CURVE_EDIT_PASTE:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Paste %u key", "Paste %u keys", n), n);
    case TRESS_CURVE_EDIT_INTERP:
      return g_strdup_printf (
          /* TRANSLATORS: the last %s is an interpolation ("Hermite") */
          g_dngettext (GETTEXT_PACKAGE, "Set interpolation of %u key to %s",
                       "Set interpolation of %u keys to %s", n),
          n, interp_label (e->interp));
    case TRESS_CURVE_EDIT_TANGENT:
      return g_strdup_printf (
          /* TRANSLATORS: the last %s is a tangent mode ("auto clamped") */
          g_dngettext (GETTEXT_PACKAGE, "Set tangents of %u key to %s",
                       "Set tangents of %u keys to %s", n),
          n, tangent_label (e->tangent));
    case TRESS_CURVE_EDIT_SET_KEY:
      return g_strdup_printf (_ ("Edit key %u"), e->key);
    case TRESS_CURVE_EDIT_SET_SLOPES:
      return g_strdup (_ ("Change slope"));
    case TRESS_CURVE_EDIT_BAKE:
      return g_strdup (_ ("Bake to samples"));
    case TRESS_CURVE_EDIT_FIT:
      return g_strdup_printf (_ ("Convert samples to keys (tolerance %g)"), e->tolerance);
    case TRESS_CURVE_EDIT_UNWRAP:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Unwrap the angles of %u curve",
                                           "Unwrap the angles of %u curves", n),
                              n);
    default:
      return g_strdup (_ ("Edit curves"));
    }
}

/* --------------------------------------------------------------- batch -- */

typedef struct
{
  guint id;
  TressCurveEdit edit;
  TressCurve *before;  /* the curve as it was added */
  GArray *before_keys; /* its selected keys then */
  TressCurve *after;   /* the edited copy */
  GArray *keys;        /* where the selected keys are in it */
  gboolean past_end;
} Target;

struct _TressCurveEditBatch
{
  GArray *targets; /* Target: the curves the edit changes */
  TressCurveEdit last;
  gboolean any;
  double end;
};

static void
target_clear (Target *t)
{
  g_clear_pointer (&t->before, tress_curve_unref);
  g_clear_pointer (&t->before_keys, g_array_unref);
  g_clear_pointer (&t->after, tress_curve_unref);
  g_clear_pointer (&t->keys, g_array_unref);
}

TressCurveEditBatch *
tress_curve_edit_batch_new (void)
{
  TressCurveEditBatch *batch = g_new0 (TressCurveEditBatch, 1);

  batch->targets = g_array_new (FALSE, TRUE, sizeof (Target));
  g_array_set_clear_func (batch->targets, (GDestroyNotify)target_clear);
  return batch;
}

void
tress_curve_edit_batch_free (TressCurveEditBatch *batch)
{
  if (batch == NULL)
    return;
  g_array_unref (batch->targets);
  g_free (batch);
}

gboolean
tress_curve_edit_batch_add (TressCurveEditBatch *batch, guint id, const TressCurve *curve,
                            const guint *keys, guint n_keys, const TressCurveEdit *edit,
                            GError **error)
{
  Target t = { id, *edit };
  g_autoptr (TressCurve) copy = tress_curve_copy (curve);
  g_autoptr (GArray) sel = g_array_sized_new (FALSE, FALSE, sizeof (guint), n_keys);

  g_return_val_if_fail (batch != NULL && curve != NULL, FALSE);
  batch->last = *edit;
  batch->any = TRUE;
  g_array_append_vals (sel, keys, n_keys);
  t.before_keys = g_array_copy (sel);
  if (!tress_curve_edit_apply (edit, copy, sel, error))
    {
      g_array_unref (t.before_keys);
      return FALSE;
    }
  /* An edit that ends where it began (a value rounded back) changes nothing. */
  if (tress_curve_same_keys (copy, curve))
    {
      g_array_unref (t.before_keys);
      return TRUE;
    }
  if (copy->limits.fixed_key_count
      && tress_curve_get_n_keys (copy) != tress_curve_get_n_keys (curve))
    {
      g_array_unref (t.before_keys);
      return refuse_fixed_count (curve, error);
    }
  if (!tress_curve_check_limits (copy, NULL))
    {
      if (!tress_curve_only_past_end (copy))
        {
          g_array_unref (t.before_keys);
          return tress_curve_check_limits (copy, error); /* the reason */
        }
      /* Accepted for now: the edit may apply once the animation is longer. */
      t.past_end = TRUE;
      batch->end = MAX (
          batch->end, ceil (tress_curve_get_key (copy, tress_curve_get_n_keys (copy) - 1)->frame));
    }
  t.before = tress_curve_copy (curve);
  t.after = g_steal_pointer (&copy);
  t.keys = g_steal_pointer (&sel);
  g_array_append_val (batch->targets, t);
  return TRUE;
}

static Target *
target_at (TressCurveEditBatch *batch, guint i)
{
  return &g_array_index (batch->targets, Target, i);
}

guint
tress_curve_edit_batch_get_n_changed (TressCurveEditBatch *batch)
{
  return batch->targets->len;
}

guint
tress_curve_edit_batch_get_id (TressCurveEditBatch *batch, guint i)
{
  g_return_val_if_fail (i < batch->targets->len, 0);
  return target_at (batch, i)->id;
}

TressCurve *
tress_curve_edit_batch_get_curve (TressCurveEditBatch *batch, guint i)
{
  g_return_val_if_fail (i < batch->targets->len, NULL);
  return target_at (batch, i)->after;
}

GArray *
tress_curve_edit_batch_get_keys (TressCurveEditBatch *batch, guint i)
{
  g_return_val_if_fail (i < batch->targets->len, NULL);
  return target_at (batch, i)->keys;
}

gboolean
tress_curve_edit_batch_get_past_end (TressCurveEditBatch *batch, guint i)
{
  g_return_val_if_fail (i < batch->targets->len, FALSE);
  return target_at (batch, i)->past_end;
}

double
tress_curve_edit_batch_get_end (TressCurveEditBatch *batch)
{
  return batch->end;
}

char *
tress_curve_edit_batch_dup_label (TressCurveEditBatch *batch, guint n_keys)
{
  gboolean all_uniform = batch->targets->len > 0;

  if (!batch->any)
    return NULL;
  if (batch->last.kind == TRESS_CURVE_EDIT_INTERP)
    {
      for (guint i = 0; i < batch->targets->len && all_uniform; i++)
        all_uniform = target_at (batch, i)->after->limits.uniform_interp;
      if (all_uniform && batch->targets->len == 1)
        {
          const TressCurve *c = target_at (batch, 0)->after;
          guint n = tress_curve_get_n_keys (c);

          return g_strdup_printf (
              /* TRANSLATORS: "Set interpolation of all 12 keys of Walk/Root/Rotate X to Hermite" */
              g_dngettext (GETTEXT_PACKAGE, "Set interpolation of all %u key of %s to %s",
                           "Set interpolation of all %u keys of %s to %s", n),
              n, curve_name (c), interp_label (batch->last.interp));
        }
      if (all_uniform)
        {
          guint n = batch->targets->len;

          return g_strdup_printf (
              /* TRANSLATORS: "Set interpolation of all keys of 3 curves to Hermite" */
              g_dngettext (GETTEXT_PACKAGE, "Set interpolation of all keys of %u curve to %s",
                           "Set interpolation of all keys of %u curves to %s", n),
              n, interp_label (batch->last.interp));
        }
    }
  /* An edit of one curve names it ("Move 1 key of Walk/Root/Rotate X"). */
  if (batch->targets->len == 1 && target_at (batch, 0)->after->path != NULL)
    {
      g_autofree char *base = tress_curve_edit_dup_label (&batch->last, n_keys);
      const char *path = target_at (batch, 0)->after->path;

      switch (batch->last.kind)
        {
        case TRESS_CURVE_EDIT_INTERP:
          return g_strdup_printf (
              /* TRANSLATORS: "Set interpolation of 2 keys of Walk/Root/Rotate X to Hermite" */
              g_dngettext (GETTEXT_PACKAGE, "Set interpolation of %u key of %s to %s",
                           "Set interpolation of %u keys of %s to %s", n_keys),
              n_keys, path, interp_label (batch->last.interp));
        case TRESS_CURVE_EDIT_TANGENT:
          return g_strdup_printf (
              /* TRANSLATORS: "Set tangents of 2 keys of Walk/Root/Rotate X to auto clamped" */
              g_dngettext (GETTEXT_PACKAGE, "Set tangents of %u key of %s to %s",
                           "Set tangents of %u keys of %s to %s", n_keys),
              n_keys, path, tangent_label (batch->last.tangent));
        case TRESS_CURVE_EDIT_MOVE:
        case TRESS_CURVE_EDIT_SCALE:
        case TRESS_CURVE_EDIT_INSERT:
        case TRESS_CURVE_EDIT_DELETE:
        case TRESS_CURVE_EDIT_DUPLICATE:
        case TRESS_CURVE_EDIT_PASTE:
        case TRESS_CURVE_EDIT_SET_KEY:
        case TRESS_CURVE_EDIT_SET_SLOPES:
          /* TRANSLATORS: an edit ("Move 2 keys") and the curve it changed */
          return g_strdup_printf (_ ("%s of %s"), base, path);
        default:
          return g_steal_pointer (&base);
        }
    }
  return tress_curve_edit_dup_label (&batch->last, n_keys);
}

gboolean
tress_curve_edit_batch_commit (TressCurveEditBatch *batch, TressCurveEditGetFunc get,
                               TressCurveEditSetFunc set, gpointer store, guint *n_stored,
                               GError **error)
{
  guint stored = 0;
  gboolean ok = TRUE;

  for (guint i = 0; i < batch->targets->len && ok; i++)
    {
      Target *t = target_at (batch, i);
      const TressCurve *now = get (store, t->id);

      if (now != NULL && !tress_curve_same_keys (now, t->before))
        {
          /* Changed by an earlier curve of this edit: edit what it holds now. */
          g_autoptr (TressCurve) again = tress_curve_copy (now);
          GArray *keys = tress_curve_remap_keys (t->before, t->before_keys, now);

          g_array_unref (t->keys);
          t->keys = keys;
          ok = tress_curve_edit_apply (&t->edit, again, keys, error)
               && (tress_curve_same_keys (again, now) || tress_curve_check_limits (again, error));
          if (!ok || tress_curve_same_keys (again, now))
            continue;
          tress_curve_unref (t->after);
          t->after = g_steal_pointer (&again);
        }
      ok = set (store, t->id, t->after, error);
      stored += ok;
    }
  if (n_stored != NULL)
    *n_stored = stored;
  return ok;
}
