/* tress-fur-editor.c: the creature-fur editor
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-fur-editor.h"

#include <glib/gi18n-lib.h>

#include <stdlib.h>
#include <string.h>

#include "tress-editor.h"
#include "tress-fur-edits.h"
#include "tress-fur-jobs.h"
#include "tress-fur-names.h"
#include "tress-fur-panes.h"
#include "tress-fur-texture.h"
#include "tress-fur-tree-cells.h"
#include "tress-native-dialog.h"
#include "tress-scroll-guard.h"

struct _TressFurEditor
{
  GtkWidget parent_instance;
  TressChaDocument *doc;
  TressFurNames *names;

  GtkWidget *root;
  GtkWidget *layout; /* tree_paned: tree | inspector_paned (views | inspector) */
  GtkWidget *tree_paned;
  GtkWidget *inspector_paned;
  GtkWidget *job_bar;
  GtkWidget *problems_bar;
  GtkWidget *problems_label;
  gboolean problems_dismissed;
  GtkWidget *search;
  GtkWidget *scrolled;
  GtkWidget *column_view;
  GtkTreeListModel *tree;
  GtkSortListModel *sorted;
  GtkMultiSelection *selection;
  GtkFilter *filter;
  GtkWidget *notebook;
  GtkWidget *preview_page;
  GtkWidget *preview;
  GtkWidget *uv_map;
  GtkWidget *inspector;
  guint uv_material;
  gconstpointer uv_file; /* the model the UV map shows (a revert replaces it) */
  gboolean syncing;
  gboolean filtering;
  GtkSorter *row_sorter;
  GArray *search_parts; /* guint32: the parts whose names match the search */
  guint scroll_to;
  guint scroll_tick;
  double scroll_upper; /* the list's height when last scrolled, to follow its growth */
  guint scroll_frames;
};

G_DEFINE_FINAL_TYPE (TressFurEditor, tress_fur_editor, GTK_TYPE_WIDGET)

static TressChaFile *
get_file (TressFurEditor *self)
{
  return tress_cha_document_get_cha (self->doc);
}

/* ---- tree ----------------------------------------------------------------- */

/* Whether a ribbon is attached to @part or weighs on it. */
static gboolean
ribbon_on_part (const TressChaMaterial *m, guint ribbon, guint32 part)
{
  guint first, n, i, k;

  if (m->attach[ribbon] == part)
    return TRUE;
  if (!tress_cha_material_ribbon_lines (m, ribbon, &first, &n))
    return FALSE;
  for (i = first; i < first + n; i++)
    for (k = 0; k < 3; k++)
      if (tress_cha_line_get_weight (&m->lines[i], k) > 0
          && tress_cha_material_ref_body_part (m, &m->lines[i], k) == (gint64)part)
        return TRUE;
  return FALSE;
}

static gboolean
filter_match (gpointer item, gpointer user_data)
{
  TressFurEditor *self = user_data;
  TressChaNode *node = item;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search));
  TressChaFile *file = get_file (self);
  const TressChaMaterial *m;
  guint64 value;
  guint material = (guint)tress_cha_node_get_material (node);
  guint ribbon = (guint)tress_cha_node_get_ribbon (node);
  guint i;

  while (g_ascii_isspace (*text))
    text++;
  if (*text == '\0' || tress_cha_node_get_kind (node) != TRESS_CHA_NODE_RIBBON)
    return TRUE;
  /* The keywords work in English and in the user's language. */
  if (g_str_has_prefix (text, "problem")
      || g_str_has_prefix (text, C_ ("search keyword", "problem")) || g_str_equal (text, "!"))
    return tress_cha_document_ribbon_problems (self->doc, material, ribbon) > 0;
  if (*text == '#')
    return g_ascii_string_to_unsigned (text + 1, 10, 0, G_MAXUINT32, &value, NULL)
           && value == ribbon;
  if (g_str_has_prefix (text, "part"))
    text += 4;
  else if (g_str_has_prefix (text, C_ ("search keyword", "part")))
    text += strlen (C_ ("search keyword", "part"));
  while (*text == ':' || *text == ' ')
    text++;
  m = &file->radeon->materials[material];
  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT32, &value, NULL))
    {
      /* A body part by its name. */
      for (i = 0; self->search_parts != NULL && i < self->search_parts->len; i++)
        if (ribbon_on_part (m, ribbon, g_array_index (self->search_parts, guint32, i)))
          return TRUE;
      return FALSE;
    }
  return ribbon_on_part (m, ribbon, (guint32)value);
}

