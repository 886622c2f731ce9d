/* tress-cha-paint.c: weight painting strokes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-cha-paint.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "tress-cha-private.h"

void
tress_cha_apportion (guint total, const double *shares, guint n, guint *out)
{
  double sum = 0, frac[8];
  guint given = 0, i;

  g_return_if_fail (n > 0 && n <= G_N_ELEMENTS (frac));
  for (i = 0; i < n; i++)
    sum += shares[i] > 0 ? shares[i] : 0;
  if (!(sum > 0) || !isfinite (sum))
    {
      out[0] = total;
      for (i = 1; i < n; i++)
        out[i] = 0;
      return;
    }
  for (i = 0; i < n; i++)
    {
      double exact = shares[i] > 0 ? total * (shares[i] / sum) : 0;
      double whole = floor (exact);

      out[i] = MIN ((guint)whole, total);
      frac[i] = exact - whole;
      given += out[i];
    }
  /* What rounding down left over goes to the largest remainders, one each
   * (at most n − 1 of them); ties go to the lower index. */
  while (given < total)
    {
      guint best = 0;

      for (i = 1; i < n; i++)
        if (frac[i] > frac[best])
          best = i;
      out[best]++;
      frac[best] = -1;
      given++;
    }
  while (given > total)
    {
      /* Only floating-point noise gets here: take from the largest. */
      guint best = 0;

      for (i = 1; i < n; i++)
        if (out[i] > out[best])
          best = i;
      out[best]--;
      given--;
    }
}

static void
own_weights (const TressChaLine *line, guint8 out[3])
{
  for (guint k = 0; k < 3; k++)
    out[k] = tress_cha_line_get_weight (line, k);
}

/* Splits @total among the references in @set (a bit mask), in proportion to
 * their weights @w, into @out. */
static void
split_among (guint total, guint set, const guint8 w[3], guint8 out[3])
{
  double shares[3];
  guint parts[3], index[3], n = 0, k;

  for (k = 0; k < 3; k++)
    if (set & (1u << k))
      {
        index[n] = k;
        shares[n++] = w[k];
      }
  if (n == 0)
    return;
  tress_cha_apportion (total, shares, n, parts);
  for (k = 0; k < n; k++)
    out[index[k]] = (guint8)parts[k];
}

gboolean
tress_cha_paint_line (const TressChaMaterial *material, const TressChaLine *line,
                      TressChaPaintMode mode, guint32 target, double amount, guint8 out[3])
{
  guint8 w[3];
  guint on = 0, off = 0, t = 0, k, delta, moved;

  own_weights (line, w);
  memcpy (out, w, 3);
  if (mode == TRESS_CHA_PAINT_SMOOTH || !(amount > 0) || w[0] + w[1] + w[2] != 255)
    return FALSE;
  amount = MIN (amount, 1.0);
  for (k = 0; k < 3; k++)
    if (tress_cha_material_ref_body_part (material, line, k) == (gint64)target)
      {
        on |= 1u << k;
        t += w[k];
      }
    else
      off |= 1u << k;
  if (on == 0)
    return FALSE;
  if (mode == TRESS_CHA_PAINT_ADD)
    {
      /* A share of what the others hold, at least one step while they hold any. */
      if (t == 255)
        return FALSE;
      delta = (guint)ceil (amount * (255 - t) - 1e-9);
      moved = t + CLAMP (delta, 1, 255 - t);
    }
  else
    {
      if (t == 0 || t == 255 || off == 0)
        return FALSE;
      delta = (guint)ceil (amount * t - 1e-9);
      moved = t - CLAMP (delta, 1, t);
    }
  split_among (moved, on, w, out);
  split_among (255 - moved, off, w, out);
  return memcmp (out, w, 3) != 0;
}

