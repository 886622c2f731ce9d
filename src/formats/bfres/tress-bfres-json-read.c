/* tress-bfres-json-read.c: reading a BFRES dump's curves, animations and container layers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-bfres-json-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "core/tress-yaz0.h"
#include "formats/tress-json-curves.h"
#include "tress-bfres-model.h"

/* ---- build ---------------------------------------------------------------- */

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

void
_tress_bfres_json_anim_in_clear (gpointer p)
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
          v.bits = _tress_bfres_json_float_to_bits (f);
        }
      else
        tress_json_reader_read_double (r, &v.d);
      g_array_append_val (out, v);
    }
  return out;
}

const char *const _tress_bfres_json_curve_names[] = {
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
  while ((which = tress_json_reader_next_known (r, _tress_bfres_json_curve_names, &c->seen)) != -2)
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
  tress_json_reader_note_missing (r, _tress_bfres_json_curve_names, 1u << C_KEYS, c->seen, c->path,
                                  "the curve's keys stay as stored");
}

static const char *const anim_names[] = { "frame_count", "curves", NULL };

void
_tress_bfres_json_read_anim (TressJsonReader *r, AnimIn *a)
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

GArray *
_tress_bfres_json_read_chunks (TressJsonReader *r)
{
  static const char *const names[] = { "offset", "base64", NULL };
  GArray *chunks;

  if (!tress_json_reader_begin_array (r))
    return NULL;
  chunks = _tress_bfres_json_chunks_new ();
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

void
_tress_bfres_json_read_layer (TressJsonReader *r, Layer *l)
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
        l->chunks = _tress_bfres_json_read_chunks (r);
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
    l->chunks = _tress_bfres_json_chunks_new ();
}
