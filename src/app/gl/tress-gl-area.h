/* tress-gl-area.h: what every 3D preview does the same way with GL
 *
 * - tress_gl_area_new(): a GtkGLArea asking for a GL 3.3 core context, with a
 *   depth buffer, rendering only when queued.
 * - tress_gl_fallback_new(): the page pair the area sits in: the picture, or
 *   a label saying why there is none (GDK_DEBUG=gl-disable, no driver, a
 *   shader the driver refused); tress_gl_fallback_show() turns to the label.
 *   The rest of the editor never depends on GL working.
 * - tress_gl_area_begin(): make current in "realize" and report the error the
 *   area already has, if any.
 * - tress_gl_program_new(): compile and link a vertex and a fragment shader.
 * - tress_gl_area_read_pixels(): read back what was just drawn, top row first.
 * - tress_gl_camera_attach(): the pointer gestures of the shared camera (drag
 *   orbits, Shift+drag or the middle button pans, scrolling zooms).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <epoxy/gl.h>
#include <gtk/gtk.h>

#include "tress-gl-camera.h"

G_BEGIN_DECLS

GtkWidget *tress_gl_area_new (void);

/* A GtkStack holding @area (page "gl") and a wrapping label (page
 * "unavailable"), the picture shown. */
GtkWidget *tress_gl_fallback_new (GtkWidget *area);
/* Shows "3D preview unavailable: @message" instead of the picture; returns
 * that text (free it). */
char *tress_gl_fallback_show (GtkWidget *fallback, const char *message);

/* Makes @area current; FALSE with @error set when it has no usable context. */
gboolean tress_gl_area_begin (GtkGLArea *area, GError **error);

/* A linked program, or 0 with @error set (the driver's log in the message). */
GLuint tress_gl_program_new (const char *vertex_source, const char *fragment_source,
                             GError **error);

/* Reads the current framebuffer of @area (its size in device pixels): RGBA
 * rows, top to bottom. Call it right after drawing into the area's buffers
 * (gtk_gl_area_make_current + gtk_gl_area_attach_buffers + draw). NULL when the
 * area has no size. */
GBytes *tress_gl_area_read_pixels (GtkGLArea *area, int *width, int *height);

/* Camera gestures on @area, moving @cam (which must outlive @area). @moved
 * runs after every change of the camera by the pointer (TRESS_GL_CAMERA_MOVED;
 * the caller queues the render) and at the end of every drag
 * (TRESS_GL_CAMERA_DRAG_END, moved or not: a press without movement is a
 * click, left to the caller's own click gesture). */
typedef enum
{
  TRESS_GL_CAMERA_MOVED,
  TRESS_GL_CAMERA_DRAG_END,
} TressGlCameraEvent;

typedef void (*TressGlCameraMoved) (gpointer user_data, TressGlCameraEvent event);
void tress_gl_camera_attach (TressGlCamera *cam, GtkWidget *area, TressGlCameraMoved moved,
                             gpointer user_data);

G_END_DECLS
