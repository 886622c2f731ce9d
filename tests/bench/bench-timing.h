/* bench-timing.h: processor time of the calling thread or of the whole
 * program, and the best of several timed runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <time.h>

/* Seconds of processor time this thread has used. */
static inline double
bench_thread_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Seconds of processor time the whole program has used (every thread: the
 * UI benchmarks count GL's software rasterizer and the paint threads). */
static inline double
bench_process_seconds (void)
{
  struct timespec ts;

  if (clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
    return g_get_monotonic_time () / 1e6;
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The least thread processor time per call of @fn (@data) over @runs runs
 * of @reps calls each, never below 1 ns (a ratio's divisor). */
static inline double
bench_best_of (guint runs, guint reps, void (*fn) (gpointer), gpointer data)
{
  double best = G_MAXDOUBLE;

  for (guint r = 0; r < runs; r++)
    {
      double t = bench_thread_seconds ();

      for (guint i = 0; i < reps; i++)
        fn (data);
      best = MIN (best, (bench_thread_seconds () - t) / reps);
    }
  return MAX (best, 1e-9);
}
