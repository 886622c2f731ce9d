/* bench-diff.c: tress-cli diff, its time and its peak memory against the files' sizes
 *
 * Pairs of files as a user compares them (a process, files on disk, the
 * output thrown away): Animal_Dog_Animation.bfres (shared samples) with
 * itself, with a copy whose every curve has another scale, offset and delta
 * (every curve and every curve header differs), and with
 * Animal_Bass_Animation.bfres; a generated 100,000-ribbon .cha with itself
 * and with a whole-file retarget of it. Each pair runs plain, with --all and
 * with --json: the median wall time of a few runs and the largest peak
 * resident memory (wait4's ru_maxrss), next to the process baseline
 * (`tress-cli info` of a tiny file) and to `tress-cli info` of each file.
 * A peak above 4 × (size A + size B) + the baseline is reported as over the
 * budget, and the run fails.
 *
 *   meson test -C build --benchmark --suite cli -v diff   (an argument N: N ribbons)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "formats/bfres/tress-bfres.h"
#include "tress-test-utils.h"

#define RUNS 3
#define BUDGET_TIMES 4

typedef struct
{
  double wall; /* seconds */
  gsize peak;  /* bytes */
  int status;  /* exit status */
} Run;

/* Runs tress-cli with @argv (without the program), its output to /dev/null. */
static Run
run_once (const char *const *argv)
{
  const char *cli = g_getenv ("TRESS_CLI");
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  gint64 start = g_get_monotonic_time ();
  struct rusage usage;
  Run r = { 0 };
  int status = 0;
  pid_t pid;

  g_assert_nonnull (cli);
  g_ptr_array_add (args, (gpointer)cli);
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (args, (gpointer)argv[i]);
  g_ptr_array_add (args, NULL);
  fflush (stdout);
  pid = fork ();
  if (pid == 0)
    {
      int null = open ("/dev/null", O_WRONLY);

      dup2 (null, STDOUT_FILENO);
      dup2 (null, STDERR_FILENO);
      execv (cli, (char **)args->pdata);
      _exit (127);
    }
  g_assert_cmpint (pid, >, 0);
  while (wait4 (pid, &status, 0, &usage) < 0)
    g_assert_cmpint (errno, ==, EINTR);
  r.wall = (double)(g_get_monotonic_time () - start) / 1e6;
  r.peak = (gsize)usage.ru_maxrss * 1024;
  r.status = WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
  return r;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The median wall time and the largest peak of RUNS runs. */
static Run
measure (const char *const *argv)
{
  double wall[RUNS];
  Run m = { 0 };

  for (guint i = 0; i < RUNS; i++)
    {
      Run r = run_once (argv);

      wall[i] = r.wall;
      m.peak = MAX (m.peak, r.peak);
      m.status = r.status;
    }
  qsort (wall, RUNS, sizeof (double), cmp_double);
  m.wall = wall[RUNS / 2];
  return m;
}

static gsize
file_size (const char *path)
{
  GStatBuf st;

  return g_stat (path, &st) == 0 ? (gsize)st.st_size : 0;
}

static double
mb (gsize bytes)
{
  return (double)bytes / 1e6;
}

static gsize baseline;

/* `tress-cli info FILE`: the peak of opening the file alone. */
static gsize
info_peak (const char *path)
{
  const char *info[] = { "info", path, NULL };
  return measure (info).peak;
}

static gboolean
bench_pair (const char *label, const char *a, const char *b)
{
  static const char *const modes[] = { NULL, "--all", "--json" };
  gsize sa = file_size (a), sb = file_size (b);
  gsize budget = BUDGET_TIMES * (sa + sb) + baseline;
  gboolean ok = TRUE;

  printf ("%s: A %.2f MB, B %.2f MB; info A %.1f MB, info B %.1f MB; budget %.1f MB "
          "(%d × (A + B) + baseline)\n",
          label, mb (sa), mb (sb), mb (info_peak (a)), mb (info_peak (b)), mb (budget),
          BUDGET_TIMES);
  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      const char *argv[] = { "diff", modes[i] != NULL ? modes[i] : a, modes[i] != NULL ? a : b,
                             modes[i] != NULL ? b : NULL, NULL };
      Run r = measure (argv);
      gboolean within = r.peak <= budget;

      printf ("  diff %-7s exit %d  wall %7.3f s  peak %7.1f MB = %5.2f × (A + B)  %s\n",
              modes[i] != NULL ? modes[i] : "", r.status, r.wall, mb (r.peak),
              (double)r.peak / (double)MAX (sa + sb, 1), within ? "within budget" : "OVER BUDGET");
      ok &= within && r.status <= 1;
    }
  return ok;
}

