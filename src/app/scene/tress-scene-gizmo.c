/* tress-scene-gizmo.c: posing bones in the preview with a rotation gizmo
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-scene-gizmo.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "app/curves/tress-curve-store-question.h"
#include "core/tress-curve-edit.h"
#include "core/tress-error.h"
#include "formats/bfres/tress-bfres-scene.h"
#include "formats/bfres/tress-bfres-setpose.h"
#include "formats/bfres/tress-bfres-skeletal.h"
#include "tress-scene-gizmo-math.h"

struct _TressSceneGizmo
{
  TressScenePane *pane;
  TressScenePreview *preview;
  TressCurveDocument *document;
  TressCurveView *view;
  GtkWidget *area;
  GtkWidget *pose_toggle, *auto_key_toggle, *key_button;
  GtkGesture *drag_gesture;
  GtkEventController *key, *legacy, *motion;
  gulong playhead_id;

  int bone;
  int hover; /* the ring under the pointer, or −1 */

  /* A drag. */
  gboolean dragging;
  TressGizmoDrag drag;
  double drag_x, drag_y;
  double start_euler[3]; /* the rotation the drag turns */

  /* The rotation shown but not stored (while dragging, and after a drag with
   * auto-key off). */
  gboolean pending;
  double pending_euler[3];
  int pending_skeletal;
  double pending_frame;

  char *message;
};

static TressSceneAnimator *
bfres_animator (TressSceneGizmo *self)
{
  TressSceneAnimator *a = tress_scene_pane_get_animator (self->pane);
  const TressFormat *format = tress_document_get_format (TRESS_DOCUMENT (self->document));

  /* BFRES only, so far (a NIFF file's animator is of another kind). */
  if (a == NULL || format == NULL || g_strcmp0 (format->id, "bfres") != 0)
    return NULL;
  return tress_bfres_animator_get_model (a) != NULL ? a : NULL;
}

/* The skeletal animation posed (the animator's numbering), or −1. */
static int
skeletal_anim (TressSceneGizmo *self)
{
  TressSceneAnimator *a = bfres_animator (self);
  int anim = tress_scene_pane_get_animation (self->pane);

  if (a == NULL || anim < 0 || (guint)anim >= tress_bfres_animator_get_anims (a)->n_skeletal)
    return -1;
  return anim;
}

static gboolean
active (TressSceneGizmo *self)
{
  TressSceneAnimator *a = bfres_animator (self);

  return gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->pose_toggle)) && a != NULL
         && self->bone >= 0 && (guint)self->bone < tress_scene_get_n_nodes (a->scene)
         && skeletal_anim (self) >= 0;
}

static gboolean
frame_now (TressSceneGizmo *self, TressGizmoFrame *frame)
{
  TressSceneAnimator *a = bfres_animator (self);

  return active (self)
         && tress_gizmo_frame_from_world (
             &tress_scene_get_node (a->scene, (guint)self->bone)->world, frame);
}

static void
overlay (gpointer data, const float mvp[16], double width, double height, GArray *out)
{
  TressSceneGizmo *self = data;
  TressGizmoFrame frame;

  if (frame_now (self, &frame))
    tress_gizmo_build (&frame, mvp, width, height, self->dragging ? self->drag.axis : self->hover,
                       out);
}

static void
set_message (TressSceneGizmo *self, const char *message)
{
  g_free (self->message);
  self->message = g_strdup (message);
  if (message != NULL)
    tress_scene_preview_set_note (self->preview, message);
}

/* ---- the pose shown ------------------------------------------------------- */

static double
sample_document (gpointer data, guint curve, double frame)
{
  TressSceneGizmo *self = data;
  const TressCurve *c = tress_curve_document_get_curve (self->document, curve);

  return c != NULL ? tress_curve_evaluate (c, frame) : 0;
}

