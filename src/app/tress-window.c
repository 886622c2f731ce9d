/* tress-window.c: the main window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-window-private.h"

#include <glib/gi18n.h>

#include "tress-demo.h"

#define MAX_RECENT 8

G_DEFINE_FINAL_TYPE (TressWindow, tress_window, GTK_TYPE_APPLICATION_WINDOW)

enum
{
  PROP_0,
  PROP_BUSY,
  PROP_CURRENT_DOCUMENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ---- state ------------------------------------------------------------- */

void
_tress_window_set_busy (TressWindow *self, gboolean busy)
{
  gboolean was_busy = self->n_busy > 0;

  if (busy)
    self->n_busy++;
  else if (self->n_busy > 0)
    self->n_busy--;
  if (was_busy != (self->n_busy > 0))
    {
      gtk_widget_set_cursor_from_name (GTK_WIDGET (self), self->n_busy > 0 ? "progress" : NULL);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
    }
}

gboolean
tress_window_get_busy (TressWindow *self)
{
  g_return_val_if_fail (TRESS_IS_WINDOW (self), FALSE);
  return self->n_busy > 0;
}

guint
tress_window_get_n_documents (TressWindow *self)
{
  g_return_val_if_fail (TRESS_IS_WINDOW (self), 0);
  return (guint)gtk_notebook_get_n_pages (self->notebook);
}

TressDocumentPage *
tress_window_get_page (TressWindow *self, guint index)
{
  g_return_val_if_fail (TRESS_IS_WINDOW (self), NULL);
  return (TressDocumentPage *)gtk_notebook_get_nth_page (self->notebook, (int)index);
}

TressDocumentPage *
tress_window_get_current_page (TressWindow *self)
{
  g_return_val_if_fail (TRESS_IS_WINDOW (self), NULL);
  return self->current_page;
}

TressDocument *
tress_window_get_current_document (TressWindow *self)
{
  g_return_val_if_fail (TRESS_IS_WINDOW (self), NULL);
  return self->current_page != NULL ? tress_document_page_get_document (self->current_page) : NULL;
}

gboolean
tress_window_get_has_unsaved (TressWindow *self)
{
  guint n = tress_window_get_n_documents (self);

  for (guint i = 0; i < n; i++)
    if (tress_document_get_modified (
            tress_document_page_get_document (tress_window_get_page (self, i))))
      return TRUE;
  return FALSE;
}

static void
update_title (TressWindow *self)
{
  TressDocument *doc = tress_window_get_current_document (self);

  if (doc == NULL)
    {
      gtk_label_set_text (self->title_label, _ ("Tress"));
      gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), FALSE);
      gtk_window_set_title (GTK_WINDOW (self), _ ("Tress"));
    }
  else
    {
      g_autofree char *tab_title = tress_document_page_dup_tab_title (self->current_page);
      g_autofree char *window_title = g_strdup_printf (_ ("%s – Tress"), tab_title);
      GFile *file = tress_document_get_file (doc);
      g_autoptr (GFile) parent = file != NULL ? g_file_get_parent (file) : NULL;
      g_autofree char *folder = parent != NULL ? g_file_get_parse_name (parent) : NULL;
      const TressFormat *format = tress_document_get_format (doc);

      gtk_label_set_text (self->title_label, tab_title);
      if (folder == NULL && format != NULL && format->display_name != NULL)
        folder = g_strdup_printf (_ ("%s (not saved to a file)"), _ (format->display_name));
      gtk_label_set_text (self->subtitle_label, folder != NULL ? folder : "");
      gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), folder != NULL);
      gtk_window_set_title (GTK_WINDOW (self), window_title);
    }
}

static void
on_document_notify (TressWindow *self)
{
  update_title (self);
  _tress_window_update_actions (self);
}

static void
on_history_notify (TressWindow *self)
{
  _tress_window_update_actions (self);
}

static void
set_current_page (TressWindow *self, TressDocumentPage *page)
{
  TressDocument *doc;

  if (self->current_page == page)
    return;
  self->current_page = page;
  doc = page != NULL ? tress_document_page_get_document (page) : NULL;
  g_signal_group_set_target (self->document_signals, doc);
  g_signal_group_set_target (self->history_signals,
                             doc != NULL ? tress_document_get_history (doc) : NULL);
  update_title (self);
  _tress_window_update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CURRENT_DOCUMENT]);
}

