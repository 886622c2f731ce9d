/* test-gltf-import-run.c: one import run as the CLI and the dialog make it
 *
 * On a generated file (its model inside it) exported to a GLB: the names
 * listed, the pairing by name with what is left out said, the builds, the
 * changed animations stored in one batch (the same bytes as storing them one
 * by one; every byte the same when nothing changed), a refusal that leaves
 * the file untouched, a cancel, and the summary lines.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "formats/bfres/tress-bfres-builder.h"
#include "formats/bfres/tress-bfres-skeletal.h"
#include "gltf-import-test.h"
#include "interchange/tress-gltf-import-run.h"
#include "tress-test-utils.h"

#define N_ANIMS 4

typedef struct
{
  GBytes *file;
  Bfres b;
  GBytes *glb;
} Fixture;

static void
fixture_open (Fixture *f)
{
  g_autoptr (GError) error = NULL;

  f->file = tress_bfres_build_test_file (12, 200, N_ANIMS, 20, &error);
  g_assert_no_error (error);
  bfres_open (&f->b, f->file, NULL);
  f->glb = export_glb (&f->b);
}

static void
fixture_clear (Fixture *f)
{
  bfres_clear (&f->b);
  g_bytes_unref (f->glb);
  g_bytes_unref (f->file);
}

static TressGltfImport *
import_new (Fixture *f, TressGltfDocument *doc, double fps)
{
  g_autoptr (GError) error = NULL;
  TressGltfImportOptions o = { fps, 0 };
  TressGltfImport *imp
      = tress_gltf_import_new (f->b.bfres, f->b.model_fres, f->b.source, doc, &o, &error);

  g_assert_no_error (error);
  return imp;
}

static gboolean
has_line (GPtrArray *lines, const char *part)
{
  for (guint i = 0; i < lines->len; i++)
    if (strstr (lines->pdata[i], part) != NULL)
      return TRUE;
  return FALSE;
}

static void
test_names (void)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *none = tress_gltf_import_list_names (names);
  g_autofree char *three = NULL, *many = NULL;

  g_assert_cmpstr (none, ==, "none");
  for (guint i = 0; i < 3; i++)
    g_ptr_array_add (names, g_strdup_printf ("b%u", i));
  three = tress_gltf_import_list_names (names);
  g_assert_cmpstr (three, ==, "b0, b1, b2");
  for (guint i = 3; i < 15; i++)
    g_ptr_array_add (names, g_strdup_printf ("b%u", i));
  many = tress_gltf_import_list_names (names);
  g_assert_cmpstr (many, ==, "b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11 and 3 more");
}

/* The export read back at its own rate: nothing to store, the same bytes. */
static void
test_unchanged (void)
{
  g_autoptr (GError) error = NULL;
  Fixture f;
  g_autoptr (TressGltfDocument) doc = NULL;
  g_autoptr (TressGltfImport) imp = NULL;
  g_autoptr (GPtrArray) skipped = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) pairs = NULL;
  g_autoptr (TressGltfImportResult) r = NULL;
  g_autoptr (GBytes) before = NULL, after = NULL;
  gint done = 0;

  fixture_open (&f);
  doc = read_doc (f.glb);
  imp = import_new (&f, doc, 30);
  pairs = tress_gltf_import_pair_all (doc, imp, skipped);
  g_assert_cmpuint (pairs->len, ==, 2 * N_ANIMS);
  g_assert_cmpuint (skipped->len, ==, 0);
  r = tress_gltf_import_build_all (imp, pairs, NULL, &done, &error);
  g_assert_no_error (error);
  g_assert_cmpint (done, ==, N_ANIMS);
  g_assert_cmpuint (r->anims->len, ==, N_ANIMS);
  g_assert_cmpuint (r->n_changed, ==, 0);
  before = tress_bfres_get_bfres_bytes (f.b.bfres);
  g_assert_true (tress_gltf_import_store (r, f.b.bfres, &error));
  g_assert_no_error (error);
  after = tress_bfres_get_bfres_bytes (f.b.bfres);
  g_assert_true (g_bytes_equal (before, after));
  g_assert_cmpuint (r->size_before, ==, r->size_after);
  for (guint i = 0; i < r->anims->len; i++)
    {
      g_autoptr (GPtrArray) lines = tress_gltf_import_describe (r, i);
      const TressGltfImportAnim *a = r->anims->pdata[i];
      g_autofree char *first = g_strdup_printf ("%d frames at 30 fps; ", a->frame_count);

      g_assert_true (g_str_has_prefix (lines->pdata[0], first));
      g_assert_true (has_line (lines, "every component as the file has it"));
      g_assert_false (has_line (lines, "grows by"));
    }
  fixture_clear (&f);
}

