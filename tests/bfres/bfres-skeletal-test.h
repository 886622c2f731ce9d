/* bfres-skeletal-test.h: what the tests of rewriting skeletal animations share:
 * requests made from a file's own bone animations, and the check of a
 * rewritten file against its request, read with the independent decoder of
 * bfres-test-common.h (the format page), not the writer's reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "bfres-test-common.h"
#include "formats/bfres/tress-bfres-anim.h"
#include "formats/bfres/tress-bfres-model.h"
#include "formats/bfres/tress-bfres-skeletal.h"
#include "formats/tress-problem.h"
#include "tress-test-utils.h"

/* Target offset of each component (TressBfresChannel order). */
static const guint32 skt_target[TRESS_BFRES_N_CHANNELS]
    = { 0x04, 0x08, 0x0C, 0x10, 0x14, 0x18, 0x20, 0x24, 0x28, 0x2C };
/* The components in the order of the BoneAnim curve bits 6 … 15. */
static const TressBfresChannel skt_slot[10] = { 0, 1, 2, 6, 7, 8, 9, 3, 4, 5 };
static const char *const skt_label[TRESS_BFRES_N_CHANNELS]
    = { "Scale X",     "Scale Y",  "Scale Z",  "Translate X", "Translate Y",
        "Translate Z", "Rotate X", "Rotate Y", "Rotate Z",    "Rotate W" };

/* 0 scale, 1 rotation, 2 translation (as the flags order them). */
static inline guint
skt_group (guint32 target)
{
  return target < 0x10 ? 0 : target < 0x20 ? 2 : 1;
}

typedef struct
{
  GArray *bones;     /* TressBfresBoneAnimSpec */
  GPtrArray *curves; /* the TressCurves the bones hold */
  GPtrArray *names;  /* the names they hold */
  int frame_count;
  guint anim;      /* the file's numbering */
  char *anim_name; /* to find it again by */
  gboolean euler;
} Spec;

static inline void
spec_free (Spec *s)
{
  g_array_unref (s->bones);
  g_ptr_array_unref (s->curves);
  g_ptr_array_unref (s->names);
  g_free (s->anim_name);
  g_free (s);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Spec, spec_free)

static inline TressBfresBoneAnimSpec *
spec_bone (Spec *s, guint i)
{
  return &g_array_index (s->bones, TressBfresBoneAnimSpec, i);
}

/* Adds a bone named @name (a copy) with scale 1 and nothing else. */
static inline TressBfresBoneAnimSpec *
spec_add_bone (Spec *s, guint at, const char *name)
{
  TressBfresBoneAnimSpec bone = { 0 };
  char *copy = g_strdup (name);

  g_ptr_array_add (s->names, copy);
  bone.bone = copy;
  bone.base[TRESS_BFRES_CHANNEL_SCALE_X] = bone.base[TRESS_BFRES_CHANNEL_SCALE_Y]
      = bone.base[TRESS_BFRES_CHANNEL_SCALE_Z] = 1;
  bone.base[TRESS_BFRES_CHANNEL_ROTATE_W] = 1;
  g_array_insert_val (s->bones, at, bone);
  return spec_bone (s, at);
}

/* Sets (or with NULL removes) a component's curve; the request keeps @curve. */
static inline void
spec_set_curve (Spec *s, TressBfresBoneAnimSpec *bone, TressBfresChannel ch, TressCurve *curve)
{
  if (curve != NULL)
    g_ptr_array_add (s->curves, curve);
  bone->curves[ch] = curve;
}

static inline int
spec_find_bone (Spec *s, const char *name)
{
  for (guint i = 0; i < s->bones->len; i++)
    if (strcmp (spec_bone (s, i)->bone, name) == 0)
      return (int)i;
  return -1;
}

/* Skeletal animation @anim of @b, as the file holds it: its bones with their
 * base values and curves (from the curve model), its frame count. */
