/* tress-scene.h: what the 3D preview draws, whatever the format
 *
 * A scene is a hierarchy of nodes (BFRES bones, NIFF objects) with a world
 * matrix each at the frame last posed, and meshes (BFRES shapes, NIFF shapes)
 * with positions, optional normals (else flat shading), optional per-vertex
 * colours (else one colour), triangles, and either skinning (up to four
 * joint/weight pairs per vertex) or one node they follow rigidly.
 *
 * Matrices are graphene's (row vectors: p' = p × M, a child's world =
 * local × parent's world). A joint is a node with the inverse of its bind
 * world matrix; a skinned vertex lands at Σ weight × p × inverse_bind × world.
 * A rigid mesh's vertices are in its node's space: p × world (node −1: the
 * scene's origin).
 *
 * A TressSceneAnimator binds a scene to the curves of a document: which
 * animation and which node each curve belongs to, and a pose function that
 * sets every node's world matrix and the visibility of nodes and meshes at a
 * frame, reading curve values through a callback (so the editor can hand in
 * the curves as they are being dragged). Formats build their animators
 * (tress-bfres-scene.h, NIFF likewise); the preview only draws scenes.
 *
 * GLib and graphene only, no GTK.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <graphene.h>

G_BEGIN_DECLS

typedef struct
{
  char *name;
  int parent;              /* −1 for a root */
  graphene_matrix_t world; /* at the frame last posed (identity until then) */
  gboolean visible;        /* a hidden node draws no stick */
  guint32 id;              /* the format's own number for it (bone index, object index) */
} TressSceneNode;

typedef struct
{
  int node;
  graphene_matrix_t inverse_bind;
} TressSceneJoint;

#define TRESS_SCENE_MAX_INFLUENCES 4

typedef struct
{
  char *name;
  guint n_vertices;
  float *positions; /* 3 per vertex */
  float *normals;   /* 3 per vertex, or NULL: flat shaded */
  guint8 *colours;  /* 4 per vertex (RGBA), or NULL: @colour */
  float colour[4];  /* RGBA 0…1 */
  guint n_triangles;
  guint32 *triangles; /* 3 vertex numbers each */
  /* Skinning: 4 joints (into the scene's joint table) and 4 weights per
   * vertex; NULL for a rigid mesh following @node. */
  guint16 *joints;
  float *weights;
  int node;
  gboolean visible;
  guint32 id; /* the format's own number (shape index) */
} TressSceneMesh;

typedef struct
{
  char *name;
  GArray *nodes;     /* TressSceneNode */
  GArray *joints;    /* TressSceneJoint */
  GPtrArray *meshes; /* TressSceneMesh */
  /* Bumped when meshes are added or their arrays change: the renderer
   * uploads geometry again. Posing never changes it. */
  guint geometry_serial;
  /* Bumped by every pose. */
  guint pose_serial;
} TressScene;

TressScene *tress_scene_new (const char *name);
void tress_scene_free (TressScene *scene);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressScene, tress_scene_free)

/* Adds a node (world = identity, visible) and returns its index. */
guint tress_scene_add_node (TressScene *scene, const char *name, int parent, guint32 id);
guint tress_scene_add_joint (TressScene *scene, int node, const graphene_matrix_t *inverse_bind);
/* A mesh with room for @n_vertices and @n_triangles (zeroed; normals,
 * colours and skinning arrays only when asked), owned by the scene. */
TressSceneMesh *tress_scene_add_mesh (TressScene *scene, const char *name, guint n_vertices,
                                      guint n_triangles, gboolean normals, gboolean colours,
                                      gboolean skinned);

static inline guint
tress_scene_get_n_nodes (const TressScene *scene)
{
  return scene->nodes->len;
}

static inline TressSceneNode *
tress_scene_get_node (const TressScene *scene, guint i)
{
  return &g_array_index (scene->nodes, TressSceneNode, i);
}

static inline TressSceneJoint *
tress_scene_get_joint (const TressScene *scene, guint i)
{
  return &g_array_index (scene->joints, TressSceneJoint, i);
}

