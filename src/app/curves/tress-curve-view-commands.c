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

/* ------------------------------------------------------- moving keys -- */

gboolean
_tress_curve_view_move (TressCurveView *self, double d_frame, double d_value)
{
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_MOVE, .d_frame = d_frame, .d_value = d_value };

  if (_tress_curve_view_count_selected_keys (self) == 0)
    return FALSE;
  return _tress_curve_view_apply_edit (self, &e, _tress_curve_view_count_selected_keys (self),
                                       TARGET_SELECTED, _tress_curve_view_prepare_move, NULL);
}

/* ------------------------------------------------------------ framing -- */

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

/* ---------------------------------------------- key steps, clipboard -- */

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

/* ------------------------------------------------- nudges and scaling -- */

/* The selected keys by @frames whole frames and @steps nudge steps. */
void
_tress_curve_view_nudge (TressCurveView *self, int frames, int steps)
{
  double step;
  g_autoptr (GArray) curves = tress_curve_selection_dup_curves (self->selection);
  gboolean whole = curves->len > 0;

  /* Frames move by whole frames, values by the nudge step; keys of
   * whole-number curves only (ints, bools) by at least one, which a smaller
   * step would round back to where they were. */
  step = tress_curve_view_get_nudge_step (self);
  for (guint i = 0; i < curves->len && whole; i++)
    {
      Slot *slot = _tress_curve_view_slot_for (self, g_array_index (curves, guint, i));
      const TressCurve *c = slot != NULL ? _tress_curve_view_slot_curve (self, slot) : NULL;

      whole = c != NULL && c->limits.value_kind != TRESS_VALUE_FLOAT && !self->normalized;
    }
  if (whole)
    step = MAX (step, 1);
  _tress_curve_view_move (self, frames, steps * step);
}

/* One stored step of each curve (@data: a pointer to the count of steps);
 * curves whose values have no step (32-bit floats) by the nudge step. */
static gboolean
prepare_stored_step (TressCurveView *self, Slot *slot, guint rank, TressCurveEdit *edit,
                     gpointer data)
{
  const TressCurve *c = _tress_curve_view_slot_curve (self, slot);
  TressValueMap map = _tress_curve_view_slot_map (self, slot);
  int n = *(const int *)data;

  if (c != NULL && c->value_step > 0)
    edit->d_value = n * c->value_step;
  else
    edit->d_value = n * tress_curve_view_get_nudge_step (self) / (map.scale != 0 ? map.scale : 1);
  return TRUE;
}

/* The selected keys' values by @n of each curve's stored steps. */
void
_tress_curve_view_nudge_stored (TressCurveView *self, int n)
{
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_MOVE };

  if (_tress_curve_view_count_selected_keys (self) == 0 || n == 0)
    return;
  e.d_value = n;
  _tress_curve_view_apply_edit (self, &e, _tress_curve_view_count_selected_keys (self),
                                TARGET_SELECTED, prepare_stored_step, &n);
}

gboolean
_tress_curve_view_tell_nudge_step (gpointer data)
{
  TressCurveView *self = data;

  self->nudge_idle = 0;
  g_object_notify_by_pspec (G_OBJECT (self), _tress_curve_view_props[PROP_NUDGE_STEP]);
  return G_SOURCE_REMOVE;
}

double
tress_curve_view_get_nudge_step (TressCurveView *self)
{
  int height;
  double first, step;

  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 0);
  if (self->nudge_step > 0)
    return self->nudge_step;
  /* A tenth of the spacing the grid draws (10 divisions before the view has a size). */
  height = gtk_widget_get_height (GTK_WIDGET (self));
  if (height > 0 && _tress_curve_view_value_ticks (self, height, &first, &step))
    return step / 10;
  return tress_curve_nice_step (self->vp.value_max - self->vp.value_min, 10) / 10;
}

void
tress_curve_view_set_nudge_step (TressCurveView *self, double step)
{
  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  step = step > 0 && isfinite (step) ? step : 0;
  if (self->nudge_step == step)
    return;
  self->nudge_step = step;
  g_object_notify_by_pspec (G_OBJECT (self), _tress_curve_view_props[PROP_NUDGE_STEP]);
}

