/* tress-curve-view.c: the graph of one or more animation curves
 *
 * Actions (group "curve."), the ones with a parameter give its GVariant type:
 *   select-all, select-none, select-key (uub: curve, key, extend),
 *   click (ddb: x, y, shift), drag (ddddb: x0, y0, x1, y1, invert snapping),
 *   box-select (ddddb: x0, y0, x1, y1, extend), previous-key, next-key,
 *   move (dd: frames, values), nudge (ii: frames, nudge steps; see
 *   tress_curve_view_get_nudge_step), nudge-stored (i: stored value steps),
 *   scale (ddb: frame factor, value factor, around the playhead),
 *   insert-key (d: frame), insert-on-curve (dd: x, y; a double click),
 *   insert-at-playhead, delete, duplicate, copy,
 *   paste (b: at the playhead), set-interpolation (s), set-tangent (s: auto,
 *   auto-clamped, flat, linear, manual, unified, broken), frame-all,
 *   frame-selected, zoom (dd: frame factor, value factor), pan (dd: pixels),
 *   hide (ub), lock (ub), solo (ub), bake, fit (d: tolerance), goto-frame (d), play,
 *   pause, toggle-play; property actions normalized, snap, loop;
 *   axis-lock (s: none, frame, value).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-view.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "core/tress-curve-edit.h"
#include "formats/tress-curve-commit.h"
#include "tress-curve-paint.h"
#include "tress-curve-selection.h"
#include "tress-curve-store-question.h"

#define HIT_RADIUS 7.0
#define KEY_SIZE 7.0
#define HANDLE_SIZE 5.0
#define DRAG_THRESHOLD 3.0
#define FIT_MARGIN 24.0
/* The strip along the bottom with the frame numbers: click or drag there to
 * move the playhead. */
#define RULER_HEIGHT 20.0

typedef struct
{
  const TressCurveOps *ops;
  const TressCurve *curve;
} LengthenEdit;

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

typedef enum
{
  DRAG_NONE,
  DRAG_KEYS,
  DRAG_HANDLE,
  DRAG_BOX,
  DRAG_PAN,
  DRAG_SCRUB, /* on the frame ruler: the playhead follows */
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

  GskRenderNode *lines_node;
  int lines_width, lines_height;

  /* Curve index → another version of the curve (another file's, the saved
   * file's), drawn as a ghost behind the shown one. */
  GHashTable *ghosts;

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
  N_SIGNALS
};

static GParamSpec *props[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (TressCurveView, tress_curve_view, GTK_TYPE_WIDGET)

/* The clipboard is shared by every view, so keys copy across documents too. */
typedef struct
{
  char *component;
  GArray *keys; /* TressKey, frames relative to the first copied key */
} ClipCurve;

static GPtrArray *clipboard;   /* ClipCurve */
static double clipboard_first; /* the frame the copied keys came from */

static void
clip_curve_free (ClipCurve *c)
{
  g_free (c->component);
  g_array_unref (c->keys);
  g_free (c);
}

/* ------------------------------------------------------------- helpers -- */

static void
set_message (TressCurveView *self, const char *message)
{
  if (g_strcmp0 (self->message, message) == 0)
    return;
  g_free (self->message);
  self->message = g_strdup (message);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_MESSAGE]);
}

static Slot *
slot_for (TressCurveView *self, guint curve_index)
{
  guint at = GPOINTER_TO_UINT (g_hash_table_lookup (self->slot_of, GUINT_TO_POINTER (curve_index)));

  return at > 0 ? &g_array_index (self->slots, Slot, at - 1) : NULL;
}

static const TressCurve *
slot_curve (TressCurveView *self, const Slot *s)
{
  if (s->edit != NULL)
    return s->edit;
  return self->document ? tress_curve_document_get_curve (self->document, s->index) : NULL;
}

/* Drawn and editable: visible, and solo while any curve is. */
static gboolean
slot_shown (TressCurveView *self, const Slot *s)
{
  return s->visible && (self->n_solo == 0 || s->solo);
}

/* What a value of @c is multiplied by to be shown in its unit: 180/π for
 * angles shown in degrees. */
static double
unit_scale (TressCurveView *self, const TressCurve *c)
{
  return self->degrees && c != NULL && c->angle ? 180.0 / G_PI : 1.0;
}

static TressValueMap
slot_map (TressCurveView *self, const Slot *s)
{
  const TressCurve *c = slot_curve (self, s);

  /* During a drag the map stays the one of the drag's start, so keys follow the pointer. */
  if (self->normalized && c != NULL)
    return tress_curve_normalize_map (s->orig != NULL ? s->orig : c);
  if (self->degrees && c != NULL && c->angle)
    return (TressValueMap){ 180.0 / G_PI, 0.0 };
  return TRESS_VALUE_MAP_IDENTITY;
}

static TressCurveLayer *
build_layers (TressCurveView *self)
{
  TressCurveLayer *layers = g_new0 (TressCurveLayer, MAX (self->slots->len, 1));

  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);

      layers[i].curve = slot_curve (self, s);
      layers[i].map = slot_map (self, s);
      layers[i].visible = slot_shown (self, s) && layers[i].curve != NULL;
      layers[i].locked = s->locked;
    }
  return layers;
}

static void
invalidate_lines (TressCurveView *self)
{
  g_clear_pointer (&self->lines_node, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
emit_selection_changed (TressCurveView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SIGNAL_SELECTION_CHANGED], 0);
}

static void see_curve (TressCurveView *self, guint index);

static gboolean
sel_has (TressCurveView *self, guint curve, guint key, TressCurvePart part)
{
  return tress_curve_selection_contains (self->selection, curve, key, part);
}

/* Remembers the curve a newly selected curve's key indices refer to. */
static void
sel_see (TressCurveView *self, guint curve)
{
  if (!g_hash_table_contains (self->seen, GUINT_TO_POINTER (curve)))
    see_curve (self, curve);
}

static void
sel_add (TressCurveView *self, guint curve, guint key, TressCurvePart part)
{
  if (tress_curve_selection_add (self->selection, curve, key, part))
    sel_see (self, curve);
}

static void
sel_clear (TressCurveView *self)
{
  tress_curve_selection_clear (self->selection);
}

static void
set_active (TressCurveView *self, guint curve, guint key)
{
  self->has_active = TRUE;
  self->active_curve = curve;
  self->active_key = key;
  sel_see (self, curve);
}

/* The selected key indices of one curve, sorted. */
static GArray *
selected_keys_of (TressCurveView *self, guint curve)
{
  return tress_curve_selection_dup_keys (self->selection, curve);
}

/* Replaces the selection of @curve by @keys (key parts). */
static void
replace_curve_selection (TressCurveView *self, guint curve, GArray *keys)
{
  tress_curve_selection_set_keys (self->selection, curve, (const guint *)keys->data, keys->len);
  if (keys->len > 0)
    sel_see (self, curve);
  if (self->has_active && self->active_curve == curve)
    {
      if (keys->len > 0)
        self->active_key = g_array_index (keys, guint, 0);
      else
        self->has_active = FALSE;
    }
}

/* Drops the selected items of @curve that no longer exist (after a change of the curve). */
static void
prune_curve_selection (TressCurveView *self, guint curve)
{
  Slot *slot = slot_for (self, curve);
  const TressCurve *c = slot ? slot_curve (self, slot) : NULL;

  tress_curve_selection_prune (self->selection, curve, c);
  if (self->has_active && self->active_curve == curve
      && (c == NULL || self->active_key >= tress_curve_get_n_keys (c)))
    self->has_active = FALSE;
}

/* The same for every curve. */
static void
prune_selection (TressCurveView *self)
{
  g_autoptr (GArray) curves = tress_curve_selection_dup_curves (self->selection);

  for (guint i = 0; i < curves->len; i++)
    prune_curve_selection (self, g_array_index (curves, guint, i));
  if (self->has_active)
    prune_curve_selection (self, self->active_curve);
}

/* A "nice" step (1, 2 or 5 × 10^n) near @span / @divisions. */
static double
nice_step (double span, double divisions)
{
  double raw = span / divisions;
  double p, m;

  if (!(raw > 0) || !isfinite (raw))
    return 1;
  p = pow (10, floor (log10 (raw)));
  m = raw / p;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

static double
frame_grid (const TressCurve *c)
{
  return c != NULL && c->limits.frame_step > 0 ? c->limits.frame_step : 0;
}

/* --------------------------------------------------------------- edits -- */

typedef enum
{
  TARGET_SELECTED, /* curves with selected keys */
  TARGET_CURVES,   /* curves with selected keys, else the active curve, else every shown one */
  TARGET_HIT,      /* the curve of the key or handle the pointer took */
} Target;

static gboolean
slot_is_target (TressCurveView *self, Slot *s, Target target, gboolean any_selected)
{
  g_autoptr (GArray) keys = NULL;

  if (s->locked || !slot_shown (self, s))
    return FALSE;
  if (target == TARGET_HIT)
    return s->index == self->drag_hit.curve;
  keys = selected_keys_of (self, s->index);
  if (keys->len > 0)
    return TRUE;
  if (target == TARGET_SELECTED || any_selected)
    return FALSE;
  if (self->has_active)
    return s->index == self->active_curve;
  return TRUE;
}

static void
clear_pending (TressCurveView *self)
{
  g_clear_pointer (&self->pending_label, g_free);
  g_clear_pointer (&self->pending_curves, g_ptr_array_unref);
  g_clear_pointer (&self->pending_indices, g_array_unref);
  g_clear_pointer (&self->pending_past_end, g_array_unref);
  self->pending_end = 0;
  self->frames_offer = FALSE;
  g_clear_pointer (&self->frames_cost, g_free);
  g_clear_pointer (&self->frames_label, g_free);
  g_clear_pointer (&self->frames_curves, g_ptr_array_unref);
  g_clear_pointer (&self->frames_indices, g_array_unref);
  g_clear_pointer (&self->frames_keys, g_ptr_array_unref);
  g_clear_pointer (&self->lossy_batch, tress_curve_edit_batch_free);
  g_clear_pointer (&self->lossy_label, g_free);
  g_clear_pointer (&self->lossy_curves, g_array_unref);
}

/* The first frame of @c's first or last key that curve @index's frame type
 * cannot store although a wider one can, with what widening costs; NULL when
 * none. */
static char *
dup_frames_beyond (TressCurveView *self, guint index, const TressCurve *c, double *frame)
{
  const TressCurveOps *ops = tress_document_get_format (TRESS_DOCUMENT (self->document))->curves;
  gpointer model = tress_document_get_model (TRESS_DOCUMENT (self->document));
  guint n = tress_curve_get_n_keys (c);

  if (ops == NULL || ops->describe_frame_widening == NULL || ops->widen_frames == NULL || n == 0)
    return NULL;
  for (guint e = 0; e < 2; e++)
    {
      double f = tress_curve_get_key (c, e == 0 ? 0 : n - 1)->frame;
      char *cost = ops->describe_frame_widening (model, index, f);

      if (cost != NULL)
        {
          *frame = f;
          return cost;
        }
    }
  return NULL;
}

/* Before an edit is stored: when its keys reach frames a curve's frame type
 * cannot store at all (the format would have to widen it and grow the file),
 * the edit is refused with the cost and kept for
 * tress_curve_view_commit_frame_widening(). TRUE when so. */
static gboolean
offer_batch_frame_widening (TressCurveView *self, TressCurveEditBatch *batch, guint n_changed,
                            const char *label, const char *undo_label)
{
  g_autofree char *cost = NULL, *msg = NULL;
  double frame = 0;
  guint n_need = 0;

  for (guint i = 0; i < n_changed; i++)
    {
      double f = 0;
      g_autofree char *c = dup_frames_beyond (self, tress_curve_edit_batch_get_id (batch, i),
                                              tress_curve_edit_batch_get_curve (batch, i), &f);

      if (c != NULL && n_need++ == 0)
        {
          cost = g_steal_pointer (&c);
          frame = f;
        }
    }
  if (n_need == 0)
    return FALSE;
  self->frames_offer = TRUE;
  self->frames_label = g_strdup (undo_label);
  self->frames_curves = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_curve_unref);
  self->frames_indices = g_array_new (FALSE, FALSE, sizeof (guint));
  self->frames_keys = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  for (guint i = 0; i < n_changed; i++)
    {
      guint index = tress_curve_edit_batch_get_id (batch, i);

      g_ptr_array_add (self->frames_curves,
                       tress_curve_ref (tress_curve_edit_batch_get_curve (batch, i)));
      g_array_append_val (self->frames_indices, index);
      g_ptr_array_add (self->frames_keys, g_array_ref (tress_curve_edit_batch_get_keys (batch, i)));
    }
  if (n_need == 1)
    self->frames_cost = g_steal_pointer (&cost);
  else
    self->frames_cost = g_strdup_printf (
        /* TRANSLATORS: %s says what widening one curve's frames costs */
        ngettext ("%s (and %u other curve)", "%s (and %u other curves)", n_need - 1), cost,
        n_need - 1);
  msg = g_strdup_printf (
      /* TRANSLATORS: the first %s is an edit ("Move 2 keys"), the last what a wider frame type
       * costs */
      _ ("%s refused: a key would reach frame %g, beyond the frames this curve's frame type "
         "stores; a wider frame type would hold it (%s)"),
      label, frame, self->frames_cost);
  g_clear_pointer (&self->message, g_free);
  set_message (self, msg);
  gtk_widget_error_bell (GTK_WIDGET (self));
  return TRUE;
}

static char *
broken_id (guint curve, double frame)
{
  return g_strdup_printf ("%u:%.9g", curve, frame);
}

static gboolean
key_is_broken (TressCurveView *self, guint curve, const TressKey *k)
{
  g_autofree char *id = NULL;

  if (k->flags & TRESS_KEY_BROKEN)
    return TRUE;
  id = broken_id (curve, k->frame);
  return g_hash_table_contains (self->broken, id);
}

typedef struct
{
  char *first;
  guint n;
} Notices;

/* Where a batch edit stores its curves: the document, in one undo step,
 * each through the commit rules (tress-curve-commit.h). The curves in @lossy
 * would move keys the edit left alone: they get @lossy_consent (a coarser
 * step or a wider type, as the user answered); the others were found not to
 * (REQUANTIZE then costs nothing and spares a second look). */
typedef struct
{
  TressCurveView *view;
  TressCurveDocument *document;
  const char *label;
  Notices *notices;
  GArray *lossy; /* guint, or NULL */
  TressCommitConsent lossy_consent;
} Store;

/* Takes note of what the format's last store of curve @index changed beyond
 * the values it was given (a new scale, a wider type): the first such remark,
 * in the unit the curve is shown in, and how many. */
static void
add_notice (TressCurveView *self, guint index, Notices *notices)
{
  TressCurveDocument *document = self->document;
  const TressCurveOps *ops = tress_document_get_format (TRESS_DOCUMENT (document))->curves;
  g_autofree char *raw = NULL, *notice = NULL;
  double scale;

  if (ops == NULL || ops->dup_notice == NULL)
    return;
  raw = ops->dup_notice (tress_document_get_model (TRESS_DOCUMENT (document)));
  scale = unit_scale (self, tress_curve_document_get_curve (document, index));
  notice = tress_notice_render (raw, scale, scale != 1 ? "°" : "");
  if (notice == NULL || notice[0] == '\0')
    return;
  if (notices->n++ == 0)
    notices->first = g_steal_pointer (&notice);
}

/* One line however many curves an edit changed: the first remark, and a count
 * of the others. NULL when none. */
static char *
notices_dup_text (const Notices *notices)
{
  if (notices->n == 0)
    return NULL;
  if (notices->n == 1)
    return g_strdup (notices->first);
  return g_strdup_printf (
      /* TRANSLATORS: %s is what an edit changed in one curve beyond the values asked for */
      ngettext ("%s (and %u other curve)", "%s (and %u other curves)", notices->n - 1),
      notices->first, notices->n - 1);
}

static const TressCurve *
store_get (gpointer data, guint index)
{
  return tress_curve_document_get_curve (((Store *)data)->document, index);
}

static gboolean
store_set (gpointer data, guint index, const TressCurve *curve, GError **error)
{
  Store *store = data;
  TressCommitConsent consent = TRESS_COMMIT_REQUANTIZE;

  for (guint i = 0; store->lossy != NULL && i < store->lossy->len; i++)
    if (g_array_index (store->lossy, guint, i) == index)
      consent = store->lossy_consent;
  if (!tress_curve_document_commit_curve (store->document, index, curve, consent, store->label,
                                          error))
    return FALSE;
  add_notice (store->view, index, store->notices);
  return TRUE;
}

/* Adapts @edit to one target curve (its units, its share of a paste); FALSE
 * leaves the curve out. @rank counts the targets before it. */
typedef gboolean (*PrepareFunc) (TressCurveView *self, Slot *slot, guint rank, TressCurveEdit *edit,
                                 gpointer data);

static void
refuse (TressCurveView *self, const char *label, const GError *error)
{
  g_autofree char *msg = g_strdup_printf (_ ("%s refused: %s"), label, error->message);

  set_message (self, msg);
  gtk_widget_error_bell (GTK_WIDGET (self));
}

/* Stores the curves of @batch in the document as one undo step labelled
 * @undo_label (those in @lossy with @lossy_consent), selects the keys the
 * edit names and says what the format changed beyond the edit. */
