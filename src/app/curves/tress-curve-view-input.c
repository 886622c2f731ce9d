/* tress-curve-view-input.c: the curve view's pointer: click, drag, box selection, wheel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-view-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "tress-curve-paint.h"
#include "tress-curve-store-question.h"

/* -------------------------------------------------------- pointer / drag -- */

static void
set_drag_error (TressCurveView *self, double error)
{
  if (self->drag_error == error)
    return;
  self->drag_error = error;
  g_object_notify_by_pspec (G_OBJECT (self), _tress_curve_view_props[PROP_DRAG_ERROR]);
}

double
tress_curve_view_get_tolerance_for (TressCurveView *self, const TressCurve *curve)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 0);
  if (self->tolerance >= 0 || curve == NULL)
    return MAX (self->tolerance, 0);
  return tress_curve_get_precision (curve);
}

/* The error accepted silently for the curves being dragged: the smallest. */
double
_tress_curve_view_drag_tolerance (TressCurveView *self)
{
  double t = G_MAXDOUBLE;

  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);

      if (s->orig != NULL)
        t = MIN (t, tress_curve_view_get_tolerance_for (self, s->orig));
    }
  return t == G_MAXDOUBLE ? MAX (self->tolerance, 0) : t;
}

double
tress_curve_view_get_drag_tolerance (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 0);
  return _tress_curve_view_drag_tolerance (self);
}

/* The largest quantization error the format would give the dragged curves as
 * they are now, asked of the format without storing anything. */
static void
update_drag_error (TressCurveView *self)
{
  double worst = -1, worst_scale = 1;
  guint n_keys = 0;
  gint64 now = g_get_monotonic_time ();

  /* The format re-encodes whole curves for it: for long curves, at most
   * twenty times a second, not on every pointer motion. */
  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);

      if (s->edit != NULL)
        n_keys += tress_curve_get_n_keys (s->edit);
    }
  if (n_keys > 5000 && self->drag_error >= 0 && now - self->drag_error_time < 50000)
    return;
  self->drag_error_time = now;

  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);
      double e = 0;

      /* Keys that passed each other are refused at the end anyway. */
      if (s->edit == NULL || s->permuted)
        continue;
      if (tress_curve_document_preview_error (self->document, s->index, s->edit, &e, NULL)
          && e > worst)
        {
          worst = e;
          worst_scale = _tress_curve_view_unit_scale (self, s->orig);
        }
    }
  self->drag_error_scale = worst_scale;
  set_drag_error (self, worst);
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

void
_tress_curve_view_drag_discard (TressCurveView *self)
{
  gboolean had_copies = FALSE;

  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);
      had_copies |= s->edit != NULL;
      g_clear_pointer (&s->edit, tress_curve_unref);
      g_clear_pointer (&s->orig, tress_curve_unref);
      g_clear_pointer (&s->drag_sel, g_array_unref);
      g_clear_pointer (&s->drag_now, g_array_unref);
      s->permuted = FALSE;
    }
  set_drag_error (self, -1);
  if (had_copies)
    {
      g_signal_emit (self, _tress_curve_view_signals[SIGNAL_DRAG_UPDATE], 0);
      /* Their curves are drawn among the still ones again. */
      _tress_curve_view_invalidate_lines (self);
    }
}

static void
drag_prepare_copies (TressCurveView *self)
{
  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);
      g_autoptr (GArray) keys = _tress_curve_view_selected_keys_of (self, s->index);
      const TressCurve *c;

      if (s->locked || !_tress_curve_view_slot_shown (self, s))
        continue;
      if (keys->len == 0 && !(self->drag == DRAG_HANDLE && self->drag_hit.curve == s->index))
        continue;
      c = tress_curve_document_get_curve (self->document, s->index);
      if (c == NULL)
        continue;
      s->orig = tress_curve_copy (c);
      s->edit = tress_curve_copy (c);
      s->drag_sel = g_array_copy (keys);
      s->drag_now = g_array_copy (keys);
      s->permuted = FALSE;
    }
}

