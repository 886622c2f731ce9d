/* tress-curve-view.h: the graph of one or more animation curves
 *
 * Draws the shown curves of a TressCurveDocument in snapshot(), clipped to its
 * allocation: the lines are painted one pixel column at a time into an image
 * (min/max per column, see tress-curve-paint.h), cached as a texture node until
 * data, size or view change; handles are cairo paths, keys and grid snapshot
 * colours. When more keys are in view than can be told apart (thousands of
 * curves at once) they are thinned to one marker per marker-sized cell, the
 * selected and active keys winning theirs, so a frame costs what the graph's
 * size allows, not what the file holds. The selection is kept per curve
 * (tress-curve-selection.h), so selecting every key of a whole animation and
 * asking whether a key is selected stay cheap. And it
 * edits them: selection of keys and handles, dragging with snapping and axis
 * lock, nudges, scaling, insert / delete / duplicate / copy / paste,
 * interpolation and tangent modes, bake / fit, playback. Every interaction is an
 * action of the "curve." group (tress_curve_view_get_actions()), so the
 * keyboard, menus and tests drive the same code the pointer does. Every edit
 * is stored by tress_curve_document_commit_curve() (the rules of
 * tress-curve-commit.h, shared with tress-cli and the JSON build): one undo
 * step per action, a whole drag included, and refusals of the format are
 * shown in "message".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/tress-curve-document.h"
#include "tress-curve-geometry.h"
#include "tress-curve-groups.h"
#include "tress-curve-selection.h"

G_BEGIN_DECLS

#define TRESS_TYPE_CURVE_VIEW (tress_curve_view_get_type ())
G_DECLARE_FINAL_TYPE (TressCurveView, tress_curve_view, TRESS, CURVE_VIEW, GtkWidget)

GtkWidget *tress_curve_view_new (void);

void tress_curve_view_set_document (TressCurveView *self, TressCurveDocument *document);
TressCurveDocument *tress_curve_view_get_document (TressCurveView *self);

/* The curves shown, by document curve index (drawn in this order). */
void tress_curve_view_set_curves (TressCurveView *self, const guint *indices, guint n_indices);
guint tress_curve_view_get_n_curves (TressCurveView *self);
guint tress_curve_view_get_curve_index (TressCurveView *self, guint slot);
void tress_curve_view_set_curve_visible (TressCurveView *self, guint curve_index, gboolean visible);
void tress_curve_view_set_curve_locked (TressCurveView *self, guint curve_index, gboolean locked);
gboolean tress_curve_view_get_curve_visible (TressCurveView *self, guint curve_index);
gboolean tress_curve_view_get_curve_locked (TressCurveView *self, guint curve_index);
/* Solo: while any shown curve is solo, only the solo curves are drawn and edited. */
void tress_curve_view_set_curve_solo (TressCurveView *self, guint curve_index, gboolean solo);
gboolean tress_curve_view_get_curve_solo (TressCurveView *self, guint curve_index);
/* Drawn and editable: visible, and solo when any curve is. */
gboolean tress_curve_view_get_curve_shown (TressCurveView *self, guint curve_index);

typedef enum
{
  TRESS_CURVE_FLAG_VISIBLE,
  TRESS_CURVE_FLAG_LOCKED,
  TRESS_CURVE_FLAG_SOLO,
} TressCurveFlag;

/* Sets @flag on several shown curves at once (a group in the channel list):
 * one "curves-changed" however many. */
void tress_curve_view_set_curve_flags (TressCurveView *self, const guint *indices, guint n_indices,
                                       TressCurveFlag flag, gboolean value);
/* The colour a shown curve is drawn in. */
void tress_curve_view_get_curve_color (TressCurveView *self, guint curve_index, GdkRGBA *color);

/* Selection. */
gboolean tress_curve_view_is_selected (TressCurveView *self, guint curve_index, guint key,
                                       TressCurvePart part);
/* Number of selected keys (handles not counted). */
guint tress_curve_view_get_n_selected_keys (TressCurveView *self);
void tress_curve_view_select_key (TressCurveView *self, guint curve_index, guint key,
                                  TressCurvePart part, gboolean extend);
void tress_curve_view_select_none (TressCurveView *self);
/* Selects every key of the given shown curves (and nothing else); the first
 * key of the first becomes the active key. */
void tress_curve_view_select_all_of (TressCurveView *self, const guint *indices, guint n_indices);
/* The key selection the graph and the dope sheet share (read only: change
 * it through the view, which keeps it with its keys through undo). */
const TressCurveSelection *tress_curve_view_get_selection (TressCurveView *self);
/* Which groups of curves (animations, bones) the channel list and the dope
 * sheet show open: one state for both. */
TressCurveGroups *tress_curve_view_get_groups (TressCurveView *self);

