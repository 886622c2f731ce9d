/* make-gltf-corpus.c: writes the seed corpus of the glTF fuzz target
 * (tests/interchange/corpus-gltf):
 *   - wave.glb: the export of the target's own BFRES (gltf-fuzz-model.c);
 *   - wave.gltf: the same as JSON, its buffer a base64 data: URI;
 *   - features.gltf: the same joints and animation name with what the
 *     export never writes: a node given by a matrix, STEP and CUBICSPLINE
 *     samplers, rotations as normalized shorts, a sparse accessor, an
 *     armature node above the joints.
 *   ./build/tests/interchange/make-gltf-corpus tests/interchange/corpus-gltf
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "formats/bfres/tress-bfres-scene.h"
#include "gltf-fuzz-model.h"
#include "interchange/tress-gltf-bfres.h"

static void
save (const char *dir, const char *name, const void *data, gsize len)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;

  if (!g_file_set_contents (path, data, (gssize)len, &error))
    g_error ("%s: %s", name, error->message);
}

static void
write_export (const char *dir)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) file = gltf_fuzz_model ();
  g_autoptr (TressBfres) bfres = tress_bfres_parse (file, "F_Animation.bfres", &error);
  g_autoptr (GBytes) fres = tress_bfres_unwrap (file, NULL, &error);
  g_autoptr (TressGltfWriter) w = NULL;
  g_autoptr (GBytes) glb = NULL, json = NULL, bin = NULL;
  g_autoptr (GString) text = NULL;
  g_autofree char *b64 = NULL;
  const char *at;
  gsize pos;

  w = tress_gltf_bfres_export (bfres, fres, "F_Animation.bfres", NULL, NULL, &error);
  if (w == NULL)
    g_error ("export: %s", error->message);
  glb = tress_gltf_writer_to_glb (w, &error);
  save (dir, "wave.glb", g_bytes_get_data (glb, NULL), g_bytes_get_size (glb));
  /* The .gltf with its buffer inline: the URI the writer names replaced. */
  if (!tress_gltf_writer_to_gltf (w, "BUFFER", &json, &bin, &error))
    g_error ("gltf: %s", error->message);
  text = g_string_new_len (g_bytes_get_data (json, NULL), (gssize)g_bytes_get_size (json));
  b64 = g_base64_encode (g_bytes_get_data (bin, NULL), g_bytes_get_size (bin));
  at = strstr (text->str, "\"BUFFER\"");
  g_assert (at != NULL);
  pos = (gsize)(at - text->str) + 1;
  g_string_erase (text, (gssize)pos, 6);
  g_string_insert (text, (gssize)pos, b64);
  g_string_insert (text, (gssize)pos, "data:application/octet-stream;base64,");
  save (dir, "wave.gltf", text->str, text->len);
}

