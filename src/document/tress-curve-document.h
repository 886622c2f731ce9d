/* tress-curve-document.h: the document of a format with animation curves
 *
 * Documents of "bfres" and "niff" (and of any format registered with
 * tress_curve_document_register_format()) are TressCurveDocuments. They expose
 * the curves as a tree of TressCurveNode (GListModels, for a GtkTreeListModel),
 * keep a neutral TressCurve per curve in step with the model, and edit curves
 * through one undoable "set curve" command built on TressCurveOps.save_state /
 * restore_state, so undo and redo restore the very same bytes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "document/tress-curve-hierarchy.h"
#include "document/tress-document.h"
#include "document/tress-play-range.h"

G_BEGIN_DECLS

#define TRESS_TYPE_CURVE_NODE (tress_curve_node_get_type ())
G_DECLARE_FINAL_TYPE (TressCurveNode, tress_curve_node, TRESS, CURVE_NODE, GObject)

#define TRESS_TYPE_CURVE_DOCUMENT (tress_curve_document_get_type ())
G_DECLARE_FINAL_TYPE (TressCurveDocument, tress_curve_document, TRESS, CURVE_DOCUMENT,
                      TressDocument)

/* Registers TressCurveDocument for "bfres" and "niff" (idempotent). */
void tress_curve_document_register_types (void);
/* Registers TressCurveDocument for another format with curve operations (tests). */
void tress_curve_document_register_format (const char *format_id);

/* A tree row: a group (file, animation kind, animation, bone, …) or a curve. */
const char *tress_curve_node_get_name (TressCurveNode *self);
/* The curve's index in the model, or -1 for a group. */
int tress_curve_node_get_curve_index (TressCurveNode *self);
/* The children (TressCurveNode), or NULL for a curve. */
GListModel *tress_curve_node_get_children (TressCurveNode *self);
/* Appends to @indices (guint) the curve indices at and below this node. */
void tress_curve_node_collect_curves (TressCurveNode *self, GArray *indices);
/* Whether the row is the group of a skeleton's node (a bone), nested under
 * its parent's group (tress-curve-hierarchy.h). */
gboolean tress_curve_node_is_nested (TressCurveNode *self);
/* What selecting the row stands for: a bone's group its own curves, not its
 * child bones' (nested below it), or when it has none, those below it; any
 * other row all its curves. */
void tress_curve_node_collect_own_curves (TressCurveNode *self, GArray *indices);
/* Column texts: key count, interpolation, frame range, types, quantization error. */
char *tress_curve_node_dup_column (TressCurveNode *self, const char *column);

/* The top level of the tree (TressCurveNode). The tree is built on the first
 * call, nested by the skeleton if one is set by then (else built again when
 * one is set). */
GListModel *tress_curve_document_get_roots (TressCurveDocument *self);
/* How many times the tree was built (for tests: once when a file opens). */
guint tress_curve_document_get_n_tree_builds (TressCurveDocument *self);
guint tress_curve_document_get_n_curves (TressCurveDocument *self);
/* The current curve (owned by the document; valid until the next change of it). */
const TressCurve *tress_curve_document_get_curve (TressCurveDocument *self, guint index);
/* The largest quantization error of the curve's stored values (0 if exact). */
double tress_curve_document_get_quant_error (TressCurveDocument *self, guint index);
/* The largest quantization error the format would give @curve as curve
 * @index, computed without storing anything (the format's preview_error).
 * FALSE with TRESS_ERROR_UNSUPPORTED when the format cannot tell, or with the
 * refusal storing would give. */
gboolean tress_curve_document_preview_error (TressCurveDocument *self, guint index,
                                             const TressCurve *curve, double *max_error,
                                             GError **error);
/* What storing @curve in curve @index would cost the keys the edit leaves
 * alone (the format's preview_store; clear @cost after). FALSE when the format
 * cannot tell (then nothing needs asking) or would refuse the curve. */
gboolean tress_curve_document_preview_store (TressCurveDocument *self, guint index,
                                             const TressCurve *curve, TressStoreCost *cost);
/* Stores @curve in curve @index as one undo step labelled @label, through
 * the rules every edit is stored by (tress_curve_commit): a longer animation,
 * wider frames, a coarser step or a wider value type only as @consent
 * (TressCommitConsent) allows; refused, with nothing changed, otherwise. */
gboolean tress_curve_document_commit_curve (TressCurveDocument *self, guint index,
                                            const TressCurve *curve, guint consent,
                                            const char *label, GError **error);
/* Encodes @curve into curve @index as one undo step labelled @label. On a
 * refusal (TRESS_ERROR_REFUSED, the format's reason) nothing changes. */
gboolean tress_curve_document_set_curve (TressCurveDocument *self, guint index,
                                         const TressCurve *curve, const char *label,
                                         GError **error);
/* The same, merging with the previous step when it has the same @merge_key and
 * curve (a value typed in steps, a spin button held down). */
gboolean tress_curve_document_set_curve_merging (TressCurveDocument *self, guint index,
                                                 const TressCurve *curve, const char *label,
                                                 const char *merge_key, GError **error);
/* An operation of the format's own on curve @index of @model (e.g. widening a
 * BFRES key type); *max_error gets the quantization error after it. */
typedef gboolean (*TressCurveModelEdit) (gpointer model, guint index, gpointer data,
                                         double *max_error, GError **error);
/* Runs @edit as one undoable step labelled @label, with the same exact-bytes
 * undo as set_curve (the format's save_state / restore_state around it). */
gboolean tress_curve_document_apply_model_edit (TressCurveDocument *self, guint index,
                                                const char *label, TressCurveModelEdit edit,
                                                gpointer data, GError **error);
/* Puts back a whole state of the model (the format's own bytes), FALSE with
 * an error when it cannot. */
typedef gboolean (*TressCurveModelRestore) (gpointer model, GBytes *state, GError **error);
/* A change that adds and removes curves (an import): puts @after into the
 * model through @restore as one undo step labelled @label, undo putting back
 * @before (the state the model holds now) and redo @after, so both restore
 * the very same bytes. The curves are read again and "curves-reset" emitted
 * after each. On an error nothing changes and nothing is recorded. */
gboolean tress_curve_document_replace_state (TressCurveDocument *self, const char *label,
                                             TressCurveModelRestore restore, GBytes *before,
                                             GBytes *after, GError **error);
/* Groups several set_curve calls into one undo step. */
void tress_curve_document_begin_edit (TressCurveDocument *self, const char *label);
void tress_curve_document_end_edit (TressCurveDocument *self);
/* Instead of end_edit: takes back everything changed since begin_edit and
 * records nothing (an edit of several curves refused half-way). */
void tress_curve_document_cancel_edit (TressCurveDocument *self);

/* Nests the tree by @skeleton (taken; NULL: flat), rebuilding it when that
 * changes the nesting: TRUE then (the roots are replaced, the rows the
 * tree showed are gone). A skeleton for another number of curves than the
 * document has is kept but nests nothing. */
gboolean tress_curve_document_set_skeleton (TressCurveDocument *self, TressCurveSkeleton *skeleton);
const TressCurveSkeleton *tress_curve_document_get_skeleton (TressCurveDocument *self);
/* The play ranges set per animation while the document is open. */
TressPlayRanges *tress_curve_document_get_play_ranges (TressCurveDocument *self);

/* Signals: "curve-changed" (guint index) after a curve changed by an edit, undo
 * or redo; "curves-reset" after the whole model was replaced (load, revert). */

G_END_DECLS
