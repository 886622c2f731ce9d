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
#include "tress-info-view.h"
#include "tress-test-pointer.h"
#include "tress-test-utils.h"
#include "tress-test-window.h"
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

  tress_test_window_destroy (window);
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
  tress_test_window_destroy (window);
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
  tress_test_window_destroy (window);
}

static graphene_rect_t
bounds_in (GtkWidget *widget, GtkWidget *target)
{
  graphene_rect_t r;

  g_assert_true (gtk_widget_compute_bounds (widget, target, &r));
  return r;
}

/* A window of @width × @height showing @rel; *@editor: its curve editor. */
static TressWindow *
open_sized (const char *path, int width, int height, TressCurveEditor **editor)
{
  TressWindow *window = tress_window_new (GTK_APPLICATION (app));

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  WAIT_FOR (gtk_widget_get_mapped (GTK_WIDGET (window)));
  open_file (window, path, 1);
  *editor = TRESS_CURVE_EDITOR (
      tress_document_page_get_editor (tress_window_get_current_page (window)));
  WAIT_FOR (tress_curve_view_get_n_curves (tress_curve_editor_get_view (*editor)) > 0
            && gtk_widget_get_mapped (GTK_WIDGET (*editor))
            && gtk_widget_get_width (GTK_WIDGET (tress_curve_editor_get_view (*editor))) > 0);
  tress_test_spin (20);
  g_test_message ("window %d × %d", gtk_widget_get_width (GTK_WIDGET (window)),
                  gtk_widget_get_height (GTK_WIDGET (window)));
  return window;
}

static void
close_window (TressWindow *window)
{
  tress_test_window_destroy (window);
}

/* At the default size and at 1600 × 1000: the tree's Keys column is in view
 * beside the names, and no two widgets of the transport overlap or leave it. */
static void
check_readable (const char *path, int width, int height)
{
  TressCurveEditor *editor;
  TressWindow *window = open_sized (path, width, height, &editor);
  GtkWidget *play = tress_test_find_named (GTK_WIDGET (editor), "play");
  GtkWidget *transport = gtk_widget_get_parent (play);
  GtkWidget *tree = NULL;
  GtkWidget *keys, *scroller;
  graphene_rect_t k, s, box;

  for (GtkWidget *w = find_of_type (GTK_WIDGET (editor), GTK_TYPE_COLUMN_VIEW); w != NULL; w = NULL)
    tree = w;
  g_assert_nonnull (tree);
  g_assert_true (gtk_column_view_get_model (GTK_COLUMN_VIEW (tree))
                 == tress_curve_editor_get_tree_selection (editor));
  keys = tress_test_find_label_text (tree, "Keys");
  g_assert_nonnull (keys);
  scroller = gtk_widget_get_ancestor (tree, GTK_TYPE_SCROLLED_WINDOW);
  k = bounds_in (keys, scroller);
  s = bounds_in (scroller, scroller);
  g_test_message ("%d×%d: Keys header at x %.0f..%.0f of a %.0f px tree", width, height, k.origin.x,
                  k.origin.x + k.size.width, s.size.width);
  g_assert_cmpfloat (k.origin.x, >=, 0);
  g_assert_cmpfloat (k.origin.x + k.size.width, <=, s.size.width);
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (keys))));

  box = bounds_in (transport, transport);
  for (GtkWidget *a = gtk_widget_get_first_child (transport); a != NULL;
       a = gtk_widget_get_next_sibling (a))
    {
      graphene_rect_t ra;

      if (!gtk_widget_get_visible (a))
        continue;
      ra = bounds_in (a, transport);
      g_assert_cmpfloat (ra.origin.x, >=, 0);
      g_assert_cmpfloat (ra.origin.x + ra.size.width, <=, box.size.width + 0.5);
      for (GtkWidget *b = gtk_widget_get_next_sibling (a); b != NULL;
           b = gtk_widget_get_next_sibling (b))
        {
          graphene_rect_t rb, both;

          if (!gtk_widget_get_visible (b))
            continue;
          rb = bounds_in (b, transport);
          if (graphene_rect_intersection (&ra, &rb, &both))
            g_assert_cmpfloat (both.size.width * both.size.height, <, 1);
        }
    }
  close_window (window);
}

