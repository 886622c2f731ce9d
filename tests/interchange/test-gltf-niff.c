/* test-gltf-niff.c: glTF export of the NIFF samples, compared with the preview
 *
 * Every sample is exported as tress-cli does and read back with this
 * folder's own decoder (gltf-test-reader.c); an animator the test builds
 * from the same file, posed through the curves as the preview samples them,
 * gives every node's world matrix at every whole frame, and its meshes the
 * triangles, their normals and colours, and the skinned vertices at every
 * whole frame (gltf-niff-compare.h). Then what the samples hold: Rings'
 * Parts and lit materials, dragon's vertex-coloured, unlit and two-sided
 * materials, kirikobu's skin over the IK joints. Then the export with one
 * animation per AnimGroup against the one of them all, sample by sample.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "formats/niff/tress-niff-scene.h"
#include "../niff/niff-test-samples.h"
#include "gltf-niff-compare.h"
#include "tress-test-utils.h"

/* ---- the samples -------------------------------------------------------------------- */

typedef struct
{
  double size;     /* of the scene, for comparing positions */
  double position; /* the largest differences seen */
  double axes;
  double skin;
} Errors;

static double
member_double (JsonObject *o, const char *member)
{
  return json_object_get_double_member (o, member);
}

/* The enveloped mesh on glTF node @node: at bind as the preview's, every
 * vertex's weights summing to 1, and skinned at every whole frame where the
 * preview's skinning puts it. */
static void
check_skin (Gltf *g, Preview *p, guint node, GArray *tracks, const double *times, guint n_times,
            double fps, double frames, Errors *err)
{
  TressScene *scene = p->animator->scene;
  JsonObject *n = gltf_get (g, "nodes", node);
  JsonObject *skin = gltf_get (g, "skins", json_object_get_int_member (n, "skin"));
  JsonArray *joints = json_object_get_array_member (skin, "joints");
  guint mesh = json_object_get_int_member (n, "mesh"), n_joints = json_array_get_length (joints);
  JsonArray *prims = json_object_get_array_member (gltf_get (g, "meshes", mesh), "primitives");
  guint n_prims = json_array_get_length (prims), count, comps, n_nodes = gltf_count (g, "nodes");
  g_autoptr (GArray) file = file_corners (g, mesh);
  g_autoptr (GArray) preview = preview_corners (scene, -1);
  g_autofree double *ibm
      = gltf_accessor (g, json_object_get_int_member (skin, "inverseBindMatrices"), &count, &comps);
  g_autofree M4 *world = g_new (M4, n_nodes);
  g_autofree M4 *inv = g_new (M4, n_joints);
  g_autofree double **jnt = g_new0 (double *, n_prims);
  g_autofree double **wts = g_new0 (double *, n_prims);
  const TressSceneMesh *sm = NULL;

  for (guint m = 0; m < scene->meshes->len; m++)
    if (tress_scene_get_mesh (scene, m)->joints != NULL)
      sm = tress_scene_get_mesh (scene, m);
  g_assert_nonnull (sm);
  g_assert_cmpuint (count, ==, n_joints);
  for (guint j = 0; j < n_joints; j++)
    for (guint r = 0; r < 4; r++)
      for (guint c = 0; c < 4; c++)
        inv[j].m[r][c] = ibm[16 * j + 4 * c + r]; /* column-major */
  assert_same_triangles (file, preview);
  for (guint k = 0; k < n_prims; k++)
    {
      JsonObject *attrs
          = json_object_get_object_member (json_array_get_object_element (prims, k), "attributes");
      guint nv;

      jnt[k] = gltf_accessor (g, json_object_get_int_member (attrs, "JOINTS_0"), &nv, &comps);
      wts[k] = gltf_accessor (g, json_object_get_int_member (attrs, "WEIGHTS_0"), &nv, &comps);
      for (guint v = 0; v < nv; v++)
        {
          double sum = 0;

          for (guint i = 0; i < 4; i++)
            {
              g_assert_cmpfloat (jnt[k][4 * v + i], <, n_joints);
              g_assert_cmpfloat (wts[k][4 * v + i], >=, 0);
              sum += wts[k][4 * v + i];
            }
          g_assert_cmpfloat_with_epsilon (sum, 1, 1e-6);
        }
    }
  for (double f = 0; f <= frames; f++)
    {
      int at = tracks != NULL ? sample_at (times, n_times, f, fps) : -1;

      worlds_at (g, tracks, at, world);
      preview_pose (p, f);
      for (guint j = 0; f == 0 && j < n_joints; j++)
        {
          M4 prod, id = { { { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 }, { 0, 0, 0, 1 } } };

          /* Bound in the pose at frame 0: each joint's world × its inverse bind matrix is 1. */
          m4_mul (&world[json_array_get_int_element (joints, j)], &inv[j], &prod);
          g_assert_cmpfloat (m4_distance (&prod, &id), <, 1e-5);
        }
      for (guint i = 0; i < file->len; i++)
        {
          const Corner *c = &g_array_index (file, Corner, i);
          guint k = c->id >> 24, v = c->id & 0xFFFFFF;
          float want[3];
          double got[3] = { 0, 0, 0 };

          for (guint s = 0; s < 4; s++)
            {
              M4 mj;
              double w = wts[k][4 * v + s];
              guint j = (guint)jnt[k][4 * v + s];

              m4_mul (&world[json_array_get_int_element (joints, j)], &inv[j], &mj);
              for (guint r = 0; r < 3; r++)
                got[r] += w
                          * (mj.m[r][0] * c->pos[0] + mj.m[r][1] * c->pos[1]
                             + mj.m[r][2] * c->pos[2] + mj.m[r][3]);
            }
          tress_scene_vertex_position (scene, sm, g_array_index (preview, Corner, i).id, want);
          for (guint r = 0; r < 3; r++)
            err->skin = MAX (err->skin, fabs (got[r] - want[r]) / err->size);
        }
    }
  for (guint k = 0; k < n_prims; k++)
    {
      g_free (jnt[k]);
      g_free (wts[k]);
    }
}

