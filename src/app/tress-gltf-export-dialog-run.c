/* tress-gltf-export-dialog-run.c: the export dialog's run
 *
 * Export asks before replacing a file the user has not agreed to replace,
 * then runs tress_gltf_export_to_file() in a worker on the dialog's snapshot,
 * the progress bar following the worker's TressProgress. Cancel cancels the
 * progress's cancellable: the worker stops at its next report and nothing is
 * written. The summary follows a success; a failure or a stop is said above
 * the buttons, the form kept.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-gltf-export-dialog-private.h"

#include <glib/gi18n.h>

#include "core/tress-progress.h"

#define PROGRESS_MS 100

enum
{
  RESPONSE_REPLACE = 1,
};

typedef struct
{
  Snapshot *snapshot;
  const TressGltfModel *model; /* the dialog's, which the task keeps alive */
  GArray *anims;               /* guint */
  double fps;
  gboolean split;
  GFile *output;
  TressProgress *progress;
} Run;

static void
run_free (Run *r)
{
  _tress_gltf_export_snapshot_unref (r->snapshot);
  g_array_unref (r->anims);
  g_object_unref (r->output);
  tress_progress_unref (r->progress);
  g_free (r);
}

static void
run_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  static const guint none[1] = { 0 };
  Run *r = task_data;
  GError *error = NULL;
  TressGltfExportResult *result;
  TressGltfExportOptions options = { r->anims->len > 0 ? (const guint *)r->anims->data : none,
                                     r->anims->len, r->fps, r->split };

  tress_progress_run_begin (r->progress);
  result = tress_gltf_export_to_file (r->snapshot->exporter, r->snapshot->data, r->model, &options,
                                      r->output, cancellable, &error);
  tress_progress_run_end ();
  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, (GDestroyNotify)tress_gltf_export_result_free);
}

/* ---- progress ---------------------------------------------------------------- */

static gboolean
on_progress_tick (gpointer user_data)
{
  TressGltfExportDialog *self = user_data;
  const char *phase = NULL;
  guint64 done = 0, total = 0;
  TressProgressUnit unit;
  g_autofree char *text = NULL;

  tress_progress_get (self->export_progress, &phase, &done, &total, &unit);
  if (g_cancellable_is_cancelled (self->cancellable))
    text = g_strdup (_ ("Stopping…"));
  else if (phase == NULL)
    text = g_strdup (_ ("Starting…"));
  else if (total > 0)
    {
      double fraction = MIN (1.0, (double)done / (double)total);

      gtk_progress_bar_set_fraction (self->progress, fraction);
      /* Translators: a phase of the export and how much of it is done: "Exporting animations:
       * 45 %" */
      text = g_strdup_printf (_ ("%s: %.0f %%"), _ (phase), 100 * fraction);
    }
  else
    {
      gtk_progress_bar_pulse (self->progress);
      /* Translators: a phase of the export whose length is not known: "Writing the file…" */
      text = g_strdup_printf (_ ("%s…"), _ (phase));
    }
  gtk_label_set_text (self->progress_label, text);
  return G_SOURCE_CONTINUE;
}

static void
show_message (TressGltfExportDialog *self, const char *text, gboolean error)
{
  gtk_label_set_text (self->message, text);
  if (error)
    gtk_widget_add_css_class (GTK_WIDGET (self->message), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->message), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->message), text != NULL);
}

/* ---- the summary ------------------------------------------------------------- */

static void
setup_note_row (GtkListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_margin_top (label, 4);
  gtk_widget_set_margin_bottom (label, 4);
  gtk_widget_set_margin_start (label, 6);
  gtk_widget_set_margin_end (label, 6);
  gtk_list_item_set_activatable (list_item, FALSE);
  gtk_list_item_set_child (list_item, label);
}

static void
bind_note_row (GtkListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  GtkStringObject *note = gtk_list_item_get_item (list_item);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)),
                      gtk_string_object_get_string (note));
}

void
_tress_gltf_export_dialog_init_summary (TressGltfExportDialog *self)
{
  g_signal_connect (self->notes_factory, "setup", G_CALLBACK (setup_note_row), NULL);
  g_signal_connect (self->notes_factory, "bind", G_CALLBACK (bind_note_row), NULL);
}

