/* tress-progress.c: how far a long piece of work is, and a way to stop it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-progress.h"

struct _TressProgress
{
  gint ref_count;
  GCancellable *cancellable;
  GMutex lock; /* the figures below */
  const char *phase;
  guint64 done, total;
  TressProgressUnit unit;
};

/* What this thread reports to: a stack of begin/end pairs. */
typedef struct Run Run;
struct Run
{
  TressProgress *progress;
  Run *outer;
};

static GPrivate current_run = G_PRIVATE_INIT (NULL);

TressProgress *
tress_progress_new (GCancellable *cancellable)
{
  TressProgress *p = g_new0 (TressProgress, 1);

  p->ref_count = 1;
  p->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  g_mutex_init (&p->lock);
  return p;
}

TressProgress *
tress_progress_ref (TressProgress *progress)
{
  g_atomic_int_inc (&progress->ref_count);
  return progress;
}

void
tress_progress_unref (TressProgress *progress)
{
  if (progress == NULL || !g_atomic_int_dec_and_test (&progress->ref_count))
    return;
  g_clear_object (&progress->cancellable);
  g_mutex_clear (&progress->lock);
  g_free (progress);
}

GCancellable *
tress_progress_get_cancellable (TressProgress *progress)
{
  return progress->cancellable;
}

void
tress_progress_get (TressProgress *progress, const char **phase, guint64 *done, guint64 *total,
                    TressProgressUnit *unit)
{
  g_mutex_lock (&progress->lock);
  if (phase != NULL)
    *phase = progress->phase;
  if (done != NULL)
    *done = progress->done;
  if (total != NULL)
    *total = progress->total;
  if (unit != NULL)
    *unit = progress->unit;
  g_mutex_unlock (&progress->lock);
}

void
tress_progress_run_begin (TressProgress *progress)
{
  Run *run = g_new0 (Run, 1);

  run->progress = tress_progress_ref (progress);
  run->outer = g_private_get (&current_run);
  g_private_set (&current_run, run);
}

void
tress_progress_run_end (void)
{
  Run *run = g_private_get (&current_run);

  g_return_if_fail (run != NULL);
  g_private_set (&current_run, run->outer);
  tress_progress_unref (run->progress);
  g_free (run);
}

static TressProgress *
current (void)
{
  Run *run = g_private_get (&current_run);

  return run != NULL ? run->progress : NULL;
}

void
tress_progress_phase (const char *phase, guint64 total, TressProgressUnit unit)
{
  TressProgress *p = current ();

  if (p == NULL)
    return;
  g_mutex_lock (&p->lock);
  p->phase = phase;
  p->done = 0;
  p->total = total;
  p->unit = unit;
  g_mutex_unlock (&p->lock);
}

gboolean
tress_progress_check (GError **error)
{
  TressProgress *p = current ();

  return p == NULL || !g_cancellable_set_error_if_cancelled (p->cancellable, error);
}

gboolean
tress_progress_advance (guint64 n, GError **error)
{
  TressProgress *p = current ();

  if (p == NULL)
    return TRUE;
  g_mutex_lock (&p->lock);
  p->done += n;
  g_mutex_unlock (&p->lock);
  return !g_cancellable_set_error_if_cancelled (p->cancellable, error);
}

gboolean
tress_progress_set_done (guint64 done, GError **error)
{
  TressProgress *p = current ();

  if (p == NULL)
    return TRUE;
  g_mutex_lock (&p->lock);
  p->done = done;
  g_mutex_unlock (&p->lock);
  return !g_cancellable_set_error_if_cancelled (p->cancellable, error);
}
