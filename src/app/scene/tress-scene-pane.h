/* tress-scene-pane.h: the animation preview beside a curve editor's graph
 *
 * Shows, on the model the document's animations play on, the animation of
 * the curves in the graph at the playhead: live while scrubbing, playing and
 * editing (the curves as the graph draws them, a drag included before it is
 * committed). Curves in the graph highlight their nodes; a click on a node
 * selects its curves in the curves tree. When no model is found, or the one
 * found cannot be shown, the preview says why and a "Model…" button picks
 * another (BFRES, SBFRES or SZS), remembered per animation file.
 *
 * Formats plug in with a load function (tress_scene_pane_register_format):
 * from the document (and a model file the user picked, or NULL to find one)
 * it makes a TressSceneAnimator. BFRES is built in, and NIFF, whose files
 * carry their own scene (no "Model…" button; a scene that cannot be read is
 * said in the picture's place while the curves stay editable).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "app/curves/tress-curve-view.h"
#include "formats/tress-scene.h"
#include "tress-scene-preview.h"

G_BEGIN_DECLS

/* Makes the animator for @document; @model_file: a file the user chose, or
 * NULL to find the model. NULL with an error to show in the preview's place;
 * NULL without an error when there is nothing to show (no model found). */
typedef TressSceneAnimator *(*TressScenePaneLoadFunc) (TressDocument *document, GFile *model_file,
                                                       GError **error);

typedef enum
{
  /* The file holds its scene: no model is looked for or chosen. */
  TRESS_SCENE_PANE_OWN_SCENE = 1 << 0,
} TressScenePaneFormatFlags;

/* Registers @load for documents of @format_id (a TressFormat id). */
void tress_scene_pane_register_format (const char *format_id, TressScenePaneLoadFunc load);
void tress_scene_pane_register_format_full (const char *format_id, TressScenePaneLoadFunc load,
                                            TressScenePaneFormatFlags flags);
/* Whether a load function is registered for @document's format. */
gboolean tress_scene_pane_supports (TressDocument *document);
/* The model file chosen with "Model…" for @document's file (remembered
 * across runs), or NULL: what the preview shows it on, for the export. */
GFile *tress_scene_pane_lookup_model (TressDocument *document);

#define TRESS_TYPE_SCENE_PANE (tress_scene_pane_get_type ())
G_DECLARE_FINAL_TYPE (TressScenePane, tress_scene_pane, TRESS, SCENE_PANE, GtkWidget)

/* @tree_selection: the curves tree's selection (rows: GtkTreeListRow of
 * TressCurveNode over a GtkFilterListModel of a GtkTreeListModel), where a
 * click on a node selects its curves; may be NULL. */
GtkWidget *tress_scene_pane_new (TressCurveDocument *document, TressCurveView *view,
                                 GtkSelectionModel *tree_selection);

/* The curves tree's selection, when it is made after the pane. */
void tress_scene_pane_set_tree_selection (TressScenePane *self, GtkSelectionModel *tree_selection);
/* Loads the model now if it is not loaded yet (else it loads when the pane
 * is first shown): its skeleton then nests the curves tree before the tree
 * is first built, so the tree is built once. */
void tress_scene_pane_load_first (TressScenePane *self);
/* The widget showing the tree (a GtkColumnView or GtkListView), scrolled to
 * the rows a click selects. */
void tress_scene_pane_set_tree_view (TressScenePane *self, GtkWidget *tree_view);
TressScenePreview *tress_scene_pane_get_preview (TressScenePane *self);
/* The animator shown, or NULL. */
TressSceneAnimator *tress_scene_pane_get_animator (TressScenePane *self);
/* The animation posed (the animator's numbering), or −1. */
int tress_scene_pane_get_animation (TressScenePane *self);
/* Poses of the scene so far (tests see that a change reached the preview). */
guint tress_scene_pane_get_n_poses (TressScenePane *self);
/* Loads the model again from @file (NULL: find it), as the "Model…" button
 * does, and remembers the choice for the document's file. */
void tress_scene_pane_load (TressScenePane *self, GFile *file);
/* Selects in the curves tree the curves of node @node, as a click does. */
void tress_scene_pane_select_node (TressScenePane *self, guint node);

/* Poses the scene at the playhead now (a tool changed what it shows). */
void tress_scene_pane_pose_now (TressScenePane *self);
/* The pose gizmo (tress-scene-gizmo.h). */
typedef struct _TressSceneGizmo TressSceneGizmo;
TressSceneGizmo *tress_scene_pane_get_gizmo (TressScenePane *self);

G_END_DECLS
