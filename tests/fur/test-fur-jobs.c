/* test-fur-jobs.c: whole-file fur edits planned off the UI thread
 *
 * On a creature of 120,000 lines (over TRESS_FUR_JOB_MIN_SIZE) at 960×640:
 * weights set on every line, a whole-file retarget and Fix All run as jobs:
 * the action returns before the edit is made, the job bar shows, the panes
 * take no pointer input (a shield over them) nor the focus, undo is held; Cancel leaves the file's
 * bytes and the history as they were; a job left to finish is one undo step. Each result is saved
 * to disk and read back with the tests' own decoder (tests/tress-test-cha.c): every weight triple
 * sums to 255, and undo saves the very bytes of the file as opened.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gtk/gtk.h>
#include <string.h>

#include "formats/cha/tress-cha-demo.h"
#include "fur/tress-fur-editor.h"
#include "fur/tress-fur-jobs.h"
#include "fur/tress-fur-preview.h"
#include "tress-test-cha.h"
#include "tress-test-utils.h"
#include "tress-test-window.h"

typedef struct
{
  TressTestWindow tw;
  TressChaDocument *doc;
  TressHistory *history;
  TressFurJobBar *bar;
  char *path, *saved;
} Fixture;

static GtkWidget *
find_type (GtkWidget *w, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (w, type))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_type (c, type);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  TressChaDemoOptions options;
  g_autoptr (GBytes) bytes = NULL;

  tress_cha_demo_options_init (&options);
  options.n_ribbons = 28000;
  bytes = tress_cha_demo_generate_bytes (&options);
  f->path = g_build_filename (tress_test_tmpdir (), "jobs.cha", NULL);
  f->saved = g_build_filename (tress_test_tmpdir (), "jobs-saved.cha", NULL);
  g_assert_true (g_file_set_contents (f->path, g_bytes_get_data (bytes, NULL),
                                      (gssize)g_bytes_get_size (bytes), NULL));
  tress_test_window_open (&f->tw, f->path, TRESS_TYPE_FUR_EDITOR, 960, 640);
  f->doc = tress_fur_editor_get_document (TRESS_FUR_EDITOR (f->tw.editor));
  f->history = tress_document_get_history (TRESS_DOCUMENT (f->doc));
  f->bar = TRESS_FUR_JOB_BAR (find_type (f->tw.editor, TRESS_TYPE_FUR_JOB_BAR));
  g_assert_nonnull (f->bar);
  /* Laid out: the shield lies over the panes. */
  TRESS_TEST_WAIT_FOR (gtk_widget_get_width (tress_fur_job_bar_get_shield (f->bar)) > 0);
  tress_test_wait_idle ();
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  tress_test_window_close (&f->tw);
  g_free (f->path);
  g_free (f->saved);
}

/* The document saved to another file (a copy: the document keeps its own),
 * its bytes read back from disk. */
static GBytes *
save_and_read (Fixture *f)
{
  g_autoptr (GFile) out = g_file_new_for_path (f->saved);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) model = tress_cha_file_serialize (tress_cha_document_get_cha (f->doc));
  char *contents = NULL;
  gsize size = 0;

  g_assert_true (g_file_replace_contents (out, g_bytes_get_data (model, NULL),
                                          g_bytes_get_size (model), NULL, FALSE, G_FILE_CREATE_NONE,
                                          NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (f->saved, &contents, &size, NULL));
  return g_bytes_new_take (contents, size);
}

static TressTestChaStats
decode (GBytes *bytes)
{
  TressTestChaStats stats;
  const char *why = NULL;
  gboolean ok = tress_test_cha_decode (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                       &stats, &why);

  if (!ok)
    g_test_message ("decoder: %s", why);
  g_assert_true (ok);
  g_assert_cmpuint (stats.bad_weights, ==, 0);
  return stats;
}

static void
select_all (Fixture *f)
{
  TressChaFile *file = tress_cha_document_get_cha (f->doc);
  g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (TressChaRibbonId));

  for (guint m = 0; m < file->radeon->n_materials; m++)
    for (guint r = 0; r < file->radeon->materials[m].n_ribbons; r++)
      {
        TressChaRibbonId id = { m, r };
        g_array_append_val (ids, id);
      }
  tress_cha_document_set_selection (f->doc, (const TressChaRibbonId *)(gpointer)ids->data, ids->len,
                                    NULL);
}

