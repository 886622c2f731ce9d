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

/* Accessors and animation channels come by the tens of thousands (every
 * joint of every animation): they are kept as plain structs and written
 * straight into the JSON text, rather than as json-glib objects (a hash
 * table and a node per member each), which cost most of a big export. */
typedef struct
{
  guint view;
  gsize offset; /* in the view (written when > 0) */
  guint component_type;
  gsize count;
  TressGltfType type;
  int bounds; /* index into the writer's bounds (min then max), or −1 */
} Accessor;

static const char *const channel_paths[] = { "translation", "rotation", "scale", "weights" };
static const char *const interpolations[] = { "LINEAR", "STEP", "CUBICSPLINE" };

typedef struct
{
  guint input, output, node;
  guint8 path;          /* into channel_paths */
  guint8 interpolation; /* into interpolations */
} Channel;

typedef struct
{
  JsonObject *object; /* an animation added whole (tress_gltf_writer_add), or NULL */
  char *name;
  JsonObject *extras;
  GArray *channels; /* Channel */
} Animation;

struct _TressGltfWriter
{
  JsonObject *root; /* everything but "accessors" and "animations" */
  GByteArray *bin;
  gboolean overflow; /* the buffer would pass TRESS_GLTF_MAX_SIZE: nothing more was added */
  guint64 n_non_finite;
  /* The view begun by begin_view, or −1. */
  int view;
  gsize view_start;
  GArray *accessors;     /* Accessor */
  GArray *bounds;        /* double */
  GPtrArray *animations; /* Animation */
  Animation *animation;  /* begun by begin_animation, or NULL */
};

static void
animation_free (gpointer data)
{
  Animation *a = data;

  g_clear_pointer (&a->object, json_object_unref);
  g_clear_pointer (&a->extras, json_object_unref);
  g_clear_pointer (&a->channels, g_array_unref);
  g_free (a->name);
  g_free (a);
}

TressGltfWriter *
tress_gltf_writer_new (const char *generator)
{
  TressGltfWriter *self = g_new0 (TressGltfWriter, 1);
  JsonObject *asset = json_object_new ();

  self->root = json_object_new ();
  self->bin = g_byte_array_new ();
  self->view = -1;
  self->accessors = g_array_new (FALSE, FALSE, sizeof (Accessor));
  self->bounds = g_array_new (FALSE, FALSE, sizeof (double));
  self->animations = g_ptr_array_new_with_free_func (animation_free);
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
  g_array_unref (self->accessors);
  g_array_unref (self->bounds);
  g_ptr_array_unref (self->animations);
  g_clear_pointer (&self->animation, animation_free);
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
  JsonArray *a;

  g_return_val_if_fail (g_strcmp0 (array, "accessors") != 0, 0);
  if (g_strcmp0 (array, "animations") == 0)
    {
      Animation *animation = g_new0 (Animation, 1);

      animation->object = object;
      g_ptr_array_add (self->animations, animation);
      return self->animations->len - 1;
    }
  a = array_of (self, array);
  json_array_add_object_element (a, object);
  return json_array_get_length (a) - 1;
}

JsonObject *
tress_gltf_writer_get_animation_extras (TressGltfWriter *self, guint index)
{
  Animation *a;

  if (index >= self->animations->len)
    return NULL;
  a = self->animations->pdata[index];
  if (a->object == NULL)
    return a->extras;
  return json_object_has_member (a->object, "extras")
             ? json_object_get_object_member (a->object, "extras")
             : NULL;
}

guint
tress_gltf_writer_count (TressGltfWriter *self, const char *array)
{
  if (g_strcmp0 (array, "accessors") == 0)
    return self->accessors->len;
  if (g_strcmp0 (array, "animations") == 0)
    return self->animations->len;
  if (!json_object_has_member (self->root, array))
    return 0;
  return json_array_get_length (json_object_get_array_member (self->root, array));
}

void
tress_gltf_writer_begin_animation (TressGltfWriter *self, const char *name)
{
  g_return_if_fail (self->animation == NULL);
  self->animation = g_new0 (Animation, 1);
  self->animation->name = g_strdup (name);
  self->animation->channels = g_array_new (FALSE, FALSE, sizeof (Channel));
}

void
tress_gltf_writer_add_channel (TressGltfWriter *self, guint input, guint output, guint node,
                               const char *path, const char *interpolation)
{
  Channel c = { input, output, node, 0, 0 };

  g_return_if_fail (self->animation != NULL);
  while (c.path < G_N_ELEMENTS (channel_paths) && g_strcmp0 (channel_paths[c.path], path) != 0)
    c.path++;
  while (c.interpolation < G_N_ELEMENTS (interpolations)
         && g_strcmp0 (interpolations[c.interpolation], interpolation) != 0)
    c.interpolation++;
  g_return_if_fail (c.path < G_N_ELEMENTS (channel_paths));
  g_return_if_fail (c.interpolation < G_N_ELEMENTS (interpolations));
  g_array_append_val (self->animation->channels, c);
}

