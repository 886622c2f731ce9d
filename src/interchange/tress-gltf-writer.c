/* tress-gltf-writer.c: glTF 2.0 files — JSON, one binary buffer, accessors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-gltf-writer.h"

#include <math.h>
#include <string.h>

#include "core/tress-error.h"
#include "core/tress-file.h"

#define GLB_MAGIC 0x46546C67u /* "glTF" */
#define GLB_JSON 0x4E4F534Au  /* "JSON" */
#define GLB_BIN 0x004E4942u   /* "BIN\0" */

struct _TressGltfWriter
{
  JsonObject *root;
  GByteArray *bin;
  gboolean overflow; /* the buffer would pass TRESS_GLTF_MAX_SIZE: nothing more was added */
  guint64 n_non_finite;
  /* The view begun by begin_view, or −1. */
  int view;
  gsize view_start;
};

TressGltfWriter *
tress_gltf_writer_new (const char *generator)
{
  TressGltfWriter *self = g_new0 (TressGltfWriter, 1);
  JsonObject *asset = json_object_new ();

  self->root = json_object_new ();
  self->bin = g_byte_array_new ();
  self->view = -1;
  json_object_set_string_member (asset, "version", "2.0");
  if (generator != NULL)
    json_object_set_string_member (asset, "generator", generator);
  json_object_set_object_member (self->root, "asset", asset);
  return self;
}

void
tress_gltf_writer_free (TressGltfWriter *self)
{
  if (self == NULL)
    return;
  json_object_unref (self->root);
  g_byte_array_unref (self->bin);
  g_free (self);
}

JsonObject *
tress_gltf_writer_get_root (TressGltfWriter *self)
{
  return self->root;
}

static JsonArray *
array_of (TressGltfWriter *self, const char *name)
{
  if (!json_object_has_member (self->root, name))
    json_object_set_array_member (self->root, name, json_array_new ());
  return json_object_get_array_member (self->root, name);
}

guint
tress_gltf_writer_add (TressGltfWriter *self, const char *array, JsonObject *object)
{
  JsonArray *a = array_of (self, array);

  json_array_add_object_element (a, object);
  return json_array_get_length (a) - 1;
}

guint
tress_gltf_writer_count (TressGltfWriter *self, const char *array)
{
  if (!json_object_has_member (self->root, array))
    return 0;
  return json_array_get_length (json_object_get_array_member (self->root, array));
}

gsize
tress_gltf_writer_get_buffer_size (TressGltfWriter *self)
{
  return self->bin->len;
}

guint64
tress_gltf_writer_get_n_non_finite (TressGltfWriter *self)
{
  return self->n_non_finite;
}

/* Room for @n more bytes (and padding) within the size limit. */
static gboolean
has_room (TressGltfWriter *self, gsize n)
{
  if (self->overflow || n > TRESS_GLTF_MAX_SIZE - self->bin->len - 4)
    {
      self->overflow = TRUE;
      return FALSE;
    }
  return TRUE;
}

static void
pad4 (TressGltfWriter *self)
{
  static const guint8 zeros[4] = { 0 };

  if (self->bin->len % 4 != 0)
    g_byte_array_append (self->bin, zeros, 4 - self->bin->len % 4);
}

static guint
new_view (TressGltfWriter *self, gsize offset, gsize length, guint target)
{
  JsonObject *view = json_object_new ();

  json_object_set_int_member (view, "buffer", 0);
  json_object_set_int_member (view, "byteOffset", (gint64)offset);
  json_object_set_int_member (view, "byteLength", (gint64)MAX (length, 1));
  if (target != 0)
    json_object_set_int_member (view, "target", target);
  return tress_gltf_writer_add (self, "bufferViews", view);
}

void
tress_gltf_writer_begin_view (TressGltfWriter *self, guint target)
{
  g_return_if_fail (self->view < 0);
  pad4 (self);
  self->view_start = self->bin->len;
  self->view = (int)new_view (self, self->view_start, 0, target);
}

void
tress_gltf_writer_end_view (TressGltfWriter *self)
{
  JsonArray *views = array_of (self, "bufferViews");
  JsonObject *view;

  g_return_if_fail (self->view >= 0);
  view = json_array_get_object_element (views, (guint)self->view);
  json_object_set_int_member (view, "byteLength",
                              (gint64)MAX (self->bin->len - self->view_start, 1));
  self->view = -1;
}

