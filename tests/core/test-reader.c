/* test-reader.c: the bounded byte reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "core/tress-reader.h"

static const guint8 data[] = { 0x12, 0x34, 0x56, 0x78, 0x3f, 0x80, 0x00, 0x00, 0xff,
                               0xfe, 'a',  'b',  0,    0,    0x00, 0x00, 0x00, 0x08 };

static void
test_reader_endianness (void)
{
  TressReader r;
  g_autoptr (GError) error = NULL;
  guint32 u32;
  guint16 u16;
  gint16 s16;
  float f;

  tress_reader_init (&r, data, sizeof data, TRESS_BIG_ENDIAN);
  g_assert_true (tress_reader_u32 (&r, "magic", &u32, &error));
  g_assert_cmphex (u32, ==, 0x12345678);
  g_assert_true (tress_reader_f32 (&r, "scale", &f, &error));
  g_assert_cmpfloat (f, ==, 1.0f);
  g_assert_true (tress_reader_s16 (&r, "delta", &s16, &error));
  g_assert_cmpint (s16, ==, -2);
  g_assert_no_error (error);

  tress_reader_init (&r, data, sizeof data, TRESS_LITTLE_ENDIAN);
  g_assert_true (tress_reader_u32 (&r, "magic", &u32, &error));
  g_assert_cmphex (u32, ==, 0x78563412);
  g_assert_true (tress_reader_u16 (&r, "x", &u16, &error));
  g_assert_cmphex (u16, ==, 0x803f);
  g_assert_no_error (error);
}

static void
test_reader_truncated (void)
{
  TressReader r;
  g_autoptr (GError) error = NULL;
  guint32 v = 1;

  tress_reader_init (&r, data, 6, TRESS_BIG_ENDIAN);
  g_assert_true (tress_reader_skip (&r, 4, "head", &error));
  g_assert_false (tress_reader_u32 (&r, "key count", &v, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_TRUNCATED);
  g_assert_cmpuint (v, ==, 0);
  /* The message names the field, the offset, what was expected and what was found. */
  g_assert_nonnull (strstr (error->message, "key count"));
  g_assert_nonnull (strstr (error->message, "0x4"));
  g_assert_nonnull (strstr (error->message, "expected 4 bytes"));
  g_assert_nonnull (strstr (error->message, "found 2"));
  g_assert_cmpuint (tress_reader_tell (&r), ==, 4);
}

static void
test_reader_count (void)
{
  TressReader r;
  g_autoptr (GError) error = NULL;
  guint32 count;

  /* 0x12345678 elements of 4 bytes cannot fit in 18 bytes. */
  tress_reader_init (&r, data, sizeof data, TRESS_BIG_ENDIAN);
  g_assert_false (tress_reader_count (&r, 4, 0, "ribbon count", &count, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT);
  g_assert_nonnull (strstr (error->message, "ribbon count"));
  g_assert_nonnull (strstr (error->message, "found 305419896"));
  g_clear_error (&error);

  tress_reader_init (&r, data + 14, 4, TRESS_BIG_ENDIAN);
  g_assert_false (tress_reader_count (&r, 1, 0, "n", &count, &error));
  g_clear_error (&error);
  tress_reader_init (&r, data + 14, 4, TRESS_BIG_ENDIAN);
  g_assert_false (tress_reader_count (&r, 0, 4, "n", &count, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT);
}

static void
test_reader_offset (void)
{
  guint8 buf[16] = { 0, 0, 0, 8, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xf8, 0, 0, 0x10, 0 };
  TressReader r;
  g_autoptr (GError) error = NULL;
  gsize target;
  gboolean is_null;

  tress_reader_init (&r, buf, sizeof buf, TRESS_BIG_ENDIAN);
  g_assert_true (tress_reader_offset (&r, "frames", &target, &is_null, &error));
  g_assert_cmpuint (target, ==, 8);
  g_assert_false (is_null);
  g_assert_true (tress_reader_offset (&r, "keys", &target, &is_null, &error));
  g_assert_true (is_null);
  g_assert_true (tress_reader_offset (&r, "back", &target, &is_null, &error));
  g_assert_cmpuint (target, ==, 0);
  g_assert_false (tress_reader_offset (&r, "far", &target, &is_null, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET);
  g_assert_nonnull (strstr (error->message, "far at offset 0xc"));
}

static void
test_reader_string_and_sub (void)
{
  TressReader r, sub;
  g_autoptr (GError) error = NULL;
  g_autofree char *s = NULL;
  guint8 v;

  tress_reader_init (&r, data, sizeof data, TRESS_BIG_ENDIAN);
  g_assert_true (tress_reader_sub (&r, 10, 4, "name", &sub, &error));
  g_assert_true (tress_reader_fixed_string (&sub, 4, "name", &s, &error));
  g_assert_cmpstr (s, ==, "ab");
  g_assert_false (tress_reader_u8 (&sub, "past", &v, &error));
  /* Errors of a sub-reader report positions in the whole data. */
  g_assert_nonnull (strstr (error->message, "0xe"));
  g_clear_error (&error);
  g_assert_false (tress_reader_sub (&r, 16, 4, "block", &sub, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_TRUNCATED);
}

static void
test_reader_align_and_loops (void)
{
  TressReader r;
  TressVisitSet set;
  g_autoptr (GError) error = NULL;
  guint8 v;

  tress_reader_init (&r, data, sizeof data, TRESS_BIG_ENDIAN);
  g_assert_true (tress_reader_u8 (&r, "a", &v, &error));
  g_assert_true (tress_reader_align (&r, 4, "pad", &error));
  g_assert_cmpuint (tress_reader_tell (&r), ==, 4);
  g_assert_true (tress_reader_align (&r, 4, "pad", &error));
  g_assert_cmpuint (tress_reader_tell (&r), ==, 4);

  tress_visit_set_init (&set);
  g_assert_true (tress_visit_set_add (&set, 0, "node", &error));
  g_assert_true (tress_visit_set_add (&set, 16, "node", &error));
  g_assert_false (tress_visit_set_add (&set, 16, "node", &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET);
  tress_visit_set_clear (&set);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/reader/endianness", test_reader_endianness);
  g_test_add_func ("/reader/truncated", test_reader_truncated);
  g_test_add_func ("/reader/count", test_reader_count);
  g_test_add_func ("/reader/offset", test_reader_offset);
  g_test_add_func ("/reader/string-and-sub", test_reader_string_and_sub);
  g_test_add_func ("/reader/align-and-loops", test_reader_align_and_loops);
  return g_test_run ();
}
