/* gltf-import-test.h: what the import tests share
 *
 * The BFRES side (the file, its model and animator, poses of the original
 * animation and of what an import makes, through the preview's pose code),
 * comparisons of poses, a GLB taken apart for editing and put together
 * again, and the glTF side posed with the tests' own decoder
 * (gltf-test-reader.c) through the skinning equivalence
 * world_gltf · IBM · bind_world.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "formats/bfres/tress-bfres-scene.h"
#include "gltf-test-reader.h"
#include "interchange/tress-gltf-bfres.h"
#include "interchange/tress-gltf-import.h"

G_BEGIN_DECLS

/* What the tests hold to: positions within this of the skeleton's size,
 * rotations within this many degrees (the file's own precision is far
 * finer; the real largest errors are printed). */
#define POSITION_LIMIT 1e-3
#define ROTATION_LIMIT 0.5

typedef struct
{
  TressBfres *bfres;
  GBytes *model_fres;
  char *source;
  TressSceneAnimator *animator;
  const TressBfresModel *model;
  TressBfresMatrix *bind_world;
  double size;
} Bfres;

typedef struct
{
  double position, rotation; /* position as a fraction of the size */
} Worst;

/* A GLB taken apart for editing: its JSON and its BIN chunk. */
typedef struct
{
  JsonParser *parser;
  JsonObject *root;
  GByteArray *bin;
} Edit;

void bfres_open (Bfres *b, GBytes *file, const char *path);
/* The same on the model in @model_fres (NULL: found as the preview finds it). */
void bfres_open_model (Bfres *b, GBytes *file, const char *path, GBytes *model_fres);
void bfres_clear (Bfres *b);
/* Loads the Bass sample (b->bfres NULL, the test skipped, without it). */
void load_bass (Bfres *b);
/* Index among the animator's skeletal animations of the one named @name. */
int skeletal_named (Bfres *b, const char *name);
/* The original animation's world matrices at @frame. */
void original_pose (Bfres *b, int skeletal, double frame, TressBfresMatrix *world);
/* What the import's bone animations pose at @frame: each imported bone's
 * components from its base values and curves, every other bone as the
 * original animation has it. */
void spec_pose (Bfres *b, const TressGltfImportAnim *a, double frame, TressBfresMatrix *world);

/* Angle (degrees) between the rotations of two affine matrices, and the
 * distance between their translations. */
double angle_between (const double a[3][4], const double b[3][4]);
double position_between (const double a[3][4], const double b[3][4]);
void worst_add (Worst *w, const double a[3][4], const double b[3][4], double size);

void edit_open (Edit *e, GBytes *glb);
void edit_clear (Edit *e);
GBytes *edit_to_glb (Edit *e);
JsonObject *edit_get (Edit *e, const char *array, guint i);
int edit_node (Edit *e, const char *name);
JsonObject *edit_anim (Edit *e, const char *name);
/* The input or output (@which) accessor of @anim's channel for @node's @path. */
guint edit_accessor (JsonObject *anim, guint node, const char *path, const char *which);
/* The floats of accessor @i in the BIN chunk, to read and change. */
float *edit_floats (Edit *e, guint i, guint *count);

/* The glTF's joints posed at @frame by the tests' own decoder, as BFRES
 * model-space matrices (matched[bone] set for bones with a joint). */
void gltf_targets (Gltf *g, Bfres *b, const char *anim_name, double frame, double fps,
                   TressBfresMatrix *out, gboolean *matched);

GBytes *export_glb (Bfres *b);
TressGltfDocument *read_doc (GBytes *glb);
TressGltfImportAnim *import_one (Bfres *b, TressGltfDocument *doc, const char *name,
                                 const TressGltfImportOptions *o);
/* The spec's pose against the glTF's at every frame, within the limits. */
Worst check_against_gltf (Bfres *b, GBytes *glb, const TressGltfImportAnim *a, double fps);

/* R(axis, angle) as a quaternion; quaternion product a · b. */
void axis_angle (const double axis[3], double degrees, double q[4]);
void quat_mul (const double a[4], const double b[4], double out[4]);

G_END_DECLS
