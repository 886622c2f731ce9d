/* tress-curve-view-edits.c: the curve view's edits: commit through the document, notices
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-view-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "tress-curve-paint.h"
#include "tress-curve-store-question.h"

/* --------------------------------------------------------------- edits -- */

gboolean
_tress_curve_view_slot_is_target (TressCurveView *self, Slot *s, Target target,
                                  gboolean any_selected)
{
  g_autoptr (GArray) keys = NULL;

  if (s->locked || !_tress_curve_view_slot_shown (self, s))
    return FALSE;
  if (target == TARGET_HIT)
    return s->index == self->drag_hit.curve;
  keys = _tress_curve_view_selected_keys_of (self, s->index);
  if (keys->len > 0)
    return TRUE;
  if (target == TARGET_SELECTED || any_selected)
    return FALSE;
  if (self->has_active)
    return s->index == self->active_curve;
  return TRUE;
}

static char *
broken_id (guint curve, double frame)
{
  return g_strdup_printf ("%u:%.9g", curve, frame);
}

gboolean
_tress_curve_view_key_is_broken (TressCurveView *self, guint curve, const TressKey *k)
{
  g_autofree char *id = NULL;

  if (k->flags & TRESS_KEY_BROKEN)
    return TRUE;
  id = broken_id (curve, k->frame);
  return g_hash_table_contains (self->broken, id);
}

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
void
_tress_curve_view_add_notice (TressCurveView *self, guint index, Notices *notices)
{
  TressCurveDocument *document = self->document;
  const TressCurveOps *ops = tress_document_get_format (TRESS_DOCUMENT (document))->curves;
  g_autofree char *raw = NULL, *notice = NULL;
  double scale;

  if (ops == NULL || ops->dup_notice == NULL)
    return;
  raw = ops->dup_notice (tress_document_get_model (TRESS_DOCUMENT (document)));
  scale = _tress_curve_view_unit_scale (self, tress_curve_document_get_curve (document, index));
  notice = tress_notice_render (raw, scale, scale != 1 ? "°" : "");
  if (notice == NULL || notice[0] == '\0')
    return;
  if (notices->n++ == 0)
    notices->first = g_steal_pointer (&notice);
}

/* One line however many curves an edit changed: the first remark, and a count
 * of the others. NULL when none. */
char *
_tress_curve_view_notices_dup_text (const Notices *notices)
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
  _tress_curve_view_add_notice (store->view, index, store->notices);
  return TRUE;
}

static void
refuse (TressCurveView *self, const char *label, const GError *error)
{
  g_autofree char *msg = g_strdup_printf (_ ("%s refused: %s"), label, error->message);

  _tress_curve_view_set_message (self, msg);
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
      _tress_curve_view_prune_selection (self);
      _tress_curve_view_emit_selection_changed (self);
      return FALSE;
    }
  tress_curve_document_end_edit (self->document);
  self->committing = FALSE;
  for (guint i = 0; i < n_changed; i++)
    _tress_curve_view_replace_curve_selection (self, tress_curve_edit_batch_get_id (batch, i),
                                               tress_curve_edit_batch_get_keys (batch, i));
  /* The edit is done; what the format changed beyond it is said. */
  notice = _tress_curve_view_notices_dup_text (&notices);
  g_free (notices.first);
  _tress_curve_view_set_message (self, notice);
  _tress_curve_view_prune_selection (self);
  _tress_curve_view_emit_selection_changed (self);
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

      _tress_curve_view_set_message (self, msg);
    }
  else
    commit_batch (self, batch, label, label, curves,
                  choice == TRESS_STORE_WIDEN ? TRESS_COMMIT_WIDEN_VALUES
                                              : TRESS_COMMIT_REQUANTIZE);
  _tress_curve_view_invalidate_lines (self);
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
    double scale = _tress_curve_view_unit_scale (self, shown);

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
gboolean
_tress_curve_view_apply_edit (TressCurveView *self, const TressCurveEdit *edit, guint n_keys,
                              Target target, PrepareFunc prepare, gpointer data)
{
  g_autoptr (TressCurveEditBatch) batch = tress_curve_edit_batch_new ();
  g_autofree char *label = self->edit_label != NULL ? g_strdup (self->edit_label)
                                                    : tress_curve_edit_dup_label (edit, n_keys);
  g_autofree char *undo_label = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) targets = g_array_new (FALSE, FALSE, sizeof (guint));
  gboolean any_selected = FALSE;
  gboolean ok = TRUE;
  guint rank = 0, n_changed;

  if (self->document == NULL)
    return FALSE;
  _tress_curve_view_clear_pending (self);
  any_selected = tress_curve_selection_get_n_keys (self->selection) > 0;

  for (guint i = 0; i < self->slots->len && ok; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);
      const TressCurve *current;
      g_autoptr (GArray) keys = NULL;
      TressCurveEdit e = *edit;

      if (!_tress_curve_view_slot_is_target (self, s, target, any_selected))
        continue;
      current = tress_curve_document_get_curve (self->document, s->index);
      if (current == NULL)
        continue;
      if (prepare != NULL && !prepare (self, s, rank++, &e, data))
        continue;
      keys = _tress_curve_view_selected_keys_of (self, s->index);
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
          g_autoptr (GArray) keys = _tress_curve_view_selected_keys_of (self, index);

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
  undo_label = self->edit_label != NULL ? g_strdup (self->edit_label)
                                        : tress_curve_edit_batch_dup_label (batch, n_keys);
  if (tress_curve_edit_batch_get_end (batch) > 0)
    {
      _tress_curve_view_offer_lengthen (self, batch, n_changed, label,
                                        g_steal_pointer (&undo_label));
      return FALSE;
    }
  if (_tress_curve_view_offer_batch_frame_widening (self, batch, n_changed, label, undo_label))
    return FALSE;
  if (ask_before_lossy_store (self, &batch, label, undo_label))
    return FALSE;
  return commit_batch (self, batch, label, undo_label, NULL, 0);
}

