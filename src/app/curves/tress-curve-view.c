/* tress-curve-view.c: the graph of one or more animation curves
 *
 * Files: this one (the object, its document, selection and commands),
 * -edits.c (storing edits), -input.c (pointer), -actions.c (actions and
 * key bindings), -snapshot.c (drawing); -private.h holds what they share.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-view-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "core/tress-curve-clipboard.h"
#include "tress-curve-paint.h"
#include "tress-curve-store-question.h"

GParamSpec *_tress_curve_view_props[N_PROPS];
guint _tress_curve_view_signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (TressCurveView, tress_curve_view, GTK_TYPE_WIDGET)

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

/* ------------------------------------------------------------- helpers -- */

void
_tress_curve_view_set_message (TressCurveView *self, const char *message)
{
  if (g_strcmp0 (self->message, message) == 0)
    return;
  g_free (self->message);
  self->message = g_strdup (message);
  g_object_notify_by_pspec (G_OBJECT (self), _tress_curve_view_props[PROP_MESSAGE]);
}

Slot *
_tress_curve_view_slot_for (TressCurveView *self, guint curve_index)
{
  guint at = GPOINTER_TO_UINT (g_hash_table_lookup (self->slot_of, GUINT_TO_POINTER (curve_index)));

  return at > 0 ? &g_array_index (self->slots, Slot, at - 1) : NULL;
}

const TressCurve *
_tress_curve_view_slot_curve (TressCurveView *self, const Slot *s)
{
  if (s->edit != NULL)
    return s->edit;
  return self->document ? tress_curve_document_get_curve (self->document, s->index) : NULL;
}

/* Drawn and editable: visible, and solo while any curve is. */
gboolean
_tress_curve_view_slot_shown (TressCurveView *self, const Slot *s)
{
  return s->visible && (self->n_solo == 0 || s->solo);
}

/* What a value of @c is multiplied by to be shown in its unit: 180/π for
 * angles shown in degrees. */
double
_tress_curve_view_unit_scale (TressCurveView *self, const TressCurve *c)
{
  return self->degrees && c != NULL && c->angle ? 180.0 / G_PI : 1.0;
}

TressValueMap
_tress_curve_view_slot_map (TressCurveView *self, const Slot *s)
{
  const TressCurve *c = _tress_curve_view_slot_curve (self, s);

  /* During a drag the map stays the one of the drag's start, so keys follow the pointer. */
  if (self->normalized && c != NULL)
    return tress_curve_normalize_map (s->orig != NULL ? s->orig : c);
  if (self->degrees && c != NULL && c->angle)
    return (TressValueMap){ 180.0 / G_PI, 0.0 };
  return TRESS_VALUE_MAP_IDENTITY;
}

TressCurveLayer *
_tress_curve_view_build_layers (TressCurveView *self)
{
  TressCurveLayer *layers = g_new0 (TressCurveLayer, MAX (self->slots->len, 1));

  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);

      layers[i].curve = _tress_curve_view_slot_curve (self, s);
      layers[i].map = _tress_curve_view_slot_map (self, s);
      layers[i].visible = _tress_curve_view_slot_shown (self, s) && layers[i].curve != NULL;
      layers[i].locked = s->locked;
    }
  return layers;
}

void
_tress_curve_view_invalidate_lines (TressCurveView *self)
{
  g_clear_pointer (&self->lines_node, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
_tress_curve_view_emit_selection_changed (TressCurveView *self)
{
  _tress_curve_view_update_actions (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, _tress_curve_view_signals[SIGNAL_SELECTION_CHANGED], 0);
}

/* Copy and duplicate need selected keys, paste copied ones. */
void
_tress_curve_view_update_actions (TressCurveView *self)
{
  gboolean any = tress_curve_selection_get_n_keys (self->selection) > 0;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "curve.copy", any);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "curve.duplicate", any);
  gtk_widget_action_set_enabled (
      GTK_WIDGET (self), "curve.paste",
      !tress_curve_clipboard_is_empty (tress_curve_clipboard_get_default ()));
}

static void see_curve (TressCurveView *self, guint index);

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
    see_curve (self, curve);
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
static void
prune_curve_selection (TressCurveView *self, guint curve)
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
    prune_curve_selection (self, g_array_index (curves, guint, i));
  if (self->has_active)
    prune_curve_selection (self, self->active_curve);
}

/* A "nice" step (1, 2 or 5 × 10^n) near @span / @divisions. */
double
_tress_curve_view_nice_step (double span, double divisions)
{
  double raw = span / divisions;
  double p, m;

  if (!(raw > 0) || !isfinite (raw))
    return 1;
  p = pow (10, floor (log10 (raw)));
  m = raw / p;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

double
_tress_curve_view_frame_grid (const TressCurve *c)
{
  return c != NULL && c->limits.frame_step > 0 ? c->limits.frame_step : 0;
}

/* ------------------------------------------------------------ commands -- */

guint
_tress_curve_view_count_selected_keys (TressCurveView *self)
{
  return tress_curve_selection_get_n_keys (self->selection);
}

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

static void
extents_free (Extents *e)
{
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

/* ------------------------------------------------------------ playback -- */

void
tress_curve_view_get_frame_range (TressCurveView *self, double *first, double *last)
{
  double a = G_MAXDOUBLE, b = -G_MAXDOUBLE;

  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  for (guint i = 0; i < self->slots->len; i++)
    {
      const TressCurve *c
          = _tress_curve_view_slot_curve (self, &g_array_index (self->slots, Slot, i));
      guint n;

      if (c == NULL || (n = tress_curve_get_n_keys (c)) == 0)
        continue;
      a = MIN (a, MIN (0, tress_curve_get_key (c, 0)->frame));
      b = MAX (b, tress_curve_get_key (c, n - 1)->frame);
      if (c->frame_count > 0)
        b = MAX (b, c->frame_count);
    }
  if (a > b)
    a = 0, b = 0;
  *first = a;
  *last = b;
}

double
tress_curve_view_get_fps (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 30);
  for (guint i = 0; i < self->slots->len; i++)
    {
      const TressCurve *c
          = _tress_curve_view_slot_curve (self, &g_array_index (self->slots, Slot, i));
      if (c != NULL && c->fps > 0)
        return c->fps;
    }
  return self->default_fps;
}

double
tress_curve_view_get_file_fps (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 0);
  for (guint i = 0; i < self->slots->len; i++)
    {
      const TressCurve *c
          = _tress_curve_view_slot_curve (self, &g_array_index (self->slots, Slot, i));
      if (c != NULL && c->fps > 0)
        return c->fps;
    }
  return 0;
}

