/* tress-fur-jobs.c: whole-file fur edits planned off the UI thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-fur-jobs.h"

#include <glib/gi18n-lib.h>

#include "core/tress-count.h"
#include "core/tress-error.h"
#include "core/tress-progress.h"

#ifdef __linux__
#include <errno.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

/* The document's job bar (set while the bar lives). */
#define BAR_KEY "tress-fur-job-bar"
#define PROGRESS_MS 100
#define LINGER_MS 250

struct _TressFurJobBar
{
  GtkWidget parent_instance;
  TressChaDocument *doc; /* not referenced: the editor holds it */
  GtkWidget *panes;      /* idem */
  GtkWidget *shield;     /* over the panes while a job runs: takes their pointer input */
  GtkWidget *box, *label, *progress, *cancel;
  GCancellable *cancellable; /* of the job that runs, or NULL */
  TressProgress *job_progress;
  guint progress_id;
  guint linger_tick, linger_id; /* the bar and shield a moment after a job */
  char *what;
};

G_DEFINE_FINAL_TYPE (TressFurJobBar, tress_fur_job_bar, GTK_TYPE_WIDGET)

typedef struct
{
  TressChaDocument *doc; /* referenced: the file lives as long as the worker reads it */
  TressChaFile *file;
  TressFurJobFunc func;
  gpointer data;
  GDestroyNotify destroy;
  TressFurJobDone done;
  gpointer user_data;
  char *group_label;
  char *label; /* from the worker, or NULL */
  TressProgress *progress;
} Job;

static void
job_free (Job *job)
{
  if (job->destroy != NULL)
    job->destroy (job->data);
  g_clear_pointer (&job->progress, tress_progress_unref);
  g_free (job->group_label);
  g_free (job->label);
  g_object_unref (job->doc);
  g_free (job);
}

/* Performs @batch as one undo step. */
static void
perform (TressChaBatch *batch, TressChaFile *file, TressHistory *history, const char *group_label)
{
  gboolean group = tress_cha_batch_get_n_commands (batch) > 1;

  if (group)
    tress_history_begin_group (history, group_label);
  tress_cha_batch_perform (batch, file, history);
  if (group)
    tress_history_end_group (history);
}

/* ---- the worker ------------------------------------------------------------ */

/* The job's own thread (not GTask's shared pool: it lowers its priority,
 * which an unprivileged thread cannot raise back). */
static gpointer
run_thread (gpointer data)
{
  GTask *task = data;
  Job *job = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  g_autoptr (GError) error = NULL;
  TressChaBatch *batch;
  gboolean ok;

#ifdef __linux__
  /* Behind the window on a busy machine: its drawing gets the processor
   * first. */
  {
    id_t tid = (id_t)syscall (SYS_gettid);
    int nice;

    errno = 0;
    nice = getpriority (PRIO_PROCESS, tid);
    if (errno == 0)
      setpriority (PRIO_PROCESS, tid, MIN (nice + 10, 19));
  }
#endif
  tress_progress_run_begin (job->progress);
  tress_cha_batch_begin ();
  ok = job->func (job->file, job->data, &job->label, &error);
  batch = tress_cha_batch_end ();
  tress_progress_run_end ();
  if (ok && g_cancellable_set_error_if_cancelled (cancellable, &error))
    ok = FALSE;
  if (!ok)
    {
      tress_cha_batch_free (batch);
      g_task_return_error (task, g_steal_pointer (&error));
    }
  else
    g_task_return_pointer (task, batch, (GDestroyNotify)tress_cha_batch_free);
  g_object_unref (task);
  return NULL;
}

/* ---- the bar ----------------------------------------------------------------- */

static gboolean
on_progress_tick (gpointer user_data)
{
  TressFurJobBar *self = user_data;
  const char *phase = NULL;
  guint64 done = 0, total = 0;
  TressProgressUnit unit;

  if (self->job_progress == NULL)
    return G_SOURCE_CONTINUE;
  tress_progress_get (self->job_progress, &phase, &done, &total, &unit);
  if (total > 0)
    gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress),
                                   MIN (1.0, (double)done / (double)total));
  else
    gtk_progress_bar_pulse (GTK_PROGRESS_BAR (self->progress));
  return G_SOURCE_CONTINUE;
}

/* The panes take no input while a job runs: the shield over them takes the
 * pointer's, and nothing in them takes the focus. (Made insensitive, every
 * widget in them would be styled and drawn again: with a big creature the
 * preview's redraw alone would stall the window.) */
static void
hold_panes (TressFurJobBar *self, gboolean hold)
{
  gtk_widget_set_visible (GTK_WIDGET (self), hold);
  if (self->shield != NULL)
    gtk_widget_set_can_target (self->shield, hold);
  if (self->panes != NULL)
    gtk_widget_set_can_focus (self->panes, !hold);
}

