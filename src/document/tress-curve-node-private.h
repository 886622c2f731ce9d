/* tress-curve-node-private.h: the curves tree's rows, for the document
 * that builds them (tress-curve-document-tree.c) and their own file
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
  GListStore *children; /* NULL for a curve */
  /* A group's children until they are first asked for (then made into
   * @children and freed): TressCurveNodeEntry, in tree order. Opening a file
   * of thousands of curves makes no row for a curve no one looked at. */
  GArray *entries;
  /* A group not split yet into its children: its curves (guint, in index
   * order), whose levels from @depth on make the rows below it. */
  GArray *pending;
  guint depth;
  GString *names;               /* the names of the curves among @entries, each ending in NUL */
  GArray *curve_indices;        /* a group's curves (guint), in tree order: set when built */
  TressCurveDocument *document; /* weak: the document owns the tree */
  TressCurveNode *parent;       /* weak: the group whose children hold it, or NULL */
  guint revision;
  gboolean nested;      /* the group of a skeleton's node, nested under its parent's */
  gboolean placeholder; /* such a group made for an ancestor before its own curves came */
};

typedef struct
{
  TressCurveNode *group; /* a child group or a row made already (held); NULL: a curve */
  int curve;
} TressCurveNodeEntry;

/* A group (@curve_index < 0: with children) or a curve's row of @document. */
TressCurveNode *_tress_curve_node_new (TressCurveDocument *document, const char *name,
                                       int curve_index);
/* Appends group @child (or a curve's row made already; @self takes a
 * reference, and becomes its parent),
 * or curve @curve named @name (its row made when the children are first
 * asked for, named then by _tress_curve_document_leaf_name, which gives the
 * same name). */
void _tress_curve_node_add_group (TressCurveNode *self, TressCurveNode *child);
void _tress_curve_node_add_curve (TressCurveNode *self, const char *name, int curve);
/* Each child: @func (the child group, or NULL and the curve's index). */
void _tress_curve_node_foreach_child (TressCurveNode *self,
                                      void (*func) (TressCurveNode *group, int curve,
                                                    gpointer data),
                                      gpointer data);
/* Splits @group's pending curves into its children (groups, themselves
 * pending, and curve entries); nothing when it has none. */
void _tress_curve_node_split (TressCurveNode *group);
/* Curve @index's path, kind and owner (the decoded curve's, else the peek). */
void _tress_curve_document_peek (TressCurveDocument *document, guint index, TressCurvePeek *out);
/* The deepest group made that holds curve @index. */
void _tress_curve_document_set_leaf_group (TressCurveDocument *document, guint index,
                                           TressCurveNode *group);
/* The name of curve @index's row: the last level of its path. */
const char *_tress_curve_document_leaf_name (TressCurveDocument *document, guint index);
/* The row of a curve of @document made (the group's children made). */
void _tress_curve_document_leaf_made (TressCurveDocument *document, TressCurveNode *leaf);
/* Tells the rows showing it that the curve (or one below) changed. */
void _tress_curve_node_bump (TressCurveNode *self);
/* Sets the curve lists of @node and every group below it (after the tree is built). */
void _tress_curve_node_fill_curve_indices (TressCurveNode *node);
/* Curve @index's key count, without decoding it where the format can tell. */
guint _tress_curve_document_n_keys (TressCurveDocument *self, guint index);

G_END_DECLS
