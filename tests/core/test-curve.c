/* test-curve.c: the format-neutral curve model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "core/tress-curve.h"
#include "core/tress-error.h"

static TressCurve *
make_curve (TressInterp interp)
{
  TressCurve *c = tress_curve_new ();
  TressKey keys[] = {
    { .frame = 0, .value = 0, .in_slope = 0, .out_slope = 1, .interp = interp },
    { .frame = 10, .value = 5, .in_slope = 0.5, .out_slope = 0.5, .interp = interp },
    { .frame = 20, .value = -5, .in_slope = -2, .out_slope = 0, .interp = interp },
  };
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    tress_curve_append_key (c, &keys[i]);
  return c;
}

static void
test_curve_evaluate_kinds (void)
{
  g_autoptr (TressCurve) step = make_curve (TRESS_INTERP_STEP);
  g_autoptr (TressCurve) linear = make_curve (TRESS_INTERP_LINEAR);
  g_autoptr (TressCurve) hermite = make_curve (TRESS_INTERP_HERMITE);
  double t = 0.25, d = 10;
  double expect;

  g_assert_cmpfloat (tress_curve_evaluate (step, 9.99), ==, 0);
  g_assert_cmpfloat (tress_curve_evaluate (step, 10), ==, 5);
  g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (linear, 15), 0, 1e-12);
  /* Clamped outside the keys. */
  g_assert_cmpfloat (tress_curve_evaluate (linear, -3), ==, 0);
  g_assert_cmpfloat (tress_curve_evaluate (linear, 99), ==, -5);
  /* Hermite, written out from the basis functions. */
  expect = (2 * t * t * t - 3 * t * t + 1) * 0 + (t * t * t - 2 * t * t + t) * d * 1
           + (-2 * t * t * t + 3 * t * t) * 5 + (t * t * t - t * t) * d * 0.5;
  g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (hermite, 2.5), expect, 1e-12);
  g_assert_cmpfloat_with_epsilon (tress_curve_slope (hermite, 0), 1, 1e-12);
  g_assert_cmpfloat_with_epsilon (tress_curve_slope (hermite, 19.999999), -2, 1e-4);
}

static void
test_curve_cubic_round_trip (void)
{
  double c[4], p0, p1, m0, m1;

  tress_hermite_to_cubic (1, 3, 0.5, -0.25, 8, c);
  g_assert_cmpfloat (c[0], ==, 1);
  g_assert_cmpfloat (c[1], ==, 4);
  tress_cubic_to_hermite (c, 8, &p0, &p1, &m0, &m1);
  g_assert_cmpfloat_with_epsilon (p0, 1, 1e-12);
  g_assert_cmpfloat_with_epsilon (p1, 3, 1e-12);
  g_assert_cmpfloat_with_epsilon (m0, 0.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (m1, -0.25, 1e-12);
  /* The polynomial and the Hermite form agree inside the segment. */
  for (double t = 0; t <= 1; t += 0.125)
    {
      double poly = ((c[3] * t + c[2]) * t) * t + (c[1] * t + c[0]);
      g_assert_cmpfloat_with_epsilon (poly, tress_hermite (1, 3, 0.5, -0.25, 8, t), 1e-12);
    }
}

static void
test_curve_insert_keeps_shape (void)
{
  g_autoptr (TressCurve) c = make_curve (TRESS_INTERP_HERMITE);
  g_autoptr (TressCurve) before = tress_curve_copy (c);
  g_autoptr (GError) error = NULL;
  int k = tress_curve_insert_on_curve (c, 3.5, &error);

  g_assert_no_error (error);
  g_assert_cmpint (k, ==, 1);
  g_assert_cmpuint (tress_curve_get_n_keys (c), ==, 4);
  for (double f = -2; f <= 22; f += 0.37)
    g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (c, f), tress_curve_evaluate (before, f),
                                    1e-9);
  /* No second key on the same frame. */
  g_assert_cmpint (tress_curve_insert_on_curve (c, 3.5, &error), ==, -1);
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_clear_error (&error);

  /* Before the first key and after the last the curve holds its end values;
   * keys inserted there keep it flat even when the end keys have slopes. */
  tress_curve_get_key (c, 0)->in_slope = 1;
  tress_curve_get_key (c, 3)->out_slope = -2;
  g_clear_pointer (&before, tress_curve_unref);
  before = tress_curve_copy (c);
  g_assert_cmpint (tress_curve_insert_on_curve (c, 25, &error), ==, 4);
  g_assert_cmpint (tress_curve_insert_on_curve (c, -5, &error), ==, 0);
  g_assert_no_error (error);
  for (double f = -5; f <= 25; f += 0.25)
    g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (c, f), tress_curve_evaluate (before, f),
                                    1e-9);

  /* One slope per key (NIFF): the end keys keep their slopes, which shape the
   * segments inside; the new outside segments become linear and stay flat. */
  {
    g_autoptr (TressCurve) tied = make_curve (TRESS_INTERP_HERMITE);
    g_autoptr (TressCurve) tied_before = NULL;
    guint n;

    tied->limits.tied_tangents = TRUE;
    tied->loops = TRUE; /* playback loops; the curve still holds its ends */
    tress_curve_get_key (tied, 0)->in_slope = tress_curve_get_key (tied, 0)->out_slope = 1;
    n = tress_curve_get_n_keys (tied);
    tress_curve_get_key (tied, n - 1)->in_slope = tress_curve_get_key (tied, n - 1)->out_slope = -2;
    tied_before = tress_curve_copy (tied);
    g_assert_cmpint (tress_curve_insert_on_curve (tied, 25, &error), ==, (int)n);
    g_assert_cmpint (tress_curve_insert_on_curve (tied, -5, &error), ==, 0);
    g_assert_no_error (error);
    for (double f = -5; f <= 25; f += 0.25)
      g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (tied, f),
                                      tress_curve_evaluate (tied_before, f), 1e-9);
    g_assert_cmpfloat (tress_curve_get_key (tied, n)->in_slope, ==, -2);
    g_assert_cmpfloat (tress_curve_get_key (tied, n)->out_slope, ==, -2);
  }
}

