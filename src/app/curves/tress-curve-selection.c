/* tress-curve-selection.c: the selected keys and handles of the shown curves
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-selection.h"

#include <stdlib.h>

/* An item as one number: key * 4 + part, so sorting the numbers sorts by key,
 * then by part. Keys above 2^30 cannot exist (no format stores that many). */
#define CODE(key, part) (((guint32)(key) << 2) | ((guint32)(part)&3))
#define CODE_KEY(code) ((code) >> 2)
#define CODE_PART(code) ((TressCurvePart)((code)&3))
#define MAX_KEY (G_MAXUINT32 >> 2)

struct _TressCurveSelection
{
  GHashTable *curves; /* curve index → GArray of guint32 codes, sorted, unique, never empty */
  guint n_items;
  guint n_keys;
};

TressCurveSelection *
tress_curve_selection_new (void)
{
  TressCurveSelection *self = g_new0 (TressCurveSelection, 1);

  self->curves = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)g_array_unref);
  return self;
}

void
tress_curve_selection_free (TressCurveSelection *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->curves);
  g_free (self);
}

TressCurveSelection *
tress_curve_selection_copy (const TressCurveSelection *self)
{
  TressCurveSelection *copy;
  GHashTableIter iter;
  gpointer key, value;

  g_return_val_if_fail (self != NULL, NULL);
  copy = tress_curve_selection_new ();
  g_hash_table_iter_init (&iter, self->curves);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (copy->curves, key, g_array_copy (value));
  copy->n_items = self->n_items;
  copy->n_keys = self->n_keys;
  return copy;
}

static GArray *
codes_of (const TressCurveSelection *self, guint curve)
{
  return g_hash_table_lookup (self->curves, GUINT_TO_POINTER (curve));
}

/* Index of the first code >= @code. */
static guint
lower_bound (GArray *codes, guint32 code)
{
  guint lo = 0, hi = codes->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (codes, guint32, mid) < code)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
count_codes (TressCurveSelection *self, GArray *codes, int sign)
{
  for (guint i = 0; i < codes->len; i++)
    {
      self->n_items += sign;
      if (CODE_PART (g_array_index (codes, guint32, i)) == TRESS_CURVE_PART_KEY)
        self->n_keys += sign;
    }
}

gboolean
tress_curve_selection_contains (const TressCurveSelection *self, guint curve, guint key,
                                TressCurvePart part)
{
  GArray *codes;
  guint32 code;
  guint at;

  g_return_val_if_fail (self != NULL, FALSE);
  if (key > MAX_KEY || (codes = codes_of (self, curve)) == NULL)
    return FALSE;
  code = CODE (key, part);
  at = lower_bound (codes, code);
  return at < codes->len && g_array_index (codes, guint32, at) == code;
}

gboolean
tress_curve_selection_add (TressCurveSelection *self, guint curve, guint key, TressCurvePart part)
{
  GArray *codes;
  guint32 code;
  guint at;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (key <= MAX_KEY, FALSE);
  code = CODE (key, part);
  codes = codes_of (self, curve);
  if (codes == NULL)
    {
      codes = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_hash_table_insert (self->curves, GUINT_TO_POINTER (curve), codes);
    }
  /* Keys are most often added in order: append without a search. */
  if (codes->len == 0 || g_array_index (codes, guint32, codes->len - 1) < code)
    g_array_append_val (codes, code);
  else
    {
      at = lower_bound (codes, code);
      if (at < codes->len && g_array_index (codes, guint32, at) == code)
        return FALSE;
      g_array_insert_val (codes, at, code);
    }
  self->n_items++;
  if (part == TRESS_CURVE_PART_KEY)
    self->n_keys++;
  return TRUE;
}

