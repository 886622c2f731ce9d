/* tress-curve-channel-list.c: the shown curves as a list of channels
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-channel-list.h"

#include "tress-curve-groups.h"

#include <glib/gi18n.h>
#include <string.h>

/* ------------------------------------------------------------ channels -- */

struct _TressCurveChannel
{
  GObject parent_instance;
  char *name;
  int curve;        /* document curve index, or -1 for a group */
  guint first, end; /* the view's slots [first, end) the row covers */
  guint level;      /* the path level of the row's name */
  GArray *shown;    /* borrowed from the list: slot → curve index */
  GPtrArray *paths; /* borrowed from the list: slot → path */
  guint base;       /* path levels every shown curve shares */
};

G_DEFINE_FINAL_TYPE (TressCurveChannel, tress_curve_channel, G_TYPE_OBJECT)

static void
tress_curve_channel_finalize (GObject *object)
{
  TressCurveChannel *self = TRESS_CURVE_CHANNEL (object);

  g_free (self->name);
  g_clear_pointer (&self->shown, g_array_unref);
  g_clear_pointer (&self->paths, g_ptr_array_unref);
  G_OBJECT_CLASS (tress_curve_channel_parent_class)->finalize (object);
}

static void
tress_curve_channel_class_init (TressCurveChannelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tress_curve_channel_finalize;
}

static void
tress_curve_channel_init (TressCurveChannel *self)
{
  self->curve = -1;
}

const char *
tress_curve_channel_get_name (TressCurveChannel *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_CHANNEL (self), NULL);
  return self->name;
}

int
tress_curve_channel_get_curve (TressCurveChannel *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_CHANNEL (self), -1);
  return self->curve;
}

void
tress_curve_channel_collect_curves (TressCurveChannel *self, GArray *indices)
{
  g_return_if_fail (TRESS_IS_CURVE_CHANNEL (self));
  for (guint i = self->first; i < self->end && i < self->shown->len; i++)
    g_array_append_val (indices, g_array_index (self->shown, guint, i));
}

/* ---------------------------------------------------------------- paths -- */

#define path_part tress_curve_path_part
#define is_leaf tress_curve_path_is_leaf
#define same_part tress_curve_path_same_part

static char *
leaf_name (const char *path, guint level)
{
  gsize len;
  const char *part = path_part (path, level, &len);

  if (part == NULL || *part == '\0')
    return g_strdup (_ ("curve"));
  /* "RotateX/X" reads "RotateX X". */
  return g_strdelimit (g_strdup (part), "/", ' ');
}

/* ----------------------------------------------------------------- list -- */

/* Up to this many shown curves, every group of the list starts open. */
#define CHANNELS_EXPANDED_MAX 256

struct _TressCurveChannelList
{
  GtkWidget parent_instance;

  TressCurveView *view; /* weak: the editor owns both */
  GtkListView *list_view;
  GtkTreeListModel *tree;
  GtkMultiSelection *selection;
  GArray *shown;    /* guint: the curves the rows were made for, by slot */
  GPtrArray *paths; /* their paths when the rows were made */
  guint base;
  GHashTable *bound; /* GtkListItem set: the rows in view */
  gboolean syncing;
  gboolean opening; /* the groups are being opened as the shared state says */
};

