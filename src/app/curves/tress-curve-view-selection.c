/* tress-curve-view-selection.c: the curve view's key selection and active key
 *
 * The selected keys and handles per curve (tress-curve-selection.h), the
 * active key, and the copies of the curves their indices refer to: a change
 * from outside the view (undo, redo) finds the selected keys again by frame.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-view-private.h"

#include <glib/gi18n.h>

/* Remembers @index's curve as the selection now sees it. */
void
_tress_curve_view_see_curve (TressCurveView *self, guint index)
{
  const TressCurve *c
      = self->document != NULL ? tress_curve_document_get_curve (self->document, index) : NULL;

  if (c != NULL)
    g_hash_table_replace (self->seen, GUINT_TO_POINTER (index), tress_curve_copy (c));
  else
    g_hash_table_remove (self->seen, GUINT_TO_POINTER (index));
}

gboolean
_tress_curve_view_sel_has (TressCurveView *self, guint curve, guint key, TressCurvePart part)
{
  return tress_curve_selection_contains (self->selection, curve, key, part);
}

/* Remembers the curve a newly selected curve's key indices refer to. */
void
_tress_curve_view_sel_see (TressCurveView *self, guint curve)
{
  if (!g_hash_table_contains (self->seen, GUINT_TO_POINTER (curve)))
    _tress_curve_view_see_curve (self, curve);
}

void
_tress_curve_view_sel_add (TressCurveView *self, guint curve, guint key, TressCurvePart part)
{
  if (tress_curve_selection_add (self->selection, curve, key, part))
    _tress_curve_view_sel_see (self, curve);
}

void
_tress_curve_view_sel_clear (TressCurveView *self)
{
  tress_curve_selection_clear (self->selection);
}

void
_tress_curve_view_set_active (TressCurveView *self, guint curve, guint key)
{
  self->has_active = TRUE;
  self->active_curve = curve;
  self->active_key = key;
  _tress_curve_view_sel_see (self, curve);
}

/* The selected key indices of one curve, sorted. */
GArray *
_tress_curve_view_selected_keys_of (TressCurveView *self, guint curve)
{
  return tress_curve_selection_dup_keys (self->selection, curve);
}

/* Replaces the selection of @curve by @keys (key parts). */
void
_tress_curve_view_replace_curve_selection (TressCurveView *self, guint curve, GArray *keys)
{
  tress_curve_selection_set_keys (self->selection, curve, (const guint *)keys->data, keys->len);
  if (keys->len > 0)
    _tress_curve_view_sel_see (self, curve);
  if (self->has_active && self->active_curve == curve)
    {
      if (keys->len > 0)
        self->active_key = g_array_index (keys, guint, 0);
      else
        self->has_active = FALSE;
    }
}

/* Drops the selected items of @curve that no longer exist (after a change of the curve). */
void
_tress_curve_view_prune_curve_selection (TressCurveView *self, guint curve)
{
  Slot *slot = _tress_curve_view_slot_for (self, curve);
  const TressCurve *c = slot ? _tress_curve_view_slot_curve (self, slot) : NULL;

  tress_curve_selection_prune (self->selection, curve, c);
  if (self->has_active && self->active_curve == curve
      && (c == NULL || self->active_key >= tress_curve_get_n_keys (c)))
    self->has_active = FALSE;
}

/* The same for every curve. */
void
_tress_curve_view_prune_selection (TressCurveView *self)
{
  g_autoptr (GArray) curves = tress_curve_selection_dup_curves (self->selection);

  for (guint i = 0; i < curves->len; i++)
    _tress_curve_view_prune_curve_selection (self, g_array_index (curves, guint, i));
  if (self->has_active)
    _tress_curve_view_prune_curve_selection (self, self->active_curve);
}

typedef struct
{
  const TressCurve *before;
  const TressCurve *now;
} FollowData;

static int
follow_key (guint key, gpointer data)
{
  FollowData *fd = data;

  return key < tress_curve_get_n_keys (fd->before) ? tress_curve_key_in (fd->before, key, fd->now)
                                                   : -1;
}

/* After @index changed from outside the view (undo, redo, another view), its
 * selected keys (and the active key) are found again by frame in what it holds
 * now; those gone are dropped. Indices alone would point at other keys. */
