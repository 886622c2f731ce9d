/* tress-curve-edit.h: what the editor and tress-cli do to the keys of curves
 *
 * The edit operations on TressCurve, without GTK: move, scale, insert, delete,
 * duplicate, paste, interpolation, tangents, one key set, bake, fit (and the
 * helpers they share). The curve view gathers the input (which keys, which
 * curves, drag deltas, snapping) and shows the result; tress-cli calls the very
 * same functions.
 *
 * One operation works on one curve and @keys, a GArray of guint: the indices of
 * the curve's selected keys, sorted, each once. It changes the curve in place
 * and leaves in @keys where the selected keys are afterwards, which is the new
 * selection (keys that moved past others are followed there; new keys from
 * insert, duplicate and paste are selected instead; delete, bake and fit leave
 * none). What the curve's limits forbid is refused: FALSE and a
 * TRESS_ERROR_REFUSED error saying why. A refusal may leave the curve half
 * changed, so operations run on a copy (TressCurveEditBatch does).
 *
 * TressCurveEdit describes an operation and its parameters, so that it can be
 * labelled (an undo step's "Move 3 keys") and run again.
 * TressCurveEditBatch runs one over several curves all-or-nothing, the way the
 * editor applies it to every curve with selected keys.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-curve.h"

G_BEGIN_DECLS

/* ------------------------------------------------------------- helpers -- */

/* Sorts the keys by frame, rewriting the indices in @tracked (may be NULL) to
 * where those keys went. Cheap on a curve in order, and for few keys out of
 * place. FALSE (the keys sorted all the same) when two keys share a frame. */
gboolean tress_curve_sort_tracking (TressCurve *curve, GArray *tracked);

/* Values as the format holds them: whole numbers for int curves, 0 or 1 for
 * bool curves, within the value range. Frames are left alone, so that a key
 * moved past the animation's end is refused (and may be offered a longer
 * animation) rather than silently pulled back. */
void tress_curve_conform_values (TressCurve *curve);

/* Recomputes the automatic slopes of key @index and of its two neighbours. */
void tress_curve_update_tangents_around (TressCurve *curve, guint index);

/* TRUE when @a and @b hold the same keys, byte for byte. */
gboolean tress_curve_same_keys (const TressCurve *a, const TressCurve *b);

/* The index in @now of key @index of @before, found by its frame; -1 when
 * @now has no key at that frame. */
int tress_curve_key_in (const TressCurve *before, guint index, const TressCurve *now);
/* @keys (indices into @before) as indices into @now, by frame; the keys @now
 * no longer holds are left out. */
GArray *tress_curve_remap_keys (const TressCurve *before, GArray *keys, const TressCurve *now);

/* TRUE when @curve breaks its limits only by keys after limits.frame_max: a
 * longer animation would take it. */
gboolean tress_curve_only_past_end (const TressCurve *curve);

/* ---------------------------------------------------------- operations -- */

typedef enum
{
  TRESS_TANGENT_EDIT_MANUAL = TRESS_TANGENT_MANUAL,
  TRESS_TANGENT_EDIT_AUTO = TRESS_TANGENT_AUTO,
  TRESS_TANGENT_EDIT_AUTO_CLAMPED = TRESS_TANGENT_AUTO_CLAMPED,
  TRESS_TANGENT_EDIT_FLAT = TRESS_TANGENT_FLAT,
  TRESS_TANGENT_EDIT_LINEAR = TRESS_TANGENT_LINEAR,
  TRESS_TANGENT_EDIT_UNIFIED, /* in and out slope become their mean */
  TRESS_TANGENT_EDIT_BROKEN,  /* in and out slope are edited apart from now on */
} TressTangentEdit;

/* "auto", "auto-clamped", "flat", "linear", "manual", "unified", "broken". */
gboolean tress_tangent_edit_from_string (const char *s, TressTangentEdit *out);
const char *tress_tangent_edit_to_string (TressTangentEdit mode);

