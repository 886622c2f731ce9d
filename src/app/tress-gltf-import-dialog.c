/* tress-gltf-import-dialog.c: File → Import Animation from glTF…
 *
 * The worker reads a copy of the document (its bytes as they would be
 * saved, parsed again), so that the editor's model is only touched on the UI
 * thread, once, by tress_curve_document_replace_state() with the copy's new
 * FRES bytes: the step's undo restores the FRES bytes taken at the start.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-gltf-import-dialog.h"

#include <glib/gi18n.h>

#include "document/tress-curve-document.h"
#include "formats/bfres/tress-bfres-scene.h"
#include "formats/bfres/tress-bfres-skeletal.h"
#include "interchange/tress-gltf-import-run.h"
#include "tress-native-dialog.h"

#define PROGRESS_MS 100

struct _TressGltfImportDialog
{
  GtkWindow parent_instance;

  GtkLabel *file_label;
  GtkButton *choose;
  GtkSpinButton *fps;
  GtkLabel *note;
  GtkWidget *progress_box;
  GtkLabel *progress_label;
  GtkProgressBar *progress;
  GtkLabel *title;
  GtkLabel *summary;
  GtkWidget *summary_scroller;
  GtkButton *cancel;
  GtkButton *import;
  GtkWidget *buttons;

  TressDocument *document;
  GFile *file;
  GtkFileChooserNative *chooser;
  TressGltfImportState state;

  GCancellable *cancellable;
  struct Run *run;
  guint progress_id;
  gboolean close_when_stopped;
  gboolean disposed;
};

G_DEFINE_FINAL_TYPE (TressGltfImportDialog, tress_gltf_import_dialog, GTK_TYPE_WINDOW)

/* ---- the worker -------------------------------------------------------------- */

typedef struct Run
{
  GBytes *bytes; /* the document as it would be saved */
  GBytes *start; /* its FRES bytes, what undo puts back */
  char *filename;
  GFile *anim_file; /* the document's file (the model is looked for beside it) */
  GFile *gltf;
  double fps;
  gint done, total; /* animations built, atomic */

  /* Results. */
  GBytes *after; /* the new FRES bytes, or NULL: nothing changed */
  guint n_imported, n_changed;
  char *title;
  GString *text;
} Run;

static void
run_free (Run *r)
{
  g_bytes_unref (r->bytes);
  g_bytes_unref (r->start);
  g_free (r->filename);
  g_clear_object (&r->anim_file);
  g_object_unref (r->gltf);
  g_clear_pointer (&r->after, g_bytes_unref);
  g_free (r->title);
  g_string_free (r->text, TRUE);
  g_free (r);
}

static char *
skeletal_names (TressBfres *bfres)
{
  g_autoptr (GPtrArray) names = tress_gltf_import_skeletal_names (bfres);

  return tress_gltf_import_list_names (names);
}

static char *
gltf_names (const TressGltfDocument *doc)
{
  g_autoptr (GPtrArray) names = tress_gltf_import_gltf_names (doc);

  return tress_gltf_import_list_names (names);
}

