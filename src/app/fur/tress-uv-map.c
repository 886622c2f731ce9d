/* tress-uv-map.c: the UV map widget
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-uv-map.h"

#include <glib/gi18n-lib.h>

#include <string.h>

#include "core/tress-dds.h"
#include "tress-tooltip.h"

#define MARGIN 8.0
#define HIT_RADIUS 6.0

struct _TressUvMap
{
  GtkWidget parent_instance;
  TressUvLayout layout;
  float *uv;
  gsize n_floats;
  GdkTexture *background;
  GskRenderNode *static_node;
  int cached_w, cached_h;
  gint64 drag_point; /* -1 when not dragging */
  double drag_x, drag_y;
  gint64 hover_point;
  gboolean hover_piece_valid;
  TressUvPiece hover_piece;
  char *hover_text;
  GArray *row_ribbons;  /* guint per row: ribbons of the material with that many sections */
  GArray *row_selected; /* guint per row: of them, the selected */
  gboolean press_on_point;
};

G_DEFINE_FINAL_TYPE (TressUvMap, tress_uv_map, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_POINT_MOVED,
  SIGNAL_PIECE_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

GdkTexture *
tress_texture_new_from_dds (GBytes *bytes, GError **error)
{
  g_autoptr (TressDdsImage) img = NULL;
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);

  img = tress_dds_decode (data, size, error);
  if (img == NULL)
    return NULL;
  return gdk_memory_texture_new ((int)img->width, (int)img->height, GDK_MEMORY_R8G8B8A8,
                                 img->pixels, (gsize)img->width * 4);
}

static void
get_view (TressUvMap *self, TressUvView *view)
{
  tress_uv_view_fit (view, gtk_widget_get_width (GTK_WIDGET (self)),
                     gtk_widget_get_height (GTK_WIDGET (self)), MARGIN);
}

void
tress_uv_map_get_view (TressUvMap *self, TressUvView *view)
{
  get_view (self, view);
}

