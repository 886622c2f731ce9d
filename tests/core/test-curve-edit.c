/* test-curve-edit.c: the curve edit operations, without a display
 *
 * Every operation the editor and tress-cli share (tress-curve-edit.h): what it
 * does to the keys, where the selection goes, what it refuses and how it says
 * so; and the batch that applies one over several curves all-or-nothing,
 * including curves that share keys (the components of a NIFF record).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "core/tress-curve-edit.h"
#include "core/tress-error.h"
#include "formats/tress-format.h"
#include "tress-test-utils.h"

/* Keys at frames 0 10 20 30 40 with values 0 2 1 3 0, Hermite, flat slopes. */
static TressCurve *
make_curve (void)
{
  static const double values[] = { 0, 2, 1, 3, 0 };
  TressCurve *c = tress_curve_new ();

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      TressKey k = { .frame = 10.0 * i, .value = values[i], .interp = TRESS_INTERP_HERMITE };

      tress_curve_append_key (c, &k);
    }
  tress_curve_set_text (&c->path, "Test/Bone/Translate X");
  return c;
}

static GArray *
sel (guint n, ...)
{
  GArray *keys = g_array_new (FALSE, FALSE, sizeof (guint));
  va_list args;

  va_start (args, n);
  for (guint i = 0; i < n; i++)
    {
      guint k = va_arg (args, guint);
      g_array_append_val (keys, k);
    }
  va_end (args);
  return keys;
}

static guint
sel_at (GArray *keys, guint i)
{
  return g_array_index (keys, guint, i);
}

static const TressKey *
key (const TressCurve *c, guint i)
{
  return tress_curve_get_key (c, i);
}

/* The frames of the keys, as "0 10 20". */
static char *
frames (const TressCurve *c)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < tress_curve_get_n_keys (c); i++)
    g_string_append_printf (s, "%s%g", i ? " " : "", key (c, i)->frame);
  return g_string_free (s, FALSE);
}

#define assert_frames(c, expected)                                                                 \
  G_STMT_START                                                                                     \
  {                                                                                                \
    g_autofree char *f_ = frames (c);                                                              \
    g_assert_cmpstr (f_, ==, expected);                                                            \
  }                                                                                                \
  G_STMT_END

#define assert_refused(error, fragment)                                                            \
  G_STMT_START                                                                                     \
  {                                                                                                \
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);                                      \
    if (strstr ((error)->message, fragment) == NULL)                                               \
      g_error ("refusal \"%s\" does not say \"%s\"", (error)->message, fragment);                  \
    g_clear_error (&(error));                                                                      \
  }                                                                                                \
  G_STMT_END

/* ------------------------------------------------------------- helpers -- */

static void
test_sort_tracking (void)
{
  g_autoptr (TressCurve) c = make_curve ();
  g_autoptr (GArray) keys = sel (2, 1u, 3u);

  /* Key 1 (10) to 35, key 3 (30) to 5: both pass others. */
  tress_curve_get_key (c, 1)->frame = 35;
  tress_curve_get_key (c, 3)->frame = 5;
  g_assert_true (tress_curve_sort_tracking (c, keys));
  assert_frames (c, "0 5 20 35 40");
  g_assert_cmpuint (sel_at (keys, 0), ==, 3); /* the key from 10, now at 35 */
  g_assert_cmpuint (sel_at (keys, 1), ==, 1);
  g_assert_cmpfloat (key (c, 3)->value, ==, 2);
  /* Two keys on one frame: sorted all the same, and said. */
  tress_curve_get_key (c, 0)->frame = 20;
  g_assert_false (tress_curve_sort_tracking (c, NULL));
}

static void
test_conform_and_remap (void)
{
  g_autoptr (TressCurve) c = make_curve ();
  g_autoptr (TressCurve) before = NULL;
  g_autoptr (GArray) keys = sel (3, 0u, 2u, 4u);
  g_autoptr (GArray) mapped = NULL;

  c->limits.value_kind = TRESS_VALUE_BOOL;
  tress_curve_get_key (c, 1)->value = 0.4;
  tress_curve_get_key (c, 3)->value = -7;
  tress_curve_conform_values (c);
  g_assert_cmpfloat (key (c, 1)->value, ==, 0);
  g_assert_cmpfloat (key (c, 2)->value, ==, 1);
  g_assert_cmpfloat (key (c, 3)->value, ==, 1); /* not 0: true */
  c->limits.value_kind = TRESS_VALUE_INT;
  c->limits.value_max = 0.5;
  tress_curve_get_key (c, 1)->value = 2.6;
  tress_curve_conform_values (c);
  g_assert_cmpfloat (key (c, 1)->value, ==, 0.5); /* rounded to 3, then within the range */

  /* Indices follow the keys by frame; keys gone drop out. */
  before = tress_curve_copy (c);
  tress_curve_remove_key (c, 2);
  mapped = tress_curve_remap_keys (before, keys, c);
  g_assert_cmpuint (mapped->len, ==, 2);
  g_assert_cmpuint (sel_at (mapped, 0), ==, 0);
  g_assert_cmpuint (sel_at (mapped, 1), ==, 3);
  g_assert_cmpint (tress_curve_key_in (before, 2, c), ==, -1);
  g_assert_true (tress_curve_same_keys (before, before));
  g_assert_false (tress_curve_same_keys (before, c));

  /* An index past the old keys (a selection gone stale) drops out: it is not
   * looked up in the memory after them, where the removed key at 40 (or its
   * zeroed bytes: frame 0) would be found in the new curve. */
  {
    g_autoptr (TressCurve) shorter = make_curve ();
    g_autoptr (TressCurve) full = make_curve ();
    g_autoptr (GArray) stale = sel (2, 1u, 4u);
    g_autoptr (GArray) kept = NULL;

    tress_curve_remove_key (shorter, 4);
    kept = tress_curve_remap_keys (shorter, stale, full);
    g_assert_cmpuint (kept->len, ==, 1);
    g_assert_cmpuint (sel_at (kept, 0), ==, 1);
  }

  /* Past the end only: a longer animation would take it. */
  tress_curve_limits_init_unbounded (&c->limits);
  c->limits.frame_max = 35;
  g_assert_true (tress_curve_only_past_end (c));
  c->limits.value_max = 10;
  tress_curve_get_key (c, 0)->value = 11; /* also out of range */
  g_assert_false (tress_curve_only_past_end (c));
}

/* ---------------------------------------------------------------- move -- */

