/* tress-json-read.c: pull JSON reader: its state, refusals, lexing and structure
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-json-private.h"

#include <errno.h>
#include <gio/gio.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

/* ==== reader ================================================================ */

TressJsonReader *
tress_json_reader_new (const char *text, gsize len)
{
  TressJsonReader *r = g_new0 (TressJsonReader, 1);

  r->text = text;
  r->p = text;
  r->end = text + len;
  r->problems = tress_problem_list_new ();
  r->scratch = g_string_new (NULL);
  /* A UTF-8 byte-order mark some editors add. */
  if (len >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0)
    r->p += 3;
  return r;
}

void
tress_json_reader_free (TressJsonReader *r)
{
  if (r == NULL)
    return;
  g_ptr_array_unref (r->problems);
  g_string_free (r->scratch, TRUE);
  for (guint i = 0; i < MAX_DEPTH; i++)
    if (r->frames[i].name != NULL)
      g_string_free (r->frames[i].name, TRUE);
  g_clear_pointer (&r->unknown, g_hash_table_unref);
  g_clear_pointer (&r->unknown_names, g_hash_table_unref);
  g_free (r);
}

void
tress_json_reader_rewind (TressJsonReader *r)
{
  r->p = r->text;
  if (r->end - r->p >= 3 && memcmp (r->p, "\xEF\xBB\xBF", 3) == 0)
    r->p += 3;
  r->depth = 0;
  r->broken = FALSE;
  r->comma = FALSE;
}

void
tress_json_reader_set_consent (TressJsonReader *r, guint consent)
{
  r->consent = consent;
}

guint
tress_json_reader_get_consent (TressJsonReader *r)
{
  return r->consent;
}

gboolean
tress_json_reader_ok (TressJsonReader *r)
{
  return !r->broken;
}

GPtrArray *
tress_json_reader_get_problems (TressJsonReader *r)
{
  return r->problems;
}

guint
tress_json_reader_n_errors (TressJsonReader *r)
{
  return r->n_errors;
}

static void
path_into (TressJsonReader *r, GString *s, guint depth)
{
  for (guint i = 0; i < depth; i++)
    {
      const RFrame *f = &r->frames[i];

      if (!f->has_current)
        break;
      if (f->array)
        g_string_append_printf (s, "/%u", f->index);
      else
        tress_json_pointer_append (s, f->name->str);
    }
}

char *
tress_json_reader_path (TressJsonReader *r)
{
  GString *s = g_string_new (NULL);

  path_into (r, s, r->depth);
  return g_string_free (s, FALSE);
}

/* Cuts @s (owned) after some @max bytes, at a character's start, with "…". */
char *
_tress_json_cut_text (char *s, gsize max)
{
  gsize keep = max;
  char *cut;

  if (s == NULL || strlen (s) <= max)
    return s;
  while (keep > 0 && ((guchar)s[keep] & 0xC0) == 0x80)
    keep--;
  cut = g_malloc (keep + sizeof "…");
  memcpy (cut, s, keep);
  strcpy (cut + keep, "…");
  g_free (s);
  return cut;
}

static void
add_problem (TressJsonReader *r, TressSeverity severity, const char *path, const char *format,
             va_list args)
{
  TressProblem *p = tress_problem_new_valist (severity, path, G_MAXSIZE, NULL, -1, format, args);

  /* Strings from the text are quoted cut (tress_json_quote); this bounds what
   * a message might still carry of them (an error of the format, say). */
  p->location = _tress_json_cut_text (p->location, MAX_MESSAGE);
  p->message = _tress_json_cut_text (p->message, MAX_MESSAGE);
  g_ptr_array_add (r->problems, p);
  if (severity == TRESS_SEVERITY_ERROR)
    r->n_errors++;
}

