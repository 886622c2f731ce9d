/* tress-niff-scene.h: the scene a NIFF animation moves (objects, shapes, geometry, materials)
 *
 * Read-only and separate from the animation model: the scene lists are read
 * from the file's bytes as they were opened (edits only ever rebuild the
 * AnimList, so those bytes stay the ones the file is saved with), into plain
 * arrays that index each other as the file does. A broken scene list is a
 * GError naming the list, the field and the byte offset; the animation model
 * (and curve editing) does not depend on it.
 *
 * What is read: the Scene's root objects; every Obj (hierarchy from its child
 * links, else its parent link; shape, material and AnimGroup links; NIFF2
 * ChainRoot links); Shapes (their geometry node: TriGroup, Envelope or
 * ClusterShape, their material and Parts); the Vtx, Color, Vector and St
 * groups; TriGroups with their reference data (shape animation tables
 * included) and triangles; Parts; materials (types, colours, the NIFF2
 * ambient/emission/diffuse colours; textures are not read); NIFF2 envelopes
 * (full-weighted and weighted parts, triangles; morph parts are counted, not
 * read), weight groups, the IK nodes (ChainRoot, Joint, Effector), and which
 * objects the cameras are made of. Not read: the cameras' lenses, lights and
 * environments (counted), textures (counted) and their images, collision,
 * switches, ClusterShapes (counted). See
 * docs/niff-scene.md.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-niff.h"

G_BEGIN_DECLS

#define TRESS_NIFF_NONE 0xFFFFFFFFu

/* List tags, as node kinds in links (constraints, envelope parts). */
#define TRESS_NIFF_TAG_OBJ_LIST 0x00020000u
#define TRESS_NIFF_TAG_CHAIN_ROOT_LIST 0x00240000u
#define TRESS_NIFF_TAG_JOINT_LIST 0x00250000u
#define TRESS_NIFF_TAG_EFFECTOR_LIST 0x00260000u

/* Geometry a Shape links to (NIFF2 kind_of_node_for_geometry). */
#define TRESS_NIFF_TAG_TRI_GROUP 0x00080100u
#define TRESS_NIFF_TAG_ENVELOPE 0x00220100u
#define TRESS_NIFF_TAG_CLUSTER_SHAPE 0x00280100u

#define TRESS_NIFF_TAG_FULL_WEIGHTED_PART 0x00220110u
#define TRESS_NIFF_TAG_WEIGHTED_PART 0x00220120u
#define TRESS_NIFF_TAG_MORPH_PART 0x00220130u

typedef enum
{
  TRESS_NIFF_OBJ_NULL = 0,
  TRESS_NIFF_OBJ_3D = 1,
  TRESS_NIFF_OBJ_BILLBOARD = 2,
} TressNiffObjType;

/* mat_shade_type bits */
#define TRESS_NIFF_SHADE_LIGHT_MASK 0x0Fu /* 0 off, 1 local, 2 global */
#define TRESS_NIFF_SHADE_SMOOTH 0x10u
#define TRESS_NIFF_MAT_TYPE_N64 0x01010101u
#define TRESS_NIFF_PART_USE_SHAPE_MAT 0x80000000u

/* A node that carries a transform: an Obj, or one of the IK nodes. */
typedef struct
{
  guint32 kind;  /* TRESS_NIFF_TAG_*_LIST, or TRESS_NIFF_NONE (external or absent) */
  guint32 index; /* in that list */
} TressNiffNodeRef;

typedef struct
{
  gsize offset; /* of the element in the file */
  guint32 index;
  char *name; /* NULL when the NameList has none */
  guint32 state;
  guint32 type;        /* TressNiffObjType */
  guint32 parent;      /* after resolving child links: TRESS_NIFF_NONE for a root */
  guint32 parent_link; /* obj_parent_link as stored */
  guint32 shape;
  guint32 mat;
  guint32 anim_group;
  guint32 n_children;
  guint32 *children; /* as stored (the LOD links follow them in the file) */
  guint32 n_lod;
  guint32 n_chain_roots; /* NIFF2 */
  guint32 *chain_roots;
  gboolean camera; /* a Cam's eye, look-at or up object */
} TressNiffSceneObject;

