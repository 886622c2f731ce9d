/* tress-test-pointer.h: a real pointer for UI tests (XTest under Xvfb)
 *
 * Moves the X pointer, presses buttons and turns the wheel through the XTest
 * extension, so the events reach GTK as a user's would (picking, focus,
 * crossing, gesture recognition, the widgets' own scroll handling). The
 * coordinates are a widget's own; the helpers spin the main loop until GTK has
 * seen the events.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* TRUE when @widget's display is X11 with XTest; otherwise marks the test
 * skipped (g_test_skip) and returns FALSE. */
gboolean tress_test_pointer_available (GtkWidget *widget);
/* Moves the pointer to (@x, @y) in @widget's coordinates (realized, mapped). */
void tress_test_pointer_move (GtkWidget *widget, double x, double y);
/* Presses (@press) or releases button @button (1 left, 2 middle, 3 right). */
void tress_test_pointer_button (guint button, gboolean press);
/* Moves the pointer to (@x, @y) of @widget and clicks the left button there. */
void tress_test_pointer_click (GtkWidget *widget, double x, double y);
/* Turns the wheel by @steps notches where the pointer is: > 0 down, < 0 up. */
void tress_test_pointer_scroll (int steps);
/* Holds (@press) or lets go of a modifier key (GDK_KEY_Shift_L, GDK_KEY_Control_L…). */
void tress_test_pointer_key (guint keyval, gboolean press);
/* The same, without waiting for the window to see them: for the keys that
 * close the window they are typed into, the buttons that open a popover
 * (which takes the release). */
void tress_test_pointer_key_unwatched (guint keyval, gboolean press);
void tress_test_pointer_button_unwatched (guint button, gboolean press);
/* A press, moves through @n points (pairs of widget coordinates) and a release. */
void tress_test_pointer_drag (GtkWidget *widget, guint button, const double *points, guint n);

G_END_DECLS
