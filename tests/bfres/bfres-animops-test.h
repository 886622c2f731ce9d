/* bfres-animops-test.h: what the tests of whole-animation operations share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "bfres-anim-ref.h"
#include "bfres-skeletal-test.h"
#include "formats/bfres/tress-bfres-animops.h"
#include "tress-test-utils.h"

static inline TressBfres *
parse_ok (GBytes *bytes)
{
  g_autoptr (GError) error = NULL;
  TressBfres *b = tress_bfres_parse (bytes, "test", &error);

  g_assert_no_error (error);
  return b;
}

static inline TressBfres *
load (const char *sample, GBytes **fres)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample (sample);
  TressBfres *b;

  if (bytes == NULL)
    return NULL;
  b = parse_ok (bytes);
  *fres = tress_bfres_get_bfres_bytes (b);
  return b;
}

static inline guint
anim (TressBfres *b, const char *spec)
{
  int i = tress_bfres_find_anim (b, spec, NULL);

  g_assert_cmpint (i, >=, 0);
  return (guint)i;
}

/* No error or warning (the infos, such as "the file grew", are fine). */
static inline void
assert_clean (TressBfres *b)
{
  g_autoptr (GPtrArray) problems = tress_format_bfres.validate (b);

  for (guint i = 0; i < problems->len; i++)
    {
      g_autofree char *s = tress_problem_to_string (g_ptr_array_index (problems, i));
      g_test_message ("%s", s);
    }
  g_assert_cmpuint (tress_problem_list_count (problems, TRESS_SEVERITY_WARNING), ==, 0);
}

/* The bytes a refused operation leaves: the very same. */
static inline void
assert_untouched (TressBfres *b, GBytes *before)
{
  g_autoptr (GBytes) now = tress_bfres_get_bfres_bytes (b);

  g_assert_true (g_bytes_equal (now, before));
}

static inline gboolean
notes_have (GPtrArray *notes, const char *words)
{
  for (guint i = 0; i < notes->len; i++)
    if (strstr (g_ptr_array_index (notes, i), words) != NULL)
      return TRUE;
  return FALSE;
}

/* The ranges a retime of the animation at @pos may change: the curve
 * headers' flags, key count, start and end, scale and offset, array offsets,
 * the arrays, the frame count and bakedSize, the file size. */
static inline GArray *
retime_ranges (const guint8 *d, int g, gsize pos)
{
  GArray *r = g_array_new (FALSE, FALSE, sizeof (RefRange));
  g_autoptr (GArray) curves = ref_anim_curves (d, g, pos);

  for (guint i = 0; i < curves->len; i++)
    {
      gsize h = g_array_index (curves, gsize, i);
      RefCurve c;

      ref_curve_read (d, h, TRUE, &c);
      ref_allow (r, h, 4);
      ref_allow (r, h + 8, 16);
      ref_allow (r, h + 0x1C, 8);
      ref_allow (r, (gsize)(c.frames - d), (ref_frames_len (&c) + 3) & ~(gsize)3);
      ref_allow (r, (gsize)(c.keys - d), (ref_keys_len (&c) + 3) & ~(gsize)3);
    }
  ref_allow (r, pos + 0x10, 4);
  ref_allow (r, pos + (g == 2 ? 0x1C : g <= 6 ? 0x20 : 0x18), 4);
  ref_allow (r, 0x0C, 4);
  return r;
}

/* The copy at @pb of @db reads as the original at @pa of @da: the same
 * header fields (name aside), tables, curve headers (offsets aside) and
 * arrays; names, bind model and user data point to the same places. */
static inline void
assert_same_anim (const guint8 *da, gsize pa, const guint8 *db, gsize pb, int g)
{
  g_autoptr (GArray) ca = ref_anim_curves (da, g, pa);
  g_autoptr (GArray) cb = ref_anim_curves (db, g, pb);

  /* Counts, flags, frame count, bakedSize: the same; the path, bind model,
   * user data and texture list: the same targets. */
  gsize counts_end = g == 2 ? 0x20 : g == 7 || g == 8 ? 0x1C : 0x24;
  static const gsize shared[9][3] = {
    { 0 },
    { 0 },
    { 0x24, 0x2C, 0 },
    { 0x24, 0x30, 0 },
    { 0x24, 0x30, 0 },
    { 0x24, 0x30, 0 },
    { 0x24, 0x30, 0x34 },
    { 0x1C, 0x30, 0 },
    { 0x1C, 0x30, 0 },
  };

  g_assert_cmpmem (db + pb, 4, da + pa, 4);
  g_assert_cmpuint (ref_target (db, pb + 8), ==, ref_target (da, pa + 8));
  g_assert_cmpmem (db + pb + 0x0C, counts_end - 0x0C, da + pa + 0x0C, counts_end - 0x0C);
  for (guint k = 0; k < 3 && shared[g][k] != 0; k++)
    g_assert_cmpuint (ref_target (db, pb + shared[g][k]), ==, ref_target (da, pa + shared[g][k]));
  g_assert_cmpuint (ca->len, ==, cb->len);
  for (guint i = 0; i < ca->len; i++)
    {
      gsize ha = g_array_index (ca, gsize, i), hb = g_array_index (cb, gsize, i);
      RefCurve a, b;

      g_assert_cmpuint (ha, !=, hb);
      g_assert_cmpmem (db + hb, 0x1C, da + ha, 0x1C);
      ref_curve_read (da, ha, TRUE, &a);
      ref_curve_read (db, hb, TRUE, &b);
      g_assert_true (b.frames != a.frames || a.n == 0);
      g_assert_cmpmem (b.frames, ref_frames_len (&b), a.frames, ref_frames_len (&a));
      g_assert_cmpmem (b.keys, ref_keys_len (&b), a.keys, ref_keys_len (&a));
    }
  if (g == 2)
    {
      RefFska fa, fb;
      RefBoneAnim *ba = skt_read_bones (da, pa, &fa), *bb = skt_read_bones (db, pb, &fb);

      g_assert_cmpuint (fa.user_data, ==, fb.user_data);
      g_assert_cmpuint (fa.bind_skeleton, ==, fb.bind_skeleton);
      g_assert_cmpmem (db + fb.bind_index, 2 * fb.n_bones, da + fa.bind_index, 2 * fa.n_bones);
      for (guint i = 0; i < fa.n_bones; i++)
        {
          g_assert_cmpstr (ba[i].name, ==, bb[i].name);
          g_assert_cmpuint (ref_target (da, ba[i].pos + 4), ==, ref_target (db, bb[i].pos + 4));
          g_assert_cmpmem (db + bb[i].pos, 4, da + ba[i].pos, 4);
          g_assert_cmpmem (db + bb[i].pos + 8, 8, da + ba[i].pos + 8, 8);
          g_assert_cmpmem (bb[i].base_values, sizeof bb[i].base_values, ba[i].base_values,
                           sizeof ba[i].base_values);
        }
      skt_free_bones (ba, fa.n_bones);
      skt_free_bones (bb, fb.n_bones);
    }
}
