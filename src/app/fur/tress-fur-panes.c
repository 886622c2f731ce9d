/* tress-fur-panes.c: the fur editor's dividers, kept across runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-fur-panes.h"

static GSettings *
settings_new_if_installed (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema
      = source != NULL ? g_settings_schema_source_lookup (source, TRESS_FUR_EDITOR_SCHEMA, TRUE)
                       : NULL;

  return schema != NULL ? g_settings_new_full (schema, NULL, NULL) : NULL;
}

void
tress_fur_panes_init (GtkPaned *tree_paned)
{
  g_autoptr (GSettings) settings = settings_new_if_installed ();

  if (settings == NULL)
    return;
  gtk_paned_set_position (tree_paned, g_settings_get_int (settings, "tree-width"));
  /* (the binding holds the settings for as long as the paned lives) */
  g_settings_bind (settings, "tree-width", tree_paned, "position", G_SETTINGS_BIND_SET);
}

/* The inspector's column: as wide as the setting says at the first layout
 * (at least what the inspector needs), then as wide as the divider leaves
 * it, which is kept. */
#define TRESS_TYPE_FUR_WIDTH_HOLDER (tress_fur_width_holder_get_type ())
G_DECLARE_FINAL_TYPE (TressFurWidthHolder, tress_fur_width_holder, TRESS, FUR_WIDTH_HOLDER,
                      GtkWidget)

struct _TressFurWidthHolder
{
  GtkWidget parent_instance;
  GtkWidget *child;
  GSettings *settings; /* or NULL: no schema */
  gboolean placed;     /* the first layout is over and the divider set there */
  guint place_id;
};

G_DEFINE_FINAL_TYPE (TressFurWidthHolder, tress_fur_width_holder, GTK_TYPE_WIDGET)

static void
holder_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                int *natural, int *minimum_baseline, int *natural_baseline)
{
  TressFurWidthHolder *self = TRESS_FUR_WIDTH_HOLDER (widget);

  gtk_widget_measure (self->child, orientation, for_size, minimum, natural, minimum_baseline,
                      natural_baseline);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int want
          = self->settings != NULL ? g_settings_get_int (self->settings, "inspector-width") : 280;

      /* GTK 4.8's paned gives an end child whose divider was never set its
       * minimum width: for the first layout, the kept width is the minimum
       * (at most 600 px, so that a small window still fits). */
      if (!self->placed)
        *minimum = MAX (*minimum, MIN (want, 600));
      *natural = MAX (want, *minimum);
    }
}

/* After the first layout: the divider set where it is (nothing moves), and
 * the minimum back to the inspector's own. */
static gboolean
holder_place (gpointer data)
{
  TressFurWidthHolder *self = data;
  GtkWidget *paned = gtk_widget_get_parent (GTK_WIDGET (self));

  self->place_id = 0;
  if (GTK_IS_PANED (paned))
    gtk_paned_set_position (GTK_PANED (paned), gtk_paned_get_position (GTK_PANED (paned)));
  self->placed = TRUE;
  gtk_widget_queue_resize (GTK_WIDGET (self));
  return G_SOURCE_REMOVE;
}

static void
holder_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  TressFurWidthHolder *self = TRESS_FUR_WIDTH_HOLDER (widget);

  GtkWidget *paned = gtk_widget_get_parent (widget);
  gboolean set = FALSE;

  gtk_widget_allocate (self->child, width, height, baseline, NULL);
  if (self->settings == NULL || !GTK_IS_PANED (paned))
    return;
  if (!self->placed)
    {
      if (self->place_id == 0 && width > 0)
        self->place_id = g_idle_add (holder_place, self);
      return;
    }
  /* From then on: the width the divider leaves is kept. */
  g_object_get (paned, "position-set", &set, NULL);
  if (set && width >= 200 && width != g_settings_get_int (self->settings, "inspector-width"))
    g_settings_set_int (self->settings, "inspector-width", width);
}

static void
holder_dispose (GObject *object)
{
  TressFurWidthHolder *self = TRESS_FUR_WIDTH_HOLDER (object);

  g_clear_handle_id (&self->place_id, g_source_remove);
  g_clear_pointer (&self->child, gtk_widget_unparent);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (tress_fur_width_holder_parent_class)->dispose (object);
}

static void
tress_fur_width_holder_class_init (TressFurWidthHolderClass *klass)
{
  GTK_WIDGET_CLASS (klass)->measure = holder_measure;
  GTK_WIDGET_CLASS (klass)->size_allocate = holder_size_allocate;
  G_OBJECT_CLASS (klass)->dispose = holder_dispose;
}

static void
tress_fur_width_holder_init (TressFurWidthHolder *self)
{
}

GtkWidget *
tress_fur_panes_inspector_new (GtkWidget *inspector, GtkWidget *views)
{
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  TressFurWidthHolder *holder = g_object_new (TRESS_TYPE_FUR_WIDTH_HOLDER, NULL);

  holder->settings = settings_new_if_installed ();
  holder->child = inspector;
  gtk_widget_set_parent (inspector, GTK_WIDGET (holder));
  gtk_widget_set_name (paned, "inspector_paned");
  gtk_paned_set_start_child (GTK_PANED (paned), views);
  gtk_paned_set_end_child (GTK_PANED (paned), GTK_WIDGET (holder));
  gtk_paned_set_resize_end_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_shrink_start_child (GTK_PANED (paned), FALSE);
  return paned;
}
