/* tress-native-dialog.c: file choosers that go with their window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-native-dialog.h"

static void
on_parent_unrealize (GtkNativeDialog *dialog)
{
  if (!gtk_native_dialog_get_visible (dialog))
    return;
  /* Hidden, it emits no response of its own: this is its only one. */
  gtk_native_dialog_hide (dialog);
  g_signal_emit_by_name (dialog, "response", GTK_RESPONSE_CANCEL);
}

void
tress_native_dialog_cancel_with_parent (GtkNativeDialog *dialog)
{
  GtkWindow *parent = gtk_native_dialog_get_transient_for (dialog);

  g_return_if_fail (GTK_IS_NATIVE_DIALOG (dialog));

  /* gtk_window_destroy() unrealizes the window (a GTK 4 window is not
   * unrealized otherwise), and runs no dispose (so no "destroy") while the
   * handler still holds it. The connection goes with the dialog. */
  if (parent != NULL)
    g_signal_connect_object (parent, "unrealize", G_CALLBACK (on_parent_unrealize), dialog,
                             G_CONNECT_SWAPPED);
}
