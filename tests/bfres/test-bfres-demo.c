/* test-bfres-demo.c: the demo file's figure, and the preview moving it
 *
 * The demo carries a model whose skeleton holds every bone its "Wave"
 * animation moves, in a bind pose that passes the bind check; the body is
 * skinned to two bones per vertex, the weights blended over the shoulders and
 * the neck; the preview finds the model in the file itself. Posed as the
 * preview poses it, the mesh moves: the whole figure bobs with Root, the
 * hands go up and down, a vertex between shoulder and arm lands between
 * where each of its two bones would put it, and the eyes turn with the head.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "formats/bfres/tress-bfres-builder.h"
#include "formats/bfres/tress-bfres-scene.h"
#include "tress-test-utils.h"

typedef struct
{
  TressBfres *anims;
  GBytes *fres;
  TressSceneAnimator *animator;
  guint wave; /* the animator's number of "Wave" */
} Demo;

static double
sample (gpointer data, guint curve, double frame)
{
  return tress_bfres_evaluate (data, curve, frame);
}

static void
demo_open (Demo *d)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = tress_bfres_build_demo (&error);
  g_autofree char *source = NULL;
  gboolean found = FALSE;

  g_assert_no_error (error);
  d->anims = tress_bfres_parse (bytes, "demo.bfres", &error);
  g_assert_no_error (error);
  /* The file's own model, as the preview finds it (a document not on disk). */
  d->fres = tress_bfres_find_model (d->anims, NULL, &source, &error);
  g_assert_no_error (error);
  g_assert_nonnull (d->fres);
  g_assert_cmpstr (source, ==, "this file");
  d->animator = tress_bfres_animator_new (d->anims, d->fres, source, &error);
  g_assert_no_error (error);
  for (guint a = 0; a < d->animator->n_anims; a++)
    if (g_strcmp0 (d->animator->anim_names[a], "Wave") == 0)
      {
        d->wave = a;
        found = TRUE;
      }
  g_assert_true (found);
}

static void
demo_close (Demo *d)
{
  tress_scene_animator_free (d->animator);
  g_bytes_unref (d->fres);
  tress_bfres_free (d->anims);
}

static int
bone_index (const TressBfresSkeleton *sk, const char *name)
{
  for (guint i = 0; i < sk->n_bones; i++)
    if (g_strcmp0 (sk->bones[i].name, name) == 0)
      return (int)i;
  return -1;
}

static const TressBfresShape *
shape_named (const TressBfresModel *m, const char *name)
{
  for (guint i = 0; i < m->n_shapes; i++)
    if (g_strcmp0 (m->shapes[i].name, name) == 0)
      return &m->shapes[i];
  g_assert_not_reached ();
}

/* The weight vertex @v of @s gives bone @bone (0 when it names it not). */
static double
weight_of (const TressBfresSkeleton *sk, const TressBfresShape *s, const TressBfresVertexBuffer *vb,
           guint v, int bone)
{
  double w = 0;

  for (guint k = 0; k < s->skin_count; k++)
    if ((int)sk->matrix_to_bone[vb->skin_indices[4 * v + k]] == bone)
      w += vb->skin_weights[4 * v + k];
  return w;
}

