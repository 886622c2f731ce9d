/* tress-json-read-values.c: the JSON reader's values, captures and header
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-json-private.h"

#include <errno.h>
#include <gio/gio.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

/* ---- values ---- */

/* A number, or a refusal for another type. */
static gboolean
read_number (TressJsonReader *r, const char *expected, Number *n)
{
  if (tress_json_reader_peek (r) != TRESS_JSON_NUMBER)
    return !r->broken && _tress_json_wrong_type (r, expected);
  if (!_tress_json_lex_number (r, n))
    return FALSE;
  return _tress_json_after_value (r);
}

static void
int_expected (char *buf, gsize size, gint64 min, gint64 max)
{
  g_snprintf (buf, size, "a whole number from %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT, min, max);
}

gboolean
tress_json_reader_read_int (TressJsonReader *r, gint64 min, gint64 max, gint64 *out)
{
  Number n;
  char expected[96];

  if (tress_json_reader_peek (r) != TRESS_JSON_NUMBER)
    {
      int_expected (expected, sizeof expected, min, max);
      return !r->broken && _tress_json_wrong_type (r, expected);
    }
  if (!read_number (r, "a number", &n))
    return FALSE;
  if (!n.int_ok || n.i < min || n.i > max)
    {
      char found[G_ASCII_DTOSTR_BUF_SIZE];

      if (n.int_ok)
        g_snprintf (found, sizeof found, "%" G_GINT64_FORMAT, n.i);
      else
        g_ascii_formatd (found, sizeof found, "%.17g", n.d);
      int_expected (expected, sizeof expected, min, max);
      /* the value has been read: the path is still that of this value */
      return tress_json_reader_refuse (r, "expected %s, found %s", expected, found);
    }
  *out = n.i;
  return TRUE;
}

gboolean
tress_json_reader_read_u32 (TressJsonReader *r, guint32 *out)
{
  gint64 v;

  if (!tress_json_reader_read_int (r, 0, G_MAXUINT32, &v))
    return FALSE;
  *out = (guint32)v;
  return TRUE;
}

gboolean
tress_json_reader_read_u8 (TressJsonReader *r, guint8 *out)
{
  gint64 v;

  if (!tress_json_reader_read_int (r, 0, 255, &v))
    return FALSE;
  *out = (guint8)v;
  return TRUE;
}

static gboolean
parse_bits (const char *s, guint32 *bits)
{
  guint64 v;

  if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || strlen (s) != 10)
    return FALSE;
  if (!g_ascii_string_to_unsigned (s + 2, 16, 0, G_MAXUINT32, &v, NULL))
    return FALSE;
  *bits = (guint32)v;
  return TRUE;
}

gboolean
tress_json_reader_read_float (TressJsonReader *r, float *out)
{
  if (tress_json_reader_peek (r) == TRESS_JSON_STRING)
    {
      g_autofree char *s = tress_json_reader_read_string (r);
      g_autofree char *q = NULL;
      guint32 bits;

      if (s == NULL)
        return FALSE;
      if (!parse_bits (s, &bits))
        {
          q = tress_json_quote (s, -1);
          return tress_json_reader_refuse (
              r,
              "expected a number, or the bits of a 32-bit float as \"0x\" and 8 hex digits, "
              "found %s",
              q);
        }
      memcpy (out, &bits, 4);
      return TRUE;
    }
  else
    {
      Number n;
      float f;

      if (!read_number (r, "a number (or the \"0x…\" bits of a 32-bit float)", &n))
        return FALSE;
      f = (float)n.d;
      if (!isfinite (f))
        return tress_json_reader_refuse (r, "%g is too large for a 32-bit float", n.d);
      *out = f;
      return TRUE;
    }
}

gboolean
tress_json_reader_read_double (TressJsonReader *r, double *out)
{
  Number n;

  if (tress_json_reader_peek (r) == TRESS_JSON_STRING)
    {
      /* the "0x…" bits of a 32-bit float, as everywhere a float goes */
      float f = 0;

      if (!tress_json_reader_read_float (r, &f))
        return FALSE;
      if (!isfinite (f))
        return tress_json_reader_refuse (r, "expected a finite number, found %s",
                                         isnan (f) ? "NaN" : "an infinity");
      *out = f;
      return TRUE;
    }
  if (!read_number (r, "a number (or the \"0x…\" bits of a 32-bit float)", &n))
    return FALSE;
  if (!isfinite (n.d))
    return tress_json_reader_refuse (r, "the number is too large for a double");
  *out = n.d;
  return TRUE;
}

