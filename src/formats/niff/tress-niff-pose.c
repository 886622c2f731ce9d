/* tress-niff-pose.c: AnimGroups to local transforms, composed down the hierarchy
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-niff-pose.h"

#include <math.h>
#include <string.h>

#include "tress-niff-private.h"

#define NONE TRESS_NIFF_NONE
#define ROT_ORDER_XYZ 0x00010203u

/* Value slots of an AnimGroup: the nine record components (translate,
 * rotate, scale), then each channel's components in file order. */
#define RECORD_SLOTS 9
#define N_SLOTS (RECORD_SLOTS + 22)

static guint
channel_slot (guint ch)
{
  guint slot = RECORD_SLOTS;

  for (guint c = 0; c < ch; c++)
    slot += tress_niff_channel_n_components (c);
  return slot;
}

static gboolean
known_order (guint32 order)
{
  switch (order)
    {
    case 0x00010203:
    case 0x00010302:
    case 0x00020103:
    case 0x00030102:
    case 0x00020301:
    case 0x00030201:
      return TRUE;
    default:
      return FALSE;
    }
}

TressNiffPose *
tress_niff_pose_new (const TressNiffScene *scene, const TressNiffFile *file)
{
  TressNiffPose *pose = g_new0 (TressNiffPose, 1);
  guint32 n = scene->n_objects, done = 0;
  g_autofree guint8 *placed = g_malloc0 (MAX (n, 1));

  pose->n_objects = n;
  pose->locals = g_new0 (TressNiffLocal, MAX (n, 1));
  pose->world = g_new (graphene_matrix_t, MAX (n, 1));
  pose->rigid = g_new (graphene_matrix_t, MAX (n, 1));
  pose->carry = g_new (float, 3 * (gsize)MAX (n, 1));
  pose->order = g_new (guint32, MAX (n, 1));
  pose->n_chain_roots = scene->n_chain_roots;
  pose->n_joints = scene->n_joints;
  pose->n_effectors = scene->n_effectors;
  pose->chain_roots = g_new (graphene_matrix_t, MAX (scene->n_chain_roots, 1));
  pose->joints = g_new (graphene_matrix_t, MAX (scene->n_joints, 1));
  pose->effectors = g_new (graphene_matrix_t, MAX (scene->n_effectors, 1));
  pose->ik_parent = g_new (guint32, MAX (scene->n_chain_roots, 1));
  for (guint32 i = 0; i < n; i++)
    graphene_matrix_init_identity (&pose->world[i]);

  /* Parents first: the scene has no loops, so repeated passes place every
   * object whose parent is placed (a pass per level of the hierarchy). */
  while (done < n)
    {
      guint32 before = done;
      for (guint32 i = 0; i < n; i++)
        {
          guint32 p = scene->objects[i].parent;
          if (!placed[i] && (p == NONE || placed[p]))
            {
              placed[i] = 1;
              pose->order[done++] = i;
            }
        }
      g_return_val_if_fail (done > before, pose); /* the reader refuses loops */
    }

  for (guint32 c = 0; c < scene->n_chain_roots; c++)
    {
      pose->ik_parent[c] = NONE;
      for (guint32 i = 0; i < n && pose->ik_parent[c] == NONE; i++)
        for (guint32 k = 0; k < scene->objects[i].n_chain_roots; k++)
          if (scene->objects[i].chain_roots[k] == c)
            pose->ik_parent[c] = i;
    }

  pose->n_groups = file->groups->len;
  pose->slots = g_new (gint32, MAX ((gsize)pose->n_groups * N_SLOTS, 1));
  for (gsize i = 0; i < (gsize)pose->n_groups * N_SLOTS; i++)
    pose->slots[i] = -1;
  for (guint i = 0; i < file->curve_refs->len; i++)
    {
      const TressNiffCurveRef *ref = &g_array_index (file->curve_refs, TressNiffCurveRef, i);
      guint slot = ref->source == NIFF_CURVE_CHANNEL ? channel_slot (ref->channel) + ref->component
                                                     : ref->component;
      if (ref->group < pose->n_groups && slot < N_SLOTS)
        pose->slots[ref->group * N_SLOTS + slot] = (gint32)i;
    }
  return pose;
}

