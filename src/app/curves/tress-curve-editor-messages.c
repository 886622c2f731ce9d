/* tress-curve-editor-messages.c: the curve editor's message, warning and notes bars and the offers
 * they carry
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-editor-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>
#include "tress-tooltip.h"

/* ------------------------------------------------------------ messages -- */

static void
update_notes (TressCurveEditor *self)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) notes = g_ptr_array_new ();
  guint n = tress_curve_view_get_n_curves (self->view);

  /* E.g. NIFF SLOW easing: drawn as an assumption, and the user is told so.
   * One line: the first remark, and how many others the details list. */
  for (guint i = 0; i < n; i++)
    {
      const TressCurve *c = tress_curve_document_get_curve (
          self->document, tress_curve_view_get_curve_index (self->view, i));

      if (c == NULL || c->note == NULL || c->note[0] == '\0' || !g_hash_table_add (seen, c->note))
        continue;
      g_ptr_array_add (notes, c->note);
    }
  g_clear_pointer (&self->notes, g_free);
  if (notes->len == 1)
    self->notes = g_strdup (notes->pdata[0]);
  else if (notes->len > 1)
    self->notes = g_strdup_printf (
        /* TRANSLATORS: %s is the first of several remarks on the shown curves */
        ngettext ("%s (and %u other remark)", "%s (and %u other remarks)", notes->len - 1),
        (const char *)notes->pdata[0], notes->len - 1);
  gtk_label_set_text (self->notes_label, self->notes ? self->notes : "");
  tress_set_tooltip (GTK_WIDGET (self->notes_label), self->notes);
  gtk_widget_set_visible (self->notes_box, self->notes != NULL);
  gtk_widget_set_visible (self->notes_details, notes->len > 1);
  g_ptr_array_add (notes, NULL);
  gtk_string_list_splice (self->notes_items, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->notes_items)),
                          notes->len > 2 ? (const char *const *)notes->pdata : NULL);
}

const TressCurveOps *
curve_ops (TressCurveEditor *self)
{
  return tress_document_get_format (TRESS_DOCUMENT (self->document))->curves;
}

/* The error accepted silently for curve @index: the tolerance set in the
 * menu, else (the default) half the curve's own step. */
static double
curve_tolerance (TressCurveEditor *self, guint index)
{
  return tress_curve_view_get_tolerance_for (
      self->view, tress_curve_document_get_curve (self->document, index));
}

/* Whether curve @index is stored off by more than its tolerance. */
static gboolean
curve_over (TressCurveEditor *self, guint index, double *error, double *tolerance)
{
  double e = tress_curve_document_get_quant_error (self->document, index);
  double t = curve_tolerance (self, index);

  if (error != NULL)
    *error = e;
  if (tolerance != NULL)
    *tolerance = t;
  return e > t && tress_curve_document_get_curve (self->document, index) != NULL;
}

/* The sign after a value of a curve shown with @scale: degrees for angles. */
const char *
unit_sign (double scale)
{
  return scale != 1 ? "°" : "";
}

/* The line about one curve the file stores off by more than the tolerance
 * (both in the unit the curve is shown in). */
static char *
curve_warning_text (TressCurveEditor *self, guint index, double e, double tolerance)
{
  const TressCurve *c = tress_curve_document_get_curve (self->document, index);
  double scale = tress_curve_view_get_display_scale (self->view, index);
  const char *sign = unit_sign (scale);

  return g_strdup_printf (
      /* TRANSLATORS: the first %s is a curve's path, the last its types; the
       * %s after each number is its unit ("°" or nothing) */
      _ ("%s: the file stores values up to %.4g%s away from the edited ones (tolerance "
         "%.4g%s) with its types (%s); a wider key type would store them closer."),
      c && c->path ? c->path : _ ("curve"), e * scale, sign, tolerance * scale, sign,
      c && c->type_label ? c->type_label : "?");
}

