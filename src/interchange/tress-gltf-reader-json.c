/* tress-gltf-reader-json.c: JSON values of glTF files, and messages naming their paths
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-gltf-reader-private.h"

#include <math.h>
#include <string.h>

#include "core/tress-error.h"

gboolean
reader_error (GError **error, const char *path, const char *format, ...)
{
  g_autofree char *msg = NULL;
  va_list args;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE, "%s: %s", path, msg);
  return FALSE;
}

gboolean
reader_member_error (GError **error, const char *path, const char *member, const char *format, ...)
{
  g_autofree char *msg = NULL;
  va_list args;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE, "%s.%s: %s", path, member, msg);
  return FALSE;
}

gboolean
reader_element_error (GError **error, const char *path, const char *member, guint index,
                      const char *format, ...)
{
  g_autofree char *msg = NULL;
  va_list args;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE, "%s%s%s[%u]: %s", path,
               path[0] != '\0' ? "." : "", member, index, msg);
  return FALSE;
}

char *
reader_describe (JsonNode *node)
{
  GType type;

  if (node == NULL)
    return g_strdup ("nothing");
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      return g_strdup ("an object");
    case JSON_NODE_ARRAY:
      return g_strdup ("an array");
    case JSON_NODE_NULL:
      return g_strdup ("null");
    default:
      break;
    }
  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
  if (type == G_TYPE_DOUBLE)
    return g_strdup_printf ("%.17g", json_node_get_double (node));
  if (type == G_TYPE_BOOLEAN)
    return g_strdup (json_node_get_boolean (node) ? "true" : "false");
  if (type == G_TYPE_STRING)
    {
      const char *s = json_node_get_string (node);
      g_autofree char *cut = g_utf8_make_valid (s, MIN (strlen (s), 40));

      return g_strdup_printf ("\"%s%s\"", cut, strlen (s) > 40 ? "…" : "");
    }
  return g_strdup ("a value");
}

gboolean
reader_get_objects (JsonObject *root, const char *name, JsonArray **out, GError **error)
{
  JsonNode *node = json_object_get_member (root, name);
  JsonArray *a;

  *out = NULL;
  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_autofree char *found = reader_describe (node);
      return reader_error (error, name, "expected an array, found %s", found);
    }
  a = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (a); i++)
    if (!JSON_NODE_HOLDS_OBJECT (json_array_get_element (a, i)))
      {
        g_autofree char *found = reader_describe (json_array_get_element (a, i));
        return reader_element_error (error, "", name, i, "expected an object, found %s", found);
      }
  *out = a;
  return TRUE;
}

JsonObject *
reader_element (JsonArray *array, guint i)
{
  return json_array_get_object_element (array, i);
}

static gboolean
is_integer (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node)
         && json_node_get_value_type (node) == G_TYPE_INT64;
}

gboolean
reader_get_index (JsonObject *object, const char *path, const char *member, guint limit,
                  const char *what, gboolean required, int *out, GError **error)
{
  JsonNode *node = json_object_get_member (object, member);
  g_autofree char *at = g_strdup_printf ("%s.%s", path, member);
  gint64 v;

  *out = -1;
  if (node == NULL)
    {
      if (required)
        return reader_error (error, at, "missing (an index into %s)", what);
      return TRUE;
    }
  if (!is_integer (node))
    {
      g_autofree char *found = reader_describe (node);
      return reader_error (error, at, "expected an index into %s, found %s", what, found);
    }
  v = json_node_get_int (node);
  if (v < 0 || v >= (gint64)limit)
    return reader_error (error, at,
                         "expected an index into %s (%u of them), found %" G_GINT64_FORMAT, what,
                         limit, v);
  *out = (int)v;
  return TRUE;
}

gboolean
reader_get_size (JsonObject *object, const char *path, const char *member, gint64 min, gint64 max,
                 gint64 fallback, gint64 *out, GError **error)
{
  JsonNode *node = json_object_get_member (object, member);

  *out = fallback;
  if (node == NULL)
    return TRUE;
  if (!is_integer (node) || json_node_get_int (node) < min || json_node_get_int (node) > max)
    {
      g_autofree char *found = reader_describe (node);
      g_autofree char *at = g_strdup_printf ("%s.%s", path, member);

      return reader_error (error, at,
                           "expected a whole number from %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT
                           ", found %s",
                           min, max, found);
    }
  *out = json_node_get_int (node);
  return TRUE;
}

gboolean
reader_get_string (JsonObject *object, const char *path, const char *member, const char **out,
                   GError **error)
{
  JsonNode *node = json_object_get_member (object, member);

  *out = NULL;
  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_autofree char *found = reader_describe (node);
      g_autofree char *at = g_strdup_printf ("%s.%s", path, member);

      return reader_error (error, at, "expected a string, found %s", found);
    }
  *out = json_node_get_string (node);
  return TRUE;
}

gboolean
reader_get_numbers (JsonObject *object, const char *path, const char *member, guint n, double *out,
                    GError **error)
{
  JsonNode *node = json_object_get_member (object, member);
  g_autofree char *at = g_strdup_printf ("%s.%s", path, member);
  JsonArray *a;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node) || json_array_get_length (json_node_get_array (node)) != n)
    {
      g_autofree char *found = reader_describe (node);
      return reader_error (error, at, "expected an array of %u numbers, found %s", n, found);
    }
  a = json_node_get_array (node);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *e = json_array_get_element (a, i);
      GType t = JSON_NODE_HOLDS_VALUE (e) ? json_node_get_value_type (e) : G_TYPE_INVALID;

      if (t != G_TYPE_INT64 && t != G_TYPE_DOUBLE)
        {
          g_autofree char *found = reader_describe (e);
          return reader_element_error (error, path, member, i, "expected a number, found %s",
                                       found);
        }
      out[i] = t == G_TYPE_INT64 ? (double)json_node_get_int (e) : json_node_get_double (e);
      if (!isfinite (out[i]))
        return reader_element_error (error, path, member, i, "expected a finite number");
    }
  return TRUE;
}
