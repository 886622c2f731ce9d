/* test-bfres-model.c: models, skeletons, shapes and poses of BFRES files
 *
 * On the shared samples: both models of Animal_Bass.bfres read with counts
 * that agree with their headers, the bind check holds on every bone, the pose
 * of Skl_Root and Spine_1 at three frames of "Jump" equals a computation done
 * here by hand, the animation file finds its model, and every truncation and
 * a set of corruptions give errors, not crashes. On built files (no samples
 * needed): the builder's models read back and pose as their curves say.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "bfres-test-common.h"
#include "core/tress-yaz0.h"
#include "formats/bfres/tress-bfres-anim.h"
#include "formats/bfres/tress-bfres-builder.h"
#include "formats/bfres/tress-bfres-pose.h"
#include "formats/bfres/tress-bfres-scene.h"
#include "formats/tress-problem.h"
#include "tress-test-utils.h"

static TressBfresModels *
load_models (const char *rel, GBytes **bytes_out)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample (rel);
  g_autoptr (GError) error = NULL;
  TressBfresModels *models;
  gsize size;
  const guint8 *d;

  if (bytes == NULL)
    return NULL;
  d = g_bytes_get_data (bytes, &size);
  models = tress_bfres_models_parse (d, size, &error);
  g_assert_no_error (error);
  g_assert_nonnull (models);
  if (bytes_out != NULL)
    *bytes_out = g_steal_pointer (&bytes);
  return models;
}

/* Counts agree with the headers and with each other: vertex buffers hold
 * their vertices, index counts are the sub-meshes' totals, every index lands
 * in its vertex buffer, weights sum to one, skinning names real matrices. */
static void
check_model_counts (const TressBfresModel *m)
{
  const TressBfresSkeleton *sk = &m->skeleton;

  for (guint i = 0; i < m->n_vertex_buffers; i++)
    {
      const TressBfresVertexBuffer *vb = &m->vertex_buffers[i];

      for (guint b = 0; b < vb->n_buffers; b++)
        g_assert_cmpuint (vb->buffers[b].size, ==, vb->n_vertices * vb->buffers[b].stride);
      for (guint v = 0; v < 3 * vb->n_vertices; v++)
        g_assert_true (isfinite (vb->positions[v]));
    }
  for (guint i = 0; i < m->n_shapes; i++)
    {
      const TressBfresShape *s = &m->shapes[i];
      const TressBfresVertexBuffer *vb = &m->vertex_buffers[s->vertex_buffer];
      guint used_lo = G_MAXUINT, used_hi = 0;

      g_assert_cmpuint (s->index, ==, i);
      for (guint l = 0; l < s->n_meshes; l++)
        {
          const TressBfresMesh *mesh = &s->meshes[l];
          guint sub_total = 0;

          for (guint k = 0; k < mesh->n_submeshes; k++)
            sub_total += mesh->submeshes[k].count;
          g_assert_cmpuint (sub_total, ==, mesh->n_indices);
          g_assert_cmpuint (mesh->primitive, ==, TRESS_GX2_PRIMITIVE_TRIANGLES);
          g_assert_cmpuint (3 * mesh->n_triangles, ==, mesh->n_indices);
          g_assert_cmpuint (mesh->index_buffer.size, >=, 2 * mesh->n_indices);
          for (guint k = 0; k < 3 * mesh->n_triangles; k++)
            {
              g_assert_cmpuint (mesh->triangles[k], <, vb->n_vertices);
              g_assert_cmpuint (mesh->triangles[k], >=, mesh->first_vertex);
              used_lo = MIN (used_lo, mesh->triangles[k]);
              used_hi = MAX (used_hi, mesh->triangles[k]);
            }
        }
      /* The levels of detail use the whole vertex buffer between them. */
      g_assert_cmpuint (used_lo, ==, 0);
      g_assert_cmpuint (used_hi, ==, vb->n_vertices - 1);
      if (s->skin_count >= 2)
        for (guint v = 0; v < vb->n_vertices; v++)
          {
            float sum = 0;

            for (guint k = 0; k < 4; k++)
              {
                sum += vb->skin_weights[4 * v + k];
                if (vb->skin_weights[4 * v + k] > 0)
                  g_assert_cmpuint (vb->skin_indices[4 * v + k], <, sk->n_smooth + sk->n_rigid);
              }
            g_assert_cmpfloat_with_epsilon (sum, 1, 1e-6);
          }
    }
}

static void
test_samples (void)
{
  g_autoptr (TressBfresModels) models = load_models ("bfres/Animal_Bass.bfres", NULL);
  const TressBfresModel *bass, *boneless;
  static const char *const bones[]
      = { "Root", "Skl_Root", "Head", "Spine_1", "Spine_2", "Spine_3" };
  static const int parents[] = { -1, 0, 1, 1, 3, 4 };

  if (models == NULL)
    return;
  g_assert_cmpuint (models->version, ==, 0x04050003);
  g_assert_cmpuint (models->n_models, ==, 2);
  bass = tress_bfres_models_find (models, "Bass");
  boneless = tress_bfres_models_find (models, "Bass_Boneless");
  g_assert_nonnull (bass);
  g_assert_nonnull (boneless);

  g_assert_cmpuint (bass->skeleton.n_bones, ==, 6);
  for (guint i = 0; i < 6; i++)
    {
      g_assert_cmpstr (bass->skeleton.bones[i].name, ==, bones[i]);
      g_assert_cmpint (bass->skeleton.bones[i].parent, ==, parents[i]);
    }
  g_assert_cmpint (bass->skeleton.scaling, ==, TRESS_BFRES_SCALING_MAYA);
  g_assert_cmpint (bass->skeleton.rotation_mode, ==, TRESS_BFRES_ROTATION_EULER_XYZ);
  g_assert_cmpuint (bass->skeleton.n_smooth, ==, 4);
  g_assert_cmpuint (bass->skeleton.n_rigid, ==, 0);
  /* FMDL counts. */
  g_assert_cmpuint (bass->n_vertex_buffers, ==, 2);
  g_assert_cmpuint (bass->n_shapes, ==, 2);
  g_assert_cmpuint (bass->n_materials, ==, 2);
  g_assert_cmpstr (bass->materials[0], ==, "Mt_Body");
  g_assert_cmpstr (bass->materials[1], ==, "Mt_Eye");
  g_assert_cmpuint (bass->total_vertices, ==, 583);
  g_assert_cmpuint (bass->vertex_buffers[0].n_vertices, ==, 479);
  g_assert_cmpuint (bass->vertex_buffers[1].n_vertices, ==, 36);
  /* Shapes: smooth skinning with two influences, two levels of detail. */
  g_assert_cmpstr (bass->shapes[0].name, ==, "Model__Mt_Body");
  g_assert_cmpuint (bass->shapes[0].skin_count, ==, 2);
  g_assert_cmpuint (bass->shapes[0].n_meshes, ==, 2);
  g_assert_cmpuint (bass->shapes[0].meshes[0].n_indices, ==, 1230);
  g_assert_cmpuint (bass->shapes[0].meshes[1].n_indices, ==, 270);
  g_assert_cmpuint (bass->shapes[0].meshes[1].first_vertex, ==, 358);
  g_assert_cmpuint (bass->shapes[1].meshes[0].n_indices, ==, 48);
  g_assert_cmpuint (bass->shapes[1].n_skin_bones, ==, 1);
  g_assert_cmpuint (bass->shapes[1].skin_bones[0], ==, 2); /* the eyes follow the head */
  check_model_counts (bass);
  /* Texture coordinates (_u0, decoded for the glTF export) lie on the texture. */
  for (guint b = 0; b < bass->n_vertex_buffers; b++)
    {
      const TressBfresVertexBuffer *vb = &bass->vertex_buffers[b];

      g_assert_nonnull (vb->uvs);
      for (guint v = 0; v < 2 * vb->n_vertices; v++)
        g_assert_true (vb->uvs[v] >= 0 && vb->uvs[v] <= 1);
    }

  g_assert_cmpuint (boneless->skeleton.n_bones, ==, 1);
  g_assert_cmpuint (boneless->n_shapes, ==, 2);
  g_assert_cmpuint (boneless->shapes[0].skin_count, ==, 0);
  g_assert_cmpuint (boneless->shapes[0].bone, ==, 0);
  g_assert_cmpuint (boneless->vertex_buffers[0].n_vertices, ==, 494);
  g_assert_null (boneless->vertex_buffers[0].skin_indices);
  check_model_counts (boneless);
}

