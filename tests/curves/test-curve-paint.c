/* test-curve-paint.c: the curve lines' pixels, without a display
 *
 * The view paints its lines straight into an image's pixels (by strips, four
 * columns per store, in several threads for big frames). These tests hold
 * that fast path to the plain cairo path it replaces: the same scene drawn
 * both ways gives the same pixels, and the same bytes whatever the threads.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "app/curves/tress-curve-paint.h"

#define W 1283 /* not a multiple of 4 or of a strip: partial groups at the edge */
#define H 517

static TressCurve *
make_curve (guint n, double f0, double step, TressInterp interp, guint seed)
{
  TressCurve *c = g_new0 (TressCurve, 1);

  c->keys = g_array_new (FALSE, TRUE, sizeof (TressKey));
  for (guint i = 0; i < n; i++)
    {
      TressKey k = { 0 };

      k.frame = f0 + i * step;
      /* Smooth parts, steep jumps and values off the top and bottom. */
      k.value = sin (i * 0.07 + seed) * (1 + seed % 7) + ((i * 7919 + seed) % 23 == 0 ? 9 : 0);
      k.in_slope = k.out_slope = cos (i * 0.07 + seed) * 0.2;
      k.interp = interp;
      g_array_append_val (c->keys, k);
    }
  return c;
}

static void
free_curve (TressCurve *c)
{
  g_array_unref (c->keys);
  g_free (c);
}

typedef struct
{
  TressCurve *curves[160];
  TressCurveLayer layers[160];
  double colors[3 * 160];
  guint n;
  TressCurveViewport vp;
} Scene;

/* 160 layers × 1283 columns: past the size painted by several threads. Every
 * kind of segment, keys starting and ending inside the view at odd columns,
 * looping curves (faint ghosts), locked layers (blended), a hidden one. */
static void
scene_init (Scene *s, gboolean with_blending)
{
  static const TressInterp interps[]
      = { TRESS_INTERP_HERMITE, TRESS_INTERP_LINEAR, TRESS_INTERP_STEP, TRESS_INTERP_BAKED };

  memset (s, 0, sizeof *s);
  s->n = 160;
  for (guint i = 0; i < s->n; i++)
    {
      TressInterp interp = interps[i % 4];
      guint n_keys = interp == TRESS_INTERP_BAKED ? 3000 : 40 + i * 7;
      double f0 = (i * 37) % 300 - 50.0;
      double step = (900.0 + i) / n_keys;

      s->curves[i] = make_curve (n_keys, f0, step, interp, i);
      if (with_blending && i % 5 == 1)
        s->curves[i]->loops = TRUE;
      s->layers[i].curve = s->curves[i];
      s->layers[i].map = TRESS_VALUE_MAP_IDENTITY;
      s->layers[i].visible = i != 17;
      s->layers[i].locked = with_blending && i % 7 == 3;
      tress_curve_component_color ((const char *[]){ "X", "Y", "Z", "W", "Q" }[i % 5], i,
                                   &s->colors[3 * i]);
    }
  tress_curve_viewport_init (&s->vp, W, H);
  s->vp.frame_min = -120;
  s->vp.frame_max = 1100;
  s->vp.value_min = -8;
  s->vp.value_max = 8;
}

static void
scene_clear (Scene *s)
{
  for (guint i = 0; i < s->n; i++)
    free_curve (s->curves[i]);
}

/* The scene on a transparent image, straight into its pixels. */
static cairo_surface_t *
paint_fast (Scene *s)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create (surface);

  tress_curve_paint_lines (cr, s->layers, s->n, &s->vp, s->colors);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* The same scene through cairo's own drawing (a recording surface takes the
 * path-filling route), then replayed onto an image. */
