/* fuzz-json.c: libFuzzer target for tress-cli build (JSON text → file)
 *
 * Whatever the text, build refuses it with reasons at JSON Pointers, or gives
 * a model whose bytes open again; what it gives dumps and builds again to the
 * very same bytes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
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
 * parser. Three times in four this mutator changes one value of the text: a
 * number to a neighbour or a boundary of the binary fields, a string's bytes
 * or a string from elsewhere in the text, a boolean flipped, an array's
 * element dropped, repeated or swapped, an object's member dropped or renamed
 * to a key of another object, or a value replaced by another value of the
 * text. Otherwise, or when the text is no JSON, it changes the bytes as they
 * are.
 *
 * The change is a splice of the text, not a tree written out again: one pass
 * finds where each value starts and ends, and everything around the changed
 * value stays as it was (the file's spacing, and a key given twice, which a
 * tree would have merged). Parsing into json-glib nodes and writing them all
 * out again took more than half of a campaign's time, most of it in
 * allocations, more than the run it fed. */

typedef enum
{
  V_OBJECT,
  V_ARRAY,
  V_STRING,
  V_NUMBER,
  V_TRUE,
  V_FALSE,
  V_NULL
} ValueKind;

#define NONE G_MAXUINT32
#define MAX_DEPTH 512

typedef struct
{
  guint32 start, end;         /* the value's text */
  guint32 key_start, key_end; /* its member name, quotes included (key_end 0: none) */
  guint32 parent;             /* the array or object it is in; NONE for the root */
  ValueKind kind;
} Value;

typedef struct
{
  const guint8 *text;
  guint32 len, at;
  GArray *values;  /* Value, in document order: a container before what it holds */
  GArray *keys;    /* guint32: the values that have a member name */
  GArray *strings; /* guint32: the string values */
} Scan;

static void
skip_space (Scan *s)
{
  while (s->at < s->len
         && (s->text[s->at] == ' ' || s->text[s->at] == '\t' || s->text[s->at] == '\n'
             || s->text[s->at] == '\r'))
    s->at++;
}

static gboolean
next_is (Scan *s, guint8 c)
{
  if (s->at >= s->len || s->text[s->at] != c)
    return FALSE;
  s->at++;
  return TRUE;
}

static guint32
skip_digits (Scan *s)
{
  guint32 from = s->at;

  while (s->at < s->len && g_ascii_isdigit (s->text[s->at]))
    s->at++;
  return s->at - from;
}

static gboolean
scan_string (Scan *s)
{
  if (!next_is (s, '"'))
    return FALSE;
  while (s->at < s->len)
    {
      guint8 c = s->text[s->at++];

      if (c == '"')
        return TRUE;
      if (c < 0x20 || (c == '\\' && s->at++ >= s->len))
        return FALSE;
    }
  return FALSE;
}

static gboolean
scan_number (Scan *s)
{
  next_is (s, '-');
  if (skip_digits (s) == 0)
    return FALSE;
  if (next_is (s, '.') && skip_digits (s) == 0)
    return FALSE;
  if (next_is (s, 'e') || next_is (s, 'E'))
    {
      if (!next_is (s, '+'))
        next_is (s, '-');
      if (skip_digits (s) == 0)
        return FALSE;
    }
  return TRUE;
}

static gboolean
scan_word (Scan *s, const char *word)
{
  gsize n = strlen (word);

  if (s->len - s->at < n || memcmp (s->text + s->at, word, n) != 0)
    return FALSE;
  s->at += (guint32)n;
  return TRUE;
}

static gboolean scan_value (Scan *s, guint32 parent, guint32 key_start, guint32 key_end,
                            guint depth);

/* The members of the object at @self (at its '{'), or the elements of the
 * array (at its '['). */
