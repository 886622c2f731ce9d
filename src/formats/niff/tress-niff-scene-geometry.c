/* tress-niff-scene-geometry.c: the float groups, triangle groups, parts, materials and shapes of a
 * NIFF scene
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-niff-scene-private.h"

#include <string.h>

/* ---- float groups (Vtx, Color, Vector, St, Weight) ---- */

const GroupKind _tress_niff_scene_vtx_kind = { 0x00040100, "VtxGroup", 3, 24, 20, 8, 16, 12 };
const GroupKind _tress_niff_scene_tri_color_kind
    = { 0x00050100, "TriColorGroup", 4, 20, 16, 8, G_MAXSIZE, 12 };
const GroupKind _tress_niff_scene_vtx_color_kind
    = { 0x00050200, "VtxColorGroup", 4, 20, 16, 8, G_MAXSIZE, 12 };
const GroupKind _tress_niff_scene_tri_nv_kind
    = { 0x00060100, "TriNvGroup", 3, 20, 16, 8, G_MAXSIZE, 12 };
const GroupKind _tress_niff_scene_vtx_nv_kind
    = { 0x00060200, "VtxNvGroup", 3, 20, 16, 8, G_MAXSIZE, 12 };
const GroupKind _tress_niff_scene_st_kind = { 0x00070100, "StGroup", 2, 20, 16, 8, G_MAXSIZE, 12 };
/* WeightGroup: tag, index, size, name, count, nin, usr, then the weights. */
const GroupKind _tress_niff_scene_weight_kind
    = { 0x00230100, "WeightGroup", 1, 28, 16, G_MAXSIZE, 12, 8 };

static gboolean
read_group (const TressNiffFile *file, const Elem *e, const GroupKind *k, TressNiffFloatGroup *g,
            GError **error)
{
  gsize head = k->min_head;
  guint32 n;
  gsize room;

  if (!_tress_niff_scene_check_elem (e, k->tag, k->size_at, k->min_head, error))
    return FALSE;
  if (k->hsize_at != G_MAXSIZE)
    {
      guint32 hsize = _tress_niff_scene_elem_u32 (e, k->hsize_at);
      if (hsize < k->min_head || hsize > e->size || hsize % 4)
        return _tress_niff_scene_elem_error (
            e, error, TRESS_ERROR_BAD_VALUE, k->hsize_at, "header size",
            "expected a multiple of 4 from %" G_GSIZE_FORMAT " to the group size, found %u",
            k->min_head, hsize);
      head = hsize;
    }
  n = _tress_niff_scene_elem_u32 (e, k->count_at);
  room = e->size - head;
  if (k == &_tress_niff_scene_weight_kind)
    room -= MIN (room,
                 (gsize)_tress_niff_scene_elem_u32 (e, 20) + _tress_niff_scene_elem_u32 (e, 24));
  if (n > room / (4 * k->width))
    return _tress_niff_scene_elem_error (e, error, TRESS_ERROR_BAD_COUNT, k->count_at, "count",
                                         "expected at most %" G_GSIZE_FORMAT
                                         " items of %u bytes in the group, found %u",
                                         room / (4 * k->width), 4 * k->width, n);
  if (k != &_tress_niff_scene_weight_kind && head + (gsize)n * 4 * k->width != e->size)
    return _tress_niff_scene_elem_error (
        e, error, TRESS_ERROR_BAD_VALUE, k->size_at, "size",
        "expected the header and %u items of %u bytes (%" G_GSIZE_FORMAT
        "), found %" G_GSIZE_FORMAT,
        n, 4 * k->width, head + (gsize)n * 4 * k->width, e->size);
  if (k == &_tress_niff_scene_weight_kind
      && head + (gsize)n * 4 + _tress_niff_scene_elem_u32 (e, 20)
                 + _tress_niff_scene_elem_u32 (e, 24)
             != e->size)
    return _tress_niff_scene_elem_error (
        e, error, TRESS_ERROR_BAD_VALUE, 20, "extension block sizes",
        "expected the weights and both blocks to fill the group's %" G_GSIZE_FORMAT
        " bytes, found %u weights and %u + %u",
        e->size, n, _tress_niff_scene_elem_u32 (e, 20), _tress_niff_scene_elem_u32 (e, 24));
  g->offset = e->off;
  g->name = k->name_at != G_MAXSIZE
                ? _tress_niff_scene_dup_name (file, _tress_niff_scene_elem_u32 (e, k->name_at))
                : NULL;
  g->n = n;
  g->v = g_new (float, MAX ((gsize)n * k->width, 1));
  for (gsize i = 0; i < (gsize)n * k->width; i++)
    g->v[i] = _tress_niff_scene_elem_f32 (e, head + 4 * i);
  return TRUE;
}