static gboolean
commit_batch (TressCurveView *self, TressCurveEditBatch *batch, const char *label,
              const char *undo_label, GArray *lossy, TressCommitConsent lossy_consent)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *notice = NULL;
  Notices notices = { NULL, 0 };
  Store store = { self, self->document, undo_label, &notices, lossy, lossy_consent };
  guint n_changed = tress_curve_edit_batch_get_n_changed (batch), n_stored = 0;

  tress_curve_document_begin_edit (self->document, undo_label);
  self->committing = TRUE;
  if (!tress_curve_edit_batch_commit (batch, store_get, store_set, &store, &n_stored, &error))
    {
      /* What was committed before the refusal is taken back. */
      tress_curve_document_cancel_edit (self->document);
      self->committing = FALSE;
      g_free (notices.first);
      refuse (self, label, error);
      prune_selection (self);
      emit_selection_changed (self);
      return FALSE;
    }
  tress_curve_document_end_edit (self->document);
  self->committing = FALSE;
  for (guint i = 0; i < n_changed; i++)
    replace_curve_selection (self, tress_curve_edit_batch_get_id (batch, i),
                             tress_curve_edit_batch_get_keys (batch, i));
  /* The edit is done; what the format changed beyond it is said. */
  notice = notices_dup_text (&notices);
  g_free (notices.first);
  set_message (self, notice);
  prune_selection (self);
  emit_selection_changed (self);
  return n_stored > 0;
}

static void
lossy_answered (TressStoreChoice choice, gpointer data)
{
  TressCurveView *self = data;
  g_autoptr (TressCurveEditBatch) batch = g_steal_pointer (&self->lossy_batch);
  g_autoptr (GArray) curves = g_steal_pointer (&self->lossy_curves);
  g_autofree char *label = g_steal_pointer (&self->lossy_label);

  self->lossy_dialog = NULL;
  if (batch == NULL || self->document == NULL)
    ;
  else if (choice == TRESS_STORE_CANCEL)
    {
      g_autofree char *msg = g_strdup_printf (_ ("%s cancelled: nothing changed"), label);

      set_message (self, msg);
    }
  else
    commit_batch (self, batch, label, label, curves,
                  choice == TRESS_STORE_WIDEN ? TRESS_COMMIT_WIDEN_VALUES
                                              : TRESS_COMMIT_REQUANTIZE);
  invalidate_lines (self);
  g_object_unref (self);
}

/* When storing @batch would move keys the edit left alone by more than half
 * their step (a value outside a quantized curve's stored range), asks first:
 * the batch is kept (taken from *@batch) and TRUE returned; the answer commits
 * it with the coarser step, in the wider type, or not at all. */
static gboolean
ask_before_lossy_store (TressCurveView *self, TressCurveEditBatch **batch, const char *label,
                        const char *undo_label)
{
  g_autoptr (GArray) lossy = g_array_new (FALSE, FALSE, sizeof (guint));
  TressStoreCost first = { 0 };
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  const TressCurve *shown = NULL;
  double worst = -1;

  for (guint i = 0; i < tress_curve_edit_batch_get_n_changed (*batch); i++)
    {
      guint index = tress_curve_edit_batch_get_id (*batch, i);
      TressStoreCost cost;

      if (!tress_curve_document_preview_store (self->document, index,
                                               tress_curve_edit_batch_get_curve (*batch, i), &cost))
        continue;
      if (tress_store_cost_is_lossy (&cost))
        {
          g_array_append_val (lossy, index);
          /* The curve whose other keys move most speaks for all. */
          if (cost.moved > worst)
            {
              worst = cost.moved;
              tress_store_cost_clear (&first);
              first = cost;
              shown = tress_curve_document_get_curve (self->document, index);
              continue;
            }
        }
      tress_store_cost_clear (&cost);
    }
  if (lossy->len == 0)
    return FALSE;
  self->lossy_batch = g_steal_pointer (batch);
  self->lossy_label = g_strdup (undo_label);
  self->lossy_curves = g_steal_pointer (&lossy);
  {
    double scale = unit_scale (self, shown);

    self->lossy_dialog = tress_curve_store_question_present (
        GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, label,
        shown != NULL && shown->path != NULL ? shown->path : "", self->lossy_curves->len, &first,
        scale, scale != 1 ? "°" : "", lossy_answered, g_object_ref (self));
  }
  tress_store_cost_clear (&first);
  return TRUE;
}

/* Runs @edit (asked for @n_keys keys, which its label counts) on every target
 * curve and commits the changed ones as one undo step; nothing is committed if
 * any curve refuses (see TressCurveEditBatch). An edit refused only because
 * keys would pass the animation's end is kept, for the editor to offer a
 * longer animation. */
static gboolean
apply_edit (TressCurveView *self, const TressCurveEdit *edit, guint n_keys, Target target,
            PrepareFunc prepare, gpointer data)
{
  g_autoptr (TressCurveEditBatch) batch = tress_curve_edit_batch_new ();
  g_autofree char *label = tress_curve_edit_dup_label (edit, n_keys);
  g_autofree char *undo_label = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) targets = g_array_new (FALSE, FALSE, sizeof (guint));
  gboolean any_selected = FALSE;
  gboolean ok = TRUE;
  guint rank = 0, n_changed;

  if (self->document == NULL)
    return FALSE;
  clear_pending (self);
  any_selected = tress_curve_selection_get_n_keys (self->selection) > 0;

  for (guint i = 0; i < self->slots->len && ok; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);
      const TressCurve *current;
      g_autoptr (GArray) keys = NULL;
      TressCurveEdit e = *edit;

      if (!slot_is_target (self, s, target, any_selected))
        continue;
      current = tress_curve_document_get_curve (self->document, s->index);
      if (current == NULL)
        continue;
      if (prepare != NULL && !prepare (self, s, rank++, &e, data))
        continue;
      keys = selected_keys_of (self, s->index);
      ok = tress_curve_edit_batch_add (batch, s->index, current, (const guint *)keys->data,
                                       keys->len, &e, &error);
      g_array_append_val (targets, s->index);
    }
  if (!ok)
    {
      refuse (self, label, error);
      return FALSE;
    }
  if (edit->kind == TRESS_CURVE_EDIT_TANGENT)
    {
      /* Formats that compute "broken" from the slopes (in ≠ out) forget it
       * while they are equal: the view remembers it. */
      for (guint i = 0; i < targets->len; i++)
        {
          guint index = g_array_index (targets, guint, i);
          const TressCurve *c = tress_curve_document_get_curve (self->document, index);
          g_autoptr (GArray) keys = selected_keys_of (self, index);

          for (guint k = 0; k < keys->len; k++)
            {
              char *id = broken_id (index,
                                    tress_curve_get_key (c, g_array_index (keys, guint, k))->frame);

              if (edit->tangent == TRESS_TANGENT_EDIT_BROKEN)
                g_hash_table_add (self->broken, id);
              else
                {
                  g_hash_table_remove (self->broken, id);
                  g_free (id);
                }
            }
        }
    }
  n_changed = tress_curve_edit_batch_get_n_changed (batch);
  if (n_changed == 0)
    return FALSE;
  undo_label = tress_curve_edit_batch_dup_label (batch, n_keys);
  if (tress_curve_edit_batch_get_end (batch) > 0)
    {
      g_autofree char *msg = NULL, *widen = NULL;

      self->pending_label = g_steal_pointer (&undo_label);
      self->pending_curves = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_curve_unref);
      self->pending_indices = g_array_new (FALSE, FALSE, sizeof (guint));
      self->pending_past_end = g_array_new (FALSE, FALSE, sizeof (gboolean));
      for (guint i = 0; i < n_changed; i++)
        {
          guint index = tress_curve_edit_batch_get_id (batch, i);
          gboolean past = tress_curve_edit_batch_get_past_end (batch, i);

          g_ptr_array_add (self->pending_curves,
                           tress_curve_ref (tress_curve_edit_batch_get_curve (batch, i)));
          g_array_append_val (self->pending_indices, index);
          g_array_append_val (self->pending_past_end, past);
        }
      self->pending_end = tress_curve_edit_batch_get_end (batch);
      /* Lengthening stores the keys as they are; where a curve's frame
       * type cannot hold them the format widens it, which is said here,
       * before it is asked for. */
      for (guint i = 0; i < n_changed && widen == NULL; i++)
        {
          double f = 0;

          widen = dup_frames_beyond (self, tress_curve_edit_batch_get_id (batch, i),
                                     tress_curve_edit_batch_get_curve (batch, i), &f);
        }
      if (widen != NULL)
        msg = g_strdup_printf (
            /* TRANSLATORS: the last %s says what a wider frame type costs */
            _ ("%s refused: a key would move past the end of the animation; it can be "
               "lengthened to %g frames, with wider frames (%s)"),
            label, self->pending_end, widen);
      else
        msg = g_strdup_printf (_ ("%s refused: a key would move past the end of the animation; "
                                  "it can be lengthened to %g frames"),
                               label, self->pending_end);
      set_message (self, msg);
      gtk_widget_error_bell (GTK_WIDGET (self));
      return FALSE;
    }

  if (offer_batch_frame_widening (self, batch, n_changed, label, undo_label))
    return FALSE;
  if (ask_before_lossy_store (self, &batch, label, undo_label))
    return FALSE;
  return commit_batch (self, batch, label, undo_label, NULL, 0);
}

/* Moves are asked for in shown units: the normalized view scales each curve. */
static gboolean
prepare_move (TressCurveView *self, Slot *slot, guint rank, TressCurveEdit *edit, gpointer data)
{
  TressValueMap map = slot_map (self, slot);

  edit->d_value /= map.scale != 0 ? map.scale : 1;
  return TRUE;
}

/* A drag's move in each curve's units, worked out while the drag's copies were
 * there (@data: a double per slot). */
static gboolean
prepare_drag (TressCurveView *self, Slot *slot, guint rank, TressCurveEdit *edit, gpointer data)
{
  edit->d_value = ((const double *)data)[slot - &g_array_index (self->slots, Slot, 0)];
  return TRUE;
}

/* One copied curve goes into every target; several go by component, else in order. */
static gboolean
prepare_paste (TressCurveView *self, Slot *slot, guint rank, TressCurveEdit *edit, gpointer data)
{
  const TressCurve *c = tress_curve_document_get_curve (self->document, slot->index);
  ClipCurve *src = NULL;

  if (clipboard == NULL || clipboard->len == 0)
    return FALSE;
  if (clipboard->len == 1)
    src = clipboard->pdata[0];
  else
    {
      for (guint i = 0; i < clipboard->len && src == NULL; i++)
        {
          ClipCurve *cc = clipboard->pdata[i];
          if (cc->component != NULL && c->component != NULL && cc->component[0] != '\0'
              && g_strcmp0 (cc->component, c->component) == 0)
            src = cc;
        }
      if (src == NULL && rank < clipboard->len)
        src = clipboard->pdata[rank];
    }
  if (src == NULL)
    return FALSE;
  edit->src = (const TressKey *)src->keys->data;
  edit->n_src = src->keys->len;
  return TRUE;
}

/* ------------------------------------------------------------ commands -- */

static guint
count_selected_keys (TressCurveView *self)
{
  return tress_curve_selection_get_n_keys (self->selection);
}

static gboolean
view_move (TressCurveView *self, double d_frame, double d_value)
{
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_MOVE, .d_frame = d_frame, .d_value = d_value };

  if (count_selected_keys (self) == 0)
    return FALSE;
  return apply_edit (self, &e, count_selected_keys (self), TARGET_SELECTED, prepare_move, NULL);
}

/* Where a curve's keys and drawn shape lie, in stored values. */
typedef struct
{
  TressCurve *curve; /* the version they were found for (a reference) */
  double fmin, fmax, vmin, vmax;
} Extents;

static void
extents_free (Extents *e)
{
  tress_curve_unref (e->curve);
  g_free (e);
}

/* The extents of @index's curve @c, found once per version of it: framing a
 * whole file again (every new selection is framed) costs a lookup a curve
 * instead of a walk over every key. */
static const Extents *
curve_extents (TressCurveView *self, guint index, const TressCurve *c)
{
  Extents *e = g_hash_table_lookup (self->extents, GUINT_TO_POINTER (index));
  guint n = tress_curve_get_n_keys (c);

  if (e != NULL && e->curve == c)
    return e;
  e = g_new (Extents, 1);
  e->curve = tress_curve_ref ((TressCurve *)c);
  e->fmin = e->vmin = G_MAXDOUBLE;
  e->fmax = e->vmax = -G_MAXDOUBLE;
  for (guint k = 0; k < n; k++)
    {
      const TressKey *key = tress_curve_get_key (c, k);

      e->fmin = MIN (e->fmin, key->frame);
      e->fmax = MAX (e->fmax, key->frame);
      e->vmin = MIN (e->vmin, key->value);
      e->vmax = MAX (e->vmax, key->value);
      /* The drawn shape between keys counts too. */
      if (key->interp == TRESS_INTERP_HERMITE && k + 1 < n)
        for (int q = 1; q < 4; q++)
          {
            double f = key->frame + (tress_curve_get_key (c, k + 1)->frame - key->frame) * q / 4;
            double sv = tress_curve_geometry_segment_value (c, k, f);

            e->vmin = MIN (e->vmin, sv);
            e->vmax = MAX (e->vmax, sv);
          }
    }
  g_hash_table_replace (self->extents, GUINT_TO_POINTER (index), e);
  return e;
}

static void
view_frame_all (TressCurveView *self, gboolean selected_only)
{
  double fmin = G_MAXDOUBLE, fmax = -G_MAXDOUBLE, vmin = G_MAXDOUBLE, vmax = -G_MAXDOUBLE;
  gboolean any = FALSE;

  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);
      const TressCurve *c = slot_curve (self, s);
      TressValueMap map = slot_map (self, s);
      guint n;

      if (c == NULL || !slot_shown (self, s))
        continue;
      n = tress_curve_get_n_keys (c);
      if (!selected_only)
        {
          const Extents *e;
          double a, b;

          if (n == 0)
            continue;
          e = curve_extents (self, s->index, c);
          a = e->vmin * map.scale + map.offset;
          b = e->vmax * map.scale + map.offset;
          fmin = MIN (fmin, e->fmin);
          fmax = MAX (fmax, e->fmax);
          vmin = MIN (vmin, MIN (a, b));
          vmax = MAX (vmax, MAX (a, b));
          any = TRUE;
          continue;
        }
      for (guint k = 0; k < n; k++)
        {
          const TressKey *key = tress_curve_get_key (c, k);
          double v;

          if (!sel_has (self, s->index, k, TRESS_CURVE_PART_KEY))
            continue;
          v = key->value * map.scale + map.offset;
          fmin = MIN (fmin, key->frame);
          fmax = MAX (fmax, key->frame);
          vmin = MIN (vmin, v);
          vmax = MAX (vmax, v);
          any = TRUE;
        }
    }
  if (!any)
    {
      if (selected_only)
        view_frame_all (self, FALSE);
      return;
    }
  {
    /* The frame ruler covers the bottom rows: the keys fit above it. */
    TressCurveViewport fit = self->vp;

    fit.height = MAX (1, self->vp.height - RULER_HEIGHT);
    tress_curve_viewport_fit (&fit, fmin, fmax, vmin, vmax, FIT_MARGIN);
    self->vp.frame_min = fit.frame_min;
    self->vp.frame_max = fit.frame_max;
    self->vp.value_max = fit.value_max;
    self->vp.value_min
        = fit.value_min
          - (fit.value_max - fit.value_min) / fit.height * (self->vp.height - fit.height);
  }
  self->fitted = TRUE;
  invalidate_lines (self);
}

static void
view_set_playhead (TressCurveView *self, double frame)
{
  if (!isfinite (frame) || frame == self->playhead)
    return;
  self->playhead = frame;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_PLAYHEAD]);
}

static void
view_step_key (TressCurveView *self, int direction)
{
  /* The nearest key of the shown curves before or after the playhead; the
   * playhead jumps there and, with one curve, the key becomes the selection. */
  double best = direction > 0 ? G_MAXDOUBLE : -G_MAXDOUBLE;
  int best_slot = -1, best_key = -1;

  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);
      const TressCurve *c = slot_curve (self, s);
      guint n, lb;

      if (c == NULL || !slot_shown (self, s) || (n = tress_curve_get_n_keys (c)) == 0)
        continue;
      lb = tress_curve_lower_bound (c, self->playhead);
      if (direction > 0)
        {
          while (lb < n && tress_curve_get_key (c, lb)->frame <= self->playhead + 1e-9)
            lb++;
          if (lb < n && tress_curve_get_key (c, lb)->frame < best)
            best = tress_curve_get_key (c, lb)->frame, best_slot = (int)i, best_key = (int)lb;
        }
      else if (lb > 0 && tress_curve_get_key (c, lb - 1)->frame > best)
        best = tress_curve_get_key (c, lb - 1)->frame, best_slot = (int)i, best_key = (int)lb - 1;
    }
  if (best_slot < 0)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  view_set_playhead (self, best);
  if (!g_array_index (self->slots, Slot, best_slot).locked)
    {
      guint idx = g_array_index (self->slots, Slot, best_slot).index;

      sel_clear (self);
      sel_add (self, idx, (guint)best_key, TRESS_CURVE_PART_KEY);
      set_active (self, idx, (guint)best_key);
      emit_selection_changed (self);
    }
}

static void
view_copy (TressCurveView *self)
{
  double first = G_MAXDOUBLE;
  g_autoptr (GPtrArray) clip = g_ptr_array_new_with_free_func ((GDestroyNotify)clip_curve_free);

  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);
      g_autoptr (GArray) keys = selected_keys_of (self, s->index);
      const TressCurve *c = slot_curve (self, s);
      ClipCurve *cc;

      if (keys->len == 0 || c == NULL)
        continue;
      cc = g_new0 (ClipCurve, 1);
      cc->component = g_strdup (c->component);
      cc->keys = g_array_new (FALSE, FALSE, sizeof (TressKey));
      for (guint k = 0; k < keys->len; k++)
        {
          const TressKey *key = tress_curve_get_key (c, g_array_index (keys, guint, k));
          g_array_append_val (cc->keys, *key);
          first = MIN (first, key->frame);
        }
      g_ptr_array_add (clip, cc);
    }
  if (clip->len == 0)
    {
      set_message (self, _ ("Nothing to copy: select keys first"));
      return;
    }
  for (guint i = 0; i < clip->len; i++)
    {
      ClipCurve *cc = clip->pdata[i];
      for (guint k = 0; k < cc->keys->len; k++)
        g_array_index (cc->keys, TressKey, k).frame -= first;
    }
  /* Pasting in place puts the keys back at the frame they came from. */
  g_clear_pointer (&clipboard, g_ptr_array_unref);
  clipboard = g_steal_pointer (&clip);
  clipboard_first = first;
  {
    g_autofree char *msg = NULL;
    guint n = 0;
    for (guint i = 0; i < clipboard->len; i++)
      n += ((ClipCurve *)clipboard->pdata[i])->keys->len;
    msg = g_strdup_printf (ngettext ("Copied %u key", "Copied %u keys", n), n);
    set_message (self, msg);
  }
}

