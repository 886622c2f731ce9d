/* test-problem.c: problem lists keep a readable number of each kind
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "formats/tress-problem.h"

#define WEIGHTS "Weights of line %u sum to %u, not 255"
#define REFERENCE "Reference %u names no body part"

/* A validate pass reporting @n bad weights, then one bad reference. */
static GPtrArray *
collect (guint n)
{
  TressProblemCollector *c = tress_problem_collector_new ();

  for (guint i = 0; i < n; i++)
    tress_problem_collect (c, TRESS_SEVERITY_ERROR, "line", i, NULL, -1, WEIGHTS, i, 254);
  tress_problem_collect (c, TRESS_SEVERITY_ERROR, "line", n, NULL, -1, REFERENCE, 40);
  return tress_problem_collector_finish (c);
}

/* Past TRESS_PROBLEM_MAX_PER_KIND problems of a kind, the rest are counted in
 * one summary row after the last one listed; other kinds are listed as they
 * come. */
static void
test_collector_caps_each_kind (void)
{
  g_autoptr (GPtrArray) few = collect (3);
  g_autoptr (GPtrArray) many = collect (TRESS_PROBLEM_MAX_PER_KIND + 3);
  const TressProblem *summary, *last;
  g_autofree char *text = NULL;

  g_assert_cmpuint (few->len, ==, 4);
  g_assert_cmpuint (((TressProblem *)g_ptr_array_index (few, 3))->n_more, ==, 0);

  g_assert_cmpuint (many->len, ==, TRESS_PROBLEM_MAX_PER_KIND + 2);
  for (guint i = 0; i < TRESS_PROBLEM_MAX_PER_KIND; i++)
    {
      const TressProblem *p = g_ptr_array_index (many, i);
      g_autofree char *want = g_strdup_printf ("Weights of line %u sum to 254, not 255", i);

      g_assert_cmpstr (p->message, ==, want);
      g_assert_cmpuint (p->offset, ==, i);
    }
  summary = g_ptr_array_index (many, TRESS_PROBLEM_MAX_PER_KIND);
  g_assert_cmpuint (summary->n_more, ==, 3);
  g_assert_cmpstr (summary->message, ==, "and 3 more of this kind");
  text = tress_problem_to_string (summary);
  g_assert_cmpstr (text, ==, "error: and 3 more of this kind");
  last = g_ptr_array_index (many, TRESS_PROBLEM_MAX_PER_KIND + 1);
  g_assert_cmpstr (last->message, ==, "Reference 40 names no body part");
  /* The summary stands for the problems it counts. */
  g_assert_cmpuint (tress_problem_list_count (many, TRESS_SEVERITY_ERROR), ==,
                    TRESS_PROBLEM_MAX_PER_KIND + 4);
}

/* A view's copy of a long list is summed up the same way, and the list
 * itself is left whole. */
static void
test_aggregated_copy (void)
{
  g_autoptr (GPtrArray) raw = tress_problem_list_new ();
  g_autoptr (GPtrArray) shown = NULL;
  guint n = TRESS_PROBLEM_MAX_PER_KIND + 5;
  const TressProblem *summary;

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (
        raw, tress_problem_new (TRESS_SEVERITY_WARNING, "line", i, NULL, -1, WEIGHTS, i, 300));
  shown = tress_problem_list_aggregated_copy (raw);
  g_assert_cmpuint (raw->len, ==, n);
  g_assert_cmpuint (shown->len, ==, TRESS_PROBLEM_MAX_PER_KIND + 1);
  summary = g_ptr_array_index (shown, TRESS_PROBLEM_MAX_PER_KIND);
  g_assert_cmpuint (summary->n_more, ==, 5);
  g_assert_cmpint (summary->severity, ==, TRESS_SEVERITY_WARNING);
  g_assert_cmpuint (tress_problem_list_count (shown, TRESS_SEVERITY_WARNING), ==, n);

  /* Aggregating in place gives the same list. */
  tress_problem_list_aggregate (raw);
  g_assert_cmpuint (raw->len, ==, shown->len);
  for (guint i = 0; i < raw->len; i++)
    g_assert_cmpstr (((TressProblem *)g_ptr_array_index (raw, i))->message, ==,
                     ((TressProblem *)g_ptr_array_index (shown, i))->message);
}

/* A problem of its own sort (no kind) is never summed up: all are listed. */
static void
test_no_kind_all_listed (void)
{
  g_autoptr (GPtrArray) raw = tress_problem_list_new ();
  g_autoptr (GPtrArray) shown = NULL;
  TressProblemCollector *c = tress_problem_collector_new ();
  g_autoptr (GPtrArray) collected = NULL;
  guint n = TRESS_PROBLEM_MAX_PER_KIND + 2;

  for (guint i = 0; i < n; i++)
    {
      TressProblem *p
          = tress_problem_new (TRESS_SEVERITY_ERROR, "line", i, NULL, -1, WEIGHTS, i, 9);
      TressProblem *q = tress_problem_copy (p);

      p->kind = q->kind = NULL;
      g_ptr_array_add (raw, p);
      tress_problem_collector_add (c, q);
    }
  collected = tress_problem_collector_finish (c);
  shown = tress_problem_list_aggregated_copy (raw);
  g_assert_cmpuint (collected->len, ==, n);
  g_assert_cmpuint (shown->len, ==, n);
  tress_problem_list_aggregate (raw);
  g_assert_cmpuint (raw->len, ==, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (((TressProblem *)g_ptr_array_index (shown, i))->offset, ==, i);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/problem/collector-caps-each-kind", test_collector_caps_each_kind);
  g_test_add_func ("/problem/aggregated-copy", test_aggregated_copy);
  g_test_add_func ("/problem/no-kind-all-listed", test_no_kind_all_listed);
  return g_test_run ();
}
