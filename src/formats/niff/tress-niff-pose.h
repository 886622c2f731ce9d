/* tress-niff-pose.h: where every object of a NIFF scene is at a frame
 *
 * Each object's local transform comes from its AnimGroup: the NIFF1 records
 * (STATIC, FULL one per frame, KEY with the file's interpolation) give the
 * rest, and the NIFF2 channels that have keys replace their part of it
 * (RotateAxis, RotateX/Y/Z, OrientationXY, Translation, UniqueScale,
 * ClassicalScale); a channel without keys keeps the rest value. Euler angles
 * turn in the group's anim_rot_mtx_order (XYZ: X first, so R = Z·Y·X), and
 * the local matrix is T·R·S. World matrices compose down the hierarchy
 * (child = parent · local). A UniqueScale is passed to the children along
 * their own axes instead of through the matrix (NIFF2 appendix: the children
 * are scaled, not sheared): their offsets are scaled, their geometry carries
 * the product of the scales; a ClassicalScale (and NIFF1's) stays in the
 * node's matrix. The values come from the same evaluation the
 * curve editor draws; a sampler may supply curve values of its own (a drag
 * in progress).
 *
 * IK chains (ChainRoot → Joint → Joint → Effector) hang below the object
 * that links them: the chain root and the effector follow their AnimGroups
 * (the effector below the second joint's rest), and the two joints are
 * solved so that the chain reaches for the effector in the plane through the
 * first joint, the effector and the first joint's up-vector constraint
 * object. Other constraints and billboards are not applied:
 * tress_niff_pose_not_shown() lists what a file uses of these.
 *
 * Matrices use graphene's row-vector layout (point × matrix).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <graphene.h>

#include "tress-niff-scene.h"

G_BEGIN_DECLS

typedef enum
{
  TRESS_NIFF_ROTATION_EULER,       /* euler[] in @order */
  TRESS_NIFF_ROTATION_AXIS,        /* RotateAxis: @axis, @angle */
  TRESS_NIFF_ROTATION_ORIENTATION, /* OrientationXY: @x_axis, @y_axis */
} TressNiffRotation;

/* A local transform as the AnimGroup gives it at one frame. */
typedef struct
{
  float translate[3];
  TressNiffRotation rotation;
  float euler[3]; /* radians */
  guint32 order;  /* anim_rot_mtx_order; 0x00010203 when the group's is unknown */
  float axis[3];
  float angle;
  float x_axis[3];
  float y_axis[3];
  float scale[3];
  gboolean unique_scale; /* @scale is a UniqueScale */
} TressNiffLocal;

/* Curve values to use instead of the file's: TRUE with *value when the
 * sampler has keys for curve @curve (the format's curve index). */
typedef gboolean (*TressNiffCurveSampler) (gpointer data, guint curve, double frame, double *value);

typedef struct
{
  guint32 n_objects;
  TressNiffLocal *locals;   /* per object (identity without an AnimGroup) */
  graphene_matrix_t *world; /* per object: where its shape is drawn */
  guint32 n_chain_roots, n_joints, n_effectors;
  graphene_matrix_t *chain_roots;
  graphene_matrix_t *joints;
  graphene_matrix_t *effectors;
  double frame; /* of the last evaluation */

  /* private */
  guint32 *order; /* objects, parents first */
  float *carry;   /* 3 per object: the UniqueScale its children inherit */
  gint32 *slots;  /* per AnimGroup and value slot: its curve, or -1 */
  guint n_groups;
  guint32 *ik_parent;       /* per chain root: the object linking it */
  graphene_matrix_t *rigid; /* per object: what its children compose with */
  guint8 *below;            /* scratch of tress_niff_pose_update_object */
} TressNiffPose;

TressNiffPose *tress_niff_pose_new (const TressNiffScene *scene, const TressNiffFile *file);
void tress_niff_pose_free (TressNiffPose *pose);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressNiffPose, tress_niff_pose_free)

/* Poses @scene at @frame of @file's animation (@sampler may be NULL). */
void tress_niff_pose_evaluate (TressNiffPose *pose, const TressNiffScene *scene,
                               const TressNiffFile *file, double frame,
                               TressNiffCurveSampler sampler, gpointer sampler_data);

/* The last evaluation again where only object @object's curves changed (a
 * pose gizmo's drag): its local transform is read again at the same frame,
 * it and the objects below it are composed again and the IK chains solved
 * again; every other object keeps what the last evaluation gave it. Returns
 * the number of objects composed again. */
guint32 tress_niff_pose_update_object (TressNiffPose *pose, const TressNiffScene *scene,
                                       const TressNiffFile *file, guint32 object,
                                       TressNiffCurveSampler sampler, gpointer sampler_data);

/* The local transform AnimGroup @group gives at @frame. */
void tress_niff_pose_group_local (const TressNiffPose *pose, const TressNiffFile *file, guint group,
                                  double frame, TressNiffCurveSampler sampler,
                                  gpointer sampler_data, TressNiffLocal *out);
/* T·R·S of @local (without any inherited UniqueScale). */
void tress_niff_local_matrix (const TressNiffLocal *local, graphene_matrix_t *out);

/* What @file uses that the pose does not show (IK solving, constraints,
 * billboards, morph parts, shape animation, cluster shapes), one line each;
 * empty when everything is shown. */
GPtrArray *tress_niff_pose_not_shown (const TressNiffScene *scene, const TressNiffFile *file);

G_END_DECLS
