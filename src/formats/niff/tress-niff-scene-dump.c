/* tress-niff-scene-dump.c: the scene for tress-cli info (a line a fact) and dump (JSON)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-niff-scene.h"

#define NONE TRESS_NIFF_NONE

static const char *
obj_type_name (guint32 type)
{
  switch (type)
    {
    case TRESS_NIFF_OBJ_NULL:
      return "null";
    case TRESS_NIFF_OBJ_3D:
      return "3D";
    case TRESS_NIFF_OBJ_BILLBOARD:
      return "billboard";
    default:
      return "unknown type";
    }
}

static const char *
geometry_name (guint32 kind)
{
  switch (kind)
    {
    case TRESS_NIFF_TAG_TRI_GROUP:
      return "TriGroup";
    case TRESS_NIFF_TAG_ENVELOPE:
      return "Envelope";
    default:
      return "ClusterShape";
    }
}

static const char *
node_kind_name (guint32 kind)
{
  switch (kind)
    {
    case TRESS_NIFF_TAG_OBJ_LIST:
      return "Obj";
    case TRESS_NIFF_TAG_CHAIN_ROOT_LIST:
      return "ChainRoot";
    case TRESS_NIFF_TAG_JOINT_LIST:
      return "Joint";
    case TRESS_NIFF_TAG_EFFECTOR_LIST:
      return "Effector";
    default:
      return "external";
    }
}

static void
append_obj_name (const TressNiffScene *scene, guint32 i, GString *out)
{
  if (scene->objects[i].name != NULL)
    g_string_append (out, scene->objects[i].name);
  else
    g_string_append_printf (out, "object %u", i);
}

/* Triangles and vertices a shape draws. */
static void
shape_counts (const TressNiffScene *scene, const TressNiffSceneShape *s, guint64 *tris,
              guint64 *verts)
{
  *tris = *verts = 0;
  if (s->geometry == NONE)
    return;
  if (s->geometry_kind == TRESS_NIFF_TAG_TRI_GROUP)
    {
      const TressNiffTriGroup *tg = &scene->tri_groups[s->geometry];
      *tris = tg->n_tris;
      if (tg->refs[TRESS_NIFF_REF_VTX].n > 0 && tg->refs[TRESS_NIFF_REF_VTX].group[0] != NONE)
        *verts = scene->vtx[tg->refs[TRESS_NIFF_REF_VTX].group[0]].n;
    }
  else if (s->geometry_kind == TRESS_NIFF_TAG_ENVELOPE)
    {
      const TressNiffEnvelope *env = &scene->envelopes[s->geometry];
      *tris = env->n_tris;
      for (guint32 k = 0; k < env->n_full; k++)
        if (env->full[k].vtx != NONE)
          *verts += scene->vtx[env->full[k].vtx].n;
      for (guint32 k = 0; k < env->n_weighted; k++)
        if (env->weighted[k].n_nodes > 0)
          *verts += scene->vtx[env->weighted[k].vtx[0]].n;
    }
}

void
tress_niff_scene_describe (const TressNiffScene *scene, GString *out)
{
  guint64 n_tris = 0, n_verts = 0;

  for (guint32 i = 0; i < scene->n_shapes; i++)
    {
      guint64 t, v;
      shape_counts (scene, &scene->shapes[i], &t, &v);
      n_tris += t;
      n_verts += v;
    }
  g_string_append_printf (out,
                          "scene %s: %u objects, %u shapes (%" G_GUINT64_FORMAT
                          " triangles, %" G_GUINT64_FORMAT " vertices), %u materials, %u parts\n",
                          scene->name != NULL ? scene->name : "(unnamed)", scene->n_objects,
                          scene->n_shapes, n_tris, n_verts, scene->n_mats, scene->n_parts);
  for (guint32 i = 0; i < scene->n_objects; i++)
    {
      const TressNiffSceneObject *o = &scene->objects[i];

      g_string_append_printf (out, "object %u ", i);
      append_obj_name (scene, i, out);
      g_string_append_printf (out, ": %s", obj_type_name (o->type));
      if (o->parent != NONE)
        {
          g_string_append (out, ", child of ");
          append_obj_name (scene, o->parent, out);
        }
      if (o->shape != NONE)
        {
          const TressNiffSceneShape *s = &scene->shapes[o->shape];
          guint64 t, v;

          shape_counts (scene, s, &t, &v);
          g_string_append_printf (
              out,
              ", shape %s (%s, %" G_GUINT64_FORMAT " triangles, %" G_GUINT64_FORMAT " vertices)",
              s->name != NULL ? s->name : "(unnamed)", geometry_name (s->geometry_kind), t, v);
        }
      if (o->anim_group != NONE)
        g_string_append_printf (out, ", AnimGroup %u", o->anim_group);
      if (o->n_chain_roots > 0)
        g_string_append_printf (out, ", %u IK chain%s", o->n_chain_roots,
                                o->n_chain_roots == 1 ? "" : "s");
      if (o->camera)
        g_string_append (out, ", camera");
      g_string_append_c (out, '\n');
    }
  if (scene->n_joints > 0 || scene->n_envelopes > 0)
    g_string_append_printf (out, "skinning: %u envelopes, %u IK chains, %u joints, %u effectors\n",
                            scene->n_envelopes, scene->n_chain_roots, scene->n_joints,
                            scene->n_effectors);
  if (scene->n_textures > 0 || scene->n_cluster_shapes > 0)
    g_string_append_printf (out, "not read: %u textures, %u cluster shapes\n", scene->n_textures,
                            scene->n_cluster_shapes);
  for (guint i = 0; i < scene->notes->len; i++)
    g_string_append_printf (out, "note: %s\n", (const char *)g_ptr_array_index (scene->notes, i));
}

