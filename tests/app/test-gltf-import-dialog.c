/* test-gltf-import-dialog.c: File → Import Animation from glTF…
 *
 * Under Xvfb, on a copy of the Animal_Bass sample (its model beside it): the
 * menu item and why it is disabled for other formats; the sample exported at
 * 15 fps by tress-cli and imported back through the action and the dialog;
 * the summary; the curves the editor shows; the saved bytes against what
 * `tress-cli import-gltf` writes for the same inputs; undo back to the very
 * bytes of the file, redo to the import again; a glTF with no animation of a
 * BFRES name, said with both lists of names and the document untouched.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "document/tress-curve-document.h"
#include "formats/bfres/tress-bfres-builder.h"
#include "tress-gltf-import-dialog.h"
#include "tress-test-utils.h"
#include "tress-test-window.h"

#define ANIM "bfres/Animal_Bass_Animation.bfres"
#define MODEL "bfres/Animal_Bass.bfres"

/* Copies of the animation and its model in @dir; the animation's path, or
 * NULL (skipped) without the samples. */
static char *
copy_bass (const char *dir)
{
  g_autoptr (GBytes) anim = tress_test_load_sample (ANIM);
  g_autoptr (GBytes) model = anim != NULL ? tress_test_load_sample (MODEL) : NULL;
  g_autofree char *model_path = NULL;

  if (model == NULL)
    return NULL;
  model_path = tress_test_write_tmp (dir, "Animal_Bass.bfres", model);
  return tress_test_write_tmp (dir, "Animal_Bass_Animation.bfres", anim);
}

static TressGltfImportDialog *
find_dialog (void)
{
  return TRESS_GLTF_IMPORT_DIALOG (tress_test_find_toplevel (TRESS_TYPE_GLTF_IMPORT_DIALOG));
}

/* File → Import Animation from glTF…, the file chosen, Import, the result. */
static TressGltfImportDialog *
import (TressWindow *window, const char *gltf)
{
  TressGltfImportDialog *dialog = NULL;
  g_autoptr (GFile) file = g_file_new_for_path (gltf);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.import-gltf", NULL));
  TRESS_TEST_WAIT_FOR ((dialog = find_dialog ()) != NULL);
  /* As the chooser sets it. */
  tress_gltf_import_dialog_set_file (dialog, file);
  tress_gltf_import_dialog_import (dialog);
  g_assert_cmpint (tress_gltf_import_dialog_get_state (dialog), ==, TRESS_GLTF_IMPORT_RUNNING);
  TRESS_TEST_WAIT_FOR (tress_gltf_import_dialog_get_state (dialog) != TRESS_GLTF_IMPORT_RUNNING);
  tress_test_wait_frame (GTK_WIDGET (dialog));
  return dialog;
}

static GBytes *
save (TressDocument *doc, const char *path)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (tress_document_save (doc, NULL, TRUE, NULL, &error));
  g_assert_no_error (error);
  return tress_test_read_file (path);
}

