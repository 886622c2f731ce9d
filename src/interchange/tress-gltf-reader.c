/* tress-gltf-reader.c: glTF 2.0 containers, buffers, buffer views and accessors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-gltf-reader-private.h"

#include <math.h>
#include <string.h>

#include "core/tress-error.h"
#include "core/tress-file.h"

#define GLB_MAGIC 0x46546C67u /* "glTF" */
#define GLB_JSON 0x4E4F534Au  /* "JSON" */
#define GLB_BIN 0x004E4942u   /* "BIN\0" */

#define BYTE 5120
#define UNSIGNED_BYTE 5121
#define SHORT 5122
#define UNSIGNED_SHORT 5123
#define UNSIGNED_INT 5125
#define FLOAT 5126

/* Sizes and counts past this are refused before any arithmetic. */
#define MAX_BYTES ((gint64)1 << 40)

const char *
reader_component_name (guint component_type)
{
  switch (component_type)
    {
    case BYTE:
      return "BYTE";
    case UNSIGNED_BYTE:
      return "UNSIGNED_BYTE";
    case SHORT:
      return "SHORT";
    case UNSIGNED_SHORT:
      return "UNSIGNED_SHORT";
    case UNSIGNED_INT:
      return "UNSIGNED_INT";
    case FLOAT:
      return "FLOAT";
    default:
      return "an unknown type";
    }
}

static guint
component_size (guint component_type)
{
  switch (component_type)
    {
    case BYTE:
    case UNSIGNED_BYTE:
      return 1;
    case SHORT:
    case UNSIGNED_SHORT:
      return 2;
    case UNSIGNED_INT:
    case FLOAT:
      return 4;
    default:
      return 0;
    }
}

/* ---- the container --------------------------------------------------------- */

/* Refuses JSON nested deeper than TRESS_GLTF_MAX_DEPTH (json-glib recurses
 * once per level), naming the byte where it gets too deep. */
static gboolean
check_depth (const char *text, gsize len, gsize base_offset, GError **error)
{
  guint depth = 0;
  gboolean in_string = FALSE, escaped = FALSE;

  for (gsize i = 0; i < len; i++)
    {
      char c = text[i];

      if (in_string)
        {
          if (escaped)
            escaped = FALSE;
          else if (c == '\\')
            escaped = TRUE;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }
      if (c == '"')
        in_string = TRUE;
      else if (c == '[' || c == '{')
        {
          if (++depth > TRESS_GLTF_MAX_DEPTH)
            return tress_field_error (
                error, TRESS_ERROR_UNSUPPORTED, base_offset + i, "JSON",
                "at most " G_STRINGIFY (TRESS_GLTF_MAX_DEPTH) " nested arrays and objects", "more");
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }
  return TRUE;
}

static gboolean
parse_json (GltfPrivate *p, const char *text, gsize len, gsize base_offset, GError **error)
{
  g_autoptr (GError) local = NULL;
  JsonNode *root;

  if (len == 0)
    return tress_field_error (error, TRESS_ERROR_TRUNCATED, base_offset, "JSON", "a JSON object",
                              "no text");
  if (!check_depth (text, len, base_offset, error))
    return FALSE;
  p->root_node = reader_parse_plain_json (text, len);
  if (p->root_node != NULL)
    {
      p->root = json_node_get_object (p->root_node);
      return TRUE;
    }
  p->parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (p->parser, text, (gssize)len, &local))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE, "JSON%s: %s",
                   base_offset > 0 ? " chunk" : "", local != NULL ? local->message : "unreadable");
      return FALSE;
    }
  root = json_parser_get_root (p->parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_autofree char *found = reader_describe (root);
      return reader_error (error, "JSON", "expected an object at the top, found %s", found);
    }
  p->root = json_node_get_object (root);
  return TRUE;
}

static guint32
le32 (const guint8 *p)
{
  return (guint32)p[0] | (guint32)p[1] << 8 | (guint32)p[2] << 16 | (guint32)p[3] << 24;
}

