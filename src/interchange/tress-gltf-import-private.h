/* tress-gltf-import-private.h: the maths of the glTF import
 *
 * tress-gltf-import.c sets an import up (the model, the joints matched to
 * its bones); tress-gltf-import-build.c samples one animation and makes its
 * bone animations; tress-gltf-import-solve.c: a bone's local transform from the model-space
 * matrix it must reach, under each BFRES scaling mode, composed back the
 * way the pose code composes it; Euler angles nearest the previous ones;
 * one component's samples made a base value or a curve.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "core/tress-curve.h"
#include "formats/bfres/tress-bfres-pose.h"
#include "formats/tress-scene.h"
#include "tress-gltf-import.h"

G_BEGIN_DECLS

struct _TressGltfImport
{
  TressBfres *bfres;
  const TressGltfDocument *doc;
  TressSceneAnimator *animator;
  const TressBfresModel *model;
  const TressBfresAnims *anims;
  double fps, tolerance;
  char *skin_label;
  GPtrArray *unmatched_joints;
  int *joint;                   /* per bone: its joint's node, or −1 */
  TressBfresMatrix *ibm;        /* per bone: its joint's inverse bind matrix */
  TressBfresMatrix *bind_world; /* per bone */
  guint *order;                 /* the bones, each after its parent */
  guint8 *needed;               /* per node: posed for the joints */
  guint n_needed;
  double size;
  GHashTable *curve_at; /* curve header position → file curve index + 1 */
};

/* tress_bfres_evaluate for the animator (@data: the TressBfres). */
double import_sample_curve (gpointer data, guint curve, double frame);
/* The parent the pose code composes bone @b under, or −1. */
int import_parent_of (TressGltfImport *imp, guint b);
/* Sets @out's tolerances and store tolerance (the defaults or the option). */
void import_tolerances (TressGltfImport *imp, TressGltfImportAnim *out);
/* The tolerance of channel @c in @out's rotation mode; @given: the option set it. */
double import_channel_tolerance (const TressGltfImportAnim *out, guint c, gboolean given);

/* The accumulated state of a posed bone the children need. */
typedef struct
{
  TressBfresMatrix world;
  TressBfresMatrix rotation; /* Softimage: the accumulated rotation (3×3) */
  double scale[3];           /* Softimage: the accumulated scale */
} ImportPosed;

/* Local transform @srt (its rotation_mode and segment_scale_compensate set
 * by the caller; rotation written as a unit quaternion in @q) that puts the
 * bone at @target under @scaling, below @parent (NULL: a root) whose own
 * local transform is @parent_srt. */
void import_solve_local (const TressBfresMatrix *target, TressBfresScaling scaling,
                         const ImportPosed *parent, const TressBfresSrt *parent_srt,
                         TressBfresSrt *srt, double q[4]);
/* The bone's posed state from its local @srt, as tress_bfres_pose_world
 * composes it. */
void import_compose (TressBfresScaling scaling, const ImportPosed *parent,
                     const TressBfresSrt *parent_srt, const TressBfresSrt *srt, ImportPosed *out);

/* Euler XYZ angles (R = Rz·Ry·Rx) of the rotation @q (unit quaternion),
 * the solution nearest @previous, each angle within π of it. */
void import_euler_near (const double q[4], const double previous[3], double out[3]);

/* Largest distance between translations and largest angle (radians)
 * between the rotations (scale taken out) of @a and @b. */
void import_matrix_error (const TressBfresMatrix *a, const TressBfresMatrix *b, double *position,
                          double *angle);

/* What import_matrix_error needs of its @b: the translation and the
 * rotation (scale taken out), worked out once for several comparisons. */
typedef struct
{
  double translation[3], rotation[4];
} ImportPlacement;

void import_placement (const TressBfresMatrix *m, ImportPlacement *out);

/* import_matrix_error against @b's placement: the same numbers. */
void import_placement_error (const TressBfresMatrix *a, const ImportPlacement *b, double *position,
                             double *angle);

/* What one component becomes. */
typedef enum
{
  IMPORT_BASE,  /* a base value, no curve */
  IMPORT_KEPT,  /* the original curve, which still fits */
  IMPORT_CURVE, /* a new curve */
} ImportOutcome;

/* @samples (n, frames 0 … n − 1) as a base value (*base), the @original
 * curve (may be NULL; kept where every sample lies within @tolerance of it
 * and it ends by the last frame) or a Hermite curve fitted within half of
 * @tolerance (*curve, new). @original_base: the value the component has
 * without a curve before the import, used when it still fits. */
ImportOutcome import_component (const double *samples, guint n, double tolerance,
                                const TressCurve *original, double original_base, double *base,
                                TressCurve **curve);

G_END_DECLS
