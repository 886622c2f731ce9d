/* bench-fur.c: the fur editor with large creatures
 *
 * Figures, each against a baseline measured in the same run:
 *  - launch to first frame: from main() to the preview's first drawn frame with
 *    the 100,000-ribbon file open in the window, against memcpy of its bytes
 *    (that frame has the reduced level of detail; the first full frame too);
 *  - preview frame time (Mesa llvmpipe under Xvfb) for 2,000 and 100,000
 *    ribbons, with the rate and the ratio to memcpy of the vertex data; for
 *    100,000 also while the view moves (the reduced level of detail);
 *  - sorting the tree with the large material expanded, and back;
 *  - painting weights in the 100,000-ribbon file: a stroke of 60 steps over about
 *    1,000 lines, each step a paint dab and a drawn frame, as frames a second,
 *    against a bare frame of the whole mesh and a frame with nothing to do, in
 *    the same run (target: at least 30 a second on llvmpipe); and a stroke of 60
 *    steps over about 200,000 lines (a big brush), per-step painting and drawing
 *    time against a bare frame of the whole mesh;
 *  - a whole-file retarget of the 100,000-ribbon file, planned in a worker
 *    (tress-fur-jobs.c): the main loop's longest gap while it plans (aim: under
 *    100 ms), then the longest gap overall (performing it and drawing the
 *    recoloured mesh) against a bare frame of the whole mesh in the same run,
 *    and the same edit made at once on the UI thread (as before) in the same
 *    run;
 *  - resident memory added by opening the large file, as a multiple of its size:
 *    once the editor is built (before GL draws anything) and after the first
 *    full frame (which adds what the GL driver holds: uploaded buffers, and on
 *    llvmpipe its binned scenes).
 * --screenshot=PNG writes the window with the demo creature and a selection.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <stdio.h>
#include <string.h>

#include "formats/cha/tress-cha-demo.h"
#include "fur/tress-fur-editor.h"
#include "fur/tress-fur-jobs.h"
#include "tress-application.h"
#include "tress-document-page.h"
#include "tress-test-utils.h"
#include "tress-window.h"
#include "document/tress-cha-document.h"

static gint64 t_main;

#define WAIT_FOR(cond) TRESS_TEST_WAIT_FOR (cond)

static double
rss_mb (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;
  line = strstr (status, "VmRSS:");
  return line != NULL ? g_ascii_strtod (line + 6, NULL) / 1024.0 : 0;
}

/* Seconds per memcpy of @size bytes (best of a few). */
static double
memcpy_seconds (gsize size)
{
  g_autofree guint8 *a = g_malloc (size), *b = g_malloc (size);
  double best = G_MAXDOUBLE;

  memset (a, 1, size);
  for (guint i = 0; i < 5; i++)
    {
      gint64 t = g_get_monotonic_time ();

      memcpy (b, a, size);
      best = MIN (best, (g_get_monotonic_time () - t) / 1e6);
      a[i] = b[size - 1 - i];
    }
  return MAX (best, 1e-7);
}

static char *
write_file (const char *dir, const char *name, const char *variant, guint n_ribbons, gsize *size)
{
  TressChaDemoOptions options;
  g_autoptr (GBytes) bytes = NULL;
  char *path = g_build_filename (dir, name, NULL);

  tress_cha_demo_options_init (&options);
  if (variant != NULL)
    tress_cha_demo_options_apply_variant (&options, variant);
  if (n_ribbons > 0)
    options.n_ribbons = n_ribbons;
  bytes = tress_cha_demo_generate_bytes (&options);
  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize)g_bytes_get_size (bytes),
                       NULL);
  *size = g_bytes_get_size (bytes);
  return path;
}

static gint64 t_full_frame;

static void
on_frame (TressFurPreview *preview, gboolean *drawn)
{
  *drawn = TRUE;
  if (t_full_frame == 0
      && tress_fur_preview_get_n_ribbons_drawn (preview)
             == tress_fur_preview_get_mesh (preview)->n_ribbons)
    t_full_frame = g_get_monotonic_time ();
}

static double rss_opened;

