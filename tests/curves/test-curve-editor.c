/* test-curve-editor.c: the curve editor (tree, key table, key panel, timeline, messages)
 *
 * Runs under Xvfb on the test curve format, and on the BFRES and NIFF samples
 * once those formats read them: edits are saved and the saved file is read back
 * with `tress-cli eval`, so the keys are checked by the command-line tool.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "core/tress-curve-clipboard.h"
#include "curves/tress-curve-editor.h"
#include "tress-editor.h"
#include "tress-fake-curves.h"
#include "tress-test-utils.h"
#include "tress-test-window.h"

typedef struct
{
  TressDocument *doc;
  TressHistory *history;
  GtkWidget *window;
  TressCurveEditor *editor;
  TressCurveView *view;
} Fixture;

static void
open_editor (Fixture *f, TressDocument *doc)
{
  GtkWidget *editor;

  f->doc = doc;
  f->history = tress_document_get_history (doc);
  editor = tress_editor_create (doc);
  g_assert_true (TRESS_IS_CURVE_EDITOR (editor));
  f->editor = TRESS_CURVE_EDITOR (editor);
  f->view = tress_curve_editor_get_view (f->editor);
  f->window = tress_test_present (editor, 1200, 800);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (f->view)), >, 100);
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GBytes) bytes = tress_fake_curves_build_demo ();
  g_autoptr (GError) error = NULL;
  TressDocument *doc = tress_document_new_from_bytes (bytes, "demo.fcrv", &error);

  g_assert_no_error (error);
  open_editor (f, doc);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  tress_test_present_close (&f->window, &f->doc);
}

static const TressKey *
key (Fixture *f, guint c, guint k)
{
  return tress_curve_get_key (tress_curve_document_get_curve (TRESS_CURVE_DOCUMENT (f->doc), c), k);
}

/* Index of the tree row named @name, or -1. */
static int
find_row (Fixture *f, const char *name)
{
  GListModel *rows = G_LIST_MODEL (tress_curve_editor_get_tree_selection (f->editor));

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (TressCurveNode) node = gtk_tree_list_row_get_item (row);

      if (g_strcmp0 (tress_curve_node_get_name (node), name) == 0)
        return (int)i;
    }
  return -1;
}

static void
test_tree (Fixture *f, gconstpointer data)
{
  GtkSelectionModel *sel = tress_curve_editor_get_tree_selection (f->editor);
  int tx, baked;

  /* The whole tree, expanded: Fake, Walk, Hip + 4, Eye + 1, Tail + 2. */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (sel)), ==, 12);
  /* The first group with curves is shown at start: the hip's four channels. */
  g_assert_cmpuint (tress_curve_view_get_n_curves (f->view), ==, 4);
  g_assert_true (gtk_selection_model_is_selected (sel, (guint)find_row (f, "Hip")));

  /* Multi-selection: several curves at once. */
  tx = find_row (f, "Translate X");
  baked = find_row (f, "Baked X");
  gtk_selection_model_select_item (sel, (guint)tx, TRUE);
  gtk_selection_model_select_item (sel, (guint)baked, FALSE);
  g_assert_cmpuint (tress_curve_view_get_n_curves (f->view), ==, 2);
  g_assert_cmpuint (tress_curve_view_get_curve_index (f->view, 0), ==, 0);
  g_assert_cmpuint (tress_curve_view_get_curve_index (f->view, 1), ==, 5);

  /* The filter keeps matching curves and the groups above them. */
  /* The format's remark on a shown curve is shown with it. */
  g_assert_null (tress_curve_editor_get_notes (f->editor));
  gtk_selection_model_select_item (sel, (guint)find_row (f, "Visible"), TRUE);
  g_assert_cmpstr (tress_curve_editor_get_notes (f->editor), ==, "Visibility: values are 0 or 1");

  tress_curve_editor_set_filter (f->editor, "VISIBLE");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (sel)), ==, 4);
  g_assert_cmpint (find_row (f, "Visible"), ==, 3);
  g_assert_cmpint (find_row (f, "Hip"), ==, -1);
  tress_curve_editor_set_filter (f->editor, "");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (sel)), ==, 12);
}

/* Position of the channel row named @name, or -1. */
static int
find_channel (Fixture *f, const char *name)
{
  GListModel *rows = G_LIST_MODEL (
      tress_curve_channel_list_get_selection (tress_curve_editor_get_channel_list (f->editor)));

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (TressCurveChannel) c = gtk_tree_list_row_get_item (row);

      if (g_strcmp0 (tress_curve_channel_get_name (c), name) == 0)
        return (int)i;
    }
  return -1;
}

