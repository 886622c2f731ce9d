/* fuzz-json.c: libFuzzer target for tress-cli build (JSON text → file)
 *
 * Whatever the text, build refuses it with reasons at JSON Pointers, or gives
 * a model whose bytes open again; what it gives dumps and builds again to the
 * very same bytes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <json-glib/json-glib.h>
#include <stdlib.h>

#include "../fuzz/tress-fuzz.h"

#include "formats/tress-format.h"

static GBytes *
build (const TressFormat *format, const char *text, gsize len, gboolean must_work)
{
  g_autoptr (TressJsonReader) r = tress_json_reader_new (text, len);
  g_autoptr (GError) error = NULL;
  TressJsonBuild out = { NULL, NULL, 0 };
  GPtrArray *problems;
  GBytes *bytes;

  if (!format->build (r, &out))
    {
      problems = tress_json_reader_get_problems (r);
      if (must_work || tress_json_reader_n_errors (r) == 0)
        abort ();
      for (guint i = 0; i < problems->len; i++)
        {
          const TressProblem *p = g_ptr_array_index (problems, i);
          if (p->location == NULL || p->message == NULL || p->message[0] == '\0')
            abort ();
        }
      return NULL;
    }
  if (out.model == NULL)
    abort ();
  bytes = format->serialize (out.model, &error);
  if (bytes == NULL)
    abort ();
  format->free (out.model);
  g_clear_pointer (&out.original, g_bytes_unref);
  return bytes;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (TressJsonReader) r = tress_json_reader_new ((const char *)data, size);
  g_autofree char *format_id = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GBytes) again = NULL;
  g_autoptr (GBytes) text = NULL;
  g_autoptr (GError) error = NULL;
  const TressFormat *format;
  gint64 version = 0;
  gpointer model;
  TressJsonWriter *w;

  if (!tress_json_reader_read_header (r, &format_id, &version))
    return 0;
  format = tress_format_lookup (format_id);
  if (format == NULL || format->build == NULL)
    return 0;
  bytes = build (format, (const char *)data, size, FALSE);
  if (bytes == NULL)
    return 0;
  /* what build made opens, and goes through dump → build unchanged */
  model = format->parse (bytes, "fuzz", &error);
  if (model == NULL)
    abort ();
  w = tress_json_writer_new ();
  format->dump (model, w);
  format->free (model);
  text = tress_json_writer_free_to_bytes (w);
  again = build (format, g_bytes_get_data (text, NULL), g_bytes_get_size (text), TRUE);
  if (!g_bytes_equal (bytes, again))
    abort ();
  return 0;
}

/* ---- the mutator ----------------------------------------------------------
 *
 * Byte flips mostly break the JSON itself, and build never sees past the
 * parser. Three times in four this mutator parses the text and writes it out
 * again with one node changed: a number to a neighbour or a boundary of the
 * binary fields, a string's bytes or a string from elsewhere in the text, a
 * boolean flipped, an array's element dropped, repeated or swapped, an
 * object's member dropped or renamed to a key of another object, or a node
 * written as another node of the text. Otherwise, or when the text is no
 * JSON, it changes the bytes as they are. (The tree is only read, and
 * written again with the dump's writer: json-glib 1.6 cannot change a node's
 * kind in place safely.) */

typedef struct
{
  GPtrArray *nodes;   /* every node, in document order */
  GPtrArray *strings; /* the string values' nodes */
  GPtrArray *keys;    /* (const char *) every member name */
  JsonNode *target;   /* the node written changed */
  guint32 state;
  TressJsonWriter *w; /* the project's own writer: escapes, numbers, separators */
} Mutation;

static void
collect (JsonNode *node, Mutation *m)
{
  g_ptr_array_add (m->nodes, node);
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, &name, &member))
        {
          g_ptr_array_add (m->keys, (gpointer)name);
          collect (member, m);
        }
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        collect (json_array_get_element (array, i), m);
    }
  else if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    g_ptr_array_add (m->strings, node);
}

static guint
draw (Mutation *m, guint n)
{
  return n > 0 ? tress_fuzz_next (&m->state) % n : 0;
}

static void put_node (Mutation *m, JsonNode *node);

#define NONE G_MAXUINT

typedef enum
{
  AS_IT_IS,
  DROP,   /* element k left out */
  REPEAT, /* element k written twice */
  SWAP    /* elements k and j change places */
} ArrayEdit;

static void
put_array (Mutation *m, JsonArray *array, ArrayEdit edit, guint k, guint j)
{
  tress_json_begin_array_compact (m->w);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      guint which = edit == SWAP && i == k ? j : edit == SWAP && i == j ? k : i;

      if (edit == DROP && i == k)
        continue;
      for (guint times = edit == REPEAT && i == k ? 2 : 1; times > 0; times--)
        put_node (m, json_array_get_element (array, which));
    }
  tress_json_end_array (m->w);
}

/* Member @k left out (@key NULL) or named @key; NONE: the object as it is. */
static void
put_object (Mutation *m, JsonObject *object, guint k, const char *key)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;
  guint i = 0;

  tress_json_begin_object_compact (m->w);
  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &name, &member))
    {
      if (i++ == k)
        {
          if (key == NULL)
            continue;
          name = key;
        }
      tress_json_member (m->w, name);
      put_node (m, member);
    }
  tress_json_end_object (m->w);
}

