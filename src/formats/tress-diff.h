/* tress-diff.h: what differs between two files of one format, at the model's level
 *
 * `tress-cli diff A B` (and later the editor) compares two parsed files of the
 * same format: curves through the format's curve operations (keys added,
 * removed, moved, changed, and the largest difference of the played values
 * with the frame it is at), the format's own data (TressFormat.diff: creature
 * fur lines and ribbons), and for the other formats the rest of `dump`'s JSON
 * (NIFF records, BFRES headers, the bytes outside the model), member by
 * member. Each difference is one TressDiffItem, located by the JSON Pointer of
 * the dump (curves by "/curves/N", N their index as tress-cli's curve
 * commands count them).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "core/tress-curve.h"
#include "tress-format.h"

G_BEGIN_DECLS

typedef struct
{
  char *path;         /* "/materials/0/lines/12", "/curves/3", "/bytes/2" */
  char *kind;         /* "curve", "line", "ribbon", "record", "member", "bytes" */
  char *text;         /* what changed, one line for people */
  JsonObject *detail; /* the same for scripts (for --json), or NULL */
} TressDiffItem;

/* A GPtrArray of TressDiffItem that frees them. */
GPtrArray *tress_diff_new (void);
/* Appends an item; takes @detail (may be NULL). */
void tress_diff_add (GPtrArray *diff, const char *path, const char *kind, JsonObject *detail,
                     const char *format, ...) G_GNUC_PRINTF (5, 6);

/* Every difference between @a and @b, two models of @format. */
GPtrArray *tress_diff_models (const TressFormat *format, gpointer a, gpointer b);

/* The difference of two versions of one curve, as one item (nothing when they
 * have the same keys). @path and @label say which curve. */
void tress_diff_curve (const TressCurve *a, const TressCurve *b, const char *path,
                       const char *label, GPtrArray *out);
/* The largest |a(f) − b(f)| over both curves' keys and every whole frame
 * between, and the first frame it is at (FALSE when no frame is compared). */
gboolean tress_diff_curve_values (const TressCurve *a, const TressCurve *b, double *largest,
                                  double *at_frame);

/* Compares two JSON trees as dumps of one format: leaves that differ are
 * reported by their pointer, grouped per object; members named in @skip (NULL
 * terminated) are left out, at any depth; base64 members are compared as bytes. */
void tress_diff_json (JsonNode *a, JsonNode *b, const char *const *skip, GPtrArray *out);

/* The item list as the CLI prints it: a summary line (how many of each kind,
 * the largest curve difference), then "PATH: TEXT" a line, at most @per_kind
 * of each kind (0: every one) and how many more. "" when there is none. */
char *tress_diff_to_text (GPtrArray *diff, guint per_kind);
/* The item list as JSON: {"format", "same", "differences": [{"path", "kind", "text", …}]}. */
JsonNode *tress_diff_to_json (const char *format_id, GPtrArray *diff);

G_END_DECLS