static gboolean
read_glb (GltfPrivate *p, GBytes *bytes, GError **error)
{
  gsize size;
  const guint8 *d = g_bytes_get_data (bytes, &size);
  guint32 length;
  gsize at = 12;
  gboolean have_json = FALSE;

  if (size < 12)
    return tress_field_error (error, TRESS_ERROR_TRUNCATED, 0, "GLB header", "12 bytes",
                              "%" G_GSIZE_FORMAT, size);
  if (le32 (d + 4) != 2)
    return tress_field_error (error, TRESS_ERROR_UNSUPPORTED, 4, "GLB version", "2", "%u",
                              le32 (d + 4));
  length = le32 (d + 8);
  if (length != size)
    return tress_field_error (error, TRESS_ERROR_TRUNCATED, 8, "GLB length", "the file's size",
                              "%u (the file holds %" G_GSIZE_FORMAT " bytes)", length, size);
  while (at < size)
    {
      guint32 chunk_length, type;

      if (size - at < 8)
        return tress_field_error (error, TRESS_ERROR_TRUNCATED, at, "GLB chunk header", "8 bytes",
                                  "%" G_GSIZE_FORMAT, size - at);
      chunk_length = le32 (d + at);
      type = le32 (d + at + 4);
      if (chunk_length > size - at - 8)
        return tress_field_error (error, TRESS_ERROR_TRUNCATED, at, "GLB chunk length",
                                  "at most the bytes left", "%u (%" G_GSIZE_FORMAT " left)",
                                  chunk_length, size - at - 8);
      if (!have_json)
        {
          if (type != GLB_JSON)
            return tress_field_error (error, TRESS_ERROR_BAD_VALUE, at + 4, "GLB first chunk type",
                                      "JSON (0x4E4F534A)", "0x%08X", type);
          if (!parse_json (p, (const char *)d + at + 8, chunk_length, at + 8, error))
            return FALSE;
          have_json = TRUE;
        }
      else if (type == GLB_BIN && p->bin == NULL)
        p->bin = g_bytes_new_from_bytes (bytes, at + 8, chunk_length);
      at += 8 + (gsize)chunk_length;
    }
  if (!have_json)
    return tress_field_error (error, TRESS_ERROR_TRUNCATED, 12, "GLB JSON chunk", "a chunk",
                              "none");
  return TRUE;
}

/* ---- buffers ---------------------------------------------------------------- */

static gboolean
decode_data_uri (const char *uri, const char *path, GBytes **out, GError **error)
{
  const char *comma = strchr (uri, ',');
  const char *data;
  gsize n;
  guchar *raw;

  if (comma == NULL || comma - uri < 12 || strncmp (comma - 7, ";base64", 7) != 0)
    return reader_member_error (error, path, "uri",
                                "expected a data: URI in base64 (data:…;base64,…)");
  data = comma + 1;
  n = strlen (data);
  for (gsize i = 0; i < n; i++)
    if (!g_ascii_isalnum (data[i]) && data[i] != '+' && data[i] != '/' && data[i] != '=')
      return reader_member_error (error, path, "uri",
                                  "character %" G_GSIZE_FORMAT " of the base64 data is "
                                  "not base64 (0x%02X)",
                                  i, (guint8)data[i]);
  raw = g_base64_decode (data, &n);
  *out = g_bytes_new_take (raw, n);
  return TRUE;
}

