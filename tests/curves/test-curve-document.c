/* test-curve-document.c: TressCurveDocument (tree, set curve, undo to exact bytes)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "document/tress-curve-document.h"
#include "document/tress-curve-hierarchy.h"
#include "formats/bfres/tress-bfres-builder.h"
#include "tress-fake-curves.h"
#include "tress-test-utils.h"

static TressCurveDocument *
open_demo (GBytes **out_bytes)
{
  g_autoptr (GBytes) bytes = tress_fake_curves_build_demo ();
  g_autoptr (GError) error = NULL;
  TressDocument *doc = tress_document_new_from_bytes (bytes, "demo.fcrv", &error);

  g_assert_no_error (error);
  g_assert_true (TRESS_IS_CURVE_DOCUMENT (doc));
  if (out_bytes != NULL)
    *out_bytes = g_bytes_ref (bytes);
  return TRESS_CURVE_DOCUMENT (doc);
}

static GBytes *
serialize (TressCurveDocument *doc)
{
  TressDocument *d = TRESS_DOCUMENT (doc);
  g_autoptr (GError) error = NULL;
  GBytes *b = tress_document_get_format (d)->serialize (tress_document_get_model (d), &error);

  g_assert_no_error (error);
  return b;
}

static TressCurveNode *
child (GListModel *list, guint i)
{
  TressCurveNode *n = g_list_model_get_item (list, i);
  g_object_unref (n); /* the list keeps it */
  return n;
}

static void
test_tree (void)
{
  g_autoptr (TressCurveDocument) doc = open_demo (NULL);
  GListModel *roots = tress_curve_document_get_roots (doc);
  TressCurveNode *kind, *walk, *hip, *tx;
  g_autoptr (GArray) idx = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree char *keys = NULL, *interp = NULL, *range = NULL, *err = NULL, *types = NULL;

  g_assert_cmpuint (tress_curve_document_get_n_curves (doc), ==, 7);
  /* kind → animation → bone → curve */
  g_assert_cmpuint (g_list_model_get_n_items (roots), ==, 1);
  kind = child (roots, 0);
  g_assert_cmpstr (tress_curve_node_get_name (kind), ==, "Fake");
  walk = child (tress_curve_node_get_children (kind), 0);
  g_assert_cmpstr (tress_curve_node_get_name (walk), ==, "Walk");
  g_assert_cmpuint (g_list_model_get_n_items (tress_curve_node_get_children (walk)), ==, 3);
  hip = child (tress_curve_node_get_children (walk), 0);
  g_assert_cmpstr (tress_curve_node_get_name (hip), ==, "Hip");
  g_assert_cmpuint (g_list_model_get_n_items (tress_curve_node_get_children (hip)), ==, 4);
  tx = child (tress_curve_node_get_children (hip), 0);
  g_assert_cmpstr (tress_curve_node_get_name (tx), ==, "Translate X");
  g_assert_cmpint (tress_curve_node_get_curve_index (tx), ==, 0);
  g_assert_null (tress_curve_node_get_children (tx));

  tress_curve_node_collect_curves (hip, idx);
  g_assert_cmpuint (idx->len, ==, 4);
  g_assert_cmpuint (g_array_index (idx, guint, 3), ==, 3);

  keys = tress_curve_node_dup_column (tx, "keys");
  interp = tress_curve_node_dup_column (tx, "interpolation");
  range = tress_curve_node_dup_column (tx, "range");
  err = tress_curve_node_dup_column (tx, "error");
  types = tress_curve_node_dup_column (tx, "types");
  g_assert_cmpstr (keys, ==, "5");
  g_assert_cmpstr (interp, ==, "Hermite");
  g_assert_cmpstr (range, ==, "0 – 40");
  g_assert_cmpstr (err, ==, "0");
  g_assert_cmpstr (types, ==, "u32 frames, 1/64 values");
  g_free (keys);
  keys = tress_curve_node_dup_column (hip, "keys");
  g_assert_cmpstr (keys, ==, "18"); /* 5 + 5 + 5 + 3 */
}

static int changed_index = -1;
static guint changed_count;

static void
on_curve_changed (TressCurveDocument *doc, guint index, gpointer data)
{
  changed_index = (int)index;
  changed_count++;
}

