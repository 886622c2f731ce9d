/* tress-curve-view-commands.c: what the curve view's commands do
 *
 * Moving, nudging and scaling the selected keys, inserting, deleting and
 * duplicating keys, copy and paste, framing, stepping from key to key,
 * unwrapping angles: each gathers its targets and hands one edit to
 * _tress_curve_view_apply_edit() (-edits.c). The actions that run them, their
 * parameters and keys are in -actions.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-view-private.h"

#include <glib/gi18n.h>
#include <math.h>

#include "core/tress-curve-clipboard.h"

gboolean
_tress_curve_view_move (TressCurveView *self, double d_frame, double d_value)
{
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_MOVE, .d_frame = d_frame, .d_value = d_value };

  if (_tress_curve_view_count_selected_keys (self) == 0)
    return FALSE;
  return _tress_curve_view_apply_edit (self, &e, _tress_curve_view_count_selected_keys (self),
                                       TARGET_SELECTED, _tress_curve_view_prepare_move, NULL);
}

/* Where a curve's keys and drawn shape lie, in stored values. */
typedef struct
{
  TressCurve *curve; /* the version they were found for (a reference) */
  double fmin, fmax, vmin, vmax;
} Extents;

void
_tress_curve_view_extents_free (gpointer extents)
{
  Extents *e = extents;

  tress_curve_unref (e->curve);
  g_free (e);
}

/* The extents of @index's curve @c, found once per version of it: framing a
 * whole file again (every new selection is framed) costs a lookup a curve
 * instead of a walk over every key. */
static const Extents *
curve_extents (TressCurveView *self, guint index, const TressCurve *c)
{
  Extents *e = g_hash_table_lookup (self->extents, GUINT_TO_POINTER (index));
  guint n = tress_curve_get_n_keys (c);

  if (e != NULL && e->curve == c)
    return e;
  e = g_new (Extents, 1);
  e->curve = tress_curve_ref ((TressCurve *)c);
  e->fmin = e->vmin = G_MAXDOUBLE;
  e->fmax = e->vmax = -G_MAXDOUBLE;
  for (guint k = 0; k < n; k++)
    {
      const TressKey *key = tress_curve_get_key (c, k);

      e->fmin = MIN (e->fmin, key->frame);
      e->fmax = MAX (e->fmax, key->frame);
      e->vmin = MIN (e->vmin, key->value);
      e->vmax = MAX (e->vmax, key->value);
      /* The drawn shape between keys counts too. */
      if (key->interp == TRESS_INTERP_HERMITE && k + 1 < n)
        for (int q = 1; q < 4; q++)
          {
            double f = key->frame + (tress_curve_get_key (c, k + 1)->frame - key->frame) * q / 4;
            double sv = tress_curve_geometry_segment_value (c, k, f);

            e->vmin = MIN (e->vmin, sv);
            e->vmax = MAX (e->vmax, sv);
          }
    }
  g_hash_table_replace (self->extents, GUINT_TO_POINTER (index), e);
  return e;
}