static inline Spec *
spec_from_file (TressBfres *b, guint anim)
{
  Spec *s = g_new0 (Spec, 1);
  TressBfresAnimInfo info;
  g_autoptr (GBytes) bytes = tress_bfres_get_bfres_bytes (b);
  gsize size;
  const guint8 *d = g_bytes_get_data (bytes, &size);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressBfresAnims) anims = tress_bfres_anims_parse (d, size, &error);
  const TressBfresSkeletalAnim *a = NULL;
  guint k = 0;

  g_assert_no_error (error);
  g_assert_true (tress_bfres_get_anim_info (b, anim, &info));
  g_assert_cmpstr (info.kind, ==, "Skeletal");
  /* Skeletal animations come first in the file's numbering (group 2). */
  for (guint i = 0; i < anim; i++)
    {
      TressBfresAnimInfo other;

      tress_bfres_get_anim_info (b, i, &other);
      k += strcmp (other.kind, "Skeletal") == 0;
    }
  a = &anims->skeletal[k];
  g_assert_cmpstr (a->name, ==, info.name);
  s->bones = g_array_new (FALSE, TRUE, sizeof (TressBfresBoneAnimSpec));
  s->curves = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_curve_unref);
  s->names = g_ptr_array_new_with_free_func (g_free);
  s->frame_count = info.frame_count;
  s->anim = anim;
  s->anim_name = g_strdup (info.name);
  s->euler = a->rotation_mode == TRESS_BFRES_ROTATION_EULER_XYZ;
  for (guint i = 0; i < a->n_bone_anims; i++)
    {
      const TressBfresBoneAnim *ba = &a->bone_anims[i];
      TressBfresBoneAnimSpec *bone = spec_add_bone (s, i, ba->name);

      for (guint c = 0; c < 3; c++)
        {
          bone->base[TRESS_BFRES_CHANNEL_SCALE_X + c] = ba->scale[c];
          bone->base[TRESS_BFRES_CHANNEL_TRANSLATE_X + c] = ba->translation[c];
        }
      for (guint c = 0; c < 4; c++)
        bone->base[TRESS_BFRES_CHANNEL_ROTATE_X + c] = ba->rotation[c];
      bone->bind_translation = !(ba->flags & TRESS_BFRES_BONE_ANIM_BASE_TRANSLATE);
      for (guint c = 0; c < ba->n_curves; c++)
        for (guint j = info.first_curve; j < info.first_curve + info.n_curves; j++)
          {
            TressBfresCurveInfo ci;

            tress_bfres_get_curve_info (b, j, &ci);
            if (ci.header_pos == ba->curves[c].header_pos)
              spec_set_curve (s, bone, tress_bfres_channel_from_target (ba->curves[c].target),
                              tress_format_bfres.curves->get_curve (b, j));
          }
    }
  return s;
}

/* Index of the skeletal animation named @name in @b's numbering. */
static inline guint
skt_anim_index (TressBfres *b, const char *name)
{
  for (guint i = 0; i < tress_bfres_get_n_anims (b); i++)
    {
      TressBfresAnimInfo info;

      tress_bfres_get_anim_info (b, i, &info);
      if (strcmp (info.kind, "Skeletal") == 0 && strcmp (info.name, name) == 0)
        return i;
    }
  g_assert_not_reached ();
  return 0;
}

/* The bone animations of the FSKA at @fska (names to free). */
static inline RefBoneAnim *
skt_read_bones (const guint8 *d, gsize fska, RefFska *f)
{
  RefBoneAnim *bones;

  ref_fska_read (d, fska, f);
  bones = g_new0 (RefBoneAnim, f->n_bones + 1);
  for (guint i = 0; i < f->n_bones; i++)
    ref_bone_anim_read (d, f, i, &bones[i]);
  return bones;
}

static inline void
skt_free_bones (RefBoneAnim *bones, guint n)
{
  for (guint i = 0; i < n; i++)
    g_free (bones[i].name);
  g_free (bones);
}

/* The curve header of @ba for @target, or 0. */
static inline gsize
skt_curve_of (const guint8 *d, const RefBoneAnim *ba, guint32 target)
{
  for (guint k = 0; k < ba->n_curves; k++)
    if (ref_u32 (d, ba->curves + 0x24 * (gsize)k + 4) == target)
      return ba->curves + 0x24 * (gsize)k;
  return 0;
}

/* The bits 24-27 of a bone's flags by the rule of the real files (format
 * page; checked by the identity tests on every sample BoneAnim). */
static inline guint32
skt_hints (const TressBfresBoneAnimSpec *s, gboolean euler)
{
  const float *v = s->base;
  gboolean sc = s->curves[0] || s->curves[1] || s->curves[2];
  gboolean tc = s->curves[3] || s->curves[4] || s->curves[5];
  gboolean rc = s->curves[6] || s->curves[7] || s->curves[8] || s->curves[9];
  guint32 h = 0;

  if (!sc && v[0] == v[1] && v[1] == v[2])
    h |= 1u << 24;
  if (!sc && v[0] * v[1] * v[2] == 1.0f)
    h |= 1u << 25;
  if (!rc && v[6] == 0 && v[7] == 0 && v[8] == 0 && (euler || v[9] == 1))
    h |= 1u << 26;
  if (!tc && !s->bind_translation && v[3] == 0 && v[4] == 0 && v[5] == 0)
    h |= 1u << 27;
  return h;
}