gboolean
tress_cha_paint_smooth_line (const TressChaMaterial *material, const TressChaLine *line,
                             const double mean[3], double amount, guint8 out[3])
{
  guint8 w[3];
  gint64 part[3];
  int owner[3]; /* the first reference with the same body part */
  double want[3] = { 0, 0, 0 }, sum = 0;
  guint whole[3], k, j;

  own_weights (line, w);
  memcpy (out, w, 3);
  if (!(amount > 0) || w[0] + w[1] + w[2] != 255)
    return FALSE;
  amount = MIN (amount, 1.0);
  for (k = 0; k < 3; k++)
    {
      part[k] = tress_cha_material_ref_body_part (material, line, k);
      owner[k] = (int)k;
      for (j = 0; j < k; j++)
        if (part[j] == part[k] && part[k] >= 0)
          {
            owner[k] = (int)j;
            break;
          }
      if (owner[k] == (int)k)
        sum += isfinite (mean[k]) && mean[k] > 0 ? mean[k] : 0;
    }
  if (!(sum > 0))
    return FALSE;
  /* Per body part: from what the line gives it toward the neighbours' share. */
  for (k = 0; k < 3; k++)
    if (owner[k] == (int)k)
      {
        double now = 0, goal = (isfinite (mean[k]) && mean[k] > 0 ? mean[k] : 0) / sum * 255;

        for (j = 0; j < 3; j++)
          if (owner[j] == (int)k)
            now += w[j];
        want[k] = now + amount * (goal - now);
      }
  tress_cha_apportion (255, want, 3, whole);
  /* A part held by two references keeps their split. */
  for (k = 0; k < 3; k++)
    if (owner[k] == (int)k)
      {
        guint set = 0;

        for (j = 0; j < 3; j++)
          if (owner[j] == (int)k)
            set |= 1u << j;
        split_among (whole[k], set, w, out);
      }
  return memcmp (out, w, 3) != 0;
}

/* ---- strokes -------------------------------------------------------------- */

typedef struct
{
  TressChaLineId id;
  TressChaLine before;
  guint dab;        /* the last dab that touched it */
  gboolean skipped; /* its references do not include the target */
} Entry;

struct _TressChaPaintStroke
{
  TressChaFile *file;
  TressChaPaintMode mode;
  guint32 target;
  GArray *entries; /* Entry, in the order first touched */
  /* Per material, made on its first touch: per line, its entry index + 1
   * (0: not touched yet). A direct look-up, so a dab costs what it touches. */
  guint **lookup;
  guint n_lookup;
  guint dab;
  guint n_skipped;
};

static guint
key_hash (gconstpointer key)
{
  guint64 k = *(const guint64 *)key;

  return (guint)(k ^ (k >> 32)) * 2654435761u;
}

static gboolean
key_equal (gconstpointer a, gconstpointer b)
{
  return *(const guint64 *)a == *(const guint64 *)b;
}

TressChaPaintStroke *
tress_cha_paint_stroke_new (TressChaFile *file, TressChaPaintMode mode, guint32 target)
{
  TressChaPaintStroke *self = g_new0 (TressChaPaintStroke, 1);

  self->file = file;
  self->mode = mode;
  self->target = target;
  self->entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  self->n_lookup = file->radeon != NULL ? file->radeon->n_materials : 0;
  self->lookup = g_new0 (guint *, self->n_lookup + 1);
  return self;
}

TressChaPaintMode
tress_cha_paint_stroke_get_mode (TressChaPaintStroke *self)
{
  return self->mode;
}

guint32
tress_cha_paint_stroke_get_target (TressChaPaintStroke *self)
{
  return self->target;
}

static TressChaLine *
model_line (TressChaPaintStroke *self, const TressChaLineId *id)
{
  const TressChaRadeon *rad = self->file->radeon;
  TressChaMaterial *m;

  if (rad == NULL || id->material >= rad->n_materials)
    return NULL;
  m = &rad->materials[id->material];
  if (m->lines == NULL || id->line >= m->n_lines)
    return NULL;
  return &m->lines[id->line];
}

/* The entry of a line, made on first touch; NULL for a line out of range or
 * already in this dab. */
static Entry *
touch (TressChaPaintStroke *self, const TressChaLineId *id)
{
  TressChaLine *line = model_line (self, id);
  guint *slots, index;
  Entry *e;

  if (line == NULL || id->material >= self->n_lookup)
    return NULL;
  slots = self->lookup[id->material];
  if (slots == NULL)
    slots = self->lookup[id->material]
        = g_new0 (guint, self->file->radeon->materials[id->material].n_lines + 1);
  index = slots[id->line];
  if (index == 0)
    {
      Entry fresh = { *id, *line, 0, FALSE };
      const TressChaMaterial *m = &self->file->radeon->materials[id->material];

      if (self->mode != TRESS_CHA_PAINT_SMOOTH)
        {
          fresh.skipped = TRUE;
          for (guint k = 0; k < 3; k++)
            if (tress_cha_material_ref_body_part (m, line, k) == (gint64)self->target)
              fresh.skipped = FALSE;
          self->n_skipped += fresh.skipped;
        }
      g_array_append_val (self->entries, fresh);
      index = self->entries->len;
      slots[id->line] = index;
    }
  e = &g_array_index (self->entries, Entry, index - 1);
  if (e->dab == self->dab)
    return NULL;
  e->dab = self->dab;
  return e;
}