gboolean
tress_json_reader_read_bool (TressJsonReader *r, gboolean *out)
{
  if (tress_json_reader_peek (r) != TRESS_JSON_BOOL)
    return !r->broken && _tress_json_wrong_type (r, "true or false");
  if (*r->p == 't')
    {
      if (!_tress_json_lex_literal (r, "true"))
        return FALSE;
      *out = TRUE;
    }
  else
    {
      if (!_tress_json_lex_literal (r, "false"))
        return FALSE;
      *out = FALSE;
    }
  return _tress_json_after_value (r);
}

char *
tress_json_reader_read_string (TressJsonReader *r)
{
  GString *s;

  if (tress_json_reader_peek (r) != TRESS_JSON_STRING)
    {
      if (!r->broken)
        _tress_json_wrong_type (r, "a string");
      return NULL;
    }
  s = g_string_new (NULL);
  if (!_tress_json_lex_string (r, s) || !_tress_json_after_value (r))
    {
      g_string_free (s, TRUE);
      return NULL;
    }
  return g_string_free (s, FALSE);
}

static inline gboolean
is_base64_char (char c)
{
  return g_ascii_isalnum (c) || c == '+' || c == '/' || c == '=';
}

/* Whether @s (@n characters) is base64 of at most @max_len bytes (0: any
 * number); refused otherwise. */
static gboolean
check_base64 (TressJsonReader *r, const char *s, gsize n, gsize max_len)
{
  gsize size;

  /* ('=' pads the end only: "AQ==", "AQI=") */
  for (gsize i = 0; i < n; i++)
    if (!is_base64_char (s[i]) || (s[i] == '=' && i + 1 != n && !(i + 2 == n && s[n - 1] == '=')))
      return tress_json_reader_refuse (
          r, "not base64: the character '%c' at place %" G_GSIZE_FORMAT, s[i], i);
  if (n % 4 != 0)
    return tress_json_reader_refuse (
        r, "not base64: %" G_GSIZE_FORMAT " characters, not a multiple of 4", n);
  size = n / 4 * 3 - (n > 0 && s[n - 1] == '=') - (n > 1 && s[n - 2] == '=');
  if (max_len > 0 && size > max_len)
    return tress_json_reader_refuse (
        r,
        "%" G_GSIZE_FORMAT " bytes of base64, more than the %" G_GSIZE_FORMAT " this place holds",
        size, max_len);
  return TRUE;
}

GBytes *
tress_json_reader_read_base64 (TressJsonReader *r, gsize max_len)
{
  const char *start, *q;
  char *s;
  gsize n, len = 0;
  guchar *data;

  if (tress_json_reader_peek (r) == TRESS_JSON_STRING)
    {
      /* The text as dump writes it (no escapes): decoded from the text
       * itself, without a copy of the string first. */
      start = r->p + 1;
      for (q = start; q < r->end && is_base64_char (*q); q++)
        ;
      if (q < r->end && *q == '"')
        {
          gint state = 0;
          guint save = 0;

          n = (gsize)(q - start);
          r->p = q + 1;
          if (!_tress_json_after_value (r) || !check_base64 (r, start, n, max_len))
            return NULL;
          data = g_malloc (n / 4 * 3 + 3);
          len = g_base64_decode_step (start, n, data, &state, &save);
          return g_bytes_new_take (data, len);
        }
    }
  /* Escapes (or no string): the string, then decoded in its own place. */
  s = tress_json_reader_read_string (r);
  if (s == NULL)
    return NULL;
  n = strlen (s);
  if (!check_base64 (r, s, n, max_len))
    {
      g_free (s);
      return NULL;
    }
  if (n == 0)
    return g_bytes_new_take (s, 0);
  data = g_base64_decode_inplace (s, &len);
  return g_bytes_new_take (g_realloc (data, MAX (len, 1)), len);
}

gboolean
tress_json_reader_read_floats (TressJsonReader *r, float *out, guint n)
{
  guint i = 0;
  gboolean ok = TRUE;

  if (!tress_json_reader_begin_array (r))
    return FALSE;
  while (tress_json_reader_next_element (r))
    {
      if (i < n)
        ok &= tress_json_reader_read_float (r, &out[i]);
      else
        tress_json_reader_skip (r);
      i++;
    }
  if (r->broken)
    return FALSE;
  if (i != n)
    {
      g_autofree char *path = tress_json_reader_path (r);
      /* the path is the array's own again, now that it is left */
      return tress_json_reader_refuse_at (r, path, "expected %u numbers, found %u", n, i);
    }
  return ok;
}