static GListModel *
create_children (gpointer item, gpointer user_data)
{
  TressFurEditor *self = user_data;
  TressChaNode *node = item;
  GListModel *children = tress_cha_document_create_children (self->doc, node);

  if (children != NULL && tress_cha_node_get_kind (node) == TRESS_CHA_NODE_MATERIAL)
    return G_LIST_MODEL (gtk_filter_list_model_new (children, g_object_ref (self->filter)));
  return children;
}

/* Tree selection → document selection. */
static void
on_tree_selection_changed (GtkSelectionModel *model, guint position, guint n_items,
                           TressFurEditor *self)
{
  g_autoptr (GtkBitset) set = NULL;
  g_autoptr (GArray) ids = NULL;
  GtkBitsetIter iter;
  guint pos;

  if (self->syncing)
    return;
  set = gtk_selection_model_get_selection (model);
  ids = g_array_new (FALSE, FALSE, sizeof (TressChaRibbonId));
  for (gboolean ok = gtk_bitset_iter_init_first (&iter, set, &pos); ok;
       ok = gtk_bitset_iter_next (&iter, &pos))
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (model), pos);
      g_autoptr (TressChaNode) node = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;

      if (node != NULL && tress_cha_node_get_ribbon (node) >= 0)
        {
          TressChaRibbonId id = { (guint)tress_cha_node_get_material (node),
                                  (guint)tress_cha_node_get_ribbon (node) };

          g_array_append_val (ids, id);
        }
    }
  self->syncing = TRUE;
  tress_cha_document_set_selection (self->doc, (const TressChaRibbonId *)(gpointer)ids->data,
                                    ids->len, self);
  self->syncing = FALSE;
}

static gboolean
scroll_tick (GtkWidget *list, GdkFrameClock *clock, gpointer data)
{
  TressFurEditor *self = data;

  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (self->scrolled));
  double upper = gtk_adjustment_get_upper (adj), page = gtk_adjustment_get_page_size (adj);

  /* The list view sizes its rows evenly: place the row a third down the view. */
  if (self->scroll_to < n && n > 0)
    gtk_adjustment_set_value (
        adj, CLAMP (upper * self->scroll_to / n - page / 3, 0, MAX (upper - page, 0)));
  /* Rows a material just opened are measured over the next frames: scroll
   * again until the list's height stays (a few frames at most). */
  if (upper != self->scroll_upper && ++self->scroll_frames < 20)
    {
      self->scroll_upper = upper;
      return G_SOURCE_CONTINUE;
    }
  self->scroll_tick = 0;
  return G_SOURCE_REMOVE;
}

/* Document selection → tree: expands the materials holding selected ribbons
 * and selects their rows. */
static void
sync_tree_from_document (TressFurEditor *self)
{
  TressChaFile *file = get_file (self);
  const TressChaRibbonId *ids;
  guint n, i, n_rows, first = G_MAXUINT, section;
  g_autoptr (GtkBitset) set = gtk_bitset_new_empty ();
  g_autoptr (GtkBitset) mask = NULL;
  g_autoptr (GtkTreeListRow) section_row = NULL;
  GListModel *rows = G_LIST_MODEL (self->sorted);
  /* Unsorted and unfiltered, tree positions are list positions: each selected
   * row is found directly instead of by a scan of every row. */
  gboolean direct = gtk_sort_list_model_get_sorter (self->sorted) == NULL && !self->filtering;

  ids = tress_cha_document_get_selection (self->doc, &n);
  self->syncing = TRUE;
  /* Expand the radeon section and the materials involved. */
  for (section = 0; n > 0 && file->radeon != NULL && section < file->n_sections; section++)
    if (file->sections[section].radeon == file->radeon)
      {
        section_row = gtk_tree_list_model_get_child_row (self->tree, section);
        break;
      }
  if (section_row != NULL)
    {
      gtk_tree_list_row_set_expanded (section_row, TRUE);
      for (i = 0; i < n; i++)
        {
          g_autoptr (GtkTreeListRow) material_row = NULL;
          g_autoptr (GtkTreeListRow) ribbon_row = NULL;

          if (i > 0 && ids[i].material == ids[i - 1].material && !direct)
            continue;
          material_row = gtk_tree_list_row_get_child_row (section_row, ids[i].material);
          if (material_row == NULL)
            continue;
          gtk_tree_list_row_set_expanded (material_row, TRUE);
          if (!direct)
            continue;
          ribbon_row = gtk_tree_list_row_get_child_row (material_row, ids[i].ribbon);
          if (ribbon_row != NULL)
            {
              guint pos = gtk_tree_list_row_get_position (ribbon_row);

              gtk_bitset_add (set, pos);
              first = MIN (first, pos);
            }
        }
    }
  n_rows = g_list_model_get_n_items (rows);
  for (i = 0; i < n_rows && n > 0 && !direct; i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (TressChaNode) node = gtk_tree_list_row_get_item (row);

      if (tress_cha_node_get_kind (node) == TRESS_CHA_NODE_RIBBON
          && tress_cha_document_is_selected (self->doc, (guint)tress_cha_node_get_material (node),
                                             (guint)tress_cha_node_get_ribbon (node)))
        {
          gtk_bitset_add (set, i);
          first = MIN (first, i);
        }
    }
  mask = gtk_bitset_new_range (0, n_rows);
  gtk_selection_model_set_selection (GTK_SELECTION_MODEL (self->selection), set, mask);
  self->syncing = FALSE;
  if (first != G_MAXUINT)
    {
      /* Scroll once the new rows are laid out (scrolling in the same cycle as
       * a large change leaves GTK 4.8's list view blank). */
      self->scroll_to = first;
      self->scroll_upper = -1;
      self->scroll_frames = 0;
      if (self->scroll_tick == 0)
        self->scroll_tick
            = gtk_widget_add_tick_callback (self->column_view, scroll_tick, self, NULL);
    }
}

