/* tress-window-actions.c: the window's actions (open, save, undo, …)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-window-private.h"

#include <glib/gi18n.h>

#include "tress-gltf-export-dialog.h"
#include "tress-gltf-import-dialog.h"
#include "tress-native-dialog.h"
#include "tress-tooltip.h"

/* ---- enabling and labels ----------------------------------------------- */

static void
append_menu_item (GMenu *menu, const char *action, const char *text)
{
  g_autoptr (GMenuItem) item = g_menu_item_new (text, action);

  g_menu_append_item (menu, item);
}

void
_tress_window_update_actions (TressWindow *self)
{
  TressDocument *doc = tress_window_get_current_document (self);
  TressHistory *history = doc != NULL ? tress_document_get_history (doc) : NULL;
  gboolean has_doc = doc != NULL;
  gboolean modified = has_doc && tress_document_get_modified (doc);
  /* While a save runs, a second one (a quick second Ctrl+S) or a revert waits. */
  gboolean saving = has_doc && tress_document_get_saving (doc);
  gboolean has_file = has_doc && tress_document_get_file (doc) != NULL;
  gboolean can_undo = history != NULL && tress_history_can_undo (history);
  gboolean can_redo = history != NULL && tress_history_can_redo (history);
  const char *undo_label = can_undo ? tress_history_get_undo_label (history) : NULL;
  const char *redo_label = can_redo ? tress_history_get_redo_label (history) : NULL;
  g_autofree char *undo_tip = NULL;
  g_autofree char *redo_tip = NULL;
  /* Formats without a glTF exporter say why in the menu (GTK 4.8's menus
   * show no tooltips). */
  g_autofree char *no_export = NULL;
  gboolean can_export = has_doc && tress_gltf_export_dialog_supports (doc, &no_export);
  g_autofree char *no_import = NULL;
  gboolean can_import = has_doc && tress_gltf_import_dialog_supports (doc, &no_import);
  GtkWidget *widget = GTK_WIDGET (self);

  /* A document without a file (a demo) can always be saved, which asks for a name. */
  gtk_widget_action_set_enabled (widget, "win.save", has_doc && !saving && (modified || !has_file));
  gtk_widget_action_set_enabled (widget, "win.save-as", has_doc && !saving);
  gtk_widget_action_set_enabled (
      widget, "win.revert",
      has_file && !saving
          && (modified
              || tress_document_page_get_can_reload (tress_window_get_current_page (self))));
  gtk_widget_action_set_enabled (widget, "win.export-gltf", can_export);
  gtk_widget_action_set_enabled (widget, "win.import-gltf", can_import);
  gtk_widget_action_set_enabled (widget, "win.undo", can_undo);
  gtk_widget_action_set_enabled (widget, "win.redo", can_redo);
  gtk_widget_action_set_enabled (widget, "win.close-document", has_doc);
  gtk_widget_action_set_enabled (widget, "win.open-demo", self->has_demos);
  gtk_widget_action_set_enabled (widget, "win.next-document", has_doc);
  gtk_widget_action_set_enabled (widget, "win.previous-document", has_doc);
  gtk_widget_action_set_enabled (widget, "win.select-document", has_doc);

  /* Translators: %s is what undo would undo, e.g. "Set weights of 12 lines" */
  undo_tip
      = undo_label != NULL ? g_strdup_printf (_ ("Undo %s"), undo_label) : g_strdup (_ ("Undo"));
  /* Translators: %s is what redo would redo */
  redo_tip
      = redo_label != NULL ? g_strdup_printf (_ ("Redo %s"), redo_label) : g_strdup (_ ("Redo"));
  tress_set_tooltip (GTK_WIDGET (self->undo_button), undo_tip);
  tress_set_tooltip (GTK_WIDGET (self->redo_button), redo_tip);

  if (self->export_section != NULL)
    {
      g_autofree char *export_item = NULL, *import_item = NULL;

      if (can_export || !has_doc)
        export_item = g_strdup (_ ("_Export as glTF…"));
      else
        /* Translators: a disabled menu item, and why: "not for Creature fur files" */
        export_item = g_strdup_printf (_ ("Export as glTF… (%s)"), no_export);
      if (can_import || !has_doc)
        import_item = g_strdup (_ ("_Import Animation from glTF…"));
      else
        /* Translators: a disabled menu item, and why: "only into BFRES files" */
        import_item = g_strdup_printf (_ ("Import Animation from glTF… (%s)"), no_import);
      g_menu_remove_all (self->export_section);
      append_menu_item (self->export_section, "win.export-gltf", export_item);
      append_menu_item (self->export_section, "win.import-gltf", import_item);
    }

  if (self->history_section != NULL)
    {
      g_autofree char *undo_item = NULL;
      g_autofree char *redo_item = NULL;

      /* Translators: a menu item; %s is what undo would undo */
      undo_item = undo_label != NULL ? g_strdup_printf (_ ("_Undo %s"), undo_label)
                                     : g_strdup (_ ("_Undo"));
      /* Translators: a menu item; %s is what redo would redo */
      redo_item = redo_label != NULL ? g_strdup_printf (_ ("_Redo %s"), redo_label)
                                     : g_strdup (_ ("_Redo"));
      g_menu_remove_all (self->history_section);
      append_menu_item (self->history_section, "win.undo", undo_item);
      append_menu_item (self->history_section, "win.redo", redo_item);
    }
}

