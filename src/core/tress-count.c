/* tress-count.c: counts as the user's locale writes them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-count.h"

#include <limits.h>
#include <locale.h>
#include <string.h>

char *
tress_format_count_with (guint64 n, const char *separator, const char *grouping)
{
  char digits[24];
  int len = g_snprintf (digits, sizeof digits, "%" G_GUINT64_FORMAT, n);
  GString *out;
  int group_at[24]; /* digit counts from the right where a separator goes */
  int n_marks = 0, pos = 0;
  const char *g = grouping != NULL ? grouping : "";

  if (separator == NULL || *separator == '\0' || *g == '\0' || *g == CHAR_MAX || *g <= 0)
    return g_strdup (digits);
  for (int size = *g;;)
    {
      pos += size;
      if (pos >= len)
        break;
      group_at[n_marks++] = pos;
      if (g[1] != '\0')
        {
          g++;
          if (*g == CHAR_MAX || *g < 0)
            break;
          if (*g > 0)
            size = *g;
        }
    }
  out = g_string_sized_new ((gsize)len + (gsize)n_marks * strlen (separator));
  for (int i = 0; i < len; i++)
    {
      int from_right = len - i;

      for (int k = 0; k < n_marks; k++)
        if (group_at[k] == from_right)
          g_string_append (out, separator);
      g_string_append_c (out, digits[i]);
    }
  return g_string_free (out, FALSE);
}

char *
tress_format_count (guint64 n)
{
  const struct lconv *lc = localeconv ();

  return tress_format_count_with (n, lc->thousands_sep, lc->grouping);
}
