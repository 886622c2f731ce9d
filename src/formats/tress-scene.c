/* tress-scene.c: what the 3D preview draws, whatever the format
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-scene.h"

#include <string.h>

static void
node_clear (gpointer p)
{
  TressSceneNode *n = p;

  g_free (n->name);
}

static void
mesh_free (gpointer p)
{
  TressSceneMesh *m = p;

  g_free (m->name);
  g_free (m->positions);
  g_free (m->normals);
  g_free (m->colours);
  g_free (m->triangles);
  g_free (m->joints);
  g_free (m->weights);
  g_free (m);
}

TressScene *
tress_scene_new (const char *name)
{
  TressScene *scene = g_new0 (TressScene, 1);

  scene->name = g_strdup (name);
  scene->nodes = g_array_new (FALSE, TRUE, sizeof (TressSceneNode));
  g_array_set_clear_func (scene->nodes, node_clear);
  scene->joints = g_array_new (FALSE, TRUE, sizeof (TressSceneJoint));
  scene->meshes = g_ptr_array_new_with_free_func (mesh_free);
  return scene;
}

void
tress_scene_free (TressScene *scene)
{
  if (scene == NULL)
    return;
  g_array_unref (scene->nodes);
  g_array_unref (scene->joints);
  g_ptr_array_unref (scene->meshes);
  g_free (scene->name);
  g_free (scene);
}

guint
tress_scene_add_node (TressScene *scene, const char *name, int parent, guint32 id)
{
  TressSceneNode n = { 0 };

  n.name = g_strdup (name);
  n.parent = parent;
  n.id = id;
  n.visible = TRUE;
  graphene_matrix_init_identity (&n.world);
  g_array_append_val (scene->nodes, n);
  return scene->nodes->len - 1;
}

guint
tress_scene_add_joint (TressScene *scene, int node, const graphene_matrix_t *inverse_bind)
{
  TressSceneJoint j;

  j.node = node;
  j.inverse_bind = *inverse_bind;
  g_array_append_val (scene->joints, j);
  return scene->joints->len - 1;
}

TressSceneMesh *
tress_scene_add_mesh (TressScene *scene, const char *name, guint n_vertices, guint n_triangles,
                      gboolean normals, gboolean colours, gboolean skinned)
{
  TressSceneMesh *m = g_new0 (TressSceneMesh, 1);

  m->name = g_strdup (name);
  m->n_vertices = n_vertices;
  m->n_triangles = n_triangles;
  m->positions = g_new0 (float, 3 * (gsize)n_vertices + 1);
  if (normals)
    m->normals = g_new0 (float, 3 * (gsize)n_vertices + 1);
  if (colours)
    m->colours = g_new0 (guint8, 4 * (gsize)n_vertices + 1);
  m->triangles = g_new0 (guint32, 3 * (gsize)n_triangles + 1);
  if (skinned)
    {
      m->joints = g_new0 (guint16, TRESS_SCENE_MAX_INFLUENCES * (gsize)n_vertices + 1);
      m->weights = g_new0 (float, TRESS_SCENE_MAX_INFLUENCES *(gsize)n_vertices + 1);
    }
  m->colour[0] = m->colour[1] = m->colour[2] = 0.8f;
  m->colour[3] = 1;
  m->node = -1;
  m->visible = TRUE;
  g_ptr_array_add (scene->meshes, m);
  scene->geometry_serial++;
  return m;
}

int
tress_scene_find_node (const TressScene *scene, const char *name)
{
  for (guint i = 0; i < scene->nodes->len; i++)
    if (g_strcmp0 (tress_scene_get_node (scene, i)->name, name) == 0)
      return (int)i;
  return -1;
}

/* 0: not yet, 1: in progress, 2: done. */
static void
compose (TressScene *scene, const graphene_matrix_t *locals, guint8 *state, guint i)
{
  TressSceneNode *n = tress_scene_get_node (scene, i);
  int p = n->parent;

  state[i] = 1;
  if (p >= 0 && (guint)p < scene->nodes->len && state[p] != 1)
    {
      if (state[p] == 0)
        compose (scene, locals, state, (guint)p);
      graphene_matrix_multiply (&locals[i], &tress_scene_get_node (scene, (guint)p)->world,
                                &n->world);
    }
  else
    n->world = locals[i];
  state[i] = 2;
}

void
tress_scene_set_local_matrices (TressScene *scene, const graphene_matrix_t *locals)
{
  g_autofree guint8 *state = g_new0 (guint8, scene->nodes->len + 1);

  for (guint i = 0; i < scene->nodes->len; i++)
    if (state[i] == 0)
      compose (scene, locals, state, i);
  scene->pose_serial++;
}

void
tress_scene_show_all (TressScene *scene)
{
  for (guint i = 0; i < scene->nodes->len; i++)
    tress_scene_get_node (scene, i)->visible = TRUE;
  for (guint i = 0; i < scene->meshes->len; i++)
    tress_scene_get_mesh (scene, i)->visible = TRUE;
}

void
tress_scene_joint_matrix (const TressScene *scene, guint j, graphene_matrix_t *out)
{
  const TressSceneJoint *joint = tress_scene_get_joint (scene, j);

  if (joint->node < 0 || (guint)joint->node >= scene->nodes->len)
    {
      *out = joint->inverse_bind;
      return;
    }
  graphene_matrix_multiply (&joint->inverse_bind,
                            &tress_scene_get_node (scene, (guint)joint->node)->world, out);
}

