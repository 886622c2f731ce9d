/* tress-yaz0.c: Yaz0 decompression and compression
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-yaz0.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "tress-error.h"
#include "tress-progress.h"

#define YAZ0_WINDOW 0x1000
#define YAZ0_MAX_LEN 0x111
#define YAZ0_MIN_LEN 3
#define YAZ0_HASH_BITS 15
/* Candidates tried per position, and a match length good enough to stop at:
 * bounds the search (the size stays within a few per cent of Nintendo's). */
#define YAZ0_MAX_CHAIN 64
#define YAZ0_NICE_LEN 0x80
/* Decompressed bytes between reports to the progress of the thread. */
#define YAZ0_REPORT (1024 * 1024)
/* One group (1 + 8 × 3 bytes) yields at most 8 × 0x111 bytes. */
#define YAZ0_MAX_RATIO 88

gboolean
tress_yaz0_is_compressed (const guint8 *data, gsize size)
{
  return size >= TRESS_YAZ0_HEADER_SIZE && memcmp (data, "Yaz0", 4) == 0;
}

guint32
tress_yaz0_get_size (const guint8 *data, gsize size)
{
  if (!tress_yaz0_is_compressed (data, size))
    return 0;
  return (guint32)data[4] << 24 | (guint32)data[5] << 16 | (guint32)data[6] << 8 | data[7];
}

/* A group's most: one code byte and eight three-byte references in, eight
 * references of 0x111 bytes out. The fast path also reads and writes up to 8
 * bytes past an item (literal runs and references copied 8 bytes at a time). */
#define GROUP_IN (1 + 8 * 3)
#define GROUP_OUT (8 * YAZ0_MAX_LEN)

/* Copies @len bytes from @dist back to @dst, which may overlap them; may write
 * up to 7 bytes past @len (the caller leaves room). */
static inline void
copy_match (guint8 *dst, guint dist, guint len)
{
  const guint8 *src = dst - dist;

  if (dist >= 8)
    for (guint k = 0; k < len; k += 8)
      memcpy (dst + k, src + k, 8);
  else if (dist == 1)
    memset (dst, src[0], len);
  else
    for (guint k = 0; k < len; k++)
      dst[k] = src[k];
}

static gboolean
bad_reference (gsize ref_pos, guint dist, gsize o, GError **error)
{
  g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET,
               "Yaz0 back-reference at offset 0x%" G_GSIZE_MODIFIER
               "x: distance %u reaches before the start of the output "
               "(%" G_GSIZE_FORMAT " bytes written)",
               ref_pos, dist, o);
  return FALSE;
}

/* Decodes the first @want bytes of the stream after the header into @out
 * (@out_size: the announced size, for messages). Groups whose input and
 * output both fit whole go without bounds checks; the last ones are checked
 * item by item. */
static gboolean
decode (const guint8 *data, gsize size, guint8 *out, gsize want, guint32 out_size, GError **error)
{
  gsize in = TRESS_YAZ0_HEADER_SIZE, o = 0, report = YAZ0_REPORT;

  while (o < want)
    {
      guint8 code;

      /* Each megabyte: the progress of this thread, and a cancellation. */
      if (o >= report)
        {
          if (!tress_progress_set_done (o, error))
            return FALSE;
          report = o + YAZ0_REPORT;
        }
      if (in + GROUP_IN + 8 <= size && want - o >= GROUP_OUT + 8)
        {
          guint bits = 8, run;

          code = data[in++];
          while (bits > 0)
            {
              /* A run of literals: copied at once (8 bytes, room is left). */
              run = (guint)__builtin_clz (~((guint32)code << 24));
              if (run > 0)
                {
                  memcpy (out + o, data + in, 8);
                  o += run;
                  in += run;
                  bits -= run;
                  code = (guint8)(code << run);
                  if (bits == 0)
                    break;
                }
              {
                guint b1 = data[in], b2 = data[in + 1];
                guint dist = (((b1 & 0x0F) << 8) | b2) + 1, len;

                if (dist > o)
                  return bad_reference (in, dist, o, error);
                if ((b1 >> 4) == 0)
                  {
                    len = data[in + 2] + 0x12;
                    in += 3;
                  }
                else
                  {
                    len = (b1 >> 4) + 2;
                    in += 2;
                  }
                copy_match (out + o, dist, len);
                o += len;
                bits--;
                code = (guint8)(code << 1);
              }
            }
          continue;
        }
      if (in >= size)
        goto truncated;
      code = data[in++];
      for (int bit = 7; bit >= 0 && o < want; bit--)
        {
          if (code & (1u << bit))
            {
              if (in >= size)
                goto truncated;
              out[o++] = data[in++];
            }
          else
            {
              guint b1, b2, dist, len;
              gsize ref_pos = in;

              if (in + 2 > size)
                goto truncated;
              b1 = data[in++];
              b2 = data[in++];
              dist = (((b1 & 0x0F) << 8) | b2) + 1;
              if ((b1 >> 4) == 0)
                {
                  if (in >= size)
                    goto truncated;
                  len = data[in++] + 0x12;
                }
              else
                len = (b1 >> 4) + 2;
              if (dist > o)
                return bad_reference (ref_pos, dist, o, error);
              if (len > want - o)
                len = want - o;
              for (guint k = 0; k < len; k++, o++)
                out[o] = out[o - dist];
            }
        }
    }
  return TRUE;

truncated:
  g_set_error (error, TRESS_ERROR, TRESS_ERROR_TRUNCATED,
               "Yaz0 stream at offset 0x%" G_GSIZE_MODIFIER
               "x: the data ends after %" G_GSIZE_FORMAT " of %u decompressed bytes",
               in, o, out_size);
  return FALSE;
}

