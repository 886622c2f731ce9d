/* tress-curve-anim-actions.c: whole-animation operations in the curve editor
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-anim-actions.h"

#include <glib/gi18n.h>
#include <math.h>

#include "document/tress-anim-edit.h"
#include "tress-curve-anim-dialog.h"

/* The largest time scale and frame count the dialogs offer. */
#define MAX_SCALE 1000.0
#define MAX_FRAMES 65535.0

typedef struct
{
  TressCurveEditor *editor; /* owns this */
  GtkWidget *tree;
  GSimpleActionGroup *group;
  GtkWidget *menu; /* the context menu, parented to the editor */
  int target;
  guint scroll_tick; /* a tick callback bringing scroll_row into view, or 0 */
  guint scroll_row;
  guint scroll_frames; /* frames seen since the tree changed */
} AnimActions;

static AnimActions *
get_actions (TressCurveEditor *editor)
{
  return g_object_get_data (G_OBJECT (editor), "tress-anim-actions");
}

static TressCurveDocument *
document_of (AnimActions *a)
{
  return tress_curve_editor_get_document (a->editor);
}

/* ---- the target: the animation of the selected rows ---------------------------------- */

/* Adds the animations of @node's curves to *@found (-1: none yet, -2:
 * several); stops at the second. */
static void
node_anims (TressCurveDocument *doc, TressCurveNode *node, int *found)
{
  int index = tress_curve_node_get_curve_index (node);
  GListModel *children;

  if (*found == -2)
    return;
  if (index >= 0)
    {
      int anim = tress_anim_edit_anim_of_curve (doc, (guint)index);

      if (anim < 0 || (*found >= 0 && *found != anim))
        *found = -2;
      else
        *found = anim;
      return;
    }
  children = tress_curve_node_get_children (node);
  for (guint i = 0; children != NULL && i < g_list_model_get_n_items (children) && *found != -2;
       i++)
    {
      g_autoptr (TressCurveNode) child = g_list_model_get_item (children, i);

      node_anims (doc, child, found);
    }
}

static int
selected_anim (AnimActions *a)
{
  TressCurveDocument *doc = document_of (a);
  GtkSelectionModel *sel = tress_curve_editor_get_tree_selection (a->editor);
  g_autoptr (GtkBitset) set = NULL;
  GtkBitsetIter iter;
  guint pos;
  int found = -1;

  if (doc == NULL || sel == NULL || !tress_anim_edit_supported (doc))
    return -1;
  set = gtk_selection_model_get_selection (sel);
  for (gboolean ok = gtk_bitset_iter_init_first (&iter, set, &pos); ok && found != -2;
       ok = gtk_bitset_iter_next (&iter, &pos))
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (sel), pos);
      g_autoptr (TressCurveNode) node = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;

      if (node != NULL)
        node_anims (doc, node, &found);
    }
  return found >= 0 ? found : -1;
}

static const char *const action_names[]
    = { "retime", "frame-count", "loop", "rename", "duplicate", "delete" };

static void
update_actions (AnimActions *a)
{
  g_auto (TressAnimInfo) info = { 0 };
  gboolean have;
  GAction *loop;

  a->target = selected_anim (a);
  have = a->target >= 0 && tress_anim_edit_get_info (document_of (a), (guint)a->target, &info);
  for (guint i = 0; i < G_N_ELEMENTS (action_names); i++)
    g_simple_action_set_enabled (
        G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (a->group), action_names[i])),
        have);
  loop = g_action_map_lookup_action (G_ACTION_MAP (a->group), "loop");
  g_simple_action_set_state (G_SIMPLE_ACTION (loop), g_variant_new_boolean (have && info.loops));
}

static void
on_selection_changed (GtkSelectionModel *model, guint position, guint n_items,
                      TressCurveEditor *editor)
{
  update_actions (get_actions (editor));
}

static void
on_curves_reset (TressCurveDocument *doc, TressCurveEditor *editor)
{
  update_actions (get_actions (editor));
}

/* ---- running an operation ------------------------------------------------------------ */

/* The format's message as the dialogs show it: the CLI's options named as the
 * dialog's buttons say them. */