void
tress_niff_pose_free (TressNiffPose *pose)
{
  if (pose == NULL)
    return;
  g_free (pose->locals);
  g_free (pose->world);
  g_free (pose->rigid);
  g_free (pose->below);
  g_free (pose->carry);
  g_free (pose->order);
  g_free (pose->chain_roots);
  g_free (pose->joints);
  g_free (pose->effectors);
  g_free (pose->ik_parent);
  g_free (pose->slots);
  g_free (pose);
}

/* ---- one AnimGroup ---- */

typedef struct
{
  const TressNiffPose *pose;
  guint group;
  TressNiffCurveSampler sampler;
  gpointer data;
} Source;

/* The sampler's value for @slot, if it has one. */
static gboolean
sampled (const Source *src, guint slot, double frame, double *value)
{
  gint32 curve;

  if (src->sampler == NULL || src->group >= src->pose->n_groups)
    return FALSE;
  curve = src->pose->slots[src->group * N_SLOTS + slot];
  return curve >= 0 && src->sampler (src->data, (guint)curve, frame, value);
}

/* FULL records: record i is frame i, straight lines between. */
static double
full_records_eval (GArray *records, guint c, double frame)
{
  guint n = records->len;
  double i, u;
  guint k;

  if (frame <= 0)
    return niff_f32 (g_array_index (records, TressNiffRecord, 0).trs[c]);
  if (frame >= n - 1)
    return niff_f32 (g_array_index (records, TressNiffRecord, n - 1).trs[c]);
  u = modf (frame, &i);
  k = (guint)i;
  return niff_f32 (g_array_index (records, TressNiffRecord, k).trs[c]) * (1 - u)
         + niff_f32 (g_array_index (records, TressNiffRecord, k + 1).trs[c]) * u;
}

static void
set_record_value (TressNiffLocal *out, guint c, double v)
{
  if (c < 3)
    out->translate[c] = (float)v;
  else if (c < 6)
    out->euler[c - 3] = (float)v;
  else
    out->scale[c - 6] = (float)v;
}

void
tress_niff_pose_group_local (const TressNiffPose *pose, const TressNiffFile *file, guint group,
                             double frame, TressNiffCurveSampler sampler, gpointer sampler_data,
                             TressNiffLocal *out)
{
  const TressNiffGroup *g;
  Source src = { pose, group, sampler, sampler_data };
  guint32 tag = 0;

  memset (out, 0, sizeof *out);
  out->scale[0] = out->scale[1] = out->scale[2] = 1;
  out->order = ROT_ORDER_XYZ;
  out->x_axis[0] = out->y_axis[1] = 1;
  out->axis[2] = 1;
  if (group >= file->groups->len)
    return;
  g = g_ptr_array_index (file->groups, group);
  if (known_order (g->rot_order))
    out->order = g->rot_order;

  /* The records: the rest, or NIFF1's whole animation. A group of mixed
   * records follows its first record's kind. */
  if (g->records->len > 0)
    tag = g_array_index (g->records, TressNiffRecord, 0).tag;
  for (guint c = 0; c < RECORD_SLOTS; c++)
    {
      double v;

      if (sampled (&src, c, frame, &v))
        ;
      else if (tag == TRESS_NIFF_RECORD_KEY)
        v = tress_niff_key_records_eval (g->records, c, frame);
      else if (tag == TRESS_NIFF_RECORD_FULL)
        v = full_records_eval (g->records, c, frame);
      else if (tag == TRESS_NIFF_RECORD_STATIC)
        v = niff_f32 (g_array_index (g->records, TressNiffRecord, 0).trs[c]);
      else
        continue; /* BILLBOARD or none: the identity */
      set_record_value (out, c, v);
    }

  if (!g->has_ext || !file->niff2)
    return;
  /* The NIFF2 channels that have keys (in the file or from the sampler). */
  for (guint ch = 0; ch < TRESS_NIFF_N_CHANNELS; ch++)
    {
      guint nc = tress_niff_channel_n_components (ch), slot = channel_slot (ch);
      double v[6];
      gboolean used = FALSE;

      for (guint c = 0; c < nc; c++)
        {
          if (sampled (&src, slot + c, frame, &v[c]))
            used = TRUE;
          else
            {
              v[c] = tress_niff_channel_eval (g->channels[ch], ch, c, frame);
              used |= g->channels[ch]->len > 0;
            }
        }
      if (!used)
        continue;
      switch (ch)
        {
        case TRESS_NIFF_ROTATE_AXIS:
          out->rotation = TRESS_NIFF_ROTATION_AXIS;
          for (guint c = 0; c < 3; c++)
            out->axis[c] = (float)v[c];
          out->angle = (float)v[3];
          break;
        case TRESS_NIFF_ROTATE_X:
        case TRESS_NIFF_ROTATE_Y:
        case TRESS_NIFF_ROTATE_Z:
          out->rotation = TRESS_NIFF_ROTATION_EULER;
          out->euler[ch - TRESS_NIFF_ROTATE_X] = (float)v[0];
          break;
        case TRESS_NIFF_ORIENTATION_XY:
          out->rotation = TRESS_NIFF_ROTATION_ORIENTATION;
          for (guint c = 0; c < 3; c++)
            {
              out->x_axis[c] = (float)v[c];
              out->y_axis[c] = (float)v[3 + c];
            }
          break;
        case TRESS_NIFF_TRANSLATION:
          for (guint c = 0; c < 3; c++)
            out->translate[c] = (float)v[c];
          break;
        default: /* the two scales */
          for (guint c = 0; c < 3; c++)
            out->scale[c] = (float)v[c];
          out->unique_scale = ch == TRESS_NIFF_UNIQUE_SCALE;
          break;
        }
    }
}

