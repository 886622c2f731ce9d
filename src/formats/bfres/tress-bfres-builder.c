/* tress-bfres-builder.c: a BFRES from nothing
 *
 * The builder lays out the header, index groups, sub-files, curve headers and
 * arrays of the right sizes and the string pool; it then opens its own bytes
 * with the parser and fills every curve through the same encoder edits use, so
 * a built file and an edited one follow one set of rules.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-bfres-builder.h"

#include <math.h>
#include <string.h>

#include "tress-bfres-pose.h"
#include "tress-bfres-private.h"

/* A Wii U FMAT header: magic to user pointer. */
#define FMAT_SIZE 0x4C

typedef struct
{
  TressBfresBuilderCurve spec;
  TressKey *keys;
  char *name;
  guint param;
} BCurve;

typedef struct
{
  char *name;
  GPtrArray *params; /* char *: FSHU parameters */
  GArray *curves;    /* BCurve */
} BPart;

typedef struct
{
  TressBfresAnimKind kind;
  char *name;
  int frame_count;
  gboolean loops;
  GPtrArray *parts;    /* BPart */
  GPtrArray *textures; /* char * */
} BAnim;

typedef struct
{
  char *name;
  guint material;
  guint n_vertices;
  float *positions, *normals;
  guint skin_count, bone;
  guint8 *skin_bones;
  float *skin_weights;
  guint n_triangles;
  guint32 *triangles;
} BShape;

typedef struct
{
  char *name;
  GArray *bones;        /* TressBfresBuilderBone, names owned */
  GPtrArray *materials; /* char * */
  GPtrArray *shapes;    /* BShape */
} BModel;

struct _TressBfresBuilder
{
  char *name;
  guint32 version;
  GPtrArray *anims;
  GPtrArray *models; /* BModel */
};

static void
bcurve_clear (gpointer p)
{
  BCurve *c = p;
  g_free (c->keys);
  g_free (c->name);
}

static void
bpart_free (gpointer p)
{
  BPart *part = p;
  g_free (part->name);
  g_ptr_array_unref (part->params);
  g_array_unref (part->curves);
  g_free (part);
}

static void
banim_free (gpointer p)
{
  BAnim *a = p;
  g_free (a->name);
  g_ptr_array_unref (a->parts);
  g_ptr_array_unref (a->textures);
  g_free (a);
}

static void
bshape_free (gpointer p)
{
  BShape *s = p;

  g_free (s->name);
  g_free (s->positions);
  g_free (s->normals);
  g_free (s->skin_bones);
  g_free (s->skin_weights);
  g_free (s->triangles);
  g_free (s);
}

static void
bbone_clear (gpointer p)
{
  TressBfresBuilderBone *bone = p;

  g_free ((char *)bone->name);
}

static void
bmodel_free (gpointer p)
{
  BModel *m = p;

  g_free (m->name);
  g_array_unref (m->bones);
  g_ptr_array_unref (m->materials);
  g_ptr_array_unref (m->shapes);
  g_free (m);
}

TressBfresBuilder *
tress_bfres_builder_new (const char *name, guint32 version)
{
  TressBfresBuilder *b = g_new0 (TressBfresBuilder, 1);
  b->name = g_strdup (name);
  b->version = version;
  b->anims = g_ptr_array_new_with_free_func (banim_free);
  b->models = g_ptr_array_new_with_free_func (bmodel_free);
  return b;
}

void
tress_bfres_builder_free (TressBfresBuilder *b)
{
  if (b == NULL)
    return;
  g_free (b->name);
  g_ptr_array_unref (b->anims);
  g_ptr_array_unref (b->models);
  g_free (b);
}

static BAnim *
cur_anim (TressBfresBuilder *b)
{
  g_assert (b->anims->len > 0);
  return g_ptr_array_index (b->anims, b->anims->len - 1);
}

static BPart *
new_part (BAnim *a, const char *name)
{
  BPart *part = g_new0 (BPart, 1);
  part->name = g_strdup (name);
  part->params = g_ptr_array_new_with_free_func (g_free);
  part->curves = g_array_new (FALSE, TRUE, sizeof (BCurve));
  g_array_set_clear_func (part->curves, bcurve_clear);
  g_ptr_array_add (a->parts, part);
  return part;
}

void
tress_bfres_builder_begin_anim (TressBfresBuilder *b, TressBfresAnimKind kind, const char *name,
                                int frame_count, gboolean loops)
{
  BAnim *a = g_new0 (BAnim, 1);
  a->kind = kind;
  a->name = g_strdup (name);
  a->frame_count = frame_count;
  a->loops = loops;
  a->parts = g_ptr_array_new_with_free_func (bpart_free);
  a->textures = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (b->anims, a);
  /* Visibility animations hold their curves in one unnamed part. */
  if (kind == TRESS_BFRES_ANIM_BONE_VISIBILITY || kind == TRESS_BFRES_ANIM_MAT_VISIBILITY)
    new_part (a, "");
}

void
tress_bfres_builder_add_bone (TressBfresBuilder *b, const char *bone)
{
  new_part (cur_anim (b), bone);
}

void
tress_bfres_builder_add_material (TressBfresBuilder *b, const char *material)
{
  new_part (cur_anim (b), material);
}

void
tress_bfres_builder_add_param (TressBfresBuilder *b, const char *param)
{
  BAnim *a = cur_anim (b);
  g_return_if_fail (a->parts->len > 0);
  g_ptr_array_add (((BPart *)g_ptr_array_index (a->parts, a->parts->len - 1))->params,
                   g_strdup (param));
}

void
tress_bfres_builder_add_texture (TressBfresBuilder *b, const char *texture)
{
  g_ptr_array_add (cur_anim (b)->textures, g_strdup (texture));
}

void
tress_bfres_builder_add_curve (TressBfresBuilder *b, const TressBfresBuilderCurve *spec)
{
  BAnim *a = cur_anim (b);
  BPart *part;
  BCurve c = { 0 };

  g_return_if_fail (a->parts->len > 0 && spec->n_keys > 0);
  part = g_ptr_array_index (a->parts, a->parts->len - 1);
  c.spec = *spec;
  c.keys = g_memdup2 (spec->keys, sizeof (TressKey) * spec->n_keys);
  c.spec.keys = NULL;
  c.name = g_strdup (spec->name);
  c.spec.name = NULL;
  c.param = part->params->len > 0 ? part->params->len - 1 : 0;
  g_array_append_val (part->curves, c);
}

/* ---- byte writing ----------------------------------------------------------- */

typedef struct
{
  GByteArray *buf;
  GPtrArray *fix_strings; /* char * (borrowed) */
  GArray *fix_pos;        /* gsize */
  GArray *curve_pos;      /* gsize: headers, in build order */
  GPtrArray *curve_src;   /* BCurve *, same order */
} W;

static gsize
w_tell (W *w)
{
  return w->buf->len;
}

static gsize
w_reserve (W *w, gsize n)
{
  gsize at = w->buf->len;
  g_byte_array_set_size (w->buf, at + n);
  memset (w->buf->data + at, 0, n);
  return at;
}

