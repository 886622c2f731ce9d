/* tress-curve-editor.c: the curve editor of BFRES and NIFF documents
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-editor-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "app/scene/tress-scene-pane.h"
#include "tress-curve-anim-actions.h"
#include "tress-editor.h"
#include "tress-native-dialog.h"
#include "tress-scroll-guard.h"

/* -------------------------------------------------------------- editor -- */

G_DEFINE_FINAL_TYPE (TressCurveEditor, tress_curve_editor, GTK_TYPE_WIDGET)

static void flush_refresh (TressCurveEditor *self);

const char *const interp_names[] = { "step", "linear", "hermite", "baked", NULL };

/* A drop-down of the interpolations, in interp_names' order, as people read them. */
GtkWidget *
interp_drop_down_new (void)
{
  GtkStringList *list = gtk_string_list_new (NULL);

  for (guint i = 0; interp_names[i] != NULL; i++)
    gtk_string_list_append (list, tress_interp_to_label ((TressInterp)i));
  return gtk_drop_down_new (G_LIST_MODEL (list), NULL);
}

/* A curve's name for the timeline: its last path level, with the
 * level above when the last one is only a component ("RotateX X"). */
char *
short_name (const TressCurve *c)
{
  g_auto (GStrv) parts = NULL;
  guint n;

  if (c->path == NULL || c->path[0] == '\0')
    return g_strdup (_ ("curve"));
  parts = g_strsplit (c->path, "/", -1);
  n = g_strv_length (parts);
  if (n >= 2 && strlen (parts[n - 1]) <= 2)
    return g_strdup_printf ("%s %s", parts[n - 2], parts[n - 1]);
  return g_strdup (parts[n - 1]);
}

/* ------------------------------------------------------------ toolbar -- */

/* The menu's tolerance: 0 (shown "auto", the default) leaves each curve its
 * own precision, half the step its values are stored in. */
static void
on_tolerance (GtkSpinButton *spin, TressCurveEditor *self)
{
  double t = gtk_spin_button_get_value (spin);

  g_object_set (self->view, "tolerance", t > 0 ? t : -1.0, NULL);
}

/* The status line says what Up moves a key by, in the unit the first shown
 * curve is shown in. */
static void
update_nudge_label (TressCurveEditor *self)
{
  double step = tress_curve_view_get_nudge_step (self->view), scale = 1;
  gboolean normalized = FALSE;

  g_object_get (self->view, "normalized", &normalized, NULL);
  if (!normalized && tress_curve_view_get_n_curves (self->view) > 0)
    scale = tress_curve_view_get_display_scale (self->view,
                                                tress_curve_view_get_curve_index (self->view, 0));
  g_free (self->nudge_text);
  /* TRANSLATORS: in the status line: what Up and Down move keys by, e.g. "nudge 0.5°" */
  self->nudge_text = g_strdup_printf (_ ("nudge %.3g%s"), step, unit_sign (scale));
  update_summary (self);
}

static void
on_nudge_spin (GtkSpinButton *spin, TressCurveEditor *self)
{
  tress_curve_view_set_nudge_step (self->view, gtk_spin_button_get_value (spin));
}

static gboolean
on_tolerance_output (GtkSpinButton *spin, TressCurveEditor *self)
{
  if (gtk_spin_button_get_value (spin) > 0)
    return FALSE;
  /* TRANSLATORS: the tolerance of the quantization warning when it is each curve's own step */
  gtk_editable_set_text (GTK_EDITABLE (spin), _ ("auto"));
  return TRUE;
}

static int
on_tolerance_input (GtkSpinButton *spin, double *value, TressCurveEditor *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (spin));

  if (g_strcmp0 (text, _ ("auto")) != 0 && g_ascii_strcasecmp (text, "auto") != 0)
    return FALSE;
  *value = 0;
  return TRUE;
}

/* --------------------------------------------------------- view events -- */

