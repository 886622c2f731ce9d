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
#include "tress-niff-scene-private.h"

#include <string.h>

/* ---- bounded access ---- */

gboolean G_GNUC_PRINTF (6, 7)
    _tress_niff_scene_elem_error (const Elem *e, GError **error, TressError code, gsize at,
                                  const char *field, const char *expected_format, ...)
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

/* Checks that @n words at @at lie inside the element. */
gboolean
_tress_niff_scene_elem_has (const Elem *e, gsize at, guint64 n_words, const char *field,
                            GError **error)
{
  if (at <= e->size && n_words <= (e->size - at) / 4)
    return TRUE;
  return _tress_niff_scene_elem_error (e, error, TRESS_ERROR_TRUNCATED, at, field,
                                       "expected %" G_GUINT64_FORMAT
                                       " words inside the %" G_GSIZE_FORMAT
                                       "-byte element, found %" G_GSIZE_FORMAT " bytes left",
                                       n_words, e->size, at <= e->size ? e->size - at : 0);
}

/* An index field: below @limit, or NONE when @none_ok. */
gboolean
_tress_niff_scene_check_index (const Elem *e, gsize at, guint32 v, guint32 limit, gboolean none_ok,
                               const char *field, const char *target, GError **error)
{
  if (v < limit || (none_ok && v == NONE))
    return TRUE;
  return _tress_niff_scene_elem_error (e, error, TRESS_ERROR_BAD_VALUE, at, field,
                                       "expected an index below %u (the %s)%s, found %u", limit,
                                       target, none_ok ? " or 0xFFFFFFFF" : "", v);
}

/* Reads the index at @at and checks it. */
gboolean
_tress_niff_scene_read_index (const Elem *e, gsize at, guint32 limit, gboolean none_ok,
                              const char *field, const char *target, guint32 *out, GError **error)
{
  *out = _tress_niff_scene_elem_u32 (e, at);
  return _tress_niff_scene_check_index (e, at, *out, limit, none_ok, field, target, error);
}

/* ---- lists ---- */

/* The list with @tag, or FALSE (and an empty @list) when the file has none. */
gboolean
_tress_niff_scene_find_list (const TressNiffFile *file, guint32 tag, const char *name, List *list)
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
gboolean
_tress_niff_scene_open_list (List *list, gboolean two_counts, GError **error)
{
  const Elem *h = &list->head;
  guint n_counts = two_counts ? 2 : 1;
  gsize table = 12 + 4 * n_counts + 8; /* counts, then nin and usr, then the sizes */
  guint32 hsize, nin, usr;
  guint64 total, n;

  list->n_counts = n_counts;
  if (!_tress_niff_scene_elem_has (h, 0, table / 4, "list header", error))
    return FALSE;
  hsize = _tress_niff_scene_elem_u32 (h, 4);
  list->n[0] = _tress_niff_scene_elem_u32 (h, 12);
  list->n[1] = two_counts ? _tress_niff_scene_elem_u32 (h, 16) : 0;
  n = (guint64)list->n[0] + list->n[1];
  if (n > (h->size - table) / 4)
    return _tress_niff_scene_elem_error (
        h, error, TRESS_ERROR_BAD_COUNT, 12, "element count",
        "expected a count whose size table fits in the list, found %" G_GUINT64_FORMAT
        " in a list of %" G_GSIZE_FORMAT " bytes",
        n, h->size);
  if (hsize != table + 4 * n)
    return _tress_niff_scene_elem_error (h, error, TRESS_ERROR_BAD_VALUE, 4, "header size",
                                         "expected %" G_GUINT64_FORMAT " (%" G_GSIZE_FORMAT
                                         " + 4 * the element count), found %u",
                                         table + 4 * n, table, hsize);
  nin = _tress_niff_scene_elem_u32 (h, table - 8);
  usr = _tress_niff_scene_elem_u32 (h, table - 4);
  total = (guint64)hsize + nin + usr;
  for (guint64 i = 0; i < n; i++)
    {
      guint32 s = _tress_niff_scene_elem_u32 (h, table + 4 * i);
      if (s % 4 != 0 || s < 8)
        return _tress_niff_scene_elem_error (
            h, error, TRESS_ERROR_BAD_VALUE, table + 4 * i, "element size",
            "expected a multiple of 4 of at least 8, found %u (element %" G_GUINT64_FORMAT ")", s,
            i);
      total += s;
    }
  if (total != h->size)
    return _tress_niff_scene_elem_error (
        h, error, TRESS_ERROR_BAD_VALUE, 8, "list size",
        "expected header + elements + extension blocks = %" G_GUINT64_FORMAT
        ", found %" G_GSIZE_FORMAT,
        total, h->size);
  list->elems = h->off + hsize;
  list->n_elem = (guint32)n;
  return TRUE;
}

