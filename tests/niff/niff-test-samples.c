/* niff-test-samples.c: the shared NIFF samples and raw access to their bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "niff-test-samples.h"

#include <string.h>

const char *const niff_test_samples[NIFF_TEST_N_SAMPLES] = {
  "niff/3hedra.niff",         "niff/Rings.niff",       "niff/blend2niff-cube.nif",
  "niff/dragon.nif",          "niff/kirikobu.niff",    "niff/synthetic-all-channels.nif",
  "niff/synthetic-niff1.nif", "niff/yellow-cube.niff",
};

TressNiffFile *
niff_parse_ok (GBytes *bytes)
{
  g_autoptr (GError) error = NULL;
  TressNiffFile *file = tress_format_niff.parse (bytes, "test", &error);

  g_assert_no_error (error);
  g_assert_nonnull (file);
  return file;
}

guint32
niff_be32 (const guint8 *p)
{
  return ((guint32)p[0] << 24) | ((guint32)p[1] << 16) | ((guint32)p[2] << 8) | p[3];
}

double
niff_bef (const guint8 *p)
{
  guint32 u = niff_be32 (p);
  float f;

  memcpy (&f, &u, 4);
  return f;
}

void
niff_put32 (guint8 *p, guint32 v)
{
  p[0] = v >> 24;
  p[1] = v >> 16;
  p[2] = v >> 8;
  p[3] = v;
}

gsize
niff_raw_find_list (const guint8 *d, gsize size, guint32 tag)
{
  gsize pos = niff_be32 (d + 12);

  while (pos + 12 <= size)
    {
      if (niff_be32 (d + pos) == tag)
        return pos;
      pos += niff_be32 (d + pos + 8);
    }
  return 0;
}

gsize
niff_raw_element (const guint8 *d, gsize list, guint i)
{
  gsize pos = list + niff_be32 (d + list + 4);

  for (guint k = 0; k < i; k++)
    pos += niff_be32 (d + list + 24 + 4 * k);
  return pos;
}

gsize
niff_raw_group (const guint8 *d, gsize size, guint g)
{
  return niff_raw_element (d, niff_raw_find_list (d, size, 0x000c0000), g);
}
