/* tress-curve-editor-tree.c: the curve editor's tree of the document's curves and its filter
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-editor-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

/* ------------------------------------------------------------ the tree -- */

static GListModel *
create_children (gpointer item, gpointer user_data)
{
  GListModel *children = tress_curve_node_get_children (TRESS_CURVE_NODE (item));

  return children != NULL ? g_object_ref (children) : NULL;
}

/* Which curves the filter's text is found in (path or animation kind, case
 * folded): worked out once per text, so the rows only look the answers up. */
void
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

void
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

void
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

static gboolean
update_text_cell_later (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  GtkLabel *label = GTK_LABEL (widget);
  TressCurveNode *node = g_object_get_data (G_OBJECT (label), "tress-node");

  g_object_set_data (G_OBJECT (label), "tress-tick", NULL);
  if (node != NULL)
    update_text_cell (node, NULL, label);
  return G_SOURCE_REMOVE;
}

/* A group's count sums its curves: an edit of thousands of curves bumps it
 * thousands of times, so it is counted again once, before the next frame. */
static void
on_node_revision (TressCurveNode *node, GParamSpec *pspec, GtkLabel *label)
{
  guint id;

  if (g_object_get_data (G_OBJECT (label), "tress-tick") != NULL)
    return;
  if (!gtk_widget_get_realized (GTK_WIDGET (label)))
    {
      update_text_cell (node, pspec, label);
      return;
    }
  id = gtk_widget_add_tick_callback (GTK_WIDGET (label), update_text_cell_later, NULL, NULL);
  g_object_set_data (G_OBJECT (label), "tress-tick", GUINT_TO_POINTER (id));
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
  id = g_signal_connect_object (node, "notify::revision", G_CALLBACK (on_node_revision), label, 0);
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

void
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

void
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
void
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
