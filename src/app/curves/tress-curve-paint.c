/* tress-curve-paint.c: painting curve lines with cairo, one pixel column at a time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-paint.h"

#include <math.h>
#include <string.h>

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

/* x × a / 255, rounded as pixman rounds it. */
static inline guint
mul_un8 (guint x, guint a)
{
  guint t = x * a + 0x80;

  return ((t >> 8) + t) >> 8;
}

/* Blends @src (a premultiplied ARGB32 pixel) over a vertical span of one
 * column of an ARGB32 image (premultiplied, native-endian 32-bit pixels), with
 * cairo's (pixman's) arithmetic. */
static inline void
blend_span (guint8 *data, int stride, int x, int y0, int y1, guint32 src)
{
  guint inv = 255 - (src >> 24);

  for (int y = y0; y < y1; y++)
    {
      guint32 *p = (guint32 *)(data + (gsize)y * stride) + x;
      guint32 d = *p, out = 0;

      for (int shift = 0; shift < 32; shift += 8)
        out |= (((src >> shift) & 0xff) + mul_un8 ((d >> shift) & 0xff, inv)) << shift;
      *p = out;
    }
}

/* One layer's pixels in one column: rows [top, bottom). */
typedef struct
{
  gint16 top, bottom;
} Span;

/* Four pixels, or four columns' rows, as one vector (GCC/clang vector
 * extensions: SSE2 on x86-64, NEON on arm64, plain code elsewhere). */
typedef gint32 Vec4 __attribute__ ((vector_size (16)));
typedef float Vec4f __attribute__ ((vector_size (16)));
typedef guint32 UVec4 __attribute__ ((vector_size (16)));

/* Lane by lane, @mask (all ones or zeros, from a comparison) ? @a : @b. */
static inline Vec4
select_i (Vec4 mask, Vec4 a, Vec4 b)
{
  return (a & mask) | (b & ~mask);
}

static inline Vec4f
select_f (Vec4 mask, Vec4f a, Vec4f b)
{
  return (Vec4f)select_i (mask, (Vec4)a, (Vec4)b);
}

/* Converts sampled columns into clamped pixel spans, about two pixels thick;
 * columns without a line get an empty span. Four columns at a time, without
 * branches: floor and ceil by truncating positive numbers, the values being
 * clamped to a few pixels around the image first (NaN compares false there
 * too, and its column is emptied by the mask). */
static void
columns_to_spans (const TressCurveColumn *cols, guint n, int height, Span *spans)
{
  const float h = (float)height;
  const Vec4f below = { -4.0f, -4.0f, -4.0f, -4.0f }, above = { h + 4, h + 4, h + 4, h + 4 };
  const Vec4f eight = { 8.0f, 8.0f, 8.0f, 8.0f }, h8 = { h + 8, h + 8, h + 8, h + 8 };
  const Vec4f grow = { 0.75f, 0.75f, 0.75f, 0.75f };
  const Vec4 zero = { 0, 0, 0, 0 }, hi = { height, height, height, height };
  guint c = 0;

  for (; c + 4 <= n; c += 4)
    {
      const TressCurveColumn *k = &cols[c];
      Vec4f first = { k[0].y_first, k[1].y_first, k[2].y_first, k[3].y_first };
      Vec4f ymin = { k[0].y_min, k[1].y_min, k[2].y_min, k[3].y_min };
      Vec4f ymax = { k[0].y_max, k[1].y_max, k[2].y_max, k[3].y_max };
      Vec4 valid = (first == first) & (ymax > below + 2) & (ymin < above - 2);
      Vec4f lo = ymin - grow, up = ymax + grow;
      Vec4 top, bottom;

      lo = select_f (lo > below, lo, below);
      up = select_f (up < above, up, above);
      top = __builtin_convertvector(lo + eight, Vec4) - 8;
      bottom = (height + 8) - __builtin_convertvector(h8 - up, Vec4);
      top = select_i (top < zero, zero, select_i (top > hi, hi, top));
      bottom = select_i (bottom < zero, zero, select_i (bottom > hi, hi, bottom));
      top &= valid;
      bottom &= valid;
      for (int i = 0; i < 4; i++)
        {
          spans[c + i].top = (gint16)top[i];
          spans[c + i].bottom = (gint16)bottom[i];
        }
    }
  for (; c < n; c++)
    {
      const TressCurveColumn *col = &cols[c];
      int top, bottom;

      if (isnan (col->y_first) || !(col->y_max > -2) || !(col->y_min < height + 2))
        {
          spans[c].top = spans[c].bottom = 0;
          continue;
        }
      {
        float lo = MAX (col->y_min - 0.75f, -4.0f), up = MIN (col->y_max + 0.75f, height + 4.0f);
        top = (int)(lo + 8.0f) - 8;
        bottom = (height + 8) - (int)((height + 8.0f) - up);
      }
      spans[c].top = (gint16)CLAMP (top, 0, height);
      spans[c].bottom = (gint16)CLAMP (bottom, 0, height);
    }
}