void
_tress_curve_view_pointer_press (TressCurveView *self, double x, double y, gboolean shift)
{
  g_autofree TressCurveLayer *layers = _tress_curve_view_build_layers (self);
  TressCurveHit hit;

  self->drag_x0 = self->drag_x = x;
  self->drag_y0 = self->drag_y = y;
  self->drag_started = FALSE;
  self->drag_shift = shift;
  if (y >= gtk_widget_get_height (GTK_WIDGET (self)) - RULER_HEIGHT)
    {
      /* On the frame ruler (the pointer actions' way there; a real pointer
       * reaches the ruler itself). */
      self->drag = DRAG_RULER;
      self->drag_started = TRUE;
      tress_curve_ruler_press (TRESS_CURVE_RULER (self->ruler), x);
      return;
    }
  if (tress_curve_hit_test (layers, self->slots->len, &self->vp, x, y, HIT_RADIUS, TRUE, &hit))
    {
      Slot *s = &g_array_index (self->slots, Slot, hit.layer);
      Sel sel = { s->index, (guint)hit.key, hit.part };

      self->drag_hit = sel;
      if (hit.part == TRESS_CURVE_PART_KEY)
        {
          gboolean at = _tress_curve_view_sel_has (self, sel.curve, sel.key, sel.part);

          if (shift && at)
            {
              /* Shift-click on a selected key takes it out of the selection. */
              tress_curve_selection_remove (self->selection, sel.curve, sel.key, sel.part);
              self->drag = DRAG_NONE;
              _tress_curve_view_emit_selection_changed (self);
              return;
            }
          if (!at)
            {
              if (!shift)
                _tress_curve_view_sel_clear (self);
              _tress_curve_view_sel_add (self, sel.curve, sel.key, sel.part);
            }
          _tress_curve_view_set_active (self, sel.curve, sel.key);
          self->drag = DRAG_KEYS;
        }
      else
        {
          if (!shift)
            _tress_curve_view_sel_clear (self);
          _tress_curve_view_sel_add (self, sel.curve, sel.key, sel.part);
          _tress_curve_view_set_active (self, sel.curve, sel.key);
          self->drag = DRAG_HANDLE;
        }
      _tress_curve_view_emit_selection_changed (self);
    }
  else
    self->drag = DRAG_BOX;
}

static double
snap_step_for (TressCurveView *self, const TressCurve *c, gboolean invert_snap)
{
  gboolean snap = self->snap != invert_snap;
  double grid = _tress_curve_view_frame_grid (c);

  if (snap)
    return MAX (grid, 1.0);
  return grid;
}

static void
drag_update_keys (TressCurveView *self, double x, double y, gboolean invert_snap)
{
  double df = (x - self->drag_x0) * tress_curve_viewport_frames_per_px (&self->vp);
  double dv = -(y - self->drag_y0) * tress_curve_viewport_values_per_px (&self->vp);
  Slot *grab = _tress_curve_view_slot_for (self, self->drag_hit.curve);

  tress_curve_axis_lock_apply (self->axis_lock, &df, &dv);
  /* Snap so that the grabbed key lands on the grid (whole frames, or the format's own). */
  if (grab != NULL && grab->orig != NULL
      && self->drag_hit.key < tress_curve_get_n_keys (grab->orig))
    {
      double f0 = tress_curve_get_key (grab->orig, self->drag_hit.key)->frame;
      df = tress_curve_snap_frame (f0 + df, snap_step_for (self, grab->orig, invert_snap)) - f0;
    }
  self->drag_df = df;
  self->drag_dv = dv;

  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);
      GArray *keys = s->drag_sel;
      TressValueMap map;
      double dvc;
      guint n;

      if (s->edit == NULL || keys == NULL)
        continue;
      map = _tress_curve_view_slot_map (self, s);
      dvc = dv / (map.scale != 0 ? map.scale : 1);
      n = tress_curve_get_n_keys (s->edit);
      if (!s->permuted)
        {
          /* Only the moved keys and their neighbours change: O(selection) per step. */
          if (tress_curve_drag_step (s->edit, s->orig, (const guint *)keys->data, keys->len, df,
                                     dvc))
            continue;
        }
      /* Keys passed each other: rebuild the drawn copy from the original, sorted,
       * and follow where the moved keys went (O(keys) per step from here on). */
      tress_curve_unref (s->edit);
      s->edit = tress_curve_copy (s->orig);
      for (guint k = 0; k < keys->len; k++)
        {
          guint ki = g_array_index (keys, guint, k);
          TressKey *e = tress_curve_get_key (s->edit, ki);

          e->frame += df;
          e->value += dvc;
        }
      g_array_set_size (s->drag_now, 0);
      g_array_append_vals (s->drag_now, keys->data, keys->len);
      /* Two keys on one frame stay visible as such; the drag's end refuses them. */
      tress_curve_sort_tracking (s->edit, s->drag_now);
      s->permuted = TRUE;
      for (guint k = 0; k < n; k++)
        tress_curve_update_tangent (s->edit, k);
      _tress_curve_view_replace_curve_selection (self, s->index, s->drag_now);
    }
}

