/* tress-dope-sheet-private.h: what the dope sheet's files share
 *
 * tress-dope-sheet.c holds the rows and the public calls,
 * tress-dope-sheet-draw.c the drawing, tress-dope-sheet-input.c the pointer
 * and keys (picking, drags, the interactive scale in time).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-dope-sheet.h"

#include "tress-dope-sheet-keys.h"

G_BEGIN_DECLS

/* The names' column: a share of the width, within bounds. */
#define NAME_WIDTH _tress_dope_sheet_name_width (self)
#define ROW_HEIGHT 20.0
#define RULER_HEIGHT 20.0
#define INDENT 12.0
#define MARK_RADIUS 4.0
#define HIT_PX 6.0
#define DRAG_THRESHOLD 3.0
#define FRAME_MARGIN 16.0
/* A group row's open/close triangle: this wide, at the row's indent. */
#define DISCLOSURE_WIDTH 12.0
/* Up to this many shown curves, every group starts open (as in the channel list). */
#define ROWS_OPEN_MAX 256

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
  GArray *rows;         /* TressDopeRow: those shown (a closed group's are not made) */
  GArray *shown;        /* guint: the view's curves the rows were made for */
  GPtrArray *paths;     /* their paths */
  gboolean rows_dirty;  /* a group opened or closed, or the curves changed */
  gboolean paths_dirty; /* the curves changed */
  GArray *row_curves;   /* what tress_dope_sheet_get_row_curves last gave */
  char *row_name;       /* what tress_dope_sheet_get_row_name last gave */
  guint first_row;      /* the first row on screen */
  guint n_marks_drawn;  /* by the last snapshot */

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

  /* The pointer, last seen over the sheet. */
  double pointer_x, pointer_y;
  /* The interactive scale in time (S): the pointer's distance from the
   * pivot sets the factor; nothing changes until it is applied. */
  gboolean scaling;
  gboolean scale_unsnapped; /* Ctrl held */
  double scale_x0;          /* the pointer's x when it began */
  double scale_pivot;       /* the playhead's frame then */
  double scale_factor;

  GdkTexture *marks[2]; /* a mark's picture, unselected and selected */
};

/* tress-dope-sheet.c */
double _tress_dope_sheet_name_width (TressDopeSheet *self);
void _tress_dope_sheet_rebuild_rows (TressDopeSheet *self);
TressDopeRow *_tress_dope_sheet_row (TressDopeSheet *self, guint row);
guint _tress_dope_sheet_row_curve (TressDopeSheet *self, const TressDopeRow *row, guint i);
int _tress_dope_sheet_row_at (TressDopeSheet *self, double y);
guint _tress_dope_sheet_rows_on_screen (TressDopeSheet *self);
void _tress_dope_sheet_key_viewport (TressDopeSheet *self, TressCurveViewport *vp);
gboolean _tress_dope_sheet_curve_usable (TressDopeSheet *self, guint index);
void _tress_dope_sheet_set_open (TressDopeSheet *self, guint row, gboolean open);

/* tress-dope-sheet-draw.c */
void _tress_dope_sheet_snapshot (GtkWidget *widget, GtkSnapshot *snapshot);
/* Where a selected key at @frame is drawn while the scale is under way. */
double _tress_dope_sheet_scaled_frame (TressDopeSheet *self, double frame);

/* tress-dope-sheet-input.c */
void _tress_dope_sheet_init_input (TressDopeSheet *self);
void _tress_dope_sheet_class_init_input (GtkWidgetClass *widget_class);
void _tress_dope_sheet_scale_cancel (TressDopeSheet *self);

G_END_DECLS
