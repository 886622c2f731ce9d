/* tress-curve-view-actions.c: the curve view's actions, when they are enabled, and their keys
 *
 * Every command of the graph is an action of the "curve" group, listed once
 * in view_actions[] with its parameter type and what it needs to be enabled:
 * selected keys, or copied keys. The group is one GSimpleActionGroup per view
 * (tress_curve_view_get_actions()): the view inserts it into itself, so its
 * key bindings, its menu and tests reach it, and the editor inserts the same
 * group into itself, so its toolbar, menus and keys do. The enabled states
 * follow the selection and the clipboard (_tress_curve_view_update_actions):
 * a toolbar button or menu item of a command that would do nothing is
 * insensitive, and its key does nothing. The keys are listed once too, in
 * view_bindings[], the ones that also work anywhere in the editor marked.
 * What the commands do is in -commands.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-view-private.h"

#include "core/tress-curve-clipboard.h"

typedef enum
{
  NEEDS_NOTHING,
  NEEDS_KEYS,      /* enabled while keys are selected */
  NEEDS_CLIPBOARD, /* enabled while keys are copied */
} Needs;

typedef enum
{
  STATELESS,
  STATE_PROPERTY,  /* the view's boolean property of the same name */
  STATE_AXIS_LOCK, /* "axis-lock": "none", "frame" or "value" */
} State;

typedef void (*ViewActionFunc) (TressCurveView *self, const char *name, GVariant *param);

typedef struct
{
  const char *name;        /* in the "curve" group */
  const char *param;       /* its parameter's GVariant type, or NULL */
  ViewActionFunc activate; /* NULL for a stateful action */
  Needs needs;
  State state;
} ViewAction;

/* ------------------------------------------------------------- actions -- */

static void
act_select_all (TressCurveView *self, const char *name, GVariant *p)
{
  _tress_curve_view_select_all (self);
}

static void
act_select_none (TressCurveView *self, const char *name, GVariant *p)
{
  tress_curve_view_select_none (self);
}

static void
act_select_key (TressCurveView *self, const char *name, GVariant *p)
{
  guint curve, key;
  gboolean extend;

  g_variant_get (p, "(uub)", &curve, &key, &extend);
  tress_curve_view_select_key (self, curve, key, TRESS_CURVE_PART_KEY, extend);
}

static void
act_step_key (TressCurveView *self, const char *name, GVariant *p)
{
  _tress_curve_view_step_key (self, g_str_equal (name, "next-key") ? 1 : -1);
}

static void
act_move (TressCurveView *self, const char *name, GVariant *p)
{
  double df, dv;

  g_variant_get (p, "(dd)", &df, &dv);
  _tress_curve_view_move (self, df, dv);
}

static void
act_nudge (TressCurveView *self, const char *name, GVariant *p)
{
  int frames, steps;

  g_variant_get (p, "(ii)", &frames, &steps);
  _tress_curve_view_nudge (self, frames, steps);
}

static void
act_nudge_stored (TressCurveView *self, const char *name, GVariant *p)
{
  _tress_curve_view_nudge_stored (self, g_variant_get_int32 (p));
}

static void
act_scale (TressCurveView *self, const char *name, GVariant *p)
{
  double ff, vf;
  gboolean at_playhead;

  g_variant_get (p, "(ddb)", &ff, &vf, &at_playhead);
  _tress_curve_view_scale (self, ff, vf, at_playhead);
}

static void
act_delete (TressCurveView *self, const char *name, GVariant *p)
{
  _tress_curve_view_delete (self);
}

static void
act_duplicate (TressCurveView *self, const char *name, GVariant *p)
{
  _tress_curve_view_duplicate (self);
}

static void
act_copy (TressCurveView *self, const char *name, GVariant *p)
{
  _tress_curve_view_copy (self);
}

static void
act_paste (TressCurveView *self, const char *name, GVariant *p)
{
  _tress_curve_view_paste (self, g_variant_get_boolean (p));
}

static void
act_set_interpolation (TressCurveView *self, const char *name, GVariant *p)
{
  _tress_curve_view_set_interpolation (self, g_variant_get_string (p, NULL));
}

static void
act_set_tangent (TressCurveView *self, const char *name, GVariant *p)
{
  _tress_curve_view_set_tangent (self, g_variant_get_string (p, NULL));
}

static void
act_insert_key (TressCurveView *self, const char *name, GVariant *p)
{
  _tress_curve_view_insert_at (self, g_variant_get_double (p));
}

static void
act_insert_at_playhead (TressCurveView *self, const char *name, GVariant *p)
{
  _tress_curve_view_insert_at (self, self->playhead);
}