/* Exports @rel as tress-cli does and compares everything with the preview. */
static void
test_sample (gconstpointer data)
{
  const char *rel = data;
  g_autoptr (GBytes) bytes = tress_test_load_sample (rel);
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressGltfWriter) w = NULL;
  g_autoptr (GBytes) glb = NULL;
  g_autofree char *source = g_path_get_basename (rel);
  g_autofree double *times = NULL;
  g_autofree M4 *world = NULL;
  GArray *tracks = NULL;
  TressNiffFile *file;
  TressScene *scene;
  Preview p;
  Gltf g;
  guint nn, n_times = 0;
  double frames = 0, fps;
  Errors err = { 1, 0, 0, 0 };
  gint64 t0;

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  preview_init (&p, file, source);
  scene = p.animator->scene;
  nn = tress_scene_get_n_nodes (scene);
  t0 = g_get_monotonic_time ();
  w = tress_gltf_niff_export (file, source, NULL, notes, &error);
  g_assert_no_error (error);
  glb = tress_gltf_writer_to_glb (w, &error);
  g_assert_no_error (error);
  g_test_message ("%s: %.1f ms, %" G_GSIZE_FORMAT " bytes", rel,
                  (g_get_monotonic_time () - t0) / 1000.0, g_bytes_get_size (glb));
  gltf_read_glb (&g, glb);
  world = g_new (M4, gltf_count (&g, "nodes"));

  /* The scene's nodes first, named and linked as in the preview. */
  g_assert_cmpuint (gltf_count (&g, "nodes"), >=, nn);
  for (guint i = 0; i < nn; i++)
    {
      JsonObject *node = gltf_get (&g, "nodes", i);
      int parent = tress_scene_get_node (scene, i)->parent;

      g_assert_cmpstr (json_object_get_string_member (node, "name"), ==,
                       tress_scene_get_node (scene, i)->name);
      if (json_object_has_member (node, "children"))
        {
          JsonArray *c = json_object_get_array_member (node, "children");

          for (guint k = 0; k < json_array_get_length (c); k++)
            g_assert_cmpint (
                tress_scene_get_node (scene, json_array_get_int_element (c, k))->parent, ==,
                (int)i);
        }
      if (parent < 0)
        g_assert_true (json_array_get_length (
                           json_object_get_array_member (gltf_get (&g, "scenes", 0), "nodes"))
                       > 0);
    }

  /* One animation, the whole scene's, at every whole frame. */
  fps = p.animator->anim_fps[0] > 0 ? p.animator->anim_fps[0] : 30;
  if (gltf_count (&g, "animations") > 0)
    {
      JsonObject *anim = gltf_get (&g, "animations", 0);
      JsonObject *x
          = json_object_get_object_member (json_object_get_object_member (anim, "extras"), "niff");

      g_assert_cmpuint (gltf_count (&g, "animations"), ==, 1);
      g_assert_cmpstr (json_object_get_string_member (anim, "name"), ==, p.animator->anim_names[0]);
      frames = member_double (x, "frameCount");
      g_assert_cmpfloat (frames, ==, p.animator->anim_frames[0]);
      g_assert_cmpfloat (member_double (x, "fps"), ==, fps);
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (x, "animGroups")), ==,
                        tress_niff_file_get_n_groups (file));
      tracks = tracks_of (&g, anim, &times, &n_times);
      g_assert_cmpuint (n_times, ==, (guint)frames + 1);
      for (guint i = 1; i < n_times; i++)
        g_assert_cmpfloat (times[i], >, times[i - 1]);
      /* Rotations the short way from sample to sample. */
      for (guint k = 0; k < tracks->len; k++)
        {
          const Track *t = &g_array_index (tracks, Track, k);

          for (guint i = 1; t->path == 1 && i < n_times; i++)
            g_assert_cmpfloat (
                t->out[4 * i] * t->out[4 * i - 4] + t->out[4 * i + 1] * t->out[4 * i - 3]
                    + t->out[4 * i + 2] * t->out[4 * i - 2] + t->out[4 * i + 3] * t->out[4 * i - 1],
                >=, 0);
        }
    }
  else
    g_assert_cmpfloat (p.animator->anim_frames[0], <, 1);

  /* Every node's world matrix at every whole frame is the preview's. */
  preview_pose (&p, 0);
  for (guint i = 0; i < nn; i++)
    {
      const graphene_matrix_t *m = &tress_scene_get_node (scene, i)->world;

      for (guint r = 0; r < 3; r++)
        err.size = MAX (err.size, fabs (graphene_matrix_get_value (m, 3, r)));
    }
  for (double f = 0; f <= frames; f++)
    {
      int at = tracks != NULL ? sample_at (times, n_times, f, fps) : -1;

      g_assert_true (tracks == NULL || at >= 0);
      worlds_at (&g, tracks, at, world);
      preview_pose (&p, f);
      for (guint i = 0; i < nn; i++)
        {
          M4 want;
          double axes = 0;

          m4_from_graphene (&tress_scene_get_node (scene, i)->world, &want);
          distance (&world[i], &want, err.size, &err.position, &axes);
          if (!approximated (notes, tress_scene_get_node (scene, i)->name))
            err.axes = MAX (err.axes, axes);
        }
    }

  /* The meshes: rigid ones on their object's node, as the preview draws
   * them; envelopes skinned on nodes of their own. */
  for (guint i = 0; i < gltf_count (&g, "nodes"); i++)
    {
      JsonObject *node = gltf_get (&g, "nodes", i);

      if (json_object_has_member (node, "skin"))
        {
          g_assert_cmpuint (i, >=, nn);
          check_skin (&g, &p, i, tracks, times, n_times, fps, frames, &err);
        }
      else if (json_object_has_member (node, "mesh"))
        {
          g_autoptr (GArray) a = file_corners (&g, json_object_get_int_member (node, "mesh"));
          g_autoptr (GArray) b = preview_corners (scene, (int)i);

          g_assert_cmpuint (i, <, nn);
          assert_same_triangles (a, b);
        }
      else if (i < nn)
        {
          /* No mesh: nor in the preview. */
          g_autoptr (GArray) b = preview_corners (scene, (int)i);

          g_assert_cmpuint (b->len, ==, 0);
        }
    }
  g_test_message ("%s: %u nodes, %.0f frames at %g fps; largest difference from the preview: "
                  "position %.2g (of the scene's size %.3g), axes %.2g, skinned vertices %.2g",
                  rel, nn, frames, fps, err.position, err.size, err.axes, err.skin);
  for (guint i = 0; i < notes->len; i++)
    g_test_message ("%s: not carried: %s", rel, (const char *)notes->pdata[i]);
  g_assert_cmpfloat (err.position, <, 1e-5);
  g_assert_cmpfloat (err.axes, <, 1e-5);
  g_assert_cmpfloat (err.skin, <, 1e-5);
  if (tracks != NULL)
    tracks_free (tracks);
  gltf_clear (&g);
  preview_clear (&p);
  tress_format_niff.free (file);
}

