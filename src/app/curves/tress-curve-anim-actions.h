/* tress-curve-anim-actions.h: whole-animation operations in the curve editor
 *
 * The "anim" actions of a curve editor on the animation its tree's selection
 * belongs to (a BFRES animation, a NIFF AnimGroup; the row right-clicked is
 * selected first): anim.retime, anim.frame-count, anim.loop (a boolean
 * state), anim.rename, anim.duplicate and anim.delete, each asking what it
 * needs in a small dialog (tress-curve-anim-dialog.h) and running the
 * operation as one undo step (tress-anim-edit.h). They are offered in a
 * context menu on the tree's rows (right-click, the Menu key, Shift+F10)
 * and in the editor's "more" menu. A refusal shows in the dialog, with the
 * way around it when there is one (wider frames, trimmed keys); any other
 * error in the editor's message line.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-curve-editor.h"

G_BEGIN_DECLS

/* Installs the actions on @editor and the context menu on @tree (its curves
 * tree, a GtkColumnView whose cells carry their GtkListItem as "tress-item"). */
void tress_curve_anim_actions_install (TressCurveEditor *editor, GtkWidget *tree);
/* The animation the actions act on, or -1 (none, or several selected). */
int tress_curve_anim_actions_get_target (TressCurveEditor *editor);
/* The context menu (a GtkPopoverMenu, shown or not), NULL before the first. */
GtkWidget *tress_curve_anim_actions_get_menu (TressCurveEditor *editor);

G_END_DECLS
