/* tress-niff-scene-private.h: what the pieces of the NIFF scene reader share
 *
 * tress-niff-scene.c reads every element inside its bounds and walks the
 * lists, reads the Scene and Obj lists, resolves the hierarchy and is the
 * public entry point; tress-niff-scene-geometry.c reads the float groups,
 * triangle groups, parts, materials and shapes; tress-niff-scene-nodes.c
 * the envelopes, IK nodes and cameras.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-niff-scene.h"

#include "tress-niff-private.h"

G_BEGIN_DECLS

#define NONE TRESS_NIFF_NONE

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

typedef struct
{
  Elem head;      /* the list as a whole */
  guint n_counts; /* Color and Vector lists have two element counts */
  guint32 n[2];
  gsize elems;    /* offset of the first element */
  guint32 n_elem; /* n[0] + n[1] */
} List;

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

/* The float groups' layouts (tress-niff-scene-geometry.c). */
extern const GroupKind _tress_niff_scene_vtx_kind;
extern const GroupKind _tress_niff_scene_tri_color_kind;
extern const GroupKind _tress_niff_scene_vtx_color_kind;
extern const GroupKind _tress_niff_scene_tri_nv_kind;
extern const GroupKind _tress_niff_scene_vtx_nv_kind;
extern const GroupKind _tress_niff_scene_st_kind;
extern const GroupKind _tress_niff_scene_weight_kind;

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

/* The IK node lists' layouts (tress-niff-scene-nodes.c). */
extern const IkKind _tress_niff_scene_chain_root_kind;
extern const IkKind _tress_niff_scene_joint_kind;
extern const IkKind _tress_niff_scene_effector_kind;

static inline guint32
_tress_niff_scene_elem_u32 (const Elem *e, gsize at)
{
  return niff_word (e->data + e->off + at);
}

static inline float
_tress_niff_scene_elem_f32 (const Elem *e, gsize at)
{
  return niff_f32 (niff_word (e->data + e->off + at));
}

gboolean G_GNUC_PRINTF (6, 7)
    _tress_niff_scene_elem_error (const Elem *e, GError **error, TressError code, gsize at,
                                  const char *field, const char *expected_format, ...);
gboolean _tress_niff_scene_elem_has (const Elem *e, gsize at, guint64 n_words, const char *field,
                                     GError **error);
gboolean _tress_niff_scene_check_index (const Elem *e, gsize at, guint32 v, guint32 limit,
                                        gboolean none_ok, const char *field, const char *target,
                                        GError **error);
gboolean _tress_niff_scene_read_index (const Elem *e, gsize at, guint32 limit, gboolean none_ok,
                                       const char *field, const char *target, guint32 *out,
                                       GError **error);
gboolean _tress_niff_scene_find_list (const TressNiffFile *file, guint32 tag, const char *name,
                                      List *list);
gboolean _tress_niff_scene_open_list (List *list, gboolean two_counts, GError **error);
void _tress_niff_scene_list_elem (const List *list, guint i, gsize *pos, const char *what, Elem *e);
gboolean _tress_niff_scene_check_elem (const Elem *e, guint32 tag, gsize size_at, gsize min_size,
                                       GError **error);
gboolean _tress_niff_scene_check_tail (const Elem *e, gsize fixed_and_arrays, gsize nin_at,
                                       guint32 *nin, GError **error);
char *_tress_niff_scene_dup_name (const TressNiffFile *file, guint32 index);
guint32 *_tress_niff_scene_dup_words (const Elem *e, gsize at, guint32 n);
gboolean _tress_niff_scene_read_groups (const TressNiffFile *file, guint32 list_tag,
                                        const char *list_name, const GroupKind *k0, guint32 *n0,
                                        TressNiffFloatGroup **g0, const GroupKind *k1, guint32 *n1,
                                        TressNiffFloatGroup **g1, GError **error);
gboolean _tress_niff_scene_read_tri_groups (const TressNiffFile *file, TressNiffScene *scene,
                                            GError **error);
gboolean _tress_niff_scene_read_parts (const TressNiffFile *file, TressNiffScene *scene,
                                       GError **error);
gboolean _tress_niff_scene_read_mats (const TressNiffFile *file, TressNiffScene *scene,
                                      GError **error);
gboolean _tress_niff_scene_read_shapes (const TressNiffFile *file, TressNiffScene *scene,
                                        GError **error);
gboolean _tress_niff_scene_read_envelopes (const TressNiffFile *file, TressNiffScene *scene,
                                           GError **error);
gboolean _tress_niff_scene_read_ik_nodes (const TressNiffFile *file, const IkKind *k,
                                          guint32 *n_out, TressNiffIkNode **out, GError **error);
gboolean _tress_niff_scene_check_ik_links (const TressNiffScene *scene, guint n_groups,
                                           GError **error);
gboolean _tress_niff_scene_read_cameras (const TressNiffFile *file, TressNiffScene *scene,
                                         GError **error);
guint32 _tress_niff_scene_count_list (const TressNiffFile *file, guint32 tag, const char *name,
                                      GError **error, gboolean *ok);

G_END_DECLS