/* The bone's local rotation at the playhead as the file plays it, Euler XYZ. */
static gboolean
stored_rotation (TressSceneGizmo *self, double euler[3])
{
  TressSceneAnimator *a = bfres_animator (self);
  const TressBfresModel *model = a != NULL ? tress_bfres_animator_get_model (a) : NULL;
  g_autofree TressBfresSrt *srt = NULL;
  const TressBfresSrt *s;
  static const double zero[3] = { 0, 0, 0 };
  double m[3][3];

  if (!active (self) || (guint)self->bone >= model->skeleton.n_bones)
    return FALSE;
  srt = g_new0 (TressBfresSrt, model->skeleton.n_bones);
  tress_bfres_animator_set_rotation_override (a, -1, NULL);
  tress_bfres_animator_pose_srt (a, skeletal_anim (self),
                                 tress_curve_view_get_playhead (self->view), sample_document, self,
                                 srt);
  s = &srt[self->bone];
  if (s->rotation_mode == TRESS_BFRES_ROTATION_EULER_XYZ)
    memcpy (euler, s->rotation, 3 * sizeof (double));
  else
    {
      tress_gizmo_quaternion_to_matrix (s->rotation, m);
      tress_gizmo_matrix_to_euler (m, zero, euler);
    }
  return TRUE;
}

/* Poses the scene with @euler on the bone (NULL: as stored). */
static void
show_rotation (TressSceneGizmo *self, const double *euler)
{
  TressSceneAnimator *a = bfres_animator (self);

  if (a == NULL)
    return;
  tress_bfres_animator_set_rotation_override (a, euler != NULL ? self->bone : -1, euler);
  tress_scene_pane_pose_now (self->pane);
}

static void
drop_pending (TressSceneGizmo *self)
{
  gboolean had = self->pending;

  self->pending = FALSE;
  gtk_widget_set_sensitive (self->key_button, FALSE);
  if (had)
    show_rotation (self, NULL);
}

/* ---- storing ---------------------------------------------------------------- */

/* The file's number of the skeletal animation @skeletal, or −1. */
static int
file_anim (TressSceneGizmo *self, int skeletal)
{
  TressSceneAnimator *a = bfres_animator (self);
  TressBfres *b = tress_document_get_model (TRESS_DOCUMENT (self->document));
  const char *name;

  if (a == NULL || skeletal < 0 || (guint)skeletal >= a->n_anims)
    return -1;
  name = a->anim_names[skeletal];
  for (guint i = 0; i < tress_bfres_get_n_anims (b); i++)
    {
      TressBfresAnimInfo info;

      if (tress_bfres_get_anim_info (b, i, &info) && g_strcmp0 (info.kind, "Skeletal") == 0
          && g_strcmp0 (info.name, name) == 0)
        return (int)i;
    }
  return -1;
}

static gboolean
restore_fres (gpointer model, GBytes *state, GError **error)
{
  return tress_bfres_restore_fres (model, state, error);
}

static gboolean store (TressSceneGizmo *self, TressCommitConsent consent);

static void
on_question_response (GtkDialog *dialog, int response, TressSceneGizmo *self)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response == 1)
    store (self, TRESS_COMMIT_WIDEN_VALUES | TRESS_COMMIT_WIDEN_FRAMES);
  else if (response == 2)
    store (self, TRESS_COMMIT_REQUANTIZE | TRESS_COMMIT_WIDEN_FRAMES);
  else
    drop_pending (self);
}

static void
on_store_answer (TressStoreChoice choice, gpointer data)
{
  TressSceneGizmo *self = data;

  if (choice == TRESS_STORE_WIDEN)
    store (self, TRESS_COMMIT_WIDEN_VALUES | TRESS_COMMIT_WIDEN_FRAMES);
  else if (choice == TRESS_STORE_KEEP)
    store (self, TRESS_COMMIT_REQUANTIZE | TRESS_COMMIT_WIDEN_FRAMES);
  else
    drop_pending (self);
}

/* What storing the pending rotation would cost the keys nobody touched, as
 * the graph works it out for an edit (the key at the frame moved, or one
 * inserted there, on the first rotation curve that needs a coarser step):
 * FALSE when none does (the refusal is of another kind). */
