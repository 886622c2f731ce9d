/* test-curve-selection.c: the selected keys and handles, per curve (no display)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "app/curves/tress-curve-selection.h"

static GArray *
keys_of (TressCurveSelection *sel, guint curve)
{
  return tress_curve_selection_dup_keys (sel, curve);
}

static void
assert_keys (TressCurveSelection *sel, guint curve, const guint *want, guint n)
{
  g_autoptr (GArray) keys = keys_of (sel, curve);

  g_assert_cmpuint (keys->len, ==, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (g_array_index (keys, guint, i), ==, want[i]);
}

static void
test_add_remove (void)
{
  g_autoptr (TressCurveSelection) sel = tress_curve_selection_new ();
  static const guint want[] = { 1, 4, 9 };

  g_assert_true (tress_curve_selection_add (sel, 7, 9, TRESS_CURVE_PART_KEY));
  g_assert_true (tress_curve_selection_add (sel, 7, 1, TRESS_CURVE_PART_KEY));
  g_assert_true (tress_curve_selection_add (sel, 7, 4, TRESS_CURVE_PART_KEY));
  g_assert_false (tress_curve_selection_add (sel, 7, 4, TRESS_CURVE_PART_KEY));
  g_assert_true (tress_curve_selection_add (sel, 7, 4, TRESS_CURVE_PART_OUT_HANDLE));
  g_assert_true (tress_curve_selection_add (sel, 0, 0, TRESS_CURVE_PART_KEY));
  /* Keys sorted, handles left out of the keys and their count. */
  assert_keys (sel, 7, want, 3);
  g_assert_cmpuint (tress_curve_selection_get_n_keys (sel), ==, 4);
  g_assert_cmpuint (tress_curve_selection_get_n_items (sel), ==, 5);
  g_assert_true (tress_curve_selection_contains (sel, 7, 4, TRESS_CURVE_PART_OUT_HANDLE));
  g_assert_false (tress_curve_selection_contains (sel, 7, 4, TRESS_CURVE_PART_IN_HANDLE));
  g_assert_false (tress_curve_selection_contains (sel, 8, 4, TRESS_CURVE_PART_KEY));
  /* Curve 0 is a curve like any other. */
  g_assert_true (tress_curve_selection_has_curve (sel, 0));
  g_assert_true (tress_curve_selection_contains (sel, 0, 0, TRESS_CURVE_PART_KEY));

  g_assert_true (tress_curve_selection_remove (sel, 7, 4, TRESS_CURVE_PART_KEY));
  g_assert_false (tress_curve_selection_remove (sel, 7, 4, TRESS_CURVE_PART_KEY));
  g_assert_true (tress_curve_selection_contains (sel, 7, 4, TRESS_CURVE_PART_OUT_HANDLE));
  g_assert_cmpuint (tress_curve_selection_get_n_keys (sel), ==, 3);
  tress_curve_selection_clear_curve (sel, 7);
  g_assert_false (tress_curve_selection_has_curve (sel, 7));
  g_assert_cmpuint (tress_curve_selection_get_n_items (sel), ==, 1);
  tress_curve_selection_clear (sel);
  g_assert_cmpuint (tress_curve_selection_get_n_items (sel), ==, 0);
  g_assert_false (tress_curve_selection_has_curve (sel, 0));
}

static int
shift_down (guint key, gpointer data)
{
  /* Key 3 is gone; the keys after it move down one; keys 0 and 1 land on 0. */
  if (key == 3)
    return -1;
  if (key > 3)
    return (int)key - 1;
  return key == 1 ? 0 : (int)key;
}

