/* tress-niff-scene.c: the scene lists of a NIFF file, read into plain arrays
 *
 * Every list is walked through its element size table, every element is read
 * inside the size the table gives it, and every count is checked against the
 * bytes of its element before anything is allocated, so allocation is bounded
 * by the file size. Links the preview follows (objects to shapes and
 * materials, shapes to geometry, triangles to vertices, envelope parts to
 * nodes and groups) are checked here, once, so the code that draws never
 * checks an index. See docs/niff-scene.md for the layouts.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-niff-scene.h"

#include <string.h>

#include "tress-niff-private.h"

#define NONE TRESS_NIFF_NONE

/* ---- bounded access ---- */

/* One element (or list header) of the file being read: every read is
 * checked against [off, off + size) and an error names the element. */
typedef struct
{
  const guint8 *data; /* the whole file */
  gsize off;
  gsize size;
  const char *what; /* "Obj", "TriGroup 2 Tri", ... */
  guint index;
  gboolean indexed; /* print @index after @what */
} Elem;

static gboolean G_GNUC_PRINTF (6, 7)
    elem_error (const Elem *e, GError **error, TressError code, gsize at, const char *field,
                const char *expected_format, ...)
{
  g_autofree char *name = NULL;
  g_autofree char *expected = NULL;
  va_list args;

  va_start (args, expected_format);
  expected = g_strdup_vprintf (expected_format, args);
  va_end (args);
  name = e->indexed ? g_strdup_printf ("%s %u %s", e->what, e->index, field)
                    : g_strdup_printf ("%s %s", e->what, field);
  /* The found value is formatted by the caller into @expected's tail. */
  g_set_error (error, TRESS_ERROR, code, "%s at offset 0x%" G_GSIZE_MODIFIER "x: %s", name,
               e->off + at, expected);
  return FALSE;
}

static inline guint32
elem_u32 (const Elem *e, gsize at)
{
  return niff_word (e->data + e->off + at);
}

static inline float
elem_f32 (const Elem *e, gsize at)
{
  return niff_f32 (niff_word (e->data + e->off + at));
}

/* Checks that @n words at @at lie inside the element. */
static gboolean
elem_has (const Elem *e, gsize at, guint64 n_words, const char *field, GError **error)
{
  if (at <= e->size && n_words <= (e->size - at) / 4)
    return TRUE;
  return elem_error (e, error, TRESS_ERROR_TRUNCATED, at, field,
                     "expected %" G_GUINT64_FORMAT " words inside the %" G_GSIZE_FORMAT
                     "-byte element, found %" G_GSIZE_FORMAT " bytes left",
                     n_words, e->size, at <= e->size ? e->size - at : 0);
}

/* An index field: below @limit, or NONE when @none_ok. */
static gboolean
check_index (const Elem *e, gsize at, guint32 v, guint32 limit, gboolean none_ok, const char *field,
             const char *target, GError **error)
{
  if (v < limit || (none_ok && v == NONE))
    return TRUE;
  return elem_error (e, error, TRESS_ERROR_BAD_VALUE, at, field,
                     "expected an index below %u (the %s)%s, found %u", limit, target,
                     none_ok ? " or 0xFFFFFFFF" : "", v);
}

/* Reads the index at @at and checks it. */
static gboolean
read_index (const Elem *e, gsize at, guint32 limit, gboolean none_ok, const char *field,
            const char *target, guint32 *out, GError **error)
{
  *out = elem_u32 (e, at);
  return check_index (e, at, *out, limit, none_ok, field, target, error);
}

/* ---- lists ---- */

typedef struct
{
  Elem head;      /* the list as a whole */
  guint n_counts; /* Color and Vector lists have two element counts */
  guint32 n[2];
  gsize elems;    /* offset of the first element */
  guint32 n_elem; /* n[0] + n[1] */
} List;

/* The list with @tag, or FALSE (and an empty @list) when the file has none. */
static gboolean
find_list (const TressNiffFile *file, guint32 tag, const char *name, List *list)
{
  memset (list, 0, sizeof *list);
  list->head.data = g_bytes_get_data (file->bytes, NULL);
  list->head.what = name;
  for (guint i = 0; i < file->lists->len; i++)
    {
      const TressNiffList *l = &g_array_index (file->lists, TressNiffList, i);
      if (l->tag == tag)
        {
          list->head.off = l->offset;
          list->head.size = l->size;
          return TRUE;
        }
    }
  return FALSE;
}

/* Checks a list's header and size table: @two_counts for Color and Vector. */
static gboolean
open_list (List *list, gboolean two_counts, GError **error)
{
  const Elem *h = &list->head;
  guint n_counts = two_counts ? 2 : 1;
  gsize table = 12 + 4 * n_counts + 8; /* counts, then nin and usr, then the sizes */
  guint32 hsize, nin, usr;
  guint64 total, n;

  list->n_counts = n_counts;
  if (!elem_has (h, 0, table / 4, "list header", error))
    return FALSE;
  hsize = elem_u32 (h, 4);
  list->n[0] = elem_u32 (h, 12);
  list->n[1] = two_counts ? elem_u32 (h, 16) : 0;
  n = (guint64)list->n[0] + list->n[1];
  if (n > (h->size - table) / 4)
    return elem_error (
        h, error, TRESS_ERROR_BAD_COUNT, 12, "element count",
        "expected a count whose size table fits in the list, found %" G_GUINT64_FORMAT
        " in a list of %" G_GSIZE_FORMAT " bytes",
        n, h->size);
  if (hsize != table + 4 * n)
    return elem_error (h, error, TRESS_ERROR_BAD_VALUE, 4, "header size",
                       "expected %" G_GUINT64_FORMAT " (%" G_GSIZE_FORMAT
                       " + 4 * the element count), found %u",
                       table + 4 * n, table, hsize);
  nin = elem_u32 (h, table - 8);
  usr = elem_u32 (h, table - 4);
  total = (guint64)hsize + nin + usr;
  for (guint64 i = 0; i < n; i++)
    {
      guint32 s = elem_u32 (h, table + 4 * i);
      if (s % 4 != 0 || s < 8)
        return elem_error (
            h, error, TRESS_ERROR_BAD_VALUE, table + 4 * i, "element size",
            "expected a multiple of 4 of at least 8, found %u (element %" G_GUINT64_FORMAT ")", s,
            i);
      total += s;
    }
  if (total != h->size)
    return elem_error (h, error, TRESS_ERROR_BAD_VALUE, 8, "list size",
                       "expected header + elements + extension blocks = %" G_GUINT64_FORMAT
                       ", found %" G_GSIZE_FORMAT,
                       total, h->size);
  list->elems = h->off + hsize;
  list->n_elem = (guint32)n;
  return TRUE;
}

