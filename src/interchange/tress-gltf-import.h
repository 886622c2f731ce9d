/* tress-gltf-import.h: glTF 2.0 skeletal animations brought into a BFRES
 *
 * A glTF animation replaces the BFRES skeletal animation of the same name.
 * The model is the one the export and the preview use
 * (tress_bfres_animator_new on the model's FRES bytes). The glTF's joints
 * are matched to the model's bones by name (the skin with the most matches);
 * the animation is sampled at every frame f = 0 … N, time f / fps, N =
 * round(last key time × fps), and at each frame every matched bone's BFRES
 * model-space matrix is the skinning equivalent of its joint:
 *
 *   world_bfres(bone) = world_gltf(joint) · IBM_gltf(joint) · bind_world_bfres(bone)
 *
 * (world_gltf through the whole node hierarchy, armature nodes included; a
 * program that turns joint axes or the up axis, as Blender does, turns the
 * inverse bind matrices with them, so nothing of that reaches the bones).
 * Each bone's local transform follows under the animation's scaling mode
 * (standard, Maya segment scale compensation, Softimage) from its parent's
 * pose as the BFRES pose code composes it, and is decomposed into scale,
 * rotation (Euler XYZ unwrapped frame to frame, the solution nearest the one
 * before; or sign-continuous quaternions) and translation.
 *
 * Per component: an original curve that still gives every sample within
 * the tolerance is kept; samples within the tolerance of one value give a
 * base value (the original one where it still fits); otherwise the samples
 * are fitted with Hermite keys (tress_curve_fit) within half the tolerance,
 * the other half left to the file's storage. Bones of the animation without a
 * joint keep their bone animation; bones with a joint that the animation did
 * not move get one only where the glTF moves them off the bind pose.
 *
 * GLib, GIO and json-glib only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "formats/bfres/tress-bfres-skeletal.h"
#include "formats/bfres/tress-bfres.h"
#include "formats/tress-scene.h"
#include "tress-gltf-reader.h"

G_BEGIN_DECLS

#define TRESS_GLTF_IMPORT_DEFAULT_FPS 30.0
/* Default tolerances: translations this fraction of the skeleton's size
 * (the largest extent of its bind-pose bone positions), rotations this
 * angle in radians (quaternion components half of it), scales this much. */
#define TRESS_GLTF_IMPORT_TRANSLATION_TOLERANCE 1e-4
#define TRESS_GLTF_IMPORT_ROTATION_TOLERANCE 1e-4
#define TRESS_GLTF_IMPORT_SCALE_TOLERANCE 1e-4
/* (frames + 1) × (bones + nodes posed) an animation may cost. */
#define TRESS_GLTF_IMPORT_MAX_SAMPLES (1u << 22)

typedef struct
{
  double fps;       /* time = frame / fps; 0: TRESS_GLTF_IMPORT_DEFAULT_FPS */
  double tolerance; /* > 0: every component's, in its own units; 0: the defaults */
} TressGltfImportOptions;

/* Component kinds, for the tolerances. */
typedef enum
{
  TRESS_GLTF_IMPORT_SCALE,
  TRESS_GLTF_IMPORT_ROTATION,
  TRESS_GLTF_IMPORT_TRANSLATION,
} TressGltfImportKind;

