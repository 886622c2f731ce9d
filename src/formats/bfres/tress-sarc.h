/* tress-sarc.h: SARC archives (Nintendo's file bundles inside .szs)
 *
 * "SARC" header (0x14), SFAT node table (hash, attributes, data start/end
 * relative to the data offset) and SFNT name table. The byte order follows the
 * BOM (big-endian on the Wii U). Replacing a file keeps every other file's bytes
 * and alignment; files after a grown one move by a multiple of their alignment.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "formats/tress-problem.h"

G_BEGIN_DECLS

typedef struct
{
  char *name; /* from SFNT, or "0x<hash>" when the node has no name */
  guint32 hash;
  gsize start; /* absolute offsets in the archive */
  gsize end;
  gsize node_pos; /* the SFAT node */
} TressSarcEntry;

typedef struct
{
  GBytes *bytes;
  gboolean big_endian;
  gsize data_offset;
  GArray *entries; /* TressSarcEntry */
} TressSarc;

gboolean tress_sarc_probe (const guint8 *data, gsize size);
TressSarc *tress_sarc_parse (GBytes *bytes, GError **error);
void tress_sarc_free (TressSarc *sarc);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressSarc, tress_sarc_free)

static inline guint
tress_sarc_get_n_files (const TressSarc *sarc)
{
  return sarc->entries->len;
}

static inline const TressSarcEntry *
tress_sarc_get_entry (const TressSarc *sarc, guint index)
{
  return &g_array_index (sarc->entries, TressSarcEntry, index);
}

/* The file's bytes (a slice of the archive). */
GBytes *tress_sarc_get_file (const TressSarc *sarc, guint index);
/* A new archive with file @index replaced by @contents; everything else kept. */
GBytes *tress_sarc_replace_file (const TressSarc *sarc, guint index, GBytes *contents,
                                 GError **error);

/* The archive's layout checked, problems into @out: entries whose data
 * overlap, run past the archive's size, or start off the alignment their
 * contents ask for (a BFRES: its header's; any entry: 4 bytes, a warning),
 * and a header size that is not the archive's. Locations read
 * "@where entry “name”"; offsets count from the archive's start. */
void tress_sarc_validate (const TressSarc *sarc, const char *where, TressProblemCollector *out);

G_END_DECLS