typedef struct
{
  gsize offset;
  char *name;
  guint32 type;          /* SHAPE_TYPE_* flags (culling, z buffer) */
  guint32 geometry_kind; /* TRESS_NIFF_TAG_TRI_GROUP (NIFF1 always), _ENVELOPE, _CLUSTER_SHAPE */
  guint32 geometry;      /* index in that list */
  guint32 mat;
  guint32 n_parts;
  guint32 *parts;
} TressNiffSceneShape;

/* A group of @n items of @width floats each (Vtx xyz, colours rgba, normals xyz, st). */
typedef struct
{
  gsize offset;
  char *name; /* VtxGroups only */
  guint32 n;
  float *v; /* n × width */
} TressNiffFloatGroup;

typedef struct
{
  guint32 tri_nv;
  guint32 tri_color;
  guint32 vtx[3];
  guint32 st[3];
  guint32 vtx_nv[3];
  guint32 vtx_color[3];
} TressNiffTri;

/* The six reference kinds of a TriGroup, in file order. */
typedef enum
{
  TRESS_NIFF_REF_VTX,
  TRESS_NIFF_REF_TRI_COLOR,
  TRESS_NIFF_REF_VTX_COLOR,
  TRESS_NIFF_REF_TRI_NV,
  TRESS_NIFF_REF_VTX_NV,
  TRESS_NIFF_REF_ST,
  TRESS_NIFF_N_REFS
} TressNiffRefKind;

/* Which group a TriGroup uses for one kind of data: one group, one per frame
 * (FULL), or one per key (KEY). */
typedef struct
{
  guint32 n;      /* groups listed (1 without shape animation) */
  guint32 *keys;  /* KEY: the key frames (n of them); NULL otherwise */
  guint32 *group; /* n group indices */
} TressNiffRefTable;

typedef struct
{
  gsize offset;
  char *name;
  guint32 anim_type; /* TRI_ANIM_* bits */
  guint32 anim_frames;
  TressNiffRefTable refs[TRESS_NIFF_N_REFS];
  guint32 n_tris;
  TressNiffTri *tris;
} TressNiffTriGroup;

typedef struct
{
  gsize offset;
  char *name;
  guint32 mat; /* TRESS_NIFF_PART_USE_SHAPE_MAT: the shape's */
  guint32 tri_group;
  guint32 n_tris;
  guint32 *tris;
} TressNiffPart;

typedef struct
{
  gsize offset;
  char *name;
  guint32 type; /* 0 NIFF, TRESS_NIFF_MAT_TYPE_N64 */
  guint32 shade;
  guint32 color_type[2];
  guint32 alpha_type[2];
  float prim[4];
  guint32 n_tex;
  gboolean has_ext; /* NIFF2: the colours below are read */
  float ambient[4];
  float emission[4];
  float diffuse[4];
} TressNiffMat;

typedef struct
{
  TressNiffNodeRef node;
  guint32 vtx, vtx_nv, tri_nv, vtx_color, tri_color, st; /* group indices */
} TressNiffFullPart;

typedef struct
{
  guint32 st;      /* the part's St group, or TRESS_NIFF_NONE */
  guint32 n_nodes; /* affected nodes in this file (external ones are not read) */
  TressNiffNodeRef *nodes;
  /* Per node: */
  guint32 *weight_group, *vtx, *vtx_nv, *tri_nv, *vtx_color, *tri_color;
} TressNiffWeightedPart;

typedef struct
{
  guint32 part_kind; /* TRESS_NIFF_TAG_*_PART */
  guint32 part;
  guint32 vtx, st, vtx_nv, vtx_color, weight;
} TressNiffEnvelopeVtx;

typedef struct
{
  guint32 part_kind; /* of the part whose groups hold tri_nv and tri_color */
  guint32 part;
  guint32 tri_nv, tri_color, weight;
  TressNiffEnvelopeVtx v[3];
} TressNiffEnvelopeTri;

