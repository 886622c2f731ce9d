/* tress-bfres-parse.c: containers, header, index groups, animations and curves
 *
 * Every offset is checked against the data before use; a curve header or array
 * that does not fit is an error naming the field and its byte offset.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-bfres-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "core/tress-progress.h"
#include "core/tress-yaz0.h"

#define BFRES_MAX_LAYERS 4

/* Budgets: what a corrupted file (tables shared, overlapping or repeated,
 * offsets into the wrong bytes) may cost before it gets an error naming the
 * field, its offset and the budget, instead of memory and time without bound.
 *
 * The model's memory beyond the file's own bytes: every name copied, curve
 * (with its path), animation, index-group entry, recorded table and visited
 * offset draws on twice the file and 64 KiB. Real files use a small part
 * (Animal_Dog_Animation.bfres: about 0.6 MB of 4.9 MB), so that the whole of
 * a parse and validate stays under four times the file. */
#define BFRES_MODEL_BUDGET(size) (2 * (gsize)(size) + 65536)
/* The key and frame bytes the curves read, arrays shared by several curves
 * counting each time: what validate, dump and the editor decode, so their
 * time stays linear in the file. */
#define BFRES_ARRAY_BUDGET(size) (4 * (gsize)(size) + 65536)
/* A name longer than this (a corrupted offset reaching into other data) is
 * kept cut to it, with a note; the file's bytes stay as they are. */
#define BFRES_NAME_MAX 1024
/* What one allocation costs beyond its bytes (malloc's header, rounding). */
#define BFRES_ALLOC_OVERHEAD 16

/* ---- byte access ---------------------------------------------------------- */

guint8 *
bfres_writable (TressBfres *b)
{
  if (b->data == NULL || g_atomic_pointer_get (&b->loan) != NULL)
    {
      GByteArray *copy = g_byte_array_sized_new (b->size + b->size / 8 + 64);

      g_byte_array_append (copy, b->d, b->size);
      bfres_end_loan (b);
      g_clear_pointer (&b->data, g_byte_array_unref);
      b->data = copy;
      bfres_sync (b);
    }
  return b->data->data;
}

void
bfres_put_u16 (TressBfres *b, gsize pos, guint16 v)
{
  tress_put_u16 (bfres_writable (b) + pos, v, TRESS_BIG_ENDIAN);
}

void
bfres_put_u32 (TressBfres *b, gsize pos, guint32 v)
{
  tress_put_u32 (bfres_writable (b) + pos, v, TRESS_BIG_ENDIAN);
}

void
bfres_put_f32 (TressBfres *b, gsize pos, float v)
{
  tress_put_f32 (bfres_writable (b) + pos, v, TRESS_BIG_ENDIAN);
}

/* ---- curve type helpers --------------------------------------------------- */

gboolean
bfres_curve_type_is_float (TressBfresCurveType t)
{
  return t <= TRESS_BFRES_CURVE_BAKED_FLOAT;
}

gboolean
bfres_curve_type_is_bool (TressBfresCurveType t)
{
  return t == TRESS_BFRES_CURVE_STEP_BOOL || t == TRESS_BFRES_CURVE_BAKED_BOOL;
}

guint
bfres_values_per_key (TressBfresCurveType t)
{
  return t == TRESS_BFRES_CURVE_CUBIC ? 4 : t == TRESS_BFRES_CURVE_LINEAR ? 2 : 1;
}

gsize
bfres_frame_size (TressBfresFrameType t)
{
  return t == TRESS_BFRES_FRAME_F32 ? 4 : t == TRESS_BFRES_FRAME_S10_5 ? 2 : 1;
}

gsize
bfres_key_size (TressBfresKeyType t)
{
  return t == TRESS_BFRES_KEY_32 ? 4 : t == TRESS_BFRES_KEY_S16 ? 2 : 1;
}

gsize
bfres_frames_bytes (TressBfresFrameType ft, guint n)
{
  return ((gsize)n * bfres_frame_size (ft) + 3) & ~(gsize)3;
}

gsize
bfres_keys_bytes (TressBfresCurveType ct, TressBfresKeyType kt, guint n)
{
  if (bfres_curve_type_is_bool (ct))
    return ((gsize)n + 31) / 32 * 4;
  return ((gsize)n * bfres_values_per_key (ct) * bfres_key_size (kt) + 3) & ~(gsize)3;
}

guint32
bfres_baked_contribution (TressBfresCurveType ct, TressBfresKeyType kt, float start, float end)
{
  double span = (double)end - (double)start;
  guint32 n = span >= 0 && span < 1e9 ? (guint32)span + 1 : 1;

  if (bfres_curve_type_is_float (ct))
    return 4 * n + 20;
  if (bfres_curve_type_is_bool (ct))
    return 4 * ((n + 31) / 32) + 8;
  return n * (guint32)bfres_key_size (kt) + 8;
}

const char *
tress_bfres_curve_type_to_string (TressBfresCurveType type)
{
  switch (type)
    {
    case TRESS_BFRES_CURVE_CUBIC:
      return "Cubic";
    case TRESS_BFRES_CURVE_LINEAR:
      return "Linear";
    case TRESS_BFRES_CURVE_BAKED_FLOAT:
      return "BakedFloat";
    case TRESS_BFRES_CURVE_STEP_INT:
      return "StepInt";
    case TRESS_BFRES_CURVE_BAKED_INT:
      return "BakedInt";
    case TRESS_BFRES_CURVE_STEP_BOOL:
      return "StepBool";
    case TRESS_BFRES_CURVE_BAKED_BOOL:
      return "BakedBool";
    default:
      return "Unknown";
    }
}

const char *
tress_bfres_frame_type_to_string (TressBfresFrameType type)
{
  switch (type)
    {
    case TRESS_BFRES_FRAME_F32:
      return "f32";
    case TRESS_BFRES_FRAME_S10_5:
      return "s10.5";
    case TRESS_BFRES_FRAME_U8:
      return "u8";
    default:
      return "unknown";
    }
}

const char *
tress_bfres_key_type_to_string (TressBfresKeyType type)
{
  switch (type)
    {
    case TRESS_BFRES_KEY_32:
      return "32-bit";
    case TRESS_BFRES_KEY_S16:
      return "s16";
    case TRESS_BFRES_KEY_S8:
      return "s8";
    default:
      return "unknown";
    }
}

double
bfres_frame_at (const TressBfres *b, const BfresCurve *c, guint i)
{
  const guint8 *p = b->d + c->frames_pos;

  switch (bfres_curve_frame_type (c))
    {
    case TRESS_BFRES_FRAME_F32:
      return bfres_get_f32 (b, c->frames_pos + 4 * (gsize)i);
    case TRESS_BFRES_FRAME_S10_5:
      return (gint16)bfres_get_u16 (b, c->frames_pos + 2 * (gsize)i) / 32.0;
    default:
      return p[i];
    }
}

double
bfres_elem_at (const TressBfres *b, const BfresCurve *c, guint i)
{
  TressBfresCurveType ct = bfres_curve_type (c);
  const guint8 *p = b->d + c->keys_pos;

  if (bfres_curve_type_is_bool (ct))
    return (bfres_get_u32 (b, c->keys_pos + 4 * (gsize)(i >> 5)) >> (i & 31)) & 1;
  switch (bfres_curve_key_type (c))
    {
    case TRESS_BFRES_KEY_32:
      if (bfres_curve_type_is_float (ct))
        return bfres_get_f32 (b, c->keys_pos + 4 * (gsize)i);
      return (gint32)bfres_get_u32 (b, c->keys_pos + 4 * (gsize)i);
    case TRESS_BFRES_KEY_S16:
      return (gint16)bfres_get_u16 (b, c->keys_pos + 2 * (gsize)i);
    default:
      return (gint8)p[i];
    }
}

void
bfres_decode_frames (const TressBfres *b, const BfresCurve *c, double *out)
{
  const guint8 *p = b->d + c->frames_pos;
  guint n = c->n_keys;

  switch (bfres_curve_frame_type (c))
    {
    case TRESS_BFRES_FRAME_F32:
      for (guint i = 0; i < n; i++, p += 4)
        {
          guint32 u = (guint32)p[0] << 24 | (guint32)p[1] << 16 | (guint32)p[2] << 8 | p[3];
          float f;
          memcpy (&f, &u, 4);
          out[i] = f;
        }
      break;
    case TRESS_BFRES_FRAME_S10_5:
      for (guint i = 0; i < n; i++, p += 2)
        out[i] = (gint16)(guint16)(p[0] << 8 | p[1]) / 32.0;
      break;
    default:
      for (guint i = 0; i < n; i++)
        out[i] = p[i];
      break;
    }
}

