/* test-niff.c: N64 NIFF animation: samples, curves, builder, edits, bad input
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "formats/niff/tress-niff.h"
#include "niff-test-samples.h"
#include "tress-test-utils.h"

static const TressFormat *fmt = &tress_format_niff;

/* ---- raw big-endian access, independent of the parser ---- */

static void
assert_valid (TressNiffFile *file)
{
  g_autoptr (GPtrArray) problems = fmt->validate (file);

  for (guint i = 0; i < problems->len; i++)
    {
      g_autofree char *s = tress_problem_to_string (g_ptr_array_index (problems, i));
      g_test_message ("%s", s);
    }
  g_assert_cmpuint (tress_problem_list_count (problems, TRESS_SEVERITY_WARNING), ==, 0);
}

static int
find_curve (TressNiffFile *file, const char *path)
{
  guint n = fmt->curves->n_curves (file);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (TressCurve) c = fmt->curves->get_curve (file, i);
      if (g_strcmp0 (c->path, path) == 0)
        return (int)i;
    }
  g_error ("no curve %s", path);
  return -1;
}

static GBytes *
serialize_ok (TressNiffFile *file)
{
  g_autoptr (GError) error = NULL;
  GBytes *out = fmt->serialize (file, &error);

  g_assert_no_error (error);
  return out;
}

/* Every size field of a written file, checked from the raw bytes. */
static void
assert_sizes_right (GBytes *bytes)
{
  gsize size = 0;
  const guint8 *d = g_bytes_get_data (bytes, &size);
  gsize anim = niff_raw_find_list (d, size, 0x000c0000);
  guint32 n, hsize;
  gsize pos, total;

  g_assert_cmpuint (niff_be32 (d + 4), ==, size);
  g_assert_cmpuint (anim, >, 0);
  g_assert_cmpuint (niff_be32 (d + 0x4C), ==, niff_be32 (d + anim + 8));
  n = niff_be32 (d + anim + 12);
  hsize = niff_be32 (d + anim + 4);
  g_assert_cmpuint (hsize, ==, 24 + 4 * n);
  pos = anim + hsize;
  total = hsize + niff_be32 (d + anim + 16) + niff_be32 (d + anim + 20);
  for (guint g = 0; g < n; g++)
    {
      guint32 gsize_ = niff_be32 (d + anim + 24 + 4 * g);
      guint32 nrec = niff_be32 (d + pos + 0x1C);
      guint32 nin = niff_be32 (d + pos + 0x28), usr = niff_be32 (d + pos + 0x2C);
      gsize rec = pos + 48;

      g_assert_cmpuint (niff_be32 (d + pos + 0x0C), ==, gsize_);
      for (guint r = 0; r < nrec; r++)
        rec += niff_be32 (d + rec + 8);
      g_assert_cmpuint (rec - pos + nin + usr, ==, gsize_);
      if (nin > 0)
        {
          static const guint key_sizes[8] = { 40, 16, 16, 16, 56, 32, 32, 32 };
          guint32 bits = niff_be32 (d + rec);
          gsize channels = 0;

          for (guint c = 0; c < 8; c++)
            {
              guint32 count = niff_be32 (d + rec + 4 + 4 * c);
              g_assert_cmpuint ((bits >> c) & 1, ==, count > 0);
              channels += count * key_sizes[c];
            }
          g_assert_cmpuint (148 + channels, <=, nin);
        }
      total += gsize_;
      pos += gsize_;
    }
  g_assert_cmpuint (total, ==, niff_be32 (d + anim + 8));
}

/* Bytes outside the AnimList are unchanged (apart from the two size fields). */
static void
assert_outside_unchanged (GBytes *before, GBytes *after)
{
  gsize la = 0, lb = 0;
  const guint8 *a = g_bytes_get_data (before, &la);
  const guint8 *b = g_bytes_get_data (after, &lb);
  gsize anim_a = niff_raw_find_list (a, la, 0x000c0000);
  gsize anim_b = niff_raw_find_list (b, lb, 0x000c0000);
  gsize end_a = anim_a + niff_be32 (a + anim_a + 8);
  gsize end_b = anim_b + niff_be32 (b + anim_b + 8);

  g_assert_cmpuint (anim_a, ==, anim_b);
  for (gsize i = 0; i < anim_a; i++)
    if (!(i >= 4 && i < 8) && !(i >= 0x4C && i < 0x50))
      g_assert_cmpuint (a[i], ==, b[i]);
  g_assert_cmpuint (la - end_a, ==, lb - end_b);
  g_assert_cmpmem (a + end_a, la - end_a, b + end_b, lb - end_b);
}

/* @bytes with an 8-byte user extension block appended to AnimGroup @g, every
 * size updated by hand. */
static GBytes *
with_user_block (GBytes *bytes, guint g)
{
  gsize size = 0;
  const guint8 *d = g_bytes_get_data (bytes, &size);
  gsize anim = niff_raw_find_list (d, size, 0x000c0000);
  gsize group = niff_raw_group (d, size, g);
  gsize end = group + niff_be32 (d + group + 0x0C);
  guint8 *out = g_malloc (size + 8);

  g_assert_cmpuint (niff_be32 (d + group + 0x2C), ==, 0);
  memcpy (out, d, end);
  memcpy (out + end, "USERDATA", 8);
  memcpy (out + end + 8, d + end, size - end);
  niff_put32 (out + 4, niff_be32 (d + 4) + 8);
  niff_put32 (out + 0x4C, niff_be32 (d + 0x4C) + 8);
  niff_put32 (out + anim + 8, niff_be32 (d + anim + 8) + 8);
  niff_put32 (out + anim + 24 + 4 * g, niff_be32 (d + anim + 24 + 4 * g) + 8);
  niff_put32 (out + group + 0x0C, niff_be32 (d + group + 0x0C) + 8);
  niff_put32 (out + group + 0x2C, 8);
  return g_bytes_new_take (out, size + 8);
}

/* ---- samples ---- */

static void
test_samples_roundtrip (void)
{
  for (guint i = 0; i < NIFF_TEST_N_SAMPLES; i++)
    {
      g_autoptr (GBytes) bytes = tress_test_load_sample (niff_test_samples[i]);
      g_autoptr (GBytes) out = NULL;
      TressNiffFile *file;

      if (bytes == NULL)
        return;
      g_test_message ("%s", niff_test_samples[i]);
      g_assert_true (fmt->probe (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes)));
      file = niff_parse_ok (bytes);
      out = serialize_ok (file);
      tress_test_assert_bytes_equal (bytes, out);
      assert_valid (file);
      fmt->free (file);
    }
}

static void
test_samples_structure (void)
{
  g_autoptr (GBytes) rings = tress_test_load_sample ("niff/Rings.niff");
  g_autoptr (GBytes) dragon = tress_test_load_sample ("niff/dragon.nif");
  g_autoptr (GBytes) kiri = tress_test_load_sample ("niff/kirikobu.niff");
  g_autoptr (GBytes) cube = tress_test_load_sample ("niff/yellow-cube.niff");
  g_autoptr (GBytes) blend = tress_test_load_sample ("niff/blend2niff-cube.nif");
  TressNiffFile *f;
  g_autofree char *text = NULL;
  int idx;

  if (rings == NULL || dragon == NULL || kiri == NULL || cube == NULL || blend == NULL)
    return;

  f = niff_parse_ok (rings);
  g_assert_cmpuint (tress_niff_file_get_n_groups (f), ==, 6);
  g_assert_cmpuint (tress_niff_group_get_channel_bits (f, 0), ==, 0x6e);
  g_assert_cmpuint (tress_niff_group_get_n_channel_keys (f, 0, TRESS_NIFF_ROTATE_Z), ==, 47);
  g_assert_cmpuint (tress_niff_group_get_n_channel_keys (f, 2, TRESS_NIFF_ROTATE_Z), ==, 50);
  /* Per group: RotateX/Y/Z, Translation and UniqueScale (9 components); the
   * channels the format forbids beside those (RotateAxis, OrientationXY,
   * ClassicalScale) are not listed. */
  g_assert_cmpuint (fmt->curves->n_curves (f), ==, 6 * 9);
  idx = find_curve (f, "Sweep15_3_Animation/RotateZ/Z");
  {
    g_autoptr (TressCurve) c = fmt->curves->get_curve (f, idx);
    g_assert_cmpstr (c->owner, ==, "Sweep15_3");
    g_assert_cmpstr (c->kind, ==, "NIFF2 channel");
    g_assert_cmpstr (c->component, ==, "Z");
    g_assert_true (c->limits.tied_tangents);
    g_assert_cmpfloat (c->limits.frame_step, ==, 1);
    g_assert_cmpuint (tress_curve_get_n_keys (c), ==, 47);
    g_assert_nonnull (strstr (c->note, "not unwrapped"));
  }
  text = fmt->describe (f);
  g_assert_nonnull (strstr (text, "used by Sweep15_3"));
  fmt->free (f);

  /* dragon: NIFF1 FULL, 30 groups of 31 records and three STATIC groups. */
  f = niff_parse_ok (dragon);
  g_assert_cmpuint (tress_niff_file_get_version (f) & 0xFFFF, ==, 0x0100);
  g_assert_cmpuint (tress_niff_file_get_n_groups (f), ==, 33);
  g_assert_cmpuint (tress_niff_group_get_n_records (f, 0), ==, 31);
  g_assert_cmpuint (fmt->curves->n_curves (f), ==, 30 * 9);
  {
    g_autoptr (TressCurve) c = fmt->curves->get_curve (f, 0);
    g_assert_cmpstr (c->kind, ==, "NIFF1 FULL");
    g_assert_cmpuint (tress_curve_get_key (c, 30)->interp, ==, TRESS_INTERP_BAKED);
    g_assert_cmpfloat (tress_curve_get_key (c, 30)->frame, ==, 30);
  }
  fmt->free (f);

  /* kirikobu: NIFF1 KEY records in a NIFF2 file; one group has a constraint. */
  f = niff_parse_ok (kiri);
  g_assert_cmpuint (tress_niff_group_get_n_records (f, 0), ==, 122);
  g_assert_cmpuint (tress_niff_group_get_channel_bits (f, 4), ==, 0x400);
  g_clear_pointer (&text, g_free);
  text = fmt->describe (f);
  g_assert_nonnull (strstr (text, "upvector constraint"));
  {
    g_autoptr (TressCurve) c = fmt->curves->get_curve (f, 0);
    g_assert_cmpstr (c->path, ==, "upvector_Animation/Translate/X");
    g_assert_cmpstr (c->owner, ==, "upvector");
    g_assert_cmpstr (c->kind, ==, "NIFF1 KEY");
  }
  fmt->free (f);

  /* yellow-cube: no AnimGroup, two NIFF2 lists absent. */
  f = niff_parse_ok (cube);
  g_assert_cmpuint (tress_niff_file_get_n_groups (f), ==, 0);
  g_assert_cmpuint (fmt->curves->n_curves (f), ==, 0);
  fmt->free (f);

  /* blend2niff: header size field 196, records still at +48. */
  f = niff_parse_ok (blend);
  g_assert_cmpuint (tress_niff_group_get_n_records (f, 0), ==, 1);
  fmt->free (f);
}

