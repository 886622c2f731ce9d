/* tress-cha-demo.h: the project's demo creature generator
 *
 * No public .cha file exists, so Tress makes its own: a four-legged creature
 * (16 body parts: torso, neck, head, four legs, tail…; fur over 15 of them) with morphs
 * fat/thin/strong/weak, moralities evil/good, the retail 7×3×4 UV layout and an opaque `hybrid`
 * section. The output is deterministic: the same options give the same bytes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-cha-model.h"

G_BEGIN_DECLS

typedef struct
{
  guint n_ribbons;    /* total over all materials (≥ 1); default 2400 */
  guint n_moralities; /* 0 (like the gorilla) or 2 (evil, good) */
  guint n_materials;  /* 1…4; default 2 (body fur, mane) */
  TressChaSizeConvention size_convention;
  const char *magic;         /* NULL: the retail "LiOnHeAdCreature" */
  gboolean hybrid;           /* add an opaque `hybrid` section */
  gboolean trailing_section; /* add an unknown section after the others */
  guint32 seed;
} TressChaDemoOptions;

/* The default creature (2400 ribbons, 2 moralities, 2 materials, hybrid). */
void tress_cha_demo_options_init (TressChaDemoOptions *options);
/* Applies a named variant to @options: "creature" (default), "gorilla" (no
 * morality), "stress" (100,000 ribbons), "small" (60 ribbons), "whole-size"
 * (section sizes count the prefix), "seed-magic" ("LionheadCreature"),
 * "upper-magic" ("LIONHEADCREATURE"), "trailing" (an unknown last section),
 * "single" (one material, no hybrid). FALSE for an unknown name. */
gboolean tress_cha_demo_options_apply_variant (TressChaDemoOptions *options, const char *variant);
/* A comma-separated list of the names above, for help texts. */
const char *tress_cha_demo_variant_names (void);

TressChaFile *tress_cha_demo_generate (const TressChaDemoOptions *options);
GBytes *tress_cha_demo_generate_bytes (const TressChaDemoOptions *options);

G_END_DECLS