/* Writes the opaque spans of the four columns from @c (their spans at @sp) row
 * by row, four pixels per store: one loop over the rows the four spans cover
 * instead of four loops of unpredictable length. Returns FALSE, writing
 * nothing, when the spans lie too far apart for that to pay. */
static inline gboolean
write_four (guint8 *data, int stride, const Span *sp, int c, guint32 opaque)
{
  Vec4 top = { sp[0].top, sp[1].top, sp[2].top, sp[3].top };
  Vec4 bottom = { sp[0].bottom, sp[1].bottom, sp[2].bottom, sp[3].bottom };
  Vec4 color = { (gint32)opaque, (gint32)opaque, (gint32)opaque, (gint32)opaque };
  int y0 = G_MAXINT, y1 = 0, pixels = 0;
  guint8 *row;

  for (int i = 0; i < 4; i++)
    if (sp[i].top < sp[i].bottom)
      {
        y0 = MIN (y0, sp[i].top);
        y1 = MAX (y1, sp[i].bottom);
        pixels += sp[i].bottom - sp[i].top;
      }
  if (y0 >= y1)
    return TRUE;
  /* A row costs about what a pixel does; a mispredicted loop end, a dozen. */
  if (y1 - y0 > pixels + 24)
    return FALSE;
  row = data + (gsize)y0 * stride + (gsize)c * 4;
  /* A lane is inside while 0 <= y - top < bottom - top: one unsigned compare
   * (an empty lane has top == bottom and never is), done as a signed one on
   * both sides offset by 2^31 (SSE2 has no unsigned compare); the offset
   * value steps by one a row like the row itself. */
  {
    const UVec4 offset = { 0x80000000u, 0x80000000u, 0x80000000u, 0x80000000u };
    const UVec4 one = { 1, 1, 1, 1 };
    UVec4 r = (UVec4){ (guint32)y0, (guint32)y0, (guint32)y0, (guint32)y0 } - (UVec4)top + offset;
    Vec4 len = (Vec4)((UVec4)bottom - (UVec4)top + offset);

    for (int y = y0; y < y1; y++, row += stride, r += one)
      {
        Vec4 inside = (Vec4)r < len;
        Vec4 old;

        memcpy (&old, row, sizeof old);
        old = (old & ~inside) | (color & inside);
        memcpy (row, &old, sizeof old);
      }
  }
  return TRUE;
}

/* Writes the spans of columns [c0, c1) (@spans holds the columns from @base on). */
static void
write_spans (guint8 *data, int stride, const Span *spans, int base, int c0, int c1, guint32 src)
{
  const gboolean opaque = (src >> 24) == 0xff;
  const gsize step = (gsize)stride / 4;

  for (int c = c0; c < c1; c++)
    {
      const Span *sp = &spans[c - base];

      if (opaque && (c & 3) == 0 && c + 4 <= c1 && write_four (data, stride, sp, c, src))
        {
          c += 3;
          continue;
        }
      if (sp->top >= sp->bottom)
        continue;
      if (opaque)
        {
          /* A plain store per pixel, the loop kept tight. */
          guint32 *p = (guint32 *)(data + (gsize)sp->top * stride) + c;

          for (int y = sp->top; y < sp->bottom; y++, p += step)
            *p = src;
        }
      else
        blend_span (data, stride, c, sp->top, sp->bottom, src);
    }
}

