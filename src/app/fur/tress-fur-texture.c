/* tress-fur-texture.c: loading a strand texture under the UV map
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-fur-texture.h"

#include <glib/gi18n-lib.h>

#include <string.h>

GFile *
tress_fur_texture_resolve (const char *typed, GFile *doc_file)
{
  g_autofree char *text = g_strstrip (g_strdup (typed != NULL ? typed : ""));
  g_autoptr (GFile) folder = NULL;

  if (*text == '\0')
    return NULL;
  if (g_path_is_absolute (text))
    return g_file_new_for_path (text);
  if (text[0] == '~' && (text[1] == '/' || text[1] == '\0'))
    return g_file_new_build_filename (g_get_home_dir (), text[1] ? text + 2 : "", NULL);
  folder = doc_file != NULL ? g_file_get_parent (doc_file) : NULL;
  if (folder != NULL)
    return g_file_resolve_relative_path (folder, text);
  return g_file_new_for_commandline_arg (text);
}

gboolean
tress_fur_texture_load (GtkWidget *parent, TressUvMap *map, GFile *file)
{
  g_autoptr (GError) error = NULL;
  GtkRoot *root;
  GtkWidget *msg;
  g_autofree char *name = NULL;

  if (tress_uv_map_load_background (map, file, &error))
    return TRUE;
  root = gtk_widget_get_root (parent);
  name = g_file_get_parse_name (file);
  msg = gtk_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, GTK_DIALOG_MODAL,
                                GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                _ ("Cannot load the strand texture"));
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (msg), "%s: %s", name,
                                            error->message);
  g_signal_connect (msg, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (msg));
  return FALSE;
}
