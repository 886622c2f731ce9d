/* tress-curve-key-row.c: the key table's rows: one key of the table's curve
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-editor-private.h"

#include <glib/gi18n.h>

/* ------------------------------------------------------------ key rows -- */

G_DEFINE_FINAL_TYPE (TressCurveKeyRow, tress_curve_key_row, G_TYPE_OBJECT)

static void
tress_curve_key_row_class_init (TressCurveKeyRowClass *klass)
{
}

static void
tress_curve_key_row_init (TressCurveKeyRow *self)
{
}

guint
tress_curve_key_row_get_key (TressCurveKeyRow *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_KEY_ROW (self), 0);
  return self->key;
}

const TressKey *
row_key (TressCurveKeyRow *self)
{
  const TressCurve *c;

  if (self->view == NULL)
    return NULL;
  c = tress_curve_view_get_shown_curve (self->view, self->curve);
  if (c == NULL || self->key >= tress_curve_get_n_keys (c))
    return NULL;
  return tress_curve_get_key (c, self->key);
}

static char *
format_double (double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (buf, sizeof buf, "%.6g", v);
  return g_strdup (buf);
}

char *
tress_curve_key_row_dup_text (TressCurveKeyRow *self, const char *column)
{
  const TressKey *k;

  g_return_val_if_fail (TRESS_IS_CURVE_KEY_ROW (self), NULL);
  k = row_key (self);
  if (k == NULL)
    return g_strdup ("");
  if (g_str_equal (column, "frame"))
    return format_double (k->frame);
  /* Values and slopes in the units the graph shows (degrees for angles). */
  if (g_str_equal (column, "value"))
    return format_double (k->value * tress_curve_view_get_display_scale (self->view, self->curve));
  if (g_str_equal (column, "in"))
    return format_double (k->in_slope
                          * tress_curve_view_get_display_scale (self->view, self->curve));
  if (g_str_equal (column, "out"))
    return format_double (k->out_slope
                          * tress_curve_view_get_display_scale (self->view, self->curve));
  if (g_str_equal (column, "interpolation"))
    return g_strdup (tress_interp_to_string (k->interp));
  return g_strdup ("");
}
