/* test-curve-hierarchy.c: the curves tree nested by a skeleton, and the
 * per-animation play ranges with their looping maths
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "document/tress-curve-document.h"
#include "tress-fake-curves.h"
#include "tress-test-utils.h"

static const double frames[] = { 0, 10 };
static const double values[] = { 0, 1 };

/* Curves 0…6: two animations over a skeleton Root ← Spine ← Neck ← Head,
 * Root ← Tail; Neck has no curves in Walk, Spine none in Run. */
static const TressFakeCurveSpec specs[] = {
  { "Walk/Root/Translate X", "X", TRESS_INTERP_LINEAR, 2, frames, values, NULL },
  { "Walk/Head/Rotate Z", "Z", TRESS_INTERP_LINEAR, 2, frames, values, NULL },
  { "Walk/Spine/Rotate Z", "Z", TRESS_INTERP_LINEAR, 2, frames, values, NULL },
  { "Walk/Tail/Rotate Z", "Z", TRESS_INTERP_LINEAR, 2, frames, values, NULL },
  { "Run/Head/Rotate Z", "Z", TRESS_INTERP_LINEAR, 2, frames, values, NULL },
  { "Run/Root/Translate X", "X", TRESS_INTERP_LINEAR, 2, frames, values, NULL },
  { "Walk/Spine/Scale X", "X", TRESS_INTERP_LINEAR, 2, frames, values, NULL },
};
static const char *const names[] = { "Root", "Spine", "Neck", "Head", "Tail" };
static const int parents[] = { -1, 0, 1, 2, 0 };
static const int curve_node[] = { 0, 3, 1, 4, 3, 0, 1 };

static TressCurveDocument *
open_doc (void)
{
  g_autoptr (GBytes) bytes = tress_fake_curves_build (specs, G_N_ELEMENTS (specs), FALSE);
  g_autoptr (GError) error = NULL;
  TressDocument *doc = tress_document_new_from_bytes (bytes, "bones.fcrv", &error);

  g_assert_no_error (error);
  return TRESS_CURVE_DOCUMENT (doc);
}

static TressCurveSkeleton *
skeleton (void)
{
  return tress_curve_skeleton_new (G_N_ELEMENTS (names), names, parents, G_N_ELEMENTS (curve_node),
                                   curve_node);
}

/* The tree below @list as text: "name(child child…)", curves as their index. */
static void
dump (GListModel *list, GString *out)
{
  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr (TressCurveNode) node = g_list_model_get_item (list, i);
      GListModel *children = tress_curve_node_get_children (node);

      if (i > 0)
        g_string_append_c (out, ' ');
      if (children == NULL)
        {
          g_string_append_printf (out, "%d", tress_curve_node_get_curve_index (node));
          continue;
        }
      g_string_append_printf (out, "%s%s(", tress_curve_node_get_name (node),
                              tress_curve_node_is_nested (node) ? "*" : "");
      dump (children, out);
      g_string_append_c (out, ')');
    }
}

static char *
tree_text (TressCurveDocument *doc)
{
  GString *s = g_string_new (NULL);

  dump (tress_curve_document_get_roots (doc), s);
  return g_string_free (s, FALSE);
}

static TressCurveNode *
find (GListModel *list, const char *path)
{
  g_auto (GStrv) parts = g_strsplit (path, "/", -1);
  TressCurveNode *node = NULL;

  for (guint p = 0; parts[p] != NULL; p++)
    {
      TressCurveNode *next = NULL;

      for (guint i = 0; list != NULL && i < g_list_model_get_n_items (list) && !next; i++)
        {
          g_autoptr (TressCurveNode) n = g_list_model_get_item (list, i);

          if (g_strcmp0 (tress_curve_node_get_name (n), parts[p]) == 0)
            next = n;
        }
      g_assert_nonnull (next);
      node = next;
      list = tress_curve_node_get_children (node);
    }
  return node;
}