static void
on_document_history_changed (TressWindow *self)
{
  TressDocument *doc = tress_window_get_current_document (self);

  /* The document may replace its history (revert); follow it. */
  g_signal_group_set_target (self->history_signals,
                             doc != NULL ? tress_document_get_history (doc) : NULL);
  _tress_window_update_actions (self);
}

static void
on_switch_page (GtkNotebook *notebook, GtkWidget *page, guint page_num, TressWindow *self)
{
  set_current_page (self, TRESS_DOCUMENT_PAGE (page));
}

/* The folder of @page's file, @levels deep ("fur", "demo/fur"), or NULL. */
static char *
page_folder (TressDocumentPage *page, guint levels)
{
  GFile *file = tress_document_get_file (tress_document_page_get_document (page));
  g_autoptr (GFile) dir = file != NULL ? g_file_get_parent (file) : NULL;
  g_autofree char *out = NULL;

  for (guint i = 0; i < levels && dir != NULL; i++)
    {
      g_autofree char *name = g_file_get_basename (dir);
      g_autofree char *shown = g_filename_display_name (name != NULL ? name : "");
      GFile *up = g_file_get_parent (dir);

      if (out == NULL)
        out = g_steal_pointer (&shown);
      else
        {
          char *longer = g_build_filename (shown, out, NULL);
          g_free (out);
          out = longer;
        }
      g_object_unref (dir);
      dir = up;
    }
  return g_steal_pointer (&out);
}

/* Tabs of files with the same name say which folder each is in: the
 * folder's name, or more of its path when that is the same too. */
static void
update_tab_details (TressWindow *self)
{
  int n = gtk_notebook_get_n_pages (self->notebook);
  g_autoptr (GPtrArray) titles = g_ptr_array_new_with_free_func (g_free);

  for (int i = 0; i < n; i++)
    {
      TressDocumentPage *page = TRESS_DOCUMENT_PAGE (gtk_notebook_get_nth_page (self->notebook, i));
      const char *title = tress_document_get_title (tress_document_page_get_document (page));

      g_ptr_array_add (titles, g_strdup (title != NULL ? title : ""));
    }
  for (int i = 0; i < n; i++)
    {
      TressDocumentPage *page = TRESS_DOCUMENT_PAGE (gtk_notebook_get_nth_page (self->notebook, i));
      g_autofree char *detail = NULL;
      gboolean clash = FALSE;

      for (int j = 0; j < n && !clash; j++)
        clash = j != i && g_str_equal (titles->pdata[i], titles->pdata[j]);
      /* As many folder levels as it takes to differ from every namesake (up to four). */
      for (guint levels = 1; clash && levels <= 4; levels++)
        {
          gboolean unique = TRUE;

          g_free (detail);
          detail = page_folder (page, levels);
          for (int j = 0; j < n && unique && detail != NULL; j++)
            if (j != i && g_str_equal (titles->pdata[i], titles->pdata[j]))
              {
                g_autofree char *other = page_folder (
                    TRESS_DOCUMENT_PAGE (gtk_notebook_get_nth_page (self->notebook, j)), levels);
                unique = g_strcmp0 (detail, other) != 0;
              }
          if (unique)
            break;
        }
      tress_document_page_set_tab_detail (page, detail);
    }
}

static void
on_pages_changed (TressWindow *self)
{
  gboolean any = gtk_notebook_get_n_pages (self->notebook) > 0;

  update_tab_details (self);
  /* Files that take more than a moment to open keep their page up. */
  if (tress_loading_page_get_n_loads (self->loading_page) > 0)
    gtk_stack_set_visible_child_name (self->stack, "loading");
  else
    gtk_stack_set_visible_child_name (self->stack, any ? "documents" : "welcome");
  /* An empty tab row measures negative in Adwaita (GTK 4.8): hide it. */
  gtk_notebook_set_show_tabs (self->notebook, any);
  if (!any)
    set_current_page (self, NULL);
  _tress_window_update_actions (self);
}

static void
on_page_removed (GtkNotebook *notebook, GtkWidget *child, guint page_num, TressWindow *self)
{
  if ((TressDocumentPage *)child == self->current_page)
    {
      int current = gtk_notebook_get_current_page (notebook);

      set_current_page (
          self, current >= 0 ? TRESS_DOCUMENT_PAGE (gtk_notebook_get_nth_page (notebook, current))
                             : NULL);
    }
  on_pages_changed (self);
}