/* Every curve of @doc as a text: the keys the curve editor draws. */
static char *
curves_text (TressCurveDocument *doc)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < tress_curve_document_get_n_curves (doc); i++)
    {
      const TressCurve *c = tress_curve_document_get_curve (doc, i);

      g_string_append_printf (s, "%u:%g:%u", i, c->frame_count, c->keys->len);
      for (guint k = 0; k < c->keys->len; k++)
        g_string_append_printf (s, " %g=%.9g", tress_curve_get_key (c, k)->frame,
                                tress_curve_get_key (c, k)->value);
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

static void
test_menu (void)
{
  g_autofree char *cha = tress_test_tmp_path ("menu", "demo.cha"), *label = NULL;
  const char *gen[] = { "generate-demo", "cha", "-o", cha, NULL };
  TressWindow *window = tress_test_window_new (960, 640);

  label = tress_test_menu_label (window, "win.import-gltf");
  g_assert_cmpstr (label, ==, "_Import Animation from glTF…");
  g_clear_pointer (&label, g_free);
  g_assert_cmpint (tress_test_run_cli (gen, NULL, NULL), ==, 0);
  tress_test_window_open_file (window, cha, G_TYPE_NONE);
  label = tress_test_menu_label (window, "win.import-gltf");
  g_assert_cmpstr (label, ==, "Import Animation from glTF… (only into BFRES files)");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.import-gltf", NULL);
  tress_test_wait_idle ();
  g_assert_null (find_dialog ());
  tress_test_window_destroy (window);
}

/* The sample exported at 15 fps, imported at 30: every animation twice as
 * long, in one undo step; saved as the CLI writes it; undone to the bytes
 * of the file. */
static void
test_import (void)
{
  g_autofree char *path = copy_bass ("import");
  g_autofree char *glb = tress_test_tmp_path ("import", "bass15.glb");
  g_autofree char *cli_out = tress_test_tmp_path ("import", "cli.bfres");
  g_autofree char *label = NULL, *shown_before = NULL, *shown_after = NULL, *cli_shown = NULL;
  g_autofree char *cli_text = NULL;
  g_autoptr (GBytes) original = NULL, saved = NULL, cli_bytes = NULL, undone = NULL;
  g_autoptr (GBytes) redone = NULL;
  TressTestWindow tw = { 0 }, cli_tw = { 0 };
  TressGltfImportDialog *dialog;
  TressHistory *history;
  const char *summary;

  if (path == NULL)
    return;
  {
    const char *export_argv[] = { "export-gltf", path, "--fps", "15", "-o", glb, NULL };
    const char *import_argv[] = { "import-gltf", path, glb, "-o", cli_out, NULL };

    g_assert_cmpint (tress_test_run_cli (export_argv, NULL, NULL), ==, 0);
    g_assert_cmpint (tress_test_run_cli (import_argv, &cli_text, NULL), ==, 0);
  }
  original = tress_test_read_file (path);
  cli_bytes = tress_test_read_file (cli_out);
  g_assert_false (g_bytes_equal (original, cli_bytes));

  tress_test_window_open (&tw, path, G_TYPE_NONE, 960, 640);
  history = tress_document_get_history (tw.document);
  label = tress_test_menu_label (tw.window, "win.import-gltf");
  g_assert_cmpstr (label, ==, "_Import Animation from glTF…");
  shown_before = curves_text (TRESS_CURVE_DOCUMENT (tw.document));

  dialog = import (tw.window, glb);
  g_assert_cmpint (tress_gltf_import_dialog_get_state (dialog), ==, TRESS_GLTF_IMPORT_DONE);
  g_assert_true (g_str_has_prefix (tress_gltf_import_dialog_get_title_text (dialog), "Imported "));
  g_assert_true (
      g_str_has_suffix (tress_gltf_import_dialog_get_title_text (dialog), " from bass15.glb"));
  summary = tress_gltf_import_dialog_get_summary (dialog);
  g_test_message ("%s\n%s", tress_gltf_import_dialog_get_title_text (dialog), summary);
  g_assert_nonnull (strstr (summary, "Posed on model Bass (from Animal_Bass.bfres)"));
  g_assert_nonnull (strstr (summary, "bones matched"));
  g_assert_nonnull (strstr (summary, "curves: "));
  g_assert_nonnull (strstr (summary, "(the frame count changes from"));
  g_assert_nonnull (strstr (summary, "BFRES "));
  g_assert_true (tress_history_can_undo (history));
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 1);
  g_assert_true (g_str_has_prefix (tress_history_get_undo_label (history), "Import "));
  g_assert_true (g_str_has_suffix (tress_history_get_undo_label (history), " from glTF"));
  g_assert_true (tress_document_get_modified (tw.document));

  /* The curves the editor shows are those of the CLI's file. */
  shown_after = curves_text (TRESS_CURVE_DOCUMENT (tw.document));
  g_assert_cmpstr (shown_after, !=, shown_before);
  tress_test_window_open (&cli_tw, cli_out, G_TYPE_NONE, 960, 640);
  cli_shown = curves_text (TRESS_CURVE_DOCUMENT (cli_tw.document));
  tress_test_window_close (&cli_tw);
  g_assert_cmpstr (shown_after, ==, cli_shown);
  gtk_window_close (GTK_WINDOW (dialog));
  TRESS_TEST_WAIT_FOR (find_dialog () == NULL);

  /* Saved: what the CLI writes. */
  saved = save (tw.document, path);
  tress_test_assert_bytes_equal (saved, cli_bytes);

  /* Undone: the very bytes of the file. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (tw.window), "win.undo", NULL));
  {
    g_autofree char *shown = curves_text (TRESS_CURVE_DOCUMENT (tw.document));

    g_assert_cmpstr (shown, ==, shown_before);
  }
  undone = save (tw.document, path);
  tress_test_assert_bytes_equal (undone, original);

  /* Redone: the import again. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (tw.window), "win.redo", NULL));
  redone = save (tw.document, path);
  tress_test_assert_bytes_equal (redone, cli_bytes);
  tress_test_window_close (&tw);
}

/* A glTF whose animations name none of the file's: nothing changes, and the
 * dialog names both lists. */
static void
test_no_match (void)
{
  g_autofree char *path = copy_bass ("nomatch");
  g_autofree char *demo = tress_test_tmp_path ("nomatch", "demo.bfres");
  g_autofree char *glb = tress_test_tmp_path ("nomatch", "demo.glb");
  g_autoptr (GBytes) original = NULL;
  g_autoptr (GBytes) demo_bytes = NULL;
  g_autoptr (GError) error = NULL;
  TressTestWindow tw = { 0 };
  TressGltfImportDialog *dialog;
  const char *title;

  if (path == NULL)
    return;
  demo_bytes = tress_bfres_build_demo (&error);
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (demo, g_bytes_get_data (demo_bytes, NULL),
                                      g_bytes_get_size (demo_bytes), NULL));
  {
    const char *export_argv[] = { "export-gltf", demo, "-o", glb, NULL };

    g_assert_cmpint (tress_test_run_cli (export_argv, NULL, NULL), ==, 0);
  }
  original = tress_test_read_file (path);
  tress_test_window_open (&tw, path, G_TYPE_NONE, 960, 640);
  dialog = import (tw.window, glb);
  title = tress_gltf_import_dialog_get_title_text (dialog);
  g_test_message ("%s", title);
  g_assert_true (g_str_has_prefix (title, "Nothing imported: "));
  /* The form stays for another try. */
  g_assert_cmpint (tress_gltf_import_dialog_get_state (dialog), ==, TRESS_GLTF_IMPORT_READY);
  g_assert_true (gtk_widget_get_sensitive (tress_test_find_named (GTK_WIDGET (dialog), "import")));
  g_assert_nonnull (strstr (title, "has the name of a skeletal animation"));
  g_assert_false (tress_history_can_undo (tress_document_get_history (tw.document)));
  g_assert_false (tress_document_get_modified (tw.document));
  gtk_window_close (GTK_WINDOW (dialog));
  TRESS_TEST_WAIT_FOR (find_dialog () == NULL);
  tress_test_window_close (&tw);
  {
    g_autoptr (GBytes) after = tress_test_read_file (path);

    tress_test_assert_bytes_equal (after, original);
  }
}