/* Bit 23 for a bone the animation did not have: the skeleton's bone, else
 * the bone in another skeletal animation, else 0. */
static inline guint32
skt_expected_ssc (const guint8 *d, gsize size, gsize fska, const char *name)
{
  g_autoptr (TressBfresModels) models = tress_bfres_models_parse (d, size, NULL);
  gsize group = ref_target (d, 0x20 + 4 * 2);
  guint n = group != 0 ? ref_u32 (d, group + 4) : 0;

  for (guint m = 0; models != NULL && m < models->n_models; m++)
    {
      int i = tress_bfres_skeleton_find_bone (&models->models[m].skeleton, name);

      if (i >= 0)
        return models->models[m].skeleton.bones[i].flags & (1u << 23);
    }
  for (guint e = 1; e <= n; e++)
    {
      gsize other = ref_target (d, group + 8 + 16 * (gsize)e + 12);
      RefFska f;
      RefBoneAnim *bones;
      guint32 found = G_MAXUINT32;

      if (other == fska)
        continue;
      bones = skt_read_bones (d, other, &f);
      for (guint i = 0; i < f.n_bones && found == G_MAXUINT32; i++)
        if (strcmp (bones[i].name, name) == 0)
          found = bones[i].flags & (1u << 23);
      skt_free_bones (bones, f.n_bones);
      if (found != G_MAXUINT32)
        return found;
    }
  return 0;
}

/* The type code (0-2) @count counts most, the wider (smaller code) on a
 * tie; -1 when none. */
static inline int
skt_best (const guint count[3])
{
  int best = -1;

  for (int t = 0; t < 3; t++)
    if (count[t] > 0 && (best < 0 || count[t] > count[best]))
      best = t;
  return best;
}

/* The most used frame (@keys FALSE) or key type code among the curves of
 * @bones whose group is @group (3: all), the wider on a tie; -1 if none. */
static inline int
skt_most_used (const guint8 *d, const RefBoneAnim *bones, guint n, guint group, gboolean keys)
{
  guint count[3] = { 0, 0, 0 };

  for (guint i = 0; i < n; i++)
    for (guint k = 0; k < bones[i].n_curves; k++)
      {
        gsize h = bones[i].curves + 0x24 * (gsize)k;
        guint flags = ref_u16 (d, h);

        if (group == 3 || skt_group (ref_u32 (d, h + 4)) == group)
          count[keys ? (flags >> 2) & 3 : flags & 3]++;
      }
  return skt_best (count);
}

/* The frame and key types a new curve of @target starts from (the header's
 * rule): the animation's curves of its group, all its curves, the file's
 * skeletal curves, else u8 and s16. */
static inline void
skt_start_types (const guint8 *d, const RefBoneAnim *bones, guint n, guint32 target, guint *ft,
                 guint *kt)
{
  int f = skt_most_used (d, bones, n, skt_group (target), FALSE);
  int k = skt_most_used (d, bones, n, skt_group (target), TRUE);
  gsize group = ref_target (d, 0x20 + 4 * 2);
  guint m = group != 0 ? ref_u32 (d, group + 4) : 0;
  guint count[2][3] = { { 0 } };

  if (f < 0)
    f = skt_most_used (d, bones, n, 3, FALSE);
  if (k < 0)
    k = skt_most_used (d, bones, n, 3, TRUE);
  for (guint e = 1; e <= m && (f < 0 || k < 0); e++)
    {
      RefFska fs;
      RefBoneAnim *all = skt_read_bones (d, ref_target (d, group + 8 + 16 * (gsize)e + 12), &fs);

      for (guint t = 0; t < 3; t++)
        {
          guint one[2] = { 0, 0 };

          for (guint i = 0; i < fs.n_bones; i++)
            for (guint c = 0; c < all[i].n_curves; c++)
              {
                guint flags = ref_u16 (d, all[i].curves + 0x24 * (gsize)c);

                one[0] += (flags & 3) == t;
                one[1] += ((flags >> 2) & 3) == t;
              }
          count[0][t] += one[0];
          count[1][t] += one[1];
        }
      skt_free_bones (all, fs.n_bones);
    }
  if (f < 0)
    f = skt_best (count[0]);
  if (k < 0)
    k = skt_best (count[1]);
  *ft = f >= 0 ? (guint)f : 2;
  *kt = k >= 0 ? (guint)k : 1;
}

