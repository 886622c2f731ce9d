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

/* Slopes asked for where the file stores none are refused with the reason,
 * and nothing is written: NIFF1 KEY records (kirikobu.niff: their slopes
 * follow from the interpolation; the slopes asked for are the ones shown, so
 * that nothing but the refusal tells the user), BFRES StepInt and StepBool
 * curves (the demo file), and a StepInt curve of a sample. A value alone is
 * still set there. */
static void
test_set_key_no_slopes (void)
{
  g_autofree char *kiri = tress_test_sample_path ("niff/kirikobu.niff");
  g_autofree char *bass = tress_test_sample_path ("bfres/Animal_Bass.bfres");
  g_autofree char *demo = tmp ("slopes-demo.bfres");
  g_autofree char *refused = tmp ("slopes-refused");
  g_autofree char *valued = tmp ("slopes-value.bfres");
  const char *gen[] = { "generate-demo", "bfres", "-o", demo, NULL };

  if (kiri != NULL)
    {
      const char *set[] = { "set-key", kiri,      "2",  "69",    "--in", "0.019",
                            "--out",   "-0.0811", "-o", refused, NULL };
      const char *in_only[] = { "set-key", kiri, "2", "69", "--in", "0.5", "-o", refused, NULL };
      g_autofree char *out = NULL, *err = NULL, *err2 = NULL;

      g_assert_cmpint (tress_test_run_cli (set, &out, &err), ==, 1);
      g_assert_nonnull (strstr (err, "cannot set the slopes of key 69 of "
                                     "upvector_Animation/Translate/Z: NIFF1 KEY records store "
                                     "no slopes"));
      g_assert_null (strstr (out, "stored value"));
      g_assert_false (g_file_test (refused, G_FILE_TEST_EXISTS));
      g_assert_cmpint (tress_test_run_cli (in_only, NULL, &err2), ==, 1);
      g_assert_nonnull (strstr (err2, "NIFF1 KEY records store no slopes"));
      g_assert_false (g_file_test (refused, G_FILE_TEST_EXISTS));
    }
  g_assert_cmpint (tress_test_run_cli (gen, NULL, NULL), ==, 0);
  {
    const char *step_int[]
        = { "set-key", demo, "Eyes/Face/_a0", "1", "--in", "0.5", "-o", refused, NULL };
    const char *step_bool[]
        = { "set-key", demo, "Blink/Eyelid", "1", "--out", "0", "-o", refused, NULL };
    const char *value[]
        = { "set-key", demo, "Eyes/Face/_a0", "1", "--value", "2", "-o", valued, NULL };
    g_autofree char *err = NULL, *err2 = NULL;

    g_assert_cmpint (tress_test_run_cli (step_int, NULL, &err), ==, 1);
    g_assert_nonnull (strstr (err, "key 1 of Eyes/Face/_a0: a StepInt curve stores no slopes"));
    g_assert_false (g_file_test (refused, G_FILE_TEST_EXISTS));
    g_assert_cmpint (tress_test_run_cli (step_bool, NULL, &err2), ==, 1);
    g_assert_nonnull (strstr (err2, "key 1 of Blink/Eyelid: a StepBool curve stores no slopes"));
    g_assert_false (g_file_test (refused, G_FILE_TEST_EXISTS));
    g_assert_cmpint (tress_test_run_cli (value, NULL, NULL), ==, 0);
    g_assert_true (g_file_test (valued, G_FILE_TEST_EXISTS));
  }
  if (bass != NULL)
    {
      const char *set[]
          = { "set-key", bass, "Bass_Color/Mt_Body/_a0", "1", "--in", "0.25", "-o", refused, NULL };
      g_autofree char *err = NULL;

      g_assert_cmpint (tress_test_run_cli (set, NULL, &err), ==, 1);
      g_assert_nonnull (strstr (err, "a StepInt curve stores no slopes"));
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

/* The largest change of @curve from one frame to the next, frames 0…249. */
static double
largest_step (const char *file, const char *curve)
{
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *out = NULL;
  g_auto (GStrv) lines = NULL;
  double worst = 0, last = 0;

  g_ptr_array_add (argv, g_strdup ("eval"));
  g_ptr_array_add (argv, g_strdup (file));
  g_ptr_array_add (argv, g_strdup (curve));
  for (int f = 0; f <= 249; f++)
    g_ptr_array_add (argv, g_strdup_printf ("%d", f));
  g_ptr_array_add (argv, NULL);
  g_assert_cmpint (tress_test_run_cli ((const char *const *)argv->pdata, &out, NULL), ==, 0);
  g_ptr_array_unref (argv);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      double v = g_ascii_strtod (strchr (lines[i], '\t') + 1, NULL);

      if (i > 0)
        worst = MAX (worst, fabs (v - last));
      last = v;
    }
  return worst;
}

/* tress-cli unwrap on Rings.niff's rotations: the ±π flips and whole-turn
 * jumps go, the file validates; --all finds the angle curves itself; a curve
 * of no angles is refused. */
static void
test_unwrap (void)
{
  g_autofree char *rings = tress_test_sample_path ("niff/Rings.niff");
  g_autofree char *out = tmp ("rings-unwrapped.niff");
  g_autofree char *all = tmp ("rings-all.niff");
  g_autofree char *refused = tmp ("rings-no-angles.niff");
  g_autofree char *text = NULL;
  g_autofree char *err = NULL;
  g_autofree char *a = NULL, *b = NULL;
  gsize na = 0, nb = 0;

  if (rings == NULL)
    return;
  {
    const char *unwrap[]
        = { "unwrap", rings, "0", "1", "2", "9", "10", "11", "18", "19", "20", "-o", out, NULL };
    const char *validate[] = { "validate", out, NULL };

    g_assert_cmpint (tress_test_run_cli (unwrap, &text, NULL), ==, 0);
    g_assert_nonnull (strstr (text, "curves unwrapped: 9 of 9"));
    g_assert_cmpint (tress_test_run_cli (validate, NULL, NULL), ==, 0);
  }
  /* RotateX and RotateZ of the first ring: a flip and a jump of a turn as stored. */
  g_assert_cmpfloat (largest_step (rings, "0"), >, 2.5);
  g_assert_cmpfloat (largest_step (rings, "2"), >, 2.5);
  for (guint c = 0; c < 3; c++)
    {
      g_autofree char *curve = g_strdup_printf ("%u", c);
      g_assert_cmpfloat (largest_step (out, curve), <, 0.2);
    }
  g_assert_cmpfloat (largest_step (out, "HightRight_Animation/RotateZ/Z"), <, 0.2);
  {
    const char *every[] = { "unwrap", rings, "--all", "-o", all, NULL };

    g_clear_pointer (&text, g_free);
    g_assert_cmpint (tress_test_run_cli (every, &text, NULL), ==, 0);
    g_assert_nonnull (strstr (text, "curves unwrapped: 9 of 18"));
    g_assert_true (g_file_get_contents (out, &a, &na, NULL));
    g_assert_true (g_file_get_contents (all, &b, &nb, NULL));
    g_assert_cmpmem (a, na, b, nb);
  }
  {
    const char *no[] = { "unwrap", rings, "0", "3", "-o", refused, NULL };

    g_assert_cmpint (tress_test_run_cli (no, NULL, &err), ==, 1);
    g_assert_nonnull (strstr (err, "Sweep15_3_Animation/Translation/X holds no angles"));
    g_assert_false (g_file_test (refused, G_FILE_TEST_EXISTS));
  }
}

/* The Dog's skeletal animations are in Euler mode: their Rotate X/Y/Z curves
 * are angles. They hold no wrap (Skl_Root's Rotate Y spins through six turns
 * between sparse keys, spelled out): unwrapping every angle changes nothing,
 * and the file is written back byte for byte. */
static void
test_unwrap_bfres_spin (void)
{
  g_autofree char *dog = tress_test_sample_path ("bfres/Animal_Dog_Animation.bfres");
  g_autofree char *out = tmp ("dog-unwrapped.bfres");
  g_autofree char *text = NULL;
  g_autofree char *a = NULL, *b = NULL;
  gsize na = 0, nb = 0;

  if (dog == NULL)
    return;
  {
    const char *every[] = { "unwrap", dog, "--all", "-o", out, NULL };

    g_assert_cmpint (tress_test_run_cli (every, &text, NULL), ==, 0);
    g_assert_nonnull (strstr (text, "curves unwrapped: 0 of 3613"));
  }
  g_assert_true (g_file_get_contents (dog, &a, &na, NULL));
  g_assert_true (g_file_get_contents (out, &b, &nb, NULL));
  g_assert_cmpmem (a, na, b, nb);
  g_assert_cmpfloat (eval_at (out, "Wait_Random_H/Skl_Root/Rotate Y", "150"), <, -18);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/curves/set-key-tied", test_set_key_tied);
  g_test_add_func ("/cli/curves/set-key-no-slopes", test_set_key_no_slopes);
  g_test_add_func ("/cli/curves/set-key-frame", test_set_key_frame);
  g_test_add_func ("/cli/curves/insert-delete", test_insert_delete);
  g_test_add_func ("/cli/curves/unwrap", test_unwrap);
  g_test_add_func ("/cli/curves/unwrap-bfres-spin", test_unwrap_bfres_spin);
  return g_test_run ();
}