/* ---- open -------------------------------------------------------------- */

static void
add_format_filters (GtkFileChooser *chooser)
{
  const TressFormat *const *formats = tress_formats_get_all ();
  GtkFileFilter *all_supported = gtk_file_filter_new ();
  GtkFileFilter *all_files = gtk_file_filter_new ();

  gtk_file_filter_set_name (all_supported, _ ("All Supported Files"));
  for (guint i = 0; formats[i] != NULL; i++)
    {
      const TressFormat *format = formats[i];
      g_autoptr (GtkFileFilter) filter = NULL;
      g_autoptr (GString) name = NULL;

      if (format->extensions == NULL || format->extensions[0] == NULL)
        continue;
      filter = gtk_file_filter_new ();
      name = g_string_new (format->display_name != NULL ? _ (format->display_name) : format->id);
      g_string_append (name, " (");
      for (guint j = 0; format->extensions[j] != NULL; j++)
        {
          const char *extension = format->extensions[j];
          g_autofree char *pattern = g_strdup_printf ("*.%s", extension);

          gtk_file_filter_add_suffix (filter, extension);
          gtk_file_filter_add_suffix (all_supported, extension);
          g_string_append_printf (name, "%s%s", j > 0 ? ", " : "", pattern);
        }
      if (format->mime_type != NULL)
        {
          gtk_file_filter_add_mime_type (filter, format->mime_type);
          gtk_file_filter_add_mime_type (all_supported, format->mime_type);
        }
      g_string_append (name, ")");
      gtk_file_filter_set_name (filter, name->str);
      gtk_file_chooser_add_filter (chooser, filter);
    }
  gtk_file_chooser_add_filter (chooser, all_supported);
  gtk_file_chooser_set_filter (chooser, all_supported);
  g_object_unref (all_supported);

  gtk_file_filter_set_name (all_files, _ ("All Files"));
  gtk_file_filter_add_pattern (all_files, "*");
  gtk_file_chooser_add_filter (chooser, all_files);
  g_object_unref (all_files);
}

static void
on_open_response (GtkNativeDialog *chooser, int response, TressWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));
      guint n = g_list_model_get_n_items (files);

      for (guint i = 0; i < n; i++)
        {
          g_autoptr (GFile) file = g_list_model_get_item (files, i);
          tress_window_open_file (self, file);
        }
    }
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
}

