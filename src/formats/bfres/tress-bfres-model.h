/* tress-bfres-model.h: the models of a Wii U BFRES (FMDL, FSKL, FSHP, FVTX)
 *
 * A read-only view for the animation preview: skeletons (bones with their bind
 * transforms, the smooth/rigid matrix table and the inverse model matrices),
 * shapes (material, bone, skinning count, level-of-detail meshes with their
 * index buffers and sub-meshes) and vertex buffers (attributes in their GX2
 * formats), for files of version 3.4 and later. See shared/formats/bfres.md,
 * "Models and skeletons".
 *
 * The reader never writes: it takes the FRES bytes (as
 * tress_bfres_get_bfres_bytes() gives them) and decodes what the preview needs
 * (positions, normals, skinning indices and weights, triangle indices) into
 * plain arrays. Every offset, count and size is checked against the bytes
 * before use; a failure is an error "FIELD at offset 0x…: expected …, found …"
 * naming the model and shape it was reading. Decoded arrays are bounded by the
 * size of the buffers they come from, and so by the file size.
 *
 * GLib only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include "formats/tress-json.h"

G_BEGIN_DECLS

/* FSKL flags bits 8-9, FSKA flags bits 8-9. */
typedef enum
{
  TRESS_BFRES_SCALING_NONE = 0,
  TRESS_BFRES_SCALING_STANDARD = 1,
  TRESS_BFRES_SCALING_MAYA = 2,
  TRESS_BFRES_SCALING_SOFTIMAGE = 3,
} TressBfresScaling;

/* Bits 12-14 of FSKL, Bone and FSKA flags. */
typedef enum
{
  TRESS_BFRES_ROTATION_QUATERNION = 0,
  TRESS_BFRES_ROTATION_EULER_XYZ = 1,
} TressBfresRotation;

/* Bone flag bits. */
#define TRESS_BFRES_BONE_VISIBLE (1u << 0)
#define TRESS_BFRES_BONE_SEGMENT_SCALE_COMPENSATE (1u << 23)

typedef struct
{
  char *name;
  guint16 index;
  gint16 parent; /* −1: a root */
  gint16 smooth_matrix;
  gint16 rigid_matrix;
  gint16 billboard;
  guint32 flags;
  TressBfresRotation rotation_mode; /* from the flags */
  float scale[3];
  float rotation[4]; /* Euler XYZ radians (w unused), or a quaternion x y z w */
  float translation[3];
  gsize pos;
} TressBfresBone;

typedef struct
{
  guint32 flags;
  TressBfresScaling scaling;
  TressBfresRotation rotation_mode;
  guint n_bones;
  TressBfresBone *bones;
  guint n_smooth, n_rigid;
  guint16 *matrix_to_bone; /* n_smooth + n_rigid bone indices */
  float *inverse_model;    /* n_smooth 3×4 row-major matrices (12 floats each) */
  gsize pos;
  gsize inverse_pos; /* 0 when absent */
} TressBfresSkeleton;

/* GX2 attribute formats (GX2AttribFormat values) the reader decodes. */
typedef struct
{
  char *name; /* "_p0", "_n0", "_i0", "_w0", "_u0", … */
  guint8 buffer;
  guint16 offset;
  guint32 format;
  gsize pos;
} TressBfresAttrib;

typedef struct
{
  guint32 size;
  guint16 stride;
  guint16 n_buffering;
  gsize data_pos;
  gsize pos;
} TressBfresBuffer;

typedef struct
{
  guint32 n_vertices;
  guint8 skin_count; /* influences per vertex the buffer holds */
  guint n_attribs;
  TressBfresAttrib *attribs;
  guint n_buffers;
  TressBfresBuffer *buffers;
  gsize pos;

  /* Decoded (NULL when the attribute is absent): 3 floats per vertex for
   * positions and normals, 2 for texture coordinates, 4 per vertex for
   * skinning indices (as stored, into the skeleton's matrix table) and
   * weights (0…1; missing ones 0). */
  float *positions;
  float *normals;
  float *uvs; /* 2 per vertex (_u0, as stored: no flip), NULL when absent or undecodable */
  guint16 *skin_indices;
  float *skin_weights;
  guint n_skin_components; /* components of _i0 (0 when absent) */
} TressBfresVertexBuffer;