static gboolean
store_cost (TressSceneGizmo *self, const char *anim, const char *bone, TressStoreCost *cost,
            char **path)
{
  static const char *const names[3] = { "Rotate X", "Rotate Y", "Rotate Z" };
  TressBfres *b = tress_document_get_model (TRESS_DOCUMENT (self->document));

  for (guint k = 0; k < 3; k++)
    {
      g_autofree char *p = g_strdup_printf ("%s/%s/%s", anim, bone, names[k]);
      int index = tress_bfres_find_curve (b, p);
      const TressCurve *now;
      g_autoptr (TressCurve) c = NULL;
      g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint));
      TressKey key;
      double was, want;
      int at;

      if (index < 0
          || (now = tress_curve_document_get_curve (self->document, (guint)index)) == NULL)
        continue;
      c = tress_curve_copy (now);
      was = tress_curve_evaluate (c, self->pending_frame);
      want = self->pending_euler[k];
      want += 2 * G_PI * round ((was - want) / (2 * G_PI));
      at = tress_curve_find_key (c, self->pending_frame, 1e-9);
      if (at < 0)
        {
          c->limits.frame_step = 0;
          if (!tress_curve_edit_insert (c, keys, self->pending_frame, NULL))
            continue;
          at = (int)g_array_index (keys, guint, 0);
        }
      key = *tress_curve_get_key (c, (guint)at);
      key.value = want;
      g_array_set_size (keys, 0);
      if (!tress_curve_edit_set_key (c, keys, (guint)at, &key, NULL))
        continue;
      if (tress_curve_document_preview_store (self->document, (guint)index, c, cost))
        {
          if (tress_store_cost_is_lossy (cost))
            {
              *path = g_steal_pointer (&p);
              return TRUE;
            }
          tress_store_cost_clear (cost);
        }
    }
  return FALSE;
}

/* What storing would cost, asked as the graph asks before a lossy edit
 * (tress-curve-store-question.h, angles in degrees); a refusal of another
 * kind (a frame the frame type cannot hold) is asked with its reason. */
static void
ask (TressSceneGizmo *self, const char *label, const char *anim, const char *bone, const char *why)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self->preview));
  GtkWindow *parent = GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL;
  TressStoreCost cost = { 0 };
  g_autofree char *path = NULL;
  GtkWidget *dialog;

  if (store_cost (self, anim, bone, &cost, &path))
    {
      tress_curve_store_question_present (parent, label, path, 1, &cost, 180 / G_PI, "°",
                                          on_store_answer, self);
      tress_store_cost_clear (&cost);
      return;
    }
  dialog = gtk_message_dialog_new (parent, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                   _ ("%s cannot be stored as it is"), label);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", why);
  gtk_dialog_add_button (GTK_DIALOG (dialog), _ ("_Cancel"), GTK_RESPONSE_CANCEL);
  gtk_dialog_add_button (GTK_DIALOG (dialog), _ ("_Coarser Step"), 2);
  gtk_dialog_add_button (GTK_DIALOG (dialog), _ ("_Wider Type"), 1);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), 1);
  g_signal_connect (dialog, "response", G_CALLBACK (on_question_response), self);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Writes the pending rotation as one undo step. */