/* Every curve of every sample evaluates: through each key, finite between. */
static void
test_samples_curves_evaluate (void)
{
  for (guint s = 0; s < NIFF_TEST_N_SAMPLES; s++)
    {
      g_autoptr (GBytes) bytes = tress_test_load_sample (niff_test_samples[s]);
      TressNiffFile *file;
      guint n;

      if (bytes == NULL)
        return;
      file = niff_parse_ok (bytes);
      n = fmt->curves->n_curves (file);
      for (guint i = 0; i < n; i++)
        {
          g_autoptr (TressCurve) c = fmt->curves->get_curve (file, i);
          guint nk = tress_curve_get_n_keys (c);

          g_assert_nonnull (c->path);
          g_assert_true (tress_curve_check_limits (c, NULL));
          for (guint k = 0; k < nk; k++)
            {
              const TressKey *key = tress_curve_get_key (c, k);
              g_assert_cmpfloat (tress_curve_evaluate (c, key->frame), ==, key->value);
              if (k + 1 < nk)
                {
                  const TressKey *next = tress_curve_get_key (c, k + 1);
                  double mid = (key->frame + next->frame) / 2;
                  double v = tress_curve_evaluate (c, mid);

                  g_assert_true (isfinite (v));
                  if (key->interp == TRESS_INTERP_STEP)
                    g_assert_cmpfloat (v, ==, key->value);
                  else if (key->interp == TRESS_INTERP_LINEAR)
                    g_assert_cmpfloat_with_epsilon (v, (key->value + next->value) / 2, 1e-6);
                }
            }
          if (nk > 0)
            {
              /* Before the first key: the first value; after the last: the last. */
              g_assert_cmpfloat (tress_curve_evaluate (c, -5), ==,
                                 tress_curve_get_key (c, 0)->value);
              g_assert_cmpfloat (tress_curve_evaluate (c, 1e7), ==,
                                 tress_curve_get_key (c, nk - 1)->value);
            }
        }
      fmt->free (file);
    }
}

static double
page_hermite (double p0, double p1, double v0, double v1, double h, double u)
{
  /* shared/formats/niff.md */
  return (u - 1) * (u - 1) * (2 * u + 1) * p0 + u * u * (3 - 2 * u) * p1
         + h * (u - 1) * (u - 1) * u * v0 + h * (u - 1) * u * u * v1;
}

/* Rings.niff: group 0's RotateZ keys read straight from the bytes, each
 * Hermite segment against the format page's formula, and the ±π jump. */
static void
test_rings_hermite (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/Rings.niff");
  gsize size = 0;
  const guint8 *d;
  gsize anim, group, ext, keys;
  TressNiffFile *file;
  g_autoptr (TressCurve) c = NULL;
  guint n, jumps = 0;

  if (bytes == NULL)
    return;
  d = g_bytes_get_data (bytes, &size);
  anim = niff_raw_find_list (d, size, 0x000c0000);
  group = anim + niff_be32 (d + anim + 4);
  g_assert_cmpuint (niff_be32 (d + group), ==, 0x000c0100);
  g_assert_cmpuint (niff_be32 (d + group + 0x1C), ==, 0); /* no NIFF1 records */
  ext = group + 48;
  n = niff_be32 (d + ext + 16); /* rotate_z_num */
  g_assert_cmpuint (n, ==, 47);
  keys = ext + 148 + niff_be32 (d + ext + 4) * 40 + niff_be32 (d + ext + 8) * 16
         + niff_be32 (d + ext + 12) * 16;

  file = niff_parse_ok (bytes);
  c = fmt->curves->get_curve (file, find_curve (file, "Sweep15_3_Animation/RotateZ/Z"));
  g_assert_cmpuint (tress_curve_get_n_keys (c), ==, n);
  for (guint i = 0; i + 1 < n; i++)
    {
      const guint8 *a = d + keys + 16 * i, *b = a + 16;
      guint32 k0 = niff_be32 (a + 4), k1 = niff_be32 (b + 4);
      double p0 = niff_bef (a + 8), v0 = niff_bef (a + 12), p1 = niff_bef (b + 8),
             v1 = niff_bef (b + 12);

      g_assert_cmpuint (niff_be32 (a), ==, 3); /* HERMITE */
      g_assert_cmpfloat (tress_curve_get_key (c, i)->frame, ==, k0);
      for (double u = 0; u < 1; u += 0.125)
        {
          double t = k0 + u * (k1 - k0);
          g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (c, t),
                                          page_hermite (p0, p1, v0, v1, k1 - k0, u), 1e-5);
        }
      if (fabs (p1 - p0) > 3.0)
        {
          /* Shown as stored, not unwrapped: the key values are the raw ones. */
          g_assert_cmpfloat (tress_curve_evaluate (c, k0), ==, (double)niff_bef (a + 8));
          g_assert_cmpfloat (tress_curve_evaluate (c, k1), ==, (double)niff_bef (b + 8));
          jumps++;
          if (k0 == 83)
            {
              g_assert_cmpfloat_with_epsilon (p0, -3.0519, 1e-4);
              g_assert_cmpfloat_with_epsilon (p1, 3.14159, 1e-4);
              g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (c, 83.5),
                                              page_hermite (p0, p1, v0, v1, 1, 0.5), 1e-6);
            }
        }
    }
  g_assert_cmpuint (jumps, ==, 3);
  fmt->free (file);
}

/* ---- builder ---- */

static void
trs_of (TressNiffFile *file, guint group, guint record, float trs[9])
{
  /* Through the curves: record @record of a KEY/FULL group. */
  guint n = fmt->curves->n_curves (file);
  guint found = 0;

  for (guint i = 0; i < n && found < 9; i++)
    {
      g_autoptr (TressCurve) c = fmt->curves->get_curve (file, i);
      if (!g_str_has_prefix (c->kind, "NIFF1"))
        continue;
      if (found == 0 && group > 0)
        {
          group--;
          i += 8;
          continue;
        }
      trs[found++] = (float)tress_curve_get_key (c, record)->value;
    }
  g_assert_cmpuint (found, ==, 9);
}

/* The builder, fed the sample's content, writes the very bytes of the
 * independently written synthetic-niff1.nif. */
static void
test_builder_matches_niff1_sample (void)
{
  g_autoptr (GBytes) sample = tress_test_load_sample ("niff/synthetic-niff1.nif");
  g_autoptr (TressNiffBuilder) b = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) built = NULL;
  TressNiffFile *file;
  const char *names[]
      = { "generated_scene",  "root_null",       "key_anim.anim",  "key_anim.obj",
          "static_anim.anim", "static_anim.obj", "full_anim.anim", "full_anim.obj" };
  float trs[9];
  guint g;

  if (sample == NULL)
    return;
  file = niff_parse_ok (sample);
  b = tress_niff_builder_new (FALSE, 0);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    tress_niff_builder_add_name (b, names[i]);

  g = tress_niff_builder_add_group (b, 2, TRESS_NIFF_ANIM_KEY, 30, 0);
  for (guint r = 0; r < 4; r++)
    {
      trs_of (file, 0, r, trs);
      tress_niff_builder_add_key (b, g, r * 10, TRESS_NIFF_KEY_LINEAR, trs);
    }
  g = tress_niff_builder_add_group (b, 4, TRESS_NIFF_ANIM_STATIC, 0, 0);
  {
    const float st[9] = { 1, 2, 3, 0, 0, 0.5f, 1, 1, 1 };
    tress_niff_builder_add_static (b, g, st);
  }
  g = tress_niff_builder_add_group (b, 6, TRESS_NIFF_ANIM_FULL, 30, 0);
  for (guint r = 0; r < 11; r++)
    {
      trs_of (file, 1, r, trs);
      tress_niff_builder_add_full (b, g, trs);
    }
  tress_niff_builder_add_object (b, 3, 0);
  tress_niff_builder_add_object (b, 5, 1);
  tress_niff_builder_add_object (b, 7, 2);
  built = tress_niff_builder_finish (b, &error);
  g_assert_no_error (error);
  tress_test_assert_bytes_equal (sample, built);
  fmt->free (file);
}

static void
add_channel_from (TressNiffBuilder *b, guint g, TressNiffFile *file, const char *group,
                  TressNiffChannel ch)
{
  /* Channel keys of the sample, read back through the curves. */
  const char *chname[] = { "RotateAxis",    "RotateX",     "RotateY",     "RotateZ",
                           "OrientationXY", "Translation", "UniqueScale", "ClassicalScale" };
  g_autofree char *prefix = g_strdup_printf ("%s/%s/", group, chname[ch]);
  g_autoptr (GPtrArray) comps = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_curve_unref);
  guint n = fmt->curves->n_curves (file);

  for (guint i = 0; i < n; i++)
    {
      TressCurve *c = fmt->curves->get_curve (file, i);
      if (g_str_has_prefix (c->path, prefix))
        g_ptr_array_add (comps, c);
      else
        tress_curve_unref (c);
    }
  g_assert_cmpuint (comps->len, >, 0);
  for (guint k = 0; k < tress_curve_get_n_keys (g_ptr_array_index (comps, 0)); k++)
    {
      float v[6], dv[6];
      const TressKey *k0 = tress_curve_get_key (g_ptr_array_index (comps, 0), k);
      for (guint j = 0; j < comps->len; j++)
        {
          const TressKey *kj = tress_curve_get_key (g_ptr_array_index (comps, j), k);
          v[j] = (float)kj->value;
          dv[j] = (float)kj->out_slope;
        }
      tress_niff_builder_add_channel_key (b, g, ch, k0->native_interp, (guint32)k0->frame, v, dv);
    }
}

static void
test_builder_matches_niff2_sample (void)
{
  g_autoptr (GBytes) sample = tress_test_load_sample ("niff/synthetic-all-channels.nif");
  g_autoptr (TressNiffBuilder) b = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) built = NULL;
  TressNiffFile *file;
  const char *names[]
      = { "generated_scene",     "root_null",         "key_anim.anim",       "key_anim.obj",
          "euler_hermite.anim",  "euler_hermite.obj", "axis_classical.anim", "axis_classical.obj",
          "orientation_xy.anim", "orientation_xy.obj" };
  float trs[9];
  guint g;

  if (sample == NULL)
    return;
  file = niff_parse_ok (sample);
  b = tress_niff_builder_new (TRUE, 0);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    tress_niff_builder_add_name (b, names[i]);
  g = tress_niff_builder_add_group (b, 2, TRESS_NIFF_ANIM_KEY, 30, 0);
  for (guint r = 0; r < 4; r++)
    {
      trs_of (file, 0, r, trs);
      tress_niff_builder_add_key (b, g, r * 10, TRESS_NIFF_KEY_LINEAR, trs);
    }
  g = tress_niff_builder_add_group (b, 4, TRESS_NIFF_ANIM_STATIC, 30, 0);
  add_channel_from (b, g, file, "euler_hermite.anim", TRESS_NIFF_ROTATE_X);
  add_channel_from (b, g, file, "euler_hermite.anim", TRESS_NIFF_ROTATE_Y);
  add_channel_from (b, g, file, "euler_hermite.anim", TRESS_NIFF_ROTATE_Z);
  add_channel_from (b, g, file, "euler_hermite.anim", TRESS_NIFF_TRANSLATION);
  add_channel_from (b, g, file, "euler_hermite.anim", TRESS_NIFF_UNIQUE_SCALE);
  g = tress_niff_builder_add_group (b, 6, TRESS_NIFF_ANIM_STATIC, 30, 0);
  add_channel_from (b, g, file, "axis_classical.anim", TRESS_NIFF_ROTATE_AXIS);
  add_channel_from (b, g, file, "axis_classical.anim", TRESS_NIFF_TRANSLATION);
  add_channel_from (b, g, file, "axis_classical.anim", TRESS_NIFF_CLASSICAL_SCALE);
  g = tress_niff_builder_add_group (b, 8, TRESS_NIFF_ANIM_STATIC, 30, 0);
  add_channel_from (b, g, file, "orientation_xy.anim", TRESS_NIFF_ORIENTATION_XY);
  add_channel_from (b, g, file, "orientation_xy.anim", TRESS_NIFF_TRANSLATION);
  for (guint i = 0; i < 4; i++)
    tress_niff_builder_add_object (b, 3 + 2 * i, i);
  built = tress_niff_builder_finish (b, &error);
  g_assert_no_error (error);
  tress_test_assert_bytes_equal (sample, built);
  fmt->free (file);
}

static TressCurve *
curve_at (TressNiffFile *file, const char *path)
{
  return fmt->curves->get_curve (file, find_curve (file, path));
}

