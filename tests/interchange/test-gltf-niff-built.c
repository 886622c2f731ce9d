/* test-gltf-niff-built.c: glTF export of NIFF files built for the purpose, and tress-cli
 *
 * Files from tress_niff_builder: a UniqueScale that is not uniform above a
 * turned child (a sheared frame), a parent scaled to nothing, an animation
 * whose frames are all alike, keys that are not numbers; the export's
 * options (AnimGroups named, fps), its progress and cancelling; then
 * tress-cli export-gltf of dragon.nif: what it says, --animation, the
 * refusals, a scene that cannot be read. Compared with the preview as in
 * test-gltf-niff.c (gltf-niff-compare.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "core/tress-progress.h"
#include "../niff/niff-test-samples.h"
#include "gltf-niff-compare.h"
#include "tress-test-utils.h"

/* ---- built files ------------------------------------------------------------------------ */

static const float square[12] = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0 };
static const guint32 square_tris[6] = { 0, 1, 2, 0, 2, 3 };

/* A NIFF2 scene: "Parent" grows along X by a UniqueScale key (1 → 2 over 4
 * frames), "Child" below it turned 45° about Z; "Flat" beside them, a
 * flat-shaded square. Frame rate 60. */
static GBytes *
build_unique_scale (void)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (TRUE, 0);
  g_autoptr (GError) error = NULL;
  const float one[3] = { 1, 1, 1 }, two[3] = { 2, 1, 1 }, none[3] = { 0, 0, 0 };
  const float turn[1] = { (float)(G_PI / 4) }, zero[1] = { 0 }, at[3] = { 1, 0, 0 };
  const float red[4] = { 1, 0, 0, 1 };
  guint gp, gc, gf, parent, child, flat;
  GBytes *bytes;

  tress_niff_builder_add_name (b, "built");
  gp = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "Parent_anim"),
                                     TRESS_NIFF_ANIM_STATIC, 60, 0);
  gc = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "Child_anim"),
                                     TRESS_NIFF_ANIM_STATIC, 60, 0);
  gf = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "Flat_anim"),
                                     TRESS_NIFF_ANIM_STATIC, 60, 0);
  tress_niff_builder_add_channel_key (b, gp, TRESS_NIFF_UNIQUE_SCALE, TRESS_NIFF_CHANNEL_LINEAR, 0,
                                      one, none);
  tress_niff_builder_add_channel_key (b, gp, TRESS_NIFF_UNIQUE_SCALE, TRESS_NIFF_CHANNEL_LINEAR, 4,
                                      two, none);
  tress_niff_builder_add_channel_key (b, gc, TRESS_NIFF_ROTATE_Z, TRESS_NIFF_CHANNEL_LINEAR, 0,
                                      turn, zero);
  tress_niff_builder_add_channel_key (b, gc, TRESS_NIFF_TRANSLATION, TRESS_NIFF_CHANNEL_LINEAR, 0,
                                      at, none);
  tress_niff_builder_add_channel_key (b, gf, TRESS_NIFF_TRANSLATION, TRESS_NIFF_CHANNEL_LINEAR, 0,
                                      none, none);
  parent = tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "Parent"), gp);
  child = tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "Child"), gc);
  flat = tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "Flat"), gf);
  tress_niff_builder_set_parent (b, child, parent);
  tress_niff_builder_add_shape (b, child, tress_niff_builder_add_name (b, "ChildShape"), square, 4,
                                square_tris, 2, red, TRUE);
  tress_niff_builder_add_shape (b, flat, tress_niff_builder_add_name (b, "FlatShape"), square, 4,
                                square_tris, 2, red, FALSE);
  bytes = tress_niff_builder_finish (b, &error);
  g_assert_no_error (error);
  return bytes;
}

/* A UniqueScale that is not uniform shears the child's frame: the child is
 * placed exactly with the nearest axes, and said. The file's rate (60)
 * gives the time; --fps (options.fps) overrides it. AnimGroups left out hold
 * their frame 0. */