/* Walks the elements: @e gets element @i (call with i = 0, 1, ... in order). */
void
_tress_niff_scene_list_elem (const List *list, guint i, gsize *pos, const char *what, Elem *e)
{
  const Elem *h = &list->head;
  gsize table = 12 + 4 * list->n_counts + 8;

  if (i == 0)
    *pos = list->elems;
  e->data = h->data;
  e->off = *pos;
  e->size = _tress_niff_scene_elem_u32 (h, table + 4 * i);
  e->what = what;
  e->index = i;
  e->indexed = TRUE;
  *pos += e->size;
}

/* Checks an element's tag and its own size field (at @size_at) against the table. */
gboolean
_tress_niff_scene_check_elem (const Elem *e, guint32 tag, gsize size_at, gsize min_size,
                              GError **error)
{
  if (e->size < min_size)
    return _tress_niff_scene_elem_error (e, error, TRESS_ERROR_BAD_VALUE, 0, "size",
                                         "expected at least %" G_GSIZE_FORMAT
                                         " bytes, found %" G_GSIZE_FORMAT
                                         " in the list's size table",
                                         min_size, e->size);
  if (_tress_niff_scene_elem_u32 (e, 0) != tag)
    return _tress_niff_scene_elem_error (e, error, TRESS_ERROR_BAD_VALUE, 0, "tag",
                                         "expected 0x%08x, found 0x%08x", tag,
                                         _tress_niff_scene_elem_u32 (e, 0));
  if (size_at != G_MAXSIZE && _tress_niff_scene_elem_u32 (e, size_at) != e->size)
    return _tress_niff_scene_elem_error (e, error, TRESS_ERROR_BAD_VALUE, size_at, "size",
                                         "expected %" G_GSIZE_FORMAT
                                         " (the list's size table), found %u",
                                         e->size, _tress_niff_scene_elem_u32 (e, size_at));
  return TRUE;
}

/* The fixed words, the variable arrays and the two extension blocks of an
 * element add up to its size (@nin_at: where its nintendo ext size is). */
gboolean
_tress_niff_scene_check_tail (const Elem *e, gsize fixed_and_arrays, gsize nin_at, guint32 *nin,
                              GError **error)
{
  guint64 want;

  *nin = _tress_niff_scene_elem_u32 (e, nin_at);
  want = (guint64)fixed_and_arrays + *nin + _tress_niff_scene_elem_u32 (e, nin_at + 4);
  if (want != e->size)
    return _tress_niff_scene_elem_error (
        e, error, TRESS_ERROR_BAD_VALUE, nin_at, "extension block sizes",
        "expected them to fill the element to its %" G_GSIZE_FORMAT
        " bytes, found %u + %u after %" G_GSIZE_FORMAT " bytes",
        e->size, *nin, _tress_niff_scene_elem_u32 (e, nin_at + 4), fixed_and_arrays);
  return TRUE;
}

char *
_tress_niff_scene_dup_name (const TressNiffFile *file, guint32 index)
{
  const char *name = index != NONE ? tress_niff_file_get_name (file, index) : NULL;
  return g_strdup (name);
}

/* A counted array of indices at @at (already checked to lie in the element). */
guint32 *
_tress_niff_scene_dup_words (const Elem *e, gsize at, guint32 n)
{
  guint32 *out = g_new (guint32, MAX (n, 1));

  for (guint32 i = 0; i < n; i++)
    out[i] = _tress_niff_scene_elem_u32 (e, at + 4 * i);
  return out;
}

/* ---- Scene ---- */