static void
put_number (Mutation *m, JsonNode *node)
{
  static const gint64 edges[]
      = { 0,          1,          -1,         2,          3,
          7,          8,          15,         16,         127,
          128,        255,        256,        32767,      32768,
          65535,      65536,      G_MAXINT32, G_MININT32, (gint64)G_MAXUINT32,
          G_MAXINT64, G_MININT64, 0x3FFFFFFF, 0x7FFFFF };
  static const double reals[] = { 0.5, -0.0, 1e-40, 3.4e38, 3.5e38, 1e308, -1e308, 65504 };
  gboolean is_int = json_node_get_value_type (node) == G_TYPE_INT64;
  double d = is_int ? (double)json_node_get_int (node) : json_node_get_double (node);
  gint64 i = is_int ? json_node_get_int (node) : (gint64)CLAMP (d, -1e18, 1e18);
  guint64 bits;

  switch (draw (m, 6))
    {
    case 0:
      tress_json_add_int (m->w, edges[draw (m, G_N_ELEMENTS (edges))]);
      break;
    case 1:
      /* (wrapping at the ends, as unsigned sums do) */
      tress_json_add_int (m->w, (gint64)((guint64)i + (guint64)draw (m, 5) - 2));
      break;
    case 2:
      tress_json_add_int (m->w, i > G_MININT64 ? -i : 0);
      break;
    case 3:
      bits = tress_fuzz_next (&m->state);
      tress_json_add_int (m->w, (gint64)(bits << draw (m, 40))); /* below 2^63 */
      break;
    case 4:
      tress_json_add_double (m->w, reals[draw (m, G_N_ELEMENTS (reals))]);
      break;
    default:
      tress_json_add_double (m->w, d * (draw (m, 2) ? 2 : 0.5) + 0.25);
      break;
    }
}

static void
put_changed_string (Mutation *m, JsonNode *node)
{
  const char *s = json_node_get_string (node);
  gsize len = strlen (s), room = len + 16;
  g_autofree char *buf = NULL;

  if (m->strings->len > 1 && draw (m, 2))
    {
      s = json_node_get_string (g_ptr_array_index (m->strings, draw (m, m->strings->len)));
      tress_json_add_string (m->w, s);
      return;
    }
  buf = g_malloc (room);
  memcpy (buf, s, len);
  tress_json_add_string_len (m->w, buf, LLVMFuzzerMutate ((uint8_t *)buf, len, room));
}

/* @node written changed; FALSE (nothing written) when it cannot be. */
static gboolean
put_changed (Mutation *m, JsonNode *node)
{
  JsonNode *other = g_ptr_array_index (m->nodes, draw (m, m->nodes->len));

  if (draw (m, 4) == 0 && other != node)
    {
      put_node (m, other); /* the target inside, if it is, as it was */
      return TRUE;
    }
  if (JSON_NODE_HOLDS_NULL (node))
    tress_json_add_int (m->w, 0);
  else if (JSON_NODE_HOLDS_VALUE (node))
    {
      GType type = json_node_get_value_type (node);

      if (type == G_TYPE_STRING)
        put_changed_string (m, node);
      else if (type == G_TYPE_BOOLEAN)
        tress_json_add_bool (m->w, !json_node_get_boolean (node));
      else
        put_number (m, node);
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      guint n = json_array_get_length (array);

      if (n == 0)
        return FALSE;
      put_array (m, array, DROP + draw (m, 3), draw (m, n), draw (m, n));
    }
  else
    {
      JsonObject *object = json_node_get_object (node);
      guint n = json_object_get_size (object);

      if (n == 0)
        return FALSE;
      put_object (m, object, draw (m, n),
                  draw (m, 2) ? NULL : g_ptr_array_index (m->keys, draw (m, m->keys->len)));
    }
  return TRUE;
}

static void
put_node (Mutation *m, JsonNode *node)
{
  if (node == m->target)
    {
      m->target = NULL; /* changed once */
      if (put_changed (m, node))
        return;
    }
  if (JSON_NODE_HOLDS_NULL (node))
    tress_json_add_null (m->w);
  else if (JSON_NODE_HOLDS_VALUE (node))
    {
      GType type = json_node_get_value_type (node);

      if (type == G_TYPE_STRING)
        tress_json_add_string (m->w, json_node_get_string (node));
      else if (type == G_TYPE_BOOLEAN)
        tress_json_add_bool (m->w, json_node_get_boolean (node));
      else if (type == G_TYPE_INT64)
        tress_json_add_int (m->w, json_node_get_int (node));
      else
        tress_json_add_double (m->w, json_node_get_double (node));
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    put_array (m, json_node_get_array (node), AS_IT_IS, NONE, NONE);
  else
    put_object (m, json_node_get_object (node), NONE, NULL);
}

size_t
LLVMFuzzerCustomMutator (uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (GPtrArray) nodes = g_ptr_array_new ();
  g_autoptr (GPtrArray) strings = g_ptr_array_new ();
  g_autoptr (GPtrArray) keys = g_ptr_array_new ();
  g_autoptr (GBytes) text = NULL;
  Mutation m = { nodes, strings, keys, NULL, seed, NULL };
  JsonNode *root;
  gsize len;

  if (draw (&m, 4) == 0)
    return LLVMFuzzerMutate (data, size, max_size);
  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, (const char *)data, (gssize)size, NULL)
      || (root = json_parser_get_root (parser)) == NULL)
    return LLVMFuzzerMutate (data, size, max_size);
  collect (root, &m);
  if (keys->len == 0)
    g_ptr_array_add (keys, (gpointer) "format");
  m.target = g_ptr_array_index (nodes, draw (&m, nodes->len));
  m.w = tress_json_writer_new ();
  put_node (&m, root);
  text = tress_json_writer_free_to_bytes (m.w);
  len = g_bytes_get_size (text);
  if (len > max_size)
    return LLVMFuzzerMutate (data, size, max_size);
  memcpy (data, g_bytes_get_data (text, NULL), len);
  return len;
}