/* ---- what the samples hold ----------------------------------------------------------- */

static void
base_colour (Gltf *g, JsonObject *prim, double rgba[4])
{
  JsonObject *m = gltf_get (g, "materials", json_object_get_int_member (prim, "material"));
  JsonArray *f = json_object_get_array_member (
      json_object_get_object_member (m, "pbrMetallicRoughness"), "baseColorFactor");

  for (guint k = 0; k < 4; k++)
    rgba[k] = json_array_get_double_element (f, k);
}

static const char *
material_name (Gltf *g, JsonObject *prim)
{
  return json_object_get_string_member (
      gltf_get (g, "materials", json_object_get_int_member (prim, "material")), "name");
}

/* Rings.niff: the Sweep's three Parts are three primitives in their
 * materials' diffuse colours; the materials are lit (no unlit extension). */
static void
test_rings_materials (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/Rings.niff");
  g_autoptr (GBytes) glb = NULL;
  static const char *const names[3] = { "mat2", "mat1", "mat3" };
  static const double green[3] = { 0.4858759939670563, 0.699999988079071, 0.16949200630187988 };
  TressNiffFile *file;
  JsonArray *prims;
  Gltf g;

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  glb = export_glb (file, NULL, NULL);
  gltf_read_glb (&g, glb);
  g_assert_cmpstr (json_object_get_string_member (gltf_get (&g, "nodes", 1), "name"), ==,
                   "Sweep15_3");
  g_assert_cmpint (json_object_get_int_member (gltf_get (&g, "nodes", 1), "mesh"), ==, 0);
  prims = json_object_get_array_member (gltf_get (&g, "meshes", 0), "primitives");
  g_assert_cmpuint (json_array_get_length (prims), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      JsonObject *prim = json_array_get_object_element (prims, i);
      JsonObject *attrs = json_object_get_object_member (prim, "attributes");
      JsonObject *m = gltf_get (&g, "materials", json_object_get_int_member (prim, "material"));
      double rgba[4];
      guint n, comps;
      g_autofree double *idx
          = gltf_accessor (&g, json_object_get_int_member (prim, "indices"), &n, &comps);

      g_assert_cmpstr (material_name (&g, prim), ==, names[i]);
      base_colour (&g, prim, rgba);
      g_assert_cmpfloat_with_epsilon (rgba[0], 0, 1e-7);
      g_assert_cmpfloat_with_epsilon (rgba[1], green[i], 1e-7);
      /* Triangles 0…99, 100…299 (Part 1), 300…399 (Part 2). */
      g_assert_cmpuint (n, ==, 3 * (i == 1 ? 200 : 100));
      /* Lit, smooth: normals; the colour is the material's alone. */
      g_assert_true (json_object_has_member (attrs, "NORMAL"));
      g_assert_false (json_object_has_member (attrs, "COLOR_0"));
      g_assert_false (json_object_has_member (m, "extensions"));
      g_assert_false (json_object_has_member (m, "doubleSided")); /* shape type 0x15: culled */
      g_assert_cmpstr (json_object_get_string_member (niff_extras (m), "type"), ==, "N64");
    }
  /* Welded: the Sweep's 400 triangles share their 400 positions. */
  {
    guint total = 0;

    for (guint i = 0; i < 3; i++)
      {
        JsonObject *attrs = json_object_get_object_member (json_array_get_object_element (prims, i),
                                                           "attributes");

        total += json_object_get_int_member (
            gltf_get (&g, "accessors", json_object_get_int_member (attrs, "POSITION")), "count");
      }
    g_assert_cmpuint (total, <, 3 * 400);
  }
  gltf_clear (&g);
  tress_format_niff.free (file);
}