gboolean
tress_curve_selection_remove (TressCurveSelection *self, guint curve, guint key,
                              TressCurvePart part)
{
  GArray *codes;
  guint32 code;
  guint at;

  g_return_val_if_fail (self != NULL, FALSE);
  if (key > MAX_KEY || (codes = codes_of (self, curve)) == NULL)
    return FALSE;
  code = CODE (key, part);
  at = lower_bound (codes, code);
  if (at >= codes->len || g_array_index (codes, guint32, at) != code)
    return FALSE;
  g_array_remove_index (codes, at);
  self->n_items--;
  if (part == TRESS_CURVE_PART_KEY)
    self->n_keys--;
  if (codes->len == 0)
    g_hash_table_remove (self->curves, GUINT_TO_POINTER (curve));
  return TRUE;
}

void
tress_curve_selection_clear (TressCurveSelection *self)
{
  g_return_if_fail (self != NULL);
  g_hash_table_remove_all (self->curves);
  self->n_items = self->n_keys = 0;
}

void
tress_curve_selection_clear_curve (TressCurveSelection *self, guint curve)
{
  GArray *codes;

  g_return_if_fail (self != NULL);
  if ((codes = codes_of (self, curve)) == NULL)
    return;
  count_codes (self, codes, -1);
  g_hash_table_remove (self->curves, GUINT_TO_POINTER (curve));
}

guint
tress_curve_selection_get_n_keys (const TressCurveSelection *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_keys;
}

guint
tress_curve_selection_get_n_items (const TressCurveSelection *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_items;
}

gboolean
tress_curve_selection_has_curve (const TressCurveSelection *self, guint curve)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return codes_of (self, curve) != NULL;
}

GArray *
tress_curve_selection_dup_keys (const TressCurveSelection *self, guint curve)
{
  GArray *keys = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *codes;

  g_return_val_if_fail (self != NULL, keys);
  if ((codes = codes_of (self, curve)) == NULL)
    return keys;
  for (guint i = 0; i < codes->len; i++)
    {
      guint32 code = g_array_index (codes, guint32, i);

      if (CODE_PART (code) == TRESS_CURVE_PART_KEY)
        {
          guint key = CODE_KEY (code);
          g_array_append_val (keys, key);
        }
    }
  return keys;
}

static int
compare_u32 (const void *a, const void *b)
{
  guint32 x = *(const guint32 *)a, y = *(const guint32 *)b;

  return x < y ? -1 : x > y;
}

/* Sorts @codes and drops duplicates; frees and forgets it when empty. */
static void
store_codes (TressCurveSelection *self, guint curve, GArray *codes)
{
  guint n = 0;

  if (codes->len > 1)
    qsort (codes->data, codes->len, sizeof (guint32), compare_u32);
  for (guint i = 0; i < codes->len; i++)
    if (n == 0 || g_array_index (codes, guint32, n - 1) != g_array_index (codes, guint32, i))
      g_array_index (codes, guint32, n++) = g_array_index (codes, guint32, i);
  g_array_set_size (codes, n);
  if (n == 0)
    {
      g_array_unref (codes);
      g_hash_table_remove (self->curves, GUINT_TO_POINTER (curve));
      return;
    }
  count_codes (self, codes, 1);
  g_hash_table_replace (self->curves, GUINT_TO_POINTER (curve), codes);
}

void
tress_curve_selection_set_keys (TressCurveSelection *self, guint curve, const guint *keys,
                                guint n_keys)
{
  GArray *codes;

  g_return_if_fail (self != NULL);
  tress_curve_selection_clear_curve (self, curve);
  codes = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n_keys);
  for (guint i = 0; i < n_keys; i++)
    if (keys[i] <= MAX_KEY)
      {
        guint32 code = CODE (keys[i], TRESS_CURVE_PART_KEY);
        g_array_append_val (codes, code);
      }
  store_codes (self, curve, codes);
}

