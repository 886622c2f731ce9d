/* test-curve-anim-ops.c: the whole-animation operations of the curve editor
 *
 * Under Xvfb at 960x640, with the real pointer, on a copy of the Animal_Bass
 * sample (its model beside it) and of Rings.niff: the "Jump" row's context
 * menu (right-click; Shift+F10 on the selected row), each operation through
 * its dialog, the undo label naming it, the file saved after it read back
 * with the format page's reader (tests/bfres/bfres-anim-ref.h): Retime ×2
 * plays at 2f what played at f and changes nothing outside Jump's frames;
 * the frame count refused with its cost, then trimmed on request; the loop
 * flag; rename, duplicate and delete in the index group. Undo saves the
 * original bytes again and redo the operation's. NIFF: Retime ×2 of an
 * AnimGroup saved as tress-cli writes it, and a refusal shown in the dialog.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "../bfres/bfres-animops-test.h"
#include "curves/tress-curve-anim-actions.h"
#include "curves/tress-curve-editor.h"
#include "tress-test-pointer.h"
#include "tress-test-utils.h"
#include "tress-test-window.h"

#define ANIM "bfres/Animal_Bass_Animation.bfres"
#define MODEL "bfres/Animal_Bass.bfres"
#define RINGS "niff/Rings.niff"

static GBytes *
save (TressDocument *doc, const char *path)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (tress_document_save (doc, NULL, TRUE, NULL, &error));
  g_assert_no_error (error);
  return tress_test_read_file (path);
}

/* The position of the first tree row named @name (an animation's), or -1. */
static int
row_named (GListModel *rows, const char *name)
{
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (TressCurveNode) node = gtk_tree_list_row_get_item (row);
      const char *n = tress_curve_node_get_name (node);

      if (g_str_has_prefix (n, name) && (n[strlen (name)] == '\0' || n[strlen (name)] == ' '))
        return (int)i;
    }
  /* Not shown: unfold the rows above it, as a click on their arrows would. */
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);

      if (gtk_tree_list_row_is_expandable (row) && !gtk_tree_list_row_get_expanded (row))
        gtk_tree_list_row_set_expanded (row, TRUE);
    }
  return -1;
}

/* The position of the first tree row named @name, waiting up to 10 s for the
 * tree (built again, nested, once the preview has the scene), or fails. */
static guint
find_row (TressCurveEditor *editor, const char *name)
{
  GListModel *rows = G_LIST_MODEL (tress_curve_editor_get_tree_selection (editor));
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  int pos;

  while ((pos = row_named (rows, name)) < 0 && g_get_monotonic_time () < end)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (10000);
  if (pos >= 0)
    return (guint)pos;
  {
    g_autoptr (GString) names = g_string_new (NULL);

    for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
      {
        g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
        g_autoptr (TressCurveNode) node = gtk_tree_list_row_get_item (row);

        g_string_append_printf (names, "%s%s", i > 0 ? ", " : "", tress_curve_node_get_name (node));
      }
    g_error ("no row %s among %s", name, names->str);
  }
  return 0;
}

static GtkWidget *
cell_of (GtkWidget *root, guint pos)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkListItem *item = g_object_get_data (G_OBJECT (c), "tress-item");
      GtkWidget *found;

      if (item != NULL && gtk_list_item_get_position (item) == pos && gtk_widget_get_mapped (c))
        return c;
      if ((found = cell_of (c, pos)) != NULL)
        return found;
    }
  return NULL;
}

/* The other animations' rows collapsed (as a user clicks their expanders) */
static void
collapse_others (TressCurveEditor *editor, const char *name)
{
  GListModel *rows = G_LIST_MODEL (tress_curve_editor_get_tree_selection (editor));

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (TressCurveNode) node = gtk_tree_list_row_get_item (row);

      if (gtk_tree_list_row_get_depth (row) == 1
          && !g_str_has_prefix (tress_curve_node_get_name (node), name))
        gtk_tree_list_row_set_expanded (row, FALSE);
    }
}

