/* tress-dope-sheet-input.c: the dope sheet's pointer and keys
 *
 * Picking marks, the drags (keys in time, a box, the playhead), the wheel,
 * the actions, and the interactive scale in time: S begins it about the
 * playhead, the pointer's distance from the playhead sets the factor (the
 * frame under the pointer lands on whole frames; Ctrl lets go of the
 * snapping), Enter or a click applies it as one undo step, Esc or a right
 * click cancels it, and nothing changes before it is applied.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-dope-sheet-private.h"

#include <math.h>

/* ----------------------------------------------------------- picking -- */

/* Adds to @picked the keys of @row's usable curves in frames [first, last]. */
static void
pick_range (TressDopeSheet *self, const TressDopeRow *row, double first, double last,
            TressCurveSelection *picked)
{
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < row->end - row->first; i++)
    {
      guint index = _tress_dope_sheet_row_curve (self, row, i);
      const TressCurve *c = tress_curve_view_get_shown_curve (self->view, index);

      if (c == NULL || !_tress_dope_sheet_curve_usable (self, index))
        continue;
      g_array_set_size (keys, 0);
      tress_dope_keys_in (c, first, last, keys);
      for (guint k = 0; k < keys->len; k++)
        tress_curve_selection_add (picked, index, g_array_index (keys, guint, k),
                                   TRESS_CURVE_PART_KEY);
    }
}

/* The frame of the key of @row nearest x, within HIT_PX. */
static gboolean
hit_frame (TressDopeSheet *self, const TressDopeRow *row, double x, double *frame)
{
  TressCurveViewport vp;
  double f, fpp, best = G_MAXDOUBLE;
  gboolean found = FALSE;

  _tress_dope_sheet_key_viewport (self, &vp);
  f = tress_curve_viewport_x_to_frame (&vp, x - NAME_WIDTH);
  fpp = tress_curve_viewport_frames_per_px (&vp);
  for (guint i = 0; i < row->end - row->first; i++)
    {
      guint index = _tress_dope_sheet_row_curve (self, row, i);
      const TressCurve *c = tress_curve_view_get_shown_curve (self->view, index);
      double at;

      if (c == NULL || !tress_curve_view_get_curve_shown (self->view, index))
        continue;
      if (tress_dope_nearest_frame (c, f, MIN (best, HIT_PX * fpp), &at) && fabs (at - f) < best)
        {
          best = fabs (at - f);
          *frame = at;
          found = TRUE;
        }
    }
  return found;
}

static TressCurveSelectMode
mode_of (GdkModifierType state)
{
  if (state & GDK_CONTROL_MASK)
    return TRESS_CURVE_SELECT_TOGGLE;
  if (state & GDK_SHIFT_MASK)
    return TRESS_CURVE_SELECT_ADD;
  return TRESS_CURVE_SELECT_REPLACE;
}

/* Column select: every key at @frame of every shown, unlocked curve. */
static void
select_column (TressDopeSheet *self, double frame, GdkModifierType state)
{
  g_autoptr (TressCurveSelection) picked = tress_curve_selection_new ();
  TressDopeRow *summary = _tress_dope_sheet_row (self, 0);

  if (summary == NULL)
    return;
  pick_range (self, summary, frame - 1e-6 * MAX (1, fabs (frame)),
              frame + 1e-6 * MAX (1, fabs (frame)), picked);
  tress_curve_view_select_keys (self->view, picked, mode_of (state));
}

static void
set_playhead_at (TressDopeSheet *self, double x, GdkModifierType state)
{
  TressCurveViewport vp;
  double f;
  gboolean snap = TRUE;

  _tress_dope_sheet_key_viewport (self, &vp);
  f = tress_curve_viewport_x_to_frame (&vp, x - NAME_WIDTH);
  g_object_get (self->view, "snap", &snap, NULL);
  if (snap != ((state & GDK_CONTROL_MASK) != 0))
    f = round (f) + 0.0; /* not -0 */
  tress_curve_view_set_playhead (self->view, f);
}

