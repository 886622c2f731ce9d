/* tress-bfres-read.c: the bounded reads of the model and animation readers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-bfres-read-private.h"

#include <string.h>

/* Budgets (what a corrupted file may cost before an error naming the field,
 * its offset and the budget): names copied, the file's size and 64 KiB
 * (shared names count each time; one longer than BR_NAME_MAX, a damaged
 * offset, is kept cut); decoded arrays, three times the file and 1 MiB (the
 * sample model decodes 0.7 times its size), so that a model read stays
 * within four times the file. */
#define BR_NAME_MAX 1024

void
br_ctx_init (BrCtx *ctx, const guint8 *data, gsize size)
{
  memset (ctx, 0, sizeof *ctx);
  ctx->d = data;
  ctx->size = size;
  ctx->where = g_string_new ("");
  ctx->seen = g_hash_table_new (NULL, NULL);
  ctx->string_left = size + 65536;
  ctx->decode_left = 3 * size + (1u << 20);
}

void
br_ctx_clear (BrCtx *ctx)
{
  g_string_free (ctx->where, TRUE);
  g_hash_table_unref (ctx->seen);
}

gboolean
br_fail (BrCtx *ctx, GError **error, TressError code, gsize pos, const char *field,
         const char *expected, const char *found_format, ...)
{
  g_autofree char *found = NULL;
  va_list args;

  va_start (args, found_format);
  found = g_strdup_vprintf (found_format, args);
  va_end (args);
  g_set_error (error, TRESS_ERROR, code,
               "%s%s at offset 0x%" G_GSIZE_MODIFIER "x: expected %s, found %s", ctx->where->str,
               field, pos, expected, found);
  return FALSE;
}

gboolean
br_need (BrCtx *ctx, gsize pos, gsize n, const char *field, GError **error)
{
  char expected[48];

  if (pos <= ctx->size && n <= ctx->size - pos)
    return TRUE;
  g_snprintf (expected, sizeof expected, "%" G_GSIZE_FORMAT " bytes", n);
  return br_fail (ctx, error, TRESS_ERROR_TRUNCATED, pos, field, expected,
                  "%" G_GSIZE_FORMAT " before the end of the file",
                  pos > ctx->size ? (gsize)0 : ctx->size - pos);
}

/* A self-relative offset at @pos (already checked to be readable); 0 = null. */
gboolean
br_offset (BrCtx *ctx, gsize pos, const char *field, gsize *out, GError **error)
{
  gint32 raw;
  gint64 target;

  *out = 0;
  if (!br_need (ctx, pos, 4, field, error))
    return FALSE;
  raw = (gint32)br_u32 (ctx, pos);
  if (raw == 0)
    return TRUE;
  target = (gint64)pos + raw;
  if (target <= 0 || target >= (gint64)ctx->size)
    return br_fail (ctx, error, TRESS_ERROR_BAD_OFFSET, pos, field, "a target inside the file",
                    "%+d → 0x%" G_GINT64_MODIFIER "x (the file has %" G_GSIZE_FORMAT " bytes)", raw,
                    target, ctx->size);
  *out = (gsize)target;
  return TRUE;
}

/* A non-null offset to @n bytes. */
gboolean
br_target (BrCtx *ctx, gsize pos, const char *field, gsize n, gsize *out, GError **error)
{
  if (!br_offset (ctx, pos, field, out, error))
    return FALSE;
  if (*out == 0)
    return br_fail (ctx, error, TRESS_ERROR_BAD_OFFSET, pos, field, "an offset", "null");
  if (n > ctx->size - *out)
    {
      char expected[64];

      g_snprintf (expected, sizeof expected, "%" G_GSIZE_FORMAT " bytes at its target", n);
      return br_fail (ctx, error, TRESS_ERROR_TRUNCATED, pos, field, expected,
                      "0x%" G_GSIZE_MODIFIER "x, %" G_GSIZE_FORMAT " bytes before the end", *out,
                      ctx->size - *out);
    }
  return TRUE;
}

