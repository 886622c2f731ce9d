/* test-fur-window.c: the fur editor in the main window, driven through actions
 *
 * Runs under Xvfb (Mesa llvmpipe gives the preview a GL context). With
 * GDK_DEBUG=gl-disable (the "fur-window-nogl" test) the preview must say GL is
 * unavailable while every other part keeps working.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "fur/tress-fur-edits.h"
#include "fur/tress-fur-editor.h"
#include "fur/tress-fur-names.h"
#include "formats/cha/tress-cha-demo.h"
#include "tress-application.h"
#include "tress-document-page.h"
#include "tress-test-pointer.h"
#include "tress-test-utils.h"
#include "tress-test-window.h"
#include "tress-window.h"

static gboolean gl_disabled;

static void click (GtkWidget *widget, double x, double y);
static void click_middle (GtkWidget *widget);
static GtkWidget *find_by_tooltip (GtkWidget *root, GType type, const char *tip);
static void choose_entry (GtkWidget *dropdown, const char *text);
static void scroll_into_view (GtkWidget *field);
static void wait_placed (GtkWidget *widget);
static GtkWidget *find_shown_label (GtkWidget *root, const char *text);

/* What a window test opens: the demo creature, changed first by @damage
 * when it is given. */
typedef struct
{
  void (*damage) (TressChaFile *file);
} FurFile;

/* A window of the default size on the test's file (its name: the test's). */
typedef struct
{
  TressTestWindow tw;
  char *path;
  TressWindow *window;
  TressFurEditor *editor;
  TressChaDocument *doc;
} Fixture;

static GBytes *
demo_bytes (void)
{
  TressChaDemoOptions options;

  tress_cha_demo_options_init (&options);
  return tress_cha_demo_generate_bytes (&options);
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  const FurFile *file = data;
  g_autofree char *base = g_path_get_basename (g_test_get_path ());
  g_autofree char *name = g_strconcat (base, ".cha", NULL);
  g_autoptr (GBytes) bytes = demo_bytes ();
  g_autoptr (GError) error = NULL;

  if (file != NULL)
    {
      g_autoptr (TressChaFile) model = tress_cha_file_parse (bytes, &error);

      g_assert_no_error (error);
      file->damage (model);
      g_bytes_unref (bytes);
      bytes = tress_cha_file_serialize (model);
    }
  f->path = g_build_filename (tress_test_tmpdir (), name, NULL);
  g_file_set_contents (f->path, g_bytes_get_data (bytes, NULL), (gssize)g_bytes_get_size (bytes),
                       &error);
  g_assert_no_error (error);
  /* The size a new window opens at, as a user first sees the editor. */
  tress_test_window_open (&f->tw, f->path, TRESS_TYPE_FUR_EDITOR, TRESS_WINDOW_DEFAULT_WIDTH,
                          TRESS_WINDOW_DEFAULT_HEIGHT);
  f->window = f->tw.window;
  f->editor = TRESS_FUR_EDITOR (f->tw.editor);
  f->doc = tress_fur_editor_get_document (f->editor);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  tress_test_window_close (&f->tw);
  g_free (f->path);
}

static const TressChaLine *
line_of (TressChaFile *file, guint material, guint ribbon, guint k)
{
  guint first, n;

  g_assert_true (
      tress_cha_material_ribbon_lines (&file->radeon->materials[material], ribbon, &first, &n));
  g_assert_cmpuint (k, <, n);
  return &file->radeon->materials[material].lines[first + k];
}

static void
assert_ribbon_weights (TressChaFile *file, guint material, guint ribbon, const guint8 w[3])
{
  guint first, n, i;

  g_assert_true (
      tress_cha_material_ribbon_lines (&file->radeon->materials[material], ribbon, &first, &n));
  for (i = 0; i < n; i++)
    {
      const TressChaLine *line = &file->radeon->materials[material].lines[first + i];

      g_assert_cmpuint (tress_cha_line_get_weight (line, 0), ==, w[0]);
      g_assert_cmpuint (tress_cha_line_get_weight (line, 1), ==, w[1]);
      g_assert_cmpuint (tress_cha_line_get_weight (line, 2), ==, w[2]);
    }
}

static guint
n_selected_rows (TressFurEditor *editor)
{
  g_autoptr (GtkBitset) set
      = gtk_selection_model_get_selection (tress_fur_editor_get_tree_selection (editor));

  return (guint)gtk_bitset_get_size (set);
}

/* The body part of the first weighted reference of a ribbon's first line. */
static guint32
weighted_part (TressChaFile *file, guint material, guint ribbon)
{
  const TressChaLine *line = line_of (file, material, ribbon, 0);
  const TressChaMaterial *m = &file->radeon->materials[material];

  for (guint k = 0; k < 3; k++)
    if (tress_cha_line_get_weight (line, k) > 0)
      return (guint32)tress_cha_material_ref_body_part (m, line, k);
  return (guint32)tress_cha_material_ref_body_part (m, line, 0);
}

/* Select, set weights, retarget, undo and redo each, save, reopen, compare. */
static void
test_edit_cycle (Fixture *f, gconstpointer data)
{
  g_autoptr (GBytes) original = tress_test_read_file (f->path);
  TressDocument *base = TRESS_DOCUMENT (f->doc);
  TressHistory *history = tress_document_get_history (base);
  TressChaFile *file = tress_cha_document_get_cha (f->doc);
  static const guint8 w[3] = { 10, 20, 225 };
  guint8 old1[3], old2[3];
  guint n_lines = 0, n_ribbons = 0, n;
  guint32 from, to;
  g_autoptr (TressChaFile) expected_model = NULL;
  g_autoptr (GBytes) expected = NULL;
  g_autoptr (GBytes) saved = NULL;
  g_autoptr (GError) error = NULL;
  TressChaLineId *lines;
  const TressChaRibbonId *sel;

  /* Select ribbons 1 and 2 of material 0: inspector, tree and preview agree. */
  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (f->editor), "fur.select-ribbons", "s", "0:1,0:2"));
  sel = tress_cha_document_get_selection (f->doc, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (sel[1].ribbon, ==, 2);
  g_assert_cmpuint (n_selected_rows (f->editor), ==, 2);
  g_assert_nonnull (strstr (
      tress_fur_inspector_get_summary (tress_fur_editor_get_inspector (f->editor)), "2 ribbons"));

  for (guint k = 0; k < 3; k++)
    {
      old1[k] = tress_cha_line_get_weight (line_of (file, 0, 1, 0), k);
      old2[k] = tress_cha_line_get_weight (line_of (file, 0, 2, 0), k);
    }
  lines = tress_cha_document_get_selected_lines (f->doc, &n_lines);
  g_free (lines);

  /* Set weights: one undo step naming the line count. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->editor), "fur.set-weights", "(yyy)",
                                             w[0], w[1], w[2]));
  assert_ribbon_weights (file, 0, 1, w);
  assert_ribbon_weights (file, 0, 2, w);
  {
    g_autofree char *label = g_strdup_printf ("Set weights of %u lines", n_lines);

    g_assert_cmpstr (tress_history_get_undo_label (history), ==, label);
  }
  g_assert_true (tress_document_get_modified (base));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.undo", NULL));
  g_assert_cmpuint (tress_cha_line_get_weight (line_of (file, 0, 1, 0), 0), ==, old1[0]);
  g_assert_cmpuint (tress_cha_line_get_weight (line_of (file, 0, 2, 0), 2), ==, old2[2]);
  g_assert_false (tress_document_get_modified (base));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.redo", NULL));
  assert_ribbon_weights (file, 0, 1, w);

  /* Retarget the selection from a part it uses to another applied part. */
  from = weighted_part (file, 0, 1);
  to = file->radeon->materials[0].applied[0] == from ? file->radeon->materials[0].applied[1]
                                                     : file->radeon->materials[0].applied[0];
  g_assert_true (tress_fur_retarget_count (f->doc, 0, from, to, &n_lines, &n_ribbons));
  g_assert_cmpuint (n_lines, >, 0);
  g_assert_cmpuint (n_ribbons, >=, 1);
  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (f->editor), "fur.retarget", "(uuu)", from, to, 0));
  {
    g_autofree char *label = g_strdup_printf ("Retarget %u lines from %u to %u", n_lines, from, to);
    guint nl, nr;

    g_assert_cmpstr (tress_history_get_undo_label (history), ==, label);
    g_assert_true (tress_fur_retarget_count (f->doc, 0, from, to, &nl, &nr));
    g_assert_cmpuint (nl, ==, 0);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.undo", NULL));
    g_assert_true (tress_fur_retarget_count (f->doc, 0, from, to, &nl, &nr));
    g_assert_cmpuint (nl, ==, n_lines);
    assert_ribbon_weights (file, 0, 1, w); /* the weights step is still there */
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.redo", NULL));
    g_assert_true (tress_fur_retarget_count (f->doc, 0, from, to, &nl, &nr));
    g_assert_cmpuint (nl, ==, 0);
  }

  /* Save; the bytes on disk are exactly the original with the same two edits. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.save", NULL));
  TRESS_TEST_WAIT_FOR (!tress_document_get_modified (base) && !tress_window_get_busy (f->window));
  saved = tress_test_read_file (f->path);
  expected_model = tress_cha_file_parse (original, &error);
  g_assert_no_error (error);
  {
    TressChaLineId ids[64];
    guint count = 0, first, nr;
    const guint rib[2] = { 1, 2 };
    TressChaScope scope = { 0, rib, 2 };

    for (guint r = 1; r <= 2; r++)
      {
        g_assert_true (tress_cha_material_ribbon_lines (&expected_model->radeon->materials[0], r,
                                                        &first, &nr));
        for (guint i = 0; i < nr; i++)
          ids[count++] = (TressChaLineId){ 0, first + i };
      }
    g_assert_true (tress_cha_set_weights (expected_model, NULL, ids, count, w, &error));
    g_assert_true (tress_cha_retarget (expected_model, NULL, &scope, from, to, &error));
    g_assert_no_error (error);
  }
  expected = tress_cha_file_serialize (expected_model);
  tress_test_assert_bytes_equal (saved, expected);
  g_assert_false (g_bytes_equal (saved, original));

  /* Closed, the document is let go of by everything that showed it. */
  g_object_ref (f->doc);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.close-document", NULL));
  TRESS_TEST_WAIT_FOR (tress_window_get_n_documents (f->window) == 0);
  tress_test_assert_finalized (g_steal_pointer (&f->doc), TRUE, "the closed document");

  /* Reopen: the new document shows the saved weights. */
  f->editor = TRESS_FUR_EDITOR (tress_document_page_get_editor (
      tress_test_window_open_file (f->window, f->path, TRESS_TYPE_FUR_EDITOR)));
  f->doc = tress_fur_editor_get_document (f->editor);
  file = tress_cha_document_get_cha (f->doc);
  assert_ribbon_weights (file, 0, 1, w);
  assert_ribbon_weights (file, 0, 2, w);
}

/* The tree: lazily expanded rows, selection both ways, search filter. */
static void
test_tree (Fixture *f, gconstpointer data)
{
  GtkSelectionModel *model = tress_fur_editor_get_tree_selection (f->editor);
  TressChaFile *file = tress_cha_document_get_cha (f->doc);
  guint n_rows, n, i, ribbon_row = G_MAXUINT, n_ribbon_rows;
  const TressChaRibbonId *sel;

  /* Only the file's sections at first: nothing of 2,000+ ribbons is made. */
  n_rows = g_list_model_get_n_items (G_LIST_MODEL (model));
  g_assert_cmpuint (n_rows, ==, file->n_sections);

  /* Selecting from the document expands the way to the ribbon. */
  tress_cha_document_set_selection (f->doc, &(TressChaRibbonId){ 0, 5 }, 1, NULL);
  n_rows = g_list_model_get_n_items (G_LIST_MODEL (model));
  g_assert_cmpuint (n_rows, >, file->radeon->materials[0].n_ribbons);
  g_assert_cmpuint (n_selected_rows (f->editor), ==, 1);

  /* Selecting a row selects its ribbon in the document. */
  for (i = 0; i < n_rows; i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (model), i);
      g_autoptr (TressChaNode) node = gtk_tree_list_row_get_item (row);

      if (tress_cha_node_get_kind (node) == TRESS_CHA_NODE_RIBBON
          && tress_cha_node_get_ribbon (node) == 9)
        {
          g_autofree char *name = tress_cha_node_get_text (node, TRESS_CHA_COLUMN_NAME);

          ribbon_row = i;
          g_assert_cmpstr (name, ==, "ribbon 9");
          break;
        }
    }
  g_assert_cmpuint (ribbon_row, !=, G_MAXUINT);
  g_assert_true (gtk_selection_model_select_item (model, ribbon_row, TRUE));
  sel = tress_cha_document_get_selection (f->doc, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (sel[0].ribbon, ==, 9);

  /* The search filters ribbons by index: one ribbon row left in material 0. */
  gtk_editable_set_text (tress_fur_editor_get_search (f->editor), "#9");
  /* The search entry applies it after a short delay. */
  TRESS_TEST_WAIT_FOR (g_list_model_get_n_items (G_LIST_MODEL (model)) < 20);
  n_ribbon_rows = 0;
  n_rows = g_list_model_get_n_items (G_LIST_MODEL (model));
  for (i = 0; i < n_rows; i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (model), i);
      g_autoptr (TressChaNode) node = gtk_tree_list_row_get_item (row);

      if (tress_cha_node_get_kind (node) == TRESS_CHA_NODE_RIBBON)
        {
          g_assert_cmpint (tress_cha_node_get_ribbon (node), ==, 9);
          n_ribbon_rows++;
        }
    }
  g_assert_cmpuint (n_ribbon_rows, >=, 1);

  /* While filtered, a selection from elsewhere selects only the rows shown. */
  tress_cha_document_set_selection (f->doc, &(TressChaRibbonId){ 0, 5 }, 1, NULL);
  g_assert_cmpuint (n_selected_rows (f->editor), ==, 0);
  tress_cha_document_set_selection (f->doc, &(TressChaRibbonId){ 0, 9 }, 1, NULL);
  g_assert_cmpuint (n_selected_rows (f->editor), ==, 1);
}