/* Columns per strip: a strip of a 1080-row image (1080 × 64 × 4 bytes) stays
 * in the processor's second-level cache while every layer is drawn into it. */
#define STRIP 64

/* Layers sampled ahead of painting: bounds the spans kept (a 1920-pixel range
 * of 256 layers holds 2 MB) however many curves are shown. */
#define LAYER_BATCH 256

typedef struct
{
  int first_col, last_col; /* the columns holding the first and last key (split ghost from curve) */
  double y0, y1;           /* the first and last values, in pixels */
  gboolean ghost;
  guint32 line, faint; /* premultiplied ARGB32: the line; the ghost and the held values */
} LayerInfo;

typedef struct
{
  guint8 *data;
  int stride, width, height;
  const TressCurveLayer *layers;
  guint n_layers;
  const TressCurveViewport *vp;
  const LayerInfo *info;
  int c0, c1; /* this worker's columns */
} PaintWork;

/* Paints the columns [c0, c1) of a batch of layers: first each layer is
 * sampled across them (one search per layer, then a walk over its keys in
 * order), then the columns are painted a strip at a time, all layers per strip,
 * so the pixels written stay in the cache. */
static void
paint_batch (const PaintWork *w, guint l0, guint l1, TressCurveColumn *cols, Span *spans)
{
  guint8 *pixels = w->data;
  int stride = w->stride, height = w->height;
  int c0 = w->c0, n = w->c1 - w->c0;

  for (guint l = l0; l < l1; l++)
    {
      const LayerInfo *li = &w->info[l];

      if (li->first_col < 0)
        continue;
      tress_curve_sample_columns (w->layers[l].curve, w->layers[l].map, w->vp, c0, (guint)n,
                                  li->ghost, cols);
      columns_to_spans (cols, (guint)n, height, &spans[(gsize)(l - l0) * n]);
    }

  for (int x0 = c0; x0 < w->c1; x0 += STRIP)
    {
      int x1 = MIN (x0 + STRIP, w->c1);

      for (guint l = l0; l < l1; l++)
        {
          const LayerInfo *li = &w->info[l];
          const Span *ls = &spans[(gsize)(l - l0) * n];

          if (li->first_col < 0)
            continue;
          write_spans (pixels, stride, ls, c0, MAX (x0, li->first_col), MIN (x1, li->last_col),
                       li->line);
          if (li->ghost)
            {
              write_spans (pixels, stride, ls, c0, x0, MIN (x1, li->first_col), li->faint);
              write_spans (pixels, stride, ls, c0, MAX (x0, li->last_col), x1, li->faint);
            }
          else
            {
              /* Clamped: the first and last values hold, drawn as a faint line. */
              if (li->first_col > x0 && li->y0 >= 0 && li->y0 < height)
                for (int c = x0; c < MIN (x1, li->first_col); c++)
                  blend_span (pixels, stride, c, (int)li->y0, (int)li->y0 + 1, li->faint);
              if (li->last_col < x1 && li->y1 >= 0 && li->y1 < height)
                for (int c = MAX (x0, li->last_col); c < x1; c++)
                  blend_span (pixels, stride, c, (int)li->y1, (int)li->y1 + 1, li->faint);
            }
        }
    }
}

/* One worker: its columns, every layer, in batches drawn in order. */
static gpointer
paint_range (gpointer data)
{
  const PaintWork *w = data;
  int n = MAX (w->c1 - w->c0, 1);
  guint batch = MIN (MAX (w->n_layers, 1), LAYER_BATCH);
  g_autofree TressCurveColumn *cols = g_new (TressCurveColumn, n);
  g_autofree Span *spans = g_new (Span, (gsize)n * batch);

  for (guint l0 = 0; l0 < w->n_layers; l0 += batch)
    paint_batch (w, l0, MIN (l0 + batch, w->n_layers), cols, spans);
  return NULL;
}

/* The most threads one frame is painted with. */
#define MAX_PAINT_THREADS 8

static guint max_paint_threads; /* 0: one per processor, up to MAX_PAINT_THREADS */

void
tress_curve_paint_set_max_threads (guint n)
{
  max_paint_threads = n;
}

