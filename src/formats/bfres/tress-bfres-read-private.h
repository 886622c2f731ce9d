/* tress-bfres-read-private.h: the bounded reads of the model and animation readers
 *
 * Every read names its field; a failure is "WHERE FIELD at offset 0x…:
 * expected …, found …", WHERE being what the reader is inside ("model "Bass",
 * shape "Body": "). Offsets are self-relative s32 (0: null).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "core/tress-error.h"
#include "core/tress-reader.h"

G_BEGIN_DECLS

typedef struct
{
  const guint8 *d;
  gsize size;
  guint32 version;
  GString *where;    /* "model "Bass", shape "Body": " */
  GHashTable *seen;  /* structure positions read, to catch loops and repeats */
  gsize string_left; /* bytes of names still allowed */
  gsize decode_left; /* bytes of decoded arrays still allowed */
} BrCtx;

/* A reader over @data; free with br_ctx_clear. */
void br_ctx_init (BrCtx *ctx, const guint8 *data, gsize size);
void br_ctx_clear (BrCtx *ctx);

static inline guint8
br_u8 (BrCtx *ctx, gsize pos)
{
  return ctx->d[pos];
}
static inline guint16
br_u16 (BrCtx *ctx, gsize pos)
{
  return tress_get_u16 (ctx->d + pos, TRESS_BIG_ENDIAN);
}
static inline guint32
br_u32 (BrCtx *ctx, gsize pos)
{
  return tress_get_u32 (ctx->d + pos, TRESS_BIG_ENDIAN);
}
static inline float
br_f32 (BrCtx *ctx, gsize pos)
{
  return tress_get_f32 (ctx->d + pos, TRESS_BIG_ENDIAN);
}

gboolean br_fail (BrCtx *ctx, GError **error, TressError code, gsize pos, const char *field,
                  const char *expected, const char *found_format, ...) G_GNUC_PRINTF (7, 8);
/* @n bytes at @pos inside the data. */
gboolean br_need (BrCtx *ctx, gsize pos, gsize n, const char *field, GError **error);
/* The offset at @pos: *out its target, 0 for null. */
gboolean br_offset (BrCtx *ctx, gsize pos, const char *field, gsize *out, GError **error);
/* A non-null offset at @pos to @n bytes. */
gboolean br_target (BrCtx *ctx, gsize pos, const char *field, gsize n, gsize *out, GError **error);
/* A name (offset to the characters, u32 length before them); "" for null. */
gboolean br_string (BrCtx *ctx, gsize pos, const char *field, char **out, GError **error);
gboolean br_magic (BrCtx *ctx, gsize pos, const char *magic, const char *field, GError **error);
/* Fails when @pos was marked before (offset loops, shared structures). */
gboolean br_seen (BrCtx *ctx, gsize pos, const char *field, GError **error);
/* @n × @elem zeroed bytes from the decode budget (bounded by the file size). */
gpointer br_alloc (BrCtx *ctx, gsize n, gsize elem, gsize pos, const char *field, GError **error);
/* An index group of @expected entries: names, and data offsets when @data_out. */
gboolean br_group (BrCtx *ctx, gsize pos, const char *field, guint expected, char ***names_out,
                   gsize **data_out, GError **error);

G_END_DECLS
