/* tress-fur-overlay.h: what the 3D preview shows over its picture
 *
 * A widget laid over the GL area (it takes no events): the legend of the
 * colour mode in the bottom-left corner (a title, then a colour swatch and a
 * label per entry), a line of information in the top-left corner (the
 * ribbon under the pointer, what a paint stroke did) and the brush circle
 * that follows the pointer in paint mode. Drawn by GTK in snapshot(), so
 * moving the brush or changing the text never redraws the GL picture.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TRESS_TYPE_FUR_OVERLAY (tress_fur_overlay_get_type ())
G_DECLARE_FINAL_TYPE (TressFurOverlay, tress_fur_overlay, TRESS, FUR_OVERLAY, GtkWidget)

typedef struct
{
  guint8 rgb[3];
  char *label;
} TressFurLegendEntry;

GtkWidget *tress_fur_overlay_new (void);

/* Replaces the legend: @title (may be NULL) and @n entries (copied). */
void tress_fur_overlay_set_legend (TressFurOverlay *self, const char *title,
                                   const TressFurLegendEntry *entries, guint n);
const char *tress_fur_overlay_get_legend_title (TressFurOverlay *self);
guint tress_fur_overlay_get_legend_size (TressFurOverlay *self);
/* Entry @i's label and colour, and where its swatch is drawn (widget
 * coordinates); FALSE when @i is out of range. */
gboolean tress_fur_overlay_get_legend_entry (TressFurOverlay *self, guint i, const char **label,
                                             guint8 rgb[3], graphene_rect_t *swatch);

/* The line in the top-left corner (NULL or "" hides it). */
void tress_fur_overlay_set_info (TressFurOverlay *self, const char *text);
const char *tress_fur_overlay_get_info (TressFurOverlay *self);

/* The brush circle, centred at (@x, @y) with @radius (widget pixels). */
void tress_fur_overlay_set_brush (TressFurOverlay *self, gboolean visible, double x, double y,
                                  double radius);
gboolean tress_fur_overlay_get_brush (TressFurOverlay *self, double *x, double *y, double *radius);

G_END_DECLS