static gboolean
view_paste (TressCurveView *self, gboolean at_playhead)
{
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_PASTE };
  guint n = 0;

  if (clipboard == NULL || clipboard->len == 0)
    {
      set_message (self, _ ("Nothing to paste: copy keys first"));
      return FALSE;
    }
  /* In place, the keys go back to the frame they came from. */
  e.d_frame = at_playhead ? self->playhead : clipboard_first;
  for (guint i = 0; i < clipboard->len; i++)
    n += ((ClipCurve *)clipboard->pdata[i])->keys->len;
  return apply_edit (self, &e, n, TARGET_CURVES, prepare_paste, NULL);
}

/* -------------------------------------------------------- pointer / drag -- */

static void insert_at (TressCurveView *self, double frame);

static void
set_drag_error (TressCurveView *self, double error)
{
  if (self->drag_error == error)
    return;
  self->drag_error = error;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_DRAG_ERROR]);
}

double
tress_curve_view_get_tolerance_for (TressCurveView *self, const TressCurve *curve)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 0);
  if (self->tolerance >= 0 || curve == NULL)
    return MAX (self->tolerance, 0);
  return tress_curve_get_precision (curve);
}

/* The error accepted silently for the curves being dragged: the smallest. */
static double
drag_tolerance (TressCurveView *self)
{
  double t = G_MAXDOUBLE;

  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);

      if (s->orig != NULL)
        t = MIN (t, tress_curve_view_get_tolerance_for (self, s->orig));
    }
  return t == G_MAXDOUBLE ? MAX (self->tolerance, 0) : t;
}

double
tress_curve_view_get_drag_tolerance (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 0);
  return drag_tolerance (self);
}

/* The largest quantization error the format would give the dragged curves as
 * they are now, asked of the format without storing anything. */
static void
update_drag_error (TressCurveView *self)
{
  double worst = -1, worst_scale = 1;
  guint n_keys = 0;
  gint64 now = g_get_monotonic_time ();

  /* The format re-encodes whole curves for it: for long curves, at most
   * twenty times a second, not on every pointer motion. */
  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);

      if (s->edit != NULL)
        n_keys += tress_curve_get_n_keys (s->edit);
    }
  if (n_keys > 5000 && self->drag_error >= 0 && now - self->drag_error_time < 50000)
    return;
  self->drag_error_time = now;

  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);
      double e = 0;

      /* Keys that passed each other are refused at the end anyway. */
      if (s->edit == NULL || s->permuted)
        continue;
      if (tress_curve_document_preview_error (self->document, s->index, s->edit, &e, NULL)
          && e > worst)
        {
          worst = e;
          worst_scale = unit_scale (self, s->orig);
        }
    }
  self->drag_error_scale = worst_scale;
  set_drag_error (self, worst);
}

static void
drag_discard (TressCurveView *self)
{
  gboolean had_copies = FALSE;

  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);
      had_copies |= s->edit != NULL;
      g_clear_pointer (&s->edit, tress_curve_unref);
      g_clear_pointer (&s->orig, tress_curve_unref);
      g_clear_pointer (&s->drag_sel, g_array_unref);
      g_clear_pointer (&s->drag_now, g_array_unref);
      s->permuted = FALSE;
    }
  set_drag_error (self, -1);
  if (had_copies)
    g_signal_emit (self, signals[SIGNAL_DRAG_UPDATE], 0);
}

static void
drag_prepare_copies (TressCurveView *self)
{
  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);
      g_autoptr (GArray) keys = selected_keys_of (self, s->index);
      const TressCurve *c;

      if (s->locked || !slot_shown (self, s))
        continue;
      if (keys->len == 0 && !(self->drag == DRAG_HANDLE && self->drag_hit.curve == s->index))
        continue;
      c = tress_curve_document_get_curve (self->document, s->index);
      if (c == NULL)
        continue;
      s->orig = tress_curve_copy (c);
      s->edit = tress_curve_copy (c);
      s->drag_sel = g_array_copy (keys);
      s->drag_now = g_array_copy (keys);
      s->permuted = FALSE;
    }
}

static void scrub_to (TressCurveView *self, double x, gboolean invert_snap);

static void
pointer_press (TressCurveView *self, double x, double y, gboolean shift)
{
  g_autofree TressCurveLayer *layers = build_layers (self);
  TressCurveHit hit;

  self->drag_x0 = self->drag_x = x;
  self->drag_y0 = self->drag_y = y;
  self->drag_started = FALSE;
  self->drag_shift = shift;
  if (y >= gtk_widget_get_height (GTK_WIDGET (self)) - RULER_HEIGHT)
    {
      /* On the frame ruler: the playhead goes there, and follows the drag. */
      self->drag = DRAG_SCRUB;
      self->drag_started = TRUE;
      scrub_to (self, x, FALSE);
      return;
    }
  if (tress_curve_hit_test (layers, self->slots->len, &self->vp, x, y, HIT_RADIUS, TRUE, &hit))
    {
      Slot *s = &g_array_index (self->slots, Slot, hit.layer);
      Sel sel = { s->index, (guint)hit.key, hit.part };

      self->drag_hit = sel;
      if (hit.part == TRESS_CURVE_PART_KEY)
        {
          gboolean at = sel_has (self, sel.curve, sel.key, sel.part);

          if (shift && at)
            {
              /* Shift-click on a selected key takes it out of the selection. */
              tress_curve_selection_remove (self->selection, sel.curve, sel.key, sel.part);
              self->drag = DRAG_NONE;
              emit_selection_changed (self);
              return;
            }
          if (!at)
            {
              if (!shift)
                sel_clear (self);
              sel_add (self, sel.curve, sel.key, sel.part);
            }
          set_active (self, sel.curve, sel.key);
          self->drag = DRAG_KEYS;
        }
      else
        {
          if (!shift)
            sel_clear (self);
          sel_add (self, sel.curve, sel.key, sel.part);
          set_active (self, sel.curve, sel.key);
          self->drag = DRAG_HANDLE;
        }
      emit_selection_changed (self);
    }
  else
    self->drag = DRAG_BOX;
}

static double
snap_step_for (TressCurveView *self, const TressCurve *c, gboolean invert_snap)
{
  gboolean snap = self->snap != invert_snap;
  double grid = frame_grid (c);

  if (snap)
    return MAX (grid, 1.0);
  return grid;
}

static void
drag_update_keys (TressCurveView *self, double x, double y, gboolean invert_snap)
{
  double df = (x - self->drag_x0) * tress_curve_viewport_frames_per_px (&self->vp);
  double dv = -(y - self->drag_y0) * tress_curve_viewport_values_per_px (&self->vp);
  Slot *grab = slot_for (self, self->drag_hit.curve);

  tress_curve_axis_lock_apply (self->axis_lock, &df, &dv);
  /* Snap so that the grabbed key lands on the grid (whole frames, or the format's own). */
  if (grab != NULL && grab->orig != NULL
      && self->drag_hit.key < tress_curve_get_n_keys (grab->orig))
    {
      double f0 = tress_curve_get_key (grab->orig, self->drag_hit.key)->frame;
      df = tress_curve_snap_frame (f0 + df, snap_step_for (self, grab->orig, invert_snap)) - f0;
    }
  self->drag_df = df;
  self->drag_dv = dv;

  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);
      GArray *keys = s->drag_sel;
      TressValueMap map;
      double dvc;
      guint n;

      if (s->edit == NULL || keys == NULL)
        continue;
      map = slot_map (self, s);
      dvc = dv / (map.scale != 0 ? map.scale : 1);
      n = tress_curve_get_n_keys (s->edit);
      if (!s->permuted)
        {
          /* Only the moved keys and their neighbours change: O(selection) per step. */
          if (tress_curve_drag_step (s->edit, s->orig, (const guint *)keys->data, keys->len, df,
                                     dvc))
            continue;
        }
      /* Keys passed each other: rebuild the drawn copy from the original, sorted,
       * and follow where the moved keys went (O(keys) per step from here on). */
      tress_curve_unref (s->edit);
      s->edit = tress_curve_copy (s->orig);
      for (guint k = 0; k < keys->len; k++)
        {
          guint ki = g_array_index (keys, guint, k);
          TressKey *e = tress_curve_get_key (s->edit, ki);

          e->frame += df;
          e->value += dvc;
        }
      g_array_set_size (s->drag_now, 0);
      g_array_append_vals (s->drag_now, keys->data, keys->len);
      /* Two keys on one frame stay visible as such; the drag's end refuses them. */
      tress_curve_sort_tracking (s->edit, s->drag_now);
      s->permuted = TRUE;
      for (guint k = 0; k < n; k++)
        tress_curve_update_tangent (s->edit, k);
      replace_curve_selection (self, s->index, s->drag_now);
    }
}

static void
drag_update_handle (TressCurveView *self, double x, double y)
{
  Slot *s = slot_for (self, self->drag_hit.curve);
  TressValueMap map;
  double value, slope;
  TressKey *k;

  if (s == NULL || s->edit == NULL)
    return;
  map = slot_map (self, s);
  value = (tress_curve_viewport_y_to_value (&self->vp, y) - map.offset)
          / (map.scale != 0 ? map.scale : 1);
  slope = tress_curve_handle_slope (s->orig, self->drag_hit.key, self->drag_hit.part, value);
  k = tress_curve_get_key (s->edit, self->drag_hit.key);
  /* Dragging a handle makes the tangent manual; unless broken both sides follow. */
  k->tangent = TRESS_TANGENT_MANUAL;
  if (self->drag_hit.part == TRESS_CURVE_PART_OUT_HANDLE)
    k->out_slope = slope;
  else
    k->in_slope = slope;
  if (!key_is_broken (self, s->index, k) || s->edit->limits.tied_tangents)
    k->in_slope = k->out_slope = slope;
  else
    k->flags |= TRESS_KEY_BROKEN;
}

static void view_set_playhead (TressCurveView *self, double frame);

/* The playhead to the frame under @x, on whole frames unless Ctrl inverts the snapping. */
static void
scrub_to (TressCurveView *self, double x, gboolean invert_snap)
{
  double frame = tress_curve_viewport_x_to_frame (&self->vp, x);

  if (self->snap != invert_snap)
    frame = round (frame);
  view_set_playhead (self, frame);
}

static void
pointer_motion (TressCurveView *self, double x, double y, gboolean invert_snap)
{
  self->drag_x = x;
  self->drag_y = y;
  if (self->drag == DRAG_NONE)
    return;
  if (!self->drag_started)
    {
      if (hypot (x - self->drag_x0, y - self->drag_y0) < DRAG_THRESHOLD)
        return;
      self->drag_started = TRUE;
      if (self->drag == DRAG_KEYS || self->drag == DRAG_HANDLE)
        drag_prepare_copies (self);
    }
  if (self->drag == DRAG_KEYS)
    drag_update_keys (self, x, y, invert_snap);
  else if (self->drag == DRAG_HANDLE)
    drag_update_handle (self, x, y);
  if (self->drag == DRAG_KEYS || self->drag == DRAG_HANDLE)
    {
      update_drag_error (self);
      g_signal_emit (self, signals[SIGNAL_DRAG_UPDATE], 0);
    }
  else if (self->drag == DRAG_PAN)
    {
      tress_curve_viewport_pan (&self->vp, x - self->drag_x0, y - self->drag_y0);
      self->drag_x0 = x;
      self->drag_y0 = y;
    }
  else if (self->drag == DRAG_SCRUB)
    {
      scrub_to (self, x, invert_snap);
      return;
    }
  invalidate_lines (self);
}

/* Commits the drag as one undo step: the same edit as the keyboard's (a move
 * of the keys by the drag's deltas, or the slopes of the dragged handle), from
 * the curves as they were when it began. */
static void
drag_commit (TressCurveView *self)
{
  g_autofree double *d_value = g_new0 (double, MAX (self->slots->len, 1));
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_MOVE, .d_frame = self->drag_df };
  guint n_keys = count_selected_keys (self);
  gboolean handle = self->drag == DRAG_HANDLE;

  if (handle)
    {
      Slot *s = slot_for (self, self->drag_hit.curve);

      if (s == NULL || s->edit == NULL || self->drag_hit.key >= tress_curve_get_n_keys (s->edit))
        {
          drag_discard (self);
          return;
        }
      e = (TressCurveEdit){ .kind = TRESS_CURVE_EDIT_SET_SLOPES,
                            .key = self->drag_hit.key,
                            .value = *tress_curve_get_key (s->edit, self->drag_hit.key) };
    }
  else
    for (guint i = 0; i < self->slots->len; i++)
      {
        Slot *s = &g_array_index (self->slots, Slot, i);
        TressValueMap map = slot_map (self, s); /* the drag's, from its start */

        d_value[i] = self->drag_dv / (map.scale != 0 ? map.scale : 1);
        /* The selection followed keys that passed others: back to where they
         * are in the curves the edit starts from. */
        if (s->drag_sel != NULL)
          replace_curve_selection (self, s->index, s->drag_sel);
      }
  /* The document's signals redraw from its curves: drop the copies first. */
  drag_discard (self);
  set_message (self, NULL);
  apply_edit (self, &e, n_keys, handle ? TARGET_HIT : TARGET_SELECTED, handle ? NULL : prepare_drag,
              d_value);
  prune_selection (self);
  invalidate_lines (self);
  emit_selection_changed (self);
}

static void
pointer_release (TressCurveView *self, double x, double y, gboolean invert_snap)
{
  pointer_motion (self, x, y, invert_snap);
  switch (self->drag)
    {
    case DRAG_KEYS:
    case DRAG_HANDLE:
      if (self->drag_started)
        drag_commit (self);
      break;
    case DRAG_BOX:
      {
        g_autofree TressCurveLayer *layers = build_layers (self);
        g_autoptr (GArray) hits = g_array_new (FALSE, FALSE, sizeof (TressCurveHit));

        if (!self->drag_shift)
          {
            sel_clear (self);
            self->has_active = FALSE;
          }
        if (self->drag_started)
          tress_curve_box_select (layers, self->slots->len, &self->vp, self->drag_x0, self->drag_y0,
                                  x, y, TRUE, hits);
        for (guint i = 0; i < hits->len; i++)
          {
            TressCurveHit *h = &g_array_index (hits, TressCurveHit, i);
            Slot *s = &g_array_index (self->slots, Slot, h->layer);

            sel_add (self, s->index, (guint)h->key, h->part);
            if (!self->has_active && h->part == TRESS_CURVE_PART_KEY)
              set_active (self, s->index, (guint)h->key);
          }
        emit_selection_changed (self);
      }
      break;
    case DRAG_PAN:
    case DRAG_SCRUB:
    case DRAG_NONE:
    default:
      break;
    }
  self->drag = DRAG_NONE;
  self->drag_started = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, TressCurveView *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  GdkModifierType mods
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (button == GDK_BUTTON_MIDDLE)
    {
      self->drag = DRAG_PAN;
      self->drag_started = FALSE;
      self->drag_x0 = self->drag_x = x;
      self->drag_y0 = self->drag_y = y;
      return;
    }
  pointer_press (self, x, y, (mods & GDK_SHIFT_MASK) != 0);
}

/* The gesture was taken away mid-drag (a grab, the widget moved): nothing of
 * the drag is kept, and nothing of it stays drawn. */
static void
on_drag_cancel (GtkGesture *gesture, GdkEventSequence *sequence, TressCurveView *self)
{
  drag_discard (self);
  self->drag = DRAG_NONE;
  self->drag_started = FALSE;
  invalidate_lines (self);
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, TressCurveView *self)
{
  double x0, y0;
  GdkModifierType mods
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  gtk_gesture_drag_get_start_point (gesture, &x0, &y0);
  pointer_motion (self, x0 + dx, y0 + dy, (mods & GDK_CONTROL_MASK) != 0);
}

static void
on_drag_end (GtkGestureDrag *gesture, double dx, double dy, TressCurveView *self)
{
  double x0, y0;
  GdkModifierType mods
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  gtk_gesture_drag_get_start_point (gesture, &x0, &y0);
  pointer_release (self, x0 + dx, y0 + dy, (mods & GDK_CONTROL_MASK) != 0);
}

/* The visible, unlocked curve drawn nearest to (@x, @y) at that frame, or NULL. */
static Slot *
nearest_curve (TressCurveView *self, double x, double y, double max_px)
{
  double frame = tress_curve_viewport_x_to_frame (&self->vp, x);
  Slot *best = NULL;
  double best_d = max_px;

  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);
      const TressCurve *c = slot_curve (self, s);
      TressValueMap map;
      double cy;

      if (c == NULL || !slot_shown (self, s) || s->locked || tress_curve_get_n_keys (c) == 0)
        continue;
      map = slot_map (self, s);
      cy = tress_curve_viewport_value_to_y (
          &self->vp, tress_curve_geometry_value (c, frame) * map.scale + map.offset);
      if (fabs (cy - y) <= best_d)
        {
          best_d = fabs (cy - y);
          best = s;
        }
    }
  return best;
}

/* Inserts a key, keeping the shape, on the curve drawn at (@x, @y). */
static gboolean
insert_on_curve_at (TressCurveView *self, double x, double y)
{
  Slot *s;
  double frame;

  s = nearest_curve (self, x, y, 8);
  if (s == NULL)
    {
      set_message (self, _ ("No curve there to insert a key on"));
      return FALSE;
    }
  frame = tress_curve_snap_frame (tress_curve_viewport_x_to_frame (&self->vp, x),
                                  MAX (frame_grid (slot_curve (self, s)), self->snap ? 1.0 : 0));
  sel_clear (self);
  set_active (self, s->index, 0);
  insert_at (self, frame);
  return TRUE;
}