static void
test_curve_insert_snaps_to_grid (void)
{
  g_autoptr (TressCurve) c = make_curve (TRESS_INTERP_LINEAR);
  g_autoptr (GError) error = NULL;
  int k;

  c->limits.frame_step = 1;
  k = tress_curve_insert_on_curve (c, 4.4, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (tress_curve_get_key (c, k)->frame, ==, 4);
  g_assert_cmpfloat_with_epsilon (tress_curve_get_key (c, k)->value, 2, 1e-12);

  /* Past the last storable frame: refused, not moved to the end. */
  c->limits.frame_max = 20;
  g_assert_cmpint (tress_curve_insert_on_curve (c, 25, &error), ==, -1);
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_cmpuint (tress_curve_get_n_keys (c), ==, 4);
}

static void
test_curve_limits (void)
{
  g_autoptr (TressCurve) c = make_curve (TRESS_INTERP_HERMITE);
  g_autoptr (GError) error = NULL;

  g_assert_true (tress_curve_check_limits (c, &error));
  c->limits.frame_step = 1;
  tress_curve_get_key (c, 1)->frame = 10.5;
  g_assert_false (tress_curve_check_limits (c, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "whole frames"));
  g_clear_error (&error);
  tress_curve_get_key (c, 1)->frame = 10;

  c->limits.tied_tangents = TRUE;
  g_assert_false (tress_curve_check_limits (c, &error));
  g_assert_nonnull (strstr (error->message, "broken tangents"));
  g_clear_error (&error);
  tress_curve_conform (c);
  g_assert_true (tress_curve_check_limits (c, &error));

  c->limits.interp_mask = TRESS_INTERP_MASK (TRESS_INTERP_LINEAR);
  g_assert_false (tress_curve_check_limits (c, &error));
  g_clear_error (&error);
  c->limits.interp_mask = TRESS_INTERP_MASK_ALL;

  c->limits.value_kind = TRESS_VALUE_INT;
  tress_curve_get_key (c, 1)->value = 2.5;
  g_assert_false (tress_curve_check_limits (c, &error));
  g_clear_error (&error);

  tress_curve_get_key (c, 1)->value = 2;
  tress_curve_get_key (c, 2)->frame = 5;
  g_assert_false (tress_curve_check_limits (c, &error));
  g_assert_nonnull (strstr (error->message, "increasing"));
  g_assert_true (tress_curve_sort (c));
  g_assert_cmpfloat (tress_curve_get_key (c, 1)->frame, ==, 5);
}

static void
test_curve_tangents (void)
{
  g_autoptr (TressCurve) c = make_curve (TRESS_INTERP_HERMITE);
  TressKey *k = tress_curve_get_key (c, 1);

  k->tangent = TRESS_TANGENT_AUTO;
  tress_curve_update_tangent (c, 1);
  g_assert_cmpfloat_with_epsilon (k->out_slope, (-5.0 - 0.0) / 20.0, 1e-12);
  k->tangent = TRESS_TANGENT_AUTO_CLAMPED;
  tress_curve_update_tangent (c, 1);
  /* Key 1 is a local maximum: clamped tangents go flat. */
  g_assert_cmpfloat (k->out_slope, ==, 0);
  k->tangent = TRESS_TANGENT_LINEAR;
  tress_curve_update_tangent (c, 1);
  g_assert_cmpfloat_with_epsilon (k->in_slope, 0.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (k->out_slope, -1, 1e-12);
  k->tangent = TRESS_TANGENT_FLAT;
  tress_curve_update_tangent (c, 1);
  g_assert_cmpfloat (k->in_slope, ==, 0);
  g_assert_cmpfloat (k->out_slope, ==, 0);
}

static void
test_curve_wrap (void)
{
  g_autoptr (TressCurve) c = make_curve (TRESS_INTERP_LINEAR);

  c->post_wrap = TRESS_WRAP_REPEAT;
  g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (c, 25), tress_curve_evaluate (c, 5), 1e-12);
  c->post_wrap = TRESS_WRAP_MIRROR;
  g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (c, 25), tress_curve_evaluate (c, 15),
                                  1e-12);
  c->pre_wrap = TRESS_WRAP_REPEAT;
  g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (c, -5), tress_curve_evaluate (c, 15),
                                  1e-12);
}

