/* test-bfres-limits.c: edits at the limits of the stored types, read back by
 * the tests' own decoder (bfres-test-common.h, from the format page): a frame
 * one past what u8 frames hold, negative s10.5 frames, the padding of a frame
 * array that widens, a Linear curve whose keys carry a gap, and values on the
 * first and last step s8/s16 keys hold
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "bfres-test-common.h"
#include "formats/bfres/tress-bfres-builder.h"
#include "formats/tress-curve-commit.h"
#include "tress-test-utils.h"

static const TressCurveOps *ops;

/* One skeletal animation of @frame_count frames with one curve (Translate X
 * of bone "Bone"), as the builder writes it. */
static TressBfres *
build (TressBfresCurveType ct, TressBfresFrameType ft, TressBfresKeyType kt, const TressKey *keys,
       guint n, int frame_count)
{
  g_autoptr (TressBfresBuilder) builder = tress_bfres_builder_new ("Limits", 0x04050003);
  TressBfresBuilderCurve c = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  TressBfres *b;

  c.curve_type = ct;
  c.frame_type = ft;
  c.key_type = kt;
  c.target_offset = 0x10;
  c.n_keys = n;
  c.keys = keys;
  tress_bfres_builder_begin_anim (builder, TRESS_BFRES_ANIM_SKELETAL, "Anim", frame_count, FALSE);
  tress_bfres_builder_add_bone (builder, "Bone");
  tress_bfres_builder_add_curve (builder, &c);
  bytes = tress_bfres_builder_finish (builder, &error);
  g_assert_no_error (error);
  b = tress_bfres_parse (bytes, "limits.bfres", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tress_bfres_get_n_curves (b), ==, 1);
  return b;
}

/* The file as saved, parsed again; its BFRES bytes in *@raw and curve 0 read
 * by the tests' decoder into @rc. */
static TressBfres *
save_and_read (TressBfres *b, GBytes **raw, RefCurve *rc)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) saved = tress_format_bfres.serialize (b, &error);
  TressBfresCurveInfo info;
  TressBfres *again;
  gsize size;
  const guint8 *d;

  g_assert_no_error (error);
  again = tress_bfres_parse (saved, "saved.bfres", &error);
  g_assert_no_error (error);
  *raw = tress_bfres_get_bfres_bytes (again);
  d = g_bytes_get_data (*raw, &size);
  g_assert_cmpuint (ref_u32 (d, 0x0C), ==, size);
  g_assert_true (tress_bfres_get_curve_info (again, 0, &info));
  ref_curve_read (d, info.header_pos, TRUE, rc);
  /* The arrays the header points to lie inside the file, 4-aligned. */
  g_assert_cmpuint ((gsize)(rc->frames - d) % 4, ==, 0);
  g_assert_cmpuint ((gsize)(rc->keys - d) % 4, ==, 0);
  {
    g_autoptr (GPtrArray) problems = tress_format_bfres.validate (again);

    for (guint i = 0; i < problems->len; i++)
      {
        g_autofree char *text = tress_problem_to_string (g_ptr_array_index (problems, i));
        g_test_message ("%s", text);
      }
    g_assert_cmpuint (tress_problem_list_count (problems, TRESS_SEVERITY_WARNING), ==, 0);
  }
  return again;
}

static gsize
frame_bytes (guint ft)
{
  return ft == TRESS_BFRES_FRAME_F32 ? 4 : ft == TRESS_BFRES_FRAME_S10_5 ? 2 : 1;
}

/* u8 frames hold 0 … 255. A key moved to frame 255 stays u8; to 256 the frame
 * type widens (or the edit is refused): the frame is never stored as 0. */
