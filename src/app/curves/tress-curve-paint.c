/* tress-curve-paint.c: painting curve lines with cairo, one pixel column at a time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-paint.h"

#include <math.h>

void
tress_curve_component_color (const char *component, guint fallback_index, double rgb[3])
{
  static const double axes[4][3] = {
    { 0.93, 0.26, 0.26 }, /* X red */
    { 0.36, 0.80, 0.30 }, /* Y green */
    { 0.30, 0.52, 1.00 }, /* Z blue */
    { 0.95, 0.85, 0.20 }, /* W yellow */
  };
  static const double palette[4][3] = {
    { 0.85, 0.55, 0.95 },
    { 0.30, 0.85, 0.85 },
    { 0.95, 0.60, 0.30 },
    { 0.80, 0.80, 0.80 },
  };
  int axis = -1;

  if (component != NULL && component[0] != '\0' && component[1] == '\0')
    switch (g_ascii_toupper (component[0]))
      {
      case 'X':
      case 'R':
      case 'U':
        axis = 0;
        break;
      case 'Y':
      case 'G':
      case 'V':
        axis = 1;
        break;
      case 'Z':
      case 'B':
        axis = 2;
        break;
      case 'W':
      case 'A':
        axis = 3;
        break;
      default:
        break;
      }
  if (axis >= 0)
    for (int i = 0; i < 3; i++)
      rgb[i] = axes[axis][i];
  else
    for (int i = 0; i < 3; i++)
      rgb[i] = palette[fallback_index % 4][i];
}

static gboolean
wraps (const TressCurve *curve)
{
  return curve->loops || curve->pre_wrap != TRESS_WRAP_CLAMP
         || curve->post_wrap != TRESS_WRAP_CLAMP;
}

/* Adds the columns [c0, c1) to the path as one pixel-aligned bar each, from the
 * column's lowest to its highest point, thickened to a line width of about two
 * pixels. Neighbouring bars share the value where the curve crosses from one
 * column to the next, so the bars join into a line. Pixel-aligned rectangles
 * take cairo's box fast path: a frame costs O(width), and no stroker runs. */
static void
path_columns (cairo_t *cr, const TressCurveColumn *cols, int c0, int c1, int height)
{
  for (int c = c0; c < c1; c++)
    {
      const TressCurveColumn *col = &cols[c];
      float top, bottom;

      if (isnan (col->y_first))
        continue;
      top = floorf (col->y_min - 0.75f);
      bottom = ceilf (col->y_max + 0.75f);
      if (bottom < 0 || top > height)
        continue;
      top = MAX (top, -1.0f);
      bottom = MIN (bottom, (float)height + 1);
      cairo_rectangle (cr, c, top, 1, bottom - top);
    }
}

/* Blends a vertical span of one column into an ARGB32 image (premultiplied,
 * native-endian 32-bit pixels). */
static inline void
blend_span (guint8 *data, int stride, int x, int y0, int y1, guint32 argb, guint alpha)
{
  guint sr = (argb >> 16) & 0xff, sg = (argb >> 8) & 0xff, sb = argb & 0xff;

  for (int y = y0; y < y1; y++)
    {
      guint32 *p = (guint32 *)(data + (gsize)y * stride) + x;

      if (alpha >= 255)
        *p = 0xff000000u | argb;
      else
        {
          guint32 d = *p;
          guint inv = 255 - alpha;
          guint a = alpha + (((d >> 24) & 0xff) * inv) / 255;
          guint r = (sr * alpha + ((d >> 16) & 0xff) * inv) / 255;
          guint g = (sg * alpha + ((d >> 8) & 0xff) * inv) / 255;
          guint b = (sb * alpha + (d & 0xff) * inv) / 255;

          *p = (a << 24) | (r << 16) | (g << 8) | b;
        }
    }
}

/* The fast path: columns [c0, c1) written straight into the image's pixels;
 * @cols holds the columns from @base on. */
static void
image_columns (guint8 *data, int stride, int height, const TressCurveColumn *cols, int base, int c0,
               int c1, guint32 argb, guint alpha)
{
  const guint32 opaque = 0xff000000u | argb;
  const gsize step = (gsize)stride / 4;

  for (int c = c0; c < c1; c++)
    {
      const TressCurveColumn *col = &cols[c - base];
      int top, bottom;

      if (isnan (col->y_first) || !(col->y_max > -2) || !(col->y_min < height + 2))
        continue;
      top = (int)floorf (col->y_min - 0.75f);
      bottom = (int)ceilf (col->y_max + 0.75f);
      top = CLAMP (top, 0, height);
      bottom = CLAMP (bottom, 0, height);
      if (alpha >= 255)
        {
          /* Opaque: a plain store per pixel, the loop kept tight. */
          guint32 *p = (guint32 *)(data + (gsize)top * stride) + c;

          for (int y = top; y < bottom; y++, p += step)
            *p = opaque;
        }
      else
        blend_span (data, stride, c, top, bottom, argb, alpha);
    }
}