/* Dragging in the weight triangle: several points move together, one undo step. */
static void
test_triangle_drag (Fixture *f, gconstpointer data)
{
  TressChaFile *file = tress_cha_document_get_cha (f->doc);
  TressHistory *history = tress_document_get_history (TRESS_DOCUMENT (f->doc));
  TressWeightTriangle *tri
      = tress_fur_inspector_get_triangle (tress_fur_editor_get_inspector (f->editor));
  static const guint8 a[3] = { 200, 55, 0 }, b[3] = { 55, 200, 0 };
  double x, y;
  guint n_steps;

  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (f->editor), "fur.select-ribbons", "s", "0:3"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->editor), "fur.set-weights", "(yyy)",
                                             a[0], a[1], a[2]));
  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (f->editor), "fur.select-ribbons", "s", "0:4"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->editor), "fur.set-weights", "(yyy)",
                                             b[0], b[1], b[2]));
  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (f->editor), "fur.select-ribbons", "s", "0:3,0:4"));
  TRESS_TEST_WAIT_FOR (gtk_widget_get_width (GTK_WIDGET (tri)) > 0);
  g_assert_cmpuint (tress_weight_triangle_get_n_points (tri), ==, 2);
  n_steps = tress_history_get_n_undo (history);

  /* Drag point 0 towards reference 2's corner: both move, sums stay 255. */
  tress_weight_triangle_get_point_position (tri, 0, &x, &y);
  tress_weight_triangle_drag_to (tri, 0, x + 15, y + 12, FALSE);
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, n_steps + 1);
  g_assert_true (g_str_has_prefix (tress_history_get_undo_label (history), "Set weights of "));
  for (guint r = 3; r <= 4; r++)
    {
      const TressChaLine *line = line_of (file, 0, r, 0);

      g_assert_cmpuint (line->weights[0] + line->weights[1] + line->weights[2], ==, 255);
      g_assert_cmpuint (tress_cha_line_get_weight (line, 2), >, 0);
    }
  g_assert_cmpuint (tress_cha_line_get_weight (line_of (file, 0, 3, 0), 0), <, a[0]);
  g_assert_cmpuint (tress_cha_line_get_weight (line_of (file, 0, 4, 0), 0), >, 0);

  /* Shift-drag: every point takes the dragged one's weights. */
  tress_weight_triangle_get_point_position (tri, 1, &x, &y);
  tress_weight_triangle_drag_to (tri, 1, x, y - 10, TRUE);
  /* Each drag is its own step. */
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, n_steps + 2);
  for (guint k = 0; k < 3; k++)
    g_assert_cmpuint (tress_cha_line_get_weight (line_of (file, 0, 3, 0), k), ==,
                      tress_cha_line_get_weight (line_of (file, 0, 4, 1), k));
  g_assert_cmpuint (tress_weight_triangle_get_n_points (tri), ==, 1);

  /* Undo both drags: ribbon 3 has its set weights again. */
  g_assert_true (tress_history_undo (history));
  g_assert_true (tress_history_undo (history));
  assert_ribbon_weights (file, 0, 3, a);
  assert_ribbon_weights (file, 0, 4, b);
}

/* UV map: hover names the piece, a dragged point is one undoable edit. */
static void
test_uv_map (Fixture *f, gconstpointer data)
{
  TressChaFile *file = tress_cha_document_get_cha (f->doc);
  TressUvMap *map = tress_fur_editor_get_uv_map (f->editor);
  TressHistory *history = tress_document_get_history (TRESS_DOCUMENT (f->doc));
  float u0 = file->radeon->materials[0].uv[2 * 10], v0 = file->radeon->materials[0].uv[2 * 10 + 1];
  double x, y;

  tress_fur_editor_show_page (f->editor, 1);
  TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (GTK_WIDGET (map))
                       && gtk_widget_get_width (GTK_WIDGET (map)) > 0);
  tress_uv_map_get_point_position (map, 10, &x, &y);
  tress_uv_map_hover (map, x, y);
  g_assert_nonnull (strstr (tress_uv_map_get_hover_text (map), "row 1"));
  g_assert_nonnull (strstr (tress_uv_map_get_hover_text (map), "point 2"));

  tress_uv_map_drag_point_to (map, 10, x + 5, y + 3);
  g_assert_cmpfloat (file->radeon->materials[0].uv[2 * 10], !=, u0);
  g_assert_true (tress_document_get_modified (TRESS_DOCUMENT (f->doc)));
  /* A second drag is a second step: one undo takes back only that one. */
  {
    float u1 = file->radeon->materials[0].uv[2 * 10];

    tress_uv_map_drag_point_to (map, 10, x + 12, y + 8);
    g_assert_true (tress_history_undo (history));
    g_assert_cmpfloat (file->radeon->materials[0].uv[2 * 10], ==, u1);
  }
  g_assert_true (tress_history_undo (history));
  g_assert_cmpfloat (file->radeon->materials[0].uv[2 * 10], ==, u0);
  g_assert_cmpfloat (file->radeon->materials[0].uv[2 * 10 + 1], ==, v0);

  /* A revert gives a new model: the map shows its table, not the old one. */
  tress_uv_map_drag_point_to (map, 10, x + 20, y + 20);
  g_assert_true (tress_document_revert (TRESS_DOCUMENT (f->doc), NULL, NULL));
  file = tress_cha_document_get_cha (f->doc);
  {
    double rx, ry;

    tress_uv_map_get_point_position (map, 10, &rx, &ry);
    g_assert_cmpfloat_with_epsilon (rx, x, 1e-6);
    g_assert_cmpfloat_with_epsilon (ry, y, 1e-6);
  }
}

static guint
count_pixels (GBytes *pixels, gboolean highlight)
{
  gsize size, i;
  const guint8 *p = g_bytes_get_data (pixels, &size);
  guint count = 0;

  for (i = 0; i + 3 < size; i += 4)
    {
      gboolean bg = p[i] == TRESS_FUR_BACKGROUND_R && p[i + 1] == TRESS_FUR_BACKGROUND_G
                    && p[i + 2] == TRESS_FUR_BACKGROUND_B;
      gboolean hl = p[i] == TRESS_FUR_HIGHLIGHT_R && p[i + 1] == TRESS_FUR_HIGHLIGHT_G
                    && p[i + 2] == TRESS_FUR_HIGHLIGHT_B;

      if (highlight ? hl : !bg)
        count++;
    }
  return count;
}

/* The preview draws ribbons, highlights the selection, morphs by uniforms only. */
static void
test_preview (Fixture *f, gconstpointer data)
{
  TressFurPreview *preview = tress_fur_editor_get_preview (f->editor);
  g_autoptr (GBytes) plain = NULL;
  g_autoptr (GBytes) selected = NULL;
  g_autoptr (GBytes) morphed = NULL;
  int w, h;
  guint uploads, n;
  double x, y;
  int picked;
  const TressChaRibbonId *sel;

  TRESS_TEST_WAIT_FOR (tress_fur_preview_get_gl_ready (preview)
                       || tress_fur_preview_get_gl_error (preview));
  if (!tress_fur_preview_get_gl_ready (preview))
    {
      g_test_skip (tress_fur_preview_get_gl_error (preview));
      return;
    }
  TRESS_TEST_WAIT_FOR ((plain = tress_fur_preview_grab (preview, &w, &h)) != NULL);
  g_test_message ("preview %d×%d: %u fur pixels", w, h, count_pixels (plain, FALSE));
  /* Ribbons are drawn: at least 2% of the picture is fur. */
  g_assert_cmpuint (count_pixels (plain, FALSE), >, (guint)(w * h / 50));
  g_assert_cmpuint (count_pixels (plain, TRUE), ==, 0);

  /* Select a tenth of material 0's ribbons: the highlight colour appears. */
  {
    g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (TressChaRibbonId));
    TressChaFile *file = tress_cha_document_get_cha (f->doc);

    for (guint r = 0; r < file->radeon->materials[0].n_ribbons; r += 10)
      g_array_append_val (ids, ((TressChaRibbonId){ 0, r }));
    tress_cha_document_set_selection (f->doc, (TressChaRibbonId *)(gpointer)ids->data, ids->len,
                                      NULL);
  }
  selected = tress_fur_preview_grab (preview, &w, &h);
  g_assert_cmpuint (count_pixels (selected, TRUE), >, 50);

  /* A morph slider changes the picture without uploading anything. */
  tress_cha_document_set_selection (f->doc, NULL, 0, NULL);
  g_clear_pointer (&plain, g_bytes_unref);
  plain = tress_fur_preview_grab (preview, &w, &h);
  uploads = tress_fur_preview_get_n_uploads (preview);
  tress_fur_preview_set_morph_weight (preview, 0, 1.0);
  morphed = tress_fur_preview_grab (preview, &w, &h);
  g_assert_cmpuint (tress_fur_preview_get_n_uploads (preview), ==, uploads);
  g_assert_false (g_bytes_equal (plain, morphed));
  tress_fur_preview_set_morph_weight (preview, 0, 0.0);

  /* A click on a ribbon selects it everywhere. */
  g_assert_true (tress_fur_preview_ribbon_position (preview, 7, &x, &y));
  picked = tress_fur_preview_pick (preview, x, y, FALSE);
  g_assert_cmpint (picked, >=, 0);
  sel = tress_cha_document_get_selection (f->doc, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (n_selected_rows (f->editor), ==, 1);
  g_assert_nonnull (strstr (
      tress_fur_inspector_get_summary (tress_fur_editor_get_inspector (f->editor)), "1 ribbon"));
  (void)sel;

  /* Orbit and zoom change the picture; frame brings it back into view. */
  tress_fur_preview_orbit (preview, 90, 0);
  tress_fur_preview_zoom (preview, 0.5);
  tress_fur_preview_frame_selection (preview);
  g_clear_pointer (&morphed, g_bytes_unref);
  morphed = tress_fur_preview_grab (preview, &w, &h);
  g_assert_cmpuint (count_pixels (morphed, TRUE), >, 0);
}

/* While the view moves a large file is drawn with a subset of its ribbons; at
 * rest the picture is the full one again, and picking is exact either way. */
static void
test_preview_lod (Fixture *f, gconstpointer data)
{
  TressFurPreview *preview = tress_fur_editor_get_preview (f->editor);
  g_autoptr (GBytes) full = NULL;
  g_autoptr (GBytes) reduced = NULL;
  g_autoptr (GBytes) again = NULL;
  const TressFurMesh *mesh;
  int w, h, picked_full, picked_reduced;
  double x, y;

  TRESS_TEST_WAIT_FOR (tress_fur_preview_get_gl_ready (preview)
                       || tress_fur_preview_get_gl_error (preview));
  if (!tress_fur_preview_get_gl_ready (preview))
    {
      g_test_skip (tress_fur_preview_get_gl_error (preview));
      return;
    }
  mesh = tress_fur_preview_get_mesh (preview);
  g_assert_cmpuint (mesh->n_ribbons, >, 400);
  TRESS_TEST_WAIT_FOR ((full = tress_fur_preview_grab (preview, &w, &h)) != NULL);
  /* The demo is below the default limit: moving changes nothing. */
  tress_fur_preview_set_interacting (preview, TRUE);
  reduced = tress_fur_preview_grab (preview, &w, &h);
  g_assert_cmpuint (tress_fur_preview_get_n_ribbons_drawn (preview), ==, mesh->n_ribbons);
  g_assert_true (g_bytes_equal (full, reduced));
  g_clear_pointer (&reduced, g_bytes_unref);

  /* With a limit of 100 ribbons, about 100 are drawn while moving. */
  tress_fur_preview_set_lod_limit (preview, 100);
  reduced = tress_fur_preview_grab (preview, &w, &h);
  g_assert_cmpuint (tress_fur_preview_get_n_ribbons_drawn (preview), <=, 100);
  g_assert_cmpuint (tress_fur_preview_get_n_ribbons_drawn (preview), >=, 50);
  g_assert_cmpuint (count_pixels (reduced, FALSE), >, 0);
  g_assert_cmpuint (count_pixels (reduced, FALSE), <, count_pixels (full, FALSE));

  /* Picking uses every ribbon, drawn or not. */
  g_assert_true (tress_fur_preview_ribbon_position (preview, 7, &x, &y));
  picked_reduced = tress_fur_preview_pick (preview, x, y, FALSE);
  tress_fur_preview_set_interacting (preview, FALSE);
  picked_full = tress_fur_preview_pick (preview, x, y, FALSE);
  g_assert_cmpint (picked_reduced, >=, 0);
  g_assert_cmpint (picked_reduced, ==, picked_full);
  tress_cha_document_set_selection (tress_fur_editor_get_document (f->editor), NULL, 0, NULL);

  /* At rest: exactly the full picture. */
  g_assert_false (tress_fur_preview_get_interacting (preview));
  again = tress_fur_preview_grab (preview, &w, &h);
  g_assert_cmpuint (tress_fur_preview_get_n_ribbons_drawn (preview), ==, mesh->n_ribbons);
  g_assert_true (g_bytes_equal (full, again));
}

/* Moving a ribbon updates its points in place (no new mesh), giving exactly
 * the picture a full rebuild gives; undo brings the first picture back. */
static void
test_preview_edit_in_place (Fixture *f, gconstpointer data)
{
  TressFurPreview *preview = tress_fur_editor_get_preview (f->editor);
  TressChaFile *file = tress_cha_document_get_cha (f->doc);
  TressHistory *history = tress_document_get_history (TRESS_DOCUMENT (f->doc));
  TressChaRibbonId id = { 0, 7 };
  g_autoptr (GBytes) before = NULL;
  g_autoptr (GBytes) moved = NULL;
  g_autoptr (GBytes) rebuilt = NULL;
  g_autoptr (GBytes) undone = NULL;
  g_autoptr (GError) error = NULL;
  guint builds;
  float points[6];
  int w, h;

  TRESS_TEST_WAIT_FOR (tress_fur_preview_get_gl_ready (preview)
                       || tress_fur_preview_get_gl_error (preview));
  if (!tress_fur_preview_get_gl_ready (preview))
    {
      g_test_skip (tress_fur_preview_get_gl_error (preview));
      return;
    }
  TRESS_TEST_WAIT_FOR ((before = tress_fur_preview_grab (preview, &w, &h)) != NULL);
  builds = tress_fur_preview_get_n_mesh_builds (preview);
  memcpy (points, &file->radeon->materials[0].base_points[6 * 7], sizeof points);
  for (guint k = 0; k < 6; k += 3)
    points[k] += 0.3f;
  g_assert_true (tress_cha_set_base_points (file, history, id, points, &error));
  g_assert_no_error (error);
  moved = tress_fur_preview_grab (preview, &w, &h);
  g_assert_cmpuint (tress_fur_preview_get_n_mesh_builds (preview), ==, builds);
  g_assert_false (g_bytes_equal (before, moved));

  /* A new limit re-uploads everything from the model. */
  tress_fur_preview_set_lod_limit (preview, 1000000);
  rebuilt = tress_fur_preview_grab (preview, &w, &h);
  g_assert_true (g_bytes_equal (moved, rebuilt));

  g_assert_true (tress_history_undo (history));
  undone = tress_fur_preview_grab (preview, &w, &h);
  g_assert_cmpuint (tress_fur_preview_get_n_mesh_builds (preview), ==, builds);
  g_assert_true (g_bytes_equal (before, undone));
}