/* Moves are asked for in shown units: the normalized view scales each curve. */
gboolean
_tress_curve_view_prepare_move (TressCurveView *self, Slot *slot, guint rank, TressCurveEdit *edit,
                                gpointer data)
{
  TressValueMap map = _tress_curve_view_slot_map (self, slot);

  edit->d_value /= map.scale != 0 ? map.scale : 1;
  return TRUE;
}

/* A drag's move in each curve's units, worked out while the drag's copies were
 * there (@data: a double per slot). */
gboolean
_tress_curve_view_prepare_drag (TressCurveView *self, Slot *slot, guint rank, TressCurveEdit *edit,
                                gpointer data)
{
  edit->d_value = ((const double *)data)[slot - &g_array_index (self->slots, Slot, 0)];
  return TRUE;
}
gboolean
tress_curve_view_set_key (TressCurveView *self, guint curve_index, guint key, const TressKey *value,
                          GError **error)
{
  Slot *s = _tress_curve_view_slot_for (self, curve_index);
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
      _tress_curve_view_set_message (self, _ ("Edit key refused: the curve is locked"));
      return FALSE;
    }
  /* Edit exactly this key: make it the selection of its curve for the edit. */
  keep = tress_curve_selection_copy (self->selection);
  _tress_curve_view_sel_clear (self);
  _tress_curve_view_sel_add (self, curve_index, key, TRESS_CURVE_PART_KEY);
  ok = _tress_curve_view_apply_edit (self, &e, 1, TARGET_SELECTED, NULL, NULL);
  if (!ok)
    _tress_curve_view_offer_frame_widening (self, curve_index, key, value);
  if (!ok)
    {
      tress_curve_selection_free (self->selection);
      self->selection = g_steal_pointer (&keep);
      _tress_curve_view_prune_selection (self);
      if (self->message != NULL)
        g_set_error_literal (error, TRESS_ERROR, TRESS_ERROR_REFUSED, self->message);
      else
        g_set_error_literal (error, TRESS_ERROR, TRESS_ERROR_REFUSED, _ ("nothing changed"));
      _tress_curve_view_emit_selection_changed (self);
    }
  else
    {
      g_autoptr (GArray) keys = _tress_curve_view_selected_keys_of (self, curve_index);
      guint k = keys->len > 0 ? g_array_index (keys, guint, 0) : 0;

      _tress_curve_view_set_active (self, curve_index, k);
      _tress_curve_view_emit_selection_changed (self);
    }
  return ok;
}

gboolean
tress_curve_view_set_curve_interpolation (TressCurveView *self, guint curve_index,
                                          TressInterp interp, GError **error)
{
  Slot *s = _tress_curve_view_slot_for (self, curve_index);
  const TressCurve *c = s != NULL ? _tress_curve_view_slot_curve (self, s) : NULL;
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
      _tress_curve_view_set_message (self, _ ("Set interpolation refused: the curve is locked"));
      return FALSE;
    }
  /* Every key of the curve, the selection put back afterwards. */
  keep = tress_curve_selection_copy (self->selection);
  _tress_curve_view_sel_clear (self);
  tress_curve_selection_add_range (self->selection, curve_index, tress_curve_get_n_keys (c));
  _tress_curve_view_sel_see (self, curve_index);
  ok = _tress_curve_view_apply_edit (self, &e, tress_curve_get_n_keys (c), TARGET_SELECTED, NULL,
                                     NULL);
  tress_curve_selection_free (self->selection);
  self->selection = g_steal_pointer (&keep);
  self->has_active = had_active;
  self->active_curve = active_curve;
  self->active_key = active_key;
  _tress_curve_view_prune_selection (self);
  if (!ok)
    g_set_error_literal (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                         self->message != NULL ? self->message : _ ("nothing changed"));
  _tress_curve_view_emit_selection_changed (self);
  return ok;
}
