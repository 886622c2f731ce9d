/* tress-fur-mixed.c: spin buttons that show a mixed value
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-fur-mixed.h"

#include <glib/gi18n-lib.h>

#include <math.h>

/* What a mixed field shows (as its placeholder: the text itself is empty). */
#define MIXED_TEXT "—"

gboolean
tress_fur_spin_is_mixed (GtkWidget *spin)
{
  return GPOINTER_TO_INT (g_object_get_data (G_OBJECT (spin), "tress-mixed"));
}

static gboolean
on_spin_output (GtkSpinButton *spin, gpointer data)
{
  if (!tress_fur_spin_is_mixed (GTK_WIDGET (spin)))
    return FALSE;
  if (*gtk_editable_get_text (GTK_EDITABLE (spin)) != '\0')
    gtk_editable_set_text (GTK_EDITABLE (spin), "");
  return TRUE;
}

static gboolean
emit_value_changed (gpointer spin)
{
  g_signal_emit_by_name (spin, "value-changed");
  g_object_unref (spin);
  return G_SOURCE_REMOVE;
}

static int
on_spin_input (GtkSpinButton *spin, double *value, gpointer data)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (spin));
  char *end = NULL;
  double typed;

  if (!tress_fur_spin_is_mixed (GTK_WIDGET (spin)))
    return FALSE;
  /* Left as it was: no edit. */
  while (g_ascii_isspace (*text))
    text++;
  if (*text == '\0' || g_str_has_prefix (text, MIXED_TEXT))
    {
      *value = gtk_spin_button_get_value (spin);
      return TRUE;
    }
  typed = g_strtod (text, &end);
  while (end != NULL && g_ascii_isspace (*end))
    end++;
  if (end == text || *end != '\0')
    return GTK_INPUT_ERROR;
  *value = typed;
  /* The first line's value typed: the spin button sees no change, but the
   * user sets it on every line. */
  if (fabs (typed - gtk_spin_button_get_value (spin)) < 1e-9)
    g_idle_add_full (G_PRIORITY_HIGH_IDLE, emit_value_changed, g_object_ref (spin), NULL);
  return TRUE;
}

void
tress_fur_show_spin (GtkWidget *spin, double value, gboolean mixed)
{
  GtkEditable *text = gtk_editable_get_delegate (GTK_EDITABLE (spin));

  if (g_object_get_data (G_OBJECT (spin), "tress-mixed-handlers") == NULL)
    {
      g_signal_connect (spin, "output", G_CALLBACK (on_spin_output), NULL);
      g_signal_connect (spin, "input", G_CALLBACK (on_spin_input), NULL);
      g_object_set_data (G_OBJECT (spin), "tress-mixed-handlers", GINT_TO_POINTER (1));
    }
  g_object_set_data (G_OBJECT (spin), "tress-mixed", GINT_TO_POINTER (mixed));
  if (GTK_IS_TEXT (text))
    gtk_text_set_placeholder_text (GTK_TEXT (text), mixed ? MIXED_TEXT : NULL);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), value);
  /* The same value in a new state is not output again: show it. */
  if (mixed)
    gtk_editable_set_text (GTK_EDITABLE (spin), "");
  else if (*gtk_editable_get_text (GTK_EDITABLE (spin)) == '\0')
    {
      g_autofree char *shown
          = g_strdup_printf ("%0.*f", (int)gtk_spin_button_get_digits (GTK_SPIN_BUTTON (spin)),
                             gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin)));

      gtk_editable_set_text (GTK_EDITABLE (spin), shown);
    }
  if (mixed)
    gtk_widget_add_css_class (spin, "mixed");
  else
    gtk_widget_remove_css_class (spin, "mixed");
  gtk_widget_set_tooltip_text (spin, mixed ? _ ("Mixed: the selected lines differ; a value "
                                                "typed here is set on all of them")
                                           : NULL);
}
