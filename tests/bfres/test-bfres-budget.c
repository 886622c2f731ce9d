/* test-bfres-budget.c: corrupted files cost no more than the file allows
 *
 * Three Animal_Dog_Animation.bfres files with two or three u32 fields changed
 * (each once took tress-cli 1.3-3.4 s and 0.5-1.4 GB, 565 times the file,
 * printing 6,000-8,500 warnings) are answered by `tress-cli validate` within
 * four times the file's size in peak memory (the child's maximum resident
 * size, less that of the same command on a tiny file) and in less than ten
 * times the time of the clean file, with their problems summed up per kind.
 *
 * Archives of Yaz0 "bombs" (1 and 65,535 SARC entries sharing one stream:
 * a tiny one announcing 512 MiB, or a real one inflating to 512 MiB) are
 * refused within a second, naming the entry.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "bfres-test-common.h"
#include "core/tress-yaz0.h"
#include "tress-test-utils.h"

#define DOG "bfres/Animal_Dog_Animation.bfres"

typedef struct
{
  const char *name;
  struct
  {
    gsize offset;
    guint32 value;
  } writes[3];
} Corruption;

static const Corruption corruptions[] = {
  { "dog-1", { { 0x9D0, 0xFD96E183 }, { 0x2C4, 0x00000002 } } },
  { "dog-2", { { 0x3BC, 0x95AFBD5D }, { 0x2B4, 0x000000D8 } } },
  { "dog-3", { { 0xE24, 3 }, { 0x1A4, 2 }, { 0x26408, 0xFFFFFFFF } } },
};

typedef struct
{
  int status;
  gint64 usec; /* wall time */
  gsize peak;  /* maximum resident size, bytes */
  char *out;   /* stdout */
} Run;

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->out, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

