/* tress-tooltip.h: setting a tooltip only when its text changes
 *
 * gtk_widget_set_tooltip_text() asks the display server where the pointer is
 * on every call (a round trip on X11), even when the text is the one shown.
 * Panels brought up to date per curve an edit changes, per history step or
 * per pointer motion set their tooltips through this instead.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

static inline void
tress_set_tooltip (GtkWidget *widget, const char *text)
{
  if (g_strcmp0 (gtk_widget_get_tooltip_text (widget), text) != 0)
    gtk_widget_set_tooltip_text (widget, text);
}
