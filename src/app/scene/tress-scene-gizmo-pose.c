/* tress-scene-gizmo-pose.c: the pose gizmo's formats: what a BFRES bone or a
 * NIFF object offers, plays, shows and stores
 *
 * BFRES: the animator poses the bone with the gizmo's rotation and
 * translation in place of its curves' (tress_bfres_animator_set_override);
 * storing writes them through tress_bfres_set_pose, one undo step holding
 * the FRES bytes before and after (set_pose may add curves).
 *
 * NIFF: the object's AnimGroup is posed through its curves (those
 * tress_niff_pose_curves names), the animator playing the gizmo's values in
 * place of theirs; storing writes them through tress_niff_set_pose as an
 * edit of the group, one undo step holding the group's bytes before and
 * after, as a key edit in the graph (the curves stay, the scene is not read
 * again).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>

#include "app/curves/tress-curve-store-question.h"
#include "core/tress-curve-edit.h"
#include "core/tress-error.h"
#include "formats/bfres/tress-bfres-scene.h"
#include "formats/bfres/tress-bfres-setpose.h"
#include "formats/bfres/tress-bfres-skeletal.h"
#include "formats/niff/tress-niff-animator.h"
#include "formats/niff/tress-niff-setpose.h"
#include "tress-scene-gizmo-private.h"

static gboolean
is_format (TressSceneGizmo *self, const char *id)
{
  const TressFormat *format = tress_document_get_format (TRESS_DOCUMENT (self->document));

  return format != NULL && g_strcmp0 (format->id, id) == 0;
}

TressSceneAnimator *
tress_gizmo_animator (TressSceneGizmo *self)
{
  TressSceneAnimator *a = tress_scene_pane_get_animator (self->pane);

  if (a == NULL)
    return NULL;
  if (is_format (self, "bfres"))
    return tress_bfres_animator_get_model (a) != NULL ? a : NULL;
  if (is_format (self, "niff"))
    return tress_niff_animator_get_niff_scene (a) != NULL ? a : NULL;
  return NULL;
}

int
tress_gizmo_anim (TressSceneGizmo *self)
{
  TressSceneAnimator *a = tress_gizmo_animator (self);
  int anim = tress_scene_pane_get_animation (self->pane);

  if (a == NULL || anim < 0)
    return -1;
  /* BFRES: a skeletal animation (visibility ones pose no bones). */
  if (is_format (self, "bfres") && (guint)anim >= tress_bfres_animator_get_anims (a)->n_skeletal)
    return -1;
  return anim;
}

void
tress_gizmo_set_message (TressSceneGizmo *self, const char *message)
{
  g_free (self->message);
  self->message = g_strdup (message);
  if (message != NULL)
    tress_scene_preview_set_note (self->preview, message);
}

/* ---- what a bone offers ------------------------------------------------------ */

static guint
bfres_offered (TressSceneGizmo *self, TressSceneAnimator *a, int anim)
{
  const TressBfresBoneAnim *ba = tress_bfres_animator_get_bone_anim (a, anim, (guint)self->bone);
  guint handles = TRESS_GIZMO_TURNING;

  /* The arrows where the animation moves the bone: a translation curve. */
  if (ba != NULL && (ba->flags & (7u << 13)) != 0)
    handles |= TRESS_GIZMO_MOVING;
  return handles;
}

static guint
niff_offered (TressSceneGizmo *self, TressSceneAnimator *a)
{
  const TressNiffScene *niff = tress_niff_animator_get_niff_scene (a);
  const TressSceneNode *node = tress_scene_get_node (a->scene, (guint)self->bone);
  TressNiffFile *file = tress_document_get_model (TRESS_DOCUMENT (self->document));
  g_autofree char *no_rotation = NULL;
  guint handles = 0;

  if (node->id >= niff->n_objects || node->id >= TRESS_NIFF_NODE_CHAIN_ROOT)
    {
      self->why_not
          = g_strdup_printf (_ ("%s is a node of an IK chain: the chain solves it"), node->name);
      return 0;
    }
  self->group = niff->objects[node->id].anim_group;
  if (self->group == TRESS_NIFF_NONE
      || !tress_niff_pose_curves (file, self->group, self->curves, &no_rotation))
    {
      self->why_not = g_strdup_printf (_ ("%s has no AnimGroup to pose"), node->name);
      return 0;
    }
  if (self->curves[3] >= 0 && self->curves[4] >= 0 && self->curves[5] >= 0)
    handles |= TRESS_GIZMO_TURNING;
  if (self->curves[0] >= 0 && self->curves[1] >= 0 && self->curves[2] >= 0)
    handles |= TRESS_GIZMO_MOVING;
  if (handles == 0)
    self->why_not = no_rotation != NULL
                        ? g_steal_pointer (&no_rotation)
                        : g_strdup_printf (_ ("%s's AnimGroup has no rotation or translation "
                                              "keys to set"),
                                           node->name);
  return handles;
}

