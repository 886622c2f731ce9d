/* test-gltf-reader.c: the glTF reader of the import, on small documents
 * written here and on hostile ones
 *
 * Documents are JSON text with their data in base64 data: URIs (or a GLB
 * put together here), so that each test shows what the file holds. Values
 * the reader gives are compared with what the glTF specification says they
 * are (interpolations computed here by hand); broken files must give an
 * error naming the JSON path or byte offset, never a crash.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "core/tress-error.h"
#include "interchange/tress-gltf-reader.h"
#include "tress-test-utils.h"

/* ---- documents ----------------------------------------------------------- */

/* "data:application/octet-stream;base64,…" of @n floats. */
static char *
floats_uri (const float *v, guint n)
{
  g_autofree guint8 *bytes = g_new (guint8, 4 * n + 1);
  g_autofree char *b64 = NULL;

  for (guint i = 0; i < n; i++)
    {
      guint32 bits;

      memcpy (&bits, &v[i], 4);
      bits = GUINT32_TO_LE (bits);
      memcpy (bytes + 4 * i, &bits, 4);
    }
  b64 = g_base64_encode (bytes, 4 * n);
  return g_strconcat ("data:application/octet-stream;base64,", b64, NULL);
}

static GBytes *
text (const char *json)
{
  return g_bytes_new (json, strlen (json));
}

static TressGltfDocument *
read_ok (const char *json)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = text (json);
  TressGltfDocument *doc = tress_gltf_document_new (bytes, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (doc);
  return doc;
}

/* Messages of refusals are logged unless set (loops over many inputs). */
static gboolean quiet;

/* Reading @bytes fails with an error holding each of @words (NULL-ended). */
static void
assert_refused_bytes (GBytes *bytes, GFile *base, const char *const *words)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TressGltfDocument) doc = tress_gltf_document_new (bytes, base, &error);

  g_assert_null (doc);
  g_assert_nonnull (error);
  g_assert_true (error->domain == TRESS_ERROR);
  for (guint i = 0; words[i] != NULL; i++)
    if (strstr (error->message, words[i]) == NULL)
      g_error ("the error “%s” does not say “%s”", error->message, words[i]);
  if (!quiet)
    g_test_message ("refused: %s", error->message);
}

static void
assert_refused (const char *json, const char *path, const char *words)
{
  g_autoptr (GBytes) bytes = text (json);
  const char *const list[] = { path, words, NULL };

  assert_refused_bytes (bytes, NULL, list);
}

/* A node chain root → child, a skin over both, and one animation "Move"
 * with a LINEAR rotation of the child, a STEP translation of the root and a
 * CUBICSPLINE scale of the child. The buffer (floats):
 *   0: times 0, 1, 2                        (3)
 *   3: rotations: identity, 90° about Z, 180° about Z  (12)
 *  15: translations (0,0,0) (1,2,3) (4,5,6)  (9)
 *  24: cubic scale: 2 keys × (in, value, out) × 3    (18)
 *  42: IBMs: identity, translation (0,−1,0)  (32) */
#define N_FLOATS 74

static void
fill_buffer (float *b)
{
  float s2 = (float)sqrt (0.5);
  const float rot[12] = { 0, 0, 0, 1, 0, 0, s2, s2, 0, 0, 1, 0 };
  const float cubic[18] = { 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 3, 1, 1, 0, 0, 0 };

  memset (b, 0, sizeof (float) * N_FLOATS);
  b[0] = 0, b[1] = 1, b[2] = 2;
  memcpy (b + 3, rot, sizeof rot);
  for (guint i = 0; i < 9; i++)
    b[15 + i] = i < 3 ? 0 : (float)i - 2;
  memcpy (b + 24, cubic, sizeof cubic);
  for (guint m = 0; m < 2; m++)
    for (guint k = 0; k < 4; k++)
      b[42 + 16 * m + 5 * k] = 1;
  b[42 + 16 + 13] = -1; /* column 3, row 1 */
}