static gboolean
scan_inside (Scan *s, guint32 self, gboolean object, guint depth)
{
  guint8 close = object ? '}' : ']';

  s->at++;
  skip_space (s);
  if (next_is (s, close))
    return TRUE;
  for (;;)
    {
      guint32 key_start = s->at, key_end = 0;

      if (object)
        {
          if (!scan_string (s))
            return FALSE;
          key_end = s->at;
          skip_space (s);
          if (!next_is (s, ':'))
            return FALSE;
          skip_space (s);
        }
      if (!scan_value (s, self, key_start, key_end, depth + 1))
        return FALSE;
      skip_space (s);
      if (next_is (s, close))
        return TRUE;
      if (!next_is (s, ','))
        return FALSE;
      skip_space (s);
    }
}

static gboolean
scan_value (Scan *s, guint32 parent, guint32 key_start, guint32 key_end, guint depth)
{
  Value v = { s->at, s->at, key_start, key_end, parent, V_NULL };
  guint32 self = s->values->len;
  gboolean ok;

  if (s->at >= s->len || depth > MAX_DEPTH)
    return FALSE;
  switch (s->text[s->at])
    {
    case '{':
    case '[':
      v.kind = s->text[s->at] == '{' ? V_OBJECT : V_ARRAY;
      g_array_append_val (s->values, v);
      ok = scan_inside (s, self, v.kind == V_OBJECT, depth);
      break;
    case '"':
      v.kind = V_STRING;
      g_array_append_val (s->values, v);
      g_array_append_val (s->strings, self);
      ok = scan_string (s);
      break;
    case 't':
    case 'f':
    case 'n':
      v.kind = s->text[s->at] == 't' ? V_TRUE : s->text[s->at] == 'f' ? V_FALSE : V_NULL;
      g_array_append_val (s->values, v);
      ok = scan_word (s, v.kind == V_TRUE ? "true" : v.kind == V_FALSE ? "false" : "null");
      break;
    default:
      v.kind = V_NUMBER;
      g_array_append_val (s->values, v);
      ok = scan_number (s);
      break;
    }
  g_array_index (s->values, Value, self).end = s->at;
  if (key_end != 0)
    g_array_append_val (s->keys, self);
  return ok;
}

/* Where each value of @text starts and ends; FALSE when it is no JSON. */
static gboolean
scan (Scan *s, const guint8 *text, gsize len)
{
  if (len >= NONE)
    return FALSE;
  s->text = text;
  s->len = (guint32)len;
  s->at = 0;
  g_array_set_size (s->values, 0);
  g_array_set_size (s->keys, 0);
  g_array_set_size (s->strings, 0);
  skip_space (s);
  if (!scan_value (s, NONE, 0, 0, 0))
    return FALSE;
  skip_space (s);
  return s->at == s->len;
}

/* A range of the text and what takes its place (a swap makes two). */
typedef struct
{
  guint32 from, to;
  GString *with;
} Splice;

typedef struct
{
  Scan *scan;
  guint32 state;
  Splice edit[2];
  guint n_edits;
} Mutation;

static guint
draw (Mutation *m, guint n)
{
  return n > 0 ? tress_fuzz_next (&m->state) % n : 0;
}

static const Value *
value_at (Mutation *m, guint32 i)
{
  return &g_array_index (m->scan->values, Value, i);
}

/* A new splice of [@from, @to), to be filled in. */
static GString *
splice (Mutation *m, guint32 from, guint32 to)
{
  Splice *e = &m->edit[m->n_edits++];

  e->from = from;
  e->to = to;
  g_string_truncate (e->with, 0);
  return e->with;
}

static void
append_text (Mutation *m, GString *to, guint32 from, guint32 end)
{
  g_string_append_len (to, (const char *)m->scan->text + from, end - from);
}

/* One value in the project's writer (its escapes and numbers), as text. */
static void
append_written (GString *to, TressJsonWriter *w)
{
  g_autoptr (GBytes) bytes = tress_json_writer_free_to_bytes (w);
  gsize n;
  const char *text = g_bytes_get_data (bytes, &n);

  while (n > 0 && text[n - 1] == '\n')
    n--;
  g_string_append_len (to, text, n);
}

/* A value's text with a member name, if it has one. */
static guint32
first_byte (const Value *v)
{
  return v->key_end != 0 ? v->key_start : v->start;
}

