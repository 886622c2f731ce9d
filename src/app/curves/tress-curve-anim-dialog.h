/* tress-curve-anim-dialog.h: the small dialogs of the whole-animation operations
 *
 * A modal window transient for the editor's: a title, a text, the fields the
 * operation asks for (added to its body), a line for a refusal (the format's
 * message, with the cost), Cancel, the operation's button (the default:
 * Enter) and a second way hidden until a refusal offers it ("Widen Frames
 * and Retime", "Trim Keys"). Escape and closing the window cancel. The accept
 * callback runs the operation: TRUE closes the dialog, FALSE keeps it open
 * with what tress_curve_anim_dialog_refuse() said.
 *
 * Widget names (tests): "anim-dialog" (the window), "anim-dialog-text",
 * "anim-dialog-error", "anim-dialog-cancel", "anim-dialog-accept",
 * "anim-dialog-alternative".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* @alternative: the second way's button was pressed. */
typedef gboolean (*TressAnimDialogAccept) (GtkWindow *dialog, gboolean alternative, gpointer data);

/* A dialog transient for @parent's window, not shown yet; @data is freed
 * with @free_data when the dialog goes. */
GtkWindow *tress_curve_anim_dialog_new (GtkWidget *parent, const char *title, const char *text,
                                        const char *accept_label, gboolean destructive,
                                        TressAnimDialogAccept accept, gpointer data,
                                        GDestroyNotify free_data);
/* The box the fields go in (vertical, between the text and the buttons). */
GtkBox *tress_curve_anim_dialog_get_body (GtkWindow *dialog);
/* Shows @message as the reason nothing was done; @alternative (NULL: none)
 * labels the second way's button, which is shown. */
void tress_curve_anim_dialog_refuse (GtkWindow *dialog, const char *message,
                                     const char *alternative);
/* Presents the dialog with the focus in @focus (NULL: the accept button). */
void tress_curve_anim_dialog_present (GtkWindow *dialog, GtkWidget *focus);

G_END_DECLS