static void
test_flat (void)
{
  g_autoptr (TressCurveDocument) doc = open_doc ();
  g_autofree char *text = tree_text (doc);

  /* No skeleton: the bones side by side under each animation. */
  g_assert_cmpstr (text, ==, "Fake(Walk(Root(0) Head(1) Spine(2 6) Tail(3)) Run(Head(4) Root(5)))");
}

static void
test_nested (void)
{
  g_autoptr (TressCurveDocument) doc = open_doc ();
  g_autofree char *flat = tree_text (doc);
  g_autofree char *text = NULL, *again = NULL, *back = NULL;
  g_autoptr (GArray) own = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (guint));
  TressCurveNode *root;

  g_assert_true (tress_curve_document_set_skeleton (doc, skeleton ()));
  text = tree_text (doc);
  /* Each bone under its parent, in each animation; an ancestor without
   * curves there (Neck in Walk, Spine in Run) is a group of its own. */
  g_assert_cmpstr (text, ==,
                   "Fake(Walk(Root*(0 Spine*(Neck*(Head*(1)) 2 6) Tail*(3)))"
                   " Run(Root*(Spine*(Neck*(Head*(4))) 5)))");
  root = find (tress_curve_document_get_roots (doc), "Fake/Walk/Root");
  tress_curve_node_collect_own_curves (root, own);
  g_assert_cmpuint (own->len, ==, 1);
  g_assert_cmpuint (g_array_index (own, guint, 0), ==, 0);
  tress_curve_node_collect_curves (root, all);
  g_assert_cmpuint (all->len, ==, 5);
  g_array_set_size (own, 0);
  tress_curve_node_collect_own_curves (find (tress_curve_document_get_roots (doc), "Fake/Walk"),
                                       own);
  g_assert_cmpuint (own->len, ==, 5);
  g_array_set_size (own, 0);
  tress_curve_node_collect_own_curves (
      find (tress_curve_document_get_roots (doc), "Fake/Walk/Root/Spine"), own);
  g_assert_cmpuint (own->len, ==, 2);
  g_assert_cmpuint (g_array_index (own, guint, 0), ==, 2);
  g_assert_cmpuint (g_array_index (own, guint, 1), ==, 6);
  /* Neck has no curves of its own in Walk: it stands for Head's below it. */
  g_array_set_size (own, 0);
  tress_curve_node_collect_own_curves (
      find (tress_curve_document_get_roots (doc), "Fake/Walk/Root/Spine/Neck"), own);
  g_assert_cmpuint (own->len, ==, 1);
  g_assert_cmpuint (g_array_index (own, guint, 0), ==, 1);

  /* The same skeleton again changes nothing; none goes back to flat. */
  g_assert_false (tress_curve_document_set_skeleton (doc, skeleton ()));
  again = tree_text (doc);
  g_assert_cmpstr (again, ==, text);
  g_assert_true (tress_curve_document_set_skeleton (doc, NULL));
  back = tree_text (doc);
  g_assert_cmpstr (back, ==, flat);
}

static void
test_mismatch (void)
{
  g_autoptr (TressCurveDocument) doc = open_doc ();
  g_autofree char *flat = tree_text (doc);
  g_autofree char *text = NULL;
  static const int fewer[] = { 0, 3 };

  /* A skeleton for other curves (another number of them) nests nothing. */
  tress_curve_document_set_skeleton (
      doc, tress_curve_skeleton_new (G_N_ELEMENTS (names), names, parents, 2, fewer));
  text = tree_text (doc);
  g_assert_cmpstr (text, ==, flat);
}

