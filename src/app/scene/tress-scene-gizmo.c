/* tress-scene-gizmo.c: posing bones in the preview: the tools, the pointer and the keys
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>

#include "tress-scene-gizmo-private.h"

static gboolean
active (TressSceneGizmo *self)
{
  return gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->pose_toggle))
         && tress_gizmo_offered (self) != 0;
}

static gboolean
model_frame (TressSceneGizmo *self)
{
  return gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->frame_toggle));
}

/* The bone's own frame now (its world axes). */
static gboolean
bone_frame (TressSceneGizmo *self, TressGizmoFrame *frame)
{
  TressSceneAnimator *a = tress_gizmo_animator (self);

  return active (self)
         && tress_gizmo_frame_from_world (
             &tress_scene_get_node (a->scene, (guint)self->bone)->world, frame);
}

/* The frame the handles are drawn in: the bone's, or the model's axes at the bone. */
static gboolean
frame_now (TressSceneGizmo *self, TressGizmoFrame *frame)
{
  if (!bone_frame (self, frame))
    return FALSE;
  if (model_frame (self))
    {
      memset (frame->axes, 0, sizeof frame->axes);
      for (guint k = 0; k < 3; k++)
        frame->axes[k][k] = 1;
    }
  return TRUE;
}

static void
overlay (gpointer data, const float mvp[16], double width, double height, GArray *out)
{
  TressSceneGizmo *self = data;
  TressGizmoFrame frame;

  if (frame_now (self, &frame))
    tress_gizmo_build_handles (&frame, mvp, width, height, self->handles,
                               self->dragging ? self->handle : self->hover, out);
}

gboolean
tress_scene_gizmo_key_pose (TressSceneGizmo *self)
{
  return tress_gizmo_store (self, 0);
}

/* ---- input ------------------------------------------------------------------ */

static void
cancel_drag (TressSceneGizmo *self)
{
  if (!self->dragging)
    return;
  self->dragging = FALSE;
  /* Back to what was shown before the drag (a pending pose: where it started). */
  self->pose = self->start;
  if (self->pending)
    tress_gizmo_show (self, &self->pose, FALSE);
  else
    tress_gizmo_show (self, NULL, FALSE);
  gtk_event_controller_reset (GTK_EVENT_CONTROLLER (self->drag_gesture));
}

/* How the bone's origin moves in the world for a unit of each local
 * translation component, measured on the pose shown (every format and
 * scaling mode composes a translation linearly). */
