/* test-niff-scene.c: the NIFF scene reader on the shared samples, built files and bad input
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "formats/niff/tress-niff-scene.h"
#include "niff-test-samples.h"
#include "tress-test-utils.h"

static const TressFormat *fmt = &tress_format_niff;

/* ---- raw big-endian access, independent of the reader ---- */

static TressNiffScene *
scene_ok (TressNiffFile *file)
{
  g_autoptr (GError) error = NULL;
  TressNiffScene *scene = tress_niff_scene_new (file, &error);

  g_assert_no_error (error);
  g_assert_nonnull (scene);
  return scene;
}

static guint32
find_object (const TressNiffScene *scene, const char *name)
{
  for (guint32 i = 0; i < scene->n_objects; i++)
    if (g_strcmp0 (scene->objects[i].name, name) == 0)
      return i;
  g_error ("no object %s", name);
  return TRESS_NIFF_NONE;
}

/* ---- samples ---- */

static void
test_samples_read (void)
{
  static const struct
  {
    const char *sample;
    guint objects, shapes, mats, parts, tris;
    const char *name;
  } want[] = {
    { "niff/3hedra.niff", 7, 3, 3, 0, 564, "001" },
    { "niff/Rings.niff", 7, 3, 5, 2, 1200, "Braid001" },
    { "niff/blend2niff-cube.nif", 4, 1, 3, 2, 12, "blend2niff_cube.scene" },
    { "niff/dragon.nif", 33, 21, 8, 11, 412, "dragon" },
    { "niff/kirikobu.niff", 7, 1, 4, 4, 236, "018" },
    { "niff/yellow-cube.niff", 2, 1, 1, 0, 12, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      g_autoptr (GBytes) bytes = tress_test_load_sample (want[i].sample);
      g_autoptr (TressNiffScene) scene = NULL;
      g_autoptr (GBytes) out = NULL;
      TressNiffFile *file;
      guint tris = 0;

      if (bytes == NULL)
        return;
      g_test_message ("%s", want[i].sample);
      file = niff_parse_ok (bytes);
      scene = scene_ok (file);
      g_assert_cmpuint (scene->n_objects, ==, want[i].objects);
      g_assert_cmpuint (scene->n_shapes, ==, want[i].shapes);
      g_assert_cmpuint (scene->n_mats, ==, want[i].mats);
      g_assert_cmpuint (scene->n_parts, ==, want[i].parts);
      g_assert_cmpstr (scene->name, ==, want[i].name);
      for (guint32 s = 0; s < scene->n_shapes; s++)
        {
          const TressNiffSceneShape *shape = &scene->shapes[s];
          if (shape->geometry_kind == TRESS_NIFF_TAG_TRI_GROUP)
            tris += scene->tri_groups[shape->geometry].n_tris;
          else
            tris += scene->envelopes[shape->geometry].n_tris;
        }
      g_assert_cmpuint (tris, ==, want[i].tris);
      /* Reading the scene leaves the file as it was. */
      out = fmt->serialize (file, NULL);
      tress_test_assert_bytes_equal (bytes, out);
      fmt->free (file);
    }
}

/* Every triangle's indices lie inside its groups: checked on the raw bytes
 * (TriGroup header 32 bytes, six reference words, then 76-byte Tri areas;
 * VtxGroup header 24 bytes, then 12-byte vertices), and the reader gives the
 * very same triangles and vertices. */
static void
test_samples_tri_indices (void)
{
  guint checked = 0;

  for (guint s = 0; s < NIFF_TEST_N_SAMPLES; s++)
    {
      g_autoptr (GBytes) bytes = tress_test_load_sample (niff_test_samples[s]);
      g_autoptr (TressNiffScene) scene = NULL;
      const guint8 *d;
      gsize size, tri_list, vtx_list;
      TressNiffFile *file;

      if (bytes == NULL)
        return;
      d = g_bytes_get_data (bytes, &size);
      tri_list = niff_raw_find_list (d, size, 0x00080000);
      vtx_list = niff_raw_find_list (d, size, 0x00040000);
      file = niff_parse_ok (bytes);
      scene = scene_ok (file);
      g_assert_cmpuint (scene->n_tri_groups, ==, niff_be32 (d + tri_list + 12));
      g_assert_cmpuint (scene->n_vtx, ==, niff_be32 (d + vtx_list + 12));
      for (guint32 g = 0; g < scene->n_tri_groups; g++)
        {
          gsize tg = niff_raw_element (d, tri_list, g);
          guint32 vtx_group = niff_be32 (d + tg + 32);
          gsize vg = niff_raw_element (d, vtx_list, vtx_group);
          guint32 n_vtx = niff_be32 (d + vg + 20);
          gsize t = tg + 32 + 24;

          g_assert_cmpuint (niff_be32 (d + tg + 20), ==, 0); /* no shape animation in the samples */
          g_assert_cmpuint (scene->tri_groups[g].refs[TRESS_NIFF_REF_VTX].group[0], ==, vtx_group);
          g_assert_cmpuint (scene->tri_groups[g].n_tris, ==, niff_be32 (d + tg + 28));
          g_assert_cmpuint (scene->vtx[vtx_group].n, ==, n_vtx);
          for (guint32 k = 0; k < 3 * n_vtx; k++)
            g_assert_cmpfloat (scene->vtx[vtx_group].v[k], ==, niff_bef (d + vg + 24 + 4 * k));
          for (guint32 i = 0; i < niff_be32 (d + tg + 28); i++)
            {
              g_assert_cmphex (niff_be32 (d + t), ==, 0x00080101);
              for (guint c = 0; c < 3; c++)
                {
                  guint32 v = niff_be32 (d + t + 20 + 16 * c);
                  g_assert_cmpuint (v, <, n_vtx);
                  g_assert_cmpuint (scene->tri_groups[g].tris[i].vtx[c], ==, v);
                  checked++;
                }
              t += niff_be32 (d + t + 8);
            }
          g_assert_cmpuint (t, ==, tg + niff_be32 (d + tg + 12));
        }
      /* Envelope triangles: inside the groups of the parts they name. */
      for (guint32 e = 0; e < scene->n_envelopes; e++)
        {
          const TressNiffEnvelope *env = &scene->envelopes[e];
          for (guint32 i = 0; i < env->n_tris; i++)
            for (guint c = 0; c < 3; c++)
              {
                const TressNiffEnvelopeVtx *v = &env->tris[i].v[c];
                if (v->part_kind == TRESS_NIFF_TAG_FULL_WEIGHTED_PART)
                  g_assert_cmpuint (v->vtx, <, scene->vtx[env->full[v->part].vtx].n);
                else
                  for (guint32 k = 0; k < env->weighted[v->part].n_nodes; k++)
                    g_assert_cmpuint (v->vtx, <, scene->vtx[env->weighted[v->part].vtx[k]].n);
                checked++;
              }
        }
      fmt->free (file);
    }
  /* 3hedra 564, Rings 1200, cube 12, dragon 412, kirikobu 236, yellow 12 triangles */
  g_assert_cmpuint (checked, ==, 3 * (564 + 1200 + 12 + 412 + 236 + 12));
}

/* blend2niff-cube stores vertex indices as vertex colour indices (its
 * VtxColorGroup holds one colour): the reader drops them and says so. */
static void
test_blend2niff_note (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/blend2niff-cube.nif");
  g_autoptr (TressNiffScene) scene = NULL;
  TressNiffFile *file;

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  scene = scene_ok (file);
  g_assert_cmpuint (scene->notes->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (scene->notes, 0), "vtx_color_index1"));
  for (guint32 i = 0; i < scene->tri_groups[0].n_tris; i++)
    for (guint c = 0; c < 3; c++)
      {
        guint32 vc = scene->tri_groups[0].tris[i].vtx_color[c];
        g_assert_true (vc == 0 || vc == TRESS_NIFF_NONE);
      }
  /* The second Part is blue.mat, the first red.mat; the shape's own is the default. */
  g_assert_cmpuint (tress_niff_scene_tri_mat (scene, 0, 0, 0), ==, 1);
  g_assert_cmpuint (tress_niff_scene_tri_mat (scene, 0, 0, 7), ==, 2);
  g_assert_cmpstr (scene->mats[2].name, ==, "blue.mat");
  fmt->free (file);
}

