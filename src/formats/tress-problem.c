/* tress-problem.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-problem.h"

TressProblem *
tress_problem_new (TressSeverity severity, const char *location, gsize offset, const char *fix,
                   int fix_id, const char *message_format, ...)
{
  TressProblem *problem = g_new0 (TressProblem, 1);
  va_list args;

  problem->severity = severity;
  problem->location = g_strdup (location);
  problem->offset = offset;
  problem->fix = g_strdup (fix);
  problem->fix_id = fix ? fix_id : -1;
  va_start (args, message_format);
  problem->message = g_strdup_vprintf (message_format, args);
  va_end (args);
  return problem;
}

void
tress_problem_free (TressProblem *problem)
{
  if (problem == NULL)
    return;
  g_free (problem->location);
  g_free (problem->message);
  g_free (problem->fix);
  g_free (problem);
}

GPtrArray *
tress_problem_list_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify)tress_problem_free);
}

const char *
tress_severity_to_string (TressSeverity severity)
{
  switch (severity)
    {
    case TRESS_SEVERITY_INFO:
      return "info";
    case TRESS_SEVERITY_WARNING:
      return "warning";
    case TRESS_SEVERITY_ERROR:
      return "error";
    default:
      return "unknown";
    }
}

guint
tress_problem_list_count (GPtrArray *problems, TressSeverity severity)
{
  guint n = 0;

  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (problems, i);
      if (p->severity >= severity)
        n++;
    }
  return n;
}

char *
tress_problem_to_string (const TressProblem *problem)
{
  GString *s = g_string_new (tress_severity_to_string (problem->severity));

  if (problem->location != NULL && problem->location[0] != '\0')
    g_string_append_printf (s, " at %s", problem->location);
  if (problem->offset != G_MAXSIZE)
    g_string_append_printf (s, " (offset 0x%" G_GSIZE_MODIFIER "x)", problem->offset);
  g_string_append_printf (s, ": %s", problem->message);
  if (problem->fix != NULL)
    g_string_append_printf (s, " [fix: %s]", problem->fix);
  return g_string_free (s, FALSE);
}