/* With GL disabled the pane says so, and editing still works. */
static void
test_no_gl (Fixture *f, gconstpointer data)
{
  TressFurPreview *preview = tress_fur_editor_get_preview (f->editor);
  static const guint8 w[3] = { 0, 255, 0 };

  if (!gl_disabled)
    {
      g_test_skip ("run with GDK_DEBUG=gl-disable");
      return;
    }
  TRESS_TEST_WAIT_FOR (tress_fur_preview_get_gl_error (preview) != NULL);
  g_assert_false (tress_fur_preview_get_gl_ready (preview));
  g_assert_nonnull (strstr (tress_fur_preview_get_gl_error (preview), "unavailable"));
  g_assert_null (tress_fur_preview_grab (preview, &(int){ 0 }, &(int){ 0 }));
  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (f->editor), "fur.select-ribbons", "s", "0:0"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->editor), "fur.set-weights", "(yyy)",
                                             w[0], w[1], w[2]));
  assert_ribbon_weights (tress_cha_document_get_cha (f->doc), 0, 0, w);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.undo", NULL));
  g_assert_false (tress_document_get_modified (TRESS_DOCUMENT (f->doc)));
}

/* The first widget under @root of @type (and with @label / @name when given), depth first. */
static GtkWidget *
find_widget (GtkWidget *root, GType type, const char *label, const char *name, guint skip)
{
  GtkWidget *child;

  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type)
      && (label == NULL
          || (GTK_IS_BUTTON (root)
              && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (root)), label) == 0)
          || (GTK_IS_LABEL (root) && strstr (gtk_label_get_text (GTK_LABEL (root)), label) != NULL))
      && (name == NULL || g_strcmp0 (gtk_widget_get_name (root), name) == 0))
    {
      static guint seen;

      if (skip == 0 || seen++ == skip)
        {
          seen = 0;
          return root;
        }
    }
  for (child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type, label, name, skip);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWindow *
find_window (const char *title)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (g_strcmp0 (gtk_window_get_title (w), title) == 0
          && gtk_widget_get_visible (GTK_WIDGET (w)))
        return w;
    }
  return NULL;
}

/* The shown windows titled @title. */
static guint
n_windows_titled (const char *title)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) w = g_list_model_get_item (toplevels, i);

      n += g_strcmp0 (gtk_window_get_title (w), title) == 0
           && gtk_widget_get_visible (GTK_WIDGET (w));
    }
  return n;
}

/* Retarget…: the live count follows the fields; Retarget is one undo step. */
static void
test_retarget_dialog (Fixture *f, gconstpointer data)
{
  TressChaFile *file = tress_cha_document_get_cha (f->doc);
  TressHistory *history = tress_document_get_history (TRESS_DOCUMENT (f->doc));
  GtkWindow *dialog;
  GtkWidget *from, *to, *scope, *apply;
  guint32 a = file->radeon->materials[0].applied[0], b = file->radeon->materials[0].applied[1];
  guint nl = 0, nr = 0;
  g_autofree char *expect = NULL;
  g_autofree char *label = NULL;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->editor), "fur.retarget-dialog", NULL));
  TRESS_TEST_WAIT_FOR ((dialog = find_window ("Retarget body part")) != NULL);
  from = find_widget (GTK_WIDGET (dialog), GTK_TYPE_SPIN_BUTTON, NULL, NULL, 0);
  to = find_widget (GTK_WIDGET (dialog), GTK_TYPE_SPIN_BUTTON, NULL, NULL, 1);
  scope = find_widget (GTK_WIDGET (dialog), GTK_TYPE_DROP_DOWN, NULL, NULL, 0);
  apply = find_widget (GTK_WIDGET (dialog), GTK_TYPE_BUTTON, "Retarget", NULL, 0);
  g_assert_nonnull (from);
  g_assert_true (to != from);
  /* Nothing selected: the scope is the whole file. */
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (scope)), ==, 2);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (from), a);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (to), b);
  g_assert_true (tress_fur_retarget_count (f->doc, 2, a, b, &nl, &nr));
  g_assert_cmpuint (nl, >, 0);
  expect = g_strdup_printf ("%u lines in %u ribbons", nl, nr);
  g_assert_nonnull (find_widget (GTK_WIDGET (dialog), GTK_TYPE_LABEL, expect, NULL, 0));
  g_assert_true (gtk_widget_get_sensitive (apply));
  g_signal_emit_by_name (apply, "clicked");
  TRESS_TEST_WAIT_FOR (find_window ("Retarget body part") == NULL);
  label = g_strdup_printf ("Retarget %u lines from %u to %u", nl, a, b);
  g_assert_cmpstr (tress_history_get_undo_label (history), ==, label);
  g_assert_true (tress_fur_retarget_count (f->doc, 2, a, b, &nl, &nr));
  g_assert_cmpuint (nl, ==, 0);
  g_assert_true (tress_history_undo (history));
  g_assert_false (tress_document_get_modified (TRESS_DOCUMENT (f->doc)));
}

/* Retarget… left open, from the inspector's button or the editor's action,
 * when the window closes: it goes with the window, and lets go of the
 * document (the teardown checks both). */
static void
test_retarget_dialog_left_open (Fixture *f, gconstpointer data)
{
  GtkWidget *button = find_widget (GTK_WIDGET (tress_fur_editor_get_inspector (f->editor)),
                                   GTK_TYPE_BUTTON, "Retarget…", NULL, 0);
  GtkWindow *dialog;

  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  TRESS_TEST_WAIT_FOR ((dialog = find_window ("Retarget body part")) != NULL
                       && gtk_widget_get_mapped (GTK_WIDGET (dialog)));
  g_assert_true (gtk_window_get_transient_for (dialog) == GTK_WINDOW (f->window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->editor), "fur.retarget-dialog", NULL));
  TRESS_TEST_WAIT_FOR (n_windows_titled ("Retarget body part") == 2);
}

/* The strand texture's chooser (not modal: the window can be closed under
 * it) goes with the window, and lets go of the editor and the document. */
static void
test_background_chooser_left_open (Fixture *f, gconstpointer data)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->editor), "fur.load-background", NULL));
  TRESS_TEST_WAIT_FOR (n_windows_titled ("Strand texture") == 1);
}

/* Whether a line of the ribbon gives weight to @part. */
static gboolean
ribbon_weighs_on (TressChaFile *file, guint material, guint ribbon, guint32 part)
{
  const TressChaMaterial *m = &file->radeon->materials[material];
  guint first, n;

  g_assert_true (tress_cha_material_ribbon_lines (m, ribbon, &first, &n));
  for (guint i = first; i < first + n; i++)
    for (guint k = 0; k < 3; k++)
      if (tress_cha_line_get_weight (&m->lines[i], k) > 0
          && tress_cha_material_ref_body_part (m, &m->lines[i], k) == (gint64)part)
        return TRUE;
  return FALSE;
}

/* Breaks the weight triple of the first line of @ribbon of material 0: its
 * sum is no longer 255. */
static void
break_ribbon (TressChaFile *file, guint ribbon)
{
  guint first, n;

  g_assert_true (tress_cha_material_ribbon_lines (&file->radeon->materials[0], ribbon, &first, &n));
  file->radeon->materials[0].lines[first].weights[0] ^= 1;
}

static void
break_ribbon_6 (TressChaFile *file)
{
  break_ribbon (file, 6);
}

/* A broken weight triple shows in the inspector with a Fix button that fixes it. */
static void
test_problem_fix (Fixture *f, gconstpointer data)
{
  GtkWidget *fix;

  g_assert_cmpuint (tress_cha_document_ribbon_problems (f->doc, 0, 6), >, 0);
  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (f->editor), "fur.select-ribbons", "s", "0:6"));

  /* The search "problem" leaves the broken ribbon only; a body part number
   * leaves the ribbons attached to or referencing it. */
  {
    GListModel *rows = G_LIST_MODEL (tress_fur_editor_get_tree_selection (f->editor));
    TressChaFile *file = tress_cha_document_get_cha (f->doc);
    guint32 part = file->radeon->materials[0].attach[6];
    g_autofree char *text = g_strdup_printf ("%u", part);
    guint n_ribbons = 0;

    guint n_all = g_list_model_get_n_items (rows);

    gtk_editable_set_text (tress_fur_editor_get_search (f->editor), "problem");
    TRESS_TEST_WAIT_FOR (g_list_model_get_n_items (rows) < 10);
    for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
      {
        g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
        g_autoptr (TressChaNode) node = gtk_tree_list_row_get_item (row);

        if (tress_cha_node_get_kind (node) == TRESS_CHA_NODE_RIBBON)
          {
            g_assert_cmpint (tress_cha_node_get_ribbon (node), ==, 6);
            n_ribbons++;
          }
      }
    g_assert_cmpuint (n_ribbons, ==, 1);
    gtk_editable_set_text (tress_fur_editor_get_search (f->editor), text);
    /* Setting the text clears it first, which the search entry reports at
     * once (every row back); the number comes after its delay. */
    TRESS_TEST_WAIT_FOR (g_list_model_get_n_items (rows) > 10
                         && g_list_model_get_n_items (rows) < n_all);
    for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
      {
        g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
        g_autoptr (TressChaNode) node = gtk_tree_list_row_get_item (row);
        g_autofree char *attach = NULL;

        if (tress_cha_node_get_kind (node) != TRESS_CHA_NODE_RIBBON)
          continue;
        attach = tress_cha_node_get_text (node, TRESS_CHA_COLUMN_ATTACH);
        g_assert_true (g_strcmp0 (attach, text) == 0
                       || ribbon_weighs_on (file, (guint)tress_cha_node_get_material (node),
                                            (guint)tress_cha_node_get_ribbon (node), part));
        n_ribbons++;
      }
    g_assert_cmpuint (n_ribbons, >, 2);
    g_assert_cmpuint (n_ribbons, <, file->radeon->materials[0].n_ribbons + 1);
    gtk_editable_set_text (tress_fur_editor_get_search (f->editor), "");
  }
  fix = find_widget (GTK_WIDGET (tress_fur_editor_get_inspector (f->editor)), GTK_TYPE_BUTTON,
                     "Fix", NULL, 0);
  g_assert_nonnull (fix);
  g_signal_emit_by_name (fix, "clicked");
  g_assert_cmpuint (tress_cha_document_ribbon_problems (f->doc, 0, 6), ==, 0);
  /* the list is rebuilt once the click is over */
  tress_test_wait_idle ();
  g_assert_null (find_widget (GTK_WIDGET (tress_fur_editor_get_inspector (f->editor)),
                              GTK_TYPE_BUTTON, "Fix", NULL, 0));
  g_assert_true (tress_history_undo (tress_document_get_history (TRESS_DOCUMENT (f->doc))));
  g_assert_cmpuint (tress_cha_document_ribbon_problems (f->doc, 0, 6), >, 0);
}

/* A file with three broken weight triples opens with a banner; Show opens the
 * list at the top of the inspector; a row selects its ribbon; fixing them
 * follows in the banner, which goes once none is left. */
static const guint three_ribbons[3] = { 3, 9, 40 };

static void
break_three_ribbons (TressChaFile *file)
{
  for (guint i = 0; i < G_N_ELEMENTS (three_ribbons); i++)
    break_ribbon (file, three_ribbons[i]);
}

static void
test_problems_banner (Fixture *f, gconstpointer data)
{
  const guint *ribbons = three_ribbons;
  TressFurInspector *inspector;
  GtkListBox *list;
  GtkListBoxRow *row;
  const TressChaRibbonId *sel;
  guint n, rows = 0;

  if (!tress_test_pointer_available (GTK_WIDGET (f->window)))
    return;
  inspector = tress_fur_editor_get_inspector (f->editor);
  list = tress_fur_inspector_get_problem_list (inspector);
  g_assert_cmpstr (tress_fur_editor_get_problems_banner (f->editor), ==, "3 problems");
  g_assert_false (tress_fur_inspector_get_problems_shown (inspector));

  /* Show, clicked: the list, at the top of the inspector. */
  {
    GtkWidget *show = find_widget (GTK_WIDGET (f->editor), GTK_TYPE_BUTTON, "Show", NULL, 0);
    GtkWidget *bar = gtk_widget_get_ancestor (show, GTK_TYPE_REVEALER);

    TRESS_TEST_WAIT_FOR (gtk_revealer_get_child_revealed (GTK_REVEALER (bar)));
    click_middle (show);
  }
  g_assert_true (tress_fur_inspector_get_problems_shown (inspector));
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (list)); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    rows++;
  g_assert_cmpuint (rows, ==, 3);

  /* The second row: its ribbon selected, in the tree too; its row comes first. */
  row = gtk_list_box_get_row_at_index (list, 1);
  g_assert_true (gtk_list_box_row_get_activatable (row));
  TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (GTK_WIDGET (row)));
  click_middle (GTK_WIDGET (row));
  sel = tress_cha_document_get_selection (f->doc, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (sel[0].material, ==, 0);
  g_assert_cmpuint (sel[0].ribbon, ==, ribbons[1]);
  TRESS_TEST_WAIT_FOR (n_selected_rows (f->editor) == 1);
  {
    /* The selection's problem is the first row, in bold. */
    g_autofree char *where = g_strdup_printf ("ribbon %u/", ribbons[1]);
    GtkWidget *label = NULL;

    TRESS_TEST_WAIT_FOR (
        (label = gtk_widget_get_next_sibling (gtk_widget_get_first_child (
             gtk_list_box_row_get_child (gtk_list_box_get_row_at_index (list, 0)))))
            != NULL
        && GTK_IS_LABEL (label) && strstr (gtk_label_get_text (GTK_LABEL (label)), where) != NULL);
    g_assert_true (gtk_widget_has_css_class (label, "heading"));
  }

  /* A Fix mends its own row's triple only; undo brings it back. */
  click_middle (find_widget (GTK_WIDGET (inspector), GTK_TYPE_BUTTON, "Fix", NULL, 0));
  TRESS_TEST_WAIT_FOR (g_strcmp0 (tress_fur_editor_get_problems_banner (f->editor), "2 problems")
                       == 0);
  g_assert_true (tress_history_undo (tress_document_get_history (TRESS_DOCUMENT (f->doc))));
  TRESS_TEST_WAIT_FOR (g_strcmp0 (tress_fur_editor_get_problems_banner (f->editor), "3 problems")
                       == 0);

  /* Hidden by the user, it stays hidden. */
  {
    GtkWidget *hide = find_by_tooltip (GTK_WIDGET (f->editor), GTK_TYPE_BUTTON, "Hide");

    g_assert_nonnull (hide);
    TRESS_TEST_WAIT_FOR (gtk_revealer_get_child_revealed (
        GTK_REVEALER (gtk_widget_get_ancestor (hide, GTK_TYPE_REVEALER))));
    click_middle (hide);
  }
  g_assert_null (tress_fur_editor_get_problems_banner (f->editor));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->editor), "fur.fix-all", NULL));
  g_assert_true (tress_history_undo (tress_document_get_history (TRESS_DOCUMENT (f->doc))));
  tress_test_wait_idle ();
  g_assert_null (tress_fur_editor_get_problems_banner (f->editor));
  tress_test_pointer_move (GTK_WIDGET (f->window), 1, 1);
}

