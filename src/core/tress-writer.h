/* tress-writer.h: building binary data
 *
 * A growable buffer with typed puts in either byte order, alignment, and
 * placeholders patched once a size or offset is known.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "tress-reader.h"

G_BEGIN_DECLS

typedef struct
{
  GByteArray *buf;
  TressByteOrder order;
} TressWriter;

void tress_writer_init (TressWriter *w, TressByteOrder order, gsize reserve);
/* Frees the buffer (safe after _finish). */
void tress_writer_clear (TressWriter *w);
/* Hands the bytes over; the writer is empty afterwards. */
GBytes *tress_writer_finish (TressWriter *w);

static inline gsize
tress_writer_tell (const TressWriter *w)
{
  return w->buf->len;
}

static inline guint8 *
tress_writer_data (TressWriter *w)
{
  return w->buf->data;
}

void tress_writer_u8 (TressWriter *w, guint8 v);
void tress_writer_s8 (TressWriter *w, gint8 v);
void tress_writer_u16 (TressWriter *w, guint16 v);
void tress_writer_s16 (TressWriter *w, gint16 v);
void tress_writer_u32 (TressWriter *w, guint32 v);
void tress_writer_s32 (TressWriter *w, gint32 v);
void tress_writer_f32 (TressWriter *w, float v);
void tress_writer_bytes (TressWriter *w, const void *data, gsize n);
void tress_writer_zeros (TressWriter *w, gsize n);
/* Writes @s NUL-padded to exactly @n bytes (truncating if longer). */
void tress_writer_fixed_string (TressWriter *w, const char *s, gsize n);
/* Pads with zeros to a multiple of @alignment. */
void tress_writer_align (TressWriter *w, gsize alignment);

/* Patching fields written earlier, e.g. a size known only at the end. */
void tress_writer_patch_u16 (TressWriter *w, gsize pos, guint16 v);
void tress_writer_patch_u32 (TressWriter *w, gsize pos, guint32 v);
void tress_writer_patch_f32 (TressWriter *w, gsize pos, float v);
/* Writes a self-relative s32 offset at @field_pos pointing at @target. */
void tress_writer_patch_offset (TressWriter *w, gsize field_pos, gsize target);

G_END_DECLS