/* The bind pose of every smooth bone times its inverse model matrix is the
 * identity, and the mesh lies around the skeleton. */
static void
test_bind_check (void)
{
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressBfresModels) models = load_models ("bfres/Animal_Bass.bfres", &bytes);
  g_autoptr (GPtrArray) problems = NULL;
  const TressBfresModel *bass;
  const TressBfresSkeleton *sk;
  g_autofree TressBfresSrt *srt = NULL;
  g_autofree TressBfresMatrix *world = NULL;
  float lo[3] = { G_MAXFLOAT, G_MAXFLOAT, G_MAXFLOAT },
        hi[3] = { -G_MAXFLOAT, -G_MAXFLOAT, -G_MAXFLOAT };
  guint checked = 0;

  if (models == NULL)
    return;
  bass = tress_bfres_models_find (models, "Bass");
  sk = &bass->skeleton;
  problems = tress_bfres_check_bind (bass, 1e-6);
  g_assert_cmpuint (problems->len, ==, 0);
  srt = g_new0 (TressBfresSrt, sk->n_bones);
  world = g_new0 (TressBfresMatrix, sk->n_bones);
  tress_bfres_bind_srt (sk, srt);
  tress_bfres_pose_world (sk, srt, sk->scaling, world);
  for (guint i = 0; i < sk->n_bones; i++)
    {
      TressBfresMatrix inv, prod;

      if (sk->bones[i].smooth_matrix < 0)
        continue;
      tress_bfres_matrix_from_3x4 (sk->inverse_model + 12 * sk->bones[i].smooth_matrix, &inv);
      tress_bfres_matrix_multiply (&world[i], &inv, &prod);
      for (guint r = 0; r < 3; r++)
        for (guint c = 0; c < 4; c++)
          g_assert_cmpfloat_with_epsilon (prod.m[r][c], r == c ? 1 : 0, 1e-6);
      checked++;
    }
  g_assert_cmpuint (checked, ==, 4);
  /* Head sits 0.015 in front of the root; Spine_3 0.6 behind it. */
  g_assert_cmpfloat_with_epsilon (world[2].m[2][3], 0.015, 1e-7);
  g_assert_cmpfloat_with_epsilon (world[5].m[2][3], -0.6, 1e-6);
  for (guint v = 0; v < bass->vertex_buffers[0].n_vertices; v++)
    for (guint k = 0; k < 3; k++)
      {
        lo[k] = MIN (lo[k], bass->vertex_buffers[0].positions[3 * v + k]);
        hi[k] = MAX (hi[k], bass->vertex_buffers[0].positions[3 * v + k]);
      }
  for (guint i = 0; i < sk->n_bones; i++)
    for (guint k = 0; k < 3; k++)
      {
        g_assert_cmpfloat (world[i].m[k][3], >=, lo[k]);
        g_assert_cmpfloat (world[i].m[k][3], <=, hi[k]);
      }

  /* A damaged inverse matrix fails the check, naming its bone. */
  {
    g_autoptr (GByteArray) copy = g_byte_array_new ();
    g_autoptr (TressBfresModels) bad = NULL;
    g_autoptr (GPtrArray) found = NULL;
    const TressProblem *p;
    gsize at = sk->inverse_pos + 48 * 2 + 12; /* Spine_2: row 0, column 3 */
    float f = 0.25f;
    guint32 u;

    g_byte_array_append (copy, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
    memcpy (&u, &f, 4);
    u = GUINT32_TO_BE (u);
    memcpy (copy->data + at, &u, 4);
    bad = tress_bfres_models_parse (copy->data, copy->len, NULL);
    g_assert_nonnull (bad);
    found = tress_bfres_check_bind (tress_bfres_models_find (bad, "Bass"), 0);
    g_assert_cmpuint (found->len, ==, 1);
    p = g_ptr_array_index (found, 0);
    g_assert_cmpstr (p->location, ==, "Spine_2");
    g_assert_nonnull (strstr (p->message, "Spine_2"));
    g_assert_cmpuint (p->offset, ==, sk->inverse_pos + 48 * 2);
  }
}

/* ---- the pose by hand ------------------------------------------------------ */

typedef double M4[4][4];

static void
m4_identity (M4 m)
{
  memset (m, 0, sizeof (M4));
  for (guint i = 0; i < 4; i++)
    m[i][i] = 1;
}

static void
m4_mul (M4 a, M4 b, M4 out)
{
  M4 r;

  for (guint i = 0; i < 4; i++)
    for (guint j = 0; j < 4; j++)
      {
        r[i][j] = 0;
        for (guint k = 0; k < 4; k++)
          r[i][j] += a[i][k] * b[k][j];
      }
  memcpy (out, r, sizeof (M4));
}

/* T · Rz · Ry · Rx with column vectors, written out axis by axis. */
static void
m4_trs (double tx, double ty, double tz, double rx, double ry, double rz, M4 out)
{
  M4 t, x, y, z;

  m4_identity (t);
  t[0][3] = tx, t[1][3] = ty, t[2][3] = tz;
  m4_identity (x);
  x[1][1] = cos (rx), x[1][2] = -sin (rx), x[2][1] = sin (rx), x[2][2] = cos (rx);
  m4_identity (y);
  y[0][0] = cos (ry), y[0][2] = sin (ry), y[2][0] = -sin (ry), y[2][2] = cos (ry);
  m4_identity (z);
  z[0][0] = cos (rz), z[0][1] = -sin (rz), z[1][0] = sin (rz), z[1][1] = cos (rz);
  m4_mul (t, z, out);
  m4_mul (out, y, out);
  m4_mul (out, x, out);
}

static double
sample_stored (gpointer data, guint curve, double frame)
{
  return tress_bfres_evaluate (data, curve, frame);
}

static double
value_of (TressBfres *b, const char *path, double frame)
{
  int i = tress_bfres_find_curve (b, path);

  g_assert_cmpint (i, >=, 0);
  return tress_bfres_evaluate (b, (guint)i, frame);
}

static void
assert_world (TressScene *scene, const char *bone, M4 want)
{
  int n = tress_scene_find_node (scene, bone);
  const graphene_matrix_t *w;

  g_assert_cmpint (n, >=, 0);
  w = &tress_scene_get_node (scene, (guint)n)->world;
  /* graphene's row-vector matrix is the transpose of the column-vector one. */
  for (guint r = 0; r < 3; r++)
    for (guint c = 0; c < 4; c++)
      g_assert_cmpfloat_with_epsilon (graphene_matrix_get_value (w, c, r), want[r][c], 2e-6);
}

static TressSceneAnimator *
bass_animator (TressBfres **anims_out)
{
  g_autoptr (GBytes) anim_bytes = tress_test_load_sample ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *anim_path = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) file = NULL;
  g_autoptr (GBytes) model = NULL;
  g_autofree char *source = NULL;
  TressBfres *anims;
  TressSceneAnimator *animator;

  if (anim_bytes == NULL)
    return NULL;
  file = g_file_new_for_path (anim_path);
  anims = tress_bfres_parse (anim_bytes, "Animal_Bass_Animation.bfres", &error);
  g_assert_no_error (error);
  model = tress_bfres_find_model (anims, file, &source, &error);
  g_assert_no_error (error);
  g_assert_nonnull (model);
  g_assert_cmpstr (source, ==, "Animal_Bass.bfres");
  animator = tress_bfres_animator_new (anims, model, source, &error);
  g_assert_no_error (error);
  g_assert_nonnull (animator);
  *anims_out = anims;
  return animator;
}

