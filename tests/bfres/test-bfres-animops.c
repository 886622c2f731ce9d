/* test-bfres-animops.c: whole-animation operations on the real samples
 * (retime, frame count, loop, rename, duplicate, delete), read back with the
 * format page's reader of bfres-anim-ref.h, not the parser's
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "bfres-animops-test.h"
#include "core/tress-yaz0.h"
#include "formats/bfres/tress-bfres-animops.h"
#include "formats/bfres/tress-bfres-skeletal.h"
#include "tress-test-utils.h"

#define BASS "bfres/Animal_Bass_Animation.bfres"

/* ---- retime ------------------------------------------------------------------------- */

/* Jump ×2: every value at twice its frame, key arrays and size kept, nothing
 * outside Jump's frames and counts changed. */
static void
test_retime_jump_double (void)
{
  g_autoptr (GBytes) before = NULL, after = NULL;
  g_autoptr (TressBfres) b = load (BASS, &before);
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) ranges = NULL, curves = NULL;
  const guint8 *da, *db;
  gsize pa, pb;

  if (b == NULL)
    return;
  g_assert_true (tress_bfres_retime (b, anim (b, "Jump"), 2, FALSE, notes, &error));
  g_assert_no_error (error);
  g_assert_true (notes_have (notes, "45 → 90 frames"));
  g_assert_true (notes_have (notes, "keeps its size"));
  after = tress_bfres_get_bfres_bytes (b);
  g_assert_cmpuint (g_bytes_get_size (after), ==, g_bytes_get_size (before));
  da = g_bytes_get_data (before, NULL);
  db = g_bytes_get_data (after, NULL);
  pa = ref_anim_find (da, 2, "Jump");
  pb = ref_anim_find (db, 2, "Jump");
  g_assert_cmpuint (pa, ==, pb);
  g_assert_cmpuint (ref_check_retimed (da, pa, db, pb, 2, 2), >, 600);
  g_assert_cmpint (ref_anim_frame_count (db, pb), ==, 90);
  curves = ref_anim_curves (db, 2, pb);
  g_assert_cmpuint (ref_anim_baked_size (db, 2, pb), ==, ref_baked_formula (db, curves));
  ranges = retime_ranges (da, 2, pa);
  ref_assert_same_except (before, after, ranges);
  assert_clean (b);
}

/* Jump ×0.5: half frames need s10.5 frames: refused, naming the curves and
 * the growth, unless widened; widened, every value at half its frame. */
static void
test_retime_jump_half (void)
{
  g_autoptr (GBytes) before = NULL, after = NULL;
  g_autoptr (TressBfres) b = load (BASS, &before);
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) ranges = NULL, curves = NULL;
  const guint8 *da, *db;
  gsize pa, pb, grown;
  g_autofree char *grows = NULL;

  if (b == NULL)
    return;
  g_assert_false (tress_bfres_retime (b, anim (b, "Jump"), 0.5, FALSE, notes, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "Jump/Root/Translate Y: 14 of 25 keys at frames 0.5"));
  g_assert_nonnull (strstr (error->message, "--widen stores them in s10.5 frames (11 curves)"));
  g_assert_nonnull (strstr (error->message, "the file grows by 620 bytes"));
  g_assert_cmpuint (notes->len, ==, 0);
  assert_untouched (b, before);

  g_clear_error (&error);
  g_assert_true (tress_bfres_retime (b, anim (b, "Jump"), 0.5, TRUE, notes, &error));
  g_assert_no_error (error);
  g_assert_true (notes_have (notes, "45 frames × 0.5 = 22.5, stored as 23 frames"));
  g_assert_true (notes_have (notes, "Jump/Spine_3/Rotate Y: frames u8 → s10.5"));
  after = tress_bfres_get_bfres_bytes (b);
  grown = g_bytes_get_size (after) - g_bytes_get_size (before);
  grows = g_strdup_printf ("grows by %" G_GSIZE_FORMAT " bytes", grown);
  g_assert_cmpuint (grown, ==, 620);
  g_assert_true (notes_have (notes, grows));
  da = g_bytes_get_data (before, NULL);
  db = g_bytes_get_data (after, NULL);
  pa = ref_anim_find (da, 2, "Jump");
  pb = ref_anim_find (db, 2, "Jump");
  ref_check_retimed (da, pa, db, pb, 2, 0.5);
  curves = ref_anim_curves (db, 2, pb);
  for (guint i = 0; i < curves->len; i++)
    {
      RefCurve c;

      ref_curve_read (db, g_array_index (curves, gsize, i), TRUE, &c);
      g_assert_cmpuint (c.ft, ==, 1);
      /* Appended after the old end, 4-aligned. */
      g_assert_cmpuint ((gsize)(c.frames - db), >=, g_bytes_get_size (before));
      g_assert_cmpuint ((gsize)(c.frames - db) % 4, ==, 0);
    }
  g_assert_cmpint (ref_anim_frame_count (db, pb), ==, 23);
  g_assert_cmpuint (ref_anim_baked_size (db, 2, pb), ==, ref_baked_formula (db, curves));
  ranges = retime_ranges (da, 2, pa);
  ref_assert_same_except (before, after, ranges);
  assert_clean (b);
}