/* A list of one kind of group, or two kinds (the first n[0], then n[1]). */
gboolean
_tress_niff_scene_read_groups (const TressNiffFile *file, guint32 list_tag, const char *list_name,
                               const GroupKind *k0, guint32 *n0, TressNiffFloatGroup **g0,
                               const GroupKind *k1, guint32 *n1, TressNiffFloatGroup **g1,
                               GError **error)
{
  List list;
  gsize pos = 0;

  if (!_tress_niff_scene_find_list (file, list_tag, list_name, &list))
    return TRUE;
  if (!_tress_niff_scene_open_list (&list, k1 != NULL, error))
    return FALSE;
  *n0 = list.n[0];
  *g0 = g_new0 (TressNiffFloatGroup, MAX (list.n[0], 1));
  if (k1 != NULL)
    {
      *n1 = list.n[1];
      *g1 = g_new0 (TressNiffFloatGroup, MAX (list.n[1], 1));
    }
  for (guint i = 0; i < list.n_elem; i++)
    {
      gboolean second = i >= list.n[0];
      const GroupKind *k = second ? k1 : k0;
      Elem e;

      _tress_niff_scene_list_elem (&list, i, &pos, k->what, &e);
      e.index = second ? i - list.n[0] : i;
      if (!read_group (file, &e, k, second ? &(*g1)[i - list.n[0]] : &(*g0)[i], error))
        return FALSE;
    }
  return TRUE;
}

/* ---- Tri ---- */

static const char *const ref_names[TRESS_NIFF_N_REFS] = {
  "ReferenceVtxData",   "ReferenceTriColorData", "ReferenceVtxColorData",
  "ReferenceTriNvData", "ReferenceVtxNvData",    "ReferenceStData",
};

static guint32
ref_limit (const TressNiffScene *scene, guint kind)
{
  switch (kind)
    {
    case TRESS_NIFF_REF_VTX:
      return scene->n_vtx;
    case TRESS_NIFF_REF_TRI_COLOR:
      return scene->n_tri_colors;
    case TRESS_NIFF_REF_VTX_COLOR:
      return scene->n_vtx_colors;
    case TRESS_NIFF_REF_TRI_NV:
      return scene->n_tri_nvs;
    case TRESS_NIFF_REF_VTX_NV:
      return scene->n_vtx_nvs;
    default:
      return scene->n_sts;
    }
}

static const TressNiffFloatGroup *
ref_group (const TressNiffScene *scene, guint kind, guint32 index)
{
  switch (kind)
    {
    case TRESS_NIFF_REF_VTX:
      return &scene->vtx[index];
    case TRESS_NIFF_REF_TRI_COLOR:
      return &scene->tri_colors[index];
    case TRESS_NIFF_REF_VTX_COLOR:
      return &scene->vtx_colors[index];
    case TRESS_NIFF_REF_TRI_NV:
      return &scene->tri_nvs[index];
    case TRESS_NIFF_REF_VTX_NV:
      return &scene->vtx_nvs[index];
    default:
      return &scene->sts[index];
    }
}

/* The fewest items any group of a reference table holds (G_MAXUINT32 when
 * the table names no group: its indices are then not followed). */
static guint32
ref_min_items (const TressNiffScene *scene, guint kind, const TressNiffRefTable *t)
{
  guint32 n = G_MAXUINT32;

  for (guint32 i = 0; i < t->n; i++)
    if (t->group[i] != NONE)
      n = MIN (n, ref_group (scene, kind, t->group[i])->n);
  return n;
}

