/* tress-curve-anim-dialog.c: the small dialogs of the whole-animation operations
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-anim-dialog.h"

#include <glib/gi18n.h>

/* The widest a dialog's text wraps at, in characters. */
#define TEXT_CHARS 56

typedef struct
{
  TressAnimDialogAccept accept;
  gpointer data;
  GDestroyNotify free_data;
  GtkBox *body;
  GtkLabel *error;
  GtkButton *accept_button;
  GtkButton *alternative;
} Dialog;

static void
dialog_free (gpointer p)
{
  Dialog *d = p;

  if (d->free_data != NULL)
    d->free_data (d->data);
  g_free (d);
}

static Dialog *
get (GtkWindow *dialog)
{
  return g_object_get_data (G_OBJECT (dialog), "tress-anim-dialog");
}

static void
run (GtkWindow *window, gboolean alternative)
{
  Dialog *d = get (window);

  if (d->accept (window, alternative, d->data))
    gtk_window_destroy (window);
}

static void
on_accept (GtkButton *button, GtkWindow *window)
{
  run (window, FALSE);
}

static void
on_alternative (GtkButton *button, GtkWindow *window)
{
  run (window, TRUE);
}

static gboolean
on_escape (GtkWidget *widget, GVariant *args, gpointer data)
{
  gtk_window_close (GTK_WINDOW (widget));
  return TRUE;
}

static GtkWidget *
button_new (const char *label, const char *name)
{
  GtkWidget *b = gtk_button_new_with_mnemonic (label);

  gtk_widget_set_name (b, name);
  return b;
}

GtkWindow *
tress_curve_anim_dialog_new (GtkWidget *parent, const char *title, const char *text,
                             const char *accept_label, gboolean destructive,
                             TressAnimDialogAccept accept, gpointer data, GDestroyNotify free_data)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *heading = gtk_label_new (title);
  GtkWidget *label = gtk_label_new (text);
  GtkWidget *body = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *error = gtk_label_new (NULL);
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *cancel = button_new (_ ("_Cancel"), "anim-dialog-cancel");
  GtkWidget *alt = button_new ("", "anim-dialog-alternative");
  GtkWidget *ok = button_new (accept_label, "anim-dialog-accept");
  GtkEventController *keys = gtk_shortcut_controller_new ();
  GtkRoot *root = parent != NULL ? gtk_widget_get_root (parent) : NULL;
  Dialog *d = g_new0 (Dialog, 1);

  d->accept = accept;
  d->data = data;
  d->free_data = free_data;
  d->body = GTK_BOX (body);
  d->error = GTK_LABEL (error);
  d->accept_button = GTK_BUTTON (ok);
  d->alternative = GTK_BUTTON (alt);
  g_object_set_data_full (G_OBJECT (window), "tress-anim-dialog", d, dialog_free);

  gtk_widget_set_name (window, "anim-dialog");
  gtk_window_set_title (GTK_WINDOW (window), title);
  gtk_window_set_modal (GTK_WINDOW (window), TRUE);
  gtk_window_set_resizable (GTK_WINDOW (window), FALSE);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (window), TRUE);
  if (GTK_IS_WINDOW (root))
    gtk_window_set_transient_for (GTK_WINDOW (window), GTK_WINDOW (root));

  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);
  gtk_widget_add_css_class (heading, "title-4");
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_box_append (GTK_BOX (box), heading);
  gtk_widget_set_name (label, "anim-dialog-text");
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), TEXT_CHARS);
  gtk_label_set_width_chars (GTK_LABEL (label), TEXT_CHARS / 2);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_visible (label, text != NULL && *text != '\0');
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), body);
  gtk_widget_set_name (error, "anim-dialog-error");
  gtk_widget_add_css_class (error, "error");
  gtk_label_set_wrap (GTK_LABEL (error), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (error), TEXT_CHARS);
  gtk_label_set_xalign (GTK_LABEL (error), 0);
  gtk_label_set_selectable (GTK_LABEL (error), TRUE);
  gtk_widget_set_visible (error, FALSE);
  gtk_box_append (GTK_BOX (box), error);

  gtk_widget_set_halign (buttons, GTK_ALIGN_END);
  gtk_widget_set_margin_top (buttons, 6);
  gtk_box_append (GTK_BOX (buttons), cancel);
  gtk_widget_set_visible (alt, FALSE);
  gtk_box_append (GTK_BOX (buttons), alt);
  gtk_widget_add_css_class (ok, destructive ? "destructive-action" : "suggested-action");
  gtk_box_append (GTK_BOX (buttons), ok);
  gtk_box_append (GTK_BOX (box), buttons);
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_set_default_widget (GTK_WINDOW (window), ok);

  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (gtk_window_close), window);
  g_signal_connect (ok, "clicked", G_CALLBACK (on_accept), window);
  g_signal_connect (alt, "clicked", G_CALLBACK (on_alternative), window);
  gtk_shortcut_controller_add_shortcut (
      GTK_SHORTCUT_CONTROLLER (keys),
      gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                        gtk_callback_action_new (on_escape, NULL, NULL)));
  gtk_widget_add_controller (window, keys);
  return GTK_WINDOW (window);
}

GtkBox *
tress_curve_anim_dialog_get_body (GtkWindow *dialog)
{
  Dialog *d = get (dialog);

  return d != NULL ? d->body : NULL;
}

void
tress_curve_anim_dialog_refuse (GtkWindow *dialog, const char *message, const char *alternative)
{
  Dialog *d = get (dialog);

  g_return_if_fail (d != NULL);
  gtk_label_set_text (d->error, message);
  gtk_widget_set_visible (GTK_WIDGET (d->error), message != NULL && *message != '\0');
  if (alternative != NULL)
    gtk_button_set_label (d->alternative, alternative);
  gtk_button_set_use_underline (d->alternative, TRUE);
  gtk_widget_set_visible (GTK_WIDGET (d->alternative), alternative != NULL);
}

void
tress_curve_anim_dialog_present (GtkWindow *dialog, GtkWidget *focus)
{
  Dialog *d = get (dialog);

  gtk_window_present (dialog);
  gtk_widget_grab_focus (focus != NULL ? focus : GTK_WIDGET (d->accept_button));
}
