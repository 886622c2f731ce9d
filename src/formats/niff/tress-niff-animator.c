/* tress-niff-animator.c: NIFF scenes in the 3D preview
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-niff-animator.h"

#include <math.h>
#include <string.h>

#include "tress-niff-private.h"

#define NONE TRESS_NIFF_NONE

typedef struct
{
  TressSceneAnimator parent;
  TressNiffFile *file; /* not owned */
  TressNiffScene *niff;
  TressNiffPose *pose;
  guint first_chain_root, first_joint, first_effector; /* their first scene nodes */

  /* A pose gizmo's values, played in place of their curves'. */
  GArray *override_curves; /* guint */
  GArray *override_values; /* double */

  /* Whether the last pose played the animation (for a repose). */
  gboolean animated;

  /* While posing. */
  TressSceneSampleFunc sample;
  gpointer sample_data;
} NiffAnimator;

/* ---- posing ---- */

/* Only curves whose records or channel hold keys in the file are sampled: an
 * empty channel keeps the rest the records give. */
static gboolean
curve_has_keys (const TressNiffFile *file, guint curve)
{
  const TressNiffCurveRef *ref;
  const TressNiffGroup *g;

  if (curve >= file->curve_refs->len)
    return FALSE;
  ref = &g_array_index (file->curve_refs, TressNiffCurveRef, curve);
  g = g_ptr_array_index (file->groups, ref->group);
  if (ref->source == NIFF_CURVE_CHANNEL)
    return g->channels[ref->channel]->len > 0;
  return g->records->len > 0;
}

static gboolean
sample_curve (gpointer data, guint curve, double frame, double *value)
{
  NiffAnimator *self = data;

  if (!curve_has_keys (self->file, curve))
    return FALSE;
  for (guint i = 0; i < self->override_curves->len; i++)
    if (g_array_index (self->override_curves, guint, i) == curve)
      {
        *value = g_array_index (self->override_values, double, i);
        return TRUE;
      }
  *value = self->sample (self->sample_data, curve, frame);
  return isfinite (*value);
}

static void set_ik_worlds (NiffAnimator *self);

static void
niff_animator_pose (TressSceneAnimator *animator, const guint *anims, guint n_anims, double frame,
                    TressSceneSampleFunc sample, gpointer user_data)
{
  NiffAnimator *self = (NiffAnimator *)animator;
  TressScene *scene = animator->scene;
  TressNiffPose *pose = self->pose;
  gboolean animated = n_anims > 0 && anims[0] == 0 && sample != NULL;

  self->sample = sample;
  self->sample_data = user_data;
  self->animated = animated;
  tress_niff_pose_evaluate (pose, self->niff, self->file, animated ? frame : 0,
                            animated ? sample_curve : NULL, self);
  for (guint32 i = 0; i < pose->n_objects; i++)
    tress_scene_get_node (scene, i)->world = pose->world[i];
  set_ik_worlds (self);
  scene->pose_serial++;
  self->sample = NULL;
  self->sample_data = NULL;
}

static void
set_ik_worlds (NiffAnimator *self)
{
  TressScene *scene = self->parent.scene;
  TressNiffPose *pose = self->pose;

  for (guint32 i = 0; i < pose->n_chain_roots; i++)
    tress_scene_get_node (scene, self->first_chain_root + i)->world = pose->chain_roots[i];
  for (guint32 i = 0; i < pose->n_joints; i++)
    tress_scene_get_node (scene, self->first_joint + i)->world = pose->joints[i];
  for (guint32 i = 0; i < pose->n_effectors; i++)
    tress_scene_get_node (scene, self->first_effector + i)->world = pose->effectors[i];
}

static void
niff_animator_free (TressSceneAnimator *animator)
{
  NiffAnimator *self = (NiffAnimator *)animator;

  tress_niff_pose_free (self->pose);
  tress_niff_scene_free (self->niff);
  g_array_unref (self->override_curves);
  g_array_unref (self->override_values);
  tress_scene_animator_clear (animator);
  g_free (self);
}

