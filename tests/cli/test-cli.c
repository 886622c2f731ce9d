/* test-cli.c: tress-cli's behaviour common to every format
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tress-test-utils.h"

static void
test_cli_usage (void)
{
  g_autofree char *out = NULL, *err = NULL;
  const char *help[] = { "--help", NULL };
  const char *unknown[] = { "frobnicate", NULL };

  g_assert_cmpint (tress_test_run_cli (help, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "validate"));
  g_assert_nonnull (strstr (out, "set-key"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (tress_test_run_cli (unknown, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "unknown command 'frobnicate'"));
}

/* "generate-demo --help" lists the formats, each with its options; without a
 * format it says where to look. */
static void
test_cli_demo_help (void)
{
  static const char *const helps[] = { "--help", "-h" };
  const char *none[] = { "generate-demo", NULL };

  for (guint i = 0; i < G_N_ELEMENTS (helps); i++)
    {
      g_autofree char *out = NULL, *err = NULL;
      const char *help[] = { "generate-demo", helps[i], NULL };

      g_assert_cmpint (tress_test_run_cli (help, &out, &err), ==, 0);
      g_assert_cmpstr (err, ==, "");
      g_assert_nonnull (strstr (out, "generate-demo FORMAT"));
      g_assert_nonnull (strstr (out, "cha [--ribbons N]"));
      g_assert_nonnull (strstr (out,
                                "bfres [--bones N [--vertices N] [--animations N] [--frames N] "
                                "| --curves N [--keys MIN-MAX]] -o OUT"));
      g_assert_nonnull (strstr (out, "niff -o OUT"));
    }
  {
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint (tress_test_run_cli (none, &out, &err), ==, 2);
    g_assert_nonnull (strstr (err, "generate-demo --help"));
  }
}

