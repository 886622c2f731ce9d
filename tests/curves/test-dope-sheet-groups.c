/* test-dope-sheet-groups.c: the dope sheet's rows, with a real pointer
 *
 * On Animal_Dog_Animation.bfres at 960 × 640: the Skeletal kind's rows (its
 * animations closed: 51 rows made, not 6,000), a group opened and closed
 * with a click on its triangle and with the channel list's expander, one
 * state for both; the curves tree built once when the file opens. On the
 * NIFF samples: the tree's first row drawn with its name, a scene's root
 * object standing for the curves below it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "dope-sheet-fixture.h"

/* A mapped label of @root's whose text is @text, or NULL. */
static GtkWidget *
mapped_label (GtkWidget *root, const char *text)
{
  if (GTK_IS_LABEL (root) && gtk_widget_get_mapped (root)
      && g_strcmp0 (gtk_label_get_text (GTK_LABEL (root)), text) == 0)
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = mapped_label (c, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The NIFF samples: kirikobu.niff's first tree row (its kind, NIFF1 KEY)
 * is drawn with its name (it showed blank when the tree was built twice);
 * on Rings.niff, NIFF_Scene_Root (an object with no curves of its own)
 * stands for the curves below it, so the sheet shows them, not an empty
 * row; with nothing shown the sheet has no rows. */
static void
test_niff_rows (void)
{
  Fixture f = { 0 };
  GArray *curves;
  GtkWidget *label;
  int row;

  if (!fixture_open_sample (&f, "niff/kirikobu.niff", "Dope_kirikobu.niff", 960, 640))
    return;
  WAIT_FOR ((label = mapped_label (GTK_WIDGET (f.editor), "NIFF1 KEY")) != NULL);
  g_assert_cmpint (gtk_widget_get_width (label), >, 0);
  fixture_close (&f);

  f = (Fixture){ 0 };
  if (!fixture_open_sample (&f, "niff/Rings.niff", "Dope_Rings.niff", 960, 640))
    return;
  row = tree_row (&f, "NIFF_Scene_Root");
  g_assert_cmpint (row, >=, 0);
  tress_curve_editor_click_row (f.editor, (guint)row, FALSE, FALSE);
  WAIT_FOR (tress_dope_sheet_get_n_rows (f.sheet) > 2);
  curves = shown_curves (&f);
  g_test_message ("NIFF_Scene_Root: %u curves, %u rows", curves->len,
                  tress_dope_sheet_get_n_rows (f.sheet));
  g_assert_cmpuint (curves->len, >, 0);
  g_assert_cmpuint (curves->len, ==, tress_curve_document_get_n_curves (f.cd));
  for (guint r = 0; r < tress_dope_sheet_get_n_rows (f.sheet); r++)
    g_assert_cmpuint (tress_dope_sheet_get_row_curves (f.sheet, r)->len, >, 0);
  /* Nothing shown (Ctrl+click deselects): the summary holds no curves (the
   * sheet says what to choose instead of drawing an empty, "locked" row). */
  tress_curve_editor_click_row (f.editor, (guint)row, TRUE, FALSE);
  WAIT_FOR (tress_curve_view_get_n_curves (f.view) == 0);
  g_assert_cmpuint (tress_dope_sheet_get_row_curves (f.sheet, 0)->len, ==, 0);
  fixture_close (&f);
}

/* Opening the file builds the curves tree once, nested by the skeleton the
 * preview loads (it was built flat, then again nested). */
static void
test_tree_built_once (void)
{
  Fixture f = { 0 };

  if (!fixture_open (&f, 960, 640))
    return;
  WAIT_FOR (tress_curve_document_get_skeleton (f.cd) != NULL);
  tress_test_spin (50);
  g_assert_cmpuint (tress_curve_document_get_n_tree_builds (f.cd), ==, 1);
  fixture_close (&f);
}

/* The sheet's row named @name at depth @depth, or -1. */
static int
sheet_row (Fixture *f, const char *name, guint depth)
{
  for (guint r = 0; r < tress_dope_sheet_get_n_rows (f->sheet); r++)
    if (tress_dope_sheet_get_row_depth (f->sheet, r) == depth
        && g_strcmp0 (tress_dope_sheet_get_row_name (f->sheet, r), name) == 0)
      return (int)r;
  return -1;
}

/* The channel list's row of group @name, or NULL. */
static GtkTreeListRow *
channel_row (Fixture *f, const char *name)
{
  GListModel *rows = G_LIST_MODEL (
      tress_curve_channel_list_get_selection (tress_curve_editor_get_channel_list (f->editor)));

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (TressCurveChannel) c = gtk_tree_list_row_get_item (row);

      if (tress_curve_channel_get_curve (c) < 0
          && g_strcmp0 (tress_curve_channel_get_name (c), name) == 0)
        return g_steal_pointer (&row);
    }
  return NULL;
}

/* The Skeletal kind row (4,464 curves): a summary and its 50 animations
 * with curves, closed, so that 51 rows are made, not one per bone and
 * channel; drawn with at most a mark per pixel column of each row on
 * screen. A click on an animation's triangle opens it (its bones, closed)
 * and the channel list opens it too; a bone opened in the channel list
 * opens in the sheet, with a row per channel; a second click closes the
 * animation. */
static void
test_skeletal_rows (void)
{
  Fixture f = { 0 };
  guint n_rows, n_bones = 0, n_channels = 0;
  int key_width, wait, bone = -1;
  g_autoptr (GtkTreeListRow) wait_channel = NULL;
  g_autoptr (GtkTreeListRow) bone_channel = NULL;
  g_autofree char *bone_name = NULL;

  if (!fixture_open (&f, 960, 640))
    return;
  show_node (&f, "Skeletal");
  n_rows = tress_dope_sheet_get_n_rows (f.sheet);
  g_assert_cmpuint (shown_curves (&f)->len, ==, 4464);
  g_assert_null (tress_dope_sheet_get_row_name (f.sheet, 0));
  g_assert_cmpstr (tress_dope_sheet_get_row_name (f.sheet, 1), ==, "Damage");
  /* Free_Fall has no curves: 50 animations have rows, closed. */
  g_assert_cmpuint (n_rows, ==, 51);
  for (guint r = 1; r < n_rows; r++)
    {
      g_assert_cmpuint (tress_dope_sheet_get_row_depth (f.sheet, r), ==, 1);
      g_assert_false (tress_dope_sheet_get_row_open (f.sheet, r));
      g_assert_cmpint (tress_dope_sheet_get_row_channel (f.sheet, r), ==, -1);
    }
  gtk_widget_queue_draw (GTK_WIDGET (f.sheet));
  WAIT_FOR (tress_dope_sheet_get_n_marks_drawn (f.sheet) > 0);
  key_width = gtk_widget_get_width (GTK_WIDGET (f.sheet));
  g_test_message ("%u rows, %u marks drawn", n_rows, tress_dope_sheet_get_n_marks_drawn (f.sheet));
  /* Bounded by the screen: at most a mark per pixel column of each row shown. */
  g_assert_cmpuint (tress_dope_sheet_get_n_marks_drawn (f.sheet), <=,
                    (guint)key_width
                        * (guint)(gtk_widget_get_height (GTK_WIDGET (f.sheet)) / 20 + 1));

  /* A click on Wait's triangle opens it, here and in the channel list. */
  wait = sheet_row (&f, "Wait", 1);
  g_assert_cmpint (wait, >, 0);
  tress_dope_sheet_set_first_row (f.sheet, (guint)wait);
  tress_test_spin (30);
  wait_channel = channel_row (&f, "Wait");
  g_assert_nonnull (wait_channel);
  g_assert_false (gtk_tree_list_row_get_expanded (wait_channel));
  tress_test_pointer_click (GTK_WIDGET (f.sheet),
                            tress_dope_sheet_get_disclosure_x (f.sheet, (guint)wait),
                            sheet_y (&f, (guint)wait));
  WAIT_FOR (tress_dope_sheet_get_row_open (f.sheet, (guint)wait));
  g_assert_true (gtk_tree_list_row_get_expanded (wait_channel));
  for (guint r = (guint)wait + 1;
       r < tress_dope_sheet_get_n_rows (f.sheet) && tress_dope_sheet_get_row_depth (f.sheet, r) > 1;
       r++)
    {
      g_assert_cmpuint (tress_dope_sheet_get_row_depth (f.sheet, r), ==, 2);
      g_assert_false (tress_dope_sheet_get_row_open (f.sheet, r));
      if (bone < 0 && tress_dope_sheet_get_row_channel (f.sheet, r) < 0)
        bone = (int)r;
      n_bones++;
    }
  g_test_message ("Wait opened: %u bones, %u rows", n_bones, tress_dope_sheet_get_n_rows (f.sheet));
  g_assert_cmpuint (n_bones, >, 0);
  g_assert_cmpuint (tress_dope_sheet_get_n_rows (f.sheet), ==, n_rows + n_bones);

  /* A bone opened in the channel list opens in the sheet: a row per channel. */
  bone_name = g_strdup (tress_dope_sheet_get_row_name (f.sheet, (guint)bone));
  WAIT_FOR ((bone_channel = channel_row (&f, bone_name)) != NULL);
  gtk_tree_list_row_set_expanded (bone_channel, TRUE);
  WAIT_FOR (tress_dope_sheet_get_row_open (f.sheet, (guint)bone));
  for (guint r = (guint)bone + 1;
       r < tress_dope_sheet_get_n_rows (f.sheet) && tress_dope_sheet_get_row_depth (f.sheet, r) > 2;
       r++)
    {
      g_assert_cmpint (tress_dope_sheet_get_row_channel (f.sheet, r), >=, 0);
      n_channels++;
    }
  g_assert_cmpuint (n_channels, ==, tress_dope_sheet_get_row_curves (f.sheet, (guint)bone)->len);

  /* A second click closes Wait, here and in the channel list. */
  tress_test_pointer_click (GTK_WIDGET (f.sheet),
                            tress_dope_sheet_get_disclosure_x (f.sheet, (guint)wait),
                            sheet_y (&f, (guint)wait));
  WAIT_FOR (!tress_dope_sheet_get_row_open (f.sheet, (guint)wait));
  g_assert_false (gtk_tree_list_row_get_expanded (wait_channel));
  g_assert_cmpuint (tress_dope_sheet_get_n_rows (f.sheet), ==, n_rows);
  fixture_close (&f);
}

int
main (int argc, char **argv)
{
  tress_test_window_init (&argc, &argv);
  g_test_add_func ("/dope-sheet/skeletal-rows", test_skeletal_rows);
  g_test_add_func ("/dope-sheet/tree-built-once", test_tree_built_once);
  g_test_add_func ("/dope-sheet/niff-rows", test_niff_rows);
  return g_test_run ();
}