static void
test_unique_scale (void)
{
  g_autoptr (GBytes) bytes = build_unique_scale ();
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GBytes) glb = NULL;
  TressNiffFile *file = niff_parse_ok (bytes);
  g_autofree double *times = NULL;
  g_autofree M4 *world = NULL;
  GArray *tracks;
  Preview p;
  guint n_times;
  Gltf g;

  preview_init (&p, file, "built");
  glb = export_glb (file, NULL, notes);
  gltf_read_glb (&g, glb);
  g_assert_true (approximated (notes, "Child"));
  g_assert_false (approximated (notes, "Parent"));
  tracks = tracks_of (&g, gltf_get (&g, "animations", 0), &times, &n_times);
  g_assert_cmpuint (n_times, ==, 5);
  g_assert_cmpfloat_with_epsilon (times[1], 1 / 60.0, 1e-7);
  world = g_new (M4, gltf_count (&g, "nodes"));
  for (guint f = 0; f < 5; f++)
    {
      M4 want;
      double position = 0, axes = 0;

      worlds_at (&g, tracks, (int)f, world);
      preview_pose (&p, f);
      m4_from_graphene (&tress_scene_get_node (p.animator->scene, 1)->world, &want);
      distance (&world[1], &want, 1, &position, &axes);
      g_assert_cmpfloat (position, <, 1e-6);
      /* Exact at frame 0 (no scale yet), the nearest axes after. */
      if (f == 0)
        g_assert_cmpfloat (axes, <, 1e-6);
      else if (f == 4)
        g_assert_cmpfloat (axes, >, 0.1);
    }
  /* The flat square has no normals (glTF's readers shade it flat); the smooth one has. */
  for (guint m = 0; m < gltf_count (&g, "meshes"); m++)
    {
      JsonObject *mesh = gltf_get (&g, "meshes", m);
      JsonObject *prim
          = json_array_get_object_element (json_object_get_array_member (mesh, "primitives"), 0);

      g_assert_cmpint (
          json_object_has_member (json_object_get_object_member (prim, "attributes"), "NORMAL"), ==,
          g_str_equal (json_object_get_string_member (mesh, "name"), "ChildShape"));
    }
  tracks_free (tracks);
  gltf_clear (&g);
  g_clear_pointer (&glb, g_bytes_unref);

  /* --fps 24, and only the child's AnimGroup: the parent holds its frame 0,
   * so that nothing moves at all. */
  {
    const guint only[1] = { 1 };
    TressGltfNiffOptions options = { 24, only, 1 };

    g_ptr_array_set_size (notes, 0);
    glb = export_glb (file, &options, notes);
    gltf_read_glb (&g, glb);
    g_assert_cmpuint (gltf_count (&g, "animations"), ==, 0);
    g_assert_true (has_note (notes, "the AnimGroups named hold still: no animation is written"));
    gltf_clear (&g);
    g_clear_pointer (&glb, g_bytes_unref);
  }
  {
    const guint only[1] = { 0 };
    TressGltfNiffOptions options = { 24, only, 1 };
    JsonObject *x;

    glb = export_glb (file, &options, NULL);
    gltf_read_glb (&g, glb);
    g_clear_pointer (&times, g_free);
    tracks = tracks_of (&g, gltf_get (&g, "animations", 0), &times, &n_times);
    g_assert_cmpfloat_with_epsilon (times[1], 1 / 24.0, 1e-7);
    /* Parent's scale moves, and with it the child's nearest axes; Flat stays. */
    g_assert_cmpuint (g_array_index (tracks, Track, 0).node, ==, 0);
    g_assert_cmpuint (g_array_index (tracks, Track, 0).path, ==, 2);
    for (guint i = 1; i < tracks->len; i++)
      g_assert_cmpuint (g_array_index (tracks, Track, i).node, ==, 1);
    x = niff_extras (gltf_get (&g, "animations", 0));
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (x, "animGroups")), ==,
                      1);
    tracks_free (tracks);
    gltf_clear (&g);
  }
  preview_clear (&p);
  tress_format_niff.free (file);
}

/* A parent scaled to nothing (NIFF1 records: the scale stays in its matrix)
 * at frame 2: its child's transform holds from the sample before, and that
 * is said; elsewhere the child is exact. */
