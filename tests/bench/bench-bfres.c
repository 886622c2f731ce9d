/* bench-bfres.c: opening, saving and Yaz0 on any BFRES files
 *
 * For each file: open, three ways: the parse (unwrap Yaz0/SARC, read and
 * label every curve; each curve's keys are decoded when first used), the
 * editor's open to its first screen (the document, its curves tree and the
 * rows and curves the first screen shows), and the parse with every curve
 * decoded; then save after an edit (serialize), save with the re-parse a save does
 * to check its bytes, and, on the BFRES bytes, Yaz0 decompression and
 * compression (today's compressor and the one before it, tests/bench/
 * bench-yaz0-before.c, with their output sizes). Every time is the median
 * (and the best) of several runs, printed as a ratio to a memcpy of the same
 * bytes measured in the same run, in processor time of the thread. Nothing is asserted about a
 * file's shape: a file with no curves is opened and saved unchanged, one that does not open says
 * why, and the others go on.
 *
 *   meson test -C build --benchmark --suite bfres -v
 *   build/tests/bfres/bench-bfres FILE…
 *   TRESS_BENCH_FILES=a.bfres:b.szs meson test -C build --benchmark --suite bfres -v
 *
 * Without files: the BFRES samples in $TRESS_SAMPLES_DIR/bfres.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench-first-screen.h"
#include "bench-timing.h"
#include "bench-yaz0-before.h"
#include "core/tress-yaz0.h"
#include "document/tress-document.h"
#include "formats/bfres/tress-bfres.h"
#include "tress-test-utils.h"

/* Runs per measure: enough for a stable median on a file of a few MB. */
#define MIN_RUNS 5
#define MAX_RUNS 41
/* What the runs of one measure may take together. */
#define BUDGET_S 0.6

typedef struct
{
  double median, best;
} Timing;

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static Timing
timing_of (double *v, int n)
{
  qsort (v, n, sizeof *v, cmp_double);
  return (Timing){ v[n / 2], v[0] };
}

/* Processor time of this thread: the machine may be shared, and wall time
 * would charge other processes' work to whichever step happens to run (the
 * memcpy baseline is measured the same way). */
static double
now (void)
{
  return bench_thread_seconds ();
}

/* How many runs fit the budget, given the first run's time. */
static int
runs_for (double first)
{
  int n = first > 0 ? (int)(BUDGET_S / first) : MAX_RUNS;
  return CLAMP (n, MIN_RUNS, MAX_RUNS);
}

/* Bytes in use on the heap (small blocks and mmapped ones). */
static gsize
heap_in_use (void)
{
  struct mallinfo2 mi = mallinfo2 ();
  return mi.uordblks + mi.hblkhd;
}

/* A memcpy of @size bytes: each run copies often enough to take 20 µs or more,
 * and counts the time of one copy. */
static Timing
time_memcpy (const guint8 *data, gsize size)
{
  g_autofree guint8 *copy = g_malloc (size > 0 ? size : 1);
  double t[MAX_RUNS];
  int reps = 1;

  memcpy (copy, data, size); /* the pages, touched once */
  for (double t0 = now (); now () - t0 < 20e-6 && reps < (1 << 20); reps *= 2)
    {
      t0 = now ();
      for (int k = 0; k < reps; k++)
        memcpy (copy, data, size);
    }
  for (int r = 0; r < MAX_RUNS; r++)
    {
      double t0 = now ();
      for (int k = 0; k < reps; k++)
        {
          memcpy (copy, data, size);
          __asm__ volatile("" : : "r"(copy) : "memory");
        }
      t[r] = (now () - t0) / reps;
    }
  return timing_of (t, MAX_RUNS);
}

/* Not inlined, so that a profiler can count exactly this:
 *   valgrind --tool=callgrind "--toggle-collect=open_and_decode*" build/tests/bfres/bench-bfres F
 */
static G_GNUC_NO_INLINE TressBfres *
open_and_decode (GBytes *bytes, GError **error)
{
  TressBfres *b = tress_bfres_parse (bytes, "bench", error);

  if (b == NULL)
    return NULL;
  for (guint i = 0, n = tress_bfres_get_n_curves (b); i < n; i++)
    tress_curve_unref (tress_format_bfres.curves->get_curve (b, i));
  return b;
}

/* The editor's open: the document, its tree, the first screen. */
static G_GNUC_NO_INLINE TressDocument *
open_to_first_screen (GBytes *bytes)
{
  TressDocument *doc = tress_document_new_from_bytes (bytes, "bench", NULL);

  if (doc == NULL || !TRESS_IS_CURVE_DOCUMENT (doc))
    g_error ("the file opened before does not open as a document");
  bench_first_screen (TRESS_CURVE_DOCUMENT (doc));
  return doc;
}