static char *
document (const char *extra_node, const char *sampler0)
{
  float b[N_FLOATS];
  g_autofree char *uri = NULL;

  fill_buffer (b);
  uri = floats_uri (b, N_FLOATS);
  return g_strdup_printf (
      "{\"asset\": {\"version\": \"2.0\"},"
      " \"buffers\": [{\"byteLength\": %u, \"uri\": \"%s\"}],"
      " \"bufferViews\": [{\"buffer\": 0, \"byteLength\": %u}],"
      " \"accessors\": ["
      "  {\"bufferView\": 0, \"componentType\": 5126, \"count\": 3, \"type\": \"SCALAR\"},"
      "  {\"bufferView\": 0, \"byteOffset\": 12, \"componentType\": 5126, \"count\": 3, \"type\": "
      "\"VEC4\"},"
      "  {\"bufferView\": 0, \"byteOffset\": 60, \"componentType\": 5126, \"count\": 3, \"type\": "
      "\"VEC3\"},"
      "  {\"bufferView\": 0, \"byteOffset\": 96, \"componentType\": 5126, \"count\": 6, \"type\": "
      "\"VEC3\"},"
      "  {\"bufferView\": 0, \"byteOffset\": 168, \"componentType\": 5126, \"count\": 2, \"type\": "
      "\"MAT4\"},"
      "  {\"bufferView\": 0, \"componentType\": 5126, \"count\": 2, \"type\": \"SCALAR\"}],"
      " \"nodes\": [{\"name\": \"root\", \"children\": [1]},"
      "  {\"name\": \"child\", \"translation\": [0, 1, 0]}%s],"
      " \"skins\": [{\"joints\": [0, 1], \"inverseBindMatrices\": 4}],"
      " \"animations\": [{\"name\": \"Move\","
      "  \"samplers\": [%s,"
      "   {\"input\": 0, \"output\": 2, \"interpolation\": \"STEP\"},"
      "   {\"input\": 5, \"output\": 3, \"interpolation\": \"CUBICSPLINE\"}],"
      "  \"channels\": [{\"sampler\": 0, \"target\": {\"node\": 1, \"path\": \"rotation\"}},"
      "   {\"sampler\": 1, \"target\": {\"node\": 0, \"path\": \"translation\"}},"
      "   {\"sampler\": 2, \"target\": {\"node\": 1, \"path\": \"scale\"}}]}]}",
      (guint)(4 * N_FLOATS), uri, (guint)(4 * N_FLOATS), extra_node ? extra_node : "",
      sampler0 ? sampler0 : "{\"input\": 0, \"output\": 1}");
}

/* ---- reading ------------------------------------------------------------- */

static void
test_values (void)
{
  g_autofree char *json = document (NULL, NULL);
  g_autoptr (TressGltfDocument) doc = read_ok (json);
  const TressGltfAnimation *a;
  double v[4];
  TressBfresMatrix world[2];

  g_assert_cmpuint (doc->n_nodes, ==, 2);
  g_assert_cmpint (doc->nodes[1].parent, ==, 0);
  g_assert_cmpint (doc->nodes[0].parent, ==, -1);
  g_assert_cmpuint (doc->n_skins, ==, 1);
  g_assert_cmpfloat_with_epsilon (doc->skins[0].inverse_bind[1].m[1][3], -1, 1e-12);
  g_assert_cmpuint (doc->n_animations, ==, 1);
  g_assert_cmpint (tress_gltf_document_find_animation (doc, "Move"), ==, 0);
  g_assert_cmpint (tress_gltf_document_find_animation (doc, "Walk"), ==, -1);
  a = &doc->animations[0];
  g_assert_cmpfloat (tress_gltf_animation_get_end (a), ==, 2);

  /* LINEAR rotation: halfway from 0° to 90° about Z is 45° (spherically). */
  tress_gltf_sampler_evaluate (&a->samplers[0], TRESS_GLTF_TARGET_ROTATION, 0.5, v);
  g_assert_cmpfloat_with_epsilon (v[2], sin (G_PI / 8), 1e-6);
  g_assert_cmpfloat_with_epsilon (v[3], cos (G_PI / 8), 1e-6);
  /* Before the first key and after the last: the end values. */
  tress_gltf_sampler_evaluate (&a->samplers[0], TRESS_GLTF_TARGET_ROTATION, -1, v);
  g_assert_cmpfloat_with_epsilon (v[3], 1, 1e-7);
  tress_gltf_sampler_evaluate (&a->samplers[0], TRESS_GLTF_TARGET_ROTATION, 9, v);
  g_assert_cmpfloat_with_epsilon (v[2], 1, 1e-7);
  /* 1.5 s: between 90° and 180°: 135°. */
  tress_gltf_sampler_evaluate (&a->samplers[0], TRESS_GLTF_TARGET_ROTATION, 1.5, v);
  g_assert_cmpfloat_with_epsilon (2 * atan2 (v[2], v[3]), 3 * G_PI / 4, 1e-6);

  /* STEP holds the key before. */
  tress_gltf_sampler_evaluate (&a->samplers[1], TRESS_GLTF_TARGET_TRANSLATION, 1.9, v);
  g_assert_cmpfloat (v[0], ==, 1);
  g_assert_cmpfloat (v[2], ==, 3);

  /* CUBICSPLINE: value 1 → 3 over 1 s, out-tangent 1 of the first key,
   * in-tangent 0 of the second: p(u) = (2u³−3u²+1)·1 + (u³−2u²+u)·1 + (−2u³+3u²)·3. */
  for (double u = 0; u <= 1; u += 0.25)
    {
      double want = (2 * u * u * u - 3 * u * u + 1) + (u * u * u - 2 * u * u + u)
                    + (-2 * u * u * u + 3 * u * u) * 3;

      tress_gltf_sampler_evaluate (&a->samplers[2], TRESS_GLTF_TARGET_SCALE, u, v);
      g_assert_cmpfloat_with_epsilon (v[0], want, 1e-9);
      g_assert_cmpfloat_with_epsilon (v[1], 1, 1e-9);
    }

  /* World matrices through the hierarchy at 1 s: the root moved to (1,2,3),
   * the child one up from it, turned 90° about Z. */
  tress_gltf_document_pose (doc, 0, 1, NULL, world);
  g_assert_cmpfloat_with_epsilon (world[1].m[0][3], 1, 1e-6);
  g_assert_cmpfloat_with_epsilon (world[1].m[1][3], 3, 1e-6);
  g_assert_cmpfloat_with_epsilon (world[1].m[2][3], 3, 1e-6);
  g_assert_cmpfloat_with_epsilon (world[1].m[1][0], 3, 1e-6); /* x axis → y, scaled by 3 */
  /* As they stand (no animation): the child at (0, 1, 0), unturned. */
  tress_gltf_document_pose (doc, -1, 1, NULL, world);
  g_assert_cmpfloat_with_epsilon (world[1].m[1][3], 1, 1e-12);
  g_assert_cmpfloat_with_epsilon (world[1].m[0][0], 1, 1e-12);
}