static void
test_u8_frame_256 (void)
{
  TressKey keys[] = {
    { .frame = 0, .value = 0, .interp = TRESS_INTERP_LINEAR },
    { .frame = 100, .value = 1, .interp = TRESS_INTERP_LINEAR },
    { .frame = 200, .value = 0.5, .interp = TRESS_INTERP_LINEAR },
  };
  g_autoptr (TressBfres) b
      = build (TRESS_BFRES_CURVE_LINEAR, TRESS_BFRES_FRAME_U8, TRESS_BFRES_KEY_32, keys, 3, 300);
  g_autoptr (TressCurve) curve = ops->get_curve (b, 0);
  g_autoptr (GError) error = NULL;
  double err = -1;

  /* The last frame u8 holds. */
  tress_curve_get_key (curve, 2)->frame = 255;
  g_assert_true (ops->set_curve (b, 0, curve, &err, &error));
  g_assert_no_error (error);
  {
    g_autoptr (GBytes) raw = NULL;
    g_autoptr (TressBfres) again = NULL;
    RefCurve rc;

    again = save_and_read (b, &raw, &rc);
    g_assert_cmpuint (rc.ft, ==, TRESS_BFRES_FRAME_U8);
    g_assert_cmpuint (rc.frames[2], ==, 255);
    g_assert_cmpfloat (rc.end, ==, 255);
  }

  /* One past it. */
  tress_curve_get_key (curve, 2)->frame = 256;
  if (!ops->set_curve (b, 0, curve, &err, &error))
    {
      /* Refused: then nothing changed. */
      g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
      g_clear_error (&error);
      {
        g_autoptr (GBytes) raw = NULL;
        g_autoptr (TressBfres) again = NULL;
        RefCurve rc;

        again = save_and_read (b, &raw, &rc);
        g_assert_cmpfloat (ref_frame (&rc, 2), ==, 255);
      }
      return;
    }
  g_assert_no_error (error);
  {
    g_autoptr (GBytes) raw = NULL;
    g_autoptr (TressBfres) again = NULL;
    g_autoptr (TressCurve) back = NULL;
    RefCurve rc;

    again = save_and_read (b, &raw, &rc);
    g_assert_cmpuint (rc.ft, !=, TRESS_BFRES_FRAME_U8);
    g_assert_cmpuint (rc.n, ==, 3);
    g_assert_cmpfloat (ref_frame (&rc, 0), ==, 0);
    g_assert_cmpfloat (ref_frame (&rc, 1), ==, 100);
    g_assert_cmpfloat (ref_frame (&rc, 2), ==, 256);
    g_assert_cmpfloat (rc.start, ==, 0);
    g_assert_cmpfloat (rc.end, ==, 256);
    g_assert_cmpfloat (ref_eval (&rc, 256), ==, 0.5);
    g_assert_cmpfloat (ref_eval (&rc, 178), ==, 0.75);
    back = ops->get_curve (again, 0);
    g_assert_cmpfloat (tress_curve_get_key (back, 2)->frame, ==, 256);
  }
}

/* s10.5 frames are signed: −1024 (raw −32768) … 1023.96875. Negative frames
 * stay s10.5 and read back negative; one fraction step below −1024 needs f32;
 * a negative frame on a u8 curve widens it to s10.5, never wrapping to 255. */
/* A frame past what s10.5 holds (1023.97) widens a u8 curve to f32, the
 * narrowest type that holds it, never to s10.5. */
static void
test_u8_frame_past_s10_5 (void)
{
  TressKey keys[] = {
    { .frame = 0, .value = 0, .interp = TRESS_INTERP_LINEAR },
    { .frame = 100, .value = 1, .interp = TRESS_INTERP_LINEAR },
    { .frame = 200, .value = 0.5, .interp = TRESS_INTERP_LINEAR },
  };
  g_autoptr (TressBfres) b
      = build (TRESS_BFRES_CURVE_LINEAR, TRESS_BFRES_FRAME_U8, TRESS_BFRES_KEY_32, keys, 3, 3000);
  g_autoptr (TressCurve) curve = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) raw = NULL;
  g_autoptr (TressBfres) again = NULL;
  RefCurve rc;
  double err = -1;

  g_assert_true (ops->widen_frames (b, 0, 1500, &error));
  g_assert_no_error (error);
  /* In one step (the cost asked about is f32's), not through s10.5. */
  {
    TressBfresCurveInfo info;

    g_assert_true (tress_bfres_get_curve_info (b, 0, &info));
    g_assert_cmpint (info.frame_type, ==, TRESS_BFRES_FRAME_F32);
  }
  curve = ops->get_curve (b, 0);
  tress_curve_get_key (curve, 2)->frame = 1500;
  g_assert_true (ops->set_curve (b, 0, curve, &err, &error));
  g_assert_no_error (error);
  again = save_and_read (b, &raw, &rc);
  g_assert_cmpuint (rc.ft, ==, TRESS_BFRES_FRAME_F32);
  g_assert_cmpfloat (ref_frame (&rc, 2), ==, 1500);
  g_assert_cmpfloat (ref_eval (&rc, 1500), ==, 0.5);
}