static void update_uv_use (TressFurEditor *self);

static void
on_doc_selection_changed (TressChaDocument *doc, gpointer origin, TressFurEditor *self)
{
  const TressChaRibbonId *ids;
  guint n;

  if (origin != self)
    sync_tree_from_document (self);
  /* The UV map follows the selection's material. */
  ids = tress_cha_document_get_selection (doc, &n);
  if (n > 0 && ids[0].material != self->uv_material)
    {
      TressChaFile *file = get_file (self);
      const TressChaMaterial *m;
      TressUvLayout layout;

      self->uv_material = ids[0].material;
      m = &file->radeon->materials[self->uv_material];
      layout = (TressUvLayout){ m->uv_rows, m->uv_groups, m->uv_pieces };
      tress_uv_map_set_table (TRESS_UV_MAP (self->uv_map), &layout, m->uv, m->n_uv_floats);
    }
  update_uv_use (self);
}

static void
on_search_changed (GtkSearchEntry *entry, TressFurEditor *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  gboolean filtering = text[strspn (text, " \t")] != '\0';
  const char *name = text + strspn (text, " \t");

  if (g_str_has_prefix (name, "part"))
    name += 4;
  else if (g_str_has_prefix (name, C_ ("search keyword", "part")))
    name += strlen (C_ ("search keyword", "part"));
  g_clear_pointer (&self->search_parts, g_array_unref);
  self->search_parts = tress_fur_names_find (self->names, name + strspn (name, " :"));

  /* Without a search the filter matches everything without looking at the
   * rows, so expanding 100,000 ribbons makes none of them. */
  if (filtering || self->filtering)
    gtk_custom_filter_set_filter_func (GTK_CUSTOM_FILTER (self->filter),
                                       filtering ? filter_match : NULL, filtering ? self : NULL,
                                       NULL);
  self->filtering = filtering;
}

/* Sorting only while a column asks for it: an unsorted tree needs no key of
 * every row. */
static void
on_view_sorter_changed (GtkSorter *sorter, GtkSorterChange change, TressFurEditor *self)
{
  gboolean active = gtk_sorter_get_order (sorter) != GTK_SORTER_ORDER_NONE;

  if (active && gtk_sort_list_model_get_sorter (self->sorted) == NULL)
    gtk_sort_list_model_set_sorter (self->sorted, self->row_sorter);
  else if (!active && gtk_sort_list_model_get_sorter (self->sorted) != NULL)
    gtk_sort_list_model_set_sorter (self->sorted, NULL);
}

/* ---- UV map --------------------------------------------------------------- */

static void
load_uv_table (TressFurEditor *self)
{
  TressChaFile *file = get_file (self);
  TressUvLayout layout = { 0, 0, 0 };
  const TressChaMaterial *m;

  self->uv_file = file;

  if (file->radeon == NULL || self->uv_material >= file->radeon->n_materials)
    {
      tress_uv_map_set_table (TRESS_UV_MAP (self->uv_map), &layout, NULL, 0);
      return;
    }
  m = &file->radeon->materials[self->uv_material];
  layout = (TressUvLayout){ m->uv_rows, m->uv_groups, m->uv_pieces };
  tress_uv_map_set_table (TRESS_UV_MAP (self->uv_map), &layout, m->uv, m->n_uv_floats);
  update_uv_use (self);
}

