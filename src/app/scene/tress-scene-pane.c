/* tress-scene-pane.c: the animation preview beside a curve editor's graph
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-scene-pane.h"

#include <glib/gi18n-lib.h>

#include "formats/bfres/tress-bfres-scene.h"
#include "formats/niff/tress-niff-animator.h"
#include "tress-scene-gizmo.h"

#define SETTINGS_KEY "preview-models"

struct _TressScenePane
{
  GtkWidget parent_instance;

  TressCurveDocument *document;
  TressCurveView *view;
  GtkSelectionModel *tree_selection;
  GtkWidget *tree_view; /* the tree's list, to scroll to what a click selected */
  GSettings *settings;

  TressScenePreview *preview;
  TressSceneGizmo *gizmo;
  GtkWidget *model_button;
  GtkFileChooserNative *chooser;

  TressSceneAnimator *animator;
  gboolean loaded;     /* a load was tried */
  gboolean shown_once; /* mapped before */
  GFile *chosen;       /* the model file the user picked, or NULL (found) */
  GArray *anims;       /* guint: the animations posed */
  guint n_poses;
  char *tree_note; /* why a click selected nothing, or NULL */
  /* Changes gathered until the next frame: an edit of thousands of curves
   * asks for one update, not one per curve. */
  guint dirty;
  guint tick;
};

enum
{
  DIRTY_POSE = 1 << 0,
  DIRTY_SHOWN = 1 << 1,
};

G_DEFINE_FINAL_TYPE (TressScenePane, tress_scene_pane, GTK_TYPE_WIDGET)

/* ---- formats -------------------------------------------------------------- */

static GHashTable *loaders;    /* format id → TressScenePaneLoadFunc */
static GHashTable *own_scenes; /* format ids whose files hold their own scene */

void
tress_scene_pane_register_format_full (const char *format_id, TressScenePaneLoadFunc load,
                                       TressScenePaneFormatFlags flags)
{
  if (loaders == NULL)
    {
      loaders = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      own_scenes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
    }
  g_hash_table_insert (loaders, g_strdup (format_id), (gpointer)load);
  if (flags & TRESS_SCENE_PANE_OWN_SCENE)
    g_hash_table_add (own_scenes, g_strdup (format_id));
  else
    g_hash_table_remove (own_scenes, format_id);
}

void
tress_scene_pane_register_format (const char *format_id, TressScenePaneLoadFunc load)
{
  tress_scene_pane_register_format_full (format_id, load, 0);
}

static TressSceneAnimator *
load_bfres (TressDocument *document, GFile *model_file, GError **error)
{
  TressBfres *anims = tress_document_get_model (document);
  g_autoptr (GBytes) fres = NULL;
  g_autofree char *source = NULL;

  if (model_file == NULL)
    fres = tress_bfres_find_model (anims, tress_document_get_file (document), &source, error);
  else
    {
      g_autoptr (GBytes) bytes = g_file_load_bytes (model_file, NULL, NULL, error);

      source = g_file_get_basename (model_file);
      fres = bytes != NULL ? tress_bfres_unwrap (bytes, NULL, error) : NULL;
    }
  if (fres == NULL)
    return NULL;
  return tress_bfres_animator_new (anims, fres, source, error);
}

/* A NIFF file carries the scene its animation moves. */
static TressSceneAnimator *
load_niff (TressDocument *document, GFile *model_file, GError **error)
{
  GFile *file = tress_document_get_file (document);
  g_autofree char *source = file != NULL ? g_file_get_basename (file) : NULL;

  return tress_niff_animator_new (tress_document_get_model (document),
                                  source != NULL ? source : _ ("this file"), error);
}

static TressScenePaneLoadFunc
loader_for (TressDocument *document)
{
  const TressFormat *format = tress_document_get_format (document);

  if (loaders == NULL)
    {
      tress_scene_pane_register_format ("bfres", load_bfres);
      tress_scene_pane_register_format_full ("niff", load_niff, TRESS_SCENE_PANE_OWN_SCENE);
    }
  return format != NULL ? g_hash_table_lookup (loaders, format->id) : NULL;
}

static gboolean
own_scene (TressDocument *document)
{
  const TressFormat *format = tress_document_get_format (document);

  return loader_for (document) != NULL && format != NULL
         && g_hash_table_contains (own_scenes, format->id);
}

