/* test-gltf-plain-json.c: the glTF reader's own reading of plain JSON
 *
 * reader_parse_plain_json() must give the very tree json-glib's parser
 * gives (the same members in the same order, integers as gint64 and
 * other numbers as the same double, bit for bit), or nothing, so that
 * json-glib reads the text: on the exports the writer makes, on JSON
 * crafted at the edges of what it takes, and on thousands of texts mutated
 * from a glTF document, where everything it takes json-glib must take alike.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "formats/bfres/tress-bfres-builder.h"
#include "interchange/tress-gltf-bfres.h"
#include "interchange/tress-gltf-reader-private.h"
#include "tress-test-utils.h"

/* Whether @a and @b are the same tree: types, values (doubles bit for bit),
 * members in order. */
static gboolean
same_tree (JsonNode *a, JsonNode *b)
{
  if (json_node_get_node_type (a) != json_node_get_node_type (b))
    return FALSE;
  switch (json_node_get_node_type (a))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *oa = json_node_get_object (a), *ob = json_node_get_object (b);
        g_autoptr (GList) ma = json_object_get_members (oa);
        g_autoptr (GList) mb = json_object_get_members (ob);

        if (g_list_length (ma) != g_list_length (mb))
          return FALSE;
        for (GList *x = ma, *y = mb; x != NULL; x = x->next, y = y->next)
          if (strcmp (x->data, y->data) != 0
              || !same_tree (json_object_get_member (oa, x->data),
                             json_object_get_member (ob, y->data)))
            return FALSE;
        return TRUE;
      }
    case JSON_NODE_ARRAY:
      {
        JsonArray *xa = json_node_get_array (a), *xb = json_node_get_array (b);

        if (json_array_get_length (xa) != json_array_get_length (xb))
          return FALSE;
        for (guint i = 0; i < json_array_get_length (xa); i++)
          if (!same_tree (json_array_get_element (xa, i), json_array_get_element (xb, i)))
            return FALSE;
        return TRUE;
      }
    case JSON_NODE_VALUE:
      if (json_node_get_value_type (a) != json_node_get_value_type (b))
        return FALSE;
      if (json_node_get_value_type (a) == G_TYPE_INT64)
        return json_node_get_int (a) == json_node_get_int (b);
      if (json_node_get_value_type (a) == G_TYPE_DOUBLE)
        {
          double da = json_node_get_double (a), db = json_node_get_double (b);

          return memcmp (&da, &db, sizeof da) == 0;
        }
      if (json_node_get_value_type (a) == G_TYPE_BOOLEAN)
        return json_node_get_boolean (a) == json_node_get_boolean (b);
      return g_strcmp0 (json_node_get_string (a), json_node_get_string (b)) == 0;
    case JSON_NODE_NULL:
    default:
      return TRUE;
    }
}

/* What json-glib's immutable parser makes of @text, or NULL. */
static JsonNode *
json_glib_tree (const char *text, gsize len)
{
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  JsonNode *root;

  if (!json_parser_load_from_data (parser, text, (gssize)len, NULL))
    return NULL;
  root = json_parser_get_root (parser);
  return root != NULL ? json_node_ref (root) : NULL;
}

/* Whether the plain reader takes @text; where it does, json-glib must
 * read the same tree from it. */
static gboolean
plain_as_json_glib (const char *text, gsize len)
{
  JsonNode *plain = reader_parse_plain_json (text, len);
  JsonNode *glib;

  if (plain == NULL)
    return FALSE;
  glib = json_glib_tree (text, len);
  if (glib == NULL || !same_tree (plain, glib))
    g_error ("the plain reader reads %.*s otherwise than json-glib", (int)MIN (len, 200), text);
  json_node_unref (plain);
  json_node_unref (glib);
  return TRUE;
}

/* ---- the writer's JSON --------------------------------------------------------- */

/* The JSON chunk of @glb. */
static GBytes *
json_chunk (GBytes *glb)
{
  const guint8 *d = g_bytes_get_data (glb, NULL);
  guint32 n = (guint32)d[12] | (guint32)d[13] << 8 | (guint32)d[14] << 16 | (guint32)d[15] << 24;

  return g_bytes_new_from_bytes (glb, 20, n);
}

static void
check_export (GBytes *fres)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TressBfres) bfres = tress_bfres_parse (fres, "test.bfres", &error);
  g_autoptr (TressGltfWriter) w = NULL;
  g_autoptr (GBytes) glb = NULL, json = NULL;
  gsize len;
  const char *text;

  g_assert_no_error (error);
  w = tress_gltf_bfres_export (bfres, fres, "test.bfres", NULL, NULL, &error);
  g_assert_no_error (error);
  glb = tress_gltf_writer_to_glb (w, &error);
  g_assert_no_error (error);
  json = json_chunk (glb);
  text = g_bytes_get_data (json, &len);
  /* (the chunk is padded with spaces) */
  g_assert_true (plain_as_json_glib (text, len));
}

/* The exports of the demo and of a generated file are plain JSON, read as
 * json-glib reads them. */
static void
test_exports (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) demo = tress_bfres_build_demo (&error);
  g_autoptr (GBytes) big = NULL;

  g_assert_no_error (error);
  check_export (demo);
  big = tress_bfres_build_test_file (20, 500, 4, 8, &error);
  g_assert_no_error (error);
  check_export (big);
}

