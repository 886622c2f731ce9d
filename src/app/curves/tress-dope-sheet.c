/* tress-dope-sheet.c: the shown curves' keys on rows, beside the graph
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-dope-sheet.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tress-dope-sheet-keys.h"

/* The names' column: a share of the width, within bounds. */
#define NAME_WIDTH name_width (self)
#define ROW_HEIGHT 20.0
#define RULER_HEIGHT 20.0
#define INDENT 12.0
#define MARK_RADIUS 4.0
#define HIT_PX 6.0
#define DRAG_THRESHOLD 3.0
#define FRAME_MARGIN 16.0

typedef enum
{
  DRAG_NONE,
  DRAG_KEYS,
  DRAG_BOX,
  DRAG_SCRUB,
} DragKind;

struct _TressDopeSheet
{
  GtkWidget parent_instance;

  TressCurveView *view;
  GPtrArray *rows;     /* TressDopeRow */
  GArray *shown;       /* guint: the view's curves the rows were made for */
  guint first_row;     /* the first row on screen */
  guint n_marks_drawn; /* by the last snapshot */

  DragKind drag;
  gboolean drag_started;
  double drag_x0, drag_y0, drag_x, drag_y;
  double drag_frames; /* DRAG_KEYS: what the selection moves by, so far */
  /* A press on selected keys: what a release without a drag selects, and how. */
  TressCurveSelection *pending;
  TressCurveSelectMode pending_mode;
  GdkModifierType drag_state;
  guint32 press_time; /* the last press, to tell a double click */
  double press_x, press_y;

  GdkTexture *marks[2]; /* a mark's picture, unselected and selected */
};

G_DEFINE_FINAL_TYPE (TressDopeSheet, tress_dope_sheet, GTK_TYPE_WIDGET)

/* -------------------------------------------------------------- rows -- */

static double
name_width (TressDopeSheet *self)
{
  return CLAMP (floor (gtk_widget_get_width (GTK_WIDGET (self)) * 0.3), 90, 220);
}

/* The shown animation's frames with a margin, on the shared time axis. */
static void
frame_all (TressDopeSheet *self)
{
  double first, last, width = gtk_widget_get_width (GTK_WIDGET (self)) - NAME_WIDTH;
  double margin;

  tress_curve_view_get_frame_range (self->view, &first, &last);
  if (last - first < 1)
    last = first + 1;
  margin
      = width > 4 * FRAME_MARGIN ? FRAME_MARGIN / (width - 2 * FRAME_MARGIN) * (last - first) : 0;
  tress_curve_view_set_frames (self->view, first - margin, last + margin);
}

static void
rebuild_rows (TressDopeSheet *self)
{
  guint n = self->view != NULL ? tress_curve_view_get_n_curves (self->view) : 0;
  TressCurveDocument *doc = self->view != NULL ? tress_curve_view_get_document (self->view) : NULL;
  g_autoptr (GArray) indices = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
  g_autofree const char **paths = g_new0 (const char *, n + 1);
  gboolean same;

  for (guint i = 0; i < n; i++)
    {
      guint index = tress_curve_view_get_curve_index (self->view, i);
      const TressCurve *c = doc != NULL ? tress_curve_document_get_curve (doc, index) : NULL;

      g_array_append_val (indices, index);
      paths[i] = c != NULL && c->path != NULL ? c->path : "";
    }
  same = self->shown != NULL && self->shown->len == n
         && memcmp (self->shown->data, indices->data, n * sizeof (guint)) == 0;
  if (same && self->rows != NULL)
    return;
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->shown, g_array_unref);
  self->rows = tress_dope_rows_new (paths, (const guint *)indices->data, n);
  self->shown = g_steal_pointer (&indices);
  self->first_row = MIN (self->first_row, self->rows->len > 0 ? self->rows->len - 1 : 0);
  /* The graph frames its new curves when it draws; while it is hidden, the
   * sheet frames their frames on the shared axis. */
  if (n > 0 && !gtk_widget_get_mapped (GTK_WIDGET (self->view)))
    frame_all (self);
}

static TressDopeRow *
row_at_index (TressDopeSheet *self, guint row)
{
  if (self->rows == NULL || row >= self->rows->len)
    return NULL;
  return g_ptr_array_index (self->rows, row);
}

