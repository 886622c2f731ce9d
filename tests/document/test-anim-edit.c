/* test-anim-edit.c: whole-animation operations on a curve document
 *
 * On the Animal_Bass sample (BFRES) and Rings.niff (NIFF AnimGroups): each
 * operation through tress_anim_edit_apply() is one undo step with the label
 * that names it; the document saved after it holds the very bytes tress-cli
 * writes for the same operation; undo saves the original file again, byte
 * for byte, and redo the operation's bytes. A refusal (frames the file
 * cannot store, keys past a lower frame count, a group an object uses)
 * changes nothing and records nothing, and says why with the cost.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <string.h>

#include "document/tress-anim-edit.h"
#include "formats/bfres/tress-bfres.h"
#include "formats/niff/tress-niff-animops.h"
#include "tress-test-utils.h"

#define BASS "bfres/Animal_Bass_Animation.bfres"
#define RINGS "niff/Rings.niff"

typedef struct
{
  const char *sample;
  const char *anim;
  TressAnimEdit edit;
  const char *label;
  const char *cli[8]; /* after "COMMAND FILE ANIMATION": the options, without -o */
  const char *command;
} Case;

static TressCurveDocument *
open_sample (const char *sample, GBytes **bytes)
{
  g_autoptr (GError) error = NULL;
  TressDocument *doc;

  *bytes = tress_test_load_sample (sample);
  if (*bytes == NULL)
    return NULL;
  tress_curve_document_register_types ();
  doc = tress_document_new_from_bytes (*bytes, sample, &error);
  g_assert_no_error (error);
  g_assert_true (TRESS_IS_CURVE_DOCUMENT (doc));
  return TRESS_CURVE_DOCUMENT (doc);
}

static guint
find_anim (TressCurveDocument *doc, const char *spec)
{
  gpointer model = tress_document_get_model (TRESS_DOCUMENT (doc));
  int found = g_strcmp0 (tress_document_get_format (TRESS_DOCUMENT (doc))->id, "bfres") == 0
                  ? tress_bfres_find_anim (model, spec, NULL)
                  : tress_niff_find_group (model, spec, NULL);

  g_assert_cmpint (found, >=, 0);
  return (guint)found;
}