static char *
shown_message (const char *message)
{
  g_autoptr (GString) s = g_string_new (message);

  g_string_replace (s, "--widen stores", _ ("Widening stores"), 0);
  g_string_replace (s, "--trim cuts", _ ("Trimming cuts"), 0);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* The height of a row of the tree (a laid out cell's), or 0. */
static int
row_height (GtkWidget *root)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      int h;

      if (g_object_get_data (G_OBJECT (c), "tress-item") != NULL && gtk_widget_get_mapped (c))
        {
          GtkWidget *row = gtk_widget_get_parent (gtk_widget_get_parent (c));

          return row != NULL ? gtk_widget_get_height (row) : gtk_widget_get_height (c);
        }
      if ((h = row_height (c)) > 0)
        return h;
    }
  return 0;
}

static gboolean
scroll_tick (GtkWidget *tree, GdkFrameClock *clock, gpointer data)
{
  AnimActions *a = data;
  GtkAdjustment *adj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (tree));
  int h;

  /* A frame after the rows were built again: laid out. */
  if (a->scroll_frames++ < 1)
    return G_SOURCE_CONTINUE;
  a->scroll_tick = 0;
  h = row_height (tree);
  /* The rows are one line each: the row a third down the view. (The list's
   * own scroll-to-item warns of rows it has not laid out yet.) */
  if (adj != NULL && h > 0)
    {
      double top = (double)a->scroll_row * h, page = gtk_adjustment_get_page_size (adj);

      if (top < gtk_adjustment_get_value (adj) || top + h > gtk_adjustment_get_value (adj) + page)
        gtk_adjustment_set_value (adj, top - page / 3);
    }
  return G_SOURCE_REMOVE;
}

/* Brings tree row @pos into view once the tree is laid out (it was built
 * again, scrolled to its top). */
static void
scroll_to_row (AnimActions *a, guint pos)
{
  if (a == NULL || a->tree == NULL)
    return;
  a->scroll_row = pos;
  a->scroll_frames = 0;
  if (a->scroll_tick == 0)
    a->scroll_tick = gtk_widget_add_tick_callback (a->tree, scroll_tick, a, NULL);
}

/* TRUE when @node has curves and every one is in animation @anim. */
static gboolean
all_in_anim (TressCurveDocument *doc, TressCurveNode *node, int anim)
{
  g_autoptr (GArray) idx = g_array_new (FALSE, FALSE, sizeof (guint));

  tress_curve_node_collect_curves (node, idx);
  for (guint i = 0; i < idx->len; i++)
    if (tress_anim_edit_anim_of_curve (doc, g_array_index (idx, guint, i)) != anim)
      return FALSE;
  return idx->len > 0;
}

/* Selects the tree row of the animation of @kind named @name (the tree is
 * built again after an operation), if there is one. */
static void
select_anim (TressCurveEditor *editor, const char *kind, const char *name)
{
  TressCurveDocument *doc = tress_curve_editor_get_document (editor);
  GtkSelectionModel *sel = tress_curve_editor_get_tree_selection (editor);
  guint n_anims = tress_anim_edit_get_n_anims (doc);
  guint n_rows = g_list_model_get_n_items (G_LIST_MODEL (sel));
  int anim = -1;

  for (guint i = 0; i < n_anims && anim < 0; i++)
    {
      g_auto (TressAnimInfo) info = { 0 };

      if (tress_anim_edit_get_info (doc, i, &info) && g_strcmp0 (info.kind, kind) == 0
          && g_strcmp0 (info.name, name) == 0)
        anim = (int)i;
    }
  /* The animation's row is the first group whose curves are all its own (a
   * kind's row, or the scene object above NIFF animations, holds others'). */
  for (guint pos = 0; anim >= 0 && pos < n_rows; pos++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (sel), pos);
      g_autoptr (TressCurveNode) node = gtk_tree_list_row_get_item (row);

      if (tress_curve_node_get_curve_index (node) < 0 && all_in_anim (doc, node, anim))
        {
          tress_curve_editor_click_row (editor, pos, FALSE, FALSE);
          scroll_to_row (get_actions (editor), pos);
          return;
        }
    }
}

/* Runs @edit; TRUE when done (the message line says what, with the notes,
 * and the animation's row is selected again), else FALSE with @error set. */