/* ---- matrices ---- */

static void
axis_rotation (guint axis, float radians, graphene_matrix_t *m)
{
  static const graphene_vec3_t *(*const axes[3]) (void)
      = { graphene_vec3_x_axis, graphene_vec3_y_axis, graphene_vec3_z_axis };

  graphene_matrix_init_rotate (m, radians * (float)(180.0 / G_PI), axes[axis]());
}

/* The rotation alone (row vectors: the first axis turned is the leftmost). */
static void
local_rotation (const TressNiffLocal *local, graphene_matrix_t *r)
{
  switch (local->rotation)
    {
    case TRESS_NIFF_ROTATION_AXIS:
      {
        graphene_vec3_t axis;
        graphene_vec3_init (&axis, local->axis[0], local->axis[1], local->axis[2]);
        if (graphene_vec3_length (&axis) < 1e-12f)
          graphene_matrix_init_identity (r);
        else
          graphene_matrix_init_rotate (r, local->angle * (float)(180.0 / G_PI), &axis);
        return;
      }
    case TRESS_NIFF_ROTATION_ORIENTATION:
      {
        /* X as given; Y made perpendicular to it (the spec asks players to
         * adjust Y when the two are not orthogonal); Z = X × Y. */
        graphene_vec3_t x, y, z;
        graphene_vec3_init (&x, local->x_axis[0], local->x_axis[1], local->x_axis[2]);
        graphene_vec3_init (&y, local->y_axis[0], local->y_axis[1], local->y_axis[2]);
        graphene_vec3_cross (&x, &y, &z);
        if (graphene_vec3_length (&x) < 1e-12f || graphene_vec3_length (&z) < 1e-12f)
          {
            graphene_matrix_init_identity (r);
            return;
          }
        graphene_vec3_normalize (&x, &x);
        graphene_vec3_normalize (&z, &z);
        graphene_vec3_cross (&z, &x, &y);
        {
          graphene_vec4_t rows[4];
          graphene_vec4_init_from_vec3 (&rows[0], &x, 0);
          graphene_vec4_init_from_vec3 (&rows[1], &y, 0);
          graphene_vec4_init_from_vec3 (&rows[2], &z, 0);
          graphene_vec4_init (&rows[3], 0, 0, 0, 1);
          graphene_matrix_init_from_vec4 (r, &rows[0], &rows[1], &rows[2], &rows[3]);
        }
        return;
      }
    default:
      {
        /* anim_rot_mtx_order 0x00XXYYZZ gives each axis its rank: YZX is
         * 0x00030102, Y first (rank 1), then Z, then X. */
        graphene_matrix_t step, tmp;
        graphene_matrix_init_identity (r);
        for (guint rank = 1; rank <= 3; rank++)
          for (guint axis = 0; axis < 3; axis++)
            if (((local->order >> (16 - 8 * axis)) & 0xFF) == rank)
              {
                axis_rotation (axis, local->euler[axis], &step);
                graphene_matrix_multiply (r, &step, &tmp);
                *r = tmp;
              }
        return;
      }
    }
}

