/* tress-fur-tree-cells.c: the cells and sorters of the fur editor's tree
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-fur-tree-cells.h"

#include <glib/gi18n-lib.h>

#include <stdlib.h>
#include <string.h>

static int
compare_column (gconstpointer a, gconstpointer b, gpointer data)
{
  TressChaColumn column = GPOINTER_TO_INT (data);
  double x = tress_cha_node_get_sort_key ((TressChaNode *)a, column);
  double y = tress_cha_node_get_sort_key ((TressChaNode *)b, column);

  return x < y ? GTK_ORDERING_SMALLER : x > y ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

typedef struct
{
  TressChaColumn column;
} ColumnInfo;

static void
update_cell (GtkListItem *item)
{
  GtkTreeListRow *row = gtk_list_item_get_item (item);
  TressChaNode *node = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
  GtkWidget *child = gtk_list_item_get_child (item);
  TressChaColumn column = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (item), "column"));
  g_autofree char *text = NULL;
  GtkWidget *label;

  if (node == NULL)
    return;
  text = tress_cha_node_get_text (node, column);
  label = GTK_IS_TREE_EXPANDER (child) ? gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child))
                                       : child;
  gtk_label_set_text (GTK_LABEL (label), text);
  /* the whole text, should the column be narrower than it */
  if (column == TRESS_CHA_COLUMN_NAME)
    gtk_widget_set_tooltip_text (label, text);
  g_object_unref (node);
}

static void
on_node_revision (TressChaNode *node, GParamSpec *pspec, GtkListItem *item)
{
  update_cell (item);
}

static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  TressChaColumn column = GPOINTER_TO_INT (data);
  GtkWidget *label = gtk_label_new ("");

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  g_object_set_data (G_OBJECT (item), "column", data);
  if (column == TRESS_CHA_COLUMN_NAME)
    {
      GtkWidget *expander = gtk_tree_expander_new ();

      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
      gtk_list_item_set_child (item, expander);
    }
  else
    gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkTreeListRow *row = gtk_list_item_get_item (item);
  GtkWidget *child = gtk_list_item_get_child (item);
  TressChaNode *node = gtk_tree_list_row_get_item (row);

  if (GTK_IS_TREE_EXPANDER (child))
    gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), row);
  g_signal_connect (node, "notify::revision", G_CALLBACK (on_node_revision), item);
  g_object_set_data_full (G_OBJECT (item), "node", node, g_object_unref);
  update_cell (item);
}

static gboolean
release_row (gpointer row)
{
  g_object_unref (row);
  return G_SOURCE_REMOVE;
}

static void
unbind_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  TressChaNode *node = g_object_get_data (G_OBJECT (item), "node");
  GtkWidget *child = gtk_list_item_get_child (item);

  if (node != NULL)
    g_signal_handlers_disconnect_by_func (node, on_node_revision, item);
  g_object_set_data (G_OBJECT (item), "node", NULL);
  if (GTK_IS_TREE_EXPANDER (child))
    {
      GtkTreeListRow *row = gtk_tree_expander_get_list_row (GTK_TREE_EXPANDER (child));

      /* A row whose expander was just clicked may be unbound while GTK 4.8
       * expands it (the rows shift), and it notifies "expanded" after that:
       * it must outlive the click, not only this binding. */
      if (row != NULL)
        g_idle_add_full (G_PRIORITY_DEFAULT, release_row, g_object_ref (row), NULL);
      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), NULL);
    }
}

void
tress_fur_tree_add_column (GtkColumnView *view, const char *title, TressChaColumn column,
                           gboolean expand)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *col;
  GtkSorter *sorter;

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GINT_TO_POINTER (column));
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cell), GINT_TO_POINTER (column));
  col = gtk_column_view_column_new (title, factory);
  sorter = GTK_SORTER (gtk_custom_sorter_new (compare_column, GINT_TO_POINTER (column), NULL));
  gtk_column_view_column_set_sorter (col, sorter);
  g_object_unref (sorter);
  gtk_column_view_column_set_expand (col, expand);
  /* The names whole at the tree's default width; the other columns past them. */
  if (column == TRESS_CHA_COLUMN_NAME)
    gtk_column_view_column_set_fixed_width (col, 250);
  gtk_column_view_column_set_resizable (col, TRUE);
  gtk_column_view_append_column (view, col);
  g_object_unref (col);
}
