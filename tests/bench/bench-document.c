/* bench-document.c: what the document layer's safety costs
 *
 * Figures are ratios against a baseline measured in the same run:
 *   load  = tress_document_load ()            vs g_file_get_contents () of the same file
 *   save  = tress_document_save ()            vs g_file_set_contents () of the same bytes
 *           (serialize, parse again, validate, serialize again and compare,
 *            check the disk, replace with a backup)
 *   edit  = set value through the history     vs writing the value directly
 *   undo  = undo of those steps               vs writing the old value directly
 * Each figure is the median of several runs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "document/tress-document.h"

#include <stdlib.h>

#include "tress-test-format.h"
#include "tress-test-utils.h"

#define N_VALUES (1024 * 1024) /* a 4 MiB file */
#define N_RUNS 5
#define N_EDITS 100000

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double
median (double *v, guint n)
{
  qsort (v, n, sizeof (double), cmp_double);
  return v[n / 2];
}

static void
report (const char *what, double seconds, double baseline, const char *unit_note)
{
  g_print ("%-5s %8.3f ms  baseline %8.3f ms  ratio %6.2f  %s\n", what, seconds * 1e3,
           baseline * 1e3, seconds / baseline, unit_note);
}

int
main (int argc, char *argv[])
{
  g_autofree guint32 *values = g_new (guint32, N_VALUES);
  g_autoptr (GBytes) bytes = NULL;
  g_autofree char *path = NULL;
  g_autoptr (GFile) file = NULL;
  g_autoptr (TressDocument) doc = NULL;
  double t_base[N_RUNS], t_doc[N_RUNS];
  GTimer *timer = g_timer_new ();

  tress_test_format_register ();
  for (guint i = 0; i < N_VALUES; i++)
    values[i] = i & 0xFFFF;
  bytes = tress_test_format_build (values, N_VALUES);
  path = g_build_filename (tress_test_tmpdir (), "bench.trsstest", NULL);
  file = g_file_new_for_path (path);
  g_assert_true (
      g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  g_print ("file: %" G_GSIZE_FORMAT " bytes, %d values; median of %d runs\n",
           g_bytes_get_size (bytes), N_VALUES, N_RUNS);

  for (guint r = 0; r < N_RUNS; r++)
    {
      g_autofree char *contents = NULL;
      TressDocument *d;

      g_timer_start (timer);
      g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
      t_base[r] = g_timer_elapsed (timer, NULL);

      g_timer_start (timer);
      d = tress_document_load (file, NULL, NULL);
      t_doc[r] = g_timer_elapsed (timer, NULL);
      g_assert_nonnull (d);
      g_object_unref (d);
    }
  report ("load", median (t_doc, N_RUNS), median (t_base, N_RUNS), "(read + parse)");

  doc = tress_document_load (file, NULL, NULL);
  for (guint r = 0; r < N_RUNS; r++)
    {
      g_autoptr (GError) error = NULL;

      g_timer_start (timer);
      g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                          g_bytes_get_size (bytes), NULL));
      t_base[r] = g_timer_elapsed (timer, NULL);

      g_timer_start (timer);
      /* The baseline rewrote the file: overwrite knowingly. */
      g_assert_true (tress_document_save (doc, NULL, TRUE, NULL, &error));
      t_doc[r] = g_timer_elapsed (timer, NULL);
      g_assert_no_error (error);
    }
  report ("save", median (t_doc, N_RUNS), median (t_base, N_RUNS),
          "(serialize, re-parse, validate, compare, replace with backup)");

  {
    TressHistory *history = tress_document_get_history (doc);
    TressTestModel *model = tress_document_get_model (doc);
    double t_edit[N_RUNS], t_undo[N_RUNS], t_direct[N_RUNS], t_direct_undo[N_RUNS];

    tress_history_set_limits (history, 0, 0);
    for (guint r = 0; r < N_RUNS; r++)
      {
        volatile guint32 *raw = (guint32 *)(void *)model->values->data;

        g_timer_start (timer);
        for (guint i = 0; i < N_EDITS; i++)
          raw[i] = i + r;
        t_direct[r] = g_timer_elapsed (timer, NULL);
        g_timer_start (timer);
        for (guint i = N_EDITS; i > 0; i--)
          raw[i - 1] = (i - 1) & 0xFFFF;
        t_direct_undo[r] = g_timer_elapsed (timer, NULL);

        /* Different indices, so nothing merges: one step per edit. */
        g_timer_start (timer);
        for (guint i = 0; i < N_EDITS; i++)
          tress_test_model_set_value (history, model, i, i + r);
        t_edit[r] = g_timer_elapsed (timer, NULL);
        g_assert_cmpuint (tress_history_get_n_undo (history), ==, N_EDITS);

        g_timer_start (timer);
        while (tress_history_undo (history))
          ;
        t_undo[r] = g_timer_elapsed (timer, NULL);
        g_assert_cmpuint (tress_test_model_get_value (model, 7), ==, 7);
        tress_history_clear (history);
      }
    report ("edit", median (t_edit, N_RUNS), median (t_direct, N_RUNS), "(100000 undoable steps)");
    report ("undo", median (t_undo, N_RUNS), median (t_direct_undo, N_RUNS),
            "(100000 steps undone)");
  }

  g_timer_destroy (timer);
  return 0;
}
