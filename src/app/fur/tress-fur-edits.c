/* tress-fur-edits.c: the fur editor's edits over many lines, and Retarget…
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-fur-edits.h"

#include <glib/gi18n-lib.h>

#include "core/tress-count.h"

#include <string.h>

static TressChaFile *
get_file (TressChaDocument *doc)
{
  return tress_cha_document_get_cha (doc);
}

/* Lines in the file. */
static guint64
file_lines (TressChaDocument *doc)
{
  TressChaFile *file = get_file (doc);
  guint64 n = 0;

  if (file != NULL && file->radeon != NULL)
    for (guint i = 0; i < file->radeon->n_materials; i++)
      n += file->radeon->materials[i].n_lines;
  return n;
}

static void
report_error (gpointer data, const GError *error, gpointer user_data)
{
  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_message ("%s", error->message);
}

/* ---- weights --------------------------------------------------------------- */

typedef struct
{
  TressChaLineId *lines;
  guint n;
  guint k; /* 3: all three */
  guint8 w[3];
} WeightJob;

static void
weight_job_free (gpointer data)
{
  WeightJob *j = data;

  g_free (j->lines);
  g_free (j);
}

static gboolean
weight_job (TressChaFile *file, gpointer data, char **label, GError **error)
{
  WeightJob *j = data;

  if (j->k < 3)
    return tress_cha_set_weight (file, NULL, j->lines, j->n, j->k, j->w[0], error);
  return tress_cha_set_weights (file, NULL, j->lines, j->n, j->w, error);
}

static gboolean
run_weights (TressChaDocument *doc, guint k, const guint8 w[3], GError **error)
{
  WeightJob *j = g_new0 (WeightJob, 1);
  g_autofree char *count = NULL;
  g_autofree char *what = NULL;

  j->lines = tress_cha_document_get_selected_lines (doc, &j->n);
  j->k = k;
  memcpy (j->w, w, 3);
  if (j->n == 0)
    {
      weight_job_free (j);
      return TRUE;
    }
  count = tress_format_count (j->n);
  /* Translators: in the progress bar while weights are set; %s: a count. */
  what = g_strdup_printf (
      ngettext ("Setting the weights of %s line", "Setting the weights of %s lines", j->n), count);
  return tress_fur_job_run (doc, j->n, what, what, weight_job, j, weight_job_free, report_error,
                            NULL, error);
}

gboolean
tress_fur_set_selection_weights (TressChaDocument *doc, const guint8 w[3], GError **error)
{
  return run_weights (doc, 3, w, error);
}

gboolean
tress_fur_set_selection_weight (TressChaDocument *doc, guint k, guint8 value, GError **error)
{
  guint8 w[3] = { value, 0, 0 };

  g_return_val_if_fail (k < 3, FALSE);
  return run_weights (doc, k, w, error);
}

/* ---- retarget -------------------------------------------------------------- */
/* The scopes of a retarget: one TressChaScope per material involved. */
static GArray *
retarget_scopes (TressChaDocument *doc, guint scope, GPtrArray **ribbon_lists)
{
  GArray *scopes = g_array_new (FALSE, TRUE, sizeof (TressChaScope));
  const TressChaRibbonId *ids;
  guint n, i;

  *ribbon_lists = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  if (scope == 2)
    {
      TressChaScope s = { -1, NULL, 0 };

      g_array_append_val (scopes, s);
      return scopes;
    }
  ids = tress_cha_document_get_selection (doc, &n);
  for (i = 0; i < n;)
    {
      guint m = ids[i].material, j = i;
      GArray *ribbons = g_array_new (FALSE, FALSE, sizeof (guint));
      TressChaScope s = { (int)m, NULL, 0 };

      while (j < n && ids[j].material == m)
        {
          g_array_append_val (ribbons, ids[j].ribbon);
          j++;
        }
      g_ptr_array_add (*ribbon_lists, ribbons);
      if (scope == 0)
        {
          s.ribbons = (const guint *)(gpointer)ribbons->data;
          s.n_ribbons = ribbons->len;
        }
      g_array_append_val (scopes, s);
      i = j;
    }
  return scopes;
}

gboolean
tress_fur_retarget_count (TressChaDocument *doc, guint scope, guint32 from, guint32 to,
                          guint *n_lines, guint *n_ribbons)
{
  g_autoptr (GPtrArray) lists = NULL;
  g_autoptr (GArray) scopes = retarget_scopes (doc, scope, &lists);
  guint i;

  *n_lines = *n_ribbons = 0;
  for (i = 0; i < scopes->len; i++)
    {
      guint nl = 0, nr = 0;

      if (!tress_cha_retarget_count (get_file (doc), &g_array_index (scopes, TressChaScope, i),
                                     from, to, &nl, &nr, NULL))
        return FALSE;
      *n_lines += nl;
      *n_ribbons += nr;
    }
  return TRUE;
}

typedef struct
{
  GArray *scopes;   /* TressChaScope */
  GPtrArray *lists; /* their ribbons */
  guint32 from, to;
} RetargetJob;