/* Cancel while the import runs, then closing the dialog while it runs: the
 * document stays as it was, nothing is recorded. */
static void
test_cancel (void)
{
  g_autofree char *path = copy_bass ("cancel");
  g_autofree char *glb = tress_test_tmp_path ("cancel", "bass15.glb");
  g_autoptr (GFile) file = g_file_new_for_path (glb);
  TressTestWindow tw = { 0 };
  TressGltfImportDialog *dialog = NULL;
  GtkWidget *cancel;

  if (path == NULL)
    return;
  {
    const char *export_argv[] = { "export-gltf", path, "--fps", "15", "-o", glb, NULL };

    g_assert_cmpint (tress_test_run_cli (export_argv, NULL, NULL), ==, 0);
  }
  tress_test_window_open (&tw, path, G_TYPE_NONE, 960, 640);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (tw.window), "win.import-gltf", NULL));
  TRESS_TEST_WAIT_FOR ((dialog = find_dialog ()) != NULL);
  tress_gltf_import_dialog_set_file (dialog, file);
  tress_gltf_import_dialog_import (dialog);
  cancel = tress_test_find_named (GTK_WIDGET (dialog), "cancel");
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (cancel)), ==, "_Cancel");
  g_signal_emit_by_name (cancel, "clicked");
  TRESS_TEST_WAIT_FOR (tress_gltf_import_dialog_get_state (dialog) != TRESS_GLTF_IMPORT_RUNNING);
  g_assert_cmpint (tress_gltf_import_dialog_get_state (dialog), ==, TRESS_GLTF_IMPORT_READY);
  g_assert_cmpstr (tress_gltf_import_dialog_get_title_text (dialog), ==,
                   "The import was stopped; the document is unchanged.");
  g_assert_false (tress_history_can_undo (tress_document_get_history (tw.document)));
  g_assert_false (tress_document_get_modified (tw.document));

  /* Closed while it runs: gone, and the document as it was. */
  tress_gltf_import_dialog_import (dialog);
  gtk_window_close (GTK_WINDOW (dialog));
  TRESS_TEST_WAIT_FOR (find_dialog () == NULL);
  tress_test_spin (200);
  g_assert_false (tress_history_can_undo (tress_document_get_history (tw.document)));
  g_assert_false (tress_document_get_modified (tw.document));
  tress_test_window_close (&tw);
}

