/* test-dope-sheet-keys.c: the dope sheet's key-time maths, without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "app/curves/tress-dope-sheet-keys.h"

#define PLAIN (TRESS_DOPE_MARK_KEY | TRESS_DOPE_MARK_PLAIN)

static TressCurve *
make_curve (const double *frames, guint n, double frame_step)
{
  TressCurve *c = tress_curve_new ();

  tress_curve_limits_init_unbounded (&c->limits);
  c->limits.frame_step = frame_step;
  for (guint i = 0; i < n; i++)
    {
      TressKey k = { 0 };

      k.frame = frames[i];
      k.value = i * 0.5;
      k.interp = TRESS_INTERP_LINEAR;
      tress_curve_append_key (c, &k);
    }
  return c;
}

/* 100 pixels for frames 0…10: ten pixels a frame. */
static void
viewport (TressCurveViewport *vp, double first, double last, double width)
{
  tress_curve_viewport_init (vp, width, 50);
  vp->frame_min = first;
  vp->frame_max = last;
}

static char *
row_name (const TressDopeRow *row, const char *const *paths)
{
  return tress_dope_row_dup_name (row, paths);
}

static void
test_rows (void)
{
  const char *paths[] = { "Anims/Walk/Hip/Rotate X", "Anims/Walk/Hip/Rotate Y",
                          "Anims/Walk/Leg/Rotate X", "Anims/Run/Hip/Rotate X" };
  const guint indices[] = { 7, 3, 9, 1 };
  g_autoptr (GArray) rows = tress_dope_rows_layout (paths, indices, 4, NULL, TRUE);
  /* The shared "Anims" is left out: summary, Walk, Hip, 2 channels, Leg, 1, Run, Hip, 1. */
  const char *names[] = { NULL,  "Walk",     "Hip", "Rotate X", "Rotate Y",
                          "Leg", "Rotate X", "Run", "Hip",      "Rotate X" };
  const guint depths[] = { 0, 1, 2, 3, 3, 2, 3, 1, 2, 3 };
  const guint n_curves[] = { 4, 3, 2, 1, 1, 1, 1, 1, 1, 1 };
  const int curves[] = { -1, -1, -1, 7, 3, -1, 9, -1, -1, 1 };

  g_assert_cmpuint (rows->len, ==, G_N_ELEMENTS (names));
  for (guint i = 0; i < rows->len; i++)
    {
      TressDopeRow *row = &g_array_index (rows, TressDopeRow, i);
      g_autofree char *name = row_name (row, paths);

      g_assert_cmpstr (name, ==, names[i]);
      g_assert_cmpuint (row->depth, ==, depths[i]);
      g_assert_cmpuint (row->end - row->first, ==, n_curves[i]);
      g_assert_cmpint (row->curve, ==, curves[i]);
    }
  /* The Walk group holds the first three shown curves. */
  {
    TressDopeRow *walk = &g_array_index (rows, TressDopeRow, 1);
    g_autofree char *key = tress_dope_row_dup_key (walk, paths);

    g_assert_cmpuint (walk->first, ==, 0);
    g_assert_cmpuint (walk->end, ==, 3);
    g_assert_cmpstr (key, ==, "Anims/Walk");
  }
}

static void
count_changed (guint *n)
{
  (*n)++;
}

/* Closed groups: their rows are not made; the shared state opens one. */
static void
test_rows_closed (void)
{
  const char *paths[] = { "Anims/Walk/Hip/Rotate X", "Anims/Walk/Hip/Rotate Y",
                          "Anims/Walk/Leg/Rotate X", "Anims/Run/Hip/Rotate X" };
  const guint indices[] = { 7, 3, 9, 1 };
  g_autoptr (TressCurveGroups) groups = tress_curve_groups_new ();
  g_autoptr (GArray) closed = tress_dope_rows_layout (paths, indices, 4, groups, FALSE);
  g_autoptr (GArray) walk_open = NULL;
  guint changed = 0;

  /* Summary, Walk, Run. */
  g_assert_cmpuint (closed->len, ==, 3);
  g_assert_false (g_array_index (closed, TressDopeRow, 1).open);
  g_signal_connect_swapped (groups, "changed", G_CALLBACK (count_changed), &changed);
  tress_curve_groups_set_open (groups, "Anims/Walk", TRUE);
  tress_curve_groups_set_open (groups, "Anims/Walk", TRUE);
  g_assert_cmpuint (changed, ==, 1);
  g_assert_true (tress_curve_groups_get_open (groups, "Anims/Walk", FALSE));
  g_assert_false (tress_curve_groups_get_open (groups, "Anims/Run", FALSE));
  g_assert_true (tress_curve_groups_get_open (groups, "Anims/Run", TRUE));
  walk_open = tress_dope_rows_layout (paths, indices, 4, groups, FALSE);
  /* Summary, Walk (open), Hip, Leg (closed), Run. */
  g_assert_cmpuint (walk_open->len, ==, 5);
  g_assert_true (g_array_index (walk_open, TressDopeRow, 1).open);
  g_assert_cmpuint (g_array_index (walk_open, TressDopeRow, 2).depth, ==, 2);
  g_assert_false (g_array_index (walk_open, TressDopeRow, 2).open);
  g_assert_cmpuint (g_array_index (walk_open, TressDopeRow, 4).first, ==, 3);
}

