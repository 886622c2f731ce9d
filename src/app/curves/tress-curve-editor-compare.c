/* tress-curve-editor-compare.c: the curve editor's "Compare with…"
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-editor-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "tress-native-dialog.h"

/* ------------------------------------------------------ compare with -- */

/* The other file is read and its curves taken in a thread; each curve of the
 * document gets the other file's curve of the same kind and path, drawn as a
 * ghost behind it. */
typedef struct
{
  GFile *file;
  const TressFormat *format;
  GPtrArray *names; /* per document curve: "kind\npath" */
} CompareJob;

static void
compare_job_free (gpointer p)
{
  CompareJob *job = p;

  g_object_unref (job->file);
  g_ptr_array_unref (job->names);
  g_free (job);
}

static char *
curve_name (const TressCurve *c)
{
  return g_strconcat (c->kind ? c->kind : "", "\n", c->path ? c->path : "", NULL);
}

static void
compare_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  CompareJob *job = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = g_file_load_bytes (job->file, cancellable, NULL, &error);
  g_autoptr (GHashTable) by_name = NULL;
  g_autofree char *name = g_file_get_basename (job->file);
  const TressFormat *format;
  const TressCurveOps *ops = job->format->curves;
  GPtrArray *ghosts;
  gpointer model;
  guint n;

  if (bytes == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  format = tress_format_detect (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL);
  if (format != job->format)
    {
      g_task_return_new_error (task, TRESS_ERROR, TRESS_ERROR_REFUSED,
                               /* TRANSLATORS: a file's name, then a format's name */
                               _ ("%s is not a %s file"), name, _ (job->format->display_name));
      return;
    }
  model = format->parse (bytes, name, &error);
  if (model == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  by_name
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)tress_curve_unref);
  n = ops->n_curves (model);
  for (guint i = 0; i < n; i++)
    {
      TressCurve *c = ops->get_curve (model, i);
      char *key = curve_name (c);

      if (g_hash_table_contains (by_name, key)) /* the first of a name wins */
        {
          g_free (key);
          tress_curve_unref (c);
        }
      else
        g_hash_table_insert (by_name, key, c);
    }
  format->free (model);
  ghosts = g_ptr_array_new_full (job->names->len, (GDestroyNotify)tress_curve_unref);
  for (guint i = 0; i < job->names->len; i++)
    {
      TressCurve *c = g_hash_table_lookup (by_name, job->names->pdata[i]);
      g_ptr_array_add (ghosts, c != NULL ? tress_curve_ref (c) : NULL);
    }
  g_task_return_pointer (task, ghosts, (GDestroyNotify)g_ptr_array_unref);
}

/* Whether the other version of a curve stores other keys. */
static gboolean
curves_differ (const TressCurve *a, const TressCurve *b)
{
  guint n = tress_curve_get_n_keys (a);

  if (n != tress_curve_get_n_keys (b))
    return TRUE;
  for (guint i = 0; i < n; i++)
    {
      const TressKey *p = tress_curve_get_key (a, i), *q = tress_curve_get_key (b, i);

      if (p->frame != q->frame || p->value != q->value || p->in_slope != q->in_slope
          || p->out_slope != q->out_slope || p->in_gap != q->in_gap || p->interp != q->interp)
        return TRUE;
    }
  return FALSE;
}

/* The status while comparing: how many of the shown curves differ from
 * their other version, and how many have none. */
void
tell_comparison (TressCurveEditor *self)
{
  guint n = tress_curve_view_get_n_curves (self->view), differ = 0, missing = 0;
  g_autofree char *text = NULL;
  g_autofree char *differing = NULL;

  if (self->compare_name == NULL)
    return;
  for (guint i = 0; i < n; i++)
    {
      guint index = tress_curve_view_get_curve_index (self->view, i);
      const TressCurve *ghost = tress_curve_view_get_ghost (self->view, index);

      if (ghost == NULL)
        missing++;
      else if (curves_differ (tress_curve_document_get_curve (self->document, index), ghost))
        differ++;
    }
  differing = g_strdup_printf (
      ngettext ("%u of the %u shown curve differs", "%u of the %u shown curves differ", n), differ,
      n);
  if (missing > 0)
    /* Translators: "Comparing with Walk.bfres: 3 of the 12 shown curves differ, 2 are not in it" */
    text = g_strdup_printf (ngettext ("Comparing with %s: %s, %u is not in it",
                                      "Comparing with %s: %s, %u are not in it", missing),
                            self->compare_name, differing, missing);
  else
    /* Translators: "Comparing with Walk.bfres: 3 of the 12 shown curves differ" */
    text = g_strdup_printf (_ ("Comparing with %s: %s"), self->compare_name, differing);
  show_message (self, text);
}

