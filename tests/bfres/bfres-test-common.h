/* bfres-test-common.h: an independent reading of BFRES curves, written from
 * the format page only (not from the parser), for the tests to compare with.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <math.h>
#include <string.h>

#include "formats/bfres/tress-bfres.h"

static inline guint32
ref_u32 (const guint8 *d, gsize pos)
{
  return (guint32)d[pos] << 24 | (guint32)d[pos + 1] << 16 | (guint32)d[pos + 2] << 8 | d[pos + 3];
}

static inline float
ref_f32 (const guint8 *d, gsize pos)
{
  guint32 u = ref_u32 (d, pos);
  float f;
  memcpy (&f, &u, 4);
  return f;
}

typedef struct
{
  guint flags, n, ft, kt, ct;
  double start, end, scale, offset;
  gint32 ioffset;
  const guint8 *frames, *keys;
} RefCurve;

/* Reads the header at @h (0x24 bytes from version 3.4, else 0x20). */
static inline void
ref_curve_read (const guint8 *d, gsize h, gboolean v34, RefCurve *c)
{
  gsize fo = v34 ? 0x1C : 0x18;
  c->flags = (guint)d[h] << 8 | d[h + 1];
  c->n = (guint)d[h + 2] << 8 | d[h + 3];
  c->ft = c->flags & 3;
  c->kt = (c->flags >> 2) & 3;
  c->ct = (c->flags >> 4) & 7;
  c->start = ref_f32 (d, h + 8);
  c->end = ref_f32 (d, h + 12);
  c->scale = ref_f32 (d, h + 16);
  c->offset = ref_f32 (d, h + 20);
  c->ioffset = (gint32)ref_u32 (d, h + 20);
  c->frames = d + h + fo + (gint32)ref_u32 (d, h + fo);
  c->keys = d + h + fo + 4 + (gint32)ref_u32 (d, h + fo + 4);
}

static inline double
ref_frame (const RefCurve *c, guint i)
{
  if (c->ft == 0)
    return ref_f32 (c->frames, 4 * i);
  if (c->ft == 1)
    return (gint16)((guint16)c->frames[2 * i] << 8 | c->frames[2 * i + 1]) / 32.0;
  return c->frames[i];
}

static inline double
ref_elem (const RefCurve *c, guint i)
{
  if (c->ct == 6 || c->ct == 7)
    return (ref_u32 (c->keys, 4 * (i / 32)) >> (i % 32)) & 1;
  if (c->kt == 0)
    return c->ct <= 2 ? (double)ref_f32 (c->keys, 4 * i) : (double)(gint32)ref_u32 (c->keys, 4 * i);
  if (c->kt == 1)
    return (gint16)((guint16)c->keys[2 * i] << 8 | c->keys[2 * i + 1]);
  return (gint8)c->keys[i];
}

/* Value at @f inside [first, last] frame, per the format page. */
static inline double
ref_eval (const RefCurve *c, double f)
{
  guint i = 0, per = c->ct == 0 ? 4 : c->ct == 1 ? 2 : 1;
  double t;

  while (i + 1 < c->n && ref_frame (c, i + 1) <= f)
    i++;
  if (c->ct >= 4 && c->ct <= 5)
    return ref_elem (c, i) + c->ioffset;
  if (c->ct >= 6)
    return ref_elem (c, i);
  if (i + 1 >= c->n)
    return ref_elem (c, i * per) * c->scale + c->offset;
  t = (f - ref_frame (c, i)) / (ref_frame (c, i + 1) - ref_frame (c, i));
  if (c->ct == 0)
    {
      double c0 = ref_elem (c, 4 * i), c1 = ref_elem (c, 4 * i + 1), c2 = ref_elem (c, 4 * i + 2),
             c3 = ref_elem (c, 4 * i + 3);
      return (((c3 * t + c2) * t) * t + (c1 * t + c0)) * c->scale + c->offset;
    }
  if (c->ct == 1)
    return (ref_elem (c, 2 * i + 1) * t + ref_elem (c, 2 * i)) * c->scale + c->offset;
  return (ref_elem (c, i) + (ref_elem (c, i + 1) - ref_elem (c, i)) * t) * c->scale + c->offset;
}

static inline gboolean
bfres_test_is_bool (TressBfresCurveType ct)
{
  return ct == TRESS_BFRES_CURVE_STEP_BOOL || ct == TRESS_BFRES_CURVE_BAKED_BOOL;
}

