/* tress-curve-editor.c: the curve editor of BFRES and NIFF documents
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-editor.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "app/scene/tress-scene-pane.h"
#include "tress-editor.h"
#include "tress-native-dialog.h"
#include "tress-scroll-guard.h"

/* ------------------------------------------------------------ key rows -- */

struct _TressCurveKeyRow
{
  GObject parent_instance;
  TressCurveView *view; /* weak: the editor owns both the rows and the view */
  guint curve;
  guint key;
};

G_DEFINE_FINAL_TYPE (TressCurveKeyRow, tress_curve_key_row, G_TYPE_OBJECT)

static void
tress_curve_key_row_class_init (TressCurveKeyRowClass *klass)
{
}

static void
tress_curve_key_row_init (TressCurveKeyRow *self)
{
}

guint
tress_curve_key_row_get_key (TressCurveKeyRow *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_KEY_ROW (self), 0);
  return self->key;
}

static const TressKey *
row_key (TressCurveKeyRow *self)
{
  const TressCurve *c;

  if (self->view == NULL)
    return NULL;
  c = tress_curve_view_get_shown_curve (self->view, self->curve);
  if (c == NULL || self->key >= tress_curve_get_n_keys (c))
    return NULL;
  return tress_curve_get_key (c, self->key);
}

static char *
format_double (double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (buf, sizeof buf, "%.6g", v);
  return g_strdup (buf);
}

char *
tress_curve_key_row_dup_text (TressCurveKeyRow *self, const char *column)
{
  const TressKey *k;

  g_return_val_if_fail (TRESS_IS_CURVE_KEY_ROW (self), NULL);
  k = row_key (self);
  if (k == NULL)
    return g_strdup ("");
  if (g_str_equal (column, "frame"))
    return format_double (k->frame);
  /* Values and slopes in the units the graph shows (degrees for angles). */
  if (g_str_equal (column, "value"))
    return format_double (k->value * tress_curve_view_get_display_scale (self->view, self->curve));
  if (g_str_equal (column, "in"))
    return format_double (k->in_slope
                          * tress_curve_view_get_display_scale (self->view, self->curve));
  if (g_str_equal (column, "out"))
    return format_double (k->out_slope
                          * tress_curve_view_get_display_scale (self->view, self->curve));
  if (g_str_equal (column, "interpolation"))
    return g_strdup (tress_interp_to_string (k->interp));
  return g_strdup ("");
}

/* -------------------------------------------------------------- editor -- */

struct _TressCurveEditor
{
  GtkWidget parent_instance;

  TressCurveDocument *document;
  TressCurveView *view;

  /* "Compare with…": the other file's name while its curves are ghosts. */
  char *compare_name;
  GCancellable *compare_cancel;

  GtkWidget *paned;
  GtkPaned *keys_paned;
  GtkPaned *preview_paned;
  GtkWidget *key_pane;
  GtkToggleButton *keys_toggle;
  GtkWidget *status;
  GtkLabel *summary_label;
  GSettings *settings;                  /* NULL when the schema is not installed */
  GtkColumnViewColumn *tree_columns[5]; /* after the names: see tree_columns[] */
  gboolean keys_height_set;             /* the kept height applied once the pane is allocated */
  int keys_height;                      /* the keys pane's height, as kept */
  GtkSearchEntry *filter_entry;
  GtkColumnView *tree_view;
  GtkTreeListModel *tree_model;
  GtkCustomFilter *filter;
  GtkFilterListModel *filtered;
  GtkMultiSelection *tree_selection;
  int tree_anchor; /* the row Shift+click extends from, or -1 */
  char *filter_text;
  GArray *filter_hits; /* gboolean per curve: matches filter_text (NULL: no filter) */

  GtkLabel *message_label;
  GtkWidget *message_box;
  GtkWidget *lengthen_button;
  GtkWidget *widen_frames_button;
  GtkLabel *warning_label;
  GtkLabel *notes_label; /* the formats' remarks on the shown curves */
  GtkWidget *notes_box;
  GtkWidget *notes_details;
  GtkStringList *notes_items;
  GtkWidget *warning_box;
  GtkWidget *warning_details;
  GtkStringList *warning_items; /* filled when its popover opens */
  gboolean warning_items_valid;
  GtkWidget *widen_button;
  GtkWidget *nudge_spin; /* sets the nudge step; the status line shows it */
  char *nudge_text;
  char *warning;
  char *notes;
  TressCurveChannelList *channel_list;
  gboolean table_follows_channels; /* the key table shows the selected channel */
  gboolean had_active;             /* the view's active key, when last seen */
  guint last_active_curve, last_active_key;

  /* Updates of the panels, coalesced: an edit of thousands of curves emits a
   * change per curve, the panels follow once. */
  guint refresh_id;
  guint refresh_tick;
  guint dirty; /* Dirty flags */

  GtkToggleButton *play_button;
  GtkSpinButton *frame_spin;
  GtkSpinButton *fps_spin;
  GtkLabel *table_title;
  GtkWidget *curve_interp_box;
  GtkDropDown *curve_interp;
  GtkColumnViewColumn *interp_column;
  GtkScale *timeline_scale;
  GtkAdjustment *timeline_adj;
  GtkLabel *timeline_label;
  char *timeline_text;

  GtkColumnView *key_view;
  GListStore *key_rows;
  GtkSingleSelection *key_selection;
  int table_curve;
  const TressCurve *table_source; /* the version of its curve the rows were made for */
  double table_scale;             /* and the scale its values were shown in */

  GtkLabel *panel_title;
  GtkSpinButton *panel_spin[4]; /* frame, value, in, out */
  GtkDropDown *panel_interp;
  GtkLabel *panel_stored; /* the value the file stores for the key, and its step */
  GtkButton *panel_widen; /* finer steps for the key's curve, with their cost */
  char *panel_text;
  char *stored_text; /* the active key's stored value and step, also in the status line */

  gboolean syncing;
};

G_DEFINE_FINAL_TYPE (TressCurveEditor, tress_curve_editor, GTK_TYPE_WIDGET)

typedef enum
{
  DIRTY_CURVES = 1 << 0, /* the shown curves or their keys */
} Dirty;

/* The most curves the timeline names with their values at the playhead. */
#define TIMELINE_MAX_CURVES 8

static void flush_refresh (TressCurveEditor *self);
static void update_summary (TressCurveEditor *self);

static const char *const interp_names[] = { "step", "linear", "hermite", "baked", NULL };

/* A drop-down of the interpolations, in interp_names' order, as people read them. */
static GtkWidget *
interp_drop_down_new (void)
{
  GtkStringList *list = gtk_string_list_new (NULL);

  for (guint i = 0; interp_names[i] != NULL; i++)
    gtk_string_list_append (list, tress_interp_to_label ((TressInterp)i));
  return gtk_drop_down_new (G_LIST_MODEL (list), NULL);
}

/* Actions of the view, offered to the toolbar and menus under the same names. */
static const struct
{
  const char *name;
  const char *type;
} forwarded_actions[] = {
  { "select-all", NULL },
  { "select-none", NULL },
  { "previous-key", NULL },
  { "next-key", NULL },
  { "nudge", "(ii)" },
  { "scale", "(ddb)" },
  { "insert-key", "d" },
  { "insert-at-playhead", NULL },
  { "delete", NULL },
  { "duplicate", NULL },
  { "copy", NULL },
  { "paste", "b" },
  { "set-interpolation", "s" },
  { "set-tangent", "s" },
  { "frame-all", NULL },
  { "frame-selected", NULL },
  { "zoom", "(dd)" },
  { "bake", NULL },
  { "fit", "d" },
  { "goto-frame", "d" },
  { "play", NULL },
  { "pause", NULL },
  { "toggle-play", NULL },
  { "set-play-start", NULL },
  { "set-play-end", NULL },
  { "clear-play-range", NULL },
};

/* The drag mode as a radio action ("none", "frame", "value"): the menu marks
 * the one in use, whichever way it was set (Shift+X, Shift+Y, Shift+Z). */
static const char *const axis_lock_names[] = { "none", "frame", "value" };

static void
on_axis_lock_changed (TressCurveView *view, GParamSpec *pspec, GSimpleAction *action)
{
  int lock = 0;

  g_object_get (view, "axis-lock", &lock, NULL);
  if (lock >= 0 && lock < (int)G_N_ELEMENTS (axis_lock_names))
    g_simple_action_set_state (action, g_variant_new_string (axis_lock_names[lock]));
}

static void
on_forward (GSimpleAction *action, GVariant *parameter, TressCurveEditor *self)
{
  g_autofree char *name = g_strconcat ("curve.", g_action_get_name (G_ACTION (action)), NULL);

  gtk_widget_activate_action_variant (GTK_WIDGET (self->view), name, parameter);
}

static void
install_forwarding (TressCurveEditor *self)
{
  GSimpleActionGroup *group = g_simple_action_group_new ();
  static const char *const props[] = { "normalized", "snap", "loop", "degrees", "playing" };

  for (guint i = 0; i < G_N_ELEMENTS (forwarded_actions); i++)
    {
      const GVariantType *type
          = forwarded_actions[i].type ? G_VARIANT_TYPE (forwarded_actions[i].type) : NULL;
      GSimpleAction *a = g_simple_action_new (forwarded_actions[i].name, type);

      g_signal_connect (a, "activate", G_CALLBACK (on_forward), self);
      g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (a));
      g_object_unref (a);
    }
  {
    GSimpleAction *a = g_simple_action_new_stateful ("axis-lock", G_VARIANT_TYPE_STRING,
                                                     g_variant_new_string ("none"));

    g_signal_connect (a, "activate", G_CALLBACK (on_forward), self);
    g_signal_connect_object (self->view, "notify::axis-lock", G_CALLBACK (on_axis_lock_changed), a,
                             0);
    g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (a));
    g_object_unref (a);
  }
  for (guint i = 0; i < G_N_ELEMENTS (props); i++)
    {
      GPropertyAction *a = g_property_action_new (props[i], self->view, props[i]);
      g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (a));
      g_object_unref (a);
    }
  gtk_widget_insert_action_group (GTK_WIDGET (self), "curve", G_ACTION_GROUP (group));
  g_object_unref (group);
}

/* A curve's name for the timeline: its last path level, with the
 * level above when the last one is only a component ("RotateX X"). */
static char *
short_name (const TressCurve *c)
{
  g_auto (GStrv) parts = NULL;
  guint n;

  if (c->path == NULL || c->path[0] == '\0')
    return g_strdup (_ ("curve"));
  parts = g_strsplit (c->path, "/", -1);
  n = g_strv_length (parts);
  if (n >= 2 && strlen (parts[n - 1]) <= 2)
    return g_strdup_printf ("%s %s", parts[n - 2], parts[n - 1]);
  return g_strdup (parts[n - 1]);
}

/* ------------------------------------------------------------ the tree -- */

static GListModel *
create_children (gpointer item, gpointer user_data)
{
  GListModel *children = tress_curve_node_get_children (TRESS_CURVE_NODE (item));

  return children != NULL ? g_object_ref (children) : NULL;
}

/* Which curves the filter's text is found in (path or animation kind, case
 * folded): worked out once per text, so the rows only look the answers up. */
static void
update_filter_hits (TressCurveEditor *self)
{
  guint n = tress_curve_document_get_n_curves (self->document);

  g_clear_pointer (&self->filter_hits, g_array_unref);
  if (self->filter_text == NULL)
    return;
  self->filter_hits = g_array_sized_new (FALSE, TRUE, sizeof (gboolean), n);
  g_array_set_size (self->filter_hits, n);
  for (guint i = 0; i < n; i++)
    {
      const TressCurve *c = tress_curve_document_get_curve (self->document, i);
      g_autofree char *path = NULL, *kind = NULL;

      if (c == NULL)
        continue;
      path = g_utf8_casefold (c->path ? c->path : "", -1);
      kind = c->kind != NULL ? g_utf8_casefold (c->kind, -1) : NULL;
      g_array_index (self->filter_hits, gboolean, i)
          = strstr (path, self->filter_text) != NULL
            || (kind != NULL && strstr (kind, self->filter_text) != NULL);
    }
}