static void
test_pose_by_hand (void)
{
  TressBfres *anims = NULL;
  g_autoptr (TressSceneAnimator) animator = bass_animator (&anims);
  const double frames[] = { 0, 17.5, 44 };
  guint jump = G_MAXUINT;

  if (animator == NULL)
    return;
  for (guint i = 0; i < animator->n_anims; i++)
    if (g_strcmp0 (animator->anim_names[i], "Jump") == 0)
      jump = i;
  g_assert_cmpuint (jump, <, animator->n_anims);
  for (guint f = 0; f < G_N_ELEMENTS (frames); f++)
    {
      double t = frames[f];
      M4 root, skl, spine, local;

      /* Jump: Root moves in Y and Z; Skl_Root turns on three axes and moves
       * in Y (X and Z from its base values, 0); Spine_1 turns about X and Y,
       * Z from its base value (0), translation from the bind pose (0). Scale
       * stays 1, so Maya's segment scale compensation changes nothing. */
      m4_trs (0, value_of (anims, "Jump/Root/Translate Y", t),
              value_of (anims, "Jump/Root/Translate Z", t), 0, 0, 0, root);
      m4_trs (0, value_of (anims, "Jump/Skl_Root/Translate Y", t), 0,
              value_of (anims, "Jump/Skl_Root/Rotate X", t),
              value_of (anims, "Jump/Skl_Root/Rotate Y", t),
              value_of (anims, "Jump/Skl_Root/Rotate Z", t), local);
      m4_mul (root, local, skl);
      m4_trs (0, 0, 0, value_of (anims, "Jump/Spine_1/Rotate X", t),
              value_of (anims, "Jump/Spine_1/Rotate Y", t), 0, local);
      m4_mul (skl, local, spine);

      tress_scene_animator_pose (animator, &jump, 1, t, sample_stored, anims);
      assert_world (animator->scene, "Root", root);
      assert_world (animator->scene, "Skl_Root", skl);
      assert_world (animator->scene, "Spine_1", spine);
    }
  /* The rest pose again without animations. */
  {
    M4 head;

    tress_scene_animator_pose (animator, NULL, 0, 0, sample_stored, anims);
    m4_trs (0, 0, 0.015, 0, -G_PI / 2, 0, head);
    assert_world (animator->scene, "Head", head);
  }
  tress_bfres_free (anims);
}

/* The animation file's curves map to the Bass bones; the bones Bass lacks
 * are listed in one line per animation, and their curves drive nothing. */
static void
test_animator (void)
{
  TressBfres *anims = NULL;
  g_autoptr (TressSceneAnimator) animator = bass_animator (&anims);
  TressScene *scene;
  int dead = -1, chin, rot;
  guint n_mapped = 0;

  if (animator == NULL)
    return;
  scene = animator->scene;
  g_assert_cmpstr (scene->name, ==, "Bass");
  g_assert_cmpuint (tress_scene_get_n_nodes (scene), ==, 6);
  g_assert_cmpuint (scene->meshes->len, ==, 2);
  g_assert_cmpuint (tress_scene_get_mesh (scene, 0)->n_triangles, ==, 410);
  g_assert_nonnull (tress_scene_get_mesh (scene, 0)->joints);
  g_assert_cmpuint (animator->n_anims, ==, 7);
  g_assert_cmpuint (animator->n_curves, ==, tress_bfres_get_n_curves (anims));
  for (guint i = 0; i < animator->n_anims; i++)
    if (g_strcmp0 (animator->anim_names[i], "Dead") == 0)
      dead = (int)i;
  g_assert_cmpint (dead, >=, 0);
  g_assert_cmpstr (animator->anim_notes[dead], ==,
                   "3 animated bones are not in Bass: Chin, Arm_1_L, Arm_1_R");
  g_assert_cmpfloat (animator->anim_frames[dead], ==, 30);
  chin = tress_bfres_find_curve (anims, "Dead/Chin/Rotate Z");
  rot = tress_bfres_find_curve (anims, "Dead/Spine_1/Rotate Y");
  g_assert_cmpint (animator->curve_anim[chin], ==, dead);
  g_assert_cmpint (animator->curve_node[chin], ==, -1);
  g_assert_cmpint (animator->curve_anim[rot], ==, dead);
  g_assert_cmpint (animator->curve_node[rot], ==, tress_scene_find_node (scene, "Spine_1"));
  for (guint i = 0; i < animator->n_curves; i++)
    if (animator->curve_node[i] >= 0)
      n_mapped++;
  g_assert_cmpuint (n_mapped, >, 60);
  {
    g_autoptr (GArray) curves = g_array_new (FALSE, FALSE, sizeof (guint));

    tress_scene_animator_node_curves (animator, dead,
                                      (guint)tress_scene_find_node (scene, "Spine_1"), curves);
    g_assert_cmpuint (curves->len, ==, 3);
  }
  /* Posed, the skinned mesh moves with its bones: Dead turns the body. */
  {
    guint a = (guint)dead;
    float rest[3], posed[3];

    tress_scene_animator_pose (animator, NULL, 0, 0, sample_stored, anims);
    tress_scene_vertex_position (scene, tress_scene_get_mesh (scene, 0), 0, rest);
    tress_scene_animator_pose (animator, &a, 1, 29, sample_stored, anims);
    tress_scene_vertex_position (scene, tress_scene_get_mesh (scene, 0), 0, posed);
    g_assert_cmpfloat (
        fabs (rest[0] - posed[0]) + fabs (rest[1] - posed[1]) + fabs (rest[2] - posed[2]), >, 1e-3);
  }
  tress_bfres_free (anims);
}

/* ---- pose maths on their own ---------------------------------------------- */

static void
assert_matrix (const TressBfresMatrix *a, const TressBfresMatrix *b, double eps)
{
  for (guint r = 0; r < 3; r++)
    for (guint c = 0; c < 4; c++)
      g_assert_cmpfloat_with_epsilon (a->m[r][c], b->m[r][c], eps);
}

/* A quaternion and the Euler angles it comes from give the same matrix;
 * a quaternion that is not a unit one is normalized first. */
static void
test_rotations (void)
{
  const double euler[3] = { 0.3, -1.1, 2.4 };
  TressBfresSrt e = { .scale = { 1, 2, 3 },
                      .rotation = { euler[0], euler[1], euler[2], 1 },
                      .translation = { 4, 5, 6 },
                      .rotation_mode = TRESS_BFRES_ROTATION_EULER_XYZ };
  TressBfresSrt q = e;
  TressBfresMatrix me, mq, inv, prod, id;
  M4 hand;

  tress_bfres_euler_to_quaternion (euler, q.rotation);
  q.rotation_mode = TRESS_BFRES_ROTATION_QUATERNION;
  tress_bfres_srt_matrix (&e, &me);
  tress_bfres_srt_matrix (&q, &mq);
  assert_matrix (&me, &mq, 1e-12);
  for (guint k = 0; k < 4; k++)
    q.rotation[k] *= 3;
  tress_bfres_srt_matrix (&q, &mq);
  assert_matrix (&me, &mq, 1e-12);
  /* T · Rz · Ry · Rx · S, by hand. */
  m4_trs (4, 5, 6, euler[0], euler[1], euler[2], hand);
  for (guint r = 0; r < 3; r++)
    for (guint c = 0; c < 3; c++)
      g_assert_cmpfloat_with_epsilon (me.m[r][c], hand[r][c] * e.scale[c], 1e-12);
  /* Inverse and product. */
  g_assert_true (tress_bfres_matrix_invert (&me, &inv));
  tress_bfres_matrix_multiply (&me, &inv, &prod);
  tress_bfres_matrix_identity (&id);
  assert_matrix (&prod, &id, 1e-12);
}

