/* test-bfres-precision.c: edits of built s8 cubic curves in the file's
 * precision, worked out by hand: where the rounding of a segment's slopes
 * goes when they must give, which segment the notice names, what the last
 * key's record keeps, and what undo and redo keep of an edit's lineage
 *
 * The curves are built with keys on the grid of scale 1 or 2 and offset 0
 * (the builder's rule: offset the middle of the values, scale the largest
 * coefficient over 127), so every raw element below can be checked by hand.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "bfres-test-common.h"
#include "formats/bfres/tress-bfres-builder.h"
#include "tress-test-utils.h"

static const TressCurveOps *ops;

/* A skeletal animation with one cubic s8 curve (u8 frames) through @n keys. */
static TressBfres *
build_cubic (const TressKey *keys, guint n)
{
  g_autoptr (TressBfresBuilder) builder = tress_bfres_builder_new ("Prec", 0x04050003);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  TressBfresBuilderCurve c = { .curve_type = TRESS_BFRES_CURVE_CUBIC,
                               .frame_type = TRESS_BFRES_FRAME_U8,
                               .key_type = TRESS_BFRES_KEY_S8,
                               .target_offset = 0x10,
                               .n_keys = n,
                               .keys = keys };
  TressBfres *b;

  tress_bfres_builder_begin_anim (builder, TRESS_BFRES_ANIM_SKELETAL, "Anim", 40, TRUE);
  tress_bfres_builder_add_bone (builder, "Bone");
  tress_bfres_builder_add_curve (builder, &c);
  bytes = tress_bfres_builder_finish (builder, &error);
  g_assert_no_error (error);
  b = tress_bfres_parse (bytes, "prec", &error);
  g_assert_no_error (error);
  return b;
}

/* The straight line -127, 0, 127 at frames 0, 2, 4: coefficients (c0, 127, 0,
 * 0) per segment, so scale 1 and offset 0. */
static TressBfres *
build_line (void)
{
  TressKey keys[3];

  for (guint k = 0; k < 3; k++)
    keys[k] = (TressKey){ .frame = 2 * k,
                          .value = 127.0 * k - 127,
                          .in_slope = 63.5,
                          .out_slope = 63.5,
                          .interp = TRESS_INTERP_HERMITE };
  return build_cubic (keys, 3);
}

/* Raw element @i of curve 0's keys, with its header read into @rc. */
static int
raw_elem (TressBfres *b, guint i, RefCurve *rc)
{
  g_autoptr (GBytes) raw = tress_bfres_get_bfres_bytes (b);
  TressBfresCurveInfo info;

  g_assert_true (tress_bfres_get_curve_info (b, 0, &info));
  ref_curve_read (g_bytes_get_data (raw, NULL), info.header_pos, TRUE, rc);
  return (int)ref_elem (rc, i);
}

static void
assert_raw (TressBfres *b, const int *want, guint n)
{
  RefCurve rc;

  for (guint i = 0; i < n; i++)
    {
      int got = raw_elem (b, i, &rc);

      if (got != want[i])
        g_error ("raw element %u: %d, expected %d", i, got, want[i]);
    }
}

static void
test_built_scale (void)
{
  g_autoptr (TressBfres) b = build_line ();
  static const int want[] = { -127, 127, 0, 0, 0, 127, 0, 0, 127, 0, 0, 0 };
  g_autoptr (TressCurve) c = ops->get_curve (b, 0);
  RefCurve rc;

  raw_elem (b, 0, &rc);
  g_assert_cmpfloat (rc.scale, ==, 1);
  g_assert_cmpfloat (rc.offset, ==, 0);
  assert_raw (b, want, G_N_ELEMENTS (want));
  /* The file stores no playback rate: the curve leaves it to the editor. */
  g_assert_cmpfloat (c->fps, ==, 0);
  g_assert_cmpfloat (c->frame_count, ==, 40);
  g_assert_true (c->loops);
}