static gboolean
check_header (const guint8 *data, gsize size, GError **error)
{
  if (size < TRESS_YAZ0_HEADER_SIZE)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_TRUNCATED,
                   "Yaz0 header at offset 0x0: expected 16 bytes, found %" G_GSIZE_FORMAT, size);
      return FALSE;
    }
  if (memcmp (data, "Yaz0", 4) != 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                   "Yaz0 magic at offset 0x0: expected \"Yaz0\", found %02X %02X %02X %02X",
                   data[0], data[1], data[2], data[3]);
      return FALSE;
    }
  return TRUE;
}

gboolean
tress_yaz0_check (const guint8 *data, gsize size, gsize max_size, GError **error)
{
  guint32 out_size;

  if (!check_header (data, size, error))
    return FALSE;
  out_size = tress_yaz0_get_size (data, size);
  if ((guint64)out_size > (guint64)(size - TRESS_YAZ0_HEADER_SIZE) * YAZ0_MAX_RATIO)
    {
      g_set_error (
          error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT,
          "Yaz0 decompressed size at offset 0x4: %u bytes cannot come from %" G_GSIZE_FORMAT
          " compressed bytes (at most %d times as many)",
          out_size, size - TRESS_YAZ0_HEADER_SIZE, YAZ0_MAX_RATIO);
      return FALSE;
    }
  if (max_size != 0 && out_size > max_size)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT,
                   "Yaz0 decompressed size at offset 0x4: %u bytes, more than the %" G_GSIZE_FORMAT
                   " allowed",
                   out_size, max_size);
      return FALSE;
    }
  return TRUE;
}

GBytes *
tress_yaz0_decompress (const guint8 *data, gsize size, gsize max_size, GError **error)
{
  guint32 out_size;
  guint8 *out;

  if (!tress_yaz0_check (data, size, max_size, error))
    return NULL;
  out_size = tress_yaz0_get_size (data, size);
  out = g_malloc (out_size > 0 ? out_size : 1);
  /* TRANSLATORS: a phase of opening a file (Yaz0 data), shown with a progress bar */
  tress_progress_phase (N_ ("Decompressing"), out_size, TRESS_PROGRESS_BYTES);
  if (!decode (data, size, out, out_size, out_size, error))
    {
      g_free (out);
      return NULL;
    }
  return g_bytes_new_take (out, out_size);
}

void
tress_yaz0_budget_init (TressYaz0Budget *budget)
{
  budget->left = TRESS_YAZ0_MAX_TOTAL;
}

gboolean
tress_yaz0_budget_draw (TressYaz0Budget *budget, const guint8 *data, gsize size, GError **error)
{
  guint32 out_size;

  if (!tress_yaz0_check (data, size, 0, error))
    return FALSE;
  out_size = tress_yaz0_get_size (data, size);
  if (budget != NULL && out_size > budget->left)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT,
                   "Yaz0 decompressed size at offset 0x4: %u bytes, more than the %" G_GSIZE_FORMAT
                   " left of the %" G_GSIZE_FORMAT
                   " bytes Tress decompresses to open one file (all its archives and entries "
                   "together)",
                   out_size, budget->left, (gsize)TRESS_YAZ0_MAX_TOTAL);
      return FALSE;
    }
  if (budget != NULL)
    budget->left -= out_size;
  return TRUE;
}

GBytes *
tress_yaz0_decompress_budget (const guint8 *data, gsize size, TressYaz0Budget *budget,
                              GError **error)
{
  if (!tress_yaz0_budget_draw (budget, data, size, error))
    return NULL;
  return tress_yaz0_decompress (data, size, 0, error);
}

