/* tress-gltf-niff-mesh.c: NIFF shapes, envelopes and materials as glTF meshes
 *
 * A triangle corner of a NIFF shape names its vertex, texture coordinate,
 * normal and colour separately; a glTF vertex is one of each. The corners
 * of a primitive become its vertices, equal ones shared (so that a smooth
 * surface stays connected in the programs that read the file).
 *
 * Colours: the preview colours each corner from its material
 * (tress_niff_corner_colour). A material's baseColorFactor is that colour
 * with the vertex and triangle colours taken as white; COLOR_0 is what they
 * make of it (the corner's colour divided by the base, so that glTF's
 * product gives the preview's colour back), left out where it is white
 * everywhere. A material whose colour is not such a product (an N64
 * combiner that adds or subtracts its shade) gets a white base and COLOR_0
 * the corner colours themselves.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-gltf-niff-private.h"

#include <math.h>
#include <string.h>

#define NONE TRESS_NIFF_NONE
/* Shape type bit: back faces culled (0x15 and 0x14 in the samples; 0x05 draws both sides). */
#define SHAPE_BACK_FACES_CULLED 0x10u
#define COLOUR_EPS 1e-6f

static const float white[4] = { 1, 1, 1, 1 };
static const float black[4] = { 0, 0, 0, 1 };

/* One glTF vertex: every attribute a corner may have, zero where it has
 * none, so that equal corners are equal bytes. */
typedef struct
{
  float pos[3];
  float nrm[3];
  float col[3]; /* the preview's colour of the corner */
  float st[2];
  guint16 joints[4];
  float weights[4];
} Corner;

typedef struct
{
  guint32 mat; /* NIFF material, or NONE */
  gboolean smooth;
  gboolean skinned;
  GArray *corners;   /* Corner, distinct */
  GHashTable *index; /* Corner (owned copy) → its place + 1 */
  GArray *indices;   /* guint32, 3 per triangle */
  guint n_st;        /* corners with texture coordinates */
} Prim;

typedef struct
{
  TressGltfNiffExport *e;
  GHashTable *materials; /* variant key → glTF material + 1 */
  guint unused_colours;  /* shapes with colours their materials do not use */
  guint missing_st;      /* corners without texture coordinates beside ones with */
  guint dropped;         /* triangles whose vertices are missing */
} Meshes;

static guint
corner_hash (gconstpointer p)
{
  const guint8 *b = p;
  guint32 h = 2166136261u;

  for (gsize i = 0; i < sizeof (Corner); i++)
    h = (h ^ b[i]) * 16777619u;
  return h;
}

static gboolean
corner_equal (gconstpointer a, gconstpointer b)
{
  return memcmp (a, b, sizeof (Corner)) == 0;
}

static void
prim_free (gpointer p)
{
  Prim *prim = p;

  g_array_unref (prim->corners);
  g_hash_table_unref (prim->index);
  g_array_unref (prim->indices);
  g_free (prim);
}

/* The primitive of @prims for material @mat, made when first asked. */
static Prim *
prim_for (GPtrArray *prims, guint32 mat, gboolean smooth, gboolean skinned)
{
  Prim *prim;

  for (guint i = 0; i < prims->len; i++)
    {
      prim = prims->pdata[i];
      if (prim->mat == mat && prim->smooth == smooth)
        return prim;
    }
  prim = g_new0 (Prim, 1);
  prim->mat = mat;
  prim->smooth = smooth;
  prim->skinned = skinned;
  prim->corners = g_array_new (FALSE, FALSE, sizeof (Corner));
  prim->index = g_hash_table_new_full (corner_hash, corner_equal, g_free, NULL);
  prim->indices = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_ptr_array_add (prims, prim);
  return prim;
}

static void
prim_add (Prim *prim, const Corner *c)
{
  guint32 at = GPOINTER_TO_UINT (g_hash_table_lookup (prim->index, c));

  if (at == 0)
    {
      g_array_append_val (prim->corners, *c);
      at = prim->corners->len;
      g_hash_table_insert (prim->index, g_memdup2 (c, sizeof *c), GUINT_TO_POINTER (at));
    }
  at--;
  g_array_append_val (prim->indices, at);
}