static gboolean
run_import (Run *r, GCancellable *cancellable, GError **error)
{
  g_autoptr (TressBfres) bfres = NULL;
  g_autoptr (GBytes) fres = NULL;
  g_autoptr (TressGltfDocument) doc = NULL;
  g_autoptr (TressGltfImport) imp = NULL;
  g_autoptr (GArray) pairs = NULL;
  g_autoptr (GPtrArray) skipped = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (TressGltfImportResult) result = NULL;
  g_autofree char *source = NULL, *gltf_name = g_file_get_basename (r->gltf);
  TressGltfImportOptions options = { r->fps, 0 };
  GString *s = r->text;
  gboolean stored;

  bfres = tress_bfres_parse (r->bytes, r->filename, error);
  if (bfres == NULL)
    return FALSE;
  fres = tress_bfres_find_model (bfres, r->anim_file, &source, error);
  if (fres == NULL)
    {
      g_autofree char *looked = tress_bfres_describe_model_search (bfres, r->anim_file);

      if (error != NULL && *error != NULL)
        g_prefix_error (error, _ ("The model to pose the animations on could not be read: "));
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                     _ ("No model to pose the animations on: %s"), looked);
      return FALSE;
    }
  doc = tress_gltf_document_new_for_file (r->gltf, error);
  if (doc == NULL)
    return FALSE;
  imp = tress_gltf_import_new (bfres, fres, source, doc, &options, error);
  if (imp == NULL)
    return FALSE;
  g_string_append_printf (s, _ ("Posed on model %s (from %s); joints from %s\n"),
                          tress_gltf_import_get_model (imp), source,
                          tress_gltf_import_get_skin (imp));
  pairs = tress_gltf_import_pair_all (doc, imp, skipped);
  for (guint i = 0; i < skipped->len; i++)
    {
      char *line = skipped->pdata[i];

      /* (a sentence of its own here) */
      line[0] = g_ascii_toupper (line[0]);
      g_string_append_printf (s, "%s\n", line);
    }
  if (pairs->len == 0)
    {
      g_autofree char *ours = skeletal_names (bfres), *theirs = gltf_names (doc);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _ ("No animation of %s (%s) has the name of a skeletal animation of this file "
                      "(%s)."),
                   gltf_name, theirs, ours);
      return FALSE;
    }
  g_atomic_int_set (&r->total, (int)(pairs->len / 2));
  result = tress_gltf_import_build_all (imp, pairs, cancellable, &r->done, error);
  if (result == NULL)
    return FALSE;
  {
    const TressGltfImportAnim *first = result->anims->pdata[0];

    if (first->unmatched_joints->len > 0)
      {
        g_autofree char *names = tress_gltf_import_list_names (first->unmatched_joints);

        g_string_append_printf (s, _ ("%u joints name no bone and are not imported: %s\n"),
                                first->unmatched_joints->len, names);
      }
  }
  stored = tress_gltf_import_store (result, bfres, error);
  for (guint i = 0; i < result->anims->len; i++)
    {
      const TressGltfImportAnim *a = result->anims->pdata[i];
      g_autoptr (GPtrArray) lines = tress_gltf_import_describe (result, i);

      for (guint k = 0; k < lines->len; k++)
        g_string_append_printf (s, k == 0 ? "\n“%s”: %s\n" : "    %s%s\n", k == 0 ? a->name : "",
                                (const char *)lines->pdata[k]);
    }
  if (!stored)
    return FALSE;
  r->n_imported = result->anims->len;
  r->n_changed = result->n_changed;
  if (r->n_changed > 0)
    {
      r->after = tress_bfres_get_bfres_bytes (bfres);
      g_string_append_printf (
          s, _ ("BFRES %" G_GSIZE_FORMAT " → %" G_GSIZE_FORMAT " bytes (%+" G_GINT64_FORMAT ")\n"),
          result->size_before, result->size_after,
          (gint64)result->size_after - (gint64)result->size_before);
    }
  r->title = r->n_changed > 0
                 ? g_strdup_printf (ngettext ("Imported %u animation from %s",
                                              "Imported %u animations from %s", r->n_changed),
                                    r->n_changed, gltf_name)
                 : g_strdup (_ ("Nothing changed: every animation is as the file has it"));
  return TRUE;
}

static void
run_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  GError *error = NULL;

  if (run_import (task_data, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/* ---- the window -------------------------------------------------------------- */

static void
update (TressGltfImportDialog *self)
{
  gboolean running = self->state == TRESS_GLTF_IMPORT_RUNNING;
  gboolean done = self->state == TRESS_GLTF_IMPORT_DONE;
  g_autofree char *name = self->file != NULL ? g_file_get_basename (self->file) : NULL;

  gtk_label_set_text (self->file_label, name != NULL ? name : _ ("No file chosen"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->choose), !running && !done);
  gtk_widget_set_sensitive (GTK_WIDGET (self->fps), !running && !done);
  gtk_widget_set_visible (GTK_WIDGET (self->import), !done);
  gtk_widget_set_sensitive (GTK_WIDGET (self->import), !running && self->file != NULL);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->import),
                               self->file == NULL ? _ ("Choose a glTF file first") : NULL);
  gtk_button_set_label (self->cancel, done ? _ ("_Close") : _ ("_Cancel"));
  gtk_widget_set_visible (self->progress_box, running);
}