gsize
tress_yaz0_peek (const guint8 *data, gsize size, guint8 *out, gsize n)
{
  guint32 out_size;

  /* A header announcing more than its stream can hold is broken, whatever
   * its first bytes. */
  if (!tress_yaz0_check (data, size, 0, NULL))
    return 0;
  out_size = tress_yaz0_get_size (data, size);
  n = MIN (n, (gsize)out_size);
  return decode (data, size, out, n, out_size, NULL) ? n : 0;
}

/* The matcher. A reference costs the same at any distance in the window, so
 * only the longest match counts, and among 3-byte ones the nearest will do:
 * chains link the positions of each 4-byte hash (fewer, longer candidates
 * than 3-byte chains), and a table keeps the last position of each 3-byte
 * hash for when no 4-byte match is found. */
typedef struct
{
  const guint8 *data;
  gsize size;
  gint32 head[1 << YAZ0_HASH_BITS];
  gint32 prev[YAZ0_WINDOW];
  gint32 last3[1 << YAZ0_HASH_BITS];
  gsize inserted; /* positions below this are in the chains */
} Yaz0Matcher;

static inline guint32
load32 (const guint8 *p)
{
  guint32 v;
  memcpy (&v, p, 4);
  return v;
}

/* The hashes of the 4 and of the first 3 bytes of @w (4 bytes as loaded). */
static inline guint
yaz0_hash4 (guint32 w)
{
  return (w * 2654435761u) >> (32 - YAZ0_HASH_BITS);
}

static inline guint
yaz0_hash3 (guint32 w)
{
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  w &= 0xFFFFFF;
#else
  w >>= 8;
#endif
  return (w * 2246822519u) >> (32 - YAZ0_HASH_BITS);
}

/* Bytes @p … @p + 3 (@n of them, 3 or 4, readable), the fourth 0 when absent. */
static inline guint32
load_tail (const guint8 *p, gsize n)
{
  guint8 b[4] = { p[0], p[1], p[2], n > 3 ? p[3] : 0 };
  return load32 (b);
}

/* Puts @i (the next position) in the tables; returns the head of its 4-byte
 * chain before it and, in @last3, the last position with its 3-byte hash. */
static inline gint32
yaz0_insert (Yaz0Matcher *m, gsize i, gint32 *last3)
{
  gsize left = m->size - i;
  guint32 w = left >= 4 ? load32 (m->data + i) : load_tail (m->data + i, left);
  guint h3 = yaz0_hash3 (w);
  gint32 head = -1;

  *last3 = m->last3[h3];
  m->last3[h3] = (gint32)i;
  if (left >= 4)
    {
      guint h = yaz0_hash4 (w);
      head = m->head[h];
      m->prev[i & (YAZ0_WINDOW - 1)] = head;
      m->head[h] = (gint32)i;
    }
  m->inserted = i + 1;
  return head;
}

/* Inserts the positions a match covered, up to @pos. */
static void
yaz0_insert_upto (Yaz0Matcher *m, gsize pos)
{
  gint32 unused;

  while (m->inserted < pos && m->inserted + YAZ0_MIN_LEN <= m->size)
    yaz0_insert (m, m->inserted, &unused);
}

/* Common prefix of @a and @b, at most @max bytes: eight bytes at a time. */
static inline guint
match_length (const guint8 *a, const guint8 *b, guint max)
{
  guint len = 0;

  while (len + 8 <= max)
    {
      guint64 x, y;
      memcpy (&x, a + len, 8);
      memcpy (&y, b + len, 8);
      if (x != y)
        {
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
          return len + (guint)__builtin_ctzll (x ^ y) / 8;
#else
          return len + (guint)__builtin_clzll (x ^ y) / 8;
#endif
        }
      len += 8;
    }
  while (len < max && a[len] == b[len])
    len++;
  return len;
}

/* Longest match for @pos among the positions before it, which it then joins;
 * returns its length. */