static void
stop_linger (TressFurJobBar *self)
{
  if (self->linger_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->linger_tick);
  self->linger_tick = 0;
  g_clear_handle_id (&self->linger_id, g_source_remove);
}

static gboolean
on_linger_over (gpointer data)
{
  TressFurJobBar *self = data;

  self->linger_id = 0;
  hold_panes (self, FALSE);
  return G_SOURCE_REMOVE;
}

static gboolean
on_linger_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  TressFurJobBar *self = TRESS_FUR_JOB_BAR (widget);

  self->linger_tick = 0;
  self->linger_id = g_timeout_add (LINGER_MS, on_linger_over, self);
  return G_SOURCE_REMOVE;
}

static void
set_running (TressFurJobBar *self, gboolean running)
{
  stop_linger (self);
  if (running)
    {
      g_autofree char *text = g_strdup_printf (_ ("%s…"), self->what);

      hold_panes (self, TRUE);
      gtk_label_set_text (GTK_LABEL (self->label), text);
      gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress), 0);
      gtk_widget_set_sensitive (self->cancel, TRUE);
      self->progress_id = g_timeout_add (PROGRESS_MS, on_progress_tick, self);
      /* Escape and Return reach Cancel while the panes take nothing. */
      gtk_widget_grab_focus (self->cancel);
      return;
    }
  g_clear_handle_id (&self->progress_id, g_source_remove);
  /* Clicks meant for Cancel may still be queued (the window draws the
   * edit's result first): the bar and the shield stay until a frame has
   * been drawn and a moment after, so that those clicks fall on them and
   * not on a field under the bar. */
  gtk_widget_set_sensitive (self->cancel, FALSE);
  self->linger_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), on_linger_tick, NULL, NULL);
}

static void
on_job_done (GObject *source, GAsyncResult *res, gpointer user_data)
{
  TressFurJobBar *self = TRESS_FUR_JOB_BAR (source);
  Job *job = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (TressChaBatch) batch = g_task_propagate_pointer (G_TASK (res), &error);
  gboolean gone = self->doc == NULL;
  TressHistory *history = tress_document_get_history (TRESS_DOCUMENT (job->doc));

  /* The hold ends: the group is empty, it records nothing. */
  tress_history_cancel_group (history);
  tress_document_release_model (TRESS_DOCUMENT (job->doc));
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->job_progress, tress_progress_unref);
  if (!gone)
    set_running (self, FALSE);
  if (batch != NULL && !gone && tress_cha_document_get_cha (job->doc) == job->file)
    perform (batch, job->file, history, job->label != NULL ? job->label : job->group_label);
  else if (error == NULL)
    g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _ ("Cancelled"));
  if (!gone && job->done != NULL)
    job->done (job->data, error, job->user_data);
  job_free (job);
  g_object_unref (self);
}

static void
on_cancel_clicked (GtkButton *button, TressFurJobBar *self)
{
  tress_fur_job_bar_cancel (self);
}

void
tress_fur_job_bar_detach (TressFurJobBar *self)
{
  /* A job still running finishes in its worker (the task holds the bar);
   * its plan is dropped. */
  tress_fur_job_bar_cancel (self);
  g_clear_handle_id (&self->progress_id, g_source_remove);
  stop_linger (self);
  if (self->doc != NULL && g_object_get_data (G_OBJECT (self->doc), BAR_KEY) == self)
    g_object_set_data (G_OBJECT (self->doc), BAR_KEY, NULL);
  self->doc = NULL;
  self->panes = NULL;
  self->shield = NULL;
}

static void
tress_fur_job_bar_dispose (GObject *object)
{
  TressFurJobBar *self = TRESS_FUR_JOB_BAR (object);

  tress_fur_job_bar_detach (self);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (tress_fur_job_bar_parent_class)->dispose (object);
}

static void
tress_fur_job_bar_finalize (GObject *object)
{
  TressFurJobBar *self = TRESS_FUR_JOB_BAR (object);

  g_free (self->what);
  G_OBJECT_CLASS (tress_fur_job_bar_parent_class)->finalize (object);
}

static void
tress_fur_job_bar_class_init (TressFurJobBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tress_fur_job_bar_dispose;
  object_class->finalize = tress_fur_job_bar_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
tress_fur_job_bar_init (TressFurJobBar *self)
{
  self->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_widget_add_css_class (self->box, "tress-job-bar");
  self->label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->label), 0);
  self->progress = gtk_progress_bar_new ();
  gtk_widget_set_hexpand (self->progress, TRUE);
  gtk_widget_set_valign (self->progress, GTK_ALIGN_CENTER);
  self->cancel = gtk_button_new_with_mnemonic (_ ("_Cancel"));
  gtk_widget_set_name (self->cancel, "job_cancel");
  g_signal_connect (self->cancel, "clicked", G_CALLBACK (on_cancel_clicked), self);
  gtk_box_append (GTK_BOX (self->box), self->label);
  gtk_box_append (GTK_BOX (self->box), self->progress);
  gtk_box_append (GTK_BOX (self->box), self->cancel);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
