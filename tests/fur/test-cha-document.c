/* test-cha-document.c: the cha document's lazy tree, change signals, selection
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "document/tress-cha-document.h"
#include "formats/cha/tress-cha-demo.h"

static TressChaDocument *
open_demo (void)
{
  TressChaDemoOptions options;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  TressDocument *doc;

  tress_cha_demo_options_init (&options);
  bytes = tress_cha_demo_generate_bytes (&options);
  doc = tress_document_new_from_bytes (bytes, "demo.cha", &error);
  g_assert_no_error (error);
  g_assert_true (TRESS_IS_CHA_DOCUMENT (doc));
  return TRESS_CHA_DOCUMENT (doc);
}

static TressChaNode *
child (TressChaDocument *doc, GListModel *list, guint i, GListModel **children)
{
  TressChaNode *node = g_list_model_get_item (list, i);

  g_assert_nonnull (node);
  if (children != NULL)
    *children = tress_cha_document_create_children (doc, node);
  return node;
}

static void
test_tree (void)
{
  g_autoptr (TressChaDocument) doc = open_demo ();
  TressChaFile *file = tress_cha_document_get_cha (doc);
  GListModel *root = tress_cha_document_get_root (doc);
  g_autoptr (GListModel) materials = NULL;
  g_autoptr (GListModel) ribbons = NULL;
  g_autoptr (GListModel) sections = NULL;
  g_autoptr (GListModel) lines = NULL;
  g_autoptr (GListModel) none = NULL;
  g_autoptr (TressChaNode) radeon = NULL;
  g_autoptr (TressChaNode) hybrid = NULL;
  g_autoptr (TressChaNode) mat = NULL;
  g_autoptr (TressChaNode) rib = NULL;
  g_autoptr (TressChaNode) sec = NULL;
  g_autoptr (TressChaNode) line = NULL;
  g_autofree char *text = NULL;
  g_autofree char *refs = NULL;
  guint first, n;

  g_assert_cmpuint (g_list_model_get_n_items (root), ==, file->n_sections);
  radeon = child (doc, root, 0, &materials);
  text = tress_cha_node_get_text (radeon, TRESS_CHA_COLUMN_NAME);
  g_assert_true (g_str_has_prefix (text, "radeon"));
  g_clear_pointer (&text, g_free);
  hybrid = child (doc, root, 1, &none);
  g_assert_null (none);
  text = tress_cha_node_get_text (hybrid, TRESS_CHA_COLUMN_NAME);
  g_assert_nonnull (strstr (text, "kept as is"));
  g_clear_pointer (&text, g_free);

  g_assert_cmpuint (g_list_model_get_n_items (materials), ==, file->radeon->n_materials);
  mat = child (doc, materials, 0, &ribbons);
  g_assert_cmpuint (g_list_model_get_n_items (ribbons), ==, file->radeon->materials[0].n_ribbons);
  g_assert_null (g_list_model_get_item (ribbons, file->radeon->materials[0].n_ribbons));
  rib = child (doc, ribbons, 12, &sections);
  g_assert_cmpint (tress_cha_node_get_kind (rib), ==, TRESS_CHA_NODE_RIBBON);
  g_assert_cmpint (tress_cha_node_get_ribbon (rib), ==, 12);
  text = tress_cha_node_get_text (rib, TRESS_CHA_COLUMN_NAME);
  g_assert_cmpstr (text, ==, "ribbon 12");
  g_clear_pointer (&text, g_free);
  text = tress_cha_node_get_text (rib, TRESS_CHA_COLUMN_SECTIONS);
  g_assert_cmpuint (g_ascii_strtoull (text, NULL, 10), ==,
                    file->radeon->materials[0].n_sections[12]);
  g_assert_cmpfloat (tress_cha_node_get_sort_key (rib, TRESS_CHA_COLUMN_ATTACH), ==,
                     file->radeon->materials[0].attach[12]);
  /* The same node object comes back for the same row. */
  {
    g_autoptr (TressChaNode) again = g_list_model_get_item (ribbons, 12);

    g_assert_true (again == rib);
  }

  g_assert_true (tress_cha_material_ribbon_lines (&file->radeon->materials[0], 12, &first, &n));
  /* The ribbon's row names the body parts of its first line, as the line's row does. */
  {
    g_autofree char *rib_refs = tress_cha_node_get_text (rib, TRESS_CHA_COLUMN_REFS);

    g_assert_nonnull (strchr (rib_refs, ':'));
  }
  g_assert_cmpuint (g_list_model_get_n_items (sections), ==, n / 2);
  sec = child (doc, sections, 1, &lines);
  g_assert_cmpuint (g_list_model_get_n_items (lines), ==, 2);
  line = child (doc, lines, 1, &none);
  g_assert_null (none);
  g_assert_cmpint (tress_cha_node_get_line (line), ==, (int)(first + 3));
  refs = tress_cha_node_get_text (line, TRESS_CHA_COLUMN_REFS);
  g_assert_nonnull (strchr (refs, ':'));
}

