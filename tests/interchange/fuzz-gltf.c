/* fuzz-gltf.c: libFuzzer target for the glTF reader and the import
 *
 * Each input is read as a glTF file (GLB or JSON; it comes from no file, so
 * only the GLB's BIN chunk and data: URIs give buffers). A document read is
 * posed at a few times of each animation and imported into a small BFRES of
 * the builder's (gltf-fuzz-model.c: bones Root, Arm, Hand, Tail, skeletal
 * animation "Wave"): each glTF animation named like a skeletal animation of
 * it, of up to 1,000 frames, is sampled into bone animations (at 30 fps, and
 * at 24 with a tolerance given for every other one). The mutator mutates a
 * GLB's JSON or BIN chunk in place, so that their lengths stay true, often
 * by changing one digit of the JSON (an index, a count, an offset), which
 * keeps it JSON; a JSON text gets the same digit changes or plain ones.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "../fuzz/tress-fuzz.h"
#include "core/tress-error.h"
#include "formats/bfres/tress-bfres-scene.h"
#include "gltf-fuzz-model.h"
#include "interchange/tress-gltf-import.h"

#include <math.h>

static TressBfres *model_bfres;
static GBytes *model_fres;

static void
ensure_model (void)
{
  g_autoptr (GBytes) file = NULL;

  if (model_bfres != NULL)
    return;
  file = gltf_fuzz_model ();
  g_assert (file != NULL);
  model_bfres = tress_bfres_parse (file, "fuzz", NULL);
  model_fres = tress_bfres_unwrap (file, NULL, NULL);
  g_assert (model_bfres != NULL && model_fres != NULL);
}

static void
exercise_import (TressGltfDocument *doc)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TressGltfImport) imp = NULL;

  ensure_model ();
  imp = tress_gltf_import_new (model_bfres, model_fres, "fuzz", doc, NULL, &error);
  if (imp == NULL)
    {
      g_assert (error != NULL && error->domain == TRESS_ERROR);
      return;
    }
  for (guint a = 0; a < doc->n_animations && a < 8; a++)
    {
      g_autoptr (GError) build_error = NULL;
      g_autoptr (TressGltfImportAnim) result = NULL;
      int file_anim = doc->animations[a].name != NULL
                          ? tress_gltf_import_find_anim (imp, doc->animations[a].name)
                          : -1;

      if (file_anim < 0 || tress_gltf_animation_get_end (&doc->animations[a]) * 30 > 1000)
        continue;
      result = tress_gltf_import_build (imp, a, (guint)file_anim, &build_error);
      if (result == NULL)
        g_assert (build_error != NULL && build_error->domain == TRESS_ERROR);
      else
        g_assert (isfinite (result->max_position_error) && result->frame_count >= 0);
    }
  /* Another rate and a tolerance of the user's. */
  if (doc->n_animations > 0)
    {
      TressGltfImportOptions o = { 24, 0.01 };
      g_autoptr (GError) e2 = NULL;
      g_autoptr (TressGltfImport) imp2
          = tress_gltf_import_new (model_bfres, model_fres, "fuzz", doc, &o, &e2);
      int file_anim = imp2 != NULL && doc->animations[0].name != NULL
                          ? tress_gltf_import_find_anim (imp2, doc->animations[0].name)
                          : -1;

      if (file_anim >= 0 && tress_gltf_animation_get_end (&doc->animations[0]) * 24 <= 1000)
        {
          g_autoptr (TressGltfImportAnim) r
              = tress_gltf_import_build (imp2, 0, (guint)file_anim, NULL);

          g_assert (r == NULL || r->frame_count >= 0);
        }
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (TressGltfDocument) doc = NULL;
  g_autofree TressBfresMatrix *world = NULL;

  if (size > (1u << 20))
    return 0;
  bytes = g_bytes_new (data, size);
  doc = tress_gltf_document_new (bytes, NULL, &error);
  if (doc == NULL)
    {
      g_assert (error != NULL && error->domain == TRESS_ERROR);
      return 0;
    }
  world = g_new0 (TressBfresMatrix, doc->n_nodes + 1);
  tress_gltf_document_pose (doc, -1, 0, NULL, world);
  for (guint a = 0; a < doc->n_animations && a < 8; a++)
    {
      double end = tress_gltf_animation_get_end (&doc->animations[a]);
      const double times[] = { -1, 0, end / 3, end, end + 1 };

      for (guint k = 0; k < G_N_ELEMENTS (times); k++)
        tress_gltf_document_pose (doc, (int)a, times[k], NULL, world);
    }
  exercise_import (doc);
  return 0;
}

static guint32
le32 (const uint8_t *p)
{
  return (guint32)p[0] | (guint32)p[1] << 8 | (guint32)p[2] << 16 | (guint32)p[3] << 24;
}

/* One digit of @data[at … at + len) (from a place chosen by @state)
 * changed to another; FALSE when there is none. */
static gboolean
mutate_digit (uint8_t *data, size_t at, size_t len, guint32 *state)
{
  size_t start;

  if (len == 0)
    return FALSE;
  start = tress_fuzz_next (state) % len;
  for (size_t k = 0; k < len; k++)
    {
      size_t i = at + (start + k) % len;

      if (data[i] >= '0' && data[i] <= '9')
        {
          data[i] = (uint8_t)('0' + tress_fuzz_next (state) % 10);
          return TRUE;
        }
    }
  return FALSE;
}

size_t
LLVMFuzzerCustomMutator (uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
  guint32 state = seed;

  if (size >= 20 && memcmp (data, "glTF", 4) == 0)
    {
      size_t jl = le32 (data + 12), bl;

      if (20 + jl <= size)
        {
          bl = 28 + jl <= size ? MIN (le32 (data + 20 + jl), size - 28 - jl) : 0;
          if (bl > 0 && tress_fuzz_next (&state) % 3 == 0)
            tress_fuzz_mutate_region (data, 28 + jl, bl);
          else if (tress_fuzz_next (&state) % 4 == 0 || !mutate_digit (data, 20, jl, &state))
            tress_fuzz_mutate_region (data, 20, jl);
          return size;
        }
    }
  if (size > 0 && tress_fuzz_next (&state) % 2 == 0 && mutate_digit (data, 0, size, &state))
    return size;
  return LLVMFuzzerMutate (data, size, max_size);
}
