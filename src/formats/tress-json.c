/* tress-json.c: streaming JSON writer: its modes and containers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-json-private.h"

#include <errno.h>
#include <gio/gio.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

/* ==== writer ================================================================ */

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

gboolean
_tress_json_skip_member (TressJsonWriter *w, const char *name)
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

void
_tress_json_indent (TressJsonWriter *w, guint depth)
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
  WFrame *f = _tress_json_top_frame (w);

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
  WFrame *f = _tress_json_top_frame (w);

  if (f == NULL || !f->array)
    return; /* top level, or after a member name */
  if (f->count > 0)
    g_string_append_c (w->out, ',');
  if (container && w->compact_depth == 0)
    {
      _tress_json_indent (w, w->frames->len);
      f->multiline = TRUE;
    }
  else if (f->count > 0)
    g_string_append_c (w->out, ' ');
}

/* Common start of a scalar; FALSE when nothing is to be written (capture
 * mode outside a captured value). The caller writes the text. */
gboolean
_tress_json_scalar_begin (TressJsonWriter *w)
{
  if (w->out == NULL)
    {
      gboolean live;
      gboolean in_cap;
      WFrame *f = _tress_json_top_frame (w);

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
  if (_tress_json_top_frame (w) != NULL)
    _tress_json_top_frame (w)->count++;
  return TRUE;
}

void
_tress_json_scalar_end (TressJsonWriter *w)
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
  WFrame *f = _tress_json_top_frame (w);
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
  WFrame *f = _tress_json_top_frame (w);
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
          f = _tress_json_top_frame (w);
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
      f = _tress_json_top_frame (w);
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
  f = _tress_json_top_frame (w);
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
  f = *_tress_json_top_frame (w);
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
    _tress_json_indent (w, w->frames->len);
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