static void
action_open (GtkWidget *widget, const char *action_name, GVariant *param)
{
  TressWindow *self = TRESS_WINDOW (widget);
  GtkFileChooserNative *chooser
      = gtk_file_chooser_native_new (_ ("Open Files"), GTK_WINDOW (self),
                                     GTK_FILE_CHOOSER_ACTION_OPEN, _ ("_Open"), _ ("_Cancel"));
  TressDocument *doc = tress_window_get_current_document (self);

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), TRUE);
  add_format_filters (GTK_FILE_CHOOSER (chooser));
  if (doc != NULL && tress_document_get_file (doc) != NULL)
    {
      g_autoptr (GFile) folder = g_file_get_parent (tress_document_get_file (doc));

      if (folder != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
    }
  g_signal_connect (chooser, "response", G_CALLBACK (on_open_response), self);
  tress_native_dialog_cancel_with_parent (GTK_NATIVE_DIALOG (chooser));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
action_open_uri (GtkWidget *widget, const char *action_name, GVariant *param)
{
  g_autoptr (GFile) file = g_file_new_for_commandline_arg (g_variant_get_string (param, NULL));

  tress_window_open_file (TRESS_WINDOW (widget), file);
}

static void
action_open_demo (GtkWidget *widget, const char *action_name, GVariant *param)
{
  tress_window_open_demo (TRESS_WINDOW (widget));
}

/* ---- save -------------------------------------------------------------- */

typedef struct
{
  TressWindow *window;
  TressDocumentPage *page;
  GFile *file; /* NULL: the document's own file */
  TressSaveDone done;
  gpointer user_data;
} SaveOp;

static void
save_op_free (SaveOp *op)
{
  g_clear_object (&op->window);
  g_clear_object (&op->page);
  g_clear_object (&op->file);
  g_free (op);
}

static void
save_op_finish (SaveOp *op, gboolean saved)
{
  if (op->done != NULL)
    op->done (op->window, op->page, saved, op->user_data);
  save_op_free (op);
}

static void save_op_run (SaveOp *op, gboolean overwrite_changed);

static void
on_overwrite_response (GtkDialog *dialog, int response, SaveOp *op)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response == GTK_RESPONSE_ACCEPT)
    save_op_run (op, TRUE);
  else
    save_op_finish (op, FALSE);
}

static void
on_save_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  SaveOp *op = user_data;
  TressDocument *doc = TRESS_DOCUMENT (source);
  g_autoptr (GError) error = NULL;
  g_autofree char *name = NULL;

  if (gtk_widget_in_destruction (GTK_WIDGET (op->window)))
    {
      /* The window is gone; the document layer has finished or undone the write. */
      tress_document_save_finish (doc, result, NULL);
      op->done = NULL;
      save_op_finish (op, FALSE);
      return;
    }
  _tress_window_set_busy (op->window, FALSE);
  if (tress_document_save_finish (doc, result, &error))
    {
      _tress_window_add_recent (op->window, doc);
      _tress_window_update_actions (op->window);
      save_op_finish (op, TRUE);
      return;
    }

  name = _tress_window_describe_file (op->file != NULL ? op->file : tress_document_get_file (doc));
  if (g_error_matches (error, TRESS_ERROR, TRESS_ERROR_CHANGED_ON_DISK))
    {
      GFile *target = op->file != NULL ? op->file : tress_document_get_file (doc);
      gboolean exists = target != NULL && g_file_query_exists (target, NULL);
      GtkWidget *dialog = gtk_message_dialog_new (
          GTK_WINDOW (op->window), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
          GTK_MESSAGE_WARNING, GTK_BUTTONS_NONE,
          exists ? _ ("“%s” changed on disk") : _ ("“%s” was deleted or moved"), name);

      gtk_message_dialog_format_secondary_text (
          GTK_MESSAGE_DIALOG (dialog), "%s",
          exists ? _ ("Another program changed the file since it was opened. Saving replaces "
                      "those changes with this document (the old file is kept as a backup "
                      "ending in “~”).")
                 : _ ("The file is no longer where it was opened from. Saving writes this "
                      "document there again."));
      gtk_dialog_add_buttons (GTK_DIALOG (dialog), _ ("_Cancel"), GTK_RESPONSE_CANCEL,
                              _ ("_Overwrite"), GTK_RESPONSE_ACCEPT, NULL);
      gtk_widget_add_css_class (
          gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT),
          "destructive-action");
      gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
      g_signal_connect (dialog, "response", G_CALLBACK (on_overwrite_response), op);
      gtk_window_present (GTK_WINDOW (dialog));
      return;
    }

  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *primary = g_strdup_printf (_ ("Could not save “%s”"), name);
      _tress_window_show_error (op->window, primary, error);
    }
  save_op_finish (op, FALSE);
}