G_DEFINE_FINAL_TYPE (TressCurveChannelList, tress_curve_channel_list, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_SELECTION_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static TressCurveChannel *
channel_new (GArray *shown, GPtrArray *paths, guint base, const char *name, int curve, guint first,
             guint end, guint level)
{
  TressCurveChannel *c = g_object_new (TRESS_TYPE_CURVE_CHANNEL, NULL);

  c->name = g_strdup (name);
  c->curve = curve;
  c->first = first;
  c->end = end;
  c->level = level;
  c->shown = g_array_ref (shown);
  c->paths = g_ptr_array_ref (paths);
  c->base = base;
  return c;
}

/* ------------------------------------------------------------- levels -- */

/* The rows of slots [first, end) at path level @level, as a list model that
 * does its work when asked: how the slots fall into rows is found on the
 * first count (runs of curves sharing the part at that level become a group,
 * curves named at it a channel), and a row's object is made when it is first
 * fetched. GtkTreeListModel makes a group's model to learn whether the row can
 * be opened, and the list fetches only the rows in view, so the work stays
 * bounded by what is on screen and what is opened. */

#define TRESS_TYPE_CHANNEL_LEVEL (tress_channel_level_get_type ())
G_DECLARE_FINAL_TYPE (TressChannelLevel, tress_channel_level, TRESS, CHANNEL_LEVEL, GObject)

typedef struct
{
  guint first, end;
  gboolean leaf;
} LevelRow;

struct _TressChannelLevel
{
  GObject parent_instance;
  GArray *shown;    /* slot → curve index, shared with the list */
  GPtrArray *paths; /* slot → path, shared with the list */
  guint base, first, end, level;
  GArray *rows;     /* LevelRow, NULL until counted */
  GPtrArray *items; /* TressCurveChannel or NULL, by row */
};

static GType
level_get_item_type (GListModel *model)
{
  return TRESS_TYPE_CURVE_CHANNEL;
}

static void
level_count (TressChannelLevel *self)
{
  guint i = self->first;

  if (self->rows != NULL)
    return;
  self->rows = g_array_new (FALSE, FALSE, sizeof (LevelRow));
  while (i < self->end)
    {
      const char *path = self->paths->pdata[i];
      LevelRow r = { i, i + 1, is_leaf (path, self->level) };

      if (!r.leaf)
        while (r.end < self->end && !is_leaf (self->paths->pdata[r.end], self->level)
               && same_part (path, self->paths->pdata[r.end], self->level))
          r.end++;
      g_array_append_val (self->rows, r);
      i = r.end;
    }
  self->items = g_ptr_array_new_full (self->rows->len, g_object_unref);
  g_ptr_array_set_size (self->items, self->rows->len);
}

static guint
level_get_n_items (GListModel *model)
{
  TressChannelLevel *self = TRESS_CHANNEL_LEVEL (model);

  level_count (self);
  return self->rows->len;
}

static gpointer
level_get_item (GListModel *model, guint position)
{
  TressChannelLevel *self = TRESS_CHANNEL_LEVEL (model);
  const LevelRow *r;

  level_count (self);
  if (position >= self->rows->len)
    return NULL;
  if (self->items->pdata[position] == NULL)
    {
      g_autofree char *name = NULL;
      const char *path;

      r = &g_array_index (self->rows, LevelRow, position);
      path = self->paths->pdata[r->first];
      if (r->leaf)
        name = leaf_name (path, self->level);
      else
        {
          gsize len;
          const char *part = path_part (path, self->level, &len);

          name = g_strndup (part, len);
        }
      self->items->pdata[position]
          = channel_new (self->shown, self->paths, self->base, name,
                         r->leaf ? (int)g_array_index (self->shown, guint, r->first) : -1, r->first,
                         r->end, self->level);
    }
  return g_object_ref (self->items->pdata[position]);
}

static void
tress_channel_level_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = level_get_item_type;
  iface->get_n_items = level_get_n_items;
  iface->get_item = level_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (TressChannelLevel, tress_channel_level, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      tress_channel_level_list_model_init))

static void
tress_channel_level_finalize (GObject *object)
{
  TressChannelLevel *self = TRESS_CHANNEL_LEVEL (object);

  g_array_unref (self->shown);
  g_ptr_array_unref (self->paths);
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->items, g_ptr_array_unref);
  G_OBJECT_CLASS (tress_channel_level_parent_class)->finalize (object);
}

static void
tress_channel_level_class_init (TressChannelLevelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tress_channel_level_finalize;
}

static void
tress_channel_level_init (TressChannelLevel *self)
{
}

