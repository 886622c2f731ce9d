/* tress-bfres-adopt.c: giving the model other FRES bytes (a structural rewrite,
 * or its undo), its containers kept
 *
 * The bytes are parsed as a file of their own and the model takes over the
 * result. What the model knows beyond the bytes is each edited float curve's
 * lineage (tress-bfres-edit.c: which keys still hold the file's own exact
 * coefficients, as read). It stays right for a curve whose header and arrays
 * are the very bytes they were; a curve the file held as read needs none; any
 * other curve gets one saying that no key holds what was read, so that later
 * edits start from its stored values.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-bfres-private.h"

#include <string.h>

/* Whether the curve whose header is at @pos has the same header and arrays in
 * @a and @b (the header's offsets are relative: same header, same arrays). */
static gboolean
same_curve_bytes (const guint8 *a, gsize a_size, const guint8 *b, gsize b_size, gsize pos, gsize hs)
{
  guint16 flags;
  guint n;
  gsize len[2];

  if (pos > a_size || pos > b_size || hs > a_size - pos || hs > b_size - pos
      || memcmp (a + pos, b + pos, hs) != 0)
    return FALSE;
  flags = tress_get_u16 (b + pos, TRESS_BIG_ENDIAN);
  n = tress_get_u16 (b + pos + 2, TRESS_BIG_ENDIAN);
  len[0] = (gsize)n * bfres_frame_size (flags & 3);
  len[1] = bfres_curve_type_is_bool ((flags >> 4) & 7)
               ? ((gsize)n + 31) / 32 * 4
               : (gsize)n * bfres_values_per_key ((flags >> 4) & 7)
                     * bfres_key_size ((flags >> 2) & 3);
  for (guint k = 0; k < 2; k++)
    {
      gsize field = pos + hs - 8 + 4 * k;
      gint32 rel = (gint32)tress_get_u32 (b + field, TRESS_BIG_ENDIAN);
      gint64 at = (gint64)field + rel;

      if (rel == 0 || len[k] == 0)
        continue;
      if (at < 0 || (guint64)at > MIN (a_size, b_size) || len[k] > MIN (a_size, b_size) - (gsize)at
          || memcmp (a + at, b + at, len[k]) != 0)
        return FALSE;
    }
  return TRUE;
}

/* The lineage table for @n (just parsed) from the model @b it replaces. */
static GHashTable *
carry_lineage (TressBfres *b, TressBfres *n)
{
  GHashTable *lineage = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr (GHashTable) by_pos = g_hash_table_new (NULL, NULL);
  gsize orig_size;
  const guint8 *orig = g_bytes_get_data (b->original, &orig_size);
  gsize hs = n->curve_header_size;

  for (guint i = 0; i < b->curves->len; i++)
    g_hash_table_insert (by_pos, GSIZE_TO_POINTER (bfres_curve (b, i)->pos),
                         GUINT_TO_POINTER (i + 1));
  for (guint j = 0; j < n->curves->len; j++)
    {
      const BfresCurve *c = bfres_curve (n, j);
      guint was = GPOINTER_TO_UINT (g_hash_table_lookup (by_pos, GSIZE_TO_POINTER (c->pos)));

      if (!bfres_curve_type_is_float (bfres_curve_type (c)))
        continue;
      if (was > 0 && b->curve_header_size == hs
          && same_curve_bytes (b->d, b->size, n->d, n->size, c->pos, hs))
        {
          const guint32 *l = g_hash_table_lookup (b->lineage, GUINT_TO_POINTER (was - 1));

          if (l != NULL)
            g_hash_table_insert (lineage, GUINT_TO_POINTER (j),
                                 g_memdup2 (l, (gsize)c->n_keys * sizeof (guint32)));
          continue;
        }
      if (same_curve_bytes (orig, orig_size, n->d, n->size, c->pos, hs))
        continue;
      g_hash_table_insert (lineage, GUINT_TO_POINTER (j), g_new0 (guint32, c->n_keys + 1));
    }
  return lineage;
}

#define SWAP(x, y)                                                                                 \
  G_STMT_START                                                                                     \
  {                                                                                                \
    __typeof__ (x) swap_ = (x);                                                                    \
    (x) = (y);                                                                                     \
    (y) = swap_;                                                                                   \
  }                                                                                                \
  G_STMT_END

gboolean
bfres_adopt_fres (TressBfres *b, GBytes *fres, GError **error)
{
  g_autoptr (TressBfres) n = NULL;
  GHashTable *lineage;
  gsize size, orig_size;
  const guint8 *d = g_bytes_get_data (fres, &size);
  const guint8 *orig = g_bytes_get_data (b->original, &orig_size);

  if (size < 4 || memcmp (d, "FRES", 4) != 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                   "Expected the BFRES itself (\"FRES\"), found %s",
                   size < 4 ? "fewer than 4 bytes" : "other bytes (a container?)");
      return FALSE;
    }
  n = tress_bfres_parse (fres, b->filename, error);
  if (n == NULL)
    return FALSE;

  lineage = carry_lineage (b, n);
  g_hash_table_unref (b->lineage);
  b->lineage = lineage;
  if (size == orig_size && memcmp (d, orig, size) == 0)
    {
      /* Back to the bytes as read. */
      bfres_end_loan (b);
      g_clear_pointer (&b->data, g_byte_array_unref);
      b->d = orig;
      b->size = orig_size;
    }
  else
    {
      bfres_end_loan (b);
      if (b->data == NULL)
        b->data = g_byte_array_sized_new (size + size / 8 + 64);
      g_byte_array_set_size (b->data, 0);
      g_byte_array_append (b->data, d, size);
      bfres_sync (b);
    }
  b->version = n->version;
  b->curve_header_size = n->curve_header_size;
  SWAP (b->name, n->name);
  SWAP (b->anims, n->anims);
  SWAP (b->curves, n->curves);
  SWAP (b->strings, n->strings);
  SWAP (b->notes, n->notes);
  SWAP (b->clashes, n->clashes);
  for (guint g = 0; g < BFRES_N_GROUPS; g++)
    SWAP (b->groups[g], n->groups[g]);
  g_clear_pointer (&b->notice, g_free);
  return TRUE;
}
