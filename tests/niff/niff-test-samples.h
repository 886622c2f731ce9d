/* niff-test-samples.h: the shared NIFF samples and raw big-endian access to
 * their bytes, for the NIFF tests (independent of the reader under test)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "formats/niff/tress-niff.h"

G_BEGIN_DECLS

/* The shared samples (paths under ../shared/samples). */
#define NIFF_TEST_N_SAMPLES 8
extern const char *const niff_test_samples[NIFF_TEST_N_SAMPLES];

/* Parses @bytes as NIFF; fails the test when they do not. */
TressNiffFile *niff_parse_ok (GBytes *bytes);

/* The big-endian word and float (as a double) at @p; writes the word @v at @p. */
guint32 niff_be32 (const guint8 *p);
double niff_bef (const guint8 *p);
void niff_put32 (guint8 *p, guint32 v);
/* Offset of the list with @tag, walking by size from the header; 0 if absent. */
gsize niff_raw_find_list (const guint8 *d, gsize size, guint32 tag);
/* Offset of element @i of the (one-count) list at @list. */
gsize niff_raw_element (const guint8 *d, gsize list, guint i);
/* Offset of AnimGroup @g. */
gsize niff_raw_group (const guint8 *d, gsize size, guint g);

G_END_DECLS
