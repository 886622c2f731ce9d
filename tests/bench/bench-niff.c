/* bench-niff.c: open (every curve built) and save NIFF files; read each one's scene and
 * pose it as the preview does each frame
 *
 *   build/tests/niff/bench-niff FILE…
 *   TRESS_BENCH_FILES=a.nif:b.niff meson test -C build --benchmark --suite niff -v
 *
 * Without files: every NIFF sample in $TRESS_SAMPLES_DIR/niff. A file that does
 * not open says why, and the others go on.
 *
 * Speeds are in MB/s of the file and as a ratio to memcpy of the same bytes,
 * measured in the same run, in CPU time of the running thread. Memory: the file's bytes plus the
 * heap the open and the save hold at their high point (model, every curve, the written bytes), as a
 * multiple of the file size.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "formats/niff/tress-niff-animator.h"
#include "formats/niff/tress-niff.h"
#include "tress-test-utils.h"

static const char *const candidates[] = {
  "niff/3hedra.niff",         "niff/Rings.niff",       "niff/blend2niff-cube.nif",
  "niff/dragon.nif",          "niff/kirikobu.niff",    "niff/synthetic-all-channels.nif",
  "niff/synthetic-niff1.nif", "niff/yellow-cube.niff",
};

static volatile guint8 sink;

/* CPU seconds of this thread: the machine may be shared, and wall time would
 * charge other processes' work to whichever step happens to run. */
static double
cpu_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Seconds per run of @fn, repeated for at least @min_s of CPU time. */
static double
time_it (void (*fn) (gpointer), gpointer data, double min_s)
{
  double start, elapsed;
  guint runs = 0;

  fn (data); /* warm up */
  start = cpu_now ();
  do
    {
      fn (data);
      runs++;
      elapsed = cpu_now () - start;
    }
  while (elapsed < min_s);
  return elapsed / runs;
}

typedef struct
{
  GBytes *bytes;
  guint8 *copy;
  gpointer model;
  TressSceneAnimator *animator;
  double frame;
} Bench;

static void
run_memcpy (gpointer data)
{
  Bench *b = data;
  gsize size = 0;
  const guint8 *src = g_bytes_get_data (b->bytes, &size);

  memcpy (b->copy, src, size);
  sink = b->copy[size / 2];
}

static void
run_open (gpointer data)
{
  Bench *b = data;
  const TressFormat *fmt = &tress_format_niff;
  gpointer model = fmt->parse (b->bytes, "bench", NULL);
  guint n = fmt->curves->n_curves (model);

  for (guint i = 0; i < n; i++)
    tress_curve_unref (fmt->curves->get_curve (model, i));
  fmt->free (model);
}

static void
run_parse (gpointer data)
{
  Bench *b = data;
  tress_format_niff.free (tress_format_niff.parse (b->bytes, "bench", NULL));
}

static void
run_curves (gpointer data)
{
  Bench *b = data;
  guint n = tress_format_niff.curves->n_curves (b->model);

  for (guint i = 0; i < n; i++)
    tress_curve_unref (tress_format_niff.curves->get_curve (b->model, i));
}

static void
run_save (gpointer data)
{
  Bench *b = data;
  GBytes *out = tress_format_niff.serialize (b->model, NULL);

  sink = ((const guint8 *)g_bytes_get_data (out, NULL))[0];
  g_bytes_unref (out);
}

static void
run_scene (gpointer data)
{
  Bench *b = data;
  tress_niff_scene_free (tress_niff_scene_new (b->model, NULL));
}

static void
run_animator (gpointer data)
{
  Bench *b = data;
  tress_scene_animator_free (tress_niff_animator_new (b->model, "bench", NULL));
}

static double
sample_nothing (gpointer data, guint curve, double frame)
{
  return 0;
}

/* One preview frame's CPU side: every object, IK node and world matrix posed. */
static void
run_pose (gpointer data)
{
  Bench *b = data;
  const guint anim = 0;

  tress_scene_animator_pose (b->animator, &anim, 1, b->frame, sample_nothing, NULL);
  b->frame += 0.5;
  if (b->frame > b->animator->anim_frames[0])
    b->frame = 0;
}

static gsize
heap_in_use (void)
{
  struct mallinfo2 mi = mallinfo2 ();
  return mi.uordblks + mi.hblkhd;
}

