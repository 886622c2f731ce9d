/* bench-dope-sheet.c: the dope sheet drawing a whole kind of curves, against the graph
 *
 * The curve editor in a window of the default size (960×640) under Xvfb, on
 * Animal_Dog_Animation.bfres with the tree's top row selected (the
 * "Skeletal" kind: 4,464 curves, 233,794 keys). In the same run, the same
 * selection, the same window:
 *  - the graph: a frame after its lines were invalidated (what an edit or a
 *    new view costs), and a frame with its lines cached;
 *  - the dope sheet in the graph's place: a frame with its rows at the top
 *    (the summary binning all 4,464 curves, and the animations, closed: 51
 *    rows made), then with every group opened (6,041 rows) scrolled to the
 *    middle of its rows.
 * Each figure is the best of seven rounds, in milliseconds on the clock and in
 * processor time of the whole program, for the whole frame (frame clock to
 * after-paint) and for the widget's snapshot() alone (building its render
 * nodes, where the dope sheet's binning happens).
 *
 *   meson test -C build --benchmark --suite curves --verbose dope-sheet-draw
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gtk/gtk.h>

#include "curves/tress-curve-editor.h"
#include "curves/tress-dope-sheet.h"
#include "tress-application.h"
#include "tress-document-page.h"
#include "bench-timing.h"
#include "tress-test-utils.h"
#include "tress-window.h"

#define ROUNDS 7

static TressApplication *app;

typedef struct
{
  double wall, cpu; /* seconds */
} Cost;

typedef struct
{
  TressWindow *window;
  TressCurveEditor *editor;
  TressCurveView *view;
  TressDopeSheet *sheet;
  guint paints;
} Fixture;

static void
on_after_paint (GdkFrameClock *clock, Fixture *f)
{
  f->paints++;
}

static void
keep_best (Cost *best, gint64 w0, double c0)
{
  best->wall = MIN (best->wall, (g_get_monotonic_time () - w0) / 1e6);
  best->cpu = MIN (best->cpu, bench_process_seconds () - c0);
}

/* A frame of @widget painted after @prepare (may be NULL) ran. */
static Cost
frame_of (Fixture *f, GtkWidget *widget, void (*prepare) (Fixture *))
{
  Cost best = { G_MAXDOUBLE, G_MAXDOUBLE };

  for (int round = 0; round < ROUNDS; round++)
    {
      guint before;
      gint64 w0;
      double c0;

      TRESS_TEST_WAIT_FOR (!gtk_widget_get_realized (widget) || f->paints > 0);
      tress_test_spin (20);
      before = f->paints;
      w0 = g_get_monotonic_time ();
      c0 = bench_process_seconds ();
      if (prepare != NULL)
        prepare (f);
      gtk_widget_queue_draw (widget);
      TRESS_TEST_WAIT_FOR (f->paints > before);
      keep_best (&best, w0, c0);
    }
  return best;
}

/* @widget's snapshot() alone, after @prepare. */
static Cost
snapshot_of (Fixture *f, GtkWidget *widget, void (*prepare) (Fixture *))
{
  Cost best = { G_MAXDOUBLE, G_MAXDOUBLE };

  for (int round = 0; round < ROUNDS; round++)
    {
      GtkSnapshot *snapshot;
      GskRenderNode *node;
      gint64 w0;
      double c0;

      if (prepare != NULL)
        prepare (f);
      snapshot = gtk_snapshot_new ();
      w0 = g_get_monotonic_time ();
      c0 = bench_process_seconds ();
      GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
      node = gtk_snapshot_free_to_node (snapshot);
      keep_best (&best, w0, c0);
      if (node != NULL)
        gsk_render_node_unref (node);
    }
  return best;
}

/* The graph's lines painted again, as after an edit. */
static void
invalidate_graph (Fixture *f)
{
  TressCurveViewport vp;

  tress_curve_view_get_viewport (f->view, &vp);
  tress_curve_view_set_viewport (f->view, &vp);
}

