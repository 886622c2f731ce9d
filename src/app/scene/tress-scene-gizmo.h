/* tress-scene-gizmo.h: posing bones in the preview with a gizmo
 *
 * In pose mode (the "Pose" toggle under the picture) the bone selected
 * (clicked, or the one bone of the curves shown) carries the handles of
 * tress-scene-gizmo-math.h: three rings and the trackball, and three arrows
 * where the animation moves the bone (a BFRES BoneAnim with a translation
 * curve, a NIFF AnimGroup with translation keys), in the bone's own frame or
 * (the "Model Frame" toggle) the model's. Dragging a ring turns the bone about
 * its axis, the trackball turns it freely, an arrow moves it along its axis
 * (Shift: fine, Ctrl: 5° steps); the model follows live without anything
 * written, Escape or the right button during the drag puts it back. On
 * release the pose is written at the playhead as one undo step ("Rotate
 * Spine_2 at frame 12", "Move …", "Pose …" for both): BFRES through
 * tress_bfres_set_pose (what would cost precision is asked first), NIFF
 * through tress_niff_set_pose. With "Auto-key" off a drag only previews,
 * until "Key Pose" (I in the preview) stores it.
 *
 * BFRES skeletal animations on their model; NIFF objects with an AnimGroup
 * (not the nodes of IK chains, which the chain solves).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "app/curves/tress-curve-view.h"
#include "document/tress-curve-document.h"
#include "tress-scene-gizmo-math.h"
#include "tress-scene-pane.h"

G_BEGIN_DECLS

/* TressSceneGizmo is declared in tress-scene-pane.h. */

/* Adds the tools and the input to @pane's preview. */
TressSceneGizmo *tress_scene_gizmo_new (TressScenePane *pane, TressCurveDocument *document,
                                        TressCurveView *view);
void tress_scene_gizmo_free (TressSceneGizmo *gizmo);

/* The bone the rings sit on (a node of the scene), −1 for none. */
void tress_scene_gizmo_set_bone (TressSceneGizmo *gizmo, int node);
int tress_scene_gizmo_get_bone (TressSceneGizmo *gizmo);
/* The scene was replaced (a reload after an edit, undo, redo): what was
 * being dragged or previewed is gone; the bone's curves are selected again. */
void tress_scene_gizmo_scene_reloaded (TressSceneGizmo *gizmo);

void tress_scene_gizmo_set_pose_mode (TressSceneGizmo *gizmo, gboolean on);
gboolean tress_scene_gizmo_get_pose_mode (TressSceneGizmo *gizmo);
void tress_scene_gizmo_set_auto_key (TressSceneGizmo *gizmo, gboolean on);
/* The model's axes (TRUE) or the bone's own (FALSE). */
void tress_scene_gizmo_set_model_frame (TressSceneGizmo *gizmo, gboolean on);
/* The handles shown on the selected bone (a mask of TressGizmoHandle; 0
 * outside pose mode or when it cannot be posed). */
guint tress_scene_gizmo_get_handles (TressSceneGizmo *gizmo);
/* The frame the handles are drawn in now; FALSE when none is shown. */
gboolean tress_scene_gizmo_get_frame (TressSceneGizmo *gizmo, TressGizmoFrame *frame);
/* Stores the pose previewed (Key Pose); FALSE when there is none or it was refused. */
gboolean tress_scene_gizmo_key_pose (TressSceneGizmo *gizmo);
/* The last refusal or failure, or NULL (tests). */
const char *tress_scene_gizmo_get_message (TressSceneGizmo *gizmo);

G_END_DECLS
