/* test-gltf-export-dialog.c: File → Export as glTF…, as a user drives it
 *
 * Under Xvfb, with the real pointer and keyboard (XTest) where a user would
 * click or type: the menu item and its reason where a format has no export;
 * the dialog on the demo (its model, its animations, what is not carried),
 * the export and its summary; choosing animations, the frame rate and a
 * .gltf with its .bin; Cancel and Escape during an export (no file left); the
 * question before replacing a file; no model found, then one chosen; an
 * export that fails; the keyboard; the size at the editor's default size.
 * Every window is closed with proof that the dialog and the document are
 * freed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <json-glib/json-glib.h>
#include <string.h>

#include "formats/bfres/tress-bfres-builder.h"
#include "tress-gltf-export-dialog.h"
#include "tress-test-pointer.h"
#include "tress-test-utils.h"
#include "tress-test-window.h"

/* ---- helpers ----------------------------------------------------------------- */

static char *
write_demo (const char *dir)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = tress_bfres_build_demo (&error);

  g_assert_no_error (error);
  return tress_test_write_tmp (dir, "demo.bfres", bytes);
}

static TressGltfExportDialog *
find_dialog (void)
{
  return TRESS_GLTF_EXPORT_DIALOG (tress_test_find_toplevel (TRESS_TYPE_GLTF_EXPORT_DIALOG));
}

/* Waits until @dialog has drawn two frames of the same size: what the
 * pointer clicks is where the window shows it. */
static void
settle (TressGltfExportDialog *dialog)
{
  int width = -1, height = -1;

  while (width != gtk_widget_get_width (GTK_WIDGET (dialog))
         || height != gtk_widget_get_height (GTK_WIDGET (dialog)))
    {
      width = gtk_widget_get_width (GTK_WIDGET (dialog));
      height = gtk_widget_get_height (GTK_WIDGET (dialog));
      tress_test_wait_frame (GTK_WIDGET (dialog));
      tress_test_wait_frame (GTK_WIDGET (dialog));
    }
}

/* File → Export as glTF… (the action the menu item and Ctrl+E activate),
 * then the model looked for. */
static TressGltfExportDialog *
open_dialog (TressWindow *window)
{
  TressGltfExportDialog *dialog = NULL;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.export-gltf", NULL));
  TRESS_TEST_WAIT_FOR ((dialog = find_dialog ()) != NULL);
  TRESS_TEST_WAIT_FOR (tress_gltf_export_dialog_get_state (dialog) != TRESS_GLTF_EXPORT_LOOKING);
  settle (dialog);
  return dialog;
}

static GtkWidget *
named (TressGltfExportDialog *dialog, const char *name)
{
  GtkWidget *w = tress_test_find_named (GTK_WIDGET (dialog), name);

  g_assert_nonnull (w);
  return w;
}

static const char *
label_text (TressGltfExportDialog *dialog, const char *name)
{
  return gtk_label_get_text (GTK_LABEL (named (dialog, name)));
}

/* A click in the middle of @widget, with the real pointer. */
static void
click (GtkWidget *widget)
{
  g_assert_true (gtk_widget_get_mapped (widget));
  tress_test_pointer_click (widget, gtk_widget_get_width (widget) / 2.0,
                            gtk_widget_get_height (widget) / 2.0);
}

static void
key (guint keyval)
{
  tress_test_pointer_key (keyval, TRUE);
  tress_test_pointer_key (keyval, FALSE);
}

static void
alt_key (guint keyval)
{
  tress_test_pointer_key (GDK_KEY_Alt_L, TRUE);
  key (keyval);
  tress_test_pointer_key (GDK_KEY_Alt_L, FALSE);
}

/* Checked rows of the animation list, from the model (not the widgets,
 * which exist only for the rows on screen). */
static guint
n_checked (TressGltfExportDialog *dialog, guint *n_rows)
{
  GListModel *model
      = G_LIST_MODEL (gtk_list_view_get_model (GTK_LIST_VIEW (named (dialog, "animations"))));
  guint n = 0;

  *n_rows = g_list_model_get_n_items (model);
  for (guint i = 0; i < *n_rows; i++)
    {
      g_autoptr (GObject) item = g_list_model_get_item (model, i);
      gboolean active;

      g_object_get (item, "active", &active, NULL);
      n += active;
    }
  return n;
}

/* The check button of row @i on screen. */
static GtkWidget *
row_check (TressGltfExportDialog *dialog, const char *name)
{
  GtkWidget *label = tress_test_find_label_text (named (dialog, "animations"), name);

  g_assert_nonnull (label);
  return gtk_widget_get_ancestor (label, GTK_TYPE_CHECK_BUTTON);
}