gboolean
tress_scene_pane_supports (TressDocument *document)
{
  return loader_for (document) != NULL;
}

/* ---- posing --------------------------------------------------------------- */

static double
sample_curve (gpointer data, guint curve, double frame)
{
  TressScenePane *self = data;
  const TressCurve *c = tress_curve_view_get_shown_curve (self->view, curve);

  /* The graph's copy while it is being dragged, else the document's. */
  if (c == NULL)
    c = tress_curve_document_get_curve (self->document, curve);
  return c != NULL ? tress_curve_evaluate (c, frame) : 0;
}

static void
update_note (TressScenePane *self)
{
  TressSceneAnimator *a = self->animator;
  g_autoptr (GString) s = g_string_new (NULL);

  if (a != NULL)
    {
      g_string_append_printf (s, _ ("%s from %s"), a->scene->name, a->source);
      for (guint i = 0; i < self->anims->len; i++)
        {
          const char *note = a->anim_notes[g_array_index (self->anims, guint, i)];

          if (note != NULL)
            g_string_append_printf (s, " · %s", note);
        }
    }
  if (self->tree_note != NULL)
    g_string_append_printf (s, "%s%s", s->len ? " · " : "", self->tree_note);
  tress_scene_preview_set_note (self->preview, s->str);
}

static void
pose (TressScenePane *self)
{
  self->dirty &= ~DIRTY_POSE;
  if (self->animator == NULL)
    return;
  tress_scene_animator_pose (self->animator, (const guint *)self->anims->data, self->anims->len,
                             tress_curve_view_get_playhead (self->view), sample_curve, self);
  self->n_poses++;
  tress_scene_preview_pose_changed (self->preview);
}

static gboolean
has_anim (GArray *anims, guint a)
{
  for (guint i = 0; i < anims->len; i++)
    if (g_array_index (anims, guint, i) == a)
      return TRUE;
  return FALSE;
}

/* The animations of the curves in the graph (and animations of the same
 * name: a skeletal animation's visibility companions), and their nodes
 * highlighted. */
static void
update_shown (TressScenePane *self)
{
  TressSceneAnimator *a = self->animator;
  guint n = tress_curve_view_get_n_curves (self->view);
  g_autoptr (GArray) anims = NULL;
  g_autoptr (GArray) nodes = NULL;
  g_autofree guint8 *seen = NULL;

  self->dirty &= ~DIRTY_SHOWN;
  if (a == NULL)
    return;
  anims = g_array_new (FALSE, FALSE, sizeof (guint));
  nodes = g_array_new (FALSE, FALSE, sizeof (guint));
  seen = g_new0 (guint8, tress_scene_get_n_nodes (a->scene) + 1);
  for (guint i = 0; i < n; i++)
    {
      guint curve = tress_curve_view_get_curve_index (self->view, i);
      int anim, node;

      if (curve >= a->n_curves)
        continue;
      anim = a->curve_anim[curve];
      node = a->curve_node[curve];
      if (anim >= 0 && !has_anim (anims, (guint)anim))
        g_array_append_val (anims, anim);
      if (node >= 0 && !seen[node])
        {
          guint u = (guint)node;

          seen[node] = 1;
          g_array_append_val (nodes, u);
        }
    }
  for (guint i = 0, n_chosen = anims->len; i < n_chosen; i++)
    for (guint k = 0; k < a->n_anims; k++)
      if (!has_anim (anims, k)
          && g_strcmp0 (a->anim_names[k], a->anim_names[g_array_index (anims, guint, i)]) == 0)
        g_array_append_val (anims, k);
  /* Curves of nothing this model shows keep the animation posed before. */
  if (anims->len > 0)
    {
      g_array_set_size (self->anims, 0);
      g_array_append_vals (self->anims, anims->data, anims->len);
    }
  tress_scene_preview_set_highlight (self->preview, (const guint *)nodes->data, nodes->len);
  /* One bone's curves shown: the bone a pose gizmo turns. */
  if (nodes->len == 1 && self->gizmo != NULL)
    tress_scene_gizmo_set_bone (self->gizmo, (int)g_array_index (nodes, guint, 0));
  g_clear_pointer (&self->tree_note, g_free);
  update_note (self);
  pose (self);
}