static void
test_readable (void)
{
  g_autofree char *path = tress_test_sample_path ("bfres/Animal_Dog_Animation.bfres");
  g_autofree char *niff = tress_test_sample_path ("niff/kirikobu.niff");

  if (path == NULL || niff == NULL)
    return;
  check_readable (path, 960, 640);
  check_readable (path, 1600, 1000);
  check_readable (niff, 960, 640);
  check_readable (niff, 1600, 1000);
}

/* A narrower graph keeps showing the whole of what Frame All framed; after
 * a zoom it keeps the same frames and values in view. */
static void
test_resize_keeps_framing (void)
{
  g_autofree char *path = tress_test_sample_path ("bfres/Animal_Dog_Animation.bfres");
  TressCurveEditor *editor;
  TressWindow *window;
  TressCurveView *view;
  TressCurveDocument *cd;
  const TressCurve *c;
  GtkPaned *paned;
  TressCurveViewport vp0, vp1, vp2;
  double first, last;

  if (path == NULL)
    return;
  window = open_sized (path, 960, 640, &editor);
  view = tress_curve_editor_get_view (editor);
  cd = tress_curve_editor_get_document (editor);
  c = tress_curve_document_get_curve (cd, tress_curve_view_get_curve_index (view, 0));
  first = tress_curve_get_key (c, 0)->frame;
  last = tress_curve_get_key (c, tress_curve_get_n_keys (c) - 1)->frame;
  paned = GTK_PANED (find_of_type (GTK_WIDGET (editor), GTK_TYPE_PANED));
  tress_curve_view_get_viewport (view, &vp0);

  gtk_paned_set_position (paned, gtk_paned_get_position (paned) + 200);
  WAIT_FOR ((tress_curve_view_get_viewport (view, &vp1), vp1.width < vp0.width - 50));
  g_test_message ("frames %g..%g in %g px, then %g..%g in %g px", vp0.frame_min, vp0.frame_max,
                  vp0.width, vp1.frame_min, vp1.frame_max, vp1.width);
  g_assert_cmpfloat (vp1.frame_min, <=, first);
  g_assert_cmpfloat (vp1.frame_max, >=, last);
  /* Framed, not merely inside: the keys cover most of the width. */
  g_assert_cmpfloat (last - first, >, 0.7 * (vp1.frame_max - vp1.frame_min));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "curve.zoom", "(dd)", 2.0, 2.0));
  tress_curve_view_get_viewport (view, &vp1);
  gtk_paned_set_position (paned, gtk_paned_get_position (paned) - 200);
  WAIT_FOR ((tress_curve_view_get_viewport (view, &vp2), vp2.width > vp1.width + 50));
  g_assert_cmpfloat_with_epsilon (vp2.frame_min, vp1.frame_min, 1e-9);
  g_assert_cmpfloat_with_epsilon (vp2.frame_max, vp1.frame_max, 1e-9);
  g_assert_cmpfloat_with_epsilon (vp2.value_min, vp1.value_min, 1e-9);
  g_assert_cmpfloat_with_epsilon (vp2.value_max, vp1.value_max, 1e-9);
  close_window (window);
}

/* A right-click on a key that is not selected selects it and opens the menu;
 * its Delete Keys deletes that key, one undo step naming the curve. */