static void
on_double_click (GtkGestureClick *gesture, int n_press, double x, double y, TressCurveView *self)
{
  /* A double click on a curve inserts a key there; the press ends no drag. */
  if (n_press == 2 && insert_on_curve_at (self, x, y))
    self->drag = DRAG_NONE;
}

static void
act_insert_on_curve (GtkWidget *w, const char *name, GVariant *p)
{
  double x, y;

  g_variant_get (p, "(dd)", &x, &y);
  insert_on_curve_at (TRESS_CURVE_VIEW (w), x, y);
}

static void
on_motion (GtkEventControllerMotion *controller, double x, double y, TressCurveView *self)
{
  self->pointer_x = x;
  self->pointer_y = y;
}

static gboolean
on_scroll (GtkEventControllerScroll *controller, double dx, double dy, TressCurveView *self)
{
  GdkModifierType mods
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  double factor = pow (1.15, -dy);

  /* The wheel zooms frames; Ctrl zooms values; Shift zooms both. */
  if (mods & GDK_SHIFT_MASK)
    tress_curve_viewport_zoom (&self->vp, factor, factor, self->pointer_x, self->pointer_y);
  else if (mods & GDK_CONTROL_MASK)
    tress_curve_viewport_zoom (&self->vp, 1, factor, self->pointer_x, self->pointer_y);
  else
    tress_curve_viewport_zoom (&self->vp, factor, 1, self->pointer_x, self->pointer_y);
  invalidate_lines (self);
  return TRUE;
}

/* ------------------------------------------------------------ playback -- */

void
tress_curve_view_get_frame_range (TressCurveView *self, double *first, double *last)
{
  double a = G_MAXDOUBLE, b = -G_MAXDOUBLE;

  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  for (guint i = 0; i < self->slots->len; i++)
    {
      const TressCurve *c = slot_curve (self, &g_array_index (self->slots, Slot, i));
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
      const TressCurve *c = slot_curve (self, &g_array_index (self->slots, Slot, i));
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
      const TressCurve *c = slot_curve (self, &g_array_index (self->slots, Slot, i));
      if (c != NULL && c->fps > 0)
        return c->fps;
    }
  return 0;
}

double
tress_curve_view_get_display_scale (TressCurveView *self, guint curve_index)
{
  Slot *s = slot_for (self, curve_index);
  const TressCurve *c = s != NULL ? slot_curve (self, s) : NULL;

  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 1);
  return unit_scale (self, c);
}

static gboolean
play_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer user_data)
{
  TressCurveView *self = TRESS_CURVE_VIEW (widget);
  double first, last, frame;
  gint64 now = gdk_frame_clock_get_frame_time (clock);

  if (self->play_start_time == 0)
    self->play_start_time = now;
  tress_curve_view_get_frame_range (self, &first, &last);
  frame
      = self->play_start_frame
        + (now - self->play_start_time) / (double)G_USEC_PER_SEC * tress_curve_view_get_fps (self);
  if (frame > last)
    {
      if (self->loop && last > first)
        frame = first + fmod (frame - first, last - first);
      else
        {
          view_set_playhead (self, last);
          self->tick_id = 0;
          self->playing = FALSE;
          g_object_notify_by_pspec (G_OBJECT (self), props[PROP_PLAYING]);
          return G_SOURCE_REMOVE;
        }
    }
  view_set_playhead (self, frame);
  return G_SOURCE_CONTINUE;
}

static void
set_playing (TressCurveView *self, gboolean playing)
{
  if (self->playing == playing)
    return;
  self->playing = playing;
  if (playing)
    {
      double first, last;

      tress_curve_view_get_frame_range (self, &first, &last);
      if (self->playhead >= last)
        view_set_playhead (self, first);
      self->play_start_time = 0;
      self->play_start_frame = self->playhead;
      self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), play_tick, NULL, NULL);
    }
  else if (self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_PLAYING]);
}

/* ------------------------------------------------------------- actions -- */

static void
act_select_all (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);

  sel_clear (self);
  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);
      const TressCurve *c = slot_curve (self, s);

      if (c == NULL || s->locked || !slot_shown (self, s) || tress_curve_get_n_keys (c) == 0)
        continue;
      tress_curve_selection_add_range (self->selection, s->index, tress_curve_get_n_keys (c));
      sel_see (self, s->index);
    }
  emit_selection_changed (self);
}

static void
act_select_none (GtkWidget *w, const char *name, GVariant *p)
{
  tress_curve_view_select_none (TRESS_CURVE_VIEW (w));
}

static void
act_select_key (GtkWidget *w, const char *name, GVariant *p)
{
  guint curve, key;
  gboolean extend;

  g_variant_get (p, "(uub)", &curve, &key, &extend);
  tress_curve_view_select_key (TRESS_CURVE_VIEW (w), curve, key, TRESS_CURVE_PART_KEY, extend);
}

static void
act_click (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  double x, y;
  gboolean shift;

  g_variant_get (p, "(ddb)", &x, &y, &shift);
  pointer_press (self, x, y, shift);
  pointer_release (self, x, y, FALSE);
}

static void
act_drag (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  double x0, y0, x1, y1;
  gboolean invert;

  g_variant_get (p, "(ddddb)", &x0, &y0, &x1, &y1, &invert);
  pointer_press (self, x0, y0, FALSE);
  /* Two motion steps, as a pointer would send. */
  pointer_motion (self, (x0 + x1) / 2, (y0 + y1) / 2, invert);
  pointer_release (self, x1, y1, invert);
}

static void
act_box_select (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  double x0, y0, x1, y1;
  gboolean extend;

  g_variant_get (p, "(ddddb)", &x0, &y0, &x1, &y1, &extend);
  self->drag = DRAG_BOX;
  self->drag_shift = extend;
  self->drag_x0 = x0;
  self->drag_y0 = y0;
  self->drag_started = TRUE;
  pointer_release (self, x1, y1, FALSE);
}

static void
act_step_key (GtkWidget *w, const char *name, GVariant *p)
{
  view_step_key (TRESS_CURVE_VIEW (w), g_str_equal (name, "curve.next-key") ? 1 : -1);
}

static void
act_move (GtkWidget *w, const char *name, GVariant *p)
{
  double df, dv;

  g_variant_get (p, "(dd)", &df, &dv);
  view_move (TRESS_CURVE_VIEW (w), df, dv);
}

static void
act_nudge (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  int fx, vy;

  double step;
  g_autoptr (GArray) curves = tress_curve_selection_dup_curves (self->selection);
  gboolean whole = curves->len > 0;

  g_variant_get (p, "(ii)", &fx, &vy);
  /* Frames move by whole frames, values by the nudge step; keys of
   * whole-number curves only (ints, bools) by at least one, which a smaller
   * step would round back to where they were. */
  step = tress_curve_view_get_nudge_step (self);
  for (guint i = 0; i < curves->len && whole; i++)
    {
      Slot *slot = slot_for (self, g_array_index (curves, guint, i));
      const TressCurve *c = slot != NULL ? slot_curve (self, slot) : NULL;

      whole = c != NULL && c->limits.value_kind != TRESS_VALUE_FLOAT && !self->normalized;
    }
  if (whole)
    step = MAX (step, 1);
  view_move (self, fx, vy * step);
}

/* One stored step of each curve (@data: a pointer to the count of steps);
 * curves whose values have no step (32-bit floats) by the nudge step. */
static gboolean
prepare_stored_step (TressCurveView *self, Slot *slot, guint rank, TressCurveEdit *edit,
                     gpointer data)
{
  const TressCurve *c = slot_curve (self, slot);
  TressValueMap map = slot_map (self, slot);
  int n = *(const int *)data;

  if (c != NULL && c->value_step > 0)
    edit->d_value = n * c->value_step;
  else
    edit->d_value = n * tress_curve_view_get_nudge_step (self) / (map.scale != 0 ? map.scale : 1);
  return TRUE;
}

static void
act_nudge_stored (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_MOVE };
  int n = g_variant_get_int32 (p);

  if (count_selected_keys (self) == 0 || n == 0)
    return;
  e.d_value = n;
  apply_edit (self, &e, count_selected_keys (self), TARGET_SELECTED, prepare_stored_step, &n);
}

static gboolean value_ticks (TressCurveView *self, double height, double *first, double *step);

static gboolean
tell_nudge_step (gpointer data)
{
  TressCurveView *self = data;

  self->nudge_idle = 0;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_NUDGE_STEP]);
  return G_SOURCE_REMOVE;
}

double
tress_curve_view_get_nudge_step (TressCurveView *self)
{
  int height;
  double first, step;

  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 0);
  if (self->nudge_step > 0)
    return self->nudge_step;
  /* A tenth of the spacing the grid draws (10 divisions before the view has a size). */
  height = gtk_widget_get_height (GTK_WIDGET (self));
  if (height > 0 && value_ticks (self, height, &first, &step))
    return step / 10;
  return nice_step (self->vp.value_max - self->vp.value_min, 10) / 10;
}

void
tress_curve_view_set_nudge_step (TressCurveView *self, double step)
{
  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  step = step > 0 && isfinite (step) ? step : 0;
  if (self->nudge_step == step)
    return;
  self->nudge_step = step;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_NUDGE_STEP]);
}

/* The first and last frame of the selected keys (first > last when none). */
static void
selected_frame_range (TressCurveView *self, double *first, double *last)
{
  g_autoptr (GArray) curves = tress_curve_selection_dup_curves (self->selection);

  *first = G_MAXDOUBLE;
  *last = -G_MAXDOUBLE;
  for (guint i = 0; i < curves->len; i++)
    {
      guint index = g_array_index (curves, guint, i);
      Slot *slot = slot_for (self, index);
      const TressCurve *c = slot ? slot_curve (self, slot) : NULL;
      g_autoptr (GArray) keys = selected_keys_of (self, index);
      guint n = c != NULL ? tress_curve_get_n_keys (c) : 0;

      /* Sorted keys: the first and the last in range bound the curve's frames. */
      for (guint k = 0; k < keys->len; k++)
        if (g_array_index (keys, guint, k) < n)
          {
            *first = MIN (*first, tress_curve_get_key (c, g_array_index (keys, guint, k))->frame);
            break;
          }
      for (guint k = keys->len; k > 0; k--)
        if (g_array_index (keys, guint, k - 1) < n)
          {
            *last = MAX (*last, tress_curve_get_key (c, g_array_index (keys, guint, k - 1))->frame);
            break;
          }
    }
}

static void
act_scale (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_SCALE };
  double fmin = G_MAXDOUBLE, fmax = -G_MAXDOUBLE;

  g_variant_get (p, "(ddb)", &e.frame_factor, &e.value_factor, &e.value_at_pivot);
  selected_frame_range (self, &fmin, &fmax);
  if (fmin > fmax)
    return;
  /* Around the middle of the selection, or the playhead (and the value there). */
  e.pivot_frame = e.value_at_pivot ? self->playhead : (fmin + fmax) / 2;
  apply_edit (self, &e, count_selected_keys (self), TARGET_SELECTED, NULL, NULL);
}

static void
insert_at (TressCurveView *self, double frame)
{
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_INSERT, .frame = frame };
  g_autoptr (GArray) curves = NULL;
  guint first = G_MAXUINT, first_key = 0;

  if (!apply_edit (self, &e, 1, TARGET_CURVES, NULL, NULL))
    return;
  /* The new keys are selected; unless the active key is one of them (its
   * curve got one), the first curve's new key becomes the active key, which
   * the key panel and table follow. */
  if (self->has_active
      && sel_has (self, self->active_curve, self->active_key, TRESS_CURVE_PART_KEY))
    return;
  /* The lowest curve index with a selected key at the frame inserted at
   * (a format may round it to its frames: then with any selected key). */
  curves = tress_curve_selection_dup_curves (self->selection);
  for (guint pass = 0; pass < 2 && first == G_MAXUINT; pass++)
    for (guint i = 0; i < curves->len; i++)
      {
        guint index = g_array_index (curves, guint, i);
        Slot *slot = slot_for (self, index);
        const TressCurve *c = slot != NULL ? slot_curve (self, slot) : NULL;
        g_autoptr (GArray) keys = selected_keys_of (self, index);

        if (c == NULL || keys->len == 0 || index >= first
            || g_array_index (keys, guint, 0) >= tress_curve_get_n_keys (c))
          continue;
        if (pass == 1
            || fabs (tress_curve_get_key (c, g_array_index (keys, guint, 0))->frame - frame) < 1e-6)
          {
            first = index;
            first_key = g_array_index (keys, guint, 0);
          }
      }
  if (first == G_MAXUINT)
    return;
  set_active (self, first, first_key);
  emit_selection_changed (self);
}

static void
act_insert_key (GtkWidget *w, const char *name, GVariant *p)
{
  insert_at (TRESS_CURVE_VIEW (w), g_variant_get_double (p));
}

static void
act_insert_at_playhead (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  insert_at (self, self->playhead);
}

static void
act_delete (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_DELETE };

  if (count_selected_keys (self) == 0)
    return;
  apply_edit (self, &e, count_selected_keys (self), TARGET_SELECTED, NULL, NULL);
}

static void
act_duplicate (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  double fmin = G_MAXDOUBLE, fmax = -G_MAXDOUBLE;
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_DUPLICATE };

  selected_frame_range (self, &fmin, &fmax);
  if (fmin > fmax)
    return;
  /* The copies follow the selection, one frame after its last key. */
  e.d_frame = fmax - fmin + 1;
  apply_edit (self, &e, count_selected_keys (self), TARGET_SELECTED, NULL, NULL);
}

static void
act_copy (GtkWidget *w, const char *name, GVariant *p)
{
  view_copy (TRESS_CURVE_VIEW (w));
}

static void
act_paste (GtkWidget *w, const char *name, GVariant *p)
{
  view_paste (TRESS_CURVE_VIEW (w), p != NULL && g_variant_get_boolean (p));
}

static void
act_set_interpolation (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_INTERP };

  if (!tress_interp_from_string (g_variant_get_string (p, NULL), &e.interp))
    {
      set_message (self, _ ("Unknown interpolation"));
      return;
    }
  if (count_selected_keys (self) == 0)
    {
      set_message (self, _ ("Select keys to change their interpolation"));
      return;
    }
  apply_edit (self, &e, count_selected_keys (self), TARGET_SELECTED, NULL, NULL);
}

static void
act_set_tangent (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_TANGENT };

  if (!tress_tangent_edit_from_string (g_variant_get_string (p, NULL), &e.tangent))
    {
      set_message (self, _ ("Unknown tangent mode"));
      return;
    }
  if (count_selected_keys (self) == 0)
    {
      set_message (self, _ ("Select keys to change their tangents"));
      return;
    }
  apply_edit (self, &e, count_selected_keys (self), TARGET_SELECTED, NULL, NULL);
}

static void
act_frame (GtkWidget *w, const char *name, GVariant *p)
{
  view_frame_all (TRESS_CURVE_VIEW (w), g_str_equal (name, "curve.frame-selected"));
}

static void
act_zoom (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  double ff, vf;

  g_variant_get (p, "(dd)", &ff, &vf);
  tress_curve_viewport_zoom (&self->vp, ff, vf, self->vp.width / 2, self->vp.height / 2);
  invalidate_lines (self);
}

static void
act_pan (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  double dx, dy;

  g_variant_get (p, "(dd)", &dx, &dy);
  tress_curve_viewport_pan (&self->vp, dx, dy);
  invalidate_lines (self);
}

static void
act_hide_lock (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  guint curve;
  gboolean flag;

  g_variant_get (p, "(ub)", &curve, &flag);
  if (g_str_equal (name, "curve.hide"))
    tress_curve_view_set_curve_visible (self, curve, !flag);
  else if (g_str_equal (name, "curve.solo"))
    tress_curve_view_set_curve_solo (self, curve, flag);
  else
    tress_curve_view_set_curve_locked (self, curve, flag);
}

static void
act_bake (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_BAKE };

  apply_edit (TRESS_CURVE_VIEW (w), &e, 0, TARGET_CURVES, NULL, NULL);
}

static void
act_fit (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_FIT, .tolerance = g_variant_get_double (p) };

  apply_edit (TRESS_CURVE_VIEW (w), &e, 0, TARGET_CURVES, NULL, NULL);
}

/* The angle curves among the targets of an unwrap, in slot order: each
 * unwrapped together with the other angles of its rotation among them. */
typedef struct
{
  GPtrArray *curves; /* TressCurve: copies, alive until the edit is committed */
  GArray *slots;     /* guint: their slot positions */
} UnwrapData;

static gboolean
prepare_unwrap (TressCurveView *self, Slot *slot, guint rank, TressCurveEdit *edit, gpointer data)
{
  UnwrapData *u = data;
  guint at = (guint)(slot - &g_array_index (self->slots, Slot, 0));

  for (guint i = 0; i < u->slots->len; i++)
    if (g_array_index (u->slots, guint, i) == at)
      {
        tress_curve_edit_set_unwrap_group (edit, (const TressCurve *const *)u->curves->pdata,
                                           u->curves->len, i);
        return TRUE;
      }
  return FALSE; /* not an angle curve: left alone */
}

