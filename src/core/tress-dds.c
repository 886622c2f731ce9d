/* tress-dds.c: DDS texture decoding (DXT1/DXT3/DXT5 and uncompressed)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-dds.h"

#include <string.h>

#include "tress-error.h"
#include "tress-reader.h"

#define DDS_HEADER_SIZE 124
#define DDS_PIXELFORMAT_SIZE 32
#define DDS_DATA_OFFSET 128
#define DDS_MAX_DIMENSION 16384

#define DDPF_ALPHAPIXELS 0x1
#define DDPF_ALPHA 0x2
#define DDPF_FOURCC 0x4
#define DDPF_RGB 0x40
#define DDPF_LUMINANCE 0x20000

#define FOURCC(a, b, c, d)                                                                         \
  ((guint32)(a) | ((guint32)(b) << 8) | ((guint32)(c) << 16) | ((guint32)(d) << 24))

gboolean
tress_dds_probe (const guint8 *data, gsize size)
{
  return size >= 4 && memcmp (data, "DDS ", 4) == 0;
}

const char *
tress_dds_kind_to_string (TressDdsKind kind)
{
  switch (kind)
    {
    case TRESS_DDS_RGBA:
      return "uncompressed";
    case TRESS_DDS_DXT1:
      return "DXT1";
    case TRESS_DDS_DXT3:
      return "DXT3";
    case TRESS_DDS_DXT5:
      return "DXT5";
    default:
      return "unknown";
    }
}

void
tress_dds_image_free (TressDdsImage *image)
{
  if (image == NULL)
    return;
  g_clear_pointer (&image->pixels, g_bytes_unref);
  g_free (image);
}

static void
rgb565 (guint16 c, guint8 out[3])
{
  guint r = (c >> 11) & 0x1f, g = (c >> 5) & 0x3f, b = c & 0x1f;

  out[0] = (guint8)((r << 3) | (r >> 2));
  out[1] = (guint8)((g << 2) | (g >> 4));
  out[2] = (guint8)((b << 3) | (b >> 2));
}

/* The colour part of a block (8 bytes). @allow_punch: DXT1's three-colour mode
 * with transparent black when c0 <= c1. */
static void
decode_colour (const guint8 *block, gboolean allow_punch, guint8 out[64])
{
  guint16 c0 = (guint16)(block[0] | (block[1] << 8));
  guint16 c1 = (guint16)(block[2] | (block[3] << 8));
  guint32 bits = (guint32)block[4] | ((guint32)block[5] << 8) | ((guint32)block[6] << 16)
                 | ((guint32)block[7] << 24);
  guint8 pal[4][4];
  guint i, c;

  rgb565 (c0, pal[0]);
  rgb565 (c1, pal[1]);
  pal[0][3] = pal[1][3] = 255;
  if (c0 > c1 || !allow_punch)
    {
      for (c = 0; c < 3; c++)
        {
          pal[2][c] = (guint8)((2 * pal[0][c] + pal[1][c]) / 3);
          pal[3][c] = (guint8)((pal[0][c] + 2 * pal[1][c]) / 3);
        }
      pal[2][3] = pal[3][3] = 255;
    }
  else
    {
      for (c = 0; c < 3; c++)
        {
          pal[2][c] = (guint8)((pal[0][c] + pal[1][c]) / 2);
          pal[3][c] = 0;
        }
      pal[2][3] = 255;
      pal[3][3] = 0;
    }
  for (i = 0; i < 16; i++)
    memcpy (out + 4 * i, pal[(bits >> (2 * i)) & 3], 4);
}

void
tress_dds_decode_block (TressDdsKind kind, const guint8 *block, guint8 out[64])
{
  guint i;

  switch (kind)
    {
    case TRESS_DDS_DXT1:
      decode_colour (block, TRUE, out);
      break;
    case TRESS_DDS_DXT3:
      decode_colour (block + 8, FALSE, out);
      for (i = 0; i < 16; i++)
        {
          guint a = (block[i / 2] >> (4 * (i % 2))) & 0xf;
          out[4 * i + 3] = (guint8)(a * 17);
        }
      break;
    case TRESS_DDS_DXT5:
      {
        guint8 a[8];
        guint64 bits = 0;

        decode_colour (block + 8, FALSE, out);
        a[0] = block[0];
        a[1] = block[1];
        if (a[0] > a[1])
          {
            for (i = 1; i < 7; i++)
              a[i + 1] = (guint8)(((7 - i) * a[0] + i * a[1]) / 7);
          }
        else
          {
            for (i = 1; i < 5; i++)
              a[i + 1] = (guint8)(((5 - i) * a[0] + i * a[1]) / 5);
            a[6] = 0;
            a[7] = 255;
          }
        for (i = 0; i < 6; i++)
          bits |= (guint64)block[2 + i] << (8 * i);
        for (i = 0; i < 16; i++)
          out[4 * i + 3] = a[(bits >> (3 * i)) & 7];
      }
      break;
    case TRESS_DDS_RGBA:
    default:
      memset (out, 0, 64);
      break;
    }
}

