/* test-fur-problems.c: the problem list's Fix buttons, with real pointer input
 *
 * At 960×640 (the smallest window the editor is made for): a row's Fix mends
 * that row's problem only, Fix All mends the rest and says how many, and the
 * window's menus still open afterwards (a button destroyed inside its own
 * click once left them dead).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gtk/gtk.h>
#include <string.h>

#include "formats/cha/tress-cha-demo.h"
#include "fur/tress-fur-editor.h"
#include "tress-application.h"
#include "tress-test-pointer.h"
#include "tress-test-utils.h"
#include "tress-test-window.h"
#include "tress-window.h"

static const guint broken_ribbons[3] = { 3, 9, 40 };

typedef struct
{
  TressTestWindow tw;
  char *path;
  TressFurEditor *editor;
  TressChaDocument *doc;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  TressChaDemoOptions options;
  g_autoptr (TressChaFile) model = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;

  tress_cha_demo_options_init (&options);
  model = tress_cha_demo_generate (&options);
  for (guint i = 0; i < G_N_ELEMENTS (broken_ribbons); i++)
    {
      guint first, n;

      g_assert_true (tress_cha_material_ribbon_lines (&model->radeon->materials[0],
                                                      broken_ribbons[i], &first, &n));
      model->radeon->materials[0].lines[first].weights[0] ^= 1;
    }
  bytes = tress_cha_file_serialize (model);
  f->path = g_build_filename (tress_test_tmpdir (), "problems.cha", NULL);
  g_file_set_contents (f->path, g_bytes_get_data (bytes, NULL), (gssize)g_bytes_get_size (bytes),
                       &error);
  g_assert_no_error (error);
  tress_test_window_open (&f->tw, f->path, TRESS_TYPE_FUR_EDITOR, 960, 640);
  f->editor = TRESS_FUR_EDITOR (f->tw.editor);
  f->doc = tress_fur_editor_get_document (f->editor);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  tress_test_pointer_move (GTK_WIDGET (f->tw.window), 1, 1);
  tress_test_window_close (&f->tw);
  g_free (f->path);
}

/* The first mapped widget of @type under @root (with button label @label
 * when given), depth first. */
static GtkWidget *
find_mapped (GtkWidget *root, GType type, const char *label)
{
  if (!gtk_widget_get_mapped (root))
    return NULL;
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type)
      && (label == NULL
          || (GTK_IS_BUTTON (root)
              && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (root)), label) == 0)))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_mapped (c, type, label);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
click_middle (GtkWidget *widget)
{
  TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (widget) && gtk_widget_get_width (widget) > 0);
  tress_test_pointer_click (widget, gtk_widget_get_width (widget) / 2.0,
                            gtk_widget_get_height (widget) / 2.0);
}

static guint
n_rows (GtkListBox *list)
{
  guint n = 0;

  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (list)); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    n++;
  return n;
}

/* The ☰ menu opens on a real click, and closes again on Escape. */
static void
assert_menu_opens (GtkWidget *button)
{
  GtkPopover *popover;

  click_middle (button);
  TRESS_TEST_WAIT_FOR ((popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (button))) != NULL
                       && gtk_widget_get_mapped (GTK_WIDGET (popover)));
  tress_test_pointer_key (GDK_KEY_Escape, TRUE);
  tress_test_pointer_key (GDK_KEY_Escape, FALSE);
  TRESS_TEST_WAIT_FOR (!gtk_widget_get_mapped (GTK_WIDGET (popover)));
}