static void
w_align (W *w)
{
  while (w->buf->len % 4)
    w_reserve (w, 1);
}

static void
w_u8_at (W *w, gsize pos, guint8 v)
{
  w->buf->data[pos] = v;
}

static void
w_u16_at (W *w, gsize pos, guint16 v)
{
  w->buf->data[pos] = v >> 8;
  w->buf->data[pos + 1] = v & 0xFF;
}

static void
w_u32_at (W *w, gsize pos, guint32 v)
{
  guint8 *p = w->buf->data + pos;
  p[0] = v >> 24, p[1] = v >> 16, p[2] = v >> 8, p[3] = v;
}

static void
w_f32_at (W *w, gsize pos, float f)
{
  guint32 u;
  memcpy (&u, &f, 4);
  w_u32_at (w, pos, u);
}

static void
w_off_at (W *w, gsize field, gsize target)
{
  w_u32_at (w, field, (guint32)(gint32)((gint64)target - (gint64)field));
}

static void
w_str_at (W *w, gsize field, const char *s)
{
  g_ptr_array_add (w->fix_strings, (gpointer)(s ? s : ""));
  g_array_append_val (w->fix_pos, field);
}

/* Index group with trie bits; returns the position of node 1's data field. */
static gsize
w_group (W *w, char **names, guint n)
{
  gsize pos;
  g_autofree guint32 *bits = g_new (guint32, (gsize)n + 1);
  g_autofree guint16 *left = g_new0 (guint16, (gsize)n + 1);
  g_autofree guint16 *right = g_new0 (guint16, (gsize)n + 1);

  bfres_group_trie ((const char *const *)names, n, bits, left, right);
  w_align (w);
  pos = w_reserve (w, 8 + 16 * ((gsize)n + 1));
  w_u32_at (w, pos, 8 + 16 * (n + 1));
  w_u32_at (w, pos + 4, n);
  for (guint k = 0; k <= n; k++)
    {
      gsize node = pos + 8 + 16 * (gsize)k;
      w_u32_at (w, node, bits[k]);
      w_u16_at (w, node + 4, left[k]);
      w_u16_at (w, node + 6, right[k]);
      if (k > 0)
        w_str_at (w, node + 8, names[k - 1]);
    }
  return pos + 8 + 16 + 12;
}

static guint32
curve_flags (const TressBfresBuilderCurve *s)
{
  return (guint32)s->frame_type | (guint32)s->key_type << 2 | (guint32)s->curve_type << 4
         | (guint32)s->pre_wrap << 8 | (guint32)s->post_wrap << 12;
}

/* Writes @n contiguous curve headers; arrays come later (see w_arrays). */
static gsize
w_curves (W *w, gsize hs, BCurve *const *curves, guint n, guint32 *targets, guint32 *baked)
{
  gsize pos;

  w_align (w);
  pos = w_reserve (w, hs * n);
  for (guint i = 0; i < n; i++)
    {
      const BCurve *c = curves[i];
      gsize h = pos + hs * i;
      float start = (float)c->keys[0].frame, end = (float)c->keys[c->spec.n_keys - 1].frame;
      w_u16_at (w, h, (guint16)curve_flags (&c->spec));
      w_u16_at (w, h + 2, (guint16)c->spec.n_keys);
      w_u32_at (w, h + 4, targets ? targets[i] : c->spec.target_offset);
      w_f32_at (w, h + 8, start);
      w_f32_at (w, h + 12, end);
      /* Quantized keys get their scale from the encoder (0: none yet). */
      if (bfres_curve_type_is_float (c->spec.curve_type) && c->spec.key_type == TRESS_BFRES_KEY_32)
        w_f32_at (w, h + 16, 1.0f);
      *baked += bfres_baked_contribution (c->spec.curve_type, c->spec.key_type, start, end);
      g_array_append_val (w->curve_pos, h);
      g_ptr_array_add (w->curve_src, (gpointer)c);
    }
  return pos;
}

/* Arrays of the curves written since @first (zeroed; filled by the encoder). */
static void
w_arrays (W *w, guint first, gsize hs)
{
  for (guint i = first; i < w->curve_pos->len; i++)
    {
      gsize h = g_array_index (w->curve_pos, gsize, i);
      const BCurve *c = g_ptr_array_index (w->curve_src, i);
      gsize fp, kp;
      w_align (w);
      fp = w_reserve (w, bfres_frames_bytes (c->spec.frame_type, c->spec.n_keys));
      w_align (w);
      kp = w_reserve (w, bfres_keys_bytes (c->spec.curve_type, c->spec.key_type, c->spec.n_keys));
      w_off_at (w, h + hs - 8, fp);
      w_off_at (w, h + hs - 4, kp);
    }
}

static guint
bone_flag_bit (guint32 target)
{
  switch (target)
    {
    case 0x04:
      return 6;
    case 0x08:
      return 7;
    case 0x0C:
      return 8;
    case 0x20:
      return 9;
    case 0x24:
      return 10;
    case 0x28:
      return 11;
    case 0x2C:
      return 12;
    case 0x10:
      return 13;
    case 0x14:
      return 14;
    case 0x18:
      return 15;
    default:
      return 0;
    }
}

static gsize
w_u16_array (W *w, guint n, guint16 value)
{
  gsize pos;
  w_align (w);
  pos = w_reserve (w, ((gsize)n * 2 + 3) & ~(gsize)3);
  for (guint i = 0; i < n; i++)
    w_u16_at (w, pos + 2 * (gsize)i, value);
  return pos;
}

static void
w_fska (W *w, TressBfresBuilder *b, BAnim *a, gsize pos, gsize hs)
{
  gboolean v34 = b->version >= BFRES_V3_4;
  guint nb = a->parts->len, total = 0, first = w->curve_pos->len;
  guint32 baked = 0;
  gsize bones, bind;

  memcpy (w->buf->data + pos, "FSKA", 4);
  w_str_at (w, pos + 4, a->name);
  w_str_at (w, pos + 8, "");
  w_u32_at (w, pos + 0x0C, (a->loops ? 1u << 2 : 0) | 1u << 12);
  bones = w_reserve (w, 0x18 * (gsize)nb);
  bind = w_u16_array (w, nb, 0xFFFF);
  for (guint i = 0; i < nb; i++)
    {
      BPart *p = g_ptr_array_index (a->parts, i);
      gsize bp = bones + 0x18 * (gsize)i;
      guint32 flags = 0;
      g_autofree BCurve **list = g_new (BCurve *, p->curves->len + 1);
      gsize cp;
      guint8 le[4] = { total & 0xFF, (total >> 8) & 0xFF, (total >> 16) & 0xFF, total >> 24 };

      for (guint k = 0; k < p->curves->len; k++)
        {
          list[k] = &g_array_index (p->curves, BCurve, k);
          flags |= 1u << bone_flag_bit (list[k]->spec.target_offset);
        }
      flags &= ~1u;
      w_u32_at (w, bp, flags);
      w_str_at (w, bp + 4, p->name);
      w_u8_at (w, bp + 0x0A, (guint8)p->curves->len);
      memcpy (w->buf->data + bp + 0x0C, le, 4); /* beginCurve: little-endian, as Nintendo's tool */
      if (p->curves->len > 0)
        {
          cp = w_curves (w, hs, list, p->curves->len, NULL, &baked);
          w_off_at (w, bp + 0x10, cp);
        }
      total += p->curves->len;
    }
  w_arrays (w, first, hs);
  if (v34)
    {
      w_u32_at (w, pos + 0x10, (guint32)a->frame_count);
      w_u16_at (w, pos + 0x14, (guint16)nb);
      w_u32_at (w, pos + 0x18, total);
      w_u32_at (w, pos + 0x1C, baked);
    }
  else
    {
      w_u16_at (w, pos + 0x10, (guint16)a->frame_count);
      w_u16_at (w, pos + 0x12, (guint16)nb);
      w_u16_at (w, pos + 0x16, (guint16)total);
      w_u32_at (w, pos + 0x18, baked);
    }
  if (nb > 0)
    {
      w_off_at (w, pos + 0x20, bones);
      w_off_at (w, pos + 0x28, bind);
    }
}

