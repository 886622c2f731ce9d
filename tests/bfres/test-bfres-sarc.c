/* test-bfres-sarc.c: a BFRES inside a Yaz0-compressed SARC archive opens,
 * lists the archive, and saves back with every other file byte-identical
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "bfres-test-common.h"
#include "core/tress-yaz0.h"
#include "formats/bfres/tress-bfres-builder.h"
#include "formats/bfres/tress-sarc.h"
#include "tress-test-utils.h"

typedef struct
{
  const char *name;
  GBytes *data;
  gsize align;
} File;

static void
put32 (GByteArray *a, gsize pos, guint32 v)
{
  a->data[pos] = v >> 24, a->data[pos + 1] = v >> 16, a->data[pos + 2] = v >> 8,
  a->data[pos + 3] = v;
}

static void
put16 (GByteArray *a, gsize pos, guint16 v)
{
  a->data[pos] = v >> 8, a->data[pos + 1] = v & 0xFF;
}

static void
grow (GByteArray *a, gsize to)
{
  gsize old = a->len;
  g_byte_array_set_size (a, to);
  memset (a->data + old, 0, to - old);
}

/* A big-endian SARC, written here from the layout alone. */
static GBytes *
make_sarc (const File *files, guint n)
{
  GByteArray *a = g_byte_array_new ();
  gsize names_at, data_at;
  g_autofree gsize *name_off = g_new (gsize, n);

  grow (a, 0x20 + 16 * (gsize)n + 8);
  memcpy (a->data, "SARC", 4);
  put16 (a, 4, 0x14);
  put16 (a, 6, 0xFEFF);
  put16 (a, 0x10, 0x0100);
  memcpy (a->data + 0x14, "SFAT", 4);
  put16 (a, 0x18, 0x0C);
  put16 (a, 0x1A, (guint16)n);
  put32 (a, 0x1C, 0x65);
  names_at = 0x20 + 16 * (gsize)n;
  memcpy (a->data + names_at, "SFNT", 4);
  put16 (a, names_at + 4, 8);
  for (guint i = 0; i < n; i++)
    {
      name_off[i] = a->len - (names_at + 8);
      g_byte_array_append (a, (const guint8 *)files[i].name, strlen (files[i].name) + 1);
      grow (a, (a->len + 3) & ~(gsize)3);
    }
  grow (a, (a->len + 0xFF) & ~(gsize)0xFF);
  data_at = a->len;
  put32 (a, 0x0C, (guint32)data_at);
  for (guint i = 0; i < n; i++)
    {
      gsize start;
      grow (a, (a->len + files[i].align - 1) & ~(files[i].align - 1));
      start = a->len - data_at;
      g_byte_array_append (a, g_bytes_get_data (files[i].data, NULL),
                           g_bytes_get_size (files[i].data));
      put32 (a, 0x20 + 16 * i, 0x1000 + i);
      put32 (a, 0x20 + 16 * i + 4, 0x01000000 | (guint32)(name_off[i] / 4));
      put32 (a, 0x20 + 16 * i + 8, (guint32)start);
      put32 (a, 0x20 + 16 * i + 12, (guint32)(a->len - data_at));
    }
  put32 (a, 8, a->len);
  return g_byte_array_free_to_bytes (a);
}