void
tress_niff_local_matrix (const TressNiffLocal *local, graphene_matrix_t *out)
{
  graphene_matrix_t s, r, sr;

  graphene_matrix_init_scale (&s, local->scale[0], local->scale[1], local->scale[2]);
  local_rotation (local, &r);
  graphene_matrix_multiply (&s, &r, &sr);
  graphene_matrix_translate (
      &sr, &GRAPHENE_POINT3D_INIT (local->translate[0], local->translate[1], local->translate[2]));
  *out = sr;
}

/* Where a node lands below a parent with rigid matrix @parent that passes on
 * the UniqueScale @parent_carry: @world gets the node's own rigid matrix (the
 * one its children compose with) and @carry the UniqueScale it passes on.
 * The inherited scale moves the node's origin along the parent's axes and
 * scales the node along its own; a UniqueScale of the node joins it, a
 * classical scale stays in the node's matrix (and shears its children, as
 * in the usual CG tools). */
static void
compose (const graphene_matrix_t *parent, const float parent_carry[3], const TressNiffLocal *local,
         graphene_matrix_t *world, float carry[3])
{
  TressNiffLocal moved = *local;
  graphene_matrix_t m;

  for (guint c = 0; c < 3; c++)
    {
      moved.translate[c] *= parent_carry[c];
      carry[c] = parent_carry[c] * (local->unique_scale ? local->scale[c] : 1);
      if (local->unique_scale)
        moved.scale[c] = 1;
    }
  tress_niff_local_matrix (&moved, &m);
  graphene_matrix_multiply (&m, parent, world);
}

/* Where a node is drawn: its rigid matrix with the scale it carries applied first. */
static void
drawn (const graphene_matrix_t *rigid, const float carry[3], graphene_matrix_t *out)
{
  graphene_matrix_t s;

  graphene_matrix_init_scale (&s, carry[0], carry[1], carry[2]);
  graphene_matrix_multiply (&s, rigid, out);
}

static void
ik_node (const TressNiffPose *pose, const TressNiffFile *file, const TressNiffIkNode *node,
         const graphene_matrix_t *parent, const float parent_carry[3], double frame,
         TressNiffCurveSampler sampler, gpointer data, graphene_matrix_t *world, float carry[3])
{
  TressNiffLocal local;

  tress_niff_pose_group_local (pose, file, node->anim_group, frame, sampler, data, &local);
  compose (parent, parent_carry, &local, world, carry);
}

/* ---- two-bone IK ---- */

static void
origin_of (const graphene_matrix_t *m, graphene_vec3_t *out)
{
  graphene_point3d_t p;

  graphene_matrix_transform_point3d (m, graphene_point3d_zero (), &p);
  graphene_vec3_init (out, p.x, p.y, p.z);
}

/* A matrix with axes @x, @y, @z (unit, rows), scaled by @scale along them, at @at. */
static void
frame_matrix (const graphene_vec3_t *x, const graphene_vec3_t *y, const graphene_vec3_t *z,
              const float scale[3], const graphene_vec3_t *at, graphene_matrix_t *out)
{
  graphene_vec4_t rows[4];
  graphene_vec3_t sx, sy, sz;

  graphene_vec3_scale (x, scale[0], &sx);
  graphene_vec3_scale (y, scale[1], &sy);
  graphene_vec3_scale (z, scale[2], &sz);
  graphene_vec4_init_from_vec3 (&rows[0], &sx, 0);
  graphene_vec4_init_from_vec3 (&rows[1], &sy, 0);
  graphene_vec4_init_from_vec3 (&rows[2], &sz, 0);
  graphene_vec4_init_from_vec3 (&rows[3], at, 1);
  graphene_matrix_init_from_vec4 (out, &rows[0], &rows[1], &rows[2], &rows[3]);
}

/* Where the up-vector constraint of AnimGroup @group points, if it has one. */
static gboolean
up_vector (const TressNiffPose *pose, const TressNiffScene *scene, const TressNiffFile *file,
           guint32 group, graphene_vec3_t *out)
{
  const TressNiffGroup *g;
  guint32 kind, node;

  if (group >= file->groups->len)
    return FALSE;
  g = g_ptr_array_index (file->groups, group);
  if (!g->has_ext || !((g->channel_bits >> 10) & 1))
    return FALSE;
  kind = g->constraints[4];
  node = g->constraints[5];
  if (kind == TRESS_NIFF_TAG_OBJ_LIST && node < scene->n_objects)
    origin_of (&pose->world[node], out);
  else if (kind == TRESS_NIFF_TAG_JOINT_LIST && node < scene->n_joints)
    origin_of (&pose->joints[node], out);
  else if (kind == TRESS_NIFF_TAG_EFFECTOR_LIST && node < scene->n_effectors)
    origin_of (&pose->effectors[node], out);
  else
    return FALSE;
  return TRUE;
}