static void
test_move (void)
{
  g_autoptr (TressCurve) c = make_curve ();
  g_autoptr (GArray) keys = sel (1, 1u);
  g_autoptr (GError) error = NULL;

  g_assert_true (tress_curve_edit_move (c, keys, 3, -0.5, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (key (c, 1)->frame, ==, 13);
  g_assert_cmpfloat (key (c, 1)->value, ==, 1.5);
  g_assert_cmpuint (sel_at (keys, 0), ==, 1);

  /* Past two neighbours: the selection follows the key to its new index. */
  g_assert_true (tress_curve_edit_move (c, keys, 22, 0, &error));
  assert_frames (c, "0 20 30 35 40");
  g_assert_cmpuint (sel_at (keys, 0), ==, 3);
  g_assert_cmpfloat (key (c, 3)->value, ==, 1.5);

  /* Onto another key: refused, with the curve's name. */
  g_assert_false (tress_curve_edit_move (c, keys, 5, 0, &error));
  assert_refused (error, "two keys of Test/Bone/Translate X would share a frame");
}

static void
test_move_whole_numbers_and_tangents (void)
{
  g_autoptr (TressCurve) c = make_curve ();
  g_autoptr (GArray) keys = sel (1, 2u);
  g_autoptr (GError) error = NULL;

  /* Int curves keep whole values; automatic slopes around the key follow. */
  c->limits.value_kind = TRESS_VALUE_INT;
  for (guint i = 0; i < 5; i++)
    tress_curve_get_key (c, i)->tangent = TRESS_TANGENT_AUTO;
  g_assert_true (tress_curve_edit_move (c, keys, 0, 0.7, &error));
  g_assert_cmpfloat (key (c, 2)->value, ==, 2);
  /* Key 1 sits between 0 (frame 0) and 2 (frame 20): Catmull-Rom slope 0.1. */
  g_assert_cmpfloat_with_epsilon (key (c, 1)->out_slope, 0.1, 1e-12);
  g_assert_cmpfloat_with_epsilon (key (c, 3)->in_slope, (0 - 2) / 20.0, 1e-12);
  /* Key 0 is not a neighbour of the moved key: left alone. */
  g_assert_cmpfloat (key (c, 0)->out_slope, ==, 0);
}

/* Keys that pass others leave old neighbours too: every automatic slope
 * follows (as at the end of a drag). */
static void
test_move_reorder_tangents (void)
{
  g_autoptr (TressCurve) c = make_curve ();
  g_autoptr (GArray) keys = sel (1, 1u);
  g_autoptr (GError) error = NULL;

  for (guint i = 0; i < 5; i++)
    tress_curve_get_key (c, i)->tangent = TRESS_TANGENT_AUTO;
  tress_curve_update_all_tangents (c);
  /* Key 1 (10, 2) to frame 25: key 0's next neighbour is now (20, 1). */
  g_assert_true (tress_curve_edit_move (c, keys, 15, 0, &error));
  assert_frames (c, "0 20 25 30 40");
  g_assert_cmpuint (sel_at (keys, 0), ==, 2);
  g_assert_cmpfloat_with_epsilon (key (c, 0)->out_slope, 1 / 20.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (key (c, 1)->out_slope, (2 - 0) / 25.0, 1e-12);
}

/* A dragged handle: the tangent turns manual; in ≠ out is broken, refused
 * where the format ties the slopes or derives them. */
static void
test_set_slopes (void)
{
  g_autoptr (TressCurve) c = make_curve ();
  g_autoptr (GArray) keys = sel (1, 3u);
  g_autoptr (GError) error = NULL;
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_SET_SLOPES, .key = 1 };
  g_autofree char *label = tress_curve_edit_dup_label (&e, 1);

  g_assert_cmpstr (label, ==, "Change slope");
  tress_curve_get_key (c, 1)->tangent = TRESS_TANGENT_AUTO;
  e.value.in_slope = e.value.out_slope = 0.3;
  g_assert_true (tress_curve_edit_apply (&e, c, keys, &error));
  g_assert_cmpint (key (c, 1)->tangent, ==, TRESS_TANGENT_MANUAL);
  g_assert_cmpfloat (key (c, 1)->in_slope, ==, 0.3);
  g_assert_false (key (c, 1)->flags & TRESS_KEY_BROKEN);
  g_assert_cmpuint (sel_at (keys, 0), ==, 3); /* the selection stays */
  g_assert_true (tress_curve_edit_set_slopes (c, keys, 1, 0.3, 0, &error));
  g_assert_true (key (c, 1)->flags & TRESS_KEY_BROKEN);
  c->limits.tied_tangents = TRUE;
  g_assert_false (tress_curve_edit_set_slopes (c, keys, 1, 0.3, 0, &error));
  assert_refused (error, "one slope per key");
  c->limits.slopes_derived = TRUE;
  g_assert_false (tress_curve_edit_set_slopes (c, keys, 1, 0.3, 0.3, &error));
  assert_refused (error, "stores no slopes");
}

/* Keys reached with another value than they leave with (BFRES segments that
 * miss the next key by a step): moving a key moves both values; scaling
 * scales both; whole-number curves hold values, never reached along a
 * segment; a pasted key is reached where it sits; unwrapping turns both. */
static void
test_arrival_values (void)
{
  g_autoptr (TressCurve) c = make_curve ();
  g_autoptr (GArray) keys = sel (1, 2u);
  g_autoptr (GError) error = NULL;
  TressKey src = { .frame = 0, .value = 7, .in_gap = 0.25f, .interp = TRESS_INTERP_LINEAR };

  tress_curve_get_key (c, 2)->in_gap = 0.125f;
  g_assert_true (tress_curve_edit_move (c, keys, 1, 0.5, &error));
  g_assert_cmpfloat (key (c, 2)->value, ==, 1.5);
  g_assert_cmpfloat (tress_key_in_value (key (c, 2)), ==, 1.625);
  g_assert_true (tress_curve_edit_scale (c, keys, 21, 1, 2, TRUE, &error));
  g_assert_cmpfloat (key (c, 2)->in_gap, ==, 0.25f);
  g_assert_true (tress_curve_edit_paste (c, keys, &src, 1, 45, &error));
  g_assert_cmpfloat (key (c, 5)->in_gap, ==, 0);
  c->limits.value_kind = TRESS_VALUE_INT;
  g_array_set_size (keys, 0);
  g_assert_true (tress_curve_edit_move (c, keys, 0, 0, &error));
  g_assert_cmpfloat (key (c, 2)->in_gap, ==, 0);

  /* Turned by a flip: the middle angle's gap changes sign. */
  {
    TressCurve *xyz[3];
    g_autoptr (GError) e2 = NULL;

    for (guint a = 0; a < 3; a++)
      {
        TressKey k0 = { .frame = 0, .value = a == 1 ? 1.3 : 0.2, .interp = TRESS_INTERP_LINEAR };
        TressKey k1 = { .frame = 1, .interp = TRESS_INTERP_LINEAR };

        /* The other triple of (0.25, 1.35, 0.25), wrapped. */
        k1.value = a == 1 ? G_PI - 1.35 : 0.25 - G_PI;
        k1.in_gap = 0.001f;
        xyz[a] = tress_curve_new ();
        xyz[a]->angle = TRUE;
        tress_curve_append_key (xyz[a], &k0);
        tress_curve_append_key (xyz[a], &k1);
      }
    g_assert_true (tress_curve_edit_unwrap_euler (xyz, TRESS_EULER_XYZ, &e2));
    g_assert_cmpfloat_with_epsilon (key (xyz[1], 1)->value, 1.35, 1e-12);
    g_assert_cmpfloat (key (xyz[1], 1)->in_gap, ==, -0.001f);
    g_assert_cmpfloat_with_epsilon (key (xyz[0], 1)->value, 0.25, 1e-12);
    g_assert_cmpfloat (key (xyz[0], 1)->in_gap, ==, 0.001f);
    for (guint a = 0; a < 3; a++)
      tress_curve_unref (xyz[a]);
  }
}

/* --------------------------------------------------------------- scale -- */

static void
test_scale (void)
{
  g_autoptr (TressCurve) c = make_curve ();
  g_autoptr (GArray) keys = sel (2, 1u, 3u);
  g_autoptr (GError) error = NULL;

  /* Keys 1 and 3 (frames 10, 30; values 2, 3) by 1.5 in time, 2 in value around
   * frame 20 and the middle of their values (2.5). */
  tress_curve_get_key (c, 1)->out_slope = tress_curve_get_key (c, 1)->in_slope = 0.3;
  g_assert_true (tress_curve_edit_scale (c, keys, 20, 1.5, 2, FALSE, &error));
  g_assert_no_error (error);
  assert_frames (c, "0 5 20 35 40");
  g_assert_cmpfloat (key (c, 1)->value, ==, 1.5);
  g_assert_cmpfloat (key (c, 3)->value, ==, 3.5);
  g_assert_cmpfloat_with_epsilon (key (c, 1)->out_slope, 0.3 * 2 / 1.5, 1e-12);

  /* Around the value at the pivot frame (the playhead's). */
  g_assert_true (tress_curve_edit_scale (c, keys, 20, 1, 0, TRUE, &error));
  g_assert_cmpfloat (key (c, 1)->value, ==, 1);
  g_assert_cmpfloat (key (c, 3)->value, ==, 1);

  /* Onto the frame grid; collapsing two keys onto one frame is refused. */
  c->limits.frame_step = 1;
  g_assert_true (tress_curve_edit_scale (c, keys, 20, 0.33, 1, FALSE, &error));
  assert_frames (c, "0 15 20 25 40");
  g_assert_false (tress_curve_edit_scale (c, keys, 20, 0, 1, FALSE, &error));
  assert_refused (error, "share a frame");
}

/* -------------------------------------------------------------- insert -- */

static void
test_insert (void)
{
  g_autoptr (TressCurve) c = make_curve ();
  g_autoptr (TressCurve) before = tress_curve_copy (c);
  g_autoptr (GArray) keys = sel (1, 3u);
  g_autoptr (GError) error = NULL;

  g_assert_true (tress_curve_edit_insert (c, keys, 15, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (keys->len, ==, 1);
  g_assert_cmpuint (sel_at (keys, 0), ==, 2); /* the new key is the selection */
  for (double f = -5; f <= 45; f += 0.25)
    g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (c, f), tress_curve_evaluate (before, f),
                                    1e-9);

  g_assert_false (tress_curve_edit_insert (c, keys, 15, &error));
  assert_refused (error, "already sits at frame 15");
  /* The first key too (index 0), also within the tolerance of its frame. */
  g_assert_false (tress_curve_edit_insert (c, keys, 0, &error));
  assert_refused (error, "already sits at frame 0");
  g_assert_false (tress_curve_edit_insert (c, keys, 1e-10, &error));
  assert_refused (error, "already sits at frame 1e-10");
  g_assert_cmpuint (tress_curve_get_n_keys (c), ==, 6);
  c->limits.fixed_key_count = TRUE;
  g_assert_false (tress_curve_edit_insert (c, keys, 17, &error));
  assert_refused (error, "fixed number of keys");
  g_assert_cmpuint (sel_at (keys, 0), ==, 2);
}

/* Outside the keys a clamped curve holds its end value; a key inserted
 * there keeps holding it, also where the format ties the slopes (the
 * segment to it becomes linear, flat between two equal values). */
static void
test_insert_held_ends (void)
{
  g_autoptr (TressCurve) c = make_curve ();
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GError) error = NULL;

  c->limits.tied_tangents = TRUE;
  tress_curve_get_key (c, 4)->in_slope = tress_curve_get_key (c, 4)->out_slope = -0.2;
  g_assert_true (tress_curve_edit_insert (c, keys, 50, &error));
  g_assert_cmpuint (sel_at (keys, 0), ==, 5);
  g_assert_cmpint (key (c, 4)->interp, ==, TRESS_INTERP_LINEAR);
  for (double f = 40; f <= 50; f += 0.5)
    g_assert_cmpfloat (tress_curve_evaluate (c, f), ==, 0);
  /* The segment before the old end key keeps its shape: its slope stays. */
  g_assert_cmpfloat (key (c, 4)->in_slope, ==, -0.2);
}

/* -------------------------------------------------------------- delete -- */

static void
test_delete (void)
{
  g_autoptr (TressCurve) c = make_curve ();
  g_autoptr (GArray) keys = sel (2, 1u, 3u);
  g_autoptr (GArray) all = sel (3, 0u, 1u, 2u);
  g_autoptr (GError) error = NULL;

  for (guint i = 0; i < 5; i++)
    tress_curve_get_key (c, i)->tangent = TRESS_TANGENT_AUTO;
  g_assert_true (tress_curve_edit_delete (c, keys, &error));
  g_assert_no_error (error);
  assert_frames (c, "0 20 40");
  g_assert_cmpuint (keys->len, ==, 0);
  /* Automatic slopes follow the new neighbours: key 1 (20, 1) between 0 and 0. */
  g_assert_cmpfloat (key (c, 1)->out_slope, ==, 0);
  g_assert_cmpfloat_with_epsilon (key (c, 0)->out_slope, 1 / 20.0, 1e-12);

  g_assert_false (tress_curve_edit_delete (c, all, &error));
  assert_refused (error, "Test/Bone/Translate X must keep at least one key");
  g_array_set_size (all, 1);
  c->limits.fixed_key_count = TRUE;
  g_assert_false (tress_curve_edit_delete (c, all, &error));
  assert_refused (error, "fixed number of keys");
  assert_frames (c, "0 20 40");
}

/* ------------------------------------------------- duplicate and paste -- */

static void
test_duplicate (void)
{
  g_autoptr (TressCurve) c = make_curve ();
  g_autoptr (GArray) keys = sel (2, 1u, 2u);
  g_autoptr (GError) error = NULL;

  /* Keys 1, 2 (frames 10, 20) one frame after the selection: 21 and 31. */
  tress_curve_get_key (c, 1)->origin = 2;
  g_assert_true (tress_curve_edit_duplicate (c, keys, 11, &error));
  g_assert_no_error (error);
  assert_frames (c, "0 10 20 21 30 31 40");
  g_assert_cmpuint (keys->len, ==, 2);
  g_assert_cmpuint (sel_at (keys, 0), ==, 3);
  g_assert_cmpuint (sel_at (keys, 1), ==, 5);
  g_assert_cmpfloat (key (c, 3)->value, ==, 2);
  g_assert_cmpuint (key (c, 3)->origin, ==, 0); /* a new key for the writer */
  g_assert_cmpuint (key (c, 1)->origin, ==, 2);

  /* Onto a taken frame: refused, the frame named. */
  g_assert_false (tress_curve_edit_duplicate (c, keys, 9, &error));
  assert_refused (error, "a key already sits at frame 30 of Test/Bone/Translate X");
}

static void
test_paste (void)
{
  g_autoptr (TressCurve) c = make_curve ();
  g_autoptr (GArray) keys = sel (1, 0u);
  g_autoptr (GError) error = NULL;
  TressKey src[] = {
    { .frame = 0,
      .value = 5,
      .in_slope = 1,
      .out_slope = 3,
      .interp = TRESS_INTERP_HERMITE,
      .flags = TRESS_KEY_BROKEN,
      .origin = 7 },
    { .frame = 2.4, .value = 6, .interp = TRESS_INTERP_LINEAR },
  };

  /* At frame 42 on a whole-frame curve whose slopes are tied: 42 and 44. */
  c->limits.frame_step = 1;
  c->limits.tied_tangents = TRUE;
  g_assert_true (tress_curve_edit_paste (c, keys, src, 2, 42, &error));
  g_assert_no_error (error);
  assert_frames (c, "0 10 20 30 40 42 44");
  g_assert_cmpuint (keys->len, ==, 2);
  g_assert_cmpuint (sel_at (keys, 0), ==, 5);
  g_assert_cmpuint (sel_at (keys, 1), ==, 6);
  g_assert_cmpfloat (key (c, 5)->in_slope, ==, 2);
  g_assert_cmpfloat (key (c, 5)->out_slope, ==, 2);
  g_assert_cmpuint (key (c, 5)->origin, ==, 0);

  /* Keys the curve cannot hold. */
  c->limits.interp_mask &= ~TRESS_INTERP_MASK (TRESS_INTERP_LINEAR);
  g_assert_false (tress_curve_edit_paste (c, keys, src, 2, 50, &error));
  assert_refused (error, "cannot hold Linear keys");
  /* Hermite keys with their own slopes where slopes are derived (NIFF1 KEY):
   * refused; eases (assumed, like the curve's own) go in. */
  c->limits.slopes_derived = TRUE;
  g_assert_false (tress_curve_edit_paste (c, keys, src, 1, 50, &error));
  assert_refused (error, "stores no slopes");
  src[0].flags |= TRESS_KEY_EASE_ASSUMED;
  g_assert_true (tress_curve_edit_paste (c, keys, src, 1, 60, &error));
  g_assert_no_error (error);
  assert_frames (c, "0 10 20 30 40 42 44 50 60"); /* 50: the refused paste's first key */
  g_assert_cmpuint (sel_at (keys, 0), ==, 8);
}

/* ------------------------------------------------------- interpolation -- */

static void
test_set_interp (void)
{
  g_autoptr (TressCurve) c = make_curve ();
  g_autoptr (GArray) keys = sel (2, 1u, 2u);
  g_autoptr (GError) error = NULL;

  g_assert_true (tress_curve_edit_set_interp (c, keys, TRESS_INTERP_LINEAR, &error));
  g_assert_cmpint (key (c, 0)->interp, ==, TRESS_INTERP_HERMITE);
  g_assert_cmpint (key (c, 1)->interp, ==, TRESS_INTERP_LINEAR);
  g_assert_cmpint (key (c, 2)->interp, ==, TRESS_INTERP_LINEAR);
  g_assert_cmpint (key (c, 3)->interp, ==, TRESS_INTERP_HERMITE);
  g_assert_cmpfloat (tress_curve_evaluate (c, 15), ==, 1.5);

  /* One interpolation per curve (BFRES): every segment follows. */
  c->limits.uniform_interp = TRUE;
  g_assert_true (tress_curve_edit_set_interp (c, keys, TRESS_INTERP_STEP, &error));
  for (guint i = 0; i < 5; i++)
    g_assert_cmpint (key (c, i)->interp, ==, TRESS_INTERP_STEP);

  c->limits.interp_mask = TRESS_INTERP_MASK (TRESS_INTERP_STEP);
  g_assert_false (tress_curve_edit_set_interp (c, keys, TRESS_INTERP_HERMITE, &error));
  assert_refused (error, "Test/Bone/Translate X cannot hold Hermite segments");
}

/* ------------------------------------------------------------ tangents -- */

static void
test_set_tangent (void)
{
  g_autoptr (TressCurve) c = make_curve ();
  g_autoptr (GArray) keys = sel (1, 1u);
  g_autoptr (GError) error = NULL;
  TressTangentEdit mode;

  g_assert_true (tress_tangent_edit_from_string ("auto-clamped", &mode));
  g_assert_cmpint (mode, ==, TRESS_TANGENT_EDIT_AUTO_CLAMPED);
  g_assert_cmpstr (tress_tangent_edit_to_string (TRESS_TANGENT_EDIT_BROKEN), ==, "broken");
  g_assert_false (tress_tangent_edit_from_string ("wobbly", &mode));

  /* Auto on key 1 (10, 2) between (0, 0) and (20, 1): Catmull-Rom 0.05. */
  g_assert_true (tress_curve_edit_set_tangent (c, keys, TRESS_TANGENT_EDIT_AUTO, &error));
  g_assert_cmpint (key (c, 1)->tangent, ==, TRESS_TANGENT_AUTO);
  g_assert_cmpfloat_with_epsilon (key (c, 1)->in_slope, 0.05, 1e-12);
  g_assert_cmpfloat_with_epsilon (key (c, 1)->out_slope, 0.05, 1e-12);
  /* Auto clamped: a peak gets flat slopes. */
  g_assert_true (tress_curve_edit_set_tangent (c, keys, TRESS_TANGENT_EDIT_AUTO_CLAMPED, &error));
  g_assert_cmpfloat (key (c, 1)->out_slope, ==, 0);
  /* Broken, then unified: the mean of both slopes, the flag gone. */
  g_assert_true (tress_curve_edit_set_tangent (c, keys, TRESS_TANGENT_EDIT_BROKEN, &error));
  g_assert_true (key (c, 1)->flags & TRESS_KEY_BROKEN);
  tress_curve_get_key (c, 1)->in_slope = 1;
  tress_curve_get_key (c, 1)->out_slope = 3;
  g_assert_true (tress_curve_edit_set_tangent (c, keys, TRESS_TANGENT_EDIT_UNIFIED, &error));
  g_assert_false (key (c, 1)->flags & TRESS_KEY_BROKEN);
  g_assert_cmpfloat (key (c, 1)->in_slope, ==, 2);
  g_assert_cmpfloat (key (c, 1)->out_slope, ==, 2);
  /* Manual keeps the slopes it has. */
  g_assert_true (tress_curve_edit_set_tangent (c, keys, TRESS_TANGENT_EDIT_MANUAL, &error));
  g_assert_cmpfloat (key (c, 1)->out_slope, ==, 2);

  /* One slope per key: no broken tangents. Slopes derived: no tangents at all. */
  c->limits.tied_tangents = TRUE;
  g_assert_false (tress_curve_edit_set_tangent (c, keys, TRESS_TANGENT_EDIT_BROKEN, &error));
  assert_refused (error, "stores one slope per key");
  g_assert_true (tress_curve_edit_set_tangent (c, keys, TRESS_TANGENT_EDIT_FLAT, &error));
  g_assert_cmpfloat (key (c, 1)->out_slope, ==, 0);
  c->limits.slopes_derived = TRUE;
  g_assert_false (tress_curve_edit_set_tangent (c, keys, TRESS_TANGENT_EDIT_LINEAR, &error));
  assert_refused (error, "stores no slopes");
}

/* ------------------------------------------------------------- set key -- */

static void
test_set_key (void)
{
  g_autoptr (TressCurve) c = make_curve ();
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GError) error = NULL;
  TressKey v;

  /* A slope typed where the format ties them sets both; the tangent turns manual. */
  c->limits.tied_tangents = TRUE;
  tress_curve_get_key (c, 2)->tangent = TRESS_TANGENT_AUTO;
  v = *key (c, 2);
  v.out_slope = 0.25;
  g_assert_true (tress_curve_edit_set_key (c, keys, 2, &v, &error));
  g_assert_cmpfloat (key (c, 2)->in_slope, ==, 0.25);
  g_assert_cmpint (key (c, 2)->tangent, ==, TRESS_TANGENT_MANUAL);
  v = *key (c, 2);
  v.in_slope = -1;
  g_assert_true (tress_curve_edit_set_key (c, keys, 2, &v, &error));
  g_assert_cmpfloat (key (c, 2)->out_slope, ==, -1);
  /* Both typed, to two values: left for the limits to refuse. */
  v.in_slope = 1;
  v.out_slope = 2;
  g_assert_true (tress_curve_edit_set_key (c, keys, 2, &v, &error));
  g_assert_false (tress_curve_check_limits (c, &error));
  assert_refused (error, "broken tangents");

  /* A new frame sorts the key into place; the selection goes with it. */
  g_clear_pointer (&c, tress_curve_unref);
  c = make_curve ();
  tress_curve_get_key (c, 4)->tangent = TRESS_TANGENT_AUTO;
  v = *key (c, 1);
  v.frame = 35;
  v.value = 4;
  g_assert_true (tress_curve_edit_set_key (c, keys, 1, &v, &error));
  assert_frames (c, "0 20 30 35 40");
  g_assert_cmpuint (keys->len, ==, 1);
  g_assert_cmpuint (sel_at (keys, 0), ==, 3);
  /* The automatic neighbour followed: key 4 now after (35, 4). */
  g_assert_cmpfloat_with_epsilon (key (c, 4)->in_slope, (0 - 4) / 5.0, 1e-12);

  v.frame = 20;
  g_assert_false (tress_curve_edit_set_key (c, keys, 3, &v, &error));
  assert_refused (error, "a key already sits at frame 20");
  g_assert_false (tress_curve_edit_set_key (c, keys, 9, &v, &error));
  assert_refused (error, "there is no key 9");
}

/* Slopes set where the format stores none are refused with its reason, not
 * dropped when the file is written: a curve that says why (limits.no_slopes),
 * one whose slopes follow from the interpolation, one that holds no Hermite
 * segments. The key is left as it was; a value alone still goes in. */
static void
test_set_key_no_slopes (void)
{
  g_autoptr (TressCurve) c = make_curve ();
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GError) error = NULL;
  TressKey before, v;
  const char *why = NULL;

  g_assert_true (tress_curve_key_has_slopes (c, 2, &why));
  g_assert_null (why);
  c->limits.no_slopes = "a StepInt curve stores no slopes";
  g_assert_false (tress_curve_key_has_slopes (c, 2, &why));
  g_assert_cmpstr (why, ==, "a StepInt curve stores no slopes");
  before = *key (c, 2);
  v = before;
  v.in_slope = 0.5;
  g_assert_false (tress_curve_edit_set_key (c, keys, 2, &v, &error));
  assert_refused (error, "cannot set the slopes of key 2 of Test/Bone/Translate X: a StepInt curve "
                         "stores no slopes");
  g_assert_cmpmem (key (c, 2), sizeof (TressKey), &before, sizeof (TressKey));
  g_assert_false (tress_curve_edit_set_slopes (c, keys, 2, 0.5, 0.5, &error));
  assert_refused (error, "a StepInt curve stores no slopes");
  v = before;
  v.value = 5;
  g_assert_true (tress_curve_edit_set_key (c, keys, 2, &v, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (key (c, 2)->value, ==, 5);

  c->limits.no_slopes = NULL;
  c->limits.slopes_derived = TRUE;
  v = *key (c, 2);
  v.out_slope = 1;
  g_assert_false (tress_curve_edit_set_key (c, keys, 2, &v, &error));
  assert_refused (error, "they follow from the interpolation");

  c->limits.slopes_derived = FALSE;
  c->limits.interp_mask
      = TRESS_INTERP_MASK (TRESS_INTERP_STEP) | TRESS_INTERP_MASK (TRESS_INTERP_BAKED);
  g_assert_false (tress_curve_key_has_slopes (c, 0, NULL));
  g_assert_false (tress_curve_check_key_slopes (c, 0, &error));
  assert_refused (error, "holds no Hermite segments");
}

/* ------------------------------------------------------------ bake, fit -- */

static void
test_bake_fit (void)
{
  g_autoptr (TressCurve) c = make_curve ();
  g_autoptr (TressCurve) shape = tress_curve_copy (c);
  g_autoptr (GArray) keys = sel (1, 1u);
  g_autoptr (GError) error = NULL;
  double worst = 0;

  g_assert_true (tress_curve_edit_bake (c, keys, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tress_curve_get_n_keys (c), ==, 41);
  g_assert_cmpuint (keys->len, ==, 0);
  for (guint i = 0; i <= 40; i++)
    {
      g_assert_cmpint (key (c, i)->interp, ==, TRESS_INTERP_BAKED);
      g_assert_cmpfloat_with_epsilon (key (c, i)->value, tress_curve_evaluate (shape, i), 1e-12);
    }

  /* Back to keys within the tolerance, Hermite where slopes are stored. */
  g_assert_true (tress_curve_edit_fit (c, keys, 0.01, &error));
  g_assert_cmpuint (tress_curve_get_n_keys (c), <, 41);
  g_assert_cmpint (key (c, 0)->interp, ==, TRESS_INTERP_HERMITE);
  for (double f = 0; f <= 40; f += 1)
    worst = MAX (worst, fabs (tress_curve_evaluate (c, f) - tress_curve_evaluate (shape, f)));
  g_assert_cmpfloat (worst, <=, 0.01 + 1e-9);

  /* Keys (not samples) are sampled first; derived slopes get linear keys. */
  g_clear_pointer (&c, tress_curve_unref);
  c = tress_curve_copy (shape);
  c->limits.slopes_derived = TRUE;
  g_assert_true (tress_curve_edit_fit (c, keys, 0.01, &error));
  g_assert_cmpint (key (c, 0)->interp, ==, TRESS_INTERP_LINEAR);
  worst = 0;
  for (double f = 0; f <= 40; f += 1)
    worst = MAX (worst, fabs (tress_curve_evaluate (c, f) - tress_curve_evaluate (shape, f)));
  g_assert_cmpfloat (worst, <=, 0.01 + 1e-9);

  c->limits.interp_mask = TRESS_INTERP_MASK (TRESS_INTERP_STEP);
  g_assert_false (tress_curve_edit_bake (c, keys, &error));
  assert_refused (error, "cannot hold baked samples");
  g_assert_false (tress_curve_edit_fit (c, keys, 0.01, &error));
  assert_refused (error, "neither Hermite nor linear");
  c->limits.interp_mask = TRESS_INTERP_MASK_ALL;
  tress_curve_get_key (c, tress_curve_get_n_keys (c) - 1)->frame = 2e6;
  g_assert_false (tress_curve_edit_bake (c, keys, &error));
  assert_refused (error, "too many to bake");
}

/* -------------------------------------------------------------- unwrap -- */

/* An angle curve stored wrapped to −π…π: a steady turn of 0.5 a key, frames
 * 0 10 20 …, the slopes the secant to the next key (as exporters store them),
 * key 3's slope its own. */
static TressCurve *
make_wrapped (guint n, double step, double start)
{
  TressCurve *c = tress_curve_new ();

  for (guint i = 0; i < n; i++)
    {
      double v = remainder (start + step * i, 2 * G_PI);
      TressKey k = { .frame = 10.0 * i, .value = v, .interp = TRESS_INTERP_HERMITE };

      tress_curve_append_key (c, &k);
    }
  for (guint i = 0; i + 1 < n; i++)
    {
      TressKey *k = tress_curve_get_key (c, i);

      k->in_slope = k->out_slope = (key (c, i + 1)->value - k->value) / 10;
    }
  tress_curve_get_key (c, 3)->in_slope = tress_curve_get_key (c, 3)->out_slope = 0.125;
  c->angle = TRUE;
  tress_curve_set_text (&c->path, "Spin/Rotate Z");
  return c;
}

static void
test_unwrap (void)
{
  g_autoptr (TressCurve) c = make_wrapped (20, 1.3, 2.5);
  g_autoptr (TressCurve) plain = make_curve ();
  g_autoptr (GArray) keys = sel (1, 4u);
  g_autoptr (GError) error = NULL;
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_UNWRAP };
  g_autofree char *label = tress_curve_edit_dup_label (&e, 3);
  guint jumps = 0;

  for (guint i = 1; i < 20; i++)
    jumps += fabs (key (c, i)->value - key (c, i - 1)->value) > G_PI;
  g_assert_cmpuint (jumps, ==, 4);
  g_assert_true (tress_curve_edit_apply (&e, c, keys, &error));
  g_assert_no_error (error);
  /* A steady turn again, from where it started; every key the same angle. */
  for (guint i = 0; i < 20; i++)
    {
      g_assert_cmpfloat_with_epsilon (key (c, i)->value, 2.5 + 1.3 * i, 1e-9);
      g_assert_cmpfloat (key (c, i)->frame, ==, 10.0 * i);
    }
  /* Slopes taken across a jump follow; the others stay. */
  for (guint i = 0; i + 1 < 20; i++)
    if (i != 3)
      g_assert_cmpfloat_with_epsilon (key (c, i)->out_slope, 0.13, 1e-9);
  g_assert_cmpfloat (key (c, 3)->out_slope, ==, 0.125);
  g_assert_cmpuint (keys->len, ==, 1);
  g_assert_cmpuint (sel_at (keys, 0), ==, 4);
  g_assert_cmpstr (label, ==, "Unwrap the angles of 3 curves");

  /* Unwrapped already: nothing changes. */
  {
    g_autoptr (TressCurve) again = tress_curve_copy (c);

    g_assert_true (tress_curve_edit_unwrap (again, keys, &error));
    g_assert_true (tress_curve_same_keys (again, c));
  }
  g_assert_false (tress_curve_edit_unwrap (plain, keys, &error));
  assert_refused (error, "Test/Bone/Translate X holds no angles");

  /* A fast spin the file spells out between sparse keys (values past π, as
   * no wrapping exporter writes them) is motion: kept. A wrap between two
   * wrapped values after it still goes. */
  {
    g_autoptr (TressCurve) spin = tress_curve_new ();
    static const double v[] = { 0.5, 8.0, 19.0, 3.0, -3.0 };

    spin->angle = TRUE;
    for (guint i = 0; i < G_N_ELEMENTS (v); i++)
      {
        TressKey k = { .frame = 30.0 * i, .value = v[i], .interp = TRESS_INTERP_LINEAR };
        tress_curve_append_key (spin, &k);
      }
    g_assert_true (tress_curve_edit_unwrap (spin, keys, &error));
    for (guint i = 0; i < 4; i++)
      g_assert_cmpfloat (key (spin, i)->value, ==, v[i]);
    g_assert_cmpfloat_with_epsilon (key (spin, 4)->value, -3.0 + 2 * G_PI, 1e-12);
  }
}

/* A Hermite angle curve of @n keys 10 frames apart, values @v, each key's
 * slopes the mean of the secants to its neighbours (as Auto tangents give). */
static TressCurve *
make_angle (guint n, const double *v)
{
  TressCurve *c = tress_curve_new ();

  c->angle = TRUE;
  tress_curve_set_text (&c->path, "Spin/Rotate Y");
  for (guint i = 0; i < n; i++)
    {
      double prev = i > 0 ? (v[i] - v[i - 1]) / 10 : (v[1] - v[0]) / 10;
      double next = i + 1 < n ? (v[i + 1] - v[i]) / 10 : prev;
      TressKey k = { .frame = 10.0 * i,
                     .value = v[i],
                     .in_slope = (prev + next) / 2,
                     .out_slope = (prev + next) / 2,
                     .interp = TRESS_INTERP_HERMITE };

      tress_curve_append_key (c, &k);
    }
  return c;
}

/* One channel alone, keys outside −π…π (no exporter's wrap): a key set a
 * whole turn away from its neighbours, its slopes as they were, comes back,
 * and with it every key after it stays where it was; a spin the keys' slopes
 * follow stays; a step segment's jump of whole turns goes (every frame shows
 * the same rotation). With nothing to unwrap a curve is left byte for byte
 * and the batch reports no change. */
static void
test_unwrap_one_channel (void)
{
  static const double smooth[] = { 3.0, 3.4, 3.9, 4.1, 4.0, 3.6, 3.5 };
  g_autoptr (TressCurve) c = make_angle (G_N_ELEMENTS (smooth), smooth);
  g_autoptr (TressCurve) before = tress_curve_copy (c);
  g_autoptr (GArray) keys = sel (0);
  g_autoptr (GError) error = NULL;

  /* As it is: nothing to unwrap, and nothing changes. */
  g_assert_false (tress_curve_needs_unwrap (c));
  g_assert_cmpuint (tress_curve_count_jumps (c), ==, 0);
  g_assert_true (tress_curve_edit_unwrap (c, keys, &error));
  g_assert_true (tress_curve_same_keys (c, before));
  {
    g_autoptr (TressCurveEditBatch) b = tress_curve_edit_batch_new ();
    TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_UNWRAP };

    g_assert_true (tress_curve_edit_batch_add (b, 0, c, NULL, 0, &e, &error));
    g_assert_cmpuint (tress_curve_edit_batch_get_n_changed (b), ==, 0);
  }

  /* Key 3 set a turn up (as set-key --value does): two jumps of over π. */
  tress_curve_get_key (c, 3)->value += 2 * G_PI;
  g_assert_cmpuint (tress_curve_count_jumps (c), ==, 2);
  g_assert_true (tress_curve_needs_unwrap (c));
  {
    g_autoptr (TressCurveEditBatch) b = tress_curve_edit_batch_new ();
    TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_UNWRAP };

    g_assert_true (tress_curve_edit_batch_add (b, 0, c, NULL, 0, &e, &error));
    g_assert_cmpuint (tress_curve_edit_batch_get_n_changed (b), ==, 1);
  }
  g_assert_true (tress_curve_edit_unwrap (c, keys, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (smooth); i++)
    {
      g_assert_cmpfloat_with_epsilon (key (c, i)->value, smooth[i], 1e-12);
      g_assert_cmpfloat (key (c, i)->in_slope, ==, key (before, i)->in_slope);
      g_assert_cmpfloat (key (c, i)->out_slope, ==, key (before, i)->out_slope);
    }
  g_assert_cmpuint (tress_curve_count_jumps (c), ==, 0);
  g_assert_false (tress_curve_needs_unwrap (c));

  /* A turn down from key 4 on: the keys after the jump come back up. */
  for (guint i = 4; i < G_N_ELEMENTS (smooth); i++)
    tress_curve_get_key (c, i)->value -= 2 * G_PI;
  g_assert_cmpuint (tress_curve_count_jumps (c), ==, 1);
  g_assert_true (tress_curve_edit_unwrap (c, keys, &error));
  for (guint i = 0; i < G_N_ELEMENTS (smooth); i++)
    g_assert_cmpfloat_with_epsilon (key (c, i)->value, smooth[i], 1e-12);

  /* A spin spelled out: 4 a key, the slopes follow it. Kept. */
  {
    static const double spin[] = { 4.0, 8.0, 12.0, 16.0, 20.0 };
    g_autoptr (TressCurve) s = make_angle (G_N_ELEMENTS (spin), spin);
    g_autoptr (TressCurve) was = tress_curve_copy (s);

    g_assert_cmpuint (tress_curve_count_jumps (s), ==, 4);
    g_assert_false (tress_curve_needs_unwrap (s));
    g_assert_true (tress_curve_edit_unwrap (s, keys, &error));
    g_assert_true (tress_curve_same_keys (s, was));
  }

  /* A step segment's jump of a turn (and a bit): taken back. */
  {
    static const double held[] = { 4.0, 4.2 + 2 * G_PI, 4.4 + 2 * G_PI };
    g_autoptr (TressCurve) s = make_angle (G_N_ELEMENTS (held), held);

    for (guint i = 0; i < G_N_ELEMENTS (held); i++)
      tress_curve_get_key (s, i)->interp = TRESS_INTERP_STEP;
    g_assert_true (tress_curve_needs_unwrap (s));
    g_assert_true (tress_curve_edit_unwrap (s, keys, &error));
    g_assert_cmpfloat_with_epsilon (key (s, 1)->value, 4.2, 1e-12);
    g_assert_cmpfloat_with_epsilon (key (s, 2)->value, 4.4, 1e-12);
  }

  /* Fewer than two keys, or no angles: nothing to unwrap. */
  g_array_set_size (c->keys, 1);
  g_assert_false (tress_curve_needs_unwrap (c));
  g_assert_cmpuint (tress_curve_count_jumps (c), ==, 0);
  c->angle = FALSE;
  g_assert_false (tress_curve_needs_unwrap (c));
}

/* A slope counts as the secant an exporter stored when it lies within the
 * tolerance (1e-4 of the secant, plus 1e-9), the edge included. Two wrapped
 * keys a turn apart where the segment arrives at 3 (an arrival gap of 6): the
 * stored secant is flat, and a slope exactly 1e-9 away is that secant, which
 * becomes the secant of the unwrapped values (a turn in 10 frames); 1.5e-9
 * away it is the key's own slope and stays. */
static void
test_unwrap_secant_edge (void)
{
  for (guint edge = 0; edge < 2; edge++)
    {
      g_autoptr (TressCurve) c = tress_curve_new ();
      g_autoptr (GArray) keys = sel (0);
      g_autoptr (GError) error = NULL;
      TressKey a = { .frame = 0, .value = 3.0, .interp = TRESS_INTERP_HERMITE };
      TressKey b = { .frame = 10,
                     .value = -3.0,
                     .in_gap = 6.0f,
                     .in_slope = 0.5,
                     .out_slope = 0.5,
                     .interp = TRESS_INTERP_HERMITE };
      double slope = edge == 0 ? 1e-9 : 1.5e-9;

      a.in_slope = a.out_slope = slope;
      c->angle = TRUE;
      tress_curve_append_key (c, &a);
      tress_curve_append_key (c, &b);
      g_assert_true (tress_curve_edit_unwrap (c, keys, &error));
      g_assert_no_error (error);
      g_assert_cmpfloat (key (c, 0)->value, ==, 3.0);
      g_assert_cmpfloat_with_epsilon (key (c, 1)->value, -3.0 + 2 * G_PI, 1e-12);
      if (edge == 0)
        g_assert_cmpfloat_with_epsilon (key (c, 0)->out_slope, 2 * G_PI / 10, 1e-12);
      else
        g_assert_cmpfloat (key (c, 0)->out_slope, ==, slope);
      /* Key 1's slopes are no secant: they stay. */
      g_assert_cmpfloat (key (c, 1)->in_slope, ==, 0.5);
    }
}

static void
rotation (TressEulerOrder order, double x, double y, double z, double m[3][3])
{
  const char *name = tress_euler_order_to_string (order);
  double angle[3] = { x, y, z };

  for (guint i = 0; i < 3; i++)
    for (guint j = 0; j < 3; j++)
      m[i][j] = i == j;
  /* The first axis turns first: R = R_last · R_middle · R_first. */
  for (guint s = 0; s < 3; s++)
    {
      guint ax = (guint)(name[s] - 'X');
      double c = cos (angle[ax]), sn = sin (angle[ax]), r[3][3] = { { 0 } }, out[3][3];
      guint a = (ax + 1) % 3, b = (ax + 2) % 3;

      r[ax][ax] = 1;
      r[a][a] = c, r[a][b] = -sn, r[b][a] = sn, r[b][b] = c;
      for (guint i = 0; i < 3; i++)
        for (guint j = 0; j < 3; j++)
          {
            out[i][j] = 0;
            for (guint k = 0; k < 3; k++)
              out[i][j] += r[i][k] * m[k][j];
          }
      memcpy (m, out, sizeof out);
    }
}

static void
assert_same_rotation (TressEulerOrder order, const double a[3], const double b[3])
{
  double ma[3][3], mb[3][3];

  rotation (order, a[0], a[1], a[2], ma);
  rotation (order, b[0], b[1], b[2], mb);
  for (guint i = 0; i < 3; i++)
    for (guint j = 0; j < 3; j++)
      g_assert_cmpfloat_with_epsilon (ma[i][j], mb[i][j], 1e-9);
}

/* A rotation stored through a flip: from key 5 on, the other triple of the
 * same rotation (first and last + π, middle π − itself), wrapped. The filter
 * takes it back, for every order; each key keeps its rotation. */
static void
test_unwrap_euler (void)
{
  for (TressEulerOrder order = TRESS_EULER_XYZ; order <= TRESS_EULER_ZYX; order++)
    {
      guint middle = tress_euler_order_middle_axis (order);
      TressCurve *xyz[3];
      double smooth[10][3], stored[10][3];
      g_autoptr (GError) error = NULL;

      for (guint a = 0; a < 3; a++)
        {
          xyz[a] = tress_curve_new ();
          xyz[a]->angle = TRUE;
          xyz[a]->euler_order = order;
          xyz[a]->euler_axis = a;
        }
      for (guint i = 0; i < 10; i++)
        for (guint a = 0; a < 3; a++)
          {
            TressKey k = { .frame = 4.0 * i, .interp = TRESS_INTERP_LINEAR };

            /* Near the middle axis's quarter turn, where exporters flip. */
            smooth[i][a] = a == middle ? 1.2 + 0.05 * i : 0.3 * a + 0.1 * i;
            stored[i][a] = smooth[i][a];
            if (i >= 5)
              stored[i][a]
                  = remainder (a == middle ? G_PI - smooth[i][a] : smooth[i][a] + G_PI, 2 * G_PI);
            k.value = stored[i][a];
            tress_curve_append_key (xyz[a], &k);
          }
      g_assert_true (tress_curve_edit_unwrap_euler (xyz, order, &error));
      g_assert_no_error (error);
      for (guint i = 0; i < 10; i++)
        {
          double now[3];

          for (guint a = 0; a < 3; a++)
            {
              now[a] = key (xyz[a], i)->value;
              g_assert_cmpfloat_with_epsilon (now[a], smooth[i][a], 1e-9);
            }
          assert_same_rotation (order, now, stored[i]);
        }
      /* Keyed at other frames: not one rotation to filter. */
      tress_curve_get_key (xyz[2], 3)->frame = 13;
      g_assert_false (tress_curve_edit_unwrap_euler (xyz, order, &error));
      assert_refused (error, "different frames");
      for (guint a = 0; a < 3; a++)
        tress_curve_unref (xyz[a]);
    }
}

/* The batch's curves find their rotation's other angles among those unwrapped
 * together; alone, a curve only loses its whole-turn jumps. */
static void
test_unwrap_group (void)
{
  TressCurve *c[4];
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_UNWRAP };

  for (guint i = 0; i < 4; i++)
    {
      c[i] = make_wrapped (8, 0.9, 0);
      c[i]->euler_order = TRESS_EULER_XYZ;
      c[i]->euler_axis = i % 3;
      tress_curve_set_text (&c[i]->euler_group, i < 3 ? "Bone" : "Other");
    }
  tress_curve_edit_set_unwrap_group (&e, (const TressCurve *const *)c, 4, 1);
  g_assert_true (e.euler[0] == c[0] && e.euler[1] == c[1] && e.euler[2] == c[2]);
  tress_curve_edit_set_unwrap_group (&e, (const TressCurve *const *)c, 4, 3);
  g_assert_null (e.euler[0]);
  tress_curve_edit_set_unwrap_group (&e, (const TressCurve *const *)c, 2, 0);
  g_assert_null (e.euler[0]);
  for (guint i = 0; i < 4; i++)
    tress_curve_unref (c[i]);
}