/* ×3 then ×(1/3): back to the same values at the same frames, and the same
 * bytes where the types did not change. */
static void
test_retime_there_and_back (void)
{
  g_autoptr (GBytes) before = NULL, after = NULL;
  g_autoptr (TressBfres) b = load (BASS, &before);
  g_autoptr (GError) error = NULL;

  if (b == NULL)
    return;
  g_assert_true (tress_bfres_retime (b, anim (b, "Wait"), 3, FALSE, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (tress_bfres_retime (b, anim (b, "Wait"), 1.0 / 3, FALSE, NULL, &error));
  g_assert_no_error (error);
  after = tress_bfres_get_bfres_bytes (b);
  tress_test_assert_bytes_equal (before, after);
}

static void
test_retime_bad_scale (void)
{
  static const double bad[] = { 0, -1, -0.0, NAN, INFINITY, -INFINITY };
  g_autoptr (GBytes) before = NULL;
  g_autoptr (TressBfres) b = load (BASS, &before);

  if (b == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;

      g_assert_false (tress_bfres_retime (b, 0, bad[i], TRUE, NULL, &error));
      g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE);
    }
  {
    g_autoptr (GError) error = NULL;

    g_assert_false (tress_bfres_retime (b, 7, 2, TRUE, NULL, &error));
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  }
  /* Past what u8 frames hold: refused, then widened to s10.5; past s10.5:
   * f32. */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);

    g_assert_false (tress_bfres_retime (b, anim (b, "Dead"), 10, FALSE, NULL, &error));
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
    g_assert_nonnull (strstr (error->message, "u8 frames hold whole frames 0 to 255"));
    assert_untouched (b, before);
    g_clear_error (&error);
    g_assert_true (tress_bfres_retime (b, anim (b, "Dead"), 40, TRUE, notes, &error));
    g_assert_true (notes_have (notes, "frames u8 → f32"));
  }
}

/* ---- frame count and loop ------------------------------------------------------------ */