/* Slopes that do not fit, rounded: keys -157.01 and 157.01 two frames apart
 * at scale 2 (raw -78.505 and 78.505: stored -79 and 79, 158 apart), out slope
 * 10.47 and in slope 429.87. The exact slope elements are 10.47, 20.22 and
 * 126.32 (157.01 together); rounded, the last would be 128. Shifted by the
 * same 0.33 they are 10.8, 20.55 and 126.65, rounded 11, 21 and 127: one too
 * many, taken back where rounding cost least, from 21 (0.55 away; 10 would
 * be 0.8 away, 126 0.65). */
static void
test_slope_rounding (void)
{
  TressKey keys[2] = {
    { .frame = 0,
      .value = -127,
      .in_slope = 127,
      .out_slope = 127,
      .interp = TRESS_INTERP_HERMITE },
    { .frame = 2, .value = 127, .in_slope = 127, .out_slope = 127, .interp = TRESS_INTERP_HERMITE },
  };
  g_autoptr (TressBfres) b = build_cubic (keys, 2);
  g_autoptr (TressCurve) c = ops->get_curve (b, 0);
  g_autoptr (GError) error = NULL;
  g_autofree char *notice = NULL;
  static const int want[] = { -79, 11, 20, 127, 79, 0, 0, 0 };
  RefCurve rc;

  raw_elem (b, 0, &rc);
  g_assert_cmpfloat (rc.scale, ==, 2);
  g_assert_cmpfloat (rc.offset, ==, 0);
  tress_curve_get_key (c, 0)->value = -157.01;
  tress_curve_get_key (c, 0)->out_slope = 10.47;
  tress_curve_get_key (c, 1)->value = 157.01;
  tress_curve_get_key (c, 1)->in_slope = 429.87;
  g_assert_true (ops->set_curve (b, 0, c, NULL, &error));
  g_assert_no_error (error);
  assert_raw (b, want, G_N_ELEMENTS (want));
  raw_elem (b, 0, &rc);
  g_assert_cmpfloat (rc.scale, ==, 2);
  notice = ops->dup_notice (b);
  g_assert_nonnull (notice);
  g_assert_nonnull (strstr (notice, "the segment after key 0 keeps its ends but its slopes moved"));
}

/* Two segments whose slopes give exactly as much: the notice names the first.
 * All keys 0 with slopes 50.5 over two frames want elements 101, -303, 202;
 * -303 is clipped to -127, the others shifted by -88 to 13 and 114, and the
 * start slope moved by (101 - 13) / 2 = 44 a frame in both. */
static void
test_first_worst_segment (void)
{
  g_autoptr (TressBfres) b = build_line ();
  g_autoptr (TressCurve) c = ops->get_curve (b, 0);
  g_autoptr (GError) error = NULL;
  g_autofree char *notice = NULL, *shown = NULL;
  static const int want[] = { 0, 13, -127, 114, 0, 13, -127, 114, 0, 0, 0, 0 };

  for (guint k = 0; k < 3; k++)
    {
      TressKey *key = tress_curve_get_key (c, k);

      key->value = 0;
      key->in_slope = key->out_slope = 50.5;
    }
  g_assert_true (ops->set_curve (b, 0, c, NULL, &error));
  g_assert_no_error (error);
  assert_raw (b, want, G_N_ELEMENTS (want));
  notice = ops->dup_notice (b);
  g_assert_nonnull (notice);
  shown = tress_notice_render (notice, 1, "");
  g_assert_nonnull (strstr (shown, "the segment after key 0 keeps its ends but its slopes moved "
                                   "by up to 44 a frame"));
}

/* The last key's record holds its value and three elements no segment uses;
 * an edit elsewhere leaves whatever the file has there (here 5, 6, 7). */
