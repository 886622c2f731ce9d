/* test-gltf-export.c: glTF export of BFRES models and animations
 *
 * The files are read back with a small decoder of this test's own, written
 * from the glTF 2.0 specification (GLB header, JSON chunk, BIN chunk, buffer
 * views and accessors), not from the writer; joint world matrices are
 * composed from the nodes by glTF's rule and compared with the BFRES pose
 * code the preview uses.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "formats/bfres/tress-bfres-anim.h"
#include "formats/bfres/tress-bfres-builder.h"
#include "formats/bfres/tress-bfres-pose.h"
#include "core/tress-progress.h"
#include "core/tress-yaz0.h"
#include "formats/bfres/tress-bfres-scene.h"
#include "interchange/tress-gltf-bfres.h"
#include "gltf-test-reader.h"
#include "tress-test-utils.h"

static void
m4_from_bfres (const TressBfresMatrix *b, M4 *out)
{
  memset (out, 0, sizeof *out);
  for (guint i = 0; i < 3; i++)
    for (guint j = 0; j < 4; j++)
      out->m[i][j] = b->m[i][j];
  out->m[3][3] = 1;
}

/* ---- the BFRES side ----------------------------------------------------------- */

typedef struct
{
  TressBfres *bfres;
  GHashTable *curve_at; /* header position → curve index + 1 */
  double frame;
} Curves;

static gboolean
curve_value (gpointer data, guint bone_anim, const TressBfresAnimCurveRef *ref, double *value)
{
  Curves *c = data;
  int i = GPOINTER_TO_INT (g_hash_table_lookup (c->curve_at, GSIZE_TO_POINTER (ref->header_pos)));

  if (i == 0)
    return FALSE;
  *value = tress_bfres_evaluate (c->bfres, (guint)(i - 1), c->frame);
  return TRUE;
}

static void
curves_init (Curves *c, TressBfres *bfres)
{
  c->bfres = bfres;
  c->curve_at = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < tress_bfres_get_n_curves (bfres); i++)
    {
      TressBfresCurveInfo info;

      g_assert_true (tress_bfres_get_curve_info (bfres, i, &info));
      g_hash_table_insert (c->curve_at, GSIZE_TO_POINTER (info.header_pos),
                           GINT_TO_POINTER (i + 1));
    }
}

/* Per bone of @sk, its bone animation in @anim (matched by name) or −1. */
static int *
bone_anims_of (const TressBfresSkeleton *sk, const TressBfresSkeletalAnim *anim)
{
  int *map = g_new (int, sk->n_bones + 1);

  for (guint b = 0; b < sk->n_bones; b++)
    {
      map[b] = -1;
      for (guint k = 0; k < anim->n_bone_anims && map[b] < 0; k++)
        if (g_str_equal (anim->bone_anims[k].name, sk->bones[b].name))
          map[b] = (int)k;
    }
  return map;
}