/* Extracts the channel under @mask from @v and scales it to 8 bits. */
static guint8
channel (guint32 v, guint32 mask, guint8 fallback)
{
  guint shift = 0, bits = 0;
  guint32 x;

  if (mask == 0)
    return fallback;
  while (((mask >> shift) & 1) == 0)
    shift++;
  while (shift + bits < 32 && ((mask >> (shift + bits)) & 1) != 0)
    bits++;
  x = (v & mask) >> shift;
  if (bits >= 8)
    return (guint8)(x >> (bits - 8));
  /* Replicate the bits to fill 8 (e.g. 5-bit 31 → 255). */
  {
    guint32 r = 0;
    int filled = 0;

    while (filled < 8)
      {
        r = (r << bits) | x;
        filled += (int)bits;
      }
    return (guint8)(r >> (filled - 8));
  }
}

TressDdsImage *
tress_dds_decode (const guint8 *data, gsize size, GError **error)
{
  TressReader r;
  guint32 magic, header_size, flags, height, width, pitch, depth, mips;
  guint32 pf_size, pf_flags, fourcc, bit_count, masks[4];
  g_autoptr (TressDdsImage) image = NULL;
  guint8 *pixels;
  gsize needed;

  tress_reader_init (&r, data, size, TRESS_LITTLE_ENDIAN);
  if (!tress_reader_u32 (&r, "DDS magic", &magic, error))
    return NULL;
  if (magic != FOURCC ('D', 'D', 'S', ' '))
    {
      tress_reader_error_value (&r, error, 0, "DDS magic", "\"DDS \"", "0x%08x", magic);
      return NULL;
    }
  if (!tress_reader_u32 (&r, "DDS header size", &header_size, error)
      || !tress_reader_u32 (&r, "DDS flags", &flags, error)
      || !tress_reader_u32 (&r, "DDS height", &height, error)
      || !tress_reader_u32 (&r, "DDS width", &width, error)
      || !tress_reader_u32 (&r, "DDS pitch or linear size", &pitch, error)
      || !tress_reader_u32 (&r, "DDS depth", &depth, error)
      || !tress_reader_u32 (&r, "DDS mip count", &mips, error)
      || !tress_reader_skip (&r, 44, "DDS reserved", error)
      || !tress_reader_u32 (&r, "DDS pixel format size", &pf_size, error)
      || !tress_reader_u32 (&r, "DDS pixel format flags", &pf_flags, error)
      || !tress_reader_u32 (&r, "DDS fourCC", &fourcc, error)
      || !tress_reader_u32 (&r, "DDS bit count", &bit_count, error)
      || !tress_reader_u32 (&r, "DDS red mask", &masks[0], error)
      || !tress_reader_u32 (&r, "DDS green mask", &masks[1], error)
      || !tress_reader_u32 (&r, "DDS blue mask", &masks[2], error)
      || !tress_reader_u32 (&r, "DDS alpha mask", &masks[3], error)
      || !tress_reader_skip (&r, DDS_DATA_OFFSET - 108, "DDS caps", error))
    return NULL;
  if (header_size != DDS_HEADER_SIZE)
    {
      tress_reader_error_value (&r, error, 4, "DDS header size", "124", "%u", header_size);
      return NULL;
    }
  if (pf_size != DDS_PIXELFORMAT_SIZE)
    {
      tress_reader_error_value (&r, error, 76, "DDS pixel format size", "32", "%u", pf_size);
      return NULL;
    }
  if (width == 0 || width > DDS_MAX_DIMENSION)
    {
      tress_reader_error_value (&r, error, 16, "DDS width", "1…16384", "%u", width);
      return NULL;
    }
  if (height == 0 || height > DDS_MAX_DIMENSION)
    {
      tress_reader_error_value (&r, error, 12, "DDS height", "1…16384", "%u", height);
      return NULL;
    }

  image = g_new0 (TressDdsImage, 1);
  image->width = width;
  image->height = height;
  image->mip_count = MAX (mips, 1);

  if (pf_flags & DDPF_FOURCC)
    {
      guint bx = (width + 3) / 4, by = (height + 3) / 4, block_size, x, y;
      const guint8 *src;

      if (fourcc == FOURCC ('D', 'X', 'T', '1'))
        image->kind = TRESS_DDS_DXT1;
      else if (fourcc == FOURCC ('D', 'X', 'T', '3'))
        image->kind = TRESS_DDS_DXT3;
      else if (fourcc == FOURCC ('D', 'X', 'T', '5'))
        image->kind = TRESS_DDS_DXT5;
      else
        {
          char cc[5] = { 0 };

          memcpy (cc, &fourcc, 4);
          for (x = 0; x < 4; x++)
            if (!g_ascii_isprint (cc[x]))
              cc[x] = '?';
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED,
                       "DDS fourCC at offset 0x54: expected DXT1, DXT3 or DXT5, found \"%s\"", cc);
          return NULL;
        }
      block_size = image->kind == TRESS_DDS_DXT1 ? 8 : 16;
      needed = (gsize)bx * by * block_size;
      if (!tress_reader_bytes (&r, needed, "DDS block data", &src, error))
        return NULL;
      pixels = g_malloc ((gsize)width * height * 4);
      for (y = 0; y < by; y++)
        for (x = 0; x < bx; x++)
          {
            guint8 block[64];
            guint py, px;

            tress_dds_decode_block (image->kind, src + ((gsize)y * bx + x) * block_size, block);
            for (py = 0; py < 4 && y * 4 + py < height; py++)
              for (px = 0; px < 4 && x * 4 + px < width; px++)
                memcpy (pixels + (((gsize)(y * 4 + py) * width) + x * 4 + px) * 4,
                        block + (py * 4 + px) * 4, 4);
          }
    }
  else if (pf_flags & (DDPF_RGB | DDPF_LUMINANCE | DDPF_ALPHA))
    {
      guint bpp = bit_count / 8, x, y;
      gsize row;
      const guint8 *src;

      if (bit_count == 0 || bit_count % 8 != 0 || bit_count > 32)
        {
          tress_reader_error_value (&r, error, 88, "DDS bit count", "8, 16, 24 or 32", "%u",
                                    bit_count);
          return NULL;
        }
      image->kind = TRESS_DDS_RGBA;
      /* Rows are packed; a pitch field (when flagged) may say otherwise, but
       * writers disagree on it, so the packed size is what is required. */
      row = (gsize)width * bpp;
      needed = row * height;
      if (!tress_reader_bytes (&r, needed, "DDS pixel data", &src, error))
        return NULL;
      if (!(pf_flags & (DDPF_ALPHAPIXELS | DDPF_ALPHA)))
        masks[3] = 0;
      pixels = g_malloc ((gsize)width * height * 4);
      for (y = 0; y < height; y++)
        for (x = 0; x < width; x++)
          {
            const guint8 *p = src + y * row + (gsize)x * bpp;
            guint8 *o = pixels + ((gsize)y * width + x) * 4;
            guint32 v = 0;
            guint b;

            for (b = 0; b < bpp; b++)
              v |= (guint32)p[b] << (8 * b);
            if (pf_flags & DDPF_LUMINANCE)
              o[0] = o[1] = o[2] = channel (v, masks[0], 0);
            else if ((pf_flags & DDPF_ALPHA) && !(pf_flags & DDPF_RGB))
              o[0] = o[1] = o[2] = 255;
            else
              {
                o[0] = channel (v, masks[0], 0);
                o[1] = channel (v, masks[1], 0);
                o[2] = channel (v, masks[2], 0);
              }
            o[3] = channel (v, masks[3], 255);
          }
    }
  else
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED,
                   "DDS pixel format flags at offset 0x50: expected FOURCC, RGB, luminance or "
                   "alpha, found 0x%x",
                   pf_flags);
      return NULL;
    }
  image->pixels = g_bytes_new_take (pixels, (gsize)width * height * 4);
  return g_steal_pointer (&image);
}
