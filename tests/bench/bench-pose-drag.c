/* bench-pose-drag.c: what one pointer move of a pose gizmo's drag costs the preview
 *
 * A drag poses the scene with the bone's new transform at every pointer
 * move. Figures, in processor time of the thread (best of five), each against
 * baselines measured in the same run:
 *  - BFRES, a built model of 135 bones (five chains of 26 or 27 under the root)
 *    playing an animation that turns every bone, the curves decoded as the
 *    editor holds them: a move posing again only the bone dragged and those
 *    below it (tress_bfres_animator_repose), against posing the whole scene
 *    from the curves with the gizmo's override (what a move cost before),
 *    and against reading the scene again from the file's bytes
 *    (tress_bfres_animator_new: what re-reading the file would cost), for a
 *    chain's first bone and for a leaf;
 *  - NIFF, the largest shared sample: the same for each object with an
 *    AnimGroup (tress_niff_animator_repose against tress_scene_animator_pose
 *    and tress_niff_animator_new), summed over the objects.
 *
 *   meson test -C build --benchmark --suite scene pose-drag
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <string.h>
#include <time.h>

#include "formats/bfres/tress-bfres-builder.h"
#include "formats/bfres/tress-bfres-scene.h"
#include "formats/niff/tress-niff-animator.h"
#include "formats/niff/tress-niff-setpose.h"
#include "bench-timing.h"
#include "tress-test-utils.h"

#define N_BONES 135

static const char *const niff_samples[] = {
  "niff/3hedra.niff",         "niff/Rings.niff",       "niff/blend2niff-cube.nif",
  "niff/dragon.nif",          "niff/kirikobu.niff",    "niff/synthetic-all-channels.nif",
  "niff/synthetic-niff1.nif", "niff/yellow-cube.niff",
};

typedef struct
{
  TressSceneAnimator *animator;
  GPtrArray *curves; /* TressCurve per curve, as the editor holds them */
  gpointer file;
  GBytes *fres;
  int node;
  guint n; /* moves so far: each turns a little more */
  guint curves_of[6];
  guint n_curves_of;
} Drag;

static double
sample (gpointer data, guint curve, double frame)
{
  Drag *d = data;

  return tress_curve_evaluate (g_ptr_array_index (d->curves, curve), frame);
}

/* ---- BFRES ---- */

static GBytes *
build_creature (void)
{
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("Bench", 0x04050003);
  g_autoptr (GError) error = NULL;
  GBytes *bytes;

  tress_bfres_builder_add_test_model (b, "Creature", N_BONES, 2000);
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_SKELETAL, "Swim", 60, TRUE);
  for (guint i = 0; i < N_BONES; i++)
    {
      g_autofree char *name = i == 0 ? g_strdup ("Root") : g_strdup_printf ("Bone_%03u", i);

      tress_bfres_builder_add_bone (b, name);
      for (guint axis = 0; axis < 3; axis++)
        {
          TressKey keys[5];
          TressBfresBuilderCurve c = { 0 };

          for (guint k = 0; k < 5; k++)
            {
              double f = 15.0 * k, w = 2 * G_PI / 60;

              keys[k] = (TressKey){ 0 };
              keys[k].frame = f;
              keys[k].value = 0.3 * sin (w * f + i * 0.2 + axis);
              keys[k].in_slope = keys[k].out_slope = 0.3 * w * cos (w * f + i * 0.2 + axis);
            }
          c.curve_type = TRESS_BFRES_CURVE_CUBIC;
          c.frame_type = TRESS_BFRES_FRAME_U8;
          c.key_type = TRESS_BFRES_KEY_S16;
          c.target_offset = 0x20 + 4 * axis;
          c.n_keys = 5;
          c.keys = keys;
          c.pre_wrap = c.post_wrap = TRESS_WRAP_REPEAT;
          tress_bfres_builder_add_curve (b, &c);
        }
    }
  bytes = tress_bfres_builder_finish (b, &error);
  g_assert_no_error (error);
  return bytes;
}

static void
bfres_full (gpointer data)
{
  Drag *d = data;
  const guint anim = 0;
  double euler[3] = { 0.001 * d->n++, 0.2, 0.1 };

  tress_bfres_animator_set_override (d->animator, d->node, euler, NULL);
  tress_scene_animator_pose (d->animator, &anim, 1, 17, sample, d);
}

static void
bfres_repose (gpointer data)
{
  Drag *d = data;
  double euler[3] = { 0.001 * d->n++, 0.2, 0.1 };

  tress_bfres_animator_set_override (d->animator, d->node, euler, NULL);
  g_assert_true (tress_bfres_animator_repose (d->animator));
}

static void
bfres_reread (gpointer data)
{
  Drag *d = data;
  g_autoptr (GError) error = NULL;

  tress_scene_animator_free (tress_bfres_animator_new (d->file, d->fres, "bench", &error));
  g_assert_no_error (error);
}

