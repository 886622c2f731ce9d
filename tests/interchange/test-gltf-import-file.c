/* test-gltf-import-file.c: what the import writes, and tress-cli import-gltf
 *
 * The import's bone animations stored with tress_bfres_replace_skeletal are
 * read back from the written bytes by a new parser and animator: the
 * animation poses as the glTF, validation finds nothing new, and every other
 * animation and the index groups are byte for byte what they were (compared
 * through tress-cli dump's JSON, which holds each curve's offsets and raw
 * arrays). The command is run as a user runs it: its exit codes, its
 * messages, OUT written or left alone.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "formats/bfres/tress-bfres-skeletal.h"
#include "formats/tress-problem.h"
#include "gltf-import-test.h"
#include "tress-test-utils.h"

static char *
tmp (const char *name)
{
  return g_build_filename (tress_test_tmpdir (), name, NULL);
}

static void
write_file (const char *path, GBytes *bytes)
{
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize)g_bytes_get_size (bytes), NULL));
}

/* The dump's "groups" and its animations other than @except, as JSON. */
static JsonNode *
dump_parts (TressBfres *bfres, const char *except)
{
  g_autoptr (GBytes) text = tress_test_dump (&tress_format_bfres, bfres);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *root, *out = json_object_new ();
  JsonArray *anims, *kept = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_parser_load_from_data (parser, g_bytes_get_data (text, NULL),
                              (gssize)g_bytes_get_size (text), &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  json_object_set_member (out, "groups", json_node_copy (json_object_get_member (root, "groups")));
  anims = json_object_get_array_member (root, "animations");
  for (guint i = 0; i < json_array_get_length (anims); i++)
    {
      JsonObject *a = json_array_get_object_element (anims, i);

      if (g_strcmp0 (json_object_get_string_member (a, "name"), except) != 0)
        json_array_add_element (kept, json_node_copy (json_array_get_element (anims, i)));
    }
  json_object_set_array_member (out, "animations", kept);
  json_node_take_object (node, out);
  return node;
}

/* "Wait" with Spine_1 turned stored in the file: read back, it poses as
 * the glTF; the rest of the file is untouched; validation is clean. */
static void
test_stored (void)
{
  static const double x[3] = { 1, 0, 0 };
  Bfres b, after;
  Edit e = { 0 };
  g_autoptr (GBytes) glb = NULL, edited = NULL, written = NULL;
  g_autoptr (TressGltfDocument) doc = NULL;
  g_autoptr (TressGltfImportAnim) a = NULL;
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) problems = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) before_parts = NULL, after_parts = NULL;
  g_autofree TressBfresMatrix *got = NULL, *want = NULL, *target = NULL;
  g_autofree gboolean *matched = NULL;
  Gltf g = { 0 };
  Worst w = { 0, 0 };
  double extra[4];
  guint n;
  float *q;
  int k;

  load_bass (&b);
  if (b.bfres == NULL)
    return;
  glb = export_glb (&b);
  edit_open (&e, glb);
  q = edit_floats (
      &e, edit_accessor (edit_anim (&e, "Wait"), edit_node (&e, "Spine_1"), "rotation", "output"),
      &n);
  axis_angle (x, 20, extra);
  for (guint i = 0; i < n; i++)
    {
      double v[4] = { q[4 * i], q[4 * i + 1], q[4 * i + 2], q[4 * i + 3] }, r[4];

      quat_mul (v, extra, r);
      for (guint c = 0; c < 4; c++)
        q[4 * i + c] = (float)r[c];
    }
  edited = edit_to_glb (&e);
  doc = read_doc (edited);
  a = import_one (&b, doc, "Wait", NULL);
  g_assert_false (a->unchanged);
  before_parts = dump_parts (b.bfres, "Wait");
  g_assert_true (tress_bfres_replace_skeletal (b.bfres, a->file_anim, a->bones, a->n_bones,
                                               a->frame_count, a->store_tolerance, notes, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < notes->len; i++)
    g_test_message ("note: %s", (const char *)notes->pdata[i]);
  written = tress_bfres_serialize (b.bfres, &error);
  g_assert_no_error (error);

  /* Read back from the bytes alone. */
  bfres_open_model (&after, written, NULL, b.model_fres);
  after_parts = dump_parts (after.bfres, "Wait");
  g_assert_true (json_node_equal (before_parts, after_parts));
  problems = tress_format_bfres.validate (after.bfres);
  g_assert_cmpuint (tress_problem_list_count (problems, TRESS_SEVERITY_ERROR), ==, 0);

  k = skeletal_named (&after, "Wait");
  g_assert_cmpint (tress_bfres_animator_get_anims (after.animator)->skeletal[k].frame_count, ==,
                   a->frame_count);
  got = g_new0 (TressBfresMatrix, after.model->skeleton.n_bones);
  want = g_new0 (TressBfresMatrix, after.model->skeleton.n_bones);
  target = g_new0 (TressBfresMatrix, after.model->skeleton.n_bones);
  matched = g_new0 (gboolean, after.model->skeleton.n_bones);
  gltf_read_glb (&g, edited);
  for (int f = 0; f <= a->frame_count; f++)
    {
      original_pose (&after, k, f, got);
      gltf_targets (&g, &b, "Wait", f, 30, target, matched);
      spec_pose (&b, a, f, want);
      for (guint i = 0; i < after.model->skeleton.n_bones; i++)
        {
          g_assert_true (matched[i]);
          worst_add (&w, got[i].m, target[i].m, b.size);
          /* The file plays the spec within the storage's half of the tolerance. */
          g_assert_cmpfloat (position_between (got[i].m, want[i].m), <=, 1e-4 * b.size);
        }
    }
  g_test_message ("Wait as stored against the glTF: %.2g of the size, %.2g°", w.position,
                  w.rotation);
  g_assert_cmpfloat (w.position, <=, POSITION_LIMIT);
  g_assert_cmpfloat (w.rotation, <=, ROTATION_LIMIT);
  gltf_clear (&g);
  edit_clear (&e);
  bfres_clear (&after);
  bfres_clear (&b);
}

