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
} TressProblem;

TressProblem *tress_problem_new (TressSeverity severity, const char *location, gsize offset,
                                 const char *fix, int fix_id, const char *message_format, ...)
    G_GNUC_PRINTF (6, 7);
void tress_problem_free (TressProblem *problem);
/* A GPtrArray that frees its TressProblems. */
GPtrArray *tress_problem_list_new (void);
const char *tress_severity_to_string (TressSeverity severity);
/* Counts problems of at least @severity. */
guint tress_problem_list_count (GPtrArray *problems, TressSeverity severity);
/* "error at radeon/material 0/ribbon 12 (offset 0x1234): message [fix: …]" */
char *tress_problem_to_string (const TressProblem *problem);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressProblem, tress_problem_free)

G_END_DECLS
