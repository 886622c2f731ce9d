/* tress-bfres-json-stored.c: a BFRES dump's stored form put back together and checked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-bfres-json-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "core/tress-yaz0.h"
#include "formats/tress-json-curves.h"
#include "tress-bfres-model.h"

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
  return v->is_bits ? v->bits : _tress_bfres_json_float_to_bits ((float)v->d);
}

gboolean
_tress_bfres_json_check_span (TressJsonReader *r, const char *path, gsize offset, gsize n,
                              gsize size, const char *what)
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
gboolean
_tress_bfres_json_put_curve (TressJsonReader *r, CurveIn *c, guint8 *d, gsize size, gsize hs)
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
  if (!_tress_bfres_json_check_span (r, c->path, pos, hs, size, "the curve header"))
    return FALSE;
  p = d + pos;
  put16 (p, (guint16)c->flags);
  put16 (p + 2, (guint16)n);
  put32 (p + 4, c->target);
  put_float (c, d, pos + 8, _tress_bfres_json_float_to_bits (c->start));
  put_float (c, d, pos + 12, _tress_bfres_json_float_to_bits (c->end));
  if (is_float)
    {
      put_float (c, d, pos + 16, _tress_bfres_json_float_to_bits (c->scale));
      put_float (c, d, pos + 20, _tress_bfres_json_float_to_bits (c->offset_f));
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
    put_float (c, d, pos + 24, _tress_bfres_json_float_to_bits (c->delta));
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
  if (!tress_json_reader_require (r, _tress_bfres_json_curve_names,
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
  if (!_tress_bfres_json_check_span (r, c->path, (gsize)c->frames_offset, n * bfres_frame_size (ft),
                                     size, "the frame array")
      || !_tress_bfres_json_check_span (r, c->path, (gsize)c->keys_offset,
                                        is_bool ? n_elems * 4 : n_elems * bfres_key_size (kt), size,
                                        "the key array"))
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
gboolean
_tress_bfres_json_check_pieces (TressJsonReader *r, GArray *ranges, GArray *pieces, gsize size,
                                const char *prefix, const char *what, const char *hint)
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
GArray *
_tress_bfres_json_curve_ranges (GArray *anims, gsize hs)
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
  _tress_bfres_json_merge_ranges (ranges);
  return ranges;
}

/* The digest of a curve's stored form as put together in @d. */
void
_tress_bfres_json_curve_in_digest (const guint8 *d, gsize hs, const CurveIn *c, char out[17])
{
  guint ft = c->flags & 3, kt = (c->flags >> 2) & 3, ct = (c->flags >> 4) & 7;
  guint n = c->raw_frames->len;
  gsize fb = (gsize)n * bfres_frame_size (ft);
  gsize kb = bfres_curve_type_is_bool (ct)
                 ? ((gsize)n + 31) / 32 * 4
                 : (gsize)n * bfres_values_per_key (ct) * bfres_key_size (kt);

  _tress_bfres_json_curve_digest (d, hs, (gsize)c->pos, (gsize)MAX (c->frames_offset, 0),
                                  n ? fb : 0, (gsize)MAX (c->keys_offset, 0), n ? kb : 0, out);
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

  _tress_bfres_json_curve_in_digest (z->d, z->hs, z->c, mine);
  return g_strcmp0 (mine, z->c->digest) == 0;
}

/* A curve whose stored form is not the one dumped: whether it is, with some
 * of its zeros negative (tress_json_find_negative_zeros). Noted when so. */
gboolean
_tress_bfres_json_restore_negative_zeros (TressJsonReader *r, guint8 *d, gsize hs, const CurveIn *c,
                                          gsize *budget)
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

const char *
_tress_bfres_json_hint_for (const char *name)
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
