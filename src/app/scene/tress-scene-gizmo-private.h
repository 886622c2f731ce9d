/* tress-scene-gizmo-private.h: what the pose gizmo's files share
 *
 * tress-scene-gizmo.c: the tools under the picture, the pointer and the keys,
 * the handles drawn. tress-scene-gizmo-pose.c: the formats' side: which
 * handles a bone (BFRES) or an object (NIFF) offers, the pose the file plays
 * at the playhead, the pose shown without writing anything, and storing it
 * as keys (one undo step).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "formats/tress-curve-commit.h"
#include "tress-scene-gizmo-math.h"
#include "tress-scene-gizmo.h"

G_BEGIN_DECLS

/* A bone's local transform as the gizmo changes it. */
typedef struct
{
  double rotation[3]; /* Euler XYZ radians (R = Rz · Ry · Rx) */
  double translation[3];
  gboolean rotates, moves; /* changed by a drag: what storing writes */
} TressGizmoPose;

struct _TressSceneGizmo
{
  TressScenePane *pane;
  TressScenePreview *preview;
  TressCurveDocument *document;
  TressCurveView *view;
  GtkWidget *area;
  GtkWidget *pose_toggle, *frame_toggle, *auto_key_toggle, *key_button;
  GtkGesture *drag_gesture;
  GtkEventController *key, *legacy, *motion;
  gulong playhead_id, changed_id, reset_id;

  int bone;
  int hover; /* the handle under the pointer, or −1 */

  /* What the bone offers (worked out again after any change of the file). */
  gboolean known;
  int known_bone, known_anim;
  guint handles; /* a mask of TressGizmoHandle */
  int curves[9]; /* NIFF: the curves of translation, rotation, scale */
  guint group;   /* NIFF: the object's AnimGroup */
  char *why_not; /* why it offers nothing, or NULL */

  /* A drag. */
  gboolean dragging;
  int handle;
  TressGizmoDrag drag;
  TressGizmoFrame drag_frame; /* the bone's own frame at the press */
  double drag_axis[3];        /* an arrow's world direction */
  double drag_x, drag_y;
  TressGizmoPose start;  /* the pose the drag changes */
  double moves_by[3][3]; /* column k: the world move of the bone for a unit of local
                          * translation k */

  /* The pose shown but not stored (while dragging, and after a drag with
   * auto-key off). */
  gboolean pending;
  TressGizmoPose pose;
  int pending_anim;
  double pending_frame;

  char *message;
};

/* ---- tress-scene-gizmo-pose.c ---------------------------------------------- */

/* The animator when the gizmo can pose its scene (BFRES with a model, NIFF), or NULL. */
TressSceneAnimator *tress_gizmo_animator (TressSceneGizmo *self);
/* The animation posed (the animator's numbering), or −1. */
int tress_gizmo_anim (TressSceneGizmo *self);
/* The handles the selected bone offers at the animation posed (0 with
 * self->why_not when none). */
guint tress_gizmo_offered (TressSceneGizmo *self);
/* The bone's local transform at the playhead as the file plays it. */
gboolean tress_gizmo_stored_pose (TressSceneGizmo *self, TressGizmoPose *out);
/* Poses the scene with @pose on the bone (NULL: as stored); @quick: only
 * the bone changed since the last pose (a drag's move). */
void tress_gizmo_show (TressSceneGizmo *self, const TressGizmoPose *pose, gboolean quick);
/* Stores self->pose at the playhead as one undo step; what would cost
 * precision is asked first. FALSE when refused or asked. */
gboolean tress_gizmo_store (TressSceneGizmo *self, TressCommitConsent consent);
/* Forgets the pose shown but not stored. */
void tress_gizmo_drop_pending (TressSceneGizmo *self);
void tress_gizmo_set_message (TressSceneGizmo *self, const char *message);

G_END_DECLS
