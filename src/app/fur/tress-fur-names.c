/* tress-fur-names.c: remembered body-part names
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-fur-names.h"

#include <glib/gi18n-lib.h>

#include <glib/gstdio.h>

struct _TressFurNames
{
  char *group;
  char *path;
  GHashTable *names; /* part (as pointer + 1) → name */
};

TressFurNames *
tress_fur_names_new (const char *file_key)
{
  TressFurNames *self = g_new0 (TressFurNames, 1);
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  g_auto (GStrv) keys = NULL;
  guint i;

  self->group = g_strdup (file_key != NULL ? file_key : "untitled");
  self->path = g_build_filename (g_get_user_data_dir (), "tress", "body-part-names.ini", NULL);
  self->names = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  if (g_key_file_load_from_file (kf, self->path, G_KEY_FILE_NONE, NULL))
    keys = g_key_file_get_keys (kf, self->group, NULL, NULL);
  for (i = 0; keys != NULL && keys[i] != NULL; i++)
    {
      guint64 part;
      g_autofree char *name = NULL;

      if (!g_ascii_string_to_unsigned (keys[i], 10, 0, G_MAXUINT32, &part, NULL))
        continue;
      name = g_key_file_get_string (kf, self->group, keys[i], NULL);
      if (name != NULL && *name != '\0')
        g_hash_table_insert (self->names, GUINT_TO_POINTER ((guint)part + 1),
                             g_steal_pointer (&name));
    }
  return self;
}

void
tress_fur_names_free (TressFurNames *self)
{
  if (self == NULL)
    return;
  g_free (self->group);
  g_free (self->path);
  g_hash_table_unref (self->names);
  g_free (self);
}

const char *
tress_fur_names_get (TressFurNames *self, guint32 part)
{
  return g_hash_table_lookup (self->names, GUINT_TO_POINTER (part + 1));
}

gboolean
tress_fur_names_set (TressFurNames *self, guint32 part, const char *name, GError **error)
{
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  g_autofree char *dir = g_path_get_dirname (self->path);
  char key[16];

  g_snprintf (key, sizeof key, "%u", part);
  if (name != NULL && *name != '\0')
    g_hash_table_insert (self->names, GUINT_TO_POINTER (part + 1), g_strstrip (g_strdup (name)));
  else
    g_hash_table_remove (self->names, GUINT_TO_POINTER (part + 1));

  /* Re-read so names of other files written meanwhile are kept. */
  g_key_file_load_from_file (kf, self->path, G_KEY_FILE_KEEP_COMMENTS, NULL);
  if (name != NULL && *name != '\0')
    g_key_file_set_string (kf, self->group, key, tress_fur_names_get (self, part));
  else
    g_key_file_remove_key (kf, self->group, key, NULL);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _ ("Cannot create %s"), dir);
      return FALSE;
    }
  return g_key_file_save_to_file (kf, self->path, error);
}

char *
tress_fur_names_label (TressFurNames *self, guint32 part)
{
  const char *name = self != NULL ? tress_fur_names_get (self, part) : NULL;

  return name != NULL ? g_strdup_printf ("%u · %s", part, name) : g_strdup_printf ("%u", part);
}

const char *
tress_fur_names_get_path (TressFurNames *self)
{
  return self->path;
}
