/* tress-sarc.c: SARC archive reading and file replacement
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-sarc.h"

#include <string.h>

#include "core/tress-error.h"

#define SARC_HEADER_SIZE 0x14
#define SFAT_HEADER_SIZE 0x0C
#define SFAT_NODE_SIZE 0x10
#define SFNT_HEADER_SIZE 0x08
#define SARC_MAX_ALIGN 0x2000
/* A name longer than this (a damaged name offset) is kept cut to it. */
#define SARC_NAME_MAX 1024

static guint32
get_u32 (const guint8 *p, gboolean be)
{
  guint32 v;
  memcpy (&v, p, 4);
  return be ? GUINT32_FROM_BE (v) : GUINT32_FROM_LE (v);
}

static guint16
get_u16 (const guint8 *p, gboolean be)
{
  guint16 v;
  memcpy (&v, p, 2);
  return be ? GUINT16_FROM_BE (v) : GUINT16_FROM_LE (v);
}

static void
put_u32 (guint8 *p, guint32 v, gboolean be)
{
  v = be ? GUINT32_TO_BE (v) : GUINT32_TO_LE (v);
  memcpy (p, &v, 4);
}

gboolean
tress_sarc_probe (const guint8 *data, gsize size)
{
  return size >= SARC_HEADER_SIZE && memcmp (data, "SARC", 4) == 0;
}

void
tress_sarc_free (TressSarc *sarc)
{
  if (sarc == NULL)
    return;
  for (guint i = 0; sarc->entries != NULL && i < sarc->entries->len; i++)
    g_free (g_array_index (sarc->entries, TressSarcEntry, i).name);
  g_clear_pointer (&sarc->entries, g_array_unref);
  g_clear_pointer (&sarc->bytes, g_bytes_unref);
  g_free (sarc);
}

TressSarc *
tress_sarc_parse (GBytes *bytes, GError **error)
{
  g_autoptr (TressSarc) sarc = g_new0 (TressSarc, 1);
  gsize size;
  const guint8 *d = g_bytes_get_data (bytes, &size);
  guint16 bom, n_nodes, sfat_hs;
  gsize nodes_pos, sfnt_pos, names_pos;
  /* Names copied (nodes sharing one count each time): the archive's size. */
  gsize name_budget = size + 65536;

  sarc->bytes = g_bytes_ref (bytes);
  sarc->entries = g_array_new (FALSE, TRUE, sizeof (TressSarcEntry));
  if (size < SARC_HEADER_SIZE + SFAT_HEADER_SIZE || memcmp (d, "SARC", 4) != 0)
    {
      g_set_error (
          error, TRESS_ERROR, TRESS_ERROR_TRUNCATED,
          "SARC header at offset 0x0: expected \"SARC\" and %d bytes, found %" G_GSIZE_FORMAT
          " bytes",
          SARC_HEADER_SIZE + SFAT_HEADER_SIZE, size);
      return NULL;
    }
  bom = (guint16)(d[6] << 8 | d[7]);
  if (bom != 0xFEFF && bom != 0xFFFE)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                   "SARC byte-order mark at offset 0x6: expected FEFF or FFFE, found %04X", bom);
      return NULL;
    }
  sarc->big_endian = bom == 0xFEFF;
  sarc->data_offset = get_u32 (d + 0x0C, sarc->big_endian);
  if (sarc->data_offset > size)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET,
                   "SARC data offset at offset 0xc: 0x%" G_GSIZE_MODIFIER
                   "x lies past the end of the archive (%" G_GSIZE_FORMAT " bytes)",
                   sarc->data_offset, size);
      return NULL;
    }
  if (memcmp (d + SARC_HEADER_SIZE, "SFAT", 4) != 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                   "SFAT magic at offset 0x14: expected \"SFAT\", found %02X %02X %02X %02X",
                   d[0x14], d[0x15], d[0x16], d[0x17]);
      return NULL;
    }
  sfat_hs = get_u16 (d + 0x18, sarc->big_endian);
  n_nodes = get_u16 (d + 0x1A, sarc->big_endian);
  if (sfat_hs != SFAT_HEADER_SIZE)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                   "SFAT header size at offset 0x18: expected 12, found %u", sfat_hs);
      return NULL;
    }
  nodes_pos = SARC_HEADER_SIZE + SFAT_HEADER_SIZE;
  sfnt_pos = nodes_pos + (gsize)n_nodes * SFAT_NODE_SIZE;
  if (sfnt_pos + SFNT_HEADER_SIZE > size || memcmp (d + sfnt_pos, "SFNT", 4) != 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT,
                   "SFAT node count at offset 0x1a: %u nodes do not fit before an SFNT table in "
                   "%" G_GSIZE_FORMAT " bytes",
                   n_nodes, size);
      return NULL;
    }
  names_pos = sfnt_pos + SFNT_HEADER_SIZE;

  for (guint i = 0; i < n_nodes; i++)
    {
      const guint8 *node = d + nodes_pos + (gsize)i * SFAT_NODE_SIZE;
      TressSarcEntry e = { 0 };
      guint32 attrs = get_u32 (node + 4, sarc->big_endian);
      guint32 s = get_u32 (node + 8, sarc->big_endian), en = get_u32 (node + 12, sarc->big_endian);

      e.hash = get_u32 (node, sarc->big_endian);
      e.node_pos = nodes_pos + (gsize)i * SFAT_NODE_SIZE;
      if (attrs >> 24)
        {
          gsize np = names_pos + (gsize)(attrs & 0xFFFF) * 4;
          gsize limit = MIN (size, sarc->data_offset), len = 0;
          if (np >= limit)
            {
              g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET,
                           "SFAT node %u name offset at offset 0x%" G_GSIZE_MODIFIER
                           "x: 0x%" G_GSIZE_MODIFIER "x lies outside the name table",
                           i, e.node_pos + 4, np);
              return NULL;
            }
          while (np + len < limit && len < SARC_NAME_MAX && d[np + len] != '\0')
            len++;
          if (len + 1 > name_budget)
            {
              g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT,
                           "SFAT node %u name offset at offset 0x%" G_GSIZE_MODIFIER
                           "x: the nodes' names pass the %" G_GSIZE_FORMAT
                           " bytes an archive of this size can hold (names shared or "
                           "overlapping)",
                           i, e.node_pos + 4, size + 65536);
              return NULL;
            }
          name_budget -= len + 1;
          e.name = g_utf8_make_valid ((const char *)d + np, len);
        }
      else
        e.name = g_strdup_printf ("0x%08x", e.hash);
      if (s > en || sarc->data_offset + (gsize)en > size)
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET,
                       "SFAT node %u data range at offset 0x%" G_GSIZE_MODIFIER
                       "x: entry “%s” runs from archive offset 0x%" G_GSIZE_MODIFIER
                       "x to 0x%" G_GSIZE_MODIFIER
                       "x, which does not fit in the archive (%" G_GSIZE_FORMAT " bytes)",
                       i, e.node_pos + 8, e.name, sarc->data_offset + s,
                       sarc->data_offset + (gsize)en, size);
          g_free (e.name);
          return NULL;
        }
      e.start = sarc->data_offset + s;
      e.end = sarc->data_offset + en;
      g_array_append_val (sarc->entries, e);
    }
  return g_steal_pointer (&sarc);
}

