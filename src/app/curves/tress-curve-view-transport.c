/* tress-curve-view-transport.c: the curve view's playhead, playback and play range
 *
 * The playhead (a frame of the shown animation), playing it at the file's
 * rate (or "default-fps") from a tick callback, looping or not, and the play
 * range: the frames playback loops over in the animation the graph shows: two
 * markers on the frame ruler (drag them: tress-curve-ruler.c), set at the playhead with S and E
 * (or the transport's menu), cleared with Alt+P. The ranges themselves live
 * in the document, one per animation (document/tress-play-range.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-view-private.h"

#include <math.h>

/* The play range's colour, as the ruler's markers have it. */
static const float MARKER_RGB[3] = { 0.96f, 0.62f, 0.18f };

/* The key of the animation shown: the first shown curve's. NULL when none. */
static char *
range_key (TressCurveView *self)
{
  for (guint i = 0; i < self->slots->len; i++)
    {
      const TressCurve *c = self->document != NULL ? tress_curve_document_get_curve (
                                self->document, g_array_index (self->slots, Slot, i).index)
                                                   : NULL;

      if (c != NULL)
        return tress_play_range_key (c->kind, c->path);
    }
  return NULL;
}

static TressPlayRanges *
ranges (TressCurveView *self)
{
  return self->document != NULL ? tress_curve_document_get_play_ranges (self->document) : NULL;
}

gboolean
tress_curve_view_get_play_range (TressCurveView *self, double *start, double *end)
{
  g_autofree char *key = NULL;

  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), FALSE);
  key = range_key (self);
  return key != NULL && ranges (self) != NULL
         && tress_play_ranges_get (ranges (self), key, start, end);
}

static void
range_changed (TressCurveView *self)
{
  double lo, hi;

  /* Playing goes on inside the new range. */
  if (self->playing)
    {
      tress_curve_view_get_play_bounds (self, &lo, &hi);
      if (self->playhead < lo || self->playhead > hi)
        tress_curve_view_set_playhead (self, lo);
      self->play_start_time = 0;
      self->play_start_frame = self->playhead;
    }
  g_signal_emit (self, _tress_curve_view_signals[SIGNAL_PLAY_RANGE_CHANGED], 0);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tress_curve_view_set_play_range (TressCurveView *self, double start, double end)
{
  g_autofree char *key = NULL;

  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  key = range_key (self);
  if (key == NULL || ranges (self) == NULL || !isfinite (start) || !isfinite (end))
    return;
  tress_play_ranges_set (ranges (self), key, start, end);
  range_changed (self);
}

void
tress_curve_view_clear_play_range (TressCurveView *self)
{
  g_autofree char *key = NULL;

  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  key = range_key (self);
  if (key != NULL && ranges (self) != NULL && tress_play_ranges_clear (ranges (self), key))
    range_changed (self);
}

void
tress_curve_view_get_play_bounds (TressCurveView *self, double *lo, double *hi)
{
  double first, last, start = 0, end = 0;
  gboolean has;

  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  tress_curve_view_get_frame_range (self, &first, &last);
  has = tress_curve_view_get_play_range (self, &start, &end);
  tress_play_range_bounds (has, start, end, first, last, lo, hi);
}

/* The playhead's frame, whole while snapping. */
static double
playhead_frame (TressCurveView *self)
{
  return self->snap ? round (self->playhead) : self->playhead;
}

/* The play range starts at the playhead (and ends where it ended, or with
 * the animation). */
void
_tress_curve_view_set_play_start (TressCurveView *self)
{
  g_autofree char *key = range_key (self);
  double first, last;

  if (key == NULL || ranges (self) == NULL)
    return;
  tress_curve_view_get_frame_range (self, &first, &last);
  tress_play_ranges_set_start (ranges (self), key, playhead_frame (self), last);
  range_changed (self);
}

/* The play range ends at the playhead. */
void
_tress_curve_view_set_play_end (TressCurveView *self)
{
  g_autofree char *key = range_key (self);
  double first, last;

  if (key == NULL || ranges (self) == NULL)
    return;
  tress_curve_view_get_frame_range (self, &first, &last);
  tress_play_ranges_set_end (ranges (self), key, playhead_frame (self), first);
  range_changed (self);
}

/* ---- on the graph ------------------------------------------------------------ */

gboolean
tress_curve_view_get_play_marker (TressCurveView *self, gboolean end, double *x, double *y)
{
  double start = 0, stop = 0;

  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), FALSE);
  if (!tress_curve_view_get_play_range (self, &start, &stop))
    return FALSE;
  *x = tress_curve_viewport_frame_to_x (&self->vp, end ? stop : start);
  *y = gtk_widget_get_height (GTK_WIDGET (self)) - RULER_HEIGHT / 2;
  return *x >= 0 && *x <= gtk_widget_get_width (GTK_WIDGET (self));
}

