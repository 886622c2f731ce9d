/* test-mime.c: the shared-mime-info rules of data/io.github.tress.Tress.mime.xml
 *
 * Installs the rules into a private MIME database (update-mime-database), then
 * asks GIO what it makes of real sample files and of hand-made headers, by
 * content alone and by name alone.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gio/gio.h>
#include <string.h>

#include "tress-test-utils.h"

static char *
guess (const char *filename, const guint8 *data, gsize size)
{
  gboolean uncertain = FALSE;
  g_autofree char *type = g_content_type_guess (filename, data, size, &uncertain);

  return g_content_type_get_mime_type (type);
}

static void
assert_magic (const guint8 *data, gsize size, const char *expected)
{
  g_autofree char *mime = guess (NULL, data, size);

  g_assert_cmpstr (mime, ==, expected);
}

static void
test_cha_magic (void)
{
  static const char *spellings[] = { "LiOnHeAdCreature", "LionheadCreature", "lionheadcreature",
                                     "LIONHEADCREATURE", "lIoNhEaDcReAtUrE" };

  for (guint i = 0; i < G_N_ELEMENTS (spellings); i++)
    {
      guint8 header[0x40] = { 0 };

      memcpy (header, spellings[i], 16);
      header[0x28] = 4;
      header[0x2C] = 0x4B; /* 9035 */
      header[0x2D] = 0x23;
      g_test_message ("%s", spellings[i]);
      assert_magic (header, sizeof header, "application/x-lionhead-creature");
    }
}

static void
test_sample_magic (void)
{
  static const struct
  {
    const char *sample;
    const char *mime;
  } samples[] = {
    { "bfres/Animal_Bass_Animation.bfres", "application/x-bfres" },
    { "bfres/Animal_Bass.bfres", "application/x-bfres" },
    { "bfres/Animal_Bass_Animation.sbfres", "application/x-yaz0" },
    { "niff/Rings.niff", "application/x-niff" },
    { "niff/kirikobu.niff", "application/x-niff" },
    { "niff/3hedra.niff", "application/x-niff" },
    { "niff/dragon.nif", "application/x-niff" },
    { "niff/yellow-cube.niff", "application/x-niff" },
    { "niff/blend2niff-cube.nif", "application/x-niff" },
    { "niff/synthetic-all-channels.nif", "application/x-niff" },
    { "niff/synthetic-niff1.nif", "application/x-niff" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autoptr (GBytes) bytes = tress_test_load_sample (samples[i].sample);
      gsize size = 0;
      const guint8 *data;

      if (bytes == NULL)
        return;
      data = g_bytes_get_data (bytes, &size);
      g_test_message ("%s", samples[i].sample);
      /* GIO sniffs the first 4 KiB. */
      assert_magic (data, MIN (size, 4096), samples[i].mime);
    }
}

static void
test_niff_needs_header (void)
{
  /* A NIFF2 version word with a wrong header size is not NIFF. */
  static const guint8 wrong[16]
      = { 0x02, 0x01, 0x02, 0x00, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0x40 };
  g_autofree char *mime = guess (NULL, wrong, sizeof wrong);

  g_assert_cmpstr (mime, !=, "application/x-niff");
}

static void
test_globs (void)
{
  static const struct
  {
    const char *name;
    const char *mime;
  } names[] = {
    { "fur.cha", "application/x-lionhead-creature" },
    { "anim.bfres", "application/x-bfres" },
    { "anim.sbfres", "application/x-yaz0" },
    { "course.szs", "application/x-yaz0" },
    { "ring.niff", "application/x-niff" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *mime = guess (names[i].name, NULL, 0);
      g_assert_cmpstr (mime, ==, names[i].mime);
    }
}

int
main (int argc, char *argv[])
{
  const char *xml = g_getenv ("TRESS_MIME_XML");
  const char *updater = g_getenv ("UPDATE_MIME_DATABASE");
  g_autofree char *data_home = NULL;
  g_autofree char *packages = NULL;
  g_autofree char *mime_dir = NULL;
  g_autofree char *target = NULL;
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  int status = 0;

  g_test_init (&argc, &argv, NULL);
  g_assert_nonnull (xml);
  g_assert_nonnull (updater);

  /* Before GIO reads any MIME data: our rules on top of the system's. */
  data_home = g_build_filename (tress_test_tmpdir (), "data", NULL);
  mime_dir = g_build_filename (data_home, "mime", NULL);
  packages = g_build_filename (mime_dir, "packages", NULL);
  target = g_build_filename (packages, "io.github.tress.Tress.xml", NULL);
  g_assert_cmpint (g_mkdir_with_parents (packages, 0700), ==, 0);
  g_file_get_contents (xml, &contents, NULL, &error);
  g_assert_no_error (error);
  g_file_set_contents (target, contents, -1, &error);
  g_assert_no_error (error);
  {
    const char *cmd[] = { updater, mime_dir, NULL };
    g_autofree char *err = NULL;

    g_spawn_sync (NULL, (char **)cmd, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err,
                  &status, &error);
    g_assert_no_error (error);
    if (!g_spawn_check_wait_status (status, &error))
      g_error ("update-mime-database failed: %s\n%s", error->message, err);
  }
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("XDG_DATA_DIRS", "/usr/local/share:/usr/share", TRUE);

  g_test_add_func ("/app/mime/cha-magic", test_cha_magic);
  g_test_add_func ("/app/mime/sample-magic", test_sample_magic);
  g_test_add_func ("/app/mime/niff-needs-header", test_niff_needs_header);
  g_test_add_func ("/app/mime/globs", test_globs);
  return g_test_run ();
}