/* Rotations as normalized shorts, a node given by a matrix, and a sparse
 * accessor over zeros. */
static void
test_normalized_sparse_matrix (void)
{
  static const gint16 shorts[8] = { 0, 0, 0, 32767, 0, 0, 32767, 0 };
  static const float times[2] = { 0, 1 };
  guint8 raw[8 + 16 + 4 + 12];
  g_autofree char *b64 = NULL, *json = NULL;
  g_autoptr (TressGltfDocument) doc = NULL;
  const TressGltfAnimation *a;
  TressBfresMatrix world[3];
  double v[4];

  memcpy (raw, times, 8);
  for (guint i = 0; i < 8; i++)
    {
      guint16 le = GUINT16_TO_LE ((guint16)shorts[i]);
      memcpy (raw + 8 + 2 * i, &le, 2);
    }
  /* Sparse: index 1 (u32), value (5, 6, 7). */
  raw[24] = 1, raw[25] = raw[26] = raw[27] = 0;
  {
    const float val[3] = { 5, 6, 7 };
    memcpy (raw + 28, val, 12);
  }
  b64 = g_base64_encode (raw, sizeof raw);
  json = g_strdup_printf (
      "{\"asset\": {\"version\": \"2.0\"},"
      " \"buffers\": [{\"byteLength\": %u, \"uri\": \"data:application/gltf-buffer;base64,%s\"}],"
      " \"bufferViews\": [{\"buffer\": 0, \"byteLength\": 8}, {\"buffer\": 0, \"byteOffset\": 8, "
      "\"byteLength\": 16}, {\"buffer\": 0, \"byteOffset\": 24, \"byteLength\": 4}, {\"buffer\": "
      "0, \"byteOffset\": 28, \"byteLength\": 12}],"
      " \"accessors\": ["
      "  {\"bufferView\": 0, \"componentType\": 5126, \"count\": 2, \"type\": \"SCALAR\"},"
      "  {\"bufferView\": 1, \"componentType\": 5122, \"normalized\": true, \"count\": 2, "
      "\"type\": \"VEC4\"},"
      "  {\"componentType\": 5126, \"count\": 2, \"type\": \"VEC3\", \"sparse\": {\"count\": 1, "
      "\"indices\": {\"bufferView\": 2, \"componentType\": 5125}, \"values\": {\"bufferView\": "
      "3}}}],"
      " \"nodes\": [{\"matrix\": [2,0,0,0, 0,2,0,0, 0,0,2,0, 10,0,0,1], \"children\": [1]},"
      "  {\"name\": \"b\", \"children\": [2]}, {\"name\": \"c\"}],"
      " \"animations\": [{\"samplers\": [{\"input\": 0, \"output\": 1}, {\"input\": 0, "
      "\"output\": 2}],"
      "  \"channels\": [{\"sampler\": 0, \"target\": {\"node\": 1, \"path\": \"rotation\"}},"
      "   {\"sampler\": 1, \"target\": {\"node\": 2, \"path\": \"translation\"}}]}]}",
      (guint)sizeof raw, b64);
  doc = read_ok (json);
  a = &doc->animations[0];
  g_assert_null (a->name);
  tress_gltf_sampler_evaluate (&a->samplers[0], TRESS_GLTF_TARGET_ROTATION, 1, v);
  g_assert_cmpfloat_with_epsilon (v[2], 1, 1e-9); /* 32767 / 32767, unit */
  tress_gltf_sampler_evaluate (&a->samplers[1], TRESS_GLTF_TARGET_TRANSLATION, 0, v);
  g_assert_cmpfloat (v[0], ==, 0); /* element 0: the zeros */
  tress_gltf_sampler_evaluate (&a->samplers[1], TRESS_GLTF_TARGET_TRANSLATION, 1, v);
  g_assert_cmpfloat (v[1], ==, 6); /* element 1: the sparse value */
  /* c at 1 s: b turned 180° about Z under the matrix (scale 2, x + 10);
   * c at (5, 6, 7) in b's frame → (−5, −6, 7) · 2 + (10, 0, 0). */
  tress_gltf_document_pose (doc, 0, 1, NULL, world);
  g_assert_cmpfloat_with_epsilon (world[2].m[0][3], 0, 1e-6);
  g_assert_cmpfloat_with_epsilon (world[2].m[1][3], -12, 1e-6);
  g_assert_cmpfloat_with_epsilon (world[2].m[2][3], 14, 1e-6);
}