/* Turns the two joints of chain @c so that the second ends at the effector
 * (NIFF2 appendix: ChainRoot → Joint0 → Joint1 → Effector). The joints'
 * X axes run along the bones, their Z axes are the normal of the resolution
 * plane through the first joint, the effector and the up-vector object (else
 * the chain root's Z), their Y axes point to the up-vector side; the chain
 * bends towards +Y (JOINT_UP on the first joint) or −Y (JOINT_DOWN). The bone
 * lengths are those of the rest pose: the second joint's offset from the
 * first, and its length times its X scale. Out of reach, the chain points
 * straight at the effector. */
static void
solve_chain (TressNiffPose *pose, const TressNiffScene *scene, const TressNiffFile *file, guint32 c,
             double frame, TressNiffCurveSampler sampler, gpointer data)
{
  const TressNiffIkNode *root = &scene->chain_roots[c];
  const TressNiffIkNode *j0, *j1;
  TressNiffLocal l1;
  graphene_vec3_t p0, e, up, d, x0, n, y0, elbow, x1, y1, tmp, tmp2;
  graphene_matrix_t *w0, *w1;
  float dist, len1, len2, a = 0;
  const float one[3] = { 1, 1, 1 };

  if (root->joint == NONE)
    return;
  j0 = &scene->joints[root->joint];
  if (j0->joint == NONE)
    return;
  j1 = &scene->joints[j0->joint];
  if (j1->effector == NONE)
    return;
  w0 = &pose->joints[root->joint];
  w1 = &pose->joints[j0->joint];
  tress_niff_pose_group_local (pose, file, j1->anim_group, frame, sampler, data, &l1);
  len1 = sqrtf (l1.translate[0] * l1.translate[0] + l1.translate[1] * l1.translate[1]
                + l1.translate[2] * l1.translate[2]);
  len2 = j1->length * fabsf (l1.scale[0]);
  if (len1 <= 0)
    len1 = j0->length;
  origin_of (w0, &p0);
  origin_of (&pose->effectors[j1->effector], &e);
  graphene_vec3_subtract (&e, &p0, &d);
  dist = graphene_vec3_length (&d);
  if (dist < 1e-6f || len1 <= 0)
    return;
  graphene_vec3_scale (&d, 1 / dist, &x0);

  /* The resolution plane's normal. */
  if (up_vector (pose, scene, file, j0->anim_group, &up))
    {
      graphene_vec3_subtract (&up, &p0, &tmp);
      graphene_vec3_cross (&x0, &tmp, &n);
    }
  else
    {
      graphene_vec4_t row;
      graphene_matrix_get_row (&pose->chain_roots[c], 2, &row);
      graphene_vec4_get_xyz (&row, &n);
    }
  /* Keep only the part of the normal perpendicular to the bone direction. */
  graphene_vec3_scale (&x0, graphene_vec3_dot (&n, &x0), &tmp);
  graphene_vec3_subtract (&n, &tmp, &n);
  if (graphene_vec3_length (&n) < 1e-6f)
    return;
  graphene_vec3_normalize (&n, &n);
  graphene_vec3_cross (&n, &x0, &y0); /* towards the up vector */

  /* The first bone's angle from the line to the effector (law of cosines). */
  if (dist < len1 + len2 && len2 > 0)
    {
      float c0 = (len1 * len1 + dist * dist - len2 * len2) / (2 * len1 * dist);
      a = acosf (CLAMP (c0, -1.0f, 1.0f));
    }
  if (j0->type & 0x10000) /* NIFF2_JOINT_DOWN */
    a = -a;
  graphene_vec3_scale (&x0, cosf (a), &tmp);
  graphene_vec3_scale (&y0, sinf (a), &tmp2);
  graphene_vec3_add (&tmp, &tmp2, &x1); /* the first bone's direction */
  graphene_vec3_scale (&x1, len1, &tmp);
  graphene_vec3_add (&p0, &tmp, &elbow);
  graphene_vec3_cross (&n, &x1, &y1);
  frame_matrix (&x1, &y1, &n, one, &p0, w0);

  graphene_vec3_subtract (&e, &elbow, &tmp);
  if (graphene_vec3_length (&tmp) < 1e-6f)
    tmp = x1;
  graphene_vec3_normalize (&tmp, &x1);
  graphene_vec3_cross (&n, &x1, &y1);
  frame_matrix (&x1, &y1, &n, l1.scale, &elbow, w1);
}