static gboolean
on_progress_tick (gpointer user_data)
{
  TressGltfImportDialog *self = user_data;
  int done = g_atomic_int_get (&self->run->done), total = g_atomic_int_get (&self->run->total);
  g_autofree char *text = NULL;

  if (g_cancellable_is_cancelled (self->cancellable))
    text = g_strdup (_ ("Stopping…"));
  else if (total > 0)
    {
      gtk_progress_bar_set_fraction (self->progress, (double)done / total);
      /* Translators: "Importing animation 2 of 5…" */
      text = g_strdup_printf (_ ("Importing animation %d of %d…"), MIN (done + 1, total), total);
    }
  else
    {
      gtk_progress_bar_pulse (self->progress);
      text = g_strdup (_ ("Reading the file and the model…"));
    }
  gtk_label_set_text (self->progress_label, text);
  return G_SOURCE_CONTINUE;
}

static void
show_result (TressGltfImportDialog *self, const char *title, const char *text, gboolean error)
{
  gtk_label_set_text (self->title, title);
  gtk_label_set_text (self->summary, text);
  if (error)
    gtk_widget_add_css_class (GTK_WIDGET (self->title), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->title), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->title), TRUE);
  gtk_widget_set_visible (self->summary_scroller, text != NULL && *text != '\0');
  /* Without a summary, the empty space goes above the buttons. */
  gtk_widget_set_vexpand (self->buttons, !gtk_widget_get_visible (self->summary_scroller));
  gtk_widget_set_visible (GTK_WIDGET (self->note), FALSE);
}

static gboolean
restore_fres (gpointer model, GBytes *state, GError **error)
{
  return tress_bfres_restore_fres (model, state, error);
}

static void
on_run_done (GObject *source, GAsyncResult *res, gpointer user_data)
{
  TressGltfImportDialog *self = TRESS_GLTF_IMPORT_DIALOG (source);
  Run *r = g_task_get_task_data (G_TASK (res));
  g_autoptr (GError) error = NULL;
  gboolean ok = g_task_propagate_boolean (G_TASK (res), &error);

  g_clear_handle_id (&self->progress_id, g_source_remove);
  g_clear_object (&self->cancellable);
  self->run = NULL;
  if (self->disposed)
    return;
  if (ok && r->after != NULL)
    {
      TressBfres *model = tress_document_get_model (self->document);
      g_autoptr (GBytes) now = tress_bfres_get_bfres_bytes (model);
      g_autofree char *label
          = g_strdup_printf (ngettext ("Import %u Animation from glTF",
                                       "Import %u Animations from glTF", r->n_changed),
                             r->n_changed);

      if (!g_bytes_equal (now, r->start))
        ok = (g_set_error (&error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _ ("the document changed while the import ran; import again")),
              FALSE);
      else
        ok = tress_curve_document_replace_state (TRESS_CURVE_DOCUMENT (self->document), label,
                                                 restore_fres, r->start, r->after, &error);
    }
  self->state = TRESS_GLTF_IMPORT_DONE;
  if (ok)
    show_result (self, r->title, r->text->str, FALSE);
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      self->state = TRESS_GLTF_IMPORT_READY;
      show_result (self, _ ("The import was stopped; the document is unchanged."), NULL, FALSE);
    }
  else
    {
      g_autofree char *title = g_strdup_printf (_ ("Nothing imported: %s"), error->message);

      /* The form stays for another file or rate. */
      self->state = TRESS_GLTF_IMPORT_READY;
      show_result (self, title, r->text->str, TRUE);
    }
  update (self);
  if (self->close_when_stopped)
    gtk_window_destroy (GTK_WINDOW (self));
  else
    gtk_widget_grab_focus (GTK_WIDGET (self->cancel));
}