/* At twice the rate every animation is refitted: stored in one batch, the
 * same bytes as storing each one by one on the file as read. */
static void
test_rewritten (void)
{
  g_autoptr (GError) error = NULL;
  Fixture f;
  g_autoptr (TressGltfDocument) doc = NULL;
  g_autoptr (TressGltfImport) imp = NULL;
  g_autoptr (GArray) pairs = NULL;
  g_autoptr (TressGltfImportResult) r = NULL;
  g_autoptr (TressBfres) one_by_one = NULL;
  g_autoptr (GBytes) batch = NULL, each = NULL;

  fixture_open (&f);
  doc = read_doc (f.glb);
  imp = import_new (&f, doc, 60);
  pairs = tress_gltf_import_pair_all (doc, imp, NULL);
  r = tress_gltf_import_build_all (imp, pairs, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r->n_changed, ==, N_ANIMS);
  one_by_one = tress_bfres_parse (f.file, "one-by-one.bfres", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < r->anims->len; i++)
    {
      const TressGltfImportAnim *a = r->anims->pdata[i];

      g_assert_true (tress_bfres_replace_skeletal (one_by_one, a->file_anim, a->bones, a->n_bones,
                                                   a->frame_count, a->store_tolerance, NULL,
                                                   &error));
      g_assert_no_error (error);
    }
  g_assert_true (tress_gltf_import_store (r, f.b.bfres, &error));
  g_assert_no_error (error);
  g_assert_true (r->stored);
  g_assert_cmpint (r->failed, ==, -1);
  batch = tress_bfres_get_bfres_bytes (f.b.bfres);
  each = tress_bfres_get_bfres_bytes (one_by_one);
  g_assert_true (g_bytes_equal (batch, each));
  g_assert_cmpuint (r->size_after, ==, g_bytes_get_size (batch));
  g_assert_cmpuint (r->size_after, >, r->size_before);
  for (guint i = 0; i < r->anims->len; i++)
    {
      g_autoptr (GPtrArray) lines = tress_gltf_import_describe (r, i);
      const TressGltfImportAnim *a = r->anims->pdata[i];
      g_autofree char *curves = g_strdup_printf (
          "curves: %u added, %u removed, %u kept, %u refitted (%u keys fitted)", a->curves_added,
          a->curves_removed, a->curves_kept, a->curves_refit, a->n_keys);
      g_autofree char *frames = g_strdup_printf ("%d frames at 60 fps (the frame count changes "
                                                 "from %d)",
                                                 a->frame_count, a->old_frame_count);

      g_assert_cmpint (a->frame_count, ==, 2 * a->old_frame_count);
      g_assert_true (g_str_has_prefix (lines->pdata[0], frames));
      g_assert_true (g_str_has_prefix (lines->pdata[1], curves));
      g_assert_cmpuint (a->curves_refit, >, 0);
      g_assert_true (g_str_has_prefix (lines->pdata[2], "against the glTF: positions within "));
      g_assert_true (has_line (lines, "The file grows by"));
      g_assert_false (has_line (lines, "every component as the file has it"));
    }
  fixture_clear (&f);
}

/* Animations without a name of the file, or a name twice, are said and
 * left out. */