static void
test_hierarchy (void)
{
  {
    g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/Rings.niff");
    g_autoptr (TressNiffScene) scene = NULL;
    TressNiffFile *file;
    guint32 up, pos, root;

    if (bytes == NULL)
      return;
    file = niff_parse_ok (bytes);
    scene = scene_ok (file);
    up = find_object (scene, "Camera_up");
    pos = find_object (scene, "Camera_pos");
    root = find_object (scene, "NIFF_Scene_Root");
    /* Camera_up is a child link of Camera_pos, though its parent link is empty. */
    g_assert_cmphex (scene->objects[up].parent_link, ==, TRESS_NIFF_NONE);
    g_assert_cmpuint (scene->objects[up].parent, ==, pos);
    g_assert_cmpuint (scene->objects[pos].parent, ==, root);
    g_assert_cmpuint (scene->objects[root].parent, ==, TRESS_NIFF_NONE);
    g_assert_cmpuint (scene->n_roots, ==, 1);
    g_assert_cmpuint (scene->roots[0], ==, root);
    /* The Cam's look-at, eye and up objects. */
    g_assert_cmpuint (scene->n_cameras, ==, 1);
    g_assert_true (scene->objects[up].camera && scene->objects[pos].camera);
    g_assert_true (scene->objects[find_object (scene, "Camera_int")].camera);
    g_assert_false (scene->objects[root].camera || scene->objects[1].camera);
    /* Sweep15_3's Parts: Part_1 (mat1) from triangle 100, Part_2 (mat3) from 300. */
    g_assert_cmpuint (tress_niff_scene_tri_mat (scene, 1, 0, 0), ==, 0);
    g_assert_cmpuint (tress_niff_scene_tri_mat (scene, 1, 0, 150), ==, 1);
    g_assert_cmpuint (tress_niff_scene_tri_mat (scene, 1, 0, 350), ==, 2);
    fmt->free (file);
  }
  {
    g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/dragon.nif");
    g_autoptr (TressNiffScene) scene = NULL;
    TressNiffFile *file;

    if (bytes == NULL)
      return;
    file = niff_parse_ok (bytes);
    scene = scene_ok (file);
    for (guint32 i = 0; i < scene->n_objects; i++)
      g_assert_cmphex (scene->objects[i].parent, ==, scene->objects[i].parent_link);
    g_assert_cmpuint (scene->objects[find_object (scene, "head")].parent, ==,
                      find_object (scene, "head_Group"));
    /* NIFF1: the material the body's three Parts give, and none for the rest. */
    g_assert_false (scene->mats[0].has_ext);
    g_assert_cmpstr (scene->mats[0].name, ==, "body");
    fmt->free (file);
  }
}