/* ---- loading -------------------------------------------------------------- */

static GFile *
lookup_model (GSettings *settings, TressDocument *document)
{
  GFile *doc_file = tress_document_get_file (document);
  g_autofree char *uri = NULL, *model = NULL;
  g_autoptr (GVariant) map = NULL;

  if (settings == NULL || doc_file == NULL)
    return NULL;
  uri = g_file_get_uri (doc_file);
  map = g_settings_get_value (settings, SETTINGS_KEY);
  if (!g_variant_lookup (map, uri, "s", &model))
    return NULL;
  return g_file_new_for_uri (model);
}

static GFile *
remembered_model (TressScenePane *self)
{
  return lookup_model (self->settings, TRESS_DOCUMENT (self->document));
}

static GSettings *settings_if_installed (void);

GFile *
tress_scene_pane_lookup_model (TressDocument *document)
{
  g_autoptr (GSettings) settings = settings_if_installed ();

  g_return_val_if_fail (TRESS_IS_DOCUMENT (document), NULL);
  if (own_scene (document))
    return NULL;
  return lookup_model (settings, document);
}

static void
remember_model (TressScenePane *self, GFile *model)
{
  GFile *doc_file = tress_document_get_file (TRESS_DOCUMENT (self->document));
  g_autofree char *uri = NULL, *model_uri = NULL;
  g_autoptr (GVariant) old = NULL;
  GVariantBuilder b;
  GVariantIter iter;
  const char *key, *value;

  if (self->settings == NULL || doc_file == NULL)
    return;
  uri = g_file_get_uri (doc_file);
  model_uri = model != NULL ? g_file_get_uri (model) : NULL;
  old = g_settings_get_value (self->settings, SETTINGS_KEY);
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{ss}"));
  g_variant_iter_init (&iter, old);
  while (g_variant_iter_next (&iter, "{&s&s}", &key, &value))
    if (strcmp (key, uri) != 0)
      g_variant_builder_add (&b, "{ss}", key, value);
  if (model_uri != NULL)
    g_variant_builder_add (&b, "{ss}", uri, model_uri);
  g_settings_set_value (self->settings, SETTINGS_KEY, g_variant_builder_end (&b));
}

static void select_curves (TressScenePane *self, GArray *curves, gboolean extend);

/* The curves tree nests the bones (objects) as the scene does; when that
 * changes the tree, the curves the graph showed are selected again. */
static void
nest_tree (TressScenePane *self)
{
  TressSceneAnimator *a = self->animator;
  TressCurveSkeleton *skeleton = NULL;
  g_autoptr (GArray) shown = g_array_new (FALSE, FALSE, sizeof (guint));

  if (a != NULL)
    {
      guint n = tress_scene_get_n_nodes (a->scene);
      g_autofree const char **names = g_new0 (const char *, n + 1);
      g_autofree int *parents = g_new (int, MAX (n, 1));

      for (guint i = 0; i < n; i++)
        {
          names[i] = tress_scene_get_node (a->scene, i)->name;
          parents[i] = tress_scene_get_node (a->scene, i)->parent;
        }
      skeleton = tress_curve_skeleton_new (n, names, parents, a->n_curves, a->curve_node);
    }
  for (guint i = 0; i < tress_curve_view_get_n_curves (self->view); i++)
    {
      guint c = tress_curve_view_get_curve_index (self->view, i);
      g_array_append_val (shown, c);
    }
  if (tress_curve_document_set_skeleton (self->document, skeleton) && shown->len > 0
      && self->tree_selection != NULL)
    select_curves (self, shown, FALSE);
}

/* @keep_view: the same model made again (after an edit): the camera stays. */
static void
set_animator (TressScenePane *self, TressSceneAnimator *animator, gboolean keep_view)
{
  TressSceneAnimator *old = self->animator;

  keep_view = keep_view && old != NULL && animator != NULL
              && g_strcmp0 (old->scene->name, animator->scene->name) == 0
              && tress_scene_get_n_nodes (old->scene) == tress_scene_get_n_nodes (animator->scene);
  tress_scene_preview_replace_scene (self->preview, NULL);
  g_clear_pointer (&self->animator, tress_scene_animator_free);
  g_array_set_size (self->anims, 0);
  self->animator = animator;
  nest_tree (self);
  if (animator == NULL)
    return;
  if (keep_view)
    tress_scene_preview_replace_scene (self->preview, animator->scene);
  else
    tress_scene_preview_set_scene (self->preview, animator->scene);
  update_shown (self);
  if (!keep_view)
    tress_scene_preview_frame_all (self->preview);
}

