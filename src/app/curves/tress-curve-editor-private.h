/* tress-curve-editor-private.h: what the files of the curve editor share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-curve-editor.h"
#include "tress-dope-sheet.h"

G_BEGIN_DECLS

/* A row of the key table: one key of the table's curve. */
struct _TressCurveKeyRow
{
  GObject parent_instance;
  TressCurveView *view; /* weak: the editor owns both the rows and the view */
  guint curve;
  guint key;
};

struct _TressCurveEditor
{
  GtkWidget parent_instance;

  TressCurveDocument *document;
  TressCurveView *view;
  TressCurveView *view_ref;   /* a reference, dropped in finalize */
  TressDopeSheet *dope_sheet; /* shown instead of the view while dope_toggle is on */
  GtkToggleButton *dope_toggle;

  /* "Compare with…": the other file's name while its curves are ghosts. */
  char *compare_name;
  GCancellable *compare_cancel;

  GtkWidget *paned;
  GtkPaned *keys_paned;
  GtkPaned *preview_paned;
  GtkWidget *key_pane;
  GtkToggleButton *keys_toggle;
  GtkWidget *status;
  GtkLabel *summary_label;
  GSettings *settings;                  /* NULL when the schema is not installed */
  GtkColumnViewColumn *tree_columns[5]; /* after the names: see tree_columns[] */
  gboolean keys_height_set;             /* the kept height applied once the pane is allocated */
  int keys_height;                      /* the keys pane's height, as kept */
  GtkSearchEntry *filter_entry;
  GtkColumnView *tree_view;
  GtkTreeListModel *tree_model;
  GtkCustomFilter *filter;
  GtkFilterListModel *filtered;
  GtkMultiSelection *tree_selection;
  int tree_anchor; /* the row Shift+click extends from, or -1 */
  char *filter_text;
  GArray *filter_hits; /* gboolean per curve: matches filter_text (NULL: no filter) */

  GtkLabel *message_label;
  GtkWidget *message_box;
  GtkWidget *lengthen_button;
  GtkWidget *widen_frames_button;
  GtkLabel *warning_label;
  GtkLabel *notes_label; /* the formats' remarks on the shown curves */
  GtkWidget *notes_box;
  GtkWidget *notes_details;
  GtkStringList *notes_items;
  GtkWidget *warning_box;
  GtkWidget *warning_details;
  GtkStringList *warning_items; /* filled when its popover opens */
  gboolean warning_items_valid;
  GtkWidget *widen_button;
  GtkWidget *nudge_spin; /* sets the nudge step; the status line shows it */
  char *nudge_text;
  char *warning;
  char *notes;
  TressCurveChannelList *channel_list;
  gboolean table_follows_channels; /* the key table shows the selected channel */
  gboolean had_active;             /* the view's active key, when last seen */
  guint last_active_curve, last_active_key;

  /* Updates of the panels, coalesced: an edit of thousands of curves emits a
   * change per curve, the panels follow once. */
  guint refresh_id;
  guint refresh_tick;
  guint dirty; /* Dirty flags */

  GtkToggleButton *play_button;
  GtkSpinButton *frame_spin;
  GtkSpinButton *fps_spin;
  GtkLabel *table_title;
  GtkWidget *curve_interp_box;
  GtkDropDown *curve_interp;
  GtkColumnViewColumn *interp_column;
  GtkScale *timeline_scale;
  GtkAdjustment *timeline_adj;
  GtkLabel *timeline_label;
  char *timeline_text;

  GtkColumnView *key_view;
  GListStore *key_rows;
  GtkSingleSelection *key_selection;
  int table_curve;
  const TressCurve *table_source; /* the version of its curve the rows were made for */
  double table_scale;             /* and the scale its values were shown in */

  GtkLabel *panel_title;
  GtkSpinButton *panel_spin[4]; /* frame, value, in, out */
  GtkDropDown *panel_interp;
  GtkLabel *panel_stored; /* the value the file stores for the key, and its step */
  GtkButton *panel_widen; /* finer steps for the key's curve, with their cost */
  char *panel_text;
  char *stored_text; /* the active key's stored value and step, also in the status line */

  gboolean syncing;
};

typedef enum
{
  DIRTY_CURVES = 1 << 0, /* the shown curves or their keys */
} Dirty;

/* The most curves the timeline names with their values at the playhead. */
#define TIMELINE_MAX_CURVES 8

/* tress-curve-editor-compare.c */
void tell_comparison (TressCurveEditor *self);
void act_compare_with (GtkWidget *widget, const char *name, GVariant *param);
void act_compare_with_file (GtkWidget *widget, const char *name, GVariant *param);
void act_compare_with_saved (GtkWidget *widget, const char *name, GVariant *param);
void act_stop_comparing (GtkWidget *widget, const char *name, GVariant *param);

/* tress-curve-editor-key-panel.c */
void update_key_panel (TressCurveEditor *self);
void on_panel_spin (GtkSpinButton *spin, TressCurveEditor *self);
void on_panel_interp (GtkDropDown *dd, GParamSpec *pspec, TressCurveEditor *self);

/* tress-curve-editor-key-table.c */
int wanted_table_curve (TressCurveEditor *self);
void on_curve_interp (GtkDropDown *dd, GParamSpec *pspec, TressCurveEditor *self);
void scroll_table_to (TressCurveEditor *self, guint row);
void rebuild_key_rows (TressCurveEditor *self);
void setup_key_table (TressCurveEditor *self);

/* tress-curve-editor-messages.c */
const TressCurveOps *curve_ops (TressCurveEditor *self);
const char *unit_sign (double scale);
void update_warning (TressCurveEditor *self);
void on_warning_details_show (GtkPopover *popover, TressCurveEditor *self);
void on_drag_error (TressCurveView *view, GParamSpec *pspec, TressCurveEditor *self);
void show_message (TressCurveEditor *self, const char *text);
void act_widen_types (GtkWidget *widget, const char *name, GVariant *param);
void act_widen_active (GtkWidget *widget, const char *name, GVariant *param);
void on_message (TressCurveView *view, GParamSpec *pspec, TressCurveEditor *self);
void act_widen_frames (GtkWidget *widget, const char *name, GVariant *param);
void act_unwrap (GtkWidget *widget, const char *name, GVariant *param);
void act_lengthen (GtkWidget *widget, const char *name, GVariant *param);

/* tress-curve-editor-transport.c */
void update_timeline (TressCurveEditor *self);
void on_timeline_value (GtkAdjustment *adj, TressCurveEditor *self);
void on_playhead (TressCurveView *view, GParamSpec *pspec, TressCurveEditor *self);
void on_frame_spin (GtkAdjustment *adj, TressCurveEditor *self);
void on_playing (TressCurveView *view, GParamSpec *pspec, TressCurveEditor *self);
void update_fps (TressCurveEditor *self);
void on_fps_spin (GtkAdjustment *adj, TressCurveEditor *self);

/* tress-curve-editor-tree.c */
void update_filter_hits (TressCurveEditor *self);
void show_selected_curves (TressCurveEditor *self);
void on_filter_changed (GtkSearchEntry *entry, TressCurveEditor *self);
void setup_tree_columns (TressCurveEditor *self);
void setup_tree (TressCurveEditor *self);
void select_first_group (TressCurveEditor *self);

/* tress-curve-editor.c */
extern const char *const interp_names[5];
GtkWidget *interp_drop_down_new (void);
char *short_name (const TressCurve *c);
void update_summary (TressCurveEditor *self);

/* tress-curve-key-row.c */
const TressKey *row_key (TressCurveKeyRow *self);

G_END_DECLS