/* -------------------------------------------------------------- labels -- */

static void
test_labels (void)
{
  static const struct
  {
    TressCurveEdit edit;
    guint n;
    const char *label;
  } cases[] = {
    { { .kind = TRESS_CURVE_EDIT_MOVE }, 1, "Move 1 key" },
    { { .kind = TRESS_CURVE_EDIT_MOVE }, 3, "Move 3 keys" },
    { { .kind = TRESS_CURVE_EDIT_SCALE }, 2, "Scale 2 keys" },
    { { .kind = TRESS_CURVE_EDIT_MOVE, .d_frame = 2 }, 12, "Move 12 keys by 2 frames" },
    { { .kind = TRESS_CURVE_EDIT_MOVE, .d_frame = -1 }, 1, "Move 1 key by -1 frame" },
    { { .kind = TRESS_CURVE_EDIT_MOVE, .d_frame = 2, .d_value = 1 }, 2, "Move 2 keys" },
    { { .kind = TRESS_CURVE_EDIT_SCALE, .frame_factor = 2, .value_factor = 1 },
      3,
      "Scale 3 keys in time by 2 about frame 0" },
    { { .kind = TRESS_CURVE_EDIT_INSERT, .frame = 15 }, 1, "Insert key at frame 15" },
    { { .kind = TRESS_CURVE_EDIT_DELETE }, 2, "Delete 2 keys" },
    { { .kind = TRESS_CURVE_EDIT_DUPLICATE }, 1, "Duplicate 1 key" },
    { { .kind = TRESS_CURVE_EDIT_PASTE }, 4, "Paste 4 keys" },
    { { .kind = TRESS_CURVE_EDIT_INTERP, .interp = TRESS_INTERP_HERMITE },
      2,
      "Set interpolation of 2 keys to Hermite" },
    { { .kind = TRESS_CURVE_EDIT_TANGENT, .tangent = TRESS_TANGENT_EDIT_AUTO_CLAMPED },
      1,
      "Set tangents of 1 key to auto clamped" },
    { { .kind = TRESS_CURVE_EDIT_SET_KEY, .key = 2 }, 1, "Edit key 2" },
    { { .kind = TRESS_CURVE_EDIT_BAKE }, 0, "Bake to samples" },
    { { .kind = TRESS_CURVE_EDIT_FIT, .tolerance = 0.02 },
      0,
      "Convert samples to keys (tolerance 0.02)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *label = tress_curve_edit_dup_label (&cases[i].edit, cases[i].n);
      g_assert_cmpstr (label, ==, cases[i].label);
    }
}

/* --------------------------------------------------------------- batch -- */

/* A store of curves by id, where curves may share keys: storing curve 0
 * gives curve 1 the same frames (as the components of one NIFF record). */
typedef struct
{
  GPtrArray *curves;
  gboolean shared;
  guint n_set;
  int refuse_id; /* set() refuses this id (-1: none) */
} Store;

static const TressCurve *
store_get (gpointer data, guint id)
{
  Store *s = data;
  return id < s->curves->len ? s->curves->pdata[id] : NULL;
}

static gboolean
store_set (gpointer data, guint id, const TressCurve *curve, GError **error)
{
  Store *s = data;

  if ((int)id == s->refuse_id)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, "the format says no");
      return FALSE;
    }
  tress_curve_unref (s->curves->pdata[id]);
  s->curves->pdata[id] = tress_curve_copy (curve);
  s->n_set++;
  if (s->shared && id == 0)
    {
      /* The sibling keeps its values but takes the record frames. */
      TressCurve *other = tress_curve_copy (curve);

      for (guint i = 0; i < tress_curve_get_n_keys (other); i++)
        tress_curve_get_key (other, i)->value *= -1;
      tress_curve_unref (s->curves->pdata[1]);
      s->curves->pdata[1] = other;
    }
  return TRUE;
}