static void
drag_update_handle (TressCurveView *self, double x, double y)
{
  Slot *s = _tress_curve_view_slot_for (self, self->drag_hit.curve);
  TressValueMap map;
  double value, slope;
  TressKey *k;

  if (s == NULL || s->edit == NULL)
    return;
  map = _tress_curve_view_slot_map (self, s);
  value = (tress_curve_viewport_y_to_value (&self->vp, y) - map.offset)
          / (map.scale != 0 ? map.scale : 1);
  slope = tress_curve_handle_slope (s->orig, self->drag_hit.key, self->drag_hit.part, value);
  k = tress_curve_get_key (s->edit, self->drag_hit.key);
  /* Dragging a handle makes the tangent manual; unless broken both sides follow. */
  k->tangent = TRESS_TANGENT_MANUAL;
  if (self->drag_hit.part == TRESS_CURVE_PART_OUT_HANDLE)
    k->out_slope = slope;
  else
    k->in_slope = slope;
  if (!_tress_curve_view_key_is_broken (self, s->index, k) || s->edit->limits.tied_tangents)
    k->in_slope = k->out_slope = slope;
  else
    k->flags |= TRESS_KEY_BROKEN;
}

void
_tress_curve_view_pointer_motion (TressCurveView *self, double x, double y, gboolean invert_snap)
{
  gboolean began = FALSE;

  self->drag_x = x;
  self->drag_y = y;
  if (self->drag == DRAG_NONE)
    return;
  if (!self->drag_started)
    {
      if (hypot (x - self->drag_x0, y - self->drag_y0) < DRAG_THRESHOLD)
        return;
      self->drag_started = began = TRUE;
      if (self->drag == DRAG_KEYS || self->drag == DRAG_HANDLE)
        drag_prepare_copies (self);
    }
  switch (self->drag)
    {
    case DRAG_KEYS:
    case DRAG_HANDLE:
      if (self->drag == DRAG_KEYS)
        drag_update_keys (self, x, y, invert_snap);
      else
        drag_update_handle (self, x, y);
      update_drag_error (self);
      g_signal_emit (self, _tress_curve_view_signals[SIGNAL_DRAG_UPDATE], 0);
      /* The curves that move leave the still lines once, as the drag
       * begins; after that only their own lines are painted again. */
      if (began)
        _tress_curve_view_invalidate_lines (self);
      else
        _tress_curve_view_invalidate_moving_lines (self);
      break;
    case DRAG_PAN:
      tress_curve_viewport_pan (&self->vp, x - self->drag_x0, y - self->drag_y0);
      self->framed_all = FALSE;
      self->drag_x0 = x;
      self->drag_y0 = y;
      _tress_curve_view_invalidate_lines (self);
      break;
    case DRAG_RULER:
      tress_curve_ruler_motion (TRESS_CURVE_RULER (self->ruler), x, invert_snap);
      break;
    case DRAG_BOX:
      /* Only the box changes: the lines stay as painted. */
      gtk_widget_queue_draw (GTK_WIDGET (self));
      break;
    case DRAG_NONE:
    default:
      break;
    }
}

