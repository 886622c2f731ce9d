/* tress-gltf-export-dialog.c: File → Export as glTF…
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-gltf-export-dialog-private.h"

#include <glib/gi18n.h>

#include "app/scene/tress-scene-pane.h"
#include "tress-gltf-animation-item.h"
#include "tress-native-dialog.h"

/* How often the progress bar reads the export's progress. */
#define PROGRESS_MS 100
/* Animations named in the note under the list before "and N more". */
#define NOTE_NAMES 4

enum
{
  FORMAT_GLB,
  FORMAT_GLTF,
};

G_DEFINE_FINAL_TYPE (TressGltfExportDialog, tress_gltf_export_dialog, GTK_TYPE_WINDOW)

/* ---- the snapshot ------------------------------------------------------------ */

static void
snapshot_clear (gpointer data)
{
  Snapshot *s = data;

  s->exporter->snapshot_free (s->data);
}

Snapshot *
_tress_gltf_export_snapshot_ref (Snapshot *s)
{
  return g_atomic_rc_box_acquire (s);
}

void
_tress_gltf_export_snapshot_unref (Snapshot *s)
{
  g_atomic_rc_box_release_full (s, snapshot_clear);
}

/* ---- the animations ---------------------------------------------------------- */

static void
on_item_active (TressGltfExportDialog *self)
{
  _tress_gltf_export_dialog_update (self);
}

static void
fill_animations (TressGltfExportDialog *self)
{
  g_autoptr (GArray) all
      = self->exporter->list_animations (tress_document_get_model (self->document));

  for (guint i = 0; i < all->len; i++)
    {
      const TressGltfExportAnimation *a = &g_array_index (all, TressGltfExportAnimation, i);
      g_autoptr (TressGltfAnimationItem) item = NULL;
      g_autofree char *kind = NULL;

      if (!a->exportable)
        {
          kind = g_ascii_strdown (a->kind != NULL ? a->kind : "", -1);
          /* Translators: an animation glTF cannot carry and its kind: "Blink (bone visibility)" */
          g_ptr_array_add (self->others, g_strdup_printf (_ ("%s (%s)"), a->name, kind));
          continue;
        }
      item = tress_gltf_animation_item_new (a->index, a->name, a->frame_count);
      g_signal_connect_object (item, "notify::active", G_CALLBACK (on_item_active), self,
                               G_CONNECT_SWAPPED);
      g_list_store_append (self->items, item);
    }
}

static void
set_all_active (TressGltfExportDialog *self, gboolean active)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->items));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (TressGltfAnimationItem) item
          = g_list_model_get_item (G_LIST_MODEL (self->items), i);

      tress_gltf_animation_item_set_active (item, active);
    }
}

static void
on_select_all (TressGltfExportDialog *self)
{
  set_all_active (self, TRUE);
}

static void
on_select_none (TressGltfExportDialog *self)
{
  set_all_active (self, FALSE);
}

/* The row is its check button (with the frames beside the name in it), so
 * that the focus, a click anywhere on the row and Space all reach it. */
static void
setup_animation_row (GtkListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  GtkWidget *check = gtk_check_button_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *name = gtk_label_new (NULL);
  GtkWidget *frames = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (name, TRUE);
  gtk_widget_add_css_class (frames, "dim-label");
  gtk_widget_add_css_class (frames, "numeric");
  gtk_label_set_xalign (GTK_LABEL (frames), 1);
  gtk_box_append (GTK_BOX (box), name);
  gtk_box_append (GTK_BOX (box), frames);
  gtk_check_button_set_child (GTK_CHECK_BUTTON (check), box);
  gtk_list_item_set_activatable (list_item, FALSE);
  gtk_list_item_set_child (list_item, check);
}