/* dragon.nif: the skin material multiplies vertex colours only: a white
 * base (its orange primitive colour plays no part) and COLOR_0; the eye is
 * unlit; the wings (shape type 0x05) are drawn on both sides. */
static void
test_dragon_materials (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/dragon.nif");
  g_autoptr (GBytes) glb = NULL;
  TressNiffFile *file;
  gboolean skin = FALSE, eye = FALSE, wing = FALSE;
  Gltf g;

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  glb = export_glb (file, NULL, NULL);
  gltf_read_glb (&g, glb);
  for (guint m = 0; m < gltf_count (&g, "meshes"); m++)
    {
      JsonArray *prims = json_object_get_array_member (gltf_get (&g, "meshes", m), "primitives");

      for (guint i = 0; i < json_array_get_length (prims); i++)
        {
          JsonObject *prim = json_array_get_object_element (prims, i);
          JsonObject *attrs = json_object_get_object_member (prim, "attributes");
          JsonObject *mat
              = gltf_get (&g, "materials", json_object_get_int_member (prim, "material"));
          const char *name = material_name (&g, prim);
          double rgba[4];

          base_colour (&g, prim, rgba);
          if (g_str_equal (name, "skin"))
            {
              skin = TRUE;
              g_assert_cmpfloat (rgba[0] + rgba[1] + rgba[2], ==, 3);
              g_assert_true (json_object_has_member (attrs, "COLOR_0"));
              g_assert_true (json_object_has_member (attrs, "NORMAL")); /* smooth (0x10) */
            }
          else if (g_str_equal (name, "eye"))
            {
              eye = TRUE;
              g_assert_true (json_object_has_member (
                  json_object_get_object_member (mat, "extensions"), "KHR_materials_unlit"));
              g_assert_false (json_object_has_member (attrs, "NORMAL")); /* flat */
            }
          else if (g_str_equal (name, "wing"))
            {
              wing = TRUE;
              g_assert_true (json_object_get_boolean_member (mat, "doubleSided"));
            }
        }
    }
  g_assert_true (skin && eye && wing);
  g_assert_cmpstr (
      json_array_get_string_element (json_object_get_array_member (g.root, "extensionsUsed"), 0),
      ==, "KHR_materials_unlit");
  gltf_clear (&g);
  tress_format_niff.free (file);
}

