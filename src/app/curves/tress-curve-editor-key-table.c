/* tress-curve-editor-key-table.c: the curve editor's key table: one row per key of one curve
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-editor-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>
#include "tress-tooltip.h"

/* ---------------------------------------------------------- key table -- */

/* The curve the key table lists: the channel selected last, else the active
 * key's curve, else the first one drawn (solo), else the first shown. */
int
wanted_table_curve (TressCurveEditor *self)
{
  guint curve = 0, key = 0;

  if (self->table_follows_channels)
    {
      g_autoptr (GArray) selected
          = tress_curve_channel_list_dup_selected_curves (self->channel_list);

      if (selected->len > 0)
        return (int)g_array_index (selected, guint, 0);
    }
  if (tress_curve_view_get_active_key (self->view, &curve, &key))
    return (int)curve;
  for (guint i = 0; i < tress_curve_view_get_n_curves (self->view); i++)
    if (tress_curve_view_get_curve_shown (self->view,
                                          tress_curve_view_get_curve_index (self->view, i)))
      return (int)tress_curve_view_get_curve_index (self->view, i);
  if (tress_curve_view_get_n_curves (self->view) > 0)
    return (int)tress_curve_view_get_curve_index (self->view, 0);
  return -1;
}

/* The table's title names its curve; a format that stores one interpolation
 * per curve (BFRES) gets it once, beside the title, not once per key. */
static void
update_table_header (TressCurveEditor *self, const TressCurve *c)
{
  gboolean uniform = c != NULL && c->limits.uniform_interp && tress_curve_get_n_keys (c) > 0;
  g_autofree char *title = NULL;

  if (c != NULL)
    title = g_strdup_printf (ngettext ("%s, %u key", "%s, %u keys", tress_curve_get_n_keys (c)),
                             c->path != NULL ? c->path : _ ("curve"), tress_curve_get_n_keys (c));
  gtk_label_set_text (self->table_title, title != NULL ? title : _ ("No curve"));
  tress_set_tooltip (GTK_WIDGET (self->table_title), title);
  gtk_widget_set_visible (self->curve_interp_box, uniform);
  if (self->interp_column != NULL)
    gtk_column_view_column_set_visible (self->interp_column, !uniform);
  if (uniform)
    gtk_drop_down_set_selected (self->curve_interp, (guint)tress_curve_get_key (c, 0)->interp);
}

void
on_curve_interp (GtkDropDown *dd, GParamSpec *pspec, TressCurveEditor *self)
{
  guint sel = gtk_drop_down_get_selected (dd);
  const TressCurve *c;
  g_autoptr (GError) error = NULL;

  if (self->syncing || self->table_curve < 0 || sel >= G_N_ELEMENTS (interp_names) - 1)
    return;
  c = tress_curve_view_get_shown_curve (self->view, (guint)self->table_curve);
  if (c == NULL || tress_curve_get_n_keys (c) == 0
      || tress_curve_get_key (c, 0)->interp == (TressInterp)sel)
    return;
  if (!tress_curve_view_set_curve_interpolation (self->view, (guint)self->table_curve,
                                                 (TressInterp)sel, &error))
    {
      /* Refused (the message says why): show what the curve still holds. */
      self->syncing = TRUE;
      update_table_header (self, c);
      self->syncing = FALSE;
    }
}

/* The table keeps the active key in view. */
void
scroll_table_to (TressCurveEditor *self, guint row)
{
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self->key_view)); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_LIST_VIEW (c))
      gtk_widget_activate_action (c, "list.scroll-to-item", "u", row);
}

