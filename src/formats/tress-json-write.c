/* tress-json-write.c: the JSON writer's values and members
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-json-private.h"

#include <errno.h>
#include <gio/gio.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

static void
append_string (GString *out, const char *s, gsize len)
{
  static const char hex[] = "0123456789abcdef";
  const char *end = s + len;

  g_string_append_c (out, '"');
  while (s < end)
    {
      const char *run = s;

      while (s < end && (guchar)*s >= 0x20 && *s != '"' && *s != '\\')
        s++;
      g_string_append_len (out, run, s - run);
      if (s == end)
        break;
      switch (*s)
        {
        case '"':
          g_string_append (out, "\\\"");
          break;
        case '\\':
          g_string_append (out, "\\\\");
          break;
        case '\n':
          g_string_append (out, "\\n");
          break;
        case '\t':
          g_string_append (out, "\\t");
          break;
        case '\r':
          g_string_append (out, "\\r");
          break;
        default:
          g_string_append (out, "\\u00");
          g_string_append_c (out, hex[(guchar)*s >> 4]);
          g_string_append_c (out, hex[(guchar)*s & 15]);
          break;
        }
      s++;
    }
  g_string_append_c (out, '"');
}

void
tress_json_member (TressJsonWriter *w, const char *name)
{
  WFrame *f = _tress_json_top_frame (w);

  g_return_if_fail (f != NULL && !f->array);
  if (w->out == NULL)
    {
      if (w->cap != NULL)
        {
          if (w->skip_depth > 0)
            return;
          if (_tress_json_skip_member (w, name))
            w->skip_next = TRUE;
          else
            json_builder_set_member_name (w->cap, name);
          if (w->prune != NULL)
            {
              g_free (w->member);
              w->member = g_strdup (name);
            }
        }
      else if (f->live)
        {
          g_free (w->member);
          w->member = g_strdup (name);
        }
      /* count is raised by the value */
      return;
    }
  if (w->digest != NULL)
    {
      if (w->skip_depth > 0)
        return;
      if (_tress_json_skip_member (w, name))
        {
          w->skip_next = TRUE;
          return;
        }
      g_free (w->member);
      w->member = g_strdup (name);
    }
  if (f->count > 0)
    g_string_append_c (w->out, ',');
  if (w->compact_depth > 0)
    {
      if (f->count > 0)
        g_string_append_c (w->out, ' ');
    }
  else
    _tress_json_indent (w, w->frames->len);
  append_string (w->out, name, strlen (name));
  g_string_append (w->out, ": ");
  /* The value that follows must not add an element separator: members are
   * counted before their value, so make the frame look like an object. */
}

void
tress_json_add_null (TressJsonWriter *w)
{
  if (!_tress_json_scalar_begin (w))
    return;
  if (w->out != NULL)
    g_string_append (w->out, "null");
  else
    json_builder_add_null_value (w->cap);
  _tress_json_scalar_end (w);
}

void
tress_json_add_bool (TressJsonWriter *w, gboolean v)
{
  if (!_tress_json_scalar_begin (w))
    return;
  if (w->out != NULL)
    g_string_append (w->out, v ? "true" : "false");
  else
    json_builder_add_boolean_value (w->cap, v);
  _tress_json_scalar_end (w);
}

void
tress_json_add_int (TressJsonWriter *w, gint64 v)
{
  if (!_tress_json_scalar_begin (w))
    return;
  if (w->out != NULL)
    {
      char buf[24];
      g_string_append_len (w->out, buf, _tress_json_put_int (buf, v));
    }
  else
    json_builder_add_int_value (w->cap, v);
  _tress_json_scalar_end (w);
}

void
tress_json_add_double (TressJsonWriter *w, double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (v))
    {
      tress_json_add_null (w);
      return;
    }
  if (!_tress_json_scalar_begin (w))
    return;
  if (w->out != NULL)
    {
      _tress_json_format_double (buf, sizeof buf, v);
      g_string_append (w->out, buf);
    }
  else
    json_builder_add_double_value (w->cap, v);
  _tress_json_scalar_end (w);
}

void
tress_json_add_float_bits (TressJsonWriter *w, guint32 bits)
{
  float v;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  memcpy (&v, &bits, 4);
  if (!isfinite (v))
    {
      g_snprintf (buf, sizeof buf, "0x%08x", bits);
      tress_json_add_string (w, buf);
      return;
    }
  if (!_tress_json_scalar_begin (w))
    return;
  if (w->out != NULL)
    {
      _tress_json_format_float (buf, sizeof buf, v);
      g_string_append (w->out, buf);
    }
  else
    {
      /* The same value the text would read back as (a captured float is
       * compared with what the reader captured from the text). */
      _tress_json_format_float (buf, sizeof buf, v);
      json_builder_add_double_value (w->cap, g_ascii_strtod (buf, NULL));
    }
  _tress_json_scalar_end (w);
}

void
tress_json_add_float (TressJsonWriter *w, float v)
{
  guint32 bits;

  memcpy (&bits, &v, 4);
  tress_json_add_float_bits (w, bits);
}

