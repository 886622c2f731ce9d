/* tress-gltf-niff.h: a NIFF scene and its animation as glTF 2.0
 *
 * The scene is the one the preview shows (tress_niff_animator_new), and the
 * animation is posed by the preview's own code (tress_scene_animator_pose on
 * that animator), so that what the preview shows and what the glTF file
 * plays agree by construction:
 *   - one node per object of the scene, then one per IK node (chain roots,
 *     joints, effectors), in the animator's order and hierarchy: its
 *     translation, rotation and scale carry its parent's glTF world matrix
 *     to the object's world matrix in the preview at frame 0 (the NIFF local
 *     transforms themselves wherever they compose by glTF's rule);
 *   - one mesh per shape, on its object's node: one primitive per material,
 *     positions, normals (smooth materials), texture coordinates, COLOR_0
 *     (what the material makes of the vertex and triangle colours);
 *   - an envelope shape as a skinned mesh on a node of its own at the root:
 *     joints the nodes that move it, inverse bind matrices from the pose at
 *     frame 0 it is bound in, up to four weights per vertex summing to 1;
 *   - materials named after the file's, in the colours the preview draws;
 *   - one animation: the AnimGroups play together, as in the preview, each
 *     node sampled at every whole frame from 0 to the last key (NIFF keys
 *     are whole frames), time = frame / fps, LINEAR, rotations as
 *     sign-continuous quaternions. AnimGroups left out of @options hold
 *     their frame-0 transform. With @options->split, one animation per
 *     AnimGroup instead, named after it, holding its nodes' channels of
 *     the same samples, from frame 0 to its frame count (on to where its
 *     nodes stop moving, for IK joints that follow another AnimGroup's
 *     effector); nodes that move though no AnimGroup animated holds them
 *     go into one more animation, named after the scene.
 * What glTF cannot carry (cameras' lenses, lights, textures, constraints
 * the preview does not apply, shape animation, IK as such …) is listed in
 * @notes. docs/gltf.md has the whole mapping.
 *
 * Reports to the thread's TressProgress (cancellable). GLib and json-glib
 * only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "formats/niff/tress-niff.h"
#include "tress-gltf-writer.h"

G_BEGIN_DECLS

#define TRESS_GLTF_NIFF_DEFAULT_FPS 30.0
/* Nodes × samples an export may hold (each costs 40 bytes of output): an
 * animation that would pass it is left out, and said. */
#define TRESS_GLTF_NIFF_MAX_SAMPLES (1u << 22)

typedef struct
{
  double fps;         /* time = frame / fps; 0: the file's rate where it gives one (an
                       * AnimGroup frame rate of 10 or more, as the preview takes it),
                       * else TRESS_GLTF_NIFF_DEFAULT_FPS */
  const guint *anims; /* AnimGroups to animate, in the file's numbering; NULL: every one */
  guint n_anims;
  gboolean split; /* one animation per AnimGroup animated, of its nodes; else one of them all */
} TressGltfNiffOptions;

/* The glTF document of @file's scene and its animation (@source names the
 * file for people). @notes (may be NULL) gets a line (char *) for
 * everything that is not carried. NULL with an error when the scene cannot
 * be read, an AnimGroup named does not exist, or the work was cancelled. */
TressGltfWriter *tress_gltf_niff_export (TressNiffFile *file, const char *source,
                                         const TressGltfNiffOptions *options, GPtrArray *notes,
                                         GError **error);

G_END_DECLS
