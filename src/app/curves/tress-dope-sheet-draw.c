/* tress-dope-sheet-draw.c: the dope sheet's drawing
 *
 * Only the rows on screen are drawn, each with at most one mark per pixel
 * column (tress-dope-sheet-keys.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-dope-sheet-private.h"

#include <glib/gi18n.h>
#include <math.h>

static void
fill (GtkSnapshot *snapshot, double x, double y, double w, double h, float r, float g, float b,
      float a)
{
  GdkRGBA color = { r, g, b, a };

  gtk_snapshot_append_color (snapshot, &color, &GRAPHENE_RECT_INIT (x, y, w, h));
}

static void
draw_text (TressDopeSheet *self, GtkSnapshot *snapshot, PangoLayout *layout, const char *text,
           double x, double y, float grey)
{
  GdkRGBA color = { grey, grey, grey, 1 };

  pango_layout_set_text (layout, text, -1);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, layout, &color);
  gtk_snapshot_restore (snapshot);
}

static double
tick_step (double span, double divisions)
{
  double raw = span / divisions, p, m;

  if (!(raw > 0) || !isfinite (raw))
    return 1;
  p = pow (10, floor (log10 (raw)));
  m = raw / p;
  return MAX (1, (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p);
}

static void
draw_ruler (TressDopeSheet *self, GtkSnapshot *snapshot, PangoLayout *layout,
            const TressCurveViewport *vp, double height)
{
  double step = tick_step (vp->frame_max - vp->frame_min, MAX (1, vp->width / 80));
  double f = ceil (vp->frame_min / step) * step;

  fill (snapshot, NAME_WIDTH, 0, vp->width, RULER_HEIGHT, 0.2f, 0.2f, 0.21f, 1);
  for (; f <= vp->frame_max; f += step)
    {
      double x = NAME_WIDTH + tress_curve_viewport_frame_to_x (vp, f);
      char text[32];

      fill (snapshot, floor (x), RULER_HEIGHT, 1, height - RULER_HEIGHT, 1, 1, 1, 0.06f);
      fill (snapshot, floor (x), RULER_HEIGHT - 5, 1, 5, 0.6f, 0.6f, 0.6f, 1);
      g_snprintf (text, sizeof text, "%g", f + 0.0); /* not -0 */
      draw_text (self, snapshot, layout, text, x + 3, 2, 0.75f);
    }
}

#define MARK_SIZE 11 /* pixels of a mark's picture */

/* A mark's picture: a diamond with a dark outline, light grey or (selected)
 * orange. Made once with cairo; a texture draws as fast as a rectangle. */
static GdkTexture *
mark_texture_new (gboolean selected)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, MARK_SIZE, MARK_SIZE);
  cairo_t *cr = cairo_create (surface);
  double c = MARK_SIZE / 2.0;
  g_autoptr (GBytes) bytes = NULL;
  GdkTexture *texture;

  cairo_move_to (cr, c, 0.5);
  cairo_line_to (cr, MARK_SIZE - 0.5, c);
  cairo_line_to (cr, c, MARK_SIZE - 0.5);
  cairo_line_to (cr, 0.5, c);
  cairo_close_path (cr);
  if (selected)
    cairo_set_source_rgb (cr, 1.0, 0.6, 0.15);
  else
    cairo_set_source_rgb (cr, 0.85, 0.85, 0.85);
  cairo_fill_preserve (cr);
  cairo_set_source_rgb (cr, 0.08, 0.08, 0.08);
  cairo_set_line_width (cr, 1.2);
  cairo_stroke (cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  bytes = g_bytes_new (cairo_image_surface_get_data (surface),
                       (gsize)cairo_image_surface_get_stride (surface) * MARK_SIZE);
  texture = gdk_memory_texture_new (MARK_SIZE, MARK_SIZE, GDK_MEMORY_DEFAULT, bytes,
                                    (gsize)cairo_image_surface_get_stride (surface));
  cairo_surface_destroy (surface);
  return texture;
}

