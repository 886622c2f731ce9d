/* tress-curve-document.c: the document of a format with animation curves
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-document.h"

#include <glib/gi18n.h>
#include <math.h>

#include "formats/tress-curve-commit.h"
#include "tress-curve-hierarchy.h"
#include "tress-curve-document-private.h"
#include "tress-curve-node-private.h"
#include "tress-document-private.h"
#include "tress-play-range.h"

/* ------------------------------------------------------------- document -- */

enum
{
  SIGNAL_CURVE_CHANGED,
  SIGNAL_CURVES_RESET,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (TressCurveDocument, tress_curve_document, TRESS_TYPE_DOCUMENT)

const TressCurveOps *
_tress_curve_document_ops (TressCurveDocument *self)
{
  const TressFormat *format = tress_document_get_format (TRESS_DOCUMENT (self));

  return format != NULL ? format->curves : NULL;
}

static void
build_curves (TressCurveDocument *self)
{
  const TressCurveOps *ops = _tress_curve_document_ops (self);
  gpointer model = tress_document_get_model (TRESS_DOCUMENT (self));
  guint n = 0;

  g_clear_pointer (&self->curves, g_ptr_array_unref);
  g_clear_pointer (&self->quant_error, g_array_unref);
  self->curves = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_curve_unref);
  self->quant_error = g_array_new (FALSE, TRUE, sizeof (double));
  if (ops != NULL && model != NULL)
    n = ops->n_curves (model);
  /* A new model: nothing of the old one is waiting to be read again. */
  g_array_set_size (self->stale, 0);
  g_array_set_size (self->stale, n);
  g_array_set_size (self->stale_list, 0);
  if (ops != NULL && ops->peek_curve != NULL)
    {
      /* Each curve decoded when first asked for (curve_at): opening a file
       * costs the tree, not every key of every curve. */
      g_ptr_array_set_size (self->curves, n);
      g_array_set_size (self->quant_error, n);
      n = 0;
    }
  for (guint i = 0; i < n; i++)
    {
      TressCurve *c = ops->get_curve (model, i);
      double e;

      if (c == NULL)
        c = tress_curve_new ();
      e = c->quant_error;
      g_ptr_array_add (self->curves, c);
      g_array_append_val (self->quant_error, e);
    }
  /* The tree is built when first asked for, so that a skeleton known by
   * then nests it the first time; once shown, it follows the new curves. */
  if (self->tree_built)
    _tress_curve_document_build_tree (self);
}

static void
ensure_built (TressCurveDocument *self)
{
  if (self->curves == NULL)
    build_curves (self);
}

static void settle (TressCurveDocument *self, guint index);

static void
ensure_tree (TressCurveDocument *self)
{
  ensure_built (self);
  if (!self->tree_built)
    _tress_curve_document_build_tree (self);
}

/* Curve @index (< the count), decoded on first use. */
static TressCurve *
curve_at (TressCurveDocument *self, guint index)
{
  TressCurve *c;

  settle (self, index);
  c = g_ptr_array_index (self->curves, index);

  if (c == NULL)
    {
      const TressCurveOps *ops = _tress_curve_document_ops (self);

      c = ops != NULL ? ops->get_curve (tress_document_get_model (TRESS_DOCUMENT (self)), index)
                      : NULL;
      if (c == NULL)
        c = tress_curve_new ();
      g_ptr_array_index (self->curves, index) = c;
      g_array_index (self->quant_error, double, index) = c->quant_error;
    }
  return c;
}

guint
_tress_curve_document_n_keys (TressCurveDocument *self, guint index)
{
  const TressCurveOps *ops;
  TressCurvePeek peek;

  ensure_built (self);
  if (index >= self->curves->len)
    return 0;
  settle (self, index);
  if (g_ptr_array_index (self->curves, index) != NULL)
    return tress_curve_get_n_keys (g_ptr_array_index (self->curves, index));
  ops = _tress_curve_document_ops (self);
  if (ops == NULL || ops->peek_curve == NULL)
    return 0;
  ops->peek_curve (tress_document_get_model (TRESS_DOCUMENT (self)), index, &peek);
  return peek.n_keys;
}

static void
tress_curve_document_model_changed (TressDocument *document)
{
  TressCurveDocument *self = TRESS_CURVE_DOCUMENT (document);

  build_curves (self);
  g_signal_emit (self, signals[SIGNAL_CURVES_RESET], 0);
}

