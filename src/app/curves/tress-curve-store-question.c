/* tress-curve-store-question.c: asking before an edit moves keys nobody touched
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-store-question.h"

#include <glib/gi18n.h>

typedef struct
{
  TressStoreAnswer answer;
  gpointer data;
} Question;

/* A dialog destroyed unanswered (its window closed) counts as Cancel. */
static void
question_free (gpointer data, GClosure *closure)
{
  Question *q = data;

  if (q->answer != NULL)
    q->answer (TRESS_STORE_CANCEL, q->data);
  g_free (q);
}

static void
on_response (GtkDialog *dialog, int response, gpointer user_data)
{
  Question *q = user_data;
  TressStoreChoice choice = response == TRESS_STORE_RESPONSE_KEEP    ? TRESS_STORE_KEEP
                            : response == TRESS_STORE_RESPONSE_WIDEN ? TRESS_STORE_WIDEN
                                                                     : TRESS_STORE_CANCEL;
  TressStoreAnswer answer = q->answer;

  /* Once: destroying the dialog must not answer again. */
  q->answer = NULL;
  gtk_window_destroy (GTK_WINDOW (dialog));
  if (answer != NULL)
    answer (choice, q->data);
}

/* A distance in shown units, with a precision that tells small ones apart. */
static char *
format_amount (double v, double unit_scale, const char *unit)
{
  return g_strdup_printf ("%.3g%s", v * unit_scale, unit);
}

GtkWidget *
tress_curve_store_question_present (GtkWindow *parent, const char *label, const char *path,
                                    guint n_curves, const TressStoreCost *cost, double unit_scale,
                                    const char *unit, TressStoreAnswer answer, gpointer data)
{
  g_autofree char *moved = format_amount (cost->moved, unit_scale, unit);
  g_autofree char *step = format_amount (cost->step, unit_scale, unit);
  g_autofree char *new_step = format_amount (cost->new_step, unit_scale, unit);
  g_autofree char *keep = NULL, *widen = NULL, *detail = NULL, *others = NULL;
  GtkWidget *dialog;
  Question *q;

  dialog = gtk_message_dialog_new (parent, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                   /* TRANSLATORS: %s is an edit, e.g. "Move 1 key" */
                                   _ ("%s would move keys you did not touch"), label);
  if (n_curves > 1)
    others = g_strdup_printf (
        /* TRANSLATORS: said after a curve's name */
        ngettext (" (and %u other curve)", " (and %u other curves)", n_curves - 1), n_curves - 1);
  keep = g_strdup_printf (
      /* TRANSLATORS: %s is a value type such as "s8" */
      _ ("Keep %s"), cost->type);
  if (cost->wide_type != NULL)
    {
      g_autofree char *wide_moved = format_amount (cost->wide_moved, unit_scale, unit);

      widen = g_strdup_printf (
          /* TRANSLATORS: %s is a value type such as "s16" or "32-bit float" */
          _ ("Widen to %s"), cost->wide_type);
      detail = g_strdup_printf (
          /* TRANSLATORS: the values, in order: a curve's path, " (and 2 other curves)" or
           * nothing, its value type, its step, the step the edit needs, how far the other
           * keys move then, the wider type, how far they move in it, the bytes the file
           * grows by */
          _ ("%s%s stores %s values in steps of %s; the new value needs steps of %s.\n\n"
             "• %s: the other keys move by up to %s.\n"
             "• %s: the other keys stay within %s; the file grows by %" G_GSIZE_FORMAT " bytes."),
          path, others != NULL ? others : "", cost->type, step, new_step, keep, moved, widen,
          wide_moved, cost->wide_growth);
    }
  else
    detail = g_strdup_printf (
        /* TRANSLATORS: a curve's path, " (and 2 other curves)" or nothing, its value type,
         * its step, the step the edit needs, how far the other keys move */
        _ ("%s%s stores %s values in steps of %s; the new value needs steps of %s, and no "
           "wider type is left.\n\n• %s: the other keys move by up to %s."),
        path, others != NULL ? others : "", cost->type, step, new_step, keep, moved);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", detail);
  gtk_dialog_add_button (GTK_DIALOG (dialog), _ ("_Cancel"), GTK_RESPONSE_CANCEL);
  gtk_dialog_add_button (GTK_DIALOG (dialog), keep, TRESS_STORE_RESPONSE_KEEP);
  if (widen != NULL)
    {
      gtk_dialog_add_button (GTK_DIALOG (dialog), widen, TRESS_STORE_RESPONSE_WIDEN);
      gtk_dialog_set_default_response (GTK_DIALOG (dialog), TRESS_STORE_RESPONSE_WIDEN);
    }
  else
    gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  q = g_new0 (Question, 1);
  q->answer = answer;
  q->data = data;
  g_signal_connect_data (dialog, "response", G_CALLBACK (on_response), q, question_free, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}