/* A diamond centred at (x, y), or where marks crowd, a thin bar. */
static void
draw_mark (TressDopeSheet *self, GtkSnapshot *snapshot, double x, double y, gboolean selected,
           gboolean thin)
{
  if (thin)
    {
      float v = selected ? 1.0f : 0.85f;

      fill (snapshot, x - 0.5, y - MARK_RADIUS, 1, MARK_RADIUS * 2, v, selected ? 0.6f : v,
            selected ? 0.15f : v, 1);
      return;
    }
  if (self->marks[selected] == NULL)
    self->marks[selected] = mark_texture_new (selected);
  gtk_snapshot_append_texture (snapshot, self->marks[selected],
                               &GRAPHENE_RECT_INIT (round (x - MARK_SIZE / 2.0),
                                                    round (y - MARK_SIZE / 2.0), MARK_SIZE,
                                                    MARK_SIZE));
}

/* The marks of one row: its curves binned into pixel columns, one mark a column. */
static guint
draw_row_marks (TressDopeSheet *self, GtkSnapshot *snapshot, const TressDopeRow *row,
                const TressCurveViewport *vp, guint8 *cols, double y)
{
  const TressCurveSelection *sel = tress_curve_view_get_selection (self->view);
  guint n_cols = (guint)vp->width, drawn = 0;
  double moved = self->drag == DRAG_KEYS && self->drag_started ? self->drag_frames : 0;
  double shift_px = moved / tress_curve_viewport_frames_per_px (vp);
  double last_x = -G_MAXDOUBLE;
  gboolean moving = self->scaling || shift_px != 0;

  memset (cols, 0, n_cols);
  for (guint i = 0; i < row->end - row->first; i++)
    {
      guint index = _tress_dope_sheet_row_curve (self, row, i);
      const TressCurve *c;

      if (!tress_curve_view_get_curve_shown (self->view, index))
        continue;
      c = tress_curve_view_get_shown_curve (self->view, index);
      if (c != NULL)
        tress_dope_bin_curve (c, index, sel, vp, cols, n_cols);
    }
  /* While a drag or a scale moves the selection, its marks are drawn where
   * they go, over the keys left where they are (a second pass). */
  for (int pass = 0; pass < (moving ? 2 : 1); pass++)
    for (guint x = 0; x < n_cols; x++)
      {
        gboolean selected = (cols[x] & TRESS_DOPE_MARK_SELECTED) != 0;
        gboolean plain = (cols[x] & TRESS_DOPE_MARK_PLAIN) != 0;
        double cx = NAME_WIDTH + x + 0.5, to;
        /* Marks closer than a diamond's width: thin bars, not diamonds. */
        gboolean crowded = cx - last_x < MARK_RADIUS * 2;

        if (cols[x] == 0)
          continue;
        last_x = cx;
        if (!moving || !selected)
          {
            if (pass == 0)
              {
                draw_mark (self, snapshot, cx, y, selected, crowded && !selected);
                drawn++;
              }
            continue;
          }
        if (pass == 0)
          {
            if (plain)
              draw_mark (self, snapshot, cx, y, FALSE, crowded);
            drawn++;
            continue;
          }
        if (self->scaling)
          to = NAME_WIDTH
               + tress_curve_viewport_frame_to_x (
                   vp, _tress_dope_sheet_scaled_frame (
                           self, tress_curve_viewport_x_to_frame (vp, x + 0.5)));
        else
          to = cx + shift_px;
        if (to >= NAME_WIDTH && to <= NAME_WIDTH + vp->width)
          draw_mark (self, snapshot, floor (to) + 0.5, y, TRUE, FALSE);
      }
  return drawn;
}

