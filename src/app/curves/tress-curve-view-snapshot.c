/* tress-curve-view-snapshot.c: drawing the curve view: grid, curves, keys, handles, playhead, box
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-view-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "tress-curve-paint.h"
#include "tress-curve-store-question.h"

/* ------------------------------------------------------------- drawing -- */

static void
append_rect (GtkSnapshot *snapshot, double x, double y, double w, double h, float r, float g,
             float b, float a)
{
  GdkRGBA c = { r, g, b, a };
  graphene_rect_t rect = GRAPHENE_RECT_INIT ((float)x, (float)y, (float)w, (float)h);

  gtk_snapshot_append_color (snapshot, &c, &rect);
}

static void
draw_label_layout (GtkSnapshot *snapshot, double x, double y, PangoLayout *layout)
{
  GdkRGBA color = { 0.62f, 0.62f, 0.64f, 1 };

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float)x, (float)y));
  gtk_snapshot_append_layout (snapshot, layout, &color);
  gtk_snapshot_restore (snapshot);
}

/* The other version's lines (compare): amber, unlike any curve colour. */
static const double GHOST_RGB[3] = { 0.98, 0.75, 0.18 };

/* In the top right corner while another version is drawn: which line is which. */
static void
draw_ghost_legend (TressCurveView *self, GtkSnapshot *snapshot, int width)
{
  g_autofree char *text = NULL;
  PangoLayout *layout;
  GdkRGBA fg = { 0.85f, 0.85f, 0.87f, 1 };
  int tw = 0, th = 0;
  double x, y = 6;
  const double swatch = 18;

  if (g_hash_table_size (self->ghosts) == 0)
    return;
  /* Translators: the compare legend beside an amber line, "Walk.bfres (other version)" */
  text = g_strdup_printf (_ ("%s (other version)"),
                          self->ghost_label != NULL ? self->ghost_label : _ ("Compared file"));
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  pango_layout_set_width (layout, MAX (1, width / 2) * PANGO_SCALE);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
  pango_layout_get_pixel_size (layout, &tw, &th);
  x = MAX (4, width - tw - swatch - 16);
  append_rect (snapshot, x - 4, y - 3, tw + swatch + 14, th + 6, 0.10f, 0.10f, 0.11f, 0.85f);
  append_rect (snapshot, x + 2, y + th / 2.0 - 1.5, swatch, 3, (float)GHOST_RGB[0],
               (float)GHOST_RGB[1], (float)GHOST_RGB[2], 1);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float)(x + swatch + 8), (float)y));
  gtk_snapshot_append_layout (snapshot, layout, &fg);
  gtk_snapshot_restore (snapshot);
  g_object_unref (layout);
}

/* The live quantization error next to the pointer during a drag: red once it
 * passes the tolerance. */
static void
draw_drag_error (TressCurveView *self, GtkSnapshot *snapshot, int width, int height)
{
  g_autofree char *text = tress_curve_view_dup_drag_error_text (self);
  PangoLayout *layout;
  gboolean over = self->drag_error > _tress_curve_view_drag_tolerance (self);
  GdkRGBA color = over ? (GdkRGBA){ 1.0f, 0.45f, 0.40f, 1 } : (GdkRGBA){ 0.75f, 0.75f, 0.78f, 1 };
  int tw = 0, th = 0;
  double x, y;

  if (text == NULL)
    return;
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  /* Wrapped where the graph is narrower than the text, not cut at its edge. */
  pango_layout_set_width (layout, MAX (1, width - 10) * PANGO_SCALE);
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_get_pixel_size (layout, &tw, &th);
  x = CLAMP (self->drag_x + 14, 2, MAX (2, width - tw - 2));
  y = CLAMP (self->drag_y - th - 10, 2, MAX (2, height - th - 2));
  append_rect (snapshot, x - 3, y - 1, tw + 6, th + 2, 0.10f, 0.10f, 0.11f, 0.85f);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float)x, (float)y));
  gtk_snapshot_append_layout (snapshot, layout, &color);
  gtk_snapshot_restore (snapshot);
  g_object_unref (layout);
}

/* The values the grid marks (every @step from @first), for the lines under
 * the curves and the labels over them; FALSE when there are none to draw. */
