/* tress-curve-commit.c: the one way an edited curve becomes stored keys
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-commit.h"

#include <math.h>
#include <string.h>

#include "core/tress-curve-edit.h"
#include "core/tress-error.h"

void
tress_commit_plan_clear (TressCommitPlan *plan)
{
  g_clear_pointer (&plan->frames_cost, g_free);
  tress_store_cost_clear (&plan->store);
  plan->needs = 0;
}

/* The length (whole frames) the animation needs for @curve's keys, or 0 when
 * they end within it. */
static double
needed_length (const TressCurve *curve)
{
  guint n = tress_curve_get_n_keys (curve);
  double last;

  if (n == 0 || !(curve->frame_count > 0))
    return 0;
  last = tress_curve_get_key (curve, n - 1)->frame;
  return last > curve->frame_count ? ceil (last) : 0;
}

/* The first frame of @curve the stored frame type of curve @index cannot hold
 * though a wider one can, with what widening costs; NULL when none. */
static char *
frame_needing_widening (const TressCurveOps *ops, gpointer model, guint index,
                        const TressCurve *curve, double *frame)
{
  if (ops->describe_frame_widening == NULL || ops->widen_frames == NULL)
    return NULL;
  for (guint i = 0; i < tress_curve_get_n_keys (curve); i++)
    {
      double f = tress_curve_get_key (curve, i)->frame;
      char *cost = ops->describe_frame_widening (model, index, f);

      if (cost != NULL)
        {
          *frame = f;
          return cost;
        }
    }
  return NULL;
}

gboolean
tress_curve_commit_plan (const TressCurveOps *ops, gpointer model, guint index,
                         const TressCurve *curve, TressCommitPlan *plan, GError **error)
{
  g_autoptr (TressCurve) limited = tress_curve_copy (curve);

  memset (plan, 0, sizeof *plan);
  plan->frame = NAN;
  plan->frame_count = needed_length (curve);
  if (plan->frame_count > 0 && ops->set_frame_count != NULL)
    plan->needs |= TRESS_COMMIT_LENGTHEN;
  plan->frames_cost = frame_needing_widening (ops, model, index, curve, &plan->frame);
  if (plan->frames_cost != NULL)
    plan->needs |= TRESS_COMMIT_WIDEN_FRAMES;
  /* The limits the curve will have once lengthened and widened. */
  if (plan->needs != 0)
    {
      limited->limits.frame_max = MAX (limited->limits.frame_max, plan->frame_count);
      if (plan->needs & TRESS_COMMIT_WIDEN_FRAMES)
        limited->limits.frame_step = 0;
    }
  if (!tress_curve_check_limits (limited, error))
    return FALSE;
  if (ops->preview_store != NULL && ops->preview_store (model, index, limited, &plan->store, NULL)
      && tress_store_cost_is_lossy (&plan->store))
    plan->needs |= TRESS_COMMIT_REQUANTIZE;
  return TRUE;
}

char *
tress_store_cost_dup_refusal (const TressStoreCost *cost, const char *how)
{
  g_autofree char *wide = NULL;

  if (cost->wide_type != NULL)
    wide = g_strdup_printf (
        ", or --widen to store %s keys instead (the keys not edited then move by up to %.3g; "
        "the file grows by %" G_GSIZE_FORMAT " bytes)",
        cost->wide_type, cost->wide_moved, cost->wide_growth);
  return g_strdup_printf ("the edit does not fit the curve's %s keys as stored (step %.3g): "
                          "storing it needs a step of %.3g, which moves the keys not edited by "
                          "up to %.3g (more than half the step they have now, %.3g); %s "
                          "--requantize to accept that%s",
                          cost->type, cost->step, cost->new_step, cost->moved, cost->tolerance, how,
                          wide != NULL ? wide : "");
}