static gboolean
run_edit (TressCurveEditor *editor, const TressAnimEdit *edit, GError **error)
{
  TressCurveDocument *doc = tress_curve_editor_get_document (editor);
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *label = tress_anim_edit_label (doc, edit);
  g_auto (TressAnimInfo) info = { 0 };
  g_autoptr (GString) text = NULL;
  g_autofree char *name = NULL;

  if (tress_anim_edit_get_info (doc, edit->anim, &info))
    name = g_strdup (edit->op == TRESS_ANIM_EDIT_RENAME || edit->op == TRESS_ANIM_EDIT_DUPLICATE
                         ? edit->name
                         : info.name);
  if (!tress_anim_edit_apply (doc, edit, notes, error))
    return FALSE;
  text = g_string_new (label);
  for (guint i = 0; i < notes->len; i++)
    g_string_append_printf (text, "%s%s", i == 0 ? ": " : "; ",
                            (const char *)g_ptr_array_index (notes, i));
  if (edit->op != TRESS_ANIM_EDIT_DELETE && name != NULL)
    select_anim (editor, info.kind, name);
  tress_curve_editor_show_message (editor, text->str, FALSE);
  return TRUE;
}

/* What every dialog keeps: the editor (weakly: the window may go first) and the animation. */
typedef struct
{
  GWeakRef editor;
  guint anim;
  gboolean can_widen;
  double length;
  GtkCheckButton *by_scale;
  GtkSpinButton *scale;
  GtkSpinButton *frames;
  GtkEntry *name;
} Ask;

static void
ask_free (gpointer p)
{
  Ask *ask = p;

  g_weak_ref_clear (&ask->editor);
  g_free (ask);
}

static Ask *
ask_new (AnimActions *a, const TressAnimInfo *info)
{
  Ask *ask = g_new0 (Ask, 1);

  g_weak_ref_init (&ask->editor, a->editor);
  ask->anim = (guint)a->target;
  ask->can_widen = info->can_widen;
  ask->length = info->length;
  return ask;
}

/* Runs @edit for a dialog: TRUE (close it) when done or when the editor has
 * gone; else the refusal is shown, with @alternative offered when given. */
static gboolean
ask_run (GtkWindow *dialog, Ask *ask, const TressAnimEdit *edit, const char *alternative)
{
  g_autoptr (TressCurveEditor) editor = g_weak_ref_get (&ask->editor);
  g_autoptr (GError) error = NULL;
  g_autofree char *message = NULL;

  if (editor == NULL)
    return TRUE;
  if (run_edit (editor, edit, &error))
    return TRUE;
  message = shown_message (error->message);
  tress_curve_anim_dialog_refuse (
      dialog, message,
      g_error_matches (error, TRESS_ERROR, TRESS_ERROR_REFUSED) ? alternative : NULL);
  return FALSE;
}

/* A row of the dialog: @start (expanding) and @field. */
static GtkWidget *
row_new_widget (GtkWidget *start, GtkWidget *field)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);

  gtk_widget_set_hexpand (start, TRUE);
  gtk_box_append (GTK_BOX (row), start);
  gtk_box_append (GTK_BOX (row), field);
  return row;
}

/* A row of the dialog: a label with a mnemonic for @field, and @field. */
static GtkWidget *
row_new (const char *label, GtkWidget *field)
{
  GtkWidget *l = gtk_label_new_with_mnemonic (label);

  gtk_label_set_mnemonic_widget (GTK_LABEL (l), field);
  gtk_label_set_xalign (GTK_LABEL (l), 0);
  return row_new_widget (l, field);
}

static GtkSpinButton *
spin_new (const char *name, double min, double max, double step, guint digits, double value)
{
  GtkWidget *spin = gtk_spin_button_new_with_range (min, max, step);

  gtk_widget_set_name (spin, name);
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), digits);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), value);
  /* Enter in the field runs the operation (its text is the spin button's delegate). */
  if (GTK_IS_TEXT (gtk_editable_get_delegate (GTK_EDITABLE (spin))))
    gtk_text_set_activates_default (GTK_TEXT (gtk_editable_get_delegate (GTK_EDITABLE (spin))),
                                    TRUE);
  gtk_editable_set_width_chars (GTK_EDITABLE (spin), 8);
  return GTK_SPIN_BUTTON (spin);
}

