/* bench-curve-drag.c: a pointer step of a box selection and of a key drag, to the frame drawn
 *
 * The curve editor in a window of the default size (960×640) under Xvfb, on
 * Animal_Dog_Animation.bfres with the tree's top row selected (the
 * "Skeletal" kind: 4,464 curves in the graph). The pointer is the X server's
 * (XTest), so each step goes through GTK's event handling and the graph's
 * gesture as a user's would. Each figure is one pointer step, from the motion
 * sent to the next frame painted, the best of STEPS steps, in milliseconds on
 * the clock and in processor time of the whole program:
 *  - the pointer moved over the graph with no button held, and the graph
 *    asked to draw again: it draws from what it keeps (the painted lines),
 *    and as nothing changed on screen GTK renders nothing;
 *  - baseline: the same with the playhead one frame on: the least the graph
 *    shows changed, which GTK renders (under Xvfb the whole window, by
 *    Mesa's software rasterizer, is most of the cost);
 *  - a step of a box selection begun on an empty spot of the graph (only the
 *    box changes);
 *  - a step of a drag of one key (one curve changes).
 * The ratios to the baseline are printed; the benchmark fails on none.
 *
 *   meson test -C build --benchmark --suite curves --verbose curve-drag
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gtk/gtk.h>
#include <math.h>
#include <time.h>

#include "../app/tress-test-pointer.h"
#include "curves/tress-curve-editor.h"
#include "tress-application.h"
#include "tress-document-page.h"
#include "tress-test-utils.h"
#include "tress-test-window.h"
#include "tress-window.h"

#define STEPS 12
#define N_CURVES 4464

typedef struct
{
  double wall, cpu; /* seconds */
} Cost;

typedef struct
{
  TressWindow *window;
  TressCurveEditor *editor;
  TressCurveView *view;
} Fixture;