/* tress-cli import-gltf, as a user runs it. */
static void
test_cli (void)
{
  g_autofree char *path = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *glb_path = tmp ("cli.glb"), *out = tmp ("cli-out.bfres");
  g_autofree char *bad_glb = tmp ("cli-cut.glb"), *nowhere = NULL, *other = tmp ("other.glb");
  g_autoptr (GBytes) original = NULL, glb = NULL, renamed = NULL;
  Bfres b;
  Edit e = { 0 };
  int rc;

  if (path == NULL)
    return;
  load_bass (&b);
  glb = export_glb (&b);
  write_file (glb_path, glb);
  original = tress_test_read_file (path);

  /* The export as it is: every animation as the file has it, OUT the same bytes. */
  {
    const char *argv[] = { "import-gltf", path, glb_path, "-o", out, NULL };
    g_autofree char *so = NULL, *se = NULL;
    g_autoptr (GBytes) written = NULL;

    rc = tress_test_run_cli (argv, &so, &se);
    g_assert_cmpint (rc, ==, 0);
    g_assert_nonnull (strstr (so, "“Wait”: every component as the file has it"));
    g_assert_nonnull (strstr (so, "7 animations imported (0 changed, 7 as they were)"));
    g_assert_nonnull (strstr (so, "tolerance: translations 6.15e-05"));
    written = tress_test_read_file (out);
    tress_test_assert_bytes_equal (original, written);
  }
  /* --animation that the glTF lacks, or the file: 2, the names listed. */
  {
    const char *argv[] = { "import-gltf", path, glb_path, "--animation", "Swim", "-o", out, NULL };
    g_autofree char *se = NULL;

    rc = tress_test_run_cli (argv, NULL, &se);
    g_assert_cmpint (rc, ==, 2);
    g_assert_nonnull (strstr (se, "no animation “Swim”; its animations: Dead, Jump, Move"));
  }
  /* A glTF whose animations all have other names: nothing to import, 1. */
  edit_open (&e, glb);
  {
    JsonArray *anims = json_object_get_array_member (e.root, "animations");
    const char *argv[] = { "import-gltf", path, other, "-o", out, NULL };
    g_autofree char *so = NULL, *se = NULL;

    for (guint i = 0; i < json_array_get_length (anims); i++)
      {
        g_autofree char *name = g_strdup_printf ("Take %u", i);
        json_object_set_string_member (json_array_get_object_element (anims, i), "name", name);
      }
    renamed = edit_to_glb (&e);
    write_file (other, renamed);
    rc = tress_test_run_cli (argv, &so, &se);
    g_assert_cmpint (rc, ==, 1);
    g_assert_nonnull (strstr (so, "not imported: “Take 0”"));
    g_assert_nonnull (strstr (se, "nothing to import"));
  }
  {
    /* … and naming one of them: the file has no skeletal animation of that name. */
    const char *argv[] = { "import-gltf", path, other, "--animation", "Take 1", "-o", out, NULL };
    g_autofree char *se = NULL;

    rc = tress_test_run_cli (argv, NULL, &se);
    g_assert_cmpint (rc, ==, 2);
    g_assert_nonnull (strstr (se, "no skeletal animation “Take 1”; the skeletal animations: Dead"));
  }
  edit_clear (&e);
  /* A cut GLB: 2, the offset named. */
  {
    g_autoptr (GBytes) cut = g_bytes_new_from_bytes (glb, 0, g_bytes_get_size (glb) / 2);
    const char *argv[] = { "import-gltf", path, bad_glb, "-o", out, NULL };
    g_autofree char *se = NULL;

    write_file (bad_glb, cut);
    rc = tress_test_run_cli (argv, NULL, &se);
    g_assert_cmpint (rc, ==, 2);
    g_assert_nonnull (strstr (se, "GLB length at offset 0x8"));
  }
  /* Bad options: 2. */
  {
    const char *argv[] = { "import-gltf", path, glb_path, "--fps", "0", "-o", out, NULL };
    const char *argv2[] = { "import-gltf", path, glb_path, "--tolerance", "-1", "-o", out, NULL };
    const char *argv3[] = { "import-gltf", path, glb_path, NULL };

    g_assert_cmpint (tress_test_run_cli (argv, NULL, NULL), ==, 2);
    g_assert_cmpint (tress_test_run_cli (argv2, NULL, NULL), ==, 2);
    g_assert_cmpint (tress_test_run_cli (argv3, NULL, NULL), ==, 2);
  }
  /* OUT that cannot be written: 3, and nothing there. */
  {
    const char *argv[] = { "import-gltf", path, glb_path, "-o", NULL, NULL };

    nowhere = g_build_filename (tress_test_tmpdir (), "no such folder", "out.bfres", NULL);
    argv[4] = nowhere;
    rc = tress_test_run_cli (argv, NULL, NULL);
    g_assert_cmpint (rc, ==, 3);
    g_assert_false (g_file_test (nowhere, G_FILE_TEST_EXISTS));
  }
  bfres_clear (&b);
}

