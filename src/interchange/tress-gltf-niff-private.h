/* tress-gltf-niff-private.h: what the parts of the NIFF glTF export share
 *
 * tress-gltf-niff.c builds the nodes, the scene and the animation;
 * tress-gltf-niff-mesh.c the meshes, materials and skins.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "formats/niff/tress-niff-animator.h"
#include "tress-gltf-niff.h"

G_BEGIN_DECLS

typedef struct
{
  TressNiffFile *file;
  TressSceneAnimator *animator;
  const TressNiffScene *niff; /* the animator's */
  TressScene *scene;          /* the animator's: node i is glTF node i */
  TressGltfWriter *writer;
  GPtrArray *notes;
  /* Per scene node, its glTF node until it is added to the document. */
  JsonObject **nodes;
  /* Nodes after the scene's (skinned meshes, joints at the origin), in order. */
  GPtrArray *extra_nodes;
  JsonArray *roots; /* the scene's root nodes */
} TressGltfNiffExport;

void tress_gltf_niff_note (TressGltfNiffExport *e, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* {"niff": {…}} as @object's "extras"; returns the inner object. */
JsonObject *tress_gltf_niff_extras (JsonObject *object);
/* The glTF node an extra node will get when it is added now. */
guint tress_gltf_niff_next_extra (TressGltfNiffExport *e);

/* The meshes of every object's shape (on its node), the skinned meshes of
 * the envelopes (on nodes of their own at the root) with their skins, and
 * the materials they use. */
void tress_gltf_niff_add_meshes (TressGltfNiffExport *e);

G_END_DECLS
