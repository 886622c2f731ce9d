/* tress-gltf-reader-plain.c: plain JSON read straight into a json-glib tree
 *
 * json-glib's parser reads a character at a time through its scanner and
 * takes most of the time of reading a glTF file with tens of thousands of
 * accessors and animation channels. The JSON exporters write is plain: ASCII,
 * no escapes but the simple ones, numbers as JSON spells them. This reads
 * such JSON and builds the tree json-glib's parser would build from it (an
 * object, members in order, integers as gint64 and other numbers as double;
 * not sealed, as sealing a tree of this size takes a third as long as
 * building it, and the reader only reads it). Anything else (non-ASCII bytes, a
 * \u escape, a repeated or empty member name, a number that is not plain,
 * comments, a syntax error) makes it give up, and the caller lets json-glib
 * read the text, which then says what is wrong in its own words.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-gltf-reader-private.h"

#include <math.h>
#include <string.h>

typedef struct
{
  const char *p, *end;
  GString *buf; /* a string being read */
  guint depth;
} Plain;

static JsonNode *plain_value (Plain *s);

static void
skip_space (Plain *s)
{
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\n' || *s->p == '\r' || *s->p == '\t'))
    s->p++;
}

/* A string after its opening quote, into s->buf; FALSE where it is not
 * plain. */
static gboolean
plain_string (Plain *s)
{
  g_string_truncate (s->buf, 0);
  for (;;)
    {
      const char *run = s->p;

      while (s->p < s->end && *s->p != '"' && *s->p != '\\' && (guchar)*s->p >= 0x20
             && (guchar)*s->p < 0x80)
        s->p++;
      g_string_append_len (s->buf, run, s->p - run);
      if (s->p >= s->end)
        return FALSE;
      if (*s->p == '"')
        {
          s->p++;
          return TRUE;
        }
      if (*s->p != '\\' || s->end - s->p < 2)
        return FALSE; /* a control character, a byte past ASCII */
      switch (s->p[1])
        {
        case '"':
        case '\\':
        case '/':
          g_string_append_c (s->buf, s->p[1]);
          break;
        case 'b':
          g_string_append_c (s->buf, '\b');
          break;
        case 'f':
          g_string_append_c (s->buf, '\f');
          break;
        case 'n':
          g_string_append_c (s->buf, '\n');
          break;
        case 'r':
          g_string_append_c (s->buf, '\r');
          break;
        case 't':
          g_string_append_c (s->buf, '\t');
          break;
        default:
          return FALSE; /* \u and anything else */
        }
      s->p += 2;
    }
}

