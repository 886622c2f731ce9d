/* tress-fur-jobs.h: whole-file fur edits planned off the UI thread
 *
 * An edit of a few lines is made at once. One over many lines (a whole-file
 * retarget, Fix All, weights set on a big selection) is planned in a worker
 * thread (tress_cha_batch_begin, tress-cha-edit.h) while the window keeps
 * answering: the editor's job bar shows its progress and a Cancel, the
 * editor's panes take no input, and the history is held (an open group: undo
 * and redo wait). When the plan is ready, the UI thread performs it, as one
 * undo step, and the views follow as for any edit. Cancel, or closing the
 * editor, drops the plan: the file is as it was and no step is recorded.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/tress-cha-document.h"
#include "formats/cha/tress-cha-edit.h"

G_BEGIN_DECLS

/* Edits of at least this many lines (or ribbons) are planned in a worker. */
#define TRESS_FUR_JOB_MIN_SIZE 50000

/* Plans the edit: the operations of tress-cha-edit.h on @file (history
 * NULL), a batch open, on whichever thread; what it plans is performed
 * afterwards as one undo step, or not at all when it fails. It may set
 * *@label (newly allocated) to that step's label when it plans several
 * commands (else the job's @group_label). */
typedef gboolean (*TressFurJobFunc) (TressChaFile *file, gpointer data, char **label,
                                     GError **error);
/* On the UI thread after the edit was made (@error NULL) or not (its error;
 * G_IO_ERROR_CANCELLED after Cancel). Not called once the editor is gone. */
typedef void (*TressFurJobDone) (gpointer data, const GError *error, gpointer user_data);

#define TRESS_TYPE_FUR_JOB_BAR (tress_fur_job_bar_get_type ())
G_DECLARE_FINAL_TYPE (TressFurJobBar, tress_fur_job_bar, TRESS, FUR_JOB_BAR, GtkWidget)

/* The bar of @doc's editor. While a job runs nothing in @panes takes the
 * focus, and the shield, which the editor lays over @panes, takes the
 * pointer's input. */
GtkWidget *tress_fur_job_bar_new (TressChaDocument *doc, GtkWidget *panes);
GtkWidget *tress_fur_job_bar_get_shield (TressFurJobBar *self);
gboolean tress_fur_job_bar_is_busy (TressFurJobBar *self);
/* The editor goes: a job that runs is cancelled, and calls nobody back. */
void tress_fur_job_bar_detach (TressFurJobBar *self);
/* Cancels the job that runs, if any. */
void tress_fur_job_bar_cancel (TressFurJobBar *self);
GtkWidget *tress_fur_job_bar_get_cancel_button (TressFurJobBar *self);
GtkProgressBar *tress_fur_job_bar_get_progress_bar (TressFurJobBar *self);

/* Makes an edit of @doc: at once when @size is below TRESS_FUR_JOB_MIN_SIZE
 * or @doc has no editor, else planned in a worker. @what says what runs
 * ("Retargeting 441,020 lines"); @group_label is the undo step's label when
 * @func makes several commands. @data is the job's own (@destroy frees it,
 * after @done). Returns FALSE, with @error set, when the edit made at once
 * failed (@done is called too) or another job still runs (@done is not). */
gboolean tress_fur_job_run (TressChaDocument *doc, guint64 size, const char *what,
                            const char *group_label, TressFurJobFunc func, gpointer data,
                            GDestroyNotify destroy, TressFurJobDone done, gpointer user_data,
                            GError **error);
/* Whether a job of @doc runs (its editor takes no edits meanwhile). */
gboolean tress_fur_job_running (TressChaDocument *doc);

G_END_DECLS