/* IK chains below the objects that link them: ChainRoot → Joint → Joint → Effector. */
static void
pose_chains (TressNiffPose *pose, const TressNiffScene *scene, const TressNiffFile *file,
             double frame, TressNiffCurveSampler sampler, gpointer sampler_data)
{
  static const float one[3] = { 1, 1, 1 };
  const graphene_matrix_t *rigid = pose->rigid;

  for (guint32 c = 0; c < scene->n_chain_roots; c++)
    {
      const TressNiffIkNode *root = &scene->chain_roots[c];
      guint32 parent = pose->ik_parent[c];
      graphene_matrix_t identity, node_world, next_world;
      float carry[3], next_carry[3];
      guint32 j = root->joint, steps = 0;

      graphene_matrix_init_identity (&identity);
      ik_node (pose, file, root, parent != NONE ? &rigid[parent] : &identity,
               parent != NONE ? pose->carry + 3 * parent : one, frame, sampler, sampler_data,
               &node_world, carry);
      drawn (&node_world, carry, &pose->chain_roots[c]);
      while (j != NONE && steps++ < scene->n_joints)
        {
          const TressNiffIkNode *joint = &scene->joints[j];

          ik_node (pose, file, joint, &node_world, carry, frame, sampler, sampler_data, &next_world,
                   next_carry);
          drawn (&next_world, next_carry, &pose->joints[j]);
          node_world = next_world;
          memcpy (carry, next_carry, sizeof carry);
          if (joint->effector != NONE)
            {
              const TressNiffIkNode *eff = &scene->effectors[joint->effector];
              ik_node (pose, file, eff, &node_world, carry, frame, sampler, sampler_data,
                       &next_world, next_carry);
              drawn (&next_world, next_carry, &pose->effectors[joint->effector]);
            }
          j = joint->joint;
        }
      solve_chain (pose, scene, file, c, frame, sampler, sampler_data);
    }
}

/* Object i composed below its parent (posed already) from its local transform. */
static void
compose_object (TressNiffPose *pose, const TressNiffScene *scene, guint32 i)
{
  static const float one[3] = { 1, 1, 1 };
  const TressNiffSceneObject *o = &scene->objects[i];
  graphene_matrix_t identity;

  graphene_matrix_init_identity (&identity);
  compose (o->parent != NONE ? &pose->rigid[o->parent] : &identity,
           o->parent != NONE ? pose->carry + 3 * o->parent : one, &pose->locals[i], &pose->rigid[i],
           pose->carry + 3 * i);
  drawn (&pose->rigid[i], pose->carry + 3 * i, &pose->world[i]);
}

void
tress_niff_pose_evaluate (TressNiffPose *pose, const TressNiffScene *scene,
                          const TressNiffFile *file, double frame, TressNiffCurveSampler sampler,
                          gpointer sampler_data)
{
  g_return_if_fail (pose->n_objects == scene->n_objects);
  pose->frame = frame;
  for (guint32 k = 0; k < pose->n_objects; k++)
    {
      guint32 i = pose->order[k];

      tress_niff_pose_group_local (pose, file, scene->objects[i].anim_group, frame, sampler,
                                   sampler_data, &pose->locals[i]);
      compose_object (pose, scene, i);
    }
  pose_chains (pose, scene, file, frame, sampler, sampler_data);
}

guint32
tress_niff_pose_update_object (TressNiffPose *pose, const TressNiffScene *scene,
                               const TressNiffFile *file, guint32 object,
                               TressNiffCurveSampler sampler, gpointer sampler_data)
{
  guint32 n = 0;

  g_return_val_if_fail (pose->n_objects == scene->n_objects, 0);
  g_return_val_if_fail (object < pose->n_objects, 0);
  if (pose->below == NULL)
    pose->below = g_new (guint8, MAX (pose->n_objects, 1));
  /* The object, then what hangs from it (parents come first in the order). */
  tress_niff_pose_group_local (pose, file, scene->objects[object].anim_group, pose->frame, sampler,
                               sampler_data, &pose->locals[object]);
  for (guint32 k = 0; k < pose->n_objects; k++)
    {
      guint32 i = pose->order[k], p = scene->objects[i].parent;

      pose->below[i] = i == object || (p != NONE && pose->below[p]);
      if (pose->below[i])
        {
          compose_object (pose, scene, i);
          n++;
        }
    }
  pose_chains (pose, scene, file, pose->frame, sampler, sampler_data);
  return n;
}

