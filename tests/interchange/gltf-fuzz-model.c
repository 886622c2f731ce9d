/* gltf-fuzz-model.c: the BFRES the glTF fuzz target imports into
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "gltf-fuzz-model.h"

#include "formats/bfres/tress-bfres-builder.h"

GBytes *
gltf_fuzz_model (void)
{
  static const TressBfresBuilderBone bones[] = {
    { "Root", -1, { 1, 1, 1 }, { 0, 0, 0 }, { 0, 0, 0 } },
    { "Arm", 0, { 1, 1, 1 }, { 0, 0, 0.5f }, { 0, 1, 0 } },
    { "Hand", 1, { 1, 1, 1 }, { 0.3f, 0, 0 }, { 0, 0.8f, 0 } },
    { "Tail", 0, { 1, 1, 1 }, { 0, 3.1f, 0 }, { 0, -1, 0 } },
  };
  TressKey keys[3]
      = { { .frame = 0, .value = 0 }, { .frame = 6, .value = 1.2 }, { .frame = 12, .value = 0 } };
  TressBfresBuilderCurve c = { .curve_type = TRESS_BFRES_CURVE_CUBIC,
                               .frame_type = TRESS_BFRES_FRAME_U8,
                               .key_type = TRESS_BFRES_KEY_S16,
                               .n_keys = 3,
                               .keys = keys };
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("F_Animation", 0x03040004);

  tress_bfres_builder_begin_model (b, "F");
  for (guint i = 0; i < G_N_ELEMENTS (bones); i++)
    tress_bfres_builder_add_model_bone (b, &bones[i]);
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_SKELETAL, "Wave", 12, TRUE);
  tress_bfres_builder_add_bone (b, "Arm");
  c.target_offset = 0x28; /* Rotate Z */
  tress_bfres_builder_add_curve (b, &c);
  tress_bfres_builder_add_bone (b, "Hand");
  c.target_offset = 0x20; /* Rotate X */
  tress_bfres_builder_add_curve (b, &c);
  c.target_offset = 0x14; /* Translate Y */
  tress_bfres_builder_add_curve (b, &c);
  return tress_bfres_builder_finish (b, NULL);
}