/* A relative URI without "..", scheme or absolute path, resolved beside @base. */
static GFile *
resolve_uri (GFile *base, const char *uri, const char *path, GError **error)
{
  g_autofree char *unescaped = g_uri_unescape_string (uri, NULL);
  g_autoptr (GFile) dir = NULL;
  g_auto (GStrv) parts = NULL;

  if (unescaped == NULL || unescaped[0] == '\0')
    {
      reader_member_error (error, path, "uri", "expected a relative URI, found \"%s\"", uri);
      return NULL;
    }
  if (g_uri_peek_scheme (uri) != NULL || g_path_is_absolute (unescaped)
      || strchr (unescaped, '\\') != NULL)
    {
      reader_member_error (
          error, path, "uri",
          "only data: URIs and paths relative to the glTF file are read, not \"%s\"", uri);
      return NULL;
    }
  parts = g_strsplit (unescaped, "/", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    if (g_str_equal (parts[i], ".."))
      {
        reader_member_error (error, path, "uri", "\"%s\" leaves the glTF file's folder; not read",
                             uri);
        return NULL;
      }
  if (base == NULL)
    {
      reader_member_error (error, path, "uri",
                           "\"%s\" names a file, but the glTF came from no file", uri);
      return NULL;
    }
  dir = g_file_get_parent (base);
  return g_file_resolve_relative_path (dir, unescaped);
}

static GBytes *
load_file (GFile *file, const char *path, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autoptr (GFileInfo) info = NULL;
  g_autofree char *name = g_file_get_parse_name (file);
  char *contents = NULL;
  gsize len = 0;

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_TYPE "," G_FILE_ATTRIBUTE_STANDARD_SIZE,
                            G_FILE_QUERY_INFO_NONE, NULL, &local);
  if (info == NULL)
    {
      reader_error (error, path, "%s", local->message);
      return NULL;
    }
  if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    {
      reader_error (error, path, "%s is not a regular file", name);
      return NULL;
    }
  if (g_file_info_get_size (info) > TRESS_FILE_MAX_SIZE)
    {
      reader_error (error, path,
                    "%s holds %" G_GINT64_FORMAT " bytes, more than the %" G_GINT64_FORMAT
                    " Tress reads",
                    name, (gint64)g_file_info_get_size (info), (gint64)TRESS_FILE_MAX_SIZE);
      return NULL;
    }
  if (!g_file_load_contents (file, NULL, &contents, &len, NULL, &local))
    {
      reader_error (error, path, "%s", local->message);
      return NULL;
    }
  return g_bytes_new_take (contents, len);
}

static gboolean
read_buffers (TressGltfDocument *doc, GError **error)
{
  GltfPrivate *p = GLTF_PRIV (doc);
  JsonArray *a;

  if (!reader_get_objects (p->root, "buffers", &a, error))
    return FALSE;
  p->n_buffers = a != NULL ? json_array_get_length (a) : 0;
  p->buffers = g_new0 (GltfBuffer, p->n_buffers + 1);
  for (guint i = 0; i < p->n_buffers; i++)
    {
      JsonObject *o = reader_element (a, i);
      g_autofree char *path = g_strdup_printf ("buffers[%u]", i);
      const char *uri;
      gint64 length;

      if (!json_object_has_member (o, "byteLength"))
        return reader_error (error, path, "byteLength is missing");
      if (!reader_get_size (o, path, "byteLength", 1, MAX_BYTES, 0, &length, error)
          || !reader_get_string (o, path, "uri", &uri, error))
        return FALSE;
      p->buffers[i].byte_length = (gsize)length;
      if (uri == NULL)
        {
          if (!p->glb || i != 0)
            return reader_error (error, path,
                                 "no uri: only the first buffer of a GLB may have none (its BIN "
                                 "chunk)");
          if (p->bin == NULL || g_bytes_get_size (p->bin) < (gsize)length)
            return reader_member_error (error, path, "byteLength",
                                        "expected at most the GLB's BIN chunk (%" G_GSIZE_FORMAT
                                        " bytes), found %" G_GINT64_FORMAT,
                                        p->bin != NULL ? g_bytes_get_size (p->bin) : 0, length);
          p->buffers[i].data = g_bytes_ref (p->bin);
        }
    }
  return TRUE;
}

/* The bytes of buffer @i, read from its URI the first time. */
static GBytes *
buffer_data (TressGltfDocument *doc, guint i, GError **error)
{
  GltfPrivate *p = GLTF_PRIV (doc);
  GltfBuffer *b = &p->buffers[i];
  g_autofree char *path = g_strdup_printf ("buffers[%u]", i);
  JsonObject *o;
  const char *uri = NULL;
  GBytes *data = NULL;

  if (b->data != NULL)
    return b->data;
  o = json_array_get_object_element (json_object_get_array_member (p->root, "buffers"), i);
  (void)reader_get_string (o, path, "uri", &uri, NULL);
  if (g_str_has_prefix (uri, "data:"))
    {
      if (!decode_data_uri (uri, path, &data, error))
        return NULL;
    }
  else
    {
      g_autoptr (GFile) file = resolve_uri (p->base, uri, path, error);

      if (file == NULL)
        return NULL;
      data = load_file (file, path, error);
      if (data == NULL)
        return NULL;
    }
  if (g_bytes_get_size (data) < b->byte_length)
    {
      reader_member_error (error, path, "byteLength",
                           "expected at most the %" G_GSIZE_FORMAT " bytes of its uri, found "
                           "%" G_GSIZE_FORMAT,
                           g_bytes_get_size (data), b->byte_length);
      g_bytes_unref (data);
      return NULL;
    }
  /* What a file read brings in may be decoded too (2 values a byte). */
  p->budget += 2 * MIN (g_bytes_get_size (data), b->byte_length);
  b->data = data;
  return data;
}

