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

/* Adds the columns [c0, c1) to the path. */
static void
path_columns (cairo_t *cr, const TressCurveColumn *cols, int c0, int c1)
{
  gboolean down = FALSE;

  for (int c = c0; c < c1; c++)
    {
      const TressCurveColumn *col = &cols[c];

      if (isnan (col->y_first))
        {
          down = FALSE;
          continue;
        }
      if (!down)
        {
          cairo_move_to (cr, c, col->y_first);
          down = TRUE;
        }
      else
        cairo_line_to (cr, c, col->y_first);
      /* A column with more than a pixel of spread shows it as a vertical stroke. */
      if (col->y_max - col->y_min > 1.0f)
        {
          gboolean up_first = fabsf (col->y_first - col->y_min) < fabsf (col->y_first - col->y_max);

          cairo_line_to (cr, c + 0.5, up_first ? col->y_min : col->y_max);
          cairo_line_to (cr, c + 0.5, up_first ? col->y_max : col->y_min);
        }
      cairo_line_to (cr, c + 1, col->y_last);
    }
}

void
tress_curve_paint_lines (cairo_t *cr, const TressCurveLayer *layers, guint n_layers,
                         const TressCurveViewport *vp, const double *colors)
{
  int width = (int)ceil (vp->width);
  g_autofree TressCurveColumn *cols = g_new (TressCurveColumn, MAX (width, 1));

  cairo_save (cr);
  cairo_set_line_width (cr, 1.5);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_BEVEL);
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
      path_columns (cr, cols, first_col, last_col);
      cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], alpha);
      cairo_stroke (cr);

      if (ghost)
        {
          cairo_new_path (cr);
          path_columns (cr, cols, 0, first_col + 1 < width ? first_col + 1 : width);
          path_columns (cr, cols, MAX (last_col - 1, 0), width);
          cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], 0.3 * alpha);
          cairo_stroke (cr);
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
            {
              cairo_move_to (cr, 0, y0);
              cairo_line_to (cr, first_col, y0);
            }
          if (last_col < width)
            {
              cairo_move_to (cr, last_col, y1);
              cairo_line_to (cr, width, y1);
            }
          cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], 0.3 * alpha);
          cairo_stroke (cr);
        }
    }
  cairo_restore (cr);
}