static GListModel *
level_new (GArray *shown, GPtrArray *paths, guint base, guint first, guint end, guint level)
{
  TressChannelLevel *self = g_object_new (TRESS_TYPE_CHANNEL_LEVEL, NULL);

  self->shown = g_array_ref (shown);
  self->paths = g_ptr_array_ref (paths);
  self->base = base;
  self->first = first;
  self->end = end;
  self->level = level;
  return G_LIST_MODEL (self);
}

static GListModel *
create_children (gpointer item, gpointer user_data)
{
  TressCurveChannelList *self = user_data;
  TressCurveChannel *c = item;

  if (c->curve >= 0 || c->shown != self->shown)
    return NULL;
  return level_new (c->shown, c->paths, c->base, c->first, c->end, c->level + 1);
}

/* The key of group row @c in the open groups the dope sheet shares. */
static char *
group_key (TressCurveChannel *c)
{
  if (c->curve >= 0 || c->first >= c->paths->len)
    return NULL;
  return tress_curve_path_group_key (c->paths->pdata[c->first], c->level);
}

/* Opens and closes the groups as the shared state says, row by row from the
 * top: the rows an opened group adds are visited next, so the work is the
 * rows that end up in the list. */
static void
open_groups (TressCurveChannelList *self)
{
  TressCurveGroups *groups = self->view != NULL ? tress_curve_view_get_groups (self->view) : NULL;
  gboolean fallback = self->shown->len <= CHANNELS_EXPANDED_MAX;

  if (groups == NULL || self->tree == NULL)
    return;
  self->opening = TRUE;
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->tree)); i++)
    {
      g_autoptr (GtkTreeListRow) row = gtk_tree_list_model_get_row (self->tree, i);
      g_autoptr (TressCurveChannel) c = NULL;
      g_autofree char *key = NULL;
      gboolean open;

      if (row == NULL || !gtk_tree_list_row_is_expandable (row))
        continue;
      c = gtk_tree_list_row_get_item (row);
      key = group_key (c);
      open = key != NULL && tress_curve_groups_get_open (groups, key, fallback);
      if (open != gtk_tree_list_row_get_expanded (row))
        gtk_tree_list_row_set_expanded (row, open);
    }
  self->opening = FALSE;
}

static void
on_groups_changed (TressCurveChannelList *self)
{
  if (!self->opening)
    open_groups (self);
}

/* A group opened or closed here: the shared state follows. */
static void
on_row_expanded (GtkTreeListRow *row, GParamSpec *pspec, TressCurveChannelList *self)
{
  g_autoptr (TressCurveChannel) c = NULL;
  g_autofree char *key = NULL;

  if (self->opening || self->view == NULL)
    return;
  c = gtk_tree_list_row_get_item (row);
  key = c != NULL ? group_key (c) : NULL;
  if (key == NULL)
    return;
  self->opening = TRUE;
  tress_curve_groups_set_open (tress_curve_view_get_groups (self->view), key,
                               gtk_tree_list_row_get_expanded (row));
  self->opening = FALSE;
}

static void
rebuild (TressCurveChannelList *self)
{
  guint n = self->view != NULL ? tress_curve_view_get_n_curves (self->view) : 0;

  /* Rows made for the old curves keep their own references to these. */
  g_array_unref (self->shown);
  g_ptr_array_unref (self->paths);
  self->shown = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
  self->paths = g_ptr_array_new_full (n, g_free);
  for (guint i = 0; i < n; i++)
    {
      guint index = tress_curve_view_get_curve_index (self->view, i);
      const TressCurve *c = tress_curve_view_get_shown_curve (self->view, index);

      g_array_append_val (self->shown, index);
      g_ptr_array_add (self->paths, g_strdup (c != NULL && c->path != NULL ? c->path : ""));
    }
  self->base = tress_curve_paths_common_levels ((const char *const *)self->paths->pdata, n);
  /* A few curves show every channel; more show their groups closed, so that
   * the rows made stay bounded by what is opened, not by the number of
   * curves. */
  g_clear_object (&self->tree);
  self->tree
      = gtk_tree_list_model_new (level_new (self->shown, self->paths, self->base, 0, n, self->base),
                                 FALSE, FALSE, create_children, self, NULL);
  gtk_multi_selection_set_model (self->selection, G_LIST_MODEL (self->tree));
  open_groups (self);
}

