/* tress-niff-builder.c: valid NIFF1 and NIFF2 files from nothing
 *
 * The file holds every list a NIFF reader expects, in the physical order of
 * the SDK's files: a Scene listing the objects, the Obj list (each object
 * linked to its AnimGroup), empty geometry and material lists, the AnimList,
 * the NameList and, for NIFF2, the nine NIFF2 lists (empty).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-niff-private.h"

#include <math.h>
#include <string.h>

/* A shape of the scene: one TriGroup, its vertex, normal and colour groups,
 * and one material. */
typedef struct
{
  guint obj;
  guint name_index;
  guint n_vtx;
  float *xyz;
  guint n_tris;
  guint32 *tris;
  float rgba[4];
  gboolean smooth;
} BuilderShape;

struct _TressNiffBuilder
{
  gboolean niff2;
  guint32 version;
  GPtrArray *names;  /* char * */
  GPtrArray *groups; /* TressNiffGroup */
  GArray *objects;   /* TressNiffObject */
  GArray *parents;   /* guint32 per object */
  GArray *shapes;    /* BuilderShape */
  char *error;       /* the first misuse, reported by finish */
};

TressNiffBuilder *
tress_niff_builder_new (gboolean niff2, guint32 version)
{
  TressNiffBuilder *b = g_new0 (TressNiffBuilder, 1);

  b->niff2 = niff2;
  b->version = version != 0 ? version : (niff2 ? 0xff000200u : 0xff000100u);
  b->names = g_ptr_array_new_with_free_func (g_free);
  b->groups = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_niff_group_free);
  b->objects = g_array_new (FALSE, FALSE, sizeof (TressNiffObject));
  b->parents = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->shapes = g_array_new (FALSE, TRUE, sizeof (BuilderShape));
  return b;
}

void
tress_niff_builder_free (TressNiffBuilder *b)
{
  if (b == NULL)
    return;
  g_ptr_array_unref (b->names);
  g_ptr_array_unref (b->groups);
  g_array_unref (b->objects);
  g_array_unref (b->parents);
  for (guint i = 0; i < b->shapes->len; i++)
    {
      g_free (g_array_index (b->shapes, BuilderShape, i).xyz);
      g_free (g_array_index (b->shapes, BuilderShape, i).tris);
    }
  g_array_unref (b->shapes);
  g_free (b->error);
  g_free (b);
}

static void misuse (TressNiffBuilder *b, const char *format, ...) G_GNUC_PRINTF (2, 3);

static void
misuse (TressNiffBuilder *b, const char *format, ...)
{
  va_list args;

  if (b->error != NULL)
    return;
  va_start (args, format);
  b->error = g_strdup_vprintf (format, args);
  va_end (args);
}

guint
tress_niff_builder_add_name (TressNiffBuilder *b, const char *name)
{
  g_ptr_array_add (b->names, g_strdup (name));
  return b->names->len - 1;
}

guint
tress_niff_builder_add_group (TressNiffBuilder *b, guint name_index, TressNiffAnimType type,
                              guint32 frame_rate, guint32 loop)
{
  TressNiffGroup *g = tress_niff_group_new ();

  g->index = b->groups->len;
  g->name_index = name_index;
  g->anim_type = type;
  g->frame_rate = frame_rate;
  g->loop = loop;
  g->has_ext = b->niff2;
  g_ptr_array_add (b->groups, g);
  return b->groups->len - 1;
}

guint
tress_niff_builder_add_object (TressNiffBuilder *b, guint name_index, guint32 group)
{
  TressNiffObject o = { b->objects->len, name_index, group };
  guint32 none = NIFF_NONE;

  g_array_append_val (b->objects, o);
  g_array_append_val (b->parents, none);
  return b->objects->len - 1;
}

void
tress_niff_builder_set_parent (TressNiffBuilder *b, guint obj, guint parent)
{
  if (obj >= b->objects->len || parent >= b->objects->len || parent >= obj)
    {
      misuse (b, "object %u cannot be a child of object %u (parents come first)", obj, parent);
      return;
    }
  g_array_index (b->parents, guint32, obj) = parent;
}

