/* tress-test-cha.h: a creature-fur (.cha) decoder of the tests' own
 *
 * Written from the format page alone (shared formats/cha.md), sharing no
 * code with the editor's reader, so a test can check what an edit wrote
 * without trusting the code that wrote it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint n_materials;
  guint64 n_lines;     /* decoded lines, all materials */
  guint64 bad_weights; /* lines whose three weight bytes do not sum to 255 */
  guint64 weight_sum;  /* of all weight bytes of reference 0 (a fingerprint) */
} TressTestChaStats;

/* Walks the header, the radeon section and every material of @data up to the
 * final LINE_COUNT. FALSE with a message in @why (static) when the bytes do
 * not follow the format page. */
gboolean tress_test_cha_decode (const guint8 *data, gsize size, TressTestChaStats *stats,
                                const char **why);

G_END_DECLS