void
tress_curve_selection_add_range (TressCurveSelection *self, guint curve, guint n_keys)
{
  GArray *old, *codes;

  g_return_if_fail (self != NULL);
  n_keys = MIN (n_keys, MAX_KEY + 1);
  old = codes_of (self, curve);
  codes = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n_keys + (old ? old->len : 0));
  if (old != NULL)
    g_array_append_vals (codes, old->data, old->len);
  for (guint k = 0; k < n_keys; k++)
    {
      guint32 code = CODE (k, TRESS_CURVE_PART_KEY);
      g_array_append_val (codes, code);
    }
  tress_curve_selection_clear_curve (self, curve);
  store_codes (self, curve, codes);
}

GArray *
tress_curve_selection_dup_curves (const TressCurveSelection *self)
{
  GArray *curves = g_array_new (FALSE, FALSE, sizeof (guint));
  GHashTableIter iter;
  gpointer key;

  g_return_val_if_fail (self != NULL, curves);
  g_hash_table_iter_init (&iter, self->curves);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      guint curve = GPOINTER_TO_UINT (key);
      g_array_append_val (curves, curve);
    }
  if (curves->len > 1)
    qsort (curves->data, curves->len, sizeof (guint), compare_u32);
  return curves;
}

void
tress_curve_selection_foreach_of (const TressCurveSelection *self, guint curve,
                                  TressCurveSelectionFunc func, gpointer data)
{
  GArray *codes;

  g_return_if_fail (self != NULL);
  if ((codes = codes_of (self, curve)) == NULL)
    return;
  for (guint i = 0; i < codes->len; i++)
    {
      guint32 code = g_array_index (codes, guint32, i);
      func (curve, CODE_KEY (code), CODE_PART (code), data);
    }
}

void
tress_curve_selection_remap (TressCurveSelection *self, guint curve, TressCurveSelectionMap map,
                             gpointer data)
{
  GArray *old, *codes;

  g_return_if_fail (self != NULL);
  if ((old = codes_of (self, curve)) == NULL)
    return;
  codes = g_array_sized_new (FALSE, FALSE, sizeof (guint32), old->len);
  for (guint i = 0; i < old->len; i++)
    {
      guint32 code = g_array_index (old, guint32, i);
      int to = map (CODE_KEY (code), data);

      if (to >= 0 && (guint)to <= MAX_KEY)
        {
          guint32 moved = CODE ((guint)to, CODE_PART (code));
          g_array_append_val (codes, moved);
        }
    }
  tress_curve_selection_clear_curve (self, curve);
  store_codes (self, curve, codes);
}

void
tress_curve_selection_prune (TressCurveSelection *self, guint curve, const TressCurve *curve_data)
{
  GArray *codes;
  guint n = 0, removed_items = 0, removed_keys = 0;

  g_return_if_fail (self != NULL);
  if ((codes = codes_of (self, curve)) == NULL)
    return;
  if (curve_data == NULL)
    {
      tress_curve_selection_clear_curve (self, curve);
      return;
    }
  for (guint i = 0; i < codes->len; i++)
    {
      guint32 code = g_array_index (codes, guint32, i);
      guint key = CODE_KEY (code);
      TressCurvePart part = CODE_PART (code);

      if (key < tress_curve_get_n_keys (curve_data)
          && (part == TRESS_CURVE_PART_KEY || tress_curve_key_has_handle (curve_data, key, part)))
        g_array_index (codes, guint32, n++) = code;
      else
        {
          removed_items++;
          removed_keys += part == TRESS_CURVE_PART_KEY;
        }
    }
  g_array_set_size (codes, n);
  self->n_items -= removed_items;
  self->n_keys -= removed_keys;
  if (n == 0)
    g_hash_table_remove (self->curves, GUINT_TO_POINTER (curve));
}

void
tress_curve_selection_filter_curves (TressCurveSelection *self, TressCurveSelectionKeep keep,
                                     gpointer data)
{
  g_autoptr (GArray) curves = NULL;

  g_return_if_fail (self != NULL);
  curves = tress_curve_selection_dup_curves (self);
  for (guint i = 0; i < curves->len; i++)
    if (!keep (g_array_index (curves, guint, i), data))
      tress_curve_selection_clear_curve (self, g_array_index (curves, guint, i));
}