static void
test_frame_count (void)
{
  g_autoptr (GBytes) before = NULL, longer = NULL, after = NULL;
  g_autoptr (TressBfres) b = load (BASS, &before);
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) ranges = g_array_new (FALSE, FALSE, sizeof (RefRange));
  g_autoptr (GArray) ca = NULL, cb = NULL;
  const guint8 *da, *db;
  gsize pa, pb;
  guint cut = 0;

  if (b == NULL)
    return;
  da = g_bytes_get_data (before, NULL);
  pa = ref_anim_find (da, 2, "Jump");
  /* Longer: the frame count alone. */
  g_assert_true (tress_bfres_set_anim_frame_count (b, anim (b, "Jump"), 60, FALSE, NULL, &error));
  longer = tress_bfres_get_bfres_bytes (b);
  ref_allow (ranges, pa + 0x10, 4);
  ref_assert_same_except (before, longer, ranges);
  g_assert_cmpint (ref_anim_frame_count (g_bytes_get_data (longer, NULL), pa), ==, 60);

  /* Shorter than its keys: refused, counted, unless trimmed. */
  g_assert_false (tress_bfres_set_anim_frame_count (b, anim (b, "Jump"), 30, FALSE, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "94 keys past frame 30 in 11 curves"));
  assert_untouched (b, longer);
  g_clear_error (&error);
  g_assert_true (tress_bfres_set_anim_frame_count (b, anim (b, "Jump"), 30, TRUE, notes, &error));
  g_assert_no_error (error);
  g_assert_true (notes_have (notes, "94 keys past frame 30 cut in 11 curves"));
  after = tress_bfres_get_bfres_bytes (b);
  db = g_bytes_get_data (after, NULL);
  pb = ref_anim_find (db, 2, "Jump");
  g_assert_cmpint (ref_anim_frame_count (db, pb), ==, 30);
  ca = ref_anim_curves (da, 2, pa);
  cb = ref_anim_curves (db, 2, pb);
  g_assert_cmpuint (ref_anim_baked_size (db, 2, pb), ==, ref_baked_formula (db, cb));
  for (guint i = 0; i < ca->len; i++)
    {
      RefCurve a, c;
      guint last_whole = 0;

      ref_curve_read (da, g_array_index (ca, gsize, i), TRUE, &a);
      ref_curve_read (db, g_array_index (cb, gsize, i), TRUE, &c);
      g_assert_cmpfloat (ref_frame (&c, c.n - 1), <=, 30);
      g_assert_cmpfloat (c.end, ==, ref_frame (&c, c.n - 1));
      if (ref_frame (&a, a.n - 1) <= 30)
        {
          /* Untouched. */
          g_assert_cmpmem (c.keys, ref_keys_len (&c), a.keys, ref_keys_len (&a));
          continue;
        }
      cut++;
      g_assert_cmpfloat (ref_frame (&c, c.n - 1), ==, 30);
      /* The segments that end before frame 30: the very same coefficients. */
      while (last_whole + 1 < a.n && ref_frame (&a, last_whole + 1) <= 30)
        last_whole++;
      g_assert_cmpfloat (c.scale, ==, a.scale);
      g_assert_cmpfloat (c.offset, ==, a.offset);
      for (guint k = 0; k < last_whole; k++)
        {
          g_assert_cmpfloat (ref_frame (&c, k), ==, ref_frame (&a, k));
          for (guint e = 0; e < 4; e++)
            g_assert_cmpfloat (ref_elem (&c, 4 * k + e), ==, ref_elem (&a, 4 * k + e));
        }
      /* Up to frame 30 it plays what it played, the cut segment within a
       * step of its values. */
      for (double f = 0; f <= 30; f += 0.25)
        g_assert_cmpfloat (fabs (ref_eval_at (&c, f) - ref_eval_at (&a, f)), <=,
                           (f < ref_frame (&a, last_whole) ? 0 : 2 * a.scale));
    }
  g_assert_cmpuint (cut, ==, 11);
  assert_clean (b);
}

