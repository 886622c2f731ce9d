/* tress-json.c: streaming JSON writer and pull reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-json.h"

#include <errno.h>
#include <gio/gio.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#define FLUSH_SIZE (1 << 20)
#define MAX_DEPTH 128
#define MAX_NUMBER 128
/* The longest message and pointer a refusal keeps, in bytes. */
#define MAX_MESSAGE 400

/* ==== numbers as text ======================================================= */

/* Negative zero: "-0" is the integer 0 to some readers (Python's json, which
 * writes it back as "0"); "-0.0" is a float to every reader that keeps the
 * sign of zero at all. */
#define NEGATIVE_ZERO "-0.0"

/* Powers of ten as doubles (exact up to 1e22, correctly rounded above). */
static const double p10[61]
    = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11, 1e12,
        1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22, 1e23, 1e24, 1e25,
        1e26, 1e27, 1e28, 1e29, 1e30, 1e31, 1e32, 1e33, 1e34, 1e35, 1e36, 1e37, 1e38,
        1e39, 1e40, 1e41, 1e42, 1e43, 1e44, 1e45, 1e46, 1e47, 1e48, 1e49, 1e50, 1e51,
        1e52, 1e53, 1e54, 1e55, 1e56, 1e57, 1e58, 1e59, 1e60 };

static const guint64 ip10[20] = {
  G_GUINT64_CONSTANT (1),
  G_GUINT64_CONSTANT (10),
  G_GUINT64_CONSTANT (100),
  G_GUINT64_CONSTANT (1000),
  G_GUINT64_CONSTANT (10000),
  G_GUINT64_CONSTANT (100000),
  G_GUINT64_CONSTANT (1000000),
  G_GUINT64_CONSTANT (10000000),
  G_GUINT64_CONSTANT (100000000),
  G_GUINT64_CONSTANT (1000000000),
  G_GUINT64_CONSTANT (10000000000),
  G_GUINT64_CONSTANT (100000000000),
  G_GUINT64_CONSTANT (1000000000000),
  G_GUINT64_CONSTANT (10000000000000),
  G_GUINT64_CONSTANT (100000000000000),
  G_GUINT64_CONSTANT (1000000000000000),
  G_GUINT64_CONSTANT (10000000000000000),
  G_GUINT64_CONSTANT (100000000000000000),
  G_GUINT64_CONSTANT (1000000000000000000),
  G_GUINT64_CONSTANT (10000000000000000000),
};

/* Decimal digits of @v into @buf (no NUL); returns their count. */
static int
put_uint (char *buf, guint64 v)
{
  char tmp[24];
  int n = 0;

  do
    {
      tmp[n++] = (char)('0' + v % 10);
      v /= 10;
    }
  while (v > 0);
  for (int i = 0; i < n; i++)
    buf[i] = tmp[n - 1 - i];
  return n;
}

static int
put_int (char *buf, gint64 v)
{
  if (v < 0)
    {
      buf[0] = '-';
      return 1 + put_uint (buf + 1, v == G_MININT64 ? (guint64)G_MAXINT64 + 1 : (guint64)-v);
    }
  return put_uint (buf, (guint64)v);
}

/* @m (exactly @p digits) × 10^(@e10 − @p + 1) as text, the way %g writes it
 * (trailing zeros dropped); returns the length. */
static int
put_decimal (char *buf, gboolean negative, guint64 m, int p, int e10)
{
  char digits[24];
  int nd, n = 0;

  put_uint (digits, m);
  nd = p;
  while (nd > 1 && digits[nd - 1] == '0')
    nd--;
  if (negative)
    buf[n++] = '-';
  if (e10 < -4 || e10 >= p)
    {
      buf[n++] = digits[0];
      if (nd > 1)
        {
          buf[n++] = '.';
          memcpy (buf + n, digits + 1, nd - 1);
          n += nd - 1;
        }
      buf[n++] = 'e';
      n += put_int (buf + n, e10);
    }
  else if (e10 >= 0)
    {
      for (int i = 0; i <= e10; i++)
        buf[n++] = i < nd ? digits[i] : '0';
      if (nd > e10 + 1)
        {
          buf[n++] = '.';
          memcpy (buf + n, digits + e10 + 1, nd - e10 - 1);
          n += nd - e10 - 1;
        }
    }
  else
    {
      buf[n++] = '0';
      buf[n++] = '.';
      for (int i = 0; i < -e10 - 1; i++)
        buf[n++] = '0';
      memcpy (buf + n, digits, nd);
      n += nd;
    }
  buf[n] = '\0';
  return n;
}

/* Whether the decimal @d (close to |@f|, computed with a small rounding
 * error) lies so far inside |@f|'s rounding interval that any reader turning
 * its text into the nearest double, then float, gets @f back. */
static gboolean
reads_back (float f, double d)
{
  float af = fabsf (f);
  double lo = ((double)nextafterf (af, 0.0f) + af) / 2;
  double hi = ((double)nextafterf (af, INFINITY) + af) / 2;
  double margin = d * 1e-15;

  return d > lo + margin && d < hi - margin;
}

/* The text of a finite float: a whole number as digits; otherwise the fewest
 * significant digits (7 to 9) that read back to the same bits. Nine always do
 * (even a last digit off by one stays within half a unit of the float), so
 * the rounding error of the scaling below is harmless. */
