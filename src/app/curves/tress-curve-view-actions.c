/* tress-curve-view-actions.c: the curve view's actions and key bindings
 *
 * Actions (group "curve."), the ones with a parameter give its GVariant type:
 *   select-all, select-none, select-key (uub: curve, key, extend), context-menu,
 *   click (ddb: x, y, shift), drag (ddddb: x0, y0, x1, y1, invert snapping),
 *   box-select (ddddb: x0, y0, x1, y1, extend), previous-key, next-key,
 *   move (dd: frames, values), nudge (ii: frames, nudge steps; see
 *   tress_curve_view_get_nudge_step), nudge-stored (i: stored value steps),
 *   scale (ddb: frame factor, value factor, around the playhead),
 *   insert-key (d: frame), insert-on-curve (dd: x, y; a double click),
 *   insert-at-playhead, delete, duplicate, copy,
 *   paste (b: at the playhead), set-interpolation (s), set-tangent (s: auto,
 *   auto-clamped, flat, linear, manual, unified, broken), frame-all,
 *   frame-selected, zoom (dd: frame factor, value factor), pan (dd: pixels),
 *   hide (ub), lock (ub), solo (ub), bake, fit (d: tolerance), goto-frame (d), play,
 *   pause, toggle-play; property actions normalized, snap, loop;
 *   axis-lock (s: none, frame, value).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-view-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "tress-curve-paint.h"
#include "tress-curve-store-question.h"

/* ------------------------------------------------------------- actions -- */

static void
act_select_all (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);

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

static void
act_select_none (GtkWidget *w, const char *name, GVariant *p)
{
  tress_curve_view_select_none (TRESS_CURVE_VIEW (w));
}

static void
act_select_key (GtkWidget *w, const char *name, GVariant *p)
{
  guint curve, key;
  gboolean extend;

  g_variant_get (p, "(uub)", &curve, &key, &extend);
  tress_curve_view_select_key (TRESS_CURVE_VIEW (w), curve, key, TRESS_CURVE_PART_KEY, extend);
}

static void
act_click (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  double x, y;
  gboolean shift;

  g_variant_get (p, "(ddb)", &x, &y, &shift);
  _tress_curve_view_pointer_press (self, x, y, shift);
  _tress_curve_view_pointer_release (self, x, y, FALSE);
}

static void
act_drag (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  double x0, y0, x1, y1;
  gboolean invert;

  g_variant_get (p, "(ddddb)", &x0, &y0, &x1, &y1, &invert);
  _tress_curve_view_pointer_press (self, x0, y0, FALSE);
  /* Two motion steps, as a pointer would send. */
  _tress_curve_view_pointer_motion (self, (x0 + x1) / 2, (y0 + y1) / 2, invert);
  _tress_curve_view_pointer_release (self, x1, y1, invert);
}

static void
act_box_select (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  double x0, y0, x1, y1;
  gboolean extend;

  g_variant_get (p, "(ddddb)", &x0, &y0, &x1, &y1, &extend);
  self->drag = DRAG_BOX;
  self->drag_shift = extend;
  self->drag_x0 = x0;
  self->drag_y0 = y0;
  self->drag_started = TRUE;
  _tress_curve_view_pointer_release (self, x1, y1, FALSE);
}

/* The right-click menu from the keyboard (Menu, Shift+F10): at the active key
 * when it is in view, else in the middle of the graph. */
static void
act_context_menu (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  double x = self->vp.width / 2, y = self->vp.height / 2;
  Slot *s = self->has_active ? _tress_curve_view_slot_for (self, self->active_curve) : NULL;
  const TressCurve *c = s != NULL ? _tress_curve_view_slot_curve (self, s) : NULL;

  if (c != NULL && self->active_key < tress_curve_get_n_keys (c))
    {
      const TressKey *k = tress_curve_get_key (c, self->active_key);
      TressValueMap map = _tress_curve_view_slot_map (self, s);
      double kx = tress_curve_viewport_frame_to_x (&self->vp, k->frame);
      double ky = tress_curve_viewport_value_to_y (&self->vp, k->value * map.scale + map.offset);

      if (kx >= 0 && kx < self->vp.width && ky >= 0 && ky < self->vp.height)
        {
          x = kx;
          y = ky;
        }
    }
  _tress_curve_view_popup_context_menu (self, x, y);
}

