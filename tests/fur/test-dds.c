/* test-dds.c: DDS decoding (DXT1, DXT3, DXT5, uncompressed) and its errors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "core/tress-dds.h"
#include "core/tress-error.h"

static void
put32 (guint8 *p, guint32 v)
{
  p[0] = v & 0xff;
  p[1] = (v >> 8) & 0xff;
  p[2] = (v >> 16) & 0xff;
  p[3] = (v >> 24) & 0xff;
}

/* A DDS header followed by @payload. */
static GByteArray *
make_dds (guint width, guint height, guint32 pf_flags, const char *fourcc, guint bits,
          const guint32 masks[4], const guint8 *payload, gsize payload_size)
{
  GByteArray *a = g_byte_array_new ();
  guint8 h[128] = { 0 };
  guint i;

  memcpy (h, "DDS ", 4);
  put32 (h + 4, 124);
  put32 (h + 8, 0x1007);
  put32 (h + 12, height);
  put32 (h + 16, width);
  put32 (h + 28, 1);
  put32 (h + 76, 32);
  put32 (h + 80, pf_flags);
  if (fourcc != NULL)
    memcpy (h + 84, fourcc, 4);
  put32 (h + 88, bits);
  for (i = 0; masks != NULL && i < 4; i++)
    put32 (h + 92 + 4 * i, masks[i]);
  put32 (h + 108, 0x1000);
  g_byte_array_append (a, h, sizeof h);
  if (payload_size > 0)
    g_byte_array_append (a, payload, (guint)payload_size);
  return a;
}

static const guint8 *
pixel (const TressDdsImage *img, guint x, guint y)
{
  const guint8 *p = g_bytes_get_data (img->pixels, NULL);
  return p + ((gsize)y * img->width + x) * 4;
}

static void
assert_rgba (const guint8 *p, guint r, guint g, guint b, guint a)
{
  g_assert_cmpuint (p[0], ==, r);
  g_assert_cmpuint (p[1], ==, g);
  g_assert_cmpuint (p[2], ==, b);
  g_assert_cmpuint (p[3], ==, a);
}

/* DXT1 four-colour block: c0 = pure red, c1 = pure blue, indices 0,1,2,3 per row. */
static const guint8 dxt1_block[8] = { 0x00, 0xf8, 0x1f, 0x00, 0xe4, 0xe4, 0xe4, 0xe4 };

static void
test_dds_dxt1 (void)
{
  g_autoptr (GByteArray) a = make_dds (4, 4, 0x4, "DXT1", 0, NULL, dxt1_block, 8);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressDdsImage) img = tress_dds_decode (a->data, a->len, &error);

  g_assert_no_error (error);
  g_assert_nonnull (img);
  g_assert_cmpuint (img->kind, ==, TRESS_DDS_DXT1);
  g_assert_cmpuint (img->width, ==, 4);
  g_assert_cmpuint (g_bytes_get_size (img->pixels), ==, 64);
  /* index byte 0xe4 = 0b11100100: pixels 0..3 use palette 0,1,2,3 */
  assert_rgba (pixel (img, 0, 0), 255, 0, 0, 255);
  assert_rgba (pixel (img, 1, 0), 0, 0, 255, 255);
  assert_rgba (pixel (img, 2, 0), 170, 0, 85, 255);
  assert_rgba (pixel (img, 3, 3), 85, 0, 170, 255);
}

static void
test_dds_dxt1_punch_through (void)
{
  /* c0 (blue) <= c1 (red): three colours and transparent black at index 3. */
  const guint8 block[8] = { 0x1f, 0x00, 0x00, 0xf8, 0xe4, 0xe4, 0xe4, 0xe4 };
  g_autoptr (GByteArray) a = make_dds (4, 4, 0x4, "DXT1", 0, NULL, block, 8);
  g_autoptr (TressDdsImage) img = tress_dds_decode (a->data, a->len, NULL);

  g_assert_nonnull (img);
  assert_rgba (pixel (img, 0, 0), 0, 0, 255, 255);
  assert_rgba (pixel (img, 2, 1), 127, 0, 127, 255);
  assert_rgba (pixel (img, 3, 2), 0, 0, 0, 0);
}