static void
show_summary (TressGltfExportDialog *self, TressGltfExportResult *result)
{
  g_autofree char *name = g_file_get_basename (result->file);
  g_autoptr (GFile) folder = g_file_get_parent (result->file);
  g_autofree char *where = folder != NULL ? g_file_get_parse_name (folder) : g_strdup ("");
  g_autofree char *size = g_format_size (result->size);
  g_autofree char *title = NULL, *files = NULL, *anims = NULL, *joints = NULL, *meshes = NULL;
  g_autofree char *details = NULL;
  g_autoptr (GtkStringList) notes = gtk_string_list_new (NULL);
  g_autoptr (GtkNoSelection) selection = NULL;
  guint n_notes = result->notes->len;

  /* Translators: the summary's title, %s the file written */
  title = g_strdup_printf (_ ("Exported “%s”"), name);
  if (result->bin_file != NULL)
    {
      g_autofree char *bin = g_file_get_basename (result->bin_file);

      /* Translators: "demo.gltf and demo.bin, 34.5 kB in all, in /home/me/models" */
      files = g_strdup_printf (_ ("%s and %s, %s in all, in %s"), name, bin, size, where);
    }
  else
    /* Translators: "34.5 kB, in /home/me/models" */
    files = g_strdup_printf (_ ("%s, in %s"), size, where);
  anims = g_strdup_printf (ngettext ("%u animation at %g frames per second",
                                     "%u animations at %g frames per second", result->n_animations),
                           result->n_animations, result->fps);
  if (self->exporter->own_scene)
    /* Translators: the objects of a scene exported as glTF nodes */
    joints = g_strdup_printf (ngettext ("%u node", "%u nodes", result->n_joints), result->n_joints);
  else
    joints
        = g_strdup_printf (ngettext ("%u joint", "%u joints", result->n_joints), result->n_joints);
  meshes = g_strdup_printf (ngettext ("%u mesh", "%u meshes", result->n_meshes), result->n_meshes);
  /* Translators: the summary: the files, then "1 animation at 30 frames per second · 5 joints ·
   * 3 meshes" */
  details = g_strdup_printf (_ ("%s\n%s · %s · %s"), files, anims, joints, meshes);
  gtk_label_set_text (self->done_title, title);
  gtk_label_set_text (self->done_details, details);

  if (n_notes > 0)
    {
      g_autofree char *heading = g_strdup_printf (
          ngettext ("Not carried by glTF (%u)", "Not carried by glTF (%u)", n_notes), n_notes);

      gtk_label_set_text (self->notes_heading, heading);
    }
  else
    gtk_label_set_text (self->notes_heading, _ ("Everything chosen was carried."));
  for (guint i = 0; i < n_notes; i++)
    gtk_string_list_append (notes, result->notes->pdata[i]);
  selection = gtk_no_selection_new (G_LIST_MODEL (g_steal_pointer (&notes)));
  gtk_list_view_set_model (self->notes, GTK_SELECTION_MODEL (selection));
  gtk_widget_set_visible (self->notes_scroller, n_notes > 0);
  /* Without notes, the empty space goes above Close. */
  gtk_widget_set_vexpand (self->done_buttons, n_notes == 0);

  self->state = TRESS_GLTF_EXPORT_DONE;
  _tress_gltf_export_dialog_update (self);
  gtk_window_set_default_widget (GTK_WINDOW (self), GTK_WIDGET (self->close));
  gtk_widget_grab_focus (GTK_WIDGET (self->close));
}

/* ---- the run ----------------------------------------------------------------- */

static void
on_run_done (GObject *source, GAsyncResult *res, gpointer user_data)
{
  TressGltfExportDialog *self = TRESS_GLTF_EXPORT_DIALOG (source);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressGltfExportResult) result = g_task_propagate_pointer (G_TASK (res), &error);

  g_clear_handle_id (&self->progress_id, g_source_remove);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->export_progress, tress_progress_unref);
  if (self->disposed)
    return;
  gtk_widget_set_visible (self->progress_box, FALSE);
  self->state = TRESS_GLTF_EXPORT_READY;
  if (result != NULL)
    show_summary (self, result);
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    show_message (self, _ ("The export was stopped; no file was written."), FALSE);
  else
    {
      /* Translators: why an export failed */
      g_autofree char *text = g_strdup_printf (_ ("Could not export: %s"), error->message);

      show_message (self, text, TRUE);
    }
  _tress_gltf_export_dialog_update (self);
  if (self->close_when_stopped)
    gtk_window_destroy (GTK_WINDOW (self));
  else if (result == NULL)
    gtk_widget_grab_focus (GTK_WIDGET (self->export));
}

