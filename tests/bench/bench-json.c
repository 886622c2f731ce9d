/* bench-json.c: tress-cli dump and build, against a plain file copy in the same run
 *
 * For Animal_Dog_Animation.bfres (shared samples) and a generated
 * 100,000-ribbon .cha: `tress-cli dump FILE -o JSON` and `tress-cli build JSON
 * -o OUT` run as a user runs them (a process, files on disk), and `cp` of the
 * file and of its JSON as the baseline, each the median and the best of a few
 * runs, in wall time and in CPU time (user + system of the process: what other
 * load on the machine disturbs least). The rebuilt file is checked to be the
 * original byte for byte.
 *
 * Then the peak memory (the child's maximum resident size) of a build whose
 * JSON holds a 200 MB base64 section (a creature's "hybrid" section), against
 * the size of the JSON: at most 4× (the text, the decoded bytes, the file
 * written and the file read back to check it), and of the refusal of a 200 MB
 * morph name, whose messages fit in 1 KB.
 *
 *   meson test -C build --benchmark --suite cli -v     (an argument N: N ribbons)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "tress-test-utils.h"

#define RUNS 3

typedef struct
{
  double wall, cpu;
} Time;

static double
children_cpu (void)
{
  struct rusage u;

  getrusage (RUSAGE_CHILDREN, &u);
  return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec / 1e6 + (double)u.ru_stime.tv_sec
         + (double)u.ru_stime.tv_usec / 1e6;
}

/* Runs @argv (a program on PATH when @cli is FALSE, else tress-cli) once. */
static Time
run_once (gboolean cli, const char *const *argv)
{
  double cpu = children_cpu ();
  gint64 start = g_get_monotonic_time ();
  Time t;
  int status;

  if (cli)
    status = tress_test_run_cli (argv, NULL, NULL);
  else
    {
      g_autoptr (GError) error = NULL;
      int wait_status = 0;

      if (!g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                         &wait_status, &error))
        {
          fprintf (stderr, "bench-json: %s\n", error->message);
          exit (1);
        }
      status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : 1;
    }
  t.wall = (double)(g_get_monotonic_time () - start) / 1e6;
  t.cpu = children_cpu () - cpu;
  if (status != 0)
    {
      fprintf (stderr, "bench-json: %s %s failed (%d)\n", cli ? "tress-cli" : "", argv[0], status);
      exit (1);
    }
  return t;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Median and best of RUNS runs, wall and CPU. */
typedef struct
{
  double wall_median, wall_best, cpu_median, cpu_best;
} Figures;

static Figures
measure (gboolean cli, const char *const *argv)
{
  double wall[RUNS], cpu[RUNS];
  Figures f;

  for (guint i = 0; i < RUNS; i++)
    {
      Time t = run_once (cli, argv);
      wall[i] = t.wall;
      cpu[i] = t.cpu;
    }
  qsort (wall, RUNS, sizeof (double), cmp_double);
  qsort (cpu, RUNS, sizeof (double), cmp_double);
  f.wall_median = wall[RUNS / 2];
  f.wall_best = wall[0];
  f.cpu_median = cpu[RUNS / 2];
  f.cpu_best = cpu[0];
  return f;
}

static gsize
file_size (const char *path)
{
  GStatBuf st;

  return g_stat (path, &st) == 0 ? (gsize)st.st_size : 0;
}

/* Runs tress-cli @argv once as a child of its own: its exit status, its
 * maximum resident size in bytes and the size of what it wrote on stderr. */
