/* tress-test-utils.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-test-utils.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>
#include <stdlib.h>

char *
tress_test_sample_path (const char *rel)
{
  const char *dir = g_getenv ("TRESS_SAMPLES_DIR");
  g_autofree char *path = NULL;

  if (dir == NULL)
    {
      g_test_skip ("TRESS_SAMPLES_DIR is not set");
      return NULL;
    }
  path = g_build_filename (dir, rel, NULL);
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_autofree char *msg = g_strdup_printf ("sample %s is absent", path);
      g_test_skip (msg);
      return NULL;
    }
  return g_steal_pointer (&path);
}

GBytes *
tress_test_load_sample (const char *rel)
{
  g_autofree char *path = tress_test_sample_path (rel);

  if (path == NULL)
    return NULL;
  return tress_test_read_file (path);
}

GBytes *
tress_test_read_file (const char *path)
{
  g_autoptr (GError) error = NULL;
  char *contents = NULL;
  gsize len = 0;

  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (contents, len);
}

static char *tmpdir;

static void
remove_tree (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
      const char *name;

      g_chmod (path, 0700);
      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          remove_tree (child);
        }
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

static void
cleanup_tmpdir (void)
{
  if (tmpdir != NULL)
    remove_tree (tmpdir);
  g_clear_pointer (&tmpdir, g_free);
}

const char *
tress_test_tmpdir (void)
{
  if (tmpdir == NULL)
    {
      g_autoptr (GError) error = NULL;
      tmpdir = g_dir_make_tmp ("tress-test-XXXXXX", &error);
      g_assert_no_error (error);
      atexit (cleanup_tmpdir);
    }
  return tmpdir;
}

char *
tress_test_tmp_path (const char *dir, const char *name)
{
  g_autofree char *folder = g_build_filename (tress_test_tmpdir (), dir, NULL);

  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  return g_build_filename (folder, name, NULL);
}

char *
tress_test_write_tmp (const char *dir, const char *name, GBytes *bytes)
{
  char *path = tress_test_tmp_path (dir, name);

  g_assert_true (
      g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  return path;
}

int
tress_test_run_cli (const char *const *argv, char **out_stdout, char **out_stderr)
{
  const char *cli = g_getenv ("TRESS_CLI");
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *unused_out = NULL, *unused_err = NULL;
  int status = 0;

  /* Output nobody asked for is dropped, not mixed into the test's TAP stream. */
  if (out_stdout == NULL)
    out_stdout = &unused_out;
  if (out_stderr == NULL)
    out_stderr = &unused_err;
  g_assert_nonnull (cli);
  g_ptr_array_add (args, (gpointer)cli);
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (args, (gpointer)argv[i]);
  g_ptr_array_add (args, NULL);
  g_spawn_sync (NULL, (char **)args->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, out_stdout,
                out_stderr, &status, &error);
  g_assert_no_error (error);
  if (WIFEXITED (status))
    return WEXITSTATUS (status);
  return 128 + WTERMSIG (status);
}

void
tress_test_assert_bytes_equal (GBytes *a, GBytes *b)
{
  gsize la = 0, lb = 0;
  const guint8 *da = g_bytes_get_data (a, &la);
  const guint8 *db = g_bytes_get_data (b, &lb);
  gsize n = MIN (la, lb);

  for (gsize i = 0; i < n; i++)
    if (da[i] != db[i])
      g_error ("bytes differ at offset 0x%" G_GSIZE_MODIFIER
               "x: %02x vs %02x (sizes %" G_GSIZE_FORMAT " and %" G_GSIZE_FORMAT ")",
               i, da[i], db[i], la, lb);
  if (la != lb)
    g_error ("sizes differ: %" G_GSIZE_FORMAT " vs %" G_GSIZE_FORMAT, la, lb);
}

void
tress_test_spin (guint ms)
{
  gint64 end = g_get_monotonic_time () + (gint64)ms * 1000;

  while (g_get_monotonic_time () < end)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
}

GBytes *
tress_test_dump (const TressFormat *format, gpointer model)
{
  TressJsonWriter *w = tress_json_writer_new ();

  format->dump (model, w);
  return tress_json_writer_free_to_bytes (w);
}

GBytes *
tress_test_build (const TressFormat *format, GBytes *text, GPtrArray **problems)
{
  gsize len = 0;
  const char *data = g_bytes_get_data (text, &len);
  g_autoptr (TressJsonReader) r = tress_json_reader_new (data, len);
  TressJsonBuild out = { NULL, NULL, 0 };
  g_autoptr (GError) error = NULL;
  GBytes *bytes = NULL;

  if (format->build (r, &out))
    {
      bytes = format->serialize (out.model, &error);
      g_assert_no_error (error);
      format->free (out.model);
      g_clear_pointer (&out.original, g_bytes_unref);
    }
  if (problems != NULL)
    *problems = g_ptr_array_ref (tress_json_reader_get_problems (r));
  return bytes;
}