/* The status line's permanent part: how many curves are shown, keys selected. */
void
update_summary (TressCurveEditor *self)
{
  guint n = tress_curve_view_get_n_curves (self->view);
  guint k = tress_curve_view_get_n_selected_keys (self->view);
  g_autofree char *curves = g_strdup_printf (ngettext ("%u curve", "%u curves", n), n);
  g_autofree char *keys
      = k == 0 ? g_strdup (_ ("no key selected"))
               : g_strdup_printf (ngettext ("%u key selected", "%u keys selected", k), k);
  /* TRANSLATORS: "4464 curves · 12 keys selected" */
  g_autofree char *text = g_strdup_printf (_ ("%s · %s"), curves, keys);

  /* The active key's stored value while no message or warning needs the room. */
  if (self->stored_text != NULL && !gtk_widget_get_visible (self->message_box)
      && !gtk_widget_get_visible (self->warning_box))
    {
      /* TRANSLATORS: "6 curves · 1 key selected" and the active key's stored value */
      char *t = g_strdup_printf (_ ("%s · %s"), text, self->stored_text);

      g_free (text);
      text = t;
    }
  if (self->nudge_text != NULL)
    {
      /* TRANSLATORS: "6 curves · 1 key selected" and "nudge 0.5°" */
      char *t = g_strdup_printf (_ ("%s · %s"), text, self->nudge_text);

      g_free (text);
      text = t;
    }

  gtk_label_set_text (self->summary_label, text);
}

/* The key table lists the curve it should and selects the active key's row. */
static void
sync_key_table (TressCurveEditor *self)
{
  guint curve = 0, key = 0;
  gboolean active = tress_curve_view_get_active_key (self->view, &curve, &key);

  /* A key clicked (or stepped to) takes the table to its curve. */
  if (active
      && (!self->had_active || curve != self->last_active_curve || key != self->last_active_key))
    self->table_follows_channels = FALSE;
  self->had_active = active;
  self->last_active_curve = curve;
  self->last_active_key = key;
  if (wanted_table_curve (self) != self->table_curve)
    rebuild_key_rows (self);
  else
    {
      self->syncing = TRUE;
      if (active && (int)curve == self->table_curve)
        {
          gtk_single_selection_set_selected (self->key_selection, key);
          scroll_table_to (self, key);
        }
      else
        gtk_single_selection_set_selected (self->key_selection, GTK_INVALID_LIST_POSITION);
      self->syncing = FALSE;
    }
}

static void
refresh_selection (TressCurveEditor *self)
{
  sync_key_table (self);
  update_key_panel (self);
  update_summary (self);
}

/* Whether the key table lists what it would list if made again: the same
 * version of the same curve, in the same units. A new set of curves shown
 * that keeps the table's curve keeps its rows (and their widgets). */
static gboolean
key_rows_current (TressCurveEditor *self)
{
  int want = wanted_table_curve (self);
  const TressCurve *c
      = want >= 0 ? tress_curve_view_get_shown_curve (self->view, (guint)want) : NULL;

  return want == self->table_curve && c == self->table_source
         && (want < 0
             || tress_curve_view_get_display_scale (self->view, (guint)want) == self->table_scale);
}

static void
refresh_curves (TressCurveEditor *self)
{
  if (key_rows_current (self))
    sync_key_table (self);
  else
    rebuild_key_rows (self);
  update_key_panel (self);
  update_summary (self);
  update_timeline (self);
  update_fps (self);
  update_warning (self);
  tress_curve_channel_list_update (self->channel_list);
}

/* Brings the panels up to date with the graph now. */
static void
flush_refresh (TressCurveEditor *self)
{
  guint dirty = self->dirty;

  g_clear_handle_id (&self->refresh_id, g_source_remove);
  if (self->refresh_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->refresh_tick);
  self->refresh_tick = 0;
  self->dirty = 0;
  if (dirty & DIRTY_CURVES)
    refresh_curves (self);
}

static gboolean
refresh_idle (gpointer data)
{
  TressCurveEditor *self = data;

  self->refresh_id = 0;
  flush_refresh (self);
  return G_SOURCE_REMOVE;
}