static gboolean
curve_matches (TressCurveEditor *self, guint index)
{
  return self->filter_hits == NULL
         || (index < self->filter_hits->len && g_array_index (self->filter_hits, gboolean, index));
}

static gboolean
node_matches (TressCurveEditor *self, TressCurveNode *node)
{
  g_autoptr (GArray) idx = NULL;

  if (self->filter_hits == NULL)
    return TRUE;
  idx = g_array_new (FALSE, FALSE, sizeof (guint));
  tress_curve_node_collect_curves (node, idx);
  for (guint i = 0; i < idx->len; i++)
    if (curve_matches (self, g_array_index (idx, guint, i)))
      return TRUE;
  return FALSE;
}

static gboolean
filter_row (gpointer item, gpointer user_data)
{
  TressCurveEditor *self = user_data;
  GtkTreeListRow *row = item;
  g_autoptr (TressCurveNode) node = gtk_tree_list_row_get_item (row);

  return node_matches (self, node);
}

static void
show_selected_curves (TressCurveEditor *self)
{
  g_autoptr (GtkBitset) set
      = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->tree_selection));
  g_autoptr (GArray) idx = g_array_new (FALSE, FALSE, sizeof (guint));
  GtkBitsetIter iter;
  guint pos;

  for (gboolean ok = gtk_bitset_iter_init_first (&iter, set, &pos); ok;
       ok = gtk_bitset_iter_next (&iter, &pos))
    {
      g_autoptr (GtkTreeListRow) row
          = g_list_model_get_item (G_LIST_MODEL (self->tree_selection), pos);
      g_autoptr (TressCurveNode) node = row ? gtk_tree_list_row_get_item (row) : NULL;

      /* A bone's row its own curves; while filtered, the matches below it. */
      if (node != NULL && self->filter_hits != NULL)
        tress_curve_node_collect_curves (node, idx);
      else if (node != NULL)
        tress_curve_node_collect_own_curves (node, idx);
    }
  /* A group selected while the tree is filtered stands for its curves that match. */
  if (self->filter_hits != NULL)
    {
      guint n = 0;

      for (guint i = 0; i < idx->len; i++)
        if (curve_matches (self, g_array_index (idx, guint, i)))
          g_array_index (idx, guint, n++) = g_array_index (idx, guint, i);
      g_array_set_size (idx, n);
    }
  tress_curve_view_set_curves (self->view, (guint *)idx->data, idx->len);
}

static void
on_tree_selection_changed (GtkSelectionModel *model, guint position, guint n_items,
                           TressCurveEditor *self)
{
  show_selected_curves (self);
}

static void
on_filter_changed (GtkSearchEntry *entry, TressCurveEditor *self)
{
  tress_curve_editor_set_filter (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
tree_setup_name (GtkSignalListItemFactory *f, GtkListItem *item, gpointer data)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *label = gtk_label_new (NULL);

  /* A long name is cut at its end, down to 8 characters, before the Keys
   * column beside it leaves a narrow sidebar; the tooltip has it whole. */
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (GTK_LABEL (label), 8);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
  gtk_list_item_set_child (item, expander);
}

static void
tree_bind_name (GtkSignalListItemFactory *f, GtkListItem *item, gpointer data)
{
  GtkTreeListRow *row = gtk_list_item_get_item (item);
  GtkWidget *expander = gtk_list_item_get_child (item);
  g_autoptr (TressCurveNode) node = gtk_tree_list_row_get_item (row);
  GtkWidget *label = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander));

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), row);
  gtk_label_set_text (GTK_LABEL (label), tress_curve_node_get_name (node));
  gtk_widget_set_tooltip_text (label, tress_curve_node_get_name (node));
  g_object_set_data (G_OBJECT (expander), "tress-item", item);
}

static void
tree_setup_text (GtkSignalListItemFactory *f, GtkListItem *item, gpointer data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_list_item_set_child (item, label);
}

static void
update_text_cell (TressCurveNode *node, GParamSpec *pspec, GtkLabel *label)
{
  const char *column = g_object_get_data (G_OBJECT (label), "tress-column");
  g_autofree char *text = tress_curve_node_dup_column (node, column);

  gtk_label_set_text (label, text);
}

static void
tree_bind_text (GtkSignalListItemFactory *f, GtkListItem *item, gpointer column)
{
  GtkTreeListRow *row = gtk_list_item_get_item (item);
  GtkWidget *label = gtk_list_item_get_child (item);
  g_autoptr (TressCurveNode) node = gtk_tree_list_row_get_item (row);
  gulong id;

  g_object_set_data (G_OBJECT (label), "tress-column", column);
  g_object_set_data (G_OBJECT (label), "tress-item", item);
  update_text_cell (node, NULL, GTK_LABEL (label));
  id = g_signal_connect_object (node, "notify::revision", G_CALLBACK (update_text_cell), label, 0);
  g_object_set_data (G_OBJECT (label), "tress-handler", GSIZE_TO_POINTER (id));
  g_object_set_data_full (G_OBJECT (label), "tress-node", g_object_ref (node), g_object_unref);
}

static void
tree_unbind_text (GtkSignalListItemFactory *f, GtkListItem *item, gpointer column)
{
  GtkWidget *label = gtk_list_item_get_child (item);
  TressCurveNode *node = g_object_get_data (G_OBJECT (label), "tress-node");
  gulong id = GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (label), "tress-handler"));

  if (node != NULL && id != 0)
    g_signal_handler_disconnect (node, id);
  g_object_set_data (G_OBJECT (label), "tress-handler", NULL);
  g_object_set_data (G_OBJECT (label), "tress-node", NULL);
}

static GtkColumnViewColumn *
add_tree_column (GtkColumnView *cv, const char *title, const char *column)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *col;

  if (column == NULL)
    {
      g_signal_connect (factory, "setup", G_CALLBACK (tree_setup_name), NULL);
      g_signal_connect (factory, "bind", G_CALLBACK (tree_bind_name), NULL);
    }
  else
    {
      g_signal_connect (factory, "setup", G_CALLBACK (tree_setup_text), NULL);
      g_signal_connect (factory, "bind", G_CALLBACK (tree_bind_text), (gpointer)column);
      g_signal_connect (factory, "unbind", G_CALLBACK (tree_unbind_text), (gpointer)column);
    }
  col = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_resizable (col, TRUE);
  if (column == NULL)
    gtk_column_view_column_set_expand (col, TRUE);
  gtk_column_view_append_column (cv, col);
  g_object_unref (col);
  return col;
}

/* The tree's columns after the names; which are shown is kept in GSettings
 * and chosen from the menu of any column header (a right-click there). */
static const struct
{
  const char *id, *title;
} tree_columns[] = { { "keys", N_ ("Keys") },
                     { "interpolation", N_ ("Interpolation") },
                     { "range", N_ ("Frames") },
                     { "types", N_ ("Types") },
                     { "error", N_ ("Error") } };

static void
save_tree_columns (TressCurveEditor *self)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) shown = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (tree_columns); i++)
    if (gtk_column_view_column_get_visible (self->tree_columns[i]))
      g_strv_builder_add (builder, tree_columns[i].id);
  shown = g_strv_builder_end (builder);
  if (self->settings != NULL)
    g_settings_set_strv (self->settings, "curve-tree-columns", (const char *const *)shown);
}

static void
setup_tree_columns (TressCurveEditor *self)
{
  g_autoptr (GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autoptr (GMenu) menu = g_menu_new ();
  g_auto (GStrv) shown = self->settings != NULL
                             ? g_settings_get_strv (self->settings, "curve-tree-columns")
                             : g_strdupv ((char *[]){ "keys", NULL });
  GtkColumnViewColumn *names = add_tree_column (self->tree_view, _ ("Curve"), NULL);

  for (guint i = 0; i < G_N_ELEMENTS (tree_columns); i++)
    {
      GtkColumnViewColumn *col
          = add_tree_column (self->tree_view, _ (tree_columns[i].title), tree_columns[i].id);
      g_autofree char *name = g_strconcat ("column-", tree_columns[i].id, NULL);
      g_autofree char *action = g_strconcat ("tree.", name, NULL);
      g_autoptr (GPropertyAction) toggle = g_property_action_new (name, col, "visible");

      self->tree_columns[i] = col;
      gtk_column_view_column_set_visible (
          col, g_strv_contains ((const char *const *)shown, tree_columns[i].id));
      g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (toggle));
      g_menu_append (menu, _ (tree_columns[i].title), action);
      gtk_column_view_column_set_header_menu (col, G_MENU_MODEL (menu));
      g_signal_connect_swapped (col, "notify::visible", G_CALLBACK (save_tree_columns), self);
    }
  gtk_column_view_column_set_header_menu (names, G_MENU_MODEL (menu));
  gtk_widget_insert_action_group (GTK_WIDGET (self), "tree", G_ACTION_GROUP (group));
}

/* Clicks on the curves tree select rows here, once: GTK 4.8's column view
 * handles a click in both the row and the cell, so Ctrl+click toggled a row
 * twice (no change) and Shift+click extended from wherever that left the
 * anchor. Click: the row alone; Ctrl: toggle it; Shift: the range from the
 * anchor (Ctrl+Shift adds the range). The expanders' arrows keep their own. */
static void
on_tree_pressed (GtkGestureClick *gesture, int n_press, double x, double y, TressCurveEditor *self)
{
  GtkWidget *tree = GTK_WIDGET (self->tree_view);
  GtkWidget *w = gtk_widget_pick (tree, x, y, GTK_PICK_DEFAULT);
  GdkModifierType mods
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  GtkListItem *item = NULL;
  guint pos;

  if (w != NULL && g_strcmp0 (gtk_widget_get_css_name (w), "expander") == 0)
    return;
  for (GtkWidget *p = w; p != NULL && p != tree && item == NULL; p = gtk_widget_get_parent (p))
    item = g_object_get_data (G_OBJECT (p), "tress-item");
  /* A click beside a cell's content picks the cell (or the row) itself: its
   * content is below it. */
  for (GtkWidget *c = w; c != NULL && c != tree && item == NULL; c = gtk_widget_get_first_child (c))
    item = g_object_get_data (G_OBJECT (c), "tress-item");
  if (item == NULL || (pos = gtk_list_item_get_position (item)) == GTK_INVALID_LIST_POSITION)
    return;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  gtk_widget_grab_focus (tree);
  tress_curve_editor_click_row (self, pos, (mods & GDK_CONTROL_MASK) != 0,
                                (mods & GDK_SHIFT_MASK) != 0);
}

void
tress_curve_editor_click_row (TressCurveEditor *self, guint position, gboolean ctrl, gboolean shift)
{
  GtkSelectionModel *sel;

  g_return_if_fail (TRESS_IS_CURVE_EDITOR (self));
  sel = GTK_SELECTION_MODEL (self->tree_selection);
  if (position >= g_list_model_get_n_items (G_LIST_MODEL (sel)))
    return;
  if (shift && self->tree_anchor >= 0)
    {
      guint a = MIN ((guint)self->tree_anchor, position);
      guint b = MAX ((guint)self->tree_anchor, position);

      gtk_selection_model_select_range (sel, a, b - a + 1, !ctrl);
      return;
    }
  if (ctrl && gtk_selection_model_is_selected (sel, position))
    gtk_selection_model_unselect_item (sel, position);
  else
    gtk_selection_model_select_item (sel, position, !ctrl);
  self->tree_anchor = (int)position;
}