void
tress_gltf_import_dialog_import (TressGltfImportDialog *self)
{
  g_autoptr (GTask) task = NULL;
  g_autoptr (GError) error = NULL;
  TressBfres *model = tress_document_get_model (self->document);
  GFile *anim_file = tress_document_get_file (self->document);
  Run *r;
  GBytes *bytes;

  g_return_if_fail (TRESS_IS_GLTF_IMPORT_DIALOG (self));
  if (self->state == TRESS_GLTF_IMPORT_RUNNING || self->file == NULL)
    return;
  bytes = tress_bfres_serialize (model, &error);
  if (bytes == NULL)
    {
      self->state = TRESS_GLTF_IMPORT_DONE;
      show_result (self, _ ("Nothing imported"), error->message, TRUE);
      update (self);
      return;
    }
  r = g_new0 (Run, 1);
  r->bytes = bytes;
  r->start = tress_bfres_get_bfres_bytes (model);
  r->filename = anim_file != NULL ? g_file_get_basename (anim_file) : g_strdup ("");
  r->anim_file = anim_file != NULL ? g_object_ref (anim_file) : NULL;
  r->gltf = g_object_ref (self->file);
  r->fps = gtk_spin_button_get_value (self->fps);
  r->text = g_string_new (NULL);
  self->run = r;
  self->cancellable = g_cancellable_new ();
  self->state = TRESS_GLTF_IMPORT_RUNNING;
  gtk_widget_set_visible (GTK_WIDGET (self->title), FALSE);
  gtk_progress_bar_set_fraction (self->progress, 0);
  gtk_label_set_text (self->progress_label, _ ("Reading the file and the model…"));
  self->progress_id = g_timeout_add (PROGRESS_MS, on_progress_tick, self);
  update (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->cancel));
  task = g_task_new (self, self->cancellable, on_run_done, NULL);
  g_task_set_task_data (task, r, (GDestroyNotify)run_free);
  g_task_run_in_thread (task, run_thread);
}

static void
on_cancel_clicked (TressGltfImportDialog *self)
{
  if (self->state == TRESS_GLTF_IMPORT_RUNNING)
    {
      g_cancellable_cancel (self->cancellable);
      gtk_label_set_text (self->progress_label, _ ("Stopping…"));
    }
  else
    gtk_window_close (GTK_WINDOW (self));
}

static gboolean
on_close_request (GtkWindow *window)
{
  TressGltfImportDialog *self = TRESS_GLTF_IMPORT_DIALOG (window);

  if (self->state != TRESS_GLTF_IMPORT_RUNNING)
    return FALSE;
  /* The worker finishes on its copy; nothing reaches the document. */
  self->close_when_stopped = TRUE;
  g_cancellable_cancel (self->cancellable);
  gtk_widget_set_visible (GTK_WIDGET (window), FALSE);
  return TRUE;
}