void
bfres_decode_elems (const TressBfres *b, const BfresCurve *c, double *out)
{
  const guint8 *p = b->d + c->keys_pos;
  TressBfresCurveType ct = bfres_curve_type (c);
  guint n = c->n_keys;

  if (bfres_curve_type_is_bool (ct))
    {
      for (guint i = 0; i < n; i++)
        out[i] = (bfres_get_u32 (b, c->keys_pos + 4 * (gsize)(i >> 5)) >> (i & 31)) & 1;
      return;
    }
  n *= bfres_values_per_key (ct);
  switch (bfres_curve_key_type (c))
    {
    case TRESS_BFRES_KEY_32:
      for (guint i = 0; i < n; i++, p += 4)
        {
          guint32 u = (guint32)p[0] << 24 | (guint32)p[1] << 16 | (guint32)p[2] << 8 | p[3];
          if (bfres_curve_type_is_float (ct))
            {
              float f;
              memcpy (&f, &u, 4);
              out[i] = f;
            }
          else
            out[i] = (gint32)u;
        }
      break;
    case TRESS_BFRES_KEY_S16:
      for (guint i = 0; i < n; i++, p += 2)
        out[i] = (gint16)(guint16)(p[0] << 8 | p[1]);
      break;
    default:
      for (guint i = 0; i < n; i++)
        out[i] = (gint8)p[i];
      break;
    }
}

/* ---- checked reads during parsing ---------------------------------------- */

typedef struct
{
  gsize start, end;
} Span;

typedef struct
{
  TressBfres *b;
  const char *where;  /* the animation being read, for messages */
  GHashTable *seen;   /* sub-file and curve header positions, to catch loops and repeats */
  GString *path;      /* scratch space for building curve paths */
  gsize budget;       /* BFRES_MODEL_BUDGET: bytes the model may still take */
  gsize array_budget; /* BFRES_ARRAY_BUDGET: curve array bytes still allowed */
  GArray *structs;    /* Span: headers, tables and names read (not the curves' arrays) */
  guint8 *curve_seen; /* one bit per byte of the file: a curve header starts there */
  GHashTable *cut;    /* names noted as cut, by offset */
  /* The first components met, as b->strings holds them: the few there are
   * ("X", "Y" …) found without its hash table. */
  const char *components[8];
  guint n_components;
} Ctx;

/* Draws @n bytes of the model's budget for @field at @pos. */
static gboolean
charge (Ctx *ctx, gsize n, gsize pos, const char *field, GError **error)
{
  if (n <= ctx->budget)
    {
      ctx->budget -= n;
      return TRUE;
    }
  g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT,
               "%s%s%s at offset 0x%" G_GSIZE_MODIFIER
               "x: the model of this file would pass its memory budget of %" G_GSIZE_FORMAT
               " bytes (twice the file and 64 KiB, far more than a real file needs): names, "
               "tables or curves shared, overlapping or repeated",
               ctx->where ? ctx->where : "", ctx->where ? ": " : "", field, pos,
               BFRES_MODEL_BUDGET (ctx->b->size));
  return FALSE;
}

/* What the parse has read as structure: a curve array overlapping it must not
 * be rewritten in place. */
static void
claim (Ctx *ctx, gsize pos, gsize n)
{
  Span s = { pos, pos + n };

  if (n > 0)
    {
      g_array_append_val (ctx->structs, s);
      /* Drawn without a check: the next charge() fails when it runs out. */
      ctx->budget -= MIN (ctx->budget, sizeof s);
    }
}

static gboolean
need (Ctx *ctx, gsize pos, gsize n, const char *field, GError **error)
{
  gsize size = ctx->b->size;
  if (pos > size || n > size - pos)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_TRUNCATED,
                   "%s%s%s at offset 0x%" G_GSIZE_MODIFIER "x: expected %" G_GSIZE_FORMAT
                   " bytes, found %" G_GSIZE_FORMAT " before the end of the file",
                   ctx->where ? ctx->where : "", ctx->where ? ": " : "", field, pos, n,
                   pos > size ? (gsize)0 : size - pos);
      return FALSE;
    }
  return TRUE;
}

static gboolean
rd_u32 (Ctx *ctx, gsize pos, const char *field, guint32 *out, GError **error)
{
  if (!need (ctx, pos, 4, field, error))
    return FALSE;
  *out = bfres_get_u32 (ctx->b, pos);
  return TRUE;
}

/* A self-relative offset; *out = 0 for null. */
static gboolean
rd_offset (Ctx *ctx, gsize pos, const char *field, gsize *out, GError **error)
{
  guint32 raw;
  gint64 target;

  if (!rd_u32 (ctx, pos, field, &raw, error))
    return FALSE;
  if (raw == 0)
    {
      *out = 0;
      return TRUE;
    }
  target = (gint64)pos + (gint32)raw;
  if (target <= 0 || target >= (gint64)ctx->b->size)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET,
                   "%s%s%s at offset 0x%" G_GSIZE_MODIFIER
                   "x: expected a target inside the file (%" G_GSIZE_FORMAT
                   " bytes), found %+d → 0x%" G_GINT64_MODIFIER "x",
                   ctx->where ? ctx->where : "", ctx->where ? ": " : "", field, pos, ctx->b->size,
                   (gint32)raw, target);
      return FALSE;
    }
  *out = (gsize)target;
  return TRUE;
}

static gboolean
rd_string (Ctx *ctx, gsize pos, const char *field, char **out, GError **error)
{
  gsize target;
  guint32 len;

  *out = NULL;
  if (!rd_offset (ctx, pos, field, &target, error))
    return FALSE;
  if (target == 0)
    {
      *out = g_strdup ("");
      return TRUE;
    }
  if (target < 4 || !rd_u32 (ctx, target - 4, field, &len, error))
    {
      if (target < 4)
        g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET,
                     "%s at offset 0x%" G_GSIZE_MODIFIER
                     "x: a name cannot start at 0x%" G_GSIZE_MODIFIER "x (its length precedes it)",
                     field, pos, target);
      return FALSE;
    }
  if (!need (ctx, target, len, field, error))
    return FALSE;
  claim (ctx, target - 4, (gsize)len + 4);
  if (len > BFRES_NAME_MAX)
    {
      /* Said once per name, whatever refers to it. */
      if (!g_hash_table_contains (ctx->cut, GSIZE_TO_POINTER (target)))
        {
          char *note = g_strdup_printf ("%s at offset 0x%" G_GSIZE_MODIFIER
                                        "x names %u bytes at 0x%" G_GSIZE_MODIFIER
                                        "x (a damaged offset or length?): they are kept in the "
                                        "file, and shown cut to their first %d",
                                        field, pos, len, target, BFRES_NAME_MAX);

          g_hash_table_add (ctx->cut, GSIZE_TO_POINTER (target));
          g_ptr_array_add (ctx->b->notes, note);
          if (!charge (ctx, strlen (note) + 1 + 3 * sizeof (gpointer) + BFRES_ALLOC_OVERHEAD, pos,
                       field, error))
            return FALSE;
        }
      len = BFRES_NAME_MAX;
    }
  *out = g_utf8_make_valid ((const char *)ctx->b->d + target, len);
  /* Control characters (a name reaching into other data) would break the
   * lines and cells the name is shown in. */
  for (char *c = *out; *c != '\0'; c++)
    if ((guchar)*c < 0x20 || *c == 0x7F)
      *c = '?';
  /* Many references to one name (or to overlapping ones) draw on the budget
   * each time: the copies cannot outgrow the file. */
  return charge (ctx, strlen (*out) + 1 + BFRES_ALLOC_OVERHEAD, pos, field, error);
}

static gboolean
check_magic (Ctx *ctx, gsize pos, const char *magic, const char *field, GError **error)
{
  const guint8 *p;

  if (!need (ctx, pos, 4, field, error))
    return FALSE;
  p = ctx->b->d + pos;
  if (memcmp (p, magic, 4) != 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                   "%s at offset 0x%" G_GSIZE_MODIFIER
                   "x: expected \"%s\", found %02X %02X %02X %02X",
                   field, pos, magic, p[0], p[1], p[2], p[3]);
      return FALSE;
    }
  return TRUE;
}

static gboolean
mark_seen (Ctx *ctx, gsize pos, const char *field, GError **error)
{
  if (g_hash_table_contains (ctx->seen, GSIZE_TO_POINTER (pos)))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET,
                   "%s: offset 0x%" G_GSIZE_MODIFIER
                   "x is reached a second time (an offset loop or a shared structure)",
                   field, pos);
      return FALSE;
    }
  g_hash_table_add (ctx->seen, GSIZE_TO_POINTER (pos));
  /* A hash table node and its share of the buckets. */
  return charge (ctx, 4 * sizeof (gpointer), pos, field, error);
}

/* Index group: names and data offsets of entries 1..n. */
static gboolean
read_group (Ctx *ctx, gsize pos, const char *field, guint max_entries, char ***names_out,
            gsize **data_out, guint *n_out, GError **error)
{
  guint32 byte_size, n;
  g_auto (GStrv) names = NULL;
  g_autofree gsize *data = NULL;

  if (!rd_u32 (ctx, pos, field, &byte_size, error) || !rd_u32 (ctx, pos + 4, field, &n, error))
    return FALSE;
  if (n > max_entries || (gsize)n + 1 > (ctx->b->size - pos) / 16)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT,
                   "%s entry count at offset 0x%" G_GSIZE_MODIFIER
                   "x: %u entries cannot fit in the %" G_GSIZE_FORMAT " bytes left",
                   field, pos + 4, n, (gsize)(ctx->b->size - pos));
      return FALSE;
    }
  if (!need (ctx, pos, 8 + 16 * ((gsize)n + 1), field, error)
      || !charge (ctx, ((gsize)n + 1) * (sizeof (char *) + sizeof (gsize)), pos, field, error))
    return FALSE;
  claim (ctx, pos, 8 + 16 * ((gsize)n + 1));
  names = g_new0 (char *, (gsize)n + 1);
  data = g_new0 (gsize, (gsize)n + 1);
  for (guint i = 1; i <= n; i++)
    {
      gsize node = pos + 8 + 16 * (gsize)i;
      if (!rd_string (ctx, node + 8, "index group entry name", &names[i - 1], error)
          || !rd_offset (ctx, node + 12, "index group entry data", &data[i - 1], error))
        return FALSE;
    }
  *names_out = g_steal_pointer (&names);
  if (data_out)
    *data_out = g_steal_pointer (&data);
  *n_out = n;
  return TRUE;
}