static const TressSceneAnimatorClass niff_animator_class = {
  niff_animator_pose,
  niff_animator_free,
};

gboolean
tress_niff_animator_repose (TressSceneAnimator *animator, int node, TressSceneSampleFunc sample,
                            gpointer user_data)
{
  NiffAnimator *self = (NiffAnimator *)animator;
  TressNiffPose *pose;

  g_return_val_if_fail (animator != NULL && animator->klass == &niff_animator_class, FALSE);
  pose = self->pose;
  if (!self->animated || node < 0 || (guint32)node >= pose->n_objects)
    return FALSE;
  self->sample = sample;
  self->sample_data = user_data;
  tress_niff_pose_update_object (pose, self->niff, self->file, (guint32)node, sample_curve, self);
  for (guint32 i = 0; i < pose->n_objects; i++)
    if (pose->below[i])
      tress_scene_get_node (animator->scene, i)->world = pose->world[i];
  set_ik_worlds (self);
  animator->scene->pose_serial++;
  self->sample = NULL;
  self->sample_data = NULL;
  return TRUE;
}

void
tress_niff_animator_set_override (TressSceneAnimator *animator, guint n, const guint *curves,
                                  const double *values)
{
  NiffAnimator *self = (NiffAnimator *)animator;

  g_return_if_fail (animator != NULL && animator->klass == &niff_animator_class);
  g_array_set_size (self->override_curves, 0);
  g_array_set_size (self->override_values, 0);
  if (n > 0)
    {
      g_array_append_vals (self->override_curves, curves, n);
      g_array_append_vals (self->override_values, values, n);
    }
}

const TressNiffScene *
tress_niff_animator_get_niff_scene (const TressSceneAnimator *animator)
{
  if (animator == NULL || animator->klass != &niff_animator_class)
    return NULL;
  return ((const NiffAnimator *)animator)->niff;
}

/* ---- colours ---- */

static const float white[4] = { 1, 1, 1, 1 };
static const float grey[4] = { 0.75f, 0.75f, 0.75f, 1 };

/* One input of the N64 colour combiner (spec chapter 4, MAT_CC_N64_*);
 * textures (and the environment colour) are left out: 1 where they
 * multiply (@multiplies), 0 where they add. */
static void
combiner_input (guint8 code, gboolean multiplies, const float prim[4], const float shade[4],
                float out[3])
{
  const float *src;
  float k;

  switch (code)
    {
    case 0x03: /* primitive */
      src = prim;
      break;
    case 0x04: /* shade */
      src = shade;
      break;
    case 0x01: /* textures, environment */
    case 0x02:
    case 0x05:
      k = multiplies ? 1 : 0;
      goto constant;
    case 0x06: /* alphas and LOD fractions as factors: opaque */
    case 0x07:
    case 0x08:
    case 0x09:
    case 0x0a:
    case 0x0b:
    case 0x0c:
    case 0x0d:
    case 0x0e: /* one */
      k = 1;
      goto constant;
    case 0x12: /* noise */
      k = 0.5f;
      goto constant;
    default: /* zero, combined (none in the first cycle), keys, K4, K5 */
      k = 0;
      goto constant;
    }
  memcpy (out, src, 3 * sizeof (float));
  return;
constant:
  out[0] = out[1] = out[2] = k;
}

