/* test-bfres-samples.c: the real Wii U files open, round-trip byte for byte,
 * and every curve evaluates as the format page says
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "bfres-test-common.h"
#include "tress-test-utils.h"

static const char *const samples[] = {
  "bfres/Animal_Bass.bfres",
  "bfres/Animal_Bass_Animation.bfres",
  "bfres/Animal_Bass_Animation.sbfres",
  "bfres/Animal_Dog_Animation.bfres",
};

static void
test_round_trip (void)
{
  for (guint s = 0; s < G_N_ELEMENTS (samples); s++)
    {
      g_autoptr (GBytes) bytes = tress_test_load_sample (samples[s]);
      g_autoptr (GError) error = NULL;
      g_autoptr (TressBfres) b = NULL;
      g_autoptr (GBytes) out = NULL;

      if (bytes == NULL)
        return;
      b = tress_bfres_parse (bytes, samples[s], &error);
      g_assert_no_error (error);
      out = tress_bfres_serialize (b, &error);
      g_assert_no_error (error);
      tress_test_assert_bytes_equal (bytes, out);
    }
}

/* Every curve, at every key, in the middle of every segment and 0.37 into it:
 * the parser's own evaluation and the neutral curve model (what tress-cli
 * eval, playback and the graph use) give what the stored coefficients give
 * when evaluated directly, to float precision. Cubic segments that do not
 * join (their own end misses the next key's value) are counted: the model
 * keeps both values, so the curve shows a step there, as the game plays it. */
static void
test_every_curve (void)
{
  guint total = 0, gaps = 0, segments = 0;
  double worst = 0;

  for (guint s = 0; s < G_N_ELEMENTS (samples); s++)
    {
      g_autoptr (GBytes) bytes = tress_test_load_sample (samples[s]);
      g_autoptr (GError) error = NULL;
      g_autoptr (TressBfres) b = NULL;
      g_autoptr (GBytes) raw = NULL;
      const guint8 *d;

      if (bytes == NULL)
        return;
      b = tress_bfres_parse (bytes, samples[s], &error);
      g_assert_no_error (error);
      raw = tress_bfres_get_bfres_bytes (b);
      d = g_bytes_get_data (raw, NULL);
      for (guint i = 0; i < tress_bfres_get_n_curves (b); i++)
        {
          TressBfresCurveInfo info;
          RefCurve rc;
          g_autoptr (TressCurve) curve = tress_format_bfres.curves->get_curve (b, i);
          g_autofree double *frames = NULL;
          guint m;

          g_assert_true (tress_bfres_get_curve_info (b, i, &info));
          ref_curve_read (d, info.header_pos, tress_bfres_get_version (b) >= 0x03040000, &rc);
          g_assert_cmpuint (rc.n, ==, info.n_keys);
          g_assert_cmpuint (rc.n, ==, tress_curve_get_n_keys (curve));
          g_assert_cmpfloat (rc.start, ==, ref_frame (&rc, 0));
          g_assert_cmpfloat (rc.end, ==, ref_frame (&rc, rc.n - 1));
          g_assert_cmpfloat (curve->quant_error, ==, 0);
          for (guint k = 0; k < rc.n; k++)
            g_assert_cmpfloat (tress_curve_get_key (curve, k)->frame, ==, ref_frame (&rc, k));
          frames = g_new (double, 3 * (gsize)rc.n);
          m = ref_probe_frames (&rc, frames);
          for (guint j = 0; j < m; j++)
            {
              double want = ref_eval (&rc, frames[j]);
              double got = tress_curve_evaluate (curve, frames[j]);

              g_assert_cmpfloat_with_epsilon (tress_bfres_evaluate (b, i, frames[j]), want,
                                              ref_float_precision (want));
              g_assert_cmpfloat_with_epsilon (got, want, ref_float_precision (want));
              worst = MAX (worst, fabs (got - want) / MAX (1.0, fabs (want)));
            }
          if (rc.ct == 0)
            for (guint k = 0; k + 1 < rc.n; k++)
              {
                /* Just before the next key: this segment's own end. */
                double f1 = ref_frame (&rc, k + 1);
                double end = ((ref_elem (&rc, 4 * k) + ref_elem (&rc, 4 * k + 1))
                              + ref_elem (&rc, 4 * k + 2) + ref_elem (&rc, 4 * k + 3))
                                 * rc.scale
                             + rc.offset;
                double near_end = nextafter (f1, -G_MAXDOUBLE);

                segments++;
                if (ref_elem (&rc, 4 * k + 4)
                    != ((ref_elem (&rc, 4 * k) + ref_elem (&rc, 4 * k + 1))
                        + ref_elem (&rc, 4 * k + 2) + ref_elem (&rc, 4 * k + 3)))
                  gaps++;
                g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (curve, near_end), end,
                                                ref_float_precision (end));
                g_assert_cmpfloat_with_epsilon (
                    tress_key_in_value (tress_curve_get_key (curve, k + 1)), end,
                    ref_float_precision (end));
              }
          total++;
        }
    }
  g_assert_cmpuint (total, ==, 1 + 84 + 84 + 4464);
  /* Bass twice (.bfres and .sbfres): 804 of 2,072 each; Dog: 88,006 of 229,330
   * (87,855 with s16 or s8 keys, 151 with f32 keys). */
  g_test_message ("%u of %u cubic segments do not join; largest relative difference %.3g", gaps,
                  segments, worst);
  g_assert_cmpuint (segments, ==, 2072 + 2072 + 229330);
  g_assert_cmpuint (gaps, ==, 804 + 804 + 88006);
}