static gboolean
store (TressSceneGizmo *self, TressCommitConsent consent)
{
  TressSceneAnimator *a = bfres_animator (self);
  TressBfres *b = tress_document_get_model (TRESS_DOCUMENT (self->document));
  TressBfresBonePose pose = { .has_rotation = TRUE };
  g_autoptr (GBytes) before = NULL, after = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *label = NULL;
  const char *bone;
  int anim;

  if (!self->pending || a == NULL || !active (self))
    return FALSE;
  anim = file_anim (self, self->pending_skeletal);
  bone = tress_scene_get_node (a->scene, (guint)self->bone)->name;
  label = g_strdup_printf (_ ("Rotate %s at frame %g"), bone, self->pending_frame);
  if (anim < 0)
    {
      set_message (self, _ ("The animation posed is not in the file"));
      return FALSE;
    }
  memcpy (pose.rotation, self->pending_euler, sizeof pose.rotation);
  before = tress_bfres_get_bfres_bytes (b);
  if (!tress_bfres_set_pose (b, (guint)anim, bone, self->pending_frame, &pose,
                             &tress_bfres_animator_get_model (a)->skeleton, consent, NULL, NULL,
                             &error))
    {
      if (g_error_matches (error, TRESS_ERROR, TRESS_ERROR_REFUSED))
        {
          ask (self, label,
               tress_scene_pane_get_animator (self->pane)->anim_names[self->pending_skeletal], bone,
               error->message);
          return FALSE;
        }
      {
        g_autofree char *text = g_strdup_printf (_ ("%s: %s"), label, error->message);

        set_message (self, text);
      }
      drop_pending (self);
      return FALSE;
    }
  after = tress_bfres_get_bfres_bytes (b);
  self->pending = FALSE;
  gtk_widget_set_sensitive (self->key_button, FALSE);
  set_message (self, NULL);
  if (g_bytes_equal (before, after))
    {
      /* Already what the file plays there. */
      show_rotation (self, NULL);
      return TRUE;
    }
  /* The animator is made again from the new bytes (curves-reset). */
  if (!tress_curve_document_replace_state (self->document, label, restore_fres, before, after,
                                           &error))
    {
      tress_bfres_restore_fres (b, before, NULL);
      set_message (self, error->message);
      return FALSE;
    }
  return TRUE;
}

gboolean
tress_scene_gizmo_key_pose (TressSceneGizmo *self)
{
  return store (self, 0);
}

/* ---- input ------------------------------------------------------------------ */

static void
cancel_drag (TressSceneGizmo *self)
{
  if (!self->dragging)
    return;
  self->dragging = FALSE;
  /* Back to what was shown before the drag (a pending pose: where it started). */
  memcpy (self->pending_euler, self->start_euler, sizeof self->start_euler);
  if (self->pending)
    show_rotation (self, self->pending_euler);
  else
    show_rotation (self, NULL);
  gtk_event_controller_reset (GTK_EVENT_CONTROLLER (self->drag_gesture));
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, TressSceneGizmo *self)
{
  TressGizmoFrame frame;
  float mvp[16];
  double w, h;
  int axis;

  if (!frame_now (self, &frame))
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  tress_scene_preview_get_mvp (self->preview, mvp, &w, &h);
  axis = tress_gizmo_hit (&frame, mvp, w, h, x, y);
  if (axis < 0)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  /* A drag from a pending pose goes on from it (same frame and animation). */
  if (self->pending
      && (self->pending_frame != tress_curve_view_get_playhead (self->view)
          || self->pending_skeletal != skeletal_anim (self)))
    drop_pending (self);
  if (self->pending)
    memcpy (self->start_euler, self->pending_euler, sizeof self->start_euler);
  else if (!stored_rotation (self, self->start_euler))
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  gtk_widget_grab_focus (self->area);
  self->dragging = TRUE;
  self->drag_x = x;
  self->drag_y = y;
  tress_gizmo_drag_begin (&self->drag, &frame, mvp, w, h, axis, x, y);
  tress_scene_preview_pose_changed (self->preview);
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, TressSceneGizmo *self)
{
  GdkModifierType mods
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  double angle, euler[3];

  if (!self->dragging)
    return;
  angle = tress_gizmo_drag_update (&self->drag, self->drag_x + dx, self->drag_y + dy,
                                   (mods & GDK_SHIFT_MASK) != 0, (mods & GDK_CONTROL_MASK) != 0);
  tress_gizmo_rotate_local (self->start_euler, self->drag.axis, angle, euler);
  memcpy (self->pending_euler, euler, sizeof euler);
  self->pending_skeletal = skeletal_anim (self);
  self->pending_frame = tress_curve_view_get_playhead (self->view);
  show_rotation (self, euler);
}

static void
on_drag_end (GtkGestureDrag *gesture, double dx, double dy, TressSceneGizmo *self)
{
  /* Where the last move left it (the modifiers of the moves, not of the release). */
  if (!self->dragging)
    return;
  self->dragging = FALSE;
  self->pending = TRUE;
  if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->auto_key_toggle)))
    store (self, 0);
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
      drop_pending (self);
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
      hover = tress_gizmo_hit (&frame, mvp, w, h, x, y);
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
    drop_pending (self);
}