/* The first curve with a key, edited; -1 when the file has none. */
static int
edit_one (TressBfres *b)
{
  for (guint i = 0, n = tress_bfres_get_n_curves (b); i < n; i++)
    {
      g_autoptr (TressCurve) c = tress_format_bfres.curves->get_curve (b, i);
      if (tress_curve_get_n_keys (c) == 0)
        continue;
      tress_curve_get_key (c, 0)->value += 1;
      if (tress_format_bfres.curves->set_curve (b, i, c, NULL, NULL))
        return (int)i;
    }
  return -1;
}

static void
print_timing (const char *what, Timing t, Timing base, gsize bytes)
{
  printf ("  %-28s %9.4f ms (best %.4f) %8.1f MB/s %8.1f x memcpy\n", what, t.median * 1e3,
          t.best * 1e3, bytes / t.median / 1e6, t.median / base.median);
}

static void
bench_yaz0 (GBytes *raw, const guint8 *reserved, GBytes *stored, Timing raw_copy)
{
  const guint8 *data = g_bytes_get_data (raw, NULL);
  gsize size = g_bytes_get_size (raw), z_now = 0, z_before = 0;
  double t_now[MAX_RUNS], t_before[MAX_RUNS], t_dec[MAX_RUNS];
  g_autoptr (GBytes) z = NULL;
  int runs;
  double t0 = now ();

  z = tress_yaz0_compress (data, size, reserved);
  runs = runs_for (3 * (now () - t0));
  for (int r = 0; r < runs; r++)
    {
      g_autoptr (GBytes) a = NULL, b = NULL, d = NULL;

      t0 = now ();
      a = tress_yaz0_compress (data, size, reserved);
      t_now[r] = now () - t0;
      t0 = now ();
      b = bench_yaz0_compress_before (data, size, reserved);
      t_before[r] = now () - t0;
      t0 = now ();
      d = tress_yaz0_decompress (g_bytes_get_data (a, NULL), g_bytes_get_size (a), 0, NULL);
      t_dec[r] = now () - t0;
      if (d == NULL || !g_bytes_equal (d, raw))
        g_error ("Yaz0 does not give the bytes back");
      z_now = g_bytes_get_size (a);
      z_before = g_bytes_get_size (b);
    }
  {
    Timing dec = timing_of (t_dec, runs), cn = timing_of (t_now, runs),
           cb = timing_of (t_before, runs);
    print_timing ("yaz0 decompress", dec, raw_copy, size);
    print_timing ("yaz0 compress", cn, raw_copy, size);
    print_timing ("yaz0 compress (before)", cb, raw_copy, size);
    printf ("  yaz0 compress: %.2f x as fast as before; output %zu bytes (before %zu, %+.2f%%)",
            cb.median / cn.median, z_now, z_before,
            100.0 * ((double)z_now - (double)z_before) / MAX (z_before, 1));
    if (stored != NULL)
      printf ("; the file's own: %zu", g_bytes_get_size (stored));
    printf ("\n");
  }
}