static int
run_peak (const char *const *argv, gsize *peak, gsize *err_size)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GIOChannel) channel = NULL;
  g_autofree char *err = NULL;
  struct rusage usage;
  int status = 0, err_fd;
  GPid pid;

  g_ptr_array_add (args, (gpointer)g_getenv ("TRESS_CLI"));
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (args, (gpointer)argv[i]);
  g_ptr_array_add (args, NULL);
  if (!g_spawn_async_with_pipes (NULL, (char **)args->pdata, NULL,
                                 G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                                 &pid, NULL, NULL, &err_fd, &error))
    {
      fprintf (stderr, "bench-json: %s\n", error->message);
      exit (1);
    }
  channel = g_io_channel_unix_new (err_fd);
  g_io_channel_set_close_on_unref (channel, TRUE);
  g_io_channel_set_encoding (channel, NULL, NULL);
  g_io_channel_read_to_end (channel, &err, err_size, NULL);
  if (wait4 (pid, &status, 0, &usage) != pid)
    exit (1);
  g_spawn_close_pid (pid);
  *peak = (gsize)usage.ru_maxrss * 1024;
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128;
}

/* Writes to @path the dump @text with the string after the first @key that
 * follows @anchor replaced by @n bytes: their base64 (@base64), or as many
 * 'A's. */
static void
write_spliced (const char *path, const char *text, const char *anchor, const char *key, gsize n,
               gboolean base64)
{
  const char *at = strstr (strstr (text, anchor), key) + strlen (key);
  const char *end = strchr (at, '"');
  FILE *f = fopen (path, "wb");
  g_autofree guint8 *chunk = g_malloc (3 << 20);
  g_autofree char *out = g_malloc (5 << 20);
  guint32 seed = 1;
  gint state = 0, save = 0;

  g_assert_nonnull (f);
  fwrite (text, 1, (gsize)(at - text), f);
  for (gsize done = 0; done < n;)
    {
      gsize k = MIN ((gsize)3 << 20, n - done);

      if (base64)
        {
          /* bytes that do not compress, from a small generator */
          for (gsize i = 0; i < k; i++)
            chunk[i] = (guint8)((seed = seed * 1664525u + 1013904223u) >> 24);
          fwrite (out, 1, g_base64_encode_step (chunk, k, FALSE, out, &state, &save), f);
        }
      else
        {
          memset (out, 'A', k);
          fwrite (out, 1, k, f);
        }
      done += k;
    }
  if (base64)
    fwrite (out, 1, g_base64_encode_close (FALSE, out, &state, &save), f);
  fputs (end, f);
  g_assert_cmpint (fclose (f), ==, 0);
}

/* Peak memory of build against the size of its JSON. */
static gboolean
bench_memory (void)
{
  const gsize size = 200u << 20;
  g_autofree char *cha = g_build_filename (tress_test_tmpdir (), "small.cha", NULL);
  g_autofree char *json = g_build_filename (tress_test_tmpdir (), "small.json", NULL);
  g_autofree char *big = g_build_filename (tress_test_tmpdir (), "big.json", NULL);
  g_autofree char *out = g_build_filename (tress_test_tmpdir (), "big.cha", NULL);
  g_autofree char *text = NULL;
  const char *gen[] = { "generate-demo", "cha", "--ribbons", "20", "-o", cha, NULL };
  const char *dump[] = { "dump", cha, "-o", json, NULL };
  const char *build[] = { "build", big, "-o", out, NULL };
  gsize peak = 0, err = 0;
  double ratio;
  gboolean ok = TRUE;
  int status;

  run_once (TRUE, gen);
  run_once (TRUE, dump);
  g_assert_true (g_file_get_contents (json, &text, NULL, NULL));

  write_spliced (big, text, "\"hybrid\"", "\"base64\": \"", size, TRUE);
  status = run_peak (build, &peak, &err);
  ratio = (double)peak / (double)file_size (big);
  printf ("build of a %.0f MB base64 section: JSON %.0f MB, peak %.0f MB (%.2f× the JSON, "
          "at most 4×)%s\n",
          (double)size / 1e6, (double)file_size (big) / 1e6, (double)peak / 1e6, ratio,
          status == 0 && file_size (out) > size ? "" : ", BUILD FAILED");
  ok &= status == 0 && file_size (out) > size && ratio <= 4;
  g_unlink (out);

  write_spliced (big, text, "\"morphs\"", "[\"", size, FALSE);
  status = run_peak (build, &peak, &err);
  printf ("refusal of a %.0f MB morph name: peak %.0f MB (%.2f× the JSON), %" G_GSIZE_FORMAT
          " bytes of messages (at most 1,024)%s\n",
          (double)size / 1e6, (double)peak / 1e6, (double)peak / (double)file_size (big), err,
          status == 1 ? "" : ", NOT REFUSED");
  ok &= status == 1 && err < 1024;
  g_unlink (big);
  return ok;
}