static void
test_model (void)
{
  static const char *const waved[] = { "Root", "Arm_L", "Arm_R", "Head" };
  Demo d = { 0 };
  const TressBfresModel *m;
  const TressBfresSkeleton *sk;
  const TressBfresShape *body;
  const TressBfresVertexBuffer *vb;
  g_autoptr (GPtrArray) problems = NULL;
  int root, head, arm[2];
  guint blended[3] = { 0 };

  demo_open (&d);
  m = tress_bfres_animator_get_model (d.animator);
  sk = &m->skeleton;
  g_assert_cmpstr (m->name, ==, "Demo");
  /* Every bone Wave moves, under Root; nothing it moves is missing. */
  for (guint i = 0; i < G_N_ELEMENTS (waved); i++)
    {
      int b = bone_index (sk, waved[i]);

      g_assert_cmpint (b, >=, 0);
      g_assert_cmpint (sk->bones[b].parent, ==, i == 0 ? -1 : bone_index (sk, "Root"));
    }
  g_assert_null (d.animator->anim_notes[d.wave]);
  g_assert_cmpint (sk->bones[bone_index (sk, "Eyelid")].parent, ==, bone_index (sk, "Head"));
  /* A sensible bind pose: the arms from the shoulders, the head above them,
   * and inverse matrices that undo it. */
  root = bone_index (sk, "Root");
  head = bone_index (sk, "Head");
  arm[0] = bone_index (sk, "Arm_L");
  arm[1] = bone_index (sk, "Arm_R");
  g_assert_cmpfloat (sk->bones[arm[0]].translation[0], >, 0.2);
  g_assert_cmpfloat (sk->bones[arm[1]].translation[0], <, -0.2);
  g_assert_cmpfloat (sk->bones[head].translation[1], >, sk->bones[arm[0]].translation[1]);
  problems = tress_bfres_check_bind (m, 0);
  g_assert_cmpuint (problems->len, ==, 0);

  /* The body: two bones a vertex, the weights blended over the joints. */
  body = shape_named (m, "Body");
  g_assert_cmpuint (body->skin_count, ==, 2);
  vb = &m->vertex_buffers[body->vertex_buffer];
  g_assert_cmpuint (vb->n_vertices, >, 500);
  for (guint v = 0; v < vb->n_vertices; v++)
    {
      double wr = weight_of (sk, body, vb, v, root);

      g_assert_cmpfloat_with_epsilon (wr + weight_of (sk, body, vb, v, arm[0])
                                          + weight_of (sk, body, vb, v, arm[1])
                                          + weight_of (sk, body, vb, v, head),
                                      1, 0.01);
      for (guint j = 0; j < 3; j++)
        {
          int other = j < 2 ? arm[j] : head;
          double wo = weight_of (sk, body, vb, v, other);

          if (wr > 0.2 && wr < 0.8 && wo > 0.2 && wo < 0.8)
            blended[j]++;
        }
    }
  for (guint j = 0; j < 3; j++)
    g_assert_cmpuint (blended[j], >=, 12);
  /* The eyes follow the Eyelid bone (Blink hides them), the nose the head. */
  g_assert_cmpuint (shape_named (m, "Eyes")->skin_count, ==, 0);
  g_assert_cmpint (shape_named (m, "Eyes")->bone, ==, bone_index (sk, "Eyelid"));
  g_assert_cmpint (shape_named (m, "Nose")->bone, ==, head);
  demo_close (&d);
}

static void
pose (Demo *d, double frame)
{
  tress_scene_animator_pose (d->animator, &d->wave, 1, frame, sample, d->anims);
}

static int
mesh_index (TressScene *scene, const char *name)
{
  for (guint i = 0; i < scene->meshes->len; i++)
    if (g_strcmp0 (tress_scene_get_mesh (scene, i)->name, name) == 0)
      return (int)i;
  g_assert_not_reached ();
}

/* The mean of the mesh's vertices as posed. */
static void
centroid (TressScene *scene, TressSceneMesh *mesh, float c[3])
{
  c[0] = c[1] = c[2] = 0;
  for (guint v = 0; v < mesh->n_vertices; v++)
    {
      float p[3];

      tress_scene_vertex_position (scene, mesh, v, p);
      for (guint k = 0; k < 3; k++)
        c[k] += p[k] / mesh->n_vertices;
    }
}