/* NIFF1 with every record kind and every KEY interpolation. */
static void
test_builder_niff1_every_kind (void)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (FALSE, 0);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GBytes) again = NULL;
  TressNiffFile *file;
  const guint32 interps[]
      = { TRESS_NIFF_KEY_STATIC,  TRESS_NIFF_KEY_LINEAR, TRESS_NIFF_KEY_SLOWIN,
          TRESS_NIFF_KEY_SLOWOUT, TRESS_NIFF_KEY_SLOW,   TRESS_NIFF_KEY_LINEAR };
  guint g;

  tress_niff_builder_add_name (b, "scene");
  g = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "keys"), TRESS_NIFF_ANIM_KEY,
                                    30, 0);
  tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "keyed"), g);
  for (guint i = 0; i < G_N_ELEMENTS (interps); i++)
    {
      float trs[9] = { (float)(i * 4), 0, 0, 0, 0, 0, 1, 1, 1 };
      tress_niff_builder_add_key (b, g, i * 10, interps[i], trs);
    }
  g = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "still"),
                                    TRESS_NIFF_ANIM_STATIC, 0, 0);
  {
    const float trs[9] = { 1, 2, 3, 0.1f, 0.2f, 0.3f, 2, 2, 2 };
    tress_niff_builder_add_static (b, g, trs);
  }
  g = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "baked"),
                                    TRESS_NIFF_ANIM_FULL, 30, 0);
  for (guint i = 0; i < 5; i++)
    {
      float trs[9] = { 0, (float)(i * i), 0, 0, 0, 0, 1, 1, 1 };
      tress_niff_builder_add_full (b, g, trs);
    }
  g = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "face"),
                                    TRESS_NIFF_ANIM_BILLBOARD, 0, 0);
  tress_niff_builder_add_billboard (b, g, 0, 1);
  tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "card"), g);

  bytes = tress_niff_builder_finish (b, &error);
  g_assert_no_error (error);
  file = niff_parse_ok (bytes);
  assert_valid (file);
  again = serialize_ok (file);
  tress_test_assert_bytes_equal (bytes, again);
  assert_sizes_right (bytes);
  g_assert_cmpuint (tress_niff_file_get_n_groups (file), ==, 4);
  g_assert_cmpuint (tress_niff_group_get_n_records (file, 3), ==, 1);
  g_assert_cmpuint (fmt->curves->n_curves (file), ==, 18); /* KEY and FULL, 9 each */
  {
    g_autoptr (TressCurve) c = curve_at (file, "keys/Translate/X");
    g_assert_cmpstr (c->owner, ==, "keyed");
    for (guint i = 0; i < G_N_ELEMENTS (interps); i++)
      {
        g_assert_cmpfloat (tress_curve_evaluate (c, i * 10), ==, i * 4);
        g_assert_cmpuint (tress_curve_get_key (c, i)->native_interp, ==, interps[i]);
      }
    /* STATIC holds; LINEAR halfway; the SLOW kinds as the stated ease. */
    g_assert_cmpfloat (tress_curve_evaluate (c, 5), ==, 0);
    g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (c, 15), 6, 1e-9);
    g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (c, 25), 8 + 4 * 0.75, 1e-9); /* SLOWIN */
    g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (c, 35), 12 + 4 * 0.25,
                                    1e-9);                                             /* SLOWOUT */
    g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (c, 45), 16 + 4 * 0.5, 1e-9); /* SLOW */
    g_assert_true (tress_curve_get_key (c, 2)->flags & TRESS_KEY_EASE_ASSUMED);
    g_assert_nonnull (strstr (c->note, "assumed ease"));
  }
  {
    g_autoptr (TressCurve) c = curve_at (file, "baked/Translate/Y");
    for (guint i = 0; i < 5; i++)
      g_assert_cmpfloat (tress_curve_evaluate (c, i), ==, i * i);
  }
  fmt->free (file);
}

/* NIFF2 with all eight channels, all four interpolations, a constraint and
 * other extension data. */
static GBytes *
build_niff2_all (void)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (TRUE, 0);
  g_autoptr (GError) error = NULL;
  GBytes *bytes;
  const guint8 other[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
  guint g;

  tress_niff_builder_add_name (b, "scene");
  g = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "euler"),
                                    TRESS_NIFF_ANIM_STATIC, 30, 0);
  tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "A"), g);
  for (guint i = 0; i < 4; i++)
    {
      float v = (float)i, d = 0.5f;
      float t[3] = { (float)i, (float)(2 * i), -1 }, dt[3] = { 0.25f, 0, 0 };
      float s[3] = { 1, 1, 1 + 0.5f * i }, ds[3] = { 0, 0, 0 };
      tress_niff_builder_add_channel_key (b, g, TRESS_NIFF_ROTATE_X, TRESS_NIFF_CHANNEL_HERMITE,
                                          i * 10, &v, &d);
      tress_niff_builder_add_channel_key (b, g, TRESS_NIFF_ROTATE_Y, TRESS_NIFF_CHANNEL_LINEAR,
                                          i * 10, &v, &d);
      tress_niff_builder_add_channel_key (b, g, TRESS_NIFF_ROTATE_Z, TRESS_NIFF_CHANNEL_CONST,
                                          i * 10, &v, &d);
      tress_niff_builder_add_channel_key (b, g, TRESS_NIFF_TRANSLATION, TRESS_NIFF_CHANNEL_FULL, i,
                                          t, dt);
      tress_niff_builder_add_channel_key (b, g, TRESS_NIFF_UNIQUE_SCALE, TRESS_NIFF_CHANNEL_HERMITE,
                                          i * 10, s, ds);
    }
  tress_niff_builder_add_other_data (b, g, other, sizeof other);

  g = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "axis"),
                                    TRESS_NIFF_ANIM_STATIC, 30, 1);
  tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "B"), g);
  for (guint i = 0; i < 2; i++)
    {
      float ra[4] = { 0, 1, 0, (float)(i * 3) }, dra[4] = { 0, 0, 0, 0.1f };
      float cs[3] = { 1 + (float)i, 0.5f, 1 }, dcs[3] = { 0, 0, 0 };
      tress_niff_builder_add_channel_key (b, g, TRESS_NIFF_ROTATE_AXIS, TRESS_NIFF_CHANNEL_HERMITE,
                                          i * 30, ra, dra);
      tress_niff_builder_add_channel_key (b, g, TRESS_NIFF_CLASSICAL_SCALE,
                                          TRESS_NIFF_CHANNEL_LINEAR, i * 30, cs, dcs);
    }
  tress_niff_builder_set_constraint (b, g, 4, 0x00020000, 0);

  g = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "orient"),
                                    TRESS_NIFF_ANIM_STATIC, 30, 0);
  tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "C"), g);
  for (guint i = 0; i < 2; i++)
    {
      float o[6] = { 1, 0, 0, 0, 1, (float)i }, d[6] = { 0 };
      tress_niff_builder_add_channel_key (b, g, TRESS_NIFF_ORIENTATION_XY,
                                          TRESS_NIFF_CHANNEL_LINEAR, i * 30, o, d);
    }
  bytes = tress_niff_builder_finish (b, &error);
  g_assert_no_error (error);
  return bytes;
}

static void
test_builder_niff2_every_channel (void)
{
  g_autoptr (GBytes) bytes = build_niff2_all ();
  g_autoptr (GBytes) again = NULL;
  TressNiffFile *file = niff_parse_ok (bytes);

  assert_valid (file);
  again = serialize_ok (file);
  tress_test_assert_bytes_equal (bytes, again);
  assert_sizes_right (bytes);
  g_assert_cmpuint (tress_niff_group_get_channel_bits (file, 0), ==, 0x6e);
  g_assert_cmpuint (tress_niff_group_get_channel_bits (file, 1), ==, 0x81 | 0x1000);
  g_assert_cmpuint (tress_niff_group_get_channel_bits (file, 2), ==, 0x10);
  {
    g_autoptr (TressCurve) c = curve_at (file, "euler/RotateX/X");
    g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (c, 5),
                                    page_hermite (0, 1, 0.5, 0.5, 10, 0.5), 1e-9);
    g_assert_cmpfloat (tress_curve_get_key (c, 1)->in_slope, ==, 0.5);
  }
  {
    g_autoptr (TressCurve) c = curve_at (file, "euler/RotateY/Y");
    g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (c, 15), 1.5, 1e-9);
  }
  {
    g_autoptr (TressCurve) c = curve_at (file, "euler/RotateZ/Z");
    g_assert_cmpfloat (tress_curve_evaluate (c, 19), ==, 1);
  }
  {
    g_autoptr (TressCurve) c = curve_at (file, "euler/Translation/Y");
    g_assert_cmpuint (tress_curve_get_key (c, 0)->interp, ==, TRESS_INTERP_BAKED);
    for (guint i = 0; i < 4; i++)
      g_assert_cmpfloat (tress_curve_evaluate (c, i), ==, 2 * i);
  }
  {
    g_autoptr (TressCurve) c = curve_at (file, "axis/RotateAxis/Angle");
    g_assert_cmpstr (c->component, ==, "W");
    g_assert_cmpfloat (tress_curve_evaluate (c, 30), ==, 3);
    g_assert_false (c->loops);
  }
  {
    g_autoptr (TressCurve) c = curve_at (file, "orient/OrientationXY/Y axis Z");
    g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (c, 15), 0.5, 1e-9);
  }
  {
    g_autoptr (TressCurve) c = curve_at (file, "axis/ClassicalScale/X");
    g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (c, 15), 1.5, 1e-9);
  }
  {
    /* the dump names channels, constraints and the kept bytes */
    TressJsonWriter *jw = tress_json_writer_new ();
    g_autoptr (GBytes) text = NULL;
    g_autoptr (JsonParser) parser = json_parser_new ();
    JsonObject *ext, *position = NULL;
    JsonArray *groups, *constraints;
    gboolean other_8 = FALSE;

    fmt->dump (file, jw);
    text = tress_json_writer_free_to_bytes (jw);
    g_assert_true (json_parser_load_from_data (parser, g_bytes_get_data (text, NULL),
                                               (gssize)g_bytes_get_size (text), NULL));
    groups = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                           "anim_groups");
    ext = NULL;
    for (guint i = 0; i < json_array_get_length (groups) && ext == NULL; i++)
      {
        JsonObject *g = json_array_get_object_element (groups, i);
        JsonObject *e = json_object_get_object_member (g, "nintendo_extension");
        JsonArray *o = json_object_get_array_member (json_object_get_object_member (e, "channels"),
                                                     "OrientationXY");
        if (json_array_get_length (o) > 0)
          ext = e;
      }
    g_assert_nonnull (ext);
    g_assert_cmpint (json_object_get_int_member (
                         json_array_get_object_element (
                             json_object_get_array_member (
                                 json_object_get_object_member (ext, "channels"), "OrientationXY"),
                             0),
                         "interpolation"),
                     ==, 2);
    for (guint i = 0; i < json_array_get_length (groups); i++)
      {
        JsonObject *e = json_object_get_object_member (json_array_get_object_element (groups, i),
                                                       "nintendo_extension");

        if (json_object_has_member (e, "other_base64"))
          {
            gsize n = 0;
            g_autofree guchar *other
                = g_base64_decode (json_object_get_string_member (e, "other_base64"), &n);
            other_8 |= n == 8;
          }
        constraints = json_object_get_array_member (e, "constraints");
        for (guint k = 0; k < json_array_get_length (constraints); k++)
          {
            JsonObject *c = json_array_get_object_element (constraints, k);
            if (g_strcmp0 (json_object_get_string_member (c, "name"), "position") == 0
                && json_object_get_int_member (c, "kind") == 131072)
              position = c;
          }
      }
    g_assert_true (other_8);
    g_assert_nonnull (position);
    g_assert_cmpint (json_object_get_int_member (position, "kind"), ==, 131072);
    g_assert_cmpint (json_object_get_int_member (position, "node"), ==, 0);
  }
  fmt->free (file);
  {
    /* a user extension block is kept as read */
    g_autoptr (GBytes) user = with_user_block (bytes, 1);
    g_autoptr (GBytes) out = NULL;
    file = niff_parse_ok (user);
    assert_valid (file);
    out = serialize_ok (file);
    tress_test_assert_bytes_equal (user, out);
    fmt->free (file);
  }
}

static void
test_builder_demo (void)
{
  g_autoptr (GBytes) bytes = tress_niff_build_demo ();
  TressNiffFile *file = niff_parse_ok (bytes);
  guint hermite = 0, n = fmt->curves->n_curves (file);

  assert_valid (file);
  g_assert_cmpuint (tress_niff_file_get_n_groups (file), ==, 3);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (TressCurve) c = fmt->curves->get_curve (file, i);
      if (tress_curve_get_n_keys (c) > 0
          && tress_curve_get_key (c, 0)->interp == TRESS_INTERP_HERMITE)
        hermite++;
    }
  g_assert_cmpuint (hermite, >=, 3);
  fmt->free (file);
}

