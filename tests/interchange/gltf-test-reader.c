/* gltf-test-reader.c: a glTF 2.0 reader of the tests' own
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "gltf-test-reader.h"

#include <math.h>
#include <string.h>

#include "tress-test-utils.h"

void
gltf_clear (Gltf *g)
{
  g_clear_object (&g->parser);
  g_clear_pointer (&g->bin, g_bytes_unref);
  g->root = NULL;
}

static guint32
le32 (const guint8 *p)
{
  return (guint32)p[0] | (guint32)p[1] << 8 | (guint32)p[2] << 16 | (guint32)p[3] << 24;
}

static void
parse_json (Gltf *g, const char *text, gsize len)
{
  g_autoptr (GError) error = NULL;

  g->parser = json_parser_new ();
  json_parser_load_from_data (g->parser, text, (gssize)len, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (g->parser)));
  g->root = json_node_get_object (json_parser_get_root (g->parser));
  g_assert_cmpstr (
      json_object_get_string_member (json_object_get_object_member (g->root, "asset"), "version"),
      ==, "2.0");
}

/* GLB: 12-byte header (magic, version 2, total length), then chunks of
 * (length, type, data): JSON first, padded to 4 with spaces, then BIN. */
void
gltf_read_glb (Gltf *g, GBytes *file)
{
  gsize size;
  const guint8 *d = g_bytes_get_data (file, &size);
  guint32 json_len, bin_len;

  memset (g, 0, sizeof *g);
  g_assert_cmpuint (size, >=, 20);
  g_assert_cmpmem (d, 4, "glTF", 4);
  g_assert_cmpuint (le32 (d + 4), ==, 2);
  g_assert_cmpuint (le32 (d + 8), ==, size);
  json_len = le32 (d + 12);
  g_assert_cmpuint (le32 (d + 16), ==, 0x4E4F534A); /* "JSON" */
  g_assert_cmpuint (json_len % 4, ==, 0);
  g_assert_cmpuint (json_len, <=, size - 20);
  parse_json (g, (const char *)d + 20, json_len);
  if (20 + (gsize)json_len == size)
    return;
  g_assert_cmpuint (size - 20 - json_len, >=, 8);
  bin_len = le32 (d + 20 + json_len);
  g_assert_cmpuint (le32 (d + 24 + json_len), ==, 0x004E4942); /* "BIN\0" */
  g_assert_cmpuint (bin_len % 4, ==, 0);
  g_assert_cmpuint (bin_len, ==, size - 28 - json_len);
  g->bin = g_bytes_new_from_bytes (file, 28 + json_len, bin_len);
}

/* .gltf: the JSON, its one buffer a file beside it named by a relative URI. */
void
gltf_read_gltf (Gltf *g, const char *path)
{
  g_autoptr (GBytes) text = tress_test_read_file (path);
  g_autofree char *dir = g_path_get_dirname (path);
  JsonObject *buffer;
  g_autofree char *name = NULL, *bin_path = NULL;

  memset (g, 0, sizeof *g);
  parse_json (g, g_bytes_get_data (text, NULL), g_bytes_get_size (text));
  buffer = json_array_get_object_element (json_object_get_array_member (g->root, "buffers"), 0);
  name = g_uri_unescape_string (json_object_get_string_member (buffer, "uri"), NULL);
  g_assert_nonnull (name);
  bin_path = g_build_filename (dir, name, NULL);
  g->bin = tress_test_read_file (bin_path);
  g_assert_cmpint (json_object_get_int_member (buffer, "byteLength"), ==,
                   g_bytes_get_size (g->bin));
}

JsonObject *
gltf_get (Gltf *g, const char *array, guint i)
{
  JsonArray *a = json_object_get_array_member (g->root, array);

  g_assert_nonnull (a);
  g_assert_cmpuint (i, <, json_array_get_length (a));
  return json_array_get_object_element (a, i);
}

guint
gltf_count (Gltf *g, const char *array)
{
  if (!json_object_has_member (g->root, array))
    return 0;
  return json_array_get_length (json_object_get_array_member (g->root, array));
}

/* Accessor @i as doubles (any component type), *n elements of *comps. */
double *
gltf_accessor (Gltf *g, guint i, guint *n, guint *comps)
{
  JsonObject *acc = gltf_get (g, "accessors", i);
  JsonObject *view = gltf_get (g, "bufferViews", json_object_get_int_member (acc, "bufferView"));
  const char *type = json_object_get_string_member (acc, "type");
  guint ct = json_object_get_int_member (acc, "componentType");
  guint count = json_object_get_int_member (acc, "count");
  guint c = g_str_equal (type, "SCALAR") ? 1
            : g_str_equal (type, "VEC2") ? 2
            : g_str_equal (type, "VEC3") ? 3
            : g_str_equal (type, "VEC4") ? 4
                                         : 16;
  guint size = ct == 5126 || ct == 5125 ? 4 : ct == 5123 ? 2 : 1;
  gsize view_off = json_object_get_int_member_with_default (view, "byteOffset", 0);
  gsize view_len = json_object_get_int_member (view, "byteLength");
  gsize off = json_object_get_int_member_with_default (acc, "byteOffset", 0);
  gsize stride = json_object_get_int_member_with_default (view, "byteStride", c * size);
  gsize bin_size;
  const guint8 *bin = g_bytes_get_data (g->bin, &bin_size);
  double *out = g_new (double, (gsize)count *c);

  g_assert_cmpuint (count, >, 0);
  g_assert_cmpuint (view_off + view_len, <=, bin_size);
  g_assert_cmpuint (off + (count - 1) * stride + c * size, <=, view_len);
  g_assert_cmpuint ((view_off + off) % size, ==, 0);
  for (guint e = 0; e < count; e++)
    for (guint k = 0; k < c; k++)
      {
        const guint8 *p = bin + view_off + off + e * stride + k * size;
        guint32 u = size == 4 ? le32 (p) : size == 2 ? (guint32)(p[0] | p[1] << 8) : p[0];
        float f;

        memcpy (&f, &u, 4);
        out[(gsize)e * c + k] = ct == 5126 ? f : u;
      }
  *n = count;
  *comps = c;
  return out;
}