/* At 15 frames per second, what `import-gltf --fps 15` writes. */
static void
test_fps (void)
{
  g_autofree char *path = copy_bass ("fps");
  g_autofree char *glb = tress_test_tmp_path ("fps", "bass15.glb");
  g_autofree char *cli_out = tress_test_tmp_path ("fps", "cli.bfres");
  g_autoptr (GFile) file = g_file_new_for_path (glb);
  g_autoptr (GBytes) cli_bytes = NULL, saved = NULL;
  TressTestWindow tw = { 0 };
  TressGltfImportDialog *dialog = NULL;
  GtkWidget *fps;

  if (path == NULL)
    return;
  {
    const char *export_argv[] = { "export-gltf", path, "--fps", "15", "-o", glb, NULL };
    const char *import_argv[] = { "import-gltf", path, glb, "--fps", "15", "-o", cli_out, NULL };

    g_assert_cmpint (tress_test_run_cli (export_argv, NULL, NULL), ==, 0);
    g_assert_cmpint (tress_test_run_cli (import_argv, NULL, NULL), ==, 0);
  }
  cli_bytes = tress_test_read_file (cli_out);
  tress_test_window_open (&tw, path, G_TYPE_NONE, 960, 640);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (tw.window), "win.import-gltf", NULL));
  TRESS_TEST_WAIT_FOR ((dialog = find_dialog ()) != NULL);
  tress_gltf_import_dialog_set_file (dialog, file);
  fps = tress_test_find_named (GTK_WIDGET (dialog), "fps");
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (fps)), ==, 30);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (fps), 15);
  tress_gltf_import_dialog_import (dialog);
  TRESS_TEST_WAIT_FOR (tress_gltf_import_dialog_get_state (dialog) != TRESS_GLTF_IMPORT_RUNNING);
  g_assert_nonnull (strstr (tress_gltf_import_dialog_get_summary (dialog), " at 15 fps"));
  gtk_window_close (GTK_WINDOW (dialog));
  TRESS_TEST_WAIT_FOR (find_dialog () == NULL);
  saved = save (tw.document, path);
  tress_test_assert_bytes_equal (saved, cli_bytes);
  tress_test_window_close (&tw);
}

int
main (int argc, char **argv)
{
  tress_test_window_init (&argc, &argv);
  g_test_add_func ("/gltf-import-dialog/menu", test_menu);
  g_test_add_func ("/gltf-import-dialog/import", test_import);
  g_test_add_func ("/gltf-import-dialog/no-match", test_no_match);
  g_test_add_func ("/gltf-import-dialog/cancel", test_cancel);
  g_test_add_func ("/gltf-import-dialog/fps", test_fps);
  return g_test_run ();
}