static gboolean
read_scene (const TressNiffFile *file, TressNiffScene *scene, GError **error)
{
  List list;
  Elem *e = &list.head;
  guint32 hsize, n_obj, n_other;

  if (!_tress_niff_scene_find_list (file, NIFF_TAG_SCENE, "Scene", &list))
    return TRUE;
  e->what = "SceneList";
  if (!_tress_niff_scene_elem_has (e, 0, 11, "header", error))
    return FALSE;
  hsize = _tress_niff_scene_elem_u32 (e, 4);
  n_obj = _tress_niff_scene_elem_u32 (e, 20);
  n_other = _tress_niff_scene_elem_u32 (e, 24) + _tress_niff_scene_elem_u32 (e, 28)
            + _tress_niff_scene_elem_u32 (e, 32);
  if (hsize < 44 || hsize > e->size || hsize % 4)
    return _tress_niff_scene_elem_error (
        e, error, TRESS_ERROR_BAD_VALUE, 4, "scene_header_size",
        "expected a multiple of 4 from 44 to the list size, found %u", hsize);
  if (!_tress_niff_scene_elem_has (e, hsize, (guint64)n_obj + n_other, "scene_obj_link_num", error))
    return FALSE;
  scene->offset = e->off;
  scene->name = _tress_niff_scene_dup_name (file, _tress_niff_scene_elem_u32 (e, 16));
  scene->n_roots = n_obj;
  scene->roots = _tress_niff_scene_dup_words (e, hsize, n_obj);
  return TRUE;
}

/* ---- Obj ---- */