static void
test_curve_bake_and_fit (void)
{
  g_autoptr (TressCurve) c = make_curve (TRESS_INTERP_HERMITE);
  g_autoptr (TressCurve) baked = tress_curve_bake (c, 0, 20);
  g_autoptr (TressCurve) fit = NULL;

  g_assert_cmpuint (tress_curve_get_n_keys (baked), ==, 21);
  for (guint i = 0; i <= 20; i++)
    {
      g_assert_cmpint (tress_curve_get_key (baked, i)->interp, ==, TRESS_INTERP_BAKED);
      g_assert_cmpfloat_with_epsilon (tress_curve_get_key (baked, i)->value,
                                      tress_curve_evaluate (c, i), 1e-12);
    }
  fit = tress_curve_fit (baked, 0.05, TRESS_INTERP_HERMITE);
  g_assert_cmpuint (tress_curve_get_n_keys (fit), <, 21);
  g_assert_cmpuint (tress_curve_get_n_keys (fit), >=, 2);
  for (guint i = 0; i <= 20; i++)
    g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (fit, i), tress_curve_evaluate (c, i),
                                    0.05 + 1e-9);
  /* A span of more frames than a bake may make is refused, not allocated. */
  g_assert_null (tress_curve_bake (c, 0, 1e9));
  g_assert_null (tress_curve_bake (c, 0, TRESS_CURVE_MAX_BAKED));
  {
    g_autoptr (TressCurve) most = tress_curve_bake (c, 0, TRESS_CURVE_MAX_BAKED - 1);
    g_assert_cmpuint (tress_curve_get_n_keys (most), ==, TRESS_CURVE_MAX_BAKED);
  }
}

/* Segments stored on their own (BFRES coefficients): a key is reached with
 * value + in_gap and leaves with value. Evaluation, slopes, bounds, inserting
 * on the curve and baking follow each segment's own polynomial. */