gboolean
_tress_curve_view_value_ticks (TressCurveView *self, double height, double *first, double *step)
{
  *step = tress_curve_nice_step (self->vp.value_max - self->vp.value_min, height / 60);
  *first = ceil (self->vp.value_min / *step) * *step;
  return *step > 0 && (self->vp.value_max - *first) / *step < 1000;
}

static void
draw_grid (TressCurveView *self, GtkSnapshot *snapshot, double width, double height)
{
  double fstep = tress_curve_nice_step (self->vp.frame_max - self->vp.frame_min, width / 80);
  double f0 = ceil (self->vp.frame_min / fstep) * fstep;
  double v0, vstep;
  gboolean frames_ok = fstep > 0 && (self->vp.frame_max - f0) / fstep < 1000;
  gboolean values_ok = _tress_curve_view_value_ticks (self, height, &v0, &vstep);

  if (frames_ok)
    for (double f = f0; f <= self->vp.frame_max; f += fstep)
      append_rect (snapshot, floor (tress_curve_viewport_frame_to_x (&self->vp, f)), 0, 1, height,
                   0.24f, 0.24f, 0.26f, 1);
  if (values_ok)
    for (double v = v0; v <= self->vp.value_max; v += vstep)
      {
        gboolean zero = fabs (v) < vstep / 2;
        float g = zero ? 0.34f : 0.24f;
        append_rect (snapshot, 0, floor (tress_curve_viewport_value_to_y (&self->vp, v)), width, 1,
                     g, g, g + 0.02f, 1);
      }
}

/* The values (in shown units) along the left, drawn over the curves and keys
 * on a plate of the graph's colour, so that a dense graph leaves them
 * readable. */
static void
draw_value_labels (TressCurveView *self, GtkSnapshot *snapshot, double height)
{
  double v0, vstep;
  PangoLayout *layout;

  if (!_tress_curve_view_value_ticks (self, height, &v0, &vstep))
    return;
  /* One layout for every label of the frame. */
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  for (double v = v0; v <= self->vp.value_max; v += vstep)
    {
      /* Above its line; below it at the top edge; none in the frame numbers' row. */
      double y = floor (tress_curve_viewport_value_to_y (&self->vp, v));
      double label_y = y - 16 >= 0 ? y - 16 : y + 2;
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      int tw = 0, th = 0;

      if (label_y + 16 > height - RULER_HEIGHT)
        continue;
      tress_curve_format_tick (buf, sizeof buf, v, vstep, self->vp.value_min, self->vp.value_max);
      pango_layout_set_text (layout, buf, -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
      append_rect (snapshot, 1, label_y, tw + 4, th, 0.16f, 0.16f, 0.17f, 0.8f);
      draw_label_layout (snapshot, 3, label_y, layout);
    }
  g_object_unref (layout);
}

/* The largest image the lines are painted into: every GL renderer takes
 * textures this size, and no screen is larger. */
#define MAX_LINES_SIZE 8192

/* The lines of the still curves (@moving FALSE: those no drag moves, with the
 * other version's lines behind them) or of the moving ones (TRUE: the copies
 * a drag edits), painted into an image of @width × @height and shown as a
 * texture node; NULL when there are none. */
static GskRenderNode *
paint_lines (TressCurveView *self, int width, int height, gboolean moving)
{
  g_autofree TressCurveLayer *layers = _tress_curve_view_build_layers (self);
  g_autofree TressCurveLayer *ghosts = NULL;
  g_autofree double *colors = g_new (double, 3 * MAX (self->slots->len, 1));
  GtkSnapshot *sub;
  graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, width, height);
  cairo_surface_t *surface;
  cairo_t *cr;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  gboolean any = FALSE;

  if (!moving && g_hash_table_size (self->ghosts) > 0)
    {
      /* The other version first, behind, in one bright colour that no
       * curve is drawn in, at full strength: the legend names it. */
      ghosts = g_new0 (TressCurveLayer, self->slots->len);
      for (guint i = 0; i < self->slots->len; i++)
        {
          Slot *s = &g_array_index (self->slots, Slot, i);
          const TressCurve *g = g_hash_table_lookup (self->ghosts, GUINT_TO_POINTER (s->index));

          ghosts[i].curve = g;
          ghosts[i].map = layers[i].map;
          ghosts[i].visible = g != NULL && layers[i].visible;
          ghosts[i].locked = FALSE;
          any |= ghosts[i].visible;
        }
    }
  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);

      layers[i].visible &= (s->edit != NULL) == moving;
      any |= layers[i].visible;
      memcpy (&colors[3 * i], s->color, 3 * sizeof (double));
    }
  if (!any)
    return NULL;

  /* The lines are painted straight into an image (one pixel column at a
   * time) and shown as a texture: far cheaper than stroking paths. */
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cr = cairo_create (surface);
  if (ghosts != NULL)
    {
      g_autofree double *ghost_colors = g_new (double, 3 * self->slots->len);

      for (guint i = 0; i < 3 * self->slots->len; i++)
        ghost_colors[i] = GHOST_RGB[i % 3];
      tress_curve_paint_lines (cr, ghosts, self->slots->len, &self->vp, ghost_colors);
    }
  tress_curve_paint_lines (cr, layers, self->slots->len, &self->vp, colors);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  bytes = g_bytes_new_with_free_func (cairo_image_surface_get_data (surface),
                                      (gsize)cairo_image_surface_get_stride (surface) * height,
                                      (GDestroyNotify)cairo_surface_destroy, surface);
  texture = gdk_memory_texture_new (width, height, GDK_MEMORY_DEFAULT, bytes,
                                    (gsize)cairo_image_surface_get_stride (surface));
  sub = gtk_snapshot_new ();
  gtk_snapshot_append_texture (sub, texture, &bounds);
  return gtk_snapshot_free_to_node (sub);
}

