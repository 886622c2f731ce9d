/* make-corpus.c: writes the fuzz seed corpus (tests/bfres/corpus) from the
 * builder: every curve family, both version families, Yaz0 and SARC wrappers.
 *   ./build/tests/bfres/make-bfres-corpus tests/bfres/corpus
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "core/tress-yaz0.h"
#include "formats/bfres/tress-bfres-builder.h"

static void
save (const char *dir, const char *name, GBytes *bytes)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;
  if (!g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error))
    g_error ("%s", error->message);
}

static GBytes *
all_types (guint32 version)
{
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("Corpus", version);
  TressKey keys[4];
  TressBfresBuilderCurve c = { 0 };

  for (int i = 0; i < 4; i++)
    keys[i] = (TressKey){ .frame = i, .value = i % 2, .in_slope = 0.5, .out_slope = 0.5 };
  c.keys = keys;
  c.n_keys = 4;
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_SKELETAL, "Ska", 4, TRUE);
  tress_bfres_builder_add_bone (b, "Bone");
  for (int t = 0; t < 3; t++)
    {
      c.curve_type = t;
      c.frame_type = t;
      c.key_type = 2 - t;
      c.target_offset = 0x20 + 4 * t;
      tress_bfres_builder_add_curve (b, &c);
    }
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_COLOUR, "Shu", 4, FALSE);
  tress_bfres_builder_add_material (b, "Mat");
  tress_bfres_builder_add_param (b, "color");
  c.curve_type = TRESS_BFRES_CURVE_LINEAR;
  c.target_offset = 4;
  tress_bfres_builder_add_curve (b, &c);
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_TEX_PATTERN, "Txp", 4, FALSE);
  tress_bfres_builder_add_texture (b, "T0");
  tress_bfres_builder_add_texture (b, "T1");
  tress_bfres_builder_add_material (b, "Mat");
  c.curve_type = TRESS_BFRES_CURVE_BAKED_INT;
  c.name = "_a0";
  tress_bfres_builder_add_curve (b, &c);
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_MAT_VISIBILITY, "Vis", 4, FALSE);
  c.curve_type = TRESS_BFRES_CURVE_BAKED_BOOL;
  c.name = "Lamp";
  tress_bfres_builder_add_curve (b, &c);
  return tress_bfres_builder_finish (b, NULL);
}

static GBytes *
sarc_of (GBytes *inner)
{
  GByteArray *a = g_byte_array_new ();
  static const guint8 head[] = {
    'S', 'A', 'R', 'C', 0,   0x14, 0xFE, 0xFF, 0,   0,    0,   0,   0,   0,   0,   0x40,
    1,   0,   0,   0,   'S', 'F',  'A',  'T',  0,   0x0C, 0,   1,   0,   0,   0,   0x65,
    0,   0,   0,   1,   1,   0,    0,    0,    0,   0,    0,   0,   0,   0,   0,   0,
    'S', 'F', 'N', 'T', 0,   8,    0,    0,    'a', '.',  'b', 'f', 'r', 'e', 's', 0,
  };
  gsize n = g_bytes_get_size (inner);
  g_byte_array_append (a, head, sizeof head);
  g_byte_array_append (a, g_bytes_get_data (inner, NULL), n);
  a->data[0x2C] = n >> 24, a->data[0x2D] = n >> 16, a->data[0x2E] = n >> 8, a->data[0x2F] = n;
  a->data[8] = a->len >> 24, a->data[9] = a->len >> 16, a->data[10] = a->len >> 8,
  a->data[11] = a->len;
  return g_byte_array_free_to_bytes (a);
}

int
main (int argc, char **argv)
{
  g_autoptr (GBytes) demo = tress_bfres_build_demo (NULL);
  g_autoptr (GBytes) v34 = all_types (0x03040004);
  g_autoptr (GBytes) v33 = all_types (0x03030000);
  g_autoptr (GBytes) sarc = sarc_of (demo);
  g_autoptr (GBytes) zdemo
      = tress_yaz0_compress (g_bytes_get_data (demo, NULL), g_bytes_get_size (demo), NULL);
  g_autoptr (GBytes) zsarc
      = tress_yaz0_compress (g_bytes_get_data (sarc, NULL), g_bytes_get_size (sarc), NULL);
  g_autoptr (GBytes) cut = g_bytes_new_from_bytes (demo, 0, g_bytes_get_size (demo) / 2);

  if (argc != 2)
    {
      g_printerr ("usage: make-bfres-corpus DIR\n");
      return 2;
    }
  g_mkdir_with_parents (argv[1], 0755);
  save (argv[1], "demo.bfres", demo);
  save (argv[1], "all-types-v3.4.bfres", v34);
  save (argv[1], "all-types-v3.3.bfres", v33);
  save (argv[1], "demo.sarc", sarc);
  save (argv[1], "demo.sbfres", zdemo);
  save (argv[1], "demo.szs", zsarc);
  save (argv[1], "demo-cut.bfres", cut);
  return 0;
}