static void
test_curve_segment_ends (void)
{
  /* Cubic coefficients of two segments of 10 frames; the first ends at 3.25,
   * the second starts at 3. */
  static const double c_a[4] = { 1, 2, 0.5, -0.25 }, c_b[4] = { 3, -1, 0, 0.5 };
  g_autoptr (TressCurve) c = tress_curve_new ();
  g_autoptr (TressCurve) baked = NULL;
  double p0, p1, m0, m1, q0, q1, n0, n1, vmin, vmax;
  TressKey k = { .interp = TRESS_INTERP_HERMITE };
  int at;

  tress_cubic_to_hermite (c_a, 10, &p0, &p1, &m0, &m1);
  tress_cubic_to_hermite (c_b, 10, &q0, &q1, &n0, &n1);
  g_assert_cmpfloat (p1, ==, 3.25);
  k.frame = 0, k.value = p0, k.in_slope = k.out_slope = m0;
  tress_curve_append_key (c, &k);
  k.frame = 10, k.value = q0, k.in_gap = (float)(p1 - q0), k.in_slope = m1, k.out_slope = n0;
  tress_curve_append_key (c, &k);
  k.frame = 20, k.value = q1, k.in_gap = 0, k.in_slope = k.out_slope = n1;
  tress_curve_append_key (c, &k);

  g_assert_cmpfloat (tress_key_in_value (tress_curve_get_key (c, 1)), ==, 3.25);
  for (double f = 0; f <= 20; f += 0.37)
    {
      const double *cc = f < 10 ? c_a : c_b;
      double t = f < 10 ? f / 10 : (f - 10) / 10;
      double want = ((cc[3] * t + cc[2]) * t) * t + (cc[1] * t + cc[0]);

      g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (c, f), want, 1e-12);
    }
  /* The step at the key: just before, the first segment's end; at it, the key. */
  g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (c, nextafter (10, 0)), 3.25, 1e-9);
  g_assert_cmpfloat (tress_curve_evaluate (c, 10), ==, 3);
  g_assert_cmpfloat_with_epsilon (tress_curve_slope (c, 9.999999), m1, 1e-5);
  tress_curve_get_bounds (c, NULL, NULL, &vmin, &vmax);
  g_assert_cmpfloat (vmax, >=, 3.25);
  g_assert_cmpfloat (vmin, <=, 1);

  /* Baking samples what is played, step included. */
  baked = tress_curve_bake (c, 0, 20);
  for (guint i = 0; i < tress_curve_get_n_keys (baked); i++)
    g_assert_cmpfloat (tress_curve_get_key (baked, i)->value, ==,
                       tress_curve_evaluate (c, tress_curve_get_key (baked, i)->frame));

  /* Inserting on the curve keeps both segments' shapes and the step. */
  at = tress_curve_insert_on_curve (c, 4, NULL);
  g_assert_cmpint (at, ==, 1);
  g_assert_cmpfloat (tress_curve_get_key (c, 1)->in_gap, ==, 0);
  for (double f = 0; f <= 20; f += 0.37)
    {
      const double *cc = f < 10 ? c_a : c_b;
      double t = f < 10 ? f / 10 : (f - 10) / 10;
      double want = ((cc[3] * t + cc[2]) * t) * t + (cc[1] * t + cc[0]);

      g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (c, f), want, 1e-9);
    }

  /* Whole-number curves never keep a gap. */
  c->limits.value_kind = TRESS_VALUE_INT;
  tress_curve_conform (c);
  for (guint i = 0; i < tress_curve_get_n_keys (c); i++)
    g_assert_cmpfloat (tress_curve_get_key (c, i)->in_gap, ==, 0);
}

static void
test_curve_copy_is_deep (void)
{
  g_autoptr (TressCurve) c = make_curve (TRESS_INTERP_LINEAR);
  g_autoptr (TressCurve) copy = NULL;

  tress_curve_set_text (&c->path, "Fly/Skl_Root/Rotate Z");
  copy = tress_curve_copy (c);
  tress_curve_get_key (c, 0)->value = 100;
  tress_curve_set_text (&c->path, "other");
  g_assert_cmpfloat (tress_curve_get_key (copy, 0)->value, ==, 0);
  g_assert_cmpstr (copy->path, ==, "Fly/Skl_Root/Rotate Z");
}

/* The precision an edit is measured against with no tolerance set: half the
 * stored step (a hair over), else a float's rounding of the largest value. */
static void
test_curve_precision (void)
{
  g_autoptr (TressCurve) c = make_curve (TRESS_INTERP_LINEAR);
  double biggest = 0;

  for (guint i = 0; i < tress_curve_get_n_keys (c); i++)
    biggest = MAX (biggest, fabs (tress_curve_get_key (c, i)->value));
  g_assert_cmpfloat (tress_curve_get_precision (c), ==, MAX (biggest, 1.0) * FLT_EPSILON);
  c->value_step = 0.00299537;
  c->value_base = 0.001;
  c->value_steps = 127;
  g_assert_cmpfloat (tress_curve_get_precision (c), >=, 0.00299537 / 2);
  g_assert_cmpfloat (tress_curve_get_precision (c), <, 0.00299537 / 2 * (1 + 1e-5));
}

/* The curve editor labels a dragged or typed value "Stored …" while it lies
 * within the steps a quantized curve holds (value_base + k × value_step,
 * |k| ≤ value_steps) and "outside the stored range" past them: the first and
 * last representable values themselves are inside, on both sides, for s8 and
 * s16 steps; half a step further is where the next step (outside) begins. */
