/* tress-niff-animator.h: a NIFF file's scene as a TressScene bound to its curves
 *
 * Nodes: every Obj (id: its index; the objects a camera is made of hidden),
 * then the IK nodes below the objects that link them (ChainRoots, Joints,
 * Effectors; ids TRESS_NIFF_NODE_CHAIN_ROOT | index and so on). Meshes: one per shape and shading
 * (flat or smooth, from the material of each triangle), following their object rigidly; an envelope
 * shape is one skinned mesh over its nodes, bound in the pose at frame 0.
 * Triangles get their own three vertices so that each keeps its colour:
 * the material's colour sources (NIFF type: vertex, triangle and primitive
 * colours multiplied; N64 type: the colour combiner's (a − b) × c + d over
 * primitive, shade, one and zero), with textures left out (taken as 1 where
 * they multiply, 0 where they add) and shade the NIFF2 diffuse colour (or
 * the vertex colour when the material is unlit).
 *
 * One animation, the whole scene: every AnimGroup plays at once. Its length
 * is the last key of any group, its rate the groups' frame rate where one is
 * given (≥ 10), and its note lists what the pose does not show. Every curve
 * maps to the node of the object (or IK node) whose AnimGroup holds it.
 *
 * Curve values come through the sample function for the channels and records
 * that hold keys in the file (a drag moves them live); a channel that has no
 * keys yet keeps its rest until an edit gives it some.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "formats/tress-scene.h"
#include "tress-niff-pose.h"

G_BEGIN_DECLS

#define TRESS_NIFF_NODE_CHAIN_ROOT 0x01000000u
#define TRESS_NIFF_NODE_JOINT 0x02000000u
#define TRESS_NIFF_NODE_EFFECTOR 0x03000000u

/* The animator of @file (its scene read from the file's bytes; @source names
 * it for people). NULL with @error naming the list, field and offset when the
 * scene cannot be read. @file must outlive the animator. */
TressSceneAnimator *tress_niff_animator_new (TressNiffFile *file, const char *source,
                                             GError **error);
/* The NIFF scene @animator was built from (NULL when it is not a NIFF
 * animator): its scene node i is object i for i < n_objects, then the chain
 * roots, joints and effectors in turn (their ids say which). */
const TressNiffScene *tress_niff_animator_get_niff_scene (const TressSceneAnimator *animator);

/* While a pose gizmo drags: every pose until cleared (@n 0) plays value
 * @values[i] for curve @curves[i] (curves with keys, as
 * tress_niff_pose_curves gives them), as if the curves held it. Nothing is
 * written. */
void tress_niff_animator_set_override (TressSceneAnimator *animator, guint n, const guint *curves,
                                       const double *values);

/* The last pose again where only object @node's curves changed (a drag's
 * move, the override changed): only its AnimGroup is read (through @sample
 * and the override), it and the objects below it are composed again and the
 * IK chains solved again. FALSE (nothing done) when the last pose did not
 * play the animation or @node is no object. The caller poses in full
 * whenever the frame or other curves changed since. */
gboolean tress_niff_animator_repose (TressSceneAnimator *animator, int node,
                                     TressSceneSampleFunc sample, gpointer user_data);

/* The colour the preview gives a triangle corner drawn with material @mat
 * (TRESS_NIFF_NONE: none; then the triangle's colour, else the vertex's,
 * else grey), given its triangle's and its vertex's colours (NULL when it
 * has none): RGBA from 0 to 1, alpha 1. */
void tress_niff_corner_colour (const TressNiffScene *scene, guint32 mat, const float *tri_rgba,
                               const float *vtx_rgba, float out[4]);
/* Whether the preview shades triangles of material @mat smoothly (with
 * vertex normals) rather than flat; without a material, when the shape has
 * vertex normals (@has_normals). */
gboolean tress_niff_mat_smooth (const TressNiffScene *scene, guint32 mat, gboolean has_normals);

G_END_DECLS
