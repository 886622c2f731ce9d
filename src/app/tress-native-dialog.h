/* tress-native-dialog.h: file choosers that go with their window
 *
 * A GtkNativeDialog answers only when the user answers it: closing its window
 * first leaves it open (GTK's fallback chooser is not destroyed with its
 * parent), and its response handler, which holds what it acts on (the
 * window, an editor, a document), never runs. These dialogs answer Cancel
 * instead when their window is destroyed, so the handler lets go of all that.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Makes @dialog, while shown, hide and emit "response" with
 * GTK_RESPONSE_CANCEL when its transient parent (set before) is destroyed. */
void tress_native_dialog_cancel_with_parent (GtkNativeDialog *dialog);

G_END_DECLS