static cairo_surface_t *
paint_cairo (Scene *s)
{
  cairo_surface_t *recording = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create (recording);

  tress_curve_paint_lines (cr, s->layers, s->n, &s->vp, s->colors);
  cairo_destroy (cr);
  cr = cairo_create (surface);
  cairo_set_source_surface (cr, recording, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_destroy (recording);
  cairo_surface_flush (surface);
  return surface;
}

/* The largest difference of any channel of any pixel; counts the pixels drawn. */
static guint
max_difference (cairo_surface_t *a, cairo_surface_t *b, guint *n_drawn)
{
  int stride = cairo_image_surface_get_stride (a);
  const guint8 *pa = cairo_image_surface_get_data (a), *pb = cairo_image_surface_get_data (b);
  guint worst = 0;

  *n_drawn = 0;
  g_assert_cmpint (stride, ==, cairo_image_surface_get_stride (b));
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        guint32 va, vb;

        memcpy (&va, pa + (gsize)y * stride + x * 4, 4);
        memcpy (&vb, pb + (gsize)y * stride + x * 4, 4);
        if (va != 0)
          (*n_drawn)++;
        for (int shift = 0; shift < 32; shift += 8)
          worst
              = MAX (worst, (guint)ABS ((int)((va >> shift) & 0xff) - (int)((vb >> shift) & 0xff)));
      }
  return worst;
}

static void
test_fast_matches_cairo (void)
{
  Scene s;
  cairo_surface_t *fast, *slow;
  guint n_drawn;

  /* Opaque lines (and the faint held values): the very same pixels. */
  scene_init (&s, FALSE);
  fast = paint_fast (&s);
  slow = paint_cairo (&s);
  g_assert_cmpuint (max_difference (fast, slow, &n_drawn), ==, 0);
  g_assert_cmpuint (n_drawn, >, W * H / 4); /* the scene covers much of the image */
  cairo_surface_destroy (fast);
  cairo_surface_destroy (slow);
  scene_clear (&s);

  /* Ghosts and locked layers blend, with cairo's rounding. */
  scene_init (&s, TRUE);
  fast = paint_fast (&s);
  slow = paint_cairo (&s);
  g_assert_cmpuint (max_difference (fast, slow, &n_drawn), ==, 0);
  cairo_surface_destroy (fast);
  cairo_surface_destroy (slow);
  scene_clear (&s);
}

static void
test_threads_same_bytes (void)
{
  Scene s;
  cairo_surface_t *one, *many;
  guint n_drawn;

  scene_init (&s, TRUE);
  tress_curve_paint_set_max_threads (1);
  one = paint_fast (&s);
  tress_curve_paint_set_max_threads (3); /* uneven: ranges of different widths */
  many = paint_fast (&s);
  tress_curve_paint_set_max_threads (0);
  g_assert_cmpuint (max_difference (one, many, &n_drawn), ==, 0);
  g_assert_cmpuint (n_drawn, >, 0);
  cairo_surface_destroy (one);
  cairo_surface_destroy (many);
  scene_clear (&s);
}

static void
test_clip_honoured (void)
{
  Scene s;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create (surface);
  int stride = cairo_image_surface_get_stride (surface);
  const guint8 *data;

  scene_init (&s, FALSE);
  /* Only the left half may be drawn. */
  cairo_rectangle (cr, 0, 0, W / 2, H);
  cairo_clip (cr);
  tress_curve_paint_lines (cr, s.layers, s.n, &s.vp, s.colors);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  for (int y = 0; y < H; y++)
    for (int x = W / 2; x < W; x++)
      {
        guint32 v;

        memcpy (&v, data + (gsize)y * stride + x * 4, 4);
        g_assert_cmphex (v, ==, 0);
      }
  cairo_surface_destroy (surface);
  scene_clear (&s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/curves/paint/fast-matches-cairo", test_fast_matches_cairo);
  g_test_add_func ("/curves/paint/threads-same-bytes", test_threads_same_bytes);
  g_test_add_func ("/curves/paint/clip-honoured", test_clip_honoured);
  return g_test_run ();
}
