/* tress-fur-edits.h: the fur editor's edits over many lines, and Retarget…
 *
 * Each is one undo step. Over many lines (TRESS_FUR_JOB_MIN_SIZE) it is
 * planned in a worker with the editor's progress bar and Cancel
 * (tress-fur-jobs.h) and has been made once its @done runs; over a few it
 * is made at once. Functions return FALSE with @error when the edit was
 * refused at once (or another edit still runs).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/tress-cha-document.h"
#include "tress-fur-jobs.h"
#include "tress-fur-names.h"

G_BEGIN_DECLS

/* Sets the three weights (reference order) of every selected line. */
gboolean tress_fur_set_selection_weights (TressChaDocument *doc, const guint8 w[3], GError **error);
/* Sets weight @k of every selected line to @value, the other two rescaled. */
gboolean tress_fur_set_selection_weight (TressChaDocument *doc, guint k, guint8 value,
                                         GError **error);
/* Retargets @from → @to over @scope: 0 the selection, 1 the selection's
 * materials, 2 the file. */
gboolean tress_fur_retarget (TressChaDocument *doc, guint scope, guint32 from, guint32 to,
                             GError **error);
/* Counts what tress_fur_retarget() would change. */
gboolean tress_fur_retarget_count (TressChaDocument *doc, guint scope, guint32 from, guint32 to,
                                   guint *n_lines, guint *n_ribbons);

/* After a fix: how many places it mended (when @error is NULL). */
typedef void (*TressFurFixDone) (guint n_fixed, const GError *error, gpointer user_data);
/* One fix at one place (tress_cha_apply_fix_at). */
gboolean tress_fur_fix_at (TressChaDocument *doc, TressChaFix fix, int material, gsize offset,
                           TressFurFixDone done, gpointer user_data, GError **error);
/* Every fix (tress_cha_fix_all). */
gboolean tress_fur_fix_all (TressChaDocument *doc, TressFurFixDone done, gpointer user_data,
                            GError **error);

/* Opens the Retarget… dialog over @parent. */
GtkWidget *tress_fur_retarget_dialog_new (GtkWindow *parent, TressChaDocument *doc,
                                          TressFurNames *names);

G_END_DECLS
