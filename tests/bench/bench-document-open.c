/* bench-document-open.c: what the editor does to open a file, up to its first screen
 *
 * For each file: the document made from the bytes (format chosen by content,
 * parsed), the curve tree built (tress_curve_document_get_roots), and the
 * first screen filled as the editor's tree fills it: every column of the top
 * rows, and of the rows down to the first group of curves (e.g. one bone's
 * channels), whose curves the graph then draws (each curve's keys read). Each
 * time is the median (and the best) of several runs, printed as a ratio to a
 * memcpy of the file measured in the same run.
 *
 *   build/tests/curves/bench-document-open FILE…
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench-first-screen.h"
#include "document/tress-curve-document.h"
#include "document/tress-document.h"

#define MIN_RUNS 5
#define MAX_RUNS 41
#define BUDGET_S 1.0

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double
median (double *v, int n, double *best)
{
  qsort (v, n, sizeof *v, cmp_double);
  *best = v[0];
  return v[n / 2];
}

static double
time_memcpy (const guint8 *data, gsize size)
{
  g_autofree guint8 *copy = g_malloc (size > 0 ? size : 1);
  double t[MAX_RUNS], best;
  int reps = 1;

  memcpy (copy, data, size);
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
  return median (t, MAX_RUNS, &best);
}

static void
bench_file (const char *path)
{
  g_autofree char *contents = NULL, *base = g_path_get_basename (path);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  double t_doc[MAX_RUNS], t_tree[MAX_RUNS], t_screen[MAX_RUNS], t_all[MAX_RUNS], copy, best, t0;
  gsize size, seen = 0;
  int runs;
  guint n_curves = 0;

  if (!g_file_get_contents (path, &contents, &size, &error))
    {
      printf ("%s: %s\n", base, error->message);
      return;
    }
  bytes = g_bytes_new_take (g_steal_pointer (&contents), size);
  t0 = now ();
  {
    g_autoptr (TressDocument) doc = tress_document_new_from_bytes (bytes, base, &error);

    if (doc == NULL || !TRESS_IS_CURVE_DOCUMENT (doc))
      {
        printf ("%s: %s\n", base, doc == NULL ? error->message : "not a curve document");
        return;
      }
    bench_first_screen (TRESS_CURVE_DOCUMENT (doc));
    n_curves = tress_curve_document_get_n_curves (TRESS_CURVE_DOCUMENT (doc));
  }
  runs = CLAMP ((int)(BUDGET_S / MAX (now () - t0, 1e-6)), MIN_RUNS, MAX_RUNS);
  copy = time_memcpy (g_bytes_get_data (bytes, NULL), size);
  for (int r = 0; r < runs; r++)
    {
      TressDocument *doc;
      double t1, t2, t3;

      t0 = now ();
      doc = tress_document_new_from_bytes (bytes, base, NULL);
      t1 = now ();
      tress_curve_document_get_roots (TRESS_CURVE_DOCUMENT (doc));
      t2 = now ();
      seen += bench_first_screen (TRESS_CURVE_DOCUMENT (doc));
      t3 = now ();
      t_doc[r] = t1 - t0;
      t_tree[r] = t2 - t1;
      t_screen[r] = t3 - t2;
      t_all[r] = t3 - t0;
      g_object_unref (doc);
    }
  printf ("%s: %zu bytes, %u curves (%.1f a KB)\n", base, size, n_curves,
          n_curves / (size / 1024.0));
  printf ("  %-30s %9.4f ms\n", "memcpy of the file", copy * 1e3);
#define ROW(what, v)                                                                               \
  do                                                                                               \
    {                                                                                              \
      double m = median (v, runs, &best);                                                          \
      printf ("  %-30s %9.4f ms (best %.4f) %8.1f x memcpy\n", what, m * 1e3, best * 1e3,          \
              m / copy);                                                                           \
    }                                                                                              \
  while (0)
  ROW ("document (parse)", t_doc);
  ROW ("curve tree", t_tree);
  ROW ("first screen (rows, graph)", t_screen);
  ROW ("open to first screen", t_all);
#undef ROW
  (void)seen;
}

int
main (int argc, char **argv)
{
  tress_curve_document_register_types ();
  if (argc < 2)
    {
      printf ("usage: bench-document-open FILE…\n");
      return 0;
    }
  printf ("times: median of the runs (best in brackets); x memcpy: against a memcpy of the "
          "file in this run\n");
  for (int i = 1; i < argc; i++)
    bench_file (argv[i]);
  return 0;
}