static void
act_insert_on_curve (TressCurveView *self, const char *name, GVariant *p)
{
  double x, y;

  g_variant_get (p, "(dd)", &x, &y);
  _tress_curve_view_insert_on_curve (self, x, y);
}

static void
act_bake (TressCurveView *self, const char *name, GVariant *p)
{
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_BAKE };

  _tress_curve_view_apply_edit (self, &e, 0, TARGET_CURVES, NULL, NULL);
}

static void
act_fit (TressCurveView *self, const char *name, GVariant *p)
{
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_FIT, .tolerance = g_variant_get_double (p) };

  _tress_curve_view_apply_edit (self, &e, 0, TARGET_CURVES, NULL, NULL);
}

static void
act_frame (TressCurveView *self, const char *name, GVariant *p)
{
  _tress_curve_view_frame_all (self, g_str_equal (name, "frame-selected"));
}

static void
act_zoom (TressCurveView *self, const char *name, GVariant *p)
{
  double ff, vf;

  g_variant_get (p, "(dd)", &ff, &vf);
  tress_curve_viewport_zoom (&self->vp, ff, vf, self->vp.width / 2, self->vp.height / 2);
  self->framed_all = FALSE;
  _tress_curve_view_invalidate_lines (self);
}

static void
act_pan (TressCurveView *self, const char *name, GVariant *p)
{
  double dx, dy;

  g_variant_get (p, "(dd)", &dx, &dy);
  tress_curve_viewport_pan (&self->vp, dx, dy);
  self->framed_all = FALSE;
  _tress_curve_view_invalidate_lines (self);
}

static void
act_hide_lock (TressCurveView *self, const char *name, GVariant *p)
{
  guint curve;
  gboolean flag;

  g_variant_get (p, "(ub)", &curve, &flag);
  if (g_str_equal (name, "hide"))
    tress_curve_view_set_curve_visible (self, curve, !flag);
  else if (g_str_equal (name, "solo"))
    tress_curve_view_set_curve_solo (self, curve, flag);
  else
    tress_curve_view_set_curve_locked (self, curve, flag);
}

static void
act_goto_frame (TressCurveView *self, const char *name, GVariant *p)
{
  tress_curve_view_set_playhead (self, g_variant_get_double (p));
}

static void
act_play (TressCurveView *self, const char *name, GVariant *p)
{
  if (g_str_equal (name, "play"))
    _tress_curve_view_set_playing (self, TRUE);
  else if (g_str_equal (name, "pause"))
    _tress_curve_view_set_playing (self, FALSE);
  else
    _tress_curve_view_set_playing (self, !self->playing);
}

static void
act_play_range (TressCurveView *self, const char *name, GVariant *p)
{
  if (g_str_equal (name, "set-play-start"))
    _tress_curve_view_set_play_start (self);
  else if (g_str_equal (name, "set-play-end"))
    _tress_curve_view_set_play_end (self);
  else
    tress_curve_view_clear_play_range (self);
}

/* The right-click menu from the keyboard (Menu, Shift+F10): at the active key
 * when it is in view, else in the middle of the graph. */