/* The lines, from two cached nodes: the still curves', painted again only
 * when the data, the view or the size change (not while a box is drawn or
 * keys are dragged), and the moving curves' on top, painted again at each
 * step of a drag. */
static void
draw_lines (TressCurveView *self, GtkSnapshot *snapshot, int width, int height)
{
  width = MIN (width, MAX_LINES_SIZE);
  height = MIN (height, MAX_LINES_SIZE);
  if (self->lines_width != width || self->lines_height != height)
    {
      g_clear_pointer (&self->still_node, gsk_render_node_unref);
      g_clear_pointer (&self->moving_node, gsk_render_node_unref);
      self->lines_valid = 0;
      self->lines_width = width;
      self->lines_height = height;
    }
  if (!(self->lines_valid & LINES_STILL))
    {
      self->still_node = paint_lines (self, width, height, FALSE);
      self->lines_valid |= LINES_STILL;
    }
  if (!(self->lines_valid & LINES_MOVING))
    {
      gboolean dragging = FALSE;

      for (guint i = 0; i < self->slots->len && !dragging; i++)
        dragging = g_array_index (self->slots, Slot, i).edit != NULL;
      self->moving_node = dragging ? paint_lines (self, width, height, TRUE) : NULL;
      self->lines_valid |= LINES_MOVING;
    }
  if (self->still_node != NULL)
    gtk_snapshot_append_node (snapshot, self->still_node);
  if (self->moving_node != NULL)
    gtk_snapshot_append_node (snapshot, self->moving_node);
}

/* How a key marker is drawn: unselected keys in their curve's colour with a
 * dark outline; selected ones larger, filled orange with a white outline (so
 * they stand out on a red or orange curve as well); the active key larger
 * again, white with an orange ring. */
typedef enum
{
  MARK_KEY,
  MARK_SELECTED,
  MARK_ACTIVE,
} MarkKind;

/* A square of 2 * @r + 1 pixels centred on the pixel (@cx, @cy). */
static void
append_square (GtkSnapshot *snapshot, int cx, int cy, int r, float red, float green, float blue,
               float alpha)
{
  append_rect (snapshot, cx - r, cy - r, 2 * r + 1, 2 * r + 1, red, green, blue, alpha);
}