gboolean
tress_json_reader_read_u8s (TressJsonReader *r, guint8 *out, guint n)
{
  guint i = 0;
  gboolean ok = TRUE;

  if (!tress_json_reader_begin_array (r))
    return FALSE;
  while (tress_json_reader_next_element (r))
    {
      if (i < n)
        ok &= tress_json_reader_read_u8 (r, &out[i]);
      else
        tress_json_reader_skip (r);
      i++;
    }
  if (r->broken)
    return FALSE;
  if (i != n)
    return tress_json_reader_refuse (r, "expected %u whole numbers from 0 to 255, found %u values",
                                     n, i);
  return ok;
}

/* An array of at most MAX u32 or float values, each read by READ; NULL when any is refused. */
static GArray *
read_array (TressJsonReader *r, guint max, gboolean (*read) (TressJsonReader *, gpointer))
{
  GArray *a;
  gboolean ok = TRUE;

  if (!tress_json_reader_begin_array (r))
    return NULL;
  a = g_array_new (FALSE, FALSE, sizeof (guint32));
  while (tress_json_reader_next_element (r))
    {
      union
      {
        guint32 u;
        float f;
      } v = { 0 };

      if (a->len >= max)
        {
          tress_json_reader_refuse (r, "more than the %u values this array can hold", max);
          tress_json_reader_leave (r);
          ok = FALSE;
          break;
        }
      ok &= read (r, &v);
      g_array_append_val (a, v);
    }
  if (!ok || r->broken)
    {
      g_array_unref (a);
      return NULL;
    }
  return a;
}

static gboolean
read_u32_element (TressJsonReader *r, gpointer out)
{
  return tress_json_reader_read_u32 (r, out);
}

static gboolean
read_float_element (TressJsonReader *r, gpointer out)
{
  return tress_json_reader_read_float (r, out);
}

GArray *
tress_json_reader_read_u32_array (TressJsonReader *r, guint max)
{
  return read_array (r, max, read_u32_element);
}

GArray *
tress_json_reader_read_float_array (TressJsonReader *r, guint max)
{
  G_STATIC_ASSERT (sizeof (float) == sizeof (guint32));
  return read_array (r, max, read_float_element);
}

static JsonNode *
capture_value (TressJsonReader *r)
{
  JsonNode *node;

  switch (tress_json_reader_peek (r))
    {
    case TRESS_JSON_OBJECT:
      {
        JsonObject *o = json_object_new ();
        const char *name;

        tress_json_reader_begin_object (r);
        while ((name = tress_json_reader_next_member (r)) != NULL)
          {
            g_autofree char *key = g_strdup (name);
            JsonNode *v = capture_value (r);

            if (v == NULL)
              break;
            json_object_set_member (o, key, v);
          }
        if (r->broken)
          {
            json_object_unref (o);
            return NULL;
          }
        node = json_node_init_object (json_node_alloc (), o); /* takes its own reference */
        json_object_unref (o);
        return node;
      }
    case TRESS_JSON_ARRAY:
      {
        JsonArray *a = json_array_new ();

        tress_json_reader_begin_array (r);
        while (tress_json_reader_next_element (r))
          {
            JsonNode *v = capture_value (r);

            if (v == NULL)
              break;
            json_array_add_element (a, v);
          }
        if (r->broken)
          {
            json_array_unref (a);
            return NULL;
          }
        node = json_node_init_array (json_node_alloc (), a); /* takes its own reference */
        json_array_unref (a);
        return node;
      }
    case TRESS_JSON_STRING:
      {
        g_autofree char *s = tress_json_reader_read_string (r);
        return s != NULL ? json_node_init_string (json_node_alloc (), s) : NULL;
      }
    case TRESS_JSON_NUMBER:
      {
        Number n;

        if (!read_number (r, "a number", &n))
          return NULL;
        return n.integral && n.int_ok ? json_node_init_int (json_node_alloc (), n.i)
                                      : json_node_init_double (json_node_alloc (), n.d);
      }
    case TRESS_JSON_BOOL:
      {
        gboolean b = FALSE;
        if (!tress_json_reader_read_bool (r, &b))
          return NULL;
        return json_node_init_boolean (json_node_alloc (), b);
      }
    case TRESS_JSON_NULL:
      if (!_tress_json_lex_literal (r, "null") || !_tress_json_after_value (r))
        return NULL;
      return json_node_init_null (json_node_alloc ());
    default:
      _tress_json_syntax_error (r, "expected a value, found %s", _tress_json_describe_here (r));
      return NULL;
    }
}

