/* gltf-niff-compare.h: the NIFF glTF tests' view of the preview and of the file
 *
 * The preview: an animator the test builds from the NIFF file, posed through
 * the curves as the preview samples them (tress_curve_evaluate of the
 * format's curves). The file: glTF read back with gltf-test-reader.c, its
 * animation's tracks, every node's world matrix at a sample by glTF's rule,
 * and its meshes' triangle corners with the colour glTF draws them in.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "formats/niff/tress-niff-animator.h"
#include "gltf-test-reader.h"
#include "interchange/tress-gltf-niff.h"

G_BEGIN_DECLS

typedef struct
{
  TressNiffFile *file;
  TressSceneAnimator *animator;
  TressCurve **curves;
  guint n_curves;
} Preview;

void preview_init (Preview *p, TressNiffFile *file, const char *source);
void preview_clear (Preview *p);
/* The preview at @frame of the whole scene's animation. */
void preview_pose (Preview *p, double frame);
/* graphene's row-vector matrix as a column-vector M4. */
void m4_from_graphene (const graphene_matrix_t *g, M4 *out);

/* One channel of the file's animation. */
typedef struct
{
  guint node;
  guint path; /* 0 translation, 1 rotation, 2 scale */
  double *out;
} Track;

/* Every channel of @anim (LINEAR, one input), and its times in *times. */
GArray *tracks_of (Gltf *g, JsonObject *anim, double **times, guint *n_times);
void tracks_free (GArray *tracks);
/* Every node's glTF world matrix at sample @i of @tracks (−1: the nodes' own transforms). */
void worlds_at (Gltf *g, GArray *tracks, int i, M4 *world);
/* Raises *position and *axes to how far @a is from @b: positions relative
 * to @size, axes to their own length. */
void distance (const M4 *a, const M4 *b, double size, double *position, double *axes);

/* One triangle corner, as the preview draws it or as the file holds it. */
typedef struct
{
  float pos[3];
  int rgb[3]; /* 0…255 */
  gboolean has_nrm;
  float nrm[3];
  guint id; /* where it came from: the preview's vertex, or primitive << 24 | vertex */
} Corner;

/* The preview's triangle corners of the meshes following node @node (−1: the skinned ones). */
GArray *preview_corners (TressScene *scene, int node);
/* The triangle corners of glTF mesh @mesh, coloured baseColorFactor × COLOR_0. */
GArray *file_corners (Gltf *g, guint mesh);
/* The same triangles in some order (both arrays sorted alike): positions,
 * colours within a step of 255, normals where the preview has them. */
void assert_same_triangles (GArray *file_tris, GArray *preview_tris);

/* Whether the note about nodes placed with the nearest axes names @name. */
gboolean approximated (GPtrArray *notes, const char *name);
/* Whether a note of @notes holds @words. */
gboolean has_note (GPtrArray *notes, const char *words);

/* @file exported with @options (may be NULL), as GLB. */
GBytes *export_glb (TressNiffFile *file, const TressGltfNiffOptions *options, GPtrArray *notes);
/* @o's extras.niff. */
JsonObject *niff_extras (JsonObject *o);
/* The node named @name (the test fails when there is none). */
guint find_node (Gltf *g, const char *name);

G_END_DECLS