static void
change_number (Mutation *m, const Value *v, GString *to)
{
  static const gint64 edges[]
      = { 0,          1,          -1,         2,          3,
          7,          8,          15,         16,         127,
          128,        255,        256,        32767,      32768,
          65535,      65536,      G_MAXINT32, G_MININT32, (gint64)G_MAXUINT32,
          G_MAXINT64, G_MININT64, 0x3FFFFFFF, 0x7FFFFF };
  static const double reals[] = { 0.5, -0.0, 1e-40, 3.4e38, 3.5e38, 1e308, -1e308, 65504 };
  g_autofree char *text = g_strndup ((const char *)m->scan->text + v->start, v->end - v->start);
  gboolean is_int = strpbrk (text, ".eE") == NULL;
  TressJsonWriter *w = tress_json_writer_new ();
  gint64 i;
  double d;
  guint64 bits;

  errno = 0;
  i = is_int ? g_ascii_strtoll (text, NULL, 10) : 0;
  if (errno != 0)
    is_int = FALSE;
  d = is_int ? (double)i : g_ascii_strtod (text, NULL);
  if (!is_int)
    i = (gint64)CLAMP (d, -1e18, 1e18);
  switch (draw (m, 6))
    {
    case 0:
      tress_json_add_int (w, edges[draw (m, G_N_ELEMENTS (edges))]);
      break;
    case 1:
      /* (wrapping at the ends, as unsigned sums do) */
      tress_json_add_int (w, (gint64)((guint64)i + (guint64)draw (m, 5) - 2));
      break;
    case 2:
      tress_json_add_int (w, i > G_MININT64 ? -i : 0);
      break;
    case 3:
      bits = tress_fuzz_next (&m->state);
      tress_json_add_int (w, (gint64)(bits << draw (m, 40))); /* below 2^63 */
      break;
    case 4:
      tress_json_add_double (w, reals[draw (m, G_N_ELEMENTS (reals))]);
      break;
    default:
      tress_json_add_double (w, d * (draw (m, 2) ? 2 : 0.5) + 0.25);
      break;
    }
  append_written (to, w);
}

static void
change_string (Mutation *m, const Value *v, GString *to)
{
  GArray *strings = m->scan->strings;
  const char *text = (const char *)m->scan->text + v->start;
  g_autoptr (TressJsonReader) r = NULL;
  g_autofree char *decoded = NULL;
  g_autofree char *buf = NULL;
  gsize len, room;
  TressJsonWriter *w;

  if (strings->len > 1 && draw (m, 2))
    {
      const Value *other = value_at (m, g_array_index (strings, guint32, draw (m, strings->len)));
      append_text (m, to, other->start, other->end);
      return;
    }
  /* the bytes it stands for, escapes undone by the project's reader */
  r = tress_json_reader_new (text, v->end - v->start);
  decoded = tress_json_reader_read_string (r);
  len = decoded != NULL ? strlen (decoded) : 0;
  room = len + 16;
  buf = g_malloc (room);
  memcpy (buf, decoded != NULL ? decoded : "", len);
  w = tress_json_writer_new ();
  tress_json_add_string_len (w, buf, LLVMFuzzerMutate ((uint8_t *)buf, len, room));
  append_written (to, w);
}

/* An array's element or an object's member dropped or swapped with another;
 * an element repeated, a member renamed to a key of the text. */