static void
test_negative_frames (void)
{
  TressKey keys[] = {
    { .frame = 0, .value = 0, .interp = TRESS_INTERP_LINEAR },
    { .frame = 10, .value = 1, .interp = TRESS_INTERP_LINEAR },
    { .frame = 20, .value = -1, .interp = TRESS_INTERP_LINEAR },
  };
  static const double wanted[] = { -1024, -3.5, -0.03125, 0, 10.25, 20 };
  /* big-endian raw s10.5 of each: frame × 32 */
  static const guint8 raw_wanted[]
      = { 0x80, 0x00, 0xFF, 0x90, 0xFF, 0xFF, 0x00, 0x00, 0x01, 0x48, 0x02, 0x80 };
  g_autoptr (TressBfres) b
      = build (TRESS_BFRES_CURVE_LINEAR, TRESS_BFRES_FRAME_S10_5, TRESS_BFRES_KEY_32, keys, 3, 40);
  g_autoptr (TressCurve) curve = tress_curve_new ();
  g_autoptr (GError) error = NULL;
  double err = -1;

  for (guint i = 0; i < G_N_ELEMENTS (wanted); i++)
    {
      TressKey k = { .frame = wanted[i], .value = i * 0.25, .interp = TRESS_INTERP_LINEAR };
      tress_curve_append_key (curve, &k);
    }
  g_assert_true (ops->set_curve (b, 0, curve, &err, &error));
  g_assert_no_error (error);
  {
    g_autoptr (GBytes) raw = NULL;
    g_autoptr (TressBfres) again = NULL;
    g_autoptr (TressCurve) back = NULL;
    RefCurve rc;

    again = save_and_read (b, &raw, &rc);
    back = ops->get_curve (again, 0);
    g_assert_cmpuint (rc.ft, ==, TRESS_BFRES_FRAME_S10_5);
    g_assert_cmpuint (rc.n, ==, G_N_ELEMENTS (wanted));
    g_assert_cmpmem (rc.frames, sizeof raw_wanted, raw_wanted, sizeof raw_wanted);
    for (guint i = 0; i < G_N_ELEMENTS (wanted); i++)
      {
        g_assert_cmpfloat (ref_frame (&rc, i), ==, wanted[i]);
        g_assert_cmpfloat (tress_curve_get_key (back, i)->frame, ==, wanted[i]);
        g_assert_cmpfloat (ref_eval (&rc, wanted[i]), ==, i * 0.25);
      }
    g_assert_cmpfloat (rc.start, ==, -1024);
    g_assert_cmpfloat_with_epsilon (ref_eval (&rc, -2), 0.25 + 0.25 * 1.5 / 3.46875, 1e-9);
  }

  /* Below −1024: s10.5 cannot hold it, f32 frames can. */
  tress_curve_get_key (curve, 0)->frame = -1024.03125;
  g_assert_true (ops->set_curve (b, 0, curve, &err, &error));
  g_assert_no_error (error);
  {
    g_autoptr (GBytes) raw = NULL;
    RefCurve rc;
    g_autoptr (TressBfres) again = save_and_read (b, &raw, &rc);

    g_assert_cmpuint (rc.ft, ==, TRESS_BFRES_FRAME_F32);
    g_assert_cmpfloat (ref_frame (&rc, 0), ==, -1024.03125);
    g_assert_cmpfloat (ref_frame (&rc, 1), ==, -3.5);
  }

  /* A u8 curve and a frame before 0. */
  {
    g_autoptr (TressBfres) u8
        = build (TRESS_BFRES_CURVE_LINEAR, TRESS_BFRES_FRAME_U8, TRESS_BFRES_KEY_32, keys, 3, 40);
    g_autoptr (TressCurve) c = ops->get_curve (u8, 0);
    g_autoptr (GBytes) raw = NULL;
    g_autoptr (TressBfres) again = NULL;
    RefCurve rc;

    tress_curve_get_key (c, 0)->frame = -1;
    g_assert_true (ops->set_curve (u8, 0, c, &err, &error));
    g_assert_no_error (error);
    again = save_and_read (u8, &raw, &rc);
    g_assert_cmpuint (rc.ft, ==, TRESS_BFRES_FRAME_S10_5);
    g_assert_cmpfloat (ref_frame (&rc, 0), ==, -1);
    g_assert_cmpfloat (ref_frame (&rc, 1), ==, 10);
    g_assert_cmpfloat (rc.start, ==, -1);
  }
}