static void
invalidate (TressUvMap *self)
{
  g_clear_pointer (&self->static_node, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
piece_path (cairo_t *cr, TressUvMap *self, const TressUvView *view, const TressUvPiece *p)
{
  guint64 first = tress_uv_piece_first_point (&self->layout, p);
  guint n = tress_uv_piece_n_points (p->row), k;

  if (first + n > self->n_floats / 2)
    return;
  /* Left edge down (even points), then right edge up (odd points). */
  for (k = 0; k < n; k += 2)
    {
      TressFurPoint q = tress_uv_view_to_widget (view, self->uv[2 * (first + k)],
                                                 self->uv[2 * (first + k) + 1]);
      if (k == 0)
        cairo_move_to (cr, q.x, q.y);
      else
        cairo_line_to (cr, q.x, q.y);
    }
  for (k = n - 1; k < n; k -= 2)
    {
      TressFurPoint q = tress_uv_view_to_widget (view, self->uv[2 * (first + k)],
                                                 self->uv[2 * (first + k) + 1]);
      cairo_line_to (cr, q.x, q.y);
      if (k < 2)
        break;
    }
  cairo_close_path (cr);
}

static GskRenderNode *
build_static (TressUvMap *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();
  TressUvView view;
  graphene_rect_t bounds
      = GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
  graphene_rect_t square;
  cairo_t *cr;
  TressUvPiece p;
  const GdkRGBA dark = { 0.12f, 0.12f, 0.14f, 1.f };

  get_view (self, &view);
  square = GRAPHENE_RECT_INIT ((float)view.x, (float)view.y, (float)view.size, (float)view.size);
  gtk_snapshot_append_color (snapshot, &dark, &square);
  if (self->background != NULL)
    gtk_snapshot_append_texture (snapshot, self->background, &square);

  cr = gtk_snapshot_append_cairo (snapshot, &bounds);
  cairo_set_line_width (cr, 1);
  for (p.row = 0; p.row < self->layout.rows; p.row++)
    for (p.group = 0; p.group < self->layout.groups; p.group++)
      for (p.piece = 0; p.piece < self->layout.pieces; p.piece++)
        {
          double u0, v0, u1, v1;
          TressFurPoint a, b;

          if (!tress_uv_piece_bounds (&self->layout, self->uv, self->n_floats, &p, &u0, &v0, &u1,
                                      &v1))
            continue;
          a = tress_uv_view_to_widget (&view, u0, v0);
          b = tress_uv_view_to_widget (&view, u1, v1);
          cairo_rectangle (cr, a.x + 0.5, a.y + 0.5, b.x - a.x, b.y - a.y);
          cairo_set_source_rgba (cr, 0.95, 0.8, 0.3, 0.55);
          cairo_stroke (cr);
          piece_path (cr, self, &view, &p);
          cairo_set_source_rgba (cr, 0.4, 0.85, 1.0, 0.8);
          cairo_stroke (cr);
        }
  for (gsize i = 0; i + 1 < self->n_floats; i += 2)
    {
      TressFurPoint q = tress_uv_view_to_widget (&view, self->uv[i], self->uv[i + 1]);

      cairo_rectangle (cr, q.x - 1.5, q.y - 1.5, 3, 3);
    }
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_fill (cr);
  cairo_destroy (cr);
  return gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
}

static void
tress_uv_map_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  TressUvMap *self = TRESS_UV_MAP (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  TressUvView view;

  if (self->static_node == NULL || w != self->cached_w || h != self->cached_h)
    {
      g_clear_pointer (&self->static_node, gsk_render_node_unref);
      self->static_node = build_static (self);
      self->cached_w = w;
      self->cached_h = h;
    }
  gtk_snapshot_append_node (snapshot, self->static_node);
  get_view (self, &view);
  /* The boxes of the rows the selected ribbons use. */
  for (guint row = 0; row < self->layout.rows && row < self->row_selected->len; row++)
    {
      TressUvPiece p = { row, 0, 0 };
      const GdkRGBA fill = { 1.f, 0.9f, 0.1f, 0.3f };
      const GdkRGBA edge = { 1.f, 0.9f, 0.1f, 1.f };
      const GdkRGBA edges[4] = { edge, edge, edge, edge };

      if (g_array_index (self->row_selected, guint, row) == 0)
        continue;
      for (p.group = 0; p.group < self->layout.groups; p.group++)
        for (p.piece = 0; p.piece < self->layout.pieces; p.piece++)
          {
            double u0, v0, u1, v1;
            TressFurPoint a, b;
            GskRoundedRect box;

            if (!tress_uv_piece_bounds (&self->layout, self->uv, self->n_floats, &p, &u0, &v0, &u1,
                                        &v1))
              continue;
            a = tress_uv_view_to_widget (&view, u0, v0);
            b = tress_uv_view_to_widget (&view, u1, v1);
            gsk_rounded_rect_init_from_rect (&box,
                                             &GRAPHENE_RECT_INIT ((float)a.x, (float)a.y,
                                                                  (float)(b.x - a.x),
                                                                  (float)(b.y - a.y)),
                                             0);
            gtk_snapshot_append_color (snapshot, &fill, &box.bounds);
            gtk_snapshot_append_border (snapshot, &box, (const float[4]){ 2, 2, 2, 2 }, edges);
          }
    }
  if (self->hover_piece_valid)
    {
      double u0, v0, u1, v1;

      if (tress_uv_piece_bounds (&self->layout, self->uv, self->n_floats, &self->hover_piece, &u0,
                                 &v0, &u1, &v1))
        {
          TressFurPoint a = tress_uv_view_to_widget (&view, u0, v0);
          TressFurPoint b = tress_uv_view_to_widget (&view, u1, v1);
          const GdkRGBA hl = { 1.f, 0.85f, 0.2f, 0.25f };

          gtk_snapshot_append_color (
              snapshot, &hl,
              &GRAPHENE_RECT_INIT ((float)a.x, (float)a.y, (float)(b.x - a.x), (float)(b.y - a.y)));
        }
    }
  if (self->hover_point >= 0 && (gsize)self->hover_point * 2 + 1 < self->n_floats)
    {
      TressFurPoint q = tress_uv_view_to_widget (&view, self->uv[2 * self->hover_point],
                                                 self->uv[2 * self->hover_point + 1]);
      const GdkRGBA c = { 1.f, 0.3f, 0.2f, 1.f };

      gtk_snapshot_append_color (snapshot, &c,
                                 &GRAPHENE_RECT_INIT ((float)q.x - 3, (float)q.y - 3, 6, 6));
    }
}

static void
update_hover (TressUvMap *self, double x, double y)
{
  TressUvView view;
  TressUvPiece piece;
  guint in_piece = 0;
  gint64 point;
  gboolean has_piece;
  g_autofree char *text = NULL;

  get_view (self, &view);
  point = tress_uv_hit_point (&view, self->uv, self->n_floats, x, y, HIT_RADIUS);
  if (point >= 0)
    has_piece = tress_uv_point_locate (&self->layout, (guint64)point, &piece, &in_piece);
  else
    has_piece = tress_uv_hit_piece (&self->layout, &view, self->uv, self->n_floats, x, y, &piece);
  if (point >= 0 && has_piece)
    text = g_strdup_printf (
        ngettext ("row %u (%u section), group %u, piece %u, point %u: (%.4f, %.4f)",
                  "row %u (%u sections), group %u, piece %u, point %u: (%.4f, %.4f)",
                  piece.row + 1),
        piece.row + 1, piece.row + 1, piece.group, piece.piece, in_piece, self->uv[2 * point],
        self->uv[2 * point + 1]);
  else if (has_piece)
    text = g_strdup_printf (ngettext ("row %u (%u section), group %u, piece %u",
                                      "row %u (%u sections), group %u, piece %u", piece.row + 1),
                            piece.row + 1, piece.row + 1, piece.group, piece.piece);
  else
    text = g_strdup ("");
  if (has_piece && point < 0 && piece.row < self->row_ribbons->len)
    {
      guint n = g_array_index (self->row_ribbons, guint, piece.row);
      guint sel = g_array_index (self->row_selected, guint, piece.row);
      g_autofree char *used = g_strdup_printf (
          ngettext ("%u ribbon of %u sections", "%u ribbons of %u sections", n), n, piece.row + 1);
      char *more;

      if (sel > 0)
        /* Translators: "row 3 …: 512 ribbons of 3 sections (12 selected); click selects them". */
        more = g_strdup_printf (_ ("%s: %s (%u selected); a click selects them"), text, used, sel);
      else
        more = g_strdup_printf (_ ("%s: %s; a click selects them"), text, used);
      g_free (text);
      text = more;
    }
  if (point != self->hover_point || has_piece != self->hover_piece_valid
      || (has_piece && memcmp (&piece, &self->hover_piece, sizeof piece) != 0))
    gtk_widget_queue_draw (GTK_WIDGET (self));
  self->hover_point = point;
  self->hover_piece_valid = has_piece;
  if (has_piece)
    self->hover_piece = piece;
  g_free (self->hover_text);
  self->hover_text = g_steal_pointer (&text);
  tress_set_tooltip (GTK_WIDGET (self), self->hover_text[0] ? self->hover_text : NULL);
}

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, TressUvMap *self)
{
  if (self->drag_point < 0)
    update_hover (self, x, y);
}

static void
set_point_from_widget (TressUvMap *self, guint index, double x, double y)
{
  TressUvView view;
  double u, v;

  get_view (self, &view);
  tress_uv_view_from_widget (&view, x, y, &u, &v);
  self->uv[2 * index] = (float)CLAMP (u, 0, 1);
  self->uv[2 * index + 1] = (float)CLAMP (v, 0, 1);
  invalidate (self);
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, TressUvMap *self)
{
  TressUvView view;

  get_view (self, &view);
  self->drag_point = tress_uv_hit_point (&view, self->uv, self->n_floats, x, y, HIT_RADIUS);
  self->press_on_point = self->drag_point >= 0;
  if (self->drag_point < 0)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  self->drag_x = x;
  self->drag_y = y;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, TressUvMap *self)
{
  if (self->drag_point >= 0)
    set_point_from_widget (self, (guint)self->drag_point, self->drag_x + dx, self->drag_y + dy);
}

static void
on_drag_end (GtkGestureDrag *gesture, double dx, double dy, TressUvMap *self)
{
  guint index;

  if (self->drag_point < 0)
    return;
  index = (guint)self->drag_point;
  self->drag_point = -1;
  if (dx == 0 && dy == 0)
    return;
  set_point_from_widget (self, index, self->drag_x + dx, self->drag_y + dy);
  g_signal_emit (self, signals[SIGNAL_POINT_MOVED], 0, index, (double)self->uv[2 * index],
                 (double)self->uv[2 * index + 1]);
}

/* A click on a box (not on a point): the ribbons that use its row. */
static void
on_click_released (GtkGestureClick *click, int n_press, double x, double y, TressUvMap *self)
{
  GdkModifierType mods
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (click));
  TressUvView view;
  TressUvPiece piece;

  if (self->press_on_point)
    return;
  get_view (self, &view);
  if (tress_uv_hit_piece (&self->layout, &view, self->uv, self->n_floats, x, y, &piece))
    g_signal_emit (self, signals[SIGNAL_PIECE_ACTIVATED], 0, piece.row, piece.group, piece.piece,
                   (mods & (GDK_CONTROL_MASK | GDK_SHIFT_MASK)) != 0);
}