/* ---- curves --------------------------------------------------------------- */

static void
read_curve_fields (TressBfres *b, BfresCurve *c)
{
  gsize hs = b->curve_header_size;
  gint32 fo = (gint32)bfres_get_u32 (b, c->pos + hs - 8);
  gint32 ko = (gint32)bfres_get_u32 (b, c->pos + hs - 4);

  c->flags = bfres_get_u16 (b, c->pos);
  c->n_keys = bfres_get_u16 (b, c->pos + 2);
  c->target = bfres_get_u32 (b, c->pos + 4);
  c->start = bfres_get_f32 (b, c->pos + 8);
  c->end = bfres_get_f32 (b, c->pos + 12);
  c->scale_bits = bfres_get_u32 (b, c->pos + 16);
  c->offset_bits = bfres_get_u32 (b, c->pos + 20);
  c->delta = hs >= 0x24 ? bfres_get_f32 (b, c->pos + 24) : 0.0f;
  c->frames_pos = fo ? (gsize)((gint64)c->pos + hs - 8 + fo) : 0;
  c->keys_pos = ko ? (gsize)((gint64)c->pos + hs - 4 + ko) : 0;
}

void
bfres_curve_reload (TressBfres *b, guint index)
{
  BfresCurve *c = bfres_curve (b, index);
  BfresAnim *a = bfres_anim (b, c->anim);
  read_curve_fields (b, c);
  a->frame_count = a->frame_count_size == 2 ? bfres_get_u16 (b, a->frame_count_pos)
                                            : (gint32)bfres_get_u32 (b, a->frame_count_pos);
}

static gboolean
add_curve (Ctx *ctx, guint anim, gsize pos, const char *path, const char *component, GError **error)
{
  TressBfres *b = ctx->b;
  gsize hs = b->curve_header_size;
  BfresCurve c = { 0 };
  gsize fo, ko;
  TressBfresCurveType ct;

  if (!need (ctx, pos, hs, "curve header", error))
    goto fail;
  /* Each header belongs to one curve: one reached again (tables shared or
   * overlapping) would multiply the curves without bound. */
  if (ctx->curve_seen == NULL)
    ctx->curve_seen = g_malloc0 (b->size / 8 + 1);
  if (ctx->curve_seen[pos / 8] & (1u << (pos % 8)))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET,
                   "%s: curve header: offset 0x%" G_GSIZE_MODIFIER
                   "x is reached a second time (an offset loop or a shared structure)",
                   path, pos);
      goto fail;
    }
  ctx->curve_seen[pos / 8] |= 1u << (pos % 8);
  if (!rd_offset (ctx, pos + hs - 8, "curve frame array", &fo, error)
      || !rd_offset (ctx, pos + hs - 4, "curve key array", &ko, error))
    goto fail;
  c.anim = anim;
  c.pos = pos;
  read_curve_fields (b, &c);
  ct = bfres_curve_type (&c);
  if (ct == 3 || bfres_curve_frame_type (&c) == 3 || bfres_curve_key_type (&c) == 3)
    {
      g_set_error (
          error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
          "%s: curve flags at offset 0x%" G_GSIZE_MODIFIER
          "x: expected frame type 0-2, key type 0-2 and curve type 0-2 or 4-7, found 0x%04x",
          path, pos, c.flags);
      goto fail;
    }
  if (c.n_keys > 0)
    {
      gsize fb = (gsize)c.n_keys * bfres_frame_size (bfres_curve_frame_type (&c));
      gsize kb = bfres_curve_type_is_bool (ct) ? ((gsize)c.n_keys + 31) / 32 * 4
                                               : (gsize)c.n_keys * bfres_values_per_key (ct)
                                                     * bfres_key_size (bfres_curve_key_type (&c));
      if (fo == 0 || ko == 0)
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET,
                       "%s: curve at offset 0x%" G_GSIZE_MODIFIER
                       "x has %u keys but a null %s array offset",
                       path, pos, c.n_keys, fo == 0 ? "frame" : "key");
          goto fail;
        }
      if (!need (ctx, fo, fb, "curve frame array", error)
          || !need (ctx, ko, kb, "curve key array", error))
        {
          g_prefix_error (error, "%s: ", path);
          goto fail;
        }
      /* The arrays' own space, rounded to 4 within the file. */
      c.frames_cap = MIN ((fb + 3) & ~(gsize)3, b->size - fo);
      c.keys_cap = MIN ((kb + 3) & ~(gsize)3, b->size - ko);
      if (fb + kb > ctx->array_budget)
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT,
                       "%s: curve key array at offset 0x%" G_GSIZE_MODIFIER
                       "x: the curves' key and frame arrays pass their budget of %" G_GSIZE_FORMAT
                       " bytes (four times the file and 64 KiB, each curve's counted): arrays "
                       "shared or overlapping",
                       path, ko, BFRES_ARRAY_BUDGET (b->size));
          goto fail;
        }
      ctx->array_budget -= fb + kb;
    }
  if (!charge (ctx, sizeof (BfresCurve) + strlen (path) + 1, pos, "curve header", error))
    {
      g_prefix_error (error, "%s: ", path);
      goto fail;
    }
  /* Paths live in one pool (no allocation per curve), components once each. */
  c.path = g_string_chunk_insert (b->strings, path);
  c.component = NULL;
  for (guint i = 0; component != NULL && i < ctx->n_components && c.component == NULL; i++)
    if (strcmp (ctx->components[i], component) == 0)
      c.component = ctx->components[i];
  if (component != NULL && c.component == NULL)
    {
      c.component = g_string_chunk_insert_const (b->strings, component);
      if (ctx->n_components < G_N_ELEMENTS (ctx->components))
        ctx->components[ctx->n_components++] = c.component;
    }
  g_array_append_val (b->curves, c);
  return TRUE;

fail:
  return FALSE;
}

static const char *
bone_target_label (guint32 target, const char **component)
{
  static const struct
  {
    guint32 off;
    const char *label, *comp;
  } map[] = {
    { 0x04, "Scale X", "X" },     { 0x08, "Scale Y", "Y" },     { 0x0C, "Scale Z", "Z" },
    { 0x10, "Translate X", "X" }, { 0x14, "Translate Y", "Y" }, { 0x18, "Translate Z", "Z" },
    { 0x20, "Rotate X", "X" },    { 0x24, "Rotate Y", "Y" },    { 0x28, "Rotate Z", "Z" },
    { 0x2C, "Rotate W", "W" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (map); i++)
    if (map[i].off == target)
      {
        *component = map[i].comp;
        return map[i].label;
      }
  *component = NULL;
  return NULL;
}

/* A table of @count elements of @elem bytes at @pos, reached through the
 * offset field at @offset_at; the count is stored at @count_at. */
static gboolean
check_array (Ctx *ctx, gsize offset_at, gsize pos, gsize count_at, guint64 count, gsize elem,
             const char *field, GError **error)
{
  if (count > (guint64)ctx->b->size / MAX (elem, 1))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT,
                   "%s: %s count at offset 0x%" G_GSIZE_MODIFIER "x: %" G_GUINT64_FORMAT
                   " entries cannot fit in a file of %" G_GSIZE_FORMAT " bytes",
                   ctx->where, field, count_at, count, ctx->b->size);
      return FALSE;
    }
  if (pos == 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET,
                   "%s: %s offset at offset 0x%" G_GSIZE_MODIFIER
                   "x: expected a table of %" G_GUINT64_FORMAT
                   " entries (count at 0x%" G_GSIZE_MODIFIER "x), found null",
                   ctx->where, field, offset_at, count, count_at);
      return FALSE;
    }
  if (!need (ctx, pos, (gsize)count * elem, field, error))
    return FALSE;
  claim (ctx, pos, (gsize)count * elem);
  return TRUE;
}