static void
store_init (Store *s, guint n)
{
  s->curves = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_curve_unref);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (s->curves, make_curve ());
  s->refuse_id = -1;
  s->n_set = 0;
}

static gboolean
store_add (TressCurveEditBatch *b, Store *s, guint id, GArray *keys, const TressCurveEdit *e,
           GError **error)
{
  return tress_curve_edit_batch_add (b, id, s->curves->pdata[id], (const guint *)keys->data,
                                     keys->len, e, error);
}

static void
test_batch_all_or_nothing (void)
{
  Store s = { 0 };
  g_autoptr (TressCurveEditBatch) b = tress_curve_edit_batch_new ();
  g_autoptr (GArray) k1 = sel (1, 1u);
  g_autoptr (GArray) k3 = sel (1, 3u);
  g_autoptr (GArray) none = sel (0);
  g_autoptr (GError) error = NULL;
  TressCurveEdit move = { .kind = TRESS_CURVE_EDIT_MOVE, .d_frame = 5 };
  TressCurveEdit noop = { .kind = TRESS_CURVE_EDIT_MOVE };
  guint n_stored = 0;

  store_init (&s, 3);
  /* Curve 0's key 1 moves; curve 1 has no key selected and curve 2's move is
   * none: they add nothing. Curve 2's key 3 (30) moved by 10 lands on 40:
   * refused, and with it the batch. */
  g_assert_true (store_add (b, &s, 0, k1, &move, &error));
  g_assert_true (store_add (b, &s, 1, none, &move, &error)); /* nothing selected: no change */
  g_assert_true (store_add (b, &s, 2, k3, &noop, &error));   /* ends where it began */
  g_assert_cmpuint (tress_curve_edit_batch_get_n_changed (b), ==, 1);
  g_assert_cmpuint (tress_curve_edit_batch_get_id (b, 0), ==, 0);
  g_assert_cmpfloat (key (tress_curve_edit_batch_get_curve (b, 0), 1)->frame, ==, 15);
  g_assert_cmpfloat (key (s.curves->pdata[0], 1)->frame, ==, 10); /* a copy was edited */
  move.d_frame = 10;
  g_assert_false (store_add (b, &s, 2, k3, &move, &error));
  assert_refused (error, "share a frame");
  g_ptr_array_unref (s.curves);

  /* The limits of the format: refused with their reason. */
  store_init (&s, 2);
  g_clear_pointer (&b, tress_curve_edit_batch_free);
  b = tress_curve_edit_batch_new ();
  ((TressCurve *)s.curves->pdata[1])->limits.value_max = 2.5;
  move = (TressCurveEdit){ .kind = TRESS_CURVE_EDIT_MOVE, .d_value = 1 };
  g_assert_true (store_add (b, &s, 0, k1, &move, &error));
  g_assert_true (store_add (b, &s, 1, k3, &move, &error)); /* conformed: clamped to 2.5 */
  g_assert_cmpfloat (key (tress_curve_edit_batch_get_curve (b, 1), 3)->value, ==, 2.5);
  ((TressCurve *)s.curves->pdata[1])->limits.frame_step = 1;
  move = (TressCurveEdit){ .kind = TRESS_CURVE_EDIT_MOVE, .d_frame = 0.5 };
  g_assert_false (store_add (b, &s, 1, k3, &move, &error));
  assert_refused (error, "whole frames only");

  /* A store's refusal half-way: the count says what was stored before it. */
  g_clear_pointer (&b, tress_curve_edit_batch_free);
  b = tress_curve_edit_batch_new ();
  move = (TressCurveEdit){ .kind = TRESS_CURVE_EDIT_MOVE, .d_frame = 1 };
  g_assert_true (store_add (b, &s, 0, k1, &move, &error));
  g_assert_true (store_add (b, &s, 1, k1, &move, &error));
  s.refuse_id = 1;
  g_assert_false (tress_curve_edit_batch_commit (b, store_get, store_set, &s, &n_stored, &error));
  g_assert_cmpuint (n_stored, ==, 1);
  assert_refused (error, "the format says no");
  g_ptr_array_unref (s.curves);
}