/* ---- buffer views and accessors ------------------------------------------- */

static gboolean
read_views (TressGltfDocument *doc, GError **error)
{
  GltfPrivate *p = GLTF_PRIV (doc);
  JsonArray *a;

  if (!reader_get_objects (p->root, "bufferViews", &a, error))
    return FALSE;
  p->n_views = a != NULL ? json_array_get_length (a) : 0;
  p->views = g_new0 (GltfView, p->n_views + 1);
  for (guint i = 0; i < p->n_views; i++)
    {
      JsonObject *o = reader_element (a, i);
      g_autofree char *path = g_strdup_printf ("bufferViews[%u]", i);
      GltfView *v = &p->views[i];
      gint64 offset, length, stride;
      int buffer;

      if (!json_object_has_member (o, "byteLength"))
        return reader_error (error, path, "byteLength is missing");
      if (!reader_get_index (o, path, "buffer", p->n_buffers, "buffers", TRUE, &buffer, error)
          || !reader_get_size (o, path, "byteOffset", 0, MAX_BYTES, 0, &offset, error)
          || !reader_get_size (o, path, "byteLength", 1, MAX_BYTES, 0, &length, error)
          || !reader_get_size (o, path, "byteStride", 4, 252, 0, &stride, error))
        return FALSE;
      if (stride % 4 != 0)
        return reader_member_error (error, path, "byteStride",
                                    "expected a multiple of 4, found %" G_GINT64_FORMAT, stride);
      if ((guint64)offset + (guint64)length > p->buffers[buffer].byte_length)
        return reader_error (error, path,
                             "byteOffset %" G_GINT64_FORMAT " + byteLength %" G_GINT64_FORMAT
                             " pass the end of buffers[%d] (%" G_GSIZE_FORMAT " bytes)",
                             offset, length, buffer, p->buffers[buffer].byte_length);
      v->buffer = (guint)buffer;
      v->byte_offset = (gsize)offset;
      v->byte_length = (gsize)length;
      v->byte_stride = (guint)stride;
    }
  return TRUE;
}

static const struct
{
  const char *name;
  guint n, rows;
} types[] = {
  { "SCALAR", 1, 1 }, { "VEC2", 2, 2 }, { "VEC3", 3, 3 },  { "VEC4", 4, 4 },
  { "MAT2", 4, 2 },   { "MAT3", 9, 3 }, { "MAT4", 16, 4 },
};

/* Bytes of one element: matrix columns start on 4-byte boundaries. */
static gsize
element_size (const GltfAccessor *a)
{
  guint cs = component_size (a->component_type);

  if (a->n_components == a->rows)
    return (gsize)cs * a->n_components;
  return (gsize)(a->n_components / a->rows) * (((gsize)a->rows * cs + 3) & ~(gsize)3);
}

/* Whether @bytes from @offset lie within view @v, else an error at @path. */
static gboolean
within_view (TressGltfDocument *doc, int v, guint64 offset, guint64 bytes, const char *path,
             const char *what, GError **error)
{
  const GltfView *view = &GLTF_PRIV (doc)->views[v];

  if (offset + bytes > view->byte_length)
    return reader_error (error, path,
                         "%s need %" G_GUINT64_FORMAT " bytes from byteOffset %" G_GUINT64_FORMAT
                         "; bufferViews[%d] holds %" G_GSIZE_FORMAT,
                         what, bytes, offset, v, view->byte_length);
  return TRUE;
}