guint
tress_gizmo_offered (TressSceneGizmo *self)
{
  TressSceneAnimator *a = tress_gizmo_animator (self);
  int anim = tress_gizmo_anim (self);

  if (a == NULL || anim < 0 || self->bone < 0
      || (guint)self->bone >= tress_scene_get_n_nodes (a->scene))
    return 0;
  if (self->known && self->known_bone == self->bone && self->known_anim == anim)
    return self->handles;
  g_clear_pointer (&self->why_not, g_free);
  for (guint k = 0; k < 9; k++)
    self->curves[k] = -1;
  self->handles
      = is_format (self, "bfres") ? bfres_offered (self, a, anim) : niff_offered (self, a);
  self->known = TRUE;
  self->known_bone = self->bone;
  self->known_anim = anim;
  return self->handles;
}

/* ---- the pose played and shown -------------------------------------------------- */

static double
sample_document (gpointer data, guint curve, double frame)
{
  TressSceneGizmo *self = data;
  const TressCurve *c = tress_curve_document_get_curve (self->document, curve);

  return c != NULL ? tress_curve_evaluate (c, frame) : 0;
}

static gboolean
bfres_stored (TressSceneGizmo *self, TressSceneAnimator *a, TressGizmoPose *out)
{
  const TressBfresModel *model = tress_bfres_animator_get_model (a);
  g_autofree TressBfresSrt *srt = NULL;
  const TressBfresSrt *s;
  static const double zero[3] = { 0, 0, 0 };
  double m[3][3];

  if ((guint)self->bone >= model->skeleton.n_bones)
    return FALSE;
  srt = g_new0 (TressBfresSrt, model->skeleton.n_bones);
  tress_bfres_animator_set_override (a, -1, NULL, NULL);
  tress_bfres_animator_pose_srt (a, tress_gizmo_anim (self),
                                 tress_curve_view_get_playhead (self->view), sample_document, self,
                                 srt);
  s = &srt[self->bone];
  if (s->rotation_mode == TRESS_BFRES_ROTATION_EULER_XYZ)
    memcpy (out->rotation, s->rotation, sizeof out->rotation);
  else
    {
      tress_gizmo_quaternion_to_matrix (s->rotation, m);
      tress_gizmo_matrix_to_euler (m, zero, out->rotation);
    }
  memcpy (out->translation, s->translation, sizeof out->translation);
  return TRUE;
}

gboolean
tress_gizmo_stored_pose (TressSceneGizmo *self, TressGizmoPose *out)
{
  TressSceneAnimator *a = tress_gizmo_animator (self);
  double frame = tress_curve_view_get_playhead (self->view);

  memset (out, 0, sizeof *out);
  if (a == NULL || tress_gizmo_offered (self) == 0)
    return FALSE;
  if (is_format (self, "bfres"))
    return bfres_stored (self, a, out);
  /* NIFF: the values of the curves set_pose writes. */
  for (guint k = 0; k < 6; k++)
    if (self->curves[k] >= 0)
      (k < 3 ? out->translation : out->rotation)[k % 3]
          = sample_document (self, (guint)self->curves[k], frame);
  return TRUE;
}

void
tress_gizmo_show (TressSceneGizmo *self, const TressGizmoPose *pose, gboolean quick)
{
  TressSceneAnimator *a = tress_gizmo_animator (self);

  if (a == NULL)
    return;
  if (is_format (self, "bfres"))
    {
      tress_bfres_animator_set_override (a, pose != NULL ? self->bone : -1,
                                         pose != NULL && pose->rotates ? pose->rotation : NULL,
                                         pose != NULL && pose->moves ? pose->translation : NULL);
      if (quick && pose != NULL && tress_bfres_animator_repose (a))
        {
          tress_scene_preview_pose_changed (self->preview);
          return;
        }
    }
  else
    {
      guint curves[6], n = 0;
      double values[6];

      for (guint k = 0; pose != NULL && k < 6; k++)
        if (self->curves[k] >= 0 && (k < 3 ? pose->moves : pose->rotates))
          {
            curves[n] = (guint)self->curves[k];
            values[n++] = (k < 3 ? pose->translation : pose->rotation)[k % 3];
          }
      tress_niff_animator_set_override (a, n, curves, values);
      if (quick && pose != NULL
          && tress_niff_animator_repose (a, self->bone, sample_document, self))
        {
          tress_scene_preview_pose_changed (self->preview);
          return;
        }
    }
  tress_scene_pane_pose_now (self->pane);
}

