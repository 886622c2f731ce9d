/* bench-yaz0-before.c: the Yaz0 compressor as it was before the 4-byte chains
 * (commit 10f5110), kept so that bench-bfres measures today's compressor
 * against it in the same run: speed and output size.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "bench-yaz0-before.h"

#include <string.h>

#include "core/tress-yaz0.h"

#define YAZ0_WINDOW 0x1000
#define YAZ0_MAX_LEN 0x111
#define YAZ0_MIN_LEN 3
#define YAZ0_HASH_BITS 14
#define YAZ0_MAX_CHAIN 64
#define YAZ0_NICE_LEN 0x80

typedef struct
{
  const guint8 *data;
  gsize size;
  gint32 head[1 << YAZ0_HASH_BITS];
  gint32 prev[YAZ0_WINDOW];
  gsize inserted; /* positions below this are in the chains */
} BeforeMatcher;

static inline guint
before_hash (const guint8 *p)
{
  guint32 v = (guint32)p[0] << 16 | (guint32)p[1] << 8 | p[2];
  return (v * 2654435761u) >> (32 - YAZ0_HASH_BITS);
}

static void
before_insert_upto (BeforeMatcher *m, gsize pos)
{
  while (m->inserted < pos && m->inserted + YAZ0_MIN_LEN <= m->size)
    {
      guint h = before_hash (m->data + m->inserted);
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
before_find (BeforeMatcher *m, gsize pos, guint *dist_out)
{
  guint best = 0, max_len, chain = 0;
  gint64 cand;

  if (pos + YAZ0_MIN_LEN > m->size)
    return 0;
  before_insert_upto (m, pos);
  max_len = MIN ((gsize)YAZ0_MAX_LEN, m->size - pos);
  cand = m->head[before_hash (m->data + pos)];
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
bench_yaz0_compress_before (const guint8 *data, gsize size, const guint8 *reserved)
{
  /* Worst case: every byte a literal, plus one code byte per eight items. */
  gsize cap = TRESS_YAZ0_HEADER_SIZE + size + size / 8 + 1;
  guint8 *out = g_malloc (cap), *o = out + TRESS_YAZ0_HEADER_SIZE, *code = NULL;
  BeforeMatcher *m = g_new (BeforeMatcher, 1);
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
        len = before_find (m, pos, &dist);
      if (len > 0 && len < YAZ0_MAX_LEN)
        {
          /* Lazy step: a longer match one byte later beats this one. */
          next_pos = pos + 1;
          next_dist = 0;
          next_len = before_find (m, next_pos, &next_dist);
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