/* ---- materials ---------------------------------------------------------------- */

static JsonArray *
floats_array (const float *v, guint n)
{
  JsonArray *a = json_array_new ();

  for (guint i = 0; i < n; i++)
    json_array_add_double_element (a, isfinite (v[i]) ? v[i] : 0);
  return a;
}

static JsonArray *
words_array (const guint32 *v, guint n)
{
  JsonArray *a = json_array_new ();

  for (guint i = 0; i < n; i++)
    json_array_add_int_element (a, v[i]);
  return a;
}

/* The material's colour with its vertex and triangle colours white. */
static void
base_colour (const TressNiffScene *s, guint32 mat, float out[4])
{
  tress_niff_corner_colour (s, mat, white, white, out);
}

/* The glTF material of NIFF material @mat (NONE: a plain one) with a white
 * base (@white_base) or its own, drawn on both sides or not; −1 for none. */
static int
material_of (Meshes *m, guint32 mat, gboolean white_base, gboolean double_sided)
{
  TressGltfNiffExport *e = m->e;
  const TressNiffScene *s = e->niff;
  guint key = (mat == NONE ? s->n_mats : mat) * 4 + white_base * 2 + double_sided;
  gpointer known = g_hash_table_lookup (m->materials, GUINT_TO_POINTER (key));
  JsonObject *o, *pbr, *x;
  float base[4];
  int index;

  if (known != NULL)
    return GPOINTER_TO_INT (known) - 1;
  if (mat == NONE && !double_sided)
    return -1;
  o = json_object_new ();
  pbr = json_object_new ();
  if (mat == NONE || white_base)
    memcpy (base, white, sizeof base);
  else
    base_colour (s, mat, base);
  json_object_set_array_member (pbr, "baseColorFactor", floats_array (base, 4));
  json_object_set_double_member (pbr, "metallicFactor", 0);
  json_object_set_double_member (pbr, "roughnessFactor", 1);
  json_object_set_object_member (o, "pbrMetallicRoughness", pbr);
  if (double_sided)
    json_object_set_boolean_member (o, "doubleSided", TRUE);
  x = tress_gltf_niff_extras (o);
  if (mat == NONE)
    json_object_set_string_member (o, "name", "(no material)");
  else
    {
      const TressNiffMat *nm = &s->mats[mat];
      g_autofree char *name
          = nm->name != NULL ? g_strdup (nm->name) : g_strdup_printf ("material %u", mat);

      json_object_set_string_member (o, "name", name);
      json_object_set_string_member (x, "material", name);
      json_object_set_int_member (x, "index", mat);
      json_object_set_string_member (x, "type",
                                     nm->type == TRESS_NIFF_MAT_TYPE_N64 ? "N64"
                                     : nm->type == 0                     ? "NIFF"
                                                                         : "other");
      json_object_set_int_member (x, "shadeType", nm->shade);
      json_object_set_array_member (x, "colorType", words_array (nm->color_type, 2));
      json_object_set_array_member (x, "alphaType", words_array (nm->alpha_type, 2));
      json_object_set_array_member (x, "primitive", floats_array (nm->prim, 4));
      if (nm->has_ext)
        {
          json_object_set_array_member (x, "ambient", floats_array (nm->ambient, 4));
          json_object_set_array_member (x, "emission", floats_array (nm->emission, 4));
          json_object_set_array_member (x, "diffuse", floats_array (nm->diffuse, 4));
        }
      json_object_set_int_member (x, "textures", nm->n_tex);
      if (white_base)
        json_object_set_boolean_member (x, "colourInVertices", TRUE);
      /* Lighting off: glTF's unlit materials. */
      if ((nm->shade & TRESS_NIFF_SHADE_LIGHT_MASK) == 0)
        {
          JsonObject *ext = json_object_new ();
          JsonObject *root = tress_gltf_writer_get_root (e->writer);

          json_object_set_object_member (ext, "KHR_materials_unlit", json_object_new ());
          json_object_set_object_member (o, "extensions", ext);
          if (!json_object_has_member (root, "extensionsUsed"))
            {
              JsonArray *used = json_array_new ();

              json_array_add_string_element (used, "KHR_materials_unlit");
              json_object_set_array_member (root, "extensionsUsed", used);
            }
        }
    }
  index = (int)tress_gltf_writer_add (e->writer, "materials", o);
  g_hash_table_insert (m->materials, GUINT_TO_POINTER (key), GINT_TO_POINTER (index + 1));
  return index;
}