guint
tress_niff_builder_add_shape (TressNiffBuilder *b, guint obj, guint name_index, const float *xyz,
                              guint n_vtx, const guint32 *tris, guint n_tris, const float rgba[4],
                              gboolean smooth)
{
  BuilderShape s = { obj, name_index, n_vtx, NULL, n_tris, NULL, { 0 }, smooth };

  if (obj >= b->objects->len)
    misuse (b, "object %u does not exist (%u objects)", obj, b->objects->len);
  for (guint i = 0; i < b->shapes->len; i++)
    if (g_array_index (b->shapes, BuilderShape, i).obj == obj)
      misuse (b, "object %u already has a shape", obj);
  for (guint i = 0; i < 3 * n_tris; i++)
    if (tris[i] >= n_vtx)
      misuse (b, "triangle %u uses vertex %u of %u", i / 3, tris[i], n_vtx);
  s.xyz = g_memdup2 (xyz, sizeof (float) * 3 * n_vtx);
  s.tris = g_memdup2 (tris, sizeof (guint32) * 3 * n_tris);
  memcpy (s.rgba, rgba, sizeof s.rgba);
  g_array_append_val (b->shapes, s);
  return b->shapes->len - 1;
}

/* The shape of object @obj, or NIFF_NONE. */
static guint32
object_shape (const TressNiffBuilder *b, guint obj)
{
  for (guint i = 0; i < b->shapes->len; i++)
    if (g_array_index (b->shapes, BuilderShape, i).obj == obj)
      return i;
  return NIFF_NONE;
}

static guint
object_n_children (const TressNiffBuilder *b, guint obj)
{
  guint n = 0;

  for (guint i = 0; i < b->parents->len; i++)
    n += g_array_index (b->parents, guint32, i) == obj;
  return n;
}

static TressNiffGroup *
get_group (TressNiffBuilder *b, guint group)
{
  if (group >= b->groups->len)
    {
      misuse (b, "AnimGroup %u does not exist (%u groups)", group, b->groups->len);
      return NULL;
    }
  return g_ptr_array_index (b->groups, group);
}

static void
add_record (TressNiffBuilder *b, guint group, guint32 tag, guint32 frame, guint32 interp,
            const float trs[9])
{
  TressNiffGroup *g = get_group (b, group);
  TressNiffRecord r = { 0 };

  if (g == NULL)
    return;
  r.tag = tag;
  r.index = g->records->len;
  r.key = frame;
  r.interp = interp;
  r.next = NIFF_NONE;
  for (guint k = 0; k < 9 && trs != NULL; k++)
    r.trs[k] = niff_bits (trs[k]);
  g_array_append_val (g->records, r);
}

void
tress_niff_builder_add_static (TressNiffBuilder *b, guint group, const float trs[9])
{
  add_record (b, group, TRESS_NIFF_RECORD_STATIC, 0, 0, trs);
}

void
tress_niff_builder_add_full (TressNiffBuilder *b, guint group, const float trs[9])
{
  add_record (b, group, TRESS_NIFF_RECORD_FULL, 0, 0, trs);
}

void
tress_niff_builder_add_key (TressNiffBuilder *b, guint group, guint32 frame,
                            TressNiffKeyInterp interp, const float trs[9])
{
  add_record (b, group, TRESS_NIFF_RECORD_KEY, frame, interp, trs);
}

void
tress_niff_builder_add_billboard (TressNiffBuilder *b, guint group, guint32 look_at, guint32 up)
{
  TressNiffGroup *g = get_group (b, group);
  TressNiffRecord r = { 0 };

  if (g == NULL)
    return;
  r.tag = TRESS_NIFF_RECORD_BILLBOARD;
  r.index = g->records->len;
  r.look_at = look_at;
  r.up = up;
  g_array_append_val (g->records, r);
}

void
tress_niff_builder_add_channel_key (TressNiffBuilder *b, guint group, TressNiffChannel channel,
                                    TressNiffChannelInterp interp, guint32 frame,
                                    const float *values, const float *diffs)
{
  TressNiffGroup *g = get_group (b, group);
  TressNiffChannelKey k = { 0 };

  if (g == NULL)
    return;
  if (!b->niff2)
    {
      misuse (b, "NIFF1 files have no animation channels");
      return;
    }
  if (channel >= TRESS_NIFF_N_CHANNELS)
    {
      misuse (b, "channel %u does not exist", channel);
      return;
    }
  k.interp = interp;
  k.key = frame;
  for (guint j = 0; j < tress_niff_channel_n_components (channel); j++)
    {
      k.value[j] = niff_bits (values[j]);
      k.diff[j] = niff_bits (diffs != NULL ? diffs[j] : 0.0f);
    }
  g_array_append_val (g->channels[channel], k);
  g->channel_bits |= 1u << channel;
}

