/* tress-demo.c: the demo files compiled into the application
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-demo.h"

#include <glib/gi18n.h>

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *)a, *(const char *const *)b);
}

char **
tress_demo_list (void)
{
  g_auto (GStrv) children = g_resources_enumerate_children (TRESS_DEMO_RESOURCE_PATH,
                                                            G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  for (guint i = 0; children != NULL && children[i] != NULL; i++)
    {
      g_autofree char *path = g_strconcat (TRESS_DEMO_RESOURCE_PATH, children[i], NULL);
      gsize size = 0;

      if (g_resources_get_info (path, G_RESOURCE_LOOKUP_FLAGS_NONE, &size, NULL, NULL) && size > 0)
        g_ptr_array_add (names, g_strdup (children[i]));
    }
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return (char **)g_ptr_array_free (g_steal_pointer (&names), FALSE);
}

TressDocument *
tress_demo_open (const char *name, GError **error)
{
  g_autofree char *path = NULL;
  g_autoptr (GBytes) bytes = NULL;

  g_return_val_if_fail (name != NULL, NULL);

  path = g_strconcat (TRESS_DEMO_RESOURCE_PATH, name, NULL);
  bytes = g_resources_lookup_data (path, G_RESOURCE_LOOKUP_FLAGS_NONE, error);
  if (bytes == NULL)
    return NULL;
  if (g_bytes_get_size (bytes) == 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED,
                   _ ("The demo file “%s” was not generated when Tress was built"), name);
      return NULL;
    }
  return tress_document_new_from_bytes (bytes, name, error);
}