static void
set_weights (TressChaLine *line, const guint8 w[3])
{
  line->weights[2] = w[0];
  line->weights[1] = w[1];
  line->weights[0] = w[2];
}

/* The weight @line gives body part @part (over every reference to it). */
static double
weight_on (const TressChaMaterial *m, const TressChaLine *line, gint64 part)
{
  double sum = 0;

  for (guint k = 0; k < 3; k++)
    if (tress_cha_material_ref_body_part (m, line, k) == part)
      sum += tress_cha_line_get_weight (line, k);
  return sum;
}

typedef struct
{
  guint entry;
  float amount;
} Touched;

/* Smooths each touched line toward the other lines of its material in the
 * dab, all measured before any of them changes. */
static guint
smooth_dab (TressChaPaintStroke *self, GArray *touched, GArray *changed)
{
  g_autoptr (GArray) results = g_array_sized_new (FALSE, FALSE, 3, touched->len);
  g_autoptr (GHashTable) totals = NULL; /* (material << 32 | part + 1) → total index + 1 */
  g_autoptr (GArray) sums = g_array_new (FALSE, TRUE, sizeof (double));
  g_autofree guint *per_material = NULL;
  const TressChaRadeon *rad = self->file->radeon;
  guint i, k, n_changed = 0;

  totals = g_hash_table_new_full (key_hash, key_equal, g_free, NULL);
  per_material = g_new0 (guint, rad->n_materials + 1);
  /* Totals per material and body part over the dab's lines. */
  for (i = 0; i < touched->len; i++)
    {
      const Entry *e
          = &g_array_index (self->entries, Entry, g_array_index (touched, Touched, i).entry);
      const TressChaMaterial *m = &rad->materials[e->id.material];
      const TressChaLine *line = &m->lines[e->id.line];

      per_material[e->id.material]++;
      for (k = 0; k < 3; k++)
        {
          gint64 part = tress_cha_material_ref_body_part (m, line, k);
          guint64 key = ((guint64)e->id.material << 32) | (guint64)(part + 1);
          guint index;

          if (part < 0)
            continue;
          index = GPOINTER_TO_UINT (g_hash_table_lookup (totals, &key));
          if (index == 0)
            {
              g_array_set_size (sums, sums->len + 1);
              index = sums->len;
              g_hash_table_insert (totals, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (index));
            }
          g_array_index (sums, double, index - 1) += tress_cha_line_get_weight (line, k);
        }
    }
  for (i = 0; i < touched->len; i++)
    {
      const Touched *t = &g_array_index (touched, Touched, i);
      const Entry *e = &g_array_index (self->entries, Entry, t->entry);
      const TressChaMaterial *m = &rad->materials[e->id.material];
      const TressChaLine *line = &m->lines[e->id.line];
      guint n = per_material[e->id.material];
      double mean[3] = { 0, 0, 0 };
      guint8 out[3];

      for (k = 0; k < 3 && n > 1; k++)
        {
          gint64 part = tress_cha_material_ref_body_part (m, line, k);
          guint64 key = ((guint64)e->id.material << 32) | (guint64)(part + 1);
          guint index = part >= 0 ? GPOINTER_TO_UINT (g_hash_table_lookup (totals, &key)) : 0;

          if (index > 0)
            mean[k]
                = (g_array_index (sums, double, index - 1) - weight_on (m, line, part)) / (n - 1);
        }
      if (n < 2 || !tress_cha_paint_smooth_line (m, line, mean, t->amount, out))
        own_weights (line, out);
      g_array_append_vals (results, out, 1);
    }
  for (i = 0; i < touched->len; i++)
    {
      const Entry *e
          = &g_array_index (self->entries, Entry, g_array_index (touched, Touched, i).entry);
      TressChaLine *line = &rad->materials[e->id.material].lines[e->id.line];
      const guint8 *out = (const guint8 *)results->data + 3 * (gsize)i;
      guint8 w[3];

      own_weights (line, w);
      if (memcmp (w, out, 3) == 0)
        continue;
      set_weights (line, out);
      n_changed++;
      if (changed != NULL)
        g_array_append_val (changed, e->id);
    }
  return n_changed;
}

