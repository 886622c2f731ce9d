/* test-gltf-demo.c: the export the editor's dialog runs, on the demo
 *
 * Through the table the Export as glTF dialog uses (tress_gltf_exporter_find,
 * list_animations, snapshot, find_model, tress_gltf_export_to_file): the
 * demo's animations listed with what glTF cannot carry; its own model found
 * and described; the file written with its figures and notes. Read back with
 * the tests' own glTF reader, every vertex of every mesh, skinned the glTF
 * way at a sample of the Wave animation, lands where the preview's pose puts
 * it. Then what goes wrong: no model found, a model file that is not one, a
 * cancel during the export (nothing written), a .gltf that cannot be written
 * (its new .bin removed again).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "core/tress-progress.h"
#include "formats/bfres/tress-bfres-builder.h"
#include "formats/bfres/tress-bfres-scene.h"
#include "gltf-test-reader.h"
#include "interchange/tress-gltf-export.h"
#include "tress-test-utils.h"

/* Every animation at 30 frames per second, as the dialog exports by default. */
static const TressGltfExportOptions all_at_30 = { NULL, 0, 30, FALSE };

static char *
tmp (const char *name)
{
  return g_build_filename (tress_test_tmpdir (), name, NULL);
}

static TressBfres *
open_demo (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = tress_bfres_build_demo (&error);
  TressBfres *bfres;

  g_assert_no_error (error);
  bfres = tress_bfres_parse (bytes, "demo.bfres", &error);
  g_assert_no_error (error);
  return bfres;
}

static void
test_list (void)
{
  const TressGltfExporter *e = tress_gltf_exporter_find ("bfres");
  g_autoptr (TressBfres) demo = open_demo ();
  g_autoptr (GArray) all = NULL;
  guint n_exportable = 0;

  g_assert_nonnull (e);
  g_assert_null (tress_gltf_exporter_find ("cha"));
  g_assert_null (tress_gltf_exporter_find (NULL));
  all = e->list_animations (demo);
  g_assert_cmpuint (all->len, ==, 3);
  for (guint i = 0; i < all->len; i++)
    {
      const TressGltfExportAnimation *a = &g_array_index (all, TressGltfExportAnimation, i);
      TressBfresAnimInfo info;

      /* In the file's numbering, as TressGltfBfresOptions takes it. */
      g_assert_true (tress_bfres_get_anim_info (demo, a->index, &info));
      g_assert_cmpstr (info.name, ==, a->name);
      g_assert_cmpstr (info.kind, ==, a->kind);
      if (a->exportable)
        {
          n_exportable++;
          g_assert_cmpstr (a->name, ==, "Wave");
          g_assert_cmpfloat (a->frame_count, ==, 60);
        }
      else
        g_assert_true (g_str_equal (a->name, "Blink") || g_str_equal (a->name, "Eyes"));
    }
  g_assert_cmpuint (n_exportable, ==, 1);
}

/* The joint world matrices of the file's nodes at sample @i of @anim. */
static void
worlds_at (Gltf *g, JsonObject *anim, guint i, M4 *world)
{
  guint n_nodes = gltf_count (g, "nodes"), n;
  g_autofree M4 *local = g_new0 (M4, n_nodes);

  for (guint node = 0; node < n_nodes; node++)
    {
      JsonObject *o = gltf_get (g, "nodes", node);

      if (!json_object_has_member (o, "skin") && json_object_has_member (o, "rotation"))
        {
          g_autofree double *t = channel (g, anim, node, "translation", &n, NULL);
          g_autofree double *r = channel (g, anim, node, "rotation", &n, NULL);
          g_autofree double *s = channel (g, anim, node, "scale", &n, NULL);

          m4_trs (t + 3 * i, r + 4 * i, s + 3 * i, &local[node]);
        }
      else
        for (guint k = 0; k < 4; k++)
          local[node].m[k][k] = 1;
    }
  gltf_worlds (g, local, world, n_nodes);
}