void
m4_mul (const M4 *a, const M4 *b, M4 *out)
{
  M4 r;

  for (guint i = 0; i < 4; i++)
    for (guint j = 0; j < 4; j++)
      r.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] + a->m[i][2] * b->m[2][j]
                  + a->m[i][3] * b->m[3][j];
  *out = r;
}

/* T · R(q) · S, as the glTF specification composes a node. */
void
m4_trs (const double t[3], const double q[4], const double s[3], M4 *out)
{
  double x = q[0], y = q[1], z = q[2], w = q[3];
  double r[3][3] = {
    { 1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w) },
    { 2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w) },
    { 2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y) },
  };

  memset (out, 0, sizeof *out);
  for (guint i = 0; i < 3; i++)
    {
      for (guint j = 0; j < 3; j++)
        out->m[i][j] = r[i][j] * s[j];
      out->m[i][3] = t[i];
    }
  out->m[3][3] = 1;
}

double
m4_distance (const M4 *a, const M4 *b)
{
  double d = 0;

  for (guint i = 0; i < 4; i++)
    for (guint j = 0; j < 4; j++)
      d = MAX (d, fabs (a->m[i][j] - b->m[i][j]));
  return d;
}

static void
member_doubles (JsonObject *o, const char *name, double *out, guint n, double fallback)
{
  JsonArray *a = json_object_has_member (o, name) ? json_object_get_array_member (o, name) : NULL;

  for (guint i = 0; i < n; i++)
    out[i] = a != NULL ? json_array_get_double_element (a, i) : (i == 3 ? 1 : fallback);
}

/* Every node's world matrix by glTF's rule, from its TRS (or @local when
 * given: per node, overriding the TRS). */
void
gltf_worlds (Gltf *g, const M4 *local, M4 *world, guint n_nodes)
{
  g_autofree int *parent = g_new (int, n_nodes);
  g_autofree M4 *own = g_new (M4, n_nodes);
  g_autofree gboolean *done = g_new0 (gboolean, n_nodes);

  for (guint i = 0; i < n_nodes; i++)
    parent[i] = -1;
  for (guint i = 0; i < n_nodes; i++)
    {
      JsonObject *node = gltf_get (g, "nodes", i);
      double t[3], q[4], s[3];

      member_doubles (node, "translation", t, 3, 0);
      member_doubles (node, "rotation", q, 4, 0);
      member_doubles (node, "scale", s, 3, 1);
      m4_trs (t, q, s, &own[i]);
      if (json_object_has_member (node, "children"))
        {
          JsonArray *c = json_object_get_array_member (node, "children");

          for (guint k = 0; k < json_array_get_length (c); k++)
            parent[json_array_get_int_element (c, k)] = (int)i;
        }
    }
  for (guint pass = 0; pass < n_nodes; pass++)
    for (guint i = 0; i < n_nodes; i++)
      if (!done[i] && (parent[i] < 0 || done[parent[i]]))
        {
          const M4 *l = local != NULL ? &local[i] : &own[i];

          if (parent[i] < 0)
            world[i] = *l;
          else
            m4_mul (&world[parent[i]], l, &world[i]);
          done[i] = TRUE;
        }
}

int
sample_at (const double *times, guint n, double f, double fps)
{
  for (guint i = 0; i < n; i++)
    if (fabs (times[i] * fps - f) < 1e-4)
      return (int)i;
  return -1;
}

/* The sampler output of animation @anim for node @node and @path. */
double *
channel (Gltf *g, JsonObject *anim, guint node, const char *path, guint *n, double **times)
{
  JsonArray *channels = json_object_get_array_member (anim, "channels");
  JsonArray *samplers = json_object_get_array_member (anim, "samplers");

  for (guint i = 0; i < json_array_get_length (channels); i++)
    {
      JsonObject *c = json_array_get_object_element (channels, i);
      JsonObject *t = json_object_get_object_member (c, "target");

      if ((guint)json_object_get_int_member (t, "node") == node
          && g_str_equal (json_object_get_string_member (t, "path"), path))
        {
          JsonObject *s
              = json_array_get_object_element (samplers, json_object_get_int_member (c, "sampler"));
          guint comps, n_in;

          g_assert_cmpstr (json_object_get_string_member (s, "interpolation"), ==, "LINEAR");
          if (times != NULL)
            *times = gltf_accessor (g, json_object_get_int_member (s, "input"), &n_in, &comps);
          return gltf_accessor (g, json_object_get_int_member (s, "output"), n, &comps);
        }
    }
  g_assert_not_reached ();
  return NULL;
}