/* A u8 frame array of three keys (4 bytes with its padding) widened to s10.5
 * needs 6 bytes, padded to 8: it is written anew at the end of the file,
 * 4-aligned, and its padding is in the file and zero; the key array, still
 * fitting, stays where it was. */
static void
test_widened_frame_padding (void)
{
  TressKey keys[] = {
    { .frame = 0, .value = 0, .interp = TRESS_INTERP_LINEAR },
    { .frame = 5, .value = 1, .interp = TRESS_INTERP_LINEAR },
    { .frame = 10, .value = -1, .interp = TRESS_INTERP_LINEAR },
  };
  g_autoptr (TressBfres) b
      = build (TRESS_BFRES_CURVE_LINEAR, TRESS_BFRES_FRAME_U8, TRESS_BFRES_KEY_32, keys, 3, 20);
  g_autoptr (TressCurve) curve = ops->get_curve (b, 0);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) raw = NULL;
  g_autoptr (TressBfres) again = NULL;
  TressBfresCurveInfo before;
  gsize size, at, padded;
  const guint8 *d;
  double err = -1;
  RefCurve rc;

  tress_bfres_get_curve_info (b, 0, &before);
  tress_curve_get_key (curve, 1)->frame = 5.5;
  g_assert_true (ops->set_curve (b, 0, curve, &err, &error));
  g_assert_no_error (error);
  again = save_and_read (b, &raw, &rc);
  d = g_bytes_get_data (raw, &size);
  g_assert_cmpuint (rc.ft, ==, TRESS_BFRES_FRAME_S10_5);
  g_assert_cmpfloat (ref_frame (&rc, 1), ==, 5.5);
  g_assert_cmpfloat (ref_frame (&rc, 2), ==, 10);
  at = (gsize)(rc.frames - d);
  padded = (rc.n * frame_bytes (rc.ft) + 3) & ~(gsize)3;
  g_assert_cmpuint (padded, ==, 8);
  g_assert_cmpuint (at, >=, before.frames_pos + 4); /* not over the old array's space */
  g_assert_cmpuint (at + padded, <=, size);
  for (gsize i = rc.n * frame_bytes (rc.ft); i < padded; i++)
    g_assert_cmpuint (d[at + i], ==, 0);
  g_assert_cmpuint ((gsize)(rc.keys - d), ==, before.keys_pos);
}

/* A Linear segment ends where its own change takes it (c0 + c1), which may
 * miss the next key's value: the key carries a gap (arrives with one value,
 * leaves with another). Keys set with gaps, spaced by more than a frame, are
 * written so: c1 = arrival − value, for 32-bit and s16 keys, and an s16
 * curve's scale covers the change to the arrival. */