static gboolean
read_sparse (TressGltfDocument *doc, GltfAccessor *acc, JsonObject *o, const char *path,
             GError **error)
{
  GltfPrivate *p = GLTF_PRIV (doc);
  JsonNode *node = json_object_get_member (o, "sparse");
  g_autofree char *spath = g_strconcat (path, ".sparse", NULL);
  g_autofree char *ipath = g_strconcat (path, ".sparse.indices", NULL);
  g_autofree char *vpath = g_strconcat (path, ".sparse.values", NULL);
  JsonObject *s, *indices, *values;
  gint64 count, ioff, voff, itype;
  g_autofree char *what = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return reader_error (error, spath, "expected an object");
  s = json_node_get_object (node);
  if (!json_object_has_member (s, "count"))
    return reader_error (error, spath, "count is missing");
  if (!reader_get_size (s, spath, "count", 1, (gint64)acc->count, 0, &count, error))
    return FALSE;
  node = json_object_get_member (s, "indices");
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return reader_member_error (error, spath, "indices", "expected an object");
  indices = json_node_get_object (node);
  node = json_object_get_member (s, "values");
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return reader_member_error (error, spath, "values", "expected an object");
  values = json_node_get_object (node);
  if (!reader_get_index (indices, ipath, "bufferView", p->n_views, "bufferViews", TRUE,
                         &acc->sparse_index_view, error)
      || !reader_get_size (indices, ipath, "byteOffset", 0, MAX_BYTES, 0, &ioff, error)
      || !reader_get_size (indices, ipath, "componentType", 0, G_MAXINT32, -1, &itype, error)
      || !reader_get_index (values, vpath, "bufferView", p->n_views, "bufferViews", TRUE,
                            &acc->sparse_value_view, error)
      || !reader_get_size (values, vpath, "byteOffset", 0, MAX_BYTES, 0, &voff, error))
    return FALSE;
  if (itype != UNSIGNED_BYTE && itype != UNSIGNED_SHORT && itype != UNSIGNED_INT)
    return reader_member_error (error, ipath, "componentType",
                                "expected 5121, 5123 or 5125 (unsigned integers), found "
                                "%" G_GINT64_FORMAT,
                                itype);
  acc->sparse_count = (gsize)count;
  acc->sparse_index_offset = (gsize)ioff;
  acc->sparse_index_type = (guint)itype;
  acc->sparse_value_offset = (gsize)voff;
  what = g_strdup_printf ("%" G_GINT64_FORMAT " sparse indices", count);
  if (!within_view (doc, acc->sparse_index_view, (guint64)ioff,
                    (guint64)count * component_size ((guint)itype), ipath, what, error))
    return FALSE;
  g_free (what);
  what = g_strdup_printf ("%" G_GINT64_FORMAT " sparse values", count);
  return within_view (doc, acc->sparse_value_view, (guint64)voff,
                      (guint64)count * element_size (acc), vpath, what, error);
}