/* ---- JSON ---- */

static void
add_u32 (TressJsonWriter *b, const char *name, guint32 v)
{
  tress_json_member (b, name);
  if (v == NONE)
    tress_json_add_null (b);
  else
    tress_json_add_int (b, v);
}

static void
add_str (TressJsonWriter *b, const char *name, const char *v)
{
  tress_json_member (b, name);
  tress_json_add_string (b, v); /* NULL gives null */
}

static void
add_u32s (TressJsonWriter *b, const char *name, const guint32 *v, guint32 n)
{
  tress_json_member (b, name);
  tress_json_begin_array (b);
  for (guint32 i = 0; i < n; i++)
    if (v[i] == NONE)
      tress_json_add_null (b);
    else
      tress_json_add_int (b, v[i]);
  tress_json_end_array (b);
}

static void
add_floats (TressJsonWriter *b, const char *name, const float *v, guint n)
{
  tress_json_member (b, name);
  tress_json_begin_array (b);
  for (guint i = 0; i < n; i++)
    tress_json_add_double (b, v[i]);
  tress_json_end_array (b);
}

static void
add_node (TressJsonWriter *b, const char *name, const TressNiffNodeRef *r)
{
  tress_json_member (b, name);
  tress_json_begin_object (b);
  add_str (b, "kind", node_kind_name (r->kind));
  add_u32 (b, "index", r->index);
  tress_json_end_object (b);
}

static void
dump_groups (TressJsonWriter *b, const char *name, const TressNiffFloatGroup *g, guint32 n,
             guint width)
{
  tress_json_member (b, name);
  tress_json_begin_array (b);
  for (guint32 i = 0; i < n; i++)
    {
      tress_json_begin_object (b);
      add_u32 (b, "offset", (guint32)g[i].offset);
      if (g[i].name != NULL)
        add_str (b, "name", g[i].name);
      add_u32 (b, "count", g[i].n);
      add_floats (b, "values", g[i].v, g[i].n * width);
      tress_json_end_object (b);
    }
  tress_json_end_array (b);
}

static void
dump_ik (TressJsonWriter *b, const char *name, const TressNiffIkNode *nodes, guint32 n,
         gboolean joint)
{
  tress_json_member (b, name);
  tress_json_begin_array (b);
  for (guint32 i = 0; i < n; i++)
    {
      const TressNiffIkNode *k = &nodes[i];
      tress_json_begin_object (b);
      add_u32 (b, "offset", (guint32)k->offset);
      add_str (b, "name", k->name);
      add_u32 (b, "type", k->type);
      add_u32 (b, "anim_group", k->anim_group);
      add_u32 (b, "joint", k->joint);
      if (joint)
        {
          add_u32 (b, "effector", k->effector);
          tress_json_member (b, "length");
          tress_json_add_double (b, k->length);
          add_floats (b, "resplane_axis", k->resplane, 3);
        }
      add_u32s (b, "objects", k->objects, k->n_objects);
      tress_json_end_object (b);
    }
  tress_json_end_array (b);
}