/* ---- primitives ------------------------------------------------------------- */

/* COLOR_0 of @prim (3 floats a vertex) for base colour @base: FALSE when
 * the corners' colours are not @base times a colour from 0 to 1. */
static gboolean
factor_colours (const Prim *prim, const float base[3], float *out, gboolean *all_white)
{
  *all_white = TRUE;
  for (guint v = 0; v < prim->corners->len; v++)
    for (guint k = 0; k < 3; k++)
      {
        float p = g_array_index (prim->corners, Corner, v).col[k], c;

        if (base[k] > COLOUR_EPS)
          c = p / base[k];
        else if (p <= COLOUR_EPS)
          c = 1; /* anything times 0 */
        else
          return FALSE;
        if (c > 1 + COLOUR_EPS || fabsf (c * base[k] - p) > COLOUR_EPS)
          return FALSE;
        out[3 * v + k] = MIN (c, 1);
        *all_white &= out[3 * v + k] >= 1 - COLOUR_EPS;
      }
  return TRUE;
}

static JsonObject *
prim_json (Meshes *m, Prim *prim, gboolean double_sided)
{
  TressGltfWriter *w = m->e->writer;
  guint nv = prim->corners->len;
  gsize ni = prim->indices->len;
  g_autofree float *pos = g_new (float, 3 * (gsize)nv + 1);
  g_autofree float *nrm = g_new (float, 3 * (gsize)nv + 1);
  g_autofree float *col = g_new (float, 3 * (gsize)nv + 1);
  g_autofree float *st = g_new (float, 2 * (gsize)nv + 1);
  g_autofree guint16 *jnt = g_new (guint16, 4 * (gsize)nv + 1);
  g_autofree float *wts = g_new (float, 4 * (gsize)nv + 1);
  JsonObject *o = json_object_new (), *attrs = json_object_new ();
  float base[4] = { 1, 1, 1, 1 };
  gboolean white_base = FALSE, all_white;
  int material;

  for (guint v = 0; v < nv; v++)
    {
      const Corner *c = &g_array_index (prim->corners, Corner, v);

      memcpy (pos + 3 * v, c->pos, sizeof c->pos);
      memcpy (nrm + 3 * v, c->nrm, sizeof c->nrm);
      memcpy (st + 2 * v, c->st, sizeof c->st);
      memcpy (jnt + 4 * v, c->joints, sizeof c->joints);
      memcpy (wts + 4 * v, c->weights, sizeof c->weights);
    }
  if (prim->mat != NONE)
    base_colour (m->e->niff, prim->mat, base);
  if (!factor_colours (prim, base, col, &all_white))
    {
      /* Not a product: the colours go whole into COLOR_0. */
      white_base = TRUE;
      all_white = FALSE;
      for (guint v = 0; v < nv; v++)
        memcpy (col + 3 * v, g_array_index (prim->corners, Corner, v).col, 3 * sizeof (float));
    }

  json_object_set_int_member (attrs, "POSITION",
                              tress_gltf_writer_add_accessor (w, pos, TRESS_GLTF_FLOAT,
                                                              TRESS_GLTF_VEC3, nv,
                                                              TRESS_GLTF_ARRAY_BUFFER, TRUE));
  if (prim->smooth)
    json_object_set_int_member (attrs, "NORMAL",
                                tress_gltf_writer_add_accessor (w, nrm, TRESS_GLTF_FLOAT,
                                                                TRESS_GLTF_VEC3, nv,
                                                                TRESS_GLTF_ARRAY_BUFFER, FALSE));
  if (prim->n_st > 0)
    json_object_set_int_member (attrs, "TEXCOORD_0",
                                tress_gltf_writer_add_accessor (w, st, TRESS_GLTF_FLOAT,
                                                                TRESS_GLTF_VEC2, nv,
                                                                TRESS_GLTF_ARRAY_BUFFER, FALSE));
  if (!all_white)
    json_object_set_int_member (attrs, "COLOR_0",
                                tress_gltf_writer_add_accessor (w, col, TRESS_GLTF_FLOAT,
                                                                TRESS_GLTF_VEC3, nv,
                                                                TRESS_GLTF_ARRAY_BUFFER, FALSE));
  if (prim->skinned)
    {
      json_object_set_int_member (attrs, "JOINTS_0",
                                  tress_gltf_writer_add_accessor (w, jnt, TRESS_GLTF_UNSIGNED_SHORT,
                                                                  TRESS_GLTF_VEC4, nv,
                                                                  TRESS_GLTF_ARRAY_BUFFER, FALSE));
      json_object_set_int_member (attrs, "WEIGHTS_0",
                                  tress_gltf_writer_add_accessor (w, wts, TRESS_GLTF_FLOAT,
                                                                  TRESS_GLTF_VEC4, nv,
                                                                  TRESS_GLTF_ARRAY_BUFFER, FALSE));
    }
  json_object_set_object_member (o, "attributes", attrs);
  if (nv <= G_MAXUINT16)
    {
      g_autofree guint16 *idx = g_new (guint16, ni + 1);

      for (gsize i = 0; i < ni; i++)
        idx[i] = (guint16)g_array_index (prim->indices, guint32, i);
      json_object_set_int_member (
          o, "indices",
          tress_gltf_writer_add_accessor (w, idx, TRESS_GLTF_UNSIGNED_SHORT, TRESS_GLTF_SCALAR, ni,
                                          TRESS_GLTF_ELEMENT_ARRAY_BUFFER, FALSE));
    }
  else
    json_object_set_int_member (o, "indices",
                                tress_gltf_writer_add_accessor (
                                    w, prim->indices->data, TRESS_GLTF_UNSIGNED_INT,
                                    TRESS_GLTF_SCALAR, ni, TRESS_GLTF_ELEMENT_ARRAY_BUFFER, FALSE));
  material = material_of (m, prim->mat, white_base, double_sided);
  if (material >= 0)
    json_object_set_int_member (o, "material", material);
  json_object_set_int_member (o, "mode", 4);
  return o;
}

