/* tress-curve-editor-key-panel.c: the curve editor's key panel: the active key's fields
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-editor-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>
#include "tress-tooltip.h"

/* ---------------------------------------------------------- key panel -- */

/* What the file stores for key @k of curve @index and in which steps, or NULL
 * for curves that store values as given. */
static char *
dup_stored_text (TressCurveEditor *self, guint index, const TressKey *k)
{
  const TressCurve *c = tress_curve_document_get_curve (self->document, index);
  /* In the unit the panel's fields show (degrees for angles). */
  double scale = tress_curve_view_get_display_scale (self->view, index);
  const char *sign = unit_sign (scale);
  gboolean fits = TRUE;
  double v;

  if (c == NULL || !(c->value_step > 0))
    return NULL;
  v = tress_curve_stored_value (c, k->value, &fits);
  if (!fits)
    /* TRANSLATORS: a key's value outside the steps its curve stores */
    return g_strdup_printf (_ ("Stored with a new step (%s)"), c->type_label ? c->type_label : "");
  /* TRANSLATORS: the value a key is stored with, and the step of its curve's
   * values; the %s after each number is its unit ("°" or nothing) */
  return g_strdup_printf (_ ("Stored %.7g%s, step %.4g%s (%s)"), v * scale, sign,
                          c->value_step * scale, sign, c->type_label ? c->type_label : "");
}

/* What widening the key type of curve @index costs, or NULL. */
static char *
dup_widen_text (TressCurveEditor *self, guint index)
{
  const TressCurveOps *ops = curve_ops (self);

  if (ops == NULL || ops->widen_types == NULL || ops->describe_widening == NULL)
    return NULL;
  return ops->describe_widening (tress_document_get_model (TRESS_DOCUMENT (self->document)), index);
}

void
update_key_panel (TressCurveEditor *self)
{
  guint curve = 0, key = 0;
  const TressCurve *c = NULL;
  const TressKey *k = NULL;
  g_autofree char *title = NULL, *stored = NULL, *cost = NULL;
  const char *no_slopes = NULL;
  gboolean slopes = FALSE;
  double scale = 1;

  if (tress_curve_view_get_active_key (self->view, &curve, &key))
    c = tress_curve_view_get_shown_curve (self->view, curve);
  if (c != NULL && key < tress_curve_get_n_keys (c))
    {
      k = tress_curve_get_key (c, key);
      scale = tress_curve_view_get_display_scale (self->view, curve);
    }
  self->syncing = TRUE;
  for (guint i = 0; i < 4; i++)
    gtk_widget_set_sensitive (GTK_WIDGET (self->panel_spin[i]), k != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->panel_interp), k != NULL);
  if (k != NULL)
    {
      gtk_spin_button_set_value (self->panel_spin[0], k->frame);
      gtk_spin_button_set_value (self->panel_spin[1], k->value * scale);
      gtk_spin_button_set_value (self->panel_spin[2], k->in_slope * scale);
      gtk_spin_button_set_value (self->panel_spin[3], k->out_slope * scale);
      gtk_drop_down_set_selected (self->panel_interp, (guint)k->interp);
      /* Where the format stores no slopes (NIFF1 records, BFRES step, linear
       * and baked curves) neither field is editable, and each says why; NIFF2
       * stores one slope per key: the out slope follows the in slope. */
      slopes = tress_curve_key_has_slopes (c, key, &no_slopes);
      gtk_widget_set_sensitive (GTK_WIDGET (self->panel_spin[2]), slopes);
      gtk_widget_set_sensitive (GTK_WIDGET (self->panel_spin[3]),
                                slopes && !c->limits.tied_tangents);
      title = g_strdup_printf (_ ("%s, key %u"), c->path ? c->path : _ ("curve"), key);
      g_free (self->panel_text);
      self->panel_text = g_strdup_printf (_ ("%s: frame %g value %g in %g out %g %s"), title,
                                          k->frame, k->value * scale, k->in_slope * scale,
                                          k->out_slope * scale, tress_interp_to_label (k->interp));
      stored = dup_stored_text (self, curve, k);
      cost = dup_widen_text (self, curve);
      if (stored != NULL)
        {
          char *t = g_strdup_printf ("%s; %s", self->panel_text, stored);

          g_free (self->panel_text);
          self->panel_text = t;
        }
    }
  else
    {
      title = g_strdup (_ ("No active key"));
      /* Insensitive fields show a neutral value, not the range's minimum. */
      for (guint i = 0; i < 4; i++)
        gtk_spin_button_set_value (self->panel_spin[i], 0);
      gtk_drop_down_set_selected (self->panel_interp, GTK_INVALID_LIST_POSITION);
      g_clear_pointer (&self->panel_text, g_free);
    }
  gtk_label_set_text (self->panel_title, title);
  gtk_label_set_text (self->panel_stored, stored ? stored : "");
  /* Visible without scrolling the panel: the value field's tooltip and the
   * status line. */
  tress_set_tooltip (GTK_WIDGET (self->panel_spin[1]), stored);
  tress_set_tooltip (GTK_WIDGET (self->panel_spin[2]), no_slopes);
  tress_set_tooltip (
      GTK_WIDGET (self->panel_spin[3]),
      no_slopes != NULL ? no_slopes
      : slopes && c->limits.tied_tangents
          ? _ ("The format stores one slope per key: the out slope follows the in slope")
          : NULL);
  if (g_strcmp0 (stored, self->stored_text) != 0)
    {
      g_free (self->stored_text);
      self->stored_text = g_strdup (stored);
      update_summary (self);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->panel_stored), stored != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->panel_widen), cost != NULL);
  if (cost != NULL)
    {
      g_autofree char *label = g_strdup_printf (_ ("Finer steps: %s"), cost);

      gtk_label_set_text (GTK_LABEL (gtk_button_get_child (self->panel_widen)), label);
      tress_set_tooltip (GTK_WIDGET (self->panel_widen),
                         _ ("Store this curve with the next wider key type (one undo "
                            "step); the file grows"));
    }
  self->syncing = FALSE;
}

