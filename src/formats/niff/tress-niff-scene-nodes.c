/* tress-niff-scene-nodes.c: the envelopes, IK nodes and cameras of a NIFF scene
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-niff-scene-private.h"

#include <string.h>

/* ---- Envelope, Weight, IK nodes ---- */

static guint32
node_limit (const TressNiffScene *scene, guint32 kind)
{
  switch (kind)
    {
    case TRESS_NIFF_TAG_OBJ_LIST:
      return scene->n_objects;
    case TRESS_NIFF_TAG_CHAIN_ROOT_LIST:
      return scene->n_chain_roots;
    case TRESS_NIFF_TAG_JOINT_LIST:
      return scene->n_joints;
    case TRESS_NIFF_TAG_EFFECTOR_LIST:
      return scene->n_effectors;
    default:
      return 0;
    }
}

static gboolean
read_node_ref (const TressNiffScene *scene, const Elem *e, gsize kind_at, gsize index_at,
               const char *field, TressNiffNodeRef *out, GError **error)
{
  out->kind = _tress_niff_scene_elem_u32 (e, kind_at);
  out->index = _tress_niff_scene_elem_u32 (e, index_at);
  if (out->kind == NONE)
    {
      /* An external node (another file): not drawn here. */
      out->index = NONE;
      return TRUE;
    }
  if (out->kind != TRESS_NIFF_TAG_OBJ_LIST && out->kind != TRESS_NIFF_TAG_CHAIN_ROOT_LIST
      && out->kind != TRESS_NIFF_TAG_JOINT_LIST && out->kind != TRESS_NIFF_TAG_EFFECTOR_LIST)
    return _tress_niff_scene_elem_error (
        e, error, TRESS_ERROR_BAD_VALUE, kind_at, field,
        "expected the tag of the Obj, ChainRoot, Joint or Effector list, found "
        "0x%08x",
        out->kind);
  return _tress_niff_scene_check_index (e, index_at, out->index, node_limit (scene, out->kind),
                                        FALSE, field, "nodes of that list", error);
}

static gboolean
check_group_index (const Elem *e, gsize at, guint32 limit, const char *field, const char *target,
                   guint32 *out, GError **error)
{
  return _tress_niff_scene_read_index (e, at, limit, TRUE, field, target, out, error);
}

static gboolean
read_full_part (const TressNiffScene *scene, const Elem *e, TressNiffFullPart *p, GError **error)
{
  guint32 nin;

  if (!_tress_niff_scene_check_elem (e, TRESS_NIFF_TAG_FULL_WEIGHTED_PART, 8, 64, error)
      || !_tress_niff_scene_check_tail (e, 64, 56, &nin, error)
      || !read_node_ref (scene, e, 16, 20, "transform_node_index_full", &p->node, error))
    return FALSE;
  return check_group_index (e, 32, scene->n_vtx, "full_weighted_vtx_group_index", "VtxGroups",
                            &p->vtx, error)
         && check_group_index (e, 36, scene->n_vtx_nvs, "full_weighted_vtx_nv_group_index",
                               "VtxNvGroups", &p->vtx_nv, error)
         && check_group_index (e, 40, scene->n_tri_nvs, "full_weighted_tri_nv_group_index",
                               "TriNvGroups", &p->tri_nv, error)
         && check_group_index (e, 44, scene->n_vtx_colors, "full_weighted_vtx_color_group_index",
                               "VtxColorGroups", &p->vtx_color, error)
         && check_group_index (e, 48, scene->n_tri_colors, "full_weighted_tri_color_group_index",
                               "TriColorGroups", &p->tri_color, error)
         && check_group_index (e, 52, scene->n_sts, "full_weighted_st_group_index", "StGroups",
                               &p->st, error);
}