typedef enum
{
  TRESS_CURVE_SELECT_REPLACE, /* the picked keys alone */
  TRESS_CURVE_SELECT_ADD,     /* added to the selection (Shift) */
  TRESS_CURVE_SELECT_TOGGLE,  /* each picked key toggled (Ctrl) */
} TressCurveSelectMode;

/* Selects the keys of @picked (handles ignored) as @mode says, leaving out
 * hidden and locked curves; one "selection-changed". */
void tress_curve_view_select_keys (TressCurveView *self, const TressCurveSelection *picked,
                                   TressCurveSelectMode mode);
/* Moves the selected keys by @d_frame frames, their values left, as one undo
 * step ("Move 12 keys by 2 frames"), through the graph's edit path. */
gboolean tress_curve_view_move_keys_in_time (TressCurveView *self, double d_frame);
/* Scales the selected keys' frames by @factor about frame @pivot, onto each
 * curve's frame grid, their values left; one undo step. */
gboolean tress_curve_view_scale_keys_in_time (TressCurveView *self, double pivot, double factor);
/* Shows frames @first to @last, the values and the framing left as they are
 * (the dope sheet frames the time axis while the graph is hidden). */
void tress_curve_view_set_frames (TressCurveView *self, double first, double last);

/* The key last clicked (the one the key panel edits). */
gboolean tress_curve_view_get_active_key (TressCurveView *self, guint *curve_index, guint *key);

/* Sets the interpolation of every key of a curve (a format that stores one
 * kind per curve, BFRES), the selection left as it was; one undo step
 * ("Set interpolation of all 6 keys of Walk/Hip/Rotate X to linear"). */
gboolean tress_curve_view_set_curve_interpolation (TressCurveView *self, guint curve_index,
                                                   TressInterp interp, GError **error);

/* Replaces one key (the key table and the key panel), one undo step. */
gboolean tress_curve_view_set_key (TressCurveView *self, guint curve_index, guint key,
                                   const TressKey *value, GError **error);

/* The view rectangle; setting it redraws. */
void tress_curve_view_get_viewport (TressCurveView *self, TressCurveViewport *vp);
void tress_curve_view_set_viewport (TressCurveView *self, const TressCurveViewport *vp);
/* The curve as drawn: the document's, or the edited copy during a drag. */
const TressCurve *tress_curve_view_get_shown_curve (TressCurveView *self, guint curve_index);
/* Ghost curves: another version of a curve (another file's, the saved
 * file's: the editor's "Compare with…"), drawn washed out behind the shown
 * curve of document curve @curve_index while that one is shown; NULL takes it
 * away. The view keeps a reference. */
void tress_curve_view_set_ghost (TressCurveView *self, guint curve_index, const TressCurve *curve);
void tress_curve_view_clear_ghosts (TressCurveView *self);
/* What the legend calls the other version (its file's name). */
void tress_curve_view_set_ghost_label (TressCurveView *self, const char *label);
const TressCurve *tress_curve_view_get_ghost (TressCurveView *self, guint curve_index);
guint tress_curve_view_get_n_ghosts (TressCurveView *self);
/* Where a key or handle of a shown curve is drawn, in widget pixels. */
gboolean tress_curve_view_get_point (TressCurveView *self, guint curve_index, guint key,
                                     TressCurvePart part, double *x, double *y);

double tress_curve_view_get_playhead (TressCurveView *self);
void tress_curve_view_set_playhead (TressCurveView *self, double frame);
/* The play range of the shown animation (the first shown curve's; kept in
 * the document per animation): FALSE when none is set. Playing loops over
 * it (tress-curve-play-range.c); "play-range-changed" tells a change. */
gboolean tress_curve_view_get_play_range (TressCurveView *self, double *start, double *end);
void tress_curve_view_set_play_range (TressCurveView *self, double start, double end);
void tress_curve_view_clear_play_range (TressCurveView *self);
/* The frames playing runs over: the play range cut to the animation, else all of it. */
void tress_curve_view_get_play_bounds (TressCurveView *self, double *lo, double *hi);
/* Where the play range's start (@end FALSE) or end marker is drawn on the
 * ruler, in widget pixels; FALSE when there is none or it is out of view. */
gboolean tress_curve_view_get_play_marker (TressCurveView *self, gboolean end, double *x,
                                           double *y);
/* Frames per second of the shown animation (the first shown curve's, else 30). */
double tress_curve_view_get_fps (TressCurveView *self);
/* The rate the shown curves' file stores (NIFF frame_rate), or 0 when it
 * stores none (BFRES): then "default-fps" is played at. */
double tress_curve_view_get_file_fps (TressCurveView *self);
/* What a value of the curve is multiplied by to be shown: 180/π for angles
 * while "degrees" is on, else 1 (the key table and panel show the same). */
double tress_curve_view_get_display_scale (TressCurveView *self, guint curve_index);
/* What one nudge of the selected keys' values moves them by, in shown units:
 * the step set ("nudge-step"), or a tenth of the value grid's spacing. */
