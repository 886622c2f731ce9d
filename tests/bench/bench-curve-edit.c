/* bench-curve-edit.c: an edit of every key of the biggest sample, to the first frame drawn
 *
 * The curve editor in a window of the default size (960×640) under Xvfb, on
 * Animal_Dog_Animation.bfres: the "Skeletal" kind selected (4,464 curves) and
 * every key of it (233,794) selected, then
 *  1. the Up key's nudge of every selected key (one undo step: every curve
 *     stored again in the file's quantization, the curves tree's counts, the
 *     graph and the preview brought up to date), until the next frame;
 *  2. its undo, until the next frame.
 * Baseline of the same run: a bare frame of the same window with the same
 * selection (nothing changed, the graph asked to draw again). Each figure is
 * the best of three rounds, on the clock and in processor time of the whole
 * program (every thread), as on a shared machine the clock says as much about
 * the others' load as about the editor.
 *
 *   meson test -C build --benchmark --suite curves --verbose curve-edit
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gtk/gtk.h>

#include "bench-timing.h"
#include "curves/tress-curve-editor.h"
#include "document/tress-curve-document.h"
#include "tress-test-utils.h"
#include "tress-test-window.h"

#define ROUNDS 3

typedef struct
{
  double wall, cpu; /* seconds */
} Cost;

/* Runs @action of @widget (NULL: none) and waits for the next frame of @view. */
static Cost
timed (GtkWidget *view, GtkWidget *widget, const char *action, GVariant *param)
{
  gint64 w0 = g_get_monotonic_time ();
  double c0 = bench_process_seconds ();

  if (action != NULL)
    g_assert_true (gtk_widget_activate_action_variant (widget, action, param));
  tress_test_wait_frame (view);
  return (Cost){ (g_get_monotonic_time () - w0) / 1e6, bench_process_seconds () - c0 };
}

static void
keep_best (Cost *best, Cost c)
{
  best->wall = MIN (best->wall, c.wall);
  best->cpu = MIN (best->cpu, c.cpu);
}

static void
report (const char *what, Cost c, Cost bare)
{
  g_print ("%s: %.0f ms (%.0f ms processor); %.0f× a bare frame on the clock, %.0f× processor\n",
           what, c.wall * 1e3, c.cpu * 1e3, c.wall / MAX (bare.wall, 1e-6),
           c.cpu / MAX (bare.cpu, 1e-6));
}

int
main (int argc, char **argv)
{
  g_autofree char *dog = NULL;
  TressTestWindow tw = { 0 };
  TressCurveEditor *editor;
  GtkWidget *view;
  TressCurveDocument *doc;
  TressHistory *history;
  Cost bare = { G_MAXDOUBLE, G_MAXDOUBLE }, nudge = bare, undo = bare;
  guint last;
  double before;

  tress_test_window_init (&argc, &argv);
  dog = tress_test_sample_path ("bfres/Animal_Dog_Animation.bfres");
  if (dog == NULL)
    {
      g_print ("bench-curve-edit: Animal_Dog_Animation.bfres not found (TRESS_SAMPLES_DIR)\n");
      return 0;
    }
  tress_test_window_open (&tw, dog, TRESS_TYPE_CURVE_EDITOR, 960, 640);
  editor = TRESS_CURVE_EDITOR (tw.editor);
  view = GTK_WIDGET (tress_curve_editor_get_view (editor));
  doc = tress_curve_editor_get_document (editor);
  history = tress_document_get_history (TRESS_DOCUMENT (doc));
  gtk_selection_model_select_item (tress_curve_editor_get_tree_selection (editor), 0, TRUE);
  g_assert_cmpuint (tress_curve_view_get_n_curves (TRESS_CURVE_VIEW (view)), ==, 4464);
  timed (view, view, "curve.select-all", NULL);
  g_print ("every key of the Skeletal kind: %u curves, %u keys selected\n",
           tress_curve_view_get_n_curves (TRESS_CURVE_VIEW (view)),
           tress_curve_view_get_n_selected_keys (TRESS_CURVE_VIEW (view)));
  last = tress_curve_document_get_n_curves (doc) - 1;
  before = tress_curve_get_key (tress_curve_document_get_curve (doc, last), 0)->value;
  for (int round = 0; round < ROUNDS; round++)
    {
      timed (view, NULL, NULL, NULL);
      keep_best (&bare, timed (view, NULL, NULL, NULL));
      keep_best (&nudge, timed (view, view, "curve.nudge", g_variant_new ("(ii)", 0, 1)));
      /* The edit happened, as one step. */
      g_assert_cmpfloat (tress_curve_get_key (tress_curve_document_get_curve (doc, last), 0)->value,
                         >, before);
      g_assert_cmpuint (tress_history_get_n_undo (history), ==, 1);
      keep_best (&undo, timed (view, GTK_WIDGET (tw.window), "win.undo", NULL));
      g_assert_cmpfloat (tress_curve_get_key (tress_curve_document_get_curve (doc, last), 0)->value,
                         ==, before);
    }
  g_print ("bare frame: %.1f ms (%.1f ms processor)\n", bare.wall * 1e3, bare.cpu * 1e3);
  report ("nudge every key, to the next frame", nudge, bare);
  report ("its undo, to the next frame", undo, bare);
  tress_test_window_close (&tw);
  return 0;
}
