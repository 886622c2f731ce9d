/* tress-weight-triangle.c: the weight triangle widget
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-weight-triangle.h"

#include "tress-fur-geometry.h"

#define MARGIN 24.0
#define POINT_SIZE 7.0
#define HIT_RADIUS 9.0
#define MAX_DRAWN 4096

typedef guint8 Triple[3];

struct _TressWeightTriangle
{
  GtkWidget parent_instance;
  GArray *points; /* Triple, as set */
  GArray *shown;  /* Triple, as drawn (moved during a drag) */
  char *labels[3];
  int drag_index; /* -1 when not dragging */
  double drag_start_x, drag_start_y;
  gboolean drag_equal;
  gboolean drag_on_point;     /* the press was on a point: it moves only once dragged */
  GskRenderNode *static_node; /* triangle and labels, rebuilt when size or labels change */
  int cached_w, cached_h;
};

G_DEFINE_FINAL_TYPE (TressWeightTriangle, tress_weight_triangle, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_POINTS_MOVED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
get_geom (TressWeightTriangle *self, TressWeightGeom *geom)
{
  tress_weight_geom_layout (geom, gtk_widget_get_width (GTK_WIDGET (self)),
                            gtk_widget_get_height (GTK_WIDGET (self)), MARGIN);
}

static void
invalidate_static (TressWeightTriangle *self)
{
  g_clear_pointer (&self->static_node, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static GskRenderNode *
build_static (TressWeightTriangle *self, const TressWeightGeom *geom)
{
  GtkWidget *widget = GTK_WIDGET (self);
  g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();
  graphene_rect_t bounds
      = GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &bounds);
  GdkRGBA fg;
  guint k;

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  cairo_move_to (cr, geom->corner[0].x, geom->corner[0].y);
  cairo_line_to (cr, geom->corner[1].x, geom->corner[1].y);
  cairo_line_to (cr, geom->corner[2].x, geom->corner[2].y);
  cairo_close_path (cr);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.08);
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.6);
  cairo_set_line_width (cr, 1.5);
  cairo_stroke (cr);
  cairo_destroy (cr);

  for (k = 0; k < 3; k++)
    {
      g_autoptr (PangoLayout) pl
          = gtk_widget_create_pango_layout (widget, self->labels[k] != NULL ? self->labels[k] : "");
      int lw, lh;
      double x, y;

      pango_layout_get_pixel_size (pl, &lw, &lh);
      x = geom->corner[k].x - lw / 2.0;
      y = k == 0 ? geom->corner[k].y - lh - 4 : geom->corner[k].y + 4;
      x = CLAMP (x, 0, MAX (0, gtk_widget_get_width (widget) - lw));
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float)x, (float)y));
      gtk_snapshot_append_layout (snapshot, pl, &fg);
      gtk_snapshot_restore (snapshot);
    }
  return gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
}

static void
tress_weight_triangle_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  TressWeightTriangle *self = TRESS_WEIGHT_TRIANGLE (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  TressWeightGeom geom;
  const GdkRGBA point = { 0.85f, 0.25f, 0.15f, 1.f }, active = { 0.1f, 0.45f, 0.95f, 1.f };
  guint i, n;

  get_geom (self, &geom);
  if (self->static_node == NULL || w != self->cached_w || h != self->cached_h)
    {
      g_clear_pointer (&self->static_node, gsk_render_node_unref);
      self->static_node = build_static (self, &geom);
      self->cached_w = w;
      self->cached_h = h;
    }
  if (self->static_node != NULL)
    gtk_snapshot_append_node (snapshot, self->static_node);

  n = MIN (self->shown->len, MAX_DRAWN);
  for (i = 0; i < n; i++)
    {
      TressFurPoint p = tress_weight_geom_point (&geom, g_array_index (self->shown, Triple, i));
      GskRoundedRect rr;
      graphene_rect_t r = GRAPHENE_RECT_INIT (
          (float)(p.x - POINT_SIZE / 2), (float)(p.y - POINT_SIZE / 2), POINT_SIZE, POINT_SIZE);

      gsk_rounded_rect_init_from_rect (&rr, &r, POINT_SIZE / 2);
      gtk_snapshot_push_rounded_clip (snapshot, &rr);
      gtk_snapshot_append_color (snapshot, (int)i == self->drag_index ? &active : &point, &r);
      gtk_snapshot_pop (snapshot);
    }
}

