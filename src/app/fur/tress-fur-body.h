/* tress-fur-body.h: a simple body under the fur, fitted to the ribbons
 *
 * A .cha file holds no creature mesh (that lives in the .csk beside it), so
 * the preview shows a stand-in made from what the file has: for each body
 * part the ribbons reference, an ellipsoid along the principal axes of that
 * part's ribbon roots (the middle of each ribbon's two base points), each
 * root counting with the weights that reference the part (summed over the
 * ribbon's lines). Points spread over an ellipsoid's surface vary by a²/3
 * along a semi-axis a, so the radii are √(3 λ) of the weighted covariance's
 * eigenvalues λ (never less than MIN_RADIUS_SHARE of the largest, so a part
 * whose roots lie on a line or a plane still shows).
 *
 * Morphs move the roots linearly (root + Σ wₘ dₘ), so the fit keeps the first
 * and second moments of the stacked vector (root, d₁, …, dₙ) per part: moving
 * a morph slider refits every part without going through the ribbons again.
 * GLib only (no GL here), unit tested in tests/fur/test-fur-body.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "formats/cha/tress-cha-model.h"

G_BEGIN_DECLS

/* The smallest radius, as a share of the part's largest. */
#define TRESS_FUR_BODY_MIN_RADIUS_SHARE 0.15
/* Morphs the fit follows (the preview's sliders). */
#define TRESS_FUR_BODY_MAX_MORPHS 16

typedef struct
{
  guint32 part;     /* body-part number */
  double weight;    /* sum of the weights (0…1 each) referencing the part */
  float centre[3];  /* weighted mean of the roots */
  float axis[3][3]; /* unit principal axes, largest radius first (right-handed) */
  float radius[3];  /* semi-axes along them */
} TressFurBodyPart;

typedef struct _TressFurBody TressFurBody;

/* Gathers the moments of every referenced body part from the decoded radeon
 * section of @file (an empty body without one). Lines whose references point
 * outside the applied list are skipped. */
TressFurBody *tress_fur_body_new (const TressChaFile *file);
void tress_fur_body_free (TressFurBody *body);

/* Refits the ellipsoids for morph weights @weights (@n_weights values, the
 * rest count as 0; NULL: no morph). */
void tress_fur_body_fit (TressFurBody *body, const float *weights, guint n_weights);
/* The parts in ascending body-part order, as last fitted (tress_fur_body_new()
 * fits without morphs). */
guint tress_fur_body_get_n_parts (const TressFurBody *body);
const TressFurBodyPart *tress_fur_body_get_part (const TressFurBody *body, guint i);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressFurBody, tress_fur_body_free)

G_END_DECLS