static void
on_page_close_requested (TressDocumentPage *page, TressWindow *self)
{
  _tress_window_close_page (self, page);
}

TressDocumentPage *
tress_window_add_document (TressWindow *self, TressDocument *doc)
{
  GtkWidget *page;
  int index;

  g_return_val_if_fail (TRESS_IS_WINDOW (self), NULL);
  g_return_val_if_fail (TRESS_IS_DOCUMENT (doc), NULL);

  page = tress_document_page_new (doc);
  g_signal_connect_object (page, "close-requested", G_CALLBACK (on_page_close_requested), self, 0);
  g_signal_connect_object (page, "notify::disk-changed", G_CALLBACK (_tress_window_update_actions),
                           self, G_CONNECT_SWAPPED);
  /* Saved under another name: the tabs' folders may have to be told again. */
  g_signal_connect_object (doc, "notify::file", G_CALLBACK (update_tab_details), self,
                           G_CONNECT_SWAPPED);
  index = gtk_notebook_append_page (self->notebook, page,
                                    tress_document_page_get_tab (TRESS_DOCUMENT_PAGE (page)));
  gtk_notebook_set_tab_reorderable (self->notebook, page, TRUE);
  gtk_notebook_set_current_page (self->notebook, index);
  on_pages_changed (self);
  set_current_page (self, TRESS_DOCUMENT_PAGE (page));
  return TRESS_DOCUMENT_PAGE (page);
}

void
_tress_window_remove_page (TressWindow *self, TressDocumentPage *page)
{
  int index = gtk_notebook_page_num (self->notebook, GTK_WIDGET (page));

  if (index >= 0)
    gtk_notebook_remove_page (self->notebook, index);
}

/* ---- opening ----------------------------------------------------------- */

char *
_tress_window_describe_file (GFile *file)
{
  g_autofree char *basename = NULL;

  if (file == NULL)
    return g_strdup (_ ("Untitled"));
  basename = g_file_get_basename (file);
  return g_filename_display_name (basename != NULL ? basename : "");
}

static gboolean
quit_idle (gpointer app)
{
  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  return G_SOURCE_REMOVE;
}

/* The message goes first, once its key event is over; then the windows are
 * closed (each asks about its unsaved documents). */
static gboolean
quit_from_dialog (GtkWidget *dialog, GVariant *args, gpointer app)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, quit_idle, g_object_ref (app), g_object_unref);
  return TRUE;
}

/* A dialog is not one of the application's windows, so the application's
 * shortcuts do not reach it: Quit's are added to it, so that Ctrl+Q still
 * quits while a message is up. */
static void
add_quit_shortcut (TressWindow *self, GtkWidget *dialog)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GtkEventController *controller;
  g_auto (GStrv) accels = NULL;

  if (app == NULL)
    return;
  accels = gtk_application_get_accels_for_action (app, "app.quit");
  controller = gtk_shortcut_controller_new ();
  for (guint i = 0; accels[i] != NULL; i++)
    gtk_shortcut_controller_add_shortcut (
        GTK_SHORTCUT_CONTROLLER (controller),
        gtk_shortcut_new (gtk_shortcut_trigger_parse_string (accels[i]),
                          gtk_callback_action_new (quit_from_dialog, app, NULL)));
  gtk_widget_add_controller (dialog, controller);
}

GtkWidget *
_tress_window_show_error (TressWindow *self, const char *primary, const GError *error)
{
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (self),
                                              GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                              GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s", primary);

  if (error != NULL)
    gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", error->message);
  gtk_widget_add_css_class (dialog, "tress-error-dialog");
  add_quit_shortcut (self, dialog);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}

static void update_recent (TressWindow *self);

void
_tress_window_add_recent (TressWindow *self, TressDocument *doc)
{
  GFile *file = tress_document_get_file (doc);
  const TressFormat *format = tress_document_get_format (doc);
  g_autofree char *uri = NULL;
  GtkRecentData data = { 0 };
  static const char *groups[] = { "Tress", NULL };

  if (file == NULL || !self->use_recent_files)
    return;
  uri = g_file_get_uri (file);
  data.display_name = NULL;
  data.mime_type
      = (char *)(format != NULL && format->mime_type != NULL ? format->mime_type
                                                             : "application/octet-stream");
  data.app_name = (char *)g_get_application_name ();
  data.app_exec = (char *)"tress %u";
  data.groups = (char **)groups;
  gtk_recent_manager_add_full (self->recent_manager, uri, &data);
  /* The manager's "changed" signal comes later (it is rate-limited, and a
   * reload from disk can race with it): show the new entry now. */
  update_recent (self);
}