static void
test_channels (Fixture *f, gconstpointer data)
{
  TressCurveChannelList *list = tress_curve_editor_get_channel_list (f->editor);
  GtkSelectionModel *rows = tress_curve_channel_list_get_selection (list);
  GtkSelectionModel *tree = tress_curve_editor_get_tree_selection (f->editor);
  g_autoptr (GArray) curves = NULL;
  int tail;

  /* The hip's four channels: the path they share is left out. */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (rows)), ==, 4);
  g_assert_cmpint (find_channel (f, "Translate X"), ==, 0);
  g_assert_cmpint (find_channel (f, "Rotate W"), ==, 3);

  /* Every curve: grouped by bone, the groups expanded. */
  gtk_selection_model_select_item (tree, 0, TRUE);
  list = tress_curve_editor_get_channel_list (f->editor);
  g_assert_cmpuint (tress_curve_view_get_n_curves (f->view), ==, 7);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (rows)), ==, 10);
  g_assert_cmpint (find_channel (f, "Hip"), ==, 0);
  g_assert_cmpint (find_channel (f, "Eye"), ==, 5);
  tail = find_channel (f, "Tail");
  g_assert_cmpint (tail, ==, 7);
  g_assert_cmpint (find_channel (f, "Fixed Y"), ==, 9);

  /* A group's toggles act on every curve of it. */
  tress_curve_channel_list_set_row_flag (list, (guint)tail, TRESS_CURVE_FLAG_VISIBLE, FALSE);
  g_assert_false (tress_curve_view_get_curve_visible (f->view, 5));
  g_assert_false (tress_curve_view_get_curve_visible (f->view, 6));
  g_assert_true (tress_curve_view_get_curve_visible (f->view, 4));
  tress_curve_channel_list_set_row_flag (list, (guint)tail, TRESS_CURVE_FLAG_VISIBLE, TRUE);
  tress_curve_channel_list_set_row_flag (list, (guint)find_channel (f, "Hip"),
                                         TRESS_CURVE_FLAG_LOCKED, TRUE);
  for (guint c = 0; c < 4; c++)
    g_assert_true (tress_curve_view_get_curve_locked (f->view, c));
  g_assert_false (tress_curve_view_get_curve_locked (f->view, 4));
  tress_curve_channel_list_set_row_flag (list, (guint)find_channel (f, "Hip"),
                                         TRESS_CURVE_FLAG_LOCKED, FALSE);

  /* Solo: only the solo curves are drawn and edited. */
  tress_curve_channel_list_set_row_flag (list, (guint)find_channel (f, "Visible"),
                                         TRESS_CURVE_FLAG_SOLO, TRUE);
  g_assert_true (tress_curve_view_get_curve_shown (f->view, 4));
  g_assert_false (tress_curve_view_get_curve_shown (f->view, 0));
  g_assert_true (tress_curve_view_get_curve_visible (f->view, 0));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->view), "curve.select-all", NULL));
  g_assert_cmpuint (tress_curve_view_get_n_selected_keys (f->view), ==, 3);
  g_assert_null (strstr (tress_curve_editor_get_timeline_text (f->editor), "Translate X"));
  tress_curve_channel_list_set_row_flag (list, (guint)find_channel (f, "Visible"),
                                         TRESS_CURVE_FLAG_SOLO, FALSE);
  g_assert_true (tress_curve_view_get_curve_shown (f->view, 0));

  /* The key table follows the selected channel. */
  gtk_selection_model_select_item (rows, (guint)find_channel (f, "Fixed Y"), TRUE);
  g_assert_cmpint (tress_curve_editor_get_table_curve (f->editor), ==, 6);
  /* …until a key is clicked in the graph. */
  gtk_widget_activate_action (GTK_WIDGET (f->view), "curve.select-key", "(uub)", 1u, 2u, FALSE);
  g_assert_cmpint (tress_curve_editor_get_table_curve (f->editor), ==, 1);

  /* Ctrl+A selects every row; each curve counts once (a group and its rows). */
  gtk_selection_model_select_all (rows);
  curves = tress_curve_channel_list_dup_selected_curves (list);
  g_assert_cmpuint (curves->len, ==, 7);
  for (guint i = 0; i < curves->len; i++)
    g_assert_cmpuint (g_array_index (curves, guint, i), ==, i);

  /* A double click on a row selects the keys of its curves. */
  tress_curve_channel_list_activate_row (list, (guint)tail);
  g_assert_cmpuint (tress_curve_view_get_n_selected_keys (f->view), ==, 61 + 3);
  g_assert_true (tress_curve_view_is_selected (f->view, 6, 2, TRESS_CURVE_PART_KEY));
  g_assert_false (tress_curve_view_is_selected (f->view, 0, 0, TRESS_CURVE_PART_KEY));
}

/* Clicks in the curves tree: alone, Ctrl toggles, Shift extends from the anchor. */
static void
test_tree_clicks (Fixture *f, gconstpointer data)
{
  GtkSelectionModel *sel = tress_curve_editor_get_tree_selection (f->editor);
  guint hip = (guint)find_row (f, "Hip"), eye = (guint)find_row (f, "Eye");
  guint baked = (guint)find_row (f, "Baked X"), tx = (guint)find_row (f, "Translate X");

  tress_curve_editor_click_row (f->editor, hip, FALSE, FALSE);
  g_assert_cmpuint (tress_curve_view_get_n_curves (f->view), ==, 4);
  tress_curve_editor_click_row (f->editor, baked, TRUE, FALSE);
  g_assert_true (gtk_selection_model_is_selected (sel, hip));
  g_assert_true (gtk_selection_model_is_selected (sel, baked));
  g_assert_cmpuint (tress_curve_view_get_n_curves (f->view), ==, 5);
  /* From the anchor (the row Ctrl+clicked last) up to Eye, the rest dropped. */
  tress_curve_editor_click_row (f->editor, eye, FALSE, TRUE);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (sel)); i++)
    g_assert_cmpint (gtk_selection_model_is_selected (sel, i), ==, i >= eye && i <= baked);
  /* Ctrl toggles a row off again. */
  tress_curve_editor_click_row (f->editor, baked, TRUE, FALSE);
  g_assert_false (gtk_selection_model_is_selected (sel, baked));
  g_assert_true (gtk_selection_model_is_selected (sel, eye));
  /* Ctrl+Shift adds a range. */
  tress_curve_editor_click_row (f->editor, tx, FALSE, FALSE);
  tress_curve_editor_click_row (f->editor, tx + 1, TRUE, TRUE);
  g_assert_false (gtk_selection_model_is_selected (sel, eye));
  tress_curve_editor_click_row (f->editor, baked, FALSE, FALSE);
  tress_curve_editor_click_row (f->editor, hip, TRUE, FALSE);
  tress_curve_editor_click_row (f->editor, eye, TRUE, TRUE);
  g_assert_true (gtk_selection_model_is_selected (sel, baked));
  for (guint i = hip; i <= eye; i++)
    g_assert_true (gtk_selection_model_is_selected (sel, i));
  g_assert_false (gtk_selection_model_is_selected (sel, eye + 2));

  /* Under a filter a group stands for its matching curves. */
  tress_curve_editor_click_row (f->editor, 0, FALSE, FALSE);
  g_assert_cmpuint (tress_curve_view_get_n_curves (f->view), ==, 7);
  tress_curve_editor_set_filter (f->editor, "translate");
  g_assert_cmpuint (tress_curve_view_get_n_curves (f->view), ==, 3);
  tress_curve_editor_set_filter (f->editor, NULL);
  g_assert_cmpuint (tress_curve_view_get_n_curves (f->view), ==, 7);
}

