/* tress-scene-gizmo-math.h: the pose gizmo's maths, without GTK or GL
 *
 * The gizmo sits at a bone, in a frame: the bone's own axes (local) or the
 * model's (X red, Y green, Z blue). Its handles, all sized in pixels on
 * screen whatever the zoom:
 *   - three rings, one per axis, each a circle in the plane across its axis,
 *     TRESS_GIZMO_RADIUS pixels wide;
 *   - the trackball: a grey circle facing the eye just outside the rings
 *     (TRESS_GIZMO_TRACKBALL_RADIUS); dragging it turns the bone freely, about
 *     the screen line across the pointer's motion, a radian per radius of
 *     motion, the sphere's front following the pointer;
 *   - three arrows along the axes (where the animation moves the bone),
 *     from TRESS_GIZMO_ARROW_START to TRESS_GIZMO_ARROW_END pixels out.
 * Handles are hit in screen space (the nearest within a tolerance). A ring's
 * drag measures the pointer's angle around the bone's screen position: the
 * change since the press is the rotation about the ring's axis, signed so
 * that the ring's points follow the pointer. An arrow's drag moves the bone
 * along its axis so that it lands on screen as far along the arrow as the
 * pointer went. Shift: a tenth of each motion; Ctrl:
 * a ring's or the trackball's angle in whole 5° steps. A turn about the
 * bone's own axis composes after its local rotation (R' = R · R_axis(angle));
 * a turn Q of the world (the model's axes, the trackball) is taken into the
 * bone's frame F (orthonormal): R' = R · Fᵀ·Q·F. Rotations are decomposed into
 * Euler XYZ (R = Rz · Ry · Rx) nearest the angles they started from.
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
#define TRESS_GIZMO_TRACKBALL_RADIUS 94.0 /* pixels */
#define TRESS_GIZMO_ARROW_START 18.0      /* pixels from the bone */
#define TRESS_GIZMO_ARROW_END 132.0
#define TRESS_GIZMO_ARROW_HEAD 16.0
#define TRESS_GIZMO_ARROW_MIN 24.0 /* an arrow shorter on screen (seen end on) is not shown */

/* A gizmo's handles; masks of (1 << handle) say which are shown. */
typedef enum
{
  TRESS_GIZMO_RING_X,
  TRESS_GIZMO_RING_Y,
  TRESS_GIZMO_RING_Z,
  TRESS_GIZMO_TRACKBALL,
  TRESS_GIZMO_ARROW_X,
  TRESS_GIZMO_ARROW_Y,
  TRESS_GIZMO_ARROW_Z,
  TRESS_GIZMO_N_HANDLES,
} TressGizmoHandle;

#define TRESS_GIZMO_TURNING 0x0Fu /* the rings and the trackball */
#define TRESS_GIZMO_MOVING 0x70u  /* the arrows */

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
  int axis;           /* a ring's or an arrow's axis */
  double cx, cy;      /* the bone's widget position */
  double sign;        /* +1 or −1: screen angle to rotation */
  double last;        /* the pointer's screen angle last seen */
  double accumulated; /* radians (a ring), world units (an arrow), before snapping */
  gboolean valid;     /* the pointer has been away from the centre */
  /* The trackball. */
  double x, y;     /* the pointer last seen */
  double right[3]; /* world directions of the screen's right and up at the bone */
  double up[3];
  double turn[3][3]; /* the world turned so far */
  double pixels;     /* the trackball's radius in pixels */
  /* An arrow. */
  double dir_x, dir_y; /* the arrow's direction on screen (unit) */
  double per_unit;     /* pixels per world unit along it, at the bone */
  double along;        /* the pointer's motion along it so far (pixels) */
  double clip0[4];     /* the bone's origin in clip space, and a world unit along the axis */
  double clipd[4];
  double width, height;
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

/* The handle of the mask @shown within reach of widget point (@x, @y), the
 * nearest; −1 for none (and near the bone itself). */
int tress_gizmo_hit_handle (const TressGizmoFrame *frame, const float mvp[16], double width,
                            double height, guint shown, double x, double y);
/* Where arrow @axis starts and ends on screen (@xy: 4 numbers); FALSE when it
 * is not shown (behind the eye, or shorter than TRESS_GIZMO_ARROW_MIN). */
gboolean tress_gizmo_arrow_points (const TressGizmoFrame *frame, const float mvp[16], double width,
                                   double height, int axis, double xy[4]);

/* A drag of the trackball pressed at (@x, @y). */
void tress_gizmo_trackball_begin (TressGizmoDrag *drag, const TressGizmoFrame *frame,
                                  const float mvp[16], double width, double height, double x,
                                  double y);
/* The world's turn so far with the pointer at (@x, @y) (@fine: this move's
 * part at TRESS_GIZMO_FINE; @snap: its angle rounded to TRESS_GIZMO_SNAP),
 * into @turn. */
void tress_gizmo_trackball_update (TressGizmoDrag *drag, double x, double y, gboolean fine,
                                   gboolean snap, double turn[3][3]);
/* A drag of arrow @axis pressed at (@x, @y); FALSE when the arrow is not shown. */
gboolean tress_gizmo_move_begin (TressGizmoDrag *drag, const TressGizmoFrame *frame,
                                 const float mvp[16], double width, double height, int axis,
                                 double x, double y);
/* The distance moved along the arrow's axis (world units) with the pointer
 * at (@x, @y): where the bone lands on screen as far along the arrow as the
 * pointer went (perspective included); @fine counts this move's part at
 * TRESS_GIZMO_FINE. */
double tress_gizmo_move_update (TressGizmoDrag *drag, double x, double y, gboolean fine);

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
/* The turn by @angle about unit vector @axis. */
void tress_gizmo_axis_matrix (const double axis[3], double angle, double m[3][3]);
/* The local rotation @euler under a turn @turn of the world, the bone's axes
 * pointing along @frame's (orthonormalized): R · Fᵀ·turn·F, as Euler XYZ
 * nearest @near. */
void tress_gizmo_rotate_world (const double euler[3], const TressGizmoFrame *frame,
                               const double turn[3][3], const double near[3], double out[3]);
/* Solves m · x = v (3×3); FALSE when m is singular. */
gboolean tress_gizmo_solve3 (const double m[3][3], const double v[3], double x[3]);
/* The angle (radians, −π … π) of the rotation taking @a to @b about the bone's
 * own axis @axis, and in *off the size of the part about any other axis. */
double tress_gizmo_angle_between (const double a[3][3], const double b[3][3], int axis,
                                  double *off);

/* Appends to @out (TressStickVertex triangles) the three rings; @active: the
 * ring dragged or under the pointer (drawn wider and brighter), or −1. */
void tress_gizmo_build (const TressGizmoFrame *frame, const float mvp[16], double width,
                        double height, int active, GArray *out);
/* The same for the handles of the mask @shown; @active: a handle or −1. */
void tress_gizmo_build_handles (const TressGizmoFrame *frame, const float mvp[16], double width,
                                double height, guint shown, int active, GArray *out);

G_END_DECLS
