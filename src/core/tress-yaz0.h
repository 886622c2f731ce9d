/* tress-yaz0.h: Yaz0 compression (Nintendo's LZ77 variant)
 *
 * Header: "Yaz0", u32 big-endian decompressed size, 8 reserved bytes (kept on
 * recompression: newer tools store an alignment there). Then groups of one code
 * byte (MSB first; 1 = literal byte, 0 = back-reference) and up to 8 items.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define TRESS_YAZ0_HEADER_SIZE 16

/* TRUE when @data starts with the Yaz0 magic and a whole header. */
gboolean tress_yaz0_is_compressed (const guint8 *data, gsize size);

/* The decompressed size the header announces (0 when @data is not Yaz0). */
guint32 tress_yaz0_get_size (const guint8 *data, gsize size);

/* What opening one file may decompress, all its Yaz0 streams together (the
 * file, archives inside it, entries looked into): far more than any real
 * file holds (BFRES animations are a few megabytes), and a bound for archives
 * of Yaz0 "bombs" (thousands of entries sharing one stream). */
#define TRESS_YAZ0_MAX_TOTAL ((gsize)256 * 1024 * 1024)

/* TRUE when @data is a Yaz0 header whose announced size its compressed
 * bytes can hold (at most 88 times as many) and, when @max_size is not zero,
 * at most @max_size; else a TRESS_ERROR naming the size field. */
gboolean tress_yaz0_check (const guint8 *data, gsize size, gsize max_size, GError **error);

/* The bytes still to be decompressed for one file (TRESS_YAZ0_MAX_TOTAL at
 * first). */
typedef struct
{
  gsize left;
} TressYaz0Budget;

void tress_yaz0_budget_init (TressYaz0Budget *budget);
/* Checks the stream's header (tress_yaz0_check()) and draws its announced
 * size from @budget (NULL: no budget); past it, TRESS_ERROR_BAD_COUNT naming
 * the size, what is left and the cap. */
gboolean tress_yaz0_budget_draw (TressYaz0Budget *budget, const guint8 *data, gsize size,
                                 GError **error);
/* tress_yaz0_decompress() of a stream drawn from @budget first. */
GBytes *tress_yaz0_decompress_budget (const guint8 *data, gsize size, TressYaz0Budget *budget,
                                      GError **error);

/* Decompresses a whole Yaz0 stream. The announced size is checked against what
 * the compressed bytes can hold at most (and against @max_size when non-zero)
 * before allocating. A stream that ends early, or a back-reference before the
 * start of the output, is a TRESS_ERROR naming the byte offset. */
GBytes *tress_yaz0_decompress (const guint8 *data, gsize size, gsize max_size, GError **error);

/* The first @n decompressed bytes (fewer when the stream holds fewer), without
 * decompressing the rest: what a container's entry is. Returns how many were
 * written to @out, 0 for a broken stream (one announcing more than it can
 * hold included). */
gsize tress_yaz0_peek (const guint8 *data, gsize size, guint8 *out, gsize n);

/* Compresses @size bytes; @reserved (8 bytes, may be NULL for zeros) goes into
 * header bytes 8..15. Greedy matching with one step of lazy evaluation over a
 * 4 KiB window. */
GBytes *tress_yaz0_compress (const guint8 *data, gsize size, const guint8 *reserved);

G_END_DECLS
