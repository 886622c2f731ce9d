/* tress-gltf-writer.h: glTF 2.0 files — JSON, one binary buffer, accessors
 *
 * A TressGltfWriter collects a glTF document: the top-level arrays ("nodes",
 * "meshes", …) as json-glib objects, the accessors and the animations' channels
 * as compact records (a big export holds tens of thousands: json-glib objects
 * cost most of its time), and the one binary buffer the accessors view. Each accessor's data is
 * copied into the buffer (little-endian, 4-aligned) in a bufferView of its own, or in the view
 * opened with begin_view (animation data: one view for many accessors).
 * Floats that are not finite are written as 0 and counted, so that the JSON
 * (min/max) and the data stay valid whatever the input held.
 *
 * The document is written as a GLB (12-byte header, JSON chunk padded with
 * spaces, BIN chunk padded with zeros) or as a .gltf JSON file whose one
 * buffer is a separate .bin file.
 *
 * GLib and json-glib only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Component types (the GL enums glTF uses). */
#define TRESS_GLTF_UNSIGNED_BYTE 5121
#define TRESS_GLTF_UNSIGNED_SHORT 5123
#define TRESS_GLTF_UNSIGNED_INT 5125
#define TRESS_GLTF_FLOAT 5126

/* bufferView targets (0: none, for animation data and matrices). */
#define TRESS_GLTF_ARRAY_BUFFER 34962
#define TRESS_GLTF_ELEMENT_ARRAY_BUFFER 34963

/* Accessor element types: the value is the component count. */
typedef enum
{
  TRESS_GLTF_SCALAR = 1,
  TRESS_GLTF_VEC2 = 2,
  TRESS_GLTF_VEC3 = 3,
  TRESS_GLTF_VEC4 = 4,
  TRESS_GLTF_MAT4 = 16,
} TressGltfType;

/* GLB chunk lengths are 32-bit: a file past this size is refused. */
#define TRESS_GLTF_MAX_SIZE ((gsize)G_MAXUINT32 - 64)

typedef struct _TressGltfWriter TressGltfWriter;

/* A new document with its "asset" (version 2.0, @generator). */
TressGltfWriter *tress_gltf_writer_new (const char *generator);
void tress_gltf_writer_free (TressGltfWriter *writer);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressGltfWriter, tress_gltf_writer_free)

/* The document's root object (for "scene", "scenes", "extras"; the
 * accessors and animations are kept apart). */
JsonObject *tress_gltf_writer_get_root (TressGltfWriter *writer);
/* Appends @object (taken) to the top-level array @array, created when
 * first used (glTF forbids empty arrays), and returns its index. Not for
 * "accessors" (add_accessor); an animation may come whole here. */
guint tress_gltf_writer_add (TressGltfWriter *writer, const char *array, JsonObject *object);
/* Objects of @array so far. */
guint tress_gltf_writer_count (TressGltfWriter *writer, const char *array);

/* An animation of many channels, kept compact until written: begin, a
 * channel each (its sampler's @input and @output accessors and
 * @interpolation, "LINEAR", "STEP" or "CUBICSPLINE"; its target @node and
 * @path, "translation", "rotation", "scale" or "weights"), end with its
 * "extras" (taken; may be NULL). end returns its index in "animations". */
void tress_gltf_writer_begin_animation (TressGltfWriter *writer, const char *name);
void tress_gltf_writer_add_channel (TressGltfWriter *writer, guint input, guint output, guint node,
                                    const char *path, const char *interpolation);
guint tress_gltf_writer_end_animation (TressGltfWriter *writer, JsonObject *extras);
/* The "extras" of animation @index (added whole or begun and ended), or NULL. */
JsonObject *tress_gltf_writer_get_animation_extras (TressGltfWriter *writer, guint index);

/* Following accessors share one bufferView (with @target) until end_view. */
void tress_gltf_writer_begin_view (TressGltfWriter *writer, guint target);
void tress_gltf_writer_end_view (TressGltfWriter *writer);

/* An accessor of @count elements of @type, components @component_type
 * (host byte order in @data), in a view of its own with @target unless one is
 * begun. @min_max: give "min" and "max" (positions, animation inputs).
 * Returns the accessor's index. */
guint tress_gltf_writer_add_accessor (TressGltfWriter *writer, const void *data,
                                      guint component_type, TressGltfType type, gsize count,
                                      guint target, gboolean min_max);
/* The same for floats given as doubles (converted to float). */
guint tress_gltf_writer_add_doubles (TressGltfWriter *writer, const double *data,
                                     TressGltfType type, gsize count, gboolean min_max);

/* Bytes in the binary buffer so far, and the floats replaced by 0. */
gsize tress_gltf_writer_get_buffer_size (TressGltfWriter *writer);
guint64 tress_gltf_writer_get_n_non_finite (TressGltfWriter *writer);

/* The whole file as GLB. An error when it would pass TRESS_GLTF_MAX_SIZE. */
GBytes *tress_gltf_writer_to_glb (TressGltfWriter *writer, GError **error);
/* The .gltf JSON (pretty) with its buffer at @bin_uri (a relative URI, as
 * tress_gltf_uri_for_file gives), and the .bin bytes (NULL when the buffer is
 * empty: then no buffer is named). */
gboolean tress_gltf_writer_to_gltf (TressGltfWriter *writer, const char *bin_uri, GBytes **json,
                                    GBytes **bin, GError **error);
/* A relative URI naming the file @basename ("a b.bin" → "a%20b.bin"). */
char *tress_gltf_uri_for_file (const char *basename);

/* Whether @file is written as a .gltf with a .bin (its name ends in ".gltf",
 * any case), else as a GLB. */
gboolean tress_gltf_file_is_split (GFile *file);
/* The .bin beside the .gltf @file ("a.gltf" → "a.bin"). */
GFile *tress_gltf_bin_file_for (GFile *file);

/* Writes the document to @file: as GLB, or split (tress_gltf_file_is_split)
 * as the .gltf and its buffer in the .bin beside it, the .bin first so that
 * a .gltf never names a buffer not written. Each file is replaced as
 * tress_file_replace() does: a failure or a cancellation leaves the files
 * that were there as they were and no new one half written; when the .gltf
 * cannot be written after its .bin, the new .bin is removed again (an old one
 * put back). Once the .bin is in place a cancellation is no longer
 * reported. *@size (may be NULL) gets the bytes written. */
gboolean tress_gltf_writer_save (TressGltfWriter *writer, GFile *file, GCancellable *cancellable,
                                 guint64 *size, GError **error);

G_END_DECLS