static void
load (TressScenePane *self, GFile *file, gboolean keep_view)
{
  TressScenePaneLoadFunc loader = loader_for (TRESS_DOCUMENT (self->document));
  g_autoptr (GError) error = NULL;
  TressSceneAnimator *animator;
  gboolean own;

  self->loaded = TRUE;
  if (loader == NULL)
    return;
  own = own_scene (TRESS_DOCUMENT (self->document));
  gtk_widget_set_visible (self->model_button, !own);
  animator = loader (TRESS_DOCUMENT (self->document), own ? NULL : file, &error);
  set_animator (self, animator, keep_view);
  if (animator != NULL)
    tress_scene_preview_set_message (self->preview, NULL);
  else if (error != NULL)
    {
      g_autofree char *text
          = own ? g_strdup_printf (_ ("The scene cannot be shown: %s"), error->message)
                : g_strdup_printf (_ ("The model cannot be shown: %s"), error->message);

      tress_scene_preview_set_message (self->preview, text);
    }
  else if (own)
    tress_scene_preview_set_message (self->preview, _ ("This file has no scene to show."));
  else
    tress_scene_preview_set_message (
        self->preview, _ ("No model found for these animations. Choose one with “Model…”."));
  update_note (self);
}

void
tress_scene_pane_load (TressScenePane *self, GFile *file)
{
  g_set_object (&self->chosen, file);
  remember_model (self, file);
  load (self, file, FALSE);
}

static void
on_chooser_response (GtkNativeDialog *dialog, int response, TressScenePane *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      if (file != NULL)
        tress_scene_pane_load (self, file);
    }
  g_clear_object (&self->chooser);
}