static void
test_dds_dxt3 (void)
{
  guint8 block[16];
  g_autoptr (GByteArray) a = NULL;
  g_autoptr (TressDdsImage) img = NULL;

  /* Explicit alpha: pixel i gets nibble i → alpha (i % 16) × 17. */
  for (guint i = 0; i < 8; i++)
    block[i] = (guint8)((2 * i) | ((2 * i + 1) << 4));
  memcpy (block + 8, dxt1_block, 8);
  a = make_dds (4, 4, 0x4, "DXT3", 0, NULL, block, 16);
  img = tress_dds_decode (a->data, a->len, NULL);
  g_assert_nonnull (img);
  g_assert_cmpuint (img->kind, ==, TRESS_DDS_DXT3);
  assert_rgba (pixel (img, 0, 0), 255, 0, 0, 0);
  assert_rgba (pixel (img, 1, 0), 0, 0, 255, 17);
  assert_rgba (pixel (img, 3, 3), 85, 0, 170, 255);
}

static void
test_dds_dxt5 (void)
{
  guint8 block[16] = { 255, 0 };
  g_autoptr (GByteArray) a = NULL;
  g_autoptr (TressDdsImage) img = NULL;

  /* a0 > a1: eight-step ramp; pixel i uses index i % 8. */
  guint64 bits = 0;
  for (guint i = 0; i < 16; i++)
    bits |= (guint64)(i % 8) << (3 * i);
  for (guint i = 0; i < 6; i++)
    block[2 + i] = (guint8)(bits >> (8 * i));
  memcpy (block + 8, dxt1_block, 8);
  a = make_dds (4, 4, 0x4, "DXT5", 0, NULL, block, 16);
  img = tress_dds_decode (a->data, a->len, NULL);
  g_assert_nonnull (img);
  g_assert_cmpuint (pixel (img, 0, 0)[3], ==, 255);
  g_assert_cmpuint (pixel (img, 1, 0)[3], ==, 0);
  g_assert_cmpuint (pixel (img, 2, 0)[3], ==, 218); /* (6·255 + 0)/7 */
  g_assert_cmpuint (pixel (img, 3, 1)[3], ==, 36);  /* index 7: (1·255)/7 */

  /* a0 <= a1: six steps, then 0 and 255. */
  block[0] = 0;
  block[1] = 100;
  g_clear_pointer (&a, g_byte_array_unref);
  g_clear_pointer (&img, tress_dds_image_free);
  a = make_dds (4, 4, 0x4, "DXT5", 0, NULL, block, 16);
  img = tress_dds_decode (a->data, a->len, NULL);
  g_assert_nonnull (img);
  g_assert_cmpuint (pixel (img, 2, 0)[3], ==, 20);
  g_assert_cmpuint (pixel (img, 2, 1)[3], ==, 0);   /* index 6 */
  g_assert_cmpuint (pixel (img, 3, 1)[3], ==, 255); /* index 7 */
}

static void
test_dds_partial_blocks (void)
{
  /* 5×3 needs 2×1 blocks; pixels outside the image are dropped. */
  guint8 blocks[16];
  g_autoptr (GByteArray) a = NULL;
  g_autoptr (TressDdsImage) img = NULL;

  memcpy (blocks, dxt1_block, 8);
  memcpy (blocks + 8, dxt1_block, 8);
  blocks[8 + 4] = 0x55; /* second block, first row: all index 1 (blue) */
  a = make_dds (5, 3, 0x4, "DXT1", 0, NULL, blocks, 16);
  img = tress_dds_decode (a->data, a->len, NULL);
  g_assert_nonnull (img);
  g_assert_cmpuint (g_bytes_get_size (img->pixels), ==, 5 * 3 * 4);
  assert_rgba (pixel (img, 4, 0), 0, 0, 255, 255);
  assert_rgba (pixel (img, 3, 2), 85, 0, 170, 255);
}