static TressFurEditor *
open_in (TressWindow *window, const char *path, gboolean *first_frame)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *uri = g_file_get_uri (file);
  guint before = tress_window_get_n_documents (window);
  GtkWidget *editor;

  gtk_widget_activate_action (GTK_WIDGET (window), "win.open-uri", "s", uri);
  WAIT_FOR (tress_window_get_n_documents (window) == before + 1);
  editor = tress_document_page_get_editor (tress_window_get_current_page (window));
  rss_opened = rss_mb ();
  g_assert (TRESS_IS_FUR_EDITOR (editor));
  if (first_frame != NULL)
    g_signal_connect (tress_fur_editor_get_preview (TRESS_FUR_EDITOR (editor)), "frame-drawn",
                      G_CALLBACK (on_frame), first_frame);
  return TRESS_FUR_EDITOR (editor);
}

/* Runs this program with --launch FILE and reads its figures. */
typedef struct
{
  double launch, full, rss_before, rss_opened, rss_after;
} LaunchFigures;

static void
run_launch_child (const char *self_path, const char *file, char **out, LaunchFigures *f,
                  double *spawn_to_exit)
{
  const char *child_argv[] = { self_path, "--launch", file, NULL };
  g_autoptr (GError) error = NULL;
  int status = 0;
  gint64 t0 = g_get_monotonic_time ();
  const char *line;

  if (!g_spawn_sync (NULL, (char **)child_argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, out, NULL,
                     &status, &error))
    g_error ("%s", error->message);
  if (spawn_to_exit != NULL)
    *spawn_to_exit = (g_get_monotonic_time () - t0) / 1e6;
  line = *out != NULL ? strstr (*out, "first-frame ") : NULL;
  if (line == NULL
      || sscanf (line, "first-frame %lf full-frame %lf rss-before %lf rss-opened %lf rss-after %lf",
                 &f->launch, &f->full, &f->rss_before, &f->rss_opened, &f->rss_after)
             != 5)
    g_error ("the launch child printed no figures:\n%s", *out != NULL ? *out : "");
}

/* The distinct lines a stroke of radius @r along y = @y from @x0 to @x1
 * covers; *@part gets the body part most of them refer to. */
static guint
stroke_lines (TressFurPreview *preview, TressChaFile *file, double x0, double x1, double y,
              double r, guint32 *part)
{
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr (GHashTable) parts = g_hash_table_new (g_direct_hash, g_direct_equal);
  guint best = 0;

  for (double x = x0; x <= x1; x += MAX (r / 4, 1))
    {
      g_autoptr (GArray) lines = g_array_new (FALSE, FALSE, sizeof (TressChaLineId));

      tress_fur_preview_lines_under (preview, x, y, r, lines);
      for (guint i = 0; i < lines->len; i++)
        {
          const TressChaLineId *id = &g_array_index (lines, TressChaLineId, i);
          const TressChaMaterial *m = &file->radeon->materials[id->material];
          gint64 key = ((gint64)id->material << 32) | id->line;

          if (!g_hash_table_add (seen, g_memdup2 (&key, sizeof key)))
            continue;
          for (guint k = 0; k < 3; k++)
            {
              gint64 p = tress_cha_material_ref_body_part (m, &m->lines[id->line], k);
              guint n;

              if (p < 0)
                continue;
              n = GPOINTER_TO_UINT (g_hash_table_lookup (parts, GINT_TO_POINTER (p + 1))) + 1;
              g_hash_table_insert (parts, GINT_TO_POINTER (p + 1), GUINT_TO_POINTER (n));
              if (n > best)
                {
                  best = n;
                  *part = (guint32)p;
                }
            }
        }
    }
  return g_hash_table_size (seen);
}

/* A paint stroke of 60 steps over about 1,000 lines, a frame drawn after each
 * step, against a bare frame of the whole mesh and an idle frame. */