/* The first and last frame of the selected keys (first > last when none). */
static void
selected_frame_range (TressCurveView *self, double *first, double *last)
{
  g_autoptr (GArray) curves = tress_curve_selection_dup_curves (self->selection);

  *first = G_MAXDOUBLE;
  *last = -G_MAXDOUBLE;
  for (guint i = 0; i < curves->len; i++)
    {
      guint index = g_array_index (curves, guint, i);
      Slot *slot = _tress_curve_view_slot_for (self, index);
      const TressCurve *c = slot ? _tress_curve_view_slot_curve (self, slot) : NULL;
      g_autoptr (GArray) keys = _tress_curve_view_selected_keys_of (self, index);
      guint n = c != NULL ? tress_curve_get_n_keys (c) : 0;

      /* Sorted keys: the first and the last in range bound the curve's frames. */
      for (guint k = 0; k < keys->len; k++)
        if (g_array_index (keys, guint, k) < n)
          {
            *first = MIN (*first, tress_curve_get_key (c, g_array_index (keys, guint, k))->frame);
            break;
          }
      for (guint k = keys->len; k > 0; k--)
        if (g_array_index (keys, guint, k - 1) < n)
          {
            *last = MAX (*last, tress_curve_get_key (c, g_array_index (keys, guint, k - 1))->frame);
            break;
          }
    }
}

/* The selected keys scaled by @frame_factor in time and @value_factor in
 * value, about the middle of their frames, or (@at_playhead) about the
 * playhead and the value there. */
void
_tress_curve_view_scale (TressCurveView *self, double frame_factor, double value_factor,
                         gboolean at_playhead)
{
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_SCALE,
                       .frame_factor = frame_factor,
                       .value_factor = value_factor,
                       .value_at_pivot = at_playhead };
  double fmin = G_MAXDOUBLE, fmax = -G_MAXDOUBLE;

  selected_frame_range (self, &fmin, &fmax);
  if (fmin > fmax)
    return;
  /* Around the middle of the selection, or the playhead (and the value there). */
  e.pivot_frame = e.value_at_pivot ? self->playhead : (fmin + fmax) / 2;
  _tress_curve_view_apply_edit (self, &e, _tress_curve_view_count_selected_keys (self),
                                TARGET_SELECTED, NULL, NULL);
}

/* ---------------------------------------------------------- key edits -- */

void
_tress_curve_view_insert_at (TressCurveView *self, double frame)
{
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_INSERT, .frame = frame };
  g_autoptr (GArray) curves = NULL;
  guint first = G_MAXUINT, first_key = 0;

  if (!_tress_curve_view_apply_edit (self, &e, 1, TARGET_CURVES, NULL, NULL))
    return;
  /* The new keys are selected; unless the active key is one of them (its
   * curve got one), the first curve's new key becomes the active key, which
   * the key panel and table follow. */
  if (self->has_active
      && _tress_curve_view_sel_has (self, self->active_curve, self->active_key,
                                    TRESS_CURVE_PART_KEY))
    return;
  /* The lowest curve index with a selected key at the frame inserted at
   * (a format may round it to its frames: then with any selected key). */
  curves = tress_curve_selection_dup_curves (self->selection);
  for (guint pass = 0; pass < 2 && first == G_MAXUINT; pass++)
    for (guint i = 0; i < curves->len; i++)
      {
        guint index = g_array_index (curves, guint, i);
        Slot *slot = _tress_curve_view_slot_for (self, index);
        const TressCurve *c = slot != NULL ? _tress_curve_view_slot_curve (self, slot) : NULL;
        g_autoptr (GArray) keys = _tress_curve_view_selected_keys_of (self, index);

        if (c == NULL || keys->len == 0 || index >= first
            || g_array_index (keys, guint, 0) >= tress_curve_get_n_keys (c))
          continue;
        if (pass == 1
            || fabs (tress_curve_get_key (c, g_array_index (keys, guint, 0))->frame - frame) < 1e-6)
          {
            first = index;
            first_key = g_array_index (keys, guint, 0);
          }
      }
  if (first == G_MAXUINT)
    return;
  _tress_curve_view_set_active (self, first, first_key);
  _tress_curve_view_emit_selection_changed (self);
}

void
_tress_curve_view_delete (TressCurveView *self)
{
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_DELETE };

  if (_tress_curve_view_count_selected_keys (self) == 0)
    return;
  _tress_curve_view_apply_edit (self, &e, _tress_curve_view_count_selected_keys (self),
                                TARGET_SELECTED, NULL, NULL);
}

void
_tress_curve_view_duplicate (TressCurveView *self)
{
  double fmin = G_MAXDOUBLE, fmax = -G_MAXDOUBLE;
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_DUPLICATE };

  selected_frame_range (self, &fmin, &fmax);
  if (fmin > fmax)
    return;
  /* The copies start at the playhead; with the playhead among the selected
   * frames, they follow the selection, one frame after its last key. */
  if (self->playhead < fmin || self->playhead > fmax)
    e.d_frame = self->playhead - fmin;
  else
    e.d_frame = fmax - fmin + 1;
  _tress_curve_view_apply_edit (self, &e, _tress_curve_view_count_selected_keys (self),
                                TARGET_SELECTED, NULL, NULL);
}