/* "“Jump” (Skeletal, 60 frames)" */
static char *
describe (const TressAnimInfo *info)
{
  g_autofree char *length = NULL;

  if (info->has_frame_count)
    length
        = g_strdup_printf (ngettext ("%g frame", "%g frames", (gulong)info->length), info->length);
  else
    /* Translators: a NIFF AnimGroup has no frame count: it ends at its last key */
    length = g_strdup_printf (_ ("last key at frame %g"), info->length);
  return g_strdup_printf (_ ("“%s” (%s, %s)"), info->name, info->kind, length);
}

/* ---- Retime… ------------------------------------------------------------------------- */

static gboolean
retime_accept (GtkWindow *dialog, gboolean alternative, gpointer data)
{
  Ask *ask = data;
  TressAnimEdit edit = { .op = TRESS_ANIM_EDIT_RETIME, .anim = ask->anim, .allow = alternative };

  gtk_spin_button_update (ask->scale);
  gtk_spin_button_update (ask->frames);
  if (gtk_check_button_get_active (ask->by_scale))
    edit.scale = gtk_spin_button_get_value (ask->scale);
  else
    edit.frames = gtk_spin_button_get_value_as_int (ask->frames);
  return ask_run (dialog, ask, &edit, ask->can_widen ? _ ("_Widen Frames and Retime") : NULL);
}

static void
on_retime_mode (GtkCheckButton *by_scale, GParamSpec *pspec, Ask *ask)
{
  gboolean scale = gtk_check_button_get_active (by_scale);

  gtk_widget_set_sensitive (GTK_WIDGET (ask->scale), scale);
  gtk_widget_set_sensitive (GTK_WIDGET (ask->frames), !scale);
}

static void
act_retime (GSimpleAction *action, GVariant *param, gpointer data)
{
  AnimActions *a = data;
  g_auto (TressAnimInfo) info = { 0 };
  g_autofree char *what = NULL, *text = NULL;
  GtkWidget *by_frames, *by_scale;
  GtkWindow *dialog;
  GtkBox *body;
  Ask *ask;

  if (a->target < 0 || !tress_anim_edit_get_info (document_of (a), (guint)a->target, &info))
    return;
  ask = ask_new (a, &info);
  what = describe (&info);
  text = g_strdup_printf (_ ("%s: every curve plays at frame F·f what it played at frame f. "
                             "Frames the file cannot store are refused, with what storing "
                             "them would cost."),
                          what);
  dialog = tress_curve_anim_dialog_new (GTK_WIDGET (a->editor), _ ("Retime Animation"), text,
                                        _ ("_Retime"), FALSE, retime_accept, ask, ask_free);
  body = tress_curve_anim_dialog_get_body (dialog);
  by_scale = gtk_check_button_new_with_mnemonic (_ ("Scale _time by (2: half as fast)"));
  gtk_widget_set_name (by_scale, "anim-by-scale");
  by_frames = gtk_check_button_new_with_mnemonic (_ ("Make it _this many frames long"));
  gtk_widget_set_name (by_frames, "anim-by-frames");
  gtk_check_button_set_group (GTK_CHECK_BUTTON (by_frames), GTK_CHECK_BUTTON (by_scale));
  ask->by_scale = GTK_CHECK_BUTTON (by_scale);
  ask->scale = spin_new ("anim-scale", 0.001, MAX_SCALE, 0.5, 3, 2);
  ask->frames = spin_new ("anim-frames", 1, MAX_FRAMES, 1, 0,
                          CLAMP (round (info.length * 2), 1, MAX_FRAMES));
  gtk_box_append (body, row_new_widget (by_scale, GTK_WIDGET (ask->scale)));
  gtk_box_append (body, row_new_widget (by_frames, GTK_WIDGET (ask->frames)));
  g_signal_connect (by_scale, "notify::active", G_CALLBACK (on_retime_mode), ask);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (by_scale), TRUE);
  on_retime_mode (GTK_CHECK_BUTTON (by_scale), NULL, ask);
  tress_curve_anim_dialog_present (dialog, GTK_WIDGET (ask->scale));
}

/* ---- Frame Count… -------------------------------------------------------------------- */