/* Walks the elements: @e gets element @i (call with i = 0, 1, ... in order). */
static void
list_elem (const List *list, guint i, gsize *pos, const char *what, Elem *e)
{
  const Elem *h = &list->head;
  gsize table = 12 + 4 * list->n_counts + 8;

  if (i == 0)
    *pos = list->elems;
  e->data = h->data;
  e->off = *pos;
  e->size = elem_u32 (h, table + 4 * i);
  e->what = what;
  e->index = i;
  e->indexed = TRUE;
  *pos += e->size;
}

/* Checks an element's tag and its own size field (at @size_at) against the table. */
static gboolean
check_elem (const Elem *e, guint32 tag, gsize size_at, gsize min_size, GError **error)
{
  if (e->size < min_size)
    return elem_error (e, error, TRESS_ERROR_BAD_VALUE, 0, "size",
                       "expected at least %" G_GSIZE_FORMAT " bytes, found %" G_GSIZE_FORMAT
                       " in the list's size table",
                       min_size, e->size);
  if (elem_u32 (e, 0) != tag)
    return elem_error (e, error, TRESS_ERROR_BAD_VALUE, 0, "tag", "expected 0x%08x, found 0x%08x",
                       tag, elem_u32 (e, 0));
  if (size_at != G_MAXSIZE && elem_u32 (e, size_at) != e->size)
    return elem_error (e, error, TRESS_ERROR_BAD_VALUE, size_at, "size",
                       "expected %" G_GSIZE_FORMAT " (the list's size table), found %u", e->size,
                       elem_u32 (e, size_at));
  return TRUE;
}

/* The fixed words, the variable arrays and the two extension blocks of an
 * element add up to its size (@nin_at: where its nintendo ext size is). */
static gboolean
check_tail (const Elem *e, gsize fixed_and_arrays, gsize nin_at, guint32 *nin, GError **error)
{
  guint64 want;

  *nin = elem_u32 (e, nin_at);
  want = (guint64)fixed_and_arrays + *nin + elem_u32 (e, nin_at + 4);
  if (want != e->size)
    return elem_error (e, error, TRESS_ERROR_BAD_VALUE, nin_at, "extension block sizes",
                       "expected them to fill the element to its %" G_GSIZE_FORMAT
                       " bytes, found %u + %u after %" G_GSIZE_FORMAT " bytes",
                       e->size, *nin, elem_u32 (e, nin_at + 4), fixed_and_arrays);
  return TRUE;
}

static char *
dup_name (const TressNiffFile *file, guint32 index)
{
  const char *name = index != NONE ? tress_niff_file_get_name (file, index) : NULL;
  return g_strdup (name);
}

/* A counted array of indices at @at (already checked to lie in the element). */
static guint32 *
dup_words (const Elem *e, gsize at, guint32 n)
{
  guint32 *out = g_new (guint32, MAX (n, 1));

  for (guint32 i = 0; i < n; i++)
    out[i] = elem_u32 (e, at + 4 * i);
  return out;
}

/* ---- Scene ---- */

static gboolean
read_scene (const TressNiffFile *file, TressNiffScene *scene, GError **error)
{
  List list;
  Elem *e = &list.head;
  guint32 hsize, n_obj, n_other;

  if (!find_list (file, NIFF_TAG_SCENE, "Scene", &list))
    return TRUE;
  e->what = "SceneList";
  if (!elem_has (e, 0, 11, "header", error))
    return FALSE;
  hsize = elem_u32 (e, 4);
  n_obj = elem_u32 (e, 20);
  n_other = elem_u32 (e, 24) + elem_u32 (e, 28) + elem_u32 (e, 32);
  if (hsize < 44 || hsize > e->size || hsize % 4)
    return elem_error (e, error, TRESS_ERROR_BAD_VALUE, 4, "scene_header_size",
                       "expected a multiple of 4 from 44 to the list size, found %u", hsize);
  if (!elem_has (e, hsize, (guint64)n_obj + n_other, "scene_obj_link_num", error))
    return FALSE;
  scene->offset = e->off;
  scene->name = dup_name (file, elem_u32 (e, 16));
  scene->n_roots = n_obj;
  scene->roots = dup_words (e, hsize, n_obj);
  return TRUE;
}

/* ---- Obj ---- */

static gboolean
read_objects (const TressNiffFile *file, TressNiffScene *scene, GError **error)
{
  List list;
  gsize pos = 0;

  if (!find_list (file, NIFF_TAG_OBJ, "ObjList", &list))
    return TRUE;
  if (!open_list (&list, FALSE, error))
    return FALSE;
  scene->n_objects = list.n_elem;
  scene->objects = g_new0 (TressNiffSceneObject, MAX (list.n_elem, 1));
  for (guint i = 0; i < list.n_elem; i++)
    {
      TressNiffSceneObject *o = &scene->objects[i];
      Elem e;
      guint32 n_lod, n_child, nin;
      gsize arrays;

      list_elem (&list, i, &pos, "Obj", &e);
      if (!check_elem (&e, NIFF_TAG_OBJ_ELEMENT, 8, 88, error))
        return FALSE;
      n_lod = elem_u32 (&e, 52);
      n_child = elem_u32 (&e, 56);
      if (!elem_has (&e, 88, 2 * (guint64)n_lod + n_child, "obj_lod_num and obj_child_num", error))
        return FALSE;
      arrays = 88 + 4 * (2 * (gsize)n_lod + n_child);
      if (!check_tail (&e, arrays, 80, &nin, error))
        return FALSE;
      o->offset = e.off;
      o->index = elem_u32 (&e, 4);
      o->name = dup_name (file, elem_u32 (&e, 12));
      o->state = elem_u32 (&e, 16);
      o->type = elem_u32 (&e, 20);
      o->parent_link = elem_u32 (&e, 60);
      o->parent = NONE;
      o->shape = elem_u32 (&e, 64);
      o->mat = elem_u32 (&e, 68);
      o->anim_group = elem_u32 (&e, 72);
      o->n_lod = n_lod;
      /* The LOD links are children too (spec 4-4); the previewer shows every one. */
      o->n_children = n_lod + n_child;
      o->children = g_new (guint32, MAX (o->n_children, 1));
      for (guint32 k = 0; k < n_lod; k++)
        o->children[k] = elem_u32 (&e, 88 + 4 * ((gsize)n_lod + k));
      for (guint32 k = 0; k < n_child; k++)
        o->children[n_lod + k] = elem_u32 (&e, 88 + 8 * (gsize)n_lod + 4 * k);
      /* NIFF2: fog render words (4), chain_root_link_num, external LOD and
       * child counts, then the ChainRoot links. */
      if (file->niff2 && nin >= 28)
        {
          guint32 n_chain = elem_u32 (&e, arrays + 16);
          if (n_chain > (nin - 28) / 4)
            return elem_error (
                &e, error, TRESS_ERROR_BAD_COUNT, arrays + 16, "obj_chain_root_link_num",
                "expected a count that fits in the %u-byte extension, found %u", nin, n_chain);
          o->n_chain_roots = n_chain;
          o->chain_roots = dup_words (&e, arrays + 28, n_chain);
        }
    }
  return TRUE;
}

/* ---- float groups (Vtx, Color, Vector, St, Weight) ---- */

