/* tress-test-json.h: editing dump's JSON in tests, and running build as a user does
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "tress-test-utils.h"

static inline char *
tj_tmp (const char *name)
{
  return g_build_filename (tress_test_tmpdir (), name, NULL);
}

static inline GBytes *
tj_read (const char *path)
{
  char *contents = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  return g_bytes_new_take (contents, len);
}

static inline void
tj_write (const char *path, GBytes *bytes)
{
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize)g_bytes_get_size (bytes), NULL));
}

static inline JsonNode *
tj_parse (GBytes *text)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  json_parser_load_from_data (parser, g_bytes_get_data (text, NULL),
                              (gssize)g_bytes_get_size (text), &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static inline GBytes *
tj_text (JsonNode *node)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  gsize len = 0;
  char *text;

  json_generator_set_root (gen, node);
  text = json_generator_to_data (gen, &len);
  return g_bytes_new_take (text, len);
}

/* tress-cli with arguments up to NULL; stdout and stderr into *out and *err (may be NULL). */
static inline int
tj_run (char **out, char **err, ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  const char *a;
  va_list ap;

  va_start (ap, err);
  while ((a = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, (gpointer)a);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  return tress_test_run_cli ((const char *const *)args->pdata, out, err);
}

/* The JSON of `tress-cli dump @path`, parsed. */
static inline JsonNode *
tj_dump (const char *path)
{
  g_autofree char *json = tj_tmp ("dumped.json");
  g_autoptr (GBytes) text = NULL;

  g_assert_cmpint (tj_run (NULL, NULL, "dump", path, "-o", json, NULL), ==, 0);
  text = tj_read (json);
  return tj_parse (text);
}

/* `tress-cli build` of @root: the exit status, the bytes written (NULL when
 * none were) and the messages. */
static inline int
tj_build (JsonNode *root, const char *ext, GBytes **out, char **err)
{
  g_autofree char *json = tj_tmp ("edited.json");
  g_autofree char *name = g_strconcat ("built.", ext, NULL);
  g_autofree char *file = tj_tmp (name);
  g_autoptr (GBytes) text = tj_text (root);
  int status;

  g_unlink (file);
  tj_write (json, text);
  if (g_getenv ("TJ_KEEP") != NULL)
    tj_write (g_getenv ("TJ_KEEP"), text);
  status = tj_run (NULL, err, "build", json, "-o", file, NULL);
  if (out != NULL)
    *out = g_file_test (file, G_FILE_TEST_EXISTS) ? tj_read (file) : NULL;
  return status;
}

/* Builds @root and asserts it is refused with a message at @path holding @words. */
static inline void
tj_assert_refused (JsonNode *root, const char *ext, const char *path, const char *words)
{
  g_autofree char *err = NULL;
  g_autoptr (GBytes) out = NULL;
  g_autofree char *where = g_strconcat (path, ": ", NULL);

  g_assert_cmpint (tj_build (root, ext, &out, &err), ==, 1);
  g_assert_null (out);
  if (strstr (err, where) == NULL || (words != NULL && strstr (err, words) == NULL))
    g_error ("expected a refusal at %s (%s), got:\n%s", path, words, err);
  g_assert_nonnull (strstr (err, "nothing written"));
}

/* A JSON Pointer's value (objects and arrays only; no escapes). */
static inline JsonNode *
tj_at (JsonNode *root, const char *pointer)
{
  g_auto (GStrv) parts = g_strsplit (pointer, "/", -1);
  JsonNode *n = root;

  for (guint i = 1; parts[i] != NULL; i++)
    {
      if (JSON_NODE_HOLDS_ARRAY (n))
        n = json_array_get_element (json_node_get_array (n),
                                    (guint)g_ascii_strtoull (parts[i], NULL, 10));
      else
        n = json_object_get_member (json_node_get_object (n), parts[i]);
      g_assert_nonnull (n);
    }
  return n;
}

static inline JsonObject *
tj_object (JsonNode *root, const char *pointer)
{
  return json_node_get_object (tj_at (root, pointer));
}

static inline JsonArray *
tj_array (JsonNode *root, const char *pointer)
{
  return json_node_get_array (tj_at (root, pointer));
}