/* Moves the keys by @d_frame frames and @d_value (curve units); values take
 * what the format holds; automatic slopes around the moved keys follow (all of
 * them when keys passed others).
 * Refused when two keys would share a frame. */
gboolean tress_curve_edit_move (TressCurve *curve, GArray *keys, double d_frame, double d_value,
                                GError **error);
/* Scales the keys' frames around @pivot_frame by @frame_factor (onto the
 * curve's frame grid) and their values by @value_factor around the middle of
 * their values, or, when @value_at_pivot, around the curve's value at
 * @pivot_frame; slopes follow the change of shape. */
gboolean tress_curve_edit_scale (TressCurve *curve, GArray *keys, double pivot_frame,
                                 double frame_factor, double value_factor, gboolean value_at_pivot,
                                 GError **error);
/* Inserts a key at @frame keeping the curve's shape (tress_curve_insert_on_curve);
 * it becomes the selection. */
gboolean tress_curve_edit_insert (TressCurve *curve, GArray *keys, double frame, GError **error);
/* Deletes the keys; a curve keeps at least one. */
gboolean tress_curve_edit_delete (TressCurve *curve, GArray *keys, GError **error);
/* Copies of the keys @offset frames later; the copies become the selection. */
gboolean tress_curve_edit_duplicate (TressCurve *curve, GArray *keys, double offset,
                                     GError **error);
/* Inserts copies of the @n_src keys @src (frames relative to some origin) at
 * @offset frames from it; they become the selection. Refused when a key
 * already sits at one of their frames, when the curve cannot hold their
 * interpolation, and for Hermite keys with slopes of their own into a curve
 * whose slopes are derived. */
gboolean tress_curve_edit_paste (TressCurve *curve, GArray *keys, const TressKey *src, guint n_src,
                                 double offset, GError **error);
/* The interpolation of the segments that start at the keys; of every segment
 * when the format stores one per curve (limits.uniform_interp). */
gboolean tress_curve_edit_set_interp (TressCurve *curve, GArray *keys, TressInterp interp,
                                      GError **error);
/* A tangent mode on the keys. Refused where the slopes are derived, and
 * "broken" where the format ties them. */
gboolean tress_curve_edit_set_tangent (TressCurve *curve, GArray *keys, TressTangentEdit mode,
                                       GError **error);
/* The slopes of key @index (a handle dragged): its tangent turns manual, and
 * in ≠ out marks it broken. Refused where the slopes are derived or the
 * format stores none (tress_curve_key_has_slopes()), and for two slopes where
 * the format ties them. The selection stays. */
gboolean tress_curve_edit_set_slopes (TressCurve *curve, GArray *keys, guint index, double in_slope,
                                      double out_slope, GError **error);
/* Key @index becomes @value (sorted into place: it is the new selection). A
 * changed slope makes its tangent manual; where the format ties the slopes,
 * the one that changed sets both; where it stores none for the key (with
 * @value's interpolation: tress_curve_key_has_slopes()), a changed slope is
 * refused rather than dropped. */
gboolean tress_curve_edit_set_key (TressCurve *curve, GArray *keys, guint index,
                                   const TressKey *value, GError **error);
/* One sample per whole frame from the first key to the last. */
gboolean tress_curve_edit_bake (TressCurve *curve, GArray *keys, GError **error);
/* The fewest keys within @tolerance of the curve's shape (sampled first when
 * it is not samples): Hermite where the format stores slopes, else linear. */
gboolean tress_curve_edit_fit (TressCurve *curve, GArray *keys, double tolerance, GError **error);

/* Unwraps an angle curve (curve->angle, radians): where the change from one
 * key to the next is a wrap, that key and every key after it move by the
 * whole turns (2π) that bring it nearest the key before; the first key stays.
 * A change between two values within −π…π (as a wrapping exporter writes
 * them) is taken for a wrap. Between values of which one lies outside, only
 * a change of more than half a turn, where the segment itself says it is no
 * motion: a step segment (the same rotation at every frame either way), or a
 * Hermite segment whose slopes deny the jump (a key set a turn away from its
 * neighbours, its slopes as they were). A change the segment carries is
 * motion the file spells out and is kept: a fast spin between sparse keys
 * whose slopes follow it, a linear or baked segment. Slopes that were worked
 * out across a jump (the secant to a neighbour, as exporters store them) are
 * worked out again across the unwrapped values; the others stay. Refused for
 * a curve that holds no angles. The selection stays; a curve with nothing to
 * unwrap is left as it was (tress_curve_needs_unwrap() says so beforehand). */