static gboolean
frame_count_accept (GtkWindow *dialog, gboolean alternative, gpointer data)
{
  Ask *ask = data;
  TressAnimEdit edit = { .op = TRESS_ANIM_EDIT_FRAME_COUNT, .anim = ask->anim };

  gtk_spin_button_update (ask->frames);
  edit.frames = gtk_spin_button_get_value_as_int (ask->frames);
  edit.allow = alternative;
  return ask_run (dialog, ask, &edit, edit.frames < ask->length ? _ ("_Trim Keys") : NULL);
}

static void
act_frame_count (GSimpleAction *action, GVariant *param, gpointer data)
{
  AnimActions *a = data;
  g_auto (TressAnimInfo) info = { 0 };
  g_autofree char *what = NULL, *text = NULL;
  GtkWindow *dialog;
  Ask *ask;

  if (a->target < 0 || !tress_anim_edit_get_info (document_of (a), (guint)a->target, &info))
    return;
  ask = ask_new (a, &info);
  what = describe (&info);
  if (info.has_frame_count)
    text = g_strdup_printf (_ ("%s. A higher count adds frames at the end; a lower one is "
                               "refused while keys lie past it, unless you choose to trim them."),
                            what);
  else
    text = g_strdup_printf (_ ("%s. A NIFF AnimGroup ends at its last key: it can end earlier, "
                               "trimming the keys past the new end, but not later."),
                            what);
  dialog = tress_curve_anim_dialog_new (GTK_WIDGET (a->editor),
                                        info.has_frame_count ? _ ("Frame Count") : _ ("End Frame"),
                                        text, _ ("_Set"), FALSE, frame_count_accept, ask, ask_free);
  ask->frames = spin_new ("anim-frames", 0, MAX_FRAMES, 1, 0, info.length);
  gtk_box_append (tress_curve_anim_dialog_get_body (dialog),
                  row_new (info.has_frame_count ? _ ("_Frame count") : _ ("_Last frame"),
                           GTK_WIDGET (ask->frames)));
  tress_curve_anim_dialog_present (dialog, GTK_WIDGET (ask->frames));
}

/* ---- Loop ---------------------------------------------------------------------------- */

static void
act_loop (GSimpleAction *action, GVariant *state, gpointer data)
{
  AnimActions *a = data;
  TressAnimEdit edit = { .op = TRESS_ANIM_EDIT_LOOP };
  g_autoptr (GError) error = NULL;

  if (a->target < 0)
    return;
  edit.anim = (guint)a->target;
  edit.loop = g_variant_get_boolean (state);
  if (!run_edit (a->editor, &edit, &error))
    tress_curve_editor_show_message (a->editor, error->message, TRUE);
  update_actions (a);
}

/* ---- Rename… and Duplicate… ---------------------------------------------------------- */

static gboolean
name_accept (GtkWindow *dialog, TressAnimEditOp op, Ask *ask)
{
  TressAnimEdit edit = { .op = op, .anim = ask->anim };

  edit.name = gtk_editable_get_text (GTK_EDITABLE (ask->name));
  return ask_run (dialog, ask, &edit, NULL);
}

static gboolean
rename_accept (GtkWindow *dialog, gboolean alternative, gpointer data)
{
  return name_accept (dialog, TRESS_ANIM_EDIT_RENAME, data);
}

static gboolean
duplicate_accept (GtkWindow *dialog, gboolean alternative, gpointer data)
{
  return name_accept (dialog, TRESS_ANIM_EDIT_DUPLICATE, data);
}

