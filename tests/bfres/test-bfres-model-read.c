/* test-bfres-model-read.c: what the model reader tells of a built file
 *
 * Every GX2 attribute format the reader knows has the size and component
 * count its name spells ("16_16_16_16_Single": four 16-bit halves, 8 bytes),
 * and decodes its bytes as the name says. A damaged bone index group or
 * vertex buffer index is refused at the offset of the field, naming it; a
 * null bone index group is allowed. `tress-cli info` says how the skeleton
 * scales and which bone each bone is a child of; the dump lists the vertex
 * buffers the model has, no more. No samples needed: the files are built.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "formats/bfres/tress-bfres-builder.h"
#include "formats/bfres/tress-bfres-model.h"
#include "tress-test-utils.h"

static void
put_u16 (guint8 *d, gsize pos, guint16 v)
{
  d[pos] = (guint8)(v >> 8);
  d[pos + 1] = (guint8)v;
}

static void
put_u32 (guint8 *d, gsize pos, guint32 v)
{
  put_u16 (d, pos, (guint16)(v >> 16));
  put_u16 (d, pos + 2, (guint16)v);
}

static guint32
get_u32 (const guint8 *d, gsize pos)
{
  return (guint32)d[pos] << 24 | (guint32)d[pos + 1] << 16 | (guint32)d[pos + 2] << 8 | d[pos + 3];
}

/* A built file with one model "Creature": a skeleton of @n_bones bones
 * (Root, then Bone_001… whose first five are children of Root), standard
 * scaling, Euler rotations, one skinned shape. */
static GByteArray *
built_model (guint n_bones)
{
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("Built", 0x04050003);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  GByteArray *copy = g_byte_array_new ();

  tress_bfres_builder_add_test_model (b, "Creature", n_bones, 200);
  bytes = tress_bfres_builder_finish (b, &error);
  g_assert_no_error (error);
  g_byte_array_append (copy, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  return copy;
}

static TressBfresModels *
parse_ok (const GByteArray *file)
{
  g_autoptr (GError) error = NULL;
  TressBfresModels *models = tress_bfres_models_parse (file->data, file->len, &error);

  g_assert_no_error (error);
  g_assert_nonnull (models);
  g_assert_cmpuint (models->n_models, ==, 1);
  return models;
}

/* Parsing @file fails with @code and a message holding each of @words
 * (NULL-terminated). */
static void
assert_refused (const GByteArray *file, TressError code, ...)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TressBfresModels) models = tress_bfres_models_parse (file->data, file->len, &error);
  const char *word;
  va_list ap;

  g_assert_null (models);
  g_assert_error (error, TRESS_ERROR, (gint)code);
  va_start (ap, code);
  while ((word = va_arg (ap, const char *)) != NULL)
    {
      if (strstr (error->message, word) == NULL)
        g_error ("\"%s\" not in \"%s\"", word, error->message);
    }
  va_end (ap);
}

/* ---- GX2 attribute formats ------------------------------------------------ */

/* The component widths the name spells before its type: "10_10_10_2_UNorm"
 * gives 4 components of 32 bits in all. */
static void
widths_from_name (const char *name, guint *n_comps, guint *bits)
{
  g_auto (GStrv) parts = g_strsplit (name, "_", -1);

  *n_comps = *bits = 0;
  for (guint i = 0; parts[i] != NULL && g_ascii_isdigit (parts[i][0]); i++)
    {
      (*n_comps)++;
      *bits += (guint)g_ascii_strtoull (parts[i], NULL, 10);
    }
}