double
tress_curve_view_get_display_scale (TressCurveView *self, guint curve_index)
{
  Slot *s = _tress_curve_view_slot_for (self, curve_index);
  const TressCurve *c = s != NULL ? _tress_curve_view_slot_curve (self, s) : NULL;

  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 1);
  return _tress_curve_view_unit_scale (self, c);
}

static gboolean
play_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer user_data)
{
  TressCurveView *self = TRESS_CURVE_VIEW (widget);
  double first, last, frame;
  gboolean stopped;
  gint64 now = gdk_frame_clock_get_frame_time (clock);

  if (self->play_start_time == 0)
    self->play_start_time = now;
  /* Over the play range, or the whole animation. */
  tress_curve_view_get_play_bounds (self, &first, &last);
  frame = tress_play_range_advance (first, last, self->play_start_frame,
                                    (now - self->play_start_time) / (double)G_USEC_PER_SEC
                                        * tress_curve_view_get_fps (self),
                                    self->loop, &stopped);
  if (stopped)
    {
      tress_curve_view_set_playhead (self, last);
      self->tick_id = 0;
      self->playing = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), _tress_curve_view_props[PROP_PLAYING]);
      return G_SOURCE_REMOVE;
    }
  tress_curve_view_set_playhead (self, frame);
  return G_SOURCE_CONTINUE;
}

void
_tress_curve_view_set_playing (TressCurveView *self, gboolean playing)
{
  if (self->playing == playing)
    return;
  self->playing = playing;
  if (playing)
    {
      double first, last;

      tress_curve_view_get_play_bounds (self, &first, &last);
      if (tress_play_range_start_frame (first, last, self->playhead) != self->playhead)
        tress_curve_view_set_playhead (self, first);
      self->play_start_time = 0;
      self->play_start_frame = self->playhead;
      self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), play_tick, NULL, NULL);
    }
  else if (self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }
  g_object_notify_by_pspec (G_OBJECT (self), _tress_curve_view_props[PROP_PLAYING]);
}

/* ----------------------------------------------------------- document -- */

/* Remembers @index's curve as the selection now sees it. */
static void
see_curve (TressCurveView *self, guint index)
{
  const TressCurve *c
      = self->document != NULL ? tress_curve_document_get_curve (self->document, index) : NULL;

  if (c != NULL)
    g_hash_table_replace (self->seen, GUINT_TO_POINTER (index), tress_curve_copy (c));
  else
    g_hash_table_remove (self->seen, GUINT_TO_POINTER (index));
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
static void
follow_keys (TressCurveView *self, guint index)
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

static void
on_curve_changed (TressCurveDocument *document, guint index, TressCurveView *self)
{
  g_hash_table_remove (self->extents, GUINT_TO_POINTER (index)); /* no old version kept */
  /* Changed by undo, redo or another view: what the line said of this view's
   * last edit (a refusal, what the format did beyond it) is past. */
  if (!self->committing)
    _tress_curve_view_set_message (self, NULL);
  if (_tress_curve_view_slot_for (self, index) == NULL)
    return;
  if (!self->committing)
    follow_keys (self, index);
  if (tress_curve_selection_has_curve (self->selection, index)
      || (self->has_active && self->active_curve == index))
    see_curve (self, index);
  else
    g_hash_table_remove (self->seen, GUINT_TO_POINTER (index));
  prune_curve_selection (self, index);
  _tress_curve_view_invalidate_lines (self);
  g_signal_emit (self, _tress_curve_view_signals[SIGNAL_CURVES_CHANGED], 0);
  _tress_curve_view_emit_selection_changed (self);
}

static void
on_curves_reset (TressCurveDocument *document, TressCurveView *self)
{
  g_hash_table_remove_all (self->extents);
  tress_curve_view_set_curves (self, NULL, 0);
}

void
tress_curve_view_set_document (TressCurveView *self, TressCurveDocument *document)
{
  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  g_return_if_fail (document == NULL || TRESS_IS_CURVE_DOCUMENT (document));

  if (self->document == document)
    return;
  tress_curve_view_set_curves (self, NULL, 0);
  g_hash_table_remove_all (self->extents);
  if (self->document != NULL)
    {
      g_clear_signal_handler (&self->changed_id, self->document);
      g_clear_signal_handler (&self->reset_id, self->document);
      g_clear_object (&self->document);
    }
  if (document != NULL)
    {
      self->document = g_object_ref (document);
      self->changed_id
          = g_signal_connect (document, "curve-changed", G_CALLBACK (on_curve_changed), self);
      self->reset_id
          = g_signal_connect (document, "curves-reset", G_CALLBACK (on_curves_reset), self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), _tress_curve_view_props[PROP_DOCUMENT]);
}

TressCurveDocument *
tress_curve_view_get_document (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), NULL);
  return self->document;
}

static gboolean
is_shown (guint curve, gpointer data)
{
  return _tress_curve_view_slot_for (data, curve) != NULL;
}