static gboolean
parse_fska (Ctx *ctx, BfresAnim *a, guint ai, GError **error)
{
  TressBfres *b = ctx->b;
  gboolean v34 = b->version >= BFRES_V3_4;
  guint16 n_bones;
  gsize bones;
  guint32 curve_count;
  BfresShownName anim_buf, bone_buf;
  const char *anim_name = bfres_shown_name (a->name, anim_buf);

  if (!need (ctx, a->pos, 0x30, "FSKA header", error))
    return FALSE;
  a->flags = bfres_get_u32 (b, a->pos + 0x0C);
  a->loops = (a->flags >> 2) & 1;
  if (v34)
    {
      a->frame_count = (gint32)bfres_get_u32 (b, a->pos + 0x10);
      n_bones = bfres_get_u16 (b, a->pos + 0x14);
      curve_count = bfres_get_u32 (b, a->pos + 0x18);
      a->baked_size_pos = a->pos + 0x1C;
    }
  else
    {
      a->frame_count = bfres_get_u16 (b, a->pos + 0x10);
      a->frame_count_size = 2;
      n_bones = bfres_get_u16 (b, a->pos + 0x12);
      curve_count = bfres_get_u16 (b, a->pos + 0x16);
      a->baked_size_pos = a->pos + 0x18;
    }
  a->declared_curves = curve_count;
  if (!rd_offset (ctx, a->pos + 0x20, "FSKA bone animation array", &bones, error))
    return FALSE;
  claim (ctx, a->pos, 0x30);
  if (n_bones > 0
      && !check_array (ctx, a->pos + 0x20, bones, a->pos + (v34 ? 0x14 : 0x12), n_bones, 0x18,
                       "bone animation", error))
    return FALSE;
  for (guint i = 0; i < n_bones; i++)
    {
      gsize bp = bones + 0x18 * (gsize)i, cp, prefix;
      g_autofree char *bone = NULL;
      const char *bone_name;
      guint n_curves = b->d[bp + 0x0A];

      if (!rd_string (ctx, bp + 4, "bone animation name", &bone, error)
          || !rd_offset (ctx, bp + 0x10, "bone animation curves", &cp, error))
        return FALSE;
      bone_name = bfres_shown_name (bone, bone_buf);
      if (n_curves > 0
          && !check_array (ctx, bp + 0x10, cp, bp + 0x0A, n_curves, b->curve_header_size,
                           "bone curve", error))
        {
          g_prefix_error (error, "bone \"%s\": ", bone_name);
          return FALSE;
        }
      /* "Anim/Bone/", then each curve's label. */
      g_string_assign (ctx->path, anim_name);
      g_string_append_c (ctx->path, '/');
      g_string_append (ctx->path, bone_name);
      prefix = ctx->path->len;
      for (guint k = 0; k < n_curves; k++)
        {
          gsize hp = cp + b->curve_header_size * k;
          guint32 target = bfres_get_u32 (b, hp + 4);
          const char *comp = NULL;
          const char *label = bone_target_label (target, &comp);
          GString *path = ctx->path;

          g_string_truncate (path, prefix);
          if (label)
            {
              g_string_append_c (path, '/');
              g_string_append (path, label);
            }
          else
            g_string_append_printf (path, "/Target 0x%02X", target);
          if (!add_curve (ctx, ai, hp, path->str, comp, error))
            return FALSE;
        }
    }
  return TRUE;
}

static const char *
param_component (int group, guint32 target, char buf[16])
{
  static const char *const xyzw[] = { "X", "Y", "Z", "W" };
  static const char *const rgba[] = { "R", "G", "B", "A" };
  static const char *const srt[]
      = { "Mode", "ScaleX", "ScaleY", "Rotate", "TranslateX", "TranslateY" };
  guint i = target / 4;

  if (target % 4 == 0)
    {
      if (group == 5 && i < G_N_ELEMENTS (srt))
        return srt[i];
      if (group == 4 && i < 4)
        return rgba[i];
      if (group == 3 && i < 4)
        return xyzw[i];
    }
  g_snprintf (buf, 16, "0x%02X", target);
  return buf;
}

