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
#define YAZ0_HASH_BITS 14
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

/* Decodes the first @want bytes of the stream after the header into @out
 * (@out_size: the announced size, for messages). */
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
                {
                  g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET,
                               "Yaz0 back-reference at offset 0x%" G_GSIZE_MODIFIER
                               "x: distance %u reaches before the start of the output "
                               "(%" G_GSIZE_FORMAT " bytes written)",
                               ref_pos, dist, o);
                  return FALSE;
                }
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

typedef struct
{
  const guint8 *data;
  gsize size;
  gint32 head[1 << YAZ0_HASH_BITS];
  gint32 prev[YAZ0_WINDOW];
  gsize inserted; /* positions below this are in the chains */
} Yaz0Matcher;

static inline guint
yaz0_hash (const guint8 *p)
{
  guint32 v = (guint32)p[0] << 16 | (guint32)p[1] << 8 | p[2];
  return (v * 2654435761u) >> (32 - YAZ0_HASH_BITS);
}

static void
yaz0_insert_upto (Yaz0Matcher *m, gsize pos)
{
  while (m->inserted < pos && m->inserted + YAZ0_MIN_LEN <= m->size)
    {
      guint h = yaz0_hash (m->data + m->inserted);
      m->prev[m->inserted & (YAZ0_WINDOW - 1)] = m->head[h];
      m->head[h] = (gint32)m->inserted;
      m->inserted++;
    }
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

/* Longest match for @pos among positions already inserted; returns its length. */
static guint
yaz0_find (Yaz0Matcher *m, gsize pos, guint *dist_out)
{
  guint best = 0, max_len, chain = 0;
  gint64 cand;

  if (pos + YAZ0_MIN_LEN > m->size)
    return 0;
  yaz0_insert_upto (m, pos);
  max_len = MIN ((gsize)YAZ0_MAX_LEN, m->size - pos);
  cand = m->head[yaz0_hash (m->data + pos)];
  while (cand >= 0 && (gint64)pos - cand <= YAZ0_WINDOW && chain++ < YAZ0_MAX_CHAIN)
    {
      const guint8 *a = m->data + cand, *b = m->data + pos;

      if (a[best] == b[best] && a[0] == b[0])
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
        if (next >= cand)
          break;
        cand = next;
      }
    }
  return best >= YAZ0_MIN_LEN ? best : 0;
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

  while (pos < size)
    {
      guint dist = 0, len;

      if (n_items == 8)
        {
          code = o++;
          *code = 0;
          n_items = 0;
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