static void
test_context_menu (void)
{
  g_autofree char *path = tress_test_sample_path ("bfres/Animal_Dog_Animation.bfres");
  TressCurveEditor *editor;
  TressWindow *window;
  TressCurveView *view;
  TressCurveDocument *cd;
  GtkWidget *menu, *item;
  guint index, n;
  double x, y;
  graphene_rect_t r;

  if (path == NULL)
    return;
  window = open_sized (path, 960, 640, &editor);
  view = tress_curve_editor_get_view (editor);
  if (!tress_test_pointer_available (GTK_WIDGET (view)))
    {
      close_window (window);
      return;
    }
  cd = tress_curve_editor_get_document (editor);
  index = tress_curve_view_get_curve_index (view, 0);
  n = tress_curve_get_n_keys (tress_curve_document_get_curve (cd, index));
  g_assert_cmpuint (n, >=, 3);
  g_assert_true (tress_curve_view_get_point (view, index, 2, TRESS_CURVE_PART_KEY, &x, &y));
  g_assert_cmpuint (tress_curve_view_get_n_selected_keys (view), ==, 0);

  tress_test_pointer_move (GTK_WIDGET (view), x, y);
  tress_test_pointer_button (3, TRUE);
  tress_test_pointer_button_unwatched (3, FALSE);
  menu = tress_curve_view_get_context_menu (view);
  g_assert_nonnull (menu);
  WAIT_FOR (gtk_widget_get_mapped (menu));
  g_assert_cmpuint (tress_curve_view_get_n_selected_keys (view), ==, 1);
  g_assert_true (tress_curve_view_is_selected (view, index, 2, TRESS_CURVE_PART_KEY));
  for (guint i = 0; i < 6; i++)
    {
      static const char *const labels[]
          = { "Insert Key Here",   "Interpolation", "Tangents", "Copy",
              "Paste at Playhead", "Frame All" };

      g_assert_nonnull (tress_test_find_label_text (menu, labels[i]));
    }
  item = tress_test_find_label_text (menu, "Delete Keys");
  g_assert_nonnull (item);
  WAIT_FOR (gtk_widget_get_mapped (item) && gtk_widget_get_width (item) > 0);
  r = bounds_in (item, item);
  tress_test_pointer_click (item, r.size.width / 2, r.size.height / 2);
  WAIT_FOR (tress_curve_get_n_keys (tress_curve_document_get_curve (cd, index)) == n - 1);
  WAIT_FOR (!gtk_widget_get_mapped (menu));
  {
    const char *label
        = tress_history_get_undo_label (tress_document_get_history (TRESS_DOCUMENT (cd)));

    g_test_message ("undo: %s", label);
    g_assert_nonnull (strstr (label, tress_curve_document_get_curve (cd, index)->path));
  }
  close_window (window);
}

/* A BFRES with warnings says how many on opening; its button lists them. */
static void
test_problems_bar (void)
{
  g_autoptr (GBytes) sample = tress_test_load_sample ("bfres/Animal_Dog_Animation.bfres");
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *count = NULL;
  TressCurveEditor *editor;
  TressWindow *window;
  TressDocumentPage *page;
  GtkWidget *bar, *label, *button;
  guint8 *bytes;
  gsize size, n = 0;
  guint warnings;

  if (sample == NULL)
    return;
  /* Each skeletal animation's curve count one more than its parts hold. */
  bytes = g_bytes_unref_to_data (g_bytes_ref (sample), &size);
  for (gsize i = 0; i + 0x1C <= size; i++)
    if (memcmp (bytes + i, "FSKA", 4) == 0)
      {
        bytes[i + 0x1B]++;
        n++;
      }
  g_assert_cmpuint (n, >, 10);
  path = g_build_filename (tress_test_tmpdir (), "warnings.bfres", NULL);
  g_assert_true (g_file_set_contents (path, (const char *)bytes, (gssize)size, &error));
  g_free (bytes);

  window = open_sized (path, 960, 640, &editor);
  page = tress_window_get_current_page (window);
  warnings = tress_problem_list_count (
      tress_document_get_problems (tress_window_get_current_document (window)),
      TRESS_SEVERITY_WARNING);
  g_assert_cmpuint (warnings, ==, n);
  bar = tress_document_page_get_problems_bar (page);
  WAIT_FOR (gtk_widget_get_mapped (bar));
  count = g_strdup_printf ("This file has %u warnings.", warnings);
  label = tress_test_find_label_text (bar, count);
  g_assert_nonnull (label);
  button = find_of_type (bar, GTK_TYPE_BUTTON);
  g_assert_nonnull (button);
  g_assert_null (tress_document_page_get_problems_window (page));
  g_signal_emit_by_name (button, "clicked");
  WAIT_FOR (tress_document_page_get_problems_window (page) != NULL
            && gtk_widget_get_mapped (tress_document_page_get_problems_window (page)));
  {
    GtkWidget *list
        = find_of_type (tress_document_page_get_problems_window (page), TRESS_TYPE_INFO_VIEW);
    g_autofree char *text = tress_info_view_dup_text (TRESS_INFO_VIEW (list));

    g_assert_nonnull (strstr (text, "declares"));
  }
  close_window (window);
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
  g_test_add_func ("/curves/window/readable", test_readable);
  g_test_add_func ("/curves/window/resize-keeps-framing", test_resize_keeps_framing);
  g_test_add_func ("/curves/window/context-menu", test_context_menu);
  g_test_add_func ("/curves/window/problems-bar", test_problems_bar);
  return g_test_run ();
}