/* -------------------------------------------------------------- toggles -- */

static const struct
{
  TressCurveFlag flag;
  const char *on_icon, *off_icon;
  const char *tooltip;
} toggles[] = {
  { TRESS_CURVE_FLAG_VISIBLE, "view-reveal-symbolic", "view-conceal-symbolic", N_ ("Show") },
  { TRESS_CURVE_FLAG_SOLO, "starred-symbolic", "non-starred-symbolic",
    N_ ("Solo: show only the solo curves") },
  { TRESS_CURVE_FLAG_LOCKED, "changes-prevent-symbolic", "changes-allow-symbolic",
    N_ ("Lock against edits") },
};

static gboolean
curve_flag (TressCurveView *view, guint index, TressCurveFlag flag)
{
  switch (flag)
    {
    case TRESS_CURVE_FLAG_VISIBLE:
      return tress_curve_view_get_curve_visible (view, index);
    case TRESS_CURVE_FLAG_SOLO:
      return tress_curve_view_get_curve_solo (view, index);
    case TRESS_CURVE_FLAG_LOCKED:
    default:
      return tress_curve_view_get_curve_locked (view, index);
    }
}

/* A row's flag: set when every curve of it has it. */
static gboolean
row_flag (TressCurveChannelList *self, TressCurveChannel *c, TressCurveFlag flag)
{
  for (guint i = c->first; i < c->end && i < c->shown->len; i++)
    if (!curve_flag (self->view, g_array_index (c->shown, guint, i), flag))
      return FALSE;
  return c->end > c->first;
}

typedef struct
{
  GtkWidget *expander;
  GtkWidget *swatch;
  GtkWidget *name;
  GtkWidget *toggle[G_N_ELEMENTS (toggles)];
} RowWidgets;

static void
sync_row (TressCurveChannelList *self, GtkListItem *item)
{
  RowWidgets *w = g_object_get_data (G_OBJECT (item), "tress-row");
  GtkTreeListRow *row = gtk_list_item_get_item (item);
  g_autoptr (TressCurveChannel) c = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
  gboolean shown;

  if (w == NULL || c == NULL || self->view == NULL)
    return;
  self->syncing = TRUE;
  for (guint t = 0; t < G_N_ELEMENTS (toggles); t++)
    {
      gboolean on = row_flag (self, c, toggles[t].flag);

      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (w->toggle[t]), on);
      gtk_button_set_icon_name (GTK_BUTTON (w->toggle[t]),
                                on ? toggles[t].on_icon : toggles[t].off_icon);
    }
  self->syncing = FALSE;
  shown = c->curve >= 0 ? tress_curve_view_get_curve_shown (self->view, (guint)c->curve) : TRUE;
  gtk_widget_set_opacity (w->name, shown ? 1.0 : 0.5);
}

static void
sync_bound (TressCurveChannelList *self)
{
  GHashTableIter iter;
  gpointer item;

  g_hash_table_iter_init (&iter, self->bound);
  while (g_hash_table_iter_next (&iter, &item, NULL))
    sync_row (self, item);
}

static void
set_channel_flag (TressCurveChannelList *self, TressCurveChannel *c, TressCurveFlag flag,
                  gboolean value)
{
  g_autoptr (GArray) indices = g_array_new (FALSE, FALSE, sizeof (guint));

  if (self->view == NULL)
    return;
  tress_curve_channel_collect_curves (c, indices);
  tress_curve_view_set_curve_flags (self->view, (const guint *)indices->data, indices->len, flag,
                                    value);
  sync_bound (self);
}