/* The anchor follows its row when rows above it come or go. */
static void
on_tree_rows_changed (GListModel *model, guint position, guint removed, guint added,
                      TressCurveEditor *self)
{
  if (self->tree_anchor < 0 || (guint)self->tree_anchor < position)
    return;
  if ((guint)self->tree_anchor < position + removed)
    self->tree_anchor = -1;
  else
    self->tree_anchor += (int)added - (int)removed;
}

static void
setup_tree (TressCurveEditor *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  self->tree_model
      = gtk_tree_list_model_new (g_object_ref (tress_curve_document_get_roots (self->document)),
                                 FALSE, TRUE, create_children, NULL, NULL);
  self->filter = gtk_custom_filter_new (filter_row, self, NULL);
  self->filtered = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->tree_model)),
                                              g_object_ref (GTK_FILTER (self->filter)));
  self->tree_selection = gtk_multi_selection_new (g_object_ref (G_LIST_MODEL (self->filtered)));
  g_signal_connect (self->tree_selection, "selection-changed",
                    G_CALLBACK (on_tree_selection_changed), self);
  g_signal_connect (self->filtered, "items-changed", G_CALLBACK (on_tree_rows_changed), self);
  gtk_column_view_set_model (self->tree_view, GTK_SELECTION_MODEL (self->tree_selection));
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_CAPTURE);
  g_signal_connect (click, "pressed", G_CALLBACK (on_tree_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self->tree_view), GTK_EVENT_CONTROLLER (click));
}

/* Whether tree node @node is a curve with at least two keys (something to
 * see in the graph). */
static gboolean
node_has_motion (TressCurveEditor *self, TressCurveNode *node)
{
  int index = tress_curve_node_get_curve_index (node);
  const TressCurve *c
      = index >= 0 ? tress_curve_document_get_curve (self->document, (guint)index) : NULL;

  return c != NULL && tress_curve_get_n_keys (c) >= 2;
}

/* Selects what a newcomer should see first: the first group of curves (e.g.
 * one bone's channels) holding a curve with keys to draw, or that curve;
 * else the first group holding curves at all. */
static void
select_first_group (TressCurveEditor *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->filtered));

  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < n; i++)
      {
        g_autoptr (GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (self->filtered), i);
        g_autoptr (TressCurveNode) node = gtk_tree_list_row_get_item (row);
        GListModel *children = tress_curve_node_get_children (node);
        guint nc = children != NULL ? g_list_model_get_n_items (children) : 0;
        gboolean pick = FALSE;

        if (tress_curve_node_get_curve_index (node) >= 0)
          pick = pass == 1 || node_has_motion (self, node);
        for (guint c = 0; c < nc && !pick; c++)
          {
            g_autoptr (TressCurveNode) child = g_list_model_get_item (children, c);

            if (tress_curve_node_get_curve_index (child) < 0)
              break; /* a group of groups: its own rows come later */
            pick = pass == 1 || node_has_motion (self, child);
          }
        if (pick)
          {
            gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->tree_selection), i, TRUE);
            return;
          }
      }
}

/* ------------------------------------------------------------ messages -- */

static void
update_notes (TressCurveEditor *self)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) notes = g_ptr_array_new ();
  guint n = tress_curve_view_get_n_curves (self->view);

  /* E.g. NIFF SLOW easing: drawn as an assumption, and the user is told so.
   * One line: the first remark, and how many others the details list. */
  for (guint i = 0; i < n; i++)
    {
      const TressCurve *c = tress_curve_document_get_curve (
          self->document, tress_curve_view_get_curve_index (self->view, i));

      if (c == NULL || c->note == NULL || c->note[0] == '\0' || !g_hash_table_add (seen, c->note))
        continue;
      g_ptr_array_add (notes, c->note);
    }
  g_clear_pointer (&self->notes, g_free);
  if (notes->len == 1)
    self->notes = g_strdup (notes->pdata[0]);
  else if (notes->len > 1)
    self->notes = g_strdup_printf (
        /* TRANSLATORS: %s is the first of several remarks on the shown curves */
        ngettext ("%s (and %u other remark)", "%s (and %u other remarks)", notes->len - 1),
        (const char *)notes->pdata[0], notes->len - 1);
  gtk_label_set_text (self->notes_label, self->notes ? self->notes : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->notes_label), self->notes);
  gtk_widget_set_visible (self->notes_box, self->notes != NULL);
  gtk_widget_set_visible (self->notes_details, notes->len > 1);
  g_ptr_array_add (notes, NULL);
  gtk_string_list_splice (self->notes_items, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->notes_items)),
                          notes->len > 2 ? (const char *const *)notes->pdata : NULL);
}

static const TressCurveOps *
curve_ops (TressCurveEditor *self)
{
  return tress_document_get_format (TRESS_DOCUMENT (self->document))->curves;
}

/* The error accepted silently for curve @index: the tolerance set in the
 * menu, else (the default) half the curve's own step. */
static double
curve_tolerance (TressCurveEditor *self, guint index)
{
  return tress_curve_view_get_tolerance_for (
      self->view, tress_curve_document_get_curve (self->document, index));
}

/* Whether curve @index is stored off by more than its tolerance. */
static gboolean
curve_over (TressCurveEditor *self, guint index, double *error, double *tolerance)
{
  double e = tress_curve_document_get_quant_error (self->document, index);
  double t = curve_tolerance (self, index);

  if (error != NULL)
    *error = e;
  if (tolerance != NULL)
    *tolerance = t;
  return e > t && tress_curve_document_get_curve (self->document, index) != NULL;
}

/* The sign after a value of a curve shown with @scale: degrees for angles. */
static const char *
unit_sign (double scale)
{
  return scale != 1 ? "°" : "";
}

/* The line about one curve the file stores off by more than the tolerance
 * (both in the unit the curve is shown in). */
static char *
curve_warning_text (TressCurveEditor *self, guint index, double e, double tolerance)
{
  const TressCurve *c = tress_curve_document_get_curve (self->document, index);
  double scale = tress_curve_view_get_display_scale (self->view, index);
  const char *sign = unit_sign (scale);

  return g_strdup_printf (
      /* TRANSLATORS: the first %s is a curve's path, the last its types; the
       * %s after each number is its unit ("°" or nothing) */
      _ ("%s: the file stores values up to %.4g%s away from the edited ones (tolerance "
         "%.4g%s) with its types (%s); a wider key type would store them closer."),
      c && c->path ? c->path : _ ("curve"), e * scale, sign, tolerance * scale, sign,
      c && c->type_label ? c->type_label : "?");
}

static void
update_warning (TressCurveEditor *self)
{
  double tolerance = G_MAXDOUBLE;
  double live = tress_curve_view_get_drag_error (self->view);
  const TressCurveOps *ops = curve_ops (self);
  gboolean can_widen = ops != NULL && ops->widen_types != NULL;
  char *text = NULL;
  guint n_over = 0;
  g_autofree char *cost = NULL;

  update_notes (self);
  if (live >= 0)
    {
      /* While keys are dragged: what the file would store for them now,
       * against the tolerance the tooltip by the pointer names (the
       * dragged curves'), so that the screen shows one. */
      tolerance = tress_curve_view_get_drag_tolerance (self->view);
      if (live > tolerance)
        {
          /* In the unit of the curve the error comes from, as next to the pointer. */
          double scale = tress_curve_view_get_drag_error_scale (self->view);
          const char *sign = unit_sign (scale);

          text = g_strdup_printf (
              can_widen
                  /* TRANSLATORS: the %s after each number is its unit ("°" or nothing) */
                  ? _ ("While moving: the file would store values up to %.4g%s away from the "
                       "edited ones (tolerance %.4g%s); a wider type would store them closer.")
                  /* TRANSLATORS: the %s after each number is its unit ("°" or nothing) */
                  : _ ("While moving: the file would store values up to %.4g%s away from the "
                       "edited ones (tolerance %.4g%s)."),
              live * scale, sign, tolerance * scale, sign);
        }
    }
  else
    {
      /* One line however many curves: the curve, or the count and the largest
       * error; the details popover lists them one by one. */
      guint first = 0;
      double worst = 0, worst_tolerance = 0, worst_scale = 1;

      for (guint i = 0; i < tress_curve_view_get_n_curves (self->view); i++)
        {
          guint index = tress_curve_view_get_curve_index (self->view, i);
          double e = 0, t = 0;

          if (curve_over (self, index, &e, &t))
            {
              if (n_over++ == 0)
                first = index;
              if (e > worst)
                {
                  worst = e;
                  worst_tolerance = t;
                  worst_scale = tress_curve_view_get_display_scale (self->view, index);
                }
            }
        }
      if (n_over == 1)
        text = curve_warning_text (self, first, worst, worst_tolerance);
      else if (n_over > 1)
        text = g_strdup_printf (
            /* TRANSLATORS: the %s after each number is its unit ("°" or nothing) */
            ngettext ("%u curve: the file stores values up to %.4g%s away from the edited ones "
                      "(tolerance %.4g%s) with their types; wider key types would store them "
                      "closer.",
                      "%u curves: the file stores values up to %.4g%s away from the edited ones "
                      "(tolerance %.4g%s) with their types; wider key types would store them "
                      "closer.",
                      n_over),
            n_over, worst * worst_scale, unit_sign (worst_scale), worst_tolerance * worst_scale,
            unit_sign (worst_scale));
      /* The button names what widening costs. */
      if (n_over == 1 && can_widen && ops->describe_widening != NULL)
        cost = ops->describe_widening (tress_document_get_model (TRESS_DOCUMENT (self->document)),
                                       first);
      else if (n_over > 1 && can_widen)
        cost = g_strdup_printf (ngettext ("%u curve one key type wider; the file grows",
                                          "%u curves, each one key type wider; the file grows",
                                          n_over),
                                n_over);
    }
  g_free (self->warning);
  self->warning = text;
  self->warning_items_valid = FALSE;
  gtk_label_set_text (self->warning_label, self->warning ? self->warning : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->warning_label), self->warning);
  gtk_widget_set_visible (self->warning_box, self->warning != NULL);
  gtk_widget_set_visible (self->warning_details, n_over > 1);
  /* Offered only where the format has wider types (BFRES: s16 and f32 keys). */
  gtk_widget_set_visible (self->widen_button, can_widen);
  gtk_widget_set_tooltip_text (self->widen_button,
                               cost != NULL ? cost
                                            : _ ("Store these curves with wider keys so the file "
                                                 "holds the edited values more closely"));
  update_summary (self);
}

/* The details of the warning, one line per curve, made when they are asked for. */
static void
on_warning_details_show (GtkPopover *popover, TressCurveEditor *self)
{
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);

  if (self->warning_items_valid)
    return;
  for (guint i = 0; i < tress_curve_view_get_n_curves (self->view); i++)
    {
      guint index = tress_curve_view_get_curve_index (self->view, i);
      double e = 0, tolerance = 0;

      if (curve_over (self, index, &e, &tolerance))
        g_ptr_array_add (lines, curve_warning_text (self, index, e, tolerance));
    }
  g_ptr_array_add (lines, NULL);
  gtk_string_list_splice (self->warning_items, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->warning_items)),
                          (const char *const *)lines->pdata);
  self->warning_items_valid = TRUE;
}

static void
on_drag_error (TressCurveView *view, GParamSpec *pspec, TressCurveEditor *self)
{
  update_warning (self);
}

static gboolean
widen_curve (gpointer model, guint index, gpointer data, double *max_error, GError **error)
{
  const TressCurveOps *ops = data;

  return ops->widen_types (model, index, max_error, error);
}

static void
show_message (TressCurveEditor *self, const char *text)
{
  gtk_label_set_text (self->message_label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->message_label), text);
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), TRUE);
  gtk_widget_set_visible (self->message_box, TRUE);
  update_summary (self);
}

