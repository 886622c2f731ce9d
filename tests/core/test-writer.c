/* test-writer.c: the byte writer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "core/tress-writer.h"

static void
test_writer_round_trip (void)
{
  TressWriter w;
  g_autoptr (GBytes) bytes = NULL;
  TressReader r;
  g_autoptr (GError) error = NULL;
  guint32 u32;
  gint16 s16;
  float f;
  gsize size_pos, off_pos;
  g_autofree char *s = NULL;
  gsize target;

  tress_writer_init (&w, TRESS_BIG_ENDIAN, 0);
  tress_writer_u32 (&w, 0xCAFEBABE);
  size_pos = tress_writer_tell (&w);
  tress_writer_u32 (&w, 0);
  tress_writer_s16 (&w, -300);
  tress_writer_align (&w, 4);
  g_assert_cmpuint (tress_writer_tell (&w), ==, 12);
  tress_writer_f32 (&w, -2.5f);
  off_pos = tress_writer_tell (&w);
  tress_writer_u32 (&w, 0);
  tress_writer_fixed_string (&w, "radeon", 8);
  tress_writer_patch_offset (&w, off_pos, 4);
  tress_writer_patch_u32 (&w, size_pos, (guint32)tress_writer_tell (&w));
  bytes = tress_writer_finish (&w);
  tress_writer_clear (&w);

  g_assert_cmpuint (g_bytes_get_size (bytes), ==, 28);
  tress_reader_init (&r, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                     TRESS_BIG_ENDIAN);
  g_assert_true (tress_reader_u32 (&r, "magic", &u32, &error));
  g_assert_cmphex (u32, ==, 0xCAFEBABE);
  g_assert_true (tress_reader_u32 (&r, "size", &u32, &error));
  g_assert_cmpuint (u32, ==, 28);
  g_assert_true (tress_reader_s16 (&r, "s16", &s16, &error));
  g_assert_cmpint (s16, ==, -300);
  g_assert_true (tress_reader_align (&r, 4, "pad", &error));
  g_assert_true (tress_reader_f32 (&r, "f", &f, &error));
  g_assert_cmpfloat (f, ==, -2.5f);
  g_assert_true (tress_reader_offset (&r, "off", &target, NULL, &error));
  g_assert_cmpuint (target, ==, 4);
  g_assert_true (tress_reader_fixed_string (&r, 8, "name", &s, &error));
  g_assert_cmpstr (s, ==, "radeon");
  g_assert_no_error (error);
}

static void
test_writer_little_endian (void)
{
  TressWriter w;
  g_autoptr (GBytes) bytes = NULL;
  const guint8 expect[] = { 0x4b, 0x23, 0, 0, 0x01, 0x02 };

  tress_writer_init (&w, TRESS_LITTLE_ENDIAN, 16);
  tress_writer_u32 (&w, 9035);
  tress_writer_u16 (&w, 0x0201);
  bytes = tress_writer_finish (&w);
  tress_writer_clear (&w);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), expect, sizeof expect);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/writer/round-trip", test_writer_round_trip);
  g_test_add_func ("/writer/little-endian", test_writer_little_endian);
  return g_test_run ();
}