static void
press (TressDopeSheet *self, double x, double y, int n_press, GdkModifierType state)
{
  int r;
  TressDopeRow *row;
  double frame;

  self->drag = DRAG_NONE;
  self->drag_started = FALSE;
  self->drag_x0 = self->drag_x = x;
  self->drag_y0 = self->drag_y = y;
  self->drag_frames = 0;
  self->drag_state = state;
  if (self->view == NULL)
    return;
  _tress_dope_sheet_rebuild_rows (self);
  if (y < RULER_HEIGHT && x >= NAME_WIDTH)
    {
      self->drag = DRAG_SCRUB;
      set_playhead_at (self, x, state);
      return;
    }
  r = _tress_dope_sheet_row_at (self, y);
  row = r >= 0 ? _tress_dope_sheet_row (self, r) : NULL;
  if (row == NULL)
    return;
  if (x < NAME_WIDTH && row->depth > 0 && row->curve < 0
      && fabs (x - tress_dope_sheet_get_disclosure_x (self, (guint)r)) <= DISCLOSURE_WIDTH / 2)
    {
      /* A group's triangle opens or closes it. */
      _tress_dope_sheet_set_open (self, (guint)r, !row->open);
      return;
    }
  if (x < NAME_WIDTH)
    {
      /* A row's name: every key of its curves. */
      g_autoptr (TressCurveSelection) picked = tress_curve_selection_new ();

      pick_range (self, row, -G_MAXDOUBLE, G_MAXDOUBLE, picked);
      tress_curve_view_select_keys (self->view, picked, mode_of (state));
      return;
    }
  if (!hit_frame (self, row, x, &frame))
    {
      self->drag = DRAG_BOX;
      return;
    }
  if ((state & GDK_ALT_MASK) || n_press >= 2)
    select_column (self, frame, state);
  else
    {
      g_autoptr (TressCurveSelection) picked = tress_curve_selection_new ();
      const TressCurveSelection *sel = tress_curve_view_get_selection (self->view);
      gboolean all_selected = TRUE;
      g_autoptr (GArray) curves = NULL;

      pick_range (self, row, frame - 1e-6 * MAX (1, fabs (frame)),
                  frame + 1e-6 * MAX (1, fabs (frame)), picked);
      curves = tress_curve_selection_dup_curves (picked);
      for (guint i = 0; i < curves->len && all_selected; i++)
        {
          guint index = g_array_index (curves, guint, i);
          g_autoptr (GArray) keys = tress_curve_selection_dup_keys (picked, index);

          for (guint k = 0; k < keys->len && all_selected; k++)
            all_selected = tress_curve_selection_contains (
                sel, index, g_array_index (keys, guint, k), TRESS_CURVE_PART_KEY);
        }
      /* A press on a selected mark keeps the selection, to drag it (Ctrl
       * then lets go of the snapping); released without a drag, the click
       * selects that mark alone, or with Ctrl toggles it. */
      if (all_selected && curves->len > 0 && mode_of (state) != TRESS_CURVE_SELECT_ADD)
        {
          g_clear_pointer (&self->pending, tress_curve_selection_free);
          self->pending = g_steal_pointer (&picked);
          self->pending_mode = mode_of (state);
          self->drag = DRAG_KEYS;
          return;
        }
      tress_curve_view_select_keys (self->view, picked, mode_of (state));
    }
  if (tress_curve_view_get_n_selected_keys (self->view) > 0 && !(state & GDK_CONTROL_MASK))
    self->drag = DRAG_KEYS;
}