static void
on_model_clicked (GtkButton *button, TressScenePane *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileFilter *filter = gtk_file_filter_new ();

  if (self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new (_ ("Model for the Preview"),
                                               GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                               GTK_FILE_CHOOSER_ACTION_OPEN, _ ("_Open"), NULL);
  gtk_file_filter_set_name (filter, _ ("BFRES models (.bfres, .sbfres, .szs)"));
  gtk_file_filter_add_suffix (filter, "bfres");
  gtk_file_filter_add_suffix (filter, "sbfres");
  gtk_file_filter_add_suffix (filter, "szs");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  g_object_unref (filter);
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* ---- the curves tree ------------------------------------------------------ */

/* Positions of the nodes from a root down to the group holding a target
 * curve, for each target (a depth-first walk of the document's tree). */
static void
find_groups (GListModel *level, GArray *path, GHashTable *targets, GPtrArray *found)
{
  guint n = g_list_model_get_n_items (level);

  for (guint i = 0; i < n && g_hash_table_size (targets) > 0; i++)
    {
      g_autoptr (TressCurveNode) node = g_list_model_get_item (level, i);
      int curve = tress_curve_node_get_curve_index (node);
      GListModel *children;

      if (curve >= 0)
        {
          if (g_hash_table_remove (targets, GINT_TO_POINTER (curve)) && path->len > 0)
            {
              gboolean dup = FALSE;

              for (guint k = 0; k < found->len && !dup; k++)
                {
                  GArray *other = g_ptr_array_index (found, k);

                  dup = other->len == path->len
                        && memcmp (other->data, path->data, path->len * sizeof (guint)) == 0;
                }
              if (!dup)
                g_ptr_array_add (found, g_array_copy (path));
            }
          continue;
        }
      children = tress_curve_node_get_children (node);
      if (children == NULL)
        continue;
      g_array_append_val (path, i);
      find_groups (children, path, targets, found);
      g_array_set_size (path, path->len - 1);
    }
}

static GtkTreeListModel *
tree_model_of (GtkSelectionModel *selection, GtkFilterListModel **filter)
{
  GListModel *m = GTK_IS_MULTI_SELECTION (selection)
                      ? gtk_multi_selection_get_model (GTK_MULTI_SELECTION (selection))
                      : NULL;

  *filter = GTK_IS_FILTER_LIST_MODEL (m) ? GTK_FILTER_LIST_MODEL (m) : NULL;
  if (*filter != NULL)
    m = gtk_filter_list_model_get_model (*filter);
  return GTK_IS_TREE_LIST_MODEL (m) ? GTK_TREE_LIST_MODEL (m) : NULL;
}

/* The list inside the tree's column view (GTK 4.8 has no scroll_to of its own). */
static GtkWidget *
find_list_view (GtkWidget *widget)
{
  if (GTK_IS_LIST_VIEW (widget))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_list_view (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
scroll_tree_to (TressScenePane *self, guint pos)
{
  GtkWidget *list = self->tree_view != NULL ? find_list_view (self->tree_view) : NULL;

  if (list != NULL)
    gtk_widget_activate_action (list, "list.scroll-to-item", "u", pos);
}

static void
select_curves (TressScenePane *self, GArray *curves, gboolean extend)
{
  GtkFilterListModel *filter = NULL;
  GtkTreeListModel *tree = tree_model_of (self->tree_selection, &filter);
  g_autoptr (GHashTable) targets = g_hash_table_new (NULL, NULL);
  g_autoptr (GPtrArray) found = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  g_autoptr (GArray) path = g_array_new (FALSE, FALSE, sizeof (guint));
  gboolean first = !extend;

  if (tree == NULL)
    return;
  for (guint i = 0; i < curves->len; i++)
    g_hash_table_add (targets, GINT_TO_POINTER (g_array_index (curves, guint, i)));
  find_groups (tress_curve_document_get_roots (self->document), path, targets, found);
  for (guint g = 0; g < found->len; g++)
    {
      GArray *chain = g_ptr_array_index (found, g);
      g_autoptr (GtkTreeListRow) row
          = gtk_tree_list_model_get_child_row (tree, g_array_index (chain, guint, 0));
      g_autoptr (TressCurveNode) want = NULL;
      GListModel *rows = filter != NULL ? G_LIST_MODEL (filter) : G_LIST_MODEL (tree);
      guint n;

      for (guint d = 1; row != NULL && d < chain->len; d++)
        {
          GtkTreeListRow *child;

          gtk_tree_list_row_set_expanded (row, TRUE);
          child = gtk_tree_list_row_get_child_row (row, g_array_index (chain, guint, d));
          g_object_unref (row);
          row = child;
        }
      if (row == NULL)
        continue;
      want = gtk_tree_list_row_get_item (row);
      /* Its place among the rows the tree shows: the filter may hide rows
       * before it, never move it down. */
      n = g_list_model_get_n_items (rows);
      for (guint pos = MIN (gtk_tree_list_row_get_position (row) + 1, n); pos-- > 0;)
        {
          g_autoptr (GtkTreeListRow) r = g_list_model_get_item (rows, pos);
          g_autoptr (TressCurveNode) item = r != NULL ? gtk_tree_list_row_get_item (r) : NULL;

          if (item == want)
            {
              gtk_selection_model_select_item (self->tree_selection, pos, first);
              if (first)
                scroll_tree_to (self, pos);
              first = FALSE;
              break;
            }
        }
    }
}

void
tress_scene_pane_select_node (TressScenePane *self, guint node)
{
  g_autoptr (GArray) curves = g_array_new (FALSE, FALSE, sizeof (guint));
  TressSceneAnimator *a = self->animator;

  if (a == NULL || node >= tress_scene_get_n_nodes (a->scene))
    return;
  /* The node's curves in the animations posed, else in any. */
  for (guint i = 0; i < self->anims->len; i++)
    tress_scene_animator_node_curves (a, (int)g_array_index (self->anims, guint, i), node, curves);
  if (curves->len == 0)
    tress_scene_animator_node_curves (a, -1, node, curves);
  g_clear_pointer (&self->tree_note, g_free);
  if (curves->len == 0)
    {
      self->tree_note = g_strdup_printf (_ ("%s has no curves here"),
                                         tress_scene_get_node (a->scene, node)->name);
      update_note (self);
      return;
    }
  if (self->tree_selection != NULL)
    select_curves (self, curves, FALSE);
}

static void
on_node_clicked (TressScenePreview *preview, int node, GdkModifierType mods, TressScenePane *self)
{
  g_autoptr (GArray) curves = NULL;

  if (node < 0 || self->animator == NULL)
    return;
  tress_scene_gizmo_set_bone (self->gizmo, node);
  if (!(mods & (GDK_CONTROL_MASK | GDK_SHIFT_MASK)))
    {
      tress_scene_pane_select_node (self, (guint)node);
      return;
    }
  /* Ctrl or Shift: add the node's curves to the selection. */
  curves = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < self->anims->len; i++)
    tress_scene_animator_node_curves (self->animator, (int)g_array_index (self->anims, guint, i),
                                      (guint)node, curves);
  if (curves->len > 0 && self->tree_selection != NULL)
    select_curves (self, curves, TRUE);
}

/* ---- signals -------------------------------------------------------------- */

static gboolean
on_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  TressScenePane *self = data;

  self->tick = 0;
  if (self->dirty & DIRTY_SHOWN)
    update_shown (self);
  if (self->dirty & DIRTY_POSE)
    pose (self);
  return G_SOURCE_REMOVE;
}

/* In the next frame's update phase, before it is drawn (and, while the pane
 * is not shown, once it is). */
static void
queue_update (TressScenePane *self, guint what)
{
  self->dirty |= what;
  if (self->tick == 0)
    self->tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), on_tick, self, NULL);
}

