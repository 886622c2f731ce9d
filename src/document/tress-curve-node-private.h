/* tress-curve-node-private.h: the curves tree's rows, for the document
 * that builds them (tress-curve-document.c) and their own file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-curve-document.h"

G_BEGIN_DECLS

struct _TressCurveNode
{
  GObject parent_instance;
  char *name;
  int curve_index;
  GListStore *children;         /* NULL for a curve */
  GArray *curve_indices;        /* a group's curves (guint), in tree order: set when built */
  TressCurveDocument *document; /* weak: the document owns the tree */
  TressCurveNode *parent;       /* weak: the group whose children hold it, or NULL */
  guint revision;
  gboolean nested;      /* the group of a skeleton's node, nested under its parent's */
  gboolean placeholder; /* such a group made for an ancestor before its own curves came */
};

/* A group (@curve_index < 0: with children) or a curve's row of @document. */
TressCurveNode *_tress_curve_node_new (TressCurveDocument *document, const char *name,
                                       int curve_index);
/* Tells the rows showing it that the curve (or one below) changed. */
void _tress_curve_node_bump (TressCurveNode *self);
/* Sets the curve lists of @node and every group below it (after the tree is built). */
void _tress_curve_node_fill_curve_indices (TressCurveNode *node);
/* Curve @index's key count, without decoding it where the format can tell. */
guint _tress_curve_document_n_keys (TressCurveDocument *self, guint index);

G_END_DECLS