/* Row @pos's name cell, on screen (the rows above it collapsed: near the top). */
static GtkWidget *
show_row (GtkWidget *tree, guint pos)
{
  /* Laid out with the rows collapsed first: the list scrolls only among rows it knows. */
  tress_test_wait_frame (tree);
  gtk_adjustment_set_value (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (tree)), 0);
  tress_test_wait_frame (tree);
  TRESS_TEST_WAIT_FOR (cell_of (tree, pos) != NULL);
  tress_test_wait_frame (tree);
  g_assert_nonnull (cell_of (tree, pos));
  return cell_of (tree, pos);
}

static GtkWidget *
open_menu_on (TressCurveEditor *editor, const char *anim)
{
  GtkWidget *tree = tress_test_find_type (GTK_WIDGET (editor), GTK_TYPE_COLUMN_VIEW);
  GtkWidget *cell, *menu;

  collapse_others (editor, anim);
  cell = show_row (tree, find_row (editor, anim));
  /* From elsewhere on the row: the pointer may be where the menu's item was
   * the last time, and a click there must move onto it as a user's does. */
  tress_test_pointer_move (cell, 2, 2);

  tress_test_pointer_move (cell, gtk_widget_get_width (cell) / 2.0,
                           gtk_widget_get_height (cell) / 2.0);
  tress_test_pointer_button (3, TRUE);
  tress_test_pointer_button_unwatched (3, FALSE);
  TRESS_TEST_WAIT_FOR ((menu = tress_curve_anim_actions_get_menu (editor)) != NULL
                       && gtk_widget_get_mapped (menu));
  return menu;
}

static GtkWindow *
find_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWidget) w = g_list_model_get_item (toplevels, i);

      if (g_strcmp0 (gtk_widget_get_name (w), "anim-dialog") == 0 && gtk_widget_get_mapped (w))
        return GTK_WINDOW (w);
    }
  return NULL;
}

static void
click (GtkWidget *w)
{
  g_assert_true (gtk_widget_get_mapped (w));
  tress_test_pointer_click (w, gtk_widget_get_width (w) / 2.0, gtk_widget_get_height (w) / 2.0);
}

/* Right-click on @anim's row, @item of the menu; the dialog it opens (NULL for none). */
static GtkWindow *
menu_item (TressCurveEditor *editor, const char *anim, const char *item, gboolean dialog)
{
  GtkWidget *menu = open_menu_on (editor, anim);
  GtkWidget *label = tress_test_find_label_text (menu, item);
  GtkWindow *d = NULL;

  g_assert_nonnull (label);
  TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (label) && gtk_widget_get_width (label) > 0);
  click (label);
  if (dialog)
    {
      TRESS_TEST_WAIT_FOR ((d = find_dialog ()) != NULL);
      tress_test_wait_frame (GTK_WIDGET (d));
    }
  else
    TRESS_TEST_WAIT_FOR (!gtk_widget_get_mapped (menu));
  return d;
}

static GtkWidget *
named (GtkWindow *dialog, const char *name)
{
  GtkWidget *w = tress_test_find_named (GTK_WIDGET (dialog), name);

  g_assert_nonnull (w);
  return w;
}

/* Clicks the dialog's @button ("accept", "alternative"); TRUE when it closed. */
static gboolean
press (GtkWindow *dialog, const char *button)
{
  g_autofree char *name = g_strconcat ("anim-dialog-", button, NULL);

  click (named (dialog, name));
  tress_test_wait_idle ();
  return find_dialog () == NULL;
}

static const char *
undo_label (TressDocument *doc)
{
  return tress_history_get_undo_label (tress_document_get_history (doc));
}

/* Undo saves @original again and redo @after; then undone for the next test. */
static void
check_undo_redo (TressTestWindow *tw, const char *path, GBytes *original, GBytes *after)
{
  g_autoptr (GBytes) undone = NULL, redone = NULL, again = NULL;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (tw->window), "win.undo", NULL));
  undone = save (tw->document, path);
  tress_test_assert_bytes_equal (undone, original);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (tw->window), "win.redo", NULL));
  redone = save (tw->document, path);
  tress_test_assert_bytes_equal (redone, after);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (tw->window), "win.undo", NULL));
  again = save (tw->document, path);
  tress_test_assert_bytes_equal (again, original);
}