/* Sorting by a column orders the ribbons within their material; the weight
 * spin button rebalances the other two weights. */
static void
test_sort_and_spin (Fixture *f, gconstpointer data)
{
  TressChaFile *file = tress_cha_document_get_cha (f->doc);
  GtkColumnView *view = tress_fur_editor_get_column_view (f->editor);
  GListModel *columns = gtk_column_view_get_columns (view);
  GListModel *rows = G_LIST_MODEL (tress_fur_editor_get_tree_selection (f->editor));
  GtkWidget *spin0;
  guint32 last = 0;
  guint n_ribbons = 0;

  tress_cha_document_set_selection (f->doc, &(TressChaRibbonId){ 0, 0 }, 1, NULL);
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) col = g_list_model_get_item (columns, i);

      if (g_strcmp0 (gtk_column_view_column_get_title (col), "Attached") == 0)
        gtk_column_view_sort_by_column (view, col, GTK_SORT_DESCENDING);
    }
  last = G_MAXUINT32;
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (TressChaNode) node = gtk_tree_list_row_get_item (row);

      if (tress_cha_node_get_kind (node) != TRESS_CHA_NODE_RIBBON
          || tress_cha_node_get_material (node) != 0)
        continue;
      g_assert_cmpuint (file->radeon->materials[0].attach[tress_cha_node_get_ribbon (node)], <=,
                        last);
      last = file->radeon->materials[0].attach[tress_cha_node_get_ribbon (node)];
      n_ribbons++;
    }
  g_assert_cmpuint (n_ribbons, ==, file->radeon->materials[0].n_ribbons);

  spin0 = find_widget (GTK_WIDGET (tress_fur_editor_get_inspector (f->editor)),
                       GTK_TYPE_SPIN_BUTTON, NULL, "Reference 1", 0);
  g_assert_nonnull (spin0);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin0), 100);
  {
    const TressChaLine *line = line_of (file, 0, 0, 0);

    g_assert_cmpuint (tress_cha_line_get_weight (line, 0), ==, 100);
    g_assert_cmpuint (line->weights[0] + line->weights[1] + line->weights[2], ==, 255);
  }
}

/* The inspector's fields edit only what they show and what was typed: leaving
 * a direction field that rounds its value changes nothing; one component or one
 * body part changes that alone on every selected line or ribbon (the others
 * keep their own); each field is its own undo step; editing a field that the
 * inspector rebuilds gives no GTK warning (the suite makes them fatal). */
static void
test_inspector_fields (Fixture *f, gconstpointer data)
{
  TressChaFile *file = tress_cha_document_get_cha (f->doc);
  TressHistory *history = tress_document_get_history (TRESS_DOCUMENT (f->doc));
  GtkWidget *inspector = GTK_WIDGET (tress_fur_editor_get_inspector (f->editor));
  const TressChaMaterial *m = &file->radeon->materials[0];
  GtkWidget *dir_y = find_widget (inspector, GTK_TYPE_SPIN_BUTTON, NULL, "direction y", 0);
  guint first, n, steps, a = G_MAXUINT, b = G_MAXUINT;
  g_autofree float *before = NULL; /* x, y, z per line */

  g_assert_nonnull (dir_y);
  /* A ribbon whose lines point different ways. */
  for (guint r = 0; r < m->n_ribbons && a == G_MAXUINT; r++)
    if (tress_cha_material_ribbon_lines (m, r, &first, &n) && n >= 2
        && memcmp (m->lines[first].direction, m->lines[first + 1].direction, 12) != 0)
      a = r;
  g_assert_cmpuint (a, !=, G_MAXUINT);
  g_assert_true (tress_cha_material_ribbon_lines (m, a, &first, &n));
  before = g_new (float, 3 * (gsize)n);
  for (guint i = 0; i < n; i++)
    memcpy (before + 3 * i, m->lines[first + i].direction, 12);
  tress_cha_document_set_selection (f->doc, &(TressChaRibbonId){ 0, a }, 1, NULL);
  tress_test_wait_idle ();
  steps = tress_history_get_n_undo (history);

  /* The lines' y differ: the field says so; leaving it as it is is no edit. */
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (dir_y)), ==, "");
  gtk_spin_button_update (GTK_SPIN_BUTTON (dir_y));
  tress_test_wait_idle ();
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, steps);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (dir_y)), ==, "");
  for (guint i = 0; i < n; i++)
    g_assert_cmpmem (m->lines[first + i].direction, 12, before + 3 * i, 12);

  /* A typed y: every line gets it, x and z stay each line's own. */
  gtk_editable_set_text (GTK_EDITABLE (dir_y), "0.1523");
  g_signal_emit_by_name (gtk_editable_get_delegate (GTK_EDITABLE (dir_y)), "activate");
  tress_test_wait_idle ();
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, steps + 1);
  g_assert_true (g_str_has_prefix (tress_history_get_undo_label (history), "Set direction y of "));
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpfloat (m->lines[first + i].direction[1], ==, 0.1523f);
      g_assert_cmpfloat (m->lines[first + i].direction[0], ==, before[3 * i]);
      g_assert_cmpfloat (m->lines[first + i].direction[2], ==, before[3 * i + 2]);
    }
  /* Now alike, y shows rounded to the field's digits; leaving the field
   * (which reads back what it shows) is no edit. */
  TRESS_TEST_WAIT_FOR (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (dir_y)), "0.152") == 0);
  gtk_spin_button_update (GTK_SPIN_BUTTON (dir_y));
  tress_test_wait_idle ();
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, steps + 1);
  g_assert_cmpfloat (m->lines[first].direction[1], ==, 0.1523f);

  /* Two weight fields: two steps, labelled by the reference as shown. */
  steps = tress_history_get_n_undo (history);
  gtk_spin_button_set_value (
      GTK_SPIN_BUTTON (find_widget (inspector, GTK_TYPE_SPIN_BUTTON, NULL, "Reference 1", 0)), 100);
  gtk_spin_button_set_value (
      GTK_SPIN_BUTTON (find_widget (inspector, GTK_TYPE_SPIN_BUTTON, NULL, "Reference 3", 0)), 50);
  tress_test_wait_idle ();
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, steps + 2);
  g_assert_true (g_str_has_prefix (tress_history_get_undo_label (history), "Set weight 3 of "));

  /* Body part 3 of two ribbons whose other references differ. */
  for (guint r = 0; r < m->n_ribbons && b == G_MAXUINT; r++)
    {
      guint f2, n2;

      if (r != a && tress_cha_material_ribbon_lines (m, r, &f2, &n2) && n2 > 0
          && memcmp (m->lines[f2].refs, m->lines[first].refs, 4) != 0)
        b = r;
    }
  g_assert_cmpuint (b, !=, G_MAXUINT);
  {
    TressChaRibbonId both[2] = { { 0, a }, { 0, b } };
    GtkWidget *part3 = find_widget (inspector, GTK_TYPE_DROP_DOWN, NULL, "body part 3", 0);
    guint fb, nb, entry;
    guint16 b_refs[3];

    g_assert_true (tress_cha_material_ribbon_lines (m, b, &fb, &nb));
    memcpy (b_refs, m->lines[fb].refs, sizeof b_refs);
    tress_cha_document_set_selection (f->doc, both, 2, NULL);
    tress_test_wait_idle ();
    entry = (m->lines[first].refs[2] / 3 + 1) % m->n_applied;
    gtk_drop_down_set_selected (GTK_DROP_DOWN (part3), entry);
    tress_test_wait_idle ();
    g_assert_cmpuint (m->lines[fb].refs[0], ==, b_refs[0]);
    g_assert_cmpuint (m->lines[fb].refs[1], ==, b_refs[1]);
    g_assert_cmpuint (m->lines[fb].refs[2], ==, 3 * entry);
    g_assert_cmpuint (m->lines[first].refs[2], ==, 3 * entry);
    g_assert_true (
        g_str_has_prefix (tress_history_get_undo_label (history), "Set body part 3 of 2 ribbons"));
  }

  /* A length field, which the inspector rebuilds after the edit. */
  {
    GtkWidget *lengths = find_widget (inspector, GTK_TYPE_LABEL, "base (max", NULL, 0);
    GtkWidget *spin;

    g_assert_nonnull (lengths);
    spin = gtk_widget_get_next_sibling (lengths);
    g_assert_true (GTK_IS_SPIN_BUTTON (spin));
    gtk_widget_grab_focus (spin);
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 0.05);
    tress_test_wait_idle ();
    g_assert_true (g_str_has_prefix (tress_history_get_undo_label (history), "Set length of "));
  }
}

static const char *
spin_text (GtkWidget *inspector, const char *name)
{
  return gtk_editable_get_text (
      GTK_EDITABLE (find_widget (inspector, GTK_TYPE_SPIN_BUTTON, NULL, name, 0)));
}

/* Types @text into the spin button @name as a user does: a click into its
 * text, Ctrl+A, the keys, Enter. */
static void
type_into (GtkWidget *inspector, const char *name, const char *text)
{
  GtkWidget *spin = find_widget (inspector, GTK_TYPE_SPIN_BUTTON, NULL, name, 0);

  scroll_into_view (spin);
  click (spin, 8, gtk_widget_get_height (spin) / 2.0);
  TRESS_TEST_WAIT_FOR (gtk_widget_get_state_flags (spin) & GTK_STATE_FLAG_FOCUS_WITHIN);
  tress_test_pointer_key (GDK_KEY_Control_L, TRUE);
  tress_test_pointer_key (GDK_KEY_a, TRUE);
  tress_test_pointer_key (GDK_KEY_a, FALSE);
  tress_test_pointer_key (GDK_KEY_Control_L, FALSE);
  tress_test_pointer_key (GDK_KEY_Delete, TRUE);
  tress_test_pointer_key (GDK_KEY_Delete, FALSE);
  for (const char *c = text; *c != '\0'; c++)
    {
      guint keyval = gdk_unicode_to_keyval ((guint32)*c);

      tress_test_pointer_key (keyval, TRUE);
      tress_test_pointer_key (keyval, FALSE);
    }
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, text);
  tress_test_pointer_key (GDK_KEY_Return, TRUE);
  tress_test_pointer_key (GDK_KEY_Return, FALSE);
  tress_test_wait_idle ();
}

/* Two ribbons whose lines differ: every differing field is empty (its
 * placeholder says "—") instead of
 * the first line's value; leaving it is no edit; typing a value (even the
 * first line's) sets it on all; a mixed drop-down offers "(mixed)", which
 * sets nothing, and its other entries set all. */
static void
test_mixed_values (Fixture *f, gconstpointer data)
{
  TressChaFile *file = tress_cha_document_get_cha (f->doc);
  TressHistory *history = tress_document_get_history (TRESS_DOCUMENT (f->doc));
  GtkWidget *inspector = GTK_WIDGET (tress_fur_editor_get_inspector (f->editor));
  const TressChaMaterial *m = &file->radeon->materials[0];
  GtkWidget *part1 = find_widget (inspector, GTK_TYPE_DROP_DOWN, NULL, "body part 1", 0);
  GtkWidget *attach = find_widget (inspector, GTK_TYPE_DROP_DOWN, NULL, "attached to", 0);
  guint a = G_MAXUINT, b = G_MAXUINT, fa, na, fb, nb, steps, n_lines, i;
  g_autofree TressChaLineId *lines = NULL;
  guint8 colour;

  if (!tress_test_pointer_available (GTK_WIDGET (f->window)))
    return;

  /* Two ribbons with different weights, first references, attachments and colours. */
  for (guint r = 0; r + 1 < m->n_ribbons && b == G_MAXUINT; r++)
    for (guint q = r + 1; q < MIN (m->n_ribbons, r + 400) && b == G_MAXUINT; q++)
      if (tress_cha_material_ribbon_lines (m, r, &fa, &na)
          && tress_cha_material_ribbon_lines (m, q, &fb, &nb)
          && m->lines[fa].weights[2] != m->lines[fb].weights[2]
          && m->lines[fa].refs[0] != m->lines[fb].refs[0] && m->attach[r] != m->attach[q]
          && m->lines[fa].colour[0] != m->lines[fb].colour[0])
        {
          a = r;
          b = q;
        }
  g_assert_cmpuint (b, !=, G_MAXUINT);
  tress_cha_document_set_selection (f->doc, (TressChaRibbonId[]){ { 0, a }, { 0, b } }, 2, NULL);
  TRESS_TEST_WAIT_FOR (g_strcmp0 (spin_text (inspector, "Reference 1"), "") == 0);
  g_assert_cmpstr (spin_text (inspector, "colour 1"), ==, "");
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (part1)), ==, m->n_applied);
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (attach)), ==, m->n_applied);
  steps = tress_history_get_n_undo (history);

  /* Leaving a mixed field as it is, or choosing "(mixed)": no edit. */
  type_into (inspector, "Reference 1", "");
  scroll_into_view (part1);
  choose_entry (part1, "(mixed)");
  tress_test_wait_idle ();
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, steps);

  /* A weight typed: all lines. */
  type_into (inspector, "Reference 1", "120");
  TRESS_TEST_WAIT_FOR (g_strcmp0 (spin_text (inspector, "Reference 1"), "120") == 0);
  lines = tress_cha_document_get_selected_lines (f->doc, &n_lines);
  for (i = 0; i < n_lines; i++)
    g_assert_cmpuint (tress_cha_line_get_weight (&m->lines[lines[i].line], 0), ==, 120);

  /* The first line's own colour typed: the others get it too. */
  colour = m->lines[fa].colour[0];
  {
    g_autofree char *text = g_strdup_printf ("%u", colour);

    type_into (inspector, "colour 1", text);
    TRESS_TEST_WAIT_FOR (g_strcmp0 (spin_text (inspector, "colour 1"), text) == 0);
  }
  for (i = 0; i < n_lines; i++)
    g_assert_cmpuint (m->lines[lines[i].line].colour[0], ==, colour);

  /* A mixed drop-down's entry: every ribbon attached there. */
  scroll_into_view (attach);
  {
    g_autofree char *label
        = tress_fur_names_label (tress_fur_editor_get_names (f->editor), m->applied[1]);

    choose_entry (attach, label);
  }
  TRESS_TEST_WAIT_FOR (
      gtk_drop_down_get_selected (GTK_DROP_DOWN (attach)) == 1
      && g_list_model_get_n_items (gtk_drop_down_get_model (GTK_DROP_DOWN (attach)))
             == m->n_applied);
  g_assert_cmpuint (m->attach[a], ==, m->applied[1]);
  g_assert_cmpuint (m->attach[b], ==, m->applied[1]);
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, steps + 3);
  tress_test_pointer_move (GTK_WIDGET (f->window), 1, 1);
}