static void
test_key_table (Fixture *f, gconstpointer data)
{
  GListModel *rows = tress_curve_editor_get_key_rows (f->editor);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressCurveKeyRow) row = NULL;
  g_autofree char *text = NULL;

  /* Selecting a key in the graph shows its curve in the table. */
  gtk_widget_activate_action (GTK_WIDGET (f->view), "curve.select-key", "(uub)", 1u, 2u, FALSE);
  g_assert_cmpint (tress_curve_editor_get_table_curve (f->editor), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 5);
  row = g_list_model_get_item (rows, 2);
  text = tress_curve_key_row_dup_text (row, "value");
  g_assert_cmpstr (text, ==, "-1");
  g_assert_nonnull (strstr (tress_curve_editor_get_key_panel_text (f->editor),
                            "Walk/Hip/Translate Y, key 2: frame 20 value -1"));

  /* Typing into cells edits the key, one undo step each. */
  g_assert_true (tress_curve_editor_edit_cell (f->editor, 2, "value", "0.5", &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (key (f, 1, 2)->value, ==, 0.5);
  g_assert_cmpstr (tress_history_get_undo_label (f->history), ==,
                   "Edit key 2 of Walk/Hip/Translate Y");
  g_assert_true (tress_curve_editor_edit_cell (f->editor, 2, "frame", "17", &error));
  g_assert_cmpfloat (key (f, 1, 2)->frame, ==, 17);
  g_assert_true (tress_curve_editor_edit_cell (f->editor, 2, "out", "0.25", &error));
  g_assert_cmpfloat (key (f, 1, 2)->out_slope, ==, 0.25);
  g_assert_true (tress_curve_editor_edit_cell (f->editor, 2, "interpolation", "step", &error));
  g_assert_cmpint (key (f, 1, 2)->interp, ==, TRESS_INTERP_STEP);
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 4);
  /* The panel follows. */
  g_assert_nonnull (strstr (tress_curve_editor_get_key_panel_text (f->editor),
                            "frame 17 value 0.5 in 0 out 0.25 Step"));

  /* Refusals: not a number; a frame the format cannot hold; another key's frame. */
  g_assert_false (tress_curve_editor_edit_cell (f->editor, 2, "value", "abc", &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_clear_error (&error);
  g_assert_false (tress_curve_editor_edit_cell (f->editor, 2, "frame", "17.5", &error));
  g_assert_nonnull (strstr (error->message, "whole frames"));
  g_clear_error (&error);
  g_assert_false (tress_curve_editor_edit_cell (f->editor, 2, "frame", "10", &error));
  g_clear_error (&error);
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 4);
  g_assert_cmpfloat (key (f, 1, 2)->frame, ==, 17);

  /* Undo all four, in order. */
  for (int i = 0; i < 4; i++)
    g_assert_true (tress_history_undo (f->history));
  g_assert_cmpfloat (key (f, 1, 2)->value, ==, -1);
  g_assert_cmpfloat (key (f, 1, 2)->frame, ==, 20);
  g_assert_false (tress_document_get_modified (f->doc));
}

static void
test_key_panel (Fixture *f, gconstpointer data)
{
  GtkSpinButton *frame = GTK_SPIN_BUTTON (
      tress_test_find_named_type (GTK_WIDGET (f->editor), "frame", GTK_TYPE_SPIN_BUTTON));
  GtkSpinButton *in = GTK_SPIN_BUTTON (
      tress_test_find_named_type (GTK_WIDGET (f->editor), "in", GTK_TYPE_SPIN_BUTTON));
  g_autoptr (GError) error = NULL;

  g_assert_nonnull (frame);
  g_assert_nonnull (in);
  /* A value with more digits than the panel shows must survive an edit of the frame. */
  gtk_widget_activate_action (GTK_WIDGET (f->view), "curve.select-key", "(uub)", 3u, 1u, FALSE);
  g_assert_true (tress_curve_editor_edit_cell (f->editor, 1, "value", "0.984375", &error));
  g_assert_cmpfloat (gtk_spin_button_get_value (frame), ==, 20);
  gtk_spin_button_set_value (frame, 22);
  g_assert_cmpfloat (key (f, 3, 1)->frame, ==, 22);
  g_assert_cmpfloat (key (f, 3, 1)->value, ==, 0.984375);
  gtk_spin_button_set_value (in, 0.125);
  g_assert_cmpfloat (key (f, 3, 1)->in_slope, ==, 0.125);
  g_assert_cmpfloat (key (f, 3, 1)->out_slope, ==, 0);
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 3);
}