static gboolean
read_weighted_part (const TressNiffScene *scene, const Elem *e, TressNiffWeightedPart *p,
                    GError **error)
{
  static const char *const fields[6]
      = { "weight_group_index",           "weight_vtx_group_index",
          "weight_vtx_nv_group_index",    "weight_tri_nv_group_index",
          "weight_vtx_color_group_index", "weight_tri_color_group_index" };
  guint32 n, n_ext, nin, limits[6];
  guint32 **arrays[6];
  guint64 total;
  gsize at;

  if (!_tress_niff_scene_check_elem (e, TRESS_NIFF_TAG_WEIGHTED_PART, 8, 36, error))
    return FALSE;
  n = _tress_niff_scene_elem_u32 (e, 16);
  n_ext = _tress_niff_scene_elem_u32 (e, 24);
  total = 2 * (guint64)n + 2 * (guint64)n_ext + 6 * ((guint64)n + n_ext);
  if (!_tress_niff_scene_elem_has (e, 36, total, "affected_node_num", error)
      || !_tress_niff_scene_check_tail (e, 36 + 4 * (gsize)total, 28, &nin, error)
      || !check_group_index (e, 20, scene->n_sts, "weight_st_group_index", "StGroups", &p->st,
                             error))
    return FALSE;
  p->n_nodes = n;
  p->nodes = g_new (TressNiffNodeRef, MAX (n, 1));
  for (guint32 i = 0; i < n; i++)
    if (!read_node_ref (scene, e, 36 + 4 * i, 36 + 4 * ((gsize)n + i), "affected_node_index",
                        &p->nodes[i], error))
      return FALSE;
  limits[0] = scene->n_weights;
  limits[1] = scene->n_vtx;
  limits[2] = scene->n_vtx_nvs;
  limits[3] = scene->n_tri_nvs;
  limits[4] = scene->n_vtx_colors;
  limits[5] = scene->n_tri_colors;
  arrays[0] = &p->weight_group;
  arrays[1] = &p->vtx;
  arrays[2] = &p->vtx_nv;
  arrays[3] = &p->tri_nv;
  arrays[4] = &p->vtx_color;
  arrays[5] = &p->tri_color;
  /* After the node kinds and indices, the external names; then six arrays of
   * n + n_ext, of which the first n belong to the nodes in this file. */
  at = 36 + 8 * (gsize)n + 8 * (gsize)n_ext;
  for (guint a = 0; a < 6; a++)
    {
      *arrays[a] = g_new (guint32, MAX (n, 1));
      for (guint32 i = 0; i < n; i++)
        if (!check_group_index (e, at + 4 * i, limits[a], fields[a], "groups of its list",
                                &(*arrays[a])[i], error))
          return FALSE;
      at += 4 * ((gsize)n + n_ext);
    }
  /* Every node of this file needs its weights and its positions: the error
   * names the index that is missing (WeightGroups first, then VtxGroups). */
  at = 36 + 8 * (gsize)n + 8 * (gsize)n_ext;
  for (guint32 i = 0; i < n; i++)
    if (p->weight_group[i] == NONE)
      return _tress_niff_scene_elem_error (
          e, error, TRESS_ERROR_BAD_VALUE, at + 4 * (gsize)i, fields[0],
          "expected a WeightGroup for affected node %u, found none", i);
    else if (p->vtx[i] == NONE)
      return _tress_niff_scene_elem_error (
          e, error, TRESS_ERROR_BAD_VALUE, at + 4 * ((gsize)n + n_ext + i), fields[1],
          "expected a VtxGroup for affected node %u, found none", i);
  return TRUE;
}

/* The vertex count a part offers a triangle's vertex (the smallest of its groups). */
static guint32
part_vertices (const TressNiffScene *scene, const TressNiffEnvelope *env, guint32 kind,
               guint32 part, guint32 *weights)
{
  *weights = G_MAXUINT32;
  if (kind == TRESS_NIFF_TAG_FULL_WEIGHTED_PART)
    return env->full[part].vtx != NONE ? scene->vtx[env->full[part].vtx].n : 0;
  {
    const TressNiffWeightedPart *w = &env->weighted[part];
    guint32 n = G_MAXUINT32;

    for (guint32 i = 0; i < w->n_nodes; i++)
      {
        n = MIN (n, scene->vtx[w->vtx[i]].n);
        *weights = MIN (*weights, scene->weights[w->weight_group[i]].n);
      }
    return w->n_nodes > 0 ? n : 0;
  }
}