static gboolean
read_ref_table (const TressNiffScene *scene, const Elem *e, gsize *at, guint kind,
                guint32 anim_type, guint32 frames, TressNiffRefTable *t, GError **error)
{
  guint32 full = 1u << (4 * kind), key = 2u << (4 * kind);
  guint32 limit = ref_limit (scene, kind);
  gsize indices;

  if ((anim_type & full) && (anim_type & key))
    return _tress_niff_scene_elem_error (
        e, error, TRESS_ERROR_BAD_VALUE, 20, "tri_anim_type",
        "expected FULL or KEY animation of %s, not both, found 0x%08x", ref_names[kind], anim_type);
  if (anim_type & key)
    {
      if (!_tress_niff_scene_elem_has (e, *at, 1, ref_names[kind], error))
        return FALSE;
      t->n = _tress_niff_scene_elem_u32 (e, *at);
      if (!_tress_niff_scene_elem_has (e, *at + 4, 2 * (guint64)t->n, ref_names[kind], error))
        return FALSE;
      t->keys = _tress_niff_scene_dup_words (e, *at + 4, t->n);
      indices = *at + 4 + 4 * (gsize)t->n;
    }
  else
    {
      /* FULL: one group per frame, 0 ... tri_anim_frame_num. */
      guint64 n = (anim_type & full) ? (guint64)frames + 1 : 1;
      if (!_tress_niff_scene_elem_has (e, *at, n, ref_names[kind], error))
        return FALSE;
      t->n = (guint32)n;
      indices = *at;
    }
  t->group = g_new (guint32, MAX (t->n, 1));
  for (guint32 i = 0; i < t->n; i++)
    if (!_tress_niff_scene_read_index (e, indices + 4 * i, limit, kind != TRESS_NIFF_REF_VTX,
                                       ref_names[kind], "groups of its list", &t->group[i], error))
      return FALSE;
  *at = indices + 4 * (gsize)t->n;
  return TRUE;
}

/* Index @v of a triangle, checked against every group its table may use.
 * A vertex index outside is an error; a colour, normal or st index outside is
 * not followed (*out = NONE) and noted once per TriGroup and field, as a real
 * writer stores vertex indices there (see docs/niff-scene.md). */
static gboolean
tri_index (TressNiffScene *scene, const Elem *e, gsize at, guint32 v, const TressNiffTriGroup *tg,
           guint kind, const char *field, guint32 *noted, guint32 *out, GError **error)
{
  guint32 n = ref_min_items (scene, kind, &tg->refs[kind]);

  *out = v;
  if (n == G_MAXUINT32 || v < n || (v == NONE && kind != TRESS_NIFF_REF_VTX))
    return TRUE;
  if (kind == TRESS_NIFF_REF_VTX)
    return _tress_niff_scene_check_index (e, at, v, n, FALSE, field, "vertices of its VtxGroup",
                                          error);
  *out = NONE;
  if (!(*noted & (1u << kind)))
    {
      *noted |= 1u << kind;
      g_ptr_array_add (scene->notes,
                       g_strdup_printf ("%s %u %s at offset 0x%" G_GSIZE_MODIFIER
                                        "x is %u, but its group holds %u: not used (nor the "
                                        "same field of later triangles that point outside)",
                                        e->what, e->index, field, e->off + at, v, n));
    }
  return TRUE;
}

