/* tress-png.c: writing textures as PNG files, fast
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-png.h"

#include "core/tress-file.h"

#include <glib/gi18n.h>
#include <png.h>

typedef struct
{
  GByteArray *bytes;
  char message[256]; /* libpng's error, if any */
} PngSink;

static void
sink_write (png_structp png, png_bytep data, png_size_t length)
{
  PngSink *sink = png_get_io_ptr (png);

  g_byte_array_append (sink->bytes, data, (guint)length);
}

static void
sink_flush (png_structp png)
{
}

static void
sink_error (png_structp png, png_const_charp message)
{
  PngSink *sink = png_get_error_ptr (png);

  g_strlcpy (sink->message, message, sizeof sink->message);
  png_longjmp (png, 1);
}

static void
sink_warning (png_structp png, png_const_charp message)
{
}

/* One row of premultiplied native-endian ARGB32 (what gdk_texture_download
 * gives) as straight-alpha RGBA bytes (what PNG stores). */
static void
row_to_rgba (const guint32 *in, guint8 *out, int width)
{
  for (int x = 0; x < width; x++, out += 4)
    {
      guint32 p = in[x];
      guint a = p >> 24, r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;

      if (a != 0 && a != 255)
        {
          r = (r * 255 + a / 2) / a;
          g = (g * 255 + a / 2) / a;
          b = (b * 255 + a / 2) / a;
        }
      out[0] = (guint8)MIN (r, 255);
      out[1] = (guint8)MIN (g, 255);
      out[2] = (guint8)MIN (b, 255);
      out[3] = (guint8)a;
    }
}

/* Encodes into @sink; FALSE with sink->message set on failure. Kept apart from
 * the caller so that nothing it owns lives across the setjmp. */
static gboolean
encode (const guint32 *pixels, int width, int height, PngSink *sink)
{
  png_structp png;
  png_infop info;
  guint8 *volatile row = NULL;
  volatile gboolean ok = FALSE;

  png = png_create_write_struct (PNG_LIBPNG_VER_STRING, sink, sink_error, sink_warning);
  if (png == NULL)
    {
      g_strlcpy (sink->message, "out of memory", sizeof sink->message);
      return FALSE;
    }
  info = png_create_info_struct (png);
  if (info == NULL)
    {
      png_destroy_write_struct (&png, NULL);
      g_strlcpy (sink->message, "out of memory", sizeof sink->message);
      return FALSE;
    }
  if (setjmp (png_jmpbuf (png)) == 0)
    {
      row = g_malloc ((gsize)width * 4);
      png_set_write_fn (png, sink, sink_write, sink_flush);
      /* One filter and a fast level: screenshots are mostly flat colour, where
       * trying the other filters and compressing harder gains little. */
      png_set_filter (png, PNG_FILTER_TYPE_BASE, PNG_FILTER_UP);
      png_set_compression_level (png, 3);
      png_set_IHDR (png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB_ALPHA,
                    PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
      png_write_info (png, info);
      for (int y = 0; y < height; y++)
        {
          row_to_rgba (pixels + (gsize)y * width, row, width);
          png_write_row (png, row);
        }
      png_write_end (png, info);
      ok = TRUE;
    }
  g_free (row);
  png_destroy_write_struct (&png, &info);
  return ok;
}

gboolean
tress_texture_save_png (GdkTexture *texture, const char *path, GError **error)
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  g_autofree guint32 *pixels = NULL;
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  PngSink sink = { bytes, "" };

  pixels = g_malloc ((gsize)width * height * 4);
  gdk_texture_download (texture, (guchar *)pixels, (gsize)width * 4);
  if (!encode (pixels, width, height, &sink))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _ ("Could not encode %s as PNG: %s"), path,
                   sink.message);
      return FALSE;
    }
  {
    g_autoptr (GFile) file = g_file_new_for_path (path);

    /* As documents are written: a kill or a full disk leaves no half file. */
    return tress_file_replace (file, (const char *)bytes->data, bytes->len, NULL, FALSE, NULL, NULL,
                               error);
  }
}