void
rebuild_key_rows (TressCurveEditor *self)
{
  guint curve = 0, key = 0;
  const TressCurve *c = NULL;
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  int table_curve = wanted_table_curve (self);

  if (table_curve >= 0)
    c = tress_curve_view_get_shown_curve (self->view, (guint)table_curve);
  self->table_curve = table_curve;
  self->table_source = c;
  self->table_scale
      = table_curve >= 0 ? tress_curve_view_get_display_scale (self->view, (guint)table_curve) : 1;
  if (c != NULL)
    for (guint i = 0; i < tress_curve_get_n_keys (c); i++)
      {
        TressCurveKeyRow *r = g_object_new (TRESS_TYPE_CURVE_KEY_ROW, NULL);

        r->view = self->view;
        r->curve = (guint)table_curve;
        r->key = i;
        g_ptr_array_add (rows, r);
      }
  self->syncing = TRUE;
  g_list_store_splice (self->key_rows, 0, g_list_model_get_n_items (G_LIST_MODEL (self->key_rows)),
                       rows->pdata, rows->len);
  if (c != NULL && tress_curve_view_get_active_key (self->view, &curve, &key)
      && (int)curve == table_curve && key < rows->len)
    {
      /* The table lists the active key's curve: its row is shown too. */
      gtk_single_selection_set_selected (self->key_selection, key);
      scroll_table_to (self, key);
    }
  else
    gtk_single_selection_set_selected (self->key_selection, GTK_INVALID_LIST_POSITION);
  update_table_header (self, c);
  self->syncing = FALSE;
}

static gboolean
parse_number (const char *text, double *out)
{
  char *end = NULL;
  double v;

  if (text == NULL)
    return FALSE;
  v = g_ascii_strtod (text, &end);
  while (end != NULL && g_ascii_isspace (*end))
    end++;
  if (end == text || end == NULL || *end != '\0' || !isfinite (v))
    return FALSE;
  *out = v;
  return TRUE;
}

gboolean
tress_curve_editor_edit_cell (TressCurveEditor *self, guint row, const char *column,
                              const char *text, GError **error)
{
  g_autoptr (TressCurveKeyRow) r = NULL;
  const TressKey *k;
  TressKey key;
  double v = 0, scale;

  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), FALSE);
  r = g_list_model_get_item (G_LIST_MODEL (self->key_rows), row);
  if (r == NULL || (k = row_key (r)) == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, _ ("There is no row %u"), row);
      return FALSE;
    }
  key = *k;
  if (g_str_equal (column, "interpolation"))
    {
      TressInterp interp;

      if (!tress_interp_from_string (text, &interp))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       _ ("“%s” is not an interpolation (step, linear, hermite or baked)"), text);
          return FALSE;
        }
      key.interp = interp;
      if (key.interp == k->interp)
        return TRUE;
      {
        /* The same path as the toolbar, so the format's rules (one kind per curve) apply. */
        tress_curve_view_select_key (self->view, r->curve, r->key, TRESS_CURVE_PART_KEY, FALSE);
        gtk_widget_activate_action (GTK_WIDGET (self->view), "curve.set-interpolation", "s",
                                    tress_interp_to_string (interp));
        k = row_key (r);
        if (k == NULL || k->interp != interp)
          {
            const char *m = tress_curve_view_get_message (self->view);
            g_set_error_literal (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                                 m ? m : _ ("The interpolation was not changed"));
            return FALSE;
          }
        return TRUE;
      }
    }
  if (!parse_number (text, &v))
    {
      g_autofree char *msg = g_strdup_printf (_ ("“%s” is not a number"), text);
      g_set_error_literal (error, TRESS_ERROR, TRESS_ERROR_REFUSED, msg);
      gtk_label_set_text (self->message_label, msg);
      gtk_widget_add_css_class (GTK_WIDGET (self->message_label), "error");
      gtk_widget_set_visible (GTK_WIDGET (self->message_label), TRUE);
      gtk_widget_set_visible (self->message_box, TRUE);
      return FALSE;
    }
  /* Typed in the units shown (degrees for angles). */
  scale = tress_curve_view_get_display_scale (self->view, r->curve);
  if (g_str_equal (column, "frame"))
    key.frame = v;
  else if (g_str_equal (column, "value"))
    key.value = v / scale;
  else if (g_str_equal (column, "in"))
    key.in_slope = v / scale;
  else if (g_str_equal (column, "out"))
    key.out_slope = v / scale;
  else
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, _ ("There is no column %s"), column);
      return FALSE;
    }
  if (memcmp (&key, k, sizeof key) == 0)
    return TRUE;
  return tress_curve_view_set_key (self->view, r->curve, r->key, &key, error);
}

