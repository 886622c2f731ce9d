/* tress-json-curves.h: curve keys in the JSON of dump and build
 *
 * Formats with curves (BFRES, NIFF) write each curve's keys as the curve
 * operations give them, {"frame", "value", "in_slope", "out_slope",
 * "interp"} (and "in_value" where the segment before misses the key's value),
 * every double to the bit; build compares them with the rebuilt file's and
 * changes the curve with the editor's own operations (tress-curve-edit.h:
 * delete, set_key, insert, as tress-cli's key commands), then stores it as
 * they do (check_limits, set_curve), so an edit lands in the file's
 * precision exactly as there.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-format.h"

G_BEGIN_DECLS

/* Writes member "keys" of @curve; @label (may be NULL) gives a key's extra
 * members (a BFRES texture name). */
void tress_json_keys_member (TressJsonWriter *w, const TressCurve *curve,
                             void (*label) (TressJsonWriter *w, const TressKey *key, gpointer data),
                             gpointer data);

/* A key as the JSON gives it: the members present. */
typedef struct
{
  double frame, value, in_slope, out_slope, in_value;
  TressInterp interp;
  guint8 has_frame : 1, has_value : 1, has_in : 1, has_out : 1, has_interp : 1, has_in_value : 1;
  char *extra; /* "texture" (BFRES), kept for the format to check */
} TressJsonKey;

/* Reads a "keys" array (GArray of TressJsonKey, freed with
 * tress_json_keys_free), or NULL after a refusal. */
GArray *tress_json_read_keys (TressJsonReader *r, const char *extra_name);
void tress_json_keys_free (GArray *keys);

/* Whether @keys say what @curve's keys are (every member given equal). */
gboolean tress_json_keys_equal (const TressCurve *curve, GArray *keys);

/* Called for each JSON key with the file's key it stands for (NULL for a
 * new one), before the JSON's members are applied: may change @jk (say,
 * the value a texture name stands for). FALSE: refused. */
typedef gboolean (*TressJsonKeyHook) (TressJsonReader *r, const char *key_path, TressJsonKey *jk,
                                      const TressKey *was, gpointer data);

/* Applies @keys to curve @index of @model through @ops when they differ from
 * the curve's: same count, key by key; otherwise a JSON key stands for the
 * file's key at the same frame and the others are new. Refusals go to @r at
 * @keys_path (a key past the end: "raise @frame_count_path first");
 * *edited is set when the curve was stored again. FALSE when refused. */
gboolean tress_json_apply_keys (TressJsonReader *r, const TressCurveOps *ops, gpointer model,
                                guint index, const char *keys_path, GArray *keys,
                                TressJsonKeyHook hook, gpointer data, const char *frame_count_path,
                                gboolean *edited);

G_END_DECLS