/* ---- edits ---- */

static void
set_curve_ok (TressNiffFile *file, guint index, TressCurve *c)
{
  g_autoptr (GError) error = NULL;
  double err = -1;

  g_assert_true (tress_curve_check_limits (c, NULL));
  g_assert_true (fmt->curves->set_curve (file, index, c, &err, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (err, >=, 0);
}

static void
set_curve_refused (TressNiffFile *file, guint index, TressCurve *c, const char *words)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) before = serialize_ok (file);
  g_autoptr (GBytes) after = NULL;

  g_assert_false (fmt->curves->set_curve (file, index, c, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_test_message ("refused: %s", error->message);
  g_assert_nonnull (strstr (error->message, words));
  after = serialize_ok (file);
  tress_test_assert_bytes_equal (before, after); /* nothing changed */
}

/* Saves, re-parses, validates and checks sizes and untouched bytes. */
static TressNiffFile *
save_and_reparse (TressNiffFile *file, GBytes *original)
{
  g_autoptr (GBytes) out = serialize_ok (file);
  TressNiffFile *again = niff_parse_ok (out);

  assert_valid (again);
  assert_sizes_right (out);
  assert_outside_unchanged (original, out);
  return again;
}

static void
test_edit_niff2_set_key (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/Rings.niff");
  TressNiffFile *file, *again;
  g_autoptr (TressCurve) c = NULL;
  g_autoptr (TressCurve) check = NULL;
  int idx;
  guint mv;

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  idx = find_curve (file, "HightRight_Animation/RotateZ/Z");
  c = fmt->curves->get_curve (file, idx);
  /* value, slope (both sides), interpolation, and a move to a free frame */
  tress_curve_get_key (c, 5)->value = 1.25;
  tress_curve_get_key (c, 5)->in_slope = tress_curve_get_key (c, 5)->out_slope = -0.5;
  tress_curve_get_key (c, 6)->interp = TRESS_INTERP_LINEAR;
  /* move the first key that has room after it */
  for (mv = 7; mv + 1 < tress_curve_get_n_keys (c); mv++)
    if (tress_curve_get_key (c, mv + 1)->frame - tress_curve_get_key (c, mv)->frame >= 2)
      break;
  g_assert_cmpuint (mv + 1, <, tress_curve_get_n_keys (c));
  tress_curve_get_key (c, mv)->frame += 1;
  set_curve_ok (file, idx, c);

  again = save_and_reparse (file, bytes);
  check = fmt->curves->get_curve (again, idx);
  g_assert_cmpuint (tress_curve_get_n_keys (check), ==, tress_curve_get_n_keys (c));
  g_assert_cmpfloat (tress_curve_get_key (check, 5)->value, ==, 1.25);
  g_assert_cmpfloat (tress_curve_get_key (check, 5)->out_slope, ==, -0.5);
  g_assert_cmpuint (tress_curve_get_key (check, 6)->interp, ==, TRESS_INTERP_LINEAR);
  g_assert_cmpuint (tress_curve_get_key (check, 6)->native_interp, ==, TRESS_NIFF_CHANNEL_LINEAR);
  g_assert_cmpfloat (tress_curve_get_key (check, mv)->frame, ==,
                     tress_curve_get_key (c, mv)->frame);
  for (guint k = 0; k < tress_curve_get_n_keys (c); k++)
    g_assert_cmpfloat (tress_curve_get_key (check, k)->value, ==,
                       (float)tress_curve_get_key (c, k)->value);
  fmt->free (again);
  fmt->free (file);
}

/* An empty scale channel stands for 1 on every axis: a first key inserted on
 * one component takes 1, and so do the others. */
static void
test_edit_niff2_empty_scale (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/synthetic-all-channels.nif");
  TressNiffFile *file;
  g_autoptr (TressCurve) x = NULL;
  g_autoptr (TressCurve) y = NULL;
  g_autoptr (GError) error = NULL;
  int ix, iy, k;

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  ix = find_curve (file, "orientation_xy.anim/UniqueScale/X");
  iy = find_curve (file, "orientation_xy.anim/UniqueScale/Y");
  x = fmt->curves->get_curve (file, ix);
  g_assert_cmpuint (tress_curve_get_n_keys (x), ==, 0);
  g_assert_cmpfloat (tress_curve_evaluate (x, 5), ==, 1);
  k = tress_curve_insert_on_curve (x, 10, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (tress_curve_get_key (x, k)->value, ==, 1);
  set_curve_ok (file, ix, x);
  y = fmt->curves->get_curve (file, iy);
  g_assert_cmpuint (tress_curve_get_n_keys (y), ==, 1);
  g_assert_cmpfloat (tress_curve_evaluate (y, 10), ==, 1);
  fmt->free (file);
}

/* Keys moved past the frames of other keys keep their records: the other
 * components move along with them, whatever the distance. */
static void
test_edit_moves_keep_records (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/synthetic-all-channels.nif");
  static const double shifts[] = { 10, 5 };

  if (bytes == NULL)
    return;
  for (guint s = 0; s < G_N_ELEMENTS (shifts); s++)
    {
      TressNiffFile *file = niff_parse_ok (bytes);
      int ix = find_curve (file, "euler_hermite.anim/Translation/X");
      int iz = find_curve (file, "euler_hermite.anim/Translation/Z");
      g_autoptr (TressCurve) x = fmt->curves->get_curve (file, ix);
      g_autoptr (TressCurve) z_before = fmt->curves->get_curve (file, iz);
      g_autoptr (TressCurve) z_after = NULL;
      double d = shifts[s];

      /* X's keys at 20 and 30 move later by d. */
      g_assert_cmpfloat (tress_curve_get_key (x, 2)->frame, ==, 20);
      tress_curve_get_key (x, 2)->frame += d;
      tress_curve_get_key (x, 3)->frame += d;
      set_curve_ok (file, ix, x);
      z_after = fmt->curves->get_curve (file, iz);
      g_assert_cmpuint (tress_curve_get_n_keys (z_after), ==, 4);
      g_assert_cmpfloat (tress_curve_get_key (z_after, 2)->frame, ==, 20 + d);
      g_assert_cmpfloat (tress_curve_get_key (z_after, 2)->value, ==,
                         tress_curve_get_key (z_before, 2)->value);
      g_assert_cmpfloat (tress_curve_get_key (z_after, 3)->frame, ==, 30 + d);
      g_assert_cmpfloat (tress_curve_get_key (z_after, 3)->value, ==,
                         tress_curve_get_key (z_before, 3)->value);
      fmt->free (file);
    }
}

static void
test_edit_niff2_insert_delete (void)
{
  g_autoptr (GBytes) plain = build_niff2_all ();
  g_autoptr (GBytes) bytes = with_user_block (plain, 2);
  TressNiffFile *file = niff_parse_ok (bytes), *again;
  g_autoptr (TressCurve) x = NULL;
  g_autoptr (TressCurve) y_before = NULL;
  g_autoptr (TressCurve) y_after = NULL;
  g_autoptr (TressCurve) rx = NULL;
  g_autoptr (GError) error = NULL;
  int ix = find_curve (file, "orient/OrientationXY/X axis X");
  int iy = find_curve (file, "orient/OrientationXY/Y axis Z");
  int irx = find_curve (file, "euler/RotateX/X");
  int k;

  /* Insert on a component: the record's other components keep their shape. */
  y_before = fmt->curves->get_curve (file, iy);
  x = fmt->curves->get_curve (file, ix);
  k = tress_curve_insert_on_curve (x, 12, &error);
  g_assert_no_error (error);
  g_assert_cmpint (k, ==, 1);
  tress_curve_get_key (x, k)->value = 0.5;
  set_curve_ok (file, ix, x);
  g_assert_cmpuint (tress_niff_group_get_n_channel_keys (file, 2, TRESS_NIFF_ORIENTATION_XY), ==,
                    3);
  y_after = fmt->curves->get_curve (file, iy);
  g_assert_cmpuint (tress_curve_get_n_keys (y_after), ==, 3);
  for (double f = 0; f <= 30; f += 1)
    g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (y_after, f),
                                    tress_curve_evaluate (y_before, f), 1e-6);

  /* Delete a key of a one-component channel. */
  rx = fmt->curves->get_curve (file, irx);
  tress_curve_remove_key (rx, 2);
  set_curve_ok (file, irx, rx);
  g_assert_cmpuint (tress_niff_group_get_n_channel_keys (file, 0, TRESS_NIFF_ROTATE_X), ==, 3);
  g_assert_cmpuint (tress_niff_group_get_n_channel_keys (file, 0, TRESS_NIFF_ROTATE_Y), ==, 4);

  again = save_and_reparse (file, bytes);
  {
    /* other extension data (group 0) and the user block (group 2) kept */
    g_autoptr (GBytes) out = serialize_ok (file);
    gsize size = 0;
    const guint8 *d = g_bytes_get_data (out, &size);
    gsize g0 = niff_raw_group (d, size, 0), g2 = niff_raw_group (d, size, 2);
    gsize g0_ext_end = g0 + 48 + niff_be32 (d + g0 + 0x28);
    const guint8 other[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

    g_assert_cmpmem (d + g0_ext_end - 8, 8, other, 8);
    g_assert_cmpuint (niff_be32 (d + g2 + 0x2C), ==, 8);
    g_assert_cmpmem (d + g2 + niff_be32 (d + g2 + 0x0C) - 8, 8, "USERDATA", 8);
  }
  {
    g_autoptr (TressCurve) c = fmt->curves->get_curve (again, ix);
    g_assert_cmpfloat (tress_curve_get_key (c, 1)->frame, ==, 12);
    g_assert_cmpfloat (tress_curve_get_key (c, 1)->value, ==, 0.5);
  }
  {
    g_autoptr (TressCurve) c = fmt->curves->get_curve (again, irx);
    g_assert_cmpuint (tress_curve_get_n_keys (c), ==, 3);
    g_assert_cmpfloat (tress_curve_get_key (c, 2)->frame, ==, 30);
  }
  fmt->free (again);
  fmt->free (file);
}

/* Keys into an empty channel set its bit; emptying a channel clears it. */
static void
test_edit_niff2_channel_bits (void)
{
  g_autoptr (GBytes) bytes = build_niff2_all ();
  TressNiffFile *file = niff_parse_ok (bytes), *again;
  int is = find_curve (file, "orient/UniqueScale/Y");
  int io = find_curve (file, "orient/OrientationXY/X axis Y");
  g_autoptr (TressCurve) s = fmt->curves->get_curve (file, is);
  g_autoptr (TressCurve) o = fmt->curves->get_curve (file, io);
  TressKey key = { .frame = 4, .value = 2, .interp = TRESS_INTERP_HERMITE };

  g_assert_cmpuint (tress_curve_get_n_keys (s), ==, 0);
  tress_curve_insert_key (s, &key);
  set_curve_ok (file, is, s);
  g_assert_cmpuint (tress_niff_group_get_channel_bits (file, 2), ==, 0x10 | 0x40);
  {
    /* The new record's other components are the channel's defaults. */
    g_autoptr (TressCurve) sx = curve_at (file, "orient/UniqueScale/X");
    g_assert_cmpfloat (tress_curve_evaluate (sx, 4), ==, 1);
  }
  /* The channel's keys are shared by its six components: emptying one keeps
   * the records the others need (that one reads its default there); emptying
   * every one removes the channel and its bit. */
  {
    int ix = find_curve (file, "orient/OrientationXY/X axis X");
    g_autoptr (TressCurve) x_before = fmt->curves->get_curve (file, ix);
    g_autoptr (TressCurve) x_after = NULL;
    g_autoptr (TressCurve) o_after = NULL;

    while (tress_curve_get_n_keys (o) > 0)
      tress_curve_remove_key (o, 0);
    set_curve_ok (file, io, o);
    g_assert_cmpuint (tress_niff_group_get_channel_bits (file, 2), ==, 0x10 | 0x40);
    x_after = fmt->curves->get_curve (file, ix);
    o_after = fmt->curves->get_curve (file, io);
    for (double f = 0; f <= 30; f += 0.5)
      {
        g_assert_cmpfloat (tress_curve_evaluate (x_after, f), ==,
                           tress_curve_evaluate (x_before, f));
        g_assert_cmpfloat (tress_curve_evaluate (o_after, f), ==, o_after->rest_value);
      }
  }
  for (guint c = 0; c < 6; c++)
    {
      static const char *const names[]
          = { "X axis X", "X axis Y", "X axis Z", "Y axis X", "Y axis Y", "Y axis Z" };
      g_autofree char *path = g_strdup_printf ("orient/OrientationXY/%s", names[c]);
      int ic = find_curve (file, path);
      g_autoptr (TressCurve) cc = fmt->curves->get_curve (file, ic);

      while (tress_curve_get_n_keys (cc) > 0)
        tress_curve_remove_key (cc, 0);
      set_curve_ok (file, ic, cc);
    }
  g_assert_cmpuint (tress_niff_group_get_channel_bits (file, 2), ==, 0x40);
  again = save_and_reparse (file, bytes);
  g_assert_cmpuint (tress_niff_group_get_channel_bits (again, 2), ==, 0x40);
  fmt->free (again);
  fmt->free (file);
}

static void
test_edit_niff1_key (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/3hedra.niff");
  TressNiffFile *file, *again;
  g_autoptr (TressCurve) ry = NULL;
  g_autoptr (TressCurve) tx_before = NULL;
  g_autoptr (TressCurve) tx_after = NULL;
  g_autoptr (GError) error = NULL;
  int iry, itx;
  int k;

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  iry = find_curve (file, "hedra_green_Animation/Rotate/Y");
  itx = find_curve (file, "hedra_green_Animation/Translate/X");
  tx_before = fmt->curves->get_curve (file, itx);
  ry = fmt->curves->get_curve (file, iry);
  g_assert_cmpuint (tress_curve_get_n_keys (ry), ==, 5);

  /* insert at frame 7 with a new value, change the interpolation of key 1 */
  k = tress_curve_insert_on_curve (ry, 7, &error);
  g_assert_no_error (error);
  tress_curve_get_key (ry, k)->value = 1.0;
  tress_curve_get_key (ry, 3)->interp = TRESS_INTERP_HERMITE; /* → SLOW */
  set_curve_ok (file, iry, ry);
  g_assert_cmpuint (tress_niff_group_get_n_records (file, 0), ==, 6);
  tx_after = fmt->curves->get_curve (file, itx);
  g_assert_cmpuint (tress_curve_get_n_keys (tx_after), ==, 6);
  for (double f = 0; f <= 29; f += 0.5)
    g_assert_cmpfloat (tress_curve_evaluate (tx_after, f), ==, tress_curve_evaluate (tx_before, f));

  /* delete a middle key */
  g_clear_pointer (&ry, tress_curve_unref);
  ry = fmt->curves->get_curve (file, iry);
  tress_curve_remove_key (ry, 4);
  set_curve_ok (file, iry, ry);
  g_assert_cmpuint (tress_niff_group_get_n_records (file, 0), ==, 5);

  again = save_and_reparse (file, bytes); /* validate checks the next-key chain */
  {
    g_autoptr (TressCurve) c = fmt->curves->get_curve (again, iry);
    const double frames[] = { 0, 7, 14, 15, 29 };
    g_assert_cmpuint (tress_curve_get_n_keys (c), ==, 5);
    for (guint i = 0; i < 5; i++)
      g_assert_cmpfloat (tress_curve_get_key (c, i)->frame, ==, frames[i]);
    g_assert_cmpfloat (tress_curve_get_key (c, 1)->value, ==, 1.0);
    g_assert_cmpuint (tress_curve_get_key (c, 3)->native_interp, ==, TRESS_NIFF_KEY_SLOW);
    g_assert_true (tress_curve_get_key (c, 3)->flags & TRESS_KEY_EASE_ASSUMED);
  }
  fmt->free (again);

  /* the initial and final records stay */
  g_clear_pointer (&ry, tress_curve_unref);
  ry = fmt->curves->get_curve (file, iry);
  tress_curve_remove_key (ry, 0);
  set_curve_refused (file, iry, ry, "initial record");
  g_clear_pointer (&ry, tress_curve_unref);
  ry = fmt->curves->get_curve (file, iry);
  tress_curve_remove_key (ry, tress_curve_get_n_keys (ry) - 1);
  set_curve_refused (file, iry, ry, "final record");
  fmt->free (file);
}

/* A NIFF1 file with one KEY group: Translate X goes 0, 4, 8, 12 at frames 0,
 * 10, 20, 30 with LINEAR, SLOW, LINEAR segments. */
static GBytes *
build_niff1_keys (void)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (FALSE, 0);
  g_autoptr (GError) error = NULL;
  const guint32 interps[] = { TRESS_NIFF_KEY_LINEAR, TRESS_NIFF_KEY_SLOW, TRESS_NIFF_KEY_LINEAR,
                              TRESS_NIFF_KEY_LINEAR };
  GBytes *bytes;
  guint g;

  tress_niff_builder_add_name (b, "scene");
  g = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "keys"), TRESS_NIFF_ANIM_KEY,
                                    30, 0);
  tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "keyed"), g);
  for (guint i = 0; i < G_N_ELEMENTS (interps); i++)
    {
      float trs[9] = { (float)(i * 4), 0, 0, 0, 0, 0, 1, 1, 1 };
      tress_niff_builder_add_key (b, g, i * 10, interps[i], trs);
    }
  bytes = tress_niff_builder_finish (b, &error);
  g_assert_no_error (error);
  return bytes;
}