static gboolean
read_accessors (TressGltfDocument *doc, GError **error)
{
  GltfPrivate *p = GLTF_PRIV (doc);
  JsonArray *a;

  if (!reader_get_objects (p->root, "accessors", &a, error))
    return FALSE;
  p->n_accessors = a != NULL ? json_array_get_length (a) : 0;
  p->accessors = g_new0 (GltfAccessor, p->n_accessors + 1);
  for (guint i = 0; i < p->n_accessors; i++)
    {
      JsonObject *o = reader_element (a, i);
      g_autofree char *path = g_strdup_printf ("accessors[%u]", i);
      GltfAccessor *acc = &p->accessors[i];
      gint64 offset, type, count;
      const char *type_name;
      JsonNode *normalized = json_object_get_member (o, "normalized");
      guint k;

      if (!json_object_has_member (o, "count"))
        return reader_error (error, path, "count is missing");
      if (!reader_get_index (o, path, "bufferView", p->n_views, "bufferViews", FALSE, &acc->view,
                             error)
          || !reader_get_size (o, path, "byteOffset", 0, MAX_BYTES, 0, &offset, error)
          || !reader_get_size (o, path, "componentType", 0, G_MAXINT32, -1, &type, error)
          || !reader_get_size (o, path, "count", 1, MAX_BYTES, 0, &count, error)
          || !reader_get_string (o, path, "type", &type_name, error))
        return FALSE;
      if (component_size ((guint)type) == 0)
        return reader_member_error (error, path, "componentType",
                                    "expected 5120, 5121, 5122, 5123, 5125 or 5126, found "
                                    "%" G_GINT64_FORMAT,
                                    type);
      for (k = 0; k < G_N_ELEMENTS (types); k++)
        if (g_strcmp0 (type_name, types[k].name) == 0)
          break;
      if (k == G_N_ELEMENTS (types))
        return reader_member_error (
            error, path, "type",
            "expected SCALAR, VEC2, VEC3, VEC4, MAT2, MAT3 or MAT4, found %s%s%s",
            type_name ? "\"" : "", type_name ? type_name : "nothing", type_name ? "\"" : "");
      if (normalized != NULL
          && (!JSON_NODE_HOLDS_VALUE (normalized)
              || json_node_get_value_type (normalized) != G_TYPE_BOOLEAN))
        return reader_member_error (error, path, "normalized", "expected true or false");
      acc->normalized = normalized != NULL && json_node_get_boolean (normalized);
      if (acc->normalized && (type == FLOAT || type == UNSIGNED_INT))
        return reader_member_error (error, path, "normalized", "not allowed for %s components",
                                    reader_component_name ((guint)type));
      if (acc->view < 0 && offset != 0)
        return reader_member_error (error, path, "byteOffset",
                                    "only an accessor with a bufferView has one");
      acc->byte_offset = (gsize)offset;
      acc->component_type = (guint)type;
      acc->count = (gsize)count;
      acc->n_components = types[k].n;
      acc->rows = types[k].rows;
      if (acc->view >= 0)
        {
          const GltfView *v = &p->views[acc->view];
          gsize esize = element_size (acc), stride = v->byte_stride ? v->byte_stride : esize;
          g_autofree char *what = NULL;

          if (stride < esize)
            return reader_error (
                error, path,
                "bufferViews[%d].byteStride %u is less than the accessor's element "
                "size (%" G_GSIZE_FORMAT " bytes)",
                acc->view, v->byte_stride, esize);
          what = g_strdup_printf ("%" G_GINT64_FORMAT " elements of %" G_GSIZE_FORMAT
                                  " bytes (stride %" G_GSIZE_FORMAT ")",
                                  count, esize, stride);
          if (!within_view (doc, acc->view, (guint64)offset,
                            (guint64)stride * (guint64)(count - 1) + esize, path, what, error))
            return FALSE;
        }
      acc->sparse_index_view = acc->sparse_value_view = -1;
      if (json_object_has_member (o, "sparse") && !read_sparse (doc, acc, o, path, error))
        return FALSE;
    }
  return TRUE;
}

const GltfAccessor *
reader_accessor (TressGltfDocument *doc, guint index)
{
  return &GLTF_PRIV (doc)->accessors[index];
}

/* The bytes of view @v (its buffer read when needed). */
static const guint8 *
view_bytes (TressGltfDocument *doc, int v, GError **error)
{
  const GltfView *view = &GLTF_PRIV (doc)->views[v];
  GBytes *data = buffer_data (doc, view->buffer, error);

  if (data == NULL)
    return NULL;
  return (const guint8 *)g_bytes_get_data (data, NULL) + view->byte_offset;
}

static double
read_component (const guint8 *p, guint type, gboolean normalized)
{
  switch (type)
    {
    case BYTE:
      return normalized ? MAX ((gint8)p[0] / 127.0, -1.0) : (gint8)p[0];
    case UNSIGNED_BYTE:
      return normalized ? p[0] / 255.0 : p[0];
    case SHORT:
      {
        gint16 v = (gint16)(p[0] | p[1] << 8);
        return normalized ? MAX (v / 32767.0, -1.0) : v;
      }
    case UNSIGNED_SHORT:
      {
        guint16 v = (guint16)(p[0] | p[1] << 8);
        return normalized ? v / 65535.0 : v;
      }
    case UNSIGNED_INT:
      return le32 (p);
    default:
      {
        guint32 bits = le32 (p);
        float f;

        memcpy (&f, &bits, sizeof f);
        return f;
      }
    }
}

