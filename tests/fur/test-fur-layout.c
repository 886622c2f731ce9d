/* test-fur-layout.c: the fur editor's panes and labels at 960×640
 *
 * The tree's divider dragged with the pointer keeps its place after the
 * window is closed and the file opened again (GSettings, the memory backend
 * of the test run standing for the next start). The tree's material rows are
 * whole at the default width.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gtk/gtk.h>
#include <string.h>

#include "formats/cha/tress-cha-demo.h"
#include "fur/tress-fur-editor.h"
#include "fur/tress-fur-panes.h"
#include "tress-application.h"
#include "tress-test-pointer.h"
#include "tress-test-utils.h"
#include "tress-test-window.h"
#include "tress-window.h"

static char *
write_demo (void)
{
  TressChaDemoOptions options;
  g_autoptr (GBytes) bytes = NULL;
  char *path = g_build_filename (tress_test_tmpdir (), "layout.cha", NULL);

  tress_cha_demo_options_init (&options);
  bytes = tress_cha_demo_generate_bytes (&options);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize)g_bytes_get_size (bytes), NULL));
  return path;
}

static GtkPaned *
paned_named (TressTestWindow *tw, const char *name)
{
  GtkWidget *w = tress_test_find_named_type (tw->editor, name, GTK_TYPE_PANED);

  TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (w) && gtk_widget_get_width (w) > 0);
  tress_test_wait_idle ();
  return GTK_PANED (w);
}

static void
test_tree_width_kept (void)
{
  g_autofree char *path = write_demo ();
  g_autoptr (GSettings) settings = g_settings_new (TRESS_FUR_EDITOR_SCHEMA);
  TressTestWindow tw;
  GtkPaned *tree;
  int before, after;

  g_settings_reset (settings, "tree-width");
  tress_test_window_open (&tw, path, TRESS_TYPE_FUR_EDITOR, 960, 640);
  if (!tress_test_pointer_available (GTK_WIDGET (tw.window)))
    {
      tress_test_window_close (&tw);
      g_test_skip ("no XTest");
      return;
    }
  tree = paned_named (&tw, "tree_paned");
  before = gtk_paned_get_position (tree);
  g_assert_cmpint (before, ==, 270);

  /* The divider, dragged 90 px to the right. */
  {
    double y = gtk_widget_get_height (GTK_WIDGET (tree)) / 2.0;
    double points[] = { before + 0.5, y, before + 30.5, y, before + 60.5, y, before + 90.5, y };

    tress_test_pointer_drag (GTK_WIDGET (tree), 1, points, G_N_ELEMENTS (points) / 2);
  }
  tress_test_wait_idle ();
  after = gtk_paned_get_position (tree);
  g_test_message ("tree divider %d -> %d", before, after);
  g_assert_cmpint (after, >, before + 40);
  g_assert_cmpint (g_settings_get_int (settings, "tree-width"), ==, after);
  tress_test_pointer_move (GTK_WIDGET (tw.window), 1, 1);
  tress_test_window_close (&tw);

  /* Opened again: where the user left them. */
  tress_test_window_open (&tw, path, TRESS_TYPE_FUR_EDITOR, 960, 640);
  tree = paned_named (&tw, "tree_paned");
  g_assert_cmpint (gtk_paned_get_position (tree), ==, after);
  tress_test_window_close (&tw);
  g_settings_reset (settings, "tree-width");
}

/* The inspector's divider dragged 80 px to the left (a real drag): the
 * inspector is wider, the setting says so, and after a restart the
 * inspector has that width again. */
