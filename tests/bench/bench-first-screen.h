/* bench-first-screen.h: what the editor's curves tree and graph read to show
 * the first screen of a document, for the benchmarks that time an open
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>

#include "document/tress-curve-document.h"

static const char *const bench_columns[] = { "keys", "interpolation", "range", "types", "error" };

/* Every column of @node's row, as the tree's cells ask for them. */
static inline gsize
bench_show_row (TressCurveNode *node)
{
  gsize n = strlen (tress_curve_node_get_name (node));

  for (guint i = 0; i < G_N_ELEMENTS (bench_columns); i++)
    {
      g_autofree char *text = tress_curve_node_dup_column (node, bench_columns[i]);
      n += strlen (text);
    }
  return n;
}

/* The first screen: the top rows, then down the first rows to the first group
 * whose children are curves; those rows shown and those curves drawn. */
static inline gsize
bench_first_screen (TressCurveDocument *doc)
{
  GListModel *roots = tress_curve_document_get_roots (doc);
  GListModel *level = roots;
  gsize seen = 0;

  for (guint i = 0; i < g_list_model_get_n_items (roots); i++)
    {
      g_autoptr (TressCurveNode) node = g_list_model_get_item (roots, i);
      seen += bench_show_row (node);
    }
  while (level != NULL && g_list_model_get_n_items (level) > 0)
    {
      g_autoptr (TressCurveNode) first = g_list_model_get_item (level, 0);
      GListModel *children = tress_curve_node_get_children (first);
      gboolean leaves = FALSE;

      for (guint i = 0; children != NULL && i < MIN (g_list_model_get_n_items (children), 40); i++)
        {
          g_autoptr (TressCurveNode) child = g_list_model_get_item (children, i);
          int index = tress_curve_node_get_curve_index (child);

          seen += bench_show_row (child);
          if (index >= 0)
            {
              const TressCurve *c = tress_curve_document_get_curve (doc, (guint)index);
              leaves = TRUE;
              for (guint k = 0; c != NULL && k < tress_curve_get_n_keys (c); k++)
                seen += tress_curve_get_key (c, k)->frame > 0;
            }
        }
      if (leaves)
        break;
      level = children;
    }
  return seen;
}