/* Element at @p into @out (n_components doubles). */
static void
read_element (const GltfAccessor *a, const guint8 *p, double *out)
{
  guint cs = component_size (a->component_type);
  gsize column = a->n_components == a->rows ? 0 : (((gsize)a->rows * cs + 3) & ~(gsize)3);

  for (guint k = 0; k < a->n_components; k++)
    out[k] = read_component (p + (k / a->rows) * column + (k % a->rows) * cs, a->component_type,
                             a->normalized);
}

static gboolean
apply_sparse (TressGltfDocument *doc, GltfAccessor *a, const char *path, const char *user,
              double *out, GError **error)
{
  const guint8 *idx = view_bytes (doc, a->sparse_index_view, error);
  const guint8 *val = idx != NULL ? view_bytes (doc, a->sparse_value_view, error) : NULL;
  guint is = component_size (a->sparse_index_type);
  gsize esize = element_size (a);
  guint64 previous = 0;

  if (val == NULL)
    return FALSE;
  idx += a->sparse_index_offset;
  val += a->sparse_value_offset;
  for (gsize i = 0; i < a->sparse_count; i++)
    {
      guint64 at = (guint64)read_component (idx + i * is, a->sparse_index_type, FALSE);

      if (at >= a->count || (i > 0 && at <= previous))
        return reader_error (
            error, path,
            "sparse index %" G_GSIZE_FORMAT " (%" G_GUINT64_FORMAT
            "): expected indices strictly increasing and below count %" G_GSIZE_FORMAT
            " (read for %s)",
            i, at, a->count, user);
      read_element (a, val + i * esize, out + at * a->n_components);
      previous = at;
    }
  return TRUE;
}

const double *
reader_read_accessor (TressGltfDocument *doc, guint index, const char *user, gsize *count,
                      guint *n_components, GError **error)
{
  GltfPrivate *p = GLTF_PRIV (doc);
  GltfAccessor *a = &p->accessors[index];
  g_autofree char *path = g_strdup_printf ("accessors[%u]", index);
  g_autofree double *out = NULL;
  gsize n;

  *count = a->count;
  *n_components = a->n_components;
  if (a->decoded != NULL)
    return a->decoded;
  n = a->count * a->n_components;
  if (a->count > G_MAXSIZE / 16 / sizeof (double) || n > p->budget)
    {
      reader_error (error, path,
                    "%" G_GSIZE_FORMAT " values (read for %s) pass what the reader decodes for a "
                    "file of this size (%" G_GSIZE_FORMAT " more values)",
                    n, user, p->budget);
      return NULL;
    }
  out = g_new0 (double, n + 1);
  if (a->view >= 0)
    {
      const guint8 *d = view_bytes (doc, a->view, error);
      const GltfView *v = &p->views[a->view];
      gsize stride = v->byte_stride ? v->byte_stride : element_size (a);

      if (d == NULL)
        return NULL;
      d += a->byte_offset;
      if (a->component_type == FLOAT)
        {
          /* (animation data: a float's columns lie end to end, 4-aligned;
           * the view holds count − 1 strides and an element, checked when
           * read) */
          for (gsize i = 0; i < a->count; i++)
            {
              const guint8 *e = d + i * stride;
              double *o = out + i * a->n_components;

              for (guint k = 0; k < a->n_components; k++)
                {
                  guint32 bits = le32 (e + 4 * (gsize)k);
                  float f;

                  memcpy (&f, &bits, sizeof f);
                  o[k] = f;
                }
            }
        }
      else
        for (gsize i = 0; i < a->count; i++)
          read_element (a, d + i * stride, out + i * a->n_components);
    }
  if (a->sparse_count > 0 && !apply_sparse (doc, a, path, user, out, error))
    return NULL;
  for (gsize i = 0; i < n; i++)
    if (!isfinite (out[i]))
      {
        reader_error (error, path,
                      "value %" G_GSIZE_FORMAT " (element %" G_GSIZE_FORMAT
                      ", read for %s) is not a finite number",
                      i, i / a->n_components, user);
        return NULL;
      }
  p->budget -= n;
  a->decoded = g_steal_pointer (&out);
  return a->decoded;
}

/* ---- the document ----------------------------------------------------------- */