static void
export_and_wait (TressGltfExportDialog *dialog)
{
  click (named (dialog, "export"));
  TRESS_TEST_WAIT_FOR (tress_gltf_export_dialog_get_state (dialog) != TRESS_GLTF_EXPORT_RUNNING
                       && tress_test_find_toplevel (GTK_TYPE_MESSAGE_DIALOG) == NULL);
}

static void
close_dialog (TressGltfExportDialog *dialog)
{
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *)&dialog);
  gtk_window_close (GTK_WINDOW (dialog));
  TRESS_TEST_WAIT_FOR (dialog == NULL);
}

static gboolean
is_glb (const char *path)
{
  g_autofree char *data = NULL;
  gsize len = 0;

  return g_file_get_contents (path, &data, &len, NULL) && len > 12 && memcmp (data, "glTF", 4) == 0;
}

/* ---- the menu ---------------------------------------------------------------- */

/* The item is there for every document; formats without an export disable
 * it and say why in its label (GTK 4.8's menus show no tooltips). */
static void
test_menu (void)
{
  g_autofree char *demo = write_demo ("menu"), *cha = tress_test_tmp_path ("menu", "demo.cha");
  g_autofree char *label = NULL;
  const char *gen[] = { "generate-demo", "cha", "-o", cha, NULL };
  TressWindow *window = tress_test_window_new (960, 640);

  /* No document: nothing to export, nothing opens. */
  label = tress_test_menu_label (window, "win.export-gltf");
  g_assert_cmpstr (label, ==, "_Export as glTF…");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.export-gltf", NULL);
  tress_test_wait_idle ();
  g_assert_null (find_dialog ());
  g_clear_pointer (&label, g_free);

  tress_test_window_open_file (window, demo, G_TYPE_NONE);
  label = tress_test_menu_label (window, "win.export-gltf");
  g_assert_cmpstr (label, ==, "_Export as glTF…");
  g_clear_pointer (&label, g_free);

  g_assert_cmpint (tress_test_run_cli (gen, NULL, NULL), ==, 0);
  tress_test_window_open_file (window, cha, G_TYPE_NONE);
  label = tress_test_menu_label (window, "win.export-gltf");
  g_assert_cmpstr (label, ==, "Export as glTF… (not for Creature fur files)");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.export-gltf", NULL);
  tress_test_wait_idle ();
  g_assert_null (find_dialog ());
  tress_test_window_destroy (window);
}

/* ---- the demo ---------------------------------------------------------------- */

static void
test_demo (void)
{
  g_autofree char *demo = write_demo ("demo");
  g_autofree char *out = tress_test_tmp_path ("demo", "demo.glb");
  TressWindow *window = tress_test_window_new (960, 640);
  TressGltfExportDialog *dialog;
  GtkWidget *notes;
  guint n_rows;

  tress_test_window_open_file (window, demo, G_TYPE_NONE);
  dialog = open_dialog (window);
  if (!tress_test_pointer_available (GTK_WIDGET (dialog)))
    {
      tress_test_window_destroy (window);
      return;
    }
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (dialog)), ==, "Export “demo.bfres” as glTF");
  g_assert_true (gtk_window_get_modal (GTK_WINDOW (dialog)));
  /* The model in the file, with its joints and meshes. */
  g_assert_cmpstr (label_text (dialog, "model"), ==, "Demo (5 joints, 3 meshes) in demo.bfres");
  /* Wave listed and checked; what glTF cannot carry named under the list. */
  g_assert_cmpuint (n_checked (dialog, &n_rows), ==, 1);
  g_assert_cmpuint (n_rows, ==, 1);
  g_assert_nonnull (row_check (dialog, "Wave"));
  g_assert_cmpstr (label_text (dialog, "animations-note"), ==,
                   "1 of 1 animation chosen. Not listed, as glTF has no place for them: Eyes "
                   "(texture pattern), Blink (bone visibility).");
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (named (dialog, "fps"))), ==, 30);
  g_assert_cmpstr (label_text (dialog, "duration"), ==, "60 frames last 2.00 s");
  /* Each skeletal animation is an animation of its own: no choice to split them. */
  g_assert_false (gtk_widget_get_visible (named (dialog, "split")));
  /* Beside the file, as a .glb. */
  g_assert_cmpstr (g_file_peek_path (tress_gltf_export_dialog_get_output (dialog)), ==, out);
  g_assert_cmpstr (label_text (dialog, "output"), ==, out);
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (named (dialog, "format"))), ==, 0);
  /* Enter exports. */
  g_assert_true (gtk_widget_has_focus (named (dialog, "export")));
  g_assert_null (tress_gltf_export_dialog_get_blocked (dialog));

  export_and_wait (dialog);
  g_assert_cmpint (tress_gltf_export_dialog_get_state (dialog), ==, TRESS_GLTF_EXPORT_DONE);
  g_assert_true (is_glb (out));
  tress_test_wait_frame (GTK_WIDGET (dialog));
  g_assert_true (gtk_widget_get_mapped (named (dialog, "close")));
  g_assert_cmpstr (label_text (dialog, "done-title"), ==, "Exported “demo.glb”");
  g_assert_true (g_str_has_suffix (label_text (dialog, "done-details"),
                                   "\n1 animation at 30 frames per second · 5 joints · 3 meshes"));
  g_assert_cmpstr (label_text (dialog, "notes-heading"), ==, "Not carried by glTF (2)");
  notes = named (dialog, "notes");
  g_assert_cmpuint (
      g_list_model_get_n_items (G_LIST_MODEL (gtk_list_view_get_model (GTK_LIST_VIEW (notes)))), ==,
      2);
  g_assert_nonnull (tress_test_find_label_text (
      notes, "“Blink”: a bone visibility animation (1 curve): glTF has no place for it; not "
             "exported"));
  /* Close: the dialog is gone and freed. */
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *)&dialog);
  click (named (dialog, "close"));
  TRESS_TEST_WAIT_FOR (dialog == NULL);
  tress_test_window_destroy (window);
}

