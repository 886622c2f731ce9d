/* tress-dope-sheet.h: the shown curves' keys on rows, beside the graph
 *
 * The curve editor's other face of the graph (as Blender's Dope Sheet is of
 * its Graph Editor): a row for the summary, one per animation, bone or
 * material group and one per channel of the shown curves, named and coloured
 * as the channel list names them, with a mark where a key is (a group row:
 * where any of its curves has one). It shares the graph's time axis (its
 * visible frames and playhead), its key selection and its edits: keys
 * selected here are selected there. Only the rows of open groups are made,
 * only those on screen are drawn, and each with at most one mark per pixel
 * column (tress-dope-sheet-keys.h).
 *
 * Input: click a mark (Shift adds, Ctrl toggles), Alt+click or double-click
 * selects every key at that frame, a drag on empty space selects a box, a
 * drag of a selected mark moves the selection in time (whole frames; Ctrl
 * lets go of the snapping), a click or drag on the ruler moves the playhead,
 * the wheel scrolls the rows, Ctrl+wheel zooms in time, a group's triangle
 * opens or closes it (the state the channel list shares). S scales the
 * selection in time about the playhead with the pointer (Enter or a click
 * applies, Esc or a right click cancels). Actions "dope.": select-all,
 * delete, scale (d: a factor about the playhead; ] doubles, [ halves),
 * scale-begin (S).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "tress-curve-view.h"

G_BEGIN_DECLS

#define TRESS_TYPE_DOPE_SHEET (tress_dope_sheet_get_type ())
G_DECLARE_FINAL_TYPE (TressDopeSheet, tress_dope_sheet, TRESS, DOPE_SHEET, GtkWidget)

GtkWidget *tress_dope_sheet_new (void);
/* The graph whose curves, time axis and selection it shows (not a reference:
 * the editor owns both). */
void tress_dope_sheet_set_view (TressDopeSheet *self, TressCurveView *view);

/* For tests and the benchmark: the rows (their names: NULL for the summary),
 * the first row shown, and where a row and a frame are drawn. */
guint tress_dope_sheet_get_n_rows (TressDopeSheet *self);
const char *tress_dope_sheet_get_row_name (TressDopeSheet *self, guint row);
/* The row's curves (guint document indices), owned by the sheet. */
GArray *tress_dope_sheet_get_row_curves (TressDopeSheet *self, guint row);
/* A channel row's document curve index, or -1 for the summary and groups. */
int tress_dope_sheet_get_row_channel (TressDopeSheet *self, guint row);
/* 0 for the summary, 1 for the first path level (an animation), … */
guint tress_dope_sheet_get_row_depth (TressDopeSheet *self, guint row);
/* A group row: whether it is open; opening or closing it (as its triangle,
 * at x tress_dope_sheet_get_disclosure_x, does). */
gboolean tress_dope_sheet_get_row_open (TressDopeSheet *self, guint row);
void tress_dope_sheet_set_row_open (TressDopeSheet *self, guint row, gboolean open);
double tress_dope_sheet_get_disclosure_x (TressDopeSheet *self, guint row);
/* TRUE while a scale in time (S) is under way, and its factor so far. */
gboolean tress_dope_sheet_get_scaling (TressDopeSheet *self, double *factor);
void tress_dope_sheet_set_first_row (TressDopeSheet *self, guint row);
/* FALSE when the row is not on screen. */
gboolean tress_dope_sheet_get_row_y (TressDopeSheet *self, guint row, double *y);
double tress_dope_sheet_frame_to_x (TressDopeSheet *self, double frame);
/* How many marks the last drawing drew (at most one per pixel column a row). */
guint tress_dope_sheet_get_n_marks_drawn (TressDopeSheet *self);

G_END_DECLS
