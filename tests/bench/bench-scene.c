/* bench-scene.c: the animation preview and the model reader
 *
 * Figures, each against a baseline measured in the same run:
 *  - model parse: tress_bfres_models_parse() of a built model of 135 bones and
 *    about 20,000 skinned vertices (and of Animal_Bass.bfres when the samples
 *    are there), against memcpy of the same bytes;
 *  - preview frame (Mesa llvmpipe under Xvfb) of that model playing an
 *    animation that turns every bone: pose from the curves, joint upload,
 *    draw and glFinish per frame, at 640×480, as milliseconds, frames per
 *    second (aim: at least 60) and against an empty frame (clear only) of the
 *    same size. On a shared machine the clock says more about the others'
 *    load than about the preview, so the processor time the frame took (this
 *    process, llvmpipe's threads included) is given too: what one free core
 *    needs per frame.
 *
 *   meson test -C build --benchmark --suite scene
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <epoxy/gl.h>
#include <gtk/gtk.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "formats/bfres/tress-bfres-builder.h"
#include "formats/bfres/tress-bfres-model.h"
#include "formats/bfres/tress-bfres-scene.h"
#include "scene/tress-scene-preview.h"
#include "tress-test-utils.h"

#define N_BONES 135
#define N_VERTICES 20000
#define N_FRAMES 120

#define WAIT_FOR(cond) TRESS_TEST_WAIT_FOR (cond)

static double
best_of (guint runs, guint reps, void (*fn) (gpointer), gpointer data)
{
  double best = G_MAXDOUBLE;

  for (guint r = 0; r < runs; r++)
    {
      gint64 t = g_get_monotonic_time ();

      for (guint i = 0; i < reps; i++)
        fn (data);
      best = MIN (best, (g_get_monotonic_time () - t) / 1e6 / reps);
    }
  return MAX (best, 1e-9);
}

typedef struct
{
  GBytes *bytes;
  guint8 *copy;
} ParseJob;

static void
do_parse (gpointer data)
{
  ParseJob *job = data;
  gsize size;
  const guint8 *d = g_bytes_get_data (job->bytes, &size);
  g_autoptr (GError) error = NULL;
  TressBfresModels *models = tress_bfres_models_parse (d, size, &error);

  g_assert_no_error (error);
  tress_bfres_models_free (models);
}

static void
do_memcpy (gpointer data)
{
  ParseJob *job = data;
  gsize size;
  const guint8 *d = g_bytes_get_data (job->bytes, &size);

  memcpy (job->copy, d, size);
  job->copy[size / 2] ^= 1;
}

static void
bench_parse (const char *label, GBytes *bytes)
{
  ParseJob job = { bytes, g_malloc (g_bytes_get_size (bytes)) };
  double parse = best_of (5, 20, do_parse, &job);
  double copy = best_of (5, 200, do_memcpy, &job);

  g_print ("model parse, %s (%" G_GSIZE_FORMAT " bytes): %.3f ms; memcpy %.4f ms; ratio %.0f×\n",
           label, g_bytes_get_size (bytes), parse * 1e3, copy * 1e3, parse / copy);
  g_free (job.copy);
}

/* The test creature with an animation turning every bone. */
static GBytes *
build_creature (void)
{
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("Bench", 0x04050003);
  g_autoptr (GError) error = NULL;
  GBytes *bytes;

  tress_bfres_builder_add_test_model (b, "Creature", N_BONES, N_VERTICES);
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_SKELETAL, "Swim", 60, TRUE);
  for (guint i = 0; i < N_BONES; i++)
    {
      g_autofree char *name = i == 0 ? g_strdup ("Root") : g_strdup_printf ("Bone_%03u", i);
      TressKey keys[5];
      TressBfresBuilderCurve c = { 0 };

      for (guint k = 0; k < 5; k++)
        {
          double f = 15.0 * k, w = 2 * G_PI / 60;

          keys[k] = (TressKey){ 0 };
          keys[k].frame = f;
          keys[k].value = 0.3 * sin (w * f + i * 0.2);
          keys[k].in_slope = keys[k].out_slope = 0.3 * w * cos (w * f + i * 0.2);
        }
      c.curve_type = TRESS_BFRES_CURVE_CUBIC;
      c.frame_type = TRESS_BFRES_FRAME_U8;
      c.key_type = TRESS_BFRES_KEY_S16;
      c.target_offset = 0x28;
      c.n_keys = 5;
      c.keys = keys;
      c.pre_wrap = c.post_wrap = TRESS_WRAP_REPEAT;
      tress_bfres_builder_add_bone (b, name);
      tress_bfres_builder_add_curve (b, &c);
    }
  bytes = tress_bfres_builder_finish (b, &error);
  g_assert_no_error (error);
  return bytes;
}

typedef struct
{
  TressSceneAnimator *animator;
  TressBfres *file;
  TressScenePreview *preview;
} Player;