/* ---- NIFF ------------------------------------------------------------------ */

/* A NIFF file exports its own scene: no model to choose, its AnimGroups
 * listed and all chosen; the file written is the scene with its animation,
 * or, with One animation per AnimGroup checked, an animation per AnimGroup
 * that moves a node. */
static void
test_niff (void)
{
  g_autofree char *sample = tress_test_sample_path ("niff/dragon.nif");
  g_autofree char *copy = tress_test_tmp_path ("niff", "dragon.nif"),
                  *out = tress_test_tmp_path ("niff", "dragon.glb"),
                  *gltf = tress_test_tmp_path ("niff", "dragon.gltf");
  g_autofree char *data = NULL;
  gsize len = 0;
  TressWindow *window;
  TressGltfExportDialog *dialog;
  guint n_rows;

  if (sample == NULL)
    return;
  g_assert_true (g_file_get_contents (sample, &data, &len, NULL));
  g_assert_true (g_file_set_contents (copy, data, (gssize)len, NULL));
  window = tress_test_window_new (960, 640);
  tress_test_window_open_file (window, copy, G_TYPE_NONE);
  dialog = open_dialog (window);
  if (!tress_test_pointer_available (GTK_WIDGET (dialog)))
    {
      tress_test_window_destroy (window);
      return;
    }
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (dialog)), ==, "Export “dragon.nif” as glTF");
  g_assert_false (gtk_widget_get_visible (named (dialog, "choose-model")));
  /* The scene the export writes: 33 objects as nodes, 21 shapes as meshes. */
  g_assert_cmpstr (label_text (dialog, "model"), ==,
                   "dragon.nif (33 nodes, 21 meshes) in dragon.nif");
  g_assert_cmpuint (n_checked (dialog, &n_rows), ==, 33);
  g_assert_cmpuint (n_rows, ==, 33);
  g_assert_null (tress_gltf_export_dialog_get_blocked (dialog));
  export_and_wait (dialog);
  g_assert_cmpint (tress_gltf_export_dialog_get_state (dialog), ==, TRESS_GLTF_EXPORT_DONE);
  g_assert_true (is_glb (out));
  g_assert_cmpstr (label_text (dialog, "done-title"), ==, "Exported “dragon.glb”");
  g_assert_nonnull (strstr (label_text (dialog, "done-details"),
                            "\n1 animation at 30 frames per second · 33 nodes · 21 meshes"));
  close_dialog (dialog);

  /* One animation per AnimGroup: unchecked at first, checked with the pointer. */
  dialog = open_dialog (window);
  g_assert_true (gtk_widget_get_visible (named (dialog, "split")));
  g_assert_cmpstr (gtk_check_button_get_label (GTK_CHECK_BUTTON (named (dialog, "split"))), ==,
                   "_One animation per AnimGroup");
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (named (dialog, "split"))));
  click (named (dialog, "split"));
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (named (dialog, "split"))));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (named (dialog, "format")), 1);
  export_and_wait (dialog);
  g_assert_cmpint (tress_gltf_export_dialog_get_state (dialog), ==, TRESS_GLTF_EXPORT_DONE);
  g_assert_nonnull (strstr (label_text (dialog, "done-details"),
                            "\n29 animations at 30 frames per second · 33 nodes · 21 meshes"));
  {
    g_autoptr (JsonParser) parser = json_parser_new ();
    JsonArray *anims;

    g_assert_true (json_parser_load_from_file (parser, gltf, NULL));
    anims = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                          "animations");
    /* Dragon_All and the three NULL_OBJECTs move no node. */
    g_assert_cmpuint (json_array_get_length (anims), ==, 29);
    for (guint i = 0; i < json_array_get_length (anims); i++)
      {
        JsonObject *anim = json_array_get_object_element (anims, i);
        JsonArray *groups = json_object_get_array_member (
            json_object_get_object_member (json_object_get_object_member (anim, "extras"), "niff"),
            "animGroups");

        g_assert_cmpuint (json_array_get_length (groups), ==, 1);
        g_assert_cmpstr (
            json_object_get_string_member (anim, "name"), ==,
            json_object_get_string_member (json_array_get_object_element (groups, 0), "name"));
      }
    g_assert_cmpstr (
        json_object_get_string_member (json_array_get_object_element (anims, 0), "name"), ==,
        "Animation_for_dragon_Group");
  }
  close_dialog (dialog);
  tress_test_window_destroy (window);
}