static void
bind_animation_row (GtkListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  TressGltfAnimationItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *check = gtk_list_item_get_child (list_item);
  GtkWidget *box = gtk_check_button_get_child (GTK_CHECK_BUTTON (check));
  GtkWidget *name = gtk_widget_get_first_child (box);
  GtkWidget *frames = gtk_widget_get_last_child (box);
  double n = tress_gltf_animation_item_get_frame_count (item);
  g_autofree char *text = NULL;
  GBinding *binding;

  gtk_label_set_text (GTK_LABEL (name), tress_gltf_animation_item_get_name (item));
  gtk_accessible_update_property (GTK_ACCESSIBLE (check), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  tress_gltf_animation_item_get_name (item), -1);
  /* Translators: the length of an animation in the export's list */
  text = g_strdup_printf (ngettext ("%g frame", "%g frames", (gulong)CLAMP (n, 0, G_MAXULONG)), n);
  gtk_label_set_text (GTK_LABEL (frames), text);
  binding = g_object_bind_property (item, "active", check, "active",
                                    G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_set_data (G_OBJECT (list_item), "tress-binding", binding);
}

static void
unbind_animation_row (GtkListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  GBinding *binding = g_object_get_data (G_OBJECT (list_item), "tress-binding");

  if (binding != NULL)
    g_binding_unbind (binding);
  g_object_set_data (G_OBJECT (list_item), "tress-binding", NULL);
}

GArray *
_tress_gltf_export_dialog_chosen (TressGltfExportDialog *self, double *longest)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->items));
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint));

  if (longest != NULL)
    *longest = 0;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (TressGltfAnimationItem) item
          = g_list_model_get_item (G_LIST_MODEL (self->items), i);
      guint index = tress_gltf_animation_item_get_index (item);

      if (!tress_gltf_animation_item_get_active (item))
        continue;
      g_array_append_val (out, index);
      if (longest != NULL)
        *longest = MAX (*longest, tress_gltf_animation_item_get_frame_count (item));
    }
  return out;
}

static void
update_animations_note (TressGltfExportDialog *self, guint n_chosen)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->items));
  g_autoptr (GString) text = g_string_new (NULL);

  if (n == 0)
    g_string_append (text, _ ("This file has no animation glTF can carry: the model alone is "
                              "exported, in its rest pose."));
  else
    /* Translators: how many of the listed animations are checked */
    g_string_append_printf (
        text, ngettext ("%u of %u animation chosen.", "%u of %u animations chosen.", n), n_chosen,
        n);
  if (self->others->len > 0)
    {
      g_autoptr (GString) names = g_string_new (NULL);

      for (guint i = 0; i < self->others->len && i < NOTE_NAMES; i++)
        g_string_append_printf (names, "%s%s", i > 0 ? ", " : "",
                                (const char *)self->others->pdata[i]);
      if (self->others->len > NOTE_NAMES)
        /* Translators: after a list of names, how many more there are */
        g_string_append_printf (names, _ (" and %u more"), self->others->len - NOTE_NAMES);
      g_string_append_c (text, ' ');
      /* Translators: %s lists animations with their kinds: "Blink (bone visibility), Eyes
       * (texture pattern)" */
      g_string_append_printf (text, _ ("Not listed, as glTF has no place for them: %s."),
                              names->str);
    }
  gtk_label_set_text (self->animations_note, text->str);
}

/* ---- the model --------------------------------------------------------------- */

typedef struct
{
  Snapshot *snapshot;
  GFile *chosen;
  gboolean fall_back; /* when @chosen cannot be used, find one */
  TressGltfModel *model;
  char *looked_for;
  char *chosen_error; /* why @chosen could not be used, when fallen back */
} Lookup;

static void
lookup_free (Lookup *l)
{
  _tress_gltf_export_snapshot_unref (l->snapshot);
  g_clear_object (&l->chosen);
  tress_gltf_model_free (l->model);
  g_free (l->looked_for);
  g_free (l->chosen_error);
  g_free (l);
}