static void
on_playhead (TressCurveView *view, GParamSpec *pspec, TressScenePane *self)
{
  /* Scrubbing and playback: one pose per change, at once. */
  pose (self);
}

static void
on_shown_curves (TressCurveView *view, TressScenePane *self)
{
  queue_update (self, DIRTY_SHOWN);
}

static void
on_drag_update (TressCurveView *view, TressScenePane *self)
{
  pose (self);
}

static void
on_curve_changed (TressCurveDocument *document, guint index, TressScenePane *self)
{
  queue_update (self, DIRTY_POSE);
}

static void
on_curves_reset (TressCurveDocument *document, TressScenePane *self)
{
  /* A new model (revert, reload): curve numbers may have changed. */
  if (self->loaded)
    {
      g_autoptr (GArray) kept = g_array_copy (self->anims);
      guint n_before = self->animator != NULL ? self->animator->n_anims : 0;

      load (self, self->chosen, TRUE);
      /* The same animations posed (the graph is empty until a selection). */
      if (self->animator != NULL && self->animator->n_anims == n_before && kept->len > 0)
        {
          g_array_set_size (self->anims, 0);
          g_array_append_vals (self->anims, kept->data, kept->len);
          pose (self);
        }
      tress_scene_gizmo_scene_reloaded (self->gizmo);
    }
}

static void
on_map (GtkWidget *widget, TressScenePane *self)
{
  /* Models load when the preview is first shown, unless asked before:
   * then the curves shown since pose it now (a tick asked for before the
   * pane was realized does not come). */
  if (self->loaded && !self->shown_once)
    {
      if (self->tick != 0)
        gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick);
      self->tick = 0;
      update_shown (self);
    }
  self->shown_once = TRUE;
  tress_scene_pane_load_first (self);
}

/* ---- GObject -------------------------------------------------------------- */

static void
tress_scene_pane_dispose (GObject *object)
{
  TressScenePane *self = TRESS_SCENE_PANE (object);

  if (self->view != NULL)
    g_signal_handlers_disconnect_by_data (self->view, self);
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_pointer (&self->gizmo, tress_scene_gizmo_free);
  if (self->tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick);
  self->tick = 0;
  if (self->preview != NULL)
    {
      tress_scene_preview_set_scene (self->preview, NULL);
      gtk_widget_unparent (GTK_WIDGET (self->preview));
      self->preview = NULL;
    }
  g_clear_pointer (&self->animator, tress_scene_animator_free);
  g_clear_object (&self->view);
  g_clear_object (&self->document);
  g_clear_object (&self->tree_selection);
  g_clear_object (&self->tree_view);
  g_clear_object (&self->settings);
  g_clear_object (&self->chosen);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  G_OBJECT_CLASS (tress_scene_pane_parent_class)->dispose (object);
}

