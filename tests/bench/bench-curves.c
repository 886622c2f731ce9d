/* bench-curves.c: drawing curves and one drag step, against baselines of the same run
 *
 * 1. Painting curve lines into a 1920×1080 ARGB32 surface (the view's own
 *    painting code), as a ratio to copying that surface's bytes once (memcpy):
 *    a 100,000-sample baked curve; 200 overlaid Hermite curves of 1,000 keys;
 *    the baked curve at half the width and with a tenth of the samples: the
 *    cost is O(width) for the pixels plus one visit per sample in view. Frames
 *    with many layers are painted by up to one thread per processor (ranges of
 *    columns), so the figure depends on the processors free at the time; the
 *    200 curves are also timed in one thread.
 * 2. One drag step of a key in a 10,000-key curve (tress_curve_drag_step, what
 *    the view runs per pointer motion), as a ratio to copying the curve's keys
 *    once (memcpy), which is less than re-encoding them all would cost.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "app/curves/tress-curve-paint.h"

static double
now_s (void)
{
  return g_get_monotonic_time () / 1e6;
}

/* Seconds per run of @fn, the best of seven batches of @reps runs (the best
 * is the figure least disturbed by whatever else the machine runs). */
static double
time_best (void (*fn) (gpointer), gpointer data, guint reps)
{
  double best = G_MAXDOUBLE;

  fn (data); /* warm up */
  for (int batch = 0; batch < 7; batch++)
    {
      double t0 = now_s ();

      for (guint i = 0; i < reps; i++)
        fn (data);
      best = MIN (best, (now_s () - t0) / reps);
    }
  return best;
}

typedef struct
{
  guint8 *src;
  guint8 *dst;
  gsize size;
} CopyData;

static void
run_copy (gpointer data)
{
  CopyData *c = data;

  memcpy (c->dst, c->src, c->size);
  /* Keep the copy observable so it is not optimised away. */
  c->src[c->size / 2] ^= c->dst[c->size / 3];
}

typedef struct
{
  cairo_surface_t *surface;
  TressCurveLayer *layers;
  guint n_layers;
  double *colors;
  TressCurveViewport vp;
} PaintData;

static void
run_paint (gpointer data)
{
  PaintData *p = data;
  cairo_t *cr = cairo_create (p->surface);

  cairo_set_source_rgb (cr, 0.16, 0.16, 0.17);
  cairo_paint (cr);
  tress_curve_paint_lines (cr, p->layers, p->n_layers, &p->vp, p->colors);
  cairo_destroy (cr);
  cairo_surface_flush (p->surface);
}

static TressCurve *
make_baked (guint n)
{
  TressCurve *c = tress_curve_new ();

  g_array_set_size (c->keys, n);
  for (guint i = 0; i < n; i++)
    {
      TressKey *k = tress_curve_get_key (c, i);

      memset (k, 0, sizeof *k);
      k->frame = i * (100000.0 / n);
      k->value = sin (i * 0.001) + 0.3 * sin (i * 0.37) + 0.05 * ((i * 7919) % 13);
      k->interp = TRESS_INTERP_BAKED;
    }
  return c;
}

static TressCurve *
make_hermite (guint n, guint seed)
{
  TressCurve *c = tress_curve_new ();

  g_array_set_size (c->keys, n);
  for (guint i = 0; i < n; i++)
    {
      TressKey *k = tress_curve_get_key (c, i);

      memset (k, 0, sizeof *k);
      k->frame = i * 10;
      k->value = sin (i * 0.05 + seed) * (1 + seed % 5);
      k->in_slope = k->out_slope = cos (i * 0.05 + seed) * 0.1;
      k->interp = TRESS_INTERP_HERMITE;
      k->tangent = TRESS_TANGENT_AUTO;
    }
  return c;
}

static double
paint_time (TressCurve **curves, guint n, int width, int height, double frame_max)
{
  PaintData p = { 0 };
  double t;

  p.surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  p.layers = g_new0 (TressCurveLayer, n);
  p.colors = g_new (double, 3 * n);
  p.n_layers = n;
  for (guint i = 0; i < n; i++)
    {
      p.layers[i].curve = curves[i];
      p.layers[i].map = TRESS_VALUE_MAP_IDENTITY;
      p.layers[i].visible = TRUE;
      tress_curve_component_color ((const char *[]){ "X", "Y", "Z", "W" }[i % 4], i,
                                   &p.colors[3 * i]);
    }
  tress_curve_viewport_init (&p.vp, width, height);
  p.vp.frame_min = 0;
  p.vp.frame_max = frame_max;
  p.vp.value_min = -6;
  p.vp.value_max = 6;
  t = time_best (run_paint, &p, 5);
  cairo_surface_destroy (p.surface);
  g_free (p.layers);
  g_free (p.colors);
  return t;
}