static void
act_context_menu (TressCurveView *self, const char *name, GVariant *p)
{
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
act_click (TressCurveView *self, const char *name, GVariant *p)
{
  double x, y;
  gboolean shift;

  g_variant_get (p, "(ddb)", &x, &y, &shift);
  _tress_curve_view_pointer_press (self, x, y, shift);
  _tress_curve_view_pointer_release (self, x, y, FALSE);
}

static void
act_drag (TressCurveView *self, const char *name, GVariant *p)
{
  double x0, y0, x1, y1;
  gboolean invert;

  g_variant_get (p, "(ddddb)", &x0, &y0, &x1, &y1, &invert);
  _tress_curve_view_pointer_press (self, x0, y0, FALSE);
  /* Two motion steps, as a pointer would send. */
  _tress_curve_view_pointer_motion (self, (x0 + x1) / 2, (y0 + y1) / 2, invert);
  _tress_curve_view_pointer_release (self, x1, y1, invert);
}

static void
act_box_select (TressCurveView *self, const char *name, GVariant *p)
{
  double x0, y0, x1, y1;
  gboolean extend;

  g_variant_get (p, "(ddddb)", &x0, &y0, &x1, &y1, &extend);
  _tress_curve_view_box_select (self, x0, y0, x1, y1, extend);
}

/* Every action of the "curve" group. */
static const ViewAction view_actions[] = {
  /* The selection. */
  { "select-all", NULL, act_select_all },
  { "select-none", NULL, act_select_none },
  { "select-key", "(uub)", act_select_key }, /* curve, key, extend */
  { "previous-key", NULL, act_step_key },    /* the playhead to it, and it selected */
  { "next-key", NULL, act_step_key },
  /* The selected keys. Moves and nudges stay enabled with nothing
   * selected: the arrow keys do nothing then, rather than move the focus
   * out of the graph. */
  { "move", "(dd)", act_move },                          /* frames, shown values */
  { "nudge", "(ii)", act_nudge },                        /* frames, nudge steps */
  { "nudge-stored", "i", act_nudge_stored, NEEDS_KEYS }, /* stored value steps */
  { "scale", "(ddb)", act_scale, NEEDS_KEYS },           /* frames, values, about playhead */
  { "delete", NULL, act_delete, NEEDS_KEYS },
  { "duplicate", NULL, act_duplicate, NEEDS_KEYS },
  { "copy", NULL, act_copy, NEEDS_KEYS },
  { "paste", "b", act_paste, NEEDS_CLIPBOARD },        /* at the playhead, or in place */
  { "set-interpolation", "s", act_set_interpolation }, /* step, linear, hermite, baked */
  { "set-tangent", "s", act_set_tangent },             /* auto, auto-clamped, flat, … */
  /* The shown curves. */
  { "insert-key", "d", act_insert_key }, /* frame */
  { "insert-at-playhead", NULL, act_insert_at_playhead },
  { "insert-on-curve", "(dd)", act_insert_on_curve }, /* x, y: a double click */
  { "bake", NULL, act_bake },
  { "fit", "d", act_fit },           /* tolerance */
  { "hide", "(ub)", act_hide_lock }, /* curve, hidden */
  { "lock", "(ub)", act_hide_lock }, /* curve, locked */
  { "solo", "(ub)", act_hide_lock }, /* curve, solo */
  /* The view. */
  { "frame-all", NULL, act_frame },
  { "frame-selected", NULL, act_frame },
  { "zoom", "(dd)", act_zoom }, /* frame factor, value factor */
  { "pan", "(dd)", act_pan },   /* pixels */
  { "normalized", NULL, NULL, NEEDS_NOTHING, STATE_PROPERTY },
  { "degrees", NULL, NULL, NEEDS_NOTHING, STATE_PROPERTY },
  { "snap", NULL, NULL, NEEDS_NOTHING, STATE_PROPERTY },
  { "axis-lock", "s", NULL, NEEDS_NOTHING, STATE_AXIS_LOCK }, /* none, frame, value */
  { "context-menu", NULL, act_context_menu },
  /* The transport. */
  { "goto-frame", "d", act_goto_frame },
  { "play", NULL, act_play },
  { "pause", NULL, act_play },
  { "toggle-play", NULL, act_play },
  { "playing", NULL, NULL, NEEDS_NOTHING, STATE_PROPERTY },
  { "loop", NULL, NULL, NEEDS_NOTHING, STATE_PROPERTY },
  { "set-play-start", NULL, act_play_range },
  { "set-play-end", NULL, act_play_range },
  { "clear-play-range", NULL, act_play_range },
  /* The pointer at widget pixels, for tests: what a press and release,
   * a drag or a box there does. */
  { "click", "(ddb)", act_click },             /* x, y, shift */
  { "drag", "(ddddb)", act_drag },             /* x0, y0, x1, y1, invert snap */
  { "box-select", "(ddddb)", act_box_select }, /* x0, y0, x1, y1, extend */
};

static const char *const axis_lock_names[] = { "none", "frame", "value" };

static const ViewAction *
find_action (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (view_actions); i++)
    if (g_str_equal (view_actions[i].name, name))
      return &view_actions[i];
  g_error ("no curve action %s", name);
}

static GVariant *
state_of (TressCurveView *self, const ViewAction *va)
{
  gboolean value = FALSE;

  if (va->state == STATE_AXIS_LOCK)
    return g_variant_new_string (axis_lock_names[CLAMP ((int)self->axis_lock, 0, 2)]);
  g_object_get (self, va->name, &value, NULL);
  return g_variant_new_boolean (value);
}

static void
on_activate (GSimpleAction *action, GVariant *param, TressCurveView *self)
{
  const ViewAction *va = g_object_get_data (G_OBJECT (action), "tress-view-action");

  va->activate (self, va->name, param);
}

/* A stateful action asked for a new state (activating a boolean one toggles
 * it, activating "axis-lock" asks for its parameter): the property follows,
 * and the state follows the property (on_notify). */