/* kirikobu's skin: three full-weighted parts (null1, jnt11_1, jnt11_2) and one
 * weighted part whose three weights per vertex are percentages. */
static void
test_kirikobu_envelope (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/kirikobu.niff");
  g_autoptr (TressNiffScene) scene = NULL;
  const TressNiffEnvelope *env;
  const TressNiffWeightedPart *w;
  TressNiffFile *file;

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  scene = scene_ok (file);
  g_assert_cmpuint (scene->shapes[0].geometry_kind, ==, TRESS_NIFF_TAG_ENVELOPE);
  g_assert_cmpuint (scene->n_envelopes, ==, 1);
  env = &scene->envelopes[0];
  g_assert_cmpuint (env->n_full, ==, 3);
  g_assert_cmpuint (env->full[0].node.kind, ==, TRESS_NIFF_TAG_OBJ_LIST);
  g_assert_cmpstr (scene->objects[env->full[0].node.index].name, ==, "null1");
  g_assert_cmpuint (env->full[1].node.kind, ==, TRESS_NIFF_TAG_JOINT_LIST);
  g_assert_cmpstr (scene->joints[env->full[1].node.index].name, ==, "jnt11_1");
  g_assert_cmpuint (env->n_weighted, ==, 1);
  w = &env->weighted[0];
  g_assert_cmpuint (w->n_nodes, ==, 3);
  /* All but vertex 18 (60 + 37.435: the file's own rounding) add up to 100. */
  g_assert_cmpuint (scene->weights[w->weight_group[0]].n, ==, 43);
  for (guint32 v = 0; v < scene->weights[w->weight_group[0]].n; v++)
    {
      double sum = 0;
      for (guint32 k = 0; k < w->n_nodes; k++)
        sum += scene->weights[w->weight_group[k]].v[v];
      g_assert_cmpfloat_with_epsilon (sum, v == 18 ? 97.435 : 100.0, 0.01);
    }
  /* The IK chain hangs below null1: ChainRoot → jnt11_1 → jnt11_2 → eff11. */
  g_assert_cmpuint (scene->objects[find_object (scene, "null1")].n_chain_roots, ==, 1);
  g_assert_cmpuint (scene->chain_roots[0].joint, ==, 0);
  g_assert_cmpuint (scene->joints[0].joint, ==, 1);
  g_assert_cmpuint (scene->joints[1].effector, ==, 0);
  g_assert_cmphex (scene->joints[1].type, ==, 0x10001);
  g_assert_cmpfloat_with_epsilon (scene->joints[0].length, 1.908, 1e-3);
  fmt->free (file);
}

/* Raw offsets in an Envelope (element @env): its first WeightedPart (after
 * the FullWeightedParts) and its first EnvelopeTri (after all the parts). */
static void
raw_envelope_parts (const guint8 *d, gsize env, gsize *weighted, gsize *tris)
{
  guint32 n_full = niff_be32 (d + env + 20);
  guint32 n_parts = n_full + niff_be32 (d + env + 24) + niff_be32 (d + env + 28);
  gsize at = env + 44;

  for (guint32 k = 0; k < n_parts; k++)
    {
      if (k == n_full)
        *weighted = at;
      at += niff_be32 (d + at + 8);
    }
  *tris = at;
}

/* Every field of every EnvelopeTri is the word the file holds there
 * (116-byte triangles: part kind and index, TriNv, TriColor and weight
 * indices, then three vertices of seven words). */
static void
test_kirikobu_envelope_tris (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/kirikobu.niff");
  g_autoptr (TressNiffScene) scene = NULL;
  const TressNiffEnvelope *env;
  const guint8 *d;
  gsize size, raw, wp = 0, t;
  guint coloured = 0;
  TressNiffFile *file;

  if (bytes == NULL)
    return;
  d = g_bytes_get_data (bytes, &size);
  raw = niff_raw_element (d, niff_raw_find_list (d, size, 0x00220000), 0);
  raw_envelope_parts (d, raw, &wp, &t);
  file = niff_parse_ok (bytes);
  scene = scene_ok (file);
  env = &scene->envelopes[0];
  g_assert_cmpuint (env->n_tris, ==, 236);
  for (guint32 i = 0; i < env->n_tris; i++)
    {
      const TressNiffEnvelopeTri *tri = &env->tris[i];

      g_assert_cmphex (niff_be32 (d + t), ==, 0x00220180);
      g_assert_cmphex (tri->part_kind, ==, niff_be32 (d + t + 12));
      g_assert_cmpuint (tri->part, ==, niff_be32 (d + t + 16));
      g_assert_cmpuint (tri->tri_nv, ==, niff_be32 (d + t + 20));
      g_assert_cmpuint (tri->tri_color, ==, niff_be32 (d + t + 24));
      g_assert_cmpuint (tri->weight, ==, niff_be32 (d + t + 28));
      coloured += tri->tri_color != 0;
      for (guint c = 0; c < 3; c++)
        {
          const TressNiffEnvelopeVtx *v = &tri->v[c];
          const guint8 *w = d + t + 32 + 28 * c;

          g_assert_cmphex (v->part_kind, ==, niff_be32 (w));
          g_assert_cmpuint (v->part, ==, niff_be32 (w + 4));
          g_assert_cmpuint (v->vtx, ==, niff_be32 (w + 8));
          g_assert_cmpuint (v->st, ==, niff_be32 (w + 12));
          g_assert_cmpuint (v->vtx_nv, ==, niff_be32 (w + 16));
          g_assert_cmpuint (v->vtx_color, ==, niff_be32 (w + 20));
          g_assert_cmpuint (v->weight, ==, niff_be32 (w + 24));
        }
      t += niff_be32 (d + t + 8);
    }
  /* The triangles use more than their groups' first colour. */
  g_assert_cmpuint (coloured, >, 0);
  fmt->free (file);
}