static gboolean
measure_moves (TressSceneGizmo *self)
{
  TressSceneAnimator *a = tress_gizmo_animator (self);
  TressGizmoPose probe = self->start;
  float o[3], p[3];
  double step = 1;

  probe.moves = TRUE;
  tress_gizmo_show (self, &probe, FALSE);
  tress_scene_node_position (a->scene, (guint)self->bone, o);
  /* Steps as large as the numbers around: the scene's matrices are floats. */
  for (guint k = 0; k < 3; k++)
    step = MAX (step, MAX (fabs (o[k]), fabs (self->start.translation[k])));
  for (guint k = 0; k < 3; k++)
    {
      probe.translation[k] = self->start.translation[k] + step;
      tress_gizmo_show (self, &probe, FALSE);
      tress_scene_node_position (a->scene, (guint)self->bone, p);
      for (guint j = 0; j < 3; j++)
        self->moves_by[j][k] = ((double)p[j] - o[j]) / step;
      probe.translation[k] = self->start.translation[k];
    }
  tress_gizmo_show (self, self->pending ? &self->pose : NULL, FALSE);
  {
    double v[3] = { 1, 1, 1 }, x[3];

    return tress_gizmo_solve3 (self->moves_by, v, x);
  }
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, TressSceneGizmo *self)
{
  TressGizmoFrame frame;
  float mvp[16];
  double w, h;
  int handle;

  if (!frame_now (self, &frame))
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  tress_scene_preview_get_mvp (self->preview, mvp, &w, &h);
  handle = tress_gizmo_hit_handle (&frame, mvp, w, h, self->handles, x, y);
  if (handle < 0)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  /* A drag from a pending pose goes on from it (same frame and animation). */
  if (self->pending
      && (self->pending_frame != tress_curve_view_get_playhead (self->view)
          || self->pending_anim != tress_gizmo_anim (self)))
    tress_gizmo_drop_pending (self);
  if (self->pending)
    self->start = self->pose;
  else if (!tress_gizmo_stored_pose (self, &self->start))
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  if (handle >= TRESS_GIZMO_ARROW_X && !measure_moves (self))
    {
      tress_gizmo_set_message (self, _ ("The bone does not move with its translation here"));
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  gtk_widget_grab_focus (self->area);
  self->dragging = TRUE;
  self->handle = handle;
  self->pose = self->start;
  self->drag_x = x;
  self->drag_y = y;
  bone_frame (self, &self->drag_frame);
  if (handle <= TRESS_GIZMO_RING_Z)
    tress_gizmo_drag_begin (&self->drag, &frame, mvp, w, h, handle, x, y);
  else if (handle == TRESS_GIZMO_TRACKBALL)
    tress_gizmo_trackball_begin (&self->drag, &frame, mvp, w, h, x, y);
  else
    {
      tress_gizmo_move_begin (&self->drag, &frame, mvp, w, h, handle - TRESS_GIZMO_ARROW_X, x, y);
      memcpy (self->drag_axis, frame.axes[handle - TRESS_GIZMO_ARROW_X], sizeof self->drag_axis);
    }
  tress_scene_preview_pose_changed (self->preview);
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, TressSceneGizmo *self)
{
  GdkModifierType mods
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  gboolean fine = (mods & GDK_SHIFT_MASK) != 0, snap = (mods & GDK_CONTROL_MASK) != 0;
  double x = self->drag_x + dx, y = self->drag_y + dy;
  TressGizmoPose pose = self->start;

  if (!self->dragging)
    return;
  if (self->handle <= TRESS_GIZMO_RING_Z)
    {
      double angle = tress_gizmo_drag_update (&self->drag, x, y, fine, snap);

      if (model_frame (self))
        {
          double axis[3] = { 0, 0, 0 }, turn[3][3];

          axis[self->handle] = 1;
          tress_gizmo_axis_matrix (axis, angle, turn);
          tress_gizmo_rotate_world (self->start.rotation, &self->drag_frame, turn,
                                    self->pose.rotation, pose.rotation);
        }
      else
        tress_gizmo_rotate_local (self->start.rotation, self->handle, angle, pose.rotation);
      pose.rotates = TRUE;
    }
  else if (self->handle == TRESS_GIZMO_TRACKBALL)
    {
      double turn[3][3];

      tress_gizmo_trackball_update (&self->drag, x, y, fine, snap, turn);
      tress_gizmo_rotate_world (self->start.rotation, &self->drag_frame, turn, self->pose.rotation,
                                pose.rotation);
      pose.rotates = TRUE;
    }
  else
    {
      double t = tress_gizmo_move_update (&self->drag, x, y, fine), world[3], local[3];

      for (guint k = 0; k < 3; k++)
        world[k] = t * self->drag_axis[k];
      if (tress_gizmo_solve3 (self->moves_by, world, local))
        {
          double most = MAX (fabs (local[0]), MAX (fabs (local[1]), fabs (local[2])));

          /* What the float matrices leave of the components the move does not
           * touch (a millionth) is not the user's: those stay as they are. */
          for (guint k = 0; k < 3; k++)
            if (fabs (local[k]) > 1e-5 * most)
              pose.translation[k] = self->start.translation[k] + local[k];
        }
      pose.moves = TRUE;
    }
  self->pose = pose;
  self->pending_anim = tress_gizmo_anim (self);
  self->pending_frame = tress_curve_view_get_playhead (self->view);
  /* Only the bone and what hangs from it change. */
  tress_gizmo_show (self, &self->pose, TRUE);
}

static void
on_drag_end (GtkGestureDrag *gesture, double dx, double dy, TressSceneGizmo *self)
{
  /* Where the last move left it (the modifiers of the moves, not of the release). */
  if (!self->dragging)
    return;
  self->dragging = FALSE;
  /* A press without a move changes nothing. */
  if (!(self->pose.rotates || self->pose.moves))
    {
      tress_gizmo_show (self, NULL, FALSE);
      return;
    }
  self->pending = TRUE;
  if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->auto_key_toggle)))
    tress_gizmo_store (self, 0);
  else
    {
      gtk_widget_set_sensitive (self->key_button, TRUE);
      tress_scene_preview_pose_changed (self->preview);
    }
}