static void
compare_done (GObject *source, GAsyncResult *result, gpointer data)
{
  TressCurveEditor *self = TRESS_CURVE_EDITOR (source);
  g_autofree char *name = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) ghosts = g_task_propagate_pointer (G_TASK (result), &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->compare_cancel);
  if (ghosts == NULL)
    {
      g_autofree char *msg
          = g_strdup_printf (_ ("Cannot compare with %s: %s"), name, error->message);
      show_message (self, msg);
      return;
    }
  tress_curve_view_clear_ghosts (self->view);
  for (guint i = 0; i < ghosts->len; i++)
    if (ghosts->pdata[i] != NULL)
      tress_curve_view_set_ghost (self->view, i, ghosts->pdata[i]);
  g_free (self->compare_name);
  self->compare_name = g_steal_pointer (&name);
  tress_curve_view_set_ghost_label (self->view, self->compare_name);
  tell_comparison (self);
}

static void
compare_with (TressCurveEditor *self, GFile *file, const char *name)
{
  CompareJob *job = g_new0 (CompareJob, 1);
  GTask *task;
  guint n = tress_curve_document_get_n_curves (self->document);

  if (self->compare_cancel != NULL)
    g_cancellable_cancel (self->compare_cancel);
  g_clear_object (&self->compare_cancel);
  self->compare_cancel = g_cancellable_new ();
  job->file = g_object_ref (file);
  job->format = tress_document_get_format (TRESS_DOCUMENT (self->document));
  job->names = g_ptr_array_new_full (n, g_free);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (job->names, curve_name (tress_curve_document_get_curve (self->document, i)));
  task = g_task_new (self, self->compare_cancel, compare_done,
                     name != NULL ? g_strdup (name) : g_file_get_basename (file));
  g_task_set_task_data (task, job, compare_job_free);
  g_task_run_in_thread (task, compare_thread);
  g_object_unref (task);
}

static void
compare_chooser_response (GtkNativeDialog *dialog, int response, TressCurveEditor *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      if (file != NULL)
        compare_with (self, file, NULL);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
  g_object_unref (self);
}

void
act_compare_with (GtkWidget *widget, const char *name, GVariant *param)
{
  TressCurveEditor *self = TRESS_CURVE_EDITOR (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkFileChooserNative *chooser = gtk_file_chooser_native_new (
      _ ("Compare with"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
      GTK_FILE_CHOOSER_ACTION_OPEN, _ ("_Compare"), _ ("_Cancel"));
  GFile *own = tress_document_get_file (TRESS_DOCUMENT (self->document));

  if (own != NULL)
    {
      g_autoptr (GFile) folder = g_file_get_parent (own);
      if (folder != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
    }
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (compare_chooser_response),
                    g_object_ref (self));
  tress_native_dialog_cancel_with_parent (GTK_NATIVE_DIALOG (chooser));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* "curves.compare-with-file" ("s": a path or URI): the chooser's choice, and
 * what tests and scripts call. */
void
act_compare_with_file (GtkWidget *widget, const char *name, GVariant *param)
{
  g_autoptr (GFile) file = g_file_new_for_commandline_arg (g_variant_get_string (param, NULL));

  compare_with (TRESS_CURVE_EDITOR (widget), file, NULL);
}

void
act_compare_with_saved (GtkWidget *widget, const char *name, GVariant *param)
{
  TressCurveEditor *self = TRESS_CURVE_EDITOR (widget);
  GFile *file = tress_document_get_file (TRESS_DOCUMENT (self->document));
  g_autofree char *base = NULL, *label = NULL;

  if (file == NULL)
    {
      show_message (self,
                    _ ("This document has not been saved: there is no saved file to compare with"));
      return;
    }
  base = g_file_get_basename (file);
  /* TRANSLATORS: the file's name, as saved on disk */
  label = g_strdup_printf (_ ("%s (saved)"), base);
  compare_with (self, file, label);
}

void
act_stop_comparing (GtkWidget *widget, const char *name, GVariant *param)
{
  TressCurveEditor *self = TRESS_CURVE_EDITOR (widget);

  if (self->compare_cancel != NULL)
    g_cancellable_cancel (self->compare_cancel);
  g_clear_object (&self->compare_cancel);
  g_clear_pointer (&self->compare_name, g_free);
  tress_curve_view_clear_ghosts (self->view);
}

const char *
tress_curve_editor_get_compare_name (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), NULL);
  return self->compare_name;
}