void
tress_curve_view_set_curves (TressCurveView *self, const guint *indices, guint n_indices)
{
  g_autoptr (GArray) old = NULL;
  g_autoptr (GHashTable) old_of = NULL;
  guint palette = 0;

  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  _tress_curve_view_drag_discard (self);
  self->drag = DRAG_NONE;
  old = g_array_copy (self->slots);
  old_of = g_steal_pointer (&self->slot_of);
  self->slot_of = g_hash_table_new (NULL, NULL);
  self->n_solo = 0;
  g_array_set_size (self->slots, 0);
  for (guint i = 0; i < n_indices; i++)
    {
      Slot s = { 0 };
      const TressCurve *c;
      guint was;

      if (self->document == NULL || indices[i] >= tress_curve_document_get_n_curves (self->document)
          || _tress_curve_view_slot_for (self, indices[i]) != NULL)
        continue;
      c = tress_curve_document_get_curve (self->document, indices[i]);
      s.index = indices[i];
      s.visible = TRUE;
      /* A curve shown before keeps its hidden / locked state. */
      was = GPOINTER_TO_UINT (g_hash_table_lookup (old_of, GUINT_TO_POINTER (s.index)));
      if (was > 0)
        {
          s.visible = g_array_index (old, Slot, was - 1).visible;
          s.locked = g_array_index (old, Slot, was - 1).locked;
          s.solo = g_array_index (old, Slot, was - 1).solo;
        }
      self->n_solo += s.solo;
      tress_curve_component_color (c->component, palette, s.color);
      if (c->component == NULL || strlen (c->component) != 1)
        palette++;
      g_array_append_val (self->slots, s);
      g_hash_table_insert (self->slot_of, GUINT_TO_POINTER (s.index),
                           GUINT_TO_POINTER (self->slots->len));
    }
  /* Selected keys of curves no longer shown are dropped. */
  tress_curve_selection_filter_curves (self->selection, is_shown, self);
  if (self->has_active && _tress_curve_view_slot_for (self, self->active_curve) == NULL)
    self->has_active = FALSE;
  g_hash_table_remove_all (self->seen);
  {
    g_autoptr (GArray) curves = tress_curve_selection_dup_curves (self->selection);

    for (guint i = 0; i < curves->len; i++)
      see_curve (self, g_array_index (curves, guint, i));
    if (self->has_active)
      _tress_curve_view_sel_see (self, self->active_curve);
  }
  self->fitted = FALSE;
  if (gtk_widget_get_width (GTK_WIDGET (self)) > 0 && self->slots->len > 0)
    _tress_curve_view_frame_all (self, FALSE);
  _tress_curve_view_invalidate_lines (self);
  g_signal_emit (self, _tress_curve_view_signals[SIGNAL_CURVES_CHANGED], 0);
  _tress_curve_view_emit_selection_changed (self);
}

guint
tress_curve_view_get_n_curves (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 0);
  return self->slots->len;
}

guint
tress_curve_view_get_curve_index (TressCurveView *self, guint slot)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 0);
  g_return_val_if_fail (slot < self->slots->len, 0);
  return g_array_index (self->slots, Slot, slot).index;
}

void
tress_curve_view_set_curve_flags (TressCurveView *self, const guint *indices, guint n_indices,
                                  TressCurveFlag flag, gboolean value)
{
  gboolean changed = FALSE, drop_selection = FALSE;
  guint was_solo = self->n_solo;

  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  value = !!value;
  for (guint i = 0; i < n_indices; i++)
    {
      Slot *s = _tress_curve_view_slot_for (self, indices[i]);
      gboolean *field;

      if (s == NULL)
        continue;
      field = flag == TRESS_CURVE_FLAG_VISIBLE  ? &s->visible
              : flag == TRESS_CURVE_FLAG_LOCKED ? &s->locked
                                                : &s->solo;
      if (*field == value)
        continue;
      *field = value;
      changed = TRUE;
      if (flag == TRESS_CURVE_FLAG_SOLO)
        self->n_solo += value ? 1 : -1;
      /* Hidden or locked curves keep no selected keys. */
      if ((flag == TRESS_CURVE_FLAG_VISIBLE && !value)
          || (flag == TRESS_CURVE_FLAG_LOCKED && value))
        {
          drop_selection |= tress_curve_selection_has_curve (self->selection, s->index);
          tress_curve_selection_clear_curve (self->selection, s->index);
        }
    }
  if (!changed)
    return;
  /* Curves no longer drawn (solo elsewhere) keep no selected keys either. */
  if (self->n_solo > 0 && (flag != TRESS_CURVE_FLAG_SOLO || was_solo != self->n_solo))
    for (guint i = 0; i < self->slots->len; i++)
      {
        Slot *s = &g_array_index (self->slots, Slot, i);

        if (!_tress_curve_view_slot_shown (self, s)
            && tress_curve_selection_has_curve (self->selection, s->index))
          {
            tress_curve_selection_clear_curve (self->selection, s->index);
            drop_selection = TRUE;
          }
      }
  if (self->has_active)
    {
      Slot *s = _tress_curve_view_slot_for (self, self->active_curve);

      if (s == NULL || !_tress_curve_view_slot_shown (self, s) || s->locked)
        {
          self->has_active = FALSE;
          drop_selection = TRUE;
        }
    }
  if (drop_selection)
    _tress_curve_view_emit_selection_changed (self);
  _tress_curve_view_invalidate_lines (self);
  g_signal_emit (self, _tress_curve_view_signals[SIGNAL_CURVES_CHANGED], 0);
}

void
tress_curve_view_set_curve_visible (TressCurveView *self, guint curve_index, gboolean visible)
{
  tress_curve_view_set_curve_flags (self, &curve_index, 1, TRESS_CURVE_FLAG_VISIBLE, visible);
}

void
tress_curve_view_set_curve_locked (TressCurveView *self, guint curve_index, gboolean locked)
{
  tress_curve_view_set_curve_flags (self, &curve_index, 1, TRESS_CURVE_FLAG_LOCKED, locked);
}

void
tress_curve_view_set_curve_solo (TressCurveView *self, guint curve_index, gboolean solo)
{
  tress_curve_view_set_curve_flags (self, &curve_index, 1, TRESS_CURVE_FLAG_SOLO, solo);
}

gboolean
tress_curve_view_get_curve_solo (TressCurveView *self, guint curve_index)
{
  Slot *s = _tress_curve_view_slot_for (self, curve_index);
  return s != NULL && s->solo;
}

gboolean
tress_curve_view_get_curve_shown (TressCurveView *self, guint curve_index)
{
  Slot *s = _tress_curve_view_slot_for (self, curve_index);
  return s != NULL && _tress_curve_view_slot_shown (self, s);
}

