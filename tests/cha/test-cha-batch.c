/* test-cha-batch.c: edits planned into a batch, performed afterwards
 *
 * Planned (tress_cha_batch_begin/_end) an edit changes nothing; performed,
 * it leaves the very bytes the same edit made at once leaves, with the same
 * undo steps; undo gives back the bytes from before. The bytes are read
 * with the tests' own decoder (every weight triple sums to 255). A
 * cancelled progress stops the plan with G_IO_ERROR_CANCELLED.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "cha-test.h"
#include "core/tress-progress.h"
#include "tress-test-cha.h"

static void
assert_weights_sum (GBytes *bytes)
{
  TressTestChaStats stats;
  const char *why = NULL;

  g_assert_true (tress_test_cha_decode (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                        &stats, &why));
  g_assert_cmpuint (stats.n_lines, >, 0);
  g_assert_cmpuint (stats.bad_weights, ==, 0);
}

/* Two edits made at once: weights of every line of material 0, then a
 * whole-file retarget of its first applied part to its last. */
static gboolean
edits (TressChaFile *file, TressHistory *history, GError **error)
{
  const TressChaMaterial *m = &file->radeon->materials[0];
  g_autofree TressChaLineId *lines = g_new (TressChaLineId, m->n_lines);
  const guint8 w[3] = { 100, 100, 55 };
  TressChaScope whole = { -1, NULL, 0 };

  for (guint i = 0; i < m->n_lines; i++)
    lines[i] = (TressChaLineId){ 0, i };
  if (!tress_cha_set_weights (file, history, lines, m->n_lines, w, error))
    return FALSE;
  return tress_cha_retarget (file, history, &whole, m->applied[0], m->applied[m->n_applied - 1],
                             error);
}

static void
test_same_bytes (void)
{
  g_autoptr (TressChaFile) at_once = cha_test_small (300);
  g_autoptr (TressChaFile) planned = cha_test_small (300);
  g_autoptr (TressHistory) h1 = tress_history_new (at_once);
  g_autoptr (TressHistory) h2 = tress_history_new (planned);
  g_autoptr (GBytes) before = tress_cha_file_serialize (planned);
  g_autoptr (GBytes) unchanged = NULL;
  g_autoptr (GBytes) expected = NULL;
  g_autoptr (GBytes) got = NULL;
  g_autoptr (GBytes) undone = NULL;
  g_autoptr (TressChaBatch) batch = NULL;
  g_autoptr (GError) error = NULL;

  /* Weights and retarget touch the same lines: one batch each. */
  g_assert_true (edits (at_once, h1, &error));
  g_assert_no_error (error);
  expected = tress_cha_file_serialize (at_once);

  {
    const TressChaMaterial *m = &planned->radeon->materials[0];
    g_autofree TressChaLineId *lines = g_new (TressChaLineId, m->n_lines);
    const guint8 w[3] = { 100, 100, 55 };
    TressChaScope whole = { -1, NULL, 0 };

    for (guint i = 0; i < m->n_lines; i++)
      lines[i] = (TressChaLineId){ 0, i };
    tress_cha_batch_begin ();
    g_assert_true (tress_cha_set_weights (planned, NULL, lines, m->n_lines, w, &error));
    batch = tress_cha_batch_end ();
    g_assert_cmpuint (tress_cha_batch_get_n_commands (batch), ==, 1);
    unchanged = tress_cha_file_serialize (planned);
    g_assert_true (g_bytes_equal (unchanged, before));
    tress_cha_batch_perform (batch, planned, h2);
    g_assert_cmpuint (tress_cha_batch_get_n_commands (batch), ==, 0);
    g_clear_pointer (&batch, tress_cha_batch_free);

    tress_cha_batch_begin ();
    g_assert_true (tress_cha_retarget (planned, NULL, &whole, m->applied[0],
                                       m->applied[m->n_applied - 1], &error));
    batch = tress_cha_batch_end ();
    g_assert_cmpstr (tress_cha_batch_get_label (batch, 0), ==, tress_history_get_undo_label (h1));
    tress_cha_batch_perform (batch, planned, h2);
  }
  got = tress_cha_file_serialize (planned);
  g_assert_true (g_bytes_equal (got, expected));
  assert_weights_sum (got);
  g_assert_cmpuint (tress_history_get_n_undo (h2), ==, tress_history_get_n_undo (h1));
  g_assert_cmpstr (tress_history_get_undo_label (h2), ==, tress_history_get_undo_label (h1));
  g_assert_true (tress_history_undo (h2));
  g_assert_true (tress_history_undo (h2));
  undone = tress_cha_file_serialize (planned);
  g_assert_true (g_bytes_equal (undone, before));
  assert_weights_sum (undone);
}

/* A plan whose progress is cancelled stops, changing nothing. */
static void
test_cancelled (void)
{
  g_autoptr (TressChaFile) file = cha_test_small (20000);
  g_autoptr (GBytes) before = tress_cha_file_serialize (file);
  g_autoptr (GBytes) after = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (TressProgress) progress = tress_progress_new (cancellable);
  g_autoptr (TressChaBatch) batch = NULL;
  g_autoptr (GError) error = NULL;
  const TressChaMaterial *m = &file->radeon->materials[0];
  TressChaScope whole = { -1, NULL, 0 };
  gboolean ok;

  g_cancellable_cancel (cancellable);
  tress_progress_run_begin (progress);
  tress_cha_batch_begin ();
  ok = tress_cha_retarget (file, NULL, &whole, m->applied[0], m->applied[m->n_applied - 1], &error);
  batch = tress_cha_batch_end ();
  tress_progress_run_end ();
  g_assert_false (ok);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  after = tress_cha_file_serialize (file);
  g_assert_true (g_bytes_equal (after, before));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cha/batch/same-bytes", test_same_bytes);
  g_test_add_func ("/cha/batch/cancelled", test_cancelled);
  return g_test_run ();
}
