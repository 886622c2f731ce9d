/* tress-fur-inspector.h: edits the selected ribbons of a creature-fur document
 *
 * Weights (three spin buttons and the weight triangle), body-part references
 * and attachment (drop-downs of the material's applied parts, with the names
 * the user gave them), line bytes, quality, lengths per morality with their
 * maximum, the file's problems (the selection's first) with "Fix" buttons.
 * Every change is one undoable command (or one group); those over many lines
 * run as jobs (tress-fur-edits.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/tress-cha-document.h"
#include "tress-fur-names.h"
#include "tress-weight-triangle.h"

G_BEGIN_DECLS

#define TRESS_TYPE_FUR_INSPECTOR (tress_fur_inspector_get_type ())
G_DECLARE_FINAL_TYPE (TressFurInspector, tress_fur_inspector, TRESS, FUR_INSPECTOR, GtkWidget)

GtkWidget *tress_fur_inspector_new (TressChaDocument *doc, TressFurNames *names);
TressWeightTriangle *tress_fur_inspector_get_triangle (TressFurInspector *self);
/* The summary line ("3 ribbons, 12 lines"). */
const char *tress_fur_inspector_get_summary (TressFurInspector *self);
/* Opens the list of the file's problems at the top of the inspector. */
void tress_fur_inspector_show_problems (TressFurInspector *self);
gboolean tress_fur_inspector_get_problems_shown (TressFurInspector *self);
/* The problem rows (activating one selects its ribbon). */
GtkListBox *tress_fur_inspector_get_problem_list (TressFurInspector *self);
/* Rebuilds the labels after a body-part name changed. */
void tress_fur_inspector_names_changed (TressFurInspector *self);

/* Applies every offered fix as one undo step (tress_fur_fix_all) and says how
 * many it fixed, below the problem list, once made. */
void tress_fur_inspector_fix_all (TressFurInspector *self);

G_END_DECLS
