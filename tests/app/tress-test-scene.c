/* tress-test-scene.c: the animation preview in a window, for UI tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-test-scene.h"

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <gdk/x11/gdkx.h>
#include <stdlib.h>

#include "scene/tress-scene-renderer.h"
#include "tress-document-page.h"
#include "tress-png.h"
#include "tress-test-utils.h"
#include "tress-test-window.h"

TressApplication *
tress_test_scene_init (int *argc, char ***argv)
{
  return tress_test_window_init (argc, argv);
}

void
tress_test_scene_open (TressTestScene *f, const char *path)
{
  f->window = tress_test_window_new (960, 640);
  tress_test_scene_load (f, path);
}

void
tress_test_scene_load (TressTestScene *f, const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);

  tress_window_open_file (f->window, file);
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (f->window) == 1
                       && !tress_window_get_busy (f->window));
  f->editor = TRESS_CURVE_EDITOR (
      tress_document_page_get_editor (tress_window_get_current_page (f->window)));
  f->view = tress_curve_editor_get_view (f->editor);
  f->doc = tress_curve_editor_get_document (f->editor);
  f->pane = TRESS_SCENE_PANE (tress_curve_editor_get_preview (f->editor));
  g_assert_nonnull (f->pane);
  f->preview = tress_scene_pane_get_preview (f->pane);
  TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (GTK_WIDGET (f->preview)));
}

void
tress_test_scene_wait_scene (TressTestScene *f)
{
  TRESS_TEST_WAIT_FOR (tress_scene_pane_get_animator (f->pane) != NULL
                       || tress_scene_preview_get_message (f->preview) != NULL);
}

gboolean
tress_test_scene_wait_gl (TressTestScene *f)
{
  TRESS_TEST_WAIT_FOR (tress_scene_preview_get_gl_ready (f->preview)
                       || tress_scene_preview_get_gl_error (f->preview) != NULL);
  return tress_scene_preview_get_gl_ready (f->preview);
}

void
tress_test_scene_close (TressTestScene *f)
{
  tress_test_window_destroy (g_steal_pointer (&f->window));
}

int
tress_test_scene_curve (TressTestScene *f, const char *path)
{
  for (guint i = 0; i < tress_curve_document_get_n_curves (f->doc); i++)
    if (g_strcmp0 (tress_curve_document_get_curve (f->doc, i)->path, path) == 0)
      return (int)i;
  return -1;
}

void
tress_test_scene_nudge_key (TressTestScene *f, guint key)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->view), "curve.select-key", "(uub)",
                                             tress_curve_view_get_curve_index (f->view, 0), key,
                                             FALSE));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->view), "curve.nudge", "(ii)", 0, 1));
  g_assert_true (tress_document_get_modified (TRESS_DOCUMENT (f->doc)));
}

GBytes *
tress_test_scene_settled_screen (TressTestScene *f)
{
  guint frames = tress_scene_preview_get_n_frames (f->preview);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  GBytes *last = NULL;
  int w, h;

  gtk_gl_area_queue_render (GTK_GL_AREA (f->area));
  TRESS_TEST_WAIT_FOR (tress_scene_preview_get_n_frames (f->preview) > frames);
  for (;;)
    {
      GBytes *now;

      /* Another frame painted, and what the screen shows of it. */
      tress_test_wait_frame (f->area);
      now = tress_test_screen_pixels (f->area, &w, &h);
      if (last != NULL && g_bytes_equal (last, now))
        {
          g_bytes_unref (now);
          return last;
        }
      if (g_get_monotonic_time () > deadline)
        g_error ("the preview on the screen did not settle within 20 s");
      if (last != NULL)
        g_bytes_unref (last);
      last = now;
    }
}

/* ---- widgets found by what they show ---- */

GtkWidget *
tress_test_find_label (GtkWidget *w, const char *text, GtkWidget *root, double *best_y)
{
  GtkWidget *found = NULL;

  if (GTK_IS_LABEL (w) && gtk_widget_get_mapped (w)
      && g_strcmp0 (gtk_label_get_text (GTK_LABEL (w)), text) == 0)
    {
      graphene_rect_t b;

      if (gtk_widget_compute_bounds (w, root, &b) && b.origin.y < *best_y)
        {
          *best_y = b.origin.y;
          found = w;
        }
    }
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *in = tress_test_find_label (c, text, root, best_y);

      if (in != NULL)
        found = in;
    }
  return found;
}

GtkWidget *
tress_test_find_tooltip (GtkWidget *w, const char *tooltip)
{
  if (g_strcmp0 (gtk_widget_get_tooltip_text (w), tooltip) == 0)
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *in = tress_test_find_tooltip (c, tooltip);

      if (in != NULL)
        return in;
    }
  return NULL;
}

GtkWidget *
tress_test_find_button (GtkWidget *w, const char *label, const char *action)
{
  if (GTK_IS_BUTTON (w) && gtk_widget_get_mapped (w)
      && (label != NULL
              ? g_strcmp0 (gtk_button_get_label (GTK_BUTTON (w)), label) == 0
              : g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (w)), action) == 0))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *in = tress_test_find_button (c, label, action);

      if (in != NULL)
        return in;
    }
  return NULL;
}

