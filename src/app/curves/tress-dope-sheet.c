/* tress-dope-sheet.c: the shown curves' keys on rows, beside the graph
 *
 * The rows and the public calls; the drawing is in tress-dope-sheet-draw.c,
 * the input in tress-dope-sheet-input.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-dope-sheet-private.h"

#include <math.h>
#include <string.h>

G_DEFINE_FINAL_TYPE (TressDopeSheet, tress_dope_sheet, GTK_TYPE_WIDGET)

/* -------------------------------------------------------------- rows -- */

double
_tress_dope_sheet_name_width (TressDopeSheet *self)
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

void
_tress_dope_sheet_rebuild_rows (TressDopeSheet *self)
{
  guint n = self->view != NULL ? tress_curve_view_get_n_curves (self->view) : 0;
  TressCurveDocument *doc = self->view != NULL ? tress_curve_view_get_document (self->view) : NULL;
  g_autoptr (GArray) indices = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
  gboolean same;

  for (guint i = 0; i < n; i++)
    {
      guint index = tress_curve_view_get_curve_index (self->view, i);

      g_array_append_val (indices, index);
    }
  same = self->shown != NULL && self->shown->len == n
         && memcmp (self->shown->data, indices->data, n * sizeof (guint)) == 0;
  if (same && self->rows != NULL && !self->rows_dirty)
    return;
  if (!same || self->paths == NULL || self->paths_dirty)
    {
      g_clear_pointer (&self->paths, g_ptr_array_unref);
      self->paths = g_ptr_array_new_full (n + 1, g_free);
      for (guint i = 0; i < n; i++)
        {
          const TressCurve *c
              = doc != NULL
                    ? tress_curve_document_get_curve (doc, g_array_index (indices, guint, i))
                    : NULL;

          g_ptr_array_add (self->paths, g_strdup (c != NULL && c->path != NULL ? c->path : ""));
        }
    }
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->shown, g_array_unref);
  self->rows = tress_dope_rows_layout (
      (const char *const *)self->paths->pdata, (const guint *)indices->data, n,
      self->view != NULL ? tress_curve_view_get_groups (self->view) : NULL, n <= ROWS_OPEN_MAX);
  self->shown = g_steal_pointer (&indices);
  self->rows_dirty = FALSE;
  self->paths_dirty = FALSE;
  self->first_row = MIN (self->first_row, self->rows->len > 0 ? self->rows->len - 1 : 0);
  /* The graph frames its new curves when it draws; while it is hidden, the
   * sheet frames their frames on the shared axis. */
  if (!same && n > 0 && !gtk_widget_get_mapped (GTK_WIDGET (self->view)))
    frame_all (self);
}

TressDopeRow *
_tress_dope_sheet_row (TressDopeSheet *self, guint row)
{
  if (self->rows == NULL || row >= self->rows->len)
    return NULL;
  return &g_array_index (self->rows, TressDopeRow, row);
}

/* The document curve index of the @i-th curve of @row (i < end - first). */
guint
_tress_dope_sheet_row_curve (TressDopeSheet *self, const TressDopeRow *row, guint i)
{
  return g_array_index (self->shown, guint, row->first + i);
}

/* The row at widget y, or -1. */
int
_tress_dope_sheet_row_at (TressDopeSheet *self, double y)
{
  double r = floor ((y - RULER_HEIGHT) / ROW_HEIGHT);

  if (y < RULER_HEIGHT || self->rows == NULL || r + self->first_row >= self->rows->len)
    return -1;
  return (int)(r + self->first_row);
}

guint
_tress_dope_sheet_rows_on_screen (TressDopeSheet *self)
{
  double h = gtk_widget_get_height (GTK_WIDGET (self)) - RULER_HEIGHT;

  return h > 0 ? (guint)ceil (h / ROW_HEIGHT) : 0;
}

/* The graph's time axis over the sheet's key area (x 0 at NAME_WIDTH). */
void
_tress_dope_sheet_key_viewport (TressDopeSheet *self, TressCurveViewport *vp)
{
  tress_curve_view_get_viewport (self->view, vp);
  vp->width = MAX (1.0, gtk_widget_get_width (GTK_WIDGET (self)) - NAME_WIDTH);
}