static void
run (TressGltfExportDialog *self)
{
  g_autoptr (GTask) task = NULL;
  Run *r = g_new0 (Run, 1);

  self->cancellable = g_cancellable_new ();
  self->export_progress = tress_progress_new (self->cancellable);
  r->snapshot = _tress_gltf_export_snapshot_ref (self->snapshot);
  r->model = self->model;
  r->anims = _tress_gltf_export_dialog_chosen (self, NULL);
  r->fps = gtk_spin_button_get_value (self->fps);
  r->split = self->exporter->split_label != NULL && gtk_check_button_get_active (self->split);
  r->output = g_object_ref (self->output);
  r->progress = tress_progress_ref (self->export_progress);

  self->state = TRESS_GLTF_EXPORT_RUNNING;
  show_message (self, NULL, FALSE);
  gtk_progress_bar_set_fraction (self->progress, 0);
  gtk_label_set_text (self->progress_label, _ ("Starting…"));
  gtk_widget_set_visible (self->progress_box, TRUE);
  self->progress_id = g_timeout_add (PROGRESS_MS, on_progress_tick, self);
  _tress_gltf_export_dialog_update (self);
  /* The form is insensitive now: Cancel takes the keys (Escape, Enter). */
  gtk_widget_grab_focus (GTK_WIDGET (self->cancel));

  task = g_task_new (self, self->cancellable, on_run_done, NULL);
  g_task_set_task_data (task, r, (GDestroyNotify)run_free);
  g_task_run_in_thread (task, run_thread);
}

gboolean
_tress_gltf_export_dialog_stop (TressGltfExportDialog *self)
{
  if (self->state != TRESS_GLTF_EXPORT_RUNNING)
    return FALSE;
  g_cancellable_cancel (self->cancellable);
  gtk_label_set_text (self->progress_label, _ ("Stopping…"));
  return TRUE;
}

/* ---- replacing files --------------------------------------------------------- */

/* The files the export would write over that the user has not agreed to. */
static GPtrArray *
files_replaced (TressGltfExportDialog *self)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_object_unref);
  GFile *files[2] = { self->output, NULL };
  g_autoptr (GFile) bin = NULL;

  if (tress_gltf_file_is_split (self->output))
    files[1] = bin = tress_gltf_bin_file_for (self->output);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    if (files[i] != NULL && g_file_query_exists (files[i], NULL)
        && (self->confirmed == NULL || !g_file_equal (files[i], self->confirmed)))
      g_ptr_array_add (out, g_object_ref (files[i]));
  return out;
}

static void
on_replace_response (GtkDialog *dialog, int response, TressGltfExportDialog *self)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
  self->question = NULL;
  if (response != RESPONSE_REPLACE || self->disposed || self->state != TRESS_GLTF_EXPORT_READY)
    return;
  g_set_object (&self->confirmed, self->output);
  run (self);
}

static void
ask_replace (TressGltfExportDialog *self, GPtrArray *files)
{
  g_autofree char *first = g_file_get_basename (files->pdata[0]);
  g_autoptr (GFile) folder = g_file_get_parent (files->pdata[0]);
  g_autofree char *where = folder != NULL ? g_file_get_parse_name (folder) : g_strdup ("");
  g_autofree char *primary = NULL;
  GtkWidget *dialog;

  if (files->len > 1)
    {
      g_autofree char *second = g_file_get_basename (files->pdata[1]);

      /* Translators: asked before an export writes over two files */
      primary = g_strdup_printf (_ ("Replace “%s” and “%s”?"), first, second);
    }
  else
    /* Translators: asked before an export writes over a file */
    primary = g_strdup_printf (_ ("Replace “%s”?"), first);
  dialog = gtk_message_dialog_new (GTK_WINDOW (self),
                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE, "%s", primary);
  gtk_message_dialog_format_secondary_text (
      GTK_MESSAGE_DIALOG (dialog),
      ngettext ("A file of that name is already in “%s”. Exporting writes over it.",
                "Files of those names are already in “%s”. Exporting writes over them.",
                files->len),
      where);
  gtk_dialog_add_buttons (GTK_DIALOG (dialog), _ ("_Cancel"), GTK_RESPONSE_CANCEL, _ ("_Replace"),
                          RESPONSE_REPLACE, NULL);
  gtk_widget_add_css_class (
      gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), RESPONSE_REPLACE),
      "destructive-action");
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  g_signal_connect (dialog, "response", G_CALLBACK (on_replace_response), self);
  self->question = dialog;
  gtk_window_present (GTK_WINDOW (dialog));
}

void
_tress_gltf_export_dialog_export (TressGltfExportDialog *self)
{
  g_autoptr (GPtrArray) replaced = NULL;

  if (self->state != TRESS_GLTF_EXPORT_READY || self->blocked != NULL || self->question != NULL)
    return;
  replaced = files_replaced (self);
  if (replaced->len > 0)
    ask_replace (self, replaced);
  else
    run (self);
}