static gboolean
read_objects (const TressNiffFile *file, TressNiffScene *scene, GError **error)
{
  List list;
  gsize pos = 0;

  if (!_tress_niff_scene_find_list (file, NIFF_TAG_OBJ, "ObjList", &list))
    return TRUE;
  if (!_tress_niff_scene_open_list (&list, FALSE, error))
    return FALSE;
  scene->n_objects = list.n_elem;
  scene->objects = g_new0 (TressNiffSceneObject, MAX (list.n_elem, 1));
  for (guint i = 0; i < list.n_elem; i++)
    {
      TressNiffSceneObject *o = &scene->objects[i];
      Elem e;
      guint32 n_lod, n_child, nin;
      gsize arrays;

      _tress_niff_scene_list_elem (&list, i, &pos, "Obj", &e);
      if (!_tress_niff_scene_check_elem (&e, NIFF_TAG_OBJ_ELEMENT, 8, 88, error))
        return FALSE;
      n_lod = _tress_niff_scene_elem_u32 (&e, 52);
      n_child = _tress_niff_scene_elem_u32 (&e, 56);
      if (!_tress_niff_scene_elem_has (&e, 88, 2 * (guint64)n_lod + n_child,
                                       "obj_lod_num and obj_child_num", error))
        return FALSE;
      arrays = 88 + 4 * (2 * (gsize)n_lod + n_child);
      if (!_tress_niff_scene_check_tail (&e, arrays, 80, &nin, error))
        return FALSE;
      o->offset = e.off;
      o->index = _tress_niff_scene_elem_u32 (&e, 4);
      o->name = _tress_niff_scene_dup_name (file, _tress_niff_scene_elem_u32 (&e, 12));
      o->state = _tress_niff_scene_elem_u32 (&e, 16);
      o->type = _tress_niff_scene_elem_u32 (&e, 20);
      o->parent_link = _tress_niff_scene_elem_u32 (&e, 60);
      o->parent = NONE;
      o->shape = _tress_niff_scene_elem_u32 (&e, 64);
      o->mat = _tress_niff_scene_elem_u32 (&e, 68);
      o->anim_group = _tress_niff_scene_elem_u32 (&e, 72);
      o->n_lod = n_lod;
      /* The LOD links are children too (spec 4-4); the previewer shows every one. */
      o->n_children = n_lod + n_child;
      o->children = g_new (guint32, MAX (o->n_children, 1));
      for (guint32 k = 0; k < n_lod; k++)
        o->children[k] = _tress_niff_scene_elem_u32 (&e, 88 + 4 * ((gsize)n_lod + k));
      for (guint32 k = 0; k < n_child; k++)
        o->children[n_lod + k] = _tress_niff_scene_elem_u32 (&e, 88 + 8 * (gsize)n_lod + 4 * k);
      /* NIFF2: fog render words (4), chain_root_link_num, external LOD and
       * child counts, then the ChainRoot links. */
      if (file->niff2 && nin >= 28)
        {
          guint32 n_chain = _tress_niff_scene_elem_u32 (&e, arrays + 16);
          if (n_chain > (nin - 28) / 4)
            return _tress_niff_scene_elem_error (
                &e, error, TRESS_ERROR_BAD_COUNT, arrays + 16, "obj_chain_root_link_num",
                "expected a count that fits in the %u-byte extension, found %u", nin, n_chain);
          o->n_chain_roots = n_chain;
          o->chain_roots = _tress_niff_scene_dup_words (&e, arrays + 28, n_chain);
        }
    }
  return TRUE;
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

          if (!_tress_niff_scene_check_index (&e, at, c, n, FALSE,
                                              k < o->n_lod ? "obj_lod_link" : "obj_child_link",
                                              "objects", error))
            return FALSE;
          if (c == i)
            return _tress_niff_scene_elem_error (
                &e, error, TRESS_ERROR_BAD_OFFSET, at, "obj_child_link",
                "expected another object, found the object itself (%u)", c);
          /* An object has one link to it (spec 4-4); a second one is not followed. */
          if (scene->objects[c].parent == NONE)
            {
              scene->objects[c].parent = i;
              from[c] = o->offset + at;
            }
        }
      if (!_tress_niff_scene_check_index (&e, 64, o->shape, scene->n_shapes, TRUE, "obj_shape_link",
                                          "shapes", error)
          || !_tress_niff_scene_check_index (&e, 68, o->mat, scene->n_mats, TRUE, "obj_mat_link",
                                             "materials", error))
        return FALSE;
      for (guint32 k = 0; k < o->n_chain_roots; k++)
        if (!_tress_niff_scene_check_index (&e, 0, o->chain_roots[k], scene->n_chain_roots, FALSE,
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

          return _tress_niff_scene_elem_error (
              &e, error, TRESS_ERROR_BAD_OFFSET, at, from[j] ? "obj_child_link" : "obj_parent_link",
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
      || !_tress_niff_scene_read_groups (file, 0x00040000, "VtxList", &_tress_niff_scene_vtx_kind,
                                         &scene->n_vtx, &scene->vtx, NULL, NULL, NULL, error)
      || !_tress_niff_scene_read_groups (file, NIFF_TAG_COLOR, "ColorList",
                                         &_tress_niff_scene_tri_color_kind, &scene->n_tri_colors,
                                         &scene->tri_colors, &_tress_niff_scene_vtx_color_kind,
                                         &scene->n_vtx_colors, &scene->vtx_colors, error)
      || !_tress_niff_scene_read_groups (file, NIFF_TAG_VECTOR, "VectorList",
                                         &_tress_niff_scene_tri_nv_kind, &scene->n_tri_nvs,
                                         &scene->tri_nvs, &_tress_niff_scene_vtx_nv_kind,
                                         &scene->n_vtx_nvs, &scene->vtx_nvs, error)
      || !_tress_niff_scene_read_groups (file, 0x00070000, "StList", &_tress_niff_scene_st_kind,
                                         &scene->n_sts, &scene->sts, NULL, NULL, NULL, error)
      || !_tress_niff_scene_read_groups (file, 0x00230000, "WeightList",
                                         &_tress_niff_scene_weight_kind, &scene->n_weights,
                                         &scene->weights, NULL, NULL, NULL, error)
      || !_tress_niff_scene_read_tri_groups (file, scene, error)
      || !_tress_niff_scene_read_mats (file, scene, error)
      || !_tress_niff_scene_read_ik_nodes (file, &_tress_niff_scene_chain_root_kind,
                                           &scene->n_chain_roots, &scene->chain_roots, error)
      || !_tress_niff_scene_read_ik_nodes (file, &_tress_niff_scene_joint_kind, &scene->n_joints,
                                           &scene->joints, error)
      || !_tress_niff_scene_read_ik_nodes (file, &_tress_niff_scene_effector_kind,
                                           &scene->n_effectors, &scene->effectors, error)
      || !_tress_niff_scene_read_envelopes (file, scene, error)
      || !_tress_niff_scene_read_parts (file, scene, error))
    return NULL;
  scene->n_cluster_shapes
      = _tress_niff_scene_count_list (file, 0x00280000, "ClusterList", error, &ok);
  if (ok)
    scene->n_textures = _tress_niff_scene_count_list (file, 0x000b0000, "TexList", error, &ok);
  if (ok)
    scene->n_lights = _tress_niff_scene_count_list (file, 0x000f0000, "LightList", error, &ok);
  if (ok)
    scene->n_envs = _tress_niff_scene_count_list (file, 0x00100000, "EnvList", error, &ok);
  if (!ok || !_tress_niff_scene_read_shapes (file, scene, error)
      || !resolve_hierarchy (scene, error) || !_tress_niff_scene_read_cameras (file, scene, error)
      || !_tress_niff_scene_check_ik_links (scene, file->groups->len, error))
    return NULL;
  for (guint32 i = 0; i < scene->n_roots; i++)
    {
      Elem e = { NULL, scene->offset, 0, "SceneList", 0, FALSE };
      if (!_tress_niff_scene_check_index (&e, 44 + 4 * i, scene->roots[i], scene->n_objects, FALSE,
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