/* Shows the page of @file if it is open already. */
static gboolean
show_open_file (TressWindow *self, GFile *file)
{
  guint n = tress_window_get_n_documents (self);

  for (guint i = 0; i < n; i++)
    {
      TressDocumentPage *page = tress_window_get_page (self, i);
      GFile *open_file = tress_document_get_file (tress_document_page_get_document (page));

      if (open_file != NULL && g_file_equal (open_file, file))
        {
          TressDocument *doc = tress_document_page_get_document (page);

          gtk_notebook_set_current_page (self->notebook, (int)i);
          /* Opened again after another program changed it: show what is on disk
           * now when that loses nothing; else the page's banner says it. */
          tress_document_page_check_disk (page);
          if (tress_document_page_get_can_reload (page) && !tress_document_get_modified (doc))
            _tress_window_revert_page (self, page);
          return TRUE;
        }
    }
  return FALSE;
}

/* A file being read: after LOADING_DELAY_MS it gets a row on the loading
 * page, with its progress and a Cancel button. */
#define LOADING_DELAY_MS 250

typedef struct
{
  TressWindow *window;
  GFile *file;
  GCancellable *cancellable; /* this load's; cancelled with the window's too */
  gulong window_cancelled_id;
  TressProgress *progress;
  guint show_id;
  gboolean cancelled; /* by the user, from the loading page */
} OpenData;

static void
open_data_free (OpenData *data)
{
  g_clear_handle_id (&data->show_id, g_source_remove);
  g_cancellable_disconnect (data->window->cancellable, data->window_cancelled_id);
  g_object_unref (data->window);
  g_object_unref (data->file);
  g_object_unref (data->cancellable);
  tress_progress_unref (data->progress);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OpenData, open_data_free)

static void
on_window_cancelled (GCancellable *window_cancellable, GCancellable *load_cancellable)
{
  g_cancellable_cancel (load_cancellable);
}

static gboolean
show_loading (gpointer user_data)
{
  OpenData *data = user_data;
  TressWindow *self = data->window;

  data->show_id = 0;
  tress_loading_page_add (self->loading_page, data->file, data->progress);
  gtk_stack_set_visible_child_name (self->stack, "loading");
  return G_SOURCE_REMOVE;
}

/* The user cancelled a load: back to the page shown before, at once (the
 * worker stops at its next report, its result is dropped). */
static void
on_load_cancelled (TressLoadingPage *page, TressProgress *progress, TressWindow *self)
{
  for (guint i = 0; i < self->loads->len; i++)
    {
      OpenData *data = g_ptr_array_index (self->loads, i);

      if (data->progress == progress)
        data->cancelled = TRUE;
    }
  on_pages_changed (self);
}

static void
on_load_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (OpenData) data = user_data;
  TressWindow *self = data->window;
  g_autoptr (GError) error = NULL;
  g_autoptr (TressDocument) doc = tress_document_load_finish (result, &error);

  g_ptr_array_remove (self->loads, data);
  /* The window was closed while the file was read: nothing left to show it in. */
  if (gtk_widget_in_destruction (GTK_WIDGET (self))
      || g_cancellable_is_cancelled (self->cancellable))
    return;
  _tress_window_set_busy (self, FALSE);
  if (tress_loading_page_get_n_loads (self->loading_page) > 0)
    {
      tress_loading_page_remove (self->loading_page, data->progress);
      if (doc == NULL)
        on_pages_changed (self);
    }
  if (data->cancelled)
    return;
  if (doc == NULL)
    {
      g_autofree char *name = _tress_window_describe_file (data->file);
      g_autofree char *primary = g_strdup_printf (_ ("Could not open “%s”"), name);

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      _tress_window_show_error (self, primary, error);
      return;
    }
  /* Opened twice before the first read finished: one page is enough. */
  if (show_open_file (self, data->file))
    return;
  tress_window_add_document (self, doc);
  _tress_window_add_recent (self, doc);
}