static void
test_gx2_formats (void)
{
  static const guint8 bytes[16] = { 0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0,
                                    0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88 };
  guint n_known = 0;
  float v[4];

  for (guint32 format = 0; format < 0x1000; format++)
    {
      const char *name = tress_gx2_attrib_format_name (format);
      guint n_comps, bits, got;

      if (g_str_equal (name, "unknown"))
        {
          g_assert_cmpuint (tress_gx2_attrib_size (format), ==, 0);
          g_assert_cmpuint (tress_gx2_decode (format, bytes, v), ==, 0);
          continue;
        }
      n_known++;
      widths_from_name (name, &n_comps, &bits);
      g_assert_cmpuint (n_comps, >=, 1);
      g_assert_cmpuint (n_comps, <=, 4);
      if (tress_gx2_attrib_size (format) != bits / 8)
        g_error ("%s (0x%X): %u bytes, the name says %u", name, format,
                 tress_gx2_attrib_size (format), bits / 8);
      got = tress_gx2_decode (format, bytes, v);
      if (got != n_comps)
        g_error ("%s (0x%X): %u components decoded, the name says %u", name, format, got, n_comps);
      for (guint k = n_comps; k < 4; k++)
        g_assert_cmpfloat (v[k], ==, 0);
    }
  g_assert_cmpuint (n_known, >=, 50);

  /* 16-bit integers read as floats: one big-endian u16, not the u32 around it. */
  g_assert_cmpstr (tress_gx2_attrib_format_name (0x802), ==, "16_UIntToSingle");
  g_assert_cmpuint (tress_gx2_decode (0x802, bytes, v), ==, 1);
  g_assert_cmpfloat (v[0], ==, 0x1234);
  g_assert_cmpuint (tress_gx2_decode (0xA02, bytes + 4, v), ==, 1);
  g_assert_cmpfloat (v[0], ==, (gint16)0x9ABC);
  /* Four halves: 1, 2, -2, 0.5. */
  {
    static const guint8 halves[8] = { 0x3C, 0x00, 0x40, 0x00, 0xC0, 0x00, 0x38, 0x00 };

    g_assert_cmpstr (tress_gx2_attrib_format_name (0x80F), ==, "16_16_16_16_Single");
    g_assert_cmpuint (tress_gx2_attrib_size (0x80F), ==, 8);
    g_assert_cmpuint (tress_gx2_decode (0x80F, halves, v), ==, 4);
    g_assert_cmpfloat (v[0], ==, 1);
    g_assert_cmpfloat (v[1], ==, 2);
    g_assert_cmpfloat (v[2], ==, -2);
    g_assert_cmpfloat (v[3], ==, 0.5);
  }
}

/* ---- damaged fields ------------------------------------------------------- */

/* The bone index group must hold one entry per bone; without one (a null
 * offset) the bones keep the names their own headers give. */
static void
test_bone_index_group (void)
{
  g_autoptr (GByteArray) file = built_model (8);
  g_autoptr (TressBfresModels) models = parse_ok (file);
  gsize fskl = models->models[0].skeleton.pos;
  gsize group = fskl + 0x10 + (gint32)get_u32 (file->data, fskl + 0x10);
  g_autofree char *at
      = g_strdup_printf ("FSKL bone index group at offset 0x%" G_GSIZE_MODIFIER "x", group + 4);

  g_assert_cmpuint (models->models[0].skeleton.n_bones, ==, 8);
  g_assert_cmpuint (get_u32 (file->data, group + 4), ==, 8);
  put_u32 (file->data, group + 4, 9);
  assert_refused (file, TRESS_ERROR_BAD_COUNT, "model \"Creature\"", at, "expected 8 entries",
                  "found 9", NULL);
  put_u32 (file->data, group + 4, 8);

  put_u32 (file->data, fskl + 0x10, 0);
  {
    g_autoptr (TressBfresModels) without = parse_ok (file);
    const TressBfresSkeleton *sk = &without->models[0].skeleton;

    g_assert_cmpuint (sk->n_bones, ==, 8);
    g_assert_cmpstr (sk->bones[0].name, ==, "Root");
    g_assert_cmpstr (sk->bones[7].name, ==, "Bone_007");
  }
}

/* A vertex buffer whose index is not its place in the array: the error
 * names the field at its own offset (FVTX + 6) and both numbers. */
static void
test_vertex_buffer_index (void)
{
  g_autoptr (GByteArray) file = built_model (4);
  g_autoptr (TressBfresModels) models = parse_ok (file);
  gsize fvtx = models->models[0].vertex_buffers[0].pos;
  g_autofree char *at
      = g_strdup_printf ("FVTX index at offset 0x%" G_GSIZE_MODIFIER "x:", fvtx + 6);

  g_assert_cmpuint (models->models[0].n_vertex_buffers, ==, 1);
  put_u16 (file->data, fvtx + 6, 5);
  assert_refused (file, TRESS_ERROR_BAD_VALUE, at, "found 5 (vertex buffer 0)", NULL);
}