static void
write_features (const char *dir)
{
  /* Floats: times 0, 0.2, 0.4; translations 3 × VEC3; cubic scales
   * 2 × 3 × VEC3; then shorts: 3 rotations (VEC4); then a sparse index (u32)
   * and its value (VEC3). */
  float f[3 + 9 + 18];
  gint16 s[12] = { 0, 0, 0, 32767, 0, 0, 23170, 23170, 0, 0, 32767, 0 };
  guint32 index = 2;
  float sparse[3] = { 0.1f, 0.2f, 0.3f };
  guint8 raw[sizeof f + sizeof s + 4 + sizeof sparse];
  g_autofree char *b64 = NULL, *json = NULL;

  memset (f, 0, sizeof f);
  f[1] = 0.2f, f[2] = 0.4f;
  for (guint i = 0; i < 9; i++)
    f[3 + i] = 0.05f * (float)i;
  for (guint k = 0; k < 2; k++)
    for (guint c = 0; c < 3; c++)
      {
        f[12 + 9 * k + 3 + c] = 1 + 0.5f * (float)k; /* value */
        f[12 + 9 * k + 6 + c] = 0.25f;               /* out-tangent */
      }
  memcpy (raw, f, sizeof f);
  memcpy (raw + sizeof f, s, sizeof s);
  memcpy (raw + sizeof f + sizeof s, &index, 4);
  memcpy (raw + sizeof f + sizeof s + 4, sparse, sizeof sparse);
  b64 = g_base64_encode (raw, sizeof raw);
  json = g_strdup_printf (
      "{\"asset\": {\"version\": \"2.0\"},\n"
      " \"buffers\": [{\"byteLength\": %u, \"uri\": \"data:application/gltf-buffer;base64,%s\"}],\n"
      " \"bufferViews\": [{\"buffer\": 0, \"byteLength\": %u}, {\"buffer\": 0, \"byteOffset\": %u, "
      "\"byteLength\": %u}, {\"buffer\": 0, \"byteOffset\": %u, \"byteLength\": 4}, {\"buffer\": "
      "0, "
      "\"byteOffset\": %u, \"byteLength\": 12}],\n"
      " \"accessors\": [\n"
      "  {\"bufferView\": 0, \"componentType\": 5126, \"count\": 3, \"type\": \"SCALAR\", \"min\": "
      "[0], \"max\": [0.4]},\n"
      "  {\"bufferView\": 0, \"byteOffset\": 12, \"componentType\": 5126, \"count\": 3, \"type\": "
      "\"VEC3\"},\n"
      "  {\"bufferView\": 0, \"byteOffset\": 48, \"componentType\": 5126, \"count\": 6, \"type\": "
      "\"VEC3\"},\n"
      "  {\"bufferView\": 1, \"componentType\": 5122, \"normalized\": true, \"count\": 3, "
      "\"type\": "
      "\"VEC4\"},\n"
      "  {\"componentType\": 5126, \"count\": 3, \"type\": \"VEC3\", \"sparse\": {\"count\": 1, "
      "\"indices\": {\"bufferView\": 2, \"componentType\": 5125}, \"values\": {\"bufferView\": "
      "3}}},\n"
      "  {\"bufferView\": 0, \"componentType\": 5126, \"count\": 2, \"type\": \"SCALAR\"}],\n"
      " \"nodes\": [\n"
      "  {\"name\": \"Armature\", \"matrix\": [1,0,0,0, 0,0,-1,0, 0,1,0,0, 0,0,0,1], \"children\": "
      "[1]},\n"
      "  {\"name\": \"Root\", \"children\": [2, 4]},\n"
      "  {\"name\": \"Arm\", \"translation\": [0, 0.5, 0], \"children\": [3]},\n"
      "  {\"name\": \"Hand\", \"translation\": [0.3, 0, 0], \"rotation\": [0, 0, 0, 1]},\n"
      "  {\"name\": \"Tail\", \"translation\": [0, 3.1, 0], \"scale\": [1, 2, 1]}],\n"
      " \"skins\": [{\"joints\": [1, 2, 3, 4]}],\n"
      " \"scenes\": [{\"nodes\": [0]}], \"scene\": 0,\n"
      " \"animations\": [{\"name\": \"Wave\", \"samplers\": [\n"
      "   {\"input\": 0, \"output\": 3},\n"
      "   {\"input\": 0, \"output\": 1, \"interpolation\": \"STEP\"},\n"
      "   {\"input\": 5, \"output\": 2, \"interpolation\": \"CUBICSPLINE\"},\n"
      "   {\"input\": 0, \"output\": 4}],\n"
      "  \"channels\": [\n"
      "   {\"sampler\": 0, \"target\": {\"node\": 2, \"path\": \"rotation\"}},\n"
      "   {\"sampler\": 1, \"target\": {\"node\": 3, \"path\": \"translation\"}},\n"
      "   {\"sampler\": 2, \"target\": {\"node\": 4, \"path\": \"scale\"}},\n"
      "   {\"sampler\": 3, \"target\": {\"node\": 1, \"path\": \"translation\"}}]}]}\n",
      (guint)sizeof raw, b64, (guint)sizeof f, (guint)sizeof f, (guint)sizeof s,
      (guint)(sizeof f + sizeof s), (guint)(sizeof f + sizeof s + 4));
  save (dir, "features.gltf", json, strlen (json));
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    g_error ("usage: make-gltf-corpus DIR");
  write_export (argv[1]);
  write_features (argv[1]);
  return 0;
}