gboolean
tress_curve_view_unwrap_angles (TressCurveView *self)
{
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_UNWRAP };
  g_autoptr (GPtrArray) curves = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_curve_unref);
  g_autoptr (GArray) slots = g_array_new (FALSE, FALSE, sizeof (guint));
  UnwrapData u = { curves, slots };
  gboolean any_selected;

  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), FALSE);
  if (self->document == NULL)
    return FALSE;
  any_selected = count_selected_keys (self) > 0;
  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);
      const TressCurve *c = tress_curve_document_get_curve (self->document, s->index);

      if (c != NULL && c->angle && slot_is_target (self, s, TARGET_CURVES, any_selected))
        {
          g_ptr_array_add (curves, tress_curve_copy (c));
          g_array_append_val (slots, i);
        }
    }
  if (curves->len == 0)
    {
      set_message (self, _ ("No angle curves to unwrap: choose rotation curves"));
      gtk_widget_error_bell (GTK_WIDGET (self));
      return FALSE;
    }
  set_message (self, NULL);
  if (!apply_edit (self, &e, curves->len, TARGET_CURVES, prepare_unwrap, &u))
    {
      /* Refused: the refusal is said. Else nothing changed, and that is said
       * too (a spin the keys spell out is kept: tress_curve_edit_unwrap). */
      if (self->message == NULL)
        {
          g_autofree char *msg = g_strdup_printf (
              ngettext ("Unwrap Angles: nothing changed, no jump to remove in %u angle curve",
                        "Unwrap Angles: nothing changed, no jump to remove in %u angle curves",
                        curves->len),
              curves->len);

          set_message (self, msg);
        }
      return FALSE;
    }
  /* The values moved by whole turns: the curves are shown whole again. */
  view_frame_all (self, FALSE);
  return TRUE;
}

static void
act_goto_frame (GtkWidget *w, const char *name, GVariant *p)
{
  view_set_playhead (TRESS_CURVE_VIEW (w), g_variant_get_double (p));
}

static void
act_play (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);

  if (g_str_equal (name, "curve.play"))
    set_playing (self, TRUE);
  else if (g_str_equal (name, "curve.pause"))
    set_playing (self, FALSE);
  else
    set_playing (self, !self->playing);
}

static void
act_axis_lock (GtkWidget *w, const char *name, GVariant *p)
{
  TressCurveView *self = TRESS_CURVE_VIEW (w);
  const char *s = g_variant_get_string (p, NULL);
  TressAxisLock lock = g_str_equal (s, "frame")   ? TRESS_AXIS_LOCK_FRAME
                       : g_str_equal (s, "value") ? TRESS_AXIS_LOCK_VALUE
                                                  : TRESS_AXIS_LOCK_NONE;

  if (lock != self->axis_lock)
    {
      self->axis_lock = lock;
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_AXIS_LOCK]);
    }
}

/* ------------------------------------------------------------- drawing -- */

static void
append_rect (GtkSnapshot *snapshot, double x, double y, double w, double h, float r, float g,
             float b, float a)
{
  GdkRGBA c = { r, g, b, a };
  graphene_rect_t rect = GRAPHENE_RECT_INIT ((float)x, (float)y, (float)w, (float)h);

  gtk_snapshot_append_color (snapshot, &c, &rect);
}

static void
draw_label_layout (GtkSnapshot *snapshot, double x, double y, PangoLayout *layout)
{
  GdkRGBA color = { 0.62f, 0.62f, 0.64f, 1 };

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float)x, (float)y));
  gtk_snapshot_append_layout (snapshot, layout, &color);
  gtk_snapshot_restore (snapshot);
}

/* The space kept clear between the playhead's frame box and a frame number. */
#define RULER_LABEL_GAP 4

/* The playhead's frame as its box on the ruler shows it, and where the box
 * lies (@x, @w: as wide as the number); NULL when the playhead is outside the
 * graph. */
static PangoLayout *
playhead_box (TressCurveView *self, int width, double *x, double *w)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  double px = tress_curve_viewport_frame_to_x (&self->vp, self->playhead);
  PangoLayout *layout;
  int tw = 0;

  if (!(px >= -2 && px <= width + 2))
    return NULL;
  g_ascii_formatd (buf, sizeof buf, self->playhead == round (self->playhead) ? "%.0f" : "%.2f",
                   self->playhead);
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), buf);
  pango_layout_get_pixel_size (layout, &tw, NULL);
  *x = CLAMP (px - tw / 2.0 - 3, 0, MAX (0, width - tw - 6));
  *w = tw + 6;
  return layout;
}

/* The live quantization error next to the pointer during a drag: red once it
 * passes the tolerance. */
static void
draw_drag_error (TressCurveView *self, GtkSnapshot *snapshot, int width, int height)
{
  g_autofree char *text = tress_curve_view_dup_drag_error_text (self);
  PangoLayout *layout;
  gboolean over = self->drag_error > drag_tolerance (self);
  GdkRGBA color = over ? (GdkRGBA){ 1.0f, 0.45f, 0.40f, 1 } : (GdkRGBA){ 0.75f, 0.75f, 0.78f, 1 };
  int tw = 0, th = 0;
  double x, y;

  if (text == NULL)
    return;
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  /* Wrapped where the graph is narrower than the text, not cut at its edge. */
  pango_layout_set_width (layout, MAX (1, width - 10) * PANGO_SCALE);
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_get_pixel_size (layout, &tw, &th);
  x = CLAMP (self->drag_x + 14, 2, MAX (2, width - tw - 2));
  y = CLAMP (self->drag_y - th - 10, 2, MAX (2, height - th - 2));
  append_rect (snapshot, x - 3, y - 1, tw + 6, th + 2, 0.10f, 0.10f, 0.11f, 0.85f);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float)x, (float)y));
  gtk_snapshot_append_layout (snapshot, layout, &color);
  gtk_snapshot_restore (snapshot);
  g_object_unref (layout);
}

/* The values the grid marks (every @step from @first), for the lines under
 * the curves and the labels over them; FALSE when there are none to draw. */
static gboolean
value_ticks (TressCurveView *self, double height, double *first, double *step)
{
  *step = nice_step (self->vp.value_max - self->vp.value_min, height / 60);
  *first = ceil (self->vp.value_min / *step) * *step;
  return *step > 0 && (self->vp.value_max - *first) / *step < 1000;
}

static void
draw_grid (TressCurveView *self, GtkSnapshot *snapshot, double width, double height)
{
  double fstep = nice_step (self->vp.frame_max - self->vp.frame_min, width / 80);
  double f0 = ceil (self->vp.frame_min / fstep) * fstep;
  double v0, vstep;
  gboolean frames_ok = fstep > 0 && (self->vp.frame_max - f0) / fstep < 1000;
  gboolean values_ok = value_ticks (self, height, &v0, &vstep);

  if (frames_ok)
    for (double f = f0; f <= self->vp.frame_max; f += fstep)
      append_rect (snapshot, floor (tress_curve_viewport_frame_to_x (&self->vp, f)), 0, 1, height,
                   0.24f, 0.24f, 0.26f, 1);
  if (values_ok)
    for (double v = v0; v <= self->vp.value_max; v += vstep)
      {
        gboolean zero = fabs (v) < vstep / 2;
        float g = zero ? 0.34f : 0.24f;
        append_rect (snapshot, 0, floor (tress_curve_viewport_value_to_y (&self->vp, v)), width, 1,
                     g, g, g + 0.02f, 1);
      }
  /* Frame numbers along the bottom (the ruler), values (shown units) along the left. */
  append_rect (snapshot, 0, height - RULER_HEIGHT, width, RULER_HEIGHT, 0.12f, 0.12f, 0.13f, 1);
  if (frames_ok)
    {
      double box_x = 0, box_w = 0;
      PangoLayout *box = playhead_box (self, (int)width, &box_x, &box_w);

      g_clear_object (&box);
      for (double f = f0; f <= self->vp.frame_max; f += fstep)
        {
          char buf[G_ASCII_DTOSTR_BUF_SIZE];
          double x = floor (tress_curve_viewport_frame_to_x (&self->vp, f)) + 3;
          PangoLayout *layout;
          int tw = 0;

          tress_curve_format_tick (buf, sizeof buf, f, fstep, self->vp.frame_min,
                                   self->vp.frame_max);
          layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), buf);
          pango_layout_get_pixel_size (layout, &tw, NULL);
          /* None under or against the playhead's box, which names its frame. */
          if (box_w <= 0 || x >= box_x + box_w + RULER_LABEL_GAP
              || x + tw <= box_x - RULER_LABEL_GAP)
            draw_label_layout (snapshot, x, height - 18, layout);
          g_object_unref (layout);
        }
    }
}

/* The values (in shown units) along the left, drawn over the curves and keys
 * on a plate of the graph's colour, so that a dense graph leaves them
 * readable. */
static void
draw_value_labels (TressCurveView *self, GtkSnapshot *snapshot, double height)
{
  double v0, vstep;

  if (!value_ticks (self, height, &v0, &vstep))
    return;
  for (double v = v0; v <= self->vp.value_max; v += vstep)
    {
      /* Above its line; below it at the top edge; none in the frame numbers' row. */
      double y = floor (tress_curve_viewport_value_to_y (&self->vp, v));
      double label_y = y - 16 >= 0 ? y - 16 : y + 2;
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      PangoLayout *layout;
      int tw = 0, th = 0;

      if (label_y + 16 > height - RULER_HEIGHT)
        continue;
      tress_curve_format_tick (buf, sizeof buf, v, vstep, self->vp.value_min, self->vp.value_max);
      layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), buf);
      pango_layout_get_pixel_size (layout, &tw, &th);
      append_rect (snapshot, 1, label_y, tw + 4, th, 0.16f, 0.16f, 0.17f, 0.8f);
      draw_label_layout (snapshot, 3, label_y, layout);
      g_object_unref (layout);
    }
}

/* The playhead's frame in a box on the ruler, as wide as its number; the
 * frame numbers keep clear of it (draw_grid). */
static void
draw_playhead_frame (TressCurveView *self, GtkSnapshot *snapshot, int width, int height)
{
  int th = 0;
  double x = 0, w = 0;
  GdkRGBA white = { 1, 1, 1, 1 };
  PangoLayout *layout = playhead_box (self, width, &x, &w);

  if (layout == NULL)
    return;
  pango_layout_get_pixel_size (layout, NULL, &th);
  append_rect (snapshot, x, height - RULER_HEIGHT + 1, w, RULER_HEIGHT - 2, 0.60f, 0.22f, 0.60f, 1);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (
      snapshot, &GRAPHENE_POINT_INIT ((float)x + 3, (float)(height - RULER_HEIGHT / 2 - th / 2.0)));
  gtk_snapshot_append_layout (snapshot, layout, &white);
  gtk_snapshot_restore (snapshot);
  g_object_unref (layout);
}

/* The largest image the lines are painted into: every GL renderer takes
 * textures this size, and no screen is larger. */
#define MAX_LINES_SIZE 8192

static void
draw_lines (TressCurveView *self, GtkSnapshot *snapshot, int width, int height)
{
  width = MIN (width, MAX_LINES_SIZE);
  height = MIN (height, MAX_LINES_SIZE);
  if (self->lines_node == NULL || self->lines_width != width || self->lines_height != height)
    {
      GtkSnapshot *sub = gtk_snapshot_new ();
      graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, width, height);
      /* The lines are painted straight into an image (one pixel column at a
       * time) and shown as a texture: far cheaper than stroking paths. */
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
      cairo_t *cr = cairo_create (surface);
      g_autofree TressCurveLayer *layers = build_layers (self);
      g_autofree double *colors = g_new (double, 3 * MAX (self->slots->len, 1));
      g_autoptr (GBytes) bytes = NULL;
      g_autoptr (GdkTexture) texture = NULL;

      for (guint i = 0; i < self->slots->len; i++)
        memcpy (&colors[3 * i], g_array_index (self->slots, Slot, i).color, 3 * sizeof (double));
      if (g_hash_table_size (self->ghosts) > 0)
        {
          /* The other version first, behind: the curve's colour washed out
           * towards grey, drawn dimmed as locked layers are. */
          g_autofree TressCurveLayer *ghosts = g_new0 (TressCurveLayer, self->slots->len);
          g_autofree double *ghost_colors = g_new (double, 3 * self->slots->len);

          for (guint i = 0; i < self->slots->len; i++)
            {
              Slot *s = &g_array_index (self->slots, Slot, i);
              const TressCurve *g = g_hash_table_lookup (self->ghosts, GUINT_TO_POINTER (s->index));

              ghosts[i].curve = g;
              ghosts[i].map = layers[i].map;
              ghosts[i].visible = g != NULL && layers[i].visible;
              ghosts[i].locked = TRUE;
              for (guint k = 0; k < 3; k++)
                ghost_colors[3 * i + k] = 0.45 * colors[3 * i + k] + 0.55 * 0.6;
            }
          tress_curve_paint_lines (cr, ghosts, self->slots->len, &self->vp, ghost_colors);
        }
      tress_curve_paint_lines (cr, layers, self->slots->len, &self->vp, colors);
      cairo_destroy (cr);
      cairo_surface_flush (surface);
      bytes = g_bytes_new_with_free_func (cairo_image_surface_get_data (surface),
                                          (gsize)cairo_image_surface_get_stride (surface) * height,
                                          (GDestroyNotify)cairo_surface_destroy, surface);
      texture = gdk_memory_texture_new (width, height, GDK_MEMORY_DEFAULT, bytes,
                                        (gsize)cairo_image_surface_get_stride (surface));
      gtk_snapshot_append_texture (sub, texture, &bounds);
      g_clear_pointer (&self->lines_node, gsk_render_node_unref);
      self->lines_node = gtk_snapshot_free_to_node (sub);
      self->lines_width = width;
      self->lines_height = height;
    }
  if (self->lines_node != NULL)
    gtk_snapshot_append_node (snapshot, self->lines_node);
}

/* How a key marker is drawn: unselected keys in their curve's colour with a
 * dark outline; selected ones larger, filled orange with a white outline (so
 * they stand out on a red or orange curve as well); the active key larger
 * again, white with an orange ring. */
typedef enum
{
  MARK_KEY,
  MARK_SELECTED,
  MARK_ACTIVE,
} MarkKind;

/* A square of 2 * @r + 1 pixels centred on the pixel (@cx, @cy). */
static void
append_square (GtkSnapshot *snapshot, int cx, int cy, int r, float red, float green, float blue,
               float alpha)
{
  append_rect (snapshot, cx - r, cy - r, 2 * r + 1, 2 * r + 1, red, green, blue, alpha);
}

static void
draw_marker (GtkSnapshot *snapshot, double x, double y, MarkKind kind, const double rgb[3],
             float dim)
{
  int cx = (int)floor (x), cy = (int)floor (y);

  switch (kind)
    {
    case MARK_ACTIVE:
      append_square (snapshot, cx, cy, 6, 0.05f, 0.05f, 0.05f, 1);
      append_square (snapshot, cx, cy, 5, 1.0f, 0.55f, 0.10f, 1);
      append_square (snapshot, cx, cy, 3, 1, 1, 1, 1);
      break;
    case MARK_SELECTED:
      append_square (snapshot, cx, cy, 5, 0.05f, 0.05f, 0.05f, 1);
      append_square (snapshot, cx, cy, 4, 1, 1, 1, 1);
      append_square (snapshot, cx, cy, 3, 1.0f, 0.55f, 0.10f, 1);
      break;
    case MARK_KEY:
    default:
      append_square (snapshot, cx, cy, 4, 0.05f, 0.05f, 0.05f, dim);
      append_square (snapshot, cx, cy, 3, (float)rgb[0] * dim, (float)rgb[1] * dim,
                     (float)rgb[2] * dim, 1);
      break;
    }
}

/* The keys of @s within the frames in view, widened by a marker on each side. */
static void
keys_in_view (TressCurveView *self, const TressCurve *c, guint *first, guint *end)
{
  double fpp = tress_curve_viewport_frames_per_px (&self->vp);
  guint a = tress_curve_lower_bound (c, self->vp.frame_min - 2 * HIT_RADIUS * fpp);
  guint b = tress_curve_lower_bound (c, self->vp.frame_max + 2 * HIT_RADIUS * fpp);

  *end = MIN (b + 1, tress_curve_get_n_keys (c));
  *first = a > 0 ? a - 1 : 0;
}

/* More keys in view than this are thinned out to one marker per marker-sized
 * cell of the graph (selected keys win their cell), unselected keys drawn as
 * dots and handles left out: the nodes drawn stay bounded by the graph's size,
 * not by the curves shown, and the curves stay readable under their keys. */
#define KEY_BUDGET 3000

typedef struct
{
  float x, y;
  guint slot;
  MarkKind kind;
} Marker;

static void
draw_keys_thinned (TressCurveView *self, GtkSnapshot *snapshot, int width, int height)
{
  int cols = width / (int)KEY_SIZE + 1, rows = height / (int)KEY_SIZE + 1;
  g_autofree Marker *cells = g_new0 (Marker, (gsize)cols * rows);
  g_autofree guint8 *used = g_new0 (guint8, (gsize)cols * rows);

  for (guint l = 0; l < self->slots->len; l++)
    {
      Slot *s = &g_array_index (self->slots, Slot, l);
      const TressCurve *c = slot_curve (self, s);
      TressValueMap map = slot_map (self, s);
      gboolean any_selected;
      guint first, end;

      if (c == NULL || !slot_shown (self, s))
        continue;
      any_selected = tress_curve_selection_has_curve (self->selection, s->index);
      keys_in_view (self, c, &first, &end);
      for (guint k = first; k < end; k++)
        {
          const TressKey *key = tress_curve_get_key (c, k);
          double x = tress_curve_viewport_frame_to_x (&self->vp, key->frame);
          double y
              = tress_curve_viewport_value_to_y (&self->vp, key->value * map.scale + map.offset);
          MarkKind kind = MARK_KEY;
          gsize cell;

          if (!(x >= -KEY_SIZE && x < width + KEY_SIZE && y >= -KEY_SIZE && y < height + KEY_SIZE))
            continue;
          if (any_selected && sel_has (self, s->index, k, TRESS_CURVE_PART_KEY))
            kind = MARK_SELECTED;
          if (self->has_active && self->active_curve == s->index && self->active_key == k)
            kind = MARK_ACTIVE;
          cell = (gsize)CLAMP ((int)(y / KEY_SIZE), 0, rows - 1) * cols
                 + CLAMP ((int)(x / KEY_SIZE), 0, cols - 1);
          if (used[cell] && cells[cell].kind >= kind)
            continue;
          used[cell] = 1;
          cells[cell] = (Marker){ (float)x, (float)y, l, kind };
        }
    }
  /* Unselected markers first, the selected and active ones on top. */
  for (MarkKind kind = MARK_KEY; kind <= MARK_ACTIVE; kind++)
    for (gsize i = 0; i < (gsize)cols * rows; i++)
      if (used[i] && cells[i].kind == kind)
        {
          Slot *s = &g_array_index (self->slots, Slot, cells[i].slot);
          float dim = s->locked ? 0.5f : 1.0f;

          /* Unselected keys as small dots: the curves stay readable. */
          if (kind == MARK_KEY)
            append_square (snapshot, (int)floor (cells[i].x), (int)floor (cells[i].y), 1,
                           (float)s->color[0] * dim, (float)s->color[1] * dim,
                           (float)s->color[2] * dim, 1);
          else
            draw_marker (snapshot, cells[i].x, cells[i].y, kind, s->color, dim);
        }
}