static void
draw_marker (GtkSnapshot *snapshot, double x, double y, MarkKind kind, const double rgb[3],
             float dim)
{
  int cx = (int)floor (x), cy = (int)floor (y);

  switch (kind)
    {
    case MARK_ACTIVE:
      append_square (snapshot, cx, cy, 6, 0.05f, 0.05f, 0.05f, 1);
      append_square (snapshot, cx, cy, 5, 1.0f, 0.55f, 0.10f, 1);
      append_square (snapshot, cx, cy, 3, 1, 1, 1, 1);
      break;
    case MARK_SELECTED:
      append_square (snapshot, cx, cy, 5, 0.05f, 0.05f, 0.05f, 1);
      append_square (snapshot, cx, cy, 4, 1, 1, 1, 1);
      append_square (snapshot, cx, cy, 3, 1.0f, 0.55f, 0.10f, 1);
      break;
    case MARK_KEY:
    default:
      append_square (snapshot, cx, cy, 4, 0.05f, 0.05f, 0.05f, dim);
      append_square (snapshot, cx, cy, 3, (float)rgb[0] * dim, (float)rgb[1] * dim,
                     (float)rgb[2] * dim, 1);
      break;
    }
}

/* The keys of @s within the frames in view, widened by a marker on each side. */
static void
keys_in_view (TressCurveView *self, const TressCurve *c, guint *first, guint *end)
{
  double fpp = tress_curve_viewport_frames_per_px (&self->vp);
  guint a = tress_curve_lower_bound (c, self->vp.frame_min - 2 * HIT_RADIUS * fpp);
  guint b = tress_curve_lower_bound (c, self->vp.frame_max + 2 * HIT_RADIUS * fpp);

  *end = MIN (b + 1, tress_curve_get_n_keys (c));
  *first = a > 0 ? a - 1 : 0;
}

/* More keys in view than this are thinned out to one marker per marker-sized
 * cell of the graph (selected keys win their cell), unselected keys drawn as
 * dots and handles left out: the nodes drawn stay bounded by the graph's size,
 * not by the curves shown, and the curves stay readable under their keys. */
#define KEY_BUDGET 3000

typedef struct
{
  float x, y;
  guint slot;
  MarkKind kind;
} Marker;

static void
draw_keys_thinned (TressCurveView *self, GtkSnapshot *snapshot, int width, int height)
{
  int cols = width / (int)KEY_SIZE + 1, rows = height / (int)KEY_SIZE + 1;
  g_autofree Marker *cells = g_new0 (Marker, (gsize)cols * rows);
  g_autofree guint8 *used = g_new0 (guint8, (gsize)cols * rows);

  for (guint l = 0; l < self->slots->len; l++)
    {
      Slot *s = &g_array_index (self->slots, Slot, l);
      const TressCurve *c = _tress_curve_view_slot_curve (self, s);
      TressValueMap map = _tress_curve_view_slot_map (self, s);
      gboolean any_selected;
      guint first, end;

      if (c == NULL || !_tress_curve_view_slot_shown (self, s))
        continue;
      any_selected = tress_curve_selection_has_curve (self->selection, s->index);
      keys_in_view (self, c, &first, &end);
      for (guint k = first; k < end; k++)
        {
          const TressKey *key = tress_curve_get_key (c, k);
          double x = tress_curve_viewport_frame_to_x (&self->vp, key->frame);
          double y
              = tress_curve_viewport_value_to_y (&self->vp, key->value * map.scale + map.offset);
          MarkKind kind = MARK_KEY;
          gsize cell;

          if (!(x >= -KEY_SIZE && x < width + KEY_SIZE && y >= -KEY_SIZE && y < height + KEY_SIZE))
            continue;
          if (any_selected && _tress_curve_view_sel_has (self, s->index, k, TRESS_CURVE_PART_KEY))
            kind = MARK_SELECTED;
          if (self->has_active && self->active_curve == s->index && self->active_key == k)
            kind = MARK_ACTIVE;
          cell = (gsize)CLAMP ((int)(y / KEY_SIZE), 0, rows - 1) * cols
                 + CLAMP ((int)(x / KEY_SIZE), 0, cols - 1);
          if (used[cell] && cells[cell].kind >= kind)
            continue;
          used[cell] = 1;
          cells[cell] = (Marker){ (float)x, (float)y, l, kind };
        }
    }
  /* Unselected markers first, the selected and active ones on top. */
  for (MarkKind kind = MARK_KEY; kind <= MARK_ACTIVE; kind++)
    for (gsize i = 0; i < (gsize)cols * rows; i++)
      if (used[i] && cells[i].kind == kind)
        {
          Slot *s = &g_array_index (self->slots, Slot, cells[i].slot);
          float dim = s->locked ? 0.5f : 1.0f;

          /* Unselected keys as small dots: the curves stay readable. */
          if (kind == MARK_KEY)
            append_square (snapshot, (int)floor (cells[i].x), (int)floor (cells[i].y), 1,
                           (float)s->color[0] * dim, (float)s->color[1] * dim,
                           (float)s->color[2] * dim, 1);
          else
            draw_marker (snapshot, cells[i].x, cells[i].y, kind, s->color, dim);
        }
}