static void
print_row (const char *what, Figures f, Figures base)
{
  printf ("  %-14s wall %7.3f s (best %7.3f, %6.1f× the copy)   CPU %7.3f s (best %7.3f)\n", what,
          f.wall_median, f.wall_best, f.wall_median / MAX (base.wall_median, 1e-6), f.cpu_median,
          f.cpu_best);
}

static gboolean
bench_file (const char *label, const char *path)
{
  g_autofree char *json = g_build_filename (tress_test_tmpdir (), "bench.json", NULL);
  g_autofree char *ext = g_strdup (strrchr (path, '.'));
  g_autofree char *copy = g_build_filename (tress_test_tmpdir (), "copy.bin", NULL);
  g_autofree char *json_copy = g_build_filename (tress_test_tmpdir (), "copy.json", NULL);
  g_autofree char *out = g_strconcat (tress_test_tmpdir (), "/rebuilt", ext, NULL);
  const char *cp_file[] = { "cp", path, copy, NULL };
  const char *cp_json[] = { "cp", json, json_copy, NULL };
  const char *dump[] = { "dump", path, "-o", json, NULL };
  const char *build[] = { "build", json, "-o", out, NULL };
  Figures f_cp, f_cpj, f_dump, f_build;
  g_autofree char *a = NULL, *b = NULL;
  gsize la = 0, lb = 0;
  gboolean same;

  f_cp = measure (FALSE, cp_file);
  f_dump = measure (TRUE, dump);
  f_cpj = measure (FALSE, cp_json);
  f_build = measure (TRUE, build);
  same = g_file_get_contents (path, &a, &la, NULL) && g_file_get_contents (out, &b, &lb, NULL)
         && la == lb && memcmp (a, b, la) == 0;

  printf ("%s: %.1f MB, JSON %.1f MB (%.1f× the file)%s\n", label, (double)file_size (path) / 1e6,
          (double)file_size (json) / 1e6, (double)file_size (json) / MAX (file_size (path), 1),
          same ? ", rebuilt byte for byte" : ", REBUILT FILE DIFFERS");
  print_row ("cp FILE", f_cp, f_cp);
  print_row ("cp JSON", f_cpj, f_cp);
  print_row ("dump", f_dump, f_cp);
  print_row ("build", f_build, f_cp);
  g_unlink (json);
  g_unlink (json_copy);
  g_unlink (copy);
  g_unlink (out);
  return same;
}

int
main (int argc, char **argv)
{
  g_autofree char *dog = NULL;
  g_autofree char *cha = g_build_filename (tress_test_tmpdir (), "stress.cha", NULL);
  const char *ribbons = argc > 1 ? argv[1] : "100000";
  const char *gen[] = { "generate-demo", "cha", "--ribbons", ribbons, "-o", cha, NULL };
  g_autofree char *label = g_strdup_printf ("%s-ribbon .cha", ribbons);
  gboolean ok = TRUE;

  g_test_init (&argc, &argv, NULL); /* for tress_test_sample_path's skip */
  printf ("tress-cli dump and build (median of %d runs; ratios are against cp of the file)\n",
          RUNS);
  dog = tress_test_sample_path ("bfres/Animal_Dog_Animation.bfres");
  if (dog != NULL)
    ok &= bench_file ("Animal_Dog_Animation.bfres", dog);
  else
    printf ("Animal_Dog_Animation.bfres: not in the shared samples, skipped\n");
  run_once (TRUE, gen);
  ok &= bench_file (label, cha);
  g_unlink (cha);
  ok &= bench_memory ();
  return ok ? 0 : 1;
}