static void
test_last_record_kept (void)
{
  g_autoptr (TressBfres) line = build_line ();
  g_autoptr (GBytes) raw = tress_bfres_get_bfres_bytes (line);
  gsize size = g_bytes_get_size (raw);
  g_autofree guint8 *d = g_memdup2 (g_bytes_get_data (raw, NULL), size);
  g_autoptr (GBytes) patched = NULL;
  g_autoptr (TressBfres) b = NULL;
  g_autoptr (TressCurve) c = NULL;
  g_autoptr (GError) error = NULL;
  TressBfresCurveInfo info;
  static const int want[] = { -100, 127, -81, 54, 0, 127, 0, 0, 127, 5, 6, 7 };

  tress_bfres_get_curve_info (line, 0, &info);
  d[info.keys_pos + 9] = 5, d[info.keys_pos + 10] = 6, d[info.keys_pos + 11] = 7;
  patched = g_bytes_new (d, size);
  b = tress_bfres_parse (patched, "patched", &error);
  g_assert_no_error (error);
  c = ops->get_curve (b, 0);
  tress_curve_get_key (c, 0)->value = -100;
  g_assert_true (ops->set_curve (b, 0, c, NULL, &error));
  g_assert_no_error (error);
  assert_raw (b, want, G_N_ELEMENTS (want));
}

/* Key 1 moved to 40, then key 2 to 1000 (a new scale: the keys the second
 * edit leaves alone are quantized anew from what they hold). After the first
 * edit is undone and redone, key 1 still comes from its edit, not from the
 * file as read (0): the same bytes as without the undo and redo. */
static void
test_lineage_after_redo (void)
{
  g_autoptr (GBytes) straight = NULL, redone = NULL;

  for (int pass = 0; pass < 2; pass++)
    {
      g_autoptr (TressBfres) b = build_line ();
      g_autoptr (TressCurve) c = ops->get_curve (b, 0), again = NULL;
      g_autoptr (GError) error = NULL;
      g_autoptr (GBytes) before = NULL, after = NULL;
      TressBfresCurveInfo info;

      before = ops->save_state (b, 0);
      tress_curve_get_key (c, 1)->value = 40;
      g_assert_true (ops->set_curve (b, 0, c, NULL, &error));
      g_assert_no_error (error);
      if (pass == 1)
        {
          after = ops->save_state (b, 0);
          ops->restore_state (b, 0, before);
          g_assert_cmpfloat (tress_bfres_evaluate (b, 0, 2), ==, 0);
          ops->restore_state (b, 0, after);
        }
      g_assert_cmpfloat (tress_bfres_evaluate (b, 0, 2), ==, 40);
      again = ops->get_curve (b, 0);
      tress_curve_get_key (again, 2)->value = 1000;
      g_assert_true (ops->set_curve (b, 0, again, NULL, &error));
      g_assert_no_error (error);
      tress_bfres_get_curve_info (b, 0, &info);
      g_assert_cmpfloat (info.scale, >, 10);
      g_assert_cmpfloat (fabs (tress_bfres_evaluate (b, 0, 2) - 40), <=, info.scale / 2);
      g_assert_cmpfloat (fabs (tress_bfres_evaluate (b, 0, 0) + 127), <=, info.scale / 2);
      if (pass == 0)
        straight = tress_bfres_get_bfres_bytes (b);
      else
        redone = tress_bfres_get_bfres_bytes (b);
    }
  tress_test_assert_bytes_equal (redone, straight);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  ops = tress_format_bfres.curves;
  g_test_add_func ("/bfres/precision/built-scale", test_built_scale);
  g_test_add_func ("/bfres/precision/slope-rounding", test_slope_rounding);
  g_test_add_func ("/bfres/precision/first-worst-segment", test_first_worst_segment);
  g_test_add_func ("/bfres/precision/last-record-kept", test_last_record_kept);
  g_test_add_func ("/bfres/precision/lineage-after-redo", test_lineage_after_redo);
  return g_test_run ();
}
