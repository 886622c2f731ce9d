/* bfres-anim-ref.h: index groups and the curves of every animation kind, read
 * from the format page alone (shared/formats/bfres.md, v ≥ 3.4), for the
 * tests of the operations on whole animations
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "bfres-test-common.h"

/* The sub-file magic of index groups 2 … 8. */
static const char *const ref_group_magic[9]
    = { NULL, NULL, "FSKA", "FSHU", "FSHU", "FSHU", "FTXP", "FVIS", "FVIS" };

/* Index group @g (0-11): its position (0: none) and entry count. */
static inline gsize
ref_group (const guint8 *d, int g, guint *n)
{
  gsize pos = ref_target (d, 0x20 + 4 * (gsize)g);

  *n = pos != 0 ? ref_u32 (d, pos + 4) : 0;
  return pos;
}

/* Node @k (1 … n) of the group at @group: its name and data. */
static inline char *
ref_group_name (const guint8 *d, gsize group, guint k)
{
  return ref_name (d, group + 8 + 16 * (gsize)k + 8);
}

static inline gsize
ref_group_data (const guint8 *d, gsize group, guint k)
{
  return ref_target (d, group + 8 + 16 * (gsize)k + 12);
}

/* The node the group's trie leads @name to (format page: refBit of the name,
 * bytes from its start, 0 past its end; stop when the bit does not fall). */
static inline guint
ref_group_lookup (const guint8 *d, gsize group, const char *name)
{
  gsize len = strlen (name);
  guint32 prev = G_MAXUINT32;
  guint idx = ref_u16 (d, group + 8 + 4), n = ref_u32 (d, group + 4);

  for (guint steps = 0; idx <= n && steps <= n + 1; steps++)
    {
      gsize node = group + 8 + 16 * (gsize)idx;
      guint32 bit = ref_u32 (d, node);
      int dir;

      if (bit >= prev)
        return idx;
      prev = bit;
      dir = (bit >> 3) < len ? ((guint8)name[bit >> 3] >> (bit & 7)) & 1 : 0;
      idx = ref_u16 (d, node + (dir ? 6 : 4));
    }
  return G_MAXUINT;
}

/* The sub-file of group @g named @name, found through the trie and checked
 * by its node's name; 0 when there is none. */
static inline gsize
ref_anim_find (const guint8 *d, int g, const char *name)
{
  guint n;
  gsize group = ref_group (d, g, &n);
  guint k;
  g_autofree char *found = NULL;

  if (group == 0)
    return 0;
  k = ref_group_lookup (d, group, name);
  if (k == G_MAXUINT || k == 0 || k > n)
    return 0;
  found = ref_group_name (d, group, k);
  return strcmp (found, name) == 0 ? ref_group_data (d, group, k) : 0;
}

/* Every entry of every group 0-11 is found through its trie. */
static inline void
ref_assert_groups_searchable (const guint8 *d)
{
  for (int g = 0; g < 12; g++)
    {
      guint n;
      gsize group = ref_group (d, g, &n);

      if (group == 0)
        continue;
      g_assert_cmpuint (ref_u32 (d, group), ==, 8 + 16 * (n + 1));
      g_assert_cmpuint (ref_u16 (d, 0x50 + 2 * (gsize)g), ==, n);
      g_assert_cmphex (ref_u32 (d, group + 8), ==, G_MAXUINT32);
      for (guint k = 1; k <= n; k++)
        {
          g_autofree char *name = ref_group_name (d, group, k);

          g_assert_cmpuint (ref_group_lookup (d, group, name), ==, k);
        }
    }
}