static void
test_zero_scale (void)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (FALSE, 0);
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL, glb = NULL;
  const float rest[9] = { 0, 0, 0, 0, 0, 0, 1, 1, 1 }, gone[9] = { 0, 0, 0, 0, 0, 0, 0, 0, 0 };
  const float child_at[9] = { 0, 2, 0, 0.5f, 0, 0, 1, 1, 1 };
  guint gp, gc, parent, child;
  TressNiffFile *file;

  tress_niff_builder_add_name (b, "zero");
  gp = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "P"), TRESS_NIFF_ANIM_FULL,
                                     0, 0);
  gc = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "C"),
                                     TRESS_NIFF_ANIM_STATIC, 0, 0);
  tress_niff_builder_add_full (b, gp, rest);
  tress_niff_builder_add_full (b, gp, rest);
  tress_niff_builder_add_full (b, gp, gone);
  tress_niff_builder_add_full (b, gp, rest);
  tress_niff_builder_add_static (b, gc, child_at);
  parent = tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "P"), gp);
  child = tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "C"), gc);
  tress_niff_builder_set_parent (b, child, parent);
  bytes = tress_niff_builder_finish (b, &error);
  g_assert_no_error (error);
  file = niff_parse_ok (bytes);
  glb = export_glb (file, NULL, notes);
  g_assert_true (has_note (notes, "1 node samples lie under a parent scaled to nothing"));
  {
    Gltf g;
    Preview p;
    double *times = NULL;
    guint n_times;
    GArray *tracks;
    M4 world[2], want;

    gltf_read_glb (&g, glb);
    preview_init (&p, file, "zero");
    tracks = tracks_of (&g, gltf_get (&g, "animations", 0), &times, &n_times);
    g_assert_cmpuint (n_times, ==, 4);
    for (guint f = 0; f < 4; f++)
      {
        double position = 0, axes = 0;

        worlds_at (&g, tracks, (int)f, world);
        preview_pose (&p, f);
        m4_from_graphene (&tress_scene_get_node (p.animator->scene, 1)->world, &want);
        distance (&world[1], &want, 2, &position, &axes);
        g_assert_cmpfloat (position + axes, <, 1e-6);
      }
    g_free (times);
    tracks_free (tracks);
    preview_clear (&p);
    gltf_clear (&g);
  }
  tress_format_niff.free (file);
}

/* An animation whose frames are all alike: said, and not written. */
static void
test_still (void)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (FALSE, 0);
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL, glb = NULL;
  const float rest[9] = { 1, 2, 3, 0.1f, 0.2f, 0.3f, 1, 1, 1 };
  TressNiffFile *file;
  guint g;
  Gltf gltf;

  tress_niff_builder_add_name (b, "still");
  g = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "S"), TRESS_NIFF_ANIM_FULL,
                                    0, 0);
  for (guint f = 0; f < 3; f++)
    tress_niff_builder_add_full (b, g, rest);
  tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "S"), g);
  bytes = tress_niff_builder_finish (b, &error);
  g_assert_no_error (error);
  file = niff_parse_ok (bytes);
  glb = export_glb (file, NULL, notes);
  gltf_read_glb (&gltf, glb);
  g_assert_cmpuint (gltf_count (&gltf, "animations"), ==, 0);
  g_assert_false (json_object_has_member (gltf.root, "buffers"));
  g_assert_cmpuint (notes->len, ==, 1);
  g_assert_cmpstr (notes->pdata[0], ==,
                   "“still”: its 2 frames move nothing: no animation is written");
  gltf_clear (&gltf);
  tress_format_niff.free (file);
}

/* A key that is not a number: the file stays valid JSON and numbers, and it is said. */
static void
test_not_finite (void)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (FALSE, 0);
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL, glb = NULL;
  const float good[9] = { 0, 0, 0, 0, 0, 0, 1, 1, 1 };
  const float bad[9] = { NAN, 0, 0, 0, INFINITY, 0, 1, 1, 1 };
  TressNiffFile *file;
  guint g, n, comps;
  Gltf gltf;

  tress_niff_builder_add_name (b, "nan");
  g = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "N"), TRESS_NIFF_ANIM_FULL,
                                    0, 0);
  tress_niff_builder_add_full (b, g, bad);
  tress_niff_builder_add_full (b, g, good);
  tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "N"), g);
  bytes = tress_niff_builder_finish (b, &error);
  g_assert_no_error (error);
  file = niff_parse_ok (bytes);
  glb = export_glb (file, NULL, notes);
  gltf_read_glb (&gltf, glb);
  for (guint a = 0; a < gltf_count (&gltf, "accessors"); a++)
    {
      g_autofree double *v = gltf_accessor (&gltf, a, &n, &comps);

      for (guint i = 0; i < n * comps; i++)
        g_assert_true (isfinite (v[i]));
    }
  g_assert_true (has_note (notes, "values that were not finite numbers are written as 0"));
  gltf_clear (&gltf);
  tress_format_niff.free (file);
}