static gboolean
parse_fshu (Ctx *ctx, BfresAnim *a, guint ai, GError **error)
{
  TressBfres *b = ctx->b;
  guint16 n_mats;
  gsize mats;
  BfresShownName anim_buf, mat_buf, param_buf;
  const char *anim_name = bfres_shown_name (a->name, anim_buf);

  if (!need (ctx, a->pos, 0x34, "FSHU header", error))
    return FALSE;
  a->flags = bfres_get_u32 (b, a->pos + 0x0C);
  a->loops = (a->flags >> 2) & 1;
  if (b->version >= BFRES_V3_4)
    {
      a->frame_count = (gint32)bfres_get_u32 (b, a->pos + 0x10);
      n_mats = bfres_get_u16 (b, a->pos + 0x14);
      a->declared_curves = bfres_get_u32 (b, a->pos + 0x1C);
      a->baked_size_pos = a->pos + 0x20;
    }
  else
    {
      /* Before 3.4 (BfresLibrary): u16 frames, u16 materials, u32, s32 curves, baked, pad. */
      a->frame_count_size = 2;
      a->frame_count = bfres_get_u16 (b, a->pos + 0x10);
      n_mats = bfres_get_u16 (b, a->pos + 0x12);
      a->declared_curves = bfres_get_u32 (b, a->pos + 0x18);
      a->baked_size_pos = a->pos + 0x1C;
    }
  if (!rd_offset (ctx, a->pos + 0x2C, "FSHU material animation array", &mats, error))
    return FALSE;
  claim (ctx, a->pos, 0x34);
  if (n_mats > 0
      && !check_array (ctx, a->pos + 0x2C, mats, a->pos + (b->version >= BFRES_V3_4 ? 0x14 : 0x12),
                       n_mats, 0x20, "material animation", error))
    return FALSE;
  for (guint m = 0; m < n_mats; m++)
    {
      gsize mp = mats + 0x20 * (gsize)m, params, curves;
      guint n_params = bfres_get_u16 (b, mp), n_curves = bfres_get_u16 (b, mp + 2);
      g_autofree char *mat = NULL;
      g_autofree int *owner = NULL; /* per curve: the parameter it animates, or -1 */
      g_autofree char **param_names = NULL;
      gboolean ok = TRUE;

      if (!rd_string (ctx, mp + 0x10, "material animation name", &mat, error)
          || !rd_offset (ctx, mp + 0x14, "parameter animation array", &params, error)
          || !rd_offset (ctx, mp + 0x18, "material animation curves", &curves, error))
        return FALSE;
      if (n_params > 0
          && !check_array (ctx, mp + 0x14, params, mp, n_params, 0x10, "parameter animation",
                           error))
        return FALSE;
      if (n_curves > 0
          && !check_array (ctx, mp + 0x18, curves, mp + 2, n_curves, b->curve_header_size,
                           "material curve", error))
        return FALSE;
      /* Each curve belongs to the first parameter whose range holds it: one
       * pass over the parameters, each curve given once (next[] skips the
       * curves already given), however the ranges overlap. */
      owner = g_new (int, n_curves + 1);
      param_names = g_new0 (char *, n_params + 1);
      {
        g_autofree guint *next = g_new (guint, n_curves + 1);

        for (guint k = 0; k <= n_curves; k++)
          {
            next[k] = k;
            owner[k] = -1;
          }
        for (guint p = 0; p < n_params; p++)
          {
            gsize pp = params + 0x10 * (gsize)p;
            guint begin = bfres_get_u16 (b, pp);
            guint end
                = MIN (begin + bfres_get_u16 (b, pp + 2) + bfres_get_u16 (b, pp + 4), n_curves);
            guint k = MIN (begin, n_curves);

            for (;;)
              {
                guint r = k;

                while (next[r] != r)
                  r = next[r];
                while (next[k] != r) /* path compression */
                  {
                    guint up = next[k];
                    next[k] = r;
                    k = up;
                  }
                k = r;
                if (k >= end)
                  break;
                owner[k] = (int)p;
                next[k] = k + 1;
              }
          }
      }
      for (guint k = 0; k < n_curves && ok; k++)
        {
          gsize hp = curves + b->curve_header_size * k;
          char buf[16];
          const char *comp, *param = NULL;
          guint32 target = bfres_get_u32 (b, hp + 4);
          int p = owner[k];

          if (p >= 0)
            {
              if (param_names[p] == NULL
                  && !rd_string (ctx, params + 0x10 * (gsize)p + 0x0C, "parameter name",
                                 &param_names[p], error))
                ok = FALSE;
              param = param_names[p];
            }
          comp = param_component (a->group, target, buf);
          g_string_printf (ctx->path, "%s/%s/%s.%s", anim_name, bfres_shown_name (mat, mat_buf),
                           param ? bfres_shown_name (param, param_buf) : "?", comp);
          if (ok && !add_curve (ctx, ai, hp, ctx->path->str, comp, error))
            ok = FALSE;
        }
      for (guint p = 0; p < n_params; p++)
        g_free (param_names[p]);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

static gboolean
parse_ftxp (Ctx *ctx, BfresAnim *a, guint ai, GError **error)
{
  TressBfres *b = ctx->b;
  guint16 n_mats;
  gsize mats, texgroup;
  BfresShownName anim_buf, mat_buf, sampler_buf;
  const char *anim_name = bfres_shown_name (a->name, anim_buf);

  if (!need (ctx, a->pos, 0x38, "FTXP header", error))
    return FALSE;
  a->flags = bfres_get_u16 (b, a->pos + 0x0C);
  a->loops = (a->flags >> 2) & 1;
  if (b->version >= BFRES_V3_4)
    {
      a->frame_count = (gint32)bfres_get_u32 (b, a->pos + 0x10);
      n_mats = bfres_get_u16 (b, a->pos + 0x16);
      a->declared_curves = bfres_get_u32 (b, a->pos + 0x1C);
      a->baked_size_pos = a->pos + 0x20;
    }
  else
    {
      /* Before 3.4 (BfresLibrary): u16 frames at 0x0E, u16 textures, u16 materials,
       * u16 user data, s16 pattern animations, s32 curves, baked, pad. */
      a->frame_count_pos = a->pos + 0x0E;
      a->frame_count_size = 2;
      a->frame_count = bfres_get_u16 (b, a->pos + 0x0E);
      n_mats = bfres_get_u16 (b, a->pos + 0x12);
      a->declared_curves = bfres_get_u32 (b, a->pos + 0x18);
      a->baked_size_pos = a->pos + 0x1C;
    }
  if (!rd_offset (ctx, a->pos + 0x2C, "FTXP material animation array", &mats, error)
      || !rd_offset (ctx, a->pos + 0x30, "FTXP texture list", &texgroup, error))
    return FALSE;
  if (texgroup != 0
      && !read_group (ctx, texgroup, "FTXP texture list", 0xFFFF, &a->textures, NULL,
                      &a->n_textures, error))
    return FALSE;
  claim (ctx, a->pos, 0x38);
  if (n_mats > 0
      && !check_array (ctx, a->pos + 0x2C, mats, a->pos + (b->version >= BFRES_V3_4 ? 0x16 : 0x12),
                       n_mats, 0x1C, "material animation", error))
    return FALSE;
  for (guint m = 0; m < n_mats; m++)
    {
      gsize mp = mats + 0x1C * (gsize)m, pats, curves;
      guint n_pats = bfres_get_u16 (b, mp), n_curves = bfres_get_u16 (b, mp + 2);
      g_autofree char *mat = NULL;
      g_autofree int *pattern = NULL; /* per curve: its pattern animation, or -1 */

      if (!rd_string (ctx, mp + 0x0C, "material animation name", &mat, error)
          || !rd_offset (ctx, mp + 0x10, "pattern animation array", &pats, error)
          || !rd_offset (ctx, mp + 0x14, "material animation curves", &curves, error))
        return FALSE;
      if (n_pats > 0
          && !check_array (ctx, mp + 0x10, pats, mp, n_pats, 8, "pattern animation", error))
        return FALSE;
      if (n_curves > 0
          && !check_array (ctx, mp + 0x14, curves, mp + 2, n_curves, b->curve_header_size,
                           "material curve", error))
        return FALSE;
      /* The first pattern animation naming each curve, in one pass. */
      pattern = g_new (int, n_curves + 1);
      for (guint k = 0; k < n_curves; k++)
        pattern[k] = -1;
      for (guint p = 0; p < n_pats; p++)
        {
          int k = (gint8)b->d[pats + 8 * (gsize)p];

          if (k >= 0 && (guint)k < n_curves && pattern[k] < 0)
            pattern[k] = (int)p;
        }
      for (guint k = 0; k < n_curves; k++)
        {
          g_autofree char *sampler = NULL;

          if (pattern[k] >= 0
              && !rd_string (ctx, pats + 8 * (gsize)pattern[k] + 4, "pattern animation sampler",
                             &sampler, error))
            return FALSE;
          g_string_printf (ctx->path, "%s/%s/%s", anim_name, bfres_shown_name (mat, mat_buf),
                           sampler ? bfres_shown_name (sampler, sampler_buf) : "?");
          if (!add_curve (ctx, ai, curves + b->curve_header_size * k, ctx->path->str, NULL, error))
            return FALSE;
        }
    }
  return TRUE;
}

static gboolean
parse_fvis (Ctx *ctx, BfresAnim *a, guint ai, GError **error)
{
  TressBfres *b = ctx->b;
  guint16 n_names, n_curves;
  gsize names, curves;
  BfresShownName anim_buf, vis_buf;
  const char *anim_name = bfres_shown_name (a->name, anim_buf);

  if (!need (ctx, a->pos, 0x34, "FVIS header", error))
    return FALSE;
  a->flags = bfres_get_u16 (b, a->pos + 0x0C);
  a->loops = (a->flags >> 2) & 1;
  a->frame_count = (gint32)bfres_get_u32 (b, a->pos + 0x10);
  n_names = bfres_get_u16 (b, a->pos + 0x14);
  n_curves = bfres_get_u16 (b, a->pos + 0x16);
  a->declared_curves = n_curves;
  a->baked_size_pos = a->pos + 0x18;
  if (!rd_offset (ctx, a->pos + 0x24, "FVIS name array", &names, error)
      || !rd_offset (ctx, a->pos + 0x28, "FVIS curves", &curves, error))
    return FALSE;
  claim (ctx, a->pos, 0x34);
  if (n_names > 0
      && !check_array (ctx, a->pos + 0x24, names, a->pos + 0x14, n_names, 4, "visibility name",
                       error))
    return FALSE;
  if (n_curves > 0
      && !check_array (ctx, a->pos + 0x28, curves, a->pos + 0x16, n_curves, b->curve_header_size,
                       "visibility curve", error))
    return FALSE;
  for (guint k = 0; k < n_curves; k++)
    {
      gsize hp = curves + b->curve_header_size * k;
      guint32 target = bfres_get_u32 (b, hp + 4);
      g_autofree char *vis = NULL;

      if (target < n_names)
        {
          if (!rd_string (ctx, names + 4 * (gsize)target, "visibility name", &vis, error))
            return FALSE;
        }
      else
        vis = g_strdup_printf ("#%u", target);
      g_string_printf (ctx->path, "%s/%s", anim_name, bfres_shown_name (vis, vis_buf));
      if (!add_curve (ctx, ai, hp, ctx->path->str, NULL, error))
        return FALSE;
    }
  return TRUE;
}

static const char *const group_kinds[BFRES_N_GROUPS] = {
  "Model",       "Texture",         "Skeletal",        "Shader param",        "Colour",
  "Texture SRT", "Texture pattern", "Bone visibility", "Material visibility", "Shape",
  "Scene",       "External file",
};

const char *
bfres_group_kind (int group)
{
  return group >= 0 && group < BFRES_N_GROUPS ? group_kinds[group] : "?";
}

static gboolean
parse_anim (Ctx *ctx, int group, const char *name, gsize pos, GError **error)
{
  static const char *const magics[BFRES_N_GROUPS] = {
    NULL, NULL, "FSKA", "FSHU", "FSHU", "FSHU", "FTXP", "FVIS", "FVIS", NULL, NULL, NULL,
  };
  TressBfres *b = ctx->b;
  BfresAnim *a = g_new0 (BfresAnim, 1);
  guint ai = b->anims->len;
  gboolean ok;
  BfresShownName name_buf;
  g_autofree char *where = g_strdup_printf ("%s animation \"%s\"", group_kinds[group],
                                            bfres_shown_name (name, name_buf));

  a->group = group;
  a->name = g_strdup (name);
  a->kind = group_kinds[group];
  a->magic = magics[group];
  a->pos = pos;
  a->frame_count_pos = pos + 0x10; /* s32; u16 in some sub-files before 3.4 */
  a->frame_count_size = 4;
  a->first_curve = b->curves->len;
  g_ptr_array_add (b->anims, a);
  ctx->where = where;
  if (!tress_progress_advance (1, error))
    {
      ctx->where = NULL;
      return FALSE;
    }

  if (!mark_seen (ctx, pos, where, error) || !check_magic (ctx, pos, a->magic, "magic", error)
      || !charge (ctx, sizeof (BfresAnim) + strlen (name) + 1 + 3 * BFRES_ALLOC_OVERHEAD, pos,
                  "animation", error))
    {
      g_prefix_error (error, "%s: ", where);
      ctx->where = NULL;
      return FALSE;
    }
  switch (group)
    {
    case 2:
      ok = parse_fska (ctx, a, ai, error);
      break;
    case 3:
    case 4:
    case 5:
      ok = parse_fshu (ctx, a, ai, error);
      break;
    case 6:
      ok = parse_ftxp (ctx, a, ai, error);
      break;
    default:
      ok = parse_fvis (ctx, a, ai, error);
      break;
    }
  ctx->where = NULL;
  a->n_curves = b->curves->len - a->first_curve;
  return ok;
}

typedef struct
{
  gsize start, end;
  guint curve;
  gboolean keys;
} Region;

/* Sorts @r (@n) by start, keeping the order of equal starts (a stable
 * sort): runs already in order are merged, pairs of neighbours at a time,
 * as a file rewritten in places holds long runs (each animation's arrays in
 * order, those rewritten at the end). */
static void
sort_regions (Region *r, guint n)
{
  g_autofree Region *tmp = g_new (Region, (gsize)n + 1);
  g_autofree guint *run = g_new (guint, (gsize)n + 2); /* where each run starts, then n */
  guint n_runs = 0;
  Region *from = r, *to = tmp;

  for (guint i = 0; i < n; i++)
    if (i == 0 || r[i].start < r[i - 1].start)
      run[n_runs++] = i;
  run[n_runs] = n;
  while (n_runs > 1)
    {
      guint merged = 0;

      for (guint k = 0; k < n_runs; k += 2)
        {
          guint a = run[k], a_end = run[k + 1], b = a_end, b_end = k + 2 <= n_runs ? run[k + 2] : n;
          guint at = a;

          if (k + 1 == n_runs)
            b = b_end = a_end; /* the last run, alone */
          while (a < a_end && b < b_end)
            to[at++] = from[b].start < from[a].start ? from[b++] : from[a++];
          while (a < a_end)
            to[at++] = from[a++];
          while (b < b_end)
            to[at++] = from[b++];
          run[merged++] = run[k];
        }
      run[merged] = n;
      n_runs = merged;
      {
        Region *swap = from;

        from = to;
        to = swap;
      }
    }
  if (from != r)
    memcpy (r, from, (gsize)n * sizeof *r);
}

static void
drop_region (TressBfres *b, const Region *r)
{
  BfresCurve *c = bfres_curve (b, r->curve);
  if (r->keys)
    c->keys_cap = 0;
  else
    c->frames_cap = 0;
}

static void find_shared_arrays_among (TressBfres *b);

/* Sorts @spans by start in O(n): a stable radix sort, a byte at a time, over
 * the bytes in which the starts differ (a parse claims tens of thousands of
 * spans, mostly in file order; a comparison sort called back per pair cost more
 * than the rest of the validation). Already ordered spans are left as they are. */
static void
sort_spans (GArray *spans)
{
  guint n = spans->len;
  Span *v = (Span *)(void *)spans->data, *tmp;
  gsize all_or = 0, all_and = ~(gsize)0;
  gboolean sorted = TRUE;

  for (guint i = 0; i < n; i++)
    {
      all_or |= v[i].start;
      all_and &= v[i].start;
      if (i > 0 && v[i].start < v[i - 1].start)
        sorted = FALSE;
    }
  if (sorted)
    return;
  tmp = g_new (Span, n);
  for (guint shift = 0; shift < 8 * sizeof (gsize); shift += 8)
    {
      guint count[256] = { 0 }, at = 0;
      Span *swap;

      /* A byte that every start shares orders nothing. */
      if ((((all_or ^ all_and) >> shift) & 0xFF) == 0)
        continue;
      for (guint i = 0; i < n; i++)
        count[(v[i].start >> shift) & 0xFF]++;
      for (guint d = 0; d < 256; d++)
        {
          guint c = count[d];
          count[d] = at;
          at += c;
        }
      for (guint i = 0; i < n; i++)
        tmp[count[(v[i].start >> shift) & 0xFF]++] = v[i];
      swap = v;
      v = tmp;
      tmp = swap;
    }
  if (v != (Span *)(void *)spans->data)
    {
      memcpy (spans->data, v, n * sizeof *v);
      tmp = v;
    }
  g_free (tmp);
}

/* The first structure of @spans (sorted, disjoint) overlapping [start, end).
 * *@from: where the last search ended; arrays come mostly in file order, so
 * the next answer is usually a few spans on: walked to when close, else
 * searched by halves (the same answer either way). */
static const Span *
span_overlap (const GArray *spans, guint *from, gsize start, gsize end)
{
  const Span *v = (const Span *)(const void *)spans->data;
  guint lo = 0, hi = spans->len, k = *from;

  if (k <= hi && (k == 0 || v[k - 1].end <= start))
    {
      /* Every span before @k ends before @start: walk a few on. */
      for (guint steps = 0; k < hi && v[k].end <= start && steps < 8; steps++)
        k++;
      if (k == hi || v[k].end > start)
        lo = hi = k;
      else
        lo = k;
    }
  /* First span ending after @start. */
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (v[mid].end <= start)
        lo = mid + 1;
      else
        hi = mid;
    }
  *from = lo;
  if (lo < spans->len && v[lo].start < end)
    return &v[lo];
  return NULL;
}

/* Arrays shared by two curves (or overlapping), or lying over what the file
 * uses as structure (a header, a table, a name), are never rewritten in place;
 * the latter are reported by validate. */
static void
find_shared_arrays (TressBfres *b, GArray *structs)
{
  guint kept = 0, at = 0;

  sort_spans (structs);
  for (guint i = 0; i < structs->len; i++)
    {
      Span *s = &g_array_index (structs, Span, i);

      if (kept > 0 && s->start <= g_array_index (structs, Span, kept - 1).end)
        {
          Span *last = &g_array_index (structs, Span, kept - 1);
          last->end = MAX (last->end, s->end);
        }
      else
        g_array_index (structs, Span, kept++) = *s;
    }
  g_array_set_size (structs, kept);
  for (guint i = 0; i < b->curves->len; i++)
    {
      BfresCurve *c = bfres_curve (b, i);
      TressBfresCurveType ct = bfres_curve_type (c);
      gsize fb = (gsize)c->n_keys * bfres_frame_size (bfres_curve_frame_type (c));
      gsize kb = bfres_curve_type_is_bool (ct) ? ((gsize)c->n_keys + 31) / 32 * 4
                                               : (gsize)c->n_keys * bfres_values_per_key (ct)
                                                     * bfres_key_size (bfres_curve_key_type (c));
      const Span *hit;

      /* The array's own bytes over structure: reported, never written in
       * place; only its padding to 4 (an unaligned neighbour): not padded. */
      if (c->frames_cap && (hit = span_overlap (structs, &at, c->frames_pos, c->frames_pos + fb)))
        {
          BfresClash clash = { i, FALSE, hit->start };

          c->frames_cap = 0;
          g_array_append_val (b->clashes, clash);
        }
      else if (c->frames_cap
               && span_overlap (structs, &at, c->frames_pos, c->frames_pos + c->frames_cap))
        c->frames_cap = fb;
      if (c->keys_cap && (hit = span_overlap (structs, &at, c->keys_pos, c->keys_pos + kb)))
        {
          BfresClash clash = { i, TRUE, hit->start };

          c->keys_cap = 0;
          g_array_append_val (b->clashes, clash);
        }
      else if (c->keys_cap && span_overlap (structs, &at, c->keys_pos, c->keys_pos + c->keys_cap))
        c->keys_cap = kb;
    }
  find_shared_arrays_among (b);
}

/* Arrays shared by two curves (or overlapping) are never rewritten in place. */
static void
find_shared_arrays_among (TressBfres *b)
{
  guint n = b->curves->len, m = 0;
  g_autofree Region *regions = g_new (Region, 2 * (gsize)n + 1);

  for (guint i = 0; i < n; i++)
    {
      BfresCurve *c = bfres_curve (b, i);
      if (c->frames_cap)
        regions[m++] = (Region){ c->frames_pos, c->frames_pos + c->frames_cap, i, FALSE };
      if (c->keys_cap)
        regions[m++] = (Region){ c->keys_pos, c->keys_pos + c->keys_cap, i, TRUE };
    }
  /* Files usually lay the arrays out in curve order: sort only when they are not. */
  for (guint i = 1; i < m; i++)
    if (regions[i].start < regions[i - 1].start)
      {
        sort_regions (regions, m);
        break;
      }
  for (guint i = 1; i < m; i++)
    if (regions[i].start < regions[i - 1].end)
      {
        drop_region (b, &regions[i]);
        drop_region (b, &regions[i - 1]);
        if (regions[i].end < regions[i - 1].end)
          regions[i].end = regions[i - 1].end;
      }
}

static void
layer_clear (gpointer p)
{
  BfresLayer *l = p;
  g_clear_pointer (&l->bytes, g_bytes_unref);
  g_clear_pointer (&l->sarc, tress_sarc_free);
}

static void
anim_free (gpointer p)
{
  BfresAnim *a = p;
  g_free (a->name);
  g_strfreev (a->textures);
  g_free (a);
}

void
tress_bfres_free (TressBfres *b)
{
  if (b == NULL)
    return;
  bfres_end_loan (b);
  g_clear_pointer (&b->data, g_byte_array_unref);
  g_clear_pointer (&b->original, g_bytes_unref);
  g_clear_pointer (&b->file, g_bytes_unref);
  g_clear_pointer (&b->layers, g_array_unref);
  g_clear_pointer (&b->anims, g_ptr_array_unref);
  g_clear_pointer (&b->curves, g_array_unref);
  g_clear_pointer (&b->strings, g_string_chunk_free);
  g_clear_pointer (&b->notes, g_ptr_array_unref);
  g_clear_pointer (&b->clashes, g_array_unref);
  g_clear_pointer (&b->lineage, g_hash_table_unref);
  g_free (b->notice);
  for (guint i = 0; i < BFRES_N_GROUPS; i++)
    g_strfreev (b->groups[i].names);
  g_free (b->container);
  g_free (b->filename);
  g_free (b->name);
  g_free (b);
}

static gboolean
is_switch_bfres (const guint8 *d, gsize size)
{
  /* Switch: "FRES" + 4 spaces, little-endian BOM at 0x0C. */
  return size >= 0x10 && (memcmp (d + 4, "    ", 4) == 0 || (d[0x0C] == 0xFF && d[0x0D] == 0xFE));
}

/* Looking for the BFRES through containers: what may still be decompressed,
 * and the broken entries met on the way (for the message when none holds a
 * BFRES). */
typedef struct
{
  TressYaz0Budget inflate;
  char *broken; /* the first entry whose Yaz0 stream cannot be read */
  guint n_broken;
} Unwrap;

static void
unwrap_clear (Unwrap *u)
{
  g_clear_pointer (&u->broken, g_free);
}

typedef enum
{
  ENTRY_OTHER,
  ENTRY_FRES,
  ENTRY_SARC,
  ENTRY_YAZ0_FRES,
  ENTRY_YAZ0_SARC,
  ENTRY_BROKEN, /* a Yaz0 stream that cannot hold what it announces, or ends early */
} EntryKind;

/* What an entry is, from its first (decompressed) bytes only. */
static EntryKind
entry_kind (const guint8 *p, gsize n)
{
  guint8 head[4];

  if (n < 4)
    return ENTRY_OTHER;
  if (memcmp (p, "FRES", 4) == 0)
    return ENTRY_FRES;
  if (tress_sarc_probe (p, n))
    return ENTRY_SARC;
  if (!tress_yaz0_is_compressed (p, n))
    return ENTRY_OTHER;
  if (tress_yaz0_peek (p, n, head, 4) != 4)
    return tress_yaz0_get_size (p, n) < 4 && tress_yaz0_check (p, n, 0, NULL) ? ENTRY_OTHER
                                                                              : ENTRY_BROKEN;
  if (memcmp (head, "FRES", 4) == 0)
    return ENTRY_YAZ0_FRES;
  if (memcmp (head, "SARC", 4) == 0)
    return ENTRY_YAZ0_SARC;
  return ENTRY_OTHER;
}

static gboolean sarc_find_bfres (Unwrap *u, GBytes *bytes, TressSarc *sarc, guint depth,
                                 guint *found, GError **error);

/* Whether SARC entry @i holds a BFRES (nested archives within the layer
 * limit, compressed ones decompressed within the budget). */
static gboolean
entry_holds_bfres (Unwrap *u, GBytes *archive, TressSarc *sarc, guint i, EntryKind kind,
                   guint depth, GError **error)
{
  const TressSarcEntry *e = tress_sarc_get_entry (sarc, i);
  g_autoptr (GBytes) inner = NULL;
  g_autoptr (TressSarc) nested = NULL;
  guint found;
  gboolean ok;

  switch (kind)
    {
    case ENTRY_FRES:
    case ENTRY_YAZ0_FRES:
      return TRUE;
    case ENTRY_SARC:
      inner = tress_sarc_get_file (sarc, i);
      depth++;
      break;
    case ENTRY_YAZ0_SARC:
      if (depth + 2 > BFRES_MAX_LAYERS)
        return FALSE;
      {
        gsize size = 0;
        const guint8 *d = g_bytes_get_data (archive, &size);

        /* A compressed archive inside: its entries are known only once
         * inflated. */
        inner = tress_yaz0_decompress_budget (d + e->start, e->end - e->start, &u->inflate, error);
        if (inner == NULL)
          {
            g_prefix_error (error, "SARC entry “%s”: ", e->name);
            return FALSE;
          }
        depth += 2;
      }
      break;
    default:
      return FALSE;
    }
  if (depth >= BFRES_MAX_LAYERS)
    return FALSE;
  nested = tress_sarc_parse (inner, NULL);
  if (nested == NULL)
    return FALSE;
  ok = sarc_find_bfres (u, inner, nested, depth, &found, error);
  if (!ok && error != NULL && *error != NULL)
    g_prefix_error (error, "SARC entry “%s”: ", e->name);
  return ok;
}

/* The first entry of @sarc that is a BFRES or holds one: a plain one, a Yaz0
 * one, or a (Yaz0) SARC with one inside (archives mix BFRES with other Yaz0
 * files such as .sbyml). FALSE without an error when there is none; an error
 * when the compressed archives inside announce more than the budget holds
 * (before any is decompressed). */
static gboolean
sarc_find_bfres (Unwrap *u, GBytes *bytes, TressSarc *sarc, guint depth, guint *found,
                 GError **error)
{
  gsize size = 0;
  const guint8 *d = g_bytes_get_data (bytes, &size);
  guint n = tress_sarc_get_n_files (sarc);
  g_autofree guint8 *kinds = g_new (guint8, n + 1);
  guint64 announced = 0;

  for (guint i = 0; i < n; i++)
    {
      const TressSarcEntry *e = tress_sarc_get_entry (sarc, i);

      kinds[i] = entry_kind (d + e->start, e->end - e->start);
      if (kinds[i] == ENTRY_BROKEN)
        {
          if (u->broken == NULL)
            u->broken = g_strdup (e->name);
          u->n_broken++;
        }
      if (kinds[i] != ENTRY_YAZ0_SARC)
        continue;
      /* What the archives inside announce, all together, is known before
       * any is inflated: thousands of entries sharing one stream are refused
       * at once, not after minutes. */
      announced += tress_yaz0_get_size (d + e->start, e->end - e->start);
      if (announced > u->inflate.left)
        {
          g_set_error (
              error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT,
              "SARC entry “%s” (%u of %u): the compressed archives in this archive "
              "announce %" G_GUINT64_FORMAT " bytes up to it, more than the %" G_GSIZE_FORMAT
              " left of the %" G_GSIZE_FORMAT " bytes Tress decompresses to open one file: refused",
              e->name, i + 1, n, announced, u->inflate.left, (gsize)TRESS_YAZ0_MAX_TOTAL);
          return FALSE;
        }
    }
  /* TRANSLATORS: a phase of opening a file, with a count of archive entries */
  tress_progress_phase (N_ ("Looking through the archive"), n, TRESS_PROGRESS_ENTRIES);
  for (guint i = 0; i < n; i++)
    {
      GError *local = NULL;

      if (!tress_progress_set_done (i, error))
        return FALSE;
      if (entry_holds_bfres (u, bytes, sarc, i, kinds[i], depth, &local))
        {
          *found = i;
          return TRUE;
        }
      if (local != NULL)
        {
          g_propagate_error (error, local);
          return FALSE;
        }
    }
  return FALSE;
}

static gboolean
unwrap_containers (TressBfres *b, GBytes *bytes, GBytes **bfres_out, GError **error)
{
  g_autoptr (GBytes) cur = g_bytes_ref (bytes);
  Unwrap u = { { 0 }, NULL, 0 };
  gboolean ok = FALSE;

  tress_yaz0_budget_init (&u.inflate);
  for (guint depth = 0;; depth++)
    {
      gsize size;
      const guint8 *d = g_bytes_get_data (cur, &size);
      BfresLayer layer = { 0 };

      if (size >= 4 && memcmp (d, "FRES", 4) == 0)
        break;
      if (depth >= BFRES_MAX_LAYERS)
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED,
                       "More than %d nested containers around the BFRES", BFRES_MAX_LAYERS);
          goto out;
        }
      if (tress_yaz0_is_compressed (d, size))
        {
          GBytes *inner = tress_yaz0_decompress_budget (d, size, &u.inflate, error);
          if (inner == NULL)
            goto out;
          layer.kind = BFRES_LAYER_YAZ0;
          layer.bytes = g_steal_pointer (&cur);
          memcpy (layer.reserved, d + 8, 8);
          g_array_append_val (b->layers, layer);
          cur = inner;
        }
      else if (tress_sarc_probe (d, size))
        {
          TressSarc *sarc = tress_sarc_parse (cur, error);
          guint found = G_MAXUINT;

          if (sarc == NULL)
            goto out;
          if (!sarc_find_bfres (&u, cur, sarc, depth + 1, &found, error))
            {
              tress_sarc_free (sarc);
              if (error != NULL && *error != NULL)
                goto out;
              if (u.broken != NULL)
                {
                  g_autofree char *more = u.n_broken > 1
                                              ? g_strdup_printf (" (and %u more)", u.n_broken - 1)
                                              : g_strdup ("");

                  g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED,
                               "The SARC archive holds no BFRES file; entry “%s”%s is a Yaz0 "
                               "stream that cannot hold what it announces, or ends early",
                               u.broken, more);
                }
              else
                g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED,
                             "The SARC archive holds no BFRES file");
              goto out;
            }
          layer.kind = BFRES_LAYER_SARC;
          layer.bytes = g_steal_pointer (&cur);
          layer.sarc = sarc;
          layer.sarc_index = found;
          g_array_append_val (b->layers, layer);
          cur = tress_sarc_get_file (sarc, found);
        }
      else
        {
          if (size < 4)
            g_set_error (error, TRESS_ERROR, TRESS_ERROR_TRUNCATED,
                         "BFRES magic at offset 0x0: expected 4 bytes, found %" G_GSIZE_FORMAT,
                         size);
          else
            g_set_error (
                error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                "BFRES magic at offset 0x0: expected \"FRES\", \"Yaz0\" or \"SARC\", found %02X "
                "%02X %02X %02X",
                d[0], d[1], d[2], d[3]);
          goto out;
        }
    }
  *bfres_out = g_steal_pointer (&cur);
  ok = TRUE;