void
tress_gizmo_drop_pending (TressSceneGizmo *self)
{
  gboolean had = self->pending;

  self->pending = FALSE;
  gtk_widget_set_sensitive (self->key_button, FALSE);
  if (had)
    tress_gizmo_show (self, NULL, FALSE);
}

/* ---- storing: BFRES ----------------------------------------------------------------- */

/* The file's number of the skeletal animation @skeletal, or −1. */
static int
file_anim (TressSceneGizmo *self, int skeletal)
{
  TressSceneAnimator *a = tress_gizmo_animator (self);
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

static void
on_question_response (GtkDialog *dialog, int response, TressSceneGizmo *self)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response == 1)
    tress_gizmo_store (self, TRESS_COMMIT_WIDEN_VALUES | TRESS_COMMIT_WIDEN_FRAMES);
  else if (response == 2)
    tress_gizmo_store (self, TRESS_COMMIT_REQUANTIZE | TRESS_COMMIT_WIDEN_FRAMES);
  else
    tress_gizmo_drop_pending (self);
}

static void
on_store_answer (TressStoreChoice choice, gpointer data)
{
  TressSceneGizmo *self = data;

  if (choice == TRESS_STORE_WIDEN)
    tress_gizmo_store (self, TRESS_COMMIT_WIDEN_VALUES | TRESS_COMMIT_WIDEN_FRAMES);
  else if (choice == TRESS_STORE_KEEP)
    tress_gizmo_store (self, TRESS_COMMIT_REQUANTIZE | TRESS_COMMIT_WIDEN_FRAMES);
  else
    tress_gizmo_drop_pending (self);
}

/* What storing the pending pose would cost the keys nobody touched, as the
 * graph works it out for an edit (the key at the frame moved, or one
 * inserted there, on the first curve that needs a coarser step): FALSE when
 * none does (the refusal is of another kind). *angle: the curve is an angle. */
