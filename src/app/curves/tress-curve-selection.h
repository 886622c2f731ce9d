/* tress-curve-selection.h: the selected keys and handles of the shown curves, without GTK
 *
 * Per curve (by document curve index) a sorted set of (key, part), so that
 * asking whether a key is selected, listing one curve's selected keys and
 * replacing them cost O(log k) or O(k) of that curve, never a walk over the
 * whole selection: selecting every key of a whole animation (hundreds of
 * thousands of keys) and then editing or drawing them stays linear.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-curve-geometry.h"

G_BEGIN_DECLS

typedef struct _TressCurveSelection TressCurveSelection;

TressCurveSelection *tress_curve_selection_new (void);
void tress_curve_selection_free (TressCurveSelection *self);
TressCurveSelection *tress_curve_selection_copy (const TressCurveSelection *self);

gboolean tress_curve_selection_contains (const TressCurveSelection *self, guint curve, guint key,
                                         TressCurvePart part);
/* TRUE when the item was not selected before. */
gboolean tress_curve_selection_add (TressCurveSelection *self, guint curve, guint key,
                                    TressCurvePart part);
/* TRUE when the item was selected. */
gboolean tress_curve_selection_remove (TressCurveSelection *self, guint curve, guint key,
                                       TressCurvePart part);
void tress_curve_selection_clear (TressCurveSelection *self);
void tress_curve_selection_clear_curve (TressCurveSelection *self, guint curve);

/* Selected keys (handles not counted), and everything selected. */
guint tress_curve_selection_get_n_keys (const TressCurveSelection *self);
guint tress_curve_selection_get_n_items (const TressCurveSelection *self);
gboolean tress_curve_selection_has_curve (const TressCurveSelection *self, guint curve);

/* The selected keys of @curve (key parts), sorted: a new array of guint. */
GArray *tress_curve_selection_dup_keys (const TressCurveSelection *self, guint curve);
/* Replaces everything selected on @curve by the keys @keys (any order, duplicates allowed). */
void tress_curve_selection_set_keys (TressCurveSelection *self, guint curve, const guint *keys,
                                     guint n_keys);
/* Selects keys [0, n_keys) of @curve, in addition to what it holds. */
void tress_curve_selection_add_range (TressCurveSelection *self, guint curve, guint n_keys);

/* The curves holding selected items, sorted: a new array of guint. */
GArray *tress_curve_selection_dup_curves (const TressCurveSelection *self);

/* Calls @func for every selected item of @curve, in key order. */
typedef void (*TressCurveSelectionFunc) (guint curve, guint key, TressCurvePart part,
                                         gpointer data);
void tress_curve_selection_foreach_of (const TressCurveSelection *self, guint curve,
                                       TressCurveSelectionFunc func, gpointer data);

/* Moves the items of @curve to other keys: @map returns the new key of an old
 * one, or -1 to drop it (items landing on one another merge). */
typedef int (*TressCurveSelectionMap) (guint key, gpointer data);
void tress_curve_selection_remap (TressCurveSelection *self, guint curve,
                                  TressCurveSelectionMap map, gpointer data);

/* Drops the items of @curve that @curve_data no longer holds: keys at or past
 * its key count, and handles the curve no longer has. NULL drops all. */
void tress_curve_selection_prune (TressCurveSelection *self, guint curve,
                                  const TressCurve *curve_data);

/* Drops every curve for which @keep returns FALSE. */
typedef gboolean (*TressCurveSelectionKeep) (guint curve, gpointer data);
void tress_curve_selection_filter_curves (TressCurveSelection *self, TressCurveSelectionKeep keep,
                                          gpointer data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressCurveSelection, tress_curve_selection_free)

G_END_DECLS