static void
test_curve_stored_range_edges (void)
{
  static const guint steps[] = { 127, 32767 };
  /* Scale and offset as a file stores them: 32-bit floats. */
  static const float bases[] = { 0.001f, -3.75f, 12345.5f };
  static const float step_sizes[] = { 0.00299537f, 1.0f / 3, 0.0625f };

  for (guint si = 0; si < G_N_ELEMENTS (steps); si++)
    for (guint bi = 0; bi < G_N_ELEMENTS (bases); bi++)
      for (guint ti = 0; ti < G_N_ELEMENTS (step_sizes); ti++)
        {
          g_autoptr (TressCurve) c = make_curve (TRESS_INTERP_HERMITE);
          double base = bases[bi], step = step_sizes[ti], n = steps[si];
          double max = base + n * step, min = base - n * step;
          gboolean fits = FALSE;
          double stored;

          c->value_base = base;
          c->value_step = step;
          c->value_steps = steps[si];

          stored = tress_curve_stored_value (c, max, &fits);
          g_assert_true (fits);
          g_assert_cmpfloat (stored, ==, max);
          stored = tress_curve_stored_value (c, min, &fits);
          g_assert_true (fits);
          g_assert_cmpfloat (stored, ==, min);
          /* Within half a step of the edge: stored on it. */
          stored = tress_curve_stored_value (c, max + 0.49 * step, &fits);
          g_assert_true (fits);
          g_assert_cmpfloat (stored, ==, max);
          stored = tress_curve_stored_value (c, min - 0.49 * step, &fits);
          g_assert_true (fits);
          g_assert_cmpfloat (stored, ==, min);
          /* Nearer the next step out: outside. */
          tress_curve_stored_value (c, max + 0.51 * step, &fits);
          g_assert_false (fits);
          tress_curve_stored_value (c, min - 0.51 * step, &fits);
          g_assert_false (fits);
          tress_curve_stored_value (c, max + step, &fits);
          g_assert_false (fits);
          tress_curve_stored_value (c, min - step, &fits);
          g_assert_false (fits);
        }
}

/* A Hermite segment overshooting its keys: the bounds (what Frame All fits)
 * hold the peak between them, as a dense sampling finds it. */
static void
test_curve_bounds_overshoot (void)
{
  g_autoptr (TressCurve) c = tress_curve_new ();
  TressKey k = { .interp = TRESS_INTERP_HERMITE };
  double vmin, vmax, peak = -G_MAXDOUBLE, low = G_MAXDOUBLE;

  k.frame = 0;
  k.out_slope = 1.5;
  tress_curve_append_key (c, &k);
  k.frame = 20;
  k.in_slope = k.out_slope = 1.5;
  tress_curve_append_key (c, &k);
  for (double f = 0; f <= 20; f += 0.01)
    {
      peak = MAX (peak, tress_curve_evaluate (c, f));
      low = MIN (low, tress_curve_evaluate (c, f));
    }
  tress_curve_get_bounds (c, NULL, NULL, &vmin, &vmax);
  g_assert_cmpfloat (peak, >, 2);
  g_assert_cmpfloat (vmax, >=, peak * 0.97);
  g_assert_cmpfloat (vmin, <=, low * 0.97);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/curve/evaluate-kinds", test_curve_evaluate_kinds);
  g_test_add_func ("/curve/cubic-round-trip", test_curve_cubic_round_trip);
  g_test_add_func ("/curve/insert-keeps-shape", test_curve_insert_keeps_shape);
  g_test_add_func ("/curve/insert-snaps-to-grid", test_curve_insert_snaps_to_grid);
  g_test_add_func ("/curve/limits", test_curve_limits);
  g_test_add_func ("/curve/tangents", test_curve_tangents);
  g_test_add_func ("/curve/wrap", test_curve_wrap);
  g_test_add_func ("/curve/bake-and-fit", test_curve_bake_and_fit);
  g_test_add_func ("/curve/segment-ends", test_curve_segment_ends);
  g_test_add_func ("/curve/copy-is-deep", test_curve_copy_is_deep);
  g_test_add_func ("/curve/precision", test_curve_precision);
  g_test_add_func ("/curve/stored-range-edges", test_curve_stored_range_edges);
  g_test_add_func ("/curve/bounds-overshoot", test_curve_bounds_overshoot);
  return g_test_run ();
}