JsonNode *
tress_json_reader_capture (TressJsonReader *r)
{
  return capture_value (r);
}

void
tress_json_reader_keep_unknown (TressJsonReader *r)
{
  g_autofree char *path = tress_json_reader_path (r);
  const RFrame *f = r->depth > 0 ? &r->frames[r->depth - 1] : NULL;
  /* (the pointer holds a long name cut: the message quotes it from here) */
  g_autofree char *quoted
      = f != NULL && !f->array ? tress_json_quote (f->name->str, (gssize)f->name->len) : NULL;
  JsonNode *node = tress_json_reader_capture (r);

  if (node == NULL)
    return;
  if (r->unknown == NULL)
    {
      r->unknown = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                          (GDestroyNotify)json_node_unref);
      r->unknown_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
    }
  if (quoted != NULL)
    g_hash_table_replace (r->unknown_names, g_strdup (path), g_steal_pointer (&quoted));
  g_hash_table_replace (r->unknown, g_steal_pointer (&path), node);
}

GHashTable *
tress_json_reader_get_unknown (TressJsonReader *r)
{
  return r->unknown;
}

static double
node_number (JsonNode *n, gboolean *is_number)
{
  *is_number = FALSE;
  if (json_node_get_node_type (n) != JSON_NODE_VALUE)
    return 0;
  switch (json_node_get_value_type (n))
    {
    case G_TYPE_INT64:
      *is_number = TRUE;
      return (double)json_node_get_int (n);
    case G_TYPE_DOUBLE:
      *is_number = TRUE;
      return json_node_get_double (n);
    default:
      return 0;
    }
}

gboolean
tress_json_node_equal (JsonNode *a, JsonNode *b)
{
  gboolean na, nb;
  double da, db;

  if (a == NULL || b == NULL)
    return a == b;
  da = node_number (a, &na);
  db = node_number (b, &nb);
  if (na || nb)
    return na && nb && da == db;
  if (json_node_get_node_type (a) != json_node_get_node_type (b))
    return FALSE;
  switch (json_node_get_node_type (a))
    {
    case JSON_NODE_NULL:
      return TRUE;
    case JSON_NODE_VALUE:
      return json_node_equal (a, b);
    case JSON_NODE_ARRAY:
      {
        JsonArray *x = json_node_get_array (a), *y = json_node_get_array (b);

        if (json_array_get_length (x) != json_array_get_length (y))
          return FALSE;
        for (guint i = 0; i < json_array_get_length (x); i++)
          if (!tress_json_node_equal (json_array_get_element (x, i), json_array_get_element (y, i)))
            return FALSE;
        return TRUE;
      }
    case JSON_NODE_OBJECT:
      {
        JsonObject *x = json_node_get_object (a), *y = json_node_get_object (b);
        JsonObjectIter iter;
        const char *name;
        JsonNode *v;

        if (json_object_get_size (x) != json_object_get_size (y))
          return FALSE;
        json_object_iter_init (&iter, x);
        while (json_object_iter_next (&iter, &name, &v))
          if (!json_object_has_member (y, name)
              || !tress_json_node_equal (v, json_object_get_member (y, name)))
            return FALSE;
        return TRUE;
      }
    }
  return FALSE;
}

static char *
node_summary (JsonNode *node)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  char *text;

  json_generator_set_root (gen, node);
  text = json_generator_to_data (gen, NULL);
  return _tress_json_cut_text (text, 57);
}