static void
on_click_pressed (GtkGestureClick *click, int n_press, double x, double y, TressUvMap *self)
{
  TressUvView view;

  get_view (self, &view);
  self->press_on_point
      = tress_uv_hit_point (&view, self->uv, self->n_floats, x, y, HIT_RADIUS) >= 0;
}

static void
tress_uv_map_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                      int *natural, int *minimum_baseline, int *natural_baseline)
{
  *minimum = 160;
  *natural = 480;
}

static void
tress_uv_map_finalize (GObject *object)
{
  TressUvMap *self = TRESS_UV_MAP (object);

  g_free (self->uv);
  g_free (self->hover_text);
  g_array_unref (self->row_ribbons);
  g_array_unref (self->row_selected);
  g_clear_object (&self->background);
  g_clear_pointer (&self->static_node, gsk_render_node_unref);
  G_OBJECT_CLASS (tress_uv_map_parent_class)->finalize (object);
}

static void
tress_uv_map_class_init (TressUvMapClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = tress_uv_map_finalize;
  widget_class->snapshot = tress_uv_map_snapshot;
  widget_class->measure = tress_uv_map_measure;
  gtk_widget_class_set_css_name (widget_class, "uvmap");

  signals[SIGNAL_POINT_MOVED]
      = g_signal_new ("point-moved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 3, G_TYPE_UINT, G_TYPE_DOUBLE, G_TYPE_DOUBLE);
  /* (guint row, guint group, guint piece, gboolean extend) */
  signals[SIGNAL_PIECE_ACTIVATED] = g_signal_new (
      "piece-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
      G_TYPE_NONE, 4, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_BOOLEAN);
}

static void
tress_uv_map_init (TressUvMap *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkGesture *click = gtk_gesture_click_new ();

  self->row_ribbons = g_array_new (FALSE, TRUE, sizeof (guint));
  self->row_selected = g_array_new (FALSE, TRUE, sizeof (guint));
  self->drag_point = -1;
  self->hover_point = -1;
  self->hover_text = g_strdup ("");
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  g_signal_connect (click, "pressed", G_CALLBACK (on_click_pressed), self);
  g_signal_connect (click, "released", G_CALLBACK (on_click_released), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
}

GtkWidget *
tress_uv_map_new (void)
{
  return g_object_new (TRESS_TYPE_UV_MAP, NULL);
}

void
tress_uv_map_set_table (TressUvMap *self, const TressUvLayout *layout, const float *uv,
                        gsize n_floats)
{
  self->layout = *layout;
  g_free (self->uv);
  self->uv = g_memdup2 (uv, n_floats * sizeof (float));
  self->n_floats = uv != NULL ? n_floats : 0;
  self->hover_point = -1;
  self->hover_piece_valid = FALSE;
  invalidate (self);
}

void
tress_uv_map_set_background (TressUvMap *self, GdkTexture *texture)
{
  if (g_set_object (&self->background, texture))
    invalidate (self);
}

GdkTexture *
tress_uv_map_get_background (TressUvMap *self)
{
  return self->background;
}

gboolean
tress_uv_map_load_background (TressUvMap *self, GFile *file, GError **error)
{
  g_autoptr (GBytes) bytes = g_file_load_bytes (file, NULL, NULL, error);
  g_autoptr (GdkTexture) texture = NULL;
  gsize size;
  const guint8 *data;

  if (bytes == NULL)
    return FALSE;
  data = g_bytes_get_data (bytes, &size);
  if (tress_dds_probe (data, size))
    texture = tress_texture_new_from_dds (bytes, error);
  else
    texture = gdk_texture_new_from_bytes (bytes, error);
  if (texture == NULL)
    return FALSE;
  tress_uv_map_set_background (self, texture);
  return TRUE;
}

void
tress_uv_map_set_row_use (TressUvMap *self, const guint *ribbons, const guint *selected,
                          guint n_rows)
{
  if (self->row_ribbons->len == n_rows && self->row_selected->len == n_rows
      && (n_rows == 0
          || (memcmp (self->row_ribbons->data, ribbons, n_rows * sizeof (guint)) == 0
              && memcmp (self->row_selected->data, selected, n_rows * sizeof (guint)) == 0)))
    return;
  g_array_set_size (self->row_ribbons, 0);
  g_array_set_size (self->row_selected, 0);
  if (n_rows > 0)
    {
      g_array_append_vals (self->row_ribbons, ribbons, n_rows);
      g_array_append_vals (self->row_selected, selected, n_rows);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
tress_uv_map_row_is_used (TressUvMap *self, guint row)
{
  return row < self->row_selected->len && g_array_index (self->row_selected, guint, row) > 0;
}

void
tress_uv_map_click (TressUvMap *self, double x, double y, gboolean extend)
{
  TressUvView view;
  TressUvPiece piece;

  get_view (self, &view);
  if (tress_uv_hit_point (&view, self->uv, self->n_floats, x, y, HIT_RADIUS) < 0
      && tress_uv_hit_piece (&self->layout, &view, self->uv, self->n_floats, x, y, &piece))
    g_signal_emit (self, signals[SIGNAL_PIECE_ACTIVATED], 0, piece.row, piece.group, piece.piece,
                   extend);
}

const char *
tress_uv_map_get_hover_text (TressUvMap *self)
{
  return self->hover_text;
}

void
tress_uv_map_hover (TressUvMap *self, double x, double y)
{
  update_hover (self, x, y);
}

void
tress_uv_map_drag_point_to (TressUvMap *self, guint index, double x, double y)
{
  g_return_if_fail ((gsize)index * 2 + 1 < self->n_floats);
  set_point_from_widget (self, index, x, y);
  g_signal_emit (self, signals[SIGNAL_POINT_MOVED], 0, index, (double)self->uv[2 * index],
                 (double)self->uv[2 * index + 1]);
}

void
tress_uv_map_get_point_position (TressUvMap *self, guint index, double *x, double *y)
{
  TressUvView view;
  TressFurPoint p;

  g_return_if_fail ((gsize)index * 2 + 1 < self->n_floats);
  get_view (self, &view);
  p = tress_uv_view_to_widget (&view, self->uv[2 * index], self->uv[2 * index + 1]);
  *x = p.x;
  *y = p.y;
}