static void
test_timeline_and_warning (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  gtk_widget_activate_action (GTK_WIDGET (f->view), "curve.goto-frame", "d", 10.0);
  g_assert_nonnull (strstr (tress_curve_editor_get_timeline_text (f->editor), "Frame 10.00"));
  g_assert_nonnull (strstr (tress_curve_editor_get_timeline_text (f->editor), "Translate X 2"));
  g_assert_nonnull (strstr (tress_curve_editor_get_timeline_text (f->editor), "Translate Y 0"));
  g_assert_nonnull (strstr (tress_curve_editor_get_timeline_text (f->editor), "Rotate W 0.75"));
  /* Hidden curves are left out. */
  gtk_widget_activate_action (GTK_WIDGET (f->view), "curve.hide", "(ub)", 3u, TRUE);
  gtk_widget_activate_action (GTK_WIDGET (f->view), "curve.goto-frame", "d", 11.0);
  g_assert_null (strstr (tress_curve_editor_get_timeline_text (f->editor), "Rotate W"));

  /* A value the format stores with an error above the tolerance is reported. */
  g_assert_null (tress_curve_editor_get_warning (f->editor));
  gtk_widget_activate_action (GTK_WIDGET (f->view), "curve.select-key", "(uub)", 0u, 1u, FALSE);
  g_assert_true (tress_curve_editor_edit_cell (f->editor, 1, "value", "2.3", &error));
  g_assert_nonnull (tress_curve_editor_get_warning (f->editor));
  g_assert_nonnull (strstr (tress_curve_editor_get_warning (f->editor), "Walk/Hip/Translate X"));
  g_assert_cmpfloat (key (f, 0, 1)->value, ==, 147.0 / 64); /* what the file holds */
  g_object_set (f->view, "tolerance", 0.01, NULL);
  g_assert_null (tress_curve_editor_get_warning (f->editor));
}

static void
test_forwarded_actions (Fixture *f, gconstpointer data)
{
  /* Toolbar buttons and menus reach the graph's actions from outside it. */
  gtk_widget_activate_action (GTK_WIDGET (f->view), "curve.select-key", "(uub)", 2u, 1u, FALSE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->editor), "curve.set-interpolation", "s",
                                             "linear"));
  g_assert_cmpint (key (f, 2, 1)->interp, ==, TRESS_INTERP_LINEAR);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->editor), "curve.normalized", NULL));
  {
    gboolean normalized;
    g_object_get (f->view, "normalized", &normalized, NULL);
    g_assert_true (normalized);
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->editor), "curve.delete", NULL));
  g_assert_cmpuint (
      tress_curve_get_n_keys (tress_curve_document_get_curve (TRESS_CURVE_DOCUMENT (f->doc), 2)),
      ==, 4);
  g_assert_cmpstr (tress_history_get_undo_label (f->history), ==,
                   "Delete 1 key of Walk/Hip/Translate Z");
}

/* The toolbar's button of @action (an actionable widget in the editor). */
static GtkWidget *
find_action_button (GtkWidget *w, const char *action)
{
  if (GTK_IS_ACTIONABLE (w)
      && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (w)), action) == 0)
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_action_button (c, action);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The graph's actions as the editor shows them: one group, the view's, so
 * delete, copy and paste are offered only when they would do something
 * (selected keys, copied keys), in the toolbar as in the graph; and the
 * keys do nothing when they are not. */
static void
test_actions_enabled (Fixture *f, gconstpointer data)
{
  GActionGroup *actions = tress_curve_view_get_actions (f->view);
  GtkWidget *delete = find_action_button (GTK_WIDGET (f->editor), "curve.delete");
  GtkWidget *copy = find_action_button (GTK_WIDGET (f->editor), "curve.copy");
  GtkWidget *paste = find_action_button (GTK_WIDGET (f->editor), "curve.paste");
  guint n
      = tress_curve_get_n_keys (tress_curve_document_get_curve (TRESS_CURVE_DOCUMENT (f->doc), 2));

  g_assert_nonnull (delete);
  g_assert_nonnull (copy);
  g_assert_nonnull (paste);
  tress_curve_clipboard_clear (tress_curve_clipboard_get_default ());
  tress_curve_view_select_none (f->view);
  g_assert_false (gtk_widget_get_sensitive (delete));
  g_assert_false (gtk_widget_get_sensitive (copy));
  g_assert_false (gtk_widget_get_sensitive (paste));
  g_assert_false (g_action_group_get_action_enabled (actions, "duplicate"));
  g_assert_false (g_action_group_get_action_enabled (actions, "scale"));
  /* Always there: selecting, the transport, the view. */
  g_assert_true (g_action_group_get_action_enabled (actions, "select-all"));
  g_assert_true (g_action_group_get_action_enabled (actions, "toggle-play"));
  /* Delete from the editor with nothing selected: nothing happens. */
  gtk_widget_activate_action (GTK_WIDGET (f->editor), "curve.delete", NULL);
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 0);

  gtk_widget_activate_action (GTK_WIDGET (f->view), "curve.select-key", "(uub)", 2u, 1u, FALSE);
  g_assert_true (gtk_widget_get_sensitive (delete));
  g_assert_true (gtk_widget_get_sensitive (copy));
  g_assert_false (gtk_widget_get_sensitive (paste));
  g_assert_true (g_action_group_get_action_enabled (actions, "duplicate"));
  g_assert_true (g_action_group_get_action_enabled (actions, "scale"));
  /* The toolbar's button reaches the graph. */
  g_signal_emit_by_name (copy, "clicked");
  g_assert_true (gtk_widget_get_sensitive (paste));
  g_signal_emit_by_name (delete, "clicked");
  g_assert_cmpuint (
      tress_curve_get_n_keys (tress_curve_document_get_curve (TRESS_CURVE_DOCUMENT (f->doc), 2)),
      ==, n - 1);
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 1);
  /* The deleted key was the selection: nothing to delete again. */
  g_assert_false (gtk_widget_get_sensitive (delete));
  g_assert_true (gtk_widget_get_sensitive (paste));
  tress_curve_clipboard_clear (tress_curve_clipboard_get_default ());
  g_assert_false (gtk_widget_get_sensitive (paste));
}