typedef struct
{
  gsize offset;
  char *name;
  guint32 n_full;
  TressNiffFullPart *full;
  guint32 n_weighted;
  TressNiffWeightedPart *weighted;
  guint32 n_morph; /* counted, not read */
  guint32 n_tris;
  TressNiffEnvelopeTri *tris;
} TressNiffEnvelope;

/* ChainRoot, Joint and Effector: IK nodes with their AnimGroup. */
typedef struct
{
  gsize offset;
  char *name;
  guint32 type; /* Joint: NIFF2_2ND_JOINT 0x1, NIFF2_JOINT_DOWN 0x10000 */
  guint32 anim_group;
  guint32 joint;    /* ChainRoot, Joint: the next joint, or TRESS_NIFF_NONE */
  guint32 effector; /* Joint: the effector, or TRESS_NIFF_NONE */
  float length;     /* Joint */
  float resplane[3];
  guint32 n_objects; /* objects that hang below this node */
  guint32 *objects;
} TressNiffIkNode;

typedef struct
{
  gsize offset;
  char *name; /* the scene's name */
  guint32 n_roots;
  guint32 *roots; /* objects linked straight from the Scene */

  guint32 n_objects;
  TressNiffSceneObject *objects;
  guint32 n_shapes;
  TressNiffSceneShape *shapes;
  guint32 n_vtx;
  TressNiffFloatGroup *vtx; /* xyz */
  guint32 n_tri_colors;
  TressNiffFloatGroup *tri_colors; /* rgba */
  guint32 n_vtx_colors;
  TressNiffFloatGroup *vtx_colors;
  guint32 n_tri_nvs;
  TressNiffFloatGroup *tri_nvs; /* xyz */
  guint32 n_vtx_nvs;
  TressNiffFloatGroup *vtx_nvs;
  guint32 n_sts;
  TressNiffFloatGroup *sts; /* st */
  guint32 n_tri_groups;
  TressNiffTriGroup *tri_groups;
  guint32 n_parts;
  TressNiffPart *parts;
  guint32 n_mats;
  TressNiffMat *mats;
  guint32 n_envelopes;
  TressNiffEnvelope *envelopes;
  guint32 n_weights;
  TressNiffFloatGroup *weights; /* one weight per vertex, in percent */
  guint32 n_chain_roots;
  TressNiffIkNode *chain_roots;
  guint32 n_joints;
  TressNiffIkNode *joints;
  guint32 n_effectors;
  TressNiffIkNode *effectors;
  guint32 n_cameras;        /* each Cam's eye, look-at and up objects mark theirs as cameras */
  guint32 n_cluster_shapes; /* counted, not read */
  guint32 n_textures;       /* counted, not read */
  guint32 n_lights;         /* counted, not read */
  guint32 n_envs;           /* environments (fog, ambient): counted, not read */
  GPtrArray *notes;         /* char *: links the scene does not follow, and why */
} TressNiffScene;

/* Reads the scene of @file. NULL with @error (TRESS_ERROR) naming the list,
 * field and offset when a scene list is broken or a link points nowhere. */
TressNiffScene *tress_niff_scene_new (const TressNiffFile *file, GError **error);
void tress_niff_scene_free (TressNiffScene *scene);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressNiffScene, tress_niff_scene_free)

/* The index of object @obj's parent, TRESS_NIFF_NONE for a root. */
static inline guint32
tress_niff_scene_parent (const TressNiffScene *scene, guint32 obj)
{
  return obj < scene->n_objects ? scene->objects[obj].parent : TRESS_NIFF_NONE;
}

/* The material that colours triangle @tri of shape @shape drawn by object
 * @obj: the Part's, else the Shape's, else the object's or its nearest
 * ancestor's; TRESS_NIFF_NONE when there is none. */
guint32 tress_niff_scene_tri_mat (const TressNiffScene *scene, guint32 obj, guint32 shape,
                                  guint32 tri);

/* One line a fact, for tress-cli info; and the scene in tress-cli dump. */
void tress_niff_scene_describe (const TressNiffScene *scene, GString *out);
void tress_niff_scene_dump (const TressNiffScene *scene, TressJsonWriter *builder);

G_END_DECLS
