/* tress-curve-view-private.h: what the files of the curve view share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-curve-view.h"

#include "core/tress-curve-edit.h"
#include "formats/tress-curve-commit.h"
#include "tress-curve-ruler.h"
#include "tress-curve-selection.h"

G_BEGIN_DECLS

#define HIT_RADIUS 7.0
#define KEY_SIZE 7.0
#define HANDLE_SIZE 5.0
#define DRAG_THRESHOLD 3.0
#define FIT_MARGIN 24.0
/* The frame ruler along the bottom (tress-curve-ruler.c), over the graph. */
#define RULER_HEIGHT ((double)TRESS_CURVE_RULER_HEIGHT)

typedef struct
{
  guint index; /* document curve index */
  gboolean visible;
  gboolean locked;
  gboolean solo;     /* while any shown curve is solo, only solo curves are drawn */
  TressCurve *orig;  /* during a drag: the curve when it began */
  TressCurve *edit;  /* during a drag: what is drawn */
  GArray *drag_sel;  /* during a drag: the moved keys, as indices of orig */
  GArray *drag_now;  /* where they are in edit */
  gboolean permuted; /* edit's keys are in another order than orig's */
  double color[3];
} Slot;

/* A selected key or handle (the one a drag grabbed). */
typedef struct
{
  guint curve;
  guint key;
  TressCurvePart part;
} Sel;

/* TressCurveView.lines_valid */
enum
{
  LINES_STILL = 1 << 0,
  LINES_MOVING = 1 << 1,
};

typedef enum
{
  DRAG_NONE,
  DRAG_KEYS,
  DRAG_HANDLE,
  DRAG_BOX,
  DRAG_PAN,
  DRAG_RULER, /* the pointer actions on the ruler: handed to it */
} DragKind;

struct _TressCurveView
{
  GtkWidget parent_instance;

  TressCurveDocument *document;
  gulong changed_id;
  gulong reset_id;

  GArray *slots;                  /* Slot */
  GHashTable *slot_of;            /* curve index → its slot's position + 1 */
  GHashTable *extents;            /* curve index → Extents, of the curves framed */
  TressCurveSelection *selection; /* keys and handles, per curve */
  TressCurveGroups *groups;       /* the open groups, shared with the channel list and dope sheet */
  guint n_solo;                   /* shown curves marked solo */
  /* Curve index → a copy of the curve the selection's key indices refer to,
   * so that a change from outside (undo, redo) moves them with their keys.
   * Kept for the curves with selected keys (or the active key) only. */
  GHashTable *seen;
  gboolean committing; /* the view's own edit: it sets the selection itself */
  gboolean has_active;
  guint active_curve;
  guint active_key;

  TressCurveViewport vp;
  gboolean fitted;
  /* The last framing was Frame All (or the automatic one): a resize frames
   * all again. Otherwise a resize keeps the same frames and values in view. */
  gboolean framed_all;
  gboolean normalized;
  gboolean snap;
  gboolean loop;
  gboolean playing;
  TressAxisLock axis_lock;
  double playhead;
  double default_fps; /* when no shown curve says */
  gboolean degrees;   /* angle curves shown in degrees */
  /* What one press of Up moves a key by, in shown units: set, or (0) a tenth
   * of the value grid's spacing; the last automatic one told, and the idle
   * that tells a new one. */
  double nudge_step, nudge_told;
  guint nudge_idle;
  double tolerance;
  char *message;
  /* During a drag: the largest quantization error the format would give the
   * dragged curves (its preview_error), or -1 when not known. */
  double drag_error;
  double drag_error_scale; /* the display scale of the curve it comes from */
  gint64 drag_error_time;  /* when it was last worked out (monotonic µs) */

  DragKind drag;
  gboolean drag_started;
  gboolean drag_shift;
  double drag_x0, drag_y0, drag_x, drag_y;
  double drag_df, drag_dv; /* the keys' move so far (frames, shown units) */
  Sel drag_hit;

  double pointer_x, pointer_y;

  GtkWidget *ruler; /* TressCurveRuler, a child along the bottom */

  /* The painted lines (-snapshot.c): of the curves no drag moves, and of
   * the drag's copies; which of them are current (LINES_STILL,
   * LINES_MOVING), for which size. */
  GskRenderNode *still_node;
  GskRenderNode *moving_node;
  guint lines_valid;
  int lines_width, lines_height;

  /* Curve index → another version of the curve (another file's, the saved
   * file's), drawn as a ghost behind the shown one. */
  GHashTable *ghosts;
  char *ghost_label; /* what the legend calls the other version, or NULL */

  /* Keys set to "broken" tangents, as "curve:frame": formats that compute the
   * flag from the slopes (in ≠ out) forget it while the slopes are still equal. */
  GHashTable *broken;