static void
paint_time (TressFurEditor *editor)
{
  TressFurPreview *preview = tress_fur_editor_get_preview (editor);
  TressChaDocument *doc = tress_fur_editor_get_document (editor);
  TressHistory *history = tress_document_get_history (TRESS_DOCUMENT (doc));
  TressChaFile *file = tress_cha_document_get_cha (doc);
  const TressFurMesh *mesh;
  double x0, x1, y, lo, hi, r, full, idle = 0, first_dab, stroke;
  const guint steps = 60;
  guint covered = 0, n_changed, mi, rb;
  guint32 target = 0;
  int w, h, start;
  gint64 t;
  GBytes *probe;

  WAIT_FOR (tress_fur_preview_get_gl_ready (preview) || tress_fur_preview_get_gl_error (preview));
  if (!tress_fur_preview_get_gl_ready (preview))
    {
      printf ("painting: GL unavailable (%s)\n", tress_fur_preview_get_gl_error (preview));
      return;
    }
  WAIT_FOR ((probe = tress_fur_preview_grab (preview, &w, &h)) != NULL);
  g_bytes_unref (probe);
  mesh = tress_fur_preview_get_mesh (preview);
  tress_fur_preview_set_interacting (preview, FALSE);
  y = h / 2.0;
  x0 = w * 0.3;
  x1 = w * 0.7;
  /* The part of the ribbon in the middle, which the lines around it refer to. */
  start = tress_fur_preview_hover (preview, w / 2.0, y);
  tress_fur_preview_hover (preview, -100, -100);
  if (start < 0 || !tress_fur_mesh_ribbon_id (mesh, (guint)start, &mi, &rb))
    {
      printf ("painting: no ribbon in the middle of the view\n");
      return;
    }
  /* Closer (the whole creature is several lines a pixel), then a stroke across
   * 160 pixels with a brush that covers about 1,000 lines along it. */
  tress_fur_preview_zoom (preview, 0.08);
  t = g_get_monotonic_time ();
  tress_fur_preview_hover (preview, w / 2.0, y);
  first_dab = (g_get_monotonic_time () - t) / 1e6;
  x0 = w / 2.0 - 80;
  x1 = w / 2.0 + 80;
  lo = 0.5;
  hi = 60;
  for (guint i = 0; i < 24; i++)
    {
      r = (lo + hi) / 2;
      covered = stroke_lines (preview, file, x0, x1, y, r, &target);
      if (covered > 1050)
        hi = r;
      else if (covered < 950)
        lo = r;
      else
        break;
    }
  tress_fur_preview_set_paint_mode (preview, TRUE);
  tress_fur_preview_set_paint_target (preview, target);
  tress_fur_preview_set_brush (preview, r, 0.5);

  /* Baselines: every ribbon drawn (a view that moved), and a frame with
   * nothing new (the base layer copied, the selection drawn over it). */
  full = tress_fur_preview_time_frames (preview, 3);
  tress_fur_preview_draw_now (preview);
  for (guint i = 0; i < 10; i++)
    idle += tress_fur_preview_draw_now (preview) / 10;

  t = g_get_monotonic_time ();
  tress_fur_preview_paint_begin (preview, x0, y, TRESS_CHA_PAINT_ADD);
  tress_fur_preview_draw_now (preview);
  for (guint i = 1; i <= steps; i++)
    {
      tress_fur_preview_paint_to (preview, x0 + (x1 - x0) * i / steps, y);
      tress_fur_preview_draw_now (preview);
    }
  stroke = (g_get_monotonic_time () - t) / 1e6;
  t = g_get_monotonic_time ();
  n_changed = tress_fur_preview_paint_end (preview);
  tress_fur_preview_draw_now (preview);
  printf ("painting weights, 100,000 ribbons: a stroke of %u steps (brush %.1f px, %.0f px long) "
          "over %u lines "
          "changed %u of them (\"%s\"): %.1f ms a step = %.1f frames a second%s; a bare frame of "
          "the whole mesh %.1f ms (%.1f fps), a frame with nothing new %.1f ms: a step costs %.2f× "
          "a bare frame; ending the stroke (undo step, views) %.0f ms; picking before the first "
          "dab (the view projected) %.0f ms\n",
          steps, r, x1 - x0, covered, n_changed, tress_history_get_undo_label (history),
          stroke / steps * 1e3, steps / stroke,
          steps / stroke >= 30 ? " [≥ 30 fps]" : " [< 30 fps]", full * 1e3, 1 / full, idle * 1e3,
          stroke / steps / full, (g_get_monotonic_time () - t) / 1e3, first_dab * 1e3);
  tress_fur_preview_set_paint_mode (preview, FALSE);
}

