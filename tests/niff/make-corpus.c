/* make-corpus.c: writes the scene seeds of the NIFF fuzz corpus (tests/niff/corpus)
 *   ./build/tests/niff/make-niff-corpus tests/niff/corpus
 * The demo (NIFF2: five shapes, a two-level hierarchy, channels) and a NIFF1
 * scene with KEY and FULL records and one shape per object.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "formats/niff/tress-niff.h"

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

static GBytes *
niff1_scene (void)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (FALSE, 0);
  const float xyz[] = { -1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1, 0, 1.5f, 0 };
  const guint32 tris[] = { 0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4, 0, 2, 1, 0, 3, 2 };
  const float green[4] = { 0.2f, 0.8f, 0.3f, 1 };
  const float white[4] = { 1, 1, 1, 1 };
  guint arm, hand, g_arm, g_hand;

  tress_niff_builder_add_name (b, "niff1 scene");
  g_arm = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "arm.anim"),
                                        TRESS_NIFF_ANIM_KEY, 30, 0);
  g_hand = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "hand.anim"),
                                         TRESS_NIFF_ANIM_FULL, 30, 0);
  for (guint k = 0; k < 4; k++)
    {
      const float trs[9] = { 0, 0, 0, 0, 0, 0.4f * k, 1, 1, 1 };
      tress_niff_builder_add_key (b, g_arm, 10 * k, TRESS_NIFF_KEY_LINEAR, trs);
    }
  for (guint f = 0; f <= 10; f++)
    {
      const float trs[9] = { 0, 1.5f, 0, 0.1f * f, 0, 0, 1, 1, 1 };
      tress_niff_builder_add_full (b, g_hand, trs);
    }
  arm = tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "arm"), g_arm);
  hand = tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "hand"), g_hand);
  tress_niff_builder_set_parent (b, hand, arm);
  tress_niff_builder_add_shape (b, arm, tress_niff_builder_add_name (b, "arm.shape"), xyz, 5, tris,
                                6, green, FALSE);
  tress_niff_builder_add_shape (b, hand, tress_niff_builder_add_name (b, "hand.shape"), xyz, 5,
                                tris, 6, white, TRUE);
  return tress_niff_builder_finish (b, NULL);
}

int
main (int argc, char **argv)
{
  g_autoptr (GBytes) demo = tress_niff_build_demo ();
  g_autoptr (GBytes) niff1 = niff1_scene ();

  if (argc != 2)
    {
      g_printerr ("usage: make-niff-corpus DIR\n");
      return 2;
    }
  g_mkdir_with_parents (argv[1], 0755);
  save (argv[1], "scene-demo.niff", demo);
  save (argv[1], "scene-niff1.nif", niff1);
  return 0;
}
