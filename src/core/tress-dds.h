/* tress-dds.h: decoding DirectDraw Surface (.dds) textures
 *
 * Enough of DDS for the strand texture of creature fur (`t_strand.dds`): the
 * top mip level of a 2D texture in DXT1, DXT3, DXT5 or an uncompressed
 * RGB/RGBA/luminance/alpha layout described by bit masks. The result is RGBA,
 * 8 bits per channel, straight (not premultiplied) alpha, rows top to bottom.
 *
 * Every size is checked against the bytes present before anything is
 * allocated, so the output is bounded by the input (at most 8 × its size for
 * DXT1). Errors are TRESS_ERROR with the field and byte offset.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  TRESS_DDS_RGBA, /* uncompressed, channels described by masks */
  TRESS_DDS_DXT1,
  TRESS_DDS_DXT3,
  TRESS_DDS_DXT5,
} TressDdsKind;

typedef struct
{
  guint width;
  guint height;
  TressDdsKind kind;
  guint mip_count; /* as the header says (≥ 1) */
  GBytes *pixels;  /* width × height × 4 bytes, RGBA */
} TressDdsImage;

/* TRUE if @data starts with the DDS magic "DDS ". */
gboolean tress_dds_probe (const guint8 *data, gsize size);
/* Decodes the top mip level; NULL with a TRESS_ERROR on bad or unsupported data. */
TressDdsImage *tress_dds_decode (const guint8 *data, gsize size, GError **error);
void tress_dds_image_free (TressDdsImage *image);
const char *tress_dds_kind_to_string (TressDdsKind kind);

/* Decodes one 4×4 block into 16 RGBA pixels (row-major). @block holds 8 bytes
 * for DXT1 and 16 for DXT3/DXT5. */
void tress_dds_decode_block (TressDdsKind kind, const guint8 *block, guint8 out[64]);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressDdsImage, tress_dds_image_free)

G_END_DECLS
