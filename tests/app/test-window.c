/* test-window.c: the main window driven through its actions, under Xvfb
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "tress-application.h"
#include "tress-demo.h"
#include "tress-document-page.h"
#include "tress-editor.h"
#include "tress-info-view.h"
#include "tress-loading-page.h"
#include "tress-slow-file.h"
#include "tress-test-pointer.h"
#include "tress-test-format.h"
#include "tress-test-utils.h"
#include "tress-test-window.h"
#include "tress-window.h"

static TressApplication *app;

/* ---- helpers ----------------------------------------------------------- */

static char *
write_test_file (const char *name, const guint32 *values, guint n_values, const char *trailer)
{
  g_autoptr (GBytes) bytes = tress_test_format_build (values, n_values);
  g_autoptr (GByteArray) data = g_byte_array_new ();
  char *path = g_build_filename (tress_test_tmpdir (), name, NULL);
  g_autoptr (GError) error = NULL;

  g_byte_array_append (data, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  if (trailer != NULL)
    g_byte_array_append (data, (const guint8 *)trailer, strlen (trailer));
  g_file_set_contents (path, (const char *)data->data, data->len, &error);
  g_assert_no_error (error);
  return path;
}

/* The bytes a test file with @values and @trailer must have. */
static GBytes *
expected_bytes (const guint32 *values, guint n_values, const char *trailer)
{
  g_autoptr (GBytes) bytes = tress_test_format_build (values, n_values);
  GByteArray *data = g_byte_array_new ();

  g_byte_array_append (data, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  if (trailer != NULL)
    g_byte_array_append (data, (const guint8 *)trailer, strlen (trailer));
  return g_byte_array_free_to_bytes (data);
}

static void
activate_open (TressWindow *window, const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *uri = g_file_get_uri (file);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.open-uri", "s", uri));
}

/* The first widget under @root whose action-name is @action (a header bar button). */
static GtkWidget *
find_action_widget (GtkWidget *root, const char *action)
{
  if (GTK_IS_ACTIONABLE (root)
      && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (root)), action) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_action_widget (child, action);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Whether the header bar's button for @action can be clicked, as the user sees it. */
static gboolean
button_enabled (TressWindow *window, const char *action)
{
  GtkWidget *titlebar = gtk_window_get_titlebar (GTK_WINDOW (window));
  GtkWidget *button = find_action_widget (titlebar, action);

  g_assert_nonnull (button);
  return gtk_widget_get_sensitive (button);
}

static const char *
button_tooltip (TressWindow *window, const char *action)
{
  GtkWidget *button = find_action_widget (gtk_window_get_titlebar (GTK_WINDOW (window)), action);

  g_assert_nonnull (button);
  return gtk_widget_get_tooltip_text (button);
}

/* The label of the primary menu's item for @action (searching sections and submenus). */
static char *
menu_label_in (GMenuModel *model, const char *action)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autofree char *item_action = NULL;
      g_autofree char *label = NULL;
      GMenuLinkIter *links;

      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &item_action)
          && g_strcmp0 (item_action, action) == 0
          && g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_LABEL, "s", &label))
        return g_steal_pointer (&label);

      links = g_menu_model_iterate_item_links (model, i);
      while (g_menu_link_iter_next (links))
        {
          g_autoptr (GMenuModel) link = g_menu_link_iter_get_value (links);
          char *found = menu_label_in (link, action);

          if (found != NULL)
            {
              g_object_unref (links);
              return found;
            }
        }
      g_object_unref (links);
    }
  return NULL;
}

static char *
menu_label (TressWindow *window, const char *action)
{
  GtkWidget *button
      = tress_test_find_type (gtk_window_get_titlebar (GTK_WINDOW (window)), GTK_TYPE_MENU_BUTTON);

  g_assert_nonnull (button);
  return menu_label_in (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (button)), action);
}

/* TRUE if @model (or a section or submenu of it) has an item for @action labelled @label. */
static gboolean
menu_has_item (GMenuModel *model, const char *action, const char *label)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autofree char *item_action = NULL;
      g_autofree char *item_label = NULL;
      g_autoptr (GMenuLinkIter) links = NULL;

      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &item_action)
          && g_strcmp0 (item_action, action) == 0
          && g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_LABEL, "s", &item_label)
          && g_strcmp0 (item_label, label) == 0)
        return TRUE;
      links = g_menu_model_iterate_item_links (model, i);
      while (g_menu_link_iter_next (links))
        {
          g_autoptr (GMenuModel) link = g_menu_link_iter_get_value (links);

          if (menu_has_item (link, action, label))
            return TRUE;
        }
    }
  return FALSE;
}

/* TRUE if Open Recent lists @name. */
static gboolean
recent_menu_has (TressWindow *window, const char *name)
{
  GtkWidget *button
      = tress_test_find_type (gtk_window_get_titlebar (GTK_WINDOW (window)), GTK_TYPE_MENU_BUTTON);

  return menu_has_item (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (button)), "win.open-uri",
                        name);
}

/* The shown toplevel of @type, or NULL. */
static GtkWindow *
find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels (); /* transfer none */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) item = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (item, type) && gtk_widget_get_visible (GTK_WIDGET (item)))
        return GTK_WINDOW (item);
    }
  return NULL;
}

/* The dialogs transient for @window that are shown now. */
static GtkMessageDialog *
find_dialog (TressWindow *window)
{
  GListModel *toplevels = gtk_window_get_toplevels (); /* transfer none */
  guint n = g_list_model_get_n_items (toplevels);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GObject) item = g_list_model_get_item (toplevels, i);

      if (GTK_IS_MESSAGE_DIALOG (item)
          && gtk_window_get_transient_for (GTK_WINDOW (item)) == GTK_WINDOW (window)
          && gtk_widget_get_visible (GTK_WIDGET (item)))
        return GTK_MESSAGE_DIALOG (item);
    }
  return NULL;
}

static char *
dialog_text (GtkMessageDialog *dialog)
{
  g_autofree char *primary = NULL;
  g_autofree char *secondary = NULL;

  g_object_get (dialog, "text", &primary, "secondary-text", &secondary, NULL);
  return g_strdup_printf ("%s\n%s", primary, secondary != NULL ? secondary : "");
}

static char *
tab_text (TressWindow *window, guint index)
{
  TressDocumentPage *page = tress_window_get_page (window, index);
  GtkWidget *tab = tress_document_page_get_tab (page);
  GtkWidget *label = gtk_widget_get_first_child (tab);

  g_assert_true (GTK_IS_LABEL (label));
  return g_strdup (gtk_label_get_text (GTK_LABEL (label)));
}

/* ---- a small editor for the test format -------------------------------- */

static void
on_set_value (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  TressDocument *doc = TRESS_DOCUMENT (user_data);
  guint index = 0, value = 0;

  g_variant_get (param, "(uu)", &index, &value);
  tress_test_model_set_value (tress_document_get_history (doc), tress_document_get_model (doc),
                              index, value);
}

static GtkWidget *
test_editor_new (TressDocument *doc)
{
  /* The generic page inside, as a format's editor might show it. */
  GtkWidget *editor = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  g_autoptr (GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autoptr (GSimpleAction) set = g_simple_action_new ("set-value", G_VARIANT_TYPE ("(uu)"));

  g_signal_connect_object (set, "activate", G_CALLBACK (on_set_value), doc, 0);
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (set));
  gtk_widget_insert_action_group (editor, "test", G_ACTION_GROUP (group));
  gtk_widget_add_css_class (editor, "test-editor");
  gtk_box_append (GTK_BOX (editor), tress_info_view_new (doc));
  return editor;
}

static TressTestModel *
current_model (TressWindow *window)
{
  TressDocument *doc = tress_window_get_current_document (window);

  g_assert_nonnull (doc);
  return tress_document_get_model (doc);
}

/* ---- tests ------------------------------------------------------------- */

static void
notify_counter (GObject *object, GParamSpec *pspec, guint *count)
{
  (*count)++;
}