static double
sample_curve (gpointer data, guint curve, double frame)
{
  return tress_bfres_evaluate (data, curve, frame);
}

/* Every vertex of every mesh skinned the glTF way (joint world × inverse bind
 * matrix, weighted) at @frame against the preview's pose. */
static void
check_skinning (Gltf *g, TressBfres *demo, GBytes *fres, double frame)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TressSceneAnimator) animator
      = tress_bfres_animator_new (demo, fres, "this file", &error);
  JsonObject *anim = gltf_get (g, "animations", 0);
  JsonObject *skin = gltf_get (g, "skins", 0);
  JsonArray *joints = json_object_get_array_member (skin, "joints");
  guint n, comps, n_nodes = gltf_count (g, "nodes"), wave = 0;
  g_autofree double *times = NULL, *ibm = NULL;
  g_autofree M4 *world = g_new0 (M4, n_nodes);
  g_autofree double *unused = NULL;
  double worst = 0;
  int i;

  g_assert_no_error (error);
  for (guint a = 0; a < animator->n_anims; a++)
    if (g_strcmp0 (animator->anim_names[a], "Wave") == 0)
      wave = a;
  tress_scene_animator_pose (animator, &wave, 1, frame, sample_curve, demo);
  unused = channel (g, anim, 0, "rotation", &n, &times);
  i = sample_at (times, n, frame, 30);
  g_assert_cmpint (i, >=, 0);
  worlds_at (g, anim, (guint)i, world);
  ibm = gltf_accessor (g, json_object_get_int_member (skin, "inverseBindMatrices"), &n, &comps);

  g_assert_cmpuint (gltf_count (g, "meshes"), ==, animator->scene->meshes->len);
  for (guint s = 0; s < gltf_count (g, "meshes"); s++)
    {
      JsonObject *prim = json_array_get_object_element (
          json_object_get_array_member (gltf_get (g, "meshes", s), "primitives"), 0);
      JsonObject *attrs = json_object_get_object_member (prim, "attributes");
      g_autofree double *pos
          = gltf_accessor (g, json_object_get_int_member (attrs, "POSITION"), &n, &comps);
      g_autofree double *jnt
          = gltf_accessor (g, json_object_get_int_member (attrs, "JOINTS_0"), &n, &comps);
      g_autofree double *wts
          = gltf_accessor (g, json_object_get_int_member (attrs, "WEIGHTS_0"), &n, &comps);
      TressSceneMesh *mesh = tress_scene_get_mesh (animator->scene, s);

      g_assert_cmpuint (n, ==, mesh->n_vertices);
      for (guint v = 0; v < n; v++)
        {
          double p[3] = { 0, 0, 0 };
          float want[3];

          for (guint k = 0; k < 4; k++)
            {
              guint joint = (guint)jnt[4 * v + k];
              guint node = json_array_get_int_element (joints, joint);
              M4 inv, skinning;

              if (wts[4 * v + k] == 0)
                continue;
              for (guint r = 0; r < 4; r++)
                for (guint c = 0; c < 4; c++)
                  inv.m[r][c] = ibm[16 * joint + 4 * c + r];
              m4_mul (&world[node], &inv, &skinning);
              for (guint r = 0; r < 3; r++)
                p[r] += wts[4 * v + k]
                        * (skinning.m[r][0] * pos[3 * v] + skinning.m[r][1] * pos[3 * v + 1]
                           + skinning.m[r][2] * pos[3 * v + 2] + skinning.m[r][3]);
            }
          tress_scene_vertex_position (animator->scene, mesh, v, want);
          for (guint r = 0; r < 3; r++)
            worst = MAX (worst, fabs (p[r] - want[r]));
        }
    }
  g_test_message ("frame %g: the glTF skinning is off the preview's by %.2g at most", frame, worst);
  g_assert_cmpfloat (worst, <, 1e-4);
}

