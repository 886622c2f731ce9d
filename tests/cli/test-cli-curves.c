/* test-cli-curves.c: tress-cli's key commands, which run the editor's edit operations
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "tress-test-utils.h"

static char *
tmp (const char *name)
{
  return g_build_filename (tress_test_tmpdir (), name, NULL);
}

/* The value of @curve at @frame, as `tress-cli eval` gives it. */
static double
eval_at (const char *file, const char *curve, const char *frame)
{
  g_autofree char *out = NULL;
  const char *argv[] = { "eval", file, curve, frame, NULL };

  g_assert_cmpint (tress_test_run_cli (argv, &out, NULL), ==, 0);
  return g_ascii_strtod (strchr (out, '\t') + 1, NULL);
}

/* One slope given where the format ties them (NIFF2) sets both; two
 * different ones are refused, and nothing is written. */
static void
test_set_key_tied (void)
{
  g_autofree char *rings = tress_test_sample_path ("niff/Rings.niff");
  g_autofree char *out = tmp ("rings-slope.niff");
  g_autofree char *refused = tmp ("rings-refused.niff");
  g_autofree char *err = NULL;

  if (rings == NULL)
    return;
  {
    /* RotateZ key 12 (frame 120) gets a slope of 0.5, on both sides. */
    const char *set[] = { "set-key", rings, "2", "12", "--in", "0.5", "-o", out, NULL };
    double v;

    g_assert_cmpint (tress_test_run_cli (set, NULL, &err), ==, 0);
    g_clear_pointer (&err, g_free);
    v = eval_at (out, "2", "120");
    g_assert_cmpfloat_with_epsilon ((eval_at (out, "2", "120.001") - v) / 0.001, 0.5, 1e-3);
    g_assert_cmpfloat_with_epsilon ((v - eval_at (out, "2", "119.999")) / 0.001, 0.5, 1e-3);
  }
  {
    const char *both[]
        = { "set-key", rings, "2", "12", "--in", "0.5", "--out", "0.25", "-o", refused, NULL };

    g_assert_cmpint (tress_test_run_cli (both, NULL, &err), ==, 1);
    g_assert_nonnull (strstr (err, "one slope per key"));
    g_assert_false (g_file_test (refused, G_FILE_TEST_EXISTS));
  }
}

/* Moving a key onto another's frame is refused by the edit itself; a move
 * past neighbours keeps the shape of the other keys. */
static void
test_set_key_frame (void)
{
  g_autofree char *rings = tress_test_sample_path ("niff/Rings.niff");
  g_autofree char *out = tmp ("rings-moved.niff");
  g_autofree char *err = NULL;

  if (rings == NULL)
    return;
  {
    const char *onto[] = { "set-key", rings, "0", "1", "--frame", "49", "-o", out, NULL };

    g_assert_cmpint (tress_test_run_cli (onto, NULL, &err), ==, 1);
    g_assert_nonnull (strstr (err, "a key already sits at frame 49"));
    g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  }
  {
    const char *past[] = { "set-key", rings, "2", "3", "--frame", "70", "-o", out, NULL };

    /* RotateZ key 3 (frame 50) past key 4 (frame 62): the value at 62 stays. */
    g_assert_cmpint (tress_test_run_cli (past, NULL, NULL), ==, 0);
    g_assert_cmpfloat_with_epsilon (eval_at (out, "2", "62"), eval_at (rings, "2", "62"), 1e-6);
    g_assert_cmpfloat_with_epsilon (eval_at (out, "2", "70"), eval_at (rings, "2", "50"), 1e-6);
  }
}

/* Deleting a curve's only key is refused with the curve's name; inserting
 * keeps the shape and takes --value. */
static void
test_insert_delete (void)
{
  g_autofree char *rings = tress_test_sample_path ("niff/Rings.niff");
  g_autofree char *out = tmp ("rings-deleted.niff");
  g_autofree char *ins = tmp ("rings-inserted.niff");
  g_autofree char *err = NULL;

  if (rings == NULL)
    return;
  {
    const char *last[] = { "delete-key", rings, "3", "0", "-o", out, NULL };

    g_assert_cmpint (tress_test_run_cli (last, NULL, &err), ==, 1);
    g_assert_nonnull (strstr (err, "Sweep15_3_Animation/Translation/X must keep at least one key"));
    g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  }
  {
    const char *del[] = { "delete-key", rings, "2", "5", "-o", out, NULL };
    const char *curves[] = { "curves", out, NULL };
    g_autofree char *text = NULL;

    g_assert_cmpint (tress_test_run_cli (del, NULL, NULL), ==, 0);
    g_assert_cmpint (tress_test_run_cli (curves, &text, NULL), ==, 0);
    g_assert_nonnull (strstr (text, "Sweep15_3_Animation/RotateZ/Z\tNIFF2 RotateZ, whole frames, "
                                    "f32, one slope per key\t46 keys"));
  }
  {
    const char *keep[] = { "insert-key", rings, "2", "55", "-o", ins, NULL };
    const char *value[] = { "insert-key", rings, "2", "55", "--value", "0.5", "-o", out, NULL };

    g_assert_cmpint (tress_test_run_cli (keep, NULL, NULL), ==, 0);
    for (int f = 50; f <= 62; f++)
      {
        g_autofree char *frame = g_strdup_printf ("%d", f);
        g_assert_cmpfloat_with_epsilon (eval_at (ins, "2", frame), eval_at (rings, "2", frame),
                                        1e-5);
      }
    g_assert_cmpint (tress_test_run_cli (value, NULL, NULL), ==, 0);
    g_assert_cmpfloat_with_epsilon (eval_at (out, "2", "55"), 0.5, 1e-6);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/curves/set-key-tied", test_set_key_tied);
  g_test_add_func ("/cli/curves/set-key-frame", test_set_key_frame);
  g_test_add_func ("/cli/curves/insert-delete", test_insert_delete);
  return g_test_run ();
}