/* Open → edit → undo → redo → save, each through an action, then the bytes on disk. */
static void
test_open_edit_undo_redo_save (void)
{
  static const guint32 values[] = { 1, 2, 3 };
  static const guint32 edited[] = { 1, 42, 3 };
  g_autofree char *path = write_test_file ("edit.trsstest", values, 3, "KEEP-ME");
  g_autofree char *backup = g_strconcat (path, "~", NULL);
  g_autoptr (GBytes) original = tress_test_read_file (path);
  g_autoptr (GBytes) expected = expected_bytes (edited, 3, "KEEP-ME");
  g_autoptr (GBytes) on_disk = NULL;
  g_autoptr (GBytes) backup_bytes = NULL;
  TressWindow *window = tress_test_window_new (0, 0);
  TressDocumentPage *page;
  GtkWidget *editor;
  g_autofree char *tab = NULL;
  guint n_current_notify = 0;
  TressDocument *closed_doc;

  g_signal_connect (window, "notify::current-document", G_CALLBACK (notify_counter),
                    &n_current_notify);

  /* Welcome page, nothing to save or undo. */
  g_assert_cmpuint (tress_window_get_n_documents (window), ==, 0);
  g_assert_false (button_enabled (window, "win.save"));
  g_assert_false (button_enabled (window, "win.undo"));
  g_assert_true (button_enabled (window, "win.open"));

  activate_open (window, path);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == 1
                       && !tress_window_get_busy (window));
  g_assert_cmpuint (n_current_notify, ==, 1);
  page = tress_window_get_current_page (window);
  g_assert_nonnull (page);
  editor = tress_document_page_get_editor (page);
  g_assert_true (gtk_widget_has_css_class (editor, "test-editor"));
  tab = tab_text (window, 0);
  g_assert_cmpstr (tab, ==, "edit.trsstest");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "edit.trsstest – Tress");
  g_assert_false (button_enabled (window, "win.save"));
  g_assert_false (button_enabled (window, "win.undo"));
  g_assert_false (button_enabled (window, "win.redo"));

  /* Edit through the editor's action. */
  g_assert_true (gtk_widget_activate_action (editor, "test.set-value", "(uu)", 1, 42));
  g_assert_cmpuint (tress_test_model_get_value (current_model (window), 1), ==, 42);
  g_clear_pointer (&tab, g_free);
  tab = tab_text (window, 0);
  g_assert_cmpstr (tab, ==, "• edit.trsstest");
  g_assert_true (button_enabled (window, "win.save"));
  g_assert_true (button_enabled (window, "win.undo"));
  g_assert_false (button_enabled (window, "win.redo"));
  g_assert_cmpstr (button_tooltip (window, "win.undo"), ==, "Undo Set value 1");
  {
    g_autofree char *undo_item = menu_label (window, "win.undo");
    g_autofree char *redo_item = menu_label (window, "win.redo");

    g_assert_cmpstr (undo_item, ==, "_Undo Set value 1");
    g_assert_cmpstr (redo_item, ==, "_Redo");
  }

  /* Undo through the window. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL));
  g_assert_cmpuint (tress_test_model_get_value (current_model (window), 1), ==, 2);
  g_clear_pointer (&tab, g_free);
  tab = tab_text (window, 0);
  g_assert_cmpstr (tab, ==, "edit.trsstest");
  g_assert_false (button_enabled (window, "win.save"));
  g_assert_false (button_enabled (window, "win.undo"));
  g_assert_true (button_enabled (window, "win.redo"));
  g_assert_cmpstr (button_tooltip (window, "win.redo"), ==, "Redo Set value 1");

  /* Redo. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL));
  g_assert_cmpuint (tress_test_model_get_value (current_model (window), 1), ==, 42);
  g_assert_true (tress_document_get_modified (tress_window_get_current_document (window)));
  g_assert_true (button_enabled (window, "win.save"));

  /* Nothing was written yet. */
  on_disk = tress_test_read_file (path);
  tress_test_assert_bytes_equal (on_disk, original);
  g_clear_pointer (&on_disk, g_bytes_unref);

  /* Save. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL));
  TRESS_TEST_WAIT_FOR (!tress_window_get_busy (window));
  g_assert_null (find_dialog (window));
  on_disk = tress_test_read_file (path);
  tress_test_assert_bytes_equal (on_disk, expected);
  backup_bytes = tress_test_read_file (backup);
  tress_test_assert_bytes_equal (backup_bytes, original);
  g_assert_false (tress_document_get_modified (tress_window_get_current_document (window)));
  g_clear_pointer (&tab, g_free);
  tab = tab_text (window, 0);
  g_assert_cmpstr (tab, ==, "edit.trsstest");
  g_assert_false (button_enabled (window, "win.save"));
  g_assert_true (button_enabled (window, "win.undo"));

  /* Closing a saved document asks nothing, and lets the document go. */
  closed_doc = tress_window_get_current_document (window);
  g_object_add_weak_pointer (G_OBJECT (closed_doc), (gpointer *)&closed_doc);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.close-document", NULL));
  TRESS_TEST_WAIT_FOR (closed_doc == NULL);
  g_assert_null (find_dialog (window));
  g_assert_cmpuint (tress_window_get_n_documents (window), ==, 0);
  g_assert_null (tress_window_get_current_document (window));
  g_assert_cmpuint (n_current_notify, ==, 2);
  g_assert_false (button_enabled (window, "win.save"));

  tress_test_window_destroy (window);
}

/* A file the format rejects: a dialog names the file, the field and the offset. */
static void
test_open_error_dialog (void)
{
  static const guint8 bad[] = { 'T', 'R', 'S', 'S', 'T', 'E', 'S', 'T', 5, 0, 0, 0, 1, 0, 0, 0 };
  g_autofree char *path = g_build_filename (tress_test_tmpdir (), "broken.trsstest", NULL);
  g_autoptr (GError) error = NULL;
  TressWindow *window = tress_test_window_new (0, 0);
  GtkMessageDialog *dialog;
  g_autofree char *text = NULL;

  g_file_set_contents (path, (const char *)bad, sizeof bad, &error);
  g_assert_no_error (error);
  activate_open (window, path);
  TRESS_TEST_WAIT_FOR (!tress_window_get_busy (window) && find_dialog (window) != NULL);
  dialog = find_dialog (window);
  text = dialog_text (dialog);
  g_test_message ("dialog: %s", text);
  g_assert_nonnull (strstr (text, "Could not open “broken.trsstest”"));
  g_assert_nonnull (strstr (text, "value count"));
  g_assert_nonnull (strstr (text, "offset"));
  g_assert_cmpuint (tress_window_get_n_documents (window), ==, 0);

  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CLOSE);
  TRESS_TEST_WAIT_FOR (find_dialog (window) == NULL);
  tress_test_window_destroy (window);
}

/* Ctrl+Q, typed while the "Could not open" message is up, quits: the window
 * and the message go. */
static void
test_quit_from_error_dialog (void)
{
  static const guint8 bad[] = { 'T', 'R', 'S', 'S', 'T', 'E', 'S', 'T', 5, 0, 0, 0, 1, 0, 0, 0 };
  g_autofree char *path = g_build_filename (tress_test_tmpdir (), "broken-quit.trsstest", NULL);
  g_autoptr (GError) error = NULL;
  TressWindow *window = tress_test_window_new (0, 0);
  GtkMessageDialog *dialog;

  g_file_set_contents (path, (const char *)bad, sizeof bad, &error);
  g_assert_no_error (error);
  activate_open (window, path);
  TRESS_TEST_WAIT_FOR (!tress_window_get_busy (window) && find_dialog (window) != NULL);
  dialog = find_dialog (window);
  if (!tress_test_pointer_available (GTK_WIDGET (dialog)))
    {
      tress_test_window_destroy (window);
      return;
    }
  TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (GTK_WIDGET (dialog)));
  /* Without a window manager, the keys go where the pointer is. */
  tress_test_pointer_move (GTK_WIDGET (dialog), 10, 10);
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *)&window);
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *)&dialog);
  tress_test_pointer_key (GDK_KEY_Control_L, TRUE);
  tress_test_pointer_key_unwatched (GDK_KEY_q, TRUE);
  TRESS_TEST_WAIT_FOR (window == NULL && dialog == NULL);
  tress_test_pointer_key_unwatched (GDK_KEY_q, FALSE);
  tress_test_pointer_key_unwatched (GDK_KEY_Control_L, FALSE);
}

/* A real sample cut short: the dialog names the file, the field and the offset. */
static void
test_open_truncated_sample (void)
{
  g_autoptr (GBytes) sample = tress_test_load_sample ("niff/Rings.niff");
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;
  TressWindow *window;
  g_autofree char *text = NULL;

  if (sample == NULL)
    return;
  path = g_build_filename (tress_test_tmpdir (), "cut.niff", NULL);
  g_file_set_contents (path, g_bytes_get_data (sample, NULL), 200, &error);
  g_assert_no_error (error);

  window = tress_test_window_new (0, 0);
  activate_open (window, path);
  TRESS_TEST_WAIT_FOR (!tress_window_get_busy (window) && find_dialog (window) != NULL);
  text = dialog_text (find_dialog (window));
  g_test_message ("dialog: %s", text);
  g_assert_nonnull (strstr (text, "Could not open “cut.niff”"));
  g_assert_nonnull (strstr (text, "file size"));
  g_assert_nonnull (strstr (text, "offset 0x4"));
  g_assert_cmpuint (tress_window_get_n_documents (window), ==, 0);
  tress_test_window_destroy (window);
}