void
update_warning (TressCurveEditor *self)
{
  double tolerance = G_MAXDOUBLE;
  double live = tress_curve_view_get_drag_error (self->view);
  const TressCurveOps *ops = curve_ops (self);
  gboolean can_widen = ops != NULL && ops->widen_types != NULL;
  char *text = NULL;
  guint n_over = 0;
  g_autofree char *cost = NULL;

  update_notes (self);
  if (live >= 0)
    {
      /* While keys are dragged: what the file would store for them now,
       * against the tolerance the tooltip by the pointer names (the
       * dragged curves'), so that the screen shows one. */
      tolerance = tress_curve_view_get_drag_tolerance (self->view);
      if (live > tolerance)
        {
          /* In the unit of the curve the error comes from, as next to the pointer. */
          double scale = tress_curve_view_get_drag_error_scale (self->view);
          const char *sign = unit_sign (scale);

          text = g_strdup_printf (
              can_widen
                  /* TRANSLATORS: the %s after each number is its unit ("°" or nothing) */
                  ? _ ("While moving: the file would store values up to %.4g%s away from the "
                       "edited ones (tolerance %.4g%s); a wider type would store them closer.")
                  /* TRANSLATORS: the %s after each number is its unit ("°" or nothing) */
                  : _ ("While moving: the file would store values up to %.4g%s away from the "
                       "edited ones (tolerance %.4g%s)."),
              live * scale, sign, tolerance * scale, sign);
        }
    }
  else
    {
      /* One line however many curves: the curve, or the count and the largest
       * error; the details popover lists them one by one. */
      guint first = 0;
      double worst = 0, worst_tolerance = 0, worst_scale = 1;

      for (guint i = 0; i < tress_curve_view_get_n_curves (self->view); i++)
        {
          guint index = tress_curve_view_get_curve_index (self->view, i);
          double e = 0, t = 0;

          if (curve_over (self, index, &e, &t))
            {
              if (n_over++ == 0)
                first = index;
              if (e > worst)
                {
                  worst = e;
                  worst_tolerance = t;
                  worst_scale = tress_curve_view_get_display_scale (self->view, index);
                }
            }
        }
      if (n_over == 1)
        text = curve_warning_text (self, first, worst, worst_tolerance);
      else if (n_over > 1)
        text = g_strdup_printf (
            /* TRANSLATORS: the %s after each number is its unit ("°" or nothing) */
            ngettext ("%u curve: the file stores values up to %.4g%s away from the edited ones "
                      "(tolerance %.4g%s) with their types; wider key types would store them "
                      "closer.",
                      "%u curves: the file stores values up to %.4g%s away from the edited ones "
                      "(tolerance %.4g%s) with their types; wider key types would store them "
                      "closer.",
                      n_over),
            n_over, worst * worst_scale, unit_sign (worst_scale), worst_tolerance * worst_scale,
            unit_sign (worst_scale));
      /* The button names what widening costs. */
      if (n_over == 1 && can_widen && ops->describe_widening != NULL)
        cost = ops->describe_widening (tress_document_get_model (TRESS_DOCUMENT (self->document)),
                                       first);
      else if (n_over > 1 && can_widen)
        cost = g_strdup_printf (ngettext ("%u curve one key type wider; the file grows",
                                          "%u curves, each one key type wider; the file grows",
                                          n_over),
                                n_over);
    }
  g_free (self->warning);
  self->warning = text;
  self->warning_items_valid = FALSE;
  gtk_label_set_text (self->warning_label, self->warning ? self->warning : "");
  tress_set_tooltip (GTK_WIDGET (self->warning_label), self->warning);
  gtk_widget_set_visible (self->warning_box, self->warning != NULL);
  gtk_widget_set_visible (self->warning_details, n_over > 1);
  /* Offered only where the format has wider types (BFRES: s16 and f32 keys). */
  gtk_widget_set_visible (self->widen_button, can_widen);
  tress_set_tooltip (self->widen_button, cost != NULL
                                             ? cost
                                             : _ ("Store these curves with wider keys so the file "
                                                  "holds the edited values more closely"));
  update_summary (self);
}

/* The details of the warning, one line per curve, made when they are asked for. */
void
on_warning_details_show (GtkPopover *popover, TressCurveEditor *self)
{
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);

  if (self->warning_items_valid)
    return;
  for (guint i = 0; i < tress_curve_view_get_n_curves (self->view); i++)
    {
      guint index = tress_curve_view_get_curve_index (self->view, i);
      double e = 0, tolerance = 0;

      if (curve_over (self, index, &e, &tolerance))
        g_ptr_array_add (lines, curve_warning_text (self, index, e, tolerance));
    }
  g_ptr_array_add (lines, NULL);
  gtk_string_list_splice (self->warning_items, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->warning_items)),
                          (const char *const *)lines->pdata);
  self->warning_items_valid = TRUE;
}

void
on_drag_error (TressCurveView *view, GParamSpec *pspec, TressCurveEditor *self)
{
  update_warning (self);
}

static gboolean
widen_curve (gpointer model, guint index, gpointer data, double *max_error, GError **error)
{
  const TressCurveOps *ops = data;

  return ops->widen_types (model, index, max_error, error);
}

void
show_message (TressCurveEditor *self, const char *text)
{
  gtk_label_set_text (self->message_label, text);
  gtk_widget_add_css_class (GTK_WIDGET (self->message_label), "error");
  tress_set_tooltip (GTK_WIDGET (self->message_label), text);
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), TRUE);
  gtk_widget_set_visible (self->message_box, TRUE);
  update_summary (self);
}

void
tress_curve_editor_show_message (TressCurveEditor *self, const char *text, gboolean error)
{
  g_return_if_fail (TRESS_IS_CURVE_EDITOR (self));
  show_message (self, text);
  if (!error)
    gtk_widget_remove_css_class (GTK_WIDGET (self->message_label), "error");
}

/* Widens the types of every shown curve whose stored values are off by more
 * than the tolerance: one undo step. */