/* Commits the drag as one undo step: the same edit as the keyboard's (a move
 * of the keys by the drag's deltas, or the slopes of the dragged handle), from
 * the curves as they were when it began. */
static void
drag_commit (TressCurveView *self)
{
  g_autofree double *d_value = g_new0 (double, MAX (self->slots->len, 1));
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_MOVE, .d_frame = self->drag_df };
  guint n_keys = _tress_curve_view_count_selected_keys (self);
  gboolean handle = self->drag == DRAG_HANDLE;

  if (handle)
    {
      Slot *s = _tress_curve_view_slot_for (self, self->drag_hit.curve);

      if (s == NULL || s->edit == NULL || self->drag_hit.key >= tress_curve_get_n_keys (s->edit))
        {
          _tress_curve_view_drag_discard (self);
          return;
        }
      e = (TressCurveEdit){ .kind = TRESS_CURVE_EDIT_SET_SLOPES,
                            .key = self->drag_hit.key,
                            .value = *tress_curve_get_key (s->edit, self->drag_hit.key) };
    }
  else
    for (guint i = 0; i < self->slots->len; i++)
      {
        Slot *s = &g_array_index (self->slots, Slot, i);
        TressValueMap map = _tress_curve_view_slot_map (self, s); /* the drag's, from its start */

        d_value[i] = self->drag_dv / (map.scale != 0 ? map.scale : 1);
        /* The selection followed keys that passed others: back to where they
         * are in the curves the edit starts from. */
        if (s->drag_sel != NULL)
          _tress_curve_view_replace_curve_selection (self, s->index, s->drag_sel);
      }
  /* The document's signals redraw from its curves: drop the copies first. */
  _tress_curve_view_drag_discard (self);
  _tress_curve_view_set_message (self, NULL);
  _tress_curve_view_apply_edit (self, &e, n_keys, handle ? TARGET_HIT : TARGET_SELECTED,
                                handle ? NULL : _tress_curve_view_prepare_drag, d_value);
  _tress_curve_view_prune_selection (self);
  _tress_curve_view_invalidate_lines (self);
  _tress_curve_view_emit_selection_changed (self);
}