tress_fur_job_bar_new (TressChaDocument *doc, GtkWidget *panes)
{
  TressFurJobBar *self = g_object_new (TRESS_TYPE_FUR_JOB_BAR, NULL);

  self->doc = doc;
  self->panes = panes;
  /* A plain widget, always there, transparent: while it is a target the
   * pointer's events go to it and its ancestors, not to the panes under it. */
  self->shield = gtk_label_new (NULL);
  gtk_widget_set_name (self->shield, "job_shield");
  gtk_widget_set_can_target (self->shield, FALSE);
  gtk_widget_set_cursor_from_name (self->shield, "progress");
  g_object_set_data (G_OBJECT (doc), BAR_KEY, self);
  return GTK_WIDGET (self);
}

gboolean
tress_fur_job_bar_is_busy (TressFurJobBar *self)
{
  return self->cancellable != NULL;
}

void
tress_fur_job_bar_cancel (TressFurJobBar *self)
{
  if (self->cancellable == NULL)
    return;
  g_cancellable_cancel (self->cancellable);
  if (self->label != NULL && self->doc != NULL)
    {
      gtk_label_set_text (GTK_LABEL (self->label), _ ("Stopping…"));
      gtk_widget_set_sensitive (self->cancel, FALSE);
    }
}

GtkWidget *
tress_fur_job_bar_get_shield (TressFurJobBar *self)
{
  return self->shield;
}

GtkWidget *
tress_fur_job_bar_get_cancel_button (TressFurJobBar *self)
{
  return self->cancel;
}

GtkProgressBar *
tress_fur_job_bar_get_progress_bar (TressFurJobBar *self)
{
  return GTK_PROGRESS_BAR (self->progress);
}

/* ---- running ----------------------------------------------------------------- */

gboolean
tress_fur_job_running (TressChaDocument *doc)
{
  TressFurJobBar *bar = g_object_get_data (G_OBJECT (doc), BAR_KEY);

  return bar != NULL && tress_fur_job_bar_is_busy (bar);
}

gboolean
tress_fur_job_run (TressChaDocument *doc, guint64 size, const char *what, const char *group_label,
                   TressFurJobFunc func, gpointer data, GDestroyNotify destroy,
                   TressFurJobDone done, gpointer user_data, GError **error)
{
  TressFurJobBar *bar = g_object_get_data (G_OBJECT (doc), BAR_KEY);
  TressHistory *history = tress_document_get_history (TRESS_DOCUMENT (doc));
  TressChaFile *file = tress_cha_document_get_cha (doc);
  g_autoptr (GTask) task = NULL;
  Job *job;

  if (bar != NULL && tress_fur_job_bar_is_busy (bar))
    {
      if (destroy != NULL)
        destroy (data);
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, _ ("%s still runs"), bar->what);
      return FALSE;
    }
  if (bar == NULL || size < TRESS_FUR_JOB_MIN_SIZE || file == NULL)
    {
      /* At once, on this thread: planned, then performed (all or nothing). */
      g_autoptr (GError) local = NULL;
      g_autoptr (TressChaBatch) batch = NULL;
      g_autofree char *label = NULL;
      gboolean ok;

      tress_cha_batch_begin ();
      ok = func (file, data, &label, &local);
      batch = tress_cha_batch_end ();
      if (ok)
        perform (batch, file, history, label != NULL ? label : group_label);
      if (done != NULL)
        done (data, local, user_data);
      if (destroy != NULL)
        destroy (data);
      if (!ok)
        g_propagate_error (error, g_steal_pointer (&local));
      return ok;
    }

  job = g_new0 (Job, 1);
  job->doc = g_object_ref (doc);
  job->file = file;
  job->func = func;
  job->data = data;
  job->destroy = destroy;
  job->done = done;
  job->user_data = user_data;
  job->group_label = g_strdup (group_label);
  bar->cancellable = g_cancellable_new ();
  bar->job_progress = tress_progress_new (bar->cancellable);
  job->progress = tress_progress_ref (bar->job_progress);
  g_free (bar->what);
  bar->what = g_strdup (what);
  /* The hold: undo and redo wait while the group is open (it stays empty),
   * and revert (which would free the model the worker reads). */
  tress_history_begin_group (history, group_label);
  tress_document_hold_model (TRESS_DOCUMENT (doc));
  set_running (bar, TRUE);
  task = g_task_new (g_object_ref (bar), bar->cancellable, on_job_done, job);
  g_task_set_task_data (task, job, NULL);
  g_thread_unref (g_thread_new ("fur-job", run_thread, g_object_ref (task)));
  return TRUE;
}