static gboolean
is_digit (const Plain *s, const char *at)
{
  return at < s->end && *at >= '0' && *at <= '9';
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?: an integer of at most 18
 * digits as gint64, anything else with a fraction or an exponent as a
 * finite double. */
static JsonNode *
plain_number (Plain *s)
{
  const char *start = s->p, *at = s->p;
  gboolean is_float = FALSE;
  char text[64];

  if (at < s->end && *at == '-')
    at++;
  if (!is_digit (s, at))
    return NULL;
  if (*at == '0')
    at++;
  else
    while (is_digit (s, at))
      at++;
  if (at < s->end && *at == '.')
    {
      is_float = TRUE;
      if (!is_digit (s, ++at))
        return NULL;
      while (is_digit (s, at))
        at++;
    }
  if (at < s->end && (*at == 'e' || *at == 'E'))
    {
      is_float = TRUE;
      at++;
      if (at < s->end && (*at == '+' || *at == '-'))
        at++;
      if (!is_digit (s, at))
        return NULL;
      while (is_digit (s, at))
        at++;
    }
  if (at - start >= (gssize)sizeof text)
    return NULL;
  memcpy (text, start, at - start);
  text[at - start] = '\0';
  s->p = at;
  if (is_float)
    {
      double v = g_ascii_strtod (text, NULL);

      return isfinite (v) ? json_node_init_double (json_node_alloc (), v) : NULL;
    }
  if (at - start > 18 + (*start == '-'))
    return NULL;
  return json_node_init_int (json_node_alloc (), g_ascii_strtoll (text, NULL, 10));
}

static gboolean
expect (Plain *s, const char *word)
{
  gsize n = strlen (word);

  if ((gsize)(s->end - s->p) < n || memcmp (s->p, word, n) != 0)
    return FALSE;
  s->p += n;
  return TRUE;
}

static JsonNode *
plain_array (Plain *s)
{
  JsonArray *array = json_array_new ();

  skip_space (s);
  if (s->p < s->end && *s->p == ']')
    s->p++;
  else
    for (;;)
      {
        JsonNode *e = plain_value (s);

        if (e == NULL)
          {
            json_array_unref (array);
            return NULL;
          }
        json_array_add_element (array, e);
        skip_space (s);
        if (s->p < s->end && *s->p == ',')
          s->p++;
        else if (s->p < s->end && *s->p == ']')
          {
            s->p++;
            break;
          }
        else
          {
            json_array_unref (array);
            return NULL;
          }
      }
  {
    JsonNode *node = json_node_init_array (json_node_alloc (), NULL);

    json_node_take_array (node, array);
    return node;
  }
}

static JsonNode *
object_node (JsonObject *object)
{
  JsonNode *node = json_node_init_object (json_node_alloc (), NULL);

  json_node_take_object (node, object);
  return node;
}

/* One member "name": value, into @object; FALSE where it is not plain. */
static gboolean
plain_member (Plain *s, JsonObject *object)
{
  g_autofree char *long_name = NULL;
  char short_name[64];
  const char *name;
  JsonNode *member;

  skip_space (s);
  if (s->p >= s->end || *s->p != '"')
    return FALSE;
  s->p++;
  if (!plain_string (s) || s->buf->len == 0 || json_object_has_member (object, s->buf->str))
    return FALSE;
  /* (copied: the value read next takes s->buf) */
  if (s->buf->len < sizeof short_name)
    name = memcpy (short_name, s->buf->str, s->buf->len + 1);
  else
    name = long_name = g_strndup (s->buf->str, s->buf->len);
  skip_space (s);
  if (s->p >= s->end || *s->p != ':')
    return FALSE;
  s->p++;
  member = plain_value (s);
  if (member == NULL)
    return FALSE;
  json_object_set_member (object, name, member);
  return TRUE;
}

static JsonNode *
plain_object (Plain *s)
{
  JsonObject *object = json_object_new ();

  skip_space (s);
  if (s->p < s->end && *s->p == '}')
    {
      s->p++;
      return object_node (object);
    }
  for (;;)
    {
      if (!plain_member (s, object))
        break;
      skip_space (s);
      if (s->p < s->end && *s->p == ',')
        s->p++;
      else if (s->p < s->end && *s->p == '}')
        {
          s->p++;
          return object_node (object);
        }
      else
        break;
    }
  json_object_unref (object);
  return NULL;
}

static JsonNode *
plain_value (Plain *s)
{
  JsonNode *node = NULL;

  skip_space (s);
  if (s->p >= s->end)
    return NULL;
  switch (*s->p)
    {
    case '{':
      if (++s->depth > TRESS_GLTF_MAX_DEPTH)
        return NULL;
      s->p++;
      node = plain_object (s);
      s->depth--;
      break;
    case '[':
      if (++s->depth > TRESS_GLTF_MAX_DEPTH)
        return NULL;
      s->p++;
      node = plain_array (s);
      s->depth--;
      break;
    case '"':
      s->p++;
      if (plain_string (s))
        node = json_node_init_string (json_node_alloc (), s->buf->str);
      break;
    case 't':
      if (expect (s, "true"))
        node = json_node_init_boolean (json_node_alloc (), TRUE);
      break;
    case 'f':
      if (expect (s, "false"))
        node = json_node_init_boolean (json_node_alloc (), FALSE);
      break;
    case 'n':
      if (expect (s, "null"))
        node = json_node_init_null (json_node_alloc ());
      break;
    default:
      node = plain_number (s);
      break;
    }
  return node;
}

JsonNode *
reader_parse_plain_json (const char *text, gsize len)
{
  g_autoptr (GString) buf = g_string_sized_new (64);
  Plain s = { text, text + len, buf, 0 };
  JsonNode *root;

  skip_space (&s);
  if (s.p >= s.end || *s.p != '{')
    return NULL;
  root = plain_value (&s);
  if (root == NULL)
    return NULL;
  skip_space (&s);
  if (s.p != s.end)
    {
      json_node_unref (root);
      return NULL;
    }
  return root;
}