static void
srt_quaternion (const TressBfresSrt *s, double q[4])
{
  double n;

  if (s->rotation_mode == TRESS_BFRES_ROTATION_EULER_XYZ)
    tress_bfres_euler_to_quaternion (s->rotation, q);
  else
    memcpy (q, s->rotation, sizeof (double) * 4);
  n = sqrt (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (guint k = 0; k < 4; k++)
    q[k] /= n;
}

/* The sample of @times (scalars) at frame @f, or −1. */
static char *
tmp (const char *name)
{
  return g_build_filename (tress_test_tmpdir (), name, NULL);
}

/* ---- Bass: the sample model found beside its animations ----------------------- */

static void
check_bass (Gltf *g, TressBfres *anims_file, const TressBfresModel *bass,
            const TressBfresAnims *anims)
{
  const TressBfresSkeleton *sk = &bass->skeleton;
  guint nb = sk->n_bones, n_nodes = gltf_count (g, "nodes"), n, comps;
  JsonObject *skin = gltf_get (g, "skins", 0);
  JsonArray *joints = json_object_get_array_member (skin, "joints");
  g_autofree double *ibm = NULL;
  g_autofree M4 *world = g_new0 (M4, n_nodes);
  g_autofree TressBfresSrt *srt = g_new0 (TressBfresSrt, nb);
  g_autofree TressBfresMatrix *bind = g_new0 (TressBfresMatrix, nb);

  /* One joint node per bone, named after it, in the skeleton's order. */
  g_assert_cmpuint (gltf_count (g, "skins"), ==, 1);
  g_assert_cmpuint (json_array_get_length (joints), ==, nb);
  for (guint b = 0; b < nb; b++)
    {
      guint node = json_array_get_int_element (joints, b);

      g_assert_cmpstr (json_object_get_string_member (gltf_get (g, "nodes", node), "name"), ==,
                       sk->bones[b].name);
    }
  g_assert_cmpuint (n_nodes, ==, nb + bass->n_shapes);
  g_assert_cmpuint (gltf_count (g, "meshes"), ==, bass->n_shapes);

  /* The joints' bind world matrices (nodes composed by glTF's rule) are the
   * preview's, and each times its inverse bind matrix is the identity. */
  tress_bfres_bind_srt (sk, srt);
  tress_bfres_pose_world (sk, srt, sk->scaling, bind);
  gltf_worlds (g, NULL, world, n_nodes);
  ibm = gltf_accessor (g, json_object_get_int_member (skin, "inverseBindMatrices"), &n, &comps);
  g_assert_cmpuint (n, ==, nb);
  g_assert_cmpuint (comps, ==, 16);
  for (guint b = 0; b < nb; b++)
    {
      M4 inv, prod, want,
          id = { { { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 }, { 0, 0, 0, 1 } } };

      for (guint r = 0; r < 4; r++)
        for (guint c = 0; c < 4; c++)
          inv.m[r][c] = ibm[16 * b + 4 * c + r]; /* column-major */
      m4_from_bfres (&bind[b], &want);
      g_assert_cmpfloat (m4_distance (&world[b], &want), <, 1e-5);
      m4_mul (&world[b], &inv, &prod);
      g_assert_cmpfloat (m4_distance (&prod, &id), <, 1e-5);
    }

  /* Meshes: every vertex skinned, weights summing to 1. */
  for (guint s = 0; s < bass->n_shapes; s++)
    {
      JsonObject *prim = json_array_get_object_element (
          json_object_get_array_member (gltf_get (g, "meshes", s), "primitives"), 0);
      JsonObject *attrs = json_object_get_object_member (prim, "attributes");
      g_autofree double *w
          = gltf_accessor (g, json_object_get_int_member (attrs, "WEIGHTS_0"), &n, &comps);
      g_autofree double *pos
          = gltf_accessor (g, json_object_get_int_member (attrs, "POSITION"), &n, &comps);
      const TressBfresVertexBuffer *vb = &bass->vertex_buffers[bass->shapes[s].vertex_buffer];

      g_assert_cmpstr (json_object_get_string_member (gltf_get (g, "meshes", s), "name"), ==,
                       bass->shapes[s].name);
      g_assert_cmpuint (n, ==, vb->n_vertices);
      for (guint v = 0; v < n; v++)
        {
          g_assert_cmpfloat_with_epsilon (w[4 * v] + w[4 * v + 1] + w[4 * v + 2] + w[4 * v + 3], 1,
                                          1e-6);
          /* Smooth skinning: positions in model space, as stored. */
          for (guint k = 0; k < 3; k++)
            g_assert_cmpfloat (pos[3 * v + k], ==, vb->positions[3 * v + k]);
        }
      g_assert_cmpstr (
          json_object_get_string_member (
              gltf_get (g, "materials", json_object_get_int_member (prim, "material")), "name"),
          ==, bass->materials[bass->shapes[s].material]);
    }

  /* One animation per skeletal animation, in order, with its flags. */
  g_assert_cmpuint (gltf_count (g, "animations"), ==, anims->n_skeletal);
  for (guint a = 0; a < anims->n_skeletal; a++)
    {
      const TressBfresSkeletalAnim *sa = &anims->skeletal[a];
      JsonObject *anim = gltf_get (g, "animations", a);
      JsonObject *x
          = json_object_get_object_member (json_object_get_object_member (anim, "extras"), "bfres");
      g_autofree double *times = NULL, *rot = NULL;
      g_autofree int *map = bone_anims_of (sk, sa);
      Curves curves;

      g_assert_cmpstr (json_object_get_string_member (anim, "name"), ==, sa->name);
      g_assert_cmpint (json_object_get_int_member (x, "frameCount"), ==, sa->frame_count);
      g_assert_cmpint (json_object_get_boolean_member (x, "loop"), ==, sa->loops);
      /* Every joint has its three channels. */
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (anim, "channels")), ==,
                        3 * nb);
      rot = channel (g, anim, 0, "rotation", &n, &times);
      /* Every whole frame, at frame / 30, increasing. */
      for (int f = 0; f <= sa->frame_count; f++)
        g_assert_cmpint (sample_at (times, n, f, 30), >=, 0);
      for (guint i = 1; i < n; i++)
        g_assert_cmpfloat (times[i], >, times[i - 1]);
      g_assert_cmpfloat_with_epsilon (times[n - 1], sa->frame_count / 30.0, 1e-6);
      if (a != 0)
        continue;

      /* The first animation: each joint's rotation is the preview pose's
       * quaternion (tress_bfres_pose_srt), continuous in sign, and its
       * translation and scale are the pose's (Bass has no scale to
       * compensate). */
      curves_init (&curves, anims_file);
      for (guint b = 0; b < nb; b++)
        {
          g_autofree double *q = channel (g, anim, b, "rotation", &n, NULL);
          g_autofree double *t = channel (g, anim, b, "translation", &n, NULL);
          g_autofree double *s = channel (g, anim, b, "scale", &n, NULL);
          static const double frames[] = { 0, 1, 7, 15, 22, 30 };

          for (guint i = 1; i < n; i++)
            g_assert_cmpfloat (q[4 * i] * q[4 * i - 4] + q[4 * i + 1] * q[4 * i - 3]
                                   + q[4 * i + 2] * q[4 * i - 2] + q[4 * i + 3] * q[4 * i - 1],
                               >=, 0);
          for (guint k = 0; k < G_N_ELEMENTS (frames); k++)
            {
              int i = sample_at (times, n, frames[k], 30);
              double want[4], dot = 0;

              g_assert_cmpint (i, >=, 0);
              curves.frame = frames[k];
              tress_bfres_pose_srt (sk, sa, map, curve_value, &curves, srt);
              srt_quaternion (&srt[b], want);
              for (guint c = 0; c < 4; c++)
                dot += want[c] * q[4 * i + c];
              for (guint c = 0; c < 4; c++)
                g_assert_cmpfloat (fabs (q[4 * i + c] - (dot < 0 ? -want[c] : want[c])), <, 1e-6);
              for (guint c = 0; c < 3; c++)
                {
                  g_assert_cmpfloat (fabs (t[3 * i + c] - srt[b].translation[c]), <, 1e-6);
                  g_assert_cmpfloat (fabs (s[3 * i + c] - srt[b].scale[c]), <, 1e-6);
                }
            }
        }
      g_hash_table_unref (curves.curve_at);
    }
}