/* Widens the types of every shown curve whose stored values are off by more
 * than the tolerance: one undo step. */
static void
act_widen_types (GtkWidget *widget, const char *name, GVariant *param)
{
  TressCurveEditor *self = TRESS_CURVE_EDITOR (widget);
  const TressCurveOps *ops = curve_ops (self);
  g_autoptr (GArray) todo = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GError) error = NULL;
  g_autofree char *label = NULL;

  if (ops == NULL || ops->widen_types == NULL)
    {
      show_message (self, _ ("This format has no wider types to store values in"));
      return;
    }
  for (guint i = 0; i < tress_curve_view_get_n_curves (self->view); i++)
    {
      guint index = tress_curve_view_get_curve_index (self->view, i);

      if (curve_over (self, index, NULL, NULL))
        g_array_append_val (todo, index);
    }
  if (todo->len == 0)
    return;
  label = g_strdup_printf (
      ngettext ("Widen the types of %u curve", "Widen the types of %u curves", todo->len),
      todo->len);
  tress_curve_document_begin_edit (self->document, label);
  for (guint i = 0; i < todo->len && error == NULL; i++)
    tress_curve_document_apply_model_edit (self->document, g_array_index (todo, guint, i), label,
                                           widen_curve, (gpointer)ops, &error);
  tress_curve_document_end_edit (self->document);
  if (error != NULL)
    show_message (self, error->message);
  update_warning (self);
}

/* The curve of the key panel's key, one key type wider (finer steps): one undo
 * step. The button names what it costs. */
static void
act_widen_active (GtkWidget *widget, const char *name, GVariant *param)
{
  TressCurveEditor *self = TRESS_CURVE_EDITOR (widget);
  const TressCurveOps *ops = curve_ops (self);
  guint curve = 0, key = 0;
  g_autoptr (GError) error = NULL;
  g_autofree char *cost = NULL, *label = NULL;

  if (ops == NULL || ops->widen_types == NULL || ops->describe_widening == NULL
      || !tress_curve_view_get_active_key (self->view, &curve, &key))
    return;
  cost = ops->describe_widening (tress_document_get_model (TRESS_DOCUMENT (self->document)), curve);
  if (cost == NULL)
    return;
  /* TRANSLATORS: %s says what widening costs, e.g. "16-bit keys: exact to 1.2e-05, the file
   * grows by 144 bytes" */
  label = g_strdup_printf (_ ("Widen the key type (%s)"), cost);
  if (!tress_curve_document_apply_model_edit (self->document, curve, label, widen_curve,
                                              (gpointer)ops, &error))
    show_message (self, error->message);
  update_warning (self);
}

static void
on_message (TressCurveView *view, GParamSpec *pspec, TressCurveEditor *self)
{
  const char *m = tress_curve_view_get_message (view);
  const TressCurveOps *ops = curve_ops (self);
  double end = 0;
  gboolean offer = tress_curve_view_get_pending_end (view, &end) && ops != NULL
                   && ops->set_frame_count != NULL;

  gtk_label_set_text (self->message_label, m ? m : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->message_label), m);
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), m != NULL);
  gtk_widget_set_visible (self->message_box, m != NULL);
  /* A format that can lengthen its animations gets the offer, never the change unasked. */
  gtk_widget_set_visible (self->lengthen_button, offer);
  if (offer)
    {
      g_autofree char *label = g_strdup_printf (_ ("Lengthen to %g frames"), end);
      gtk_button_set_label (GTK_BUTTON (self->lengthen_button), label);
    }
  /* A frame the curve's frame type cannot store: asked, never widened unasked. */
  {
    const char *cost = NULL;
    gboolean widen = tress_curve_view_get_frame_widening (view, &cost);

    gtk_widget_set_visible (self->widen_frames_button, widen);
    gtk_widget_set_tooltip_text (self->widen_frames_button, widen ? cost : NULL);
  }
  update_summary (self);
}

static void
act_widen_frames (GtkWidget *widget, const char *name, GVariant *param)
{
  TressCurveEditor *self = TRESS_CURVE_EDITOR (widget);
  g_autoptr (GError) error = NULL;

  if (!tress_curve_view_get_frame_widening (self->view, NULL))
    return;
  if (!tress_curve_view_commit_frame_widening (self->view, &error))
    show_message (self, error->message);
  update_warning (self);
}

static void
act_unwrap (GtkWidget *widget, const char *name, GVariant *param)
{
  tress_curve_view_unwrap_angles (TRESS_CURVE_EDITOR (widget)->view);
}

/* The graph's keys work wherever the focus is in the editor (the timeline,
 * a toolbar button, the trees), as long as nothing there takes the key
 * first: text fields keep their letters, lists their arrows and Ctrl+A. The
 * graph's own bindings answer first when it has the focus. */
static void
add_editor_shortcuts (GtkWidgetClass *widget_class)
{
  static const struct
  {
    guint key;
    GdkModifierType mods;
    const char *action;
    const char *format;
    gboolean flag;
  } keys[] = {
    { GDK_KEY_i, 0, "curve.insert-at-playhead", NULL, FALSE },
    { GDK_KEY_space, 0, "curve.toggle-play", NULL, FALSE },
    { GDK_KEY_Home, 0, "curve.frame-all", NULL, FALSE },
    { GDK_KEY_f, 0, "curve.frame-selected", NULL, FALSE },
    { GDK_KEY_KP_Decimal, 0, "curve.frame-selected", NULL, FALSE },
    { GDK_KEY_Delete, 0, "curve.delete", NULL, FALSE },
    { GDK_KEY_x, 0, "curve.delete", NULL, FALSE },
    { GDK_KEY_c, GDK_CONTROL_MASK, "curve.copy", NULL, FALSE },
    { GDK_KEY_v, GDK_CONTROL_MASK, "curve.paste", "b", FALSE },
    { GDK_KEY_v, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "curve.paste", "b", TRUE },
    { GDK_KEY_d, GDK_SHIFT_MASK, "curve.duplicate", NULL, FALSE },
    { GDK_KEY_d, GDK_CONTROL_MASK, "curve.duplicate", NULL, FALSE },
    { GDK_KEY_Page_Up, 0, "curve.previous-key", NULL, FALSE },
    { GDK_KEY_Page_Down, 0, "curve.next-key", NULL, FALSE },
    { GDK_KEY_comma, 0, "curve.previous-key", NULL, FALSE },
    { GDK_KEY_period, 0, "curve.next-key", NULL, FALSE },
    { GDK_KEY_n, 0, "curve.normalized", NULL, FALSE },
    { GDK_KEY_Escape, 0, "curve.select-none", NULL, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (keys[i].format != NULL)
      gtk_widget_class_add_binding_action (widget_class, keys[i].key, keys[i].mods, keys[i].action,
                                           keys[i].format, keys[i].flag);
    else
      gtk_widget_class_add_binding_action (widget_class, keys[i].key, keys[i].mods, keys[i].action,
                                           NULL);
}

static void
act_lengthen (GtkWidget *widget, const char *name, GVariant *param)
{
  TressCurveEditor *self = TRESS_CURVE_EDITOR (widget);
  const TressCurveOps *ops = curve_ops (self);
  g_autoptr (GError) error = NULL;

  if (ops == NULL || ops->set_frame_count == NULL
      || !tress_curve_view_get_pending_end (self->view, NULL))
    return;
  if (!tress_curve_view_commit_pending (self->view, &error))
    show_message (self, error->message);
}

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
static void
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

static void
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
static void
act_compare_with_file (GtkWidget *widget, const char *name, GVariant *param)
{
  g_autoptr (GFile) file = g_file_new_for_commandline_arg (g_variant_get_string (param, NULL));

  compare_with (TRESS_CURVE_EDITOR (widget), file, NULL);
}

static void
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

static void
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

/* ----------------------------------------------------------- timeline -- */

static void
update_timeline (TressCurveEditor *self)
{
  double frame = tress_curve_view_get_playhead (self->view);
  double first, last;
  GString *text = g_string_new (NULL);
  GString *markup = g_string_new (NULL);
  guint named = 0, more = 0;

  tress_curve_view_get_frame_range (self->view, &first, &last);
  self->syncing = TRUE;
  gtk_adjustment_configure (self->timeline_adj, frame, MIN (first, frame), MAX (last, frame), 1, 10,
                            0);
  if (gtk_spin_button_get_value (self->frame_spin) != frame)
    gtk_spin_button_set_value (self->frame_spin, frame);
  self->syncing = FALSE;

  /* The frame is in the field beside it; the text keeps it too. */
  g_string_append_printf (text, _ ("Frame %.2f"), frame);
  /* The first few shown curves by name; the others are counted. */
  for (guint i = 0; i < tress_curve_view_get_n_curves (self->view); i++)
    {
      guint index = tress_curve_view_get_curve_index (self->view, i);
      const TressCurve *c = tress_curve_view_get_shown_curve (self->view, index);
      g_autofree char *name = NULL;
      GdkRGBA rgba;
      double v;
      g_autofree char *esc = NULL;

      if (c == NULL || tress_curve_get_n_keys (c) == 0
          || !tress_curve_view_get_curve_shown (self->view, index))
        continue;
      if (named == TIMELINE_MAX_CURVES)
        {
          more++;
          continue;
        }
      named++;
      v = tress_curve_evaluate (c, frame) * tress_curve_view_get_display_scale (self->view, index);
      name = short_name (c);
      tress_curve_view_get_curve_color (self->view, index, &rgba);
      g_string_append_printf (text, "  %s %.4g", name, v);
      esc = g_markup_escape_text (name, -1);
      g_string_append_printf (markup, "%s<span foreground=\"#%02x%02x%02x\">%s</span> %.4g",
                              markup->len > 0 ? "   " : "", (int)(rgba.red * 255),
                              (int)(rgba.green * 255), (int)(rgba.blue * 255), esc, v);
    }
  if (more > 0)
    {
      g_autofree char *m
          = g_strdup_printf (ngettext ("and %u more curve", "and %u more curves", more), more);
      g_autofree char *esc = g_markup_escape_text (m, -1);

      g_string_append_printf (text, "  %s", m);
      g_string_append_printf (markup, "   <span alpha=\"60%%\">%s</span>", esc);
    }
  g_free (self->timeline_text);
  self->timeline_text = g_string_free (text, FALSE);
  gtk_label_set_markup (self->timeline_label, markup->str);
  g_string_free (markup, TRUE);
}

static void
on_timeline_value (GtkAdjustment *adj, TressCurveEditor *self)
{
  if (self->syncing)
    return;
  tress_curve_view_set_playhead (self->view, gtk_adjustment_get_value (adj));
}

static void
on_playhead (TressCurveView *view, GParamSpec *pspec, TressCurveEditor *self)
{
  update_timeline (self);
}

static void
on_frame_spin (GtkAdjustment *adj, TressCurveEditor *self)
{
  if (self->syncing)
    return;
  tress_curve_view_set_playhead (self->view, gtk_adjustment_get_value (adj));
}

/* Play turns into Pause while the animation plays. */
static void
on_playing (TressCurveView *view, GParamSpec *pspec, TressCurveEditor *self)
{
  gboolean playing = FALSE;

  g_object_get (view, "playing", &playing, NULL);
  gtk_button_set_icon_name (GTK_BUTTON (self->play_button), playing
                                                                ? "media-playback-pause-symbolic"
                                                                : "media-playback-start-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->play_button),
                               playing ? _ ("Pause (Space)") : _ ("Play (Space)"));
}

/* The rate: the file's, shown and fixed, where it stores one (NIFF); else the
 * default the user sets (kept in GSettings), 30 to begin with. */
static void
update_fps (TressCurveEditor *self)
{
  double file = tress_curve_view_get_file_fps (self->view);
  double rate = 30;

  g_object_get (self->view, "default-fps", &rate, NULL);
  self->syncing = TRUE;
  gtk_spin_button_set_value (self->fps_spin, file > 0 ? file : rate);
  self->syncing = FALSE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->fps_spin), file <= 0);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->fps_spin),
                               file > 0
                                   ? _ ("Frames per second, as the file stores them")
                                   : _ ("Frames per second to play at: the file stores no rate"));
}