static void
ask_name (AnimActions *a, gboolean duplicate)
{
  g_auto (TressAnimInfo) info = { 0 };
  g_autofree char *what = NULL, *text = NULL, *name = NULL;
  GtkWidget *entry = gtk_entry_new ();
  GtkWindow *dialog;
  Ask *ask;

  if (a->target < 0 || !tress_anim_edit_get_info (document_of (a), (guint)a->target, &info))
    {
      g_object_ref_sink (entry);
      g_object_unref (entry);
      return;
    }
  ask = ask_new (a, &info);
  what = describe (&info);
  if (duplicate)
    {
      text = g_strdup_printf (_ ("A copy of %s is added under a new name."), what);
      name = tress_anim_edit_unique_name (document_of (a), (guint)a->target);
    }
  else
    {
      text = g_strdup_printf (_ ("The new name of %s:"), what);
      name = g_strdup (info.name);
    }
  dialog = tress_curve_anim_dialog_new (
      GTK_WIDGET (a->editor), duplicate ? _ ("Duplicate Animation") : _ ("Rename Animation"), text,
      duplicate ? _ ("_Duplicate") : _ ("_Rename"), FALSE,
      duplicate ? duplicate_accept : rename_accept, ask, ask_free);
  ask->name = GTK_ENTRY (entry);
  gtk_widget_set_name (entry, "anim-name");
  gtk_editable_set_text (GTK_EDITABLE (entry), name);
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_box_append (tress_curve_anim_dialog_get_body (dialog), row_new (_ ("_Name"), entry));
  gtk_widget_set_hexpand (entry, TRUE);
  tress_curve_anim_dialog_present (dialog, entry);
  gtk_editable_select_region (GTK_EDITABLE (entry), 0, -1);
}

static void
act_rename (GSimpleAction *action, GVariant *param, gpointer data)
{
  ask_name (data, FALSE);
}

static void
act_duplicate (GSimpleAction *action, GVariant *param, gpointer data)
{
  ask_name (data, TRUE);
}

/* ---- Delete… ------------------------------------------------------------------------- */

static gboolean
delete_accept (GtkWindow *dialog, gboolean alternative, gpointer data)
{
  Ask *ask = data;
  TressAnimEdit edit = { .op = TRESS_ANIM_EDIT_DELETE, .anim = ask->anim };

  return ask_run (dialog, ask, &edit, NULL);
}

static void
act_delete (GSimpleAction *action, GVariant *param, gpointer data)
{
  AnimActions *a = data;
  g_auto (TressAnimInfo) info = { 0 };
  g_autofree char *what = NULL, *text = NULL;
  GtkWindow *dialog;

  if (a->target < 0 || !tress_anim_edit_get_info (document_of (a), (guint)a->target, &info))
    return;
  what = describe (&info);
  text = g_strdup_printf (ngettext ("Delete %s and its %u curve from the file? Undo brings it "
                                    "back.",
                                    "Delete %s and its %u curves from the file? Undo brings it "
                                    "back.",
                                    info.n_curves),
                          what, info.n_curves);
  dialog = tress_curve_anim_dialog_new (GTK_WIDGET (a->editor), _ ("Delete Animation"), text,
                                        _ ("_Delete"), TRUE, delete_accept, ask_new (a, &info),
                                        ask_free);
  tress_curve_anim_dialog_present (dialog, NULL);
}

/* ---- the context menu ---------------------------------------------------------------- */

static GMenuModel *
menu_model (AnimActions *a)
{
  g_auto (TressAnimInfo) info = { 0 };
  GMenu *menu = g_menu_new ();
  g_autoptr (GMenu) ops = g_menu_new ();
  g_autoptr (GMenu) names = g_menu_new ();
  g_autoptr (GMenu) del = g_menu_new ();
  g_autofree char *title = NULL;
  gboolean have
      = a->target >= 0 && tress_anim_edit_get_info (document_of (a), (guint)a->target, &info);

  title = have ? describe (&info) : g_strdup (_ ("Select the rows of one animation"));
  g_menu_append (ops, _ ("Re_time…"), "anim.retime");
  g_menu_append (ops, have && !info.has_frame_count ? _ ("_End Frame…") : _ ("_Frame Count…"),
                 "anim.frame-count");
  g_menu_append (ops, _ ("_Loop"), "anim.loop");
  g_menu_append (names, _ ("_Rename…"), "anim.rename");
  g_menu_append (names, _ ("D_uplicate…"), "anim.duplicate");
  g_menu_append (del, _ ("_Delete…"), "anim.delete");
  g_menu_append_section (menu, title, G_MENU_MODEL (ops));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (names));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (del));
  return G_MENU_MODEL (menu);
}

/* Opens the menu below (@x, @y … @y + @height) of the tree: below the row,
 * never under the pointer that opened it. */