static void
w_fshu (W *w, BAnim *a, gsize pos, gsize hs, gboolean v34)
{
  guint nm = a->parts->len, total = 0, total_params = 0, first = w->curve_pos->len;
  guint32 baked = 0;
  gsize mats, bind;

  memcpy (w->buf->data + pos, "FSHU", 4);
  w_str_at (w, pos + 4, a->name);
  w_str_at (w, pos + 8, "");
  w_u32_at (w, pos + 0x0C, a->loops ? 1u << 2 : 0);
  mats = w_reserve (w, 0x20 * (gsize)nm);
  bind = w_u16_array (w, nm, 0xFFFF);
  for (guint m = 0; m < nm; m++)
    {
      BPart *p = g_ptr_array_index (a->parts, m);
      gsize mp = mats + 0x20 * (gsize)m, params = 0, cp;
      guint np = MAX (p->params->len, 1u), k = 0;
      g_autofree BCurve **list = g_new (BCurve *, p->curves->len + 1);

      w_align (w);
      params = w_reserve (w, 0x10 * (gsize)np);
      for (guint pi = 0; pi < np; pi++)
        {
          gsize pp = params + 0x10 * (gsize)pi;
          guint begin = k, nf = 0, ni = 0;
          for (guint c = 0; c < p->curves->len; c++)
            {
              BCurve *bc = &g_array_index (p->curves, BCurve, c);
              if (bc->param != pi)
                continue;
              list[k++] = bc;
              if (bfres_curve_type_is_float (bc->spec.curve_type))
                nf++;
              else
                ni++;
            }
          w_u16_at (w, pp, (guint16)begin);
          w_u16_at (w, pp + 2, (guint16)nf);
          w_u16_at (w, pp + 4, (guint16)ni);
          w_u16_at (w, pp + 0x0A, 0xFFFF);
          w_str_at (w, pp + 0x0C, pi < p->params->len ? g_ptr_array_index (p->params, pi) : "");
        }
      w_u16_at (w, mp, (guint16)np);
      w_u16_at (w, mp + 2, (guint16)k);
      w_u32_at (w, mp + 8, total);
      w_u32_at (w, mp + 0x0C, total_params);
      w_str_at (w, mp + 0x10, p->name);
      w_off_at (w, mp + 0x14, params);
      if (k > 0)
        {
          cp = w_curves (w, hs, list, k, NULL, &baked);
          w_off_at (w, mp + 0x18, cp);
        }
      total += k;
      total_params += np;
    }
  w_arrays (w, first, hs);
  if (v34)
    {
      w_u32_at (w, pos + 0x10, (guint32)a->frame_count);
      w_u16_at (w, pos + 0x14, (guint16)nm);
      w_u32_at (w, pos + 0x18, total_params);
      w_u32_at (w, pos + 0x1C, total);
      w_u32_at (w, pos + 0x20, baked);
    }
  else
    {
      w_u16_at (w, pos + 0x10, (guint16)a->frame_count);
      w_u16_at (w, pos + 0x12, (guint16)nm);
      w_u32_at (w, pos + 0x18, total);
      w_u32_at (w, pos + 0x1C, baked);
    }
  if (nm > 0)
    {
      w_off_at (w, pos + 0x28, bind);
      w_off_at (w, pos + 0x2C, mats);
    }
}

static void
w_ftxp (W *w, BAnim *a, gsize pos, gsize hs, gboolean v34)
{
  guint nm = a->parts->len, nt = a->textures->len, total = 0, first = w->curve_pos->len;
  guint32 baked = 0;
  gsize mats, bind, refs, group_data;

  memcpy (w->buf->data + pos, "FTXP", 4);
  w_str_at (w, pos + 4, a->name);
  w_str_at (w, pos + 8, "");
  w_u16_at (w, pos + 0x0C, a->loops ? 1u << 2 : 0);
  if (v34)
    {
      w_u32_at (w, pos + 0x10, (guint32)a->frame_count);
      w_u16_at (w, pos + 0x14, (guint16)nt);
      w_u16_at (w, pos + 0x16, (guint16)nm);
    }
  else
    {
      w_u16_at (w, pos + 0x0E, (guint16)a->frame_count);
      w_u16_at (w, pos + 0x10, (guint16)nt);
      w_u16_at (w, pos + 0x12, (guint16)nm);
    }
  mats = w_reserve (w, 0x1C * (gsize)nm);
  bind = w_u16_array (w, nm, 0xFFFF);
  refs = w_reserve (w, 8 * (gsize)nt);
  for (guint t = 0; t < nt; t++)
    w_str_at (w, refs + 8 * (gsize)t, g_ptr_array_index (a->textures, t));
  if (nt > 0)
    {
      group_data = w_group (w, (char **)a->textures->pdata, nt);
      w_off_at (w, pos + 0x30, group_data - 12 - 16 - 8);
      for (guint t = 0; t < nt; t++)
        w_off_at (w, group_data + 16 * (gsize)t, refs + 8 * (gsize)t);
    }
  for (guint m = 0; m < nm; m++)
    {
      BPart *p = g_ptr_array_index (a->parts, m);
      gsize mp = mats + 0x1C * (gsize)m, pats, base, cp;
      guint nc = p->curves->len;
      g_autofree BCurve **list = g_new (BCurve *, nc + 1);

      w_align (w);
      pats = w_reserve (w, 8 * (gsize)MAX (nc, 1u));
      for (guint k = 0; k < nc; k++)
        {
          list[k] = &g_array_index (p->curves, BCurve, k);
          w_u8_at (w, pats + 8 * (gsize)k, (guint8)k);
          w_u8_at (w, pats + 8 * (gsize)k + 1, 0xFF);
          w_str_at (w, pats + 8 * (gsize)k + 4, list[k]->name);
        }
      base = w_u16_array (w, nc, 0);
      w_u16_at (w, mp, (guint16)nc);
      w_u16_at (w, mp + 2, (guint16)nc);
      w_u32_at (w, mp + 4, total);
      w_u32_at (w, mp + 8, total);
      w_str_at (w, mp + 0x0C, p->name);
      w_off_at (w, mp + 0x10, pats);
      if (nc > 0)
        {
          cp = w_curves (w, hs, list, nc, NULL, &baked);
          w_off_at (w, mp + 0x14, cp);
          w_off_at (w, mp + 0x18, base);
        }
      total += nc;
    }
  w_arrays (w, first, hs);
  if (v34)
    {
      w_u32_at (w, pos + 0x18, total);
      w_u32_at (w, pos + 0x1C, total);
      w_u32_at (w, pos + 0x20, baked);
    }
  else
    {
      w_u16_at (w, pos + 0x16, (guint16)total);
      w_u32_at (w, pos + 0x18, total);
      w_u32_at (w, pos + 0x1C, baked);
    }
  if (nm > 0)
    {
      w_off_at (w, pos + 0x28, bind);
      w_off_at (w, pos + 0x2C, mats);
    }
}