void
tress_niff_builder_set_rotation_order (TressNiffBuilder *b, guint group, guint32 order)
{
  TressNiffGroup *g = get_group (b, group);

  if (g != NULL)
    g->rot_order = order;
}

void
tress_niff_builder_set_constraint (TressNiffBuilder *b, guint group, guint which, guint32 kind,
                                   guint32 node)
{
  TressNiffGroup *g = get_group (b, group);

  if (g == NULL)
    return;
  if (!b->niff2 || which >= TRESS_NIFF_N_CONSTRAINTS)
    {
      misuse (b, "constraint %u cannot be set%s", which, b->niff2 ? "" : " in a NIFF1 file");
      return;
    }
  g->constraints[2 * which] = kind;
  g->constraints[2 * which + 1] = node;
  g->channel_bits |= 0x100u << which;
}

void
tress_niff_builder_add_other_data (TressNiffBuilder *b, guint group, const guint8 *data, gsize size)
{
  TressNiffGroup *g = get_group (b, group);
  GByteArray *all;

  if (g == NULL)
    return;
  if (!b->niff2 || size % 4 != 0)
    {
      misuse (b, "other extension data needs a NIFF2 file and a multiple of 4 bytes");
      return;
    }
  all = g_byte_array_new ();
  if (g->other != NULL)
    g_byte_array_append (all, g_bytes_get_data (g->other, NULL), g_bytes_get_size (g->other));
  g_byte_array_append (all, data, size);
  g_clear_pointer (&g->other, g_bytes_unref);
  g->other = g_byte_array_free_to_bytes (all);
}

/* ---- writing ---- */

static inline void
put (GByteArray *out, guint32 v)
{
  guint32 be = GUINT32_TO_BE (v);
  g_byte_array_append (out, (const guint8 *)&be, 4);
}

static void
patch (GByteArray *out, gsize pos, guint32 v)
{
  tress_put_u32 (out->data + pos, v, TRESS_BIG_ENDIAN);
}

static void
empty_list (GByteArray *out, guint32 tag, gboolean two_counts)
{
  guint32 size = two_counts ? 28 : 24;

  put (out, tag);
  put (out, size);
  put (out, size);
  put (out, 0);
  if (two_counts)
    put (out, 0);
  put (out, 0);
  put (out, 0);
}

/* Header field offsets of each list written, in physical order. */
static const struct
{
  guint32 tag;
  guint header_offset;
  gboolean niff2_only;
} physical[] = {
  { 0x00010000, 0x10 },       { 0x00100000, 0x14 },       { 0x000e0000, 0x18 },
  { 0x000f0000, 0x1c },       { 0x00020000, 0x20 },       { 0x00030000, 0x24 },
  { 0x00040000, 0x28 },       { 0x00080000, 0x38 },       { 0x00050000, 0x2c },
  { 0x00060000, 0x30 },       { 0x00070000, 0x34 },       { 0x00090000, 0x3c },
  { 0x000a0000, 0x40 },       { 0x000b0000, 0x44 },       { 0x00120000, 0x48 },
  { 0x000c0000, 0x4c },       { 0x000d0000, 0x50 },       { 0x00130000, 0x54 },
  { 0x00110000, 0x58 },       { 0x00200000, 0x64, TRUE }, { 0x00210000, 0x68, TRUE },
  { 0x00220000, 0x6c, TRUE }, { 0x00280000, 0x70, TRUE }, { 0x00230000, 0x74, TRUE },
  { 0x00240000, 0x78, TRUE }, { 0x00250000, 0x7c, TRUE }, { 0x00260000, 0x80, TRUE },
  { 0x00270000, 0x84, TRUE },
};

