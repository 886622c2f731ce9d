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
  /* TRUE: no base translation is stored, and the game takes the bone's
   * translation from the skeleton's bind pose, as real files do for many
   * bones whose translation the animation leaves alone (base[TRANSLATE_*]
   * are then unused, and no translation component may have a curve). FALSE
   * (0, the default): the base translation is stored. */
  gboolean bind_translation;
} TressBfresBoneAnimSpec;

/* Replaces the bone animations of skeletal animation @anim (the file's
 * numbering, tress_bfres_get_anim_info) by @bones and sets its frame count;
 * its name, flags (loop, scaling, rotation mode) and user data stay. Stored
 * values lie within @tolerance of the keys given (0: the types are kept and
 * values land on their nearest steps). @notes (may be NULL) gets a line
 * (char *) for each widened type and for the file's growth (and for an old
 * curve that kept its type but needed a coarser step, or gave up some of a
 * slope). FALSE with an
 * error (the file untouched) when @anim is not skeletal or a curve cannot be
 * stored. Curve indices of the file change: read them again.
 *
 * What is written, as the real files (Animal_Bass, Animal_Dog) have it:
 *   - Bone names are offsets to strings: a bone the animation had keeps its
 *     string, another name found in the string pool points there, and a name
 *     the file lacks is appended beside the new arrays in the pool's own form
 *     (u32 length, bytes, NUL, padded to 4). The pool keeps its bytes and size:
 *     readers follow a name's offset, none looks names up in the pool.
 *   - Base values: scale and rotation always (every real BoneAnim stores
 *     them), translation unless @bind_translation; base[] as given, also for
 *     components with a curve.
 *   - BoneAnim flags: base and curve bits from the above; the hints of bits
 *     24-27 (uniform scale, volume one, no rotation, no translation) worked
 *     out from the curves and base values as the files have them; bit 23
 *     (segment scale compensate) and the unknown bits from the bone's old
 *     BoneAnim, else bit 23 from the bone in a skeleton of the file, else from
 *     the bone's BoneAnim in another skeletal animation of the file, else 0.
 *     beginRotate 3, beginTranslate 6, beginBaseTranslate 7 (all real files),
 *     beginCurve little-endian (format page); bind indices 0xFFFF (all real
 *     files), an old bone's own kept.
 *   - Curves in the order of their flag bits (scale, rotate, translate), each
 *     component's old curve header reused with its arrays rewritten only where
 *     they change; a new curve's frame and key types are those the
 *     animation's curves of the same group (scale, rotation, translation) use
 *     most (else all its curves, else the file's skeletal curves, else u8
 *     frames and s16 keys). Frames widen (u8 → s10.5 → f32) where a frame does
 *     not fit, also said in @notes. Euler animations refuse a Rotate W curve.
 * Versions before 3.4 (an FSKA layout no sample confirms) are refused. */
gboolean tress_bfres_replace_skeletal (TressBfres *bfres, guint anim,
                                       const TressBfresBoneAnimSpec *bones, guint n_bones,
                                       int frame_count, double tolerance, GPtrArray *notes,
                                       GError **error);

/* One animation's replacement for tress_bfres_replace_skeletals: the
 * arguments of tress_bfres_replace_skeletal. */
typedef struct
{
  guint anim;
  const TressBfresBoneAnimSpec *bones;
  guint n_bones;
  int frame_count;
  double tolerance;
  GPtrArray *notes; /* (nullable) */
} TressBfresSkeletalReplacement;

/* tress_bfres_replace_skeletal for several animations in one go, in the
 * order given: the same bytes as replacing them one by one, but the file is
 * copied once, each animation appended to it and parsed where it lies, and
 * taken over once at the end (tress-cli import-gltf rewrites 50 animations
 * of a 16 MB file).
 * Each item's @notes get its lines only when every replacement succeeded;
 * FALSE with an error (the file untouched, no notes) at the first that fails,
 * whose index goes to @failed (may be NULL). */
gboolean tress_bfres_replace_skeletals (TressBfres *bfres,
                                        const TressBfresSkeletalReplacement *items, guint n_items,
                                        guint *failed, GError **error);

/* Puts back FRES bytes taken with tress_bfres_get_bfres_bytes (the state an
 * undo of tress_bfres_replace_skeletal returns to); the container stays. The
 * bytes are parsed again: FALSE with an error (the file untouched) when they
 * are no FRES the parser reads. Curve indices change with the bytes. */
gboolean tress_bfres_restore_fres (TressBfres *bfres, GBytes *fres, GError **error);

G_END_DECLS