void
_tress_curve_view_pointer_release (TressCurveView *self, double x, double y, gboolean invert_snap)
{
  _tress_curve_view_pointer_motion (self, x, y, invert_snap);
  switch (self->drag)
    {
    case DRAG_KEYS:
    case DRAG_HANDLE:
      if (self->drag_started)
        drag_commit (self);
      break;
    case DRAG_BOX:
      {
        g_autofree TressCurveLayer *layers = _tress_curve_view_build_layers (self);
        g_autoptr (GArray) hits = g_array_new (FALSE, FALSE, sizeof (TressCurveHit));

        if (!self->drag_shift)
          {
            _tress_curve_view_sel_clear (self);
            self->has_active = FALSE;
          }
        if (self->drag_started)
          tress_curve_box_select (layers, self->slots->len, &self->vp, self->drag_x0, self->drag_y0,
                                  x, y, TRUE, hits);
        for (guint i = 0; i < hits->len; i++)
          {
            TressCurveHit *h = &g_array_index (hits, TressCurveHit, i);
            Slot *s = &g_array_index (self->slots, Slot, h->layer);

            _tress_curve_view_sel_add (self, s->index, (guint)h->key, h->part);
            if (!self->has_active && h->part == TRESS_CURVE_PART_KEY)
              _tress_curve_view_set_active (self, s->index, (guint)h->key);
          }
        _tress_curve_view_emit_selection_changed (self);
      }
      break;
    case DRAG_RULER:
      tress_curve_ruler_release (TRESS_CURVE_RULER (self->ruler), x, invert_snap);
      break;
    case DRAG_PAN:
    case DRAG_NONE:
    default:
      break;
    }
  self->drag = DRAG_NONE;
  self->drag_started = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* A box from (@x0, @y0) to (@x1, @y1) selects what it holds, as the pointer
 * would (@extend: added to the selection, as with Shift). */
void
_tress_curve_view_box_select (TressCurveView *self, double x0, double y0, double x1, double y1,
                              gboolean extend)
{
  self->drag = DRAG_BOX;
  self->drag_shift = extend;
  self->drag_x0 = x0;
  self->drag_y0 = y0;
  self->drag_started = TRUE;
  _tress_curve_view_pointer_release (self, x1, y1, FALSE);
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, TressCurveView *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  GdkModifierType mods
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  if (button == GDK_BUTTON_SECONDARY)
    {
      /* The context menu's: see on_context_released. */
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (button == GDK_BUTTON_MIDDLE)
    {
      self->drag = DRAG_PAN;
      self->drag_started = FALSE;
      self->drag_x0 = self->drag_x = x;
      self->drag_y0 = self->drag_y = y;
      return;
    }
  _tress_curve_view_pointer_press (self, x, y, (mods & GDK_SHIFT_MASK) != 0);
}

/* The gesture was taken away mid-drag (a grab, the widget moved): nothing of
 * the drag is kept, and nothing of it stays drawn. */
static void
on_drag_cancel (GtkGesture *gesture, GdkEventSequence *sequence, TressCurveView *self)
{
  _tress_curve_view_drag_discard (self);
  self->drag = DRAG_NONE;
  self->drag_started = FALSE;
  _tress_curve_view_invalidate_lines (self);
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, TressCurveView *self)
{
  double x0, y0;
  GdkModifierType mods
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  gtk_gesture_drag_get_start_point (gesture, &x0, &y0);
  _tress_curve_view_pointer_motion (self, x0 + dx, y0 + dy, (mods & GDK_CONTROL_MASK) != 0);
}

static void
on_drag_end (GtkGestureDrag *gesture, double dx, double dy, TressCurveView *self)
{
  double x0, y0;
  GdkModifierType mods
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  gtk_gesture_drag_get_start_point (gesture, &x0, &y0);
  _tress_curve_view_pointer_release (self, x0 + dx, y0 + dy, (mods & GDK_CONTROL_MASK) != 0);
}

/* The visible, unlocked curve drawn nearest to (@x, @y) at that frame, or NULL. */
static Slot *
nearest_curve (TressCurveView *self, double x, double y, double max_px)
{
  double frame = tress_curve_viewport_x_to_frame (&self->vp, x);
  Slot *best = NULL;
  double best_d = max_px;

  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);
      const TressCurve *c = _tress_curve_view_slot_curve (self, s);
      TressValueMap map;
      double cy;

      if (c == NULL || !_tress_curve_view_slot_shown (self, s) || s->locked
          || tress_curve_get_n_keys (c) == 0)
        continue;
      map = _tress_curve_view_slot_map (self, s);
      cy = tress_curve_viewport_value_to_y (
          &self->vp, tress_curve_geometry_value (c, frame) * map.scale + map.offset);
      if (fabs (cy - y) <= best_d)
        {
          best_d = fabs (cy - y);
          best = s;
        }
    }
  return best;
}

/* Inserts a key, keeping the shape, on the curve drawn at (@x, @y). */
gboolean
_tress_curve_view_insert_on_curve (TressCurveView *self, double x, double y)
{
  Slot *s;
  double frame;

  s = nearest_curve (self, x, y, 8);
  if (s == NULL)
    {
      _tress_curve_view_set_message (self, _ ("No curve there to insert a key on"));
      return FALSE;
    }
  frame = tress_curve_snap_frame (
      tress_curve_viewport_x_to_frame (&self->vp, x),
      MAX (_tress_curve_view_frame_grid (_tress_curve_view_slot_curve (self, s)),
           self->snap ? 1.0 : 0));
  _tress_curve_view_sel_clear (self);
  _tress_curve_view_set_active (self, s->index, 0);
  _tress_curve_view_insert_at (self, frame);
  return TRUE;
}