/* The mesh of @prims (none: −1), named after shape @shape_index. */
static int
add_mesh (Meshes *m, GPtrArray *prims, guint32 obj, guint32 shape_index)
{
  const TressNiffSceneShape *shape = &m->e->niff->shapes[shape_index];
  gboolean double_sided = !(shape->type & SHAPE_BACK_FACES_CULLED);
  g_autofree char *name
      = shape->name != NULL ? g_strdup (shape->name) : g_strdup_printf ("shape %u", shape_index);
  JsonObject *mesh, *x;
  JsonArray *list;
  guint n_st = 0, n_corners = 0;

  if (prims->len == 0)
    return -1;
  list = json_array_new ();
  for (guint i = 0; i < prims->len; i++)
    {
      Prim *prim = prims->pdata[i];

      json_array_add_object_element (list, prim_json (m, prim, double_sided));
      n_st += prim->n_st;
      n_corners += prim->indices->len;
    }
  if (n_st > 0)
    m->missing_st += n_corners - n_st;
  mesh = json_object_new ();
  json_object_set_string_member (mesh, "name", name);
  json_object_set_array_member (mesh, "primitives", list);
  x = tress_gltf_niff_extras (mesh);
  json_object_set_string_member (x, "shape", name);
  json_object_set_int_member (x, "index", shape_index);
  json_object_set_int_member (x, "object", obj);
  json_object_set_int_member (x, "shapeType", shape->type);
  return (int)tress_gltf_writer_add (m->e->writer, "meshes", mesh);
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
    n[k] = len > 0 && isfinite (len) ? n[k] / len : (k == 2);
}

