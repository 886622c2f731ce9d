/* tress-fur-preview.h: the 3D ribbon preview (GtkGLArea, GL 3.3 core)
 *
 * Draws every ribbon of a TressChaDocument as a strip (see tress-fur-mesh.h),
 * coloured by body part, by the weight of a chosen part, by quality or by
 * problems, with a legend for each. The document's selection is drawn over
 * everything else, outlined, in the highlight colour; "isolate" dims the
 * others; the ribbon under the pointer is lightened and named. Morph sliders
 * only change shader uniforms (nothing is uploaded when they move).
 * Drag orbits, Shift+drag or the middle button pans, scrolling zooms, a click
 * picks a ribbon and selects it in the document (Ctrl or Shift toggles it),
 * "Frame all" fits the creature, "Frame selection" the selection.
 *
 * Paint mode paints weights, as modellers paint skin weights
 * (tress-cha-paint.h): dragging with the primary button moves the weights of
 * the lines under the brush toward the chosen body part (Add), away from it
 * (Subtract, or Ctrl) or toward their neighbours' (Smooth, or Shift); the
 * right button still orbits, the middle button pans. The brush circle follows
 * the pointer and the weight colouring follows each dab; a stroke is one undo
 * step. When GL is unavailable (GDK_DEBUG=gl-disable, no driver) the pane
 * says so and the rest of the editor is unaffected.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/tress-cha-document.h"
#include "formats/cha/tress-cha-paint.h"
#include "tress-fur-mesh.h"
#include "tress-fur-names.h"
#include "tress-fur-overlay.h"

G_BEGIN_DECLS

#define TRESS_TYPE_FUR_PREVIEW (tress_fur_preview_get_type ())
G_DECLARE_FINAL_TYPE (TressFurPreview, tress_fur_preview, TRESS, FUR_PREVIEW, GtkWidget)

/* The colour selected ribbons are drawn in, exactly (no lighting, no blending). */
#define TRESS_FUR_HIGHLIGHT_R 255
#define TRESS_FUR_HIGHLIGHT_G 255
#define TRESS_FUR_HIGHLIGHT_B 0
/* The outline around selected ribbons. */
#define TRESS_FUR_OUTLINE_R 0
#define TRESS_FUR_OUTLINE_G 0
#define TRESS_FUR_OUTLINE_B 0
/* The background colour. */
#define TRESS_FUR_BACKGROUND_R 40
#define TRESS_FUR_BACKGROUND_G 42
#define TRESS_FUR_BACKGROUND_B 48

GtkWidget *tress_fur_preview_new (TressChaDocument *doc);
/* The names shown with body parts (the drop-down, the legend, the pointer's line). */
void tress_fur_preview_set_names (TressFurPreview *self, TressFurNames *names);

/* FALSE until realized, and when GL is unavailable. */
gboolean tress_fur_preview_get_gl_ready (TressFurPreview *self);
/* The message shown instead of the picture, or NULL while GL works. */
const char *tress_fur_preview_get_gl_error (TressFurPreview *self);

void tress_fur_preview_set_morph_weight (TressFurPreview *self, guint morph, double weight);
void tress_fur_preview_set_morality (TressFurPreview *self, guint morality);
void tress_fur_preview_set_colour_mode (TressFurPreview *self, TressFurColourMode mode,
                                        guint32 part);
TressFurColourMode tress_fur_preview_get_colour_mode (TressFurPreview *self, guint32 *part);
/* Points the camera at the whole creature. */
void tress_fur_preview_frame_all (TressFurPreview *self);
/* Points the camera at the selection (all ribbons when nothing is selected). */
void tress_fur_preview_frame_selection (TressFurPreview *self);
/* Dims every ribbon but the selected ones. */
void tress_fur_preview_set_isolate (TressFurPreview *self, gboolean isolate);
gboolean tress_fur_preview_get_isolate (TressFurPreview *self);
/* The ribbon under widget point (@x, @y) becomes the hovered one, as the
 * pointer would make it (global number, or -1). */
int tress_fur_preview_hover (TressFurPreview *self, double x, double y);
int tress_fur_preview_get_hover (TressFurPreview *self);
/* The legend, the information line and the brush circle. */
TressFurOverlay *tress_fur_preview_get_overlay (TressFurPreview *self);

/* Paint mode: the primary button paints weights (the colouring shows the
 * weight of the target part, which the part drop-down chooses). */
void tress_fur_preview_set_paint_mode (TressFurPreview *self, gboolean paint);
gboolean tress_fur_preview_get_paint_mode (TressFurPreview *self);
void tress_fur_preview_set_paint_tool (TressFurPreview *self, TressChaPaintMode tool);
void tress_fur_preview_set_paint_target (TressFurPreview *self, guint32 part);
/* Brush radius in widget pixels; strength 0…1 (the share one dab moves at its centre). */
void tress_fur_preview_set_brush (TressFurPreview *self, double radius, double strength);
/* A stroke as the pointer makes one, at widget points: begin (one dab there),
 * move (dabs a quarter of the radius apart along the way, queued: each frame
 * paints as many as fit its budget, so the colouring follows the brush),
 * end (the rest painted, one undo step; returns the lines changed). */
gboolean tress_fur_preview_paint_begin (TressFurPreview *self, double x, double y,
                                        TressChaPaintMode tool);
void tress_fur_preview_paint_to (TressFurPreview *self, double x, double y);
guint tress_fur_preview_paint_end (TressFurPreview *self);
/* What one frame does with the queued dabs (a test or benchmark drawing
 * frames itself), and how many are still queued. */
void tress_fur_preview_paint_frame (TressFurPreview *self);
guint tress_fur_preview_get_n_pending_dabs (TressFurPreview *self);
/* The lines a brush of @radius at widget point (@x, @y) covers, appended to
 * @lines (TressChaLineId); returns how many. */
guint tress_fur_preview_lines_under (TressFurPreview *self, double x, double y, double radius,
                                     GArray *lines);
/* The information line ("Painted 214 lines toward 5 · left leg; …"). */
const char *tress_fur_preview_get_paint_status (TressFurPreview *self);
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
/* Draws @n frames now (glFinish after each), turning the view a little each
 * time (so every one draws all), and returns the mean seconds per frame. */
double tress_fur_preview_time_frames (TressFurPreview *self, guint n);
/* Draws one frame now as it stands (glFinish) and returns the seconds it took. */
double tress_fur_preview_draw_now (TressFurPreview *self);
/* Times the whole mesh was drawn (into the base layer) so far. */
guint tress_fur_preview_get_n_base_draws (TressFurPreview *self);
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