static void
format_float (char *buf, gsize size, float v)
{
  double d = fabs ((double)v);
  int e10;

  g_assert (size >= 32);
  if (v == truncf (v) && fabsf (v) < 1e15f)
    {
      int n;

      if (v == 0 && signbit (v))
        {
          strcpy (buf, NEGATIVE_ZERO);
          return;
        }
      n = put_int (buf, (gint64)v);
      buf[n] = '\0';
      return;
    }
  e10 = (int)floor (log10 (d));
  for (int p = 7; p <= 9; p++)
    for (int attempt = 0; attempt < 4; attempt++)
      {
        int k = p - 1 - e10;
        double scaled;
        guint64 m;

        if (k > 60 || k < -60)
          break;
        scaled = k >= 0 ? d * p10[k] : d / p10[-k];
        m = (guint64)(scaled + 0.5);
        if (m >= ip10[p])
          {
            e10++;
            continue;
          }
        if (m < ip10[p - 1])
          {
            e10--;
            continue;
          }
        if (p == 9 || reads_back (v, k >= 0 ? (double)m / p10[k] : (double)m * p10[-k]))
          {
            put_decimal (buf, signbit (v), m, p, e10);
            return;
          }
        break;
      }
  g_ascii_formatd (buf, size, "%.9g", v); /* not reached for finite floats */
}

static void
format_double (char *buf, gsize size, double v)
{
  static const char *const formats[] = { "%.15g", "%.16g", "%.17g" };

  if (v == trunc (v) && fabs (v) < 1e15)
    {
      if (v == 0 && signbit (v))
        strcpy (buf, NEGATIVE_ZERO);
      else
        buf[put_int (buf, (gint64)v)] = '\0';
      return;
    }

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_ascii_formatd (buf, size, formats[i], v);
      if (i + 1 == G_N_ELEMENTS (formats) || g_ascii_strtod (buf, NULL) == v)
        return;
    }
}

/* ==== writer ================================================================ */

typedef struct
{
  gboolean array;
  gboolean compact;
  gboolean multiline; /* an array that has put an element on a line of its own */
  guint count;        /* members or elements written */
  gsize path_len;     /* capture: length of the container's own path */
  gboolean live;      /* capture: a captured path may lie below */
  gboolean skipped;   /* capture, digest: a member left out (tress_json_writer_capture_skip) */
  gboolean nested;    /* digest: a container is among the values */
  GChecksum *sum;     /* digest: of the container's text */
  gsize size;         /* digest: bytes of text so far */
} WFrame;

/* A capture that a nested one interrupts (tress_json_writer_capture_prune). */
typedef struct
{
  JsonBuilder *cap;
  guint cap_depth;
  gboolean cap_wrapped;
  char *cap_path;
} CapState;

struct _TressJsonWriter
{
  GString *out; /* NULL in capture mode */
  GOutputStream *stream;
  FILE *file;
  GError *error;
  GArray *frames; /* WFrame */
  guint compact_depth;
  char *member; /* capture: name of the member whose value comes next */

  /* capture mode */
  GHashTable *paths;    /* wanted pointers (borrowed) */
  GHashTable *prefixes; /* every proper prefix of a wanted pointer */
  GHashTable *captured; /* pointer → JsonNode */
  GString *path;
  JsonBuilder *cap;
  guint cap_depth;      /* containers open inside the captured value */
  gboolean cap_wrapped; /* a captured plain value, in an array of one */
  char *cap_path;
  GStrv skip;         /* member names left out of captured values */
  guint skip_depth;   /* containers open inside a member left out */
  gboolean skip_next; /* the next value is a member left out */
  GHashTable *prune;  /* pointers of containers captured empty */
  GArray *cap_stack;  /* CapState */

  /* digest mode: the text goes to checksums, never out */
  const TressJsonDigestFuncs *digest;
  gpointer digest_data;
};

static TressJsonWriter *
writer_new (void)
{
  TressJsonWriter *w = g_new0 (TressJsonWriter, 1);

  w->frames = g_array_sized_new (FALSE, FALSE, sizeof (WFrame), 16);
  return w;
}

TressJsonWriter *
tress_json_writer_new (void)
{
  TressJsonWriter *w = writer_new ();

  w->out = g_string_sized_new (4096);
  return w;
}

TressJsonWriter *
tress_json_writer_new_for_stream (GOutputStream *out)
{
  TressJsonWriter *w = tress_json_writer_new ();

  w->stream = g_object_ref (out);
  return w;
}

TressJsonWriter *
tress_json_writer_new_for_file (FILE *file)
{
  TressJsonWriter *w = tress_json_writer_new ();

  w->file = file;
  return w;
}

TressJsonWriter *
tress_json_writer_new_capture (GHashTable *paths)
{
  TressJsonWriter *w = writer_new ();
  GHashTableIter iter;
  gpointer key;

  w->paths = g_hash_table_ref (paths);
  w->prefixes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  w->captured
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)json_node_unref);
  w->path = g_string_new (NULL);
  g_hash_table_iter_init (&iter, paths);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      const char *p = key;

      /* "" (the root) and every "/a", "/a/b" above the wanted value */
      for (const char *s = strchr (p, '/'); s != NULL; s = strchr (s + 1, '/'))
        g_hash_table_add (w->prefixes, g_strndup (p, (gsize)(s - p)));
    }
  return w;
}