static void
on_change_state (GSimpleAction *action, GVariant *value, TressCurveView *self)
{
  const ViewAction *va = g_object_get_data (G_OBJECT (action), "tress-view-action");

  if (va->state == STATE_PROPERTY)
    g_object_set (self, va->name, g_variant_get_boolean (value), NULL);
  else
    {
      const char *s = g_variant_get_string (value, NULL);
      int lock = g_str_equal (s, "frame")   ? TRESS_AXIS_LOCK_FRAME
                 : g_str_equal (s, "value") ? TRESS_AXIS_LOCK_VALUE
                                            : TRESS_AXIS_LOCK_NONE;

      g_object_set (self, "axis-lock", lock, NULL);
    }
}

static void
on_notify (TressCurveView *self, GParamSpec *pspec, gpointer data)
{
  const ViewAction *va;
  GAction *action;

  action = g_action_map_lookup_action (G_ACTION_MAP (self->actions), pspec->name);
  if (action == NULL)
    return;
  va = g_object_get_data (G_OBJECT (action), "tress-view-action");
  if (va->state != STATELESS)
    g_simple_action_set_state (G_SIMPLE_ACTION (action), state_of (self, va));
}

/* Copy, duplicate, delete, scale and stored nudges need selected keys,
 * paste copied ones. */
void
_tress_curve_view_update_actions (TressCurveView *self)
{
  gboolean keys = tress_curve_selection_get_n_keys (self->selection) > 0;
  gboolean copied = !tress_curve_clipboard_is_empty (tress_curve_clipboard_get_default ());

  if (self->actions == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (view_actions); i++)
    if (view_actions[i].needs != NEEDS_NOTHING)
      g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (
                                       G_ACTION_MAP (self->actions), view_actions[i].name)),
                                   view_actions[i].needs == NEEDS_KEYS ? keys : copied);
}

void
_tress_curve_view_init_actions (TressCurveView *self)
{
  self->actions = g_simple_action_group_new ();
  for (guint i = 0; i < G_N_ELEMENTS (view_actions); i++)
    {
      const ViewAction *va = &view_actions[i];
      const GVariantType *type = va->param != NULL ? G_VARIANT_TYPE (va->param) : NULL;
      GSimpleAction *action;

      if (va->state != STATELESS)
        {
          action = g_simple_action_new_stateful (va->name, type, state_of (self, va));
          g_signal_connect_object (action, "change-state", G_CALLBACK (on_change_state), self, 0);
        }
      else
        {
          action = g_simple_action_new (va->name, type);
          g_signal_connect_object (action, "activate", G_CALLBACK (on_activate), self, 0);
        }
      g_object_set_data (G_OBJECT (action), "tress-view-action", (gpointer)va);
      g_action_map_add_action (G_ACTION_MAP (self->actions), G_ACTION (action));
      g_object_unref (action);
    }
  g_signal_connect (self, "notify", G_CALLBACK (on_notify), NULL);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "curve", G_ACTION_GROUP (self->actions));
  g_signal_connect_object (tress_curve_clipboard_get_default (), "changed",
                           G_CALLBACK (_tress_curve_view_update_actions), self, G_CONNECT_SWAPPED);
  _tress_curve_view_update_actions (self);
}

GActionGroup *
tress_curve_view_get_actions (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), NULL);
  return G_ACTION_GROUP (self->actions);
}

/* ---------------------------------------------------------------- keys -- */

typedef struct
{
  guint key;
  GdkModifierType mods;
  const char *action; /* in the "curve" group */
  const char *param;  /* its parameter, in GVariant text, or NULL */
  gboolean editor;    /* also anywhere in the editor, when nothing there takes the key */
} ViewBinding;