static void
on_fps_spin (GtkAdjustment *adj, TressCurveEditor *self)
{
  double rate = gtk_adjustment_get_value (adj);

  if (self->syncing || tress_curve_view_get_file_fps (self->view) > 0)
    return;
  g_object_set (self->view, "default-fps", rate, NULL);
  if (self->settings != NULL)
    g_settings_set_double (self->settings, "default-fps", rate);
}

/* ---------------------------------------------------------- key table -- */

/* The curve the key table lists: the channel selected last, else the active
 * key's curve, else the first one drawn (solo), else the first shown. */
static int
wanted_table_curve (TressCurveEditor *self)
{
  guint curve = 0, key = 0;

  if (self->table_follows_channels)
    {
      g_autoptr (GArray) selected
          = tress_curve_channel_list_dup_selected_curves (self->channel_list);

      if (selected->len > 0)
        return (int)g_array_index (selected, guint, 0);
    }
  if (tress_curve_view_get_active_key (self->view, &curve, &key))
    return (int)curve;
  for (guint i = 0; i < tress_curve_view_get_n_curves (self->view); i++)
    if (tress_curve_view_get_curve_shown (self->view,
                                          tress_curve_view_get_curve_index (self->view, i)))
      return (int)tress_curve_view_get_curve_index (self->view, i);
  if (tress_curve_view_get_n_curves (self->view) > 0)
    return (int)tress_curve_view_get_curve_index (self->view, 0);
  return -1;
}

/* The table's title names its curve; a format that stores one interpolation
 * per curve (BFRES) gets it once, beside the title, not once per key. */
static void
update_table_header (TressCurveEditor *self, const TressCurve *c)
{
  gboolean uniform = c != NULL && c->limits.uniform_interp && tress_curve_get_n_keys (c) > 0;
  g_autofree char *title = NULL;

  if (c != NULL)
    title = g_strdup_printf (ngettext ("%s, %u key", "%s, %u keys", tress_curve_get_n_keys (c)),
                             c->path != NULL ? c->path : _ ("curve"), tress_curve_get_n_keys (c));
  gtk_label_set_text (self->table_title, title != NULL ? title : _ ("No curve"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->table_title), title);
  gtk_widget_set_visible (self->curve_interp_box, uniform);
  if (self->interp_column != NULL)
    gtk_column_view_column_set_visible (self->interp_column, !uniform);
  if (uniform)
    gtk_drop_down_set_selected (self->curve_interp, (guint)tress_curve_get_key (c, 0)->interp);
}

static void
on_curve_interp (GtkDropDown *dd, GParamSpec *pspec, TressCurveEditor *self)
{
  guint sel = gtk_drop_down_get_selected (dd);
  const TressCurve *c;
  g_autoptr (GError) error = NULL;

  if (self->syncing || self->table_curve < 0 || sel >= G_N_ELEMENTS (interp_names) - 1)
    return;
  c = tress_curve_view_get_shown_curve (self->view, (guint)self->table_curve);
  if (c == NULL || tress_curve_get_n_keys (c) == 0
      || tress_curve_get_key (c, 0)->interp == (TressInterp)sel)
    return;
  if (!tress_curve_view_set_curve_interpolation (self->view, (guint)self->table_curve,
                                                 (TressInterp)sel, &error))
    {
      /* Refused (the message says why): show what the curve still holds. */
      self->syncing = TRUE;
      update_table_header (self, c);
      self->syncing = FALSE;
    }
}

/* The table keeps the active key in view. */
static void
scroll_table_to (TressCurveEditor *self, guint row)
{
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self->key_view)); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_LIST_VIEW (c))
      gtk_widget_activate_action (c, "list.scroll-to-item", "u", row);
}

static void
rebuild_key_rows (TressCurveEditor *self)
{
  guint curve = 0, key = 0;
  const TressCurve *c = NULL;
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  int table_curve = wanted_table_curve (self);

  if (table_curve >= 0)
    c = tress_curve_view_get_shown_curve (self->view, (guint)table_curve);
  self->table_curve = table_curve;
  self->table_source = c;
  self->table_scale
      = table_curve >= 0 ? tress_curve_view_get_display_scale (self->view, (guint)table_curve) : 1;
  if (c != NULL)
    for (guint i = 0; i < tress_curve_get_n_keys (c); i++)
      {
        TressCurveKeyRow *r = g_object_new (TRESS_TYPE_CURVE_KEY_ROW, NULL);

        r->view = self->view;
        r->curve = (guint)table_curve;
        r->key = i;
        g_ptr_array_add (rows, r);
      }
  self->syncing = TRUE;
  g_list_store_splice (self->key_rows, 0, g_list_model_get_n_items (G_LIST_MODEL (self->key_rows)),
                       rows->pdata, rows->len);
  if (c != NULL && tress_curve_view_get_active_key (self->view, &curve, &key)
      && (int)curve == table_curve && key < rows->len)
    {
      /* The table lists the active key's curve: its row is shown too. */
      gtk_single_selection_set_selected (self->key_selection, key);
      scroll_table_to (self, key);
    }
  else
    gtk_single_selection_set_selected (self->key_selection, GTK_INVALID_LIST_POSITION);
  update_table_header (self, c);
  self->syncing = FALSE;
}

static gboolean
parse_number (const char *text, double *out)
{
  char *end = NULL;
  double v;

  if (text == NULL)
    return FALSE;
  v = g_ascii_strtod (text, &end);
  while (end != NULL && g_ascii_isspace (*end))
    end++;
  if (end == text || end == NULL || *end != '\0' || !isfinite (v))
    return FALSE;
  *out = v;
  return TRUE;
}

gboolean
tress_curve_editor_edit_cell (TressCurveEditor *self, guint row, const char *column,
                              const char *text, GError **error)
{
  g_autoptr (TressCurveKeyRow) r = NULL;
  const TressKey *k;
  TressKey key;
  double v = 0, scale;

  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), FALSE);
  r = g_list_model_get_item (G_LIST_MODEL (self->key_rows), row);
  if (r == NULL || (k = row_key (r)) == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, _ ("There is no row %u"), row);
      return FALSE;
    }
  key = *k;
  if (g_str_equal (column, "interpolation"))
    {
      TressInterp interp;

      if (!tress_interp_from_string (text, &interp))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       _ ("“%s” is not an interpolation (step, linear, hermite or baked)"), text);
          return FALSE;
        }
      key.interp = interp;
      if (key.interp == k->interp)
        return TRUE;
      {
        /* The same path as the toolbar, so the format's rules (one kind per curve) apply. */
        tress_curve_view_select_key (self->view, r->curve, r->key, TRESS_CURVE_PART_KEY, FALSE);
        gtk_widget_activate_action (GTK_WIDGET (self->view), "curve.set-interpolation", "s",
                                    tress_interp_to_string (interp));
        k = row_key (r);
        if (k == NULL || k->interp != interp)
          {
            const char *m = tress_curve_view_get_message (self->view);
            g_set_error_literal (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                                 m ? m : _ ("The interpolation was not changed"));
            return FALSE;
          }
        return TRUE;
      }
    }
  if (!parse_number (text, &v))
    {
      g_autofree char *msg = g_strdup_printf (_ ("“%s” is not a number"), text);
      g_set_error_literal (error, TRESS_ERROR, TRESS_ERROR_REFUSED, msg);
      gtk_label_set_text (self->message_label, msg);
      gtk_widget_set_visible (GTK_WIDGET (self->message_label), TRUE);
      gtk_widget_set_visible (self->message_box, TRUE);
      return FALSE;
    }
  /* Typed in the units shown (degrees for angles). */
  scale = tress_curve_view_get_display_scale (self->view, r->curve);
  if (g_str_equal (column, "frame"))
    key.frame = v;
  else if (g_str_equal (column, "value"))
    key.value = v / scale;
  else if (g_str_equal (column, "in"))
    key.in_slope = v / scale;
  else if (g_str_equal (column, "out"))
    key.out_slope = v / scale;
  else
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, _ ("There is no column %s"), column);
      return FALSE;
    }
  if (memcmp (&key, k, sizeof key) == 0)
    return TRUE;
  return tress_curve_view_set_key (self->view, r->curve, r->key, &key, error);
}

static void
table_setup_entry (GtkSignalListItemFactory *f, GtkListItem *item, gpointer column)
{
  GtkWidget *label = gtk_editable_label_new ("");

  gtk_list_item_set_child (item, label);
}

static void
on_cell_editing (GtkEditableLabel *label, GParamSpec *pspec, TressCurveEditor *self)
{
  guint row;
  const char *column;
  g_autoptr (GError) error = NULL;

  if (gtk_editable_label_get_editing (label))
    return;
  row = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (label), "tress-row"));
  column = g_object_get_data (G_OBJECT (label), "tress-column");
  if (column == NULL)
    return;
  if (!tress_curve_editor_edit_cell (self, row, column,
                                     gtk_editable_get_text (GTK_EDITABLE (label)), &error))
    {
      /* Show the value the curve still holds. */
      g_autoptr (TressCurveKeyRow) r = g_list_model_get_item (G_LIST_MODEL (self->key_rows), row);
      if (r != NULL)
        {
          g_autofree char *text = tress_curve_key_row_dup_text (r, column);
          gtk_editable_set_text (GTK_EDITABLE (label), text);
        }
    }
}

static void
table_bind_entry (GtkSignalListItemFactory *f, GtkListItem *item, gpointer column)
{
  TressCurveKeyRow *r = gtk_list_item_get_item (item);
  GtkWidget *label = gtk_list_item_get_child (item);
  TressCurveEditor *self = g_object_get_data (G_OBJECT (f), "tress-editor");
  g_autofree char *text = tress_curve_key_row_dup_text (r, column);

  g_object_set_data (G_OBJECT (label), "tress-column", NULL);
  gtk_editable_set_text (GTK_EDITABLE (label), text);
  g_object_set_data (G_OBJECT (label), "tress-row",
                     GUINT_TO_POINTER (gtk_list_item_get_position (item)));
  g_object_set_data (G_OBJECT (label), "tress-column", column);
  if (g_object_get_data (G_OBJECT (label), "tress-connected") == NULL)
    {
      g_signal_connect (label, "notify::editing", G_CALLBACK (on_cell_editing), self);
      g_object_set_data (G_OBJECT (label), "tress-connected", GINT_TO_POINTER (1));
    }
}

static void
table_unbind_entry (GtkSignalListItemFactory *f, GtkListItem *item, gpointer column)
{
  GtkWidget *label = gtk_list_item_get_child (item);

  g_object_set_data (G_OBJECT (label), "tress-column", NULL);
}

static void
on_cell_interp (GtkDropDown *dd, GParamSpec *pspec, TressCurveEditor *self)
{
  guint row = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (dd), "tress-row"));
  guint sel = gtk_drop_down_get_selected (dd);

  if (self->syncing || g_object_get_data (G_OBJECT (dd), "tress-bound") == NULL
      || sel >= G_N_ELEMENTS (interp_names) - 1)
    return;
  tress_curve_editor_edit_cell (self, row, "interpolation", interp_names[sel], NULL);
}

static void
table_setup_interp (GtkSignalListItemFactory *f, GtkListItem *item, gpointer data)
{
  GtkWidget *dd = interp_drop_down_new ();

  gtk_list_item_set_child (item, dd);
}