void
act_widen_types (GtkWidget *widget, const char *name, GVariant *param)
{
  TressCurveEditor *self = TRESS_CURVE_EDITOR (widget);
  const TressCurveOps *ops = curve_ops (self);
  g_autoptr (GArray) todo = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GError) error = NULL;
  g_autofree char *label = NULL;

  if (ops == NULL || ops->widen_types == NULL)
    {
      show_message (self, _ ("This format has no wider types to store values in"));
      return;
    }
  for (guint i = 0; i < tress_curve_view_get_n_curves (self->view); i++)
    {
      guint index = tress_curve_view_get_curve_index (self->view, i);

      if (curve_over (self, index, NULL, NULL))
        g_array_append_val (todo, index);
    }
  if (todo->len == 0)
    return;
  label = g_strdup_printf (
      ngettext ("Widen the types of %u curve", "Widen the types of %u curves", todo->len),
      todo->len);
  tress_curve_document_begin_edit (self->document, label);
  for (guint i = 0; i < todo->len && error == NULL; i++)
    tress_curve_document_apply_model_edit (self->document, g_array_index (todo, guint, i), label,
                                           widen_curve, (gpointer)ops, &error);
  tress_curve_document_end_edit (self->document);
  if (error != NULL)
    show_message (self, error->message);
  update_warning (self);
}

/* The curve of the key panel's key, one key type wider (finer steps): one undo
 * step. The button names what it costs. */
void
act_widen_active (GtkWidget *widget, const char *name, GVariant *param)
{
  TressCurveEditor *self = TRESS_CURVE_EDITOR (widget);
  const TressCurveOps *ops = curve_ops (self);
  guint curve = 0, key = 0;
  g_autoptr (GError) error = NULL;
  g_autofree char *cost = NULL, *label = NULL;

  if (ops == NULL || ops->widen_types == NULL || ops->describe_widening == NULL
      || !tress_curve_view_get_active_key (self->view, &curve, &key))
    return;
  cost = ops->describe_widening (tress_document_get_model (TRESS_DOCUMENT (self->document)), curve);
  if (cost == NULL)
    return;
  /* TRANSLATORS: %s says what widening costs, e.g. "16-bit keys: exact to 1.2e-05, the file
   * grows by 144 bytes" */
  label = g_strdup_printf (_ ("Widen the key type (%s)"), cost);
  if (!tress_curve_document_apply_model_edit (self->document, curve, label, widen_curve,
                                              (gpointer)ops, &error))
    show_message (self, error->message);
  update_warning (self);
}

void
on_message (TressCurveView *view, GParamSpec *pspec, TressCurveEditor *self)
{
  const char *m = tress_curve_view_get_message (view);
  const TressCurveOps *ops = curve_ops (self);
  double end = 0;
  gboolean offer = tress_curve_view_get_pending_end (view, &end) && ops != NULL
                   && ops->set_frame_count != NULL;

  gtk_label_set_text (self->message_label, m ? m : "");
  gtk_widget_add_css_class (GTK_WIDGET (self->message_label), "error");
  tress_set_tooltip (GTK_WIDGET (self->message_label), m);
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), m != NULL);
  gtk_widget_set_visible (self->message_box, m != NULL);
  /* A format that can lengthen its animations gets the offer, never the change unasked. */
  gtk_widget_set_visible (self->lengthen_button, offer);
  if (offer)
    {
      g_autofree char *label = g_strdup_printf (_ ("Lengthen to %g frames"), end);
      gtk_button_set_label (GTK_BUTTON (self->lengthen_button), label);
    }
  /* A frame the curve's frame type cannot store: asked, never widened unasked. */
  {
    const char *cost = NULL;
    gboolean widen = tress_curve_view_get_frame_widening (view, &cost);

    gtk_widget_set_visible (self->widen_frames_button, widen);
    tress_set_tooltip (self->widen_frames_button, widen ? cost : NULL);
  }
  update_summary (self);
}

void
act_widen_frames (GtkWidget *widget, const char *name, GVariant *param)
{
  TressCurveEditor *self = TRESS_CURVE_EDITOR (widget);
  g_autoptr (GError) error = NULL;

  if (!tress_curve_view_get_frame_widening (self->view, NULL))
    return;
  if (!tress_curve_view_commit_frame_widening (self->view, &error))
    show_message (self, error->message);
  update_warning (self);
}

void
act_unwrap (GtkWidget *widget, const char *name, GVariant *param)
{
  tress_curve_view_unwrap_angles (TRESS_CURVE_EDITOR (widget)->view);
}

void
act_lengthen (GtkWidget *widget, const char *name, GVariant *param)
{
  TressCurveEditor *self = TRESS_CURVE_EDITOR (widget);
  const TressCurveOps *ops = curve_ops (self);
  g_autoptr (GError) error = NULL;

  if (ops == NULL || ops->set_frame_count == NULL
      || !tress_curve_view_get_pending_end (self->view, NULL))
    return;
  if (!tress_curve_view_commit_pending (self->view, &error))
    show_message (self, error->message);
}