static void
popup_at (AnimActions *a, double x, double y, double height)
{
  g_autoptr (GMenuModel) model = NULL;
  graphene_point_t at = GRAPHENE_POINT_INIT ((float)x, (float)y), p;
  GdkRectangle rect;

  update_actions (a);
  model = menu_model (a);
  /* A new menu each time: its title names the animation, and a popover
   * menu given another model while it is shown may keep the old header. */
  if (a->menu != NULL)
    {
      gtk_popover_popdown (GTK_POPOVER (a->menu));
      g_clear_pointer (&a->menu, gtk_widget_unparent);
    }
  a->menu = gtk_popover_menu_new_from_model (model);
  gtk_widget_set_name (a->menu, "anim-menu");
  /* On the editor: a GtkColumnView draws a popover it holds as one of its
   * rows, clipped. */
  gtk_widget_set_parent (a->menu, GTK_WIDGET (a->editor));
  gtk_popover_set_has_arrow (GTK_POPOVER (a->menu), FALSE);
  gtk_popover_set_position (GTK_POPOVER (a->menu), GTK_POS_BOTTOM);
  gtk_widget_set_halign (a->menu, GTK_ALIGN_START);
  if (!gtk_widget_compute_point (a->tree, GTK_WIDGET (a->editor), &at, &p))
    p = at;
  rect = (GdkRectangle){ (int)p.x, (int)p.y, 1, MAX (1, (int)height) };
  gtk_popover_set_pointing_to (GTK_POPOVER (a->menu), &rect);
  gtk_popover_popup (GTK_POPOVER (a->menu));
}

/* The cell at (@x, @y) of the tree (the widget that carries its list item
 * as "tress-item"), or NULL. */
static GtkWidget *
cell_at (AnimActions *a, double x, double y)
{
  GtkWidget *w = gtk_widget_pick (a->tree, x, y, GTK_PICK_DEFAULT);

  for (GtkWidget *p = w; p != NULL && p != a->tree; p = gtk_widget_get_parent (p))
    if (g_object_get_data (G_OBJECT (p), "tress-item") != NULL)
      return p;
  /* Beside a cell's content: the cell (or the row) itself, its content below it. */
  for (GtkWidget *c = w; c != NULL && c != a->tree; c = gtk_widget_get_first_child (c))
    if (g_object_get_data (G_OBJECT (c), "tress-item") != NULL)
      return c;
  return NULL;
}

/* Opens the menu below @cell (a widget of the tree), at @x of the tree. */
static void
popup_below (AnimActions *a, GtkWidget *cell, double x)
{
  graphene_rect_t bounds;

  if (cell != NULL && gtk_widget_compute_bounds (cell, a->tree, &bounds))
    popup_at (a, x, bounds.origin.y, bounds.size.height);
  else
    popup_at (a, x, 0, 24);
}

static void
on_secondary_pressed (GtkGestureClick *gesture, int n_press, double x, double y, AnimActions *a)
{
  GtkWidget *cell = cell_at (a, x, y);
  GtkListItem *item = cell != NULL ? g_object_get_data (G_OBJECT (cell), "tress-item") : NULL;
  GtkSelectionModel *sel = tress_curve_editor_get_tree_selection (a->editor);
  guint pos;

  /* Formats without these operations keep the tree's own handling. */
  if (item == NULL || (pos = gtk_list_item_get_position (item)) == GTK_INVALID_LIST_POSITION
      || !tress_anim_edit_supported (document_of (a)))
    return;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  gtk_widget_grab_focus (a->tree);
  /* The row right-clicked is what the menu acts on, as in a file manager:
   * selected alone unless it is part of the selection. */
  if (!gtk_selection_model_is_selected (sel, pos))
    tress_curve_editor_click_row (a->editor, pos, FALSE, FALSE);
}

/* On the release, as the graph's menu: the press and the release both reach
 * the tree before the menu takes the pointer. */
static void
on_secondary_released (GtkGestureClick *gesture, int n_press, double x, double y, AnimActions *a)
{
  GtkWidget *cell = cell_at (a, x, y);

  if (cell != NULL && tress_anim_edit_supported (document_of (a)))
    popup_below (a, cell, x);
}

/* The widget of the cell of row @pos that carries its item, or NULL (scrolled away). */
static GtkWidget *
row_widget (GtkWidget *root, guint pos)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkListItem *item = g_object_get_data (G_OBJECT (c), "tress-item");
      GtkWidget *found;

      if (item != NULL && gtk_list_item_get_position (item) == pos)
        return c;
      if ((found = row_widget (c, pos)) != NULL)
        return found;
    }
  return NULL;
}

