/* tress-curve-document-private.h: the curve document's state, shared by its
 * file (curves, edits, undo) and its tree's (tress-curve-document-tree.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-curve-document.h"
#include "tress-play-range.h"

G_BEGIN_DECLS

struct _TressCurveDocument
{
  TressDocument parent_instance;
  /* TressCurve, one per model curve, NULL until built; with the format's
   * peek_curve a curve is NULL until first asked for (decoded then). */
  GPtrArray *curves;
  GArray *quant_error; /* double, per curve (set when the curve is decoded) */
  /* Curves an edit reached through shared storage while a group of edits was
   * open or a step was replayed: read again once, when the group settles or
   * when first asked for (settle), not once per edited sibling. */
  GArray *stale;      /* guint8 per curve */
  GArray *stale_list; /* guint: the curves marked in stale */
  GListStore *roots;
  /* Per curve index, borrowed from the tree: its row (NULL until its group's
   * children are made), and the group holding it (NULL at the top). */
  GPtrArray *leaves;
  GPtrArray *leaf_groups;
  TressCurveSkeleton *skeleton; /* how the nodes the curves move nest, or NULL */
  TressPlayRanges *play_ranges;
  gboolean tree_built; /* the tree is built when first asked for (get_roots) */
  guint n_tree_builds;
};

/* The format's curve operations, or NULL. */
const TressCurveOps *_tress_curve_document_ops (TressCurveDocument *self);
/* (Re)builds the tree of every curve into the document's roots. */
void _tress_curve_document_build_tree (TressCurveDocument *self);
/* Cuts the back pointers of every row in @list and below: rows may outlive
 * the document (or its old tree) in a view's model. */
void _tress_curve_document_detach_all (GListModel *list);

G_END_DECLS
