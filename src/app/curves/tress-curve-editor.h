/* tress-curve-editor.h: the curve editor of BFRES and NIFF documents
 *
 * The curves tree (GtkColumnView over a GtkTreeListModel, with a filter entry;
 * selecting rows shows their curves in the graph) above the shown curves, a
 * toolbar, the graph (TressCurveView) with its transport (playhead with the
 * values of the shown curves, play / pause / loop, previous / next key) and a
 * slot for a 3D preview beside it, the keys pane below (the editable key table
 * and the active key panel; collapsible, its height kept in GSettings), and a
 * status line of fixed height for the format's messages (refusals, remarks,
 * quantization error above the tolerance), all kept in step with the graph.
 * The layout is in ui/tress-curve-editor.ui; at the default window size the
 * graph has at least half of the editor's height. However many curves are
 * shown, every panel keeps its size: a message about many curves is one line
 * with a count and a "Details" list, the timeline names a few curves and counts
 * the rest, and what covers every shown curve is brought up to date once
 * before the next frame rather than once per changed curve.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/tress-curve-document.h"
#include "tress-curve-channel-list.h"
#include "tress-curve-view.h"
#include "tress-dope-sheet.h"

G_BEGIN_DECLS

#define TRESS_TYPE_CURVE_EDITOR (tress_curve_editor_get_type ())
G_DECLARE_FINAL_TYPE (TressCurveEditor, tress_curve_editor, TRESS, CURVE_EDITOR, GtkWidget)

/* A TressEditorCreateFunc: NULL unless @document is a TressCurveDocument. */
GtkWidget *tress_curve_editor_new (TressDocument *document);
/* Registers the curve document type and this editor for "bfres" and "niff". */
void tress_curve_editor_register (void);

TressCurveView *tress_curve_editor_get_view (TressCurveEditor *self);
/* The dope sheet that takes the graph's place while its toggle is on (kept
 * in the settings' "dope-sheet-visible"). */
TressDopeSheet *tress_curve_editor_get_dope_sheet (TressCurveEditor *self);
gboolean tress_curve_editor_get_dope_sheet_shown (TressCurveEditor *self);
void tress_curve_editor_set_dope_sheet_shown (TressCurveEditor *self, gboolean shown);
TressCurveDocument *tress_curve_editor_get_document (TressCurveEditor *self);
/* The list of the shown curves beside the graph. */
TressCurveChannelList *tress_curve_editor_get_channel_list (TressCurveEditor *self);
/* The curves tree's rows (GtkTreeListRow of TressCurveNode, filtered) and selection. */
GtkSelectionModel *tress_curve_editor_get_tree_selection (TressCurveEditor *self);
void tress_curve_editor_set_filter (TressCurveEditor *self, const char *text);
/* Selects tree row @position as a click does: alone, toggled with @ctrl, the
 * range from the anchor (the row clicked last without Shift) with @shift. */
void tress_curve_editor_click_row (TressCurveEditor *self, guint position, gboolean ctrl,
                                   gboolean shift);
/* Rows of the key table (TressCurveKeyRow, one per key of the table's curve). */
GListModel *tress_curve_editor_get_key_rows (TressCurveEditor *self);
/* The curve the key table lists, or -1. */
int tress_curve_editor_get_table_curve (TressCurveEditor *self);
/* Edits a cell of the key table as typing into it does: @column is "frame",
 * "value", "in", "out" or "interpolation". */
gboolean tress_curve_editor_edit_cell (TressCurveEditor *self, guint row, const char *column,
                                       const char *text, GError **error);
/* The texts the timeline and the key panel show. */
const char *tress_curve_editor_get_timeline_text (TressCurveEditor *self);
const char *tress_curve_editor_get_key_panel_text (TressCurveEditor *self);
/* The formats' remarks on the shown curves (e.g. an easing drawn as an assumption), or NULL. */
const char *tress_curve_editor_get_notes (TressCurveEditor *self);
/* The message in the status line ("" when none). */
const char *tress_curve_editor_get_message (TressCurveEditor *self);
/* Shows @text in the status line's message: a refusal (@error, in the
 * error style) or what an operation did. */
void tress_curve_editor_show_message (TressCurveEditor *self, const char *text, gboolean error);
/* The quantization warning shown (NULL when every shown curve is within the tolerance). */
const char *tress_curve_editor_get_warning (TressCurveEditor *self);

/* "Compare with…" (actions curves.compare-with: a file chooser;
 * curves.compare-with-file "s": a path; curves.compare-with-saved: the
 * document's file as saved; curves.stop-comparing): the other file's curves of
 * the same kind and path are drawn as ghosts behind the shown ones
 * (tress_curve_view_set_ghost). The file is read and parsed in a thread. The
 * name of the file compared with, or NULL. */
const char *tress_curve_editor_get_compare_name (TressCurveEditor *self);

/* The slot beside the graph for a view of the animation (a 3D preview of the
 * model the shown curves move): @preview (NULL takes it away) is shown to the
 * right of the graph, above the transport row and the keys pane, in a
 * resizable split that gives the graph three fifths of the width to start with
 * and never less than 300 pixels. The preview follows the graph's playhead
 * through the view ("playhead", "playing"). */
void tress_curve_editor_set_preview (TressCurveEditor *self, GtkWidget *preview);
GtkWidget *tress_curve_editor_get_preview (TressCurveEditor *self);

#define TRESS_TYPE_CURVE_KEY_ROW (tress_curve_key_row_get_type ())
G_DECLARE_FINAL_TYPE (TressCurveKeyRow, tress_curve_key_row, TRESS, CURVE_KEY_ROW, GObject)

guint tress_curve_key_row_get_key (TressCurveKeyRow *self);
/* Cell text of @column as the table shows it. */
char *tress_curve_key_row_dup_text (TressCurveKeyRow *self, const char *column);

G_END_DECLS