static inline TressSceneMesh *
tress_scene_get_mesh (const TressScene *scene, guint i)
{
  return g_ptr_array_index (scene->meshes, i);
}

/* Index of the node named @name, or −1. */
int tress_scene_find_node (const TressScene *scene, const char *name);

/* World matrices from local ones (one per node, in node order): each world =
 * local × parent's world. Parents may come after their children; a loop is
 * cut (the node then counts as a root). Bumps pose_serial. */
void tress_scene_set_local_matrices (TressScene *scene, const graphene_matrix_t *locals);
/* Every node visible, every mesh visible. */
void tress_scene_show_all (TressScene *scene);

/* The skinning matrix of joint @j at the current pose (inverse_bind × world). */
void tress_scene_joint_matrix (const TressScene *scene, guint j, graphene_matrix_t *out);
/* Where vertex @v of @mesh lands at the current pose (what the GPU draws). */
void tress_scene_vertex_position (const TressScene *scene, const TressSceneMesh *mesh, guint v,
                                  float out[3]);
/* The world position of node @n (the origin × its world matrix). */
void tress_scene_node_position (const TressScene *scene, guint n, float out[3]);
/* The box around the visible meshes and nodes at the current pose; FALSE
 * when there is nothing. */
gboolean tress_scene_bounds (const TressScene *scene, float lo[3], float hi[3]);

/* ---- binding to a document's curves -------------------------------------- */

/* The value of the document's curve @curve at @frame. */
typedef double (*TressSceneSampleFunc) (gpointer user_data, guint curve, double frame);

typedef struct _TressSceneAnimator TressSceneAnimator;

typedef struct
{
  /* Poses the scene at @frame of the animations @anims (the animator's own
   * numbering, as in curve_anim; several: e.g. a skeletal animation and a
   * visibility one, applied in order over the rest pose). n_anims = 0 gives
   * the rest (bind) pose. Sets every node's world matrix and the visibility
   * of nodes and meshes; values come from @sample. */
  void (*pose) (TressSceneAnimator *animator, const guint *anims, guint n_anims, double frame,
                TressSceneSampleFunc sample, gpointer user_data);
  void (*free) (TressSceneAnimator *animator);
} TressSceneAnimatorClass;

struct _TressSceneAnimator
{
  const TressSceneAnimatorClass *klass;
  TressScene *scene; /* owned */
  char *source;      /* where the scene came from, for people ("Animal_Bass.bfres, model Bass") */

  /* Per curve of the document: the animation it belongs to and the node it
   * moves (or shows), −1 when it drives nothing in this scene. */
  guint n_curves;
  int *curve_anim;
  int *curve_node;

  /* Per animation: its name, length in frames, rate (0: unknown), and a
   * line for people about what it cannot show ("3 animated bones are not in
   * Bass: Chin, Arm_1_L, Arm_1_R"), or NULL. */
  guint n_anims;
  char **anim_names;
  double *anim_frames;
  double *anim_fps;
  char **anim_notes;
};

/* Fills the common fields (arrays sized for @n_curves and @n_anims, curves
 * and animations mapped to −1/empty); takes @scene. */
void tress_scene_animator_init (TressSceneAnimator *animator, const TressSceneAnimatorClass *klass,
                                TressScene *scene, const char *source, guint n_curves,
                                guint n_anims);
/* Frees what _init allocated (for the class's free). */
void tress_scene_animator_clear (TressSceneAnimator *animator);
void tress_scene_animator_free (TressSceneAnimator *animator);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressSceneAnimator, tress_scene_animator_free)

void tress_scene_animator_pose (TressSceneAnimator *animator, const guint *anims, guint n_anims,
                                double frame, TressSceneSampleFunc sample, gpointer user_data);

/* Appends to @out (guint) the curves of animation @anim (−1: any) that move node @node. */
void tress_scene_animator_node_curves (const TressSceneAnimator *animator, int anim, guint node,
                                       GArray *out);

G_END_DECLS
