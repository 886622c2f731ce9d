/* tress-bfres-layout.c: the pieces of BFRES structure that writers share
 *
 * Names in the string pool's form, index groups with their trie bits and
 * self-relative offsets, for the builder (a file from nothing) and for the
 * structural rewrites of a file (tress-bfres-skeletal.c, tress-bfres-animops.c),
 * which append what they add after the file's last byte.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-bfres-private.h"

#include <string.h>

gsize
bfres_pool_find (const TressBfres *b, const char *name)
{
  gsize len = strlen (name), pool, end;
  gint32 rel;

  if (b->size < BFRES_HEADER_SIZE)
    return 0;
  rel = (gint32)bfres_get_u32 (b, 0x1C);
  if (rel <= 0 || (gsize)rel > b->size - 0x1C)
    return 0;
  pool = 0x1C + (gsize)rel;
  end = pool + MIN ((gsize)bfres_get_u32 (b, 0x18), b->size - pool);
  /* Entries: u32 length, the bytes, NUL, padded to 4. */
  for (gsize at = pool; at + 4 + len + 1 <= end; at += 4)
    if (bfres_get_u32 (b, at) == len && memcmp (b->d + at + 4, name, len) == 0
        && b->d[at + 4 + len] == '\0')
      return at + 4;
  return 0;
}

gsize
bfres_target (const guint8 *d, gsize size, gsize field)
{
  gint32 rel;
  gint64 at;

  if (field > size || size - field < 4)
    return 0;
  rel = (gint32)tress_get_u32 (d + field, TRESS_BIG_ENDIAN);
  at = (gint64)field + rel;
  return rel != 0 && at >= 0 && at < (gint64)size ? (gsize)at : 0;
}

gsize
bfres_append_zeros (GByteArray *out, gsize n)
{
  gsize len = out->len, at = (len + 3) & ~(gsize)3;

  g_byte_array_set_size (out, at + n);
  memset (out->data + len, 0, at + n - len);
  return at;
}

void
bfres_put_offset (GByteArray *out, gsize field, gsize target)
{
  tress_put_u32 (out->data + field,
                 target != 0 ? (guint32)(gint32)((gint64)target - (gint64)field) : 0,
                 TRESS_BIG_ENDIAN);
}

gsize
bfres_append_name (GByteArray *out, const char *name)
{
  gsize len = strlen (name);
  gsize at = bfres_append_zeros (out, (4 + len + 1 + 3) & ~(gsize)3);

  tress_put_u32 (out->data + at, (guint32)len, TRESS_BIG_ENDIAN);
  memcpy (out->data + at + 4, name, len);
  return at + 4;
}

static int
name_bit (const char *s, guint32 ref)
{
  gsize len = strlen (s), i = ref >> 3;
  return i < len ? ((guint8)s[i] >> (ref & 7)) & 1 : 0;
}

void
bfres_group_trie (const char *const *names, guint n, guint32 *bits, guint16 *left, guint16 *right)
{
  memset (left, 0, sizeof (guint16) * ((gsize)n + 1));
  memset (right, 0, sizeof (guint16) * ((gsize)n + 1));
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
        right[k] = (guint16)k, left[k] = (guint16)idx;
      else
        left[k] = (guint16)k, right[k] = (guint16)idx;
      if (parent == 0)
        left[0] = (guint16)k;
      else if (dir)
        right[parent] = (guint16)k;
      else
        left[parent] = (guint16)k;
    }
}

void
bfres_write_group (GByteArray *out, gsize pos, const char *const *names, const gsize *name_at,
                   const gsize *data_at, guint n, gsize root_name, gsize root_data)
{
  g_autofree guint32 *bits = g_new (guint32, (gsize)n + 1);
  g_autofree guint16 *left = g_new (guint16, (gsize)n + 1);
  g_autofree guint16 *right = g_new (guint16, (gsize)n + 1);

  bfres_group_trie (names, n, bits, left, right);
  tress_put_u32 (out->data + pos, (guint32)(8 + 16 * ((gsize)n + 1)), TRESS_BIG_ENDIAN);
  tress_put_u32 (out->data + pos + 4, n, TRESS_BIG_ENDIAN);
  for (guint k = 0; k <= n; k++)
    {
      gsize node = pos + 8 + 16 * (gsize)k;

      tress_put_u32 (out->data + node, bits[k], TRESS_BIG_ENDIAN);
      tress_put_u16 (out->data + node + 4, left[k], TRESS_BIG_ENDIAN);
      tress_put_u16 (out->data + node + 6, right[k], TRESS_BIG_ENDIAN);
      bfres_put_offset (out, node + 8, k == 0 ? root_name : name_at[k - 1]);
      bfres_put_offset (out, node + 12, k == 0 ? root_data : data_at[k - 1]);
    }
}

gboolean
bfres_name_ok (const char *name, gsize max)
{
  if (name == NULL || name[0] == '\0' || strlen (name) > max || !g_utf8_validate (name, -1, NULL))
    return FALSE;
  for (const char *c = name; *c != '\0'; c++)
    if ((guchar)*c < 0x20 || *c == 0x7F)
      return FALSE;
  return TRUE;
}