/* @n made unit length, else @fallback. */
static void
unit_normal (const float *n, const float fallback[3], float out[3])
{
  float len = n != NULL ? sqrtf (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) : 0;

  for (guint k = 0; k < 3; k++)
    out[k] = len > 1e-12f && isfinite (len) ? n[k] / len : fallback[k];
}

/* A colour far from @rgba. */
static const float *
probe_for (const float *rgba)
{
  return rgba[0] + rgba[1] + rgba[2] > 1.5f ? black : white;
}

/* The corner's colour (RGB) and whether the colours it has are ones its
 * material ignores. */
static gboolean
corner_colour (const TressNiffScene *s, guint32 mat, const float *tri, const float *vtx,
               float out[3])
{
  float rgba[4], other[4];
  gboolean unused = FALSE;

  tress_niff_corner_colour (s, mat, tri, vtx, rgba);
  memcpy (out, rgba, 3 * sizeof (float));
  /* A colour that is not white and changes nothing when it is another. */
  if (vtx != NULL && memcmp (vtx, white, 3 * sizeof (float)) != 0)
    {
      tress_niff_corner_colour (s, mat, tri, probe_for (vtx), other);
      unused |= memcmp (rgba, other, 3 * sizeof (float)) == 0;
    }
  if (tri != NULL && memcmp (tri, white, 3 * sizeof (float)) != 0)
    {
      tress_niff_corner_colour (s, mat, probe_for (tri), vtx, other);
      unused |= memcmp (rgba, other, 3 * sizeof (float)) == 0;
    }
  return unused;
}

/* Texture coordinates as glTF takes them: t turned over (NIFF's images are
 * stored from their bottom row, glTF's from the top); FALSE without. */
static gboolean
corner_st (const float *st, Corner *c)
{
  if (st == NULL || !isfinite (st[0]) || !isfinite (st[1]))
    return FALSE;
  c->st[0] = st[0];
  c->st[1] = 1 - st[1];
  return TRUE;
}

/* ---- shapes ------------------------------------------------------------------ */

/* A TriGroup shape: its vertices in the space of object @obj. */
static void
add_tri_shape (Meshes *m, guint32 obj, guint32 shape_index)
{
  const TressNiffScene *s = m->e->niff;
  const TressNiffTriGroup *tg = &s->tri_groups[s->shapes[shape_index].geometry];
  guint32 vg = first_group (&tg->refs[TRESS_NIFF_REF_VTX]);
  guint32 ng = first_group (&tg->refs[TRESS_NIFF_REF_VTX_NV]);
  guint32 tng = first_group (&tg->refs[TRESS_NIFF_REF_TRI_NV]);
  guint32 cg = first_group (&tg->refs[TRESS_NIFF_REF_VTX_COLOR]);
  guint32 tcg = first_group (&tg->refs[TRESS_NIFF_REF_TRI_COLOR]);
  guint32 stg = first_group (&tg->refs[TRESS_NIFF_REF_ST]);
  g_autoptr (GPtrArray) prims = g_ptr_array_new_with_free_func (prim_free);
  gboolean unused = FALSE;
  int mesh;

  for (guint32 t = 0; t < tg->n_tris; t++)
    {
      const TressNiffTri *tri = &tg->tris[t];
      guint32 mat = tress_niff_scene_tri_mat (s, obj, shape_index, t);
      gboolean smooth = tress_niff_mat_smooth (s, mat, ng != NONE);
      const float *tri_rgba = group_item (s->tri_colors, s->n_tri_colors, tcg, tri->tri_color, 4);
      const float *tn = group_item (s->tri_nvs, s->n_tri_nvs, tng, tri->tri_nv, 3);
      const float *p[3];
      float fn[3];
      Prim *prim;

      for (guint c = 0; c < 3; c++)
        p[c] = group_item (s->vtx, s->n_vtx, vg, tri->vtx[c], 3);
      if (p[0] == NULL || p[1] == NULL || p[2] == NULL)
        {
          m->dropped++;
          continue;
        }
      face_normal (p[0], p[1], p[2], fn);
      prim = prim_for (prims, mat, smooth, FALSE);
      for (guint c = 0; c < 3; c++)
        {
          Corner corner;
          const float *nv = group_item (s->vtx_nvs, s->n_vtx_nvs, ng, tri->vtx_nv[c], 3);
          const float *vtx_rgba
              = group_item (s->vtx_colors, s->n_vtx_colors, cg, tri->vtx_color[c], 4);

          memset (&corner, 0, sizeof corner);
          memcpy (corner.pos, p[c], sizeof corner.pos);
          if (smooth)
            unit_normal (nv != NULL ? nv : tn, fn, corner.nrm);
          unused |= corner_colour (s, mat, tri_rgba, vtx_rgba, corner.col);
          prim->n_st += corner_st (group_item (s->sts, s->n_sts, stg, tri->st[c], 2), &corner);
          prim_add (prim, &corner);
        }
    }
  m->unused_colours += unused;
  mesh = add_mesh (m, prims, obj, shape_index);
  if (mesh >= 0)
    json_object_set_int_member (m->e->nodes[obj], "mesh", mesh);
}