static void
rect (GtkSnapshot *snapshot, double x, double y, double w, double h, float r, float g, float b,
      float a)
{
  gtk_snapshot_append_color (snapshot, &(GdkRGBA){ r, g, b, a },
                             &GRAPHENE_RECT_INIT ((float)x, (float)y, (float)w, (float)h));
}

/* The frames outside the range washed out, the range's ends marked up the
 * graph (under the playhead); the markers themselves are the ruler's. */
void
_tress_curve_view_draw_play_range (TressCurveView *self, GtkSnapshot *snapshot, int width,
                                   int height)
{
  double start = 0, end = 0, xs, xe, top = height - RULER_HEIGHT;
  const float *c = MARKER_RGB;

  if (!tress_curve_view_get_play_range (self, &start, &end))
    return;
  xs = floor (tress_curve_viewport_frame_to_x (&self->vp, start));
  xe = floor (tress_curve_viewport_frame_to_x (&self->vp, end));
  if (xs > 0)
    rect (snapshot, 0, 0, MIN (xs, width), top, 0, 0, 0, 0.4f);
  if (xe < width)
    rect (snapshot, MAX (xe, 0), 0, width - MAX (xe, 0), top, 0, 0, 0, 0.4f);
  rect (snapshot, xs, 0, 1, top, c[0], c[1], c[2], 0.6f);
  rect (snapshot, xe, 0, 1, top, c[0], c[1], c[2], 0.6f);
}

/* ---- playback --------------------------------------------------------------- */

void
tress_curve_view_get_frame_range (TressCurveView *self, double *first, double *last)
{
  double a = G_MAXDOUBLE, b = -G_MAXDOUBLE;

  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  for (guint i = 0; i < self->slots->len; i++)
    {
      const TressCurve *c
          = _tress_curve_view_slot_curve (self, &g_array_index (self->slots, Slot, i));
      guint n;

      if (c == NULL || (n = tress_curve_get_n_keys (c)) == 0)
        continue;
      a = MIN (a, MIN (0, tress_curve_get_key (c, 0)->frame));
      b = MAX (b, tress_curve_get_key (c, n - 1)->frame);
      if (c->frame_count > 0)
        b = MAX (b, c->frame_count);
    }
  if (a > b)
    a = 0, b = 0;
  *first = a;
  *last = b;
}

double
tress_curve_view_get_fps (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 30);
  for (guint i = 0; i < self->slots->len; i++)
    {
      const TressCurve *c
          = _tress_curve_view_slot_curve (self, &g_array_index (self->slots, Slot, i));
      if (c != NULL && c->fps > 0)
        return c->fps;
    }
  return self->default_fps;
}

double
tress_curve_view_get_file_fps (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 0);
  for (guint i = 0; i < self->slots->len; i++)
    {
      const TressCurve *c
          = _tress_curve_view_slot_curve (self, &g_array_index (self->slots, Slot, i));
      if (c != NULL && c->fps > 0)
        return c->fps;
    }
  return 0;
}

static gboolean
play_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer user_data)
{
  TressCurveView *self = TRESS_CURVE_VIEW (widget);
  double first, last, frame;
  gboolean stopped;
  gint64 now = gdk_frame_clock_get_frame_time (clock);

  if (self->play_start_time == 0)
    self->play_start_time = now;
  /* Over the play range, or the whole animation. */
  tress_curve_view_get_play_bounds (self, &first, &last);
  frame = tress_play_range_advance (first, last, self->play_start_frame,
                                    (now - self->play_start_time) / (double)G_USEC_PER_SEC
                                        * tress_curve_view_get_fps (self),
                                    self->loop, &stopped);
  if (stopped)
    {
      tress_curve_view_set_playhead (self, last);
      self->tick_id = 0;
      self->playing = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), _tress_curve_view_props[PROP_PLAYING]);
      return G_SOURCE_REMOVE;
    }
  tress_curve_view_set_playhead (self, frame);
  return G_SOURCE_CONTINUE;
}

void
_tress_curve_view_set_playing (TressCurveView *self, gboolean playing)
{
  if (self->playing == playing)
    return;
  self->playing = playing;
  if (playing)
    {
      double first, last;

      tress_curve_view_get_play_bounds (self, &first, &last);
      if (tress_play_range_start_frame (first, last, self->playhead) != self->playhead)
        tress_curve_view_set_playhead (self, first);
      self->play_start_time = 0;
      self->play_start_frame = self->playhead;
      self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), play_tick, NULL, NULL);
    }
  else if (self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }
  g_object_notify_by_pspec (G_OBJECT (self), _tress_curve_view_props[PROP_PLAYING]);
}

double
tress_curve_view_get_playhead (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 0);
  return self->playhead;
}

void
tress_curve_view_set_playhead (TressCurveView *self, double frame)
{
  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  if (!isfinite (frame) || frame == self->playhead)
    return;
  self->playhead = frame;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), _tress_curve_view_props[PROP_PLAYHEAD]);
}
