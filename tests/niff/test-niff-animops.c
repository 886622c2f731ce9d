/* test-niff-animops.c: whole-AnimGroup operations (retime, end frame, loop
 * count, rename, duplicate, delete), read back from the raw bytes with the
 * format page's reader of niff-anim-ref.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "formats/niff/tress-niff-animops.h"
#include "niff-anim-ref.h"
#include "tress-test-utils.h"

#define SEED 0x5EED2024u

static const TressFormat *fmt = &tress_format_niff;

static GBytes *
save (TressNiffFile *file)
{
  g_autoptr (GError) error = NULL;
  GBytes *out = fmt->serialize (file, &error);

  g_assert_no_error (error);
  return out;
}

static void
assert_clean (TressNiffFile *file)
{
  g_autoptr (GPtrArray) problems = fmt->validate (file);

  for (guint i = 0; i < problems->len; i++)
    {
      g_autofree char *s = tress_problem_to_string (g_ptr_array_index (problems, i));
      g_test_message ("%s", s);
    }
  g_assert_cmpuint (tress_problem_list_count (problems, TRESS_SEVERITY_WARNING), ==, 0);
}

static void
assert_saves_as (TressNiffFile *file, GBytes *bytes)
{
  g_autoptr (GBytes) now = save (file);

  tress_test_assert_bytes_equal (now, bytes);
}

static gboolean
has_keys (const NrGroup *g)
{
  for (guint c = 0; g->has_ext && c < 8; c++)
    if (g->n_keys[c] > 0)
      return TRUE;
  for (guint r = 0; r < g->n_rec; r++)
    if (g->rec[r].tag == 0x000c0104 || g->rec[r].tag == 0x000c0103)
      return TRUE;
  return FALSE;
}

/* Whether @scale moves every key of @g onto a whole frame, and spreads its
 * FULL samples (a whole @scale), as the format page requires. */
static gboolean
retime_allowed (const NrGroup *g, double scale)
{
  gboolean whole = scale == floor (scale);

  for (guint r = 0; r < g->n_rec; r++)
    if ((g->rec[r].tag == 0x000c0103 && !whole)
        || (g->rec[r].tag == 0x000c0104
            && (g->rec[r].key * scale != floor (g->rec[r].key * scale))))
      return FALSE;
  for (guint c = 0; g->has_ext && c < 8; c++)
    for (guint i = 0; i < g->n_keys[c]; i++)
      if (g->keys[c][i].key * scale != floor (g->keys[c][i].key * scale)
          || (g->keys[c][i].interp == 1 && i + 1 < g->n_keys[c] && !whole))
        return FALSE;
  return TRUE;
}

/* The bytes of every group but @except, and everything outside the AnimList
 * save its size fields, are the same in @a and @b. */
static void
assert_others_same (GBytes *a, GBytes *b, guint except)
{
  gsize la, lb;
  const guint8 *da = g_bytes_get_data (a, &la), *db = g_bytes_get_data (b, &lb);
  gsize anim_a = niff_raw_find_list (da, la, 0x000c0000);
  gsize anim_b = niff_raw_find_list (db, lb, 0x000c0000);
  gsize end_a = anim_a + niff_be32 (da + anim_a + 8), end_b = anim_b + niff_be32 (db + anim_b + 8);
  guint n = niff_be32 (da + anim_a + 12);

  g_assert_cmpuint (anim_a, ==, anim_b);
  for (gsize i = 0; i < anim_a; i++)
    if (!(i >= 4 && i < 8) && !(i >= 0x4C && i < 0x50) && da[i] != db[i])
      g_error ("byte 0x%" G_GSIZE_MODIFIER "x before the AnimList changed", i);
  g_assert_cmpmem (da + end_a, la - end_a, db + end_b, lb - end_b);
  for (guint g = 0; g < n; g++)
    if (g != except)
      {
        gsize ga = niff_raw_group (da, la, g), gb = niff_raw_group (db, lb, g);

        g_assert_cmpmem (da + ga, niff_be32 (da + ga + 0x0C), db + gb, niff_be32 (db + gb + 0x0C));
      }
}