static gboolean
refresh_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  TressCurveEditor *self = TRESS_CURVE_EDITOR (widget);

  self->refresh_tick = 0;
  flush_refresh (self);
  return G_SOURCE_REMOVE;
}

/* Once, before the next frame is laid out and drawn: at the frame clock's
 * update phase when the editor is on screen (an idle could wait behind a
 * stream of events), else when the main loop is idle. */
static void
queue_refresh (TressCurveEditor *self, Dirty what)
{
  self->dirty |= what;
  if (self->refresh_tick != 0 || self->refresh_id != 0)
    return;
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    self->refresh_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), refresh_tick, NULL, NULL);
  else
    self->refresh_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, refresh_idle, self, NULL);
}

static void
on_channels_selected (TressCurveChannelList *list, TressCurveEditor *self)
{
  self->table_follows_channels = TRUE;
  if (wanted_table_curve (self) != self->table_curve)
    rebuild_key_rows (self);
}

/* The key table and the key panel follow at once (they cost one curve's keys);
 * what covers every shown curve follows before the next frame. */
static void
on_view_selection (TressCurveView *view, TressCurveEditor *self)
{
  refresh_selection (self);
}

static void
on_curve_changed (TressCurveDocument *document, guint index, TressCurveEditor *self)
{
  if ((int)index == self->table_curve)
    {
      rebuild_key_rows (self);
      update_key_panel (self);
    }
}

static void
on_view_curves (TressCurveView *view, TressCurveEditor *self)
{
  queue_refresh (self, DIRTY_CURVES);
  tell_comparison (self);
}

/* -------------------------------------------------------------- layout -- */

#define CURVE_EDITOR_SCHEMA "io.github.tress.Tress.CurveEditor"

static GSettings *
settings_new_if_installed (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema
      = source != NULL ? g_settings_schema_source_lookup (source, CURVE_EDITOR_SCHEMA, TRUE) : NULL;

  return schema != NULL ? g_settings_new_full (schema, NULL, NULL) : NULL;
}

/* The keys pane's height is kept rather than the divider's position, so the
 * graph, not the table, gets what a taller window adds. */
static void
on_keys_paned_allocated (GtkPaned *paned, GParamSpec *pspec, TressCurveEditor *self)
{
  int max = 0;

  g_object_get (paned, "max-position", &max, NULL);
  if (self->keys_height_set || max <= 0)
    return;
  self->keys_height_set = TRUE;
  /* At most half of it: the graph keeps most of the editor. */
  gtk_paned_set_position (paned, max - MIN (self->keys_height, max / 2));
}

static void
on_keys_paned_moved (GtkPaned *paned, GParamSpec *pspec, TressCurveEditor *self)
{
  int max = 0, height;

  g_object_get (paned, "max-position", &max, NULL);
  if (!self->keys_height_set || max <= 0 || !gtk_widget_get_visible (self->key_pane))
    return;
  height = MAX (max - gtk_paned_get_position (paned), 0);
  if (height == self->keys_height)
    return;
  self->keys_height = height;
  if (self->settings != NULL)
    g_settings_set_int (self->settings, "keys-pane-height", height);
}

static void
on_keys_toggled (GtkToggleButton *button, TressCurveEditor *self)
{
  gboolean show = gtk_toggle_button_get_active (button);

  gtk_widget_set_visible (self->key_pane, show);
  if (self->settings != NULL)
    g_settings_set_boolean (self->settings, "keys-pane-visible", show);
}

/* The graph or the dope sheet: both show the same curves on the same time axis. */
static void
on_dope_toggled (GtkToggleButton *button, TressCurveEditor *self)
{
  gboolean dope = gtk_toggle_button_get_active (button);

  gtk_widget_set_visible (GTK_WIDGET (self->view), !dope);
  gtk_widget_set_visible (GTK_WIDGET (self->dope_sheet), dope);
  if (self->settings != NULL)
    g_settings_set_boolean (self->settings, "dope-sheet-visible", dope);
}