gboolean
tress_curve_view_get_curve_visible (TressCurveView *self, guint curve_index)
{
  Slot *s = _tress_curve_view_slot_for (self, curve_index);
  return s != NULL && s->visible;
}

gboolean
tress_curve_view_get_curve_locked (TressCurveView *self, guint curve_index)
{
  Slot *s = _tress_curve_view_slot_for (self, curve_index);
  return s != NULL && s->locked;
}

void
tress_curve_view_get_curve_color (TressCurveView *self, guint curve_index, GdkRGBA *color)
{
  Slot *s = _tress_curve_view_slot_for (self, curve_index);

  *color = (GdkRGBA){ 0.8f, 0.8f, 0.8f, 1 };
  if (s != NULL)
    *color = (GdkRGBA){ (float)s->color[0], (float)s->color[1], (float)s->color[2], 1 };
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

static const TressCurveOps *
document_ops (TressCurveView *self)
{
  return self->document != NULL
             ? tress_document_get_format (TRESS_DOCUMENT (self->document))->curves
             : NULL;
}

/* After a key edit was refused: when its frame lies between the frames curve
 * @index stores and a wider frame type of the format holds it, the refusal
 * says what widening would cost and the edit is kept for
 * tress_curve_view_commit_frame_widening(). Never widens by itself. */
static void
offer_frame_widening (TressCurveView *self, guint index, guint key, const TressKey *value)
{
  const TressCurveOps *ops = document_ops (self);
  const TressCurve *c = tress_curve_document_get_curve (self->document, index);
  double step = c != NULL ? c->limits.frame_step : 0;
  g_autofree char *cost = NULL, *msg = NULL;

  if (ops == NULL || ops->describe_frame_widening == NULL || ops->widen_frames == NULL
      || !(step > 0) || round (value->frame / step) * step == value->frame)
    return;
  cost = ops->describe_frame_widening (tress_document_get_model (TRESS_DOCUMENT (self->document)),
                                       index, value->frame);
  if (cost == NULL)
    return;
  _tress_curve_view_clear_pending (self);
  self->frames_offer = TRUE;
  self->frames_curve = index;
  self->frames_key = key;
  self->frames_value = *value;
  self->frames_cost = g_steal_pointer (&cost);
  msg = g_strdup_printf (
      /* TRANSLATORS: the last %s says what a wider frame type costs, e.g. "Frames in steps of
       * 1/32 (s10.5): the file grows by 18 bytes" */
      _ ("Edit key refused: frame %g lies between the frames this curve stores (every %g); a "
         "wider frame type would hold it (%s)"),
      value->frame, step, self->frames_cost);
  /* The message may be the same text as before: the offer is new. */
  g_clear_pointer (&self->message, g_free);
  _tress_curve_view_set_message (self, msg);
}

gboolean
tress_curve_view_get_frame_widening (TressCurveView *self, const char **cost)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), FALSE);
  if (cost != NULL)
    *cost = self->frames_offer ? self->frames_cost : NULL;
  return self->frames_offer;
}

typedef struct
{
  const TressCurveOps *ops;
  guint key;
  TressKey value;
  GArray *keys; /* out: the edited key's index afterwards */
} WidenFramesEdit;

/* Widens the frames of curve @index so they hold the edited key's frame, then
 * stores the key edit on the widened curve. */
static gboolean
widen_frames_and_edit (gpointer model, guint index, gpointer data, double *max_error,
                       GError **error)
{
  WidenFramesEdit *w = data;
  g_autoptr (TressCurveEditBatch) batch = tress_curve_edit_batch_new ();
  g_autoptr (TressCurve) now = NULL;
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_SET_KEY, .key = w->key, .value = w->value };

  if (!w->ops->widen_frames (model, index, w->value.frame, error))
    return FALSE;
  now = w->ops->get_curve (model, index);
  if (!tress_curve_edit_batch_add (batch, index, now, &w->key, 1, &e, error))
    return FALSE;
  if (tress_curve_edit_batch_get_n_changed (batch) == 0)
    return TRUE;
  g_array_append_vals (w->keys, tress_curve_edit_batch_get_keys (batch, 0)->data,
                       tress_curve_edit_batch_get_keys (batch, 0)->len);
  return tress_curve_commit (w->ops, model, index, tress_curve_edit_batch_get_curve (batch, 0),
                             TRESS_COMMIT_WIDEN_FRAMES, max_error, error);
}

typedef struct
{
  const TressCurveOps *ops;
  const TressCurve *curve;
} WidenSetEdit;

/* Widens the frames of curve @index until they hold its keys, then stores
 * the curve. */
static gboolean
widen_frames_and_set (gpointer model, guint index, gpointer data, double *max_error, GError **error)
{
  WidenSetEdit *w = data;

  return tress_curve_commit (w->ops, model, index, w->curve, TRESS_COMMIT_WIDEN_FRAMES, max_error,
                             error);
}

/* The kept edit of several curves, each widened where it needs it: one undo step. */
static gboolean
commit_batch_frame_widening (TressCurveView *self, GError **error)
{
  const TressCurveOps *ops = document_ops (self);
  g_autofree char *label = g_strdup (self->frames_label);
  g_autoptr (GPtrArray) curves = g_ptr_array_ref (self->frames_curves);
  g_autoptr (GArray) indices = g_array_ref (self->frames_indices);
  g_autoptr (GPtrArray) keys = g_ptr_array_ref (self->frames_keys);
  Notices notices = { NULL, 0 };
  g_autofree char *notice = NULL;
  gboolean ok = TRUE;

  _tress_curve_view_clear_pending (self);
  tress_curve_document_begin_edit (self->document, label);
  self->committing = TRUE;
  for (guint i = 0; i < curves->len && ok; i++)
    {
      WidenSetEdit w = { ops, curves->pdata[i] };

      ok = tress_curve_document_apply_model_edit (self->document, g_array_index (indices, guint, i),
                                                  label, widen_frames_and_set, &w, error);
      if (ok)
        _tress_curve_view_add_notice (self, g_array_index (indices, guint, i), &notices);
    }
  if (ok)
    tress_curve_document_end_edit (self->document);
  else
    tress_curve_document_cancel_edit (self->document); /* all or nothing */
  self->committing = FALSE;
  if (ok)
    {
      notice = _tress_curve_view_notices_dup_text (&notices);
      _tress_curve_view_set_message (self, notice);
      for (guint i = 0; i < curves->len; i++)
        _tress_curve_view_replace_curve_selection (self, g_array_index (indices, guint, i),
                                                   keys->pdata[i]);
    }
  else if (error != NULL && *error != NULL)
    {
      g_autofree char *msg = g_strdup_printf (_ ("%s refused: %s"), label, (*error)->message);
      _tress_curve_view_set_message (self, msg);
    }
  g_free (notices.first);
  _tress_curve_view_prune_selection (self);
  _tress_curve_view_emit_selection_changed (self);
  return ok;
}

