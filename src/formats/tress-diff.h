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
 * Two unrelated files differ everywhere: a TressDiff counts every difference
 * but keeps only as many as it is asked to (the first of each kind, or none)
 * and hands each one, as it is found, to a function that may print it. What
 * a comparison holds at once is then bounded by the files, not by how much
 * they differ: curves are decoded one pair at a time, and dumps compared a
 * bounded piece at a time, after a digest of every piece has told which
 * pieces are the same.
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

/* Called with each difference as it is found, kept or not; @item is the
 * diff's (or freed after the call). */
typedef void (*TressDiffFunc) (const TressDiffItem *item, gpointer user_data);

/* What differs, counted by kind; keeps every item with its detail unless set
 * otherwise. */
TressDiff *tress_diff_new (void);
void tress_diff_free (TressDiff *diff);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressDiff, tress_diff_free)
/* Keeps the first @per_kind items of each kind (G_MAXUINT, the default: every
 * one; 0: none, only the counts and the largest curve difference). */
void tress_diff_set_keep (TressDiff *diff, guint per_kind);
/* Whether items carry their detail (for --json); TRUE by default. */
void tress_diff_set_details (TressDiff *diff, gboolean details);
/* Hands every item to @func as it is found (NULL: none). */
void tress_diff_set_func (TressDiff *diff, TressDiffFunc func, gpointer user_data);

/* For the comparisons: whether an item of @kind would be kept or handed on
 * (when not, tress_diff_add only counts it, and a caller may skip building its
 * text), and whether its detail would be used. */
gboolean tress_diff_wants (const TressDiff *diff, const char *kind);
gboolean tress_diff_wants_details (const TressDiff *diff);
/* Adds an item; takes @detail (may be NULL). */
void tress_diff_add (TressDiff *diff, const char *path, const char *kind, JsonObject *detail,
                     const char *format, ...) G_GNUC_PRINTF (5, 6);

/* Every difference found, kept or not. */
guint tress_diff_get_n_items (const TressDiff *diff);
/* The kinds found, in the order of their first item, and how many of each. */
guint tress_diff_get_n_kinds (const TressDiff *diff);
const char *tress_diff_get_kind (const TressDiff *diff, guint index, guint *count);
/* The items kept, in the order found. */
guint tress_diff_get_n_kept (const TressDiff *diff);
const TressDiffItem *tress_diff_get_item (const TressDiff *diff, guint index);
/* The largest difference of a curve's played values, the curve and its frame;
 * FALSE when no curve's values differ. */
gboolean tress_diff_get_largest (const TressDiff *diff, double *largest, const char **curve,
                                 double *at_frame);

/* Every difference between @a and @b, two models of @format, into @out. */
void tress_diff_models (const TressFormat *format, gpointer a, gpointer b, TressDiff *out);

/* The difference of two versions of one curve, as one item (nothing, and
 * FALSE, when they have the same keys). @path and @label say which curve. */
gboolean tress_diff_curve (const TressCurve *a, const TressCurve *b, const char *path,
                           const char *label, TressDiff *out);
/* The largest |a(f) − b(f)| over both curves' keys (the values they are left
 * and reached with), the middle of every segment and every whole frame
 * between, and the first frame it is at (FALSE when no frame is compared). */
gboolean tress_diff_curve_values (const TressCurve *a, const TressCurve *b, double *largest,
                                  double *at_frame);

/* Compares two JSON trees as dumps of one format: leaves that differ are
 * reported by their pointer, grouped per object; members named in @skip (NULL
 * terminated) are left out, at any depth; base64 members are compared as bytes.
 * @path is the pointer of @a and @b ("" for the whole dump). */
void tress_diff_json (JsonNode *a, JsonNode *b, const char *path, const char *const *skip,
                      TressDiff *out);

/* The summary line (how many of each kind, the largest curve difference),
 * without a newline; "" when there is no difference. */
char *tress_diff_summary (const TressDiff *diff);
/* The items as the CLI prints them: the summary, then "PATH: TEXT" a line for
 * each item kept, and how many more of each kind there are. "" when there is
 * none. */
char *tress_diff_to_text (const TressDiff *diff);
/* One item's line, without a newline. */
char *tress_diff_item_to_text (const TressDiffItem *item);
/* The items kept as JSON: {"format", "same", "differences": [{"path", "kind", "text", …}]}. */
JsonNode *tress_diff_to_json (const char *format_id, const TressDiff *diff);
/* One item as the "differences" of the JSON list it: path, kind, text, then its detail. */
void tress_diff_item_write_json (const TressDiffItem *item, TressJsonWriter *w);

G_END_DECLS