static void
save_op_run (SaveOp *op, gboolean overwrite_changed)
{
  _tress_window_set_busy (op->window, TRUE);
  tress_document_save_async (tress_document_page_get_document (op->page), op->file,
                             overwrite_changed, op->window->cancellable, on_save_done, op);
}

static void
on_save_as_response (GtkNativeDialog *chooser, int response, SaveOp *op)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      op->file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      save_op_run (op, FALSE);
    }
  else
    save_op_finish (op, FALSE);
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
}

static char *
suggested_name (TressDocument *doc)
{
  const TressFormat *format = tress_document_get_format (doc);
  const char *title = tress_document_get_title (doc);

  if (tress_document_get_file (doc) != NULL || title == NULL)
    return g_strdup (title != NULL ? title : _ ("Untitled"));
  if (format != NULL && format->extensions != NULL && format->extensions[0] != NULL)
    {
      const char *extension = format->extensions[0];
      g_autofree char *suffix = g_strconcat (".", extension, NULL);

      if (!g_str_has_suffix (title, suffix))
        return g_strconcat (title, suffix, NULL);
    }
  return g_strdup (title);
}

/* A save asked for while another save of the document runs (closing right
 * after Ctrl+S): that save answers it. Saved when it left the document
 * unmodified; otherwise it failed and said why (or edits came in meanwhile,
 * which the close prompt then still guards). */
static void
on_running_save_done (TressDocument *doc, GParamSpec *pspec, SaveOp *op)
{
  if (tress_document_get_saving (doc))
    return;
  g_signal_handlers_disconnect_by_data (doc, op);
  save_op_finish (op, !tress_document_get_modified (doc) && tress_document_get_file (doc) != NULL);
}

