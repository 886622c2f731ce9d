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

#include "tress-bfres-private.h"

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

struct _TressBfresBuilder
{
  char *name;
  guint32 version;
  GPtrArray *anims;
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

TressBfresBuilder *
tress_bfres_builder_new (const char *name, guint32 version)
{
  TressBfresBuilder *b = g_new0 (TressBfresBuilder, 1);
  b->name = g_strdup (name);
  b->version = version;
  b->anims = g_ptr_array_new_with_free_func (banim_free);
  return b;
}

void
tress_bfres_builder_free (TressBfresBuilder *b)
{
  if (b == NULL)
    return;
  g_free (b->name);
  g_ptr_array_unref (b->anims);
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

static int
name_bit (const char *s, guint32 ref)
{
  gsize len = strlen (s), i = ref >> 3;
  return i < len ? ((guint8)s[i] >> (ref & 7)) & 1 : 0;
}

/* Index group with trie bits; returns the position of node 1's data field. */
static gsize
w_group (W *w, char **names, guint n)
{
  gsize pos;
  g_autofree guint32 *bits = g_new (guint32, (gsize)n + 1);
  g_autofree guint16 *left = g_new0 (guint16, (gsize)n + 1);
  g_autofree guint16 *right = g_new0 (guint16, (gsize)n + 1);

  bits[0] = G_MAXUINT32;
  for (guint k = 1; k <= n; k++)
    {
      const char *name = names[k - 1], *found;
      guint32 prev = G_MAXUINT32, crit = G_MAXUINT32, idx = left[0], parent = 0;
      int dir = 0;
      gsize maxlen;

      while (bits[idx] < prev)
        {
          prev = bits[idx];
          idx = name_bit (name, prev) ? right[idx] : left[idx];
        }
      found = idx == 0 ? "" : names[idx - 1];
      maxlen = MAX (strlen (name), strlen (found));
      for (gsize i = maxlen * 8; i-- > 0;)
        if (name_bit (name, (guint32)i) != name_bit (found, (guint32)i))
          {
            crit = (guint32)i;
            break;
          }
      /* Walk down again to where bits drop below crit. */
      prev = G_MAXUINT32;
      idx = left[0];
      while (bits[idx] < prev && bits[idx] > crit)
        {
          parent = idx;
          prev = bits[idx];
          dir = name_bit (name, prev);
          idx = dir ? right[idx] : left[idx];
        }
      bits[k] = crit;
      if (name_bit (name, crit))
        right[k] = k, left[k] = idx;
      else
        left[k] = k, right[k] = idx;
      if (parent == 0)
        left[0] = k;
      else if (dir)
        right[parent] = k;
      else
        left[parent] = k;
    }

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
      if (bfres_curve_type_is_float (c->spec.curve_type))
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

/* ---- the demo ---------------------------------------------------------------- */

static void
add_wave (TressBfresBuilder *b, guint32 target, double amplitude, double phase, int frames)
{
  TressKey keys[5];
  TressBfresBuilderCurve c = { 0 };

  for (int i = 0; i < 5; i++)
    {
      double f = frames * i / 4.0, w = 2 * G_PI / frames;
      keys[i] = (TressKey){ 0 };
      keys[i].frame = f;
      keys[i].value = amplitude * sin (w * f + phase);
      keys[i].in_slope = keys[i].out_slope = amplitude * w * cos (w * f + phase);
    }
  c.curve_type = TRESS_BFRES_CURVE_CUBIC;
  c.frame_type = TRESS_BFRES_FRAME_U8;
  c.key_type = TRESS_BFRES_KEY_S16;
  c.target_offset = target;
  c.n_keys = 5;
  c.keys = keys;
  c.pre_wrap = c.post_wrap = TRESS_WRAP_REPEAT;
  tress_bfres_builder_add_curve (b, &c);
}

GBytes *
tress_bfres_build_demo (GError **error)
{
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("Demo", 0x03040004);
  TressBfresBuilderCurve c = { 0 };
  TressKey vis[4] = { { .frame = 0, .value = 1 },
                      { .frame = 50, .value = 0 },
                      { .frame = 54, .value = 1 },
                      { .frame = 60, .value = 1 } };
  TressKey pat[4] = { { .frame = 0, .value = 0 },
                      { .frame = 48, .value = 1 },
                      { .frame = 51, .value = 2 },
                      { .frame = 54, .value = 0 } };

  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_SKELETAL, "Wave", 60, TRUE);
  tress_bfres_builder_add_bone (b, "Root");
  add_wave (b, 0x14, 0.5, 0, 60);
  tress_bfres_builder_add_bone (b, "Arm_L");
  add_wave (b, 0x28, 1.2, 0, 60);
  add_wave (b, 0x20, 0.3, G_PI / 2, 60);
  tress_bfres_builder_add_bone (b, "Arm_R");
  add_wave (b, 0x28, -1.2, 0, 60);
  add_wave (b, 0x20, 0.3, -G_PI / 2, 60);
  tress_bfres_builder_add_bone (b, "Head");
  add_wave (b, 0x24, 0.4, G_PI / 4, 60);

  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_BONE_VISIBILITY, "Blink", 60, TRUE);
  c.curve_type = TRESS_BFRES_CURVE_STEP_BOOL;
  c.frame_type = TRESS_BFRES_FRAME_U8;
  c.key_type = TRESS_BFRES_KEY_S8;
  c.name = "Eyelid";
  c.n_keys = 4;
  c.keys = vis;
  tress_bfres_builder_add_curve (b, &c);

  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_TEX_PATTERN, "Eyes", 60, TRUE);
  tress_bfres_builder_add_texture (b, "Eye_Open");
  tress_bfres_builder_add_texture (b, "Eye_Half");
  tress_bfres_builder_add_texture (b, "Eye_Closed");
  tress_bfres_builder_add_material (b, "Face");
  c.curve_type = TRESS_BFRES_CURVE_STEP_INT;
  c.name = "_a0";
  c.keys = pat;
  tress_bfres_builder_add_curve (b, &c);

  return tress_bfres_builder_finish (b, error);
}