static void
on_toggle (GtkToggleButton *button, GtkListItem *item)
{
  TressCurveChannelList *self = g_object_get_data (G_OBJECT (button), "tress-list");
  guint t = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "tress-toggle"));
  GtkTreeListRow *row = gtk_list_item_get_item (item);
  g_autoptr (TressCurveChannel) c = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;

  if (self->syncing || c == NULL)
    return;
  set_channel_flag (self, c, toggles[t].flag, gtk_toggle_button_get_active (button));
}

static void
row_widgets_free (RowWidgets *w)
{
  g_free (w);
}

static gboolean
on_toggle_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                   gpointer data)
{
  gtk_tooltip_set_text (tooltip, _ (toggles[GPOINTER_TO_UINT (data)].tooltip));
  return TRUE;
}

/* A channel's name: its whole path. */
static gboolean
on_name_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                 GtkListItem *item)
{
  GtkTreeListRow *row = gtk_list_item_get_item (item);
  g_autoptr (TressCurveChannel) c = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;

  if (c == NULL || c->curve < 0)
    return FALSE;
  gtk_tooltip_set_text (tooltip, c->paths->pdata[c->first]);
  return TRUE;
}

static void
setup_row (GtkSignalListItemFactory *factory, GtkListItem *item, TressCurveChannelList *self)
{
  RowWidgets *w = g_new0 (RowWidgets, 1);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);

  w->expander = gtk_tree_expander_new ();
  w->swatch = gtk_label_new (NULL);
  w->name = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (w->name), 0);
  gtk_label_set_ellipsize (GTK_LABEL (w->name), PANGO_ELLIPSIZE_END);
  gtk_widget_set_has_tooltip (w->name, TRUE);
  g_signal_connect (w->name, "query-tooltip", G_CALLBACK (on_name_tooltip), item);
  gtk_widget_set_hexpand (w->name, TRUE);
  gtk_box_append (GTK_BOX (box), w->swatch);
  gtk_box_append (GTK_BOX (box), w->name);
  for (guint t = 0; t < G_N_ELEMENTS (toggles); t++)
    {
      w->toggle[t] = gtk_toggle_button_new ();
      gtk_button_set_icon_name (GTK_BUTTON (w->toggle[t]), toggles[t].on_icon);
      /* Tooltips are looked up when shown: setting their text costs more than
       * the rest of a row, and rows are made again for every new selection. */
      gtk_widget_set_has_tooltip (w->toggle[t], TRUE);
      g_signal_connect (w->toggle[t], "query-tooltip", G_CALLBACK (on_toggle_tooltip),
                        GUINT_TO_POINTER (t));
      gtk_widget_add_css_class (w->toggle[t], "flat");
      gtk_widget_set_focus_on_click (w->toggle[t], FALSE);
      g_object_set_data (G_OBJECT (w->toggle[t]), "tress-list", self);
      g_object_set_data (G_OBJECT (w->toggle[t]), "tress-toggle", GUINT_TO_POINTER (t));
      g_signal_connect (w->toggle[t], "toggled", G_CALLBACK (on_toggle), item);
      gtk_box_append (GTK_BOX (box), w->toggle[t]);
    }
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (w->expander), box);
  gtk_list_item_set_child (item, w->expander);
  g_object_set_data_full (G_OBJECT (item), "tress-row", w, (GDestroyNotify)row_widgets_free);
}

static void
bind_row (GtkSignalListItemFactory *factory, GtkListItem *item, TressCurveChannelList *self)
{
  RowWidgets *w = g_object_get_data (G_OBJECT (item), "tress-row");
  GtkTreeListRow *row = gtk_list_item_get_item (item);
  g_autoptr (TressCurveChannel) c = gtk_tree_list_row_get_item (row);

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (w->expander), row);
  gtk_label_set_text (GTK_LABEL (w->name), c->name);
  if (c->curve >= 0 && self->view != NULL)
    {
      GdkRGBA rgba;
      g_autofree char *markup = NULL;

      tress_curve_view_get_curve_color (self->view, (guint)c->curve, &rgba);
      markup
          = g_strdup_printf ("<span foreground=\"#%02x%02x%02x\">■</span>", (int)(rgba.red * 255),
                             (int)(rgba.green * 255), (int)(rgba.blue * 255));
      gtk_label_set_markup (GTK_LABEL (w->swatch), markup);
    }
  else
    gtk_label_set_text (GTK_LABEL (w->swatch), "");
  gtk_widget_set_visible (w->swatch, c->curve >= 0);
  g_hash_table_add (self->bound, item);
  g_signal_connect (row, "notify::expanded", G_CALLBACK (on_row_expanded), self);
  sync_row (self, item);
}