static void
draw_keys (TressCurveView *self, GtkSnapshot *snapshot, int width, int height)
{
  cairo_t *cr = NULL;
  graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, width, height);
  guint64 in_view = 0;
  gboolean have_active = FALSE;
  double active_x = 0, active_y = 0;
  const double *active_rgb = NULL;

  for (guint l = 0; l < self->slots->len && in_view <= KEY_BUDGET; l++)
    {
      Slot *s = &g_array_index (self->slots, Slot, l);
      const TressCurve *c = _tress_curve_view_slot_curve (self, s);
      guint first, end;

      if (c == NULL || !_tress_curve_view_slot_shown (self, s))
        continue;
      keys_in_view (self, c, &first, &end);
      in_view += end - first;
    }
  if (in_view > KEY_BUDGET)
    {
      draw_keys_thinned (self, snapshot, width, height);
      return;
    }

  for (guint l = 0; l < self->slots->len; l++)
    {
      Slot *s = &g_array_index (self->slots, Slot, l);
      const TressCurve *c = _tress_curve_view_slot_curve (self, s);
      TressValueMap map = _tress_curve_view_slot_map (self, s);
      guint first, end;
      gboolean dense;
      float dim = s->locked ? 0.5f : 1.0f;

      if (c == NULL || !_tress_curve_view_slot_shown (self, s))
        continue;
      keys_in_view (self, c, &first, &end);
      /* Too many keys to tell apart: only the selected ones are marked. */
      dense = end - first > (guint)width / 4;

      for (guint k = first; k < end; k++)
        {
          const TressKey *key = tress_curve_get_key (c, k);
          double x = tress_curve_viewport_frame_to_x (&self->vp, key->frame);
          double y
              = tress_curve_viewport_value_to_y (&self->vp, key->value * map.scale + map.offset);
          gboolean selected = _tress_curve_view_sel_has (self, s->index, k, TRESS_CURVE_PART_KEY);
          gboolean active
              = self->has_active && self->active_curve == s->index && self->active_key == k;
          static const TressCurvePart hparts[]
              = { TRESS_CURVE_PART_IN_HANDLE, TRESS_CURVE_PART_OUT_HANDLE };

          if (dense && !selected && !active)
            continue;
          /* Hermite handles: a line to a small square, at a third of the segment. */
          if (!dense && !s->locked)
            for (guint h = 0; h < 2; h++)
              {
                double hf, hv, hx, hy;
                gboolean hsel;

                if (!tress_curve_handle_point (c, k, hparts[h], &hf, &hv))
                  continue;
                hx = tress_curve_viewport_frame_to_x (&self->vp, hf);
                hy = tress_curve_viewport_value_to_y (&self->vp, hv * map.scale + map.offset);
                hsel = _tress_curve_view_sel_has (self, s->index, k, hparts[h]);
                if (cr == NULL)
                  cr = gtk_snapshot_append_cairo (snapshot, &bounds);
                cairo_move_to (cr, x, y);
                cairo_line_to (cr, hx, hy);
                cairo_set_source_rgba (cr, 0.75, 0.75, 0.75, 0.8);
                cairo_set_line_width (cr, 1);
                cairo_stroke (cr);
                append_rect (snapshot, hx - HANDLE_SIZE / 2 - 1, hy - HANDLE_SIZE / 2 - 1,
                             HANDLE_SIZE + 2, HANDLE_SIZE + 2, 0.05f, 0.05f, 0.05f, 1);
                append_rect (snapshot, hx - HANDLE_SIZE / 2, hy - HANDLE_SIZE / 2, HANDLE_SIZE,
                             HANDLE_SIZE, hsel ? 1.0f : 0.80f, hsel ? 0.55f : 0.80f,
                             hsel ? 0.10f : 0.80f, 1);
              }
          if (active)
            {
              /* Drawn last, above every other key. */
              have_active = TRUE;
              active_x = x;
              active_y = y;
              active_rgb = s->color;
              continue;
            }
          draw_marker (snapshot, x, y, selected ? MARK_SELECTED : MARK_KEY, s->color, dim);
        }
    }
  if (cr != NULL)
    cairo_destroy (cr);
  if (have_active)
    draw_marker (snapshot, active_x, active_y, MARK_ACTIVE, active_rgb, 1);
}

