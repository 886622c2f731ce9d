/* tress-fur-preview.h: the 3D ribbon preview (GtkGLArea, GL 3.3 core)
 *
 * Draws every ribbon of a TressChaDocument as a strip (see tress-fur-mesh.h),
 * coloured by body part, by the weight of a chosen part, by quality or by
 * problems, with the document's selection in the highlight colour. Morph
 * sliders only change shader uniforms (nothing is uploaded when they move).
 * Drag orbits, Shift+drag or the middle button pans, scrolling zooms, a click
 * picks a ribbon and selects it in the document (Ctrl adds), "Frame" fits the
 * selection. When GL is unavailable (GDK_DEBUG=gl-disable, no driver) the pane
 * says so and the rest of the editor is unaffected.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/tress-cha-document.h"
#include "tress-fur-mesh.h"

G_BEGIN_DECLS

#define TRESS_TYPE_FUR_PREVIEW (tress_fur_preview_get_type ())
G_DECLARE_FINAL_TYPE (TressFurPreview, tress_fur_preview, TRESS, FUR_PREVIEW, GtkWidget)

/* The colour selected ribbons are drawn in, exactly (no lighting, no blending). */
#define TRESS_FUR_HIGHLIGHT_R 255
#define TRESS_FUR_HIGHLIGHT_G 255
#define TRESS_FUR_HIGHLIGHT_B 0
/* The background colour. */
#define TRESS_FUR_BACKGROUND_R 40
#define TRESS_FUR_BACKGROUND_G 42
#define TRESS_FUR_BACKGROUND_B 48

GtkWidget *tress_fur_preview_new (TressChaDocument *doc);

/* FALSE until realized, and when GL is unavailable. */
gboolean tress_fur_preview_get_gl_ready (TressFurPreview *self);
/* The message shown instead of the picture, or NULL while GL works. */
const char *tress_fur_preview_get_gl_error (TressFurPreview *self);

void tress_fur_preview_set_morph_weight (TressFurPreview *self, guint morph, double weight);
void tress_fur_preview_set_morality (TressFurPreview *self, guint morality);
void tress_fur_preview_set_colour_mode (TressFurPreview *self, TressFurColourMode mode,
                                        guint32 part);
/* Points the camera at the selection (all ribbons when nothing is selected). */
void tress_fur_preview_frame_selection (TressFurPreview *self);
/* Orbit by angles in degrees; zoom by a factor (< 1 closer). */
void tress_fur_preview_orbit (TressFurPreview *self, double yaw, double pitch);
void tress_fur_preview_zoom (TressFurPreview *self, double factor);
/* Picks at widget point (@x, @y) and selects the ribbon (as a click would);
 * returns the global ribbon number or -1. */
int tress_fur_preview_pick (TressFurPreview *self, double x, double y, gboolean extend);
/* Widget position of the middle of global ribbon @global's first band. */
gboolean tress_fur_preview_ribbon_position (TressFurPreview *self, guint global, double *x,
                                            double *y);

/* Draws a frame now and reads it back: RGBA rows top to bottom, *width × *height
 * device pixels. NULL when GL is not ready. */
GBytes *tress_fur_preview_grab (TressFurPreview *self, int *width, int *height);
/* Draws @n frames now (glFinish after each) and returns the mean seconds per frame. */
double tress_fur_preview_time_frames (TressFurPreview *self, guint n);
/* Level of detail. While the view moves (orbit, pan, zoom by the pointer), a
 * file of more than the limit of ribbons (3,000 unless set; 0: no limit) is
 * drawn with about that many of them, evenly spread; once the view has rested
 * for a quarter of a second the full mesh is drawn. Picking is always exact.
 * set_interacting (TRUE) draws reduced until set_interacting (FALSE). */
void tress_fur_preview_set_interacting (TressFurPreview *self, gboolean interacting);
gboolean tress_fur_preview_get_interacting (TressFurPreview *self);
void tress_fur_preview_set_lod_limit (TressFurPreview *self, guint max_ribbons);
/* Ribbons drawn in the last frame. */
guint tress_fur_preview_get_n_ribbons_drawn (TressFurPreview *self);
/* Upload counter: buffers uploaded so far (tests check sliders upload nothing). */
guint tress_fur_preview_get_n_uploads (TressFurPreview *self);
const TressFurMesh *tress_fur_preview_get_mesh (TressFurPreview *self);
/* Meshes built so far: an edit of a few ribbons updates them in place instead. */
guint tress_fur_preview_get_n_mesh_builds (TressFurPreview *self);

/* Signal "frame-drawn": after every drawn frame. */

G_END_DECLS
