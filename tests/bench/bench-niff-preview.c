/* bench-niff-preview.c: the largest shared NIFF sample in the animation preview
 *
 * Figures, each against a baseline measured in the same run:
 *  - scene read: tress_niff_scene_new() (every scene list, bounded and
 *    checked) of the file, against memcpy of the file's bytes, in processor
 *    time of the thread (best of five); and the whole preview scene (read,
 *    meshes and colours, bound at frame 0);
 *  - preview frame (Mesa llvmpipe under Xvfb) of the scene playing: pose of
 *    every object from the file's curves, joint upload, draw and glFinish, at
 *    640×480, in milliseconds and frames per second, against a bare frame
 *    (clear only) of the same size; the processor time of both is given too,
 *    as the wall clock on a shared machine says more about the others' load.
 *
 *   meson test -C build --benchmark --suite niff
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <epoxy/gl.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "formats/niff/tress-niff-animator.h"
#include "scene/tress-scene-preview.h"
#include "bench-timing.h"
#include "tress-test-utils.h"

#define N_FRAMES 120
#define WAIT_FOR(cond) TRESS_TEST_WAIT_FOR (cond)

static const char *const candidates[] = {
  "niff/3hedra.niff",         "niff/Rings.niff",       "niff/blend2niff-cube.nif",
  "niff/dragon.nif",          "niff/kirikobu.niff",    "niff/synthetic-all-channels.nif",
  "niff/synthetic-niff1.nif", "niff/yellow-cube.niff",
};

/* Processor seconds of this thread: on a shared machine the wall clock would
 * charge others' work to whichever step runs. */
typedef struct
{
  GBytes *bytes;
  guint8 *copy;
  TressNiffFile *file;
  GPtrArray *curves; /* TressCurve per curve, as the editor holds them */
  TressSceneAnimator *animator;
  TressScenePreview *preview;
} Bench;

static void
do_memcpy (gpointer data)
{
  Bench *b = data;
  gsize size;
  const guint8 *d = g_bytes_get_data (b->bytes, &size);

  memcpy (b->copy, d, size);
  b->copy[size / 2] ^= 1;
}

static void
do_scene (gpointer data)
{
  Bench *b = data;
  g_autoptr (GError) error = NULL;
  TressNiffScene *scene = tress_niff_scene_new (b->file, &error);

  g_assert_no_error (error);
  tress_niff_scene_free (scene);
}

static void
do_animator (gpointer data)
{
  Bench *b = data;

  tress_scene_animator_free (tress_niff_animator_new (b->file, "bench", NULL));
}

