/* test-bfres-edit.c: editing curves through the curve operations, in place and
 * appended; undo states; widening; refusals
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "bfres-test-common.h"
#include "formats/bfres/tress-bfres-builder.h"
#include "tress-test-utils.h"

static const TressCurveOps *ops;

static TressBfres *
open_sample (const char *rel, GBytes **bytes_out)
{
  g_autoptr (GError) error = NULL;
  GBytes *bytes = tress_test_load_sample (rel);
  TressBfres *b;

  if (bytes == NULL)
    return NULL;
  b = tress_bfres_parse (bytes, rel, &error);
  g_assert_no_error (error);
  *bytes_out = bytes;
  return b;
}

/* Byte ranges an edit of curve @index may change. */
typedef struct
{
  gsize start, end;
} Range;

static guint
allowed_ranges (TressBfres *b, guint index, Range *r)
{
  TressBfresCurveInfo info;
  gsize size;
  g_autoptr (GBytes) raw = tress_bfres_get_bfres_bytes (b);
  const guint8 *d = g_bytes_get_data (raw, &size);
  RefCurve rc;
  guint n = 0, per;

  tress_bfres_get_curve_info (b, index, &info);
  ref_curve_read (d, info.header_pos, TRUE, &rc);
  per = rc.ct == 0 ? 4 : rc.ct == 1 ? 2 : 1;
  r[n++] = (Range){ 0x0C, 0x10 };
  r[n++] = (Range){ info.header_pos, info.header_pos + 0x24 };
  r[n++] = (Range){ info.frames_pos, info.frames_pos
                                         + ((info.n_keys
                                                 * (rc.ft == 0   ? 4
                                                    : rc.ft == 1 ? 2
                                                                 : 1)
                                             + 3)
                                            & ~3u) };
  r[n++] = (Range){ info.keys_pos, info.keys_pos
                                       + ((info.n_keys * per
                                               * (rc.kt == 0   ? 4
                                                  : rc.kt == 1 ? 2
                                                               : 1)
                                           + 3)
                                          & ~3u) };
  return n;
}

/* Every byte outside @r (and outside the appended tail) is unchanged. */
static void
assert_only_changed (GBytes *before, GBytes *after, const Range *r, guint n)
{
  gsize a_size, b_size;
  const guint8 *a = g_bytes_get_data (before, &a_size);
  const guint8 *b = g_bytes_get_data (after, &b_size);

  for (gsize i = 0; i < MIN (a_size, b_size); i++)
    if (a[i] != b[i])
      {
        gboolean ok = FALSE;
        for (guint k = 0; k < n && !ok; k++)
          ok = i >= r[k].start && i < r[k].end;
        if (!ok)
          g_error ("byte 0x%" G_GSIZE_MODIFIER "x changed outside the edited curve", i);
      }
}

/* Checks the saved file: re-parses, header size right, edited curve evaluates
 * to @curve's keys within @err, every other curve's bytes identical. */
static void
check_saved (TressBfres *orig, GBytes *saved, guint index, const TressCurve *curve, double err)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TressBfres) b = tress_bfres_parse (saved, "saved", &error);
  g_autoptr (GBytes) raw = NULL, orig_raw = tress_bfres_get_bfres_bytes (orig);
  const guint8 *d, *od = g_bytes_get_data (orig_raw, NULL);
  gsize size;
  TressBfresCurveInfo info;
  RefCurve rc;

  g_assert_no_error (error);
  raw = tress_bfres_get_bfres_bytes (b);
  d = g_bytes_get_data (raw, &size);
  g_assert_cmpuint (ref_u32 (d, 0x0C), ==, size);
  g_assert_cmpuint (tress_bfres_get_n_curves (b), ==, tress_bfres_get_n_curves (orig));
  tress_bfres_get_curve_info (b, index, &info);
  ref_curve_read (d, info.header_pos, TRUE, &rc);
  g_assert_cmpuint (rc.n, ==, tress_curve_get_n_keys (curve));
  for (guint k = 0; k < rc.n; k++)
    {
      const TressKey *key = tress_curve_get_key (curve, k);
      g_assert_cmpfloat_with_epsilon (ref_frame (&rc, k), key->frame, 1e-6);
      g_assert_cmpfloat_with_epsilon (ref_eval (&rc, key->frame), key->value, err + 1e-6);
    }
  g_assert_cmpfloat (rc.start, ==, tress_curve_get_key (curve, 0)->frame);
  g_assert_cmpfloat (rc.end, ==, tress_curve_get_key (curve, rc.n - 1)->frame);
  /* Other curves: headers and arrays byte-identical to the original. */
  for (guint i = 0; i < tress_bfres_get_n_curves (b); i++)
    {
      TressBfresCurveInfo a, o;
      RefCurve ra, ro;
      gsize fb, kb;
      if (i == index)
        continue;
      tress_bfres_get_curve_info (b, i, &a);
      tress_bfres_get_curve_info (orig, i, &o);
      g_assert_cmpuint (a.header_pos, ==, o.header_pos);
      g_assert_cmpmem (d + a.header_pos, 0x24, od + o.header_pos, 0x24);
      ref_curve_read (d, a.header_pos, TRUE, &ra);
      ref_curve_read (od, o.header_pos, TRUE, &ro);
      fb = ra.n * (ra.ft == 0 ? 4 : ra.ft == 1 ? 2 : 1);
      kb = ra.n * (ra.ct == 0 ? 4 : 1) * (ra.kt == 0 ? 4 : ra.kt == 1 ? 2 : 1);
      g_assert_cmpmem (ra.frames, fb, ro.frames, fb);
      g_assert_cmpmem (ra.keys, kb, ro.keys, kb);
    }
  /* The validator agrees (bakedSize, start/end, order). */
  {
    g_autoptr (GPtrArray) problems = tress_format_bfres.validate (b);
    for (guint i = 0; i < problems->len; i++)
      {
        TressProblem *p = g_ptr_array_index (problems, i);
        g_assert_cmpint (p->severity, <, TRESS_SEVERITY_WARNING);
      }
  }
}