  /* The last edit refused only because keys moved past the animation's end:
   * kept so the editor can offer to lengthen the animation and apply it. */
  char *pending_label;
  GPtrArray *pending_curves; /* TressCurve */
  GArray *pending_indices;   /* guint: document curve index */
  GArray *pending_past_end;  /* gboolean: this curve needs the longer animation */
  double pending_end;
  /* The last key edit refused only because its frame lies between the frames
   * the curve stores, where a wider frame type holds it: the editor asks
   * before widening (it grows the file). */
  gboolean frames_offer;
  guint frames_curve, frames_key;
  TressKey frames_value;
  char *frames_cost;
  /* Or an edit of any kind whose keys reach frames the curves' frame types
   * cannot store at all (u8 past 255): its curves, kept to apply after
   * widening (frames_curves non-NULL). */
  char *frames_label;
  GPtrArray *frames_curves; /* TressCurve */
  GArray *frames_indices;   /* guint: document curve index */
  GPtrArray *frames_keys;   /* GArray of guint: the keys to select afterwards */
  /* An edit whose store would move keys it left alone (a coarser step for a
   * quantized curve), kept while the user is asked: its batch, its label, and
   * the curves that would move; and the question on screen. */
  TressCurveEditBatch *lossy_batch;
  char *lossy_label;
  GArray *lossy_curves; /* guint: document curve index */
  GtkWidget *lossy_dialog;

  /* The undo label the next edit takes instead of its own (a paste names
   * where it went), borrowed while the edit runs. */
  const char *edit_label;

  /* The "curve" actions (-actions.c). */
  GSimpleActionGroup *actions;

  /* The right-click menu, while it exists, and where it was asked for. */
  GtkWidget *context_menu;

  guint tick_id;
  gint64 play_start_time;
  double play_start_frame;
};

enum
{
  PROP_0,
  PROP_DOCUMENT,
  PROP_NORMALIZED,
  PROP_SNAP,
  PROP_AXIS_LOCK,
  PROP_PLAYHEAD,
  PROP_PLAYING,
  PROP_LOOP,
  PROP_MESSAGE,
  PROP_TOLERANCE,
  PROP_DRAG_ERROR,
  PROP_DEFAULT_FPS,
  PROP_DEGREES,
  PROP_NUDGE_STEP,
  N_PROPS
};

enum
{
  SIGNAL_SELECTION_CHANGED,
  SIGNAL_CURVES_CHANGED,
  SIGNAL_DRAG_UPDATE,
  SIGNAL_PLAY_RANGE_CHANGED,
  N_SIGNALS
};

typedef enum
{
  TARGET_SELECTED, /* curves with selected keys */
  TARGET_CURVES,   /* curves with selected keys, else the active curve, else every shown one */
  TARGET_HIT,      /* the curve of the key or handle the pointer took */
} Target;

typedef struct
{
  char *first;
  guint n;
} Notices;

/* Adapts @edit to one target curve (its units, its share of a paste); FALSE
 * leaves the curve out. @rank counts the targets before it. */
typedef gboolean (*PrepareFunc) (TressCurveView *self, Slot *slot, guint rank, TressCurveEdit *edit,
                                 gpointer data);

extern GParamSpec *_tress_curve_view_props[N_PROPS];
extern guint _tress_curve_view_signals[N_SIGNALS];

/* tress-curve-view.c */
void _tress_curve_view_set_message (TressCurveView *self, const char *message);
Slot *_tress_curve_view_slot_for (TressCurveView *self, guint curve_index);
const TressCurve *_tress_curve_view_slot_curve (TressCurveView *self, const Slot *s);
gboolean _tress_curve_view_slot_shown (TressCurveView *self, const Slot *s);
double _tress_curve_view_unit_scale (TressCurveView *self, const TressCurve *c);
TressValueMap _tress_curve_view_slot_map (TressCurveView *self, const Slot *s);
TressCurveLayer *_tress_curve_view_build_layers (TressCurveView *self);
void _tress_curve_view_invalidate_lines (TressCurveView *self);
void _tress_curve_view_invalidate_moving_lines (TressCurveView *self);
void _tress_curve_view_emit_selection_changed (TressCurveView *self);
double _tress_curve_view_frame_grid (const TressCurve *c);

/* tress-curve-view-selection.c */
gboolean _tress_curve_view_sel_has (TressCurveView *self, guint curve, guint key,
                                    TressCurvePart part);
void _tress_curve_view_sel_see (TressCurveView *self, guint curve);
void _tress_curve_view_sel_add (TressCurveView *self, guint curve, guint key, TressCurvePart part);
void _tress_curve_view_sel_clear (TressCurveView *self);
void _tress_curve_view_set_active (TressCurveView *self, guint curve, guint key);
GArray *_tress_curve_view_selected_keys_of (TressCurveView *self, guint curve);
void _tress_curve_view_replace_curve_selection (TressCurveView *self, guint curve, GArray *keys);
void _tress_curve_view_see_curve (TressCurveView *self, guint index);
void _tress_curve_view_follow_keys (TressCurveView *self, guint index);
void _tress_curve_view_prune_curve_selection (TressCurveView *self, guint curve);
void _tress_curve_view_prune_selection (TressCurveView *self);
guint _tress_curve_view_count_selected_keys (TressCurveView *self);
void _tress_curve_view_select_all (TressCurveView *self);