/* TRUE when @a and @b hold the same keys, limits and length (field by field:
 * the structs have padding). */
static gboolean
same_curve_data (const TressCurve *a, const TressCurve *b)
{
  const TressCurveLimits *la = &a->limits, *lb = &b->limits;

  if (a->keys->len != b->keys->len || a->frame_count != b->frame_count || a->pre_wrap != b->pre_wrap
      || a->post_wrap != b->post_wrap || la->frame_step != lb->frame_step
      || la->frame_min != lb->frame_min || la->frame_max != lb->frame_max
      || la->value_min != lb->value_min || la->value_max != lb->value_max
      || la->value_kind != lb->value_kind || la->interp_mask != lb->interp_mask
      || la->uniform_interp != lb->uniform_interp || la->tied_tangents != lb->tied_tangents
      || la->fixed_key_count != lb->fixed_key_count || la->slopes_derived != lb->slopes_derived
      || g_strcmp0 (la->no_slopes, lb->no_slopes) != 0)
    return FALSE;
  for (guint i = 0; i < a->keys->len; i++)
    {
      const TressKey *ka = tress_curve_get_key (a, i), *kb = tress_curve_get_key (b, i);

      if (ka->frame != kb->frame || ka->value != kb->value || ka->in_gap != kb->in_gap
          || ka->in_slope != kb->in_slope || ka->out_slope != kb->out_slope
          || ka->interp != kb->interp || ka->tangent != kb->tangent || ka->flags != kb->flags
          || ka->native_interp != kb->native_interp)
        return FALSE;
    }
  return TRUE;
}

static void
replace_curve (TressCurveDocument *self, guint index, TressCurve *c)
{
  tress_curve_unref (g_ptr_array_index (self->curves, index));
  g_ptr_array_index (self->curves, index) = c;
  /* The groups above it show their curves' total key count: it changed too. */
  if (self->tree_built && index < self->leaves->len)
    {
      if (g_ptr_array_index (self->leaves, index) != NULL)
        _tress_curve_node_bump (g_ptr_array_index (self->leaves, index));
      for (TressCurveNode *n = g_ptr_array_index (self->leaf_groups, index); n != NULL;
           n = n->parent)
        _tress_curve_node_bump (n);
    }
  g_signal_emit (self, signals[SIGNAL_CURVE_CHANGED], 0, index);
}

/* Re-reads curve @i from the model; replaces and announces it if its data changed. */
static void
refresh_other (TressCurveDocument *self, const TressCurveOps *ops, gpointer model, guint i)
{
  TressCurve *other;

  /* Never decoded: nothing shown of it but its row, read again. */
  if (g_ptr_array_index (self->curves, i) == NULL)
    {
      if (self->tree_built && i < self->leaves->len && g_ptr_array_index (self->leaves, i) != NULL)
        _tress_curve_node_bump (g_ptr_array_index (self->leaves, i));
      return;
    }
  other = ops->get_curve (model, i);
  if (other == NULL)
    other = tress_curve_new ();
  if (same_curve_data (other, g_ptr_array_index (self->curves, i)))
    tress_curve_unref (other);
  else
    replace_curve (self, i, other);
}

/* Reads curve @i again now if an edit marked it. */
static void
settle (TressCurveDocument *self, guint index)
{
  const TressCurveOps *ops;

  if (index >= self->stale->len || !g_array_index (self->stale, guint8, index))
    return;
  g_array_index (self->stale, guint8, index) = 0;
  ops = _tress_curve_document_ops (self);
  if (ops != NULL)
    refresh_other (self, ops, tress_document_get_model (TRESS_DOCUMENT (self)), index);
}

/* Reads every marked curve again, once. */
static void
settle_all (TressCurveDocument *self)
{
  g_autoptr (GArray) list = NULL;

  if (self->stale_list == NULL || self->stale_list->len == 0)
    return;
  list = g_array_copy (self->stale_list);
  g_array_set_size (self->stale_list, 0);
  for (guint j = 0; j < list->len; j++)
    settle (self, g_array_index (list, guint, j));
}

/* TRUE while edits come in a batch: a group open, or a step replayed. */
static gboolean
batching (TressCurveDocument *self)
{
  TressHistory *history = tress_document_get_history (TRESS_DOCUMENT (self));

  return tress_history_in_group (history) || tress_history_is_replaying (history);
}

