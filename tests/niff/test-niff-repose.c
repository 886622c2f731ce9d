/* test-niff-repose.c: posing again after one object's curves changed (a pose
 * gizmo's drag) gives what a whole evaluation gives
 *
 * On every shared sample, at two frames, for every object with an
 * AnimGroup: the scene evaluated with the file's curves, then that object's
 * curves changed (every value a quarter more) and only it posed again with
 * tress_niff_pose_update_object; every object's, chain root's, joint's and
 * effector's matrix is what a whole evaluation with the changed curves
 * gives, and only the object and those below it were composed again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "formats/niff/tress-niff-pose.h"
#include "niff-test-samples.h"
#include "tress-test-utils.h"

typedef struct
{
  TressNiffFile *file;
  GPtrArray *curves; /* TressCurve per curve of the file */
  guint group;       /* whose curves play a quarter more; G_MAXUINT: none */
} Sampler;

static gboolean
sample (gpointer data, guint curve, double frame, double *value)
{
  Sampler *s = data;
  const TressCurve *c = g_ptr_array_index (s->curves, curve);

  /* As the preview's animator: only curves with keys are played. */
  if (tress_curve_get_n_keys (c) == 0)
    return FALSE;
  *value = tress_curve_evaluate (c, frame);
  if (tress_niff_curve_get_group (s->file, curve) == s->group)
    *value += 0.25;
  return TRUE;
}

static double
matrices_diff (const graphene_matrix_t *a, const graphene_matrix_t *b, guint n)
{
  double worst = 0;

  for (guint i = 0; i < n; i++)
    for (guint r = 0; r < 4; r++)
      for (guint c = 0; c < 4; c++)
        {
          double x = graphene_matrix_get_value (&a[i], r, c),
                 y = graphene_matrix_get_value (&b[i], r, c);

          worst = MAX (worst, fabs (x - y) / MAX (1, fabs (x)));
        }
  return worst;
}

static void
test_samples (void)
{
  guint checked = 0, moved = 0;

  for (guint s = 0; s < NIFF_TEST_N_SAMPLES; s++)
    {
      g_autoptr (GBytes) bytes = tress_test_load_sample (niff_test_samples[s]);
      TressNiffFile *file;
      g_autoptr (TressNiffScene) scene = NULL;
      g_autoptr (GPtrArray) curves
          = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_curve_unref);
      g_autoptr (GError) error = NULL;
      const TressCurveOps *ops = tress_format_niff.curves;

      if (bytes == NULL)
        continue;
      file = niff_parse_ok (bytes);
      scene = tress_niff_scene_new (file, &error);
      if (scene == NULL)
        {
          tress_format_niff.free (file);
          continue;
        }
      for (guint c = 0; c < ops->n_curves (file); c++)
        g_ptr_array_add (curves, ops->get_curve (file, c));
      for (guint32 i = 0; i < scene->n_objects; i++)
        {
          guint g = scene->objects[i].anim_group;
          double frame = g != TRESS_NIFF_NONE && g < tress_niff_file_get_n_groups (file)
                             ? floor (tress_niff_group_get_frame_count (file, g) / 2) + 0.5
                             : 0;
          Sampler plain = { file, curves, G_MAXUINT }, changed = { file, curves, g };
          g_autoptr (TressNiffPose) pose = NULL, whole = NULL;
          guint32 below = 0, n;

          if (g == TRESS_NIFF_NONE)
            continue;
          pose = tress_niff_pose_new (scene, file);
          whole = tress_niff_pose_new (scene, file);
          tress_niff_pose_evaluate (pose, scene, file, frame, sample, &plain);
          tress_niff_pose_evaluate (whole, scene, file, frame, sample, &changed);
          moved += !graphene_matrix_equal_fast (&pose->world[i], &whole->world[i]);
          n = tress_niff_pose_update_object (pose, scene, file, i, sample, &changed);
          g_assert_cmpfloat (matrices_diff (pose->world, whole->world, scene->n_objects), <, 1e-6);
          g_assert_cmpfloat (
              matrices_diff (pose->chain_roots, whole->chain_roots, scene->n_chain_roots), <, 1e-6);
          g_assert_cmpfloat (matrices_diff (pose->joints, whole->joints, scene->n_joints), <, 1e-6);
          g_assert_cmpfloat (matrices_diff (pose->effectors, whole->effectors, scene->n_effectors),
                             <, 1e-6);
          /* The object and what hangs below it, nothing else. */
          for (guint32 j = 0; j < scene->n_objects; j++)
            {
              guint32 p = j, steps = 0;

              while (p != TRESS_NIFF_NONE && p != i && steps++ <= scene->n_objects)
                p = scene->objects[p].parent;
              below += p == i;
            }
          g_assert_cmpuint (n, ==, below);
          checked++;
        }
      g_clear_pointer (&curves, g_ptr_array_unref);
      g_clear_pointer (&scene, tress_niff_scene_free);
      tress_format_niff.free (file);
    }
  g_test_message ("%u objects posed again, %u of them moved by their curves' change", checked,
                  moved);
  g_assert_cmpuint (checked, >, 10);
  g_assert_cmpuint (moved, >, checked / 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/niff/repose/samples", test_samples);
  return g_test_run ();
}
