/* test-curve-window.c: the curve editor inside the application window
 *
 * Opens BFRES and NIFF samples in a TressWindow, edits keys through the curve
 * view's actions, undoes and redoes through the window's actions (win.undo,
 * win.redo), saves with win.save and reads the saved file back with
 * `tress-cli eval`.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "curves/tress-curve-editor.h"
#include "curves/tress-curve-view.h"
#include "tress-application.h"
#include "tress-document-page.h"
#include "tress-test-utils.h"
#include "tress-window.h"

static TressApplication *app;

#define WAIT_FOR(cond) TRESS_TEST_WAIT_FOR (cond)

static double
cli_eval (const char *path, guint curve, double frame)
{
  g_autofree char *c = g_strdup_printf ("%u", curve);
  char f[G_ASCII_DTOSTR_BUF_SIZE];
  const char *argv[] = { "eval", path, c, NULL, NULL };
  g_autofree char *out = NULL;
  char *tab;

  g_ascii_formatd (f, sizeof f, "%.9g", frame);
  argv[3] = f;
  g_assert_cmpint (tress_test_run_cli (argv, &out, NULL), ==, 0);
  tab = strchr (out, '\t');
  g_assert_nonnull (tab);
  return g_ascii_strtod (tab + 1, NULL);
}

static GtkWidget *
find_of_type (GtkWidget *root, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_of_type (c, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Opens @path in @window, its @n-th document, and waits until it is read. */
static void
open_file (TressWindow *window, const char *path, guint n)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);

  tress_window_open_file (window, file);
  WAIT_FOR (tress_window_get_n_documents (window) == n && !tress_window_get_busy (window));
}

/* A new window showing @path in the curve editor; *@view: its graph. */
static TressWindow *
open_in_window (const char *path, TressCurveView **view)
{
  TressWindow *window = tress_window_new (GTK_APPLICATION (app));
  GtkWidget *editor;

  gtk_window_present (GTK_WINDOW (window));
  WAIT_FOR (gtk_widget_get_mapped (GTK_WIDGET (window)));
  open_file (window, path, 1);
  editor = tress_document_page_get_editor (tress_window_get_current_page (window));
  g_assert_true (TRESS_IS_CURVE_EDITOR (editor));
  *view = tress_curve_editor_get_view (TRESS_CURVE_EDITOR (editor));
  return window;
}

static void
check_file (const char *rel)
{
  g_autoptr (GBytes) original = tress_test_load_sample (rel);
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;
  TressWindow *window;
  GtkWidget *editor;
  TressCurveView *view;
  TressDocument *doc;
  TressCurveDocument *cd;
  int target = -1;
  double before, after;

  if (original == NULL)
    return;
  /* Work on a copy: the window saves in place. */
  path = g_build_filename (tress_test_tmpdir (), strrchr (rel, '/') + 1, NULL);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (original, NULL),
                                      (gssize)g_bytes_get_size (original), &error));
  window = open_in_window (path, &view);
  editor = tress_document_page_get_editor (tress_window_get_current_page (window));
  doc = tress_window_get_current_document (window);
  cd = TRESS_CURVE_DOCUMENT (doc);

  for (guint i = 0; i < tress_curve_document_get_n_curves (cd) && target < 0; i++)
    {
      const TressCurve *c = tress_curve_document_get_curve (cd, i);
      if (tress_curve_get_n_keys (c) >= 3 && c->limits.value_kind == TRESS_VALUE_FLOAT)
        target = (int)i;
    }
  g_assert_cmpint (target, >=, 0);
  {
    guint t = (guint)target;
    tress_curve_view_set_curves (view, &t, 1);
  }
  /* The keyboard's nudge (Up) on the middle key. */
  before = tress_curve_get_key (tress_curve_document_get_curve (cd, (guint)target), 1)->value;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "curve.select-key", "(uub)",
                                             (guint)target, 1u, FALSE));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "curve.nudge", "(ii)", 0, 1));
  after = tress_curve_get_key (tress_curve_document_get_curve (cd, (guint)target), 1)->value;
  g_assert_cmpfloat (after, >, before);
  g_assert_true (tress_document_get_modified (doc));

  /* The window's undo and redo act on the editor's steps. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL));
  g_assert_cmpfloat (
      tress_curve_get_key (tress_curve_document_get_curve (cd, (guint)target), 1)->value, ==,
      before);
  g_assert_false (tress_document_get_modified (doc));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL));
  g_assert_cmpfloat (
      tress_curve_get_key (tress_curve_document_get_curve (cd, (guint)target), 1)->value, ==,
      after);

  /* Typing in the curves filter: Ctrl+Z (win.undo) undoes the typing there,
   * not the edit; back in the graph it undoes the edit again. */
  {
    GtkWidget *entry = find_of_type (editor, GTK_TYPE_SEARCH_ENTRY);

    g_assert_nonnull (entry);
    g_assert_true (gtk_widget_grab_focus (entry));
    gtk_editable_set_text (GTK_EDITABLE (entry), "zz");
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL));
    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "");
    g_assert_cmpfloat (
        tress_curve_get_key (tress_curve_document_get_curve (cd, (guint)target), 1)->value, ==,
        after);
    g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (view)));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL));
    g_assert_cmpfloat (
        tress_curve_get_key (tress_curve_document_get_curve (cd, (guint)target), 1)->value, ==,
        before);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL));
  }

  /* Save in place; tress-cli reads the edited key back. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL));
  WAIT_FOR (!tress_window_get_busy (window) && !tress_document_get_modified (doc));
  {
    const TressCurve *c = tress_curve_document_get_curve (cd, (guint)target);
    double f1 = tress_curve_get_key (c, 1)->frame;

    g_assert_cmpfloat_with_epsilon (cli_eval (path, (guint)target, f1), after, 1e-4);
    g_assert_cmpfloat_with_epsilon (cli_eval (path, (guint)target, f1 + 0.5),
                                    tress_curve_evaluate (c, f1 + 0.5), 1e-4);
  }

  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *)&window);
  gtk_window_destroy (GTK_WINDOW (window));
  WAIT_FOR (window == NULL);
}

static void
test_bfres (void)
{
  check_file ("bfres/Animal_Dog_Animation.bfres");
}

static void
test_niff (void)
{
  check_file ("niff/Rings.niff");
}

/* What a newcomer sees first: opening a file shows a curve with keys to
 * draw, also where the first channels of the file hold none (the demo NIFF's
 * RotateX, the samples' first groups). */
