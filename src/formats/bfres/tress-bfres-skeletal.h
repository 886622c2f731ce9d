/* tress-bfres-skeletal.h: rewriting the bone animations of one skeletal animation
 *
 * Edits (tress-bfres.h) change the keys of curves that exist. Bringing an
 * animation in from elsewhere (tress-cli import-gltf) changes its structure:
 * which bones it animates, which components have curves, the base values and
 * the frame count. This rewrites one FSKA's BoneAnim array, its curves and
 * base values, and its counts and baked size (shared/formats/bfres.md); every
 * other animation, every index group and the string pool stay byte-identical.
 * The new arrays are appended to the file (4-aligned) and the FSKA header is
 * re-pointed to them.
 *
 * Curves are stored in the file's precision: a bone component that had a
 * curve keeps that curve's frame and key types, a new curve takes the types
 * the animation uses most; key types widen (s8 → s16 → f32) only where a
 * stored value would lie further than the tolerance from the key given, and
 * each widening is said in @notes.
 *
 * GLib only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "core/tress-curve.h"
#include "tress-bfres-anim.h"
#include "tress-bfres.h"

G_BEGIN_DECLS

/* One bone's animation, in the animation's rotation mode. */
typedef struct
{
  const char *bone; /* the bone's name */
  /* The value of each component where it has no curve (the base values):
   * scale, translation, rotation (Euler XYZ radians with w = 1, or a
   * quaternion x y z w), indexed by TressBfresChannel. */
  float base[TRESS_BFRES_N_CHANNELS];
  /* The curve of each component (frames in the animation's frames; Hermite
   * keys are stored as Cubic, Linear as Linear), or NULL where it stays at its
   * base value. */
  TressCurve *curves[TRESS_BFRES_N_CHANNELS];
} TressBfresBoneAnimSpec;

/* Replaces the bone animations of skeletal animation @anim (the file's
 * numbering, tress_bfres_get_anim_info) by @bones and sets its frame count;
 * its name, flags (loop, scaling, rotation mode) and user data stay. Stored
 * values lie within @tolerance of the keys given (0: the types are kept and
 * values land on their nearest steps). @notes (may be NULL) gets a line
 * (char *) for each widened type and for the file's growth. FALSE with an
 * error (the file untouched) when @anim is not skeletal or a curve cannot be
 * stored. Curve indices of the file change: read them again. */
gboolean tress_bfres_replace_skeletal (TressBfres *bfres, guint anim,
                                       const TressBfresBoneAnimSpec *bones, guint n_bones,
                                       int frame_count, double tolerance, GPtrArray *notes,
                                       GError **error);

/* Puts back FRES bytes taken with tress_bfres_get_bfres_bytes (the state an
 * undo of tress_bfres_replace_skeletal returns to); the container stays. */
gboolean tress_bfres_restore_fres (TressBfres *bfres, GBytes *fres, GError **error);

G_END_DECLS