/* Whether a label under @root shows exactly @text. */
static gboolean
shows_label (GtkWidget *root, const char *text)
{
  GtkWidget *child;

  if (GTK_IS_LABEL (root) && gtk_widget_get_mapped (root)
      && g_strcmp0 (gtk_label_get_text (GTK_LABEL (root)), text) == 0)
    return TRUE;
  for (child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (shows_label (child, text))
      return TRUE;
  return FALSE;
}

/* A body part named in the inspector: the tree's Attached column, the
 * inspector's drop-downs and the search show and find it by its name. */
static void
test_part_names (Fixture *f, gconstpointer data)
{
  TressChaFile *file = tress_cha_document_get_cha (f->doc);
  GtkWidget *inspector = GTK_WIDGET (tress_fur_editor_get_inspector (f->editor));
  GtkWidget *tree = GTK_WIDGET (tress_fur_editor_get_column_view (f->editor));
  GListModel *rows = G_LIST_MODEL (tress_fur_editor_get_tree_selection (f->editor));
  const TressChaMaterial *m = &file->radeon->materials[0];
  guint32 part = m->attach[1];
  g_autofree char *label = g_strdup_printf ("%u · left leg", part);
  GtkWidget *attach = find_widget (inspector, GTK_TYPE_DROP_DOWN, NULL, "attached to", 0);
  guint n_ribbons = 0;

  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (f->editor), "fur.select-ribbons", "s", "0:1"));
  tress_test_wait_idle ();
  gtk_spin_button_set_value (
      GTK_SPIN_BUTTON (find_widget (inspector, GTK_TYPE_SPIN_BUTTON, NULL, "name part", 0)), part);
  gtk_editable_set_text (
      GTK_EDITABLE (find_widget (inspector, GTK_TYPE_ENTRY, NULL, "name entry", 0)), "left leg");
  g_signal_emit_by_name (find_widget (inspector, GTK_TYPE_BUTTON, "Name", NULL, 0), "clicked");

  /* The ribbon's row, on screen, and the drop-down's entry. */
  TRESS_TEST_WAIT_FOR (shows_label (tree, label));
  {
    GListModel *model = gtk_drop_down_get_model (GTK_DROP_DOWN (attach));
    g_autoptr (GtkStringObject) item
        = g_list_model_get_item (model, (guint)tress_cha_material_find_applied (m, part));

    g_assert_cmpstr (gtk_string_object_get_string (item), ==, label);
  }
  /* Searching by the name leaves the ribbons on that part. */
  gtk_editable_set_text (tress_fur_editor_get_search (f->editor), "left leg");
  TRESS_TEST_WAIT_FOR (g_list_model_get_n_items (rows) < file->radeon->materials[0].n_ribbons);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (TressChaNode) node = gtk_tree_list_row_get_item (row);

      if (tress_cha_node_get_kind (node) != TRESS_CHA_NODE_RIBBON)
        continue;
      g_assert_true (ribbon_weighs_on (file, (guint)tress_cha_node_get_material (node),
                                       (guint)tress_cha_node_get_ribbon (node), part)
                     || file->radeon->materials[tress_cha_node_get_material (node)]
                                .attach[tress_cha_node_get_ribbon (node)]
                            == part);
      n_ribbons++;
    }
  g_assert_cmpuint (n_ribbons, >, 2);
  gtk_editable_set_text (tress_fur_editor_get_search (f->editor), "");
  /* Unnamed again: the bare number. */
  gtk_editable_set_text (
      GTK_EDITABLE (find_widget (inspector, GTK_TYPE_ENTRY, NULL, "name entry", 0)), "");
  g_signal_emit_by_name (find_widget (inspector, GTK_TYPE_BUTTON, "Name", NULL, 0), "clicked");
  TRESS_TEST_WAIT_FOR (!shows_label (tree, label));
}

static const guint8 *
pixel_at (GBytes *pixels, int w, int x, int y)
{
  return (const guint8 *)g_bytes_get_data (pixels, NULL) + 4 * ((gsize)y * w + x);
}

static gboolean
is_rgb (const guint8 *p, guint r, guint g, guint b)
{
  return p[0] == r && p[1] == g && p[2] == b;
}

/* Opens the demo and waits for the preview; NULL (the test skipped) without GL. */
static TressFurPreview *
preview_of (TressFurEditor *editor)
{
  TressFurPreview *preview = tress_fur_editor_get_preview (editor);
  GBytes *probe;
  int w, h;

  TRESS_TEST_WAIT_FOR (tress_fur_preview_get_gl_ready (preview)
                       || tress_fur_preview_get_gl_error (preview));
  if (!tress_fur_preview_get_gl_ready (preview))
    {
      g_test_skip (tress_fur_preview_get_gl_error (preview));
      return NULL;
    }
  TRESS_TEST_WAIT_FOR ((probe = tress_fur_preview_grab (preview, &w, &h)) != NULL);
  g_bytes_unref (probe);
  return preview;
}

/* Global ribbon @g's base length. */
static float
ribbon_length (const TressFurMesh *mesh, guint g)
{
  guint mi, r;

  g_assert_true (tress_fur_mesh_ribbon_id (mesh, g, &mi, &r));
  return mesh->file->radeon->materials[mi].lengths[0][r];
}

/* A click on a ribbon in the preview (a real click, through XTest): the
 * ribbon is selected, and drawn in the highlight colour over the others with
 * a dark outline around it, even where it was hidden behind others. */
static void
test_pick_highlight (Fixture *f, gconstpointer data)
{
  TressFurPreview *preview = preview_of (f->editor);
  g_autoptr (GBytes) before = NULL;
  g_autoptr (GBytes) after = NULL;
  const TressFurMesh *mesh;
  const TressChaRibbonId *sel;
  int w, h, px, py, outline = 0, highlight = 0, hidden = -1, picked;
  double x, y;
  guint n;

  if (preview == NULL || !tress_test_pointer_available (GTK_WIDGET (f->window)))
    return;
  mesh = tress_fur_preview_get_mesh (preview);
  before = tress_fur_preview_grab (preview, &w, &h);
  /* A long ribbon (a mane's: 0.2 or more, many pixels at this zoom) in the
   * middle of the fur, and a click on it. */
  for (guint g = 0; g < mesh->n_ribbons && hidden < 0; g += 7)
    if (ribbon_length (mesh, g) >= 0.2f && tress_fur_preview_ribbon_position (preview, g, &x, &y)
        && x > 20 && y > 20 && x < w - 20 && y < h - 20)
      {
        /* Where a pixel either way still picks it: the click's rounding is no matter. */
        gboolean steady = TRUE;

        x = floor (x) + 0.5;
        y = floor (y) + 0.5;
        for (int dy = -1; dy <= 1; dy++)
          for (int dx = -1; dx <= 1; dx++)
            steady &= tress_fur_preview_hover (preview, x + dx, y + dy) == (int)g;
        if (steady)
          hidden = (int)g;
      }
  g_assert_cmpint (hidden, >=, 0);
  tress_fur_preview_hover (preview, -100, -100);
  /* The overlay lies exactly over the GL area: the same coordinates. */
  click (GTK_WIDGET (tress_fur_preview_get_overlay (preview)), x, y);
  sel = tress_cha_document_get_selection (f->doc, &n);
  g_assert_cmpuint (n, ==, 1);
  picked = (int)tress_fur_mesh_global (mesh, sel[0].material, sel[0].ribbon);
  g_assert_cmpint (picked, ==, hidden);
  g_assert_cmpuint (n_selected_rows (f->editor), ==, 1);
  /* The tree opened the ribbon's material and scrolled its row into view. */
  {
    GtkWidget *tree = GTK_WIDGET (tress_fur_editor_get_column_view (f->editor));
    GtkWidget *view = gtk_widget_get_ancestor (tree, GTK_TYPE_SCROLLED_WINDOW);
    g_autofree char *row = g_strdup_printf ("ribbon %u", sel[0].ribbon);
    GtkWidget *label = NULL;
    graphene_rect_t in;

    g_assert_nonnull (view);
    TRESS_TEST_WAIT_FOR ((label = find_shown_label (tree, row)) != NULL
                         && gtk_widget_compute_bounds (label, view, &in) && in.origin.y >= 0
                         && in.origin.y + in.size.height <= gtk_widget_get_height (view));
  }

  after = tress_fur_preview_grab (preview, &w, &h);
  px = (int)x;
  py = (int)y;
  g_assert_true (is_rgb (pixel_at (after, w, px, py), TRESS_FUR_HIGHLIGHT_R, TRESS_FUR_HIGHLIGHT_G,
                         TRESS_FUR_HIGHLIGHT_B));
  g_assert_false (is_rgb (pixel_at (before, w, px, py), TRESS_FUR_HIGHLIGHT_R,
                          TRESS_FUR_HIGHLIGHT_G, TRESS_FUR_HIGHLIGHT_B));
  /* Around it: the highlight, and its outline next to it. */
  for (int yy = MAX (py - 40, 1); yy < MIN (py + 40, h - 1); yy++)
    for (int xx = MAX (px - 40, 1); xx < MIN (px + 40, w - 1); xx++)
      {
        const guint8 *p = pixel_at (after, w, xx, yy);

        if (is_rgb (p, TRESS_FUR_HIGHLIGHT_R, TRESS_FUR_HIGHLIGHT_G, TRESS_FUR_HIGHLIGHT_B))
          highlight++;
        else if (is_rgb (p, TRESS_FUR_OUTLINE_R, TRESS_FUR_OUTLINE_G, TRESS_FUR_OUTLINE_B))
          outline++;
      }
  g_test_message ("%d highlight and %d outline pixels around the pick", highlight, outline);
  g_assert_cmpint (highlight, >, 10);
  g_assert_cmpint (outline, >, highlight / 4);
  g_assert_cmpuint (count_pixels (before, TRUE), ==, 0);

  /* Selected from the tree, a ribbon hidden behind others comes on top. */
  {
    int behind = -1;
    double bx = 0, by = 0;
    g_autoptr (GBytes) shown = NULL;

    for (guint g = 0; g < mesh->n_ribbons && behind < 0; g++)
      if (tress_fur_preview_ribbon_position (preview, g, &bx, &by) && bx > 2 && by > 2 && bx < w - 2
          && by < h - 2 && tress_fur_preview_hover (preview, bx, by) >= 0
          && tress_fur_preview_hover (preview, bx, by) != (int)g)
        behind = (int)g;
    tress_fur_preview_hover (preview, -100, -100);
    g_assert_cmpint (behind, >=, 0);
    {
      guint mi, r;
      g_autofree char *list = NULL;

      g_assert_true (tress_fur_mesh_ribbon_id (mesh, (guint)behind, &mi, &r));
      list = g_strdup_printf ("%u:%u", mi, r);
      g_assert_true (
          gtk_widget_activate_action (GTK_WIDGET (f->editor), "fur.select-ribbons", "s", list));
    }
    shown = tress_fur_preview_grab (preview, &w, &h);
    g_assert_true (is_rgb (pixel_at (shown, w, (int)bx, (int)by), TRESS_FUR_HIGHLIGHT_R,
                           TRESS_FUR_HIGHLIGHT_G, TRESS_FUR_HIGHLIGHT_B));
  }
  tress_test_pointer_move (GTK_WIDGET (f->window), 1, 1);
}

/* The squared distance of a pixel's colour from the background. */
static guint
from_background (const guint8 *p)
{
  int r = p[0] - TRESS_FUR_BACKGROUND_R, g = p[1] - TRESS_FUR_BACKGROUND_G;
  int b = p[2] - TRESS_FUR_BACKGROUND_B;

  return (guint)(r * r + g * g + b * b);
}

/* The legend's swatches, as the window shows them: each the colour it says. */
static void
assert_legend_drawn (TressWindow *window, TressFurOverlay *overlay)
{
  g_autofree char *png = g_build_filename (tress_test_tmpdir (), "legend.png", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  g_autofree guint8 *pixels = NULL;
  int tw, th;
  guint n = tress_fur_overlay_get_legend_size (overlay);

  g_assert_cmpuint (n, >, 0);
  /* Past the window's page transitions: the render shows what is on screen. */
  for (GtkWidget *w = GTK_WIDGET (overlay); w != NULL; w = gtk_widget_get_parent (w))
    if (GTK_IS_STACK (w))
      TRESS_TEST_WAIT_FOR (!gtk_stack_get_transition_running (GTK_STACK (w)));
  tress_test_wait_frame (GTK_WIDGET (window));
  /* The window draws nothing while a new layout is pending: try again after
   * the next frame. */
  for (guint tries = 0; !tress_window_render_png (GTK_WINDOW (window), png, &error); tries++)
    {
      g_assert_true (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK));
      g_assert_cmpuint (tries, <, 100);
      g_clear_error (&error);
      tress_test_wait_frame (GTK_WIDGET (window));
    }
  texture = gdk_texture_new_from_filename (png, &error);
  g_assert_no_error (error);
  tw = gdk_texture_get_width (texture);
  th = gdk_texture_get_height (texture);
  pixels = g_malloc ((gsize)tw * th * 4);
  gdk_texture_download (texture, pixels, (gsize)tw * 4);
  for (guint i = 0; i < n; i++)
    {
      graphene_rect_t swatch;
      graphene_point_t c;
      guint8 rgb[3];
      const guint8 *p;

      g_assert_true (tress_fur_overlay_get_legend_entry (overlay, i, NULL, rgb, &swatch));
      g_assert_true (
          gtk_widget_compute_point (GTK_WIDGET (overlay), GTK_WIDGET (window),
                                    &GRAPHENE_POINT_INIT (swatch.origin.x + swatch.size.width / 2,
                                                          swatch.origin.y + swatch.size.height / 2),
                                    &c));
      g_assert_cmpint ((int)c.x, <, tw);
      g_assert_cmpint ((int)c.y, <, th);
      /* gdk_texture_download gives B, G, R, A on little-endian machines. */
      p = pixels + 4 * ((gsize)(int)c.y * tw + (int)c.x);
      g_assert_cmpint (ABS ((int)p[2] - rgb[0]), <=, 2);
      g_assert_cmpint (ABS ((int)p[1] - rgb[1]), <=, 2);
      g_assert_cmpint (ABS ((int)p[0] - rgb[2]), <=, 2);
    }
}

