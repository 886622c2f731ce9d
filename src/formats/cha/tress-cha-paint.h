/* tress-cha-paint.h: weight painting, as modellers paint skin weights
 *
 * A stroke is a series of dabs; each dab names the lines under the brush and
 * how strongly the brush touches each (strength × falloff, 0…1). A dab moves
 * weight among each line's own three references, in whole numbers:
 *   ADD       toward the target body part: the target's references gain a
 *             share of what the others hold (at least 1 while they hold any),
 *             taken from the others in proportion to their weights;
 *   SUBTRACT  away from it: the target's references lose a share of theirs,
 *             given to the line's other references in proportion to their
 *             weights (a line whose other references hold nothing keeps its
 *             weights: there is nowhere to move them);
 *   SMOOTH    toward the mean of the neighbouring lines: the other lines of
 *             the same material in the dab, measured on this line's own parts.
 * Every triple keeps summing to exactly 255, no reference ever changes (no
 * fourth part appears), and a line whose references do not include the target
 * is left alone and counted as skipped.
 *
 * The dabs change the model in place, without undo and without the change
 * callback (the painting view shows what it painted); finishing the stroke
 * records one undo step with the before and after bytes of every line it
 * changed ("Paint weights of 214 lines toward part 5") and runs the change
 * callback once for all of them. Cancelling puts every line back.
 *
 * GLib only: the preview gathers the brush input, the CLI or a test can paint.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "core/tress-history.h"
#include "tress-cha-edit.h"
#include "tress-cha-model.h"

G_BEGIN_DECLS

typedef enum
{
  TRESS_CHA_PAINT_ADD,
  TRESS_CHA_PAINT_SUBTRACT,
  TRESS_CHA_PAINT_SMOOTH,
} TressChaPaintMode;

/* What one dab of @amount (0…1) does to @line of @material: its new weights in
 * reference order (reference 0 first) in @out. Returns FALSE, with the line's
 * own weights in @out, when the line is left alone: its references do not
 * include @target (a body part number), @amount is 0, or for SUBTRACT its other
 * references hold no weight. Not for SMOOTH (see tress_cha_paint_smooth_line). */
gboolean tress_cha_paint_line (const TressChaMaterial *material, const TressChaLine *line,
                               TressChaPaintMode mode, guint32 target, double amount,
                               guint8 out[3]);
/* Smooths @line toward @mean: for each reference, the weight (0…255) the
 * neighbouring lines give that reference's body part. The line's parts get
 * their share of 255 in proportion to the means, approached by @amount; FALSE
 * (own weights in @out) when nothing changes or the means are all 0. */
gboolean tress_cha_paint_smooth_line (const TressChaMaterial *material, const TressChaLine *line,
                                      const double mean[3], double amount, guint8 out[3]);

/* Whole-number apportioning: @total split in proportion to @shares (n values,
 * none negative) so that the parts sum to exactly @total, by largest
 * remainder (ties to the lower index); all of it to index 0 when every share
 * is 0. */
void tress_cha_apportion (guint total, const double *shares, guint n, guint *out);

typedef struct _TressChaPaintStroke TressChaPaintStroke;

/* Begins a stroke on @file (which must outlive it) painting toward / away
 * from body part @target (ignored by SMOOTH). */
TressChaPaintStroke *tress_cha_paint_stroke_new (TressChaFile *file, TressChaPaintMode mode,
                                                 guint32 target);
TressChaPaintMode tress_cha_paint_stroke_get_mode (TressChaPaintStroke *stroke);
guint32 tress_cha_paint_stroke_get_target (TressChaPaintStroke *stroke);
/* One dab over @n lines with their @amounts (0…1). Ids that are out of range
 * or listed twice in a dab are ignored. The lines whose weights changed in
 * this dab are appended to @changed (TressChaLineId; may be NULL); returns
 * how many. */
guint tress_cha_paint_stroke_dab (TressChaPaintStroke *stroke, const TressChaLineId *lines,
                                  const float *amounts, guint n, GArray *changed);
/* Distinct lines whose weights differ from before the stroke. */
guint tress_cha_paint_stroke_get_n_changed (TressChaPaintStroke *stroke);
/* Distinct lines the brush touched but left alone because their references
 * do not include the target (ADD, SUBTRACT). */
guint tress_cha_paint_stroke_get_n_skipped (TressChaPaintStroke *stroke);
/* The undo label the stroke would get now ("Paint weights of 214 lines toward
 * part 5"); free it. */
char *tress_cha_paint_stroke_get_label (TressChaPaintStroke *stroke);
/* Ends the stroke and frees it: one undo step in @history (may be NULL: no
 * undo) holding every line it changed, and one run of the change callback.
 * Returns how many lines changed; with none, nothing is recorded. */
guint tress_cha_paint_stroke_finish (TressChaPaintStroke *stroke, TressHistory *history);
/* Ends the stroke, putting every line back as it was, and frees it. */
void tress_cha_paint_stroke_cancel (TressChaPaintStroke *stroke);

G_END_DECLS