static void
transform_point (const graphene_matrix_t *m, const float p[3], float out[3])
{
  graphene_point3d_t in, res;

  graphene_point3d_init (&in, p[0], p[1], p[2]);
  graphene_matrix_transform_point3d (m, &in, &res);
  out[0] = res.x;
  out[1] = res.y;
  out[2] = res.z;
}

void
tress_scene_vertex_position (const TressScene *scene, const TressSceneMesh *mesh, guint v,
                             float out[3])
{
  const float *p = mesh->positions + 3 * (gsize)v;

  if (mesh->joints != NULL)
    {
      float sum[3] = { 0, 0, 0 }, total = 0;

      for (guint k = 0; k < TRESS_SCENE_MAX_INFLUENCES; k++)
        {
          float w = mesh->weights[TRESS_SCENE_MAX_INFLUENCES * (gsize)v + k];
          guint j = mesh->joints[TRESS_SCENE_MAX_INFLUENCES * (gsize)v + k];
          graphene_matrix_t m;
          float q[3];

          if (w == 0 || j >= scene->joints->len)
            continue;
          tress_scene_joint_matrix (scene, j, &m);
          transform_point (&m, p, q);
          for (guint c = 0; c < 3; c++)
            sum[c] += w * q[c];
          total += w;
        }
      if (total > 0)
        {
          for (guint c = 0; c < 3; c++)
            out[c] = sum[c] / total;
          return;
        }
      memcpy (out, p, 3 * sizeof (float));
      return;
    }
  if (mesh->node >= 0 && (guint)mesh->node < scene->nodes->len)
    transform_point (&tress_scene_get_node (scene, (guint)mesh->node)->world, p, out);
  else
    memcpy (out, p, 3 * sizeof (float));
}

void
tress_scene_node_position (const TressScene *scene, guint n, float out[3])
{
  const graphene_matrix_t *w = &tress_scene_get_node (scene, n)->world;

  out[0] = graphene_matrix_get_value (w, 3, 0);
  out[1] = graphene_matrix_get_value (w, 3, 1);
  out[2] = graphene_matrix_get_value (w, 3, 2);
}

static void
grow (float lo[3], float hi[3], const float p[3])
{
  for (guint c = 0; c < 3; c++)
    {
      lo[c] = MIN (lo[c], p[c]);
      hi[c] = MAX (hi[c], p[c]);
    }
}

gboolean
tress_scene_bounds (const TressScene *scene, float lo[3], float hi[3])
{
  gboolean any = FALSE;
  float p[3];

  lo[0] = lo[1] = lo[2] = G_MAXFLOAT;
  hi[0] = hi[1] = hi[2] = -G_MAXFLOAT;
  for (guint i = 0; i < scene->meshes->len; i++)
    {
      const TressSceneMesh *m = tress_scene_get_mesh (scene, i);

      if (!m->visible)
        continue;
      for (guint v = 0; v < m->n_vertices; v++)
        {
          tress_scene_vertex_position (scene, m, v, p);
          grow (lo, hi, p);
          any = TRUE;
        }
    }
  for (guint i = 0; i < scene->nodes->len; i++)
    if (tress_scene_get_node (scene, i)->visible)
      {
        tress_scene_node_position (scene, i, p);
        grow (lo, hi, p);
        any = TRUE;
      }
  return any;
}

/* ---- animators ------------------------------------------------------------ */

void
tress_scene_animator_init (TressSceneAnimator *animator, const TressSceneAnimatorClass *klass,
                           TressScene *scene, const char *source, guint n_curves, guint n_anims)
{
  animator->klass = klass;
  animator->scene = scene;
  animator->source = g_strdup (source);
  animator->n_curves = n_curves;
  animator->curve_anim = g_new (int, n_curves + 1);
  animator->curve_node = g_new (int, n_curves + 1);
  for (guint i = 0; i < n_curves; i++)
    animator->curve_anim[i] = animator->curve_node[i] = -1;
  animator->n_anims = n_anims;
  animator->anim_names = g_new0 (char *, n_anims + 1);
  animator->anim_frames = g_new0 (double, n_anims + 1);
  animator->anim_fps = g_new0 (double, n_anims + 1);
  animator->anim_notes = g_new0 (char *, n_anims + 1);
}

void
tress_scene_animator_clear (TressSceneAnimator *animator)
{
  g_clear_pointer (&animator->scene, tress_scene_free);
  g_clear_pointer (&animator->source, g_free);
  g_clear_pointer (&animator->curve_anim, g_free);
  g_clear_pointer (&animator->curve_node, g_free);
  for (guint i = 0; i < animator->n_anims; i++)
    {
      g_free (animator->anim_names[i]);
      g_free (animator->anim_notes[i]);
    }
  g_clear_pointer (&animator->anim_names, g_free);
  g_clear_pointer (&animator->anim_notes, g_free);
  g_clear_pointer (&animator->anim_frames, g_free);
  g_clear_pointer (&animator->anim_fps, g_free);
  animator->n_anims = animator->n_curves = 0;
}

void
tress_scene_animator_free (TressSceneAnimator *animator)
{
  if (animator != NULL)
    animator->klass->free (animator);
}

void
tress_scene_animator_pose (TressSceneAnimator *animator, const guint *anims, guint n_anims,
                           double frame, TressSceneSampleFunc sample, gpointer user_data)
{
  animator->klass->pose (animator, anims, n_anims, frame, sample, user_data);
}

void
tress_scene_animator_node_curves (const TressSceneAnimator *animator, int anim, guint node,
                                  GArray *out)
{
  for (guint i = 0; i < animator->n_curves; i++)
    if (animator->curve_node[i] == (int)node && (anim < 0 || animator->curve_anim[i] == anim))
      g_array_append_val (out, i);
}