/* KEY records store no slopes: the curve says so, set_curve accepts any slopes
 * (broken ones too), keeps frames, values and interpolation, reports how far
 * the stored shape is from the given one, and hands back the derived slopes. */
static void
test_edit_niff1_derived_slopes (void)
{
  g_autoptr (GBytes) bytes = build_niff1_keys ();
  g_autoptr (GBytes) plain = NULL;
  g_autoptr (GBytes) out = NULL;
  g_autoptr (TressCurve) c = NULL;
  g_autoptr (TressCurve) back = NULL;
  g_autoptr (GError) error = NULL;
  TressNiffFile *file = niff_parse_ok (bytes);
  int tx = find_curve (file, "keys/Translate/X");
  double err = -1;

  c = fmt->curves->get_curve (file, tx);
  g_assert_true (c->limits.slopes_derived);
  g_assert_false (c->limits.tied_tangents);
  /* derived: LINEAR 0.4 per frame, SLOW at rest on both ends */
  g_assert_cmpfloat_with_epsilon (tress_curve_get_key (c, 0)->out_slope, 0.4, 1e-12);
  g_assert_cmpfloat (tress_curve_get_key (c, 1)->out_slope, ==, 0);
  g_assert_cmpfloat (tress_curve_get_key (c, 2)->in_slope, ==, 0);

  /* unchanged slopes: nothing lost, the stored bytes stay */
  g_assert_true (fmt->curves->set_curve (file, tx, c, &err, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (err, ==, 0);
  plain = serialize_ok (file);
  tress_test_assert_bytes_equal (bytes, plain);

  /* broken, steep slopes on the SLOW segment and a new value: accepted */
  tress_curve_get_key (c, 1)->out_slope = 3;
  tress_curve_get_key (c, 1)->in_slope = -2;
  tress_curve_get_key (c, 1)->flags |= TRESS_KEY_BROKEN;
  tress_curve_get_key (c, 2)->in_slope = 5;
  tress_curve_get_key (c, 2)->value = 9;
  g_assert_true (fmt->curves->set_curve (file, tx, c, &err, &error));
  g_assert_no_error (error);
  /* the given curve bulges in the SLOW segment; the stored one does not */
  g_assert_cmpfloat (err, >, 1);
  {
    double given = tress_curve_evaluate (c, 15);
    g_clear_pointer (&back, tress_curve_unref);
    back = fmt->curves->get_curve (file, tx);
    g_assert_cmpfloat (fabs (tress_curve_evaluate (back, 15) - given), <=, err);
  }
  g_assert_true (back->limits.slopes_derived);
  g_assert_cmpfloat (tress_curve_get_key (back, 2)->value, ==, 9);
  g_assert_cmpuint (tress_curve_get_key (back, 1)->native_interp, ==, TRESS_NIFF_KEY_SLOW);
  /* the slopes come from the interpolation, not from the edit */
  g_assert_cmpfloat (tress_curve_get_key (back, 1)->out_slope, ==, 0);
  g_assert_cmpfloat (tress_curve_get_key (back, 2)->in_slope, ==, 0);
  g_assert_cmpfloat_with_epsilon (tress_curve_get_key (back, 2)->out_slope, 0.3, 1e-6);
  g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (back, 15), 4 + 5 * 0.5, 1e-6);

  /* the group's length follows its last key, on every component */
  g_assert_cmpfloat (back->frame_count, ==, 30);
  tress_curve_get_key (back, 3)->frame = 42;
  g_assert_true (fmt->curves->set_curve (file, tx, back, &err, &error));
  g_assert_no_error (error);
  {
    g_autoptr (TressCurve) sz = curve_at (file, "keys/Scale/Z");
    g_assert_cmpfloat (sz->frame_count, ==, 42);
    g_assert_cmpfloat (tress_curve_get_key (sz, 3)->frame, ==, 42);
  }

  out = serialize_ok (file);
  fmt->free (file);
  file = niff_parse_ok (out);
  assert_valid (file);
  fmt->free (file);
}

/* NIFF2 channels store slopes: they are not derived. */
static void
test_edit_niff2_slopes_stored (void)
{
  g_autoptr (GBytes) bytes = tress_niff_build_demo ();
  TressNiffFile *file = niff_parse_ok (bytes);
  guint n = fmt->curves->n_curves (file);

  g_assert_cmpuint (n, >, 0);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (TressCurve) c = fmt->curves->get_curve (file, i);
      g_assert_false (c->limits.slopes_derived);
      g_assert_true (c->limits.tied_tangents);
    }
  fmt->free (file);
}

static void
test_edit_niff1_full (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/dragon.nif");
  TressNiffFile *file, *again;
  g_autoptr (TressCurve) c = NULL;
  int idx;

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  idx = 3; /* group 0, Rotate/X */
  c = fmt->curves->get_curve (file, idx);
  g_assert_true (g_str_has_suffix (c->path, "/Rotate/X"));
  g_assert_cmpstr (c->kind, ==, "NIFF1 FULL");
  tress_curve_get_key (c, 5)->value = 0.75;
  set_curve_ok (file, idx, c);
  again = save_and_reparse (file, bytes);
  {
    g_autoptr (TressCurve) check = fmt->curves->get_curve (again, idx);
    g_assert_cmpfloat (tress_curve_evaluate (check, 5), ==, 0.75);
  }
  fmt->free (again);

  /* a gap in the frames cannot be stored */
  tress_curve_remove_key (c, 10);
  set_curve_refused (file, idx, c, "without gaps");
  fmt->free (file);
}