/* ---- tress-cli ------------------------------------------------------------------------------ */

static char *
tmp (const char *name)
{
  return g_build_filename (tress_test_tmpdir (), name, NULL);
}

/* export-gltf of a NIFF file: what it wrote and what it could not carry,
 * said; --animation names AnimGroups; .gltf with its .bin;
 * --split-anim-groups. */
static void
test_cli (void)
{
  g_autofree char *dragon = tress_test_sample_path ("niff/dragon.nif");
  g_autofree char *glb = tmp ("dragon.glb"), *gltf = tmp ("dragon two.gltf");
  g_autofree char *bin = tmp ("dragon two.bin"), *out = NULL, *err = NULL;
  g_autoptr (GBytes) bytes = NULL;
  Gltf g;

  if (dragon == NULL)
    return;
  {
    const char *argv[] = { "export-gltf", dragon, "-o", glb, NULL };

    g_assert_cmpint (tress_test_run_cli (argv, &out, &err), ==, 0);
  }
  g_assert_nonnull (strstr (out, "dragon.nif: wrote "));
  g_assert_nonnull (strstr (out, ": 33 nodes, 21 meshes, 0 skins, 1 animation at 30 fps\n"));
  g_assert_nonnull (strstr (out, "dragon.nif: not carried: 3 textures and their images: not read"));
  g_assert_nonnull (strstr (out, "dragon.nif: not carried: 1 light: not read\n"));
  g_assert_nonnull (strstr (out, "dragon.nif: not carried: 1 camera: no glTF camera is written"));
  bytes = tress_test_read_file (glb);
  gltf_read_glb (&g, bytes);
  g_assert_cmpstr (json_object_get_string_member (gltf_get (&g, "animations", 0), "name"), ==,
                   "dragon");
  gltf_clear (&g);
  g_clear_pointer (&bytes, g_bytes_unref);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* One AnimGroup: only its object moves. */
  {
    const char *argv[]
        = { "export-gltf", dragon, "--animation", "Animation_for_head", "-o", gltf, NULL };
    JsonArray *channels;

    g_assert_cmpint (tress_test_run_cli (argv, &out, &err), ==, 0);
    g_assert_true (g_file_test (bin, G_FILE_TEST_IS_REGULAR));
    gltf_read_gltf (&g, gltf);
    channels = json_object_get_array_member (gltf_get (&g, "animations", 0), "channels");
    g_assert_cmpuint (json_array_get_length (channels), >, 0);
    for (guint i = 0; i < json_array_get_length (channels); i++)
      {
        JsonObject *t
            = json_object_get_object_member (json_array_get_object_element (channels, i), "target");

        g_assert_cmpstr (
            json_object_get_string_member (
                gltf_get (&g, "nodes", json_object_get_int_member (t, "node")), "name"),
            ==, "head");
      }
    gltf_clear (&g);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }

  /* --split-anim-groups with two AnimGroups named: an animation each, said. */
  {
    const char *argv[] = { "export-gltf",
                           dragon,
                           "--animation",
                           "Animation_for_head",
                           "--animation",
                           "Animation_for_mouth",
                           "--split-anim-groups",
                           "-o",
                           glb,
                           NULL };

    g_assert_cmpint (tress_test_run_cli (argv, &out, &err), ==, 0);
    g_assert_nonnull (strstr (out, ": 33 nodes, 21 meshes, 0 skins, 2 animations at 30 fps\n"));
    bytes = tress_test_read_file (glb);
    gltf_read_glb (&g, bytes);
    g_assert_cmpuint (gltf_count (&g, "animations"), ==, 2);
    g_assert_cmpstr (json_object_get_string_member (gltf_get (&g, "animations", 0), "name"), ==,
                     "Animation_for_mouth");
    g_assert_cmpstr (json_object_get_string_member (gltf_get (&g, "animations", 1), "name"), ==,
                     "Animation_for_head");
    gltf_clear (&g);
    g_clear_pointer (&bytes, g_bytes_unref);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }

  /* Refusals: an AnimGroup the file lacks (listing them), --model. */
  {
    const char *argv[] = { "export-gltf", dragon, "--animation", "Fly", "-o", glb, NULL };

    g_assert_cmpint (tress_test_run_cli (argv, &out, &err), ==, 2);
    g_assert_nonnull (strstr (err, "no AnimGroup “Fly”; the AnimGroups: Animation_for_Dragon_All, "
                                   "Animation_for_dragon_Group,"));
    g_assert_nonnull (strstr (err, "and 21 more (tress-cli info "));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *argv[] = { "export-gltf", dragon, "--model", dragon, "-o", glb, NULL };

    g_assert_cmpint (tress_test_run_cli (argv, &out, &err), ==, 2);
    g_assert_nonnull (strstr (err, "--model is for BFRES animations; a NIFF file holds its own "
                                   "scene"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
}

/* A scene list that links nowhere: exit 1, the reader's words, nothing written. */
static void
test_cli_broken (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/dragon.nif");
  g_autofree char *path = tmp ("broken.nif"), *glb = tmp ("broken.glb"), *err = NULL;
  g_autofree guint8 *d = NULL;
  gsize size, obj;

  if (bytes == NULL)
    return;
  size = g_bytes_get_size (bytes);
  d = g_memdup2 (g_bytes_get_data (bytes, NULL), size);
  /* Dragon_All's first child link (after its 22 words; no LODs). */
  obj = niff_raw_element (d, niff_raw_find_list (d, size, 0x00020000), 0);
  g_assert_cmpuint (niff_be32 (d + obj + 0x38), ==, 1);
  niff_put32 (d + obj + 88, 0x7FFF);
  g_assert_true (g_file_set_contents (path, (const char *)d, size, NULL));
  {
    const char *argv[] = { "export-gltf", path, "-o", glb, NULL };

    g_assert_cmpint (tress_test_run_cli (argv, NULL, &err), ==, 1);
  }
  g_assert_nonnull (strstr (err, "broken.nif: "));
  g_assert_nonnull (strstr (err, "Obj 0 obj_child_link at offset 0x2a8: expected an index below 33 "
                                 "(the objects), found 32767"));
  g_assert_false (g_file_test (glb, G_FILE_TEST_EXISTS));
}

/* The export reports to the thread's progress and stops when it is cancelled. */
static void
test_progress (void)
{
  g_autoptr (GBytes) bytes = build_unique_scale ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (TressProgress) progress = tress_progress_new (cancellable);
  g_autoptr (TressGltfWriter) w = NULL;
  TressNiffFile *file = niff_parse_ok (bytes);
  const char *phase;
  guint64 done, total;
  TressProgressUnit unit;

  tress_progress_run_begin (progress);
  w = tress_gltf_niff_export (file, "built", NULL, NULL, &error);
  g_assert_no_error (error);
  tress_progress_get (progress, &phase, &done, &total, &unit);
  g_assert_cmpstr (phase, ==, "Exporting animations");
  g_assert_cmpuint (total, ==, 5 * 3); /* 5 frames × 3 nodes */
  g_assert_cmpuint (done, ==, total);
  g_clear_pointer (&w, tress_gltf_writer_free);
  g_cancellable_cancel (cancellable);
  w = tress_gltf_niff_export (file, "built", NULL, NULL, &error);
  tress_progress_run_end ();
  g_assert_null (w);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  /* An AnimGroup the file lacks. */
  {
    const guint bad[1] = { 3 };
    TressGltfNiffOptions options = { 0, bad, 1 };

    w = tress_gltf_niff_export (file, "built", &options, NULL, &error);
    g_assert_null (w);
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_FAILED);
    g_assert_cmpstr (error->message, ==, "No AnimGroup 3 (the file has 3)");
  }
  tress_format_niff.free (file);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gltf-niff-built/unique-scale", test_unique_scale);
  g_test_add_func ("/gltf-niff-built/zero-scale", test_zero_scale);
  g_test_add_func ("/gltf-niff-built/still", test_still);
  g_test_add_func ("/gltf-niff-built/not-finite", test_not_finite);
  g_test_add_func ("/gltf-niff-built/progress", test_progress);
  g_test_add_func ("/gltf-niff-built/cli", test_cli);
  g_test_add_func ("/gltf-niff-built/cli-broken", test_cli_broken);
  return g_test_run ();
}