static void
lookup_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Lookup *l = task_data;
  const TressGltfExporter *e = l->snapshot->exporter;
  GError *error = NULL;

  l->model = e->find_model (l->snapshot->data, l->chosen, &l->looked_for, &error);
  if (l->model == NULL && error != NULL && l->fall_back)
    {
      l->chosen_error = g_strdup (error->message);
      g_clear_error (&error);
      g_clear_object (&l->chosen);
      g_clear_pointer (&l->looked_for, g_free);
      l->model = e->find_model (l->snapshot->data, NULL, &l->looked_for, &error);
    }
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
on_lookup_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  TressGltfExportDialog *self = TRESS_GLTF_EXPORT_DIALOG (source);
  Lookup *l = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;

  /* A newer lookup (or the dialog's end) cancelled this one. */
  if (self->disposed || g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    return;
  g_clear_object (&self->lookup);
  g_clear_pointer (&self->model, tress_gltf_model_free);
  g_clear_pointer (&self->model_problem, g_free);
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    /* Translators: the model row of the export dialog when the model cannot be read or used */
    self->model_problem = g_strdup_printf (_ ("The model cannot be used: %s"), error->message);
  else if (l->model == NULL)
    /* Translators: %s says what was looked for: "no model or skeleton in A.bfres, no A.bfres…" */
    self->model_problem = g_strdup_printf (_ ("No model found: %s. Choose one with Choose Model…"),
                                           l->looked_for != NULL ? l->looked_for : "");
  else
    self->model = g_steal_pointer (&l->model);
  g_clear_pointer (&self->preview_problem, g_free);
  if (l->chosen_error != NULL)
    {
      /* The preview's model is gone or unreadable: the one found instead
       * is used, and the dialog says so. */
      g_clear_object (&self->model_file);
      self->model_for_preview = FALSE;
      self->preview_problem = g_steal_pointer (&l->chosen_error);
    }
  self->state = TRESS_GLTF_EXPORT_READY;
  _tress_gltf_export_dialog_update (self);
  /* Once there is something to export, Enter exports it. */
  if (!self->focused_export && gtk_widget_get_sensitive (GTK_WIDGET (self->export)))
    gtk_widget_grab_focus (GTK_WIDGET (self->export));
  self->focused_export = TRUE;
}

static void
start_lookup (TressGltfExportDialog *self)
{
  g_autoptr (GTask) task = NULL;
  Lookup *l = g_new0 (Lookup, 1);

  if (self->lookup != NULL)
    g_cancellable_cancel (self->lookup);
  g_clear_object (&self->lookup);
  self->lookup = g_cancellable_new ();
  l->snapshot = _tress_gltf_export_snapshot_ref (self->snapshot);
  l->chosen = self->model_file != NULL ? g_object_ref (self->model_file) : NULL;
  l->fall_back = self->model_for_preview;
  g_clear_pointer (&self->model, tress_gltf_model_free);
  g_clear_pointer (&self->model_problem, g_free);
  self->state = TRESS_GLTF_EXPORT_LOOKING;
  task = g_task_new (self, self->lookup, on_lookup_done, NULL);
  g_task_set_task_data (task, l, (GDestroyNotify)lookup_free);
  g_task_run_in_thread (task, lookup_thread);
  _tress_gltf_export_dialog_update (self);
}

void
tress_gltf_export_dialog_set_model_file (TressGltfExportDialog *self, GFile *file)
{
  g_return_if_fail (TRESS_IS_GLTF_EXPORT_DIALOG (self));
  g_return_if_fail (self->state != TRESS_GLTF_EXPORT_RUNNING);

  g_set_object (&self->model_file, file);
  self->model_for_preview = FALSE;
  start_lookup (self);
}