static void
test_batch_past_end (void)
{
  Store s = { 0 };
  g_autoptr (TressCurveEditBatch) b = tress_curve_edit_batch_new ();
  g_autoptr (GArray) k4 = sel (1, 4u);
  g_autoptr (GArray) k1 = sel (1, 1u);
  g_autoptr (GError) error = NULL;
  TressCurveEdit move = { .kind = TRESS_CURVE_EDIT_MOVE, .d_frame = 5.5 };

  store_init (&s, 2);
  ((TressCurve *)s.curves->pdata[0])->limits.frame_max = 40;
  g_assert_true (store_add (b, &s, 0, k4, &move, &error));
  g_assert_true (store_add (b, &s, 1, k1, &move, &error));
  g_assert_no_error (error);
  g_assert_true (tress_curve_edit_batch_get_past_end (b, 0));
  g_assert_false (tress_curve_edit_batch_get_past_end (b, 1));
  g_assert_cmpfloat (tress_curve_edit_batch_get_end (b), ==, 46);
  g_ptr_array_unref (s.curves);
}

static void
test_batch_fixed_count (void)
{
  Store s = { 0 };
  g_autoptr (TressCurveEditBatch) b = tress_curve_edit_batch_new ();
  g_autoptr (GError) error = NULL;
  TressCurveEdit bake = { .kind = TRESS_CURVE_EDIT_BAKE };
  g_autoptr (GArray) none = sel (0);

  /* Whatever the operation, a curve that keeps its key count keeps it. */
  store_init (&s, 1);
  ((TressCurve *)s.curves->pdata[0])->limits.fixed_key_count = TRUE;
  g_assert_false (store_add (b, &s, 0, none, &bake, &error));
  assert_refused (error, "Test/Bone/Translate X has a fixed number of keys");
  g_ptr_array_unref (s.curves);
}