guint
tress_cha_paint_stroke_dab (TressChaPaintStroke *self, const TressChaLineId *lines,
                            const float *amounts, guint n, GArray *changed)
{
  g_autoptr (GArray) touched = g_array_new (FALSE, FALSE, sizeof (Touched));
  guint i, n_changed = 0;

  self->dab++;
  for (i = 0; i < n; i++)
    {
      Entry *e;
      Touched t;

      if (!(amounts[i] > 0))
        continue;
      e = touch (self, &lines[i]);
      if (e == NULL || e->skipped)
        continue;
      t.entry = (guint)(e - (Entry *)(gpointer)self->entries->data);
      t.amount = MIN (amounts[i], 1.f);
      g_array_append_val (touched, t);
    }
  if (self->mode == TRESS_CHA_PAINT_SMOOTH)
    return smooth_dab (self, touched, changed);
  for (i = 0; i < touched->len; i++)
    {
      const Touched *t = &g_array_index (touched, Touched, i);
      const Entry *e = &g_array_index (self->entries, Entry, t->entry);
      const TressChaMaterial *m = &self->file->radeon->materials[e->id.material];
      TressChaLine *line = &m->lines[e->id.line];
      guint8 out[3];

      if (!tress_cha_paint_line (m, line, self->mode, self->target, t->amount, out))
        continue;
      set_weights (line, out);
      n_changed++;
      if (changed != NULL)
        g_array_append_val (changed, e->id);
    }
  return n_changed;
}

guint
tress_cha_paint_stroke_get_n_changed (TressChaPaintStroke *self)
{
  guint n = 0;

  for (guint i = 0; i < self->entries->len; i++)
    {
      const Entry *e = &g_array_index (self->entries, Entry, i);

      n += memcmp (&e->before, model_line (self, &e->id), sizeof e->before) != 0;
    }
  return n;
}

guint
tress_cha_paint_stroke_get_n_skipped (TressChaPaintStroke *self)
{
  return self->n_skipped;
}

static char *
stroke_label (TressChaPaintStroke *self, guint n)
{
  switch (self->mode)
    {
    case TRESS_CHA_PAINT_ADD:
      /* Translators: "Paint weights of 214 lines toward part 5" (a body part number). */
      return g_strdup_printf (ngettext ("Paint weights of %u line toward part %u",
                                        "Paint weights of %u lines toward part %u", n),
                              n, self->target);
    case TRESS_CHA_PAINT_SUBTRACT:
      return g_strdup_printf (ngettext ("Paint weights of %u line away from part %u",
                                        "Paint weights of %u lines away from part %u", n),
                              n, self->target);
    case TRESS_CHA_PAINT_SMOOTH:
    default:
      return g_strdup_printf (
          ngettext ("Smooth weights of %u line", "Smooth weights of %u lines", n), n);
    }
}

char *
tress_cha_paint_stroke_get_label (TressChaPaintStroke *self)
{
  return stroke_label (self, tress_cha_paint_stroke_get_n_changed (self));
}

static void
stroke_free (TressChaPaintStroke *self)
{
  g_array_unref (self->entries);
  for (guint i = 0; i < self->n_lookup; i++)
    g_free (self->lookup[i]);
  g_free (self->lookup);
  g_free (self);
}

guint
tress_cha_paint_stroke_finish (TressChaPaintStroke *self, TressHistory *history)
{
  guint n = self->entries->len, i, recorded;
  g_autofree TressChaLineId *ids = g_new (TressChaLineId, n + 1);
  g_autofree TressChaLine *before = g_new (TressChaLine, n + 1);
  g_autofree char *label = tress_cha_paint_stroke_get_label (self);

  for (i = 0; i < n; i++)
    {
      const Entry *e = &g_array_index (self->entries, Entry, i);

      ids[i] = e->id;
      before[i] = e->before;
    }
  recorded = cha_record_line_edits (self->file, history, ids, before, n, label);
  stroke_free (self);
  return recorded;
}

void
tress_cha_paint_stroke_cancel (TressChaPaintStroke *self)
{
  for (guint i = 0; i < self->entries->len; i++)
    {
      const Entry *e = &g_array_index (self->entries, Entry, i);
      TressChaLine *line = model_line (self, &e->id);

      if (line != NULL)
        *line = e->before;
    }
  stroke_free (self);
}
