/* tress-info-view.h: the generic page of a document: what it is and what is wrong
 *
 * Shows the format's describe() text and the document's validate problems (severity,
 * location, byte offset, message, available fix). Updated after every change of
 * the document. Used for formats that have no editor of their own.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/tress-document.h"

G_BEGIN_DECLS

#define TRESS_TYPE_INFO_VIEW (tress_info_view_get_type ())
G_DECLARE_FINAL_TYPE (TressInfoView, tress_info_view, TRESS, INFO_VIEW, GtkWidget)

GtkWidget *tress_info_view_new (TressDocument *doc);
TressDocument *tress_info_view_get_document (TressInfoView *self);
/* Shows the title and the problems only, not the format's description. */
void tress_info_view_set_problems_only (TressInfoView *self, gboolean problems_only);
/* The text shown: the description, and one line per problem (for tests and copying). */
char *tress_info_view_dup_text (TressInfoView *self);

G_END_DECLS
