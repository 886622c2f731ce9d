/* tress-test-pointer.c: XTest pointer events for UI tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-test-pointer.h"

#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>
#include <gdk/x11/gdkx.h>

#include "tress-test-utils.h"
#include "tress-test-window.h"

static Display *xdisplay;
static int last_x = -1, last_y = -1;

/* Events GTK has received, counted by a capture-phase controller on each
 * window the pointer is used on: each helper waits until its event arrived. */
static guint n_motion, n_button, n_scroll, n_key;
/* The window of the last event (a weak pointer): what it set off is drawn there. */
static GtkWidget *events_root;

static void
set_events_root (GtkWidget *root)
{
  if (root == events_root)
    return;
  if (events_root != NULL)
    g_object_remove_weak_pointer (G_OBJECT (events_root), (gpointer *)&events_root);
  events_root = root;
  if (events_root != NULL)
    g_object_add_weak_pointer (G_OBJECT (events_root), (gpointer *)&events_root);
}

static gboolean
on_event (GtkEventControllerLegacy *legacy, GdkEvent *event, gpointer data)
{
  GtkWidget *widget = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (legacy));

  set_events_root (GTK_WIDGET (gtk_widget_get_root (widget)));
  switch (gdk_event_get_event_type (event))
    {
    case GDK_MOTION_NOTIFY:
      n_motion++;
      break;
    case GDK_BUTTON_PRESS:
    case GDK_BUTTON_RELEASE:
      n_button++;
      break;
    case GDK_SCROLL:
      n_scroll++;
      break;
    case GDK_KEY_PRESS:
    case GDK_KEY_RELEASE:
      n_key++;
      break;
    default:
      break;
    }
  return FALSE;
}

/* Counts the events of @native (a window, or a popover: events on a popover's
 * surface do not pass through its window's controllers). */
static void
count_events (GtkWidget *native)
{
  GtkEventController *legacy;

  if (g_object_get_data (G_OBJECT (native), "tress-test-pointer") != NULL)
    return;
  legacy = gtk_event_controller_legacy_new ();
  gtk_event_controller_set_propagation_phase (legacy, GTK_PHASE_CAPTURE);
  g_signal_connect (legacy, "event", G_CALLBACK (on_event), NULL);
  gtk_widget_add_controller (native, legacy);
  g_object_set_data (G_OBJECT (native), "tress-test-pointer", legacy);
}

gboolean
tress_test_pointer_available (GtkWidget *widget)
{
  GdkDisplay *display = gtk_widget_get_display (widget);
  GtkWidget *root = GTK_WIDGET (gtk_widget_get_root (widget));
  int event, error, major, minor;

  if (!GDK_IS_X11_DISPLAY (display))
    {
      g_test_skip ("the pointer is driven through XTest, which needs X11 (Xvfb)");
      return FALSE;
    }
  xdisplay = gdk_x11_display_get_xdisplay (display);
  if (!XTestQueryExtension (xdisplay, &event, &error, &major, &minor))
    {
      g_test_skip ("the X server has no XTest extension");
      return FALSE;
    }
  if (root != NULL)
    count_events (root);
  last_x = last_y = -1;
  return TRUE;
}

/* Lets what the last event set off run: a frame of its window laid out and
 * painted after it (unless the event closed the window). */
static void
settle_frame (void)
{
  if (events_root != NULL && gtk_widget_get_mapped (events_root))
    tress_test_wait_frame (events_root);
}

/* Waits until GTK has handled the event the server sends back (*@counter
 * passes @before), then lets what it set off run. */
static void
settle (guint *counter, guint before)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  XSync (xdisplay, False);
  while (*counter <= before)
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("the X server's event did not reach the window within 10 s");
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (1000);
    }
  settle_frame ();
}

void
tress_test_pointer_move (GtkWidget *widget, double x, double y)
{
  GtkNative *native = gtk_widget_get_native (widget);
  GdkSurface *surface = gtk_native_get_surface (native);
  graphene_point_t in = GRAPHENE_POINT_INIT ((float)x, (float)y), out;
  double sx, sy;
  int rx, ry;
  Window child;
  guint before;

  count_events (GTK_WIDGET (native));
  g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (native), &in, &out));
  gtk_native_get_surface_transform (native, &sx, &sy);
  XTranslateCoordinates (xdisplay, gdk_x11_surface_get_xid (surface), DefaultRootWindow (xdisplay),
                         (int)(out.x + sx), (int)(out.y + sy), &rx, &ry, &child);
  if (rx == last_x && ry == last_y)
    return;
  before = n_motion;
  XTestFakeMotionEvent (xdisplay, -1, rx, ry, CurrentTime);
  last_x = rx;
  last_y = ry;
  settle (&n_motion, before);
}

void
tress_test_pointer_button (guint button, gboolean press)
{
  guint before = n_button;

  XTestFakeButtonEvent (xdisplay, button, press, CurrentTime);
  settle (&n_button, before);
}

void
tress_test_pointer_click (GtkWidget *widget, double x, double y)
{
  tress_test_pointer_move (widget, x, y);
  tress_test_pointer_button (1, TRUE);
  tress_test_pointer_button (1, FALSE);
}

void
tress_test_pointer_scroll (int steps)
{
  guint button = steps > 0 ? 5 : 4;

  for (int i = 0; i < ABS (steps); i++)
    {
      guint before = n_scroll;

      XTestFakeButtonEvent (xdisplay, button, True, CurrentTime);
      XTestFakeButtonEvent (xdisplay, button, False, CurrentTime);
      settle (&n_scroll, before);
    }
}

void
tress_test_pointer_key (guint keyval, gboolean press)
{
  guint before = n_key;

  XTestFakeKeyEvent (xdisplay, XKeysymToKeycode (xdisplay, keyval), press, CurrentTime);
  settle (&n_key, before);
}

void
tress_test_pointer_button_unwatched (guint button, gboolean press)
{
  XTestFakeButtonEvent (xdisplay, button, press, CurrentTime);
  /* Sent: GTK reads it before it paints the next frame. */
  XSync (xdisplay, False);
  settle_frame ();
}

void
tress_test_pointer_key_unwatched (guint keyval, gboolean press)
{
  XTestFakeKeyEvent (xdisplay, XKeysymToKeycode (xdisplay, keyval), press, CurrentTime);
  XSync (xdisplay, False);
}

void
tress_test_pointer_drag (GtkWidget *widget, guint button, const double *points, guint n)
{
  g_return_if_fail (n > 0);
  tress_test_pointer_move (widget, points[0], points[1]);
  tress_test_pointer_button (button, TRUE);
  for (guint i = 1; i < n; i++)
    tress_test_pointer_move (widget, points[2 * i], points[2 * i + 1]);
  tress_test_pointer_button (button, FALSE);
}