void
_tress_window_save_page (TressWindow *self, TressDocumentPage *page, gboolean save_as,
                         TressSaveDone done, gpointer user_data)
{
  TressDocument *doc = tress_document_page_get_document (page);
  SaveOp *op = g_new0 (SaveOp, 1);

  op->window = g_object_ref (self);
  op->page = g_object_ref (page);
  op->done = done;
  op->user_data = user_data;

  if (!save_as && tress_document_get_saving (doc))
    {
      g_signal_connect (doc, "notify::saving", G_CALLBACK (on_running_save_done), op);
      return;
    }
  if (save_as || tress_document_get_file (doc) == NULL)
    {
      GtkFileChooserNative *chooser
          = gtk_file_chooser_native_new (_ ("Save As"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Save"), _ ("_Cancel"));
      g_autofree char *name = suggested_name (doc);
      GFile *file = tress_document_get_file (doc);

      gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
      if (file != NULL)
        gtk_file_chooser_set_file (GTK_FILE_CHOOSER (chooser), file, NULL);
      else
        gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
      g_signal_connect (chooser, "response", G_CALLBACK (on_save_as_response), op);
      tress_native_dialog_cancel_with_parent (GTK_NATIVE_DIALOG (chooser));
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
      return;
    }
  save_op_run (op, FALSE);
}

static void
action_save (GtkWidget *widget, const char *action_name, GVariant *param)
{
  TressWindow *self = TRESS_WINDOW (widget);
  TressDocumentPage *page = tress_window_get_current_page (self);

  if (page != NULL)
    _tress_window_save_page (self, page, FALSE, NULL, NULL);
}

static void
action_save_as (GtkWidget *widget, const char *action_name, GVariant *param)
{
  TressWindow *self = TRESS_WINDOW (widget);
  TressDocumentPage *page = tress_window_get_current_page (self);

  if (page != NULL)
    _tress_window_save_page (self, page, TRUE, NULL, NULL);
}

/* ---- export ------------------------------------------------------------ */

static void
action_export_gltf (GtkWidget *widget, const char *action_name, GVariant *param)
{
  TressWindow *self = TRESS_WINDOW (widget);
  TressDocument *doc = tress_window_get_current_document (self);

  if (doc == NULL || !tress_gltf_export_dialog_supports (doc, NULL))
    return;
  gtk_window_present (GTK_WINDOW (tress_gltf_export_dialog_new (GTK_WINDOW (self), doc)));
}

static void
action_import_gltf (GtkWidget *widget, const char *action_name, GVariant *param)
{
  TressWindow *self = TRESS_WINDOW (widget);
  TressDocument *doc = tress_window_get_current_document (self);
  GtkWidget *dialog;

  if (doc == NULL || !tress_gltf_import_dialog_supports (doc, NULL))
    return;
  dialog = tress_gltf_import_dialog_new (GTK_WINDOW (self), doc);
  gtk_window_present (GTK_WINDOW (dialog));
  tress_gltf_import_dialog_choose_file (TRESS_GLTF_IMPORT_DIALOG (dialog));
}

/* ---- revert ------------------------------------------------------------ */

void
_tress_window_revert_page (TressWindow *self, TressDocumentPage *page)
{
  TressDocument *doc = tress_document_page_get_document (page);
  g_autoptr (GError) error = NULL;

  if (!tress_document_revert (doc, NULL, &error))
    {
      g_autofree char *name = _tress_window_describe_file (tress_document_get_file (doc));
      g_autofree char *primary = g_strdup_printf (_ ("Could not revert “%s”"), name);

      _tress_window_show_error (self, primary, error);
      return;
    }
  /* The model was replaced: the editor must not keep pointers into the old one. */
  tress_document_page_rebuild_editor (page);
  _tress_window_update_actions (self);
}

static void
on_revert_response (GtkDialog *dialog, int response, TressWindow *self)
{
  TressDocumentPage *page = g_object_get_data (G_OBJECT (dialog), "tress-page");

  if (response == GTK_RESPONSE_ACCEPT && page != NULL
      && gtk_widget_get_parent (GTK_WIDGET (page)) != NULL)
    _tress_window_revert_page (self, page);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
action_revert (GtkWidget *widget, const char *action_name, GVariant *param)
{
  TressWindow *self = TRESS_WINDOW (widget);
  TressDocumentPage *page = tress_window_get_current_page (self);
  TressDocument *doc;
  g_autofree char *name = NULL;
  GtkWidget *dialog;

  if (page == NULL)
    return;
  doc = tress_document_page_get_document (page);
  /* Nothing unsaved (the file changed on disk): nothing to lose, no question. */
  if (!tress_document_get_modified (doc))
    {
      _tress_window_revert_page (self, page);
      return;
    }
  name = _tress_window_describe_file (tress_document_get_file (doc));
  dialog = gtk_message_dialog_new (
      GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT, GTK_MESSAGE_QUESTION,
      GTK_BUTTONS_NONE, _ ("Revert unsaved changes to “%s”?"), name);
  gtk_message_dialog_format_secondary_text (
      GTK_MESSAGE_DIALOG (dialog), "%s",
      _ ("The document is read again from the file; every change since the last save is lost and "
         "cannot be undone."));
  gtk_dialog_add_buttons (GTK_DIALOG (dialog), _ ("_Cancel"), GTK_RESPONSE_CANCEL, _ ("_Revert"),
                          GTK_RESPONSE_ACCEPT, NULL);
  gtk_widget_add_css_class (
      gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT),
      "destructive-action");
  g_object_set_data_full (G_OBJECT (dialog), "tress-page", g_object_ref (page), g_object_unref);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_revert_response), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* ---- undo / redo ------------------------------------------------------- */

/* The text field being typed in (a filter, a name, a table cell being edited),
 * whose own undo Ctrl+Z means there. Spin buttons are left out: they commit
 * their number to the document, and Ctrl+Z after that undoes the edit. */
static GtkWidget *
focused_text_field (GtkWidget *window)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  if (!GTK_IS_TEXT (focus) || !gtk_widget_get_mapped (focus)
      || gtk_widget_get_ancestor (focus, GTK_TYPE_SPIN_BUTTON) != NULL)
    return NULL;
  return focus;
}

static void
action_undo (GtkWidget *widget, const char *action_name, GVariant *param)
{
  TressDocument *doc = tress_window_get_current_document (TRESS_WINDOW (widget));
  GtkWidget *text = focused_text_field (widget);

  if (text != NULL)
    gtk_widget_activate_action (text, "text.undo", NULL);
  else if (doc != NULL)
    tress_history_undo (tress_document_get_history (doc));
}

static void
action_redo (GtkWidget *widget, const char *action_name, GVariant *param)
{
  TressDocument *doc = tress_window_get_current_document (TRESS_WINDOW (widget));
  GtkWidget *text = focused_text_field (widget);

  if (text != NULL)
    gtk_widget_activate_action (text, "text.redo", NULL);
  else if (doc != NULL)
    tress_history_redo (tress_document_get_history (doc));
}

/* ---- close ------------------------------------------------------------- */

enum
{
  RESPONSE_DISCARD = 1,
  RESPONSE_SAVE = 2,
};

static void
on_close_saved (TressWindow *self, TressDocumentPage *page, gboolean saved, gpointer user_data)
{
  if (saved)
    _tress_window_remove_page (self, page);
}

static void
on_close_page_response (GtkDialog *dialog, int response, TressWindow *self)
{
  TressDocumentPage *page = g_object_get_data (G_OBJECT (dialog), "tress-page");

  if (page != NULL && gtk_widget_get_parent (GTK_WIDGET (page)) != NULL)
    {
      if (response == RESPONSE_DISCARD)
        _tress_window_remove_page (self, page);
      else if (response == RESPONSE_SAVE)
        _tress_window_save_page (self, page, FALSE, on_close_saved, NULL);
    }
  gtk_window_destroy (GTK_WINDOW (dialog));
}

void
_tress_window_close_page (TressWindow *self, TressDocumentPage *page)
{
  TressDocument *doc = tress_document_page_get_document (page);
  g_autofree char *name = NULL;
  GtkWidget *dialog;

  if (!tress_document_get_modified (doc))
    {
      _tress_window_remove_page (self, page);
      return;
    }

  name = g_strdup (tress_document_get_title (doc));
  gtk_notebook_set_current_page (self->notebook,
                                 gtk_notebook_page_num (self->notebook, GTK_WIDGET (page)));
  dialog = gtk_message_dialog_new (
      GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT, GTK_MESSAGE_QUESTION,
      GTK_BUTTONS_NONE, _ ("Save changes to “%s” before closing?"),
      name != NULL ? name : _ ("Untitled"));
  gtk_message_dialog_format_secondary_text (
      GTK_MESSAGE_DIALOG (dialog), "%s",
      _ ("If you close without saving, your changes will be lost."));
  gtk_dialog_add_buttons (GTK_DIALOG (dialog), _ ("Close _without Saving"), RESPONSE_DISCARD,
                          _ ("_Cancel"), GTK_RESPONSE_CANCEL, _ ("_Save"), RESPONSE_SAVE, NULL);
  gtk_widget_add_css_class (
      gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), RESPONSE_DISCARD),
      "destructive-action");
  gtk_widget_add_css_class (gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), RESPONSE_SAVE),
                            "suggested-action");
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), RESPONSE_SAVE);
  g_object_set_data_full (G_OBJECT (dialog), "tress-page", g_object_ref (page), g_object_unref);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_close_page_response), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