static void
act_step_key (GtkWidget *w, const char *name, GVariant *p)
{
  _tress_curve_view_step_key (TRESS_CURVE_VIEW (w), g_str_equal (name, "curve.next-key") ? 1 : -1);
}

static void
act_move (GtkWidget *w, const char *name, GVariant *p)
{
  double df, dv;

  g_variant_get (p, "(dd)", &df, &dv);
  _tress_curve_view_move (TRESS_CURVE_VIEW (w), df, dv);
}

static void
act_nudge (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  int fx, vy;

  double step;
  g_autoptr (GArray) curves = tress_curve_selection_dup_curves (self->selection);
  gboolean whole = curves->len > 0;

  g_variant_get (p, "(ii)", &fx, &vy);
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
  _tress_curve_view_move (self, fx, vy * step);
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

static void
act_nudge_stored (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_MOVE };
  int n = g_variant_get_int32 (p);

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
  return _tress_curve_view_nice_step (self->vp.value_max - self->vp.value_min, 10) / 10;
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

static void
act_scale (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_SCALE };
  double fmin = G_MAXDOUBLE, fmax = -G_MAXDOUBLE;

  g_variant_get (p, "(ddb)", &e.frame_factor, &e.value_factor, &e.value_at_pivot);
  selected_frame_range (self, &fmin, &fmax);
  if (fmin > fmax)
    return;
  /* Around the middle of the selection, or the playhead (and the value there). */
  e.pivot_frame = e.value_at_pivot ? self->playhead : (fmin + fmax) / 2;
  _tress_curve_view_apply_edit (self, &e, _tress_curve_view_count_selected_keys (self),
                                TARGET_SELECTED, NULL, NULL);
}

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

static void
act_insert_key (GtkWidget *w, const char *name, GVariant *p)
{
  _tress_curve_view_insert_at (TRESS_CURVE_VIEW (w), g_variant_get_double (p));
}

static void
act_insert_at_playhead (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  _tress_curve_view_insert_at (self, self->playhead);
}

static void
act_delete (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_DELETE };

  if (_tress_curve_view_count_selected_keys (self) == 0)
    return;
  _tress_curve_view_apply_edit (self, &e, _tress_curve_view_count_selected_keys (self),
                                TARGET_SELECTED, NULL, NULL);
}

static void
act_duplicate (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
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

static void
act_copy (GtkWidget *w, const char *name, GVariant *p)
{
  _tress_curve_view_copy (TRESS_CURVE_VIEW (w));
}

static void
act_paste (GtkWidget *w, const char *name, GVariant *p)
{
  _tress_curve_view_paste (TRESS_CURVE_VIEW (w), p != NULL && g_variant_get_boolean (p));
}

static void
act_set_interpolation (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_INTERP };

  if (!tress_interp_from_string (g_variant_get_string (p, NULL), &e.interp))
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

static void
act_set_tangent (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_TANGENT };

  if (!tress_tangent_edit_from_string (g_variant_get_string (p, NULL), &e.tangent))
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

static void
act_frame (GtkWidget *w, const char *name, GVariant *p)
{
  _tress_curve_view_frame_all (TRESS_CURVE_VIEW (w), g_str_equal (name, "curve.frame-selected"));
}

static void
act_zoom (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  double ff, vf;

  g_variant_get (p, "(dd)", &ff, &vf);
  tress_curve_viewport_zoom (&self->vp, ff, vf, self->vp.width / 2, self->vp.height / 2);
  self->framed_all = FALSE;
  _tress_curve_view_invalidate_lines (self);
}

static void
act_pan (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  double dx, dy;

  g_variant_get (p, "(dd)", &dx, &dy);
  tress_curve_viewport_pan (&self->vp, dx, dy);
  self->framed_all = FALSE;
  _tress_curve_view_invalidate_lines (self);
}

static void
act_hide_lock (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  guint curve;
  gboolean flag;

  g_variant_get (p, "(ub)", &curve, &flag);
  if (g_str_equal (name, "curve.hide"))
    tress_curve_view_set_curve_visible (self, curve, !flag);
  else if (g_str_equal (name, "curve.solo"))
    tress_curve_view_set_curve_solo (self, curve, flag);
  else
    tress_curve_view_set_curve_locked (self, curve, flag);
}

static void
act_bake (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_BAKE };

  _tress_curve_view_apply_edit (TRESS_CURVE_VIEW (w), &e, 0, TARGET_CURVES, NULL, NULL);
}