/* A changed animation through the command: written, said, and an earlier
 * OUT replaced whole. */
static void
test_cli_changed (void)
{
  g_autofree char *path = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *glb_path = tmp ("fast.glb"), *out = tmp ("fast.bfres");
  g_autoptr (GBytes) glb = NULL, edited = NULL;
  Bfres b, after;
  Edit e = { 0 };
  guint n;
  float *times;
  int rc;

  if (path == NULL)
    return;
  load_bass (&b);
  glb = export_glb (&b);
  edit_open (&e, glb);
  times = edit_floats (&e, edit_accessor (edit_anim (&e, "Peck"), 0, "rotation", "input"), &n);
  for (guint i = 0; i < n; i++)
    times[i] /= 2;
  edited = edit_to_glb (&e);
  write_file (glb_path, edited);
  {
    const char *argv[] = { "import-gltf", path, glb_path, "--animation", "Peck", "-o", out, NULL };
    g_autofree char *so = NULL, *se = NULL;
    g_autoptr (GBytes) written = NULL;

    rc = tress_test_run_cli (argv, &so, &se);
    g_test_message ("%s%s", so, se);
    g_assert_cmpint (rc, ==, 0);
    g_assert_nonnull (strstr (so, "“Peck”: 20 frames at 30 fps (the frame count changes from 40)"));
    g_assert_nonnull (strstr (so, "“Peck”: as stored: positions within"));
    g_assert_nonnull (strstr (so, "1 animation imported (1 changed, 0 as they were)"));
    written = tress_test_read_file (out);
    bfres_open_model (&after, written, NULL, b.model_fres);
    g_assert_cmpint (tress_bfres_animator_get_anims (after.animator)
                         ->skeletal[skeletal_named (&after, "Peck")]
                         .frame_count,
                     ==, 20);
    bfres_clear (&after);
  }
  edit_clear (&e);
  bfres_clear (&b);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gltf-import-file/stored", test_stored);
  g_test_add_func ("/gltf-import-file/cli", test_cli);
  g_test_add_func ("/gltf-import-file/cli-changed", test_cli_changed);
  return g_test_run ();
}
