/* tress-editor.h: which widget edits a document of a given format
 *
 * Each format's editor registers a constructor once, at application start-up
 * (see tress-editors.c). tress_editor_create() builds the editor for a document,
 * or a TressInfoView (the format's description and its problems) for formats
 * without an editor of their own.
 *
 * An editor is an ordinary widget placed inside the document's page: window
 * actions (win.save, win.undo, …) act on the page's document whatever the editor
 * is, and an editor may install actions of its own on itself (they are found
 * from the focus widget, the page and the window's shortcuts).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/tress-document.h"

G_BEGIN_DECLS

typedef GtkWidget *(*TressEditorCreateFunc) (TressDocument *doc);

/* Makes @create the editor of documents of format @format_id; a later call for
 * the same format replaces the earlier one. */
void tress_editor_register (const char *format_id, TressEditorCreateFunc create);
/* TRUE if a format has an editor of its own (not the generic info page). */
gboolean tress_editor_is_registered (const char *format_id);
/* A new editor widget for @doc, never NULL (TressInfoView as the fallback). */
GtkWidget *tress_editor_create (TressDocument *doc);
/* Editors that show the file's problem count themselves say so; the document
 * page shows it above the others. */
void tress_editor_set_shows_problems (GtkWidget *editor);
gboolean tress_editor_get_shows_problems (GtkWidget *editor);

G_END_DECLS