void
on_panel_spin (GtkSpinButton *spin, TressCurveEditor *self)
{
  guint curve = 0, key = 0;
  const TressCurve *c;
  TressKey k;
  double scale;
  g_autoptr (GError) error = NULL;

  if (self->syncing || !tress_curve_view_get_active_key (self->view, &curve, &key))
    return;
  c = tress_curve_view_get_shown_curve (self->view, curve);
  if (c == NULL || key >= tress_curve_get_n_keys (c))
    return;
  k = *tress_curve_get_key (c, key);
  /* Only the field edited: the others show rounded digits and must keep their values. */
  scale = tress_curve_view_get_display_scale (self->view, curve);
  if (spin == self->panel_spin[0])
    k.frame = gtk_spin_button_get_value (spin);
  else if (spin == self->panel_spin[1])
    k.value = gtk_spin_button_get_value (spin) / scale;
  else if (spin == self->panel_spin[2])
    k.in_slope = gtk_spin_button_get_value (spin) / scale;
  else
    k.out_slope = gtk_spin_button_get_value (spin) / scale;
  if (c->limits.tied_tangents)
    {
      if (spin == self->panel_spin[3])
        k.in_slope = k.out_slope;
      else
        k.out_slope = k.in_slope;
    }
  if (!tress_curve_view_set_key (self->view, curve, key, &k, &error))
    update_key_panel (self);
}

void
on_panel_interp (GtkDropDown *dd, GParamSpec *pspec, TressCurveEditor *self)
{
  guint sel = gtk_drop_down_get_selected (dd);

  if (self->syncing || sel >= G_N_ELEMENTS (interp_names) - 1)
    return;
  gtk_widget_activate_action (GTK_WIDGET (self->view), "curve.set-interpolation", "s",
                              interp_names[sel]);
  update_key_panel (self);
}