static void
act_fit (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_FIT, .tolerance = g_variant_get_double (p) };

  _tress_curve_view_apply_edit (TRESS_CURVE_VIEW (w), &e, 0, TARGET_CURVES, NULL, NULL);
}

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

static void
act_goto_frame (GtkWidget *w, const char *name, GVariant *p)
{
  tress_curve_view_set_playhead (TRESS_CURVE_VIEW (w), g_variant_get_double (p));
}

static void
act_play (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);

  if (g_str_equal (name, "curve.play"))
    _tress_curve_view_set_playing (self, TRUE);
  else if (g_str_equal (name, "curve.pause"))
    _tress_curve_view_set_playing (self, FALSE);
  else
    _tress_curve_view_set_playing (self, !self->playing);
}

static void
act_axis_lock (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  const char *s = g_variant_get_string (p, NULL);
  TressAxisLock lock = g_str_equal (s, "frame")   ? TRESS_AXIS_LOCK_FRAME
                       : g_str_equal (s, "value") ? TRESS_AXIS_LOCK_VALUE
                                                  : TRESS_AXIS_LOCK_NONE;

  if (lock != self->axis_lock)
    {
      self->axis_lock = lock;
      g_object_notify_by_pspec (G_OBJECT (self), _tress_curve_view_props[PROP_AXIS_LOCK]);
    }
}

