/* tress-fur-names.c: remembered body-part names
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-fur-names.h"

#include <glib/gi18n-lib.h>

#include <glib/gstdio.h>
#include <string.h>

struct _TressFurNames
{
  GObject parent_instance;
  char *group;
  char *path;
  GHashTable *names; /* part (as pointer + 1) → name */
};

G_DEFINE_FINAL_TYPE (TressFurNames, tress_fur_names, G_TYPE_OBJECT)

enum
{
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
tress_fur_names_finalize (GObject *object)
{
  TressFurNames *self = TRESS_FUR_NAMES (object);

  g_free (self->group);
  g_free (self->path);
  g_hash_table_unref (self->names);
  G_OBJECT_CLASS (tress_fur_names_parent_class)->finalize (object);
}

static void
tress_fur_names_class_init (TressFurNamesClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tress_fur_names_finalize;
  /* (guint part) */
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
tress_fur_names_init (TressFurNames *self)
{
  self->names = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
}

TressFurNames *
tress_fur_names_new (const char *file_key)
{
  TressFurNames *self = g_object_new (TRESS_TYPE_FUR_NAMES, NULL);
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  g_auto (GStrv) keys = NULL;
  guint i;

  self->group = g_strdup (file_key != NULL ? file_key : "untitled");
  self->path = g_build_filename (g_get_user_data_dir (), "tress", "body-part-names.ini", NULL);
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
  g_autofree char *old = g_strdup (tress_fur_names_get (self, part));
  char key[16];

  g_snprintf (key, sizeof key, "%u", part);
  if (name != NULL && *name != '\0')
    g_hash_table_insert (self->names, GUINT_TO_POINTER (part + 1), g_strstrip (g_strdup (name)));
  else
    g_hash_table_remove (self->names, GUINT_TO_POINTER (part + 1));
  if (g_strcmp0 (old, tress_fur_names_get (self, part)) != 0)
    g_signal_emit (self, signals[SIGNAL_CHANGED], 0, part);

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

static int
compare_part (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *)a, y = *(const guint32 *)b;

  return x < y ? -1 : x > y;
}

GArray *
tress_fur_names_find (TressFurNames *self, const char *text)
{
  GArray *parts = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree char *norm = g_utf8_normalize (text, -1, G_NORMALIZE_ALL);
  g_autofree char *needle = norm != NULL ? g_utf8_casefold (norm, -1) : NULL;
  GHashTableIter iter;
  gpointer key, value;

  if (needle == NULL || *needle == '\0')
    return parts;
  g_hash_table_iter_init (&iter, self->names);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_autofree char *n = g_utf8_normalize (value, -1, G_NORMALIZE_ALL);
      g_autofree char *hay = n != NULL ? g_utf8_casefold (n, -1) : NULL;

      if (hay != NULL && strstr (hay, needle) != NULL)
        {
          guint32 part = GPOINTER_TO_UINT (key) - 1;

          g_array_append_val (parts, part);
        }
    }
  g_array_sort (parts, compare_part);
  return parts;
}

const char *
tress_fur_names_get_path (TressFurNames *self)
{
  return self->path;
}