/* Curve 0 and 1 share their frames: a move of key 1 on both commits curve 0,
 * which moves curve 1's key already; curve 1 is edited again from what it
 * holds then (its key found by frame) and not moved twice. */
static void
test_batch_shared_keys (void)
{
  Store s = { 0 };
  g_autoptr (TressCurveEditBatch) b = tress_curve_edit_batch_new ();
  g_autoptr (GArray) k1 = sel (1, 1u);
  g_autoptr (GArray) k2 = sel (1, 2u);
  g_autoptr (GError) error = NULL;
  TressCurveEdit move = { .kind = TRESS_CURVE_EDIT_MOVE, .d_frame = 2 };
  guint n_stored = 0;

  store_init (&s, 2);
  s.shared = TRUE;
  g_assert_true (store_add (b, &s, 0, k1, &move, &error));
  g_assert_true (store_add (b, &s, 1, k2, &move, &error));
  g_assert_true (tress_curve_edit_batch_commit (b, store_get, store_set, &s, &n_stored, &error));
  g_assert_no_error (error);
  /* Curve 1 took 0's frames (12), then its own key at 20 moved to 22. */
  assert_frames (s.curves->pdata[0], "0 12 20 30 40");
  assert_frames (s.curves->pdata[1], "0 12 22 30 40");
  g_assert_cmpuint (n_stored, ==, 2);
  /* Its selection is where its key went. */
  g_assert_cmpuint (sel_at (tress_curve_edit_batch_get_keys (b, 1), 0), ==, 2);

  /* Both curves ask for the same: storing the first gives it to the second,
   * which finds it done and is not stored. */
  g_ptr_array_unref (s.curves);
  store_init (&s, 2);
  s.shared = TRUE;
  g_clear_pointer (&b, tress_curve_edit_batch_free);
  b = tress_curve_edit_batch_new ();
  move = (TressCurveEdit){ .kind = TRESS_CURVE_EDIT_INTERP, .interp = TRESS_INTERP_STEP };
  g_assert_true (store_add (b, &s, 0, k1, &move, &error));
  g_assert_true (store_add (b, &s, 1, k1, &move, &error));
  g_assert_cmpuint (tress_curve_edit_batch_get_n_changed (b), ==, 2);
  g_assert_true (tress_curve_edit_batch_commit (b, store_get, store_set, &s, &n_stored, &error));
  g_assert_cmpuint (n_stored, ==, 1);
  g_assert_cmpuint (s.n_set, ==, 1);
  g_assert_cmpint (key (s.curves->pdata[1], 1)->interp, ==, TRESS_INTERP_STEP);
  g_assert_cmpfloat (key (s.curves->pdata[1], 1)->value, ==, -2); /* the sibling's own value */
  g_ptr_array_unref (s.curves);
}