/* A .gltf with its buffer in a .bin beside it, named by a relative URI
 * (with a space, percent-encoded). */
static void
test_external_buffer (void)
{
  float b[N_FLOATS];
  g_autofree char *json = document (NULL, NULL), *dir = NULL, *path = NULL, *bin = NULL;
  g_autoptr (GString) rewritten = g_string_new (json);
  g_autoptr (GFile) file = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (TressGltfDocument) doc = NULL;
  const char *at = strstr (json, "data:"), *end = strchr (at, '"');
  double v[4];

  fill_buffer (b);
  dir = g_build_filename (tress_test_tmpdir (), "external", NULL);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  bin = g_build_filename (dir, "a b.bin", NULL);
  for (guint i = 0; i < N_FLOATS; i++)
    {
      guint32 bits;
      memcpy (&bits, &b[i], 4);
      bits = GUINT32_TO_LE (bits);
      memcpy (&b[i], &bits, 4);
    }
  g_assert_true (g_file_set_contents (bin, (const char *)b, sizeof b, NULL));
  g_string_erase (rewritten, at - json, end - at);
  g_string_insert (rewritten, at - json, "a%20b.bin");
  path = g_build_filename (dir, "a.gltf", NULL);
  g_assert_true (g_file_set_contents (path, rewritten->str, -1, NULL));
  file = g_file_new_for_path (path);
  doc = tress_gltf_document_new_for_file (file, &error);
  g_assert_no_error (error);
  tress_gltf_sampler_evaluate (&doc->animations[0].samplers[1], TRESS_GLTF_TARGET_TRANSLATION, 2,
                               v);
  g_assert_cmpfloat (v[2], ==, 6);
  tress_gltf_document_free (g_steal_pointer (&doc));

  /* Without the file it came from, the URI cannot be read. */
  {
    g_autoptr (GBytes) bytes = text (rewritten->str);
    const char *const words[] = { "buffers[0].uri", "came from no file", NULL };

    assert_refused_bytes (bytes, NULL, words);
  }
  /* A URI leaving the folder, an absolute one, one with a scheme. */
  {
    const char *const bad[] = { "..%2Fa%20b.bin", "../a b.bin", "/etc/passwd", "file:///etc/passwd",
                                "http://example.com/a.bin" };

    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        g_autoptr (GString) s = g_string_new (json);
        g_autoptr (GBytes) bytes = NULL;
        const char *const words[] = { "buffers[0].uri", NULL };

        g_string_erase (s, at - json, end - at);
        g_string_insert (s, at - json, bad[i]);
        bytes = text (s->str);
        assert_refused_bytes (bytes, file, words);
      }
  }
  g_remove (bin);
  g_remove (path);
}

