/* tress-scroll-guard.c: wheel scrolls over unfocused fields go to the panel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-scroll-guard.h"

#include <math.h>

GtkWidget *
tress_scroll_guard_field (GtkWidget *widget)
{
  for (; widget != NULL; widget = gtk_widget_get_parent (widget))
    if (GTK_IS_SPIN_BUTTON (widget) || GTK_IS_RANGE (widget) || GTK_IS_DROP_DOWN (widget))
      return widget;
  return NULL;
}

gboolean
tress_scroll_guard_blocks (GtkWidget *widget)
{
  GtkWidget *field = tress_scroll_guard_field (widget);

  /* A spin button's focus is in its text, a drop-down's in its button. */
  return field != NULL && !gtk_widget_has_focus (field)
         && !(gtk_widget_get_state_flags (field) & GTK_STATE_FLAG_FOCUS_WITHIN);
}

/* Where the pointer is over the container (scroll events carry no position
 * in GTK 4.8), and what was under it at its last motion: GTK sends a scroll to
 * that widget even when the panel has scrolled another one under the pointer
 * since, so both count. */
typedef struct
{
  double x, y;
  gboolean inside;
  GtkWidget *at_motion; /* weak */
} Pointer;

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, Pointer *p)
{
  GtkWidget *container = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (motion));

  p->x = x;
  p->y = y;
  p->inside = TRUE;
  g_set_weak_pointer (&p->at_motion, gtk_widget_pick (container, x, y, GTK_PICK_DEFAULT));
}

static void
on_leave (GtkEventControllerMotion *motion, Pointer *p)
{
  p->inside = FALSE;
  g_clear_weak_pointer (&p->at_motion);
}

static void
pointer_free (Pointer *p)
{
  g_clear_weak_pointer (&p->at_motion);
  g_free (p);
}

static void
scroll_adjustment (GtkAdjustment *adj, double delta, gboolean wheel)
{
  double page, value;

  if (adj == NULL || delta == 0)
    return;
  page = gtk_adjustment_get_page_size (adj);
  /* A wheel step moves as GtkScrolledWindow's own would. */
  if (wheel)
    delta *= pow (MAX (page, 1), 2.0 / 3.0);
  value = gtk_adjustment_get_value (adj) + delta;
  gtk_adjustment_set_value (
      adj, CLAMP (value, gtk_adjustment_get_lower (adj), gtk_adjustment_get_upper (adj) - page));
}

static gboolean
on_scroll (GtkEventControllerScroll *scroll, double dx, double dy, Pointer *p)
{
  GtkWidget *container = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (scroll));
  GtkWidget *now = p->inside ? gtk_widget_pick (container, p->x, p->y, GTK_PICK_DEFAULT) : NULL;
  GtkWidget *target, *panel;
  gboolean wheel;

  if (p->at_motion != NULL && tress_scroll_guard_blocks (p->at_motion))
    target = p->at_motion;
  else if (now != NULL && tress_scroll_guard_blocks (now))
    target = now;
  else
    return FALSE;
  wheel = gtk_event_controller_scroll_get_unit (scroll) == GDK_SCROLL_UNIT_WHEEL;
  panel = gtk_widget_get_ancestor (target, GTK_TYPE_SCROLLED_WINDOW);
  if (panel != NULL)
    {
      GtkScrolledWindow *sw = GTK_SCROLLED_WINDOW (panel);

      scroll_adjustment (gtk_scrolled_window_get_vadjustment (sw), dy, wheel);
      scroll_adjustment (gtk_scrolled_window_get_hadjustment (sw), dx, wheel);
    }
  /* Taken either way: the field never sees it. */
  return TRUE;
}

void
tress_scroll_guard_install (GtkWidget *container)
{
  GtkEventController *scroll
      = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  GtkEventController *motion = gtk_event_controller_motion_new ();
  Pointer *p = g_new0 (Pointer, 1);

  /* Freed with the controller, which the container owns. */
  g_object_set_data_full (G_OBJECT (scroll), "tress-pointer", p, (GDestroyNotify)pointer_free);
  gtk_event_controller_set_propagation_phase (motion, GTK_PHASE_CAPTURE);
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), p);
  g_signal_connect (motion, "enter", G_CALLBACK (on_motion), p);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), p);
  gtk_widget_add_controller (container, motion);
  gtk_event_controller_set_propagation_phase (scroll, GTK_PHASE_CAPTURE);
  gtk_event_controller_set_name (scroll, "tress-scroll-guard");
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), p);
  gtk_widget_add_controller (container, scroll);
}
