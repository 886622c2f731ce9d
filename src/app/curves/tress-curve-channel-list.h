/* tress-curve-channel-list.h: the shown curves as a list of channels, like Blender's channel region
 *
 * The curves a TressCurveView shows, grouped by their paths (animation, bone,
 * …; the part every shown path shares is left out), each row with its colour,
 * a visibility, a solo and a lock toggle that act on the curve or on every
 * curve of the group. It is a GtkListView over a GtkTreeListModel: the group
 * rows are made when the shown curves change (a pass over them), the rows of
 * a group when it is expanded, and widgets only for the rows in view, so
 * thousands of curves cost no more widgets than a few. Ctrl+click, Shift+click
 * (from the anchor) and Ctrl+A select rows as in any list; a double click or
 * Enter selects every key of the row's curves in the graph.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "tress-curve-view.h"

G_BEGIN_DECLS

#define TRESS_TYPE_CURVE_CHANNEL (tress_curve_channel_get_type ())
G_DECLARE_FINAL_TYPE (TressCurveChannel, tress_curve_channel, TRESS, CURVE_CHANNEL, GObject)

/* A row: a group of channels, or one channel (a curve). */
const char *tress_curve_channel_get_name (TressCurveChannel *self);
/* The document curve index of a channel, or -1 for a group. */
int tress_curve_channel_get_curve (TressCurveChannel *self);
/* Appends to @indices (guint) the document curve indices of the row (a group: all its curves). */
void tress_curve_channel_collect_curves (TressCurveChannel *self, GArray *indices);

#define TRESS_TYPE_CURVE_CHANNEL_LIST (tress_curve_channel_list_get_type ())
G_DECLARE_FINAL_TYPE (TressCurveChannelList, tress_curve_channel_list, TRESS, CURVE_CHANNEL_LIST,
                      GtkWidget)

GtkWidget *tress_curve_channel_list_new (void);
void tress_curve_channel_list_set_view (TressCurveChannelList *self, TressCurveView *view);
/* Follows the view: the rows are made again when other curves are shown, the
 * toggles in view are brought up to date otherwise. */
void tress_curve_channel_list_update (TressCurveChannelList *self);
/* The rows (GtkTreeListRow of TressCurveChannel) and their selection. */
GtkSelectionModel *tress_curve_channel_list_get_selection (TressCurveChannelList *self);
/* The document curve indices of the selected rows, in row order, each once. */
GArray *tress_curve_channel_list_dup_selected_curves (TressCurveChannelList *self);
/* Sets @flag on the curves of row @position, as its toggle does. */
void tress_curve_channel_list_set_row_flag (TressCurveChannelList *self, guint position,
                                            TressCurveFlag flag, gboolean value);
/* Selects every key of the curves of row @position in the graph (a double click). */
void tress_curve_channel_list_activate_row (TressCurveChannelList *self, guint position);

/* Signals: "selection-changed" when the selected rows change. */

G_END_DECLS