/* The row at widget y, or -1. */
static int
row_at (TressDopeSheet *self, double y)
{
  double r = floor ((y - RULER_HEIGHT) / ROW_HEIGHT);

  if (y < RULER_HEIGHT || self->rows == NULL || r + self->first_row >= self->rows->len)
    return -1;
  return (int)(r + self->first_row);
}

static guint
rows_on_screen (TressDopeSheet *self)
{
  double h = gtk_widget_get_height (GTK_WIDGET (self)) - RULER_HEIGHT;

  return h > 0 ? (guint)ceil (h / ROW_HEIGHT) : 0;
}

/* The graph's time axis over the sheet's key area (x 0 at NAME_WIDTH). */
static void
key_viewport (TressDopeSheet *self, TressCurveViewport *vp)
{
  tress_curve_view_get_viewport (self->view, vp);
  vp->width = MAX (1.0, gtk_widget_get_width (GTK_WIDGET (self)) - NAME_WIDTH);
}

static gboolean
curve_usable (TressDopeSheet *self, guint index)
{
  return tress_curve_view_get_curve_shown (self->view, index)
         && !tress_curve_view_get_curve_locked (self->view, index);
}

/* ---------------------------------------------------------- drawing -- */

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

  memset (cols, 0, n_cols);
  for (guint i = 0; i < row->curves->len; i++)
    {
      guint index = g_array_index (row->curves, guint, i);
      const TressCurve *c;

      if (!tress_curve_view_get_curve_shown (self->view, index))
        continue;
      c = tress_curve_view_get_shown_curve (self->view, index);
      if (c != NULL)
        tress_dope_bin_curve (c, index, sel, vp, cols, n_cols);
    }
  for (guint x = 0; x < n_cols; x++)
    {
      gboolean selected = (cols[x] & TRESS_DOPE_MARK_SELECTED) != 0;
      gboolean plain = (cols[x] & TRESS_DOPE_MARK_PLAIN) != 0;
      double cx = NAME_WIDTH + x + 0.5;
      /* Marks closer than a diamond's width: thin bars, not diamonds. */
      gboolean crowded = cx - last_x < MARK_RADIUS * 2;

      if (cols[x] == 0)
        continue;
      last_x = cx;
      drawn++;
      /* While a drag moves the selection, its marks are drawn where they go
       * and the keys left behind where they are. */
      if (selected && shift_px != 0)
        {
          if (plain)
            draw_mark (self, snapshot, cx, y, FALSE, crowded);
          if (cx + shift_px >= NAME_WIDTH && cx + shift_px <= NAME_WIDTH + vp->width)
            draw_mark (self, snapshot, cx + shift_px, y, TRUE, FALSE);
          continue;
        }
      draw_mark (self, snapshot, cx, y, selected, crowded && !selected);
    }
  return drawn;
}