/* Play turns into Pause; the current frame can be typed; the ruler scrubs;
 * the rate is the file's; the key table says which curve it lists. */
static void
test_transport (Fixture *f, gconstpointer data)
{
  GtkWidget *play
      = tress_test_find_named_type (GTK_WIDGET (f->editor), "play", GTK_TYPE_TOGGLE_BUTTON);
  GtkSpinButton *frame = GTK_SPIN_BUTTON (
      tress_test_find_named_type (GTK_WIDGET (f->editor), "current-frame", GTK_TYPE_SPIN_BUTTON));
  GtkSpinButton *fps = GTK_SPIN_BUTTON (
      tress_test_find_named_type (GTK_WIDGET (f->editor), "fps", GTK_TYPE_SPIN_BUTTON));
  GtkLabel *title = GTK_LABEL (
      tress_test_find_named_type (GTK_WIDGET (f->editor), "table-title", GTK_TYPE_LABEL));
  gboolean playing = FALSE;
  TressCurveViewport vp;
  double x;

  g_assert_nonnull (play);
  g_assert_nonnull (frame);
  g_assert_nonnull (fps);
  g_assert_nonnull (title);
  g_assert_cmpstr (gtk_button_get_icon_name (GTK_BUTTON (play)), ==,
                   "media-playback-start-symbolic");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->editor), "curve.playing", NULL));
  g_object_get (f->view, "playing", &playing, NULL);
  g_assert_true (playing);
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (play)));
  g_assert_cmpstr (gtk_button_get_icon_name (GTK_BUTTON (play)), ==,
                   "media-playback-pause-symbolic");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->editor), "curve.playing", NULL));
  g_object_get (f->view, "playing", &playing, NULL);
  g_assert_false (playing);
  g_assert_cmpstr (gtk_button_get_icon_name (GTK_BUTTON (play)), ==,
                   "media-playback-start-symbolic");

  /* The current frame, both ways. */
  gtk_spin_button_set_value (frame, 12);
  g_assert_cmpfloat (tress_curve_view_get_playhead (f->view), ==, 12);
  gtk_widget_activate_action (GTK_WIDGET (f->view), "curve.goto-frame", "d", 7.0);
  g_assert_cmpfloat (gtk_spin_button_get_value (frame), ==, 7);

  /* A click on the frame ruler along the bottom puts the playhead there, on a whole frame. */
  tress_curve_view_get_viewport (f->view, &vp);
  x = tress_curve_viewport_frame_to_x (&vp, 23.3);
  gtk_widget_activate_action (GTK_WIDGET (f->view), "curve.click", "(ddb)", x,
                              gtk_widget_get_height (GTK_WIDGET (f->view)) - 5.0, FALSE);
  g_assert_cmpfloat (tress_curve_view_get_playhead (f->view), ==, 23);
  g_assert_cmpfloat (gtk_spin_button_get_value (frame), ==, 23);
  g_assert_cmpuint (tress_curve_view_get_n_selected_keys (f->view), ==, 0);

  /* The test format stores 30 fps: shown, and not a setting. */
  g_assert_cmpfloat (gtk_spin_button_get_value (fps), ==, 30);
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (fps)));

  /* The key table names its curve. */
  tress_curve_editor_get_key_rows (f->editor);
  g_assert_cmpstr (gtk_label_get_text (title), ==, "Walk/Hip/Translate X, 5 keys");
  gtk_widget_activate_action (GTK_WIDGET (f->view), "curve.select-key", "(uub)", 3u, 1u, FALSE);
  g_assert_cmpstr (gtk_label_get_text (title), ==, "Walk/Hip/Rotate W, 3 keys");
}

/* The slot for a 3D preview: beside the graph, which keeps most of the width. */
static void
test_preview_slot (Fixture *f, gconstpointer data)
{
  GtkWidget *preview = gtk_label_new ("preview");
  graphene_rect_t g, p;
  int before = gtk_widget_get_width (GTK_WIDGET (f->view));

  g_assert_null (tress_curve_editor_get_preview (f->editor));
  tress_curve_editor_set_preview (f->editor, preview);
  g_assert_true (tress_curve_editor_get_preview (f->editor) == preview);
  TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (preview) && gtk_widget_get_width (preview) > 1);
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (f->view), f->window, &g));
  g_assert_true (gtk_widget_compute_bounds (preview, f->window, &p));
  g_assert_cmpfloat (p.origin.x, >=, g.origin.x + g.size.width);
  g_assert_cmpfloat (g.size.width, >=, p.size.width);
  g_assert_cmpfloat (g.size.width, <, before);
  tress_curve_editor_set_preview (f->editor, NULL);
  g_assert_null (tress_curve_editor_get_preview (f->editor));
  TRESS_TEST_WAIT_FOR (gtk_widget_get_width (GTK_WIDGET (f->view)) == before);
}

/* ------------------------------------------------------------ samples -- */

static double
cli_eval (const char *path, guint curve, double frame)
{
  g_autofree char *c = g_strdup_printf ("%u", curve);
  char f[G_ASCII_DTOSTR_BUF_SIZE];
  const char *argv[] = { "eval", path, c, NULL, NULL };
  g_autofree char *out = NULL;
  char *tab;

  g_ascii_formatd (f, sizeof f, "%.9g", frame);
  argv[3] = f;
  g_assert_cmpint (tress_test_run_cli (argv, &out, NULL), ==, 0);
  tab = strchr (out, '\t');
  g_assert_nonnull (tab);
  return g_ascii_strtod (tab + 1, NULL);
}

/* What the editor showed while a drag was in progress. */
typedef struct
{
  TressCurveEditor *editor;
  guint n_seen;    /* notifications with a known error */
  double last;     /* the last known error */
  char *warning;   /* the editor's warning at that moment */
  char *near_text; /* the text next to the pointer at that moment */
} DragWatch;

