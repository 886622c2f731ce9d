/* test-bfres-save.c: saved bytes stay as they were saved
 *
 * A save hands out the edited bytes without copying them. These tests hold
 * saved bytes across further edits (in place, and edits that grow the file),
 * across the model being freed, and across a save dropped on another thread,
 * and read what they hold with the reference decoder of bfres-test-common.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "bfres-test-common.h"
#include "formats/bfres/tress-bfres-builder.h"
#include "tress-test-utils.h"

static const TressCurveOps *ops;

static TressBfres *
open_generated (GBytes **bytes_out)
{
  g_autoptr (GError) error = NULL;
  GBytes *bytes = tress_bfres_build_test_file (4, 16, 2, 8, &error);
  TressBfres *b;

  g_assert_no_error (error);
  b = tress_bfres_parse (bytes, "generated", &error);
  g_assert_no_error (error);
  *bytes_out = bytes;
  return b;
}

/* The value of curve @index's first key in @bytes, by the reference decoder. */
static double
first_value (TressBfres *b, guint index, GBytes *bytes)
{
  TressBfresCurveInfo info;
  RefCurve rc;

  g_assert_true (tress_bfres_get_curve_info (b, index, &info));
  g_assert_cmpuint (info.header_pos + 0x24, <=, g_bytes_get_size (bytes));
  ref_curve_read (g_bytes_get_data (bytes, NULL), info.header_pos, TRUE, &rc);
  return ref_eval (&rc, ref_frame (&rc, 0));
}

static void
set_first_value (TressBfres *b, guint index, double v)
{
  g_autoptr (TressCurve) c = ops->get_curve (b, index);
  g_autoptr (GError) error = NULL;

  tress_curve_get_key (c, 0)->value = v;
  g_assert_true (ops->set_curve (b, index, c, NULL, &error));
  g_assert_no_error (error);
}

static GBytes *
copy_of (GBytes *bytes)
{
  return g_bytes_new (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
}

static void
test_held_across_edits (void)
{
  g_autoptr (GBytes) bytes = NULL, first = NULL, first_copy = NULL, again = NULL, second = NULL,
                     grown = NULL, second_copy = NULL;
  g_autoptr (TressBfres) b = open_generated (&bytes);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressCurve) c = NULL;
  int k;

  set_first_value (b, 0, 0.125);
  first = tress_format_bfres.serialize (b, &error);
  g_assert_no_error (error);
  first_copy = copy_of (first);
  g_assert_cmpfloat_with_epsilon (first_value (b, 0, first), 0.125, 1e-3);

  /* A second save of the same state: the same bytes, not another copy. */
  again = tress_format_bfres.serialize (b, &error);
  g_assert_true (g_bytes_get_data (again, NULL) == g_bytes_get_data (first, NULL));

  /* An edit in place while the save is held: the save keeps its bytes. */
  set_first_value (b, 0, -0.0625);
  second = tress_format_bfres.serialize (b, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (first, first_copy));
  g_assert_cmpfloat_with_epsilon (first_value (b, 0, first), 0.125, 1e-3);
  g_assert_cmpfloat_with_epsilon (first_value (b, 0, second), -0.0625, 1e-3);
  second_copy = copy_of (second);

  /* An edit that appends (a key more): the file grows, the saves stay. */
  c = ops->get_curve (b, 1);
  k = tress_curve_insert_on_curve (c, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (k, >, 0);
  g_assert_true (ops->set_curve (b, 1, c, NULL, &error));
  g_assert_no_error (error);
  grown = tress_format_bfres.serialize (b, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (grown), >, g_bytes_get_size (second));
  g_assert_true (g_bytes_equal (first, first_copy));
  g_assert_true (g_bytes_equal (second, second_copy));
  {
    g_autoptr (TressBfres) re = tress_bfres_parse (grown, "grown", &error);
    g_assert_no_error (error);
    g_assert_cmpfloat_with_epsilon (first_value (re, 0, grown), -0.0625, 1e-3);
  }
}

static void
test_outlives_model (void)
{
  g_autoptr (GBytes) bytes = NULL, saved = NULL, copy = NULL;
  TressBfres *b = open_generated (&bytes);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressBfres) re = NULL;

  set_first_value (b, 2, 0.25);
  saved = tress_format_bfres.serialize (b, &error);
  g_assert_no_error (error);
  copy = copy_of (saved);
  tress_bfres_free (b);
  g_assert_true (g_bytes_equal (saved, copy));
  re = tress_bfres_parse (saved, "saved", &error);
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (first_value (re, 2, saved), 0.25, 1e-3);
}

static gpointer
drop_bytes (gpointer data)
{
  g_bytes_unref (data);
  return NULL;
}

/* Saves written and dropped on another thread, as the editor writes files,
 * while the model is edited on this one. */
static void
test_dropped_on_another_thread (void)
{
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressBfres) b = open_generated (&bytes);
  g_autoptr (GError) error = NULL;

  for (int i = 0; i < 200; i++)
    {
      GBytes *saved;
      GThread *t;

      set_first_value (b, 0, i / 256.0);
      saved = tress_format_bfres.serialize (b, &error);
      g_assert_no_error (error);
      g_assert_cmpfloat_with_epsilon (first_value (b, 0, saved), i / 256.0, 1e-3);
      t = g_thread_new ("drop", drop_bytes, saved);
      set_first_value (b, 0, -i / 256.0);
      g_thread_join (t);
    }
  {
    g_autoptr (GBytes) last = tress_format_bfres.serialize (b, &error);
    g_assert_cmpfloat_with_epsilon (first_value (b, 0, last), -199 / 256.0, 1e-3);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  ops = tress_format_bfres.curves;
  g_test_add_func ("/bfres/save/held-across-edits", test_held_across_edits);
  g_test_add_func ("/bfres/save/outlives-model", test_outlives_model);
  g_test_add_func ("/bfres/save/dropped-on-another-thread", test_dropped_on_another_thread);
  return g_test_run ();
}
