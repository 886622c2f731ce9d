/* tress-anim-edit.h: whole-animation operations on a curve document
 *
 * Retime, frame count (BFRES) or end frame (NIFF), loop, rename, duplicate
 * and delete one animation of a TressCurveDocument: a BFRES animation of any
 * kind (tress-bfres-animops.h) or a NIFF AnimGroup (tress-niff-animops.h).
 * The operations are the format layer's, with the same arguments as
 * tress-cli retime / set-anim / duplicate-anim / delete-anim, so a document
 * saved after one holds the bytes the CLI writes for it. Each is one undo
 * step (tress_curve_document_replace_state) whose label names the operation
 * and the animation ("Retime Jump ×2"); undo puts back the very bytes.
 *
 * GLib only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-curve-document.h"

G_BEGIN_DECLS

typedef enum
{
  TRESS_ANIM_EDIT_RETIME,
  TRESS_ANIM_EDIT_FRAME_COUNT,
  TRESS_ANIM_EDIT_LOOP,
  TRESS_ANIM_EDIT_RENAME,
  TRESS_ANIM_EDIT_DUPLICATE,
  TRESS_ANIM_EDIT_DELETE,
} TressAnimEditOp;

typedef struct
{
  TressAnimEditOp op;
  guint anim;
  /* RETIME: @scale, or (when @frames > 0) the scale that makes the animation
   * @frames long (tress-cli retime --frames). FRAME_COUNT: @frames. */
  double scale;
  int frames;
  /* RETIME: widen the frame types that cannot hold the new frames (BFRES);
   * FRAME_COUNT: trim the keys past a lower count. */
  gboolean allow;
  gboolean loop;    /* LOOP */
  const char *name; /* RENAME, DUPLICATE */
} TressAnimEdit;

typedef struct
{
  char *name;       /* as stored ("#N" for a NIFF group without a name) */
  char *spec;       /* the form that names it alone (tress-cli's ANIMATION) */
  const char *kind; /* "Skeletal", …, "AnimGroup" (static) */
  double length;    /* BFRES: the frame count; NIFF: the last key's frame */
  gboolean loops;
  gboolean has_frame_count; /* BFRES stores a frame count; NIFF ends at its last key */
  gboolean can_widen;       /* wider frame types exist (BFRES) */
  guint n_curves;
} TressAnimInfo;

void tress_anim_info_clear (TressAnimInfo *info);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TressAnimInfo, tress_anim_info_clear)

/* Whether @document's format has these operations (BFRES, NIFF). */
gboolean tress_anim_edit_supported (TressCurveDocument *document);
guint tress_anim_edit_get_n_anims (TressCurveDocument *document);
/* The animation (or AnimGroup) curve @curve belongs to, or -1. */
int tress_anim_edit_anim_of_curve (TressCurveDocument *document, guint curve);
/* FALSE when there is no animation @anim. Clear @info after. */
gboolean tress_anim_edit_get_info (TressCurveDocument *document, guint anim, TressAnimInfo *info);
/* A name for a copy of @anim that no animation it would share a list with
 * has: "NAME_copy", "NAME_copy2", … */
char *tress_anim_edit_unique_name (TressCurveDocument *document, guint anim);
/* The undo label of @edit ("Retime Jump ×2", "Delete Jump"). */
char *tress_anim_edit_label (TressCurveDocument *document, const TressAnimEdit *edit);
/* Runs @edit as one undo step. On a refusal (the format's message, with
 * the cost) nothing changes and nothing is recorded. @notes (char *, may be
 * NULL) gets what else changed, as the CLI prints it. */
gboolean tress_anim_edit_apply (TressCurveDocument *document, const TressAnimEdit *edit,
                                GPtrArray *notes, GError **error);

G_END_DECLS