static void
test_linear_gap (void)
{
  static const TressBfresKeyType types[] = { TRESS_BFRES_KEY_32, TRESS_BFRES_KEY_S16 };

  for (guint t = 0; t < G_N_ELEMENTS (types); t++)
    {
      TressKey keys[] = {
        { .frame = 0, .value = 0, .interp = TRESS_INTERP_LINEAR },
        { .frame = 1, .value = 1, .interp = TRESS_INTERP_LINEAR },
        { .frame = 2, .value = 0, .interp = TRESS_INTERP_LINEAR },
      };
      /* value, arrival (in_gap = arrival − value), frame */
      static const double want[][3]
          = { { 0, 0, 0 }, { 1, 2.5, 10 }, { -2, -2.25, 40 }, { 1, 1, 41 } };
      g_autoptr (TressBfres) b
          = build (TRESS_BFRES_CURVE_LINEAR, TRESS_BFRES_FRAME_U8, types[t], keys, 3, 60);
      g_autoptr (TressCurve) curve = tress_curve_new ();
      g_autoptr (GError) error = NULL;
      g_autoptr (GBytes) raw = NULL;
      g_autoptr (TressBfres) again = NULL;
      g_autoptr (TressCurve) back = NULL;
      double err = -1, step;
      RefCurve rc;

      for (guint i = 0; i < G_N_ELEMENTS (want); i++)
        {
          TressKey k = { .frame = want[i][2],
                         .value = want[i][0],
                         .in_gap = (float)(want[i][1] - want[i][0]),
                         .interp = TRESS_INTERP_LINEAR };
          tress_curve_append_key (curve, &k);
        }
      tress_bfres_set_tolerance (b, 1e-3);
      g_assert_true (ops->set_curve (b, 0, curve, &err, &error));
      g_assert_no_error (error);
      again = save_and_read (b, &raw, &rc);
      g_assert_cmpuint (rc.ct, ==, TRESS_BFRES_CURVE_LINEAR);
      g_assert_cmpuint (rc.n, ==, G_N_ELEMENTS (want));
      /* The widest change, −3.25 from key 1 to key 2's arrival, sets the
       * scale (format page): the values fit the curve's own key type. */
      g_assert_cmpuint (rc.kt, ==, types[t]);
      step = rc.kt == TRESS_BFRES_KEY_32 ? 1e-6 : rc.scale;
      g_test_message ("%s keys: step %g", rc.kt == 0 ? "32-bit" : "s16", step);
      for (guint i = 0; i < rc.n; i++)
        {
          g_assert_cmpfloat (ref_frame (&rc, i), ==, want[i][2]);
          /* The key leaves with its value … */
          g_assert_cmpfloat_with_epsilon (ref_eval (&rc, want[i][2]), want[i][0], step);
          if (i + 1 < rc.n)
            {
              double c0 = ref_elem (&rc, 2 * i), c1 = ref_elem (&rc, 2 * i + 1);
              double f0 = want[i][2], f1 = want[i + 1][2];

              /* … and the segment runs straight to the next key's arrival. */
              g_assert_cmpfloat_with_epsilon ((c0 + c1) * rc.scale + rc.offset, want[i + 1][1],
                                              step);
              g_assert_cmpfloat_with_epsilon (ref_eval (&rc, (f0 + f1) / 2),
                                              (want[i][0] + want[i + 1][1]) / 2, step);
              g_assert_cmpfloat_with_epsilon (
                  ref_eval (&rc, f1 - 0.25),
                  want[i][0] + (want[i + 1][1] - want[i][0]) * (f1 - 0.25 - f0) / (f1 - f0), step);
            }
        }
      back = ops->get_curve (again, 0);
      for (guint i = 0; i < rc.n; i++)
        g_assert_cmpfloat_with_epsilon (tress_key_in_value (tress_curve_get_key (back, i)),
                                        want[i][1], step);
    }
}

/* The first and last values s8 and s16 keys hold at the curve's scale and
 * offset (offset ± 127 or 32767 steps) are stored in place: the editor
 * labels them stored (tress_curve_stored_value), the file keeps its scale and
 * offset, and the key's raw element is ±127 or ±32767. One step further is
 * outside: labelled so, and the curve gets a new scale. */