typedef struct
{
  guint32 offset; /* bytes into the index buffer */
  guint32 count;
} TressBfresSubMesh;

/* GX2 primitive types the preview draws. */
#define TRESS_GX2_PRIMITIVE_TRIANGLES 0x04
#define TRESS_GX2_PRIMITIVE_TRIANGLE_FAN 0x05
#define TRESS_GX2_PRIMITIVE_TRIANGLE_STRIP 0x06
/* GX2 index formats. */
#define TRESS_GX2_INDEX_U16_LE 0
#define TRESS_GX2_INDEX_U32_LE 1
#define TRESS_GX2_INDEX_U16 4
#define TRESS_GX2_INDEX_U32 9

typedef struct
{
  guint32 primitive;
  guint32 index_format;
  guint32 n_indices;
  guint32 first_vertex; /* added to every index */
  guint n_submeshes;
  TressBfresSubMesh *submeshes;
  TressBfresBuffer index_buffer;
  gsize pos;

  /* Decoded: the vertex numbers (first_vertex added) as triangles, 3 per
   * triangle; n_triangles = 0 for primitives the preview does not draw. */
  guint32 *triangles;
  guint n_triangles;
} TressBfresMesh;

typedef struct
{
  char *name;
  guint32 flags;
  guint16 index;
  guint16 material;
  guint16 bone; /* the bone a shape without skinning follows */
  guint16 vertex_buffer;
  guint8 skin_count; /* 0: follows @bone; 1: rigid (one matrix per vertex); 2-4: smooth */
  guint n_skin_bones;
  guint16 *skin_bones;
  guint n_meshes; /* levels of detail, the most detailed first */
  TressBfresMesh *meshes;
  gsize pos;
} TressBfresShape;

typedef struct
{
  char *name;
  TressBfresSkeleton skeleton;
  guint n_vertex_buffers;
  TressBfresVertexBuffer *vertex_buffers;
  guint n_shapes;
  TressBfresShape *shapes;
  guint n_materials;
  char **materials; /* names (NULL-terminated), by index */
  guint32 total_vertices;
  gsize pos;
} TressBfresModel;

typedef struct
{
  guint32 version;
  guint n_models;
  TressBfresModel *models;
} TressBfresModels;

/* Reads every model of the FRES bytes @data (big-endian Wii U, version ≥ 3.4).
 * A file without models gives an empty set. */
TressBfresModels *tress_bfres_models_parse (const guint8 *data, gsize size, GError **error);
void tress_bfres_models_free (TressBfresModels *models);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressBfresModels, tress_bfres_models_free)

/* The model named @name, or NULL. */
const TressBfresModel *tress_bfres_models_find (const TressBfresModels *models, const char *name);
/* Index of the bone named @name, or −1. */
int tress_bfres_skeleton_find_bone (const TressBfresSkeleton *skeleton, const char *name);

/* Bytes of one element of GX2 attribute format @format, 0 when unknown. */
guint tress_gx2_attrib_size (guint32 format);
/* "16_16_16_16_Single", "10_10_10_2_SNorm", … (static), "unknown" */
const char *tress_gx2_attrib_format_name (guint32 format);
/* Decodes one element of @format at @p (big-endian) into up to 4 floats
 * (missing components 0, w 1 for positions is the caller's business); returns
 * the component count, 0 for a format not decoded. Integer formats give their
 * integer values. */
guint tress_gx2_decode (guint32 format, const guint8 *p, float out[4]);

/* One fact a line: models, bones, shapes (for tress-cli info). */
void tress_bfres_models_describe (const TressBfresModels *models, GString *out);
/* An array of the models: skeletons with their bones, shapes with their
 * meshes, vertex buffers with their attributes (for tress-cli dump). */
void tress_bfres_models_dump (const TressBfresModels *models, TressJsonWriter *builder);

/* For the BFRES format's info and dump: reads the models of @data and appends
 * their description (or why they could not be read) to @out, or adds the
 * members "models" (or "models_error") to the object @builder is in. Nothing
 * for a file without models. */
void tress_bfres_models_describe_bytes (const guint8 *data, gsize size, GString *out);
void tress_bfres_models_dump_bytes (const guint8 *data, gsize size, TressJsonWriter *builder);

G_END_DECLS