static void
draw_keys (TressCurveView *self, GtkSnapshot *snapshot, int width, int height)
{
  cairo_t *cr = NULL;
  graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, width, height);
  guint64 in_view = 0;
  gboolean have_active = FALSE;
  double active_x = 0, active_y = 0;
  const double *active_rgb = NULL;

  for (guint l = 0; l < self->slots->len && in_view <= KEY_BUDGET; l++)
    {
      Slot *s = &g_array_index (self->slots, Slot, l);
      const TressCurve *c = slot_curve (self, s);
      guint first, end;

      if (c == NULL || !slot_shown (self, s))
        continue;
      keys_in_view (self, c, &first, &end);
      in_view += end - first;
    }
  if (in_view > KEY_BUDGET)
    {
      draw_keys_thinned (self, snapshot, width, height);
      return;
    }

  for (guint l = 0; l < self->slots->len; l++)
    {
      Slot *s = &g_array_index (self->slots, Slot, l);
      const TressCurve *c = slot_curve (self, s);
      TressValueMap map = slot_map (self, s);
      guint first, end;
      gboolean dense;
      float dim = s->locked ? 0.5f : 1.0f;

      if (c == NULL || !slot_shown (self, s))
        continue;
      keys_in_view (self, c, &first, &end);
      /* Too many keys to tell apart: only the selected ones are marked. */
      dense = end - first > (guint)width / 4;

      for (guint k = first; k < end; k++)
        {
          const TressKey *key = tress_curve_get_key (c, k);
          double x = tress_curve_viewport_frame_to_x (&self->vp, key->frame);
          double y
              = tress_curve_viewport_value_to_y (&self->vp, key->value * map.scale + map.offset);
          gboolean selected = sel_has (self, s->index, k, TRESS_CURVE_PART_KEY);
          gboolean active
              = self->has_active && self->active_curve == s->index && self->active_key == k;
          static const TressCurvePart hparts[]
              = { TRESS_CURVE_PART_IN_HANDLE, TRESS_CURVE_PART_OUT_HANDLE };

          if (dense && !selected && !active)
            continue;
          /* Hermite handles: a line to a small square, at a third of the segment. */
          if (!dense && !s->locked)
            for (guint h = 0; h < 2; h++)
              {
                double hf, hv, hx, hy;
                gboolean hsel;

                if (!tress_curve_handle_point (c, k, hparts[h], &hf, &hv))
                  continue;
                hx = tress_curve_viewport_frame_to_x (&self->vp, hf);
                hy = tress_curve_viewport_value_to_y (&self->vp, hv * map.scale + map.offset);
                hsel = sel_has (self, s->index, k, hparts[h]);
                if (cr == NULL)
                  cr = gtk_snapshot_append_cairo (snapshot, &bounds);
                cairo_move_to (cr, x, y);
                cairo_line_to (cr, hx, hy);
                cairo_set_source_rgba (cr, 0.75, 0.75, 0.75, 0.8);
                cairo_set_line_width (cr, 1);
                cairo_stroke (cr);
                append_rect (snapshot, hx - HANDLE_SIZE / 2 - 1, hy - HANDLE_SIZE / 2 - 1,
                             HANDLE_SIZE + 2, HANDLE_SIZE + 2, 0.05f, 0.05f, 0.05f, 1);
                append_rect (snapshot, hx - HANDLE_SIZE / 2, hy - HANDLE_SIZE / 2, HANDLE_SIZE,
                             HANDLE_SIZE, hsel ? 1.0f : 0.80f, hsel ? 0.55f : 0.80f,
                             hsel ? 0.10f : 0.80f, 1);
              }
          if (active)
            {
              /* Drawn last, above every other key. */
              have_active = TRUE;
              active_x = x;
              active_y = y;
              active_rgb = s->color;
              continue;
            }
          draw_marker (snapshot, x, y, selected ? MARK_SELECTED : MARK_KEY, s->color, dim);
        }
    }
  if (cr != NULL)
    cairo_destroy (cr);
  if (have_active)
    draw_marker (snapshot, active_x, active_y, MARK_ACTIVE, active_rgb, 1);
}

static void
tress_curve_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  TressCurveView *self = TRESS_CURVE_VIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  double px;

  if (width <= 0 || height <= 0)
    return;
  append_rect (snapshot, 0, 0, width, height, 0.16f, 0.16f, 0.17f, 1);
  /* The automatic nudge step follows the grid: told after the frame. */
  if (self->nudge_step == 0 && self->nudge_idle == 0)
    {
      double now = tress_curve_view_get_nudge_step (self);

      if (now != self->nudge_told)
        {
          self->nudge_told = now;
          self->nudge_idle = g_idle_add (tell_nudge_step, self);
        }
    }
  draw_grid (self, snapshot, width, height);
  draw_lines (self, snapshot, width, height);
  draw_keys (self, snapshot, width, height);
  draw_value_labels (self, snapshot, height);

  px = tress_curve_viewport_frame_to_x (&self->vp, self->playhead);
  if (px >= -2 && px <= width + 2)
    {
      append_rect (snapshot, floor (px) - 0.5, 0, 2, height, 0.85f, 0.35f, 0.85f, 0.9f);
      draw_playhead_frame (self, snapshot, width, height);
    }

  if (self->drag_started && self->drag_error >= 0)
    draw_drag_error (self, snapshot, width, height);

  if (self->drag == DRAG_BOX && self->drag_started)
    {
      double x = MIN (self->drag_x0, self->drag_x), y = MIN (self->drag_y0, self->drag_y);
      double w = fabs (self->drag_x - self->drag_x0), h = fabs (self->drag_y - self->drag_y0);

      append_rect (snapshot, x, y, w, h, 1, 1, 1, 0.08f);
      append_rect (snapshot, x, y, w, 1, 1, 1, 1, 0.6f);
      append_rect (snapshot, x, y + h - 1, w, 1, 1, 1, 1, 0.6f);
      append_rect (snapshot, x, y, 1, h, 1, 1, 1, 0.6f);
      append_rect (snapshot, x + w - 1, y, 1, h, 1, 1, 1, 0.6f);
    }
}

static void
tress_curve_view_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  TressCurveView *self = TRESS_CURVE_VIEW (widget);
  double old_w = self->vp.width, old_h = self->vp.height;

  if (width <= 0 || height <= 0)
    return;
  /* Keep the scale: a wider view shows more frames. */
  self->vp.frame_max
      = self->vp.frame_min + (self->vp.frame_max - self->vp.frame_min) * width / old_w;
  self->vp.value_min
      = self->vp.value_max - (self->vp.value_max - self->vp.value_min) * height / old_h;
  self->vp.width = width;
  self->vp.height = height;
  if (!self->fitted && self->slots->len > 0)
    view_frame_all (self, FALSE);
  invalidate_lines (self);
}

static void
tress_curve_view_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                          int *natural, int *minimum_baseline, int *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 200 : 120;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 640 : 360;
}

/* ----------------------------------------------------------- document -- */

/* Remembers @index's curve as the selection now sees it. */
static void
see_curve (TressCurveView *self, guint index)
{
  const TressCurve *c
      = self->document != NULL ? tress_curve_document_get_curve (self->document, index) : NULL;

  if (c != NULL)
    g_hash_table_replace (self->seen, GUINT_TO_POINTER (index), tress_curve_copy (c));
  else
    g_hash_table_remove (self->seen, GUINT_TO_POINTER (index));
}

typedef struct
{
  const TressCurve *before;
  const TressCurve *now;
} FollowData;

static int
follow_key (guint key, gpointer data)
{
  FollowData *fd = data;

  return key < tress_curve_get_n_keys (fd->before) ? tress_curve_key_in (fd->before, key, fd->now)
                                                   : -1;
}

/* After @index changed from outside the view (undo, redo, another view), its
 * selected keys (and the active key) are found again by frame in what it holds
 * now; those gone are dropped. Indices alone would point at other keys. */
static void
follow_keys (TressCurveView *self, guint index)
{
  const TressCurve *before = g_hash_table_lookup (self->seen, GUINT_TO_POINTER (index));
  const TressCurve *now = tress_curve_document_get_curve (self->document, index);

  FollowData fd = { before, now };

  if (before == NULL || now == NULL || tress_curve_same_keys (before, now))
    return;
  tress_curve_selection_remap (self->selection, index, follow_key, &fd);
  if (self->has_active && self->active_curve == index)
    {
      int at = self->active_key < tress_curve_get_n_keys (before)
                   ? tress_curve_key_in (before, self->active_key, now)
                   : -1;

      if (at < 0)
        self->has_active = FALSE;
      else
        self->active_key = (guint)at;
    }
}

static void
on_curve_changed (TressCurveDocument *document, guint index, TressCurveView *self)
{
  g_hash_table_remove (self->extents, GUINT_TO_POINTER (index)); /* no old version kept */
  /* Changed by undo, redo or another view: what the line said of this view's
   * last edit (a refusal, what the format did beyond it) is past. */
  if (!self->committing)
    set_message (self, NULL);
  if (slot_for (self, index) == NULL)
    return;
  if (!self->committing)
    follow_keys (self, index);
  if (tress_curve_selection_has_curve (self->selection, index)
      || (self->has_active && self->active_curve == index))
    see_curve (self, index);
  else
    g_hash_table_remove (self->seen, GUINT_TO_POINTER (index));
  prune_curve_selection (self, index);
  invalidate_lines (self);
  g_signal_emit (self, signals[SIGNAL_CURVES_CHANGED], 0);
  emit_selection_changed (self);
}

static void
on_curves_reset (TressCurveDocument *document, TressCurveView *self)
{
  g_hash_table_remove_all (self->extents);
  tress_curve_view_set_curves (self, NULL, 0);
}

void
tress_curve_view_set_document (TressCurveView *self, TressCurveDocument *document)
{
  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  g_return_if_fail (document == NULL || TRESS_IS_CURVE_DOCUMENT (document));

  if (self->document == document)
    return;
  tress_curve_view_set_curves (self, NULL, 0);
  g_hash_table_remove_all (self->extents);
  if (self->document != NULL)
    {
      g_clear_signal_handler (&self->changed_id, self->document);
      g_clear_signal_handler (&self->reset_id, self->document);
      g_clear_object (&self->document);
    }
  if (document != NULL)
    {
      self->document = g_object_ref (document);
      self->changed_id
          = g_signal_connect (document, "curve-changed", G_CALLBACK (on_curve_changed), self);
      self->reset_id
          = g_signal_connect (document, "curves-reset", G_CALLBACK (on_curves_reset), self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_DOCUMENT]);
}

TressCurveDocument *
tress_curve_view_get_document (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), NULL);
  return self->document;
}

static gboolean
is_shown (guint curve, gpointer data)
{
  return slot_for (data, curve) != NULL;
}

void
tress_curve_view_set_curves (TressCurveView *self, const guint *indices, guint n_indices)
{
  g_autoptr (GArray) old = NULL;
  g_autoptr (GHashTable) old_of = NULL;
  guint palette = 0;

  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  drag_discard (self);
  self->drag = DRAG_NONE;
  old = g_array_copy (self->slots);
  old_of = g_steal_pointer (&self->slot_of);
  self->slot_of = g_hash_table_new (NULL, NULL);
  self->n_solo = 0;
  g_array_set_size (self->slots, 0);
  for (guint i = 0; i < n_indices; i++)
    {
      Slot s = { 0 };
      const TressCurve *c;
      guint was;

      if (self->document == NULL || indices[i] >= tress_curve_document_get_n_curves (self->document)
          || slot_for (self, indices[i]) != NULL)
        continue;
      c = tress_curve_document_get_curve (self->document, indices[i]);
      s.index = indices[i];
      s.visible = TRUE;
      /* A curve shown before keeps its hidden / locked state. */
      was = GPOINTER_TO_UINT (g_hash_table_lookup (old_of, GUINT_TO_POINTER (s.index)));
      if (was > 0)
        {
          s.visible = g_array_index (old, Slot, was - 1).visible;
          s.locked = g_array_index (old, Slot, was - 1).locked;
          s.solo = g_array_index (old, Slot, was - 1).solo;
        }
      self->n_solo += s.solo;
      tress_curve_component_color (c->component, palette, s.color);
      if (c->component == NULL || strlen (c->component) != 1)
        palette++;
      g_array_append_val (self->slots, s);
      g_hash_table_insert (self->slot_of, GUINT_TO_POINTER (s.index),
                           GUINT_TO_POINTER (self->slots->len));
    }
  /* Selected keys of curves no longer shown are dropped. */
  tress_curve_selection_filter_curves (self->selection, is_shown, self);
  if (self->has_active && slot_for (self, self->active_curve) == NULL)
    self->has_active = FALSE;
  g_hash_table_remove_all (self->seen);
  {
    g_autoptr (GArray) curves = tress_curve_selection_dup_curves (self->selection);

    for (guint i = 0; i < curves->len; i++)
      see_curve (self, g_array_index (curves, guint, i));
    if (self->has_active)
      sel_see (self, self->active_curve);
  }
  self->fitted = FALSE;
  if (gtk_widget_get_width (GTK_WIDGET (self)) > 0 && self->slots->len > 0)
    view_frame_all (self, FALSE);
  invalidate_lines (self);
  g_signal_emit (self, signals[SIGNAL_CURVES_CHANGED], 0);
  emit_selection_changed (self);
}

guint
tress_curve_view_get_n_curves (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 0);
  return self->slots->len;
}

guint
tress_curve_view_get_curve_index (TressCurveView *self, guint slot)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 0);
  g_return_val_if_fail (slot < self->slots->len, 0);
  return g_array_index (self->slots, Slot, slot).index;
}

void
tress_curve_view_set_curve_flags (TressCurveView *self, const guint *indices, guint n_indices,
                                  TressCurveFlag flag, gboolean value)
{
  gboolean changed = FALSE, drop_selection = FALSE;
  guint was_solo = self->n_solo;

  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  value = !!value;
  for (guint i = 0; i < n_indices; i++)
    {
      Slot *s = slot_for (self, indices[i]);
      gboolean *field;

      if (s == NULL)
        continue;
      field = flag == TRESS_CURVE_FLAG_VISIBLE  ? &s->visible
              : flag == TRESS_CURVE_FLAG_LOCKED ? &s->locked
                                                : &s->solo;
      if (*field == value)
        continue;
      *field = value;
      changed = TRUE;
      if (flag == TRESS_CURVE_FLAG_SOLO)
        self->n_solo += value ? 1 : -1;
      /* Hidden or locked curves keep no selected keys. */
      if ((flag == TRESS_CURVE_FLAG_VISIBLE && !value)
          || (flag == TRESS_CURVE_FLAG_LOCKED && value))
        {
          drop_selection |= tress_curve_selection_has_curve (self->selection, s->index);
          tress_curve_selection_clear_curve (self->selection, s->index);
        }
    }
  if (!changed)
    return;
  /* Curves no longer drawn (solo elsewhere) keep no selected keys either. */
  if (self->n_solo > 0 && (flag != TRESS_CURVE_FLAG_SOLO || was_solo != self->n_solo))
    for (guint i = 0; i < self->slots->len; i++)
      {
        Slot *s = &g_array_index (self->slots, Slot, i);

        if (!slot_shown (self, s) && tress_curve_selection_has_curve (self->selection, s->index))
          {
            tress_curve_selection_clear_curve (self->selection, s->index);
            drop_selection = TRUE;
          }
      }
  if (self->has_active)
    {
      Slot *s = slot_for (self, self->active_curve);

      if (s == NULL || !slot_shown (self, s) || s->locked)
        {
          self->has_active = FALSE;
          drop_selection = TRUE;
        }
    }
  if (drop_selection)
    emit_selection_changed (self);
  invalidate_lines (self);
  g_signal_emit (self, signals[SIGNAL_CURVES_CHANGED], 0);
}

void
tress_curve_view_set_curve_visible (TressCurveView *self, guint curve_index, gboolean visible)
{
  tress_curve_view_set_curve_flags (self, &curve_index, 1, TRESS_CURVE_FLAG_VISIBLE, visible);
}

void
tress_curve_view_set_curve_locked (TressCurveView *self, guint curve_index, gboolean locked)
{
  tress_curve_view_set_curve_flags (self, &curve_index, 1, TRESS_CURVE_FLAG_LOCKED, locked);
}

void
tress_curve_view_set_curve_solo (TressCurveView *self, guint curve_index, gboolean solo)
{
  tress_curve_view_set_curve_flags (self, &curve_index, 1, TRESS_CURVE_FLAG_SOLO, solo);
}

gboolean
tress_curve_view_get_curve_solo (TressCurveView *self, guint curve_index)
{
  Slot *s = slot_for (self, curve_index);
  return s != NULL && s->solo;
}

gboolean
tress_curve_view_get_curve_shown (TressCurveView *self, guint curve_index)
{
  Slot *s = slot_for (self, curve_index);
  return s != NULL && slot_shown (self, s);
}

