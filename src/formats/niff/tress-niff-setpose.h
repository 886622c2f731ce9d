/* tress-niff-setpose.h: an object's local transform at one frame, as keys
 *
 * The NIFF side of tress-bfres-setpose.h: AnimGroup @group (the one an
 * object links) plays the translation, Euler rotation and scale asked for at
 * a frame. Each component is taken from the curve the pose reads
 * (tress-niff-pose.h): a NIFF2 channel with keys (RotateX/Y/Z, Translation,
 * UniqueScale or ClassicalScale), else the NIFF1 records (KEY, FULL,
 * STATIC); the key at the frame is set, or one is inserted there, through
 * the curve edit operations and tress_curve_commit_value_at, as the graph
 * does. Values are f32 and stored exactly (to float precision); frames are
 * whole numbers from 0 to the group's last key: a frame between them is
 * refused (no NIFF frame type holds it). Angles stay continuous with the
 * curve (the 2π-equivalent nearest its value at the frame). A component
 * with no curve with keys (a channel the group does not use) is refused
 * unless it already holds the value; a rotation through RotateAxis or
 * OrientationXY, and Euler orders other than XYZ, are refused. All or
 * nothing.
 *
 * GLib only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "formats/tress-curve-commit.h"
#include "tress-niff.h"

G_BEGIN_DECLS

typedef struct
{
  gboolean has_scale, has_rotation, has_translation;
  double scale[3];
  double rotation[3]; /* Euler XYZ radians */
  double translation[3];
} TressNiffObjectPose;

/* What happened to one component; @action as TressBfresPoseAction
 * (0 unchanged, 1 key moved, 2 key inserted). */
typedef struct
{
  char label[32]; /* "RotateX/X", "Translate/Y", … (the curve's channel and component) */
  guint action;
  gboolean angle;
  double requested, stored;
  int curve;
} TressNiffPoseChange;

/* The curves (the format's curve indices) tress_niff_set_pose reads and
 * writes for AnimGroup @group, per component: translation X Y Z, rotation X
 * Y Z, scale X Y Z; −1 where the group has no keys for it. Where the
 * rotation cannot be set as Euler XYZ angles (a RotateAxis or OrientationXY
 * channel turns the group, or another order) the rotation entries are −1
 * and *@no_rotation (may be NULL) gets the reason (to free). FALSE when
 * there is no AnimGroup @group. What a pose gizmo previews its drag on. */
gboolean tress_niff_pose_curves (TressNiffFile *file, guint group, int curves[9],
                                 char **no_rotation);

/* Sets the local transform AnimGroup @group plays at @frame. @object names
 * the object that links the group, or the group itself (its name); NULL:
 * not checked. @changes (may be NULL) gets a TressNiffPoseChange per
 * component asked for. TRESS_ERROR_BAD_VALUE for what names nothing or lies
 * outside the animation, TRESS_ERROR_UNSUPPORTED for what NIFF or this
 * operation cannot store (no consent lifts it), TRESS_ERROR_REFUSED for
 * what @consent does not cover. */
gboolean tress_niff_set_pose (TressNiffFile *file, guint group, const char *object, double frame,
                              const TressNiffObjectPose *pose, TressCommitConsent consent,
                              GArray *changes, GError **error);

G_END_DECLS