static void
table_setup_entry (GtkSignalListItemFactory *f, GtkListItem *item, gpointer column)
{
  GtkWidget *label = gtk_editable_label_new ("");

  gtk_list_item_set_child (item, label);
}

static void
on_cell_editing (GtkEditableLabel *label, GParamSpec *pspec, TressCurveEditor *self)
{
  guint row;
  const char *column;
  g_autoptr (GError) error = NULL;

  if (gtk_editable_label_get_editing (label))
    return;
  row = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (label), "tress-row"));
  column = g_object_get_data (G_OBJECT (label), "tress-column");
  if (column == NULL)
    return;
  if (!tress_curve_editor_edit_cell (self, row, column,
                                     gtk_editable_get_text (GTK_EDITABLE (label)), &error))
    {
      /* Show the value the curve still holds. */
      g_autoptr (TressCurveKeyRow) r = g_list_model_get_item (G_LIST_MODEL (self->key_rows), row);
      if (r != NULL)
        {
          g_autofree char *text = tress_curve_key_row_dup_text (r, column);
          gtk_editable_set_text (GTK_EDITABLE (label), text);
        }
    }
}

static void
table_bind_entry (GtkSignalListItemFactory *f, GtkListItem *item, gpointer column)
{
  TressCurveKeyRow *r = gtk_list_item_get_item (item);
  GtkWidget *label = gtk_list_item_get_child (item);
  TressCurveEditor *self = g_object_get_data (G_OBJECT (f), "tress-editor");
  g_autofree char *text = tress_curve_key_row_dup_text (r, column);

  g_object_set_data (G_OBJECT (label), "tress-column", NULL);
  gtk_editable_set_text (GTK_EDITABLE (label), text);
  g_object_set_data (G_OBJECT (label), "tress-row",
                     GUINT_TO_POINTER (gtk_list_item_get_position (item)));
  g_object_set_data (G_OBJECT (label), "tress-column", column);
  if (g_object_get_data (G_OBJECT (label), "tress-connected") == NULL)
    {
      g_signal_connect (label, "notify::editing", G_CALLBACK (on_cell_editing), self);
      g_object_set_data (G_OBJECT (label), "tress-connected", GINT_TO_POINTER (1));
    }
}

static void
table_unbind_entry (GtkSignalListItemFactory *f, GtkListItem *item, gpointer column)
{
  GtkWidget *label = gtk_list_item_get_child (item);

  g_object_set_data (G_OBJECT (label), "tress-column", NULL);
}

static void
on_cell_interp (GtkDropDown *dd, GParamSpec *pspec, TressCurveEditor *self)
{
  guint row = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (dd), "tress-row"));
  guint sel = gtk_drop_down_get_selected (dd);

  if (self->syncing || g_object_get_data (G_OBJECT (dd), "tress-bound") == NULL
      || sel >= G_N_ELEMENTS (interp_names) - 1)
    return;
  tress_curve_editor_edit_cell (self, row, "interpolation", interp_names[sel], NULL);
}

static void
table_setup_interp (GtkSignalListItemFactory *f, GtkListItem *item, gpointer data)
{
  GtkWidget *dd = interp_drop_down_new ();

  gtk_list_item_set_child (item, dd);
}