TressJsonWriter *
tress_json_writer_new_digest (const TressJsonDigestFuncs *funcs, gpointer user_data)
{
  TressJsonWriter *w = tress_json_writer_new ();

  w->digest = funcs;
  w->digest_data = user_data;
  return w;
}

void
tress_json_writer_free (TressJsonWriter *w)
{
  if (w == NULL)
    return;
  for (guint i = 0; i < w->frames->len; i++)
    if (g_array_index (w->frames, WFrame, i).sum != NULL)
      g_checksum_free (g_array_index (w->frames, WFrame, i).sum);
  if (w->cap_stack != NULL)
    {
      for (guint i = 0; i < w->cap_stack->len; i++)
        {
          CapState *c = &g_array_index (w->cap_stack, CapState, i);
          g_object_unref (c->cap);
          g_free (c->cap_path);
        }
      g_array_unref (w->cap_stack);
    }
  g_clear_pointer (&w->prune, g_hash_table_unref);
  if (w->out != NULL)
    g_string_free (w->out, TRUE);
  g_clear_object (&w->stream);
  g_clear_error (&w->error);
  g_array_unref (w->frames);
  g_free (w->member);
  g_clear_pointer (&w->paths, g_hash_table_unref);
  g_clear_pointer (&w->prefixes, g_hash_table_unref);
  g_clear_pointer (&w->captured, g_hash_table_unref);
  if (w->path != NULL)
    g_string_free (w->path, TRUE);
  g_clear_object (&w->cap);
  g_free (w->cap_path);
  g_strfreev (w->skip);
  g_free (w);
}

void
tress_json_writer_capture_skip (TressJsonWriter *w, const char *const *names)
{
  g_return_if_fail (w->out == NULL || w->digest != NULL);
  g_strfreev (w->skip);
  w->skip = g_strdupv ((char **)names);
}

void
tress_json_writer_capture_prune (TressJsonWriter *w, GHashTable *paths)
{
  g_return_if_fail (w->out == NULL);
  g_clear_pointer (&w->prune, g_hash_table_unref);
  w->prune = paths != NULL ? g_hash_table_ref (paths) : NULL;
  if (w->cap_stack == NULL)
    w->cap_stack = g_array_new (FALSE, FALSE, sizeof (CapState));
}

static gboolean
skip_member (TressJsonWriter *w, const char *name)
{
  for (guint i = 0; w->skip != NULL && w->skip[i] != NULL; i++)
    if (strcmp (w->skip[i], name) == 0)
      return TRUE;
  return FALSE;
}

/* Digest mode: the text so far is the innermost open container's. */
static void
digest_feed (TressJsonWriter *w)
{
  if (w->out->len == 0)
    return;
  for (guint i = w->frames->len; i-- > 0;)
    {
      WFrame *f = &g_array_index (w->frames, WFrame, i);

      if (f->sum != NULL)
        {
          g_checksum_update (f->sum, (const guchar *)w->out->str, w->out->len);
          f->size += w->out->len;
          break;
        }
    }
  g_string_truncate (w->out, 0);
}

static void
flush (TressJsonWriter *w, gboolean all)
{
  gsize written = 0;

  if (w->digest != NULL)
    {
      if (all || w->out->len >= FLUSH_SIZE)
        digest_feed (w);
      return;
    }
  if ((w->stream == NULL && w->file == NULL) || w->out->len == 0
      || (!all && w->out->len < FLUSH_SIZE))
    return;
  if (w->error == NULL && w->stream != NULL
      && !g_output_stream_write_all (w->stream, w->out->str, w->out->len, &written, NULL,
                                     &w->error))
    g_prefix_error (&w->error, "Writing the JSON text: ");
  if (w->error == NULL && w->file != NULL
      && (fwrite (w->out->str, 1, w->out->len, w->file) != w->out->len
          || (all && fflush (w->file) != 0)))
    g_set_error (&w->error, G_IO_ERROR, g_io_error_from_errno (errno), "Writing the JSON text: %s",
                 g_strerror (errno));
  g_string_truncate (w->out, 0);
}

gboolean
tress_json_writer_finish (TressJsonWriter *w, GError **error)
{
  if (w->out != NULL)
    g_string_append_c (w->out, '\n');
  flush (w, TRUE);
  if (w->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&w->error));
      return FALSE;
    }
  return TRUE;
}

GBytes *
tress_json_writer_free_to_bytes (TressJsonWriter *w)
{
  GBytes *bytes;

  g_return_val_if_fail (w->out != NULL && w->stream == NULL && w->file == NULL, NULL);
  g_string_append_c (w->out, '\n');
  bytes = g_string_free_to_bytes (w->out);
  w->out = NULL;
  tress_json_writer_free (w);
  return bytes;
}

JsonNode *
tress_json_writer_get_captured (TressJsonWriter *w, const char *path)
{
  return w->captured != NULL ? g_hash_table_lookup (w->captured, path) : NULL;
}

/* Where the first @n_chars characters of @s (@len bytes of UTF-8) end; @len
 * when it holds no more. */