/* ---- files that take long to open -------------------------------------- */

static GtkStack *
window_stack (TressWindow *window)
{
  GtkWidget *child = gtk_window_get_child (GTK_WINDOW (window));

  g_assert_true (GTK_IS_STACK (child));
  return GTK_STACK (child);
}

static const char *
shown_page (TressWindow *window)
{
  return gtk_stack_get_visible_child_name (window_stack (window));
}

static TressLoadingPage *
loading_page (TressWindow *window)
{
  GtkWidget *page = gtk_stack_get_child_by_name (window_stack (window), "loading");

  g_assert_true (TRESS_IS_LOADING_PAGE (page));
  return TRESS_LOADING_PAGE (page);
}

static GtkWidget *
find_button (GtkWidget *root, const char *label)
{
  if (GTK_IS_BUTTON (root) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (root)), label) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child, label);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A test file of 64 KiB read @chunk bytes each 25 ms (1 KiB: 1.6 s; 256
 * bytes: 6.4 s, time enough on a busy machine to see the page and cancel). */
static GFile *
slow_test_file (const char *name, gsize chunk)
{
  g_autofree guint32 *values = g_new (guint32, 16384);
  g_autofree char *path = NULL;

  for (guint i = 0; i < 16384; i++)
    values[i] = i;
  path = write_test_file (name, values, 16384, NULL);
  return tress_slow_file_new (path, chunk, 25);
}

/* Opening a file that takes long shows the loading page with its progress;
 * Cancel returns to the page shown before within 200 ms and stops the read
 * at once; nothing is opened, no error is shown. */
static void
test_loading_page_cancel (void)
{
  static const guint32 values[] = { 1, 2, 3 };
  g_autofree char *plain = write_test_file ("plain.trsstest", values, 3, NULL);
  g_autoptr (GFile) slow = slow_test_file ("slow.trsstest", 256);
  TressWindow *window = tress_test_window_new (0, 0);
  TressLoadingPage *page = loading_page (window);
  g_autofree char *text = NULL;
  GtkWidget *cancel;
  gint64 t0, back;

  for (guint round = 0; round < 2; round++)
    {
      const char *before = round == 0 ? "welcome" : "documents";
      g_autofree char *later = NULL;

      if (round == 1)
        {
          /* With a document open, the page to come back to is the documents'. */
          activate_open (window, plain);
          TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == 1
                               && !tress_window_get_busy (window));
        }
      g_assert_cmpstr (shown_page (window), ==, before);
      tress_window_open_file (window, slow);
      TRESS_TEST_WAIT_FOR (g_strcmp0 (shown_page (window), "loading") == 0);
      g_assert_cmpuint (tress_loading_page_get_n_loads (page), ==, 1);
      g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (page)));

      /* The bytes come, and the page says how many of how many. */
      TRESS_TEST_WAIT_FOR (
          (g_free (text), text = tress_loading_page_dup_text (page),
           strstr (text, "Reading: ") != NULL && strstr (text, "Reading: 0 bytes") == NULL));
      g_test_message ("loading: %s", text);
      g_assert_nonnull (strstr (text, "slow.trsstest"));
      {
        g_autofree char *size = g_format_size (12 + 4 * 16384);
        g_autofree char *of = g_strdup_printf (" of %s", size);

        g_assert_nonnull (strstr (text, of));
      }
      TRESS_TEST_WAIT_FOR ((g_free (later), later = tress_loading_page_dup_text (page),
                            g_strcmp0 (later, text) != 0));
      /* The window stays usable: its actions answer while the file is read. */
      g_assert_true (button_enabled (window, "win.open"));

      cancel = find_button (GTK_WIDGET (page), "_Cancel");
      g_assert_nonnull (cancel);
      t0 = g_get_monotonic_time ();
      /* As a click does (a key press shows the button pressed for 250 ms first). */
      g_signal_emit_by_name (cancel, "clicked");
      TRESS_TEST_WAIT_FOR (g_strcmp0 (shown_page (window), before) == 0);
      back = g_get_monotonic_time () - t0;
      g_test_message ("back to the %s page %.1f ms after Cancel", before, back / 1000.0);
      g_assert_cmpint (back, <, 200 * 1000);
      g_assert_cmpuint (tress_loading_page_get_n_loads (page), ==, 0);

      /* The read stops at once: the worker ends, no read runs past the cancel. */
      TRESS_TEST_WAIT_FOR (!tress_window_get_busy (window));
      g_assert_cmpint (g_get_monotonic_time () - t0, <, G_USEC_PER_SEC);
      g_assert_cmpuint (tress_slow_file_reads_after_cancel (), ==, 0);
      g_assert_cmpint (tress_slow_file_last_read_time (), <, t0 + 100 * 1000);
      /* Nothing comes of the cancelled read once what it queued has run. */
      tress_test_wait_idle ();
      g_assert_cmpuint (tress_window_get_n_documents (window), ==, round);
      g_assert_null (find_dialog (window));
      g_assert_cmpstr (shown_page (window), ==, before);
    }
  tress_test_window_destroy (window);
}

static void
on_page_shown (GtkStack *stack, GParamSpec *pspec, guint *n_loading)
{
  if (g_strcmp0 (gtk_stack_get_visible_child_name (stack), "loading") == 0)
    (*n_loading)++;
}

/* A long load left alone ends with its document, and the loading page goes. */
static void
test_loading_page_done (void)
{
  g_autoptr (GFile) slow = slow_test_file ("slow-done.trsstest", 1024);
  TressWindow *window = tress_test_window_new (0, 0);
  guint n_loading = 0;

  g_signal_connect (window_stack (window), "notify::visible-child-name", G_CALLBACK (on_page_shown),
                    &n_loading);
  tress_window_open_file (window, slow);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == 1);
  g_assert_cmpuint (n_loading, ==, 1);
  g_assert_cmpstr (shown_page (window), ==, "documents");
  g_assert_cmpuint (tress_loading_page_get_n_loads (loading_page (window)), ==, 0);
  g_assert_cmpstr (tress_document_get_title (tress_window_get_current_document (window)), ==,
                   "slow-done.trsstest");
  tress_test_window_destroy (window);
}

/* Closing a tab with unsaved work asks; Cancel keeps it, Close without Saving drops it. */
static void
test_close_unsaved_prompts (void)
{
  static const guint32 values[] = { 7 };
  g_autofree char *path = write_test_file ("close.trsstest", values, 1, NULL);
  g_autoptr (GBytes) original = tress_test_read_file (path);
  g_autoptr (GBytes) on_disk = NULL;
  TressWindow *window = tress_test_window_new (0, 0);
  GtkMessageDialog *dialog;
  g_autofree char *text = NULL;

  activate_open (window, path);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == 1
                       && !tress_window_get_busy (window));
  g_assert_true (gtk_widget_activate_action (
      tress_document_page_get_editor (tress_window_get_current_page (window)), "test.set-value",
      "(uu)", 0, 8));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.close-document", NULL));
  TRESS_TEST_WAIT_FOR (find_dialog (window) != NULL);
  dialog = find_dialog (window);
  text = dialog_text (dialog);
  g_assert_nonnull (strstr (text, "Save changes to “close.trsstest” before closing?"));
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  TRESS_TEST_WAIT_FOR (find_dialog (window) == NULL);
  g_assert_cmpuint (tress_window_get_n_documents (window), ==, 1);

  /* Closing the window asks as well, and Cancel keeps it open. */
  gtk_window_close (GTK_WINDOW (window));
  TRESS_TEST_WAIT_FOR (find_dialog (window) != NULL);
  g_clear_pointer (&text, g_free);
  text = dialog_text (find_dialog (window));
  g_assert_nonnull (strstr (text, "Save changes to 1 document before closing?"));
  gtk_dialog_response (GTK_DIALOG (find_dialog (window)), GTK_RESPONSE_CANCEL);
  TRESS_TEST_WAIT_FOR (find_dialog (window) == NULL);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window)));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.close-document", NULL));
  TRESS_TEST_WAIT_FOR (find_dialog (window) != NULL);
  gtk_dialog_response (GTK_DIALOG (find_dialog (window)), 1 /* close without saving */);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == 0);
  on_disk = tress_test_read_file (path);
  tress_test_assert_bytes_equal (on_disk, original);
  tress_test_window_destroy (window);
}