gboolean
tress_curve_view_commit_frame_widening (TressCurveView *self, GError **error)
{
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint));
  WidenFramesEdit w;
  guint index;
  gboolean ok;

  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), FALSE);
  if (!self->frames_offer || self->document == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, "%s", _ ("No edit is waiting"));
      return FALSE;
    }
  if (self->frames_curves != NULL)
    return commit_batch_frame_widening (self, error);
  w = (WidenFramesEdit){ document_ops (self), self->frames_key, self->frames_value, keys };
  index = self->frames_curve;
  _tress_curve_view_clear_pending (self);
  self->committing = TRUE;
  ok = tress_curve_document_apply_model_edit (self->document, index,
                                              _ ("Widen the frames and edit 1 key"),
                                              widen_frames_and_edit, &w, error);
  self->committing = FALSE;
  if (ok)
    {
      Notices notices = { NULL, 0 };
      g_autofree char *notice = NULL;

      _tress_curve_view_add_notice (self, index, &notices);
      notice = _tress_curve_view_notices_dup_text (&notices);
      g_free (notices.first);
      _tress_curve_view_set_message (self, notice);
      _tress_curve_view_replace_curve_selection (self, index, keys);
      if (keys->len > 0)
        _tress_curve_view_set_active (self, index, g_array_index (keys, guint, 0));
    }
  else if (error != NULL && *error != NULL)
    {
      g_autofree char *msg = g_strdup_printf (_ ("Edit key refused: %s"), (*error)->message);
      _tress_curve_view_set_message (self, msg);
    }
  _tress_curve_view_prune_selection (self);
  _tress_curve_view_emit_selection_changed (self);
  return ok;
}

gboolean
tress_curve_view_set_key (TressCurveView *self, guint curve_index, guint key, const TressKey *value,
                          GError **error)
{
  Slot *s = _tress_curve_view_slot_for (self, curve_index);
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_SET_KEY, .key = key, .value = *value };
  g_autoptr (TressCurveSelection) keep = NULL;
  gboolean ok;

  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), FALSE);
  if (s == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, _ ("curve %u is not shown"),
                   curve_index);
      return FALSE;
    }
  if (s->locked)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, _ ("the curve is locked"));
      _tress_curve_view_set_message (self, _ ("Edit key refused: the curve is locked"));
      return FALSE;
    }
  /* Edit exactly this key: make it the selection of its curve for the edit. */
  keep = tress_curve_selection_copy (self->selection);
  _tress_curve_view_sel_clear (self);
  _tress_curve_view_sel_add (self, curve_index, key, TRESS_CURVE_PART_KEY);
  ok = _tress_curve_view_apply_edit (self, &e, 1, TARGET_SELECTED, NULL, NULL);
  if (!ok)
    offer_frame_widening (self, curve_index, key, value);
  if (!ok)
    {
      tress_curve_selection_free (self->selection);
      self->selection = g_steal_pointer (&keep);
      _tress_curve_view_prune_selection (self);
      if (self->message != NULL)
        g_set_error_literal (error, TRESS_ERROR, TRESS_ERROR_REFUSED, self->message);
      else
        g_set_error_literal (error, TRESS_ERROR, TRESS_ERROR_REFUSED, _ ("nothing changed"));
      _tress_curve_view_emit_selection_changed (self);
    }
  else
    {
      g_autoptr (GArray) keys = _tress_curve_view_selected_keys_of (self, curve_index);
      guint k = keys->len > 0 ? g_array_index (keys, guint, 0) : 0;

      _tress_curve_view_set_active (self, curve_index, k);
      _tress_curve_view_emit_selection_changed (self);
    }
  return ok;
}

gboolean
tress_curve_view_set_curve_interpolation (TressCurveView *self, guint curve_index,
                                          TressInterp interp, GError **error)
{
  Slot *s = _tress_curve_view_slot_for (self, curve_index);
  const TressCurve *c = s != NULL ? _tress_curve_view_slot_curve (self, s) : NULL;
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_INTERP, .interp = interp };
  g_autoptr (TressCurveSelection) keep = NULL;
  gboolean had_active = self->has_active;
  guint active_curve = self->active_curve, active_key = self->active_key;
  gboolean ok;

  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), FALSE);
  if (c == NULL || tress_curve_get_n_keys (c) == 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, _ ("curve %u is not shown"),
                   curve_index);
      return FALSE;
    }
  if (s->locked)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, _ ("the curve is locked"));
      _tress_curve_view_set_message (self, _ ("Set interpolation refused: the curve is locked"));
      return FALSE;
    }
  /* Every key of the curve, the selection put back afterwards. */
  keep = tress_curve_selection_copy (self->selection);
  _tress_curve_view_sel_clear (self);
  tress_curve_selection_add_range (self->selection, curve_index, tress_curve_get_n_keys (c));
  _tress_curve_view_sel_see (self, curve_index);
  ok = _tress_curve_view_apply_edit (self, &e, tress_curve_get_n_keys (c), TARGET_SELECTED, NULL,
                                     NULL);
  tress_curve_selection_free (self->selection);
  self->selection = g_steal_pointer (&keep);
  self->has_active = had_active;
  self->active_curve = active_curve;
  self->active_key = active_key;
  _tress_curve_view_prune_selection (self);
  if (!ok)
    g_set_error_literal (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                         self->message != NULL ? self->message : _ ("nothing changed"));
  _tress_curve_view_emit_selection_changed (self);
  return ok;
}