/* A group row's open (pointing down) or closed (pointing right) triangle. */
static void
draw_disclosure (GtkSnapshot *snapshot, double x, double y, gboolean open)
{
  cairo_t *cr = gtk_snapshot_append_cairo (
      snapshot, &GRAPHENE_RECT_INIT (x, y, DISCLOSURE_WIDTH, ROW_HEIGHT));
  double cx = x + DISCLOSURE_WIDTH / 2, cy = y + ROW_HEIGHT / 2;

  if (open)
    {
      cairo_move_to (cr, cx - 4, cy - 2);
      cairo_line_to (cr, cx + 4, cy - 2);
      cairo_line_to (cr, cx, cy + 3);
    }
  else
    {
      cairo_move_to (cr, cx - 2, cy - 4);
      cairo_line_to (cr, cx + 3, cy);
      cairo_line_to (cr, cx - 2, cy + 4);
    }
  cairo_close_path (cr);
  cairo_set_source_rgb (cr, 0.8, 0.8, 0.8);
  cairo_fill (cr);
  cairo_destroy (cr);
}

double
_tress_dope_sheet_scaled_frame (TressDopeSheet *self, double frame)
{
  double f = self->scale_pivot + (frame - self->scale_pivot) * self->scale_factor;

  return self->scale_unsnapped ? f : round (f);
}

/* While the scale is under way: its factor and pivot, and how to end it. */
static void
draw_scale_hint (TressDopeSheet *self, GtkSnapshot *snapshot, PangoLayout *layout,
                 const TressCurveViewport *vp)
{
  g_autofree char *text = g_strdup_printf (
      /* TRANSLATORS: shown while keys are scaled in time with the pointer;
       * %.3g is the factor, %g the frame it scales about */
      _ ("Scale ×%.3g about frame %g · Enter applies · Esc cancels"), self->scale_factor,
      self->scale_pivot + 0.0);
  double px = NAME_WIDTH + tress_curve_viewport_frame_to_x (vp, self->scale_pivot);
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  int w = 0, h = 0;

  /* Over the ruler, the names' column too: the whole width is its room. */
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  fill (snapshot, 0, 0, MIN (w + 8, width), RULER_HEIGHT, 0.1f, 0.1f, 0.12f, 0.95f);
  draw_text (self, snapshot, layout, text, 4, 2, 0.95f);
  /* The line from the pivot to the pointer. */
  if (px >= NAME_WIDTH && px <= NAME_WIDTH + vp->width)
    fill (snapshot, MIN (px, self->pointer_x), self->pointer_y, fabs (self->pointer_x - px), 1, 1,
          0.6f, 0.15f, 0.8f);
}

