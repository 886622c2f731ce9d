/* pose-dump.c: every skeletal animation of a BFRES posed by the preview's
 * pose code, as JSON, for gltf-check.py's round trip
 *
 *   pose-dump FILE [MODEL]
 *
 * The model is found as the preview finds it (or read from MODEL). Prints
 * {"model", "size" (the largest extent of the bind-pose bone positions),
 * "bones": [names], "bind": [per bone, the bind pose's world matrix], "animations": {NAME:
 * {"frame_count", "frames": [per frame 0 … frame_count, per bone, the 3×4 world matrix row by
 * row]}}}.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <json-glib/json-glib.h>
#include <stdio.h>

#include "formats/bfres/tress-bfres-scene.h"

static double
sample (gpointer data, guint curve, double frame)
{
  return tress_bfres_evaluate (data, curve, frame);
}

static JsonArray *
pose_array (TressSceneAnimator *animator, TressBfres *bfres, int skeletal, double frame)
{
  const TressBfresSkeleton *sk = &tress_bfres_animator_get_model (animator)->skeleton;
  g_autofree TressBfresSrt *srt = g_new0 (TressBfresSrt, sk->n_bones + 1);
  g_autofree TressBfresMatrix *world = g_new0 (TressBfresMatrix, sk->n_bones + 1);
  TressBfresScaling scaling;
  JsonArray *bones = json_array_new ();

  scaling = tress_bfres_animator_pose_srt (animator, skeletal, frame, sample, bfres, srt);
  tress_bfres_pose_world (sk, srt, scaling, world);
  for (guint b = 0; b < sk->n_bones; b++)
    {
      JsonArray *m = json_array_new ();

      for (guint r = 0; r < 3; r++)
        for (guint c = 0; c < 4; c++)
          json_array_add_double_element (m, world[b].m[r][c]);
      json_array_add_array_element (bones, m);
    }
  return bones;
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL, fres = NULL;
  g_autoptr (TressBfres) bfres = NULL;
  g_autoptr (TressSceneAnimator) animator = NULL;
  g_autoptr (GFile) file = NULL;
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *source = NULL, *text = NULL;
  const TressBfresAnims *anims;
  const TressBfresSkeleton *sk;
  JsonObject *out = json_object_new (), *list = json_object_new ();
  JsonArray *names = json_array_new ();
  g_autofree TressBfresSrt *srt = NULL;
  g_autofree TressBfresMatrix *bind = NULL;
  double lo[3] = { G_MAXDOUBLE, G_MAXDOUBLE, G_MAXDOUBLE }, size = 0;
  double hi[3] = { -G_MAXDOUBLE, -G_MAXDOUBLE, -G_MAXDOUBLE };

  if (argc < 2 || argc > 3)
    {
      g_printerr ("usage: pose-dump FILE [MODEL]\n");
      return 2;
    }
  file = g_file_new_for_commandline_arg (argv[1]);
  bytes = g_file_load_bytes (file, NULL, NULL, &error);
  if (bytes != NULL)
    bfres = tress_bfres_parse (bytes, argv[1], &error);
  if (bfres != NULL && argc == 3)
    {
      g_autoptr (GFile) m = g_file_new_for_commandline_arg (argv[2]);
      g_autoptr (GBytes) mb = g_file_load_bytes (m, NULL, NULL, &error);

      fres = mb != NULL ? tress_bfres_unwrap (mb, NULL, &error) : NULL;
      source = g_strdup (argv[2]);
    }
  else if (bfres != NULL)
    fres = tress_bfres_find_model (bfres, file, &source, &error);
  if (fres != NULL)
    animator = tress_bfres_animator_new (bfres, fres, source, &error);
  if (animator == NULL)
    {
      g_printerr ("pose-dump: %s: %s\n", argv[1], error != NULL ? error->message : "no model");
      return 1;
    }
  anims = tress_bfres_animator_get_anims (animator);
  sk = &tress_bfres_animator_get_model (animator)->skeleton;
  srt = g_new0 (TressBfresSrt, sk->n_bones + 1);
  bind = g_new0 (TressBfresMatrix, sk->n_bones + 1);
  tress_bfres_pose_world (sk, srt, tress_bfres_animator_pose_srt (animator, -1, 0, NULL, NULL, srt),
                          bind);
  for (guint b = 0; b < sk->n_bones; b++)
    {
      json_array_add_string_element (names, sk->bones[b].name);
      for (guint k = 0; k < 3; k++)
        {
          lo[k] = MIN (lo[k], bind[b].m[k][3]);
          hi[k] = MAX (hi[k], bind[b].m[k][3]);
        }
    }
  for (guint k = 0; k < 3 && sk->n_bones > 0; k++)
    size = MAX (size, hi[k] - lo[k]);
  json_object_set_string_member (out, "model", tress_bfres_animator_get_model (animator)->name);
  json_object_set_double_member (out, "size", size > 0 ? size : 1);
  json_object_set_array_member (out, "bones", names);
  {
    JsonArray *bind_array = json_array_new ();

    for (guint b = 0; b < sk->n_bones; b++)
      {
        JsonArray *m = json_array_new ();

        for (guint r = 0; r < 3; r++)
          for (guint c = 0; c < 4; c++)
            json_array_add_double_element (m, bind[b].m[r][c]);
        json_array_add_array_element (bind_array, m);
      }
    json_object_set_array_member (out, "bind", bind_array);
  }
  for (guint k = 0; k < anims->n_skeletal; k++)
    {
      JsonObject *a = json_object_new ();
      JsonArray *frames = json_array_new ();
      int n = MAX (anims->skeletal[k].frame_count, 0);

      for (int f = 0; f <= n && f <= 100000; f++)
        json_array_add_array_element (frames, pose_array (animator, bfres, (int)k, f));
      json_object_set_int_member (a, "frame_count", anims->skeletal[k].frame_count);
      json_object_set_array_member (a, "frames", frames);
      json_object_set_object_member (list, anims->skeletal[k].name, a);
    }
  json_object_set_object_member (out, "animations", list);
  json_node_take_object (root, out);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  fputs (text, stdout);
  fputc ('\n', stdout);
  return 0;
}