static void
test_export (void)
{
  const TressGltfExporter *e = tress_gltf_exporter_find ("bfres");
  g_autoptr (TressBfres) demo = open_demo ();
  g_autoptr (GError) error = NULL;
  g_autoptr (TressGltfModel) model = NULL;
  g_autoptr (TressGltfExportResult) result = NULL;
  g_autoptr (TressProgress) progress = tress_progress_new (NULL);
  g_autoptr (GFile) file = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autofree char *path = tmp ("demo export.glb"), *looked_for = NULL;
  gpointer snapshot = e->snapshot (demo, NULL);
  const guint wave[] = { 0 };
  const char *phase = NULL;
  guint64 done = 0, total = 0;
  TressProgressUnit unit;
  Gltf g = { 0 };

  model = e->find_model (snapshot, NULL, &looked_for, &error);
  g_assert_no_error (error);
  g_assert_nonnull (model);
  g_assert_null (looked_for);
  g_assert_cmpstr (model->name, ==, "Demo");
  g_assert_cmpstr (model->source, ==, "this file");
  g_assert_true (model->own);
  g_assert_false (model->chosen);
  g_assert_cmpuint (model->n_joints, ==, 5);
  g_assert_cmpuint (model->n_meshes, ==, 3);
  g_assert_cmpuint (model->missing->len, ==, 0);

  file = g_file_new_for_path (path);
  tress_progress_run_begin (progress);
  result = tress_gltf_export_to_file (e, snapshot, model, &(TressGltfExportOptions){ wave, 1, 30 },
                                      file, NULL, &error);
  tress_progress_run_end ();
  g_assert_no_error (error);
  /* The last phase reported is the writing. */
  tress_progress_get (progress, &phase, &done, &total, &unit);
  g_assert_cmpstr (phase, ==, "Writing the file");
  g_assert_cmpuint (result->n_animations, ==, 1);
  g_assert_cmpuint (result->n_joints, ==, 5);
  g_assert_cmpuint (result->n_meshes, ==, 3);
  g_assert_cmpfloat (result->fps, ==, 30);
  g_assert_null (result->bin_file);
  g_assert_true (g_file_equal (result->file, file));
  g_assert_cmpuint (result->notes->len, ==, 2);
  g_assert_nonnull (strstr (result->notes->pdata[0], "glTF has no place for it"));
  bytes = tress_test_read_file (path);
  g_assert_cmpuint (result->size, ==, g_bytes_get_size (bytes));

  gltf_read_glb (&g, bytes);
  g_assert_cmpstr (json_object_get_string_member (gltf_get (&g, "animations", 0), "name"), ==,
                   "Wave");
  for (guint i = 0; i < 3; i++)
    {
      static const double frames[] = { 0, 15, 41 };

      check_skinning (&g, demo, model->data, frames[i]);
    }
  gltf_clear (&g);
  e->snapshot_free (snapshot);
}