/* Two bones: a parent scaled by 2 and a child one unit along X. Standard
 * scaling carries the parent's scale to the child; Maya's segment scale
 * compensation undoes it for the child's own axes (not for where it sits);
 * Softimage scales the child's offset and accumulates scale without shear. */
static void
test_scaling_modes (void)
{
  TressBfresBone bones[2] = { { 0 }, { 0 } };
  TressBfresSkeleton sk = { .n_bones = 2, .bones = bones };
  TressBfresSrt srt[2];
  TressBfresMatrix world[2];

  bones[0].parent = -1;
  bones[1].parent = 0;
  tress_bfres_bind_srt (&sk, srt);
  for (guint i = 0; i < 2; i++)
    srt[i].rotation_mode = TRESS_BFRES_ROTATION_EULER_XYZ;
  srt[0].scale[0] = srt[0].scale[1] = srt[0].scale[2] = 2;
  srt[0].rotation[2] = G_PI / 2; /* the parent turns 90° about Z */
  srt[1].scale[0] = srt[1].scale[1] = srt[1].scale[2] = 1;
  srt[1].translation[0] = 1;
  srt[1].segment_scale_compensate = TRUE;

  tress_bfres_pose_world (&sk, srt, TRESS_BFRES_SCALING_STANDARD, world);
  /* The child sits at the parent's X axis (turned to +Y), twice as far, scaled by 2. */
  g_assert_cmpfloat_with_epsilon (world[1].m[0][3], 0, 1e-12);
  g_assert_cmpfloat_with_epsilon (world[1].m[1][3], 2, 1e-12);
  g_assert_cmpfloat_with_epsilon (world[1].m[1][0], 2, 1e-12);

  tress_bfres_pose_world (&sk, srt, TRESS_BFRES_SCALING_MAYA, world);
  /* Still twice as far (the offset is in the parent's scaled space), scale 1. */
  g_assert_cmpfloat_with_epsilon (world[1].m[1][3], 2, 1e-12);
  g_assert_cmpfloat_with_epsilon (world[1].m[1][0], 1, 1e-12);
  g_assert_cmpfloat_with_epsilon (world[1].m[0][1], -1, 1e-12);
  /* Without the flag, Maya composes as standard. */
  srt[1].segment_scale_compensate = FALSE;
  tress_bfres_pose_world (&sk, srt, TRESS_BFRES_SCALING_MAYA, world);
  g_assert_cmpfloat_with_epsilon (world[1].m[1][0], 2, 1e-12);

  /* Softimage: a non-uniform parent scale does not shear a turned child. */
  srt[0].scale[0] = 2, srt[0].scale[1] = 1, srt[0].scale[2] = 1;
  srt[1].rotation[2] = G_PI / 4;
  tress_bfres_pose_world (&sk, srt, TRESS_BFRES_SCALING_SOFTIMAGE, world);
  /* Position: the parent's rotation of (2·1, 0, 0) = (0, 2, 0). */
  g_assert_cmpfloat_with_epsilon (world[1].m[0][3], 0, 1e-12);
  g_assert_cmpfloat_with_epsilon (world[1].m[1][3], 2, 1e-12);
  /* Columns stay orthogonal (rotation × diagonal scale). */
  {
    double dot = 0;

    for (guint r = 0; r < 3; r++)
      dot += world[1].m[r][0] * world[1].m[r][1];
    g_assert_cmpfloat_with_epsilon (dot, 0, 1e-12);
    /* The accumulated scale: 2 along the child's X, 1 along Y. */
    g_assert_cmpfloat_with_epsilon (hypot (world[1].m[0][0], world[1].m[1][0]), 2, 1e-12);
    g_assert_cmpfloat_with_epsilon (hypot (world[1].m[0][1], world[1].m[1][1]), 1, 1e-12);
  }
  tress_bfres_pose_world (&sk, srt, TRESS_BFRES_SCALING_STANDARD, world);
  {
    double dot = 0;

    for (guint r = 0; r < 3; r++)
      dot += world[1].m[r][0] * world[1].m[r][1];
    g_assert_cmpfloat (fabs (dot), >, 0.1); /* standard scaling shears it */
  }
}

/* Bone and material visibility animations hide bones, the shapes that
 * follow them, and the shapes of a material, at the playhead. */
static void
test_visibility (void)
{
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("Vis", 0x04050003);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL, fres = NULL;
  g_autoptr (TressBfres) file = NULL;
  g_autoptr (TressSceneAnimator) animator = NULL;
  g_autofree char *source = NULL;
  static const float pos[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
  static const guint32 tri[] = { 0, 1, 2 };
  TressBfresBuilderBone root = { "Root", -1, { 1, 1, 1 }, { 0, 0, 0 }, { 0, 0, 0 } };
  TressBfresBuilderBone arm = { "Arm", 0, { 1, 1, 1 }, { 0, 0, 0 }, { 1, 0, 0 } };
  TressBfresBuilderShape plate = { .name = "Plate",
                                   .n_vertices = 3,
                                   .positions = pos,
                                   .bone = 1,
                                   .n_triangles = 1,
                                   .triangles = tri };
  TressKey keys[2] = { { .frame = 0, .value = 1 }, { .frame = 5, .value = 0 } };
  TressBfresBuilderCurve c = { .curve_type = TRESS_BFRES_CURVE_STEP_BOOL,
                               .frame_type = TRESS_BFRES_FRAME_U8,
                               .key_type = TRESS_BFRES_KEY_S8,
                               .n_keys = 2,
                               .keys = keys };
  guint arm_vis = G_MAXUINT, mat_vis = G_MAXUINT, both[2];
  int arm_node;

  tress_bfres_builder_begin_model (b, "Thing");
  tress_bfres_builder_add_model_bone (b, &root);
  tress_bfres_builder_add_model_bone (b, &arm);
  tress_bfres_builder_add_model_material (b, "Mt_Plate");
  tress_bfres_builder_add_model_material (b, "Mt_Glass");
  tress_bfres_builder_add_shape (b, &plate);
  plate.name = "Glass";
  plate.material = 1;
  plate.bone = 0;
  tress_bfres_builder_add_shape (b, &plate);
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_BONE_VISIBILITY, "HideArm", 10, FALSE);
  c.name = "Arm";
  tress_bfres_builder_add_curve (b, &c);
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_MAT_VISIBILITY, "HideGlass", 10, FALSE);
  c.name = "Mt_Glass";
  tress_bfres_builder_add_curve (b, &c);
  bytes = tress_bfres_builder_finish (b, &error);
  g_assert_no_error (error);
  file = tress_bfres_parse (bytes, "vis.bfres", &error);
  g_assert_no_error (error);
  fres = tress_bfres_find_model (file, NULL, &source, &error);
  animator = tress_bfres_animator_new (file, fres, source, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < animator->n_anims; i++)
    if (g_strcmp0 (animator->anim_names[i], "HideArm") == 0)
      arm_vis = i;
    else if (g_strcmp0 (animator->anim_names[i], "HideGlass") == 0)
      mat_vis = i;
  g_assert_cmpuint (arm_vis, <, animator->n_anims);
  g_assert_cmpuint (mat_vis, <, animator->n_anims);
  arm_node = tress_scene_find_node (animator->scene, "Arm");
  /* The bone visibility curve drives the Arm node. */
  g_assert_cmpint (animator->curve_node[tress_bfres_find_curve (file, "HideArm/Arm")], ==,
                   arm_node);
  both[0] = arm_vis;
  both[1] = mat_vis;
  tress_scene_animator_pose (animator, both, 2, 2, sample_stored, file);
  g_assert_true (tress_scene_get_node (animator->scene, (guint)arm_node)->visible);
  g_assert_true (tress_scene_get_mesh (animator->scene, 0)->visible);
  g_assert_true (tress_scene_get_mesh (animator->scene, 1)->visible);
  tress_scene_animator_pose (animator, both, 2, 7, sample_stored, file);
  g_assert_false (tress_scene_get_node (animator->scene, (guint)arm_node)->visible);
  g_assert_false (tress_scene_get_mesh (animator->scene, 0)->visible); /* follows Arm */
  g_assert_false (tress_scene_get_mesh (animator->scene, 1)->visible); /* Mt_Glass */
  /* The bone animation alone hides only what follows the bone. */
  tress_scene_animator_pose (animator, &arm_vis, 1, 7, sample_stored, file);
  g_assert_false (tress_scene_get_mesh (animator->scene, 0)->visible);
  g_assert_true (tress_scene_get_mesh (animator->scene, 1)->visible);
  /* The rest pose shows everything. */
  tress_scene_animator_pose (animator, NULL, 0, 7, sample_stored, file);
  g_assert_true (tress_scene_get_mesh (animator->scene, 0)->visible);
  /* The rigid shape follows its bone: one along X. */
  {
    float p[3];

    tress_scene_vertex_position (animator->scene, tress_scene_get_mesh (animator->scene, 0), 0, p);
    g_assert_cmpfloat_with_epsilon (p[0], 1, 1e-6);
  }
}