/* Which rows of the UV table the material's ribbons, and the selected ones,
 * use: a ribbon of n sections draws a piece of row n. */
static void
update_uv_use (TressFurEditor *self)
{
  TressChaFile *file = get_file (self);
  const TressChaMaterial *m;
  const TressChaRibbonId *ids;
  g_autofree guint *ribbons = NULL;
  g_autofree guint *selected = NULL;
  guint n, rows;

  if (file->radeon == NULL || self->uv_material >= file->radeon->n_materials)
    {
      tress_uv_map_set_row_use (TRESS_UV_MAP (self->uv_map), NULL, NULL, 0);
      return;
    }
  m = &file->radeon->materials[self->uv_material];
  rows = m->uv_rows;
  ribbons = g_new0 (guint, rows + 1);
  selected = g_new0 (guint, rows + 1);
  for (guint r = 0; r < m->n_ribbons; r++)
    if (m->n_sections[r] >= 1 && m->n_sections[r] <= rows)
      ribbons[m->n_sections[r] - 1]++;
  ids = tress_cha_document_get_selection (self->doc, &n);
  for (guint i = 0; i < n; i++)
    if (ids[i].material == self->uv_material && ids[i].ribbon < m->n_ribbons)
      {
        guint s = m->n_sections[ids[i].ribbon];

        if (s >= 1 && s <= rows)
          selected[s - 1]++;
      }
  tress_uv_map_set_row_use (TRESS_UV_MAP (self->uv_map), ribbons, selected, rows);
}

/* A click on a UV box: the ribbons of the material that use its row (Ctrl
 * or Shift: added to the selection). */
static void
on_uv_piece_activated (TressUvMap *map, guint row, guint group, guint piece, gboolean extend,
                       TressFurEditor *self)
{
  TressChaFile *file = get_file (self);
  const TressChaMaterial *m;
  g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (TressChaRibbonId));

  if (file->radeon == NULL || self->uv_material >= file->radeon->n_materials)
    return;
  m = &file->radeon->materials[self->uv_material];
  if (extend)
    {
      const TressChaRibbonId *sel;
      guint n;

      sel = tress_cha_document_get_selection (self->doc, &n);
      if (n > 0)
        g_array_append_vals (ids, sel, n);
    }
  for (guint r = 0; r < m->n_ribbons; r++)
    if (m->n_sections[r] == row + 1)
      {
        TressChaRibbonId id = { self->uv_material, r };

        g_array_append_val (ids, id);
      }
  tress_cha_document_set_selection (self->doc, (const TressChaRibbonId *)(gpointer)ids->data,
                                    ids->len, NULL);
}

static void
on_uv_point_moved (TressUvMap *map, guint index, double u, double v, TressFurEditor *self)
{
  const float values[2] = { (float)u, (float)v };
  g_autoptr (GError) error = NULL;

  if (!tress_cha_set_uv (get_file (self), tress_document_get_history (TRESS_DOCUMENT (self->doc)),
                         self->uv_material, 2 * index, 2, values, &error))
    g_message ("%s", error->message);
}

static void
on_fur_changed (TressChaDocument *doc, const TressChaChange *change, gboolean undo,
                TressFurEditor *self)
{
  if ((change->flags & TRESS_CHA_CHANGE_MATERIAL)
      && (change->material < 0 || (guint)change->material == self->uv_material))
    load_uv_table (self);
  else if (change->flags & TRESS_CHA_CHANGE_STRUCTURE)
    update_uv_use (self);
}

/* ---- actions -------------------------------------------------------------- */

gboolean
tress_fur_parse_ribbon_list (const char *text, GArray *out)
{
  g_auto (GStrv) parts = g_strsplit (text, ",", -1);
  guint i;

  for (i = 0; parts[i] != NULL; i++)
    {
      g_auto (GStrv) mr = NULL;
      guint64 m, r;
      TressChaRibbonId id;

      g_strstrip (parts[i]);
      if (parts[i][0] == '\0')
        continue;
      mr = g_strsplit (parts[i], ":", 2);
      if (mr[1] == NULL || !g_ascii_string_to_unsigned (mr[0], 10, 0, G_MAXUINT32, &m, NULL)
          || !g_ascii_string_to_unsigned (mr[1], 10, 0, G_MAXUINT32, &r, NULL))
        return FALSE;
      id.material = (guint)m;
      id.ribbon = (guint)r;
      g_array_append_val (out, id);
    }
  return TRUE;
}

