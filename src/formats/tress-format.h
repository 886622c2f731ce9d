/* tress-format.h: how a file format plugs into Tress
 *
 * Each format (src/formats/<name>/) exports one TressFormat. The document layer,
 * the CLI and the fuzzers only talk to formats through this table, so a format is
 * added by writing its folder and listing it in tress-format.c.
 *
 * A model is the format's own plain data (cgltf style): parse from bytes,
 * validate into a list of problems, serialize back, one free. Nothing here aborts
 * on bad input, and parse → serialize without edits gives the same bytes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "core/tress-curve.h"
#include "core/tress-error.h"
#include "core/tress-history.h"
#include "tress-json.h"
#include "tress-problem.h"

G_BEGIN_DECLS

typedef struct _TressFormat TressFormat;
typedef struct _TressCurveOps TressCurveOps;
typedef struct _TressDiff TressDiff; /* tress-diff.h */

/* What a format's build gives (see TressFormat.build). */
typedef struct
{
  gpointer model;   /* the file with the JSON's edits (free with the format's free) */
  GBytes *original; /* the file the JSON describes, before its edits; when build has
                     * itself compared the problems of the result with the dumped
                     * file's: the bytes of @model, or NULL */
  guint n_edits;    /* edits applied through the format's edit operations */
} TressJsonBuild;

/* What storing an edit would cost the keys it does not touch (a quantized
 * curve whose values no longer fit its stored scale is quantized anew, and
 * every key moves), and what a wider value type would cost instead. An edit
 * that moves untouched keys further than @tolerance needs the user's consent. */
typedef struct
{
  double moved;     /* the largest move of a value (or segment end) the edit left alone */
  double tolerance; /* half the values' step now: what may move unasked (0: exact types) */
  double step;      /* the values' step now and as stored (0: exact) */
  double new_step;
  char *type; /* the value type now ("s8") */
  /* The narrowest wider value type that keeps those keys within @tolerance,
   * or NULL when there is none. */
  char *wide_type;
  double wide_moved;
  double wide_step;
  gsize wide_growth; /* the bytes the file grows by with it */
} TressStoreCost;

void tress_store_cost_clear (TressStoreCost *cost);

/* What a store says it changed (dup_notice) marks each number in the curve's
 * unit (values, steps, value per frame) as TRESS_NOTICE_VALUE_FORMAT with the
 * number, so that it can be shown in the unit the user sees. */
#define TRESS_NOTICE_VALUE_FORMAT "\x1f%.17g\x1f"
/* @notice with its marked numbers multiplied by @scale, printed with 3
 * significant digits and followed by @unit ("°"). */
char *tress_notice_render (const char *notice, double scale, const char *unit);
/* Whether storing moves keys the edit left alone further than the tolerance. */
gboolean tress_store_cost_is_lossy (const TressStoreCost *cost);

/* What a curve tree shows of a curve before its keys are read: the path, kind
 * and owner get_curve gives (borrowed from the model: valid until it changes)
 * and its number of keys. */
typedef struct
{
  const char *path, *kind, *owner;
  guint n_keys;
} TressCurvePeek;

/* Formats with animation curves (BFRES, NIFF) expose them through these
 * operations; the curve editor and the CLI's curve commands use nothing else. */
struct _TressCurveOps
{
  guint (*n_curves) (gpointer model);
  /* A new curve in the neutral model, with limits and description filled in. */
  TressCurve *(*get_curve) (gpointer model, guint index);
  /* Optional: curve @index's TressCurvePeek without decoding it, the same as
   * get_curve's. With it a document decodes each curve when first asked for. */
  void (*peek_curve) (gpointer model, guint index, TressCurvePeek *out);
  /* Encodes @curve into the format (after tress_curve_check_limits), keeping
   * everything else untouched. *max_error gets the largest quantization error
   * (0 for exact formats). Refusals are TRESS_ERROR_REFUSED with a reason. */
  gboolean (*set_curve) (gpointer model, guint index, const TressCurve *curve, double *max_error,
                         GError **error);
  /* Opaque snapshot of everything set_curve may change for this curve, and its
   * exact restoration: undo uses these so it restores the very same bytes. */
  GBytes *(*save_state) (gpointer model, guint index);
  void (*restore_state) (gpointer model, guint index, GBytes *state);

  /* The members below are optional: NULL means "not supported". */