typedef struct
{
  guint32 tag;
  const char *what;
  guint width;    /* floats per item */
  gsize min_head; /* fixed header bytes */
  gsize count_at; /* where the item count is */
  gsize hsize_at; /* where the header size is, or G_MAXSIZE for a fixed header */
  gsize name_at;  /* where a name index is, or G_MAXSIZE */
  gsize size_at;  /* where the group's own size is */
} GroupKind;

static const GroupKind vtx_kind = { 0x00040100, "VtxGroup", 3, 24, 20, 8, 16, 12 };
static const GroupKind tri_color_kind
    = { 0x00050100, "TriColorGroup", 4, 20, 16, 8, G_MAXSIZE, 12 };
static const GroupKind vtx_color_kind
    = { 0x00050200, "VtxColorGroup", 4, 20, 16, 8, G_MAXSIZE, 12 };
static const GroupKind tri_nv_kind = { 0x00060100, "TriNvGroup", 3, 20, 16, 8, G_MAXSIZE, 12 };
static const GroupKind vtx_nv_kind = { 0x00060200, "VtxNvGroup", 3, 20, 16, 8, G_MAXSIZE, 12 };
static const GroupKind st_kind = { 0x00070100, "StGroup", 2, 20, 16, 8, G_MAXSIZE, 12 };
/* WeightGroup: tag, index, size, name, count, nin, usr, then the weights. */
static const GroupKind weight_kind = { 0x00230100, "WeightGroup", 1, 28, 16, G_MAXSIZE, 12, 8 };

static gboolean
read_group (const TressNiffFile *file, const Elem *e, const GroupKind *k, TressNiffFloatGroup *g,
            GError **error)
{
  gsize head = k->min_head;
  guint32 n;
  gsize room;

  if (!check_elem (e, k->tag, k->size_at, k->min_head, error))
    return FALSE;
  if (k->hsize_at != G_MAXSIZE)
    {
      guint32 hsize = elem_u32 (e, k->hsize_at);
      if (hsize < k->min_head || hsize > e->size || hsize % 4)
        return elem_error (e, error, TRESS_ERROR_BAD_VALUE, k->hsize_at, "header size",
                           "expected a multiple of 4 from %" G_GSIZE_FORMAT
                           " to the group size, found %u",
                           k->min_head, hsize);
      head = hsize;
    }
  n = elem_u32 (e, k->count_at);
  room = e->size - head;
  if (k == &weight_kind)
    room -= MIN (room, (gsize)elem_u32 (e, 20) + elem_u32 (e, 24));
  if (n > room / (4 * k->width))
    return elem_error (e, error, TRESS_ERROR_BAD_COUNT, k->count_at, "count",
                       "expected at most %" G_GSIZE_FORMAT
                       " items of %u bytes in the group, found %u",
                       room / (4 * k->width), 4 * k->width, n);
  if (k != &weight_kind && head + (gsize)n * 4 * k->width != e->size)
    return elem_error (e, error, TRESS_ERROR_BAD_VALUE, k->size_at, "size",
                       "expected the header and %u items of %u bytes (%" G_GSIZE_FORMAT
                       "), found %" G_GSIZE_FORMAT,
                       n, 4 * k->width, head + (gsize)n * 4 * k->width, e->size);
  if (k == &weight_kind && head + (gsize)n * 4 + elem_u32 (e, 20) + elem_u32 (e, 24) != e->size)
    return elem_error (e, error, TRESS_ERROR_BAD_VALUE, 20, "extension block sizes",
                       "expected the weights and both blocks to fill the group's %" G_GSIZE_FORMAT
                       " bytes, found %u weights and %u + %u",
                       e->size, n, elem_u32 (e, 20), elem_u32 (e, 24));
  g->offset = e->off;
  g->name = k->name_at != G_MAXSIZE ? dup_name (file, elem_u32 (e, k->name_at)) : NULL;
  g->n = n;
  g->v = g_new (float, MAX ((gsize)n * k->width, 1));
  for (gsize i = 0; i < (gsize)n * k->width; i++)
    g->v[i] = elem_f32 (e, head + 4 * i);
  return TRUE;
}

/* A list of one kind of group, or two kinds (the first n[0], then n[1]). */
static gboolean
read_groups (const TressNiffFile *file, guint32 list_tag, const char *list_name,
             const GroupKind *k0, guint32 *n0, TressNiffFloatGroup **g0, const GroupKind *k1,
             guint32 *n1, TressNiffFloatGroup **g1, GError **error)
{
  List list;
  gsize pos = 0;

  if (!find_list (file, list_tag, list_name, &list))
    return TRUE;
  if (!open_list (&list, k1 != NULL, error))
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

      list_elem (&list, i, &pos, k->what, &e);
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
    return elem_error (e, error, TRESS_ERROR_BAD_VALUE, 20, "tri_anim_type",
                       "expected FULL or KEY animation of %s, not both, found 0x%08x",
                       ref_names[kind], anim_type);
  if (anim_type & key)
    {
      if (!elem_has (e, *at, 1, ref_names[kind], error))
        return FALSE;
      t->n = elem_u32 (e, *at);
      if (!elem_has (e, *at + 4, 2 * (guint64)t->n, ref_names[kind], error))
        return FALSE;
      t->keys = dup_words (e, *at + 4, t->n);
      indices = *at + 4 + 4 * (gsize)t->n;
    }
  else
    {
      /* FULL: one group per frame, 0 ... tri_anim_frame_num. */
      guint64 n = (anim_type & full) ? (guint64)frames + 1 : 1;
      if (!elem_has (e, *at, n, ref_names[kind], error))
        return FALSE;
      t->n = (guint32)n;
      indices = *at;
    }
  t->group = g_new (guint32, MAX (t->n, 1));
  for (guint32 i = 0; i < t->n; i++)
    if (!read_index (e, indices + 4 * i, limit, kind != TRESS_NIFF_REF_VTX, ref_names[kind],
                     "groups of its list", &t->group[i], error))
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
    return check_index (e, at, v, n, FALSE, field, "vertices of its VtxGroup", error);
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

  if (!check_elem (e, TRESS_NIFF_TAG_TRI_GROUP, 12, 32, error))
    return FALSE;
  hsize = elem_u32 (e, 8);
  if (hsize < 32 || hsize > e->size || hsize % 4)
    return elem_error (e, error, TRESS_ERROR_BAD_VALUE, 8, "tri_group_header_size",
                       "expected a multiple of 4 from 32 to the group size, found %u", hsize);
  tg->offset = e->off;
  tg->name = dup_name (file, elem_u32 (e, 16));
  tg->anim_type = elem_u32 (e, 20);
  tg->anim_frames = elem_u32 (e, 24);
  n = elem_u32 (e, 28);
  at = hsize;
  for (guint k = 0; k < TRESS_NIFF_N_REFS; k++)
    if (!read_ref_table (scene, e, &at, k, tg->anim_type, tg->anim_frames, &tg->refs[k], error))
      return FALSE;
  room = e->size - at;
  if (n > room / 76)
    return elem_error (e, error, TRESS_ERROR_BAD_COUNT, 28, "tri_num",
                       "expected at most %" G_GSIZE_FORMAT " triangles of 76 bytes, found %u",
                       room / 76, n);
  tg->n_tris = n;
  tg->tris = g_new0 (TressNiffTri, MAX (n, 1));
  for (guint32 i = 0; i < n; i++)
    {
      Elem t = { e->data, e->off + at, e->size - at, tri_what, i, TRUE };
      TressNiffTri *tri = &tg->tris[i];
      guint32 size, nin;

      if (!elem_has (&t, 0, 19, "header", error))
        return FALSE;
      size = elem_u32 (&t, 8);
      if (elem_u32 (&t, 0) != 0x00080101)
        return elem_error (&t, error, TRESS_ERROR_BAD_VALUE, 0, "tri_tag",
                           "expected 0x00080101, found 0x%08x", elem_u32 (&t, 0));
      if (size < 76 || size > t.size || size % 4)
        return elem_error (&t, error, TRESS_ERROR_BAD_VALUE, 8, "tri_size",
                           "expected a multiple of 4 from 76 to the %" G_GSIZE_FORMAT
                           " bytes left in the TriGroup, found %u",
                           t.size, size);
      t.size = size;
      if (!check_tail (&t, 76, 68, &nin, error))
        return FALSE;
      if (!tri_index (scene, &t, 12, elem_u32 (&t, 12), tg, TRESS_NIFF_REF_TRI_NV, "tri_nv_index",
                      &noted, &tri->tri_nv, error)
          || !tri_index (scene, &t, 16, elem_u32 (&t, 16), tg, TRESS_NIFF_REF_TRI_COLOR,
                         "tri_color_index", &noted, &tri->tri_color, error))
        return FALSE;
      for (guint c = 0; c < 3; c++)
        for (guint f = 0; f < 4; f++)
          {
            gsize where = 20 + 16 * c + 4 * f;
            guint32 *dst = f == 0   ? tri->vtx
                           : f == 1 ? tri->st
                           : f == 2 ? tri->vtx_nv
                                    : tri->vtx_color;

            if (!tri_index (scene, &t, where, elem_u32 (&t, where), tg, vkinds[f], vfields[f][c],
                            &noted, &dst[c], error))
              return FALSE;
          }
      at += size;
    }
  if (at != e->size)
    return elem_error (e, error, TRESS_ERROR_BAD_VALUE, 12, "tri_group_size",
                       "expected the header, the reference data and the triangles (%" G_GSIZE_FORMAT
                       " bytes), found %" G_GSIZE_FORMAT,
                       at, e->size);
  return TRUE;
}

