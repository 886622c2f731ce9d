/* tress-document-page.h: one open document in the window's notebook
 *
 * Holds the document and its editor (from the editor registry), and makes the
 * tab label: the title with a modified marker and a close button. Watches the
 * file: when another program changes or removes it, a banner says so (with
 * Reload, the window's revert).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/tress-document.h"

G_BEGIN_DECLS

#define TRESS_TYPE_DOCUMENT_PAGE (tress_document_page_get_type ())
G_DECLARE_FINAL_TYPE (TressDocumentPage, tress_document_page, TRESS, DOCUMENT_PAGE, GtkWidget)

GtkWidget *tress_document_page_new (TressDocument *doc);
TressDocument *tress_document_page_get_document (TressDocumentPage *self);
GtkWidget *tress_document_page_get_editor (TressDocumentPage *self);
/* Replaces the editor by a fresh one (after the model was replaced, e.g. revert). */
void tress_document_page_rebuild_editor (TressDocumentPage *self);
/* The tab label widget (created with the page). */
GtkWidget *tress_document_page_get_tab (TressDocumentPage *self);
/* "name.cha" or "• name.cha" when modified, "name.cha — folder" with a
 * detail: what the tab shows. */
char *tress_document_page_dup_tab_title (TressDocumentPage *self);
/* What tells this tab from another of the same name (its file's folder), or
 * NULL; the window sets it. */
void tress_document_page_set_tab_detail (TressDocumentPage *self, const char *detail);

/* Compares the file on disk with what the document read or last saved, and
 * shows or hides the page's banner (the page also does so on file-monitor
 * events). */
void tress_document_page_check_disk (TressDocumentPage *self);
/* Property "disk-changed": the file on disk is not what the document holds
 * (notified too when it goes from changed to deleted or back). */
gboolean tress_document_page_get_disk_changed (TressDocumentPage *self);
/* Changed on disk, and still there to be read again. */
gboolean tress_document_page_get_can_reload (TressDocumentPage *self);

/* Signal "close-requested": the tab's close button was clicked. */

/* The bar above the editor with the file's problem count (hidden when there
 * are none or the editor shows them), and the window its button opens. */
GtkWidget *tress_document_page_get_problems_bar (TressDocumentPage *self);
GtkWidget *tress_document_page_get_problems_window (TressDocumentPage *self);

G_END_DECLS