out:
  unwrap_clear (&u);
  return ok;
}

/* The BFRES itself, once out of its containers. */
static gboolean
parse_body (Ctx *ctx, GError **error)
{
  TressBfres *b = ctx->b;
  const guint8 *d = b->d;
  gsize size = b->size;
  guint16 bom;
  guint32 file_size;

  if (is_switch_bfres (d, size))
    {
      g_set_error (
          error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED,
          "This is a Nintendo Switch BFRES (little-endian, a different layout); only Wii U "
          "(big-endian) BFRES files are supported");
      return FALSE;
    }
  ctx->budget = BFRES_MODEL_BUDGET (size);
  ctx->array_budget = BFRES_ARRAY_BUDGET (size);
  if (!need (ctx, 0, BFRES_HEADER_SIZE, "BFRES header", error))
    return FALSE;
  claim (ctx, 0, BFRES_HEADER_SIZE);
  bom = bfres_get_u16 (b, 8);
  if (bom != 0xFEFF)
    {
      if (bom == 0xFFFE)
        g_set_error (
            error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED,
            "BFRES byte-order mark at offset 0x8: FFFE (little-endian) is a Switch file; only "
            "Wii U (big-endian, FEFF) BFRES files are supported");
      else
        g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                     "BFRES byte-order mark at offset 0x8: expected FEFF, found %04X", bom);
      return FALSE;
    }
  b->version = bfres_get_u32 (b, 4);
  b->curve_header_size = b->version >= BFRES_V3_4 ? 0x24 : 0x20;
  file_size = bfres_get_u32 (b, 0x0C);
  if (file_size > size)
    {
      g_set_error (
          error, TRESS_ERROR, TRESS_ERROR_TRUNCATED,
          "BFRES file size at offset 0xc: the header announces %u bytes, found %" G_GSIZE_FORMAT,
          file_size, size);
      return FALSE;
    }
  if (!rd_string (ctx, 0x14, "file name", &b->name, error))
    return FALSE;

  /* TRANSLATORS: a phase of opening a file, with a count */
  tress_progress_phase (N_ ("Reading animations"), 0, TRESS_PROGRESS_ENTRIES);
  for (int g = 0; g < BFRES_N_GROUPS; g++)
    {
      gsize gp;
      g_autofree gsize *data = NULL;
      guint n = 0;
      char field[48];

      g_snprintf (field, sizeof field, "index group %d (%s)", g, group_kinds[g]);
      b->groups[g].group = g;
      if (!rd_offset (ctx, 0x20 + 4 * g, field, &gp, error))
        return FALSE;
      if (gp == 0)
        continue;
      if (!mark_seen (ctx, gp, field, error)
          || !read_group (ctx, gp, field, 0xFFFF, &b->groups[g].names, &data, &n, error))
        return FALSE;
      b->groups[g].count = n;
      b->groups[g].pos = gp;
      if (g >= 2 && g <= 8)
        {
          for (guint i = 0; i < n; i++)
            {
              if (data[i] == 0)
                {
                  BfresShownName buf;

                  g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET,
                               "%s entry \"%s\": null data offset", field,
                               bfres_shown_name (b->groups[g].names[i], buf));
                  return FALSE;
                }
              if (!parse_anim (ctx, g, b->groups[g].names[i], data[i], error))
                return FALSE;
            }
        }
      else if (g == 9 || g == 10)
        for (guint i = 0; i < n; i++)
          g_ptr_array_add (b->notes,
                           g_strdup_printf ("%s animation \"%s\": kept as is, not editable",
                                            group_kinds[g], b->groups[g].names[i]));
    }
  return TRUE;
}

