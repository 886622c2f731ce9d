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

/* Models (index group 0): a skeleton of Euler XYZ bones with standard
 * scaling, each bone its own smooth matrix (inverse model matrices computed
 * from the bind pose), and shapes of one level of detail with their own
 * vertex buffer: positions (32_32_32_Single), normals (10_10_10_2_SNorm),
 * skinning indices and weights (8_8_8_8_UInt / _UNorm) and u16 or u32
 * triangle indices. */
typedef struct
{
  const char *name;
  int parent; /* an earlier bone, or −1 */
  float scale[3];
  float rotation[3]; /* Euler XYZ radians */
  float translation[3];
} TressBfresBuilderBone;

typedef struct
{
  const char *name;
  guint material; /* index into the model's materials */
  guint n_vertices;
  /* 3 per vertex: in model space when smoothly skinned (2-4), else in the
   * space of the bone the vertex follows, as BFRES stores them. */
  const float *positions;
  const float *normals; /* 3 per vertex, or NULL */
  /* 0: the whole shape follows @bone; 1: each vertex follows one bone
   * (rigid skinning); 2-4: smooth skinning with that many influences per
   * vertex (bone indices, weights summing to 1). */
  guint skin_count;
  guint bone;
  const guint8 *skin_bones;  /* skin_count per vertex */
  const float *skin_weights; /* skin_count per vertex */
  guint n_triangles;
  const guint32 *triangles; /* 3 per triangle */
} TressBfresBuilderShape;

void tress_bfres_builder_begin_model (TressBfresBuilder *builder, const char *name);
void tress_bfres_builder_add_model_bone (TressBfresBuilder *builder,
                                         const TressBfresBuilderBone *bone);
/* Materials are names only (a shape refers to one by index). */
void tress_bfres_builder_add_model_material (TressBfresBuilder *builder, const char *name);
void tress_bfres_builder_add_shape (TressBfresBuilder *builder,
                                    const TressBfresBuilderShape *shape);

/* A model for benchmarks and tests: a chain-and-branches skeleton of
 * @n_bones bones and one skinned shape (a tube around the bones, four
 * influences per vertex) of about @n_vertices vertices. */
void tress_bfres_builder_add_test_model (TressBfresBuilder *builder, const char *name,
                                         guint n_bones, guint n_vertices);

/* @n_anims skeletal animations ("Anim_000", …) of @n_frames frames (a
 * multiple of 4) for the bones of tress_bfres_builder_add_test_model's
 * skeleton of @n_bones: each turns every bone about Z and X with its own
 * cubic waves (two curves of five keys per bone). */
void tress_bfres_builder_add_test_anims (TressBfresBuilder *builder, guint n_bones, guint n_anims,
                                         int n_frames);

/* A file (version 4.5) holding tress_bfres_builder_add_test_model's model
 * "Creature" (none when @n_vertices is 0) and tress_bfres_builder_add_test_anims'
 * animations: what benchmarks and tests of big files read (tress-cli
 * generate-demo bfres --bones N …). */
GBytes *tress_bfres_build_test_file (guint n_bones, guint n_vertices, guint n_anims, int n_frames,
                                     GError **error);

/* A file of skeletal animations and nothing else, made of @n_curves short
 * curves of @min_keys to @max_keys keys each (2 ≤ min ≤ max ≤
 * TRESS_BFRES_MANY_MAX_KEYS), cubic and linear, f32 and quantized, as in the
 * animation files of games' many characters (benchmarks). Always the same
 * file for the same arguments. */
#define TRESS_BFRES_MANY_MAX_KEYS 31
GBytes *tress_bfres_build_many_curves_file (guint n_curves, guint min_keys, guint max_keys,
                                            GError **error);

/* The file, or NULL with an error when a curve cannot be encoded. */
GBytes *tress_bfres_builder_finish (TressBfresBuilder *builder, GError **error);

/* The demo (tress-bfres-demo.c): a small figure skinned to the bones its
 * "Wave" animation moves with cubic curves (Root, Arm_L, Arm_R, Head), a bone
 * visibility animation of its eyes ("Blink") and a texture-pattern animation
 * ("Eyes"). */
GBytes *tress_bfres_build_demo (GError **error);

G_END_DECLS
