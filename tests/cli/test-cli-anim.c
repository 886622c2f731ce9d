/* test-cli-anim.c: tress-cli retime, set-anim, duplicate-anim and delete-anim:
 * what they write reads back (validate, eval, info), what they refuse is not
 * written, and the exit codes are the other commands' (1 refused, 2 bad
 * usage or an unknown animation)
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

static int
run (const char *const *argv, char **out, char **err)
{
  return tress_test_run_cli (argv, out, err);
}

static void
assert_valid (const char *path)
{
  const char *argv[] = { "validate", path, NULL };
  g_autofree char *out = NULL;

  g_assert_cmpint (run (argv, &out, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "0 errors, 0 warnings"));
}

static double
eval_at (const char *file, const char *curve, const char *frame)
{
  g_autofree char *out = NULL;
  const char *argv[] = { "eval", file, curve, frame, NULL };

  g_assert_cmpint (run (argv, &out, NULL), ==, 0);
  return g_ascii_strtod (strchr (out, '\t') + 1, NULL);
}

static void
test_retime (void)
{
  g_autofree char *bass = tress_test_sample_path ("bfres/Animal_Bass_Animation.sbfres");
  g_autofree char *out = tmp ("jump2.sbfres"), *half = tmp ("jump-half.sbfres");
  g_autofree char *text = NULL, *err = NULL;

  if (bass == NULL)
    return;
  {
    const char *argv[] = { "retime", bass, "Jump", "--frames", "90", "-o", out, NULL };

    g_assert_cmpint (run (argv, &text, NULL), ==, 0);
    g_assert_nonnull (strstr (text, "Jump: 45 → 90 frames"));
    assert_valid (out);
    /* Jump/Skl_Root/Rotate X (curve 24) at 2f plays what it played at f. */
    for (double f = 0; f <= 45; f += 3.7)
      {
        g_autofree char *a = g_strdup_printf ("%g", f), *b = g_strdup_printf ("%g", 2 * f);

        g_assert_cmpfloat (eval_at (out, "24", b), ==, eval_at (bass, "24", a));
      }
    {
      g_autoptr (GBytes) bytes = tress_test_read_file (out);

      g_assert_cmpmem (g_bytes_get_data (bytes, NULL), 4, "Yaz0", 4);
    }
  }
  {
    const char *argv[] = { "retime", bass, "Jump", "--scale", "0.5", "-o", half, NULL };
    const char *widen[] = { "retime", bass, "Jump", "--scale", "0.5", "--widen", "-o", half, NULL };

    g_clear_pointer (&text, g_free);
    g_assert_cmpint (run (argv, NULL, &err), ==, 1);
    g_assert_nonnull (strstr (err, "--widen stores them in s10.5 frames (11 curves)"));
    g_assert_nonnull (strstr (err, "nothing written"));
    g_assert_false (g_file_test (half, G_FILE_TEST_EXISTS));
    g_assert_cmpint (run (widen, &text, NULL), ==, 0);
    g_assert_nonnull (strstr (text, "stored as 23 frames"));
    g_assert_nonnull (strstr (text, "The file grows by 620 bytes"));
    assert_valid (half);
    g_assert_cmpfloat (eval_at (half, "24", "11.25"), ==, eval_at (bass, "24", "22.5"));
  }
}

