/* tress-gltf-bfres-private.h: what the parts of the BFRES glTF export share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "formats/bfres/tress-bfres-scene.h"
#include "tress-gltf-bfres.h"

G_BEGIN_DECLS

typedef struct
{
  TressBfres *bfres;
  TressSceneAnimator *animator;
  const TressBfresModel *model;
  const TressBfresAnims *anims;
  TressGltfWriter *writer;
  GPtrArray *notes;
  double fps;
  TressBfresMatrix *bind_world; /* per bone */
  int *material;                /* BFRES material → glTF material, or −1 */
  guint64 samples_left;         /* of TRESS_GLTF_BFRES_MAX_SAMPLES */
} Export;

/* A curve's value at @frame, for the animator (@data: the TressBfres). */
double tress_gltf_bfres_sample_curve (gpointer data, guint curve, double frame);

/* The frames to sample skeletal animation @k at (double, sorted): every whole
 * frame from 0 to @frame_count, the key frames of its curves in between, and
 * frames between those where glTF's interpolation would stray from the
 * curves; none of two on the same float time. */
GArray *tress_gltf_bfres_sample_frames (Export *e, guint k, double frame_count);

G_END_DECLS