static gboolean
read_tri_groups (const TressNiffFile *file, TressNiffScene *scene, GError **error)
{
  List list;
  gsize pos = 0;

  if (!find_list (file, 0x00080000, "TriList", &list))
    return TRUE;
  if (!open_list (&list, FALSE, error))
    return FALSE;
  scene->n_tri_groups = list.n_elem;
  scene->tri_groups = g_new0 (TressNiffTriGroup, MAX (list.n_elem, 1));
  for (guint i = 0; i < list.n_elem; i++)
    {
      Elem e;

      list_elem (&list, i, &pos, "TriGroup", &e);
      if (!read_tri_group (file, scene, &e, &scene->tri_groups[i], error))
        return FALSE;
    }
  return TRUE;
}

/* ---- Part, Mat ---- */

static gboolean
read_parts (const TressNiffFile *file, TressNiffScene *scene, GError **error)
{
  List list;
  gsize pos = 0;

  if (!find_list (file, 0x00090000, "PartList", &list))
    return TRUE;
  if (!open_list (&list, FALSE, error))
    return FALSE;
  scene->n_parts = list.n_elem;
  scene->parts = g_new0 (TressNiffPart, MAX (list.n_elem, 1));
  for (guint i = 0; i < list.n_elem; i++)
    {
      TressNiffPart *p = &scene->parts[i];
      Elem e;
      guint32 nin;

      list_elem (&list, i, &pos, "Part", &e);
      if (!check_elem (&e, 0x00090100, 8, 36, error))
        return FALSE;
      p->n_tris = elem_u32 (&e, 24);
      if (!elem_has (&e, 36, p->n_tris, "part_tri_num", error)
          || !check_tail (&e, 36 + 4 * (gsize)p->n_tris, 28, &nin, error))
        return FALSE;
      p->offset = e.off;
      p->name = dup_name (file, elem_u32 (&e, 12));
      p->mat = elem_u32 (&e, 16);
      p->tri_group = elem_u32 (&e, 20);
      p->tris = dup_words (&e, 36, p->n_tris);
      if (p->mat != TRESS_NIFF_PART_USE_SHAPE_MAT
          && !check_index (&e, 16, p->mat, scene->n_mats, TRUE, "mat_index", "materials", error))
        return FALSE;
      /* Envelope shapes list their Parts with no TriGroup (0xFFFFFFFF): the
       * triangles are then the envelope's. */
      if (p->tri_group != NONE)
        {
          if (!check_index (&e, 20, p->tri_group, scene->n_tri_groups, TRUE, "tri_group_index",
                            "TriGroups", error))
            return FALSE;
          for (guint32 k = 0; k < p->n_tris; k++)
            if (!check_index (&e, 36 + 4 * k, p->tris[k], scene->tri_groups[p->tri_group].n_tris,
                              FALSE, "tri_index", "triangles of its TriGroup", error))
              return FALSE;
        }
    }
  return TRUE;
}

static gboolean
read_mats (const TressNiffFile *file, TressNiffScene *scene, GError **error)
{
  List list;
  gsize pos = 0;

  if (!find_list (file, 0x000a0000, "MatList", &list))
    return TRUE;
  if (!open_list (&list, FALSE, error))
    return FALSE;
  scene->n_mats = list.n_elem;
  scene->mats = g_new0 (TressNiffMat, MAX (list.n_elem, 1));
  for (guint i = 0; i < list.n_elem; i++)
    {
      TressNiffMat *m = &scene->mats[i];
      Elem e;
      guint32 nin;
      gsize ext;

      list_elem (&list, i, &pos, "Mat", &e);
      if (!check_elem (&e, 0x000a0100, 8, 104, error))
        return FALSE;
      m->n_tex = elem_u32 (&e, 92);
      if (!elem_has (&e, 104, m->n_tex, "tex_num", error))
        return FALSE;
      ext = 104 + 4 * (gsize)m->n_tex;
      if (!check_tail (&e, ext, 96, &nin, error))
        return FALSE;
      m->offset = e.off;
      m->name = dup_name (file, elem_u32 (&e, 12));
      m->type = elem_u32 (&e, 16);
      m->shade = elem_u32 (&e, 20);
      for (guint k = 0; k < 2; k++)
        {
          m->color_type[k] = elem_u32 (&e, 24 + 4 * k);
          m->alpha_type[k] = elem_u32 (&e, 32 + 4 * k);
        }
      for (guint k = 0; k < 4; k++)
        m->prim[k] = elem_f32 (&e, 40 + 4 * k);
      if (file->niff2 && nin >= 48)
        {
          m->has_ext = TRUE;
          for (guint k = 0; k < 4; k++)
            {
              m->ambient[k] = elem_f32 (&e, ext + 4 * k);
              m->emission[k] = elem_f32 (&e, ext + 16 + 4 * k);
              m->diffuse[k] = elem_f32 (&e, ext + 32 + 4 * k);
            }
        }
    }
  return TRUE;
}