static gsize
utf8_prefix (const char *s, gsize len, gsize n_chars)
{
  gsize i = 0;

  for (gsize c = 0; c < n_chars && i < len; c++)
    {
      i++;
      while (i < len && ((guchar)s[i] & 0xC0) == 0x80)
        i++;
    }
  return i;
}

void
tress_json_pointer_append (GString *path, const char *name)
{
  gsize len = strlen (name);
  gsize keep = utf8_prefix (name, len, TRESS_JSON_QUOTE_CHARS);

  g_string_append_c (path, '/');
  for (gsize i = 0; i < keep; i++)
    if (name[i] == '~')
      g_string_append (path, "~0");
    else if (name[i] == '/')
      g_string_append (path, "~1");
    else
      g_string_append_c (path, name[i]);
  if (keep < len)
    g_string_append_printf (path, "…(%" G_GSIZE_FORMAT " bytes)", len);
}

char *
tress_json_quote (const char *s, gssize len)
{
  static const char hex[] = "0123456789abcdef";
  gsize n = len < 0 ? strlen (s) : (gsize)len;
  gsize keep = utf8_prefix (s, n, TRESS_JSON_QUOTE_CHARS);
  GString *out = g_string_sized_new (keep + 32);

  g_string_append_c (out, '"');
  for (gsize i = 0; i < keep; i++)
    {
      guchar c = (guchar)s[i];

      if (c == '"' || c == '\\')
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, (char)c);
        }
      else if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c < 0x20 || c == 0x7F)
        {
          g_string_append (out, "\\u00");
          g_string_append_c (out, hex[c >> 4]);
          g_string_append_c (out, hex[c & 15]);
        }
      else
        g_string_append_c (out, (char)c);
    }
  if (keep < n)
    g_string_append_printf (out, "…\" (%" G_GSIZE_FORMAT " bytes)", n);
  else
    g_string_append_c (out, '"');
  return g_string_free (out, FALSE);
}

static inline WFrame *
top_frame (TressJsonWriter *w)
{
  return w->frames->len > 0 ? &g_array_index (w->frames, WFrame, w->frames->len - 1) : NULL;
}

static void
indent (TressJsonWriter *w, guint depth)
{
  g_string_append_c (w->out, '\n');
  for (guint i = 0; i < depth; i++)
    g_string_append (w->out, "  ");
}

/* Capture mode, before a value: its path, and whether it starts a capture.
 * Returns TRUE when the value goes into the capture builder. */
static gboolean
capture_begin_value (TressJsonWriter *w, gboolean container, gboolean *live)
{
  WFrame *f = top_frame (w);

  *live = FALSE;
  if (w->cap != NULL)
    return TRUE;
  if (f != NULL && !f->live)
    return FALSE;
  g_string_truncate (w->path, f != NULL ? f->path_len : 0);
  if (f != NULL)
    {
      if (f->array)
        g_string_append_printf (w->path, "/%u", f->count);
      else
        tress_json_pointer_append (w->path, w->member != NULL ? w->member : "");
    }
  if (g_hash_table_contains (w->paths, w->path->str))
    {
      w->cap = json_builder_new ();
      w->cap_depth = 0;
      w->cap_path = g_strdup (w->path->str);
      /* a builder holds a plain value only inside a container */
      w->cap_wrapped = !container;
      if (!container)
        json_builder_begin_array (w->cap);
      return TRUE;
    }
  *live = container && g_hash_table_contains (w->prefixes, w->path->str);
  return FALSE;
}

static void
capture_end_value (TressJsonWriter *w)
{
  if (w->cap != NULL && w->cap_depth == 0)
    {
      JsonNode *node;

      if (w->cap_wrapped)
        {
          JsonNode *array;

          json_builder_end_array (w->cap);
          array = json_builder_get_root (w->cap);
          node = json_node_copy (json_array_get_element (json_node_get_array (array), 0));
          json_node_unref (array);
        }
      else
        node = json_builder_get_root (w->cap);

      if (node != NULL)
        g_hash_table_replace (w->captured, g_steal_pointer (&w->cap_path), node);
      g_clear_object (&w->cap);
      g_clear_pointer (&w->cap_path, g_free);
      if (w->cap_stack != NULL && w->cap_stack->len > 0)
        {
          CapState *c = &g_array_index (w->cap_stack, CapState, w->cap_stack->len - 1);

          w->cap = c->cap;
          w->cap_depth = c->cap_depth;
          w->cap_wrapped = c->cap_wrapped;
          w->cap_path = c->cap_path;
          g_array_set_size (w->cap_stack, w->cap_stack->len - 1);
        }
    }
}

/* Text mode, before a value: separators and line breaks. */
static void
text_begin_value (TressJsonWriter *w, gboolean container)
{
  WFrame *f = top_frame (w);

  if (f == NULL || !f->array)
    return; /* top level, or after a member name */
  if (f->count > 0)
    g_string_append_c (w->out, ',');
  if (container && w->compact_depth == 0)
    {
      indent (w, w->frames->len);
      f->multiline = TRUE;
    }
  else if (f->count > 0)
    g_string_append_c (w->out, ' ');
}

/* Common start of a scalar; FALSE when nothing is to be written (capture
 * mode outside a captured value). The caller writes the text. */