static void
test_batch_label (void)
{
  Store s = { 0 };
  g_autoptr (TressCurveEditBatch) b = tress_curve_edit_batch_new ();
  g_autoptr (GArray) k1 = sel (1, 1u);
  g_autoptr (GError) error = NULL;
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_INTERP, .interp = TRESS_INTERP_LINEAR };
  g_autofree char *one = NULL, *two = NULL, *plain = NULL, *empty = NULL;

  empty = tress_curve_edit_batch_dup_label (b, 1);
  g_assert_null (empty);
  /* One interpolation per curve: the label says every key changes. */
  store_init (&s, 3);
  for (guint i = 0; i < 2; i++)
    ((TressCurve *)s.curves->pdata[i])->limits.uniform_interp = TRUE;
  g_assert_true (store_add (b, &s, 0, k1, &e, &error));
  one = tress_curve_edit_batch_dup_label (b, 1);
  g_assert_cmpstr (one, ==, "Set interpolation of all 5 keys of Test/Bone/Translate X to linear");
  g_assert_true (store_add (b, &s, 1, k1, &e, &error));
  two = tress_curve_edit_batch_dup_label (b, 2);
  g_assert_cmpstr (two, ==, "Set interpolation of all keys of 2 curves to linear");
  g_assert_true (store_add (b, &s, 2, k1, &e, &error));
  plain = tress_curve_edit_batch_dup_label (b, 3);
  g_assert_cmpstr (plain, ==, "Set interpolation of 3 keys to linear");
  g_ptr_array_unref (s.curves);
}

/* ----------------------------------------------- a real NIFF, shared keys -- */

typedef struct
{
  const TressFormat *format;
  gpointer model;
  GHashTable *got; /* id → the last curve get() returned */
} FormatStore;

static const TressCurve *
format_get (gpointer data, guint id)
{
  FormatStore *fs = data;
  TressCurve *c = fs->format->curves->get_curve (fs->model, id);

  g_hash_table_replace (fs->got, GUINT_TO_POINTER (id), c);
  return c;
}

static gboolean
format_set (gpointer data, guint id, const TressCurve *curve, GError **error)
{
  FormatStore *fs = data;
  double max_error = 0;

  return fs->format->curves->set_curve (fs->model, id, curve, &max_error, error);
}

static gboolean
format_open (FormatStore *fs, const char *sample)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample (sample);
  g_autoptr (GError) error = NULL;

  if (bytes == NULL)
    return FALSE;
  fs->format
      = tress_format_detect (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  fs->model = fs->format->parse (bytes, sample, &error);
  g_assert_no_error (error);
  fs->got = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)tress_curve_unref);
  return TRUE;
}

static void
format_close (FormatStore *fs)
{
  g_hash_table_unref (fs->got);
  fs->format->free (fs->model);
}

/* Translation X, Y, Z of euler_hermite in the all-channels sample (curves
 * 34–36) share their records, keys at 0 10 20 30. Deleting X's key at 10 and
 * Y's at 20 in one batch: each curve gets the shape asked for, Z keeps its
 * keys; then the key at 10 on all three: the record goes. */
