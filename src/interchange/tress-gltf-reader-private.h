/* tress-gltf-reader-private.h: what the glTF reader's two files share
 *
 * tress-gltf-reader.c reads the container (GLB or JSON), the buffers, buffer
 * views and accessors; tress-gltf-objects.c the nodes, skins and animations
 * on top of them, and evaluates poses; tress-gltf-reader-json.c reads JSON
 * values and words the messages, each naming the JSON path it is about;
 * tress-gltf-reader-plain.c reads plain JSON faster than json-glib.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "tress-gltf-reader.h"

G_BEGIN_DECLS

typedef struct
{
  GBytes *data; /* at least byte_length bytes */
  gsize byte_length;
} GltfBuffer;

typedef struct
{
  guint buffer;
  gsize byte_offset, byte_length;
  guint byte_stride; /* 0: tightly packed */
} GltfView;

typedef struct
{
  int view; /* −1: no bufferView (zeros, unless sparse) */
  gsize byte_offset;
  guint component_type;
  gboolean normalized;
  gsize count;
  guint n_components; /* 1 SCALAR … 16 MAT4 */
  guint rows;         /* 1 for vectors and scalars; 2, 3, 4 for matrices */
  gsize sparse_count; /* 0: not sparse */
  int sparse_index_view;
  gsize sparse_index_offset;
  guint sparse_index_type;
  int sparse_value_view;
  gsize sparse_value_offset;
  double *decoded; /* count × n_components, once read */
} GltfAccessor;

typedef struct
{
  JsonParser *parser;  /* json-glib's, when it read the JSON */
  JsonNode *root_node; /* else the tree of reader_parse_plain_json */
  JsonObject *root;
  GFile *base;
  gboolean glb;
  GBytes *bin; /* the GLB's BIN chunk, or NULL */
  guint n_buffers;
  GltfBuffer *buffers;
  guint n_views;
  GltfView *views;
  guint n_accessors;
  GltfAccessor *accessors;
  gsize budget;       /* values that may still be decoded */
  gboolean quantized; /* KHR_mesh_quantization: integer translations and scales */
  guint *order;       /* the nodes, each after its parent */
} GltfPrivate;

#define GLTF_PRIV(doc) ((GltfPrivate *)(doc)->priv)

/* Sets "PATH: MESSAGE" (TRESS_ERROR_BAD_VALUE) and returns FALSE. */
gboolean reader_error (GError **error, const char *path, const char *format, ...)
    G_GNUC_PRINTF (3, 4);
/* The same at "PATH.MEMBER". */
gboolean reader_member_error (GError **error, const char *path, const char *member,
                              const char *format, ...) G_GNUC_PRINTF (4, 5);
/* The same at "PATH.MEMBER[INDEX]". */
gboolean reader_element_error (GError **error, const char *path, const char *member, guint index,
                               const char *format, ...) G_GNUC_PRINTF (5, 6);
/* A short description of a JSON value for messages ("3.5", "\"abc\"", "an object"). */
char *reader_describe (JsonNode *node);

/* The top-level array @name (NULL when absent: an empty list); FALSE when
 * it is not an array of objects. */
gboolean reader_get_objects (JsonObject *root, const char *name, JsonArray **out, GError **error);
/* Element @i of an array of objects (checked by reader_get_objects). */
JsonObject *reader_element (JsonArray *array, guint i);
/* An index below @limit at @object.@member (@path names @object); absent:
 * *out = −1, an error when @required. @what names the array for messages. */
gboolean reader_get_index (JsonObject *object, const char *path, const char *member, guint limit,
                           const char *what, gboolean required, int *out, GError **error);
/* A whole number from @min to @max; absent: *out = @fallback. */
gboolean reader_get_size (JsonObject *object, const char *path, const char *member, gint64 min,
                          gint64 max, gint64 fallback, gint64 *out, GError **error);
/* A string (NULL when absent, an error when not a string); borrowed. */
gboolean reader_get_string (JsonObject *object, const char *path, const char *member,
                            const char **out, GError **error);
/* @n finite numbers at @object.@member when present (@out untouched when absent). */
gboolean reader_get_numbers (JsonObject *object, const char *path, const char *member, guint n,
                             double *out, GError **error);

/* Accessor @index decoded as doubles (normalized integers as glTF maps
 * them; matrices column-major as stored): *count elements of
 * *n_components. @user names the referring value for messages
 * ("animations[0].samplers[1].output"). Owned by the document. */
const double *reader_read_accessor (TressGltfDocument *doc, guint index, const char *user,
                                    gsize *count, guint *n_components, GError **error);
/* The accessor's declared layout (for the checks of its users). */
const GltfAccessor *reader_accessor (TressGltfDocument *doc, guint index);
const char *reader_component_name (guint component_type);

/* @text as the tree json-glib's parser would build (not sealed), where
 * it is plain JSON (ASCII, an object at the top, no \\u escapes, no repeated
 * or empty member names); else NULL, and json-glib reads it
 * (tress-gltf-reader-plain.c). */
JsonNode *reader_parse_plain_json (const char *text, gsize len);

/* Reads nodes, skins and animations from the root (tress-gltf-objects.c). */
gboolean reader_read_objects (TressGltfDocument *doc, GError **error);
void reader_free_objects (TressGltfDocument *doc);

G_END_DECLS