/* The prompt's Save writes the file and then closes the tab. */
static void
test_close_prompt_saves (void)
{
  static const guint32 values[] = { 7, 9 };
  static const guint32 edited[] = { 7, 10 };
  g_autofree char *path = write_test_file ("close-save.trsstest", values, 2, NULL);
  g_autoptr (GBytes) expected = expected_bytes (edited, 2, NULL);
  g_autoptr (GBytes) on_disk = NULL;
  TressWindow *window = tress_test_window_new (0, 0);

  activate_open (window, path);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == 1
                       && !tress_window_get_busy (window));
  gtk_widget_activate_action (
      tress_document_page_get_editor (tress_window_get_current_page (window)), "test.set-value",
      "(uu)", 1, 10);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.close-document", NULL));
  TRESS_TEST_WAIT_FOR (find_dialog (window) != NULL);
  gtk_dialog_response (GTK_DIALOG (find_dialog (window)), 2 /* save */);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == 0);
  on_disk = tress_test_read_file (path);
  tress_test_assert_bytes_equal (on_disk, expected);
  tress_test_window_destroy (window);
}

/* Several documents at once; opening one again shows its page. */
/* Two files of the same name in different folders: each tab says its folder,
 * as many levels up as it takes; alone again, the name is enough. */
static void
test_same_name_tabs (void)
{
  static const guint32 values[] = { 1 };
  g_autofree char *dir_a = g_build_filename (tress_test_tmpdir (), "fur", "demo", NULL);
  g_autofree char *dir_b = g_build_filename (tress_test_tmpdir (), "other", "demo", NULL);
  g_autofree char *dir_c = g_build_filename (tress_test_tmpdir (), "bats", NULL);
  g_autofree char *a = NULL, *b = NULL, *c = NULL, *tab = NULL;
  g_autoptr (GBytes) bytes = tress_test_format_build (values, 1);
  TressWindow *window = tress_test_window_new (0, 0);

  g_assert_cmpint (g_mkdir_with_parents (dir_a, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (dir_b, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (dir_c, 0700), ==, 0);
  a = g_build_filename (dir_a, "same.trsstest", NULL);
  b = g_build_filename (dir_b, "same.trsstest", NULL);
  c = g_build_filename (dir_c, "same.trsstest", NULL);
  g_assert_true (g_file_set_contents (a, g_bytes_get_data (bytes, NULL),
                                      (gssize)g_bytes_get_size (bytes), NULL));
  g_assert_true (g_file_set_contents (b, g_bytes_get_data (bytes, NULL),
                                      (gssize)g_bytes_get_size (bytes), NULL));
  g_assert_true (g_file_set_contents (c, g_bytes_get_data (bytes, NULL),
                                      (gssize)g_bytes_get_size (bytes), NULL));

  activate_open (window, a);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == 1
                       && !tress_window_get_busy (window));
  tab = tab_text (window, 0);
  g_assert_cmpstr (tab, ==, "same.trsstest");
  g_clear_pointer (&tab, g_free);
  activate_open (window, c);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == 2
                       && !tress_window_get_busy (window));
  tab = tab_text (window, 0);
  g_assert_cmpstr (tab, ==, "same.trsstest — demo");
  g_clear_pointer (&tab, g_free);
  tab = tab_text (window, 1);
  g_assert_cmpstr (tab, ==, "same.trsstest — bats");
  g_clear_pointer (&tab, g_free);
  /* The same folder name twice: one level more. */
  activate_open (window, b);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == 3
                       && !tress_window_get_busy (window));
  tab = tab_text (window, 0);
  g_assert_cmpstr (tab, ==, "same.trsstest — fur/demo");
  g_clear_pointer (&tab, g_free);
  tab = tab_text (window, 2);
  g_assert_cmpstr (tab, ==, "same.trsstest — other/demo");
  g_clear_pointer (&tab, g_free);
  tab = tab_text (window, 1);
  g_assert_cmpstr (tab, ==, "same.trsstest — bats");
  g_clear_pointer (&tab, g_free);
  /* Alone again. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.close-document", NULL);
  gtk_notebook_set_current_page (
      GTK_NOTEBOOK (gtk_widget_get_ancestor (GTK_WIDGET (tress_window_get_page (window, 0)),
                                             GTK_TYPE_NOTEBOOK)),
      1);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.close-document", NULL);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == 1);
  tab = tab_text (window, 0);
  g_assert_cmpstr (tab, ==, "same.trsstest");
  tress_test_window_destroy (window);
}

static void
test_several_documents (void)
{
  static const guint32 a_values[] = { 1 };
  static const guint32 b_values[] = { 2, TRESS_TEST_RESERVED_VALUE };
  g_autofree char *a = write_test_file ("a.trsstest", a_values, 1, NULL);
  g_autofree char *b = write_test_file ("b.trsstest", b_values, 2, NULL);
  TressWindow *window = tress_test_window_new (0, 0);
  g_autofree char *tab = NULL;

  activate_open (window, a);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == 1
                       && !tress_window_get_busy (window));
  activate_open (window, b);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == 2
                       && !tress_window_get_busy (window));
  g_assert_cmpuint (tress_test_model_get_n_values (current_model (window)), ==, 2);

  /* Undo acts on the current document only. */
  gtk_widget_activate_action (
      tress_document_page_get_editor (tress_window_get_current_page (window)), "test.set-value",
      "(uu)", 0, 5);
  tab = tab_text (window, 0);
  g_assert_cmpstr (tab, ==, "a.trsstest");
  g_clear_pointer (&tab, g_free);
  tab = tab_text (window, 1);
  g_assert_cmpstr (tab, ==, "• b.trsstest");

  /* Both are recent files now, in the Open Recent menu; a glTF file the
   * file chooser recorded under the application's name (an export's or an
   * import's) is not: Tress does not open it. */
  {
    g_autoptr (GFile) b_file = g_file_new_for_path (b);
    g_autofree char *b_uri = g_file_get_uri (b_file);
    g_autofree char *dir = g_path_get_dirname (b);
    g_autofree char *glb = g_build_filename (dir, "chosen.glb", NULL);
    g_autoptr (GFile) glb_file = g_file_new_for_path (glb);
    g_autofree char *glb_uri = g_file_get_uri (glb_file);

    g_assert_true (g_file_set_contents (glb, "glTF", 4, NULL));
    g_assert_true (gtk_recent_manager_add_item (gtk_recent_manager_get_default (), glb_uri));
    g_assert_true (gtk_recent_manager_has_item (gtk_recent_manager_get_default (), b_uri));
    TRESS_TEST_WAIT_FOR (
        recent_menu_has (window, "b.trsstest") && recent_menu_has (window, "a.trsstest")
        && gtk_recent_manager_has_item (gtk_recent_manager_get_default (), glb_uri));
    tress_test_wait_idle ();
    g_assert_false (recent_menu_has (window, "chosen.glb"));
  }

  activate_open (window, a);
  TRESS_TEST_WAIT_FOR (!tress_window_get_busy (window));
  g_assert_cmpuint (tress_window_get_n_documents (window), ==, 2);
  /* Twice at once, before either read finished: still one page. */
  {
    static const guint32 c_values[] = { 4 };
    g_autofree char *c = write_test_file ("c.trsstest", c_values, 1, NULL);

    activate_open (window, c);
    activate_open (window, c);
    TRESS_TEST_WAIT_FOR (!tress_window_get_busy (window));
    g_assert_cmpuint (tress_window_get_n_documents (window), ==, 3);
    gtk_widget_activate_action (GTK_WIDGET (window), "win.close-document", NULL);
    g_assert_cmpuint (tress_window_get_n_documents (window), ==, 2);
    activate_open (window, a);
    TRESS_TEST_WAIT_FOR (!tress_window_get_busy (window));
  }
  g_assert_cmpuint (tress_test_model_get_n_values (current_model (window)), ==, 1);
  g_assert_false (button_enabled (window, "win.undo"));

  gtk_notebook_set_current_page (
      GTK_NOTEBOOK (gtk_widget_get_ancestor (GTK_WIDGET (tress_window_get_page (window, 1)),
                                             GTK_TYPE_NOTEBOOK)),
      1);
  g_assert_true (button_enabled (window, "win.undo"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL));
  g_assert_cmpuint (tress_test_model_get_value (current_model (window), 0), ==, 2);
  g_assert_false (tress_window_get_has_unsaved (window));

  /* What the window shows renders to a PNG of its size. */
  {
    g_autofree char *png = g_build_filename (tress_test_tmpdir (), "two-documents.png", NULL);
    g_autoptr (GError) error = NULL;
    g_autoptr (GdkTexture) texture = NULL;

    /* The window maps and gets its size through the main loop (late on a busy
     * machine), and nothing is drawn while a layout is pending: try again on a
     * later frame. */
    TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (GTK_WIDGET (window))
                         && gtk_widget_get_width (GTK_WIDGET (window)) > 0);
    TRESS_TEST_WAIT_FOR (tress_window_render_png (GTK_WINDOW (window), png, &error)
                         || !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK)
                         || (g_clear_error (&error), FALSE));
    g_assert_no_error (error);
    texture = gdk_texture_new_from_filename (png, &error);
    g_assert_no_error (error);
    g_assert_cmpint (gdk_texture_get_width (texture), ==,
                     gtk_widget_get_width (GTK_WIDGET (window)));
    g_assert_cmpint (gdk_texture_get_height (texture), ==,
                     gtk_widget_get_height (GTK_WIDGET (window)));
    /* TRESS_TEST_KEEP_PNG=PATH keeps a copy to look at. */
    if (g_getenv ("TRESS_TEST_KEEP_PNG") != NULL)
      {
        g_autoptr (GFile) from = g_file_new_for_path (png);
        g_autoptr (GFile) to = g_file_new_for_path (g_getenv ("TRESS_TEST_KEEP_PNG"));

        g_file_copy (from, to, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, NULL);
      }
  }
  tress_test_window_destroy (window);
}

