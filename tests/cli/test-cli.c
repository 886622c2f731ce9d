/* test-cli.c: tress-cli's behaviour common to every format
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <string.h>

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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/usage", test_cli_usage);
  g_test_add_func ("/cli/unreadable", test_cli_unreadable);
  return g_test_run ();
}
