/* test-count.c: counts grouped as locales write them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <limits.h>
#include <locale.h>

#include "core/tress-count.h"

static void
check (guint64 n, const char *sep, const char *grouping, const char *want)
{
  g_autofree char *got = tress_format_count_with (n, sep, grouping);

  g_assert_cmpstr (got, ==, want);
}

static void
test_grouping (void)
{
  check (441020, ",", "\3\3", "441,020");
  check (441020, ",", "\3", "441,020");
  check (76305, ".", "\3\3", "76.305");
  check (1234567890, "\u202f", "\3", "1\u202f234\u202f567\u202f890");
  check (441020, ",", "\3\2", "4,41,020"); /* Indian: 3, then twos */
  check (123, ",", "\3", "123");
  check (1000, ",", "\3", "1,000");
  check (0, ",", "\3", "0");
  check (G_MAXUINT64, ",", "\3", "18,446,744,073,709,551,615");
  /* C locale and friends: no grouping */
  check (441020, "", "", "441020");
  check (441020, ",", "", "441020");
  {
    const char stop[] = { 3, CHAR_MAX, 0 };
    check (123456789, ",", stop, "123456,789");
  }
}

/* In the C locale (no grouping), the plain digits. */
static void
test_c_locale (void)
{
  g_autofree char *got = NULL;

  setlocale (LC_NUMERIC, "C");
  got = tress_format_count (441020);
  g_assert_cmpstr (got, ==, "441020");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/count/grouping", test_grouping);
  g_test_add_func ("/core/count/c-locale", test_c_locale);
  return g_test_run ();
}