/* The body part the most ribbons are attached to (the legend lists it first). */
static guint32
most_attached (TressChaFile *file)
{
  g_autoptr (GHashTable) counts = g_hash_table_new (g_direct_hash, g_direct_equal);
  guint best = 0;
  guint32 part = 0;

  for (guint k = 0; k < file->radeon->n_materials; k++)
    {
      const TressChaMaterial *m = &file->radeon->materials[k];

      for (guint r = 0; r < m->n_ribbons; r++)
        {
          gpointer key = GUINT_TO_POINTER (m->attach[r] + 1);
          guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, key)) + 1;

          g_hash_table_insert (counts, key, GUINT_TO_POINTER (n));
          if (n > best || (n == best && m->attach[r] < part))
            {
              best = n;
              part = m->attach[r];
            }
        }
    }
  return part;
}

/* Isolate dims every ribbon but the selected ones; each colour mode has its
 * legend, drawn over the picture, naming the body parts by their names. All
 * through the preview's own buttons and drop-downs, clicked. */
static void
test_isolate_and_legend (Fixture *f, gconstpointer data)
{
  TressFurPreview *preview = preview_of (f->editor);
  TressChaFile *file = tress_cha_document_get_cha (f->doc);
  TressFurOverlay *overlay;
  GtkWidget *isolate, *colour, *part_dropdown;
  g_autoptr (GBytes) plain = NULL;
  g_autoptr (GBytes) isolated = NULL;
  guint64 far_plain = 0, far_isolated = 0;
  guint hl_plain, hl_isolated;
  int w, h;
  const char *label;
  guint32 part = most_attached (file), shown;
  g_autofree char *named = g_strdup_printf ("%u · tail", part);

  if (preview == NULL || !tress_test_pointer_available (GTK_WIDGET (f->window)))
    return;
  overlay = tress_fur_preview_get_overlay (preview);
  isolate = find_by_tooltip (GTK_WIDGET (preview), GTK_TYPE_TOGGLE_BUTTON, "Isolate");
  colour = find_by_tooltip (GTK_WIDGET (preview), GTK_TYPE_DROP_DOWN, "Colour by");
  part_dropdown = find_widget (GTK_WIDGET (preview), GTK_TYPE_DROP_DOWN, NULL, "body part", 0);
  g_assert_nonnull (isolate);
  g_assert_nonnull (colour);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->editor), "fur.select-ribbons", "s",
                                             "0:0,0:10,0:20,0:30,0:40,0:50"));
  plain = tress_fur_preview_grab (preview, &w, &h);
  click_middle (isolate);
  g_assert_true (tress_fur_preview_get_isolate (preview));
  isolated = tress_fur_preview_grab (preview, &w, &h);
  hl_plain = count_pixels (plain, TRUE);
  hl_isolated = count_pixels (isolated, TRUE);
  for (gsize i = 0; i < (gsize)w * h; i++)
    {
      far_plain += from_background ((const guint8 *)g_bytes_get_data (plain, NULL) + 4 * i);
      far_isolated += from_background ((const guint8 *)g_bytes_get_data (isolated, NULL) + 4 * i);
    }
  g_test_message ("isolate: %u → %u highlight pixels, colour off the background %" G_GUINT64_FORMAT
                  " → %" G_GUINT64_FORMAT,
                  hl_plain, hl_isolated, far_plain, far_isolated);
  /* The selection stays as it is; the rest fades toward the background. */
  g_assert_cmpuint (hl_isolated, ==, hl_plain);
  g_assert_cmpuint (hl_plain, >, 20);
  g_assert_cmpuint (far_isolated, <, far_plain / 2);

  /* Body parts: the attachments, with their names, and the selection. */
  g_assert_true (tress_fur_names_set (tress_fur_editor_get_names (f->editor), part, "tail", NULL));
  g_assert_cmpstr (tress_fur_overlay_get_legend_title (overlay), ==, "Attached to");
  {
    gboolean selected = FALSE;

    /* The part with the most ribbons first, by its name. */
    g_assert_true (tress_fur_overlay_get_legend_entry (overlay, 0, &label, NULL, NULL));
    g_assert_cmpstr (label, ==, named);
    for (guint i = 0; i < tress_fur_overlay_get_legend_size (overlay); i++)
      {
        g_assert_true (tress_fur_overlay_get_legend_entry (overlay, i, &label, NULL, NULL));
        selected |= g_str_has_prefix (label, "selected (6 ribbons");
      }
    g_assert_true (selected);
  }
  assert_legend_drawn (f->window, overlay);

  /* Weight of the named part, chosen by its name: the weight scale. */
  choose_entry (colour, "Weight of part");
  choose_entry (part_dropdown, named);
  g_assert_cmpint (tress_fur_preview_get_colour_mode (preview, &shown), ==,
                   TRESS_FUR_COLOUR_WEIGHT);
  g_assert_cmpuint (shown, ==, part);
  {
    g_autofree char *title = g_strdup_printf ("Weight on %s", named);

    g_assert_cmpstr (tress_fur_overlay_get_legend_title (overlay), ==, title);
  }
  assert_legend_drawn (f->window, overlay);
  /* Quality and problems: each its own legend. */
  choose_entry (colour, "Quality");
  g_assert_cmpstr (tress_fur_overlay_get_legend_title (overlay), ==, "Texture quality");
  g_assert_cmpuint (tress_fur_overlay_get_legend_size (overlay), ==, 5);
  assert_legend_drawn (f->window, overlay);
  choose_entry (colour, "Problems");
  g_assert_cmpstr (tress_fur_overlay_get_legend_title (overlay), ==, "Problems");
  g_assert_true (tress_fur_overlay_get_legend_entry (overlay, 0, &label, NULL, NULL));
  g_assert_cmpstr (label, ==, "with problems (0 ribbons)");
  assert_legend_drawn (f->window, overlay);
  choose_entry (colour, "Body part");
  g_assert_cmpstr (tress_fur_overlay_get_legend_title (overlay), ==, "Attached to");

  /* Isolate off: the other ribbons come back. */
  click_middle (isolate);
  g_assert_false (tress_fur_preview_get_isolate (preview));
  g_clear_pointer (&isolated, g_bytes_unref);
  isolated = tress_fur_preview_grab (preview, &w, &h);
  g_assert_true (g_bytes_equal (plain, isolated));
  g_assert_true (tress_fur_names_set (tress_fur_editor_get_names (f->editor), part, "", NULL));
  tress_test_pointer_move (GTK_WIDGET (f->window), 1, 1);
}

/* The box around the pixels of the picture that are fur (@highlight: the
 * selection's), as x0, y0, x1, y1 (inclusive); FALSE when there are none. */
static gboolean
pixel_box (GBytes *pixels, int w, int h, gboolean highlight, int box[4])
{
  box[0] = w;
  box[1] = h;
  box[2] = box[3] = -1;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const guint8 *p = pixel_at (pixels, w, x, y);
        gboolean hit = highlight ? is_rgb (p, TRESS_FUR_HIGHLIGHT_R, TRESS_FUR_HIGHLIGHT_G,
                                           TRESS_FUR_HIGHLIGHT_B)
                                 : !is_rgb (p, TRESS_FUR_BACKGROUND_R, TRESS_FUR_BACKGROUND_G,
                                            TRESS_FUR_BACKGROUND_B);

        if (hit)
          {
            box[0] = MIN (box[0], x);
            box[1] = MIN (box[1], y);
            box[2] = MAX (box[2], x);
            box[3] = MAX (box[3], y);
          }
      }
  return box[2] >= 0;
}

/* "Frame selection" and "Frame all", with their buttons and their keys: the
 * first fills the view with the selected ribbon, the second brings the whole
 * creature back into view, inside its edges, wherever the view had gone. */
static void
test_frame_buttons (Fixture *f, gconstpointer data)
{
  TressFurPreview *preview = preview_of (f->editor);
  GtkWidget *frame_all, *frame_selection;
  g_autoptr (GBytes) start = NULL;
  g_autoptr (GBytes) framed = NULL;
  g_autoptr (GBytes) all = NULL;
  g_autoptr (GBytes) keyed = NULL;
  int w, h, box[4], sel_start[4], sel_framed[4];

  if (preview == NULL || !tress_test_pointer_available (GTK_WIDGET (f->window)))
    return;
  frame_all = find_by_tooltip (GTK_WIDGET (preview), GTK_TYPE_BUTTON, "Frame all");
  frame_selection = find_by_tooltip (GTK_WIDGET (preview), GTK_TYPE_BUTTON, "Frame the selection");
  g_assert_nonnull (frame_all);
  g_assert_nonnull (frame_selection);
  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (f->editor), "fur.select-ribbons", "s", "0:5"));
  start = tress_fur_preview_grab (preview, &w, &h);
  g_assert_true (pixel_box (start, w, h, TRUE, sel_start));

  /* Frame selection: the one ribbon, large and in the middle. */
  click_middle (frame_selection);
  framed = tress_fur_preview_grab (preview, &w, &h);
  g_assert_true (pixel_box (framed, w, h, TRUE, sel_framed));
  g_test_message ("selection %d×%d px, framed %d×%d px in %d×%d", sel_start[2] - sel_start[0] + 1,
                  sel_start[3] - sel_start[1] + 1, sel_framed[2] - sel_framed[0] + 1,
                  sel_framed[3] - sel_framed[1] + 1, w, h);
  g_assert_cmpint (MAX (sel_framed[2] - sel_framed[0], sel_framed[3] - sel_framed[1]), >,
                   MIN (w, h) / 3);
  g_assert_cmpint (MAX (sel_framed[2] - sel_framed[0], sel_framed[3] - sel_framed[1]), >,
                   2 * MAX (sel_start[2] - sel_start[0], sel_start[3] - sel_start[1]));
  g_assert_cmpint (ABS ((sel_framed[0] + sel_framed[2]) / 2 - w / 2), <, w / 4);
  g_assert_cmpint (ABS ((sel_framed[1] + sel_framed[3]) / 2 - h / 2), <, h / 4);
  /* The rest of the creature is now bigger than the view. */
  g_assert_true (pixel_box (framed, w, h, FALSE, box));
  g_assert_true (box[0] == 0 || box[1] == 0 || box[2] == w - 1 || box[3] == h - 1);

  /* Frame all, after the view went far off: every ribbon inside the view,
   * the creature filling a good part of it, not only the selection. */
  tress_fur_preview_orbit (preview, 60, 10);
  tress_fur_preview_zoom (preview, 8);
  click_middle (frame_all);
  all = tress_fur_preview_grab (preview, &w, &h);
  g_assert_true (pixel_box (all, w, h, FALSE, box));
  g_test_message ("whole creature framed: x %d..%d, y %d..%d in %d×%d", box[0], box[2], box[1],
                  box[3], w, h);
  g_assert_cmpint (box[0], >, 0);
  g_assert_cmpint (box[1], >, 0);
  g_assert_cmpint (box[2], <, w - 1);
  g_assert_cmpint (box[3], <, h - 1);
  g_assert_cmpint (MAX ((box[2] - box[0]) * h, (box[3] - box[1]) * w), >, w * h / 2);
  g_assert_true (pixel_box (all, w, h, TRUE, sel_framed));
  g_assert_cmpint (sel_framed[2] - sel_framed[0], <, box[2] - box[0]);

  /* The keys do the same (the focus is on the button just clicked). */
  tress_test_pointer_key (GDK_KEY_Control_L, TRUE);
  tress_test_pointer_key (GDK_KEY_Shift_L, TRUE);
  tress_test_pointer_key (GDK_KEY_f, TRUE);
  tress_test_pointer_key (GDK_KEY_f, FALSE);
  tress_test_pointer_key (GDK_KEY_Shift_L, FALSE);
  keyed = tress_fur_preview_grab (preview, &w, &h);
  g_assert_true (pixel_box (keyed, w, h, TRUE, sel_framed));
  g_assert_cmpint (MAX (sel_framed[2] - sel_framed[0], sel_framed[3] - sel_framed[1]), >,
                   MIN (w, h) / 3);
  tress_test_pointer_key (GDK_KEY_Home, TRUE);
  tress_test_pointer_key (GDK_KEY_Home, FALSE);
  tress_test_pointer_key (GDK_KEY_Control_L, FALSE);
  g_clear_pointer (&keyed, g_bytes_unref);
  keyed = tress_fur_preview_grab (preview, &w, &h);
  g_assert_true (g_bytes_equal (keyed, all));
  tress_test_pointer_move (GTK_WIDGET (f->window), 1, 1);
}

static guint64
line_key (guint material, guint line)
{
  return ((guint64)material << 32) | line;
}

/* A paint stroke with the real pointer on the demo creature, toward a body
 * part: only lines under the brush's path change, every triple still sums to
 * 255 and no byte but weights changes; the stroke is one undo step naming its
 * lines and part, the colouring followed it, and undo gives back the bytes. */