/* ---- choices ----------------------------------------------------------------- */

static void
test_choices (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = tress_bfres_build_test_file (20, 500, 4, 8, &error);
  g_autofree char *path = NULL, *gltf = tress_test_tmp_path ("choices", "four.gltf");
  g_autofree char *bin = tress_test_tmp_path ("choices", "four.bin");
  TressWindow *window = tress_test_window_new (960, 640);
  TressGltfExportDialog *dialog;
  GtkWidget *export;
  guint n_rows;

  g_assert_no_error (error);
  path = tress_test_write_tmp ("choices", "four.bfres", bytes);
  tress_test_window_open_file (window, path, G_TYPE_NONE);
  dialog = open_dialog (window);
  if (!tress_test_pointer_available (GTK_WIDGET (dialog)))
    {
      tress_test_window_destroy (window);
      return;
    }
  export = named (dialog, "export");
  g_assert_cmpuint (n_checked (dialog, &n_rows), ==, 4);

  /* None: Export says why it waits. */
  click (named (dialog, "select-none"));
  g_assert_cmpuint (n_checked (dialog, &n_rows), ==, 0);
  g_assert_false (gtk_widget_get_sensitive (export));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (export), ==, "Choose at least one animation");
  g_assert_true (g_str_has_prefix (label_text (dialog, "animations-note"), "0 of 4 animations"));
  /* One, clicked on its row. */
  click (row_check (dialog, "Anim_001"));
  g_assert_cmpuint (n_checked (dialog, &n_rows), ==, 1);
  g_assert_true (gtk_widget_get_sensitive (export));
  click (named (dialog, "select-all"));
  g_assert_cmpuint (n_checked (dialog, &n_rows), ==, 4);
  click (named (dialog, "select-none"));
  click (row_check (dialog, "Anim_001"));

  /* 60 frames per second, within 0.01 … 10000. */
  {
    GtkAdjustment *adj = gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (named (dialog, "fps")));

    g_assert_cmpfloat (gtk_adjustment_get_lower (adj), ==, 0.01);
    g_assert_cmpfloat (gtk_adjustment_get_upper (adj), ==, 10000);
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (named (dialog, "fps")), 60);
  }
  g_assert_cmpstr (label_text (dialog, "duration"), ==, "8 frames last 0.13 s");
  /* A .gltf with its .bin: the name follows the format. */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (named (dialog, "format")), 1);
  g_assert_true (g_str_has_suffix (label_text (dialog, "output"), "/four.gltf"));

  export_and_wait (dialog);
  g_assert_cmpint (tress_gltf_export_dialog_get_state (dialog), ==, TRESS_GLTF_EXPORT_DONE);
  g_assert_true (g_file_test (bin, G_FILE_TEST_IS_REGULAR));
  {
    g_autoptr (JsonParser) parser = json_parser_new ();
    JsonObject *root, *anim;
    JsonArray *anims;

    g_assert_true (json_parser_load_from_file (parser, gltf, NULL));
    root = json_node_get_object (json_parser_get_root (parser));
    g_assert_cmpstr (
        json_object_get_string_member (
            json_array_get_object_element (json_object_get_array_member (root, "buffers"), 0),
            "uri"),
        ==, "four.bin");
    /* The one animation checked, at 60 frames per second. */
    anims = json_object_get_array_member (root, "animations");
    g_assert_cmpuint (json_array_get_length (anims), ==, 1);
    anim = json_array_get_object_element (anims, 0);
    g_assert_cmpstr (json_object_get_string_member (anim, "name"), ==, "Anim_001");
    g_assert_cmpfloat (
        json_object_get_double_member (
            json_object_get_object_member (json_object_get_object_member (anim, "extras"), "bfres"),
            "fps"),
        ==, 60);
  }
  g_assert_true (
      g_str_has_prefix (label_text (dialog, "done-details"), "four.gltf and four.bin, "));
  g_assert_nonnull (strstr (label_text (dialog, "done-details"), "1 animation at 60 frames"));
  close_dialog (dialog);
  tress_test_window_destroy (window);
}