void
_tress_dope_sheet_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  TressDopeSheet *self = TRESS_DOPE_SHEET (widget);
  double width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  PangoLayout *layout;
  TressCurveViewport vp;
  g_autofree guint8 *cols = NULL;
  guint n_rows;

  self->n_marks_drawn = 0;
  fill (snapshot, 0, 0, width, height, 0.16f, 0.16f, 0.17f, 1);
  if (self->view == NULL || width <= NAME_WIDTH)
    return;
  _tress_dope_sheet_rebuild_rows (self);
  _tress_dope_sheet_key_viewport (self, &vp);
  layout = gtk_widget_create_pango_layout (widget, NULL);
  cols = g_malloc ((gsize)vp.width + 1);
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  draw_ruler (self, snapshot, layout, &vp, height);
  n_rows = _tress_dope_sheet_rows_on_screen (self);
  /* Nothing shown: what to do instead of an empty summary. */
  if (self->shown == NULL || self->shown->len == 0)
    {
      n_rows = 0;
      pango_layout_set_width (layout, (int)(width - 24) * PANGO_SCALE);
      pango_layout_set_wrap (layout, PANGO_WRAP_WORD);
      draw_text (self, snapshot, layout,
                 /* TRANSLATORS: the dope sheet when no curve is shown */
                 _ ("No curves here. Choose an animation, a bone or a curve in the tree."), 12,
                 RULER_HEIGHT + 12, 0.6f);
      pango_layout_set_width (layout, -1);
    }
  /* Only the rows on screen are computed. */
  for (guint r = 0; r < n_rows; r++)
    {
      TressDopeRow *row = _tress_dope_sheet_row (self, self->first_row + r);
      double y = RULER_HEIGHT + r * ROW_HEIGHT;
      /* (a row of no curves is not locked) */
      gboolean any_shown = FALSE, all_locked = row != NULL && row->end > row->first;

      if (row == NULL)
        break;
      for (guint i = 0; i < row->end - row->first && (!any_shown || all_locked); i++)
        {
          guint index = _tress_dope_sheet_row_curve (self, row, i);

          any_shown = any_shown || tress_curve_view_get_curve_shown (self->view, index);
          all_locked = all_locked && tress_curve_view_get_curve_locked (self->view, index);
        }
      if (row->depth == 0)
        fill (snapshot, 0, y, width, ROW_HEIGHT, 0.24f, 0.26f, 0.30f, 1);
      else if (row->curve < 0)
        fill (snapshot, 0, y, width, ROW_HEIGHT, 0.20f, 0.20f, 0.22f, 1);
      else if ((self->first_row + r) % 2 == 0)
        fill (snapshot, 0, y, width, ROW_HEIGHT, 1, 1, 1, 0.03f);
      if (row->curve >= 0)
        {
          GdkRGBA color;

          tress_curve_view_get_curve_color (self->view, row->curve, &color);
          gtk_snapshot_append_color (
              snapshot, &color,
              &GRAPHENE_RECT_INIT (4 + row->depth * INDENT - INDENT, y + 5, 4, ROW_HEIGHT - 10));
        }
      else if (row->depth > 0)
        draw_disclosure (snapshot, 2 + (row->depth - 1) * INDENT, y, row->open);
      {
        g_autofree char *text
            = tress_dope_row_dup_name (row, (const char *const *)self->paths->pdata);

        if (text == NULL)
          /* TRANSLATORS: the dope sheet's first row, the keys of every shown curve */
          text = g_strdup (_ ("Summary"));
        if (all_locked)
          {
            char *locked = g_strdup_printf (
                /* TRANSLATORS: a dope sheet row whose curves are locked; %s is its name */
                _ ("%s (locked)"), text);

            g_free (text);
            text = locked;
          }
        gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, y, NAME_WIDTH - 4, ROW_HEIGHT));
        draw_text (self, snapshot, layout, text, 12 + row->depth * INDENT - INDENT + 2, y + 1,
                   any_shown ? 0.9f : 0.45f);
        gtk_snapshot_pop (snapshot);
      }
      gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (NAME_WIDTH, y, vp.width, ROW_HEIGHT));
      self->n_marks_drawn += draw_row_marks (self, snapshot, row, &vp, cols, y + ROW_HEIGHT / 2);
      gtk_snapshot_pop (snapshot);
    }
  fill (snapshot, NAME_WIDTH - 1, 0, 1, height, 0, 0, 0, 0.6f);
  /* The playhead, on the graph's time axis. */
  {
    double x = NAME_WIDTH
               + tress_curve_viewport_frame_to_x (&vp, tress_curve_view_get_playhead (self->view));

    if (x >= NAME_WIDTH && x <= width)
      fill (snapshot, floor (x), 0, 1.5, height, 0.35f, 0.6f, 1, 1);
  }
  if (self->drag == DRAG_BOX && self->drag_started)
    {
      double x0 = MIN (self->drag_x0, self->drag_x), y0 = MIN (self->drag_y0, self->drag_y);
      double w = fabs (self->drag_x - self->drag_x0), h = fabs (self->drag_y - self->drag_y0);

      fill (snapshot, x0, y0, w, h, 0.35f, 0.6f, 1, 0.15f);
    }
  if (self->scaling)
    draw_scale_hint (self, snapshot, layout, &vp);
  gtk_snapshot_pop (snapshot);
  g_object_unref (layout);
}
