/* tress-diff-private.h: what the pieces of the model comparison share
 *
 * tress-diff.c collects the differences, compares two models and writes
 * the result as text or JSON; tress-diff-curves.c compares curves (keys and
 * played values) and the stored form around them; tress-diff-json.c
 * compares two JSON trees, and two dumps a piece at a time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-diff.h"

G_BEGIN_DECLS

/* At most this many keys are named in a curve's line (the JSON has them all). */
#define TEXT_KEYS_MAX 6
/* Whole frames compared per curve; a longer curve is sampled on a coarser grid. */
#define SAMPLES_MAX 200000

struct _TressDiff
{
  guint keep; /* items kept per kind */
  gboolean details;
  TressDiffFunc func;
  gpointer func_data;
  GPtrArray *items; /* TressDiffItem kept */
  GPtrArray *kinds; /* the kinds found, in order (owned strings) */
  GArray *counts;   /* guint per kind */
  GArray *kept;     /* guint per kind */
  guint n_items;
  /* the largest difference of a curve's played values */
  gboolean has_largest;
  double largest, at_frame;
  char *largest_curve;
};

void _tress_diff_note_largest (TressDiff *diff, const char *curve, double largest, double at_frame);
void _tress_diff_append_number (GString *s, double v);
void _tress_diff_diff_curves (const TressCurveOps *ops, gpointer a, gpointer b, TressDiff *out);
void _tress_diff_diff_dumps (const TressFormat *format, gpointer a, gpointer b,
                             const char *const *skip, TressDiff *out);

G_END_DECLS
