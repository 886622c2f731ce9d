/* tress-fur-mixed.h: spin buttons that show a mixed value
 *
 * A field whose value differs among the selected lines (or ribbons) shows a
 * dimmed "—" (its text is empty) and keeps the first one's value underneath;
 * typing a value, or its + and −, sets it on all of them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Shows @value in @spin, or the mixed state, without it being an edit (the
 * caller ignores the value-changed it emits). */
void tress_fur_show_spin (GtkWidget *spin, double value, gboolean mixed);
gboolean tress_fur_spin_is_mixed (GtkWidget *spin);

G_END_DECLS