static void
count_cb (gpointer obj, gpointer pspec_or_change, guint *count)
{
  (*count)++;
}

static void
fur_changed_cb (TressChaDocument *doc, const TressChaChange *change, gboolean undo, guint *count)
{
  (*count)++;
}

static void
items_changed_cb (GListModel *list, guint pos, guint removed, guint added, guint *last_added)
{
  *last_added = added;
}

static void
test_changes (void)
{
  g_autoptr (TressChaDocument) doc = open_demo ();
  TressChaFile *file = tress_cha_document_get_cha (doc);
  TressHistory *history = tress_document_get_history (TRESS_DOCUMENT (doc));
  GListModel *root = tress_cha_document_get_root (doc);
  g_autoptr (GListModel) materials = NULL;
  g_autoptr (GListModel) ribbons = NULL;
  g_autoptr (TressChaNode) radeon = child (doc, root, 0, &materials);
  g_autoptr (TressChaNode) mat = child (doc, materials, 0, &ribbons);
  g_autoptr (TressChaNode) r3 = g_list_model_get_item (ribbons, 3);
  g_autoptr (TressChaNode) r4 = g_list_model_get_item (ribbons, 4);
  guint n3 = 0, n4 = 0, n_fur = 0, added = G_MAXUINT, first, n, n_ribbons;
  static const guint8 w[3] = { 1, 2, 252 };
  g_autofree TressChaLineId *ids = NULL;
  g_autoptr (GError) error = NULL;

  /* The section and material rows are held for the test's length. */
  g_assert_cmpint (tress_cha_node_get_kind (radeon), ==, TRESS_CHA_NODE_SECTION);
  g_assert_cmpint (tress_cha_node_get_kind (mat), ==, TRESS_CHA_NODE_MATERIAL);
  g_signal_connect (r3, "notify::revision", G_CALLBACK (count_cb), &n3);
  g_signal_connect (r4, "notify::revision", G_CALLBACK (count_cb), &n4);
  g_signal_connect (doc, "fur-changed", G_CALLBACK (fur_changed_cb), &n_fur);
  g_assert_true (tress_cha_material_ribbon_lines (&file->radeon->materials[0], 3, &first, &n));
  ids = g_new (TressChaLineId, n);
  for (guint i = 0; i < n; i++)
    ids[i] = (TressChaLineId){ 0, first + i };
  g_assert_true (tress_cha_set_weights (file, history, ids, n, w, &error));
  g_assert_cmpuint (n_fur, ==, 1);
  g_assert_cmpuint (n3, ==, 1);
  g_assert_cmpuint (n4, ==, 0);
  g_assert_true (tress_history_undo (history));
  g_assert_cmpuint (n3, ==, 2);
  g_assert_cmpuint (n4, ==, 0);

  /* A structural edit resets the ribbon list with the new count. */
  n_ribbons = g_list_model_get_n_items (ribbons);
  g_signal_connect (ribbons, "items-changed", G_CALLBACK (items_changed_cb), &added);
  g_assert_true (tress_cha_duplicate_ribbon (file, history, (TressChaRibbonId){ 0, 3 }, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (added, ==, n_ribbons + 1);
  g_assert_cmpuint (g_list_model_get_n_items (ribbons), ==, n_ribbons + 1);
  g_assert_true (tress_history_undo (history));
  g_assert_cmpuint (g_list_model_get_n_items (ribbons), ==, n_ribbons);
}

static void
test_selection (void)
{
  g_autoptr (TressChaDocument) doc = open_demo ();
  TressChaFile *file = tress_cha_document_get_cha (doc);
  const TressChaRibbonId in[] = { { 1, 2 }, { 0, 9 }, { 1, 2 }, { 0, 1 }, { 7, 0 }, { 0, 999999 } };
  const TressChaRibbonId *sel;
  guint n, n_changed = 0, n_lines, expected = 0, first, count;
  g_autofree TressChaLineId *lines = NULL;

  g_signal_connect (doc, "selection-changed", G_CALLBACK (count_cb), &n_changed);
  tress_cha_document_set_selection (doc, in, G_N_ELEMENTS (in), NULL);
  sel = tress_cha_document_get_selection (doc, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (sel[0].ribbon, ==, 1);
  g_assert_cmpuint (sel[1].ribbon, ==, 9);
  g_assert_cmpuint (sel[2].material, ==, 1);
  g_assert_cmpuint (n_changed, ==, 1);
  tress_cha_document_set_selection (doc, in, 4, NULL);
  g_assert_cmpuint (n_changed, ==, 1);
  g_assert_true (tress_cha_document_is_selected (doc, 0, 9));
  g_assert_false (tress_cha_document_is_selected (doc, 0, 2));

  lines = tress_cha_document_get_selected_lines (doc, &n_lines);
  for (guint i = 0; i < n; i++)
    {
      g_assert_true (tress_cha_material_ribbon_lines (&file->radeon->materials[sel[i].material],
                                                      sel[i].ribbon, &first, &count));
      expected += count;
    }
  g_assert_cmpuint (n_lines, ==, expected);
  g_assert_cmpuint (lines[0].material, ==, 0);
  tress_cha_document_set_selection (doc, NULL, 0, NULL);
  g_assert_cmpuint (n_changed, ==, 2);

  /* A ribbon of the material one past the last is dropped. The model is told
   * it has one material fewer than its array holds, so that the slot past the
   * last is a real material with ribbons (a check letting the id in would
   * find them there, not read past the array). */
  g_assert_cmpuint (file->radeon->n_materials, ==, 2);
  file->radeon->n_materials = 1;
  tress_cha_document_set_selection (doc, &(TressChaRibbonId){ 1, 0 }, 1, NULL);
  file->radeon->n_materials = 2;
  sel = tress_cha_document_get_selection (doc, &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpuint (n_changed, ==, 2);
}

/* A section's line list recounts when sections are removed under it: once
 * its section is past the ribbon's new tip (two sections gone) it holds no
 * line, rather than two beyond the ribbon's; undo brings its lines back. */
static void
test_lines_past_the_tip (void)
{
  g_autoptr (TressChaDocument) doc = open_demo ();
  TressChaFile *file = tress_cha_document_get_cha (doc);
  TressHistory *history = tress_document_get_history (TRESS_DOCUMENT (doc));
  const TressChaMaterial *m = &file->radeon->materials[0];
  GListModel *root = tress_cha_document_get_root (doc);
  g_autoptr (GListModel) materials = NULL;
  g_autoptr (GListModel) ribbons = NULL;
  g_autoptr (GListModel) sections = NULL;
  g_autoptr (GListModel) lines = NULL;
  g_autoptr (TressChaNode) radeon = child (doc, root, 0, &materials);
  g_autoptr (TressChaNode) mat = child (doc, materials, 0, &ribbons);
  g_autoptr (TressChaNode) rib = NULL;
  g_autoptr (TressChaNode) tip = NULL;
  g_autoptr (GError) error = NULL;
  guint r = 0, s;

  while (r < m->n_ribbons && (m->n_sections[r] < 3 || m->n_ribbon_lines[r] != 2 * m->n_sections[r]))
    r++;
  g_assert_cmpuint (r, <, m->n_ribbons);
  s = m->n_sections[r];
  rib = child (doc, ribbons, r, &sections);
  g_assert_cmpuint (g_list_model_get_n_items (sections), ==, s);
  tip = child (doc, sections, s - 1, &lines);
  g_assert_cmpuint (g_list_model_get_n_items (lines), ==, 2);

  g_assert_true (tress_cha_remove_section (file, history, (TressChaRibbonId){ 0, r }, &error));
  g_assert_true (tress_cha_remove_section (file, history, (TressChaRibbonId){ 0, r }, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (sections), ==, s - 2);
  g_assert_cmpuint (g_list_model_get_n_items (lines), ==, 0);
  g_assert_null (g_list_model_get_item (lines, 0));

  g_assert_true (tress_history_undo (history));
  g_assert_true (tress_history_undo (history));
  g_assert_cmpuint (g_list_model_get_n_items (lines), ==, 2);
  g_assert_cmpint (tress_cha_node_get_kind (tip), ==, TRESS_CHA_NODE_RIBBON_SECTION);
}

/* Sorting ribbons by their references: the body part and weight of the
 * ribbon's first line; a ribbon without lines (a damaged file: its line
 * count 0) sorts last, its first line being another ribbon's. */
static void
test_sort_by_refs (void)
{
  TressChaDemoOptions options;
  g_autoptr (TressChaFile) made = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (TressChaDocument) doc = NULL;
  g_autoptr (GListModel) materials = NULL;
  g_autoptr (GListModel) ribbons = NULL;
  g_autoptr (TressChaNode) radeon = NULL;
  g_autoptr (TressChaNode) mat = NULL;
  g_autoptr (TressChaNode) empty = NULL;
  g_autoptr (TressChaNode) full = NULL;
  const TressChaMaterial *m;
  guint first, n;

  tress_cha_demo_options_init (&options);
  options.n_ribbons = 60;
  made = tress_cha_demo_generate (&options);
  made->radeon->materials[0].n_ribbon_lines[5] = 0;
  bytes = tress_cha_file_serialize (made);
  doc = TRESS_CHA_DOCUMENT (tress_document_new_from_bytes (bytes, "no-lines.cha", &error));
  g_assert_no_error (error);
  m = &tress_cha_document_get_cha (doc)->radeon->materials[0];
  g_assert_true (tress_cha_material_ribbon_lines (m, 5, &first, &n));
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpuint (first, <, m->n_lines); /* the next ribbon's first line */

  radeon = child (doc, tress_cha_document_get_root (doc), 0, &materials);
  mat = child (doc, materials, 0, &ribbons);
  empty = child (doc, ribbons, 5, NULL);
  full = child (doc, ribbons, 4, NULL);
  g_assert_cmpfloat (tress_cha_node_get_sort_key (empty, TRESS_CHA_COLUMN_REFS), ==, G_MAXDOUBLE);
  g_assert_true (tress_cha_material_ribbon_lines (m, 4, &first, &n));
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpfloat (tress_cha_node_get_sort_key (full, TRESS_CHA_COLUMN_REFS), ==,
                     (double)tress_cha_material_ref_body_part (m, &m->lines[first], 0) * 256
                         + tress_cha_line_get_weight (&m->lines[first], 0));
}

static void
test_lists_outlive_document (void)
{
  TressChaDocument *doc = open_demo ();
  GListModel *root = tress_cha_document_get_root (doc);
  g_autoptr (GListModel) materials = NULL;
  g_autoptr (TressChaNode) radeon = child (doc, root, 0, &materials);
  g_autoptr (TressChaNode) mat = g_list_model_get_item (materials, 0);
  g_autofree char *text = NULL;

  g_assert_cmpint (tress_cha_node_get_kind (radeon), ==, TRESS_CHA_NODE_SECTION);
  g_object_unref (doc);
  text = tress_cha_node_get_text (mat, TRESS_CHA_COLUMN_NAME);
  g_assert_cmpstr (text, ==, "");
  g_assert_cmpuint (g_list_model_get_n_items (materials), >, 0); /* as last known */
}

typedef struct
{
  guint calls;
  guint ribbon_problems;
  guint all;
} ProblemsSeen;

static void
problems_seen_cb (TressChaDocument *doc, const TressChaChange *change, gboolean undo,
                  ProblemsSeen *seen)
{
  seen->calls++;
  seen->ribbon_problems = tress_cha_document_ribbon_problems (doc, 0, 5);
  seen->all = tress_document_get_problems (TRESS_DOCUMENT (doc))->len;
}

/* A view refreshing from "fur-changed" (while the command is being applied,
 * before the history's "changed") sees the problems of the changed model. */
static void
test_problems_before_views (void)
{
  g_autoptr (TressChaDocument) doc = open_demo ();
  TressChaFile *file = tress_cha_document_get_cha (doc);
  TressHistory *history = tress_document_get_history (TRESS_DOCUMENT (doc));
  const float *base = &file->radeon->materials[0].base_points[6 * 5];
  float zsort[3] = { base[0] + 1.0f, base[1], base[2] };
  TressChaRibbonId id = { 0, 5 };
  g_autoptr (GError) error = NULL;
  ProblemsSeen seen = { 0 };
  guint before;

  before = tress_document_get_problems (TRESS_DOCUMENT (doc))->len;
  g_assert_cmpuint (tress_cha_document_ribbon_problems (doc, 0, 5), ==, 0);
  g_signal_connect (doc, "fur-changed", G_CALLBACK (problems_seen_cb), &seen);

  /* A z-sort point away from the first base point: one problem more. */
  g_assert_true (tress_cha_set_zsort (file, history, id, zsort, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (seen.calls, ==, 1);
  g_assert_cmpuint (seen.ribbon_problems, ==, 1);
  g_assert_cmpuint (seen.all, ==, before + 1);

  g_assert_true (tress_history_undo (history));
  g_assert_cmpuint (seen.calls, ==, 2);
  g_assert_cmpuint (seen.ribbon_problems, ==, 0);
  g_assert_cmpuint (seen.all, ==, before);

  g_assert_true (tress_history_redo (history));
  g_assert_cmpuint (seen.calls, ==, 3);
  g_assert_cmpuint (seen.ribbon_problems, ==, 1);
  g_assert_cmpuint (seen.all, ==, before + 1);
}

/* A badly broken file: its problem list sums each rule up after a hundred
 * places, but every broken ribbon still counts its problems, and an edit that
 * mends one ribbon (and its undo) shows at once. */
static void
test_problems_past_the_list (void)
{
  TressChaDemoOptions options;
  g_autoptr (TressChaFile) made = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (TressChaDocument) doc = NULL;
  TressChaFile *file;
  TressHistory *history;
  const TressChaMaterial *m;
  g_autofree TressChaLineId *lines = NULL;
  const guint8 w[3] = { 0, 0, 255 };
  guint last, first, n, listed = 0;
  GPtrArray *problems;

  tress_cha_demo_options_init (&options);
  options.n_ribbons = 400;
  made = tress_cha_demo_generate (&options);
  for (guint i = 0; i < made->radeon->materials[0].n_lines; i++)
    made->radeon->materials[0].lines[i].weights[0] ^= 1;
  bytes = tress_cha_file_serialize (made);
  doc = TRESS_CHA_DOCUMENT (tress_document_new_from_bytes (bytes, "broken.cha", &error));
  g_assert_no_error (error);
  file = tress_cha_document_get_cha (doc);
  history = tress_document_get_history (TRESS_DOCUMENT (doc));
  m = &file->radeon->materials[0];
  last = m->n_ribbons - 1;
  g_assert_true (tress_cha_material_ribbon_lines (m, last, &first, &n));

  problems = tress_document_get_problems (TRESS_DOCUMENT (doc));
  for (guint i = 0; i < problems->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (problems, i);
      listed += p->n_more == 0 && g_str_has_prefix (p->location, "radeon/material 0/ribbon ");
    }
  g_assert_cmpuint (listed, <, m->n_lines); /* the list stops listing… */
  g_assert_cmpuint (tress_cha_document_ribbon_problems (doc, 0, last), ==, n); /* …the count not */
  g_assert_cmpuint (tress_cha_document_ribbon_problems (doc, 0, 0), >, 0);

  lines = g_new (TressChaLineId, n);
  for (guint k = 0; k < n; k++)
    lines[k] = (TressChaLineId){ 0, first + k };
  g_assert_true (tress_cha_set_weights (file, history, lines, n, w, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tress_cha_document_ribbon_problems (doc, 0, last), ==, 0);
  g_assert_cmpuint (tress_cha_document_ribbon_problems (doc, 0, last - 1), >, 0);
  g_assert_true (tress_history_undo (history));
  g_assert_cmpuint (tress_cha_document_ribbon_problems (doc, 0, last), ==, n);
}

/* Undo labels say how many things an edit changed, in the singular for one. */
static void
test_undo_labels (void)
{
  g_autoptr (TressChaDocument) doc = open_demo ();
  TressChaFile *file = tress_cha_document_get_cha (doc);
  TressHistory *history = tress_document_get_history (TRESS_DOCUMENT (doc));
  TressChaLineId lines[2] = { { 0, 0 }, { 0, 1 } };
  TressChaRibbonId ribbons[2] = { { 0, 0 }, { 0, 1 } };
  const guint8 w[3] = { 100, 100, 55 };
  const guint8 w2[3] = { 55, 100, 100 };
  g_autoptr (GError) error = NULL;

  g_assert_true (tress_cha_set_weights (file, history, lines, 1, w, &error));
  g_assert_cmpstr (tress_history_get_undo_label (history), ==, "Set weights of 1 line");
  g_assert_true (tress_cha_set_weights (file, history, lines, 2, w2, &error));
  g_assert_cmpstr (tress_history_get_undo_label (history), ==, "Set weights of 2 lines");
  g_assert_true (
      tress_cha_set_line_byte (file, history, lines, 1, TRESS_CHA_BYTE_COLOUR_1, 7, &error));
  g_assert_cmpstr (tress_history_get_undo_label (history), ==, "Set colour byte 13 of 1 line");
  g_assert_true (tress_cha_set_quality (
      file, history, ribbons, 2, file->radeon->materials[0].quality[0] == 1 ? 2 : 1, &error));
  g_assert_cmpstr (tress_history_get_undo_label (history), ==, "Set quality of 2 ribbons");
  g_assert_no_error (error);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  tress_cha_document_register ();
  g_test_add_func ("/cha-document/tree", test_tree);
  g_test_add_func ("/cha-document/problems-before-views", test_problems_before_views);
  g_test_add_func ("/cha-document/problems-past-the-list", test_problems_past_the_list);
  g_test_add_func ("/cha-document/undo-labels", test_undo_labels);
  g_test_add_func ("/cha-document/changes", test_changes);
  g_test_add_func ("/cha-document/selection", test_selection);
  g_test_add_func ("/cha-document/lines-past-the-tip", test_lines_past_the_tip);
  g_test_add_func ("/cha-document/sort-by-refs", test_sort_by_refs);
  g_test_add_func ("/cha-document/lists-outlive-document", test_lists_outlive_document);
  return g_test_run ();
}