static gboolean
scalar_begin (TressJsonWriter *w)
{
  if (w->out == NULL)
    {
      gboolean live;
      gboolean in_cap;
      WFrame *f = top_frame (w);

      if (w->cap != NULL && (w->skip_depth > 0 || w->skip_next))
        {
          w->skip_next = FALSE;
          if (f != NULL)
            f->count++;
          return FALSE;
        }
      in_cap = capture_begin_value (w, FALSE, &live);

      if (f != NULL)
        f->count++;
      return in_cap;
    }
  if (w->digest != NULL && (w->skip_depth > 0 || w->skip_next))
    {
      w->skip_next = FALSE;
      return FALSE;
    }
  text_begin_value (w, FALSE);
  if (top_frame (w) != NULL)
    top_frame (w)->count++;
  return TRUE;
}

static void
scalar_end (TressJsonWriter *w)
{
  if (w->out == NULL)
    capture_end_value (w);
  else
    flush (w, FALSE);
}

/* Capture mode inside a captured value, with containers to prune: the path
 * of the container that begins (in w->path). TRUE when it is pruned, and then
 * done: captured empty, and on its own where it is wanted too. */
static gboolean
capture_prune (TressJsonWriter *w, gboolean array, WFrame *nf)
{
  WFrame *f = top_frame (w);
  CapState saved;

  g_string_truncate (w->path, f != NULL ? f->path_len : 0);
  if (f != NULL)
    {
      if (f->array)
        g_string_append_printf (w->path, "/%u", f->count);
      else
        tress_json_pointer_append (w->path, w->member != NULL ? w->member : "");
    }
  nf->path_len = w->path->len;
  if (!g_hash_table_contains (w->prune, w->path->str))
    return FALSE;
  if (f != NULL)
    f->count++;
  if (array)
    {
      json_builder_begin_array (w->cap);
      json_builder_end_array (w->cap);
    }
  else
    {
      json_builder_begin_object (w->cap);
      json_builder_end_object (w->cap);
    }
  if (g_hash_table_contains (w->paths, w->path->str))
    {
      saved = (CapState){ w->cap, w->cap_depth, w->cap_wrapped, w->cap_path };
      g_array_append_val (w->cap_stack, saved);
      w->cap = json_builder_new ();
      w->cap_depth = 1;
      w->cap_wrapped = FALSE;
      w->cap_path = g_strdup (w->path->str);
      if (array)
        json_builder_begin_array (w->cap);
      else
        json_builder_begin_object (w->cap);
    }
  else
    {
      nf->skipped = TRUE;
      w->skip_depth++;
    }
  g_array_append_val (w->frames, *nf);
  return TRUE;
}

/* Digest mode: a container begins (its text so far is the parent's). */
static void
digest_begin (TressJsonWriter *w, gboolean array)
{
  WFrame *f = top_frame (w);
  const char *member = NULL;
  guint index = 0;

  digest_feed (w);
  if (f != NULL)
    {
      f->nested = TRUE;
      if (f->array)
        index = f->count;
      else
        member = w->member != NULL ? w->member : "";
    }
  w->digest->begin (w->digest_data, member, index, array);
}

/* Digest mode: container @f (off the stack) ends; its digest goes into its parent's. */
static void
digest_end (TressJsonWriter *w, WFrame *f)
{
  guint8 digest[TRESS_JSON_DIGEST_SIZE];
  gsize len = sizeof digest;

  g_checksum_update (f->sum, (const guchar *)w->out->str, w->out->len);
  f->size += w->out->len;
  g_string_truncate (w->out, 0);
  g_checksum_get_digest (f->sum, digest, &len);
  g_clear_pointer (&f->sum, g_checksum_free);
  w->digest->end (w->digest_data, digest, f->size, f->nested, f->count);
  for (guint i = w->frames->len; i-- > 0;)
    {
      WFrame *parent = &g_array_index (w->frames, WFrame, i);

      if (parent->sum != NULL)
        {
          g_checksum_update (parent->sum, digest, len);
          parent->size += f->size;
          break;
        }
    }
}

static void
begin_container (TressJsonWriter *w, gboolean array, gboolean compact)
{
  WFrame nf = { array, compact, FALSE, 0, 0, FALSE, FALSE, FALSE, NULL, 0 };
  WFrame *f;

  if (w->out == NULL)
    {
      gboolean live;
      gboolean in_cap;

      if (w->cap != NULL && (w->skip_depth > 0 || w->skip_next))
        {
          f = top_frame (w);
          if (f != NULL)
            f->count++;
          w->skip_next = FALSE;
          w->skip_depth++;
          nf.skipped = TRUE;
          nf.path_len = w->path->len;
          g_array_append_val (w->frames, nf);
          return;
        }
      if (w->cap != NULL && w->prune != NULL && capture_prune (w, array, &nf))
        return;
      in_cap = capture_begin_value (w, TRUE, &live);
      f = top_frame (w);
      if (f != NULL)
        f->count++;
      if (in_cap)
        {
          w->cap_depth++;
          if (array)
            json_builder_begin_array (w->cap);
          else
            json_builder_begin_object (w->cap);
        }
      nf.live = live;
      nf.path_len = w->path->len;
      g_array_append_val (w->frames, nf);
      return;
    }
  if (w->digest != NULL)
    {
      if (w->skip_depth > 0 || w->skip_next)
        {
          w->skip_next = FALSE;
          w->skip_depth++;
          nf.skipped = TRUE;
          g_array_append_val (w->frames, nf);
          return;
        }
      digest_begin (w, array);
      nf.sum = g_checksum_new (G_CHECKSUM_SHA256);
    }
  text_begin_value (w, TRUE);
  f = top_frame (w);
  if (f != NULL)
    f->count++;
  g_string_append_c (w->out, array ? '[' : '{');
  if (compact)
    w->compact_depth++;
  g_array_append_val (w->frames, nf);
}