/* Runs tress-cli @command FILE, measuring it as a child of its own. */
static void
run_cli (const char *command, const char *file, Run *run)
{
  const char *argv[] = { g_getenv ("TRESS_CLI"), command, file, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (GIOChannel) channel = NULL;
  struct rusage usage;
  gint64 start;
  GPid pid;
  int out_fd;
  gsize len = 0;

  g_assert_nonnull (argv[0]);
  start = g_get_monotonic_time ();
  g_spawn_async_with_pipes (NULL, (char **)argv, NULL,
                            G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                            &pid, NULL, &out_fd, NULL, &error);
  g_assert_no_error (error);
  channel = g_io_channel_unix_new (out_fd);
  g_io_channel_set_close_on_unref (channel, TRUE);
  g_io_channel_set_encoding (channel, NULL, NULL);
  g_io_channel_read_to_end (channel, &run->out, &len, &error);
  g_assert_no_error (error);
  g_assert_cmpint (wait4 (pid, &run->status, 0, &usage), ==, pid);
  run->usec = g_get_monotonic_time () - start;
  run->peak = (gsize)usage.ru_maxrss * 1024;
  g_spawn_close_pid (pid);
}

/* The fastest of @n runs (the time a busy machine adds is noise), with the
 * highest peak among them. */
static void
run_best (const char *command, const char *file, guint n, Run *best)
{
  for (guint i = 0; i < n; i++)
    {
      g_auto (Run) run = { 0 };

      run_cli (command, file, &run);
      if (i == 0 || run.usec < best->usec)
        {
          gsize peak = MAX (best->peak, run.peak);

          run_clear (best);
          *best = run;
          best->peak = peak;
          run.out = NULL;
        }
      else
        best->peak = MAX (best->peak, run.peak);
    }
}

static char *
write_corrupted (const Corruption *c, GBytes *dog)
{
  gsize size = g_bytes_get_size (dog);
  g_autofree guint8 *d = g_memdup2 (g_bytes_get_data (dog, NULL), size);
  g_autofree char *name = g_strdup_printf ("%s.bfres", c->name);
  char *path = g_build_filename (tress_test_tmpdir (), name, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (c->writes) && c->writes[i].offset != 0; i++)
    {
      gsize at = c->writes[i].offset;
      guint32 v = c->writes[i].value;

      g_assert_cmpuint (at + 4, <=, size);
      d[at] = v >> 24, d[at + 1] = v >> 16, d[at + 2] = v >> 8, d[at + 3] = v;
    }
  g_assert_true (g_file_set_contents (path, (const char *)d, (gssize)size, NULL));
  return path;
}

static gboolean
sanitized (void)
{
#if defined(__SANITIZE_ADDRESS__)
  return TRUE;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return TRUE;
#else
  return FALSE;
#endif
#else
  return FALSE;
#endif
}

static void
test_corrupted_dog (gconstpointer data)
{
  const Corruption *c = data;
  g_autofree char *clean = tress_test_sample_path (DOG);
  g_autofree char *tiny = NULL;
  g_autofree char *bad = NULL;
  g_autoptr (GBytes) dog = NULL;
  g_auto (Run) base = { 0 };
  g_auto (Run) ref = { 0 };
  g_auto (Run) run = { 0 };
  g_auto (GStrv) lines = NULL;
  g_autoptr (GHashTable) kinds = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gsize size, grown;
  guint n_lines, n_summaries = 0, n_warnings = 0, n_errors = 0;
  guint64 summed = 0, listed = 0;

  if (clean == NULL)
    return;
  dog = tress_test_load_sample (DOG);
  size = g_bytes_get_size (dog);
  bad = write_corrupted (c, dog);
  tiny = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");

  run_best ("validate", tiny, 3, &base);
  run_best ("validate", clean, 5, &ref);
  run_best ("validate", bad, 5, &run);
  g_assert_true (WIFEXITED (run.status) && WEXITSTATUS (run.status) <= 1);
  grown = run.peak > base.peak ? run.peak - base.peak : 0;
  g_test_message ("%s: %.1f ms, peak %.1f MB above a tiny file's (%.2fx the file); the clean file "
                  "%.1f ms, %.1f MB above",
                  c->name, run.usec / 1000.0, grown / 1e6, (double)grown / size, ref.usec / 1000.0,
                  (ref.peak > base.peak ? ref.peak - base.peak : 0) / 1e6);

  /* Time: under ten times the clean file's (both the fastest of five). */
  g_assert_cmpint (run.usec, <, 10 * ref.usec);

  /* Memory: within four times the file (sanitizers' shadow memory and
   * quarantine make resident sizes meaningless there). */
  if (!sanitized ())
    g_assert_cmpuint (grown, <=, 4 * size);
  else
    g_test_message ("built with AddressSanitizer: the memory bound is checked in plain builds");

  /* Problems summed up: a bounded number per kind, then one summary row
   * whose count, with those listed, makes the total. */
  lines = g_strsplit (run.out, "\n", -1);
  n_lines = g_strv_length (lines);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      const char *more = strstr (line, ": and ");
      guint e = 0, w = 0;

      if (more != NULL && g_str_has_suffix (line, "more of this kind"))
        {
          g_autofree char *digits = g_strdup (more + 6);
          char *o = digits;

          for (const char *p = more + 6; *p != ' '; p++)
            if (g_ascii_isdigit (*p))
              *o++ = *p;
          *o = '\0';
          summed += g_ascii_strtoull (digits, NULL, 10);
          n_summaries++;
        }
      else if (g_str_has_prefix (line, bad)
               && (sscanf (line + strlen (bad), ": %u errors, %u warning", &e, &w) == 2
                   || sscanf (line + strlen (bad), ": %u error, %u warning", &e, &w) == 2))
        {
          n_errors = e;
          n_warnings = w;
        }
      else if (line[0] != '\0')
        listed++;
    }
  g_test_message ("%s: %u lines, %u summary rows, %u errors and %u warnings", c->name, n_lines,
                  n_summaries, n_errors, n_warnings);
  g_assert_cmpuint (n_warnings + n_errors, >, 1000);
  g_assert_cmpuint (n_summaries, >=, 1);
  g_assert_cmpuint (n_lines, <, 200);
  /* Infos are listed too but not counted in the last line. */
  g_assert_cmpuint (listed + summed, >=, n_warnings + n_errors);
}

/* ---- Yaz0 bombs in an archive ---------------------------------------------- */

static void
put16 (guint8 *d, gsize at, guint16 v)
{
  d[at] = v >> 8, d[at + 1] = v;
}

static void
put32 (guint8 *d, gsize at, guint32 v)
{
  d[at] = v >> 24, d[at + 1] = v >> 16, d[at + 2] = v >> 8, d[at + 3] = v;
}

/* A Yaz0 stream starting "SARC" and announcing @announced bytes; with @real,
 * back-references that really make them (about 6 MB for 512 MiB), else a
 * few bytes only. */
static GBytes *
make_bomb_stream (guint32 announced, gboolean real)
{
  GByteArray *a = g_byte_array_new ();
  guint8 header[16] = { 'Y', 'a', 'z', '0' };
  static const guint8 first[] = { 0xF0, 'S',  'A',  'R',  'C',  0x00, 0x03, 0xFF, 0x00,
                                  0x03, 0xFF, 0x00, 0x03, 0xFF, 0x00, 0x03, 0xFF };
  guint64 made = 4 + 4 * 0x111;

  put32 (header, 4, announced);
  g_byte_array_append (a, header, 16);
  g_byte_array_append (a, first, sizeof first);
  /* Groups of eight back-references of 0x111 bytes, distance 4. */
  while (real && made < announced)
    {
      static const guint8 group[25]
          = { 0x00, 0x00, 0x03, 0xFF, 0x00, 0x03, 0xFF, 0x00, 0x03, 0xFF, 0x00, 0x03, 0xFF,
              0x00, 0x03, 0xFF, 0x00, 0x03, 0xFF, 0x00, 0x03, 0xFF, 0x00, 0x03, 0xFF };

      g_byte_array_append (a, group, sizeof group);
      made += 8 * 0x111;
    }
  return g_byte_array_free_to_bytes (a);
}

