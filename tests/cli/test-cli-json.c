/* test-cli-json.c: refusals that fit on a screen, through tress-cli as a
 * user runs it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-test-json.h"

/* Builds @text (a file) and asserts it is refused in less than 1 KB of
 * messages that name @path. */
static void
assert_short_refusal (GBytes *text, const char *path)
{
  g_autofree char *json = tj_tmp ("long.json");
  g_autofree char *out = tj_tmp ("long.out");
  g_autofree char *err = NULL;
  int status;

  tj_write (json, text);
  status = tj_run (NULL, &err, "build", json, "-o", out, NULL);
  g_assert_cmpint (status, !=, 0);
  g_test_message ("%s", err);
  g_assert_cmpuint (strlen (err), <, 1024);
  g_assert_nonnull (strstr (err, path));
  g_assert_nonnull (strstr (err, " bytes)"));
}

/* A string of @n copies of @c. */
static JsonNode *
long_string (gsize n, char c)
{
  g_autofree char *s = g_malloc (n + 1);

  memset (s, c, n);
  s[n] = '\0';
  return json_node_init_string (json_node_alloc (), s);
}

/* A 20 MB name, format, interpolation or member name: each refusal quotes
 * the string cut, with its size. */
static void
test_long_strings (void)
{
  const gsize n = 20u << 20;
  g_autofree char *cha = tj_tmp ("names.cha");
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (GBytes) text = NULL;

  g_assert_cmpint (tj_run (NULL, NULL, "generate-demo", "cha", "--ribbons", "20", "-o", cha, NULL),
                   ==, 0);
  root = tj_dump (cha);

  /* a morph name (32 bytes in the file) */
  {
    JsonArray *morphs = tj_array (root, "/morphs");
    g_autoptr (JsonNode) was = json_node_copy (json_array_get_element (morphs, 0));

    json_array_remove_element (morphs, 0);
    json_array_add_element (morphs, long_string (n, 'A'));
    text = tj_text (root);
    assert_short_refusal (text, "/morphs/");
    g_clear_pointer (&text, g_bytes_unref);
    json_array_remove_element (morphs, json_array_get_length (morphs) - 1);
    json_array_add_element (morphs, g_steal_pointer (&was));
  }

  /* the format, then a member of that name */
  {
    JsonObject *top = json_node_get_object (root);
    g_autoptr (JsonNode) format = json_node_copy (json_object_get_member (top, "format"));
    g_autofree char *name = g_malloc (n + 1);

    json_object_set_member (top, "format", long_string (n, 'B'));
    text = tj_text (root);
    assert_short_refusal (text, "/format");
    g_clear_pointer (&text, g_bytes_unref);
    json_object_set_member (top, "format", g_steal_pointer (&format));

    memset (name, 'C', n);
    name[n] = '\0';
    json_object_set_int_member (top, name, 1);
    text = tj_text (root);
    assert_short_refusal (text, "/CCCC");
    g_clear_pointer (&text, g_bytes_unref);
    json_object_remove_member (top, name);
  }

  /* broken text after a long member name */
  {
    GString *broken = g_string_new ("{\"format\": \"cha\", \"");

    for (gsize i = 0; i < n; i++)
      g_string_append_c (broken, 'D');
    g_string_append (broken, "\" 1}");
    text = g_string_free_to_bytes (broken);
    assert_short_refusal (text, "/DDDD");
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/json/long-strings", test_long_strings);
  return g_test_run ();
}
