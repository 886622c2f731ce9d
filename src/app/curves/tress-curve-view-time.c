/* tress-curve-view-time.c: the curve view's key selection and time edits for the dope sheet
 *
 * The dope sheet shares the graph's key selection, its time axis and its
 * edits: it picks keys into a TressCurveSelection of its own and hands them
 * here, and its moves and scales in time run through the graph's edit path
 * (one undo step, the format's refusals and the store question included).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-view-private.h"

#include "tress-dope-sheet-keys.h"

const TressCurveSelection *
tress_curve_view_get_selection (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), NULL);
  return self->selection;
}

TressCurveGroups *
tress_curve_view_get_groups (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), NULL);
  return self->groups;
}

typedef struct
{
  TressCurveView *self;
  TressCurveSelectMode mode;
  gboolean has_active;
} Pick;

static void
pick_one (guint curve, guint key, TressCurvePart part, gpointer data)
{
  Pick *pick = data;
  TressCurveView *self = pick->self;

  if (part != TRESS_CURVE_PART_KEY)
    return;
  if (pick->mode == TRESS_CURVE_SELECT_TOGGLE
      && tress_curve_selection_remove (self->selection, curve, key, part))
    return;
  _tress_curve_view_sel_add (self, curve, key, part);
  if (!pick->has_active)
    _tress_curve_view_set_active (self, curve, key);
  pick->has_active = TRUE;
}

void
tress_curve_view_select_keys (TressCurveView *self, const TressCurveSelection *picked,
                              TressCurveSelectMode mode)
{
  g_autoptr (GArray) curves = NULL;
  Pick pick = { self, mode, FALSE };

  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  g_return_if_fail (picked != NULL);
  if (mode == TRESS_CURVE_SELECT_REPLACE)
    {
      _tress_curve_view_sel_clear (self);
      self->has_active = FALSE;
    }
  curves = tress_curve_selection_dup_curves (picked);
  for (guint i = 0; i < curves->len; i++)
    {
      guint index = g_array_index (curves, guint, i);
      Slot *s = _tress_curve_view_slot_for (self, index);
      const TressCurve *c = s != NULL ? _tress_curve_view_slot_curve (self, s) : NULL;

      /* Hidden and locked curves take no part, as in the graph. */
      if (c == NULL || s->locked || !_tress_curve_view_slot_shown (self, s))
        continue;
      tress_curve_selection_foreach_of (picked, index, pick_one, &pick);
      tress_curve_selection_prune (self->selection, index, c);
    }
  if (self->has_active
      && !tress_curve_selection_contains (self->selection, self->active_curve, self->active_key,
                                          TRESS_CURVE_PART_KEY))
    self->has_active = FALSE;
  _tress_curve_view_emit_selection_changed (self);
}

gboolean
tress_curve_view_move_keys_in_time (TressCurveView *self, double d_frame)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), FALSE);
  if (d_frame == 0)
    return FALSE;
  return _tress_curve_view_move (self, d_frame, 0);
}

gboolean
tress_curve_view_scale_keys_in_time (TressCurveView *self, double pivot, double factor)
{
  TressCurveEdit e = tress_dope_scale_edit (pivot, factor);
  guint n;

  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), FALSE);
  n = _tress_curve_view_count_selected_keys (self);
  if (n == 0 || factor == 1 || factor <= 0)
    return FALSE;
  return _tress_curve_view_apply_edit (self, &e, n, TARGET_SELECTED, NULL, NULL);
}

void
tress_curve_view_set_frames (TressCurveView *self, double first, double last)
{
  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  g_return_if_fail (last > first);
  self->vp.frame_min = first;
  self->vp.frame_max = last;
  _tress_curve_view_invalidate_lines (self);
}
