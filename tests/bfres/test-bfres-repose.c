/* test-bfres-repose.c: a pose gizmo's move posing only the bone dragged and
 * those below it gives what the whole pose gives
 *
 * On the demo file's figure (standard scaling) and on Animal_Bass (Maya
 * scaling, segment scale compensation) when the samples are there: for every
 * bone, at a frame between keys, the scene posed whole with the gizmo's
 * rotation and translation on the bone, and posed whole without them then
 * posed again with tress_bfres_animator_repose: every node's world matrix
 * the same; only the bone and those below it worked out again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "formats/bfres/tress-bfres-builder.h"
#include "formats/bfres/tress-bfres-scene.h"
#include "tress-test-utils.h"

static double
sample (gpointer data, guint curve, double frame)
{
  return tress_bfres_evaluate (data, curve, frame);
}

static void
check (TressBfres *anims, GBytes *fres, const char *what)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TressSceneAnimator) a = tress_bfres_animator_new (anims, fres, what, &error);
  const TressBfresModel *model;
  TressScene *scene;
  guint n, checked = 0;

  g_assert_no_error (error);
  model = tress_bfres_animator_get_model (a);
  scene = a->scene;
  n = tress_scene_get_n_nodes (scene);
  for (guint anim = 0; anim < tress_bfres_animator_get_anims (a)->n_skeletal; anim++)
    for (guint b = 0; b < model->skeleton.n_bones; b++)
      {
        g_autofree graphene_matrix_t *whole = g_new (graphene_matrix_t, n);
        g_autofree graphene_matrix_t *plain = g_new (graphene_matrix_t, n);
        double euler[3] = { 0.3, -0.2 + 0.01 * b, 0.7 }, move[3] = { 0.5, -0.25, 2.0 };
        guint serial;

        /* Whole, with the override. */
        tress_bfres_animator_set_override (a, (int)b, euler, move);
        tress_scene_animator_pose (a, &anim, 1, 7.5, sample, anims);
        for (guint i = 0; i < n; i++)
          whole[i] = tress_scene_get_node (scene, i)->world;
        /* Whole without it, then the move alone. */
        tress_bfres_animator_set_override (a, -1, NULL, NULL);
        g_assert_false (tress_bfres_animator_repose (a));
        tress_scene_animator_pose (a, &anim, 1, 7.5, sample, anims);
        for (guint i = 0; i < n; i++)
          plain[i] = tress_scene_get_node (scene, i)->world;
        tress_bfres_animator_set_override (a, (int)b, euler, move);
        serial = scene->pose_serial;
        g_assert_true (tress_bfres_animator_repose (a));
        g_assert_cmpuint (scene->pose_serial, >, serial);
        for (guint i = 0; i < n; i++)
          {
            const graphene_matrix_t *m = &tress_scene_get_node (scene, i)->world;

            for (guint r = 0; r < 4; r++)
              for (guint c = 0; c < 4; c++)
                if (fabsf (graphene_matrix_get_value (m, r, c)
                           - graphene_matrix_get_value (&whole[i], r, c))
                    > 1e-6f * MAX (1.0f, fabsf (graphene_matrix_get_value (&whole[i], r, c))))
                  g_error ("%s, bone %s dragged: node %s differs at [%u][%u]", what,
                           model->skeleton.bones[b].name, tress_scene_get_node (scene, i)->name, r,
                           c);
            /* Outside the bone's branch the matrices were left as they were. */
            if (!tress_bfres_bone_is_below (&model->skeleton, i, b))
              g_assert_true (memcmp (m, &plain[i], sizeof *m) == 0);
          }
        checked++;
      }
  g_test_message ("%s: %u bones in %u animations posed again alone", what, model->skeleton.n_bones,
                  tress_bfres_animator_get_anims (a)->n_skeletal);
  g_assert_cmpuint (checked, >, 0);
}

static void
test_demo (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = tress_bfres_build_demo (&error);
  g_autoptr (TressBfres) anims = NULL;
  g_autoptr (GBytes) fres = NULL;
  g_autofree char *source = NULL;

  g_assert_no_error (error);
  anims = tress_bfres_parse (bytes, "demo.bfres", &error);
  g_assert_no_error (error);
  fres = tress_bfres_find_model (anims, NULL, &source, &error);
  g_assert_no_error (error);
  check (anims, fres, "demo");
}

static void
test_bass (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("bfres/Animal_Bass_Animation.bfres");
  g_autoptr (GBytes) model = tress_test_load_sample ("bfres/Animal_Bass.bfres");
  g_autoptr (GError) error = NULL;
  g_autoptr (TressBfres) anims = NULL;
  g_autoptr (GBytes) fres = NULL;

  if (bytes == NULL || model == NULL)
    return;
  anims = tress_bfres_parse (bytes, "Animal_Bass_Animation.bfres", &error);
  g_assert_no_error (error);
  fres = tress_bfres_unwrap (model, NULL, &error);
  g_assert_no_error (error);
  check (anims, fres, "Animal_Bass");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bfres/repose/demo", test_demo);
  g_test_add_func ("/bfres/repose/bass", test_bass);
  return g_test_run ();
}