static GBytes *
save (TressCurveDocument *doc, const char *name)
{
  g_autofree char *path = g_build_filename (tress_test_tmpdir (), name, NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;

  g_assert_true (tress_document_save (TRESS_DOCUMENT (doc), file, TRUE, NULL, &error));
  g_assert_no_error (error);
  return tress_test_read_file (path);
}

/* What tress-cli writes for @c. */
static GBytes *
cli_output (const Case *c, GBytes *input)
{
  g_autofree char *in = g_build_filename (tress_test_tmpdir (), "cli-in", NULL);
  g_autofree char *out = g_build_filename (tress_test_tmpdir (), "cli-out", NULL);
  g_autofree char *err = NULL;
  const char *argv[16] = { c->command, in, c->anim };
  guint n = 3;

  g_assert_true (g_file_set_contents (in, g_bytes_get_data (input, NULL),
                                      (gssize)g_bytes_get_size (input), NULL));
  for (guint i = 0; c->cli[i] != NULL; i++)
    argv[n++] = c->cli[i];
  argv[n++] = "-o";
  argv[n++] = out;
  g_remove (out);
  g_assert_cmpint (tress_test_run_cli (argv, NULL, &err), ==, 0);
  return tress_test_read_file (out);
}

static void
check_case (const Case *c)
{
  g_autoptr (GBytes) original = NULL, expected = NULL, saved = NULL, undone = NULL, redone = NULL;
  g_autoptr (TressCurveDocument) doc = open_sample (c->sample, &original);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  TressHistory *history;
  TressAnimEdit edit = c->edit;

  if (doc == NULL)
    {
      g_test_skip ("no samples");
      return;
    }
  history = tress_document_get_history (TRESS_DOCUMENT (doc));
  edit.anim = find_anim (doc, c->anim);
  g_assert_true (tress_anim_edit_apply (doc, &edit, notes, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (tress_history_get_undo_label (history), ==, c->label);
  expected = cli_output (c, original);
  g_assert_false (g_bytes_equal (expected, original));
  saved = save (doc, "saved");
  tress_test_assert_bytes_equal (saved, expected);

  g_assert_true (tress_history_undo (history));
  g_assert_null (tress_history_get_undo_label (history));
  undone = save (doc, "undone");
  tress_test_assert_bytes_equal (undone, original);
  g_assert_true (tress_history_redo (history));
  redone = save (doc, "redone");
  tress_test_assert_bytes_equal (redone, expected);
}

static void
test_bass_ops (void)
{
  const Case cases[] = {
    { BASS,
      "Jump",
      { .op = TRESS_ANIM_EDIT_RETIME, .scale = 2 },
      "Retime Jump ×2",
      { "--scale", "2" },
      "retime" },
    { BASS,
      "Jump",
      { .op = TRESS_ANIM_EDIT_RETIME, .frames = 90 },
      "Retime Jump to 90 Frames",
      { "--frames", "90" },
      "retime" },
    { BASS,
      "Jump",
      { .op = TRESS_ANIM_EDIT_RETIME, .scale = 1.5, .allow = TRUE },
      "Retime Jump ×1.5",
      { "--scale", "1.5", "--widen" },
      "retime" },
    { BASS,
      "Jump",
      { .op = TRESS_ANIM_EDIT_FRAME_COUNT, .frames = 60 },
      "Set Jump to 60 Frames",
      { "--frames", "60" },
      "set-anim" },
    { BASS,
      "Jump",
      { .op = TRESS_ANIM_EDIT_FRAME_COUNT, .frames = 30, .allow = TRUE },
      "Trim Jump to 30 Frames",
      { "--frames", "30", "--trim" },
      "set-anim" },
    { BASS,
      "Jump",
      { .op = TRESS_ANIM_EDIT_RENAME, .name = "Hop" },
      "Rename Jump to Hop",
      { "--rename", "Hop" },
      "set-anim" },
    { BASS,
      "Jump",
      { .op = TRESS_ANIM_EDIT_DUPLICATE, .name = "Jump_copy" },
      "Duplicate Jump as Jump_copy",
      { "Jump_copy" },
      "duplicate-anim" },
    { BASS, "Jump", { .op = TRESS_ANIM_EDIT_DELETE }, "Delete Jump", { NULL }, "delete-anim" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    check_case (&cases[i]);
}

static void
test_bass_loop (void)
{
  g_autoptr (GBytes) original = NULL;
  g_autoptr (TressCurveDocument) doc = open_sample (BASS, &original);
  g_auto (TressAnimInfo) info = { 0 };
  Case c = { BASS, "Jump", { .op = TRESS_ANIM_EDIT_LOOP }, NULL, { "--loop" }, "set-anim" };

  if (doc == NULL)
    {
      g_test_skip ("no samples");
      return;
    }
  g_assert_true (tress_anim_edit_get_info (doc, find_anim (doc, "Jump"), &info));
  /* The flag the other way round from the file's. */
  c.edit.loop = !info.loops;
  c.cli[1] = c.edit.loop ? "on" : "off";
  c.label = c.edit.loop ? "Loop Jump" : "Play Jump Once";
  check_case (&c);
}

static void
test_niff_ops (void)
{
  const Case cases[] = {
    { RINGS,
      "HightRight_Animation",
      { .op = TRESS_ANIM_EDIT_RETIME, .scale = 2 },
      "Retime HightRight_Animation ×2",
      { "--scale", "2" },
      "retime" },
    { RINGS,
      "HightRight_Animation",
      { .op = TRESS_ANIM_EDIT_FRAME_COUNT, .frames = 25, .allow = TRUE },
      "Trim HightRight_Animation to End at Frame 25",
      { "--frames", "25", "--trim" },
      "set-anim" },
    { RINGS,
      "HightRight_Animation",
      { .op = TRESS_ANIM_EDIT_LOOP, .loop = FALSE },
      "Play HightRight_Animation Once",
      { "--loop", "off" },
      "set-anim" },
    { RINGS,
      "HightRight_Animation",
      { .op = TRESS_ANIM_EDIT_RENAME, .name = "Right" },
      "Rename HightRight_Animation to Right",
      { "--rename", "Right" },
      "set-anim" },
    { RINGS,
      "HightRight_Animation",
      { .op = TRESS_ANIM_EDIT_DUPLICATE, .name = "Copy" },
      "Duplicate HightRight_Animation as Copy",
      { "Copy" },
      "duplicate-anim" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    check_case (&cases[i]);
}

/* @edit refused with a message holding @words; the document as it was, nothing to undo. */
static void
check_refused (const char *sample, const char *anim, TressAnimEdit edit, const char *words)
{
  g_autoptr (GBytes) original = NULL, saved = NULL;
  g_autoptr (TressCurveDocument) doc = open_sample (sample, &original);
  g_autoptr (GError) error = NULL;

  if (doc == NULL)
    {
      g_test_skip ("no samples");
      return;
    }
  edit.anim = find_anim (doc, anim);
  g_assert_false (tress_anim_edit_apply (doc, &edit, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, words));
  g_assert_null (tress_history_get_undo_label (tress_document_get_history (TRESS_DOCUMENT (doc))));
  g_assert_false (tress_document_get_modified (TRESS_DOCUMENT (doc)));
  saved = save (doc, "refused");
  tress_test_assert_bytes_equal (saved, original);
}

static void
test_refusals (void)
{
  check_refused (BASS, "Jump", (TressAnimEdit){ .op = TRESS_ANIM_EDIT_RETIME, .scale = 1.5 },
                 "the file grows by 620 bytes");
  check_refused (BASS, "Jump", (TressAnimEdit){ .op = TRESS_ANIM_EDIT_FRAME_COUNT, .frames = 30 },
                 "has 94 keys past frame 30 in 11 curves");
  check_refused (BASS, "Jump", (TressAnimEdit){ .op = TRESS_ANIM_EDIT_RENAME, .name = "Dead" },
                 "Dead");
  check_refused (RINGS, "HightRight_Animation", (TressAnimEdit){ .op = TRESS_ANIM_EDIT_DELETE },
                 "moves object \"HightRight\"");
  check_refused (RINGS, "HightRight_Animation",
                 (TressAnimEdit){ .op = TRESS_ANIM_EDIT_RETIME, .scale = 1.5 },
                 "whole frames only");
}

/* The curves of an animation name it; a copy's default name is free. */
static void
test_info (void)
{
  g_autoptr (GBytes) original = NULL;
  g_autoptr (TressCurveDocument) doc = open_sample (BASS, &original);
  g_autofree char *copy = NULL, *copy2 = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (TressAnimInfo) info = { 0 };
  guint jump;

  if (doc == NULL)
    {
      g_test_skip ("no samples");
      return;
    }
  jump = find_anim (doc, "Jump");
  g_assert_true (tress_anim_edit_get_info (doc, jump, &info));
  g_assert_cmpstr (info.name, ==, "Jump");
  g_assert_cmpstr (info.kind, ==, "Skeletal");
  g_assert_cmpfloat (info.length, ==, 45);
  for (guint i = 0; i < tress_curve_document_get_n_curves (doc); i++)
    {
      const TressCurve *c = tress_curve_document_get_curve (doc, i);

      g_assert_cmpint (tress_anim_edit_anim_of_curve (doc, i) == (int)jump, ==,
                       g_str_has_prefix (c->path, "Jump/"));
    }
  copy = tress_anim_edit_unique_name (doc, jump);
  g_assert_cmpstr (copy, ==, "Jump_copy");
  g_assert_true (tress_anim_edit_apply (
      doc, &(TressAnimEdit){ .op = TRESS_ANIM_EDIT_DUPLICATE, .anim = jump, .name = copy }, NULL,
      &error));
  g_assert_no_error (error);
  copy2 = tress_anim_edit_unique_name (doc, find_anim (doc, "Jump"));
  g_assert_cmpstr (copy2, ==, "Jump_copy2");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/anim-edit/bfres", test_bass_ops);
  g_test_add_func ("/anim-edit/bfres-loop", test_bass_loop);
  g_test_add_func ("/anim-edit/niff", test_niff_ops);
  g_test_add_func ("/anim-edit/refusals", test_refusals);
  g_test_add_func ("/anim-edit/info", test_info);
  return g_test_run ();
}