static gboolean
read_tri_group (const TressNiffFile *file, TressNiffScene *scene, const Elem *e,
                TressNiffTriGroup *tg, GError **error)
{
  static const char *const vfields[4][3] = {
    { "vtx_index0", "vtx_index1", "vtx_index2" },
    { "st_index0", "st_index1", "st_index2" },
    { "vtx_nv_index0", "vtx_nv_index1", "vtx_nv_index2" },
    { "vtx_color_index0", "vtx_color_index1", "vtx_color_index2" },
  };
  static const guint vkinds[4]
      = { TRESS_NIFF_REF_VTX, TRESS_NIFF_REF_ST, TRESS_NIFF_REF_VTX_NV, TRESS_NIFF_REF_VTX_COLOR };
  guint32 hsize, n, noted = 0;
  gsize at, room;
  g_autofree char *tri_what = g_strdup_printf ("TriGroup %u Tri", e->index);

  if (!_tress_niff_scene_check_elem (e, TRESS_NIFF_TAG_TRI_GROUP, 12, 32, error))
    return FALSE;
  hsize = _tress_niff_scene_elem_u32 (e, 8);
  if (hsize < 32 || hsize > e->size || hsize % 4)
    return _tress_niff_scene_elem_error (
        e, error, TRESS_ERROR_BAD_VALUE, 8, "tri_group_header_size",
        "expected a multiple of 4 from 32 to the group size, found %u", hsize);
  tg->offset = e->off;
  tg->name = _tress_niff_scene_dup_name (file, _tress_niff_scene_elem_u32 (e, 16));
  tg->anim_type = _tress_niff_scene_elem_u32 (e, 20);
  tg->anim_frames = _tress_niff_scene_elem_u32 (e, 24);
  n = _tress_niff_scene_elem_u32 (e, 28);
  at = hsize;
  for (guint k = 0; k < TRESS_NIFF_N_REFS; k++)
    if (!read_ref_table (scene, e, &at, k, tg->anim_type, tg->anim_frames, &tg->refs[k], error))
      return FALSE;
  room = e->size - at;
  if (n > room / 76)
    return _tress_niff_scene_elem_error (
        e, error, TRESS_ERROR_BAD_COUNT, 28, "tri_num",
        "expected at most %" G_GSIZE_FORMAT " triangles of 76 bytes, found %u", room / 76, n);
  tg->n_tris = n;
  tg->tris = g_new0 (TressNiffTri, MAX (n, 1));
  for (guint32 i = 0; i < n; i++)
    {
      Elem t = { e->data, e->off + at, e->size - at, tri_what, i, TRUE };
      TressNiffTri *tri = &tg->tris[i];
      guint32 size, nin;

      if (!_tress_niff_scene_elem_has (&t, 0, 19, "header", error))
        return FALSE;
      size = _tress_niff_scene_elem_u32 (&t, 8);
      if (_tress_niff_scene_elem_u32 (&t, 0) != 0x00080101)
        return _tress_niff_scene_elem_error (&t, error, TRESS_ERROR_BAD_VALUE, 0, "tri_tag",
                                             "expected 0x00080101, found 0x%08x",
                                             _tress_niff_scene_elem_u32 (&t, 0));
      if (size < 76 || size > t.size || size % 4)
        return _tress_niff_scene_elem_error (
            &t, error, TRESS_ERROR_BAD_VALUE, 8, "tri_size",
            "expected a multiple of 4 from 76 to the %" G_GSIZE_FORMAT
            " bytes left in the TriGroup, found %u",
            t.size, size);
      t.size = size;
      if (!_tress_niff_scene_check_tail (&t, 76, 68, &nin, error))
        return FALSE;
      if (!tri_index (scene, &t, 12, _tress_niff_scene_elem_u32 (&t, 12), tg, TRESS_NIFF_REF_TRI_NV,
                      "tri_nv_index", &noted, &tri->tri_nv, error)
          || !tri_index (scene, &t, 16, _tress_niff_scene_elem_u32 (&t, 16), tg,
                         TRESS_NIFF_REF_TRI_COLOR, "tri_color_index", &noted, &tri->tri_color,
                         error))
        return FALSE;
      for (guint c = 0; c < 3; c++)
        for (guint f = 0; f < 4; f++)
          {
            gsize where = 20 + 16 * c + 4 * f;
            guint32 *dst = f == 0   ? tri->vtx
                           : f == 1 ? tri->st
                           : f == 2 ? tri->vtx_nv
                                    : tri->vtx_color;

            if (!tri_index (scene, &t, where, _tress_niff_scene_elem_u32 (&t, where), tg, vkinds[f],
                            vfields[f][c], &noted, &dst[c], error))
              return FALSE;
          }
      at += size;
    }
  if (at != e->size)
    return _tress_niff_scene_elem_error (
        e, error, TRESS_ERROR_BAD_VALUE, 12, "tri_group_size",
        "expected the header, the reference data and the triangles (%" G_GSIZE_FORMAT
        " bytes), found %" G_GSIZE_FORMAT,
        at, e->size);
  return TRUE;
}

gboolean
_tress_niff_scene_read_tri_groups (const TressNiffFile *file, TressNiffScene *scene, GError **error)
{
  List list;
  gsize pos = 0;

  if (!_tress_niff_scene_find_list (file, 0x00080000, "TriList", &list))
    return TRUE;
  if (!_tress_niff_scene_open_list (&list, FALSE, error))
    return FALSE;
  scene->n_tri_groups = list.n_elem;
  scene->tri_groups = g_new0 (TressNiffTriGroup, MAX (list.n_elem, 1));
  for (guint i = 0; i < list.n_elem; i++)
    {
      Elem e;

      _tress_niff_scene_list_elem (&list, i, &pos, "TriGroup", &e);
      if (!read_tri_group (file, scene, &e, &scene->tri_groups[i], error))
        return FALSE;
    }
  return TRUE;
}

/* ---- Part, Mat ---- */