static void
check_first_screen (const char *path)
{
  TressCurveView *view;
  TressWindow *window = open_in_window (path, &view);
  TressCurveDocument *cd;
  const TressCurve *c;

  cd = TRESS_CURVE_DOCUMENT (tress_window_get_current_document (window));
  WAIT_FOR (tress_curve_view_get_n_curves (view) > 0);
  c = tress_curve_document_get_curve (cd, tress_curve_view_get_curve_index (view, 0));
  g_test_message ("%s: first shown %s, %u keys", path, c->path, tress_curve_get_n_keys (c));
  g_assert_cmpuint (tress_curve_get_n_keys (c), >=, 2);
  /* The tab names the file whole. */
  {
    GtkWidget *tab = tress_document_page_get_tab (tress_window_get_current_page (window));
    GtkWidget *label = gtk_widget_get_first_child (tab);
    g_autofree char *base = g_path_get_basename (path);

    g_assert_true (GTK_IS_LABEL (label));
    WAIT_FOR (gtk_widget_get_width (label) > 0);
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, base);
    g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))));
  }
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *)&window);
  gtk_window_destroy (GTK_WINDOW (window));
  WAIT_FOR (window == NULL);
}

static void
test_first_screen (void)
{
  static const char *const samples[] = { "niff/Rings.niff",
                                         "niff/kirikobu.niff",
                                         "niff/dragon.nif",
                                         "niff/3hedra.niff",
                                         "niff/synthetic-all-channels.nif",
                                         "bfres/Animal_Dog_Animation.bfres",
                                         "bfres/Animal_Bass_Animation.sbfres" };
  g_autofree char *demo = g_build_filename (tress_test_tmpdir (), "demo.niff", NULL);
  const char *gen[] = { "generate-demo", "niff", "-o", demo, NULL };

  g_assert_cmpint (tress_test_run_cli (gen, NULL, NULL), ==, 0);
  check_first_screen (demo);
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *path = tress_test_sample_path (samples[i]);

      if (path == NULL)
        return;
      check_first_screen (path);
    }
}

/* Six files open at the default size (the tab row scrolls): every tab names
 * its file whole. */
static void
test_tabs (void)
{
  static const char *const samples[] = { "bfres/Animal_Bass_Animation.bfres",
                                         "niff/synthetic-all-channels.nif",
                                         "bfres/Animal_Dog_Animation.bfres",
                                         "bfres/Animal_Bass_Animation.sbfres",
                                         "niff/Rings.niff",
                                         "niff/kirikobu.niff" };
  TressWindow *window = tress_window_new (GTK_APPLICATION (app));

  gtk_window_set_default_size (GTK_WINDOW (window), 960, 640);
  gtk_window_present (GTK_WINDOW (window));
  WAIT_FOR (gtk_widget_get_mapped (GTK_WIDGET (window)));
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *path = tress_test_sample_path (samples[i]);

      if (path == NULL)
        return;
      open_file (window, path, i + 1);
    }
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      TressDocumentPage *page = tress_window_get_page (window, i);
      GtkWidget *tab = tress_document_page_get_tab (page);
      GtkWidget *label = gtk_widget_get_first_child (tab);
      GtkWidget *notebook = gtk_widget_get_ancestor (tab, GTK_TYPE_NOTEBOOK);
      g_autofree char *base = g_path_get_basename (samples[i]);

      /* Shown (the tab row scrolls to the current tab), then measured. */
      g_assert_nonnull (notebook);
      gtk_notebook_set_current_page (GTK_NOTEBOOK (notebook), (int)i);
      WAIT_FOR (gtk_widget_get_mapped (label) && gtk_widget_get_width (label) > 0);
      g_test_message ("tab %u: %s, %d px", i, gtk_label_get_text (GTK_LABEL (label)),
                      gtk_widget_get_width (label));
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, base);
      g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))));
    }
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *)&window);
  gtk_window_destroy (GTK_WINDOW (window));
  WAIT_FOR (window == NULL);
}

int
main (int argc, char *argv[])
{
  g_autoptr (GError) error = NULL;

  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  app = tress_application_new ();
  g_application_set_flags (G_APPLICATION (app),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  g_test_add_func ("/curves/window/bfres", test_bfres);
  g_test_add_func ("/curves/window/niff", test_niff);
  g_test_add_func ("/curves/window/first-screen", test_first_screen);
  g_test_add_func ("/curves/window/tabs", test_tabs);
  return g_test_run ();
}