/* ---- built files ---- */

static GBytes *
build_tet (gboolean niff2)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (niff2, 0);
  const float xyz[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1 };
  const guint32 tris[] = { 0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3 };
  const float orange[4] = { 1, 0.5f, 0, 1 };
  const float grey[4] = { 0.5f, 0.5f, 0.5f, 1 };
  const float trs[9] = { 1, 2, 3, 0, 0, 0, 1, 1, 1 };
  g_autoptr (GError) error = NULL;
  guint root, tet, tip, g;
  GBytes *bytes;

  tress_niff_builder_add_name (b, "tet scene");
  g = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "root.anim"),
                                    TRESS_NIFF_ANIM_STATIC, 30, 0);
  tress_niff_builder_add_static (b, g, trs);
  root = tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "root"), g);
  tet = tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "tet"), TRESS_NIFF_NONE);
  tip = tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "tip"), TRESS_NIFF_NONE);
  tress_niff_builder_set_parent (b, tet, root);
  tress_niff_builder_set_parent (b, tip, tet);
  tress_niff_builder_add_shape (b, tet, tress_niff_builder_add_name (b, "tet.shape"), xyz, 4, tris,
                                4, orange, TRUE);
  tress_niff_builder_add_shape (b, tip, tress_niff_builder_add_name (b, "tip.shape"), xyz, 4, tris,
                                1, grey, FALSE);
  bytes = tress_niff_builder_finish (b, &error);
  g_assert_no_error (error);
  return bytes;
}

static void
test_builder_scene (void)
{
  for (int niff2 = 0; niff2 <= 1; niff2++)
    {
      g_autoptr (GBytes) bytes = build_tet (niff2);
      g_autoptr (TressNiffScene) scene = NULL;
      g_autoptr (GPtrArray) problems = NULL;
      TressNiffFile *file = niff_parse_ok (bytes);
      const TressNiffMat *m;

      problems = fmt->validate (file);
      g_assert_cmpuint (problems->len, ==, 0);
      scene = scene_ok (file);
      g_assert_cmpstr (scene->name, ==, "tet scene");
      g_assert_cmpuint (scene->n_objects, ==, 3);
      g_assert_cmpuint (scene->n_roots, ==, 1);
      g_assert_cmpuint (scene->objects[2].parent, ==, 1);
      g_assert_cmpuint (scene->objects[1].parent, ==, 0);
      g_assert_cmpuint (scene->objects[0].anim_group, ==, 0);
      g_assert_cmpuint (scene->objects[1].type, ==, TRESS_NIFF_OBJ_3D);
      g_assert_cmpuint (scene->n_shapes, ==, 2);
      g_assert_cmpuint (scene->shapes[1].geometry, ==, 1);
      g_assert_cmpuint (scene->tri_groups[0].n_tris, ==, 4);
      g_assert_cmpuint (scene->tri_groups[1].n_tris, ==, 1);
      g_assert_cmpuint (scene->tri_groups[0].tris[3].vtx[2], ==, 3);
      g_assert_cmpfloat (scene->vtx[0].v[9 + 2], ==, 1);
      /* The face normal of (0, 2, 1) is −Z; vertex 3's normal is the sum of its faces'. */
      g_assert_cmpfloat (scene->tri_nvs[0].v[2], ==, -1);
      g_assert_cmpfloat_with_epsilon (scene->vtx_nvs[0].v[9 + 0], -0.5086, 1e-4);
      g_assert_cmpfloat_with_epsilon (scene->vtx_nvs[0].v[9 + 2], 0.6947, 1e-4);
      g_assert_cmpuint (scene->notes->len, ==, 0);
      m = &scene->mats[tress_niff_scene_tri_mat (scene, 1, 0, 0)];
      g_assert_cmpfloat (m->prim[1], ==, 0.5f);
      g_assert_cmphex (m->shade, ==, 0x12);
      g_assert_cmphex (scene->mats[1].shade, ==, 0x02);
      g_assert_cmpint (m->has_ext, ==, niff2);
      if (niff2)
        g_assert_cmpfloat (m->diffuse[0], ==, 1);
      fmt->free (file);
    }
}

/* tress-cli info's scene lines: an envelope shape's vertices are those of its
 * full-weighted parts' VtxGroups (kirikobu: 68, 0 and 6) and of each weighted
 * part's first one (43); a file without a TexList or ClusterList (NIFF1 has no
 * ClusterList) leaves nothing unread. */
