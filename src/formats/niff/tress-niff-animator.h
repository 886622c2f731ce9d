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

G_END_DECLS