static void
action_select_ribbons (GtkWidget *widget, const char *name, GVariant *param)
{
  TressFurEditor *self = TRESS_FUR_EDITOR (widget);
  g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (TressChaRibbonId));

  if (!tress_fur_parse_ribbon_list (g_variant_get_string (param, NULL), ids))
    return;
  tress_cha_document_set_selection (self->doc, (const TressChaRibbonId *)(gpointer)ids->data,
                                    ids->len, NULL);
}

static void
action_set_weights (GtkWidget *widget, const char *name, GVariant *param)
{
  TressFurEditor *self = TRESS_FUR_EDITOR (widget);
  guint8 w[3];
  g_autoptr (GError) error = NULL;

  g_variant_get (param, "(yyy)", &w[0], &w[1], &w[2]);
  if (!tress_fur_set_selection_weights (self->doc, w, &error))
    g_message ("%s", error->message);
}

static void
action_retarget (GtkWidget *widget, const char *name, GVariant *param)
{
  TressFurEditor *self = TRESS_FUR_EDITOR (widget);
  guint32 from, to, scope;
  g_autoptr (GError) error = NULL;

  g_variant_get (param, "(uuu)", &from, &to, &scope);
  if (!tress_fur_retarget (self->doc, MIN (scope, 2), from, to, &error))
    g_message ("%s", error->message);
}

static void
action_retarget_dialog (GtkWidget *widget, const char *name, GVariant *param)
{
  TressFurEditor *self = TRESS_FUR_EDITOR (widget);
  GtkRoot *root = gtk_widget_get_root (widget);

  gtk_window_present (GTK_WINDOW (tress_fur_retarget_dialog_new (
      GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, self->doc, self->names)));
}

static void
action_fix_all (GtkWidget *widget, const char *name, GVariant *param)
{
  TressFurEditor *self = TRESS_FUR_EDITOR (widget);

  tress_fur_inspector_fix_all (tress_fur_editor_get_inspector (self));
}

static void
on_background_chosen (GtkNativeDialog *dialog, int response, TressFurEditor *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      if (file != NULL)
        tress_fur_texture_load (GTK_WIDGET (self), TRESS_UV_MAP (self->uv_map), file);
    }
  g_object_unref (dialog);
  g_object_unref (self);
}

/* A path typed in the UV map's field, Return: that file. */
static void
on_texture_path_activate (GtkEntry *entry, TressFurEditor *self)
{
  g_autoptr (GFile) file
      = tress_fur_texture_resolve (gtk_editable_get_text (GTK_EDITABLE (entry)),
                                   tress_document_get_file (TRESS_DOCUMENT (self->doc)));

  if (file != NULL)
    tress_fur_texture_load (GTK_WIDGET (self), TRESS_UV_MAP (self->uv_map), file);
}

static void
action_load_background (GtkWidget *widget, const char *name, GVariant *param)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkFileChooserNative *chooser = gtk_file_chooser_native_new (
      _ ("Strand texture"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
      GTK_FILE_CHOOSER_ACTION_OPEN, _ ("_Open"), _ ("_Cancel"));
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _ ("DDS and PNG textures"));
  gtk_file_filter_add_pattern (filter, "*.dds");
  gtk_file_filter_add_pattern (filter, "*.DDS");
  gtk_file_filter_add_mime_type (filter, "image/png");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_object_unref (filter);
  g_signal_connect (chooser, "response", G_CALLBACK (on_background_chosen), g_object_ref (widget));
  tress_native_dialog_cancel_with_parent (GTK_NATIVE_DIALOG (chooser));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
action_frame_selection (GtkWidget *widget, const char *name, GVariant *param)
{
  tress_fur_preview_frame_selection (TRESS_FUR_PREVIEW (TRESS_FUR_EDITOR (widget)->preview));
}

static void
action_frame_all (GtkWidget *widget, const char *name, GVariant *param)
{
  tress_fur_preview_frame_all (TRESS_FUR_PREVIEW (TRESS_FUR_EDITOR (widget)->preview));
}

/* ---- problems banner ------------------------------------------------------ */

/* The banner follows the problem count; once hidden by the user it stays
 * hidden until another model (revert, reload) comes. */