/* A stroke of 60 steps whose big brush covers about 200,000 lines of the
 * creature filling the view: per step the pointer moves, one frame's worth of dabs is
 * painted (tress_fur_preview_paint_frame, as the frame clock does) and the
 * frame is drawn. Against a bare frame of the whole mesh in the same run. */
static void
big_stroke_time (TressFurEditor *editor)
{
  TressFurPreview *preview = tress_fur_editor_get_preview (editor);
  TressChaDocument *doc = tress_fur_editor_get_document (editor);
  TressHistory *history = tress_document_get_history (TRESS_DOCUMENT (doc));
  TressChaFile *file = tress_cha_document_get_cha (doc);
  g_autoptr (GBytes) before = NULL;
  g_autoptr (GBytes) after = NULL;
  double x0, x1, y, lo = 1, hi, r = 1, full, stroke, worst = 0, end_s, painting = 0, drawing = 0;
  const guint steps = 60;
  guint covered = 0, n_changed, left;
  guint32 target = 0;
  int w, h;
  gint64 t;
  GBytes *probe;

  WAIT_FOR ((probe = tress_fur_preview_grab (preview, &w, &h)) != NULL);
  g_bytes_unref (probe);
  /* The creature filling the view. */
  tress_fur_preview_frame_all (preview);
  tress_fur_preview_zoom (preview, 0.6);
  tress_fur_preview_set_interacting (preview, FALSE);
  y = h / 2.0;
  x0 = w * 0.35;
  x1 = w * 0.65;
  lo = 1;
  hi = MAX (w, h);
  for (guint i = 0; i < 24; i++)
    {
      r = (lo + hi) / 2;
      covered = stroke_lines (preview, file, x0, x1, y, r, &target);
      if (covered > 210000)
        hi = r;
      else if (covered < 190000)
        lo = r;
      else
        break;
    }
  tress_fur_preview_set_paint_mode (preview, TRUE);
  tress_fur_preview_set_paint_target (preview, target);
  tress_fur_preview_set_brush (preview, r, 0.5);
  full = tress_fur_preview_time_frames (preview, 3);
  before = tress_cha_file_serialize (file);

  t = g_get_monotonic_time ();
  tress_fur_preview_paint_begin (preview, x0, y, TRESS_CHA_PAINT_ADD);
  tress_fur_preview_draw_now (preview);
  for (guint i = 1; i <= steps; i++)
    {
      gint64 s = g_get_monotonic_time ();

      tress_fur_preview_paint_to (preview, x0 + (x1 - x0) * i / steps, y);
      tress_fur_preview_paint_frame (preview);
      painting += (g_get_monotonic_time () - s) / 1e6;
      drawing += tress_fur_preview_draw_now (preview);
      worst = MAX (worst, (g_get_monotonic_time () - s) / 1e6);
    }
  stroke = (g_get_monotonic_time () - t) / 1e6;
  left = tress_fur_preview_get_n_pending_dabs (preview);
  t = g_get_monotonic_time ();
  n_changed = tress_fur_preview_paint_end (preview);
  tress_fur_preview_draw_now (preview);
  end_s = (g_get_monotonic_time () - t) / 1e6;
  printf (
      "painting weights, big brush (%.0f px, the creature filling the view): a stroke of %u steps "
      "over "
      "%u lines changed %u (\"%s\"): %.1f ms a step = %.1f frames a second%s, slowest step "
      "%.1f ms (painting %.1f ms, drawing %.1f ms a step), %u dabs still queued at the end; a bare "
      "frame of the whole mesh %.1f ms "
      "(%.1f fps): a step costs %.2f× a bare frame; ending the stroke (the queued dabs, undo "
      "step, views) %.0f ms\n",
      r, steps, covered, n_changed, tress_history_get_undo_label (history), stroke / steps * 1e3,
      steps / stroke, steps / stroke >= 30 ? " [≥ 30 fps]" : " [< 30 fps]", worst * 1e3,
      painting / steps * 1e3, drawing / steps * 1e3, left, full * 1e3, 1 / full,
      stroke / steps / full, end_s * 1e3);
  /* One undo step puts every byte back. */
  tress_history_undo (history);
  after = tress_cha_file_serialize (tress_cha_document_get_cha (doc));
  if (before != NULL && after != NULL && !g_bytes_equal (before, after))
    printf ("painting weights, big brush: undo did NOT restore the bytes\n");
  tress_fur_preview_set_paint_mode (preview, FALSE);
}