/* Files dropped on the window are opened. */
static void
test_drop_files (void)
{
  static const guint32 values[] = { 11 };
  g_autofree char *path = write_test_file ("dropped.trsstest", values, 1, NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  TressWindow *window = tress_test_window_new (0, 0);
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));
  GtkDropTarget *drop = NULL;
  GValue value = G_VALUE_INIT;
  GSList *files = g_slist_prepend (NULL, file);
  gboolean accepted = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers) && drop == NULL; i++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);
      if (GTK_IS_DROP_TARGET (controller))
        drop = GTK_DROP_TARGET (controller);
    }
  g_assert_nonnull (drop);

  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_set_boxed (&value, files);
  g_signal_emit_by_name (drop, "drop", &value, 10.0, 10.0, &accepted);
  g_value_unset (&value);
  g_slist_free (files);
  g_assert_true (accepted);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == 1
                       && !tress_window_get_busy (window));
  g_assert_cmpuint (tress_test_model_get_value (current_model (window), 0), ==, 11);
  tress_test_window_destroy (window);
}

/* The file changed on disk since it was read: saving asks before overwriting. */
static void
test_save_changed_on_disk (void)
{
  static const guint32 values[] = { 1, 2 };
  static const guint32 other[] = { 9, 9, 9 };
  static const guint32 edited[] = { 1, 5 };
  g_autofree char *path = write_test_file ("changed.trsstest", values, 2, NULL);
  g_autoptr (GBytes) other_bytes = tress_test_format_build (other, 3);
  g_autoptr (GBytes) expected = expected_bytes (edited, 2, NULL);
  g_autoptr (GBytes) on_disk = NULL;
  g_autoptr (GError) error = NULL;
  TressWindow *window = tress_test_window_new (0, 0);
  g_autofree char *text = NULL;

  activate_open (window, path);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == 1
                       && !tress_window_get_busy (window));
  gtk_widget_activate_action (
      tress_document_page_get_editor (tress_window_get_current_page (window)), "test.set-value",
      "(uu)", 1, 5);
  g_file_set_contents (path, g_bytes_get_data (other_bytes, NULL), g_bytes_get_size (other_bytes),
                       &error);
  g_assert_no_error (error);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL));
  TRESS_TEST_WAIT_FOR (!tress_window_get_busy (window) && find_dialog (window) != NULL);
  text = dialog_text (find_dialog (window));
  g_assert_nonnull (strstr (text, "“changed.trsstest” changed on disk"));
  /* Cancel: the other program's file stays. */
  gtk_dialog_response (GTK_DIALOG (find_dialog (window)), GTK_RESPONSE_CANCEL);
  TRESS_TEST_WAIT_FOR (find_dialog (window) == NULL && !tress_window_get_busy (window));
  on_disk = tress_test_read_file (path);
  tress_test_assert_bytes_equal (on_disk, other_bytes);
  g_clear_pointer (&on_disk, g_bytes_unref);
  g_assert_true (tress_document_get_modified (tress_window_get_current_document (window)));

  /* Save again and overwrite. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL));
  TRESS_TEST_WAIT_FOR (!tress_window_get_busy (window) && find_dialog (window) != NULL);
  gtk_dialog_response (GTK_DIALOG (find_dialog (window)), GTK_RESPONSE_ACCEPT);
  TRESS_TEST_WAIT_FOR (
      !tress_window_get_busy (window)
      && !tress_document_get_modified (tress_window_get_current_document (window)));
  on_disk = tress_test_read_file (path);
  tress_test_assert_bytes_equal (on_disk, expected);
  tress_test_window_destroy (window);
}

/* A failed save shows why and leaves the file untouched. */
static void
test_save_failure_dialog (void)
{
  static const guint32 values[] = { 4 };
  g_autofree char *path = write_test_file ("fail.trsstest", values, 1, NULL);
  g_autoptr (GBytes) original = tress_test_read_file (path);
  g_autoptr (GBytes) on_disk = NULL;
  TressWindow *window = tress_test_window_new (0, 0);
  g_autofree char *text = NULL;

  activate_open (window, path);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == 1
                       && !tress_window_get_busy (window));
  gtk_widget_activate_action (
      tress_document_page_get_editor (tress_window_get_current_page (window)), "test.set-value",
      "(uu)", 0, 6);
  tress_test_format_set_failure (TRESS_TEST_FAILURE_SERIALIZE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL));
  TRESS_TEST_WAIT_FOR (!tress_window_get_busy (window) && find_dialog (window) != NULL);
  tress_test_format_set_failure (TRESS_TEST_FAILURE_NONE);
  text = dialog_text (find_dialog (window));
  g_assert_nonnull (strstr (text, "Could not save “fail.trsstest”"));
  g_assert_nonnull (strstr (text, "told to fail"));
  on_disk = tress_test_read_file (path);
  tress_test_assert_bytes_equal (on_disk, original);
  g_assert_true (tress_document_get_modified (tress_window_get_current_document (window)));
  tress_test_window_destroy (window);
}

/* The generic page shows the description and each problem with its location and offset. */
static void
test_info_view (void)
{
  static const guint32 values[] = { 5, TRESS_TEST_RESERVED_VALUE, 70000 };
  g_autoptr (GBytes) bytes = tress_test_format_build (values, 3);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressDocument) doc = tress_document_new_from_bytes (bytes, "info.trsstest", &error);
  GtkWidget *view;
  g_autofree char *text = NULL;

  g_assert_no_error (error);
  view = g_object_ref_sink (tress_info_view_new (doc));
  text = tress_info_view_dup_text (TRESS_INFO_VIEW (view));
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "info.trsstest\nTress test values\n"));
  g_assert_nonnull (strstr (text, "Values: 3"));
  g_assert_nonnull (strstr (text, "2 problems, 1 error\n"));
  g_assert_nonnull (
      strstr (text, "Error: the value 0xFFFFFFFF is reserved (value 1 · offset 0x10 (16))"));
  g_assert_nonnull (
      strstr (text, "Warning: the value 70000 is above 65535 (value 2 · offset 0x14 (20))"));

  /* It follows the document's changes. */
  tress_test_model_set_value (tress_document_get_history (doc), tress_document_get_model (doc), 1,
                              0);
  tress_test_model_set_value (tress_document_get_history (doc), tress_document_get_model (doc), 2,
                              1);
  g_clear_pointer (&text, g_free);
  text = tress_info_view_dup_text (TRESS_INFO_VIEW (view));
  g_assert_nonnull (strstr (text, "No problems found"));
  g_assert_null (strstr (text, "Error:"));
  /* Nothing it connected keeps it or the document alive. */
  tress_test_assert_finalized (view, TRUE, "the info view");
  tress_test_assert_finalized (g_steal_pointer (&doc), TRUE, "the document");
}

