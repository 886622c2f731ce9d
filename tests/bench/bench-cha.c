/* bench-cha.c: parse + validate and serialize of the 100,000-ribbon creature
 *
 * Figures are ratios against memcpy of the same bytes measured in the same
 * run, so they mean the same on any machine: parse + validate aims at ≥ 0.2×
 * memcpy speed, and at a peak memory of ≤ 3× the file size (the file's bytes
 * plus the model, measured as heap in use with mallinfo2). Run with `meson test -C build
 * --benchmark --suite cha`; an argument N uses N ribbons instead.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/cha/tress-cha-demo.h"
#include "formats/cha/tress-cha-model.h"

#define ROUNDS 5

static volatile guint8 sink;

/* Heap bytes in use (every allocation comes from the heap: see mallopt below). */
static gsize
heap_in_use (void)
{
  struct mallinfo2 info = mallinfo2 ();

  return info.uordblks + info.hblkhd;
}

int
main (int argc, char **argv)
{
  TressChaDemoOptions options;
  g_autoptr (GBytes) bytes = NULL;
  g_autofree guint8 *copy = NULL;
  const guint8 *data;
  gsize size;
  double t_gen, t_memcpy = G_MAXDOUBLE, t_parse = G_MAXDOUBLE, t_ser = G_MAXDOUBLE;
  double t_cold = 0, t_only_parse = G_MAXDOUBLE, t_count = G_MAXDOUBLE;
  gint64 start;
  gsize base_heap, peak = 0;
  guint n_problems = 0;

  /* Keep freed memory in the heap, so rounds after the first measure the work
   * and not the kernel handing out fresh pages (the first, cold round is
   * printed too). */
  mallopt (M_MMAP_THRESHOLD, 1 << 30);
  mallopt (M_TRIM_THRESHOLD, 1 << 30);
  tress_cha_demo_options_init (&options);
  tress_cha_demo_options_apply_variant (&options, "stress");
  if (argc > 1)
    options.n_ribbons = (guint)MAX (1, g_ascii_strtoull (argv[1], NULL, 10));

  start = g_get_monotonic_time ();
  bytes = tress_cha_demo_generate_bytes (&options);
  t_gen = (double)(g_get_monotonic_time () - start) / 1e6;
  data = g_bytes_get_data (bytes, &size);
  copy = g_malloc (size);
  memset (copy, 1, size);

  for (guint i = 0; i < ROUNDS; i++)
    {
      start = g_get_monotonic_time ();
      memcpy (copy, data, size);
      sink = copy[size / 2];
      t_memcpy = MIN (t_memcpy, (double)(g_get_monotonic_time () - start) / 1e6);
    }
  g_clear_pointer (&copy, g_free);

  base_heap = heap_in_use ();
  for (guint i = 0; i < ROUNDS; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (TressChaFile) file = NULL;
      g_autoptr (GPtrArray) problems = NULL;

      start = g_get_monotonic_time ();
      file = tress_cha_file_parse (bytes, &error);
      if (file == NULL)
        {
          fprintf (stderr, "bench-cha: %s\n", error->message);
          return 1;
        }
      t_only_parse = MIN (t_only_parse, (double)(g_get_monotonic_time () - start) / 1e6);
      problems = tress_cha_file_validate (file);
      t_parse = MIN (t_parse, (double)(g_get_monotonic_time () - start) / 1e6);
      if (i == 0)
        t_cold = (double)(g_get_monotonic_time () - start) / 1e6;
      n_problems = problems->len;
      /* The model only grows while parsing and validating: what it holds at the
       * end is the peak, give or take validate's small temporary bitmap. */
      peak = MAX (peak, heap_in_use () - MIN (heap_in_use (), base_heap));
      if (i == ROUNDS - 1)
        for (guint k = 0; k < ROUNDS; k++)
          {
            g_autoptr (GHashTable) counts = NULL;

            /* what the fur editor's problem marks cost after an edit */
            start = g_get_monotonic_time ();
            counts = tress_cha_file_count_ribbon_problems (file, NULL);
            t_count = MIN (t_count, (double)(g_get_monotonic_time () - start) / 1e6);
          }
      if (i == ROUNDS - 1)
        for (guint k = 0; k < ROUNDS; k++)
          {
            g_autoptr (GBytes) out = NULL;
            start = g_get_monotonic_time ();
            out = tress_cha_file_serialize (file);
            t_ser = MIN (t_ser, (double)(g_get_monotonic_time () - start) / 1e6);
            if (!g_bytes_equal (out, bytes))
              {
                fprintf (stderr, "bench-cha: serialize changed the bytes\n");
                return 1;
              }
          }
    }

#define MBS(t) ((double)size / 1e6 / MAX (t, 1e-9))
  printf ("cha benchmark: %u ribbons, %.1f MB file (generated in %.2f s), %u problems\n",
          options.n_ribbons, (double)size / 1e6, t_gen, n_problems);
  printf ("memcpy          %10.1f MB/s  (baseline)\n", MBS (t_memcpy));
  printf ("parse+validate  %10.1f MB/s  %.3f× memcpy  (aim ≥ 0.2×)  %.1f ms\n", MBS (t_parse),
          t_memcpy / t_parse, t_parse * 1e3);
  printf ("  of which parse %8.1f MB/s  %.3f× memcpy  %.1f ms\n", MBS (t_only_parse),
          t_memcpy / t_only_parse, t_only_parse * 1e3);
  printf ("  first round %.1f MB/s  %.3f× memcpy  %.1f ms\n", MBS (t_cold), t_memcpy / t_cold,
          t_cold * 1e3);
  printf ("ribbon counts   %10.1f MB/s  %.3f× memcpy  %.1f ms (%.2f× parse+validate)\n",
          MBS (t_count), t_memcpy / t_count, t_count * 1e3, t_count / t_parse);
  printf ("serialize       %10.1f MB/s  %.3f× memcpy  %.1f ms\n", MBS (t_ser), t_memcpy / t_ser,
          t_ser * 1e3);
  printf ("peak memory     %.2f× the file size for the model, %.2f× with the file's own "
          "bytes (aim ≤ 3×)\n",
          (double)peak / (double)size, (double)(peak + size) / (double)size);
  return n_problems == 0 ? 0 : 1;
}