static void
unbind_row (GtkSignalListItemFactory *factory, GtkListItem *item, TressCurveChannelList *self)
{
  GtkTreeListRow *row = gtk_list_item_get_item (item);

  if (row != NULL)
    g_signal_handlers_disconnect_by_func (row, on_row_expanded, self);
  g_hash_table_remove (self->bound, item);
}

static void
on_selection_changed (GtkSelectionModel *model, guint position, guint n_items,
                      TressCurveChannelList *self)
{
  g_signal_emit (self, signals[SIGNAL_SELECTION_CHANGED], 0);
}

static void
on_activate (GtkListView *list_view, guint position, TressCurveChannelList *self)
{
  tress_curve_channel_list_activate_row (self, position);
}

/* --------------------------------------------------------------- public -- */

GtkWidget *
tress_curve_channel_list_new (void)
{
  return g_object_new (TRESS_TYPE_CURVE_CHANNEL_LIST, NULL);
}

void
tress_curve_channel_list_set_view (TressCurveChannelList *self, TressCurveView *view)
{
  g_return_if_fail (TRESS_IS_CURVE_CHANNEL_LIST (self));
  if (self->view != NULL)
    g_signal_handlers_disconnect_by_data (tress_curve_view_get_groups (self->view), self);
  self->view = view;
  if (view != NULL)
    g_signal_connect_swapped (tress_curve_view_get_groups (view), "changed",
                              G_CALLBACK (on_groups_changed), self);
  g_array_set_size (self->shown, 0);
  tress_curve_channel_list_update (self);
}

void
tress_curve_channel_list_update (TressCurveChannelList *self)
{
  guint n;
  gboolean same;

  g_return_if_fail (TRESS_IS_CURVE_CHANNEL_LIST (self));
  n = self->view != NULL ? tress_curve_view_get_n_curves (self->view) : 0;
  same = n == self->shown->len;
  for (guint i = 0; i < n && same; i++)
    same
        = g_array_index (self->shown, guint, i) == tress_curve_view_get_curve_index (self->view, i);
  if (!same)
    {
      rebuild (self);
      /* A new set of curves starts at the top. */
      if (g_list_model_get_n_items (G_LIST_MODEL (self->tree)) > 0)
        gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", 0);
    }
  else
    sync_bound (self);
}

GtkSelectionModel *
tress_curve_channel_list_get_selection (TressCurveChannelList *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_CHANNEL_LIST (self), NULL);
  return GTK_SELECTION_MODEL (self->selection);
}

GArray *
tress_curve_channel_list_dup_selected_curves (TressCurveChannelList *self)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GtkBitset) set = NULL;
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_autoptr (GArray) rows = g_array_new (FALSE, FALSE, sizeof (guint));
  GtkBitsetIter iter;
  guint pos;

  g_return_val_if_fail (TRESS_IS_CURVE_CHANNEL_LIST (self), out);
  set = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  for (gboolean ok = gtk_bitset_iter_init_first (&iter, set, &pos); ok;
       ok = gtk_bitset_iter_next (&iter, &pos))
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (self->selection), pos);
      g_autoptr (TressCurveChannel) c = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;

      if (c == NULL)
        continue;
      g_array_set_size (rows, 0);
      tress_curve_channel_collect_curves (c, rows);
      for (guint i = 0; i < rows->len; i++)
        if (g_hash_table_add (seen, GUINT_TO_POINTER (g_array_index (rows, guint, i) + 1)))
          g_array_append_val (out, g_array_index (rows, guint, i));
    }
  return out;
}