static void
bench_file (const char *path)
{
  g_autofree char *contents = NULL, *base = g_path_get_basename (path);
  g_autoptr (GBytes) bytes = NULL, raw = NULL;
  g_autoptr (GError) error = NULL;
  double t_open[MAX_RUNS], t_parse[MAX_RUNS], t_screen[MAX_RUNS], t_save[MAX_RUNS],
      t_check[MAX_RUNS], t0;
  gsize size, heap;
  guint n_curves;
  int runs, edited;
  Timing file_copy, raw_copy;
  TressBfres *b;

  if (!g_file_get_contents (path, &contents, &size, &error))
    {
      printf ("%s: %s\n", base, error->message);
      return;
    }
  bytes = g_bytes_new_take (g_steal_pointer (&contents), size);
  heap = heap_in_use ();
  t0 = now ();
  b = open_and_decode (bytes, &error);
  heap = heap_in_use () - MIN (heap, heap_in_use ());
  if (b == NULL)
    {
      printf ("%s: does not open: %s\n", base, error->message);
      return;
    }
  runs = runs_for (now () - t0);
  n_curves = tress_bfres_get_n_curves (b);
  raw = tress_bfres_get_bfres_bytes (b);
  tress_bfres_free (b);
  file_copy = time_memcpy (g_bytes_get_data (bytes, NULL), size);
  raw_copy = time_memcpy (g_bytes_get_data (raw, NULL), g_bytes_get_size (raw));

  for (int r = 0; r < runs; r++)
    {
      g_autoptr (GBytes) out = NULL;
      g_autoptr (TressBfres) again = NULL;
      TressDocument *doc;

      t0 = now ();
      b = tress_bfres_parse (bytes, "bench", NULL);
      t_parse[r] = now () - t0;
      tress_bfres_free (b);
      t0 = now ();
      doc = open_to_first_screen (bytes);
      t_screen[r] = now () - t0;
      g_object_unref (doc);
      t0 = now ();
      b = open_and_decode (bytes, NULL);
      t_open[r] = now () - t0;
      edited = edit_one (b);
      t0 = now ();
      out = tress_format_bfres.serialize (b, NULL);
      t_save[r] = now () - t0;
      again = tress_bfres_parse (out, "check", NULL);
      t_check[r] = now () - t0;
      if (again == NULL)
        g_error ("%s: the saved bytes do not parse", base);
      tress_bfres_free (b);
    }

  printf ("%s: %zu bytes%s, %u curves (%.1f a KB)\n", base, size,
          tress_yaz0_is_compressed (g_bytes_get_data (bytes, NULL), size) ? " (Yaz0)" : "",
          n_curves, n_curves / (size / 1024.0));
  printf ("  %-28s %9.4f ms (best %.4f) %8.0f MB/s\n", "memcpy of the file", file_copy.median * 1e3,
          file_copy.best * 1e3, size / file_copy.median / 1e6);
  print_timing ("open: parse", timing_of (t_parse, runs), file_copy, size);
  print_timing ("open to the first screen", timing_of (t_screen, runs), file_copy, size);
  print_timing ("open, every curve decoded", timing_of (t_open, runs), file_copy, size);
  printf ("  %-28s %9.2f x the file's size\n", "memory of the open file", (double)heap / size);
  print_timing (edited >= 0 ? "save after an edit" : "save (no curve to edit)",
                timing_of (t_save, runs), file_copy, size);
  print_timing ("save + re-parse check", timing_of (t_check, runs), file_copy, size);
  bench_yaz0 (raw, NULL,
              tress_yaz0_is_compressed (g_bytes_get_data (bytes, NULL), size) ? bytes : NULL,
              raw_copy);
}

static int
compare_paths (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *)a, *(char *const *)b);
}

/* The files to measure: the arguments, else $TRESS_BENCH_FILES (separated like
 * PATH), else the BFRES samples. */
static GPtrArray *
files_to_measure (int argc, char **argv)
{
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);
  const char *list = g_getenv ("TRESS_BENCH_FILES"), *dir = g_getenv ("TRESS_SAMPLES_DIR");

  for (int i = 1; i < argc; i++)
    g_ptr_array_add (files, g_strdup (argv[i]));
  if (files->len == 0 && list != NULL && *list != '\0')
    {
      g_auto (GStrv) parts = g_strsplit (list, G_SEARCHPATH_SEPARATOR_S, -1);
      for (guint i = 0; parts[i] != NULL; i++)
        if (*parts[i] != '\0')
          g_ptr_array_add (files, g_strdup (parts[i]));
    }
  if (files->len == 0 && dir != NULL)
    {
      g_autofree char *bfres = g_build_filename (dir, "bfres", NULL);
      g_autoptr (GDir) d = g_dir_open (bfres, 0, NULL);
      const char *name;
      g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

      while (d != NULL && (name = g_dir_read_name (d)) != NULL)
        if (g_str_has_suffix (name, ".bfres") || g_str_has_suffix (name, ".sbfres")
            || g_str_has_suffix (name, ".szs"))
          g_ptr_array_add (names, g_build_filename (bfres, name, NULL));
      g_ptr_array_sort (names, compare_paths);
      for (guint i = 0; i < names->len; i++)
        g_ptr_array_add (files, g_strdup (names->pdata[i]));
    }
  return files;
}

int
main (int argc, char **argv)
{
  g_autoptr (GPtrArray) files = files_to_measure (argc, argv);

  tress_curve_document_register_types ();
  if (files->len == 0)
    {
      printf ("no files: give paths, TRESS_BENCH_FILES or TRESS_SAMPLES_DIR\n");
      return 0;
    }
  printf ("times: median of the runs (best in brackets); x memcpy: the median against a memcpy "
          "of the same bytes in this run (the file's for open and save, the BFRES bytes' for "
          "Yaz0)\n");
  for (guint i = 0; i < files->len; i++)
    bench_file (files->pdata[i]);
  return 0;
}
