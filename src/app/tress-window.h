/* tress-window.h: the main window: a welcome page and a notebook of documents
 *
 * Window actions (installed with gtk_widget_class_install_action) act on the
 * current page's document whatever its editor is:
 *   win.open, win.open-uri (s: a URI), win.open-demo, win.save, win.save-as,
 *   win.revert, win.undo, win.redo, win.close-document.
 * They are enabled from the current document's history (can-undo, can-redo,
 * modified); the undo/redo labels appear in the menu and the tooltips.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/tress-document.h"
#include "tress-document-page.h"

G_BEGIN_DECLS

#define TRESS_TYPE_WINDOW (tress_window_get_type ())
G_DECLARE_FINAL_TYPE (TressWindow, tress_window, TRESS, WINDOW, GtkApplicationWindow)

TressWindow *tress_window_new (GtkApplication *app);

/* Opens @file in a new page (or shows its page if already open); errors appear
 * in a dialog naming the file, the field and the byte offset. */
void tress_window_open_file (TressWindow *self, GFile *file);
/* Opens the demo files compiled into the application. */
void tress_window_open_demo (TressWindow *self);
/* Adds a page for @doc and shows it. */
TressDocumentPage *tress_window_add_document (TressWindow *self, TressDocument *doc);

guint tress_window_get_n_documents (TressWindow *self);
TressDocumentPage *tress_window_get_page (TressWindow *self, guint index);
TressDocumentPage *tress_window_get_current_page (TressWindow *self);
TressDocument *tress_window_get_current_document (TressWindow *self);

/* TRUE while files are being read or written (property "busy"). */
gboolean tress_window_get_busy (TressWindow *self);
/* TRUE if any open document has unsaved changes. */
gboolean tress_window_get_has_unsaved (TressWindow *self);

/* The size of a new window (and of screenshots), as in the GSettings schema. */
#define TRESS_WINDOW_DEFAULT_WIDTH 960
#define TRESS_WINDOW_DEFAULT_HEIGHT 640

/* FALSE: the window neither reads nor stores its size in GSettings (screenshots). */
void tress_window_set_remember_size (TressWindow *self, gboolean remember);
/* FALSE: files opened are not added to the recent files, and none are listed
 * (screenshots: the same picture on every machine, the user's list untouched). */
void tress_window_set_use_recent_files (TressWindow *self, gboolean use);

G_END_DECLS