/* ---- bad input ------------------------------------------------------------ */

static void
parse_must_not_crash (const guint8 *d, gsize size, guint *n_errors)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TressBfresModels) models = tress_bfres_models_parse (d, size, &error);
  g_autoptr (GError) anim_error = NULL;
  g_autoptr (TressBfresAnims) anims = tress_bfres_anims_parse (d, size, &anim_error);

  if (models == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == TRESS_ERROR);
      /* Every message names where it failed. */
      g_assert_true (strstr (error->message, "offset 0x") != NULL);
      (*n_errors)++;
    }
  else
    for (guint i = 0; i < models->n_models; i++)
      {
        g_autoptr (GPtrArray) problems = tress_bfres_check_bind (&models->models[i], 0);
        GString *s = g_string_new (NULL);

        tress_bfres_models_describe (models, s);
        g_string_free (s, TRUE);
      }
  if (anims == NULL)
    g_assert_true (anim_error != NULL && anim_error->domain == TRESS_ERROR);
}

static void
test_truncations (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("bfres/Animal_Bass.bfres");
  const guint8 *d;
  gsize size;
  guint n_errors = 0;

  if (bytes == NULL)
    return;
  d = g_bytes_get_data (bytes, &size);
  for (gsize n = 0; n < size; n++)
    {
      /* A copy of exactly n bytes, so that sanitizers see reads past it. */
      g_autofree guint8 *copy = g_memdup2 (d, n);

      parse_must_not_crash (copy, n, &n_errors);
    }
  /* Up to the end of the last vertex data every truncation is an error. */
  g_assert_cmpuint (n_errors, >=, 0x17e00);
}

typedef struct
{
  gsize pos, size;
} Span;

static void
add_span (GArray *spans, gsize pos, gsize size)
{
  Span sp = { pos, size };

  if (pos != 0)
    g_array_append_val (spans, sp);
}

/* The structures the model reader reads: headers, tables, arrays of structs. */
static GArray *
model_spans (const TressBfresModels *models)
{
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (Span));

  add_span (spans, 0, 0x6C);
  for (guint i = 0; i < models->n_models; i++)
    {
      const TressBfresModel *m = &models->models[i];
      const TressBfresSkeleton *sk = &m->skeleton;

      add_span (spans, m->pos, 0x30);
      add_span (spans, sk->pos, 0x24);
      add_span (spans, sk->bones[0].pos, 0x40 * (gsize)sk->n_bones);
      add_span (spans, sk->inverse_pos, 48 * (gsize)sk->n_smooth);
      for (guint k = 0; k < m->n_vertex_buffers; k++)
        {
          const TressBfresVertexBuffer *vb = &m->vertex_buffers[k];

          add_span (spans, vb->pos, 0x20);
          add_span (spans, vb->attribs[0].pos, 0x0C * (gsize)vb->n_attribs);
          add_span (spans, vb->buffers[0].pos, 0x18 * (gsize)vb->n_buffers);
        }
      for (guint k = 0; k < m->n_shapes; k++)
        {
          const TressBfresShape *s = &m->shapes[k];

          add_span (spans, s->pos, 0x38);
          for (guint l = 0; l < s->n_meshes; l++)
            {
              add_span (spans, s->meshes[l].pos, 0x1C);
              add_span (spans, s->meshes[l].index_buffer.pos, 0x18);
            }
        }
    }
  return spans;
}

static void
test_corruptions (void)
{
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressBfresModels) models = load_models ("bfres/Animal_Bass.bfres", &bytes);
  static const guint32 values[] = { 0xFFFFFFFF, 0x80000000, 0, 0x00010001 };
  g_autoptr (GByteArray) copy = g_byte_array_new ();
  g_autoptr (GArray) spans = NULL;
  guint n_errors = 0, n_tried = 0;

  if (models == NULL)
    return;
  g_byte_array_append (copy, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  spans = model_spans (models);
  for (guint i = 0; i < spans->len; i++)
    {
      const Span *sp = &g_array_index (spans, Span, i);

      for (gsize pos = sp->pos; pos + 4 <= sp->pos + sp->size; pos += 4)
        for (guint k = 0; k < G_N_ELEMENTS (values); k++)
          {
            guint8 saved[4];
            guint32 be = GUINT32_TO_BE (values[k]);

            memcpy (saved, copy->data + pos, 4);
            if (memcmp (saved, &be, 4) == 0)
              continue;
            memcpy (copy->data + pos, &be, 4);
            parse_must_not_crash (copy->data, copy->len, &n_errors);
            memcpy (copy->data + pos, saved, 4);
            n_tried++;
          }
    }
  g_test_message ("%u corruptions, %u refused", n_tried, n_errors);
  g_assert_cmpuint (n_tried, >, 1000);
  /* Most fields are checked (the rest: flags, user pointers, padding). */
  g_assert_cmpuint (n_errors, >, n_tried / 3);
  /* Out-of-range vertex indices are refused, naming the index and shape. */
  {
    const TressBfresMesh *mesh = &models->models[0].shapes[1].meshes[0];
    gsize at = mesh->index_buffer.data_pos + 2 * 5;
    g_autoptr (GError) error = NULL;
    g_autoptr (TressBfresModels) bad = NULL;

    copy->data[at] = 0x7F;
    bad = tress_bfres_models_parse (copy->data, copy->len, &error);
    g_assert_null (bad);
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE);
    g_assert_nonnull (strstr (error->message, "vertex index"));
    g_assert_nonnull (strstr (error->message, "Model__Mt_Eye"));
  }
}

/* ---- built files ---------------------------------------------------------- */

static GBytes *
build_model_file (guint n_bones, guint n_vertices, gboolean with_anim)
{
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("Built", 0x04050003);
  g_autoptr (GError) error = NULL;
  GBytes *bytes;

  tress_bfres_builder_add_test_model (b, "Creature", n_bones, n_vertices);
  if (with_anim)
    {
      TressKey keys[2] = { { .frame = 0, .value = 0 }, { .frame = 10, .value = 1 } };
      TressBfresBuilderCurve c = { 0 };

      tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_SKELETAL, "Turn", 10, FALSE);
      tress_bfres_builder_add_bone (b, "Bone_001");
      c.curve_type = TRESS_BFRES_CURVE_LINEAR;
      c.frame_type = TRESS_BFRES_FRAME_F32;
      c.key_type = TRESS_BFRES_KEY_32;
      c.target_offset = 0x28; /* Rotate Z */
      c.n_keys = 2;
      c.keys = keys;
      tress_bfres_builder_add_curve (b, &c);
      tress_bfres_builder_add_bone (b, "Missing_Bone");
      c.target_offset = 0x14;
      tress_bfres_builder_add_curve (b, &c);
    }
  bytes = tress_bfres_builder_finish (b, &error);
  g_assert_no_error (error);
  return bytes;
}