void
tress_curve_view_get_viewport (TressCurveView *self, TressCurveViewport *vp)
{
  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  *vp = self->vp;
}

void
tress_curve_view_set_viewport (TressCurveView *self, const TressCurveViewport *vp)
{
  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  self->vp.frame_min = vp->frame_min;
  self->vp.frame_max = vp->frame_max;
  self->vp.value_min = vp->value_min;
  self->vp.value_max = vp->value_max;
  self->fitted = TRUE;
  self->framed_all = FALSE;
  _tress_curve_view_invalidate_lines (self);
}

void
tress_curve_view_set_ghost (TressCurveView *self, guint curve_index, const TressCurve *curve)
{
  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  if (curve != NULL)
    g_hash_table_replace (self->ghosts, GUINT_TO_POINTER (curve_index),
                          tress_curve_ref ((TressCurve *)curve));
  else if (!g_hash_table_remove (self->ghosts, GUINT_TO_POINTER (curve_index)))
    return;
  _tress_curve_view_invalidate_lines (self);
}

void
tress_curve_view_set_ghost_label (TressCurveView *self, const char *label)
{
  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  if (g_strcmp0 (self->ghost_label, label) == 0)
    return;
  g_free (self->ghost_label);
  self->ghost_label = g_strdup (label);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tress_curve_view_clear_ghosts (TressCurveView *self)
{
  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  if (g_hash_table_size (self->ghosts) == 0)
    return;
  g_hash_table_remove_all (self->ghosts);
  _tress_curve_view_invalidate_lines (self);
}

const TressCurve *
tress_curve_view_get_ghost (TressCurveView *self, guint curve_index)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), NULL);
  return g_hash_table_lookup (self->ghosts, GUINT_TO_POINTER (curve_index));
}

guint
tress_curve_view_get_n_ghosts (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 0);
  return g_hash_table_size (self->ghosts);
}

const TressCurve *
tress_curve_view_get_shown_curve (TressCurveView *self, guint curve_index)
{
  Slot *s = _tress_curve_view_slot_for (self, curve_index);
  return s ? _tress_curve_view_slot_curve (self, s) : NULL;
}

gboolean
tress_curve_view_get_point (TressCurveView *self, guint curve_index, guint key, TressCurvePart part,
                            double *x, double *y)
{
  Slot *s = _tress_curve_view_slot_for (self, curve_index);
  const TressCurve *c = s ? _tress_curve_view_slot_curve (self, s) : NULL;
  TressValueMap map;
  double f, v;

  if (c == NULL || key >= tress_curve_get_n_keys (c))
    return FALSE;
  map = _tress_curve_view_slot_map (self, s);
  if (part == TRESS_CURVE_PART_KEY)
    {
      f = tress_curve_get_key (c, key)->frame;
      v = tress_curve_get_key (c, key)->value;
    }
  else if (!tress_curve_handle_point (c, key, part, &f, &v))
    return FALSE;
  *x = tress_curve_viewport_frame_to_x (&self->vp, f);
  *y = tress_curve_viewport_value_to_y (&self->vp, v * map.scale + map.offset);
  return TRUE;
}

double
tress_curve_view_get_playhead (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 0);
  return self->playhead;
}

void
tress_curve_view_set_playhead (TressCurveView *self, double frame)
{
  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  if (!isfinite (frame) || frame == self->playhead)
    return;
  self->playhead = frame;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), _tress_curve_view_props[PROP_PLAYHEAD]);
}

GtkWidget *
tress_curve_view_get_context_menu (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), NULL);
  return self->context_menu;
}

double
tress_curve_view_get_drag_error (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), -1);
  return self->drag_error;
}

double
tress_curve_view_get_drag_error_scale (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 1);
  return self->drag_error >= 0 ? self->drag_error_scale : 1;
}

char *
tress_curve_view_dup_drag_error_text (TressCurveView *self)
{
  Slot *grab;
  g_autofree char *stored = NULL, *err = NULL;
  double tolerance, escale;
  /* Degrees are shown with their sign: the graph, the table and the panel
   * show angles in degrees, and so does the text next to the pointer. */
  const char *eunit;

  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), NULL);
  if (self->drag_error < 0)
    return NULL;
  tolerance = _tress_curve_view_drag_tolerance (self);
  /* The grabbed key's value as the file would store it, and the step, in
   * the unit the curve is shown in. */
  grab = _tress_curve_view_slot_for (self, self->drag_hit.curve);
  if (self->drag == DRAG_KEYS && grab != NULL && grab->orig != NULL && grab->orig->value_step > 0
      && self->drag_hit.key < tress_curve_get_n_keys (grab->orig))
    {
      TressValueMap map = _tress_curve_view_slot_map (self, grab);
      double v = tress_curve_get_key (grab->orig, self->drag_hit.key)->value
                 + self->drag_dv / (map.scale != 0 ? map.scale : 1);
      double unit = _tress_curve_view_unit_scale (self, grab->orig);
      const char *sign = unit != 1 ? "°" : "";
      gboolean fits;
      double s = tress_curve_stored_value (grab->orig, v, &fits);

      if (fits)
        /* TRANSLATORS: shown next to the pointer while keys are dragged; the
         * %s after each number is its unit ("°" for angles shown in degrees,
         * else empty) */
        stored = g_strdup_printf (_ ("Stored %.6g%s (step %.3g%s)"), s * unit, sign,
                                  grab->orig->value_step * unit, sign);
      else
        /* TRANSLATORS: shown next to the pointer while keys are dragged; %s: the unit */
        stored = g_strdup_printf (_ ("%.6g%s is outside the stored range: the curve gets a new "
                                     "step"),
                                  v * unit, sign);
    }
  escale = self->drag_error_scale;
  eunit = escale != 1 ? "°" : "";
  if (self->drag_error > tolerance)
    /* TRANSLATORS: shown next to the pointer while keys are dragged; %s: the unit */
    err = g_strdup_printf (_ ("Stored error %.4g%s (over the tolerance %.4g%s)"),
                           self->drag_error * escale, eunit, tolerance * escale, eunit);
  else
    /* TRANSLATORS: shown next to the pointer while keys are dragged; %s: the unit */
    err = g_strdup_printf (_ ("Stored error %.4g%s"), self->drag_error * escale, eunit);
  if (stored == NULL)
    return g_steal_pointer (&err);
  return g_strdup_printf ("%s · %s", stored, err);
}