static void
on_drag_error_seen (TressCurveView *view, GParamSpec *pspec, DragWatch *w)
{
  double e = tress_curve_view_get_drag_error (view);

  if (e < 0)
    return;
  w->n_seen++;
  w->last = e;
  g_free (w->warning);
  w->warning = g_strdup (tress_curve_editor_get_warning (w->editor));
  g_free (w->near_text);
  w->near_text = tress_curve_view_dup_drag_error_text (view);
}

static void
check_sample (const char *rel)
{
  g_autofree char *path = tress_test_sample_path (rel);
  g_autoptr (GFile) file = NULL;
  g_autoptr (GError) error = NULL;
  TressDocument *doc;
  Fixture fx = { 0 }, *f = &fx;
  g_autofree char *saved = NULL;
  g_autoptr (GFile) saved_file = NULL;
  TressCurveDocument *cd;
  int target = -1;
  const TressCurve *c;
  guint k;
  double x, y;
  DragWatch watch = { 0 };
  gulong watch_id;

  if (path == NULL)
    return;
  file = g_file_new_for_path (path);
  doc = tress_document_load (file, NULL, &error);
  if (doc == NULL || !TRESS_IS_CURVE_DOCUMENT (doc)
      || tress_curve_document_get_n_curves (TRESS_CURVE_DOCUMENT (doc)) == 0)
    {
      g_autofree char *msg
          = g_strdup_printf ("%s: no curves to edit yet (%s)", rel, error ? error->message : "");
      g_test_skip (msg);
      g_clear_object (&doc);
      return;
    }
  open_editor (f, doc);
  cd = TRESS_CURVE_DOCUMENT (doc);
  /* The first curve with two keys or more whose keys may move. */
  for (guint i = 0; i < tress_curve_document_get_n_curves (cd) && target < 0; i++)
    {
      const TressCurve *ci = tress_curve_document_get_curve (cd, i);
      if (tress_curve_get_n_keys (ci) >= 3 && ci->limits.value_kind == TRESS_VALUE_FLOAT)
        target = (int)i;
    }
  if (target < 0)
    {
      g_test_skip ("no float curve with three keys");
      fixture_teardown (f, NULL);
      return;
    }
  {
    guint t = (guint)target;
    tress_curve_view_set_curves (f->view, &t, 1);
  }
  gtk_widget_activate_action (GTK_WIDGET (f->view), "curve.frame-all", NULL);
  c = tress_curve_document_get_curve (cd, (guint)target);
  k = tress_curve_get_n_keys (c) / 2;
  /* Move the middle key up by a tenth of the view through a drag, watching the
   * quantization error the view shows while the key moves (tolerance 0: any
   * error is over it). */
  g_assert_true (
      tress_curve_view_get_point (f->view, (guint)target, k, TRESS_CURVE_PART_KEY, &x, &y));
  g_object_set (f->view, "tolerance", 0.0, NULL);
  watch.editor = f->editor;
  watch_id
      = g_signal_connect (f->view, "notify::drag-error", G_CALLBACK (on_drag_error_seen), &watch);
  g_assert_cmpfloat (tress_curve_view_get_drag_error (f->view), ==, -1);
  gtk_widget_activate_action (GTK_WIDGET (f->view), "curve.drag", "(ddddb)", x, y, x,
                              y - gtk_widget_get_height (GTK_WIDGET (f->view)) / 10.0, FALSE);
  g_signal_handler_disconnect (f->view, watch_id);
  g_object_set (f->view, "tolerance", 0.001, NULL);
  /* Both formats tell their error during the drag; it is gone after it. */
  g_assert_cmpuint (watch.n_seen, >=, 1);
  g_assert_cmpfloat (tress_curve_view_get_drag_error (f->view), ==, -1);
  g_assert_nonnull (watch.near_text);
  g_test_message ("%s: live error %g, shown as \"%s\", warning \"%s\"", rel, watch.last,
                  watch.near_text, watch.warning ? watch.warning : "");
  if (watch.last > 0)
    {
      /* Over the tolerance: said next to the pointer and in the warning,
       * with the offer to widen where the format has wider types. */
      g_assert_nonnull (strstr (watch.near_text, "over the tolerance"));
      g_assert_nonnull (watch.warning);
      g_assert_nonnull (strstr (watch.warning, "While moving"));
      g_assert_true ((strstr (watch.warning, "wider type") != NULL)
                     == g_str_has_prefix (rel, "bfres/"));
    }
  if (g_str_has_prefix (rel, "bfres/"))
    {
      /* The live figure is what the file then stores. */
      g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 1);
      g_assert_cmpfloat (watch.last, >, 0);
      g_assert_cmpfloat_with_epsilon (watch.last,
                                      tress_curve_document_get_quant_error (cd, (guint)target),
                                      1e-9 + 1e-6 * watch.last);
    }
  g_free (watch.warning);
  g_free (watch.near_text);
  if (tress_history_get_n_undo (f->history) == 0)
    {
      /* Refused: the view said why. */
      g_assert_nonnull (tress_curve_view_get_message (f->view));
      fixture_teardown (f, NULL);
      return;
    }
  saved = g_build_filename (tress_test_tmpdir (), strrchr (rel, '/') + 1, NULL);
  saved_file = g_file_new_for_path (saved);
  g_assert_true (tress_document_save (doc, saved_file, FALSE, NULL, &error));
  g_assert_no_error (error);
  /* tress-cli reads back what the editor shows, at the keys and between them. */
  c = tress_curve_document_get_curve (cd, (guint)target);
  for (guint i = 0; i + 1 < tress_curve_get_n_keys (c) && i < 8; i++)
    {
      double fr = tress_curve_get_key (c, i)->frame;
      double mid = (fr + tress_curve_get_key (c, i + 1)->frame) / 2;

      g_assert_cmpfloat_with_epsilon (cli_eval (saved, (guint)target, fr),
                                      tress_curve_evaluate (c, fr), 1e-4);
      g_assert_cmpfloat_with_epsilon (cli_eval (saved, (guint)target, mid),
                                      tress_curve_evaluate (c, mid), 1e-4);
    }
  /* BFRES: a stored error above the tolerance is offered a wider type, as one step. */
  if (g_str_has_prefix (rel, "bfres/"))
    {
      double before = tress_curve_document_get_quant_error (cd, (guint)target);

      g_object_set (f->view, "tolerance", 0.0, NULL);
      g_test_message ("%s curve %d: quantization error %g", rel, target, before);
      if (before > 0)
        {
          g_assert_nonnull (tress_curve_editor_get_warning (f->editor));
          g_assert_true (
              gtk_widget_activate_action (GTK_WIDGET (f->editor), "curves.widen-types", NULL));
          g_assert_cmpstr (tress_history_get_undo_label (f->history), ==,
                           "Widen the types of 1 curve");
          g_assert_cmpfloat (tress_curve_document_get_quant_error (cd, (guint)target), <, before);
          g_assert_true (tress_history_undo (f->history));
          g_assert_cmpfloat (tress_curve_document_get_quant_error (cd, (guint)target), ==, before);
        }
      else
        g_assert_null (tress_curve_editor_get_warning (f->editor));
    }
  /* Undo gives the original bytes back. */
  g_assert_true (tress_history_undo (f->history));
  {
    g_autoptr (GBytes) orig = tress_test_load_sample (rel);
    g_autoptr (GBytes) now
        = tress_document_get_format (doc)->serialize (tress_document_get_model (doc), &error);
    g_assert_no_error (error);
    tress_test_assert_bytes_equal (now, orig);
  }
  /* BFRES: moving the last key past the animation's end is refused, and the
   * animation can then be lengthened and the move applied, as one step. */
  if (g_str_has_prefix (rel, "bfres/"))
    {
      guint last = tress_curve_get_n_keys (tress_curve_document_get_curve (cd, (guint)target)) - 1;
      double f_last
          = tress_curve_get_key (tress_curve_document_get_curve (cd, (guint)target), last)->frame;
      double end = 0;

      gtk_widget_activate_action (GTK_WIDGET (f->view), "curve.select-key", "(uub)", (guint)target,
                                  last, FALSE);
      gtk_widget_activate_action (GTK_WIDGET (f->view), "curve.move", "(dd)", 5.0, 0.0);
      g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 0);
      g_test_message ("move past the end: %s", tress_curve_view_get_message (f->view));
      g_assert_true (tress_curve_view_get_pending_end (f->view, &end));
      g_assert_cmpfloat (end, ==, ceil (f_last + 5));
      g_assert_nonnull (strstr (tress_curve_view_get_message (f->view), "past the end"));
      g_assert_true (
          gtk_widget_activate_action (GTK_WIDGET (f->editor), "curves.lengthen-animation", NULL));
      g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 1);
      g_assert_cmpfloat (
          tress_curve_get_key (tress_curve_document_get_curve (cd, (guint)target), last)->frame, ==,
          f_last + 5);
      g_assert_false (tress_curve_view_get_pending_end (f->view, NULL));
      g_assert_true (tress_history_undo (f->history));

      /* The same by dragging the key with the pointer. */
      {
        TressCurveViewport vp;
        double px_per_frame;

        gtk_widget_activate_action (GTK_WIDGET (f->view), "curve.frame-all", NULL);
        tress_curve_view_get_viewport (f->view, &vp);
        px_per_frame = 1 / tress_curve_viewport_frames_per_px (&vp);
        g_assert_true (tress_curve_view_get_point (f->view, (guint)target, last,
                                                   TRESS_CURVE_PART_KEY, &x, &y));
        gtk_widget_activate_action (GTK_WIDGET (f->view), "curve.drag", "(ddddb)", x, y,
                                    x + 3 * px_per_frame, y, FALSE);
        g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 0);
        g_assert_true (tress_curve_view_get_pending_end (f->view, &end));
        g_assert_cmpfloat (end, ==, ceil (f_last + 3));
        g_assert_true (
            gtk_widget_activate_action (GTK_WIDGET (f->editor), "curves.lengthen-animation", NULL));
        g_assert_cmpfloat (
            tress_curve_get_key (tress_curve_document_get_curve (cd, (guint)target), last)->frame,
            ==, f_last + 3);
        g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 1);
        g_assert_true (tress_history_undo (f->history));
      }
      {
        g_autoptr (GBytes) orig = tress_test_load_sample (rel);
        g_autoptr (GBytes) now
            = tress_document_get_format (doc)->serialize (tress_document_get_model (doc), &error);
        tress_test_assert_bytes_equal (now, orig);
      }
    }
  fixture_teardown (f, NULL);
}

