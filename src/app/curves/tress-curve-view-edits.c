/* tress-curve-view-edits.c: the curve view's edits: commit through the document, offers and notices
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

void
_tress_curve_view_clear_pending (TressCurveView *self)
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
  _tress_curve_view_set_message (self, msg);
  gtk_widget_error_bell (GTK_WIDGET (self));
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
      _tress_curve_view_set_message (self, msg);
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