/* Curve @i is to be read again: now, or once the batch settles. */
static void
reached (TressCurveDocument *self, const TressCurveOps *ops, gpointer model, guint i,
         gboolean later)
{
  if (!later)
    {
      refresh_other (self, ops, model, i);
      return;
    }
  if (g_array_index (self->stale, guint8, i))
    return;
  g_array_index (self->stale, guint8, i) = 1;
  g_array_append_val (self->stale_list, i);
}

/* Re-reads curve @index from the model after it changed, and every other curve
 * the change reached: formats share storage between curves (a NIFF record holds
 * every component of a channel; a BFRES animation's length bounds all of its
 * curves), so an edit of one curve can change its siblings. The format names
 * them (linked_curves); without that list every curve is compared. Only
 * curves whose data really changed are replaced and announced. In a batch
 * (an edit of every curve of a big file, its undo) the siblings are read
 * once when it settles, not once per edited curve: O(curves), not
 * O(curves × siblings). */
static void
refresh_curve (TressCurveDocument *self, guint index, double quant_error)
{
  const TressCurveOps *ops = _tress_curve_document_ops (self);
  gpointer model = tress_document_get_model (TRESS_DOCUMENT (self));
  gboolean later = batching (self);
  TressCurve *c;

  ensure_built (self);
  if (ops == NULL || index >= self->curves->len)
    return;
  g_array_index (self->stale, guint8, index) = 0; /* read now */
  c = ops->get_curve (model, index);
  if (c == NULL)
    c = tress_curve_new ();
  g_array_index (self->quant_error, double, index) = quant_error;
  replace_curve (self, index, c);

  if (ops->linked_curves != NULL)
    {
      g_autoptr (GArray) linked = g_array_new (FALSE, FALSE, sizeof (guint));

      ops->linked_curves (model, index, linked);
      for (guint j = 0; j < linked->len; j++)
        {
          guint i = g_array_index (linked, guint, j);

          if (i != index && i < self->curves->len)
            reached (self, ops, model, i, later);
        }
      return;
    }
  for (guint i = 0; i < self->curves->len; i++)
    if (i != index)
      reached (self, ops, model, i, later);
}

static void
on_history_changed (TressHistory *history, TressCurveDocument *self)
{
  if (!tress_history_in_group (history) && !tress_history_is_replaying (history))
    settle_all (self);
}

/* ----------------------------------------------------- set curve command -- */

typedef struct
{
  TressCommand parent;
  TressCurveDocument *document; /* the history's owner; outlives its commands */
  guint index;
  GBytes *before;
  GBytes *after;
  double error_before;
  double error_after;
} SetCurveCommand;

static void
set_curve_apply (TressCommand *cmd, gpointer target, gboolean undo)
{
  SetCurveCommand *self = (SetCurveCommand *)cmd;
  const TressCurveOps *ops = _tress_curve_document_ops (self->document);
  gpointer model = tress_document_get_model (TRESS_DOCUMENT (self->document));

  if (ops == NULL)
    return;
  ops->restore_state (model, self->index, undo ? self->before : self->after);
  refresh_curve (self->document, self->index, undo ? self->error_before : self->error_after);
}

static gboolean
set_curve_merge (TressCommand *cmd, const TressCommand *next)
{
  SetCurveCommand *self = (SetCurveCommand *)cmd;
  const SetCurveCommand *other = (const SetCurveCommand *)next;

  if (other->index != self->index || other->document != self->document)
    return FALSE;
  g_bytes_unref (self->after);
  self->after = g_bytes_ref (other->after);
  self->error_after = other->error_after;
  return TRUE;
}

static gsize
set_curve_size (const TressCommand *cmd)
{
  const SetCurveCommand *self = (const SetCurveCommand *)cmd;

  return sizeof *self + g_bytes_get_size (self->before) + g_bytes_get_size (self->after);
}

static void
set_curve_finalize (TressCommand *cmd)
{
  SetCurveCommand *self = (SetCurveCommand *)cmd;

  g_clear_pointer (&self->before, g_bytes_unref);
  g_clear_pointer (&self->after, g_bytes_unref);
}

