/* tress-fake-curves.h: a small curve format for the curve editor's tests
 *
 * "FCRV" files hold named curves of whole-frame keys whose values are stored
 * as s32 multiples of 1/64 (so edits have a quantization error to show), with
 * per-key interpolation and separate in/out slopes (f32). Curves named
 * "…/Fixed …" refuse inserting or deleting keys, to exercise refusals; curves
 * named "…/Visible" hold booleans.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "formats/tress-format.h"

G_BEGIN_DECLS

extern const TressFormat tress_fake_curves_format;

/* Registers the format and its document type (idempotent). */
void tress_fake_curves_register (void);

typedef struct
{
  const char *path;
  const char *component;
  TressInterp interp;
  guint n_keys;
  const double *frames;
  const double *values;
  const double *slopes; /* may be NULL (flat) */
} TressFakeCurveSpec;

/* Serialized bytes of a file holding the given curves. */
GBytes *tress_fake_curves_build (const TressFakeCurveSpec *specs, guint n_specs, gboolean loops);
/* A typical file: "Walk/Hip/Translate X|Y|Z" Hermite, "Walk/Hip/Rotate W" linear,
 * "Walk/Eye/Visible" step, "Walk/Tail/Baked X" baked (61 samples). */
GBytes *tress_fake_curves_build_demo (void);

G_END_DECLS