static void
test_rows_one_curve (void)
{
  const char *paths[] = { "Walk/Hip/Rotate X" };
  const guint indices[] = { 0 };
  g_autoptr (GArray) rows = tress_dope_rows_layout (paths, indices, 1, NULL, TRUE);
  g_autofree char *name = NULL;

  /* Only the channel is left: every level above is shared. */
  g_assert_cmpuint (rows->len, ==, 2);
  name = row_name (&g_array_index (rows, TressDopeRow, 1), paths);
  g_assert_cmpstr (name, ==, "Rotate X");
  g_assert_cmpuint (g_array_index (rows, TressDopeRow, 1).depth, ==, 1);
}

/* The channel list's names: a component joins its channel ("RotateX/X"). */
static void
test_rows_component (void)
{
  const char *paths[] = { "Walk/Hip/RotateX/X", "Walk/Hip/RotateX/Y", "Walk/Leg/RotateX/X" };
  const guint indices[] = { 0, 1, 2 };
  g_autoptr (GArray) rows = tress_dope_rows_layout (paths, indices, 3, NULL, TRUE);
  g_autofree char *name = NULL;

  /* Summary, Hip, 2 channels, Leg, 1. */
  g_assert_cmpuint (rows->len, ==, 6);
  name = row_name (&g_array_index (rows, TressDopeRow, 2), paths);
  g_assert_cmpstr (name, ==, "RotateX X");
}

