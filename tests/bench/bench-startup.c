/* bench-startup.c: whole-process time and peak memory of `tress --screenshot`
 *
 * Runs `tress --screenshot=OUT.png` on the welcome page several times and, as
 * the baseline measured in the same run, this program's own --baseline mode: a
 * bare GTK window with one label rendered to a PNG the same way (GTK's
 * renderer, Tress's PNG writer). GTK's own
 * start-up (display, fonts, theme) is the floor; the ratio says what Tress adds.
 * Peak memory is the child's ru_maxrss from wait4().
 *
 *   bench-startup TRESS [RUNS]        (needs a display: run under xvfb-run)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "app/tress-png.h"

extern char **environ;

typedef struct
{
  double seconds;
  double cpu_seconds; /* user + system */
  long max_rss_kb;
} Run;

static gboolean
run_once (char **argv, char **envp, Run *run)
{
  pid_t pid;
  int status = 0;
  struct rusage usage;
  gint64 start = g_get_monotonic_time ();

  if (posix_spawn (&pid, argv[0], NULL, NULL, argv, envp) != 0)
    return FALSE;
  if (wait4 (pid, &status, 0, &usage) != pid)
    return FALSE;
  run->seconds = (g_get_monotonic_time () - start) / (double)G_USEC_PER_SEC;
  run->max_rss_kb = usage.ru_maxrss;
  run->cpu_seconds = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec
                     + usage.ru_stime.tv_usec / 1e6;
  return WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y ? 1 : 0;
}

typedef struct
{
  double median, min, cpu_median;
  long max_rss_kb;
} Summary;

static gboolean
measure (char **argv, char **envp, guint runs, Summary *summary)
{
  g_autofree double *times = g_new0 (double, runs);
  g_autofree double *cpu = g_new0 (double, runs);

  summary->max_rss_kb = 0;
  for (guint i = 0; i < runs; i++)
    {
      Run run;

      if (!run_once (argv, envp, &run))
        {
          g_printerr ("bench-startup: %s failed\n", argv[0]);
          return FALSE;
        }
      times[i] = run.seconds;
      cpu[i] = run.cpu_seconds;
      summary->max_rss_kb = MAX (summary->max_rss_kb, run.max_rss_kb);
    }
  qsort (times, runs, sizeof (double), compare_double);
  summary->median = times[runs / 2];
  summary->min = times[0];
  qsort (cpu, runs, sizeof (double), compare_double);
  summary->cpu_median = cpu[runs / 2];
  return TRUE;
}

/* ---- baseline: a bare GTK window rendered to a PNG ---------------------- */

static const char *baseline_out;
static guint baseline_frames;

static gboolean
baseline_tick (GtkWidget *window, GdkFrameClock *clock, gpointer user_data)
{
  GMainLoop *loop = user_data;
  int w = gtk_widget_get_width (window), h = gtk_widget_get_height (window);
  g_autoptr (GdkPaintable) paintable = NULL;
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  GtkSnapshot *snapshot;

  if (++baseline_frames < 2)
    return G_SOURCE_CONTINUE;
  paintable = gtk_widget_paintable_new (window);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, w, h));
  /* Encoded as tress encodes its screenshots. */
  if (!tress_texture_save_png (texture, baseline_out, NULL))
    g_error ("bench-startup: could not write %s", baseline_out);
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static int
run_baseline (const char *out)
{
  g_autoptr (GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  GtkWidget *window;

  g_setenv ("GSK_RENDERER", "cairo", FALSE);
  gtk_init ();
  baseline_out = out;
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 960, 640);
  gtk_window_set_child (GTK_WINDOW (window), gtk_label_new ("Baseline"));
  gtk_widget_add_tick_callback (window, baseline_tick, loop, NULL);
  gtk_window_present (GTK_WINDOW (window));
  g_main_loop_run (loop);
  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}

