/* test-screenshot.c: `tress --screenshot=OUT.png` writes the window as a PNG
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gio/gio.h>
#include <string.h>
#include <sys/wait.h>

#include "tress-test-utils.h"

/* The content size of a new window (TRESS_WINDOW_DEFAULT_WIDTH/HEIGHT). */
#define EXPECTED_WIDTH 960
#define EXPECTED_HEIGHT 640

static int
run_tress (const char *const *args, char **out_stdout, char **out_stderr)
{
  const char *tress = g_getenv ("TRESS_APP");
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  int status = -1;

  g_assert_nonnull (tress);
  g_ptr_array_add (argv, (gpointer)tress);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer)args[i]);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (char **)argv->pdata, NULL,
                out_stdout != NULL ? G_SPAWN_DEFAULT : G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                out_stdout, out_stderr, &status, &error);
  g_assert_no_error (error);
  return g_spawn_check_wait_status (status, NULL)
             ? 0
             : (WIFEXITED (status) ? WEXITSTATUS (status) : 128);
}

static guint32
be32 (const guint8 *p)
{
  return ((guint32)p[0] << 24) | ((guint32)p[1] << 16) | ((guint32)p[2] << 8) | p[3];
}

/* Checks @path is a PNG of the expected size, and that not every pixel is the same. */
static void
assert_png (const char *path)
{
  static const guint8 signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' };
  g_autofree char *data = NULL;
  gsize len = 0;
  g_autoptr (GError) error = NULL;

  g_file_get_contents (path, &data, &len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (len, >, 33);
  g_assert_cmpmem (data, 8, signature, 8);
  g_assert_cmpmem (data + 12, 4, "IHDR", 4);
  g_assert_cmpuint (be32 ((const guint8 *)data + 16), ==, EXPECTED_WIDTH);
  g_assert_cmpuint (be32 ((const guint8 *)data + 20), ==, EXPECTED_HEIGHT);
  /* A blank 960×640 image compresses to a few kilobytes; the welcome page does not. */
  g_assert_cmpuint (len, >, 8000);
}

static void
test_welcome (void)
{
  g_autofree char *out = g_build_filename (tress_test_tmpdir (), "welcome.png", NULL);
  g_autofree char *arg = g_strconcat ("--screenshot=", out, NULL);
  const char *args[] = { arg, NULL };
  g_autofree char *err = NULL;

  g_assert_cmpint (run_tress (args, NULL, &err), ==, 0);
  g_assert_cmpstr (err, ==, "");
  assert_png (out);
}

/* A file that cannot be opened still gives a screenshot (the error is a dialog). */
static void
test_with_unreadable_file (void)
{
  g_autofree char *out = g_build_filename (tress_test_tmpdir (), "missing.png", NULL);
  g_autofree char *arg = g_strconcat ("--screenshot=", out, NULL);
  g_autofree char *missing = g_build_filename (tress_test_tmpdir (), "no-such-file.cha", NULL);
  const char *args[] = { arg, missing, NULL };

  g_assert_cmpint (run_tress (args, NULL, NULL), ==, 0);
  assert_png (out);
}

static void
test_unwritable_path (void)
{
  g_autofree char *out = g_build_filename (tress_test_tmpdir (), "no-such-dir", "x.png", NULL);
  g_autofree char *arg = g_strconcat ("--screenshot=", out, NULL);
  const char *args[] = { arg, NULL };
  g_autofree char *err = NULL;

  g_assert_cmpint (run_tress (args, NULL, &err), !=, 0);
  g_assert_nonnull (strstr (err, "x.png"));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
}

/* A screenshot of a file leaves the user's recent files alone. */
static void
test_file_not_recorded (void)
{
  g_autofree char *out = g_build_filename (tress_test_tmpdir (), "file.png", NULL);
  g_autofree char *arg = g_strconcat ("--screenshot=", out, NULL);
  g_autofree char *niff = g_build_filename (tress_test_tmpdir (), "shot-not-recent.niff", NULL);
  g_autofree char *xbel = g_build_filename (g_get_user_data_dir (), "recently-used.xbel", NULL);
  g_autofree char *recent = NULL;
  g_autofree char *uri = g_filename_to_uri (niff, NULL, NULL);
  const char *gen[] = { "generate-demo", "niff", "-o", niff, NULL };
  const char *args[] = { arg, niff, NULL };

  g_assert_cmpint (tress_test_run_cli (gen, NULL, NULL), ==, 0);
  g_assert_cmpint (run_tress (args, NULL, NULL), ==, 0);
  assert_png (out);
  if (g_file_get_contents (xbel, &recent, NULL, NULL))
    g_assert_null (strstr (recent, uri)); /* the temporary folder is new each run */
}

static void
test_version (void)
{
  const char *args[] = { "--version", NULL };
  g_autofree char *out = NULL;

  g_assert_cmpint (run_tress (args, &out, NULL), ==, 0);
  g_assert_true (g_str_has_prefix (out, "tress "));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/screenshot/welcome", test_welcome);
  g_test_add_func ("/app/screenshot/unreadable-file", test_with_unreadable_file);
  g_test_add_func ("/app/screenshot/unwritable-path", test_unwritable_path);
  g_test_add_func ("/app/screenshot/file-not-recorded", test_file_not_recorded);
  g_test_add_func ("/app/screenshot/version", test_version);
  return g_test_run ();
}