static void
test_edit_refusals (void)
{
  g_autoptr (GBytes) bytes = build_niff2_all ();
  TressNiffFile *file = niff_parse_ok (bytes);
  int irx = find_curve (file, "euler/RotateX/X");
  TressKey key = { .frame = 3, .value = 1, .interp = TRESS_INTERP_LINEAR };

  {
    g_autoptr (TressCurve) c = fmt->curves->get_curve (file, irx);
    tress_curve_get_key (c, 1)->frame = 10.5;
    set_curve_refused (file, irx, c, "whole frames");
  }
  {
    g_autoptr (TressCurve) c = fmt->curves->get_curve (file, irx);
    tress_curve_get_key (c, 1)->out_slope = 2;
    set_curve_refused (file, irx, c, "broken tangents");
  }
  {
    g_autoptr (TressCurve) c = fmt->curves->get_curve (file, irx);
    tress_curve_get_key (c, 0)->frame = -1;
    set_curve_refused (file, irx, c, "frames from 0");
  }
  {
    g_autoptr (TressCurve) c = fmt->curves->get_curve (file, irx);
    tress_curve_get_key (c, 0)->value = 1e300;
    set_curve_refused (file, irx, c, "32-bit float");
  }
  /* A group without rotation or scale lists every channel; once one rotation
   * (or scale) channel has keys, the ones the format forbids beside it refuse. */
  {
    g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (TRUE, 0);
    g_autoptr (GBytes) plain = NULL;
    TressNiffFile *f2;
    const float t[3] = { 1, 2, 3 }, d[3] = { 0 };
    guint g = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "move"),
                                            TRESS_NIFF_ANIM_STATIC, 30, 0);
    int irz, iaxis, ious, ics;

    tress_niff_builder_add_channel_key (b, g, TRESS_NIFF_TRANSLATION, TRESS_NIFF_CHANNEL_LINEAR, 0,
                                        t, d);
    plain = tress_niff_builder_finish (b, NULL);
    f2 = niff_parse_ok (plain);
    g_assert_cmpuint (fmt->curves->n_curves (f2), ==, 22);
    irz = find_curve (f2, "move/RotateZ/Z");
    iaxis = find_curve (f2, "move/RotateAxis/Angle");
    ious = find_curve (f2, "move/UniqueScale/X");
    ics = find_curve (f2, "move/ClassicalScale/Y");
    {
      g_autoptr (TressCurve) c = fmt->curves->get_curve (f2, irz);
      tress_curve_insert_key (c, &key);
      set_curve_ok (f2, irz, c);
    }
    {
      g_autoptr (TressCurve) c = fmt->curves->get_curve (f2, iaxis);
      tress_curve_insert_key (c, &key);
      set_curve_refused (f2, iaxis, c, "forbids the combination");
    }
    {
      g_autoptr (TressCurve) c = fmt->curves->get_curve (f2, ious);
      tress_curve_insert_key (c, &key);
      set_curve_ok (f2, ious, c);
    }
    {
      g_autoptr (TressCurve) c = fmt->curves->get_curve (f2, ics);
      tress_curve_insert_key (c, &key);
      set_curve_refused (f2, ics, c, "UniqueScale");
    }
    g_assert_cmpuint (tress_niff_group_get_channel_bits (f2, 0), ==, 0x20 | 0x08 | 0x40);
    fmt->free (f2);
  }
  fmt->free (file);
}

/* Undo through the history: save_state / restore_state give the same bytes. */
typedef struct
{
  TressCommand parent;
  guint index;
  GBytes *before;
  GBytes *after;
} CurveCommand;

static void
curve_command_apply (TressCommand *cmd, gpointer target, gboolean undo)
{
  CurveCommand *self = (CurveCommand *)cmd;
  fmt->curves->restore_state (target, self->index, undo ? self->before : self->after);
}

static void
curve_command_finalize (TressCommand *cmd)
{
  CurveCommand *self = (CurveCommand *)cmd;
  g_bytes_unref (self->before);
  g_bytes_unref (self->after);
}

static const TressCommandClass curve_command_class = {
  .type_name = "NiffTestCurve",
  .apply = curve_command_apply,
  .finalize = curve_command_finalize,
};

static void
test_edit_undo (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/kirikobu.niff");
  TressNiffFile *file;
  g_autoptr (TressHistory) history = NULL;
  g_autoptr (TressCurve) c = NULL;
  g_autoptr (GBytes) edited = NULL;
  g_autoptr (GBytes) undone = NULL;
  g_autoptr (GBytes) redone = NULL;
  CurveCommand *cmd;
  guint idx = 1; /* upvector_Animation/Translate/Y */

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  history = tress_history_new (file);
  cmd = tress_command_alloc (sizeof (CurveCommand), &curve_command_class, "Delete key", NULL);
  cmd->index = idx;
  cmd->before = fmt->curves->save_state (file, idx);
  c = fmt->curves->get_curve (file, idx);
  tress_curve_remove_key (c, 50);
  tress_curve_get_key (c, 10)->value += 1;
  set_curve_ok (file, idx, c);
  cmd->after = fmt->curves->save_state (file, idx);
  tress_history_push (history, &cmd->parent);
  edited = serialize_ok (file);
  g_assert_cmpuint (g_bytes_get_size (edited), ==, g_bytes_get_size (bytes) - 64);

  g_assert_true (tress_history_undo (history));
  undone = serialize_ok (file);
  tress_test_assert_bytes_equal (bytes, undone);
  g_assert_true (tress_history_redo (history));
  redone = serialize_ok (file);
  tress_test_assert_bytes_equal (edited, redone);
  g_clear_object (&history);
  fmt->free (file);
}

/* ---- automatic fixes ---- */

/* Offset of the nintendo extension block of AnimGroup @g in raw bytes. */
static gsize
raw_ext (const guint8 *d, gsize size, guint g)
{
  gsize pos = niff_raw_group (d, size, g);
  gsize rec = pos + 48;

  for (guint r = 0; r < niff_be32 (d + pos + 0x1C); r++)
    rec += niff_be32 (d + rec + 8);
  return rec;
}

static GBytes *
patched_words (GBytes *bytes, const gsize *offsets, const guint32 *values, guint n)
{
  gsize size = 0;
  const guint8 *src = g_bytes_get_data (bytes, &size);
  guint8 *d = g_memdup2 (src, size);

  for (guint i = 0; i < n; i++)
    niff_put32 (d + offsets[i], values[i]);
  return g_bytes_new_take (d, size);
}

/* Every problem offers a fix; fix_all applies them as one undo step, after
 * which validate is clean; undo gives back the very same bytes. */
static void
check_fix_all (GBytes *broken, guint n_problems)
{
  TressNiffFile *file = niff_parse_ok (broken);
  g_autoptr (GPtrArray) problems = fmt->validate (file);
  g_autoptr (TressHistory) history = tress_history_new (file);
  g_autoptr (GBytes) fixed = NULL;
  g_autoptr (GBytes) undone = NULL;
  g_autoptr (GBytes) redone = NULL;
  g_autoptr (GError) error = NULL;
  TressNiffFile *again;

  g_assert_cmpuint (problems->len, ==, n_problems);
  for (guint i = 0; i < problems->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (problems, i);
      g_autofree char *text = tress_problem_to_string (p);
      g_test_message ("%s", text);
      g_assert_nonnull (p->fix);
      g_assert_cmpint (p->fix_id, >=, 0);
      g_assert_cmpint (p->fix_id, <, TRESS_NIFF_N_FIXES);
    }
  g_assert_cmpuint (fmt->fix_all (file, history, &error), ==, n_problems);
  g_assert_no_error (error);
  assert_valid (file);
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 1);
  fixed = serialize_ok (file);
  again = niff_parse_ok (fixed);
  assert_valid (again);
  assert_sizes_right (fixed);
  g_assert_cmpuint (fmt->fix_all (again, NULL, &error), ==, 0); /* nothing left to do */
  g_assert_no_error (error);
  fmt->free (again);

  g_assert_true (tress_history_undo (history));
  undone = serialize_ok (file);
  tress_test_assert_bytes_equal (broken, undone);
  g_assert_true (tress_history_redo (history));
  redone = serialize_ok (file);
  tress_test_assert_bytes_equal (fixed, redone);
  g_clear_object (&history);
  fmt->free (file);
}

static void
test_fix_niff1 (void)
{
  g_autoptr (GBytes) bytes = build_niff1_keys ();
  gsize size = 0;
  const guint8 *d = g_bytes_get_data (bytes, &size);
  gsize group = niff_raw_group (d, size, 0);
  gsize rec = group + 48; /* KEY records are 64 bytes: tag, index, size, key, next, … */
  const gsize offsets[] = {
    0x58,           /* the Name list's size field */
    group + 4,      /* the group's index */
    group + 0x14,   /* the anim type: the records are KEY records */
    rec + 64 + 4,   /* record 1's index */
    rec + 128 + 16, /* record 2's next key */
    rec + 192 + 16, /* the last record's next key */
  };
  const guint32 values[] = { niff_be32 (d + 0x58) + 4, 7, 9, 5, 99, 30 };
  g_autoptr (GBytes) broken = patched_words (bytes, offsets, values, G_N_ELEMENTS (offsets));

  check_fix_all (broken, 6);
}

static void
test_fix_niff2 (void)
{
  g_autoptr (GBytes) bytes = tress_niff_build_demo ();
  gsize size = 0;
  const guint8 *d = g_bytes_get_data (bytes, &size);
  gsize ext = raw_ext (d, size, 0);
  guint32 bits = niff_be32 (d + ext);
  guint used = 0, empty = 0;
  g_autoptr (GBytes) broken = NULL;

  while (!((bits >> used) & 1))
    used++;
  while ((bits >> empty) & 1 || (empty == 4 && (bits & 0xF)) || (empty == 7 && (bits & 0x40))
         || (empty == 6 && (bits & 0x80)))
    empty++;
  g_assert_cmpuint (empty, <, 8);
  {
    const gsize offsets[] = { ext, niff_raw_group (d, size, 1) + 4 };
    const guint32 values[] = { (bits & ~(1u << used)) | (1u << empty), 0 };
    broken = patched_words (bytes, offsets, values, G_N_ELEMENTS (offsets));
  }
  check_fix_all (broken, 3);
}

/* A NIFF2 version on a file whose groups have no extension block: the blocks
 * are added; the header size (NIFF1's) has no automatic fix and stays reported. */
static void
test_fix_missing_extension (void)
{
  g_autoptr (GBytes) bytes = build_niff1_keys ();
  const gsize offsets[] = { 0 };
  const guint32 values[] = { 0x00000200 };
  g_autoptr (GBytes) broken = patched_words (bytes, offsets, values, 1);
  TressNiffFile *file = niff_parse_ok (broken);
  g_autoptr (GPtrArray) problems = fmt->validate (file);
  g_autoptr (GPtrArray) after = NULL;
  g_autoptr (GError) error = NULL;
  guint with_fix = 0;

  for (guint i = 0; i < problems->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (problems, i);
      if (p->fix_id == TRESS_NIFF_FIX_EXTENSION)
        with_fix++;
      else
        g_assert_null (p->fix);
    }
  g_assert_cmpuint (with_fix, ==, 1);
  g_assert_cmpuint (problems->len, ==, 2);
  g_assert_cmpuint (fmt->fix_all (file, NULL, &error), ==, 1);
  g_assert_no_error (error);
  after = fmt->validate (file);
  g_assert_cmpuint (after->len, ==, 1);
  g_assert_null (((TressProblem *)g_ptr_array_index (after, 0))->fix);
  g_assert_cmpuint (tress_niff_group_get_channel_bits (file, 0), ==, 0);
  fmt->free (file);
}

/* Group @g's RotateX keys read from the bytes (a NIFF2 group without NIFF1
 * records): their count in *@n, the offset of the first (16 bytes each:
 * interpolation, frame, angle, slope) returned. */
static gsize
raw_rotate_x (const guint8 *d, gsize size, guint g, guint *n)
{
  gsize group = niff_raw_group (d, size, g), ext = group + 48;

  g_assert_cmpuint (niff_be32 (d + group + 0x1C), ==, 0);
  *n = niff_be32 (d + ext + 8);
  return ext + 148 + (gsize)niff_be32 (d + ext + 4) * 40;
}

static GBytes *
load_file (const char *path)
{
  g_autofree char *data = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (g_steal_pointer (&data), len);
}

/* tress-cli unwrap on one channel alone: Rings.niff's first RotateX with one
 * key set a whole turn away (set-key --value) is written back, read from the
 * bytes, with no change of more than half a turn between keys and every key
 * at its old angle plus whole turns (here the very same angle); unwrapping
 * it again changes nothing and says so. The editor's hint to unwrap is on
 * the curve only while it has such a jump. */