static void
restore_layout (TressCurveEditor *self)
{
  self->keys_height = 160;
  if (self->settings == NULL)
    return;
  self->keys_height = g_settings_get_int (self->settings, "keys-pane-height");
  g_object_set (self->view, "default-fps", g_settings_get_double (self->settings, "default-fps"),
                NULL);
  gtk_toggle_button_set_active (self->keys_toggle,
                                g_settings_get_boolean (self->settings, "keys-pane-visible"));
  gtk_widget_set_visible (self->key_pane, gtk_toggle_button_get_active (self->keys_toggle));
  gtk_toggle_button_set_active (self->dope_toggle,
                                g_settings_get_boolean (self->settings, "dope-sheet-visible"));
  gtk_paned_set_position (GTK_PANED (self->paned),
                          g_settings_get_int (self->settings, "sidebar-width"));
  g_settings_bind (self->settings, "sidebar-width", self->paned, "position", G_SETTINGS_BIND_SET);
}

void
tress_curve_editor_set_preview (TressCurveEditor *self, GtkWidget *preview)
{
  g_return_if_fail (TRESS_IS_CURVE_EDITOR (self));
  g_return_if_fail (preview == NULL || GTK_IS_WIDGET (preview));
  gtk_paned_set_end_child (self->preview_paned, preview);
  if (preview != NULL)
    {
      int width = gtk_widget_get_width (GTK_WIDGET (self->preview_paned));

      gtk_paned_set_shrink_end_child (self->preview_paned, FALSE);
      /* Side by side, the graph keeping the larger share. */
      if (width > 0)
        gtk_paned_set_position (self->preview_paned, width * 3 / 5);
    }
}

GtkWidget *
tress_curve_editor_get_preview (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), NULL);
  return gtk_paned_get_end_child (self->preview_paned);
}

/* ------------------------------------------------------------- public -- */

TressDopeSheet *
tress_curve_editor_get_dope_sheet (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), NULL);
  return self->dope_sheet;
}

gboolean
tress_curve_editor_get_dope_sheet_shown (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), FALSE);
  return gtk_toggle_button_get_active (self->dope_toggle);
}

void
tress_curve_editor_set_dope_sheet_shown (TressCurveEditor *self, gboolean shown)
{
  g_return_if_fail (TRESS_IS_CURVE_EDITOR (self));
  gtk_toggle_button_set_active (self->dope_toggle, shown);
}

TressCurveView *
tress_curve_editor_get_view (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), NULL);
  return self->view;
}

TressCurveDocument *
tress_curve_editor_get_document (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), NULL);
  return self->document;
}

TressCurveChannelList *
tress_curve_editor_get_channel_list (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), NULL);
  flush_refresh (self);
  return self->channel_list;
}

GtkSelectionModel *
tress_curve_editor_get_tree_selection (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), NULL);
  return GTK_SELECTION_MODEL (self->tree_selection);
}

void
tress_curve_editor_set_filter (TressCurveEditor *self, const char *text)
{
  g_return_if_fail (TRESS_IS_CURVE_EDITOR (self));
  g_free (self->filter_text);
  self->filter_text = text != NULL && text[0] != '\0' ? g_utf8_casefold (text, -1) : NULL;
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->filter_entry)), text ? text : "") != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), text ? text : "");
  update_filter_hits (self);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  /* The results start at the top (and are drawn: the list would otherwise keep
   * an offset past the end of a shorter list and show nothing). */
  if (g_list_model_get_n_items (G_LIST_MODEL (self->filtered)) > 0)
    for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self->tree_view)); c != NULL;
         c = gtk_widget_get_next_sibling (c))
      if (GTK_IS_LIST_VIEW (c))
        gtk_widget_activate_action (c, "list.scroll-to-item", "u", 0);
  /* The graph shows what the selected rows hold under the new filter (and
   * keeps what it shows when none of them is left). */
  {
    g_autoptr (GtkBitset) set
        = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->tree_selection));

    if (!gtk_bitset_is_empty (set))
      show_selected_curves (self);
  }
}

GListModel *
tress_curve_editor_get_key_rows (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), NULL);
  flush_refresh (self);
  return G_LIST_MODEL (self->key_rows);
}