static void
tress_scene_pane_finalize (GObject *object)
{
  TressScenePane *self = TRESS_SCENE_PANE (object);

  g_array_unref (self->anims);
  g_free (self->tree_note);
  G_OBJECT_CLASS (tress_scene_pane_parent_class)->finalize (object);
}

static void
tress_scene_pane_class_init (TressScenePaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tress_scene_pane_dispose;
  object_class->finalize = tress_scene_pane_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "scenepane");
}

static GSettings *
settings_if_installed (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema
      = source != NULL ? g_settings_schema_source_lookup (source, TRESS_APP_ID, TRUE) : NULL;

  if (schema == NULL || !g_settings_schema_has_key (schema, SETTINGS_KEY))
    return NULL;
  return g_settings_new_full (schema, NULL, NULL);
}

static void
tress_scene_pane_init (TressScenePane *self)
{
  self->anims = g_array_new (FALSE, FALSE, sizeof (guint));
  self->preview = TRESS_SCENE_PREVIEW (tress_scene_preview_new ());
  gtk_widget_set_parent (GTK_WIDGET (self->preview), GTK_WIDGET (self));
  self->model_button = gtk_button_new_with_mnemonic (_ ("_Model…"));
  gtk_widget_set_tooltip_text (self->model_button, _ ("Choose the model the animations play on"));
  tress_scene_preview_add_tool (self->preview, self->model_button);
  g_signal_connect (self->model_button, "clicked", G_CALLBACK (on_model_clicked), self);
  g_signal_connect (self->preview, "node-clicked", G_CALLBACK (on_node_clicked), self);
  g_signal_connect (self, "map", G_CALLBACK (on_map), self);
  self->settings = settings_if_installed ();
}

GtkWidget *
tress_scene_pane_new (TressCurveDocument *document, TressCurveView *view,
                      GtkSelectionModel *tree_selection)
{
  TressScenePane *self = g_object_new (TRESS_TYPE_SCENE_PANE, NULL);

  self->document = g_object_ref (document);
  self->view = g_object_ref (view);
  self->tree_selection = tree_selection != NULL ? g_object_ref (tree_selection) : NULL;
  g_signal_connect (view, "notify::playhead", G_CALLBACK (on_playhead), self);
  g_signal_connect (view, "curves-changed", G_CALLBACK (on_shown_curves), self);
  g_signal_connect (view, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (document, "curve-changed", G_CALLBACK (on_curve_changed), self);
  g_signal_connect (document, "curves-reset", G_CALLBACK (on_curves_reset), self);
  self->gizmo = tress_scene_gizmo_new (self, document, view);
  return GTK_WIDGET (self);
}

void
tress_scene_pane_load_first (TressScenePane *self)
{
  g_autoptr (GFile) remembered = NULL;

  g_return_if_fail (TRESS_IS_SCENE_PANE (self));
  if (self->loaded)
    return;
  remembered = remembered_model (self);
  g_set_object (&self->chosen, remembered);
  load (self, remembered, FALSE);
}

void
tress_scene_pane_set_tree_selection (TressScenePane *self, GtkSelectionModel *tree_selection)
{
  g_return_if_fail (TRESS_IS_SCENE_PANE (self));
  g_set_object (&self->tree_selection, tree_selection);
}

void
tress_scene_pane_set_tree_view (TressScenePane *self, GtkWidget *tree_view)
{
  g_set_object (&self->tree_view, tree_view);
}

TressScenePreview *
tress_scene_pane_get_preview (TressScenePane *self)
{
  return self->preview;
}

TressSceneAnimator *
tress_scene_pane_get_animator (TressScenePane *self)
{
  return self->animator;
}

int
tress_scene_pane_get_animation (TressScenePane *self)
{
  return self->anims->len > 0 ? (int)g_array_index (self->anims, guint, 0) : -1;
}

guint
tress_scene_pane_get_n_poses (TressScenePane *self)
{
  return self->n_poses;
}

void
tress_scene_pane_pose_now (TressScenePane *self)
{
  pose (self);
}

TressSceneGizmo *
tress_scene_pane_get_gizmo (TressScenePane *self)
{
  return self->gizmo;
}