/* The Menu key and Shift+F10: the menu below the first selected row. */
static gboolean
on_menu_key (GtkWidget *widget, GVariant *args, gpointer data)
{
  AnimActions *a = data;
  GtkSelectionModel *sel = tress_curve_editor_get_tree_selection (a->editor);
  g_autoptr (GtkBitset) set = gtk_selection_model_get_selection (sel);
  GtkWidget *row
      = !gtk_bitset_is_empty (set) ? row_widget (a->tree, gtk_bitset_get_minimum (set)) : NULL;
  graphene_rect_t bounds;

  if (!tress_anim_edit_supported (document_of (a)))
    return FALSE;
  if (row != NULL && gtk_widget_compute_bounds (row, a->tree, &bounds))
    popup_below (a, row, bounds.origin.x + 24);
  else
    popup_at (a, 24, 0, 24);
  return TRUE;
}

static void
on_editor_destroy (GtkWidget *editor, AnimActions *a)
{
  g_clear_pointer (&a->menu, gtk_widget_unparent);
}

static void
anim_actions_free (gpointer p)
{
  AnimActions *a = p;

  g_clear_object (&a->group);
  g_free (a);
}

void
tress_curve_anim_actions_install (TressCurveEditor *editor, GtkWidget *tree)
{
  const GActionEntry entries[] = {
    { "retime", act_retime, NULL, NULL, NULL },
    { "frame-count", act_frame_count, NULL, NULL, NULL },
    { "loop", NULL, NULL, "false", act_loop },
    { "rename", act_rename, NULL, NULL, NULL },
    { "duplicate", act_duplicate, NULL, NULL, NULL },
    { "delete", act_delete, NULL, NULL, NULL },
  };
  AnimActions *a = g_new0 (AnimActions, 1);
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *keys = gtk_shortcut_controller_new ();
  const guint menu_keys[][2] = { { GDK_KEY_Menu, 0 }, { GDK_KEY_F10, GDK_SHIFT_MASK } };

  g_return_if_fail (TRESS_IS_CURVE_EDITOR (editor));
  a->editor = editor;
  a->tree = tree;
  a->target = -1;
  a->group = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (a->group), entries, G_N_ELEMENTS (entries), a);
  g_object_set_data_full (G_OBJECT (editor), "tress-anim-actions", a, anim_actions_free);
  gtk_widget_insert_action_group (GTK_WIDGET (editor), "anim", G_ACTION_GROUP (a->group));

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_CAPTURE);
  g_signal_connect (click, "pressed", G_CALLBACK (on_secondary_pressed), a);
  g_signal_connect (click, "released", G_CALLBACK (on_secondary_released), a);
  gtk_widget_add_controller (tree, GTK_EVENT_CONTROLLER (click));
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  for (guint i = 0; i < G_N_ELEMENTS (menu_keys); i++)
    gtk_shortcut_controller_add_shortcut (
        GTK_SHORTCUT_CONTROLLER (keys),
        gtk_shortcut_new (gtk_keyval_trigger_new (menu_keys[i][0], menu_keys[i][1]),
                          gtk_callback_action_new (on_menu_key, a, NULL)));
  gtk_widget_add_controller (tree, keys);
  g_signal_connect (editor, "destroy", G_CALLBACK (on_editor_destroy), a);

  g_signal_connect_object (tress_curve_editor_get_tree_selection (editor), "selection-changed",
                           G_CALLBACK (on_selection_changed), editor, G_CONNECT_DEFAULT);
  g_signal_connect_object (tress_curve_editor_get_document (editor), "curves-reset",
                           G_CALLBACK (on_curves_reset), editor, G_CONNECT_DEFAULT);
  update_actions (a);
}

int
tress_curve_anim_actions_get_target (TressCurveEditor *editor)
{
  AnimActions *a = get_actions (editor);

  return a != NULL ? a->target : -1;
}

GtkWidget *
tress_curve_anim_actions_get_menu (TressCurveEditor *editor)
{
  AnimActions *a = get_actions (editor);

  return a != NULL ? a->menu : NULL;
}