static void
test_bass (void)
{
  g_autoptr (GBytes) fres = tress_test_load_sample (ANIM);
  g_autoptr (GBytes) model = fres != NULL ? tress_test_load_sample (MODEL) : NULL;
  g_autofree char *path = NULL, *model_path = NULL;
  TressTestWindow tw = { 0 };
  TressCurveEditor *editor;
  const guint8 *da;
  gsize jump;

  if (model == NULL)
    {
      g_test_skip ("no samples");
      return;
    }
  model_path = tress_test_write_tmp ("bass", "Animal_Bass.bfres", model);
  path = tress_test_write_tmp ("bass", "Animal_Bass_Animation.bfres", fres);
  tress_test_window_open (&tw, path, TRESS_TYPE_CURVE_EDITOR, 960, 640);
  if (!tress_test_pointer_available (tw.editor))
    {
      tress_test_window_close (&tw);
      return;
    }
  editor = TRESS_CURVE_EDITOR (tw.editor);
  da = g_bytes_get_data (fres, NULL);
  jump = ref_anim_find (da, 2, "Jump");
  g_assert_cmpuint (jump, !=, 0);

  /* Retime ×2 (the dialog's default): Jump plays at 2f what it played at f. */
  {
    GtkWindow *d = menu_item (editor, "Jump", "Retime…", TRUE);
    g_autoptr (GBytes) saved = NULL;
    g_autoptr (GArray) ranges = retime_ranges (da, 2, jump);
    const guint8 *db;
    int curve;

    g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (named (d, "anim-scale"))), ==,
                       2);
    g_assert_true (press (d, "accept"));
    g_assert_cmpstr (undo_label (tw.document), ==, "Retime Jump ×2");
    saved = save (tw.document, path);
    db = g_bytes_get_data (saved, NULL);
    g_assert_cmpuint (ref_check_retimed (da, jump, db, ref_anim_find (db, 2, "Jump"), 2, 2), >,
                      600);
    g_assert_cmpint (ref_anim_frame_count (db, ref_anim_find (db, 2, "Jump")), ==, 90);
    /* The other animations, and all but Jump's frames, byte for byte. */
    ref_assert_same_except (fres, saved, ranges);
    /* The editor shows the retimed animation: its row selected again, its curves 90 frames long. */
    g_assert_cmpint (tress_curve_anim_actions_get_target (editor), >=, 0);
    curve
        = tress_bfres_find_curve (tress_document_get_model (tw.document), "Jump/Root/Translate Z");
    g_assert_cmpint (curve, >=, 0);
    {
      const TressCurve *c
          = tress_curve_document_get_curve (TRESS_CURVE_DOCUMENT (tw.document), (guint)curve);

      g_assert_cmpfloat (tress_curve_get_key (c, tress_curve_get_n_keys (c) - 1)->frame, ==, 90);
    }
    g_assert_nonnull (strstr (tress_curve_editor_get_message (editor), "45 → 90 frames"));
    check_undo_redo (&tw, path, fres, saved);
  }

  /* Frame Count… 30: refused (keys past it), the cost shown; trimmed on request. */
  {
    GtkWindow *d = menu_item (editor, "Jump", "Frame Count…", TRUE);
    g_autoptr (GBytes) saved = NULL;
    GtkWidget *error;

    gtk_spin_button_set_value (GTK_SPIN_BUTTON (named (d, "anim-frames")), 30);
    g_assert_false (press (d, "accept"));
    error = named (d, "anim-dialog-error");
    g_assert_true (gtk_widget_get_visible (error));
    g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (error)), "94 keys past frame 30"));
    g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (error)), "Trimming cuts them"));
    g_assert_null (undo_label (tw.document));
    tress_test_wait_frame (GTK_WIDGET (d));
    g_assert_true (press (d, "alternative"));
    g_assert_cmpstr (undo_label (tw.document), ==, "Trim Jump to 30 Frames");
    saved = save (tw.document, path);
    g_assert_cmpint (
        ref_anim_frame_count (g_bytes_get_data (saved, NULL),
                              ref_anim_find (g_bytes_get_data (saved, NULL), 2, "Jump")),
        ==, 30);
    check_undo_redo (&tw, path, fres, saved);
  }

  /* Loop: the flag (bit 2 of the sub-file's flags) the other way round, nothing else. */
  {
    gboolean loops = (ref_u32 (da, jump + 0x0C) >> 2) & 1;
    g_autoptr (GBytes) saved = NULL;
    g_autoptr (GArray) ranges = g_array_new (FALSE, FALSE, sizeof (RefRange));

    menu_item (editor, "Jump", "Loop", FALSE);
    g_assert_cmpstr (undo_label (tw.document), ==, loops ? "Play Jump Once" : "Loop Jump");
    saved = save (tw.document, path);
    g_assert_cmphex (ref_u32 (g_bytes_get_data (saved, NULL), jump + 0x0C), ==,
                     ref_u32 (da, jump + 0x0C) ^ 4);
    ref_allow (ranges, jump + 0x0C, 4);
    ref_assert_same_except (fres, saved, ranges);
    g_assert_cmpuint (g_bytes_get_size (saved), ==, g_bytes_get_size (fres));
    check_undo_redo (&tw, path, fres, saved);
  }

  /* Rename… to Hop: found under its new name only. */
  {
    GtkWindow *d = menu_item (editor, "Jump", "Rename…", TRUE);
    g_autoptr (GBytes) saved = NULL;
    const guint8 *db;

    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (named (d, "anim-name"))), ==, "Jump");
    gtk_editable_set_text (GTK_EDITABLE (named (d, "anim-name")), "Hop");
    g_assert_true (press (d, "accept"));
    g_assert_cmpstr (undo_label (tw.document), ==, "Rename Jump to Hop");
    saved = save (tw.document, path);
    db = g_bytes_get_data (saved, NULL);
    ref_assert_groups_searchable (db);
    g_assert_cmpuint (ref_anim_find (db, 2, "Jump"), ==, 0);
    g_assert_cmpuint (ref_anim_find (db, 2, "Hop"), ==, jump);
    /* The renamed row is the one selected. */
    g_assert_cmpint (find_row (editor, "Hop"), >=, 0);
    check_undo_redo (&tw, path, fres, saved);
  }

  /* Duplicate… (the default name): a copy that reads as Jump. */
  {
    GtkWindow *d = menu_item (editor, "Jump", "Duplicate…", TRUE);
    g_autoptr (GBytes) saved = NULL;
    const guint8 *db;
    gsize copy;

    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (named (d, "anim-name"))), ==,
                     "Jump_copy");
    g_assert_true (press (d, "accept"));
    g_assert_cmpstr (undo_label (tw.document), ==, "Duplicate Jump as Jump_copy");
    saved = save (tw.document, path);
    db = g_bytes_get_data (saved, NULL);
    ref_assert_groups_searchable (db);
    copy = ref_anim_find (db, 2, "Jump_copy");
    g_assert_cmpuint (copy, !=, 0);
    g_assert_cmpuint (ref_anim_find (db, 2, "Jump"), ==, jump);
    assert_same_anim (db, jump, db, copy, 2);
    check_undo_redo (&tw, path, fres, saved);
  }

  /* Delete… asks; Cancel keeps it, Delete takes it out of the index group. */
  {
    GtkWindow *d = menu_item (editor, "Jump", "Delete…", TRUE);
    g_autoptr (GBytes) saved = NULL;
    const guint8 *db;

    g_assert_nonnull (
        strstr (gtk_label_get_text (GTK_LABEL (named (d, "anim-dialog-text"))), "“Jump”"));
    g_assert_true (press (d, "cancel"));
    g_assert_null (undo_label (tw.document));
    d = menu_item (editor, "Jump", "Delete…", TRUE);
    g_assert_true (press (d, "accept"));
    g_assert_cmpstr (undo_label (tw.document), ==, "Delete Jump");
    saved = save (tw.document, path);
    db = g_bytes_get_data (saved, NULL);
    ref_assert_groups_searchable (db);
    g_assert_cmpuint (ref_anim_find (db, 2, "Jump"), ==, 0);
    g_assert_cmpuint (ref_anim_find (db, 2, "Dead"), ==, ref_anim_find (da, 2, "Dead"));
    check_undo_redo (&tw, path, fres, saved);
  }

  /* Shift+F10 on the selected row opens the same menu; Escape closes it. */
  {
    GtkWidget *tree = tress_test_find_type (GTK_WIDGET (editor), GTK_TYPE_COLUMN_VIEW);
    GtkWidget *old = tress_curve_anim_actions_get_menu (editor), *menu = NULL;
    GtkWidget *cell;

    collapse_others (editor, "Jump");
    cell = show_row (tree, find_row (editor, "Jump"));

    click (cell);
    g_assert_false (old != NULL && gtk_widget_get_mapped (old));
    tress_test_pointer_key (GDK_KEY_Shift_L, TRUE);
    tress_test_pointer_key_unwatched (GDK_KEY_F10, TRUE);
    tress_test_pointer_key_unwatched (GDK_KEY_F10, FALSE);
    tress_test_pointer_key (GDK_KEY_Shift_L, FALSE);
    TRESS_TEST_WAIT_FOR ((menu = tress_curve_anim_actions_get_menu (editor)) != old
                         && gtk_widget_get_mapped (menu));
    g_assert_nonnull (tress_test_find_label_text (menu, "Retime…"));
    g_assert_cmpint (tress_curve_anim_actions_get_target (editor), ==,
                     tress_bfres_find_anim (tress_document_get_model (tw.document), "Jump", NULL));
    tress_test_pointer_key_unwatched (GDK_KEY_Escape, TRUE);
    tress_test_pointer_key_unwatched (GDK_KEY_Escape, FALSE);
    TRESS_TEST_WAIT_FOR (!gtk_widget_get_mapped (menu));
  }
  tress_test_window_close (&tw);
}