static void
end_container (TressJsonWriter *w, gboolean array)
{
  WFrame f;
  gboolean was_compact;

  g_return_if_fail (w->frames->len > 0);
  f = *top_frame (w);
  g_return_if_fail (f.array == array);
  g_array_set_size (w->frames, w->frames->len - 1);
  if (w->out == NULL || f.skipped)
    {
      if (f.skipped)
        w->skip_depth--;
      else if (w->cap != NULL)
        {
          if (array)
            json_builder_end_array (w->cap);
          else
            json_builder_end_object (w->cap);
          w->cap_depth--;
          capture_end_value (w);
        }
      return;
    }
  was_compact = w->compact_depth > 0;
  if (f.compact)
    w->compact_depth--;
  if (!was_compact && f.count > 0 && (!array || f.multiline))
    indent (w, w->frames->len);
  g_string_append_c (w->out, array ? ']' : '}');
  if (w->digest != NULL)
    digest_end (w, &f);
  else
    flush (w, FALSE);
}

void
tress_json_begin_object (TressJsonWriter *w)
{
  begin_container (w, FALSE, FALSE);
}

void
tress_json_begin_object_compact (TressJsonWriter *w)
{
  begin_container (w, FALSE, TRUE);
}

void
tress_json_end_object (TressJsonWriter *w)
{
  end_container (w, FALSE);
}

void
tress_json_begin_array (TressJsonWriter *w)
{
  begin_container (w, TRUE, FALSE);
}

void
tress_json_begin_array_compact (TressJsonWriter *w)
{
  begin_container (w, TRUE, TRUE);
}

void
tress_json_end_array (TressJsonWriter *w)
{
  end_container (w, TRUE);
}

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
  WFrame *f = top_frame (w);

  g_return_if_fail (f != NULL && !f->array);
  if (w->out == NULL)
    {
      if (w->cap != NULL)
        {
          if (w->skip_depth > 0)
            return;
          if (skip_member (w, name))
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
      if (skip_member (w, name))
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
    indent (w, w->frames->len);
  append_string (w->out, name, strlen (name));
  g_string_append (w->out, ": ");
  /* The value that follows must not add an element separator: members are
   * counted before their value, so make the frame look like an object. */
}

void
tress_json_add_null (TressJsonWriter *w)
{
  if (!scalar_begin (w))
    return;
  if (w->out != NULL)
    g_string_append (w->out, "null");
  else
    json_builder_add_null_value (w->cap);
  scalar_end (w);
}

void
tress_json_add_bool (TressJsonWriter *w, gboolean v)
{
  if (!scalar_begin (w))
    return;
  if (w->out != NULL)
    g_string_append (w->out, v ? "true" : "false");
  else
    json_builder_add_boolean_value (w->cap, v);
  scalar_end (w);
}

void
tress_json_add_int (TressJsonWriter *w, gint64 v)
{
  if (!scalar_begin (w))
    return;
  if (w->out != NULL)
    {
      char buf[24];
      g_string_append_len (w->out, buf, put_int (buf, v));
    }
  else
    json_builder_add_int_value (w->cap, v);
  scalar_end (w);
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
  if (!scalar_begin (w))
    return;
  if (w->out != NULL)
    {
      format_double (buf, sizeof buf, v);
      g_string_append (w->out, buf);
    }
  else
    json_builder_add_double_value (w->cap, v);
  scalar_end (w);
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
  if (!scalar_begin (w))
    return;
  if (w->out != NULL)
    {
      format_float (buf, sizeof buf, v);
      g_string_append (w->out, buf);
    }
  else
    {
      /* The same value the text would read back as (a captured float is
       * compared with what the reader captured from the text). */
      format_float (buf, sizeof buf, v);
      json_builder_add_double_value (w->cap, g_ascii_strtod (buf, NULL));
    }
  scalar_end (w);
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
  if (!scalar_begin (w))
    return;
  if (w->out != NULL)
    append_string (w->out, s, len);
  else
    {
      g_autofree char *copy = g_strndup (s, len);
      json_builder_add_string_value (w->cap, copy);
    }
  scalar_end (w);
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

/* ==== reader ================================================================ */

typedef struct
{
  gboolean array;
  guint index;   /* elements entered so far − 1 (array) */
  GString *name; /* the current member (object) */
  gboolean has_current;
} RFrame;

struct _TressJsonReader
{
  const char *text;
  const char *p;
  const char *end;
  gboolean broken;
  GPtrArray *problems;
  guint n_errors;
  RFrame frames[MAX_DEPTH];
  guint depth;
  gboolean comma;            /* after_value has just passed a ',' */
  GString *scratch;          /* strings that are skipped */
  GHashTable *unknown;       /* pointer → JsonNode */
  GHashTable *unknown_names; /* pointer → the member's name, quoted (tress_json_quote) */
  guint consent;             /* what a build may do beyond the values given */
};

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
static char *
cut_text (char *s, gsize max)
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
  p->location = cut_text (p->location, MAX_MESSAGE);
  p->message = cut_text (p->message, MAX_MESSAGE);
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

static gboolean G_GNUC_PRINTF (2, 3) syntax_error (TressJsonReader *r, const char *format, ...)
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

static const char *
describe_here (TressJsonReader *r)
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
static gboolean
lex_string (TressJsonReader *r, GString *out)
{
  g_string_truncate (out, 0);
  if (r->p >= r->end || *r->p != '"')
    return syntax_error (r, "expected a string, found %s", describe_here (r));
  r->p++;
  for (;;)
    {
      const char *run = r->p;

      while (r->p < r->end && *r->p != '"' && *r->p != '\\' && (guchar)*r->p >= 0x20)
        r->p++;
      g_string_append_len (out, run, r->p - run);
      if (r->p >= r->end)
        return syntax_error (r, "a string is not closed before the end of the text");
      if (*r->p == '"')
        {
          r->p++;
          break;
        }
      if ((guchar)*r->p < 0x20)
        return syntax_error (r, "a control character inside a string");
      /* an escape */
      r->p++;
      if (r->p >= r->end)
        return syntax_error (r, "a string is not closed before the end of the text");
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
                  return syntax_error (r, "a \\u escape needs four hex digits");
                for (int i = 1; i <= 4; i++)
                  {
                    int d = hex_digit (r->p[i]);
                    if (d < 0)
                      return syntax_error (r, "a \\u escape needs four hex digits");
                    v = v * 16 + (guint)d;
                  }
                r->p += 5;
                if (pass == 0 && v >= 0xD800 && v < 0xDC00)
                  {
                    c = v;
                    if (r->end - r->p < 2 || r->p[0] != '\\' || r->p[1] != 'u')
                      return syntax_error (r, "a lone UTF-16 surrogate in a \\u escape");
                    r->p++;
                    continue;
                  }
                if (pass == 1)
                  {
                    if (v < 0xDC00 || v >= 0xE000)
                      return syntax_error (r, "a lone UTF-16 surrogate in a \\u escape");
                    c = 0x10000 + ((c - 0xD800) << 10) + (v - 0xDC00);
                  }
                else if (v >= 0xDC00 && v < 0xE000)
                  return syntax_error (r, "a lone UTF-16 surrogate in a \\u escape");
                else
                  c = v;
                break;
              }
            g_string_append_unichar (out, c);
            break;
          }
        default:
          return syntax_error (r, "an unknown escape \\%c in a string", *r->p);
        }
    }
  if (!g_utf8_validate_len (out->str, out->len, NULL))
    return syntax_error (r, "a string is not valid UTF-8");
  return TRUE;
}

