/* tress-dope-sheet-keys.h: the dope sheet's key-time maths, without GTK
 *
 * The dope sheet shows the keys of the shown curves as marks on rows
 * (a summary, one per path level: animation, bone or material group, and one
 * per channel), on the graph's time axis. What it computes is here, so it is
 * unit-tested without a display:
 *
 * - the rows, made from the shown curves' paths (the part every path shares
 *   left out, as the channel list names them), those of closed groups not
 *   made at all;
 * - the marks of a row: one per pixel column at most, however many keys fall
 *   in it, found by one binary search per marked column of each curve (so a
 *   row costs what the width allows, not what the curves hold), with whether
 *   a selected key lies there;
 * - the keys at a frame (column select) and in a frame range (box select);
 * - a drag's move in time, snapped to whole frames.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "core/tress-curve-edit.h"
#include "tress-curve-geometry.h"
#include "tress-curve-groups.h"
#include "tress-curve-selection.h"

G_BEGIN_DECLS

/* ---------------------------------------------------------------- rows -- */

/* A row: the summary, a group (an animation, a bone, …) or a channel. Its
 * curves are the shown curves [first, end): a group's curves follow one
 * another in the shown order. */
typedef struct
{
  guint first, end; /* its curves, as positions among the shown curves */
  guint depth;      /* 0 for the summary, 1 for the first path level below it, … */
  guint level;      /* the path level it stands for (the summary: the shared levels) */
  int curve;        /* a channel: its document curve index; a group or the summary: -1 */
  gboolean open;    /* a group: its rows are shown */
} TressDopeRow;

/* The rows shown for the curves @indices (document curve indices) whose
 * paths are @paths ("Walk/Hip/Rotate X"), the part every path shares left
 * out as the channel list leaves it out: the summary first, then depth first
 * a row per group and per channel of each level, where the rows inside a
 * group are made only when it is open (@groups, else @fallback_open: see
 * tress-curve-groups.h), so what is made is what can be shown. A new array
 * of TressDopeRow. */
GArray *tress_dope_rows_layout (const char *const *paths, const guint *indices, guint n,
                                TressCurveGroups *groups, gboolean fallback_open);
/* A row's name as the channel list gives it ("Walk", "Rotate X"); NULL for
 * the summary. */
char *tress_dope_row_dup_name (const TressDopeRow *row, const char *const *paths);
/* A group's key in TressCurveGroups; NULL for the summary and channels. */
char *tress_dope_row_dup_key (const TressDopeRow *row, const char *const *paths);

/* --------------------------------------------------------------- marks -- */

typedef enum
{
  TRESS_DOPE_MARK_KEY = 1 << 0,      /* a key lies in the column */
  TRESS_DOPE_MARK_SELECTED = 1 << 1, /* a selected one */
  TRESS_DOPE_MARK_PLAIN = 1 << 2,    /* a key not selected */
} TressDopeMark;

/* The pixel column a frame falls in on @vp (floor of its x), which may lie
 * outside [0, width). */
int tress_dope_column_of (const TressCurveViewport *vp, double frame);

/* ORs into @columns (@n_columns of them, column 0 at x 0 of @vp) the marks of
 * the keys of @curve (document curve index @curve_index, its selection in
 * @selection, which may be NULL) that lie on screen. Returns how many columns
 * it visited: at most the number of columns holding keys. */
guint tress_dope_bin_curve (const TressCurve *curve, guint curve_index,
                            const TressCurveSelection *selection, const TressCurveViewport *vp,
                            guint8 *columns, guint n_columns);

/* ------------------------------------------------------------ picking -- */

/* The index of the first key of @curve at or after @frame (n_keys when none). */
guint tress_dope_lower_bound (const TressCurve *curve, double frame);

/* The frame of the key of @curve nearest @frame, within @max_distance frames:
 * TRUE and *out, else FALSE. */
gboolean tress_dope_nearest_frame (const TressCurve *curve, double frame, double max_distance,
                                   double *out);

/* Appends to @keys (guint) the indices of the keys of @curve whose frames
 * lie in [@first, @last]; returns how many. */
guint tress_dope_keys_in (const TressCurve *curve, double first, double last, GArray *keys);

/* Appends the keys of @curve at @frame (column select: "every key at that
 * frame"): within a millionth of a frame. */
guint tress_dope_keys_at (const TressCurve *curve, double frame, GArray *keys);

/* ---------------------------------------------------------------- time -- */

/* The frames a drag from x @x0 to @x moves keys by on @vp: whole frames while
 * @snap (frames the formats store as whole numbers stay whole). */
double tress_dope_drag_frames (const TressCurveViewport *vp, double x0, double x, gboolean snap);

/* The factor an interactive scale about @pivot (a frame) gives when the
 * pointer, at x @x0 when the scale began, is at @x (x on @vp): the ratio of
 * their distances from the pivot, so the frame under the pointer follows it;
 * while @snap, that frame lands on a whole frame. Begun nearer the pivot
 * than 10 pixels, 100 pixels of travel add 1 (while @snap, in tenths).
 * Never below 0.001: keys do not cross the pivot. */
double tress_dope_scale_factor (const TressCurveViewport *vp, double pivot, double x0, double x,
                                gboolean snap);

/* The edit a move in time by @d_frame frames is. */
TressCurveEdit tress_dope_move_edit (double d_frame);
/* The edit a scale in time by @factor about @pivot frame is: values stay,
 * frames land on each curve's frame grid (whole frames for BFRES and NIFF). */
TressCurveEdit tress_dope_scale_edit (double pivot, double factor);

G_END_DECLS