static void
test_paint_stroke (Fixture *f, gconstpointer data)
{
  g_autoptr (GBytes) original = tress_test_read_file (f->path);
  g_autoptr (TressChaFile) reference = tress_cha_file_parse (original, NULL);
  TressHistory *history = tress_document_get_history (TRESS_DOCUMENT (f->doc));
  TressChaFile *file = tress_cha_document_get_cha (f->doc);
  TressFurPreview *preview = preview_of (f->editor);
  GtkWidget *overlay, *part_dropdown;
  g_autoptr (GBytes) before_pixels = NULL;
  g_autoptr (GBytes) after_pixels = NULL;
  g_autoptr (GBytes) painted = NULL;
  g_autoptr (GBytes) undone = NULL;
  g_autoptr (GHashTable) under = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  const double radius = 18;
  double x0, x1, y;
  int w, h, start;
  guint32 target;
  guint changed = 0, steps;
  const TressFurMesh *mesh;
  guint mi, r;

  if (preview == NULL || !tress_test_pointer_available (GTK_WIDGET (f->window)))
    return;
  overlay = GTK_WIDGET (tress_fur_preview_get_overlay (preview));
  mesh = tress_fur_preview_get_mesh (preview);
  before_pixels = tress_fur_preview_grab (preview, &w, &h);
  /* A stroke across the middle of the fur, toward the part of the ribbon there. */
  y = h * 0.5;
  x0 = w * 0.35;
  x1 = w * 0.65;
  start = tress_fur_preview_hover (preview, w * 0.5, y);
  g_assert_cmpint (start, >=, 0);
  g_assert_true (tress_fur_mesh_ribbon_id (mesh, (guint)start, &mi, &r));
  target = file->radeon->materials[mi].attach[r];
  tress_fur_preview_hover (preview, -100, -100);

  /* Into paint mode with its button, the part from the drop-down. */
  click (find_widget (GTK_WIDGET (preview), GTK_TYPE_TOGGLE_BUTTON, "Paint weights", NULL, 0), 10,
         10);
  g_assert_true (tress_fur_preview_get_paint_mode (preview));
  part_dropdown = find_widget (GTK_WIDGET (preview), GTK_TYPE_DROP_DOWN, NULL, "body part", 0);
  {
    g_autofree char *label = g_strdup_printf ("%u", target);

    choose_entry (part_dropdown, label);
  }
  {
    guint32 shown;

    g_assert_cmpint (tress_fur_preview_get_colour_mode (preview, &shown), ==,
                     TRESS_FUR_COLOUR_WEIGHT);
    g_assert_cmpuint (shown, ==, target);
  }
  tress_fur_preview_set_brush (preview, radius, 0.6);
  g_clear_pointer (&before_pixels, g_bytes_unref);
  before_pixels = tress_fur_preview_grab (preview, &w, &h);
  steps = tress_history_get_n_undo (history);

  /* The brush circle follows the pointer. */
  tress_test_pointer_move (overlay, x0, y);
  {
    double bx, by, br;

    g_assert_true (tress_fur_overlay_get_brush (TRESS_FUR_OVERLAY (overlay), &bx, &by, &br));
    g_assert_cmpfloat (fabs (bx - x0), <, 1.5);
    g_assert_cmpfloat (br, ==, radius);
  }
  {
    double ax, ay, bx, by;

    g_assert_true (tress_fur_preview_ribbon_position (preview, (guint)start, &ax, &ay));
    tress_test_pointer_button (1, TRUE);
    for (guint i = 1; i <= 12; i++)
      {
        tress_test_pointer_move (overlay, x0 + (x1 - x0) * i / 12, y);
        if (i == 6)
          {
            /* Mid-stroke, the button still down: the frames have painted
             * the dabs so far, and the colouring shows them already. */
            g_autoptr (GBytes) mid_pixels = NULL;

            TRESS_TEST_WAIT_FOR (tress_fur_preview_get_n_pending_dabs (preview) == 0);
            tress_test_wait_frame (GTK_WIDGET (preview));
            g_assert_cmpuint (tress_history_get_n_undo (history), ==, steps);
            mid_pixels = tress_fur_preview_grab (preview, &w, &h);
            g_assert_false (g_bytes_equal (before_pixels, mid_pixels));
          }
      }
    tress_test_pointer_button (1, FALSE);
    /* Painting moved no camera. */
    g_assert_true (tress_fur_preview_ribbon_position (preview, (guint)start, &bx, &by));
    g_assert_cmpfloat (ax, ==, bx);
    g_assert_cmpfloat (ay, ==, by);
  }

  /* One step, named. */
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, steps + 1);
  /* The lines any brush along the path covers. */
  for (double x = x0 - 2; x <= x1 + 2; x += 1)
    {
      g_autoptr (GArray) lines = g_array_new (FALSE, FALSE, sizeof (TressChaLineId));

      for (double dy = -1.5; dy <= 1.5; dy += 1.5)
        tress_fur_preview_lines_under (preview, x, y + dy, radius + 1, lines);
      for (guint i = 0; i < lines->len; i++)
        {
          TressChaLineId *id = &g_array_index (lines, TressChaLineId, i);
          guint64 key = line_key (id->material, id->line);

          g_hash_table_add (under, g_memdup2 (&key, sizeof key));
        }
    }
  for (guint k = 0; k < file->radeon->n_materials; k++)
    {
      const TressChaMaterial *a = &file->radeon->materials[k];
      const TressChaMaterial *b = &reference->radeon->materials[k];

      for (guint l = 0; l < a->n_lines; l++)
        {
          const TressChaLine *x = &a->lines[l], *o = &b->lines[l];
          gsize wo = G_STRUCT_OFFSET (TressChaLine, weights);
          guint64 key = line_key (k, l);

          g_assert_cmpuint (x->weights[0] + x->weights[1] + x->weights[2], ==, 255);
          g_assert_cmpmem (x, wo, o, wo);
          g_assert_cmpmem ((const guint8 *)x + wo + 3, TRESS_CHA_LINE_SIZE - wo - 3,
                           (const guint8 *)o + wo + 3, TRESS_CHA_LINE_SIZE - wo - 3);
          if (memcmp (x->weights, o->weights, 3) == 0)
            continue;
          changed++;
          g_assert_true (g_hash_table_contains (under, &key));
        }
    }
  g_test_message ("stroke: %u lines changed, %u lines under the path; %s", changed,
                  g_hash_table_size (under), tress_fur_preview_get_paint_status (preview));
  g_assert_cmpuint (changed, >, 10);
  {
    g_autofree char *label
        = g_strdup_printf ("Paint weights of %u lines toward part %u", changed, target);

    g_assert_cmpstr (tress_history_get_undo_label (history), ==, label);
  }
  g_assert_true (g_str_has_prefix (tress_fur_preview_get_paint_status (preview), "Painted "));
  /* The weight colouring changed where the brush went. */
  after_pixels = tress_fur_preview_grab (preview, &w, &h);
  g_assert_false (g_bytes_equal (before_pixels, after_pixels));

  /* Undo: the very bytes of the file; redo: the stroke again. */
  painted = tress_cha_file_serialize (file);
  {
    GtkWidget *undo
        = find_by_tooltip (GTK_WIDGET (f->window), GTK_TYPE_BUTTON, "Undo Paint weights");

    g_assert_nonnull (undo);
    click_middle (undo);
  }
  undone = tress_cha_file_serialize (file);
  tress_test_assert_bytes_equal (original, undone);
  /* What the stroke did is no longer said once it is undone. */
  g_assert_true (g_str_has_prefix (tress_fur_preview_get_paint_status (preview), "Paint toward "));
  g_assert_false (tress_document_get_modified (TRESS_DOCUMENT (f->doc)));
  g_clear_pointer (&after_pixels, g_bytes_unref);
  after_pixels = tress_fur_preview_grab (preview, &w, &h);
  g_assert_true (g_bytes_equal (before_pixels, after_pixels));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.redo", NULL));
  {
    g_autoptr (GBytes) redone = tress_cha_file_serialize (file);

    tress_test_assert_bytes_equal (painted, redone);
  }
  tress_test_pointer_move (GTK_WIDGET (f->window), 1, 1);
}

/* Puts @field in the middle of its scrolled panel's view. */
static void
scroll_into_view (GtkWidget *field)
{
  GtkWidget *panel = gtk_widget_get_ancestor (field, GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (panel));
  GtkWidget *content = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (panel));
  graphene_point_t p;

  wait_placed (field);

  /* The scrolled content, not the viewport that shows it. */
  if (GTK_IS_VIEWPORT (content))
    content = gtk_viewport_get_child (GTK_VIEWPORT (content));
  g_assert_true (gtk_widget_compute_point (field, content, &GRAPHENE_POINT_INIT (0, 0), &p));
  gtk_adjustment_set_value (adj, p.y - gtk_adjustment_get_page_size (adj) / 2);
  tress_test_wait_frame (panel);
}

/* The mouse wheel over the inspector, as a user scrolls down it: the panel
 * scrolls and no value changes, whatever field passes under the pointer
 * (spin buttons, drop-downs). Once a field has the focus (clicked into), the
 * wheel changes that field: the GNOME convention. */
static void
test_wheel_over_inspector (Fixture *f, gconstpointer data)
{
  TressHistory *history;
  GtkWidget *inspector, *panel;
  GtkAdjustment *adj;
  g_autoptr (GBytes) before = NULL;
  static const struct
  {
    GType (*type) (void);
    const char *name;
  } fields[] = {
    { gtk_spin_button_get_type, "Reference 2" },
    { gtk_drop_down_get_type, "body part 1" },
    { gtk_spin_button_get_type, "direction y" },
    { gtk_drop_down_get_type, "attached to" },
  };
  guint steps;

  if (!tress_test_pointer_available (GTK_WIDGET (f->window)))
    return;
  history = tress_document_get_history (TRESS_DOCUMENT (f->doc));
  inspector = GTK_WIDGET (tress_fur_editor_get_inspector (f->editor));
  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (f->editor), "fur.select-ribbons", "s", "0:1,0:2"));
  tress_test_wait_idle ();
  before = tress_cha_file_serialize (tress_cha_document_get_cha (f->doc));
  steps = tress_history_get_n_undo (history);
  panel = find_widget (inspector, GTK_TYPE_SCROLLED_WINDOW, NULL, NULL, 0);
  adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (panel));
  TRESS_TEST_WAIT_FOR (gtk_adjustment_get_upper (adj) > 0);
  /* At 960 × 640 the inspector is taller than its pane. */
  g_assert_cmpfloat (gtk_adjustment_get_upper (adj), >, gtk_adjustment_get_page_size (adj) + 100);

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      GtkWidget *field = find_widget (inspector, fields[i].type (), NULL, fields[i].name, 0);
      double top, up, down;

      g_assert_nonnull (field);
      g_assert_true (gtk_widget_is_sensitive (field));
      scroll_into_view (field);
      top = gtk_adjustment_get_value (adj);
      tress_test_pointer_move (field, gtk_widget_get_width (field) / 2.0,
                               gtk_widget_get_height (field) / 2.0);
      tress_test_pointer_scroll (-2);
      up = gtk_adjustment_get_value (adj);
      tress_test_pointer_scroll (5);
      down = gtk_adjustment_get_value (adj);
      /* The panel moved (each way, unless at its end), nothing was edited. */
      g_assert_true (up < top || top == 0);
      g_assert_cmpfloat (down, >, up);
      g_assert_cmpuint (tress_history_get_n_undo (history), ==, steps);
      g_assert_false (tress_document_get_modified (TRESS_DOCUMENT (f->doc)));
    }
  {
    g_autoptr (GBytes) after = tress_cha_file_serialize (tress_cha_document_get_cha (f->doc));

    tress_test_assert_bytes_equal (before, after);
  }

  /* Clicked into, the field takes the wheel. */
  {
    GtkWidget *spin = find_widget (inspector, GTK_TYPE_SPIN_BUTTON, NULL, "section", 0);
    double value, top;

    scroll_into_view (spin);
    value = gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin));
    tress_test_pointer_move (spin, 8, gtk_widget_get_height (spin) / 2.0);
    tress_test_pointer_button (1, TRUE);
    tress_test_pointer_button (1, FALSE);
    g_assert_true (gtk_widget_get_state_flags (spin) & GTK_STATE_FLAG_FOCUS_WITHIN);
    top = gtk_adjustment_get_value (adj);
    tress_test_pointer_scroll (-1);
    g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin)), ==, value + 1);
    g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==, top);
    g_assert_cmpuint (tress_history_get_n_undo (history), ==, steps + 1);
  }
  tress_test_pointer_move (GTK_WIDGET (f->window), 1, 1);
}

/* The tree expander showing @kind node (section or material @index), or NULL. */
static GtkWidget *
find_expander (GtkWidget *root, TressChaNodeKind kind, int index)
{
  GtkWidget *child;

  if (GTK_IS_TREE_EXPANDER (root) && gtk_widget_get_mapped (root)
      && gtk_widget_get_width (root) > 0)
    {
      g_autoptr (TressChaNode) node = gtk_tree_expander_get_item (GTK_TREE_EXPANDER (root));

      if (node != NULL && tress_cha_node_get_kind (node) == kind
          && (kind == TRESS_CHA_NODE_SECTION ? tress_cha_node_get_section (node)
                                             : tress_cha_node_get_material (node))
                 == index)
        return root;
    }
  for (child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_expander (child, kind, index);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Waits until @widget is on screen and stays where it is for two frames: a
 * panel just filled or scrolled is laid out on a later frame, and a click must
 * land where the widget is drawn, not where it was. */
static void
wait_placed (GtkWidget *widget)
{
  graphene_point_t was = GRAPHENE_POINT_INIT (-1e6f, -1e6f), now;
  GdkFrameClock *clock;
  gint64 since = -1;

  for (;;)
    {
      TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (widget) && gtk_widget_get_width (widget) > 0);
      clock = gtk_widget_get_frame_clock (widget);
      g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (gtk_widget_get_native (widget)),
                                               &GRAPHENE_POINT_INIT (0, 0), &now));
      if (!graphene_point_equal (&now, &was))
        {
          was = now;
          since = gdk_frame_clock_get_frame_counter (clock);
        }
      else if (gdk_frame_clock_get_frame_counter (clock) >= since + 2)
        return;
      tress_test_wait_frame (widget);
    }
}

static void
click (GtkWidget *widget, double x, double y)
{
  wait_placed (widget);
  tress_test_pointer_move (widget, x, y);
  tress_test_pointer_button (1, TRUE);
  tress_test_pointer_button (1, FALSE);
}

/* A click in the middle of @widget, which must be on screen. */
static void
click_middle (GtkWidget *widget)
{
  /* Laid out first, should it have just appeared. */
  TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (widget) && gtk_widget_get_width (widget) > 0);
  click (widget, gtk_widget_get_width (widget) / 2.0, gtk_widget_get_height (widget) / 2.0);
}