static void
table_bind_interp (GtkSignalListItemFactory *f, GtkListItem *item, gpointer data)
{
  TressCurveKeyRow *r = gtk_list_item_get_item (item);
  GtkWidget *dd = gtk_list_item_get_child (item);
  TressCurveEditor *self = g_object_get_data (G_OBJECT (f), "tress-editor");
  const TressKey *k = row_key (r);

  g_object_set_data (G_OBJECT (dd), "tress-bound", NULL);
  g_object_set_data (G_OBJECT (dd), "tress-row",
                     GUINT_TO_POINTER (gtk_list_item_get_position (item)));
  if (k != NULL)
    gtk_drop_down_set_selected (GTK_DROP_DOWN (dd), (guint)k->interp);
  if (g_object_get_data (G_OBJECT (dd), "tress-connected") == NULL)
    {
      g_signal_connect (dd, "notify::selected", G_CALLBACK (on_cell_interp), self);
      g_object_set_data (G_OBJECT (dd), "tress-connected", GINT_TO_POINTER (1));
    }
  g_object_set_data (G_OBJECT (dd), "tress-bound", GINT_TO_POINTER (1));
}

static void
table_unbind_interp (GtkSignalListItemFactory *f, GtkListItem *item, gpointer data)
{
  g_object_set_data (G_OBJECT (gtk_list_item_get_child (item)), "tress-bound", NULL);
}

static void
on_key_row_selected (GtkSingleSelection *sel, GParamSpec *pspec, TressCurveEditor *self)
{
  guint pos = gtk_single_selection_get_selected (sel);
  g_autoptr (TressCurveKeyRow) r = NULL;

  if (self->syncing || pos == GTK_INVALID_LIST_POSITION)
    return;
  r = g_list_model_get_item (G_LIST_MODEL (self->key_rows), pos);
  if (r != NULL)
    tress_curve_view_select_key (self->view, r->curve, r->key, TRESS_CURVE_PART_KEY, FALSE);
}

static void
setup_key_table (TressCurveEditor *self)
{
  static const char *const columns[] = { "frame", "value", "in", "out" };
  static const char *const titles[]
      = { N_ ("Frame"), N_ ("Value"), N_ ("In slope"), N_ ("Out slope") };

  self->key_rows = g_list_store_new (TRESS_TYPE_CURVE_KEY_ROW);
  self->key_selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->key_rows)));
  gtk_single_selection_set_autoselect (self->key_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->key_selection, TRUE);
  g_signal_connect (self->key_selection, "notify::selected", G_CALLBACK (on_key_row_selected),
                    self);
  gtk_column_view_set_model (self->key_view, GTK_SELECTION_MODEL (self->key_selection));
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      GtkListItemFactory *f = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *col;

      g_object_set_data (G_OBJECT (f), "tress-editor", self);
      g_signal_connect (f, "setup", G_CALLBACK (table_setup_entry), (gpointer)columns[i]);
      g_signal_connect (f, "bind", G_CALLBACK (table_bind_entry), (gpointer)columns[i]);
      g_signal_connect (f, "unbind", G_CALLBACK (table_unbind_entry), (gpointer)columns[i]);
      col = gtk_column_view_column_new (_ (titles[i]), f);
      gtk_column_view_column_set_expand (col, TRUE);
      gtk_column_view_append_column (self->key_view, col);
      g_object_unref (col);
    }
  {
    GtkListItemFactory *f = gtk_signal_list_item_factory_new ();
    GtkColumnViewColumn *col;

    g_object_set_data (G_OBJECT (f), "tress-editor", self);
    g_signal_connect (f, "setup", G_CALLBACK (table_setup_interp), NULL);
    g_signal_connect (f, "bind", G_CALLBACK (table_bind_interp), NULL);
    g_signal_connect (f, "unbind", G_CALLBACK (table_unbind_interp), NULL);
    col = gtk_column_view_column_new (_ ("Interpolation"), f);
    gtk_column_view_append_column (self->key_view, col);
    self->interp_column = col; /* the table holds it */
    g_object_unref (col);
  }
}

/* ---------------------------------------------------------- key panel -- */

/* What the file stores for key @k of curve @index and in which steps, or NULL
 * for curves that store values as given. */
static char *
dup_stored_text (TressCurveEditor *self, guint index, const TressKey *k)
{
  const TressCurve *c = tress_curve_document_get_curve (self->document, index);
  /* In the unit the panel's fields show (degrees for angles). */
  double scale = tress_curve_view_get_display_scale (self->view, index);
  const char *sign = unit_sign (scale);
  gboolean fits = TRUE;
  double v;

  if (c == NULL || !(c->value_step > 0))
    return NULL;
  v = tress_curve_stored_value (c, k->value, &fits);
  if (!fits)
    /* TRANSLATORS: a key's value outside the steps its curve stores */
    return g_strdup_printf (_ ("Stored with a new step (%s)"), c->type_label ? c->type_label : "");
  /* TRANSLATORS: the value a key is stored with, and the step of its curve's
   * values; the %s after each number is its unit ("°" or nothing) */
  return g_strdup_printf (_ ("Stored %.7g%s, step %.4g%s (%s)"), v * scale, sign,
                          c->value_step * scale, sign, c->type_label ? c->type_label : "");
}

/* What widening the key type of curve @index costs, or NULL. */
static char *
dup_widen_text (TressCurveEditor *self, guint index)
{
  const TressCurveOps *ops = curve_ops (self);

  if (ops == NULL || ops->widen_types == NULL || ops->describe_widening == NULL)
    return NULL;
  return ops->describe_widening (tress_document_get_model (TRESS_DOCUMENT (self->document)), index);
}

static void
update_key_panel (TressCurveEditor *self)
{
  guint curve = 0, key = 0;
  const TressCurve *c = NULL;
  const TressKey *k = NULL;
  g_autofree char *title = NULL, *stored = NULL, *cost = NULL;
  const char *no_slopes = NULL;
  gboolean slopes = FALSE;
  double scale = 1;

  if (tress_curve_view_get_active_key (self->view, &curve, &key))
    c = tress_curve_view_get_shown_curve (self->view, curve);
  if (c != NULL && key < tress_curve_get_n_keys (c))
    {
      k = tress_curve_get_key (c, key);
      scale = tress_curve_view_get_display_scale (self->view, curve);
    }
  self->syncing = TRUE;
  for (guint i = 0; i < 4; i++)
    gtk_widget_set_sensitive (GTK_WIDGET (self->panel_spin[i]), k != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->panel_interp), k != NULL);
  if (k != NULL)
    {
      gtk_spin_button_set_value (self->panel_spin[0], k->frame);
      gtk_spin_button_set_value (self->panel_spin[1], k->value * scale);
      gtk_spin_button_set_value (self->panel_spin[2], k->in_slope * scale);
      gtk_spin_button_set_value (self->panel_spin[3], k->out_slope * scale);
      gtk_drop_down_set_selected (self->panel_interp, (guint)k->interp);
      /* Where the format stores no slopes (NIFF1 records, BFRES step, linear
       * and baked curves) neither field is editable, and each says why; NIFF2
       * stores one slope per key: the out slope follows the in slope. */
      slopes = tress_curve_key_has_slopes (c, key, &no_slopes);
      gtk_widget_set_sensitive (GTK_WIDGET (self->panel_spin[2]), slopes);
      gtk_widget_set_sensitive (GTK_WIDGET (self->panel_spin[3]),
                                slopes && !c->limits.tied_tangents);
      title = g_strdup_printf (_ ("%s, key %u"), c->path ? c->path : _ ("curve"), key);
      g_free (self->panel_text);
      self->panel_text = g_strdup_printf (_ ("%s: frame %g value %g in %g out %g %s"), title,
                                          k->frame, k->value * scale, k->in_slope * scale,
                                          k->out_slope * scale, tress_interp_to_label (k->interp));
      stored = dup_stored_text (self, curve, k);
      cost = dup_widen_text (self, curve);
      if (stored != NULL)
        {
          char *t = g_strdup_printf ("%s; %s", self->panel_text, stored);

          g_free (self->panel_text);
          self->panel_text = t;
        }
    }
  else
    {
      title = g_strdup (_ ("No active key"));
      /* Insensitive fields show a neutral value, not the range's minimum. */
      for (guint i = 0; i < 4; i++)
        gtk_spin_button_set_value (self->panel_spin[i], 0);
      gtk_drop_down_set_selected (self->panel_interp, GTK_INVALID_LIST_POSITION);
      g_clear_pointer (&self->panel_text, g_free);
    }
  gtk_label_set_text (self->panel_title, title);
  gtk_label_set_text (self->panel_stored, stored ? stored : "");
  /* Visible without scrolling the panel: the value field's tooltip and the
   * status line. */
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->panel_spin[1]), stored);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->panel_spin[2]), no_slopes);
  gtk_widget_set_tooltip_text (
      GTK_WIDGET (self->panel_spin[3]),
      no_slopes != NULL ? no_slopes
      : slopes && c->limits.tied_tangents
          ? _ ("The format stores one slope per key: the out slope follows the in slope")
          : NULL);
  if (g_strcmp0 (stored, self->stored_text) != 0)
    {
      g_free (self->stored_text);
      self->stored_text = g_strdup (stored);
      update_summary (self);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->panel_stored), stored != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->panel_widen), cost != NULL);
  if (cost != NULL)
    {
      g_autofree char *label = g_strdup_printf (_ ("Finer steps: %s"), cost);

      gtk_label_set_text (GTK_LABEL (gtk_button_get_child (self->panel_widen)), label);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->panel_widen),
                                   _ ("Store this curve with the next wider key type (one undo "
                                      "step); the file grows"));
    }
  self->syncing = FALSE;
}

static void
on_panel_spin (GtkSpinButton *spin, TressCurveEditor *self)
{
  guint curve = 0, key = 0;
  const TressCurve *c;
  TressKey k;
  double scale;
  g_autoptr (GError) error = NULL;

  if (self->syncing || !tress_curve_view_get_active_key (self->view, &curve, &key))
    return;
  c = tress_curve_view_get_shown_curve (self->view, curve);
  if (c == NULL || key >= tress_curve_get_n_keys (c))
    return;
  k = *tress_curve_get_key (c, key);
  /* Only the field edited: the others show rounded digits and must keep their values. */
  scale = tress_curve_view_get_display_scale (self->view, curve);
  if (spin == self->panel_spin[0])
    k.frame = gtk_spin_button_get_value (spin);
  else if (spin == self->panel_spin[1])
    k.value = gtk_spin_button_get_value (spin) / scale;
  else if (spin == self->panel_spin[2])
    k.in_slope = gtk_spin_button_get_value (spin) / scale;
  else
    k.out_slope = gtk_spin_button_get_value (spin) / scale;
  if (c->limits.tied_tangents)
    {
      if (spin == self->panel_spin[3])
        k.in_slope = k.out_slope;
      else
        k.out_slope = k.in_slope;
    }
  if (!tress_curve_view_set_key (self->view, curve, key, &k, &error))
    update_key_panel (self);
}

static void
on_panel_interp (GtkDropDown *dd, GParamSpec *pspec, TressCurveEditor *self)
{
  guint sel = gtk_drop_down_get_selected (dd);

  if (self->syncing || sel >= G_N_ELEMENTS (interp_names) - 1)
    return;
  gtk_widget_activate_action (GTK_WIDGET (self->view), "curve.set-interpolation", "s",
                              interp_names[sel]);
  update_key_panel (self);
}

/* ------------------------------------------------------------ toolbar -- */

/* The menu's tolerance: 0 (shown "auto", the default) leaves each curve its
 * own precision, half the step its values are stored in. */
static void
on_tolerance (GtkSpinButton *spin, TressCurveEditor *self)
{
  double t = gtk_spin_button_get_value (spin);

  g_object_set (self->view, "tolerance", t > 0 ? t : -1.0, NULL);
}