static void
test_loop (void)
{
  g_autoptr (GBytes) before = NULL, after = NULL, back = NULL;
  g_autoptr (TressBfres) b = load (BASS, &before);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) ranges = g_array_new (FALSE, FALSE, sizeof (RefRange));
  TressBfresAnimInfo info;
  const guint8 *da, *db;
  gsize pos;

  if (b == NULL)
    return;
  da = g_bytes_get_data (before, NULL);
  pos = ref_anim_find (da, 2, "Peck");
  tress_bfres_get_anim_info (b, anim (b, "Peck"), &info);
  g_assert_cmpuint ((ref_u32 (da, pos + 0x0C) >> 2) & 1, ==, info.loops);
  g_assert_true (tress_bfres_set_anim_loop (b, anim (b, "Peck"), !info.loops, &error));
  after = tress_bfres_get_bfres_bytes (b);
  db = g_bytes_get_data (after, NULL);
  g_assert_cmphex (ref_u32 (db, pos + 0x0C), ==, ref_u32 (da, pos + 0x0C) ^ 4);
  ref_allow (ranges, pos + 0x0F, 1);
  ref_assert_same_except (before, after, ranges);
  g_assert_true (tress_bfres_set_anim_loop (b, anim (b, "Peck"), info.loops, &error));
  back = tress_bfres_get_bfres_bytes (b);
  g_assert_true (g_bytes_equal (back, before));
}

/* ---- rename, duplicate, delete ------------------------------------------------------------ */