static void
test_cli_unwrap_one_channel (void)
{
  const char *curve = "Sweep15_3_Animation/RotateX/X";
  g_autoptr (GBytes) original = tress_test_load_sample ("niff/Rings.niff");
  g_autofree char *rings = tress_test_sample_path ("niff/Rings.niff");
  g_autofree char *bumped = g_build_filename (tress_test_tmpdir (), "rings-bumped.niff", NULL);
  g_autofree char *out = g_build_filename (tress_test_tmpdir (), "rings-one.niff", NULL);
  g_autofree char *again = g_build_filename (tress_test_tmpdir (), "rings-again.niff", NULL);
  g_autofree char *std_out = NULL;
  g_autoptr (GBytes) b1 = NULL, b2 = NULL;
  const guint8 *d0, *d1, *d2;
  gsize s0 = 0, s1 = 0, s2 = 0, k0, k1, k2;
  guint n0, n1, n2, jumps = 0;
  char value[G_ASCII_DTOSTR_BUF_SIZE];

  if (original == NULL)
    return;
  d0 = g_bytes_get_data (original, &s0);
  k0 = raw_rotate_x (d0, s0, 0, &n0);
  g_assert_cmpuint (n0, ==, 47);
  g_assert_cmpuint (niff_be32 (d0 + k0 + 16 * 14 + 4), ==, 139);
  for (guint i = 1; i < n0; i++)
    g_assert_cmpfloat (
        fabs (niff_bef (d0 + k0 + 16 * i + 8) - niff_bef (d0 + k0 + 16 * (i - 1) + 8)), <=, G_PI);
  {
    TressNiffFile *file = niff_parse_ok (original);
    g_autoptr (TressCurve) c = fmt->curves->get_curve (file, find_curve (file, curve));

    g_assert_null (strstr (c->note, "not unwrapped"));
    fmt->free (file);
  }
  g_ascii_formatd (value, sizeof value, "%.9g", niff_bef (d0 + k0 + 16 * 14 + 8) + 2 * G_PI);
  {
    const char *argv[] = { "set-key", rings, curve, "14", "--value", value, "-o", bumped, NULL };
    g_assert_cmpint (tress_test_run_cli (argv, NULL, NULL), ==, 0);
  }
  b1 = load_file (bumped);
  d1 = g_bytes_get_data (b1, &s1);
  k1 = raw_rotate_x (d1, s1, 0, &n1);
  g_assert_cmpuint (n1, ==, n0);
  for (guint i = 1; i < n1; i++)
    jumps += fabs (niff_bef (d1 + k1 + 16 * i + 8) - niff_bef (d1 + k1 + 16 * (i - 1) + 8)) > G_PI;
  g_assert_cmpuint (jumps, ==, 2);
  {
    TressNiffFile *file = niff_parse_ok (b1);
    g_autoptr (TressCurve) c = fmt->curves->get_curve (file, find_curve (file, curve));

    g_assert_nonnull (strstr (c->note, "not unwrapped: Unwrap Angles removes their jumps"));
    fmt->free (file);
  }

  {
    const char *argv[] = { "unwrap", bumped, curve, "-o", out, NULL };
    g_assert_cmpint (tress_test_run_cli (argv, &std_out, NULL), ==, 0);
    g_assert_nonnull (strstr (std_out, "unwrapped: Sweep15_3_Animation/RotateX/X\n"));
    g_assert_nonnull (strstr (std_out, "curves unwrapped: 1 of 1\n"));
    g_clear_pointer (&std_out, g_free);
  }
  b2 = load_file (out);
  d2 = g_bytes_get_data (b2, &s2);
  k2 = raw_rotate_x (d2, s2, 0, &n2);
  g_assert_cmpuint (n2, ==, n0);
  for (guint i = 0; i < n2; i++)
    {
      double now = niff_bef (d2 + k2 + 16 * i + 8), was = niff_bef (d0 + k0 + 16 * i + 8);
      double turns = (now - was) / (2 * G_PI);

      g_assert_cmpuint (niff_be32 (d2 + k2 + 16 * i + 4), ==, niff_be32 (d0 + k0 + 16 * i + 4));
      g_assert_cmpfloat (fabs (turns - round (turns)), <, 1e-6);
      g_assert_cmpfloat_with_epsilon (now, was, 1e-6);
      if (i > 0)
        g_assert_cmpfloat (fabs (now - niff_bef (d2 + k2 + 16 * (i - 1) + 8)), <=, G_PI);
    }
  {
    TressNiffFile *file = niff_parse_ok (b2);
    g_autoptr (TressCurve) c = fmt->curves->get_curve (file, find_curve (file, curve));

    g_assert_null (strstr (c->note, "not unwrapped"));
    assert_valid (file);
    fmt->free (file);
  }
  {
    const char *argv[] = { "unwrap", out, curve, "-o", again, NULL };
    g_autoptr (GBytes) b3 = NULL;

    g_assert_cmpint (tress_test_run_cli (argv, &std_out, NULL), ==, 0);
    g_assert_nonnull (strstr (std_out, "curves unwrapped: 0 of 1: nothing changed"));
    b3 = load_file (again);
    g_assert_true (g_bytes_equal (b3, b2));
  }
}

/* tress-cli fix FILE -o OUT writes a file that validates clean. */
static void
test_fix_cli (void)
{
  g_autoptr (GBytes) bytes = build_niff1_keys ();
  gsize size = 0;
  const guint8 *d = g_bytes_get_data (bytes, &size);
  const gsize offsets[] = { 0x58, niff_raw_group (d, size, 0) + 48 + 16 };
  const guint32 values[] = { 0, 11 };
  g_autoptr (GBytes) broken = patched_words (bytes, offsets, values, 2);
  g_autofree char *in = g_build_filename (tress_test_tmpdir (), "broken.nif", NULL);
  g_autofree char *out = g_build_filename (tress_test_tmpdir (), "fixed.nif", NULL);
  g_autofree char *std_out = NULL;

  g_assert_true (g_file_set_contents (in, g_bytes_get_data (broken, NULL), size, NULL));
  {
    const char *argv[] = { "validate", in, NULL };
    g_assert_cmpint (tress_test_run_cli (argv, &std_out, NULL), ==, 1);
    g_clear_pointer (&std_out, g_free);
  }
  {
    const char *argv[] = { "fix", in, "-o", out, NULL };
    g_assert_cmpint (tress_test_run_cli (argv, &std_out, NULL), ==, 0);
    g_assert_nonnull (strstr (std_out, "fixed 2 problems"));
    g_clear_pointer (&std_out, g_free);
  }
  {
    const char *argv[] = { "validate", out, NULL };
    g_assert_cmpint (tress_test_run_cli (argv, &std_out, NULL), ==, 0);
  }
  {
    g_autofree char *contents = NULL;
    gsize len = 0;
    g_assert_true (g_file_get_contents (out, &contents, &len, NULL));
    g_assert_cmpuint (len, ==, size);
    g_assert_cmpmem (contents, len, g_bytes_get_data (bytes, NULL), size); /* as built */
  }
}

/* ---- bad input ---- */

static void
expect_parse_error (GBytes *bytes, const char *words)
{
  g_autoptr (GError) error = NULL;
  gpointer model = fmt->parse (bytes, "bad", &error);

  g_assert_null (model);
  g_assert_nonnull (error);
  g_assert_true (error->domain == TRESS_ERROR);
  g_test_message ("%s", error->message);
  if (words != NULL)
    g_assert_nonnull (strstr (error->message, words));
  g_assert_nonnull (strstr (error->message, "offset 0x"));
}

static GBytes *
patched (GBytes *bytes, gsize at, guint32 v)
{
  gsize size = g_bytes_get_size (bytes);
  guint8 *d = g_malloc (size + 4);

  g_assert_cmpuint (at + 4, <=, size);
  memcpy (d, g_bytes_get_data (bytes, NULL), size);
  niff_put32 (d + at, v);
  return g_bytes_new_take (d, size);
}

static void
test_bad_truncated (void)
{
  for (guint s = 0; s < NIFF_TEST_N_SAMPLES; s++)
    {
      g_autoptr (GBytes) bytes = tress_test_load_sample (niff_test_samples[s]);
      gsize size;

      if (bytes == NULL)
        return;
      size = g_bytes_get_size (bytes);
      for (guint i = 0; i < 24; i++)
        {
          gsize cut = (size * i) / 24 + (i % 3);
          g_autoptr (GBytes) part = g_bytes_new_from_bytes (bytes, 0, cut);
          expect_parse_error (part, NULL);
        }
    }
  {
    /* a truncated file whose size field was fixed up: the list walk finds it */
    g_autoptr (GBytes) demo = tress_niff_build_demo ();
    gsize size = g_bytes_get_size (demo) - 20;
    g_autoptr (GBytes) part = g_bytes_new_from_bytes (demo, 0, size);
    g_autoptr (GBytes) fixed = patched (part, 4, (guint32)size);
    expect_parse_error (fixed, NULL);
  }
}

static void
test_bad_sizes_tags_counts (void)
{
  g_autoptr (GBytes) bytes = build_niff2_all ();
  const guint8 *d = g_bytes_get_data (bytes, NULL);
  gsize size = g_bytes_get_size (bytes);
  gsize anim = niff_raw_find_list (d, size, 0x000c0000);
  gsize obj = niff_raw_find_list (d, size, 0x00020000);
  gsize group = anim + niff_be32 (d + anim + 4);
  gsize ext = group + 48;

  struct
  {
    gsize at;
    guint32 value;
    const char *words;
  } cases[] = {
    { 4, (guint32)size + 4, "file size" },
    { 12, 120, "header size" },
    { obj + 8, niff_be32 (d + obj + 8) + 4, "after the Obj list" },
    { obj + 8, 0x7ffffff0, "Obj list size" },
    { obj + 12, 0x10000000, "Obj list element count" },
    { anim + 4, niff_be32 (d + anim + 4) + 4, "Anim list header size" },
    { anim + 24, niff_be32 (d + anim + 24) + 4, "Anim list size" },
    { group + 0x0C, niff_be32 (d + group + 0x0C) + 4, "AnimGroup size" },
    { group + 0x28, niff_be32 (d + group + 0x28) - 4, "AnimGroup size" },
    { group + 0x28, 100, "AnimGroup size" },
    { obj, 0x00990000, "list tag" },
    { anim, 0x00020000, "Obj list tag" },
    { group, 0x000c0200, "AnimGroup tag" },
    { group + 0x1C, 0x7fffffff, "record count" },
    { ext + 8, 0x40000000, "RotateX key count" },
    { ext + 24, 100, "Translation key count" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GBytes) bad = patched (bytes, cases[i].at, cases[i].value);
      g_test_message ("case %u", i);
      expect_parse_error (bad, cases[i].words);
    }
  {
    /* The size table gives group 0 less than a header (group 1 the rest, so
     * the table still adds up): the error names the table's entry. */
    const gsize at[] = { anim + 24, anim + 28 };
    const guint32 values[] = { 44, niff_be32 (d + anim + 28) + niff_be32 (d + anim + 24) - 44 };
    g_autoptr (GBytes) bad = patched_words (bytes, at, values, 2);
    g_autofree char *words = g_strdup_printf (
        "AnimList size of AnimGroup 0 at offset 0x%" G_GSIZE_MODIFIER "x", at[0]);

    expect_parse_error (bad, words);
  }

  {
    /* a NIFF1 record with a wrong size and one with an unknown tag */
    g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (FALSE, 0);
    g_autoptr (GBytes) one = NULL;
    const float trs[9] = { 0, 0, 0, 0, 0, 0, 1, 1, 1 };
    guint g = tress_niff_builder_add_group (b, 0, TRESS_NIFF_ANIM_KEY, 30, 0);
    const guint8 *od;
    gsize rec;

    tress_niff_builder_add_key (b, g, 0, TRESS_NIFF_KEY_LINEAR, trs);
    tress_niff_builder_add_key (b, g, 5, TRESS_NIFF_KEY_LINEAR, trs);
    one = tress_niff_builder_finish (b, NULL);
    od = g_bytes_get_data (one, NULL);
    rec = niff_raw_find_list (od, g_bytes_get_size (one), 0x000c0000) + 28 + 48;
    {
      g_autoptr (GBytes) bad = patched (one, rec + 8, 52);
      expect_parse_error (bad, "Anim record size");
    }
    {
      g_autoptr (GBytes) bad = patched (one, rec, 0x000c0102);
      expect_parse_error (bad, "Anim record tag");
    }
  }
  {
    g_autoptr (GBytes) tiny = g_bytes_new_static ("\x02\x01\x02\x00", 4);
    g_autoptr (GError) error = NULL;
    g_assert_null (fmt->parse (tiny, "tiny", &error));
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_TRUNCATED);
  }
}