static void
w_fvis (W *w, BAnim *a, gsize pos, gsize hs)
{
  BPart *p = g_ptr_array_index (a->parts, 0);
  guint nc = p->curves->len, first = w->curve_pos->len;
  guint32 baked = 0;
  g_autofree BCurve **list = g_new (BCurve *, nc + 1);
  g_autofree guint32 *targets = g_new (guint32, nc + 1);
  gsize names, bind, bits, cp;

  memcpy (w->buf->data + pos, "FVIS", 4);
  w_str_at (w, pos + 4, a->name);
  w_str_at (w, pos + 8, "");
  w_u16_at (w, pos + 0x0C,
            (a->loops ? 1u << 2 : 0) | (a->kind == TRESS_BFRES_ANIM_MAT_VISIBILITY ? 1u << 8 : 0));
  w_u32_at (w, pos + 0x10, (guint32)a->frame_count);
  w_u16_at (w, pos + 0x14, (guint16)nc);
  w_u16_at (w, pos + 0x16, (guint16)nc);
  bind = w_u16_array (w, nc, 0xFFFF);
  w_align (w);
  names = w_reserve (w, 4 * (gsize)nc);
  bits = w_reserve (w, 4 * (((gsize)nc + 31) / 32));
  for (guint k = 0; k < nc; k++)
    {
      list[k] = &g_array_index (p->curves, BCurve, k);
      targets[k] = k;
      w_str_at (w, names + 4 * (gsize)k, list[k]->name);
    }
  if (nc > 0)
    {
      cp = w_curves (w, hs, list, nc, targets, &baked);
      w_off_at (w, pos + 0x20, bind);
      w_off_at (w, pos + 0x24, names);
      w_off_at (w, pos + 0x28, cp);
      w_off_at (w, pos + 0x2C, bits);
    }
  w_arrays (w, first, hs);
  w_u32_at (w, pos + 0x18, baked);
}

/* ---- models ------------------------------------------------------------------ */

void
tress_bfres_builder_begin_model (TressBfresBuilder *b, const char *name)
{
  BModel *m = g_new0 (BModel, 1);

  m->name = g_strdup (name);
  m->bones = g_array_new (FALSE, TRUE, sizeof (TressBfresBuilderBone));
  g_array_set_clear_func (m->bones, bbone_clear);
  m->materials = g_ptr_array_new_with_free_func (g_free);
  m->shapes = g_ptr_array_new_with_free_func (bshape_free);
  g_ptr_array_add (b->models, m);
}

static BModel *
cur_model (TressBfresBuilder *b)
{
  g_assert (b->models->len > 0);
  return g_ptr_array_index (b->models, b->models->len - 1);
}

void
tress_bfres_builder_add_model_bone (TressBfresBuilder *b, const TressBfresBuilderBone *bone)
{
  BModel *m = cur_model (b);
  TressBfresBuilderBone copy = *bone;

  g_return_if_fail (bone->parent < (int)m->bones->len);
  copy.name = g_strdup (bone->name);
  g_array_append_val (m->bones, copy);
}

void
tress_bfres_builder_add_model_material (TressBfresBuilder *b, const char *name)
{
  g_ptr_array_add (cur_model (b)->materials, g_strdup (name));
}

void
tress_bfres_builder_add_shape (TressBfresBuilder *b, const TressBfresBuilderShape *shape)
{
  BModel *m = cur_model (b);
  BShape *s = g_new0 (BShape, 1);
  guint n = shape->n_vertices;

  g_return_if_fail (shape->skin_count <= 4 && shape->material < m->materials->len);
  s->name = g_strdup (shape->name);
  s->material = shape->material;
  s->n_vertices = n;
  s->positions = g_memdup2 (shape->positions, 3 * sizeof (float) * n);
  s->normals = shape->normals != NULL ? g_memdup2 (shape->normals, 3 * sizeof (float) * n) : NULL;
  s->skin_count = shape->skin_count;
  s->bone = shape->bone;
  if (shape->skin_count > 0)
    {
      s->skin_bones = g_memdup2 (shape->skin_bones, shape->skin_count * (gsize)n);
      s->skin_weights = g_memdup2 (shape->skin_weights, sizeof (float) * shape->skin_count * n);
    }
  s->n_triangles = shape->n_triangles;
  s->triangles = g_memdup2 (shape->triangles, 3 * sizeof (guint32) * shape->n_triangles);
  g_ptr_array_add (m->shapes, s);
}

/* The bind world matrices of @m's bones (column vectors, 3×4). */
static TressBfresMatrix *
bind_world (const BModel *m)
{
  guint n = m->bones->len;
  TressBfresSkeleton sk = { 0 };
  g_autofree TressBfresBone *bones = g_new0 (TressBfresBone, n + 1);
  g_autofree TressBfresSrt *srt = g_new0 (TressBfresSrt, n + 1);
  TressBfresMatrix *world = g_new0 (TressBfresMatrix, n + 1);

  for (guint i = 0; i < n; i++)
    {
      const TressBfresBuilderBone *src = &g_array_index (m->bones, TressBfresBuilderBone, i);

      bones[i].parent = (gint16)src->parent;
      bones[i].rotation_mode = TRESS_BFRES_ROTATION_EULER_XYZ;
      memcpy (bones[i].scale, src->scale, sizeof src->scale);
      memcpy (bones[i].rotation, src->rotation, sizeof src->rotation);
      memcpy (bones[i].translation, src->translation, sizeof src->translation);
    }
  sk.n_bones = n;
  sk.bones = bones;
  tress_bfres_bind_srt (&sk, srt);
  tress_bfres_pose_world (&sk, srt, TRESS_BFRES_SCALING_STANDARD, world);
  return world;
}