static char *
describe_model (TressGltfExportDialog *self)
{
  TressGltfModel *m = self->model;
  g_autofree char *joints = NULL, *meshes = NULL, *where = NULL;
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (GString) note = g_string_new (NULL);

  if (self->state == TRESS_GLTF_EXPORT_LOOKING)
    return g_markup_escape_text (_ ("Looking for the model…"), -1);
  if (self->preview_problem != NULL)
    {
      /* Translators: under the model row, when the model chosen for the preview could not be
       * read and another was looked for */
      g_autofree char *line
          = g_strdup_printf (_ ("The model chosen for the preview cannot be used: "
                                "%s"),
                             self->preview_problem);
      g_autofree char *escaped = g_markup_escape_text (line, -1);

      g_string_append_printf (note, "\n<small>%s</small>", escaped);
    }
  if (m == NULL)
    {
      g_autofree char *problem
          = g_markup_escape_text (self->model_problem != NULL ? self->model_problem : "", -1);

      return g_strconcat (problem, note->str, NULL);
    }
  if (self->exporter->own_scene)
    /* Translators: the objects of a scene exported as glTF nodes */
    joints = g_strdup_printf (ngettext ("%u node", "%u nodes", m->n_joints), m->n_joints);
  else
    joints = g_strdup_printf (ngettext ("%u joint", "%u joints", m->n_joints), m->n_joints);
  meshes = g_strdup_printf (ngettext ("%u mesh", "%u meshes", m->n_meshes), m->n_meshes);
  if (self->model_for_preview)
    /* Translators: where the model is: "from Animal_Bass.bfres, as chosen for the preview" */
    where = g_strdup_printf (_ ("from %s, as chosen for the preview"), m->source);
  else if (m->chosen)
    /* Translators: where the model is, when the user chose the file */
    where = g_strdup_printf (_ ("from %s, chosen"), m->source);
  else if (m->own)
    /* Translators: where the model is: "in this file", "in A_Animation.bfres (skeleton only)" */
    where = g_strdup_printf (_ ("in %s"), m->source);
  else
    /* Translators: where the model was found: "from Animal_Bass.bfres, found beside the
     * animations" */
    where = g_strdup_printf (_ ("from %s, found beside the animations"), m->source);
  {
    /* Translators: "Bass (6 joints, 2 meshes) from Animal_Bass.bfres, found …" */
    g_autofree char *line
        = g_markup_printf_escaped (_ ("<b>%s</b> (%s, %s) %s"), m->name, joints, meshes, where);
    g_string_append (text, line);
  }
  if (m->missing != NULL && m->missing->len > 0)
    {
      g_autoptr (GString) names = g_string_new (NULL);
      g_autofree char *line = NULL, *escaped = NULL;

      for (guint i = 0; i < m->missing->len && i < NOTE_NAMES * 2; i++)
        g_string_append_printf (names, "%s%s", i > 0 ? ", " : "",
                                (const char *)m->missing->pdata[i]);
      if (m->missing->len > NOTE_NAMES * 2)
        g_string_append_printf (names, _ (" and %u more"), m->missing->len - NOTE_NAMES * 2);
      line = g_strdup_printf (ngettext ("The animations move %u bone it lacks, left out: %s",
                                        "The animations move %u bones it lacks, left out: %s",
                                        m->missing->len),
                              m->missing->len, names->str);
      escaped = g_markup_escape_text (line, -1);
      g_string_append_printf (text, "\n<small>%s</small>", escaped);
    }
  g_string_append (text, note->str);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
on_model_chooser_response (GtkNativeDialog *chooser, int response, TressGltfExportDialog *self)
{
  if (response == GTK_RESPONSE_ACCEPT && !self->disposed)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (file != NULL)
        tress_gltf_export_dialog_set_model_file (self, file);
    }
  gtk_native_dialog_destroy (chooser);
  g_clear_object (&self->chooser);
}

static void
on_choose_model (TressGltfExportDialog *self)
{
  GtkFileFilter *filter;
  GFile *doc_file = tress_document_get_file (self->document);

  if (self->chooser != NULL)
    return;
  self->chooser
      = gtk_file_chooser_native_new (_ ("Model to Export On"), GTK_WINDOW (self),
                                     GTK_FILE_CHOOSER_ACTION_OPEN, _ ("_Open"), _ ("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _ ("BFRES models (.bfres, .sbfres, .szs)"));
  gtk_file_filter_add_suffix (filter, "bfres");
  gtk_file_filter_add_suffix (filter, "sbfres");
  gtk_file_filter_add_suffix (filter, "szs");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  g_object_unref (filter);
  if (self->model_file != NULL || doc_file != NULL)
    {
      g_autoptr (GFile) folder
          = g_file_get_parent (self->model_file != NULL ? self->model_file : doc_file);

      if (folder != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), folder, NULL);
    }
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_model_chooser_response), self);
  tress_native_dialog_cancel_with_parent (GTK_NATIVE_DIALOG (self->chooser));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* ---- the file ---------------------------------------------------------------- */

/* @name with its extension replaced by the format's (kept when it is one). */
static char *
name_for_format (const char *name, guint format)
{
  const char *want = format == FORMAT_GLTF ? ".gltf" : ".glb";
  g_autofree char *stem = g_strdup (name);
  char *dot = strrchr (stem, '.');

  if (dot != NULL && dot != stem
      && (g_ascii_strcasecmp (dot, ".glb") == 0 || g_ascii_strcasecmp (dot, ".gltf") == 0))
    *dot = '\0';
  return g_strconcat (stem, want, NULL);
}

