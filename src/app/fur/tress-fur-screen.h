/* tress-fur-screen.h: the fur mesh as the camera sees it, for hover and brushes
 *
 * Every vertex of a TressFurMesh projected once for one view (camera, morph
 * weights, viewport), and a grid of screen cells listing the ribbons whose
 * projections touch each cell. While the view stays, picking the ribbon under
 * the pointer and finding the lines under a brush only look at the cells
 * there: the work is bounded by what is under the pointer, not by the file.
 * Rebuild it when the view, the morphs or the geometry change (weights do not
 * matter: they change no position).
 *
 * A line's place on screen is the middle of the edge it describes: line
 * 2k + side of a ribbon sets the direction of that side's edge from point k to
 * point k + 1 (see tress-fur-mesh.h).
 *
 * GLib and the GL layer's projection maths only: unit tested.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "formats/cha/tress-cha-edit.h"
#include "tress-fur-mesh.h"

G_BEGIN_DECLS

typedef struct _TressFurScreen TressFurScreen;

/* Projects @mesh (which must outlive the screen) through @mvp (graphene's
 * layout, as tress_fur_mesh_pick takes it) into a @width × @height viewport. */
TressFurScreen *tress_fur_screen_new (const TressFurMesh *mesh, const float mvp[16],
                                      const float *weights, double width, double height);
void tress_fur_screen_free (TressFurScreen *screen);
/* Whether @screen was made for this view. */
gboolean tress_fur_screen_matches (const TressFurScreen *screen, const TressFurMesh *mesh,
                                   const float mvp[16], const float *weights, double width,
                                   double height);

/* The ribbon under (@x, @y), exactly as tress_fur_mesh_pick() finds it (the
 * nearest triangle holding the point, else the nearest edge within 4 px), or -1. */
int tress_fur_screen_pick (TressFurScreen *screen, double x, double y);

/* The lines under a round brush at (@x, @y) of @radius pixels, each with its
 * falloff (1 at the centre, 0 at the rim: (1 − (d/r)²)²), appended to @lines
 * (TressChaLineId) and @falloff (float); the global ribbons they belong to,
 * each once, to @ribbons (guint; may be NULL). Lines of every depth count;
 * only lines whose middles lie inside the viewport (what the view shows).
 * Returns how many lines. */
guint tress_fur_screen_brush (TressFurScreen *screen, double x, double y, double radius,
                              GArray *lines, GArray *falloff, GArray *ribbons);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressFurScreen, tress_fur_screen_free)

G_END_DECLS