static inline const char *
bfres_test_path (TressBfres *b, guint index)
{
  TressBfresCurveInfo info;
  return tress_bfres_get_curve_info (b, index, &info) ? info.path : NULL;
}

/* The frames where a curve is checked: every key, and in every segment its
 * middle and 0.37 of the way (a point no symmetry hides). Returns how many
 * were written to @out, which holds 3 × n. */
static inline guint
ref_probe_frames (const RefCurve *c, double *out)
{
  guint m = 0;

  for (guint k = 0; k < c->n; k++)
    {
      double f = ref_frame (c, k);

      out[m++] = f;
      if (k + 1 < c->n)
        {
          double g = ref_frame (c, k + 1);

          out[m++] = (f + g) / 2;
          out[m++] = f + 0.37 * (g - f);
        }
    }
  return m;
}

/* Float precision around @want: what a value read from 32-bit data keeps. */
static inline double
ref_float_precision (double want)
{
  return 2.5e-7 * MAX (1.0, fabs (want));
}

/* Edits "by less than the stored range": key @key of a cubic s8/s16 curve may
 * move by @steps raw steps when every coefficient an edit re-encodes (the key's
 * value, and the Hermite coefficients of the two segments meeting there, which
 * move by 3 and 2 times as much) stays within the key type, with a margin of 3
 * steps for their rounding. Worked out from the raw coefficients alone. */
static inline gboolean
ref_edit_fits (const RefCurve *c, guint key, double steps)
{
  double maxraw = (c->kt == 1 ? 32767 : 127) - 3;
  double seg_before[4], seg_after[4];

  if (c->ct != 0 || c->kt == 0 || key == 0 || key + 1 >= c->n)
    return FALSE;
  for (guint e = 0; e < 4; e++)
    {
      seg_before[e] = ref_elem (c, 4 * (key - 1) + e);
      seg_after[e] = ref_elem (c, 4 * key + e);
    }
  return fabs (seg_after[0] + steps) <= maxraw && fabs (seg_before[2] + 3 * steps) <= maxraw
         && fabs (seg_before[3] - 2 * steps) <= maxraw && fabs (seg_after[2] - 3 * steps) <= maxraw
         && fabs (seg_after[3] + 2 * steps) <= maxraw;
}

/* The key (from the middle outward) and the signed number of steps (±@steps)
 * of an edit of curve @c by less than its stored range, or FALSE. */
static inline gboolean
ref_pick_edit (const RefCurve *c, double steps, guint *key, double *delta)
{
  for (guint d = 0; d < 2 * c->n; d++)
    {
      /* n/2, n/2 − 1, n/2 + 1, n/2 − 2, … */
      int k = (int)c->n / 2 + (d % 2 == 0 ? (int)(d / 2) : -(int)((d + 1) / 2));

      if (k <= 0 || k + 1 >= (int)c->n)
        continue;
      for (int sign = 1; sign >= -1; sign -= 2)
        if (ref_edit_fits (c, (guint)k, sign * steps))
          {
            *key = (guint)k;
            *delta = sign * steps;
            return TRUE;
          }
    }
  return FALSE;
}

/* The checks of such an edit, from the bytes before (@a, header @ha) and after
 * (@b, @hb): same file size, same header (types, scale, offset, delta, arrays
 * where they were), the frames unchanged, every segment that does not start or
 * end at @key byte-identical, and the key's stored value within half a step of
 * @want. */
static inline void
ref_check_local_edit (GBytes *a, gsize ha, GBytes *b, gsize hb, guint key, double want)
{
  gsize la, lb;
  const guint8 *da = g_bytes_get_data (a, &la), *db = g_bytes_get_data (b, &lb);
  RefCurve ca, cb;
  gsize size, keys_at;

  g_assert_cmpuint (lb, ==, la);
  g_assert_cmpuint (hb, ==, ha);
  g_assert_cmpmem (db + hb, 0x24, da + ha, 0x24);
  ref_curve_read (da, ha, TRUE, &ca);
  ref_curve_read (db, hb, TRUE, &cb);
  size = ca.kt == 1 ? 2 : 1;
  g_assert_cmpmem (cb.frames,
                   ca.n
                       * (ca.ft == 0   ? 4
                          : ca.ft == 1 ? 2
                                       : 1),
                   ca.frames,
                   ca.n
                       * (ca.ft == 0   ? 4
                          : ca.ft == 1 ? 2
                                       : 1));
  for (guint s = 0; s < ca.n; s++)
    if (s + 1 != key && s != key)
      g_assert_cmpmem (cb.keys + 4 * size * s, 4 * size, ca.keys + 4 * size * s, 4 * size);
  g_assert_cmpfloat (fabs (ref_elem (&cb, 4 * key) * cb.scale + cb.offset - want), <=,
                     cb.scale / 2 * (1 + 1e-6));
  /* Nothing else in the file changed. */
  keys_at = (gsize)(ca.keys - da);
  for (gsize i = 0; i < la; i++)
    if (da[i] != db[i] && !(i >= keys_at && i < keys_at + 4 * size * ca.n))
      g_error ("byte 0x%" G_GSIZE_MODIFIER "x outside the edited curve's keys changed", i);
}