/* The curve headers of the sub-file at @pos of group @g, in file order. */
static inline GArray *
ref_anim_curves (const guint8 *d, int g, gsize pos)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (gsize));

  g_assert_cmpmem (d + pos, 4, ref_group_magic[g], 4);
  if (g == 2)
    {
      gsize bones = ref_target (d, pos + 0x20);

      for (guint i = 0; i < ref_u16 (d, pos + 0x14); i++)
        {
          gsize bp = bones + 0x18 * (gsize)i, curves = ref_target (d, bp + 0x10);

          for (guint k = 0; k < d[bp + 0x0A]; k++)
            {
              gsize h = curves + 0x24 * (gsize)k;

              g_array_append_val (out, h);
            }
        }
    }
  else if (g <= 6)
    {
      gsize mats = ref_target (d, pos + 0x2C), stride = g == 6 ? 0x1C : 0x20;
      guint n = ref_u16 (d, pos + (g == 6 ? 0x16 : 0x14));

      for (guint m = 0; m < n; m++)
        {
          gsize mp = mats + stride * m;
          gsize curves = ref_target (d, mp + (g == 6 ? 0x14 : 0x18));

          for (guint k = 0; k < ref_u16 (d, mp + 2); k++)
            {
              gsize h = curves + 0x24 * (gsize)k;

              g_array_append_val (out, h);
            }
        }
    }
  else
    {
      gsize curves = ref_target (d, pos + 0x28);

      for (guint k = 0; k < ref_u16 (d, pos + 0x16); k++)
        {
          gsize h = curves + 0x24 * (gsize)k;

          g_array_append_val (out, h);
        }
    }
  return out;
}

/* The frame count of the sub-file at @pos (s32 at 0x10 in every kind). */
static inline gint32
ref_anim_frame_count (const guint8 *d, gsize pos)
{
  return (gint32)ref_u32 (d, pos + 0x10);
}

/* bakedSize, where each kind stores it. */
static inline guint32
ref_anim_baked_size (const guint8 *d, int g, gsize pos)
{
  return ref_u32 (d, pos + (g == 2 ? 0x1C : g <= 5 ? 0x20 : g == 6 ? 0x20 : 0x18));
}

/* bakedSize as the format page computes it from the curves. */
static inline guint32
ref_baked_formula (const guint8 *d, GArray *curves)
{
  guint32 sum = 0;

  for (guint i = 0; i < curves->len; i++)
    {
      RefCurve c;
      guint32 n;

      ref_curve_read (d, g_array_index (curves, gsize, i), TRUE, &c);
      n = (guint32)(c.end - c.start) + 1;
      if (c.ct <= 2)
        sum += 4 * n + 20;
      else if (c.ct >= 6)
        sum += 4 * ((n + 31) / 32) + 8;
      else
        sum += n * (c.kt == 0 ? 4 : c.kt == 1 ? 2 : 1) + 8;
    }
  return sum;
}

/* The bytes of @c's frame and key arrays. */
static inline gsize
ref_frames_len (const RefCurve *c)
{
  return (gsize)c->n * (c->ft == 0 ? 4 : c->ft == 1 ? 2 : 1);
}

static inline gsize
ref_keys_len (const RefCurve *c)
{
  guint per = c->ct == 0 ? 4 : c->ct == 1 ? 2 : 1;

  if (c->ct >= 6)
    return ((gsize)c->n + 31) / 32 * 4;
  return (gsize)c->n * per * (c->kt == 0 ? 4 : c->kt == 1 ? 2 : 1);
}

/* Whether frame type @ft holds frame @f (u8: whole 0…255; s10.5: 1/32 steps,
 * ±1023.97; f32: any finite frame). */
static inline gboolean
ref_frame_fits (guint ft, double f)
{
  if (ft == 2)
    return f == floor (f) && f >= 0 && f <= 255;
  if (ft == 1)
    return f * 32 == floor (f * 32) && f * 32 >= -32768 && f * 32 <= 32767;
  return isfinite (f);
}

/* ---- checks shared by the tests of whole-animation operations ------------------- */

typedef struct
{
  gsize start, end;
} RefRange;

static inline void
ref_allow (GArray *ranges, gsize start, gsize len)
{
  RefRange r = { start, start + len };

  g_array_append_val (ranges, r);
}