/* Paints every layer into the pixels one strip of columns at a time, all
 * layers per strip: the pixels written stay in the cache, and the cost grows
 * with the width (plus one visit per key in view), not with the keys off-screen.
 * Wide images with many layers are shared among the processors by ranges of
 * columns. */
/* A colour channel 0…1 as a byte, rounded as cairo rounds it (to 16 bits, then
 * truncated), so both drawing paths give the same colours. */
static inline guint32
to_byte (double v)
{
  return (guint32)(CLAMP (v, 0, 1) * 65535 + 0.5) >> 8;
}

/* A colour with an alpha as the premultiplied pixel cairo fills with. */
static guint32
premultiply (const double rgb[3], double alpha)
{
  return (to_byte (alpha) << 24) | (to_byte (rgb[0] * alpha) << 16)
         | (to_byte (rgb[1] * alpha) << 8) | to_byte (rgb[2] * alpha);
}

/* Whether nothing of (0, 0, width, height) is clipped away. */
static gboolean
unclipped (cairo_t *cr, int width, int height)
{
  cairo_rectangle_list_t *list = cairo_copy_clip_rectangle_list (cr);
  gboolean whole = list->status == CAIRO_STATUS_SUCCESS && list->num_rectangles == 1
                   && list->rectangles[0].x <= 0 && list->rectangles[0].y <= 0
                   && list->rectangles[0].x + list->rectangles[0].width >= width
                   && list->rectangles[0].y + list->rectangles[0].height >= height;

  cairo_rectangle_list_destroy (list);
  return whole;
}

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
      li->line = premultiply (rgb, alpha);
      li->faint = premultiply (rgb, 0.3 * alpha);
    }

  {
    PaintWork work[MAX_PAINT_THREADS];
    GThread *threads[MAX_PAINT_THREADS] = { NULL };
    int n_strips = (width + STRIP - 1) / STRIP;
    guint64 columns = (guint64)width * n_layers;
    /* Threads pay off from a few hundred thousand layer columns on. */
    int n_threads = columns >= 200000 ? MIN (g_get_num_processors (), MAX_PAINT_THREADS) : 1;

    if (max_paint_threads > 0)
      n_threads = MIN (n_threads, (int)max_paint_threads);

    n_threads = CLAMP (n_threads, 1, MAX (n_strips, 1));
    for (int t = 0; t < n_threads; t++)
      {
        /* Whole strips per worker. */
        int c0 = (int)((gint64)n_strips * t / n_threads) * STRIP;
        int c1 = MIN ((int)((gint64)n_strips * (t + 1) / n_threads) * STRIP, width);

        work[t] = (PaintWork){ data, stride, width, height, layers, n_layers, vp, info, c0, c1 };
        if (t > 0)
          threads[t] = g_thread_try_new ("tress-paint", paint_range, &work[t], NULL);
      }
    paint_range (&work[0]);
    for (int t = 1; t < n_threads; t++)
      {
        if (threads[t] != NULL)
          g_thread_join (threads[t]);
        else
          paint_range (&work[t]); /* no thread: paint its columns here */
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
  /* The surface drawn on now (a pushed group's, not the one cr was made for). */
  cairo_surface_t *target = cairo_get_group_target (cr);
  cairo_matrix_t m;
  double dx, dy;
  guint8 *data;
  int stride;

  /* Straight into the pixels when the target is a plain, unclipped ARGB32 image
   * drawn 1:1 (spans hold rows as 16-bit numbers: cairo's images are smaller anyway). */
  cairo_get_matrix (cr, &m);
  cairo_surface_get_device_offset (target, &dx, &dy);
  if (cairo_surface_get_type (target) == CAIRO_SURFACE_TYPE_IMAGE
      && cairo_image_surface_get_format (target) == CAIRO_FORMAT_ARGB32 && m.xx == 1 && m.yy == 1
      && m.xy == 0 && m.yx == 0 && m.x0 == 0 && m.y0 == 0 && dx == 0 && dy == 0
      && cairo_image_surface_get_width (target) >= width
      && cairo_image_surface_get_height (target) >= height && height < G_MAXINT16 - 8
      && unclipped (cr, width, height))
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