/* A thousand problems of one kind: the first ones are listed, the rest summed
 * up in one row, and the heading counts them all. */
static void
test_info_view_many_problems (void)
{
  g_autofree guint32 *values = g_new (guint32, 1000);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (TressDocument) doc = NULL;
  GtkWidget *view;
  g_autofree char *text = NULL;

  for (guint i = 0; i < 1000; i++)
    values[i] = TRESS_TEST_RESERVED_VALUE;
  bytes = tress_test_format_build (values, 1000);
  doc = tress_document_new_from_bytes (bytes, "many.trsstest", &error);
  g_assert_no_error (error);
  view = g_object_ref_sink (tress_info_view_new (doc));
  text = tress_info_view_dup_text (TRESS_INFO_VIEW (view));
  g_assert_nonnull (strstr (text, "1000 problems, 1000 errors\n"));
  g_assert_nonnull (strstr (text, "(value 19 · offset 0x58 (88))"));
  g_assert_null (strstr (text, "(value 20 "));
  g_assert_nonnull (strstr (text, "and 980 more of this kind"));
  g_assert_null (strstr (text, "not shown"));
  tress_test_assert_finalized (view, TRUE, "the info view");
  tress_test_assert_finalized (g_steal_pointer (&doc), TRUE, "the document");
}

/* Formats without an editor of their own get the generic page. */
static void
test_editor_fallback (void)
{
  static const guint32 values[] = { 1 };
  g_autoptr (GBytes) bytes = tress_test_format_build (values, 1);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressDocument) doc = tress_document_new_from_bytes (bytes, "x.trsstest", &error);
  GtkWidget *editor;

  g_assert_no_error (error);
  g_assert_true (tress_editor_is_registered ("trsstest"));
  editor = g_object_ref_sink (tress_editor_create (doc));
  g_assert_true (gtk_widget_has_css_class (editor, "test-editor"));
  tress_test_assert_finalized (editor, TRUE, "the editor");
  tress_test_assert_finalized (g_steal_pointer (&doc), TRUE, "the document");

  g_assert_false (tress_editor_is_registered ("no-such-format"));
}

/* Revert asks, then reads the file again: the edits are gone and cannot be undone. */
static void
test_revert (void)
{
  static const guint32 values[] = { 3, 4 };
  g_autofree char *path = write_test_file ("revert.trsstest", values, 2, NULL);
  TressWindow *window = tress_test_window_new (0, 0);
  GtkWidget *old_editor;
  g_autofree char *text = NULL;

  activate_open (window, path);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == 1
                       && !tress_window_get_busy (window));
  g_assert_false (button_enabled (window, "win.save"));
  old_editor = tress_document_page_get_editor (tress_window_get_current_page (window));
  gtk_widget_activate_action (old_editor, "test.set-value", "(uu)", 0, 30);
  gtk_widget_activate_action (old_editor, "test.set-value", "(uu)", 1, 40);
  g_object_add_weak_pointer (G_OBJECT (old_editor), (gpointer *)&old_editor);
  g_assert_cmpuint (tress_test_model_get_value (current_model (window), 1), ==, 40);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.revert", NULL));
  TRESS_TEST_WAIT_FOR (find_dialog (window) != NULL);
  text = dialog_text (find_dialog (window));
  g_assert_nonnull (strstr (text, "Revert unsaved changes to “revert.trsstest”?"));
  gtk_dialog_response (GTK_DIALOG (find_dialog (window)), GTK_RESPONSE_ACCEPT);
  TRESS_TEST_WAIT_FOR (find_dialog (window) == NULL);
  g_assert_cmpuint (tress_test_model_get_value (current_model (window), 0), ==, 3);
  g_assert_cmpuint (tress_test_model_get_value (current_model (window), 1), ==, 4);
  g_assert_false (tress_document_get_modified (tress_window_get_current_document (window)));
  g_assert_false (button_enabled (window, "win.undo"));
  /* The page has a new editor on the new model. */
  g_assert_null (old_editor);
  g_assert_nonnull (tress_document_page_get_editor (tress_window_get_current_page (window)));
  tress_test_window_destroy (window);
}

/* The page's banner: its text when shown, NULL when hidden. */
static const char *
banner_text (TressDocumentPage *page)
{
  GtkWidget *reload = find_action_widget (GTK_WIDGET (page), "win.revert");
  GtkWidget *banner = reload != NULL ? gtk_widget_get_parent (reload) : NULL;

  g_assert_nonnull (banner);
  if (!gtk_widget_get_visible (banner))
    return NULL;
  return gtk_label_get_text (GTK_LABEL (gtk_widget_get_first_child (banner)));
}

/* Another program changes the open file: the page says so and offers Reload,
 * which reads it again (without a question while nothing is unsaved); with
 * unsaved edits Reload asks first; a removed file is said to be gone. */
static void
test_disk_changed_banner (void)
{
  static const guint32 values[] = { 1, 2 };
  static const guint32 other[] = { 7, 8, 9 };
  static const guint32 third[] = { 5 };
  g_autofree char *path = write_test_file ("watched.trsstest", values, 2, NULL);
  g_autoptr (GBytes) other_bytes = tress_test_format_build (other, 3);
  g_autoptr (GBytes) third_bytes = tress_test_format_build (third, 1);
  g_autoptr (GError) error = NULL;
  TressWindow *window = tress_test_window_new (0, 0);
  TressDocumentPage *page;
  GtkWidget *reload;

  activate_open (window, path);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == 1
                       && !tress_window_get_busy (window));
  page = tress_window_get_current_page (window);
  reload = find_action_widget (GTK_WIDGET (page), "win.revert");
  g_assert_null (banner_text (page));
  g_assert_false (gtk_widget_get_sensitive (reload));

  /* Changed, nothing unsaved: Reload reads it at once. */
  g_file_set_contents (path, g_bytes_get_data (other_bytes, NULL), g_bytes_get_size (other_bytes),
                       &error);
  g_assert_no_error (error);
  TRESS_TEST_WAIT_FOR (banner_text (page) != NULL);
  g_assert_nonnull (strstr (banner_text (page), "“watched.trsstest” changed on disk"));
  g_assert_true (gtk_widget_get_sensitive (reload));
  /* A button's activation clicks it after its press animation. */
  gtk_widget_activate (reload);
  TRESS_TEST_WAIT_FOR (tress_test_model_get_n_values (current_model (window)) == 3);
  g_assert_null (find_dialog (window));
  g_assert_cmpuint (tress_test_model_get_value (current_model (window), 2), ==, 9);
  g_assert_null (banner_text (page));

  /* Changed under unsaved edits: the banner says what Reload drops, which asks. */
  gtk_widget_activate_action (tress_document_page_get_editor (page), "test.set-value", "(uu)", 0,
                              70);
  g_file_set_contents (path, g_bytes_get_data (third_bytes, NULL), g_bytes_get_size (third_bytes),
                       &error);
  g_assert_no_error (error);
  TRESS_TEST_WAIT_FOR (banner_text (page) != NULL);
  g_assert_nonnull (strstr (banner_text (page), "dropping yours"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.revert", NULL));
  TRESS_TEST_WAIT_FOR (find_dialog (window) != NULL);
  gtk_dialog_response (GTK_DIALOG (find_dialog (window)), GTK_RESPONSE_ACCEPT);
  TRESS_TEST_WAIT_FOR (find_dialog (window) == NULL);
  g_assert_cmpuint (tress_test_model_get_n_values (current_model (window)), ==, 1);
  g_assert_null (banner_text (page));

  /* Removed: said so, nothing to reload; saving writes it again. */
  g_assert_cmpint (g_remove (path), ==, 0);
  TRESS_TEST_WAIT_FOR (banner_text (page) != NULL);
  g_assert_nonnull (strstr (banner_text (page), "deleted or moved"));
  g_assert_false (gtk_widget_get_visible (reload));
  g_assert_false (gtk_widget_get_sensitive (reload));
  tress_test_window_destroy (window);
}

/* Opening a file again after another program changed it shows what is on
 * disk now (nothing unsaved is lost). */
static void
test_reopen_changed_file (void)
{
  static const guint32 values[] = { 1, 2, 3 };
  static const guint32 other[] = { 4, 4, 4, 4 };
  g_autofree char *path = write_test_file ("reopen.trsstest", values, 3, NULL);
  g_autoptr (GBytes) other_bytes = tress_test_format_build (other, 4);
  g_autoptr (GError) error = NULL;
  TressWindow *window = tress_test_window_new (0, 0);

  activate_open (window, path);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == 1
                       && !tress_window_get_busy (window));
  g_file_set_contents (path, g_bytes_get_data (other_bytes, NULL), g_bytes_get_size (other_bytes),
                       &error);
  g_assert_no_error (error);
  activate_open (window, path);
  TRESS_TEST_WAIT_FOR (!tress_window_get_busy (window));
  g_assert_cmpuint (tress_window_get_n_documents (window), ==, 1);
  g_assert_cmpuint (tress_test_model_get_n_values (current_model (window)), ==, 4);
  g_assert_null (find_dialog (window));
  tress_test_window_destroy (window);
}

