/* tress-curve-ruler.c: the frame ruler along the curve graph's bottom
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-ruler.h"

#include <math.h>

/* The space kept clear between the playhead's frame box and a frame number. */
#define LABEL_GAP 4
/* How far from a play range marker a press still grabs it (pixels), and
 * the width of its tab. */
#define MARKER_GRAB 6.0
#define MARKER_TAB 9.0

static const GdkRGBA BACKGROUND = { 0.12f, 0.12f, 0.13f, 1 };
static const GdkRGBA LABEL = { 0.62f, 0.62f, 0.64f, 1 };
static const GdkRGBA PLAYHEAD_BOX = { 0.60f, 0.22f, 0.60f, 1 };
static const GdkRGBA PLAYHEAD_TEXT = { 1, 1, 1, 1 };
static const GdkRGBA MARKER = { 0.96f, 0.62f, 0.18f, 1 };

typedef enum
{
  RULER_DRAG_NONE,
  RULER_DRAG_SCRUB, /* the playhead follows */
  RULER_DRAG_START, /* the play range's start marker follows */
  RULER_DRAG_END,
} RulerDrag;

struct _TressCurveRuler
{
  GtkWidget parent_instance;

  TressCurveView *view; /* the parent */
  RulerDrag drag;
};

G_DEFINE_FINAL_TYPE (TressCurveRuler, tress_curve_ruler, GTK_TYPE_WIDGET)

static void
rect (GtkSnapshot *snapshot, double x, double y, double w, double h, const GdkRGBA *color)
{
  gtk_snapshot_append_color (snapshot, color,
                             &GRAPHENE_RECT_INIT ((float)x, (float)y, (float)w, (float)h));
}

static void
text (GtkSnapshot *snapshot, double x, double y, PangoLayout *layout, const GdkRGBA *color)
{
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float)x, (float)y));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

static gboolean
snaps (TressCurveRuler *self, gboolean invert_snap)
{
  gboolean snap = TRUE;

  g_object_get (self->view, "snap", &snap, NULL);
  return snap != invert_snap;
}

/* Where the playhead's frame box lies (@x, @w: as wide as its number, set in
 * @layout); FALSE when the playhead is outside the graph. */
static gboolean
playhead_box (TressCurveRuler *self, const TressCurveViewport *vp, int width, PangoLayout *layout,
              double *x, double *w)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  double playhead = tress_curve_view_get_playhead (self->view);
  double px = tress_curve_viewport_frame_to_x (vp, playhead);
  int tw = 0;

  if (!(px >= -2 && px <= width + 2))
    return FALSE;
  g_ascii_formatd (buf, sizeof buf, playhead == round (playhead) ? "%.0f" : "%.2f", playhead);
  pango_layout_set_text (layout, buf, -1);
  pango_layout_get_pixel_size (layout, &tw, NULL);
  *x = CLAMP (px - tw / 2.0 - 3, 0, MAX (0, width - tw - 6));
  *w = tw + 6;
  return TRUE;
}

/* The play range's markers: a bar and tabs pointing into the range, "[" at
 * the start, "]" at the end. */
static void
draw_markers (TressCurveRuler *self, GtkSnapshot *snapshot, const TressCurveViewport *vp, int width)
{
  double start = 0, end = 0, xs, xe, h = TRESS_CURVE_RULER_HEIGHT;

  if (!tress_curve_view_get_play_range (self->view, &start, &end))
    return;
  xs = floor (tress_curve_viewport_frame_to_x (vp, start));
  xe = floor (tress_curve_viewport_frame_to_x (vp, end));
  if (xs >= -MARKER_TAB && xs <= width)
    {
      rect (snapshot, xs - 1, 0, 3, h, &MARKER);
      rect (snapshot, xs + 2, 0, MARKER_TAB - 2, 3, &MARKER);
      rect (snapshot, xs + 2, h - 3, MARKER_TAB - 2, 3, &MARKER);
    }
  if (xe >= 0 && xe <= width + MARKER_TAB)
    {
      rect (snapshot, xe - 1, 0, 3, h, &MARKER);
      rect (snapshot, xe - MARKER_TAB + 1, 0, MARKER_TAB - 2, 3, &MARKER);
      rect (snapshot, xe - MARKER_TAB + 1, h - 3, MARKER_TAB - 2, 3, &MARKER);
    }
}