static void
test_skipped (void)
{
  Fixture f;
  Edit e;
  g_autoptr (GBytes) glb = NULL;
  g_autoptr (TressGltfDocument) doc = NULL;
  g_autoptr (TressGltfImport) imp = NULL;
  g_autoptr (GPtrArray) skipped = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) pairs = NULL;
  g_autofree char *second = NULL, *twice = NULL;

  fixture_open (&f);
  edit_open (&e, f.glb);
  json_object_set_string_member (edit_get (&e, "animations", 0), "name", "Nowhere");
  second = g_strdup (json_object_get_string_member (edit_get (&e, "animations", 1), "name"));
  json_object_set_string_member (edit_get (&e, "animations", 2), "name", second);
  glb = edit_to_glb (&e);
  edit_clear (&e);
  doc = read_doc (glb);
  imp = import_new (&f, doc, 30);
  pairs = tress_gltf_import_pair_all (doc, imp, skipped);
  g_assert_cmpuint (pairs->len, ==, 2 * (N_ANIMS - 2));
  g_assert_cmpuint (g_array_index (pairs, guint, 0), ==, 1);
  g_assert_cmpint (g_array_index (pairs, guint, 1), ==, tress_gltf_import_find_anim (imp, second));
  g_assert_cmpuint (skipped->len, ==, 2);
  g_assert_cmpstr (skipped->pdata[0], ==,
                   "not imported: “Nowhere”: no skeletal animation of that name");
  twice = g_strdup_printf ("not imported: animations[2]: a second animation named “%s” (the first "
                           "is imported)",
                           second);
  g_assert_cmpstr (skipped->pdata[1], ==, twice);
  fixture_clear (&f);
}

/* An animation the file cannot store: said with its name, nothing stored. */
static void
test_refused (void)
{
  g_autoptr (GError) error = NULL;
  Fixture f;
  g_autoptr (TressGltfDocument) doc = NULL;
  g_autoptr (TressGltfImport) imp = NULL;
  g_autoptr (GArray) pairs = NULL;
  g_autoptr (TressGltfImportResult) r = NULL;
  g_autoptr (GBytes) before = NULL, after = NULL;
  g_autofree char *prefix = NULL;
  TressGltfImportAnim *bad;

  fixture_open (&f);
  doc = read_doc (f.glb);
  imp = import_new (&f, doc, 60);
  pairs = tress_gltf_import_pair_all (doc, imp, NULL);
  r = tress_gltf_import_build_all (imp, pairs, NULL, NULL, &error);
  g_assert_no_error (error);
  bad = r->anims->pdata[2];
  bad->frame_count = -1;
  before = tress_bfres_get_bfres_bytes (f.b.bfres);
  g_assert_false (tress_gltf_import_store (r, f.b.bfres, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  prefix = g_strdup_printf ("“%s” cannot be stored: A frame count of -1", bad->name);
  g_assert_true (g_str_has_prefix (error->message, prefix));
  g_assert_cmpint (r->failed, ==, 2);
  g_assert_false (r->stored);
  after = tress_bfres_get_bfres_bytes (f.b.bfres);
  g_assert_true (g_bytes_equal (before, after));
  for (guint i = 0; i < r->anims->len; i++)
    g_assert_cmpuint (((GPtrArray *)r->notes->pdata[i])->len, ==, 0);
  fixture_clear (&f);
}

static void
test_cancelled (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  Fixture f;
  g_autoptr (TressGltfDocument) doc = NULL;
  g_autoptr (TressGltfImport) imp = NULL;
  g_autoptr (GArray) pairs = NULL;
  g_autoptr (TressGltfImportResult) r = NULL;
  gint done = 0;

  fixture_open (&f);
  doc = read_doc (f.glb);
  imp = import_new (&f, doc, 30);
  pairs = tress_gltf_import_pair_all (doc, imp, NULL);
  g_cancellable_cancel (cancellable);
  r = tress_gltf_import_build_all (imp, pairs, cancellable, &done, &error);
  g_assert_null (r);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (done, ==, 0);
  fixture_clear (&f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gltf-import-run/names", test_names);
  g_test_add_func ("/gltf-import-run/unchanged", test_unchanged);
  g_test_add_func ("/gltf-import-run/rewritten", test_rewritten);
  g_test_add_func ("/gltf-import-run/skipped", test_skipped);
  g_test_add_func ("/gltf-import-run/refused", test_refused);
  g_test_add_func ("/gltf-import-run/cancelled", test_cancelled);
  return g_test_run ();
}