static void
update_problems_bar (TressFurEditor *self)
{
  GPtrArray *problems = tress_document_get_problems (TRESS_DOCUMENT (self->doc));
  guint n = tress_problem_list_count (problems, TRESS_SEVERITY_INFO);
  g_autofree char *text = NULL;

  if (n > 0)
    {
      text = g_strdup_printf (ngettext ("%u problem", "%u problems", n), n);
      gtk_label_set_text (GTK_LABEL (self->problems_label), text);
    }
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->problems_bar),
                                 n > 0 && !self->problems_dismissed);
}

static void
on_problems_bar_closed (GtkButton *button, TressFurEditor *self)
{
  self->problems_dismissed = TRUE;
  update_problems_bar (self);
}

static void
action_show_problems (GtkWidget *widget, const char *name, GVariant *param)
{
  TressFurEditor *self = TRESS_FUR_EDITOR (widget);

  tress_fur_inspector_show_problems (TRESS_FUR_INSPECTOR (self->inspector));
}

/* After every change; a new model (revert, reload) gets its UV table shown. */
static void
on_document_changed (TressDocument *doc, TressFurEditor *self)
{
  if (get_file (self) != self->uv_file)
    {
      load_uv_table (self);
      self->problems_dismissed = FALSE;
    }
  update_problems_bar (self);
}

/* ---- GObject -------------------------------------------------------------- */

static void
tress_fur_editor_dispose (GObject *object)
{
  TressFurEditor *self = TRESS_FUR_EDITOR (object);

  if (self->doc != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->doc, self);
      tress_cha_document_set_part_names (self->doc, NULL, NULL);
    }
  /* A job still running drops its plan and calls nobody back. */
  if (self->job_bar != NULL)
    tress_fur_job_bar_detach (TRESS_FUR_JOB_BAR (self->job_bar));
  self->job_bar = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (self), TRESS_TYPE_FUR_EDITOR);
  g_clear_object (&self->selection);
  g_clear_object (&self->filter);
  g_clear_object (&self->row_sorter);
  g_clear_pointer (&self->search_parts, g_array_unref);
  g_clear_object (&self->doc);
  G_OBJECT_CLASS (tress_fur_editor_parent_class)->dispose (object);
}

static void
tress_fur_editor_finalize (GObject *object)
{
  TressFurEditor *self = TRESS_FUR_EDITOR (object);

  g_clear_object (&self->names);
  G_OBJECT_CLASS (tress_fur_editor_parent_class)->finalize (object);
}

static void
tress_fur_editor_class_init (TressFurEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tress_fur_editor_dispose;
  object_class->finalize = tress_fur_editor_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "fureditor");

  gtk_widget_class_install_action (widget_class, "fur.select-ribbons", "s", action_select_ribbons);
  gtk_widget_class_install_action (widget_class, "fur.set-weights", "(yyy)", action_set_weights);
  gtk_widget_class_install_action (widget_class, "fur.retarget", "(uuu)", action_retarget);
  gtk_widget_class_install_action (widget_class, "fur.retarget-dialog", NULL,
                                   action_retarget_dialog);
  gtk_widget_class_install_action (widget_class, "fur.fix-all", NULL, action_fix_all);
  gtk_widget_class_install_action (widget_class, "fur.load-background", NULL,
                                   action_load_background);
  gtk_widget_class_install_action (widget_class, "fur.frame-selection", NULL,
                                   action_frame_selection);
  gtk_widget_class_install_action (widget_class, "fur.frame-all", NULL, action_frame_all);
  gtk_widget_class_install_action (widget_class, "fur.show-problems", NULL, action_show_problems);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "fur.frame-selection", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Home, GDK_CONTROL_MASK,
                                       "fur.frame-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_l, GDK_CONTROL_MASK,
                                       "fur.load-background", NULL);

  g_type_ensure (TRESS_TYPE_UV_MAP);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tress/Tress/tress-fur-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, TressFurEditor, root);
  gtk_widget_class_bind_template_child (widget_class, TressFurEditor, layout);
  gtk_widget_class_bind_template_child (widget_class, TressFurEditor, tree_paned);
  gtk_widget_class_bind_template_child (widget_class, TressFurEditor, problems_bar);
  gtk_widget_class_bind_template_child (widget_class, TressFurEditor, problems_label);
  gtk_widget_class_bind_template_callback (widget_class, on_problems_bar_closed);
  gtk_widget_class_bind_template_child (widget_class, TressFurEditor, search);
  gtk_widget_class_bind_template_child (widget_class, TressFurEditor, scrolled);
  gtk_widget_class_bind_template_child (widget_class, TressFurEditor, column_view);
  gtk_widget_class_bind_template_child (widget_class, TressFurEditor, notebook);
  gtk_widget_class_bind_template_child (widget_class, TressFurEditor, preview_page);
  gtk_widget_class_bind_template_child (widget_class, TressFurEditor, uv_map);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_uv_point_moved);
  gtk_widget_class_bind_template_callback (widget_class, on_texture_path_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_uv_piece_activated);
}