gboolean
tress_json_reader_refuse (TressJsonReader *r, const char *format, ...)
{
  g_autofree char *path = tress_json_reader_path (r);
  va_list args;

  va_start (args, format);
  add_problem (r, TRESS_SEVERITY_ERROR, path, format, args);
  va_end (args);
  return FALSE;
}

gboolean
tress_json_reader_refuse_at (TressJsonReader *r, const char *path, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  add_problem (r, TRESS_SEVERITY_ERROR, path, format, args);
  va_end (args);
  return FALSE;
}

void
tress_json_reader_note_at (TressJsonReader *r, const char *path, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  add_problem (r, TRESS_SEVERITY_INFO, path, format, args);
  va_end (args);
}

/* ---- lexing ---- */

static inline void
skip_ws (TressJsonReader *r)
{
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\r' || *r->p == '\t'))
    r->p++;
}

gboolean G_GNUC_PRINTF (2, 3) _tress_json_syntax_error (TressJsonReader *r, const char *format, ...)
{
  g_autofree char *what = NULL;
  g_autofree char *path = NULL;
  guint line = 1, column = 1;
  va_list args;

  if (r->broken)
    return FALSE;
  for (const char *q = r->text; q < r->p; q++)
    if (*q == '\n')
      line++, column = 1;
    else
      column++;
  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  path = tress_json_reader_path (r);
  tress_json_reader_refuse_at (r, path, "the JSON text is broken at line %u, column %u: %s", line,
                               column, what);
  r->broken = TRUE;
  return FALSE;
}

const char *
_tress_json_describe_here (TressJsonReader *r)
{
  if (r->p >= r->end)
    return "the end of the text";
  switch (*r->p)
    {
    case '{':
      return "an object";
    case '[':
      return "an array";
    case '"':
      return "a string";
    case 't':
    case 'f':
      return "a boolean";
    case 'n':
      return "null";
    case '-':
    case '0' ... '9':
      return "a number";
    default:
      return "a character that starts no JSON value";
    }
}

TressJsonType
tress_json_reader_peek (TressJsonReader *r)
{
  if (r->broken)
    return TRESS_JSON_NONE;
  skip_ws (r);
  if (r->p >= r->end)
    return TRESS_JSON_NONE;
  switch (*r->p)
    {
    case '{':
      return TRESS_JSON_OBJECT;
    case '[':
      return TRESS_JSON_ARRAY;
    case '"':
      return TRESS_JSON_STRING;
    case 't':
    case 'f':
      return TRESS_JSON_BOOL;
    case 'n':
      return TRESS_JSON_NULL;
    case '-':
    case '0' ... '9':
      return TRESS_JSON_NUMBER;
    default:
      return TRESS_JSON_NONE;
    }
}