/* Nothing to export on, a model file that is not one: said, not crashed. */
static void
test_models (void)
{
  const TressGltfExporter *e = tress_gltf_exporter_find ("bfres");
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("Bare", 0x03040004);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bare_bytes = NULL;
  g_autoptr (TressBfres) bare = NULL, demo = open_demo ();
  g_autoptr (TressGltfModel) model = NULL;
  g_autofree char *looked_for = NULL, *text = tmp ("not-a-model.bfres");
  g_autofree char *demo_path = tmp ("model-demo.bfres");
  g_autoptr (GFile) text_file = g_file_new_for_path (text);
  g_autoptr (GFile) demo_file = g_file_new_for_path (demo_path);
  g_autoptr (GBytes) demo_bytes = tress_bfres_build_demo (NULL);
  TressKey keys[2] = { { .frame = 0, .value = 0 }, { .frame = 10, .value = 1 } };
  TressBfresBuilderCurve c = { .curve_type = TRESS_BFRES_CURVE_LINEAR,
                               .frame_type = TRESS_BFRES_FRAME_U8,
                               .key_type = TRESS_BFRES_KEY_S16,
                               .target_offset = 0x14,
                               .n_keys = 2,
                               .keys = keys };
  gpointer snapshot;

  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_SKELETAL, "Hop", 10, TRUE);
  tress_bfres_builder_add_bone (b, "Root");
  tress_bfres_builder_add_curve (b, &c);
  tress_bfres_builder_add_bone (b, "Tail");
  tress_bfres_builder_add_curve (b, &c);
  bare_bytes = tress_bfres_builder_finish (b, &error);
  g_assert_no_error (error);
  bare = tress_bfres_parse (bare_bytes, "Bare.bfres", &error);
  g_assert_no_error (error);
  snapshot = e->snapshot (bare, NULL);

  /* None found: no error, what was looked for. */
  model = e->find_model (snapshot, NULL, &looked_for, &error);
  g_assert_no_error (error);
  g_assert_null (model);
  g_assert_nonnull (strstr (looked_for, "no model or skeleton in the file"));

  /* Not a BFRES: an error. */
  g_assert_true (g_file_set_contents (text, "hello", -1, NULL));
  g_clear_pointer (&looked_for, g_free);
  model = e->find_model (snapshot, text_file, &looked_for, &error);
  g_assert_null (model);
  g_assert_nonnull (error);
  g_clear_error (&error);

  /* A model chosen: the demo's, which lacks the Tail the animation moves. */
  g_assert_true (g_file_set_contents (demo_path, g_bytes_get_data (demo_bytes, NULL),
                                      g_bytes_get_size (demo_bytes), NULL));
  model = e->find_model (snapshot, demo_file, &looked_for, &error);
  g_assert_no_error (error);
  g_assert_nonnull (model);
  g_assert_true (model->chosen);
  g_assert_false (model->own);
  g_assert_cmpstr (model->source, ==, "model-demo.bfres");
  g_assert_cmpuint (model->missing->len, ==, 1);
  g_assert_cmpstr (model->missing->pdata[0], ==, "Tail");
  e->snapshot_free (snapshot);

  /* A directory named as a model. */
  {
    g_autoptr (GFile) dir = g_file_new_for_path (tress_test_tmpdir ());
    g_autoptr (TressGltfModel) none = NULL;

    snapshot = e->snapshot (demo, NULL);
    none = e->find_model (snapshot, dir, &looked_for, &error);
    g_assert_null (none);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
    g_clear_error (&error);
    e->snapshot_free (snapshot);
  }
}

typedef struct
{
  const TressGltfExporter *exporter;
  gpointer snapshot;
  TressGltfModel *model;
  GFile *file;
  GCancellable *cancellable;
  TressProgress *progress;
  GError *error;
  TressGltfExportResult *result;
} Job;

static gpointer
job_thread (gpointer data)
{
  Job *job = data;

  tress_progress_run_begin (job->progress);
  job->result = tress_gltf_export_to_file (job->exporter, job->snapshot, job->model, &all_at_30,
                                           job->file, job->cancellable, &job->error);
  tress_progress_run_end ();
  return NULL;
}

/* No file in @dir but @a and @b (may be NULL), temporary files included. */
static void
assert_dir_holds (const char *dir, const char *a, const char *b)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_strcmp0 (name, a) != 0 && g_strcmp0 (name, b) != 0)
      g_error ("%s holds %s", dir, name);
}

/* A cancel in the middle of a big export (50 animations of 240 frames on 135
 * bones) stops it and writes nothing. */
