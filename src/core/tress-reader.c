/* tress-reader.c: bounded reading of binary data
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-reader.h"

#include <string.h>

void
tress_reader_init (TressReader *r, const guint8 *data, gsize size, TressByteOrder order)
{
  r->data = data;
  r->size = data != NULL ? size : 0;
  r->pos = 0;
  r->order = order;
  r->base = 0;
}

static void
set_truncated (const TressReader *r, GError **error, const char *field, gsize pos, gsize need)
{
  gsize have = pos <= r->size ? r->size - pos : 0;

  g_set_error (error, TRESS_ERROR, TRESS_ERROR_TRUNCATED,
               "%s at offset 0x%" G_GSIZE_MODIFIER "x: expected %" G_GSIZE_FORMAT
               " byte%s, found %" G_GSIZE_FORMAT " before the end of the data",
               field, r->base + pos, need, need == 1 ? "" : "s", have);
}

static inline gboolean
need (const TressReader *r, gsize n, const char *field, GError **error)
{
  if (G_UNLIKELY (n > r->size - r->pos))
    {
      set_truncated (r, error, field, r->pos, n);
      return FALSE;
    }
  return TRUE;
}

gboolean
tress_reader_sub (const TressReader *parent, gsize offset, gsize size, const char *field,
                  TressReader *out, GError **error)
{
  if (offset > parent->size || size > parent->size - offset)
    {
      set_truncated (parent, error, field, offset, size);
      tress_reader_init (out, NULL, 0, parent->order);
      return FALSE;
    }
  tress_reader_init (out, parent->data + offset, size, parent->order);
  out->base = parent->base + offset;
  return TRUE;
}

gboolean
tress_reader_seek (TressReader *r, gsize pos, const char *field, GError **error)
{
  if (pos > r->size)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET,
                   "%s: expected a position within the %" G_GSIZE_FORMAT
                   " bytes of data, found 0x%" G_GSIZE_MODIFIER "x",
                   field, r->size, r->base + pos);
      return FALSE;
    }
  r->pos = pos;
  return TRUE;
}

gboolean
tress_reader_skip (TressReader *r, gsize n, const char *field, GError **error)
{
  if (!need (r, n, field, error))
    return FALSE;
  r->pos += n;
  return TRUE;
}

gboolean
tress_reader_align (TressReader *r, gsize alignment, const char *field, GError **error)
{
  gsize pad;

  g_return_val_if_fail (alignment > 0, FALSE);
  pad = (alignment - (r->pos % alignment)) % alignment;
  return tress_reader_skip (r, pad, field, error);
}

gboolean
tress_reader_u8 (TressReader *r, const char *field, guint8 *out, GError **error)
{
  *out = 0;
  if (!need (r, 1, field, error))
    return FALSE;
  *out = r->data[r->pos++];
  return TRUE;
}

gboolean
tress_reader_s8 (TressReader *r, const char *field, gint8 *out, GError **error)
{
  guint8 v;
  gboolean ok = tress_reader_u8 (r, field, &v, error);

  *out = (gint8)v;
  return ok;
}

gboolean
tress_reader_u16 (TressReader *r, const char *field, guint16 *out, GError **error)
{
  *out = 0;
  if (!need (r, 2, field, error))
    return FALSE;
  *out = tress_get_u16 (r->data + r->pos, r->order);
  r->pos += 2;
  return TRUE;
}

gboolean
tress_reader_s16 (TressReader *r, const char *field, gint16 *out, GError **error)
{
  guint16 v;
  gboolean ok = tress_reader_u16 (r, field, &v, error);

  *out = (gint16)v;
  return ok;
}

gboolean
tress_reader_u32 (TressReader *r, const char *field, guint32 *out, GError **error)
{
  *out = 0;
  if (!need (r, 4, field, error))
    return FALSE;
  *out = tress_get_u32 (r->data + r->pos, r->order);
  r->pos += 4;
  return TRUE;
}

gboolean
tress_reader_s32 (TressReader *r, const char *field, gint32 *out, GError **error)
{
  guint32 v;
  gboolean ok = tress_reader_u32 (r, field, &v, error);

  *out = (gint32)v;
  return ok;
}

gboolean
tress_reader_s32_swapped (TressReader *r, const char *field, gint32 *out, GError **error)
{
  guint32 v;

  *out = 0;
  if (!need (r, 4, field, error))
    return FALSE;
  v = tress_get_u32 (r->data + r->pos,
                     r->order == TRESS_BIG_ENDIAN ? TRESS_LITTLE_ENDIAN : TRESS_BIG_ENDIAN);
  r->pos += 4;
  *out = (gint32)v;
  return TRUE;
}

gboolean
tress_reader_f32 (TressReader *r, const char *field, float *out, GError **error)
{
  *out = 0;
  if (!need (r, 4, field, error))
    return FALSE;
  *out = tress_get_f32 (r->data + r->pos, r->order);
  r->pos += 4;
  return TRUE;
}

gboolean
tress_reader_bytes (TressReader *r, gsize n, const char *field, const guint8 **out, GError **error)
{
  *out = NULL;
  if (!need (r, n, field, error))
    return FALSE;
  *out = r->data + r->pos;
  r->pos += n;
  return TRUE;
}

gboolean
tress_reader_fixed_string (TressReader *r, gsize n, const char *field, char **out, GError **error)
{
  const guint8 *p;
  gsize len = 0;

  *out = NULL;
  if (!tress_reader_bytes (r, n, field, &p, error))
    return FALSE;
  while (len < n && p[len] != 0)
    len++;
  if (g_utf8_validate ((const char *)p, len, NULL))
    *out = g_strndup ((const char *)p, len);
  else
    {
      g_autofree char *raw = g_strndup ((const char *)p, len);
      *out = g_strescape (raw, NULL);
    }
  return TRUE;
}

gboolean
tress_reader_check_count (const TressReader *r, guint64 count, gsize element_size,
                          const char *field, gsize field_pos, GError **error)
{
  guint64 left = r->size - MIN (r->pos, r->size);

  if (element_size > 0 && count > left / element_size)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT,
                   "%s at offset 0x%" G_GSIZE_MODIFIER "x: expected at most %" G_GUINT64_FORMAT
                   " (the %" G_GUINT64_FORMAT
                   " bytes left hold no more elements of %" G_GSIZE_FORMAT
                   " bytes), found %" G_GUINT64_FORMAT,
                   field, r->base + field_pos, left / element_size, left, element_size, count);
      return FALSE;
    }
  return TRUE;
}

gboolean
tress_reader_count (TressReader *r, gsize element_size, guint32 max, const char *field,
                    guint32 *out, GError **error)
{
  gsize pos = r->pos;
  guint32 v;

  *out = 0;
  if (!tress_reader_u32 (r, field, &v, error))
    return FALSE;
  if (max != 0 && v > max)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT,
                   "%s at offset 0x%" G_GSIZE_MODIFIER "x: expected at most %u, found %u", field,
                   r->base + pos, max, v);
      return FALSE;
    }
  if (!tress_reader_check_count (r, v, element_size, field, pos, error))
    return FALSE;
  *out = v;
  return TRUE;
}

gboolean
tress_reader_offset (TressReader *r, const char *field, gsize *out, gboolean *is_null,
                     GError **error)
{
  gsize pos = r->pos;
  gint32 rel;
  gint64 target;

  *out = 0;
  if (is_null)
    *is_null = FALSE;
  if (!tress_reader_s32 (r, field, &rel, error))
    return FALSE;
  if (rel == 0)
    {
      if (is_null)
        *is_null = TRUE;
      return TRUE;
    }
  target = (gint64)pos + rel;
  if (target < 0 || (guint64)target >= r->size)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET,
                   "%s at offset 0x%" G_GSIZE_MODIFIER
                   "x: expected an offset into the %" G_GSIZE_FORMAT
                   " bytes of data, found %d (target 0x%" G_GINT64_MODIFIER "x)",
                   field, r->base + pos, r->size, rel, (gint64)r->base + target);
      return FALSE;
    }
  *out = (gsize)target;
  return TRUE;
}

gboolean
tress_reader_peek_u32 (const TressReader *r, gsize pos, const char *field, guint32 *out,
                       GError **error)
{
  *out = 0;
  if (pos > r->size || r->size - pos < 4)
    {
      set_truncated (r, error, field, pos, 4);
      return FALSE;
    }
  *out = tress_get_u32 (r->data + pos, r->order);
  return TRUE;
}

void
tress_reader_error_value (const TressReader *r, GError **error, gsize pos, const char *field,
                          const char *expected, const char *found_format, ...)
{
  g_autofree char *found = NULL;
  va_list args;

  va_start (args, found_format);
  found = g_strdup_vprintf (found_format, args);
  va_end (args);
  tress_field_error (error, TRESS_ERROR_BAD_VALUE, r->base + pos, field, expected, "%s", found);
}

void
tress_visit_set_init (TressVisitSet *set)
{
  set->seen = g_hash_table_new (g_direct_hash, g_direct_equal);
}

void
tress_visit_set_clear (TressVisitSet *set)
{
  g_clear_pointer (&set->seen, g_hash_table_unref);
}

gboolean
tress_visit_set_add (TressVisitSet *set, gsize pos, const char *field, GError **error)
{
  if (!g_hash_table_add (set->seen, GSIZE_TO_POINTER (pos + 1)))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET,
                   "%s: the offset 0x%" G_GSIZE_MODIFIER "x was already visited (a loop)", field,
                   pos);
      return FALSE;
    }
  return TRUE;
}