static void update_summary (TressCurveEditor *self);

/* The status line says what Up moves a key by, in the unit the first shown
 * curve is shown in. */
static void
update_nudge_label (TressCurveEditor *self)
{
  double step = tress_curve_view_get_nudge_step (self->view), scale = 1;
  gboolean normalized = FALSE;

  g_object_get (self->view, "normalized", &normalized, NULL);
  if (!normalized && tress_curve_view_get_n_curves (self->view) > 0)
    scale = tress_curve_view_get_display_scale (self->view,
                                                tress_curve_view_get_curve_index (self->view, 0));
  g_free (self->nudge_text);
  /* TRANSLATORS: in the status line: what Up and Down move keys by, e.g. "nudge 0.5°" */
  self->nudge_text = g_strdup_printf (_ ("nudge %.3g%s"), step, unit_sign (scale));
  update_summary (self);
}

static void
on_nudge_spin (GtkSpinButton *spin, TressCurveEditor *self)
{
  tress_curve_view_set_nudge_step (self->view, gtk_spin_button_get_value (spin));
}

static gboolean
on_tolerance_output (GtkSpinButton *spin, TressCurveEditor *self)
{
  if (gtk_spin_button_get_value (spin) > 0)
    return FALSE;
  /* TRANSLATORS: the tolerance of the quantization warning when it is each curve's own step */
  gtk_editable_set_text (GTK_EDITABLE (spin), _ ("auto"));
  return TRUE;
}

static int
on_tolerance_input (GtkSpinButton *spin, double *value, TressCurveEditor *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (spin));

  if (g_strcmp0 (text, _ ("auto")) != 0 && g_ascii_strcasecmp (text, "auto") != 0)
    return FALSE;
  *value = 0;
  return TRUE;
}

/* --------------------------------------------------------- view events -- */

/* The status line's permanent part: how many curves are shown, keys selected. */
static void
update_summary (TressCurveEditor *self)
{
  guint n = tress_curve_view_get_n_curves (self->view);
  guint k = tress_curve_view_get_n_selected_keys (self->view);
  g_autofree char *curves = g_strdup_printf (ngettext ("%u curve", "%u curves", n), n);
  g_autofree char *keys
      = k == 0 ? g_strdup (_ ("no key selected"))
               : g_strdup_printf (ngettext ("%u key selected", "%u keys selected", k), k);
  /* TRANSLATORS: "4464 curves · 12 keys selected" */
  g_autofree char *text = g_strdup_printf (_ ("%s · %s"), curves, keys);

  /* The active key's stored value while no message or warning needs the room. */
  if (self->stored_text != NULL && !gtk_widget_get_visible (self->message_box)
      && !gtk_widget_get_visible (self->warning_box))
    {
      /* TRANSLATORS: "6 curves · 1 key selected" and the active key's stored value */
      char *t = g_strdup_printf (_ ("%s · %s"), text, self->stored_text);

      g_free (text);
      text = t;
    }
  if (self->nudge_text != NULL)
    {
      /* TRANSLATORS: "6 curves · 1 key selected" and "nudge 0.5°" */
      char *t = g_strdup_printf (_ ("%s · %s"), text, self->nudge_text);

      g_free (text);
      text = t;
    }

  gtk_label_set_text (self->summary_label, text);
}

/* The key table lists the curve it should and selects the active key's row. */
static void
sync_key_table (TressCurveEditor *self)
{
  guint curve = 0, key = 0;
  gboolean active = tress_curve_view_get_active_key (self->view, &curve, &key);

  /* A key clicked (or stepped to) takes the table to its curve. */
  if (active
      && (!self->had_active || curve != self->last_active_curve || key != self->last_active_key))
    self->table_follows_channels = FALSE;
  self->had_active = active;
  self->last_active_curve = curve;
  self->last_active_key = key;
  if (wanted_table_curve (self) != self->table_curve)
    rebuild_key_rows (self);
  else
    {
      self->syncing = TRUE;
      if (active && (int)curve == self->table_curve)
        {
          gtk_single_selection_set_selected (self->key_selection, key);
          scroll_table_to (self, key);
        }
      else
        gtk_single_selection_set_selected (self->key_selection, GTK_INVALID_LIST_POSITION);
      self->syncing = FALSE;
    }
}

static void
refresh_selection (TressCurveEditor *self)
{
  sync_key_table (self);
  update_key_panel (self);
  update_summary (self);
}

/* Whether the key table lists what it would list if made again: the same
 * version of the same curve, in the same units. A new set of curves shown
 * that keeps the table's curve keeps its rows (and their widgets). */
static gboolean
key_rows_current (TressCurveEditor *self)
{
  int want = wanted_table_curve (self);
  const TressCurve *c
      = want >= 0 ? tress_curve_view_get_shown_curve (self->view, (guint)want) : NULL;

  return want == self->table_curve && c == self->table_source
         && (want < 0
             || tress_curve_view_get_display_scale (self->view, (guint)want) == self->table_scale);
}

static void
refresh_curves (TressCurveEditor *self)
{
  if (key_rows_current (self))
    sync_key_table (self);
  else
    rebuild_key_rows (self);
  update_key_panel (self);
  update_summary (self);
  update_timeline (self);
  update_fps (self);
  update_warning (self);
  tress_curve_channel_list_update (self->channel_list);
}

/* Brings the panels up to date with the graph now. */
static void
flush_refresh (TressCurveEditor *self)
{
  guint dirty = self->dirty;

  g_clear_handle_id (&self->refresh_id, g_source_remove);
  if (self->refresh_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->refresh_tick);
  self->refresh_tick = 0;
  self->dirty = 0;
  if (dirty & DIRTY_CURVES)
    refresh_curves (self);
}

static gboolean
refresh_idle (gpointer data)
{
  TressCurveEditor *self = data;

  self->refresh_id = 0;
  flush_refresh (self);
  return G_SOURCE_REMOVE;
}

static gboolean
refresh_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  TressCurveEditor *self = TRESS_CURVE_EDITOR (widget);

  self->refresh_tick = 0;
  flush_refresh (self);
  return G_SOURCE_REMOVE;
}

/* Once, before the next frame is laid out and drawn: at the frame clock's
 * update phase when the editor is on screen (an idle could wait behind a
 * stream of events), else when the main loop is idle. */
static void
queue_refresh (TressCurveEditor *self, Dirty what)
{
  self->dirty |= what;
  if (self->refresh_tick != 0 || self->refresh_id != 0)
    return;
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    self->refresh_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), refresh_tick, NULL, NULL);
  else
    self->refresh_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, refresh_idle, self, NULL);
}

static void
on_channels_selected (TressCurveChannelList *list, TressCurveEditor *self)
{
  self->table_follows_channels = TRUE;
  if (wanted_table_curve (self) != self->table_curve)
    rebuild_key_rows (self);
}

/* The key table and the key panel follow at once (they cost one curve's keys);
 * what covers every shown curve follows before the next frame. */
static void
on_view_selection (TressCurveView *view, TressCurveEditor *self)
{
  refresh_selection (self);
}

static void
on_curve_changed (TressCurveDocument *document, guint index, TressCurveEditor *self)
{
  if ((int)index == self->table_curve)
    {
      rebuild_key_rows (self);
      update_key_panel (self);
    }
}

static void
on_view_curves (TressCurveView *view, TressCurveEditor *self)
{
  queue_refresh (self, DIRTY_CURVES);
  tell_comparison (self);
}

/* -------------------------------------------------------------- layout -- */

#define CURVE_EDITOR_SCHEMA "io.github.tress.Tress.CurveEditor"

static GSettings *
settings_new_if_installed (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema
      = source != NULL ? g_settings_schema_source_lookup (source, CURVE_EDITOR_SCHEMA, TRUE) : NULL;

  return schema != NULL ? g_settings_new_full (schema, NULL, NULL) : NULL;
}

/* The keys pane's height is kept rather than the divider's position, so the
 * graph, not the table, gets what a taller window adds. */
static void
on_keys_paned_allocated (GtkPaned *paned, GParamSpec *pspec, TressCurveEditor *self)
{
  int max = 0;

  g_object_get (paned, "max-position", &max, NULL);
  if (self->keys_height_set || max <= 0)
    return;
  self->keys_height_set = TRUE;
  /* At most half of it: the graph keeps most of the editor. */
  gtk_paned_set_position (paned, max - MIN (self->keys_height, max / 2));
}

static void
on_keys_paned_moved (GtkPaned *paned, GParamSpec *pspec, TressCurveEditor *self)
{
  int max = 0, height;

  g_object_get (paned, "max-position", &max, NULL);
  if (!self->keys_height_set || max <= 0 || !gtk_widget_get_visible (self->key_pane))
    return;
  height = MAX (max - gtk_paned_get_position (paned), 0);
  if (height == self->keys_height)
    return;
  self->keys_height = height;
  if (self->settings != NULL)
    g_settings_set_int (self->settings, "keys-pane-height", height);
}

static void
on_keys_toggled (GtkToggleButton *button, TressCurveEditor *self)
{
  gboolean show = gtk_toggle_button_get_active (button);

  gtk_widget_set_visible (self->key_pane, show);
  if (self->settings != NULL)
    g_settings_set_boolean (self->settings, "keys-pane-visible", show);
}

static void
restore_layout (TressCurveEditor *self)
{
  self->keys_height = 160;
  if (self->settings == NULL)
    return;
  self->keys_height = g_settings_get_int (self->settings, "keys-pane-height");
  g_object_set (self->view, "default-fps", g_settings_get_double (self->settings, "default-fps"),
                NULL);
  gtk_toggle_button_set_active (self->keys_toggle,
                                g_settings_get_boolean (self->settings, "keys-pane-visible"));
  gtk_widget_set_visible (self->key_pane, gtk_toggle_button_get_active (self->keys_toggle));
  gtk_paned_set_position (GTK_PANED (self->paned),
                          g_settings_get_int (self->settings, "sidebar-width"));
  g_settings_bind (self->settings, "sidebar-width", self->paned, "position", G_SETTINGS_BIND_SET);
}

void
tress_curve_editor_set_preview (TressCurveEditor *self, GtkWidget *preview)
{
  g_return_if_fail (TRESS_IS_CURVE_EDITOR (self));
  g_return_if_fail (preview == NULL || GTK_IS_WIDGET (preview));
  gtk_paned_set_end_child (self->preview_paned, preview);
  if (preview != NULL)
    {
      int width = gtk_widget_get_width (GTK_WIDGET (self->preview_paned));

      gtk_paned_set_shrink_end_child (self->preview_paned, FALSE);
      /* Side by side, the graph keeping the larger share. */
      if (width > 0)
        gtk_paned_set_position (self->preview_paned, width * 3 / 5);
    }
}

GtkWidget *
tress_curve_editor_get_preview (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), NULL);
  return gtk_paned_get_end_child (self->preview_paned);
}

/* ------------------------------------------------------------- public -- */

TressCurveView *
tress_curve_editor_get_view (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), NULL);
  return self->view;
}

TressCurveDocument *
tress_curve_editor_get_document (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), NULL);
  return self->document;
}

TressCurveChannelList *
tress_curve_editor_get_channel_list (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), NULL);
  flush_refresh (self);
  return self->channel_list;
}

GtkSelectionModel *
tress_curve_editor_get_tree_selection (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), NULL);
  return GTK_SELECTION_MODEL (self->tree_selection);
}