static const TressCommandClass set_curve_class = {
  .type_name = "TressSetCurve",
  .apply = set_curve_apply,
  .merge = set_curve_merge,
  .size = set_curve_size,
  .finalize = set_curve_finalize,
};

/* Runs @edit between two save_state calls and records the step. */
static gboolean
record_edit (TressCurveDocument *self, guint index, const char *label, const char *merge_key,
             TressCurveModelEdit edit, gpointer data, GError **error)
{
  const TressCurveOps *ops;
  gpointer model;
  g_autoptr (GBytes) before = NULL;
  SetCurveCommand *cmd;
  double error_value = 0;

  ensure_built (self);
  ops = _tress_curve_document_ops (self);
  model = tress_document_get_model (TRESS_DOCUMENT (self));
  if (ops == NULL || index >= self->curves->len)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, _ ("There is no curve %u"), index);
      return FALSE;
    }
  curve_at (self, index); /* its quantization error before the edit */
  before = ops->save_state (model, index);
  if (!edit (model, index, data, &error_value, error))
    {
      /* A refusal must leave nothing behind, whatever the format got to. */
      ops->restore_state (model, index, before);
      return FALSE;
    }

  cmd = tress_command_alloc (sizeof (SetCurveCommand), &set_curve_class, label, merge_key);
  cmd->document = self;
  cmd->index = index;
  cmd->before = g_steal_pointer (&before);
  cmd->after = ops->save_state (model, index);
  cmd->error_before = g_array_index (self->quant_error, double, index);
  cmd->error_after = isfinite (error_value) ? error_value : 0;
  /* perform applies the after state (what the model holds already) and records it. */
  tress_history_perform (tress_document_get_history (TRESS_DOCUMENT (self)), (TressCommand *)cmd);
  return TRUE;
}

/* ------------------------------------------------- replace state command -- */

/* The whole model's state before and after a change that adds and removes
 * curves: every application reads the curves again. */
typedef struct
{
  TressCommand parent;
  TressCurveDocument *document;
  TressCurveModelRestore restore;
  GBytes *before;
  GBytes *after;
} ReplaceStateCommand;

static void
replace_state_apply (TressCommand *cmd, gpointer target, gboolean undo)
{
  ReplaceStateCommand *self = (ReplaceStateCommand *)cmd;
  g_autoptr (GError) error = NULL;

  /* Both states were in the model once: they parse again. */
  if (!self->restore (target, undo ? self->before : self->after, &error))
    g_warning ("%s: %s", cmd->label, error->message);
  tress_curve_document_model_changed (TRESS_DOCUMENT (self->document));
}

static gsize
replace_state_size (const TressCommand *cmd)
{
  const ReplaceStateCommand *self = (const ReplaceStateCommand *)cmd;

  return sizeof *self + g_bytes_get_size (self->before) + g_bytes_get_size (self->after);
}

static void
replace_state_finalize (TressCommand *cmd)
{
  ReplaceStateCommand *self = (ReplaceStateCommand *)cmd;

  g_clear_pointer (&self->before, g_bytes_unref);
  g_clear_pointer (&self->after, g_bytes_unref);
}

static const TressCommandClass replace_state_class = {
  .type_name = "TressReplaceState",
  .apply = replace_state_apply,
  .size = replace_state_size,
  .finalize = replace_state_finalize,
};

gboolean
tress_curve_document_replace_state (TressCurveDocument *self, const char *label,
                                    TressCurveModelRestore restore, GBytes *before, GBytes *after,
                                    GError **error)
{
  TressDocument *document = TRESS_DOCUMENT (self);
  ReplaceStateCommand *cmd;

  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), FALSE);
  if (!restore (tress_document_get_model (document), after, error))
    return FALSE;
  cmd = tress_command_alloc (sizeof (ReplaceStateCommand), &replace_state_class, label, NULL);
  cmd->document = self;
  cmd->restore = restore;
  cmd->before = g_bytes_ref (before);
  cmd->after = g_bytes_ref (after);
  tress_document_invalidate_problems (document);
  tress_history_push (tress_document_get_history (document), (TressCommand *)cmd);
  tress_curve_document_model_changed (document);
  return TRUE;
}

typedef struct
{
  const TressCurveOps *ops;
  const TressCurve *curve;
} SetCurveData;