static void
test_cancel (void)
{
  const TressGltfExporter *e = tress_gltf_exporter_find ("bfres");
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = tress_bfres_build_test_file (135, 2000, 50, 240, &error);
  g_autoptr (TressBfres) big = NULL;
  g_autofree char *dir = tmp ("cancel");
  g_autofree char *path = g_build_filename (dir, "big.glb", NULL), *looked_for = NULL;
  Job job = { 0 };
  GThread *thread;
  const char *phase = NULL;
  guint64 done = 0, total = 0;
  TressProgressUnit unit;

  g_assert_no_error (error);
  big = tress_bfres_parse (bytes, "big.bfres", &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  job.exporter = e;
  job.snapshot = e->snapshot (big, NULL);
  job.model = e->find_model (job.snapshot, NULL, &looked_for, &error);
  g_assert_no_error (error);
  job.file = g_file_new_for_path (path);
  job.cancellable = g_cancellable_new ();
  job.progress = tress_progress_new (job.cancellable);
  thread = g_thread_new ("export", job_thread, &job);
  /* Cancelled once it has begun the animations, well before their end. */
  while (done == 0 || g_strcmp0 (phase, "Exporting animations") != 0)
    {
      g_usleep (1000);
      tress_progress_get (job.progress, &phase, &done, &total, &unit);
    }
  g_assert_cmpuint (done, <, total);
  g_cancellable_cancel (job.cancellable);
  g_thread_join (thread);
  g_assert_null (job.result);
  g_assert_error (job.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  assert_dir_holds (dir, NULL, NULL);

  g_clear_error (&job.error);
  g_object_unref (job.file);
  g_object_unref (job.cancellable);
  tress_progress_unref (job.progress);
  tress_gltf_model_free (job.model);
  e->snapshot_free (job.snapshot);
}

/* A .gltf that cannot be written (a folder of that name is in the way): the
 * .bin written before it is removed again; an old .bin is kept as it was. */
static void
test_split_fails (void)
{
  const TressGltfExporter *e = tress_gltf_exporter_find ("bfres");
  g_autoptr (TressBfres) demo = open_demo ();
  g_autoptr (GError) error = NULL;
  g_autoptr (TressGltfModel) model = NULL;
  g_autoptr (TressGltfExportResult) result = NULL;
  g_autofree char *dir = tmp ("split"), *looked_for = NULL, *old = NULL;
  g_autofree char *gltf = g_build_filename (dir, "fig.gltf", NULL);
  g_autofree char *bin = g_build_filename (dir, "fig.bin", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (gltf);
  gpointer snapshot = e->snapshot (demo, NULL);

  g_assert_cmpint (g_mkdir_with_parents (gltf, 0755), ==, 0);
  model = e->find_model (snapshot, NULL, &looked_for, &error);
  g_assert_no_error (error);
  result = tress_gltf_export_to_file (e, snapshot, model, &all_at_30, file, NULL, &error);
  g_assert_null (result);
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_false (g_file_test (bin, G_FILE_TEST_EXISTS));

  g_assert_true (g_file_set_contents (bin, "old", -1, NULL));
  result = tress_gltf_export_to_file (e, snapshot, model, &all_at_30, file, NULL, &error);
  g_assert_null (result);
  g_clear_error (&error);
  g_assert_true (g_file_get_contents (bin, &old, NULL, NULL));
  g_assert_cmpstr (old, ==, "old");
  g_clear_pointer (&old, g_free);
  assert_dir_holds (dir, "fig.bin", "fig.gltf");

  /* Out of the way, both are written and said. */
  g_assert_cmpint (g_rmdir (gltf), ==, 0);
  result = tress_gltf_export_to_file (e, snapshot, model, &all_at_30, file, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result->bin_file);
  g_assert_true (g_str_has_suffix (g_file_peek_path (result->bin_file), "/fig.bin"));
  g_assert_true (g_file_get_contents (bin, &old, NULL, NULL));
  g_assert_cmpstr (old, !=, "old");
  assert_dir_holds (dir, "fig.bin", "fig.gltf");
  e->snapshot_free (snapshot);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gltf-demo/list", test_list);
  g_test_add_func ("/gltf-demo/export", test_export);
  g_test_add_func ("/gltf-demo/models", test_models);
  g_test_add_func ("/gltf-demo/cancel", test_cancel);
  g_test_add_func ("/gltf-demo/split-fails", test_split_fails);
  return g_test_run ();
}
