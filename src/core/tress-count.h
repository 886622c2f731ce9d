/* tress-count.h: counts as the user's locale writes them
 *
 * "441,020" in English, "441.020" in German, "4,41,020" in Hindi: the digit
 * grouping and separator of LC_NUMERIC (what printf's ' flag gives), for
 * every count shown in the UI ("441,020 lines").
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @n with the current locale's thousands separator and grouping. */
char *tress_format_count (guint64 n);
/* @n grouped as localeconv() says: @separator between groups, @grouping
 * its bytes (the first group's size, the next's…; 0 repeats the last, CHAR_MAX
 * or an empty string stops grouping). */
char *tress_format_count_with (guint64 n, const char *separator, const char *grouping);

G_END_DECLS