/* The interactive scale: the frame under the pointer follows it. */
static void
test_scale_factor (void)
{
  TressCurveViewport vp;

  viewport (&vp, 0, 10, 100); /* ten pixels a frame */
  /* Begun at frame 3 (x 30) about frame 0, at frame 6 (x 60): × 2. */
  g_assert_cmpfloat (tress_dope_scale_factor (&vp, 0, 30, 60, TRUE), ==, 2);
  /* At x 64 (frame 6.4): snapped, frame 6 again; unsnapped 6.4 / 3. */
  g_assert_cmpfloat (tress_dope_scale_factor (&vp, 0, 30, 64, TRUE), ==, 2);
  g_assert_cmpfloat_with_epsilon (tress_dope_scale_factor (&vp, 0, 30, 64, FALSE), 6.4 / 3, 1e-9);
  /* About frame 2: begun at frame 4, at frame 8 → (8 - 2) / (4 - 2) = 3. */
  g_assert_cmpfloat (tress_dope_scale_factor (&vp, 2, 40, 80, TRUE), ==, 3);
  /* Past the pivot: never zero or below. */
  g_assert_cmpfloat (tress_dope_scale_factor (&vp, 0, 30, -50, TRUE), ==, 0.001);
  /* Begun at the pivot: 100 pixels add 1, in tenths while snapped. */
  g_assert_cmpfloat (tress_dope_scale_factor (&vp, 0, 2, 52, TRUE), ==, 1.5);
  g_assert_cmpfloat_with_epsilon (tress_dope_scale_factor (&vp, 0, 2, 56, TRUE), 1.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (tress_dope_scale_factor (&vp, 0, 2, 56, FALSE), 1.54, 1e-12);
}

static void
test_bin_columns (void)
{
  const double frames[] = { -5, 0, 2, 2.04, 2.08, 5, 9.99, 10, 12 };
  TressCurve *c = make_curve (frames, G_N_ELEMENTS (frames), 0);
  g_autoptr (TressCurveSelection) sel = tress_curve_selection_new ();
  TressCurveViewport vp;
  guint8 cols[100] = { 0 };
  guint visited;

  viewport (&vp, 0, 10, 100);
  tress_curve_selection_add (sel, 4, 3, TRESS_CURVE_PART_KEY); /* frame 2.04 */
  visited = tress_dope_bin_curve (c, 4, sel, &vp, cols, 100);
  /* Frames 2, 2.04 and 2.08 share column 20: one mark, selected. Frame 10 is
   * column 100, off the right edge; -5 and 12 are off screen. */
  g_assert_cmpuint (visited, ==, 4);
  g_assert_cmpuint (cols[0], ==, PLAIN);
  g_assert_cmpuint (cols[20], ==, PLAIN | TRESS_DOPE_MARK_SELECTED);
  g_assert_cmpuint (cols[50], ==, PLAIN);
  g_assert_cmpuint (cols[99], ==, PLAIN);
  for (guint i = 0; i < 100; i++)
    if (i != 0 && i != 20 && i != 50 && i != 99)
      g_assert_cmpuint (cols[i], ==, 0);
  /* The selection of another curve does not count. */
  memset (cols, 0, sizeof cols);
  tress_dope_bin_curve (c, 5, sel, &vp, cols, 100);
  g_assert_cmpuint (cols[20], ==, PLAIN);
  /* A column of selected keys alone. */
  tress_curve_selection_add (sel, 4, 2, TRESS_CURVE_PART_KEY);
  tress_curve_selection_add (sel, 4, 4, TRESS_CURVE_PART_KEY);
  memset (cols, 0, sizeof cols);
  tress_dope_bin_curve (c, 4, sel, &vp, cols, 100);
  g_assert_cmpuint (cols[20], ==, TRESS_DOPE_MARK_KEY | TRESS_DOPE_MARK_SELECTED);
  tress_curve_unref (c);
}

/* A group row is the union of its curves' marks. */
static void
test_bin_union (void)
{
  const double a[] = { 1, 3 }, b[] = { 3, 7 };
  TressCurve *ca = make_curve (a, 2, 1), *cb = make_curve (b, 2, 1);
  TressCurveViewport vp;
  guint8 cols[10] = { 0 };
  guint marked = 0;

  viewport (&vp, 0, 10, 10);
  tress_dope_bin_curve (ca, 0, NULL, &vp, cols, 10);
  tress_dope_bin_curve (cb, 1, NULL, &vp, cols, 10);
  for (guint i = 0; i < 10; i++)
    marked += cols[i] != 0;
  g_assert_cmpuint (marked, ==, 3);
  g_assert_cmpuint (cols[1] & cols[3] & cols[7], ==, PLAIN);
  tress_curve_unref (ca);
  tress_curve_unref (cb);
}

/* However many keys, the work is bounded by the columns: 1,000,000 keys on 50 pixels. */
static void
test_bin_bounded (void)
{
  TressCurve *c = tress_curve_new ();
  TressCurveViewport vp;
  guint8 cols[50] = { 0 };

  tress_curve_limits_init_unbounded (&c->limits);
  for (guint i = 0; i < 1000000; i++)
    {
      TressKey k = { .frame = i * 0.01, .interp = TRESS_INTERP_LINEAR };

      tress_curve_append_key (c, &k);
    }
  viewport (&vp, 0, 10000, 50);
  g_assert_cmpuint (tress_dope_bin_curve (c, 0, NULL, &vp, cols, 50), ==, 50);
  for (guint i = 0; i < 50; i++)
    g_assert_cmpuint (cols[i], ==, PLAIN);
  tress_curve_unref (c);
}

static void
test_picking (void)
{
  const double frames[] = { 0, 4, 4.5, 10 };
  TressCurve *c = make_curve (frames, 4, 0);
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint));
  double f = -1;

  g_assert_true (tress_dope_nearest_frame (c, 4.3, 0.5, &f));
  g_assert_cmpfloat (f, ==, 4.5);
  g_assert_true (tress_dope_nearest_frame (c, 4.2, 0.5, &f));
  g_assert_cmpfloat (f, ==, 4);
  g_assert_false (tress_dope_nearest_frame (c, 7, 2, &f));
  g_assert_true (tress_dope_nearest_frame (c, 11, 2, &f));
  g_assert_cmpfloat (f, ==, 10);

  g_assert_cmpuint (tress_dope_keys_at (c, 4, keys), ==, 1);
  g_assert_cmpuint (g_array_index (keys, guint, 0), ==, 1);
  g_assert_cmpuint (tress_dope_keys_at (c, 4.25, keys), ==, 0);
  g_array_set_size (keys, 0);
  g_assert_cmpuint (tress_dope_keys_in (c, 0, 4.5, keys), ==, 3);
  g_assert_cmpuint (g_array_index (keys, guint, 2), ==, 2);
  g_assert_cmpuint (tress_dope_lower_bound (c, 5), ==, 3);
  g_assert_cmpuint (tress_dope_lower_bound (c, 11), ==, 4);
  tress_curve_unref (c);
}