static void
test_bass (void)
{
  g_autofree char *anim_path = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *model_path = tress_test_sample_path ("bfres/Animal_Bass.bfres");
  g_autofree char *glb = tmp ("bass.glb"), *gltf = tmp ("bass two.gltf");
  g_autofree char *bin = tmp ("bass two.bin"), *out = NULL, *err = NULL;
  g_autoptr (GBytes) anim_bytes = NULL, model_bytes = NULL, glb_bytes = NULL;
  g_autoptr (TressBfres) anims_file = NULL;
  g_autoptr (TressBfresModels) models = NULL;
  g_autoptr (TressBfresAnims) anims = NULL;
  g_autoptr (GError) error = NULL;
  Gltf g = { 0 }, g2 = { 0 };

  if (anim_path == NULL || model_path == NULL)
    return;
  {
    const char *argv[] = { "export-gltf", anim_path, "-o", glb, NULL };

    g_auto (GStrv) lines = NULL;
    const char *wrote;

    g_assert_cmpint (tress_test_run_cli (argv, &out, &err), ==, 0);
    wrote
        = strstr (out, "model from Animal_Bass.bfres, 6 joints, 2 meshes, 7 animations at 30 fps");
    g_assert_nonnull (wrote);
    /* Each file is exported once and said once: 1 line written, 9 not carried. */
    g_assert_null (strstr (wrote + 1, "wrote"));
    lines = g_strsplit (out, "\n", -1);
    g_assert_cmpuint (g_strv_length (lines), ==, 1 + 9 + 1);
    /* What is not carried is said. */
    g_assert_nonnull (strstr (out, "not carried: “Move”: 4 animated bones are not in Bass"));
    g_assert_nonnull (strstr (out, "Bass_Boneless"));
  }
  anim_bytes = tress_test_read_file (anim_path);
  model_bytes = tress_test_read_file (model_path);
  anims_file = tress_bfres_parse (anim_bytes, anim_path, &error);
  g_assert_no_error (error);
  models = tress_bfres_models_parse (g_bytes_get_data (model_bytes, NULL),
                                     g_bytes_get_size (model_bytes), &error);
  g_assert_no_error (error);
  anims = tress_bfres_anims_parse (g_bytes_get_data (anim_bytes, NULL),
                                   g_bytes_get_size (anim_bytes), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (anims->n_skeletal, ==, 7);

  glb_bytes = tress_test_read_file (glb);
  gltf_read_glb (&g, glb_bytes);
  check_bass (&g, anims_file, tress_bfres_models_find (models, "Bass"), anims);

  /* .gltf + .bin by the extension (a name with a space: the URI escapes it),
   * the same document. */
  g_clear_pointer (&out, g_free);
  {
    const char *argv[] = { "export-gltf", anim_path, "-o", gltf, NULL };

    g_assert_cmpint (tress_test_run_cli (argv, &out, NULL), ==, 0);
  }
  g_assert_true (g_file_test (bin, G_FILE_TEST_IS_REGULAR));
  gltf_read_gltf (&g2, gltf);
  g_assert_cmpstr (
      json_object_get_string_member (
          json_array_get_object_element (json_object_get_array_member (g2.root, "buffers"), 0),
          "uri"),
      ==, "bass%20two.bin");
  g_assert_true (g_bytes_equal (g.bin, g2.bin));
  check_bass (&g2, anims_file, tress_bfres_models_find (models, "Bass"), anims);
  gltf_clear (&g);
  gltf_clear (&g2);
}

/* --animation picks animations; --fps sets the time; several FILEs with a
 * folder write one file each. */
static void
test_options (void)
{
  g_autofree char *anim_path = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *sanim = tress_test_sample_path ("bfres/Animal_Bass_Animation.sbfres");
  g_autofree char *model = tress_test_sample_path ("bfres/Animal_Bass.bfres");
  g_autofree char *glb = tmp ("two.glb"), *dir = tmp ("batch/new"), *out = NULL;
  g_autofree char *a = NULL, *b = NULL, *copy = NULL;
  g_autoptr (GBytes) bytes = NULL;
  guint n, comps;
  Gltf g = { 0 };

  if (anim_path == NULL || sanim == NULL || model == NULL)
    return;
  {
    const char *argv[]
        = { "export-gltf", anim_path, "--animation", "Wait", "--animation", "Skeletal/Peck",
            "--fps",       "24",      "-o",          glb,    NULL };

    g_assert_cmpint (tress_test_run_cli (argv, &out, NULL), ==, 0);
  }
  bytes = tress_test_read_file (glb);
  gltf_read_glb (&g, bytes);
  g_assert_cmpuint (gltf_count (&g, "animations"), ==, 2);
  /* In the order asked. */
  g_assert_cmpstr (json_object_get_string_member (gltf_get (&g, "animations", 0), "name"), ==,
                   "Wait");
  g_assert_cmpstr (json_object_get_string_member (gltf_get (&g, "animations", 1), "name"), ==,
                   "Peck");
  {
    JsonObject *s = json_array_get_object_element (
        json_object_get_array_member (gltf_get (&g, "animations", 0), "samplers"), 0);
    g_autofree double *t = gltf_accessor (&g, json_object_get_int_member (s, "input"), &n, &comps);

    g_assert_cmpfloat_with_epsilon (t[1], 1 / 24.0, 1e-7);
  }
  gltf_clear (&g);
  g_clear_pointer (&bytes, g_bytes_unref);

  /* The Yaz0 file finds Animal_Bass.bfres beside it too. */
  g_clear_pointer (&out, g_free);
  {
    const char *argv[] = { "export-gltf", sanim, "-o", glb, NULL };

    g_assert_cmpint (tress_test_run_cli (argv, &out, NULL), ==, 0);
    g_assert_nonnull (strstr (out, "model from Animal_Bass.bfres, 6 joints"));
  }
  /* Two FILEs into a new folder: one .glb each, named after the FILE. */
  g_clear_pointer (&out, g_free);
  copy = tmp ("Copy_Animation.bfres");
  bytes = tress_test_read_file (anim_path);
  g_assert_true (
      g_file_set_contents (copy, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  {
    const char *argv[] = { "export-gltf", anim_path, copy, "--model", model, "-o", dir, NULL };

    g_assert_cmpint (tress_test_run_cli (argv, &out, NULL), ==, 0);
  }
  a = g_build_filename (dir, "Animal_Bass_Animation.glb", NULL);
  b = g_build_filename (dir, "Copy_Animation.glb", NULL);
  g_assert_true (g_file_test (a, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (b, G_FILE_TEST_IS_REGULAR));
}

static void
test_batch_collision (void)
{
  g_autofree char *anim_path = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *sanim = tress_test_sample_path ("bfres/Animal_Bass_Animation.sbfres");
  g_autofree char *dir = tmp ("batch2"), *err = NULL, *a = NULL;

  if (anim_path == NULL || sanim == NULL)
    return;
  {
    const char *argv[] = { "export-gltf", anim_path, sanim, "-o", dir, NULL };

    g_assert_cmpint (tress_test_run_cli (argv, NULL, &err), ==, 2);
  }
  g_assert_nonnull (strstr (err, "two FILEs would both be written there"));
  a = g_build_filename (dir, "Animal_Bass_Animation.glb", NULL);
  g_assert_false (g_file_test (a, G_FILE_TEST_EXISTS));
}

/* Animations as the demo's (a skeletal "Wave", a bone visibility "Blink", a
 * texture pattern "Eyes") without a model: nothing to export them on. */
static GBytes *
build_without_model (void)
{
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("Bare", 0x03040004);
  TressKey wave[2] = { { .frame = 0, .value = 0 }, { .frame = 60, .value = 1 } };
  TressKey blink[2] = { { .frame = 0, .value = 1 }, { .frame = 50, .value = 0 } };
  TressKey eyes[2] = { { .frame = 0, .value = 0 }, { .frame = 48, .value = 1 } };
  TressBfresBuilderCurve c = { 0 };
  g_autoptr (GError) error = NULL;
  GBytes *bytes;

  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_SKELETAL, "Wave", 60, TRUE);
  tress_bfres_builder_add_bone (b, "Root");
  c.curve_type = TRESS_BFRES_CURVE_LINEAR;
  c.frame_type = TRESS_BFRES_FRAME_U8;
  c.key_type = TRESS_BFRES_KEY_S16;
  c.target_offset = 0x14;
  c.n_keys = 2;
  c.keys = wave;
  tress_bfres_builder_add_curve (b, &c);
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_BONE_VISIBILITY, "Blink", 60, TRUE);
  c.curve_type = TRESS_BFRES_CURVE_STEP_BOOL;
  c.key_type = TRESS_BFRES_KEY_32;
  c.name = "Eyelid";
  c.keys = blink;
  tress_bfres_builder_add_curve (b, &c);
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_TEX_PATTERN, "Eyes", 60, TRUE);
  tress_bfres_builder_add_texture (b, "Eye_Open");
  tress_bfres_builder_add_texture (b, "Eye_Closed");
  tress_bfres_builder_add_material (b, "Face");
  c.curve_type = TRESS_BFRES_CURVE_STEP_INT;
  c.name = "_a0";
  c.keys = eyes;
  tress_bfres_builder_add_curve (b, &c);
  bytes = tress_bfres_builder_finish (b, &error);
  g_assert_no_error (error);
  return bytes;
}

/* Refusals, in the words and exit codes of the other commands. */
static void
test_refusals (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) demo = build_without_model ();
  g_autofree char *plain = tmp ("demo.bfres"), *named = tmp ("Cat_Animation.bfres");
  g_autofree char *out_path = tmp ("refused.glb"), *model = NULL;
  char *out = NULL, *err = NULL;

  g_assert_no_error (error);
  g_assert_true (
      g_file_set_contents (plain, g_bytes_get_data (demo, NULL), g_bytes_get_size (demo), NULL));
  g_assert_true (
      g_file_set_contents (named, g_bytes_get_data (demo, NULL), g_bytes_get_size (demo), NULL));
  /* No model: exit 1, saying what was looked for. */
  {
    const char *argv[] = { "export-gltf", plain, "-o", out_path, NULL };

    g_assert_cmpint (tress_test_run_cli (argv, &out, &err), ==, 1);
    g_assert_nonnull (strstr (err, "no model to export: no model or skeleton in demo.bfres"));
    g_assert_nonnull (strstr (err, "does not end in “_Animation”"));
    g_assert_nonnull (strstr (err, "--model MODEL"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *argv[] = { "export-gltf", named, "-o", out_path, NULL };

    g_assert_cmpint (tress_test_run_cli (argv, &out, &err), ==, 1);
    g_assert_nonnull (strstr (err, "no Cat.bfres or Cat.sbfres beside it"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  g_assert_false (g_file_test (out_path, G_FILE_TEST_EXISTS));
  /* Bad usage: exit 2. */
  {
    const char *argv[] = { "export-gltf", plain, "-o", "out.txt", NULL };

    g_assert_cmpint (tress_test_run_cli (argv, &out, &err), ==, 2);
    g_assert_nonnull (strstr (err, "ends in .glb or .gltf"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *argv[] = { "export-gltf", plain, "--fps", "0", "-o", out_path, NULL };

    g_assert_cmpint (tress_test_run_cli (argv, &out, &err), ==, 2);
    g_assert_nonnull (strstr (err, "--fps 0"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *argv[] = { "export-gltf", plain, NULL };

    g_assert_cmpint (tress_test_run_cli (argv, &out, &err), ==, 2);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }

  model = tress_test_sample_path ("bfres/Animal_Bass.bfres");
  if (model == NULL)
    return;
  /* An unknown --animation: exit 2, naming the skeletal ones. */
  {
    const char *argv[]
        = { "export-gltf", plain, "--model", model, "--animation", "Nope", "-o", out_path, NULL };

    g_assert_cmpint (tress_test_run_cli (argv, &out, &err), ==, 2);
    g_assert_nonnull (strstr (err, "no animation “Nope”; the skeletal animations: Wave"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  /* Not a skeletal one. */
  {
    const char *argv[]
        = { "export-gltf", plain, "--model", model, "--animation", "Blink", "-o", out_path, NULL };

    g_assert_cmpint (tress_test_run_cli (argv, &out, &err), ==, 2);
    g_assert_nonnull (strstr (err, "is a Bone visibility animation"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  g_assert_false (g_file_test (out_path, G_FILE_TEST_EXISTS));
  /* --model: written, the animations glTF cannot carry listed. */
  {
    const char *argv[] = { "export-gltf", plain, "--model", model, "-o", out_path, NULL };

    g_assert_cmpint (tress_test_run_cli (argv, &out, &err), ==, 0);
    g_assert_nonnull (strstr (out, "model from Animal_Bass.bfres"));
    g_assert_nonnull (strstr (out, "not carried: “Blink”: a bone visibility animation (1 "
                                   "curve): glTF has no place for it"));
    g_assert_nonnull (strstr (out, "not carried: “Eyes”: a texture pattern animation"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  g_assert_true (g_file_test (out_path, G_FILE_TEST_IS_REGULAR));
}

/* ---- a made-up model: fractional key frames, rigid shapes, the budget -------- */

static GBytes *
build_synthetic (int frame_count)
{
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("Synth", 0x03040004);
  static const TressBfresBuilderBone bones[] = {
    { "Root", -1, { 1, 1, 1 }, { 0, 0, 0 }, { 0, 0, 0 } },
    { "Arm", 0, { 1, 1, 1 }, { 0, 0, 0.3f }, { 0, 1, 0 } },
    { "Hand", 1, { 1, 2, 1 }, { 0.2f, 0, 0 }, { 0, 1, 0 } },
  };
  static const float pos[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
  static const guint32 tri[] = { 0, 1, 2 };
  static const guint8 skin_bones[] = { 0, 1, 2 };
  static const float skin_weights[] = { 1, 1, 1 };
  TressBfresBuilderShape smooth
      = { "Smooth", 0, 3, pos, NULL, 1, 0, skin_bones, skin_weights, 1, tri };
  TressBfresBuilderShape rigid = { "Follows_Hand", 0, 3, pos, NULL, 0, 2, NULL, NULL, 1, tri };
  TressKey swing[] = {
    { .frame = 0, .value = 0 },
    { .frame = 2.25, .value = 0.8 },
    { .frame = 5.5, .value = -0.4 },
    { .frame = 10, .value = 0 },
  };
  TressKey slide[] = { { .frame = 0, .value = 1 }, { .frame = 7.75, .value = 1.5 } };
  /* Across ±π between frames 0 and 1: the quaternions of the two Euler
   * angles have opposite signs, and the file must flip one. */
  TressKey wrap[] = { { .frame = 0, .value = 3.0 }, { .frame = 1, .value = -3.0 } };
  TressBfresBuilderCurve rz = {
    TRESS_BFRES_CURVE_CUBIC, TRESS_BFRES_FRAME_F32, TRESS_BFRES_KEY_32, 0x28, NULL, 4, swing
  };
  TressBfresBuilderCurve ty = {
    TRESS_BFRES_CURVE_LINEAR, TRESS_BFRES_FRAME_F32, TRESS_BFRES_KEY_32, 0x14, NULL, 2, slide
  };
  TressBfresBuilderCurve rx = {
    TRESS_BFRES_CURVE_LINEAR, TRESS_BFRES_FRAME_F32, TRESS_BFRES_KEY_32, 0x20, NULL, 2, wrap
  };
  g_autoptr (GError) error = NULL;
  GBytes *bytes;

  tress_bfres_builder_begin_model (b, "Synth");
  for (guint i = 0; i < G_N_ELEMENTS (bones); i++)
    tress_bfres_builder_add_model_bone (b, &bones[i]);
  tress_bfres_builder_add_model_material (b, "Mt_Skin");
  tress_bfres_builder_add_shape (b, &smooth);
  tress_bfres_builder_add_shape (b, &rigid);
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_SKELETAL, "Swing", frame_count, TRUE);
  tress_bfres_builder_add_bone (b, "Root");
  tress_bfres_builder_add_curve (b, &rx);
  tress_bfres_builder_add_bone (b, "Arm");
  tress_bfres_builder_add_curve (b, &rz);
  tress_bfres_builder_add_bone (b, "Hand");
  tress_bfres_builder_add_curve (b, &ty);
  bytes = tress_bfres_builder_finish (b, &error);
  g_assert_no_error (error);
  return bytes;
}

static void
test_key_frames (void)
{
  g_autoptr (GBytes) bytes = build_synthetic (10);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressBfres) bfres = tress_bfres_parse (bytes, "synth.bfres", &error);
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (TressGltfWriter) w = NULL;
  g_autoptr (GBytes) glb = NULL, fres = NULL;
  g_autoptr (TressBfresModels) models = NULL;
  g_autoptr (TressBfresAnims) anims = NULL;
  TressGltfBfresOptions options = { 24, NULL, 0 };
  static const double keys[] = { 2.25, 5.5, 7.75 };
  g_autofree double *times = NULL;
  guint n, n_nodes;
  const TressBfresSkeleton *sk;
  Curves curves;
  Gltf g;

  g_assert_no_error (error);
  fres = tress_bfres_get_bfres_bytes (bfres);
  w = tress_gltf_bfres_export (bfres, fres, "synth.bfres", &options, notes, &error);
  g_assert_no_error (error);
  glb = tress_gltf_writer_to_glb (w, &error);
  g_assert_no_error (error);
  gltf_read_glb (&g, glb);
  models
      = tress_bfres_models_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  anims
      = tress_bfres_anims_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  sk = &models->models[0].skeleton;
  n_nodes = gltf_count (&g, "nodes");

  /* Whole frames 0…10 and the fractional key frames, at frame / 24, and
   * more where glTF's interpolation would stray from the curves (Root's turn
   * of 6 radians within frame 0 → 1, the long way round). */
  g_free (channel (&g, gltf_get (&g, "animations", 0), 1, "rotation", &n, &times));
  g_assert_cmpuint (n, >, 11 + G_N_ELEMENTS (keys));
  for (guint i = 1; i < n; i++)
    g_assert_cmpfloat (times[i], >, times[i - 1]);
  for (int f = 0; f <= 10; f++)
    g_assert_cmpint (sample_at (times, n, f, 24), >=, 0);
  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    g_assert_cmpint (sample_at (times, n, keys[k], 24), >=, 0);
  /* Rotations continuous in sign: Root's second quaternion was flipped. */
  for (guint b = 0; b < sk->n_bones; b++)
    {
      g_autofree double *q = channel (&g, gltf_get (&g, "animations", 0), b, "rotation", &n, NULL);

      for (guint i = 1; i < n; i++)
        g_assert_cmpfloat (q[4 * i] * q[4 * i - 4] + q[4 * i + 1] * q[4 * i - 3]
                               + q[4 * i + 2] * q[4 * i - 2] + q[4 * i + 3] * q[4 * i - 1],
                           >=, 0);
    }

  /* At every sample the joints' glTF world matrices are the pose's, and
   * halfway between two samples, where glTF interpolates (linearly, the
   * rotations along the short arc), within 0.5° and 1e-3 of the pose's. */
  curves_init (&curves, bfres);
  for (guint i = 0; i < n; i++)
    for (guint half = 0; half < 2 && (half == 0 || i + 1 < n); half++)
      {
        g_autofree TressBfresSrt *srt = g_new0 (TressBfresSrt, sk->n_bones);
        g_autofree TressBfresMatrix *want = g_new0 (TressBfresMatrix, sk->n_bones);
        g_autofree int *map = bone_anims_of (sk, &anims->skeletal[0]);
        g_autofree M4 *local = g_new0 (M4, n_nodes);
        g_autofree M4 *world = g_new0 (M4, n_nodes);

        curves.frame = (half ? (times[i] + times[i + 1]) / 2 : times[i]) * 24;
        tress_bfres_pose_srt (sk, &anims->skeletal[0], map, curve_value, &curves, srt);
        tress_bfres_pose_world (sk, srt, sk->scaling, want);
        for (guint b = 0; b < n_nodes; b++)
          {
            m4_trs ((double[3]){ 0, 0, 0 }, (double[4]){ 0, 0, 0, 1 }, (double[3]){ 1, 1, 1 },
                    &local[b]);
            if (b < sk->n_bones)
              {
                JsonObject *anim = gltf_get (&g, "animations", 0);
                g_autofree double *t = channel (&g, anim, b, "translation", &n, NULL);
                g_autofree double *q = channel (&g, anim, b, "rotation", &n, NULL);
                g_autofree double *s = channel (&g, anim, b, "scale", &n, NULL);

                if (half)
                  {
                    double tm[3], qm[4], sm[3], dot = 0, len = 0;

                    for (guint c = 0; c < 4; c++)
                      dot += q[4 * i + c] * q[4 * i + 4 + c];
                    for (guint c = 0; c < 4; c++)
                      {
                        qm[c] = q[4 * i + c] + (dot < 0 ? -1 : 1) * q[4 * i + 4 + c];
                        len += qm[c] * qm[c];
                      }
                    for (guint c = 0; c < 4; c++)
                      qm[c] /= sqrt (len);
                    for (guint c = 0; c < 3; c++)
                      {
                        tm[c] = (t[3 * i + c] + t[3 * i + 3 + c]) / 2;
                        sm[c] = (s[3 * i + c] + s[3 * i + 3 + c]) / 2;
                      }
                    m4_trs (tm, qm, sm, &local[b]);
                  }
                else
                  m4_trs (t + 3 * i, q + 4 * i, s + 3 * i, &local[b]);
              }
          }
        gltf_worlds (&g, local, world, n_nodes);
        for (guint b = 0; b < sk->n_bones; b++)
          {
            M4 w4;

            m4_from_bfres (&want[b], &w4);
            /* (0.5° turns a unit axis by 0.0087; Hand's are twice as long) */
            g_assert_cmpfloat (m4_distance (&world[b], &w4), <, half ? 0.02 : 1e-5);
          }
      }
  g_hash_table_unref (curves.curve_at);

  /* The shape following Hand is moved into model space and bound to it. */
  {
    JsonObject *prim = json_array_get_object_element (
        json_object_get_array_member (gltf_get (&g, "meshes", 1), "primitives"), 0);
    JsonObject *attrs = json_object_get_object_member (prim, "attributes");
    guint comps;
    g_autofree double *p
        = gltf_accessor (&g, json_object_get_int_member (attrs, "POSITION"), &n, &comps);
    g_autofree double *j
        = gltf_accessor (&g, json_object_get_int_member (attrs, "JOINTS_0"), &n, &comps);
    g_autofree TressBfresSrt *srt = g_new0 (TressBfresSrt, sk->n_bones);
    g_autofree TressBfresMatrix *bind = g_new0 (TressBfresMatrix, sk->n_bones);

    tress_bfres_bind_srt (sk, srt);
    tress_bfres_pose_world (sk, srt, sk->scaling, bind);
    for (guint v = 0; v < 3; v++)
      {
        g_assert_cmpfloat (j[4 * v], ==, 2);
        for (guint r = 0; r < 3; r++)
          g_assert_cmpfloat_with_epsilon (
              p[3 * v + r],
              bind[2].m[r][0] * 1 * (v == 1) + bind[2].m[r][1] * (v == 2) + bind[2].m[r][3], 1e-6);
      }
  }
  g_assert_cmpuint (notes->len, ==, 0);
  gltf_clear (&g);
}

/* An animation whose samples would pass the budget is left out, and said;
 * the export stays small. */
static void
test_budget (void)
{
  g_autoptr (GBytes) bytes = build_synthetic (3000000);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressBfres) bfres = tress_bfres_parse (bytes, "long.bfres", &error);
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (TressGltfWriter) w = NULL;
  g_autoptr (GBytes) fres = NULL;

  g_assert_no_error (error);
  fres = tress_bfres_get_bfres_bytes (bfres);
  w = tress_gltf_bfres_export (bfres, fres, "long.bfres", NULL, notes, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tress_gltf_writer_count (w, "animations"), ==, 0);
  g_assert_cmpuint (notes->len, ==, 1);
  g_assert_nonnull (strstr (notes->pdata[0], "“Swing”: 3000001 frames × 3 bones pass the "
                                             "export's budget"));
  g_assert_cmpuint (tress_gltf_writer_get_buffer_size (w), <, 4096);
}

/* A Yaz0 SARC holding X_Animation.bfres and X.bfres: the model is found in
 * the archive, as the preview finds it. */
static void
test_archive (void)
{
  g_autoptr (TressBfresBuilder) mb = tress_bfres_builder_new ("Model", 0x04050003);
  g_autoptr (TressBfresBuilder) ab = tress_bfres_builder_new ("Anim", 0x04050003);
  g_autoptr (GBytes) anim = NULL, model = NULL, sarc = NULL, zsarc = NULL;
  TressKey keys[2] = { { .frame = 0, .value = 0 }, { .frame = 4, .value = 1 } };
  TressBfresBuilderCurve c = {
    .curve_type = TRESS_BFRES_CURVE_LINEAR, .target_offset = 0x20, .n_keys = 2, .keys = keys
  };
  g_autoptr (GBytes) glb = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *path = tmp ("Pack.szs"), *out_path = tmp ("pack.glb"), *out = NULL;
  const char *names[2] = { "Model/Thing_Animation.bfres", "Model/Thing.bfres" };
  GBytes *files[2];
  Gltf g;

  tress_bfres_builder_begin_anim (ab, TRESS_BFRES_ANIM_SKELETAL, "Go", 4, TRUE);
  tress_bfres_builder_add_bone (ab, "Bone_002");
  tress_bfres_builder_add_curve (ab, &c);
  tress_bfres_builder_add_bone (ab, "Tail");
  tress_bfres_builder_add_curve (ab, &c);
  anim = tress_bfres_builder_finish (ab, &error);
  g_assert_no_error (error);
  tress_bfres_builder_add_test_model (mb, "Creature", 12, 100);
  model = tress_bfres_builder_finish (mb, &error);
  g_assert_no_error (error);
  files[0] = anim;
  files[1] = model;
  sarc = tress_test_make_sarc (names, files, 2);
  zsarc = tress_yaz0_compress (g_bytes_get_data (sarc, NULL), g_bytes_get_size (sarc), NULL);
  g_assert_true (
      g_file_set_contents (path, g_bytes_get_data (zsarc, NULL), g_bytes_get_size (zsarc), NULL));
  {
    const char *argv[] = { "export-gltf", path, "-o", out_path, NULL };

    g_assert_cmpint (tress_test_run_cli (argv, &out, NULL), ==, 0);
  }
  g_assert_nonnull (strstr (out, "model from Model/Thing.bfres in Pack.szs, 12 joints, 1 mesh"));
  g_assert_nonnull (strstr (out, "“Go”: 1 animated bone is not in Creature: Tail"));
  glb = tress_test_read_file (out_path);
  gltf_read_glb (&g, glb);
  g_assert_cmpuint (gltf_count (&g, "animations"), ==, 1);
  g_assert_cmpuint (gltf_count (&g, "nodes"), ==, 13);
  gltf_clear (&g);
}

/* The export reports to the thread's progress and stops when it is cancelled. */
static void
test_progress (void)
{
  g_autoptr (GBytes) bytes = build_synthetic (10);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressBfres) bfres = tress_bfres_parse (bytes, "synth.bfres", &error);
  g_autoptr (GBytes) fres = tress_bfres_get_bfres_bytes (bfres);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (TressProgress) progress = tress_progress_new (cancellable);
  g_autoptr (TressGltfWriter) w = NULL;
  const char *phase;
  guint64 done, total;
  TressProgressUnit unit;

  tress_progress_run_begin (progress);
  w = tress_gltf_bfres_export (bfres, fres, "synth.bfres", NULL, NULL, &error);
  g_assert_no_error (error);
  tress_progress_get (progress, &phase, &done, &total, &unit);
  g_assert_cmpstr (phase, ==, "Exporting animations");
  g_assert_cmpuint (total, ==, 11 * 3);
  g_assert_cmpuint (done, ==, total);
  g_clear_pointer (&w, tress_gltf_writer_free);
  g_cancellable_cancel (cancellable);
  w = tress_gltf_bfres_export (bfres, fres, "synth.bfres", NULL, NULL, &error);
  tress_progress_run_end ();
  g_assert_null (w);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* ---- the transforms: Maya compensation and shear ------------------------------ */

static void
test_trs (void)
{
  TressBfresBone bones[3] = {
    { .name = "A", .parent = -1, .rotation_mode = TRESS_BFRES_ROTATION_EULER_XYZ },
    { .name = "B", .parent = 0, .rotation_mode = TRESS_BFRES_ROTATION_EULER_XYZ },
    { .name = "C", .parent = 1, .rotation_mode = TRESS_BFRES_ROTATION_EULER_XYZ },
  };
  TressBfresSkeleton sk = { .n_bones = 3, .bones = bones, .scaling = TRESS_BFRES_SCALING_MAYA };
  TressBfresSrt srt[3] = {
    { { 2, 2, 2 }, { 0.1, 0.2, 0.3 }, { 1, 2, 3 }, TRESS_BFRES_ROTATION_EULER_XYZ, FALSE },
    { { 1, 3, 1 }, { 0.5, -0.2, 0.1 }, { 0, 1, 0 }, TRESS_BFRES_ROTATION_EULER_XYZ, TRUE },
    { { 1, 1, 1 }, { 0.3, 0.6, -0.4 }, { 0, 1, 0.5 }, TRESS_BFRES_ROTATION_EULER_XYZ, TRUE },
  };
  TressGltfTrs trs[3];
  TressBfresMatrix world[3];
  M4 g[3];

  /* B compensates A's uniform scale 2: exact, B's scale halved. C sits under
   * B's non-uniform scale: glTF cannot hold the shear; C is still placed
   * exactly. */
  g_assert_cmpuint (tress_gltf_bfres_trs (&sk, srt, sk.scaling, trs), ==, 1);
  g_assert_cmpfloat_with_epsilon (trs[1].scale[1], 1.5, 1e-12);
  tress_bfres_pose_world (&sk, srt, sk.scaling, world);
  for (guint i = 0; i < 3; i++)
    {
      M4 local, w4;

      m4_trs (trs[i].translation, trs[i].rotation, trs[i].scale, &local);
      if (i == 0)
        g[i] = local;
      else
        m4_mul (&g[i - 1], &local, &g[i]);
      m4_from_bfres (&world[i], &w4);
      if (i < 2)
        g_assert_cmpfloat (m4_distance (&g[i], &w4), <, 1e-12);
      else
        for (guint r = 0; r < 3; r++)
          g_assert_cmpfloat_with_epsilon (g[i].m[r][3], w4.m[r][3], 1e-12);
    }
  /* Uniform everywhere: every bone exact. */
  srt[1].scale[1] = 1;
  g_assert_cmpuint (tress_gltf_bfres_trs (&sk, srt, sk.scaling, trs), ==, 0);
}

/* ---- the writer ------------------------------------------------------------------ */

static void
test_writer (void)
{
  g_autoptr (TressGltfWriter) w = tress_gltf_writer_new ("test");
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) glb = NULL;
  float v[6] = { 1, NAN, 3, -INFINITY, 5, 6 };
  guint16 idx[3] = { 0, 1, 2 };
  g_autofree double *back = NULL;
  JsonObject *acc;
  guint n, comps;
  Gltf g;

  tress_gltf_writer_add_accessor (w, v, TRESS_GLTF_FLOAT, TRESS_GLTF_VEC3, 2,
                                  TRESS_GLTF_ARRAY_BUFFER, TRUE);
  tress_gltf_writer_add_accessor (w, idx, TRESS_GLTF_UNSIGNED_SHORT, TRESS_GLTF_SCALAR, 3,
                                  TRESS_GLTF_ELEMENT_ARRAY_BUFFER, FALSE);
  tress_gltf_writer_begin_view (w, 0);
  tress_gltf_writer_add_accessor (w, idx, TRESS_GLTF_UNSIGNED_SHORT, TRESS_GLTF_SCALAR, 3, 0,
                                  FALSE);
  tress_gltf_writer_add_accessor (w, v, TRESS_GLTF_FLOAT, TRESS_GLTF_SCALAR, 1, 0, TRUE);
  tress_gltf_writer_end_view (w);
  g_assert_cmpuint (tress_gltf_writer_get_n_non_finite (w), ==, 2);
  glb = tress_gltf_writer_to_glb (w, &error);
  g_assert_no_error (error);
  gltf_read_glb (&g, glb);
  back = gltf_accessor (&g, 0, &n, &comps);
  g_assert_cmpfloat (back[1], ==, 0);
  g_assert_cmpfloat (back[3], ==, 0);
  acc = gltf_get (&g, "accessors", 0);
  g_assert_cmpfloat (json_array_get_double_element (json_object_get_array_member (acc, "min"), 1),
                     ==, 0);
  g_assert_cmpfloat (json_array_get_double_element (json_object_get_array_member (acc, "max"), 2),
                     ==, 6);
  /* Two accessors in one view, the second 4-aligned after 6 bytes. */
  g_assert_cmpuint (gltf_count (&g, "bufferViews"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (gltf_get (&g, "accessors", 3), "byteOffset"), ==, 8);
  g_free (back);
  back = gltf_accessor (&g, 3, &n, &comps);
  g_assert_cmpfloat (back[0], ==, 1);
  g_assert_cmpstr (
      json_object_get_string_member (json_object_get_object_member (g.root, "asset"), "generator"),
      ==, "test");
  gltf_clear (&g);
  g_clear_pointer (&back, g_free);
  g_clear_pointer (&glb, g_bytes_unref);

  /* A document with no data has no buffer and no BIN chunk. */
  {
    g_autoptr (TressGltfWriter) empty = tress_gltf_writer_new (NULL);

    glb = tress_gltf_writer_to_glb (empty, &error);
    g_assert_no_error (error);
    gltf_read_glb (&g, glb);
    g_assert_null (g.bin);
    g_assert_false (json_object_has_member (g.root, "buffers"));
    gltf_clear (&g);
  }
  {
    g_autofree char *uri = tress_gltf_uri_for_file ("a b#c%.bin");

    g_assert_cmpstr (uri, ==, "a%20b%23c%25.bin");
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gltf/writer", test_writer);
  g_test_add_func ("/gltf/trs", test_trs);
  g_test_add_func ("/gltf/key-frames", test_key_frames);
  g_test_add_func ("/gltf/budget", test_budget);
  g_test_add_func ("/gltf/progress", test_progress);
  g_test_add_func ("/gltf/bass", test_bass);
  g_test_add_func ("/gltf/options", test_options);
  g_test_add_func ("/gltf/archive", test_archive);
  g_test_add_func ("/gltf/batch-collision", test_batch_collision);
  g_test_add_func ("/gltf/refusals", test_refusals);
  return g_test_run ();
}