/* kirikobu.niff: the envelope's skin is over null1 and the two IK joints;
 * the effector, hung below the second joint's rest, is the one node whose
 * frame glTF cannot hold. */
static void
test_kirikobu_skin (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/kirikobu.niff");
  g_autoptr (GBytes) glb = NULL;
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GString) joint_names = g_string_new (NULL);
  TressNiffFile *file;
  JsonArray *joints;
  JsonObject *node;
  Gltf g;

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  glb = export_glb (file, NULL, notes);
  gltf_read_glb (&g, glb);
  g_assert_cmpuint (gltf_count (&g, "skins"), ==, 1);
  node = gltf_get (&g, "nodes", gltf_count (&g, "nodes") - 1);
  g_assert_cmpstr (json_object_get_string_member (node, "name"), ==, "kirikabu_1_AnimatedShape");
  g_assert_false (json_object_has_member (node, "translation"));
  joints = json_object_get_array_member (gltf_get (&g, "skins", 0), "joints");
  for (guint j = 0; j < json_array_get_length (joints); j++)
    g_string_append_printf (
        joint_names, "%s%s", j ? " " : "",
        json_object_get_string_member (
            gltf_get (&g, "nodes", json_array_get_int_element (joints, j)), "name"));
  g_assert_cmpstr (joint_names->str, ==, "jnt11_1 jnt11_2 null1");
  /* Texture coordinates from the parts' St groups (the weighted parts'
   * included), t turned over. */
  {
    g_autoptr (TressNiffScene) niff = tress_niff_scene_new (file, NULL);
    JsonArray *prims = json_object_get_array_member (gltf_get (&g, "meshes", 0), "primitives");

    for (guint p = 0; p < json_array_get_length (prims); p++)
      {
        JsonObject *attrs = json_object_get_object_member (json_array_get_object_element (prims, p),
                                                           "attributes");
        guint n, comps;
        g_autofree double *st
            = gltf_accessor (&g, json_object_get_int_member (attrs, "TEXCOORD_0"), &n, &comps);

        for (guint v = 0; v < n; v++)
          {
            gboolean found = FALSE;

            for (guint k = 0; k < niff->n_sts && !found; k++)
              for (guint i = 0; i < niff->sts[k].n && !found; i++)
                found = (float)st[2 * v] == niff->sts[k].v[2 * i]
                        && (float)st[2 * v + 1] == 1 - niff->sts[k].v[2 * i + 1];
            g_assert_true (found);
          }
      }
  }
  g_assert_true (approximated (notes, "eff11"));
  g_assert_false (approximated (notes, "jnt11_1"));
  g_assert_cmpstr (
      json_object_get_string_member (
          niff_extras (gltf_get (&g, "nodes", find_node (&g, "jnt11_1"))), "animGroup"),
      ==, "jnt11_1_Animation");
  gltf_clear (&g);
  tress_format_niff.free (file);
}