gboolean
tress_curve_view_get_curve_visible (TressCurveView *self, guint curve_index)
{
  Slot *s = slot_for (self, curve_index);
  return s != NULL && s->visible;
}

gboolean
tress_curve_view_get_curve_locked (TressCurveView *self, guint curve_index)
{
  Slot *s = slot_for (self, curve_index);
  return s != NULL && s->locked;
}

void
tress_curve_view_get_curve_color (TressCurveView *self, guint curve_index, GdkRGBA *color)
{
  Slot *s = slot_for (self, curve_index);

  *color = (GdkRGBA){ 0.8f, 0.8f, 0.8f, 1 };
  if (s != NULL)
    *color = (GdkRGBA){ (float)s->color[0], (float)s->color[1], (float)s->color[2], 1 };
}

gboolean
tress_curve_view_is_selected (TressCurveView *self, guint curve_index, guint key,
                              TressCurvePart part)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), FALSE);
  return sel_has (self, curve_index, key, part);
}

guint
tress_curve_view_get_n_selected_keys (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 0);
  return count_selected_keys (self);
}

void
tress_curve_view_select_key (TressCurveView *self, guint curve_index, guint key,
                             TressCurvePart part, gboolean extend)
{
  Slot *s;
  const TressCurve *c;

  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  s = slot_for (self, curve_index);
  c = s ? slot_curve (self, s) : NULL;
  if (c == NULL || key >= tress_curve_get_n_keys (c))
    return;
  if (s->locked)
    {
      set_message (self, _ ("This curve is locked: unlock it to select its keys"));
      return;
    }
  if (!extend)
    sel_clear (self);
  sel_add (self, curve_index, key, part);
  set_active (self, curve_index, key);
  emit_selection_changed (self);
}

void
tress_curve_view_select_all_of (TressCurveView *self, const guint *indices, guint n_indices)
{
  gboolean first = TRUE;

  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  sel_clear (self);
  self->has_active = FALSE;
  for (guint i = 0; i < n_indices; i++)
    {
      Slot *s = slot_for (self, indices[i]);
      const TressCurve *c = s != NULL ? slot_curve (self, s) : NULL;

      if (c == NULL || s->locked || !slot_shown (self, s) || tress_curve_get_n_keys (c) == 0)
        continue;
      tress_curve_selection_add_range (self->selection, s->index, tress_curve_get_n_keys (c));
      sel_see (self, s->index);
      if (first)
        set_active (self, s->index, 0);
      first = FALSE;
    }
  emit_selection_changed (self);
}

void
tress_curve_view_select_none (TressCurveView *self)
{
  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  if (tress_curve_selection_get_n_items (self->selection) == 0 && !self->has_active)
    return;
  sel_clear (self);
  self->has_active = FALSE;
  emit_selection_changed (self);
}

gboolean
tress_curve_view_get_active_key (TressCurveView *self, guint *curve_index, guint *key)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), FALSE);
  if (!self->has_active)
    return FALSE;
  if (curve_index != NULL)
    *curve_index = self->active_curve;
  if (key != NULL)
    *key = self->active_key;
  return TRUE;
}

static const TressCurveOps *
document_ops (TressCurveView *self)
{
  return self->document != NULL
             ? tress_document_get_format (TRESS_DOCUMENT (self->document))->curves
             : NULL;
}

/* After a key edit was refused: when its frame lies between the frames curve
 * @index stores and a wider frame type of the format holds it, the refusal
 * says what widening would cost and the edit is kept for
 * tress_curve_view_commit_frame_widening(). Never widens by itself. */
static void
offer_frame_widening (TressCurveView *self, guint index, guint key, const TressKey *value)
{
  const TressCurveOps *ops = document_ops (self);
  const TressCurve *c = tress_curve_document_get_curve (self->document, index);
  double step = c != NULL ? c->limits.frame_step : 0;
  g_autofree char *cost = NULL, *msg = NULL;

  if (ops == NULL || ops->describe_frame_widening == NULL || ops->widen_frames == NULL
      || !(step > 0) || round (value->frame / step) * step == value->frame)
    return;
  cost = ops->describe_frame_widening (tress_document_get_model (TRESS_DOCUMENT (self->document)),
                                       index, value->frame);
  if (cost == NULL)
    return;
  clear_pending (self);
  self->frames_offer = TRUE;
  self->frames_curve = index;
  self->frames_key = key;
  self->frames_value = *value;
  self->frames_cost = g_steal_pointer (&cost);
  msg = g_strdup_printf (
      /* TRANSLATORS: the last %s says what a wider frame type costs, e.g. "Frames in steps of
       * 1/32 (s10.5): the file grows by 18 bytes" */
      _ ("Edit key refused: frame %g lies between the frames this curve stores (every %g); a "
         "wider frame type would hold it (%s)"),
      value->frame, step, self->frames_cost);
  /* The message may be the same text as before: the offer is new. */
  g_clear_pointer (&self->message, g_free);
  set_message (self, msg);
}

gboolean
tress_curve_view_get_frame_widening (TressCurveView *self, const char **cost)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), FALSE);
  if (cost != NULL)
    *cost = self->frames_offer ? self->frames_cost : NULL;
  return self->frames_offer;
}

typedef struct
{
  const TressCurveOps *ops;
  guint key;
  TressKey value;
  GArray *keys; /* out: the edited key's index afterwards */
} WidenFramesEdit;

/* Widens the frames of curve @index so they hold the edited key's frame, then
 * stores the key edit on the widened curve. */
static gboolean
widen_frames_and_edit (gpointer model, guint index, gpointer data, double *max_error,
                       GError **error)
{
  WidenFramesEdit *w = data;
  g_autoptr (TressCurveEditBatch) batch = tress_curve_edit_batch_new ();
  g_autoptr (TressCurve) now = NULL;
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_SET_KEY, .key = w->key, .value = w->value };

  if (!w->ops->widen_frames (model, index, w->value.frame, error))
    return FALSE;
  now = w->ops->get_curve (model, index);
  if (!tress_curve_edit_batch_add (batch, index, now, &w->key, 1, &e, error))
    return FALSE;
  if (tress_curve_edit_batch_get_n_changed (batch) == 0)
    return TRUE;
  g_array_append_vals (w->keys, tress_curve_edit_batch_get_keys (batch, 0)->data,
                       tress_curve_edit_batch_get_keys (batch, 0)->len);
  return tress_curve_commit (w->ops, model, index, tress_curve_edit_batch_get_curve (batch, 0),
                             TRESS_COMMIT_WIDEN_FRAMES, max_error, error);
}

typedef struct
{
  const TressCurveOps *ops;
  const TressCurve *curve;
} WidenSetEdit;

/* Widens the frames of curve @index until they hold its keys, then stores
 * the curve. */
static gboolean
widen_frames_and_set (gpointer model, guint index, gpointer data, double *max_error, GError **error)
{
  WidenSetEdit *w = data;

  return tress_curve_commit (w->ops, model, index, w->curve, TRESS_COMMIT_WIDEN_FRAMES, max_error,
                             error);
}

/* The kept edit of several curves, each widened where it needs it: one undo step. */
static gboolean
commit_batch_frame_widening (TressCurveView *self, GError **error)
{
  const TressCurveOps *ops = document_ops (self);
  g_autofree char *label = g_strdup (self->frames_label);
  g_autoptr (GPtrArray) curves = g_ptr_array_ref (self->frames_curves);
  g_autoptr (GArray) indices = g_array_ref (self->frames_indices);
  g_autoptr (GPtrArray) keys = g_ptr_array_ref (self->frames_keys);
  Notices notices = { NULL, 0 };
  g_autofree char *notice = NULL;
  gboolean ok = TRUE;

  clear_pending (self);
  tress_curve_document_begin_edit (self->document, label);
  self->committing = TRUE;
  for (guint i = 0; i < curves->len && ok; i++)
    {
      WidenSetEdit w = { ops, curves->pdata[i] };

      ok = tress_curve_document_apply_model_edit (self->document, g_array_index (indices, guint, i),
                                                  label, widen_frames_and_set, &w, error);
      if (ok)
        add_notice (self, g_array_index (indices, guint, i), &notices);
    }
  if (ok)
    tress_curve_document_end_edit (self->document);
  else
    tress_curve_document_cancel_edit (self->document); /* all or nothing */
  self->committing = FALSE;
  if (ok)
    {
      notice = notices_dup_text (&notices);
      set_message (self, notice);
      for (guint i = 0; i < curves->len; i++)
        replace_curve_selection (self, g_array_index (indices, guint, i), keys->pdata[i]);
    }
  else if (error != NULL && *error != NULL)
    {
      g_autofree char *msg = g_strdup_printf (_ ("%s refused: %s"), label, (*error)->message);
      set_message (self, msg);
    }
  g_free (notices.first);
  prune_selection (self);
  emit_selection_changed (self);
  return ok;
}

gboolean
tress_curve_view_commit_frame_widening (TressCurveView *self, GError **error)
{
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint));
  WidenFramesEdit w;
  guint index;
  gboolean ok;

  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), FALSE);
  if (!self->frames_offer || self->document == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, "%s", _ ("No edit is waiting"));
      return FALSE;
    }
  if (self->frames_curves != NULL)
    return commit_batch_frame_widening (self, error);
  w = (WidenFramesEdit){ document_ops (self), self->frames_key, self->frames_value, keys };
  index = self->frames_curve;
  clear_pending (self);
  self->committing = TRUE;
  ok = tress_curve_document_apply_model_edit (self->document, index,
                                              _ ("Widen the frames and edit 1 key"),
                                              widen_frames_and_edit, &w, error);
  self->committing = FALSE;
  if (ok)
    {
      Notices notices = { NULL, 0 };
      g_autofree char *notice = NULL;

      add_notice (self, index, &notices);
      notice = notices_dup_text (&notices);
      g_free (notices.first);
      set_message (self, notice);
      replace_curve_selection (self, index, keys);
      if (keys->len > 0)
        set_active (self, index, g_array_index (keys, guint, 0));
    }
  else if (error != NULL && *error != NULL)
    {
      g_autofree char *msg = g_strdup_printf (_ ("Edit key refused: %s"), (*error)->message);
      set_message (self, msg);
    }
  prune_selection (self);
  emit_selection_changed (self);
  return ok;
}

gboolean
tress_curve_view_set_key (TressCurveView *self, guint curve_index, guint key, const TressKey *value,
                          GError **error)
{
  Slot *s = slot_for (self, curve_index);
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_SET_KEY, .key = key, .value = *value };
  g_autoptr (TressCurveSelection) keep = NULL;
  gboolean ok;

  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), FALSE);
  if (s == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, _ ("curve %u is not shown"),
                   curve_index);
      return FALSE;
    }
  if (s->locked)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, _ ("the curve is locked"));
      set_message (self, _ ("Edit key refused: the curve is locked"));
      return FALSE;
    }
  /* Edit exactly this key: make it the selection of its curve for the edit. */
  keep = tress_curve_selection_copy (self->selection);
  sel_clear (self);
  sel_add (self, curve_index, key, TRESS_CURVE_PART_KEY);
  ok = apply_edit (self, &e, 1, TARGET_SELECTED, NULL, NULL);
  if (!ok)
    offer_frame_widening (self, curve_index, key, value);
  if (!ok)
    {
      tress_curve_selection_free (self->selection);
      self->selection = g_steal_pointer (&keep);
      prune_selection (self);
      if (self->message != NULL)
        g_set_error_literal (error, TRESS_ERROR, TRESS_ERROR_REFUSED, self->message);
      else
        g_set_error_literal (error, TRESS_ERROR, TRESS_ERROR_REFUSED, _ ("nothing changed"));
      emit_selection_changed (self);
    }
  else
    {
      g_autoptr (GArray) keys = selected_keys_of (self, curve_index);
      guint k = keys->len > 0 ? g_array_index (keys, guint, 0) : 0;

      set_active (self, curve_index, k);
      emit_selection_changed (self);
    }
  return ok;
}

gboolean
tress_curve_view_set_curve_interpolation (TressCurveView *self, guint curve_index,
                                          TressInterp interp, GError **error)
{
  Slot *s = slot_for (self, curve_index);
  const TressCurve *c = s != NULL ? slot_curve (self, s) : NULL;
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_INTERP, .interp = interp };
  g_autoptr (TressCurveSelection) keep = NULL;
  gboolean had_active = self->has_active;
  guint active_curve = self->active_curve, active_key = self->active_key;
  gboolean ok;

  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), FALSE);
  if (c == NULL || tress_curve_get_n_keys (c) == 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, _ ("curve %u is not shown"),
                   curve_index);
      return FALSE;
    }
  if (s->locked)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, _ ("the curve is locked"));
      set_message (self, _ ("Set interpolation refused: the curve is locked"));
      return FALSE;
    }
  /* Every key of the curve, the selection put back afterwards. */
  keep = tress_curve_selection_copy (self->selection);
  sel_clear (self);
  tress_curve_selection_add_range (self->selection, curve_index, tress_curve_get_n_keys (c));
  sel_see (self, curve_index);
  ok = apply_edit (self, &e, tress_curve_get_n_keys (c), TARGET_SELECTED, NULL, NULL);
  tress_curve_selection_free (self->selection);
  self->selection = g_steal_pointer (&keep);
  self->has_active = had_active;
  self->active_curve = active_curve;
  self->active_key = active_key;
  prune_selection (self);
  if (!ok)
    g_set_error_literal (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                         self->message != NULL ? self->message : _ ("nothing changed"));
  emit_selection_changed (self);
  return ok;
}

void
tress_curve_view_get_viewport (TressCurveView *self, TressCurveViewport *vp)
{
  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  *vp = self->vp;
}

void
tress_curve_view_set_viewport (TressCurveView *self, const TressCurveViewport *vp)
{
  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  self->vp.frame_min = vp->frame_min;
  self->vp.frame_max = vp->frame_max;
  self->vp.value_min = vp->value_min;
  self->vp.value_max = vp->value_max;
  self->fitted = TRUE;
  invalidate_lines (self);
}

void
tress_curve_view_set_ghost (TressCurveView *self, guint curve_index, const TressCurve *curve)
{
  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  if (curve != NULL)
    g_hash_table_replace (self->ghosts, GUINT_TO_POINTER (curve_index),
                          tress_curve_ref ((TressCurve *)curve));
  else if (!g_hash_table_remove (self->ghosts, GUINT_TO_POINTER (curve_index)))
    return;
  invalidate_lines (self);
}

void
tress_curve_view_clear_ghosts (TressCurveView *self)
{
  g_return_if_fail (TRESS_IS_CURVE_VIEW (self));
  if (g_hash_table_size (self->ghosts) == 0)
    return;
  g_hash_table_remove_all (self->ghosts);
  invalidate_lines (self);
}

const TressCurve *
tress_curve_view_get_ghost (TressCurveView *self, guint curve_index)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), NULL);
  return g_hash_table_lookup (self->ghosts, GUINT_TO_POINTER (curve_index));
}

guint
tress_curve_view_get_n_ghosts (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 0);
  return g_hash_table_size (self->ghosts);
}

const TressCurve *
tress_curve_view_get_shown_curve (TressCurveView *self, guint curve_index)
{
  Slot *s = slot_for (self, curve_index);
  return s ? slot_curve (self, s) : NULL;
}

gboolean
tress_curve_view_get_point (TressCurveView *self, guint curve_index, guint key, TressCurvePart part,
                            double *x, double *y)
{
  Slot *s = slot_for (self, curve_index);
  const TressCurve *c = s ? slot_curve (self, s) : NULL;
  TressValueMap map;
  double f, v;

  if (c == NULL || key >= tress_curve_get_n_keys (c))
    return FALSE;
  map = slot_map (self, s);
  if (part == TRESS_CURVE_PART_KEY)
    {
      f = tress_curve_get_key (c, key)->frame;
      v = tress_curve_get_key (c, key)->value;
    }
  else if (!tress_curve_handle_point (c, key, part, &f, &v))
    return FALSE;
  *x = tress_curve_viewport_frame_to_x (&self->vp, f);
  *y = tress_curve_viewport_value_to_y (&self->vp, v * map.scale + map.offset);
  return TRUE;
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
  view_set_playhead (self, frame);
}

double
tress_curve_view_get_drag_error (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), -1);
  return self->drag_error;
}

double
tress_curve_view_get_drag_error_scale (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), 1);
  return self->drag_error >= 0 ? self->drag_error_scale : 1;
}

char *
tress_curve_view_dup_drag_error_text (TressCurveView *self)
{
  Slot *grab;
  g_autofree char *stored = NULL, *err = NULL;
  double tolerance, escale;
  /* Degrees are shown with their sign: the graph, the table and the panel
   * show angles in degrees, and so does the text next to the pointer. */
  const char *eunit;

  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), NULL);
  if (self->drag_error < 0)
    return NULL;
  tolerance = drag_tolerance (self);
  /* The grabbed key's value as the file would store it, and the step, in
   * the unit the curve is shown in. */
  grab = slot_for (self, self->drag_hit.curve);
  if (self->drag == DRAG_KEYS && grab != NULL && grab->orig != NULL && grab->orig->value_step > 0
      && self->drag_hit.key < tress_curve_get_n_keys (grab->orig))
    {
      TressValueMap map = slot_map (self, grab);
      double v = tress_curve_get_key (grab->orig, self->drag_hit.key)->value
                 + self->drag_dv / (map.scale != 0 ? map.scale : 1);
      double unit = unit_scale (self, grab->orig);
      const char *sign = unit != 1 ? "°" : "";
      gboolean fits;
      double s = tress_curve_stored_value (grab->orig, v, &fits);

      if (fits)
        /* TRANSLATORS: shown next to the pointer while keys are dragged; the
         * %s after each number is its unit ("°" for angles shown in degrees,
         * else empty) */
        stored = g_strdup_printf (_ ("Stored %.6g%s (step %.3g%s)"), s * unit, sign,
                                  grab->orig->value_step * unit, sign);
      else
        /* TRANSLATORS: shown next to the pointer while keys are dragged; %s: the unit */
        stored = g_strdup_printf (_ ("%.6g%s is outside the stored range: the curve gets a new "
                                     "step"),
                                  v * unit, sign);
    }
  escale = self->drag_error_scale;
  eunit = escale != 1 ? "°" : "";
  if (self->drag_error > tolerance)
    /* TRANSLATORS: shown next to the pointer while keys are dragged; %s: the unit */
    err = g_strdup_printf (_ ("Stored error %.4g%s (over the tolerance %.4g%s)"),
                           self->drag_error * escale, eunit, tolerance * escale, eunit);
  else
    /* TRANSLATORS: shown next to the pointer while keys are dragged; %s: the unit */
    err = g_strdup_printf (_ ("Stored error %.4g%s"), self->drag_error * escale, eunit);
  if (stored == NULL)
    return g_steal_pointer (&err);
  return g_strdup_printf ("%s · %s", stored, err);
}