/* "SARC entry “Model/x.sbfres” → Yaz0": where the BFRES sits, outermost first. */
static char *
describe_layers (TressBfres *b)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < b->layers->len; i++)
    {
      const BfresLayer *l = &g_array_index (b->layers, BfresLayer, i);

      if (i > 0)
        g_string_append (s, " → ");
      if (l->kind == BFRES_LAYER_YAZ0)
        g_string_append (s, "Yaz0");
      else
        g_string_append_printf (s, "SARC entry “%s”",
                                tress_sarc_get_entry (l->sarc, l->sarc_index)->name);
    }
  return g_string_free (s, FALSE);
}

TressBfres *
tress_bfres_parse (GBytes *bytes, const char *filename, GError **error)
{
  g_autoptr (TressBfres) b = g_new0 (TressBfres, 1);
  g_autoptr (GBytes) inner = NULL;
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_autoptr (GString) path = g_string_sized_new (128);
  g_autoptr (GArray) structs = g_array_new (FALSE, FALSE, sizeof (Span));
  g_autofree guint8 *curve_seen = NULL;
  g_autoptr (GHashTable) cut = g_hash_table_new (NULL, NULL);
  Ctx ctx = { b, NULL, seen, path, 0, 0, structs, NULL, cut };
  const guint8 *d;
  gsize size;
  gboolean ok;
  GString *chain = g_string_new ("");

  b->filename = g_strdup (filename);
  b->file = g_bytes_ref (bytes);
  b->layers = g_array_new (FALSE, TRUE, sizeof (BfresLayer));
  g_array_set_clear_func (b->layers, layer_clear);
  b->anims = g_ptr_array_new_with_free_func (anim_free);
  b->curves = g_array_new (FALSE, FALSE, sizeof (BfresCurve));
  b->strings = g_string_chunk_new (16384);
  b->notes = g_ptr_array_new_with_free_func (g_free);
  b->clashes = g_array_new (FALSE, FALSE, sizeof (BfresClash));
  b->lineage = g_hash_table_new_full (NULL, NULL, NULL, g_free);

  if (!unwrap_containers (b, bytes, &inner, error))
    {
      g_string_free (chain, TRUE);
      return NULL;
    }
  for (guint i = 0; i < b->layers->len; i++)
    g_string_append_printf (
        chain, "%s%s", i ? "/" : "",
        g_array_index (b->layers, BfresLayer, i).kind == BFRES_LAYER_YAZ0 ? "Yaz0" : "SARC");
  b->container = g_string_free (chain, FALSE);
  b->original = g_bytes_ref (inner);
  d = g_bytes_get_data (inner, &size);
  b->d = d;
  b->size = size;
  /* Room for the curves up front (files hold one per few hundred bytes), so
   * that appending them does not copy the array again and again. */
  g_array_set_size (b->curves, (guint)MIN (size / 256, 1u << 20));
  g_array_set_size (b->curves, 0);

  ok = parse_body (&ctx, error);
  curve_seen = ctx.curve_seen; /* freed on return */
  if (!ok)
    {
      if (b->layers->len > 0 && error != NULL && *error != NULL)
        {
          g_autofree char *where = describe_layers (b);

          g_prefix_error (error, "In the BFRES inside %s (offsets count from its start): ", where);
        }
      return NULL;
    }
  find_shared_arrays (b, structs);
  return g_steal_pointer (&b);
}