/* ---- info and dump -------------------------------------------------------- */

static char *
describe (const GByteArray *file)
{
  g_autoptr (TressBfresModels) models = parse_ok (file);
  GString *out = g_string_new (NULL);

  tress_bfres_models_describe (models, out);
  return g_string_free (out, FALSE);
}

static void
assert_has_line (const char *text, const char *line)
{
  g_autofree char *want = g_strconcat ("\n", line, "\n", NULL);

  if (strstr (text, want) == NULL)
    g_error ("no line \"%s\" in:\n%s", line, text);
}

/* Each scaling mode by its name (FSKL flags bits 8-9); the bones under the
 * root (parent 0) and under another bone say whose child they are, the root
 * says nothing. */
static void
test_describe (void)
{
  g_autoptr (GByteArray) file = built_model (8);
  static const char *const scalings[] = { "none", "standard", "Maya", "Softimage" };
  gsize fskl;

  {
    g_autoptr (TressBfresModels) models = parse_ok (file);

    fskl = models->models[0].skeleton.pos;
  }
  for (guint s = 0; s < G_N_ELEMENTS (scalings); s++)
    {
      g_autofree char *text = NULL;
      g_autofree char *line = NULL;

      put_u32 (file->data, fskl + 4, s << 8 | 1u << 12);
      text = describe (file);
      line = g_strdup_printf ("  Skeleton: Euler XYZ rotations, %s scaling, 8 smooth and 0 rigid "
                              "matrices",
                              scalings[s]);
      assert_has_line (text, line);
      if (s == 1)
        {
          assert_has_line (text, "  Bone 0 Root");
          assert_has_line (text, "  Bone 1 Bone_001, child of Root");
          assert_has_line (text, "  Bone 5 Bone_005, child of Root");
          assert_has_line (text, "  Bone 6 Bone_006, child of Bone_001");
        }
    }
}

/* The dump: one object per vertex buffer the model has, the scaling named. */
static void
test_dump (void)
{
  g_autoptr (GByteArray) file = built_model (8);
  g_autoptr (TressBfresModels) models = parse_ok (file);
  TressJsonWriter *w = tress_json_writer_new ();
  g_autoptr (GBytes) text = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *model, *skeleton;
  JsonArray *buffers, *bones;

  tress_bfres_models_dump (models, w);
  text = tress_json_writer_free_to_bytes (w);
  json_parser_load_from_data (parser, g_bytes_get_data (text, NULL),
                              (gssize)g_bytes_get_size (text), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (json_parser_get_root (parser))), ==,
                    1);
  model = json_array_get_object_element (json_node_get_array (json_parser_get_root (parser)), 0);
  g_assert_cmpstr (json_object_get_string_member (model, "name"), ==, "Creature");
  buffers = json_object_get_array_member (model, "vertex_buffers");
  g_assert_cmpuint (json_array_get_length (buffers), ==, 1);
  g_assert_cmpint (
      json_object_get_int_member (json_array_get_object_element (buffers, 0), "vertices"), ==,
      models->models[0].vertex_buffers[0].n_vertices);
  g_assert_cmpint (
      json_object_get_int_member (json_array_get_object_element (buffers, 0), "offset"), ==,
      (gint64)models->models[0].vertex_buffers[0].pos);
  skeleton = json_object_get_object_member (model, "skeleton");
  g_assert_cmpstr (json_object_get_string_member (skeleton, "scaling"), ==, "standard");
  g_assert_cmpstr (json_object_get_string_member (skeleton, "rotation"), ==, "euler_xyz");
  bones = json_object_get_array_member (skeleton, "bones");
  g_assert_cmpuint (json_array_get_length (bones), ==, 8);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (bones, 0), "parent"),
                   ==, -1);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (bones, 1), "parent"),
                   ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bfres/model-read/gx2-formats", test_gx2_formats);
  g_test_add_func ("/bfres/model-read/bone-index-group", test_bone_index_group);
  g_test_add_func ("/bfres/model-read/vertex-buffer-index", test_vertex_buffer_index);
  g_test_add_func ("/bfres/model-read/describe", test_describe);
  g_test_add_func ("/bfres/model-read/dump", test_dump);
  return g_test_run ();
}