/* ---- skeletal animations (format page: FSKA ≥ 3.4, BoneAnim) --------------- */

static inline guint16
ref_u16 (const guint8 *d, gsize pos)
{
  return (guint16)(d[pos] << 8 | d[pos + 1]);
}

/* Where the offset field at @field points, 0 for null. */
static inline gsize
ref_target (const guint8 *d, gsize field)
{
  gint32 rel = (gint32)ref_u32 (d, field);

  return rel != 0 ? (gsize)((gint64)field + rel) : 0;
}

/* A name: the characters the offset at @field points to (length before them). */
static inline char *
ref_name (const guint8 *d, gsize field)
{
  gsize at = ref_target (d, field);

  return at != 0 ? g_strndup ((const char *)d + at, ref_u32 (d, at - 4)) : g_strdup ("");
}

typedef struct
{
  guint32 flags;
  gint32 frame_count;
  guint n_bones, n_user_data;
  gint32 n_curves;
  guint32 baked_size;
  gsize bones, bind_skeleton, bind_index, user_data;
} RefFska;

static inline void
ref_fska_read (const guint8 *d, gsize pos, RefFska *f)
{
  g_assert_cmpmem (d + pos, 4, "FSKA", 4);
  f->flags = ref_u32 (d, pos + 0x0C);
  f->frame_count = (gint32)ref_u32 (d, pos + 0x10);
  f->n_bones = ref_u16 (d, pos + 0x14);
  f->n_user_data = ref_u16 (d, pos + 0x16);
  f->n_curves = (gint32)ref_u32 (d, pos + 0x18);
  f->baked_size = ref_u32 (d, pos + 0x1C);
  f->bones = ref_target (d, pos + 0x20);
  f->bind_skeleton = ref_target (d, pos + 0x24);
  f->bind_index = ref_target (d, pos + 0x28);
  f->user_data = ref_target (d, pos + 0x2C);
}

/* Base value slots: scale X Y Z, rotate X Y Z W, translate X Y Z. */
#define REF_BASE_SLOTS 10

typedef struct
{
  gsize pos;
  guint32 flags;
  char *name;
  guint begin_rotate, begin_translate, n_curves, begin_base_translate;
  gint32 begin_curve; /* stored little-endian */
  gsize curves, base;
  float base_values[REF_BASE_SLOTS]; /* NAN where the flags store none */
} RefBoneAnim;

static inline void
ref_bone_anim_read (const guint8 *d, const RefFska *f, guint i, RefBoneAnim *ba)
{
  gsize bp = f->bones + 0x18 * (gsize)i, at;

  ba->pos = bp;
  ba->flags = ref_u32 (d, bp);
  ba->name = ref_name (d, bp + 4);
  ba->begin_rotate = d[bp + 8];
  ba->begin_translate = d[bp + 9];
  ba->n_curves = d[bp + 10];
  ba->begin_base_translate = d[bp + 11];
  ba->begin_curve = (gint32)((guint32)d[bp + 12] | (guint32)d[bp + 13] << 8
                             | (guint32)d[bp + 14] << 16 | (guint32)d[bp + 15] << 24);
  ba->curves = ref_target (d, bp + 0x10);
  ba->base = ref_target (d, bp + 0x14);
  at = ba->base;
  for (guint s = 0; s < REF_BASE_SLOTS; s++)
    {
      guint32 bit = s < 3 ? 1u << 3 : s < 7 ? 1u << 4 : 1u << 5;

      ba->base_values[s] = NAN;
      if (ba->flags & bit)
        {
          ba->base_values[s] = ref_f32 (d, at);
          at += 4;
        }
    }
}