/* Save is off while a save runs (a quick second Ctrl+S does nothing), and
 * closing right after Save waits for that save instead of failing. */
static void
test_save_then_close (void)
{
  static const guint32 values[] = { 1, 2 };
  static const guint32 edited[] = { 1, 6 };
  g_autofree char *path = write_test_file ("quick.trsstest", values, 2, NULL);
  g_autoptr (GBytes) expected = expected_bytes (edited, 2, NULL);
  g_autoptr (GBytes) on_disk = NULL;
  TressWindow *window = tress_test_window_new (0, 0);

  activate_open (window, path);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == 1
                       && !tress_window_get_busy (window));
  gtk_widget_activate_action (
      tress_document_page_get_editor (tress_window_get_current_page (window)), "test.set-value",
      "(uu)", 1, 6);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL));
  g_assert_true (tress_document_get_saving (tress_window_get_current_document (window)));
  g_assert_false (button_enabled (window, "win.save"));
  /* The second Save is refused by the action itself: no error, one write. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.close-document", NULL));
  /* Still modified until the save lands: the close prompt comes; Save waits. */
  TRESS_TEST_WAIT_FOR (find_dialog (window) != NULL || tress_window_get_n_documents (window) == 0);
  if (find_dialog (window) != NULL)
    gtk_dialog_response (GTK_DIALOG (find_dialog (window)), 2 /* save */);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == 0);
  g_assert_null (find_dialog (window));
  on_disk = tress_test_read_file (path);
  tress_test_assert_bytes_equal (on_disk, expected);
  tress_test_window_destroy (window);
}

/* Switching documents works from the window, whatever editor has the focus. */
static void
test_switch_documents (void)
{
  static const guint32 one[] = { 1 };
  static const guint32 two[] = { 2, 2 };
  static const guint32 three[] = { 3, 3, 3 };
  g_autofree char *p1 = write_test_file ("one.trsstest", one, 1, NULL);
  g_autofree char *p2 = write_test_file ("two.trsstest", two, 2, NULL);
  g_autofree char *p3 = write_test_file ("three.trsstest", three, 3, NULL);
  TressWindow *window = tress_test_window_new (0, 0);
  GtkWidget *editor;

  activate_open (window, p1);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == 1
                       && !tress_window_get_busy (window));
  activate_open (window, p2);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == 2
                       && !tress_window_get_busy (window));
  activate_open (window, p3);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == 3
                       && !tress_window_get_busy (window));
  g_assert_cmpuint (tress_test_model_get_n_values (current_model (window)), ==, 3);

  editor = tress_document_page_get_editor (tress_window_get_current_page (window));
  g_assert_true (gtk_widget_activate_action (editor, "win.next-document", NULL));
  g_assert_cmpuint (tress_test_model_get_n_values (current_model (window)), ==, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.previous-document", NULL));
  g_assert_cmpuint (tress_test_model_get_n_values (current_model (window)), ==, 3);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.select-document", "i", 1));
  g_assert_cmpuint (tress_test_model_get_n_values (current_model (window)), ==, 2);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.select-document", "i", 8));
  g_assert_cmpuint (tress_test_model_get_n_values (current_model (window)), ==, 3);
  tress_test_window_destroy (window);
}

static GtkWidget *
find_action_shortcut (GtkWidget *root, const char *action)
{
  if (GTK_IS_SHORTCUTS_SHORTCUT (root))
    {
      g_autofree char *name = NULL;

      g_object_get (root, "action-name", &name, NULL);
      if (g_strcmp0 (name, action) == 0)
        return root;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_action_shortcut (child, action);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* About and Keyboard Shortcuts open their windows. */
static void
test_about_and_shortcuts (void)
{
  TressWindow *window = tress_test_window_new (0, 0);
  GtkWindow *about;
  GtkWindow *shortcuts;

  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  TRESS_TEST_WAIT_FOR ((about = find_toplevel (GTK_TYPE_ABOUT_DIALOG)) != NULL);
  g_assert_cmpstr (gtk_about_dialog_get_program_name (GTK_ABOUT_DIALOG (about)), ==, "Tress");
  gtk_window_destroy (about);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  TRESS_TEST_WAIT_FOR ((shortcuts = find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW)) != NULL);
  /* It shows the application's accelerators for the window's actions. */
  {
    GtkWidget *save = find_action_shortcut (GTK_WIDGET (shortcuts), "win.save");
    g_autofree char *accel = NULL;

    g_assert_nonnull (save);
    g_object_get (save, "accelerator", &accel, NULL);
    g_assert_cmpstr (accel, ==, "<Control>s");
  }
  gtk_window_close (shortcuts);
  TRESS_TEST_WAIT_FOR (find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW) == NULL);
  tress_test_window_destroy (window);
}

/* The file chooser shown, once it is on screen and has begun listing its
 * folder, as it has by the time a person can answer it. */
static GtkWindow *
wait_for_chooser (void)
{
  GtkWindow *chooser;

  TRESS_TEST_WAIT_FOR ((chooser = find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG)) != NULL
                       && gtk_widget_get_mapped (GTK_WIDGET (chooser)));
  tress_test_spin (20);
  return chooser;
}

/* Open shows a file chooser filtered by the registered formats; Save of a
 * document without file asks where, suggesting a name with the format's
 * extension. (Accepting is not driven here: the fallback chooser picks its own
 * folder when answered programmatically.) */
static void
test_file_choosers (void)
{
  static const guint32 values[] = { 21, 22 };
  g_autoptr (GBytes) bytes = tress_test_format_build (values, 2);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressDocument) doc = tress_document_new_from_bytes (bytes, "untitled", &error);
  TressWindow *window = tress_test_window_new (0, 0);
  GtkWindow *chooser;
  g_autoptr (GListModel) filters = NULL;
  gboolean found_test = FALSE, found_all = FALSE;

  g_assert_no_error (error);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.open", NULL));
  chooser = wait_for_chooser ();
  g_assert_true (gtk_file_chooser_get_select_multiple (GTK_FILE_CHOOSER (chooser)));
  filters = gtk_file_chooser_get_filters (GTK_FILE_CHOOSER (chooser));
  for (guint i = 0; i < g_list_model_get_n_items (filters); i++)
    {
      g_autoptr (GtkFileFilter) filter = g_list_model_get_item (filters, i);
      const char *name = gtk_file_filter_get_name (filter);

      found_test |= g_strcmp0 (name, "Tress test values (*.trsstest)") == 0;
      found_all |= g_strcmp0 (name, "All Supported Files") == 0;
    }
  g_assert_true (found_test);
  g_assert_true (found_all);
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
  TRESS_TEST_WAIT_FOR (find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG) == NULL);
  g_assert_cmpuint (tress_window_get_n_documents (window), ==, 0);

  /* A document without a file: Save asks where. */
  tress_window_add_document (window, doc);
  g_assert_true (button_enabled (window, "win.save"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL));
  chooser = wait_for_chooser ();
  g_assert_cmpstr (gtk_file_chooser_get_current_name (GTK_FILE_CHOOSER (chooser)), ==,
                   "untitled.trsstest");
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
  TRESS_TEST_WAIT_FOR (find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG) == NULL);
  g_assert_null (tress_document_get_file (doc));
  g_assert_null (find_dialog (window));
  g_clear_object (&doc); /* the window's alone now, and freed with it */
  tress_test_window_destroy (window);
  /* Nothing the choosers started reports back after they are gone, but for
   * one thing of GTK 4.8's own: a chooser answered while it still reads its
   * folder (which only a program is quick enough to do; waiting for the
   * chooser to be on screen made it rarer, not gone, on a loaded machine)
   * shows a parentless "The folder contents could not be displayed" error,
   * "Operation was cancelled". That one is closed; any other dialog fails. */
  tress_test_spin (100);
  {
    GtkWindow *stray;

    while ((stray = find_toplevel (GTK_TYPE_MESSAGE_DIALOG)) != NULL)
      {
        g_autofree char *text = NULL, *secondary = NULL;

        g_object_get (stray, "text", &text, "secondary-text", &secondary, NULL);
        if (g_strcmp0 (text, "The folder contents could not be displayed") != 0 || secondary == NULL
            || strstr (secondary, "cancelled") == NULL)
          g_error ("a dialog strayed after the file choosers: %s (%s)", text, secondary);
        g_test_message ("GTK's own cancelled-folder error after a chooser answered at once");
        gtk_window_destroy (stray);
      }
  }
}