static void
test_describe (void)
{
  {
    g_autoptr (GBytes) bytes = build_tet (FALSE);
    g_autoptr (TressNiffScene) scene = NULL;
    g_autoptr (GString) out = g_string_new (NULL);
    TressNiffFile *file = niff_parse_ok (bytes);

    scene = scene_ok (file);
    tress_niff_scene_describe (scene, out);
    g_test_message ("%s", out->str);
    g_assert_nonnull (strstr (out->str, "scene tet scene: 3 objects, 2 shapes (5 triangles, 8 "
                                        "vertices), 2 materials, 0 parts\n"));
    g_assert_nonnull (strstr (out->str,
                              "object 2 tip: 3D, child of tet, shape tip.shape (TriGroup, 1 "
                              "triangles, 4 vertices)\n"));
    g_assert_null (strstr (out->str, "not read"));
    g_assert_cmpuint (scene->n_cluster_shapes, ==, 0);
    g_assert_cmpuint (scene->n_textures, ==, 0);
    fmt->free (file);
  }
  {
    g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/kirikobu.niff");
    g_autoptr (TressNiffScene) scene = NULL;
    g_autoptr (GString) out = g_string_new (NULL);
    TressNiffFile *file;

    if (bytes == NULL)
      return;
    file = niff_parse_ok (bytes);
    scene = scene_ok (file);
    tress_niff_scene_describe (scene, out);
    g_assert_nonnull (strstr (out->str, "scene 018: 7 objects, 1 shapes (236 triangles, 117 "
                                        "vertices), 4 materials, 4 parts\n"));
    g_assert_nonnull (strstr (out->str, "object 2 kirikabu_1: 3D, child of NIFF_Scene_Root, shape "
                                        "kirikabu_1_AnimatedShape (Envelope, 236 triangles, 117 "
                                        "vertices), AnimGroup 1\n"));
    g_assert_nonnull (strstr (out->str, "not read: 2 textures, 0 cluster shapes\n"));
    fmt->free (file);
  }
}

/* tress-cli dump's TriGroups: all six reference tables, each the group the
 * file names (a one-word table without shape animation, at +32 … +52). */
static void
test_dump_references (void)
{
  static const char *const keys[] = { "vtx", "tri_color", "vtx_color", "tri_nv", "vtx_nv", "st" };
  g_autoptr (GBytes) bytes = build_tet (TRUE);
  g_autoptr (TressNiffScene) scene = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GBytes) text = NULL;
  g_autoptr (GError) error = NULL;
  TressNiffFile *file = niff_parse_ok (bytes);
  TressJsonWriter *w = tress_json_writer_new ();
  const guint8 *d = g_bytes_get_data (bytes, NULL);
  gsize tri = niff_raw_find_list (d, g_bytes_get_size (bytes), 0x00080000);
  JsonArray *tgs;

  scene = scene_ok (file);
  tress_niff_scene_dump (scene, w);
  text = tress_json_writer_free_to_bytes (w);
  g_assert_true (json_parser_load_from_data (parser, g_bytes_get_data (text, NULL),
                                             (gssize)g_bytes_get_size (text), &error));
  g_assert_no_error (error);
  tgs = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                      "tri_groups");
  g_assert_cmpuint (json_array_get_length (tgs), ==, 2);
  for (guint g = 0; g < 2; g++)
    {
      JsonObject *refs
          = json_object_get_object_member (json_array_get_object_element (tgs, g), "references");
      gsize tg = niff_raw_element (d, tri, g);

      g_assert_cmpuint (json_object_get_size (refs), ==, G_N_ELEMENTS (keys));
      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        {
          JsonArray *groups = json_object_get_array_member (
              json_object_get_object_member (refs, keys[k]), "groups");
          guint32 raw = niff_be32 (d + tg + 32 + 4 * k);

          g_test_message ("TriGroup %u %s: 0x%08x", g, keys[k], raw);
          g_assert_cmpuint (json_array_get_length (groups), ==, 1);
          if (raw == TRESS_NIFF_NONE)
            g_assert_true (json_array_get_null_element (groups, 0));
          else
            g_assert_cmpint (json_array_get_int_element (groups, 0), ==, raw);
        }
    }
  fmt->free (file);
}

/* ---- bad input ---- */

static TressNiffScene *
scene_of (GBytes *bytes, GError **error)
{
  TressNiffFile *file = fmt->parse (bytes, "bad", NULL);
  TressNiffScene *scene;

  if (file == NULL)
    return NULL;
  scene = tress_niff_scene_new (file, error);
  fmt->free (file);
  return scene;
}

/* @bytes with list @list cut to @cut bytes, every size fixed up so the file
 * still walks: the list's own size, the header's field for it, the file size. */
static GBytes *
cut_list (GBytes *bytes, gsize list, guint header_field, gsize cut)
{
  gsize size = 0;
  const guint8 *d = g_bytes_get_data (bytes, &size);
  gsize old = niff_be32 (d + list + 8);
  guint8 *out = g_malloc (size - (old - cut));

  memcpy (out, d, list + cut);
  memcpy (out + list + cut, d + list + old, size - (list + old));
  niff_put32 (out + list + 8, (guint32)cut);
  niff_put32 (out + header_field, (guint32)cut);
  niff_put32 (out + 4, (guint32)(size - (old - cut)));
  return g_bytes_new_take (out, size - (old - cut));
}

static const struct
{
  guint32 tag;
  guint header_field;
} scene_lists[] = {
  { 0x00010000, 0x10 }, { 0x00030000, 0x24 }, { 0x00040000, 0x28 }, { 0x00050000, 0x2c },
  { 0x00060000, 0x30 }, { 0x00070000, 0x34 }, { 0x00080000, 0x38 }, { 0x00090000, 0x3c },
  { 0x000a0000, 0x40 }, { 0x00220000, 0x6c }, { 0x00230000, 0x74 }, { 0x00240000, 0x78 },
  { 0x00250000, 0x7c }, { 0x00260000, 0x80 },
};