/* ---- GLB ------------------------------------------------------------------- */

static GBytes *
make_glb (const char *json, const guint8 *bin, gsize bin_len)
{
  GByteArray *a = g_byte_array_new ();
  gsize jl = strlen (json), jpad = (4 - jl % 4) % 4, bpad = (4 - bin_len % 4) % 4;
  guint32 h[3] = { GUINT32_TO_LE (0x46546C67u), GUINT32_TO_LE (2), 0 };
  guint32 c[2];

  g_byte_array_append (a, (const guint8 *)h, 12);
  c[0] = GUINT32_TO_LE ((guint32)(jl + jpad));
  c[1] = GUINT32_TO_LE (0x4E4F534Au);
  g_byte_array_append (a, (const guint8 *)c, 8);
  g_byte_array_append (a, (const guint8 *)json, (guint)jl);
  for (gsize i = 0; i < jpad; i++)
    g_byte_array_append (a, (const guint8 *)" ", 1);
  if (bin != NULL)
    {
      static const guint8 zero[4] = { 0 };

      c[0] = GUINT32_TO_LE ((guint32)(bin_len + bpad));
      c[1] = GUINT32_TO_LE (0x004E4942u);
      g_byte_array_append (a, (const guint8 *)c, 8);
      g_byte_array_append (a, bin, (guint)bin_len);
      g_byte_array_append (a, zero, (guint)bpad);
    }
  h[2] = GUINT32_TO_LE (a->len);
  memcpy (a->data + 8, &h[2], 4);
  return g_byte_array_free_to_bytes (a);
}

static char *
glb_json (void)
{
  return g_strdup (
      "{\"asset\": {\"version\": \"2.0\"}, \"buffers\": [{\"byteLength\": 8}],"
      " \"bufferViews\": [{\"buffer\": 0, \"byteLength\": 8}],"
      " \"accessors\": [{\"bufferView\": 0, \"componentType\": 5126, \"count\": 2, \"type\": "
      "\"SCALAR\"}], \"nodes\": [{\"name\": \"n\"}],"
      " \"animations\": [{\"samplers\": [{\"input\": 0, \"output\": 0}], \"channels\": "
      "[{\"sampler\": 0, \"target\": {\"node\": 0, \"path\": \"weights\"}}]}]}");
}

static void
test_glb (void)
{
  static const float times[2] = { 0, 1 };
  g_autofree char *json = glb_json ();
  g_autoptr (GBytes) glb = make_glb (json, (const guint8 *)times, sizeof times);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressGltfDocument) doc = tress_gltf_document_new (glb, NULL, &error);
  gsize size;
  const guint8 *d = g_bytes_get_data (glb, &size);

  g_assert_no_error (error);
  /* A weights channel is read but not decoded (no morph targets here). */
  g_assert_cmpuint (doc->animations[0].n_channels, ==, 1);
  g_assert_true (doc->animations[0].channels[0].target == TRESS_GLTF_TARGET_WEIGHTS);
  g_assert_false (doc->animations[0].samplers[0].decoded);

  /* Every truncation is refused, naming an offset; with the length field
   * made to match, the chunks' own bounds refuse it. */
  quiet = TRUE;
  for (gsize n = 4; n < size; n++)
    {
      g_autoptr (GBytes) cut = g_bytes_new (d, n);
      const char *const words[] = { "offset 0x", NULL };
      const char *const any[] = { NULL };
      g_autofree guint8 *patched = g_memdup2 (d, n);
      g_autoptr (GBytes) same = NULL;
      guint32 len = GUINT32_TO_LE ((guint32)n);

      assert_refused_bytes (cut, NULL, words);
      if (n < 12)
        continue;
      memcpy (patched + 8, &len, 4);
      same = g_bytes_new (patched, n);
      assert_refused_bytes (same, NULL, any);
    }
  quiet = FALSE;
  /* Version 1; a length that is not the file's; a first chunk not JSON; no BIN. */
  {
    g_autoptr (GByteArray) a = g_byte_array_new ();
    g_autoptr (GBytes) b = NULL;
    const char *const v[] = { "GLB version at offset 0x4", "expected 2, found 1", NULL };

    g_byte_array_append (a, d, (guint)size);
    a->data[4] = 1;
    b = g_bytes_new (a->data, a->len);
    assert_refused_bytes (b, NULL, v);
  }
  {
    g_autoptr (GByteArray) a = g_byte_array_new ();
    g_autoptr (GBytes) b = NULL;
    const char *const v[] = { "GLB length at offset 0x8", NULL };

    g_byte_array_append (a, d, (guint)size);
    g_byte_array_append (a, (const guint8 *)"\0\0\0\0", 4);
    b = g_bytes_new (a->data, a->len);
    assert_refused_bytes (b, NULL, v);
  }
  {
    g_autoptr (GByteArray) a = g_byte_array_new ();
    g_autoptr (GBytes) b = NULL;
    const char *const v[] = { "GLB first chunk type at offset 0x10", NULL };

    g_byte_array_append (a, d, (guint)size);
    a->data[16] = 'X';
    b = g_bytes_new (a->data, a->len);
    assert_refused_bytes (b, NULL, v);
  }
  {
    g_autoptr (GBytes) b = make_glb (json, NULL, 0);
    const char *const v[] = { "buffers[0].byteLength", "BIN chunk", NULL };

    assert_refused_bytes (b, NULL, v);
  }
  {
    /* A BIN chunk shorter than the buffer says. */
    g_autoptr (GBytes) b = make_glb (json, (const guint8 *)times, 4);
    const char *const v[] = { "buffers[0].byteLength", NULL };

    assert_refused_bytes (b, NULL, v);
  }
}