static void
test_cli_unreadable (void)
{
  g_autofree char *path = g_build_filename (tress_test_tmpdir (), "junk.bin", NULL);
  g_autofree char *out_path = g_build_filename (tress_test_tmpdir (), "out.bin", NULL);
  g_autofree char *out = NULL, *err = NULL;
  const char *missing[] = { "validate", "/nonexistent/file.cha", NULL };
  const char *junk[] = { "validate", path, NULL };
  const char *resave[] = { "resave", path, "-o", out_path, NULL };

  g_assert_cmpint (tress_test_run_cli (missing, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "/nonexistent/file.cha"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_true (g_file_set_contents (path, "\x01\x02\x03\x04garbage", 11, NULL));
  g_assert_cmpint (tress_test_run_cli (junk, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "Unknown file format"));
  g_assert_nonnull (strstr (err, "01 02 03 04"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* A failed command leaves no output file. */
  g_assert_cmpint (tress_test_run_cli (resave, &out, &err), ==, 2);
  g_assert_false (g_file_test (out_path, G_FILE_TEST_EXISTS));
}

/* A key past the animation's end is refused with a hint, and --extend lengthens it. */
static void
test_cli_extend (void)
{
  g_autofree char *demo = g_build_filename (tress_test_tmpdir (), "demo.bfres", NULL);
  g_autofree char *out = g_build_filename (tress_test_tmpdir (), "longer.bfres", NULL);
  g_autofree char *text = NULL, *err = NULL;
  const char *gen[] = { "generate-demo", "bfres", "-o", demo, NULL };
  const char *refused[] = { "insert-key", demo, "0", "90", "-o", out, NULL };
  const char *extend[]
      = { "insert-key", demo, "0", "90", "--value", "0.25", "--extend", "-o", out, NULL };
  const char *eval[] = { "eval", out, "0", "90", NULL };
  const char *curves[] = { "curves", out, NULL };

  g_assert_cmpint (tress_test_run_cli (gen, NULL, NULL), ==, 0);
  g_assert_cmpint (tress_test_run_cli (refused, NULL, &err), ==, 1);
  g_assert_nonnull (strstr (err, "past the end of the animation"));
  g_assert_nonnull (strstr (err, "--extend"));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (tress_test_run_cli (extend, &text, NULL), ==, 0);
  /* The file grew: the user is told what else the game needs. */
  g_assert_nonnull (strstr (text, "resource size table (RSTB)"));
  g_clear_pointer (&text, g_free);
  g_assert_cmpint (tress_test_run_cli (eval, &text, NULL), ==, 0);
  /* s16 keys: the stored value is within a quantization step of 0.25. */
  g_assert_cmpfloat_with_epsilon (g_ascii_strtod (strchr (text, '\t') + 1, NULL), 0.25, 1e-3);
  g_clear_pointer (&text, g_free);
  g_assert_cmpint (tress_test_run_cli (curves, &text, NULL), ==, 0);
  g_assert_nonnull (strstr (text, "6 keys\t0..90"));
}

static guint
mode_of (const char *path)
{
  GStatBuf st;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  return st.st_mode & 07777;
}

/* -o writes as the editor saves: an existing file keeps its permissions, a
 * link keeps pointing at the file it names (which is the one written), the
 * file that was read keeps a `~` backup, and what is not a regular file is
 * refused. */
static void
test_cli_writes (void)
{
  g_autofree char *dir = g_build_filename (tress_test_tmpdir (), "writes", NULL);
  g_autofree char *demo = g_build_filename (dir, "demo.niff", NULL);
  g_autofree char *priv = g_build_filename (dir, "private.niff", NULL);
  g_autofree char *backup = g_strconcat (priv, "~", NULL);
  g_autofree char *link = g_build_filename (dir, "link.niff", NULL);
  g_autofree char *fifo = g_build_filename (dir, "pipe.niff", NULL);
  g_autofree char *err = NULL;
  g_autofree char *target = NULL;
  g_autofree char *before = NULL, *after = NULL;
  gsize before_len = 0, after_len = 0;
  const char *gen[] = { "generate-demo", "niff", "-o", demo, NULL };
  const char *gen_priv[] = { "generate-demo", "niff", "-o", priv, NULL };
  const char *over_input[] = { "insert-key", priv, "0", "3", "-o", priv, NULL };
  const char *to_link[] = { "resave", demo, "-o", link, NULL };
  const char *to_fifo[] = { "resave", demo, "-o", fifo, NULL };

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_cmpint (tress_test_run_cli (gen, NULL, NULL), ==, 0);
  g_assert_cmpint (tress_test_run_cli (gen_priv, NULL, NULL), ==, 0);
  g_assert_cmpint (g_chmod (priv, 0600), ==, 0);
  g_assert_true (g_file_get_contents (priv, &before, &before_len, NULL));

  g_assert_cmpint (tress_test_run_cli (over_input, NULL, NULL), ==, 0);
  g_assert_cmphex (mode_of (priv), ==, 0600);
  g_assert_true (g_file_get_contents (backup, &after, &after_len, NULL));
  g_assert_cmpmem (after, after_len, before, before_len);
  g_clear_pointer (&after, g_free);

  g_assert_cmpint (symlink ("private.niff", link), ==, 0);
  g_assert_cmpint (tress_test_run_cli (to_link, NULL, NULL), ==, 0);
  target = g_file_read_link (link, NULL);
  g_assert_cmpstr (target, ==, "private.niff");
  g_clear_pointer (&before, g_free);
  g_assert_true (g_file_get_contents (demo, &before, &before_len, NULL));
  g_assert_true (g_file_get_contents (priv, &after, &after_len, NULL));
  g_assert_cmpmem (after, after_len, before, before_len);

  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);
  g_assert_cmpint (tress_test_run_cli (to_fifo, NULL, &err), ==, 3); /* not written */
  g_assert_nonnull (strstr (err, "not a regular file"));
  g_clear_pointer (&err, g_free);
  /* Nor is a pipe read (it would wait for ever; /dev/zero would fill memory). */
  {
    const char *info[] = { "info", fifo, NULL };

    g_assert_cmpint (tress_test_run_cli (info, NULL, &err), ==, 2);
    g_assert_nonnull (strstr (err, "not a regular file"));
  }
  g_assert_true (g_file_test (fifo, G_FILE_TEST_EXISTS)
                 && !g_file_test (fifo, G_FILE_TEST_IS_REGULAR));
}

/* A write says what the edit adds to the file's problems: a BFRES that grew
 * needs its RSTB entry raised for Breath of the Wild. */
static void
test_cli_says_what_edit_adds (void)
{
  g_autofree char *demo = g_build_filename (tress_test_tmpdir (), "grow.bfres", NULL);
  g_autofree char *out = g_build_filename (tress_test_tmpdir (), "grown.bfres", NULL);
  g_autofree char *text = NULL;
  const char *gen[] = { "generate-demo", "bfres", "-o", demo, NULL };
  const char *widen[]
      = { "bfres-set-type", demo, "0", "--frame-type", "f32", "--key-type", "32", "-o", out, NULL };

  g_assert_cmpint (tress_test_run_cli (gen, NULL, NULL), ==, 0);
  g_assert_cmpint (tress_test_run_cli (widen, &text, NULL), ==, 0);
  g_assert_nonnull (strstr (text, "RSTB"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/usage", test_cli_usage);
  g_test_add_func ("/cli/demo-help", test_cli_demo_help);
  g_test_add_func ("/cli/unreadable", test_cli_unreadable);
  g_test_add_func ("/cli/extend", test_cli_extend);
  g_test_add_func ("/cli/writes", test_cli_writes);
  g_test_add_func ("/cli/says-what-edit-adds", test_cli_says_what_edit_adds);
  return g_test_run ();
}