void
tress_window_open_file (TressWindow *self, GFile *file)
{
  OpenData *data;

  g_return_if_fail (TRESS_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  if (show_open_file (self, file))
    return;

  data = g_new0 (OpenData, 1);
  data->window = g_object_ref (self);
  data->file = g_object_ref (file);
  data->cancellable = g_cancellable_new ();
  data->window_cancelled_id
      = g_cancellable_connect (self->cancellable, G_CALLBACK (on_window_cancelled),
                               g_object_ref (data->cancellable), g_object_unref);
  data->progress = tress_progress_new (data->cancellable);
  data->show_id = g_timeout_add (LOADING_DELAY_MS, show_loading, data);
  g_ptr_array_add (self->loads, data);
  _tress_window_set_busy (self, TRUE);
  tress_document_load_with_progress_async (file, data->progress, data->cancellable, on_load_done,
                                           data);
}

void
tress_window_open_demo (TressWindow *self)
{
  g_auto (GStrv) names = tress_demo_list ();
  TressDocumentPage *first = NULL;

  g_return_if_fail (TRESS_IS_WINDOW (self));

  if (names == NULL || names[0] == NULL)
    {
      g_autoptr (GError) error = g_error_new_literal (
          TRESS_ERROR, TRESS_ERROR_FAILED, _ ("This build of Tress contains no demo files."));

      _tress_window_show_error (self, _ ("Could not open the demo"), error);
      return;
    }
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (TressDocument) doc = tress_demo_open (names[i], &error);
      TressDocumentPage *page;

      if (doc == NULL)
        {
          g_autofree char *primary = g_strdup_printf (_ ("Could not open the demo “%s”"), names[i]);

          _tress_window_show_error (self, primary, error);
          continue;
        }
      page = tress_window_add_document (self, doc);
      if (first == NULL)
        first = page;
    }
  /* Show the first demo, not the last one opened. */
  if (first != NULL)
    gtk_notebook_set_current_page (self->notebook,
                                   gtk_notebook_page_num (self->notebook, GTK_WIDGET (first)));
}

/* ---- drag and drop ----------------------------------------------------- */

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, TressWindow *self)
{
  GSList *files;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  files = g_value_get_boxed (value);
  if (files == NULL)
    return FALSE;
  for (GSList *l = files; l != NULL; l = l->next)
    tress_window_open_file (self, G_FILE (l->data));
  return TRUE;
}

/* ---- recent files ------------------------------------------------------ */

static gint
compare_recent (gconstpointer a, gconstpointer b)
{
  GtkRecentInfo *ia = *(GtkRecentInfo **)a;
  GtkRecentInfo *ib = *(GtkRecentInfo **)b;
  g_autoptr (GDateTime) ta = g_date_time_ref (gtk_recent_info_get_modified (ia));
  g_autoptr (GDateTime) tb = g_date_time_ref (gtk_recent_info_get_modified (ib));

  return g_date_time_compare (tb, ta);
}

static void
on_recent_row_activated (GtkListBox *list, GtkListBoxRow *row, TressWindow *self)
{
  const char *uri = g_object_get_data (G_OBJECT (row), "tress-uri");

  if (uri != NULL)
    {
      g_autoptr (GFile) file = g_file_new_for_uri (uri);
      tress_window_open_file (self, file);
    }
}

/* Whether @uri ends in an extension of a format Tress opens. */
static gboolean
opens_by_name (const char *uri)
{
  const TressFormat *const *formats = tress_formats_get_all ();
  g_autofree char *lower = g_ascii_strdown (uri, -1);

  for (guint i = 0; formats[i] != NULL; i++)
    for (guint k = 0; formats[i]->extensions != NULL && formats[i]->extensions[k] != NULL; k++)
      {
        g_autofree char *suffix = g_strconcat (".", formats[i]->extensions[k], NULL);

        if (g_str_has_suffix (lower, suffix))
          return TRUE;
      }
  return FALSE;
}