static void
on_double_click (GtkGestureClick *gesture, int n_press, double x, double y, TressCurveView *self)
{
  /* A double click on a curve inserts a key there; the press ends no drag. */
  if (n_press == 2 && _tress_curve_view_insert_on_curve (self, x, y))
    self->drag = DRAG_NONE;
}

static void
on_motion (GtkEventControllerMotion *controller, double x, double y, TressCurveView *self)
{
  self->pointer_x = x;
  self->pointer_y = y;
}

static gboolean
on_scroll (GtkEventControllerScroll *controller, double dx, double dy, TressCurveView *self)
{
  GdkModifierType mods
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  double factor = pow (1.15, -dy);

  /* The wheel zooms frames; Ctrl zooms values; Shift zooms both. */
  if (mods & GDK_SHIFT_MASK)
    tress_curve_viewport_zoom (&self->vp, factor, factor, self->pointer_x, self->pointer_y);
  else if (mods & GDK_CONTROL_MASK)
    tress_curve_viewport_zoom (&self->vp, 1, factor, self->pointer_x, self->pointer_y);
  else
    tress_curve_viewport_zoom (&self->vp, factor, 1, self->pointer_x, self->pointer_y);
  self->framed_all = FALSE;
  _tress_curve_view_invalidate_lines (self);
  return TRUE;
}

/* ------------------------------------------------------- context menu -- */

static GMenuItem *
menu_item (const char *label, const char *action, GVariant *target)
{
  GMenuItem *item = g_menu_item_new (label, NULL);

  g_menu_item_set_action_and_target_value (item, action, target);
  return item;
}

static void
menu_append (GMenu *menu, const char *label, const char *action, GVariant *target)
{
  g_autoptr (GMenuItem) item = menu_item (label, action, target);

  g_menu_append_item (menu, item);
}

/* What a right-click at (@x, @y) offers: inserting where the pointer is (on a
 * curve drawn there), the selected keys' commands, and framing. */
static GMenuModel *
context_menu_model (TressCurveView *self, double x, double y)
{
  GMenu *menu = g_menu_new ();
  g_autoptr (GMenu) insert = g_menu_new ();
  g_autoptr (GMenu) keys = g_menu_new ();
  g_autoptr (GMenu) interpolation = g_menu_new ();
  g_autoptr (GMenu) tangents = g_menu_new ();
  g_autoptr (GMenu) clip = g_menu_new ();
  g_autoptr (GMenu) view = g_menu_new ();
  static const struct
  {
    const char *label, *target;
  } interp[] = { { N_ ("Step"), "step" },
                 { N_ ("Linear"), "linear" },
                 { N_ ("Hermite"), "hermite" },
                 { N_ ("Baked"), "baked" } },
    tangent[] = { { N_ ("Auto"), "auto" },       { N_ ("Auto Clamped"), "auto-clamped" },
                  { N_ ("Flat"), "flat" },       { N_ ("Linear"), "linear" },
                  { N_ ("Unified"), "unified" }, { N_ ("Broken"), "broken" } };

  if (nearest_curve (self, x, y, 3 * HIT_RADIUS) != NULL)
    menu_append (insert, _ ("Insert Key Here"), "curve.insert-on-curve",
                 g_variant_new ("(dd)", x, y));
  menu_append (insert, _ ("Insert Key at Playhead"), "curve.insert-at-playhead", NULL);
  g_menu_append_section (menu, NULL, G_MENU_MODEL (insert));

  for (guint i = 0; i < G_N_ELEMENTS (interp); i++)
    menu_append (interpolation, _ (interp[i].label), "curve.set-interpolation",
                 g_variant_new_string (interp[i].target));
  for (guint i = 0; i < G_N_ELEMENTS (tangent); i++)
    menu_append (tangents, _ (tangent[i].label), "curve.set-tangent",
                 g_variant_new_string (tangent[i].target));
  g_menu_append_submenu (keys, _ ("Interpolation"), G_MENU_MODEL (interpolation));
  g_menu_append_submenu (keys, _ ("Tangents"), G_MENU_MODEL (tangents));
  menu_append (keys, _ ("Duplicate Keys"), "curve.duplicate", NULL);
  menu_append (keys, _ ("Delete Keys"), "curve.delete", NULL);
  g_menu_append_section (menu, NULL, G_MENU_MODEL (keys));

  menu_append (clip, _ ("Copy"), "curve.copy", NULL);
  menu_append (clip, _ ("Paste at Playhead"), "curve.paste", g_variant_new_boolean (TRUE));
  menu_append (clip, _ ("Paste in Place"), "curve.paste", g_variant_new_boolean (FALSE));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (clip));

  menu_append (view, _ ("Frame Selected"), "curve.frame-selected", NULL);
  menu_append (view, _ ("Frame All"), "curve.frame-all", NULL);
  g_menu_append_section (menu, NULL, G_MENU_MODEL (view));
  return G_MENU_MODEL (menu);
}