const char *
tress_curve_view_get_message (TressCurveView *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), NULL);
  return self->message;
}

gboolean
tress_curve_view_get_pending_end (TressCurveView *self, double *new_end)
{
  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), FALSE);
  if (self->pending_curves == NULL)
    return FALSE;
  if (new_end != NULL)
    *new_end = self->pending_end;
  return TRUE;
}

/* Raises the length of the curve's animation, then stores the curve. */
static gboolean
lengthen_curve (gpointer model, guint index, gpointer data, double *max_error, GError **error)
{
  LengthenEdit *edit = data;

  /* Lengthening stores the keys as they are: a frame type that cannot hold
   * them is widened, which the offer said. */
  return tress_curve_commit (edit->ops, model, index, edit->curve,
                             TRESS_COMMIT_LENGTHEN | TRESS_COMMIT_WIDEN_FRAMES, max_error, error);
}

gboolean
tress_curve_view_commit_pending (TressCurveView *self, GError **error)
{
  gboolean ok = TRUE;
  g_autofree char *label = NULL;
  const TressCurveOps *ops;

  g_return_val_if_fail (TRESS_IS_CURVE_VIEW (self), FALSE);
  if (self->pending_curves == NULL || self->document == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, "%s", _ ("No edit is waiting"));
      return FALSE;
    }
  ops = tress_document_get_format (TRESS_DOCUMENT (self->document))->curves;
  if (ops == NULL || ops->set_frame_count == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, "%s",
                   _ ("This format cannot change the length of an animation"));
      return FALSE;
    }
  label = g_strdup (self->pending_label);
  tress_curve_document_begin_edit (self->document, label);
  self->committing = TRUE;
  for (guint i = 0; i < self->pending_curves->len && ok; i++)
    {
      TressCurve *c = self->pending_curves->pdata[i];
      guint index = g_array_index (self->pending_indices, guint, i);

      if (g_array_index (self->pending_past_end, gboolean, i))
        {
          LengthenEdit edit = { ops, c };

          ok = tress_curve_document_apply_model_edit (self->document, index, label, lengthen_curve,
                                                      &edit, error);
        }
      else
        ok = tress_curve_document_commit_curve (self->document, index, c, 0, label, error);
    }
  if (ok)
    tress_curve_document_end_edit (self->document);
  else
    tress_curve_document_cancel_edit (self->document); /* all or nothing */
  self->committing = FALSE;
  clear_pending (self);
  set_message (self, NULL);
  prune_selection (self);
  emit_selection_changed (self);
  return ok;
}

GtkWidget *
tress_curve_view_new (void)
{
  return g_object_new (TRESS_TYPE_CURVE_VIEW, NULL);
}

/* ------------------------------------------------------------ GObject -- */

static void
tress_curve_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  TressCurveView *self = TRESS_CURVE_VIEW (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_NORMALIZED:
      g_value_set_boolean (value, self->normalized);
      break;
    case PROP_SNAP:
      g_value_set_boolean (value, self->snap);
      break;
    case PROP_AXIS_LOCK:
      g_value_set_int (value, self->axis_lock);
      break;
    case PROP_PLAYHEAD:
      g_value_set_double (value, self->playhead);
      break;
    case PROP_PLAYING:
      g_value_set_boolean (value, self->playing);
      break;
    case PROP_LOOP:
      g_value_set_boolean (value, self->loop);
      break;
    case PROP_MESSAGE:
      g_value_set_string (value, self->message);
      break;
    case PROP_TOLERANCE:
      g_value_set_double (value, self->tolerance);
      break;
    case PROP_DRAG_ERROR:
      g_value_set_double (value, self->drag_error);
      break;
    case PROP_DEFAULT_FPS:
      g_value_set_double (value, self->default_fps);
      break;
    case PROP_DEGREES:
      g_value_set_boolean (value, self->degrees);
      break;
    case PROP_NUDGE_STEP:
      g_value_set_double (value, self->nudge_step);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tress_curve_view_set_property (GObject *object, guint prop_id, const GValue *value,
                               GParamSpec *pspec)
{
  TressCurveView *self = TRESS_CURVE_VIEW (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      tress_curve_view_set_document (self, g_value_get_object (value));
      break;
    case PROP_NORMALIZED:
      if (self->normalized != g_value_get_boolean (value))
        {
          self->normalized = g_value_get_boolean (value);
          self->fitted = FALSE;
          view_frame_all (self, FALSE);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_SNAP:
      if (self->snap != g_value_get_boolean (value))
        {
          self->snap = g_value_get_boolean (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_AXIS_LOCK:
      if ((int)self->axis_lock != g_value_get_int (value))
        {
          self->axis_lock = (TressAxisLock)g_value_get_int (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_PLAYHEAD:
      view_set_playhead (self, g_value_get_double (value));
      break;
    case PROP_PLAYING:
      set_playing (self, g_value_get_boolean (value));
      break;
    case PROP_LOOP:
      if (self->loop != g_value_get_boolean (value))
        {
          self->loop = g_value_get_boolean (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_TOLERANCE:
      if (self->tolerance != g_value_get_double (value))
        {
          self->tolerance = g_value_get_double (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_DEFAULT_FPS:
      if (self->default_fps != g_value_get_double (value))
        {
          self->default_fps = g_value_get_double (value);
          if (self->playing)
            {
              /* Playing on from here at the new rate. */
              self->play_start_time = 0;
              self->play_start_frame = self->playhead;
            }
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_NUDGE_STEP:
      tress_curve_view_set_nudge_step (self, g_value_get_double (value));
      break;
    case PROP_DEGREES:
      if (self->degrees != g_value_get_boolean (value))
        {
          self->degrees = g_value_get_boolean (value);
          self->fitted = FALSE;
          view_frame_all (self, FALSE);
          g_object_notify_by_pspec (object, pspec);
          g_signal_emit (self, signals[SIGNAL_CURVES_CHANGED], 0);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tress_curve_view_dispose (GObject *object)
{
  TressCurveView *self = TRESS_CURVE_VIEW (object);

  if (self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }
  tress_curve_view_set_document (self, NULL);
  g_clear_handle_id (&self->nudge_idle, g_source_remove);
  g_clear_pointer (&self->lines_node, gsk_render_node_unref);
  G_OBJECT_CLASS (tress_curve_view_parent_class)->dispose (object);
}

static void
tress_curve_view_finalize (GObject *object)
{
  TressCurveView *self = TRESS_CURVE_VIEW (object);

  drag_discard (self);
  g_array_unref (self->slots);
  g_hash_table_unref (self->slot_of);
  tress_curve_selection_free (self->selection);
  g_hash_table_unref (self->seen);
  g_hash_table_unref (self->broken);
  g_hash_table_unref (self->ghosts);
  g_hash_table_unref (self->extents);
  clear_pending (self);
  g_free (self->message);
  G_OBJECT_CLASS (tress_curve_view_parent_class)->finalize (object);
}

static void
tress_curve_view_class_init (TressCurveViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = tress_curve_view_get_property;
  object_class->set_property = tress_curve_view_set_property;
  object_class->dispose = tress_curve_view_dispose;
  object_class->finalize = tress_curve_view_finalize;
  widget_class->snapshot = tress_curve_view_snapshot;
  widget_class->size_allocate = tress_curve_view_size_allocate;
  widget_class->measure = tress_curve_view_measure;

  props[PROP_DOCUMENT]
      = g_param_spec_object ("document", NULL, NULL, TRESS_TYPE_CURVE_DOCUMENT,
                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  props[PROP_NORMALIZED]
      = g_param_spec_boolean ("normalized", NULL, NULL, FALSE,
                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  props[PROP_SNAP]
      = g_param_spec_boolean ("snap", NULL, NULL, TRUE,
                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  props[PROP_AXIS_LOCK] = g_param_spec_int (
      "axis-lock", NULL, NULL, TRESS_AXIS_LOCK_NONE, TRESS_AXIS_LOCK_VALUE, TRESS_AXIS_LOCK_NONE,
      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  props[PROP_PLAYHEAD]
      = g_param_spec_double ("playhead", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0,
                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  props[PROP_PLAYING]
      = g_param_spec_boolean ("playing", NULL, NULL, FALSE,
                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  props[PROP_LOOP]
      = g_param_spec_boolean ("loop", NULL, NULL, TRUE,
                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  props[PROP_MESSAGE]
      = g_param_spec_string ("message", NULL, NULL, NULL,
                             G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  props[PROP_TOLERANCE]
      = g_param_spec_double ("tolerance", NULL, NULL, -1, G_MAXDOUBLE, -1,
                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  props[PROP_DRAG_ERROR]
      = g_param_spec_double ("drag-error", NULL, NULL, -1, G_MAXDOUBLE, -1,
                             G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  props[PROP_DEFAULT_FPS]
      = g_param_spec_double ("default-fps", NULL, NULL, 1, 1000, 30,
                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  props[PROP_DEGREES]
      = g_param_spec_boolean ("degrees", NULL, NULL, TRUE,
                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* 0: a tenth of the value grid's spacing (tress_curve_view_get_nudge_step
   * gives the step in use; notified also when the automatic one changes). */
  props[PROP_NUDGE_STEP]
      = g_param_spec_double ("nudge-step", NULL, NULL, 0, G_MAXDOUBLE, 0,
                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);

  signals[SIGNAL_SELECTION_CHANGED]
      = g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                      NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_DRAG_UPDATE]
      = g_signal_new ("drag-update", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_CURVES_CHANGED]
      = g_signal_new ("curves-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 0);

  gtk_widget_class_install_action (widget_class, "curve.select-all", NULL, act_select_all);
  gtk_widget_class_install_action (widget_class, "curve.select-none", NULL, act_select_none);
  gtk_widget_class_install_action (widget_class, "curve.select-key", "(uub)", act_select_key);
  gtk_widget_class_install_action (widget_class, "curve.click", "(ddb)", act_click);
  gtk_widget_class_install_action (widget_class, "curve.drag", "(ddddb)", act_drag);
  gtk_widget_class_install_action (widget_class, "curve.box-select", "(ddddb)", act_box_select);
  gtk_widget_class_install_action (widget_class, "curve.previous-key", NULL, act_step_key);
  gtk_widget_class_install_action (widget_class, "curve.next-key", NULL, act_step_key);
  gtk_widget_class_install_action (widget_class, "curve.move", "(dd)", act_move);
  gtk_widget_class_install_action (widget_class, "curve.nudge", "(ii)", act_nudge);
  gtk_widget_class_install_action (widget_class, "curve.nudge-stored", "i", act_nudge_stored);
  gtk_widget_class_install_action (widget_class, "curve.scale", "(ddb)", act_scale);
  gtk_widget_class_install_action (widget_class, "curve.insert-key", "d", act_insert_key);
  gtk_widget_class_install_action (widget_class, "curve.insert-on-curve", "(dd)",
                                   act_insert_on_curve);
  gtk_widget_class_install_action (widget_class, "curve.insert-at-playhead", NULL,
                                   act_insert_at_playhead);
  gtk_widget_class_install_action (widget_class, "curve.delete", NULL, act_delete);
  gtk_widget_class_install_action (widget_class, "curve.duplicate", NULL, act_duplicate);
  gtk_widget_class_install_action (widget_class, "curve.copy", NULL, act_copy);
  gtk_widget_class_install_action (widget_class, "curve.paste", "b", act_paste);
  gtk_widget_class_install_action (widget_class, "curve.set-interpolation", "s",
                                   act_set_interpolation);
  gtk_widget_class_install_action (widget_class, "curve.set-tangent", "s", act_set_tangent);
  gtk_widget_class_install_action (widget_class, "curve.frame-all", NULL, act_frame);
  gtk_widget_class_install_action (widget_class, "curve.frame-selected", NULL, act_frame);
  gtk_widget_class_install_action (widget_class, "curve.zoom", "(dd)", act_zoom);
  gtk_widget_class_install_action (widget_class, "curve.pan", "(dd)", act_pan);
  gtk_widget_class_install_action (widget_class, "curve.hide", "(ub)", act_hide_lock);
  gtk_widget_class_install_action (widget_class, "curve.lock", "(ub)", act_hide_lock);
  gtk_widget_class_install_action (widget_class, "curve.solo", "(ub)", act_hide_lock);
  gtk_widget_class_install_action (widget_class, "curve.bake", NULL, act_bake);
  gtk_widget_class_install_action (widget_class, "curve.fit", "d", act_fit);
  gtk_widget_class_install_action (widget_class, "curve.goto-frame", "d", act_goto_frame);
  gtk_widget_class_install_action (widget_class, "curve.play", NULL, act_play);
  gtk_widget_class_install_action (widget_class, "curve.pause", NULL, act_play);
  gtk_widget_class_install_action (widget_class, "curve.toggle-play", NULL, act_play);
  gtk_widget_class_install_action (widget_class, "curve.axis-lock", "s", act_axis_lock);
  gtk_widget_class_install_property_action (widget_class, "curve.normalized", "normalized");
  gtk_widget_class_install_property_action (widget_class, "curve.degrees", "degrees");
  gtk_widget_class_install_property_action (widget_class, "curve.playing", "playing");
  gtk_widget_class_install_property_action (widget_class, "curve.snap", "snap");
  gtk_widget_class_install_property_action (widget_class, "curve.loop", "loop");

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Home, 0, "curve.frame-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, 0, "curve.frame-selected", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Decimal, 0, "curve.frame-selected",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, GDK_CONTROL_MASK,
                                       "curve.select-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, 0, "curve.select-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, GDK_ALT_MASK, "curve.select-none",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "curve.select-none", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "curve.delete", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_x, 0, "curve.delete", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, GDK_SHIFT_MASK, "curve.duplicate",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, GDK_CONTROL_MASK, "curve.duplicate",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "curve.copy",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_v, GDK_CONTROL_MASK, "curve.paste",
                                       "b", FALSE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_v, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "curve.paste", "b", TRUE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_i, 0, "curve.insert-at-playhead",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_space, 0, "curve.toggle-play", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Up, 0, "curve.previous-key",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Down, 0, "curve.next-key", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_comma, 0, "curve.previous-key", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_period, 0, "curve.next-key", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, 0, "curve.normalized", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "curve.nudge", "(ii)", -1, 0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "curve.nudge", "(ii)", 1, 0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "curve.nudge", "(ii)", 0, 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "curve.nudge", "(ii)", 0, -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_SHIFT_MASK, "curve.nudge",
                                       "(ii)", -10, 0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_SHIFT_MASK, "curve.nudge",
                                       "(ii)", 10, 0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, GDK_SHIFT_MASK, "curve.nudge",
                                       "(ii)", 0, 10);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, GDK_SHIFT_MASK, "curve.nudge",
                                       "(ii)", 0, -10);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, GDK_ALT_MASK, "curve.nudge-stored",
                                       "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, GDK_ALT_MASK,
                                       "curve.nudge-stored", "i", -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_x, GDK_SHIFT_MASK, "curve.axis-lock",
                                       "s", "frame");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_y, GDK_SHIFT_MASK, "curve.axis-lock",
                                       "s", "value");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_SHIFT_MASK, "curve.axis-lock",
                                       "s", "none");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_t, 0, "curve.set-tangent", "s",
                                       "auto-clamped");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_v, 0, "curve.set-tangent", "s",
                                       "flat");
  /* Time stretch of the selection: ] longer, [ shorter; with Ctrl around the
   * playhead rather than the selection's centre. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketright, 0, "curve.scale",
                                       "(ddb)", 1.25, 1.0, FALSE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketleft, 0, "curve.scale", "(ddb)",
                                       0.8, 1.0, FALSE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketright, GDK_CONTROL_MASK,
                                       "curve.scale", "(ddb)", 1.25, 1.0, TRUE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketleft, GDK_CONTROL_MASK,
                                       "curve.scale", "(ddb)", 0.8, 1.0, TRUE);

  gtk_widget_class_set_css_name (widget_class, "curveview");
}

static void
tress_curve_view_init (TressCurveView *self)
{
  GtkGesture *drag;
  GtkEventController *controller;

  self->slots = g_array_new (FALSE, TRUE, sizeof (Slot));
  self->slot_of = g_hash_table_new (NULL, NULL);
  self->selection = tress_curve_selection_new ();
  self->seen = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)tress_curve_unref);
  self->broken = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->ghosts = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)tress_curve_unref);
  self->extents = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)extents_free);
  self->snap = TRUE;
  self->loop = TRUE;
  self->tolerance = -1;
  self->default_fps = 30;
  self->degrees = TRUE;
  self->drag_error = -1;
  self->drag_error_scale = 1;
  tress_curve_viewport_init (&self->vp, 640, 360);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  /* Keys and labels near the edges are cut at the graph's allocation. */
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);

  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  g_signal_connect (drag, "cancel", G_CALLBACK (on_drag_cancel), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  drag = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "pressed", G_CALLBACK (on_double_click), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (on_motion), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  g_signal_connect (controller, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}