static void
test_skeleton (void)
{
  static const char *const loop_names[] = { "A", "B", "C", "D" };
  static const int loop_parents[] = { 2, 0, 1, 7 }; /* A→C→B→A, D's parent out of range */
  static const int cn[] = { 1, -5, 9 };
  g_autoptr (TressCurveSkeleton) s = tress_curve_skeleton_new (4, loop_names, loop_parents, 3, cn);
  g_autoptr (GArray) anc = g_array_new (FALSE, FALSE, sizeof (int));
  const char *const parts[] = { "Anim", "B", "Rotate X", NULL };
  const char *const niff[] = { "group 3", "Translation", "X", NULL };

  /* The loop is cut where it closes: every node reaches a root. */
  for (guint n = 0; n < 4; n++)
    {
      guint steps = 0;

      for (int p = tress_curve_skeleton_get_parent (s, n); p >= 0;
           p = tress_curve_skeleton_get_parent (s, (guint)p))
        g_assert_cmpuint (++steps, <, 4);
    }
  g_assert_cmpint (tress_curve_skeleton_get_parent (s, 3), ==, -1);
  g_assert_cmpint (tress_curve_skeleton_get_curve_node (s, 0), ==, 1);
  g_assert_cmpint (tress_curve_skeleton_get_curve_node (s, 1), ==, -1);
  g_assert_cmpint (tress_curve_skeleton_get_curve_node (s, 2), ==, -1);
  g_assert_cmpint (tress_curve_skeleton_get_curve_node (s, 3), ==, -1);
  /* The walk up from A goes A → C → B → A: cut at B, the root now. */
  g_assert_cmpint (tress_curve_skeleton_get_parent (s, 1), ==, -1);
  tress_curve_skeleton_ancestors (s, 0, anc);
  g_assert_cmpuint (anc->len, ==, 2);
  g_assert_cmpint (g_array_index (anc, int, 0), ==, 1);
  g_assert_cmpint (g_array_index (anc, int, 1), ==, 2);

  /* The level naming the node; never the last (the curve itself). */
  g_assert_cmpint (tress_curve_skeleton_node_level (s, 0, parts, 3, NULL), ==, 1);
  g_assert_cmpint (tress_curve_skeleton_node_level (s, 0, parts, 2, NULL), ==, -1);
  /* NIFF: the group's owner is the object. */
  g_assert_cmpint (tress_curve_skeleton_node_level (s, 0, niff, 3, "B"), ==, 0);
  g_assert_cmpint (tress_curve_skeleton_node_level (s, 0, niff, 3, "C"), ==, -1);
  g_assert_cmpint (tress_curve_skeleton_node_level (s, 1, parts, 3, NULL), ==, -1);
}

static void
test_ranges (void)
{
  g_autoptr (TressPlayRanges) r = tress_play_ranges_new ();
  g_autofree char *walk = tress_play_range_key ("Skeletal", "Walk/Spine/Rotate Z");
  g_autofree char *walk2 = tress_play_range_key ("Skeletal", "Walk/Head/Rotate X");
  g_autofree char *run = tress_play_range_key ("Skeletal", "Run/Head/Rotate X");
  g_autofree char *vis = tress_play_range_key ("Visibility", "Walk/Head");
  double a = -1, b = -1;

  g_assert_cmpstr (walk, ==, walk2);
  g_assert_cmpstr (walk, !=, run);
  g_assert_cmpstr (walk, !=, vis);
  g_assert_false (tress_play_ranges_get (r, walk, &a, &b));

  /* The start alone: the end is the animation's. */
  tress_play_ranges_set_start (r, walk, 10, 60);
  g_assert_true (tress_play_ranges_get (r, walk2, &a, &b));
  g_assert_cmpfloat (a, ==, 10);
  g_assert_cmpfloat (b, ==, 60);
  tress_play_ranges_set_end (r, walk, 30, 0);
  g_assert_true (tress_play_ranges_get (r, walk, &a, &b));
  g_assert_cmpfloat (a, ==, 10);
  g_assert_cmpfloat (b, ==, 30);
  /* A start past the end takes the end along, and the other way round. */
  tress_play_ranges_set_start (r, walk, 40, 60);
  tress_play_ranges_get (r, walk, &a, &b);
  g_assert_cmpfloat (a, ==, 40);
  g_assert_cmpfloat (b, ==, 40);
  tress_play_ranges_set_end (r, walk, 5, 0);
  tress_play_ranges_get (r, walk, &a, &b);
  g_assert_cmpfloat (a, ==, 5);
  g_assert_cmpfloat (b, ==, 5);
  tress_play_ranges_set (r, walk, 20, 12);
  tress_play_ranges_get (r, walk, &a, &b);
  g_assert_cmpfloat (a, ==, 12);
  g_assert_cmpfloat (b, ==, 20);

  /* Per animation: Run has none; the end alone starts at the animation's first frame. */
  g_assert_false (tress_play_ranges_get (r, run, NULL, NULL));
  tress_play_ranges_set_end (r, run, 8, 2);
  tress_play_ranges_get (r, run, &a, &b);
  g_assert_cmpfloat (a, ==, 2);
  g_assert_cmpfloat (b, ==, 8);
  g_assert_true (tress_play_ranges_clear (r, run));
  g_assert_false (tress_play_ranges_clear (r, run));
  g_assert_false (tress_play_ranges_get (r, run, NULL, NULL));
  g_assert_true (tress_play_ranges_get (r, walk, NULL, NULL));
}