static void
test_set_remap_prune (void)
{
  g_autoptr (TressCurveSelection) sel = tress_curve_selection_new ();
  g_autoptr (TressCurveSelection) copy = NULL;
  static const guint given[] = { 5, 0, 3, 5, 1 };
  static const guint sorted[] = { 0, 1, 3, 5 };
  static const guint mapped[] = { 0, 4 };
  g_autoptr (TressCurve) c = tress_curve_new ();
  g_autoptr (GArray) curves = NULL;

  tress_curve_selection_add (sel, 2, 8, TRESS_CURVE_PART_IN_HANDLE);
  tress_curve_selection_set_keys (sel, 2, given, G_N_ELEMENTS (given));
  assert_keys (sel, 2, sorted, 4);
  /* set_keys replaces handles too. */
  g_assert_cmpuint (tress_curve_selection_get_n_items (sel), ==, 4);
  copy = tress_curve_selection_copy (sel);

  tress_curve_selection_remap (sel, 2, shift_down, NULL);
  assert_keys (sel, 2, mapped, 2);
  g_assert_cmpuint (tress_curve_selection_get_n_keys (sel), ==, 2);
  /* The copy kept what it had. */
  assert_keys (copy, 2, sorted, 4);
  g_assert_cmpuint (tress_curve_selection_get_n_keys (copy), ==, 4);

  /* Pruning against a curve of three linear keys: key 4 goes, and so does a
   * handle a linear key does not have. */
  for (guint i = 0; i < 3; i++)
    {
      TressKey k = { .frame = i * 10.0, .value = i, .interp = TRESS_INTERP_LINEAR };
      g_array_append_val (c->keys, k);
    }
  tress_curve_selection_add (sel, 2, 1, TRESS_CURVE_PART_OUT_HANDLE);
  tress_curve_selection_prune (sel, 2, c);
  {
    static const guint left[] = { 0 };
    assert_keys (sel, 2, left, 1);
  }
  g_assert_cmpuint (tress_curve_selection_get_n_items (sel), ==, 1);
  tress_curve_selection_prune (sel, 2, NULL);
  g_assert_false (tress_curve_selection_has_curve (sel, 2));

  tress_curve_selection_add_range (copy, 9, 3);
  tress_curve_selection_add_range (copy, 2, 7);
  curves = tress_curve_selection_dup_curves (copy);
  g_assert_cmpuint (curves->len, ==, 2);
  g_assert_cmpuint (g_array_index (curves, guint, 0), ==, 2);
  g_assert_cmpuint (g_array_index (curves, guint, 1), ==, 9);
  g_assert_cmpuint (tress_curve_selection_get_n_keys (copy), ==, 10);
}

static gboolean
keep_even (guint curve, gpointer data)
{
  return curve % 2 == 0;
}

static void
count_item (guint curve, guint key, TressCurvePart part, gpointer data)
{
  (*(guint *)data)++;
}

/* A whole animation's keys: thousands of curves, hundreds of thousands of keys. */
static void
test_many (void)
{
  g_autoptr (TressCurveSelection) sel = tress_curve_selection_new ();
  guint n = 0;

  for (guint c = 0; c < 5000; c++)
    tress_curve_selection_add_range (sel, c, 50);
  g_assert_cmpuint (tress_curve_selection_get_n_keys (sel), ==, 250000);
  for (guint c = 0; c < 5000; c += 7)
    for (guint k = 0; k < 50; k += 3)
      g_assert_true (tress_curve_selection_contains (sel, c, k, TRESS_CURVE_PART_KEY));
  g_assert_false (tress_curve_selection_contains (sel, 3, 50, TRESS_CURVE_PART_KEY));
  tress_curve_selection_filter_curves (sel, keep_even, NULL);
  g_assert_cmpuint (tress_curve_selection_get_n_keys (sel), ==, 125000);
  tress_curve_selection_foreach_of (sel, 4, count_item, &n);
  g_assert_cmpuint (n, ==, 50);
  tress_curve_selection_foreach_of (sel, 5, count_item, &n);
  g_assert_cmpuint (n, ==, 50);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/curves/selection/add-remove", test_add_remove);
  g_test_add_func ("/curves/selection/set-remap-prune", test_set_remap_prune);
  g_test_add_func ("/curves/selection/many", test_many);
  return g_test_run ();
}