/* ---- what the X server shows ---- */

/* The rectangle (@x, @y, @width × @height) of @native's X window, RGB. */
static GBytes *
grab_rect (GtkNative *native, int x, int y, int width, int height)
{
  GdkSurface *surface = gtk_native_get_surface (native);
  Display *dpy = gdk_x11_display_get_xdisplay (gtk_widget_get_display (GTK_WIDGET (native)));
  XImage *image;
  guint8 *rgb;

  XSync (dpy, False);
  image = XGetImage (dpy, gdk_x11_surface_get_xid (surface), x, y, (unsigned)width,
                     (unsigned)height, AllPlanes, ZPixmap);
  g_assert_nonnull (image);
  rgb = g_malloc ((gsize)width * (gsize)height * 3);
  for (int py = 0; py < height; py++)
    for (int px = 0; px < width; px++)
      {
        unsigned long p = XGetPixel (image, px, py);
        guint8 *o = rgb + ((gsize)py * (gsize)width + (gsize)px) * 3;

        o[0] = (guint8)((p & image->red_mask) >> __builtin_ctzl (image->red_mask));
        o[1] = (guint8)((p & image->green_mask) >> __builtin_ctzl (image->green_mask));
        o[2] = (guint8)((p & image->blue_mask) >> __builtin_ctzl (image->blue_mask));
      }
  XDestroyImage (image);
  return g_bytes_new_take (rgb, (gsize)width * (gsize)height * 3);
}

GBytes *
tress_test_screen_pixels (GtkWidget *widget, int *width, int *height)
{
  GtkNative *native = gtk_widget_get_native (widget);
  graphene_rect_t b;
  double sx, sy;

  g_assert_true (gtk_widget_compute_bounds (widget, GTK_WIDGET (native), &b));
  gtk_native_get_surface_transform (native, &sx, &sy);
  *width = (int)b.size.width;
  *height = (int)b.size.height;
  return grab_rect (native, (int)(b.origin.x + sx), (int)(b.origin.y + sy), *width, *height);
}

static gboolean
screen_differs (GtkWidget *widget, GBytes *before, guint min, GBytes **now)
{
  int w, h;

  if (*now != NULL)
    g_bytes_unref (*now);
  *now = tress_test_screen_pixels (widget, &w, &h);
  return tress_test_pixels_different (before, *now, 3, 6) > min;
}

GBytes *
tress_test_screen_changed (GtkWidget *widget, GBytes *before, guint min)
{
  GBytes *now = NULL;

  TRESS_TEST_WAIT_FOR (screen_differs (widget, before, min, &now));
  return now;
}

void
tress_test_screen_save_png (GtkWidget *window, const char *path)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));
  int w = gdk_surface_get_width (surface), h = gdk_surface_get_height (surface);
  g_autoptr (GBytes) rgb = grab_rect (GTK_NATIVE (window), 0, 0, w, h);
  g_autoptr (GdkTexture) texture
      = gdk_memory_texture_new (w, h, GDK_MEMORY_R8G8B8, rgb, (gsize)w * 3);
  g_autoptr (GError) error = NULL;

  g_assert_true (tress_texture_save_png (texture, path, &error));
  g_assert_no_error (error);
}

/* ---- counts over pictures ---- */

guint
tress_test_pixels_different (GBytes *a, GBytes *b, guint bpp, guint tolerance)
{
  gsize n, m;
  const guint8 *x = g_bytes_get_data (a, &n), *y = g_bytes_get_data (b, &m);
  guint count = 0;

  g_assert_cmpuint (n, ==, m);
  for (gsize i = 0; i + bpp - 1 < n; i += bpp)
    count += (guint)(abs (x[i] - y[i]) + abs (x[i + 1] - y[i + 1]) + abs (x[i + 2] - y[i + 2]))
             > tolerance;
  return count;
}

guint
tress_test_pixels_drawn (GBytes *pixels, guint bpp)
{
  gsize n;
  const guint8 *d = g_bytes_get_data (pixels, &n);
  guint count = 0;

  for (gsize i = 0; i + bpp - 1 < n; i += bpp)
    count += abs (d[i] - TRESS_SCENE_BACKGROUND_R) > 2
             || abs (d[i + 1] - TRESS_SCENE_BACKGROUND_G) > 2
             || abs (d[i + 2] - TRESS_SCENE_BACKGROUND_B) > 2;
  return count;
}

guint
tress_test_pixels_cyan_or_blue (GBytes *pixels, guint bpp, gboolean cyan)
{
  gsize n;
  const guint8 *d = g_bytes_get_data (pixels, &n);
  guint count = 0;

  for (gsize i = 0; i + bpp - 1 < n; i += bpp)
    if (cyan ? d[i] < 60 && d[i + 1] > 120 && d[i + 2] > 120
             : d[i] < 60 && d[i + 1] < 90 && d[i + 2] > 120)
      count++;
  return count;
}