void
tress_curve_channel_list_set_row_flag (TressCurveChannelList *self, guint position,
                                       TressCurveFlag flag, gboolean value)
{
  g_autoptr (GtkTreeListRow) row = NULL;
  g_autoptr (TressCurveChannel) c = NULL;

  g_return_if_fail (TRESS_IS_CURVE_CHANNEL_LIST (self));
  row = g_list_model_get_item (G_LIST_MODEL (self->tree), position);
  c = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
  if (c != NULL)
    set_channel_flag (self, c, flag, value);
}

void
tress_curve_channel_list_activate_row (TressCurveChannelList *self, guint position)
{
  g_autoptr (GtkTreeListRow) row = NULL;
  g_autoptr (TressCurveChannel) c = NULL;
  g_autoptr (GArray) indices = g_array_new (FALSE, FALSE, sizeof (guint));

  g_return_if_fail (TRESS_IS_CURVE_CHANNEL_LIST (self));
  row = g_list_model_get_item (G_LIST_MODEL (self->tree), position);
  c = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
  if (c == NULL || self->view == NULL)
    return;
  tress_curve_channel_collect_curves (c, indices);
  tress_curve_view_select_all_of (self->view, (const guint *)indices->data, indices->len);
}

/* -------------------------------------------------------------- GObject -- */

static void
tress_curve_channel_list_dispose (GObject *object)
{
  TressCurveChannelList *self = TRESS_CURVE_CHANNEL_LIST (object);
  GtkWidget *child;

  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->selection);
  g_clear_object (&self->tree);
  if (self->view != NULL)
    g_signal_handlers_disconnect_by_data (tress_curve_view_get_groups (self->view), self);
  self->view = NULL;
  G_OBJECT_CLASS (tress_curve_channel_list_parent_class)->dispose (object);
}

static void
tress_curve_channel_list_finalize (GObject *object)
{
  TressCurveChannelList *self = TRESS_CURVE_CHANNEL_LIST (object);

  g_array_unref (self->shown);
  g_ptr_array_unref (self->paths);
  g_hash_table_unref (self->bound);
  G_OBJECT_CLASS (tress_curve_channel_list_parent_class)->finalize (object);
}

static void
tress_curve_channel_list_class_init (TressCurveChannelListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tress_curve_channel_list_dispose;
  object_class->finalize = tress_curve_channel_list_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "curvechannels");
  signals[SIGNAL_SELECTION_CHANGED]
      = g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                      NULL, NULL, G_TYPE_NONE, 0);
}

static void
tress_curve_channel_list_init (TressCurveChannelList *self)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  self->shown = g_array_new (FALSE, FALSE, sizeof (guint));
  self->paths = g_ptr_array_new_with_free_func (g_free);
  self->bound = g_hash_table_new (NULL, NULL);
  self->tree = gtk_tree_list_model_new (level_new (self->shown, self->paths, 0, 0, 0, 0), FALSE,
                                        TRUE, create_children, self, NULL);
  self->selection = gtk_multi_selection_new (g_object_ref (G_LIST_MODEL (self->tree)));
  g_signal_connect (self->selection, "selection-changed", G_CALLBACK (on_selection_changed), self);

  g_signal_connect (factory, "setup", G_CALLBACK (setup_row), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row), self);
  self->list_view = GTK_LIST_VIEW (
      gtk_list_view_new (GTK_SELECTION_MODEL (g_object_ref (self->selection)), factory));
  gtk_widget_add_css_class (GTK_WIDGET (self->list_view), "tress-channels");
  g_signal_connect (self->list_view, "activate", G_CALLBACK (on_activate), self);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->list_view));
  gtk_widget_set_parent (scrolled, GTK_WIDGET (self));
}