/* The morality drop-down ("Base length") of the preview opens its list. */
static GtkWidget *
find_base_length (GtkWidget *root)
{
  if (GTK_IS_DROP_DOWN (root) && gtk_widget_get_mapped (root))
    {
      GListModel *model = gtk_drop_down_get_model (GTK_DROP_DOWN (root));
      g_autoptr (GObject) first = model != NULL ? g_list_model_get_item (model, 0) : NULL;

      if (GTK_IS_STRING_OBJECT (first)
          && g_strcmp0 (gtk_string_object_get_string (GTK_STRING_OBJECT (first)), "Base length")
                 == 0)
        return root;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_base_length (c);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
popover_mapped_under (GtkWidget *root)
{
  if (GTK_IS_POPOVER (root) && gtk_widget_get_mapped (root))
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    if (popover_mapped_under (c))
      return TRUE;
  return FALSE;
}

static void
test_fix_one (Fixture *f, gconstpointer data)
{
  GtkWidget *window = GTK_WIDGET (f->tw.window);
  TressFurInspector *inspector = tress_fur_editor_get_inspector (f->editor);
  GtkListBox *list = tress_fur_inspector_get_problem_list (inspector);
  TressHistory *history = tress_document_get_history (TRESS_DOCUMENT (f->doc));
  GtkWidget *menu = tress_test_find_named_type (gtk_window_get_titlebar (GTK_WINDOW (window)),
                                                "GtkMenuButton", GTK_TYPE_MENU_BUTTON);
  GtkWidget *fix, *fix_all, *base;

  if (!tress_test_pointer_available (window))
    {
      g_test_skip ("no XTest");
      return;
    }
  g_assert_cmpint (gtk_widget_get_width (window), <=, 960);
  g_assert_cmpstr (tress_fur_editor_get_problems_banner (f->editor), ==, "3 problems");
  click_middle (find_mapped (GTK_WIDGET (f->editor), GTK_TYPE_BUTTON, "Show"));
  g_assert_true (tress_fur_inspector_get_problems_shown (inspector));
  g_assert_cmpuint (n_rows (list), ==, 3);

  /* One row's Fix: that problem only. */
  TRESS_TEST_WAIT_FOR ((fix = find_mapped (GTK_WIDGET (list), GTK_TYPE_BUTTON, "Fix")) != NULL);
  click_middle (fix);
  TRESS_TEST_WAIT_FOR (n_rows (list) == 2);
  tress_test_wait_idle ();
  g_assert_cmpstr (tress_fur_editor_get_problems_banner (f->editor), ==, "2 problems");
  g_assert_cmpstr (tress_history_get_undo_label (history), ==, "Fix weights");
  {
    guint left = 0;

    for (guint i = 0; i < G_N_ELEMENTS (broken_ribbons); i++)
      left += tress_cha_document_ribbon_problems (f->doc, 0, broken_ribbons[i]) > 0;
    g_assert_cmpuint (left, ==, 2);
  }

  /* The menus still open, on real clicks. */
  assert_menu_opens (menu);
  base = find_base_length (GTK_WIDGET (f->editor));
  g_assert_nonnull (base);
  click_middle (base);
  TRESS_TEST_WAIT_FOR (popover_mapped_under (base));
  tress_test_pointer_key (GDK_KEY_Escape, TRUE);
  tress_test_pointer_key (GDK_KEY_Escape, FALSE);
  TRESS_TEST_WAIT_FOR (!popover_mapped_under (base));

  /* Fix All: the other two, saying so; the menus still open. */
  TRESS_TEST_WAIT_FOR ((fix_all = find_mapped (GTK_WIDGET (inspector), GTK_TYPE_BUTTON, "Fix All"))
                       != NULL);
  click_middle (fix_all);
  TRESS_TEST_WAIT_FOR (tress_fur_editor_get_problems_banner (f->editor) == NULL);
  g_assert_nonnull (tress_test_find_label_text (GTK_WIDGET (inspector), "Fixed 2 problems"));
  g_assert_cmpstr (tress_history_get_undo_label (history), ==, "Fix 2 problems");
  assert_menu_opens (menu);

  /* Each was its own undo step. */
  g_assert_true (tress_history_undo (history));
  TRESS_TEST_WAIT_FOR (g_strcmp0 (tress_fur_editor_get_problems_banner (f->editor), "2 problems")
                       == 0);
  g_assert_true (tress_history_undo (history));
  TRESS_TEST_WAIT_FOR (g_strcmp0 (tress_fur_editor_get_problems_banner (f->editor), "3 problems")
                       == 0);
}

int
main (int argc, char *argv[])
{
  tress_test_window_init (&argc, &argv);
  g_test_add ("/fur/problems/fix-one", Fixture, NULL, fixture_setup, test_fix_one,
              fixture_teardown);
  return g_test_run ();
}