void
_tress_curve_view_follow_keys (TressCurveView *self, guint index)
{
  const TressCurve *before = g_hash_table_lookup (self->seen, GUINT_TO_POINTER (index));
  const TressCurve *now = tress_curve_document_get_curve (self->document, index);

  FollowData fd = { before, now };

  if (before == NULL || now == NULL || tress_curve_same_keys (before, now))
    return;
  tress_curve_selection_remap (self->selection, index, follow_key, &fd);
  if (self->has_active && self->active_curve == index)
    {
      int at = self->active_key < tress_curve_get_n_keys (before)
                   ? tress_curve_key_in (before, self->active_key, now)
                   : -1;

      if (at < 0)
        self->has_active = FALSE;
      else
        self->active_key = (guint)at;
    }
}

guint
_tress_curve_view_count_selected_keys (TressCurveView *self)
{
  return tress_curve_selection_get_n_keys (self->selection);
}

gboolean
tress_curve_view_is_selected (TressCurveView *self, guint curve_index, guint key,
                              TressCurvePart part)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), FALSE);
  return _tress_curve_view_sel_has (self, curve_index, key, part);
}

guint
tress_curve_view_get_n_selected_keys (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 0);
  return _tress_curve_view_count_selected_keys (self);
}

void
tress_curve_view_select_key (TressCurveView *self, guint curve_index, guint key,
                             TressCurvePart part, gboolean extend)
{
  Slot *s;
  const TressCurve *c;

  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  s = _tress_curve_view_slot_for (self, curve_index);
  c = s ? _tress_curve_view_slot_curve (self, s) : NULL;
  if (c == NULL || key >= tress_curve_get_n_keys (c))
    return;
  if (s->locked)
    {
      _tress_curve_view_set_message (self,
                                     _ ("This curve is locked: unlock it to select its keys"));
      return;
    }
  if (!extend)
    _tress_curve_view_sel_clear (self);
  _tress_curve_view_sel_add (self, curve_index, key, part);
  _tress_curve_view_set_active (self, curve_index, key);
  _tress_curve_view_emit_selection_changed (self);
}

void
tress_curve_view_select_all_of (TressCurveView *self, const guint *indices, guint n_indices)
{
  gboolean first = TRUE;

  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  _tress_curve_view_sel_clear (self);
  self->has_active = FALSE;
  for (guint i = 0; i < n_indices; i++)
    {
      Slot *s = _tress_curve_view_slot_for (self, indices[i]);
      const TressCurve *c = s != NULL ? _tress_curve_view_slot_curve (self, s) : NULL;

      if (c == NULL || s->locked || !_tress_curve_view_slot_shown (self, s)
          || tress_curve_get_n_keys (c) == 0)
        continue;
      tress_curve_selection_add_range (self->selection, s->index, tress_curve_get_n_keys (c));
      _tress_curve_view_sel_see (self, s->index);
      if (first)
        _tress_curve_view_set_active (self, s->index, 0);
      first = FALSE;
    }
  _tress_curve_view_emit_selection_changed (self);
}

void
tress_curve_view_select_none (TressCurveView *self)
{
  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  if (tress_curve_selection_get_n_items (self->selection) == 0 && !self->has_active)
    return;
  _tress_curve_view_sel_clear (self);
  self->has_active = FALSE;
  _tress_curve_view_emit_selection_changed (self);
}

gboolean
tress_curve_view_get_active_key (TressCurveView *self, guint *curve_index, guint *key)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), FALSE);
  if (!self->has_active)
    return FALSE;
  if (curve_index != NULL)
    *curve_index = self->active_curve;
  if (key != NULL)
    *key = self->active_key;
  return TRUE;
}
/* Every key of the shown curves that are not locked. */
void
_tress_curve_view_select_all (TressCurveView *self)
{

  _tress_curve_view_sel_clear (self);
  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);
      const TressCurve *c = _tress_curve_view_slot_curve (self, s);

      if (c == NULL || s->locked || !_tress_curve_view_slot_shown (self, s)
          || tress_curve_get_n_keys (c) == 0)
        continue;
      tress_curve_selection_add_range (self->selection, s->index, tress_curve_get_n_keys (c));
      _tress_curve_view_sel_see (self, s->index);
    }
  _tress_curve_view_emit_selection_changed (self);
}