static void
tress_dope_sheet_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
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
  rebuild_rows (self);
  key_viewport (self, &vp);
  layout = gtk_widget_create_pango_layout (widget, NULL);
  cols = g_malloc ((gsize)vp.width + 1);
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  draw_ruler (self, snapshot, layout, &vp, height);
  n_rows = rows_on_screen (self);
  /* Only the rows on screen are computed. */
  for (guint r = 0; r < n_rows; r++)
    {
      TressDopeRow *row = row_at_index (self, self->first_row + r);
      double y = RULER_HEIGHT + r * ROW_HEIGHT;
      gboolean any_shown = FALSE, all_locked = TRUE;

      if (row == NULL)
        break;
      for (guint i = 0; i < row->curves->len && (!any_shown || all_locked); i++)
        {
          guint index = g_array_index (row->curves, guint, i);

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
      {
        g_autofree char *text = NULL;

        /* TRANSLATORS: the dope sheet's first row, the keys of every shown curve */
        text = g_strdup (row->name != NULL ? row->name : _ ("Summary"));
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
  gtk_snapshot_pop (snapshot);
  g_object_unref (layout);
}

/* ----------------------------------------------------------- picking -- */

/* Adds to @picked the keys of @row's usable curves in frames [first, last]. */
static void
pick_range (TressDopeSheet *self, const TressDopeRow *row, double first, double last,
            TressCurveSelection *picked)
{
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < row->curves->len; i++)
    {
      guint index = g_array_index (row->curves, guint, i);
      const TressCurve *c = tress_curve_view_get_shown_curve (self->view, index);

      if (c == NULL || !curve_usable (self, index))
        continue;
      g_array_set_size (keys, 0);
      tress_dope_keys_in (c, first, last, keys);
      for (guint k = 0; k < keys->len; k++)
        tress_curve_selection_add (picked, index, g_array_index (keys, guint, k),
                                   TRESS_CURVE_PART_KEY);
    }
}

/* The frame of the key of @row nearest x, within HIT_PX. */
static gboolean
hit_frame (TressDopeSheet *self, const TressDopeRow *row, double x, double *frame)
{
  TressCurveViewport vp;
  double f, fpp, best = G_MAXDOUBLE;
  gboolean found = FALSE;

  key_viewport (self, &vp);
  f = tress_curve_viewport_x_to_frame (&vp, x - NAME_WIDTH);
  fpp = tress_curve_viewport_frames_per_px (&vp);
  for (guint i = 0; i < row->curves->len; i++)
    {
      guint index = g_array_index (row->curves, guint, i);
      const TressCurve *c = tress_curve_view_get_shown_curve (self->view, index);
      double at;

      if (c == NULL || !tress_curve_view_get_curve_shown (self->view, index))
        continue;
      if (tress_dope_nearest_frame (c, f, MIN (best, HIT_PX * fpp), &at) && fabs (at - f) < best)
        {
          best = fabs (at - f);
          *frame = at;
          found = TRUE;
        }
    }
  return found;
}

static TressCurveSelectMode
mode_of (GdkModifierType state)
{
  if (state & GDK_CONTROL_MASK)
    return TRESS_CURVE_SELECT_TOGGLE;
  if (state & GDK_SHIFT_MASK)
    return TRESS_CURVE_SELECT_ADD;
  return TRESS_CURVE_SELECT_REPLACE;
}

/* Column select: every key at @frame of every shown, unlocked curve. */
static void
select_column (TressDopeSheet *self, double frame, GdkModifierType state)
{
  g_autoptr (TressCurveSelection) picked = tress_curve_selection_new ();
  TressDopeRow *summary = row_at_index (self, 0);

  if (summary == NULL)
    return;
  pick_range (self, summary, frame - 1e-6 * MAX (1, fabs (frame)),
              frame + 1e-6 * MAX (1, fabs (frame)), picked);
  tress_curve_view_select_keys (self->view, picked, mode_of (state));
}

static void
set_playhead_at (TressDopeSheet *self, double x, GdkModifierType state)
{
  TressCurveViewport vp;
  double f;
  gboolean snap = TRUE;

  key_viewport (self, &vp);
  f = tress_curve_viewport_x_to_frame (&vp, x - NAME_WIDTH);
  g_object_get (self->view, "snap", &snap, NULL);
  if (snap != ((state & GDK_CONTROL_MASK) != 0))
    f = round (f) + 0.0; /* not -0 */
  tress_curve_view_set_playhead (self->view, f);
}

static void
press (TressDopeSheet *self, double x, double y, int n_press, GdkModifierType state)
{
  int r;
  TressDopeRow *row;
  double frame;

  self->drag = DRAG_NONE;
  self->drag_started = FALSE;
  self->drag_x0 = self->drag_x = x;
  self->drag_y0 = self->drag_y = y;
  self->drag_frames = 0;
  self->drag_state = state;
  if (self->view == NULL)
    return;
  rebuild_rows (self);
  if (y < RULER_HEIGHT && x >= NAME_WIDTH)
    {
      self->drag = DRAG_SCRUB;
      set_playhead_at (self, x, state);
      return;
    }
  r = row_at (self, y);
  row = r >= 0 ? row_at_index (self, r) : NULL;
  if (row == NULL)
    return;
  if (x < NAME_WIDTH)
    {
      /* A row's name: every key of its curves. */
      g_autoptr (TressCurveSelection) picked = tress_curve_selection_new ();

      pick_range (self, row, -G_MAXDOUBLE, G_MAXDOUBLE, picked);
      tress_curve_view_select_keys (self->view, picked, mode_of (state));
      return;
    }
  if (!hit_frame (self, row, x, &frame))
    {
      self->drag = DRAG_BOX;
      return;
    }
  if ((state & GDK_ALT_MASK) || n_press >= 2)
    select_column (self, frame, state);
  else
    {
      g_autoptr (TressCurveSelection) picked = tress_curve_selection_new ();
      const TressCurveSelection *sel = tress_curve_view_get_selection (self->view);
      gboolean all_selected = TRUE;
      g_autoptr (GArray) curves = NULL;

      pick_range (self, row, frame - 1e-6 * MAX (1, fabs (frame)),
                  frame + 1e-6 * MAX (1, fabs (frame)), picked);
      curves = tress_curve_selection_dup_curves (picked);
      for (guint i = 0; i < curves->len && all_selected; i++)
        {
          guint index = g_array_index (curves, guint, i);
          g_autoptr (GArray) keys = tress_curve_selection_dup_keys (picked, index);

          for (guint k = 0; k < keys->len && all_selected; k++)
            all_selected = tress_curve_selection_contains (
                sel, index, g_array_index (keys, guint, k), TRESS_CURVE_PART_KEY);
        }
      /* A press on a selected mark keeps the selection, to drag it (Ctrl
       * then lets go of the snapping); released without a drag, the click
       * selects that mark alone, or with Ctrl toggles it. */
      if (all_selected && curves->len > 0 && mode_of (state) != TRESS_CURVE_SELECT_ADD)
        {
          g_clear_pointer (&self->pending, tress_curve_selection_free);
          self->pending = g_steal_pointer (&picked);
          self->pending_mode = mode_of (state);
          self->drag = DRAG_KEYS;
          return;
        }
      tress_curve_view_select_keys (self->view, picked, mode_of (state));
    }
  if (tress_curve_view_get_n_selected_keys (self->view) > 0 && !(state & GDK_CONTROL_MASK))
    self->drag = DRAG_KEYS;
}

static void
motion (TressDopeSheet *self, double x, double y, GdkModifierType state)
{
  self->drag_x = x;
  self->drag_y = y;
  if (!self->drag_started && hypot (x - self->drag_x0, y - self->drag_y0) >= DRAG_THRESHOLD)
    self->drag_started = TRUE;
  switch (self->drag)
    {
    case DRAG_SCRUB:
      set_playhead_at (self, x, state);
      break;
    case DRAG_KEYS:
      {
        TressCurveViewport vp;
        gboolean snap = TRUE;

        key_viewport (self, &vp);
        g_object_get (self->view, "snap", &snap, NULL);
        self->drag_frames = tress_dope_drag_frames (&vp, self->drag_x0, x,
                                                    snap != ((state & GDK_CONTROL_MASK) != 0));
        gtk_widget_queue_draw (GTK_WIDGET (self));
      }
      break;
    case DRAG_BOX:
      gtk_widget_queue_draw (GTK_WIDGET (self));
      break;
    case DRAG_NONE:
    default:
      break;
    }
}

static void
release (TressDopeSheet *self, double x, double y, GdkModifierType state)
{
  DragKind drag = self->drag;

  motion (self, x, y, state);
  self->drag = DRAG_NONE;
  if (drag == DRAG_KEYS && self->drag_started && self->drag_frames != 0)
    tress_curve_view_move_keys_in_time (self->view, self->drag_frames);
  else if (drag == DRAG_KEYS && !self->drag_started && self->pending != NULL)
    tress_curve_view_select_keys (self->view, self->pending, self->pending_mode);
  else if (drag == DRAG_BOX)
    {
      g_autoptr (TressCurveSelection) picked = tress_curve_selection_new ();

      if (self->drag_started)
        {
          TressCurveViewport vp;
          double f0, f1;
          int r0 = row_at (self, MAX (RULER_HEIGHT, MIN (self->drag_y0, y)));
          int r1 = row_at (self, MAX (self->drag_y0, y));

          key_viewport (self, &vp);
          f0 = tress_curve_viewport_x_to_frame (&vp, MIN (self->drag_x0, x) - NAME_WIDTH);
          f1 = tress_curve_viewport_x_to_frame (&vp, MAX (self->drag_x0, x) - NAME_WIDTH);
          if (r1 < 0 && self->rows != NULL)
            r1 = (int)MIN (self->rows->len, self->first_row + rows_on_screen (self)) - 1;
          for (int r = MAX (r0, 0); r0 >= 0 && r <= r1; r++)
            pick_range (self, row_at_index (self, r), f0, f1, picked);
        }
      tress_curve_view_select_keys (self->view, picked, mode_of (self->drag_state));
    }
  self->drag_started = FALSE;
  g_clear_pointer (&self->pending, tress_curve_selection_free);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ------------------------------------------------------------ input -- */

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, TressDopeSheet *self)
{
  GdkModifierType state
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  GdkEvent *event = gtk_event_controller_get_current_event (GTK_EVENT_CONTROLLER (gesture));
  int n_press = 1;

  /* A second press close in time on the same spot: a double click. */
  if (event != NULL && gdk_event_get_event_type (event) == GDK_BUTTON_PRESS)
    {
      guint32 t = gdk_event_get_time (event);
      int dbl = 400;

      g_object_get (gtk_widget_get_settings (GTK_WIDGET (self)), "gtk-double-click-time", &dbl,
                    NULL);
      if (t - self->press_time < (guint32)dbl && fabs (x - self->press_x) < 4
          && fabs (y - self->press_y) < 4)
        n_press = 2;
      self->press_time = t;
      self->press_x = x;
      self->press_y = y;
    }
  gtk_widget_grab_focus (GTK_WIDGET (self));
  press (self, x, y, n_press, state);
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, TressDopeSheet *self)
{
  GdkModifierType state
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  motion (self, self->drag_x0 + dx, self->drag_y0 + dy, state);
}

static void
on_drag_end (GtkGestureDrag *gesture, double dx, double dy, TressDopeSheet *self)
{
  GdkModifierType state
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  release (self, self->drag_x0 + dx, self->drag_y0 + dy, state);
}

static gboolean
on_scroll (GtkEventControllerScroll *scroll, double dx, double dy, TressDopeSheet *self)
{
  GdkModifierType state
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));

  if (self->view == NULL)
    return FALSE;
  if (state & GDK_CONTROL_MASK)
    {
      /* Zooms the shared time axis. */
      TressCurveViewport vp;
      double factor = dy > 0 ? 1.25 : 0.8, mid;

      tress_curve_view_get_viewport (self->view, &vp);
      mid = (vp.frame_min + vp.frame_max) / 2;
      vp.frame_min = mid + (vp.frame_min - mid) * factor;
      vp.frame_max = mid + (vp.frame_max - mid) * factor;
      tress_curve_view_set_viewport (self->view, &vp);
    }
  else
    {
      int first = (int)self->first_row + (dy > 0 ? 3 : dy < 0 ? -3 : 0);
      guint n = self->rows != NULL ? self->rows->len : 0;

      self->first_row = (guint)CLAMP (first, 0, MAX ((int)n - 1, 0));
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return TRUE;
}