gboolean tress_curve_edit_unwrap (TressCurve *curve, GArray *keys, GError **error);
/* Whether tress_curve_edit_unwrap() would change @curve: an angle curve with
 * a change between keys that it takes for a wrap. FALSE for a curve of no
 * angles or of fewer than two keys. */
gboolean tress_curve_needs_unwrap (const TressCurve *curve);
/* How many changes of more than half a turn between consecutive keys an angle
 * curve holds (0 for a curve of no angles): after unwrapping, the motion it
 * kept. */
guint tress_curve_count_jumps (const TressCurve *curve);
/* The Euler filter: unwraps the three angle curves of one rotation together
 * (@xyz by axis, @order as they apply, keys at the same frames). At each key,
 * of the angles as stored and the other triple giving the same rotation (the
 * first and last angle + π, the middle one π − itself), after whole turns,
 * the one nearest the key before is kept: the ±π flips of the stored angles
 * go as well as the 2π jumps, and every key keeps its rotation. Refused when
 * the keys are not at the same frames. */
gboolean tress_curve_edit_unwrap_euler (TressCurve *xyz[3], TressEulerOrder order, GError **error);

/* ------------------------------------------------------------- labels -- */

typedef enum
{
  TRESS_CURVE_EDIT_MOVE,
  TRESS_CURVE_EDIT_SCALE,
  TRESS_CURVE_EDIT_INSERT,
  TRESS_CURVE_EDIT_DELETE,
  TRESS_CURVE_EDIT_DUPLICATE,
  TRESS_CURVE_EDIT_PASTE,
  TRESS_CURVE_EDIT_INTERP,
  TRESS_CURVE_EDIT_TANGENT,
  TRESS_CURVE_EDIT_SET_KEY,
  TRESS_CURVE_EDIT_SET_SLOPES,
  TRESS_CURVE_EDIT_BAKE,
  TRESS_CURVE_EDIT_FIT,
  TRESS_CURVE_EDIT_UNWRAP,
} TressCurveEditKind;

/* An operation and its parameters (the fields its kind reads). */
typedef struct
{
  TressCurveEditKind kind;
  double d_frame;           /* MOVE; DUPLICATE, PASTE: the frames added (offset) */
  double d_value;           /* MOVE, in curve units */
  double pivot_frame;       /* SCALE */
  double frame_factor;      /* SCALE */
  double value_factor;      /* SCALE */
  gboolean value_at_pivot;  /* SCALE */
  double frame;             /* INSERT */
  const TressKey *src;      /* PASTE: borrowed, kept alive while the edit runs */
  guint n_src;              /* PASTE */
  TressInterp interp;       /* INTERP */
  TressTangentEdit tangent; /* TANGENT */
  guint key;                /* SET_KEY, SET_SLOPES */
  TressKey value;           /* SET_KEY; SET_SLOPES: its in_slope and out_slope */
  double tolerance;         /* FIT */
  /* UNWRAP: the X, Y and Z angle curves of the curve's Euler rotation as they
   * are (borrowed: alive until a batch is committed), when all three are unwrapped together (the
   * Euler filter: tress_curve_edit_set_unwrap_group()); NULL: the curve alone. */
  const TressCurve *euler[3];
} TressCurveEdit;

/* For an UNWRAP of the @n_curves @curves together: fills @edit->euler for
 * @curves[@i] with the three angle curves of its rotation (same euler_group
 * and order, one per axis) when all three are among @curves; clears it
 * otherwise. */
void tress_curve_edit_set_unwrap_group (TressCurveEdit *edit, const TressCurve *const *curves,
                                        guint n_curves, guint i);