/* The window while a whole-file retarget runs, from the moment the edit is
 * asked for until it has been applied and drawn: the longest gap between two
 * runs of a 5 ms timeout (whether the main loop answers), against the same
 * gap with nothing to do in the same run; the frame clock's ticks too. */
typedef struct
{
  gint64 last, longest;
  guint ticks;
} Ticks;

static void
tick (Ticks *t)
{
  gint64 now = g_get_monotonic_time ();

  if (t->last != 0)
    t->longest = MAX (t->longest, now - t->last);
  t->last = now;
  t->ticks++;
}

static gboolean
on_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  tick (data);
  return G_SOURCE_CONTINUE;
}

/* A timeout every 5 ms: whether the main loop answers at all. */
static gboolean
on_timeout (gpointer data)
{
  tick (data);
  return G_SOURCE_CONTINUE;
}

static void
retarget_time (TressFurEditor *editor, GtkWindow *window)
{
  TressChaDocument *doc = tress_fur_editor_get_document (editor);
  TressFurPreview *preview = tress_fur_editor_get_preview (editor);
  TressHistory *history = tress_document_get_history (TRESS_DOCUMENT (doc));
  guint steps = tress_history_get_n_undo (history), id;
  Ticks ticks = { 0, 0, 0 }, loop = { 0, 0, 0 };
  gint64 t, idle_end, planned_at = 0;
  double whole, idle_gap, asked, bare, planning_gap = 0, planning_frames = 0;
  guint timeout;

  /* A bare frame of the whole mesh in this run (two views: each a full
   * redraw): what any full redraw costs. */
  bare = tress_fur_preview_time_frames (preview, 2);
  /* The frame clock idle first: the gap it shows with nothing to do. */
  id = gtk_widget_add_tick_callback (GTK_WIDGET (window), on_tick, &ticks, NULL);
  timeout = g_timeout_add (5, on_timeout, &loop);
  idle_end = g_get_monotonic_time () + G_USEC_PER_SEC / 2;
  while (g_get_monotonic_time () < idle_end)
    g_main_context_iteration (NULL, FALSE);
  idle_gap = loop.longest / 1e3;
  ticks.longest = ticks.last = 0;
  ticks.ticks = 0;
  t = ticks.last = loop.last = g_get_monotonic_time ();
  loop.longest = 0;
  loop.ticks = 0;
  gtk_widget_activate_action (GTK_WIDGET (editor), "fur.retarget", "(uuu)", 0, 5, 2);
  asked = (g_get_monotonic_time () - t) / 1e6;
  /* While the worker plans (until the edit is performed): the window's gaps. */
  while (tress_history_get_n_undo (history) != steps + 1 && tress_fur_job_running (doc))
    {
      g_main_context_iteration (NULL, FALSE);
      if (tress_history_get_n_undo (history) == steps)
        {
          planning_gap = MAX (loop.longest, g_get_monotonic_time () - loop.last) / 1e3;
          planning_frames = ticks.ticks;
        }
    }
  planned_at = g_get_monotonic_time ();
  WAIT_FOR (tress_history_get_n_undo (history) == steps + 1);
  tress_test_spin (300);
  whole = (g_get_monotonic_time () - t) / 1e6;
  ticks.longest = MAX (ticks.longest, g_get_monotonic_time () - ticks.last);
  loop.longest = MAX (loop.longest, g_get_monotonic_time () - loop.last);
  gtk_widget_remove_tick_callback (GTK_WIDGET (window), id);
  g_source_remove (timeout);
  printf ("whole-file retarget, 100,000 ribbons (\"%s\"): %.0f ms until applied and drawn (%.0f "
          "ms in the action itself, %.0f ms planned in the worker); while it planned the main "
          "loop's longest gap (a 5 ms timeout) was %.0f ms%s, the frame clock ticked %.0f times; "
          "then performing it and drawing the recoloured mesh: longest gap overall %.0f ms = "
          "%.2f× a bare frame of the whole mesh (%.0f ms, this run) [%s]; idle the loop's longest "
          "gap %.1f ms; the frame clock ticked %u times in all, its longest gap %.0f ms\n",
          tress_history_get_undo_label (history), whole * 1e3, asked * 1e3, (planned_at - t) / 1e3,
          planning_gap, planning_gap <= 100 ? " [answers within 100 ms]" : " [> 100 ms]",
          planning_frames, loop.longest / 1e3, loop.longest / 1e3 / (bare * 1e3), bare * 1e3,
          loop.longest <= 100000 ? "answers within 100 ms" : "> 100 ms: the redraw", idle_gap,
          ticks.ticks, ticks.longest / 1e3);
  tress_history_undo (history);

  /* The baseline, in the same run: the same edit made at once on this
   * thread, as the editor did before planning it in a worker. */
  {
    TressChaScope whole_file = { -1, NULL, 0 };
    double at_once;

    tress_test_spin (1500);
    timeout = g_timeout_add (5, on_timeout, &loop);
    tress_test_spin (100);
    t = loop.last = g_get_monotonic_time ();
    loop.longest = 0;
    tress_cha_retarget (tress_cha_document_get_cha (doc), history, &whole_file, 0, 5, NULL);
    at_once = (g_get_monotonic_time () - t) / 1e6;
    WAIT_FOR (tress_history_get_n_undo (history) == steps + 1);
    tress_test_spin (300);
    loop.longest = MAX (loop.longest, g_get_monotonic_time () - loop.last);
    g_source_remove (timeout);
    printf ("whole-file retarget made at once on the UI thread (the baseline, this run): %.0f ms "
            "in the edit itself; the main loop's longest gap %.0f ms = %.2f× a bare frame of the "
            "whole mesh\n",
            at_once * 1e3, loop.longest / 1e3, loop.longest / 1e3 / (bare * 1e3));
    tress_history_undo (history);
  }
}