/* The action started a job: nothing applied yet, the panes held. */
static void
assert_running (Fixture *f, guint steps)
{
  GtkWidget *panes = tress_test_find_named_type (f->tw.editor, "fur_layout", GTK_TYPE_BOX);

  g_assert_true (tress_fur_job_bar_is_busy (f->bar));
  g_assert_true (tress_fur_job_running (f->doc));
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, steps);
  g_assert_false (gtk_widget_get_can_focus (panes));
  /* The pointer over the tree reaches the shield, not the tree. */
  {
    GtkWidget *tree
        = GTK_WIDGET (tress_fur_editor_get_column_view (TRESS_FUR_EDITOR (f->tw.editor)));
    graphene_point_t p;

    g_assert_true (
        gtk_widget_compute_point (tree, f->tw.editor, &GRAPHENE_POINT_INIT (20, 20), &p));
    g_assert_true (gtk_widget_pick (f->tw.editor, p.x, p.y, GTK_PICK_DEFAULT)
                   == tress_fur_job_bar_get_shield (f->bar));
  }
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (f->bar)));
  /* Undo waits while the job runs, and revert (the worker reads the model). */
  g_assert_false (tress_history_undo (f->history));
  {
    g_autoptr (GError) error = NULL;

    g_assert_false (tress_document_revert (TRESS_DOCUMENT (f->doc), NULL, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PENDING);
  }
}

/* Runs @action twice: cancelled at once (nothing changes), then to its end
 * (one undo step; undo gives back the bytes as opened). */
static void
run_twice (Fixture *f, const char *action, GVariant *param, gboolean changes_weights)
{
  g_autoptr (GBytes) opened = save_and_read (f);
  g_autoptr (GBytes) cancelled = NULL;
  g_autoptr (GBytes) done = NULL;
  g_autoptr (GBytes) undone = NULL;
  g_autoptr (GBytes) redone = NULL;
  TressTestChaStats before = decode (opened), after;
  guint steps = tress_history_get_n_undo (f->history);

  if (param != NULL)
    g_variant_ref_sink (param);
  /* What the selection asked of the preview drawn first. */
  tress_test_wait_frame (f->tw.editor);
  tress_test_spin (500);
  g_assert_true (gtk_widget_activate_action_variant (f->tw.editor, action, param));
  assert_running (f, steps);
  g_assert_true (gtk_widget_is_sensitive (tress_fur_job_bar_get_cancel_button (f->bar)));
  g_signal_emit_by_name (tress_fur_job_bar_get_cancel_button (f->bar), "clicked");
  TRESS_TEST_WAIT_FOR (!tress_fur_job_running (f->doc));
  /* The bar and the shield stay a moment (clicks meant for Cancel). */
  g_assert_true (gtk_widget_get_can_target (tress_fur_job_bar_get_shield (f->bar)));
  TRESS_TEST_WAIT_FOR (!gtk_widget_get_visible (GTK_WIDGET (f->bar)));
  tress_test_wait_idle ();
  if (tress_history_get_n_undo (f->history) != steps)
    g_test_message ("after Cancel: \"%s\"", tress_history_get_undo_label (f->history));
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, steps);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (f->bar)));
  cancelled = save_and_read (f);
  g_assert_true (g_bytes_equal (cancelled, opened));
  g_assert_true (gtk_widget_get_can_focus (
      tress_test_find_named_type (f->tw.editor, "fur_layout", GTK_TYPE_BOX)));
  {
    GtkWidget *tree
        = GTK_WIDGET (tress_fur_editor_get_column_view (TRESS_FUR_EDITOR (f->tw.editor)));
    graphene_point_t p;

    g_assert_true (
        gtk_widget_compute_point (tree, f->tw.editor, &GRAPHENE_POINT_INIT (20, 20), &p));
    g_assert_true (gtk_widget_pick (f->tw.editor, p.x, p.y, GTK_PICK_DEFAULT)
                   != tress_fur_job_bar_get_shield (f->bar));
  }

  tress_test_wait_frame (f->tw.editor);
  tress_test_spin (500);
  g_assert_true (gtk_widget_activate_action_variant (f->tw.editor, action, param));
  assert_running (f, steps);
  /* While it plans, the bar shows and moves: the preview draws nothing again. */
  {
    TressFurPreview *preview = tress_fur_editor_get_preview (TRESS_FUR_EDITOR (f->tw.editor));
    guint draws = tress_fur_preview_get_n_base_draws (preview), frames = 0;

    /* (the frame in which it is performed draws the new colours) */
    while (tress_history_get_n_undo (f->history) == steps)
      {
        g_assert_cmpuint (tress_fur_preview_get_n_base_draws (preview), ==, draws);
        tress_test_wait_frame (f->tw.editor);
        frames++;
      }
    g_test_message ("%u frames while it planned", frames);
  }
  TRESS_TEST_WAIT_FOR (!tress_fur_job_running (f->doc));
  TRESS_TEST_WAIT_FOR (!gtk_widget_get_visible (GTK_WIDGET (f->bar)));
  tress_test_wait_idle ();
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, steps + 1);
  g_test_message ("%s: \"%s\"", action, tress_history_get_undo_label (f->history));
  done = save_and_read (f);
  g_assert_false (g_bytes_equal (done, opened));
  after = decode (done);
  g_assert_cmpuint (after.n_lines, ==, before.n_lines);
  g_assert_cmpuint (after.n_lines, >=, TRESS_FUR_JOB_MIN_SIZE);
  if (changes_weights)
    g_assert_cmpuint (after.weight_sum, !=, before.weight_sum);
  else
    g_assert_cmpuint (after.weight_sum, ==, before.weight_sum);

  g_assert_true (tress_history_undo (f->history));
  undone = save_and_read (f);
  g_assert_true (g_bytes_equal (undone, opened));
  g_assert_true (tress_history_redo (f->history));
  redone = save_and_read (f);
  g_assert_true (g_bytes_equal (redone, done));
  decode (redone);
  if (param != NULL)
    g_variant_unref (param);
}