/* Runs @edit on @curve and its selected @keys (see the operations above). */
gboolean tress_curve_edit_apply (const TressCurveEdit *edit, TressCurve *curve, GArray *keys,
                                 GError **error);
/* Its undo label, translated: "Move 3 keys", "Insert key at frame 15",
 * "Set tangents of 2 keys to auto clamped"… @n_keys is the number of keys it
 * is asked for (the selection; PASTE: the keys pasted; UNWRAP: the curves). */
char *tress_curve_edit_dup_label (const TressCurveEdit *edit, guint n_keys);

/* --------------------------------------------------------------- batch -- */

/* One operation over several curves, all or nothing. Each curve added is
 * edited as a copy and checked against its limits at once; when every one is
 * accepted, commit stores the changed ones. A curve whose only fault is keys
 * past the animation's end is accepted and marked (get_past_end), so that the
 * caller can offer a longer animation. */
typedef struct _TressCurveEditBatch TressCurveEditBatch;

TressCurveEditBatch *tress_curve_edit_batch_new (void);
void tress_curve_edit_batch_free (TressCurveEditBatch *batch);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressCurveEditBatch, tress_curve_edit_batch_free)

/* Runs @edit on a copy of @curve, the caller's curve @id, with its @n_keys
 * selected @keys (sorted). FALSE, with the reason, when the edit is refused on
 * this curve (or the format would refuse the result): the whole batch is then
 * refused, nothing is to be stored. An edit that leaves the curve as it was
 * adds nothing. @edit is copied (for PASTE, src stays borrowed). */
gboolean tress_curve_edit_batch_add (TressCurveEditBatch *batch, guint id, const TressCurve *curve,
                                     const guint *keys, guint n_keys, const TressCurveEdit *edit,
                                     GError **error);
/* The curves the edit changes, in the order added. */
guint tress_curve_edit_batch_get_n_changed (TressCurveEditBatch *batch);
guint tress_curve_edit_batch_get_id (TressCurveEditBatch *batch, guint i);
/* The edited copy, and its selected keys (guint indices). */
TressCurve *tress_curve_edit_batch_get_curve (TressCurveEditBatch *batch, guint i);
GArray *tress_curve_edit_batch_get_keys (TressCurveEditBatch *batch, guint i);
/* Whether changed curve @i has keys past its animation's end; and the end
 * (a whole frame) that every such curve needs, or 0 when none has. */
gboolean tress_curve_edit_batch_get_past_end (TressCurveEditBatch *batch, guint i);
double tress_curve_edit_batch_get_end (TressCurveEditBatch *batch);
/* The undo label of what the batch does: the edit's (tress_curve_edit_dup_label,
 * @n_keys as there), or more precise where the batch knows more: interpolation
 * set on a curve that holds one for all its keys is "Set interpolation of all
 * 12 keys of PATH to Hermite". NULL when nothing was added. */
char *tress_curve_edit_batch_dup_label (TressCurveEditBatch *batch, guint n_keys);

/* Where a batch stores its curves: @get returns the caller's curve @id as it
 * is now (borrowed, NULL when gone), @set stores one. */
typedef const TressCurve *(*TressCurveEditGetFunc) (gpointer store, guint id);
typedef gboolean (*TressCurveEditSetFunc) (gpointer store, guint id, const TressCurve *curve,
                                           GError **error);

/* Stores every changed curve through @set, in the order added, and counts in
 * *@n_stored (may be NULL) those it stored. Curves can share keys (the
 * components of a NIFF record): storing one may change another. A curve that
 * changed since it was added is edited again from what it holds now, its
 * selected keys found again by frame, so that no store undoes another (and
 * one left as it now is is not stored). FALSE with @error at the first
 * refusal: what was stored before it is the caller's to take back (a
 * document's cancel_edit). */
gboolean tress_curve_edit_batch_commit (TressCurveEditBatch *batch, TressCurveEditGetFunc get,
                                        TressCurveEditSetFunc set, gpointer store, guint *n_stored,
                                        GError **error);

G_END_DECLS