static void
test_set_undo_exact (void)
{
  g_autoptr (GBytes) original = NULL;
  g_autoptr (TressCurveDocument) doc = open_demo (&original);
  TressHistory *history = tress_document_get_history (TRESS_DOCUMENT (doc));
  g_autoptr (TressCurve) c = tress_curve_copy (tress_curve_document_get_curve (doc, 1));
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) after = NULL, undone = NULL, redone = NULL;
  TressCurveNode *node;
  guint revision_before, revision_after;

  g_signal_connect (doc, "curve-changed", G_CALLBACK (on_curve_changed), NULL);
  /* Fake → Walk → Hip → Translate Y */
  node = child (tress_curve_document_get_roots (doc), 0);
  node = child (tress_curve_node_get_children (node), 0);
  node = child (tress_curve_node_get_children (node), 0);
  node = child (tress_curve_node_get_children (node), 1);
  g_assert_cmpint (tress_curve_node_get_curve_index (node), ==, 1);
  g_object_get (node, "revision", &revision_before, NULL);

  /* 0.3 is not a multiple of 1/64: the stored value differs and the error is shown. */
  tress_curve_get_key (c, 2)->value = 0.3;
  changed_count = 0;
  g_assert_true (tress_curve_document_set_curve (doc, 1, c, "Move 1 key", &error));
  g_assert_no_error (error);
  g_assert_cmpint (changed_index, ==, 1);
  g_assert_cmpuint (changed_count, ==, 1);
  g_assert_cmpfloat_with_epsilon (
      tress_curve_get_key (tress_curve_document_get_curve (doc, 1), 2)->value, 19.0 / 64, 1e-12);
  g_assert_cmpfloat_with_epsilon (tress_curve_document_get_quant_error (doc, 1), 0.3 - 19.0 / 64,
                                  1e-12);
  g_assert_true (tress_document_get_modified (TRESS_DOCUMENT (doc)));
  g_assert_cmpstr (tress_history_get_undo_label (history), ==, "Move 1 key");
  after = serialize (doc);
  g_assert_false (g_bytes_equal (after, original));

  /* Undo restores the very same bytes, redo the edited ones. */
  g_assert_true (tress_history_undo (history));
  undone = serialize (doc);
  tress_test_assert_bytes_equal (undone, original);
  g_assert_cmpfloat (tress_curve_get_key (tress_curve_document_get_curve (doc, 1), 2)->value, ==,
                     -1);
  g_assert_cmpfloat (tress_curve_document_get_quant_error (doc, 1), ==, 0);
  g_assert_false (tress_document_get_modified (TRESS_DOCUMENT (doc)));
  g_assert_true (tress_history_redo (history));
  redone = serialize (doc);
  tress_test_assert_bytes_equal (redone, after);
  g_assert_cmpuint (changed_count, ==, 3);

  /* The tree row of the curve was told to refresh each time. */
  g_object_get (node, "revision", &revision_after, NULL);
  g_assert_cmpuint (revision_after, ==, revision_before + 3);
}

static void
test_refusal (void)
{
  g_autoptr (GBytes) original = NULL;
  g_autoptr (TressCurveDocument) doc = open_demo (&original);
  TressHistory *history = tress_document_get_history (TRESS_DOCUMENT (doc));
  g_autoptr (TressCurve) c = tress_curve_copy (tress_curve_document_get_curve (doc, 0));
  g_autoptr (TressCurve) fixed = tress_curve_copy (tress_curve_document_get_curve (doc, 6));
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) now = NULL;

  /* A fractional frame: the limits refuse it with a reason. */
  tress_curve_get_key (c, 1)->frame = 10.5;
  g_assert_false (tress_curve_document_set_curve (doc, 0, c, "Move", &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "whole frames"));
  g_clear_error (&error);

  /* The format refuses a key count change of a fixed curve: nothing changes. */
  tress_curve_remove_key (fixed, 1);
  g_assert_false (tress_curve_document_set_curve (doc, 6, fixed, "Delete", &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "cannot be inserted or deleted"));
  g_clear_error (&error);

  /* A curve past the last: refused by number, nothing touched. */
  g_assert_false (tress_curve_document_set_curve (doc, tress_curve_document_get_n_curves (doc),
                                                  tress_curve_document_get_curve (doc, 0), "Move",
                                                  &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_FAILED);
  now = serialize (doc);
  tress_test_assert_bytes_equal (now, original);
  g_assert_false (tress_history_can_undo (history));
  g_assert_cmpuint (tress_curve_get_n_keys (tress_curve_document_get_curve (doc, 6)), ==, 3);
}

/* Previewing the error of a curve past the last is refused by the document,
 * by number, before the format is asked (on the BFRES corpus file, a format
 * that can preview; the last curve previews). */
static void
test_preview_past_last (void)
{
  g_autofree char *path
      = g_test_build_filename (G_TEST_DIST, "bfres", "corpus", "demo.bfres", NULL);
  g_autoptr (GBytes) bytes = tress_test_read_file (path);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressDocument) doc = tress_document_new_from_bytes (bytes, "demo.bfres", &error);
  g_autoptr (TressCurve) c = NULL;
  g_autofree char *expected = NULL;
  TressCurveDocument *cdoc;
  guint n;
  double e = -1;

  g_assert_no_error (error);
  g_assert_true (TRESS_IS_CURVE_DOCUMENT (doc));
  cdoc = TRESS_CURVE_DOCUMENT (doc);
  n = tress_curve_document_get_n_curves (cdoc);
  g_assert_cmpuint (n, >, 0);
  c = tress_curve_copy (tress_curve_document_get_curve (cdoc, n - 1));
  g_assert_true (tress_curve_document_preview_error (cdoc, n - 1, c, &e, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (e, >=, 0);

  g_assert_false (tress_curve_document_preview_error (cdoc, n, c, &e, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  expected = g_strdup_printf ("There is no curve %u", n);
  g_assert_cmpstr (error->message, ==, expected);
}

static void
test_group_and_merge (void)
{
  g_autoptr (GBytes) original = NULL;
  g_autoptr (TressCurveDocument) doc = open_demo (&original);
  TressHistory *history = tress_document_get_history (TRESS_DOCUMENT (doc));
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) now = NULL;

  /* Two curves in one step. */
  tress_curve_document_begin_edit (doc, "Paste 2 keys");
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr (TressCurve) c = tress_curve_copy (tress_curve_document_get_curve (doc, i));
      TressKey k = *tress_curve_get_key (c, 0);

      k.frame = 50;
      g_assert_cmpint (tress_curve_insert_key (c, &k), ==, 5);
      g_assert_true (tress_curve_document_set_curve (doc, i, c, "Paste 2 keys", &error));
    }
  tress_curve_document_end_edit (doc);
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 1);
  g_assert_cmpstr (tress_history_get_undo_label (history), ==, "Paste 2 keys");
  g_assert_cmpuint (tress_curve_get_n_keys (tress_curve_document_get_curve (doc, 1)), ==, 6);

  /* Typed steps on one field merge into one undo step. */
  for (int s = 1; s <= 3; s++)
    {
      g_autoptr (TressCurve) c = tress_curve_copy (tress_curve_document_get_curve (doc, 3));
      tress_curve_get_key (c, 1)->value = 1 + s / 4.0;
      g_assert_true (
          tress_curve_document_set_curve_merging (doc, 3, c, "Edit key 1", "value-3-1", &error));
    }
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 2);
  g_assert_cmpfloat (tress_curve_get_key (tress_curve_document_get_curve (doc, 3), 1)->value, ==,
                     1.75);
  g_assert_true (tress_history_undo (history));
  g_assert_cmpfloat (tress_curve_get_key (tress_curve_document_get_curve (doc, 3), 1)->value, ==,
                     1);
  g_assert_true (tress_history_undo (history));
  g_assert_cmpuint (tress_curve_get_n_keys (tress_curve_document_get_curve (doc, 1)), ==, 5);
  now = serialize (doc);
  tress_test_assert_bytes_equal (now, original);
}