action_close_document (GtkWidget *widget, const char *action_name, GVariant *param)
{
  TressWindow *self = TRESS_WINDOW (widget);
  TressDocumentPage *page = tress_window_get_current_page (self);

  if (page != NULL)
    _tress_window_close_page (self, page);
}

/* ---- keyboard shortcuts ------------------------------------------------ */

/* Built on first use rather than with every window (as GtkApplication does
 * with gtk/help-overlay.ui), which keeps it out of the start-up time. */
static void
action_show_help_overlay (GtkWidget *widget, const char *action_name, GVariant *param)
{
  GtkApplicationWindow *window = GTK_APPLICATION_WINDOW (widget);
  GtkShortcutsWindow *overlay = gtk_application_window_get_help_overlay (window);

  if (overlay == NULL)
    {
      g_autoptr (GtkBuilder) builder
          = gtk_builder_new_from_resource ("/io/github/tress/Tress/help-overlay.ui");

      overlay = GTK_SHORTCUTS_WINDOW (gtk_builder_get_object (builder, "help_overlay"));
      /* Also makes the shortcuts show this window's accelerators. */
      gtk_application_window_set_help_overlay (window, overlay);
    }
  gtk_window_present (GTK_WINDOW (overlay));
}

/* ---- switching documents ----------------------------------------------- */

