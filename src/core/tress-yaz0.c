/* tress-yaz0.c: Yaz0 decompression and compression
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-yaz0.h"

#include <string.h>

#include "tress-error.h"

#define YAZ0_WINDOW 0x1000
#define YAZ0_MAX_LEN 0x111
#define YAZ0_MIN_LEN 3
#define YAZ0_HASH_BITS 14
#define YAZ0_MAX_CHAIN 256
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

GBytes *
tress_yaz0_decompress (const guint8 *data, gsize size, gsize max_size, GError **error)
{
  guint32 out_size;
  guint8 *out;
  gsize in = TRESS_YAZ0_HEADER_SIZE, o = 0;

  if (size < TRESS_YAZ0_HEADER_SIZE)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_TRUNCATED,
                   "Yaz0 header at offset 0x0: expected 16 bytes, found %" G_GSIZE_FORMAT, size);
      return NULL;
    }
  if (memcmp (data, "Yaz0", 4) != 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                   "Yaz0 magic at offset 0x0: expected \"Yaz0\", found %02X %02X %02X %02X",
                   data[0], data[1], data[2], data[3]);
      return NULL;
    }
  out_size = tress_yaz0_get_size (data, size);
  if ((guint64)out_size > (guint64)(size - TRESS_YAZ0_HEADER_SIZE) * YAZ0_MAX_RATIO
      || (max_size != 0 && out_size > max_size))
    {
      g_set_error (
          error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT,
          "Yaz0 decompressed size at offset 0x4: %u bytes cannot come from %" G_GSIZE_FORMAT
          " compressed bytes",
          out_size, size - TRESS_YAZ0_HEADER_SIZE);
      return NULL;
    }

  out = g_malloc (out_size > 0 ? out_size : 1);
  while (o < out_size)
    {
      guint8 code;

      if (in >= size)
        goto truncated;
      code = data[in++];
      for (int bit = 7; bit >= 0 && o < out_size; bit--)
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
                  g_free (out);
                  g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET,
                               "Yaz0 back-reference at offset 0x%" G_GSIZE_MODIFIER
                               "x: distance %u reaches before the start of the output "
                               "(%" G_GSIZE_FORMAT " bytes written)",
                               ref_pos, dist, o);
                  return NULL;
                }
              if (len > out_size - o)
                len = out_size - o;
              for (guint k = 0; k < len; k++, o++)
                out[o] = out[o - dist];
            }
        }
    }
  return g_bytes_new_take (out, out_size);

truncated:
  g_free (out);
  g_set_error (error, TRESS_ERROR, TRESS_ERROR_TRUNCATED,
               "Yaz0 stream at offset 0x%" G_GSIZE_MODIFIER
               "x: the data ends after %" G_GSIZE_FORMAT " of %u decompressed bytes",
               in, o, out_size);
  return NULL;
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
          guint len = 0;
          while (len < max_len && a[len] == b[len])
            len++;
          if (len > best)
            {
              best = len;
              *dist_out = (guint)(pos - cand);
              if (len == max_len)
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
  GByteArray *out = g_byte_array_sized_new (size / 2 + 64);
  Yaz0Matcher *m = g_new (Yaz0Matcher, 1);
  guint8 header[TRESS_YAZ0_HEADER_SIZE] = { 'Y', 'a', 'z', '0' };
  gsize pos = 0, code_pos = 0;
  int n_items = 8;

  header[4] = size >> 24;
  header[5] = size >> 16;
  header[6] = size >> 8;
  header[7] = size;
  if (reserved != NULL)
    memcpy (header + 8, reserved, 8);
  g_byte_array_append (out, header, sizeof header);

  m->data = data;
  m->size = size;
  m->inserted = 0;
  memset (m->head, 0xFF, sizeof m->head);

  while (pos < size)
    {
      guint dist = 0, len;

      if (n_items == 8)
        {
          guint8 zero = 0;
          code_pos = out->len;
          g_byte_array_append (out, &zero, 1);
          n_items = 0;
        }

      len = yaz0_find (m, pos, &dist);
      if (len > 0 && len < YAZ0_MAX_LEN)
        {
          /* Lazy step: a longer match one byte later beats this one. */
          guint dist2 = 0, len2 = yaz0_find (m, pos + 1, &dist2);
          if (len2 > len + 1)
            len = 0;
        }
      if (len == 0)
        {
          out->data[code_pos] |= 0x80 >> n_items;
          g_byte_array_append (out, data + pos, 1);
          pos++;
        }
      else
        {
          guint d = dist - 1;
          guint8 ref[3];

          if (len >= 0x12)
            {
              ref[0] = d >> 8;
              ref[1] = d & 0xFF;
              ref[2] = len - 0x12;
              g_byte_array_append (out, ref, 3);
            }
          else
            {
              ref[0] = ((len - 2) << 4) | (d >> 8);
              ref[1] = d & 0xFF;
              g_byte_array_append (out, ref, 2);
            }
          pos += len;
        }
      n_items++;
    }

  g_free (m);
  return g_byte_array_free_to_bytes (out);
}