static void
test_stored_range_edge (void)
{
  static const TressBfresKeyType types[] = { TRESS_BFRES_KEY_S8, TRESS_BFRES_KEY_S16 };

  for (guint t = 0; t < G_N_ELEMENTS (types); t++)
    for (int sign = -1; sign <= 1; sign += 2)
      {
        TressKey keys[] = {
          { .frame = 0, .value = 0, .out_slope = 0.1, .interp = TRESS_INTERP_HERMITE },
          { .frame = 10, .value = 1, .in_slope = 0, .interp = TRESS_INTERP_HERMITE },
          { .frame = 20, .value = -1, .in_slope = 0.1, .interp = TRESS_INTERP_HERMITE },
          { .frame = 30, .value = 0.5, .interp = TRESS_INTERP_HERMITE },
        };
        g_autoptr (TressBfres) b
            = build (TRESS_BFRES_CURVE_CUBIC, TRESS_BFRES_FRAME_U8, types[t], keys, 4, 40);
        g_autoptr (TressCurve) curve = ops->get_curve (b, 0);
        g_autoptr (GError) error = NULL;
        double max_raw = types[t] == TRESS_BFRES_KEY_S16 ? 32767 : 127;
        double edge, err = -1;
        gboolean fits = FALSE;
        guint32 scale_bits, offset_bits;
        TressBfresCurveInfo info;

        g_assert_cmpuint (curve->value_steps, ==, (guint)max_raw);
        g_assert_cmpfloat (curve->value_step, >, 0);
        tress_bfres_get_curve_info (b, 0, &info);
        {
          g_autoptr (GBytes) raw = tress_bfres_get_bfres_bytes (b);
          const guint8 *d = g_bytes_get_data (raw, NULL);

          scale_bits = ref_u32 (d, info.header_pos + 0x10);
          offset_bits = ref_u32 (d, info.header_pos + 0x14);
        }
        edge = curve->value_base + sign * max_raw * curve->value_step;
        g_assert_cmpfloat (tress_curve_stored_value (curve, edge, &fits), ==, edge);
        g_assert_true (fits);

        /* Key 2, whose segments either side have room for their slopes. */
        tress_curve_get_key (curve, 2)->value = edge;
        g_assert_true (ops->set_curve (b, 0, curve, &err, &error));
        g_assert_no_error (error);
        {
          g_autoptr (GBytes) raw = NULL;
          g_autoptr (TressBfres) again = NULL;
          RefCurve rc;

          again = save_and_read (b, &raw, &rc);
          tress_bfres_get_curve_info (again, 0, &info);
          g_assert_cmpuint (rc.kt, ==, types[t]);
          g_assert_cmphex (ref_u32 (g_bytes_get_data (raw, NULL), info.header_pos + 0x10), ==,
                           scale_bits);
          g_assert_cmphex (ref_u32 (g_bytes_get_data (raw, NULL), info.header_pos + 0x14), ==,
                           offset_bits);
          g_assert_cmpfloat (ref_elem (&rc, 4 * 2), ==, sign * max_raw);
          g_assert_cmpfloat_with_epsilon (ref_eval (&rc, 20), edge, 1e-6 * MAX (1, fabs (edge)));
        }

        /* One step further out. */
        g_clear_pointer (&curve, tress_curve_unref);
        curve = ops->get_curve (b, 0);
        edge += sign * curve->value_step;
        tress_curve_stored_value (curve, edge, &fits);
        g_assert_false (fits);
        tress_curve_get_key (curve, 2)->value = edge;
        g_assert_true (ops->set_curve (b, 0, curve, &err, &error));
        g_assert_no_error (error);
        {
          g_autoptr (GBytes) raw = NULL;
          g_autoptr (TressBfres) again = NULL;
          RefCurve rc;

          again = save_and_read (b, &raw, &rc);
          tress_bfres_get_curve_info (again, 0, &info);
          g_assert_true (
              ref_u32 (g_bytes_get_data (raw, NULL), info.header_pos + 0x10) != scale_bits
              || ref_u32 (g_bytes_get_data (raw, NULL), info.header_pos + 0x14) != offset_bits
              || rc.kt != types[t]);
        }
      }
}

/* What storing an edit would cost, asked before storing it: an edit on the
 * s16 keys' stored step moves no other key and is answered (TRUE, nothing
 * lossy); one far outside their range is answered too, lossy, with a wider
 * type offered. Neither stores anything. */
