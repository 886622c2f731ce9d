/* tress-problem.h: one finding of a format's validate pass
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  TRESS_SEVERITY_INFO,
  TRESS_SEVERITY_WARNING,
  TRESS_SEVERITY_ERROR,
} TressSeverity;

typedef struct
{
  TressSeverity severity;
  char *location; /* "radeon/material 0/ribbon 12/line 3" */
  gsize offset;   /* byte offset in the file (as read), G_MAXSIZE if none */
  char *message;
  char *fix;  /* what the fix does, or NULL when none applies */
  int fix_id; /* the format's own fix identifier (-1 = none) */
  /* What problems of one sort share (tress_problem_new(): the message's
   * format), for summing them up; NULL: a problem of its own sort. */
  const char *kind;
  /* Not 0: this is no problem of its own but "and 8,412 more of this kind",
   * standing for n_more problems of @kind and @severity past
   * TRESS_PROBLEM_MAX_PER_KIND (after the last one listed); fix_id is
   * theirs when they share one, fix and location are NULL. */
  guint n_more;
} TressProblem;

/* How many problems of one kind a list holds before the rest are summed up:
 * a badly broken file gives a readable list, and memory bounded by the
 * number of kinds, not by the file. */
#define TRESS_PROBLEM_MAX_PER_KIND 20

TressProblem *tress_problem_new (TressSeverity severity, const char *location, gsize offset,
                                 const char *fix, int fix_id, const char *message_format, ...)
    G_GNUC_PRINTF (6, 7);
TressProblem *tress_problem_new_valist (TressSeverity severity, const char *location, gsize offset,
                                        const char *fix, int fix_id, const char *message_format,
                                        va_list args) G_GNUC_PRINTF (6, 0);
TressProblem *tress_problem_copy (const TressProblem *problem);
void tress_problem_free (TressProblem *problem);
/* A GPtrArray that frees its TressProblems. */
GPtrArray *tress_problem_list_new (void);
const char *tress_severity_to_string (TressSeverity severity);
/* Counts problems of at least @severity (a summary row counts as the problems
 * it stands for). */
guint tress_problem_list_count (GPtrArray *problems, TressSeverity severity);
/* "error at radeon/material 0/ribbon 12 (offset 0x1234): message [fix: …]";
 * a summary row: "warning: and 8,412 more of this kind". */
char *tress_problem_to_string (const TressProblem *problem);

/* A summary row (see TressProblem.n_more). */
TressProblem *tress_problem_new_summary (TressSeverity severity, const char *kind, guint n_more);

/* Keeps at most TRESS_PROBLEM_MAX_PER_KIND problems of each kind (same kind
 * and severity) in @problems, in their order; each kind's rest becomes one
 * summary row after its last listed problem (summary rows already there are
 * merged). For lists a validate pass built without a collector. */
void tress_problem_list_aggregate (GPtrArray *problems);
/* The same as a new list, @problems left as it is (a view showing a list it
 * does not own). */
GPtrArray *tress_problem_list_aggregated_copy (GPtrArray *problems);

/* The errors of @after that @before does not have (what an edit adds): an
 * error counts as had when @before holds one with the same location and
 * message, and errors summed up in a summary row count as had up to the
 * number @before's row of that kind stands for. Up to @max_shown of them are
 * added to @shown (borrowed from @after) when it is not NULL. */
guint tress_problem_list_new_errors (GPtrArray *before, GPtrArray *after, GPtrArray *shown,
                                     guint max_shown);

/* Gathers a validate pass's problems into a list holding at most
 * TRESS_PROBLEM_MAX_PER_KIND of each kind; the rest are only counted (not
 * even formatted) and summed up when the list is finished. */
typedef struct _TressProblemCollector TressProblemCollector;

TressProblemCollector *tress_problem_collector_new (void);
/* Adds a problem; its kind is @message_format (a string that outlives the
 * list: a literal). */
void tress_problem_collect (TressProblemCollector *collector, TressSeverity severity,
                            const char *location, gsize offset, const char *fix, int fix_id,
                            const char *message_format, ...) G_GNUC_PRINTF (7, 8);
/* Takes @problem (kind and all), or frees it when its kind is full. */
void tress_problem_collector_add (TressProblemCollector *collector, TressProblem *problem);
/* TRUE when a problem of @kind and @severity would still be listed. */
gboolean tress_problem_collector_wants (TressProblemCollector *collector, TressSeverity severity,
                                        const char *kind);
/* The list, summary rows in place; frees @collector. */
GPtrArray *tress_problem_collector_finish (TressProblemCollector *collector);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressProblem, tress_problem_free)

G_END_DECLS