static gboolean
tress_bfres_curve_index_ok (TressBfres *b, guint index)
{
  return b != NULL && index < b->curves->len;
}

double
tress_bfres_evaluate (TressBfres *b, guint index, double frame)
{
  BfresCurve *c;
  TressBfresCurveType ct;
  guint n, i, per;
  double f0, f1, t, scale, offset;
  gint32 ioff;

  if (!tress_bfres_curve_index_ok (b, index))
    return 0.0;
  c = bfres_curve (b, index);
  ct = bfres_curve_type (c);
  n = c->n_keys;
  {
    float fs, fo;
    memcpy (&fs, &c->scale_bits, 4);
    memcpy (&fo, &c->offset_bits, 4);
    scale = fs;
    offset = fo;
  }
  ioff = (gint32)c->offset_bits;
  if (n == 0)
    return bfres_curve_type_is_float (ct) ? offset : ioff;

  f0 = bfres_frame_at (b, c, 0);
  f1 = bfres_frame_at (b, c, n - 1);
  if (f1 > f0 && (frame < f0 || frame > f1))
    {
      TressWrap wrap = frame < f0 ? (c->flags >> 8) & 3 : (c->flags >> 12) & 3;
      double len = f1 - f0, k = floor ((frame - f0) / len), r = frame - f0 - k * len;
      if (wrap == TRESS_WRAP_REPEAT)
        frame = f0 + r;
      else if (wrap == TRESS_WRAP_MIRROR)
        /* k may be far past any integer (a frame of 1e38): its parity as a double. */
        frame = fmod (k, 2) == 0 ? f0 + r : f1 - r;
      else
        frame = CLAMP (frame, f0, f1);
    }
  else
    frame = CLAMP (frame, f0, f1);

  /* Last key whose frame <= @frame (binary search). */
  {
    guint lo = 0, hi = n - 1;
    while (lo < hi)
      {
        guint mid = (lo + hi + 1) / 2;
        if (bfres_frame_at (b, c, mid) <= frame)
          lo = mid;
        else
          hi = mid - 1;
      }
    i = lo;
  }
  per = bfres_values_per_key (ct);
  if (ct == TRESS_BFRES_CURVE_STEP_INT || ct == TRESS_BFRES_CURVE_BAKED_INT)
    return bfres_elem_at (b, c, i) + ioff;
  if (bfres_curve_type_is_bool (ct))
    return bfres_elem_at (b, c, i);
  if (i + 1 >= n)
    return bfres_elem_at (b, c, i * per) * scale + offset;
  {
    double fa = bfres_frame_at (b, c, i), fb = bfres_frame_at (b, c, i + 1);
    t = fb > fa ? (frame - fa) / (fb - fa) : 0.0;
  }
  if (ct == TRESS_BFRES_CURVE_CUBIC)
    {
      double c0 = bfres_elem_at (b, c, 4 * i), c1 = bfres_elem_at (b, c, 4 * i + 1);
      double c2 = bfres_elem_at (b, c, 4 * i + 2), c3 = bfres_elem_at (b, c, 4 * i + 3);
      return (((c3 * t + c2) * t) * t + (c1 * t + c0)) * scale + offset;
    }
  if (ct == TRESS_BFRES_CURVE_LINEAR)
    return (bfres_elem_at (b, c, 2 * i + 1) * t + bfres_elem_at (b, c, 2 * i)) * scale + offset;
  /* Baked float: straight lines between the per-frame samples. */
  {
    double v0 = bfres_elem_at (b, c, i), v1 = bfres_elem_at (b, c, i + 1);
    return (v0 + (v1 - v0) * t) * scale + offset;
  }
}