/* A big-endian SARC of @n entries named "bomb/NNNNN.sbfres", all of them the
 * one @stream. */
static GBytes *
make_bomb_archive (guint n, GBytes *stream)
{
  gsize names_at = 0x20 + 16 * (gsize)n, name_size = 20, data_at;
  gsize len = g_bytes_get_size (stream);
  GByteArray *a = g_byte_array_new ();
  guint8 *d;

  data_at = (names_at + 8 + name_size * n + 0xFF) & ~(gsize)0xFF;
  g_byte_array_set_size (a, data_at + len);
  d = a->data;
  memset (d, 0, data_at);
  memcpy (d, "SARC", 4);
  put16 (d, 4, 0x14);
  put16 (d, 6, 0xFEFF);
  put32 (d, 8, (guint32)(data_at + len));
  put32 (d, 0x0C, (guint32)data_at);
  put16 (d, 0x10, 0x0100);
  memcpy (d + 0x14, "SFAT", 4);
  put16 (d, 0x18, 0x0C);
  put16 (d, 0x1A, (guint16)n);
  put32 (d, 0x1C, 0x65);
  memcpy (d + names_at, "SFNT", 4);
  put16 (d, names_at + 4, 8);
  for (guint i = 0; i < n; i++)
    {
      gsize name = names_at + 8 + name_size * i;

      g_snprintf ((char *)d + name, name_size, "bomb/%05u.sbfres", i);
      put32 (d, 0x20 + 16 * (gsize)i, i);
      put32 (d, 0x20 + 16 * (gsize)i + 4, 0x01000000 | (guint32)((name_size * i) / 4));
      put32 (d, 0x20 + 16 * (gsize)i + 8, 0);
      put32 (d, 0x20 + 16 * (gsize)i + 12, (guint32)len);
    }
  memcpy (d + data_at, g_bytes_get_data (stream, NULL), len);
  return g_byte_array_free_to_bytes (a);
}

typedef struct
{
  guint n_entries;
  gboolean real;
} Bomb;

static const Bomb bombs[] = { { 1, FALSE }, { 65535, FALSE }, { 1, TRUE }, { 65535, TRUE } };

static void
test_bomb (gconstpointer data)
{
  const Bomb *bomb = data;
  g_autoptr (GBytes) stream = make_bomb_stream (512u * 1024 * 1024, bomb->real);
  g_autoptr (GBytes) archive = make_bomb_archive (bomb->n_entries, stream);
  const guint8 *d = g_bytes_get_data (archive, NULL);
  gsize size = g_bytes_get_size (archive);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressBfres) b = NULL;
  guint8 head[4];
  gint64 start;
  double ms;

  /* Looking at an entry inflates only its first bytes (a broken header none). */
  start = g_get_monotonic_time ();
  g_assert_cmpuint (
      tress_yaz0_peek (g_bytes_get_data (stream, NULL), g_bytes_get_size (stream), head, 4), ==,
      bomb->real ? 4 : 0);
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC / 10);

  /* The editor would try it: it looks like an archive with Yaz0 inside. */
  g_assert_true (tress_format_bfres.probe (d, size));
  start = g_get_monotonic_time ();
  b = tress_bfres_parse (archive, "bomb.szs", &error);
  ms = (g_get_monotonic_time () - start) / 1000.0;
  g_assert_null (b);
  g_assert_nonnull (error);
  g_test_message ("%u entries (%.1f MB): refused in %.1f ms: %s", bomb->n_entries, size / 1e6, ms,
                  error->message);
  g_assert_cmpfloat (ms, <, 1000);
  g_assert_nonnull (strstr (error->message, "bomb/00000.sbfres"));
  if (bomb->real)
    g_assert_nonnull (strstr (error->message, "268435456 bytes Tress decompresses"));
  else
    g_assert_nonnull (strstr (error->message, "cannot hold what it announces"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (corruptions); i++)
    {
      g_autofree char *path = g_strdup_printf ("/bfres/budget/%s", corruptions[i].name);

      g_test_add_data_func (path, &corruptions[i], test_corrupted_dog);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bombs); i++)
    {
      g_autofree char *path
          = g_strdup_printf ("/bfres/budget/bomb-%s-%u", bombs[i].real ? "inflating" : "announcing",
                             bombs[i].n_entries);

      g_test_add_data_func (path, &bombs[i], test_bomb);
    }
  return g_test_run ();
}