gboolean
br_string (BrCtx *ctx, gsize pos, const char *field, char **out, GError **error)
{
  gsize target;
  guint32 len;

  *out = NULL;
  if (!br_offset (ctx, pos, field, &target, error))
    return FALSE;
  if (target == 0)
    {
      *out = g_strdup ("");
      return TRUE;
    }
  if (target < 4)
    return br_fail (ctx, error, TRESS_ERROR_BAD_OFFSET, pos, field,
                    "a name after its 4-byte length", "a name at 0x%" G_GSIZE_MODIFIER "x", target);
  len = br_u32 (ctx, target - 4);
  if (len > ctx->size - target)
    return br_fail (ctx, error, TRESS_ERROR_TRUNCATED, target - 4, field,
                    "a name length within the file", "%u bytes, %" G_GSIZE_FORMAT " left", len,
                    ctx->size - target);
  if (len > ctx->string_left)
    return br_fail (ctx, error, TRESS_ERROR_BAD_COUNT, pos, field,
                    "names no longer than a file of this size holds",
                    "%u more bytes of names (names shared or overlapping)", len);
  ctx->string_left -= len;
  *out = g_utf8_make_valid ((const char *)ctx->d + target, MIN (len, BR_NAME_MAX));
  /* Control characters would break the lines the name is shown in. */
  for (char *c = *out; *c != '\0'; c++)
    if ((guchar)*c < 0x20 || *c == 0x7F)
      *c = '?';
  return TRUE;
}

gboolean
br_magic (BrCtx *ctx, gsize pos, const char *magic, const char *field, GError **error)
{
  const guint8 *p;

  if (!br_need (ctx, pos, 4, field, error))
    return FALSE;
  p = ctx->d + pos;
  if (memcmp (p, magic, 4) != 0)
    return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, pos, field, magic, "%02X %02X %02X %02X",
                    p[0], p[1], p[2], p[3]);
  return TRUE;
}

gboolean
br_seen (BrCtx *ctx, gsize pos, const char *field, GError **error)
{
  if (g_hash_table_contains (ctx->seen, GSIZE_TO_POINTER (pos)))
    return br_fail (ctx, error, TRESS_ERROR_BAD_OFFSET, pos, field, "a structure read once",
                    "it reached a second time (an offset loop or a shared structure)");
  g_hash_table_add (ctx->seen, GSIZE_TO_POINTER (pos));
  return TRUE;
}

/* Allocates @n elements of @elem bytes from the decode budget. */
gpointer
br_alloc (BrCtx *ctx, gsize n, gsize elem, gsize pos, const char *field, GError **error)
{
  gsize bytes;

  if (n == 0)
    return g_malloc0 (elem);
  if (n > G_MAXSIZE / elem || (bytes = n * elem) > ctx->decode_left)
    {
      br_fail (ctx, error, TRESS_ERROR_BAD_COUNT, pos, field,
               "decoded data bounded by the size of the file",
               "%" G_GSIZE_FORMAT " more elements (buffers shared or repeated)", n);
      return NULL;
    }
  ctx->decode_left -= bytes;
  return g_malloc0 (bytes);
}

/* An index group's entries: names and data offsets (entry 0, the root, skipped). */
gboolean
br_group (BrCtx *ctx, gsize pos, const char *field, guint expected, char ***names_out,
          gsize **data_out, GError **error)
{
  gint32 n;
  g_auto (GStrv) names = NULL;
  g_autofree gsize *data = NULL;
  char want[32];

  *names_out = NULL;
  if (data_out != NULL)
    *data_out = NULL;
  if (!br_need (ctx, pos, 8, field, error))
    return FALSE;
  n = (gint32)br_u32 (ctx, pos + 4);
  g_snprintf (want, sizeof want, "%u entries", expected);
  if (n < 0 || (guint32)n != expected)
    return br_fail (ctx, error, TRESS_ERROR_BAD_COUNT, pos + 4, field, want, "%d", n);
  if (!br_need (ctx, pos, 8 + 16 * ((gsize)n + 1), field, error))
    return FALSE;
  names = g_new0 (char *, (gsize)n + 1);
  data = g_new0 (gsize, (gsize)n + 1);
  for (gint32 i = 1; i <= n; i++)
    {
      gsize node = pos + 8 + 16 * (gsize)i;

      if (!br_string (ctx, node + 8, "index group entry name", &names[i - 1], error)
          || !br_offset (ctx, node + 12, "index group entry data", &data[i - 1], error))
        return FALSE;
    }
  *names_out = g_steal_pointer (&names);
  if (data_out != NULL)
    *data_out = g_steal_pointer (&data);
  return TRUE;
}