/* A copy of @path whose every float curve stores another scale, offset and
 * delta: each curve's values and header differ, nothing else. NULL when
 * @path is inside a container. */
static char *
make_other_bfres (const char *path)
{
  g_autoptr (GBytes) bytes = tress_test_read_file (path);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressBfres) bfres = tress_bfres_parse (bytes, path, &error);
  gsize size = g_bytes_get_size (bytes);
  g_autofree guint8 *d = g_memdup2 (g_bytes_get_data (bytes, NULL), size);
  char *out = g_build_filename (tress_test_tmpdir (), "other.bfres", NULL);

  g_assert_no_error (error);
  if (strcmp (tress_bfres_get_container (bfres), "") != 0)
    return NULL;
  for (guint i = 0; i < tress_bfres_get_n_curves (bfres); i++)
    {
      TressBfresCurveInfo info;

      if (!tress_bfres_get_curve_info (bfres, i, &info)
          || (info.curve_type != TRESS_BFRES_CURVE_CUBIC
              && info.curve_type != TRESS_BFRES_CURVE_LINEAR
              && info.curve_type != TRESS_BFRES_CURVE_BAKED_FLOAT))
        continue;
      for (guint k = 0; k < 3; k++)
        {
          gsize at = info.header_pos + 0x10 + 4 * k;
          float v;
          guint32 u;

          if (k == 2 && tress_bfres_get_version (bfres) < 0x03040000)
            break; /* no delta before 3.4 */
          memcpy (&u, d + at, 4);
          u = GUINT32_FROM_BE (u);
          memcpy (&v, &u, 4);
          v = k == 0 ? v * 1.25f : v + 0.5f;
          memcpy (&u, &v, 4);
          u = GUINT32_TO_BE (u);
          memcpy (d + at, &u, 4);
        }
    }
  g_assert_true (g_file_set_contents (out, (const char *)d, (gssize)size, NULL));
  return out;
}

int
main (int argc, char **argv)
{
  g_autofree char *dog = NULL, *bass = NULL, *other = NULL;
  g_autofree char *tiny = g_build_filename (tress_test_tmpdir (), "tiny.cha", NULL);
  g_autofree char *cha = g_build_filename (tress_test_tmpdir (), "fur.cha", NULL);
  g_autofree char *retargeted = g_build_filename (tress_test_tmpdir (), "retargeted.cha", NULL);
  const char *ribbons = argc > 1 ? argv[1] : "100000";
  const char *gen_tiny[] = { "generate-demo", "cha", "--ribbons", "1", "-o", tiny, NULL };
  const char *gen[] = { "generate-demo", "cha", "--ribbons", ribbons, "-o", cha, NULL };
  const char *retarget[] = { "retarget", cha, "--from", "2", "--to", "4", "-o", retargeted, NULL };
  g_autofree char *label = g_strdup_printf ("%s-ribbon .cha", ribbons);
  g_autofree char *label_rt = NULL;
  gboolean ok = TRUE;

  g_test_init (&argc, &argv, NULL); /* for tress_test_sample_path's skip */
  g_unsetenv ("MALLOC_CHECK_");     /* measure the allocator users have */
  g_assert_cmpint (run_once (gen_tiny).status, ==, 0);
  baseline = info_peak (tiny);
  printf ("tress-cli diff: median wall time of %d runs, largest peak resident memory; process "
          "baseline (info of a tiny file) %.1f MB\n",
          RUNS, mb (baseline));

  dog = tress_test_sample_path ("bfres/Animal_Dog_Animation.bfres");
  bass = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  if (dog != NULL)
    {
      ok &= bench_pair ("Animal_Dog_Animation.bfres, itself", dog, dog);
      other = make_other_bfres (dog);
      if (other != NULL)
        ok &= bench_pair ("Animal_Dog_Animation.bfres, every curve rescaled", dog, other);
      if (bass != NULL)
        ok &= bench_pair ("Animal_Dog_Animation.bfres, Animal_Bass_Animation.bfres", dog, bass);
    }
  else
    printf ("Animal_Dog_Animation.bfres: not in the shared samples, skipped\n");

  g_assert_cmpint (run_once (gen).status, ==, 0);
  g_assert_cmpint (run_once (retarget).status, ==, 0);
  ok &= bench_pair (label, cha, cha);
  label_rt = g_strdup_printf ("%s, retargeted from body part 2 to 4", label);
  ok &= bench_pair (label_rt, cha, retargeted);
  g_unlink (tiny);
  g_unlink (cha);
  g_unlink (retargeted);
  if (other != NULL)
    g_unlink (other);
  return ok ? 0 : 1;
}
