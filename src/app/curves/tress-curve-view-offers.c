/* tress-curve-view-offers.c: edits the curve view keeps while it asks: wider frames, a longer
 * animation
 *
 * An edit refused only because its keys reach frames the curve's frame type
 * cannot store (between its frames, or past 255 for u8), or frames past the
 * animation's end, is kept with what applying it would cost; the editor
 * offers it, and applies it through here as one undo step. The view never
 * widens or lengthens unasked.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-view-private.h"

#include <glib/gi18n.h>
#include <math.h>

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

/* Before an edit is stored: its keys would move past the animation's end.
 * The edit is refused, and kept (with its undo label, taken) for
 * tress_curve_view_commit_pending(), which lengthens the animation. */
void
_tress_curve_view_offer_lengthen (TressCurveView *self, TressCurveEditBatch *batch, guint n_changed,
                                  const char *label, char *undo_label)
{
  g_autofree char *msg = NULL, *widen = NULL;

  self->pending_label = undo_label;
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
}

/* Before an edit is stored: when its keys reach frames a curve's frame type
 * cannot store at all (the format would have to widen it and grow the file),
 * the edit is refused with the cost and kept for
 * tress_curve_view_commit_frame_widening(). TRUE when so. */
gboolean
_tress_curve_view_offer_batch_frame_widening (TressCurveView *self, TressCurveEditBatch *batch,
                                              guint n_changed, const char *label,
                                              const char *undo_label)
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
void
_tress_curve_view_offer_frame_widening (TressCurveView *self, guint index, guint key,
                                        const TressKey *value)
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
  _tress_curve_view_clear_pending (self);
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
  _tress_curve_view_set_message (self, msg);
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

  _tress_curve_view_clear_pending (self);
  tress_curve_document_begin_edit (self->document, label);
  self->committing = TRUE;
  for (guint i = 0; i < curves->len && ok; i++)
    {
      WidenSetEdit w = { ops, curves->pdata[i] };

      ok = tress_curve_document_apply_model_edit (self->document, g_array_index (indices, guint, i),
                                                  label, widen_frames_and_set, &w, error);
      if (ok)
        _tress_curve_view_add_notice (self, g_array_index (indices, guint, i), &notices);
    }
  if (ok)
    tress_curve_document_end_edit (self->document);
  else
    tress_curve_document_cancel_edit (self->document); /* all or nothing */
  self->committing = FALSE;
  if (ok)
    {
      notice = _tress_curve_view_notices_dup_text (&notices);
      _tress_curve_view_set_message (self, notice);
      for (guint i = 0; i < curves->len; i++)
        _tress_curve_view_replace_curve_selection (self, g_array_index (indices, guint, i),
                                                   keys->pdata[i]);
    }
  else if (error != NULL && *error != NULL)
    {
      g_autofree char *msg = g_strdup_printf (_ ("%s refused: %s"), label, (*error)->message);
      _tress_curve_view_set_message (self, msg);
    }
  g_free (notices.first);
  _tress_curve_view_prune_selection (self);
  _tress_curve_view_emit_selection_changed (self);
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
  _tress_curve_view_clear_pending (self);
  self->committing = TRUE;
  ok = tress_curve_document_apply_model_edit (self->document, index,
                                              _ ("Widen the frames and edit 1 key"),
                                              widen_frames_and_edit, &w, error);
  self->committing = FALSE;
  if (ok)
    {
      Notices notices = { NULL, 0 };
      g_autofree char *notice = NULL;

      _tress_curve_view_add_notice (self, index, &notices);
      notice = _tress_curve_view_notices_dup_text (&notices);
      g_free (notices.first);
      _tress_curve_view_set_message (self, notice);
      _tress_curve_view_replace_curve_selection (self, index, keys);
      if (keys->len > 0)
        _tress_curve_view_set_active (self, index, g_array_index (keys, guint, 0));
    }
  else if (error != NULL && *error != NULL)
    {
      g_autofree char *msg = g_strdup_printf (_ ("Edit key refused: %s"), (*error)->message);
      _tress_curve_view_set_message (self, msg);
    }
  _tress_curve_view_prune_selection (self);
  _tress_curve_view_emit_selection_changed (self);
  return ok;
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

typedef struct
{
  const TressCurveOps *ops;
  const TressCurve *curve;
} LengthenEdit;

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
  _tress_curve_view_clear_pending (self);
  _tress_curve_view_set_message (self, NULL);
  _tress_curve_view_prune_selection (self);
  _tress_curve_view_emit_selection_changed (self);
  return ok;
}