gboolean
tress_curve_commit (const TressCurveOps *ops, gpointer model, guint index, const TressCurve *curve,
                    TressCommitConsent consent, double *max_error, GError **error)
{
  g_autoptr (TressCurve) c = tress_curve_copy (curve);
  double length = needed_length (curve);
  TressStoreCost cost = { 0 };
  gboolean wide = FALSE;

  /* A longer animation: to whole frames, however the keys end (formats
   * whose animations last until their last key store no length). */
  if (length > 0 && ops->set_frame_count != NULL)
    {
      g_autoptr (TressCurve) now = NULL;

      if (!(consent & TRESS_COMMIT_LENGTHEN))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "frame %g is past the end of the animation (frame %g): it needs "
                       "lengthening to %g frames first",
                       tress_curve_get_key (c, tress_curve_get_n_keys (c) - 1)->frame,
                       c->frame_count, length);
          return FALSE;
        }
      if (!ops->set_frame_count (model, index, length, error))
        return FALSE;
      now = ops->get_curve (model, index);
      c->limits = now->limits;
      c->frame_count = now->frame_count;
    }
  /* Wider frames, one type at a time, until every frame fits. */
  for (;;)
    {
      double frame = 0;
      g_autofree char *fcost = frame_needing_widening (ops, model, index, c, &frame);
      g_autoptr (TressCurve) now = NULL;

      if (fcost == NULL)
        break;
      if (!(consent & TRESS_COMMIT_WIDEN_FRAMES))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "frame %g is not one this curve's frame type stores: it needs a wider "
                       "frame type first (%s)",
                       frame, fcost);
          return FALSE;
        }
      if (!ops->widen_frames (model, index, frame, error))
        return FALSE;
      now = ops->get_curve (model, index);
      c->limits = now->limits;
    }
  if (!tress_curve_check_limits (c, error))
    return FALSE;
  /* Values: the stored step while it holds them; else what was agreed to
   * (with a coarser step agreed to and no wider type asked for, nothing to
   * look at first). */
  if (ops->preview_store != NULL
      && (!(consent & TRESS_COMMIT_REQUANTIZE) || (consent & TRESS_COMMIT_WIDEN_VALUES))
      && ops->preview_store (model, index, c, &cost, NULL) && tress_store_cost_is_lossy (&cost))
    {
      if ((consent & TRESS_COMMIT_WIDEN_VALUES) && cost.wide_type != NULL
          && ops->set_curve_wide != NULL)
        wide = TRUE;
      else if (!(consent & TRESS_COMMIT_REQUANTIZE))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "storing the edit in the curve's %s keys needs a step of %.3g (%.3g now), "
                       "which moves the keys not edited by up to %.3g: a coarser step or a "
                       "wider value type needs consent first",
                       cost.type, cost.new_step, cost.step, cost.moved);
          tress_store_cost_clear (&cost);
          return FALSE;
        }
    }
  tress_store_cost_clear (&cost);
  return wide ? ops->set_curve_wide (model, index, c, max_error, error)
              : ops->set_curve (model, index, c, max_error, error);
}

gboolean
tress_curve_commit_value_at (const TressCurveOps *ops, gpointer model, guint index, double frame,
                             double value, TressCommitConsent consent, const char *what,
                             gboolean *inserted, double *max_error, GPtrArray *notes,
                             GError **error)
{
  g_autoptr (TressCurve) curve = ops->get_curve (model, index);
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GBytes) before = NULL;
  g_autofree char *notice = NULL;
  TressCommitPlan plan;
  TressKey key;
  int at = tress_curve_find_key (curve, frame, 1e-9);
  double step = curve->limits.frame_step;

  *inserted = FALSE;
  *max_error = 0;
  if (at < 0)
    {
      /* Between the stored frames: inserted as asked, and the plan says
       * what holding it costs. */
      curve->limits.frame_step = 0;
      if (!tress_curve_edit_insert (curve, keys, frame, error))
        {
          g_prefix_error (error, "%s: ", what);
          return FALSE;
        }
      at = (int)g_array_index (keys, guint, 0);
      *inserted = TRUE;
    }
  key = *tress_curve_get_key (curve, (guint)at);
  key.value = value;
  if (!tress_curve_edit_set_key (curve, keys, (guint)at, &key, error))
    {
      g_prefix_error (error, "%s: ", what);
      return FALSE;
    }
  if (!tress_curve_commit_plan (ops, model, index, curve, &plan, error))
    {
      g_prefix_error (error, "%s: ", what);
      return FALSE;
    }
  if ((plan.needs & TRESS_COMMIT_WIDEN_FRAMES) && !(consent & TRESS_COMMIT_WIDEN_FRAMES))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "%s: frame %g is not one the curve's frame type stores (every %g): it needs a "
                   "wider frame type (%s)",
                   what, plan.frame, step, plan.frames_cost);
      tress_commit_plan_clear (&plan);
      return FALSE;
    }
  if ((plan.needs & TRESS_COMMIT_REQUANTIZE) && !(consent & TRESS_COMMIT_REQUANTIZE)
      && !((consent & TRESS_COMMIT_WIDEN_VALUES) && plan.store.wide_type != NULL))
    {
      g_autofree char *wide = NULL;

      if (plan.store.wide_type != NULL)
        wide
            = g_strdup_printf ("; %s keys would keep them within %.3g and grow the file by "
                               "%" G_GSIZE_FORMAT " bytes",
                               plan.store.wide_type, plan.store.wide_moved, plan.store.wide_growth);
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "%s: %.9g lies outside what the curve's %s keys hold as stored (step %.3g): a "
                   "step of %.3g would hold it but moves the keys not edited by up to %.3g (more "
                   "than half the step they have now, %.3g)%s",
                   what, value, plan.store.type, plan.store.step, plan.store.new_step,
                   plan.store.moved, plan.store.tolerance, wide != NULL ? wide : "");
      tress_commit_plan_clear (&plan);
      return FALSE;
    }
  tress_commit_plan_clear (&plan);
  before = ops->save_state (model, index);
  if (!tress_curve_commit (ops, model, index, curve, consent, max_error, error))
    {
      ops->restore_state (model, index, before);
      g_prefix_error (error, "%s: ", what);
      return FALSE;
    }
  notice = ops->dup_notice != NULL ? ops->dup_notice (model) : NULL;
  if (notice != NULL && notes != NULL)
    {
      g_autofree char *shown = tress_notice_render (notice, 1, "");

      g_ptr_array_add (notes, g_steal_pointer (&shown));
    }
  return TRUE;
}