static gsize
w_buffer (W *w, gsize at, guint32 size, guint16 stride)
{
  gsize data;

  w_u32_at (w, at + 4, size);
  w_u16_at (w, at + 0x0C, stride);
  w_u16_at (w, at + 0x0E, 1);
  w_align (w);
  data = w_reserve (w, size);
  w_off_at (w, at + 0x14, data);
  return data;
}

static guint32
pack_normal (const float *n)
{
  guint32 v = 0;

  for (guint k = 0; k < 3; k++)
    {
      int q = (int)lrintf (CLAMP (n[k], -1.f, 1.f) * 511);

      v |= ((guint32)q & 0x3FF) << (10 * k);
    }
  return v;
}

static void
w_fvtx (W *w, gsize pos, guint index, const BShape *s)
{
  guint n_attribs = s->skin_count > 0 ? 4 : 2, n_buffers = s->skin_count > 0 ? 3 : 2;
  gsize attribs, buffers, data;
  static const char *const names[] = { "_p0", "_n0", "_i0", "_w0" };
  static const guint32 formats[] = { 0x811, 0x20B, 0x10A, 0x00A };
  static const guint8 buffer_of[] = { 0, 1, 2, 2 };
  static const guint16 offset_of[] = { 0, 0, 0, 4 };

  memcpy (w->buf->data + pos, "FVTX", 4);
  w_u8_at (w, pos + 4, (guint8)n_attribs);
  w_u8_at (w, pos + 5, (guint8)n_buffers);
  w_u16_at (w, pos + 6, (guint16)index);
  w_u32_at (w, pos + 8, s->n_vertices);
  w_u8_at (w, pos + 0x0C, (guint8)s->skin_count);
  w_align (w);
  attribs = w_reserve (w, 0x0C * (gsize)n_attribs);
  for (guint a = 0; a < n_attribs; a++)
    {
      w_str_at (w, attribs + 0x0C * a, names[a]);
      w_u8_at (w, attribs + 0x0C * a + 4, buffer_of[a]);
      w_u16_at (w, attribs + 0x0C * a + 6, offset_of[a]);
      w_u32_at (w, attribs + 0x0C * a + 8, formats[a]);
    }
  w_off_at (w, pos + 0x10, attribs);
  buffers = w_reserve (w, 0x18 * (gsize)n_buffers);
  w_off_at (w, pos + 0x18, buffers);
  data = w_buffer (w, buffers, 12 * s->n_vertices, 12);
  for (guint v = 0; v < 3 * s->n_vertices; v++)
    w_f32_at (w, data + 4 * (gsize)v, s->positions[v]);
  data = w_buffer (w, buffers + 0x18, 4 * s->n_vertices, 4);
  for (guint v = 0; v < s->n_vertices; v++)
    {
      static const float up[3] = { 0, 1, 0 };

      w_u32_at (w, data + 4 * (gsize)v, pack_normal (s->normals ? s->normals + 3 * v : up));
    }
  if (s->skin_count == 0)
    return;
  data = w_buffer (w, buffers + 0x30, 8 * s->n_vertices, 8);
  for (guint v = 0; v < s->n_vertices; v++)
    {
      guint8 q[4] = { 0, 0, 0, 0 };
      int sum = 0, top = 0;

      for (guint k = 0; k < s->skin_count; k++)
        {
          w_u8_at (w, data + 8 * (gsize)v + k, s->skin_bones[s->skin_count * v + k]);
          q[k] = (guint8)lrintf (CLAMP (s->skin_weights[s->skin_count * v + k], 0.f, 1.f) * 255);
          sum += q[k];
          if (q[k] > q[top])
            top = (int)k;
        }
      /* The quantized weights still sum to one. */
      q[top] = (guint8)CLAMP (q[top] + 255 - sum, 0, 255);
      for (guint k = 0; k < 4; k++)
        w_u8_at (w, data + 8 * (gsize)v + 4 + k, q[k]);
    }
}

/* The box around @s's vertices: its centre and half extent. */
static void
shape_box (const BShape *s, float centre[3], float extent[3])
{
  float lo[3] = { 0, 0, 0 }, hi[3] = { 0, 0, 0 };

  for (guint v = 0; v < s->n_vertices; v++)
    for (guint k = 0; k < 3; k++)
      {
        float p = s->positions[3 * (gsize)v + k];

        lo[k] = v == 0 ? p : MIN (lo[k], p);
        hi[k] = v == 0 ? p : MAX (hi[k], p);
      }
  for (guint k = 0; k < 3; k++)
    {
      centre[k] = (lo[k] + hi[k]) / 2;
      extent[k] = (hi[k] - lo[k]) / 2;
    }
}

/* The shape's sub-mesh boundings at FSHP 0x30, as real files have them for
 * culling: the box for the mesh and for its sub-mesh from version 4.5 on,
 * else for the mesh, the sub-mesh and once more (the count readers take when
 * the FSHP gives none). */
static void
w_boundings (W *w, TressBfresBuilder *b, gsize pos, const float centre[3], const float extent[3])
{
  guint n = b->version >= 0x04050000 ? 2 : 3;
  gsize at;

  w_align (w);
  at = w_reserve (w, 24 * (gsize)n);
  for (guint i = 0; i < n; i++)
    for (guint k = 0; k < 3; k++)
      {
        w_f32_at (w, at + 24 * (gsize)i + 4 * k, centre[k]);
        w_f32_at (w, at + 24 * (gsize)i + 12 + 4 * k, extent[k]);
      }
  w_off_at (w, pos + 0x30, at);
}

static void
w_fshp (W *w, TressBfresBuilder *b, gsize pos, guint index, const BShape *s, gsize fvtx)
{
  gboolean wide = s->n_vertices > 65536;
  gsize mesh, sub, buf, data, bones;
  guint n_indices = 3 * s->n_triangles;
  g_autofree guint8 *used = g_new0 (guint8, 256);
  guint n_used = 0;
  float centre[3], extent[3], radius;

  /* The radius of the sphere around the box. */
  shape_box (s, centre, extent);
  radius = sqrtf (extent[0] * extent[0] + extent[1] * extent[1] + extent[2] * extent[2]);
  memcpy (w->buf->data + pos, "FSHP", 4);
  w_str_at (w, pos + 4, s->name);
  w_u32_at (w, pos + 8, 2);
  w_u16_at (w, pos + 0x0C, (guint16)index);
  w_u16_at (w, pos + 0x0E, (guint16)s->material);
  w_u16_at (w, pos + 0x10, (guint16)s->bone);
  w_u16_at (w, pos + 0x12, (guint16)index);
  w_u8_at (w, pos + 0x16, (guint8)s->skin_count);
  w_u8_at (w, pos + 0x17, 1);
  if (b->version >= 0x04050000)
    {
      gsize at = w_reserve (w, 4);

      w_f32_at (w, at, radius);
      w_off_at (w, pos + 0x1C, at);
    }
  else
    w_f32_at (w, pos + 0x1C, radius);
  w_off_at (w, pos + 0x20, fvtx);
  w_align (w);
  mesh = w_reserve (w, 0x1C);
  w_off_at (w, pos + 0x24, mesh);
  for (guint v = 0; v < s->skin_count * s->n_vertices; v++)
    if (!used[s->skin_bones[v]])
      {
        used[s->skin_bones[v]] = 1;
        n_used++;
      }
  if (n_used > 0)
    {
      guint k = 0;

      bones = w_u16_array (w, n_used, 0);
      for (guint i = 0; i < 256; i++)
        if (used[i])
          w_u16_at (w, bones + 2 * (gsize)k++, (guint16)i);
      w_off_at (w, pos + 0x28, bones);
      w_u16_at (w, pos + 0x14, (guint16)n_used);
    }
  else
    {
      /* A rigid shape: an empty list, not a null one, as real files have. */
      w_align (w);
      w_off_at (w, pos + 0x28, w_reserve (w, 4));
    }
  w_boundings (w, b, pos, centre, extent);
  w_u32_at (w, mesh, 4); /* triangles */
  w_u32_at (w, mesh + 4, wide ? 9 : 4);
  w_u32_at (w, mesh + 8, n_indices);
  w_u16_at (w, mesh + 0x0C, 1);
  sub = w_reserve (w, 8);
  w_u32_at (w, sub + 4, n_indices);
  w_off_at (w, mesh + 0x10, sub);
  buf = w_reserve (w, 0x18);
  w_off_at (w, mesh + 0x14, buf);
  data = w_buffer (w, buf, (guint32)(n_indices * (wide ? 4 : 2)), 0);
  for (guint i = 0; i < n_indices; i++)
    if (wide)
      w_u32_at (w, data + 4 * (gsize)i, s->triangles[i]);
    else
      w_u16_at (w, data + 2 * (gsize)i, (guint16)s->triangles[i]);
}