const char *
tress_curve_view_get_message (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), NULL);
  return self->message;
}

gboolean
tress_curve_view_get_pending_end (TressCurveView *self, double *new_end)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), FALSE);
  if (self->pending_curves == NULL)
    return FALSE;
  if (new_end != NULL)
    *new_end = self->pending_end;
  return TRUE;
}

/* Raises the length of the curve's animation, then stores the curve. */
static gboolean
lengthen_curve (gpointer model, guint index, gpointer data, double *max_error, GError **error)
{
  LengthenEdit *edit = data;

  /* Lengthening stores the keys as they are: a frame type that cannot hold
   * them is widened, which the offer said. */
  return tress_curve_commit (edit->ops, model, index, edit->curve,
                             TRESS_COMMIT_LENGTHEN | TRESS_COMMIT_WIDEN_FRAMES, max_error, error);
}

gboolean
tress_curve_view_commit_pending (TressCurveView *self, GError **error)
{
  gboolean ok = TRUE;
  g_autofree char *label = NULL;
  const TressCurveOps *ops;

  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), FALSE);
  if (self->pending_curves == NULL || self->document == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, "%s", _ ("No edit is waiting"));
      return FALSE;
    }
  ops = tress_document_get_format (TRESS_DOCUMENT (self->document))->curves;
  if (ops == NULL || ops->set_frame_count == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, "%s",
                   _ ("This format cannot change the length of an animation"));
      return FALSE;
    }
  label = g_strdup (self->pending_label);
  tress_curve_document_begin_edit (self->document, label);
  self->committing = TRUE;
  for (guint i = 0; i < self->pending_curves->len && ok; i++)
    {
      TressCurve *c = self->pending_curves->pdata[i];
      guint index = g_array_index (self->pending_indices, guint, i);

      if (g_array_index (self->pending_past_end, gboolean, i))
        {
          LengthenEdit edit = { ops, c };

          ok = tress_curve_document_apply_model_edit (self->document, index, label, lengthen_curve,
                                                      &edit, error);
        }
      else
        ok = tress_curve_document_commit_curve (self->document, index, c, 0, label, error);
    }
  if (ok)
    tress_curve_document_end_edit (self->document);
  else
    tress_curve_document_cancel_edit (self->document); /* all or nothing */
  self->committing = FALSE;
  _tress_curve_view_clear_pending (self);
  _tress_curve_view_set_message (self, NULL);
  _tress_curve_view_prune_selection (self);
  _tress_curve_view_emit_selection_changed (self);
  return ok;
}

GtkWidget *
tress_curve_view_new (void)
{
  return g_object_new (TRESS_TYPE_CURVE_VIEW, NULL);
}

/* ------------------------------------------------------------ GObject -- */