static gboolean
store_cost (TressSceneGizmo *self, const char *anim, const char *bone, TressStoreCost *cost,
            char **path, gboolean *angle)
{
  static const char *const names[6]
      = { "Rotate X", "Rotate Y", "Rotate Z", "Translate X", "Translate Y", "Translate Z" };
  TressBfres *b = tress_document_get_model (TRESS_DOCUMENT (self->document));

  for (guint k = 0; k < 6; k++)
    {
      g_autofree char *p = g_strdup_printf ("%s/%s/%s", anim, bone, names[k]);
      int index = tress_bfres_find_curve (b, p);
      const TressCurve *now;
      g_autoptr (TressCurve) c = NULL;
      g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint));
      TressKey key;
      double was, want;
      int at;

      if (!(k < 3 ? self->pose.rotates : self->pose.moves) || index < 0
          || (now = tress_curve_document_get_curve (self->document, (guint)index)) == NULL)
        continue;
      c = tress_curve_copy (now);
      was = tress_curve_evaluate (c, self->pending_frame);
      want = k < 3 ? self->pose.rotation[k] : self->pose.translation[k - 3];
      if (k < 3)
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
              *angle = k < 3;
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
  gboolean angle = FALSE;
  GtkWidget *dialog;

  if (store_cost (self, anim, bone, &cost, &path, &angle))
    {
      tress_curve_store_question_present (parent, label, path, 1, &cost, angle ? 180 / G_PI : 1,
                                          angle ? "°" : "", on_store_answer, self);
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

static gboolean
store_bfres (TressSceneGizmo *self, TressSceneAnimator *a, const char *bone, const char *label,
             TressCommitConsent consent)
{
  TressBfres *b = tress_document_get_model (TRESS_DOCUMENT (self->document));
  TressBfresBonePose pose
      = { .has_rotation = self->pose.rotates, .has_translation = self->pose.moves };
  g_autoptr (GBytes) before = NULL, after = NULL;
  g_autoptr (GError) error = NULL;
  int anim = file_anim (self, self->pending_anim);

  if (anim < 0)
    {
      tress_gizmo_set_message (self, _ ("The animation posed is not in the file"));
      return FALSE;
    }
  memcpy (pose.rotation, self->pose.rotation, sizeof pose.rotation);
  memcpy (pose.translation, self->pose.translation, sizeof pose.translation);
  before = tress_bfres_get_bfres_bytes (b);
  if (!tress_bfres_set_pose (b, (guint)anim, bone, self->pending_frame, &pose,
                             &tress_bfres_animator_get_model (a)->skeleton, consent, NULL, NULL,
                             &error))
    {
      if (g_error_matches (error, TRESS_ERROR, TRESS_ERROR_REFUSED))
        {
          ask (self, label, a->anim_names[self->pending_anim], bone, error->message);
          return FALSE;
        }
      {
        g_autofree char *text = g_strdup_printf (_ ("%s: %s"), label, error->message);

        tress_gizmo_set_message (self, text);
      }
      tress_gizmo_drop_pending (self);
      return FALSE;
    }
  after = tress_bfres_get_bfres_bytes (b);
  self->pending = FALSE;
  gtk_widget_set_sensitive (self->key_button, FALSE);
  tress_gizmo_set_message (self, NULL);
  if (g_bytes_equal (before, after))
    {
      /* Already what the file plays there. */
      tress_gizmo_show (self, NULL, FALSE);
      return TRUE;
    }
  /* The animator is made again from the new bytes (curves-reset). */
  if (!tress_curve_document_replace_state (self->document, label, restore_fres, before, after,
                                           &error))
    {
      tress_bfres_restore_fres (b, before, NULL);
      tress_gizmo_set_message (self, error->message);
      return FALSE;
    }
  return TRUE;
}

/* ---- storing: NIFF ------------------------------------------------------------------ */

typedef struct
{
  guint group;
  double frame;
  TressNiffObjectPose pose;
} NiffStore;

static gboolean
niff_edit (gpointer model, guint index, gpointer data, double *max_error, GError **error)
{
  NiffStore *s = data;

  /* f32 values, stored as they are. */
  *max_error = 0;
  return tress_niff_set_pose (model, s->group, NULL, s->frame, &s->pose, 0, NULL, error);
}

static gboolean
store_niff (TressSceneGizmo *self, const char *label)
{
  NiffStore s = { self->group,
                  self->pending_frame,
                  { .has_rotation = self->pose.rotates, .has_translation = self->pose.moves } };
  g_autoptr (GError) error = NULL;
  int index = self->curves[self->pose.rotates ? 3 : 0];

  memcpy (s.pose.rotation, self->pose.rotation, sizeof s.pose.rotation);
  memcpy (s.pose.translation, self->pose.translation, sizeof s.pose.translation);
  self->pending = FALSE;
  gtk_widget_set_sensitive (self->key_button, FALSE);
  /* The group's bytes before and after: one undo step, the curves read again. */
  if (index < 0
      || !tress_curve_document_apply_model_edit (self->document, (guint)index, label, niff_edit, &s,
                                                 &error))
    {
      g_autofree char *text
          = g_strdup_printf (_ ("%s: %s"), label, error != NULL ? error->message : _ ("no curve"));

      tress_gizmo_set_message (self, text);
      tress_gizmo_show (self, NULL, FALSE);
      return FALSE;
    }
  tress_gizmo_set_message (self, NULL);
  tress_gizmo_show (self, NULL, FALSE);
  return TRUE;
}

gboolean
tress_gizmo_store (TressSceneGizmo *self, TressCommitConsent consent)
{
  TressSceneAnimator *a = tress_gizmo_animator (self);
  g_autofree char *label = NULL;
  const char *bone;

  if (!self->pending || a == NULL || tress_gizmo_offered (self) == 0
      || !(self->pose.rotates || self->pose.moves))
    return FALSE;
  bone = tress_scene_get_node (a->scene, (guint)self->bone)->name;
  if (self->pose.rotates && self->pose.moves)
    label = g_strdup_printf (_ ("Pose %s at frame %g"), bone, self->pending_frame);
  else if (self->pose.rotates)
    label = g_strdup_printf (_ ("Rotate %s at frame %g"), bone, self->pending_frame);
  else
    label = g_strdup_printf (_ ("Move %s at frame %g"), bone, self->pending_frame);
  if (is_format (self, "bfres"))
    return store_bfres (self, a, bone, label, consent);
  return store_niff (self, label);
}
