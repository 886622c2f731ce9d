/* fuzz-bfres-model.c: libFuzzer target for the model and pose readers
 *
 * Each input (FRES, Yaz0 or SARC) goes through the model reader (describe,
 * dump, bind check) and the animation reader; when the curve parser accepts
 * it too, it is its own model: the animator is built and posed at a few
 * frames of every animation, with the mesh skinned on the CPU, and exported
 * as glTF (src/interchange; animations of up to 1,000 frames, so that a
 * mutated frame count costs no more than the budget tests). The mutator is
 * fuzz-bfres.c's (inside Yaz0 and SARC, curves in place).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "formats/bfres/tress-bfres-anim.h"
#include "formats/bfres/tress-bfres-pose.h"
#include "formats/bfres/tress-bfres-scene.h"
#include "fuzz-bfres-mutator.h"
#include "interchange/tress-gltf-bfres.h"

static double
sample (gpointer data, guint curve, double frame)
{
  return tress_bfres_evaluate (data, curve, frame);
}

static void
exercise_scene (TressBfres *b, GBytes *fres)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TressSceneAnimator) animator = tress_bfres_animator_new (b, fres, "fuzz", &error);
  float lo[3], hi[3];

  if (animator == NULL)
    {
      g_assert (error != NULL && error->domain == TRESS_ERROR);
      return;
    }
  for (guint a = 0; a < animator->n_anims && a < 8; a++)
    for (double f = -1; f <= 3; f += 1.5)
      {
        tress_scene_animator_pose (animator, &a, 1, f, sample, b);
        (void)tress_scene_bounds (animator->scene, lo, hi);
      }
}

static void
exercise_export (TressBfres *b, GBytes *fres)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (TressGltfWriter) writer
      = tress_gltf_bfres_export (b, fres, "fuzz", NULL, notes, &error);
  g_autoptr (GBytes) glb = NULL;

  if (writer == NULL)
    {
      g_assert (error != NULL && error->domain == TRESS_ERROR);
      return;
    }
  glb = tress_gltf_writer_to_glb (writer, NULL);
  g_assert (glb != NULL);
}

static gboolean
short_anims (const TressBfresAnims *anims)
{
  for (guint i = 0; anims != NULL && i < anims->n_skeletal; i++)
    if (anims->skeletal[i].frame_count > 1000)
      return FALSE;
  return TRUE;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GBytes) raw = NULL, fres = NULL;
  g_autoptr (TressBfresModels) models = NULL;
  g_autoptr (TressBfresAnims) anims = NULL;
  g_autoptr (TressBfres) b = NULL;
  const guint8 *d;
  gsize n;

  if (size > (4u << 20))
    return 0;
  raw = g_bytes_new (data, size);
  fres = tress_bfres_unwrap (raw, NULL, NULL);
  if (fres == NULL)
    return 0;
  d = g_bytes_get_data (fres, &n);
  models = tress_bfres_models_parse (d, n, NULL);
  anims = tress_bfres_anims_parse (d, n, NULL);
  if (models != NULL)
    {
      GString *s = g_string_new (NULL);
      g_autoptr (TressJsonWriter) jb = tress_json_writer_new ();

      tress_bfres_models_describe (models, s);
      tress_json_begin_object (jb);
      tress_json_member (jb, "models");
      tress_bfres_models_dump (models, jb);
      tress_json_end_object (jb);
      g_string_free (s, TRUE);
      for (guint i = 0; i < models->n_models; i++)
        g_ptr_array_unref (tress_bfres_check_bind (&models->models[i], 0));
    }
  b = tress_bfres_parse (fres, "fuzz", NULL);
  if (b != NULL)
    exercise_scene (b, fres);
  if (b != NULL && short_anims (anims))
    exercise_export (b, fres);
  return 0;
}