/* The selected keys' interpolation, by name ("step", "linear", …). */
void
_tress_curve_view_set_interpolation (TressCurveView *self, const char *interp)
{
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_INTERP };

  if (!tress_interp_from_string (interp, &e.interp))
    {
      _tress_curve_view_set_message (self, _ ("Unknown interpolation"));
      return;
    }
  if (_tress_curve_view_count_selected_keys (self) == 0)
    {
      _tress_curve_view_set_message (self, _ ("Select keys to change their interpolation"));
      return;
    }
  _tress_curve_view_apply_edit (self, &e, _tress_curve_view_count_selected_keys (self),
                                TARGET_SELECTED, NULL, NULL);
}

/* The selected keys' tangents, by name ("auto", "flat", …). */
void
_tress_curve_view_set_tangent (TressCurveView *self, const char *tangent)
{
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_TANGENT };

  if (!tress_tangent_edit_from_string (tangent, &e.tangent))
    {
      _tress_curve_view_set_message (self, _ ("Unknown tangent mode"));
      return;
    }
  if (_tress_curve_view_count_selected_keys (self) == 0)
    {
      _tress_curve_view_set_message (self, _ ("Select keys to change their tangents"));
      return;
    }
  _tress_curve_view_apply_edit (self, &e, _tress_curve_view_count_selected_keys (self),
                                TARGET_SELECTED, NULL, NULL);
}

/* ------------------------------------------------------------- unwrap -- */

/* The angle curves among the targets of an unwrap, in slot order: each
 * unwrapped together with the other angles of its rotation among them. */
typedef struct
{
  GPtrArray *curves; /* TressCurve: copies, alive until the edit is committed */
  GArray *slots;     /* guint: their slot positions */
} UnwrapData;

static gboolean
prepare_unwrap (TressCurveView *self, Slot *slot, guint rank, TressCurveEdit *edit, gpointer data)
{
  UnwrapData *u = data;
  guint at = (guint)(slot - &g_array_index (self->slots, Slot, 0));

  for (guint i = 0; i < u->slots->len; i++)
    if (g_array_index (u->slots, guint, i) == at)
      {
        tress_curve_edit_set_unwrap_group (edit, (const TressCurve *const *)u->curves->pdata,
                                           u->curves->len, i);
        return TRUE;
      }
  return FALSE; /* not an angle curve: left alone */
}

gboolean
tress_curve_view_unwrap_angles (TressCurveView *self)
{
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_UNWRAP };
  g_autoptr (GPtrArray) curves = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_curve_unref);
  g_autoptr (GArray) slots = g_array_new (FALSE, FALSE, sizeof (guint));
  UnwrapData u = { curves, slots };
  gboolean any_selected;

  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), FALSE);
  if (self->document == NULL)
    return FALSE;
  any_selected = _tress_curve_view_count_selected_keys (self) > 0;
  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);
      const TressCurve *c = tress_curve_document_get_curve (self->document, s->index);

      if (c != NULL && c->angle
          && _tress_curve_view_slot_is_target (self, s, TARGET_CURVES, any_selected))
        {
          g_ptr_array_add (curves, tress_curve_copy (c));
          g_array_append_val (slots, i);
        }
    }
  if (curves->len == 0)
    {
      _tress_curve_view_set_message (self, _ ("No angle curves to unwrap: choose rotation curves"));
      gtk_widget_error_bell (GTK_WIDGET (self));
      return FALSE;
    }
  _tress_curve_view_set_message (self, NULL);
  if (!_tress_curve_view_apply_edit (self, &e, curves->len, TARGET_CURVES, prepare_unwrap, &u))
    {
      /* Refused: the refusal is said. Else nothing changed, and that is said
       * too (a spin the keys spell out is kept: tress_curve_edit_unwrap). */
      if (self->message == NULL)
        {
          g_autofree char *msg = g_strdup_printf (
              ngettext ("Unwrap Angles: nothing changed, no jump to remove in %u angle curve",
                        "Unwrap Angles: nothing changed, no jump to remove in %u angle curves",
                        curves->len),
              curves->len);

          _tress_curve_view_set_message (self, msg);
        }
      return FALSE;
    }
  /* The values moved by whole turns: the curves are shown whole again. */
  _tress_curve_view_frame_all (self, FALSE);
  return TRUE;
}