static void
test_labels (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("bfres/Animal_Bass_Animation.bfres");
  g_autoptr (GBytes) model_bytes = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (TressBfres) b = NULL, m = NULL;
  g_autoptr (TressCurve) curve = NULL;
  TressBfresCurveInfo info;
  int i;

  if (bytes == NULL)
    return;
  b = tress_bfres_parse (bytes, "anim", &error);
  g_assert_no_error (error);
  i = tress_bfres_find_curve (b, "Dead/Skl_Root/Rotate X");
  g_assert_cmpint (i, ==, 0);
  g_assert_true (tress_bfres_get_curve_info (b, 0, &info));
  g_assert_cmpstr (info.kind, ==, "Skeletal");
  g_assert_cmpuint (info.target_offset, ==, 0x20);
  g_assert_cmpint (info.curve_type, ==, TRESS_BFRES_CURVE_CUBIC);
  g_assert_cmpint (info.frame_type, ==, TRESS_BFRES_FRAME_U8);
  g_assert_cmpint (info.key_type, ==, TRESS_BFRES_KEY_S16);
  curve = tress_format_bfres.curves->get_curve (b, 0);
  g_assert_cmpstr (curve->path, ==, "Dead/Skl_Root/Rotate X");
  g_assert_cmpstr (curve->component, ==, "X");
  g_assert_cmpstr (curve->type_label, ==, "Cubic, u8 frames, s16 keys");
  g_assert_cmpfloat (curve->frame_count, ==, 30);
  g_assert_cmpuint (curve->limits.interp_mask & TRESS_INTERP_MASK (TRESS_INTERP_STEP), ==, 0);
  g_assert_cmpstr (tress_bfres_get_container (b), ==, "");

  model_bytes = tress_test_load_sample ("bfres/Animal_Bass.bfres");
  if (model_bytes == NULL)
    return;
  m = tress_bfres_parse (model_bytes, "model", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tress_bfres_get_n_curves (m), ==, 1);
  g_clear_pointer (&curve, tress_curve_unref);
  curve = tress_format_bfres.curves->get_curve (m, 0);
  g_assert_cmpstr (curve->path, ==, "Bass_Color/Mt_Body/_a0");
  g_assert_cmpstr (curve->kind, ==, "Texture pattern");
  g_assert_cmpint (curve->limits.value_kind, ==, TRESS_VALUE_INT);
  g_assert_nonnull (strstr (curve->note, "texture index"));
  /* StepInt: key + integer offset, held between keys. */
  g_assert_cmpfloat (tress_curve_evaluate (curve, 0.5), ==, tress_curve_evaluate (curve, 0));
}

static void
test_yaz0_sample (void)
{
  g_autoptr (GBytes) z = tress_test_load_sample ("bfres/Animal_Bass_Animation.sbfres");
  g_autoptr (GBytes) raw = tress_test_load_sample ("bfres/Animal_Bass_Animation.bfres");
  g_autoptr (GError) error = NULL;
  g_autoptr (TressBfres) b = NULL;
  g_autoptr (GBytes) inner = NULL;

  if (z == NULL || raw == NULL)
    return;
  g_assert_true (tress_format_bfres.probe (g_bytes_get_data (z, NULL), g_bytes_get_size (z)));
  b = tress_bfres_parse (z, "sbfres", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tress_bfres_get_container (b), ==, "Yaz0");
  inner = tress_bfres_get_bfres_bytes (b);
  tress_test_assert_bytes_equal (inner, raw);
}

static void
test_validate_clean (void)
{
  for (guint s = 0; s < G_N_ELEMENTS (samples); s++)
    {
      g_autoptr (GBytes) bytes = tress_test_load_sample (samples[s]);
      g_autoptr (GError) error = NULL;
      g_autoptr (TressBfres) b = NULL;
      g_autoptr (GPtrArray) problems = NULL;

      if (bytes == NULL)
        return;
      b = tress_bfres_parse (bytes, samples[s], &error);
      g_assert_no_error (error);
      problems = tress_format_bfres.validate (b);
      g_assert_cmpuint (tress_problem_list_count (problems, TRESS_SEVERITY_WARNING), ==, 0);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bfres/samples/round-trip", test_round_trip);
  g_test_add_func ("/bfres/samples/every-curve", test_every_curve);
  g_test_add_func ("/bfres/samples/labels", test_labels);
  g_test_add_func ("/bfres/samples/yaz0", test_yaz0_sample);
  g_test_add_func ("/bfres/samples/validate", test_validate_clean);
  return g_test_run ();
}