/* ---- stopping ---------------------------------------------------------------- */

/* Waits until the export has done part of its animations. */
static void
wait_running (TressGltfExportDialog *dialog)
{
  GtkProgressBar *bar = GTK_PROGRESS_BAR (named (dialog, "progress"));

  TRESS_TEST_WAIT_FOR (tress_gltf_export_dialog_get_state (dialog) == TRESS_GLTF_EXPORT_RUNNING
                       && gtk_progress_bar_get_fraction (bar) > 0);
  g_assert_cmpfloat (gtk_progress_bar_get_fraction (bar), <, 1);
  g_assert_true (
      g_str_has_prefix (label_text (dialog, "progress-label"), "Exporting animations: "));
  g_assert_false (gtk_widget_get_sensitive (named (dialog, "export")));
}

/* No file in @dir but @keep. */
static void
assert_dir_holds (const char *dir, const char *keep)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_strcmp0 (name, keep) != 0)
      g_error ("%s holds %s", dir, name);
}

/* Cancel and Escape in the middle of a big export (50 animations of 240
 * frames on 135 bones): it stops, and no file is left. */
static void
test_cancel (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = tress_bfres_build_test_file (135, 2000, 50, 240, &error);
  g_autofree char *path = NULL, *out = tress_test_tmp_path ("cancel", "big.glb");
  g_autofree char *dir = g_path_get_dirname (out);
  TressWindow *window = tress_test_window_new (960, 640);
  TressGltfExportDialog *dialog;

  g_assert_no_error (error);
  path = tress_test_write_tmp ("cancel", "big.bfres", bytes);
  tress_test_window_open_file (window, path, G_TYPE_NONE);
  dialog = open_dialog (window);
  if (!tress_test_pointer_available (GTK_WIDGET (dialog)))
    {
      tress_test_window_destroy (window);
      return;
    }
  click (named (dialog, "export"));
  wait_running (dialog);
  click (named (dialog, "cancel"));
  TRESS_TEST_WAIT_FOR (tress_gltf_export_dialog_get_state (dialog) == TRESS_GLTF_EXPORT_READY);
  g_assert_cmpstr (label_text (dialog, "message"), ==,
                   "The export was stopped; no file was written.");
  g_assert_false (gtk_widget_has_css_class (named (dialog, "message"), "error"));
  assert_dir_holds (dir, "big.bfres");
  g_assert_true (gtk_widget_get_sensitive (named (dialog, "export")));

  /* Escape (the window closing) stops it too, and the window goes. */
  click (named (dialog, "export"));
  wait_running (dialog);
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *)&dialog);
  key (GDK_KEY_Escape);
  TRESS_TEST_WAIT_FOR (dialog == NULL);
  assert_dir_holds (dir, "big.bfres");
  tress_test_window_destroy (window);
}

/* ---- replacing --------------------------------------------------------------- */

static void
test_replace (void)
{
  g_autofree char *demo = write_demo ("replace"),
                  *out = tress_test_tmp_path ("replace", "demo.glb");
  g_autofree char *text = NULL;
  TressWindow *window = tress_test_window_new (960, 640);
  TressGltfExportDialog *dialog;
  GtkWindow *question;

  g_assert_true (g_file_set_contents (out, "old", -1, NULL));
  tress_test_window_open_file (window, demo, G_TYPE_NONE);
  dialog = open_dialog (window);
  if (!tress_test_pointer_available (GTK_WIDGET (dialog)))
    {
      tress_test_window_destroy (window);
      return;
    }
  click (named (dialog, "export"));
  TRESS_TEST_WAIT_FOR ((question = tress_test_find_toplevel (GTK_TYPE_MESSAGE_DIALOG)) != NULL);
  g_object_get (question, "text", &text, NULL);
  g_assert_cmpstr (text, ==, "Replace “demo.glb”?");
  g_assert_true (gtk_window_get_transient_for (question) == GTK_WINDOW (dialog));
  gtk_dialog_response (GTK_DIALOG (question), GTK_RESPONSE_CANCEL);
  TRESS_TEST_WAIT_FOR (tress_test_find_toplevel (GTK_TYPE_MESSAGE_DIALOG) == NULL);
  g_assert_cmpint (tress_gltf_export_dialog_get_state (dialog), ==, TRESS_GLTF_EXPORT_READY);
  g_assert_false (is_glb (out));

  click (named (dialog, "export"));
  TRESS_TEST_WAIT_FOR ((question = tress_test_find_toplevel (GTK_TYPE_MESSAGE_DIALOG)) != NULL);
  /* Replace, activated as the keyboard does (as the other question tests do). */
  gtk_widget_activate (gtk_dialog_get_widget_for_response (GTK_DIALOG (question), 1));
  TRESS_TEST_WAIT_FOR (tress_gltf_export_dialog_get_state (dialog) == TRESS_GLTF_EXPORT_DONE);
  g_assert_true (is_glb (out));
  close_dialog (dialog);
  tress_test_window_destroy (window);
}