static void
test_pose_moves_mesh (void)
{
  Demo d = { 0 };
  TressScene *scene;
  TressSceneMesh *body, *eyes;
  guint tip = 0, torso = 0, shoulder = G_MAXUINT;
  float rest[3], at15[3], at45[3], p[3], eyes_a[3], eyes_b[3];
  int root_joint = -1, arm_joint = -1;

  demo_open (&d);
  scene = d.animator->scene;
  body = tress_scene_get_mesh (scene, mesh_index (scene, "Body"));
  eyes = tress_scene_get_mesh (scene, mesh_index (scene, "Eyes"));

  /* The rest pose puts every vertex where the file stores it. */
  tress_scene_animator_pose (d.animator, NULL, 0, 0, sample, d.anims);
  for (guint v = 0; v < body->n_vertices; v++)
    {
      tress_scene_vertex_position (scene, body, v, p);
      for (guint k = 0; k < 3; k++)
        g_assert_cmpfloat (fabs (p[k] - body->positions[3 * v + k]), <, 1e-4);
      if (body->positions[3 * v] > body->positions[3 * tip])
        tip = v; /* the left hand's tip */
      if (body->positions[3 * v + 1] < body->positions[3 * torso + 1])
        torso = v; /* the lowest: a foot, on Root alone */
      /* A vertex weighed between Root and the left arm. */
      if (shoulder == G_MAXUINT && body->weights[4 * v] > 0.2 && body->weights[4 * v] < 0.8
          && body->weights[4 * v + 1] > 0.2
          && tress_scene_get_joint (scene, body->joints[4 * v + 1])->node
                 == tress_scene_find_node (scene, "Arm_L"))
        shoulder = v;
    }
  g_assert_cmpuint (shoulder, !=, G_MAXUINT);
  tress_scene_vertex_position (scene, body, tip, rest);

  /* Frame 15: Root up by half a unit, both arms up (Rotate Z ±1.2). */
  pose (&d, 15);
  tress_scene_vertex_position (scene, body, tip, at15);
  g_assert_cmpfloat (at15[1] - rest[1], >, 1.2);
  g_assert_cmpfloat (at15[0], <, rest[0] - 0.3);
  tress_scene_vertex_position (scene, body, torso, p);
  g_assert_cmpfloat (fabs (p[1] - body->positions[3 * torso + 1] - 0.5), <, 1e-3);
  g_assert_cmpfloat (fabs (p[0] - body->positions[3 * torso]), <, 1e-3);
  /* The blended vertex lands between where each of its bones would put it. */
  for (guint k = 0; k < 2; k++)
    {
      int j = body->joints[4 * shoulder + k];

      if (tress_scene_get_joint (scene, j)->node == tress_scene_find_node (scene, "Root"))
        root_joint = j;
      if (tress_scene_get_joint (scene, j)->node == tress_scene_find_node (scene, "Arm_L"))
        arm_joint = j;
    }
  g_assert_cmpint (root_joint, >=, 0);
  g_assert_cmpint (arm_joint, >=, 0);
  {
    graphene_matrix_t m;
    graphene_point3d_t rest_p, by_root, by_arm;
    float blended[3];
    double to_root = 0, to_arm = 0, between = 0;

    graphene_point3d_init (&rest_p, body->positions[3 * shoulder],
                           body->positions[3 * shoulder + 1], body->positions[3 * shoulder + 2]);
    tress_scene_joint_matrix (scene, (guint)root_joint, &m);
    graphene_matrix_transform_point3d (&m, &rest_p, &by_root);
    tress_scene_joint_matrix (scene, (guint)arm_joint, &m);
    graphene_matrix_transform_point3d (&m, &rest_p, &by_arm);
    tress_scene_vertex_position (scene, body, shoulder, blended);
    to_root = graphene_point3d_distance (
        &(graphene_point3d_t){ blended[0], blended[1], blended[2] }, &by_root, NULL);
    to_arm = graphene_point3d_distance (&(graphene_point3d_t){ blended[0], blended[1], blended[2] },
                                        &by_arm, NULL);
    between = graphene_point3d_distance (&by_root, &by_arm, NULL);
    g_assert_cmpfloat (between, >, 0.05);
    g_assert_cmpfloat (to_root, >, 0.2 * between);
    g_assert_cmpfloat (to_arm, >, 0.2 * between);
    g_assert_cmpfloat (to_root + to_arm, <, 1.01 * between);
  }

  /* Frame 45: everything the other way, the hands below where they rest. */
  pose (&d, 45);
  tress_scene_vertex_position (scene, body, tip, at45);
  g_assert_cmpfloat (at45[1] - rest[1], <, -1.2);

  /* The head turns (Rotate Y ±0.4 at frames 7.5 and 37.5): the eyes with it. */
  pose (&d, 7.5);
  centroid (scene, eyes, eyes_a);
  pose (&d, 37.5);
  centroid (scene, eyes, eyes_b);
  g_assert_cmpfloat (eyes_a[0] - eyes_b[0], >, 0.15);
  demo_close (&d);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bfres/demo/model", test_model);
  g_test_add_func ("/bfres/demo/pose-moves-mesh", test_pose_moves_mesh);
  return g_test_run ();
}
