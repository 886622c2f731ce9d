/* bench-bfres.c: opening and saving Animal_Dog_Animation.bfres
 *
 * Open = parse, label and decode every curve into the curve model; save =
 * serialize after an edit (and, separately, with the re-parse that a save
 * does to check its bytes). Times are the median (and the best) of several runs and are
 * printed next to a memcpy of the same bytes measured in the same run. Yaz0
 * compression and decompression of the file are reported in MB/s, and peak
 * memory during an open as a multiple of the file size.
 *
 *   meson test -C build --benchmark --suite bfres -v
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>
#include <malloc.h>

#include "core/tress-yaz0.h"
#include "formats/bfres/tress-bfres.h"
#include "tress-test-utils.h"

#define RUNS 15

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double
median (double *v, int n)
{
  qsort (v, n, sizeof *v, cmp_double);
  return v[n / 2];
}

/* After median() sorted @v: the fastest run, least disturbed by other load. */
static double
best (const double *v)
{
  return v[0];
}

/* Bytes in use on the heap (small blocks and mmapped ones). */
static gsize
heap_in_use (void)
{
  struct mallinfo2 mi = mallinfo2 ();
  return mi.uordblks + mi.hblkhd;
}

/* Not inlined, so that a profiler can count exactly this:
 *   valgrind --tool=callgrind "--toggle-collect=open_and_decode*" build/tests/bfres/bench-bfres */
static G_GNUC_NO_INLINE guint
open_and_decode (GBytes *bytes, TressBfres **out)
{
  g_autoptr (GError) error = NULL;
  TressBfres *b = tress_bfres_parse (bytes, "bench", &error);
  guint n;

  if (b == NULL)
    g_error ("%s", error->message);
  n = tress_bfres_get_n_curves (b);
  for (guint i = 0; i < n; i++)
    {
      TressCurve *c = tress_format_bfres.curves->get_curve (b, i);
      tress_curve_unref (c);
    }
  *out = b;
  return n;
}

int
main (int argc, char **argv)
{
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_autoptr (GBytes) bytes = NULL;
  gsize size;
  double t_memcpy[RUNS], t_open[RUNS], t_save[RUNS], t_check[RUNS], t_comp[3], t_dec[3];
  gsize base, model_bytes, peak;
  guint n_curves = 0;
  guint8 *copy;
  const char *dir = g_getenv ("TRESS_SAMPLES_DIR");

  if (dir == NULL)
    {
      printf ("TRESS_SAMPLES_DIR is not set: nothing to measure\n");
      return 0;
    }
  path = g_build_filename (dir, "bfres", "Animal_Dog_Animation.bfres", NULL);
  if (!g_file_get_contents (path, &contents, &size, NULL))
    {
      printf ("%s is absent: nothing to measure\n", path);
      return 0;
    }
  bytes = g_bytes_new_take (g_steal_pointer (&contents), size);

  /* Peak heap during the first open: the model, plus one decoded curve at a time. */
  base = heap_in_use ();
  {
    g_autoptr (GError) error = NULL;
    TressBfres *b = tress_bfres_parse (bytes, "bench", &error);
    g_assert_no_error (error);
    model_bytes = heap_in_use () - base;
    peak = model_bytes;
    n_curves = tress_bfres_get_n_curves (b);
    for (guint i = 0; i < n_curves; i++)
      {
        TressCurve *c = tress_format_bfres.curves->get_curve (b, i);
        peak = MAX (peak, heap_in_use () - base);
        tress_curve_unref (c);
      }
    tress_bfres_free (b);
  }

  copy = g_malloc (size);
  for (int r = 0; r < RUNS; r++)
    {
      gint64 t0 = g_get_monotonic_time ();
      memcpy (copy, g_bytes_get_data (bytes, NULL), size);
      t_memcpy[r] = (g_get_monotonic_time () - t0) / 1e6;
      copy[r] ^= 1;
    }
  for (int r = 0; r < RUNS; r++)
    {
      TressBfres *b = NULL;
      gint64 t0 = g_get_monotonic_time ();
      open_and_decode (bytes, &b);
      t_open[r] = (g_get_monotonic_time () - t0) / 1e6;
      {
        /* An edit, so that save has to write new bytes. */
        g_autoptr (TressCurve) c = tress_format_bfres.curves->get_curve (b, r);
        g_autoptr (GBytes) out = NULL;
        g_autoptr (TressBfres) again = NULL;
        tress_curve_get_key (c, 0)->value += 0.01;
        tress_format_bfres.curves->set_curve (b, r, c, NULL, NULL);
        t0 = g_get_monotonic_time ();
        out = tress_format_bfres.serialize (b, NULL);
        t_save[r] = (g_get_monotonic_time () - t0) / 1e6;
        t0 = g_get_monotonic_time ();
        again = tress_bfres_parse (out, "check", NULL);
        t_check[r] = t_save[r] + (g_get_monotonic_time () - t0) / 1e6;
        g_assert (again != NULL);
      }
      tress_bfres_free (b);
    }
  for (int r = 0; r < 3; r++)
    {
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr (GBytes) z = tress_yaz0_compress (g_bytes_get_data (bytes, NULL), size, NULL);
      g_autoptr (GBytes) d = NULL;
      t_comp[r] = (g_get_monotonic_time () - t0) / 1e6;
      t0 = g_get_monotonic_time ();
      d = tress_yaz0_decompress (g_bytes_get_data (z, NULL), g_bytes_get_size (z), 0, NULL);
      t_dec[r] = (g_get_monotonic_time () - t0) / 1e6;
      if (r == 0)
        printf ("yaz0 compressed size: %zu bytes (%.1f%% of %zu)\n", g_bytes_get_size (z),
                100.0 * g_bytes_get_size (z) / size, size);
    }
  g_free (copy);

  {
    double mc = median (t_memcpy, RUNS), op = median (t_open, RUNS), sv = median (t_save, RUNS),
           ck = median (t_check, RUNS), co = median (t_comp, 3), de = median (t_dec, 3);
    double mb = size / 1e6;
    printf ("file: Animal_Dog_Animation.bfres, %zu bytes, %u curves\n", size, n_curves);
    printf ("memcpy baseline: %.3f ms (%.0f MB/s)\n", mc * 1e3, mb / mc);
    printf ("open (parse + label + decode all curves): %.3f ms, %.0f curves/s, %.0f MB/s, %.1f x "
            "memcpy\n",
            op * 1e3, n_curves / op, mb / op, op / mc);
    printf ("save after an edit (serialize): %.3f ms, %.0f MB/s, %.1f x memcpy\n", sv * 1e3,
            mb / sv, sv / mc);
    printf ("save + re-parse check: %.3f ms, %.1f x memcpy\n", ck * 1e3, ck / mc);
    printf ("best runs: memcpy %.3f ms, open %.3f ms (%.1f x), save %.3f ms (%.1f x), save + check "
            "%.3f ms\n",
            best (t_memcpy) * 1e3, best (t_open) * 1e3, best (t_open) / best (t_memcpy),
            best (t_save) * 1e3, best (t_save) / best (t_memcpy), best (t_check) * 1e3);
    printf ("yaz0 compress: %.1f MB/s; decompress: %.1f MB/s\n", mb / co, mb / de);
    printf ("memory: model %.2f x file size; peak while decoding %.2f x; with the file's own bytes "
            "%.2f x\n",
            (double)model_bytes / size, (double)peak / size, 1.0 + (double)peak / size);
  }
  return 0;
}
