/* tress-bfres-scene.h: BFRES models and animations as a TressScene
 *
 * Finding the model an animation file plays on: the file's own models when one
 * of them has shapes; else, for X_Animation.bfres, the sibling X.bfres or
 * X.sbfres (also inside the same SARC archive); else the file's own
 * shape-less skeleton (bones only); else none, and the editor asks.
 *
 * The animator maps every curve of the animation file to its animation and
 * bone (bones are matched by name; curves of bones the model lacks drive
 * nothing and are listed in the animation's note) and poses the scene: the
 * skeletal animation's curves, else its base values, else the bind pose, by
 * its scaling mode; bone and material visibility animations hide bones and
 * the shapes that follow them, or the shapes of a material.
 *
 * GLib and GIO only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "formats/tress-scene.h"
#include "tress-bfres-anim.h"
#include "tress-bfres-model.h"
#include "tress-bfres-pose.h"
#include "tress-bfres.h"

G_BEGIN_DECLS

/* The FRES bytes inside @file (plain, Yaz0, SARC, Yaz0 over SARC). In an
 * archive, the entry named @entry when given (else the first holding a
 * BFRES with models). */
GBytes *tress_bfres_unwrap (GBytes *file, const char *entry, GError **error);

/* The FRES bytes holding the model for the animations of @anims (opened from
 * @anim_file, which may be NULL for a file not on disk), by the rules above;
 * *source gets a description for people ("Animal_Bass.bfres"). NULL without
 * an error when nothing was found; NULL with an error when a candidate could
 * not be read. */
GBytes *tress_bfres_find_model (TressBfres *anims, GFile *anim_file, char **source, GError **error);

/* The same from a copy of what it reads of @anims: its FRES bytes
 * (tress_bfres_get_bfres_bytes) and the entries of the archive it came from
 * (tress_bfres_list_archive, may be NULL), so that a worker thread can look
 * while the document stays in the hands of the UI. */
GBytes *tress_bfres_find_model_in (GBytes *own_fres, const char *const *archive, GFile *anim_file,
                                   char **source, GError **error);

/* What tress_bfres_find_model() looked for, for a message when it found
 * nothing ("no model or skeleton in A_Animation.bfres, no A.bfres or
 * A.sbfres beside it"). */
char *tress_bfres_describe_model_search (TressBfres *anims, GFile *anim_file);
char *tress_bfres_describe_model_search_in (const char *const *archive, GFile *anim_file);

/* The scene of the model in @model_fres that best fits the bones @anims
 * animates (models with shapes first), bound to @anims' curves. An error when
 * no model can be read or the skeleton fails its bind check (naming the
 * bone). */
TressSceneAnimator *tress_bfres_animator_new (TressBfres *anims, GBytes *model_fres,
                                              const char *source, GError **error);

/* For exporters (src/interchange): the model @animator (made by
 * tress_bfres_animator_new) chose, and the animations it read (its own
 * numbering: skeletal ones first, then visibility ones, as curve_anim). */
const TressBfresModel *tress_bfres_animator_get_model (TressSceneAnimator *animator);
const TressBfresAnims *tress_bfres_animator_get_anims (TressSceneAnimator *animator);

/* The local transform of every bone of the model (n_bones SRTs) at @frame of
 * skeletal animation @skeletal (index into anims->skeletal; −1: the bind
 * pose), curve values from @sample: what the preview's pose composes into
 * world matrices, with the scaling mode it composes them by (returned). */
TressBfresScaling tress_bfres_animator_pose_srt (TressSceneAnimator *animator, int skeletal,
                                                 double frame, TressSceneSampleFunc sample,
                                                 gpointer user_data, TressBfresSrt *srt);

/* While a pose gizmo drags: every pose until cleared (@bone −1, or both
 * NULL) gives bone @bone (the model's numbering) the local rotation @euler
 * (Euler XYZ radians, R = Rz · Ry · Rx; a quaternion animation gets its
 * quaternion) and the local translation @translation, each where not NULL,
 * as if the curves held them. Nothing is written. */
void tress_bfres_animator_set_override (TressSceneAnimator *animator, int bone,
                                        const double euler[3], const double translation[3]);
/* The last pose again with the override changed (a drag's move): only the
 * bone's own transform and the world matrices of the bone and the bones
 * below it are worked out again, no curve is read. FALSE (nothing done)
 * before a first pose or without an override. The caller poses in full
 * whenever the frame or the curves changed since. */
gboolean tress_bfres_animator_repose (TressSceneAnimator *animator);
/* The BoneAnim skeletal animation @skeletal (the animator's numbering) has
 * for bone @bone (the model's numbering), or NULL. */
const TressBfresBoneAnim *tress_bfres_animator_get_bone_anim (TressSceneAnimator *animator,
                                                              int skeletal, guint bone);

G_END_DECLS