static void
test_rename (void)
{
  static const char *const refused[] = { "Wait", "Jump", "", "tab\there", "\xff\xfe", "new\nline" };
  g_autoptr (GBytes) before = NULL, after = NULL, back = NULL;
  g_autoptr (TressBfres) b = load (BASS, &before);
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) ranges = g_array_new (FALSE, FALSE, sizeof (RefRange));
  g_autofree char *long_name = g_strnfill (TRESS_BFRES_ANIM_NAME_MAX + 1, 'a');
  g_autofree char *fska_name = NULL;
  const guint8 *da, *db;
  gsize pos, group;
  guint n;

  if (b == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_assert_false (tress_bfres_rename_anim (b, anim (b, "Jump"), refused[i], NULL, &error));
      g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
      g_clear_error (&error);
    }
  g_assert_false (tress_bfres_rename_anim (b, anim (b, "Jump"), long_name, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_clear_error (&error);
  assert_untouched (b, before);

  da = g_bytes_get_data (before, NULL);
  pos = ref_anim_find (da, 2, "Jump");
  group = ref_group (da, 2, &n);
  g_assert_true (tress_bfres_rename_anim (b, anim (b, "Jump"), "Hop", notes, &error));
  g_assert_no_error (error);
  g_assert_true (notes_have (notes, "grows by 8 bytes"));
  after = tress_bfres_get_bfres_bytes (b);
  db = g_bytes_get_data (after, NULL);
  g_assert_cmpuint (ref_anim_find (db, 2, "Hop"), ==, pos);
  g_assert_cmpuint (ref_anim_find (db, 2, "Jump"), ==, 0);
  fska_name = ref_name (db, pos + 4);
  g_assert_cmpstr (fska_name, ==, "Hop");
  ref_assert_groups_searchable (db);
  ref_allow (ranges, group, 8 + 16 * ((gsize)n + 1));
  ref_allow (ranges, pos + 4, 4);
  ref_allow (ranges, 0x0C, 4);
  ref_assert_same_except (before, after, ranges);
  /* The pool keeps its bytes; the name sits after the old end in its form. */
  g_assert_false (ref_pool_has (db, "Hop"));
  g_assert_cmpuint (ref_u32 (db, g_bytes_get_size (before)), ==, 3);
  assert_clean (b);

  /* A name the pool holds costs nothing; back to "Jump": the group and the
   * name field are the original bytes again (Nintendo's trie). */
  g_ptr_array_set_size (notes, 0);
  g_assert_true (tress_bfres_rename_anim (b, anim (b, "Hop"), "Head", notes, &error));
  g_assert_false (notes_have (notes, "grows"));
  g_assert_true (tress_bfres_rename_anim (b, anim (b, "Head"), "Jump", notes, &error));
  back = tress_bfres_get_bfres_bytes (b);
  g_assert_cmpmem ((const guint8 *)g_bytes_get_data (back, NULL) + 0x10,
                   g_bytes_get_size (before) - 0x10, da + 0x10, g_bytes_get_size (before) - 0x10);
}

static void
test_duplicate (void)
{
  static const char *const samples[] = { BASS, "bfres/Animal_Dog_Animation.bfres" };
  static const char *const names[] = { "Jump", "Wait_UpSlope" };

  for (guint s = 0; s < G_N_ELEMENTS (samples); s++)
    {
      g_autoptr (GBytes) before = NULL, after = NULL;
      g_autoptr (TressBfres) b = load (samples[s], &before);
      g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
      g_autoptr (GError) error = NULL;
      g_autoptr (GArray) ranges = g_array_new (FALSE, FALSE, sizeof (RefRange));
      const guint8 *da, *db;
      guint n, m;
      gsize pa, pb;

      if (b == NULL)
        return;
      g_assert_false (tress_bfres_duplicate_anim (b, anim (b, names[s]), names[s], NULL, &error));
      g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
      g_clear_error (&error);
      assert_untouched (b, before);
      g_assert_true (tress_bfres_duplicate_anim (b, anim (b, names[s]), "Copy", notes, &error));
      g_assert_no_error (error);
      after = tress_bfres_get_bfres_bytes (b);
      da = g_bytes_get_data (before, NULL);
      db = g_bytes_get_data (after, NULL);
      ref_group (da, 2, &n);
      ref_group (db, 2, &m);
      g_assert_cmpuint (m, ==, n + 1);
      ref_assert_groups_searchable (db);
      pa = ref_anim_find (da, 2, names[s]);
      pb = ref_anim_find (db, 2, "Copy");
      g_assert_cmpuint (pb, >=, g_bytes_get_size (before));
      g_assert_cmpuint (ref_anim_find (db, 2, names[s]), ==, pa);
      assert_same_anim (da, pa, db, pb, 2);
      ref_allow (ranges, 0x0C, 4);
      ref_allow (ranges, 0x28, 4);
      ref_allow (ranges, 0x54, 2);
      ref_assert_same_except (before, after, ranges);
      g_test_message ("%s: duplicating %s grows the file by %" G_GSIZE_FORMAT " bytes", samples[s],
                      names[s], g_bytes_get_size (after) - g_bytes_get_size (before));
      assert_clean (b);
      /* The copy is an animation like the others. */
      g_assert_true (tress_bfres_retime (b, anim (b, "Copy"), 2, FALSE, NULL, &error));
      g_assert_no_error (error);
    }
}

static void
test_delete (void)
{
  g_autoptr (GBytes) before = NULL, after = NULL;
  g_autoptr (TressBfres) b = load (BASS, &before);
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) ranges = g_array_new (FALSE, FALSE, sizeof (RefRange));
  const guint8 *da, *db;
  gsize group;
  guint n, m;

  if (b == NULL)
    return;
  da = g_bytes_get_data (before, NULL);
  group = ref_group (da, 2, &n);
  g_assert_true (tress_bfres_delete_anim (b, anim (b, "Peck"), notes, &error));
  g_assert_true (notes_have (notes, "stay in the file, unreferenced"));
  after = tress_bfres_get_bfres_bytes (b);
  db = g_bytes_get_data (after, NULL);
  g_assert_cmpuint (ref_group (db, 2, &m), ==, group);
  g_assert_cmpuint (m, ==, n - 1);
  g_assert_cmpuint (ref_anim_find (db, 2, "Peck"), ==, 0);
  ref_assert_groups_searchable (db);
  for (guint k = 1; k <= n; k++)
    {
      g_autofree char *name = ref_group_name (da, group, k);

      if (strcmp (name, "Peck") != 0)
        g_assert_cmpuint (ref_anim_find (db, 2, name), ==, ref_anim_find (da, 2, name));
    }
  g_assert_cmpuint (g_bytes_get_size (after), ==, g_bytes_get_size (before));
  ref_allow (ranges, group, 8 + 16 * ((gsize)n + 1));
  ref_allow (ranges, 0x54, 2);
  ref_assert_same_except (before, after, ranges);
  assert_clean (b);

  /* Down to none: the header no longer points to a group. */
  while (tress_bfres_get_n_anims (b) > 0)
    g_assert_true (tress_bfres_delete_anim (b, 0, NULL, &error));
  g_clear_pointer (&after, g_bytes_unref);
  after = tress_bfres_get_bfres_bytes (b);
  db = g_bytes_get_data (after, NULL);
  g_assert_cmpuint (ref_group (db, 2, &m), ==, 0);
  g_assert_cmpuint (ref_u16 (db, 0x54), ==, 0);
  assert_clean (b);
}