static guint
yaz0_find (Yaz0Matcher *m, gsize pos, guint *dist_out)
{
  const guint8 *b = m->data + pos;
  guint best = 0, max_len, chain = 0;
  gint64 cand;
  gint32 last3;

  if (pos + YAZ0_MIN_LEN > m->size)
    return 0;
  yaz0_insert_upto (m, pos);
  cand = yaz0_insert (m, pos, &last3);
  max_len = MIN ((gsize)YAZ0_MAX_LEN, m->size - pos);
  if (cand >= 0)
    {
      guint32 first = load32 (b);

      while ((gint64)pos - cand <= YAZ0_WINDOW && chain++ < YAZ0_MAX_CHAIN)
        {
          const guint8 *a = m->data + cand;

          if (a[best] == b[best] && load32 (a) == first)
            {
              guint len = match_length (a, b, max_len);
              if (len > best)
                {
                  best = len;
                  *dist_out = (guint)(pos - cand);
                  if (len >= YAZ0_NICE_LEN || len == max_len)
                    break;
                }
            }
          {
            gint32 next = m->prev[cand & (YAZ0_WINDOW - 1)];
            if (next >= cand || next < 0)
              break;
            cand = next;
          }
        }
    }
  if (best < YAZ0_MIN_LEN && last3 >= 0 && (gint64)pos - last3 <= YAZ0_WINDOW)
    {
      guint len = match_length (m->data + last3, b, max_len);
      if (len >= YAZ0_MIN_LEN)
        {
          best = len;
          *dist_out = (guint)(pos - last3);
        }
    }
  return best >= YAZ0_MIN_LEN ? best : 0;
}

/* Where neither table has a position in the window (most of the bytes of
 * data that hardly compresses), @pos can only be a literal: it joins the
 * tables, and the search is skipped. Otherwise FALSE, and nothing changes. */
static inline gboolean
yaz0_literal_only (Yaz0Matcher *m, gsize pos)
{
  guint32 w = load32 (m->data + pos);
  guint h4 = yaz0_hash4 (w), h3 = yaz0_hash3 (w);
  gint32 cand = m->head[h4], c3 = m->last3[h3];

  if (cand >= 0 && pos - (gsize)cand <= YAZ0_WINDOW)
    return FALSE;
  if (c3 >= 0 && pos - (gsize)c3 <= YAZ0_WINDOW
      && ((load32 (m->data + c3) ^ w) & GUINT32_FROM_LE (0xFFFFFF)) == 0)
    return FALSE;
  m->prev[pos & (YAZ0_WINDOW - 1)] = cand;
  m->head[h4] = (gint32)pos;
  m->last3[h3] = (gint32)pos;
  m->inserted = pos + 1;
  return TRUE;
}

GBytes *
tress_yaz0_compress (const guint8 *data, gsize size, const guint8 *reserved)
{
  /* Worst case: every byte a literal, plus one code byte per eight items. */
  gsize cap = TRESS_YAZ0_HEADER_SIZE + size + size / 8 + 1;
  guint8 *out = g_malloc (cap), *o = out + TRESS_YAZ0_HEADER_SIZE, *code = NULL;
  Yaz0Matcher *m = g_new (Yaz0Matcher, 1);
  gsize pos = 0;
  int n_items = 8;
  /* The lazy step's search at pos + 1, reused when that byte is coded next. */
  gsize next_pos = G_MAXSIZE;
  guint next_len = 0, next_dist = 0;

  memset (out, 0, TRESS_YAZ0_HEADER_SIZE);
  memcpy (out, "Yaz0", 4);
  out[4] = size >> 24;
  out[5] = size >> 16;
  out[6] = size >> 8;
  out[7] = size;
  if (reserved != NULL)
    memcpy (out + 8, reserved, 8);

  m->data = data;
  m->size = size;
  m->inserted = 0;
  memset (m->head, 0xFF, sizeof m->head);
  memset (m->last3, 0xFF, sizeof m->last3);

  while (pos < size)
    {
      guint dist = 0, len;

      if (n_items == 8)
        {
          code = o++;
          *code = 0;
          n_items = 0;
        }

      if (pos != next_pos && m->inserted == pos && pos + 4 <= size && yaz0_literal_only (m, pos))
        {
          *code |= 0x80 >> n_items++;
          *o++ = data[pos++];
          continue;
        }
      if (pos == next_pos)
        len = next_len, dist = next_dist;
      else
        len = yaz0_find (m, pos, &dist);
      if (len > 0 && len < YAZ0_MAX_LEN)
        {
          /* Lazy step: a longer match one byte later beats this one. */
          next_pos = pos + 1;
          next_dist = 0;
          next_len = yaz0_find (m, next_pos, &next_dist);
          if (next_len > len + 1)
            len = 0;
        }
      if (len == 0)
        {
          *code |= 0x80 >> n_items;
          *o++ = data[pos];
          pos++;
        }
      else
        {
          guint d = dist - 1;

          if (len >= 0x12)
            {
              *o++ = d >> 8;
              *o++ = d & 0xFF;
              *o++ = len - 0x12;
            }
          else
            {
              *o++ = ((len - 2) << 4) | (d >> 8);
              *o++ = d & 0xFF;
            }
          pos += len;
        }
      n_items++;
    }

  g_free (m);
  g_assert ((gsize)(o - out) <= cap);
  return g_bytes_new_take (g_realloc (out, o - out), o - out);
}