void
tress_niff_corner_colour (const TressNiffScene *s, guint32 mat, const float *tri, const float *vtx,
                          float out[4])
{
  float rgba[4] = { 1, 1, 1, 1 };

  if (mat == NONE)
    memcpy (rgba, tri != NULL ? tri : vtx != NULL ? vtx : grey, sizeof rgba);
  else
    {
      const TressNiffMat *m = &s->mats[mat];
      gboolean lit = (m->shade & TRESS_NIFF_SHADE_LIGHT_MASK) != 0;
      const float *shade = lit ? (m->has_ext ? m->diffuse : m->prim)
                               : (vtx != NULL   ? vtx
                                  : tri != NULL ? tri
                                                : m->prim);
      guint32 ct = m->color_type[0];

      if (m->type == TRESS_NIFF_MAT_TYPE_N64 && ct != NONE)
        {
          float a[3], b[3], c[3], d[3];
          combiner_input (ct >> 24, TRUE, m->prim, shade, a);
          combiner_input ((ct >> 16) & 0xFF, FALSE, m->prim, shade, b);
          combiner_input ((ct >> 8) & 0xFF, TRUE, m->prim, shade, c);
          combiner_input (ct & 0xFF, FALSE, m->prim, shade, d);
          for (guint k = 0; k < 3; k++)
            rgba[k] = (a[k] - b[k]) * c[k] + d[k];
        }
      else if (ct != NONE && (ct & 0x7))
        {
          /* NIFF type: the named sources multiplied. */
          const float *src[3]
              = { (ct & 1) ? (vtx != NULL ? vtx : white) : white,
                  (ct & 2) ? (tri != NULL ? tri : white) : white, (ct & 4) ? m->prim : white };
          for (guint k = 0; k < 3; k++)
            rgba[k] = src[0][k] * src[1][k] * src[2][k];
        }
      else
        memcpy (rgba, m->has_ext ? m->diffuse : m->prim, 3 * sizeof (float));
    }
  for (guint k = 0; k < 4; k++)
    out[k] = CLAMP (k < 3 ? rgba[k] : 1.0f, 0.0f, 1.0f);
}

/* tress_niff_corner_colour as the renderer takes it. */
static void
corner_colour (const TressNiffScene *s, guint32 mat, const float *tri, const float *vtx,
               guint8 out[4])
{
  float rgba[4];

  tress_niff_corner_colour (s, mat, tri, vtx, rgba);
  for (guint k = 0; k < 4; k++)
    out[k] = (guint8)lrintf (rgba[k] * 255);
}

static const float *
group_item (const TressNiffFloatGroup *groups, guint32 n_groups, guint32 group, guint32 item,
            guint width)
{
  if (group == NONE || group >= n_groups || item == NONE || item >= groups[group].n)
    return NULL;
  return groups[group].v + (gsize)width * item;
}

static guint32
first_group (const TressNiffRefTable *t)
{
  return t->n > 0 ? t->group[0] : NONE;
}

/* ---- meshes ---- */

gboolean
tress_niff_mat_smooth (const TressNiffScene *s, guint32 mat, gboolean has_normals)
{
  if (mat == NONE)
    return has_normals;
  return (s->mats[mat].shade & TRESS_NIFF_SHADE_SMOOTH) != 0;
}

