/* tress-scene-gizmo-math.h: the rotation gizmo's maths, without GTK or GL
 *
 * The gizmo sits at a bone: three rings, one per axis of the bone's own frame
 * (X red, Y green, Z blue), each a circle in the plane across its axis, sized
 * to TRESS_GIZMO_RADIUS pixels on screen whatever the zoom. Rings are hit in
 * screen space (the nearest within a tolerance). A drag measures the
 * pointer's angle around the bone's screen position: the change since the
 * press is the rotation about the ring's axis, signed so that the ring's
 * points follow the pointer (Shift: a tenth of it; Ctrl: whole 5° steps). The
 * rotation composes after the bone's local rotation (about the bone's own
 * axis: R' = R · R_axis(angle)) and is decomposed into Euler XYZ
 * (R = Rz · Ry · Rx) nearest the angles it started from.
 *
 * Matrices as graphene's (row vectors: p' = p × M); mvp maps world points to
 * clip space, widget pixels have y down.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <graphene.h>

G_BEGIN_DECLS

#define TRESS_GIZMO_RADIUS 80.0   /* pixels */
#define TRESS_GIZMO_TOLERANCE 7.0 /* pixels either side of a ring */
#define TRESS_GIZMO_SEGMENTS 72
#define TRESS_GIZMO_SNAP (5 * G_PI / 180)
#define TRESS_GIZMO_FINE 0.1

/* Where the gizmo sits: the bone's world origin and the unit world
 * directions of its X, Y and Z axes. */
typedef struct
{
  double origin[3];
  double axes[3][3];
} TressGizmoFrame;

/* From a bone's world matrix (rows 0–2: its axes, row 3: its origin). FALSE
 * when an axis has no length (a bone scaled to nothing). */
gboolean tress_gizmo_frame_from_world (const graphene_matrix_t *world, TressGizmoFrame *out);

/* Widget position of world point @p; FALSE behind the eye. */
gboolean tress_gizmo_project (const float mvp[16], double width, double height, const double p[3],
                              double *x, double *y);

/* The world radius that is @pixels wide on screen at the gizmo's origin;
 * 0 when the origin is behind the eye. */
double tress_gizmo_world_radius (const TressGizmoFrame *frame, const float mvp[16], double width,
                                 double height, double pixels);

/* The TRESS_GIZMO_SEGMENTS points of ring @axis (0 X, 1 Y, 2 Z) in widget
 * pixels (@xy: 2 per point) and whether each is in front of the eye. FALSE
 * when the origin is behind the eye. */
gboolean tress_gizmo_ring_points (const TressGizmoFrame *frame, const float mvp[16], double width,
                                  double height, int axis, double *xy, gboolean *front);

/* The ring within TRESS_GIZMO_TOLERANCE of widget point (@x, @y), the
 * nearest; −1 for none. */
int tress_gizmo_hit (const TressGizmoFrame *frame, const float mvp[16], double width, double height,
                     double x, double y);

typedef struct
{
  int axis;
  double cx, cy;      /* the bone's widget position */
  double sign;        /* +1 or −1: screen angle to rotation */
  double last;        /* the pointer's screen angle last seen */
  double accumulated; /* radians, before snapping */
  gboolean valid;     /* the pointer has been away from the centre */
} TressGizmoDrag;

/* A drag of ring @axis pressed at (@x, @y). */
void tress_gizmo_drag_begin (TressGizmoDrag *drag, const TressGizmoFrame *frame,
                             const float mvp[16], double width, double height, int axis, double x,
                             double y);
/* The rotation (radians) about the ring's axis with the pointer at (@x, @y):
 * @fine counts this move's part at TRESS_GIZMO_FINE, @snap rounds the whole
 * to TRESS_GIZMO_SNAP. */
double tress_gizmo_drag_update (TressGizmoDrag *drag, double x, double y, gboolean fine,
                                gboolean snap);

/* R = Rz · Ry · Rx (column vectors: m[row][col]). */
void tress_gizmo_euler_to_matrix (const double euler[3], double m[3][3]);
/* Quaternion x y z w → matrix. */
void tress_gizmo_quaternion_to_matrix (const double q[4], double m[3][3]);
/* The Euler XYZ angles of rotation @m nearest @near (of the two solutions and
 * the angles a whole turn apart). */
void tress_gizmo_matrix_to_euler (const double m[3][3], const double near[3], double out[3]);
/* The local rotation @euler turned by @angle about the bone's own axis @axis
 * (R · R_axis), as Euler XYZ nearest @euler. */
void tress_gizmo_rotate_local (const double euler[3], int axis, double angle, double out[3]);
/* The angle (radians, −π … π) of the rotation taking @a to @b about the bone's
 * own axis @axis, and in *off the size of the part about any other axis. */
double tress_gizmo_angle_between (const double a[3][3], const double b[3][3], int axis,
                                  double *off);

/* Appends to @out (TressStickVertex triangles) the three rings; @active: the
 * ring dragged or under the pointer (drawn wider and brighter), or −1. */
void tress_gizmo_build (const TressGizmoFrame *frame, const float mvp[16], double width,
                        double height, int active, GArray *out);

G_END_DECLS