void
tress_curve_editor_set_filter (TressCurveEditor *self, const char *text)
{
  g_return_if_fail (TRESS_IS_CURVE_EDITOR (self));
  g_free (self->filter_text);
  self->filter_text = text != NULL && text[0] != '\0' ? g_utf8_casefold (text, -1) : NULL;
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->filter_entry)), text ? text : "") != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), text ? text : "");
  update_filter_hits (self);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  /* The results start at the top (and are drawn: the list would otherwise keep
   * an offset past the end of a shorter list and show nothing). */
  if (g_list_model_get_n_items (G_LIST_MODEL (self->filtered)) > 0)
    for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self->tree_view)); c != NULL;
         c = gtk_widget_get_next_sibling (c))
      if (GTK_IS_LIST_VIEW (c))
        gtk_widget_activate_action (c, "list.scroll-to-item", "u", 0);
  /* The graph shows what the selected rows hold under the new filter (and
   * keeps what it shows when none of them is left). */
  {
    g_autoptr (GtkBitset) set
        = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->tree_selection));

    if (!gtk_bitset_is_empty (set))
      show_selected_curves (self);
  }
}

GListModel *
tress_curve_editor_get_key_rows (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), NULL);
  flush_refresh (self);
  return G_LIST_MODEL (self->key_rows);
}

int
tress_curve_editor_get_table_curve (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), -1);
  flush_refresh (self);
  return self->table_curve;
}

const char *
tress_curve_editor_get_timeline_text (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), NULL);
  flush_refresh (self);
  return self->timeline_text;
}

const char *
tress_curve_editor_get_key_panel_text (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), NULL);
  flush_refresh (self);
  return self->panel_text;
}

const char *
tress_curve_editor_get_message (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), NULL);
  return gtk_label_get_text (self->message_label);
}

const char *
tress_curve_editor_get_notes (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), NULL);
  flush_refresh (self);
  return self->notes;
}

const char *
tress_curve_editor_get_warning (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), NULL);
  flush_refresh (self);
  return self->warning;
}

static void
tress_curve_editor_dispose (GObject *object)
{
  TressCurveEditor *self = TRESS_CURVE_EDITOR (object);

  g_clear_handle_id (&self->refresh_id, g_source_remove);
  if (self->compare_cancel != NULL)
    g_cancellable_cancel (self->compare_cancel);
  g_clear_object (&self->compare_cancel);
  if (self->refresh_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->refresh_tick);
  self->refresh_tick = 0;
  if (self->view != NULL)
    g_signal_handlers_disconnect_by_data (self->view, self);
  if (self->channel_list != NULL)
    g_signal_handlers_disconnect_by_data (self->channel_list, self);
  if (self->tree_selection != NULL)
    g_signal_handlers_disconnect_by_data (self->tree_selection, self);
  if (self->filtered != NULL)
    g_signal_handlers_disconnect_by_data (self->filtered, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), TRESS_TYPE_CURVE_EDITOR);
  g_clear_object (&self->tree_selection);
  g_clear_object (&self->filtered);
  g_clear_object (&self->filter);
  g_clear_object (&self->tree_model);
  g_clear_object (&self->key_selection);
  g_clear_object (&self->key_rows);
  g_clear_object (&self->warning_items);
  g_clear_object (&self->notes_items);
  g_clear_object (&self->settings);
  g_clear_object (&self->document);
  G_OBJECT_CLASS (tress_curve_editor_parent_class)->dispose (object);
}

static void
tress_curve_editor_finalize (GObject *object)
{
  TressCurveEditor *self = TRESS_CURVE_EDITOR (object);

  g_free (self->filter_text);
  g_free (self->compare_name);
  g_clear_pointer (&self->filter_hits, g_array_unref);
  g_free (self->warning);
  g_free (self->notes);
  g_free (self->timeline_text);
  g_free (self->panel_text);
  g_free (self->stored_text);
  g_free (self->nudge_text);
  G_OBJECT_CLASS (tress_curve_editor_parent_class)->finalize (object);
}

static void
tress_curve_editor_class_init (TressCurveEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tress_curve_editor_dispose;
  object_class->finalize = tress_curve_editor_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_install_action (widget_class, "curves.widen-types", NULL, act_widen_types);
  gtk_widget_class_install_action (widget_class, "curves.lengthen-animation", NULL, act_lengthen);
  gtk_widget_class_install_action (widget_class, "curves.compare-with", NULL, act_compare_with);
  gtk_widget_class_install_action (widget_class, "curves.compare-with-file", "s",
                                   act_compare_with_file);
  gtk_widget_class_install_action (widget_class, "curves.compare-with-saved", NULL,
                                   act_compare_with_saved);
  gtk_widget_class_install_action (widget_class, "curves.stop-comparing", NULL, act_stop_comparing);
  gtk_widget_class_install_action (widget_class, "curves.widen-frames", NULL, act_widen_frames);
  gtk_widget_class_install_action (widget_class, "curves.widen-key-type", NULL, act_widen_active);
  gtk_widget_class_install_action (widget_class, "curves.unwrap-angles", NULL, act_unwrap);
  add_editor_shortcuts (widget_class);
  gtk_widget_class_set_css_name (widget_class, "curveeditor");

  g_type_ensure (TRESS_TYPE_CURVE_VIEW);
  g_type_ensure (TRESS_TYPE_CURVE_CHANNEL_LIST);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tress/Tress/tress-curve-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, paned);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, keys_paned);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, preview_paned);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, key_pane);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, keys_toggle);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, status);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, summary_label);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, filter_entry);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, tree_view);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, message_box);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, message_label);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, lengthen_button);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, widen_frames_button);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, notes_label);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, notes_box);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, notes_details);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, warning_details);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, warning_box);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, warning_label);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, widen_button);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, nudge_spin);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, channel_list);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, view);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, timeline_scale);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, play_button);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, frame_spin);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, fps_spin);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, table_title);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, curve_interp_box);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, curve_interp);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, timeline_adj);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, timeline_label);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, key_view);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, panel_title);
  gtk_widget_class_bind_template_child_full (widget_class, "panel_frame", FALSE,
                                             G_STRUCT_OFFSET (TressCurveEditor, panel_spin[0]));
  gtk_widget_class_bind_template_child_full (widget_class, "panel_value", FALSE,
                                             G_STRUCT_OFFSET (TressCurveEditor, panel_spin[1]));
  gtk_widget_class_bind_template_child_full (widget_class, "panel_in", FALSE,
                                             G_STRUCT_OFFSET (TressCurveEditor, panel_spin[2]));
  gtk_widget_class_bind_template_child_full (widget_class, "panel_out", FALSE,
                                             G_STRUCT_OFFSET (TressCurveEditor, panel_spin[3]));
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, panel_interp);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, panel_stored);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, panel_widen);
  gtk_widget_class_bind_template_callback (widget_class, on_filter_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_tolerance);
  gtk_widget_class_bind_template_callback (widget_class, on_nudge_spin);
  gtk_widget_class_bind_template_callback (widget_class, on_tolerance_output);
  gtk_widget_class_bind_template_callback (widget_class, on_tolerance_input);
  gtk_widget_class_bind_template_callback (widget_class, on_timeline_value);
  gtk_widget_class_bind_template_callback (widget_class, on_panel_spin);
  gtk_widget_class_bind_template_callback (widget_class, on_panel_interp);
  gtk_widget_class_bind_template_callback (widget_class, on_warning_details_show);
  gtk_widget_class_bind_template_callback (widget_class, on_keys_paned_allocated);
  gtk_widget_class_bind_template_callback (widget_class, on_keys_paned_moved);
  gtk_widget_class_bind_template_callback (widget_class, on_keys_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_frame_spin);
  gtk_widget_class_bind_template_callback (widget_class, on_fps_spin);
  gtk_widget_class_bind_template_callback (widget_class, on_curve_interp);
}

static void
tress_curve_editor_init (TressCurveEditor *self)
{
  self->table_curve = -1;
  self->tree_anchor = -1;
  gtk_widget_init_template (GTK_WIDGET (self));
  self->warning_items = gtk_string_list_new (NULL);
  self->notes_items = gtk_string_list_new (NULL);
  install_forwarding (self);
  setup_key_table (self);
  /* The wheel over the key panel's and the key table's fields scrolls them,
   * as a user scrolling down the panel expects, and edits nothing. */
  tress_scroll_guard_install (self->key_pane);
  self->settings = settings_new_if_installed ();
  restore_layout (self);
}

/* Shows @items (strings) in the list of the popover of @button (a "Details" button). */
static void
set_details_model (GtkWidget *button, GtkStringList *items)
{
  GtkPopover *popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (button));
  GtkWidget *scrolled = gtk_popover_get_child (popover);
  GtkWidget *list = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scrolled));

  if (GTK_IS_VIEWPORT (list))
    list = gtk_viewport_get_child (GTK_VIEWPORT (list));
  gtk_list_view_set_model (GTK_LIST_VIEW (list), GTK_SELECTION_MODEL (gtk_no_selection_new (
                                                     g_object_ref (G_LIST_MODEL (items)))));
}

GtkWidget *
tress_curve_editor_new (TressDocument *document)
{
  TressCurveEditor *self;

  if (!TRESS_IS_CURVE_DOCUMENT (document))
    return NULL;
  self = g_object_new (TRESS_TYPE_CURVE_EDITOR, NULL);
  self->document = g_object_ref (TRESS_CURVE_DOCUMENT (document));
  tress_curve_view_set_document (self->view, self->document);
  setup_tree (self);
  setup_tree_columns (self);

  g_signal_connect (self->view, "selection-changed", G_CALLBACK (on_view_selection), self);
  tress_curve_channel_list_set_view (self->channel_list, self->view);
  g_signal_connect (self->channel_list, "selection-changed", G_CALLBACK (on_channels_selected),
                    self);
  g_signal_connect_object (self->document, "curve-changed", G_CALLBACK (on_curve_changed), self,
                           G_CONNECT_AFTER);
  g_signal_connect (self->view, "curves-changed", G_CALLBACK (on_view_curves), self);
  g_signal_connect (self->view, "notify::playhead", G_CALLBACK (on_playhead), self);
  /* The values at the playhead follow a drag while it goes on. */
  g_signal_connect_swapped (self->view, "drag-update", G_CALLBACK (update_timeline), self);
  g_signal_connect (self->view, "notify::playing", G_CALLBACK (on_playing), self);
  g_signal_connect (self->view, "notify::message", G_CALLBACK (on_message), self);
  g_signal_connect (self->view, "notify::drag-error", G_CALLBACK (on_drag_error), self);
  g_signal_connect_swapped (self->view, "notify::tolerance", G_CALLBACK (update_warning), self);
  g_signal_connect_swapped (self->view, "notify::nudge-step", G_CALLBACK (update_nudge_label),
                            self);
  g_signal_connect_swapped (self->view, "notify::degrees", G_CALLBACK (update_nudge_label), self);
  g_signal_connect_swapped (self->view, "notify::normalized", G_CALLBACK (update_nudge_label),
                            self);
  g_signal_connect_swapped (self->view, "curves-changed", G_CALLBACK (update_nudge_label), self);
  update_nudge_label (self);

  set_details_model (self->warning_details, self->warning_items);
  set_details_model (self->notes_details, self->notes_items);
  /* The animation on its model, for formats with scenes. */
  if (tress_scene_pane_supports (document))
    {
      GtkWidget *pane = tress_scene_pane_new (self->document, self->view,
                                              GTK_SELECTION_MODEL (self->tree_selection));

      tress_scene_pane_set_tree_view (TRESS_SCENE_PANE (pane), GTK_WIDGET (self->tree_view));
      tress_curve_editor_set_preview (self, pane);
    }
  select_first_group (self);
  queue_refresh (self, DIRTY_CURVES);
  flush_refresh (self);
  return GTK_WIDGET (self);
}

void
tress_curve_editor_register (void)
{
  tress_curve_document_register_types ();
  tress_editor_register ("bfres", tress_curve_editor_new);
  tress_editor_register ("niff", tress_curve_editor_new);
}