/* The largest distance a stored value may lie from @want: the tolerance, or
 * with none half a step of s8/s16 keys, and 32-bit float rounding. */
static inline double
skt_bound (const RefCurve *c, double tolerance, double magnitude)
{
  double precision = 2.5e-7 * MAX (1.0, magnitude);

  if (tolerance > 0)
    return MAX (tolerance, precision) + 1e-9;
  if (c->kt == 0)
    return precision;
  return c->scale / 2 * (1 + 1e-6) + precision;
}

static inline const char *
skt_key_type (guint kt)
{
  return kt == 0 ? "f32" : kt == 1 ? "s16" : "s8";
}

static inline const char *
skt_frame_type (guint ft)
{
  return ft == 0 ? "f32" : ft == 1 ? "s10.5" : "u8";
}

static inline gboolean
skt_has_note (GPtrArray *notes, const char *text)
{
  for (guint i = 0; i < notes->len; i++)
    if (strstr (g_ptr_array_index (notes, i), text) != NULL)
      return TRUE;
  return FALSE;
}

/* Checks curve @h of the new bytes against @want (a request's curve) and
 * the types it started from; returns how many notes it calls for. */
static inline guint
skt_check_curve (const guint8 *d, gsize h, const TressCurve *want, guint ft0, guint kt0,
                 double tolerance, GPtrArray *notes, const char *what)
{
  RefCurve c;
  guint n = tress_curve_get_n_keys (want), per, expected_notes = 0;
  guint interp = tress_curve_get_key (want, 0)->interp;

  ref_curve_read (d, h, TRUE, &c);
  g_assert_cmpuint (c.ct, ==,
                    interp == TRESS_INTERP_HERMITE  ? 0u
                    : interp == TRESS_INTERP_LINEAR ? 1u
                                                    : 2u);
  per = c.ct == 0 ? 4 : c.ct == 1 ? 2 : 1;
  g_assert_cmpuint (c.n, ==, n);
  g_assert_cmpuint ((c.flags >> 8) & 3, ==, want->pre_wrap);
  g_assert_cmpuint ((c.flags >> 12) & 3, ==, want->post_wrap);
  g_assert_cmpfloat (c.start, ==, (float)tress_curve_get_key (want, 0)->frame);
  g_assert_cmpfloat (c.end, ==, (float)tress_curve_get_key (want, n - 1)->frame);
  /* Never narrower than where it started; wider only for a tolerance. */
  g_assert_cmpuint (c.kt, <=, kt0);
  g_assert_cmpuint (c.ft, <=, ft0);
  if (tolerance == 0)
    g_assert_cmpuint (c.kt, ==, kt0);
  if (c.kt != kt0)
    {
      g_autofree char *note
          = g_strdup_printf ("%s: keys %s → %s", what, skt_key_type (kt0), skt_key_type (c.kt));

      g_assert_true (skt_has_note (notes, note));
      expected_notes++;
    }
  if (c.ft != ft0)
    {
      g_autofree char *note = g_strdup_printf ("%s: frames %s → %s", what, skt_frame_type (ft0),
                                               skt_frame_type (c.ft));

      g_assert_true (skt_has_note (notes, note));
      expected_notes++;
    }
  for (guint i = 0; i < n; i++)
    {
      const TressKey *k = tress_curve_get_key (want, i);
      double value = ref_elem (&c, i * per) * c.scale + c.offset;

      g_assert_cmpfloat (ref_frame (&c, i), ==, c.ft == 0 ? (double)(float)k->frame : k->frame);
      g_assert_cmpfloat (fabs (value - k->value), <=, skt_bound (&c, tolerance, k->value));
      if (i + 1 < n && per > 1)
        {
          const TressKey *k1 = tress_curve_get_key (want, i + 1);
          double sum = 0, mag = 0;

          for (guint e = 0; e < per; e++)
            {
              sum += ref_elem (&c, i * per + e);
              mag += fabs (ref_elem (&c, i * per + e) * c.scale);
            }
          g_assert_cmpfloat (fabs (sum * c.scale + c.offset - tress_key_in_value (k1)), <=,
                             skt_bound (&c, tolerance, mag + fabs (c.offset)));
        }
    }
  return expected_notes;
}

/* Checks the FRES @after against the request @s that rewrote it from
 * @before: the independent decoder reads every bone, flag, base value,
 * count, bakedSize, beginCurve and key; and every byte of @before outside
 * the animation's header fields and old arrays is the same. */
