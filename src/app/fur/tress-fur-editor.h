/* tress-fur-editor.h: the creature-fur editor (the page of a .cha document)
 *
 * A banner says when the file has problems ("3 problems — Show"). The ribbon
 * tree (GtkColumnView over a GtkTreeListModel of the document's lazy
 * models: sortable columns, a search entry, multi-selection), the 3D preview and
 * the UV map in a notebook, and the inspector. All of them follow the
 * document's one ribbon selection.
 *
 * Actions (on the editor, prefix "fur."): select-ribbons (s: "M:R,M:R…"),
 * set-weights ((yyy): reference order), retarget ((uuu): from, to, scope 0
 * selection / 1 material / 2 file), retarget-dialog, fix-all, load-background,
 * frame-all (Ctrl+Home), frame-selection (Ctrl+Shift+F), show-problems. Undo,
 * redo and save are the window's (win.undo, …).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/tress-cha-document.h"
#include "tress-fur-inspector.h"
#include "tress-fur-names.h"
#include "tress-fur-preview.h"
#include "tress-uv-map.h"

G_BEGIN_DECLS

#define TRESS_TYPE_FUR_EDITOR (tress_fur_editor_get_type ())
G_DECLARE_FINAL_TYPE (TressFurEditor, tress_fur_editor, TRESS, FUR_EDITOR, GtkWidget)

/* The editor for @doc (a TressChaDocument; anything else gets a short notice). */
GtkWidget *tress_fur_editor_new (TressDocument *doc);
/* Registers the "cha" document type and this editor (call once at start-up). */
void tress_fur_editor_register (void);

TressChaDocument *tress_fur_editor_get_document (TressFurEditor *self);
GtkColumnView *tress_fur_editor_get_column_view (TressFurEditor *self);
GtkSelectionModel *tress_fur_editor_get_tree_selection (TressFurEditor *self);
GtkEditable *tress_fur_editor_get_search (TressFurEditor *self);
TressFurInspector *tress_fur_editor_get_inspector (TressFurEditor *self);
TressFurPreview *tress_fur_editor_get_preview (TressFurEditor *self);
TressUvMap *tress_fur_editor_get_uv_map (TressFurEditor *self);
/* The banner's text ("3 problems") while it is shown, else NULL. */
const char *tress_fur_editor_get_problems_banner (TressFurEditor *self);
/* The body-part names of this file. */
TressFurNames *tress_fur_editor_get_names (TressFurEditor *self);
/* Shows the preview (0) or the UV map (1). */
void tress_fur_editor_show_page (TressFurEditor *self, guint page);
/* Parses "M:R,M:R…" into ribbon ids; FALSE on a malformed list. */
gboolean tress_fur_parse_ribbon_list (const char *text, GArray *out);

G_END_DECLS