static void
test_inspector_width_kept (void)
{
  g_autofree char *path = write_demo ();
  g_autoptr (GSettings) settings = g_settings_new (TRESS_FUR_EDITOR_SCHEMA);
  TressTestWindow tw;
  GtkPaned *paned;
  int before, after, kept;

  g_settings_reset (settings, "inspector-width");
  tress_test_window_open (&tw, path, TRESS_TYPE_FUR_EDITOR, 960, 640);
  if (!tress_test_pointer_available (GTK_WIDGET (tw.window)))
    {
      tress_test_window_close (&tw);
      g_test_skip ("no XTest");
      return;
    }
  paned = paned_named (&tw, "inspector_paned");
  before = gtk_widget_get_width (gtk_paned_get_end_child (paned));
  {
    double x = gtk_paned_get_position (paned) + 2.5;
    double y = gtk_widget_get_height (GTK_WIDGET (paned)) / 2.0;
    double points[] = { x, y, x - 20, y, x - 40, y, x - 60, y, x - 80, y };

    tress_test_pointer_drag (GTK_WIDGET (paned), 1, points, G_N_ELEMENTS (points) / 2);
  }
  tress_test_wait_idle ();
  after = gtk_widget_get_width (gtk_paned_get_end_child (paned));
  g_test_message ("inspector %d -> %d px", before, after);
  g_assert_cmpint (after, >, before + 40);
  kept = g_settings_get_int (settings, "inspector-width");
  g_assert_cmpint (ABS (kept - after), <=, 2);
  tress_test_pointer_move (GTK_WIDGET (tw.window), 1, 1);
  tress_test_window_close (&tw);

  /* Opened again: as wide as the user left it. */
  tress_test_window_open (&tw, path, TRESS_TYPE_FUR_EDITOR, 960, 640);
  paned = paned_named (&tw, "inspector_paned");
  /* The kept width survived the restart and is what the inspector asks for. */
  g_assert_cmpint (ABS (g_settings_get_int (settings, "inspector-width") - after), <=, 2);
  {
    int min = 0, nat = 0;

    gtk_widget_measure (gtk_paned_get_end_child (paned), GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat,
                        NULL, NULL);
    g_assert_cmpint (ABS (nat - after), <=, 2);
  }
  tress_test_window_close (&tw);
  g_settings_reset (settings, "inspector-width");
}

/* At 960×640 the material rows' names are not cut: each label is as wide
 * as its text wants. */
static void
test_tree_labels (void)
{
  g_autofree char *path = write_demo ();
  TressTestWindow tw;
  GtkColumnView *view;
  guint checked = 0;

  tress_test_window_open (&tw, path, TRESS_TYPE_FUR_EDITOR, 960, 640);
  view = tress_fur_editor_get_column_view (TRESS_FUR_EDITOR (tw.editor));
  /* radeon expanded: its materials' rows */
  {
    GListModel *rows
        = G_LIST_MODEL (tress_fur_editor_get_tree_selection (TRESS_FUR_EDITOR (tw.editor)));
    g_autoptr (GtkTreeListRow) first = g_list_model_get_item (rows, 0);

    gtk_tree_list_row_set_expanded (first, TRUE);
  }
  tress_test_wait_frame (GTK_WIDGET (view));
  tress_test_wait_idle ();
  for (GtkWidget *w = GTK_WIDGET (view), *next; w != NULL; w = next)
    {
      /* depth-first walk of the view's widgets */
      if (GTK_IS_LABEL (w) && gtk_widget_get_mapped (w)
          && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (w)), "material "))
        {
          int min, nat;

          gtk_widget_measure (w, GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat, NULL, NULL);
          g_assert_cmpint (gtk_widget_get_width (w), >=, nat);
          checked++;
        }
      next = gtk_widget_get_first_child (w);
      while (next == NULL && w != NULL && w != GTK_WIDGET (view))
        {
          next = gtk_widget_get_next_sibling (w);
          if (next == NULL)
            w = gtk_widget_get_parent (w);
        }
      if (w == GTK_WIDGET (view) && next == NULL)
        break;
    }
  g_assert_cmpuint (checked, >=, 1);
  tress_test_window_close (&tw);
}

int
main (int argc, char *argv[])
{
  tress_test_window_init (&argc, &argv);
  g_test_add_func ("/fur/layout/tree-width-kept", test_tree_width_kept);
  g_test_add_func ("/fur/layout/inspector-width-kept", test_inspector_width_kept);
  g_test_add_func ("/fur/layout/tree-labels", test_tree_labels);
  return g_test_run ();
}