static gboolean
on_legacy_event (GtkEventControllerLegacy *legacy, GdkEvent *event, TressSceneGizmo *self)
{
  /* The right button during a drag takes it back. */
  if (self->dragging && gdk_event_get_event_type (event) == GDK_BUTTON_PRESS
      && gdk_button_event_get_button (event) == GDK_BUTTON_SECONDARY)
    {
      cancel_drag (self);
      return TRUE;
    }
  return FALSE;
}

static gboolean
on_key (GtkEventControllerKey *key, guint keyval, guint keycode, GdkModifierType state,
        TressSceneGizmo *self)
{
  if (keyval == GDK_KEY_Escape && self->dragging)
    {
      cancel_drag (self);
      return TRUE;
    }
  if (keyval == GDK_KEY_Escape && self->pending)
    {
      tress_gizmo_drop_pending (self);
      return TRUE;
    }
  if ((keyval == GDK_KEY_i || keyval == GDK_KEY_I) && !(state & GDK_CONTROL_MASK) && self->pending
      && !self->dragging)
    {
      /* Taken here, asked or not: the editor's I (insert a key) is not meant. */
      tress_scene_gizmo_key_pose (self);
      return TRUE;
    }
  return FALSE;
}

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, TressSceneGizmo *self)
{
  TressGizmoFrame frame;
  float mvp[16];
  double w, h;
  int hover = -1;

  if (!self->dragging && frame_now (self, &frame))
    {
      tress_scene_preview_get_mvp (self->preview, mvp, &w, &h);
      hover = tress_gizmo_hit_handle (&frame, mvp, w, h, self->handles, x, y);
    }
  if (hover != self->hover && !self->dragging)
    {
      self->hover = hover;
      tress_scene_preview_pose_changed (self->preview);
    }
}

static void
on_leave (GtkEventControllerMotion *motion, TressSceneGizmo *self)
{
  if (self->hover >= 0 && !self->dragging)
    {
      self->hover = -1;
      tress_scene_preview_pose_changed (self->preview);
    }
}

static void
on_playhead (TressCurveView *view, GParamSpec *pspec, TressSceneGizmo *self)
{
  /* A pose previewed at another frame is not this frame's. */
  if (self->pending && !self->dragging
      && self->pending_frame != tress_curve_view_get_playhead (view))
    tress_gizmo_drop_pending (self);
}

static void
forget (TressSceneGizmo *self)
{
  /* What the bone offers is worked out again. */
  self->known = FALSE;
}

static void
on_curve_changed (TressCurveDocument *document, guint index, TressSceneGizmo *self)
{
  forget (self);
}

/* Says why the selected bone cannot be posed, in pose mode. */
static void
explain (TressSceneGizmo *self)
{
  if (!gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->pose_toggle)) || self->bone < 0)
    return;
  if (tress_gizmo_offered (self) == 0 && self->why_not != NULL)
    tress_gizmo_set_message (self, self->why_not);
  else
    g_clear_pointer (&self->message, g_free); /* what was said of another bone */
}

static void
on_pose_toggled (GtkToggleButton *button, TressSceneGizmo *self)
{
  gboolean on = gtk_toggle_button_get_active (button);

  if (!on)
    {
      cancel_drag (self);
      tress_gizmo_drop_pending (self);
    }
  gtk_widget_set_visible (self->frame_toggle, on);
  gtk_widget_set_visible (self->auto_key_toggle, on);
  gtk_widget_set_visible (self->key_button, on);
  explain (self);
  tress_scene_preview_pose_changed (self->preview);
}