static void
test_preview_store (void)
{
  TressKey keys[] = {
    { .frame = 0, .value = 0, .interp = TRESS_INTERP_LINEAR },
    { .frame = 10, .value = 1, .interp = TRESS_INTERP_LINEAR },
    { .frame = 20, .value = -1, .interp = TRESS_INTERP_LINEAR },
  };
  g_autoptr (TressBfres) b
      = build (TRESS_BFRES_CURVE_LINEAR, TRESS_BFRES_FRAME_U8, TRESS_BFRES_KEY_S16, keys, 3, 30);
  g_autoptr (TressCurve) curve = ops->get_curve (b, 0);
  g_autoptr (TressCurve) after = NULL;
  g_autoptr (GError) error = NULL;
  TressStoreCost cost;
  double on_step;
  gboolean fits = FALSE;

  g_assert_cmpfloat (curve->value_step, >, 0);
  on_step = curve->value_base + 100 * curve->value_step;
  g_assert_cmpfloat (tress_curve_stored_value (curve, on_step, &fits), ==, on_step);
  g_assert_true (fits);
  tress_curve_get_key (curve, 1)->value = on_step;
  g_assert_true (ops->preview_store (b, 0, curve, &cost, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (cost.type, ==, "s16");
  g_assert_cmpfloat (cost.moved, ==, 0);
  g_assert_cmpfloat (cost.step, ==, cost.new_step);
  g_assert_false (tress_store_cost_is_lossy (&cost));
  g_assert_null (cost.wide_type);
  tress_store_cost_clear (&cost);

  tress_curve_get_key (curve, 1)->value = 1000;
  g_assert_true (ops->preview_store (b, 0, curve, &cost, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (cost.type, ==, "s16");
  g_assert_cmpfloat (cost.new_step, >, cost.step);
  g_assert_true (tress_store_cost_is_lossy (&cost));
  g_assert_nonnull (cost.wide_type);
  tress_store_cost_clear (&cost);

  after = ops->get_curve (b, 0);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpfloat_with_epsilon (tress_curve_get_key (after, i)->value, keys[i].value,
                                    curve->value_step);
}

/* A key moved past the end of the animation, stored through the commit
 * rules: without consent to lengthen it the edit is refused, naming the
 * frame of the last key and the length it needs, and the file is left as it
 * was; with consent the animation grows to whole frames and holds the key. */
static void
test_commit_past_end (void)
{
  TressKey keys[] = {
    { .frame = 0, .value = 0, .interp = TRESS_INTERP_LINEAR },
    { .frame = 10, .value = 1, .interp = TRESS_INTERP_LINEAR },
    { .frame = 20, .value = -1, .interp = TRESS_INTERP_LINEAR },
  };
  g_autoptr (TressBfres) b
      = build (TRESS_BFRES_CURVE_LINEAR, TRESS_BFRES_FRAME_F32, TRESS_BFRES_KEY_32, keys, 3, 30);
  g_autoptr (TressCurve) curve = ops->get_curve (b, 0);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) before = tress_format_bfres.serialize (b, NULL);
  double err = -1;

  g_assert_cmpfloat (curve->frame_count, ==, 30);
  tress_curve_get_key (curve, 2)->frame = 37.5;
  g_assert_false (tress_curve_commit (ops, b, 0, curve, 0, &err, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_cmpstr (error->message, ==,
                   "frame 37.5 is past the end of the animation (frame 30): it needs "
                   "lengthening to 38 frames first");
  g_clear_error (&error);
  {
    g_autoptr (GBytes) after = tress_format_bfres.serialize (b, NULL);
    tress_test_assert_bytes_equal (after, before);
  }

  g_assert_true (tress_curve_commit (ops, b, 0, curve, TRESS_COMMIT_LENGTHEN, &err, &error));
  g_assert_no_error (error);
  {
    g_autoptr (GBytes) raw = NULL;
    g_autoptr (TressBfres) again = NULL;
    g_autoptr (TressCurve) back = NULL;
    RefCurve rc;

    again = save_and_read (b, &raw, &rc);
    back = ops->get_curve (again, 0);
    g_assert_cmpfloat (back->frame_count, ==, 38);
    g_assert_cmpuint (rc.n, ==, 3);
    g_assert_cmpfloat (ref_frame (&rc, 2), ==, 37.5);
    g_assert_cmpfloat (rc.end, ==, 37.5);
    g_assert_cmpfloat (ref_eval (&rc, 37.5), ==, -1);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  ops = tress_format_bfres.curves;
  g_test_add_func ("/bfres/limits/u8-frame-256", test_u8_frame_256);
  g_test_add_func ("/bfres/limits/u8-frame-past-s10.5", test_u8_frame_past_s10_5);
  g_test_add_func ("/bfres/limits/negative-frames", test_negative_frames);
  g_test_add_func ("/bfres/limits/widened-frame-padding", test_widened_frame_padding);
  g_test_add_func ("/bfres/limits/linear-gap", test_linear_gap);
  g_test_add_func ("/bfres/limits/stored-range-edge", test_stored_range_edge);
  g_test_add_func ("/bfres/limits/preview-store", test_preview_store);
  g_test_add_func ("/bfres/limits/commit-past-end", test_commit_past_end);
  return g_test_run ();
}