static void
on_chooser_response (GtkNativeDialog *chooser, int response, TressGltfImportDialog *self)
{
  g_autoptr (GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  gtk_native_dialog_destroy (chooser);
  g_clear_object (&self->chooser);
  if (file != NULL)
    tress_gltf_import_dialog_set_file (self, file);
}

void
tress_gltf_import_dialog_choose_file (TressGltfImportDialog *self)
{
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();
  GFile *doc_file = tress_document_get_file (self->document);

  if (self->chooser != NULL)
    return;
  self->chooser
      = gtk_file_chooser_native_new (_ ("Import Animation from glTF"), GTK_WINDOW (self),
                                     GTK_FILE_CHOOSER_ACTION_OPEN, _ ("_Open"), _ ("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  gtk_file_filter_set_name (filter, _ ("glTF (.glb, .gltf)"));
  gtk_file_filter_add_pattern (filter, "*.glb");
  gtk_file_filter_add_pattern (filter, "*.gltf");
  gtk_file_filter_add_mime_type (filter, "model/gltf-binary");
  gtk_file_filter_add_mime_type (filter, "model/gltf+json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  if (doc_file != NULL)
    {
      g_autoptr (GFile) folder = g_file_get_parent (doc_file);

      if (folder != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), folder, NULL);
    }
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_chooser_response), self);
  tress_native_dialog_cancel_with_parent (GTK_NATIVE_DIALOG (self->chooser));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

GFile *
tress_gltf_import_dialog_get_file (TressGltfImportDialog *self)
{
  g_return_val_if_fail (TRESS_IS_GLTF_IMPORT_DIALOG (self), NULL);
  return self->file;
}

void
tress_gltf_import_dialog_set_file (TressGltfImportDialog *self, GFile *file)
{
  g_return_if_fail (TRESS_IS_GLTF_IMPORT_DIALOG (self));
  if (self->state == TRESS_GLTF_IMPORT_RUNNING)
    return;
  /* A file set while the chooser is open (a test, a drop) answers it. */
  if (self->chooser != NULL)
    {
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
      g_clear_object (&self->chooser);
    }
  g_set_object (&self->file, file);
  self->state = TRESS_GLTF_IMPORT_READY;
  gtk_widget_set_visible (GTK_WIDGET (self->title), FALSE);
  gtk_widget_set_visible (self->summary_scroller, FALSE);
  gtk_widget_set_vexpand (self->buttons, TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->note), TRUE);
  update (self);
  if (file != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (self->import));
}

TressGltfImportState
tress_gltf_import_dialog_get_state (TressGltfImportDialog *self)
{
  g_return_val_if_fail (TRESS_IS_GLTF_IMPORT_DIALOG (self), TRESS_GLTF_IMPORT_READY);
  return self->state;
}

const char *
tress_gltf_import_dialog_get_title_text (TressGltfImportDialog *self)
{
  g_return_val_if_fail (TRESS_IS_GLTF_IMPORT_DIALOG (self), NULL);
  return gtk_label_get_text (self->title);
}

const char *
tress_gltf_import_dialog_get_summary (TressGltfImportDialog *self)
{
  g_return_val_if_fail (TRESS_IS_GLTF_IMPORT_DIALOG (self), NULL);
  return gtk_label_get_text (self->summary);
}

gboolean
tress_gltf_import_dialog_supports (TressDocument *document, char **why)
{
  const TressFormat *format = document != NULL ? tress_document_get_format (document) : NULL;

  if (why != NULL)
    *why = NULL;
  if (format != NULL && g_strcmp0 (format->id, "bfres") == 0 && TRESS_IS_CURVE_DOCUMENT (document))
    return TRUE;
  if (why != NULL)
    /* Translators: why glTF animations cannot be imported, in the menu item: "Import
     * Animation from glTF… (only into BFRES files)" */
    *why = g_strdup (format != NULL ? _ ("only into BFRES files") : _ ("no document"));
  return FALSE;
}

/* ---- construction ------------------------------------------------------------ */

static GtkWidget *
label_new (const char *text, const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

static void
tress_gltf_import_dialog_dispose (GObject *object)
{
  TressGltfImportDialog *self = TRESS_GLTF_IMPORT_DIALOG (object);

  self->disposed = TRUE;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->progress_id, g_source_remove);
  if (self->chooser != NULL)
    {
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
      g_clear_object (&self->chooser);
    }
  g_clear_object (&self->document);
  g_clear_object (&self->file);
  G_OBJECT_CLASS (tress_gltf_import_dialog_parent_class)->dispose (object);
}

static void
tress_gltf_import_dialog_class_init (TressGltfImportDialogClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tress_gltf_import_dialog_dispose;
  GTK_WINDOW_CLASS (klass)->close_request = on_close_request;
  gtk_widget_class_add_binding_action (GTK_WIDGET_CLASS (klass), GDK_KEY_Escape, 0, "window.close",
                                       NULL);
}

static void
tress_gltf_import_dialog_init (TressGltfImportDialog *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *buttons = self->buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  g_autofree char *note = NULL;

  gtk_window_set_modal (GTK_WINDOW (self), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (self), 620, 440);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);

  gtk_box_append (GTK_BOX (row), gtk_label_new (_ ("glTF file:")));
  self->file_label = GTK_LABEL (label_new (NULL, NULL));
  gtk_widget_set_hexpand (GTK_WIDGET (self->file_label), TRUE);
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->file_label));
  self->choose = GTK_BUTTON (gtk_button_new_with_mnemonic (_ ("C_hoose File…")));
  g_signal_connect_swapped (self->choose, "clicked",
                            G_CALLBACK (tress_gltf_import_dialog_choose_file), self);
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->choose));
  gtk_box_append (GTK_BOX (box), row);

  row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_box_append (GTK_BOX (row), gtk_label_new_with_mnemonic (_ ("_Frames per second:")));
  self->fps = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (0.01, 10000, 1));
  gtk_spin_button_set_digits (self->fps, 2);
  gtk_spin_button_set_value (self->fps, TRESS_GLTF_IMPORT_DEFAULT_FPS);
  gtk_widget_set_name (GTK_WIDGET (self->fps), "fps");
  gtk_label_set_mnemonic_widget (GTK_LABEL (gtk_widget_get_first_child (row)),
                                 GTK_WIDGET (self->fps));
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->fps));
  gtk_box_append (GTK_BOX (box), row);

  note = g_strdup (_ ("Every animation of the glTF named like a skeletal animation of this "
                      "file replaces it: frame f is sampled at time f / frames per second, "
                      "within the default tolerances, posed on the model the preview uses. One "
                      "undo step takes it back."));
  self->note = GTK_LABEL (label_new (note, "dim-label"));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->note));

  self->progress_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  self->progress_label = GTK_LABEL (label_new (NULL, NULL));
  self->progress = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_box_append (GTK_BOX (self->progress_box), GTK_WIDGET (self->progress_label));
  gtk_box_append (GTK_BOX (self->progress_box), GTK_WIDGET (self->progress));
  gtk_box_append (GTK_BOX (box), self->progress_box);

  self->title = GTK_LABEL (label_new (NULL, "heading"));
  gtk_label_set_selectable (self->title, TRUE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->title));
  self->summary = GTK_LABEL (label_new (NULL, NULL));
  gtk_label_set_selectable (self->summary, TRUE);
  gtk_label_set_yalign (self->summary, 0);
  self->summary_scroller = gtk_scrolled_window_new ();
  gtk_widget_set_vexpand (self->summary_scroller, TRUE);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->summary_scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->summary_scroller),
                                 GTK_WIDGET (self->summary));
  gtk_box_append (GTK_BOX (box), self->summary_scroller);

  gtk_widget_set_halign (buttons, GTK_ALIGN_END);
  gtk_widget_set_valign (buttons, GTK_ALIGN_END);
  gtk_widget_set_vexpand (buttons, TRUE);
  self->cancel = GTK_BUTTON (gtk_button_new_with_mnemonic (_ ("_Cancel")));
  gtk_widget_set_name (GTK_WIDGET (self->cancel), "cancel");
  g_signal_connect_swapped (self->cancel, "clicked", G_CALLBACK (on_cancel_clicked), self);
  self->import = GTK_BUTTON (gtk_button_new_with_mnemonic (_ ("_Import")));
  gtk_widget_set_name (GTK_WIDGET (self->import), "import");
  gtk_widget_add_css_class (GTK_WIDGET (self->import), "suggested-action");
  g_signal_connect_swapped (self->import, "clicked", G_CALLBACK (tress_gltf_import_dialog_import),
                            self);
  gtk_box_append (GTK_BOX (buttons), GTK_WIDGET (self->cancel));
  gtk_box_append (GTK_BOX (buttons), GTK_WIDGET (self->import));
  gtk_box_append (GTK_BOX (box), buttons);
  gtk_window_set_child (GTK_WINDOW (self), box);

  gtk_widget_set_visible (GTK_WIDGET (self->title), FALSE);
  gtk_widget_set_visible (self->summary_scroller, FALSE);
}

GtkWidget *
tress_gltf_import_dialog_new (GtkWindow *parent, TressDocument *document)
{
  TressGltfImportDialog *self;
  const char *title;
  g_autofree char *window_title = NULL;

  g_return_val_if_fail (tress_gltf_import_dialog_supports (document, NULL), NULL);
  self = g_object_new (TRESS_TYPE_GLTF_IMPORT_DIALOG, "transient-for", parent, NULL);
  self->document = g_object_ref (document);
  title = tress_document_get_title (document);
  /* Translators: the import dialog's title, %s the document's name */
  window_title
      = g_strdup_printf (_ ("Import Animation from glTF into “%s”"), title != NULL ? title : "");
  gtk_window_set_title (GTK_WINDOW (self), window_title);
  update (self);
  return GTK_WIDGET (self);
}