/* A number token. When @value is non-NULL its value is computed: exactly
 * as strtod does (the digits and a power of ten both exact as doubles give
 * the correctly rounded quotient or product in one operation; other numbers
 * go through g_ascii_strtod). */
typedef struct
{
  double d;
  gboolean integral; /* no fraction or exponent in the text */
  gboolean int_ok;   /* the value is a whole number that fits in @i */
  gint64 i;
} Number;

static gboolean
lex_number (TressJsonReader *r, Number *value)
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
    return syntax_error (r, "expected a number");
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
        return syntax_error (r, "a number has no digits after its decimal point");
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
        return syntax_error (r, "a number has no digits in its exponent");
      for (; q < r->end && g_ascii_isdigit (*q); q++)
        if (e < 100000)
          e = e * 10 + (*q - '0');
      exp10 += eneg ? -e : e;
    }
  n = (gsize)(q - start);
  if (n >= MAX_NUMBER)
    return syntax_error (r, "a number of %" G_GSIZE_FORMAT " characters (at most %d are read)", n,
                         MAX_NUMBER - 1);
  r->p = q;
  if (value == NULL)
    return TRUE;
  value->integral = !fraction;
  if (!inexact && sig <= 15 && exp10 >= -22 && exp10 <= 22)
    value->d = exp10 >= 0 ? (double)mant * p10[exp10] : (double)mant / p10[-exp10];
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

static gboolean
lex_literal (TressJsonReader *r, const char *word)
{
  gsize n = strlen (word);

  if ((gsize)(r->end - r->p) < n || memcmp (r->p, word, n) != 0)
    return syntax_error (r, "expected %s", word);
  r->p += n;
  return TRUE;
}

/* After a value inside a container: the comma or the closing bracket. */
static gboolean
after_value (TressJsonReader *r)
{
  RFrame *f;

  if (r->broken || r->depth == 0)
    return !r->broken;
  f = &r->frames[r->depth - 1];
  skip_ws (r);
  if (r->p >= r->end)
    return syntax_error (r, "the text ends inside an %s", f->array ? "array" : "object");
  if (*r->p == ',')
    {
      r->p++;
      r->comma = TRUE;
      return TRUE;
    }
  if (*r->p == (f->array ? ']' : '}'))
    return TRUE; /* the next next_member/next_element sees it */
  return syntax_error (r, "expected ',' or '%c', found %s", f->array ? ']' : '}',
                       describe_here (r));
}

