/* make-model-corpus.c: writes the seed corpus of the model reader's fuzz
 * target (tests/bfres/corpus-model) from the builder: a skinned model with
 * skeletal and visibility animations, a model with a rigid and a smooth shape
 * in the 3.4 layout, and a cut file.
 *   ./build/tests/bfres/make-bfres-model-corpus tests/bfres/corpus-model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "formats/bfres/tress-bfres-builder.h"

static void
save (const char *dir, const char *name, GBytes *bytes)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;

  if (bytes == NULL
      || !g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                               &error))
    g_error ("%s: %s", name, error != NULL ? error->message : "not built");
}

static void
add_anims (TressBfresBuilder *b)
{
  TressKey keys[3]
      = { { .frame = 0, .value = 0 }, { .frame = 4, .value = 0.5 }, { .frame = 8, .value = 0 } };
  TressKey vis[2] = { { .frame = 0, .value = 1 }, { .frame = 4, .value = 0 } };
  TressBfresBuilderCurve c = { .curve_type = TRESS_BFRES_CURVE_CUBIC,
                               .frame_type = TRESS_BFRES_FRAME_U8,
                               .key_type = TRESS_BFRES_KEY_S16,
                               .n_keys = 3,
                               .keys = keys };

  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_SKELETAL, "Wave", 8, TRUE);
  tress_bfres_builder_add_bone (b, "Bone_001");
  c.target_offset = 0x28;
  tress_bfres_builder_add_curve (b, &c);
  c.target_offset = 0x14;
  tress_bfres_builder_add_curve (b, &c);
  tress_bfres_builder_add_bone (b, "Nowhere");
  c.target_offset = 0x04;
  tress_bfres_builder_add_curve (b, &c);
  c = (TressBfresBuilderCurve){ .curve_type = TRESS_BFRES_CURVE_STEP_BOOL,
                                .frame_type = TRESS_BFRES_FRAME_U8,
                                .key_type = TRESS_BFRES_KEY_S8,
                                .name = "Bone_002",
                                .n_keys = 2,
                                .keys = vis };
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_BONE_VISIBILITY, "Hide", 8, FALSE);
  tress_bfres_builder_add_curve (b, &c);
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_MAT_VISIBILITY, "Fade", 8, FALSE);
  c.name = "Mt_Body";
  tress_bfres_builder_add_curve (b, &c);
}

static GBytes *
rigid_model (void)
{
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("Rigid", 0x03040004);
  static const float pos[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1 };
  static const guint32 tris[] = { 0, 1, 2, 0, 2, 3 };
  static const guint8 bones[] = { 0, 1, 0, 1, 1, 0, 1, 0 };
  static const float weights[] = { 0.5, 0.5, 0.25, 0.75, 1, 0, 0.9, 0.1 };
  TressBfresBuilderBone root = { "Root", -1, { 1, 1, 1 }, { 0, 0, 0 }, { 0, 0, 0 } };
  TressBfresBuilderBone arm = { "Arm", 0, { 1, 2, 1 }, { 0.3f, 0, 0 }, { 1, 0, 0 } };
  TressBfresBuilderShape shape = { .name = "Plate",
                                   .n_vertices = 4,
                                   .positions = pos,
                                   .bone = 1,
                                   .n_triangles = 2,
                                   .triangles = tris };

  tress_bfres_builder_begin_model (b, "Rigid");
  tress_bfres_builder_add_model_bone (b, &root);
  tress_bfres_builder_add_model_bone (b, &arm);
  tress_bfres_builder_add_model_material (b, "Mt_Plate");
  tress_bfres_builder_add_shape (b, &shape);
  shape.name = "Skin";
  shape.skin_count = 2;
  shape.skin_bones = bones;
  shape.skin_weights = weights;
  tress_bfres_builder_add_shape (b, &shape);
  return tress_bfres_builder_finish (b, NULL);
}

int
main (int argc, char **argv)
{
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("Creature", 0x04050003);
  g_autoptr (GBytes) anim = NULL, rigid = NULL, cut = NULL;

  if (argc != 2)
    {
      g_printerr ("usage: make-bfres-model-corpus DIR\n");
      return 2;
    }
  tress_bfres_builder_add_test_model (b, "Creature", 6, 48);
  add_anims (b);
  anim = tress_bfres_builder_finish (b, NULL);
  rigid = rigid_model ();
  cut = g_bytes_new_from_bytes (anim, 0, g_bytes_get_size (anim) * 2 / 3);
  g_mkdir_with_parents (argv[1], 0755);
  save (argv[1], "model-anims.bfres", anim);
  save (argv[1], "model-rigid-v3.4.bfres", rigid);
  save (argv[1], "model-cut.bfres", cut);
  return 0;
}