/* Bad arguments: exit 2, the reason, nothing written. */
static void
test_bad_usage (void)
{
  g_autofree char *bass = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *out = tmp ("bad.bfres");
  static const char *const scales[] = { "0", "-1", "nan", "inf", "x", "" };

  if (bass == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (scales); i++)
    {
      const char *argv[] = { "retime", bass, "Jump", "--scale", scales[i], "-o", out, NULL };
      g_autofree char *err = NULL;

      g_assert_cmpint (run (argv, NULL, &err), ==, 2);
      g_assert_nonnull (strstr (err, "is not a number greater than 0"));
    }
  {
    const char *const bad[][12] = {
      { "retime", bass, "Jump", "-o", out },
      { "retime", bass, "Jump", "--scale", "2", "--frames", "90", "-o", out },
      { "retime", bass, "Jump", "--frames", "1.5", "-o", out },
      { "set-anim", bass, "Jump", "-o", out },
      { "set-anim", bass, "Jump", "--trim", "-o", out },
      { "set-anim", bass, "Jump", "--loop", "maybe", "-o", out },
      { "set-anim", bass, "Jump", "--frames", "-3", "-o", out },
      { "duplicate-anim", bass, "Jump", "-o", out },
      { "delete-anim", bass, "Jump" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        g_autofree char *err = NULL;

        g_assert_cmpint (run (bad[i], NULL, &err), ==, 2);
        g_assert_true (err != NULL && err[0] != '\0');
      }
  }
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
}

/* An unknown animation: exit 2 and the animations listed, in every command;
 * a name that is taken: exit 1. */
static void
test_unknown_and_taken (void)
{
  g_autofree char *bass = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *rings = tress_test_sample_path ("niff/Rings.niff");
  g_autofree char *out = tmp ("unknown.bfres");

  if (bass == NULL || rings == NULL)
    return;
  {
    const char *const cmds[][8] = {
      { "retime", bass, "Jmup", "--scale", "2", "-o", out },
      { "set-anim", bass, "Jmup", "--loop", "on", "-o", out },
      { "duplicate-anim", bass, "Jmup", "X", "-o", out },
      { "delete-anim", bass, "Jmup", "-o", out },
    };

    for (guint i = 0; i < G_N_ELEMENTS (cmds); i++)
      {
        g_autofree char *err = NULL;

        g_assert_cmpint (run (cmds[i], NULL, &err), ==, 2);
        g_assert_nonnull (strstr (err, "no animation \"Jmup\"; the animations: 'Dead', 'Jump', "
                                       "'Move', 'Peck', 'Put_Down', 'Wait', 'Wait_Ground'"));
      }
  }
  {
    const char *argv[] = { "delete-anim", rings, "Ring", "-o", out, NULL };
    g_autofree char *err = NULL;

    g_assert_cmpint (run (argv, NULL, &err), ==, 2);
    g_assert_nonnull (strstr (err, "'Sweep15_3_Animation', 'Reflection_Animation'"));
  }
  {
    const char *dup[] = { "duplicate-anim", bass, "Jump", "Wait", "-o", out, NULL };
    const char *ren[] = { "set-anim", bass, "Jump", "--rename", "Peck", "-o", out, NULL };
    const char *niff[]
        = { "set-anim", rings, "#0", "--rename", "Reflection_Animation", "-o", out, NULL };
    g_autofree char *e1 = NULL, *e2 = NULL, *e3 = NULL;

    g_assert_cmpint (run (dup, NULL, &e1), ==, 1);
    g_assert_nonnull (strstr (e1, "Another Skeletal animation is named \"Wait\""));
    g_assert_cmpint (run (ren, NULL, &e2), ==, 1);
    g_assert_nonnull (strstr (e2, "\"Peck\""));
    g_assert_cmpint (run (niff, NULL, &e3), ==, 1);
    g_assert_nonnull (strstr (e3, "is named \"Reflection_Animation\" already"));
  }
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
}

static void
test_structure (void)
{
  g_autofree char *bass = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *a = tmp ("s-a.bfres"), *b = tmp ("s-b.bfres"), *c = tmp ("s-c.bfres");
  g_autofree char *info = NULL, *text = NULL;

  if (bass == NULL)
    return;
  {
    const char *dup[] = { "duplicate-anim", bass, "Jump", "Leap", "-o", a, NULL };
    const char *set[] = { "set-anim", a,          "Leap", "--frames", "30", "--trim", "--loop",
                          "off",      "--rename", "Hop",  "-o",       b,    NULL };
    const char *del[] = { "delete-anim", b, "Jump", "-o", c, NULL };
    const char *inf[] = { "info", c, NULL };

    g_assert_cmpint (run (dup, &text, NULL), ==, 0);
    g_assert_nonnull (strstr (text, "copied as \"Leap\""));
    assert_valid (a);
    g_clear_pointer (&text, g_free);
    g_assert_cmpint (run (set, &text, NULL), ==, 0);
    g_assert_nonnull (strstr (text, "94 keys past frame 30 cut in 11 curves"));
    g_assert_nonnull (strstr (text, "Leap: loop off"));
    assert_valid (b);
    g_assert_cmpint (run (del, NULL, NULL), ==, 0);
    assert_valid (c);
    g_assert_cmpint (run (inf, &info, NULL), ==, 0);
    g_assert_nonnull (strstr (info, "Skeletal animations: 7 (84 curves)"));
  }
  {
    /* Hop plays Jump's first 30 frames. */
    const char *curves[] = { "curves", c, NULL };
    g_autofree char *list = NULL;

    g_assert_cmpint (run (curves, &list, NULL), ==, 0);
    g_assert_nonnull (strstr (list, "Hop/Skl_Root/Rotate X"));
    g_assert_null (strstr (list, "Jump/"));
    g_assert_cmpfloat (fabs (eval_at (c, "Hop/Skl_Root/Rotate X", "12.5")
                             - eval_at (bass, "Jump/Skl_Root/Rotate X", "12.5")),
                       <, 1e-6);
  }
}

static void
test_niff (void)
{
  g_autofree char *rings = tress_test_sample_path ("niff/Rings.niff");
  g_autofree char *kiri = tress_test_sample_path ("niff/kirikobu.niff");
  g_autofree char *out = tmp ("r.niff"), *out2 = tmp ("k.niff");

  if (rings == NULL || kiri == NULL)
    return;
  {
    const char *argv[]
        = { "retime", rings, "Sweep15_3_Animation", "--scale", "2", "-o", out, NULL };
    const char *half[] = { "retime", rings, "#0", "--scale", "0.5", "--widen", "-o", out2, NULL };
    g_autofree char *err = NULL;

    g_assert_cmpint (run (argv, NULL, NULL), ==, 0);
    assert_valid (out);
    g_assert_cmpfloat (fabs (eval_at (out, "Sweep15_3_Animation/RotateZ/Z", "101")
                             - eval_at (rings, "Sweep15_3_Animation/RotateZ/Z", "50.5")),
                       <, 1e-6);
    g_assert_cmpint (run (half, NULL, &err), ==, 1);
    g_assert_nonnull (strstr (err, "NIFF stores whole frames only"));
    g_assert_false (g_file_test (out2, G_FILE_TEST_EXISTS));
  }
  {
    const char *del[] = { "delete-anim", kiri, "eff11_Animation", "-o", out2, NULL };
    const char *dup[] = { "duplicate-anim", kiri, "eff11_Animation", "eff_copy", "-o", out2, NULL };
    const char *del2[] = { "delete-anim", out2, "eff_copy", "-o", out2, NULL };
    g_autofree char *err = NULL;

    g_assert_cmpint (run (del, NULL, &err), ==, 1);
    g_assert_nonnull (strstr (err, "moves Effector \"eff11\""));
    g_assert_cmpint (run (dup, NULL, NULL), ==, 0);
    assert_valid (out2);
    g_assert_cmpint (run (del2, NULL, NULL), ==, 0);
    assert_valid (out2);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/anim/retime", test_retime);
  g_test_add_func ("/cli/anim/bad-usage", test_bad_usage);
  g_test_add_func ("/cli/anim/unknown-and-taken", test_unknown_and_taken);
  g_test_add_func ("/cli/anim/structure", test_structure);
  g_test_add_func ("/cli/anim/niff", test_niff);
  return g_test_run ();
}