static void
tress_curve_ruler_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  TressCurveRuler *self = TRESS_CURVE_RULER (widget);
  int width = gtk_widget_get_width (widget);
  double h = TRESS_CURVE_RULER_HEIGHT;
  TressCurveViewport vp;
  double fstep, f0, box_x = 0, box_w = 0;
  gboolean has_box;
  /* One layout for every number of the frame. */
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, NULL);

  tress_curve_view_get_viewport (self->view, &vp);
  rect (snapshot, 0, 0, width, h, &BACKGROUND);
  has_box = playhead_box (self, &vp, width, layout, &box_x, &box_w);
  fstep = tress_curve_nice_step (vp.frame_max - vp.frame_min, width / 80.0);
  f0 = ceil (vp.frame_min / fstep) * fstep;
  if (fstep > 0 && (vp.frame_max - f0) / fstep < 1000)
    for (double f = f0; f <= vp.frame_max; f += fstep)
      {
        char buf[G_ASCII_DTOSTR_BUF_SIZE];
        double x = floor (tress_curve_viewport_frame_to_x (&vp, f)) + 3;
        int tw = 0;

        tress_curve_format_tick (buf, sizeof buf, f, fstep, vp.frame_min, vp.frame_max);
        pango_layout_set_text (layout, buf, -1);
        pango_layout_get_pixel_size (layout, &tw, NULL);
        /* None under or against the playhead's box, which names its frame. */
        if (!has_box || x >= box_x + box_w + LABEL_GAP || x + tw <= box_x - LABEL_GAP)
          text (snapshot, x, 2, layout, &LABEL);
      }
  /* The playhead's frame in its box, over the numbers. */
  if (playhead_box (self, &vp, width, layout, &box_x, &box_w))
    {
      int th = 0;

      pango_layout_get_pixel_size (layout, NULL, &th);
      rect (snapshot, box_x, 1, box_w, h - 2, &PLAYHEAD_BOX);
      text (snapshot, box_x + 3, h / 2 - th / 2.0, layout, &PLAYHEAD_TEXT);
    }
  draw_markers (self, snapshot, &vp, width);
  g_object_unref (layout);
}

static void
tress_curve_ruler_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                           int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  *minimum = *natural = orientation == GTK_ORIENTATION_VERTICAL ? TRESS_CURVE_RULER_HEIGHT : 0;
}

/* ---- the pointer ----------------------------------------------------------- */

/* The play range marker at @x, if any. */
static RulerDrag
marker_at (TressCurveRuler *self, double x)
{
  TressCurveViewport vp;
  double start = 0, end = 0, xs, xe;
  gboolean on_start, on_end;

  if (!tress_curve_view_get_play_range (self->view, &start, &end))
    return RULER_DRAG_NONE;
  tress_curve_view_get_viewport (self->view, &vp);
  xs = tress_curve_viewport_frame_to_x (&vp, start);
  xe = tress_curve_viewport_frame_to_x (&vp, end);
  /* A marker's tab points into the range: it grabs a little outside and
   * the tab's width inside. */
  on_start = x >= xs - MARKER_GRAB && x <= xs + MARKER_TAB;
  on_end = x >= xe - MARKER_TAB && x <= xe + MARKER_GRAB;
  if (on_start && on_end)
    return fabs (x - xs) < fabs (x - xe) || (x < xs && xs == xe) ? RULER_DRAG_START
                                                                 : RULER_DRAG_END;
  return on_start ? RULER_DRAG_START : on_end ? RULER_DRAG_END : RULER_DRAG_NONE;
}

/* The frame under @x, whole while snapping. */
static double
frame_at (TressCurveRuler *self, double x, gboolean invert_snap)
{
  TressCurveViewport vp;
  double frame;

  tress_curve_view_get_viewport (self->view, &vp);
  frame = tress_curve_viewport_x_to_frame (&vp, x);
  return snaps (self, invert_snap) ? round (frame) : frame;
}

/* The dragged marker to the frame under @x: within the animation, and never
 * past the other marker. */