/* ---- one animation per AnimGroup ----------------------------------------------------- */

/* The AnimGroup node @node names in its extras, or −1. */
static int
node_group_index (Gltf *g, guint node)
{
  JsonObject *x = niff_extras (gltf_get (g, "nodes", node));

  return json_object_has_member (x, "animGroupIndex")
             ? (int)json_object_get_int_member (x, "animGroupIndex")
             : -1;
}

/* @file exported with one animation per AnimGroup (@options, split) against
 * its export with one animation of them all: the same nodes; every channel
 * of the one animation in exactly one of the others, that of its node's
 * AnimGroup (named after it), or the one named @others (the scene's, for
 * nodes no AnimGroup chosen holds; NULL: there is none); the same times and
 * values at each of its samples, and the last of them held through the
 * samples after it (so that the split animations played together are the
 * one). Returns how many animations the split export has; its notes go to
 * @notes. */
static guint
check_split (TressNiffFile *file, TressGltfNiffOptions *options, const char *others,
             GPtrArray *notes)
{
  g_autoptr (GBytes) one_glb = NULL, split_glb = NULL;
  g_autofree double *times = NULL;
  g_autofree guint *seen = NULL;
  GArray *tracks;
  JsonObject *one_anim, *one_x;
  Gltf one, split;
  guint n_times = 0, n_split;
  gboolean had_others = FALSE;

  options->split = FALSE;
  one_glb = export_glb (file, options, NULL);
  options->split = TRUE;
  split_glb = export_glb (file, options, notes);
  gltf_read_glb (&one, one_glb);
  gltf_read_glb (&split, split_glb);
  g_assert_true (json_node_equal (json_object_get_member (one.root, "nodes"),
                                  json_object_get_member (split.root, "nodes")));
  n_split = gltf_count (&split, "animations");
  if (gltf_count (&one, "animations") == 0)
    {
      g_assert_cmpuint (n_split, ==, 0);
      gltf_clear (&one);
      gltf_clear (&split);
      return 0;
    }
  one_anim = gltf_get (&one, "animations", 0);
  one_x = niff_extras (one_anim);
  tracks = tracks_of (&one, one_anim, &times, &n_times);
  seen = g_new0 (guint, tracks->len + 1);
  g_assert_cmpuint (n_split, >, 0);
  for (guint k = 0; k < n_split; k++)
    {
      JsonObject *anim = gltf_get (&split, "animations", k), *x = niff_extras (anim);
      JsonArray *groups = json_object_get_array_member (x, "animGroups");
      const char *name = json_object_get_string_member (anim, "name");
      g_autofree double *t = NULL;
      g_autofree char *unnamed = NULL;
      GArray *mine;
      guint n = 0;
      int group = -1;

      if (json_array_get_length (groups) == 1)
        {
          TressNiffGroupInfo info;

          group = json_object_get_int_member (json_array_get_object_element (groups, 0), "index");
          g_assert_true (tress_niff_group_get_info (file, group, &info));
          unnamed = g_strdup_printf ("AnimGroup %d", group);
          g_assert_cmpstr (name, ==, info.name != NULL ? info.name : unnamed);
          g_assert_cmpuint (json_object_get_boolean_member (x, "loop"), ==, info.loop == 0);
        }
      else
        {
          /* The nodes no AnimGroup chosen holds. */
          g_assert_cmpuint (json_array_get_length (groups), ==, 0);
          g_assert_nonnull (others);
          g_assert_cmpstr (name, ==, others);
          g_assert_cmpstr (name, ==, json_object_get_string_member (one_anim, "name"));
          had_others = TRUE;
        }
      g_assert_cmpstr (json_object_get_string_member (x, "name"), ==, name);
      g_assert_cmpfloat (member_double (x, "fps"), ==, member_double (one_x, "fps"));
      mine = tracks_of (&split, anim, &t, &n);
      g_assert_cmpuint (mine->len, >, 0);
      g_assert_cmpuint (n, <=, n_times);
      g_assert_cmpint (json_object_get_int_member (x, "samples"), ==, n);
      g_assert_cmpfloat (member_double (x, "frameCount"), ==,
                         MIN (n - 1, member_double (one_x, "frameCount")));
      /* Its own frames at least. */
      if (group >= 0)
        g_assert_cmpfloat (
            n - 1, >=,
            MIN (ceil (tress_niff_group_get_frame_count (file, group)), (double)(n_times - 1)));
      for (guint f = 0; f < n; f++)
        g_assert_cmpfloat (t[f], ==, times[f]);
      for (guint c = 0; c < mine->len; c++)
        {
          const Track *a = &g_array_index (mine, Track, c);
          guint comps = a->path == 1 ? 4 : 3, found = tracks->len;

          if (group >= 0)
            g_assert_cmpint (node_group_index (&split, a->node), ==, group);
          for (guint i = 0; i < tracks->len; i++)
            if (g_array_index (tracks, Track, i).node == a->node
                && g_array_index (tracks, Track, i).path == a->path)
              found = i;
          g_assert_cmpuint (found, <, tracks->len);
          seen[found]++;
          for (guint f = 0; f < n_times; f++)
            for (guint j = 0; j < comps; j++)
              g_assert_cmpfloat (g_array_index (tracks, Track, found).out[comps * f + j], ==,
                                 a->out[comps * MIN (f, n - 1) + j]);
        }
      tracks_free (mine);
    }
  for (guint i = 0; i < tracks->len; i++)
    g_assert_cmpuint (seen[i], ==, 1);
  g_assert_true (had_others == (others != NULL));
  tracks_free (tracks);
  gltf_clear (&one);
  gltf_clear (&split);
  return n_split;
}