gboolean
_tress_niff_scene_read_parts (const TressNiffFile *file, TressNiffScene *scene, GError **error)
{
  List list;
  gsize pos = 0;

  if (!_tress_niff_scene_find_list (file, 0x00090000, "PartList", &list))
    return TRUE;
  if (!_tress_niff_scene_open_list (&list, FALSE, error))
    return FALSE;
  scene->n_parts = list.n_elem;
  scene->parts = g_new0 (TressNiffPart, MAX (list.n_elem, 1));
  for (guint i = 0; i < list.n_elem; i++)
    {
      TressNiffPart *p = &scene->parts[i];
      Elem e;
      guint32 nin;

      _tress_niff_scene_list_elem (&list, i, &pos, "Part", &e);
      if (!_tress_niff_scene_check_elem (&e, 0x00090100, 8, 36, error))
        return FALSE;
      p->n_tris = _tress_niff_scene_elem_u32 (&e, 24);
      if (!_tress_niff_scene_elem_has (&e, 36, p->n_tris, "part_tri_num", error)
          || !_tress_niff_scene_check_tail (&e, 36 + 4 * (gsize)p->n_tris, 28, &nin, error))
        return FALSE;
      p->offset = e.off;
      p->name = _tress_niff_scene_dup_name (file, _tress_niff_scene_elem_u32 (&e, 12));
      p->mat = _tress_niff_scene_elem_u32 (&e, 16);
      p->tri_group = _tress_niff_scene_elem_u32 (&e, 20);
      p->tris = _tress_niff_scene_dup_words (&e, 36, p->n_tris);
      if (p->mat != TRESS_NIFF_PART_USE_SHAPE_MAT
          && !_tress_niff_scene_check_index (&e, 16, p->mat, scene->n_mats, TRUE, "mat_index",
                                             "materials", error))
        return FALSE;
      /* Envelope shapes list their Parts with no TriGroup (0xFFFFFFFF): the
       * triangles are then the envelope's. */
      if (p->tri_group != NONE)
        {
          if (!_tress_niff_scene_check_index (&e, 20, p->tri_group, scene->n_tri_groups, TRUE,
                                              "tri_group_index", "TriGroups", error))
            return FALSE;
          for (guint32 k = 0; k < p->n_tris; k++)
            if (!_tress_niff_scene_check_index (&e, 36 + 4 * k, p->tris[k],
                                                scene->tri_groups[p->tri_group].n_tris, FALSE,
                                                "tri_index", "triangles of its TriGroup", error))
              return FALSE;
        }
    }
  return TRUE;
}

gboolean
_tress_niff_scene_read_mats (const TressNiffFile *file, TressNiffScene *scene, GError **error)
{
  List list;
  gsize pos = 0;

  if (!_tress_niff_scene_find_list (file, 0x000a0000, "MatList", &list))
    return TRUE;
  if (!_tress_niff_scene_open_list (&list, FALSE, error))
    return FALSE;
  scene->n_mats = list.n_elem;
  scene->mats = g_new0 (TressNiffMat, MAX (list.n_elem, 1));
  for (guint i = 0; i < list.n_elem; i++)
    {
      TressNiffMat *m = &scene->mats[i];
      Elem e;
      guint32 nin;
      gsize ext;

      _tress_niff_scene_list_elem (&list, i, &pos, "Mat", &e);
      if (!_tress_niff_scene_check_elem (&e, 0x000a0100, 8, 104, error))
        return FALSE;
      m->n_tex = _tress_niff_scene_elem_u32 (&e, 92);
      if (!_tress_niff_scene_elem_has (&e, 104, m->n_tex, "tex_num", error))
        return FALSE;
      ext = 104 + 4 * (gsize)m->n_tex;
      if (!_tress_niff_scene_check_tail (&e, ext, 96, &nin, error))
        return FALSE;
      m->offset = e.off;
      m->name = _tress_niff_scene_dup_name (file, _tress_niff_scene_elem_u32 (&e, 12));
      m->type = _tress_niff_scene_elem_u32 (&e, 16);
      m->shade = _tress_niff_scene_elem_u32 (&e, 20);
      for (guint k = 0; k < 2; k++)
        {
          m->color_type[k] = _tress_niff_scene_elem_u32 (&e, 24 + 4 * k);
          m->alpha_type[k] = _tress_niff_scene_elem_u32 (&e, 32 + 4 * k);
        }
      for (guint k = 0; k < 4; k++)
        m->prim[k] = _tress_niff_scene_elem_f32 (&e, 40 + 4 * k);
      if (file->niff2 && nin >= 48)
        {
          m->has_ext = TRUE;
          for (guint k = 0; k < 4; k++)
            {
              m->ambient[k] = _tress_niff_scene_elem_f32 (&e, ext + 4 * k);
              m->emission[k] = _tress_niff_scene_elem_f32 (&e, ext + 16 + 4 * k);
              m->diffuse[k] = _tress_niff_scene_elem_f32 (&e, ext + 32 + 4 * k);
            }
        }
    }
  return TRUE;
}