/* Every scene list of the samples cut short at every word (every 16th in the
 * long ones): an error naming a field and an offset, never a crash. */
static void
test_bad_truncations (void)
{
  const char *const which[]
      = { "niff/Rings.niff", "niff/kirikobu.niff", "niff/dragon.nif", "niff/blend2niff-cube.nif" };
  guint errors = 0;

  for (guint s = 0; s < G_N_ELEMENTS (which); s++)
    {
      g_autoptr (GBytes) bytes = tress_test_load_sample (which[s]);
      const guint8 *d;
      gsize size;

      if (bytes == NULL)
        return;
      d = g_bytes_get_data (bytes, &size);
      for (guint l = 0; l < G_N_ELEMENTS (scene_lists); l++)
        {
          gsize list = niff_raw_find_list (d, size, scene_lists[l].tag);
          gsize lsize, step;

          if (list == 0 || (scene_lists[l].header_field >= niff_be32 (d + 12)))
            continue;
          lsize = niff_be32 (d + list + 8);
          step = lsize > 4096 ? 64 : 4;
          for (gsize cut = 24; cut < lsize; cut += step)
            {
              g_autoptr (GBytes) bad = cut_list (bytes, list, scene_lists[l].header_field, cut);
              g_autoptr (GError) error = NULL;
              g_autoptr (TressNiffScene) scene = scene_of (bad, &error);

              /* A cut that leaves whole elements and only drops extension
               * blocks may read: then it must not read a dropped element. */
              if (scene != NULL)
                continue;
              if (error == NULL)
                continue; /* the file itself was refused */
              g_assert_true (error->domain == TRESS_ERROR);
              g_assert_nonnull (strstr (error->message, " at offset 0x"));
              errors++;
            }
        }
    }
  g_test_message ("%u truncations refused", errors);
  g_assert_cmpuint (errors, >, 1000);
}

static GBytes *
patched (GBytes *bytes, gsize at, guint32 value)
{
  gsize size = 0;
  guint8 *out = g_memdup2 (g_bytes_get_data (bytes, &size), g_bytes_get_size (bytes));

  niff_put32 (out + at, value);
  return g_bytes_new_take (out, size);
}

static void
expect_scene_error (GBytes *bytes, const char *words)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TressNiffScene) scene = scene_of (bytes, &error);

  g_assert_null (scene);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  if (words != NULL && strstr (error->message, words) == NULL)
    g_error ("expected \"%s\" in: %s", words, error->message);
}