static GFile *
default_output (TressGltfExportDialog *self)
{
  GFile *doc_file = tress_document_get_file (self->document);
  g_autoptr (GFile) folder = doc_file != NULL ? g_file_get_parent (doc_file) : NULL;
  const char *title = tress_document_get_title (self->document);
  g_autofree char *stem = g_strdup (title != NULL && *title ? title : _ ("Untitled"));
  g_autofree char *name = NULL;
  char *dot = strrchr (stem, '.');

  if (dot != NULL && dot != stem)
    *dot = '\0';
  name = g_strconcat (stem, ".glb", NULL);
  if (folder == NULL)
    {
      const char *documents = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);

      folder = g_file_new_for_path (documents != NULL ? documents : g_get_home_dir ());
    }
  return g_file_get_child (folder, name);
}

static void
set_output (TressGltfExportDialog *self, GFile *file, gboolean confirmed)
{
  g_autofree char *shown = g_file_get_parse_name (file);
  gboolean split = tress_gltf_file_is_split (file);

  g_set_object (&self->output, file);
  if (confirmed)
    g_set_object (&self->confirmed, file);
  else
    g_clear_object (&self->confirmed);
  gtk_label_set_text (self->output_label, shown);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->output_label), shown);
  if (gtk_drop_down_get_selected (self->format) != (split ? FORMAT_GLTF : FORMAT_GLB))
    gtk_drop_down_set_selected (self->format, split ? FORMAT_GLTF : FORMAT_GLB);
}

GFile *
tress_gltf_export_dialog_get_output (TressGltfExportDialog *self)
{
  g_return_val_if_fail (TRESS_IS_GLTF_EXPORT_DIALOG (self), NULL);
  return self->output;
}

void
tress_gltf_export_dialog_set_output (TressGltfExportDialog *self, GFile *file)
{
  g_autofree char *name = NULL;
  g_autoptr (GFile) parent = NULL, named = NULL;

  g_return_if_fail (TRESS_IS_GLTF_EXPORT_DIALOG (self));
  g_return_if_fail (G_IS_FILE (file));

  name = g_file_get_basename (file);
  parent = g_file_get_parent (file);
  if (name != NULL && parent != NULL && !g_str_has_suffix (name, ".glb")
      && !tress_gltf_file_is_split (file))
    {
      /* No glTF extension: the chosen format's is added. */
      g_autofree char *with = g_strconcat (
          name, gtk_drop_down_get_selected (self->format) == FORMAT_GLTF ? ".gltf" : ".glb", NULL);

      named = g_file_get_child (parent, with);
    }
  set_output (self, named != NULL ? named : file, TRUE);
}

static void
on_format_selected (TressGltfExportDialog *self)
{
  guint format = gtk_drop_down_get_selected (self->format);
  g_autofree char *name = NULL, *renamed = NULL;
  g_autoptr (GFile) parent = NULL, file = NULL;

  if (self->output == NULL || tress_gltf_file_is_split (self->output) == (format == FORMAT_GLTF))
    return;
  name = g_file_get_basename (self->output);
  parent = g_file_get_parent (self->output);
  renamed = name_for_format (name, format);
  file = g_file_get_child (parent, renamed);
  /* Another file: replacing it is asked anew. */
  set_output (self, file, FALSE);
}

static void
on_output_chooser_response (GtkNativeDialog *chooser, int response, TressGltfExportDialog *self)
{
  if (response == GTK_RESPONSE_ACCEPT && !self->disposed)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      GtkFileFilter *filter = gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (chooser));

      if (filter != NULL && g_object_get_data (G_OBJECT (filter), "tress-format") != NULL)
        gtk_drop_down_set_selected (
            self->format,
            GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (filter), "tress-format")) - 1);
      if (file != NULL)
        /* The chooser asked before an existing file was chosen. */
        tress_gltf_export_dialog_set_output (self, file);
    }
  gtk_native_dialog_destroy (chooser);
  g_clear_object (&self->chooser);
  _tress_gltf_export_dialog_update (self);
}