static int
hex_digit (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Reads a string token into @out (cleared first). */
gboolean
_tress_json_lex_string (TressJsonReader *r, GString *out)
{
  g_string_truncate (out, 0);
  if (r->p >= r->end || *r->p != '"')
    return _tress_json_syntax_error (r, "expected a string, found %s",
                                     _tress_json_describe_here (r));
  r->p++;
  for (;;)
    {
      const char *run = r->p;

      while (r->p < r->end && *r->p != '"' && *r->p != '\\' && (guchar)*r->p >= 0x20)
        r->p++;
      g_string_append_len (out, run, r->p - run);
      if (r->p >= r->end)
        return _tress_json_syntax_error (r, "a string is not closed before the end of the text");
      if (*r->p == '"')
        {
          r->p++;
          break;
        }
      if ((guchar)*r->p < 0x20)
        return _tress_json_syntax_error (r, "a control character inside a string");
      /* an escape */
      r->p++;
      if (r->p >= r->end)
        return _tress_json_syntax_error (r, "a string is not closed before the end of the text");
      switch (*r->p)
        {
        case '"':
        case '\\':
        case '/':
          g_string_append_c (out, *r->p);
          r->p++;
          break;
        case 'b':
          g_string_append_c (out, '\b'), r->p++;
          break;
        case 'f':
          g_string_append_c (out, '\f'), r->p++;
          break;
        case 'n':
          g_string_append_c (out, '\n'), r->p++;
          break;
        case 'r':
          g_string_append_c (out, '\r'), r->p++;
          break;
        case 't':
          g_string_append_c (out, '\t'), r->p++;
          break;
        case 'u':
          {
            gunichar c = 0;

            for (int pass = 0; pass < 2; pass++)
              {
                guint v = 0;

                if (r->end - r->p < 5)
                  return _tress_json_syntax_error (r, "a \\u escape needs four hex digits");
                for (int i = 1; i <= 4; i++)
                  {
                    int d = hex_digit (r->p[i]);
                    if (d < 0)
                      return _tress_json_syntax_error (r, "a \\u escape needs four hex digits");
                    v = v * 16 + (guint)d;
                  }
                r->p += 5;
                if (pass == 0 && v >= 0xD800 && v < 0xDC00)
                  {
                    c = v;
                    if (r->end - r->p < 2 || r->p[0] != '\\' || r->p[1] != 'u')
                      return _tress_json_syntax_error (r,
                                                       "a lone UTF-16 surrogate in a \\u escape");
                    r->p++;
                    continue;
                  }
                if (pass == 1)
                  {
                    if (v < 0xDC00 || v >= 0xE000)
                      return _tress_json_syntax_error (r,
                                                       "a lone UTF-16 surrogate in a \\u escape");
                    c = 0x10000 + ((c - 0xD800) << 10) + (v - 0xDC00);
                  }
                else if (v >= 0xDC00 && v < 0xE000)
                  return _tress_json_syntax_error (r, "a lone UTF-16 surrogate in a \\u escape");
                else
                  c = v;
                break;
              }
            g_string_append_unichar (out, c);
            break;
          }
        default:
          return _tress_json_syntax_error (r, "an unknown escape \\%c in a string", *r->p);
        }
    }
  if (!g_utf8_validate_len (out->str, out->len, NULL))
    return _tress_json_syntax_error (r, "a string is not valid UTF-8");
  return TRUE;
}

gboolean
_tress_json_lex_number (TressJsonReader *r, Number *value)
{
  const char *start = r->p;
  const char *q = r->p;
  gboolean negative = FALSE, inexact = FALSE, fraction = FALSE;
  guint64 mant = 0;
  int sig = 0, exp10 = 0;
  gsize n;

  if (q < r->end && *q == '-')
    negative = TRUE, q++;
  if (q >= r->end || !g_ascii_isdigit (*q))
    return _tress_json_syntax_error (r, "expected a number");
  if (*q == '0')
    q++;
  else
    for (; q < r->end && g_ascii_isdigit (*q); q++)
      if (sig < 19)
        mant = mant * 10 + (guint64)(*q - '0'), sig++;
      else
        inexact = TRUE, exp10++;
  if (q < r->end && *q == '.')
    {
      fraction = TRUE;
      q++;
      if (q >= r->end || !g_ascii_isdigit (*q))
        return _tress_json_syntax_error (r, "a number has no digits after its decimal point");
      for (; q < r->end && g_ascii_isdigit (*q); q++)
        if (mant == 0 && *q == '0')
          exp10--;
        else if (sig < 19)
          mant = mant * 10 + (guint64)(*q - '0'), sig++, exp10--;
        else
          inexact = TRUE;
    }
  if (q < r->end && (*q == 'e' || *q == 'E'))
    {
      gboolean eneg = FALSE;
      int e = 0;

      fraction = TRUE;
      q++;
      if (q < r->end && (*q == '+' || *q == '-'))
        eneg = *q == '-', q++;
      if (q >= r->end || !g_ascii_isdigit (*q))
        return _tress_json_syntax_error (r, "a number has no digits in its exponent");
      for (; q < r->end && g_ascii_isdigit (*q); q++)
        if (e < 100000)
          e = e * 10 + (*q - '0');
      exp10 += eneg ? -e : e;
    }
  n = (gsize)(q - start);
  if (n >= MAX_NUMBER)
    return _tress_json_syntax_error (
        r, "a number of %" G_GSIZE_FORMAT " characters (at most %d are read)", n, MAX_NUMBER - 1);
  r->p = q;
  if (value == NULL)
    return TRUE;
  value->integral = !fraction;
  if (!inexact && sig <= 15 && exp10 >= -22 && exp10 <= 22)
    value->d = exp10 >= 0 ? (double)mant * _tress_json_p10[exp10]
                          : (double)mant / _tress_json_p10[-exp10];
  else
    {
      char buf[MAX_NUMBER];

      memcpy (buf, start, n);
      buf[n] = '\0';
      value->d = fabs (g_ascii_strtod (buf, NULL));
    }
  if (negative)
    value->d = -value->d;
  value->int_ok = FALSE;
  if (!fraction && !inexact && mant <= (guint64)G_MAXINT64 + (negative ? 1 : 0))
    {
      value->i = negative ? (gint64)(0 - mant) : (gint64)mant;
      value->int_ok = TRUE;
    }
  else if (fraction && value->d == trunc (value->d) && fabs (value->d) < 9007199254740992.0)
    {
      value->i = (gint64)value->d;
      value->int_ok = TRUE;
    }
  return TRUE;
}

gboolean
_tress_json_lex_literal (TressJsonReader *r, const char *word)
{
  gsize n = strlen (word);

  if ((gsize)(r->end - r->p) < n || memcmp (r->p, word, n) != 0)
    return _tress_json_syntax_error (r, "expected %s", word);
  r->p += n;
  return TRUE;
}

/* After a value inside a container: the comma or the closing bracket. */
gboolean
_tress_json_after_value (TressJsonReader *r)
{
  RFrame *f;

  if (r->broken || r->depth == 0)
    return !r->broken;
  f = &r->frames[r->depth - 1];
  skip_ws (r);
  if (r->p >= r->end)
    return _tress_json_syntax_error (r, "the text ends inside an %s",
                                     f->array ? "array" : "object");
  if (*r->p == ',')
    {
      r->p++;
      r->comma = TRUE;
      return TRUE;
    }
  if (*r->p == (f->array ? ']' : '}'))
    return TRUE; /* the next next_member/next_element sees it */
  return _tress_json_syntax_error (r, "expected ',' or '%c', found %s", f->array ? ']' : '}',
                                   _tress_json_describe_here (r));
}

static gboolean
push (TressJsonReader *r, gboolean array)
{
  RFrame *f;

  if (r->depth >= MAX_DEPTH)
    return _tress_json_syntax_error (r, "values nested more than %d deep", MAX_DEPTH);
  r->comma = FALSE;
  f = &r->frames[r->depth++];
  f->array = array;
  f->index = 0;
  f->has_current = FALSE;
  if (f->name == NULL)
    f->name = g_string_new (NULL);
  g_string_truncate (f->name, 0);
  return TRUE;
}

/* After '{' or ',' in an object: a member name and its ':'. */
static gboolean
skip_member_name (TressJsonReader *r)
{
  skip_ws (r);
  if (!_tress_json_lex_string (r, r->scratch))
    return FALSE;
  skip_ws (r);
  if (r->p >= r->end || *r->p != ':')
    return _tress_json_syntax_error (r, "expected ':' after a member name");
  r->p++;
  return TRUE;
}

/* Skips one value (syntax checked, nothing kept), without recursion. */
static void
skip_value (TressJsonReader *r)
{
  char close[MAX_DEPTH];
  guint depth = 0;

  while (!r->broken)
    {
      gboolean done = FALSE; /* a whole value was just passed */

      skip_ws (r);
      if (r->p >= r->end)
        {
          _tress_json_syntax_error (r, "the text ends where a value was expected");
          return;
        }
      switch (*r->p)
        {
        case '{':
        case '[':
          if (depth >= MAX_DEPTH)
            {
              _tress_json_syntax_error (r, "values nested more than %d deep", MAX_DEPTH);
              return;
            }
          close[depth++] = *r->p == '{' ? '}' : ']';
          r->p++;
          skip_ws (r);
          if (r->p < r->end && *r->p == close[depth - 1])
            {
              r->p++;
              depth--;
              done = TRUE;
            }
          else if (close[depth - 1] == '}' && !skip_member_name (r))
            return;
          break;
        case '"':
          _tress_json_lex_string (r, r->scratch);
          done = TRUE;
          break;
        case 't':
          _tress_json_lex_literal (r, "true");
          done = TRUE;
          break;
        case 'f':
          _tress_json_lex_literal (r, "false");
          done = TRUE;
          break;
        case 'n':
          _tress_json_lex_literal (r, "null");
          done = TRUE;
          break;
        default:
          _tress_json_lex_number (r, NULL);
          done = TRUE;
          break;
        }
      while (done && !r->broken)
        {
          if (depth == 0)
            return;
          skip_ws (r);
          if (r->p < r->end && *r->p == ',')
            {
              r->p++;
              if (close[depth - 1] == '}' && !skip_member_name (r))
                return;
              done = FALSE;
            }
          else if (r->p < r->end && *r->p == close[depth - 1])
            {
              r->p++;
              depth--;
            }
          else
            {
              _tress_json_syntax_error (r, "expected ',' or '%c', found %s", close[depth - 1],
                                        _tress_json_describe_here (r));
              return;
            }
        }
    }
}

void
tress_json_reader_skip (TressJsonReader *r)
{
  if (r->broken)
    return;
  skip_value (r);
  _tress_json_after_value (r);
}

/* A value of the wrong type: refused and skipped. */
gboolean
_tress_json_wrong_type (TressJsonReader *r, const char *expected)
{
  skip_ws (r);
  if (r->p >= r->end)
    return _tress_json_syntax_error (r, "the text ends where %s was expected", expected);
  tress_json_reader_refuse (r, "expected %s, found %s", expected, _tress_json_describe_here (r));
  tress_json_reader_skip (r);
  return FALSE;
}

gboolean
tress_json_reader_begin_object (TressJsonReader *r)
{
  if (tress_json_reader_peek (r) != TRESS_JSON_OBJECT)
    return !r->broken && _tress_json_wrong_type (r, "an object");
  r->p++;
  return push (r, FALSE);
}

gboolean
tress_json_reader_begin_array (TressJsonReader *r)
{
  if (tress_json_reader_peek (r) != TRESS_JSON_ARRAY)
    return !r->broken && _tress_json_wrong_type (r, "an array");
  r->p++;
  return push (r, TRUE);
}

static void
pop (TressJsonReader *r)
{
  r->p++; /* the closing bracket */
  r->depth--;
  _tress_json_after_value (r);
}

const char *
tress_json_reader_next_member (TressJsonReader *r)
{
  RFrame *f;

  if (r->broken || r->depth == 0)
    return NULL;
  f = &r->frames[r->depth - 1];
  g_return_val_if_fail (!f->array, NULL);
  skip_ws (r);
  if (r->p >= r->end)
    {
      _tress_json_syntax_error (r, "the text ends inside an object");
      return NULL;
    }
  if (*r->p == '}' && !r->comma)
    {
      pop (r);
      return NULL;
    }
  if (*r->p == '}')
    {
      _tress_json_syntax_error (r, "a ',' before the end of an object");
      return NULL;
    }
  r->comma = FALSE;
  if (!_tress_json_lex_string (r, f->name))
    return NULL;
  skip_ws (r);
  if (r->p >= r->end || *r->p != ':')
    {
      g_autofree char *q = tress_json_quote (f->name->str, (gssize)f->name->len);
      _tress_json_syntax_error (r, "expected ':' after the member name %s", q);
      return NULL;
    }
  r->p++;
  f->has_current = TRUE;
  skip_ws (r);
  if (r->p < r->end && (*r->p == '}' || *r->p == ']' || *r->p == ','))
    {
      g_autofree char *q = tress_json_quote (f->name->str, (gssize)f->name->len);
      _tress_json_syntax_error (r, "the member %s has no value", q);
      return NULL;
    }
  return f->name->str;
}

gboolean
tress_json_reader_next_element (TressJsonReader *r)
{
  RFrame *f;

  if (r->broken || r->depth == 0)
    return FALSE;
  f = &r->frames[r->depth - 1];
  g_return_val_if_fail (f->array, FALSE);
  skip_ws (r);
  if (r->p >= r->end)
    return _tress_json_syntax_error (r, "the text ends inside an array");
  if (*r->p == ']' && !r->comma)
    {
      pop (r);
      return FALSE;
    }
  if (*r->p == ']')
    return _tress_json_syntax_error (r, "a ',' before the end of an array");
  r->comma = FALSE;
  if (f->has_current)
    f->index++;
  f->has_current = TRUE;
  if (*r->p == ',' || *r->p == '}')
    return _tress_json_syntax_error (r, "an array element is missing");
  return TRUE;
}

guint
tress_json_reader_get_index (TressJsonReader *r)
{
  g_return_val_if_fail (r->depth > 0 && r->frames[r->depth - 1].array, 0);
  return r->frames[r->depth - 1].index;
}

void
tress_json_reader_leave (TressJsonReader *r)
{
  RFrame *f;

  if (r->broken || r->depth == 0)
    return;
  f = &r->frames[r->depth - 1];
  if (f->array)
    while (tress_json_reader_next_element (r))
      tress_json_reader_skip (r);
  else
    while (tress_json_reader_next_member (r) != NULL)
      tress_json_reader_skip (r);
}

int
tress_json_reader_next_known (TressJsonReader *r, const char *const *names, guint64 *seen)
{
  for (;;)
    {
      const char *name = tress_json_reader_next_member (r);

      if (name == NULL)
        return -2;
      for (int i = 0; names[i] != NULL && i < 64; i++)
        if (strcmp (names[i], name) == 0)
          {
            if ((*seen >> i) & 1)
              {
                tress_json_reader_refuse (r, "the member \"%s\" is given twice", name);
                tress_json_reader_skip (r);
                goto next;
              }
            *seen |= G_GUINT64_CONSTANT (1) << i;
            return i;
          }
      return -1;
    next:;
    }
}

gboolean
tress_json_reader_require (TressJsonReader *r, const char *const *names, guint64 required,
                           guint64 seen, const char *object_path)
{
  gboolean ok = TRUE;

  if (r->broken)
    return FALSE;
  for (int i = 0; names[i] != NULL && i < 64; i++)
    if (((required >> i) & 1) && !((seen >> i) & 1))
      {
        GString *path = g_string_new (object_path);

        tress_json_pointer_append (path, names[i]);
        tress_json_reader_refuse_at (r, path->str, "the member \"%s\" is missing", names[i]);
        g_string_free (path, TRUE);
        ok = FALSE;
      }
  return ok;
}

void
tress_json_reader_note_missing (TressJsonReader *r, const char *const *names, guint64 optional,
                                guint64 seen, const char *object_path, const char *without)
{
  if (r->broken)
    return;
  for (int i = 0; names[i] != NULL && i < 64; i++)
    if (((optional >> i) & 1) && !((seen >> i) & 1))
      {
        GString *path = g_string_new (object_path);

        tress_json_pointer_append (path, names[i]);
        tress_json_reader_note_at (r, path->str, "the member \"%s\" is not given: %s", names[i],
                                   without);
        g_string_free (path, TRUE);
      }
}