static guint
component_size (guint component_type)
{
  switch (component_type)
    {
    case TRESS_GLTF_UNSIGNED_BYTE:
      return 1;
    case TRESS_GLTF_UNSIGNED_SHORT:
      return 2;
    default:
      return 4;
    }
}

static const char *
type_name (TressGltfType type)
{
  switch (type)
    {
    case TRESS_GLTF_SCALAR:
      return "SCALAR";
    case TRESS_GLTF_VEC2:
      return "VEC2";
    case TRESS_GLTF_VEC3:
      return "VEC3";
    case TRESS_GLTF_VEC4:
      return "VEC4";
    default:
      return "MAT4";
    }
}

/* Writes component @i of @data little-endian at @p; *value gets it (a
 * float made finite: @non_finite counts the ones replaced by 0). */
static void
put (guint8 *p, guint component_type, const void *data, const double *doubles, gsize i,
     double *value, guint64 *non_finite)
{
  switch (component_type)
    {
    case TRESS_GLTF_UNSIGNED_BYTE:
      *p = ((const guint8 *)data)[i];
      *value = *p;
      break;
    case TRESS_GLTF_UNSIGNED_SHORT:
      {
        guint16 u = ((const guint16 *)data)[i];

        *value = u;
        u = GUINT16_TO_LE (u);
        memcpy (p, &u, 2);
      }
      break;
    case TRESS_GLTF_UNSIGNED_INT:
      {
        guint32 u = ((const guint32 *)data)[i];

        *value = u;
        u = GUINT32_TO_LE (u);
        memcpy (p, &u, 4);
      }
      break;
    default:
      {
        float f = doubles != NULL ? (float)doubles[i] : ((const float *)data)[i];
        guint32 u;

        if (!isfinite (f))
          {
            f = 0;
            (*non_finite)++;
          }
        *value = f;
        memcpy (&u, &f, 4);
        u = GUINT32_TO_LE (u);
        memcpy (p, &u, 4);
      }
      break;
    }
}

static guint
add_accessor (TressGltfWriter *self, const void *data, const double *doubles, guint component_type,
              TressGltfType type, gsize count, guint target, gboolean min_max)
{
  JsonObject *acc = json_object_new ();
  guint comps = (guint)type;
  gsize size = component_size (component_type);
  gsize start;
  double lo[16], hi[16];
  guint view;

  g_return_val_if_fail (count > 0, 0);
  for (guint k = 0; k < comps; k++)
    lo[k] = G_MAXDOUBLE, hi[k] = -G_MAXDOUBLE;
  if (self->view < 0)
    pad4 (self);
  else
    while ((self->bin->len - self->view_start) % 4 != 0)
      g_byte_array_append (self->bin, (const guint8 *)"", 1);
  start = self->bin->len;
  if (count <= G_MAXSIZE / size / comps && has_room (self, count * comps * size))
    {
      guint8 *p;

      g_byte_array_set_size (self->bin, (guint)(start + count * comps * size));
      p = self->bin->data + start;
      for (gsize i = 0; i < count * comps; i++, p += size)
        {
          double v;

          put (p, component_type, data, doubles, i, &v, &self->n_non_finite);
          lo[i % comps] = MIN (lo[i % comps], v);
          hi[i % comps] = MAX (hi[i % comps], v);
        }
    }
  else
    count = 1, min_max = FALSE; /* refused by to_glb/to_gltf */
  if (self->view < 0)
    {
      view = new_view (self, start, self->bin->len - start, target);
      json_object_set_int_member (acc, "bufferView", view);
    }
  else
    {
      json_object_set_int_member (acc, "bufferView", self->view);
      if (start > self->view_start)
        json_object_set_int_member (acc, "byteOffset", (gint64)(start - self->view_start));
    }
  json_object_set_int_member (acc, "componentType", component_type);
  json_object_set_int_member (acc, "count", (gint64)count);
  json_object_set_string_member (acc, "type", type_name (type));
  if (min_max)
    {
      JsonArray *mn = json_array_new (), *mx = json_array_new ();

      for (guint k = 0; k < comps; k++)
        {
          if (component_type == TRESS_GLTF_FLOAT)
            {
              json_array_add_double_element (mn, lo[k]);
              json_array_add_double_element (mx, hi[k]);
            }
          else
            {
              json_array_add_int_element (mn, (gint64)lo[k]);
              json_array_add_int_element (mx, (gint64)hi[k]);
            }
        }
      json_object_set_array_member (acc, "min", mn);
      json_object_set_array_member (acc, "max", mx);
    }
  return tress_gltf_writer_add (self, "accessors", acc);
}