static gboolean
read_envelope_tri (const TressNiffScene *scene, const TressNiffEnvelope *env, const Elem *t,
                   TressNiffEnvelopeTri *tri, GError **error)
{
  if (_tress_niff_scene_elem_u32 (t, 0) != 0x00220180)
    return _tress_niff_scene_elem_error (t, error, TRESS_ERROR_BAD_VALUE, 0, "envelope_tri_tag",
                                         "expected 0x00220180, found 0x%08x",
                                         _tress_niff_scene_elem_u32 (t, 0));
  tri->part_kind = _tress_niff_scene_elem_u32 (t, 12);
  tri->part = _tress_niff_scene_elem_u32 (t, 16);
  tri->tri_nv = _tress_niff_scene_elem_u32 (t, 20);
  tri->tri_color = _tress_niff_scene_elem_u32 (t, 24);
  tri->weight = _tress_niff_scene_elem_u32 (t, 28);
  for (guint c = 0; c < 3; c++)
    {
      gsize at = 32 + 28 * c;
      TressNiffEnvelopeVtx *v = &tri->v[c];
      guint32 limit, weights;

      v->part_kind = _tress_niff_scene_elem_u32 (t, at);
      v->part = _tress_niff_scene_elem_u32 (t, at + 4);
      v->vtx = _tress_niff_scene_elem_u32 (t, at + 8);
      v->st = _tress_niff_scene_elem_u32 (t, at + 12);
      v->vtx_nv = _tress_niff_scene_elem_u32 (t, at + 16);
      v->vtx_color = _tress_niff_scene_elem_u32 (t, at + 20);
      v->weight = _tress_niff_scene_elem_u32 (t, at + 24);
      if (v->part_kind == TRESS_NIFF_TAG_FULL_WEIGHTED_PART)
        limit = env->n_full;
      else if (v->part_kind == TRESS_NIFF_TAG_WEIGHTED_PART)
        limit = env->n_weighted;
      else
        return _tress_niff_scene_elem_error (
            t, error, TRESS_ERROR_UNSUPPORTED, at, "kind_of_envelope_part",
            "expected a FullWeightedPart 0x00220110 or WeightedPart 0x00220120 "
            "(MorphParts are not drawn), found 0x%08x",
            v->part_kind);
      if (!_tress_niff_scene_check_index (t, at + 4, v->part, limit, FALSE, "envelope_part_index",
                                          "parts of that kind in the Envelope", error))
        return FALSE;
      limit = part_vertices (scene, env, v->part_kind, v->part, &weights);
      if (!_tress_niff_scene_check_index (t, at + 8, v->vtx, limit, FALSE, "vtx_index",
                                          "vertices of its part", error))
        return FALSE;
      if (v->part_kind == TRESS_NIFF_TAG_WEIGHTED_PART
          && !_tress_niff_scene_check_index (t, at + 24, v->weight, weights, FALSE, "weight_index",
                                             "weights of its part", error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
read_envelope (const TressNiffFile *file, const TressNiffScene *scene, const Elem *e,
               TressNiffEnvelope *env, GError **error)
{
  guint32 nin;
  gsize at = 44;
  guint64 n_parts;
  g_autofree char *full_name = g_strdup_printf ("Envelope %u FullWeightedPart", e->index);
  g_autofree char *weighted_name = g_strdup_printf ("Envelope %u WeightedPart", e->index);
  g_autofree char *morph_name = g_strdup_printf ("Envelope %u MorphPart", e->index);
  g_autofree char *tri_name = g_strdup_printf ("Envelope %u EnvelopeTri", e->index);

  if (!_tress_niff_scene_check_elem (e, TRESS_NIFF_TAG_ENVELOPE, 8, 44, error))
    return FALSE;
  env->offset = e->off;
  env->name = _tress_niff_scene_dup_name (file, _tress_niff_scene_elem_u32 (e, 12));
  env->n_full = _tress_niff_scene_elem_u32 (e, 20);
  env->n_weighted = _tress_niff_scene_elem_u32 (e, 24);
  env->n_morph = _tress_niff_scene_elem_u32 (e, 28);
  env->n_tris = _tress_niff_scene_elem_u32 (e, 32);
  n_parts = (guint64)env->n_full + env->n_weighted + env->n_morph;
  /* Every part is at least 36 bytes and every triangle 116. */
  if (n_parts > (e->size - 44) / 36 || env->n_tris > (e->size - 44) / 116)
    return _tress_niff_scene_elem_error (
        e, error, TRESS_ERROR_BAD_COUNT, 20, "part and triangle counts",
        "expected counts that fit in the %" G_GSIZE_FORMAT
        "-byte Envelope, found %u, %u and %u parts and %u triangles",
        e->size, env->n_full, env->n_weighted, env->n_morph, env->n_tris);
  env->full = g_new0 (TressNiffFullPart, MAX (env->n_full, 1));
  env->weighted = g_new0 (TressNiffWeightedPart, MAX (env->n_weighted, 1));
  env->tris = g_new0 (TressNiffEnvelopeTri, MAX (env->n_tris, 1));
  for (guint64 i = 0; i < n_parts + env->n_tris; i++)
    {
      gboolean is_tri = i >= n_parts;
      Elem p = { e->data, e->off + at, e->size - at, NULL, 0, TRUE };
      guint32 size;

      if (i < env->n_full)
        p.what = full_name, p.index = (guint)i;
      else if (i < (guint64)env->n_full + env->n_weighted)
        p.what = weighted_name, p.index = (guint)(i - env->n_full);
      else if (!is_tri)
        p.what = morph_name, p.index = (guint)(i - env->n_full - env->n_weighted);
      else
        p.what = tri_name, p.index = (guint)(i - n_parts);
      if (!_tress_niff_scene_elem_has (&p, 0, is_tri ? 29 : 3, "header", error))
        return FALSE;
      size = _tress_niff_scene_elem_u32 (&p, 8);
      if (size % 4 || size < (is_tri ? 116u : 12u) || size > p.size)
        return _tress_niff_scene_elem_error (
            &p, error, TRESS_ERROR_BAD_VALUE, 8, "size",
            "expected a multiple of 4 from %u to the %" G_GSIZE_FORMAT
            " bytes left in the Envelope, found %u",
            is_tri ? 116u : 12u, p.size, size);
      p.size = size;
      if (i < env->n_full)
        {
          if (!read_full_part (scene, &p, &env->full[i], error))
            return FALSE;
        }
      else if (i < (guint64)env->n_full + env->n_weighted)
        {
          if (!read_weighted_part (scene, &p, &env->weighted[i - env->n_full], error))
            return FALSE;
        }
      else if (is_tri)
        {
          if (!read_envelope_tri (scene, env, &p, &env->tris[i - n_parts], error))
            return FALSE;
        }
      else if (_tress_niff_scene_elem_u32 (&p, 0) != TRESS_NIFF_TAG_MORPH_PART)
        return _tress_niff_scene_elem_error (&p, error, TRESS_ERROR_BAD_VALUE, 0, "tag",
                                             "expected 0x00220130, found 0x%08x",
                                             _tress_niff_scene_elem_u32 (&p, 0));
      at += size;
    }
  if (!_tress_niff_scene_elem_has (e, 36, 2, "extension block sizes", error))
    return FALSE;
  nin = _tress_niff_scene_elem_u32 (e, 36);
  if ((guint64)at + nin + _tress_niff_scene_elem_u32 (e, 40) != e->size)
    return _tress_niff_scene_elem_error (
        e, error, TRESS_ERROR_BAD_VALUE, 8, "envelope_size",
        "expected the parts, triangles and extension blocks (%" G_GUINT64_FORMAT
        " bytes), found %" G_GSIZE_FORMAT,
        (guint64)at + nin + _tress_niff_scene_elem_u32 (e, 40), e->size);
  return TRUE;
}

gboolean
_tress_niff_scene_read_envelopes (const TressNiffFile *file, TressNiffScene *scene, GError **error)
{
  List list;
  gsize pos = 0;

  if (!_tress_niff_scene_find_list (file, 0x00220000, "EnvelopeList", &list))
    return TRUE;
  if (!_tress_niff_scene_open_list (&list, FALSE, error))
    return FALSE;
  scene->n_envelopes = list.n_elem;
  scene->envelopes = g_new0 (TressNiffEnvelope, MAX (list.n_elem, 1));
  for (guint i = 0; i < list.n_elem; i++)
    {
      Elem e;

      _tress_niff_scene_list_elem (&list, i, &pos, "Envelope", &e);
      if (!read_envelope (file, scene, &e, &scene->envelopes[i], error))
        return FALSE;
    }
  return TRUE;
}

const IkKind _tress_niff_scene_chain_root_kind
    = { 0x00240000, 0x00240100, "ChainRootList", "ChainRoot", 44, 20, 24, 28, 36 };
const IkKind _tress_niff_scene_joint_kind
    = { 0x00250000, 0x00250100, "JointList", "Joint", 64, 36, 40, 52, 56 };
const IkKind _tress_niff_scene_effector_kind
    = { 0x00260000, 0x00260100, "EffectorList", "Effector", 40, 20, 24, 28, 32 };

gboolean
_tress_niff_scene_read_ik_nodes (const TressNiffFile *file, const IkKind *k, guint32 *n_out,
                                 TressNiffIkNode **out, GError **error)
{
  List list;
  gsize pos = 0;

  if (!_tress_niff_scene_find_list (file, k->list_tag, k->list_name, &list))
    return TRUE;
  if (!_tress_niff_scene_open_list (&list, FALSE, error))
    return FALSE;
  *n_out = list.n_elem;
  *out = g_new0 (TressNiffIkNode, MAX (list.n_elem, 1));
  for (guint i = 0; i < list.n_elem; i++)
    {
      TressNiffIkNode *node = &(*out)[i];
      Elem e;
      guint32 n, n_ext, nin;

      _tress_niff_scene_list_elem (&list, i, &pos, k->what, &e);
      if (!_tress_niff_scene_check_elem (&e, k->tag, 8, k->fixed, error))
        return FALSE;
      n = _tress_niff_scene_elem_u32 (&e, k->n_at);
      n_ext = _tress_niff_scene_elem_u32 (&e, k->ext_at);
      if (!_tress_niff_scene_elem_has (&e, k->fixed, (guint64)n + 2 * (guint64)n_ext, "obj_num",
                                       error)
          || !_tress_niff_scene_check_tail (&e, k->fixed + 4 * ((gsize)n + 2 * (gsize)n_ext),
                                            k->nin_at, &nin, error))
        return FALSE;
      node->offset = e.off;
      node->name = _tress_niff_scene_dup_name (file, _tress_niff_scene_elem_u32 (&e, 12));
      node->type = _tress_niff_scene_elem_u32 (&e, 16);
      node->anim_group = _tress_niff_scene_elem_u32 (&e, k->anim_at);
      node->joint = node->effector = NONE;
      node->n_objects = n;
      node->objects = _tress_niff_scene_dup_words (&e, k->fixed, n);
      if (k == &_tress_niff_scene_chain_root_kind)
        node->joint = _tress_niff_scene_elem_u32 (&e, 32);
      else if (k == &_tress_niff_scene_joint_kind)
        {
          node->length = _tress_niff_scene_elem_f32 (&e, 20);
          for (guint c = 0; c < 3; c++)
            node->resplane[c] = _tress_niff_scene_elem_f32 (&e, 24 + 4 * c);
          node->joint = _tress_niff_scene_elem_u32 (&e, 44);
          node->effector = _tress_niff_scene_elem_u32 (&e, 48);
        }
    }
  return TRUE;
}

/* Links between the IK nodes and to objects and AnimGroups, once all are read. */
gboolean
_tress_niff_scene_check_ik_links (const TressNiffScene *scene, guint n_groups, GError **error)
{
  const struct
  {
    const IkKind *k;
    guint32 n;
    const TressNiffIkNode *nodes;
  } kinds[3] = {
    { &_tress_niff_scene_chain_root_kind, scene->n_chain_roots, scene->chain_roots },
    { &_tress_niff_scene_joint_kind, scene->n_joints, scene->joints },
    { &_tress_niff_scene_effector_kind, scene->n_effectors, scene->effectors },
  };

  for (guint k = 0; k < 3; k++)
    for (guint32 i = 0; i < kinds[k].n; i++)
      {
        const TressNiffIkNode *node = &kinds[k].nodes[i];
        Elem e = { NULL, node->offset, 0, kinds[k].k->what, i, TRUE };

        if (!_tress_niff_scene_check_index (&e, kinds[k].k->anim_at, node->anim_group, n_groups,
                                            TRUE, "anim_index", "AnimGroups", error))
          return FALSE;
        for (guint32 o = 0; o < node->n_objects; o++)
          if (!_tress_niff_scene_check_index (&e, kinds[k].k->fixed + 4 * o, node->objects[o],
                                              scene->n_objects, FALSE, "obj_index", "objects",
                                              error))
            return FALSE;
        if (kinds[k].k == &_tress_niff_scene_chain_root_kind
            && !_tress_niff_scene_check_index (&e, 32, node->joint, scene->n_joints, TRUE,
                                               "joint_index", "Joints", error))
          return FALSE;
        if (kinds[k].k == &_tress_niff_scene_joint_kind
            && (!_tress_niff_scene_check_index (&e, 44, node->joint, scene->n_joints, TRUE,
                                                "joint_index", "Joints", error)
                || !_tress_niff_scene_check_index (&e, 48, node->effector, scene->n_effectors, TRUE,
                                                   "effector_index", "Effectors", error)))
          return FALSE;
      }
  return TRUE;
}

/* Cam (0x000e0100): 19 words, the eye, look-at and up objects at +0x38…+0x40. */
gboolean
_tress_niff_scene_read_cameras (const TressNiffFile *file, TressNiffScene *scene, GError **error)
{
  static const char *const fields[3] = { "cam_lookat_obj", "cam_eye_obj", "cam_up_obj" };
  List list;
  gsize pos = 0;

  if (!_tress_niff_scene_find_list (file, 0x000e0000, "CamList", &list))
    return TRUE;
  if (!_tress_niff_scene_open_list (&list, FALSE, error))
    return FALSE;
  scene->n_cameras = list.n_elem;
  for (guint i = 0; i < list.n_elem; i++)
    {
      Elem e;
      guint32 nin;

      _tress_niff_scene_list_elem (&list, i, &pos, "Cam", &e);
      if (!_tress_niff_scene_check_elem (&e, 0x000e0100, 8, 76, error)
          || !_tress_niff_scene_check_tail (&e, 76, 68, &nin, error))
        return FALSE;
      for (guint k = 0; k < 3; k++)
        {
          guint32 obj;

          if (!_tress_niff_scene_read_index (&e, 56 + 4 * k, scene->n_objects, TRUE, fields[k],
                                             "objects", &obj, error))
            return FALSE;
          if (obj != NONE)
            scene->objects[obj].camera = TRUE;
        }
    }
  return TRUE;
}

guint32
_tress_niff_scene_count_list (const TressNiffFile *file, guint32 tag, const char *name,
                              GError **error, gboolean *ok)
{
  List list;

  if (!_tress_niff_scene_find_list (file, tag, name, &list))
    return 0;
  if (!_tress_niff_scene_open_list (&list, FALSE, error))
    {
      *ok = FALSE;
      return 0;
    }
  return list.n_elem;
}
