/* tress-curve-hierarchy.h: the bones (or objects) the curves move, nested
 *
 * A TressCurveSkeleton tells the curves tree of a TressCurveDocument how the
 * nodes its curves move hang together: per node its name and parent, per
 * curve the node it moves (−1: none). With one, the tree nests the group of
 * each node's curves (the level of the curve's path that names the node:
 * "Fly/Spine_2/Rotate Z" → "Spine_2") under the group of its parent in the
 * same animation, adding a group for an ancestor with no curves of its own
 * there, so the tree reads like the skeleton. Without one the groups stay
 * side by side (a flat list of bones).
 *
 * GLib only, no GTK.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _TressCurveSkeleton TressCurveSkeleton;

/* Copies @names and @parents (@n_nodes each; a parent out of range counts
 * as none, and a loop of parents is cut where it closes) and @curve_node
 * (@n_curves; an entry out of range counts as −1). */
TressCurveSkeleton *tress_curve_skeleton_new (guint n_nodes, const char *const *names,
                                              const int *parents, guint n_curves,
                                              const int *curve_node);
void tress_curve_skeleton_free (TressCurveSkeleton *skeleton);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressCurveSkeleton, tress_curve_skeleton_free)

/* Whether @a and @b nest the same curves the same way (NULL: none). */
gboolean tress_curve_skeleton_equal (const TressCurveSkeleton *a, const TressCurveSkeleton *b);

guint tress_curve_skeleton_get_n_nodes (const TressCurveSkeleton *skeleton);
guint tress_curve_skeleton_get_n_curves (const TressCurveSkeleton *skeleton);
const char *tress_curve_skeleton_get_name (const TressCurveSkeleton *skeleton, guint node);
/* The parent of @node (loops cut), or −1 for a root. */
int tress_curve_skeleton_get_parent (const TressCurveSkeleton *skeleton, guint node);
/* The node curve @curve moves, or −1. */
int tress_curve_skeleton_get_curve_node (const TressCurveSkeleton *skeleton, guint curve);

/* Which level of curve @curve's path (split at '/' into @parts, @n_parts of
 * them) is the group of its node: the first level before the last that is
 * the node's name, else level 0 when @owner (the object using the curve's
 * group, NIFF) is the node's name; −1 when the path names no node (the curve
 * stays where its path puts it). */
int tress_curve_skeleton_node_level (const TressCurveSkeleton *skeleton, guint curve,
                                     const char *const *parts, guint n_parts, const char *owner);

/* Appends to @out (int) the ancestors of @node, its root first. */
void tress_curve_skeleton_ancestors (const TressCurveSkeleton *skeleton, guint node, GArray *out);

G_END_DECLS