static void
update_recent (TressWindow *self)
{
  GList *items
      = self->use_recent_files ? gtk_recent_manager_get_items (self->recent_manager) : NULL;
  g_autoptr (GPtrArray) ours
      = g_ptr_array_new_with_free_func ((GDestroyNotify)gtk_recent_info_unref);
  GtkWidget *child;

  for (GList *l = items; l != NULL; l = l->next)
    {
      GtkRecentInfo *info = l->data;

      /* Ours: in the "Tress" group, or registered by this application (the group
       * did not reach the file in some builds, e.g. under AddressSanitizer) and
       * named as a file it opens: the file chooser records the glTF files
       * exported and imported under this application's name too. */
      if ((gtk_recent_info_has_group (info, "Tress")
           || (gtk_recent_info_has_application (info, g_get_application_name ())
               && opens_by_name (gtk_recent_info_get_uri (info))))
          && gtk_recent_info_is_local (info) && gtk_recent_info_exists (info))
        g_ptr_array_add (ours, gtk_recent_info_ref (info));
    }
  g_list_free_full (items, (GDestroyNotify)gtk_recent_info_unref);
  g_ptr_array_sort (ours, compare_recent);

  g_menu_remove_all (self->recent_section);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->recent_list))) != NULL)
    gtk_list_box_remove (self->recent_list, child);

  for (guint i = 0; i < ours->len && i < MAX_RECENT; i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (ours, i);
      const char *uri = gtk_recent_info_get_uri (info);
      const char *name = gtk_recent_info_get_display_name (info);
      g_autofree char *location = gtk_recent_info_get_uri_display (info);
      g_autoptr (GMenuItem) item = g_menu_item_new (name, NULL);
      GtkWidget *row = gtk_list_box_row_new ();
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      GtkWidget *title = gtk_label_new (name);
      GtkWidget *subtitle = gtk_label_new (location);

      g_menu_item_set_action_and_target (item, "win.open-uri", "s", uri);
      g_menu_append_item (self->recent_section, item);

      gtk_label_set_xalign (GTK_LABEL (title), 0);
      gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
      gtk_label_set_ellipsize (GTK_LABEL (subtitle), PANGO_ELLIPSIZE_START);
      gtk_widget_add_css_class (subtitle, "dim-label");
      gtk_widget_add_css_class (subtitle, "caption");
      gtk_widget_set_margin_start (box, 12);
      gtk_widget_set_margin_end (box, 12);
      gtk_widget_set_margin_top (box, 6);
      gtk_widget_set_margin_bottom (box, 6);
      gtk_box_append (GTK_BOX (box), title);
      gtk_box_append (GTK_BOX (box), subtitle);
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
      g_object_set_data_full (G_OBJECT (row), "tress-uri", g_strdup (uri), g_free);
      gtk_list_box_append (self->recent_list, row);
    }
  gtk_widget_set_visible (self->recent_heading, ours->len > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->recent_list), ours->len > 0);
}

void
tress_window_set_use_recent_files (TressWindow *self, gboolean use)
{
  g_return_if_fail (TRESS_IS_WINDOW (self));
  if (self->use_recent_files == use)
    return;
  self->use_recent_files = use;
  update_recent (self);
}

/* ---- window size ------------------------------------------------------- */

void
tress_window_set_remember_size (TressWindow *self, gboolean remember)
{
  g_return_if_fail (TRESS_IS_WINDOW (self));
  self->remember_size = remember;
  if (!remember)
    {
      gtk_window_unmaximize (GTK_WINDOW (self));
      gtk_window_set_default_size (GTK_WINDOW (self), TRESS_WINDOW_DEFAULT_WIDTH,
                                   TRESS_WINDOW_DEFAULT_HEIGHT);
    }
}

static void
save_window_state (TressWindow *self)
{
  int width = 0, height = 0;

  if (self->settings == NULL || !self->remember_size)
    return;
  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  g_settings_set_boolean (self->settings, "window-maximized",
                          gtk_window_is_maximized (GTK_WINDOW (self)));
  if (!gtk_window_is_maximized (GTK_WINDOW (self)) && width > 0 && height > 0)
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }
}

static void
restore_window_state (TressWindow *self)
{
  if (self->settings == NULL || !self->remember_size)
    return;
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
}

static GSettings *
settings_new_if_installed (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema
      = source != NULL ? g_settings_schema_source_lookup (source, TRESS_APP_ID, TRUE) : NULL;

  if (schema == NULL)
    {
      g_debug ("Schema %s is not installed: the window size is not remembered", TRESS_APP_ID);
      return NULL;
    }
  return g_settings_new_full (schema, NULL, NULL);
}

/* ---- closing ----------------------------------------------------------- */

static void save_all_then_close (TressWindow *self);

static void
on_close_all_saved (TressWindow *self, TressDocumentPage *page, gboolean saved, gpointer user_data)
{
  if (saved)
    save_all_then_close (self);
}

