/* tress-bfres-animops.h: operations on whole animations of a BFRES
 *
 * Retiming, the frame count, the loop flag, renaming, duplicating and
 * deleting an animation of any kind the parser reads (skeletal, shader param,
 * colour, texture SRT, texture pattern, bone and material visibility). Each
 * works on a copy of the FRES bytes and, when it succeeds, makes the result
 * the model's bytes (the containers stay: a Yaz0 file is saved as Yaz0). On
 * failure the model is untouched.
 *
 * One operation is one undo step for the editor: take
 * tress_bfres_get_bfres_bytes() before and after, and put either back with
 * tress_bfres_restore_fres(). Curve and animation indices change with the
 * bytes, and the names and paths the infos of tress-bfres.h point to are
 * freed with them: read them again after an operation.
 *
 * What is rewritten, and where (shared/formats/bfres.md):
 *   - Retime and the frame count change fields and arrays of the animation's
 *     own curves: arrays that keep their size are rewritten where they stand,
 *     others are appended (4-aligned) and re-pointed. Every other byte of the
 *     file stays.
 *   - Rename writes the animation's index group again where it stands (same
 *     size, new trie bits) and points the group entry and the sub-file's name
 *     field at the new name: a string of the pool when the pool has it, else
 *     appended after the file's end in the pool's form (the pool keeps its
 *     bytes and size: readers follow a name's offset).
 *   - Duplicate appends a copy of the sub-file (header, tables, curves and
 *     their arrays; names, paths, the bind model and user data are shared
 *     with the original) and a new index group of n + 1 entries, and points
 *     the file header at that group.
 *   - Delete writes the index group again where it stands, without the entry
 *     (the header's group offset becomes null when it was the last one); the
 *     animation's own bytes stay in the file, unreferenced.
 * Notes (char *, in @notes when not NULL) say what else changed: a widened
 * type, a rounded frame count, keys cut, and the file's growth.
 *
 * GLib only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-bfres.h"

G_BEGIN_DECLS

/* The longest animation name these operations write. */
#define TRESS_BFRES_ANIM_NAME_MAX 1024

/* Makes animation @anim play at frame @scale · f what it played at frame f,
 * for every curve, and sets its frame count to @scale times the old one,
 * rounded to the nearest whole frame (never below its last key; the note
 * says so when it is not whole).
 *
 * Cubic and linear segments store coefficients over a segment normalized to
 * 0…1, and step curves hold their values: moving the frames keeps them
 * exactly, so only the frame arrays (and each curve's start and end) change.
 * Baked curves hold one sample a frame: a whole @scale repeats each StepInt
 * and bool sample and puts the samples a float curve passes through between
 * the old ones (where they fall between the key type's steps, that is a cost:
 * refused, or with @widen stored as f32 keys); any other @scale would drop or
 * invent samples and is refused.
 *
 * Frames the curve's frame type cannot hold (u8: whole frames 0…255; s10.5:
 * steps of 1/32 up to 1023.97) are refused, naming the curves and frames and
 * what widening would cost, unless @widen: then those curves store their
 * frames in the narrowest wider type (u8 → s10.5 → f32) that holds them, and
 * a note names each. A frame within 1e-9 of the type's grid counts as on it.
 * @scale: finite and > 0. */
gboolean tress_bfres_retime (TressBfres *bfres, guint anim, double scale, gboolean widen,
                             GPtrArray *notes, GError **error);

/* Sets the frame count of animation @anim. Raising it changes nothing else.
 * Lowering it below a curve's last key is refused, with how many keys lie
 * past the end in which curves, unless @trim: then each such curve gets a key
 * at @frame_count where it plays the value it played there (the segment that
 * crosses it stored again in the curve's types: the note gives the largest
 * change) and loses the keys after it. */
gboolean tress_bfres_set_anim_frame_count (TressBfres *bfres, guint anim, int frame_count,
                                           gboolean trim, GPtrArray *notes, GError **error);

/* Sets or clears the loop flag (bit 2 of the sub-file's flags). */
gboolean tress_bfres_set_anim_loop (TressBfres *bfres, guint anim, gboolean loop, GError **error);

/* Renames animation @anim. Refused when another animation of the same index
 * group has @name, or @name is no UTF-8 text of 1 to
 * TRESS_BFRES_ANIM_NAME_MAX bytes without control characters. */
gboolean tress_bfres_rename_anim (TressBfres *bfres, guint anim, const char *name, GPtrArray *notes,
                                  GError **error);

/* Appends a copy of animation @anim named @name to its index group. Refused
 * for a name as tress_bfres_rename_anim refuses it, and for versions before
 * 3.4 (no sample confirms the layouts of their sub-files). */
gboolean tress_bfres_duplicate_anim (TressBfres *bfres, guint anim, const char *name,
                                     GPtrArray *notes, GError **error);

/* Removes animation @anim from its index group (its bytes stay, unreferenced). */
gboolean tress_bfres_delete_anim (TressBfres *bfres, guint anim, GPtrArray *notes, GError **error);

G_END_DECLS