/* Columns per strip: a strip of a 1080-row image (1080 × 64 × 4 bytes) stays
 * in the cache while every layer is drawn into it. */
#define STRIP 64

typedef struct
{
  int first_col, last_col; /* the columns holding the first and last key (split ghost from curve) */
  double y0, y1;           /* the first and last values, in pixels */
  gboolean ghost;
  guint32 argb;
  guint alpha;
} LayerInfo;

typedef struct
{
  guint8 *data;
  int stride, width, height;
  const TressCurveLayer *layers;
  guint n_layers;
  const TressCurveViewport *vp;
  const LayerInfo *info;
  int first_strip, strip_step; /* this worker's strips: first, first + step, … */
} StripWork;

/* Paints strips of columns, all layers per strip: the pixels written stay in
 * the cache. Workers take interleaved strips, so they never share a pixel. */
static gpointer
paint_strips (gpointer data)
{
  const StripWork *w = data;
  guint8 *pixels = w->data;
  int stride = w->stride, width = w->width, height = w->height;
  const TressCurveLayer *layers = w->layers;
  guint n_layers = w->n_layers;
  const TressCurveViewport *vp = w->vp;
  const LayerInfo *info = w->info;
  TressCurveColumn cols[STRIP];

  for (int x0 = w->first_strip * STRIP; x0 < width; x0 += w->strip_step * STRIP)
    {
      int x1 = MIN (x0 + STRIP, width);

      for (guint l = 0; l < n_layers; l++)
        {
          const LayerInfo *li = &info[l];
          guint faint = (guint)(0.3 * li->alpha + 0.5);
          int s0, s1;

          if (li->first_col < 0)
            continue;
          if (!li->ghost)
            {
              /* Clamped: the first and last values hold, drawn as a faint line. */
              if (li->first_col > x0 && li->y0 >= 0 && li->y0 < height)
                for (int c = x0; c < MIN (x1, li->first_col); c++)
                  blend_span (pixels, stride, c, (int)li->y0, (int)li->y0 + 1, li->argb, faint);
              if (li->last_col < x1 && li->y1 >= 0 && li->y1 < height)
                for (int c = MAX (x0, li->last_col); c < x1; c++)
                  blend_span (pixels, stride, c, (int)li->y1, (int)li->y1 + 1, li->argb, faint);
              s0 = MAX (x0, li->first_col);
              s1 = MIN (x1, li->last_col);
              if (s0 >= s1)
                continue;
            }
          else
            {
              s0 = x0;
              s1 = x1;
            }
          tress_curve_sample_columns (layers[l].curve, layers[l].map, vp, s0, (guint)(s1 - s0),
                                      li->ghost, cols);
          image_columns (pixels, stride, height, cols, s0, MAX (s0, li->first_col),
                         MIN (s1, li->last_col), li->argb, li->alpha);
          if (li->ghost)
            {
              image_columns (pixels, stride, height, cols, s0, s0, MIN (s1, li->first_col),
                             li->argb, faint);
              image_columns (pixels, stride, height, cols, s0, MAX (s0, li->last_col), s1, li->argb,
                             faint);
            }
        }
    }
  return NULL;
}

/* The most threads one frame is painted with. */
#define MAX_PAINT_THREADS 8

/* Paints every layer into the pixels one strip of columns at a time, all
 * layers per strip: the pixels written stay in the cache, and the cost grows
 * with the width (plus one visit per key in view), not with the keys off-screen.
 * Wide images with many layers are shared among the processors by strips. */
static void
paint_image (guint8 *data, int stride, int width, int height, const TressCurveLayer *layers,
             guint n_layers, const TressCurveViewport *vp, const double *colors)
{
  g_autofree LayerInfo *info = g_new0 (LayerInfo, MAX (n_layers, 1));

  for (guint l = 0; l < n_layers; l++)
    {
      const TressCurveLayer *layer = &layers[l];
      const double *rgb = &colors[3 * l];
      LayerInfo *li = &info[l];
      guint n;
      double alpha = layer->locked ? 0.45 : 1.0;

      li->first_col = li->last_col = -1;
      if (!layer->visible || layer->curve == NULL || tress_curve_get_n_keys (layer->curve) == 0)
        continue;
      n = tress_curve_get_n_keys (layer->curve);
      li->ghost = wraps (layer->curve);
      li->first_col = (int)floor (
          tress_curve_viewport_frame_to_x (vp, tress_curve_get_key (layer->curve, 0)->frame));
      li->last_col = (int)floor (
          tress_curve_viewport_frame_to_x (vp, tress_curve_get_key (layer->curve, n - 1)->frame));
      li->first_col = CLAMP (li->first_col, 0, width);
      li->last_col = CLAMP (li->last_col + 1, 0, width);
      li->y0 = floor (tress_curve_viewport_value_to_y (
          vp, tress_curve_get_key (layer->curve, 0)->value * layer->map.scale + layer->map.offset));
      li->y1 = floor (tress_curve_viewport_value_to_y (
          vp,
          tress_curve_get_key (layer->curve, n - 1)->value * layer->map.scale + layer->map.offset));
      li->argb = ((guint32)(rgb[0] * 255 + 0.5) << 16) | ((guint32)(rgb[1] * 255 + 0.5) << 8)
                 | (guint32)(rgb[2] * 255 + 0.5);
      li->alpha = (guint)(alpha * 255 + 0.5);
    }

  {
    StripWork work[MAX_PAINT_THREADS];
    GThread *threads[MAX_PAINT_THREADS] = { NULL };
    int n_strips = (width + STRIP - 1) / STRIP;
    guint64 columns = (guint64)width * n_layers;
    /* Threads pay off from a few hundred thousand layer columns on. */
    int n_threads = columns >= 200000 ? MIN (g_get_num_processors (), MAX_PAINT_THREADS) : 1;

    n_threads = CLAMP (n_threads, 1, MAX (n_strips, 1));
    for (int t = 0; t < n_threads; t++)
      {
        work[t]
            = (StripWork){ data, stride, width, height, layers, n_layers, vp, info, t, n_threads };
        if (t > 0)
          threads[t] = g_thread_try_new ("tress-paint", paint_strips, &work[t], NULL);
      }
    paint_strips (&work[0]);
    for (int t = 1; t < n_threads; t++)
      {
        if (threads[t] != NULL)
          g_thread_join (threads[t]);
        else
          paint_strips (&work[t]); /* no thread: paint its strips here */
      }
  }
}

