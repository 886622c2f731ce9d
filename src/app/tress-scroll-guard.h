/* tress-scroll-guard.h: the mouse wheel scrolls panels, not the fields in them
 *
 * The GNOME convention: a spin button, scale or drop-down changes its value
 * on a scroll only while it has the keyboard focus. Scrolling over one that
 * does not have it scrolls the panel around it instead (the nearest
 * GtkScrolledWindow), so a user scrolling down the inspector never edits what
 * passes under the pointer. Values change by typing, clicking or dragging the
 * field itself, or by scrolling once it has been clicked into.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Guards every field inside @container, those added later included (one
 * capture-phase scroll controller on @container). */
void tress_scroll_guard_install (GtkWidget *container);
/* The guarded field @widget is or is inside (a spin button, scale or
 * drop-down), or NULL. */
GtkWidget *tress_scroll_guard_field (GtkWidget *widget);
/* Whether a scroll over @widget would be taken from it: it is in a guarded
 * field that does not have the focus. */
gboolean tress_scroll_guard_blocks (GtkWidget *widget);

G_END_DECLS