int
tress_curve_editor_get_table_curve (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), -1);
  flush_refresh (self);
  return self->table_curve;
}

const char *
tress_curve_editor_get_timeline_text (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), NULL);
  flush_refresh (self);
  return self->timeline_text;
}

const char *
tress_curve_editor_get_key_panel_text (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), NULL);
  flush_refresh (self);
  return self->panel_text;
}

const char *
tress_curve_editor_get_message (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), NULL);
  return gtk_label_get_text (self->message_label);
}

const char *
tress_curve_editor_get_notes (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), NULL);
  flush_refresh (self);
  return self->notes;
}

const char *
tress_curve_editor_get_warning (TressCurveEditor *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_EDITOR (self), NULL);
  flush_refresh (self);
  return self->warning;
}

static void
tress_curve_editor_dispose (GObject *object)
{
  TressCurveEditor *self = TRESS_CURVE_EDITOR (object);

  g_clear_handle_id (&self->refresh_id, g_source_remove);
  if (self->compare_cancel != NULL)
    g_cancellable_cancel (self->compare_cancel);
  g_clear_object (&self->compare_cancel);
  if (self->refresh_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->refresh_tick);
  self->refresh_tick = 0;
  if (self->view != NULL)
    g_signal_handlers_disconnect_by_data (self->view, self);
  if (self->channel_list != NULL)
    g_signal_handlers_disconnect_by_data (self->channel_list, self);
  if (self->tree_selection != NULL)
    g_signal_handlers_disconnect_by_data (self->tree_selection, self);
  if (self->filtered != NULL)
    g_signal_handlers_disconnect_by_data (self->filtered, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), TRESS_TYPE_CURVE_EDITOR);
  g_clear_object (&self->tree_selection);
  g_clear_object (&self->filtered);
  g_clear_object (&self->filter);
  g_clear_object (&self->tree_model);
  g_clear_object (&self->key_selection);
  g_clear_object (&self->key_rows);
  g_clear_object (&self->warning_items);
  g_clear_object (&self->notes_items);
  g_clear_object (&self->settings);
  g_clear_object (&self->document);
  G_OBJECT_CLASS (tress_curve_editor_parent_class)->dispose (object);
}

static void
tress_curve_editor_finalize (GObject *object)
{
  TressCurveEditor *self = TRESS_CURVE_EDITOR (object);

  g_free (self->filter_text);
  g_free (self->compare_name);
  g_clear_pointer (&self->filter_hits, g_array_unref);
  g_free (self->warning);
  g_free (self->notes);
  g_free (self->timeline_text);
  g_free (self->panel_text);
  g_free (self->stored_text);
  g_free (self->nudge_text);
  g_clear_object (&self->view_ref);
  G_OBJECT_CLASS (tress_curve_editor_parent_class)->finalize (object);
}