static void
tress_curve_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  TressCurveView *self = TRESS_CURVE_VIEW (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_NORMALIZED:
      g_value_set_boolean (value, self->normalized);
      break;
    case PROP_SNAP:
      g_value_set_boolean (value, self->snap);
      break;
    case PROP_AXIS_LOCK:
      g_value_set_int (value, self->axis_lock);
      break;
    case PROP_PLAYHEAD:
      g_value_set_double (value, self->playhead);
      break;
    case PROP_PLAYING:
      g_value_set_boolean (value, self->playing);
      break;
    case PROP_LOOP:
      g_value_set_boolean (value, self->loop);
      break;
    case PROP_MESSAGE:
      g_value_set_string (value, self->message);
      break;
    case PROP_TOLERANCE:
      g_value_set_double (value, self->tolerance);
      break;
    case PROP_DRAG_ERROR:
      g_value_set_double (value, self->drag_error);
      break;
    case PROP_DEFAULT_FPS:
      g_value_set_double (value, self->default_fps);
      break;
    case PROP_DEGREES:
      g_value_set_boolean (value, self->degrees);
      break;
    case PROP_NUDGE_STEP:
      g_value_set_double (value, self->nudge_step);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tress_curve_view_set_property (GObject *object, guint prop_id, const GValue *value,
                               GParamSpec *pspec)
{
  TressCurveView *self = TRESS_CURVE_VIEW (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      tress_curve_view_set_document (self, g_value_get_object (value));
      break;
    case PROP_NORMALIZED:
      if (self->normalized != g_value_get_boolean (value))
        {
          self->normalized = g_value_get_boolean (value);
          self->fitted = FALSE;
          _tress_curve_view_frame_all (self, FALSE);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_SNAP:
      if (self->snap != g_value_get_boolean (value))
        {
          self->snap = g_value_get_boolean (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_AXIS_LOCK:
      if ((int)self->axis_lock != g_value_get_int (value))
        {
          self->axis_lock = (TressAxisLock)g_value_get_int (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_PLAYHEAD:
      tress_curve_view_set_playhead (self, g_value_get_double (value));
      break;
    case PROP_PLAYING:
      _tress_curve_view_set_playing (self, g_value_get_boolean (value));
      break;
    case PROP_LOOP:
      if (self->loop != g_value_get_boolean (value))
        {
          self->loop = g_value_get_boolean (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_TOLERANCE:
      if (self->tolerance != g_value_get_double (value))
        {
          self->tolerance = g_value_get_double (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_DEFAULT_FPS:
      if (self->default_fps != g_value_get_double (value))
        {
          self->default_fps = g_value_get_double (value);
          if (self->playing)
            {
              /* Playing on from here at the new rate. */
              self->play_start_time = 0;
              self->play_start_frame = self->playhead;
            }
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_NUDGE_STEP:
      tress_curve_view_set_nudge_step (self, g_value_get_double (value));
      break;
    case PROP_DEGREES:
      if (self->degrees != g_value_get_boolean (value))
        {
          self->degrees = g_value_get_boolean (value);
          self->fitted = FALSE;
          _tress_curve_view_frame_all (self, FALSE);
          g_object_notify_by_pspec (object, pspec);
          g_signal_emit (self, _tress_curve_view_signals[SIGNAL_CURVES_CHANGED], 0);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tress_curve_view_dispose (GObject *object)
{
  TressCurveView *self = TRESS_CURVE_VIEW (object);

  if (self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }
  tress_curve_view_set_document (self, NULL);
  g_clear_handle_id (&self->nudge_idle, g_source_remove);
  g_clear_pointer (&self->lines_node, gsk_render_node_unref);
  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  G_OBJECT_CLASS (tress_curve_view_parent_class)->dispose (object);
}

static void
tress_curve_view_finalize (GObject *object)
{
  TressCurveView *self = TRESS_CURVE_VIEW (object);

  _tress_curve_view_drag_discard (self);
  g_array_unref (self->slots);
  g_hash_table_unref (self->slot_of);
  tress_curve_selection_free (self->selection);
  g_hash_table_unref (self->seen);
  g_hash_table_unref (self->broken);
  g_hash_table_unref (self->ghosts);
  g_hash_table_unref (self->extents);
  _tress_curve_view_clear_pending (self);
  g_free (self->message);
  g_free (self->ghost_label);
  G_OBJECT_CLASS (tress_curve_view_parent_class)->finalize (object);
}

static void
tress_curve_view_class_init (TressCurveViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = tress_curve_view_get_property;
  object_class->set_property = tress_curve_view_set_property;
  object_class->dispose = tress_curve_view_dispose;
  object_class->finalize = tress_curve_view_finalize;
  widget_class->snapshot = _tress_curve_view_snapshot;
  widget_class->size_allocate = _tress_curve_view_size_allocate;
  widget_class->measure = _tress_curve_view_measure;

  _tress_curve_view_props[PROP_DOCUMENT]
      = g_param_spec_object ("document", NULL, NULL, TRESS_TYPE_CURVE_DOCUMENT,
                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _tress_curve_view_props[PROP_NORMALIZED]
      = g_param_spec_boolean ("normalized", NULL, NULL, FALSE,
                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _tress_curve_view_props[PROP_SNAP]
      = g_param_spec_boolean ("snap", NULL, NULL, TRUE,
                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _tress_curve_view_props[PROP_AXIS_LOCK] = g_param_spec_int (
      "axis-lock", NULL, NULL, TRESS_AXIS_LOCK_NONE, TRESS_AXIS_LOCK_VALUE, TRESS_AXIS_LOCK_NONE,
      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _tress_curve_view_props[PROP_PLAYHEAD]
      = g_param_spec_double ("playhead", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0,
                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _tress_curve_view_props[PROP_PLAYING]
      = g_param_spec_boolean ("playing", NULL, NULL, FALSE,
                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _tress_curve_view_props[PROP_LOOP]
      = g_param_spec_boolean ("loop", NULL, NULL, TRUE,
                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _tress_curve_view_props[PROP_MESSAGE]
      = g_param_spec_string ("message", NULL, NULL, NULL,
                             G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _tress_curve_view_props[PROP_TOLERANCE]
      = g_param_spec_double ("tolerance", NULL, NULL, -1, G_MAXDOUBLE, -1,
                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _tress_curve_view_props[PROP_DRAG_ERROR]
      = g_param_spec_double ("drag-error", NULL, NULL, -1, G_MAXDOUBLE, -1,
                             G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _tress_curve_view_props[PROP_DEFAULT_FPS]
      = g_param_spec_double ("default-fps", NULL, NULL, 1, 1000, 30,
                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _tress_curve_view_props[PROP_DEGREES]
      = g_param_spec_boolean ("degrees", NULL, NULL, TRUE,
                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* 0: a tenth of the value grid's spacing (tress_curve_view_get_nudge_step
   * gives the step in use; notified also when the automatic one changes). */
  _tress_curve_view_props[PROP_NUDGE_STEP]
      = g_param_spec_double ("nudge-step", NULL, NULL, 0, G_MAXDOUBLE, 0,
                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, _tress_curve_view_props);

  _tress_curve_view_signals[SIGNAL_SELECTION_CHANGED]
      = g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                      NULL, NULL, G_TYPE_NONE, 0);
  _tress_curve_view_signals[SIGNAL_DRAG_UPDATE]
      = g_signal_new ("drag-update", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 0);
  _tress_curve_view_signals[SIGNAL_CURVES_CHANGED]
      = g_signal_new ("curves-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 0);

  _tress_curve_view_signals[SIGNAL_PLAY_RANGE_CHANGED]
      = g_signal_new ("play-range-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                      NULL, NULL, G_TYPE_NONE, 0);

  _tress_curve_view_class_init_actions (widget_class);
  _tress_curve_view_class_init_play_range (widget_class);

  gtk_widget_class_set_css_name (widget_class, "curveview");
}

static void
tress_curve_view_init (TressCurveView *self)
{
  self->slots = g_array_new (FALSE, TRUE, sizeof (Slot));
  self->slot_of = g_hash_table_new (NULL, NULL);
  self->selection = tress_curve_selection_new ();
  self->seen = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)tress_curve_unref);
  self->broken = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->ghosts = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)tress_curve_unref);
  self->extents = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)extents_free);
  self->snap = TRUE;
  self->loop = TRUE;
  self->tolerance = -1;
  self->default_fps = 30;
  self->degrees = TRUE;
  self->drag_error = -1;
  self->drag_error_scale = 1;
  tress_curve_viewport_init (&self->vp, 640, 360);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  /* Keys and labels near the edges are cut at the graph's allocation. */
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);

  _tress_curve_view_init_input (self);
  g_signal_connect_object (tress_curve_clipboard_get_default (), "changed",
                           G_CALLBACK (_tress_curve_view_update_actions), self, G_CONNECT_SWAPPED);
  _tress_curve_view_update_actions (self);
}
