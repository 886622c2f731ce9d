/* tress-reader.h: bounded reading of binary data
 *
 * Every read is checked against the end of the data. A failed read sets a
 * GError (TRESS_ERROR) naming the field, the byte offset, what was expected and
 * what was found, and returns FALSE; the output is then left zeroed. Nothing here
 * aborts on bad input.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <string.h>

#include "tress-error.h"

G_BEGIN_DECLS

typedef enum
{
  TRESS_LITTLE_ENDIAN,
  TRESS_BIG_ENDIAN,
} TressByteOrder;

typedef struct
{
  const guint8 *data;
  gsize size;
  gsize pos;
  TressByteOrder order;
  gsize base; /* added to positions in error messages (a sub-reader's place in the file) */
} TressReader;

void tress_reader_init (TressReader *r, const guint8 *data, gsize size, TressByteOrder order);
/* A reader over [offset, offset+size) of @parent; errors report file offsets. */
gboolean tress_reader_sub (const TressReader *parent, gsize offset, gsize size, const char *field,
                           TressReader *out, GError **error);

static inline gsize
tress_reader_tell (const TressReader *r)
{
  return r->pos;
}

static inline gsize
tress_reader_remaining (const TressReader *r)
{
  return r->size - r->pos;
}

gboolean tress_reader_seek (TressReader *r, gsize pos, const char *field, GError **error);
gboolean tress_reader_skip (TressReader *r, gsize n, const char *field, GError **error);
gboolean tress_reader_align (TressReader *r, gsize alignment, const char *field, GError **error);

gboolean tress_reader_u8 (TressReader *r, const char *field, guint8 *out, GError **error);
gboolean tress_reader_s8 (TressReader *r, const char *field, gint8 *out, GError **error);
gboolean tress_reader_u16 (TressReader *r, const char *field, guint16 *out, GError **error);
gboolean tress_reader_s16 (TressReader *r, const char *field, gint16 *out, GError **error);
gboolean tress_reader_u32 (TressReader *r, const char *field, guint32 *out, GError **error);
gboolean tress_reader_s32 (TressReader *r, const char *field, gint32 *out, GError **error);
gboolean tress_reader_f32 (TressReader *r, const char *field, float *out, GError **error);

/* Reads a value in the other byte order than the reader's (e.g. BFRES beginCurve). */
gboolean tress_reader_s32_swapped (TressReader *r, const char *field, gint32 *out, GError **error);

/* Points *out at @n bytes inside the data (no copy) and advances. */
gboolean tress_reader_bytes (TressReader *r, gsize n, const char *field, const guint8 **out,
                             GError **error);

/* A fixed-size, NUL-padded string field of @n bytes. *out gets a newly allocated
 * copy up to the first NUL (valid UTF-8 is not required; invalid bytes are escaped). */
gboolean tress_reader_fixed_string (TressReader *r, gsize n, const char *field, char **out,
                                    GError **error);

/* Reads a u32 count and checks that @count × @element_size bytes are left
 * (bounding every allocation by the data size). @max is an extra sanity cap (0 = none). */
gboolean tress_reader_count (TressReader *r, gsize element_size, guint32 max, const char *field,
                             guint32 *out, GError **error);
/* Checks an already-read count against the bytes left. */
gboolean tress_reader_check_count (const TressReader *r, guint64 count, gsize element_size,
                                   const char *field, gsize field_pos, GError **error);

/* A self-relative s32 offset (BFRES): target = field position + value. 0 means
 * null (*out = 0, returns TRUE). A target outside [0, size) is an error. */
gboolean tress_reader_offset (TressReader *r, const char *field, gsize *out, gboolean *is_null,
                              GError **error);

/* Peeks without moving (returns FALSE and sets @error when out of range). */
gboolean tress_reader_peek_u32 (const TressReader *r, gsize pos, const char *field, guint32 *out,
                                GError **error);

/* Sets a TRESS_ERROR_BAD_VALUE naming field, offset, expected and found. */
void tress_reader_error_value (const TressReader *r, GError **error, gsize pos, const char *field,
                               const char *expected, const char *found_format, ...)
    G_GNUC_PRINTF (6, 7);

/* Loop detection for offset chains: a small set of visited positions. */
typedef struct
{
  GHashTable *seen;
} TressVisitSet;

void tress_visit_set_init (TressVisitSet *set);
void tress_visit_set_clear (TressVisitSet *set);
/* Returns FALSE and sets an error when @pos was visited before. */
gboolean tress_visit_set_add (TressVisitSet *set, gsize pos, const char *field, GError **error);

/* Plain byte-order accessors for code that reads or patches bytes at positions it
 * has already checked (inline: formats use them in their hot loops). */
static inline guint16
tress_get_u16 (const guint8 *p, TressByteOrder order)
{
  if (order == TRESS_BIG_ENDIAN)
    return (guint16)((p[0] << 8) | p[1]);
  return (guint16)((p[1] << 8) | p[0]);
}

static inline guint32
tress_get_u32 (const guint8 *p, TressByteOrder order)
{
  guint32 v;

  memcpy (&v, p, 4);
  return order == TRESS_BIG_ENDIAN ? GUINT32_FROM_BE (v) : GUINT32_FROM_LE (v);
}

static inline float
tress_get_f32 (const guint8 *p, TressByteOrder order)
{
  guint32 u = tress_get_u32 (p, order);
  float f;

  memcpy (&f, &u, 4);
  return f;
}

static inline void
tress_put_u16 (guint8 *p, guint16 v, TressByteOrder order)
{
  if (order == TRESS_BIG_ENDIAN)
    {
      p[0] = v >> 8;
      p[1] = v & 0xff;
    }
  else
    {
      p[0] = v & 0xff;
      p[1] = v >> 8;
    }
}

static inline void
tress_put_u32 (guint8 *p, guint32 v, TressByteOrder order)
{
  v = order == TRESS_BIG_ENDIAN ? GUINT32_TO_BE (v) : GUINT32_TO_LE (v);
  memcpy (p, &v, 4);
}

static inline void
tress_put_f32 (guint8 *p, float v, TressByteOrder order)
{
  guint32 u;

  memcpy (&u, &v, 4);
  tress_put_u32 (p, u, order);
}

G_END_DECLS