void
_tress_curve_view_frame_all (TressCurveView *self, gboolean selected_only)
{
  double fmin = G_MAXDOUBLE, fmax = -G_MAXDOUBLE, vmin = G_MAXDOUBLE, vmax = -G_MAXDOUBLE;
  gboolean any = FALSE;

  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);
      const TressCurve *c = _tress_curve_view_slot_curve (self, s);
      TressValueMap map = _tress_curve_view_slot_map (self, s);
      guint n;

      if (c == NULL || !_tress_curve_view_slot_shown (self, s))
        continue;
      n = tress_curve_get_n_keys (c);
      if (!selected_only)
        {
          const Extents *e;
          double a, b;

          if (n == 0)
            continue;
          e = curve_extents (self, s->index, c);
          a = e->vmin * map.scale + map.offset;
          b = e->vmax * map.scale + map.offset;
          fmin = MIN (fmin, e->fmin);
          fmax = MAX (fmax, e->fmax);
          vmin = MIN (vmin, MIN (a, b));
          vmax = MAX (vmax, MAX (a, b));
          any = TRUE;
          continue;
        }
      for (guint k = 0; k < n; k++)
        {
          const TressKey *key = tress_curve_get_key (c, k);
          double v;

          if (!_tress_curve_view_sel_has (self, s->index, k, TRESS_CURVE_PART_KEY))
            continue;
          v = key->value * map.scale + map.offset;
          fmin = MIN (fmin, key->frame);
          fmax = MAX (fmax, key->frame);
          vmin = MIN (vmin, v);
          vmax = MAX (vmax, v);
          any = TRUE;
        }
    }
  if (!any)
    {
      if (selected_only)
        _tress_curve_view_frame_all (self, FALSE);
      return;
    }
  {
    /* The frame ruler covers the bottom rows: the keys fit above it. */
    TressCurveViewport fit = self->vp;

    fit.height = MAX (1, self->vp.height - RULER_HEIGHT);
    tress_curve_viewport_fit (&fit, fmin, fmax, vmin, vmax, FIT_MARGIN);
    self->vp.frame_min = fit.frame_min;
    self->vp.frame_max = fit.frame_max;
    self->vp.value_max = fit.value_max;
    self->vp.value_min
        = fit.value_min
          - (fit.value_max - fit.value_min) / fit.height * (self->vp.height - fit.height);
  }
  self->fitted = TRUE;
  self->framed_all = !selected_only;
  _tress_curve_view_invalidate_lines (self);
}

void
_tress_curve_view_step_key (TressCurveView *self, int direction)
{
  /* The nearest key of the shown curves before or after the playhead; the
   * playhead jumps there and, with one curve, the key becomes the selection. */
  double best = direction > 0 ? G_MAXDOUBLE : -G_MAXDOUBLE;
  int best_slot = -1, best_key = -1;

  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);
      const TressCurve *c = _tress_curve_view_slot_curve (self, s);
      guint n, lb;

      if (c == NULL || !_tress_curve_view_slot_shown (self, s)
          || (n = tress_curve_get_n_keys (c)) == 0)
        continue;
      lb = tress_curve_lower_bound (c, self->playhead);
      if (direction > 0)
        {
          while (lb < n && tress_curve_get_key (c, lb)->frame <= self->playhead + 1e-9)
            lb++;
          if (lb < n && tress_curve_get_key (c, lb)->frame < best)
            best = tress_curve_get_key (c, lb)->frame, best_slot = (int)i, best_key = (int)lb;
        }
      else if (lb > 0 && tress_curve_get_key (c, lb - 1)->frame > best)
        best = tress_curve_get_key (c, lb - 1)->frame, best_slot = (int)i, best_key = (int)lb - 1;
    }
  if (best_slot < 0)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  tress_curve_view_set_playhead (self, best);
  if (!g_array_index (self->slots, Slot, best_slot).locked)
    {
      guint idx = g_array_index (self->slots, Slot, best_slot).index;

      _tress_curve_view_sel_clear (self);
      _tress_curve_view_sel_add (self, idx, (guint)best_key, TRESS_CURVE_PART_KEY);
      _tress_curve_view_set_active (self, idx, (guint)best_key);
      _tress_curve_view_emit_selection_changed (self);
    }
}