static double
cpu_seconds (void)
{
  struct rusage u;

  getrusage (RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

static void
time_frames (TressScenePreview *preview, TressScenePreviewFrameFunc fn, gpointer data, double *wall,
             double *cpu)
{
  double c0 = cpu_seconds ();

  *wall = tress_scene_preview_time_frames (preview, N_FRAMES, fn, data);
  *cpu = (cpu_seconds () - c0) / (N_FRAMES + 1);
}

static double
sample (gpointer data, guint curve, double frame)
{
  Bench *b = data;

  return tress_curve_evaluate (g_ptr_array_index (b->curves, curve), frame);
}

static void
pose_frame (gpointer data, guint i)
{
  Bench *b = data;
  const guint anim = 0;

  tress_scene_animator_pose (b->animator, &anim, 1, i * 2.0, sample, b);
  tress_scene_preview_pose_changed (b->preview);
}

int
main (int argc, char **argv)
{
  const TressFormat *fmt = &tress_format_niff;
  g_autoptr (GError) error = NULL;
  const char *largest = NULL;
  Bench b = { 0 };
  GtkWidget *window, *preview;
  double t_copy, t_scene, t_animator, full, empty, full_cpu, empty_cpu;
  gsize best = 0, size;
  guint n_vertices = 0;

  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    {
      g_autofree char *path = tress_test_sample_path (candidates[i]);
      GStatBuf st;

      if (path != NULL && g_stat (path, &st) == 0 && (gsize)st.st_size > best)
        {
          best = st.st_size;
          largest = candidates[i];
        }
    }
  if (largest == NULL)
    {
      g_print ("bench-niff-preview: no NIFF sample found (TRESS_SAMPLES_DIR), nothing measured\n");
      return 0;
    }
  b.bytes = tress_test_load_sample (largest);
  size = g_bytes_get_size (b.bytes);
  b.copy = g_malloc (size);
  b.file = fmt->parse (b.bytes, largest, &error);
  g_assert_no_error (error);
  b.curves = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_curve_unref);
  for (guint i = 0; i < fmt->curves->n_curves (b.file); i++)
    g_ptr_array_add (b.curves, fmt->curves->get_curve (b.file, i));

  /* Warm up: the first runs pay for page faults and a cold cache. */
  do_memcpy (&b);
  do_scene (&b);
  do_animator (&b);
  t_copy = bench_best_of (5, 200, do_memcpy, &b);
  t_scene = bench_best_of (5, 20, do_scene, &b);
  t_animator = bench_best_of (5, 10, do_animator, &b);
  g_print ("scene read, %s (%" G_GSIZE_FORMAT " bytes): %.3f ms; memcpy %.4f ms; ratio %.0f×\n"
           "  the preview's scene (read, meshes, colours, bound): %.3f ms\n",
           largest, size, t_scene * 1e3, t_copy * 1e3, t_scene / t_copy, t_animator * 1e3);

  b.animator = tress_niff_animator_new (b.file, largest, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < b.animator->scene->meshes->len; i++)
    n_vertices += tress_scene_get_mesh (b.animator->scene, i)->n_vertices;

  window = gtk_window_new ();
  preview = tress_scene_preview_new ();
  b.preview = TRESS_SCENE_PREVIEW (preview);
  gtk_widget_set_size_request (preview, 640, 480);
  gtk_window_set_child (GTK_WINDOW (window), preview);
  gtk_window_present (GTK_WINDOW (window));
  WAIT_FOR (tress_scene_preview_get_gl_ready (b.preview)
            || tress_scene_preview_get_gl_error (b.preview) != NULL);
  if (!tress_scene_preview_get_gl_ready (b.preview))
    {
      g_print ("preview frame: GL unavailable (%s)\n",
               tress_scene_preview_get_gl_error (b.preview));
      return 0;
    }
  WAIT_FOR (tress_scene_preview_get_n_frames (b.preview) > 0);

  /* The bare frame first: the clear and the read-back path alone. */
  time_frames (b.preview, NULL, NULL, &empty, &empty_cpu);
  tress_scene_preview_set_scene (b.preview, b.animator->scene);
  tress_scene_preview_frame_all (b.preview);
  time_frames (b.preview, pose_frame, &b, &full, &full_cpu);
  g_print ("preview frame, %s: %u objects, %u vertices, %s, 640×480, posed each frame: "
           "%.2f ms (%.0f fps); bare frame (clear) %.2f ms; ratio %.1f×\n"
           "  processor time per frame: %.2f ms (%.0f fps on one free core); bare frame %.2f ms; "
           "ratio %.1f×\n",
           largest, tress_scene_get_n_nodes (b.animator->scene), n_vertices,
           (const char *)glGetString (GL_RENDERER), full * 1e3, 1 / full, empty * 1e3, full / empty,
           full_cpu * 1e3, 1 / full_cpu, empty_cpu * 1e3, full_cpu / MAX (empty_cpu, 1e-6));
  tress_scene_preview_set_scene (b.preview, NULL);
  gtk_window_destroy (GTK_WINDOW (window));
  tress_scene_animator_free (b.animator);
  g_ptr_array_unref (b.curves);
  fmt->free (b.file);
  g_free (b.copy);
  g_bytes_unref (b.bytes);
  return 0;
}