void
_tress_curve_view_class_init_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "curve.select-all", NULL, act_select_all);
  gtk_widget_class_install_action (widget_class, "curve.select-none", NULL, act_select_none);
  gtk_widget_class_install_action (widget_class, "curve.select-key", "(uub)", act_select_key);
  gtk_widget_class_install_action (widget_class, "curve.click", "(ddb)", act_click);
  gtk_widget_class_install_action (widget_class, "curve.drag", "(ddddb)", act_drag);
  gtk_widget_class_install_action (widget_class, "curve.box-select", "(ddddb)", act_box_select);
  gtk_widget_class_install_action (widget_class, "curve.context-menu", NULL, act_context_menu);
  gtk_widget_class_install_action (widget_class, "curve.previous-key", NULL, act_step_key);
  gtk_widget_class_install_action (widget_class, "curve.next-key", NULL, act_step_key);
  gtk_widget_class_install_action (widget_class, "curve.move", "(dd)", act_move);
  gtk_widget_class_install_action (widget_class, "curve.nudge", "(ii)", act_nudge);
  gtk_widget_class_install_action (widget_class, "curve.nudge-stored", "i", act_nudge_stored);
  gtk_widget_class_install_action (widget_class, "curve.scale", "(ddb)", act_scale);
  gtk_widget_class_install_action (widget_class, "curve.insert-key", "d", act_insert_key);
  gtk_widget_class_install_action (widget_class, "curve.insert-on-curve", "(dd)",
                                   _tress_curve_view_act_insert_on_curve);
  gtk_widget_class_install_action (widget_class, "curve.insert-at-playhead", NULL,
                                   act_insert_at_playhead);
  gtk_widget_class_install_action (widget_class, "curve.delete", NULL, act_delete);
  gtk_widget_class_install_action (widget_class, "curve.duplicate", NULL, act_duplicate);
  gtk_widget_class_install_action (widget_class, "curve.copy", NULL, act_copy);
  gtk_widget_class_install_action (widget_class, "curve.paste", "b", act_paste);
  gtk_widget_class_install_action (widget_class, "curve.set-interpolation", "s",
                                   act_set_interpolation);
  gtk_widget_class_install_action (widget_class, "curve.set-tangent", "s", act_set_tangent);
  gtk_widget_class_install_action (widget_class, "curve.frame-all", NULL, act_frame);
  gtk_widget_class_install_action (widget_class, "curve.frame-selected", NULL, act_frame);
  gtk_widget_class_install_action (widget_class, "curve.zoom", "(dd)", act_zoom);
  gtk_widget_class_install_action (widget_class, "curve.pan", "(dd)", act_pan);
  gtk_widget_class_install_action (widget_class, "curve.hide", "(ub)", act_hide_lock);
  gtk_widget_class_install_action (widget_class, "curve.lock", "(ub)", act_hide_lock);
  gtk_widget_class_install_action (widget_class, "curve.solo", "(ub)", act_hide_lock);
  gtk_widget_class_install_action (widget_class, "curve.bake", NULL, act_bake);
  gtk_widget_class_install_action (widget_class, "curve.fit", "d", act_fit);
  gtk_widget_class_install_action (widget_class, "curve.goto-frame", "d", act_goto_frame);
  gtk_widget_class_install_action (widget_class, "curve.play", NULL, act_play);
  gtk_widget_class_install_action (widget_class, "curve.pause", NULL, act_play);
  gtk_widget_class_install_action (widget_class, "curve.toggle-play", NULL, act_play);
  gtk_widget_class_install_action (widget_class, "curve.axis-lock", "s", act_axis_lock);
  gtk_widget_class_install_property_action (widget_class, "curve.normalized", "normalized");
  gtk_widget_class_install_property_action (widget_class, "curve.degrees", "degrees");
  gtk_widget_class_install_property_action (widget_class, "curve.playing", "playing");
  gtk_widget_class_install_property_action (widget_class, "curve.snap", "snap");
  gtk_widget_class_install_property_action (widget_class, "curve.loop", "loop");

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "curve.context-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK,
                                       "curve.context-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Home, 0, "curve.frame-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, 0, "curve.frame-selected", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Decimal, 0, "curve.frame-selected",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, GDK_CONTROL_MASK,
                                       "curve.select-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, 0, "curve.select-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, GDK_ALT_MASK, "curve.select-none",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "curve.select-none", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "curve.delete", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_x, 0, "curve.delete", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, GDK_SHIFT_MASK, "curve.duplicate",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, GDK_CONTROL_MASK, "curve.duplicate",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "curve.copy",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_v, GDK_CONTROL_MASK, "curve.paste",
                                       "b", TRUE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_v, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "curve.paste", "b", FALSE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_i, 0, "curve.insert-at-playhead",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_space, 0, "curve.toggle-play", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Up, 0, "curve.previous-key",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Down, 0, "curve.next-key", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_comma, 0, "curve.previous-key", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_period, 0, "curve.next-key", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, 0, "curve.normalized", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "curve.nudge", "(ii)", -1, 0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "curve.nudge", "(ii)", 1, 0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "curve.nudge", "(ii)", 0, 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "curve.nudge", "(ii)", 0, -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_SHIFT_MASK, "curve.nudge",
                                       "(ii)", -10, 0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_SHIFT_MASK, "curve.nudge",
                                       "(ii)", 10, 0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, GDK_SHIFT_MASK, "curve.nudge",
                                       "(ii)", 0, 10);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, GDK_SHIFT_MASK, "curve.nudge",
                                       "(ii)", 0, -10);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, GDK_ALT_MASK, "curve.nudge-stored",
                                       "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, GDK_ALT_MASK,
                                       "curve.nudge-stored", "i", -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_x, GDK_SHIFT_MASK, "curve.axis-lock",
                                       "s", "frame");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_y, GDK_SHIFT_MASK, "curve.axis-lock",
                                       "s", "value");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_SHIFT_MASK, "curve.axis-lock",
                                       "s", "none");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_t, 0, "curve.set-tangent", "s",
                                       "auto-clamped");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_v, 0, "curve.set-tangent", "s",
                                       "flat");
  /* Time stretch of the selection: ] longer, [ shorter; with Ctrl around the
   * playhead rather than the selection's centre. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketright, 0, "curve.scale",
                                       "(ddb)", 1.25, 1.0, FALSE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketleft, 0, "curve.scale", "(ddb)",
                                       0.8, 1.0, FALSE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketright, GDK_CONTROL_MASK,
                                       "curve.scale", "(ddb)", 1.25, 1.0, TRUE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketleft, GDK_CONTROL_MASK,
                                       "curve.scale", "(ddb)", 0.8, 1.0, TRUE);
}