/* The face normal of triangle @t of @s (unit length, or +Z when degenerate). */
static void
face_normal (const BuilderShape *s, guint t, float n[3])
{
  const float *a = s->xyz + 3 * s->tris[3 * t];
  const float *b = s->xyz + 3 * s->tris[3 * t + 1];
  const float *c = s->xyz + 3 * s->tris[3 * t + 2];
  float u[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
  float v[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
  float len;

  n[0] = u[1] * v[2] - u[2] * v[1];
  n[1] = u[2] * v[0] - u[0] * v[2];
  n[2] = u[0] * v[1] - u[1] * v[0];
  len = sqrtf (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (len > 0)
    for (guint k = 0; k < 3; k++)
      n[k] /= len;
  else
    n[0] = n[1] = 0, n[2] = 1;
}

static void
put_f (GByteArray *out, float f)
{
  put (out, niff_bits (f));
}

/* A list header with @n elements (two counts for Color and Vector), then each
 * element written by @write; the sizes are patched afterwards. */
typedef void (*ElementWriter) (TressNiffBuilder *b, GByteArray *out, guint32 tag, guint i);

static void
counted_list (TressNiffBuilder *b, GByteArray *out, guint32 tag, guint n0, guint n1,
              ElementWriter write)
{
  gboolean two = tag == NIFF_TAG_COLOR || tag == NIFF_TAG_VECTOR;
  gsize start = out->len, sizes;
  guint n = n0 + (two ? n1 : 0);

  put (out, tag);
  put (out, (two ? 28 : 24) + 4 * n);
  put (out, 0);
  put (out, n0);
  if (two)
    put (out, n1);
  put (out, 0);
  put (out, 0);
  sizes = out->len;
  for (guint i = 0; i < n; i++)
    put (out, 0);
  for (guint i = 0; i < n; i++)
    {
      gsize el = out->len;
      write (b, out, tag, i);
      patch (out, sizes + 4 * i, (guint32)(out->len - el));
    }
  patch (out, start + 8, (guint32)(out->len - start));
}

static void
write_geometry_element (TressNiffBuilder *b, GByteArray *out, guint32 tag, guint i)
{
  guint n_shapes = b->shapes->len;
  const BuilderShape *s = &g_array_index (b->shapes, BuilderShape, i % MAX (n_shapes, 1));
  gboolean second = i >= n_shapes; /* Color, Vector: the per-vertex groups */
  gsize el = out->len;

  switch (tag)
    {
    case 0x00030000:
      put (out, 0x00030100);
      put (out, i);
      put (out, 0);
      put (out, s->name_index);
      put (out, 0x15); /* anti-aliased, z-buffered, back faces culled */
      put (out, i);    /* its TriGroup */
      put (out, i);    /* its material */
      put (out, 0);
      put (out, b->niff2 ? 12 : 0);
      put (out, 0);
      if (b->niff2)
        {
          put (out, 0x00080100);
          put (out, NIFF_NONE);
          put (out, NIFF_NONE);
        }
      break;
    case 0x00040000:
      put (out, 0x00040100);
      put (out, i);
      put (out, 24);
      put (out, 24 + 12 * s->n_vtx);
      put (out, s->name_index);
      put (out, s->n_vtx);
      for (guint k = 0; k < 3 * s->n_vtx; k++)
        put_f (out, s->xyz[k]);
      return;
    case NIFF_TAG_COLOR:
      {
        guint n = second ? s->n_vtx : s->n_tris;
        put (out, second ? 0x00050200 : 0x00050100);
        put (out, i % MAX (n_shapes, 1));
        put (out, 20);
        put (out, 20 + 16 * n);
        put (out, n);
        for (guint k = 0; k < n; k++)
          for (guint c = 0; c < 4; c++)
            put_f (out, s->rgba[c]);
        return;
      }
    case NIFF_TAG_VECTOR:
      {
        guint n = second ? s->n_vtx : s->n_tris;
        g_autofree float *nv = g_new0 (float, 3 * MAX (n, 1));

        /* Vertex normals: the sum of the faces around each vertex, normalised. */
        for (guint t = 0; t < s->n_tris; t++)
          {
            float f[3];
            face_normal (s, t, f);
            for (guint c = 0; c < 3; c++)
              for (guint k = 0; k < 3; k++)
                if (second)
                  nv[3 * s->tris[3 * t + c] + k] += f[k];
                else if (c == 0)
                  nv[3 * t + k] = f[k];
          }
        put (out, second ? 0x00060200 : 0x00060100);
        put (out, i % MAX (n_shapes, 1));
        put (out, 20);
        put (out, 20 + 12 * n);
        put (out, n);
        for (guint k = 0; k < n; k++)
          {
            float *v = nv + 3 * k;
            float len = sqrtf (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            for (guint c = 0; c < 3; c++)
              put_f (out, len > 0 ? v[c] / len : (c == 2));
          }
        return;
      }
    case 0x00080000:
      put (out, 0x00080100);
      put (out, i);
      put (out, 32);
      put (out, 0);
      put (out, s->name_index);
      put (out, 0); /* no shape animation */
      put (out, 0);
      put (out, s->n_tris);
      /* Reference data: Vtx, TriColor, VtxColor, TriNv, VtxNv, St groups. */
      for (guint k = 0; k < 5; k++)
        put (out, i);
      put (out, NIFF_NONE);
      for (guint t = 0; t < s->n_tris; t++)
        {
          put (out, 0x00080101);
          put (out, t);
          put (out, 76);
          put (out, t);
          put (out, t);
          for (guint c = 0; c < 3; c++)
            {
              guint32 v = s->tris[3 * t + c];
              put (out, v);
              put (out, NIFF_NONE);
              put (out, v);
              put (out, v);
            }
          put (out, 0);
          put (out, 0);
        }
      patch (out, el + 12, (guint32)(out->len - el)); /* its size follows the header size */
      return;
    default: /* Mat */
      put (out, 0x000a0100);
      put (out, i);
      put (out, 0);
      put (out, s->name_index);
      put (out, 0);                             /* MAT_TYPE_NIFF */
      put (out, 0x02 | (s->smooth ? 0x10 : 0)); /* lit by the scene's light */
      put (out, 0x04);                          /* colour: the primitive colour */
      put (out, 0x04);
      put (out, 0x40000);
      put (out, 0x40000);
      for (guint c = 0; c < 4; c++)
        put_f (out, s->rgba[c]);
      for (guint k = 0; k < 8; k++)
        put (out, 0);
      put (out, NIFF_NONE); /* no local light */
      put (out, 0);         /* no texture */
      put (out, b->niff2 ? 104 : 0);
      put (out, 0);
      if (b->niff2)
        {
          for (guint c = 0; c < 4; c++)
            put_f (out, s->rgba[c] * 0.2f); /* ambient */
          for (guint c = 0; c < 4; c++)
            put_f (out, 0); /* emission */
          for (guint c = 0; c < 4; c++)
            put_f (out, s->rgba[c]); /* diffuse */
          for (guint k = 0; k < 5; k++)
            put (out, 0);
          for (guint c = 0; c < 4; c++)
            put_f (out, s->rgba[c]);
          put (out, NIFF_NONE);
          put (out, NIFF_NONE);
          for (guint k = 0; k < 3; k++)
            put (out, 0);
        }
      break;
    }
  patch (out, el + 8, (guint32)(out->len - el));
}

static void
write_geometry_list (TressNiffBuilder *b, GByteArray *out, guint32 tag)
{
  gboolean two = tag == NIFF_TAG_COLOR || tag == NIFF_TAG_VECTOR;

  counted_list (b, out, tag, b->shapes->len, two ? b->shapes->len : 0, write_geometry_element);
}

static void
write_list (TressNiffBuilder *b, GByteArray *out, guint32 tag)
{
  guint n;
  gsize sizes;

  switch (tag)
    {
    case NIFF_TAG_SCENE:
      n = 0;
      for (guint i = 0; i < b->objects->len; i++)
        n += g_array_index (b->parents, guint32, i) == NIFF_NONE;
      put (out, tag);
      put (out, 44);
      put (out, 44 + 4 * n + (b->niff2 ? 20 : 0));
      put (out, 24);
      put (out, 0); /* the scene's name: NameList entry 0 */
      put (out, n);
      put (out, 0);
      put (out, 0);
      put (out, 0);
      put (out, b->niff2 ? 20 : 0);
      put (out, 0);
      for (guint i = 0; i < b->objects->len; i++)
        if (g_array_index (b->parents, guint32, i) == NIFF_NONE)
          put (out, i);
      if (b->niff2)
        for (guint i = 0; i < 5; i++)
          put (out, 0);
      break;

    case NIFF_TAG_OBJ:
      n = b->objects->len;
      put (out, tag);
      put (out, 24 + 4 * n);
      sizes = out->len;
      put (out, 0);
      put (out, n);
      put (out, 0);
      put (out, 0);
      for (guint i = 0; i < n; i++)
        put (out, (b->niff2 ? 116 : 88) + 4 * object_n_children (b, i));
      for (guint i = 0; i < n; i++)
        {
          const TressNiffObject *o = &g_array_index (b->objects, TressNiffObject, i);
          guint32 shape = object_shape (b, i);
          guint n_children = object_n_children (b, i);
          const guint32 words[20] = {
            NIFF_TAG_OBJ_ELEMENT,
            i,
            (b->niff2 ? 116 : 88) + 4 * n_children,
            o->name_index,
            1,
            shape != NIFF_NONE ? 1 : 0,
            0,
            0,
            0,
            0x00d00000,
            NIFF_NONE,
            NIFF_NONE,
            0,
            0,
            n_children,
            g_array_index (b->parents, guint32, i),
            shape,
            NIFF_NONE,
            o->anim_link,
            NIFF_NONE,
          };
          for (guint k = 0; k < 20; k++)
            put (out, words[k]);
          put (out, b->niff2 ? 28 : 0);
          put (out, 0);
          for (guint c = 0; c < b->parents->len; c++)
            if (g_array_index (b->parents, guint32, c) == i)
              put (out, c);
          if (b->niff2)
            {
              const guint32 ext[7] = { 0, 0x00d00000, NIFF_NONE, NIFF_NONE, 0, 0, 0 };
              for (guint k = 0; k < 7; k++)
                put (out, ext[k]);
            }
        }
      patch (out, sizes, (guint32)(out->len - (sizes - 8)));
      break;

    case NIFF_TAG_ANIM:
      n = b->groups->len;
      put (out, tag);
      put (out, 24 + 4 * n);
      put (out, 0);
      put (out, n);
      put (out, 0);
      put (out, 0);
      sizes = out->len;
      for (guint i = 0; i < n; i++)
        put (out, (guint32)tress_niff_group_size (g_ptr_array_index (b->groups, i)));
      for (guint i = 0; i < n; i++)
        tress_niff_group_write (g_ptr_array_index (b->groups, i), out);
      patch (out, sizes - 16, (guint32)(out->len - (sizes - 24)));
      break;

    case NIFF_TAG_NAME:
      n = b->names->len;
      put (out, tag);
      put (out, 24 + 4 * n);
      put (out, 0);
      put (out, n);
      put (out, 0);
      put (out, 0);
      sizes = out->len;
      for (guint i = 0; i < n; i++)
        put (out, 0);
      for (guint i = 0; i < n; i++)
        {
          const char *name = g_ptr_array_index (b->names, i);
          gsize len = strlen (name);
          gsize padded = (len + 4) / 4 * 4; /* always NUL-terminated, as the SDK's NIFF2 files */
          static const guint8 zeros[4] = { 0 };

          put (out, NIFF_TAG_NAME_ELEMENT);
          put (out, i);
          put (out, 16);
          put (out, (guint32)(16 + padded));
          g_byte_array_append (out, (const guint8 *)name, len);
          g_byte_array_append (out, zeros, padded - len);
          patch (out, sizes + 4 * i, (guint32)(16 + padded));
        }
      patch (out, sizes - 16, (guint32)(out->len - (sizes - 24)));
      break;

    case 0x00030000: /* Shape */
    case 0x00040000: /* Vtx */
    case 0x00080000: /* Tri */
    case NIFF_TAG_COLOR:
    case NIFF_TAG_VECTOR:
    case 0x000a0000: /* Mat */
      write_geometry_list (b, out, tag);
      break;

    default:
      empty_list (out, tag, FALSE);
      break;
    }
}

GBytes *
tress_niff_builder_finish (TressNiffBuilder *b, GError **error)
{
  g_autoptr (GByteArray) out = g_byte_array_new ();
  guint header_size = b->niff2 ? NIFF2_HEADER_SIZE : NIFF1_HEADER_SIZE;
  g_autoptr (GBytes) bytes = NULL;
  gpointer check;

  for (guint i = 0; i < b->objects->len; i++)
    {
      const TressNiffObject *o = &g_array_index (b->objects, TressNiffObject, i);
      if (o->anim_link != NIFF_NONE && o->anim_link >= b->groups->len)
        misuse (b, "object %u uses AnimGroup %u, which does not exist", i, o->anim_link);
    }
  for (guint gi = 0; gi < b->groups->len; gi++)
    {
      TressNiffGroup *g = g_ptr_array_index (b->groups, gi);

      for (guint i = 0; i < g->records->len; i++)
        {
          TressNiffRecord *r = &g_array_index (g->records, TressNiffRecord, i);
          TressNiffRecord *next = i + 1 < g->records->len
                                      ? &g_array_index (g->records, TressNiffRecord, i + 1)
                                      : NULL;

          if (r->tag != TRESS_NIFF_RECORD_KEY)
            continue;
          if (next != NULL && next->key <= r->key)
            misuse (b, "AnimGroup %u: KEY frames must increase (%u then %u)", gi, r->key,
                    next->key);
          r->next = next != NULL ? next->key : NIFF_NONE;
        }
      for (guint c = 0; c < TRESS_NIFF_N_CHANNELS; c++)
        for (guint i = 1; i < g->channels[c]->len; i++)
          if (g_array_index (g->channels[c], TressNiffChannelKey, i).key
              <= g_array_index (g->channels[c], TressNiffChannelKey, i - 1).key)
            misuse (b, "AnimGroup %u: %s frames must increase", gi, tress_niff_channel_name (c));
    }
  if (b->names->len == 0)
    tress_niff_builder_add_name (b, "scene");
  if (b->error != NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_INVALID, "NIFF builder: %s", b->error);
      return NULL;
    }

  put (out, b->version);
  put (out, 0);
  put (out, NIFF_TAG_HEADER);
  put (out, header_size);
  while (out->len < header_size)
    put (out, 0);
  if (b->niff2)
    patch (out, 0x5C, 36);
  for (guint i = 0; i < G_N_ELEMENTS (physical); i++)
    {
      gsize start = out->len;

      if (physical[i].niff2_only && !b->niff2)
        continue;
      write_list (b, out, physical[i].tag);
      patch (out, physical[i].header_offset, (guint32)(out->len - start));
    }
  patch (out, 4, out->len);
  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&out));

  /* What we wrote must read back. */
  check = tress_format_niff.parse (bytes, "built file", error);
  if (check == NULL)
    return NULL;
  tress_format_niff.free (check);
  return g_steal_pointer (&bytes);
}

/* ---- the demo ---- */

/* A solid of revolution around Y: @n_rings rings of (@y, @radius) from the
 * bottom up, @segments around; a radius of 0 is a single point (a pole). */
static void
add_lathe (TressNiffBuilder *b, guint obj, guint name, const float (*profile)[2], guint n_rings,
           guint segments, const float rgba[4], gboolean smooth)
{
  g_autoptr (GArray) xyz = g_array_new (FALSE, FALSE, sizeof (float));
  g_autoptr (GArray) tris = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree guint32 *first = g_new (guint32, n_rings);

  for (guint r = 0; r < n_rings; r++)
    {
      guint n = profile[r][1] == 0 ? 1 : segments;

      first[r] = xyz->len / 3;
      for (guint k = 0; k < n; k++)
        {
          double a = 2 * G_PI * k / segments;
          float v[3] = { (float)(profile[r][1] * cos (a)), profile[r][0],
                         (float)(-profile[r][1] * sin (a)) };
          g_array_append_vals (xyz, v, 3);
        }
    }
  for (guint r = 0; r + 1 < n_rings; r++)
    for (guint k = 0; k < segments; k++)
      {
        guint k1 = (k + 1) % segments;
        gboolean pole0 = profile[r][1] == 0, pole1 = profile[r + 1][1] == 0;
        guint32 a = first[r] + (pole0 ? 0 : k), b0 = first[r] + (pole0 ? 0 : k1);
        guint32 c = first[r + 1] + (pole1 ? 0 : k), d = first[r + 1] + (pole1 ? 0 : k1);

        /* Counter-clockwise seen from outside. */
        if (!pole0)
          {
            guint32 t[3] = { a, b0, pole1 ? c : d };
            g_array_append_vals (tris, t, 3);
          }
        if (!pole1)
          {
            guint32 t[3] = { a, d, c };
            g_array_append_vals (tris, t, 3);
          }
      }
  tress_niff_builder_add_shape (b, obj, name, (const float *)xyz->data, xyz->len / 3,
                                (const guint32 *)tris->data, tris->len / 3, rgba, smooth);
}

GBytes *
tress_niff_build_demo (void)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (TRUE, 0);
  g_autoptr (GError) error = NULL;
  guint g, obj;
  GBytes *bytes;

  tress_niff_builder_add_name (b, "tress_demo_scene");

  /* A top that spins on Y while it bobs up and down. */
  g = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "Spin.anim"),
                                    TRESS_NIFF_ANIM_STATIC, 30, 0);
  obj = tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "Top"), g);
  {
    static const float top[][2] = { { -0.5f, 0 }, { 0.15f, 0.7f }, { 0.35f, 0.5f }, { 0.9f, 0 } };
    const float red[4] = { 0.85f, 0.2f, 0.15f, 1 };
    add_lathe (b, obj, tress_niff_builder_add_name (b, "Top.shape"), top, G_N_ELEMENTS (top), 8,
               red, FALSE);
  }
  for (guint i = 0; i <= 4; i++)
    {
      float angle = (float)(i * G_PI / 2 - G_PI);
      float slope = (float)(G_PI / 2 / 15);
      float pos[3] = { 0, (i % 2) ? 1.5f : 0.5f, 0 };
      float d[3] = { 0, 0, 0 };

      tress_niff_builder_add_channel_key (b, g, TRESS_NIFF_ROTATE_Y, TRESS_NIFF_CHANNEL_HERMITE,
                                          i * 15, &angle, &slope);
      tress_niff_builder_add_channel_key (b, g, TRESS_NIFF_TRANSLATION, TRESS_NIFF_CHANNEL_HERMITE,
                                          i * 15, pos, d);
    }

  /* A ball that bounces and squashes. */
  g = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "Bounce.anim"),
                                    TRESS_NIFF_ANIM_STATIC, 30, 0);
  obj = tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "Ball"), g);
  {
    float ball[7][2];
    const float blue[4] = { 0.2f, 0.45f, 0.9f, 1 };

    for (guint r = 0; r < 7; r++)
      {
        double a = G_PI * r / 6 - G_PI / 2;
        ball[r][0] = (float)(0.5 * sin (a)) + 0.5f;
        ball[r][1] = r == 0 || r == 6 ? 0 : (float)(0.5 * cos (a));
      }
    add_lathe (b, obj, tress_niff_builder_add_name (b, "Ball.shape"), ball, 7, 12, blue, TRUE);
  }
  {
    const float heights[3] = { 3, 0, 3 };
    const float slopes[3] = { 0, 0, 0 };
    const guint32 frames[3] = { 0, 20, 40 };

    for (guint i = 0; i < 3; i++)
      {
        float pos[3] = { 2, heights[i], 0 };
        float d[3] = { 0, slopes[i], 0 };
        float scale[3] = { 1, i == 1 ? 0.6f : 1.0f, 1 };
        float ds[3] = { 0, 0, 0 };

        tress_niff_builder_add_channel_key (b, g, TRESS_NIFF_TRANSLATION,
                                            TRESS_NIFF_CHANNEL_HERMITE, frames[i], pos, d);
        tress_niff_builder_add_channel_key (b, g, TRESS_NIFF_UNIQUE_SCALE,
                                            TRESS_NIFF_CHANNEL_LINEAR, frames[i], scale, ds);
      }
  }

  /* A pendulum swinging about Z above the others, its bob a child of its rod. */
  {
    static const float rod[][2]
        = { { -2.0f, 0 }, { -1.95f, 0.06f }, { -0.05f, 0.06f }, { 0.0f, 0 } };
    static const float bob[][2] = { { -2.6f, 0 }, { -2.3f, 0.3f }, { -2.0f, 0 } };
    const float yellow[4] = { 0.95f, 0.8f, 0.2f, 1 };
    const float grey[4] = { 0.55f, 0.55f, 0.6f, 1 };
    guint rod_obj, bob_obj;

    g = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "Swing.anim"),
                                      TRESS_NIFF_ANIM_STATIC, 30, 0);
    rod_obj = tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "Pendulum"), g);
    bob_obj = tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "Bob"), NIFF_NONE);
    tress_niff_builder_set_parent (b, bob_obj, rod_obj);
    add_lathe (b, rod_obj, tress_niff_builder_add_name (b, "Pendulum.shape"), rod,
               G_N_ELEMENTS (rod), 6, grey, TRUE);
    add_lathe (b, bob_obj, tress_niff_builder_add_name (b, "Bob.shape"), bob, G_N_ELEMENTS (bob), 8,
               yellow, FALSE);
    for (guint i = 0; i <= 2; i++)
      {
        float angle = i == 1 ? -0.6f : 0.6f;
        float slope = 0;
        tress_niff_builder_add_channel_key (b, g, TRESS_NIFF_ROTATE_Z, TRESS_NIFF_CHANNEL_HERMITE,
                                            i * 24, &angle, &slope);
      }
    {
      float pos[3] = { -2.5f, 3.5f, 0 };
      float d[3] = { 0, 0, 0 };
      tress_niff_builder_add_channel_key (b, g, TRESS_NIFF_TRANSLATION, TRESS_NIFF_CHANNEL_CONST, 0,
                                          pos, d);
    }
  }

  bytes = tress_niff_builder_finish (b, &error);
  if (bytes == NULL)
    g_warning ("The NIFF demo could not be built: %s", error->message);
  return bytes;
}