GBytes *
tress_sarc_get_file (const TressSarc *sarc, guint index)
{
  const TressSarcEntry *e = tress_sarc_get_entry (sarc, index);
  return g_bytes_new_from_bytes (sarc->bytes, e->start, e->end - e->start);
}

static gsize
pos_alignment (gsize pos)
{
  gsize a = 4;
  while (a < SARC_MAX_ALIGN && pos % (a * 2) == 0)
    a *= 2;
  return a;
}

GBytes *
tress_sarc_replace_file (const TressSarc *sarc, guint index, GBytes *contents, GError **error)
{
  gsize size, new_size;
  const guint8 *d = g_bytes_get_data (sarc->bytes, &size);
  const guint8 *nd = g_bytes_get_data (contents, &new_size);
  const TressSarcEntry *e = tress_sarc_get_entry (sarc, index);
  gsize boundary = size, shift = 0, align = 4;
  GByteArray *out;

  /* The next file's start (or the archive end) bounds the space in place. */
  for (guint i = 0; i < sarc->entries->len; i++)
    {
      const TressSarcEntry *o = tress_sarc_get_entry (sarc, i);
      if (i != index && o->start >= e->end && o->start < boundary)
        boundary = o->start;
    }
  if (e->start + new_size > boundary)
    {
      for (guint i = 0; i < sarc->entries->len; i++)
        {
          const TressSarcEntry *o = tress_sarc_get_entry (sarc, i);
          if (i != index && o->start >= boundary)
            align = MAX (align, pos_alignment (o->start));
        }
      shift = e->start + new_size - boundary;
      shift = (shift + align - 1) / align * align;
    }
  if (size + shift > G_MAXUINT32 || new_size > G_MAXUINT32)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "The archive would exceed 4 GiB after replacing %s", e->name);
      return NULL;
    }

  out = g_byte_array_sized_new (size + shift);
  g_byte_array_append (out, d, e->start);
  g_byte_array_append (out, nd, new_size);
  if (e->start + new_size < boundary + shift)
    {
      gsize pad = boundary + shift - (e->start + new_size);
      gsize old = out->len;
      g_byte_array_set_size (out, old + pad);
      memset (out->data + old, 0, pad);
    }
  g_byte_array_append (out, d + boundary, size - boundary);

  for (guint i = 0; i < sarc->entries->len; i++)
    {
      const TressSarcEntry *o = tress_sarc_get_entry (sarc, i);
      if (i == index)
        put_u32 (out->data + o->node_pos + 12, (guint32)(o->start + new_size - sarc->data_offset),
                 sarc->big_endian);
      else if (shift > 0 && o->start >= boundary)
        {
          put_u32 (out->data + o->node_pos + 8, (guint32)(o->start + shift - sarc->data_offset),
                   sarc->big_endian);
          put_u32 (out->data + o->node_pos + 12, (guint32)(o->end + shift - sarc->data_offset),
                   sarc->big_endian);
        }
    }
  put_u32 (out->data + 8, (guint32)out->len, sarc->big_endian);
  return g_byte_array_free_to_bytes (out);
}