int
main (int argc, char *argv[])
{
  g_autofree char *self = NULL;
  g_autofree char *tmpdir = NULL;
  g_autofree char *out = NULL;
  g_autofree char *shot_arg = NULL;
  g_auto (GStrv) env_default = NULL;
  g_auto (GStrv) env_gl = NULL;
  g_auto (GStrv) env_nogl = NULL;
  Summary tress, tress_gl, tress_nogl, base;
  guint runs;

  if (argc == 3 && g_str_equal (argv[1], "--baseline"))
    return run_baseline (argv[2]);
  if (argc < 2)
    {
      g_printerr ("usage: bench-startup TRESS [RUNS]\n");
      return 2;
    }
  runs = argc > 2 ? (guint)CLAMP (g_ascii_strtoull (argv[2], NULL, 10), 1, 50) : 9;

  self = g_file_read_link ("/proc/self/exe", NULL);
  tmpdir = g_dir_make_tmp ("bench-startup-XXXXXX", NULL);
  out = g_build_filename (tmpdir, "shot.png", NULL);
  shot_arg = g_strconcat ("--screenshot=", out, NULL);

  env_default = g_get_environ ();
  env_default = g_environ_setenv (env_default, "GTK_A11Y", "none", FALSE);
  env_default = g_environ_setenv (env_default, "GSETTINGS_BACKEND", "memory", FALSE);
  env_default = g_environ_setenv (env_default, "DBUS_SESSION_BUS_ADDRESS", "disabled:", FALSE);
  env_default = g_environ_unsetenv (env_default, "GSK_RENDERER");
  env_gl = g_environ_setenv (g_strdupv (env_default), "GSK_RENDERER", "gl", TRUE);
  env_nogl = g_environ_setenv (g_strdupv (env_default), "GDK_DEBUG", "gl-disable", TRUE);

  {
    char *tress_argv[] = { argv[1], shot_arg, NULL };
    char *base_argv[] = { self, (char *)"--baseline", out, NULL };

    /* One warm-up each, so that every measured run finds the files cached. */
    if (!measure (tress_argv, env_default, 1, &tress)
        || !measure (base_argv, env_default, 1, &base))
      return 1;
    if (!measure (base_argv, env_default, runs, &base)
        || !measure (tress_argv, env_default, runs, &tress)
        || !measure (tress_argv, env_gl, runs, &tress_gl)
        || !measure (tress_argv, env_nogl, runs, &tress_nogl))
      return 1;
  }
  g_remove (out);
  g_rmdir (tmpdir);

  g_print ("tress --screenshot, welcome page, %u runs each: wall time median and min, CPU time "
           "(user+system) median, peak RSS\n",
           runs);
  g_print ("  baseline (bare GTK window to PNG): %.3f s, %.3f s; CPU %.3f s; %.1f MiB\n",
           base.median, base.min, base.cpu_median, base.max_rss_kb / 1024.0);
  g_print ("  tress (software renderer):         %.3f s, %.3f s; CPU %.3f s; %.1f MiB\n",
           tress.median, tress.min, tress.cpu_median, tress.max_rss_kb / 1024.0);
  g_print ("  tress (GSK_RENDERER=gl):           %.3f s, %.3f s; CPU %.3f s; %.1f MiB\n",
           tress_gl.median, tress_gl.min, tress_gl.cpu_median, tress_gl.max_rss_kb / 1024.0);
  g_print ("  tress (GDK_DEBUG=gl-disable):      %.3f s, %.3f s; CPU %.3f s; %.1f MiB\n",
           tress_nogl.median, tress_nogl.min, tress_nogl.cpu_median,
           tress_nogl.max_rss_kb / 1024.0);
  g_print ("  ratio tress/baseline: wall %.2fx, CPU %.2fx, memory %.2fx; "
           "gl/baseline: wall %.2fx, CPU %.2fx, memory %.2fx\n",
           tress.median / base.median, tress.cpu_median / base.cpu_median,
           (double)tress.max_rss_kb / base.max_rss_kb, tress_gl.median / base.median,
           tress_gl.cpu_median / base.cpu_median, (double)tress_gl.max_rss_kb / base.max_rss_kb);
  g_print ("  aim (< 0.5 s whole process): %s (wall time depends on the machine's load; "
           "the CPU time and the ratios much less)\n",
           tress.median < 0.5 ? "met" : "not met");
  return 0;
}