static double
cpu_now (void)
{
  struct timespec ts;

  if (clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
    return g_get_monotonic_time () / 1e6;
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

typedef enum
{
  STEP_ONLY,     /* the pointer moves */
  STEP_REDRAW,   /* and the graph is asked to draw again */
  STEP_PLAYHEAD, /* and the playhead moves one frame on */
} Step;

/* The best of STEPS pointer moves from (@x, @y) by (@dx, @dy) each, each to
 * the frame painted after it (tress_test_pointer_move waits for both). */
static Cost
steps (Fixture *f, double x, double y, double dx, double dy, Step step)
{
  Cost best = { G_MAXDOUBLE, G_MAXDOUBLE };

  for (int i = 1; i <= STEPS; i++)
    {
      gint64 w0 = g_get_monotonic_time ();
      double c0 = cpu_now ();

      if (step == STEP_REDRAW)
        gtk_widget_queue_draw (GTK_WIDGET (f->view));
      else if (step == STEP_PLAYHEAD)
        tress_curve_view_set_playhead (f->view, tress_curve_view_get_playhead (f->view) + 1);
      tress_test_pointer_move (GTK_WIDGET (f->view), x + i * dx, y + i * dy);
      best.wall = MIN (best.wall, (g_get_monotonic_time () - w0) / 1e6);
      best.cpu = MIN (best.cpu, cpu_now () - c0);
    }
  return best;
}

/* Whether a key of a shown curve lies within @r pixels of (@x, @y). */
static gboolean
key_near (Fixture *f, double x, double y, double r)
{
  for (guint s = 0; s < tress_curve_view_get_n_curves (f->view); s++)
    {
      guint index = tress_curve_view_get_curve_index (f->view, s);
      const TressCurve *c = tress_curve_view_get_shown_curve (f->view, index);
      guint n = c != NULL ? tress_curve_get_n_keys (c) : 0;

      for (guint k = 0; k < n; k++)
        {
          double kx, ky;

          if (tress_curve_view_get_point (f->view, index, k, TRESS_CURVE_PART_KEY, &kx, &ky)
              && fabs (kx - x) <= r && fabs (ky - y) <= r)
            return TRUE;
        }
    }
  return FALSE;
}

/* A spot of the graph's left half with no key near it, where a press begins a box. */
static gboolean
empty_spot (Fixture *f, double *x, double *y)
{
  int w = gtk_widget_get_width (GTK_WIDGET (f->view));
  int h = gtk_widget_get_height (GTK_WIDGET (f->view));

  for (double sy = 40; sy < h - 60; sy += 17)
    for (double sx = 40; sx < w / 2.0; sx += 23)
      if (!key_near (f, sx, sy, 16))
        {
          *x = sx;
          *y = sy;
          return TRUE;
        }
  return FALSE;
}

/* A key in the middle third of the graph, to grab. */
static gboolean
grab_spot (Fixture *f, double *x, double *y)
{
  int w = gtk_widget_get_width (GTK_WIDGET (f->view));
  int h = gtk_widget_get_height (GTK_WIDGET (f->view));

  for (guint s = 0; s < tress_curve_view_get_n_curves (f->view); s++)
    {
      guint index = tress_curve_view_get_curve_index (f->view, s);
      const TressCurve *c = tress_curve_view_get_shown_curve (f->view, index);
      guint n = c != NULL ? tress_curve_get_n_keys (c) : 0;

      for (guint k = 0; k < n; k++)
        if (tress_curve_view_get_point (f->view, index, k, TRESS_CURVE_PART_KEY, x, y)
            && *x > w / 3.0 && *x < w / 2.0 && *y > h / 3.0 && *y < 2 * h / 3.0)
          return TRUE;
    }
  return FALSE;
}

static void
report (const char *what, Cost c, Cost base)
{
  g_print ("  %-34s %7.1f ms (%7.1f ms processor); %5.1f× the baseline on the clock, %5.1f× "
           "processor\n",
           what, c.wall * 1e3, c.cpu * 1e3, c.wall / MAX (base.wall, 1e-9),
           c.cpu / MAX (base.cpu, 1e-9));
}

int
main (int argc, char **argv)
{
  g_autofree char *path = NULL;
  Fixture fx = { 0 }, *f = &fx;
  Cost hover, playhead, box, drag;
  double bx, by, kx, ky;

  tress_test_window_init (&argc, &argv);
  path = tress_test_sample_path ("bfres/Animal_Dog_Animation.bfres");
  if (path == NULL)
    {
      g_print ("Animal_Dog_Animation.bfres not found: nothing measured\n");
      return 0;
    }
  f->window = tress_test_window_new (960, 640);
  if (!tress_test_pointer_available (GTK_WIDGET (f->window)))
    {
      g_print ("no XTest pointer: nothing measured\n");
      return 0;
    }
  f->editor = TRESS_CURVE_EDITOR (tress_document_page_get_editor (
      tress_test_window_open_file (f->window, path, TRESS_TYPE_CURVE_EDITOR)));
  f->view = tress_curve_editor_get_view (f->editor);
  tress_curve_editor_set_dope_sheet_shown (f->editor, FALSE);
  TRESS_TEST_WAIT_FOR (gtk_widget_get_width (GTK_WIDGET (f->view)) > 0);

  /* The Skeletal kind: every curve. */
  tress_curve_editor_click_row (f->editor, 0, FALSE, FALSE);
  TRESS_TEST_WAIT_FOR (tress_curve_view_get_n_curves (f->view) == N_CURVES);
  tress_test_spin (200);
  tress_curve_view_select_none (f->view);
  if (!empty_spot (f, &bx, &by) || !grab_spot (f, &kx, &ky))
    g_error ("no empty spot or no key in the graph's middle");

  /* Baseline: the pointer over the graph, no button held. */
  tress_test_pointer_move (GTK_WIDGET (f->view), bx, by);
  tress_test_spin (100);
  hover = steps (f, bx, by, 6, 4, STEP_REDRAW);
  playhead = steps (f, bx, by, 6, -2, STEP_PLAYHEAD);

  /* A box from the empty spot. */
  tress_test_pointer_move (GTK_WIDGET (f->view), bx, by);
  tress_test_pointer_button (1, TRUE);
  tress_test_pointer_move (GTK_WIDGET (f->view), bx + 8, by + 8); /* past the drag threshold */
  box = steps (f, bx + 8, by + 8, 6, 4, STEP_ONLY);
  tress_test_pointer_button (1, FALSE);
  tress_test_spin (100);
  g_print ("Animal_Dog_Animation.bfres, Skeletal kind (%u curves), graph %d × %d px, "
           "best of %d pointer steps:\n",
           N_CURVES, gtk_widget_get_width (GTK_WIDGET (f->view)),
           gtk_widget_get_height (GTK_WIDGET (f->view)), STEPS);
  g_print ("  the box selected %u keys\n", tress_curve_view_get_n_selected_keys (f->view));

  /* A key dragged: pressed on, then moved. */
  tress_curve_view_select_none (f->view);
  tress_test_pointer_move (GTK_WIDGET (f->view), kx, ky);
  tress_test_pointer_button (1, TRUE);
  tress_test_pointer_move (GTK_WIDGET (f->view), kx + 2, ky + 8); /* past the drag threshold */
  drag = steps (f, kx + 2, ky + 8, 3, 3, STEP_ONLY);
  g_print ("  the drag moves %u key(s)\n", tress_curve_view_get_n_selected_keys (f->view));
  tress_test_pointer_button (1, FALSE);
  tress_test_spin (100);

  report ("pointer moved, graph redrawn", hover, playhead);
  report ("baseline: and the playhead moved", playhead, playhead);
  report ("box selection, one step", box, playhead);
  report ("key drag, one step", drag, playhead);

  gtk_window_destroy (GTK_WINDOW (f->window));
  tress_test_spin (50);
  return 0;
}