typedef struct
{
  TressCurve *edit;
  TressCurve *orig;
  guint key;
  double d;
} DragData;

static void
run_drag_step (gpointer data)
{
  DragData *d = data;

  d->d = d->d > 4 ? 0 : d->d + 0.5;
  if (!tress_curve_drag_step (d->edit, d->orig, &d->key, 1, d->d, d->d / 10))
    g_error ("the dragged key passed a neighbour");
}

typedef struct
{
  TressKey *dst;
  const TressKey *src;
  guint n;
} KeyCopyData;

static void
run_key_copy (gpointer data)
{
  KeyCopyData *k = data;

  memcpy (k->dst, k->src, k->n * sizeof (TressKey));
  k->dst[k->n / 2].value += 1e-9;
}

int
main (int argc, char **argv)
{
  const int W = 1920, H = 1080;
  CopyData copy = { 0 };
  double t_copy, t_baked, t_overlay, t_overlay_one, t_baked_half, t_baked_tenth, t_drag, t_keycopy;
  TressCurve *baked = make_baked (100000);
  TressCurve *baked_small = make_baked (10000);
  TressCurve *overlay[200];
  DragData drag = { 0 };
  KeyCopyData kc = { 0 };

  copy.size = (gsize)W * H * 4;
  copy.src = g_malloc0 (copy.size);
  copy.dst = g_malloc0 (copy.size);
  t_copy = time_best (run_copy, &copy, 20);

  t_baked = paint_time (&baked, 1, W, H, 100000);
  t_baked_half = paint_time (&baked, 1, W / 2, H, 100000);
  t_baked_tenth = paint_time (&baked_small, 1, W, H, 100000);
  for (guint i = 0; i < 200; i++)
    overlay[i] = make_hermite (1000, i);
  t_overlay = paint_time (overlay, 200, W, H, 10000);
  tress_curve_paint_set_max_threads (1);
  t_overlay_one = paint_time (overlay, 200, W, H, 10000);
  tress_curve_paint_set_max_threads (0);

  drag.orig = make_hermite (10000, 3);
  drag.edit = tress_curve_copy (drag.orig);
  drag.key = 5000;
  t_drag = time_best (run_drag_step, &drag, 20000);
  kc.n = 10000;
  kc.src = (const TressKey *)drag.orig->keys->data;
  kc.dst = g_new (TressKey, kc.n);
  t_keycopy = time_best (run_key_copy, &kc, 2000);

  g_print ("baseline: memcpy of a %dx%d ARGB32 surface: %.3f ms (%u processors)\n", W, H,
           t_copy * 1e3, g_get_num_processors ());
  g_print ("100,000-sample baked curve, %dx%d: %.3f ms a frame = %.2f x baseline\n", W, H,
           t_baked * 1e3, t_baked / t_copy);
  g_print ("  same curve, %dx%d: %.3f ms (%.2f x the full width)\n", W / 2, H, t_baked_half * 1e3,
           t_baked_half / t_baked);
  g_print ("  10,000 samples, %dx%d: %.3f ms (%.2f x 100,000 samples; each sample in view is "
           "visited once for the min/max of its column)\n",
           W, H, t_baked_tenth * 1e3, t_baked_tenth / t_baked);
  g_print ("200 overlaid Hermite curves x 1,000 keys, %dx%d: %.3f ms a frame = %.2f x baseline\n",
           W, H, t_overlay * 1e3, t_overlay / t_copy);
  g_print ("  the same in one thread: %.3f ms = %.2f x baseline\n", t_overlay_one * 1e3,
           t_overlay_one / t_copy);
  g_print ("baseline: memcpy of a 10,000-key curve's keys: %.3f us\n", t_keycopy * 1e6);
  g_print ("one drag step of a key in a 10,000-key curve: %.3f us = %.4f x baseline "
           "(only the key and its neighbours change)\n",
           t_drag * 1e6, t_drag / t_keycopy);

  for (guint i = 0; i < 200; i++)
    tress_curve_unref (overlay[i]);
  tress_curve_unref (baked);
  tress_curve_unref (baked_small);
  tress_curve_unref (drag.orig);
  tress_curve_unref (drag.edit);
  g_free (kc.dst);
  g_free (copy.src);
  g_free (copy.dst);
  return 0;
}
