/* tress-fur-tree-cells.h: the cells and sorters of the fur editor's tree
 *
 * A column shows one TressChaColumn of the document's nodes (a tree expander
 * in the name column), sorts by it, and follows each node's revision.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/tress-cha-document.h"

G_BEGIN_DECLS

void tress_fur_tree_add_column (GtkColumnView *view, const char *title, TressChaColumn column,
                                gboolean expand);

G_END_DECLS