static void
test_dds_uncompressed (void)
{
  const guint32 argb[4] = { 0x00ff0000, 0x0000ff00, 0x000000ff, 0xff000000 };
  const guint32 rgb565[4] = { 0xf800, 0x07e0, 0x001f, 0 };
  const guint32 lum[4] = { 0xff, 0, 0, 0 };
  const guint8 px32[8] = { 0x30, 0x20, 0x10, 0x80, 0x01, 0x02, 0x03, 0xff };
  const guint8 px16[4] = { 0x00, 0xf8, 0x1f, 0x00 };
  const guint8 px8[2] = { 7, 200 };
  g_autoptr (GByteArray) a = make_dds (2, 1, 0x41, NULL, 32, argb, px32, 8);
  g_autoptr (GByteArray) b = make_dds (2, 1, 0x40, NULL, 16, rgb565, px16, 4);
  g_autoptr (GByteArray) c = make_dds (1, 2, 0x20000, NULL, 8, lum, px8, 2);
  g_autoptr (TressDdsImage) ia = tress_dds_decode (a->data, a->len, NULL);
  g_autoptr (TressDdsImage) ib = tress_dds_decode (b->data, b->len, NULL);
  g_autoptr (TressDdsImage) ic = tress_dds_decode (c->data, c->len, NULL);

  g_assert_nonnull (ia);
  g_assert_cmpuint (ia->kind, ==, TRESS_DDS_RGBA);
  assert_rgba (pixel (ia, 0, 0), 0x10, 0x20, 0x30, 0x80);
  assert_rgba (pixel (ia, 1, 0), 0x03, 0x02, 0x01, 0xff);
  g_assert_nonnull (ib);
  assert_rgba (pixel (ib, 0, 0), 255, 0, 0, 255);
  assert_rgba (pixel (ib, 1, 0), 0, 0, 255, 255);
  g_assert_nonnull (ic);
  assert_rgba (pixel (ic, 0, 1), 200, 200, 200, 255);
}

static void
test_dds_errors (void)
{
  g_autoptr (GByteArray) ok = make_dds (8, 8, 0x4, "DXT1", 0, NULL, NULL, 0);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressDdsImage) img = NULL;
  guint8 payload[4 * 8] = { 0 };

  g_byte_array_append (ok, payload, sizeof payload);

  /* Every truncation fails cleanly. */
  for (guint len = 0; len < ok->len; len++)
    {
      img = tress_dds_decode (ok->data, len, &error);
      g_assert_null (img);
      g_assert_error (error, TRESS_ERROR, TRESS_ERROR_TRUNCATED);
      g_clear_error (&error);
    }
  img = tress_dds_decode (ok->data, ok->len, &error);
  g_assert_no_error (error);
  g_clear_pointer (&img, tress_dds_image_free);

  /* The truncated block data names the field and the offset. */
  img = tress_dds_decode (ok->data, ok->len - 1, &error);
  g_assert_null (img);
  g_assert_nonnull (strstr (error->message, "DDS block data"));
  g_assert_nonnull (strstr (error->message, "0x80"));
  g_clear_error (&error);

  /* A huge size with no data is an error, not a huge allocation. */
  put32 (ok->data + 12, 16384);
  put32 (ok->data + 16, 16384);
  img = tress_dds_decode (ok->data, ok->len, &error);
  g_assert_null (img);
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_TRUNCATED);
  g_clear_error (&error);

  put32 (ok->data + 16, 100000);
  img = tress_dds_decode (ok->data, ok->len, &error);
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE);
  g_assert_nonnull (strstr (error->message, "DDS width"));
  g_clear_error (&error);
  put32 (ok->data + 12, 8);
  put32 (ok->data + 16, 8);

  memcpy (ok->data + 84, "ATI2", 4);
  img = tress_dds_decode (ok->data, ok->len, &error);
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "ATI2"));
  g_clear_error (&error);

  ok->data[0] = 'X';
  g_assert_false (tress_dds_probe (ok->data, ok->len));
  img = tress_dds_decode (ok->data, ok->len, &error);
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE);
  g_assert_nonnull (strstr (error->message, "DDS magic"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dds/dxt1", test_dds_dxt1);
  g_test_add_func ("/dds/dxt1-punch-through", test_dds_dxt1_punch_through);
  g_test_add_func ("/dds/dxt3", test_dds_dxt3);
  g_test_add_func ("/dds/dxt5", test_dds_dxt5);
  g_test_add_func ("/dds/partial-blocks", test_dds_partial_blocks);
  g_test_add_func ("/dds/uncompressed", test_dds_uncompressed);
  g_test_add_func ("/dds/errors", test_dds_errors);
  return g_test_run ();
}