static const ViewBinding view_bindings[] = {
  { GDK_KEY_Menu, 0, "context-menu" },
  { GDK_KEY_F10, GDK_SHIFT_MASK, "context-menu" },
  { GDK_KEY_Home, 0, "frame-all", NULL, TRUE },
  { GDK_KEY_f, 0, "frame-selected", NULL, TRUE },
  { GDK_KEY_KP_Decimal, 0, "frame-selected", NULL, TRUE },
  { GDK_KEY_a, GDK_CONTROL_MASK, "select-all" },
  { GDK_KEY_a, 0, "select-all" },
  { GDK_KEY_a, GDK_ALT_MASK, "select-none" },
  { GDK_KEY_Escape, 0, "select-none", NULL, TRUE },
  { GDK_KEY_Delete, 0, "delete", NULL, TRUE },
  { GDK_KEY_x, 0, "delete", NULL, TRUE },
  { GDK_KEY_d, GDK_SHIFT_MASK, "duplicate", NULL, TRUE },
  { GDK_KEY_d, GDK_CONTROL_MASK, "duplicate", NULL, TRUE },
  { GDK_KEY_c, GDK_CONTROL_MASK, "copy", NULL, TRUE },
  { GDK_KEY_v, GDK_CONTROL_MASK, "paste", "true", TRUE },
  { GDK_KEY_v, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "paste", "false", TRUE },
  { GDK_KEY_i, 0, "insert-at-playhead", NULL, TRUE },
  { GDK_KEY_space, 0, "toggle-play", NULL, TRUE },
  { GDK_KEY_Page_Up, 0, "previous-key", NULL, TRUE },
  { GDK_KEY_Page_Down, 0, "next-key", NULL, TRUE },
  { GDK_KEY_comma, 0, "previous-key", NULL, TRUE },
  { GDK_KEY_period, 0, "next-key", NULL, TRUE },
  { GDK_KEY_n, 0, "normalized", NULL, TRUE },
  { GDK_KEY_Left, 0, "nudge", "(-1, 0)" },
  { GDK_KEY_Right, 0, "nudge", "(1, 0)" },
  { GDK_KEY_Up, 0, "nudge", "(0, 1)" },
  { GDK_KEY_Down, 0, "nudge", "(0, -1)" },
  { GDK_KEY_Left, GDK_SHIFT_MASK, "nudge", "(-10, 0)" },
  { GDK_KEY_Right, GDK_SHIFT_MASK, "nudge", "(10, 0)" },
  { GDK_KEY_Up, GDK_SHIFT_MASK, "nudge", "(0, 10)" },
  { GDK_KEY_Down, GDK_SHIFT_MASK, "nudge", "(0, -10)" },
  { GDK_KEY_Up, GDK_ALT_MASK, "nudge-stored", "1" },
  { GDK_KEY_Down, GDK_ALT_MASK, "nudge-stored", "-1" },
  { GDK_KEY_x, GDK_SHIFT_MASK, "axis-lock", "'frame'" },
  { GDK_KEY_y, GDK_SHIFT_MASK, "axis-lock", "'value'" },
  { GDK_KEY_z, GDK_SHIFT_MASK, "axis-lock", "'none'" },
  { GDK_KEY_t, 0, "set-tangent", "'auto-clamped'" },
  { GDK_KEY_v, 0, "set-tangent", "'flat'" },
  /* Time stretch of the selection: ] longer, [ shorter; with Ctrl around the
   * playhead rather than the selection's centre. */
  { GDK_KEY_bracketright, 0, "scale", "(1.25, 1.0, false)" },
  { GDK_KEY_bracketleft, 0, "scale", "(0.8, 1.0, false)" },
  { GDK_KEY_bracketright, GDK_CONTROL_MASK, "scale", "(1.25, 1.0, true)" },
  { GDK_KEY_bracketleft, GDK_CONTROL_MASK, "scale", "(0.8, 1.0, true)" },
  /* The play range: from the playhead, to the playhead, cleared. */
  { GDK_KEY_s, 0, "set-play-start" },
  { GDK_KEY_e, 0, "set-play-end" },
  { GDK_KEY_p, GDK_ALT_MASK, "clear-play-range" },
};

static void
add_bindings (GtkWidgetClass *widget_class, gboolean editor)
{
  for (guint i = 0; i < G_N_ELEMENTS (view_bindings); i++)
    {
      const ViewBinding *b = &view_bindings[i];
      g_autofree char *name = NULL;
      GtkShortcut *shortcut;

      if (editor && !b->editor)
        continue;
      name = g_strconcat ("curve.", b->action, NULL);
      shortcut = gtk_shortcut_new (gtk_keyval_trigger_new (b->key, b->mods),
                                   gtk_named_action_new (name));
      if (b->param != NULL)
        {
          g_autoptr (GError) error = NULL;
          g_autoptr (GVariant) args = g_variant_parse (
              G_VARIANT_TYPE (find_action (b->action)->param), b->param, NULL, NULL, &error);

          if (args == NULL)
            g_error ("the key of curve.%s: %s", b->action, error->message);
          gtk_shortcut_set_arguments (shortcut, args);
        }
      gtk_widget_class_add_shortcut (widget_class, shortcut);
      g_object_unref (shortcut);
    }
}

void
_tress_curve_view_class_init_actions (GtkWidgetClass *widget_class)
{
  add_bindings (widget_class, FALSE);
}

void
tress_curve_view_class_add_editor_bindings (GtkWidgetClass *widget_class)
{
  add_bindings (widget_class, TRUE);
}