void
_tress_curve_view_copy (TressCurveView *self)
{
  TressCurveClipboard *clip = tress_curve_clipboard_get_default ();
  g_autoptr (GPtrArray) paths = g_ptr_array_new ();
  g_autoptr (GArray) counts = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (TressKey));
  g_autofree char *msg = NULL;
  guint n_keys;

  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);
      g_autoptr (GArray) keys = _tress_curve_view_selected_keys_of (self, s->index);
      const TressCurve *c = _tress_curve_view_slot_curve (self, s);

      if (keys->len == 0 || c == NULL)
        continue;
      for (guint k = 0; k < keys->len; k++)
        g_array_append_val (all, *tress_curve_get_key (c, g_array_index (keys, guint, k)));
      g_ptr_array_add (paths, c->path != NULL ? c->path : (char *)"");
      g_array_append_val (counts, keys->len);
    }
  if (paths->len == 0)
    {
      _tress_curve_view_set_message (self, _ ("Nothing to copy: select keys first"));
      return;
    }
  /* Pasting in place puts the keys back at the frame they came from. */
  tress_curve_clipboard_set (clip, (const char *const *)paths->pdata, (const guint *)counts->data,
                             paths->len, (const TressKey *)all->data);
  n_keys = tress_curve_clipboard_get_n_keys (clip);
  msg = g_strdup_printf (ngettext ("Copied %u key", "Copied %u keys", n_keys), n_keys);
  _tress_curve_view_set_message (self, msg);
}

/* A paste's copied curve per target curve (document index → clipboard
 * curve + 1), worked out before the edit runs. */
static gboolean
prepare_paste (TressCurveView *self, Slot *slot, guint rank, TressCurveEdit *edit, gpointer data)
{
  TressCurveClipboard *clip = tress_curve_clipboard_get_default ();
  guint src = GPOINTER_TO_UINT (g_hash_table_lookup (data, GUINT_TO_POINTER (slot->index)));

  if (src == 0 || src > tress_curve_clipboard_get_n_curves (clip))
    return FALSE;
  edit->src = tress_curve_clipboard_get_keys (clip, src - 1, &edit->n_src);
  return TRUE;
}

gboolean
_tress_curve_view_paste (TressCurveView *self, gboolean at_playhead)
{
  TressCurveClipboard *clip = tress_curve_clipboard_get_default ();
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_PASTE };
  g_autoptr (GPtrArray) paths = g_ptr_array_new ();
  g_autoptr (GArray) targets = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GHashTable) src_of = g_hash_table_new (NULL, NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *onto = NULL, *label = NULL;
  g_autofree int *map = NULL;
  gboolean any_selected, ok;
  guint n;

  if (self->document == NULL)
    return FALSE;
  /* The targets the edit will take, in its order: the curves with selected
   * keys, else the active curve, else every shown one. */
  any_selected = tress_curve_selection_get_n_keys (self->selection) > 0;
  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);
      const TressCurve *c = tress_curve_document_get_curve (self->document, s->index);

      if (c == NULL || !_tress_curve_view_slot_is_target (self, s, TARGET_CURVES, any_selected))
        continue;
      g_ptr_array_add (paths, c->path != NULL ? c->path : (char *)"");
      g_array_append_val (targets, s->index);
    }
  map = g_new (int, MAX (targets->len, 1));
  n = tress_curve_clipboard_map (clip, (const char *const *)paths->pdata, paths->len, map, &onto,
                                 &error);
  if (n == 0)
    {
      _tress_curve_view_set_message (self, error->message);
      gtk_widget_error_bell (GTK_WIDGET (self));
      return FALSE;
    }
  for (guint t = 0; t < targets->len; t++)
    if (map[t] >= 0)
      g_hash_table_insert (src_of, GUINT_TO_POINTER (g_array_index (targets, guint, t)),
                           GUINT_TO_POINTER ((guint)map[t] + 1));
  /* In place, the keys go back to the frame they came from. */
  e.d_frame = at_playhead ? self->playhead : tress_curve_clipboard_get_first_frame (clip);
  /* With snapping, at the playhead means at its whole frame, as the label says. */
  if (at_playhead && self->snap)
    e.d_frame = round (e.d_frame) + 0.0;
  label = g_strdup_printf (
      /* TRANSLATORS: "Paste 12 keys onto Leg_2_R at frame 30" (an undo step) */
      ngettext ("Paste %u key onto %s at frame %g", "Paste %u keys onto %s at frame %g", n), n,
      onto, e.d_frame);
  self->edit_label = label;
  ok = _tress_curve_view_apply_edit (self, &e, n, TARGET_CURVES, prepare_paste, src_of);
  self->edit_label = NULL;
  return ok;
}