/* ---- Shape ---- */

static gboolean
read_shapes (const TressNiffFile *file, TressNiffScene *scene, GError **error)
{
  List list;
  gsize pos = 0;

  if (!find_list (file, 0x00030000, "ShapeList", &list))
    return TRUE;
  if (!open_list (&list, FALSE, error))
    return FALSE;
  scene->n_shapes = list.n_elem;
  scene->shapes = g_new0 (TressNiffSceneShape, MAX (list.n_elem, 1));
  for (guint i = 0; i < list.n_elem; i++)
    {
      TressNiffSceneShape *s = &scene->shapes[i];
      Elem e;
      guint32 nin, limit;
      gsize ext;

      list_elem (&list, i, &pos, "Shape", &e);
      if (!check_elem (&e, 0x00030100, 8, 40, error))
        return FALSE;
      s->n_parts = elem_u32 (&e, 28);
      if (!elem_has (&e, 40, s->n_parts, "shape_part_num", error))
        return FALSE;
      ext = 40 + 4 * (gsize)s->n_parts;
      if (!check_tail (&e, ext, 32, &nin, error))
        return FALSE;
      s->offset = e.off;
      s->name = dup_name (file, elem_u32 (&e, 12));
      s->type = elem_u32 (&e, 16);
      s->geometry = elem_u32 (&e, 20);
      s->mat = elem_u32 (&e, 24);
      s->parts = dup_words (&e, 40, s->n_parts);
      s->geometry_kind = file->niff2 && nin >= 4 ? elem_u32 (&e, ext) : TRESS_NIFF_TAG_TRI_GROUP;
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
          return elem_error (&e, error, TRESS_ERROR_BAD_VALUE, ext, "kind_of_node_for_geometry",
                             "expected TriGroup 0x00080100, Envelope 0x00220100 or ClusterShape "
                             "0x00280100, found 0x%08x",
                             s->geometry_kind);
        }
      if (!check_index (&e, 20, s->geometry, limit, TRUE, "shape_tri_link",
                        "nodes of its geometry kind", error)
          || !check_index (&e, 24, s->mat, scene->n_mats, TRUE, "shape_mat_link", "materials",
                           error))
        return FALSE;
      for (guint32 k = 0; k < s->n_parts; k++)
        {
          const TressNiffPart *part;

          if (!check_index (&e, 40 + 4 * k, s->parts[k], scene->n_parts, FALSE, "shape_part_link",
                            "Parts", error))
            return FALSE;
          /* A Part of an envelope shape names the envelope's triangles. */
          part = &scene->parts[s->parts[k]];
          if (s->geometry_kind == TRESS_NIFF_TAG_ENVELOPE && s->geometry != NONE
              && part->tri_group == NONE)
            for (guint32 t = 0; t < part->n_tris; t++)
              {
                Elem pe = { NULL, part->offset, 0, "Part", s->parts[k], TRUE };
                if (!check_index (&pe, 36 + 4 * t, part->tris[t],
                                  scene->envelopes[s->geometry].n_tris, FALSE, "tri_index",
                                  "triangles of its shape's Envelope", error))
                  return FALSE;
              }
        }
    }
  return TRUE;
}

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
  out->kind = elem_u32 (e, kind_at);
  out->index = elem_u32 (e, index_at);
  if (out->kind == NONE)
    {
      /* An external node (another file): not drawn here. */
      out->index = NONE;
      return TRUE;
    }
  if (out->kind != TRESS_NIFF_TAG_OBJ_LIST && out->kind != TRESS_NIFF_TAG_CHAIN_ROOT_LIST
      && out->kind != TRESS_NIFF_TAG_JOINT_LIST && out->kind != TRESS_NIFF_TAG_EFFECTOR_LIST)
    return elem_error (e, error, TRESS_ERROR_BAD_VALUE, kind_at, field,
                       "expected the tag of the Obj, ChainRoot, Joint or Effector list, found "
                       "0x%08x",
                       out->kind);
  return check_index (e, index_at, out->index, node_limit (scene, out->kind), FALSE, field,
                      "nodes of that list", error);
}

static gboolean
check_group_index (const Elem *e, gsize at, guint32 limit, const char *field, const char *target,
                   guint32 *out, GError **error)
{
  return read_index (e, at, limit, TRUE, field, target, out, error);
}