/* The skin joint of scene joint @j, added to @joints (glTF nodes) and @ibm
 * when first met. */
static guint16
skin_joint (Meshes *m, GArray *joints, GArray *ibm, GHashTable *map, guint j)
{
  TressGltfNiffExport *e = m->e;
  gpointer known = g_hash_table_lookup (map, GUINT_TO_POINTER (j + 1));
  const TressSceneJoint *sj = tress_scene_get_joint (e->scene, j);
  float v[16];
  guint node;

  if (known != NULL)
    return (guint16)(GPOINTER_TO_UINT (known) - 1);
  if (sj->node >= 0)
    node = (guint)sj->node;
  else
    {
      /* A node this file does not hold: the vertex stays where it is bound. */
      JsonObject *origin = json_object_new ();

      json_object_set_string_member (origin, "name", "(outside the file)");
      node = tress_gltf_niff_next_extra (e);
      g_ptr_array_add (e->extra_nodes, origin);
      json_array_add_int_element (e->roots, node);
    }
  g_array_append_val (joints, node);
  /* graphene's row-vector matrix, row by row, is the column-vector one column by column. */
  graphene_matrix_to_float (&sj->inverse_bind, v);
  v[3] = v[7] = v[11] = 0; /* affine: exactly, as glTF requires */
  v[15] = 1;
  g_array_append_vals (ibm, v, 16);
  g_hash_table_insert (map, GUINT_TO_POINTER (j + 1), GUINT_TO_POINTER (joints->len));
  return (guint16)(joints->len - 1);
}

/* The influences of vertex @v of the preview's mesh @sm as skin joints,
 * merged by joint, weights summing to 1 in floats. */
static void
corner_skin (Meshes *m, const TressSceneMesh *sm, guint v, GArray *joints, GArray *ibm,
             GHashTable *map, Corner *c)
{
  guint n = 0, big = 0;
  float rest = 0, sum = 0;

  for (guint i = 0; i < TRESS_SCENE_MAX_INFLUENCES; i++)
    {
      float w = sm->weights[TRESS_SCENE_MAX_INFLUENCES * v + i];
      guint16 j;
      guint k;

      if (!(w > 0) || !isfinite (w)
          || sm->joints[TRESS_SCENE_MAX_INFLUENCES * v + i] >= m->e->scene->joints->len)
        continue;
      j = skin_joint (m, joints, ibm, map, sm->joints[TRESS_SCENE_MAX_INFLUENCES * v + i]);
      for (k = 0; k < n && c->joints[k] != j; k++)
        ;
      if (k == n)
        c->joints[n++] = j;
      c->weights[k] += w;
      sum += w;
    }
  if (n == 0 || !(sum > 0))
    {
      /* Nothing moves it: bound to the first joint, where it stands. */
      memset (c->joints, 0, sizeof c->joints);
      memset (c->weights, 0, sizeof c->weights);
      c->weights[0] = 1;
      return;
    }
  for (guint k = 0; k < n; k++)
    {
      c->weights[k] /= sum;
      if (c->weights[k] > c->weights[big])
        big = k;
    }
  for (guint k = 0; k < n; k++)
    if (k != big)
      rest += c->weights[k];
  c->weights[big] = 1 - rest;
}