static gboolean
read_asset (TressGltfDocument *doc, GError **error)
{
  GltfPrivate *p = GLTF_PRIV (doc);
  JsonNode *node = json_object_get_member (p->root, "asset");
  JsonObject *asset;
  const char *version, *generator;
  JsonArray *required = NULL;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return reader_error (error, "asset", "expected an object with the glTF version");
  asset = json_node_get_object (node);
  if (!reader_get_string (asset, "asset", "version", &version, error)
      || !reader_get_string (asset, "asset", "generator", &generator, error))
    return FALSE;
  if (version == NULL || !g_str_has_prefix (version, "2."))
    return reader_error (error, "asset.version", "expected \"2.0\", found %s%s%s",
                         version ? "\"" : "", version ? version : "nothing", version ? "\"" : "");
  doc->generator = g_strdup (generator);
  node = json_object_get_member (p->root, "extensionsUsed");
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    for (guint i = 0; i < json_array_get_length (json_node_get_array (node)); i++)
      {
        JsonNode *e = json_array_get_element (json_node_get_array (node), i);

        if (JSON_NODE_HOLDS_VALUE (e) && json_node_get_value_type (e) == G_TYPE_STRING
            && g_str_equal (json_node_get_string (e), "KHR_mesh_quantization"))
          p->quantized = TRUE;
      }
  node = json_object_get_member (p->root, "extensionsRequired");
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    required = json_node_get_array (node);
  for (guint i = 0; required != NULL && i < json_array_get_length (required); i++)
    {
      JsonNode *e = json_array_get_element (required, i);
      const char *name = JSON_NODE_HOLDS_VALUE (e) && json_node_get_value_type (e) == G_TYPE_STRING
                             ? json_node_get_string (e)
                             : NULL;

      /* Compressed buffer views cannot be read as plain bytes. */
      if (name != NULL && g_str_has_suffix (name, "_meshopt_compression"))
        return reader_error (error, "extensionsRequired",
                             "%s: compressed buffer views are not read; export without it", name);
    }
  return TRUE;
}

TressGltfDocument *
tress_gltf_document_new (GBytes *bytes, GFile *base, GError **error)
{
  g_autoptr (TressGltfDocument) doc = g_new0 (TressGltfDocument, 1);
  GltfPrivate *p = g_new0 (GltfPrivate, 1);
  gsize size;
  const guint8 *d = g_bytes_get_data (bytes, &size);

  doc->priv = p;
  p->base = base != NULL ? g_object_ref (base) : NULL;
  p->budget = TRESS_GLTF_READ_BUDGET + 2 * size;
  p->glb = size >= 4 && le32 (d) == GLB_MAGIC;
  if (p->glb)
    {
      if (!read_glb (p, bytes, error))
        return NULL;
    }
  else if (!parse_json (p, (const char *)d, size, 0, error))
    return NULL;
  if (!read_asset (doc, error) || !read_buffers (doc, error) || !read_views (doc, error)
      || !read_accessors (doc, error) || !reader_read_objects (doc, error))
    return NULL;
  return g_steal_pointer (&doc);
}

TressGltfDocument *
tress_gltf_document_new_for_file (GFile *file, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autofree char *name = g_file_get_parse_name (file);

  bytes = load_file (file, name, &local);
  if (bytes == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  return tress_gltf_document_new (bytes, file, error);
}

void
tress_gltf_document_free (TressGltfDocument *doc)
{
  GltfPrivate *p;

  if (doc == NULL)
    return;
  p = GLTF_PRIV (doc);
  reader_free_objects (doc);
  g_free (doc->generator);
  if (p != NULL)
    {
      for (guint i = 0; i < p->n_buffers; i++)
        g_clear_pointer (&p->buffers[i].data, g_bytes_unref);
      g_free (p->buffers);
      g_free (p->views);
      for (guint i = 0; i < p->n_accessors; i++)
        g_free (p->accessors[i].decoded);
      g_free (p->accessors);
      g_clear_pointer (&p->bin, g_bytes_unref);
      g_clear_object (&p->parser);
      g_clear_pointer (&p->root_node, json_node_unref);
      g_clear_object (&p->base);
      g_free (p);
    }
  g_free (doc);
}