static void
test_save_reopen (void)
{
  g_autoptr (TressCurveDocument) doc = open_demo (NULL);
  g_autoptr (TressCurve) c = tress_curve_copy (tress_curve_document_get_curve (doc, 2));
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (tress_test_tmpdir (), "saved.fcrv", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (TressDocument) again = NULL;
  const TressCurve *reread;

  g_assert_cmpint (tress_curve_insert_on_curve (c, 25, &error), ==, 3);
  g_assert_true (tress_curve_document_set_curve (doc, 2, c, "Insert key", &error));
  g_assert_true (tress_document_save (TRESS_DOCUMENT (doc), file, FALSE, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (tress_document_get_modified (TRESS_DOCUMENT (doc)));

  again = tress_document_load (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (TRESS_IS_CURVE_DOCUMENT (again));
  reread = tress_curve_document_get_curve (TRESS_CURVE_DOCUMENT (again), 2);
  g_assert_cmpuint (tress_curve_get_n_keys (reread), ==, 6);
  g_assert_cmpfloat (tress_curve_get_key (reread, 3)->frame, ==, 25);
  g_assert_cmpfloat_with_epsilon (
      tress_curve_get_key (reread, 3)->value,
      tress_curve_get_key (tress_curve_document_get_curve (doc, 2), 3)->value, 1e-12);
}

/* The real formats: every curve of every sample reads, its tree is built, and
 * re-encoding a curve unchanged then undoing gives the file's own bytes. */
static void
check_sample (const char *rel)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample (rel);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressDocument) doc = NULL;
  TressCurveDocument *cd;
  const TressFormat *format;
  g_autoptr (GBytes) undone = NULL;

  if (bytes == NULL)
    return;
  doc = tress_document_new_from_bytes (bytes, rel, &error);
  /* Until a format reads its samples (its branch not merged yet), there is nothing to test. */
  if (doc == NULL
      && (g_error_matches (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED)
          || g_error_matches (error, TRESS_ERROR, TRESS_ERROR_UNKNOWN_FORMAT)))
    {
      g_test_skip (error->message);
      return;
    }
  g_assert_no_error (error);
  format = tress_document_get_format (doc);
  if (format->curves == NULL)
    {
      g_test_skip ("the format has no curve operations yet");
      return;
    }
  g_assert_true (TRESS_IS_CURVE_DOCUMENT (doc));
  cd = TRESS_CURVE_DOCUMENT (doc);
  g_assert_cmpuint (tress_curve_document_get_n_curves (cd), ==,
                    format->curves->n_curves (tress_document_get_model (doc)));
  if (tress_curve_document_get_n_curves (cd) == 0)
    return;
  g_assert_cmpuint (g_list_model_get_n_items (tress_curve_document_get_roots (cd)), >, 0);
  {
    g_autoptr (TressCurve) c = tress_curve_copy (tress_curve_document_get_curve (cd, 0));
    TressHistory *history = tress_document_get_history (doc);

    if (tress_curve_document_set_curve (cd, 0, c, "Set curve", &error))
      {
        g_assert_true (tress_history_undo (history));
        undone = format->serialize (tress_document_get_model (doc), &error);
        g_assert_no_error (error);
        tress_test_assert_bytes_equal (undone, bytes);
      }
    else
      g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  }
}

static void
test_samples (void)
{
  static const char *const samples[]
      = { "bfres/Animal_Bass_Animation.bfres", "bfres/Animal_Dog_Animation.bfres",
          "niff/Rings.niff", "niff/synthetic-all-channels.nif" };

  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    check_sample (samples[i]);
}

/* A file nobody edited stores exactly what the document shows: no curve of any
 * shared BFRES file has a quantization error (so the editor warns of none),
 * and re-storing a curve unchanged keeps every byte. */
static void
test_unedited_exact (void)
{
  static const char *const samples[]
      = { "bfres/Animal_Bass.bfres", "bfres/Animal_Bass_Animation.bfres",
          "bfres/Animal_Bass_Animation.sbfres", "bfres/Animal_Dog_Animation.bfres" };

  for (guint s = 0; s < G_N_ELEMENTS (samples); s++)
    {
      g_autoptr (GBytes) bytes = tress_test_load_sample (samples[s]);
      g_autoptr (GError) error = NULL;
      g_autoptr (TressDocument) doc = NULL;
      TressCurveDocument *cd;
      guint n;

      if (bytes == NULL)
        return;
      doc = tress_document_new_from_bytes (bytes, samples[s], &error);
      g_assert_no_error (error);
      cd = TRESS_CURVE_DOCUMENT (doc);
      n = tress_curve_document_get_n_curves (cd);
      g_assert_cmpuint (n, >, 0);
      for (guint i = 0; i < n; i++)
        g_assert_cmpfloat (tress_curve_document_get_quant_error (cd, i), ==, 0);
      for (guint i = 0; i < n; i += 97)
        {
          g_autoptr (TressCurve) c = tress_curve_copy (tress_curve_document_get_curve (cd, i));
          g_autoptr (GBytes) now = NULL;

          g_assert_true (tress_curve_document_set_curve (cd, i, c, "Set curve", &error));
          g_assert_no_error (error);
          g_assert_cmpfloat (tress_curve_document_get_quant_error (cd, i), ==, 0);
          now = tress_document_get_format (doc)->serialize (tress_document_get_model (doc), &error);
          g_assert_no_error (error);
          tress_test_assert_bytes_equal (now, bytes);
        }
    }
}

/* The optional curve operations on the BFRES sample: preview_error gives the
 * error set_curve then gives, and stores nothing; widen_types brings the stored
 * values closer until the types are the widest; set_frame_count only raises. */
static void
test_ops_bfres (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("bfres/Animal_Dog_Animation.bfres");
  g_autoptr (GError) error = NULL;
  const TressFormat *format = tress_format_lookup ("bfres");
  const TressCurveOps *ops;
  gpointer model;
  int target = -1;

  if (bytes == NULL)
    return;
  ops = format->curves;
  g_assert_nonnull (ops->preview_error);
  g_assert_nonnull (ops->widen_types);
  g_assert_nonnull (ops->set_frame_count);
  model = format->parse (bytes, "Animal_Dog_Animation.bfres", &error);
  g_assert_no_error (error);
  /* A float curve stored with quantized keys (not yet f32). */
  for (guint i = 0; i < ops->n_curves (model) && target < 0; i++)
    {
      g_autoptr (TressCurve) c = ops->get_curve (model, i);

      if (c->limits.value_kind == TRESS_VALUE_FLOAT && tress_curve_get_n_keys (c) >= 3
          && strstr (c->type_label, "f32 keys") == NULL)
        target = (int)i;
    }
  g_assert_cmpint (target, >=, 0);
  {
    g_autoptr (TressCurve) c = ops->get_curve (model, (guint)target);
    g_autoptr (GBytes) before = format->serialize (model, NULL);
    g_autoptr (GBytes) after_preview = NULL;
    g_autoptr (GBytes) state = NULL;
    TressKey *k = tress_curve_get_key (c, 1);
    double previewed = -1, stored = -1, widened = -1, last = G_MAXDOUBLE;
    guint steps = 0;
    g_autoptr (TressCurve) now = NULL;
    guint n;

    k->value += 0.123456789;
    g_assert_true (ops->preview_error (model, (guint)target, c, &previewed, &error));
    g_assert_no_error (error);
    after_preview = format->serialize (model, NULL);
    tress_test_assert_bytes_equal (after_preview, before);
    g_assert_true (ops->set_curve (model, (guint)target, c, &stored, &error));
    g_assert_no_error (error);
    g_assert_cmpfloat (previewed, ==, stored);
    g_assert_cmpfloat (stored, >, 0);

    /* Widening until refused: the error never grows, and ends far below. */
    state = ops->save_state (model, (guint)target);
    while (ops->widen_types (model, (guint)target, &widened, &error))
      {
        g_assert_cmpfloat (widened, <=, last);
        last = widened;
        g_assert_cmpuint (++steps, <, 4);
      }
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
    g_clear_error (&error);
    g_assert_cmpuint (steps, >=, 1);
    g_assert_cmpfloat (last, <, stored);
    g_assert_cmpfloat (last, <, 1e-5);
    /* And the preview now tells the smaller error of the wider types. */
    g_assert_true (ops->preview_error (model, (guint)target, c, &previewed, &error));
    g_assert_cmpfloat (previewed, <, stored);
    g_assert_cmpfloat (previewed, <, 1e-5);
    ops->restore_state (model, (guint)target, state);

    /* A key past the end is refused until the animation is lengthened. */
    now = ops->get_curve (model, (guint)target);
    n = tress_curve_get_n_keys (now);
    g_assert_cmpfloat (now->frame_count, >, 0);
    tress_curve_get_key (now, n - 1)->frame = now->frame_count + 4;
    g_assert_false (ops->preview_error (model, (guint)target, now, &previewed, &error));
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
    g_clear_error (&error);
    g_assert_true (ops->set_frame_count (model, (guint)target, now->frame_count + 4, &error));
    g_assert_no_error (error);
    /* Never lowered. */
    g_assert_true (ops->set_frame_count (model, (guint)target, 1, &error));
    {
      g_autoptr (TressCurve) longer = ops->get_curve (model, (guint)target);
      g_assert_cmpfloat (longer->frame_count, ==, now->frame_count + 4);
    }
    g_assert_true (ops->set_curve (model, (guint)target, now, NULL, &error));
    g_assert_no_error (error);
    g_assert_false (ops->set_frame_count (model, (guint)target, -5, &error));
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  }
  format->free (model);
}

/* NIFF: the preview is the f32 rounding; no wider types, no frame count. */
static void
test_ops_niff (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/Rings.niff");
  g_autoptr (GError) error = NULL;
  const TressFormat *format = tress_format_lookup ("niff");
  const TressCurveOps *ops;
  gpointer model;

  if (bytes == NULL)
    return;
  ops = format->curves;
  g_assert_null (ops->widen_types);
  g_assert_null (ops->set_frame_count);
  g_assert_nonnull (ops->preview_error);
  model = format->parse (bytes, "Rings.niff", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ops->n_curves (model), >, 0);
  {
    g_autoptr (TressCurve) c = ops->get_curve (model, 0);
    g_autoptr (GBytes) before = format->serialize (model, NULL);
    g_autoptr (GBytes) after = NULL;
    double e = -1;

    g_assert_cmpuint (tress_curve_get_n_keys (c), >, 0);
    g_assert_true (ops->preview_error (model, 0, c, &e, &error));
    g_assert_cmpfloat (e, ==, 0); /* the keys as read are f32 already */
    tress_curve_get_key (c, 0)->value = 0.1;
    g_assert_true (ops->preview_error (model, 0, c, &e, &error));
    g_assert_no_error (error);
    g_assert_cmpfloat (e, ==, fabs ((double)0.1f - 0.1));
    after = format->serialize (model, NULL);
    tress_test_assert_bytes_equal (after, before);
    g_assert_false (ops->preview_error (model, 100000, c, &e, &error));
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  }
  format->free (model);
}

/* NIFF stores one record per key for all components of a channel: inserting a
 * key into Translation X gives Y and Z a key there too. The document must show
 * that, and a later edit of Y (built from what the document shows) must keep
 * X's new key. */
static void
test_shared_records (void)
{
  const TressFormat *niff = tress_format_lookup ("niff");
  g_autofree char *path = g_build_filename (tress_test_tmpdir (), "shared.niff", NULL);
  const char *argv[] = { "generate-demo", "niff", "-o", path, NULL };
  g_autoptr (GFile) file = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (TressDocument) doc = NULL;
  TressCurveDocument *cdoc;
  g_autoptr (TressCurve) x = NULL, y = NULL;
  TressHistory *history;
  guint ix = G_MAXUINT, iy = G_MAXUINT, nx;

  g_assert_cmpint (tress_test_run_cli (argv, NULL, NULL), ==, 0);
  file = g_file_new_for_path (path);
  doc = tress_document_load (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (tress_document_get_format (doc) == niff);
  cdoc = TRESS_CURVE_DOCUMENT (doc);
  history = tress_document_get_history (doc);
  for (guint i = 0; i < tress_curve_document_get_n_curves (cdoc); i++)
    {
      const char *p = tress_curve_document_get_curve (cdoc, i)->path;
      if (g_strcmp0 (p, "Spin.anim/Translation/X") == 0)
        ix = i;
      else if (g_strcmp0 (p, "Spin.anim/Translation/Y") == 0)
        iy = i;
    }
  g_assert_cmpuint (ix, !=, G_MAXUINT);
  g_assert_cmpuint (iy, !=, G_MAXUINT);

  x = tress_curve_copy (tress_curve_document_get_curve (cdoc, ix));
  nx = tress_curve_get_n_keys (x);
  g_assert_cmpint (tress_curve_insert_on_curve (x, 7, &error), >=, 0);
  g_assert_true (tress_curve_document_set_curve (cdoc, ix, x, "Insert key", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tress_curve_get_n_keys (tress_curve_document_get_curve (cdoc, iy)), ==, nx + 1);

  /* Edit Y from what the document shows: X keeps its new key. */
  y = tress_curve_copy (tress_curve_document_get_curve (cdoc, iy));
  tress_curve_get_key (y, 0)->value += 1;
  g_assert_true (tress_curve_document_set_curve (cdoc, iy, y, "Move key", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tress_curve_get_n_keys (tress_curve_document_get_curve (cdoc, ix)), ==, nx + 1);

  /* Undoing both gives every component its old keys back. */
  g_assert_true (tress_history_undo (history));
  g_assert_true (tress_history_undo (history));
  g_assert_cmpuint (tress_curve_get_n_keys (tress_curve_document_get_curve (cdoc, ix)), ==, nx);
  g_assert_cmpuint (tress_curve_get_n_keys (tress_curve_document_get_curve (cdoc, iy)), ==, nx);
}

/* Walks @list: every leaf's groups are its kind (unless the path starts with
 * it) and its path's parts, the first one named with its owner; every row's
 * key count is its curves' (decoded) count. Returns the keys below @list. */
static guint
check_tree_level (TressCurveDocument *doc, GListModel *list, GPtrArray *names, guint *seen)
{
  guint total = 0;

  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr (TressCurveNode) node = g_list_model_get_item (list, i);
      int index = tress_curve_node_get_curve_index (node);
      g_autofree char *keys = tress_curve_node_dup_column (node, "keys");
      guint n;

      if (index >= 0)
        {
          const TressCurve *c = tress_curve_document_get_curve (doc, (guint)index);
          g_auto (GStrv) parts = g_strsplit (c->path, "/", -1);
          guint np = g_strv_length (parts), level = 0;

          g_assert_cmpuint (seen[index]++, ==, 0);
          if (c->kind != NULL && c->kind[0] != '\0' && g_strcmp0 (parts[0], c->kind) != 0)
            g_assert_cmpstr (names->pdata[level++], ==, c->kind);
          g_assert_cmpuint (names->len, ==, level + np - 1);
          for (guint p = 0; p + 1 < np; p++, level++)
            {
              g_autofree char *label = p == 0 && c->owner != NULL && c->owner[0] != '\0'
                                           ? g_strdup_printf ("%s (%s)", parts[p], c->owner)
                                           : g_strdup (parts[p]);
              g_assert_cmpstr (names->pdata[level], ==, label);
            }
          g_assert_cmpstr (tress_curve_node_get_name (node), ==, parts[np - 1]);
          n = tress_curve_get_n_keys (c);
        }
      else
        {
          g_ptr_array_add (names, (gpointer)tress_curve_node_get_name (node));
          n = check_tree_level (doc, tress_curve_node_get_children (node), names, seen);
          g_ptr_array_remove_index (names, names->len - 1);
        }
      g_assert_cmpuint (g_ascii_strtoull (keys, NULL, 10), ==, n);
      total += n;
    }
  return total;
}

/* The tree of a BFRES file (built from the format's peek, before any curve is
 * decoded) is the one the decoded curves' paths give, with their key counts;
 * every curve is in it once. */
static void
test_tree_as_decoded (void)
{
  const char *samples[]
      = { "bfres/Animal_Dog_Animation.bfres", "bfres/Animal_Bass_Animation.bfres", NULL };

  for (guint s = 0; s < G_N_ELEMENTS (samples); s++)
    {
      g_autoptr (GBytes) bytes = NULL;
      g_autoptr (GError) error = NULL;
      g_autoptr (TressDocument) doc = NULL;
      g_autoptr (GPtrArray) names = g_ptr_array_new ();
      g_autofree guint *seen = NULL;
      TressCurveDocument *cdoc;
      guint n;

      bytes = samples[s] != NULL ? tress_test_load_sample (samples[s])
                                 : tress_bfres_build_test_file (6, 0, 4, 8, &error);
      g_assert_no_error (error);
      if (bytes == NULL)
        continue;
      doc = tress_document_new_from_bytes (bytes, "tree.bfres", &error);
      g_assert_no_error (error);
      cdoc = TRESS_CURVE_DOCUMENT (doc);
      n = tress_curve_document_get_n_curves (cdoc);
      g_assert_cmpuint (n, >, 0);
      seen = g_new0 (guint, n);
      check_tree_level (cdoc, tress_curve_document_get_roots (cdoc), names, seen);
      for (guint i = 0; i < n; i++)
        g_assert_cmpuint (seen[i], ==, 1);
    }
}

/* The tree as text: each row's name, curve index and key count, groups
 * with their rows in brackets. */
static void
tree_dump (GListModel *list, GString *out)
{
  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr (TressCurveNode) node = g_list_model_get_item (list, i);
      g_autofree char *keys = tress_curve_node_dup_column (node, "keys");

      g_string_append_printf (out, "%s#%d:%s", tress_curve_node_get_name (node),
                              tress_curve_node_get_curve_index (node), keys);
      if (tress_curve_node_get_children (node) != NULL)
        {
          g_string_append_c (out, '(');
          tree_dump (tress_curve_node_get_children (node), out);
          g_string_append_c (out, ')');
        }
      g_string_append_c (out, ' ');
    }
}

/* A skeleton of @doc's bones (the second level of each path) in a chain, each
 * bone the child of the one named before it, so the tree nests deeply. */
static TressCurveSkeleton *
chain_skeleton (TressCurveDocument *doc)
{
  guint n = tress_curve_document_get_n_curves (doc);
  g_autoptr (GHashTable) index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) parents = g_array_new (FALSE, FALSE, sizeof (int));
  g_autofree int *curve_node = g_new (int, n);

  for (guint i = 0; i < n; i++)
    {
      const TressCurve *c = tress_curve_document_get_curve (doc, i);
      g_auto (GStrv) parts = g_strsplit (c->path, "/", -1);
      gpointer found;

      curve_node[i] = -1;
      if (g_strv_length (parts) < 3)
        continue;
      if (!g_hash_table_lookup_extended (index, parts[1], NULL, &found))
        {
          int parent = (int)names->len - 1;

          found = GUINT_TO_POINTER (names->len);
          g_hash_table_insert (index, g_strdup (parts[1]), found);
          g_ptr_array_add (names, g_strdup (parts[1]));
          g_array_append_val (parents, parent);
        }
      curve_node[i] = (int)GPOINTER_TO_UINT (found);
    }
  return tress_curve_skeleton_new (names->len, (const char *const *)names->pdata,
                                   (const int *)parents->data, n, curve_node);
}

/* With a skeleton the nested tree built from the format's peek (no curve
 * decoded) is the one built from the decoded curves, key counts included. */
static void
test_nested_as_decoded (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("bfres/Animal_Dog_Animation.bfres");
  g_autoptr (GError) error = NULL;
  g_autoptr (TressDocument) peeked = NULL, decoded = NULL;
  g_autoptr (GString) a = g_string_new (NULL), b = g_string_new (NULL);
  TressCurveDocument *pdoc, *ddoc;
  int depth = 0, deepest = 0;

  if (bytes == NULL)
    return;
  peeked = tress_document_new_from_bytes (bytes, "peeked.bfres", &error);
  g_assert_no_error (error);
  decoded = tress_document_new_from_bytes (bytes, "decoded.bfres", &error);
  g_assert_no_error (error);
  pdoc = TRESS_CURVE_DOCUMENT (peeked);
  ddoc = TRESS_CURVE_DOCUMENT (decoded);
  /* chain_skeleton decodes every curve of ddoc before it nests. */
  g_assert_true (tress_curve_document_set_skeleton (ddoc, chain_skeleton (ddoc)));
  g_assert_true (tress_curve_document_set_skeleton (pdoc, chain_skeleton (ddoc)));
  tree_dump (tress_curve_document_get_roots (pdoc), a);
  tree_dump (tress_curve_document_get_roots (ddoc), b);
  g_assert_cmpstr (a->str, ==, b->str);
  /* Nested: the chain of bones goes deeper than kind / animation / bone. */
  for (const char *p = a->str; *p != '\0'; p++)
    {
      depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
      deepest = MAX (deepest, depth);
    }
  g_assert_cmpint (deepest, >, 10);
}

/* ---- siblings an edit reaches, in a batch ---- */

typedef struct
{
  guint watched, told;
} Told;

static void
on_curve_told (TressCurveDocument *doc, guint index, Told *t)
{
  if (index == t->watched)
    t->told++;
}

static gboolean
raise_length (gpointer model, guint index, gpointer data, double *max_error, GError **error)
{
  return tress_format_lookup ("bfres")->curves->set_frame_count (model, index,
                                                                 *(const double *)data, error);
}

/* Lengthening a BFRES animation through one of its curves changes every
 * curve of it. Inside a group the siblings are read once the group ends,
 * yet a sibling asked for before that is already up to date; undo brings
 * them back, and each sibling is announced once per step, not per edit. */
static void
test_siblings_in_batch (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("bfres/Animal_Dog_Animation.bfres");
  g_autoptr (GError) error = NULL;
  g_autoptr (TressDocument) d = NULL;
  TressCurveDocument *doc;
  TressHistory *history;
  Told t = { 0 };
  guint a = 0, b = 0, c = 0, n;
  double before, longer;

  if (bytes == NULL)
    return;
  d = tress_document_new_from_bytes (bytes, "Animal_Dog_Animation.bfres", &error);
  g_assert_no_error (error);
  doc = TRESS_CURVE_DOCUMENT (d);
  history = tress_document_get_history (d);
  n = tress_curve_document_get_n_curves (doc);
  /* Three curves of the first animation: two edited, one watched. */
  {
    GArray *linked = g_array_new (FALSE, FALSE, sizeof (guint));

    tress_format_lookup ("bfres")->curves->linked_curves (tress_document_get_model (d), 0, linked);
    g_assert_cmpuint (linked->len, >=, 3);
    a = 0;
    b = g_array_index (linked, guint, 0);
    c = g_array_index (linked, guint, linked->len - 1);
    g_array_unref (linked);
  }
  g_assert_cmpuint (c, <, n);
  before = tress_curve_document_get_curve (doc, c)->frame_count;
  g_assert_cmpfloat (before, >, 0);
  t.watched = c;
  g_signal_connect (doc, "curve-changed", G_CALLBACK (on_curve_told), &t);

  /* Two edits in one group: the watched sibling is told once, at the end. */
  longer = before + 4;
  tress_curve_document_begin_edit (doc, "Lengthen");
  g_assert_true (
      tress_curve_document_apply_model_edit (doc, a, "Lengthen", raise_length, &longer, &error));
  longer = before + 6;
  g_assert_true (
      tress_curve_document_apply_model_edit (doc, b, "Lengthen", raise_length, &longer, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (t.told, ==, 0);
  tress_curve_document_end_edit (doc);
  g_assert_cmpuint (t.told, ==, 1);
  g_assert_cmpfloat (tress_curve_document_get_curve (doc, c)->frame_count, ==, before + 6);
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 1);

  /* Undo: the sibling is as it was, told once. */
  g_assert_true (tress_history_undo (history));
  g_assert_cmpuint (t.told, ==, 2);
  g_assert_cmpfloat (tress_curve_document_get_curve (doc, c)->frame_count, ==, before);

  /* Asked for inside the group, a sibling is read then, not left stale. */
  longer = before + 2;
  tress_curve_document_begin_edit (doc, "Lengthen");
  g_assert_true (
      tress_curve_document_apply_model_edit (doc, a, "Lengthen", raise_length, &longer, &error));
  g_assert_cmpfloat (tress_curve_document_get_curve (doc, c)->frame_count, ==, before + 2);
  tress_curve_document_end_edit (doc);
  g_assert_cmpuint (t.told, ==, 3);
  g_assert_cmpfloat (tress_curve_document_get_curve (doc, c)->frame_count, ==, before + 2);
}

/* A group's curve rows are made when its children are first asked for: a
 * curve edited before then bumps the groups above it, and the rows made
 * afterwards carry the same names, indices and key counts as the tree of a
 * document whose rows were all made at once. */
static void
test_rows_made_late (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = tress_bfres_build_many_curves_file (600, 2, 6, &error);
  g_autoptr (TressDocument) late = NULL, early = NULL;
  g_autoptr (GString) a = g_string_new (NULL), b = g_string_new (NULL);
  g_autoptr (GArray) indices = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (TressCurve) c = NULL;
  TressCurveDocument *ldoc, *edoc;
  TressCurveNode *anim, *bone;
  guint revision_before, revision_after, index, n;

  g_assert_no_error (error);
  late = tress_document_new_from_bytes (bytes, "late.bfres", &error);
  g_assert_no_error (error);
  early = tress_document_new_from_bytes (bytes, "early.bfres", &error);
  g_assert_no_error (error);
  ldoc = TRESS_CURVE_DOCUMENT (late);
  edoc = TRESS_CURVE_DOCUMENT (early);
  g_assert_cmpuint (tress_curve_document_get_n_curves (ldoc), ==, 600);
  /* Every row of the early document made before any edit. */
  tree_dump (tress_curve_document_get_roots (edoc), b);
  g_string_truncate (b, 0);
  /* Skeletal → the first animation → its second bone, whose rows are not made. */
  anim
      = child (tress_curve_node_get_children (child (tress_curve_document_get_roots (ldoc), 0)), 0);
  bone = child (tress_curve_node_get_children (anim), 1);
  tress_curve_node_collect_curves (bone, indices);
  g_assert_cmpuint (indices->len, >, 0);
  index = g_array_index (indices, guint, 0);
  g_object_get (bone, "revision", &revision_before, NULL);
  c = tress_curve_copy (tress_curve_document_get_curve (ldoc, index));
  n = tress_curve_get_n_keys (c);
  tress_curve_get_key (c, n - 1)->value += 0.25;
  g_assert_true (tress_curve_document_set_curve (ldoc, index, c, "Move 1 key", &error));
  g_assert_no_error (error);
  g_object_get (bone, "revision", &revision_after, NULL);
  g_assert_cmpuint (revision_after, >, revision_before);
  g_assert_true (tress_curve_document_set_curve (edoc, index, c, "Move 1 key", &error));
  g_assert_no_error (error);
  /* tree_dump asks for every group's children: the late document's rows are
   * made now, after the edit; the early one's were made before it. */
  tree_dump (tress_curve_document_get_roots (edoc), b);
  tree_dump (tress_curve_document_get_roots (ldoc), a);
  g_assert_cmpstr (a->str, ==, b->str);
  {
    g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (guint));
    g_autofree guint *seen = g_new0 (guint, 600);
    GListModel *rows = tress_curve_node_get_children (bone);

    tress_curve_node_collect_curves (child (tress_curve_document_get_roots (ldoc), 0), all);
    g_assert_cmpuint (all->len, ==, 600);
    for (guint i = 0; i < all->len; i++)
      g_assert_cmpuint (seen[g_array_index (all, guint, i)]++, ==, 0);
    g_assert_cmpint (tress_curve_node_get_curve_index (child (rows, 0)), ==, (int)index);
    g_assert_cmpstr (tress_curve_node_get_name (child (rows, 0)), ==,
                     strrchr (tress_curve_document_get_curve (ldoc, index)->path, '/') + 1);
  }
}

/* The tree split a level at a time when first asked for (no skeleton) is
 * the one built whole (a skeleton that nests nothing): names, indices, key
 * counts, order. */
static void
test_lazy_as_whole (void)
{
  const char *samples[] = { "bfres/Animal_Dog_Animation.bfres", "bfres/Animal_Bass_Animation.bfres",
                            "niff/dragon.nif", NULL };

  for (guint s = 0; s < G_N_ELEMENTS (samples); s++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GBytes) bytes = samples[s] != NULL
                                     ? tress_test_load_sample (samples[s])
                                     : tress_bfres_build_many_curves_file (900, 2, 6, &error);
      g_autoptr (TressDocument) lazy = NULL, whole = NULL;
      g_autoptr (GString) a = g_string_new (NULL), b = g_string_new (NULL);
      g_autofree int *none = NULL;
      const char *name = samples[s] != NULL ? samples[s] : "many.bfres";
      guint n;

      g_assert_no_error (error);
      if (bytes == NULL)
        continue;
      lazy = tress_document_new_from_bytes (bytes, name, &error);
      g_assert_no_error (error);
      whole = tress_document_new_from_bytes (bytes, name, &error);
      g_assert_no_error (error);
      n = tress_curve_document_get_n_curves (TRESS_CURVE_DOCUMENT (whole));
      g_assert_cmpuint (n, >, 0);
      none = g_new (int, n);
      for (guint i = 0; i < n; i++)
        none[i] = -1;
      g_assert_true (tress_curve_document_set_skeleton (
          TRESS_CURVE_DOCUMENT (whole), tress_curve_skeleton_new (0, NULL, NULL, n, none)));
      tree_dump (tress_curve_document_get_roots (TRESS_CURVE_DOCUMENT (lazy)), a);
      tree_dump (tress_curve_document_get_roots (TRESS_CURVE_DOCUMENT (whole)), b);
      g_assert_cmpstr (a->str, ==, b->str);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  tress_fake_curves_register ();
  tress_curve_document_register_types ();
  g_test_add_func ("/curves/document/tree", test_tree);
  g_test_add_func ("/curves/document/set-undo-exact", test_set_undo_exact);
  g_test_add_func ("/curves/document/refusal", test_refusal);
  g_test_add_func ("/curves/document/preview-past-last", test_preview_past_last);
  g_test_add_func ("/curves/document/group-and-merge", test_group_and_merge);
  g_test_add_func ("/curves/document/save-reopen", test_save_reopen);
  g_test_add_func ("/curves/document/samples", test_samples);
  g_test_add_func ("/curves/document/unedited-exact", test_unedited_exact);
  g_test_add_func ("/curves/document/ops-bfres", test_ops_bfres);
  g_test_add_func ("/curves/document/ops-niff", test_ops_niff);
  g_test_add_func ("/curves/document/shared-records", test_shared_records);
  g_test_add_func ("/curves/document/tree-as-decoded", test_tree_as_decoded);
  g_test_add_func ("/curves/document/nested-as-decoded", test_nested_as_decoded);
  g_test_add_func ("/curves/document/siblings-in-batch", test_siblings_in_batch);
  g_test_add_func ("/curves/document/rows-made-late", test_rows_made_late);
  g_test_add_func ("/curves/document/lazy-as-whole", test_lazy_as_whole);
  return g_test_run ();
}