void
tress_niff_scene_dump (const TressNiffScene *scene, TressJsonWriter *b)
{
  static const char *const ref_keys[TRESS_NIFF_N_REFS]
      = { "vtx", "tri_color", "vtx_color", "tri_nv", "vtx_nv", "st" };

  tress_json_begin_object (b);
  add_str (b, "name", scene->name);
  add_u32s (b, "roots", scene->roots, scene->n_roots);

  tress_json_member (b, "objects");
  tress_json_begin_array (b);
  for (guint32 i = 0; i < scene->n_objects; i++)
    {
      const TressNiffSceneObject *o = &scene->objects[i];
      tress_json_begin_object (b);
      add_u32 (b, "offset", (guint32)o->offset);
      add_u32 (b, "index", o->index);
      add_str (b, "name", o->name);
      add_str (b, "type", obj_type_name (o->type));
      add_u32 (b, "state", o->state);
      add_u32 (b, "parent", o->parent);
      add_u32 (b, "parent_link", o->parent_link);
      add_u32s (b, "children", o->children, o->n_children);
      add_u32 (b, "lod_links", o->n_lod);
      add_u32 (b, "shape", o->shape);
      add_u32 (b, "mat", o->mat);
      add_u32 (b, "anim_group", o->anim_group);
      add_u32s (b, "chain_roots", o->chain_roots, o->n_chain_roots);
      tress_json_end_object (b);
    }
  tress_json_end_array (b);

  tress_json_member (b, "shapes");
  tress_json_begin_array (b);
  for (guint32 i = 0; i < scene->n_shapes; i++)
    {
      const TressNiffSceneShape *s = &scene->shapes[i];
      tress_json_begin_object (b);
      add_u32 (b, "offset", (guint32)s->offset);
      add_str (b, "name", s->name);
      add_u32 (b, "type", s->type);
      add_str (b, "geometry_kind", geometry_name (s->geometry_kind));
      add_u32 (b, "geometry", s->geometry);
      add_u32 (b, "mat", s->mat);
      add_u32s (b, "parts", s->parts, s->n_parts);
      tress_json_end_object (b);
    }
  tress_json_end_array (b);

  dump_groups (b, "vtx_groups", scene->vtx, scene->n_vtx, 3);
  dump_groups (b, "tri_color_groups", scene->tri_colors, scene->n_tri_colors, 4);
  dump_groups (b, "vtx_color_groups", scene->vtx_colors, scene->n_vtx_colors, 4);
  dump_groups (b, "tri_nv_groups", scene->tri_nvs, scene->n_tri_nvs, 3);
  dump_groups (b, "vtx_nv_groups", scene->vtx_nvs, scene->n_vtx_nvs, 3);
  dump_groups (b, "st_groups", scene->sts, scene->n_sts, 2);
  dump_groups (b, "weight_groups", scene->weights, scene->n_weights, 1);

  tress_json_member (b, "tri_groups");
  tress_json_begin_array (b);
  for (guint32 i = 0; i < scene->n_tri_groups; i++)
    {
      const TressNiffTriGroup *tg = &scene->tri_groups[i];
      tress_json_begin_object (b);
      add_u32 (b, "offset", (guint32)tg->offset);
      add_str (b, "name", tg->name);
      add_u32 (b, "anim_type", tg->anim_type);
      add_u32 (b, "anim_frames", tg->anim_frames);
      tress_json_member (b, "references");
      tress_json_begin_object (b);
      for (guint k = 0; k < TRESS_NIFF_N_REFS; k++)
        {
          tress_json_member (b, ref_keys[k]);
          tress_json_begin_object (b);
          if (tg->refs[k].keys != NULL)
            add_u32s (b, "keys", tg->refs[k].keys, tg->refs[k].n);
          add_u32s (b, "groups", tg->refs[k].group, tg->refs[k].n);
          tress_json_end_object (b);
        }
      tress_json_end_object (b);
      tress_json_member (b, "tris");
      tress_json_begin_array (b);
      for (guint32 t = 0; t < tg->n_tris; t++)
        {
          const TressNiffTri *tri = &tg->tris[t];
          tress_json_begin_object (b);
          add_u32 (b, "tri_nv", tri->tri_nv);
          add_u32 (b, "tri_color", tri->tri_color);
          add_u32s (b, "vtx", tri->vtx, 3);
          add_u32s (b, "st", tri->st, 3);
          add_u32s (b, "vtx_nv", tri->vtx_nv, 3);
          add_u32s (b, "vtx_color", tri->vtx_color, 3);
          tress_json_end_object (b);
        }
      tress_json_end_array (b);
      tress_json_end_object (b);
    }
  tress_json_end_array (b);

  tress_json_member (b, "parts");
  tress_json_begin_array (b);
  for (guint32 i = 0; i < scene->n_parts; i++)
    {
      const TressNiffPart *p = &scene->parts[i];
      tress_json_begin_object (b);
      add_u32 (b, "offset", (guint32)p->offset);
      add_str (b, "name", p->name);
      if (p->mat == TRESS_NIFF_PART_USE_SHAPE_MAT)
        add_str (b, "mat", "shape");
      else
        add_u32 (b, "mat", p->mat);
      add_u32 (b, "tri_group", p->tri_group);
      add_u32s (b, "tris", p->tris, p->n_tris);
      tress_json_end_object (b);
    }
  tress_json_end_array (b);

  tress_json_member (b, "materials");
  tress_json_begin_array (b);
  for (guint32 i = 0; i < scene->n_mats; i++)
    {
      const TressNiffMat *m = &scene->mats[i];
      tress_json_begin_object (b);
      add_u32 (b, "offset", (guint32)m->offset);
      add_str (b, "name", m->name);
      add_str (b, "type",
               m->type == TRESS_NIFF_MAT_TYPE_N64 ? "N64"
               : m->type == 0                     ? "NIFF"
                                                  : NULL);
      add_u32 (b, "shade_type", m->shade);
      add_u32s (b, "color_type", m->color_type, 2);
      add_u32s (b, "alpha_type", m->alpha_type, 2);
      add_floats (b, "prim", m->prim, 4);
      if (m->has_ext)
        {
          add_floats (b, "ambient", m->ambient, 4);
          add_floats (b, "emission", m->emission, 4);
          add_floats (b, "diffuse", m->diffuse, 4);
        }
      add_u32 (b, "textures", m->n_tex);
      tress_json_end_object (b);
    }
  tress_json_end_array (b);

  tress_json_member (b, "envelopes");
  tress_json_begin_array (b);
  for (guint32 i = 0; i < scene->n_envelopes; i++)
    {
      const TressNiffEnvelope *env = &scene->envelopes[i];
      tress_json_begin_object (b);
      add_u32 (b, "offset", (guint32)env->offset);
      add_str (b, "name", env->name);
      tress_json_member (b, "full_weighted_parts");
      tress_json_begin_array (b);
      for (guint32 k = 0; k < env->n_full; k++)
        {
          const TressNiffFullPart *p = &env->full[k];
          tress_json_begin_object (b);
          add_node (b, "node", &p->node);
          add_u32 (b, "vtx_group", p->vtx);
          add_u32 (b, "vtx_nv_group", p->vtx_nv);
          add_u32 (b, "tri_nv_group", p->tri_nv);
          add_u32 (b, "vtx_color_group", p->vtx_color);
          add_u32 (b, "tri_color_group", p->tri_color);
          add_u32 (b, "st_group", p->st);
          tress_json_end_object (b);
        }
      tress_json_end_array (b);
      tress_json_member (b, "weighted_parts");
      tress_json_begin_array (b);
      for (guint32 k = 0; k < env->n_weighted; k++)
        {
          const TressNiffWeightedPart *p = &env->weighted[k];
          tress_json_begin_object (b);
          tress_json_member (b, "nodes");
          tress_json_begin_array (b);
          for (guint32 n = 0; n < p->n_nodes; n++)
            {
              tress_json_begin_object (b);
              add_str (b, "kind", node_kind_name (p->nodes[n].kind));
              add_u32 (b, "index", p->nodes[n].index);
              add_u32 (b, "weight_group", p->weight_group[n]);
              add_u32 (b, "vtx_group", p->vtx[n]);
              add_u32 (b, "vtx_nv_group", p->vtx_nv[n]);
              tress_json_end_object (b);
            }
          tress_json_end_array (b);
          tress_json_end_object (b);
        }
      tress_json_end_array (b);
      add_u32 (b, "morph_parts", env->n_morph);
      add_u32 (b, "tris", env->n_tris);
      tress_json_end_object (b);
    }
  tress_json_end_array (b);

  dump_ik (b, "chain_roots", scene->chain_roots, scene->n_chain_roots, FALSE);
  dump_ik (b, "joints", scene->joints, scene->n_joints, TRUE);
  dump_ik (b, "effectors", scene->effectors, scene->n_effectors, FALSE);
  add_u32 (b, "textures_not_read", scene->n_textures);
  add_u32 (b, "cluster_shapes_not_read", scene->n_cluster_shapes);
  tress_json_member (b, "notes");
  tress_json_begin_array (b);
  for (guint i = 0; i < scene->notes->len; i++)
    tress_json_add_string (b, g_ptr_array_index (scene->notes, i));
  tress_json_end_array (b);
  tress_json_end_object (b);
}