/* ---- Shape ---- */

gboolean
_tress_niff_scene_read_shapes (const TressNiffFile *file, TressNiffScene *scene, GError **error)
{
  List list;
  gsize pos = 0;

  if (!_tress_niff_scene_find_list (file, 0x00030000, "ShapeList", &list))
    return TRUE;
  if (!_tress_niff_scene_open_list (&list, FALSE, error))
    return FALSE;
  scene->n_shapes = list.n_elem;
  scene->shapes = g_new0 (TressNiffSceneShape, MAX (list.n_elem, 1));
  for (guint i = 0; i < list.n_elem; i++)
    {
      TressNiffSceneShape *s = &scene->shapes[i];
      Elem e;
      guint32 nin, limit;
      gsize ext;

      _tress_niff_scene_list_elem (&list, i, &pos, "Shape", &e);
      if (!_tress_niff_scene_check_elem (&e, 0x00030100, 8, 40, error))
        return FALSE;
      s->n_parts = _tress_niff_scene_elem_u32 (&e, 28);
      if (!_tress_niff_scene_elem_has (&e, 40, s->n_parts, "shape_part_num", error))
        return FALSE;
      ext = 40 + 4 * (gsize)s->n_parts;
      if (!_tress_niff_scene_check_tail (&e, ext, 32, &nin, error))
        return FALSE;
      s->offset = e.off;
      s->name = _tress_niff_scene_dup_name (file, _tress_niff_scene_elem_u32 (&e, 12));
      s->type = _tress_niff_scene_elem_u32 (&e, 16);
      s->geometry = _tress_niff_scene_elem_u32 (&e, 20);
      s->mat = _tress_niff_scene_elem_u32 (&e, 24);
      s->parts = _tress_niff_scene_dup_words (&e, 40, s->n_parts);
      s->geometry_kind = file->niff2 && nin >= 4 ? _tress_niff_scene_elem_u32 (&e, ext)
                                                 : TRESS_NIFF_TAG_TRI_GROUP;
      switch (s->geometry_kind)
        {
        case TRESS_NIFF_TAG_TRI_GROUP:
          limit = scene->n_tri_groups;
          break;
        case TRESS_NIFF_TAG_ENVELOPE:
          limit = scene->n_envelopes;
          break;
        case TRESS_NIFF_TAG_CLUSTER_SHAPE:
          limit = scene->n_cluster_shapes;
          break;
        default:
          return _tress_niff_scene_elem_error (
              &e, error, TRESS_ERROR_BAD_VALUE, ext, "kind_of_node_for_geometry",
              "expected TriGroup 0x00080100, Envelope 0x00220100 or ClusterShape "
              "0x00280100, found 0x%08x",
              s->geometry_kind);
        }
      if (!_tress_niff_scene_check_index (&e, 20, s->geometry, limit, TRUE, "shape_tri_link",
                                          "nodes of its geometry kind", error)
          || !_tress_niff_scene_check_index (&e, 24, s->mat, scene->n_mats, TRUE, "shape_mat_link",
                                             "materials", error))
        return FALSE;
      for (guint32 k = 0; k < s->n_parts; k++)
        {
          const TressNiffPart *part;

          if (!_tress_niff_scene_check_index (&e, 40 + 4 * k, s->parts[k], scene->n_parts, FALSE,
                                              "shape_part_link", "Parts", error))
            return FALSE;
          /* A Part of an envelope shape names the envelope's triangles. */
          part = &scene->parts[s->parts[k]];
          if (s->geometry_kind == TRESS_NIFF_TAG_ENVELOPE && s->geometry != NONE
              && part->tri_group == NONE)
            for (guint32 t = 0; t < part->n_tris; t++)
              {
                Elem pe = { NULL, part->offset, 0, "Part", s->parts[k], TRUE };
                if (!_tress_niff_scene_check_index (
                        &pe, 36 + 4 * t, part->tris[t], scene->envelopes[s->geometry].n_tris, FALSE,
                        "tri_index", "triangles of its shape's Envelope", error))
                  return FALSE;
              }
        }
    }
  return TRUE;
}