static inline void
skt_check_rewrite (GBytes *before, GBytes *after, Spec *s, double tolerance, GPtrArray *notes)
{
  gsize s0, s1, pool0, pool1;
  const guint8 *d0 = g_bytes_get_data (before, &s0), *d1 = g_bytes_get_data (after, &s1);
  gsize fska = ref_fska_find (d0, s->anim_name);
  RefFska f0, f1;
  RefBoneAnim *old, *now;
  g_autofree guint8 *may_change = g_new0 (guint8, s0);
  guint total = 0, expected_notes = 1;
  guint32 baked = 0;

  g_assert_cmpuint (fska, !=, 0);
  g_assert_cmpuint (ref_fska_find (d1, s->anim_name), ==, fska);
  g_assert_cmpuint (ref_u32 (d1, 0x0C), ==, s1);
  g_assert_cmpuint (s1 % 4, ==, 0);
  old = skt_read_bones (d0, fska, &f0);
  now = skt_read_bones (d1, fska, &f1);
  ref_pool (d0, &pool0, &pool1);

  /* What may change: the file size, the FSKA's counts and offsets, the
   * animation's old arrays (rewritten where they stand when they fit). */
  memset (may_change + 0x0C, 1, 4);
  memset (may_change + fska + 0x10, 1, 0x14);
  memset (may_change + fska + 0x28, 1, 4);
  for (guint i = 0; i < f0.n_bones; i++)
    for (guint k = 0; k < old[i].n_curves; k++)
      {
        RefCurve c;
        gsize fb, kb;

        ref_curve_read (d0, old[i].curves + 0x24 * (gsize)k, TRUE, &c);
        fb = ((gsize)c.n * (c.ft == 0 ? 4 : c.ft == 1 ? 2 : 1) + 3) & ~(gsize)3;
        kb = ((gsize)c.n
                  * (c.ct == 0   ? 4
                     : c.ct == 1 ? 2
                                 : 1)
                  * (c.kt == 0   ? 4
                     : c.kt == 1 ? 2
                                 : 1)
              + 3)
             & ~(gsize)3;
        memset (may_change + (c.frames - d0), 1, MIN (fb, s0 - (gsize)(c.frames - d0)));
        memset (may_change + (c.keys - d0), 1, MIN (kb, s0 - (gsize)(c.keys - d0)));
      }
  g_assert_cmpuint (s1, >=, s0);
  for (gsize i = 0; i < s0; i++)
    if (!may_change[i] && d0[i] != d1[i])
      g_error ("byte 0x%" G_GSIZE_MODIFIER "x outside the rewritten animation changed", i);

  /* The FSKA. */
  g_assert_cmpuint (f1.flags, ==, f0.flags);
  g_assert_cmpint (f1.frame_count, ==, s->frame_count);
  g_assert_cmpuint (f1.n_bones, ==, s->bones->len);
  g_assert_cmpuint (f1.n_user_data, ==, f0.n_user_data);
  g_assert_cmpuint (f1.user_data, ==, f0.user_data);
  g_assert_cmpuint (f1.bind_skeleton, ==, f0.bind_skeleton);
  for (guint i = 0; i < f1.n_bones; i++)
    {
      const TressBfresBoneAnimSpec *want = spec_bone (s, i);
      const RefBoneAnim *was = NULL, *ba = &now[i];
      guint32 flags;
      guint was_index = 0;

      for (guint k = 0; k < f0.n_bones && was == NULL; k++)
        if (strcmp (old[k].name, want->bone) == 0)
          was = &old[k], was_index = k;
      g_assert_cmpstr (ba->name, ==, want->bone);
      g_assert_cmpuint (ref_u32 (d1, ref_target (d1, ba->pos + 4) - 4), ==, strlen (want->bone));
      /* The name: the old one's, or in the pool, or appended after the old end. */
      if (was != NULL)
        g_assert_cmpuint (ref_target (d1, ba->pos + 4), ==, ref_target (d0, was->pos + 4));
      else if (ref_pool_has (d0, want->bone))
        {
          g_assert_cmpuint (ref_target (d1, ba->pos + 4), >=, pool0);
          g_assert_cmpuint (ref_target (d1, ba->pos + 4), <, pool1);
        }
      else
        {
          g_assert_cmpuint (ref_target (d1, ba->pos + 4), >, s0);
          g_assert_cmpuint (d1[ref_target (d1, ba->pos + 4) + strlen (want->bone)], ==, 0);
        }
      /* Bind index: the old bone's, else none (0xFFFF). */
      g_assert_cmpuint (ref_u16 (d1, f1.bind_index + 2 * (gsize)i), ==,
                        was != NULL ? ref_u16 (d0, f0.bind_index + 2 * (gsize)was_index) : 0xFFFF);
      flags = was != NULL ? was->flags & ~(0x38u | 0xFFC0u | 0x0F000000u)
                          : skt_expected_ssc (d0, s0, fska, want->bone);
      flags |= 0x18u | (want->bind_translation ? 0 : 0x20u) | skt_hints (want, s->euler);
      for (guint slot = 0; slot < 10; slot++)
        flags |= want->curves[skt_slot[slot]] != NULL ? 1u << (6 + slot) : 0;
      g_assert_cmphex (ba->flags, ==, flags);
      g_assert_cmpuint (ba->begin_rotate, ==, 3);
      g_assert_cmpuint (ba->begin_translate, ==, 6);
      g_assert_cmpuint (ba->begin_base_translate, ==, 7);
      g_assert_cmpint (ba->begin_curve, ==, (gint32)total);
      for (guint c = 0; c < TRESS_BFRES_N_CHANNELS; c++)
        {
          float stored = ba->base_values[ref_base_slot (skt_target[c])];

          if (c >= 3 && c < 6 && want->bind_translation)
            g_assert_true (isnan (stored));
          else
            g_assert_cmpfloat (stored, ==, want->base[c]);
        }
      /* Curves in the order of the flag bits. */
      {
        guint k = 0;

        for (guint slot = 0; slot < 10; slot++)
          {
            TressBfresChannel ch = skt_slot[slot];
            const TressCurve *curve = want->curves[ch];
            gsize h = ba->curves + 0x24 * (gsize)k, was_h;
            guint ft0, kt0;
            RefCurve c;
            g_autofree char *what = NULL;

            if (curve == NULL)
              continue;
            g_assert_cmpuint (ref_u32 (d1, h + 4), ==, skt_target[ch]);
            was_h = was != NULL ? skt_curve_of (d0, was, skt_target[ch]) : 0;
            if (was_h != 0)
              ft0 = ref_u16 (d0, was_h) & 3, kt0 = (ref_u16 (d0, was_h) >> 2) & 3;
            else
              skt_start_types (d0, old, f0.n_bones, skt_target[ch], &ft0, &kt0);
            what = g_strdup_printf ("%s %s", want->bone, skt_label[ch]);
            expected_notes += skt_check_curve (d1, h, curve, ft0, kt0, tolerance, notes, what);
            ref_curve_read (d1, h, TRUE, &c);
            baked += 4 * ((guint32)(c.end - c.start) + 1) + 20;
            k++;
          }
        g_assert_cmpuint (ba->n_curves, ==, k);
        total += k;
      }
    }
  g_assert_cmpint (f1.n_curves, ==, (gint32)total);
  g_assert_cmpuint (f1.baked_size, ==, baked);
  /* Notes: one a widening, the growth, and what re-quantizing an old curve
   * in its own type cost. */
  {
    g_autofree char *growth
        = g_strdup_printf ("The file grows by %" G_GSIZE_FORMAT " bytes", s1 - s0);
    guint widened = 0, grew = 0;

    for (guint i = 0; i < notes->len; i++)
      {
        const char *note = g_ptr_array_index (notes, i);

        if (strstr (note, ": keys ") != NULL || strstr (note, ": frames ") != NULL)
          widened++;
        else if (g_str_has_prefix (note, growth))
          grew++;
        else if (strstr (note, "quantized anew") == NULL && strstr (note, "slopes moved") == NULL)
          g_error ("unexpected note: %s", note);
      }
    g_assert_cmpuint (grew, ==, 1);
    g_assert_cmpuint (widened + 1, ==, expected_notes);
  }
  /* The model's own checks agree. */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (TressBfres) again = tress_bfres_parse (after, "after", &error);
    g_autoptr (GPtrArray) problems = NULL;

    g_assert_no_error (error);
    problems = tress_format_bfres.validate (again);
    for (guint i = 0; i < problems->len; i++)
      {
        TressProblem *p = g_ptr_array_index (problems, i);

        if (p->severity >= TRESS_SEVERITY_WARNING)
          g_error ("validate: %s", p->message);
      }
  }
  skt_free_bones (old, f0.n_bones);
  skt_free_bones (now, f1.n_bones);
}