guint
tress_gltf_writer_add_accessor (TressGltfWriter *self, const void *data, guint component_type,
                                TressGltfType type, gsize count, guint target, gboolean min_max)
{
  return add_accessor (self, data, NULL, component_type, type, count, target, min_max);
}

guint
tress_gltf_writer_add_doubles (TressGltfWriter *self, const double *data, TressGltfType type,
                               gsize count, gboolean min_max)
{
  return add_accessor (self, NULL, data, TRESS_GLTF_FLOAT, type, count, 0, min_max);
}

static gboolean
check_size (TressGltfWriter *self, GError **error)
{
  if (self->overflow)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED,
                   "The glTF data would pass %" G_GSIZE_FORMAT " bytes, the most a GLB holds",
                   TRESS_GLTF_MAX_SIZE);
      return FALSE;
    }
  return TRUE;
}

/* The root as JSON, its "buffers" naming the binary buffer (at @uri, or the
 * GLB's own when NULL). */
static char *
root_json (TressGltfWriter *self, const char *uri, gboolean pretty, gsize *length)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) node = json_node_new (JSON_NODE_OBJECT);

  json_object_remove_member (self->root, "buffers");
  if (self->bin->len > 0)
    {
      JsonObject *buffer = json_object_new ();
      JsonArray *buffers = json_array_new ();

      json_object_set_int_member (buffer, "byteLength", self->bin->len);
      if (uri != NULL)
        json_object_set_string_member (buffer, "uri", uri);
      json_array_add_object_element (buffers, buffer);
      json_object_set_array_member (self->root, "buffers", buffers);
    }
  json_node_set_object (node, self->root);
  json_generator_set_root (gen, node);
  json_generator_set_pretty (gen, pretty);
  json_generator_set_indent (gen, 1);
  return json_generator_to_data (gen, length);
}

static void
put_u32 (GByteArray *out, guint32 v)
{
  v = GUINT32_TO_LE (v);
  g_byte_array_append (out, (const guint8 *)&v, 4);
}

GBytes *
tress_gltf_writer_to_glb (TressGltfWriter *self, GError **error)
{
  gsize json_len = 0, json_padded, bin_padded, total;
  g_autofree char *json = NULL;
  GByteArray *out;
  static const guint8 zeros[4] = { 0 };

  if (!check_size (self, error))
    return NULL;
  json = root_json (self, NULL, FALSE, &json_len);
  json_padded = (json_len + 3) / 4 * 4;
  bin_padded = (self->bin->len + 3) / 4 * 4;
  total = 12 + 8 + json_padded + (self->bin->len > 0 ? 8 + bin_padded : 0);
  if (json_len > TRESS_GLTF_MAX_SIZE || total > TRESS_GLTF_MAX_SIZE)
    {
      self->overflow = TRUE;
      check_size (self, error);
      return NULL;
    }
  out = g_byte_array_sized_new ((guint)total);
  put_u32 (out, GLB_MAGIC);
  put_u32 (out, 2);
  put_u32 (out, (guint32)total);
  put_u32 (out, (guint32)json_padded);
  put_u32 (out, GLB_JSON);
  g_byte_array_append (out, (const guint8 *)json, (guint)json_len);
  while (out->len % 4 != 0)
    g_byte_array_append (out, (const guint8 *)" ", 1);
  if (self->bin->len > 0)
    {
      put_u32 (out, (guint32)bin_padded);
      put_u32 (out, GLB_BIN);
      g_byte_array_append (out, self->bin->data, self->bin->len);
      g_byte_array_append (out, zeros, (guint)(bin_padded - self->bin->len));
    }
  return g_byte_array_free_to_bytes (out);
}

gboolean
tress_gltf_writer_to_gltf (TressGltfWriter *self, const char *bin_uri, GBytes **json, GBytes **bin,
                           GError **error)
{
  gsize len = 0;
  char *text;

  *json = NULL;
  *bin = NULL;
  if (!check_size (self, error))
    return FALSE;
  text = root_json (self, bin_uri, TRUE, &len);
  *json = g_bytes_new_take (text, len);
  if (self->bin->len > 0)
    *bin = g_bytes_new (self->bin->data, self->bin->len);
  return TRUE;
}