/* ---- the model --------------------------------------------------------------- */

/* Animations of a Root and a Tail, and no model. */
static GBytes *
build_bare (void)
{
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("Bare", 0x03040004);
  g_autoptr (GError) error = NULL;
  TressKey keys[2] = { { .frame = 0, .value = 0 }, { .frame = 10, .value = 1 } };
  TressBfresBuilderCurve c = { .curve_type = TRESS_BFRES_CURVE_LINEAR,
                               .frame_type = TRESS_BFRES_FRAME_U8,
                               .key_type = TRESS_BFRES_KEY_S16,
                               .target_offset = 0x14,
                               .n_keys = 2,
                               .keys = keys };
  GBytes *bytes;

  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_SKELETAL, "Hop", 10, TRUE);
  tress_bfres_builder_add_bone (b, "Root");
  tress_bfres_builder_add_curve (b, &c);
  tress_bfres_builder_add_bone (b, "Tail");
  tress_bfres_builder_add_curve (b, &c);
  bytes = tress_bfres_builder_finish (b, &error);
  g_assert_no_error (error);
  return bytes;
}

static void
test_model (void)
{
  g_autoptr (GBytes) bare = build_bare ();
  g_autofree char *path = tress_test_write_tmp ("model", "Hop_Animation.bfres", bare);
  g_autofree char *demo = write_demo ("model"), *text = tress_test_tmp_path ("model", "notes.txt");
  g_autoptr (GFile) demo_file = g_file_new_for_path (demo);
  g_autoptr (GFile) text_file = g_file_new_for_path (text);
  TressWindow *window = tress_test_window_new (960, 640);
  TressGltfExportDialog *dialog;
  GtkWidget *model, *export;
  GtkWindow *chooser;

  tress_test_window_open_file (window, path, G_TYPE_NONE);
  dialog = open_dialog (window);
  if (!tress_test_pointer_available (GTK_WIDGET (dialog)))
    {
      tress_test_window_destroy (window);
      return;
    }
  model = named (dialog, "model");
  export = named (dialog, "export");
  /* None found: what was looked for, and Export waits for one. */
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (model)),
                                   "No model found: no model or skeleton in Hop_Animation.bfres, "
                                   "no Hop.bfres or Hop.sbfres beside it."));
  g_assert_true (gtk_widget_has_css_class (model, "error"));
  g_assert_false (gtk_widget_get_sensitive (export));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (export), ==,
                   "No model to export on: choose one with Choose Model…");
  /* Choose Model… opens a chooser of BFRES files; Cancel changes nothing. */
  click (named (dialog, "choose-model"));
  TRESS_TEST_WAIT_FOR ((chooser = tress_test_find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG)) != NULL);
  /* Shown and drawn (its folder loads after it maps), as the user sees it
   * before pressing Cancel. */
  tress_test_wait_frame (GTK_WIDGET (chooser));
  tress_test_spin (20);
  tress_test_wait_frame (GTK_WIDGET (chooser));
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
  TRESS_TEST_WAIT_FOR (tress_test_find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG) == NULL);
  g_assert_false (gtk_widget_get_sensitive (export));

  /* A file that is not a model: said. */
  g_assert_true (g_file_set_contents (text, "hello", -1, NULL));
  tress_gltf_export_dialog_set_model_file (dialog, text_file);
  TRESS_TEST_WAIT_FOR (tress_gltf_export_dialog_get_state (dialog) == TRESS_GLTF_EXPORT_READY);
  settle (dialog);
  g_assert_true (
      g_str_has_prefix (gtk_label_get_text (GTK_LABEL (model)), "The model cannot be used: "));
  g_assert_false (gtk_widget_get_sensitive (export));

  /* The demo's model: chosen, the Tail it lacks named. */
  tress_gltf_export_dialog_set_model_file (dialog, demo_file);
  TRESS_TEST_WAIT_FOR (tress_gltf_export_dialog_get_state (dialog) == TRESS_GLTF_EXPORT_READY);
  settle (dialog);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (model)), ==,
                   "Demo (5 joints, 3 meshes) from demo.bfres, chosen\n"
                   "The animations move 1 bone it lacks, left out: Tail");
  g_assert_false (gtk_widget_has_css_class (model, "error"));
  g_assert_true (gtk_widget_get_sensitive (export));
  close_dialog (dialog);

  /* A model chosen for the preview (remembered per animation file) is the
   * one the export uses at first; one that is gone is looked for again. */
  {
    g_autoptr (GSettings) settings = g_settings_new ("io.github.tress.Tress");
    g_autoptr (GFile) hop = g_file_new_for_path (path);
    g_autofree char *hop_uri = g_file_get_uri (hop), *demo_uri = g_file_get_uri (demo_file);
    g_autofree char *gone_uri = g_strconcat (demo_uri, ".gone", NULL);
    GVariantBuilder b;

    g_variant_builder_init (&b, G_VARIANT_TYPE ("a{ss}"));
    g_variant_builder_add (&b, "{ss}", hop_uri, demo_uri);
    g_settings_set_value (settings, "preview-models", g_variant_builder_end (&b));
    dialog = open_dialog (window);
    g_assert_true (g_str_has_prefix (label_text (dialog, "model"),
                                     "Demo (5 joints, 3 meshes) from demo.bfres, as chosen for "
                                     "the preview\n"));
    close_dialog (dialog);

    g_variant_builder_init (&b, G_VARIANT_TYPE ("a{ss}"));
    g_variant_builder_add (&b, "{ss}", hop_uri, gone_uri);
    g_settings_set_value (settings, "preview-models", g_variant_builder_end (&b));
    dialog = open_dialog (window);
    g_assert_true (g_str_has_prefix (label_text (dialog, "model"), "No model found: "));
    g_assert_nonnull (strstr (label_text (dialog, "model"),
                              "\nThe model chosen for the preview cannot be used: "));
    close_dialog (dialog);
    g_settings_reset (settings, "preview-models");
  }
  tress_test_window_destroy (window);
}