static void
drag_marker (TressCurveRuler *self, double x, gboolean invert_snap)
{
  double frame = frame_at (self, x, invert_snap);
  double first, last, start = 0, end = 0, was_start, was_end;

  if (!tress_curve_view_get_play_range (self->view, &start, &end))
    return;
  was_start = start;
  was_end = end;
  tress_curve_view_get_frame_range (self->view, &first, &last);
  if (self->drag == RULER_DRAG_START)
    start = CLAMP (frame, first, MAX (first, end));
  else
    end = CLAMP (frame, MIN (start, last), last);
  if (start != was_start || end != was_end)
    tress_curve_view_set_play_range (self->view, start, end);
}

void
tress_curve_ruler_press (TressCurveRuler *self, double x)
{
  g_return_if_fail (TRESS_IS_CURVE_RULER (self));
  /* On a play range marker: it follows the drag. Elsewhere the playhead
   * goes there, and follows the drag. */
  self->drag = marker_at (self, x);
  if (self->drag == RULER_DRAG_NONE)
    {
      self->drag = RULER_DRAG_SCRUB;
      tress_curve_view_set_playhead (self->view, frame_at (self, x, FALSE));
    }
}

void
tress_curve_ruler_motion (TressCurveRuler *self, double x, gboolean invert_snap)
{
  g_return_if_fail (TRESS_IS_CURVE_RULER (self));
  if (self->drag == RULER_DRAG_SCRUB)
    tress_curve_view_set_playhead (self->view, frame_at (self, x, invert_snap));
  else if (self->drag != RULER_DRAG_NONE)
    drag_marker (self, x, invert_snap);
}

void
tress_curve_ruler_release (TressCurveRuler *self, double x, gboolean invert_snap)
{
  g_return_if_fail (TRESS_IS_CURVE_RULER (self));
  tress_curve_ruler_motion (self, x, invert_snap);
  self->drag = RULER_DRAG_NONE;
}

static gboolean
ctrl_held (GtkGesture *gesture)
{
  return (gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture))
          & GDK_CONTROL_MASK)
         != 0;
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, TressCurveRuler *self)
{
  /* The ruler's own: the graph under it sees neither the press nor the drag. */
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  /* The graph's keys (S, E, Space) answer after a click here. */
  gtk_widget_grab_focus (GTK_WIDGET (self->view));
  tress_curve_ruler_press (self, x);
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, TressCurveRuler *self)
{
  double x0, y0;

  gtk_gesture_drag_get_start_point (gesture, &x0, &y0);
  tress_curve_ruler_motion (self, x0 + dx, ctrl_held (GTK_GESTURE (gesture)));
}

static void
on_drag_end (GtkGestureDrag *gesture, double dx, double dy, TressCurveRuler *self)
{
  double x0, y0;

  gtk_gesture_drag_get_start_point (gesture, &x0, &y0);
  tress_curve_ruler_release (self, x0 + dx, ctrl_held (GTK_GESTURE (gesture)));
}

static void
on_drag_cancel (GtkGesture *gesture, GdkEventSequence *sequence, TressCurveRuler *self)
{
  self->drag = RULER_DRAG_NONE;
}

/* ---- GObject ----------------------------------------------------------------- */

static void
tress_curve_ruler_class_init (TressCurveRulerClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->snapshot = tress_curve_ruler_snapshot;
  widget_class->measure = tress_curve_ruler_measure;
  gtk_widget_class_set_css_name (widget_class, "curveruler");
}

static void
tress_curve_ruler_init (TressCurveRuler *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();

  /* The left button: the middle one pans and the right one opens the
   * graph's menu, here as over the curves. */
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  g_signal_connect (drag, "cancel", G_CALLBACK (on_drag_cancel), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
}

GtkWidget *
tress_curve_ruler_new (TressCurveView *view)
{
  TressCurveRuler *self;

  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (view), NULL);
  self = g_object_new (TRESS_TYPE_CURVE_RULER, NULL);
  self->view = view;
  /* Redrawn when what it shows changes; the view asks for the rest (its frames). */
  g_signal_connect_object (view, "notify::playhead", G_CALLBACK (gtk_widget_queue_draw), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (view, "play-range-changed", G_CALLBACK (gtk_widget_queue_draw), self,
                           G_CONNECT_SWAPPED);
  return GTK_WIDGET (self);
}