/* ---- hostile documents ------------------------------------------------------ */

static char *
with (const char *json, const char *from, const char *to)
{
  const char *at = strstr (json, from);
  GString *s = g_string_new (json);

  g_assert_nonnull (at);
  g_string_erase (s, at - json, strlen (from));
  g_string_insert (s, at - json, to);
  return g_string_free (s, FALSE);
}

static void
test_refused (void)
{
  g_autofree char *json = document (NULL, NULL);
  static const struct
  {
    const char *from, *to, *path, *words;
  } cases[] = {
    /* Indices out of range, of the wrong type, missing. */
    { "{\"input\": 0, \"output\": 1}", "{\"input\": 40, \"output\": 1}",
      "animations[0].samplers[0].input", "found 40" },
    { "{\"input\": 0, \"output\": 1}", "{\"input\": 1.5, \"output\": 1}",
      "animations[0].samplers[0].input", "expected an index into accessors" },
    { "{\"input\": 0, \"output\": 1}", "{\"output\": 1}", "animations[0].samplers[0].input",
      "missing" },
    { "{\"sampler\": 1,", "{\"sampler\": 7,", "animations[0].channels[1].sampler", "found 7" },
    { "{\"node\": 0, \"path\": \"translation\"}", "{\"node\": -1, \"path\": \"translation\"}",
      "animations[0].channels[1].target.node", "found -1" },
    { "\"joints\": [0, 1]", "\"joints\": [0, 0]", "skins[0].joints[1]", "a joint twice" },
    { "\"interpolation\": \"STEP\"", "\"interpolation\": \"SMOOTH\"",
      "animations[0].samplers[1].interpolation", "SMOOTH" },
    /* Accessors and views out of bounds. */
    { "\"count\": 3, \"type\": \"SCALAR\"", "\"count\": 300, \"type\": \"SCALAR\"", "accessors[0]",
      "bufferViews[0] holds 296" },
    { "\"byteOffset\": 168, \"componentType\": 5126, \"count\": 2",
      "\"byteOffset\": 232, \"componentType\": 5126, \"count\": 2", "accessors[4]",
      "from byteOffset 232" },
    { "{\"buffer\": 0, \"byteLength\": 296}",
      "{\"buffer\": 0, \"byteOffset\": 8, \"byteLength\": 296}", "bufferViews[0]",
      "pass the end of buffers[0]" },
    { "{\"buffer\": 0, \"byteLength\": 296}",
      "{\"buffer\": 0, \"byteLength\": 296, \"byteStride\": 6}", "bufferViews[0].byteStride",
      "multiple of 4" },
    { "{\"buffer\": 0, \"byteLength\": 296}",
      "{\"buffer\": 0, \"byteLength\": 296, \"byteStride\": 8}", "accessors[1]",
      "less than the accessor's element size" },
    { "\"count\": 3, \"type\": \"SCALAR\"", "\"count\": 1099511627777, \"type\": \"SCALAR\"",
      "accessors[0].count", "expected a whole number" },
    { "\"componentType\": 5126, \"count\": 3, \"type\": \"SCALAR\"",
      "\"componentType\": 5127, \"count\": 3, \"type\": \"SCALAR\"", "accessors[0].componentType",
      "5127" },
    { "\"count\": 3, \"type\": \"SCALAR\"", "\"count\": 3, \"type\": \"VEC5\"", "accessors[0].type",
      "VEC5" },
    /* Keys the samplers cannot hold. */
    { "{\"input\": 0, \"output\": 1}", "{\"input\": 0, \"output\": 2}",
      "animations[0].samplers[0].output", "expected VEC4" },
    { "{\"input\": 0, \"output\": 1}", "{\"input\": 1, \"output\": 1}",
      "animations[0].samplers[0].input", "SCALAR FLOAT" },
    { "{\"input\": 0, \"output\": 1}", "{\"input\": 5, \"output\": 1}",
      "animations[0].samplers[0].output", "one per key time" },
    /* The forest of nodes. */
    { "{\"name\": \"child\", \"translation\": [0, 1, 0]}",
      "{\"name\": \"child\", \"translation\": [0, 1, 0], \"children\": [0]}", "nodes[0]",
      "its own ancestor" },
    { "{\"name\": \"child\", \"translation\": [0, 1, 0]}",
      "{\"name\": \"child\", \"translation\": [0, 1, 0], \"children\": [1]}",
      "nodes[1].children[0]", "its own child" },
    { "{\"name\": \"root\", \"children\": [1]}", "{\"name\": \"root\", \"children\": [1, 1]}",
      "nodes[0].children[1]", "a child of node 0 already" },
    { "\"translation\": [0, 1, 0]", "\"translation\": [0, 1]", "nodes[1].translation",
      "3 numbers" },
    { "\"translation\": [0, 1, 0]", "\"rotation\": [0, 0, 0, 0]", "nodes[1].rotation",
      "unit quaternion" },
    { "\"translation\": [0, 1, 0]", "\"matrix\": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]",
      "animations[0].channels[0].target", "has a matrix" },
    { "{\"name\": \"root\", \"children\": [1]}",
      "{\"name\": \"root\", \"children\": [1], \"matrix\": [1,0,0,1, 0,1,0,0, 0,0,1,0, 0,0,0,1]}",
      "nodes[0].matrix", "affine" },
    /* The rest of the document. */
    { "\"version\": \"2.0\"", "\"version\": \"1.0\"", "asset.version", "\"1.0\"" },
    { "\"animations\": [", "\"animations\": [7, ", "animations[0]", "expected an object" },
    { "base64,", "base64,*", "buffers[0].uri", "not base64" },
    { "{\"sampler\": 0, \"target\": {\"node\": 1, \"path\": \"rotation\"}}",
      "{\"sampler\": 0, \"target\": {\"node\": 1, \"path\": \"rotation\"}}, {\"sampler\": 0, "
      "\"target\": {\"node\": 1, \"path\": \"rotation\"}}",
      "animations[0].channels[1].target", "earlier channel" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *bad = with (json, cases[i].from, cases[i].to);

      assert_refused (bad, cases[i].path, cases[i].words);
    }
}

/* Times that do not increase, or come before 0. */
static void
test_bad_times (void)
{
  float b[N_FLOATS];
  g_autofree char *json = document (NULL, NULL), *uri = NULL;
  const char *at = strstr (json, "data:"), *end = strchr (at, '"');
  g_autoptr (GString) s = g_string_new (json);

  fill_buffer (b);
  b[2] = 1; /* times 0, 1, 1 */
  uri = floats_uri (b, N_FLOATS);
  g_string_erase (s, at - json, end - at);
  g_string_insert (s, at - json, uri);
  assert_refused (s->str, "animations[0].samplers[0].input", "strictly increasing");
  b[2] = 2;
  b[0] = -1;
  g_free (uri);
  uri = floats_uri (b, N_FLOATS);
  g_string_assign (s, json);
  g_string_erase (s, at - json, end - at);
  g_string_insert (s, at - json, uri);
  assert_refused (s->str, "animations[0].samplers[0].input", "expected times from 0");
  /* Non-finite values are refused too. */
  b[0] = 0;
  b[5] = INFINITY;
  g_free (uri);
  uri = floats_uri (b, N_FLOATS);
  g_string_assign (s, json);
  g_string_erase (s, at - json, end - at);
  g_string_insert (s, at - json, uri);
  assert_refused (s->str, "accessors[1]", "not a finite number");
}

/* Deep nesting, huge accessors without data, broken JSON. */
/* The rate an animation was sampled at, from its key times as a float file
 * holds them: Blender's 24 fps, denser samples between frames, times that
 * fall on no rate, one key a channel, and a weights channel not counted. */
static void
test_sample_rate (void)
{
  double at24[40], dense[9], uneven[3] = { 0, 0.25, 0.6 }, one[1] = { 0.5 }, fine[2] = { 0, 0.001 };
  TressGltfSampler samplers[2] = { { .decoded = TRUE }, { .decoded = TRUE } };
  TressGltfChannel channels[2]
      = { { 0, 0, TRESS_GLTF_TARGET_ROTATION }, { 1, 0, TRESS_GLTF_TARGET_WEIGHTS } };
  TressGltfAnimation anim = { NULL, 1, channels, 2, samplers };

  for (guint k = 0; k < G_N_ELEMENTS (at24); k++)
    at24[k] = (float)(k / 24.0);
  for (guint k = 0; k < G_N_ELEMENTS (dense); k++)
    dense[k] = (float)(k * k / 240.0); /* steps of 1/240 s and longer */
  samplers[0].times = at24, samplers[0].n_keys = G_N_ELEMENTS (at24);
  samplers[1].times = fine, samplers[1].n_keys = 2;
  g_assert_cmpfloat (tress_gltf_animation_get_sample_rate (&anim), ==, 24);
  anim.n_channels = 2; /* the weights' 1/1000 s does not count */
  g_assert_cmpfloat (tress_gltf_animation_get_sample_rate (&anim), ==, 24);
  samplers[0].times = dense, samplers[0].n_keys = G_N_ELEMENTS (dense);
  g_assert_cmpfloat (tress_gltf_animation_get_sample_rate (&anim), ==, 240);
  dense[4] = (float)(16.5 / 240); /* half a step off */
  g_assert_cmpfloat (tress_gltf_animation_get_sample_rate (&anim), ==, 0);
  samplers[0].times = uneven, samplers[0].n_keys = 3;
  g_assert_cmpfloat (tress_gltf_animation_get_sample_rate (&anim), ==, 0);
  samplers[0].times = one, samplers[0].n_keys = 1;
  g_assert_cmpfloat (tress_gltf_animation_get_sample_rate (&anim), ==, 0);
}

static void
test_bounds (void)
{
  g_autoptr (GString) deep = g_string_new ("{\"asset\": {\"version\": \"2.0\"}, \"extras\": ");

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  assert_refused (deep->str, "JSON at offset 0x", "nested");
  assert_refused ("{\"asset\": {\"version\": \"2.0\"", "JSON", "");
  assert_refused ("[1, 2]", "JSON", "an object at the top");
  assert_refused ("", "JSON at offset 0x0", "no text");
  assert_refused ("{}", "asset", "glTF version");

  /* A billion zeros, named by an accessor with no data: more than the reader
   * decodes for a file this size, refused before allocating. */
  {
    g_autofree char *json = document (NULL, "{\"input\": 6, \"output\": 7}");
    g_autofree char *more = with (json, "\"type\": \"SCALAR\"}],",
                                  "\"type\": \"SCALAR\"}, {\"componentType\": 5126, \"count\": "
                                  "1000000000, \"type\": \"SCALAR\"}, {\"componentType\": 5126, "
                                  "\"count\": 1000000000, \"type\": \"VEC4\"}],");

    assert_refused (more, "accessors[6]", "pass what the reader decodes");
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gltf-reader/values", test_values);
  g_test_add_func ("/gltf-reader/normalized-sparse-matrix", test_normalized_sparse_matrix);
  g_test_add_func ("/gltf-reader/external-buffer", test_external_buffer);
  g_test_add_func ("/gltf-reader/glb", test_glb);
  g_test_add_func ("/gltf-reader/refused", test_refused);
  g_test_add_func ("/gltf-reader/sample-rate", test_sample_rate);
  g_test_add_func ("/gltf-reader/bad-times", test_bad_times);
  g_test_add_func ("/gltf-reader/bounds", test_bounds);
  return g_test_run ();
}
