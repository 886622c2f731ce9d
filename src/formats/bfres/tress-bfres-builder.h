/* tress-bfres-builder.h: creating a valid Wii U BFRES from nothing
 *
 * Used by the tests and by the generated demo file. Index groups get correct
 * trie bits, names go to a sorted string pool, and every curve, frame and key
 * type can be written, in both version families (curve headers of 0x24 bytes
 * from 3.4, 0x20 before). Keys are quantized with the same rule as edits.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-bfres.h"

G_BEGIN_DECLS

typedef enum
{
  TRESS_BFRES_ANIM_SKELETAL = 2,
  TRESS_BFRES_ANIM_SHADER_PARAM = 3,
  TRESS_BFRES_ANIM_COLOUR = 4,
  TRESS_BFRES_ANIM_TEX_SRT = 5,
  TRESS_BFRES_ANIM_TEX_PATTERN = 6,
  TRESS_BFRES_ANIM_BONE_VISIBILITY = 7,
  TRESS_BFRES_ANIM_MAT_VISIBILITY = 8,
} TressBfresAnimKind;

typedef struct
{
  TressBfresCurveType curve_type;
  TressBfresFrameType frame_type;
  TressBfresKeyType key_type;
  /* Skeletal: 0x04…0x2C (Scale/Translate/Rotate). Shader param: component × 4.
   * Texture pattern and visibility: ignored (set from @name). */
  guint32 target_offset;
  /* Texture pattern: the sampler ("_a0"); visibility: the bone or material. */
  const char *name;
  guint n_keys;
  const TressKey *keys; /* frame, value, in_slope, out_slope (interp ignored) */
  TressWrap pre_wrap, post_wrap;
} TressBfresBuilderCurve;

typedef struct _TressBfresBuilder TressBfresBuilder;

/* @version: e.g. 0x03040004 (curve header 0x24) or 0x03030000 (0x20). */
TressBfresBuilder *tress_bfres_builder_new (const char *name, guint32 version);
void tress_bfres_builder_free (TressBfresBuilder *builder);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressBfresBuilder, tress_bfres_builder_free)

void tress_bfres_builder_begin_anim (TressBfresBuilder *builder, TressBfresAnimKind kind,
                                     const char *name, int frame_count, gboolean loops);
/* Skeletal: the bone the next curves animate. */
void tress_bfres_builder_add_bone (TressBfresBuilder *builder, const char *bone);
/* Shader param, colour, tex-SRT and texture pattern: the material of the next curves. */
void tress_bfres_builder_add_material (TressBfresBuilder *builder, const char *material);
/* Shader param, colour, tex-SRT: the parameter of the next curves. */
void tress_bfres_builder_add_param (TressBfresBuilder *builder, const char *param);
/* Texture pattern: a texture the keys index (in order). */
void tress_bfres_builder_add_texture (TressBfresBuilder *builder, const char *texture);
void tress_bfres_builder_add_curve (TressBfresBuilder *builder,
                                    const TressBfresBuilderCurve *curve);

/* The file, or NULL with an error when a curve cannot be encoded. */
GBytes *tress_bfres_builder_finish (TressBfresBuilder *builder, GError **error);

/* The demo: a few bones waving with cubic curves, a bone visibility and a
 * texture-pattern animation. */
GBytes *tress_bfres_build_demo (GError **error);

G_END_DECLS