static void
test_set_key_in_place (void)
{
  g_autoptr (GBytes) bytes = NULL, saved = NULL, before_raw = NULL;
  g_autoptr (TressBfres) b = open_sample ("bfres/Animal_Bass_Animation.bfres", &bytes);
  g_autoptr (TressCurve) curve = NULL;
  g_autoptr (GError) error = NULL;
  double err = -1;
  Range r[6];
  guint n;

  if (b == NULL)
    return;
  before_raw = tress_bfres_get_bfres_bytes (b);
  n = allowed_ranges (b, 1, r);
  curve = ops->get_curve (b, 1);
  tress_curve_get_key (curve, 3)->value += 0.25;
  g_assert_true (ops->set_curve (b, 1, curve, &err, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (err, >=, 0);
  g_assert_cmpfloat (err, <, 1e-3);
  saved = tress_format_bfres.serialize (b, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (saved), ==, g_bytes_get_size (bytes));
  assert_only_changed (bytes, saved, r, n);
  {
    g_autoptr (TressBfres) orig = tress_bfres_parse (bytes, "orig", &error);
    g_assert_no_error (error);
    check_saved (orig, saved, 1, curve, err);
  }
  (void)before_raw;
}

static void
test_insert_key_appends (void)
{
  g_autoptr (GBytes) bytes = NULL, saved = NULL;
  g_autoptr (TressBfres) b = open_sample ("bfres/Animal_Bass_Animation.bfres", &bytes);
  g_autoptr (TressBfres) orig = NULL;
  g_autoptr (TressCurve) curve = NULL;
  g_autoptr (GError) error = NULL;
  TressBfresCurveInfo info;
  double err = -1;
  Range r[6];
  guint n;
  int k;

  if (b == NULL)
    return;
  orig = tress_bfres_parse (bytes, "orig", &error);
  n = allowed_ranges (b, 2, r);
  curve = ops->get_curve (b, 2);
  /* Frames are whole (u8): 30 has no key yet on every curve? find a gap. */
  k = -1;
  for (guint i = 0; i + 1 < tress_curve_get_n_keys (curve) && k < 0; i++)
    if (tress_curve_get_key (curve, i + 1)->frame - tress_curve_get_key (curve, i)->frame >= 2)
      k = tress_curve_insert_on_curve (curve, tress_curve_get_key (curve, i)->frame + 1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (k, >, 0);
  tress_curve_get_key (curve, k)->value += 0.5;
  g_assert_true (ops->set_curve (b, 2, curve, &err, &error));
  g_assert_no_error (error);
  saved = tress_format_bfres.serialize (b, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (saved), >, g_bytes_get_size (bytes));
  g_assert_cmpuint (g_bytes_get_size (saved) % 4, ==, 0);
  tress_bfres_get_curve_info (b, 2, &info);
  g_assert_cmpuint (info.keys_pos, >=, g_bytes_get_size (bytes));
  assert_only_changed (bytes, saved, r, n);
  check_saved (orig, saved, 2, curve, err);
}

static void
test_delete_key (void)
{
  g_autoptr (GBytes) bytes = NULL, saved = NULL;
  g_autoptr (TressBfres) b = open_sample ("bfres/Animal_Bass_Animation.bfres", &bytes);
  g_autoptr (TressBfres) orig = NULL;
  g_autoptr (TressCurve) curve = NULL;
  g_autoptr (GError) error = NULL;
  double err = -1;
  Range r[6];
  guint n;

  if (b == NULL)
    return;
  orig = tress_bfres_parse (bytes, "orig", &error);
  n = allowed_ranges (b, 0, r);
  curve = ops->get_curve (b, 0);
  tress_curve_remove_key (curve, 5);
  tress_curve_remove_key (curve, tress_curve_get_n_keys (curve) - 1); /* the end frame moves */
  g_assert_true (ops->set_curve (b, 0, curve, &err, &error));
  g_assert_no_error (error);
  saved = tress_format_bfres.serialize (b, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (saved), ==, g_bytes_get_size (bytes));
  /* The animation's bakedSize changes with the end frame. */
  r[n++] = (Range){ 0x430 + 0x1C, 0x430 + 0x20 };
  assert_only_changed (bytes, saved, r, n);
  check_saved (orig, saved, 0, curve, err);
}

static void
test_undo_states (void)
{
  g_autoptr (GBytes) bytes = NULL, edited = NULL, again = NULL, back = NULL;
  g_autoptr (TressBfres) b = open_sample ("bfres/Animal_Bass_Animation.bfres", &bytes);
  g_autoptr (GBytes) s0 = NULL, s1 = NULL, t0 = NULL, t1 = NULL;
  g_autoptr (TressCurve) c = NULL, d = NULL;
  g_autoptr (GError) error = NULL;

  if (b == NULL)
    return;
  /* Two edits, each growing the file; undo both, redo both. */
  s0 = ops->save_state (b, 4);
  c = ops->get_curve (b, 4);
  tress_curve_insert_on_curve (c, 0.5, NULL);
  tress_curve_get_key (c, 0)->value = 3;
  g_assert_true (ops->set_curve (b, 4, c, NULL, &error));
  s1 = ops->save_state (b, 4);
  t0 = ops->save_state (b, 7);
  d = ops->get_curve (b, 7);
  tress_curve_get_key (d, 1)->frame = 1.5;
  g_assert_true (ops->set_curve (b, 7, d, NULL, &error));
  g_assert_no_error (error);
  t1 = ops->save_state (b, 7);
  edited = tress_bfres_get_bfres_bytes (b);

  ops->restore_state (b, 7, t0);
  ops->restore_state (b, 4, s0);
  back = tress_format_bfres.serialize (b, &error);
  tress_test_assert_bytes_equal (back, bytes);
  ops->restore_state (b, 4, s1);
  ops->restore_state (b, 7, t1);
  again = tress_bfres_get_bfres_bytes (b);
  tress_test_assert_bytes_equal (again, edited);
  g_assert_cmpfloat (tress_bfres_evaluate (b, 4, 0), ==, tress_bfres_evaluate (b, 4, 0));
}

static void
test_widening (void)
{
  g_autoptr (GBytes) bytes = NULL, saved = NULL;
  g_autoptr (TressBfres) b = open_sample ("bfres/Animal_Bass_Animation.bfres", &bytes);
  g_autoptr (TressCurve) curve = NULL;
  g_autoptr (GError) error = NULL;
  TressBfresCurveInfo info;
  double err = -1;
  int s8 = -1;

  if (b == NULL)
    return;
  /* A fractional frame cannot be u8: the frame type widens to s10.5. */
  curve = ops->get_curve (b, 1);
  tress_curve_get_key (curve, 2)->frame += 0.5;
  g_assert_true (ops->set_curve (b, 1, curve, &err, &error));
  g_assert_no_error (error);
  tress_bfres_get_curve_info (b, 1, &info);
  g_assert_cmpint (info.frame_type, ==, TRESS_BFRES_FRAME_S10_5);
  g_assert_cmpfloat (tress_bfres_evaluate (b, 1, tress_curve_get_key (curve, 2)->frame), ==,
                     tress_bfres_evaluate (b, 1, tress_curve_get_key (curve, 2)->frame));
  /* 1/64 frame: only f32 holds it. */
  tress_curve_get_key (curve, 2)->frame += 1.0 / 64;
  g_assert_true (ops->set_curve (b, 1, curve, &err, &error));
  tress_bfres_get_curve_info (b, 1, &info);
  g_assert_cmpint (info.frame_type, ==, TRESS_BFRES_FRAME_F32);

  /* An s8 curve with a precise value widens its keys when the error passes the tolerance. */
  for (guint i = 0; i < tress_bfres_get_n_curves (b) && s8 < 0; i++)
    {
      tress_bfres_get_curve_info (b, i, &info);
      if (info.key_type == TRESS_BFRES_KEY_S8 && info.n_keys > 3)
        s8 = (int)i;
    }
  g_assert_cmpint (s8, >=, 0);
  g_clear_pointer (&curve, tress_curve_unref);
  curve = ops->get_curve (b, s8);
  tress_curve_get_key (curve, 1)->value += 10.0;
  tress_bfres_set_tolerance (b, 1e-4);
  g_assert_true (ops->set_curve (b, s8, curve, &err, &error));
  tress_bfres_get_curve_info (b, s8, &info);
  g_assert_cmpint (info.key_type, <, TRESS_BFRES_KEY_S8);
  g_assert_cmpfloat (err, <=, 1e-4);
  g_assert_cmpfloat_with_epsilon (
      tress_bfres_evaluate (b, s8, tress_curve_get_key (curve, 1)->frame),
      tress_curve_get_key (curve, 1)->value, 1e-4 + 1e-9);

  /* Widening on request, and the interpolation within the family. */
  g_assert_true (tress_bfres_set_curve_types (b, 0, TRESS_BFRES_CURVE_LINEAR, TRESS_BFRES_FRAME_U8,
                                              TRESS_BFRES_KEY_32, &err, &error));
  g_assert_no_error (error);
  tress_bfres_get_curve_info (b, 0, &info);
  g_assert_cmpint (info.curve_type, ==, TRESS_BFRES_CURVE_LINEAR);
  g_assert_cmpint (info.key_type, ==, TRESS_BFRES_KEY_32);
  g_assert_true (tress_bfres_set_curve_types (b, 0, TRESS_BFRES_CURVE_BAKED_FLOAT,
                                              TRESS_BFRES_FRAME_U8, TRESS_BFRES_KEY_S16, &err,
                                              &error));
  tress_bfres_get_curve_info (b, 0, &info);
  g_assert_cmpint (info.curve_type, ==, TRESS_BFRES_CURVE_BAKED_FLOAT);
  g_assert_cmpuint (info.n_keys, ==, (guint)(info.end - info.start) + 1);
  g_assert_false (tress_bfres_set_curve_types (
      b, 0, TRESS_BFRES_CURVE_STEP_INT, TRESS_BFRES_FRAME_U8, TRESS_BFRES_KEY_S16, &err, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_clear_error (&error);

  saved = tress_format_bfres.serialize (b, &error);
  g_assert_no_error (error);
  {
    g_autoptr (TressBfres) again = tress_bfres_parse (saved, "again", &error);
    g_autoptr (GPtrArray) problems = NULL;
    g_assert_no_error (error);
    problems = tress_format_bfres.validate (again);
    g_assert_cmpuint (tress_problem_list_count (problems, TRESS_SEVERITY_WARNING), ==, 0);
  }
}

static void
test_refusals (void)
{
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressBfres) b = open_sample ("bfres/Animal_Bass_Animation.bfres", &bytes);
  g_autoptr (TressCurve) curve = NULL, empty = tress_curve_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) after = NULL;

  if (b == NULL)
    return;
  curve = ops->get_curve (b, 0);
  tress_curve_get_key (curve, 2)->interp = TRESS_INTERP_LINEAR;
  g_assert_false (ops->set_curve (b, 0, curve, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_clear_error (&error);
  for (guint i = 0; i < tress_curve_get_n_keys (curve); i++)
    tress_curve_get_key (curve, i)->interp = TRESS_INTERP_STEP;
  g_assert_false (ops->set_curve (b, 0, curve, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_clear_error (&error);
  g_assert_false (ops->set_curve (b, 0, empty, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_clear_error (&error);
  /* Keys out of order (after the type checks): refused too, nothing written. */
  g_clear_pointer (&curve, tress_curve_unref);
  curve = ops->get_curve (b, 0);
  tress_curve_get_key (curve, 3)->frame = tress_curve_get_key (curve, 2)->frame;
  g_assert_false (ops->set_curve (b, 0, curve, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_clear_error (&error);
  /* Nothing changed. */
  after = tress_format_bfres.serialize (b, &error);
  tress_test_assert_bytes_equal (after, bytes);
}

/* A texture pattern's keys pick one of the animation's textures: an index past
 * the list is refused by the editor and reported by validate. */
static void
test_texture_index (void)
{
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressBfres) b = open_sample ("bfres/Animal_Bass.bfres", &bytes);
  g_autoptr (TressCurve) curve = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) problems = NULL;
  g_autoptr (GBytes) patched = NULL;
  g_autoptr (TressBfres) broken = NULL;
  TressBfresCurveInfo info;
  guint8 *data;
  gsize size;
  gboolean reported = FALSE;

  if (b == NULL)
    return;
  g_assert_true (tress_bfres_get_curve_info (b, 0, &info));
  g_assert_cmpint (info.key_type, ==, TRESS_BFRES_KEY_S8);
  curve = ops->get_curve (b, 0);
  g_assert_cmpfloat (curve->limits.value_min, ==, 0);
  g_assert_cmpfloat (curve->limits.value_max, ==, 2); /* three textures */
  tress_curve_get_key (curve, 1)->value = 7;
  g_assert_false (ops->set_curve (b, 0, curve, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);

  /* A file that holds such an index (key 1's byte set to 7 - offset). */
  {
    const guint8 *orig = g_bytes_get_data (bytes, &size);

    data = g_memdup2 (orig, size);
  }
  data[info.keys_pos + 1] = (guint8)(gint8)(7 - info.int_offset);
  patched = g_bytes_new_take (data, size);
  broken = tress_bfres_parse (patched, "broken.bfres", &error);
  g_clear_error (&error);
  g_assert_nonnull (broken);
  problems = tress_format_bfres.validate (broken);
  for (guint i = 0; i < problems->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (problems, i);

      if (strstr (p->message, "picks texture 7") != NULL)
        {
          g_assert_cmpint (p->severity, ==, TRESS_SEVERITY_ERROR);
          g_assert_cmpuint (p->offset, ==, info.keys_pos);
          reported = TRUE;
        }
    }
  g_assert_true (reported);
}

/* Values past what a 32-bit float holds are refused (they used to hang the
 * quantizer). */
static void
test_huge_value (void)
{
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressBfres) b = open_sample ("bfres/Animal_Bass_Animation.bfres", &bytes);
  g_autoptr (TressCurve) curve = NULL;
  g_autoptr (GError) error = NULL;

  if (b == NULL)
    return;
  curve = ops->get_curve (b, 0);
  tress_curve_get_key (curve, 1)->value = 7e38;
  g_assert_false (ops->set_curve (b, 0, curve, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_clear_error (&error);
  tress_curve_get_key (curve, 1)->value = 3.4e38;
  g_assert_true (ops->set_curve (b, 0, curve, NULL, &error));
  g_assert_no_error (error);
}

/* Keys an edit does not touch keep their stored values, however many edits
 * follow: the curve's scale and offset are kept while they hold the values,
 * instead of quantizing every key again each time (an edit that needs a wider
 * range still quantizes the curve anew, within the format's step). */
static void
test_untouched_keys_stay (void)
{
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressBfres) b = open_sample ("bfres/Animal_Bass_Animation.bfres", &bytes);
  g_autoptr (TressCurve) first = NULL;
  g_autoptr (GError) error = NULL;
  guint n;

  if (b == NULL)
    return;
  first = ops->get_curve (b, 23);
  n = tress_curve_get_n_keys (first);
  g_assert_cmpuint (n, >=, 5);
  for (int round = 0; round < 15; round++)
    for (int flat = 0; flat < 2; flat++)
      {
        g_autoptr (TressCurve) c = ops->get_curve (b, 23);
        TressKey *k = tress_curve_get_key (c, 2);

        /* A small change of one key's value, within what the curve's scale
         * and offset hold. */
        k->value = tress_curve_get_key (first, 2)->value * (flat ? 0.99 : 1.0);
        g_assert_true (ops->set_curve (b, 23, c, NULL, &error));
        g_assert_no_error (error);
      }
  {
    g_autoptr (TressCurve) last = ops->get_curve (b, 23);

    for (guint i = 0; i < n; i++)
      if (i != 1 && i != 2 && i != 3) /* the key edited and its segments' ends */
        g_assert_cmpfloat (tress_curve_get_key (last, i)->value, ==,
                           tress_curve_get_key (first, i)->value);
  }
}

/* A curve's stored delta (last value minus first) is kept while an edit leaves
 * both end values alone: some files hold one worked out before quantization, a
 * few steps off the keys, and the game's value there must not move. */
static void
test_delta_kept (void)
{
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressBfres) b = open_sample ("bfres/Animal_Bass_Animation.bfres", &bytes);
  g_autoptr (GError) error = NULL;
  TressBfresCurveInfo before, after;
  guint index = G_MAXUINT, n;

  if (b == NULL)
    return;
  /* The curve whose stored delta differs from its keys'. */
  for (guint i = 0; i < tress_bfres_get_n_curves (b) && index == G_MAXUINT; i++)
    {
      g_autoptr (TressCurve) c = ops->get_curve (b, i);
      guint nk = tress_curve_get_n_keys (c);

      tress_bfres_get_curve_info (b, i, &before);
      if (nk >= 3
          && before.delta
                 != (float)(tress_curve_get_key (c, nk - 1)->value
                            - tress_curve_get_key (c, 0)->value))
        index = i;
    }
  g_assert_cmpuint (index, !=, G_MAXUINT);
  tress_bfres_get_curve_info (b, index, &before);

  {
    g_autoptr (TressCurve) c = ops->get_curve (b, index);
    TressKey *k;

    n = tress_curve_get_n_keys (c);
    k = tress_curve_get_key (c, n / 2);
    k->value += 0.001;
    g_assert_true (ops->set_curve (b, index, c, NULL, &error));
    g_assert_no_error (error);
  }
  tress_bfres_get_curve_info (b, index, &after);
  g_assert_cmpfloat (after.delta, ==, before.delta);

  /* Moving an end value writes the new delta. */
  {
    g_autoptr (TressCurve) c = ops->get_curve (b, index);
    TressKey *k = tress_curve_get_key (c, n - 1);

    k->value += 0.01;
    g_assert_true (ops->set_curve (b, index, c, NULL, &error));
    g_assert_no_error (error);
    tress_bfres_get_curve_info (b, index, &after);
    {
      g_autoptr (TressCurve) now = ops->get_curve (b, index);

      g_assert_cmpfloat (
          after.delta, ==,
          (float)(tress_curve_get_key (now, n - 1)->value - tress_curve_get_key (now, 0)->value));
    }
  }
}

/* Baking a curve that spans more frames than a curve holds keys is refused
 * before any sample is made. */
static void
test_bake_too_long (void)
{
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressBfres) b = open_sample ("bfres/Animal_Bass_Animation.bfres", &bytes);
  g_autoptr (TressCurve) curve = NULL;
  g_autoptr (GError) error = NULL;
  guint n;

  if (b == NULL)
    return;
  g_assert_true (tress_bfres_raise_frame_count (b, 0, 200000, &error));
  g_assert_no_error (error);
  curve = ops->get_curve (b, 0);
  n = tress_curve_get_n_keys (curve);
  tress_curve_get_key (curve, n - 1)->frame = 199999;
  g_assert_true (ops->set_curve (b, 0, curve, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (tress_bfres_set_curve_types (b, 0, TRESS_BFRES_CURVE_BAKED_FLOAT,
                                               TRESS_BFRES_FRAME_F32, TRESS_BFRES_KEY_32, NULL,
                                               &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "65,535"));
}

static void
test_yaz0_save (void)
{
  g_autoptr (GBytes) bytes = NULL, saved = NULL, inner = NULL;
  g_autoptr (TressBfres) b = open_sample ("bfres/Animal_Bass_Animation.sbfres", &bytes);
  g_autoptr (TressBfres) again = NULL;
  g_autoptr (TressCurve) curve = NULL;
  g_autoptr (GError) error = NULL;

  if (b == NULL)
    return;
  curve = ops->get_curve (b, 10);
  tress_curve_get_key (curve, 1)->value *= 0.5;
  g_assert_true (ops->set_curve (b, 10, curve, NULL, &error));
  saved = tress_format_bfres.serialize (b, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (saved, NULL), 4, "Yaz0", 4);
  g_assert_cmpuint (g_bytes_get_size (saved), <=, g_bytes_get_size (bytes) * 105 / 100);
  again = tress_bfres_parse (saved, "again", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tress_bfres_get_container (again), ==, "Yaz0");
  inner = tress_bfres_get_bfres_bytes (b);
  {
    g_autoptr (GBytes) inner2 = tress_bfres_get_bfres_bytes (again);
    tress_test_assert_bytes_equal (inner2, inner);
  }
}

static void
test_frame_count (void)
{
  g_autoptr (GBytes) bytes = NULL, back = NULL, s0 = NULL, s1 = NULL;
  g_autoptr (TressBfres) b = open_sample ("bfres/Animal_Bass_Animation.bfres", &bytes);
  g_autoptr (TressCurve) curve = NULL, again = NULL;
  g_autoptr (GError) error = NULL;
  guint last;

  if (b == NULL)
    return;
  curve = ops->get_curve (b, 0);
  g_assert_cmpfloat (curve->limits.frame_max, ==, 30);
  last = tress_curve_get_n_keys (curve) - 1;
  tress_curve_get_key (curve, last)->frame = 38;
  /* The curve model refuses a key past the animation's end ... */
  g_assert_false (tress_curve_check_limits (curve, NULL));
  g_assert_false (ops->set_curve (b, 0, curve, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "frame count"));
  g_clear_error (&error);
  /* ... until the user agrees to raise the frame count. */
  s0 = ops->save_state (b, 0);
  g_assert_true (tress_bfres_raise_frame_count (b, 0, 40, &error));
  again = ops->get_curve (b, 0);
  g_assert_cmpfloat (again->limits.frame_max, ==, 40);
  curve->limits = again->limits;
  g_assert_true (tress_curve_check_limits (curve, NULL));
  g_assert_true (ops->set_curve (b, 0, curve, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (tress_bfres_evaluate (b, 0, 38), ==, tress_bfres_evaluate (b, 0, 45));
  s1 = ops->save_state (b, 0);
  ops->restore_state (b, 0, s0);
  back = tress_format_bfres.serialize (b, &error);
  tress_test_assert_bytes_equal (back, bytes);
  g_clear_pointer (&again, tress_curve_unref);
  again = ops->get_curve (b, 0);
  g_assert_cmpfloat (again->frame_count, ==, 30);
  ops->restore_state (b, 0, s1);
  g_clear_pointer (&again, tress_curve_unref);
  again = ops->get_curve (b, 0);
  g_assert_cmpfloat (again->frame_count, ==, 40);
  g_assert_cmpfloat (tress_curve_get_key (again, last)->frame, ==, 38);
}

static gsize
bfres_size (TressBfres *b)
{
  g_autoptr (GBytes) bytes = tress_bfres_get_bfres_bytes (b);

  return g_bytes_get_size (bytes);
}

/* One key of 50 s8 and s16 cubic curves across the shared files (Bass: u8
 * frames; Dog: u8 and s10.5), each moved by 2.37 steps, less than the stored
 * range holds: the file keeps its size and every byte but the two segments
 * meeting at the key; types, scale and offset stay; the value lands within half
 * a step. Each edit is undone through the saved state. */
static void
test_local_edits (void)
{
  static const struct
  {
    const char *file;
    guint stride, want;
  } files[] = { { "bfres/Animal_Bass_Animation.bfres", 4, 20 },
                { "bfres/Animal_Dog_Animation.bfres", 149, 30 } };
  guint done = 0, by_type[3] = { 0 };

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autoptr (GBytes) bytes = NULL;
      g_autoptr (TressBfres) b = open_sample (files[f].file, &bytes);
      const guint8 *d;
      guint picked = 0;

      if (b == NULL)
        return;
      d = g_bytes_get_data (bytes, NULL);
      for (guint i = 0; i < tress_bfres_get_n_curves (b) && picked < files[f].want;
           i += files[f].stride)
        {
          TressBfresCurveInfo info;
          RefCurve rc;
          g_autoptr (TressCurve) c = NULL;
          g_autoptr (GBytes) state = NULL, after = NULL, back = NULL;
          g_autoptr (GError) error = NULL;
          guint k;
          double steps, want, err = -1;

          tress_bfres_get_curve_info (b, i, &info);
          ref_curve_read (d, info.header_pos, TRUE, &rc);
          if (!ref_pick_edit (&rc, 2.37, &k, &steps))
            continue;
          c = ops->get_curve (b, i);
          g_assert_cmpfloat (c->value_step, ==, rc.scale);
          want = tress_curve_get_key (c, k)->value + steps * rc.scale;
          tress_curve_get_key (c, k)->value = want;
          g_assert_true (tress_curve_check_limits (c, NULL));
          state = ops->save_state (b, i);
          g_assert_true (ops->set_curve (b, i, c, &err, &error));
          g_assert_no_error (error);
          g_assert_cmpfloat (err, <=, rc.scale / 2 * (1 + 1e-6));
          after = tress_format_bfres.serialize (b, &error);
          g_assert_no_error (error);
          ref_check_local_edit (bytes, info.header_pos, after, info.header_pos, k, want);
          /* What the model shows now is what the file stores. */
          {
            g_autoptr (TressCurve) now = ops->get_curve (b, i);
            double stored = tress_curve_get_key (now, k)->value;

            g_assert_cmpfloat (stored, ==, tress_curve_stored_value (c, want, NULL));
          }
          ops->restore_state (b, i, state);
          back = tress_format_bfres.serialize (b, &error);
          tress_test_assert_bytes_equal (back, bytes);
          by_type[rc.kt]++;
          by_type[0] += rc.ft == 1; /* s10.5 frames */
          picked++;
        }
      g_assert_cmpuint (picked, ==, files[f].want);
      done += picked;
    }
  g_assert_cmpuint (done, ==, 50);
  g_test_message ("%u s16 curves, %u s8, %u with s10.5 frames", by_type[1], by_type[2], by_type[0]);
  g_assert_cmpuint (by_type[1], >=, 10);
  g_assert_cmpuint (by_type[2], >=, 10);
  g_assert_cmpuint (by_type[0], >=, 5);
}

/* The example of the issue that asked for local edits: key 2 of this s8 curve
 * moved by less than a step stays s8, with the same scale and offset, and only
 * the two segments meeting at it change; the file keeps its size. */
static void
test_less_than_a_step (void)
{
  g_autoptr (GBytes) bytes = NULL, after = NULL;
  g_autoptr (TressBfres) b = open_sample ("bfres/Animal_Bass_Animation.bfres", &bytes);
  g_autoptr (TressCurve) c = NULL;
  g_autoptr (GError) error = NULL;
  TressBfresCurveInfo info;
  int i;

  if (b == NULL)
    return;
  i = tress_bfres_find_curve (b, "Put_Down/Spine_3/Rotate Y");
  g_assert_cmpint (i, >=, 0);
  tress_bfres_get_curve_info (b, (guint)i, &info);
  g_assert_cmpint (info.key_type, ==, TRESS_BFRES_KEY_S8);
  c = ops->get_curve (b, (guint)i);
  tress_curve_get_key (c, 2)->value = 0.156;
  g_assert_true (ops->set_curve (b, (guint)i, c, NULL, &error));
  g_assert_no_error (error);
  g_assert_null (ops->dup_notice (b));
  after = tress_format_bfres.serialize (b, &error);
  ref_check_local_edit (bytes, info.header_pos, after, info.header_pos, 2, 0.156);
}

/* Values past the stored range: a new scale and offset in the same type, from
 * the exact coefficients, said in the notice. Two such edits in a row: a key no
 * edit touched lies within half the final step of the file's own value (it is
 * quantized from the file's coefficients, not from the first edit's). */
static void
test_out_of_range_twice (void)
{
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressBfres) b = open_sample ("bfres/Animal_Bass_Animation.bfres", &bytes);
  g_autoptr (TressCurve) orig = NULL;
  g_autoptr (GError) error = NULL;
  TressBfresCurveInfo info;
  g_autofree char *notice = NULL;
  double scale0, drift = 0;
  guint n;
  int i;

  if (b == NULL)
    return;
  i = tress_bfres_find_curve (b, "Put_Down/Spine_3/Rotate Y");
  orig = ops->get_curve (b, (guint)i);
  n = tress_curve_get_n_keys (orig);
  tress_bfres_get_curve_info (b, (guint)i, &info);
  scale0 = info.scale;
  for (int round = 0; round < 2; round++)
    {
      g_autoptr (TressCurve) c = ops->get_curve (b, (guint)i);
      guint k = round == 0 ? 2 : n - 3;

      tress_curve_get_key (c, k)->value += round == 0 ? 0.7 : -2.6;
      g_assert_true (ops->set_curve (b, (guint)i, c, NULL, &error));
      g_assert_no_error (error);
      g_clear_pointer (&notice, g_free);
      notice = ops->dup_notice (b);
      g_assert_nonnull (notice);
      g_assert_nonnull (strstr (notice, "quantized anew"));
      tress_bfres_get_curve_info (b, (guint)i, &info);
      g_assert_cmpint (info.key_type, ==, TRESS_BFRES_KEY_S8);
      g_assert_cmpfloat (info.scale, >, scale0);
      g_assert_cmpuint (info.n_keys, ==, n);
    }
  {
    g_autoptr (TressCurve) now = ops->get_curve (b, (guint)i);

    for (guint k = 0; k < n; k++)
      if (k != 2 && k != n - 3)
        {
          double d
              = fabs (tress_curve_get_key (now, k)->value - tress_curve_get_key (orig, k)->value);

          drift = MAX (drift, d);
          g_assert_cmpfloat (d, <=, info.scale / 2 * (1 + 1e-6));
        }
    g_test_message ("final step %g, largest drift of a key not edited %g", info.scale, drift);
  }
}

/* Widening on request: the values then land within half the wider step, and
 * what describe_widening said the file grows by is what it grows by. */
static void
test_widen_on_request (void)
{
  g_autoptr (GBytes) bytes = NULL, after = NULL;
  g_autoptr (TressBfres) b = open_sample ("bfres/Animal_Bass_Animation.bfres", &bytes);
  g_autoptr (GError) error = NULL;
  TressBfresCurveInfo info;
  int i;

  if (b == NULL)
    return;
  i = tress_bfres_find_curve (b, "Put_Down/Spine_3/Rotate Y");
  for (int step = 0; step < 2; step++)
    {
      g_autofree char *cost = ops->describe_widening (b, (guint)i);
      g_autoptr (TressCurve) c = NULL;
      gsize before = bfres_size (b);
      const char *grows;
      double err = -1;

      g_assert_nonnull (cost);
      g_test_message ("%s", cost);
      g_assert_true (g_str_has_prefix (cost, step == 0 ? "16-bit keys: exact to "
                                                       : "32-bit float keys: exact, "));
      grows = strstr (cost, "the file grows by ");
      g_assert_nonnull (grows);
      g_assert_true (ops->widen_types (b, (guint)i, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (bfres_size (b) - before, ==,
                        g_ascii_strtoull (grows + strlen ("the file grows by "), NULL, 10));
      tress_bfres_get_curve_info (b, (guint)i, &info);
      g_assert_cmpint (info.key_type, ==, step == 0 ? TRESS_BFRES_KEY_S16 : TRESS_BFRES_KEY_32);
      /* The edit after it: exact to the wider step (or float precision). */
      c = ops->get_curve (b, (guint)i);
      tress_curve_get_key (c, 2)->value = 0.156;
      g_assert_true (ops->set_curve (b, (guint)i, c, &err, &error));
      g_assert_cmpfloat (fabs (tress_bfres_evaluate (b, (guint)i, 2) - 0.156), <=,
                         step == 0 ? info.scale / 2 * (1 + 1e-6) : 1e-7);
    }
  g_assert_null (ops->describe_widening (b, (guint)i));
  g_assert_false (ops->widen_types (b, (guint)i, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_clear_error (&error);

  /* Frames between the stored ones: a wider frame type, at the stated cost. */
  {
    g_autoptr (TressCurve) c = ops->get_curve (b, 0);
    g_autofree char *cost = NULL;
    gsize before = bfres_size (b);
    const char *grows;

    g_assert_cmpfloat (c->limits.frame_step, ==, 1);
    g_assert_null (ops->describe_frame_widening (b, 0, 3));
    cost = ops->describe_frame_widening (b, 0, 3.5);
    g_assert_nonnull (cost);
    g_assert_true (g_str_has_prefix (cost, "Frames in steps of 1/32 (s10.5): "));
    grows = strstr (cost, "the file grows by ");
    g_assert_true (ops->widen_frames (b, 0, 3.5, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (bfres_size (b) - before, ==,
                      g_ascii_strtoull (grows + strlen ("the file grows by "), NULL, 10));
    g_clear_pointer (&c, tress_curve_unref);
    c = ops->get_curve (b, 0);
    g_assert_cmpfloat (c->limits.frame_step, ==, 1.0 / 32);
  }
}

/* The value the stored curve @c reaches at the end of segment @i (its own
 * polynomial at t = 1, which may miss the next key by a step or so). */
static double
ref_arrival (const RefCurve *c, guint i)
{
  guint per = c->ct == 0 ? 4 : 2;
  double sum = 0;

  for (guint e = 0; e < per; e++)
    sum += ref_elem (c, per * i + e);
  return sum * c->scale + c->offset;
}

/* Linear conversion plays as a ramp: 20 cubic curves of the shared files, with
 * s8, s16 and 32-bit keys, converted to Linear and read back by the decoder
 * written from the format page. At every key the value is the cubic's; inside
 * each segment the curve runs straight from it to where the cubic arrives, to
 * within one stored step; the last key's change is 0. Converted back to Cubic,
 * the values at the keys stay. */
static void
test_linear_is_a_ramp (void)
{
  static const char *const files[]
      = { "bfres/Animal_Bass_Animation.bfres", "bfres/Animal_Dog_Animation.bfres",
          "bfres/Animal_Bass_Animation.sbfres" };
  guint by_type[3] = { 0 }, done = 0;

  for (guint f = 0; f < G_N_ELEMENTS (files) && done < 21; f++)
    {
      g_autoptr (GBytes) bytes = NULL;
      g_autoptr (TressBfres) b = open_sample (files[f], &bytes);
      g_autoptr (GBytes) raw = NULL;
      const guint8 *d;

      if (b == NULL)
        return;
      raw = tress_bfres_get_bfres_bytes (b);
      d = g_bytes_get_data (raw, NULL);
      for (guint i = 0; i < tress_bfres_get_n_curves (b); i += 7)
        {
          TressBfresCurveInfo info;
          RefCurve rc, lc;
          g_autoptr (GError) error = NULL;
          g_autoptr (GBytes) after = NULL, after_raw = NULL;
          g_autoptr (TressBfres) back = NULL;
          const guint8 *ad;
          double err = -1, step;
          int want_kt;

          tress_bfres_get_curve_info (b, i, &info);
          ref_curve_read (d, info.header_pos, TRUE, &rc);
          if (rc.ct != 0 || rc.n < 3 || by_type[rc.kt] >= 7)
            continue;
          /* 32-bit keys are rare in the samples: s16 curves widened make them. */
          want_kt = rc.kt == 1 && by_type[0] < 6 ? 0 : (int)rc.kt;
          g_assert_true (tress_bfres_set_curve_types (b, i, TRESS_BFRES_CURVE_LINEAR, rc.ft,
                                                      want_kt, &err, &error));
          g_assert_no_error (error);
          after = tress_format_bfres.serialize (b, &error);
          g_assert_no_error (error);
          back = tress_bfres_parse (after, "linear", &error);
          g_assert_no_error (error);
          after_raw = tress_bfres_get_bfres_bytes (back);
          ad = g_bytes_get_data (after_raw, NULL);
          tress_bfres_get_curve_info (back, i, &info);
          ref_curve_read (ad, info.header_pos, TRUE, &lc);
          g_assert_cmpuint (lc.ct, ==, 1);
          g_assert_cmpuint (lc.n, ==, rc.n);
          g_assert_cmpuint (lc.kt, ==, (guint)want_kt);
          step = lc.kt == 0 ? 0 : lc.scale;
          for (guint k = 0; k < lc.n; k++)
            {
              double f0 = ref_frame (&lc, k), v0 = ref_eval (&rc, f0);
              double tol = step + ref_float_precision (v0) * 4;

              g_assert_cmpfloat (ref_frame (&lc, k), ==, ref_frame (&rc, k));
              g_assert_cmpfloat_with_epsilon (ref_eval (&lc, f0), v0, tol);
              if (k + 1 == lc.n)
                {
                  g_assert_cmpfloat (ref_elem (&lc, 2 * k + 1), ==, 0);
                  continue;
                }
              for (double t = 0.25; t < 1; t += 0.25)
                {
                  double f1 = ref_frame (&lc, k + 1), fm = f0 + t * (f1 - f0);
                  double ramp = v0 + t * (ref_arrival (&rc, k) - v0);

                  g_assert_cmpfloat_with_epsilon (ref_eval (&lc, fm), ramp, tol);
                }
            }
          /* And back to Cubic: the same values at the keys. */
          g_assert_true (tress_bfres_set_curve_types (back, i, TRESS_BFRES_CURVE_CUBIC, lc.ft,
                                                      lc.kt, &err, &error));
          g_assert_no_error (error);
          {
            g_autoptr (GBytes) cubic = tress_format_bfres.serialize (back, &error);
            g_autoptr (TressBfres) cb = tress_bfres_parse (cubic, "cubic", &error);
            g_autoptr (GBytes) cr = tress_bfres_get_bfres_bytes (cb);
            RefCurve cc;

            tress_bfres_get_curve_info (cb, i, &info);
            ref_curve_read (g_bytes_get_data (cr, NULL), info.header_pos, TRUE, &cc);
            g_assert_cmpuint (cc.ct, ==, 0);
            for (guint k = 0; k < cc.n; k++)
              {
                double fk = ref_frame (&cc, k);

                g_assert_cmpfloat_with_epsilon (ref_eval (&cc, fk), ref_eval (&lc, fk),
                                                (cc.kt == 0 ? 0 : cc.scale) + step
                                                    + ref_float_precision (fk) * 4);
              }
          }
          by_type[want_kt]++;
          done++;
        }
    }
  g_test_message ("%u curves: %u with 32-bit keys, %u s16, %u s8", done, by_type[0], by_type[1],
                  by_type[2]);
  g_assert_cmpuint (done, >=, 20);
  for (guint t = 0; t < 3; t++)
    g_assert_cmpuint (by_type[t], >=, 6);
}

/* One key of a quantized cubic curve, for the random edits below. */
typedef struct
{
  guint file, curve, key;
} EditSite;

/* Whether a segment next to key @k of @c has a slope element at its type's
 * limit (±127, ±32767): where an edit used to re-scale the whole curve. */
static gboolean
ref_next_to_limit (const RefCurve *c, guint k)
{
  double maxraw = c->kt == 1 ? 32767 : 127;

  for (int s = (int)k - 1; s <= (int)k; s++)
    if (s >= 0 && s + 1 < (int)c->n)
      for (guint e = 1; e < 4; e++)
        if (fabs (ref_elem (c, 4 * s + e)) >= maxraw)
          return TRUE;
  return FALSE;
}

/* 200 seeded random edits of a key's value inside the stored range, on the
 * shared BFRES files, half of them at keys next to a slope element at its
 * type's limit: read back by the tests' decoder, none changes the curve's
 * types, scale, offset or frames, or any byte outside the two segments meeting
 * at the key (and the value change over the curve, when the first or last key
 * moves); the key lands within half a step of the value asked for, the keys
 * either side keep their values and the next key its arrival. An edit to a
 * value that lands on the step already stored gives identical bytes. */
static void
test_random_local_edits (void)
{
  static const char *const files[]
      = { "bfres/Animal_Bass_Animation.bfres", "bfres/Animal_Bass_Animation.sbfres",
          "bfres/Animal_Dog_Animation.bfres", "bfres/Animal_Bass.bfres" };
  GBytes *bytes[G_N_ELEMENTS (files)] = { NULL };
  TressBfres *model[G_N_ELEMENTS (files)] = { NULL };
  g_autoptr (GArray) limit = g_array_new (FALSE, FALSE, sizeof (EditSite));
  g_autoptr (GArray) other = g_array_new (FALSE, FALSE, sizeof (EditSite));
  g_autoptr (GRand) rand = g_rand_new_with_seed (20261207);
  guint done[2] = { 0 }, slopes_gave = 0, noop = 0;

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autoptr (GBytes) raw = NULL;

      model[f] = open_sample (files[f], &bytes[f]);
      if (model[f] == NULL)
        return;
      raw = tress_bfres_get_bfres_bytes (model[f]);
      for (guint i = 0; i < tress_bfres_get_n_curves (model[f]); i++)
        {
          TressBfresCurveInfo info;
          RefCurve rc;

          tress_bfres_get_curve_info (model[f], i, &info);
          ref_curve_read (g_bytes_get_data (raw, NULL), info.header_pos, TRUE, &rc);
          if (rc.ct != 0 || rc.kt == 0 || rc.n < 2)
            continue;
          for (guint k = 0; k < rc.n; k++)
            {
              EditSite site = { f, i, k };

              g_array_append_val (ref_next_to_limit (&rc, k) ? limit : other, site);
            }
        }
    }
  g_test_message ("%u keys next to a slope element at its limit, %u others", limit->len,
                  other->len);
  g_assert_cmpuint (limit->len, >=, 100);

  for (guint round = 0; round < 200; round++)
    {
      GArray *pool = round % 2 == 0 ? limit : other;
      EditSite site = g_array_index (pool, EditSite, g_rand_int_range (rand, 0, (gint32)pool->len));
      TressBfres *b = model[site.file];
      g_autoptr (GBytes) before = tress_bfres_get_bfres_bytes (b), state = NULL, after = NULL;
      g_autoptr (GBytes) after_raw = NULL, back = NULL;
      g_autoptr (TressCurve) c = ops->get_curve (b, site.curve);
      g_autoptr (GError) error = NULL;
      g_autofree char *notice = NULL;
      const guint8 *da = g_bytes_get_data (before, NULL), *db;
      TressBfresCurveInfo info;
      RefCurve ca, cb;
      double maxraw, want, arrival_before = 0;
      guint k = site.key, size;
      gsize keys_at, len;

      tress_bfres_get_curve_info (b, site.curve, &info);
      ref_curve_read (da, info.header_pos, TRUE, &ca);
      maxraw = ca.kt == 1 ? 32767 : 127;
      /* A value inside the stored range (keeping room for the key's own gap
       * to the segment arriving at it), or one that lands on its own step. */
      if (round % 10 == 9)
        want = (ref_elem (&ca, 4 * k) + g_rand_double_range (rand, -0.45, 0.45)) * ca.scale
               + ca.offset;
      else
        want = g_rand_double_range (rand, -(maxraw - 8), maxraw - 8) * ca.scale + ca.offset;
      if (k + 1 < ca.n)
        arrival_before = ref_arrival (&ca, k);
      tress_curve_get_key (c, k)->value = want;
      state = ops->save_state (b, site.curve);
      g_assert_true (ops->set_curve (b, site.curve, c, NULL, &error));
      g_assert_no_error (error);
      notice = ops->dup_notice (b);
      after = tress_format_bfres.serialize (b, &error);
      g_assert_no_error (error);
      after_raw = tress_bfres_get_bfres_bytes (b);
      db = g_bytes_get_data (after_raw, &len);
      g_assert_cmpuint (len, ==, g_bytes_get_size (before));
      ref_curve_read (db, info.header_pos, TRUE, &cb);
      /* The header, but for the value change over the curve (0x18). */
      g_assert_cmpmem (db + info.header_pos, 0x18, da + info.header_pos, 0x18);
      g_assert_cmpmem (db + info.header_pos + 0x1C, 8, da + info.header_pos + 0x1C, 8);
      if (k != 0 && k + 1 != ca.n)
        g_assert_cmpmem (db + info.header_pos + 0x18, 4, da + info.header_pos + 0x18, 4);
      size = ca.kt == 1 ? 2 : 1;
      for (guint s = 0; s < ca.n; s++)
        if (s + 1 != k && s != k)
          g_assert_cmpmem (cb.keys + 4 * size * s, 4 * size, ca.keys + 4 * size * s, 4 * size);
      keys_at = (gsize)(ca.keys - da);
      for (gsize i = 0; i < len; i++)
        if (da[i] != db[i] && !(i >= keys_at && i < keys_at + 4 * size * ca.n)
            && !(i >= info.header_pos + 0x18 && i < info.header_pos + 0x1C))
          g_error ("%s, %s key %u: byte 0x%" G_GSIZE_MODIFIER "x changed", files[site.file],
                   info.path, k, i);
      /* The key within half a step; its neighbours' values, the next key's
       * arrival, within half a step of what they were. */
      g_assert_cmpfloat (fabs (ref_elem (&cb, 4 * k) * cb.scale + cb.offset - want), <=,
                         cb.scale / 2 * (1 + 1e-6));
      if (k > 0)
        g_assert_cmpfloat (ref_elem (&cb, 4 * (k - 1)), ==, ref_elem (&ca, 4 * (k - 1)));
      if (k + 1 < ca.n)
        {
          g_assert_cmpfloat (ref_elem (&cb, 4 * (k + 1)), ==, ref_elem (&ca, 4 * (k + 1)));
          g_assert_cmpfloat (fabs (ref_arrival (&cb, k) - arrival_before), <=,
                             cb.scale / 2 * (1 + 1e-6));
        }
      if (round % 10 == 9)
        {
          g_assert_null (notice);
          tress_test_assert_bytes_equal (after_raw, before);
          noop++;
        }
      if (notice != NULL)
        {
          g_assert_nonnull (strstr (notice, "slopes moved by up to"));
          slopes_gave++;
        }
      ops->restore_state (b, site.curve, state);
      back = tress_bfres_get_bfres_bytes (b);
      tress_test_assert_bytes_equal (back, before);
      done[round % 2]++;
    }
  g_test_message ("%u edits next to a limit, %u elsewhere, %u to the stored step; the slopes "
                  "had to give in %u",
                  done[0], done[1], noop, slopes_gave);
  g_assert_cmpuint (slopes_gave, >, 0);
  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_clear_pointer (&model[f], tress_bfres_free);
      g_clear_pointer (&bytes[f], g_bytes_unref);
    }
}

/* The example the local edits were asked with: 0.3 of a step on key 4 of an
 * s8 curve whose segment before it has c2 = 127 writes the file unchanged. */
static void
test_edit_to_stored_step (void)
{
  g_autoptr (GBytes) bytes = NULL, after = NULL;
  g_autoptr (TressBfres) b = open_sample ("bfres/Animal_Bass_Animation.bfres", &bytes);
  g_autoptr (TressCurve) c = NULL;
  g_autoptr (GError) error = NULL;
  int i;

  if (b == NULL)
    return;
  i = tress_bfres_find_curve (b, "Wait/Head/Rotate Y");
  g_assert_cmpint (i, >=, 0);
  c = ops->get_curve (b, (guint)i);
  tress_curve_get_key (c, 4)->value = -1.5146159856114536;
  g_assert_true (ops->set_curve (b, (guint)i, c, NULL, &error));
  g_assert_no_error (error);
  g_assert_null (ops->dup_notice (b));
  after = tress_format_bfres.serialize (b, &error);
  tress_test_assert_bytes_equal (after, bytes);
}

/* What widening says it does is what it does, on 40 curves of the shared
 * files (s8 and s16, u8 and s10.5 frames): the key type it names and the
 * bytes the file grows by. */
static void
test_widening_as_said (void)
{
  static const char *const files[]
      = { "bfres/Animal_Bass_Animation.bfres", "bfres/Animal_Dog_Animation.bfres" };
  guint done = 0;

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autoptr (GBytes) bytes = NULL;
      g_autoptr (TressBfres) b = open_sample (files[f], &bytes);

      if (b == NULL)
        return;
      for (guint i = 0, picked = 0; i < tress_bfres_get_n_curves (b) && picked < 20;
           i += f == 0 ? 3 : 97)
        {
          g_autofree char *cost = ops->describe_widening (b, i);
          g_autoptr (GBytes) state = NULL;
          g_autoptr (GError) error = NULL;
          TressBfresCurveInfo before, after;
          gsize size = bfres_size (b), grows = 0;
          const char *at;

          tress_bfres_get_curve_info (b, i, &before);
          if (cost == NULL || before.curve_type != TRESS_BFRES_CURVE_CUBIC)
            continue;
          at = strstr (cost, "the file grows by ");
          if (at != NULL)
            grows = g_ascii_strtoull (at + strlen ("the file grows by "), NULL, 10);
          else
            g_assert_nonnull (strstr (cost, "the file keeps its size"));
          state = ops->save_state (b, i);
          g_assert_true (ops->widen_types (b, i, NULL, &error));
          g_assert_no_error (error);
          tress_bfres_get_curve_info (b, i, &after);
          g_assert_cmpint (after.key_type, ==, before.key_type - 1);
          g_assert_true (g_str_has_prefix (
              cost, after.key_type == TRESS_BFRES_KEY_32 ? "32-bit float keys" : "16-bit keys"));
          g_assert_cmpuint (bfres_size (b) - size, ==, grows);
          ops->restore_state (b, i, state);
          picked++;
          done++;
        }
    }
  g_assert_cmpuint (done, ==, 40);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  ops = tress_format_bfres.curves;
  g_test_add_func ("/bfres/edit/set-key-in-place", test_set_key_in_place);
  g_test_add_func ("/bfres/edit/insert-key-appends", test_insert_key_appends);
  g_test_add_func ("/bfres/edit/delete-key", test_delete_key);
  g_test_add_func ("/bfres/edit/undo-states", test_undo_states);
  g_test_add_func ("/bfres/edit/widening", test_widening);
  g_test_add_func ("/bfres/edit/refusals", test_refusals);
  g_test_add_func ("/bfres/edit/texture-index", test_texture_index);
  g_test_add_func ("/bfres/edit/huge-value", test_huge_value);
  g_test_add_func ("/bfres/edit/bake-too-long", test_bake_too_long);
  g_test_add_func ("/bfres/edit/untouched-keys-stay", test_untouched_keys_stay);
  g_test_add_func ("/bfres/edit/delta-kept", test_delta_kept);
  g_test_add_func ("/bfres/edit/yaz0-save", test_yaz0_save);
  g_test_add_func ("/bfres/edit/frame-count", test_frame_count);
  g_test_add_func ("/bfres/edit/local-edits", test_local_edits);
  g_test_add_func ("/bfres/edit/less-than-a-step", test_less_than_a_step);
  g_test_add_func ("/bfres/edit/out-of-range-twice", test_out_of_range_twice);
  g_test_add_func ("/bfres/edit/widen-on-request", test_widen_on_request);
  g_test_add_func ("/bfres/edit/linear-is-a-ramp", test_linear_is_a_ramp);
  g_test_add_func ("/bfres/edit/random-local-edits", test_random_local_edits);
  g_test_add_func ("/bfres/edit/edit-to-stored-step", test_edit_to_stored_step);
  g_test_add_func ("/bfres/edit/widening-as-said", test_widening_as_said);
  return g_test_run ();
}