/* The triangle and vertex colours of an envelope corner, as the preview finds them. */
static void
envelope_colours (const TressNiffScene *s, const TressNiffEnvelope *env,
                  const TressNiffEnvelopeTri *tri, const TressNiffEnvelopeVtx *ev,
                  const float **tri_rgba, const float **vtx_rgba, const float **st)
{
  *tri_rgba = *vtx_rgba = *st = NULL;
  if (tri->part_kind == TRESS_NIFF_TAG_FULL_WEIGHTED_PART && tri->part < env->n_full)
    *tri_rgba = group_item (s->tri_colors, s->n_tri_colors, env->full[tri->part].tri_color,
                            tri->tri_color, 4);
  else if (tri->part_kind == TRESS_NIFF_TAG_WEIGHTED_PART && tri->part < env->n_weighted
           && env->weighted[tri->part].n_nodes > 0)
    *tri_rgba = group_item (s->tri_colors, s->n_tri_colors, env->weighted[tri->part].tri_color[0],
                            tri->tri_color, 4);
  if (ev->part_kind == TRESS_NIFF_TAG_FULL_WEIGHTED_PART && ev->part < env->n_full)
    {
      const TressNiffFullPart *fp = &env->full[ev->part];

      *vtx_rgba = group_item (s->vtx_colors, s->n_vtx_colors, fp->vtx_color, ev->vtx_color, 4);
      *st = group_item (s->sts, s->n_sts, fp->st, ev->st, 2);
    }
  else if (ev->part_kind == TRESS_NIFF_TAG_WEIGHTED_PART && ev->part < env->n_weighted)
    {
      const TressNiffWeightedPart *wp = &env->weighted[ev->part];

      if (wp->n_nodes > 0)
        *vtx_rgba = group_item (s->vtx_colors, s->n_vtx_colors, wp->vtx_color[0], ev->vtx_color, 4);
      *st = group_item (s->sts, s->n_sts, wp->st, ev->st, 2);
    }
}

/* An envelope shape: the preview's skinned mesh @sm (bound at frame 0, one
 * vertex per triangle corner in the envelope's order), on a node of its own
 * at the root with a skin over the nodes it uses. */