/* What importing one animation makes and says. */
typedef struct
{
  char *name;
  guint gltf_anim; /* in the document */
  guint file_anim; /* the BFRES file's numbering (tress_bfres_get_anim_info) */
  guint skeletal;  /* among the skeletal animations the animator read */
  int old_frame_count, frame_count;
  TressBfresRotation rotation_mode;
  TressBfresScaling scaling;

  /* The new bone animations (bone names owned by @names). */
  guint n_bones;
  TressBfresBoneAnimSpec *bones;
  GPtrArray *names;

  double tolerance[3];    /* per TressGltfImportKind, in the component's units */
  double store_tolerance; /* what tress_bfres_replace_skeletal may add */
  double skeleton_size;

  guint n_matched;             /* bones of the model with a joint */
  GPtrArray *unmatched_joints; /* names (or "node N") of joints no bone has */
  GPtrArray *kept_bones;       /* animated bones without a joint: kept as they were */
  guint n_added_bones;         /* bone animations new to the animation */
  guint curves_added, curves_removed, curves_kept, curves_refit, base_values;
  guint curves_cut; /* kept curves cut at a new, earlier end */
  /* Every component as the file has it (its curve kept, or its base value
   * the same), no bone newly animated, the frame count the same: there is
   * nothing to write. */
  gboolean unchanged;
  guint n_keys; /* keys of the curves fitted */
  /* The spec's pose against the glTF's, over the matched bones and every
   * frame: translation error as a fraction of the skeleton's size, rotation
   * error in degrees, and where. */
  double max_position_error, max_rotation_error;
  char *worst_position, *worst_rotation; /* "Head at frame 12" */
  /* The same for what the file stores (tress_gltf_import_measure_stored). */
  gboolean stored_measured;
  double stored_position_error, stored_rotation_error;
  char *worst_stored_position, *worst_stored_rotation;
  guint n_sheared;    /* bone-frames whose local matrix held a shear BFRES cannot */
  double sample_rate; /* tress_gltf_animation_get_sample_rate() of the glTF animation */
} TressGltfImportAnim;

void tress_gltf_import_anim_free (TressGltfImportAnim *anim);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressGltfImportAnim, tress_gltf_import_anim_free)

typedef struct _TressGltfImport TressGltfImport;

/* Binds @doc (kept referenced by the import, not owned) to the model in
 * @model_fres for the animations of @bfres. An error when the model cannot
 * be read or fails its bind check, or @doc has no joint named after a bone. */
TressGltfImport *tress_gltf_import_new (TressBfres *bfres, GBytes *model_fres, const char *source,
                                        const TressGltfDocument *doc,
                                        const TressGltfImportOptions *options, GError **error);
void tress_gltf_import_free (TressGltfImport *imp);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressGltfImport, tress_gltf_import_free)

/* The model's name, the skin used ("skins[0] (Bass)", or "no skin: nodes
 * named after bones"). */
const char *tress_gltf_import_get_model (TressGltfImport *imp);
const char *tress_gltf_import_get_skin (TressGltfImport *imp);
/* The rate the animations are sampled at (the options' or the default). */
double tress_gltf_import_get_fps (TressGltfImport *imp);
/* The BFRES skeletal animation named @name: its index in the file's
 * numbering, or −1. */
int tress_gltf_import_find_anim (TressGltfImport *imp, const char *name);

/* What an import pairs by name, for messages: the names of @bfres's
 * skeletal animations, and of @doc's named animations (char *, owned by
 * them). */
GPtrArray *tress_gltf_import_skeletal_names (TressBfres *bfres);
GPtrArray *tress_gltf_import_gltf_names (const TressGltfDocument *doc);

/* The new bone animations of skeletal animation @file_anim (file
 * numbering) from glTF animation @gltf_anim. An error when the animation
 * would pass TRESS_GLTF_IMPORT_MAX_SAMPLES. */
TressGltfImportAnim *tress_gltf_import_build (TressGltfImport *imp, guint gltf_anim,
                                              guint file_anim, GError **error);

/* After @bfres (the file the import was made for) got @anim's bone
 * animations (tress_bfres_replace_skeletal): poses its animation of that
 * name as @animator (a new one, over @bfres and the model) reads it, against
 * the glTF, into @anim's stored errors. */
gboolean tress_gltf_import_measure_stored (TressGltfImport *imp, TressSceneAnimator *animator,
                                           TressBfres *bfres, TressGltfImportAnim *anim,
                                           GError **error);

G_END_DECLS