/* Open and Save As left open when their window closes: the chooser goes
 * with the window (Cancel), and keeps neither the window nor the document
 * alive, nor answers later into a window that is gone. */
static void
test_chooser_left_open (void)
{
  static const char *const actions[] = { "win.open", "win.save-as" };

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    {
      static const guint32 values[] = { 31, 32 };
      g_autoptr (GBytes) bytes = tress_test_format_build (values, 2);
      g_autoptr (GError) error = NULL;
      g_autoptr (TressDocument) doc = tress_document_new_from_bytes (bytes, "unsaved", &error);
      TressWindow *window = tress_test_window_new (0, 0);

      g_assert_no_error (error);
      tress_window_add_document (window, doc);
      g_clear_object (&doc);
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), actions[i], NULL));
      wait_for_chooser ();
      tress_test_window_destroy (window);
      g_assert_null (find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG));
    }
}

/* A window's surface can outlive it (GDK keeps the one under the pointer,
 * and a size computation queued on it still runs): nothing connected to the
 * surface may then point at the freed window. Checked for the editor's window
 * and for a dialog of GTK's own. */
static void
test_surface_outlives_window (void)
{
  TressWindow *window = tress_test_window_new (0, 0);
  /* (the signal exists once a toplevel surface does) */
  const guint compute_size = g_signal_lookup ("compute-size", GDK_TYPE_TOPLEVEL);
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (window), GTK_DIALOG_MODAL,
                                              GTK_MESSAGE_INFO, GTK_BUTTONS_OK, "Test");
  g_autoptr (GdkSurface) surface = NULL;
  g_autoptr (GdkSurface) dialog_surface = NULL;

  gtk_window_present (GTK_WINDOW (dialog));
  TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (dialog));
  surface = g_object_ref (gtk_native_get_surface (GTK_NATIVE (window)));
  dialog_surface = g_object_ref (gtk_native_get_surface (GTK_NATIVE (dialog)));
  g_assert_true (g_signal_has_handler_pending (surface, compute_size, 0, FALSE));

  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *)&dialog);
  gtk_window_destroy (GTK_WINDOW (dialog));
  TRESS_TEST_WAIT_FOR (dialog == NULL);
  tress_test_window_destroy (window);
  g_assert_false (g_signal_has_handler_pending (surface, compute_size, 0, FALSE));
  g_assert_false (g_signal_has_handler_pending (dialog_surface, compute_size, 0, FALSE));
}

/* The window's size is kept in GSettings. */
static void
test_window_size_saved (void)
{
  g_autoptr (GSettings) settings = g_settings_new (TRESS_APP_ID);
  TressWindow *window;
  int width = 0, height = 0;

  g_settings_set_int (settings, "window-width", 700);
  g_settings_set_int (settings, "window-height", 500);
  window = tress_window_new (GTK_APPLICATION (app));
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 700);
  g_assert_cmpint (height, ==, 500);

  gtk_window_set_default_size (GTK_WINDOW (window), 810, 520);
  gtk_window_present (GTK_WINDOW (window));
  TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (GTK_WIDGET (window)));
  /* Closed as a user closes it: the size is stored, and the window freed. */
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *)&window);
  gtk_window_close (GTK_WINDOW (window));
  TRESS_TEST_WAIT_FOR (window == NULL);
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 810);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 520);
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
}

/* The demo resource lists one entry per format in the build; each present one opens. */
static void
test_demo_files (void)
{
  g_auto (GStrv) all = g_resources_enumerate_children (TRESS_DEMO_RESOURCE_PATH, 0, NULL);
  g_auto (GStrv) names = tress_demo_list ();
  TressWindow *window;

  g_assert_nonnull (all);
  g_assert_true (g_strv_contains ((const char *const *)all, "demo.cha"));
  g_assert_true (g_strv_contains ((const char *const *)all, "demo.bfres"));
  g_assert_true (g_strv_contains ((const char *const *)all, "demo.niff"));
  for (guint i = 0; all[i] != NULL; i++)
    if (!g_strv_contains ((const char *const *)names, all[i]))
      g_test_message ("%s: no generator in this build yet", all[i]);

  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (TressDocument) doc = tress_demo_open (names[i], &error);

      g_assert_no_error (error);
      g_assert_nonnull (doc);
      g_assert_null (tress_document_get_file (doc));
      g_assert_cmpuint (
          tress_problem_list_count (tress_document_get_problems (doc), TRESS_SEVERITY_ERROR), ==,
          0);
    }

  /* Open Demo opens them all; without demo files it cannot be clicked. */
  window = tress_test_window_new (0, 0);
  g_assert_true (button_enabled (window, "win.open"));
  g_assert_true (
      gtk_widget_get_sensitive (find_action_widget (GTK_WIDGET (window), "win.open-demo"))
      == (names[0] != NULL));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.open-demo", NULL);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (window) == g_strv_length (names));
  if (names[0] != NULL)
    {
      g_assert_cmpstr (tress_document_get_title (tress_window_get_current_document (window)), ==,
                       names[0]);
      /* A demo has no file: Save asks for one, so it is enabled at once. */
      g_assert_true (button_enabled (window, "win.save"));
      g_assert_false (tress_window_get_has_unsaved (window));
    }
  /* Every editor fits a window of the default size: none forces it wider
   * (the notebook asks for the widest page's minimum). */
  {
    int min_width = 0;

    gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL,
                        NULL);
    g_assert_cmpint (min_width, <=, TRESS_WINDOW_DEFAULT_WIDTH);
  }
  tress_test_window_destroy (window);
}

int
main (int argc, char *argv[])
{
  /* With GTK's animations off (tress_test_window_init), pages switch at once:
   * what is checked is what is shown. */
  app = tress_test_window_init (&argc, &argv);
  tress_test_format_register ();
  tress_editor_register ("trsstest", test_editor_new);

  g_test_add_func ("/app/window/open-edit-undo-redo-save", test_open_edit_undo_redo_save);
  g_test_add_func ("/app/window/open-error-dialog", test_open_error_dialog);
  g_test_add_func ("/app/window/quit-from-error-dialog", test_quit_from_error_dialog);
  g_test_add_func ("/app/window/open-truncated-sample", test_open_truncated_sample);
  g_test_add_func ("/app/window/loading-page-cancel", test_loading_page_cancel);
  g_test_add_func ("/app/window/loading-page-done", test_loading_page_done);
  g_test_add_func ("/app/window/close-unsaved-prompts", test_close_unsaved_prompts);
  g_test_add_func ("/app/window/close-prompt-saves", test_close_prompt_saves);
  g_test_add_func ("/app/window/several-documents", test_several_documents);
  g_test_add_func ("/app/window/same-name-tabs", test_same_name_tabs);
  g_test_add_func ("/app/window/drop-files", test_drop_files);
  g_test_add_func ("/app/window/save-changed-on-disk", test_save_changed_on_disk);
  g_test_add_func ("/app/window/save-failure-dialog", test_save_failure_dialog);
  g_test_add_func ("/app/window/size-saved", test_window_size_saved);
  g_test_add_func ("/app/window/surface-outlives-window", test_surface_outlives_window);
  g_test_add_func ("/app/window/revert", test_revert);
  g_test_add_func ("/app/window/disk-changed-banner", test_disk_changed_banner);
  g_test_add_func ("/app/window/reopen-changed-file", test_reopen_changed_file);
  g_test_add_func ("/app/window/save-then-close", test_save_then_close);
  g_test_add_func ("/app/window/file-choosers", test_file_choosers);
  g_test_add_func ("/app/window/chooser-left-open", test_chooser_left_open);
  g_test_add_func ("/app/window/switch-documents", test_switch_documents);
  g_test_add_func ("/app/window/about-and-shortcuts", test_about_and_shortcuts);
  g_test_add_func ("/app/info-view/problems", test_info_view);
  g_test_add_func ("/app/info-view/many-problems", test_info_view_many_problems);
  g_test_add_func ("/app/editor/registry", test_editor_fallback);
  g_test_add_func ("/app/demo/files", test_demo_files);

  return g_test_run ();
}