static void
w_fmdl (W *w, TressBfresBuilder *b, gsize pos, const BModel *m)
{
  guint nb = m->bones->len, ns = m->shapes->len, nm = m->materials->len;
  g_autofree TressBfresMatrix *world = bind_world (m);
  g_autofree char **bone_names = g_new0 (char *, nb + 1);
  gsize fskl, bones, m2b, inv, fvtx = 0, group;
  guint32 total = 0;

  memcpy (w->buf->data + pos, "FMDL", 4);
  w_str_at (w, pos + 4, m->name);
  w_str_at (w, pos + 8, "");
  w_align (w);
  fskl = w_reserve (w, 0x24);
  w_off_at (w, pos + 0x0C, fskl);
  memcpy (w->buf->data + fskl, "FSKL", 4);
  w_u32_at (w, fskl + 4, 1u << 8 | 1u << 12);
  w_u16_at (w, fskl + 8, (guint16)nb);
  w_u16_at (w, fskl + 0x0A, (guint16)nb);
  bones = w_reserve (w, 0x40 * (gsize)nb);
  w_off_at (w, fskl + 0x14, bones);
  for (guint i = 0; i < nb; i++)
    {
      const TressBfresBuilderBone *src = &g_array_index (m->bones, TressBfresBuilderBone, i);
      gsize bp = bones + 0x40 * (gsize)i;

      bone_names[i] = (char *)src->name;
      w_str_at (w, bp, src->name);
      w_u16_at (w, bp + 4, (guint16)i);
      w_u16_at (w, bp + 6, (guint16)(gint16)src->parent);
      w_u16_at (w, bp + 8, (guint16)i);
      w_u16_at (w, bp + 0x0A, 0xFFFF);
      w_u16_at (w, bp + 0x0C, 0xFFFF);
      w_u32_at (w, bp + 0x10, 1u | 1u << 12);
      for (guint k = 0; k < 3; k++)
        {
          w_f32_at (w, bp + 0x14 + 4 * k, src->scale[k]);
          w_f32_at (w, bp + 0x20 + 4 * k, src->rotation[k]);
          w_f32_at (w, bp + 0x30 + 4 * k, src->translation[k]);
        }
      w_f32_at (w, bp + 0x2C, 1);
    }
  if (nb > 0)
    {
      group = w_group (w, bone_names, nb);
      w_off_at (w, fskl + 0x10, group - 12 - 16 - 8);
      for (guint i = 0; i < nb; i++)
        w_off_at (w, group + 16 * (gsize)i, bones + 0x40 * (gsize)i);
    }
  m2b = w_u16_array (w, nb, 0);
  for (guint i = 0; i < nb; i++)
    w_u16_at (w, m2b + 2 * (gsize)i, (guint16)i);
  w_off_at (w, fskl + 0x18, m2b);
  inv = w_reserve (w, 48 * (gsize)nb);
  w_off_at (w, fskl + 0x1C, inv);
  for (guint i = 0; i < nb; i++)
    {
      TressBfresMatrix im;

      tress_bfres_matrix_invert (&world[i], &im);
      for (guint r = 0; r < 3; r++)
        for (guint c = 0; c < 4; c++)
          w_f32_at (w, inv + 48 * (gsize)i + 16 * r + 4 * c, (float)im.m[r][c]);
    }

  if (ns > 0)
    {
      g_autofree char **names = g_new0 (char *, ns + 1);
      gsize shapes;

      w_align (w);
      fvtx = w_reserve (w, 0x20 * (gsize)ns);
      w_off_at (w, pos + 0x10, fvtx);
      for (guint i = 0; i < ns; i++)
        {
          const BShape *s = g_ptr_array_index (m->shapes, i);

          names[i] = s->name;
          w_fvtx (w, fvtx + 0x20 * (gsize)i, i, s);
          total += s->n_vertices;
        }
      w_align (w);
      shapes = w_reserve (w, 0x38 * (gsize)ns);
      for (guint i = 0; i < ns; i++)
        w_fshp (w, b, shapes + 0x38 * (gsize)i, i, g_ptr_array_index (m->shapes, i),
                fvtx + 0x20 * (gsize)i);
      group = w_group (w, names, ns);
      w_off_at (w, pos + 0x14, group - 12 - 16 - 8);
      for (guint i = 0; i < ns; i++)
        w_off_at (w, group + 16 * (gsize)i, shapes + 0x38 * (gsize)i);
    }
  if (nm > 0)
    {
      gsize stubs;

      /* Materials as names: each a whole FMAT header (0x4C: magic, name,
       * u32 flags (visible), u16 index, every count 0, then 11 offsets and
       * a user pointer, all null), so readers that walk the render info,
       * render state, shader assign, samplers and parameters find none. */
      w_align (w);
      stubs = w_reserve (w, FMAT_SIZE * (gsize)nm);
      for (guint i = 0; i < nm; i++)
        {
          gsize at = stubs + FMAT_SIZE * (gsize)i;

          memcpy (w->buf->data + at, "FMAT", 4);
          w_str_at (w, at + 4, g_ptr_array_index (m->materials, i));
          w_u32_at (w, at + 8, 1);
          w_u16_at (w, at + 0x0C, (guint16)i);
        }
      group = w_group (w, (char **)m->materials->pdata, nm);
      w_off_at (w, pos + 0x18, group - 12 - 16 - 8);
      for (guint i = 0; i < nm; i++)
        w_off_at (w, group + 16 * (gsize)i, stubs + FMAT_SIZE * (gsize)i);
    }
  w_u16_at (w, pos + 0x20, (guint16)ns);
  w_u16_at (w, pos + 0x22, (guint16)ns);
  w_u16_at (w, pos + 0x24, (guint16)nm);
  w_u32_at (w, pos + 0x28, total);
}