static void
frame_time (TressFurEditor *editor, const char *what, guint frames, gboolean moving)
{
  TressFurPreview *preview = tress_fur_editor_get_preview (editor);
  const TressFurMesh *mesh;
  double t, base;
  gsize vertex_bytes;

  WAIT_FOR (tress_fur_preview_get_gl_ready (preview) || tress_fur_preview_get_gl_error (preview));
  if (!tress_fur_preview_get_gl_ready (preview))
    {
      printf ("%s: GL unavailable (%s)\n", what, tress_fur_preview_get_gl_error (preview));
      return;
    }
  {
    /* Wait until the pane has its size (a new page is laid out first). */
    int w, h;
    GBytes *probe;

    WAIT_FOR ((probe = tress_fur_preview_grab (preview, &w, &h)) != NULL);
    g_bytes_unref (probe);
  }
  mesh = tress_fur_preview_get_mesh (preview);
  /* Positions and point ids per vertex, strip indices (one restart per ribbon),
   * colour and selection per ribbon. */
  vertex_bytes = (gsize)mesh->n_vertices * (12 + 4)
                 + ((gsize)mesh->n_vertices + mesh->n_ribbons) * 4 + (gsize)mesh->n_ribbons * 5;
  tress_fur_preview_set_interacting (preview, moving);
  t = tress_fur_preview_time_frames (preview, frames);
  base = memcpy_seconds (vertex_bytes);
  printf ("preview frame, %s%s (%u of %u ribbons drawn, %u triangles in all): %.2f ms = %.1f fps "
          "(%.1f× memcpy of its %.1f MB of vertex data)%s\n",
          what, moving ? ", view moving" : "", tress_fur_preview_get_n_ribbons_drawn (preview),
          mesh->n_ribbons, mesh->n_triangles, t * 1e3, 1 / t, t / base, vertex_bytes / 1e6,
          mesh->n_ribbons <= 2000 || moving ? (t <= 1 / 60.0 ? " [≥ 60 fps]" : " [< 60 fps]") : "");
  tress_fur_preview_set_interacting (preview, FALSE);
}

