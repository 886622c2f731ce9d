/* tress-gltf-trs.h: glTF node transforms from affine matrices
 *
 * glTF gives each node a translation, a rotation (unit quaternion) and a
 * scale, composed as T · R · S (column vectors), and composes a child's
 * world matrix as parent's world · local. A local matrix with a shear (a
 * rotation under a non-uniform scale) has no such transform: the nearest
 * one keeps the translation, takes the column lengths as scale and the
 * orthogonal matrix nearest to the unit columns as rotation (polar
 * decomposition), so that the shear spreads over the three axes. The
 * format mappings (tress-gltf-bfres-trs.c, tress-gltf-niff.c) use it
 * where their own transforms do not compose by glTF's rule.
 *
 * GLib (and the BFRES pose code's matrices).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "formats/bfres/tress-bfres-pose.h"

G_BEGIN_DECLS

/* A glTF node transform. */
typedef struct
{
  double translation[3];
  double rotation[4]; /* unit quaternion x y z w */
  double scale[3];
} TressGltfTrs;

/* An affine matrix for column vectors (p' = M · p): 3 rows of 4, the
 * translation in the last column; the pose code's own (tress-bfres-pose.h),
 * whose identity, product and inverse these are. */
typedef TressBfresMatrix TressGltfMatrix;

static inline void
tress_gltf_matrix_identity (TressGltfMatrix *out)
{
  tress_bfres_matrix_identity (out);
}

/* out = a · b (@out may be @a or @b). */
static inline void
tress_gltf_matrix_multiply (const TressGltfMatrix *a, const TressGltfMatrix *b,
                            TressGltfMatrix *out)
{
  tress_bfres_matrix_multiply (a, b, out);
}

/* FALSE (and the identity) when @a has no inverse. */
static inline gboolean
tress_gltf_matrix_invert (const TressGltfMatrix *a, TressGltfMatrix *out)
{
  return tress_bfres_matrix_invert (a, out);
}

/* The largest difference of two entries, the translations' relative to
 * @size (the scene's size: 1 for a unit scene). */
double tress_gltf_matrix_distance (const TressGltfMatrix *a, const TressGltfMatrix *b, double size);

/* T · R · S of @trs (the quaternion normalized; a null one is no rotation). */
void tress_gltf_trs_matrix (const TressGltfTrs *trs, TressGltfMatrix *out);
/* The nearest T · R · S to the affine @m (exact when @m has no shear): the
 * scale the column lengths (the first negative when @m mirrors), the
 * rotation the orthogonal matrix nearest to the unit columns. */
void tress_gltf_trs_decompose (const double m[3][4], TressGltfTrs *out);
/* A rotation matrix (the 3×3 top left of @m) as a unit quaternion. */
void tress_gltf_matrix_quaternion (const double m[3][4], double q[4]);

G_END_DECLS