static gboolean
read_full_part (const TressNiffScene *scene, const Elem *e, TressNiffFullPart *p, GError **error)
{
  guint32 nin;

  if (!check_elem (e, TRESS_NIFF_TAG_FULL_WEIGHTED_PART, 8, 64, error)
      || !check_tail (e, 64, 56, &nin, error)
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

  if (!check_elem (e, TRESS_NIFF_TAG_WEIGHTED_PART, 8, 36, error))
    return FALSE;
  n = elem_u32 (e, 16);
  n_ext = elem_u32 (e, 24);
  total = 2 * (guint64)n + 2 * (guint64)n_ext + 6 * ((guint64)n + n_ext);
  if (!elem_has (e, 36, total, "affected_node_num", error)
      || !check_tail (e, 36 + 4 * (gsize)total, 28, &nin, error)
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
      return elem_error (e, error, TRESS_ERROR_BAD_VALUE, at + 4 * (gsize)i, fields[0],
                         "expected a WeightGroup for affected node %u, found none", i);
    else if (p->vtx[i] == NONE)
      return elem_error (e, error, TRESS_ERROR_BAD_VALUE, at + 4 * ((gsize)n + n_ext + i),
                         fields[1], "expected a VtxGroup for affected node %u, found none", i);
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
  if (elem_u32 (t, 0) != 0x00220180)
    return elem_error (t, error, TRESS_ERROR_BAD_VALUE, 0, "envelope_tri_tag",
                       "expected 0x00220180, found 0x%08x", elem_u32 (t, 0));
  tri->part_kind = elem_u32 (t, 12);
  tri->part = elem_u32 (t, 16);
  tri->tri_nv = elem_u32 (t, 20);
  tri->tri_color = elem_u32 (t, 24);
  tri->weight = elem_u32 (t, 28);
  for (guint c = 0; c < 3; c++)
    {
      gsize at = 32 + 28 * c;
      TressNiffEnvelopeVtx *v = &tri->v[c];
      guint32 limit, weights;

      v->part_kind = elem_u32 (t, at);
      v->part = elem_u32 (t, at + 4);
      v->vtx = elem_u32 (t, at + 8);
      v->st = elem_u32 (t, at + 12);
      v->vtx_nv = elem_u32 (t, at + 16);
      v->vtx_color = elem_u32 (t, at + 20);
      v->weight = elem_u32 (t, at + 24);
      if (v->part_kind == TRESS_NIFF_TAG_FULL_WEIGHTED_PART)
        limit = env->n_full;
      else if (v->part_kind == TRESS_NIFF_TAG_WEIGHTED_PART)
        limit = env->n_weighted;
      else
        return elem_error (t, error, TRESS_ERROR_UNSUPPORTED, at, "kind_of_envelope_part",
                           "expected a FullWeightedPart 0x00220110 or WeightedPart 0x00220120 "
                           "(MorphParts are not drawn), found 0x%08x",
                           v->part_kind);
      if (!check_index (t, at + 4, v->part, limit, FALSE, "envelope_part_index",
                        "parts of that kind in the Envelope", error))
        return FALSE;
      limit = part_vertices (scene, env, v->part_kind, v->part, &weights);
      if (!check_index (t, at + 8, v->vtx, limit, FALSE, "vtx_index", "vertices of its part",
                        error))
        return FALSE;
      if (v->part_kind == TRESS_NIFF_TAG_WEIGHTED_PART
          && !check_index (t, at + 24, v->weight, weights, FALSE, "weight_index",
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

  if (!check_elem (e, TRESS_NIFF_TAG_ENVELOPE, 8, 44, error))
    return FALSE;
  env->offset = e->off;
  env->name = dup_name (file, elem_u32 (e, 12));
  env->n_full = elem_u32 (e, 20);
  env->n_weighted = elem_u32 (e, 24);
  env->n_morph = elem_u32 (e, 28);
  env->n_tris = elem_u32 (e, 32);
  n_parts = (guint64)env->n_full + env->n_weighted + env->n_morph;
  /* Every part is at least 36 bytes and every triangle 116. */
  if (n_parts > (e->size - 44) / 36 || env->n_tris > (e->size - 44) / 116)
    return elem_error (e, error, TRESS_ERROR_BAD_COUNT, 20, "part and triangle counts",
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
      if (!elem_has (&p, 0, is_tri ? 29 : 3, "header", error))
        return FALSE;
      size = elem_u32 (&p, 8);
      if (size % 4 || size < (is_tri ? 116u : 12u) || size > p.size)
        return elem_error (&p, error, TRESS_ERROR_BAD_VALUE, 8, "size",
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
      else if (elem_u32 (&p, 0) != TRESS_NIFF_TAG_MORPH_PART)
        return elem_error (&p, error, TRESS_ERROR_BAD_VALUE, 0, "tag",
                           "expected 0x00220130, found 0x%08x", elem_u32 (&p, 0));
      at += size;
    }
  if (!elem_has (e, 36, 2, "extension block sizes", error))
    return FALSE;
  nin = elem_u32 (e, 36);
  if ((guint64)at + nin + elem_u32 (e, 40) != e->size)
    return elem_error (e, error, TRESS_ERROR_BAD_VALUE, 8, "envelope_size",
                       "expected the parts, triangles and extension blocks (%" G_GUINT64_FORMAT
                       " bytes), found %" G_GSIZE_FORMAT,
                       (guint64)at + nin + elem_u32 (e, 40), e->size);
  return TRUE;
}

static gboolean
read_envelopes (const TressNiffFile *file, TressNiffScene *scene, GError **error)
{
  List list;
  gsize pos = 0;

  if (!find_list (file, 0x00220000, "EnvelopeList", &list))
    return TRUE;
  if (!open_list (&list, FALSE, error))
    return FALSE;
  scene->n_envelopes = list.n_elem;
  scene->envelopes = g_new0 (TressNiffEnvelope, MAX (list.n_elem, 1));
  for (guint i = 0; i < list.n_elem; i++)
    {
      Elem e;

      list_elem (&list, i, &pos, "Envelope", &e);
      if (!read_envelope (file, scene, &e, &scene->envelopes[i], error))
        return FALSE;
    }
  return TRUE;
}

typedef struct
{
  guint32 list_tag;
  guint32 tag;
  const char *list_name;
  const char *what;
  gsize fixed;  /* bytes before the object links */
  gsize n_at;   /* obj_num */
  gsize ext_at; /* external_obj_num */
  gsize anim_at;
  gsize nin_at;
} IkKind;

static const IkKind chain_root_kind
    = { 0x00240000, 0x00240100, "ChainRootList", "ChainRoot", 44, 20, 24, 28, 36 };
static const IkKind joint_kind
    = { 0x00250000, 0x00250100, "JointList", "Joint", 64, 36, 40, 52, 56 };
static const IkKind effector_kind
    = { 0x00260000, 0x00260100, "EffectorList", "Effector", 40, 20, 24, 28, 32 };

static gboolean
read_ik_nodes (const TressNiffFile *file, const IkKind *k, guint32 *n_out, TressNiffIkNode **out,
               GError **error)
{
  List list;
  gsize pos = 0;

  if (!find_list (file, k->list_tag, k->list_name, &list))
    return TRUE;
  if (!open_list (&list, FALSE, error))
    return FALSE;
  *n_out = list.n_elem;
  *out = g_new0 (TressNiffIkNode, MAX (list.n_elem, 1));
  for (guint i = 0; i < list.n_elem; i++)
    {
      TressNiffIkNode *node = &(*out)[i];
      Elem e;
      guint32 n, n_ext, nin;

      list_elem (&list, i, &pos, k->what, &e);
      if (!check_elem (&e, k->tag, 8, k->fixed, error))
        return FALSE;
      n = elem_u32 (&e, k->n_at);
      n_ext = elem_u32 (&e, k->ext_at);
      if (!elem_has (&e, k->fixed, (guint64)n + 2 * (guint64)n_ext, "obj_num", error)
          || !check_tail (&e, k->fixed + 4 * ((gsize)n + 2 * (gsize)n_ext), k->nin_at, &nin, error))
        return FALSE;
      node->offset = e.off;
      node->name = dup_name (file, elem_u32 (&e, 12));
      node->type = elem_u32 (&e, 16);
      node->anim_group = elem_u32 (&e, k->anim_at);
      node->joint = node->effector = NONE;
      node->n_objects = n;
      node->objects = dup_words (&e, k->fixed, n);
      if (k == &chain_root_kind)
        node->joint = elem_u32 (&e, 32);
      else if (k == &joint_kind)
        {
          node->length = elem_f32 (&e, 20);
          for (guint c = 0; c < 3; c++)
            node->resplane[c] = elem_f32 (&e, 24 + 4 * c);
          node->joint = elem_u32 (&e, 44);
          node->effector = elem_u32 (&e, 48);
        }
    }
  return TRUE;
}

/* Links between the IK nodes and to objects and AnimGroups, once all are read. */
static gboolean
check_ik_links (const TressNiffScene *scene, guint n_groups, GError **error)
{
  const struct
  {
    const IkKind *k;
    guint32 n;
    const TressNiffIkNode *nodes;
  } kinds[3] = {
    { &chain_root_kind, scene->n_chain_roots, scene->chain_roots },
    { &joint_kind, scene->n_joints, scene->joints },
    { &effector_kind, scene->n_effectors, scene->effectors },
  };

  for (guint k = 0; k < 3; k++)
    for (guint32 i = 0; i < kinds[k].n; i++)
      {
        const TressNiffIkNode *node = &kinds[k].nodes[i];
        Elem e = { NULL, node->offset, 0, kinds[k].k->what, i, TRUE };

        if (!check_index (&e, kinds[k].k->anim_at, node->anim_group, n_groups, TRUE, "anim_index",
                          "AnimGroups", error))
          return FALSE;
        for (guint32 o = 0; o < node->n_objects; o++)
          if (!check_index (&e, kinds[k].k->fixed + 4 * o, node->objects[o], scene->n_objects,
                            FALSE, "obj_index", "objects", error))
            return FALSE;
        if (kinds[k].k == &chain_root_kind
            && !check_index (&e, 32, node->joint, scene->n_joints, TRUE, "joint_index", "Joints",
                             error))
          return FALSE;
        if (kinds[k].k == &joint_kind
            && (!check_index (&e, 44, node->joint, scene->n_joints, TRUE, "joint_index", "Joints",
                              error)
                || !check_index (&e, 48, node->effector, scene->n_effectors, TRUE, "effector_index",
                                 "Effectors", error)))
          return FALSE;
      }
  return TRUE;
}

/* Cam (0x000e0100): 19 words, the eye, look-at and up objects at +0x38…+0x40. */
static gboolean
read_cameras (const TressNiffFile *file, TressNiffScene *scene, GError **error)
{
  static const char *const fields[3] = { "cam_lookat_obj", "cam_eye_obj", "cam_up_obj" };
  List list;
  gsize pos = 0;

  if (!find_list (file, 0x000e0000, "CamList", &list))
    return TRUE;
  if (!open_list (&list, FALSE, error))
    return FALSE;
  scene->n_cameras = list.n_elem;
  for (guint i = 0; i < list.n_elem; i++)
    {
      Elem e;
      guint32 nin;

      list_elem (&list, i, &pos, "Cam", &e);
      if (!check_elem (&e, 0x000e0100, 8, 76, error) || !check_tail (&e, 76, 68, &nin, error))
        return FALSE;
      for (guint k = 0; k < 3; k++)
        {
          guint32 obj;

          if (!read_index (&e, 56 + 4 * k, scene->n_objects, TRUE, fields[k], "objects", &obj,
                           error))
            return FALSE;
          if (obj != NONE)
            scene->objects[obj].camera = TRUE;
        }
    }
  return TRUE;
}

static guint32
count_list (const TressNiffFile *file, guint32 tag, const char *name, GError **error, gboolean *ok)
{
  List list;

  if (!find_list (file, tag, name, &list))
    return 0;
  if (!open_list (&list, FALSE, error))
    {
      *ok = FALSE;
      return 0;
    }
  return list.n_elem;
}

/* ---- the hierarchy ---- */

static gboolean
resolve_hierarchy (TressNiffScene *scene, GError **error)
{
  guint32 n = scene->n_objects;
  g_autofree guint8 *state = NULL;
  /* Where each parent came from: the child link's offset, or 0 for the parent link. */
  g_autofree gsize *from = g_new0 (gsize, MAX (n, 1));

  for (guint32 i = 0; i < n; i++)
    {
      const TressNiffSceneObject *o = &scene->objects[i];
      Elem e = { NULL, o->offset, 0, "Obj", i, TRUE };

      for (guint32 k = 0; k < o->n_children; k++)
        {
          guint32 c = o->children[k];
          gsize at = k < o->n_lod ? 88 + 4 * (gsize)(o->n_lod + k)
                                  : 88 + 8 * (gsize)o->n_lod + 4 * (k - o->n_lod);

          if (!check_index (&e, at, c, n, FALSE, k < o->n_lod ? "obj_lod_link" : "obj_child_link",
                            "objects", error))
            return FALSE;
          if (c == i)
            return elem_error (&e, error, TRESS_ERROR_BAD_OFFSET, at, "obj_child_link",
                               "expected another object, found the object itself (%u)", c);
          /* An object has one link to it (spec 4-4); a second one is not followed. */
          if (scene->objects[c].parent == NONE)
            {
              scene->objects[c].parent = i;
              from[c] = o->offset + at;
            }
        }
      if (!check_index (&e, 64, o->shape, scene->n_shapes, TRUE, "obj_shape_link", "shapes", error)
          || !check_index (&e, 68, o->mat, scene->n_mats, TRUE, "obj_mat_link", "materials", error))
        return FALSE;
      for (guint32 k = 0; k < o->n_chain_roots; k++)
        if (!check_index (&e, 0, o->chain_roots[k], scene->n_chain_roots, FALSE,
                          "obj_chain_root_link", "ChainRoots", error))
          return FALSE;
    }
  /* Objects no child link reaches take their parent link (some writers store
   * only one of the two). */
  for (guint32 i = 0; i < n; i++)
    {
      TressNiffSceneObject *o = &scene->objects[i];
      if (o->parent == NONE && o->parent_link != NONE && o->parent_link < n && o->parent_link != i)
        o->parent = o->parent_link;
    }
  /* No loops: walk up from every object, marking (0 unseen, 1 on the walk, 2 done). */
  state = g_malloc0 (MAX (n, 1));
  for (guint32 i = 0; i < n; i++)
    {
      guint32 j = i;

      while (j != NONE && state[j] == 0)
        {
          state[j] = 1;
          j = scene->objects[j].parent;
        }
      if (j != NONE && state[j] == 1)
        {
          guint32 p = scene->objects[j].parent;
          Elem e = { NULL, 0, 0, "Obj", from[j] ? p : j, TRUE };
          gsize at = from[j] ? from[j] : scene->objects[j].offset + 60;

          return elem_error (&e, error, TRESS_ERROR_BAD_OFFSET, at,
                             from[j] ? "obj_child_link" : "obj_parent_link",
                             "expected a hierarchy without loops, found object %u among its own "
                             "ancestors",
                             j);
        }
      for (j = i; j != NONE && state[j] == 1; j = scene->objects[j].parent)
        state[j] = 2;
    }
  return TRUE;
}

/* ---- public ---- */

TressNiffScene *
tress_niff_scene_new (const TressNiffFile *file, GError **error)
{
  g_autoptr (TressNiffScene) scene = g_new0 (TressNiffScene, 1);
  gboolean ok = TRUE;

  scene->notes = g_ptr_array_new_with_free_func (g_free);
  g_return_val_if_fail (file != NULL, NULL);
  /* In dependency order: what an element links to is read before it. */
  if (!read_scene (file, scene, error) || !read_objects (file, scene, error)
      || !read_groups (file, 0x00040000, "VtxList", &vtx_kind, &scene->n_vtx, &scene->vtx, NULL,
                       NULL, NULL, error)
      || !read_groups (file, NIFF_TAG_COLOR, "ColorList", &tri_color_kind, &scene->n_tri_colors,
                       &scene->tri_colors, &vtx_color_kind, &scene->n_vtx_colors,
                       &scene->vtx_colors, error)
      || !read_groups (file, NIFF_TAG_VECTOR, "VectorList", &tri_nv_kind, &scene->n_tri_nvs,
                       &scene->tri_nvs, &vtx_nv_kind, &scene->n_vtx_nvs, &scene->vtx_nvs, error)
      || !read_groups (file, 0x00070000, "StList", &st_kind, &scene->n_sts, &scene->sts, NULL, NULL,
                       NULL, error)
      || !read_groups (file, 0x00230000, "WeightList", &weight_kind, &scene->n_weights,
                       &scene->weights, NULL, NULL, NULL, error)
      || !read_tri_groups (file, scene, error) || !read_mats (file, scene, error)
      || !read_ik_nodes (file, &chain_root_kind, &scene->n_chain_roots, &scene->chain_roots, error)
      || !read_ik_nodes (file, &joint_kind, &scene->n_joints, &scene->joints, error)
      || !read_ik_nodes (file, &effector_kind, &scene->n_effectors, &scene->effectors, error)
      || !read_envelopes (file, scene, error) || !read_parts (file, scene, error))
    return NULL;
  scene->n_cluster_shapes = count_list (file, 0x00280000, "ClusterList", error, &ok);
  if (ok)
    scene->n_textures = count_list (file, 0x000b0000, "TexList", error, &ok);
  if (ok)
    scene->n_lights = count_list (file, 0x000f0000, "LightList", error, &ok);
  if (ok)
    scene->n_envs = count_list (file, 0x00100000, "EnvList", error, &ok);
  if (!ok || !read_shapes (file, scene, error) || !resolve_hierarchy (scene, error)
      || !read_cameras (file, scene, error) || !check_ik_links (scene, file->groups->len, error))
    return NULL;
  for (guint32 i = 0; i < scene->n_roots; i++)
    {
      Elem e = { NULL, scene->offset, 0, "SceneList", 0, FALSE };
      if (!check_index (&e, 44 + 4 * i, scene->roots[i], scene->n_objects, FALSE,
                        "scene_obj_link_index", "objects", error))
        return NULL;
    }
  return g_steal_pointer (&scene);
}

static void
free_groups (TressNiffFloatGroup *g, guint32 n)
{
  for (guint32 i = 0; g != NULL && i < n; i++)
    {
      g_free (g[i].name);
      g_free (g[i].v);
    }
  g_free (g);
}

static void
free_ik (TressNiffIkNode *nodes, guint32 n)
{
  for (guint32 i = 0; nodes != NULL && i < n; i++)
    {
      g_free (nodes[i].name);
      g_free (nodes[i].objects);
    }
  g_free (nodes);
}

void
tress_niff_scene_free (TressNiffScene *scene)
{
  if (scene == NULL)
    return;
  g_free (scene->name);
  g_free (scene->roots);
  g_clear_pointer (&scene->notes, g_ptr_array_unref);
  for (guint32 i = 0; scene->objects != NULL && i < scene->n_objects; i++)
    {
      g_free (scene->objects[i].name);
      g_free (scene->objects[i].children);
      g_free (scene->objects[i].chain_roots);
    }
  g_free (scene->objects);
  for (guint32 i = 0; scene->shapes != NULL && i < scene->n_shapes; i++)
    {
      g_free (scene->shapes[i].name);
      g_free (scene->shapes[i].parts);
    }
  g_free (scene->shapes);
  free_groups (scene->vtx, scene->n_vtx);
  free_groups (scene->tri_colors, scene->n_tri_colors);
  free_groups (scene->vtx_colors, scene->n_vtx_colors);
  free_groups (scene->tri_nvs, scene->n_tri_nvs);
  free_groups (scene->vtx_nvs, scene->n_vtx_nvs);
  free_groups (scene->sts, scene->n_sts);
  free_groups (scene->weights, scene->n_weights);
  for (guint32 i = 0; scene->tri_groups != NULL && i < scene->n_tri_groups; i++)
    {
      TressNiffTriGroup *tg = &scene->tri_groups[i];
      g_free (tg->name);
      for (guint k = 0; k < TRESS_NIFF_N_REFS; k++)
        {
          g_free (tg->refs[k].keys);
          g_free (tg->refs[k].group);
        }
      g_free (tg->tris);
    }
  g_free (scene->tri_groups);
  for (guint32 i = 0; scene->parts != NULL && i < scene->n_parts; i++)
    {
      g_free (scene->parts[i].name);
      g_free (scene->parts[i].tris);
    }
  g_free (scene->parts);
  for (guint32 i = 0; scene->mats != NULL && i < scene->n_mats; i++)
    g_free (scene->mats[i].name);
  g_free (scene->mats);
  for (guint32 i = 0; scene->envelopes != NULL && i < scene->n_envelopes; i++)
    {
      TressNiffEnvelope *env = &scene->envelopes[i];
      g_free (env->name);
      g_free (env->full);
      for (guint32 k = 0; env->weighted != NULL && k < env->n_weighted; k++)
        {
          TressNiffWeightedPart *w = &env->weighted[k];
          g_free (w->nodes);
          g_free (w->weight_group);
          g_free (w->vtx);
          g_free (w->vtx_nv);
          g_free (w->tri_nv);
          g_free (w->vtx_color);
          g_free (w->tri_color);
        }
      g_free (env->weighted);
      g_free (env->tris);
    }
  g_free (scene->envelopes);
  free_ik (scene->chain_roots, scene->n_chain_roots);
  free_ik (scene->joints, scene->n_joints);
  free_ik (scene->effectors, scene->n_effectors);
  g_free (scene);
}

guint32
tress_niff_scene_tri_mat (const TressNiffScene *scene, guint32 obj, guint32 shape, guint32 tri)
{
  const TressNiffSceneShape *s = shape < scene->n_shapes ? &scene->shapes[shape] : NULL;

  if (s != NULL)
    {
      /* The last Part naming the triangle wins (Parts refine the shape's material). */
      for (guint32 p = s->n_parts; p-- > 0;)
        {
          const TressNiffPart *part = &scene->parts[s->parts[p]];
          if (part->mat == TRESS_NIFF_PART_USE_SHAPE_MAT)
            continue;
          for (guint32 k = 0; k < part->n_tris; k++)
            if (part->tris[k] == tri)
              return part->mat;
        }
      if (s->mat != NONE)
        return s->mat;
    }
  for (guint32 o = obj; o < scene->n_objects; o = scene->objects[o].parent)
    if (scene->objects[o].mat != NONE)
      return scene->objects[o].mat;
  return NONE;
}