static void
tress_fur_editor_init (TressFurEditor *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* Its own banner shows the problems, with a Fix beside each in the list. */
  tress_editor_set_shows_problems (GTK_WIDGET (self));
  /* The wheel over the inspector's fields scrolls the inspector. */
  tress_scroll_guard_install (GTK_WIDGET (self));
}

static const char *
part_name (guint32 part, gpointer names)
{
  return tress_fur_names_get (names, part);
}

/* A body part was named: every view that shows it follows. */
static void
on_names_changed (TressFurNames *names, guint part, TressFurEditor *self)
{
  tress_cha_document_part_names_changed (self->doc);
  tress_fur_inspector_names_changed (TRESS_FUR_INSPECTOR (self->inspector));
}

static char *
names_key (TressDocument *doc)
{
  GFile *file = tress_document_get_file (doc);

  return file != NULL ? g_file_get_uri (file) : g_strdup (tress_document_get_title (doc));
}

GtkWidget *
tress_fur_editor_new (TressDocument *doc)
{
  TressFurEditor *self;
  GtkSorter *view_sorter;
  g_autofree char *key = NULL;

  if (!TRESS_IS_CHA_DOCUMENT (doc))
    return gtk_label_new (_ ("This creature-fur document was opened without the fur editor."));

  self = g_object_new (TRESS_TYPE_FUR_EDITOR, NULL);
  self->doc = g_object_ref (TRESS_CHA_DOCUMENT (doc));
  key = names_key (doc);
  self->names = tress_fur_names_new (key);
  tress_cha_document_set_part_names (self->doc, part_name, self->names);
  g_signal_connect_object (self->names, "changed", G_CALLBACK (on_names_changed), self, 0);

  /* Tree: the document's materials and ribbons, sorted by the clicked column. */
  self->filter = GTK_FILTER (gtk_custom_filter_new (NULL, NULL, NULL));
  self->tree = gtk_tree_list_model_new (g_object_ref (tress_cha_document_get_root (self->doc)),
                                        FALSE, FALSE, create_children, self, NULL);
  tress_fur_tree_add_column (GTK_COLUMN_VIEW (self->column_view), _ ("Ribbon"),
                             TRESS_CHA_COLUMN_NAME, TRUE);
  tress_fur_tree_add_column (GTK_COLUMN_VIEW (self->column_view), _ ("Sections"),
                             TRESS_CHA_COLUMN_SECTIONS, FALSE);
  tress_fur_tree_add_column (GTK_COLUMN_VIEW (self->column_view), _ ("Attached"),
                             TRESS_CHA_COLUMN_ATTACH, FALSE);
  tress_fur_tree_add_column (GTK_COLUMN_VIEW (self->column_view), _ ("Body part:weight ×3"),
                             TRESS_CHA_COLUMN_REFS, FALSE);
  tress_fur_tree_add_column (GTK_COLUMN_VIEW (self->column_view), _ ("Quality"),
                             TRESS_CHA_COLUMN_QUALITY, FALSE);
  tress_fur_tree_add_column (GTK_COLUMN_VIEW (self->column_view), _ ("Length"),
                             TRESS_CHA_COLUMN_LENGTH, FALSE);
  tress_fur_tree_add_column (GTK_COLUMN_VIEW (self->column_view), _ ("Problems"),
                             TRESS_CHA_COLUMN_PROBLEMS, FALSE);
  view_sorter = gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->column_view));
  self->row_sorter = GTK_SORTER (gtk_tree_list_row_sorter_new (g_object_ref (view_sorter)));
  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (self->tree), NULL);
  g_signal_connect_object (view_sorter, "changed", G_CALLBACK (on_view_sorter_changed), self, 0);
  self->selection = gtk_multi_selection_new (G_LIST_MODEL (self->sorted));
  gtk_column_view_set_model (GTK_COLUMN_VIEW (self->column_view),
                             GTK_SELECTION_MODEL (self->selection));
  g_signal_connect (self->selection, "selection-changed", G_CALLBACK (on_tree_selection_changed),
                    self);

  self->preview = tress_fur_preview_new (self->doc);
  tress_fur_preview_set_names (TRESS_FUR_PREVIEW (self->preview), self->names);
  gtk_widget_set_hexpand (self->preview, TRUE);
  gtk_widget_set_vexpand (self->preview, TRUE);
  gtk_box_append (GTK_BOX (self->preview_page), self->preview);
  load_uv_table (self);
  self->inspector = tress_fur_inspector_new (self->doc, self->names);
  gtk_widget_set_size_request (self->inspector, 240, -1);
  /* tree | (views | inspector), both dividers kept: the inspector's is
   * inside the tree's, so the tree keeps its width whatever the inspector's. */
  g_object_ref (self->notebook);
  gtk_paned_set_end_child (GTK_PANED (self->tree_paned), NULL);
  self->inspector_paned = tress_fur_panes_inspector_new (self->inspector, self->notebook);
  g_object_unref (self->notebook);
  gtk_paned_set_end_child (GTK_PANED (self->tree_paned), self->inspector_paned);
  tress_fur_panes_init (GTK_PANED (self->tree_paned));
  /* Over the panes' foot: a whole-file edit's progress and Cancel (over
   * them, so that showing it resizes nothing: a resized preview draws its
   * whole mesh again). */
  {
    GtkWidget *overlay = gtk_overlay_new ();

    gtk_widget_set_vexpand (overlay, TRUE);
    g_object_ref (self->layout);
    gtk_box_remove (GTK_BOX (self->root), self->layout);
    gtk_overlay_set_child (GTK_OVERLAY (overlay), self->layout);
    g_object_unref (self->layout);
    gtk_box_insert_child_after (GTK_BOX (self->root), overlay, self->problems_bar);
    self->job_bar = tress_fur_job_bar_new (self->doc, self->layout);
    gtk_overlay_add_overlay (GTK_OVERLAY (overlay),
                             tress_fur_job_bar_get_shield (TRESS_FUR_JOB_BAR (self->job_bar)));
    gtk_widget_set_valign (self->job_bar, GTK_ALIGN_END);
    gtk_overlay_add_overlay (GTK_OVERLAY (overlay), self->job_bar);
  }

  g_signal_connect (self->doc, "selection-changed", G_CALLBACK (on_doc_selection_changed), self);
  g_signal_connect (self->doc, "fur-changed", G_CALLBACK (on_fur_changed), self);
  g_signal_connect (self->doc, "changed", G_CALLBACK (on_document_changed), self);
  update_problems_bar (self);
  return GTK_WIDGET (self);
}