/* ---- the edges ------------------------------------------------------------------- */

static void
test_edges (void)
{
  static const char *const taken[] = {
    "{}",
    " \t\r\n{ } \n",
    "{\"a\":[]}",
    "{\"a\":[ ],\"b\":{ }}",
    "{\"n\":0,\"m\":-0,\"i\":-12,\"j\":123456789012345678,\"k\":-123456789012345678}",
    "{\"d\":0.5,\"e\":-0.0,\"f\":1e3,\"g\":1E-2,\"h\":-2.5e+10,\"x\":0.1,\"y\":3."
    "4028234663852886e38}",
    "{\"s\":\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\te\",\"t\":\"\"}",
    "{\"t\":true,\"f\":false,\"z\":null,\"a\":[1,2.0,\"3\",[4,[5]],{\"b\":6}]}",
    "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"Bone_001\",\"translation\":[0,1.5,-2]}"
    "]}",
  };
  static const char *const refused[] = {
    "",
    "[]",
    "\"a\"",
    "{\"a\":1,}",
    "{\"a\":[1,]}",
    "{\"a\":1 \"b\":2}",
    "{\"a\":1}x",
    "{\"a\":1}{}",
    "{\"a\":01}",
    "{\"a\":1.}",
    "{\"a\":.5}",
    "{\"a\":+1}",
    "{\"a\":1e}",
    "{\"a\":-}",
    "{\"a\":0x10}",
    "{\"a\":1234567890123456789}",
    "{\"a\":1e400}",
    "{\"a\":NaN}",
    "{\"a\":tru}",
    "{\"a\":\"\\u0041\"}",
    "{\"a\":\"\\x\"}",
    "{\"a\":\"caf\xc3\xa9\"}",
    "{\"a\":\"line\nbreak\"}",
    "{\"a\":1,\"a\":2}",
    "{\"\":1}",
    "{a:1}",
    "{\"a\":1 /* note */}",
    "{\"a\":1}\f",
    "\xef\xbb\xbf{}",
    "{\"a\":\"unterminated}",
    "{\"a\":[1,2}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (taken); i++)
    if (!plain_as_json_glib (taken[i], strlen (taken[i])))
      g_error ("the plain reader does not take %s", taken[i]);
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      JsonNode *n = reader_parse_plain_json (refused[i], strlen (refused[i]));

      if (n != NULL)
        g_error ("the plain reader takes %s", refused[i]);
    }
  /* Deeper than the reader allows: not taken. */
  {
    g_autoptr (GString) deep = g_string_new ("{\"a\":");

    for (guint i = 0; i < TRESS_GLTF_MAX_DEPTH + 1; i++)
      g_string_append_c (deep, '[');
    for (guint i = 0; i < TRESS_GLTF_MAX_DEPTH + 1; i++)
      g_string_append_c (deep, ']');
    g_string_append_c (deep, '}');
    g_assert_null (reader_parse_plain_json (deep->str, deep->len));
  }
}

/* ---- mutations ----------------------------------------------------------------------- */

/* Texts mutated from a small glTF document (bytes changed, spans removed or
 * repeated): whatever the plain reader takes, json-glib reads alike. */
static void
test_mutations (void)
{
  static const char base[]
      = "{\"asset\":{\"version\":\"2.0\",\"generator\":\"x\\ty\"},\"scene\":0,"
        "\"nodes\":[{\"name\":\"Root\",\"children\":[1]},{\"name\":\"B\",\"rotation\":[0,0,"
        "0.70710678118654757,0.70710678118654757],\"translation\":[-1.5e-3,2,3E2]}],"
        "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\","
        "\"min\":[-1,-2,-3],\"max\":[1,2,3],\"normalized\":false}],\"extras\":null}";
  static const char alphabet[] = "{}[]:,\"\\ 0123456789-+.eEtrufalsn/\nx\xc3";
  GRand *rand = g_rand_new_with_seed (29);
  guint taken = 0, n = 20000;

  g_assert_true (plain_as_json_glib (base, strlen (base)));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GString) t = g_string_new (base);
      guint edits = g_rand_int_range (rand, 1, 4);

      for (guint e = 0; e < edits && t->len > 0; e++)
        {
          guint at = g_rand_int_range (rand, 0, (gint32)t->len);
          guint what = g_rand_int_range (rand, 0, 4), len = g_rand_int_range (rand, 1, 24);
          char c = alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)];

          if (what == 0)
            t->str[at] = c;
          else if (what == 1)
            g_string_insert_c (t, at, c);
          else if (what == 2)
            g_string_erase (t, at, MIN (len / 3 + 1, t->len - at));
          else
            {
              g_autofree char *span = g_strndup (t->str + at, MIN (len, t->len - at));

              g_string_insert (t, g_rand_int_range (rand, 0, (gint32)t->len + 1), span);
            }
        }
      taken += plain_as_json_glib (t->str, t->len);
    }
  g_test_message ("%u of %u mutated texts taken by the plain reader, all as json-glib reads them",
                  taken, n);
  g_assert_cmpuint (taken, >, n / 50);
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gltf-plain-json/exports", test_exports);
  g_test_add_func ("/gltf-plain-json/edges", test_edges);
  g_test_add_func ("/gltf-plain-json/mutations", test_mutations);
  return g_test_run ();
}
