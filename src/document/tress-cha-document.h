/* tress-cha-document.h: a creature-fur document, its ribbon tree and selection
 *
 * The TressDocument subclass for "cha" (registered by tress_cha_document_register()).
 * It exposes:
 *  - the ribbon tree as lazily built GListModels of TressChaNode: the file's
 *    sections → (radeon) materials → ribbons → ribbon sections → lines. A list
 *    of 100,000 ribbons costs nothing until rows are asked for: nodes are made
 *    on demand and cached per list;
 *  - the shared ribbon selection (what the tree, inspector, UV map and preview
 *    show as selected), with a "selection-changed" signal;
 *  - precise change signals: "fur-changed" (const TressChaChange *, gboolean undo)
 *    after every edit command is applied, undone or redone; live nodes of the
 *    touched ribbons and lines notify "revision" so bound rows refresh, and ribbon
 *    lists emit items-changed when ribbons are inserted or removed.
 *
 * GLib only: the GTK views wrap these models (GtkTreeListModel, filters, sorters).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "document/tress-document.h"
#include "formats/cha/tress-cha-edit.h"
#include "formats/cha/tress-cha-model.h"

G_BEGIN_DECLS

/* ---- tree nodes ----------------------------------------------------------- */

typedef enum
{
  TRESS_CHA_NODE_SECTION,        /* a file section; opaque ones are "kept as is" */
  TRESS_CHA_NODE_MATERIAL,       /* a radeon material */
  TRESS_CHA_NODE_RIBBON,         /* a ribbon of a material */
  TRESS_CHA_NODE_RIBBON_SECTION, /* one section (band) of a ribbon: two lines */
  TRESS_CHA_NODE_LINE,           /* one 36-byte line */
} TressChaNodeKind;

#define TRESS_TYPE_CHA_NODE (tress_cha_node_get_type ())
G_DECLARE_FINAL_TYPE (TressChaNode, tress_cha_node, TRESS, CHA_NODE, GObject)

TressChaNodeKind tress_cha_node_get_kind (TressChaNode *node);
/* Indices: section (file section), material, ribbon, ribbon section (0-based)
 * and line (index in the material's line array); -1 where they do not apply. */
int tress_cha_node_get_section (TressChaNode *node);
int tress_cha_node_get_material (TressChaNode *node);
int tress_cha_node_get_ribbon (TressChaNode *node);
int tress_cha_node_get_ribbon_section (TressChaNode *node);
int tress_cha_node_get_line (TressChaNode *node);
/* Bumped (and notified) whenever what the node shows changed. */
guint tress_cha_node_get_revision (TressChaNode *node);

typedef enum
{
  TRESS_CHA_COLUMN_NAME,     /* "radeon", "material 0 (parts 1, 2)", "ribbon 12", "line 3" */
  TRESS_CHA_COLUMN_SECTIONS, /* ribbon: section count; line: its section */
  TRESS_CHA_COLUMN_ATTACH,   /* ribbon: attachment body part */
  TRESS_CHA_COLUMN_REFS,     /* "3:200 5:55 0:0" (body part:weight) of the first line / the line */
  TRESS_CHA_COLUMN_QUALITY,
  TRESS_CHA_COLUMN_LENGTH,   /* base length */
  TRESS_CHA_COLUMN_PROBLEMS, /* "⚠ 2" when the ribbon/line has problems */
  TRESS_CHA_N_COLUMNS
} TressChaColumn;

/* The cell text of @node for @column (empty when not applicable). */
char *tress_cha_node_get_text (TressChaNode *node, TressChaColumn column);
/* A number to sort @column by (ribbon rows; G_MAXDOUBLE when not applicable). */
double tress_cha_node_get_sort_key (TressChaNode *node, TressChaColumn column);

/* ---- document ------------------------------------------------------------- */

#define TRESS_TYPE_CHA_DOCUMENT (tress_cha_document_get_type ())
G_DECLARE_FINAL_TYPE (TressChaDocument, tress_cha_document, TRESS, CHA_DOCUMENT, TressDocument)

/* Registers the type for format "cha" (idempotent). */
void tress_cha_document_register (void);

TressChaFile *tress_cha_document_get_cha (TressChaDocument *self);

/* The file's sections (TressChaNode). */
GListModel *tress_cha_document_get_root (TressChaDocument *self);
/* The children of @node as a new GListModel, or NULL for leaves (lines, opaque sections). */
GListModel *tress_cha_document_create_children (TressChaDocument *self, TressChaNode *node);

/* Names of body parts for the tree's text: @func gives the name of @part, or
 * NULL (the number alone is shown); "5 · left leg" otherwise, in the Attached
 * and reference columns and the material rows. Rows already made are
 * refreshed; call tress_cha_document_part_names_changed() when a name changes. */
typedef const char *(*TressChaPartNameFunc) (guint32 part, gpointer user_data);
void tress_cha_document_set_part_names (TressChaDocument *self, TressChaPartNameFunc func,
                                        gpointer user_data);
void tress_cha_document_part_names_changed (TressChaDocument *self);
/* "5 · left leg" or "5", as the tree shows @part. */
char *tress_cha_document_part_label (TressChaDocument *self, guint32 part);

/* Problems per ribbon: the number of problems of the current model located in
 * (material, ribbon) or in one of its lines, every one counted even where the
 * problem list sums a rule up. */
guint tress_cha_document_ribbon_problems (TressChaDocument *self, guint material, guint ribbon);
/* All of them at once (tress_cha_file_count_ribbon_problems()), owned by the
 * document and valid until the model changes. */
GHashTable *tress_cha_document_get_ribbon_problems (TressChaDocument *self);

/* ---- selection ------------------------------------------------------------ */

/* The selected ribbons, sorted by (material, ribbon), no duplicates. */
const TressChaRibbonId *tress_cha_document_get_selection (TressChaDocument *self, guint *n);
/* Replaces the selection (any order, duplicates dropped, out-of-range ignored);
 * emits "selection-changed" only when it changed. @origin (may be NULL) is passed
 * to the signal so a view can ignore its own changes. */
void tress_cha_document_set_selection (TressChaDocument *self, const TressChaRibbonId *ribbons,
                                       guint n, gpointer origin);
gboolean tress_cha_document_is_selected (TressChaDocument *self, guint material, guint ribbon);
/* The lines of the selected ribbons (for weight and byte edits); free with g_free. */
TressChaLineId *tress_cha_document_get_selected_lines (TressChaDocument *self, guint *n);

G_END_DECLS