/* ---------------------------------------------------------- actions -- */

static void
act_select_all (GtkWidget *widget, const char *name, GVariant *param)
{
  TressDopeSheet *self = TRESS_DOPE_SHEET (widget);

  rebuild_rows (self);
  if (self->shown != NULL)
    tress_curve_view_select_all_of (self->view, (const guint *)self->shown->data, self->shown->len);
}

static void
act_delete (GtkWidget *widget, const char *name, GVariant *param)
{
  TressDopeSheet *self = TRESS_DOPE_SHEET (widget);

  gtk_widget_activate_action (GTK_WIDGET (self->view), "curve.delete", NULL);
}

static void
act_scale (GtkWidget *widget, const char *name, GVariant *param)
{
  TressDopeSheet *self = TRESS_DOPE_SHEET (widget);

  tress_curve_view_scale_keys_in_time (self->view, tress_curve_view_get_playhead (self->view),
                                       g_variant_get_double (param));
}

/* ------------------------------------------------------------ public -- */

static void
on_view_changed (TressDopeSheet *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tress_dope_sheet_set_view (TressDopeSheet *self, TressCurveView *view)
{
  g_return_if_fail (TRESS_IS_DOPE_SHEET (self));
  if (self->view != NULL)
    g_signal_handlers_disconnect_by_data (self->view, self);
  self->view = view;
  if (view == NULL)
    return;
  g_signal_connect_swapped (view, "curves-changed", G_CALLBACK (on_view_changed), self);
  g_signal_connect_swapped (view, "selection-changed", G_CALLBACK (on_view_changed), self);
  g_signal_connect_swapped (view, "drag-update", G_CALLBACK (on_view_changed), self);
  g_signal_connect_swapped (view, "notify::playhead", G_CALLBACK (on_view_changed), self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
tress_dope_sheet_get_n_rows (TressDopeSheet *self)
{
  g_return_val_if_fail (TRESS_IS_DOPE_SHEET (self), 0);
  rebuild_rows (self);
  return self->rows->len;
}

const char *
tress_dope_sheet_get_row_name (TressDopeSheet *self, guint row)
{
  TressDopeRow *r;

  g_return_val_if_fail (TRESS_IS_DOPE_SHEET (self), NULL);
  rebuild_rows (self);
  r = row_at_index (self, row);
  return r != NULL ? r->name : NULL;
}

GArray *
tress_dope_sheet_get_row_curves (TressDopeSheet *self, guint row)
{
  TressDopeRow *r;

  g_return_val_if_fail (TRESS_IS_DOPE_SHEET (self), NULL);
  rebuild_rows (self);
  r = row_at_index (self, row);
  return r != NULL ? r->curves : NULL;
}

int
tress_dope_sheet_get_row_channel (TressDopeSheet *self, guint row)
{
  TressDopeRow *r;

  g_return_val_if_fail (TRESS_IS_DOPE_SHEET (self), -1);
  rebuild_rows (self);
  r = row_at_index (self, row);
  return r != NULL ? r->curve : -1;
}

guint
tress_dope_sheet_get_row_depth (TressDopeSheet *self, guint row)
{
  TressDopeRow *r;

  g_return_val_if_fail (TRESS_IS_DOPE_SHEET (self), 0);
  rebuild_rows (self);
  r = row_at_index (self, row);
  return r != NULL ? r->depth : 0;
}

void
tress_dope_sheet_set_first_row (TressDopeSheet *self, guint row)
{
  g_return_if_fail (TRESS_IS_DOPE_SHEET (self));
  rebuild_rows (self);
  self->first_row = MIN (row, self->rows->len > 0 ? self->rows->len - 1 : 0);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
tress_dope_sheet_get_row_y (TressDopeSheet *self, guint row, double *y)
{
  g_return_val_if_fail (TRESS_IS_DOPE_SHEET (self), FALSE);
  if (row < self->first_row || row - self->first_row >= rows_on_screen (self))
    return FALSE;
  *y = RULER_HEIGHT + (row - self->first_row + 0.5) * ROW_HEIGHT;
  return TRUE;
}

double
tress_dope_sheet_frame_to_x (TressDopeSheet *self, double frame)
{
  TressCurveViewport vp;

  g_return_val_if_fail (TRESS_IS_DOPE_SHEET (self), 0);
  key_viewport (self, &vp);
  return NAME_WIDTH + floor (tress_curve_viewport_frame_to_x (&vp, frame)) + 0.5;
}

guint
tress_dope_sheet_get_n_marks_drawn (TressDopeSheet *self)
{
  g_return_val_if_fail (TRESS_IS_DOPE_SHEET (self), 0);
  return self->n_marks_drawn;
}

GtkWidget *
tress_dope_sheet_new (void)
{
  return g_object_new (TRESS_TYPE_DOPE_SHEET, NULL);
}

static void
tress_dope_sheet_dispose (GObject *object)
{
  TressDopeSheet *self = TRESS_DOPE_SHEET (object);

  tress_dope_sheet_set_view (self, NULL);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->shown, g_array_unref);
  g_clear_pointer (&self->pending, tress_curve_selection_free);
  g_clear_object (&self->marks[0]);
  g_clear_object (&self->marks[1]);
  G_OBJECT_CLASS (tress_dope_sheet_parent_class)->dispose (object);
}

static void
tress_dope_sheet_class_init (TressDopeSheetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tress_dope_sheet_dispose;
  widget_class->snapshot = tress_dope_sheet_snapshot;
  gtk_widget_class_set_css_name (widget_class, "dopesheet");
  gtk_widget_class_install_action (widget_class, "dope.select-all", NULL, act_select_all);
  gtk_widget_class_install_action (widget_class, "dope.delete", NULL, act_delete);
  gtk_widget_class_install_action (widget_class, "dope.scale", "d", act_scale);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, GDK_CONTROL_MASK, "dope.select-all",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "dope.delete", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_x, 0, "dope.delete", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketright, 0, "dope.scale", "d",
                                       2.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketleft, 0, "dope.scale", "d",
                                       0.5);
}

static void
tress_dope_sheet_init (TressDopeSheet *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkEventController *scroll
      = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);
}