static void
tress_curve_editor_class_init (TressCurveEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tress_curve_editor_dispose;
  object_class->finalize = tress_curve_editor_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_install_action (widget_class, "curves.widen-types", NULL, act_widen_types);
  gtk_widget_class_install_action (widget_class, "curves.lengthen-animation", NULL, act_lengthen);
  gtk_widget_class_install_action (widget_class, "curves.compare-with", NULL, act_compare_with);
  gtk_widget_class_install_action (widget_class, "curves.compare-with-file", "s",
                                   act_compare_with_file);
  gtk_widget_class_install_action (widget_class, "curves.compare-with-saved", NULL,
                                   act_compare_with_saved);
  gtk_widget_class_install_action (widget_class, "curves.stop-comparing", NULL, act_stop_comparing);
  gtk_widget_class_install_action (widget_class, "curves.widen-frames", NULL, act_widen_frames);
  gtk_widget_class_install_action (widget_class, "curves.widen-key-type", NULL, act_widen_active);
  gtk_widget_class_install_action (widget_class, "curves.unwrap-angles", NULL, act_unwrap);
  tress_curve_view_class_add_editor_bindings (widget_class);
  gtk_widget_class_set_css_name (widget_class, "curveeditor");

  g_type_ensure (TRESS_TYPE_CURVE_VIEW);
  g_type_ensure (TRESS_TYPE_DOPE_SHEET);
  g_type_ensure (TRESS_TYPE_CURVE_CHANNEL_LIST);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tress/Tress/tress-curve-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, paned);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, keys_paned);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, preview_paned);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, key_pane);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, keys_toggle);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, status);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, summary_label);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, filter_entry);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, tree_view);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, message_box);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, message_label);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, lengthen_button);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, widen_frames_button);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, notes_label);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, notes_box);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, notes_details);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, warning_details);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, warning_box);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, warning_label);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, widen_button);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, nudge_spin);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, channel_list);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, view);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, dope_sheet);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, dope_toggle);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, timeline_scale);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, play_button);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, frame_spin);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, fps_spin);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, table_title);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, curve_interp_box);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, curve_interp);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, timeline_adj);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, timeline_label);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, key_view);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, panel_title);
  gtk_widget_class_bind_template_child_full (widget_class, "panel_frame", FALSE,
                                             G_STRUCT_OFFSET (TressCurveEditor, panel_spin[0]));
  gtk_widget_class_bind_template_child_full (widget_class, "panel_value", FALSE,
                                             G_STRUCT_OFFSET (TressCurveEditor, panel_spin[1]));
  gtk_widget_class_bind_template_child_full (widget_class, "panel_in", FALSE,
                                             G_STRUCT_OFFSET (TressCurveEditor, panel_spin[2]));
  gtk_widget_class_bind_template_child_full (widget_class, "panel_out", FALSE,
                                             G_STRUCT_OFFSET (TressCurveEditor, panel_spin[3]));
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, panel_interp);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, panel_stored);
  gtk_widget_class_bind_template_child (widget_class, TressCurveEditor, panel_widen);
  gtk_widget_class_bind_template_callback (widget_class, on_filter_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_tolerance);
  gtk_widget_class_bind_template_callback (widget_class, on_nudge_spin);
  gtk_widget_class_bind_template_callback (widget_class, on_tolerance_output);
  gtk_widget_class_bind_template_callback (widget_class, on_tolerance_input);
  gtk_widget_class_bind_template_callback (widget_class, on_timeline_value);
  gtk_widget_class_bind_template_callback (widget_class, on_panel_spin);
  gtk_widget_class_bind_template_callback (widget_class, on_panel_interp);
  gtk_widget_class_bind_template_callback (widget_class, on_warning_details_show);
  gtk_widget_class_bind_template_callback (widget_class, on_keys_paned_allocated);
  gtk_widget_class_bind_template_callback (widget_class, on_keys_paned_moved);
  gtk_widget_class_bind_template_callback (widget_class, on_keys_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_dope_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_frame_spin);
  gtk_widget_class_bind_template_callback (widget_class, on_fps_spin);
  gtk_widget_class_bind_template_callback (widget_class, on_curve_interp);
}

static void
tress_curve_editor_init (TressCurveEditor *self)
{
  self->table_curve = -1;
  self->tree_anchor = -1;
  gtk_widget_init_template (GTK_WIDGET (self));
  self->warning_items = gtk_string_list_new (NULL);
  self->notes_items = gtk_string_list_new (NULL);
  /* The children that keep a pointer to the graph (the dope sheet, the
   * panels) are disposed after it: it lives as long as the editor. */
  self->view_ref = g_object_ref (self->view);
  /* The graph's actions, for the toolbar, the menus and the editor's keys. */
  gtk_widget_insert_action_group (GTK_WIDGET (self), "curve",
                                  tress_curve_view_get_actions (self->view));
  setup_key_table (self);
  /* The wheel over the key panel's and the key table's fields scrolls them,
   * as a user scrolling down the panel expects, and edits nothing. */
  tress_scroll_guard_install (self->key_pane);
  self->settings = settings_new_if_installed ();
  restore_layout (self);
}

