/* niff-anim-ref.h: an AnimGroup read and played from the raw bytes by the
 * format page alone (shared/formats/niff.md), for the tests of whole-group
 * operations: NIFF1 records, NIFF2 channel keys, names
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <math.h>
#include <string.h>

#include "niff-test-samples.h"

typedef struct
{
  guint32 tag, key, next, interp;
  double trs[9]; /* translate xyz, rotate xyz, scale xyz */
} NrRecord;

typedef struct
{
  guint32 interp, key;
  double value[6], diff[6];
} NrKey;

typedef struct
{
  gsize pos, size;
  guint32 index, name_index, type, loop, n_records;
  guint n_rec;
  NrRecord *rec;
  gboolean has_ext;
  guint32 bits;
  guint n_keys[8];
  NrKey *keys[8];
} NrGroup;

static const guint nr_components[8] = { 4, 1, 1, 1, 6, 3, 3, 3 };

static inline void
nr_group_clear (NrGroup *g)
{
  g_free (g->rec);
  for (guint c = 0; c < 8; c++)
    g_free (g->keys[c]);
  memset (g, 0, sizeof *g);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (NrGroup, nr_group_clear)

/* AnimGroup @i of the NIFF @d: header at +0, records from +48 (each sized by
 * its own size word), then the nintendo block when its size is not 0. */
static inline void
nr_group_read (const guint8 *d, gsize size, guint i, NrGroup *g)
{
  gsize at;

  memset (g, 0, sizeof *g);
  g->pos = niff_raw_group (d, size, i);
  g_assert_cmphex (niff_be32 (d + g->pos), ==, 0x000c0100);
  g->size = niff_be32 (d + g->pos + 0x0C);
  g->index = niff_be32 (d + g->pos + 4);
  g->name_index = niff_be32 (d + g->pos + 0x10);
  g->type = niff_be32 (d + g->pos + 0x14);
  g->n_records = niff_be32 (d + g->pos + 0x1C);
  g->loop = niff_be32 (d + g->pos + 0x20);
  g->rec = g_new0 (NrRecord, g->n_records + 1);
  at = g->pos + 48;
  for (guint r = 0; r < g->n_records; r++)
    {
      NrRecord *x = &g->rec[g->n_rec++];
      gsize v = at + (niff_be32 (d + at) == 0x000c0104 ? 24 : 12);

      x->tag = niff_be32 (d + at);
      if (x->tag == 0x000c0104)
        {
          x->key = niff_be32 (d + at + 12);
          x->next = niff_be32 (d + at + 16);
          x->interp = niff_be32 (d + at + 20);
        }
      else
        x->key = r; /* FULL: one a frame */
      for (guint c = 0; c < 6; c++)
        x->trs[c] = niff_bef (d + v + 4 * c);
      for (guint c = 0; c < 3; c++)
        x->trs[6 + c] = niff_bef (d + v + 28 + 4 * c);
      at += niff_be32 (d + at + 8);
    }
  g->has_ext = niff_be32 (d + g->pos + 0x28) > 0;
  if (!g->has_ext)
    return;
  g->bits = niff_be32 (d + at);
  {
    gsize k = at + 148;

    for (guint c = 0; c < 8; c++)
      {
        guint nc = nr_components[c];

        g->n_keys[c] = niff_be32 (d + at + 4 + 4 * c);
        g->keys[c] = g_new0 (NrKey, g->n_keys[c] + 1);
        for (guint j = 0; j < g->n_keys[c]; j++, k += 8 + 8 * nc)
          {
            NrKey *x = &g->keys[c][j];

            x->interp = niff_be32 (d + k);
            x->key = niff_be32 (d + k + 4);
            for (guint v = 0; v < nc; v++)
              {
                x->value[v] = niff_bef (d + k + 8 + 4 * v);
                x->diff[v] = niff_bef (d + k + 8 + 4 * nc + 4 * v);
              }
          }
      }
  }
}

static inline double
nr_hermite (double p0, double p1, double v0, double v1, double h, double u)
{
  return (u - 1) * (u - 1) * (2 * u + 1) * p0 + u * u * (3 - 2 * u) * p1
         + h * (u - 1) * (u - 1) * u * v0 + h * (u - 1) * u * u * v1;
}

/* Component @v of channel @c at frame @f: first value before the first key,
 * last after the last; CONST holds, LINEAR and FULL go straight, HERMITE by
 * the page's formula. */
static inline double
nr_channel_eval (const NrGroup *g, guint c, guint v, double f)
{
  const NrKey *k = g->keys[c];
  guint n = g->n_keys[c];

  g_assert_cmpuint (n, >, 0);
  if (f <= k[0].key)
    return k[0].value[v];
  for (guint i = 0; i + 1 < n; i++)
    {
      double h = (double)k[i + 1].key - k[i].key, u = (f - k[i].key) / h;

      if (f >= k[i + 1].key)
        continue;
      switch (k[i].interp)
        {
        case 0:
          return k[i].value[v];
        case 3:
          return nr_hermite (k[i].value[v], k[i + 1].value[v], k[i].diff[v], k[i + 1].diff[v], h,
                             u);
        default:
          return k[i].value[v] + (k[i + 1].value[v] - k[i].value[v]) * u;
        }
    }
  return k[n - 1].value[v];
}

/* Component @v of the records at frame @f. KEY: STATIC holds, LINEAR goes
 * straight; the SLOW kinds (no published formula) as a Hermite segment with
 * the slopes of their ease at rest (SLOWOUT leaves at rest, SLOWIN arrives,
 * SLOW both) and twice the mean slope at the other end: any shape over the
 * segment's own length serves a comparison of the same group retimed. FULL:
 * straight between the frames. */
static inline double
nr_records_eval (const NrGroup *g, guint v, double f)
{
  const NrRecord *r = g->rec;
  guint n = g->n_rec;

  g_assert_cmpuint (n, >, 0);
  if (f <= r[0].key)
    return r[0].trs[v];
  for (guint i = 0; i + 1 < n; i++)
    {
      double h = (double)r[i + 1].key - r[i].key, u = (f - r[i].key) / h;
      double p0 = r[i].trs[v], p1 = r[i + 1].trs[v], d = (p1 - p0) / h;

      if (f >= r[i + 1].key)
        continue;
      if (r[i].tag == 0x000c0103)
        return p0 + (p1 - p0) * u;
      switch (r[i].interp)
        {
        case 0:
          return p0;
        case 2:
          return nr_hermite (p0, p1, 2 * d, 0, h, u);
        case 4:
          return nr_hermite (p0, p1, 0, 2 * d, h, u);
        case 6:
          return nr_hermite (p0, p1, 0, 0, h, u);
        default:
          return p0 + (p1 - p0) * u;
        }
    }
  return r[n - 1].trs[v];
}

/* Where the group plays something: every record and key frame, with the
 * middle and 0.37 of each gap; @out holds 3 × (keys + records) + 1. */
static inline guint
nr_probe_frames (const NrGroup *g, double *out)
{
  guint m = 0;

  for (guint i = 0; i < g->n_rec; i++)
    {
      out[m++] = g->rec[i].key;
      if (i + 1 < g->n_rec)
        {
          out[m++] = (g->rec[i].key + (double)g->rec[i + 1].key) / 2;
          out[m++] = g->rec[i].key + 0.37 * ((double)g->rec[i + 1].key - g->rec[i].key);
        }
    }
  for (guint c = 0; g->has_ext && c < 8; c++)
    for (guint i = 0; i < g->n_keys[c]; i++)
      {
        out[m++] = g->keys[c][i].key;
        if (i + 1 < g->n_keys[c])
          {
            out[m++] = (g->keys[c][i].key + (double)g->keys[c][i + 1].key) / 2;
            out[m++]
                = g->keys[c][i].key + 0.37 * ((double)g->keys[c][i + 1].key - g->keys[c][i].key);
          }
      }
  return m;
}

static inline guint
nr_n_probes (const NrGroup *g)
{
  guint n = g->n_rec;

  for (guint c = 0; g->has_ext && c < 8; c++)
    n += g->n_keys[c];
  return 3 * n + 1;
}

/* Group @a retimed by @scale into @b: every record component and channel
 * component plays at scale · f what it played at f (within @tolerance,
 * relative above 1); returns how many values were compared. */
static inline guint
nr_check_retimed (const NrGroup *a, const NrGroup *b, double scale, double tolerance)
{
  g_autofree double *probes = g_new (double, nr_n_probes (a));
  guint m = nr_probe_frames (a, probes), compared = 0;

  g_assert_cmpuint (a->n_rec > 0, ==, b->n_rec > 0);
  for (guint p = 0; p < m; p++)
    {
      for (guint v = 0; a->n_rec > 0 && v < 9; v++)
        {
          double va = nr_records_eval (a, v, probes[p]),
                 vb = nr_records_eval (b, v, scale * probes[p]);

          g_assert_cmpfloat (fabs (va - vb), <=, tolerance * MAX (1.0, fabs (va)));
          compared++;
        }
      for (guint c = 0; a->has_ext && c < 8; c++)
        for (guint v = 0; a->n_keys[c] > 0 && v < nr_components[c]; v++)
          {
            double va = nr_channel_eval (a, c, v, probes[p]);
            double vb = nr_channel_eval (b, c, v, scale * probes[p]);

            if (fabs (va - vb) > tolerance * MAX (1.0, fabs (va)))
              g_error ("channel %u component %u at frame %g: %.9g, retimed at %g: %.9g", c, v,
                       probes[p], va, scale * probes[p], vb);
            compared++;
          }
    }
  return compared;
}

/* The NameList text of index @index, or NULL (to free). */
static inline char *
nr_name (const guint8 *d, gsize size, guint32 index)
{
  gsize list = niff_raw_find_list (d, size, 0x00110000);
  guint n = list != 0 ? niff_be32 (d + list + 12) : 0;

  for (guint i = 0; i < n; i++)
    {
      gsize e = niff_raw_element (d, list, i);

      if (niff_be32 (d + e + 4) == index)
        return g_strndup ((const char *)d + e + 16, niff_be32 (d + e + 12) - 16);
    }
  return NULL;
}