/* Fields broken one at a time in a built file: each error names its field. */
static void
test_bad_corruptions (void)
{
  g_autoptr (GBytes) bytes = build_tet (TRUE);
  const guint8 *d = g_bytes_get_data (bytes, NULL);
  gsize size = g_bytes_get_size (bytes);
  gsize obj = niff_raw_find_list (d, size, 0x00020000);
  gsize shape = niff_raw_find_list (d, size, 0x00030000);
  gsize vtx = niff_raw_find_list (d, size, 0x00040000);
  gsize tri = niff_raw_find_list (d, size, 0x00080000);
  gsize mat = niff_raw_find_list (d, size, 0x000a0000);
  gsize color = niff_raw_find_list (d, size, 0x00050000);
  gsize o1 = niff_raw_element (d, obj, 1);
  gsize s0 = niff_raw_element (d, shape, 0);
  gsize v0 = niff_raw_element (d, vtx, 0);
  gsize t0 = niff_raw_element (d, tri, 0);
  gsize m0 = niff_raw_element (d, mat, 0);
  gsize tri0 = t0 + 32 + 24;
  g_autofree char *at_vtx
      = g_strdup_printf ("vtx_index1 at offset 0x%" G_GSIZE_MODIFIER "x", tri0 + 36);
  g_autofree char *at_count
      = g_strdup_printf ("VtxList element count at offset 0x%" G_GSIZE_MODIFIER "x", vtx + 12);
  const struct
  {
    gsize at;
    guint32 value;
    const char *words;
  } cases[] = {
    { o1 + 56, 0x40000000, "Obj 1 obj_lod_num and obj_child_num" },
    { o1 + 56, 2, "Obj 1 extension block sizes" },
    { o1 + 64, 7, "Obj 1 obj_shape_link" },
    { o1 + 68, 3, "Obj 1 obj_mat_link" },
    { o1 + 88, 1, "Obj 1 obj_child_link" },
    { o1 + 88, 0, "Obj 1 obj_child_link" },
    { o1 + 88, 0, "among its own ancestors" },
    { o1 + 80, 24, "Obj 1 extension block sizes" },
    { o1 + 92 + 16, 0x10000000, "Obj 1 obj_chain_root_link_num" },
    { s0, 0x00030200, "Shape 0 tag" },
    { s0 + 20, 5, "Shape 0 shape_tri_link" },
    { s0 + 28, 1, "Shape 0 extension block sizes" },
    { s0 + 28, 0x40000000, "Shape 0 shape_part_num" },
    { s0 + 40, 0x00220100, "Shape 0 shape_tri_link" },
    { s0 + 40, 0x00990100, "Shape 0 kind_of_node_for_geometry" },
    { vtx + 12, 9, "VtxList header size" },
    { vtx + 12, 0x40000000, at_count },
    { vtx + 4, 40, "VtxList header size" },
    { vtx + 8, niff_be32 (d + vtx + 8), NULL }, /* unchanged: no error expected below */
    { v0 + 20, 3, "VtxGroup 0 size" },
    { v0 + 20, 0x20000000, "VtxGroup 0 count" },
    { v0 + 8, 20, "VtxGroup 0 header size" },
    { v0 + 12, 4, "VtxGroup 0 size" },
    { color + 16, 1, "ColorList header size" },
    { t0 + 28, 0x01000000, "TriGroup 0 tri_num" },
    { t0 + 28, 3, "TriGroup 0 tri_group_size" },
    { t0 + 32, 2, "TriGroup 0 ReferenceVtxData" },
    { t0 + 20, 2, NULL }, /* VTX_KEY with no keys: the same words, no vertices */
    { t0 + 20, 3, "tri_anim_type" },
    { tri0, 0x00080102, "TriGroup 0 Tri 0 tri_tag" },
    { tri0 + 8, 72, "Tri 0 tri_size" },
    { tri0 + 8, 80, "Tri 0 extension block sizes" },
    { tri0 + 36, 4, at_vtx },
    { tri0 + 36, TRESS_NIFF_NONE, "vtx_index1" },
    { m0 + 92, 3, "Mat 0 extension block sizes" },
    { m0 + 92, 0x40000000, "Mat 0 tex_num" },
    { m0 + 96, 0, "Mat 0 extension block sizes" },
    { m0, 0, "Mat 0 tag" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GBytes) bad = patched (bytes, cases[i].at, cases[i].value);

      g_test_message ("case %u", i);
      if (cases[i].words == NULL)
        {
          g_autoptr (GError) error = NULL;
          g_autoptr (TressNiffScene) scene = scene_of (bad, &error);
          g_assert_no_error (error);
          continue;
        }
      expect_scene_error (bad, cases[i].words);
    }
  {
    /* A colour index outside its group is dropped and noted, not an error. */
    g_autoptr (GBytes) bad = patched (bytes, tri0 + 32, 9);
    g_autoptr (GError) error = NULL;
    g_autoptr (TressNiffScene) scene = scene_of (bad, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (scene->tri_groups[0].tris[0].vtx_color[0], ==, TRESS_NIFF_NONE);
    g_assert_cmpuint (scene->notes->len, ==, 1);
  }
}

/* A WeightedPart node without its WeightGroup or VtxGroup: the error names the
 * very index that is missing and its offset (kirikobu's part: 3 nodes, no
 * external ones, so the WeightGroups at +60 and the VtxGroups at +72). */
static void
test_bad_weighted_part_groups (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/kirikobu.niff");
  const guint8 *d;
  gsize size, env, wp = 0, tris;

  if (bytes == NULL)
    return;
  d = g_bytes_get_data (bytes, &size);
  env = niff_raw_element (d, niff_raw_find_list (d, size, 0x00220000), 0);
  raw_envelope_parts (d, env, &wp, &tris);
  g_assert_cmphex (niff_be32 (d + wp), ==, 0x00220120);
  g_assert_cmpuint (niff_be32 (d + wp + 16), ==, 3);
  g_assert_cmpuint (niff_be32 (d + wp + 24), ==, 0);
  {
    g_autoptr (GBytes) bad = patched (bytes, wp + 60 + 8, TRESS_NIFF_NONE);
    g_autofree char *words = g_strdup_printf (
        "Envelope 0 WeightedPart 0 weight_group_index at offset 0x%" G_GSIZE_MODIFIER
        "x: expected a WeightGroup for affected node 2",
        wp + 68);
    expect_scene_error (bad, words);
  }
  {
    g_autoptr (GBytes) bad = patched (bytes, wp + 72 + 4, TRESS_NIFF_NONE);
    g_autofree char *words = g_strdup_printf (
        "Envelope 0 WeightedPart 0 weight_vtx_group_index at offset 0x%" G_GSIZE_MODIFIER
        "x: expected a VtxGroup for affected node 1",
        wp + 76);
    expect_scene_error (bad, words);
  }
}

/* kirikobu's Envelope broken one field at a time. */
static void
test_bad_envelope (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/kirikobu.niff");
  const guint8 *d;
  gsize size, env, wp = 0, tris;

  if (bytes == NULL)
    return;
  d = g_bytes_get_data (bytes, &size);
  env = niff_raw_element (d, niff_raw_find_list (d, size, 0x00220000), 0);
  raw_envelope_parts (d, env, &wp, &tris);
  {
    /* Parts are at least 36 bytes after the 44-byte header: as many as the
     * whole element would hold are one too many (n_full 769 with the weighted
     * part: 770 of 36 bytes in 27,744 − 44). */
    guint32 n_parts = niff_be32 (d + env + 8) / 36;
    g_autoptr (GBytes) bad
        = patched (bytes, env + 20, n_parts - niff_be32 (d + env + 24) - niff_be32 (d + env + 28));
    g_autofree char *words = g_strdup_printf (
        "Envelope 0 part and triangle counts at offset 0x%" G_GSIZE_MODIFIER "x", env + 20);

    g_assert_cmpuint (n_parts, >, (niff_be32 (d + env + 8) - 44) / 36);
    expect_scene_error (bad, words);
  }
  {
    /* Triangle 0's second vertex names no vertex of its weighted part (43). */
    g_autoptr (GBytes) bad = patched (bytes, tris + 32 + 28 + 8, TRESS_NIFF_NONE);
    g_autofree char *words = g_strdup_printf (
        "Envelope 0 EnvelopeTri 0 vtx_index at offset 0x%" G_GSIZE_MODIFIER
        "x: expected an index below 43 (the vertices of its part), found 4294967295",
        tris + 68);

    g_assert_cmphex (niff_be32 (d + tris + 60), ==, 0x00220120);
    expect_scene_error (bad, words);
  }
}

/* A Part's triangle index outside its TriGroup (blend2niff-cube's Part 0
 * names TriGroup 0, 12 triangles). */
static void
test_bad_part_tri (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/blend2niff-cube.nif");
  g_autoptr (GBytes) bad = NULL;
  g_autofree char *words = NULL;
  const guint8 *d;
  gsize size, part;

  if (bytes == NULL)
    return;
  d = g_bytes_get_data (bytes, &size);
  part = niff_raw_element (d, niff_raw_find_list (d, size, 0x00090000), 0);
  g_assert_cmpuint (niff_be32 (d + part + 20), ==, 0);
  g_assert_cmpuint (niff_be32 (d + part + 24), >, 0);
  bad = patched (bytes, part + 36, 12);
  words = g_strdup_printf ("Part 0 tri_index at offset 0x%" G_GSIZE_MODIFIER
                           "x: expected an index below 12 (the triangles of its TriGroup)",
                           part + 36);
  expect_scene_error (bad, words);
}

/* Random words of the scene lists overwritten (fixed seeds): reads or errors, never crashes. */
static void
test_bad_random (void)
{
  const char *const which[] = { "niff/kirikobu.niff", "niff/Rings.niff", "niff/dragon.nif" };
  static const guint32 values[] = { 0, 1, 2, 3, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 24, 1000 };

  for (guint s = 0; s < G_N_ELEMENTS (which); s++)
    {
      g_autoptr (GBytes) bytes = tress_test_load_sample (which[s]);
      g_autoptr (GRand) rand = g_rand_new_with_seed (s + 1);
      const guint8 *d;
      gsize size, first, last;
      guint refused = 0;

      if (bytes == NULL)
        return;
      d = g_bytes_get_data (bytes, &size);
      /* From the Obj list to the end of the Mat list, and the NIFF2 lists after the names. */
      first = niff_raw_find_list (d, size, 0x00020000);
      last = niff_raw_find_list (d, size, 0x000b0000);
      for (guint i = 0; i < 600; i++)
        {
          gsize at = first + 4 * g_rand_int_range (rand, 0, (gint32)((last - first) / 4));
          g_autoptr (GBytes) bad
              = patched (bytes, at, values[g_rand_int_range (rand, 0, G_N_ELEMENTS (values))]);
          g_autoptr (GError) error = NULL;
          g_autoptr (TressNiffScene) scene = scene_of (bad, &error);

          if (scene == NULL && error != NULL)
            {
              g_assert_nonnull (strstr (error->message, " at offset 0x"));
              refused++;
            }
        }
      g_test_message ("%s: %u of 600 refused", which[s], refused);
      g_assert_cmpuint (refused, >, 0);
    }
}

/* ---- tress-cli ---- */

static void
test_cli (void)
{
  g_autofree char *path = tress_test_sample_path ("niff/Rings.niff");
  g_autofree char *out = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *scene, *tg0;

  if (path == NULL)
    return;
  {
    const char *argv[] = { "info", path, NULL };
    g_assert_cmpint (tress_test_run_cli (argv, &out, NULL), ==, 0);
    g_assert_nonnull (strstr (out, "scene Braid001: 7 objects, 3 shapes (1200 triangles, 800 "
                                   "vertices), 5 materials, 2 parts"));
    g_assert_nonnull (strstr (out, "object 4 Camera_up: null, child of Camera_pos, AnimGroup 5"));
    g_clear_pointer (&out, g_free);
  }
  {
    const char *argv[] = { "dump", path, NULL };
    g_assert_cmpint (tress_test_run_cli (argv, &out, NULL), ==, 0);
    g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
    g_assert_no_error (error);
    scene = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                           "scene");
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (scene, "objects")), ==,
                      7);
    tg0 = json_array_get_object_element (json_object_get_array_member (scene, "tri_groups"), 0);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (tg0, "tris")), ==, 400);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/niff-scene/samples/read", test_samples_read);
  g_test_add_func ("/niff-scene/samples/tri-indices", test_samples_tri_indices);
  g_test_add_func ("/niff-scene/samples/blend2niff-note", test_blend2niff_note);
  g_test_add_func ("/niff-scene/samples/hierarchy", test_hierarchy);
  g_test_add_func ("/niff-scene/samples/kirikobu-envelope", test_kirikobu_envelope);
  g_test_add_func ("/niff-scene/samples/kirikobu-envelope-tris", test_kirikobu_envelope_tris);
  g_test_add_func ("/niff-scene/builder", test_builder_scene);
  g_test_add_func ("/niff-scene/describe", test_describe);
  g_test_add_func ("/niff-scene/dump-references", test_dump_references);
  g_test_add_func ("/niff-scene/bad/truncations", test_bad_truncations);
  g_test_add_func ("/niff-scene/bad/corruptions", test_bad_corruptions);
  g_test_add_func ("/niff-scene/bad/weighted-part-groups", test_bad_weighted_part_groups);
  g_test_add_func ("/niff-scene/bad/envelope", test_bad_envelope);
  g_test_add_func ("/niff-scene/bad/part-tri", test_bad_part_tri);
  g_test_add_func ("/niff-scene/bad/random", test_bad_random);
  g_test_add_func ("/niff-scene/cli", test_cli);
  return g_test_run ();
}