/* tress-curve-view-commands.c */
gboolean _tress_curve_view_move (TressCurveView *self, double d_frame, double d_value);
void _tress_curve_view_extents_free (gpointer extents);
void _tress_curve_view_frame_all (TressCurveView *self, gboolean selected_only);
void _tress_curve_view_step_key (TressCurveView *self, int direction);
void _tress_curve_view_copy (TressCurveView *self);
gboolean _tress_curve_view_paste (TressCurveView *self, gboolean at_playhead);
void _tress_curve_view_nudge (TressCurveView *self, int frames, int steps);
void _tress_curve_view_nudge_stored (TressCurveView *self, int n);
gboolean _tress_curve_view_tell_nudge_step (gpointer data);
void _tress_curve_view_scale (TressCurveView *self, double frame_factor, double value_factor,
                              gboolean at_playhead);
void _tress_curve_view_insert_at (TressCurveView *self, double frame);
void _tress_curve_view_delete (TressCurveView *self);
void _tress_curve_view_duplicate (TressCurveView *self);
void _tress_curve_view_set_interpolation (TressCurveView *self, const char *interp);
void _tress_curve_view_set_tangent (TressCurveView *self, const char *tangent);

/* tress-curve-view-transport.c */
void _tress_curve_view_set_playing (TressCurveView *self, gboolean playing);
void _tress_curve_view_set_play_start (TressCurveView *self);
void _tress_curve_view_set_play_end (TressCurveView *self);
void _tress_curve_view_draw_play_range (TressCurveView *self, GtkSnapshot *snapshot, int width,
                                        int height);

/* tress-curve-view-edits.c */
gboolean _tress_curve_view_slot_is_target (TressCurveView *self, Slot *s, Target target,
                                           gboolean any_selected);
gboolean _tress_curve_view_key_is_broken (TressCurveView *self, guint curve, const TressKey *k);
void _tress_curve_view_add_notice (TressCurveView *self, guint index, Notices *notices);
char *_tress_curve_view_notices_dup_text (const Notices *notices);
gboolean _tress_curve_view_apply_edit (TressCurveView *self, const TressCurveEdit *edit,
                                       guint n_keys, Target target, PrepareFunc prepare,
                                       gpointer data);
gboolean _tress_curve_view_prepare_move (TressCurveView *self, Slot *slot, guint rank,
                                         TressCurveEdit *edit, gpointer data);
gboolean _tress_curve_view_prepare_drag (TressCurveView *self, Slot *slot, guint rank,
                                         TressCurveEdit *edit, gpointer data);

/* tress-curve-view-offers.c */
void _tress_curve_view_clear_pending (TressCurveView *self);
gboolean _tress_curve_view_offer_batch_frame_widening (TressCurveView *self,
                                                       TressCurveEditBatch *batch, guint n_changed,
                                                       const char *label, const char *undo_label);
void _tress_curve_view_offer_lengthen (TressCurveView *self, TressCurveEditBatch *batch,
                                       guint n_changed, const char *label, char *undo_label);
void _tress_curve_view_offer_frame_widening (TressCurveView *self, guint index, guint key,
                                             const TressKey *value);

/* tress-curve-view-input.c */
void _tress_curve_view_init_input (TressCurveView *self);
double _tress_curve_view_drag_tolerance (TressCurveView *self);
void _tress_curve_view_drag_discard (TressCurveView *self);
void _tress_curve_view_pointer_press (TressCurveView *self, double x, double y, gboolean shift);
void _tress_curve_view_pointer_motion (TressCurveView *self, double x, double y,
                                       gboolean invert_snap);
void _tress_curve_view_pointer_release (TressCurveView *self, double x, double y,
                                        gboolean invert_snap);
void _tress_curve_view_popup_context_menu (TressCurveView *self, double x, double y);
gboolean _tress_curve_view_insert_on_curve (TressCurveView *self, double x, double y);
void _tress_curve_view_box_select (TressCurveView *self, double x0, double y0, double x1, double y1,
                                   gboolean extend);

/* tress-curve-view-actions.c */
void _tress_curve_view_class_init_actions (GtkWidgetClass *widget_class);
void _tress_curve_view_init_actions (TressCurveView *self);
void _tress_curve_view_update_actions (TressCurveView *self);

/* tress-curve-view-snapshot.c */
gboolean _tress_curve_view_value_ticks (TressCurveView *self, double height, double *first,
                                        double *step);
void _tress_curve_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot);
void _tress_curve_view_size_allocate (GtkWidget *widget, int width, int height, int baseline);
void _tress_curve_view_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                                int *minimum, int *natural, int *minimum_baseline,
                                int *natural_baseline);

G_END_DECLS