static gboolean
set_curve_edit (gpointer model, guint index, gpointer data, double *max_error, GError **error)
{
  SetCurveData *d = data;

  return d->ops->set_curve (model, index, d->curve, max_error, error);
}

gboolean
tress_curve_document_set_curve_merging (TressCurveDocument *self, guint index,
                                        const TressCurve *curve, const char *label,
                                        const char *merge_key, GError **error)
{
  SetCurveData data;

  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), FALSE);
  g_return_val_if_fail (curve != NULL, FALSE);

  data.ops = _tress_curve_document_ops (self);
  data.curve = curve;
  if (data.ops == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, "%s", _ ("This document has no curves"));
      return FALSE;
    }
  if (!tress_curve_check_limits (curve, error))
    return FALSE;
  return record_edit (self, index, label, merge_key, set_curve_edit, &data, error);
}

gboolean
tress_curve_document_preview_store (TressCurveDocument *self, guint index, const TressCurve *curve,
                                    TressStoreCost *cost)
{
  const TressCurveOps *ops;

  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), FALSE);
  g_return_val_if_fail (curve != NULL && cost != NULL, FALSE);
  memset (cost, 0, sizeof *cost);
  ops = _tress_curve_document_ops (self);
  if (ops == NULL || ops->preview_store == NULL
      || index >= tress_curve_document_get_n_curves (self))
    return FALSE;
  return ops->preview_store (tress_document_get_model (TRESS_DOCUMENT (self)), index, curve, cost,
                             NULL);
}

typedef struct
{
  const TressCurveOps *ops;
  const TressCurve *curve;
  TressCommitConsent consent;
} CommitData;

static gboolean
commit_edit (gpointer model, guint index, gpointer data, double *max_error, GError **error)
{
  CommitData *d = data;

  return tress_curve_commit (d->ops, model, index, d->curve, d->consent, max_error, error);
}

gboolean
tress_curve_document_commit_curve (TressCurveDocument *self, guint index, const TressCurve *curve,
                                   guint consent, const char *label, GError **error)
{
  CommitData data;

  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), FALSE);
  g_return_val_if_fail (curve != NULL, FALSE);
  data.ops = _tress_curve_document_ops (self);
  data.curve = curve;
  data.consent = consent;
  if (data.ops == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, "%s", _ ("This document has no curves"));
      return FALSE;
    }
  return record_edit (self, index, label, NULL, commit_edit, &data, error);
}

gboolean
tress_curve_document_apply_model_edit (TressCurveDocument *self, guint index, const char *label,
                                       TressCurveModelEdit edit, gpointer data, GError **error)
{
  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), FALSE);
  g_return_val_if_fail (edit != NULL, FALSE);
  return record_edit (self, index, label, NULL, edit, data, error);
}

gboolean
tress_curve_document_set_curve (TressCurveDocument *self, guint index, const TressCurve *curve,
                                const char *label, GError **error)
{
  return tress_curve_document_set_curve_merging (self, index, curve, label, NULL, error);
}

void
tress_curve_document_begin_edit (TressCurveDocument *self, const char *label)
{
  tress_history_begin_group (tress_document_get_history (TRESS_DOCUMENT (self)), label);
}

void
tress_curve_document_end_edit (TressCurveDocument *self)
{
  /* Its "changed" settles what the group's edits reached (on_history_changed). */
  tress_history_end_group (tress_document_get_history (TRESS_DOCUMENT (self)));
}

void
tress_curve_document_cancel_edit (TressCurveDocument *self)
{
  tress_history_cancel_group (tress_document_get_history (TRESS_DOCUMENT (self)));
}

GListModel *
tress_curve_document_get_roots (TressCurveDocument *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), NULL);
  ensure_tree (self);
  return G_LIST_MODEL (self->roots);
}

guint
tress_curve_document_get_n_tree_builds (TressCurveDocument *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), 0);
  return self->n_tree_builds;
}

guint
tress_curve_document_get_n_curves (TressCurveDocument *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), 0);
  ensure_built (self);
  return self->curves->len;
}

const TressCurve *
tress_curve_document_get_curve (TressCurveDocument *self, guint index)
{
  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), NULL);
  ensure_built (self);
  if (index >= self->curves->len)
    return NULL;
  return curve_at (self, index);
}

