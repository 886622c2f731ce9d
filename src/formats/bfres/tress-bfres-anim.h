/* tress-bfres-anim.h: what the animation preview reads of FSKA and FVIS
 *
 * The curve parser (tress-bfres.h) gives every curve; posing a skeleton also
 * needs each bone animation's flags and base values, and each visibility
 * animation's names and base bits. This read-only reader takes them from the
 * FRES bytes, bounded like the model reader, and records where each curve
 * header sits so that curves are matched to the curve parser's by position.
 *
 * GLib only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-bfres-model.h"

G_BEGIN_DECLS

/* BoneAnim flags. */
#define TRESS_BFRES_BONE_ANIM_BASE_SCALE (1u << 3)
#define TRESS_BFRES_BONE_ANIM_BASE_ROTATE (1u << 4)
#define TRESS_BFRES_BONE_ANIM_BASE_TRANSLATE (1u << 5)
#define TRESS_BFRES_BONE_ANIM_SEGMENT_SCALE_COMPENSATE (1u << 23)
/* Hints of bits 24-27, which real files set from the animation's values: no
 * scale curve and the base scale uniform (x = y = z), or its volume one
 * (x·y·z = 1); no rotation curve and the base rotation none; no translation
 * curve and a base translation stored and zero. */
#define TRESS_BFRES_BONE_ANIM_SCALE_UNIFORM (1u << 24)
#define TRESS_BFRES_BONE_ANIM_SCALE_VOLUME_ONE (1u << 25)
#define TRESS_BFRES_BONE_ANIM_ROTATE_ZERO (1u << 26)
#define TRESS_BFRES_BONE_ANIM_TRANSLATE_ZERO (1u << 27)
/* Bits 6-15: a curve for Scale X Y Z, Rotate X Y Z W, Translate X Y Z. */
#define TRESS_BFRES_BONE_ANIM_CURVES (0x3FFu << 6)

/* What a bone curve's target offset animates. */
typedef enum
{
  TRESS_BFRES_CHANNEL_SCALE_X,
  TRESS_BFRES_CHANNEL_SCALE_Y,
  TRESS_BFRES_CHANNEL_SCALE_Z,
  TRESS_BFRES_CHANNEL_TRANSLATE_X,
  TRESS_BFRES_CHANNEL_TRANSLATE_Y,
  TRESS_BFRES_CHANNEL_TRANSLATE_Z,
  TRESS_BFRES_CHANNEL_ROTATE_X,
  TRESS_BFRES_CHANNEL_ROTATE_Y,
  TRESS_BFRES_CHANNEL_ROTATE_Z,
  TRESS_BFRES_CHANNEL_ROTATE_W,
  TRESS_BFRES_N_CHANNELS,
  TRESS_BFRES_CHANNEL_NONE = -1,
} TressBfresChannel;

/* The channel of bone-curve target offset @target (0x04 … 0x2C), or NONE. */
TressBfresChannel tress_bfres_channel_from_target (guint32 target);

typedef struct
{
  guint32 target;
  gsize header_pos; /* the curve header, as TressBfresCurveInfo.header_pos */
} TressBfresAnimCurveRef;

typedef struct
{
  char *name; /* the bone */
  guint32 flags;
  /* Base values present by the flags: scale, rotation (4: Euler XYZ with
   * w, or a quaternion), translation. */
  float scale[3], rotation[4], translation[3];
  guint n_curves;
  TressBfresAnimCurveRef *curves;
  gsize pos;
} TressBfresBoneAnim;

typedef struct
{
  char *name;
  guint32 flags;
  TressBfresScaling scaling;        /* flags bits 8-9 */
  TressBfresRotation rotation_mode; /* flags bits 12-14 */
  gboolean loops;
  gint32 frame_count;
  guint n_bone_anims;
  TressBfresBoneAnim *bone_anims;
  gsize pos;
} TressBfresSkeletalAnim;

typedef struct
{
  char *name;
  gboolean materials; /* FVIS flags bit 8: material visibility, else bones */
  gint32 frame_count;
  gboolean loops;
  guint n_names;
  char **names;           /* the bones or materials (NULL-terminated) */
  gboolean *base_visible; /* per name */
  guint n_curves;
  TressBfresAnimCurveRef *curves; /* target = index into names */
  gsize pos;
} TressBfresVisibilityAnim;

typedef struct
{
  guint n_skeletal;
  TressBfresSkeletalAnim *skeletal;
  guint n_visibility;
  TressBfresVisibilityAnim *visibility; /* bone ones (group 7), then material ones (8) */
} TressBfresAnims;

/* Reads the skeletal (group 2) and visibility (groups 7, 8) animations of
 * the FRES bytes @data, version ≥ 3.4. */
TressBfresAnims *tress_bfres_anims_parse (const guint8 *data, gsize size, GError **error);
void tress_bfres_anims_free (TressBfresAnims *anims);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressBfresAnims, tress_bfres_anims_free)

G_END_DECLS