void
tress_curve_paint_lines (cairo_t *cr, const TressCurveLayer *layers, guint n_layers,
                         const TressCurveViewport *vp, const double *colors)
{
  int width = (int)ceil (vp->width);
  TressCurveColumn *cols;
  int height = (int)ceil (vp->height);
  cairo_surface_t *target = cairo_get_target (cr);
  cairo_matrix_t m;
  guint8 *data;
  int stride;

  /* Straight into the pixels when the target is a plain ARGB32 image drawn 1:1. */
  cairo_get_matrix (cr, &m);
  if (cairo_surface_get_type (target) == CAIRO_SURFACE_TYPE_IMAGE
      && cairo_image_surface_get_format (target) == CAIRO_FORMAT_ARGB32 && m.xx == 1 && m.yy == 1
      && m.xy == 0 && m.yx == 0 && m.x0 == 0 && m.y0 == 0
      && cairo_image_surface_get_width (target) >= width
      && cairo_image_surface_get_height (target) >= height)
    {
      cairo_surface_flush (target);
      data = cairo_image_surface_get_data (target);
      stride = cairo_image_surface_get_stride (target);
      paint_image (data, stride, width, height, layers, n_layers, vp, colors);
      cairo_surface_mark_dirty (target);
      return;
    }
  cols = g_new (TressCurveColumn, MAX (width, 1));

  cairo_save (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  cairo_set_line_width (cr, 1);
  for (guint l = 0; l < n_layers; l++)
    {
      const TressCurveLayer *layer = &layers[l];
      const double *rgb = &colors[3 * l];
      guint n;
      int first_col, last_col;
      double alpha = layer->locked ? 0.45 : 1.0;
      gboolean ghost;

      if (!layer->visible || layer->curve == NULL)
        continue;
      n = tress_curve_get_n_keys (layer->curve);
      if (n == 0)
        continue;
      ghost = wraps (layer->curve);
      tress_curve_sample_columns (layer->curve, layer->map, vp, 0, (guint)width, ghost, cols);

      /* The columns holding the first and last key split ghost from curve. */
      first_col = (int)floor (
          tress_curve_viewport_frame_to_x (vp, tress_curve_get_key (layer->curve, 0)->frame));
      last_col = (int)floor (
          tress_curve_viewport_frame_to_x (vp, tress_curve_get_key (layer->curve, n - 1)->frame));
      first_col = CLAMP (first_col, 0, width);
      last_col = CLAMP (last_col + 1, 0, width);

      cairo_new_path (cr);
      path_columns (cr, cols, first_col, last_col, height);
      cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], alpha);
      cairo_fill (cr);

      if (ghost)
        {
          cairo_new_path (cr);
          path_columns (cr, cols, 0, MIN (first_col, width), height);
          path_columns (cr, cols, MIN (last_col, width), width, height);
          cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], 0.3 * alpha);
          cairo_fill (cr);
        }
      else
        {
          /* Clamped: the first and last values hold, drawn as a thin line. */
          double y0 = tress_curve_viewport_value_to_y (
              vp,
              tress_curve_get_key (layer->curve, 0)->value * layer->map.scale + layer->map.offset);
          double y1 = tress_curve_viewport_value_to_y (
              vp, tress_curve_get_key (layer->curve, n - 1)->value * layer->map.scale
                      + layer->map.offset);

          cairo_new_path (cr);
          if (first_col > 0)
            cairo_rectangle (cr, 0, floor (y0), first_col, 1);
          if (last_col < width)
            cairo_rectangle (cr, last_col, floor (y1), width - last_col, 1);
          cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], 0.3 * alpha);
          cairo_fill (cr);
        }
    }
  cairo_restore (cr);
  g_free (cols);
}