static void
test_builder (void)
{
  g_autoptr (GBytes) bytes = build_model_file (135, 20000, TRUE);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressBfresModels) models = NULL;
  g_autoptr (GPtrArray) problems = NULL;
  g_autoptr (TressBfres) file = NULL;
  g_autoptr (TressSceneAnimator) animator = NULL;
  g_autoptr (GBytes) fres = NULL;
  g_autofree char *source = NULL;
  const TressBfresModel *m;
  gsize size;
  const guint8 *d = g_bytes_get_data (bytes, &size);
  guint turn = 0;
  int bone1;
  graphene_matrix_t before;

  models = tress_bfres_models_parse (d, size, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (models->n_models, ==, 1);
  m = &models->models[0];
  g_assert_cmpuint (m->skeleton.n_bones, ==, 135);
  g_assert_cmpuint (m->vertex_buffers[0].n_vertices, >=, 20000);
  g_assert_cmpuint (m->total_vertices, ==, m->vertex_buffers[0].n_vertices);
  g_assert_cmpuint (m->shapes[0].skin_count, ==, 4);
  check_model_counts (m);
  problems = tress_bfres_check_bind (m, 1e-5);
  g_assert_cmpuint (problems->len, ==, 0);

  /* The same file as animation and model: its own model has a shape. */
  file = tress_bfres_parse (bytes, "built.bfres", &error);
  g_assert_no_error (error);
  fres = tress_bfres_find_model (file, NULL, &source, &error);
  g_assert_no_error (error);
  g_assert_nonnull (fres);
  animator = tress_bfres_animator_new (file, fres, source, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (animator->anim_notes[0], ==, "1 animated bone is not in Creature: Missing_Bone");
  bone1 = tress_scene_find_node (animator->scene, "Bone_001");
  tress_scene_animator_pose (animator, &turn, 1, 0, sample_stored, file);
  before = tress_scene_get_node (animator->scene, (guint)bone1)->world;
  tress_scene_animator_pose (animator, &turn, 1, 10, sample_stored, file);
  g_assert_false (graphene_matrix_equal_fast (
      &before, &tress_scene_get_node (animator->scene, (guint)bone1)->world));
  /* Rotate Z went from 0 to 1 radian: the local X axis turned by 1. */
  {
    const graphene_matrix_t *w0 = &tress_scene_get_node (animator->scene, 0)->world;
    const graphene_matrix_t *w1 = &tress_scene_get_node (animator->scene, (guint)bone1)->world;
    graphene_matrix_t inv0, local;

    graphene_matrix_inverse (w0, &inv0);
    graphene_matrix_multiply (w1, &inv0, &local);
    g_assert_cmpfloat_with_epsilon (graphene_matrix_get_value (&local, 0, 0), cos (1), 1e-5);
    g_assert_cmpfloat_with_epsilon (graphene_matrix_get_value (&local, 0, 1), sin (1), 1e-5);
  }
}

/* A visibility animation listed before a skeletal one: the skeleton still
 * takes the skeletal animation's pose (the first skeletal one listed), and
 * the visibility curve still hides its bone. */
static void
test_visibility_listed_first (void)
{
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("Both", 0x04050003);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL, fres = NULL;
  g_autoptr (TressBfres) file = NULL;
  g_autoptr (TressSceneAnimator) animator = NULL;
  g_autofree char *source = NULL;
  TressKey turn_keys[2] = { { .frame = 0, .value = 0 }, { .frame = 10, .value = 1 } };
  TressKey hide_keys[2] = { { .frame = 0, .value = 1 }, { .frame = 5, .value = 0 } };
  TressBfresBuilderCurve turn = { .curve_type = TRESS_BFRES_CURVE_LINEAR,
                                  .frame_type = TRESS_BFRES_FRAME_F32,
                                  .key_type = TRESS_BFRES_KEY_32,
                                  .target_offset = 0x28, /* Rotate Z */
                                  .n_keys = 2,
                                  .keys = turn_keys };
  TressBfresBuilderCurve hide = { .curve_type = TRESS_BFRES_CURVE_STEP_BOOL,
                                  .frame_type = TRESS_BFRES_FRAME_U8,
                                  .key_type = TRESS_BFRES_KEY_S8,
                                  .name = "Bone_001",
                                  .n_keys = 2,
                                  .keys = hide_keys };
  guint skel = G_MAXUINT, vis = G_MAXUINT, order[2];
  graphene_matrix_t alone, bind;
  int bone1;

  tress_bfres_builder_add_test_model (b, "Creature", 8, 200);
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_SKELETAL, "Turn", 10, FALSE);
  tress_bfres_builder_add_bone (b, "Bone_001");
  tress_bfres_builder_add_curve (b, &turn);
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_BONE_VISIBILITY, "Hide", 10, FALSE);
  tress_bfres_builder_add_curve (b, &hide);
  bytes = tress_bfres_builder_finish (b, &error);
  g_assert_no_error (error);
  file = tress_bfres_parse (bytes, "both.bfres", &error);
  g_assert_no_error (error);
  fres = tress_bfres_find_model (file, NULL, &source, &error);
  g_assert_no_error (error);
  animator = tress_bfres_animator_new (file, fres, source, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < animator->n_anims; i++)
    if (g_strcmp0 (animator->anim_names[i], "Turn") == 0)
      skel = i;
    else if (g_strcmp0 (animator->anim_names[i], "Hide") == 0)
      vis = i;
  g_assert_cmpuint (skel, <, animator->n_anims);
  g_assert_cmpuint (vis, <, animator->n_anims);
  bone1 = tress_scene_find_node (animator->scene, "Bone_001");
  g_assert_cmpint (bone1, >, 0);

  tress_scene_animator_pose (animator, NULL, 0, 10, sample_stored, file);
  bind = tress_scene_get_node (animator->scene, (guint)bone1)->world;
  tress_scene_animator_pose (animator, &skel, 1, 10, sample_stored, file);
  alone = tress_scene_get_node (animator->scene, (guint)bone1)->world;
  g_assert_false (graphene_matrix_near (&alone, &bind, 1e-3f));

  order[0] = vis;
  order[1] = skel;
  tress_scene_animator_pose (animator, order, 2, 10, sample_stored, file);
  g_assert_true (graphene_matrix_near (&tress_scene_get_node (animator->scene, (guint)bone1)->world,
                                       &alone, 1e-6f));
  g_assert_false (tress_scene_get_node (animator->scene, (guint)bone1)->visible);
}

/* Skinning: one joint per skinning matrix the vertices use, however many
 * vertices use it. The test model's matrices are smooth ones, one per bone,
 * so no two joints share a bone. */
static void
test_one_joint_per_matrix (void)
{
  g_autoptr (GBytes) bytes = build_model_file (8, 200, FALSE);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressBfres) file = NULL;
  g_autoptr (TressSceneAnimator) animator = NULL;
  g_autoptr (GBytes) fres = NULL;
  g_autofree char *source = NULL;
  TressScene *scene;
  g_autofree gboolean *seen = NULL;
  guint n_used = 0;

  file = tress_bfres_parse (bytes, "built.bfres", &error);
  g_assert_no_error (error);
  fres = tress_bfres_find_model (file, NULL, &source, &error);
  g_assert_no_error (error);
  animator = tress_bfres_animator_new (file, fres, source, &error);
  g_assert_no_error (error);
  scene = animator->scene;
  seen = g_new0 (gboolean, tress_scene_get_n_nodes (scene));
  g_assert_cmpuint (scene->joints->len, >=, 2);
  for (guint j = 0; j < scene->joints->len; j++)
    {
      int node = tress_scene_get_joint (scene, j)->node;

      g_assert_cmpint (node, >=, 0);
      g_assert_cmpint (node, <, (int)tress_scene_get_n_nodes (scene));
      if (seen[node])
        g_error ("joints for bone %s twice", tress_scene_get_node (scene, (guint)node)->name);
      seen[node] = TRUE;
    }
  /* Every joint is used by some vertex with a weight. */
  {
    const TressSceneMesh *mesh = tress_scene_get_mesh (scene, 0);
    g_autofree gboolean *used = g_new0 (gboolean, scene->joints->len);

    g_assert_nonnull (mesh->joints);
    for (gsize at = 0; at < TRESS_SCENE_MAX_INFLUENCES * (gsize)mesh->n_vertices; at++)
      if (mesh->weights[at] > 0 && !used[mesh->joints[at]])
        {
          used[mesh->joints[at]] = TRUE;
          n_used++;
        }
    g_assert_cmpuint (n_used, ==, scene->joints->len);
  }
}

