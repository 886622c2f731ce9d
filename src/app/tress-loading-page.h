/* tress-loading-page.h: files being opened, how far each is, and Cancel
 *
 * One row per load: the file's name, the phase and how much of it is done
 * ("Reading: 12.3 MB of 54.0 MB", "Looking through the archive: entry 1,234
 * of 65,535"), a progress bar and a Cancel button. The rows follow their
 * TressProgress ten times a second; Cancel cancels the load's cancellable
 * (its work stops at the next report) and emits "cancelled" at once.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "core/tress-progress.h"

G_BEGIN_DECLS

#define TRESS_TYPE_LOADING_PAGE (tress_loading_page_get_type ())
G_DECLARE_FINAL_TYPE (TressLoadingPage, tress_loading_page, TRESS, LOADING_PAGE, GtkWidget)

GtkWidget *tress_loading_page_new (void);
/* A row for the load of @file reporting to @progress. */
void tress_loading_page_add (TressLoadingPage *self, GFile *file, TressProgress *progress);
/* Removes @progress's row, if it has one. */
void tress_loading_page_remove (TressLoadingPage *self, TressProgress *progress);
guint tress_loading_page_get_n_loads (TressLoadingPage *self);
/* What the rows show (for tests): one line per load. */
char *tress_loading_page_dup_text (TressLoadingPage *self);

G_END_DECLS