static void
save_all_then_close (TressWindow *self)
{
  guint n = tress_window_get_n_documents (self);

  for (guint i = 0; i < n; i++)
    {
      TressDocumentPage *page = tress_window_get_page (self, i);

      if (tress_document_get_modified (tress_document_page_get_document (page)))
        {
          gtk_notebook_set_current_page (self->notebook, (int)i);
          _tress_window_save_page (self, page, FALSE, on_close_all_saved, NULL);
          return;
        }
    }
  self->close_confirmed = TRUE;
  gtk_window_close (GTK_WINDOW (self));
}

enum
{
  RESPONSE_DISCARD = 1,
  RESPONSE_SAVE = 2,
};

static void
on_close_window_response (GtkDialog *dialog, int response, TressWindow *self)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response == RESPONSE_DISCARD)
    {
      self->close_confirmed = TRUE;
      gtk_window_close (GTK_WINDOW (self));
    }
  else if (response == RESPONSE_SAVE)
    save_all_then_close (self);
}

static gboolean
tress_window_close_request (GtkWindow *window)
{
  TressWindow *self = TRESS_WINDOW (window);
  guint n_unsaved = 0;
  guint n = tress_window_get_n_documents (self);
  GtkWidget *dialog;
  g_autofree char *secondary = NULL;

  for (guint i = 0; i < n; i++)
    if (tress_document_get_modified (
            tress_document_page_get_document (tress_window_get_page (self, i))))
      n_unsaved++;

  if (n_unsaved > 0 && !self->close_confirmed)
    {
      dialog = gtk_message_dialog_new (window, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                       GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                       ngettext ("Save changes to %u document before closing?",
                                                 "Save changes to %u documents before closing?",
                                                 n_unsaved),
                                       n_unsaved);
      gtk_message_dialog_format_secondary_text (
          GTK_MESSAGE_DIALOG (dialog), "%s",
          _ ("If you close without saving, your changes will be lost."));
      gtk_dialog_add_buttons (GTK_DIALOG (dialog), _ ("Close _without Saving"), RESPONSE_DISCARD,
                              _ ("_Cancel"), GTK_RESPONSE_CANCEL, _ ("_Save All"), RESPONSE_SAVE,
                              NULL);
      gtk_widget_add_css_class (
          gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), RESPONSE_DISCARD),
          "destructive-action");
      gtk_widget_add_css_class (
          gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), RESPONSE_SAVE),
          "suggested-action");
      gtk_dialog_set_default_response (GTK_DIALOG (dialog), RESPONSE_SAVE);
      g_signal_connect_object (dialog, "response", G_CALLBACK (on_close_window_response), self, 0);
      gtk_window_present (GTK_WINDOW (dialog));
      return TRUE; /* keep the window until the user answers */
    }

  save_window_state (self);
  g_cancellable_cancel (self->cancellable);
  return GTK_WINDOW_CLASS (tress_window_parent_class)->close_request (window);
}

/* ---- GObject ----------------------------------------------------------- */

static void
tress_window_constructed (GObject *object)
{
  TressWindow *self = TRESS_WINDOW (object);

  G_OBJECT_CLASS (tress_window_parent_class)->constructed (object);
  restore_window_state (self);
  update_recent (self);
  update_title (self);
  _tress_window_update_actions (self);
}

static void
tress_window_dispose (GObject *object)
{
  TressWindow *self = TRESS_WINDOW (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->recent_manager != NULL)
    g_clear_signal_handler (&self->recent_changed_id, self->recent_manager);
  /* The notebook removes its pages while the window goes: not a user action. */
  if (self->notebook != NULL)
    g_signal_handlers_disconnect_by_data (self->notebook, self);
  self->current_page = NULL;
  if (self->document_signals != NULL)
    g_signal_group_set_target (self->document_signals, NULL);
  if (self->history_signals != NULL)
    g_signal_group_set_target (self->history_signals, NULL);
  /* No gtk_widget_dispose_template(): GtkWindow unparents its child and
   * titlebar itself, and doing it twice is an error in GTK 4.8. */
  G_OBJECT_CLASS (tress_window_parent_class)->dispose (object);
}

static void
tress_window_finalize (GObject *object)
{
  TressWindow *self = TRESS_WINDOW (object);

  g_clear_object (&self->document_signals);
  g_clear_object (&self->history_signals);
  g_clear_object (&self->settings);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->loads, g_ptr_array_unref);
  G_OBJECT_CLASS (tress_window_parent_class)->finalize (object);
}