static void
face_normal (const float *a, const float *b, const float *c, float n[3])
{
  float u[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
  float v[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
  float len;

  n[0] = u[1] * v[2] - u[2] * v[1];
  n[1] = u[2] * v[0] - u[0] * v[2];
  n[2] = u[0] * v[1] - u[1] * v[0];
  len = sqrtf (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (guint k = 0; k < 3; k++)
    n[k] = len > 0 ? n[k] / len : (k == 2);
}

/* One mesh per shading of a TriGroup shape, following object @obj's node. */
static void
add_tri_meshes (TressScene *scene, const TressNiffScene *s, guint32 obj, guint32 shape_index)
{
  const TressNiffSceneShape *shape = &s->shapes[shape_index];
  const TressNiffTriGroup *tg = &s->tri_groups[shape->geometry];
  guint32 vg = first_group (&tg->refs[TRESS_NIFF_REF_VTX]);
  guint32 ng = first_group (&tg->refs[TRESS_NIFF_REF_VTX_NV]);
  guint32 tng = first_group (&tg->refs[TRESS_NIFF_REF_TRI_NV]);
  guint32 cg = first_group (&tg->refs[TRESS_NIFF_REF_VTX_COLOR]);
  guint32 tcg = first_group (&tg->refs[TRESS_NIFF_REF_TRI_COLOR]);
  g_autofree guint32 *mats = NULL;
  guint counts[2] = { 0, 0 };

  if (vg == NONE || tg->n_tris == 0)
    return;
  mats = g_new (guint32, tg->n_tris);
  for (guint32 t = 0; t < tg->n_tris; t++)
    {
      mats[t] = tress_niff_scene_tri_mat (s, obj, shape_index, t);
      counts[tress_niff_mat_smooth (s, mats[t], ng != NONE)]++;
    }
  for (guint smooth = 0; smooth < 2; smooth++)
    {
      g_autofree char *name = NULL;
      TressSceneMesh *mesh;
      guint n = 0;

      if (counts[smooth] == 0)
        continue;
      name = g_strdup (shape->name != NULL ? shape->name : "shape");
      mesh = tress_scene_add_mesh (scene, name, 3 * counts[smooth], counts[smooth], smooth, TRUE,
                                   FALSE);
      mesh->node = (int)obj;
      mesh->id = shape_index;
      for (guint32 t = 0; t < tg->n_tris; t++)
        {
          const TressNiffTri *tri = &tg->tris[t];
          const float *tri_rgba
              = group_item (s->tri_colors, s->n_tri_colors, tcg, tri->tri_color, 4);
          const float *p[3];
          float fn[3];

          if ((guint)tress_niff_mat_smooth (s, mats[t], ng != NONE) != smooth)
            continue;
          for (guint c = 0; c < 3; c++)
            p[c] = s->vtx[vg].v + 3 * (gsize)tri->vtx[c];
          face_normal (p[0], p[1], p[2], fn);
          for (guint c = 0; c < 3; c++)
            {
              guint v = 3 * n + c;
              const float *nv = group_item (s->vtx_nvs, s->n_vtx_nvs, ng, tri->vtx_nv[c], 3);
              const float *tn = group_item (s->tri_nvs, s->n_tri_nvs, tng, tri->tri_nv, 3);

              memcpy (mesh->positions + 3 * v, p[c], 3 * sizeof (float));
              if (smooth)
                memcpy (mesh->normals + 3 * v,
                        nv != NULL   ? nv
                        : tn != NULL ? tn
                                     : fn,
                        3 * sizeof (float));
              corner_colour (s, mats[t], tri_rgba,
                             group_item (s->vtx_colors, s->n_vtx_colors, cg, tri->vtx_color[c], 4),
                             mesh->colours + 4 * v);
              mesh->triangles[v] = v;
            }
          n++;
        }
    }
}

/* The scene node of an envelope part's node, or −1. */
static int
ref_node (const NiffAnimator *self, const TressNiffNodeRef *r)
{
  switch (r->kind)
    {
    case TRESS_NIFF_TAG_OBJ_LIST:
      return (int)r->index;
    case TRESS_NIFF_TAG_CHAIN_ROOT_LIST:
      return (int)(self->first_chain_root + r->index);
    case TRESS_NIFF_TAG_JOINT_LIST:
      return (int)(self->first_joint + r->index);
    case TRESS_NIFF_TAG_EFFECTOR_LIST:
      return (int)(self->first_effector + r->index);
    default:
      return -1;
    }
}

static void
transform (const graphene_matrix_t *m, const float p[3], gboolean direction, float out[3])
{
  graphene_vec4_t in, res;

  graphene_vec4_init (&in, p[0], p[1], p[2], direction ? 0 : 1);
  graphene_matrix_transform_vec4 (m, &in, &res);
  out[0] = graphene_vec4_get_x (&res);
  out[1] = graphene_vec4_get_y (&res);
  out[2] = graphene_vec4_get_z (&res);
}

/* An envelope shape: one skinned mesh. The scene's joint for each node the
 * envelope uses holds the inverse of the node's world matrix at frame 0,
 * the pose the mesh is bound in: each vertex sits where its nodes put their
 * own positions for it at that frame (weighted), so the skin is exact there
 * and follows the nodes from there. */
static void
add_envelope_mesh (NiffAnimator *self, TressScene *scene, guint32 obj, guint32 shape_index,
                   GHashTable *joint_of_node)
{
  const TressNiffScene *s = self->niff;
  const TressNiffSceneShape *shape = &s->shapes[shape_index];
  const TressNiffEnvelope *env = &s->envelopes[shape->geometry];
  graphene_matrix_t origin;
  gboolean any_smooth = FALSE;
  TressSceneMesh *mesh;

  if (env->n_tris == 0)
    return;
  graphene_matrix_init_identity (&origin);
  for (guint32 t = 0; t < env->n_tris; t++)
    any_smooth
        |= tress_niff_mat_smooth (s, tress_niff_scene_tri_mat (s, obj, shape_index, t), TRUE);
  mesh = tress_scene_add_mesh (scene, shape->name != NULL ? shape->name : "envelope",
                               3 * env->n_tris, env->n_tris, any_smooth, TRUE, TRUE);
  mesh->id = shape_index;
  for (guint32 t = 0; t < env->n_tris; t++)
    {
      const TressNiffEnvelopeTri *tri = &env->tris[t];
      guint32 mat = tress_niff_scene_tri_mat (s, obj, shape_index, t);
      const float *tri_rgba = NULL;

      if (tri->part_kind == TRESS_NIFF_TAG_FULL_WEIGHTED_PART && tri->part < env->n_full)
        tri_rgba = group_item (s->tri_colors, s->n_tri_colors, env->full[tri->part].tri_color,
                               tri->tri_color, 4);
      else if (tri->part_kind == TRESS_NIFF_TAG_WEIGHTED_PART && tri->part < env->n_weighted
               && env->weighted[tri->part].n_nodes > 0)
        tri_rgba = group_item (s->tri_colors, s->n_tri_colors,
                               env->weighted[tri->part].tri_color[0], tri->tri_color, 4);
      for (guint c = 0; c < 3; c++)
        {
          const TressNiffEnvelopeVtx *ev = &tri->v[c];
          guint v = 3 * t + c;
          float pos[3] = { 0, 0, 0 }, nrm[3] = { 0, 0, 0 }, total = 0;
          const float *vtx_rgba = NULL;
          struct
          {
            int node;
            float w;
            const float *p, *n;
          } inf[TRESS_SCENE_MAX_INFLUENCES];
          guint n_inf = 0;

          if (ev->part_kind == TRESS_NIFF_TAG_FULL_WEIGHTED_PART)
            {
              const TressNiffFullPart *fp = &env->full[ev->part];
              inf[0].node = ref_node (self, &fp->node);
              inf[0].w = 1;
              inf[0].p = s->vtx[fp->vtx].v + 3 * (gsize)ev->vtx;
              inf[0].n = group_item (s->vtx_nvs, s->n_vtx_nvs, fp->vtx_nv, ev->vtx_nv, 3);
              vtx_rgba
                  = group_item (s->vtx_colors, s->n_vtx_colors, fp->vtx_color, ev->vtx_color, 4);
              n_inf = 1;
            }
          else
            {
              const TressNiffWeightedPart *wp = &env->weighted[ev->part];
              for (guint32 k = 0; k < wp->n_nodes; k++)
                {
                  float w = s->weights[wp->weight_group[k]].v[ev->weight];
                  guint slot = n_inf;

                  if (!(w > 0))
                    continue;
                  /* Keep the four heaviest. */
                  if (n_inf == TRESS_SCENE_MAX_INFLUENCES)
                    {
                      slot = 0;
                      for (guint i = 1; i < n_inf; i++)
                        if (inf[i].w < inf[slot].w)
                          slot = i;
                      if (inf[slot].w >= w)
                        continue;
                    }
                  else
                    n_inf++;
                  inf[slot].node = ref_node (self, &wp->nodes[k]);
                  inf[slot].w = w;
                  inf[slot].p = s->vtx[wp->vtx[k]].v + 3 * (gsize)ev->vtx;
                  inf[slot].n = group_item (s->vtx_nvs, s->n_vtx_nvs, wp->vtx_nv[k], ev->vtx_nv, 3);
                }
              if (wp->n_nodes > 0)
                vtx_rgba = group_item (s->vtx_colors, s->n_vtx_colors, wp->vtx_color[0],
                                       ev->vtx_color, 4);
            }
          for (guint i = 0; i < n_inf; i++)
            total += inf[i].w;
          for (guint i = 0; i < n_inf; i++)
            {
              const graphene_matrix_t *m
                  = inf[i].node >= 0 ? &tress_scene_get_node (scene, (guint)inf[i].node)->world
                                     : &origin;
              float wp[3], wn[3];
              gpointer known;
              guint joint;

              inf[i].w /= total; /* weights are percentages; not every vertex's add up to 100 */
              transform (m, inf[i].p, FALSE, wp);
              for (guint k = 0; k < 3; k++)
                pos[k] += inf[i].w * wp[k];
              if (inf[i].n != NULL)
                {
                  transform (m, inf[i].n, TRUE, wn);
                  for (guint k = 0; k < 3; k++)
                    nrm[k] += inf[i].w * wn[k];
                }
              known = g_hash_table_lookup (joint_of_node, GINT_TO_POINTER (inf[i].node));
              if (known != NULL)
                joint = GPOINTER_TO_UINT (known) - 1;
              else
                {
                  graphene_matrix_t inverse;
                  if (!graphene_matrix_inverse (m, &inverse))
                    graphene_matrix_init_identity (&inverse);
                  joint = tress_scene_add_joint (scene, inf[i].node, &inverse);
                  g_hash_table_insert (joint_of_node, GINT_TO_POINTER (inf[i].node),
                                       GUINT_TO_POINTER (joint + 1));
                }
              mesh->joints[TRESS_SCENE_MAX_INFLUENCES * v + i] = (guint16)joint;
              mesh->weights[TRESS_SCENE_MAX_INFLUENCES * v + i] = inf[i].w;
            }
          memcpy (mesh->positions + 3 * v, pos, sizeof pos);
          if (any_smooth)
            {
              float len = sqrtf (nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
              for (guint k = 0; k < 3; k++)
                mesh->normals[3 * v + k] = len > 0 ? nrm[k] / len : (k == 1);
            }
          corner_colour (s, mat, tri_rgba, vtx_rgba, mesh->colours + 4 * v);
          mesh->triangles[v] = v;
        }
    }
}

/* ---- building ---- */

static char *
node_name (const char *name, const char *kind, guint32 i)
{
  return name != NULL ? g_strdup (name) : g_strdup_printf ("%s %u", kind, i);
}

TressSceneAnimator *
tress_niff_animator_new (TressNiffFile *file, const char *source, GError **error)
{
  g_autoptr (TressNiffScene) niff = tress_niff_scene_new (file, error);
  g_autoptr (GHashTable) joint_of_node = NULL;
  g_autoptr (GPtrArray) not_shown = NULL;
  NiffAnimator *self;
  TressScene *scene;
  guint n_curves = file->curve_refs->len;
  double frames = 0, fps = 0;

  if (niff == NULL)
    return NULL;
  self = g_new0 (NiffAnimator, 1);
  self->file = file;
  self->override_curves = g_array_new (FALSE, FALSE, sizeof (guint));
  self->override_values = g_array_new (FALSE, FALSE, sizeof (double));
  scene = tress_scene_new (niff->name != NULL ? niff->name : source);
  for (guint32 i = 0; i < niff->n_objects; i++)
    {
      g_autofree char *name = node_name (niff->objects[i].name, "object", i);
      guint32 p = niff->objects[i].parent;
      guint node = tress_scene_add_node (scene, name, p != NONE ? (int)p : -1, i);

      /* The camera's eye, look-at and up objects are not part of what is shown. */
      if (niff->objects[i].camera)
        tress_scene_get_node (scene, node)->visible = FALSE;
    }
  self->pose = tress_niff_pose_new (niff, file);
  self->first_chain_root = scene->nodes->len;
  for (guint32 i = 0; i < niff->n_chain_roots; i++)
    {
      g_autofree char *name = node_name (niff->chain_roots[i].name, "chain root", i);
      guint32 p = self->pose->ik_parent[i];
      tress_scene_add_node (scene, name, p != NONE ? (int)p : -1, TRESS_NIFF_NODE_CHAIN_ROOT | i);
    }
  self->first_joint = scene->nodes->len;
  for (guint32 i = 0; i < niff->n_joints; i++)
    {
      g_autofree char *name = node_name (niff->joints[i].name, "joint", i);
      int parent = -1;

      for (guint32 c = 0; c < niff->n_chain_roots; c++)
        if (niff->chain_roots[c].joint == i)
          parent = (int)(self->first_chain_root + c);
      for (guint32 j = 0; j < niff->n_joints; j++)
        if (niff->joints[j].joint == i)
          parent = (int)(self->first_joint + j);
      tress_scene_add_node (scene, name, parent, TRESS_NIFF_NODE_JOINT | i);
    }
  self->first_effector = scene->nodes->len;
  for (guint32 i = 0; i < niff->n_effectors; i++)
    {
      g_autofree char *name = node_name (niff->effectors[i].name, "effector", i);
      int parent = -1;

      for (guint32 j = 0; j < niff->n_joints; j++)
        if (niff->joints[j].effector == i)
          parent = (int)(self->first_joint + j);
      tress_scene_add_node (scene, name, parent, TRESS_NIFF_NODE_EFFECTOR | i);
    }
  self->niff = g_steal_pointer (&niff);
  tress_scene_animator_init (&self->parent, &niff_animator_class, scene, source, n_curves, 1);

  /* Meshes, bound in the pose at frame 0. */
  niff_animator_pose (&self->parent, NULL, 0, 0, NULL, NULL);
  joint_of_node = g_hash_table_new (NULL, NULL);
  for (guint32 i = 0; i < self->niff->n_objects; i++)
    {
      guint32 shape = self->niff->objects[i].shape;

      if (shape == NONE || self->niff->shapes[shape].geometry == NONE)
        continue;
      if (self->niff->shapes[shape].geometry_kind == TRESS_NIFF_TAG_TRI_GROUP)
        add_tri_meshes (scene, self->niff, i, shape);
      else if (self->niff->shapes[shape].geometry_kind == TRESS_NIFF_TAG_ENVELOPE)
        add_envelope_mesh (self, scene, i, shape, joint_of_node);
    }

  /* Curves: each to the node whose AnimGroup holds it. */
  for (guint c = 0; c < n_curves; c++)
    {
      guint g = tress_niff_curve_get_group (file, c);
      int node = -1;

      for (guint32 i = 0; i < self->niff->n_objects && node < 0; i++)
        if (self->niff->objects[i].anim_group == g)
          node = (int)i;
      for (guint32 i = 0; i < self->niff->n_chain_roots && node < 0; i++)
        if (self->niff->chain_roots[i].anim_group == g)
          node = (int)(self->first_chain_root + i);
      for (guint32 i = 0; i < self->niff->n_joints && node < 0; i++)
        if (self->niff->joints[i].anim_group == g)
          node = (int)(self->first_joint + i);
      for (guint32 i = 0; i < self->niff->n_effectors && node < 0; i++)
        if (self->niff->effectors[i].anim_group == g)
          node = (int)(self->first_effector + i);
      self->parent.curve_anim[c] = 0;
      self->parent.curve_node[c] = node;
    }
  for (guint g = 0; g < file->groups->len; g++)
    {
      const TressNiffGroup *grp = g_ptr_array_index (file->groups, g);
      frames = MAX (frames, tress_niff_group_get_frame_count (file, g));
      if (fps == 0 && grp->frame_rate >= 10)
        fps = grp->frame_rate;
    }
  self->parent.anim_names[0] = g_strdup (scene->name);
  self->parent.anim_frames[0] = frames;
  self->parent.anim_fps[0] = fps;
  not_shown = tress_niff_pose_not_shown (self->niff, file);
  for (guint i = 0; i < self->niff->notes->len; i++)
    g_ptr_array_add (not_shown, g_strdup (g_ptr_array_index (self->niff->notes, i)));
  if (not_shown->len > 0)
    {
      g_ptr_array_add (not_shown, NULL);
      self->parent.anim_notes[0] = g_strjoinv ("; ", (char **)not_shown->pdata);
    }
  return &self->parent;
}