static double
cpu_seconds (void)
{
  struct rusage u;

  getrusage (RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

/* Wall and processor seconds per frame. */
static void
time_frames (TressScenePreview *preview, TressScenePreviewFrameFunc fn, gpointer data, double *wall,
             double *cpu)
{
  double c0 = cpu_seconds ();

  *wall = tress_scene_preview_time_frames (preview, N_FRAMES, fn, data);
  /* One frame more than N_FRAMES is drawn (the upload, untimed): close enough. */
  *cpu = (cpu_seconds () - c0) / (N_FRAMES + 1);
}

static double
sample (gpointer data, guint curve, double frame)
{
  return tress_bfres_evaluate (data, curve, frame);
}

static void
pose_frame (gpointer data, guint i)
{
  Player *p = data;
  guint anim = 0;

  tress_scene_animator_pose (p->animator, &anim, 1, i * 0.5, sample, p->file);
  tress_scene_preview_pose_changed (p->preview);
}

int
main (int argc, char **argv)
{
  g_autoptr (GBytes) creature = NULL, fres = NULL;
  g_autoptr (TressBfres) file = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (TressSceneAnimator) animator = NULL;
  g_autofree char *bass_path = NULL;
  GtkWidget *window, *preview;
  Player player;
  double full, empty, full_cpu, empty_cpu;
  guint n_vertices = 0;

  g_test_init (&argc, &argv, NULL);
  gtk_init ();

  creature = build_creature ();
  bench_parse ("135 bones, 20,000 skinned vertices", creature);
  bass_path
      = g_build_filename (g_getenv ("TRESS_SAMPLES_DIR") ? g_getenv ("TRESS_SAMPLES_DIR") : ".",
                          "bfres", "Animal_Bass.bfres", NULL);
  if (g_file_test (bass_path, G_FILE_TEST_EXISTS))
    {
      g_autoptr (GMappedFile) mapped = g_mapped_file_new (bass_path, FALSE, NULL);
      g_autoptr (GBytes) bass = mapped != NULL ? g_mapped_file_get_bytes (mapped) : NULL;

      if (bass != NULL)
        bench_parse ("Animal_Bass.bfres", bass);
    }

  file = tress_bfres_parse (creature, "bench.bfres", &error);
  g_assert_no_error (error);
  fres = tress_bfres_get_bfres_bytes (file);
  animator = tress_bfres_animator_new (file, fres, "bench.bfres", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < animator->scene->meshes->len; i++)
    n_vertices += tress_scene_get_mesh (animator->scene, i)->n_vertices;

  window = gtk_window_new ();
  preview = tress_scene_preview_new ();
  gtk_widget_set_size_request (preview, 640, 480);
  gtk_window_set_child (GTK_WINDOW (window), preview);
  gtk_window_present (GTK_WINDOW (window));
  WAIT_FOR (tress_scene_preview_get_gl_ready (TRESS_SCENE_PREVIEW (preview))
            || tress_scene_preview_get_gl_error (TRESS_SCENE_PREVIEW (preview)) != NULL);
  if (!tress_scene_preview_get_gl_ready (TRESS_SCENE_PREVIEW (preview)))
    {
      g_print ("preview frame: GL unavailable (%s)\n",
               tress_scene_preview_get_gl_error (TRESS_SCENE_PREVIEW (preview)));
      return 0;
    }
  WAIT_FOR (tress_scene_preview_get_n_frames (TRESS_SCENE_PREVIEW (preview)) > 0);

  /* The empty frame first: the clear and the read-back path alone. */
  time_frames (TRESS_SCENE_PREVIEW (preview), NULL, NULL, &empty, &empty_cpu);
  tress_scene_preview_set_scene (TRESS_SCENE_PREVIEW (preview), animator->scene);
  tress_scene_preview_frame_all (TRESS_SCENE_PREVIEW (preview));
  player = (Player){ animator, file, TRESS_SCENE_PREVIEW (preview) };
  time_frames (TRESS_SCENE_PREVIEW (preview), pose_frame, &player, &full, &full_cpu);
  g_print ("preview frame, %u bones, %u skinned vertices, %s, 640×480, posed each frame: "
           "%.2f ms (%.0f fps); empty frame %.2f ms; ratio %.1f×\n"
           "  processor time per frame: %.2f ms (%.0f fps on one free core); empty frame %.2f ms; "
           "ratio %.1f×\n",
           tress_scene_get_n_nodes (animator->scene), n_vertices,
           (const char *)glGetString (GL_RENDERER), full * 1e3, 1 / full, empty * 1e3, full / empty,
           full_cpu * 1e3, 1 / full_cpu, empty_cpu * 1e3, full_cpu / MAX (empty_cpu, 1e-6));
  tress_scene_preview_set_scene (TRESS_SCENE_PREVIEW (preview), NULL);
  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