static void
test_szs (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) demo = tress_bfres_build_demo (&error);
  g_autoptr (GBytes) txt = g_bytes_new_static ("course settings\n", 16);
  g_autoptr (GBytes) tail = g_bytes_new_static ("TAIL-DATA-0123456789", 20);
  File files[3]
      = { { "course.txt", txt, 4 }, { "Model/demo.bfres", demo, 0x100 }, { "z.bin", tail, 0x80 } };
  g_autoptr (GBytes) sarc = make_sarc (files, 3);
  g_autoptr (GBytes) szs
      = tress_yaz0_compress (g_bytes_get_data (sarc, NULL), g_bytes_get_size (sarc), NULL);
  g_autoptr (TressBfres) b = NULL;
  g_autoptr (GBytes) same = NULL, saved = NULL, archive = NULL, edited = NULL;
  g_autoptr (TressSarc) out = NULL;
  g_autoptr (TressCurve) curve = NULL;
  g_auto (GStrv) list = NULL;
  g_autoptr (GBytes) f0 = NULL, f2 = NULL;

  g_assert_no_error (error);
  g_assert_true (tress_format_bfres.probe (g_bytes_get_data (szs, NULL), g_bytes_get_size (szs)));
  g_assert_true (tress_format_bfres.probe (g_bytes_get_data (sarc, NULL), g_bytes_get_size (sarc)));
  b = tress_bfres_parse (szs, "course.szs", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tress_bfres_get_container (b), ==, "Yaz0/SARC");
  list = tress_bfres_list_archive (b);
  g_assert_cmpuint (g_strv_length (list), ==, 3);
  g_assert_cmpstr (list[1], ==, "Model/demo.bfres");
  same = tress_bfres_serialize (b, &error);
  tress_test_assert_bytes_equal (same, szs);

  /* Grow the BFRES: more keys on a wave. */
  curve = tress_format_bfres.curves->get_curve (b, 1);
  for (double f = 5; f < 60; f += 10)
    tress_curve_insert_on_curve (curve, f, NULL);
  g_assert_true (tress_format_bfres.curves->set_curve (b, 1, curve, NULL, &error));
  g_assert_no_error (error);
  saved = tress_bfres_serialize (b, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (saved, NULL), 4, "Yaz0", 4);
  archive
      = tress_yaz0_decompress (g_bytes_get_data (saved, NULL), g_bytes_get_size (saved), 0, &error);
  g_assert_no_error (error);
  out = tress_sarc_parse (archive, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tress_sarc_get_n_files (out), ==, 3);
  edited = tress_sarc_get_file (out, 1);
  {
    g_autoptr (GBytes) inner = tress_bfres_get_bfres_bytes (b);
    tress_test_assert_bytes_equal (edited, inner);
    g_assert_cmpuint (g_bytes_get_size (inner), >, g_bytes_get_size (demo));
  }
  f0 = tress_sarc_get_file (out, 0);
  f2 = tress_sarc_get_file (out, 2);
  tress_test_assert_bytes_equal (f0, txt);
  tress_test_assert_bytes_equal (f2, tail);
  g_assert_cmpuint (tress_sarc_get_entry (out, 1)->start % 0x100, ==, 0);
  g_assert_cmpuint (tress_sarc_get_entry (out, 2)->start % 0x80, ==, 0);
  g_assert_cmpuint (ref_u32 (g_bytes_get_data (archive, NULL), 8), ==, g_bytes_get_size (archive));
  /* Everything before the BFRES (headers aside from node ends) is unchanged. */
  g_assert_cmpmem ((const guint8 *)g_bytes_get_data (archive, NULL) + 0x40,
                   tress_sarc_get_entry (out, 1)->start - 0x40,
                   (const guint8 *)g_bytes_get_data (sarc, NULL) + 0x40,
                   tress_sarc_get_entry (out, 1)->start - 0x40);
  {
    g_autoptr (TressBfres) again = tress_bfres_parse (saved, "again", &error);
    g_assert_no_error (error);
    g_assert_cmpuint (tress_bfres_get_n_curves (again), ==, tress_bfres_get_n_curves (b));
  }
}

/* Archives mix the BFRES with other Yaz0 files (.sbyml, packs): the one that
 * holds a BFRES is opened, wherever it sorts, also inside a nested archive. */