static void
test_looping (void)
{
  double lo, hi, f, prev;
  gboolean stopped;

  /* Bounds: the range cut to the animation; outside it, the whole animation. */
  tress_play_range_bounds (FALSE, 5, 9, 0, 60, &lo, &hi);
  g_assert_cmpfloat (lo, ==, 0);
  g_assert_cmpfloat (hi, ==, 60);
  tress_play_range_bounds (TRUE, 5, 90, 0, 60, &lo, &hi);
  g_assert_cmpfloat (lo, ==, 5);
  g_assert_cmpfloat (hi, ==, 60);
  tress_play_range_bounds (TRUE, 70, 90, 0, 60, &lo, &hi);
  g_assert_cmpfloat (lo, ==, 0);
  g_assert_cmpfloat (hi, ==, 60);

  g_assert_cmpfloat (tress_play_range_start_frame (10, 20, 15), ==, 15);
  g_assert_cmpfloat (tress_play_range_start_frame (10, 20, 20), ==, 10);
  g_assert_cmpfloat (tress_play_range_start_frame (10, 20, 3), ==, 10);
  g_assert_cmpfloat (tress_play_range_start_frame (10, 20, 45), ==, 10);

  g_assert_cmpfloat (tress_play_range_advance (10, 20, 12, 5, TRUE, &stopped), ==, 17);
  g_assert_false (stopped);
  g_assert_cmpfloat (tress_play_range_advance (10, 20, 12, 9, TRUE, &stopped), ==, 11);
  g_assert_cmpfloat (tress_play_range_advance (10, 20, 12, 8, TRUE, &stopped), ==, 10);
  g_assert_cmpfloat (tress_play_range_advance (10, 20, 12, 1000.5, TRUE, &stopped), ==, 12.5);
  g_assert_false (stopped);
  g_assert_cmpfloat (tress_play_range_advance (10, 20, 12, 9, FALSE, &stopped), ==, 20);
  g_assert_true (stopped);
  g_assert_cmpfloat (tress_play_range_advance (10, 10, 10, 3, TRUE, &stopped), ==, 10);
  g_assert_true (stopped);

  /* Whatever the steps, looping never leaves [lo, hi). */
  prev = 9.9;
  for (double t = 0; t < 500; t += 0.37)
    {
      f = tress_play_range_advance (10, 20.5, 10, t, TRUE, &stopped);
      g_assert_false (stopped);
      g_assert_cmpfloat (f, >=, 10);
      g_assert_cmpfloat (f, <, 20.5);
      g_assert_true (f > prev || f < prev - 5); /* forward, or wrapped back */
      prev = f;
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  tress_fake_curves_register ();
  g_test_add_func ("/curve-hierarchy/flat", test_flat);
  g_test_add_func ("/curve-hierarchy/nested", test_nested);
  g_test_add_func ("/curve-hierarchy/mismatch", test_mismatch);
  g_test_add_func ("/curve-hierarchy/skeleton", test_skeleton);
  g_test_add_func ("/play-range/ranges", test_ranges);
  g_test_add_func ("/play-range/looping", test_looping);
  return g_test_run ();
}