  /* The largest quantization error set_curve would give for @curve in curve
   * @index, computed without storing anything (the editor shows it live while
   * a drag is in progress). FALSE with the refusal set_curve would give. */
  gboolean (*preview_error) (gpointer model, guint index, const TressCurve *curve,
                             double *max_error, GError **error);
  /* What set_curve of @curve in curve @index would cost the keys the edit
   * leaves alone, and the wider choice (TressStoreCost; clear it after),
   * nothing stored. FALSE with the refusal set_curve would give. */
  gboolean (*preview_store) (gpointer model, guint index, const TressCurve *curve,
                             TressStoreCost *cost, GError **error);
  /* Stores @curve as set_curve does, in the wider value type preview_store
   * names (wide_type); refused when it names none. */
  gboolean (*set_curve_wide) (gpointer model, guint index, const TressCurve *curve,
                              double *max_error, GError **error);
  /* Re-encodes curve @index with its values in the next wider type, so that
   * edits land on finer steps; *max_error gets the largest change of a stored
   * value. TRESS_ERROR_REFUSED when the values are as wide as the format
   * allows. save_state/restore_state of @index cover the change. */
  gboolean (*widen_types) (gpointer model, guint index, double *max_error, GError **error);
  /* What widen_types would do to curve @index and what it costs, one line for
   * a button or menu ("16-bit keys: exact to 1.2e-05, the file grows by 144
   * bytes"); NULL when the values are as wide as the format allows. */
  char *(*describe_widening) (gpointer model, guint index);
  /* Frames: curve @index stores frames on the grid of its limits' frame_step.
   * widen_frames re-encodes it with the narrowest wider frame type that holds
   * @frame as well; describe_frame_widening says what that costs, or gives
   * NULL when @frame needs no widening or no frame type holds it. */
  gboolean (*widen_frames) (gpointer model, guint index, double frame, GError **error);
  char *(*describe_frame_widening) (gpointer model, guint index, double frame);
  /* What the last set_curve, widen_types or widen_frames changed beyond the
   * values it was given (a new scale, a wider type, the file's growth), to
   * tell the user; NULL when nothing. Numbers in the curve's unit are marked
   * (TRESS_NOTICE_VALUE_FORMAT): pass the text through tress_notice_render. */
  char *(*dup_notice) (gpointer model);
  /* Raises the length (in frames) of the animation holding curve @index to at
   * least @frame_count, never lowering it, so keys may move past the old end.
   * save_state/restore_state of @index cover the change. */
  gboolean (*set_frame_count) (gpointer model, guint index, double frame_count, GError **error);
  /* Appends to @out (guint) the other curves whose neutral data an edit of
   * curve @index (set_curve, widen_types, set_frame_count, restore_state) can
   * change: those sharing its stored keys or its animation's header. NULL: any
   * curve may change, and the document compares them all after every edit,
   * which costs O(curves) per edited curve. */
  void (*linked_curves) (gpointer model, guint index, GArray *out);
  /* The frame and key arrays of curve @index as the file stores them (new
   * GBytes, either may be empty), for `tress-cli diff` to name a change the
   * neutral keys do not show: a BFRES cubic curve's last key stores four
   * coefficients and plays one. NULL: the keys show everything stored. */
  void (*get_stored) (gpointer model, guint index, GBytes **frames, GBytes **keys);
};

struct _TressFormat
{
  const char *id;                /* "cha", "bfres", "niff" */
  const char *display_name;      /* marked N_(); show it through _() */
  const char *const *extensions; /* without the dot: "cha", "bfres" */
  const char *mime_type;
  /* TRUE if the bytes look like this format (magic bytes, never the name). */
  gboolean (*probe) (const guint8 *data, gsize size);
  /* @filename only for messages. */
  gpointer (*parse) (GBytes *bytes, const char *filename, GError **error);
  void (*free) (gpointer model);
  /* Problems in the model (a GPtrArray of TressProblem), empty when valid. */
  GPtrArray *(*validate) (gpointer model);
  GBytes *(*serialize) (gpointer model, GError **error);
  /* A short human-readable summary, one fact a line ("tress-cli info"). */
  char *(*describe) (gpointer model);
  /* The whole model as JSON ("tress-cli dump"): an object with "format" (the
   * id) and "version" (of the format's schema, see docs/json.md) first. */
  void (*dump) (gpointer model, TressJsonWriter *writer);
  /* Rebuilds the file a dump describes ("tress-cli build"), applying what was
   * edited in the JSON through the format's edit operations; an unedited dump
   * gives the dumped file byte for byte. FALSE when anything is refused: the
   * refusals are the reader's problems (each at its JSON Pointer) and @out is
   * left empty. Notes the reader gathers (a value rounded, an offset that
   * moved) are not refusals. */
  gboolean (*build) (TressJsonReader *reader, TressJsonBuild *out);
  /* Optional: adds to @out (tress-diff.h) what differs between models @a and
   * @b beyond their curves ("tress-cli diff"); NULL compares the formats'
   * dumps member by member. */
  void (*diff) (gpointer a, gpointer b, TressDiff *out);
  /* Optional: apply every automatic fix; returns how many problems were fixed. */
  guint (*fix_all) (gpointer model, TressHistory *history, GError **error);
  const TressCurveOps *curves; /* NULL for formats without curves */
};

/* Adds a format after the built-in ones (tests register small formats of their own). */
void tress_formats_register (const TressFormat *format);
/* All registered formats, NULL-terminated. */
const TressFormat *const *tress_formats_get_all (void);
const TressFormat *tress_format_lookup (const char *id);
/* The format whose probe accepts @data, or NULL with TRESS_ERROR_UNKNOWN_FORMAT. */
const TressFormat *tress_format_detect (const guint8 *data, gsize size, GError **error);

G_END_DECLS