GBytes *
tress_test_assert_json_round_trip (const TressFormat *format, GBytes *file)
{
  g_autoptr (GError) error = NULL;
  gpointer model = format->parse (file, "test", &error);
  g_autoptr (GPtrArray) problems = NULL;
  g_autoptr (GBytes) rebuilt = NULL;
  GBytes *text;

  g_assert_no_error (error);
  text = tress_test_dump (format, model);
  format->free (model);
  rebuilt = tress_test_build (format, text, &problems);
  for (guint i = 0; i < problems->len; i++)
    {
      g_autofree char *s = tress_problem_to_string (g_ptr_array_index (problems, i));
      g_test_message ("%s", s);
    }
  g_assert_nonnull (rebuilt);
  tress_test_assert_bytes_equal (file, rebuilt);
  return text;
}

GBytes *
tress_test_rewrite_numbers (GBytes *text, TressTestRewrite how, guint *n_rewritten)
{
  gsize len = 0;
  const char *s = g_bytes_get_data (text, &len);
  const char *end = s + len;
  GString *out = g_string_sized_new (len + len / 4);
  guint n = 0;

  while (s < end)
    {
      const char *start = s;

      if (*s == '"')
        {
          /* a string, escapes and all */
          for (s++; s < end && *s != '"'; s++)
            if (*s == '\\')
              s++;
          s = MIN (s + 1, end);
          g_string_append_len (out, start, s - start);
        }
      else if (*s == '-' || g_ascii_isdigit (*s))
        {
          char token[128];
          double d;

          while (s < end && (g_ascii_isdigit (*s) || strchr ("+-.eE", *s) != NULL))
            s++;
          g_assert_cmpint (s - start, <, (int)sizeof token);
          memcpy (token, start, (gsize)(s - start));
          token[s - start] = '\0';
          d = g_ascii_strtod (token, NULL);
          if (how == TRESS_TEST_RESPELL)
            {
              char again[G_ASCII_DTOSTR_BUF_SIZE];

              g_ascii_formatd (again, sizeof again, "%.17e", d);
              g_assert_true (g_ascii_strtod (again, NULL) == d);
              g_string_append (out, again);
              n++;
            }
          else if (d == 0 && token[0] == '-')
            {
              g_string_append_c (out, '0');
              n++;
            }
          else
            g_string_append (out, token);
        }
      else
        g_string_append_c (out, *s++);
    }
  if (n_rewritten != NULL)
    *n_rewritten = n;
  return g_string_free_to_bytes (out);
}

gboolean
tress_test_has_problem (GPtrArray *problems, const char *path, const char *words)
{
  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (problems, i);

      if (p->severity == TRESS_SEVERITY_ERROR && g_strcmp0 (p->location, path) == 0
          && (words == NULL || strstr (p->message, words) != NULL))
        return TRUE;
    }
  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (problems, i);
      g_test_message ("problem at %s: %s", p->location, p->message);
    }
  return FALSE;
}

GBytes *
tress_test_make_sarc (const char *const *names, GBytes *const *files, guint n)
{
  GByteArray *a = g_byte_array_new ();
  g_autofree gsize *name_off = g_new (gsize, n);
  gsize names_at, data_at;
  static const guint8 zeros[0x100] = { 0 };

#define PUT16(pos, v) (a->data[pos] = (v) >> 8, a->data[(pos) + 1] = (v)&0xFF)
#define PUT32(pos, v)                                                                              \
  (a->data[pos] = (v) >> 24, a->data[(pos) + 1] = (v) >> 16, a->data[(pos) + 2] = (v) >> 8,        \
   a->data[(pos) + 3] = (v))
  g_byte_array_append (a, zeros, 0x20 + 16 * n + 8);
  memcpy (a->data, "SARC", 4);
  PUT16 (4, 0x14);
  PUT16 (6, 0xFEFF);
  PUT16 (0x10, 0x0100);
  memcpy (a->data + 0x14, "SFAT", 4);
  PUT16 (0x18, 0x0C);
  PUT16 (0x1A, n);
  PUT32 (0x1C, 0x65u);
  names_at = 0x20 + 16 * (gsize)n;
  memcpy (a->data + names_at, "SFNT", 4);
  PUT16 (names_at + 4, 8);
  for (guint i = 0; i < n; i++)
    {
      name_off[i] = a->len - (names_at + 8);
      g_byte_array_append (a, (const guint8 *)names[i], strlen (names[i]) + 1);
      g_byte_array_append (a, zeros, (4 - a->len % 4) % 4);
    }
  g_byte_array_append (a, zeros, (0x100 - a->len % 0x100) % 0x100);
  data_at = a->len;
  PUT32 (0x0C, (guint32)data_at);
  for (guint i = 0; i < n; i++)
    {
      gsize start;

      g_byte_array_append (a, zeros, (0x100 - a->len % 0x100) % 0x100);
      start = a->len - data_at;
      g_byte_array_append (a, g_bytes_get_data (files[i], NULL), g_bytes_get_size (files[i]));
      PUT32 (0x20 + 16 * i, 0x1000u + i);
      PUT32 (0x20 + 16 * i + 4, 0x01000000u | (guint32)(name_off[i] / 4));
      PUT32 (0x20 + 16 * i + 8, (guint32)start);
      PUT32 (0x20 + 16 * i + 12, (guint32)(a->len - data_at));
    }
  PUT32 (8, a->len);
#undef PUT16
#undef PUT32
  return g_byte_array_free_to_bytes (a);
}
