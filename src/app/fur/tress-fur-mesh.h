/* tress-fur-mesh.h: the ribbon geometry the 3D preview draws
 *
 * Every ribbon becomes a strip: its two base points are the first edge, each
 * section adds an edge further along, left point along the direction of the
 * section's first line, right point along its second line (a zero direction
 * means "back and down at 45°": (0, −√½, −√½)); each section is length / sections
 * long, the length being the chosen morality's. Morph displacements are kept
 * apart (per morph, per base point) so the vertex shader blends them with
 * uniforms and moving a morph slider uploads nothing.
 *
 * A ribbon's vertices run left, right, left, right… from the base, so each is
 * one triangle strip; the preview draws them as strips (no index list is kept).
 *
 * Ribbons are numbered globally: material 0's ribbons first, then material 1's…
 * GLib only (no GL here), so building, colouring and picking are unit tested.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "formats/cha/tress-cha-model.h"

G_BEGIN_DECLS

#define TRESS_FUR_MESH_MAX_MORPHS 16

typedef struct
{
  guint n_materials;
  guint *material_first; /* global index of each material's first ribbon; n_materials + 1 */
  guint n_ribbons;       /* total */

  /* The file the mesh describes: positions are computed from it when needed
   * (tress_fur_mesh_fill() for the GPU, on the fly for picking and bounds), so
   * the mesh must be rebuilt when its lines or ribbons change. */
  const TressChaFile *file;
  guint morality; /* clamped */

  guint n_vertices;
  guint32 *ribbon_vertex; /* n_ribbons + 1: first vertex of each ribbon (a strip) */
  guint n_triangles;      /* 2 per section */

  guint n_morphs;      /* min (file's morphs, TRESS_FUR_MESH_MAX_MORPHS) */
  float *displacement; /* n_morphs × (2 × n_ribbons) × 3 */

  /* Bounds of the positions without morphs, once bounds_known (set by
   * tress_fur_mesh_fill() and by tress_fur_mesh_bounds() of the whole mesh). */
  float min[3], max[3];
  gboolean bounds_known;
} TressFurMesh;

typedef enum
{
  TRESS_FUR_COLOUR_BODY_PART,
  TRESS_FUR_COLOUR_WEIGHT, /* weight of one body part */
  TRESS_FUR_COLOUR_QUALITY,
  TRESS_FUR_COLOUR_PROBLEMS,
} TressFurColourMode;

/* @morality: 0 = base lengths, n = morality n − 1 (clamped to what the file has).
 * Returns an empty mesh for a file without a decoded radeon section. */
TressFurMesh *tress_fur_mesh_new (const TressChaFile *file, guint morality);
void tress_fur_mesh_free (TressFurMesh *mesh);

/* Writes the vertices without morphs (3 floats each) into @positions and
 * their point ids (global ribbon × 2 + side: 0 left, 1 right) into @point_ids,
 * either may be NULL; updates the bounds. FALSE for a mesh without vertices. */
gboolean tress_fur_mesh_fill (TressFurMesh *mesh, float *positions, guint32 *point_ids);
guint32 tress_fur_mesh_point_id (const TressFurMesh *mesh, guint v);

/* Takes the current points and morph displacements of global ribbon @g from
 * the file after an edit that kept its number of sections: refreshes the
 * displacements and writes its vertices (3 floats each) into @positions (may be
 * NULL). Returns how many vertices, or 0 when the ribbon no longer fits the
 * mesh (ribbons, sections or morphs added or removed): rebuild it then. */
guint tress_fur_mesh_update_ribbon (TressFurMesh *mesh, guint g, float *positions);

/* Separates strips in an index list (GL primitive restart). */
#define TRESS_FUR_MESH_RESTART G_MAXUINT32

/* Writes the strips of every @stride-th ribbon (0, @stride, 2 × @stride…; a
 * @stride of 0 counts as 1) into @out as vertex indices, strips separated by
 * TRESS_FUR_MESH_RESTART, and returns how many it wrote (or would, when @out is
 * NULL); *@n_ribbons (may be NULL) gets the number of strips. */
gsize tress_fur_mesh_strip_indices (const TressFurMesh *mesh, guint stride, guint32 *out,
                                    guint *n_ribbons);

/* Global ribbon number ↔ (material, ribbon); FALSE / G_MAXUINT when out of range. */
gboolean tress_fur_mesh_ribbon_id (const TressFurMesh *mesh, guint global, guint *material,
                                   guint *ribbon);
guint tress_fur_mesh_global (const TressFurMesh *mesh, guint material, guint ribbon);

/* Fills @rgba (4 bytes per ribbon) for @mode. @part: the body part for
 * TRESS_FUR_COLOUR_WEIGHT. @problem_ribbons: per global ribbon, TRUE when it has
 * a problem (TRESS_FUR_COLOUR_PROBLEMS; may be NULL). */
void tress_fur_mesh_colours (const TressFurMesh *mesh, const TressChaFile *file,
                             TressFurColourMode mode, guint32 part, const guint8 *problem_ribbons,
                             guint8 *rgba);
/* The colour of one ribbon (4 bytes), as tress_fur_mesh_colours() gives it. */
void tress_fur_mesh_ribbon_colour (const TressFurMesh *mesh, const TressChaFile *file,
                                   TressFurColourMode mode, guint32 part,
                                   const guint8 *problem_ribbons, guint g, guint8 rgba[4]);
/* The colours of each mode, for legends: a distinct colour per body part; the
 * weight scale (@w 0…1 of 255); quality 0 low, 1 medium, 2 high, 3 and above
 * invalid; ribbons with and without problems. */
void tress_fur_body_part_colour (guint32 part, guint8 rgb[3]);
void tress_fur_weight_colour (double w, guint8 rgb[3]);
void tress_fur_quality_colour (guint32 quality, guint8 rgb[3]);
void tress_fur_problem_colour (gboolean problem, guint8 rgb[3]);
/* Marks (TRUE) the ribbons that have problems, as counted by
 * tress_cha_file_count_ribbon_problems(). */
void tress_fur_mesh_mark_problems (const TressFurMesh *mesh, GHashTable *ribbon_problems,
                                   guint8 *marks);

/* The vertices of global ribbon @g (3 floats each, at most
 * 2 × (TRESS_CHA_MAX_SECTIONS + 1) of them) with the morph weights applied
 * (@weights: n_morphs values, or NULL); returns how many. */
guint tress_fur_mesh_ribbon_points (const TressFurMesh *mesh, guint g, const float *weights,
                                    float *out);
/* Position of vertex @v with the morph weights applied (@weights: n_morphs values). */
void tress_fur_mesh_vertex (const TressFurMesh *mesh, guint v, const float *weights, float out[3]);

/* The ribbon under widget point (@x, @y), or -1. @mvp: 16 floats in graphene's
 * layout (row vectors: clip = (x, y, z, 1) × M), the same array the shader gets;
 * @width × @height the viewport; the nearest triangle (smallest depth) wins. */
int tress_fur_mesh_pick (const TressFurMesh *mesh, const float mvp[16], const float *weights,
                         double width, double height, double x, double y);
/* Bounds of the given global ribbons (all when @n == 0), morphs applied; FALSE if empty. */
gboolean tress_fur_mesh_bounds (const TressFurMesh *mesh, const guint *ribbons, guint n,
                                const float *weights, float min[3], float max[3]);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressFurMesh, tress_fur_mesh_free)

G_END_DECLS
