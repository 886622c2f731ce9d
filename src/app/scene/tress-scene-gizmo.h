/* tress-scene-gizmo.h: posing bones in the preview with a rotation gizmo
 *
 * In pose mode (the "Pose" toggle of the preview's tool bar) the bone
 * selected (clicked, or the one bone of the curves shown) carries three
 * rings, one per axis of its own frame (tress-scene-gizmo-math.h). Dragging
 * a ring turns the bone about that axis (Shift: fine, Ctrl: 5° steps); the
 * model follows live without anything written, Escape or the right button
 * during the drag puts it back. On release the rotation is written at the
 * playhead through tress_bfres_set_pose as one undo step ("Rotate Spine_2 at
 * frame 12"); what would cost precision is asked first. With "Auto-key"
 * off a drag only previews, until "Key Pose" (I in the preview) stores it.
 *
 * BFRES skeletal animations on their model.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "app/curves/tress-curve-view.h"
#include "document/tress-curve-document.h"
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
/* Stores the pose previewed (Key Pose); FALSE when there is none or it was refused. */
gboolean tress_scene_gizmo_key_pose (TressSceneGizmo *gizmo);
/* The last refusal or failure, or NULL (tests). */
const char *tress_scene_gizmo_get_message (TressSceneGizmo *gizmo);

G_END_DECLS
