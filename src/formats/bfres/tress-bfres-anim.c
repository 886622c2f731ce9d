/* tress-bfres-anim.c: what the animation preview reads of FSKA and FVIS
 *
 * FSKA 0x30 (≥ 3.4): magic, name, path, u32 flags, s32 frameCount,
 *   u16 nBoneAnim, u16 nUserData, s32 nCurve, u32 bakedSize, BoneAnim[],
 *   bind skeleton, bind index, user data.
 * BoneAnim 0x18: u32 flags, name, u8 beginRotate, beginTranslate, nCurve,
 *   beginBaseTranslate, s32 beginCurve, curves (contiguous 0x24 headers),
 *   base values (scale[3], rotation[4], translation[3], as the flags say).
 * FVIS 0x34: magic, name, path, u16 flags (bit 8: materials), u16 nUserData,
 *   s32 frameCount, u16 nName, u16 nCurve, u32 bakedSize, bind model, bind
 *   index, names[] (name offsets), curves, base bits u32[], user data.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-bfres-anim.h"

#include <math.h>
#include <string.h>

#include "tress-bfres-read-private.h"

#define FRES_HEADER_SIZE 0x6C
#define FSKA_SIZE 0x30
#define BONE_ANIM_SIZE 0x18
#define FVIS_SIZE 0x34
#define CURVE_SIZE 0x24
#define V3_4 0x03040000u

TressBfresChannel
tress_bfres_channel_from_target (guint32 target)
{
  switch (target)
    {
    case 0x04:
    case 0x08:
    case 0x0C:
      return TRESS_BFRES_CHANNEL_SCALE_X + (target - 0x04) / 4;
    case 0x10:
    case 0x14:
    case 0x18:
      return TRESS_BFRES_CHANNEL_TRANSLATE_X + (target - 0x10) / 4;
    case 0x20:
    case 0x24:
    case 0x28:
    case 0x2C:
      return TRESS_BFRES_CHANNEL_ROTATE_X + (target - 0x20) / 4;
    default:
      return TRESS_BFRES_CHANNEL_NONE;
    }
}

static gboolean
read_curve_refs (BrCtx *ctx, gsize offset_at, guint n, const char *field,
                 TressBfresAnimCurveRef **out, GError **error)
{
  gsize curves = 0;

  *out = g_new0 (TressBfresAnimCurveRef, n + 1);
  if (n == 0)
    return TRUE;
  if (!br_target (ctx, offset_at, field, (gsize)n * CURVE_SIZE, &curves, error))
    return FALSE;
  for (guint k = 0; k < n; k++)
    {
      (*out)[k].header_pos = curves + (gsize)k * CURVE_SIZE;
      (*out)[k].target = br_u32 (ctx, curves + (gsize)k * CURVE_SIZE + 4);
    }
  return TRUE;
}

static gboolean
read_bone_anim (BrCtx *ctx, gsize bp, TressBfresBoneAnim *ba, GError **error)
{
  gsize base = 0;
  guint n_floats = 0, k = 0;

  ba->pos = bp;
  if (!br_string (ctx, bp + 4, "bone animation name", &ba->name, error))
    return FALSE;
  ba->flags = br_u32 (ctx, bp);
  ba->n_curves = br_u8 (ctx, bp + 0x0A);
  ba->scale[0] = ba->scale[1] = ba->scale[2] = 1;
  ba->rotation[3] = 1;
  if (!read_curve_refs (ctx, bp + 0x10, ba->n_curves, "bone animation curves", &ba->curves, error))
    return FALSE;
  n_floats = (ba->flags & TRESS_BFRES_BONE_ANIM_BASE_SCALE ? 3 : 0)
             + (ba->flags & TRESS_BFRES_BONE_ANIM_BASE_ROTATE ? 4 : 0)
             + (ba->flags & TRESS_BFRES_BONE_ANIM_BASE_TRANSLATE ? 3 : 0);
  if (n_floats == 0)
    return TRUE;
  if (!br_target (ctx, bp + 0x14, "bone animation base values", 4 * (gsize)n_floats, &base, error))
    return FALSE;
  for (guint i = 0; i < n_floats; i++)
    if (!isfinite (br_f32 (ctx, base + 4 * i)))
      return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, base + 4 * i, "bone animation base value",
                      "a finite number", "%g (bone \"%s\")", br_f32 (ctx, base + 4 * i), ba->name);
  if (ba->flags & TRESS_BFRES_BONE_ANIM_BASE_SCALE)
    for (guint i = 0; i < 3; i++)
      ba->scale[i] = br_f32 (ctx, base + 4 * k++);
  if (ba->flags & TRESS_BFRES_BONE_ANIM_BASE_ROTATE)
    for (guint i = 0; i < 4; i++)
      ba->rotation[i] = br_f32 (ctx, base + 4 * k++);
  if (ba->flags & TRESS_BFRES_BONE_ANIM_BASE_TRANSLATE)
    for (guint i = 0; i < 3; i++)
      ba->translation[i] = br_f32 (ctx, base + 4 * k++);
  return TRUE;
}

static gboolean
read_fska (BrCtx *ctx, gsize pos, TressBfresSkeletalAnim *a, GError **error)
{
  gsize bones = 0;

  a->pos = pos;
  if (!br_seen (ctx, pos, "FSKA", error) || !br_magic (ctx, pos, "FSKA", "FSKA magic", error)
      || !br_need (ctx, pos, FSKA_SIZE, "FSKA header", error)
      || !br_string (ctx, pos + 4, "FSKA name", &a->name, error))
    return FALSE;
  g_string_printf (ctx->where, "skeletal animation \"%s\": ", a->name);
  a->flags = br_u32 (ctx, pos + 0x0C);
  a->loops = (a->flags >> 2) & 1;
  a->scaling = (a->flags >> 8) & 3;
  a->rotation_mode = (a->flags >> 12) & 7;
  if (a->rotation_mode > TRESS_BFRES_ROTATION_EULER_XYZ)
    return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, pos + 0x0C,
                    "FSKA rotation mode (flags bits 12-14)", "0 (quaternion) or 1 (Euler XYZ)",
                    "%u", a->rotation_mode);
  a->frame_count = (gint32)br_u32 (ctx, pos + 0x10);
  a->n_bone_anims = br_u16 (ctx, pos + 0x14);
  a->bone_anims = g_new0 (TressBfresBoneAnim, a->n_bone_anims + 1);
  if (a->n_bone_anims == 0)
    return TRUE;
  if (!br_target (ctx, pos + 0x20, "FSKA bone animation array",
                  (gsize)a->n_bone_anims * BONE_ANIM_SIZE, &bones, error)
      || !br_seen (ctx, bones, "FSKA bone animation array", error))
    return FALSE;
  for (guint i = 0; i < a->n_bone_anims; i++)
    if (!read_bone_anim (ctx, bones + (gsize)i * BONE_ANIM_SIZE, &a->bone_anims[i], error))
      return FALSE;
  return TRUE;
}

static gboolean
read_fvis (BrCtx *ctx, gsize pos, TressBfresVisibilityAnim *a, GError **error)
{
  gsize names = 0, bits = 0;
  guint n_curves;

  a->pos = pos;
  if (!br_seen (ctx, pos, "FVIS", error) || !br_magic (ctx, pos, "FVIS", "FVIS magic", error)
      || !br_need (ctx, pos, FVIS_SIZE, "FVIS header", error)
      || !br_string (ctx, pos + 4, "FVIS name", &a->name, error))
    return FALSE;
  g_string_printf (ctx->where, "visibility animation \"%s\": ", a->name);
  a->materials = (br_u16 (ctx, pos + 0x0C) >> 8) & 1;
  a->loops = (br_u16 (ctx, pos + 0x0C) >> 2) & 1;
  a->frame_count = (gint32)br_u32 (ctx, pos + 0x10);
  a->n_names = br_u16 (ctx, pos + 0x14);
  n_curves = br_u16 (ctx, pos + 0x16);
  a->names = g_new0 (char *, a->n_names + 1);
  a->base_visible = g_new0 (gboolean, a->n_names + 1);
  if (a->n_names > 0)
    {
      if (!br_target (ctx, pos + 0x24, "FVIS name array", 4 * (gsize)a->n_names, &names, error)
          || !br_target (ctx, pos + 0x2C, "FVIS base values", 4 * (((gsize)a->n_names + 31) / 32),
                         &bits, error))
        return FALSE;
      for (guint i = 0; i < a->n_names; i++)
        {
          if (!br_string (ctx, names + 4 * (gsize)i, "FVIS name", &a->names[i], error))
            return FALSE;
          a->base_visible[i] = (br_u32 (ctx, bits + 4 * (gsize)(i / 32)) >> (i % 32)) & 1;
        }
    }
  if (!read_curve_refs (ctx, pos + 0x28, n_curves, "FVIS curves", &a->curves, error))
    return FALSE;
  a->n_curves = n_curves;
  return TRUE;
}

static gboolean
read_group_entries (BrCtx *ctx, int group, const char *field, char ***names, gsize **entries,
                    guint *n, GError **error)
{
  gsize pos = 0;

  *n = 0;
  if (!br_offset (ctx, 0x20 + 4 * (gsize)group, field, &pos, error))
    return FALSE;
  if (pos == 0)
    return TRUE;
  *n = br_u16 (ctx, 0x50 + 2 * (gsize)group);
  if (!br_group (ctx, pos, field, *n, names, entries, error))
    return FALSE;
  for (guint i = 0; i < *n; i++)
    if ((*entries)[i] == 0)
      return br_fail (ctx, error, TRESS_ERROR_BAD_OFFSET, pos + 8 + 16 * (i + 1) + 12, field,
                      "an animation", "a null entry (\"%s\")", (*names)[i]);
  return TRUE;
}

static gboolean
parse_anims (BrCtx *ctx, TressBfresAnims *anims, GError **error)
{
  g_auto (GStrv) names = NULL, bone_names = NULL, mat_names = NULL;
  g_autofree gsize *entries = NULL, *bone_entries = NULL, *mat_entries = NULL;
  guint n = 0, n_bone = 0, n_mat = 0;

  if (!br_magic (ctx, 0, "FRES", "BFRES magic", error)
      || !br_need (ctx, 0, FRES_HEADER_SIZE, "BFRES header", error))
    return FALSE;
  if (br_u16 (ctx, 8) != 0xFEFF)
    return br_fail (ctx, error, TRESS_ERROR_UNSUPPORTED, 8, "BFRES byte-order mark",
                    "FEFF (a big-endian Wii U file)", "%04X", br_u16 (ctx, 8));
  ctx->version = br_u32 (ctx, 4);
  if (ctx->version < V3_4)
    return br_fail (ctx, error, TRESS_ERROR_UNSUPPORTED, 4, "BFRES version",
                    "3.4 or later for the preview", "%u.%u.%u.%u", ctx->version >> 24,
                    (ctx->version >> 16) & 0xFF, (ctx->version >> 8) & 0xFF, ctx->version & 0xFF);
  if (!read_group_entries (ctx, 2, "skeletal animation index group", &names, &entries, &n, error)
      || !read_group_entries (ctx, 7, "bone visibility index group", &bone_names, &bone_entries,
                              &n_bone, error)
      || !read_group_entries (ctx, 8, "material visibility index group", &mat_names, &mat_entries,
                              &n_mat, error))
    return FALSE;
  anims->skeletal = g_new0 (TressBfresSkeletalAnim, n + 1);
  for (guint i = 0; i < n; i++)
    {
      anims->n_skeletal = i + 1;
      if (!read_fska (ctx, entries[i], &anims->skeletal[i], error))
        return FALSE;
    }
  anims->visibility = g_new0 (TressBfresVisibilityAnim, n_bone + n_mat + 1);
  for (guint i = 0; i < n_bone + n_mat; i++)
    {
      anims->n_visibility = i + 1;
      if (!read_fvis (ctx, i < n_bone ? bone_entries[i] : mat_entries[i - n_bone],
                      &anims->visibility[i], error))
        return FALSE;
    }
  return TRUE;
}

TressBfresAnims *
tress_bfres_anims_parse (const guint8 *data, gsize size, GError **error)
{
  g_autoptr (TressBfresAnims) anims = g_new0 (TressBfresAnims, 1);
  BrCtx ctx;
  gboolean ok;

  br_ctx_init (&ctx, data, size);
  ok = parse_anims (&ctx, anims, error);
  br_ctx_clear (&ctx);
  return ok ? g_steal_pointer (&anims) : NULL;
}

void
tress_bfres_anims_free (TressBfresAnims *anims)
{
  if (anims == NULL)
    return;
  for (guint i = 0; i < anims->n_skeletal; i++)
    {
      TressBfresSkeletalAnim *a = &anims->skeletal[i];

      for (guint k = 0; a->bone_anims != NULL && k < a->n_bone_anims; k++)
        {
          g_free (a->bone_anims[k].name);
          g_free (a->bone_anims[k].curves);
        }
      g_free (a->bone_anims);
      g_free (a->name);
    }
  g_free (anims->skeletal);
  for (guint i = 0; i < anims->n_visibility; i++)
    {
      TressBfresVisibilityAnim *a = &anims->visibility[i];

      g_strfreev (a->names);
      g_free (a->base_visible);
      g_free (a->curves);
      g_free (a->name);
    }
  g_free (anims->visibility);
  g_free (anims);
}