static void
report (const char *what, Cost frame, Cost snap, Cost base)
{
  g_print ("  %-44s frame %7.1f ms (%7.1f ms processor) %5.1f× the graph's; "
           "snapshot() %7.2f ms (%7.2f ms processor)\n",
           what, frame.wall * 1e3, frame.cpu * 1e3, frame.wall / MAX (base.wall, 1e-9),
           snap.wall * 1e3, snap.cpu * 1e3);
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;
  g_autoptr (GFile) file = NULL;
  Fixture fx = { 0 }, *f = &fx;
  Cost graph_frame, graph_snap, cached_frame, cached_snap, top_frame, top_snap, mid_frame, mid_snap;
  guint top_marks, mid_marks, n_rows, n_open_rows;
  double open_s;

  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  path = tress_test_sample_path ("bfres/Animal_Dog_Animation.bfres");
  if (path == NULL)
    {
      g_print ("Animal_Dog_Animation.bfres not found: nothing measured\n");
      return 0;
    }
  app = tress_application_new ();
  g_application_set_flags (G_APPLICATION (app),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  file = g_file_new_for_path (path);
  f->window = tress_window_new (GTK_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (f->window), 960, 640);
  gtk_window_present (GTK_WINDOW (f->window));
  TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (GTK_WIDGET (f->window)));
  tress_window_open_file (f->window, file);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (f->window) == 1
                       && !tress_window_get_busy (f->window));
  f->editor = TRESS_CURVE_EDITOR (
      tress_document_page_get_editor (tress_window_get_current_page (f->window)));
  f->view = tress_curve_editor_get_view (f->editor);
  f->sheet = tress_curve_editor_get_dope_sheet (f->editor);
  g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (f->window)), "after-paint",
                    G_CALLBACK (on_after_paint), f);
  tress_curve_editor_set_dope_sheet_shown (f->editor, FALSE);
  TRESS_TEST_WAIT_FOR (gtk_widget_get_width (GTK_WIDGET (f->view)) > 0);

  /* The Skeletal kind: every curve. */
  tress_curve_editor_click_row (f->editor, 0, FALSE, FALSE);
  TRESS_TEST_WAIT_FOR (tress_curve_view_get_n_curves (f->view) == 4464);
  tress_test_spin (200);

  graph_frame = frame_of (f, GTK_WIDGET (f->view), invalidate_graph);
  graph_snap = snapshot_of (f, GTK_WIDGET (f->view), invalidate_graph);
  cached_frame = frame_of (f, GTK_WIDGET (f->view), NULL);
  cached_snap = snapshot_of (f, GTK_WIDGET (f->view), NULL);

  tress_curve_editor_set_dope_sheet_shown (f->editor, TRUE);
  TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (GTK_WIDGET (f->sheet))
                       && gtk_widget_get_width (GTK_WIDGET (f->sheet)) > 0);
  tress_test_spin (200);
  n_rows = tress_dope_sheet_get_n_rows (f->sheet);
  tress_dope_sheet_set_first_row (f->sheet, 0);
  top_frame = frame_of (f, GTK_WIDGET (f->sheet), NULL);
  top_snap = snapshot_of (f, GTK_WIDGET (f->sheet), NULL);
  top_marks = tress_dope_sheet_get_n_marks_drawn (f->sheet);
  /* Every group opened, as its triangle does, row by row from the top. */
  open_s = g_get_monotonic_time ();
  for (guint r = 0; r < tress_dope_sheet_get_n_rows (f->sheet); r++)
    if (tress_dope_sheet_get_row_channel (f->sheet, r) < 0 && r > 0
        && !tress_dope_sheet_get_row_open (f->sheet, r))
      tress_dope_sheet_set_row_open (f->sheet, r, TRUE);
  n_open_rows = tress_dope_sheet_get_n_rows (f->sheet);
  open_s = (g_get_monotonic_time () - open_s) / 1e6;
  tress_test_spin (200);
  tress_dope_sheet_set_first_row (f->sheet, n_open_rows / 2);
  mid_frame = frame_of (f, GTK_WIDGET (f->sheet), NULL);
  mid_snap = snapshot_of (f, GTK_WIDGET (f->sheet), NULL);
  mid_marks = tress_dope_sheet_get_n_marks_drawn (f->sheet);

  g_print ("Animal_Dog_Animation.bfres, Skeletal kind (4464 curves), %d × %d px, best of %d:\n",
           gtk_widget_get_width (GTK_WIDGET (f->sheet)),
           gtk_widget_get_height (GTK_WIDGET (f->sheet)), ROUNDS);
  report ("graph, lines painted again", graph_frame, graph_snap, graph_frame);
  report ("graph, lines cached", cached_frame, cached_snap, graph_frame);
  report ("dope sheet, top rows (summary of all curves)", top_frame, top_snap, graph_frame);
  report ("dope sheet, all open, middle of its rows", mid_frame, mid_snap, graph_frame);
  g_print ("  dope sheet: %u rows made with the animations closed, %u marks drawn at the top;\n"
           "  %u with every group open (opened one by one in %.2f s), %u marks in the middle\n",
           n_rows, top_marks, n_open_rows, open_s, mid_marks);

  g_signal_handlers_disconnect_by_data (gtk_widget_get_frame_clock (GTK_WIDGET (f->window)), f);
  gtk_window_destroy (GTK_WINDOW (f->window));
  tress_test_spin (50);
  g_object_unref (app);
  return 0;
}
