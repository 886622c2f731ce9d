/* tress-scene-sticks.h: the skeleton overlay of the 3D preview, and picking it
 *
 * Every visible node with a visible parent is drawn as a stick from the
 * parent's origin to its own, a few pixels wide whatever the distance; every
 * visible node also gets a small square at its origin (so roots and leaves
 * show). The geometry is made on the CPU in clip space each frame (a skeleton
 * has a few hundred nodes at most), so the sticks keep their width on screen
 * and need no geometry shader.
 *
 * Picking measures in widget pixels: a click within a few pixels of a stick
 * or a square picks that node (a stick belongs to its child end); the nearest
 * wins. Elsewhere, a click on a mesh picks the node it follows.
 *
 * GLib, graphene and the scene only: no GL, no GTK.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "formats/tress-scene.h"

G_BEGIN_DECLS

/* Widths in widget pixels. */
#define TRESS_SCENE_STICK_WIDTH 3.0
#define TRESS_SCENE_JOINT_SIZE 7.0
#define TRESS_SCENE_PICK_TOLERANCE 6.0

/* One vertex of the overlay: clip-space position and RGBA colour. */
typedef struct
{
  float clip[4];
  float colour[4];
} TressStickVertex;

typedef struct
{
  float normal[4];    /* a node */
  float highlight[4]; /* a node of the selection */
  float hover[4];     /* the node under the pointer */
} TressStickColours;

/* Appends to @out (TressStickVertex, triangles) the overlay of @scene seen
 * through @mvp in a viewport of @width × @height widget pixels. @highlight:
 * one byte per node (non-zero: highlighted), or NULL; @hover: a node or −1.
 * Highlighted sticks come last, so they are drawn over the others. */
void tress_scene_sticks_build (const TressScene *scene, const float mvp[16], double width,
                               double height, const guint8 *highlight, int hover,
                               const TressStickColours *colours, GArray *out);

/* Appends a line from @a to @b (clip space, both in front of the eye),
 * @pixels wide on screen, as two triangles of @colour. */
void tress_scene_sticks_push_line (GArray *out, const float a[4], const float b[4], double width,
                                   double height, double pixels, const float colour[4]);

/* The node whose stick or square lies within TRESS_SCENE_PICK_TOLERANCE of
 * widget point (@x, @y), the nearest; −1 for none. */
int tress_scene_sticks_pick (const TressScene *scene, const float mvp[16], double width,
                             double height, double x, double y);

/* The node whose mesh is drawn at widget point (@x, @y), the one nearest the
 * eye: a rigid mesh's node, or the heaviest joint of a skinned triangle's
 * first corner; −1 for none. On the CPU, as the GPU draws the pose. */
int tress_scene_mesh_pick (const TressScene *scene, const float mvp[16], double width,
                           double height, double x, double y);

/* Where node @node's origin lands in the widget; FALSE behind the eye. */
gboolean tress_scene_node_screen_position (const TressScene *scene, guint node, const float mvp[16],
                                           double width, double height, double *x, double *y);

G_END_DECLS