char *
tress_gltf_uri_for_file (const char *basename)
{
  /* RFC 3986 unreserved and sub-delims stay; spaces, '%', '#', '?' and
   * non-ASCII bytes are percent-encoded. */
  return g_uri_escape_string (basename, "!$&'()*+,;=@", FALSE);
}

gboolean
tress_gltf_file_is_split (GFile *file)
{
  g_autofree char *name = g_file_get_basename (file);
  gsize n = name != NULL ? strlen (name) : 0;

  return n > 5 && g_ascii_strcasecmp (name + n - 5, ".gltf") == 0;
}

GFile *
tress_gltf_bin_file_for (GFile *file)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autoptr (GFile) parent = g_file_get_parent (file);
  g_autofree char *stem = NULL, *bin = NULL;
  char *dot;

  g_return_val_if_fail (name != NULL && parent != NULL, NULL);
  stem = g_strdup (name);
  dot = strrchr (stem, '.');
  if (dot != NULL && dot != stem)
    *dot = '\0';
  bin = g_strconcat (stem, ".bin", NULL);
  return g_file_get_child (parent, bin);
}

static gboolean
replace (GFile *file, GBytes *bytes, gboolean backup, GCancellable *cancellable, GError **error)
{
  gsize len = 0;
  const char *data = g_bytes_get_data (bytes, &len);

  return tress_file_replace (file, data != NULL ? data : "", len, NULL, backup, NULL, cancellable,
                             error);
}

/* "a.bin" → "a.bin~", where tress_file_replace keeps the old file. */
static GFile *
backup_of (GFile *file)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *backup = g_strconcat (path, "~", NULL);

  return g_file_new_for_path (backup);
}

/* The file's name before a message that does not name it (those of
 * tress_file_replace do). */
static gboolean
prefix_name (GFile *file, GError **error)
{
  g_autofree char *name = g_file_get_parse_name (file);

  g_prefix_error (error, "%s: ", name);
  return FALSE;
}

gboolean
tress_gltf_writer_save (TressGltfWriter *self, GFile *file, GCancellable *cancellable,
                        guint64 *size, GError **error)
{
  if (size != NULL)
    *size = 0;
  if (tress_gltf_file_is_split (file))
    {
      g_autoptr (GFile) bin_file = tress_gltf_bin_file_for (file);
      g_autofree char *bin_name = g_file_get_basename (bin_file);
      g_autofree char *uri = tress_gltf_uri_for_file (bin_name);
      g_autoptr (GBytes) json = NULL, bin = NULL;
      g_autoptr (GFile) old_bin = NULL;
      gboolean had_bin;

      if (!tress_gltf_writer_to_gltf (self, uri, &json, &bin, error))
        return prefix_name (file, error);
      /* An old .bin is kept aside (NAME.bin~) until the new .gltf is in
       * place, and put back when it cannot be: the two files always go
       * together. */
      had_bin = bin != NULL && g_file_query_exists (bin_file, NULL);
      if (bin != NULL && !replace (bin_file, bin, had_bin, cancellable, error))
        return FALSE;
      old_bin = had_bin ? backup_of (bin_file) : NULL;
      /* The .bin is in place: the .gltf follows whatever comes. */
      if (!replace (file, json, FALSE, NULL, error))
        {
          if (old_bin != NULL)
            g_file_move (old_bin, bin_file, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, NULL);
          else if (bin != NULL)
            g_file_delete (bin_file, NULL, NULL);
          return FALSE;
        }
      if (old_bin != NULL)
        g_file_delete (old_bin, NULL, NULL);
      if (size != NULL)
        *size = g_bytes_get_size (json) + (bin != NULL ? g_bytes_get_size (bin) : 0);
      return TRUE;
    }
  else
    {
      g_autoptr (GBytes) glb = tress_gltf_writer_to_glb (self, error);

      if (glb == NULL)
        return prefix_name (file, error);
      if (!replace (file, glb, FALSE, cancellable, error))
        return FALSE;
      if (size != NULL)
        *size = g_bytes_get_size (glb);
      return TRUE;
    }
}
