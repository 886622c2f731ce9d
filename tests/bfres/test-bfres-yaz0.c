/* test-bfres-yaz0.c: Yaz0 decompression and compression
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "core/tress-error.h"
#include "core/tress-yaz0.h"
#include "tress-test-utils.h"

static void
round_trip (const guint8 *data, gsize size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) z = tress_yaz0_compress (data, size, (const guint8 *)"\0\0\x20\0\0\0\0\0");
  g_autoptr (GBytes) back = NULL;
  const guint8 *zd = g_bytes_get_data (z, NULL);

  g_assert_cmpmem (zd, 4, "Yaz0", 4);
  g_assert_cmpuint (tress_yaz0_get_size (zd, g_bytes_get_size (z)), ==, size);
  g_assert_cmpuint (zd[10], ==, 0x20); /* reserved bytes kept */
  back = tress_yaz0_decompress (zd, g_bytes_get_size (z), 0, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (back, NULL), g_bytes_get_size (back), data, size);
}

static void
test_round_trips (void)
{
  guint8 buf[70000];
  GRand *rand = g_rand_new_with_seed (7);

  round_trip (buf, 0);
  memset (buf, 'a', sizeof buf);
  round_trip (buf, 1);
  round_trip (buf, 3);
  round_trip (buf, sizeof buf); /* long runs: 3-byte references */
  for (gsize i = 0; i < sizeof buf; i++)
    buf[i] = (guint8)g_rand_int (rand);
  round_trip (buf, sizeof buf); /* incompressible: all literals */
  for (gsize i = 0; i < sizeof buf; i++)
    buf[i] = "abcabdabcabe"[i % 12] + (i % 4096 == 0);
  round_trip (buf, sizeof buf);
  g_rand_free (rand);
}

static void
test_sample_ratio (void)
{
  g_autoptr (GBytes) z = tress_test_load_sample ("bfres/Animal_Bass_Animation.sbfres");
  g_autoptr (GBytes) raw = tress_test_load_sample ("bfres/Animal_Bass_Animation.bfres");
  g_autoptr (GBytes) dec = NULL, again = NULL;
  g_autoptr (GError) error = NULL;

  if (z == NULL || raw == NULL)
    return;
  dec = tress_yaz0_decompress (g_bytes_get_data (z, NULL), g_bytes_get_size (z), 0, &error);
  g_assert_no_error (error);
  tress_test_assert_bytes_equal (dec, raw);
  again = tress_yaz0_compress (g_bytes_get_data (raw, NULL), g_bytes_get_size (raw),
                               (const guint8 *)g_bytes_get_data (z, NULL) + 8);
  g_test_message ("sample: %" G_GSIZE_FORMAT " bytes compressed by Nintendo, %" G_GSIZE_FORMAT
                  " by us",
                  g_bytes_get_size (z), g_bytes_get_size (again));
  g_assert_cmpuint (g_bytes_get_size (again) * 100, <=, g_bytes_get_size (z) * 105);
}

static void
test_broken (void)
{
  guint8 hdr[16] = "Yaz0";
  g_autoptr (GError) e1 = NULL, e2 = NULL, e3 = NULL, e4 = NULL;

  g_assert_null (tress_yaz0_decompress (hdr, 8, 0, &e1));
  g_assert_error (e1, TRESS_ERROR, TRESS_ERROR_TRUNCATED);
  hdr[7] = 10; /* 10 bytes announced, none present */
  g_assert_null (tress_yaz0_decompress (hdr, 16, 0, &e2));
  g_assert_error (e2, TRESS_ERROR, TRESS_ERROR_BAD_COUNT);
  {
    guint8 s[20] = "Yaz0";
    s[7] = 10;
    s[16] = 0xFF;
    s[17] = 'x';
    g_assert_null (tress_yaz0_decompress (s, 18, 0, &e3));
    g_assert_error (e3, TRESS_ERROR, TRESS_ERROR_TRUNCATED);
    g_assert_nonnull (strstr (e3->message, "offset"));
  }
  {
    guint8 s[20] = "Yaz0";
    s[7] = 4;
    s[16] = 0x7F; /* a reference first */
    s[17] = 0x20;
    s[18] = 0x00;
    g_assert_null (tress_yaz0_decompress (s, 20, 0, &e4));
    g_assert_error (e4, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bfres/yaz0/round-trips", test_round_trips);
  g_test_add_func ("/bfres/yaz0/sample-ratio", test_sample_ratio);
  g_test_add_func ("/bfres/yaz0/broken", test_broken);
  return g_test_run ();
}