gboolean
tress_json_reader_check_unknown (TressJsonReader *r, void (*dump) (gpointer, TressJsonWriter *),
                                 gpointer model, const char *(*hint) (const char *name))
{
  g_autoptr (TressJsonWriter) w = NULL;
  GHashTableIter iter;
  gpointer key, value;
  g_autoptr (GPtrArray) paths = NULL;
  gboolean ok = TRUE;

  if (r->unknown == NULL || g_hash_table_size (r->unknown) == 0)
    return TRUE;
  w = tress_json_writer_new_capture (r->unknown);
  dump (model, w);
  /* In the order of the text, for readable messages. */
  paths = g_ptr_array_new ();
  g_hash_table_iter_init (&iter, r->unknown);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_ptr_array_add (paths, key);
  g_ptr_array_sort (paths, (GCompareFunc)g_strcmp0);
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      JsonNode *given = g_hash_table_lookup (r->unknown, path);
      JsonNode *made = tress_json_writer_get_captured (w, path);
      const char *name = strrchr (path, '/');
      g_autofree char *unescaped = NULL;
      const char *extra;

      name = name != NULL ? name + 1 : path;
      if (strchr (name, '~') != NULL)
        {
          GString *u = g_string_new (NULL);
          for (const char *p = name; *p; p++)
            if (p[0] == '~' && p[1] == '1')
              g_string_append_c (u, '/'), p++;
            else if (p[0] == '~' && p[1] == '0')
              g_string_append_c (u, '~'), p++;
            else
              g_string_append_c (u, *p);
          unescaped = g_string_free (u, FALSE);
          name = unescaped;
        }
      extra = hint != NULL ? hint (name) : NULL;
      if (made == NULL)
        {
          const char *quoted = g_hash_table_lookup (r->unknown_names, path);
          g_autofree char *q = quoted == NULL ? tress_json_quote (name, -1) : NULL;

          tress_json_reader_refuse_at (r, path, "%s is not a member Tress writes here%s%s",
                                       quoted != NULL ? quoted : q, extra != NULL ? "; " : "",
                                       extra != NULL ? extra : "");
          ok = FALSE;
        }
      else if (!tress_json_node_equal (given, made))
        {
          g_autofree char *was = node_summary (made);
          tress_json_reader_refuse_at (
              r, path, "is derived from the file (it reads %s there), not applied by build%s%s",
              was, extra != NULL ? "; " : "", extra != NULL ? extra : "");
          ok = FALSE;
        }
    }
  return ok;
}

gboolean
tress_json_reader_read_header (TressJsonReader *r, char **format, gint64 *version)
{
  const char *name;
  gboolean have_version = FALSE;

  *format = NULL;
  if (!tress_json_reader_begin_object (r))
    return FALSE;
  /* (the dump writes both first: the rest is scanned only when they are not) */
  while ((*format == NULL || !have_version) && (name = tress_json_reader_next_member (r)) != NULL)
    if (g_str_equal (name, "format") && *format == NULL)
      *format = tress_json_reader_read_string (r);
    else if (g_str_equal (name, "version") && !have_version)
      have_version = tress_json_reader_read_int (r, 0, G_MAXINT32, version);
    else
      tress_json_reader_skip (r);
  if (!tress_json_reader_ok (r))
    {
      g_clear_pointer (format, g_free);
      return FALSE;
    }
  if (*format == NULL)
    tress_json_reader_refuse_at (r, "/format",
                                 "the member \"format\" (cha, bfres or niff) is missing");
  if (!have_version)
    tress_json_reader_refuse_at (r, "/version",
                                 "the member \"version\" (of the JSON schema) is missing");
  tress_json_reader_rewind (r);
  return *format != NULL && have_version;
}

void
tress_json_reader_check_format (TressJsonReader *r, const char *format)
{
  g_autofree char *f = tress_json_reader_read_string (r);

  if (f != NULL && !g_str_equal (f, format))
    {
      g_autofree char *q = tress_json_quote (f, -1);
      tress_json_reader_refuse (r, "expected \"%s\", found %s", format, q);
    }
}

void
tress_json_reader_check_version (TressJsonReader *r, int version, const char *schema)
{
  gint64 v = 0;

  if (tress_json_reader_read_int (r, 0, G_MAXINT32, &v) && v != version)
    tress_json_reader_refuse (
        r, "this is version %" G_GINT64_FORMAT " of the %s JSON; this Tress reads version %d", v,
        schema, version);
}

gboolean
tress_json_find_negative_zeros (guint n, void (*flip) (gpointer data, guint i, gboolean negative),
                                gboolean (*check) (gpointer data), gpointer data, gsize cost,
                                gsize *budget)
{
  guint pick[4];

  /* (a try costs more than its bytes: at most a million tries a budget) */
  cost = MAX (cost, 256);
  for (guint size = 1; size <= MIN (n, G_N_ELEMENTS (pick)); size++)
    {
      for (guint i = 0; i < size; i++)
        pick[i] = i;
      for (;;)
        {
          int j;

          if (*budget < cost)
            return FALSE;
          *budget -= cost;
          for (guint i = 0; i < size; i++)
            flip (data, pick[i], TRUE);
          if (check (data))
            return TRUE;
          for (guint i = 0; i < size; i++)
            flip (data, pick[i], FALSE);
          /* the next set of @size candidates, in order */
          j = (int)size - 1;
          while (j >= 0 && pick[j] == n - size + (guint)j)
            j--;
          if (j < 0)
            break;
          pick[j]++;
          for (guint i = (guint)j + 1; i < size; i++)
            pick[i] = pick[i - 1] + 1;
        }
    }
  return FALSE;
}