/* These act on the notebook, so they work whatever editor has the focus. */
static void
select_document (TressWindow *self, int index)
{
  int n = gtk_notebook_get_n_pages (self->notebook);

  if (n == 0)
    return;
  gtk_notebook_set_current_page (self->notebook, ((index % n) + n) % n);
}

static void
action_next_document (GtkWidget *widget, const char *action_name, GVariant *param)
{
  TressWindow *self = TRESS_WINDOW (widget);

  select_document (self, gtk_notebook_get_current_page (self->notebook) + 1);
}

static void
action_previous_document (GtkWidget *widget, const char *action_name, GVariant *param)
{
  TressWindow *self = TRESS_WINDOW (widget);

  select_document (self, gtk_notebook_get_current_page (self->notebook) - 1);
}

static void
action_select_document (GtkWidget *widget, const char *action_name, GVariant *param)
{
  TressWindow *self = TRESS_WINDOW (widget);
  int index = g_variant_get_int32 (param);

  /* Alt+1…9: the ninth is the last document, as in web browsers. */
  if (index >= 8)
    index = gtk_notebook_get_n_pages (self->notebook) - 1;
  if (index >= 0 && index < gtk_notebook_get_n_pages (self->notebook))
    gtk_notebook_set_current_page (self->notebook, index);
}

/* ---- install ----------------------------------------------------------- */

void
_tress_window_class_init_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open", NULL, action_open);
  gtk_widget_class_install_action (widget_class, "win.open-uri", "s", action_open_uri);
  gtk_widget_class_install_action (widget_class, "win.open-demo", NULL, action_open_demo);
  gtk_widget_class_install_action (widget_class, "win.save", NULL, action_save);
  gtk_widget_class_install_action (widget_class, "win.save-as", NULL, action_save_as);
  gtk_widget_class_install_action (widget_class, "win.revert", NULL, action_revert);
  gtk_widget_class_install_action (widget_class, "win.export-gltf", NULL, action_export_gltf);
  gtk_widget_class_install_action (widget_class, "win.import-gltf", NULL, action_import_gltf);
  gtk_widget_class_install_action (widget_class, "win.undo", NULL, action_undo);
  gtk_widget_class_install_action (widget_class, "win.redo", NULL, action_redo);
  gtk_widget_class_install_action (widget_class, "win.close-document", NULL, action_close_document);
  gtk_widget_class_install_action (widget_class, "win.show-help-overlay", NULL,
                                   action_show_help_overlay);
  gtk_widget_class_install_action (widget_class, "win.next-document", NULL, action_next_document);
  gtk_widget_class_install_action (widget_class, "win.previous-document", NULL,
                                   action_previous_document);
  gtk_widget_class_install_action (widget_class, "win.select-document", "i",
                                   action_select_document);
}
