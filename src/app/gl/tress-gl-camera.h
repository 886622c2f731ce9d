/* tress-gl-camera.h: the orbit camera and screen-space picking of the 3D previews
 *
 * One camera for every preview: it looks at a target from a distance, turned
 * by a yaw around the vertical axis and a pitch above the horizon (degrees).
 * Dragging orbits, Shift+drag or the middle button pans, scrolling zooms, and
 * "frame" fits a box into the view. Matrices use graphene's row-vector layout
 * (as GL reads a column-major float[16]: pass them to glUniformMatrix4fv as
 * they are).
 *
 * The picking helpers project points to widget pixels (y down) and measure
 * distances there, so each preview picks its own primitives (ribbons,
 * triangles, bone sticks) exactly on the CPU whatever the GPU drew.
 *
 * GLib and graphene only: no GL, no GTK, so the maths is unit tested.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <graphene.h>

G_BEGIN_DECLS

#define TRESS_GL_CAMERA_FOV_DEGREES 40.0

typedef struct
{
  float target[3];
  double distance; /* from the target to the eye */
  double yaw;      /* degrees around +Y; 0 looks down −Z from +Z */
  double pitch;    /* degrees above the horizon, within ±89 */

  /* The state a drag started from (tress_gl_camera_drag_begin). */
  double drag_yaw, drag_pitch;
  float drag_target[3];
} TressGlCamera;

void tress_gl_camera_init (TressGlCamera *cam, double distance, double yaw, double pitch);

/* The eye position in world space. */
void tress_gl_camera_eye (const TressGlCamera *cam, float eye[3]);
/* View and projection for a viewport of @width × @height (any unit: only the
 * aspect counts); @mvp = view × projection (row vectors). */
void tress_gl_camera_matrices (const TressGlCamera *cam, double width, double height,
                               graphene_matrix_t *view, graphene_matrix_t *projection,
                               graphene_matrix_t *mvp);
void tress_gl_camera_mvp (const TressGlCamera *cam, double width, double height, float mvp[16]);

/* Turns by @yaw and @pitch degrees (pitch clamped to ±89). */
void tress_gl_camera_orbit (TressGlCamera *cam, double yaw, double pitch);
/* Multiplies the distance by @factor (< 1 comes closer), within 1e-4…1e6. */
void tress_gl_camera_zoom (TressGlCamera *cam, double factor);

/* A drag: remember where it started, then move by the offset from there (in
 * widget pixels; @height of the viewport scales a pan so that the point under
 * the pointer follows it). @pan: move the target instead of orbiting. */
void tress_gl_camera_drag_begin (TressGlCamera *cam);
void tress_gl_camera_drag_update (TressGlCamera *cam, double dx, double dy, double height,
                                  gboolean pan);

/* Looks at the centre of the box @lo…@hi from far enough to see all of it
 * (keeps yaw and pitch). FALSE, camera unchanged, when lo > hi on an axis. */
gboolean tress_gl_camera_frame (TressGlCamera *cam, const float lo[3], const float hi[3]);

/* Projects @p through @mvp into a @width × @height viewport: out[0], out[1]
 * in pixels from the top left, out[2] the depth (NDC z). FALSE when the point
 * is behind the eye. */
gboolean tress_gl_project (const float mvp[16], const float p[3], double width, double height,
                           double out[3]);
/* Distance in the screen plane from (@x, @y) to the segment @a–@b (projected points). */
double tress_gl_segment_distance (const double a[3], const double b[3], double x, double y);
/* Whether (@x, @y) lies inside the projected triangle @a @b @c; *depth (may be
 * NULL) gets the interpolated depth there. Degenerate triangles hold nothing. */
gboolean tress_gl_triangle_hit (const double a[3], const double b[3], const double c[3], double x,
                                double y, double *depth);

G_END_DECLS