/* A shape skinned by bones 1 and 3 of four lists exactly those two in its
 * skin bone table (FSHP 0x28), in bone order, and its normals read back. */
static void
test_skin_bones (void)
{
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("Skin", 0x04050003);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressBfresModels) models = NULL;
  static const float pos[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
  static const float nrm[] = { 0, 0, 1, 1, 0, 0, 0, -1, 0 };
  static const guint8 skin[] = { 3, 1, 1, 3, 3, 1 };
  static const float weights[] = { 0.5f, 0.5f, 1, 0, 0.25f, 0.75f };
  static const guint32 tri[] = { 0, 1, 2 };
  static const char *const names[] = { "Root", "Hip", "Knee", "Foot" };
  TressBfresBuilderShape shape = { .name = "Leg",
                                   .n_vertices = 3,
                                   .positions = pos,
                                   .normals = nrm,
                                   .skin_count = 2,
                                   .skin_bones = skin,
                                   .skin_weights = weights,
                                   .n_triangles = 1,
                                   .triangles = tri };
  const TressBfresModel *m;
  const TressBfresShape *s;
  gsize size;
  const guint8 *d;

  tress_bfres_builder_begin_model (b, "Walker");
  for (int i = 0; i < 4; i++)
    {
      TressBfresBuilderBone bone
          = { names[i], i - 1, { 1, 1, 1 }, { 0, 0, 0 }, { 0, i > 0 ? -1.0f : 0.0f, 0 } };

      tress_bfres_builder_add_model_bone (b, &bone);
    }
  tress_bfres_builder_add_model_material (b, "Mt_Leg");
  tress_bfres_builder_add_shape (b, &shape);
  bytes = tress_bfres_builder_finish (b, &error);
  g_assert_no_error (error);
  d = g_bytes_get_data (bytes, &size);
  models = tress_bfres_models_parse (d, size, &error);
  g_assert_no_error (error);
  m = &models->models[0];
  s = &m->shapes[0];
  g_assert_cmpuint (s->skin_count, ==, 2);
  g_assert_cmpuint (s->n_skin_bones, ==, 2);
  g_assert_cmpuint (s->skin_bones[0], ==, 1);
  g_assert_cmpuint (s->skin_bones[1], ==, 3);
  g_assert_nonnull (m->vertex_buffers[s->vertex_buffer].normals);
  for (guint i = 0; i < G_N_ELEMENTS (nrm); i++)
    g_assert_cmpfloat (m->vertex_buffers[s->vertex_buffer].normals[i], ==, nrm[i]);
}

/* Two skeletal and a bone visibility animation, built. */
static GBytes *
build_anims_file (void)
{
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("Anims", 0x04050003);
  g_autoptr (GError) error = NULL;
  TressKey keys[2] = { { .frame = 0, .value = 0 }, { .frame = 10, .value = 1 } };
  TressBfresBuilderCurve c = { .curve_type = TRESS_BFRES_CURVE_LINEAR,
                               .frame_type = TRESS_BFRES_FRAME_F32,
                               .key_type = TRESS_BFRES_KEY_32,
                               .target_offset = 0x28,
                               .n_keys = 2,
                               .keys = keys };
  GBytes *bytes;

  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_SKELETAL, "Wait", 10, TRUE);
  tress_bfres_builder_add_bone (b, "Arm");
  tress_bfres_builder_add_curve (b, &c);
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_SKELETAL, "Walk", 10, TRUE);
  tress_bfres_builder_add_bone (b, "Leg");
  tress_bfres_builder_add_curve (b, &c);
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_BONE_VISIBILITY, "Hide", 10, FALSE);
  c.curve_type = TRESS_BFRES_CURVE_STEP_BOOL;
  c.frame_type = TRESS_BFRES_FRAME_U8;
  c.key_type = TRESS_BFRES_KEY_S8;
  c.name = "Arm";
  tress_bfres_builder_add_curve (b, &c);
  c.name = "Leg";
  tress_bfres_builder_add_curve (b, &c);
  bytes = tress_bfres_builder_finish (b, &error);
  g_assert_no_error (error);
  return bytes;
}

/* A visibility animation's names are the bones its curves drive, as a
 * NULL-terminated list (the sanitizer build sees a list one short). */
static void
test_anim_names (void)
{
  g_autoptr (GBytes) bytes = build_anims_file ();
  g_autoptr (GError) error = NULL;
  gsize size;
  const guint8 *d = g_bytes_get_data (bytes, &size);
  g_autoptr (TressBfresAnims) anims = tress_bfres_anims_parse (d, size, &error);
  const TressBfresVisibilityAnim *v;

  g_assert_no_error (error);
  g_assert_cmpuint (anims->n_skeletal, ==, 2);
  g_assert_cmpuint (anims->n_visibility, ==, 1);
  v = &anims->visibility[0];
  g_assert_cmpstr (v->name, ==, "Hide");
  g_assert_cmpuint (v->n_names, ==, 2);
  g_assert_cmpstr (v->names[0], ==, "Arm");
  g_assert_cmpstr (v->names[1], ==, "Leg");
  g_assert_null (v->names[2]);
}

/* A null entry in the skeletal animation index group is refused, naming the
 * entry's data field (node 2's, the second animation) and the animation. */
static void
test_anim_null_entry (void)
{
  g_autoptr (GBytes) bytes = build_anims_file ();
  gsize size;
  g_autofree guint8 *d = g_memdup2 (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  gsize group, field;
  g_autoptr (GError) error = NULL;
  g_autoptr (TressBfresAnims) anims = NULL;
  g_autofree char *at = NULL;

  size = g_bytes_get_size (bytes);
  group = 0x28 + (gsize)(gint32)ref_u32 (d, 0x28); /* group 2: skeletal */
  g_assert_cmpuint (ref_u32 (d, group + 4), ==, 2);
  field = group + 8 + 16 * 2 + 12;
  memset (d + field, 0, 4);
  anims = tress_bfres_anims_parse (d, size, &error);
  g_assert_null (anims);
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET);
  at = g_strdup_printf ("skeletal animation index group at offset 0x%" G_GSIZE_MODIFIER
                        "x: expected an animation, found a null entry (\"Walk\")",
                        field);
  g_assert_nonnull (strstr (error->message, at));
}

/* X_Animation.sbfres finds X.sbfres beside it; an archive finds its sibling
 * entry; a file with no model and no sibling finds nothing. */