static void
bench_bfres (void)
{
  g_autoptr (GBytes) bytes = build_creature ();
  g_autoptr (GError) error = NULL;
  g_autoptr (TressBfres) file = tress_bfres_parse (bytes, "bench.bfres", &error);
  g_autoptr (GBytes) fres = NULL;
  g_autoptr (TressSceneAnimator) animator = NULL;
  g_autoptr (GPtrArray) curves = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_curve_unref);
  const TressCurveOps *ops = tress_format_bfres.curves;
  const int nodes[2] = { 1, N_BONES - 1 };
  const guint anim = 0;
  Drag d;
  double reread;

  g_assert_no_error (error);
  fres = tress_bfres_get_bfres_bytes (file);
  animator = tress_bfres_animator_new (file, fres, "bench", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < ops->n_curves (file); i++)
    g_ptr_array_add (curves, ops->get_curve (file, i));
  d = (Drag){ animator, curves, file, fres, 0 };
  reread = bench_best_of (5, 5, bfres_reread, &d);
  for (guint k = 0; k < G_N_ELEMENTS (nodes); k++)
    {
      const TressBfresModel *model = tress_bfres_animator_get_model (animator);
      double full, repose;
      guint below = 0;

      d.node = nodes[k];
      for (guint i = 0; i < model->skeleton.n_bones; i++)
        below += tress_bfres_bone_is_below (&model->skeleton, i, (guint)d.node);
      full = bench_best_of (5, 200, bfres_full, &d);
      /* The move's pose starts from a whole one, as a drag's does. */
      tress_scene_animator_pose (animator, &anim, 1, 17, sample, &d);
      repose = bench_best_of (5, 2000, bfres_repose, &d);
      g_print ("BFRES, %u bones, %u curves: a move dragging %s (%u bone%s from it down): "
               "%.2f µs; the whole pose %.2f µs (%.0f× the move); reading the scene again "
               "%.0f µs (%.0f×)\n",
               model->skeleton.n_bones, curves->len, model->skeleton.bones[d.node].name, below,
               below == 1 ? "" : "s", repose * 1e6, full * 1e6, full / repose, reread * 1e6,
               reread / repose);
    }
  tress_bfres_animator_set_override (animator, -1, NULL, NULL);
}

/* ---- NIFF ---- */

static void
niff_full (gpointer data)
{
  Drag *d = data;
  const guint anim = 0;
  double values[6];

  for (guint i = 0; i < d->n_curves_of; i++)
    values[i] = 0.001 * d->n + i;
  d->n++;
  tress_niff_animator_set_override (d->animator, d->n_curves_of, d->curves_of, values);
  tress_scene_animator_pose (d->animator, &anim, 1, 7, sample, d);
}

static void
niff_repose (gpointer data)
{
  Drag *d = data;
  double values[6];

  for (guint i = 0; i < d->n_curves_of; i++)
    values[i] = 0.001 * d->n + i;
  d->n++;
  tress_niff_animator_set_override (d->animator, d->n_curves_of, d->curves_of, values);
  g_assert_true (tress_niff_animator_repose (d->animator, d->node, sample, d));
}

static void
niff_reread (gpointer data)
{
  Drag *d = data;

  tress_scene_animator_free (tress_niff_animator_new (d->file, "bench", NULL));
}

static void
bench_niff (void)
{
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (TressSceneAnimator) animator = NULL;
  g_autoptr (GPtrArray) curves = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_curve_unref);
  const TressCurveOps *ops = tress_format_niff.curves;
  const char *name = NULL;
  const TressNiffScene *scene;
  TressNiffFile *file;
  const guint anim = 0;
  double full = 0, repose = 0, reread;
  guint n_objects = 0;
  Drag d;

  for (guint i = 0; i < G_N_ELEMENTS (niff_samples); i++)
    {
      g_autoptr (GBytes) b = tress_test_load_sample (niff_samples[i]);

      if (b != NULL && (bytes == NULL || g_bytes_get_size (b) > g_bytes_get_size (bytes)))
        {
          g_clear_pointer (&bytes, g_bytes_unref);
          bytes = g_steal_pointer (&b);
          name = niff_samples[i];
        }
    }
  if (bytes == NULL)
    {
      g_print ("NIFF: no shared sample here\n");
      return;
    }
  file = tress_format_niff.parse (bytes, name, &error);
  g_assert_no_error (error);
  animator = tress_niff_animator_new (file, name, &error);
  g_assert_no_error (error);
  scene = tress_niff_animator_get_niff_scene (animator);
  for (guint i = 0; i < ops->n_curves (file); i++)
    g_ptr_array_add (curves, ops->get_curve (file, i));
  d = (Drag){ animator, curves, file, NULL, 0 };
  reread = bench_best_of (5, 5, niff_reread, &d);
  for (guint32 i = 0; i < scene->n_objects; i++)
    {
      int c[9];

      if (scene->objects[i].anim_group == TRESS_NIFF_NONE
          || !tress_niff_pose_curves (file, scene->objects[i].anim_group, c, NULL))
        continue;
      d.node = (int)i;
      d.n_curves_of = 0;
      for (guint k = 0; k < 6; k++)
        if (c[k] >= 0)
          d.curves_of[d.n_curves_of++] = (guint)c[k];
      if (d.n_curves_of == 0)
        continue;
      full += bench_best_of (5, 50, niff_full, &d);
      tress_scene_animator_pose (animator, &anim, 1, 7, sample, &d);
      repose += bench_best_of (5, 500, niff_repose, &d);
      n_objects++;
    }
  tress_niff_animator_set_override (animator, 0, NULL, NULL);
  g_print ("NIFF, %s (%" G_GSIZE_FORMAT " bytes, %u objects, %u curves): a move dragging an "
           "object, mean of the %u with keys: %.2f µs; the whole pose %.2f µs (%.1f× the move); "
           "reading the scene again %.0f µs (%.0f×)\n",
           name, g_bytes_get_size (bytes), scene->n_objects, curves->len, n_objects,
           repose / MAX (n_objects, 1) * 1e6, full / MAX (n_objects, 1) * 1e6, full / repose,
           reread * 1e6, reread * n_objects / repose);
  g_clear_pointer (&animator, tress_scene_animator_free);
  tress_format_niff.free (file);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  bench_bfres ();
  bench_niff ();
  return 0;
}