int
main (int argc, char *argv[])
{
  g_autoptr (TressApplication) app = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tress-bench-fur-XXXXXX", NULL);
  g_autofree char *screenshot = NULL;
  g_autofree char *launch_file = NULL;
  g_autofree char *big = NULL;
  g_autofree char *small = NULL;
  GOptionEntry entries[] = { { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, &screenshot,
                               "Write the editor with the demo creature to PNG", "PNG" },
                             { "launch", 0, 0, G_OPTION_ARG_FILENAME, &launch_file,
                               "Open FILE, print the time to the first frame and exit", "FILE" },
                             { NULL } };
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  gsize big_size, small_size;
  TressWindow *window;
  TressFurEditor *editor;
  gboolean first_frame = FALSE;
  double rss_before, rss_after, launch;

  t_main = g_get_monotonic_time ();
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  gtk_init ();
  app = tress_application_new ();
  g_application_set_flags (G_APPLICATION (app),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  if (screenshot != NULL)
    {
      small = write_file (dir, "demo.cha", NULL, 0, &small_size);
      window = tress_window_new (GTK_APPLICATION (app));
      tress_window_set_remember_size (window, FALSE);
      gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
      gtk_window_present (GTK_WINDOW (window));
      editor = open_in (window, small, &first_frame);
      {
        /* Every 25th ribbon of the body fur: the highlight shows over the creature. */
        g_autoptr (GString) list = g_string_new (NULL);

        for (guint r = 0; r < 1800; r += 25)
          g_string_append_printf (list, "%s0:%u", r == 0 ? "" : ",", r);
        gtk_widget_activate_action (GTK_WIDGET (editor), "fur.select-ribbons", "s", list->str);
      }
      WAIT_FOR (first_frame);
      {
        /* Past the window's page transition. */
        gint64 end = g_get_monotonic_time () + 2 * G_USEC_PER_SEC;

        while (g_get_monotonic_time () < end)
          if (!g_main_context_iteration (NULL, FALSE))
            g_usleep (1000);
      }
      if (!tress_window_render_png (GTK_WINDOW (window), screenshot, &error))
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      gtk_window_destroy (GTK_WINDOW (window));
      return 0;
    }

  if (launch_file != NULL)
    {
      /* The child of the launch measurement: main() → first drawn frame. */
      rss_before = rss_mb ();
      window = tress_window_new (GTK_APPLICATION (app));
      tress_window_set_remember_size (window, FALSE);
      gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
      gtk_window_present (GTK_WINDOW (window));
      editor = open_in (window, launch_file, &first_frame);
      WAIT_FOR (first_frame);
      launch = (g_get_monotonic_time () - t_main) / 1e6;
      WAIT_FOR (t_full_frame != 0);
      rss_after = rss_mb ();
      printf ("first-frame %.3f full-frame %.3f rss-before %.1f rss-opened %.1f rss-after %.1f\n",
              launch, (t_full_frame - t_main) / 1e6, rss_before, rss_opened, rss_after);
      {
        /* Edit latency: select 1,000 ribbons, set their weights, undo. */
        g_autoptr (GString) list = g_string_new (NULL);
        gint64 t;
        double select_s, edit_s, undo_s;

        for (guint r = 0; r < 100000 && r / 50 < 1000; r += 50)
          g_string_append_printf (list, "%s0:%u", r == 0 ? "" : ",", r);
        t = g_get_monotonic_time ();
        gtk_widget_activate_action (GTK_WIDGET (editor), "fur.select-ribbons", "s", list->str);
        select_s = (g_get_monotonic_time () - t) / 1e6;
        t = g_get_monotonic_time ();
        gtk_widget_activate_action (GTK_WIDGET (editor), "fur.set-weights", "(yyy)", 100, 100, 55);
        edit_s = (g_get_monotonic_time () - t) / 1e6;
        t = g_get_monotonic_time ();
        gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
        undo_s = (g_get_monotonic_time () - t) / 1e6;
        printf ("edit latency in the 100,000-ribbon file: select 1,000 ribbons %.0f ms, set their "
                "weights %.0f ms, undo %.0f ms (views, validation and preview mesh included)\n",
                select_s * 1e3, edit_s * 1e3, undo_s * 1e3);
      }
      {
        /* Sorting the tree with the big material expanded (a selected ribbon
         * shows it): every one of its rows is compared. */
        TressChaDocument *doc = tress_fur_editor_get_document (editor);
        GtkColumnView *view = tress_fur_editor_get_column_view (editor);
        GListModel *columns = gtk_column_view_get_columns (view);
        GListModel *rows = G_LIST_MODEL (tress_fur_editor_get_tree_selection (editor));
        gint64 t;
        double sort_s = 0, unsort_s;

        tress_cha_document_set_selection (doc, &(TressChaRibbonId){ 0, 0 }, 1, NULL);
        tress_test_spin (5);
        for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
          {
            g_autoptr (GtkColumnViewColumn) col = g_list_model_get_item (columns, i);

            if (g_strcmp0 (gtk_column_view_column_get_title (col), "Sections") == 0)
              {
                t = g_get_monotonic_time ();
                gtk_column_view_sort_by_column (view, col, GTK_SORT_DESCENDING);
                tress_test_spin (1);
                sort_s = (g_get_monotonic_time () - t) / 1e6;
              }
          }
        t = g_get_monotonic_time ();
        gtk_column_view_sort_by_column (view, NULL, GTK_SORT_ASCENDING);
        tress_test_spin (1);
        unsort_s = (g_get_monotonic_time () - t) / 1e6;
        printf ("tree of the 100,000-ribbon file with its big material expanded (%u rows): sort by "
                "sections %.0f ms, back to file order %.0f ms\n",
                g_list_model_get_n_items (rows), sort_s * 1e3, unsort_s * 1e3);
      }
      frame_time (editor, "100,000 ribbons", 3, FALSE);
      frame_time (editor, "100,000 ribbons", 10, TRUE);
      paint_time (editor);
      big_stroke_time (editor);
      retarget_time (editor, GTK_WINDOW (window));
      gtk_window_destroy (GTK_WINDOW (window));
      return 0;
    }

  /* Launch to first frame, in a fresh process: first with a 100-ribbon file
   * (the fixed cost of GTK, the window and a GL context), then the 100,000. */
  small = write_file (dir, "hundred.cha", NULL, 100, &small_size);
  big = write_file (dir, "stress.cha", "stress", 0, &big_size);
  {
    g_autofree char *small_out = NULL;
    g_autofree char *out = NULL;
    LaunchFigures sf, bf;
    double spawn_to_exit;
    const char *line;

    run_launch_child (argv[0], small, &small_out, &sf, NULL);
    run_launch_child (argv[0], big, &out, &bf, &spawn_to_exit);
    printf ("file: 100,000 ribbons, %.1f MB\n", big_size / 1e6);
    printf ("launch to first frame (100,000 ribbons): %.2f s from main() (%.0f× memcpy of the "
            "file), first full frame %.2f s; process start to exit %.2f s; with 100 ribbons: "
            "%.2f s\n",
            bf.launch, bf.launch / memcpy_seconds (big_size), bf.full, spawn_to_exit, sf.launch);
    printf ("memory after opening, editor built (before any GL): %.1f MB more than with the "
            "100-ribbon file = %.1f× the file size\n",
            bf.rss_opened - sf.rss_opened,
            (bf.rss_opened - sf.rss_opened) * 1024 * 1024 / big_size);
    printf ("memory after the first full frame: %.1f MB resident in all, %.1f MB more than with "
            "the 100-ribbon file = %.1f× the file size\n",
            bf.rss_after, bf.rss_after - sf.rss_after,
            (bf.rss_after - sf.rss_after) * 1024 * 1024 / big_size);
    line = strstr (out, "edit latency");
    if (line != NULL)
      fputs (line, stdout);
  }
  g_remove (small);
  g_free (small);

  small = write_file (dir, "two-thousand.cha", NULL, 2000, &small_size);
  window = tress_window_new (GTK_APPLICATION (app));
  tress_window_set_remember_size (window, FALSE);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  editor = open_in (window, small, NULL);
  frame_time (editor, "2,000 ribbons", 60, FALSE);

  gtk_window_destroy (GTK_WINDOW (window));
  g_remove (big);
  g_remove (small);
  g_rmdir (dir);
  return 0;
}