static void
motion (TressDopeSheet *self, double x, double y, GdkModifierType state)
{
  self->drag_x = x;
  self->drag_y = y;
  if (!self->drag_started && hypot (x - self->drag_x0, y - self->drag_y0) >= DRAG_THRESHOLD)
    self->drag_started = TRUE;
  switch (self->drag)
    {
    case DRAG_SCRUB:
      set_playhead_at (self, x, state);
      break;
    case DRAG_KEYS:
      {
        TressCurveViewport vp;
        gboolean snap = TRUE;

        _tress_dope_sheet_key_viewport (self, &vp);
        g_object_get (self->view, "snap", &snap, NULL);
        self->drag_frames = tress_dope_drag_frames (&vp, self->drag_x0, x,
                                                    snap != ((state & GDK_CONTROL_MASK) != 0));
        gtk_widget_queue_draw (GTK_WIDGET (self));
      }
      break;
    case DRAG_BOX:
      gtk_widget_queue_draw (GTK_WIDGET (self));
      break;
    case DRAG_NONE:
    default:
      break;
    }
}

static void
release (TressDopeSheet *self, double x, double y, GdkModifierType state)
{
  DragKind drag = self->drag;

  motion (self, x, y, state);
  self->drag = DRAG_NONE;
  if (drag == DRAG_KEYS && self->drag_started && self->drag_frames != 0)
    tress_curve_view_move_keys_in_time (self->view, self->drag_frames);
  else if (drag == DRAG_KEYS && !self->drag_started && self->pending != NULL)
    tress_curve_view_select_keys (self->view, self->pending, self->pending_mode);
  else if (drag == DRAG_BOX)
    {
      g_autoptr (TressCurveSelection) picked = tress_curve_selection_new ();

      if (self->drag_started)
        {
          TressCurveViewport vp;
          double f0, f1;
          int r0 = _tress_dope_sheet_row_at (self, MAX (RULER_HEIGHT, MIN (self->drag_y0, y)));
          int r1 = _tress_dope_sheet_row_at (self, MAX (self->drag_y0, y));

          _tress_dope_sheet_key_viewport (self, &vp);
          f0 = tress_curve_viewport_x_to_frame (&vp, MIN (self->drag_x0, x) - NAME_WIDTH);
          f1 = tress_curve_viewport_x_to_frame (&vp, MAX (self->drag_x0, x) - NAME_WIDTH);
          if (r1 < 0 && self->rows != NULL)
            r1 = (int)MIN (self->rows->len,
                           self->first_row + _tress_dope_sheet_rows_on_screen (self))
                 - 1;
          for (int r = MAX (r0, 0); r0 >= 0 && r <= r1; r++)
            pick_range (self, _tress_dope_sheet_row (self, r), f0, f1, picked);
        }
      tress_curve_view_select_keys (self->view, picked, mode_of (self->drag_state));
    }
  self->drag_started = FALSE;
  g_clear_pointer (&self->pending, tress_curve_selection_free);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ------------------------------------------------------------ scale -- */

static gboolean
scale_snap (TressDopeSheet *self)
{
  gboolean snap = TRUE;

  g_object_get (self->view, "snap", &snap, NULL);
  return snap != self->scale_unsnapped;
}

static void
scale_update (TressDopeSheet *self)
{
  TressCurveViewport vp;

  if (!self->scaling)
    return;
  _tress_dope_sheet_key_viewport (self, &vp);
  self->scale_factor = tress_dope_scale_factor (&vp, self->scale_pivot, self->scale_x0 - NAME_WIDTH,
                                                self->pointer_x - NAME_WIDTH, scale_snap (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* S: the selected keys follow the pointer's distance from the playhead. */
static void
scale_begin (TressDopeSheet *self)
{
  if (self->view == NULL || self->scaling || self->drag != DRAG_NONE
      || tress_curve_view_get_n_selected_keys (self->view) == 0)
    return;
  self->scaling = TRUE;
  self->scale_pivot = tress_curve_view_get_playhead (self->view);
  self->scale_x0 = self->pointer_x;
  self->scale_factor = 1;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  scale_update (self);
}

void
_tress_dope_sheet_scale_cancel (TressDopeSheet *self)
{
  if (!self->scaling)
    return;
  self->scaling = FALSE;
  self->scale_unsnapped = FALSE;
  self->scale_factor = 1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Enter or a click: one undo step, "Scale 12 keys in time by 2 about frame 0". */
static void
scale_apply (TressDopeSheet *self)
{
  double factor = self->scale_factor, pivot = self->scale_pivot;

  if (!self->scaling)
    return;
  _tress_dope_sheet_scale_cancel (self);
  if (factor != 1)
    tress_curve_view_scale_keys_in_time (self->view, pivot, factor);
}

static void
on_pointer_motion (GtkEventControllerMotion *motion_controller, double x, double y,
                   TressDopeSheet *self)
{
  GdkModifierType state
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (motion_controller));

  self->pointer_x = x;
  self->pointer_y = y;
  if (self->scaling)
    {
      self->scale_unsnapped = (state & GDK_CONTROL_MASK) != 0;
      scale_update (self);
    }
}

static gboolean
on_key_pressed (GtkEventControllerKey *keys, guint keyval, guint keycode, GdkModifierType state,
                TressDopeSheet *self)
{
  if (!self->scaling)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
    case GDK_KEY_ISO_Enter:
    case GDK_KEY_space:
      scale_apply (self);
      return TRUE;
    case GDK_KEY_Escape:
      _tress_dope_sheet_scale_cancel (self);
      return TRUE;
    case GDK_KEY_Control_L:
    case GDK_KEY_Control_R:
      self->scale_unsnapped = TRUE;
      scale_update (self);
      return TRUE;
    default:
      /* Other keys wait until the scale ends. */
      return TRUE;
    }
}

static void
on_key_released (GtkEventControllerKey *keys, guint keyval, guint keycode, GdkModifierType state,
                 TressDopeSheet *self)
{
  if (self->scaling && (keyval == GDK_KEY_Control_L || keyval == GDK_KEY_Control_R))
    {
      self->scale_unsnapped = FALSE;
      scale_update (self);
    }
}

static void
on_secondary_pressed (GtkGestureClick *click, int n_press, double x, double y, TressDopeSheet *self)
{
  if (!self->scaling)
    return;
  _tress_dope_sheet_scale_cancel (self);
  gtk_gesture_set_state (GTK_GESTURE (click), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
on_focus_leave (TressDopeSheet *self)
{
  _tress_dope_sheet_scale_cancel (self);
}

/* ------------------------------------------------------------ input -- */

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, TressDopeSheet *self)
{
  GdkModifierType state
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  GdkEvent *event = gtk_event_controller_get_current_event (GTK_EVENT_CONTROLLER (gesture));
  int n_press = 1;

  /* A second press close in time on the same spot: a double click. */
  if (event != NULL && gdk_event_get_event_type (event) == GDK_BUTTON_PRESS)
    {
      guint32 t = gdk_event_get_time (event);
      int dbl = 400;

      g_object_get (gtk_widget_get_settings (GTK_WIDGET (self)), "gtk-double-click-time", &dbl,
                    NULL);
      if (t - self->press_time < (guint32)dbl && fabs (x - self->press_x) < 4
          && fabs (y - self->press_y) < 4)
        n_press = 2;
      self->press_time = t;
      self->press_x = x;
      self->press_y = y;
    }
  self->pointer_x = x;
  self->pointer_y = y;
  if (self->scaling)
    {
      /* A click applies the scale under way, and does nothing else. */
      self->drag = DRAG_NONE;
      self->drag_started = FALSE;
      g_clear_pointer (&self->pending, tress_curve_selection_free);
      scale_apply (self);
      return;
    }
  gtk_widget_grab_focus (GTK_WIDGET (self));
  press (self, x, y, n_press, state);
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, TressDopeSheet *self)
{
  GdkModifierType state
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  motion (self, self->drag_x0 + dx, self->drag_y0 + dy, state);
}

static void
on_drag_end (GtkGestureDrag *gesture, double dx, double dy, TressDopeSheet *self)
{
  GdkModifierType state
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  release (self, self->drag_x0 + dx, self->drag_y0 + dy, state);
}

static gboolean
on_scroll (GtkEventControllerScroll *scroll, double dx, double dy, TressDopeSheet *self)
{
  GdkModifierType state
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));

  if (self->view == NULL)
    return FALSE;
  if (state & GDK_CONTROL_MASK)
    {
      /* Zooms the shared time axis. */
      TressCurveViewport vp;
      double factor = dy > 0 ? 1.25 : 0.8, mid;

      tress_curve_view_get_viewport (self->view, &vp);
      mid = (vp.frame_min + vp.frame_max) / 2;
      vp.frame_min = mid + (vp.frame_min - mid) * factor;
      vp.frame_max = mid + (vp.frame_max - mid) * factor;
      tress_curve_view_set_viewport (self->view, &vp);
    }
  else
    {
      int first = (int)self->first_row + (dy > 0 ? 3 : dy < 0 ? -3 : 0);
      guint n = self->rows != NULL ? self->rows->len : 0;

      self->first_row = (guint)CLAMP (first, 0, MAX ((int)n - 1, 0));
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return TRUE;
}

/* ---------------------------------------------------------- actions -- */

static void
act_select_all (GtkWidget *widget, const char *name, GVariant *param)
{
  TressDopeSheet *self = TRESS_DOPE_SHEET (widget);

  _tress_dope_sheet_rebuild_rows (self);
  if (self->shown != NULL)
    tress_curve_view_select_all_of (self->view, (const guint *)self->shown->data, self->shown->len);
}

static void
act_delete (GtkWidget *widget, const char *name, GVariant *param)
{
  TressDopeSheet *self = TRESS_DOPE_SHEET (widget);

  gtk_widget_activate_action (GTK_WIDGET (self->view), "curve.delete", NULL);
}

static void
act_scale (GtkWidget *widget, const char *name, GVariant *param)
{
  TressDopeSheet *self = TRESS_DOPE_SHEET (widget);

  tress_curve_view_scale_keys_in_time (self->view, tress_curve_view_get_playhead (self->view),
                                       g_variant_get_double (param));
}

static void
act_scale_begin (GtkWidget *widget, const char *name, GVariant *param)
{
  scale_begin (TRESS_DOPE_SHEET (widget));
}

/* ------------------------------------------------------------- setup -- */

void
_tress_dope_sheet_class_init_input (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "dope.select-all", NULL, act_select_all);
  gtk_widget_class_install_action (widget_class, "dope.delete", NULL, act_delete);
  gtk_widget_class_install_action (widget_class, "dope.scale", "d", act_scale);
  gtk_widget_class_install_action (widget_class, "dope.scale-begin", NULL, act_scale_begin);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, GDK_CONTROL_MASK, "dope.select-all",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "dope.delete", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_x, 0, "dope.delete", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketright, 0, "dope.scale", "d",
                                       2.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketleft, 0, "dope.scale", "d",
                                       0.5);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, 0, "dope.scale-begin", NULL);
}

void
_tress_dope_sheet_init_input (TressDopeSheet *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkGesture *secondary = gtk_gesture_click_new ();
  GtkEventController *scroll
      = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  GtkEventController *motion_controller = gtk_event_controller_motion_new ();
  GtkEventController *keys = gtk_event_controller_key_new ();
  GtkEventController *focus = gtk_event_controller_focus_new ();

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (secondary), GDK_BUTTON_SECONDARY);
  g_signal_connect (secondary, "pressed", G_CALLBACK (on_secondary_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (secondary));
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);
  g_signal_connect (motion_controller, "motion", G_CALLBACK (on_pointer_motion), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion_controller);
  /* Before the bindings: while a scale is under way, the keys end it. */
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key_pressed), self);
  g_signal_connect (keys, "key-released", G_CALLBACK (on_key_released), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
  g_signal_connect_swapped (focus, "leave", G_CALLBACK (on_focus_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), focus);
}
