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
#include "tress-bfres-json-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "core/tress-yaz0.h"
#include "formats/tress-json-curves.h"
#include "tress-bfres-model.h"

guint32
_tress_bfres_json_float_to_bits (float f)
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
void
_tress_bfres_json_curve_digest (const guint8 *d, gsize hs, gsize pos, gsize frames_pos, gsize fb,
                                gsize keys_pos, gsize kb, char out[17])
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

/* SHA-256 of the whole stored form: the containers (without the bytes of the
 * entry that holds the next layer) and the BFRES bytes. */
char *
_tress_bfres_json_stored_digest (const Layer *layers, guint n_layers, const guint8 *d, gsize size)
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
GArray *
_tress_bfres_json_chunks_new (void)
{
  GArray *chunks = g_array_new (FALSE, TRUE, sizeof (Chunk));

  g_array_set_clear_func (chunks, (GDestroyNotify)chunk_clear);
  return chunks;
}

void
_tress_bfres_json_layer_clear (Layer *l)
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
          l.chunks = _tress_bfres_json_chunks_new ();
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
    _tress_bfres_json_layer_clear (&g_array_index (layers, Layer, i));
  g_array_unref (layers);
}

/* ---- dump ----------------------------------------------------------------- */

static char *
version_string (guint32 v)
{
  return g_strdup_printf ("%u.%u.%u.%u", v >> 24, (v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF);
}

static int
range_cmp (gconstpointer x, gconstpointer y)
{
  const Range *a = x, *b = y;
  return a->start < b->start ? -1 : a->start > b->start;
}

/* @ranges sorted, the ones that overlap or touch merged. */
void
_tress_bfres_json_merge_ranges (GArray *ranges)
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
  _tress_bfres_json_merge_ranges (ranges);
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
  _tress_bfres_json_curve_digest (b->d, hs, c->pos, c->frames_pos,
                                  c->n_keys > 0 ? curve_frames_bytes (c) : 0, c->keys_pos,
                                  c->n_keys > 0 ? curve_keys_bytes (c) : 0, digest);
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
  g_autofree char *digest = _tress_bfres_json_stored_digest ((const Layer *)(void *)layers->data,
                                                             layers->len, b->d, b->size);
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
