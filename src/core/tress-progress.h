/* tress-progress.h: how far a long piece of work is, and a way to stop it
 *
 * A load runs in a worker thread and reads, decompresses and parses through
 * functions that know nothing of the window. The thread doing the work makes
 * a TressProgress its own for the while (tress_progress_run_begin); the code
 * doing the work reports to "the progress of this thread" through the
 * functions below, which cost a thread-local lookup and do nothing when no
 * progress is set (the CLI, the fuzzers, the tests). Another thread (the UI)
 * reads the figures at any time and cancels through the GCancellable: the
 * next report fails with G_IO_ERROR_CANCELLED, so the work stops at once,
 * unwinding through its ordinary error paths.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum
{
  TRESS_PROGRESS_BYTES,
  TRESS_PROGRESS_ENTRIES,
} TressProgressUnit;

typedef struct _TressProgress TressProgress;

/* A progress whose work stops when @cancellable (may be NULL) is cancelled. */
TressProgress *tress_progress_new (GCancellable *cancellable);
TressProgress *tress_progress_ref (TressProgress *progress);
void tress_progress_unref (TressProgress *progress);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressProgress, tress_progress_unref)

GCancellable *tress_progress_get_cancellable (TressProgress *progress);

/* Any thread: the current phase ("Reading", "Decompressing", …; a static
 * string), how much of it is done and of how much (0: unknown), in @unit. */
void tress_progress_get (TressProgress *progress, const char **phase, guint64 *done, guint64 *total,
                         TressProgressUnit *unit);

/* The worker: reports of this thread go to @progress until _end (nested
 * begin/end pairs restore the outer one). */
void tress_progress_run_begin (TressProgress *progress);
void tress_progress_run_end (void);

/* The work: a new phase of @total units (0 if not known), from 0 done. */
void tress_progress_phase (const char *phase, guint64 total, TressProgressUnit unit);
/* @n more units done. FALSE (with G_IO_ERROR_CANCELLED) when the work is to
 * stop. */
gboolean tress_progress_advance (guint64 n, GError **error);
/* The units done of the current phase set to @done. */
gboolean tress_progress_set_done (guint64 done, GError **error);
/* FALSE (with G_IO_ERROR_CANCELLED) when the work is to stop. */
gboolean tress_progress_check (GError **error);

G_END_DECLS