static int
cmp_entry_start (gconstpointer a, gconstpointer b, gpointer data)
{
  const TressSarc *sarc = data;
  const TressSarcEntry *x = tress_sarc_get_entry (sarc, *(const guint *)a);
  const TressSarcEntry *y = tress_sarc_get_entry (sarc, *(const guint *)b);

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->end != y->end)
    return x->end < y->end ? -1 : 1;
  return 0;
}

/* The alignment the data of @e asks for itself, or 0: a Wii U BFRES gives
 * it in its header (offset 0x10), a power of two. */
static gsize
content_alignment (const TressSarc *sarc, const TressSarcEntry *e)
{
  const guint8 *d = (const guint8 *)g_bytes_get_data (sarc->bytes, NULL) + e->start;
  guint32 a;

  if (e->end - e->start < 0x14 || memcmp (d, "FRES", 4) != 0 || d[8] != 0xFE || d[9] != 0xFF)
    return 0;
  a = get_u32 (d + 0x10, TRUE);
  return a > 1 && a <= SARC_MAX_ALIGN * 8 && (a & (a - 1)) == 0 ? a : 0;
}

void
tress_sarc_validate (const TressSarc *sarc, const char *where, TressProblemCollector *out)
{
  gsize size;
  const guint8 *d = g_bytes_get_data (sarc->bytes, &size);
  guint n = tress_sarc_get_n_files (sarc);
  guint32 declared = get_u32 (d + 0x08, sarc->big_endian);
  g_autofree guint *order = g_new (guint, MAX (n, 1));
  const TressSarcEntry *far = NULL;

  if (declared != size)
    tress_problem_collect (out, TRESS_SEVERITY_WARNING, where, 0x08, NULL, -1,
                           "The SARC header gives the archive %u bytes, it holds %" G_GSIZE_FORMAT,
                           declared, size);
  for (guint i = 0; i < n; i++)
    {
      const TressSarcEntry *e = tress_sarc_get_entry (sarc, i);
      g_autofree char *loc = g_strdup_printf ("%s entry “%s”", where, e->name);
      gsize align = content_alignment (sarc, e);

      order[i] = i;
      if (e->end > declared)
        tress_problem_collect (out, TRESS_SEVERITY_ERROR, loc, e->start, NULL, -1,
                               "The entry's data runs to archive offset 0x%" G_GSIZE_MODIFIER
                               "x, past the end of the archive (its header gives %u bytes)",
                               e->end, declared);
      if (align > 0 && e->start % align != 0)
        tress_problem_collect (out, TRESS_SEVERITY_ERROR, loc, e->start, NULL, -1,
                               "The entry's BFRES starts at archive offset 0x%" G_GSIZE_MODIFIER
                               "x, not on the 0x%" G_GSIZE_MODIFIER
                               "x-byte alignment its header asks for",
                               e->start, align);
      else if (e->end > e->start && e->start % 4 != 0)
        tress_problem_collect (out, TRESS_SEVERITY_WARNING, loc, e->start, NULL, -1,
                               "The entry's data starts at archive offset 0x%" G_GSIZE_MODIFIER
                               "x, not on a 4-byte boundary (SARC writers align every file to "
                               "at least 4 bytes)",
                               e->start);
    }

  /* Overlaps: in order of their starts, each entry against the one reaching
   * furthest before it. Empty entries hold no bytes to share. */
  g_qsort_with_data (order, (gint)n, sizeof (guint), cmp_entry_start, (gpointer)sarc);
  for (guint i = 0; i < n; i++)
    {
      const TressSarcEntry *e = tress_sarc_get_entry (sarc, order[i]);

      if (e->end == e->start)
        continue;
      if (far != NULL && e->start < far->end)
        {
          g_autofree char *loc = g_strdup_printf ("%s entry “%s”", where, e->name);

          tress_problem_collect (
              out, TRESS_SEVERITY_ERROR, loc, e->start, NULL, -1,
              "The entry's data (archive offsets 0x%" G_GSIZE_MODIFIER "x to 0x%" G_GSIZE_MODIFIER
              "x) overlaps that of entry “%s” (0x%" G_GSIZE_MODIFIER "x to 0x%" G_GSIZE_MODIFIER
              "x): one of them is read from the other's bytes",
              e->start, e->end, far->name, far->start, far->end);
        }
      if (far == NULL || e->end > far->end)
        far = e;
    }
}