gboolean
_tress_dope_sheet_curve_usable (TressDopeSheet *self, guint index)
{
  return tress_curve_view_get_curve_shown (self->view, index)
         && !tress_curve_view_get_curve_locked (self->view, index);
}

/* Opens or closes the group of @row, in the state the channel list shares. */
void
_tress_dope_sheet_set_open (TressDopeSheet *self, guint row, gboolean open)
{
  TressDopeRow *r = _tress_dope_sheet_row (self, row);
  g_autofree char *key = NULL;

  if (r == NULL || self->view == NULL)
    return;
  key = tress_dope_row_dup_key (r, (const char *const *)self->paths->pdata);
  if (key != NULL)
    tress_curve_groups_set_open (tress_curve_view_get_groups (self->view), key, open);
}

/* ------------------------------------------------------------ public -- */

static void
on_view_changed (TressDopeSheet *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* A group opened or closed. */
static void
on_rows_changed (TressDopeSheet *self)
{
  self->rows_dirty = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* An edit: the curves' paths may have changed (a rename). */
static void
on_curves_changed (TressDopeSheet *self)
{
  self->paths_dirty = TRUE;
  on_rows_changed (self);
}

void
tress_dope_sheet_set_view (TressDopeSheet *self, TressCurveView *view)
{
  g_return_if_fail (TRESS_IS_DOPE_SHEET (self));
  _tress_dope_sheet_scale_cancel (self);
  if (self->view != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->view, self);
      g_signal_handlers_disconnect_by_data (tress_curve_view_get_groups (self->view), self);
    }
  self->view = view;
  self->rows_dirty = TRUE;
  self->paths_dirty = TRUE;
  if (view == NULL)
    return;
  g_signal_connect_swapped (view, "curves-changed", G_CALLBACK (on_curves_changed), self);
  g_signal_connect_swapped (view, "selection-changed", G_CALLBACK (on_view_changed), self);
  g_signal_connect_swapped (view, "drag-update", G_CALLBACK (on_view_changed), self);
  g_signal_connect_swapped (view, "notify::playhead", G_CALLBACK (on_view_changed), self);
  g_signal_connect_swapped (tress_curve_view_get_groups (view), "changed",
                            G_CALLBACK (on_rows_changed), self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
tress_dope_sheet_get_n_rows (TressDopeSheet *self)
{
  g_return_val_if_fail (TRESS_IS_DOPE_SHEET (self), 0);
  _tress_dope_sheet_rebuild_rows (self);
  return self->rows->len;
}

const char *
tress_dope_sheet_get_row_name (TressDopeSheet *self, guint row)
{
  TressDopeRow *r;

  g_return_val_if_fail (TRESS_IS_DOPE_SHEET (self), NULL);
  _tress_dope_sheet_rebuild_rows (self);
  r = _tress_dope_sheet_row (self, row);
  g_clear_pointer (&self->row_name, g_free);
  if (r != NULL)
    self->row_name = tress_dope_row_dup_name (r, (const char *const *)self->paths->pdata);
  return self->row_name;
}

GArray *
tress_dope_sheet_get_row_curves (TressDopeSheet *self, guint row)
{
  TressDopeRow *r;

  g_return_val_if_fail (TRESS_IS_DOPE_SHEET (self), NULL);
  _tress_dope_sheet_rebuild_rows (self);
  r = _tress_dope_sheet_row (self, row);
  if (r == NULL)
    return NULL;
  if (r->first == 0 && r->end == self->shown->len)
    return self->shown;
  if (self->row_curves == NULL)
    self->row_curves = g_array_new (FALSE, FALSE, sizeof (guint));
  g_array_set_size (self->row_curves, 0);
  g_array_append_vals (self->row_curves, &g_array_index (self->shown, guint, r->first),
                       r->end - r->first);
  return self->row_curves;
}

int
tress_dope_sheet_get_row_channel (TressDopeSheet *self, guint row)
{
  TressDopeRow *r;

  g_return_val_if_fail (TRESS_IS_DOPE_SHEET (self), -1);
  _tress_dope_sheet_rebuild_rows (self);
  r = _tress_dope_sheet_row (self, row);
  return r != NULL ? r->curve : -1;
}

guint
tress_dope_sheet_get_row_depth (TressDopeSheet *self, guint row)
{
  TressDopeRow *r;

  g_return_val_if_fail (TRESS_IS_DOPE_SHEET (self), 0);
  _tress_dope_sheet_rebuild_rows (self);
  r = _tress_dope_sheet_row (self, row);
  return r != NULL ? r->depth : 0;
}

gboolean
tress_dope_sheet_get_row_open (TressDopeSheet *self, guint row)
{
  TressDopeRow *r;

  g_return_val_if_fail (TRESS_IS_DOPE_SHEET (self), FALSE);
  _tress_dope_sheet_rebuild_rows (self);
  r = _tress_dope_sheet_row (self, row);
  return r != NULL && r->curve < 0 && r->open;
}

void
tress_dope_sheet_set_row_open (TressDopeSheet *self, guint row, gboolean open)
{
  g_return_if_fail (TRESS_IS_DOPE_SHEET (self));
  _tress_dope_sheet_rebuild_rows (self);
  _tress_dope_sheet_set_open (self, row, open);
}

double
tress_dope_sheet_get_disclosure_x (TressDopeSheet *self, guint row)
{
  TressDopeRow *r;

  g_return_val_if_fail (TRESS_IS_DOPE_SHEET (self), 0);
  _tress_dope_sheet_rebuild_rows (self);
  r = _tress_dope_sheet_row (self, row);
  return 2 + (r != NULL && r->depth > 0 ? r->depth - 1 : 0) * INDENT + DISCLOSURE_WIDTH / 2;
}

void
tress_dope_sheet_set_first_row (TressDopeSheet *self, guint row)
{
  g_return_if_fail (TRESS_IS_DOPE_SHEET (self));
  _tress_dope_sheet_rebuild_rows (self);
  self->first_row = MIN (row, self->rows->len > 0 ? self->rows->len - 1 : 0);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
tress_dope_sheet_get_row_y (TressDopeSheet *self, guint row, double *y)
{
  g_return_val_if_fail (TRESS_IS_DOPE_SHEET (self), FALSE);
  if (row < self->first_row || row - self->first_row >= _tress_dope_sheet_rows_on_screen (self))
    return FALSE;
  *y = RULER_HEIGHT + (row - self->first_row + 0.5) * ROW_HEIGHT;
  return TRUE;
}

double
tress_dope_sheet_frame_to_x (TressDopeSheet *self, double frame)
{
  TressCurveViewport vp;

  g_return_val_if_fail (TRESS_IS_DOPE_SHEET (self), 0);
  _tress_dope_sheet_key_viewport (self, &vp);
  return NAME_WIDTH + floor (tress_curve_viewport_frame_to_x (&vp, frame)) + 0.5;
}

guint
tress_dope_sheet_get_n_marks_drawn (TressDopeSheet *self)
{
  g_return_val_if_fail (TRESS_IS_DOPE_SHEET (self), 0);
  return self->n_marks_drawn;
}

gboolean
tress_dope_sheet_get_scaling (TressDopeSheet *self, double *factor)
{
  g_return_val_if_fail (TRESS_IS_DOPE_SHEET (self), FALSE);
  if (factor != NULL)
    *factor = self->scale_factor;
  return self->scaling;
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
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->shown, g_array_unref);
  g_clear_pointer (&self->paths, g_ptr_array_unref);
  g_clear_pointer (&self->row_curves, g_array_unref);
  g_clear_pointer (&self->row_name, g_free);
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
  widget_class->snapshot = _tress_dope_sheet_snapshot;
  gtk_widget_class_set_css_name (widget_class, "dopesheet");
  _tress_dope_sheet_class_init_input (widget_class);
}

static void
tress_dope_sheet_init (TressDopeSheet *self)
{
  self->scale_factor = 1;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  _tress_dope_sheet_init_input (self);
}