void
_tress_curve_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  TressCurveView *self = TRESS_CURVE_VIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  double px;

  if (width <= 0 || height <= 0)
    return;
  append_rect (snapshot, 0, 0, width, height, 0.16f, 0.16f, 0.17f, 1);
  /* The automatic nudge step follows the grid: told after the frame. */
  if (self->nudge_step == 0 && self->nudge_idle == 0)
    {
      double now = tress_curve_view_get_nudge_step (self);

      if (now != self->nudge_told)
        {
          self->nudge_told = now;
          self->nudge_idle = g_idle_add (_tress_curve_view_tell_nudge_step, self);
        }
    }
  draw_grid (self, snapshot, width, height);
  draw_lines (self, snapshot, width, height);
  draw_keys (self, snapshot, width, height);
  draw_value_labels (self, snapshot, height);
  _tress_curve_view_draw_play_range (self, snapshot, width, height);

  px = tress_curve_viewport_frame_to_x (&self->vp, self->playhead);
  if (px >= -2 && px <= width + 2)
    append_rect (snapshot, floor (px) - 0.5, 0, 2, height, 0.85f, 0.35f, 0.85f, 0.9f);
  /* The frame ruler over the bottom rows: the frame numbers, the playhead's
   * frame, the play range's markers. */
  gtk_widget_snapshot_child (widget, self->ruler, snapshot);

  draw_ghost_legend (self, snapshot, width);
  if (self->drag_started && self->drag_error >= 0)
    draw_drag_error (self, snapshot, width, height);

  if (self->drag == DRAG_BOX && self->drag_started)
    {
      double x = MIN (self->drag_x0, self->drag_x), y = MIN (self->drag_y0, self->drag_y);
      double w = fabs (self->drag_x - self->drag_x0), h = fabs (self->drag_y - self->drag_y0);

      append_rect (snapshot, x, y, w, h, 1, 1, 1, 0.08f);
      append_rect (snapshot, x, y, w, 1, 1, 1, 1, 0.6f);
      append_rect (snapshot, x, y + h - 1, w, 1, 1, 1, 1, 0.6f);
      append_rect (snapshot, x, y, 1, h, 1, 1, 1, 0.6f);
      append_rect (snapshot, x + w - 1, y, 1, h, 1, 1, 1, 0.6f);
    }
}

void
_tress_curve_view_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  TressCurveView *self = TRESS_CURVE_VIEW (widget);

  if (self->context_menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->context_menu));
  if (width <= 0 || height <= 0)
    return;
  /* The same frames and values stay in view, stretched to the new size; or,
   * after Frame All, everything is framed again. */
  self->vp.width = width;
  self->vp.height = height;
  if ((!self->fitted || self->framed_all) && self->slots->len > 0)
    _tress_curve_view_frame_all (self, FALSE);
  gtk_widget_size_allocate (
      self->ruler,
      &(GtkAllocation){ 0, height - TRESS_CURVE_RULER_HEIGHT, width, TRESS_CURVE_RULER_HEIGHT },
      -1);
  _tress_curve_view_invalidate_lines (self);
}

void
_tress_curve_view_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                           int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 200 : 120;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 640 : 360;
}