/* Every sample, every AnimGroup animated; the AnimGroups that move no node
 * get no animation. */
static void
test_split (gconstpointer data)
{
  const char *rel = data;
  g_autoptr (GBytes) bytes = tress_test_load_sample (rel);
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  TressGltfNiffOptions options = { 0 };
  TressNiffFile *file;
  guint n;

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  n = check_split (file, &options, NULL, notes);
  g_test_message ("%s: %u animations, one per AnimGroup that moves a node", rel, n);
  if (g_str_has_suffix (rel, "dragon.nif"))
    {
      /* 33 AnimGroups; Dragon_All and the 3 NULL_OBJECTs hold still, and are named. */
      g_assert_cmpuint (n, ==, 29);
      g_assert_true (has_note (notes, "4 AnimGroups (Animation_for_Dragon_All, "
                                      "Position_of_NULL_OBJECT#1, Position_of_NULL_OBJECT#2, "
                                      "Position_of_NULL_OBJECT#3) move no node"));
    }
  else if (g_str_has_suffix (rel, "kirikobu.niff"))
    g_assert_cmpuint (n, ==, 4); /* the up vector, the effector and the two IK joints */
  tress_format_niff.free (file);
}

/* kirikobu.niff with its effector's AnimGroup alone: the IK joints follow
 * it though their own AnimGroups are left out, so they are animated in one
 * more animation, named after the scene. */