static void
test_mixed_archive (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) demo = tress_bfres_build_demo (&error);
  g_autoptr (GBytes) byml = g_bytes_new_static ("BY\0\2 settings, not a BFRES......", 32);
  g_autoptr (GBytes) sbyml
      = tress_yaz0_compress (g_bytes_get_data (byml, NULL), g_bytes_get_size (byml), NULL);
  g_autoptr (GBytes) sbfres
      = tress_yaz0_compress (g_bytes_get_data (demo, NULL), g_bytes_get_size (demo), NULL);
  File files[2] = { { "Actor/a.sbyml", sbyml, 4 }, { "Model/x.sbfres", sbfres, 0x100 } };
  g_autoptr (GBytes) sarc = make_sarc (files, 2);
  g_autoptr (TressBfres) b = tress_bfres_parse (sarc, "mixed.sarc", &error);
  g_autoptr (GBytes) inner = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (tress_bfres_get_container (b), ==, "SARC/Yaz0");
  inner = tress_bfres_get_bfres_bytes (b);
  tress_test_assert_bytes_equal (inner, demo);

  /* One level down: a pack (Yaz0 SARC) beside the settings. */
  {
    File inner_files[2] = { { "Actor/b.sbyml", sbyml, 4 }, { "Model/x.sbfres", sbfres, 0x100 } };
    g_autoptr (GBytes) pack_sarc = make_sarc (inner_files, 2);
    g_autoptr (GBytes) pack = tress_yaz0_compress (g_bytes_get_data (pack_sarc, NULL),
                                                   g_bytes_get_size (pack_sarc), NULL);
    File outer[2] = { { "Actor/a.sbyml", sbyml, 4 }, { "Pack/x.sbactorpack", pack, 4 } };
    g_autoptr (GBytes) top = make_sarc (outer, 2);
    g_autoptr (TressBfres) nested = tress_bfres_parse (top, "nested.sarc", &error);

    g_assert_no_error (error);
    g_assert_cmpstr (tress_bfres_get_container (nested), ==, "SARC/Yaz0/SARC/Yaz0");
  }
  /* A broken BFRES inside: the error says whose offsets it gives. */
  {
    g_autoptr (GBytes) cut = g_bytes_new_from_bytes (demo, 0, 0x30);
    File broken[2] = { { "Actor/a.sbyml", sbyml, 4 }, { "Model/x.bfres", cut, 0x100 } };
    g_autoptr (GBytes) archive = make_sarc (broken, 2);
    g_autoptr (TressBfres) none = tress_bfres_parse (archive, "broken.sarc", &error);

    g_assert_null (none);
    g_assert_nonnull (strstr (error->message, "In the BFRES inside SARC entry “Model/x.bfres” "
                                              "(offsets count from its start)"));
    g_clear_error (&error);
  }
  /* No BFRES anywhere: said so. */
  {
    File none[1] = { { "Actor/a.sbyml", sbyml, 4 } };
    g_autoptr (GBytes) only = make_sarc (none, 1);
    g_autoptr (TressBfres) nothing = tress_bfres_parse (only, "none.sarc", &error);

    g_assert_null (nothing);
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED);
    g_assert_nonnull (strstr (error->message, "holds no BFRES"));
  }
}

static void
test_bad_sarc (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) demo = tress_bfres_build_demo (&error);
  File files[1] = { { "a.bfres", demo, 4 } };
  g_autoptr (GBytes) sarc = make_sarc (files, 1);
  gsize size = g_bytes_get_size (sarc);
  g_autofree guint8 *d = g_memdup2 (g_bytes_get_data (sarc, NULL), size);

  d[0x1A] = 0x7F; /* node count */
  {
    g_autoptr (GBytes) bytes = g_bytes_new (d, size);
    g_autoptr (GError) e = NULL;
    g_assert_null (tress_bfres_parse (bytes, "bad", &e));
    g_assert_error (e, TRESS_ERROR, TRESS_ERROR_BAD_COUNT);
  }
  d[0x1A] = 0x00;
  d[0x2C] = 0x7F; /* file end far past the archive */
  {
    g_autoptr (GBytes) bytes = g_bytes_new (d, size);
    g_autoptr (GError) e = NULL;
    g_assert_null (tress_bfres_parse (bytes, "bad", &e));
    g_assert_error (e, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bfres/sarc/yaz0-sarc-edit", test_szs);
  g_test_add_func ("/bfres/sarc/mixed-archive", test_mixed_archive);
  g_test_add_func ("/bfres/sarc/bad", test_bad_sarc);
  return g_test_run ();
}