/* The mapped widget of @type under @root whose tooltip starts with @tip. */
static GtkWidget *
find_by_tooltip (GtkWidget *root, GType type, const char *tip)
{
  GtkWidget *child;

  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type) && gtk_widget_get_mapped (root)
      && g_str_has_prefix (gtk_widget_get_tooltip_text (root) ?: "", tip))
    return root;
  for (child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_by_tooltip (child, type, tip);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The label under @root showing exactly @text, on screen, or NULL. */
static GtkWidget *
find_shown_label (GtkWidget *root, const char *text)
{
  GtkWidget *child;

  if (GTK_IS_LABEL (root) && gtk_widget_get_mapped (root) && gtk_widget_get_width (root) > 0
      && g_strcmp0 (gtk_label_get_text (GTK_LABEL (root)), text) == 0)
    return root;
  for (child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_shown_label (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Chooses the entry @text of @dropdown as a user does: a click opens its list,
 * a click on the entry takes it. */
static void
choose_entry (GtkWidget *dropdown, const char *text)
{
  GtkWidget *popover = NULL, *label = NULL;

  click_middle (dropdown);
  popover = find_widget (dropdown, GTK_TYPE_POPOVER, NULL, NULL, 0);
  g_assert_nonnull (popover);
  TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (popover) && gtk_widget_get_width (popover) > 0);
  tress_test_wait_frame (popover);
  /* Down the list until the entry is inside the popover, as a user scrolls to it. */
  {
    GtkWidget *list = find_widget (popover, GTK_TYPE_SCROLLED_WINDOW, NULL, NULL, 0);
    GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (list));

    for (;;)
      {
        graphene_rect_t in;

        label = find_shown_label (popover, text);
        if (label != NULL && gtk_widget_compute_bounds (label, list, &in) && in.origin.y >= 0
            && in.origin.y + in.size.height <= gtk_widget_get_height (list))
          break;
        g_assert_cmpfloat (gtk_adjustment_get_value (adj), <,
                           gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj));
        gtk_adjustment_set_value (adj, gtk_adjustment_get_value (adj)
                                           + gtk_adjustment_get_page_size (adj) / 2);
        tress_test_wait_frame (list);
      }
  }
  click_middle (label);
  TRESS_TEST_WAIT_FOR (!gtk_widget_get_mapped (popover));
}

/* Clicking the "hybrid" row (a section kept as it is) and then opening the
 * rows above it, as a user looks around: no warnings (the test aborts on
 * any), nothing selected, the material opens. */
static void
test_hybrid_row (Fixture *f, gconstpointer data)
{
  GtkWidget *tree = GTK_WIDGET (tress_fur_editor_get_column_view (f->editor));
  GtkWidget *hybrid, *radeon, *material;
  guint n;

  if (!tress_test_pointer_available (GTK_WIDGET (f->window)))
    return;
  TRESS_TEST_WAIT_FOR ((hybrid = find_expander (tree, TRESS_CHA_NODE_SECTION, 1)) != NULL);
  click (hybrid, gtk_widget_get_width (hybrid) / 2.0, gtk_widget_get_height (hybrid) / 2.0);
  g_assert_cmpuint (n_selected_rows (f->editor), ==, 1);
  tress_cha_document_get_selection (f->doc, &n);
  g_assert_cmpuint (n, ==, 0);
  /* The expander arrows sit at the start of their rows. */
  radeon = find_expander (tree, TRESS_CHA_NODE_SECTION, 0);
  click (radeon, 8, gtk_widget_get_height (radeon) / 2.0);
  TRESS_TEST_WAIT_FOR ((material = find_expander (tree, TRESS_CHA_NODE_MATERIAL, 0)) != NULL);
  /* (click() waits until the row stays where it is drawn) */
  click (material, 24, gtk_widget_get_height (material) / 2.0);
  TRESS_TEST_WAIT_FOR (
      g_list_model_get_n_items (G_LIST_MODEL (tress_fur_editor_get_tree_selection (f->editor)))
      > 100);
  tress_test_wait_idle ();
  tress_cha_document_get_selection (f->doc, &n);
  g_assert_cmpuint (n, ==, 0);
  tress_test_pointer_move (GTK_WIDGET (f->window), 1, 1);
}

/* The middle of a UV box of @row (0: hairs of one section), in the map. */
static void
box_middle (TressUvMap *map, const TressChaMaterial *m, guint row, guint group, double *x,
            double *y)
{
  TressUvLayout layout = { m->uv_rows, m->uv_groups, m->uv_pieces };
  TressUvPiece piece = { row, group, 1 };
  guint first = (guint)tress_uv_piece_first_point (&layout, &piece);
  double ax, ay, bx, by;

  tress_uv_map_get_point_position (map, first, &ax, &ay);
  tress_uv_map_get_point_position (map, first + tress_uv_piece_n_points (row) - 1, &bx, &by);
  *x = (ax + bx) / 2;
  *y = (ay + by) / 2;
}

/* The UV link both ways: the selected ribbons' rows are highlighted in the
 * UV map; a click on a box (a real click) selects the ribbons of its row,
 * Ctrl+click adds those of another. */
static void
test_uv_link (Fixture *f, gconstpointer data)
{
  TressChaFile *file = tress_cha_document_get_cha (f->doc);
  const TressChaMaterial *m = &file->radeon->materials[0];
  TressUvMap *map = tress_fur_editor_get_uv_map (f->editor);
  guint s0 = m->n_sections[0], n, expected = 0;
  const TressChaRibbonId *sel;
  double x, y;

  tress_fur_editor_show_page (f->editor, 1);
  TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (GTK_WIDGET (map))
                       && gtk_widget_get_width (GTK_WIDGET (map)) > 0);
  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (f->editor), "fur.select-ribbons", "s", "0:0"));
  for (guint row = 0; row < m->uv_rows; row++)
    g_assert_cmpint (tress_uv_map_row_is_used (map, row), ==, row == s0 - 1);
  if (!tress_test_pointer_available (GTK_WIDGET (f->window)))
    return;

  /* A click on a box of the row of 4 sections. */
  box_middle (map, m, 3, 1, &x, &y);
  click (GTK_WIDGET (map), x, y);
  sel = tress_cha_document_get_selection (f->doc, &n);
  for (guint r = 0; r < m->n_ribbons; r++)
    expected += m->n_sections[r] == 4;
  g_assert_cmpuint (expected, >, 10);
  g_assert_cmpuint (n, ==, expected);
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (m->n_sections[sel[i].ribbon], ==, 4);
  g_assert_true (tress_uv_map_row_is_used (map, 3));
  tress_uv_map_hover (map, x, y);
  {
    g_autofree char *used
        = g_strdup_printf ("%u ribbons of 4 sections (%u selected)", expected, expected);

    g_assert_nonnull (strstr (tress_uv_map_get_hover_text (map), used));
  }

  /* Ctrl+click: the ribbons of 2 sections as well. */
  box_middle (map, m, 1, 0, &x, &y);
  tress_test_pointer_key (GDK_KEY_Control_L, TRUE);
  click (GTK_WIDGET (map), x, y);
  tress_test_pointer_key (GDK_KEY_Control_L, FALSE);
  for (guint r = 0; r < m->n_ribbons; r++)
    expected += m->n_sections[r] == 2;
  sel = tress_cha_document_get_selection (f->doc, &n);
  g_assert_cmpuint (n, ==, expected);
  g_assert_true (tress_uv_map_row_is_used (map, 1));
  g_assert_true (tress_uv_map_row_is_used (map, 3));
  g_assert_false (tress_uv_map_row_is_used (map, 4));
  tress_test_pointer_move (GTK_WIDGET (f->window), 1, 1);
}

/* The UV map's background: a DDS decoded by the project, and a PNG. */
static void
test_uv_background (void)
{
  g_autofree char *dds = g_build_filename (tress_test_tmpdir (), "t_strand.dds", NULL);
  g_autofree char *png = g_build_filename (tress_test_tmpdir (), "strand.png", NULL);
  guint8 file[128 + 8] = { 'D', 'D', 'S', ' ', 124 };
  GtkWidget *map = tress_uv_map_new ();
  g_autoptr (GFile) f = g_file_new_for_path (dds);
  g_autoptr (GFile) p = g_file_new_for_path (png);
  g_autoptr (GError) error = NULL;
  GdkTexture *texture;

  g_object_ref_sink (map);
  file[12] = 4;  /* height */
  file[16] = 4;  /* width */
  file[76] = 32; /* pixel format size */
  file[80] = 4;  /* FOURCC */
  memcpy (file + 84, "DXT1", 4);
  g_assert_true (g_file_set_contents (dds, (const char *)file, sizeof file, NULL));
  g_assert_true (tress_uv_map_load_background (TRESS_UV_MAP (map), f, &error));
  g_assert_no_error (error);
  texture = tress_uv_map_get_background (TRESS_UV_MAP (map));
  g_assert_cmpint (gdk_texture_get_width (texture), ==, 4);
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_assert_true (tress_uv_map_load_background (TRESS_UV_MAP (map), p, &error));
  g_assert_true (tress_uv_map_get_background (TRESS_UV_MAP (map)) != texture);
  /* A truncated DDS is refused with the field named; the old background stays. */
  g_assert_true (g_file_set_contents (dds, (const char *)file, 130, NULL));
  g_assert_false (tress_uv_map_load_background (TRESS_UV_MAP (map), f, &error));
  g_assert_nonnull (strstr (error->message, "DDS block data"));
  g_assert_nonnull (tress_uv_map_get_background (TRESS_UV_MAP (map)));
  tress_test_assert_finalized (map, TRUE, "the UV map");
}

/* Body-part names typed by the user come back for the same file. */
static void
test_names (void)
{
  g_autoptr (TressFurNames) names = tress_fur_names_new ("file:///tmp/lion.cha");
  g_autoptr (TressFurNames) again = NULL;
  g_autoptr (TressFurNames) other = tress_fur_names_new ("file:///tmp/wolf.cha");
  g_autoptr (GError) error = NULL;
  g_autofree char *label = NULL;

  g_assert_true (tress_fur_names_set (names, 5, "left leg", &error));
  g_assert_no_error (error);
  again = tress_fur_names_new ("file:///tmp/lion.cha");
  g_assert_cmpstr (tress_fur_names_get (again, 5), ==, "left leg");
  g_assert_null (tress_fur_names_get (other, 5));
  label = tress_fur_names_label (again, 5);
  g_assert_cmpstr (label, ==, "5 · left leg");
  g_assert_true (tress_fur_names_set (again, 5, "", &error));
  g_clear_object (&names);
  names = tress_fur_names_new ("file:///tmp/lion.cha");
  g_assert_null (tress_fur_names_get (names, 5));
}

/* Every line's weights broken: the problem list sums each rule up after a
 * hundred places of a material, but the banner and the inspector count every
 * problem, and the preview marks every broken ribbon, not only the listed ones. */
static void
break_every_line (TressChaFile *file)
{
  for (guint mi = 0; mi < file->radeon->n_materials; mi++)
    {
      TressChaMaterial *m = &file->radeon->materials[mi];

      for (guint i = 0; i < m->n_lines; i++)
        m->lines[i].weights[0] ^= 1;
    }
}

static void
test_problems_past_the_list (Fixture *f, gconstpointer data)
{
  TressChaFile *file = tress_cha_document_get_cha (f->doc);
  g_autofree char *count = NULL, *marked = NULL;
  guint n_lines = 0, n_ribbons = 0;
  TressFurPreview *preview;
  TressFurOverlay *overlay;
  const char *label;

  for (guint mi = 0; mi < file->radeon->n_materials; mi++)
    {
      n_lines += file->radeon->materials[mi].n_lines;
      n_ribbons += file->radeon->materials[mi].n_ribbons;
    }
  g_assert_cmpuint (n_lines, >, 1000);
  preview = preview_of (f->editor);
  if (preview == NULL || !tress_test_pointer_available (GTK_WIDGET (f->window)))
    return;
  count = g_strdup_printf ("%u problems", n_lines);
  g_assert_cmpstr (tress_fur_editor_get_problems_banner (f->editor), ==, count);
  g_assert_nonnull (find_widget (GTK_WIDGET (tress_fur_editor_get_inspector (f->editor)),
                                 GTK_TYPE_LABEL, count, NULL, 0));

  overlay = tress_fur_preview_get_overlay (preview);
  choose_entry (find_by_tooltip (GTK_WIDGET (preview), GTK_TYPE_DROP_DOWN, "Colour by"),
                "Problems");
  g_assert_cmpstr (tress_fur_overlay_get_legend_title (overlay), ==, "Problems");
  g_assert_true (tress_fur_overlay_get_legend_entry (overlay, 0, &label, NULL, NULL));
  marked = g_strdup_printf ("with problems (%u ribbons)", n_ribbons);
  g_assert_cmpstr (label, ==, marked);
  tress_test_pointer_move (GTK_WIDGET (f->window), 1, 1);
}

int
main (int argc, char *argv[])
{
  static const FurFile ribbon_6_broken = { break_ribbon_6 };
  static const FurFile three_broken = { break_three_ribbons };
  static const FurFile every_line_broken = { break_every_line };

  gl_disabled = g_strcmp0 (g_getenv ("GDK_DEBUG"), "gl-disable") == 0;
  tress_test_window_init (&argc, &argv);
#define ADD(path, file, fn) g_test_add (path, Fixture, file, fixture_setup, fn, fixture_teardown)
  if (gl_disabled)
    ADD ("/fur/window/no-gl", NULL, test_no_gl);
  else
    {
      ADD ("/fur/window/edit-cycle", NULL, test_edit_cycle);
      ADD ("/fur/window/tree", NULL, test_tree);
      ADD ("/fur/window/hybrid-row", NULL, test_hybrid_row);
      ADD ("/fur/window/triangle-drag", NULL, test_triangle_drag);
      ADD ("/fur/window/uv-map", NULL, test_uv_map);
      ADD ("/fur/window/uv-link", NULL, test_uv_link);
      ADD ("/fur/window/preview", NULL, test_preview);
      ADD ("/fur/window/preview-lod", NULL, test_preview_lod);
      ADD ("/fur/window/preview-edit-in-place", NULL, test_preview_edit_in_place);
      ADD ("/fur/window/pick-highlight", NULL, test_pick_highlight);
      ADD ("/fur/window/isolate-and-legend", NULL, test_isolate_and_legend);
      ADD ("/fur/window/frame-buttons", NULL, test_frame_buttons);
      ADD ("/fur/window/paint-stroke", NULL, test_paint_stroke);
      ADD ("/fur/window/retarget-dialog", NULL, test_retarget_dialog);
      ADD ("/fur/window/retarget-dialog-left-open", NULL, test_retarget_dialog_left_open);
      ADD ("/fur/window/background-chooser-left-open", NULL, test_background_chooser_left_open);
      ADD ("/fur/window/problem-fix", &ribbon_6_broken, test_problem_fix);
      ADD ("/fur/window/problems-banner", &three_broken, test_problems_banner);
      ADD ("/fur/window/problems-past-the-list", &every_line_broken, test_problems_past_the_list);
      ADD ("/fur/window/sort-and-spin", NULL, test_sort_and_spin);
      ADD ("/fur/window/inspector-fields", NULL, test_inspector_fields);
      ADD ("/fur/window/mixed-values", NULL, test_mixed_values);
      ADD ("/fur/window/part-names", NULL, test_part_names);
      ADD ("/fur/window/wheel-over-inspector", NULL, test_wheel_over_inspector);
      g_test_add_func ("/fur/uv-background", test_uv_background);
      g_test_add_func ("/fur/names", test_names);
    }
#undef ADD
  return g_test_run ();
}