/* What parses but breaks a rule is reported by validate. */
static void
test_bad_validate (void)
{
  g_autoptr (GBytes) bytes = build_niff2_all ();
  const guint8 *d = g_bytes_get_data (bytes, NULL);
  gsize size = g_bytes_get_size (bytes);
  gsize anim = niff_raw_find_list (d, size, 0x000c0000);
  gsize group = anim + niff_be32 (d + anim + 4);
  gsize ext = group + 48;
  gsize rx = ext + 148; /* RotateX key 0 (no RotateAxis keys in group 0) */

  /* Each problem names the offset of the field at fault (for the NIFF1
   * case: group 0's, among one problem per group). */
  struct
  {
    gsize at;
    guint32 value;
    const char *words;
    gsize offset;
  } cases[] = {
    { ext, 0x6f, "channel bit 0x1", ext },              /* bit without keys */
    { ext, 0x6c, "channel bit 0x2", ext },              /* keys without bit */
    { rx + 16 + 4, 50, "not after key", rx + 32 + 4 },  /* key 1 at 50, key 2 (at 20) is at fault */
    { rx + 20, 0, "key 1 at frame 0 is not", rx + 20 }, /* key 1 at 0, as key 0 */
    { rx + 16, 7, "interpolation 7", rx + 16 },         /* RotateX key 1 */
    { rx, 1, "FULL (one key per frame)", rx + 16 + 4 }, /* key 0 FULL, key 1 frames later */
    { 0x4C, 8, "Anim list size field", 0x4C },
    { 0x20, 8, "Obj list size field", 0x20 },
    { group + 0x14, 9, "anim type 9", group + 0x14 },
    { 0, (niff_be32 (d) & 0xFFFF0000) | 0x0100, "NIFF1 AnimGroup has no nintendo extension block",
      group + 0x28 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GBytes) bad = patched (bytes, cases[i].at, cases[i].value);
      TressNiffFile *file = niff_parse_ok (bad);
      g_autoptr (GPtrArray) problems = fmt->validate (file);
      gboolean found = FALSE;

      for (guint p = 0; p < problems->len; p++)
        {
          const TressProblem *problem = g_ptr_array_index (problems, p);
          g_autofree char *s = tress_problem_to_string (problem);
          g_test_message ("case %u: %s", i, s);
          if (strstr (s, cases[i].words) != NULL && problem->offset == cases[i].offset)
            found = TRUE;
        }
      g_assert_true (found);
      fmt->free (file);
    }
  {
    /* A NIFF1 file with extension blocks: their channels are not offered. */
    g_autoptr (GBytes) bad = patched (bytes, 0, (niff_be32 (d) & 0xFFFF0000) | 0x0100);
    TressNiffFile *file = niff_parse_ok (bad);
    TressNiffFile *niff2 = niff_parse_ok (bytes);

    g_assert_cmpuint (fmt->curves->n_curves (niff2), >, 0);
    for (guint i = 0; i < fmt->curves->n_curves (file); i++)
      {
        g_autoptr (TressCurve) c = fmt->curves->get_curve (file, i);
        g_assert_cmpstr (c->kind, !=, "NIFF2 channel");
      }
    fmt->free (niff2);
    fmt->free (file);
  }
  {
    /* Extension sizes that are not multiples of 4 (a user block of 8 bytes
     * split 1 + 7 with the nintendo block). */
    g_autoptr (GBytes) user = with_user_block (bytes, 0);
    const guint8 *ud = g_bytes_get_data (user, NULL);
    const gsize at[] = { group + 0x28, group + 0x2C };
    const guint32 values[] = { niff_be32 (ud + group + 0x28) + 1, 7 };
    g_autoptr (GBytes) bad = patched_words (user, at, values, 2);
    TressNiffFile *file = niff_parse_ok (bad);
    g_autoptr (GPtrArray) problems = fmt->validate (file);
    guint found = 0;

    for (guint p = 0; p < problems->len; p++)
      {
        const TressProblem *problem = g_ptr_array_index (problems, p);

        if (strstr (problem->message, "not a multiple of 4") != NULL)
          {
            g_assert_true (problem->offset == group + 0x28 || problem->offset == group + 0x2C);
            found++;
          }
      }
    g_assert_cmpuint (found, ==, 2);
    fmt->free (file);
  }

  {
    /* the builder writes what it is told, even a forbidden combination */
    g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (TRUE, 0);
    g_autoptr (GBytes) out = NULL;
    g_autoptr (GPtrArray) problems = NULL;
    TressNiffFile *file;
    guint g = tress_niff_builder_add_group (b, 0, TRESS_NIFF_ANIM_STATIC, 30, 0);
    const float v[4] = { 0, 0, 1, 0 }, dv[4] = { 0 };

    tress_niff_builder_add_channel_key (b, g, TRESS_NIFF_ROTATE_AXIS, 0, 0, v, dv);
    tress_niff_builder_add_channel_key (b, g, TRESS_NIFF_ROTATE_Y, 0, 0, v, dv);
    out = tress_niff_builder_finish (b, NULL);
    file = niff_parse_ok (out);
    problems = fmt->validate (file);
    g_assert_cmpuint (tress_problem_list_count (problems, TRESS_SEVERITY_ERROR), ==, 1);
    g_assert_nonnull (strstr (((TressProblem *)g_ptr_array_index (problems, 0))->message,
                              "forbids the combination"));
    fmt->free (file);
  }
}

/* ---- tress-cli ---- */

static void
test_cli (void)
{
  g_autofree char *demo = g_build_filename (tress_test_tmpdir (), "demo.niff", NULL);
  g_autofree char *out = g_build_filename (tress_test_tmpdir (), "edited.niff", NULL);
  g_autofree char *std_out = NULL;
  g_autofree char *std_err = NULL;
  g_autofree char *contents = NULL;
  gsize len = 0;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GBytes) edited = NULL;
  TressNiffFile *file;

  {
    const char *argv[] = { "generate-demo", "niff", "-o", demo, NULL };
    g_assert_cmpint (tress_test_run_cli (argv, &std_out, NULL), ==, 0);
    g_clear_pointer (&std_out, g_free);
  }
  g_assert_true (g_file_get_contents (demo, &contents, &len, NULL));
  bytes = g_bytes_new_take (g_steal_pointer (&contents), len);
  file = niff_parse_ok (bytes);
  assert_valid (file);
  fmt->free (file);
  {
    const char *argv[] = { "validate", demo, NULL };
    g_assert_cmpint (tress_test_run_cli (argv, &std_out, NULL), ==, 0);
    g_clear_pointer (&std_out, g_free);
  }
  {
    const char *argv[] = { "curves", demo, NULL };
    g_assert_cmpint (tress_test_run_cli (argv, &std_out, NULL), ==, 0);
    g_assert_nonnull (strstr (std_out, "Spin.anim/RotateY/Y"));
    g_clear_pointer (&std_out, g_free);
  }
  {
    const char *argv[] = { "eval", demo, "Swing.anim/RotateZ/Z", "24", NULL };
    g_assert_cmpint (tress_test_run_cli (argv, &std_out, NULL), ==, 0);
    g_assert_nonnull (strstr (std_out, "-0.6"));
    g_clear_pointer (&std_out, g_free);
  }
  {
    const char *argv[] = { "insert-key", demo, "Swing.anim/RotateZ/Z", "12", "-o", out, NULL };
    g_assert_cmpint (tress_test_run_cli (argv, &std_out, NULL), ==, 0);
    g_clear_pointer (&std_out, g_free);
  }
  {
    const char *argv[]
        = { "set-key", out, "Swing.anim/RotateZ/Z", "1", "--value", "0.25", "--frame", "13", "-o",
            out,       NULL };
    g_assert_cmpint (tress_test_run_cli (argv, &std_out, NULL), ==, 0);
    g_clear_pointer (&std_out, g_free);
  }
  {
    const char *argv[] = { "delete-key", out, "Swing.anim/RotateZ/Z", "0", "-o", out, NULL };
    g_assert_cmpint (tress_test_run_cli (argv, &std_out, NULL), ==, 0);
    g_clear_pointer (&std_out, g_free);
  }
  g_assert_true (g_file_get_contents (out, &contents, &len, NULL));
  edited = g_bytes_new_take (g_steal_pointer (&contents), len);
  file = niff_parse_ok (edited);
  assert_valid (file);
  assert_sizes_right (edited);
  assert_outside_unchanged (bytes, edited);
  {
    g_autoptr (TressCurve) c = curve_at (file, "Swing.anim/RotateZ/Z");
    g_assert_cmpuint (tress_curve_get_n_keys (c), ==, 3);
    g_assert_cmpfloat (tress_curve_get_key (c, 0)->frame, ==, 13);
    g_assert_cmpfloat (tress_curve_get_key (c, 0)->value, ==, 0.25);
  }
  fmt->free (file);
  {
    /* a fractional frame is refused: exit 1 and nothing written */
    g_autofree char *never = g_build_filename (tress_test_tmpdir (), "never.niff", NULL);
    const char *argv[]
        = { "set-key", demo, "Swing.anim/RotateZ/Z", "1", "--frame", "12.5", "-o", never, NULL };
    g_assert_cmpint (tress_test_run_cli (argv, NULL, &std_err), ==, 1);
    g_assert_nonnull (strstr (std_err, "whole frames"));
    g_assert_false (g_file_test (never, G_FILE_TEST_EXISTS));
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/niff/samples/roundtrip", test_samples_roundtrip);
  g_test_add_func ("/niff/samples/structure", test_samples_structure);
  g_test_add_func ("/niff/samples/curves-evaluate", test_samples_curves_evaluate);
  g_test_add_func ("/niff/samples/rings-hermite", test_rings_hermite);
  g_test_add_func ("/niff/builder/matches-niff1-sample", test_builder_matches_niff1_sample);
  g_test_add_func ("/niff/builder/matches-niff2-sample", test_builder_matches_niff2_sample);
  g_test_add_func ("/niff/builder/niff1-every-kind", test_builder_niff1_every_kind);
  g_test_add_func ("/niff/builder/niff2-every-channel", test_builder_niff2_every_channel);
  g_test_add_func ("/niff/builder/demo", test_builder_demo);
  g_test_add_func ("/niff/edit/niff2-set-key", test_edit_niff2_set_key);
  g_test_add_func ("/niff/edit/niff2-insert-delete", test_edit_niff2_insert_delete);
  g_test_add_func ("/niff/edit/niff2-empty-scale", test_edit_niff2_empty_scale);
  g_test_add_func ("/niff/edit/moves-keep-records", test_edit_moves_keep_records);
  g_test_add_func ("/niff/edit/niff2-channel-bits", test_edit_niff2_channel_bits);
  g_test_add_func ("/niff/edit/niff1-key", test_edit_niff1_key);
  g_test_add_func ("/niff/edit/niff1-full", test_edit_niff1_full);
  g_test_add_func ("/niff/edit/niff1-derived-slopes", test_edit_niff1_derived_slopes);
  g_test_add_func ("/niff/edit/niff2-slopes-stored", test_edit_niff2_slopes_stored);
  g_test_add_func ("/niff/edit/refusals", test_edit_refusals);
  g_test_add_func ("/niff/edit/undo", test_edit_undo);
  g_test_add_func ("/niff/fix/niff1", test_fix_niff1);
  g_test_add_func ("/niff/fix/niff2", test_fix_niff2);
  g_test_add_func ("/niff/fix/missing-extension", test_fix_missing_extension);
  g_test_add_func ("/niff/fix/cli", test_fix_cli);
  g_test_add_func ("/niff/cli/unwrap-one-channel", test_cli_unwrap_one_channel);
  g_test_add_func ("/niff/bad/truncated", test_bad_truncated);
  g_test_add_func ("/niff/bad/sizes-tags-counts", test_bad_sizes_tags_counts);
  g_test_add_func ("/niff/bad/validate", test_bad_validate);
  g_test_add_func ("/niff/cli", test_cli);
  return g_test_run ();
}