static void
add_output_filter (TressGltfExportDialog *self, const char *name, const char *suffix, guint format)
{
  GtkFileChooser *chooser = GTK_FILE_CHOOSER (self->chooser);
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  gtk_file_filter_add_suffix (filter, suffix);
  g_object_set_data (G_OBJECT (filter), "tress-format", GUINT_TO_POINTER (format + 1));
  gtk_file_chooser_add_filter (chooser, filter);
  if (gtk_drop_down_get_selected (self->format) == format)
    gtk_file_chooser_set_filter (chooser, filter);
  g_object_unref (filter);
}

static void
on_choose_output (TressGltfExportDialog *self)
{
  g_autoptr (GFile) folder = NULL;
  g_autofree char *name = NULL;

  if (self->chooser != NULL)
    return;
  self->chooser
      = gtk_file_chooser_native_new (_ ("Export as glTF"), GTK_WINDOW (self),
                                     GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Select"), _ ("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  add_output_filter (self, _ ("Binary glTF (.glb)"), "glb", FORMAT_GLB);
  add_output_filter (self, _ ("glTF with a .bin (.gltf)"), "gltf", FORMAT_GLTF);
  folder = g_file_get_parent (self->output);
  name = g_file_get_basename (self->output);
  if (folder != NULL)
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), folder, NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), name);
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_output_chooser_response), self);
  tress_native_dialog_cancel_with_parent (GTK_NATIVE_DIALOG (self->chooser));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* ---- the state --------------------------------------------------------------- */

static const char *
blocked_reason (TressGltfExportDialog *self, guint n_chosen)
{
  if (self->state == TRESS_GLTF_EXPORT_RUNNING)
    return _ ("The export is running");
  if (self->state == TRESS_GLTF_EXPORT_LOOKING)
    return _ ("Looking for the model…");
  if (self->model == NULL)
    return _ ("No model to export on: choose one with Choose Model…");
  if (g_list_model_get_n_items (G_LIST_MODEL (self->items)) > 0 && n_chosen == 0)
    return _ ("Choose at least one animation");
  if (self->output == NULL)
    return _ ("Choose where to save the file");
  return NULL;
}

void
_tress_gltf_export_dialog_update (TressGltfExportDialog *self)
{
  double longest = 0, fps = gtk_spin_button_get_value (self->fps);
  g_autoptr (GArray) chosen = _tress_gltf_export_dialog_chosen (self, &longest);
  gboolean running = self->state == TRESS_GLTF_EXPORT_RUNNING;
  gboolean looking = self->state == TRESS_GLTF_EXPORT_LOOKING;
  g_autofree char *model = describe_model (self);
  const char *blocked = blocked_reason (self, chosen->len);

  g_free (self->blocked);
  self->blocked = g_strdup (blocked);
  update_animations_note (self, chosen->len);
  if (longest > 0 && fps > 0)
    {
      /* Translators: beside the frame rate, the longest animation chosen: "60 frames last
       * 2.00 s" */
      g_autofree char *text
          = g_strdup_printf (ngettext ("%g frame lasts %.2f s", "%g frames last %.2f s",
                                       (gulong)CLAMP (longest, 0, G_MAXULONG)),
                             longest, longest / fps);

      gtk_label_set_text (self->duration, text);
    }
  else
    gtk_label_set_text (self->duration, "");
  gtk_label_set_markup (self->model_label, model);
  if (self->model == NULL && !looking)
    gtk_widget_add_css_class (GTK_WIDGET (self->model_label), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->model_label), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->model_spinner), looking);
  gtk_spinner_set_spinning (self->model_spinner, looking);
  gtk_widget_set_visible (GTK_WIDGET (self->choose_model), !self->exporter->own_scene);

  gtk_widget_set_sensitive (self->form, !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->export), blocked == NULL);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->export),
                               blocked != NULL ? blocked : _ ("Write the glTF file"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->cancel),
                               running ? _ ("Stop the export; no file is written")
                                       : _ ("Close without exporting"));
  gtk_stack_set_visible_child_name (self->stack,
                                    self->state == TRESS_GLTF_EXPORT_DONE ? "done" : "form");
}

TressGltfExportState
tress_gltf_export_dialog_get_state (TressGltfExportDialog *self)
{
  g_return_val_if_fail (TRESS_IS_GLTF_EXPORT_DIALOG (self), TRESS_GLTF_EXPORT_READY);
  return self->state;
}