static void
test_find_sibling (void)
{
  const char *dir = tress_test_tmpdir ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) model = build_model_file (8, 200, FALSE);
  g_autoptr (TressBfresBuilder) ab = tress_bfres_builder_new ("Anim", 0x04050003);
  g_autoptr (GBytes) anim = NULL, zmodel = NULL, zanim = NULL, found = NULL;
  g_autofree char *model_path = g_build_filename (dir, "Thing.sbfres", NULL);
  g_autofree char *anim_path = g_build_filename (dir, "Thing_Animation.sbfres", NULL);
  g_autofree char *lone_path = g_build_filename (dir, "Lone_Animation.bfres", NULL);
  g_autofree char *source = NULL;
  g_autoptr (GFile) anim_file = g_file_new_for_path (anim_path);
  g_autoptr (GFile) lone_file = g_file_new_for_path (lone_path);
  g_autoptr (TressBfres) parsed = NULL;
  TressKey keys[2] = { { .frame = 0, .value = 0 }, { .frame = 4, .value = 1 } };
  TressBfresBuilderCurve c = {
    .curve_type = TRESS_BFRES_CURVE_LINEAR, .target_offset = 0x20, .n_keys = 2, .keys = keys
  };

  tress_bfres_builder_begin_anim (ab, TRESS_BFRES_ANIM_SKELETAL, "Go", 4, TRUE);
  tress_bfres_builder_add_bone (ab, "Bone_002");
  tress_bfres_builder_add_curve (ab, &c);
  anim = tress_bfres_builder_finish (ab, &error);
  g_assert_no_error (error);
  zmodel = tress_yaz0_compress (g_bytes_get_data (model, NULL), g_bytes_get_size (model), NULL);
  zanim = tress_yaz0_compress (g_bytes_get_data (anim, NULL), g_bytes_get_size (anim), NULL);
  g_assert_true (g_file_set_contents (model_path, g_bytes_get_data (zmodel, NULL),
                                      g_bytes_get_size (zmodel), NULL));
  g_assert_true (g_file_set_contents (anim_path, g_bytes_get_data (zanim, NULL),
                                      g_bytes_get_size (zanim), NULL));
  g_assert_true (g_file_set_contents (lone_path, g_bytes_get_data (anim, NULL),
                                      g_bytes_get_size (anim), NULL));

  parsed = tress_bfres_parse (zanim, "Thing_Animation.sbfres", &error);
  g_assert_no_error (error);
  found = tress_bfres_find_model (parsed, anim_file, &source, &error);
  g_assert_no_error (error);
  g_assert_nonnull (found);
  g_assert_cmpstr (source, ==, "Thing.sbfres");
  tress_test_assert_bytes_equal (found, model);
  {
    g_autoptr (TressSceneAnimator) animator
        = tress_bfres_animator_new (parsed, found, source, &error);

    g_assert_no_error (error);
    g_assert_null (animator->anim_notes[0]);
  }
  g_clear_pointer (&found, g_bytes_unref);
  g_clear_pointer (&source, g_free);
  found = tress_bfres_find_model (parsed, lone_file, &source, &error);
  g_assert_no_error (error);
  g_assert_null (found);
}

/* In an archive: X_Animation.bfres finds X.bfres in the same archive. */
static void
test_find_in_archive (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) model = build_model_file (8, 200, FALSE);
  g_autoptr (TressBfresBuilder) ab = tress_bfres_builder_new ("Anim", 0x04050003);
  g_autoptr (GBytes) anim = NULL, sarc = NULL, zsarc = NULL, found = NULL;
  g_autoptr (TressBfres) parsed = NULL;
  g_autofree char *path = g_build_filename (tress_test_tmpdir (), "Pack.szs", NULL);
  g_autofree char *source = NULL;
  g_autoptr (GFile) file = g_file_new_for_path (path);
  TressKey keys[2] = { { .frame = 0, .value = 0 }, { .frame = 4, .value = 1 } };
  TressBfresBuilderCurve c = {
    .curve_type = TRESS_BFRES_CURVE_LINEAR, .target_offset = 0x20, .n_keys = 2, .keys = keys
  };
  const char *names[2] = { "Model/Thing_Animation.bfres", "Model/Thing.bfres" };
  GBytes *files[2];

  tress_bfres_builder_begin_anim (ab, TRESS_BFRES_ANIM_SKELETAL, "Go", 4, TRUE);
  tress_bfres_builder_add_bone (ab, "Bone_002");
  tress_bfres_builder_add_curve (ab, &c);
  anim = tress_bfres_builder_finish (ab, &error);
  g_assert_no_error (error);
  files[0] = anim;
  files[1] = model;
  sarc = tress_test_make_sarc (names, files, 2);
  zsarc = tress_yaz0_compress (g_bytes_get_data (sarc, NULL), g_bytes_get_size (sarc), NULL);
  g_assert_true (
      g_file_set_contents (path, g_bytes_get_data (zsarc, NULL), g_bytes_get_size (zsarc), NULL));
  parsed = tress_bfres_parse (zsarc, "Pack.szs", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tress_bfres_get_n_curves (parsed), ==, 1);
  found = tress_bfres_find_model (parsed, file, &source, &error);
  g_assert_no_error (error);
  g_assert_nonnull (found);
  g_assert_cmpstr (source, ==, "Model/Thing.bfres in Pack.szs");
  tress_test_assert_bytes_equal (found, model);
  /* The archive's first BFRES with a model, when none is named. */
  {
    g_autoptr (GBytes) first = tress_bfres_unwrap (zsarc, NULL, &error);

    g_assert_no_error (error);
    tress_test_assert_bytes_equal (first, model);
  }
}

/* tress-cli info lists models, bones and shapes; dump includes them. */
static void
test_cli (void)
{
  g_autofree char *path = tress_test_sample_path ("bfres/Animal_Bass.bfres");
  g_autofree char *out = NULL, *dump = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *model;
  const char *info_argv[] = { "info", NULL, NULL }, *dump_argv[] = { "dump", NULL, NULL };

  if (path == NULL)
    return;
  info_argv[1] = dump_argv[1] = path;
  g_assert_cmpint (tress_test_run_cli (info_argv, &out, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "Model Bass: 6 bones, 2 shapes, 2 materials, 2 vertex buffers"));
  g_assert_nonnull (strstr (out, "Bone 3 Spine_1, child of Skl_Root"));
  g_assert_nonnull (strstr (out, "Shape Model__Mt_Eye: material Mt_Eye, 36 vertices, 16 triangles, "
                                 "smooth skinning"));
  g_assert_nonnull (strstr (out, "Shape Root__Mt_Body: material Mt_Body, 494 vertices, 410 "
                                 "triangles, follows bone Root"));
  g_assert_cmpint (tress_test_run_cli (dump_argv, &dump, NULL), ==, 0);
  json_parser_load_from_data (parser, dump, -1, &error);
  g_assert_no_error (error);
  model = json_array_get_object_element (
      json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "models"),
      0);
  g_assert_cmpstr (json_object_get_string_member (model, "name"), ==, "Bass");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (
                        json_object_get_object_member (model, "skeleton"), "bones")),
                    ==, 6);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (model, "shapes")), ==, 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bfres/model/samples", test_samples);
  g_test_add_func ("/bfres/model/bind-check", test_bind_check);
  g_test_add_func ("/bfres/model/pose-by-hand", test_pose_by_hand);
  g_test_add_func ("/bfres/model/animator", test_animator);
  g_test_add_func ("/bfres/model/rotations", test_rotations);
  g_test_add_func ("/bfres/model/scaling-modes", test_scaling_modes);
  g_test_add_func ("/bfres/model/visibility", test_visibility);
  g_test_add_func ("/bfres/model/truncations", test_truncations);
  g_test_add_func ("/bfres/model/corruptions", test_corruptions);
  g_test_add_func ("/bfres/model/builder", test_builder);
  g_test_add_func ("/bfres/model/visibility-listed-first", test_visibility_listed_first);
  g_test_add_func ("/bfres/model/one-joint-per-matrix", test_one_joint_per_matrix);
  g_test_add_func ("/bfres/model/skin-bones", test_skin_bones);
  g_test_add_func ("/bfres/model/anim-names", test_anim_names);
  g_test_add_func ("/bfres/model/anim-null-entry", test_anim_null_entry);
  g_test_add_func ("/bfres/model/find-sibling", test_find_sibling);
  g_test_add_func ("/bfres/model/find-in-archive", test_find_in_archive);
  g_test_add_func ("/bfres/model/cli", test_cli);
  return g_test_run ();
}
