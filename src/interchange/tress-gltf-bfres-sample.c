/* tress-gltf-bfres-sample.c: when to sample a skeletal animation for glTF
 *
 * glTF interpolates between samples linearly (rotations along the short
 * arc); the curves do not. Every whole frame and every key frame is a sample,
 * where the pose is exact; between two of them a sample is added halfway
 * wherever the interpolation would stray further from the curves than the
 * DENSE_ limits (a cubic bulge, an Euler curve turning the long way round),
 * down to an eighth of the interval.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-gltf-bfres-private.h"

#include <math.h>

#include "formats/tress-format.h"

double
tress_gltf_bfres_sample_curve (gpointer data, guint curve, double frame)
{
  return tress_bfres_evaluate (data, curve, frame);
}

static int
compare_doubles (gconstpointer a, gconstpointer b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return x < y ? -1 : x > y;
}

/* Between two samples glTF interpolates linearly (spherically for
 * rotations). Where that strays from the curves halfway by more than these
 * (positions: of the skeleton's size; scales; degrees), a sample is added
 * there, and so on down to 1/2^DENSE_DEPTH of the interval. */
#define DENSE_POSITION 5e-4
#define DENSE_SCALE 5e-4
#define DENSE_DEGREES 0.25
#define DENSE_DEPTH 3

static void
pose_trs (Export *e, guint k, double frame, TressBfresSrt *srt, TressGltfTrs *trs)
{
  TressBfresScaling scaling = tress_bfres_animator_pose_srt (
      e->animator, (int)k, frame, tress_gltf_bfres_sample_curve, e->bfres, srt);

  tress_gltf_bfres_trs (&e->model->skeleton, srt, scaling, trs);
}

/* Whether glTF's interpolation halfway between the samples @a and @b lies
 * further from the pose @mid than the DENSE_ limits. */
static gboolean
strays (guint nb, const TressGltfTrs *a, const TressGltfTrs *b, const TressGltfTrs *mid,
        double size)
{
  for (guint i = 0; i < nb; i++)
    {
      double d = 0, ds = 0, dot = 0, q[4], n = 0, qm = 0;

      for (guint c = 0; c < 3; c++)
        {
          double t = (a[i].translation[c] + b[i].translation[c]) / 2 - mid[i].translation[c];
          double sc = (a[i].scale[c] + b[i].scale[c]) / 2 - mid[i].scale[c];

          d += t * t;
          ds = MAX (ds, fabs (sc));
        }
      if (sqrt (d) > DENSE_POSITION * size || ds > DENSE_SCALE)
        return TRUE;
      /* Halfway along the short arc: the normalized sum. */
      for (guint c = 0; c < 4; c++)
        dot += a[i].rotation[c] * b[i].rotation[c];
      for (guint c = 0; c < 4; c++)
        {
          q[c] = a[i].rotation[c] + (dot < 0 ? -b[i].rotation[c] : b[i].rotation[c]);
          n += q[c] * q[c];
        }
      if (!(n > 0))
        return TRUE;
      for (guint c = 0; c < 4; c++)
        qm += q[c] / sqrt (n) * mid[i].rotation[c];
      if (2 * acos (MIN (fabs (qm), 1.0)) * 180 / G_PI > DENSE_DEGREES)
        return TRUE;
    }
  return FALSE;
}

typedef struct
{
  Export *e;
  guint k;
  guint nb;
  double size;
  TressBfresSrt *srt; /* scratch */
  GArray *frames;
} Dense;

/* Adds the frames strictly between @a and @b (posed as @ta, @tb) that glTF
 * needs to follow the curves there. */
static void
refine (Dense *d, double a, double b, const TressGltfTrs *ta, const TressGltfTrs *tb, guint depth)
{
  double mid = (a + b) / 2;
  g_autofree TressGltfTrs *tm = NULL;

  /* (two frames on one float time would be one sample) */
  if (depth >= DENSE_DEPTH || (float)(mid / d->e->fps) <= (float)(a / d->e->fps)
      || (float)(mid / d->e->fps) >= (float)(b / d->e->fps))
    return;
  tm = g_new (TressGltfTrs, d->nb + 1);
  pose_trs (d->e, d->k, mid, d->srt, tm);
  if (!strays (d->nb, ta, tb, tm, d->size))
    return;
  refine (d, a, mid, ta, tm, depth + 1);
  g_array_append_val (d->frames, mid);
  refine (d, mid, b, tm, tb, depth + 1);
}

/* The size of the skeleton: the furthest bind-pose joint from the origin. */
static double
skeleton_size (Export *e)
{
  double size = 0;

  for (guint i = 0; i < e->model->skeleton.n_bones; i++)
    {
      const double *m[3] = { e->bind_world[i].m[0], e->bind_world[i].m[1], e->bind_world[i].m[2] };

      size = MAX (size, sqrt (m[0][3] * m[0][3] + m[1][3] * m[1][3] + m[2][3] * m[2][3]));
    }
  return size > 0 ? size : 1;
}

GArray *
tress_gltf_bfres_sample_frames (Export *e, guint k, double frame_count)
{
  const TressFormat *format = &tress_format_bfres;
  TressSceneAnimator *a = e->animator;
  GArray *frames = g_array_new (FALSE, FALSE, sizeof (double));
  GArray *kept;
  float last = -1;
  guint nb = e->model->skeleton.n_bones;
  g_autofree TressBfresSrt *srt = g_new0 (TressBfresSrt, nb + 1);
  g_autofree TressGltfTrs *ta = g_new0 (TressGltfTrs, nb + 1);
  g_autofree TressGltfTrs *tb = g_new0 (TressGltfTrs, nb + 1);
  Dense d = { e, k, nb, skeleton_size (e), srt, NULL };

  for (double f = 0; f <= frame_count; f++)
    g_array_append_val (frames, f);
  for (guint c = 0; c < a->n_curves; c++)
    {
      g_autoptr (TressCurve) curve = NULL;

      if (a->curve_anim[c] != (int)k || a->curve_node[c] < 0)
        continue;
      curve = format->curves->get_curve (e->bfres, c);
      for (guint i = 0; curve != NULL && i < curve->keys->len; i++)
        {
          double f = g_array_index (curve->keys, TressKey, i).frame;

          if (f > 0 && f < frame_count && f != floor (f))
            g_array_append_val (frames, f);
        }
    }
  g_array_sort (frames, compare_doubles);
  kept = g_array_sized_new (FALSE, FALSE, sizeof (double), frames->len);
  for (guint i = 0; i < frames->len; i++)
    {
      double f = g_array_index (frames, double, i);
      float t = (float)(f / e->fps);

      if (i == 0 || t > last)
        {
          g_array_append_val (kept, f);
          last = t;
        }
    }
  g_array_unref (frames);
  if (nb == 0 || kept->len < 2)
    return kept;
  /* Where the samples alone would stray from the curves, more of them. */
  d.frames = g_array_sized_new (FALSE, FALSE, sizeof (double), kept->len);
  pose_trs (e, k, g_array_index (kept, double, 0), srt, ta);
  g_array_append_val (d.frames, g_array_index (kept, double, 0));
  for (guint i = 1; i < kept->len; i++)
    {
      double fa = g_array_index (kept, double, i - 1), fb = g_array_index (kept, double, i);
      TressGltfTrs *swap;

      pose_trs (e, k, fb, srt, tb);
      refine (&d, fa, fb, ta, tb, 0);
      g_array_append_val (d.frames, fb);
      swap = ta;
      ta = tb;
      tb = swap;
    }
  g_array_unref (kept);
  return d.frames;
}