const char *
tress_gltf_export_dialog_get_blocked (TressGltfExportDialog *self)
{
  g_return_val_if_fail (TRESS_IS_GLTF_EXPORT_DIALOG (self), NULL);
  return self->blocked;
}

gboolean
tress_gltf_export_dialog_supports (TressDocument *document, char **why)
{
  const TressFormat *format = document != NULL ? tress_document_get_format (document) : NULL;

  if (why != NULL)
    *why = NULL;
  if (format != NULL && tress_gltf_exporter_find (format->id) != NULL)
    return TRUE;
  if (why != NULL && format != NULL && format->display_name != NULL)
    /* Translators: why a document cannot be exported, said in the menu item's place: "Export
     * as glTF… (not for Creature fur files)"; %s is a kind of file */
    *why = g_strdup_printf (_ ("not for %s files"), _ (format->display_name));
  else if (why != NULL)
    *why = g_strdup (_ ("no document"));
  return FALSE;
}

/* ---- the window -------------------------------------------------------------- */

static void
on_cancel_clicked (TressGltfExportDialog *self)
{
  if (!_tress_gltf_export_dialog_stop (self))
    gtk_window_close (GTK_WINDOW (self));
}

static void
on_close_clicked (TressGltfExportDialog *self)
{
  gtk_window_close (GTK_WINDOW (self));
}

static gboolean
tress_gltf_export_dialog_close_request (GtkWindow *window)
{
  TressGltfExportDialog *self = TRESS_GLTF_EXPORT_DIALOG (window);

  /* The window goes once the export has stopped and removed what it began. */
  if (_tress_gltf_export_dialog_stop (self))
    {
      self->close_when_stopped = TRUE;
      return TRUE;
    }
  return GTK_WINDOW_CLASS (tress_gltf_export_dialog_parent_class)->close_request (window);
}

static void
tress_gltf_export_dialog_dispose (GObject *object)
{
  TressGltfExportDialog *self = TRESS_GLTF_EXPORT_DIALOG (object);

  self->disposed = TRUE;
  if (self->lookup != NULL)
    g_cancellable_cancel (self->lookup);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->progress_id, g_source_remove);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  if (self->question != NULL)
    gtk_window_destroy (GTK_WINDOW (self->question));
  /* No gtk_widget_dispose_template(): GtkWindow unparents its child itself. */
  G_OBJECT_CLASS (tress_gltf_export_dialog_parent_class)->dispose (object);
}

static void
tress_gltf_export_dialog_finalize (GObject *object)
{
  TressGltfExportDialog *self = TRESS_GLTF_EXPORT_DIALOG (object);

  g_clear_pointer (&self->snapshot, _tress_gltf_export_snapshot_unref);
  g_clear_object (&self->items);
  g_clear_pointer (&self->others, g_ptr_array_unref);
  g_clear_pointer (&self->model, tress_gltf_model_free);
  g_free (self->model_problem);
  g_free (self->preview_problem);
  g_free (self->blocked);
  g_clear_object (&self->model_file);
  g_clear_object (&self->lookup);
  g_clear_object (&self->output);
  g_clear_object (&self->confirmed);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->export_progress, tress_progress_unref);
  g_clear_object (&self->document);
  G_OBJECT_CLASS (tress_gltf_export_dialog_parent_class)->finalize (object);
}