static void
test_split_others (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/kirikobu.niff");
  static const guint effector[] = { 6 }; /* eff11_Animation */
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  TressGltfNiffOptions options = { 0, effector, 1, TRUE };
  TressNiffFile *file;
  TressNiffGroupInfo info;

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  g_assert_true (tress_niff_group_get_info (file, effector[0], &info));
  g_assert_cmpstr (info.name, ==, "eff11_Animation");
  g_assert_cmpuint (check_split (file, &options, "018", notes), ==, 2);
  g_assert_true (has_note (notes, "2 nodes (jnt11_1, jnt11_2) move though no AnimGroup exported "
                                  "holds them"));
  tress_format_niff.free (file);
}

int
main (int argc, char **argv)
{
  static const char *const samples[] = {
    "niff/Rings.niff",
    "niff/dragon.nif",
    "niff/kirikobu.niff",
    "niff/3hedra.niff",
    "niff/blend2niff-cube.nif",
    "niff/yellow-cube.niff",
    "niff/synthetic-all-channels.nif",
    "niff/synthetic-niff1.nif",
  };

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *name = g_path_get_basename (samples[i]);
      g_autofree char *path = g_strdup_printf ("/gltf-niff/sample/%s", name);

      g_test_add_data_func (path, samples[i], test_sample);
      g_clear_pointer (&path, g_free);
      path = g_strdup_printf ("/gltf-niff/split/%s", name);
      g_test_add_data_func (path, samples[i], test_split);
    }
  g_test_add_func ("/gltf-niff/split-others", test_split_others);
  g_test_add_func ("/gltf-niff/rings-materials", test_rings_materials);
  g_test_add_func ("/gltf-niff/dragon-materials", test_dragon_materials);
  g_test_add_func ("/gltf-niff/kirikobu-skin", test_kirikobu_skin);
  return g_test_run ();
}