/* Measures one file; FALSE (and why) when it does not open. */
static gboolean
bench_one (const char *name, GBytes *bytes)
{
  const TressFormat *fmt = &tress_format_niff;
  Bench b = { 0 };
  gsize size;
  double t_memcpy, t_open, t_save, t_parse, t_curves, t_scene, t_animator, t_pose, mb;
  gsize heap0, heap1;
  guint n_curves;
  g_autoptr (GError) error = NULL;

  b.bytes = bytes;
  b.model = fmt->parse (b.bytes, "bench", &error);
  if (b.model == NULL)
    {
      printf ("bench-niff: %s does not open: %s\n", name, error->message);
      return FALSE;
    }
  fmt->free (b.model);
  b.model = NULL;
  size = g_bytes_get_size (b.bytes);
  b.copy = g_malloc (MAX (size, 1));
  mb = size / 1e6;
  t_memcpy = time_it (run_memcpy, &b, 0.2);
  t_open = time_it (run_open, &b, 0.5);
  b.model = fmt->parse (b.bytes, "bench", NULL);
  n_curves = fmt->curves->n_curves (b.model);
  t_save = time_it (run_save, &b, 0.5);
  t_parse = time_it (run_parse, &b, 0.2);
  t_curves = time_it (run_curves, &b, 0.2);
  t_scene = time_it (run_scene, &b, 0.2);
  t_animator = time_it (run_animator, &b, 0.2);
  b.animator = tress_niff_animator_new (b.model, "bench", NULL);
  t_pose = b.animator != NULL ? time_it (run_pose, &b, 0.2) : 0;
  g_clear_pointer (&b.animator, tress_scene_animator_free);
  fmt->free (b.model);
  b.model = NULL;

  /* Memory: everything an open with all curves and a save hold at once. */
  {
    g_autoptr (GPtrArray) curves
        = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_curve_unref);
    GBytes *out;
    gpointer model;

    heap0 = heap_in_use ();
    model = fmt->parse (b.bytes, "bench", NULL);
    for (guint i = 0; i < n_curves; i++)
      g_ptr_array_add (curves, fmt->curves->get_curve (model, i));
    out = fmt->serialize (model, NULL);
    heap1 = heap_in_use ();
    g_bytes_unref (out);
    fmt->free (model);
  }

  printf ("bench-niff: %s, %" G_GSIZE_FORMAT " bytes, %u curves\n", name, size, n_curves);
  printf ("memcpy:             %10.1f MB/s (baseline, 1.00x)\n", mb / t_memcpy);
  printf ("open + all curves:  %10.1f MB/s = %.3fx memcpy (%.1f us)\n", mb / t_open,
          t_memcpy / t_open, t_open * 1e6);
  printf ("  of which parse:   %10.1f MB/s = %.3fx memcpy (%.1f us)\n", mb / t_parse,
          t_memcpy / t_parse, t_parse * 1e6);
  printf ("  and the curves:   %.1f us for %u curves (%.0f ns each)\n", t_curves * 1e6, n_curves,
          n_curves > 0 ? t_curves * 1e9 / n_curves : 0.0);
  printf ("save (serialize):   %10.1f MB/s = %.3fx memcpy (%.1f us)\n", mb / t_save,
          t_memcpy / t_save, t_save * 1e6);
  printf ("scene read:         %10.1f MB/s = %.3fx memcpy (%.1f us)\n", mb / t_scene,
          t_memcpy / t_scene, t_scene * 1e6);
  printf ("  preview's scene:  %.1f us (read, meshes, bound at frame 0)\n", t_animator * 1e6);
  printf ("  pose per frame:   %.1f us (CPU side of a preview frame)\n", t_pose * 1e6);
  printf ("peak memory:        %.2fx the file size (file %" G_GSIZE_FORMAT
          " + heap %" G_GSIZE_FORMAT " bytes)\n",
          (double)(size + (heap1 - heap0)) / size, size, heap1 - heap0);
  printf ("aims: open and save >= 0.2x memcpy, memory < 3x: %s\n",
          t_memcpy / t_open >= 0.2 && t_memcpy / t_save >= 0.2
                  && (double)(size + (heap1 - heap0)) / size < 3
              ? "met"
              : "NOT met");
  g_free (b.copy);
  return TRUE;
}

int
main (int argc, char **argv)
{
  const char *list;
  guint measured = 0;

  g_test_init (&argc, &argv, NULL);
  list = g_getenv ("TRESS_BENCH_FILES");
  /* The files named, else $TRESS_BENCH_FILES (separated like PATH), else the samples. */
  if (argc > 1 || (list != NULL && *list != '\0'))
    {
      g_auto (GStrv) parts
          = argc > 1 ? g_strdupv (argv + 1) : g_strsplit (list, G_SEARCHPATH_SEPARATOR_S, -1);

      for (guint i = 0; parts[i] != NULL; i++)
        {
          g_autofree char *contents = NULL;
          g_autoptr (GError) error = NULL;
          gsize size;

          if (*parts[i] == '\0')
            continue;
          if (!g_file_get_contents (parts[i], &contents, &size, &error))
            {
              printf ("bench-niff: %s\n", error->message);
              continue;
            }
          {
            g_autoptr (GBytes) bytes = g_bytes_new_take (g_steal_pointer (&contents), size);
            measured += bench_one (parts[i], bytes);
          }
        }
      return 0;
    }
  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    {
      g_autofree char *path = tress_test_sample_path (candidates[i]);
      g_autoptr (GBytes) bytes = NULL;

      if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
        continue;
      bytes = tress_test_load_sample (candidates[i]);
      if (bytes != NULL)
        measured += bench_one (candidates[i], bytes);
    }
  if (measured == 0)
    printf ("bench-niff: no NIFF sample found (TRESS_SAMPLES_DIR), nothing measured\n");
  return 0;
}