/* Every byte of @a (up to the shorter length) equals @b's outside @ranges. */
static inline void
ref_assert_same_except (GBytes *a, GBytes *b, GArray *ranges)
{
  gsize la, lb;
  const guint8 *da = g_bytes_get_data (a, &la), *db = g_bytes_get_data (b, &lb);

  for (gsize i = 0; i < MIN (la, lb); i++)
    {
      gboolean allowed = FALSE;

      if (da[i] == db[i])
        continue;
      for (guint r = 0; r < ranges->len && !allowed; r++)
        allowed = i >= g_array_index (ranges, RefRange, r).start
                  && i < g_array_index (ranges, RefRange, r).end;
      if (!allowed)
        g_error ("byte 0x%" G_GSIZE_MODIFIER "x changed (0x%02x → 0x%02x) outside what the "
                 "operation may change",
                 i, da[i], db[i]);
    }
}

static inline gboolean
ref_is_baked (guint ct)
{
  return ct == 2 || ct == 5 || ct == 7;
}

/* The animation at @pa of @da (group @g), retimed by @scale into @pb of @db:
 * every curve plays at scale · f what it played at f, at its keys and
 * between them (probes of the old curve). Exact for step, cubic and linear
 * curves whose frames are stored exactly (their key arrays are the very
 * same bytes: only the rounding of t at a probe F·f that is no exact double
 * may differ); baked float curves within float precision. Returns how many
 * values were compared. */
static inline guint
ref_check_retimed (const guint8 *da, gsize pa, const guint8 *db, gsize pb, int g, double scale)
{
  g_autoptr (GArray) ca = ref_anim_curves (da, g, pa);
  g_autoptr (GArray) cb = ref_anim_curves (db, g, pb);
  guint compared = 0;

  g_assert_cmpuint (ca->len, ==, cb->len);
  for (guint i = 0; i < ca->len; i++)
    {
      RefCurve a, b;
      g_autofree double *probes = NULL;
      guint m;

      ref_curve_read (da, g_array_index (ca, gsize, i), TRUE, &a);
      ref_curve_read (db, g_array_index (cb, gsize, i), TRUE, &b);
      g_assert_cmpuint (a.ct, ==, b.ct);
      g_assert_cmpfloat (b.start, ==, (float)(scale * a.start));
      g_assert_cmpfloat (b.end, ==, (float)(scale * a.end));
      if (a.n == 0)
        continue;
      if (!ref_is_baked (a.ct) || a.n < 2 || scale == 1)
        {
          g_assert_cmpuint (b.n, ==, a.n);
          g_assert_cmpuint (b.kt, ==, a.kt);
          g_assert_cmpmem (b.keys, ref_keys_len (&b), a.keys, ref_keys_len (&a));
          g_assert_cmpuint (b.scale == a.scale && b.ioffset == a.ioffset, ==, TRUE);
          for (guint k = 0; k < a.n; k++)
            g_assert_cmpfloat (ref_frame (&b, k), ==, scale * ref_frame (&a, k));
        }
      else
        g_assert_cmpuint (b.n, ==, (a.n - 1) * (guint)scale + 1);
      probes = g_new (double, 3 * (gsize)a.n + 1);
      m = ref_probe_frames (&a, probes);
      for (guint p = 0; p < m; p++)
        {
          double va = ref_eval_at (&a, probes[p]), vb = ref_eval_at (&b, scale * probes[p]);

          if (ref_is_baked (a.ct) && a.ct == 2)
            g_assert_cmpfloat (fabs (va - vb), <=, ref_float_precision (va));
          /* The same coefficients over the same t: equal but for the rounding
           * of t itself at a probe F·f that is no exact double. */
          else if (fabs (va - vb) > 1e-12 * MAX (1.0, fabs (va)))
            g_error ("curve %u at frame %g: %.9g before, %.9g at frame %g after", i, probes[p], va,
                     vb, scale * probes[p]);
          compared++;
        }
    }
  return compared;
}