/* ---- containers and undo -------------------------------------------------------------- */

static void
test_yaz0_and_undo (void)
{
  g_autoptr (GBytes) file = tress_test_load_sample ("bfres/Animal_Bass_Animation.sbfres");
  g_autoptr (GBytes) plain = tress_test_load_sample (BASS);
  g_autoptr (TressBfres) y = NULL, p = NULL;
  g_autoptr (GBytes) before = NULL, saved = NULL, restored = NULL, ya = NULL, pa = NULL;
  g_autoptr (GError) error = NULL;

  if (file == NULL || plain == NULL)
    return;
  y = parse_ok (file);
  p = parse_ok (plain);
  before = tress_bfres_get_bfres_bytes (y);
  g_assert_true (tress_bfres_retime (y, anim (y, "Jump"), 0.5, TRUE, NULL, &error));
  g_assert_true (tress_bfres_duplicate_anim (y, anim (y, "Wait"), "Wait_2", NULL, &error));
  g_assert_true (tress_bfres_rename_anim (y, anim (y, "Dead"), "Dead_2", NULL, &error));
  g_assert_true (tress_bfres_delete_anim (y, anim (y, "Move"), NULL, &error));
  g_assert_true (tress_bfres_retime (p, anim (p, "Jump"), 0.5, TRUE, NULL, &error));
  g_assert_true (tress_bfres_duplicate_anim (p, anim (p, "Wait"), "Wait_2", NULL, &error));
  g_assert_true (tress_bfres_rename_anim (p, anim (p, "Dead"), "Dead_2", NULL, &error));
  g_assert_true (tress_bfres_delete_anim (p, anim (p, "Move"), NULL, &error));
  g_assert_no_error (error);
  /* Saved compressed as it came, holding what the plain file holds. */
  saved = tress_bfres_serialize (y, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (saved, NULL), 4, "Yaz0", 4);
  {
    g_autoptr (TressBfres) again = parse_ok (saved);

    ya = tress_bfres_get_bfres_bytes (again);
    pa = tress_bfres_get_bfres_bytes (p);
    tress_test_assert_bytes_equal (ya, pa);
    g_assert_cmpstr (tress_bfres_get_container (again), ==, "Yaz0");
  }
  /* Undo: the bytes from before put back give the file as read. */
  g_assert_true (tress_bfres_restore_fres (y, before, &error));
  restored = tress_bfres_serialize (y, &error);
  tress_test_assert_bytes_equal (restored, file);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bfres/animops/retime-jump-double", test_retime_jump_double);
  g_test_add_func ("/bfres/animops/retime-jump-half", test_retime_jump_half);
  g_test_add_func ("/bfres/animops/retime-there-and-back", test_retime_there_and_back);
  g_test_add_func ("/bfres/animops/retime-bad-scale", test_retime_bad_scale);
  g_test_add_func ("/bfres/animops/frame-count", test_frame_count);
  g_test_add_func ("/bfres/animops/loop", test_loop);
  g_test_add_func ("/bfres/animops/rename", test_rename);
  g_test_add_func ("/bfres/animops/duplicate", test_duplicate);
  g_test_add_func ("/bfres/animops/delete", test_delete);
  g_test_add_func ("/bfres/animops/yaz0-and-undo", test_yaz0_and_undo);
  return g_test_run ();
}