/* ---- failure ----------------------------------------------------------------- */

static void
test_failure (void)
{
  g_autofree char *demo = write_demo ("failure"),
                  *nowhere = tress_test_tmp_path ("failure", "gone");
  g_autofree char *out = g_build_filename (nowhere, "demo.glb", NULL);
  g_autoptr (GFile) out_file = g_file_new_for_path (out);
  TressWindow *window = tress_test_window_new (960, 640);
  TressGltfExportDialog *dialog;

  tress_test_window_open_file (window, demo, G_TYPE_NONE);
  dialog = open_dialog (window);
  if (!tress_test_pointer_available (GTK_WIDGET (dialog)))
    {
      tress_test_window_destroy (window);
      return;
    }
  tress_gltf_export_dialog_set_output (dialog, out_file);
  export_and_wait (dialog);
  g_assert_cmpint (tress_gltf_export_dialog_get_state (dialog), ==, TRESS_GLTF_EXPORT_READY);
  g_assert_true (g_str_has_prefix (label_text (dialog, "message"), "Could not export: "));
  g_assert_true (gtk_widget_has_css_class (named (dialog, "message"), "error"));
  g_assert_true (gtk_widget_get_sensitive (named (dialog, "export")));
  g_assert_false (g_file_test (nowhere, G_FILE_TEST_EXISTS));
  close_dialog (dialog);
  tress_test_window_destroy (window);
}

/* ---- the keyboard ------------------------------------------------------------ */

/* Whether a popover in @w is on screen. */
static gboolean
popup_open (GtkWidget *w)
{
  if (GTK_IS_POPOVER (w) && gtk_widget_get_mapped (w))
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    if (popup_open (c))
      return TRUE;
  return FALSE;
}

/* Alt+A to the list, Space and Enter on rows, Down between them, Alt+L
 * (Select All), Alt+O (the format's list, Down and Enter in it), Escape to
 * close. */