static void
on_pose_toggled (GtkToggleButton *button, TressSceneGizmo *self)
{
  if (!gtk_toggle_button_get_active (button))
    {
      cancel_drag (self);
      drop_pending (self);
    }
  gtk_widget_set_visible (self->auto_key_toggle, gtk_toggle_button_get_active (button));
  gtk_widget_set_visible (self->key_button, gtk_toggle_button_get_active (button));
  tress_scene_preview_pose_changed (self->preview);
}

static void
on_key_clicked (GtkButton *button, TressSceneGizmo *self)
{
  tress_scene_gizmo_key_pose (self);
}

/* ---- public ----------------------------------------------------------------- */

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
  self->area = tress_scene_preview_get_area (self->preview);

  /* Icons under the picture: the preview is narrow at the default window size. */
  self->pose_toggle = gtk_toggle_button_new ();
  gtk_button_set_icon_name (GTK_BUTTON (self->pose_toggle), "object-rotate-right-symbolic");
  gtk_widget_set_tooltip_text (self->pose_toggle,
                               _ ("Pose: turn the selected bone with the mouse, dragging a ring "
                                  "(Shift: fine, Ctrl: 5° steps, Esc: cancel)"));
  self->auto_key_toggle = gtk_toggle_button_new ();
  gtk_button_set_icon_name (GTK_BUTTON (self->auto_key_toggle), "media-record-symbolic");
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->auto_key_toggle), TRUE);
  gtk_widget_set_tooltip_text (self->auto_key_toggle,
                               _ ("Auto-Key: store keys at the playhead when a drag ends; off: a "
                                  "drag only previews until Key Pose"));
  self->key_button = gtk_button_new_from_icon_name ("document-save-symbolic");
  gtk_widget_set_tooltip_text (self->key_button,
                               _ ("Key Pose: store the pose previewed at the playhead (I)"));
  gtk_widget_set_sensitive (self->key_button, FALSE);
  gtk_widget_set_visible (self->auto_key_toggle, FALSE);
  gtk_widget_set_visible (self->key_button, FALSE);
  /* BFRES skeletal animations only, so far. */
  format = tress_document_get_format (TRESS_DOCUMENT (document));
  gtk_widget_set_visible (self->pose_toggle,
                          format != NULL && g_strcmp0 (format->id, "bfres") == 0);
  tress_scene_preview_add_status_tool (self->preview, self->auto_key_toggle);
  tress_scene_preview_add_status_tool (self->preview, self->key_button);
  tress_scene_preview_add_status_tool (self->preview, self->pose_toggle);
  g_signal_connect (self->pose_toggle, "toggled", G_CALLBACK (on_pose_toggled), self);
  g_signal_connect (self->key_button, "clicked", G_CALLBACK (on_key_clicked), self);

  /* Before the camera's drag: a press on a ring is the gizmo's. */
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
  tress_scene_preview_set_overlay (self->preview, overlay, self);
  return self;
}

void
tress_scene_gizmo_free (TressSceneGizmo *self)
{
  if (self == NULL)
    return;
  g_clear_signal_handler (&self->playhead_id, self->view);
  /* The widgets may outlive the gizmo a moment. */
  g_signal_handlers_disconnect_by_data (self->drag_gesture, self);
  g_signal_handlers_disconnect_by_data (self->key, self);
  g_signal_handlers_disconnect_by_data (self->legacy, self);
  g_signal_handlers_disconnect_by_data (self->motion, self);
  g_signal_handlers_disconnect_by_data (self->pose_toggle, self);
  g_signal_handlers_disconnect_by_data (self->key_button, self);
  if (self->preview != NULL)
    tress_scene_preview_set_overlay (self->preview, NULL, NULL);
  g_free (self->message);
  g_free (self);
}

void
tress_scene_gizmo_set_bone (TressSceneGizmo *self, int node)
{
  if (self->bone == node || self->dragging)
    return;
  drop_pending (self);
  self->bone = node;
  self->hover = -1;
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

const char *
tress_scene_gizmo_get_message (TressSceneGizmo *self)
{
  return self->message;
}
