/* fuzz-cha.c: libFuzzer target for the creature-fur parser
 *
 * Whatever the bytes, parse gives an error or a model; a model validates,
 * its ribbons' problem counts (read off the list or counted in the file)
 * agree with the problem list, it writes back
 * exactly the bytes it came from, and survives every fix.
 *
 * The custom mutator keeps the section walk true: it mutates one section's
 * body (its size field follows, in the file's own convention), or a window of
 * a body in place (the counts inside stay as they were), or, a quarter of
 * the time, the bytes as they are.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../fuzz/tress-fuzz.h"

#include "formats/cha/tress-cha-edit.h"
#include "formats/cha/tress-cha-model.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressChaFile) file = tress_cha_file_parse (bytes, &error);
  g_autoptr (GBytes) again = NULL;
  g_autoptr (GPtrArray) problems = NULL;
  g_autoptr (TressChaFile) fixed = NULL;

  if (file == NULL)
    {
      if (error == NULL || error->domain != TRESS_ERROR || error->message == NULL)
        abort ();
      return 0;
    }
  problems = tress_cha_file_validate (file);
  {
    g_autoptr (GHashTable) counts = tress_cha_file_count_ribbon_problems (file, NULL);
    g_autoptr (GHashTable) from_list = tress_cha_file_count_ribbon_problems (file, problems);
    GHashTableIter iter;
    const gint64 *stored;
    guint64 counted = 0;

    /* read off the list or counted in the file: the same */
    if (g_hash_table_size (from_list) != g_hash_table_size (counts))
      abort ();
    g_hash_table_iter_init (&iter, counts);
    while (g_hash_table_iter_next (&iter, (gpointer *)&stored, NULL))
      {
        counted += (guint64)stored[1];
        if (tress_cha_ribbon_problems_lookup (from_list, (guint)(stored[0] >> 32), (guint)stored[0])
            != (guint)stored[1])
          abort ();
      }
    if (counted > tress_problem_list_count (problems, TRESS_SEVERITY_INFO))
      abort (); /* a ribbon counts only problems the list has or sums up */
    for (guint i = 0; i < problems->len; i++)
      {
        const TressProblem *p = g_ptr_array_index (problems, i);
        const char *r = p->location != NULL ? strstr (p->location, "/ribbon ") : NULL;
        guint material, ribbon;

        if (p->n_more == 0 && r != NULL
            && sscanf (p->location, "radeon/material %u", &material) == 1
            && sscanf (r, "/ribbon %u", &ribbon) == 1
            && tress_cha_ribbon_problems_lookup (counts, material, ribbon) == 0)
          abort (); /* a listed problem of a ribbon is counted against it */
      }
  }
  again = tress_cha_file_serialize (file);
  if (!g_bytes_equal (bytes, again))
    abort (); /* open → save must give the same bytes */

  fixed = tress_cha_file_copy (file);
  tress_cha_fix_all (fixed, NULL, NULL);
  {
    g_autoptr (GBytes) out = tress_cha_file_serialize (fixed);
    g_autoptr (TressChaFile) back = tress_cha_file_parse (out, NULL);
    if (back == NULL)
      abort (); /* a fixed file always reads back */
  }
  return 0;
}

/* ---- the mutator --------------------------------------------------------- */

#define HEADER 0x30
#define PREFIX 36 /* name and size */

typedef struct
{
  gsize start; /* of the name */
  gsize body, end;
} Section;

static guint32
get_u32_le (const guint8 *p)
{
  return (guint32)p[0] | (guint32)p[1] << 8 | (guint32)p[2] << 16 | (guint32)p[3] << 24;
}

static void
put_u32_le (guint8 *p, guint32 v)
{
  p[0] = v, p[1] = v >> 8, p[2] = v >> 16, p[3] = v >> 24;
}

/* The sections, read with sizes that count the body (@whole FALSE) or the
 * whole section; FALSE when they do not walk to the end of the file. */
static gboolean
walk (const guint8 *d, gsize size, gboolean whole, Section *out, guint *n_out, guint max)
{
  gsize pos = HEADER;
  guint n = 0;

  while (pos < size && n < max)
    {
      guint32 s;

      if (size - pos < PREFIX)
        return FALSE;
      s = get_u32_le (d + pos + 32);
      if (whole && s < PREFIX)
        return FALSE;
      out[n].start = pos;
      out[n].body = pos + PREFIX;
      out[n].end = whole ? pos + s : pos + PREFIX + (gsize)s;
      if (out[n].end > size || out[n].end < out[n].body)
        return FALSE;
      pos = out[n++].end;
    }
  *n_out = n;
  return pos == size;
}

size_t
LLVMFuzzerCustomMutator (uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
  Section sections[16];
  guint32 state = seed;
  guint n = 0, k, how = tress_fuzz_next (&state) % 4;
  gboolean whole = FALSE;
  Section *s;

  if (how == 0 || size <= HEADER)
    return LLVMFuzzerMutate (data, size, max_size);
  if (!walk (data, size, FALSE, sections, &n, G_N_ELEMENTS (sections)))
    {
      whole = TRUE;
      if (!walk (data, size, TRUE, sections, &n, G_N_ELEMENTS (sections)) || n == 0)
        return LLVMFuzzerMutate (data, size, max_size);
    }
  if (n == 0)
    return LLVMFuzzerMutate (data, size, max_size);
  k = tress_fuzz_next (&state) % n;
  s = &sections[k];
  if (how == 1 && s->end > s->body)
    {
      /* A window of the body in place: lines, counts, arrays. */
      /* (MIN evaluates its arguments twice: the draw is made first.) */
      gsize want = 4 + tress_fuzz_next (&state) % 64;
      gsize len = MIN (s->end - s->body, want);
      gsize at = s->body + tress_fuzz_next (&state) % (s->end - s->body - len + 1);

      tress_fuzz_mutate_region (data, at, len);
      return size;
    }
  {
    /* The body changed, longer or shorter, its size field made to match. */
    gsize body = s->end - s->body, tail = size - s->end;
    gsize room = max_size > size ? max_size - (size - body) : body;
    g_autofree guint8 *copy = g_malloc (MAX (room, body) + 1);
    gsize nb;

    memcpy (copy, data + s->body, body);
    nb = LLVMFuzzerMutate (copy, body, MAX (room, body));
    if (s->body + nb + tail > max_size)
      return LLVMFuzzerMutate (data, size, max_size);
    memmove (data + s->body + nb, data + s->end, tail);
    memcpy (data + s->body, copy, nb);
    put_u32_le (data + s->start + 32, (guint32)(whole ? nb + PREFIX : nb));
    return s->body + nb + tail;
  }
}
