/* tress-uv-map.h: the strand texture's hair pieces, their UV points, editable
 *
 * Draws each hair piece of a material's UV table as its box (row, group,
 * piece) and the outline through its points in "Z" order, over an optional
 * background (t_strand.dds decoded by the project, or any image GdkTexture
 * loads, e.g. PNG). Hovering names the piece and point; dragging a point emits
 * "point-moved" at the end so the owner records one undoable edit.
 *
 * The link with the ribbons: row n of the table holds the hairs of n sections,
 * so a ribbon of n sections draws one of row n's pieces (which group and piece
 * the file does not say). The owner tells which rows the material's ribbons
 * and the selected ones use (tress_uv_map_set_row_use): the boxes of the rows
 * in use by the selection are highlighted, hovering a box says how many
 * ribbons use its row, and a click on a box (not on a point) emits
 * "piece-activated" so the owner selects them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "tress-fur-geometry.h"

G_BEGIN_DECLS

#define TRESS_TYPE_UV_MAP (tress_uv_map_get_type ())
G_DECLARE_FINAL_TYPE (TressUvMap, tress_uv_map, TRESS, UV_MAP, GtkWidget)

GtkWidget *tress_uv_map_new (void);
/* Where UV (0, 0)…(1, 1) lies in the widget now: the background texture
 * fills that square, the table's coordinates are placed in it. */
void tress_uv_map_get_view (TressUvMap *self, TressUvView *view);
/* Copies the table (@n_floats floats, (u,v) pairs). */
void tress_uv_map_set_table (TressUvMap *self, const TressUvLayout *layout, const float *uv,
                             gsize n_floats);
void tress_uv_map_set_background (TressUvMap *self, GdkTexture *texture);
/* Loads a .dds (DXT1/DXT3/DXT5, uncompressed) or any image format GdkTexture reads. */
gboolean tress_uv_map_load_background (TressUvMap *self, GFile *file, GError **error);
GdkTexture *tress_uv_map_get_background (TressUvMap *self);
/* Text describing the hovered piece/point ("" when none). */
const char *tress_uv_map_get_hover_text (TressUvMap *self);
/* Hover at widget point (@x, @y), as the pointer would (tests). */
void tress_uv_map_hover (TressUvMap *self, double x, double y);
/* Moves point @index to widget position (@x, @y) and emits "point-moved" (tests, keyboard). */
void tress_uv_map_drag_point_to (TressUvMap *self, guint index, double x, double y);
/* Widget position of point @index. */
void tress_uv_map_get_point_position (TressUvMap *self, guint index, double *x, double *y);

/* Per row (0 = hairs of 1 section): the material's ribbons with that many
 * sections, and how many of them are selected (copied). */
void tress_uv_map_set_row_use (TressUvMap *self, const guint *ribbons, const guint *selected,
                               guint n_rows);
gboolean tress_uv_map_row_is_used (TressUvMap *self, guint row);
/* A click at widget point (@x, @y), as the pointer would (tests). */
void tress_uv_map_click (TressUvMap *self, double x, double y, gboolean extend);

/* Signals "point-moved" (guint index, double u, double v) and
 * "piece-activated" (guint row, guint group, guint piece, gboolean extend: Ctrl
 * or Shift held). */

/* A GdkTexture from a DDS file's bytes (top mip level). */
GdkTexture *tress_texture_new_from_dds (GBytes *bytes, GError **error);

G_END_DECLS
