/* tress-test-cha.c: a creature-fur (.cha) decoder of the tests' own
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-test-cha.h"

#include <string.h>

typedef struct
{
  const guint8 *p;
  gsize left;
} Cursor;

static gboolean
skip (Cursor *c, guint64 n)
{
  if (n > c->left)
    return FALSE;
  c->p += n;
  c->left -= n;
  return TRUE;
}

static gboolean
u32 (Cursor *c, guint32 *v)
{
  if (c->left < 4)
    return FALSE;
  *v = (guint32)c->p[0] | (guint32)c->p[1] << 8 | (guint32)c->p[2] << 16 | (guint32)c->p[3] << 24;
  return skip (c, 4);
}

#define FAIL(msg)                                                                                  \
  do                                                                                               \
    {                                                                                              \
      *why = (msg);                                                                                \
      return FALSE;                                                                                \
    }                                                                                              \
  while (0)

gboolean
tress_test_cha_decode (const guint8 *data, gsize size, TressTestChaStats *stats, const char **why)
{
  Cursor c = { data, size };
  guint32 v, n_morphs, n_moralities, n_materials;

  memset (stats, 0, sizeof *stats);
  *why = NULL;
  /* header: 40-byte magic, 4, 9035 */
  if (!skip (&c, 40) || !u32 (&c, &v) || v != 4 || !u32 (&c, &v) || v != 9035)
    FAIL ("header");
  /* the radeon section first: its name, its size */
  if (c.left < 36 || strncmp ((const char *)c.p, "radeon", 32) != 0)
    FAIL ("no radeon section first");
  if (!skip (&c, 32) || !u32 (&c, &v))
    FAIL ("section size");
  if (!u32 (&c, &n_morphs) || !skip (&c, 32 * (guint64)n_morphs))
    FAIL ("morph names");
  if (!u32 (&c, &n_moralities) || !skip (&c, 32 * (guint64)n_moralities))
    FAIL ("morality names");
  if (!u32 (&c, &v) || !u32 (&c, &v) || !u32 (&c, &n_materials))
    FAIL ("radeon counts");
  stats->n_materials = n_materials;
  for (guint32 mi = 0; mi < n_materials; mi++)
    {
      guint32 n_applied, line_size, n_lines, bytes, n_ribbons, rows, groups, pieces;
      guint64 points = 0;

      if (!u32 (&c, &v) || !skip (&c, 384))
        FAIL ("material description");
      if (!u32 (&c, &n_applied) || !skip (&c, 4 * (guint64)n_applied))
        FAIL ("applied list");
      if (!u32 (&c, &line_size) || !u32 (&c, &n_lines) || !u32 (&c, &bytes)
          || (guint64)line_size * n_lines != bytes || line_size != 36 || c.left < bytes)
        FAIL ("line array");
      for (guint32 l = 0; l < n_lines; l++)
        {
          const guint8 *line = c.p + 36 * (gsize)l;

          /* bytes 24, 25, 26: the weights of references 2, 1, 0 */
          if (line[24] + line[25] + line[26] != 255)
            stats->bad_weights++;
          stats->weight_sum += line[26];
        }
      stats->n_lines += n_lines;
      skip (&c, bytes);
      if (!u32 (&c, &n_ribbons) || !u32 (&c, &v) || v != n_morphs + 1
          || !skip (&c, 24 * (guint64)n_ribbons * (n_morphs + 1)))
        FAIL ("base and morph points");
      if (!u32 (&c, &v) || v != n_ribbons || !skip (&c, 8 * (guint64)n_ribbons))
        FAIL ("sections and quality");
      if (!u32 (&c, &rows) || !u32 (&c, &groups) || !u32 (&c, &pieces))
        FAIL ("UV layout");
      for (guint32 n = 1; n <= rows; n++)
        points += 2 * n + 2;
      if (!skip (&c, points * groups * pieces * 8))
        FAIL ("UV table");
      if (!u32 (&c, &v) || v != n_moralities + 1
          || !skip (&c, 4 * (guint64)n_ribbons * (n_moralities + 1)))
        FAIL ("lengths");
      if (!u32 (&c, &v) || v != n_ribbons || !skip (&c, 24 * (guint64)n_ribbons))
        FAIL ("z-sort, attachments, first lines, line counts");
      if (!u32 (&c, &v) || v != n_lines)
        FAIL ("LINE_COUNT again");
    }
  return TRUE;
}