/* ---- retime ------------------------------------------------------------------------- */

/* Every sample group with keys, ×2 and ×3, and a seeded random factor that
 * may or may not move its keys onto whole frames. */
static void
test_retime_samples (void)
{
  static const double random_scales[] = { 0.5, 1.5, 0.25, 4, 5, 2.5 };
  g_autoptr (GRand) rand = g_rand_new_with_seed (SEED);
  guint checked = 0, refused = 0;

  for (guint s = 0; s < NIFF_TEST_N_SAMPLES; s++)
    {
      g_autoptr (GBytes) bytes = tress_test_load_sample (niff_test_samples[s]);
      gsize size;
      const guint8 *d;
      guint n;

      if (bytes == NULL)
        return;
      d = g_bytes_get_data (bytes, &size);
      if (niff_raw_find_list (d, size, 0x000c0000) == 0)
        continue;
      n = niff_be32 (d + niff_raw_find_list (d, size, 0x000c0000) + 12);
      for (guint g = 0; g < n; g++)
        {
          const double scales[3]
              = { 2, 3, random_scales[g_rand_int_range (rand, 0, G_N_ELEMENTS (random_scales))] };
          g_auto (NrGroup) a = { 0 };

          nr_group_read (d, size, g, &a);
          if (!has_keys (&a))
            continue;
          for (guint k = 0; k < G_N_ELEMENTS (scales); k++)
            {
              TressNiffFile *file = niff_parse_ok (bytes);
              g_autoptr (GError) error = NULL;
              g_autoptr (GBytes) after = NULL;
              g_auto (NrGroup) b = { 0 };
              gsize lb;
              const guint8 *db;

              if (!retime_allowed (&a, scales[k]))
                {
                  g_assert_false (tress_niff_retime (file, g, scales[k], NULL, &error));
                  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
                  assert_saves_as (file, bytes);
                  fmt->free (file);
                  refused++;
                  continue;
                }
              g_assert_true (tress_niff_retime (file, g, scales[k], NULL, &error));
              g_assert_no_error (error);
              after = save (file);
              db = g_bytes_get_data (after, &lb);
              nr_group_read (db, lb, g, &b);
              checked += nr_check_retimed (&a, &b, scales[k], 2e-6);
              assert_others_same (bytes, after, g);
              assert_clean (file);
              fmt->free (file);
            }
        }
    }
  g_test_message ("%u values compared, %u retimes refused", checked, refused);
  g_assert_cmpuint (checked, >, 5000);
  g_assert_cmpuint (refused, >, 0);
}

