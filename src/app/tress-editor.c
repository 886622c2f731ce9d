/* tress-editor.c: the editor registry
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-editor.h"

#include "tress-info-view.h"

static GHashTable *editors; /* format id (owned) → TressEditorCreateFunc */

void
tress_editor_register (const char *format_id, TressEditorCreateFunc create)
{
  g_return_if_fail (format_id != NULL);
  g_return_if_fail (create != NULL);

  if (editors == NULL)
    editors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_insert (editors, g_strdup (format_id), (gpointer)create);
}

gboolean
tress_editor_is_registered (const char *format_id)
{
  return editors != NULL && format_id != NULL && g_hash_table_contains (editors, format_id);
}

GtkWidget *
tress_editor_create (TressDocument *doc)
{
  const TressFormat *format;
  TressEditorCreateFunc create = NULL;
  GtkWidget *editor = NULL;

  g_return_val_if_fail (TRESS_IS_DOCUMENT (doc), NULL);

  format = tress_document_get_format (doc);
  if (editors != NULL && format != NULL)
    create = (TressEditorCreateFunc)g_hash_table_lookup (editors, format->id);
  if (create != NULL)
    editor = create (doc);
  if (editor == NULL)
    editor = tress_info_view_new (doc);
  return editor;
}

static GQuark
shows_problems_quark (void)
{
  return g_quark_from_static_string ("tress-editor-shows-problems");
}

void
tress_editor_set_shows_problems (GtkWidget *editor)
{
  g_return_if_fail (GTK_IS_WIDGET (editor));
  g_object_set_qdata (G_OBJECT (editor), shows_problems_quark (), GINT_TO_POINTER (TRUE));
}

gboolean
tress_editor_get_shows_problems (GtkWidget *editor)
{
  g_return_val_if_fail (GTK_IS_WIDGET (editor), FALSE);
  return g_object_get_qdata (G_OBJECT (editor), shows_problems_quark ()) != NULL;
}