static void
test_samples (void)
{
  check_sample ("bfres/Animal_Dog_Animation.bfres");
  check_sample ("niff/Rings.niff");
}

/* The first descendant of @w of @type (depth first), or NULL. */
static GtkWidget *
find_descendant (GtkWidget *w, GType type, const char *icon_name)
{
  /* @icon_name: a menu button's icon, or another widget's name. */
  if (G_TYPE_CHECK_INSTANCE_TYPE (w, type)
      && (icon_name == NULL
          || (GTK_IS_MENU_BUTTON (w)
              && g_strcmp0 (gtk_menu_button_get_icon_name (GTK_MENU_BUTTON (w)), icon_name) == 0)
          || (!GTK_IS_MENU_BUTTON (w) && g_strcmp0 (gtk_widget_get_name (w), icon_name) == 0)))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_descendant (c, type, icon_name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Every button and menu of the editor lies inside it: nothing is cut off. */
static void
assert_buttons_inside (GtkWidget *w, GtkWidget *editor, guint *n_checked)
{
  if ((GTK_IS_BUTTON (w) || GTK_IS_MENU_BUTTON (w)) && gtk_widget_get_mapped (w))
    {
      graphene_rect_t r;

      g_assert_true (gtk_widget_compute_bounds (w, editor, &r));
      g_assert_cmpfloat (r.origin.x + r.size.width, <=, gtk_widget_get_width (editor) + 0.5);
      (*n_checked)++;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    assert_buttons_inside (c, editor, n_checked);
}

/* Whether the status line @status shows the view's nudge step. */
static gboolean
shows_nudge_step (GtkWidget *status, TressCurveView *view)
{
  g_autofree char *want = g_strdup_printf ("nudge %.3g", tress_curve_view_get_nudge_step (view));

  return strstr (gtk_label_get_text (GTK_LABEL (status)), want) != NULL;
}

/* The toolbar fits beside the tree in a window of the default size (960 px
 * less its frame); the tolerance lives in the menu at its end. */
static void
test_toolbar (Fixture *f, gconstpointer data)
{
  GtkWidget *more, *popover, *spin;
  guint n_checked = 0;
  double tolerance = 0;

  gtk_window_set_default_size (GTK_WINDOW (f->window), 950, 630);
  gtk_widget_queue_resize (f->window);
  TRESS_TEST_WAIT_FOR (gtk_widget_get_width (GTK_WIDGET (f->editor)) == 950);
  assert_buttons_inside (GTK_WIDGET (f->editor), GTK_WIDGET (f->editor), &n_checked);
  g_assert_cmpuint (n_checked, >, 10);

  more = find_descendant (GTK_WIDGET (f->editor), GTK_TYPE_MENU_BUTTON, "view-more-symbolic");
  g_assert_nonnull (more);
  popover = GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (more)));
  spin = find_descendant (popover, GTK_TYPE_SPIN_BUTTON, "tolerance");
  g_assert_nonnull (spin);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 0.05);
  g_object_get (f->view, "tolerance", &tolerance, NULL);
  g_assert_cmpfloat (tolerance, ==, 0.05);

  /* The drag modes are radio items: the one in use carries the mark,
   * whichever way it was chosen (here Shift+X's action). */
  gtk_widget_activate_action (GTK_WIDGET (f->view), "curve.axis-lock", "s", "frame");
  gtk_popover_popup (GTK_POPOVER (popover));
  TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (popover));
  {
    GType model_button = g_type_from_name ("GtkModelButton");
    GtkWidget *free_item = NULL, *frames_item = NULL;
    gboolean free_active = TRUE, frames_active = FALSE;
    int role = 0;

    g_assert_true (model_button != 0);
    for (GtkWidget *w = find_descendant (popover, model_button, NULL); w != NULL;
         w = gtk_widget_get_next_sibling (w))
      {
        g_autofree char *text = NULL;

        if (!G_TYPE_CHECK_INSTANCE_TYPE (w, model_button))
          continue;
        g_object_get (w, "text", &text, NULL);
        if (g_strcmp0 (text, "Move Freely") == 0)
          free_item = w;
        else if (g_strcmp0 (text, "Frames Only (Shift+X)") == 0)
          frames_item = w;
      }
    g_assert_nonnull (free_item);
    g_assert_nonnull (frames_item);
    g_object_get (frames_item, "active", &frames_active, "role", &role, NULL);
    g_object_get (free_item, "active", &free_active, NULL);
    g_assert_cmpint (role, !=, 0); /* a radio or check item, not a plain one */
    g_assert_true (frames_active);
    g_assert_false (free_active);
  }
  gtk_popover_popdown (GTK_POPOVER (popover));
  gtk_widget_activate_action (GTK_WIDGET (f->view), "curve.axis-lock", "s", "none");

  /* The nudge step: the status line shows the one in use (a tenth of the
   * grid's spacing), the menu sets another, and Up moves a key by it. */
  {
    GtkWidget *status = find_descendant (GTK_WIDGET (f->editor), GTK_TYPE_LABEL, "summary");

    g_assert_nonnull (status);
    /* The automatic step follows the grid drawn last: told after the frame. */
    TRESS_TEST_WAIT_FOR (shows_nudge_step (status, f->view));
    g_test_message ("status line: %s", gtk_label_get_text (GTK_LABEL (status)));
    spin = find_descendant (popover, GTK_TYPE_SPIN_BUTTON, "nudge-step");
    g_assert_nonnull (spin);
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 0.25);
    g_assert_cmpfloat (tress_curve_view_get_nudge_step (f->view), ==, 0.25);
    g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (status)), "nudge 0.25"));
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 0);
  }
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  tress_fake_curves_register ();
  tress_curve_editor_register ();
  tress_editor_register ("fakecurves", tress_curve_editor_new);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/curves/editor/toolbar", test_toolbar);
  ADD ("/curves/editor/tree", test_tree);
  ADD ("/curves/editor/tree-clicks", test_tree_clicks);
  ADD ("/curves/editor/channels", test_channels);
  ADD ("/curves/editor/key-table", test_key_table);
  ADD ("/curves/editor/key-panel", test_key_panel);
  ADD ("/curves/editor/timeline-warning", test_timeline_and_warning);
  ADD ("/curves/editor/forwarded-actions", test_forwarded_actions);
  ADD ("/curves/editor/actions-enabled", test_actions_enabled);
  ADD ("/curves/editor/preview-slot", test_preview_slot);
  ADD ("/curves/editor/transport", test_transport);
  g_test_add_func ("/curves/editor/samples", test_samples);
  return g_test_run ();
}