static void
retarget_job_free (gpointer data)
{
  RetargetJob *j = data;

  g_array_unref (j->scopes);
  g_ptr_array_unref (j->lists);
  g_free (j);
}

static gboolean
retarget_job (TressChaFile *file, gpointer data, char **label, GError **error)
{
  RetargetJob *j = data;
  guint nl = 0;

  /* Several materials: one step, labelled with the lines of them all. */
  for (guint i = 0; j->scopes->len > 1 && i < j->scopes->len; i++)
    {
      guint l = 0, r = 0;

      if (tress_cha_retarget_count (file, &g_array_index (j->scopes, TressChaScope, i), j->from,
                                    j->to, &l, &r, NULL))
        nl += l;
    }
  if (j->scopes->len > 1)
    *label = g_strdup_printf (
        ngettext ("Retarget %u line from %u to %u", "Retarget %u lines from %u to %u", nl), nl,
        j->from, j->to);
  for (guint i = 0; i < j->scopes->len; i++)
    if (!tress_cha_retarget (file, NULL, &g_array_index (j->scopes, TressChaScope, i), j->from,
                             j->to, error))
      return FALSE;
  return TRUE;
}

gboolean
tress_fur_retarget (TressChaDocument *doc, guint scope, guint32 from, guint32 to, GError **error)
{
  RetargetJob *j = g_new0 (RetargetJob, 1);
  TressChaFile *file = get_file (doc);
  guint64 size = 0;
  g_autofree char *what = NULL;
  g_autofree char *group = NULL;

  j->scopes = retarget_scopes (doc, scope, &j->lists);
  j->from = from;
  j->to = to;
  for (guint i = 0; i < j->scopes->len; i++)
    {
      const TressChaScope *s = &g_array_index (j->scopes, TressChaScope, i);

      if (s->material < 0)
        size += file_lines (doc);
      else if (file->radeon != NULL && (guint)s->material < file->radeon->n_materials)
        {
          const TressChaMaterial *m = &file->radeon->materials[s->material];

          if (s->ribbons == NULL)
            size += m->n_lines;
          else
            for (guint r = 0; r < s->n_ribbons; r++)
              {
                guint first, n;

                if (tress_cha_material_ribbon_lines (m, s->ribbons[r], &first, &n))
                  size += n;
              }
        }
    }
  /* Translators: in the progress bar while a retarget runs. */
  what = g_strdup_printf (_ ("Retargeting body part %u to %u"), from, to);
  group = g_strdup_printf (_ ("Retarget from %u to %u"), from, to);
  return tress_fur_job_run (doc, size, what, group, retarget_job, j, retarget_job_free,
                            report_error, NULL, error);
}

/* ---- fixes ----------------------------------------------------------------- */

typedef struct
{
  TressChaFix fix; /* TRESS_CHA_N_FIXES: all */
  int material;
  gsize offset;
  guint n_fixed;
  TressFurFixDone done;
  gpointer user_data;
} FixJob;

static gboolean
fix_job (TressChaFile *file, gpointer data, char **label, GError **error)
{
  FixJob *j = data;
  GError *local = NULL;

  if (j->fix < TRESS_CHA_N_FIXES)
    return tress_cha_apply_fix_at (file, NULL, j->fix, j->material, j->offset, &j->n_fixed, error);
  j->n_fixed = tress_cha_fix_all (file, NULL, &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

static void
fix_done (gpointer data, const GError *error, gpointer user_data)
{
  FixJob *j = data;

  report_error (data, error, user_data);
  if (j->done != NULL)
    j->done (j->n_fixed, error, j->user_data);
}

static gboolean
run_fix (TressChaDocument *doc, FixJob *j, guint64 size, GError **error)
{
  const char *what = j->fix < TRESS_CHA_N_FIXES ? _ ("Fixing") : _ ("Fixing every problem");

  return tress_fur_job_run (doc, size, what, what, fix_job, j, g_free, fix_done, NULL, error);
}

gboolean
tress_fur_fix_at (TressChaDocument *doc, TressChaFix fix, int material, gsize offset,
                  TressFurFixDone done, gpointer user_data, GError **error)
{
  FixJob *j = g_new0 (FixJob, 1);

  j->fix = MIN (fix, TRESS_CHA_N_FIXES - 1);
  j->material = material;
  j->offset = offset;
  j->done = done;
  j->user_data = user_data;
  /* One field: at once; a summed-up row (every such problem): the file. */
  return run_fix (doc, j, offset != G_MAXSIZE ? 0 : file_lines (doc), error);
}

gboolean
tress_fur_fix_all (TressChaDocument *doc, TressFurFixDone done, gpointer user_data, GError **error)
{
  FixJob *j = g_new0 (FixJob, 1);

  j->fix = TRESS_CHA_N_FIXES;
  j->done = done;
  j->user_data = user_data;
  return run_fix (doc, j, file_lines (doc), error);
}

/* ---- the Retarget… dialog ---------------------------------------------------- */

typedef struct
{
  TressChaDocument *doc;
  TressFurNames *names;
  GtkWidget *window, *from, *to, *scope, *count, *apply;
} RetargetDialog;

static void
retarget_dialog_free (gpointer data)
{
  RetargetDialog *d = data;

  g_object_unref (d->doc);
  g_clear_object (&d->names);
  g_free (d);
}

static void
retarget_update (RetargetDialog *d)
{
  guint32 from = (guint32)gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (d->from));
  guint32 to = (guint32)gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (d->to));
  guint scope = gtk_drop_down_get_selected (GTK_DROP_DOWN (d->scope)), nl = 0, nr = 0;
  g_autofree char *text = NULL;
  g_autofree char *from_label = tress_fur_names_label (d->names, from);
  g_autofree char *to_label = tress_fur_names_label (d->names, to);

  if (!tress_fur_retarget_count (d->doc, scope, from, to, &nl, &nr))
    nl = nr = 0;
  {
    g_autofree char *n_l = tress_format_count (nl);
    g_autofree char *n_r = tress_format_count (nr);
    g_autofree char *lines = g_strdup_printf (ngettext ("%s line", "%s lines", nl), n_l);
    g_autofree char *ribbons = g_strdup_printf (ngettext ("%s ribbon", "%s ribbons", nr), n_r);

    /* Translators: from body part → to body part: "N lines" in "N ribbons". */
    text = g_strdup_printf (_ ("%s → %s: %s in %s"), from_label, to_label, lines, ribbons);
  }
  gtk_label_set_text (GTK_LABEL (d->count), text);
  gtk_widget_set_sensitive (d->apply, from != to && (nl > 0 || nr > 0));
}