static void
w_models (W *w, TressBfresBuilder *b)
{
  g_autofree char **names = g_new0 (char *, b->models->len + 1);
  gsize data;

  for (guint i = 0; i < b->models->len; i++)
    names[i] = ((BModel *)g_ptr_array_index (b->models, i))->name;
  data = w_group (w, names, b->models->len);
  w_off_at (w, 0x20, data - 12 - 16 - 8);
  w_u16_at (w, 0x50, (guint16)b->models->len);
  for (guint i = 0; i < b->models->len; i++)
    {
      gsize pos;

      w_align (w);
      pos = w_reserve (w, 0x30);
      w_off_at (w, data + 16 * (gsize)i, pos);
      w_fmdl (w, b, pos, g_ptr_array_index (b->models, i));
    }
}

/* A point on the unit circle around @dir at angle @a: u·cos a + v·sin a. */
static void
ring_basis (const double dir[3], double u[3], double v[3])
{
  double ref[3] = { 0, 1, 0 }, len;

  if (fabs (dir[1]) > 0.9)
    ref[0] = 1, ref[1] = 0;
  u[0] = dir[1] * ref[2] - dir[2] * ref[1];
  u[1] = dir[2] * ref[0] - dir[0] * ref[2];
  u[2] = dir[0] * ref[1] - dir[1] * ref[0];
  len = sqrt (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  for (guint k = 0; k < 3; k++)
    u[k] /= len;
  v[0] = dir[1] * u[2] - dir[2] * u[1];
  v[1] = dir[2] * u[0] - dir[0] * u[2];
  v[2] = dir[0] * u[1] - dir[1] * u[0];
}

void
tress_bfres_builder_add_test_model (TressBfresBuilder *b, const char *name, guint n_bones,
                                    guint n_vertices)
{
  const guint n_limbs = 5, ring = 8;
  guint segments = MAX (n_bones, 2) - 1, rings, n_v, n_t, v = 0, t = 0;
  g_autofree TressBfresMatrix *world = NULL;
  g_autofree float *pos = NULL, *nrm = NULL, *weights = NULL;
  g_autofree guint8 *joints = NULL;
  g_autofree guint32 *tris = NULL;
  TressBfresBuilderShape shape = { 0 };
  BModel *m;

  n_bones = segments + 1;
  tress_bfres_builder_begin_model (b, name);
  m = cur_model (b);
  tress_bfres_builder_add_model_material (b, "Mt_Body");
  for (guint i = 0; i < n_bones; i++)
    {
      TressBfresBuilderBone bone = { 0 };
      g_autofree char *bone_name = i == 0 ? g_strdup ("Root") : g_strdup_printf ("Bone_%03u", i);
      guint limb = (i - 1) % n_limbs;

      bone.name = bone_name;
      bone.scale[0] = bone.scale[1] = bone.scale[2] = 1;
      /* Limbs fan out from the root; each bone continues its limb. */
      bone.parent = i == 0 ? -1 : i <= n_limbs ? 0 : (int)(i - n_limbs);
      if (i > 0 && i <= n_limbs)
        {
          bone.rotation[2] = (float)(2 * G_PI * limb / n_limbs);
          bone.translation[0] = 0.1f;
        }
      else if (i > 0)
        {
          bone.rotation[1] = 0.08f * (float)(limb + 1);
          bone.rotation[2] = 0.05f;
          bone.translation[0] = 0.2f;
        }
      tress_bfres_builder_add_model_bone (b, &bone);
    }
  world = bind_world (m);
  rings = MAX (2u, (n_vertices + segments * ring - 1) / (segments * ring));
  n_v = segments * rings * ring;
  n_t = segments * (rings - 1) * ring * 2;
  pos = g_new (float, 3 * (gsize)n_v);
  nrm = g_new (float, 3 * (gsize)n_v);
  joints = g_new0 (guint8, 4 * (gsize)n_v);
  weights = g_new0 (float, 4 * (gsize)n_v);
  tris = g_new (guint32, 3 * (gsize)n_t);
  for (guint bi = 1; bi < n_bones; bi++)
    {
      const TressBfresBuilderBone *bone = &g_array_index (m->bones, TressBfresBuilderBone, bi);
      guint parent = (guint)bone->parent;
      int grand = g_array_index (m->bones, TressBfresBuilderBone, parent).parent;
      double a[3], c[3], dir[3], u[3], w[3], len = 0;
      guint first = v;

      for (guint k = 0; k < 3; k++)
        {
          a[k] = world[parent].m[k][3];
          c[k] = world[bi].m[k][3];
          dir[k] = c[k] - a[k];
          len += dir[k] * dir[k];
        }
      len = sqrt (len);
      for (guint k = 0; k < 3; k++)
        dir[k] /= len > 0 ? len : 1;
      ring_basis (dir, u, w);
      for (guint r = 0; r < rings; r++)
        {
          double f = (double)r / (rings - 1);

          for (guint q = 0; q < ring; q++)
            {
              double ang = 2 * G_PI * q / ring, radius = 0.04;

              for (guint k = 0; k < 3; k++)
                {
                  double n = u[k] * cos (ang) + w[k] * sin (ang);

                  pos[3 * v + k] = (float)(a[k] + dir[k] * len * f + n * radius);
                  nrm[3 * v + k] = (float)n;
                }
              joints[4 * v] = (guint8)bi;
              joints[4 * v + 1] = (guint8)parent;
              joints[4 * v + 2] = (guint8)(grand >= 0 ? grand : 0);
              joints[4 * v + 3] = 0;
              weights[4 * v] = (float)(0.1 + 0.6 * f);
              weights[4 * v + 1] = (float)(0.1 + 0.6 * (1 - f));
              weights[4 * v + 2] = 0.1f;
              weights[4 * v + 3] = 0.1f;
              v++;
            }
        }
      for (guint r = 0; r + 1 < rings; r++)
        for (guint q = 0; q < ring; q++)
          {
            guint i0 = first + r * ring + q, i1 = first + r * ring + (q + 1) % ring;
            guint j0 = i0 + ring, j1 = i1 + ring;

            tris[3 * t] = i0, tris[3 * t + 1] = i1, tris[3 * t + 2] = j1;
            t++;
            tris[3 * t] = i0, tris[3 * t + 1] = j1, tris[3 * t + 2] = j0;
            t++;
          }
    }
  shape.name = "Body";
  shape.n_vertices = n_v;
  shape.positions = pos;
  shape.normals = nrm;
  shape.skin_count = 4;
  shape.skin_bones = joints;
  shape.skin_weights = weights;
  shape.n_triangles = n_t;
  shape.triangles = tris;
  tress_bfres_builder_add_shape (b, &shape);
}

static int
strcmp_bytes (gconstpointer a, gconstpointer b)
{
  const char *x = *(const char *const *)a, *y = *(const char *const *)b;
  if (*x == '\0' || *y == '\0')
    return (*x == '\0') - (*y == '\0'); /* the empty string sorts last */
  return strcmp (x, y);
}

static TressInterp
interp_of (TressBfresCurveType ct)
{
  switch (ct)
    {
    case TRESS_BFRES_CURVE_CUBIC:
      return TRESS_INTERP_HERMITE;
    case TRESS_BFRES_CURVE_LINEAR:
      return TRESS_INTERP_LINEAR;
    case TRESS_BFRES_CURVE_STEP_INT:
    case TRESS_BFRES_CURVE_STEP_BOOL:
      return TRESS_INTERP_STEP;
    default:
      return TRESS_INTERP_BAKED;
    }
}

GBytes *
tress_bfres_builder_finish (TressBfresBuilder *b, GError **error)
{
  W w = { 0 };
  gsize hs = b->version >= BFRES_V3_4 ? 0x24 : 0x20;
  g_autoptr (GBytes) raw = NULL;
  g_autoptr (TressBfres) model = NULL;
  g_autoptr (GHashTable) by_pos = NULL;
  GBytes *result = NULL;

  w.buf = g_byte_array_new ();
  w.fix_strings = g_ptr_array_new ();
  w.fix_pos = g_array_new (FALSE, FALSE, sizeof (gsize));
  w.curve_pos = g_array_new (FALSE, FALSE, sizeof (gsize));
  w.curve_src = g_ptr_array_new ();

  w_reserve (&w, BFRES_HEADER_SIZE);
  memcpy (w.buf->data, "FRES", 4);
  w_u32_at (&w, 4, b->version);
  w_u16_at (&w, 8, 0xFEFF);
  w_u16_at (&w, 0x0A, 0x0010);
  w_u32_at (&w, 0x10, 0x2000);
  w_str_at (&w, 0x14, b->name);

  if (b->models->len > 0)
    w_models (&w, b);
  for (int g = 2; g <= 8; g++)
    {
      g_autoptr (GPtrArray) names = g_ptr_array_new ();
      g_autoptr (GPtrArray) anims = g_ptr_array_new ();
      gsize data;

      for (guint i = 0; i < b->anims->len; i++)
        {
          BAnim *a = g_ptr_array_index (b->anims, i);
          if ((int)a->kind == g)
            {
              g_ptr_array_add (names, a->name);
              g_ptr_array_add (anims, a);
            }
        }
      if (names->len == 0)
        continue;
      data = w_group (&w, (char **)names->pdata, names->len);
      w_off_at (&w, 0x20 + 4 * g, data - 12 - 16 - 8);
      w_u16_at (&w, 0x50 + 2 * g, (guint16)names->len);
      for (guint i = 0; i < anims->len; i++)
        {
          BAnim *a = g_ptr_array_index (anims, i);
          gsize pos;
          w_align (&w);
          pos = w_reserve (&w, g == 2 ? 0x30 : g == 6 ? 0x38 : 0x34);
          w_off_at (&w, data + 16 * (gsize)i, pos);
          if (g == 2)
            w_fska (&w, b, a, pos, hs);
          else if (g <= 5)
            w_fshu (&w, a, pos, hs, b->version >= BFRES_V3_4);
          else if (g == 6)
            w_ftxp (&w, a, pos, hs, b->version >= BFRES_V3_4);
          else
            w_fvis (&w, a, pos, hs);
        }
    }

  /* String pool: sorted by bytes, the empty string last. */
  {
    g_autoptr (GPtrArray) uniq = g_ptr_array_new ();
    g_autoptr (GHashTable) where = g_hash_table_new (g_str_hash, g_str_equal);
    gsize pool;

    g_ptr_array_add (uniq, (gpointer) "");
    g_hash_table_add (where, (gpointer) "");
    for (guint i = 0; i < w.fix_strings->len; i++)
      {
        const char *s = g_ptr_array_index (w.fix_strings, i);
        if (!g_hash_table_contains (where, s))
          {
            g_hash_table_add (where, (gpointer)s);
            g_ptr_array_add (uniq, (gpointer)s);
          }
      }
    g_ptr_array_sort (uniq, strcmp_bytes);
    w_align (&w);
    pool = w_tell (&w);
    for (guint i = 0; i < uniq->len; i++)
      {
        const char *s = g_ptr_array_index (uniq, i);
        gsize len = strlen (s), at = w_reserve (&w, 4 + ((len + 1 + 3) & ~(gsize)3));
        w_u32_at (&w, at, (guint32)len);
        memcpy (w.buf->data + at + 4, s, len);
        g_hash_table_insert (where, (gpointer)s, GSIZE_TO_POINTER (at + 4));
      }
    for (guint i = 0; i < w.fix_strings->len; i++)
      w_off_at (
          &w, g_array_index (w.fix_pos, gsize, i),
          GPOINTER_TO_SIZE (g_hash_table_lookup (where, g_ptr_array_index (w.fix_strings, i))));
    w_u32_at (&w, 0x18, (guint32)(w_tell (&w) - pool));
    w_off_at (&w, 0x1C, pool);
  }
  w_u32_at (&w, 0x0C, w.buf->len);

  /* Fill every curve through the encoder, in the requested types exactly. */
  raw = g_bytes_new (w.buf->data, w.buf->len);
  model = tress_bfres_parse (raw, b->name, error);
  if (model == NULL)
    {
      g_prefix_error (error, "The builder made an unreadable file: ");
      goto out;
    }
  model->tolerance = G_MAXDOUBLE;
  by_pos = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < model->curves->len; i++)
    g_hash_table_insert (by_pos, GSIZE_TO_POINTER (bfres_curve (model, i)->pos),
                         GUINT_TO_POINTER (i + 1));
  for (guint i = 0; i < w.curve_pos->len; i++)
    {
      const BCurve *c = g_ptr_array_index (w.curve_src, i);
      guint idx = GPOINTER_TO_UINT (
          g_hash_table_lookup (by_pos, GSIZE_TO_POINTER (g_array_index (w.curve_pos, gsize, i))));
      g_autoptr (TressCurve) curve = tress_curve_new ();

      g_assert (idx > 0);
      for (guint k = 0; k < c->spec.n_keys; k++)
        {
          TressKey key = c->keys[k];
          key.interp = interp_of (c->spec.curve_type);
          tress_curve_append_key (curve, &key);
        }
      if (!bfres_set_curve (model, idx - 1, curve, c->spec.curve_type, c->spec.frame_type,
                            c->spec.key_type, NULL, error))
        goto out;
    }
  result = tress_bfres_get_bfres_bytes (model);

out:
  g_byte_array_unref (w.buf);
  g_ptr_array_unref (w.fix_strings);
  g_array_unref (w.fix_pos);
  g_array_unref (w.curve_pos);
  g_ptr_array_unref (w.curve_src);
  return result;
}