static void
tress_gltf_export_dialog_class_init (TressGltfExportDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = tress_gltf_export_dialog_dispose;
  object_class->finalize = tress_gltf_export_dialog_finalize;
  window_class->close_request = tress_gltf_export_dialog_close_request;

  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/tress/Tress/tress-gltf-export-dialog.ui");
#define CHILD(name) gtk_widget_class_bind_template_child (widget_class, TressGltfExportDialog, name)
  CHILD (stack);
  CHILD (form);
  CHILD (select_all);
  CHILD (select_none);
  CHILD (animations);
  CHILD (factory);
  CHILD (animations_note);
  CHILD (fps);
  CHILD (duration);
  CHILD (split);
  CHILD (model_spinner);
  CHILD (model_label);
  CHILD (choose_model);
  CHILD (output_label);
  CHILD (choose_output);
  CHILD (format);
  CHILD (message);
  CHILD (progress_box);
  CHILD (progress_label);
  CHILD (progress);
  CHILD (cancel);
  CHILD (export);
  CHILD (done_title);
  CHILD (done_details);
  CHILD (notes_heading);
  CHILD (notes_scroller);
  CHILD (notes);
  CHILD (notes_factory);
  CHILD (close);
  CHILD (done_buttons);
#undef CHILD
  /* Escape closes, as in every dialog (stopping a running export first). */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
tress_gltf_export_dialog_init (TressGltfExportDialog *self)
{
  g_autoptr (GtkNoSelection) selection = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->items = g_list_store_new (TRESS_TYPE_GLTF_ANIMATION_ITEM);
  self->others = g_ptr_array_new_with_free_func (g_free);
  self->state = TRESS_GLTF_EXPORT_READY;

  g_signal_connect (self->factory, "setup", G_CALLBACK (setup_animation_row), NULL);
  g_signal_connect (self->factory, "bind", G_CALLBACK (bind_animation_row), NULL);
  g_signal_connect (self->factory, "unbind", G_CALLBACK (unbind_animation_row), NULL);
  selection = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->items)));
  gtk_list_view_set_model (self->animations, GTK_SELECTION_MODEL (selection));
  _tress_gltf_export_dialog_init_summary (self);

  g_signal_connect_swapped (self->select_all, "clicked", G_CALLBACK (on_select_all), self);
  g_signal_connect_swapped (self->select_none, "clicked", G_CALLBACK (on_select_none), self);
  g_signal_connect_swapped (self->fps, "value-changed",
                            G_CALLBACK (_tress_gltf_export_dialog_update), self);
  g_signal_connect_swapped (self->choose_model, "clicked", G_CALLBACK (on_choose_model), self);
  g_signal_connect_swapped (self->choose_output, "clicked", G_CALLBACK (on_choose_output), self);
  g_signal_connect_swapped (self->format, "notify::selected", G_CALLBACK (on_format_selected),
                            self);
  g_signal_connect_swapped (self->cancel, "clicked", G_CALLBACK (on_cancel_clicked), self);
  g_signal_connect_swapped (self->export, "clicked", G_CALLBACK (_tress_gltf_export_dialog_export),
                            self);
  g_signal_connect_swapped (self->close, "clicked", G_CALLBACK (on_close_clicked), self);
  gtk_window_set_default_widget (GTK_WINDOW (self), GTK_WIDGET (self->export));
}

GtkWidget *
tress_gltf_export_dialog_new (GtkWindow *parent, TressDocument *document)
{
  TressGltfExportDialog *self;
  const char *title;
  g_autofree char *window_title = NULL;
  g_autoptr (GFile) output = NULL, remembered = NULL;

  g_return_val_if_fail (TRESS_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (tress_gltf_export_dialog_supports (document, NULL), NULL);

  self = g_object_new (TRESS_TYPE_GLTF_EXPORT_DIALOG, "transient-for", parent, NULL);
  self->document = g_object_ref (document);
  self->exporter = tress_gltf_exporter_find (tress_document_get_format (document)->id);
  self->snapshot = g_atomic_rc_box_new0 (Snapshot);
  self->snapshot->exporter = self->exporter;
  self->snapshot->data = self->exporter->snapshot (tress_document_get_model (document),
                                                   tress_document_get_file (document));
  title = tress_document_get_title (document);
  /* Translators: the export dialog's title, %s the document's name */
  window_title = g_strdup_printf (_ ("Export “%s” as glTF"), title != NULL ? title : "");
  gtk_window_set_title (GTK_WINDOW (self), window_title);
  fill_animations (self);
  gtk_widget_set_visible (GTK_WIDGET (self->split), self->exporter->split_label != NULL);
  if (self->exporter->split_label != NULL)
    gtk_check_button_set_label (self->split, _ (self->exporter->split_label));
  output = default_output (self);
  set_output (self, output, FALSE);
  /* The model the preview shows, where the user chose one for it. */
  remembered = self->exporter->own_scene ? NULL : tress_scene_pane_lookup_model (document);
  if (remembered != NULL)
    {
      self->model_file = g_steal_pointer (&remembered);
      self->model_for_preview = TRUE;
    }
  start_lookup (self);
  return GTK_WIDGET (self);
}
