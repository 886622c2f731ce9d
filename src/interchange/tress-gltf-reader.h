/* tress-gltf-reader.h: glTF 2.0 files read into a bounded document model
 *
 * What an import of animations needs from a .glb or .gltf: nodes (TRS or a
 * matrix, children: a forest, checked), skins (joints, inverse bind
 * matrices) and animations (channels; samplers LINEAR, STEP and CUBICSPLINE
 * with their keys decoded), with the accessors, buffer views and buffers
 * they read. Buffers come from the GLB's BIN chunk, from base64 `data:` URIs
 * or from files beside the .gltf named by relative URIs.
 *
 * Nothing is trusted: every index is checked against the array it names,
 * every accessor against its view (byteOffset, byteStride, count × element
 * size) and every view against its buffer; sparse accessors are read (their
 * indices strictly increasing and in range); key times must be finite and
 * strictly increasing. The values decoded are bounded by the bytes read
 * (TRESS_GLTF_READ_BUDGET), the JSON's nesting by TRESS_GLTF_MAX_DEPTH. A
 * refusal names the JSON path of the value (`animations[2].samplers[0].input:
 * expected …, found …`) or the byte offset in the GLB.
 *
 * Pose evaluation follows the specification: LINEAR interpolates (rotations
 * spherically), STEP holds, CUBICSPLINE is a Hermite spline whose tangents
 * are scaled by the key interval; rotations are normalized; before the first
 * key the first value holds, after the last the last.
 *
 * GLib, GIO and json-glib only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "formats/bfres/tress-bfres-pose.h"

G_BEGIN_DECLS

/* JSON deeper than this is refused before it is parsed. */
#define TRESS_GLTF_MAX_DEPTH 64
/* Values decoded from accessors, over the whole document, may not pass
 * 2 × the bytes read (file and buffers) + this: a file cannot make the
 * reader allocate more than a small multiple of its size. */
#define TRESS_GLTF_READ_BUDGET ((gsize)1 << 20)

typedef enum
{
  TRESS_GLTF_TARGET_TRANSLATION,
  TRESS_GLTF_TARGET_ROTATION,
  TRESS_GLTF_TARGET_SCALE,
  TRESS_GLTF_TARGET_WEIGHTS, /* morph target weights: not decoded */
  TRESS_GLTF_TARGET_OTHER,   /* a path of an extension: not decoded */
} TressGltfTarget;

typedef enum
{
  TRESS_GLTF_INTERP_LINEAR,
  TRESS_GLTF_INTERP_STEP,
  TRESS_GLTF_INTERP_CUBICSPLINE,
} TressGltfInterpolation;

typedef struct
{
  char *name; /* NULL when unnamed */
  gboolean has_matrix;
  TressBfresMatrix matrix; /* the node's matrix, or T · R · S */
  double translation[3];
  double rotation[4]; /* x y z w, normalized */
  double scale[3];
  guint n_children;
  guint *children;
  int parent; /* −1: a root */
} TressGltfNode;

typedef struct
{
  char *name;
  guint n_joints;
  guint *joints; /* node indices, each once */
  /* Per joint, the inverse bind matrix (the identity where the skin has
   * none, as glTF says). */
  TressBfresMatrix *inverse_bind;
  int skeleton; /* a node, or −1 */
} TressGltfSkin;

typedef struct
{
  TressGltfInterpolation interpolation;
  guint input, output; /* accessor indices */
  gboolean decoded;    /* FALSE for samplers only weights or extensions use */
  guint n_keys;
  const double *times; /* n_keys, finite, strictly increasing */
  guint n_components;  /* of one value: 3, or 4 for rotations */
  /* n_keys values; CUBICSPLINE: n_keys × (in-tangent, value, out-tangent). */
  const double *values;
} TressGltfSampler;

typedef struct
{
  guint sampler;
  int node; /* −1 when the channel names none */
  TressGltfTarget target;
} TressGltfChannel;

typedef struct
{
  char *name; /* NULL when unnamed */
  guint n_channels;
  TressGltfChannel *channels;
  guint n_samplers;
  TressGltfSampler *samplers;
} TressGltfAnimation;

typedef struct _TressGltfDocument TressGltfDocument;
struct _TressGltfDocument
{
  guint n_nodes;
  TressGltfNode *nodes;
  guint n_skins;
  TressGltfSkin *skins;
  guint n_animations;
  TressGltfAnimation *animations;
  char *generator; /* asset.generator, or NULL */
  gpointer priv;
};

/* Reads a GLB (by its magic) or a .gltf JSON text. @base (may be NULL) is
 * the file the bytes came from: buffers named by relative URIs are read
 * beside it (a URI with a scheme other than data:, an absolute path or one
 * leaving the file's folder is refused); without @base only GLB and data:
 * buffers can be read. NULL with an error naming the JSON path or the byte
 * offset. */
TressGltfDocument *tress_gltf_document_new (GBytes *bytes, GFile *base, GError **error);
/* Loads @file (a regular file of at most TRESS_FILE_MAX_SIZE bytes) and reads it. */
TressGltfDocument *tress_gltf_document_new_for_file (GFile *file, GError **error);
void tress_gltf_document_free (TressGltfDocument *doc);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressGltfDocument, tress_gltf_document_free)

/* The animation named @name, or −1. */
int tress_gltf_document_find_animation (const TressGltfDocument *doc, const char *name);
/* The last key time over the channels of @anim that move nodes
 * (translation, rotation, scale); 0 when there is none. */
double tress_gltf_animation_get_end (const TressGltfAnimation *anim);
/* The rate @anim's node channels were sampled at: R (frames a second) when
 * every key of those channels falls on a whole multiple of 1/R, R taken from
 * the shortest step between keys; 0 when they do not, or hold one key each. */
double tress_gltf_animation_get_sample_rate (const TressGltfAnimation *anim);

/* The value of @sampler at time @t (seconds) for @target (rotations: a unit
 * quaternion x y z w), into @out (3 or 4 doubles). */
void tress_gltf_sampler_evaluate (const TressGltfSampler *sampler, TressGltfTarget target, double t,
                                  double *out);

/* Every node's world matrix at time @t of animation @anim (−1: the nodes as
 * they stand), into @world (n_nodes). @needed (may be NULL): only nodes
 * marked non-zero and their ancestors are computed. */
void tress_gltf_document_pose (const TressGltfDocument *doc, int anim, double t,
                               const guint8 *needed, TressBfresMatrix *world);

G_END_DECLS