static void
test_drag_frames (void)
{
  TressCurveViewport vp;

  viewport (&vp, 0, 10, 100);
  g_assert_cmpfloat (tress_dope_drag_frames (&vp, 30, 54, TRUE), ==, 2);
  g_assert_cmpfloat (tress_dope_drag_frames (&vp, 30, 56, TRUE), ==, 3);
  g_assert_cmpfloat (tress_dope_drag_frames (&vp, 30, 4, TRUE), ==, -3);
  g_assert_cmpfloat_with_epsilon (tress_dope_drag_frames (&vp, 30, 54, FALSE), 2.4, 1e-9);
}

/* The edits, run by the same code the graph runs: a move in time leaves the
 * values, a scale about a pivot lands on whole frames where the curve stores
 * whole frames. */
static void
test_time_edits (void)
{
  const double frames[] = { 0, 3, 5, 9 };
  TressCurve *c = make_curve (frames, 4, 1);
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GError) error = NULL;
  TressCurveEdit e;
  guint k;

  k = 1, g_array_append_val (keys, k);
  k = 2, g_array_append_val (keys, k);
  e = tress_dope_move_edit (2);
  g_assert_cmpint (e.kind, ==, TRESS_CURVE_EDIT_MOVE);
  g_assert_true (tress_curve_edit_move (c, keys, e.d_frame, e.d_value, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (tress_curve_get_key (c, 1)->frame, ==, 5);
  g_assert_cmpfloat (tress_curve_get_key (c, 2)->frame, ==, 7);
  g_assert_cmpfloat (tress_curve_get_key (c, 1)->value, ==, 0.5);
  g_assert_cmpfloat (tress_curve_get_key (c, 2)->value, ==, 1.0);

  /* Frames 0, 5, 7, 9 scaled by 1.5 about 1: 1 + (f - 1) * 1.5 → -0.5, 7, 10, 13,
   * each on a whole frame. */
  g_array_set_size (keys, 0);
  for (k = 0; k < 4; k++)
    g_array_append_val (keys, k);
  e = tress_dope_scale_edit (1, 1.5);
  g_assert_true (tress_curve_edit_scale (c, keys, e.pivot_frame, e.frame_factor, e.value_factor,
                                         e.value_at_pivot, &error));
  g_assert_no_error (error);
  for (k = 0; k < 4; k++)
    {
      double f = tress_curve_get_key (c, k)->frame;

      g_assert_cmpfloat (f, ==, round (f));
      g_assert_cmpfloat (tress_curve_get_key (c, k)->value, ==, k * 0.5);
    }
  g_assert_cmpfloat (tress_curve_get_key (c, 1)->frame, ==, 7);
  g_assert_cmpfloat (tress_curve_get_key (c, 2)->frame, ==, 10);
  g_assert_cmpfloat (tress_curve_get_key (c, 3)->frame, ==, 13);
  tress_curve_unref (c);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dope-sheet/rows", test_rows);
  g_test_add_func ("/dope-sheet/rows-closed", test_rows_closed);
  g_test_add_func ("/dope-sheet/rows-one-curve", test_rows_one_curve);
  g_test_add_func ("/dope-sheet/rows-component", test_rows_component);
  g_test_add_func ("/dope-sheet/scale-factor", test_scale_factor);
  g_test_add_func ("/dope-sheet/bin-columns", test_bin_columns);
  g_test_add_func ("/dope-sheet/bin-union", test_bin_union);
  g_test_add_func ("/dope-sheet/bin-bounded", test_bin_bounded);
  g_test_add_func ("/dope-sheet/picking", test_picking);
  g_test_add_func ("/dope-sheet/drag-frames", test_drag_frames);
  g_test_add_func ("/dope-sheet/time-edits", test_time_edits);
  return g_test_run ();
}