static gboolean
change_container (Mutation *m, guint32 self, const Value *v)
{
  g_autoptr (GArray) inside = g_array_new (FALSE, FALSE, sizeof (guint32));
  const Value *a, *b;
  guint32 k, j;
  GString *to;

  for (guint32 i = self + 1; i < m->scan->values->len && value_at (m, i)->start < v->end; i++)
    if (value_at (m, i)->parent == self)
      g_array_append_val (inside, i);
  if (inside->len == 0)
    return FALSE;
  k = draw (m, inside->len);
  j = draw (m, inside->len);
  a = value_at (m, g_array_index (inside, guint32, k));
  switch (draw (m, 3))
    {
    case 0: /* dropped, with a comma beside it */
      if (inside->len == 1)
        splice (m, first_byte (a), a->end);
      else if (k > 0)
        splice (m, value_at (m, g_array_index (inside, guint32, k - 1))->end, a->end);
      else
        splice (m, first_byte (a), first_byte (value_at (m, g_array_index (inside, guint32, 1))));
      return TRUE;
    case 1:
      if (v->kind == V_OBJECT)
        {
          GArray *keys = m->scan->keys;
          const Value *named = value_at (m, g_array_index (keys, guint32, draw (m, keys->len)));

          append_text (m, splice (m, a->key_start, a->key_end), named->key_start, named->key_end);
          return TRUE;
        }
      to = splice (m, a->end, a->end);
      g_string_append_c (to, ',');
      append_text (m, to, a->start, a->end);
      return TRUE;
    default: /* the first of the two in the text: a */
      if (k == j)
        return FALSE;
      a = value_at (m, g_array_index (inside, guint32, MIN (k, j)));
      b = value_at (m, g_array_index (inside, guint32, MAX (k, j)));
      append_text (m, splice (m, first_byte (a), a->end), first_byte (b), b->end);
      append_text (m, splice (m, first_byte (b), b->end), first_byte (a), a->end);
      return TRUE;
    }
}

/* The value at @self changed; FALSE when it cannot be. */
static gboolean
change (Mutation *m, guint32 self)
{
  const Value *v = value_at (m, self);
  guint32 other = draw (m, m->scan->values->len);

  if (draw (m, 4) == 0 && other != self)
    {
      append_text (m, splice (m, v->start, v->end), value_at (m, other)->start,
                   value_at (m, other)->end);
      return TRUE;
    }
  switch (v->kind)
    {
    case V_NULL:
      g_string_append_c (splice (m, v->start, v->end), '0');
      return TRUE;
    case V_TRUE:
    case V_FALSE:
      g_string_append (splice (m, v->start, v->end), v->kind == V_TRUE ? "false" : "true");
      return TRUE;
    case V_NUMBER:
      change_number (m, v, splice (m, v->start, v->end));
      return TRUE;
    case V_STRING:
      change_string (m, v, splice (m, v->start, v->end));
      return TRUE;
    default:
      return change_container (m, self, v);
    }
}

#ifdef TRESS_FUZZ_REPLAY
/* (in `meson test` only: a scan that went wrong would make every change
 * malformed, and the campaigns would quietly fuzz the parser's errors) */
static gboolean
is_json (const uint8_t *data, size_t size)
{
  g_autoptr (JsonParser) parser = json_parser_new ();

  return json_parser_load_from_data (parser, (const char *)data, (gssize)size, NULL);
}
#endif

size_t
LLVMFuzzerCustomMutator (uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
  /* kept from run to run: most runs need no new memory here */
  static Scan s;
  static GString *with[2];
  static GString *out;
  Mutation m = { &s, seed, { { 0, 0, NULL }, { 0, 0, NULL } }, 0 };
  guint32 at = 0;

  if (s.values == NULL)
    {
      s.values = g_array_new (FALSE, FALSE, sizeof (Value));
      s.keys = g_array_new (FALSE, FALSE, sizeof (guint32));
      s.strings = g_array_new (FALSE, FALSE, sizeof (guint32));
      with[0] = g_string_new (NULL);
      with[1] = g_string_new (NULL);
      out = g_string_new (NULL);
    }
  m.edit[0].with = with[0];
  m.edit[1].with = with[1];
  if (draw (&m, 4) == 0 || !scan (&s, data, size) || !change (&m, draw (&m, s.values->len)))
    return LLVMFuzzerMutate (data, size, max_size);
  g_string_truncate (out, 0);
  for (guint e = 0; e < m.n_edits; e++)
    {
      append_text (&m, out, at, m.edit[e].from);
      g_string_append_len (out, m.edit[e].with->str, (gssize)m.edit[e].with->len);
      at = m.edit[e].to;
    }
  append_text (&m, out, at, (guint32)size);
#ifdef TRESS_FUZZ_REPLAY
  g_assert (!is_json (data, size) || is_json ((const uint8_t *)out->str, out->len));
#endif
  if (out->len > max_size)
    return LLVMFuzzerMutate (data, size, max_size);
  memcpy (data, out->str, out->len);
  return out->len;
}
