/* tress-bfres-pose.h: skeleton poses of BFRES models
 *
 * A bone's local transform is scale, rotation (Euler XYZ radians or a
 * quaternion) and translation: with column vectors L = T · Rz · Ry · Rx · S
 * (the X rotation applies first), or T · R(q) · S. World matrices compose
 * down the hierarchy by the scaling mode:
 *   - standard (and "none"): W = W(parent) · L;
 *   - Maya: a bone with segment scale compensation also undoes its parent's
 *     own scale: W = W(parent) · T · S(parent)⁻¹ · R · S;
 *   - Softimage: scale and rotation accumulate apart (no shear):
 *     S_w = S_w(parent) ∘ S, R_w = R_w(parent) · R,
 *     T_w = T_w(parent) + R_w(parent) · (S_w(parent) ∘ T), W = T_w · R_w · S_w.
 * The bind pose is the skeleton's own transforms; a smooth bone's bind world
 * matrix times its inverse model matrix is the identity (checked on load).
 * A bone animation takes each component from its curve, else from its base
 * values, else from the bind pose.
 *
 * Maths in double precision; results as graphene matrices (row vectors, so
 * the transpose of the column-vector matrices above).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <graphene.h>

#include "tress-bfres-anim.h"
#include "tress-bfres-model.h"

G_BEGIN_DECLS

typedef struct
{
  double scale[3];
  double rotation[4]; /* Euler XYZ radians (w unused) or a quaternion x y z w */
  double translation[3];
  TressBfresRotation rotation_mode;
  gboolean segment_scale_compensate; /* Maya scaling only */
} TressBfresSrt;

/* A column-vector affine matrix: 3 rows of 4. */
typedef struct
{
  double m[3][4];
} TressBfresMatrix;

void tress_bfres_matrix_identity (TressBfresMatrix *out);
/* out = a · b (column vectors: b applies first). @out may be @a or @b. */
void tress_bfres_matrix_multiply (const TressBfresMatrix *a, const TressBfresMatrix *b,
                                  TressBfresMatrix *out);
/* The inverse; FALSE (out = identity) when singular. */
gboolean tress_bfres_matrix_invert (const TressBfresMatrix *a, TressBfresMatrix *out);
/* The same matrix for graphene (row vectors). */
void tress_bfres_matrix_to_graphene (const TressBfresMatrix *a, graphene_matrix_t *out);
/* From a 3×4 row-major f32 matrix as BFRES stores them. */
void tress_bfres_matrix_from_3x4 (const float v[12], TressBfresMatrix *out);

/* The rotation of @srt as a 3×3 matrix in the top left of @out (no translation). */
void tress_bfres_rotation_matrix (const TressBfresSrt *srt, TressBfresMatrix *out);
/* T · R · S. */
void tress_bfres_srt_matrix (const TressBfresSrt *srt, TressBfresMatrix *out);
/* Euler XYZ (radians, X first) → unit quaternion x y z w. */
void tress_bfres_euler_to_quaternion (const double euler[3], double q[4]);

/* The bind transforms of every bone (n_bones SRTs). */
void tress_bfres_bind_srt (const TressBfresSkeleton *skeleton, TressBfresSrt *srt);
/* World matrices (n_bones) of @skeleton with local transforms @srt. */
void tress_bfres_pose_world (const TressBfresSkeleton *skeleton, const TressBfresSrt *srt,
                             TressBfresScaling scaling, TressBfresMatrix *world);
/* The same for bone @top and the bones below it only, the others' matrices
 * in @world kept (all of them again in Softimage scaling, whose bones carry
 * more than their matrices down); @below (n_bones) gets 1 for each bone
 * worked out again, 0 for the others. */
void tress_bfres_pose_world_below (const TressBfresSkeleton *skeleton, const TressBfresSrt *srt,
                                   TressBfresScaling scaling, TressBfresMatrix *world, guint top,
                                   guint8 *below);
/* Whether bone @bone is @top or below it. */
gboolean tress_bfres_bone_is_below (const TressBfresSkeleton *skeleton, guint bone, guint top);

/* Checks every smooth bone: bind world × inverse model matrix = identity
 * within @tolerance (relative to the size of the bind translations; 0: the
 * default 1e-4). Returns a list of TressProblem (errors naming the bone and
 * the inverse matrix's offset), empty when the skeleton is sound. */
GPtrArray *tress_bfres_check_bind (const TressBfresModel *model, double tolerance);

/* The value of curve @ref of bone animation @bone_anim at the frame posed;
 * FALSE to ignore the curve (the component then comes from the base values). */
typedef gboolean (*TressBfresCurveValueFunc) (gpointer user_data, guint bone_anim,
                                              const TressBfresAnimCurveRef *ref, double *value);

/* Local transforms of @skeleton under @anim: @bone_anims maps each of the
 * skeleton's bones to its bone animation (index into anim->bone_anims) or −1.
 * Bones without one keep their bind transform (converted to the animation's
 * rotation mode). */
void tress_bfres_pose_srt (const TressBfresSkeleton *skeleton, const TressBfresSkeletalAnim *anim,
                           const int *bone_anims, TressBfresCurveValueFunc value,
                           gpointer user_data, TressBfresSrt *srt);

G_END_DECLS
