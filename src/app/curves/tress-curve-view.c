/* tress-curve-view.c: the graph of one or more animation curves
 *
 * Files: this one (the object, its document and the curves it shows),
 * -selection.c (selected keys), -commands.c (what the commands do),
 * -actions.c (actions and key bindings), -edits.c (storing edits),
 * -offers.c (edits kept while the user is asked), -input.c (pointer),
 * -snapshot.c (drawing), -transport.c (playhead, playback, play range),
 * -time.c (the dope sheet's entry points); -private.h holds what they share.
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

double
tress_curve_view_get_display_scale (TressCurveView *self, guint curve_index)
{
  Slot *s = _tress_curve_view_slot_for (self, curve_index);
  const TressCurve *c = s != NULL ? _tress_curve_view_slot_curve (self, s) : NULL;

  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 1);
  return _tress_curve_view_unit_scale (self, c);
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

/* Every line is painted again at the next frame (the data, the curves shown,
 * the view or the ghosts changed). */
void
_tress_curve_view_invalidate_lines (TressCurveView *self)
{
  g_clear_pointer (&self->still_node, gsk_render_node_unref);
  g_clear_pointer (&self->moving_node, gsk_render_node_unref);
  self->lines_valid = 0;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  /* The frames in view may have changed. */
  if (self->ruler != NULL)
    gtk_widget_queue_draw (self->ruler);
}

/* Only the lines of the curves a drag moves are painted again. */
void
_tress_curve_view_invalidate_moving_lines (TressCurveView *self)
{
  g_clear_pointer (&self->moving_node, gsk_render_node_unref);
  self->lines_valid &= ~(guint)LINES_MOVING;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
_tress_curve_view_emit_selection_changed (TressCurveView *self)
{
  _tress_curve_view_update_actions (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, _tress_curve_view_signals[SIGNAL_SELECTION_CHANGED], 0);
}

double
_tress_curve_view_frame_grid (const TressCurve *c)
{
  return c != NULL && c->limits.frame_step > 0 ? c->limits.frame_step : 0;
}

/* ----------------------------------------------------------- document -- */

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
    _tress_curve_view_follow_keys (self, index);
  if (tress_curve_selection_has_curve (self->selection, index)
      || (self->has_active && self->active_curve == index))
    _tress_curve_view_see_curve (self, index);
  else
    g_hash_table_remove (self->seen, GUINT_TO_POINTER (index));
  _tress_curve_view_prune_curve_selection (self, index);
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
      _tress_curve_view_see_curve (self, g_array_index (curves, guint, i));
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

const char *
tress_curve_view_get_message (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), NULL);
  return self->message;
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
  g_clear_pointer (&self->still_node, gsk_render_node_unref);
  g_clear_pointer (&self->moving_node, gsk_render_node_unref);
  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  g_clear_pointer (&self->ruler, gtk_widget_unparent);
  if (self->actions != NULL)
    {
      /* The editor may keep the group: its actions do nothing from now on. */
      gtk_widget_insert_action_group (GTK_WIDGET (self), "curve", NULL);
      g_signal_handlers_disconnect_by_data (tress_curve_clipboard_get_default (), self);
      g_clear_object (&self->actions);
    }
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
  g_object_unref (self->groups);
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

  gtk_widget_class_set_css_name (widget_class, "curveview");
}

static void
tress_curve_view_init (TressCurveView *self)
{
  self->slots = g_array_new (FALSE, TRUE, sizeof (Slot));
  self->slot_of = g_hash_table_new (NULL, NULL);
  self->selection = tress_curve_selection_new ();
  self->groups = tress_curve_groups_new ();
  self->seen = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)tress_curve_unref);
  self->broken = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->ghosts = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)tress_curve_unref);
  self->extents = g_hash_table_new_full (NULL, NULL, NULL, _tress_curve_view_extents_free);
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

  self->ruler = tress_curve_ruler_new (self);
  gtk_widget_set_parent (self->ruler, GTK_WIDGET (self));
  _tress_curve_view_init_input (self);
  _tress_curve_view_init_actions (self);
}