static void
table_bind_interp (GtkSignalListItemFactory *f, GtkListItem *item, gpointer data)
{
  TressCurveKeyRow *r = gtk_list_item_get_item (item);
  GtkWidget *dd = gtk_list_item_get_child (item);
  TressCurveEditor *self = g_object_get_data (G_OBJECT (f), "tress-editor");
  const TressKey *k = row_key (r);

  g_object_set_data (G_OBJECT (dd), "tress-bound", NULL);
  g_object_set_data (G_OBJECT (dd), "tress-row",
                     GUINT_TO_POINTER (gtk_list_item_get_position (item)));
  if (k != NULL)
    gtk_drop_down_set_selected (GTK_DROP_DOWN (dd), (guint)k->interp);
  if (g_object_get_data (G_OBJECT (dd), "tress-connected") == NULL)
    {
      g_signal_connect (dd, "notify::selected", G_CALLBACK (on_cell_interp), self);
      g_object_set_data (G_OBJECT (dd), "tress-connected", GINT_TO_POINTER (1));
    }
  g_object_set_data (G_OBJECT (dd), "tress-bound", GINT_TO_POINTER (1));
}

static void
table_unbind_interp (GtkSignalListItemFactory *f, GtkListItem *item, gpointer data)
{
  g_object_set_data (G_OBJECT (gtk_list_item_get_child (item)), "tress-bound", NULL);
}

static void
on_key_row_selected (GtkSingleSelection *sel, GParamSpec *pspec, TressCurveEditor *self)
{
  guint pos = gtk_single_selection_get_selected (sel);
  g_autoptr (TressCurveKeyRow) r = NULL;

  if (self->syncing || pos == GTK_INVALID_LIST_POSITION)
    return;
  r = g_list_model_get_item (G_LIST_MODEL (self->key_rows), pos);
  if (r != NULL)
    tress_curve_view_select_key (self->view, r->curve, r->key, TRESS_CURVE_PART_KEY, FALSE);
}

void
setup_key_table (TressCurveEditor *self)
{
  static const char *const columns[] = { "frame", "value", "in", "out" };
  static const char *const titles[]
      = { N_ ("Frame"), N_ ("Value"), N_ ("In slope"), N_ ("Out slope") };

  self->key_rows = g_list_store_new (TRESS_TYPE_CURVE_KEY_ROW);
  self->key_selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->key_rows)));
  gtk_single_selection_set_autoselect (self->key_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->key_selection, TRUE);
  g_signal_connect (self->key_selection, "notify::selected", G_CALLBACK (on_key_row_selected),
                    self);
  gtk_column_view_set_model (self->key_view, GTK_SELECTION_MODEL (self->key_selection));
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      GtkListItemFactory *f = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *col;

      g_object_set_data (G_OBJECT (f), "tress-editor", self);
      g_signal_connect (f, "setup", G_CALLBACK (table_setup_entry), (gpointer)columns[i]);
      g_signal_connect (f, "bind", G_CALLBACK (table_bind_entry), (gpointer)columns[i]);
      g_signal_connect (f, "unbind", G_CALLBACK (table_unbind_entry), (gpointer)columns[i]);
      col = gtk_column_view_column_new (_ (titles[i]), f);
      gtk_column_view_column_set_expand (col, TRUE);
      gtk_column_view_append_column (self->key_view, col);
      g_object_unref (col);
    }
  {
    GtkListItemFactory *f = gtk_signal_list_item_factory_new ();
    GtkColumnViewColumn *col;

    g_object_set_data (G_OBJECT (f), "tress-editor", self);
    g_signal_connect (f, "setup", G_CALLBACK (table_setup_interp), NULL);
    g_signal_connect (f, "bind", G_CALLBACK (table_bind_interp), NULL);
    g_signal_connect (f, "unbind", G_CALLBACK (table_unbind_interp), NULL);
    col = gtk_column_view_column_new (_ ("Interpolation"), f);
    gtk_column_view_append_column (self->key_view, col);
    self->interp_column = col; /* the table holds it */
    g_object_unref (col);
  }
}
