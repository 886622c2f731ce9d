/* tress-gl-area.c: what every 3D preview does the same way with GL
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-gl-area.h"

#include <glib/gi18n-lib.h>

#include <math.h>

static GdkGLContext *
on_create_context (GtkGLArea *area, gpointer data)
{
  GtkNative *native = gtk_widget_get_native (GTK_WIDGET (area));
  GdkSurface *surface = native != NULL ? gtk_native_get_surface (native) : NULL;
  g_autoptr (GError) error = NULL;
  GdkGLContext *context;

  if (surface == NULL)
    return NULL;
  context = gdk_surface_create_gl_context (surface, &error);
  if (context == NULL)
    {
      gtk_gl_area_set_error (area, error);
      return NULL;
    }
  gdk_gl_context_set_allowed_apis (context, GDK_GL_API_GL);
  gdk_gl_context_set_required_version (context, 3, 3);
  if (!gdk_gl_context_realize (context, &error))
    {
      gtk_gl_area_set_error (area, error);
      g_object_unref (context);
      return NULL;
    }
  return context;
}

GtkWidget *
tress_gl_area_new (void)
{
  GtkWidget *area = gtk_gl_area_new ();

  gtk_gl_area_set_has_depth_buffer (GTK_GL_AREA (area), TRUE);
  gtk_gl_area_set_auto_render (GTK_GL_AREA (area), FALSE);
  gtk_widget_set_size_request (area, 160, 120);
  g_signal_connect (area, "create-context", G_CALLBACK (on_create_context), NULL);
  return area;
}

GtkWidget *
tress_gl_fallback_new (GtkWidget *area)
{
  GtkWidget *stack = gtk_stack_new ();
  GtkWidget *label = gtk_label_new ("");
  GtkWidget *scroller = gtk_scrolled_window_new ();

  /* In a scrolled window, the wrapping text does not make the page's height
   * depend on its width (a pane of fixed width would then lie about it). */
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), label);
  g_object_set_data (G_OBJECT (stack), "tress-gl-label", label);
  gtk_stack_add_named (GTK_STACK (stack), area, "gl");
  gtk_stack_add_named (GTK_STACK (stack), scroller, "unavailable");
  gtk_stack_set_visible_child_name (GTK_STACK (stack), "gl");
  return stack;
}

char *
tress_gl_fallback_show (GtkWidget *fallback, const char *message)
{
  char *text = g_strdup_printf (_ ("3D preview unavailable: %s"), message);
  GtkWidget *label = g_object_get_data (G_OBJECT (fallback), "tress-gl-label");

  gtk_label_set_text (GTK_LABEL (label), text);
  gtk_stack_set_visible_child_name (GTK_STACK (fallback), "unavailable");
  return text;
}

gboolean
tress_gl_area_begin (GtkGLArea *area, GError **error)
{
  gtk_gl_area_make_current (area);
  if (gtk_gl_area_get_error (area) != NULL)
    {
      if (error != NULL)
        *error = g_error_copy (gtk_gl_area_get_error (area));
      return FALSE;
    }
  return TRUE;
}

static GLuint
compile (GLenum type, const char *source, GError **error)
{
  GLuint shader = glCreateShader (type);
  GLint ok = 0;

  glShaderSource (shader, 1, &source, NULL);
  glCompileShader (shader);
  glGetShaderiv (shader, GL_COMPILE_STATUS, &ok);
  if (!ok)
    {
      char log[1024] = "";

      glGetShaderInfoLog (shader, sizeof log, NULL, log);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "shader: %s", log);
      glDeleteShader (shader);
      return 0;
    }
  return shader;
}

GLuint
tress_gl_program_new (const char *vertex_source, const char *fragment_source, GError **error)
{
  GLuint vs = compile (GL_VERTEX_SHADER, vertex_source, error), fs, program;
  GLint ok = 0;

  if (vs == 0)
    return 0;
  fs = compile (GL_FRAGMENT_SHADER, fragment_source, error);
  if (fs == 0)
    {
      glDeleteShader (vs);
      return 0;
    }
  program = glCreateProgram ();
  glAttachShader (program, vs);
  glAttachShader (program, fs);
  glLinkProgram (program);
  glDeleteShader (vs);
  glDeleteShader (fs);
  glGetProgramiv (program, GL_LINK_STATUS, &ok);
  if (!ok)
    {
      char log[1024] = "";

      glGetProgramInfoLog (program, sizeof log, NULL, log);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "program: %s", log);
      glDeleteProgram (program);
      return 0;
    }
  return program;
}

GBytes *
tress_gl_area_read_pixels (GtkGLArea *area, int *width, int *height)
{
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (area));
  int w = gtk_widget_get_width (GTK_WIDGET (area)) * scale;
  int h = gtk_widget_get_height (GTK_WIDGET (area)) * scale, row;
  g_autofree guint8 *pixels = NULL;
  guint8 *flipped;

  if (w <= 0 || h <= 0)
    return NULL;
  pixels = g_malloc ((gsize)w * h * 4);
  glPixelStorei (GL_PACK_ALIGNMENT, 1);
  glReadPixels (0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  flipped = g_malloc ((gsize)w * h * 4);
  for (row = 0; row < h; row++)
    memcpy (flipped + (gsize)row * w * 4, pixels + (gsize)(h - 1 - row) * w * 4, (gsize)w * 4);
  *width = w;
  *height = h;
  return g_bytes_new_take (flipped, (gsize)w * h * 4);
}

/* ---- camera gestures ------------------------------------------------------ */

typedef struct
{
  TressGlCamera *cam;
  GtkWidget *area;
  TressGlCameraMoved moved;
  gpointer user_data;
  gboolean pan;
} CameraGestures;

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, CameraGestures *g)
{
  GdkModifierType mods
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));

  tress_gl_camera_drag_begin (g->cam);
  g->pan = (mods & GDK_SHIFT_MASK) || button == GDK_BUTTON_MIDDLE;
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, CameraGestures *g)
{
  if (dx == 0 && dy == 0)
    return;
  tress_gl_camera_drag_update (g->cam, dx, dy, gtk_widget_get_height (g->area), g->pan);
  g->moved (g->user_data, TRESS_GL_CAMERA_MOVED);
}

static void
on_drag_end (GtkGestureDrag *gesture, double dx, double dy, CameraGestures *g)
{
  g->moved (g->user_data, TRESS_GL_CAMERA_DRAG_END);
}

static gboolean
on_scroll (GtkEventControllerScroll *scroll, double dx, double dy, CameraGestures *g)
{
  tress_gl_camera_zoom (g->cam, pow (1.1, dy));
  g->moved (g->user_data, TRESS_GL_CAMERA_MOVED);
  return TRUE;
}

void
tress_gl_camera_attach (TressGlCamera *cam, GtkWidget *area, TressGlCameraMoved moved,
                        gpointer user_data)
{
  CameraGestures *g = g_new0 (CameraGestures, 1);
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkEventController *scroll
      = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);

  g->cam = cam;
  g->area = area;
  g->moved = moved;
  g->user_data = user_data;
  g_object_set_data_full (G_OBJECT (area), "tress-gl-camera-gestures", g, g_free);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), g);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), g);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), g);
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  gtk_widget_add_controller (area, GTK_EVENT_CONTROLLER (drag));
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), g);
  gtk_widget_add_controller (area, scroll);
}
