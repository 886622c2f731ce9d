/* tress-writer.c: building binary data
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-writer.h"

#include <string.h>

void
tress_writer_init (TressWriter *w, TressByteOrder order, gsize reserve)
{
  w->buf = g_byte_array_sized_new (reserve);
  w->order = order;
}

void
tress_writer_clear (TressWriter *w)
{
  g_clear_pointer (&w->buf, g_byte_array_unref);
}

GBytes *
tress_writer_finish (TressWriter *w)
{
  GByteArray *buf = g_steal_pointer (&w->buf);

  w->buf = g_byte_array_new ();
  return g_byte_array_free_to_bytes (buf);
}

static inline guint8 *
grow (TressWriter *w, gsize n)
{
  gsize old = w->buf->len;

  g_byte_array_set_size (w->buf, old + n);
  return w->buf->data + old;
}

void
tress_writer_u8 (TressWriter *w, guint8 v)
{
  *grow (w, 1) = v;
}

void
tress_writer_s8 (TressWriter *w, gint8 v)
{
  tress_writer_u8 (w, (guint8)v);
}

void
tress_writer_u16 (TressWriter *w, guint16 v)
{
  tress_put_u16 (grow (w, 2), v, w->order);
}

void
tress_writer_s16 (TressWriter *w, gint16 v)
{
  tress_writer_u16 (w, (guint16)v);
}

void
tress_writer_u32 (TressWriter *w, guint32 v)
{
  tress_put_u32 (grow (w, 4), v, w->order);
}

void
tress_writer_s32 (TressWriter *w, gint32 v)
{
  tress_writer_u32 (w, (guint32)v);
}

void
tress_writer_f32 (TressWriter *w, float v)
{
  tress_put_f32 (grow (w, 4), v, w->order);
}

void
tress_writer_bytes (TressWriter *w, const void *data, gsize n)
{
  if (n > 0)
    g_byte_array_append (w->buf, data, n);
}

void
tress_writer_zeros (TressWriter *w, gsize n)
{
  if (n > 0)
    memset (grow (w, n), 0, n);
}

void
tress_writer_fixed_string (TressWriter *w, const char *s, gsize n)
{
  guint8 *p = grow (w, n);
  gsize len = s != NULL ? strlen (s) : 0;

  memset (p, 0, n);
  memcpy (p, s, MIN (len, n));
}

void
tress_writer_align (TressWriter *w, gsize alignment)
{
  g_return_if_fail (alignment > 0);
  tress_writer_zeros (w, (alignment - (w->buf->len % alignment)) % alignment);
}

void
tress_writer_patch_u16 (TressWriter *w, gsize pos, guint16 v)
{
  g_return_if_fail (pos + 2 <= w->buf->len);
  tress_put_u16 (w->buf->data + pos, v, w->order);
}

void
tress_writer_patch_u32 (TressWriter *w, gsize pos, guint32 v)
{
  g_return_if_fail (pos + 4 <= w->buf->len);
  tress_put_u32 (w->buf->data + pos, v, w->order);
}

void
tress_writer_patch_f32 (TressWriter *w, gsize pos, float v)
{
  g_return_if_fail (pos + 4 <= w->buf->len);
  tress_put_f32 (w->buf->data + pos, v, w->order);
}

void
tress_writer_patch_offset (TressWriter *w, gsize field_pos, gsize target)
{
  tress_writer_patch_u32 (w, field_pos, (guint32)(gint32)((gint64)target - (gint64)field_pos));
}