static void
test_keyboard (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = tress_bfres_build_test_file (20, 500, 4, 8, &error);
  g_autofree char *path = NULL;
  TressWindow *window = tress_test_window_new (960, 640);
  TressGltfExportDialog *dialog;
  guint n_rows;

  g_assert_no_error (error);
  path = tress_test_write_tmp ("keyboard", "keys.bfres", bytes);
  tress_test_window_open_file (window, path, G_TYPE_NONE);
  dialog = open_dialog (window);
  if (!tress_test_pointer_available (GTK_WIDGET (dialog)))
    {
      tress_test_window_destroy (window);
      return;
    }
  /* (no window manager: the keyboard goes where the pointer is) */
  tress_test_pointer_move (GTK_WIDGET (dialog), 10, 10);
  alt_key (GDK_KEY_a);
  g_assert_true (gtk_widget_is_focus (row_check (dialog, "Anim_000")));
  key (GDK_KEY_space);
  g_assert_cmpuint (n_checked (dialog, &n_rows), ==, 3);
  key (GDK_KEY_Down);
  g_assert_true (gtk_widget_is_focus (row_check (dialog, "Anim_001")));
  key (GDK_KEY_Return);
  g_assert_cmpuint (n_checked (dialog, &n_rows), ==, 2);
  /* (a button activated from the keyboard shows its press for a moment first) */
  alt_key (GDK_KEY_l);
  TRESS_TEST_WAIT_FOR (n_checked (dialog, &n_rows) == 4);
  /* Alt+O opens the format's list; Down and Enter pick the .gltf (keys to
   * the list's popup, a window of its own, are not counted: waited for). */
  tress_test_pointer_key (GDK_KEY_Alt_L, TRUE);
  tress_test_pointer_key (GDK_KEY_o, TRUE);
  tress_test_pointer_key_unwatched (GDK_KEY_o, FALSE);
  tress_test_pointer_key_unwatched (GDK_KEY_Alt_L, FALSE);
  TRESS_TEST_WAIT_FOR (
      gtk_root_get_focus (GTK_ROOT (dialog)) != NULL
      && gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (dialog)), named (dialog, "format")));
  tress_test_pointer_key_unwatched (GDK_KEY_Down, TRUE);
  tress_test_pointer_key_unwatched (GDK_KEY_Down, FALSE);
  tress_test_pointer_key_unwatched (GDK_KEY_Return, TRUE);
  tress_test_pointer_key_unwatched (GDK_KEY_Return, FALSE);
  TRESS_TEST_WAIT_FOR (g_str_has_suffix (label_text (dialog, "output"), "/keys.gltf"));

  TRESS_TEST_WAIT_FOR (!popup_open (named (dialog, "format")));
  /* (without a window manager the closed popup hands the X focus back to no
   * window of ours: the dialog takes it again, as a window manager gives it) */
  gtk_window_present (GTK_WINDOW (dialog));
  tress_test_wait_frame (GTK_WIDGET (dialog));
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *)&dialog);
  /* (the release goes to a window already closed) */
  tress_test_pointer_key (GDK_KEY_Escape, TRUE);
  tress_test_pointer_key_unwatched (GDK_KEY_Escape, FALSE);
  TRESS_TEST_WAIT_FOR (dialog == NULL);
  tress_test_window_destroy (window);
}

/* ---- the size ---------------------------------------------------------------- */

/* At the editor's default size and on a big screen (a maximized editor), the
 * dialog fits the default size with every control on screen; a file of 400
 * animations makes rows only for those near the view. */
static void
test_size (void)
{
  static const char *const controls[]
      = { "animations", "select-all",    "select-none", "fps",    "model", "choose-model",
          "output",     "choose-output", "format",      "cancel", "export" };
  static const int sizes[][2] = { { 960, 640 }, { 1920, 1200 } };
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = tress_bfres_build_test_file (20, 500, 400, 8, &error);
  g_autofree char *path = NULL;

  g_assert_no_error (error);
  path = tress_test_write_tmp ("size", "many.bfres", bytes);
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      TressWindow *window = tress_test_window_new (sizes[s][0], sizes[s][1]);
      TressGltfExportDialog *dialog;
      GtkWidget *list;
      guint n_rows = 0;

      tress_test_window_open_file (window, path, G_TYPE_NONE);
      dialog = open_dialog (window);
      g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (dialog)), <=, 640);
      g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (dialog)), <=, 600);
      for (guint i = 0; i < G_N_ELEMENTS (controls); i++)
        {
          GtkWidget *w = named (dialog, controls[i]);
          graphene_rect_t r;

          g_assert_true (gtk_widget_get_mapped (w));
          g_assert_true (gtk_widget_compute_bounds (w, GTK_WIDGET (dialog), &r));
          g_assert_cmpfloat (r.origin.y + r.size.height, <=,
                             gtk_widget_get_height (GTK_WIDGET (dialog)));
          g_assert_cmpfloat (r.origin.x + r.size.width, <=,
                             gtk_widget_get_width (GTK_WIDGET (dialog)));
        }
      list = named (dialog, "animations");
      for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL;
           row = gtk_widget_get_next_sibling (row))
        n_rows++;
      /* (GTK 4.8's list keeps up to 200 rows around the ones in view, and
       * a few children of its own) */
      g_assert_cmpuint (n_rows, >=, 3);
      g_assert_cmpuint (n_rows, <, 250);
      close_dialog (dialog);
      tress_test_window_destroy (window);
    }
}

int
main (int argc, char **argv)
{
  tress_test_window_init (&argc, &argv);
  g_test_add_func ("/gltf-dialog/menu", test_menu);
  g_test_add_func ("/gltf-dialog/demo", test_demo);
  g_test_add_func ("/gltf-dialog/niff", test_niff);
  g_test_add_func ("/gltf-dialog/choices", test_choices);
  g_test_add_func ("/gltf-dialog/cancel", test_cancel);
  g_test_add_func ("/gltf-dialog/replace", test_replace);
  g_test_add_func ("/gltf-dialog/model", test_model);
  g_test_add_func ("/gltf-dialog/failure", test_failure);
  g_test_add_func ("/gltf-dialog/keyboard", test_keyboard);
  g_test_add_func ("/gltf-dialog/size", test_size);
  return g_test_run ();
}