/* The base value slot of bone target offset @target (0x04 … 0x2C). */
static inline guint
ref_base_slot (guint32 target)
{
  return target < 0x10   ? (target - 4) / 4
         : target < 0x20 ? 7 + (target - 0x10) / 4
                         : 3 + (target - 0x20) / 4;
}

/* Like ref_eval, for any frame: outside the keys the curve's pre- and
 * post-wrap apply (clamp, repeat, mirror); the segment is found by halving. */
static inline double
ref_eval_at (const RefCurve *c, double f)
{
  guint lo = 0, hi = c->n - 1, per = c->ct == 0 ? 4 : c->ct == 1 ? 2 : 1;
  double f0 = ref_frame (c, 0), f1 = ref_frame (c, c->n - 1), t;

  if (f1 > f0 && (f < f0 || f > f1))
    {
      guint wrap = f < f0 ? (c->flags >> 8) & 3 : (c->flags >> 12) & 3;
      double len = f1 - f0, k = floor ((f - f0) / len), r = f - f0 - k * len;

      f = wrap == 1 ? f0 + r : wrap == 2 ? (fmod (k, 2) == 0 ? f0 + r : f1 - r) : CLAMP (f, f0, f1);
    }
  f = CLAMP (f, f0, f1);
  while (lo < hi)
    {
      guint mid = (lo + hi + 1) / 2;

      if (ref_frame (c, mid) <= f)
        lo = mid;
      else
        hi = mid - 1;
    }
  if (c->ct > 2)
    return ref_eval (c, f);
  if (lo + 1 >= c->n)
    return ref_elem (c, lo * per) * c->scale + c->offset;
  t = (f - ref_frame (c, lo)) / (ref_frame (c, lo + 1) - ref_frame (c, lo));
  if (c->ct == 0)
    {
      double c0 = ref_elem (c, 4 * lo), c1 = ref_elem (c, 4 * lo + 1),
             c2 = ref_elem (c, 4 * lo + 2), c3 = ref_elem (c, 4 * lo + 3);
      return (((c3 * t + c2) * t) * t + (c1 * t + c0)) * c->scale + c->offset;
    }
  if (c->ct == 1)
    return (ref_elem (c, 2 * lo + 1) * t + ref_elem (c, 2 * lo)) * c->scale + c->offset;
  return (ref_elem (c, lo) + (ref_elem (c, lo + 1) - ref_elem (c, lo)) * t) * c->scale + c->offset;
}

/* What bone animation @ba gives component @target at @frame: its curve's
 * value, else its base value; FALSE when it has neither (the bind pose). */
static inline gboolean
ref_bone_value (const guint8 *d, const RefBoneAnim *ba, guint32 target, double frame, double *out)
{
  float base = ba->base_values[ref_base_slot (target)];

  for (guint k = 0; k < ba->n_curves; k++)
    if (ref_u32 (d, ba->curves + 0x24 * (gsize)k + 4) == target)
      {
        RefCurve c;

        ref_curve_read (d, ba->curves + 0x24 * (gsize)k, TRUE, &c);
        *out = ref_eval_at (&c, frame);
        return TRUE;
      }
  *out = base;
  return !isnan (base);
}

/* The FSKA named @name, through index group 2 (format page), or 0. */
static inline gsize
ref_fska_find (const guint8 *d, const char *name)
{
  gsize group = ref_target (d, 0x20 + 4 * 2);
  guint n = group != 0 ? ref_u32 (d, group + 4) : 0;

  for (guint i = 1; i <= n; i++)
    {
      gsize node = group + 8 + 16 * (gsize)i;
      g_autofree char *entry = ref_name (d, node + 8);

      if (strcmp (entry, name) == 0)
        return ref_target (d, node + 12);
    }
  return 0;
}

/* The string pool: [*start, *end). */
static inline void
ref_pool (const guint8 *d, gsize *start, gsize *end)
{
  *start = ref_target (d, 0x1C);
  *end = *start + ref_u32 (d, 0x18);
}

/* Whether the pool holds @name as an entry (u32 length, bytes, NUL). */
static inline gboolean
ref_pool_has (const guint8 *d, const char *name)
{
  gsize start, end, len = strlen (name);

  ref_pool (d, &start, &end);
  for (gsize at = start; at + 4 + len + 1 <= end; at += 4)
    if (ref_u32 (d, at) == len && memcmp (d + at + 4, name, len) == 0 && d[at + 4 + len] == 0)
      return TRUE;
  return FALSE;
}