static void
test_niff_shared_delete (void)
{
  FormatStore fs = { 0 };
  g_autoptr (TressCurveEditBatch) b = tress_curve_edit_batch_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (TressCurve) x_asked = NULL;
  g_autoptr (TressCurve) y_asked = NULL;
  g_autoptr (TressCurve) z_before = NULL;
  g_autoptr (GArray) k1 = sel (1, 1u);
  g_autoptr (GArray) k2 = sel (1, 2u);
  TressCurveEdit del = { .kind = TRESS_CURVE_EDIT_DELETE };
  static const guint xyz[] = { 34, 35, 36 };

  if (!format_open (&fs, "niff/synthetic-all-channels.nif"))
    return;
  x_asked = tress_curve_copy (format_get (&fs, 34));
  tress_curve_remove_key (x_asked, 1);
  y_asked = tress_curve_copy (format_get (&fs, 35));
  tress_curve_remove_key (y_asked, 2);
  z_before = tress_curve_copy (format_get (&fs, 36));
  assert_frames (z_before, "0 10 20 30");

  g_assert_true (
      tress_curve_edit_batch_add (b, 34, format_get (&fs, 34), (guint *)k1->data, 1, &del, &error));
  g_assert_true (
      tress_curve_edit_batch_add (b, 35, format_get (&fs, 35), (guint *)k2->data, 1, &del, &error));
  g_assert_true (tress_curve_edit_batch_commit (b, format_get, format_set, &fs, NULL, &error));
  g_assert_no_error (error);
  for (double f = 0; f <= 30; f += 0.5)
    {
      g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (format_get (&fs, 34), f),
                                      tress_curve_evaluate (x_asked, f), 1e-5);
      g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (format_get (&fs, 35), f),
                                      tress_curve_evaluate (y_asked, f), 1e-5);
      g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (format_get (&fs, 36), f),
                                      tress_curve_evaluate (z_before, f), 1e-6);
    }
  assert_frames (format_get (&fs, 36), "0 10 20 30");

  g_clear_pointer (&b, tress_curve_edit_batch_free);
  b = tress_curve_edit_batch_new ();
  for (guint i = 0; i < 3; i++)
    {
      const TressCurve *c = format_get (&fs, xyz[i]);
      guint k = (guint)tress_curve_find_key (c, 10, 0);

      g_assert_true (tress_curve_edit_batch_add (b, xyz[i], c, &k, 1, &del, &error));
    }
  g_assert_true (tress_curve_edit_batch_commit (b, format_get, format_set, &fs, NULL, &error));
  for (guint i = 0; i < 3; i++)
    assert_frames (format_get (&fs, xyz[i]), "0 20 30");
  format_close (&fs);
}

/* Moving X's key at 10 and Y's at 20 by two frames moves both records, and
 * every component with them; nothing moves twice. */
static void
test_niff_shared_move (void)
{
  FormatStore fs = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) k1 = sel (1, 1u);
  g_autoptr (GArray) k2 = sel (1, 2u);
  TressCurveEdit move = { .kind = TRESS_CURVE_EDIT_MOVE, .d_frame = 1 };

  if (!format_open (&fs, "niff/synthetic-all-channels.nif"))
    return;
  for (int step = 0; step < 2; step++)
    {
      g_autoptr (TressCurveEditBatch) b = tress_curve_edit_batch_new ();

      g_assert_true (tress_curve_edit_batch_add (b, 34, format_get (&fs, 34), (guint *)k1->data, 1,
                                                 &move, &error));
      g_assert_true (tress_curve_edit_batch_add (b, 35, format_get (&fs, 35), (guint *)k2->data, 1,
                                                 &move, &error));
      g_assert_true (tress_curve_edit_batch_commit (b, format_get, format_set, &fs, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (sel_at (tress_curve_edit_batch_get_keys (b, 1), 0), ==, 2);
    }
  assert_frames (format_get (&fs, 34), "0 12 22 30");
  assert_frames (format_get (&fs, 35), "0 12 22 30");
  assert_frames (format_get (&fs, 36), "0 12 22 30");
  format_close (&fs);
}

/* Rings.niff's three rings turn through ±π flips of their stored Euler
 * angles (RotateX/Y/Z of groups 0–2: X 1.357 → −1.723, Z 1.885 → −1.209 at
 * frame 159, Y near its quarter turn) and whole-turn jumps (Z −3.05 → 3.14 at
 * 84), with slopes worked out across them. Unwrapped as one edit: no jump
 * from frame to frame, every key the rotation it had, and the file written
 * back parses and validates. */
static void
test_niff_unwrap_rings (void)
{
  FormatStore fs = { 0 };
  g_autoptr (TressCurveEditBatch) b = tress_curve_edit_batch_new ();
  g_autoptr (GPtrArray) before = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_curve_unref);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GPtrArray) problems = NULL;
  gpointer again;
  static const guint rot[] = { 0, 1, 2, 9, 10, 11, 18, 19, 20 };
  guint n_stored = 0;

  if (!format_open (&fs, "niff/Rings.niff"))
    return;
  for (guint i = 0; i < G_N_ELEMENTS (rot); i++)
    {
      TressCurve *c = fs.format->curves->get_curve (fs.model, rot[i]);

      g_assert_true (c->angle);
      g_assert_cmpint (c->euler_order, ==, TRESS_EULER_XYZ);
      g_assert_cmpuint (c->euler_axis, ==, i % 3);
      g_ptr_array_add (before, c);
    }
  /* As stored: jumps of more than a quarter turn from one frame to the next. */
  {
    double worst = 0;

    for (guint i = 0; i < before->len; i++)
      for (double f = 0; f < 249; f += 1)
        worst = MAX (worst, fabs (tress_curve_evaluate (before->pdata[i], f + 1)
                                  - tress_curve_evaluate (before->pdata[i], f)));
    g_assert_cmpfloat (worst, >, 2.5);
  }
  for (guint i = 0; i < before->len; i++)
    {
      TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_UNWRAP };

      tress_curve_edit_set_unwrap_group (&e, (const TressCurve *const *)before->pdata, before->len,
                                         i);
      g_assert_nonnull (e.euler[0]);
      g_assert_true (tress_curve_edit_batch_add (b, rot[i], before->pdata[i], NULL, 0, &e, &error));
      g_assert_no_error (error);
    }
  g_assert_cmpuint (tress_curve_edit_batch_get_n_changed (b), ==, 9);
  g_assert_true (tress_curve_edit_batch_commit (b, format_get, format_set, &fs, &n_stored, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_stored, ==, 9);

  /* Written back, read again: valid, and the unwrapped curves. */
  bytes = fs.format->serialize (fs.model, &error);
  g_assert_no_error (error);
  again = fs.format->parse (bytes, "unwrapped", &error);
  g_assert_no_error (error);
  problems = fs.format->validate (again);
  g_assert_cmpuint (problems->len, ==, 0);
  for (guint g = 0; g < 3; g++)
    {
      TressCurve *now[3];

      for (guint a = 0; a < 3; a++)
        now[a] = fs.format->curves->get_curve (again, rot[3 * g + a]);
      /* No jump between frames: the fastest turn of a ring is under 0.1 a frame. */
      for (guint a = 0; a < 3; a++)
        for (double f = 0; f < 249; f += 0.5)
          g_assert_cmpfloat (
              fabs (tress_curve_evaluate (now[a], f + 0.5) - tress_curve_evaluate (now[a], f)), <,
              0.1);
      /* Each key the rotation it had (within the f32 the angles are kept in). */
      for (guint k = 0; k < tress_curve_get_n_keys (now[0]); k++)
        {
          double was[3], is[3], ma[3][3], mb[3][3];

          for (guint a = 0; a < 3; a++)
            {
              was[a] = key (before->pdata[3 * g + a], k)->value;
              is[a] = key (now[a], k)->value;
              g_assert_cmpfloat (key (now[a], k)->frame, ==,
                                 key (before->pdata[3 * g + a], k)->frame);
            }
          rotation (TRESS_EULER_XYZ, was[0], was[1], was[2], ma);
          rotation (TRESS_EULER_XYZ, is[0], is[1], is[2], mb);
          for (guint i = 0; i < 3; i++)
            for (guint j = 0; j < 3; j++)
              g_assert_cmpfloat_with_epsilon (ma[i][j], mb[i][j], 1e-5);
        }
      for (guint a = 0; a < 3; a++)
        tress_curve_unref (now[a]);
    }
  fs.format->free (again);
  format_close (&fs);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/curve-edit/sort-tracking", test_sort_tracking);
  g_test_add_func ("/curve-edit/conform-and-remap", test_conform_and_remap);
  g_test_add_func ("/curve-edit/move", test_move);
  g_test_add_func ("/curve-edit/move-whole-numbers-tangents", test_move_whole_numbers_and_tangents);
  g_test_add_func ("/curve-edit/move-reorder-tangents", test_move_reorder_tangents);
  g_test_add_func ("/curve-edit/set-slopes", test_set_slopes);
  g_test_add_func ("/curve-edit/arrival-values", test_arrival_values);
  g_test_add_func ("/curve-edit/scale", test_scale);
  g_test_add_func ("/curve-edit/insert", test_insert);
  g_test_add_func ("/curve-edit/insert-held-ends", test_insert_held_ends);
  g_test_add_func ("/curve-edit/delete", test_delete);
  g_test_add_func ("/curve-edit/duplicate", test_duplicate);
  g_test_add_func ("/curve-edit/paste", test_paste);
  g_test_add_func ("/curve-edit/set-interp", test_set_interp);
  g_test_add_func ("/curve-edit/set-tangent", test_set_tangent);
  g_test_add_func ("/curve-edit/set-key", test_set_key);
  g_test_add_func ("/curve-edit/set-key-no-slopes", test_set_key_no_slopes);
  g_test_add_func ("/curve-edit/bake-fit", test_bake_fit);
  g_test_add_func ("/curve-edit/unwrap", test_unwrap);
  g_test_add_func ("/curve-edit/unwrap-one-channel", test_unwrap_one_channel);
  g_test_add_func ("/curve-edit/unwrap-secant-edge", test_unwrap_secant_edge);
  g_test_add_func ("/curve-edit/unwrap-euler", test_unwrap_euler);
  g_test_add_func ("/curve-edit/unwrap-group", test_unwrap_group);
  g_test_add_func ("/curve-edit/labels", test_labels);
  g_test_add_func ("/curve-edit/batch-all-or-nothing", test_batch_all_or_nothing);
  g_test_add_func ("/curve-edit/batch-past-end", test_batch_past_end);
  g_test_add_func ("/curve-edit/batch-fixed-count", test_batch_fixed_count);
  g_test_add_func ("/curve-edit/batch-shared-keys", test_batch_shared_keys);
  g_test_add_func ("/curve-edit/batch-label", test_batch_label);
  g_test_add_func ("/curve-edit/niff-shared-delete", test_niff_shared_delete);
  g_test_add_func ("/curve-edit/niff-shared-move", test_niff_shared_move);
  g_test_add_func ("/curve-edit/niff-unwrap-rings", test_niff_unwrap_rings);
  return g_test_run ();
}