double tress_curve_view_get_nudge_step (TressCurveView *self);
/* The right-click menu (a GtkPopoverMenu) once it has been asked for, else NULL. */
GtkWidget *tress_curve_view_get_context_menu (TressCurveView *self);
void tress_curve_view_set_nudge_step (TressCurveView *self, double step);
/* First and last frame of the shown animation. */
void tress_curve_view_get_frame_range (TressCurveView *self, double *first, double *last);

/* When the last edit was refused only because keys would pass the animation's
 * end: TRUE, and the frame count it needs. */
gboolean tress_curve_view_get_pending_end (TressCurveView *self, double *new_end);
/* Applies that edit as one undo step: the format's set_frame_count then
 * set_curve for curves past the end, set_curve for the others. Refused when
 * the format cannot change an animation's length (no set_frame_count). */
gboolean tress_curve_view_commit_pending (TressCurveView *self, GError **error);
/* When the last key edit (tress_curve_view_set_key) was refused only because
 * its frame lies between the frames the curve stores, and the format has a
 * wider frame type that holds it: TRUE, and *cost (may be NULL; owned by the
 * view) says what widening costs ("Frames in steps of 1/32 (s10.5): the file
 * grows by 18 bytes"). The view never widens unasked. */
gboolean tress_curve_view_get_frame_widening (TressCurveView *self, const char **cost);
/* Widens that curve's frames and applies the key edit, as one undo step. */
gboolean tress_curve_view_commit_frame_widening (TressCurveView *self, GError **error);

/* Unwraps the angle curves among the edit's targets (the curves with selected
 * keys, else the active curve, else every shown one) as one undo step: no
 * jumps of whole turns, and no Euler flips where the X, Y and Z angles of a
 * rotation are all among them (tress_curve_edit_unwrap_euler); a curve
 * alone by tress_curve_edit_unwrap. Other curves are left alone. After a
 * change the view frames every shown curve. FALSE when nothing changed or it
 * was refused ("message" says which). */
gboolean tress_curve_view_unwrap_angles (TressCurveView *self);

/* During a drag: the largest quantization error the format would give the
 * dragged curves as they are now ("drag-error"), or -1 (no drag, or the format
 * cannot tell). The text shown next to the pointer for it, or NULL. */
double tress_curve_view_get_drag_error (TressCurveView *self);
char *tress_curve_view_dup_drag_error_text (TressCurveView *self);
/* What the drag error is multiplied by to be shown in the unit of the curve
 * it comes from (180/π for angles shown in degrees, else 1); the text shows
 * it so, with the unit. */
double tress_curve_view_get_drag_error_scale (TressCurveView *self);
/* The tolerance the drag's error is held against (the smallest of the
 * dragged curves'), in stored units: what the tooltip by the pointer says. */
double tress_curve_view_get_drag_tolerance (TressCurveView *self);
/* The error accepted silently for @curve: the "tolerance" property, or where
 * it is negative (the default), the curve's own precision (half the step the
 * format stores its values in). */
double tress_curve_view_get_tolerance_for (TressCurveView *self, const TressCurve *curve);

/* The "curve" actions, one group per view: the view inserts it into itself
 * and the editor into itself, so that its toolbar, menus and keys reach the
 * graph's commands. Copy, duplicate, delete, scale and nudge-stored are
 * enabled while keys are selected, paste while keys are copied. The list, with
 * parameter types and keys, is in tress-curve-view-actions.c. */
GActionGroup *tress_curve_view_get_actions (TressCurveView *self);
/* Adds the graph's keys that work anywhere in an editor holding the view
 * (Delete, Ctrl+C, Space, Home…) to @widget_class; the view's own answer first
 * when it has the focus. */
void tress_curve_view_class_add_editor_bindings (GtkWidgetClass *widget_class);

/* Pure views of state for the panels. */
const char *tress_curve_view_get_message (TressCurveView *self);

/* Properties: "document", "normalized", "snap" (whole frames; Ctrl inverts it
 * during a drag), "axis-lock" (TressAxisLock as int), "playhead", "playing",
 * "loop", "message" (the last refusal or notice), "tolerance" (the largest
 * quantization error accepted silently; −1, the default: each curve's own
 * precision), "drag-error" (read-only, above), "default-fps" (the rate when
 * the file stores none, 30), "degrees" (angle curves shown in degrees, on by
 * default). A click or drag on the frame ruler along the bottom moves the
 * playhead (whole frames while snapping). Signals:
 * "selection-changed", "curves-changed" (the shown curves or their data changed),
 * "play-range-changed",
 * "drag-update" (the curves being dragged changed, before the drag is committed, and once more
 * when the drag copies are dropped: get_shown_curve() gives the curves as drawn). */

G_END_DECLS