void
_tress_curve_view_popup_context_menu (TressCurveView *self, double x, double y)
{
  g_autofree TressCurveLayer *layers = _tress_curve_view_build_layers (self);
  g_autoptr (GMenuModel) model = NULL;
  TressCurveHit hit;
  GdkRectangle at = { (int)x, (int)y, 1, 1 };

  /* A right-click on a key that is not selected selects it alone, as in
   * every file manager: the menu then acts on what was clicked. */
  if (tress_curve_hit_test (layers, self->slots->len, &self->vp, x, y, HIT_RADIUS, TRUE, &hit)
      && hit.part == TRESS_CURVE_PART_KEY)
    {
      Slot *s = &g_array_index (self->slots, Slot, hit.layer);

      if (!_tress_curve_view_sel_has (self, s->index, (guint)hit.key, hit.part))
        {
          _tress_curve_view_sel_clear (self);
          _tress_curve_view_sel_add (self, s->index, (guint)hit.key, hit.part);
        }
      _tress_curve_view_set_active (self, s->index, (guint)hit.key);
      _tress_curve_view_emit_selection_changed (self);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
  model = context_menu_model (self, x, y);
  if (self->context_menu == NULL)
    {
      self->context_menu = gtk_popover_menu_new_from_model (model);
      gtk_widget_set_parent (self->context_menu, GTK_WIDGET (self));
      gtk_popover_set_has_arrow (GTK_POPOVER (self->context_menu), FALSE);
      gtk_widget_set_halign (self->context_menu, GTK_ALIGN_START);
    }
  else
    gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->context_menu), model);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->context_menu), &at);
  gtk_popover_popup (GTK_POPOVER (self->context_menu));
}

GtkWidget *
tress_curve_view_get_context_menu (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), NULL);
  return self->context_menu;
}

/* On the release: the press and the release both reach the graph before the
 * menu takes the pointer. */
static void
on_context_released (GtkGestureClick *gesture, int n_press, double x, double y,
                     TressCurveView *self)
{
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  gtk_widget_grab_focus (GTK_WIDGET (self));
  _tress_curve_view_popup_context_menu (self, x, y);
}

void
_tress_curve_view_init_input (TressCurveView *self)
{
  GtkGesture *drag;
  GtkEventController *controller;

  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  g_signal_connect (drag, "cancel", G_CALLBACK (on_drag_cancel), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  drag = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "pressed", G_CALLBACK (on_double_click), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  drag = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_SECONDARY);
  g_signal_connect (drag, "released", G_CALLBACK (on_context_released), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (on_motion), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  g_signal_connect (controller, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}
