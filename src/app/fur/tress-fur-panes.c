/* tress-fur-panes.c: the fur editor's tree divider, kept across runs
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