double
tress_curve_document_get_quant_error (TressCurveDocument *self, guint index)
{
  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), 0);
  ensure_built (self);
  if (index >= self->quant_error->len)
    return 0;
  curve_at (self, index);
  return g_array_index (self->quant_error, double, index);
}

gboolean
tress_curve_document_preview_error (TressCurveDocument *self, guint index, const TressCurve *curve,
                                    double *max_error, GError **error)
{
  TressDocument *doc = TRESS_DOCUMENT (self);
  const TressCurveOps *ops;

  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), FALSE);
  g_return_val_if_fail (curve != NULL, FALSE);
  ops = tress_document_get_format (doc)->curves;
  if (ops == NULL || ops->preview_error == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED, "%s",
                   _ ("This format cannot tell its quantization error in advance"));
      return FALSE;
    }
  if (index >= tress_curve_document_get_n_curves (self))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, _ ("There is no curve %u"), index);
      return FALSE;
    }
  return ops->preview_error (tress_document_get_model (doc), index, curve, max_error, error);
}

gboolean
tress_curve_document_set_skeleton (TressCurveDocument *self, TressCurveSkeleton *skeleton)
{
  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), FALSE);
  if (tress_curve_skeleton_equal (self->skeleton, skeleton))
    {
      tress_curve_skeleton_free (skeleton);
      return FALSE;
    }
  g_clear_pointer (&self->skeleton, tress_curve_skeleton_free);
  self->skeleton = skeleton;
  if (self->tree_built)
    _tress_curve_document_build_tree (self);
  return TRUE;
}

const TressCurveSkeleton *
tress_curve_document_get_skeleton (TressCurveDocument *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), NULL);
  return self->skeleton;
}

TressPlayRanges *
tress_curve_document_get_play_ranges (TressCurveDocument *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), NULL);
  return self->play_ranges;
}

static void
tress_curve_document_finalize (GObject *object)
{
  TressCurveDocument *self = TRESS_CURVE_DOCUMENT (object);

  g_clear_pointer (&self->curves, g_ptr_array_unref);
  g_clear_pointer (&self->quant_error, g_array_unref);
  g_clear_pointer (&self->stale, g_array_unref);
  g_clear_pointer (&self->stale_list, g_array_unref);
  g_clear_pointer (&self->leaves, g_ptr_array_unref);
  g_clear_pointer (&self->leaf_groups, g_ptr_array_unref);
  g_clear_pointer (&self->skeleton, tress_curve_skeleton_free);
  g_clear_pointer (&self->play_ranges, tress_play_ranges_free);
  /* Nodes may outlive the document in a view's model: cut their back pointers. */
  if (self->roots != NULL)
    {
      _tress_curve_document_detach_all (G_LIST_MODEL (self->roots));
      g_clear_object (&self->roots);
    }
  G_OBJECT_CLASS (tress_curve_document_parent_class)->finalize (object);
}

static void
tress_curve_document_class_init (TressCurveDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TressDocumentClass *document_class = TRESS_DOCUMENT_CLASS (klass);

  object_class->finalize = tress_curve_document_finalize;
  document_class->model_changed = tress_curve_document_model_changed;

  signals[SIGNAL_CURVE_CHANGED]
      = g_signal_new ("curve-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  signals[SIGNAL_CURVES_RESET]
      = g_signal_new ("curves-reset", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 0);
}

static void
tress_curve_document_init (TressCurveDocument *self)
{
  self->roots = g_list_store_new (TRESS_TYPE_CURVE_NODE);
  self->leaves = g_ptr_array_new ();
  self->leaf_groups = g_ptr_array_new ();
  self->play_ranges = tress_play_ranges_new ();
  self->stale = g_array_new (FALSE, TRUE, sizeof (guint8));
  self->stale_list = g_array_new (FALSE, FALSE, sizeof (guint));
  /* After the document's own handler (connected in its init): views told of
   * the change read what they ask for through settle. */
  g_signal_connect_object (tress_document_get_history (TRESS_DOCUMENT (self)), "changed",
                           G_CALLBACK (on_history_changed), self, 0);
}

void
tress_curve_document_register_format (const char *format_id)
{
  tress_document_register_type (format_id, TRESS_TYPE_CURVE_DOCUMENT);
}

void
tress_curve_document_register_types (void)
{
  tress_curve_document_register_format ("bfres");
  tress_curve_document_register_format ("niff");
}