static void
on_frame_toggled (GtkToggleButton *button, TressSceneGizmo *self)
{
  cancel_drag (self);
  self->hover = -1;
  tress_scene_preview_pose_changed (self->preview);
}

static void
on_key_clicked (GtkButton *button, TressSceneGizmo *self)
{
  tress_scene_gizmo_key_pose (self);
}

/* ---- public ----------------------------------------------------------------- */

static GtkWidget *
tool (const char *icon, gboolean toggle, const char *tooltip)
{
  GtkWidget *w = toggle ? gtk_toggle_button_new () : gtk_button_new ();

  gtk_button_set_icon_name (GTK_BUTTON (w), icon);
  gtk_widget_set_tooltip_text (w, tooltip);
  return w;
}

TressSceneGizmo *
tress_scene_gizmo_new (TressScenePane *pane, TressCurveDocument *document, TressCurveView *view)
{
  TressSceneGizmo *self = g_new0 (TressSceneGizmo, 1);
  GtkEventController *key = gtk_event_controller_key_new ();
  GtkEventController *legacy = gtk_event_controller_legacy_new ();
  GtkEventController *motion = gtk_event_controller_motion_new ();
  const TressFormat *format;

  self->pane = pane;
  self->key = key;
  self->legacy = legacy;
  self->motion = motion;
  self->preview = tress_scene_pane_get_preview (pane);
  self->document = document;
  self->view = view;
  self->bone = -1;
  self->hover = -1;
  self->handle = -1;
  self->area = tress_scene_preview_get_area (self->preview);

  /* Icons under the picture: the preview is narrow at the default window size. */
  self->pose_toggle
      = tool ("object-rotate-right-symbolic", TRUE,
              _ ("Pose: turn the selected bone by its rings or the trackball, move it by its "
                 "arrows (Shift: fine, Ctrl: 5° steps, Esc or right button: cancel)"));
  self->frame_toggle = tool (
      "view-grid-symbolic", TRUE,
      _ ("Model Frame: rings and arrows along the model's axes; off: along the bone's own"));
  self->auto_key_toggle = tool ("media-record-symbolic", TRUE,
                                _ ("Auto-Key: store keys at the playhead when a drag ends; off: a "
                                   "drag only previews until Key Pose"));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->auto_key_toggle), TRUE);
  self->key_button = tool ("document-save-symbolic", FALSE,
                           _ ("Key Pose: store the pose previewed at the playhead (I)"));
  gtk_widget_set_sensitive (self->key_button, FALSE);
  gtk_widget_set_visible (self->frame_toggle, FALSE);
  gtk_widget_set_visible (self->auto_key_toggle, FALSE);
  gtk_widget_set_visible (self->key_button, FALSE);
  /* BFRES skeletal animations and NIFF scenes. */
  format = tress_document_get_format (TRESS_DOCUMENT (document));
  gtk_widget_set_visible (self->pose_toggle, format != NULL
                                                 && (g_strcmp0 (format->id, "bfres") == 0
                                                     || g_strcmp0 (format->id, "niff") == 0));
  tress_scene_preview_add_status_tool (self->preview, self->frame_toggle);
  tress_scene_preview_add_status_tool (self->preview, self->auto_key_toggle);
  tress_scene_preview_add_status_tool (self->preview, self->key_button);
  tress_scene_preview_add_status_tool (self->preview, self->pose_toggle);
  g_signal_connect (self->pose_toggle, "toggled", G_CALLBACK (on_pose_toggled), self);
  g_signal_connect (self->frame_toggle, "toggled", G_CALLBACK (on_frame_toggled), self);
  g_signal_connect (self->key_button, "clicked", G_CALLBACK (on_key_clicked), self);

  /* Before the camera's drag: a press on a handle is the gizmo's. */
  self->drag_gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (self->drag_gesture), GDK_BUTTON_PRIMARY);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (self->drag_gesture),
                                              GTK_PHASE_CAPTURE);
  g_signal_connect (self->drag_gesture, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (self->drag_gesture, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (self->drag_gesture, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (self->area, GTK_EVENT_CONTROLLER (self->drag_gesture));
  gtk_event_controller_set_propagation_phase (legacy, GTK_PHASE_CAPTURE);
  g_signal_connect (legacy, "event", G_CALLBACK (on_legacy_event), self);
  gtk_widget_add_controller (self->area, legacy);
  g_signal_connect (key, "key-pressed", G_CALLBACK (on_key), self);
  gtk_widget_add_controller (self->area, key);
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (self->area, motion);
  gtk_widget_set_focusable (self->area, TRUE);
  self->playhead_id = g_signal_connect (view, "notify::playhead", G_CALLBACK (on_playhead), self);
  self->changed_id
      = g_signal_connect (document, "curve-changed", G_CALLBACK (on_curve_changed), self);
  self->reset_id = g_signal_connect_swapped (document, "curves-reset", G_CALLBACK (forget), self);
  tress_scene_preview_set_overlay (self->preview, overlay, self);
  return self;
}

void
tress_scene_gizmo_free (TressSceneGizmo *self)
{
  if (self == NULL)
    return;
  g_clear_signal_handler (&self->playhead_id, self->view);
  g_clear_signal_handler (&self->changed_id, self->document);
  g_clear_signal_handler (&self->reset_id, self->document);
  /* The widgets may outlive the gizmo a moment. */
  g_signal_handlers_disconnect_by_data (self->drag_gesture, self);
  g_signal_handlers_disconnect_by_data (self->key, self);
  g_signal_handlers_disconnect_by_data (self->legacy, self);
  g_signal_handlers_disconnect_by_data (self->motion, self);
  g_signal_handlers_disconnect_by_data (self->pose_toggle, self);
  g_signal_handlers_disconnect_by_data (self->frame_toggle, self);
  g_signal_handlers_disconnect_by_data (self->key_button, self);
  if (self->preview != NULL)
    tress_scene_preview_set_overlay (self->preview, NULL, NULL);
  g_free (self->why_not);
  g_free (self->message);
  g_free (self);
}

void
tress_scene_gizmo_set_bone (TressSceneGizmo *self, int node)
{
  if (self->bone == node || self->dragging)
    return;
  tress_gizmo_drop_pending (self);
  self->bone = node;
  self->hover = -1;
  explain (self);
  tress_scene_preview_pose_changed (self->preview);
}

int
tress_scene_gizmo_get_bone (TressSceneGizmo *self)
{
  return self->bone;
}

void
tress_scene_gizmo_scene_reloaded (TressSceneGizmo *self)
{
  self->dragging = FALSE;
  self->pending = FALSE;
  self->known = FALSE;
  gtk_widget_set_sensitive (self->key_button, FALSE);
  if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->pose_toggle)) && self->bone >= 0)
    tress_scene_pane_select_node (self->pane, (guint)self->bone);
}

void
tress_scene_gizmo_set_pose_mode (TressSceneGizmo *self, gboolean on)
{
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->pose_toggle), on);
}

gboolean
tress_scene_gizmo_get_pose_mode (TressSceneGizmo *self)
{
  return gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->pose_toggle));
}

void
tress_scene_gizmo_set_auto_key (TressSceneGizmo *self, gboolean on)
{
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->auto_key_toggle), on);
}

void
tress_scene_gizmo_set_model_frame (TressSceneGizmo *self, gboolean on)
{
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->frame_toggle), on);
}

guint
tress_scene_gizmo_get_handles (TressSceneGizmo *self)
{
  return active (self) ? self->handles : 0;
}

gboolean
tress_scene_gizmo_get_frame (TressSceneGizmo *self, TressGizmoFrame *frame)
{
  return frame_now (self, frame);
}

const char *
tress_scene_gizmo_get_message (TressSceneGizmo *self)
{
  return self->message;
}