/* ---- what is not shown ---- */

GPtrArray *
tress_niff_pose_not_shown (const TressNiffScene *scene, const TressNiffFile *file)
{
  static const char *const constraint_names[TRESS_NIFF_N_CONSTRAINTS] = {
    "orientation", "direction",    "up-vector",       "preferred-axis",
    "position",    "unique scale", "classical scale",
  };
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  guint billboards = 0, constraints[TRESS_NIFF_N_CONSTRAINTS] = { 0 }, shape_anims = 0;

  for (guint i = 0; i < file->groups->len; i++)
    {
      const TressNiffGroup *g = g_ptr_array_index (file->groups, i);

      billboards
          += g->records->len > 0
             && g_array_index (g->records, TressNiffRecord, 0).tag == TRESS_NIFF_RECORD_BILLBOARD;
      if (g->has_ext && file->niff2)
        for (guint k = 0; k < TRESS_NIFF_N_CONSTRAINTS; k++)
          constraints[k] += (g->channel_bits >> (8 + k)) & 1;
    }
  for (guint32 i = 0; i < scene->n_tri_groups; i++)
    shape_anims += scene->tri_groups[i].anim_type != 0;
  for (guint32 c = 0; c < scene->n_chain_roots; c++)
    {
      const TressNiffIkNode *root = &scene->chain_roots[c];
      guint32 j0 = root->joint, j1 = j0 != NONE ? scene->joints[j0].joint : NONE;

      if (j1 == NONE || scene->joints[j1].effector == NONE || scene->joints[j1].joint != NONE)
        {
          g_ptr_array_add (lines, g_strdup_printf ("IK chain %s: not two joints and an effector; "
                                                   "its joints keep their rest pose",
                                                   root->name != NULL ? root->name : "?"));
          break;
        }
    }
  /* The first joint's up-vector constraint sets the IK plane (applied). */
  for (guint32 c = 0; c < scene->n_chain_roots; c++)
    if (scene->chain_roots[c].joint != NONE)
      {
        guint32 g = scene->joints[scene->chain_roots[c].joint].anim_group;
        if (g < file->groups->len && constraints[2] > 0)
          {
            const TressNiffGroup *grp = g_ptr_array_index (file->groups, g);
            if (grp->has_ext && ((grp->channel_bits >> 10) & 1))
              constraints[2]--;
          }
      }
  for (guint k = 0; k < TRESS_NIFF_N_CONSTRAINTS; k++)
    if (constraints[k] > 0)
      g_ptr_array_add (lines,
                       g_strdup_printf ("%u %s constraint%s: not applied", constraints[k],
                                        constraint_names[k], constraints[k] == 1 ? "" : "s"));
  if (billboards > 0)
    g_ptr_array_add (lines, g_strdup_printf ("%u billboard AnimGroup%s: not turned to face "
                                             "their object",
                                             billboards, billboards == 1 ? "" : "s"));
  if (shape_anims > 0)
    g_ptr_array_add (lines,
                     g_strdup_printf ("%u animated TriGroup%s: drawn with their first groups",
                                      shape_anims, shape_anims == 1 ? "" : "s"));
  for (guint32 i = 0, morph = 0; i < scene->n_envelopes; i++)
    if ((morph += scene->envelopes[i].n_morph) > 0 && i + 1 == scene->n_envelopes)
      g_ptr_array_add (lines, g_strdup_printf ("%u envelope morph part%s: not drawn", morph,
                                               morph == 1 ? "" : "s"));
  for (guint32 i = 0; i < scene->n_shapes; i++)
    if (scene->shapes[i].geometry_kind == TRESS_NIFF_TAG_CLUSTER_SHAPE)
      {
        g_ptr_array_add (lines, g_strdup ("cluster shapes: not drawn"));
        break;
      }
  return lines;
}
