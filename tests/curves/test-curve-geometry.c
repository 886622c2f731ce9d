/* test-curve-geometry.c: the curve view's geometry, without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "app/curves/tress-curve-geometry.h"

/* A curve built by hand (only the struct), so these tests need nothing but the maths. */
static TressCurve *
make_curve (const double *frames, const double *values, guint n, TressInterp interp)
{
  TressCurve *c = g_new0 (TressCurve, 1);

  c->keys = g_array_new (FALSE, TRUE, sizeof (TressKey));
  for (guint i = 0; i < n; i++)
    {
      TressKey k = { 0 };
      k.frame = frames[i];
      k.value = values[i];
      k.interp = interp;
      g_array_append_val (c->keys, k);
    }
  return c;
}

static void
free_curve (TressCurve *c)
{
  g_array_unref (c->keys);
  g_free (c);
}

static void
test_mapping (void)
{
  TressCurveViewport vp;

  tress_curve_viewport_init (&vp, 200, 100);
  vp.frame_min = 10;
  vp.frame_max = 30;
  vp.value_min = -2;
  vp.value_max = 2;
  g_assert_cmpfloat_with_epsilon (tress_curve_viewport_frame_to_x (&vp, 10), 0, 1e-9);
  g_assert_cmpfloat_with_epsilon (tress_curve_viewport_frame_to_x (&vp, 20), 100, 1e-9);
  g_assert_cmpfloat_with_epsilon (tress_curve_viewport_value_to_y (&vp, 2), 0, 1e-9);
  g_assert_cmpfloat_with_epsilon (tress_curve_viewport_value_to_y (&vp, -2), 100, 1e-9);
  g_assert_cmpfloat_with_epsilon (tress_curve_viewport_value_to_y (&vp, 1), 25, 1e-9);
  for (double x = -50; x < 300; x += 17.5)
    g_assert_cmpfloat_with_epsilon (
        tress_curve_viewport_frame_to_x (&vp, tress_curve_viewport_x_to_frame (&vp, x)), x, 1e-9);
  for (double y = -50; y < 300; y += 13.25)
    g_assert_cmpfloat_with_epsilon (
        tress_curve_viewport_value_to_y (&vp, tress_curve_viewport_y_to_value (&vp, y)), y, 1e-9);
}