static void
add_envelope_shape (Meshes *m, guint32 obj, guint32 shape_index, const TressSceneMesh *sm)
{
  TressGltfNiffExport *e = m->e;
  const TressNiffScene *s = e->niff;
  const TressNiffEnvelope *env = &s->envelopes[s->shapes[shape_index].geometry];
  g_autoptr (GPtrArray) prims = g_ptr_array_new_with_free_func (prim_free);
  g_autoptr (GArray) joints = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) ibm = g_array_new (FALSE, FALSE, sizeof (float));
  g_autoptr (GHashTable) map = g_hash_table_new (NULL, NULL);
  gboolean unused = FALSE;
  JsonObject *skin, *node, *x;
  JsonArray *list;
  int mesh;

  for (guint32 t = 0; t < env->n_tris; t++)
    {
      const TressNiffEnvelopeTri *tri = &env->tris[t];
      guint32 mat = tress_niff_scene_tri_mat (s, obj, shape_index, t);
      gboolean smooth = tress_niff_mat_smooth (s, mat, TRUE) && sm->normals != NULL;
      Prim *prim = prim_for (prims, mat, smooth, TRUE);

      for (guint c = 0; c < 3; c++)
        {
          guint v = 3 * t + c;
          const float *tri_rgba, *vtx_rgba, *st;
          Corner corner;

          memset (&corner, 0, sizeof corner);
          memcpy (corner.pos, sm->positions + 3 * v, sizeof corner.pos);
          if (smooth)
            memcpy (corner.nrm, sm->normals + 3 * v, sizeof corner.nrm);
          envelope_colours (s, env, tri, &tri->v[c], &tri_rgba, &vtx_rgba, &st);
          unused |= corner_colour (s, mat, tri_rgba, vtx_rgba, corner.col);
          prim->n_st += corner_st (st, &corner);
          corner_skin (m, sm, v, joints, ibm, map, &corner);
          prim_add (prim, &corner);
        }
    }
  m->unused_colours += unused;
  mesh = add_mesh (m, prims, obj, shape_index);
  if (mesh < 0)
    return;
  skin = json_object_new ();
  list = json_array_new ();
  for (guint i = 0; i < joints->len; i++)
    json_array_add_int_element (list, g_array_index (joints, guint, i));
  json_object_set_string_member (skin, "name", sm->name);
  json_object_set_array_member (skin, "joints", list);
  json_object_set_int_member (skin, "inverseBindMatrices",
                              tress_gltf_writer_add_accessor (e->writer, ibm->data,
                                                              TRESS_GLTF_FLOAT, TRESS_GLTF_MAT4,
                                                              joints->len, 0, FALSE));
  node = json_object_new ();
  json_object_set_string_member (node, "name", sm->name);
  json_object_set_int_member (node, "mesh", mesh);
  json_object_set_int_member (node, "skin", tress_gltf_writer_add (e->writer, "skins", skin));
  x = tress_gltf_niff_extras (node);
  json_object_set_int_member (x, "object", obj);
  json_object_set_string_member (x, "envelope", env->name != NULL ? env->name : "");
  json_array_add_int_element (e->roots, tress_gltf_niff_next_extra (e));
  g_ptr_array_add (e->extra_nodes, node);
}

void
tress_gltf_niff_add_meshes (TressGltfNiffExport *e)
{
  const TressNiffScene *s = e->niff;
  g_autoptr (GHashTable) materials = g_hash_table_new (NULL, NULL);
  Meshes m = { e, materials, 0, 0, 0 };
  guint skinned = 0, not_bound = 0;

  for (guint32 i = 0; i < s->n_objects; i++)
    {
      guint32 shape = s->objects[i].shape;
      const TressNiffSceneShape *sh;

      if (shape == NONE || s->shapes[shape].geometry == NONE)
        continue;
      sh = &s->shapes[shape];
      if (sh->geometry_kind == TRESS_NIFF_TAG_TRI_GROUP)
        add_tri_shape (&m, i, shape);
      else if (sh->geometry_kind == TRESS_NIFF_TAG_ENVELOPE
               && s->envelopes[sh->geometry].n_tris > 0)
        {
          /* The preview's skinned meshes come one per envelope object, in object order. */
          const TressSceneMesh *sm = NULL;

          for (guint k = 0, seen = 0; k < e->scene->meshes->len && sm == NULL; k++)
            {
              const TressSceneMesh *c = tress_scene_get_mesh (e->scene, k);

              if (c->joints != NULL && seen++ == skinned)
                sm = c;
            }
          skinned++;
          if (sm == NULL || sm->id != shape
              || sm->n_vertices != 3 * s->envelopes[sh->geometry].n_tris)
            not_bound++;
          else
            add_envelope_shape (&m, i, shape, sm);
        }
    }
  if (m.dropped > 0)
    tress_gltf_niff_note (e, "%u triangles name vertices their groups do not hold: left out",
                          m.dropped);
  if (not_bound > 0)
    tress_gltf_niff_note (e, "%u envelope shapes the preview could not bind: left out", not_bound);
  if (m.unused_colours > 0)
    tress_gltf_niff_note (e,
                          "%u shape%s vertex or triangle colours %s materials do not use: not "
                          "written",
                          m.unused_colours, m.unused_colours == 1 ? " has" : "s have",
                          m.unused_colours == 1 ? "its" : "their");
  if (m.missing_st > 0)
    tress_gltf_niff_note (e,
                          "%u triangle corners have no texture coordinates beside corners that "
                          "do: written as (0, 0)",
                          m.missing_st);
}
