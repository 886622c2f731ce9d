/* tress-bfres-json.c: BFRES as JSON and back (dump and build)
 *
 * The schema is docs/json.md's "BFRES". The dump carries the file exactly:
 * every curve's header fields and raw frame and key elements as numbers
 * (floats to the bit), every other byte (index groups, names, models,
 * textures, sub-files Tress does not model, padding) as base64 at its
 * offset, and each container (Yaz0, SARC) around it. That stored form is
 * read-only: SHA-256 digests tell build whether it was changed, and a
 * change is refused. What build applies are the edits an editor makes: a
 * curve's keys (through the format's set_curve, so a changed value is
 * quantized in the curve's own precision and only the segments at edited
 * keys change) and an animation's frame count (raised only). Everything else
 * (paths, type names, texture names, models, problems) is derived, and
 * checked against what the rebuilt file gives.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-bfres-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "core/tress-yaz0.h"
#include "formats/tress-json-curves.h"
#include "tress-bfres-model.h"

#define BFRES_JSON_VERSION 1

static guint32
float_to_bits (float f)
{
  guint32 bits;
  memcpy (&bits, &f, 4);
  return bits;
}

static gsize
curve_frames_bytes (const BfresCurve *c)
{
  return (gsize)c->n_keys * bfres_frame_size (bfres_curve_frame_type (c));
}

static gsize
curve_keys_bytes (const BfresCurve *c)
{
  TressBfresCurveType ct = bfres_curve_type (c);

  return bfres_curve_type_is_bool (ct) ? ((gsize)c->n_keys + 31) / 32 * 4
                                       : (gsize)c->n_keys * bfres_values_per_key (ct)
                                             * bfres_key_size (bfres_curve_key_type (c));
}

/* 16 hex digits of the SHA-256 of a curve's stored bytes: header, frame
 * array, key array (as they lie in @d). */
static void
curve_digest (const guint8 *d, gsize hs, gsize pos, gsize frames_pos, gsize fb, gsize keys_pos,
              gsize kb, char out[17])
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);

  g_checksum_update (sum, d + pos, (gssize)hs);
  if (fb > 0)
    g_checksum_update (sum, d + frames_pos, (gssize)fb);
  if (kb > 0)
    g_checksum_update (sum, d + keys_pos, (gssize)kb);
  g_strlcpy (out, g_checksum_get_string (sum), 17);
  g_checksum_free (sum);
}

/* One layer of the containers as the JSON describes it. */
typedef struct
{
  gboolean yaz0;
  guint8 reserved[8];
  /* SARC */
  gsize size, entry_start, entry_end;
  guint entry;
  GArray *chunks; /* Chunk */
} Layer;

typedef struct
{
  gsize offset;
  GBytes *bytes;
} Chunk;

/* SHA-256 of the whole stored form: the containers (without the bytes of the
 * entry that holds the next layer) and the BFRES bytes. */
static char *
stored_digest (const Layer *layers, guint n_layers, const guint8 *d, gsize size)
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  char *out;

  for (guint i = 0; i < n_layers; i++)
    {
      const Layer *l = &layers[i];
      guint64 words[4] = { l->size, l->entry, l->entry_start, l->entry_end };

      g_checksum_update (sum, (const guchar *)(l->yaz0 ? "Yaz0" : "SARC"), 4);
      if (l->yaz0)
        {
          g_checksum_update (sum, l->reserved, 8);
          continue;
        }
      for (guint k = 0; k < 4; k++)
        words[k] = GUINT64_TO_LE (words[k]);
      g_checksum_update (sum, (const guchar *)words, sizeof words);
      for (guint k = 0; l->chunks != NULL && k < l->chunks->len; k++)
        {
          const Chunk *c = &g_array_index (l->chunks, Chunk, k);
          guint64 off = GUINT64_TO_LE (c->offset);
          gsize n;
          const guint8 *p = g_bytes_get_data (c->bytes, &n);

          g_checksum_update (sum, (const guchar *)&off, 8);
          g_checksum_update (sum, p, (gssize)n);
        }
    }
  g_checksum_update (sum, (const guchar *)"FRES", 4);
  g_checksum_update (sum, d, (gssize)size);
  out = g_strdup (g_checksum_get_string (sum));
  g_checksum_free (sum);
  return out;
}

static void
chunk_clear (Chunk *c)
{
  g_clear_pointer (&c->bytes, g_bytes_unref);
}

/* An array of Chunks that owns their bytes. */
static GArray *
chunks_new (void)
{
  GArray *chunks = g_array_new (FALSE, TRUE, sizeof (Chunk));

  g_array_set_clear_func (chunks, (GDestroyNotify)chunk_clear);
  return chunks;
}

static void
layer_clear (Layer *l)
{
  g_clear_pointer (&l->chunks, g_array_unref);
  memset (l, 0, sizeof *l);
}

/* The model's containers as Layers (the SARC bytes outside the entry). */
static GArray *
model_layers (TressBfres *b)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (Layer));

  for (guint i = 0; i < b->layers->len; i++)
    {
      const BfresLayer *bl = &g_array_index (b->layers, BfresLayer, i);
      Layer l = { 0 };

      if (bl->kind == BFRES_LAYER_YAZ0)
        {
          l.yaz0 = TRUE;
          memcpy (l.reserved, bl->reserved, 8);
        }
      else
        {
          const TressSarcEntry *e = tress_sarc_get_entry (bl->sarc, bl->sarc_index);
          gsize n;
          const guint8 *d = g_bytes_get_data (bl->bytes, &n);
          Chunk head = { 0, g_bytes_new (d, e->start) };
          Chunk tail = { e->end, g_bytes_new (d + e->end, n - e->end) };

          l.size = n;
          l.entry = bl->sarc_index;
          l.entry_start = e->start;
          l.entry_end = e->end;
          l.chunks = chunks_new ();
          g_array_append_val (l.chunks, head);
          g_array_append_val (l.chunks, tail);
        }
      g_array_append_val (out, l);
    }
  return out;
}

static void
free_layers (GArray *layers)
{
  for (guint i = 0; i < layers->len; i++)
    layer_clear (&g_array_index (layers, Layer, i));
  g_array_unref (layers);
}

/* ---- dump ----------------------------------------------------------------- */