static void
test_retime_refusals (void)
{
  g_autoptr (GBytes) rings = tress_test_load_sample ("niff/Rings.niff");
  g_autoptr (GBytes) dragon = tress_test_load_sample ("niff/dragon.nif");
  TressNiffFile *file;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);

  if (rings == NULL || dragon == NULL)
    return;
  file = niff_parse_ok (rings);
  g_assert_false (tress_niff_retime (file, 0, 0.5, notes, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "RotateX at frame 49 → 24.5"));
  g_assert_nonnull (strstr (error->message, "NIFF stores whole frames only"));
  g_assert_cmpuint (notes->len, ==, 0);
  g_clear_error (&error);
  for (guint i = 0; i < 4; i++)
    {
      const double bad[] = { 0, -2, NAN, INFINITY };

      g_assert_false (tress_niff_retime (file, 0, bad[i], NULL, &error));
      g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE);
      g_clear_error (&error);
    }
  g_assert_false (tress_niff_retime (file, 0, 1e12, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "140 keys would pass frame 4294967294"));
  g_clear_error (&error);
  g_assert_false (tress_niff_retime (file, 6, 2, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_clear_error (&error);
  assert_saves_as (file, rings);
  g_assert_true (tress_niff_retime (file, 0, 2, notes, &error));
  g_assert_cmpstr (g_ptr_array_index (notes, 0), ==,
                   "AnimGroup \"Sweep15_3_Animation\": last frame 249 → 498");
  fmt->free (file);

  file = niff_parse_ok (dragon);
  g_assert_false (tress_niff_retime (file, 3, 1.5, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "one FULL record a frame (31)"));
  assert_saves_as (file, dragon);
  fmt->free (file);
}

/* ---- end frame and loop ------------------------------------------------------------------ */

static void
check_cut (GBytes *before, GBytes *after, guint g, guint32 frame)
{
  gsize la, lb;
  const guint8 *da = g_bytes_get_data (before, &la), *db = g_bytes_get_data (after, &lb);
  g_auto (NrGroup) a = { 0 };
  g_auto (NrGroup) b = { 0 };

  nr_group_read (da, la, g, &a);
  nr_group_read (db, lb, g, &b);
  for (guint r = 0; r < b.n_rec; r++)
    g_assert_cmpuint (b.rec[r].key, <=, frame);
  for (guint c = 0; b.has_ext && c < 8; c++)
    {
      if (b.n_keys[c] == 0)
        continue;
      g_assert_cmpuint (b.keys[c][b.n_keys[c] - 1].key, <=, frame);
      if (a.keys[c][a.n_keys[c] - 1].key > frame)
        g_assert_cmpuint (b.keys[c][b.n_keys[c] - 1].key, ==, frame);
    }
  for (double f = 0; f <= frame; f += 0.25)
    {
      for (guint v = 0; a.n_rec > 0 && v < 9; v++)
        g_assert_cmpfloat (fabs (nr_records_eval (&a, v, f) - nr_records_eval (&b, v, f)), <=,
                           1e-6 * MAX (1.0, fabs (nr_records_eval (&a, v, f))));
      for (guint c = 0; a.has_ext && c < 8; c++)
        for (guint v = 0; a.n_keys[c] > 0 && v < nr_components[c]; v++)
          g_assert_cmpfloat (fabs (nr_channel_eval (&a, c, v, f) - nr_channel_eval (&b, c, v, f)),
                             <=, 1e-6 * MAX (1.0, fabs (nr_channel_eval (&a, c, v, f))));
    }
  assert_others_same (before, after, g);
}

static void
test_end (void)
{
  static const struct
  {
    const char *sample;
    guint group;
    guint32 frame;
    const char *past;
  } cases[] = {
    { "niff/Rings.niff", 0, 100, "111 keys past frame 100 (RotateX 37 keys" },
    { "niff/Rings.niff", 2, 13, "past frame 13" },
    { "niff/dragon.nif", 5, 17, "13 keys past frame 17 (13 records)" },
    { "niff/3hedra.niff", 1, 20, "2 keys past frame 20 (2 records)" },
    { "niff/synthetic-all-channels.nif", 1, 7, "past frame 7" },
    { "niff/synthetic-all-channels.nif", 3, 2, "past frame 2" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GBytes) bytes = tress_test_load_sample (cases[i].sample);
      g_autoptr (GBytes) after = NULL;
      g_autoptr (GError) error = NULL;
      TressNiffFile *file;

      if (bytes == NULL)
        return;
      file = niff_parse_ok (bytes);
      g_assert_false (
          tress_niff_set_group_end (file, cases[i].group, cases[i].frame, FALSE, NULL, &error));
      g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
      g_assert_nonnull (strstr (error->message, cases[i].past));
      g_clear_error (&error);
      assert_saves_as (file, bytes);
      g_assert_true (
          tress_niff_set_group_end (file, cases[i].group, cases[i].frame, TRUE, NULL, &error));
      g_assert_no_error (error);
      after = save (file);
      check_cut (bytes, after, cases[i].group, cases[i].frame);
      assert_clean (file);
      /* No frame count to raise. */
      g_assert_false (
          tress_niff_set_group_end (file, cases[i].group, cases[i].frame + 5, TRUE, NULL, &error));
      g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
      g_assert_nonnull (strstr (error->message, "stores no frame count to raise"));
      fmt->free (file);
    }
}

/* NIFF1 SLOW keys: their shape follows from the segment's ends, so a cut
 * inside one is refused with how far it would move; a cut at a key is not. */
static void
test_end_slow (void)
{
  g_autoptr (TressNiffBuilder) nb = tress_niff_builder_new (FALSE, 0xff000100);
  g_autoptr (GBytes) bytes = NULL, after = NULL;
  g_autoptr (GError) error = NULL;
  TressNiffFile *file;
  const float a[9] = { 0, 0, 0, 0, 0, 0, 1, 1, 1 }, b[9] = { 4, 2, 0, 0, 1, 0, 1, 1, 1 };
  guint name = tress_niff_builder_add_name (nb, "scene");
  guint g = tress_niff_builder_add_group (nb, tress_niff_builder_add_name (nb, "slow"),
                                          TRESS_NIFF_ANIM_KEY, 30, 0);

  (void)name;
  tress_niff_builder_add_object (nb, tress_niff_builder_add_name (nb, "obj"), g);
  tress_niff_builder_add_key (nb, g, 0, TRESS_NIFF_KEY_SLOW, a);
  tress_niff_builder_add_key (nb, g, 10, TRESS_NIFF_KEY_SLOWIN, b);
  tress_niff_builder_add_key (nb, g, 20, TRESS_NIFF_KEY_LINEAR, a);
  tress_niff_builder_add_key (nb, g, 30, TRESS_NIFF_KEY_LINEAR, b);
  bytes = tress_niff_builder_finish (nb, &error);
  g_assert_no_error (error);
  file = niff_parse_ok (bytes);
  g_assert_false (tress_niff_set_group_end (file, 0, 5, TRUE, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "eased (interpolation 6) segment from frame 0 to 10"));
  g_clear_error (&error);
  assert_saves_as (file, bytes);
  /* A linear segment cuts exactly, and so does a key. */
  g_assert_true (tress_niff_set_group_end (file, 0, 25, TRUE, NULL, &error));
  g_assert_true (tress_niff_set_group_end (file, 0, 10, TRUE, NULL, &error));
  g_assert_no_error (error);
  after = save (file);
  check_cut (bytes, after, 0, 10);
  fmt->free (file);
}

static void
test_loop (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/Rings.niff");
  g_autoptr (GBytes) after = NULL;
  g_autoptr (GError) error = NULL;
  TressNiffFile *file;
  gsize size, pos;
  const guint8 *d;

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  g_assert_true (tress_niff_set_group_loop (file, 1, 1, NULL, &error));
  after = save (file);
  d = g_bytes_get_data (after, &size);
  pos = niff_raw_group (d, size, 1);
  g_assert_cmpuint (niff_be32 (d + pos + 0x20), ==, 1);
  g_assert_cmpuint (size, ==, g_bytes_get_size (bytes));
  for (gsize i = 0; i < size; i++)
    if (i < pos + 0x20 || i >= pos + 0x24)
      g_assert_cmpuint (d[i], ==, ((const guint8 *)g_bytes_get_data (bytes, NULL))[i]);
  fmt->free (file);
}

/* ---- names, copies, deletion -------------------------------------------------------------- */

static void
test_rename (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/Rings.niff");
  g_autoptr (GBytes) after = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *name = NULL, *old = NULL;
  TressNiffFile *file;
  gsize la, lb, list_a, list_b;
  const guint8 *da, *db;
  NrGroup a, b;

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  g_assert_false (tress_niff_rename_group (file, 0, "Reflection_Animation", NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_clear_error (&error);
  g_assert_false (tress_niff_rename_group (file, 0, "", NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_clear_error (&error);
  g_assert_false (tress_niff_rename_group (file, 0, "bad\x01", NULL, &error));
  g_clear_error (&error);
  assert_saves_as (file, bytes);
  g_assert_true (tress_niff_rename_group (file, 0, "Sweep", NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (tress_niff_find_group (file, "Sweep", NULL), ==, 0);
  after = save (file);
  da = g_bytes_get_data (bytes, &la);
  db = g_bytes_get_data (after, &lb);
  nr_group_read (da, la, 0, &a);
  nr_group_read (db, lb, 0, &b);
  /* A new NameList element, one past the highest index; the old name stays. */
  g_assert_cmpuint (b.name_index, ==, 35);
  name = nr_name (db, lb, b.name_index);
  old = nr_name (db, lb, a.name_index);
  g_assert_cmpmem (name, 8, "Sweep\0\0\0", 8);
  g_assert_cmpstr (old, ==, "Sweep15_3_Animation");
  list_a = niff_raw_find_list (da, la, 0x00110000);
  list_b = niff_raw_find_list (db, lb, 0x00110000);
  g_assert_cmpuint (niff_be32 (db + list_b + 12), ==, niff_be32 (da + list_a + 12) + 1);
  g_assert_cmpuint (niff_be32 (db + 0x58), ==, niff_be32 (db + list_b + 8));
  g_assert_cmpuint (niff_be32 (db + list_b + 8), ==, niff_be32 (da + list_a + 8) + 4 + 24);
  g_assert_cmpuint (lb, ==, la + 28);
  g_assert_cmpmem (db + a.pos + 0x14, a.size - 0x14, da + a.pos + 0x14, a.size - 0x14);
  assert_clean (file);
  nr_group_clear (&a);
  nr_group_clear (&b);
  fmt->free (file);
}

static void
test_duplicate (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/kirikobu.niff");
  g_autoptr (GBytes) after = NULL, back = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  TressNiffFile *file;
  gsize la, lb, ga, gb;
  const guint8 *da, *db;
  g_autofree char *name = NULL;

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  back = save (file);
  g_assert_false (tress_niff_duplicate_group (file, 6, "upvector_Animation", NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_clear_error (&error);
  g_assert_true (tress_niff_duplicate_group (file, 6, "eff_copy", notes, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tress_niff_file_get_n_groups (file), ==, 11);
  after = save (file);
  da = g_bytes_get_data (bytes, &la);
  db = g_bytes_get_data (after, &lb);
  ga = niff_raw_group (da, la, 6);
  gb = niff_raw_group (db, lb, 10);
  /* The same bytes but the index and the name index. */
  g_assert_cmpuint (niff_be32 (db + gb + 4), ==, 10);
  name = nr_name (db, lb, niff_be32 (db + gb + 0x10));
  g_assert_cmpstr (name, ==, "eff_copy");
  g_assert_cmpmem (db + gb + 8, 8, da + ga + 8, 8);
  g_assert_cmpmem (db + gb + 0x14, niff_be32 (da + ga + 0x0C) - 0x14, da + ga + 0x14,
                   niff_be32 (da + ga + 0x0C) - 0x14);
  for (guint g = 0; g < 10; g++)
    {
      gsize x = niff_raw_group (da, la, g), y = niff_raw_group (db, lb, g);

      g_assert_cmpmem (db + y, niff_be32 (db + y + 0x0C), da + x, niff_be32 (da + x + 0x0C));
    }
  g_test_message (
      "kirikobu: duplicating eff11_Animation grows the file by %" G_GSIZE_FORMAT " bytes", lb - la);
  assert_clean (file);
  /* The copy retimes like any group; undo puts the file back. */
  g_assert_true (tress_niff_retime (file, 10, 2, NULL, &error));
  g_assert_true (tress_niff_file_restore (file, back, &error));
  g_assert_no_error (error);
  assert_saves_as (file, bytes);
  fmt->free (file);
}

/* Three groups, the first used by nothing, the others by an object each:
 * deleting the first moves the others and their objects' links down. */
static void
test_delete (void)
{
  g_autoptr (TressNiffBuilder) nb = tress_niff_builder_new (TRUE, 0xff000200);
  g_autoptr (GBytes) bytes = NULL, after = NULL;
  g_autoptr (GError) error = NULL;
  const float trs[9] = { 1, 2, 3, 0, 0, 0, 1, 1, 1 };
  const float v[3] = { 1, 2, 3 }, dv[3] = { 0, 0, 0 };
  guint g[3];
  TressNiffFile *file;
  gsize la, lb, objs;
  const guint8 *da, *db;

  tress_niff_builder_add_name (nb, "scene");
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *n = g_strdup_printf ("group%u", i);

      g[i] = tress_niff_builder_add_group (nb, tress_niff_builder_add_name (nb, n),
                                           TRESS_NIFF_ANIM_KEY, 30, 0);
      tress_niff_builder_add_key (nb, g[i], 0, TRESS_NIFF_KEY_LINEAR, trs);
      tress_niff_builder_add_key (nb, g[i], 4 + i, TRESS_NIFF_KEY_LINEAR, trs);
      tress_niff_builder_add_channel_key (nb, g[i], TRESS_NIFF_TRANSLATION,
                                          TRESS_NIFF_CHANNEL_LINEAR, 2 * i, v, dv);
    }
  tress_niff_builder_add_object (nb, tress_niff_builder_add_name (nb, "one"), g[1]);
  tress_niff_builder_add_object (nb, tress_niff_builder_add_name (nb, "two"), g[2]);
  bytes = tress_niff_builder_finish (nb, &error);
  g_assert_no_error (error);
  file = niff_parse_ok (bytes);
  g_assert_false (tress_niff_delete_group (file, 2, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "moves object \"two\""));
  g_clear_error (&error);
  assert_saves_as (file, bytes);
  g_assert_true (tress_niff_delete_group (file, 0, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tress_niff_file_get_n_groups (file), ==, 2);
  after = save (file);
  da = g_bytes_get_data (bytes, &la);
  db = g_bytes_get_data (after, &lb);
  objs = niff_raw_find_list (db, lb, 0x00020000);
  g_assert_cmpuint (niff_be32 (db + niff_raw_element (db, objs, 0) + 72), ==, 0);
  g_assert_cmpuint (niff_be32 (db + niff_raw_element (db, objs, 1) + 72), ==, 1);
  for (guint i = 0; i < 2; i++)
    {
      gsize x = niff_raw_group (da, la, i + 1), y = niff_raw_group (db, lb, i);

      g_assert_cmpuint (niff_be32 (db + y + 4), ==, i);
      g_assert_cmpmem (db + y + 8, niff_be32 (da + x + 0x0C) - 8, da + x + 8,
                       niff_be32 (da + x + 0x0C) - 8);
    }
  assert_clean (file);
  fmt->free (file);

  /* The samples' groups are all named by a node. */
  {
    g_autoptr (GBytes) kiri = tress_test_load_sample ("niff/kirikobu.niff");

    if (kiri == NULL)
      return;
    file = niff_parse_ok (kiri);
    g_assert_false (tress_niff_delete_group (file, 6, NULL, &error));
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
    g_assert_nonnull (strstr (error->message, "moves Effector \"eff11\""));
    assert_saves_as (file, kiri);
    fmt->free (file);
  }
}

static void
test_find (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/3hedra.niff");
  g_autoptr (GPtrArray) candidates = g_ptr_array_new_with_free_func (g_free);
  TressNiffFile *file;

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  g_assert_cmpint (tress_niff_find_group (file, "hedra_red_Animation", candidates), ==, 2);
  g_assert_cmpint (tress_niff_find_group (file, "#5", candidates), ==, 5);
  g_assert_cmpint (tress_niff_find_group (file, "#6", candidates), ==, -1);
  g_assert_cmpint (tress_niff_find_group (file, "nothing", candidates), ==, -1);
  g_assert_cmpuint (candidates->len, ==, 0);
  g_assert_true (tress_niff_duplicate_group (file, 1, "twin", NULL, NULL));
  g_assert_cmpint (tress_niff_find_group (file, "twin", NULL), ==, 6);
  g_assert_cmpint (tress_niff_find_group (file, "#6", NULL), ==, 6);
  fmt->free (file);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/niff/animops/retime-samples", test_retime_samples);
  g_test_add_func ("/niff/animops/retime-refusals", test_retime_refusals);
  g_test_add_func ("/niff/animops/end", test_end);
  g_test_add_func ("/niff/animops/end-slow", test_end_slow);
  g_test_add_func ("/niff/animops/loop", test_loop);
  g_test_add_func ("/niff/animops/rename", test_rename);
  g_test_add_func ("/niff/animops/duplicate", test_duplicate);
  g_test_add_func ("/niff/animops/delete", test_delete);
  g_test_add_func ("/niff/animops/find", test_find);
  return g_test_run ();
}
