/* tress-curve-commit.h: the one way an edited curve becomes stored keys
 *
 * The curve editor, tress-cli and the JSON build store every edited curve
 * through these rules, so that the same edit gives the same bytes whichever
 * asked for it. Storing may need more than the values given, each only with
 * the user's consent: a longer animation (keys past its end), a wider frame
 * type (frames the stored one cannot hold), and, where a value does not fit a
 * quantized curve's step, either a coarser step that moves keys the edit left
 * alone or a wider value type that grows the file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "formats/tress-format.h"

G_BEGIN_DECLS

typedef enum
{
  TRESS_COMMIT_LENGTHEN = 1 << 0, /* raise the animation's length to hold the keys */
  TRESS_COMMIT_WIDEN_FRAMES
  = 1 << 1, /* a wider frame type where the stored one cannot hold a frame */
  TRESS_COMMIT_REQUANTIZE = 1 << 2,   /* a coarser step, moving keys the edit left alone */
  TRESS_COMMIT_WIDEN_VALUES = 1 << 3, /* instead, the narrowest wider value type that keeps them */
} TressCommitConsent;

/* What storing an edited curve needs beyond its values, and what each costs. */
typedef struct
{
  TressCommitConsent needs; /* the consents it needs (0: none); REQUANTIZE stands for the
                             * choice between REQUANTIZE and WIDEN_VALUES */
  double frame_count;       /* keys past the animation's end: the length (whole frames) that
                             * holds them, also where the format stores no length (then
                             * LENGTHEN is not needed); 0 otherwise */
  double frame;             /* WIDEN_FRAMES: the first frame the frame type cannot store */
  char *frames_cost;        /* WIDEN_FRAMES: what the wider frame type costs */
  TressStoreCost store;     /* REQUANTIZE: both ways' costs */
} TressCommitPlan;

/* Works out what storing @curve (an edit of curve @index of @model) needs,
 * storing nothing. FALSE with the refusal no consent would lift (a value the
 * format cannot hold at all, keys out of order, …). Clear @plan after. */
gboolean tress_curve_commit_plan (const TressCurveOps *ops, gpointer model, guint index,
                                  const TressCurve *curve, TressCommitPlan *plan, GError **error);
void tress_commit_plan_clear (TressCommitPlan *plan);
/* Why a tool refuses a lossy store, with what each way out costs: "…; @how
 * --requantize to accept that, or --widen to store s16 keys instead (…)"
 * (@how: "add", "build with"). Numbers in the units the file stores. */
char *tress_store_cost_dup_refusal (const TressStoreCost *cost, const char *how);

/* Stores @curve in curve @index: lengthens the animation (to whole frames)
 * and widens the frame type where @consent allows and the curve needs it,
 * then stores the values, with a coarser step or a wider value type where the
 * edit needs one of them and @consent names it (WIDEN_VALUES first). Refused
 * (TRESS_ERROR_REFUSED, saying what to consent to) when the curve needs what
 * @consent does not give; the model is then as the format left it: callers
 * restore the curve's saved state, as the document's undo does. *max_error:
 * the largest quantization error of the stored values. */
gboolean tress_curve_commit (const TressCurveOps *ops, gpointer model, guint index,
                             const TressCurve *curve, TressCommitConsent consent, double *max_error,
                             GError **error);

/* Curve @index plays @value at @frame: the key at @frame is set to it (its
 * slopes kept), or a key is inserted there on the curve and then set, with
 * the edit operations the graph uses (tress-curve-edit.h), and stored with
 * tress_curve_commit. What @consent does not cover is refused before
 * anything is stored, saying what it would cost in numbers (a frame the
 * curve's frame type cannot hold, a value outside its stored range). @what
 * ("Spine_2 Rotate X") starts the messages. *@inserted: whether a key was
 * inserted; *@max_error: the largest quantization error of the stored
 * values; @notes (may be NULL) gets what the store changed beyond the values
 * (a wider type, a coarser step). On a refusal the curve is as it was. */
gboolean tress_curve_commit_value_at (const TressCurveOps *ops, gpointer model, guint index,
                                      double frame, double value, TressCommitConsent consent,
                                      const char *what, gboolean *inserted, double *max_error,
                                      GPtrArray *notes, GError **error);

G_END_DECLS