static gboolean
push (TressJsonReader *r, gboolean array)
{
  RFrame *f;

  if (r->depth >= MAX_DEPTH)
    return syntax_error (r, "values nested more than %d deep", MAX_DEPTH);
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
  if (!lex_string (r, r->scratch))
    return FALSE;
  skip_ws (r);
  if (r->p >= r->end || *r->p != ':')
    return syntax_error (r, "expected ':' after a member name");
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
          syntax_error (r, "the text ends where a value was expected");
          return;
        }
      switch (*r->p)
        {
        case '{':
        case '[':
          if (depth >= MAX_DEPTH)
            {
              syntax_error (r, "values nested more than %d deep", MAX_DEPTH);
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
          lex_string (r, r->scratch);
          done = TRUE;
          break;
        case 't':
          lex_literal (r, "true");
          done = TRUE;
          break;
        case 'f':
          lex_literal (r, "false");
          done = TRUE;
          break;
        case 'n':
          lex_literal (r, "null");
          done = TRUE;
          break;
        default:
          lex_number (r, NULL);
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
              syntax_error (r, "expected ',' or '%c', found %s", close[depth - 1],
                            describe_here (r));
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
  after_value (r);
}

/* A value of the wrong type: refused and skipped. */
static gboolean
wrong_type (TressJsonReader *r, const char *expected)
{
  skip_ws (r);
  if (r->p >= r->end)
    return syntax_error (r, "the text ends where %s was expected", expected);
  tress_json_reader_refuse (r, "expected %s, found %s", expected, describe_here (r));
  tress_json_reader_skip (r);
  return FALSE;
}

gboolean
tress_json_reader_begin_object (TressJsonReader *r)
{
  if (tress_json_reader_peek (r) != TRESS_JSON_OBJECT)
    return !r->broken && wrong_type (r, "an object");
  r->p++;
  return push (r, FALSE);
}

gboolean
tress_json_reader_begin_array (TressJsonReader *r)
{
  if (tress_json_reader_peek (r) != TRESS_JSON_ARRAY)
    return !r->broken && wrong_type (r, "an array");
  r->p++;
  return push (r, TRUE);
}

static void
pop (TressJsonReader *r)
{
  r->p++; /* the closing bracket */
  r->depth--;
  after_value (r);
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
      syntax_error (r, "the text ends inside an object");
      return NULL;
    }
  if (*r->p == '}' && !r->comma)
    {
      pop (r);
      return NULL;
    }
  if (*r->p == '}')
    {
      syntax_error (r, "a ',' before the end of an object");
      return NULL;
    }
  r->comma = FALSE;
  if (!lex_string (r, f->name))
    return NULL;
  skip_ws (r);
  if (r->p >= r->end || *r->p != ':')
    {
      g_autofree char *q = tress_json_quote (f->name->str, (gssize)f->name->len);
      syntax_error (r, "expected ':' after the member name %s", q);
      return NULL;
    }
  r->p++;
  f->has_current = TRUE;
  skip_ws (r);
  if (r->p < r->end && (*r->p == '}' || *r->p == ']' || *r->p == ','))
    {
      g_autofree char *q = tress_json_quote (f->name->str, (gssize)f->name->len);
      syntax_error (r, "the member %s has no value", q);
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
    return syntax_error (r, "the text ends inside an array");
  if (*r->p == ']' && !r->comma)
    {
      pop (r);
      return FALSE;
    }
  if (*r->p == ']')
    return syntax_error (r, "a ',' before the end of an array");
  r->comma = FALSE;
  if (f->has_current)
    f->index++;
  f->has_current = TRUE;
  if (*r->p == ',' || *r->p == '}')
    return syntax_error (r, "an array element is missing");
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

/* ---- values ---- */

/* A number, or a refusal for another type. */
static gboolean
read_number (TressJsonReader *r, const char *expected, Number *n)
{
  if (tress_json_reader_peek (r) != TRESS_JSON_NUMBER)
    return !r->broken && wrong_type (r, expected);
  if (!lex_number (r, n))
    return FALSE;
  return after_value (r);
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
      return !r->broken && wrong_type (r, expected);
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
    return !r->broken && wrong_type (r, "true or false");
  if (*r->p == 't')
    {
      if (!lex_literal (r, "true"))
        return FALSE;
      *out = TRUE;
    }
  else
    {
      if (!lex_literal (r, "false"))
        return FALSE;
      *out = FALSE;
    }
  return after_value (r);
}

char *
tress_json_reader_read_string (TressJsonReader *r)
{
  GString *s;

  if (tress_json_reader_peek (r) != TRESS_JSON_STRING)
    {
      if (!r->broken)
        wrong_type (r, "a string");
      return NULL;
    }
  s = g_string_new (NULL);
  if (!lex_string (r, s) || !after_value (r))
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
          if (!after_value (r) || !check_base64 (r, start, n, max_len))
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
      if (!lex_literal (r, "null") || !after_value (r))
        return NULL;
      return json_node_init_null (json_node_alloc ());
    default:
      syntax_error (r, "expected a value, found %s", describe_here (r));
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
  return cut_text (text, 57);
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
