/* tress-gltf-bfres.h: a BFRES model and its skeletal animations as glTF 2.0
 *
 * The model is the one the preview shows (tress_bfres_animator_new: the model
 * of the given FRES bytes that best fits the animated bones, its bind pose
 * checked), and the animations are posed by the preview's own code
 * (tress_bfres_animator_pose_srt), so that what the preview shows and what
 * the glTF file plays agree by construction:
 *   - one joint node per bone, in the bone's frame: the node's translation,
 *     rotation and scale are the bone's local bind transform;
 *   - one skin over every bone, its inverse bind matrices the model's inverse
 *     model matrices (the inverse of the bind world matrix for bones without);
 *   - one mesh per shape (its most detailed level), in model space: positions,
 *     normals, texture coordinates, JOINTS_0/WEIGHTS_0 (rigid and unskinned
 *     shapes bound with weight 1 to their bone), a material named after the
 *     BFRES material;
 *   - one animation per skeletal animation: every joint's translation,
 *     rotation (a quaternion, sign-continuous) and scale, LINEAR, sampled at
 *     every whole frame from 0 to the frame count and at every key frame in
 *     between, time = frame / fps.
 * Maya segment scale compensation and Softimage scaling are exact in glTF's
 * TRS while the parent's scale is uniform (the compensation goes into the
 * child's scale); otherwise the nearest transform without shear is written
 * (tress_gltf_bfres_trs) and said. What glTF cannot carry (visibility, shader-parameter, texture
 * animations; curves of bones the model lacks; further levels of detail) is
 * listed in @notes. docs/gltf.md has the whole mapping.
 *
 * Reports to the thread's TressProgress (cancellable). GLib and json-glib
 * only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "formats/bfres/tress-bfres-pose.h"
#include "formats/bfres/tress-bfres.h"
#include "tress-gltf-trs.h"
#include "tress-gltf-writer.h"

G_BEGIN_DECLS

#define TRESS_GLTF_BFRES_DEFAULT_FPS 30.0
/* Bones × samples an export may hold over all its animations (each costs 40
 * bytes of output): an animation that would pass it is left out, and said. */
#define TRESS_GLTF_BFRES_MAX_SAMPLES (1u << 22)

typedef struct
{
  double fps;         /* time = frame / fps; 0: TRESS_GLTF_BFRES_DEFAULT_FPS */
  const guint *anims; /* skeletal animations to export, in the file's numbering
                       * (tress_bfres_get_anim_info); NULL: every one */
  guint n_anims;
} TressGltfBfresOptions;

/* The glTF document of the model in @model_fres (found as the preview finds
 * it: tress_bfres_find_model; @source names it for people) posed by the
 * skeletal animations of @anims. @notes (may be NULL) gets a line (char *)
 * for everything that is not carried. NULL with an error when no model can be
 * read, its bind check fails, an animation named is not a skeletal one, or
 * the work was cancelled. */
TressGltfWriter *tress_gltf_bfres_export (TressBfres *anims, GBytes *model_fres, const char *source,
                                          const TressGltfBfresOptions *options, GPtrArray *notes,
                                          GError **error);

/* The glTF transforms (one per bone) that compose, by glTF's rule (world =
 * parent's world · T · R · S), into the world matrices the BFRES local
 * transforms @srt give under @scaling: the bone's own transforms wherever
 * that is exact. Under a non-uniform parent scale with Maya compensation or
 * Softimage scaling the BFRES world holds a shear glTF cannot: the bone then
 * gets the transform that puts it at its exact position with the nearest
 * axes and scale, and its children are placed from there. Returns how many
 * bones' glTF world matrices differ from the BFRES ones (beyond 1e-6). */
guint tress_gltf_bfres_trs (const TressBfresSkeleton *skeleton, const TressBfresSrt *srt,
                            TressBfresScaling scaling, TressGltfTrs *out);

G_END_DECLS