static char *
version_string (guint32 v)
{
  return g_strdup_printf ("%u.%u.%u.%u", v >> 24, (v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF);
}

typedef struct
{
  gsize start, end;
} Range;

static int
range_cmp (gconstpointer x, gconstpointer y)
{
  const Range *a = x, *b = y;
  return a->start < b->start ? -1 : a->start > b->start;
}

/* @ranges sorted, the ones that overlap or touch merged. */
static void
merge_ranges (GArray *ranges)
{
  guint kept = 0;

  g_array_sort (ranges, range_cmp);
  for (guint i = 0; i < ranges->len; i++)
    {
      Range r = g_array_index (ranges, Range, i);

      if (kept > 0 && r.start <= g_array_index (ranges, Range, kept - 1).end)
        {
          Range *last = &g_array_index (ranges, Range, kept - 1);
          last->end = MAX (last->end, r.end);
        }
      else
        g_array_index (ranges, Range, kept++) = r;
    }
  g_array_set_size (ranges, kept);
}

/* What the curves' numbers describe: every header and array, sorted, merged. */
static GArray *
modelled_ranges (TressBfres *b)
{
  GArray *ranges = g_array_sized_new (FALSE, FALSE, sizeof (Range), 3 * b->curves->len + 1);

  for (guint i = 0; i < b->curves->len; i++)
    {
      const BfresCurve *c = bfres_curve (b, i);
      Range h = { c->pos, c->pos + b->curve_header_size };

      g_array_append_val (ranges, h);
      if (c->n_keys > 0)
        {
          Range f = { c->frames_pos, c->frames_pos + curve_frames_bytes (c) };
          Range k = { c->keys_pos, c->keys_pos + curve_keys_bytes (c) };

          g_array_append_val (ranges, f);
          g_array_append_val (ranges, k);
        }
    }
  merge_ranges (ranges);
  return ranges;
}

static void
dump_chunk (TressJsonWriter *w, gsize offset, const guint8 *data, gsize n)
{
  tress_json_begin_object_compact (w);
  tress_json_int_member (w, "offset", (gint64)offset);
  tress_json_base64_member (w, "base64", data, n);
  tress_json_end_object (w);
}

static void
texture_label (TressJsonWriter *w, const TressKey *k, gpointer data)
{
  const BfresAnim *a = data;

  if (k->value >= 0 && k->value < a->n_textures)
    tress_json_string_member (w, "texture", a->textures[(guint)k->value]);
}

static void
dump_curve (TressBfres *b, guint index, TressJsonWriter *w)
{
  BfresCurve *c = bfres_curve (b, index);
  BfresAnim *a = bfres_anim (b, c->anim);
  TressBfresCurveType ct = bfres_curve_type (c);
  TressBfresKeyType kt = bfres_curve_key_type (c);
  guint n_elems = bfres_curve_type_is_bool (ct) ? (c->n_keys + 31u) / 32u
                                                : c->n_keys * bfres_values_per_key (ct);
  g_autoptr (TressCurve) curve = bfres_get_curve (b, index);
  gsize hs = b->curve_header_size;
  char digest[17];

  tress_json_begin_object (w);
  tress_json_int_member (w, "index", index);
  tress_json_string_member (w, "path", c->path);
  tress_json_string_member (w, "curve_type", tress_bfres_curve_type_to_string (ct));
  tress_json_string_member (w, "frame_type",
                            tress_bfres_frame_type_to_string (bfres_curve_frame_type (c)));
  tress_json_string_member (w, "key_type", tress_bfres_key_type_to_string (kt));

  tress_json_keys_member (w, curve, a->textures != NULL ? texture_label : NULL, a);

  /* the stored form */
  tress_json_int_member (w, "offset", (gint64)c->pos);
  tress_json_int_member (w, "flags", c->flags);
  tress_json_int_member (w, "target_offset", c->target);
  tress_json_float_member (w, "start", c->start);
  tress_json_float_member (w, "end", c->end);
  if (bfres_curve_type_is_float (ct))
    {
      tress_json_member (w, "scale");
      tress_json_add_float_bits (w, c->scale_bits);
      tress_json_member (w, "offset_value");
      tress_json_add_float_bits (w, c->offset_bits);
    }
  else
    {
      tress_json_int_member (w, "scale_word", c->scale_bits);
      tress_json_int_member (w, "offset_value", (gint32)c->offset_bits);
    }
  if (hs >= 0x24)
    {
      tress_json_member (w, "delta");
      tress_json_add_float_bits (w, bfres_get_u32 (b, c->pos + 24));
    }
  /* where the arrays are (null: the offset field is 0) */
  for (guint k = 0; k < 2; k++)
    {
      gsize field = c->pos + hs - (k == 0 ? 8 : 4);
      gint32 rel = (gint32)bfres_get_u32 (b, field);

      tress_json_member (w, k == 0 ? "frames_offset" : "keys_offset");
      if (rel == 0)
        tress_json_add_null (w);
      else
        tress_json_add_int (w, (gint64)field + rel);
    }
  tress_json_member (w, "raw_frames");
  tress_json_begin_array_compact (w);
  for (guint i = 0; i < c->n_keys; i++)
    switch (bfres_curve_frame_type (c))
      {
      case TRESS_BFRES_FRAME_F32:
        tress_json_add_float_bits (w, bfres_get_u32 (b, c->frames_pos + 4 * (gsize)i));
        break;
      case TRESS_BFRES_FRAME_S10_5:
        tress_json_add_int (w, (gint16)bfres_get_u16 (b, c->frames_pos + 2 * (gsize)i));
        break;
      default:
        tress_json_add_int (w, b->d[c->frames_pos + i]);
        break;
      }
  tress_json_end_array (w);
  tress_json_member (w, "raw_keys");
  tress_json_begin_array_compact (w);
  for (guint i = 0; i < n_elems; i++)
    if (bfres_curve_type_is_bool (ct))
      tress_json_add_int (w, bfres_get_u32 (b, c->keys_pos + 4 * (gsize)i));
    else if (kt == TRESS_BFRES_KEY_32 && bfres_curve_type_is_float (ct))
      tress_json_add_float_bits (w, bfres_get_u32 (b, c->keys_pos + 4 * (gsize)i));
    else
      tress_json_add_int (w, (gint64)bfres_elem_at (b, c, i));
  tress_json_end_array (w);
  curve_digest (b->d, hs, c->pos, c->frames_pos, c->n_keys > 0 ? curve_frames_bytes (c) : 0,
                c->keys_pos, c->n_keys > 0 ? curve_keys_bytes (c) : 0, digest);
  tress_json_string_member (w, "stored_digest", digest);
  tress_json_end_object (w);
}

void
bfres_dump_json (gpointer model, TressJsonWriter *w)
{
  TressBfres *b = model;
  g_autofree char *ver = version_string (b->version);
  g_autoptr (GArray) ranges = modelled_ranges (b);
  GArray *layers = model_layers (b);
  g_autofree char *digest
      = stored_digest ((const Layer *)(void *)layers->data, layers->len, b->d, b->size);
  gsize pos = 0;

  tress_json_begin_object (w);
  tress_json_string_member (w, "format", "bfres");
  tress_json_int_member (w, "version", BFRES_JSON_VERSION);
  tress_json_string_member (w, "bfres_version", ver);
  tress_json_string_member (w, "name", b->name);
  tress_json_int_member (w, "size", (gint64)b->size);
  tress_json_member (w, "container");
  tress_json_begin_array (w);
  for (guint i = 0; i < layers->len; i++)
    {
      const Layer *l = &g_array_index (layers, Layer, i);

      tress_json_begin_object (w);
      tress_json_string_member (w, "kind", l->yaz0 ? "Yaz0" : "SARC");
      if (l->yaz0)
        tress_json_base64_member (w, "reserved_base64", l->reserved, 8);
      else
        {
          const BfresLayer *bl = &g_array_index (b->layers, BfresLayer, i);

          tress_json_int_member (w, "size", (gint64)l->size);
          tress_json_int_member (w, "entry", l->entry);
          tress_json_string_member (w, "entry_name",
                                    tress_sarc_get_entry (bl->sarc, bl->sarc_index)->name);
          tress_json_int_member (w, "entry_start", (gint64)l->entry_start);
          tress_json_int_member (w, "entry_end", (gint64)l->entry_end);
          tress_json_member (w, "files");
          tress_json_begin_array_compact (w);
          for (guint k = 0; k < tress_sarc_get_n_files (bl->sarc); k++)
            tress_json_add_string (w, tress_sarc_get_entry (bl->sarc, k)->name);
          tress_json_end_array (w);
          tress_json_member (w, "bytes");
          tress_json_begin_array (w);
          for (guint k = 0; k < l->chunks->len; k++)
            {
              const Chunk *c = &g_array_index (l->chunks, Chunk, k);
              gsize n;
              const guint8 *d = g_bytes_get_data (c->bytes, &n);

              dump_chunk (w, c->offset, d, n);
            }
          tress_json_end_array (w);
        }
      tress_json_end_object (w);
    }
  tress_json_end_array (w);
  tress_json_string_member (w, "stored_digest", digest);

  tress_json_member (w, "groups");
  tress_json_begin_array (w);
  for (int g = 0; g < BFRES_N_GROUPS; g++)
    if (b->groups[g].names != NULL)
      {
        tress_json_begin_object_compact (w);
        tress_json_int_member (w, "index", g);
        tress_json_string_member (w, "kind", bfres_group_kind (g));
        tress_json_bool_member (w, "editable", g >= 2 && g <= 8);
        tress_json_member (w, "names");
        tress_json_begin_array_compact (w);
        for (guint i = 0; b->groups[g].names[i]; i++)
          tress_json_add_string (w, b->groups[g].names[i]);
        tress_json_end_array (w);
        tress_json_end_object (w);
      }
  tress_json_end_array (w);

  tress_json_member (w, "animations");
  tress_json_begin_array (w);
  for (guint ai = 0; ai < b->anims->len; ai++)
    {
      BfresAnim *a = bfres_anim (b, ai);

      tress_json_begin_object (w);
      tress_json_string_member (w, "name", a->name);
      tress_json_string_member (w, "kind", a->kind);
      tress_json_int_member (w, "offset", (gint64)a->pos);
      tress_json_int_member (w, "frame_count", a->frame_count);
      tress_json_bool_member (w, "loops", a->loops);
      tress_json_int_member (w, "baked_size", bfres_get_u32 (b, a->baked_size_pos));
      if (a->textures)
        {
          tress_json_member (w, "textures");
          tress_json_begin_array_compact (w);
          for (guint i = 0; a->textures[i]; i++)
            tress_json_add_string (w, a->textures[i]);
          tress_json_end_array (w);
        }
      tress_json_member (w, "curves");
      tress_json_begin_array (w);
      for (guint k = 0; k < a->n_curves; k++)
        dump_curve (b, a->first_curve + k, w);
      tress_json_end_array (w);
      tress_json_end_object (w);
    }
  tress_json_end_array (w);

  /* Every byte the curves do not describe, in one piece per gap. */
  tress_json_member (w, "bytes");
  tress_json_begin_array (w);
  for (guint i = 0; i <= ranges->len; i++)
    {
      gsize end = i < ranges->len ? g_array_index (ranges, Range, i).start : b->size;

      if (end > pos)
        dump_chunk (w, pos, b->d + pos, end - pos);
      if (i < ranges->len)
        pos = MAX (pos, g_array_index (ranges, Range, i).end);
    }
  tress_json_end_array (w);

  tress_bfres_models_dump_bytes (b->d, b->size, w);
  {
    /* the validate pass's problems, summed up per kind */
    g_autoptr (GPtrArray) problems = tress_format_bfres.validate (b);

    tress_problem_list_aggregate (problems);
    tress_json_problems_member (w, "problems", problems);
  }
  tress_json_end_object (w);
  free_layers (layers);
}

/* ---- build ---------------------------------------------------------------- */

/* A raw element: a number, or a float given by its bits. */
typedef struct
{
  double d;
  guint32 bits;
  gboolean is_bits;
} Raw;

typedef struct
{
  char *path; /* JSON Pointer of the curve object */
  gint64 pos;
  guint32 flags, target, scale_word;
  gint64 offset_int;
  float start, end, scale, offset_f, delta;
  gint64 frames_offset, keys_offset; /* -1: null */
  GArray *raw_frames, *raw_keys;     /* Raw */
  char *digest;
  GArray *keys; /* TressJsonKey, or NULL when not given */
  guint64 seen;
  gsize keys_path_len;
  GArray *zeros; /* gsize: where put_curve wrote a float +0 (see find_negative_zeros) */
} CurveIn;

typedef struct
{
  char *path;
  gint64 frame_count;
  gboolean has_frame_count;
  GArray *curves; /* CurveIn */
} AnimIn;

static void
curve_in_clear (gpointer p)
{
  CurveIn *c = p;

  g_free (c->path);
  g_clear_pointer (&c->raw_frames, g_array_unref);
  g_clear_pointer (&c->raw_keys, g_array_unref);
  g_free (c->digest);
  tress_json_keys_free (c->keys);
  g_clear_pointer (&c->zeros, g_array_unref);
}

static void
anim_in_clear (gpointer p)
{
  AnimIn *a = p;

  g_free (a->path);
  g_clear_pointer (&a->curves, g_array_unref);
}

static GArray *
read_raw_array (TressJsonReader *r)
{
  GArray *out;

  if (!tress_json_reader_begin_array (r))
    return NULL;
  out = g_array_new (FALSE, FALSE, sizeof (Raw));
  while (tress_json_reader_next_element (r))
    {
      Raw v = { 0 };

      if (tress_json_reader_peek (r) == TRESS_JSON_STRING)
        {
          float f = 0;

          v.is_bits = tress_json_reader_read_float (r, &f);
          v.bits = float_to_bits (f);
        }
      else
        tress_json_reader_read_double (r, &v.d);
      g_array_append_val (out, v);
    }
  return out;
}

enum
{
  C_OFFSET,
  C_FLAGS,
  C_TARGET,
  C_START,
  C_END,
  C_SCALE,
  C_SCALE_WORD,
  C_OFFSET_VALUE,
  C_DELTA,
  C_FRAMES_OFFSET,
  C_KEYS_OFFSET,
  C_RAW_FRAMES,
  C_RAW_KEYS,
  C_DIGEST,
  C_KEYS,
};

static const char *const curve_names[] = {
  "offset",   "flags",         "target_offset", "start",
  "end",      "scale",         "scale_word",    "offset_value",
  "delta",    "frames_offset", "keys_offset",   "raw_frames",
  "raw_keys", "stored_digest", "keys",          NULL,
};

static gboolean
read_offset_or_null (TressJsonReader *r, gint64 *out)
{
  if (tress_json_reader_peek (r) == TRESS_JSON_NULL)
    {
      tress_json_reader_skip (r);
      *out = -1;
      return TRUE;
    }
  return tress_json_reader_read_int (r, 0, G_MAXUINT32, out);
}

static void
read_curve (TressJsonReader *r, CurveIn *c)
{
  int which;

  memset (c, 0, sizeof *c);
  c->path = tress_json_reader_path (r);
  if (!tress_json_reader_begin_object (r))
    return;
  while ((which = tress_json_reader_next_known (r, curve_names, &c->seen)) != -2)
    switch (which)
      {
      case C_OFFSET:
        tress_json_reader_read_int (r, 0, G_MAXUINT32, &c->pos);
        break;
      case C_FLAGS:
        {
          gint64 v = 0;
          tress_json_reader_read_int (r, 0, G_MAXUINT16, &v);
          c->flags = (guint32)v;
          break;
        }
      case C_TARGET:
        tress_json_reader_read_u32 (r, &c->target);
        break;
      case C_START:
        tress_json_reader_read_float (r, &c->start);
        break;
      case C_END:
        tress_json_reader_read_float (r, &c->end);
        break;
      case C_SCALE:
        tress_json_reader_read_float (r, &c->scale);
        break;
      case C_SCALE_WORD:
        tress_json_reader_read_u32 (r, &c->scale_word);
        break;
      case C_OFFSET_VALUE:
        if (tress_json_reader_peek (r) == TRESS_JSON_STRING)
          tress_json_reader_read_float (r, &c->offset_f);
        else
          {
            double d = 0;
            /* a float (float curves) or an s32 (int curves): which is known
             * from the flags, read later */
            if (tress_json_reader_read_double (r, &d))
              {
                c->offset_f = (float)d;
                c->offset_int
                    = d >= G_MININT32 && d <= G_MAXINT32 && d == trunc (d) ? (gint64)d : G_MININT64;
              }
          }
        break;
      case C_DELTA:
        tress_json_reader_read_float (r, &c->delta);
        break;
      case C_FRAMES_OFFSET:
        read_offset_or_null (r, &c->frames_offset);
        break;
      case C_KEYS_OFFSET:
        read_offset_or_null (r, &c->keys_offset);
        break;
      case C_RAW_FRAMES:
        c->raw_frames = read_raw_array (r);
        break;
      case C_RAW_KEYS:
        c->raw_keys = read_raw_array (r);
        break;
      case C_DIGEST:
        c->digest = tress_json_reader_read_string (r);
        break;
      case C_KEYS:
        c->keys = tress_json_read_keys (r, "texture");
        break;
      default:
        tress_json_reader_keep_unknown (r);
        break;
      }
  tress_json_reader_note_missing (r, curve_names, 1u << C_KEYS, c->seen, c->path,
                                  "the curve's keys stay as stored");
}

static const char *const anim_names[] = { "frame_count", "curves", NULL };

static void
read_anim (TressJsonReader *r, AnimIn *a)
{
  guint64 seen = 0;
  int which;

  memset (a, 0, sizeof *a);
  a->path = tress_json_reader_path (r);
  a->curves = g_array_new (FALSE, TRUE, sizeof (CurveIn));
  g_array_set_clear_func (a->curves, curve_in_clear);
  if (!tress_json_reader_begin_object (r))
    return;
  while ((which = tress_json_reader_next_known (r, anim_names, &seen)) != -2)
    if (which == 0)
      a->has_frame_count = tress_json_reader_read_int (r, 0, G_MAXINT32, &a->frame_count);
    else if (which == 1)
      {
        if (tress_json_reader_begin_array (r))
          while (tress_json_reader_next_element (r))
            {
              CurveIn c;

              read_curve (r, &c);
              g_array_append_val (a->curves, c);
            }
      }
    else
      tress_json_reader_keep_unknown (r);
  tress_json_reader_require (r, anim_names, 2, seen, a->path);
  tress_json_reader_note_missing (r, anim_names, 1, seen, a->path,
                                  "the animation keeps its frame count");
}

static GArray *
read_chunks (TressJsonReader *r)
{
  static const char *const names[] = { "offset", "base64", NULL };
  GArray *chunks;

  if (!tress_json_reader_begin_array (r))
    return NULL;
  chunks = chunks_new ();
  while (tress_json_reader_next_element (r))
    {
      Chunk c = { 0, NULL };
      g_autofree char *path = tress_json_reader_path (r);
      guint64 seen = 0;
      gint64 off = 0;
      int which;

      if (tress_json_reader_begin_object (r))
        while ((which = tress_json_reader_next_known (r, names, &seen)) != -2)
          {
            if (which == 0)
              tress_json_reader_read_int (r, 0, G_MAXUINT32, &off);
            else if (which == 1)
              c.bytes = tress_json_reader_read_base64 (r, 0);
            else
              tress_json_reader_keep_unknown (r);
          }
      tress_json_reader_require (r, names, 3, seen, path);
      c.offset = (gsize)off;
      if (c.bytes == NULL)
        c.bytes = g_bytes_new (NULL, 0);
      g_array_append_val (chunks, c);
    }
  return chunks;
}

/* A SARC layer's pieces, read-only as the rest: the archive's bytes before
 * the BFRES entry and after it, the two pieces dump writes. */
static void
check_archive_pieces (TressJsonReader *r, const Layer *l, const char *path)
{
  const Range want[2] = { { 0, l->entry_start }, { l->entry_end, l->size } };

  if (l->entry_start > l->entry_end || l->entry_end > l->size)
    {
      tress_json_reader_refuse_at (r, path,
                                   "the entry from %" G_GSIZE_FORMAT " to %" G_GSIZE_FORMAT
                                   " is not inside the %" G_GSIZE_FORMAT " bytes of the archive",
                                   l->entry_start, l->entry_end, l->size);
      return;
    }
  for (guint k = 0; k < MAX (l->chunks->len, 2); k++)
    {
      g_autofree char *p = g_strdup_printf ("%s/bytes/%u", path, k);
      const Chunk *c = k < l->chunks->len ? &g_array_index (l->chunks, Chunk, k) : NULL;
      gsize n = c != NULL ? g_bytes_get_size (c->bytes) : 0;

      if (k >= 2)
        tress_json_reader_refuse_at (r, p,
                                     "the archive's bytes outside the BFRES are two pieces, "
                                     "before and after its entry (read-only, as dumped)");
      else if (c == NULL)
        tress_json_reader_refuse_at (r, p,
                                     "the archive's bytes from offset %" G_GSIZE_FORMAT
                                     " to %" G_GSIZE_FORMAT " are missing (read-only, as "
                                     "dumped)",
                                     want[k].start, want[k].end);
      else if (c->offset != want[k].start || c->offset + n != want[k].end)
        tress_json_reader_refuse_at (
            r, p,
            "%" G_GSIZE_FORMAT " bytes at offset %" G_GSIZE_FORMAT
            ", where the archive's bytes %s its BFRES entry are %" G_GSIZE_FORMAT
            " at offset %" G_GSIZE_FORMAT " (read-only, as dumped; or \"entry_start\", "
            "\"entry_end\" or \"size\" were changed)",
            n, c->offset, k == 0 ? "before" : "after", want[k].end - want[k].start, want[k].start);
    }
}

static void
read_layer (TressJsonReader *r, Layer *l)
{
  static const char *const names[]
      = { "kind", "reserved_base64", "size", "entry", "entry_start", "entry_end", "bytes", NULL };
  g_autofree char *path = tress_json_reader_path (r);
  guint64 seen = 0;
  gboolean known_kind = FALSE;
  gint64 v;
  int which;

  memset (l, 0, sizeof *l);
  if (!tress_json_reader_begin_object (r))
    return;
  while ((which = tress_json_reader_next_known (r, names, &seen)) != -2)
    switch (which)
      {
      case 0:
        {
          g_autofree char *kind = tress_json_reader_read_string (r);

          known_kind = g_strcmp0 (kind, "Yaz0") == 0 || g_strcmp0 (kind, "SARC") == 0;
          if (g_strcmp0 (kind, "Yaz0") == 0)
            l->yaz0 = TRUE;
          else if (kind != NULL && !known_kind)
            {
              g_autofree char *q = tress_json_quote (kind, -1);
              tress_json_reader_refuse (r, "expected \"Yaz0\" or \"SARC\", found %s", q);
            }
          break;
        }
      case 1:
        {
          g_autoptr (GBytes) res = tress_json_reader_read_base64 (r, 8);

          if (res != NULL && g_bytes_get_size (res) != 8)
            tress_json_reader_refuse (r, "expected 8 bytes, found %" G_GSIZE_FORMAT,
                                      g_bytes_get_size (res));
          else if (res != NULL)
            memcpy (l->reserved, g_bytes_get_data (res, NULL), 8);
          break;
        }
      case 2:
        if (tress_json_reader_read_int (r, 0, G_MAXUINT32, &v))
          l->size = (gsize)v;
        break;
      case 3:
        if (tress_json_reader_read_int (r, 0, G_MAXUINT16, &v))
          l->entry = (guint)v;
        break;
      case 4:
        if (tress_json_reader_read_int (r, 0, G_MAXUINT32, &v))
          l->entry_start = (gsize)v;
        break;
      case 5:
        if (tress_json_reader_read_int (r, 0, G_MAXUINT32, &v))
          l->entry_end = (gsize)v;
        break;
      case 6:
        l->chunks = read_chunks (r);
        break;
      default:
        tress_json_reader_keep_unknown (r);
        break;
      }
  if (!tress_json_reader_require (r, names, 1, seen, path))
    return;
  /* (what else a container needs follows from its kind) */
  if (known_kind && tress_json_reader_require (r, names, l->yaz0 ? 3 : 0x7D, seen, path) && !l->yaz0
      && l->chunks != NULL)
    check_archive_pieces (r, l, path);
  if (l->chunks == NULL && !l->yaz0)
    l->chunks = chunks_new ();
}

/* ---- putting the stored form together ---- */

static void
put16 (guint8 *p, guint16 v)
{
  p[0] = v >> 8, p[1] = v & 0xFF;
}

static void
put32 (guint8 *p, guint32 v)
{
  p[0] = v >> 24, p[1] = (v >> 16) & 0xFF, p[2] = (v >> 8) & 0xFF, p[3] = v & 0xFF;
}

static gboolean
raw_int (TressJsonReader *r, const char *path, const char *member, guint i, const Raw *v,
         gint64 min, gint64 max, gint64 *out)
{
  if (!v->is_bits && v->d == trunc (v->d) && v->d >= (double)min && v->d <= (double)max)
    {
      *out = (gint64)v->d;
      return TRUE;
    }
  {
    g_autofree char *p = g_strdup_printf ("%s/%s/%u", path, member, i);
    return tress_json_reader_refuse_at (r, p,
                                        "expected a whole number from %" G_GINT64_FORMAT
                                        " to %" G_GINT64_FORMAT " for this curve's type",
                                        min, max);
  }
}

static guint32
raw_float (const Raw *v)
{
  return v->is_bits ? v->bits : float_to_bits ((float)v->d);
}

static gboolean
check_span (TressJsonReader *r, const char *path, gsize offset, gsize n, gsize size,
            const char *what)
{
  if (offset <= size && n <= size - offset)
    return TRUE;
  return tress_json_reader_refuse_at (r, path,
                                      "%s of %" G_GSIZE_FORMAT " bytes at offset %" G_GSIZE_FORMAT
                                      " does not fit the %" G_GSIZE_FORMAT " bytes of the file",
                                      what, n, offset, size);
}

/* A float of the curve at @at of @d; a +0 is noted (find_negative_zeros). */
static void
put_float (CurveIn *c, guint8 *d, gsize at, guint32 bits)
{
  put32 (d + at, bits);
  if (bits != 0)
    return;
  if (c->zeros == NULL)
    c->zeros = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_array_append_val (c->zeros, at);
}

/* Writes a curve's stored members into @d; FALSE (refused) when they do not fit. */
static gboolean
put_curve (TressJsonReader *r, CurveIn *c, guint8 *d, gsize size, gsize hs)
{
  guint ft = c->flags & 3, kt = (c->flags >> 2) & 3, ct = (c->flags >> 4) & 7;
  guint n = c->raw_frames != NULL ? c->raw_frames->len : 0;
  gboolean is_bool = bfres_curve_type_is_bool (ct), is_float = bfres_curve_type_is_float (ct);
  guint n_elems;
  gsize pos = (gsize)c->pos;
  guint8 *p;

  if (ft == 3 || kt == 3 || ct == 3)
    {
      g_autofree char *fp = g_strconcat (c->path, "/flags", NULL);
      return tress_json_reader_refuse_at (r, fp,
                                          "frame type 0-2, key type 0-2 and curve type 0-2 or "
                                          "4-7, found 0x%04x",
                                          c->flags);
    }
  if (n > G_MAXUINT16)
    {
      g_autofree char *fp = g_strconcat (c->path, "/raw_frames", NULL);
      return tress_json_reader_refuse_at (r, fp, "%u frames; a curve holds at most 65,535 keys", n);
    }
  n_elems = is_bool ? (n + 31) / 32 : n * bfres_values_per_key (ct);
  if ((c->raw_keys != NULL ? c->raw_keys->len : 0) != n_elems)
    {
      g_autofree char *fp = g_strconcat (c->path, "/raw_keys", NULL);
      return tress_json_reader_refuse_at (r, fp,
                                          "%u frames of this curve type need %u key elements, "
                                          "found %u",
                                          n, n_elems, c->raw_keys != NULL ? c->raw_keys->len : 0);
    }
  if (!check_span (r, c->path, pos, hs, size, "the curve header"))
    return FALSE;
  p = d + pos;
  put16 (p, (guint16)c->flags);
  put16 (p + 2, (guint16)n);
  put32 (p + 4, c->target);
  put_float (c, d, pos + 8, float_to_bits (c->start));
  put_float (c, d, pos + 12, float_to_bits (c->end));
  if (is_float)
    {
      put_float (c, d, pos + 16, float_to_bits (c->scale));
      put_float (c, d, pos + 20, float_to_bits (c->offset_f));
    }
  else
    {
      if (c->offset_int == G_MININT64)
        {
          g_autofree char *fp = g_strconcat (c->path, "/offset_value", NULL);
          return tress_json_reader_refuse_at (r, fp,
                                              "an int or bool curve's offset is a whole number");
        }
      put32 (p + 16, c->scale_word);
      put32 (p + 20, (guint32)(gint32)c->offset_int);
    }
  if (hs >= 0x24)
    put_float (c, d, pos + 24, float_to_bits (c->delta));
  {
    gint64 fr = c->frames_offset < 0 ? 0 : c->frames_offset - (gint64)(pos + hs - 8);
    gint64 kr = c->keys_offset < 0 ? 0 : c->keys_offset - (gint64)(pos + hs - 4);

    /* an offset that points at its own field would be read as null */
    if (fr == 0 && c->frames_offset >= 0)
      fr = G_MAXINT64;
    if (kr == 0 && c->keys_offset >= 0)
      kr = G_MAXINT64;
    if (fr < G_MININT32 || fr > G_MAXINT32 || kr < G_MININT32 || kr > G_MAXINT32)
      return tress_json_reader_refuse_at (r, c->path,
                                          "an array offset the curve's header cannot point to");
    put32 (p + hs - 8, (guint32)(gint32)fr);
    put32 (p + hs - 4, (guint32)(gint32)kr);
  }
  /* what the header of this curve type holds */
  if (!tress_json_reader_require (r, curve_names,
                                  (1u << (is_float ? C_SCALE : C_SCALE_WORD))
                                      | (1u << C_OFFSET_VALUE) | (hs >= 0x24 ? 1u << C_DELTA : 0),
                                  c->seen, c->path))
    return FALSE;
  if (n == 0)
    return TRUE;
  if (c->frames_offset < 0 || c->keys_offset < 0)
    return tress_json_reader_refuse_at (r, c->path,
                                        "a curve with keys needs \"frames_offset\" and "
                                        "\"keys_offset\"");
  if (!check_span (r, c->path, (gsize)c->frames_offset, n * bfres_frame_size (ft), size,
                   "the frame array")
      || !check_span (r, c->path, (gsize)c->keys_offset,
                      is_bool ? n_elems * 4 : n_elems * bfres_key_size (kt), size, "the key array"))
    return FALSE;
  p = d + c->frames_offset;
  for (guint i = 0; i < n; i++)
    {
      const Raw *v = &g_array_index (c->raw_frames, Raw, i);
      gint64 x;

      if (ft == TRESS_BFRES_FRAME_F32)
        put_float (c, d, (gsize)c->frames_offset + 4 * (gsize)i, raw_float (v));
      else if (ft == TRESS_BFRES_FRAME_S10_5)
        {
          if (!raw_int (r, c->path, "raw_frames", i, v, G_MININT16, G_MAXINT16, &x))
            return FALSE;
          put16 (p + 2 * i, (guint16)(gint16)x);
        }
      else
        {
          if (!raw_int (r, c->path, "raw_frames", i, v, 0, 255, &x))
            return FALSE;
          p[i] = (guint8)x;
        }
    }
  p = d + c->keys_offset;
  for (guint i = 0; i < n_elems; i++)
    {
      const Raw *v = &g_array_index (c->raw_keys, Raw, i);
      gint64 x;

      if (is_bool)
        {
          if (!raw_int (r, c->path, "raw_keys", i, v, 0, G_MAXUINT32, &x))
            return FALSE;
          put32 (p + 4 * i, (guint32)x);
        }
      else if (kt == TRESS_BFRES_KEY_32 && is_float)
        put_float (c, d, (gsize)c->keys_offset + 4 * (gsize)i, raw_float (v));
      else if (kt == TRESS_BFRES_KEY_32)
        {
          if (!raw_int (r, c->path, "raw_keys", i, v, G_MININT32, G_MAXINT32, &x))
            return FALSE;
          put32 (p + 4 * i, (guint32)(gint32)x);
        }
      else if (kt == TRESS_BFRES_KEY_S16)
        {
          if (!raw_int (r, c->path, "raw_keys", i, v, G_MININT16, G_MAXINT16, &x))
            return FALSE;
          put16 (p + 2 * i, (guint16)(gint16)x);
        }
      else
        {
          if (!raw_int (r, c->path, "raw_keys", i, v, G_MININT8, G_MAXINT8, &x))
            return FALSE;
          p[i] = (guint8)(gint8)x;
        }
    }
  return TRUE;
}

/* The bytes outside the curves, read-only as the rest: one piece a gap
 * between the curves' headers and arrays (in @ranges, merged), as dump
 * writes them. A piece emptied, cut, moved or left out is refused at its
 * pointer (a piece of zeros emptied would leave the digest as it was).
 * @pieces: each piece's Range, in the text's order; @prefix: "/bytes";
 * @what the pieces are, @hint what else may have moved them. */
static gboolean
check_pieces (TressJsonReader *r, GArray *ranges, GArray *pieces, gsize size, const char *prefix,
              const char *what, const char *hint)
{
  guint i = 0, j = 0, n_gaps = 0;
  gsize pos = 0;
  gboolean ok = TRUE;
  g_autoptr (GArray) gaps = g_array_new (FALSE, FALSE, sizeof (Range));

  for (guint k = 0; k <= ranges->len; k++)
    {
      gsize end = k < ranges->len ? g_array_index (ranges, Range, k).start : size;

      if (end > pos)
        {
          Range g = { pos, end };
          g_array_append_val (gaps, g);
        }
      if (k < ranges->len)
        pos = MAX (pos, g_array_index (ranges, Range, k).end);
    }
  n_gaps = gaps->len;
  while (i < n_gaps || j < pieces->len)
    {
      /* (past the last one: a start after every offset) */
      const Range none = { G_MAXSIZE, G_MAXSIZE };
      Range g = i < n_gaps ? g_array_index (gaps, Range, i) : none;
      Range p = j < pieces->len ? g_array_index (pieces, Range, j) : none;
      g_autofree char *path
          = j < pieces->len ? g_strdup_printf ("%s/%u", prefix, j) : g_strdup (prefix);

      if (p.start == g.start)
        {
          if (p.end != g.end)
            {
              g_autofree char *b64 = g_strconcat (path, "/base64", NULL);

              ok = tress_json_reader_refuse_at (
                  r, b64,
                  "%" G_GSIZE_FORMAT " bytes, where the %s from offset %" G_GSIZE_FORMAT
                  " to %" G_GSIZE_FORMAT " are %" G_GSIZE_FORMAT " (read-only, as dumped; %s)",
                  p.end - p.start, what, g.start, g.end, g.end - g.start, hint);
            }
          i++, j++;
        }
      else if (p.start > g.start)
        {
          ok = tress_json_reader_refuse_at (
              r, path,
              "the %s from offset %" G_GSIZE_FORMAT " to %" G_GSIZE_FORMAT " (%" G_GSIZE_FORMAT
              " bytes) are missing %s (read-only, as dumped; %s)",
              what, g.start, g.end, g.end - g.start,
              j < pieces->len ? "before this piece" : "at the end", hint);
          i++;
        }
      else
        {
          g_autofree char *off = g_strconcat (path, "/offset", NULL);

          ok = tress_json_reader_refuse_at (
              r, off,
              "%" G_GSIZE_FORMAT " is where no piece of the %s starts (read-only, as dumped; %s)",
              p.start, what, hint);
          j++;
        }
    }
  return ok;
}

/* The headers and arrays of the curves the JSON gives (put together without
 * a refusal), merged. */
static GArray *
curve_ranges (GArray *anims, gsize hs)
{
  GArray *ranges = g_array_new (FALSE, FALSE, sizeof (Range));

  for (guint ai = 0; ai < anims->len; ai++)
    {
      AnimIn *a = &g_array_index (anims, AnimIn, ai);

      for (guint k = 0; k < a->curves->len; k++)
        {
          const CurveIn *c = &g_array_index (a->curves, CurveIn, k);
          guint ft = c->flags & 3, kt = (c->flags >> 2) & 3, ct = (c->flags >> 4) & 7;
          gsize n = c->raw_frames->len;
          Range h = { (gsize)c->pos, (gsize)c->pos + hs };

          g_array_append_val (ranges, h);
          if (n > 0)
            {
              Range f = { (gsize)c->frames_offset,
                          (gsize)c->frames_offset + n * bfres_frame_size (ft) };
              Range kr = { (gsize)c->keys_offset,
                           (gsize)c->keys_offset
                               + (bfres_curve_type_is_bool (ct)
                                      ? (n + 31) / 32 * 4
                                      : n * bfres_values_per_key (ct) * bfres_key_size (kt)) };

              g_array_append_val (ranges, f);
              g_array_append_val (ranges, kr);
            }
        }
    }
  merge_ranges (ranges);
  return ranges;
}

/* The digest of a curve's stored form as put together in @d. */
static void
curve_in_digest (const guint8 *d, gsize hs, const CurveIn *c, char out[17])
{
  guint ft = c->flags & 3, kt = (c->flags >> 2) & 3, ct = (c->flags >> 4) & 7;
  guint n = c->raw_frames->len;
  gsize fb = (gsize)n * bfres_frame_size (ft);
  gsize kb = bfres_curve_type_is_bool (ct)
                 ? ((gsize)n + 31) / 32 * 4
                 : (gsize)n * bfres_values_per_key (ct) * bfres_key_size (kt);

  curve_digest (d, hs, (gsize)c->pos, (gsize)MAX (c->frames_offset, 0), n ? fb : 0,
                (gsize)MAX (c->keys_offset, 0), n ? kb : 0, out);
}

typedef struct
{
  guint8 *d;
  gsize hs;
  const CurveIn *c;
} ZeroSearch;

static void
flip_zero (gpointer data, guint i, gboolean negative)
{
  ZeroSearch *z = data;

  /* big-endian: the sign is the first byte's top bit */
  z->d[g_array_index (z->c->zeros, gsize, i)] = negative ? 0x80 : 0x00;
}

static gboolean
digest_is_dumped (gpointer data)
{
  ZeroSearch *z = data;
  char mine[17];

  curve_in_digest (z->d, z->hs, z->c, mine);
  return g_strcmp0 (mine, z->c->digest) == 0;
}

/* A curve whose stored form is not the one dumped: whether it is, with some
 * of its zeros negative (tress_json_find_negative_zeros). Noted when so. */
static gboolean
restore_negative_zeros (TressJsonReader *r, guint8 *d, gsize hs, const CurveIn *c, gsize *budget)
{
  ZeroSearch z = { d, hs, c };
  guint n = 0;

  if (c->zeros == NULL || c->digest == NULL || c->raw_frames == NULL || digest_is_dumped (&z))
    return FALSE;
  if (!tress_json_find_negative_zeros (c->zeros->len, flip_zero, digest_is_dumped, &z,
                                       hs + 4 * (gsize)c->raw_frames->len
                                           + 4 * (gsize)(c->raw_keys ? c->raw_keys->len : 0),
                                       budget))
    return FALSE;
  for (guint i = 0; i < c->zeros->len; i++)
    n += d[g_array_index (c->zeros, gsize, i)] == 0x80;
  tress_json_reader_note_at (r, c->path,
                             "%u zero%s given as 0 kept negative, as stored (a tool dropped the "
                             "sign of zero)",
                             n, n == 1 ? "" : "s");
  return TRUE;
}

static const char *
hint_for (const char *name)
{
  if (g_str_equal (name, "path") || g_str_equal (name, "name") || g_str_equal (name, "kind"))
    return "names are read from the file's string pool and index groups";
  if (g_str_equal (name, "curve_type") || g_str_equal (name, "frame_type")
      || g_str_equal (name, "key_type"))
    return "the types follow from \"flags\", which is read-only (the editor widens types on "
           "request)";
  if (g_str_equal (name, "baked_size"))
    return "it is recomputed from the curves when keys change";
  return NULL;
}

/* ---- the edits ---- */

/* A texture name given with a key: the value follows it when only the name
 * was changed; a name that does not match the value is refused otherwise. */
static gboolean
resolve_texture (TressJsonReader *r, const char *key_path, TressJsonKey *j, const TressKey *was,
                 gpointer data)
{
  BfresAnim *a = data;
  g_autofree char *p = NULL;
  const char *named;

  if (j->extra == NULL)
    return TRUE;
  p = g_strconcat (key_path, "/texture", NULL);
  if (a->textures == NULL)
    return tress_json_reader_refuse_at (r, p, "this curve's animation has no textures");
  named = was != NULL && was->value >= 0 && was->value < a->n_textures
              ? a->textures[(guint)was->value]
              : NULL;
  if (was != NULL && g_strcmp0 (named, j->extra) != 0 && (!j->has_value || j->value == was->value))
    {
      /* the name changed, the value did not: the value follows the name */
      for (guint t = 0; t < a->n_textures; t++)
        if (g_str_equal (a->textures[t], j->extra))
          {
            j->value = t;
            j->has_value = TRUE;
            return TRUE;
          }
      {
        g_autofree char *q = tress_json_quote (j->extra, -1);
        return tress_json_reader_refuse_at (r, p, "%s is not among the animation's textures", q);
      }
    }
  {
    double v = j->has_value ? j->value : was != NULL ? was->value : -1;
    const char *wanted
        = v >= 0 && v < a->n_textures && v == trunc (v) ? a->textures[(guint)v] : NULL;

    if (g_strcmp0 (wanted, j->extra) != 0)
      {
        g_autofree char *q = tress_json_quote (j->extra, -1);
        return tress_json_reader_refuse_at (r, p,
                                            "%s is not texture %g (%s); the texture follows "
                                            "from the value: change one of the two",
                                            q, v, wanted != NULL ? wanted : "none");
      }
  }
  return TRUE;
}

static gboolean
apply_edits (TressJsonReader *r, TressBfres *b, GArray *anims, guint *n_edits)
{
  const TressCurveOps *ops = tress_format_bfres.curves;
  gboolean ok = TRUE;

  for (guint ai = 0; ai < anims->len; ai++)
    {
      AnimIn *ain = &g_array_index (anims, AnimIn, ai);
      BfresAnim *a = bfres_anim (b, ai);

      if (ain->has_frame_count && ain->frame_count != a->frame_count)
        {
          g_autoptr (GError) error = NULL;
          g_autofree char *p = g_strconcat (ain->path, "/frame_count", NULL);

          if (ain->frame_count < a->frame_count)
            ok = tress_json_reader_refuse_at (r, p,
                                              "%" G_GINT64_FORMAT " is shorter than the %d frames "
                                              "the animation has; an edit only lengthens an "
                                              "animation",
                                              ain->frame_count, a->frame_count);
          else if (a->n_curves == 0)
            ok = tress_json_reader_refuse_at (r, p, "an animation without curves keeps its length");
          else if (!ops->set_frame_count (b, a->first_curve, (double)ain->frame_count, &error))
            ok = tress_json_reader_refuse_at (r, p, "%s", error->message);
          else
            (*n_edits)++;
        }
    }
  for (guint ai = 0; ai < anims->len; ai++)
    {
      AnimIn *ain = &g_array_index (anims, AnimIn, ai);
      BfresAnim *a = bfres_anim (b, ai);
      g_autofree char *fc_path = g_strconcat (ain->path, "/frame_count", NULL);

      for (guint k = 0; k < ain->curves->len; k++)
        {
          CurveIn *ci = &g_array_index (ain->curves, CurveIn, k);
          g_autofree char *keys_path = g_strconcat (ci->path, "/keys", NULL);
          gboolean edited = FALSE;

          if (ci->keys == NULL)
            continue;
          if (!tress_json_apply_keys (r, ops, b, a->first_curve + k, keys_path, ci->keys,
                                      resolve_texture, a, fc_path, &edited))
            ok = FALSE;
          *n_edits += edited;
        }
    }
  return ok;
}

enum
{
  T_FORMAT,
  T_VERSION,
  T_SIZE,
  T_CONTAINER,
  T_DIGEST,
  T_ANIMATIONS,
  T_BYTES,
};

static const char *const top_names[] = {
  "format", "version", "size", "container", "stored_digest", "animations", "bytes", NULL,
};

gboolean
bfres_build_json (TressJsonReader *r, TressJsonBuild *out)
{
  g_autoptr (GArray) anims = g_array_new (FALSE, TRUE, sizeof (AnimIn));
  g_autoptr (GArray) layers = g_array_new (FALSE, TRUE, sizeof (Layer));
  g_autoptr (GArray) chunks = NULL;
  g_autoptr (GArray) pieces = NULL;
  g_autofree char *digest = NULL, *actual = NULL;
  g_autofree guint8 *d = NULL;
  g_autoptr (GBytes) cur = NULL;
  g_autoptr (TressBfres) b = NULL;
  g_autoptr (GError) error = NULL;
  gint64 size = 0;
  guint64 seen = 0;
  int which;
  gsize hs;
  guint n_edits = 0;
  gboolean ok = TRUE;

  g_array_set_clear_func (anims, anim_in_clear);
  g_array_set_clear_func (layers, (GDestroyNotify)layer_clear);
  if (tress_json_reader_begin_object (r))
    while ((which = tress_json_reader_next_known (r, top_names, &seen)) != -2)
      switch (which)
        {
        case T_FORMAT:
          tress_json_reader_check_format (r, "bfres");
          break;
        case T_VERSION:
          tress_json_reader_check_version (r, BFRES_JSON_VERSION, "BFRES");
          break;
        case T_SIZE:
          tress_json_reader_read_int (r, 0x6C, 512 * 1024 * 1024, &size);
          break;
        case T_CONTAINER:
          if (tress_json_reader_begin_array (r))
            while (tress_json_reader_next_element (r))
              {
                Layer l;

                if (layers->len >= 4)
                  {
                    tress_json_reader_refuse (r, "at most 4 containers nest around a BFRES");
                    tress_json_reader_skip (r);
                    continue;
                  }
                read_layer (r, &l);
                g_array_append_val (layers, l);
              }
          break;
        case T_DIGEST:
          digest = tress_json_reader_read_string (r);
          break;
        case T_ANIMATIONS:
          if (tress_json_reader_begin_array (r))
            while (tress_json_reader_next_element (r))
              {
                AnimIn a;

                read_anim (r, &a);
                g_array_append_val (anims, a);
              }
          break;
        case T_BYTES:
          chunks = read_chunks (r);
          break;
        default:
          tress_json_reader_keep_unknown (r);
          break;
        }
  tress_json_reader_require (r, top_names, 0x7F, seen, "");
  if (!tress_json_reader_ok (r) || tress_json_reader_n_errors (r) > 0 || chunks == NULL)
    return FALSE;

  /* The stored form, put together (each piece's bytes given back once copied). */
  d = g_malloc0 ((gsize)size);
  pieces = g_array_sized_new (FALSE, FALSE, sizeof (Range), chunks->len);
  for (guint i = 0; i < chunks->len; i++)
    {
      Chunk *c = &g_array_index (chunks, Chunk, i);
      gsize n;
      const guint8 *p = g_bytes_get_data (c->bytes, &n);
      g_autofree char *path = g_strdup_printf ("/bytes/%u", i);
      Range piece = { c->offset, c->offset + n };

      if (check_span (r, path, c->offset, n, (gsize)size, "the bytes") && n > 0)
        memcpy (d + c->offset, p, n);
      g_array_append_val (pieces, piece);
      g_clear_pointer (&c->bytes, g_bytes_unref);
    }
  g_clear_pointer (&chunks, g_array_unref);
  hs = size >= 8 && tress_get_u32 (d + 4, TRESS_BIG_ENDIAN) >= BFRES_V3_4 ? 0x24 : 0x20;
  for (guint ai = 0; ai < anims->len; ai++)
    {
      AnimIn *a = &g_array_index (anims, AnimIn, ai);

      for (guint k = 0; k < a->curves->len; k++)
        {
          CurveIn *c = &g_array_index (a->curves, CurveIn, k);

          if (!tress_json_reader_require (
                  r, curve_names,
                  (1u << C_OFFSET) | (1u << C_FLAGS) | (1u << C_TARGET) | (1u << C_START)
                      | (1u << C_END) | (1u << C_FRAMES_OFFSET) | (1u << C_KEYS_OFFSET)
                      | (1u << C_RAW_FRAMES) | (1u << C_RAW_KEYS) | (1u << C_DIGEST),
                  c->seen, c->path)
              || c->raw_frames == NULL || c->raw_keys == NULL)
            continue;
          put_curve (r, c, d, (gsize)size, hs);
        }
    }
  if (tress_json_reader_n_errors (r) > 0)
    return FALSE;
  {
    g_autoptr (GArray) ranges = curve_ranges (anims, hs);

    if (!check_pieces (r, ranges, pieces, (gsize)size, "/bytes", "bytes outside the curves",
                       "or a curve's offsets, or \"size\", were changed"))
      return FALSE;
  }

  /* Read-only: the stored form must be what the dump wrote; a negative zero
   * a tool wrote back as 0 is the same value, and keeps its bits. */
  actual = stored_digest ((const Layer *)(void *)layers->data, layers->len, d, (gsize)size);
  if (g_strcmp0 (actual, digest) != 0)
    {
      gsize budget = TRESS_JSON_ZERO_BUDGET;
      gboolean restored = FALSE;

      for (guint ai = 0; ai < anims->len; ai++)
        {
          AnimIn *a = &g_array_index (anims, AnimIn, ai);

          for (guint k = 0; k < a->curves->len; k++)
            restored |= restore_negative_zeros (r, d, hs, &g_array_index (a->curves, CurveIn, k),
                                                &budget);
        }
      if (restored)
        {
          g_free (actual);
          actual = stored_digest ((const Layer *)(void *)layers->data, layers->len, d, (gsize)size);
        }
    }
  if (g_strcmp0 (actual, digest) != 0)
    {
      gboolean named = FALSE;

      for (guint ai = 0; ai < anims->len; ai++)
        {
          AnimIn *a = &g_array_index (anims, AnimIn, ai);

          for (guint k = 0; k < a->curves->len; k++)
            {
              CurveIn *c = &g_array_index (a->curves, CurveIn, k);
              char mine[17];

              curve_in_digest (d, hs, c, mine);
              if (g_strcmp0 (mine, c->digest) != 0)
                {
                  tress_json_reader_refuse_at (
                      r, c->path,
                      "the curve's stored members (offset, flags, target_offset, start, end, "
                      "scale, offset_value, delta, the array offsets, raw_frames, raw_keys) "
                      "were changed; they are the bytes the file holds and are read-only: edit "
                      "%s/keys instead",
                      c->path);
                  named = TRUE;
                }
            }
        }
      if (!named)
        tress_json_reader_refuse_at (
            r, "/bytes",
            "the file's bytes outside the curves (\"bytes\", \"size\" or \"container\") were "
            "changed; they are read-only: a BFRES build applies edits of curve keys and of "
            "animation frame counts");
      return FALSE;
    }

  /* The containers around it, innermost first: as the editor saves them. */
  cur = g_bytes_new_take (g_steal_pointer (&d), (gsize)size);
  for (guint i = layers->len; i-- > 0;)
    {
      Layer *l = &g_array_index (layers, Layer, i);
      g_autofree char *path = g_strdup_printf ("/container/%u", i);
      GBytes *next;

      if (l->yaz0)
        {
          gsize n;
          const guint8 *p = g_bytes_get_data (cur, &n);

          next = tress_yaz0_compress (p, n, l->reserved);
        }
      else
        {
          guint8 *arch = g_malloc0 (MAX (l->size, 1));
          g_autoptr (GBytes) skeleton = NULL;
          g_autoptr (TressSarc) sarc = NULL;

          for (guint k = 0; k < l->chunks->len; k++)
            {
              const Chunk *c = &g_array_index (l->chunks, Chunk, k);
              gsize n;
              const guint8 *p = g_bytes_get_data (c->bytes, &n);

              if (check_span (r, path, c->offset, n, l->size, "the archive's bytes") && n > 0)
                memcpy (arch + c->offset, p, n);
            }
          skeleton = g_bytes_new_take (arch, l->size);
          sarc = tress_sarc_parse (skeleton, &error);
          if (sarc == NULL || l->entry >= tress_sarc_get_n_files (sarc))
            return tress_json_reader_refuse_at (r, path, "the archive does not open: %s",
                                                error != NULL ? error->message : "no such entry");
          next = tress_sarc_replace_file (sarc, l->entry, cur, &error);
          if (next == NULL)
            return tress_json_reader_refuse_at (r, path, "%s", error->message);
        }
      g_bytes_unref (cur);
      cur = next;
    }

  b = tress_bfres_parse (cur, "JSON", &error);
  if (b == NULL)
    return tress_json_reader_refuse_at (r, "", "the file this JSON describes does not open: %s",
                                        error->message);
  /* The curves the JSON lists are the file's, in order. */
  {
    guint n = 0;

    if (b->anims->len != anims->len)
      ok = FALSE;
    for (guint ai = 0; ok && ai < anims->len; ai++)
      {
        AnimIn *a = &g_array_index (anims, AnimIn, ai);
        BfresAnim *fa = bfres_anim (b, ai);

        if (fa->n_curves != a->curves->len)
          ok = FALSE;
        for (guint k = 0; ok && k < a->curves->len; k++, n++)
          ok = bfres_curve (b, fa->first_curve + k)->pos
               == (gsize)g_array_index (a->curves, CurveIn, k).pos;
      }
    if (!ok)
      return tress_json_reader_refuse_at (r, "/animations",
                                          "the animations and curves listed are not the ones the "
                                          "file holds, in its order");
  }

  /* What the dump derives must be what this file gives. */
  tress_json_reader_check_unknown (r, bfres_dump_json, b, hint_for);
  if (tress_json_reader_n_errors (r) > 0)
    return FALSE;

  out->original = g_bytes_ref (cur);
  if (!apply_edits (r, b, anims, &n_edits) || tress_json_reader_n_errors (r) > 0)
    {
      g_clear_pointer (&out->original, g_bytes_unref);
      return FALSE;
    }
  out->model = g_steal_pointer (&b);
  out->n_edits = n_edits;
  return TRUE;
}