void
tress_json_add_string_len (TressJsonWriter *w, const char *s, gsize len)
{
  g_autofree char *valid = NULL;

  if (!g_utf8_validate_len (s, len, NULL))
    {
      valid = g_utf8_make_valid (s, (gssize)len);
      s = valid;
      len = strlen (valid);
    }
  if (!_tress_json_scalar_begin (w))
    return;
  if (w->out != NULL)
    append_string (w->out, s, len);
  else
    {
      g_autofree char *copy = g_strndup (s, len);
      json_builder_add_string_value (w->cap, copy);
    }
  _tress_json_scalar_end (w);
}

void
tress_json_add_string (TressJsonWriter *w, const char *s)
{
  if (s == NULL)
    tress_json_add_null (w);
  else
    tress_json_add_string_len (w, s, strlen (s));
}

void
tress_json_add_base64 (TressJsonWriter *w, const void *data, gsize len)
{
  g_autofree char *text = g_base64_encode (data, len);

  tress_json_add_string (w, text);
}

void
tress_json_add_node (TressJsonWriter *w, JsonNode *node)
{
  if (node == NULL)
    {
      tress_json_add_null (w);
      return;
    }
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        tress_json_begin_object (w);
        json_object_iter_init_ordered (&iter, json_node_get_object (node));
        while (json_object_iter_next_ordered (&iter, &name, &member))
          {
            tress_json_member (w, name);
            tress_json_add_node (w, member);
          }
        tress_json_end_object (w);
        break;
      }
    case JSON_NODE_ARRAY:
      {
        JsonArray *a = json_node_get_array (node);

        tress_json_begin_array (w);
        for (guint i = 0; i < json_array_get_length (a); i++)
          tress_json_add_node (w, json_array_get_element (a, i));
        tress_json_end_array (w);
        break;
      }
    case JSON_NODE_NULL:
      tress_json_add_null (w);
      break;
    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_BOOLEAN:
          tress_json_add_bool (w, json_node_get_boolean (node));
          break;
        case G_TYPE_INT64:
          tress_json_add_int (w, json_node_get_int (node));
          break;
        case G_TYPE_DOUBLE:
          tress_json_add_double (w, json_node_get_double (node));
          break;
        default:
          tress_json_add_string (w, json_node_get_string (node));
          break;
        }
      break;
    }
}

void
tress_json_int_member (TressJsonWriter *w, const char *name, gint64 v)
{
  tress_json_member (w, name);
  tress_json_add_int (w, v);
}

void
tress_json_bool_member (TressJsonWriter *w, const char *name, gboolean v)
{
  tress_json_member (w, name);
  tress_json_add_bool (w, v);
}

void
tress_json_double_member (TressJsonWriter *w, const char *name, double v)
{
  tress_json_member (w, name);
  tress_json_add_double (w, v);
}

void
tress_json_float_member (TressJsonWriter *w, const char *name, float v)
{
  tress_json_member (w, name);
  tress_json_add_float (w, v);
}

void
tress_json_string_member (TressJsonWriter *w, const char *name, const char *v)
{
  tress_json_member (w, name);
  tress_json_add_string (w, v);
}

void
tress_json_base64_member (TressJsonWriter *w, const char *name, const void *data, gsize len)
{
  tress_json_member (w, name);
  tress_json_add_base64 (w, data, len);
}

void
tress_json_problems_member (TressJsonWriter *w, const char *name, GPtrArray *problems)
{
  tress_json_member (w, name);
  tress_json_begin_array (w);
  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (problems, i);

      tress_json_begin_object_compact (w);
      tress_json_string_member (w, "severity", tress_severity_to_string (p->severity));
      if (p->location != NULL && p->location[0] != '\0')
        tress_json_string_member (w, "location", p->location);
      if (p->offset != G_MAXSIZE)
        tress_json_int_member (w, "offset", (gint64)p->offset);
      tress_json_string_member (w, "message", p->message);
      if (p->fix != NULL)
        tress_json_string_member (w, "fix", p->fix);
      if (p->n_more > 0)
        tress_json_int_member (w, "more", p->n_more);
      tress_json_end_object (w);
    }
  tress_json_end_array (w);
}

void
tress_json_floats_member (TressJsonWriter *w, const char *name, const float *v, gsize n)
{
  tress_json_member (w, name);
  tress_json_begin_array_compact (w);
  for (gsize i = 0; i < n; i++)
    tress_json_add_float (w, v[i]);
  tress_json_end_array (w);
}

void
tress_json_u8s_member (TressJsonWriter *w, const char *name, const guint8 *v, gsize n)
{
  tress_json_member (w, name);
  tress_json_begin_array_compact (w);
  for (gsize i = 0; i < n; i++)
    tress_json_add_int (w, v[i]);
  tress_json_end_array (w);
}

void
tress_json_u32s_member (TressJsonWriter *w, const char *name, const guint32 *v, gsize n)
{
  tress_json_member (w, name);
  tress_json_begin_array_compact (w);
  for (gsize i = 0; i < n; i++)
    tress_json_add_int (w, v[i]);
  tress_json_end_array (w);
}
