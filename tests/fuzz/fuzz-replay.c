/* fuzz-replay.c: runs a fuzz target over files and folders given on the command
 * line (each file once, whole), so every `meson test` exercises the targets on
 * their seed corpus and on past crashers without libFuzzer.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static guint n_run;

static void
run_path (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          run_path (child);
        }
      return;
    }
  else
    {
      g_autofree char *contents = NULL;
      gsize len = 0;

      if (!g_file_get_contents (path, &contents, &len, NULL))
        return;
      LLVMFuzzerTestOneInput ((const uint8_t *)contents, len);
      n_run++;
    }
}

int
main (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    run_path (argv[i]);
  /* Plain closing line: every input ran without a crash. */
  g_print ("%u passed, 0 failed\n", n_run);
  return n_run > 0 ? 0 : 1;
}