static void
test_zoom_pan (void)
{
  TressCurveViewport vp;
  double f_before, v_before;

  tress_curve_viewport_init (&vp, 400, 200);
  f_before = tress_curve_viewport_x_to_frame (&vp, 100);
  v_before = tress_curve_viewport_y_to_value (&vp, 50);

  /* Frame zoom only: the anchor stays under the pointer, values untouched. */
  tress_curve_viewport_zoom (&vp, 2, 1, 100, 50);
  g_assert_cmpfloat_with_epsilon (tress_curve_viewport_x_to_frame (&vp, 100), f_before, 1e-9);
  g_assert_cmpfloat_with_epsilon (vp.frame_max - vp.frame_min, 50, 1e-9);
  g_assert_cmpfloat_with_epsilon (vp.value_max - vp.value_min, 2, 1e-9);

  /* Value zoom only. */
  tress_curve_viewport_zoom (&vp, 1, 4, 100, 50);
  g_assert_cmpfloat_with_epsilon (tress_curve_viewport_y_to_value (&vp, 50), v_before, 1e-9);
  g_assert_cmpfloat_with_epsilon (vp.value_max - vp.value_min, 0.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (vp.frame_max - vp.frame_min, 50, 1e-9);

  /* Pan: dragging the content right by 40 px moves the same frame 40 px right. */
  {
    double f = 12.5, v = 0.1;
    double x = tress_curve_viewport_frame_to_x (&vp, f);
    double y = tress_curve_viewport_value_to_y (&vp, v);

    tress_curve_viewport_pan (&vp, 40, -30);
    g_assert_cmpfloat_with_epsilon (tress_curve_viewport_frame_to_x (&vp, f), x + 40, 1e-9);
    g_assert_cmpfloat_with_epsilon (tress_curve_viewport_value_to_y (&vp, v), y - 30, 1e-9);
  }

  /* Zooming by a silly factor never collapses the range. */
  for (int i = 0; i < 200; i++)
    tress_curve_viewport_zoom (&vp, 10, 10, 0, 0);
  g_assert_cmpfloat (vp.frame_max - vp.frame_min, >, 0);
  g_assert_cmpfloat (vp.value_max - vp.value_min, >, 0);
}

static void
test_fit (void)
{
  TressCurveViewport vp;

  tress_curve_viewport_init (&vp, 500, 300);
  tress_curve_viewport_fit (&vp, 0, 60, -1, 3, 20);
  g_assert_cmpfloat_with_epsilon (tress_curve_viewport_frame_to_x (&vp, 0), 20, 1e-6);
  g_assert_cmpfloat_with_epsilon (tress_curve_viewport_frame_to_x (&vp, 60), 480, 1e-6);
  g_assert_cmpfloat_with_epsilon (tress_curve_viewport_value_to_y (&vp, 3), 20, 1e-6);
  g_assert_cmpfloat_with_epsilon (tress_curve_viewport_value_to_y (&vp, -1), 280, 1e-6);

  /* A single key: a span around it, the key in the middle. */
  tress_curve_viewport_fit (&vp, 5, 5, 2, 2, 20);
  g_assert_cmpfloat_with_epsilon (tress_curve_viewport_frame_to_x (&vp, 5), 250, 1e-6);
  g_assert_cmpfloat_with_epsilon (tress_curve_viewport_value_to_y (&vp, 2), 150, 1e-6);
  g_assert_cmpfloat (vp.frame_max - vp.frame_min, >, 0);
}

static void
test_snap (void)
{
  double df = 3.4, dv = 1.2;

  g_assert_cmpfloat (tress_curve_snap_frame (3.4, 1), ==, 3);
  g_assert_cmpfloat (tress_curve_snap_frame (3.6, 1), ==, 4);
  g_assert_cmpfloat (tress_curve_snap_frame (-2.6, 1), ==, -3);
  g_assert_cmpfloat (tress_curve_snap_frame (3.04, 1.0 / 32), ==, 97.0 / 32);
  g_assert_cmpfloat (tress_curve_snap_frame (3.4, 0), ==, 3.4);

  tress_curve_axis_lock_apply (TRESS_AXIS_LOCK_FRAME, &df, &dv);
  g_assert_cmpfloat (df, ==, 3.4);
  g_assert_cmpfloat (dv, ==, 0);
  df = 3.4, dv = 1.2;
  tress_curve_axis_lock_apply (TRESS_AXIS_LOCK_VALUE, &df, &dv);
  g_assert_cmpfloat (df, ==, 0);
  g_assert_cmpfloat (dv, ==, 1.2);
}

static void
test_handles (void)
{
  const double f[] = { 0, 30, 36 };
  const double v[] = { 0, 3, 3 };
  TressCurve *c = make_curve (f, v, 3, TRESS_INTERP_HERMITE);
  double hf, hv;

  tress_curve_get_key (c, 0)->out_slope = 0.5;
  tress_curve_get_key (c, 1)->in_slope = -1;
  tress_curve_get_key (c, 1)->interp = TRESS_INTERP_LINEAR;

  /* Out handle of key 0 at a third of the segment 0…30. */
  g_assert_true (tress_curve_handle_point (c, 0, TRESS_CURVE_PART_OUT_HANDLE, &hf, &hv));
  g_assert_cmpfloat_with_epsilon (hf, 10, 1e-12);
  g_assert_cmpfloat_with_epsilon (hv, 5, 1e-12);
  /* In handle of key 1 (segment 0 is Hermite). */
  g_assert_true (tress_curve_handle_point (c, 1, TRESS_CURVE_PART_IN_HANDLE, &hf, &hv));
  g_assert_cmpfloat_with_epsilon (hf, 20, 1e-12);
  g_assert_cmpfloat_with_epsilon (hv, 13, 1e-12);
  /* Key 1 starts a linear segment: no out handle; key 0 has no in handle. */
  g_assert_false (tress_curve_key_has_handle (c, 1, TRESS_CURVE_PART_OUT_HANDLE));
  g_assert_false (tress_curve_key_has_handle (c, 0, TRESS_CURVE_PART_IN_HANDLE));
  g_assert_false (tress_curve_key_has_handle (c, 2, TRESS_CURVE_PART_OUT_HANDLE));

  /* A format that stores no slopes shows no handles. */
  c->limits.slopes_derived = TRUE;
  g_assert_false (tress_curve_key_has_handle (c, 0, TRESS_CURVE_PART_OUT_HANDLE));
  g_assert_false (tress_curve_handle_point (c, 1, TRESS_CURVE_PART_IN_HANDLE, &hf, &hv));
  c->limits.slopes_derived = FALSE;

  /* Dragging the out handle to value 2 makes the slope (2 − 0) / 10. */
  g_assert_cmpfloat_with_epsilon (tress_curve_handle_slope (c, 0, TRESS_CURVE_PART_OUT_HANDLE, 2),
                                  0.2, 1e-12);
  g_assert_cmpfloat_with_epsilon (tress_curve_handle_slope (c, 1, TRESS_CURVE_PART_IN_HANDLE, 1),
                                  0.2, 1e-12);
  free_curve (c);
}

static void
test_hit (void)
{
  const double f[] = { 0, 10, 20 };
  const double v[] = { 0, 1, 0 };
  TressCurve *a = make_curve (f, v, 3, TRESS_INTERP_HERMITE);
  TressCurve *b = make_curve (f, v, 3, TRESS_INTERP_LINEAR);
  TressCurveLayer layers[2]
      = { { a, TRESS_VALUE_MAP_IDENTITY, TRUE, FALSE }, { b, { 1, 0.5 }, TRUE, FALSE } };
  TressCurveViewport vp;
  TressCurveHit hit;
  double x, y;

  tress_curve_viewport_init (&vp, 200, 200);
  vp.frame_min = 0, vp.frame_max = 20, vp.value_min = -2, vp.value_max = 2;

  /* Key 1 of layer 0 at (100, 50). */
  g_assert_true (tress_curve_hit_test (layers, 2, &vp, 103, 52, 6, TRUE, &hit));
  g_assert_cmpint (hit.layer, ==, 0);
  g_assert_cmpint (hit.key, ==, 1);
  g_assert_cmpint (hit.part, ==, TRESS_CURVE_PART_KEY);
  /* Layer 1 is shifted up by 0.5 (its map): key 1 at (100, 25). */
  g_assert_true (tress_curve_hit_test (layers, 2, &vp, 99, 26, 6, TRUE, &hit));
  g_assert_cmpint (hit.layer, ==, 1);
  g_assert_cmpint (hit.key, ==, 1);
  /* Too far from everything. */
  g_assert_false (tress_curve_hit_test (layers, 2, &vp, 150, 190, 6, TRUE, &hit));
  /* The out handle of key 0 of the Hermite layer (slope 0 → at frame 10/3, value 0). */
  x = tress_curve_viewport_frame_to_x (&vp, 10.0 / 3);
  y = tress_curve_viewport_value_to_y (&vp, 0);
  g_assert_true (tress_curve_hit_test (layers, 2, &vp, x + 1, y, 5, TRUE, &hit));
  g_assert_cmpint (hit.layer, ==, 0);
  g_assert_cmpint (hit.key, ==, 0);
  g_assert_cmpint (hit.part, ==, TRESS_CURVE_PART_OUT_HANDLE);
  /* A key's marker under the pointer wins over a handle drawn nearer: keys a
   * frame apart (10 px), key 0's out handle 3.3 px right of it. */
  {
    const double f2[] = { 0, 1 };
    const double v2[] = { 0, 0 };
    TressCurve *close = make_curve (f2, v2, 2, TRESS_INTERP_HERMITE);
    TressCurveLayer near = { close, TRESS_VALUE_MAP_IDENTITY, TRUE, FALSE };
    double kx = tress_curve_viewport_frame_to_x (&vp, 0),
           ky = tress_curve_viewport_value_to_y (&vp, 0);

    g_assert_true (tress_curve_hit_test (&near, 1, &vp, kx + 3, ky + 1, 7, TRUE, &hit));
    g_assert_cmpint (hit.key, ==, 0);
    g_assert_cmpint (hit.part, ==, TRESS_CURVE_PART_KEY);
    /* Off the marker, the nearer handle. */
    g_assert_true (tress_curve_hit_test (&near, 1, &vp, kx + 5, ky, 7, TRUE, &hit));
    g_assert_cmpint (hit.key, ==, 0);
    g_assert_cmpint (hit.part, ==, TRESS_CURVE_PART_OUT_HANDLE);
    free_curve (close);
  }
  /* Without handles the same point hits nothing. */
  g_assert_false (tress_curve_hit_test (layers, 2, &vp, x + 1, y, 5, FALSE, &hit));
  /* A locked or hidden layer is never hit. */
  layers[0].locked = TRUE;
  g_assert_false (tress_curve_hit_test (layers, 2, &vp, 103, 52, 6, TRUE, &hit));
  layers[0].locked = FALSE;
  layers[1].visible = FALSE;
  g_assert_false (tress_curve_hit_test (layers, 2, &vp, 99, 26, 6, TRUE, &hit));
  free_curve (a);
  free_curve (b);
}

static void
test_box (void)
{
  const double f[] = { 0, 10, 20, 30 };
  const double v[] = { 0, 1, 0, -1 };
  TressCurve *a = make_curve (f, v, 4, TRESS_INTERP_LINEAR);
  TressCurveLayer layer = { a, TRESS_VALUE_MAP_IDENTITY, TRUE, FALSE };
  TressCurveViewport vp;
  g_autoptr (GArray) hits = g_array_new (FALSE, FALSE, sizeof (TressCurveHit));

  tress_curve_viewport_init (&vp, 300, 200);
  vp.frame_min = 0, vp.frame_max = 30, vp.value_min = -2, vp.value_max = 2;
  /* Keys at x 0,100,200,300; y 100,50,100,150. Box around keys 1 and 2, corners reversed. */
  tress_curve_box_select (&layer, 1, &vp, 250, 120, 90, 40, TRUE, hits);
  g_assert_cmpuint (hits->len, ==, 2);
  g_assert_cmpint (g_array_index (hits, TressCurveHit, 0).key, ==, 1);
  g_assert_cmpint (g_array_index (hits, TressCurveHit, 1).key, ==, 2);
  g_array_set_size (hits, 0);
  tress_curve_box_select (&layer, 1, &vp, 110, 0, 190, 200, TRUE, hits);
  g_assert_cmpuint (hits->len, ==, 0);
  free_curve (a);
}

static void
test_columns (void)
{
  const double f[] = { 0, 10, 20 };
  const double v[] = { 0, 1, -1 };
  TressCurve *c = make_curve (f, v, 3, TRESS_INTERP_STEP);
  TressCurveViewport vp;
  TressCurveColumn cols[40];
  guint inside;

  tress_curve_viewport_init (&vp, 40, 100);
  vp.frame_min = -5, vp.frame_max = 35, vp.value_min = -1, vp.value_max = 1;
  inside = tress_curve_sample_columns (c, TRESS_VALUE_MAP_IDENTITY, &vp, 0, 40, FALSE, cols);
  g_assert_cmpuint (inside, ==, 22);
  g_assert_true (isnan (cols[0].y_first));
  /* Column 10 covers frames 5…6: a hold at 0 (y 50). */
  g_assert_cmpfloat (cols[10].y_min, ==, 50);
  g_assert_cmpfloat (cols[10].y_max, ==, 50);
  /* Column 14 covers frames 9…10: the step jumps from 0 to 1 (y 50 → 0). */
  g_assert_cmpfloat (cols[14].y_min, ==, 0);
  g_assert_cmpfloat (cols[14].y_max, ==, 50);
  g_assert_cmpfloat (cols[14].y_first, ==, 50);
  g_assert_cmpfloat (cols[14].y_last, ==, 0);
  /* Column 15 covers 10…11: a hold at 1. */
  g_assert_cmpfloat (cols[15].y_min, ==, 0);
  g_assert_cmpfloat (cols[15].y_max, ==, 0);
  /* Column 24 covers 19…20: jump from 1 to −1 at the last key. */
  g_assert_cmpfloat (cols[24].y_min, ==, 0);
  g_assert_cmpfloat (cols[24].y_max, ==, 100);
  g_assert_true (isnan (cols[30].y_first));

  /* A looping curve is extrapolated (the ghost): column 35 = frame 30 = frame 10 of the cycle. */
  c->loops = TRUE;
  c->post_wrap = TRESS_WRAP_REPEAT;
  tress_curve_sample_columns (c, TRESS_VALUE_MAP_IDENTITY, &vp, 0, 40, TRUE, cols);
  g_assert_false (isnan (cols[35].y_first));
  g_assert_cmpfloat (cols[32].y_first, ==, 50); /* frame 27 → 7: hold at 0 */
  free_curve (c);
}

/* Outside its keys a looping curve's columns follow tress_curve_geometry_value()
 * (a column's ends and middle), whatever the wrap: repeated, mirrored, or held
 * within the animation's length; with keys on one frame (a jump) and Hermite
 * segments. */
static void
test_columns_ghost (void)
{
  const double f[] = { 0, 4, 4, 7.5, 12, 12.25, 20 };
  const double v[] = { 0, 1, -0.5, 0.75, 2, -1, 0.25 };
  const TressWrap wraps[] = { TRESS_WRAP_REPEAT, TRESS_WRAP_MIRROR, TRESS_WRAP_CLAMP };
  TressCurve *c = make_curve (f, v, G_N_ELEMENTS (f), TRESS_INTERP_HERMITE);
  TressCurveViewport vp;
  TressCurveColumn cols[276];

  for (guint i = 0; i < c->keys->len; i++)
    g_array_index (c->keys, TressKey, i).out_slope = g_array_index (c->keys, TressKey, i).in_slope
        = 0.3 * (i % 3) - 0.3;
  g_array_index (c->keys, TressKey, 3).interp = TRESS_INTERP_STEP;
  c->loops = TRUE;
  c->frame_count = 26;
  /* Half a frame a column: column ends fall on the keys' frames (and on the jump). */
  tress_curve_viewport_init (&vp, 276, 200);
  vp.frame_min = -48, vp.frame_max = 90, vp.value_min = -3, vp.value_max = 3;
  for (guint w = 0; w < G_N_ELEMENTS (wraps); w++)
    {
      double fpp = tress_curve_viewport_frames_per_px (&vp);
      guint outside = 0;

      c->pre_wrap = c->post_wrap = wraps[w];
      tress_curve_sample_columns (c, TRESS_VALUE_MAP_IDENTITY, &vp, 0, 276, TRUE, cols);
      for (guint x = 0; x < 276; x++)
        {
          double a = vp.frame_min + x * fpp, b = a + fpp;
          double ya = tress_curve_viewport_value_to_y (&vp, tress_curve_geometry_value (c, a));
          double ym
              = tress_curve_viewport_value_to_y (&vp, tress_curve_geometry_value (c, (a + b) / 2));
          double yb = tress_curve_viewport_value_to_y (&vp, tress_curve_geometry_value (c, b));

          if (b >= 0 && a <= 20)
            continue;
          outside++;
          g_assert_cmpfloat_with_epsilon (cols[x].y_first, ya, 1e-3);
          g_assert_cmpfloat_with_epsilon (cols[x].y_last, yb, 1e-3);
          g_assert_cmpfloat_with_epsilon (cols[x].y_min, MIN (ya, MIN (ym, yb)), 1e-3);
          g_assert_cmpfloat_with_epsilon (cols[x].y_max, MAX (ya, MAX (ym, yb)), 1e-3);
        }
      g_assert_cmpuint (outside, >, 200);
    }
  free_curve (c);
}

static void
test_columns_dense (void)
{
  /* 100,000 samples into 100 columns: min/max per column must see every sample. */
  guint n = 100000;
  TressCurve *c = g_new0 (TressCurve, 1);
  TressCurveViewport vp;
  TressCurveColumn cols[100];

  c->keys = g_array_sized_new (FALSE, TRUE, sizeof (TressKey), n);
  for (guint i = 0; i < n; i++)
    {
      TressKey k = { 0 };
      k.frame = i;
      k.value = (i == 54321) ? 1 : 0;
      k.interp = TRESS_INTERP_BAKED;
      g_array_append_val (c->keys, k);
    }
  tress_curve_viewport_init (&vp, 100, 100);
  vp.frame_min = 0, vp.frame_max = n, vp.value_min = -1, vp.value_max = 1;
  tress_curve_sample_columns (c, TRESS_VALUE_MAP_IDENTITY, &vp, 0, 100, FALSE, cols);
  for (guint col = 0; col < 100; col++)
    if (col == 54)
      g_assert_cmpfloat (cols[col].y_min, ==, 0);
    else
      g_assert_cmpfloat (cols[col].y_min, ==, 50);
  free_curve (c);
}

static void
test_values (void)
{
  const double f[] = { 0, 10 };
  const double v[] = { 0, 1 };
  TressCurve *c = make_curve (f, v, 2, TRESS_INTERP_HERMITE);
  TressValueMap map;

  /* Flat tangents: smoothstep, 0.5 in the middle, 0.104 at a fifth. */
  g_assert_cmpfloat_with_epsilon (tress_curve_geometry_value (c, 5), 0.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (tress_curve_geometry_value (c, 2), 0.104, 1e-12);
  g_assert_cmpfloat (tress_curve_geometry_value (c, -3), ==, 0);
  g_assert_cmpfloat (tress_curve_geometry_value (c, 13), ==, 1);
  c->post_wrap = TRESS_WRAP_MIRROR;
  g_assert_cmpfloat_with_epsilon (tress_curve_geometry_value (c, 18), 0.104, 1e-12);

  map = tress_curve_normalize_map (c);
  g_assert_cmpfloat_with_epsilon (0 * map.scale + map.offset, -1, 1e-12);
  g_assert_cmpfloat_with_epsilon (1 * map.scale + map.offset, 1, 1e-12);
  free_curve (c);
}

/* A looping animation whose keys end before it does: the drawn curve holds the
 * last value to the end (as playback evaluates it), then starts again. */
static void
test_values_loop_past_keys (void)
{
  const double f[] = { 0, 20 };
  const double v[] = { 0, 1 };
  TressCurve *c = make_curve (f, v, 2, TRESS_INTERP_LINEAR);

  c->loops = TRUE;
  c->frame_count = 30;
  for (double fr = 0; fr <= 30; fr += 0.5)
    g_assert_cmpfloat_with_epsilon (tress_curve_geometry_value (c, fr),
                                    tress_curve_evaluate (c, fr), 1e-12);
  g_assert_cmpfloat (tress_curve_geometry_value (c, 25), ==, 1);
  g_assert_cmpfloat_with_epsilon (tress_curve_geometry_value (c, 35), 0.25, 1e-12); /* 35 → 5 */
  g_assert_cmpfloat (tress_curve_geometry_value (c, -5), ==, 1); /* −5 → 25 */
  free_curve (c);
}

/* Stored segments that do not join (BFRES): the drawn line follows each
 * segment to its own end, and the column holding the key spans the step from
 * that end to the key's value, as tress_curve_evaluate plays it. */
static void
test_segment_ends (void)
{
  const double f[] = { 0, 10, 20 };
  const double v[] = { 0, 0.5, -1 };
  TressCurve *c = make_curve (f, v, 3, TRESS_INTERP_LINEAR);
  TressCurveViewport vp;
  TressCurveColumn cols[40];

  g_array_index (c->keys, TressKey, 1).in_gap = 0.25f; /* segment 0 ends at 0.75 */
  for (double fr = 0; fr <= 20; fr += 0.37)
    g_assert_cmpfloat_with_epsilon (tress_curve_geometry_value (c, fr),
                                    tress_curve_evaluate (c, fr), 1e-12);
  g_assert_cmpfloat_with_epsilon (tress_curve_geometry_value (c, 9.999999), 0.75, 1e-6);
  g_assert_cmpfloat (tress_curve_geometry_value (c, 10), ==, 0.5);
  g_assert_cmpfloat_with_epsilon (tress_curve_geometry_segment_value (c, 0, 10), 0.75, 1e-12);
  /* Column 15 covers frames 9.5…10.5 (y = 50 − 50 v): from 0.725 up to the
   * end 0.75 (y 12.5), down to the key's 0.5 (y 25) and on towards −1. */
  tress_curve_viewport_init (&vp, 40, 100);
  vp.frame_min = -5.5, vp.frame_max = 34.5, vp.value_min = -1, vp.value_max = 1;
  tress_curve_sample_columns (c, TRESS_VALUE_MAP_IDENTITY, &vp, 0, 40, FALSE, cols);
  g_assert_cmpfloat_with_epsilon (cols[15].y_min, 12.5, 1e-4);
  g_assert_cmpfloat_with_epsilon (cols[15].y_first, 50 - 50 * 0.7125, 1e-4);
  g_assert_cmpfloat_with_epsilon (cols[15].y_last, 50 - 50 * 0.425, 1e-4);

  /* A drag moves the key whole: the value it is reached with follows. */
  {
    TressCurve *orig = make_curve (f, v, 3, TRESS_INTERP_LINEAR);
    guint key = 1;

    g_array_index (orig->keys, TressKey, 1).in_gap = 0.25f;
    g_assert_true (tress_curve_drag_step (c, orig, &key, 1, 0, 0.125));
    g_assert_cmpfloat (tress_key_in_value (&g_array_index (c->keys, TressKey, 1)), ==, 0.875);
    free_curve (orig);
  }
  free_curve (c);
}

static void
test_drag_step (void)
{
  const double f[] = { 0, 10, 20, 30, 40 };
  const double v[] = { 0, 1, 0, 1, 0 };
  TressCurve *orig = make_curve (f, v, 5, TRESS_INTERP_HERMITE);
  TressCurve *edit = make_curve (f, v, 5, TRESS_INTERP_HERMITE);
  const guint moved[] = { 2 };

  for (guint i = 0; i < 5; i++)
    {
      tress_curve_get_key (orig, i)->tangent = TRESS_TANGENT_AUTO;
      tress_curve_get_key (edit, i)->tangent = TRESS_TANGENT_AUTO;
    }
  tress_curve_get_key (edit, 4)->out_slope = 42; /* far away: must stay as it is */

  /* Key 2 to (22, 2): neighbours 1 and 3 get new Catmull-Rom slopes. */
  g_assert_true (tress_curve_drag_step (edit, orig, moved, 1, 2, 2));
  g_assert_cmpfloat (tress_curve_get_key (edit, 2)->frame, ==, 22);
  g_assert_cmpfloat (tress_curve_get_key (edit, 2)->value, ==, 2);
  g_assert_cmpfloat_with_epsilon (tress_curve_get_key (edit, 1)->out_slope, 2.0 / 22, 1e-12);
  g_assert_cmpfloat_with_epsilon (tress_curve_get_key (edit, 3)->in_slope, (0.0 - 2) / 18, 1e-12);
  g_assert_cmpfloat (tress_curve_get_key (edit, 4)->out_slope, ==, 42);
  /* Steps are relative to the original, not cumulative. */
  g_assert_true (tress_curve_drag_step (edit, orig, moved, 1, -1, 0));
  g_assert_cmpfloat (tress_curve_get_key (edit, 2)->frame, ==, 19);
  g_assert_cmpfloat (tress_curve_get_key (edit, 2)->value, ==, 0);
  /* Onto the neighbour's frame: the caller must re-sort. */
  g_assert_false (tress_curve_drag_step (edit, orig, moved, 1, 10, 0));
  free_curve (orig);
  free_curve (edit);
}

/* Grid numbers with as many digits as it takes for neighbours to differ. */
static void
test_ticks (void)
{
  char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE];
  static const struct
  {
    double v, step, lo, hi;
    const char *want;
  } cases[] = {
    { 1.7420, 0.0001, 1.7418, 1.7425, "1.7420" },
    { 1.7421, 0.0001, 1.7418, 1.7425, "1.7421" },
    { 20, 5, 0, 30, "20" },
    { 0.25, 0.05, -1, 1, "0.25" },
    { -1e-17, 0.2, -1, 1, "0.0" },
    { 1.5e9, 1e6, 1.49e9, 1.51e9, "1.5e+09" },
    { 1500001000, 1000, 1.5e9, 1.5000021e9, "1.500001e+09" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      tress_curve_format_tick (a, sizeof a, cases[i].v, cases[i].step, cases[i].lo, cases[i].hi);
      g_assert_cmpstr (a, ==, cases[i].want);
    }
  /* Neighbours on a small range differ (they were "1.742, 1.742, 1.741"). */
  for (double v = 1.7410; v < 1.7425; v += 0.0005)
    {
      tress_curve_format_tick (a, sizeof a, v, 0.0005, 1.7410, 1.7425);
      tress_curve_format_tick (b, sizeof b, v + 0.0005, 0.0005, 1.7410, 1.7425);
      g_assert_cmpstr (a, !=, b);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/curves/geometry/mapping", test_mapping);
  g_test_add_func ("/curves/geometry/zoom-pan", test_zoom_pan);
  g_test_add_func ("/curves/geometry/fit", test_fit);
  g_test_add_func ("/curves/geometry/snap", test_snap);
  g_test_add_func ("/curves/geometry/handles", test_handles);
  g_test_add_func ("/curves/geometry/hit", test_hit);
  g_test_add_func ("/curves/geometry/box", test_box);
  g_test_add_func ("/curves/geometry/columns", test_columns);
  g_test_add_func ("/curves/geometry/columns-dense", test_columns_dense);
  g_test_add_func ("/curves/geometry/columns-ghost", test_columns_ghost);
  g_test_add_func ("/curves/geometry/values", test_values);
  g_test_add_func ("/curves/geometry/loop-past-keys", test_values_loop_past_keys);
  g_test_add_func ("/curves/geometry/segment-ends", test_segment_ends);
  g_test_add_func ("/curves/geometry/drag-step", test_drag_step);
  g_test_add_func ("/curves/geometry/ticks", test_ticks);
  return g_test_run ();
}