static void
on_retarget_param_changed (GtkWidget *widget, GParamSpec *pspec, RetargetDialog *d)
{
  retarget_update (d);
}

static void
on_retarget_apply (GtkButton *button, RetargetDialog *d)
{
  g_autoptr (GError) error = NULL;

  /* A big one goes on in the editor, with its progress bar and Cancel. */
  if (!tress_fur_retarget (d->doc, gtk_drop_down_get_selected (GTK_DROP_DOWN (d->scope)),
                           (guint32)gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (d->from)),
                           (guint32)gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (d->to)),
                           &error))
    {
      gtk_label_set_text (GTK_LABEL (d->count), error->message);
      return;
    }
  gtk_window_destroy (GTK_WINDOW (d->window));
}

static void
on_retarget_cancel (GtkButton *button, RetargetDialog *d)
{
  gtk_window_destroy (GTK_WINDOW (d->window));
}

GtkWidget *
tress_fur_retarget_dialog_new (GtkWindow *parent, TressChaDocument *doc, TressFurNames *names)
{
  g_autoptr (GtkBuilder) builder
      = gtk_builder_new_from_resource ("/io/github/tress/Tress/tress-retarget-dialog.ui");
  RetargetDialog *d = g_new0 (RetargetDialog, 1);
  TressChaFile *file = get_file (doc);
  guint max = file->radeon != NULL && file->radeon->body_part_max > 0
                  ? file->radeon->body_part_max - 1
                  : 65535;
  guint n_sel;

  d->doc = g_object_ref (doc);
  /* Its own: the editor that opened it may go first. */
  d->names = names != NULL ? g_object_ref (names) : NULL;
  d->window = GTK_WIDGET (gtk_builder_get_object (builder, "window"));
  d->from = GTK_WIDGET (gtk_builder_get_object (builder, "from"));
  d->to = GTK_WIDGET (gtk_builder_get_object (builder, "to"));
  d->scope = GTK_WIDGET (gtk_builder_get_object (builder, "scope"));
  d->count = GTK_WIDGET (gtk_builder_get_object (builder, "count"));
  d->apply = GTK_WIDGET (gtk_builder_get_object (builder, "apply"));
  if (parent != NULL)
    {
      /* Closed with the window, and lets go of the document then: left
       * open, it would keep the document alive, and act on it, after its
       * window is gone. */
      gtk_window_set_transient_for (GTK_WINDOW (d->window), parent);
      gtk_window_set_destroy_with_parent (GTK_WINDOW (d->window), TRUE);
    }
  g_object_set_data_full (G_OBJECT (d->window), "retarget", d, retarget_dialog_free);
  gtk_spin_button_set_range (GTK_SPIN_BUTTON (d->from), 0, max);
  gtk_spin_button_set_range (GTK_SPIN_BUTTON (d->to), 0, max);
  tress_cha_document_get_selection (doc, &n_sel);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (d->scope), n_sel > 0 ? 0 : 2);
  g_signal_connect (d->from, "notify::value", G_CALLBACK (on_retarget_param_changed), d);
  g_signal_connect (d->to, "notify::value", G_CALLBACK (on_retarget_param_changed), d);
  g_signal_connect (d->scope, "notify::selected", G_CALLBACK (on_retarget_param_changed), d);
  g_signal_connect (d->apply, "clicked", G_CALLBACK (on_retarget_apply), d);
  g_signal_connect (gtk_builder_get_object (builder, "cancel"), "clicked",
                    G_CALLBACK (on_retarget_cancel), d);
  retarget_update (d);
  return d->window;
}