guint
tress_gltf_writer_end_animation (TressGltfWriter *self, JsonObject *extras)
{
  g_return_val_if_fail (self->animation != NULL, 0);
  self->animation->extras = extras;
  g_ptr_array_add (self->animations, g_steal_pointer (&self->animation));
  return self->animations->len - 1;
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
  Accessor acc = { 0 };
  guint comps = (guint)type;
  gsize size = component_size (component_type);
  gsize start;
  double lo[16], hi[16];

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
    acc.view = new_view (self, start, self->bin->len - start, target);
  else
    {
      acc.view = (guint)self->view;
      acc.offset = start - self->view_start;
    }
  acc.component_type = component_type;
  acc.count = count;
  acc.type = type;
  acc.bounds = -1;
  if (min_max)
    {
      acc.bounds = (int)self->bounds->len;
      g_array_append_vals (self->bounds, lo, comps);
      g_array_append_vals (self->bounds, hi, comps);
    }
  g_array_append_val (self->accessors, acc);
  return self->accessors->len - 1;
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

static void
append_string (GString *out, const char *s)
{
  g_autofree char *valid = g_utf8_make_valid (s != NULL ? s : "", -1);

  g_string_append_c (out, '"');
  for (const char *p = valid; *p != '\0'; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_printf (out, "\\%c", *p);
      else if ((guchar)*p < 0x20)
        g_string_append_printf (out, "\\u%04x", (guchar)*p);
      else
        g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static void
append_json (GString *out, JsonObject *object)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;

  json_node_set_object (node, object);
  json_generator_set_root (gen, node);
  text = json_generator_to_data (gen, NULL);
  g_string_append (out, text);
}

/* @sep, then (pretty) a new line indented to @depth. */
static void
next_line (GString *out, const char *sep, gboolean pretty, guint depth)
{
  g_string_append (out, sep);
  if (pretty)
    {
      g_string_append_c (out, '\n');
      for (guint i = 0; i < depth; i++)
        g_string_append_c (out, ' ');
    }
}

static void
append_bounds (GString *out, const double *v, guint n, gboolean is_float)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append_c (out, '[');
  for (guint k = 0; k < n; k++)
    {
      if (k > 0)
        g_string_append_c (out, ',');
      if (is_float)
        g_string_append (out, g_ascii_dtostr (buf, sizeof buf, v[k]));
      else
        g_string_append_printf (out, "%" G_GINT64_FORMAT, (gint64)v[k]);
    }
  g_string_append_c (out, ']');
}

static void
append_accessors (TressGltfWriter *self, GString *out, gboolean pretty)
{
  g_string_append (out, "\"accessors\":[");
  for (guint i = 0; i < self->accessors->len; i++)
    {
      const Accessor *a = &g_array_index (self->accessors, Accessor, i);
      guint comps = (guint)a->type;

      next_line (out, i > 0 ? "," : "", pretty, 2);
      g_string_append_printf (out, "{\"bufferView\":%u,", a->view);
      if (a->offset > 0)
        g_string_append_printf (out, "\"byteOffset\":%" G_GSIZE_FORMAT ",", a->offset);
      g_string_append_printf (out, "\"componentType\":%u,\"count\":%" G_GSIZE_FORMAT ",",
                              a->component_type, a->count);
      g_string_append (out, "\"type\":");
      append_string (out, type_name (a->type));
      if (a->bounds >= 0)
        {
          const double *b = &g_array_index (self->bounds, double, a->bounds);

          g_string_append (out, ",\"min\":");
          append_bounds (out, b, comps, a->component_type == TRESS_GLTF_FLOAT);
          g_string_append (out, ",\"max\":");
          append_bounds (out, b + comps, comps, a->component_type == TRESS_GLTF_FLOAT);
        }
      g_string_append_c (out, '}');
    }
  next_line (out, "", pretty, 1);
  g_string_append_c (out, ']');
}

static void
append_animation (GString *out, const Animation *a, gboolean pretty)
{
  if (a->object != NULL)
    {
      append_json (out, a->object);
      return;
    }
  g_string_append (out, "{\"name\":");
  append_string (out, a->name);
  g_string_append (out, ",\"channels\":[");
  for (guint i = 0; i < a->channels->len; i++)
    {
      const Channel *c = &g_array_index (a->channels, Channel, i);

      next_line (out, i > 0 ? "," : "", pretty, 3);
      g_string_append_printf (out, "{\"sampler\":%u,\"target\":{\"node\":%u,\"path\":\"%s\"}}", i,
                              c->node, channel_paths[c->path]);
    }
  g_string_append (out, "],\"samplers\":[");
  for (guint i = 0; i < a->channels->len; i++)
    {
      const Channel *c = &g_array_index (a->channels, Channel, i);

      next_line (out, i > 0 ? "," : "", pretty, 3);
      g_string_append_printf (out, "{\"input\":%u,\"interpolation\":\"%s\",\"output\":%u}",
                              c->input, interpolations[c->interpolation], c->output);
    }
  g_string_append_c (out, ']');
  if (a->extras != NULL)
    {
      g_string_append (out, ",\"extras\":");
      append_json (out, a->extras);
    }
  g_string_append_c (out, '}');
}

/* The root as JSON, its "buffers" naming the binary buffer (at @uri, or the
 * GLB's own when NULL): json-glib's text of the root, the accessors and
 * animations written into it before its closing brace. */
static char *
root_json (TressGltfWriter *self, const char *uri, gboolean pretty, gsize *length)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *head = NULL;
  GString *out;
  char *end;

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
  head = json_generator_to_data (gen, NULL);
  end = strrchr (head, '}'); /* the root has members: "asset" at least */
  g_assert (end != NULL);
  *end = '\0';
  out = g_string_new (g_strchomp (head));
  if (self->accessors->len > 0)
    {
      next_line (out, ",", pretty, 1);
      append_accessors (self, out, pretty);
    }
  if (self->animations->len > 0)
    {
      next_line (out, ",", pretty, 1);
      g_string_append (out, "\"animations\":[");
      for (guint i = 0; i < self->animations->len; i++)
        {
          next_line (out, i > 0 ? "," : "", pretty, 2);
          append_animation (out, self->animations->pdata[i], pretty);
        }
      next_line (out, "", pretty, 1);
      g_string_append_c (out, ']');
    }
  next_line (out, "", pretty, 0);
  g_string_append_c (out, '}');
  *length = out->len;
  return g_string_free (out, FALSE);
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
