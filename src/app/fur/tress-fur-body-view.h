/* tress-fur-body-view.h: the fitted body drawn under the fur (GL)
 *
 * Draws the ellipsoids of tress-fur-body.h, one per referenced body part, in
 * the part's legend colour (tress_fur_body_part_colour), lit from the eye, into
 * the depth buffer with the ribbons (so fur behind the body is hidden). The
 * fit is gathered again from the file after invalidate() (an edit, another
 * file) when the next frame draws, and follows the morph weights of each
 * frame. Whether the body shows is kept in the fur editor's settings
 * ("show-body"); see tress_fur_body_view_toggle_new().
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <epoxy/gl.h>
#include <gtk/gtk.h>

#include "formats/cha/tress-cha-model.h"

G_BEGIN_DECLS

typedef struct _TressFurBodyView TressFurBodyView;

TressFurBodyView *tress_fur_body_view_new (void);
void tress_fur_body_view_free (TressFurBodyView *view);

/* The file the body is fitted to (not owned; NULL: none); fits again. */
void tress_fur_body_view_set_file (TressFurBodyView *view, const TressChaFile *file);
/* The file's points or weights changed: fit again before the next draw. */
void tress_fur_body_view_invalidate (TressFurBodyView *view);

/* With the GL context current. */
gboolean tress_fur_body_view_realize (TressFurBodyView *view, GError **error);
void tress_fur_body_view_unrealize (TressFurBodyView *view);
/* Draws the body (when visible) into the framebuffer bound now, depth test on;
 * @mvp as the ribbons get it, @eye the camera, @weights the morph weights
 * (@n_weights of them), @dim how far it fades toward the background (0…1).
 * Leaves the vertex array and program unbound. */
void tress_fur_body_view_draw (TressFurBodyView *view, const float mvp[16], const float eye[3],
                               const float *weights, guint n_weights, float dim);
/* Ellipsoids drawn by the last draw. */
guint tress_fur_body_view_get_n_drawn (const TressFurBodyView *view);

void tress_fur_body_view_set_visible (TressFurBodyView *view, gboolean visible);
gboolean tress_fur_body_view_get_visible (const TressFurBodyView *view);

/* A toggle button named "show body", its state kept in the fur editor's
 * settings ("show-body") when the schema is installed (on otherwise). */
GtkWidget *tress_fur_body_view_toggle_new (void);

G_END_DECLS