static void
move_points (TressWeightTriangle *self, guint index, double x, double y, gboolean set_equal)
{
  TressWeightGeom geom;
  TressFurPoint from;
  guint8 target[3];
  guint i;

  get_geom (self, &geom);
  from = tress_weight_geom_point (&geom, g_array_index (self->points, Triple, index));
  tress_weight_geom_weights (&geom, x, y, target);
  for (i = 0; i < self->points->len; i++)
    {
      guint8 *out = g_array_index (self->shown, Triple, i);

      if (i == index || set_equal)
        memcpy (out, target, 3);
      else
        tress_weight_geom_translate (&geom, g_array_index (self->points, Triple, i), x - from.x,
                                     y - from.y, out);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
finish_move (TressWeightTriangle *self)
{
  if (self->points->len == 0
      || memcmp (self->shown->data, self->points->data, 3 * self->points->len) == 0)
    return;
  /* The owner may call set_points() from the handler: hand over a copy. */
  {
    g_autoptr (GArray) moved = g_array_copy (self->shown);

    g_signal_emit (self, signals[SIGNAL_POINTS_MOVED], 0, moved->data, moved->len);
  }
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, TressWeightTriangle *self)
{
  TressWeightGeom geom;
  GdkModifierType mods
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  get_geom (self, &geom);
  self->drag_index = tress_weight_geom_hit (&geom, (const guint8 (*)[3])self->points->data,
                                            MIN (self->points->len, MAX_DRAWN), x, y, HIT_RADIUS);
  self->drag_on_point = self->drag_index >= 0;
  /* A click in the triangle away from every point grabs the first point. */
  if (self->drag_index < 0 && self->points->len > 0 && tress_weight_geom_contains (&geom, x, y))
    self->drag_index = 0;
  if (self->drag_index < 0)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  self->drag_start_x = x;
  self->drag_start_y = y;
  self->drag_equal = (mods & GDK_SHIFT_MASK) != 0;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  /* A point pressed on stays until it is dragged (a click on it changes
   * nothing); a press elsewhere puts the first point there. */
  if (!self->drag_on_point)
    move_points (self, (guint)self->drag_index, x, y, self->drag_equal);
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, TressWeightTriangle *self)
{
  if (self->drag_index < 0)
    return;
  move_points (self, (guint)self->drag_index, self->drag_start_x + dx, self->drag_start_y + dy,
               self->drag_equal);
}

static void
on_drag_end (GtkGestureDrag *gesture, double dx, double dy, TressWeightTriangle *self)
{
  if (self->drag_index < 0)
    return;
  if (self->drag_on_point && dx == 0 && dy == 0)
    {
      self->drag_index = -1;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  move_points (self, (guint)self->drag_index, self->drag_start_x + dx, self->drag_start_y + dy,
               self->drag_equal);
  self->drag_index = -1;
  finish_move (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
tress_weight_triangle_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                               int *minimum, int *natural, int *minimum_baseline,
                               int *natural_baseline)
{
  *minimum = 120;
  *natural = 220;
}

static void
tress_weight_triangle_css_changed (GtkWidget *widget, GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (tress_weight_triangle_parent_class)->css_changed (widget, change);
  invalidate_static (TRESS_WEIGHT_TRIANGLE (widget));
}

static void
tress_weight_triangle_finalize (GObject *object)
{
  TressWeightTriangle *self = TRESS_WEIGHT_TRIANGLE (object);

  g_array_unref (self->points);
  g_array_unref (self->shown);
  for (guint k = 0; k < 3; k++)
    g_free (self->labels[k]);
  g_clear_pointer (&self->static_node, gsk_render_node_unref);
  G_OBJECT_CLASS (tress_weight_triangle_parent_class)->finalize (object);
}

static void
tress_weight_triangle_class_init (TressWeightTriangleClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = tress_weight_triangle_finalize;
  widget_class->snapshot = tress_weight_triangle_snapshot;
  widget_class->measure = tress_weight_triangle_measure;
  widget_class->css_changed = tress_weight_triangle_css_changed;
  gtk_widget_class_set_css_name (widget_class, "weighttriangle");

  signals[SIGNAL_POINTS_MOVED]
      = g_signal_new ("points-moved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 2, G_TYPE_POINTER, G_TYPE_UINT);
}

static void
tress_weight_triangle_init (TressWeightTriangle *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();

  self->points = g_array_new (FALSE, FALSE, sizeof (Triple));
  self->shown = g_array_new (FALSE, FALSE, sizeof (Triple));
  self->drag_index = -1;
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
}

GtkWidget *
tress_weight_triangle_new (void)
{
  return g_object_new (TRESS_TYPE_WEIGHT_TRIANGLE, NULL);
}

void
tress_weight_triangle_set_points (TressWeightTriangle *self, const guint8 (*weights)[3], guint n)
{
  g_array_set_size (self->points, 0);
  g_array_append_vals (self->points, weights, n);
  g_array_set_size (self->shown, 0);
  g_array_append_vals (self->shown, weights, n);
  self->drag_index = -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
tress_weight_triangle_get_n_points (TressWeightTriangle *self)
{
  return self->shown->len;
}

const guint8 (*tress_weight_triangle_get_points (TressWeightTriangle *self))[3]
{
  return (const guint8 (*)[3])self->shown->data;
}

void
tress_weight_triangle_set_labels (TressWeightTriangle *self, const char *const labels[3])
{
  for (guint k = 0; k < 3; k++)
    {
      g_free (self->labels[k]);
      self->labels[k] = labels != NULL ? g_strdup (labels[k]) : NULL;
    }
  invalidate_static (self);
}

void
tress_weight_triangle_drag_to (TressWeightTriangle *self, guint index, double x, double y,
                               gboolean set_equal)
{
  g_return_if_fail (index < self->points->len);
  move_points (self, index, x, y, set_equal);
  finish_move (self);
}

void
tress_weight_triangle_get_point_position (TressWeightTriangle *self, guint index, double *x,
                                          double *y)
{
  TressWeightGeom geom;
  TressFurPoint p;

  g_return_if_fail (index < self->shown->len);
  get_geom (self, &geom);
  p = tress_weight_geom_point (&geom, g_array_index (self->shown, Triple, index));
  *x = p.x;
  *y = p.y;
}