static void
tress_window_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  TressWindow *self = TRESS_WINDOW (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, tress_window_get_busy (self));
      break;
    case PROP_CURRENT_DOCUMENT:
      g_value_set_object (value, tress_window_get_current_document (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tress_window_class_init (TressWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->constructed = tress_window_constructed;
  object_class->dispose = tress_window_dispose;
  object_class->finalize = tress_window_finalize;
  object_class->get_property = tress_window_get_property;
  window_class->close_request = tress_window_close_request;

  properties[PROP_BUSY]
      = g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                              G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CURRENT_DOCUMENT]
      = g_param_spec_object ("current-document", NULL, NULL, TRESS_TYPE_DOCUMENT,
                             G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tress/Tress/tress-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TressWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, TressWindow, undo_button);
  gtk_widget_class_bind_template_child (widget_class, TressWindow, redo_button);
  gtk_widget_class_bind_template_child (widget_class, TressWindow, save_button);
  gtk_widget_class_bind_template_child (widget_class, TressWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, TressWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, TressWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, TressWindow, notebook);
  gtk_widget_class_bind_template_child (widget_class, TressWindow, welcome_page);
  gtk_widget_class_bind_template_child (widget_class, TressWindow, loading_page);
  gtk_widget_class_bind_template_child (widget_class, TressWindow, recent_heading);
  gtk_widget_class_bind_template_child (widget_class, TressWindow, recent_list);
  gtk_widget_class_bind_template_child (widget_class, TressWindow, recent_section);
  gtk_widget_class_bind_template_child (widget_class, TressWindow, history_section);
  gtk_widget_class_bind_template_child (widget_class, TressWindow, export_section);

  _tress_window_class_init_actions (widget_class);
}

static void
tress_window_init (TressWindow *self)
{
  GtkDropTarget *drop;

  g_type_ensure (TRESS_TYPE_LOADING_PAGE);
  gtk_widget_init_template (GTK_WIDGET (self));
  self->loads = g_ptr_array_new ();
  g_signal_connect (self->loading_page, "cancelled", G_CALLBACK (on_load_cancelled), self);

  self->remember_size = TRUE;
  self->use_recent_files = TRUE;
  {
    g_auto (GStrv) demos = tress_demo_list ();
    self->has_demos = demos[0] != NULL;
  }
  self->settings = settings_new_if_installed ();
  self->cancellable = g_cancellable_new ();
  gtk_window_set_default_size (GTK_WINDOW (self), TRESS_WINDOW_DEFAULT_WIDTH,
                               TRESS_WINDOW_DEFAULT_HEIGHT);

  self->document_signals = g_signal_group_new (TRESS_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "notify::title",
                                  G_CALLBACK (on_document_notify), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::file",
                                  G_CALLBACK (on_document_notify), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::modified",
                                  G_CALLBACK (on_document_notify), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::saving",
                                  G_CALLBACK (on_document_notify), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::history",
                                  G_CALLBACK (on_document_history_changed), self);

  self->history_signals = g_signal_group_new (TRESS_TYPE_HISTORY);
  g_signal_group_connect_swapped (self->history_signals, "notify::can-undo",
                                  G_CALLBACK (on_history_notify), self);
  g_signal_group_connect_swapped (self->history_signals, "notify::can-redo",
                                  G_CALLBACK (on_history_notify), self);
  g_signal_group_connect_swapped (self->history_signals, "notify::undo-label",
                                  G_CALLBACK (on_history_notify), self);
  g_signal_group_connect_swapped (self->history_signals, "notify::redo-label",
                                  G_CALLBACK (on_history_notify), self);
  g_signal_group_connect_swapped (self->history_signals, "notify::modified",
                                  G_CALLBACK (on_history_notify), self);

  g_signal_connect (self->notebook, "switch-page", G_CALLBACK (on_switch_page), self);
  g_signal_connect (self->notebook, "page-removed", G_CALLBACK (on_page_removed), self);
  g_signal_connect_swapped (self->notebook, "page-added", G_CALLBACK (on_pages_changed), self);
  g_signal_connect (self->recent_list, "row-activated", G_CALLBACK (on_recent_row_activated), self);

  self->recent_manager = gtk_recent_manager_get_default ();
  self->recent_changed_id = g_signal_connect_swapped (self->recent_manager, "changed",
                                                      G_CALLBACK (update_recent), self);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
}

TressWindow *
tress_window_new (GtkApplication *app)
{
  return g_object_new (TRESS_TYPE_WINDOW, "application", app, NULL);
}