void
tress_fur_editor_register (void)
{
  tress_cha_document_register ();
  tress_editor_register ("cha", tress_fur_editor_new);
}

TressChaDocument *
tress_fur_editor_get_document (TressFurEditor *self)
{
  return self->doc;
}

GtkColumnView *
tress_fur_editor_get_column_view (TressFurEditor *self)
{
  return GTK_COLUMN_VIEW (self->column_view);
}

GtkSelectionModel *
tress_fur_editor_get_tree_selection (TressFurEditor *self)
{
  return GTK_SELECTION_MODEL (self->selection);
}

GtkEditable *
tress_fur_editor_get_search (TressFurEditor *self)
{
  return GTK_EDITABLE (self->search);
}

TressFurInspector *
tress_fur_editor_get_inspector (TressFurEditor *self)
{
  return TRESS_FUR_INSPECTOR (self->inspector);
}

TressFurPreview *
tress_fur_editor_get_preview (TressFurEditor *self)
{
  return TRESS_FUR_PREVIEW (self->preview);
}

const char *
tress_fur_editor_get_problems_banner (TressFurEditor *self)
{
  return gtk_revealer_get_reveal_child (GTK_REVEALER (self->problems_bar))
             ? gtk_label_get_text (GTK_LABEL (self->problems_label))
             : NULL;
}

TressFurNames *
tress_fur_editor_get_names (TressFurEditor *self)
{
  return self->names;
}

TressUvMap *
tress_fur_editor_get_uv_map (TressFurEditor *self)
{
  return TRESS_UV_MAP (self->uv_map);
}

void
tress_fur_editor_show_page (TressFurEditor *self, guint page)
{
  gtk_notebook_set_current_page (GTK_NOTEBOOK (self->notebook), (int)page);
}