/* Shows @items (strings) in the list of the popover of @button (a "Details" button). */
static void
set_details_model (GtkWidget *button, GtkStringList *items)
{
  GtkPopover *popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (button));
  GtkWidget *scrolled = gtk_popover_get_child (popover);
  GtkWidget *list = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scrolled));

  if (GTK_IS_VIEWPORT (list))
    list = gtk_viewport_get_child (GTK_VIEWPORT (list));
  gtk_list_view_set_model (GTK_LIST_VIEW (list), GTK_SELECTION_MODEL (gtk_no_selection_new (
                                                     g_object_ref (G_LIST_MODEL (items)))));
}

GtkWidget *
tress_curve_editor_new (TressDocument *document)
{
  TressCurveEditor *self;
  GtkWidget *pane = NULL;

  if (!TRESS_IS_CURVE_DOCUMENT (document))
    return NULL;
  self = g_object_new (TRESS_TYPE_CURVE_EDITOR, NULL);
  self->document = g_object_ref (TRESS_CURVE_DOCUMENT (document));
  tress_curve_view_set_document (self->view, self->document);
  tress_dope_sheet_set_view (self->dope_sheet, self->view);
  /* The animation on its model, for formats with scenes: loaded before the
   * curves tree is built, so that the skeleton nests the tree the first
   * time (building it flat and again nested cost twice the time). */
  if (tress_scene_pane_supports (document))
    {
      pane = tress_scene_pane_new (self->document, self->view, NULL);
      tress_scene_pane_load_first (TRESS_SCENE_PANE (pane));
    }
  setup_tree (self);
  setup_tree_columns (self);
  tress_curve_anim_actions_install (self, GTK_WIDGET (self->tree_view));

  g_signal_connect (self->view, "selection-changed", G_CALLBACK (on_view_selection), self);
  tress_curve_channel_list_set_view (self->channel_list, self->view);
  g_signal_connect (self->channel_list, "selection-changed", G_CALLBACK (on_channels_selected),
                    self);
  g_signal_connect_object (self->document, "curve-changed", G_CALLBACK (on_curve_changed), self,
                           G_CONNECT_AFTER);
  g_signal_connect (self->view, "curves-changed", G_CALLBACK (on_view_curves), self);
  g_signal_connect (self->view, "notify::playhead", G_CALLBACK (on_playhead), self);
  /* The values at the playhead follow a drag while it goes on. */
  g_signal_connect_swapped (self->view, "drag-update", G_CALLBACK (update_timeline), self);
  g_signal_connect (self->view, "notify::playing", G_CALLBACK (on_playing), self);
  g_signal_connect (self->view, "notify::message", G_CALLBACK (on_message), self);
  g_signal_connect (self->view, "notify::drag-error", G_CALLBACK (on_drag_error), self);
  g_signal_connect_swapped (self->view, "notify::tolerance", G_CALLBACK (update_warning), self);
  g_signal_connect_swapped (self->view, "notify::nudge-step", G_CALLBACK (update_nudge_label),
                            self);
  g_signal_connect_swapped (self->view, "notify::degrees", G_CALLBACK (update_nudge_label), self);
  g_signal_connect_swapped (self->view, "notify::normalized", G_CALLBACK (update_nudge_label),
                            self);
  g_signal_connect_swapped (self->view, "curves-changed", G_CALLBACK (update_nudge_label), self);
  update_nudge_label (self);

  set_details_model (self->warning_details, self->warning_items);
  set_details_model (self->notes_details, self->notes_items);
  if (pane != NULL)
    {
      tress_scene_pane_set_tree_selection (TRESS_SCENE_PANE (pane),
                                           GTK_SELECTION_MODEL (self->tree_selection));
      tress_scene_pane_set_tree_view (TRESS_SCENE_PANE (pane), GTK_WIDGET (self->tree_view));
      tress_curve_editor_set_preview (self, pane);
    }
  select_first_group (self);
  queue_refresh (self, DIRTY_CURVES);
  flush_refresh (self);
  return GTK_WIDGET (self);
}

void
tress_curve_editor_register (void)
{
  tress_curve_document_register_types ();
  tress_editor_register ("bfres", tress_curve_editor_new);
  tress_editor_register ("niff", tress_curve_editor_new);
}