static void
test_weights (Fixture *f, gconstpointer data)
{
  select_all (f);
  run_twice (f, "fur.set-weights", g_variant_new ("(yyy)", 100, 100, 55), TRUE);
}

static void
test_retarget (Fixture *f, gconstpointer data)
{
  TressChaFile *file = tress_cha_document_get_cha (f->doc);
  const TressChaMaterial *m = &file->radeon->materials[0];

  /* The first applied part to the last one, over the whole file. */
  run_twice (f, "fur.retarget",
             g_variant_new ("(uuu)", m->applied[0], m->applied[m->n_applied - 1], 2), FALSE);
}

/* Weights broken by hand on every line of the first material (one step),
 * then Fix All as a job mends them all. */
static void
test_fix_all (Fixture *f, gconstpointer data)
{
  TressChaFile *file = tress_cha_document_get_cha (f->doc);
  TressChaMaterial *m = &file->radeon->materials[0];
  g_autoptr (GBytes) opened = NULL;
  g_autoptr (GBytes) broken = NULL;
  g_autoptr (GBytes) fixed = NULL;
  TressTestChaStats stats;
  const char *why = NULL;

  for (guint i = 0; i < m->n_lines; i += 2)
    m->lines[i].weights[0] = (guint8)(m->lines[i].weights[0] ^ 1);
  broken = tress_cha_file_serialize (file);
  g_assert_true (tress_test_cha_decode (g_bytes_get_data (broken, NULL), g_bytes_get_size (broken),
                                        &stats, &why));
  g_assert_cmpuint (stats.bad_weights, >, 0);
  g_assert_true (gtk_widget_activate_action (f->tw.editor, "fur.fix-all", NULL));
  assert_running (f, 0);
  TRESS_TEST_WAIT_FOR (!tress_fur_job_running (f->doc));
  tress_test_wait_idle ();
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 1);
  fixed = save_and_read (f);
  decode (fixed);
  g_assert_true (tress_history_undo (f->history));
  opened = save_and_read (f);
  g_assert_true (g_bytes_equal (opened, broken));
}

/* The editor closed while a job runs: the plan is dropped, nothing crashes. */
static void
test_close_while_running (Fixture *f, gconstpointer data)
{
  select_all (f);
  g_assert_true (gtk_widget_activate_action (f->tw.editor, "fur.set-weights", "(yyy)", 255, 0, 0));
  g_assert_true (tress_fur_job_running (f->doc));
}

int
main (int argc, char *argv[])
{
  tress_test_window_init (&argc, &argv);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("/fur/jobs/weights", test_weights);
  ADD ("/fur/jobs/retarget", test_retarget);
  ADD ("/fur/jobs/fix-all", test_fix_all);
  ADD ("/fur/jobs/close-while-running", test_close_while_running);
  return g_test_run ();
}