static void
test_niff (void)
{
  g_autoptr (GBytes) niff = tress_test_load_sample (RINGS);
  g_autofree char *path = NULL, *cli_in = NULL, *cli_out = NULL;
  g_autoptr (GBytes) saved = NULL, expected = NULL;
  TressTestWindow tw = { 0 };
  TressCurveEditor *editor;
  GtkWindow *d;

  if (niff == NULL)
    {
      g_test_skip ("no samples");
      return;
    }
  path = tress_test_write_tmp ("rings", "Rings.niff", niff);
  tress_test_window_open (&tw, path, TRESS_TYPE_CURVE_EDITOR, 960, 640);
  if (!tress_test_pointer_available (tw.editor))
    {
      tress_test_window_close (&tw);
      return;
    }
  editor = TRESS_CURVE_EDITOR (tw.editor);
  /* The animation nests under the scene's root object, below the first
   * screen: found with the filter, as a user would. */
  tress_curve_editor_set_filter (editor, "HightRight");

  /* Retime ×1.5 lands keys between whole frames: refused in the dialog, no way around. */
  d = menu_item (editor, "HightRight_Animation", "Retime…", TRUE);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (named (d, "anim-scale")), 1.5);
  g_assert_false (press (d, "accept"));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (named (d, "anim-dialog-error"))),
                            "whole frames only"));
  g_assert_false (gtk_widget_get_visible (named (d, "anim-dialog-alternative")));
  g_assert_null (undo_label (tw.document));
  /* ×2 goes through: the bytes tress-cli writes. */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (named (d, "anim-scale")), 2);
  g_assert_true (press (d, "accept"));
  g_assert_cmpstr (undo_label (tw.document), ==, "Retime HightRight_Animation ×2");
  saved = save (tw.document, path);
  cli_in = tress_test_write_tmp ("rings-cli", "in.niff", niff);
  cli_out = g_build_filename (tress_test_tmpdir (), "rings-cli", "out.niff", NULL);
  {
    const char *argv[]
        = { "retime", cli_in, "HightRight_Animation", "--scale", "2", "-o", cli_out, NULL };

    g_assert_cmpint (tress_test_run_cli (argv, NULL, NULL), ==, 0);
  }
  expected = tress_test_read_file (cli_out);
  tress_test_assert_bytes_equal (saved, expected);
  check_undo_redo (&tw, path, niff, saved);

  /* Delete: the group moves an object: refused, said in the dialog. */
  d = menu_item (editor, "HightRight_Animation", "Delete…", TRUE);
  g_assert_false (press (d, "accept"));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (named (d, "anim-dialog-error"))),
                            "moves object \"HightRight\""));
  g_assert_true (press (d, "cancel"));
  g_assert_null (undo_label (tw.document));
  tress_test_window_close (&tw);
}

int
main (int argc, char **argv)
{
  tress_test_window_init (&argc, &argv);
  g_test_add_func ("/curve-anim-ops/bfres", test_bass);
  g_test_add_func ("/curve-anim-ops/niff", test_niff);
  return g_test_run ();
}
