/* tress-niff-retime.c: an AnimGroup played faster or slower, or cut short
 *
 * Both work on a copy of the group and put it in the group's place when every
 * key has found its frame; the rest of the file is rebuilt by serialize as
 * after any edit (shared/formats/niff.md, "Writing back").
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-niff-animops.h"

#include <math.h>
#include <string.h>

#include "tress-niff-private.h"

/* A frame this close to a whole one (relative above 1) is whole. */
#define GRID_SLACK 1e-9
/* Keys a retimed channel or record list may hold (FULL samples multiply). */
#define MAX_KEYS (1u << 20)
/* Frames named in a refusal. */
#define SHOWN_FRAMES 6

TressNiffGroup *niff_group_copy (const TressNiffGroup *g);

TressNiffGroup *
niff_group_copy (const TressNiffGroup *g)
{
  TressNiffGroup *c = g_memdup2 (g, sizeof *g);

  c->records = g_array_copy (g->records);
  for (guint ch = 0; ch < TRESS_NIFF_N_CHANNELS; ch++)
    c->channels[ch] = g_array_copy (g->channels[ch]);
  if (g->other != NULL)
    g_bytes_ref (g->other);
  if (g->user != NULL)
    g_bytes_ref (g->user);
  return c;
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressNiffGroup, tress_niff_group_free)

static gboolean
whole_frame (double f, guint32 *out)
{
  double r = round (f);

  if (!isfinite (f) || fabs (f - r) > GRID_SLACK * MAX (1.0, fabs (f)) || r < 0
      || r >= (double)NIFF_NONE)
    return FALSE;
  *out = (guint32)r;
  return TRUE;
}

static const char *
group_name (const TressNiffFile *file, guint group)
{
  return g_ptr_array_index (file->group_paths, group);
}

/* Frames that are not whole, or past the largest a u32 holds, named in a
 * refusal. */
typedef struct
{
  GString *text;
  guint n, n_big;
} Unwhole;

static void
unwhole_add (Unwhole *u, const char *what, guint32 frame, double scaled)
{
  u->n_big += !(scaled < (double)NIFF_NONE - 0.5);
  if (u->n++ < SHOWN_FRAMES)
    g_string_append_printf (u->text, "%s%s at frame %u → %g", u->n > 1 ? ", " : "", what, frame,
                            scaled);
}

/* ---- retime ----------------------------------------------------------------------------- */

/* The FULL records of @c sampled @k times as often (straight lines between
 * them, as they play). */
static void
spread_full_records (TressNiffGroup *c, guint k)
{
  GArray *old = c->records;
  guint n = old->len;
  GArray *out = g_array_sized_new (FALSE, TRUE, sizeof (TressNiffRecord), (n - 1) * k + 1);

  for (guint j = 0; j < (n - 1) * k + 1; j++)
    {
      const TressNiffRecord *a = &g_array_index (old, TressNiffRecord, j / k);
      TressNiffRecord r = *a;

      r.index = j;
      if (j % k != 0)
        {
          const TressNiffRecord *b = a + 1;
          double s = (double)(j % k) / k;

          for (guint v = 0; v < 9; v++)
            r.trs[v] = niff_bits (
                (float)(niff_f32 (a->trs[v]) + (niff_f32 (b->trs[v]) - niff_f32 (a->trs[v])) * s));
        }
      g_array_append_val (out, r);
    }
  g_array_unref (old);
  c->records = out;
}

/* Channel @ch's keys at F·frame, slopes divided by F; FULL keys spread to one
 * a frame. FALSE (frames listed in @u) when a frame is not whole. */
static gboolean
retime_channel (TressNiffGroup *c, guint ch, double scale, Unwhole *u, const char *label)
{
  GArray *old = c->channels[ch];
  GArray *out = g_array_sized_new (FALSE, TRUE, sizeof (TressNiffChannelKey), old->len);
  guint nc = tress_niff_channel_n_components (ch);
  gboolean ok = TRUE;

  for (guint i = 0; i < old->len; i++)
    {
      const TressNiffChannelKey *a = &g_array_index (old, TressNiffChannelKey, i);
      TressNiffChannelKey k = *a;

      if (!whole_frame (a->key * scale, &k.key))
        {
          unwhole_add (u, label, a->key, a->key * scale);
          ok = FALSE;
          continue;
        }
      for (guint v = 0; v < nc; v++)
        k.diff[v] = niff_bits ((float)(niff_f32 (a->diff[v]) / scale));
      g_array_append_val (out, k);
      if (a->interp != TRESS_NIFF_CHANNEL_FULL || i + 1 >= old->len || out->len > MAX_KEYS)
        continue;
      /* One key a frame up to the next key, on the straight line between. */
      {
        const TressNiffChannelKey *b = a + 1;
        double to = b->key * scale, h = to - k.key;
        guint32 end;

        if (!whole_frame (to, &end))
          continue; /* said when b is met */
        for (guint32 f = k.key + 1; f < end && out->len <= MAX_KEYS; f++)
          {
            TressNiffChannelKey m = k;
            double s = (f - (double)k.key) / h;

            m.key = f;
            for (guint v = 0; v < nc; v++)
              {
                double p0 = niff_f32 (a->value[v]), p1 = niff_f32 (b->value[v]);

                m.value[v] = niff_bits ((float)(p0 + (p1 - p0) * s));
                m.diff[v] = niff_bits ((float)((p1 - p0) / h));
              }
            g_array_append_val (out, m);
          }
      }
    }
  g_array_unref (old);
  c->channels[ch] = out;
  return ok;
}

gboolean
tress_niff_retime (TressNiffFile *file, guint group, double scale, GPtrArray *notes, GError **error)
{
  g_autoptr (TressNiffGroup) c = NULL;
  const TressNiffGroup *g;
  Unwhole u = { NULL, 0, 0 };
  guint n_full = 0, n_key = 0, n_before = 0, n_after = 0;
  double k = round (scale);
  gboolean whole;
  const char *name;
  double before_end;

  g_return_val_if_fail (file != NULL, FALSE);
  if (group >= file->groups->len)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, "No AnimGroup %u (the file has %u)",
                   group, file->groups->len);
      return FALSE;
    }
  if (!(scale > 0) || !isfinite (scale))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                   "A time scale of %g: it is a number greater than 0 (2 plays half as fast)",
                   scale);
      return FALSE;
    }
  g = g_ptr_array_index (file->groups, group);
  name = group_name (file, group);
  whole = k >= 1 && fabs (k - scale) <= GRID_SLACK * scale;
  for (guint i = 0; i < g->records->len; i++)
    {
      guint32 tag = g_array_index (g->records, TressNiffRecord, i).tag;

      n_full += tag == TRESS_NIFF_RECORD_FULL;
      n_key += tag == TRESS_NIFF_RECORD_KEY;
    }
  if (n_full > 0 && (n_full != g->records->len || !whole))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   n_full != g->records->len
                       ? "AnimGroup \"%s\" mixes FULL records with others: its frames are unclear"
                       : "AnimGroup \"%s\" holds one FULL record a frame (%u): ×%g would %s them "
                         "(a whole factor spreads them)",
                   name, n_full, scale, scale < 1 ? "drop some of" : "need records between");
      return FALSE;
    }
  if (n_full > 0 && ((guint64)n_full - 1) * (guint64)k + 1 > MAX_KEYS)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "AnimGroup \"%s\": ×%g would need %" G_GUINT64_FORMAT
                   " FULL records, more than %u",
                   name, scale, ((guint64)n_full - 1) * (guint64)k + 1, MAX_KEYS);
      return FALSE;
    }
  for (guint ch = 0; g->has_ext && ch < TRESS_NIFF_N_CHANNELS; ch++)
    for (guint i = 0; i + 1 < g->channels[ch]->len; i++)
      if (g_array_index (g->channels[ch], TressNiffChannelKey, i).interp == TRESS_NIFF_CHANNEL_FULL
          && !whole)
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "AnimGroup \"%s\" %s: FULL keys hold one value a frame (from frame %u): "
                       "×%g would %s them (a whole factor spreads them)",
                       name, tress_niff_channel_name (ch),
                       g_array_index (g->channels[ch], TressNiffChannelKey, i).key, scale,
                       scale < 1 ? "drop some of" : "need values between");
          return FALSE;
        }

  before_end = tress_niff_group_get_frame_count (file, group);
  c = niff_group_copy (g);
  u.text = g_string_new (NULL);
  if (n_full > 0)
    spread_full_records (c, (guint)k);
  for (guint i = 0; n_full == 0 && i < c->records->len; i++)
    {
      TressNiffRecord *r = &g_array_index (c->records, TressNiffRecord, i);
      guint32 key = r->key, next = r->next;

      if (r->tag != TRESS_NIFF_RECORD_KEY)
        continue;
      if (!whole_frame (key * scale, &r->key))
        unwhole_add (&u, "KEY record", key, key * scale);
      /* The next key is the next record's frame: said there when not whole. */
      if (next != NIFF_NONE && !whole_frame (next * scale, &r->next)
          && (i + 1 >= c->records->len
              || g_array_index (c->records, TressNiffRecord, i + 1).key != next))
        unwhole_add (&u, "KEY record's next key", next, next * scale);
    }
  for (guint ch = 0; c->has_ext && ch < TRESS_NIFF_N_CHANNELS; ch++)
    {
      n_before += c->channels[ch]->len;
      retime_channel (c, ch, scale, &u, tress_niff_channel_name (ch));
      n_after += c->channels[ch]->len;
      if (c->channels[ch]->len > MAX_KEYS)
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "AnimGroup \"%s\" %s: ×%g would need more than %u keys", name,
                       tress_niff_channel_name (ch), scale, MAX_KEYS);
          g_string_free (u.text, TRUE);
          return FALSE;
        }
    }
  if (u.n > 0 && u.n_big > 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "AnimGroup \"%s\" ×%g: %u key%s would pass frame %u, the last a NIFF frame "
                   "(u32) holds (%s%s)",
                   name, scale, u.n_big, u.n_big == 1 ? "" : "s", NIFF_NONE - 1, u.text->str,
                   u.n > SHOWN_FRAMES ? ", …" : "");
      g_string_free (u.text, TRUE);
      return FALSE;
    }
  if (u.n > 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "AnimGroup \"%s\" ×%g: %u key%s would land between whole frames (%s%s), and "
                   "NIFF stores whole frames only (no wider type exists)",
                   name, scale, u.n, u.n == 1 ? "" : "s", u.text->str,
                   u.n > SHOWN_FRAMES ? ", …" : "");
      g_string_free (u.text, TRUE);
      return FALSE;
    }
  g_string_free (u.text, TRUE);

  tress_niff_group_free (g_ptr_array_index (file->groups, group));
  g_ptr_array_index (file->groups, group) = g_steal_pointer (&c);
  tress_niff_group_changed (file, group);
  if (notes == NULL)
    return TRUE;
  g_ptr_array_add (notes, g_strdup_printf ("AnimGroup \"%s\": last frame %g → %g", name, before_end,
                                           tress_niff_group_get_frame_count (file, group)));
  if (n_key > 0)
    g_ptr_array_add (notes, g_strdup_printf ("%u KEY records moved (their easing is over each "
                                             "segment's own length)",
                                             n_key));
  if (n_full > 0)
    g_ptr_array_add (notes, g_strdup_printf ("%u FULL records → %u, the new ones on the straight "
                                             "lines between the old",
                                             n_full, (n_full - 1) * (guint)k + 1));
  if (n_before > 0)
    {
      int exponent;
      g_autofree char *added
          = n_after > n_before
                ? g_strdup_printf (", %u FULL keys added between them", n_after - n_before)
                : g_strdup ("");

      g_ptr_array_add (notes, g_strdup_printf ("%u channel keys moved%s; slopes divided by %g%s",
                                               n_before, added, scale,
                                               frexp (scale, &exponent) == 0.5
                                                   ? " (exactly: a power of two)"
                                                   : ", each rounded to a 32-bit float"));
    }
  return TRUE;
}

/* ---- cutting the end ---------------------------------------------------------------------- */

static gboolean
key_interp_is_slow (guint32 code)
{
  return code == TRESS_NIFF_KEY_SLOWIN || code == TRESS_NIFF_KEY_SLOWOUT
         || code == TRESS_NIFF_KEY_SLOW;
}

/* The KEY records of @c end at @frame; FALSE when a SLOW segment would change. */
static gboolean
cut_key_records (TressNiffGroup *c, guint32 frame, const char *name, GError **error)
{
  GArray *old = c->records;
  GArray *out = g_array_sized_new (FALSE, TRUE, sizeof (TressNiffRecord), old->len + 1);
  guint last = 0;
  gboolean found = FALSE;

  for (guint i = 0; i < old->len; i++)
    if (g_array_index (old, TressNiffRecord, i).key <= frame)
      last = i, found = TRUE;
  if (found)
    g_array_append_vals (out, old->data, last + 1);
  if (!found || g_array_index (old, TressNiffRecord, last).key != frame)
    {
      /* A record at @frame holding what plays there. */
      TressNiffRecord r = g_array_index (old, TressNiffRecord, found ? last : 0);
      double worst = 0;

      r.index = out->len;
      r.key = frame;
      for (guint v = 0; v < 9; v++)
        r.trs[v] = niff_bits ((float)tress_niff_key_records_eval (old, v, frame));
      g_array_append_val (out, r);
      if (found)
        g_array_index (out, TressNiffRecord, last).next = frame;
      if (found && key_interp_is_slow (g_array_index (out, TressNiffRecord, last).interp))
        {
          const TressNiffRecord *a = &g_array_index (out, TressNiffRecord, last);
          double span = frame - (double)a->key;

          for (guint s = 1; s < 64; s++)
            for (guint v = 0; v < 9; v++)
              {
                double f = a->key + span * s / 64;

                worst = MAX (worst, fabs (tress_niff_key_records_eval (old, v, f)
                                          - tress_niff_key_records_eval (out, v, f)));
              }
        }
      if (worst > 1e-6)
        {
          const TressNiffRecord *a = &g_array_index (out, TressNiffRecord, last);

          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "AnimGroup \"%s\": frame %u lies inside the eased (interpolation %u) "
                       "segment from frame %u to %u, whose shape follows from its ends: cut "
                       "there, it would move by up to %.3g. End at a key instead (%u or %u)",
                       name, frame, a->interp, a->key,
                       g_array_index (old, TressNiffRecord, last + 1).key, worst, a->key,
                       g_array_index (old, TressNiffRecord, last + 1).key);
          g_array_unref (out);
          return FALSE;
        }
    }
  g_array_index (out, TressNiffRecord, out->len - 1).next = NIFF_NONE;
  g_array_unref (old);
  c->records = out;
  return TRUE;
}

/* Value and slope (per frame) of Hermite segment @a → @b, component @v, at @f. */
static void
hermite_at (const TressNiffChannelKey *a, const TressNiffChannelKey *b, guint v, double f,
            double *value, double *slope)
{
  double h = (double)b->key - a->key, u = (f - a->key) / h, um = u - 1;
  double p0 = niff_f32 (a->value[v]), p1 = niff_f32 (b->value[v]);
  double m0 = niff_f32 (a->diff[v]), m1 = niff_f32 (b->diff[v]);

  *value = um * um * (2 * u + 1) * p0 + u * u * (3 - 2 * u) * p1 + h * um * um * u * m0
           + h * um * u * u * m1;
  *slope = (6 * u * um * (p0 - p1)) / h + (3 * u * u - 4 * u + 1) * m0 + (3 * u * u - 2 * u) * m1;
}

/* Channel @ch of @c ends at @frame with a key that holds what plays there. */
static void
cut_channel (TressNiffGroup *c, guint ch, guint32 frame)
{
  GArray *keys = c->channels[ch];
  guint nc = tress_niff_channel_n_components (ch), keep = 0;
  TressNiffChannelKey k;

  while (keep < keys->len && g_array_index (keys, TressNiffChannelKey, keep).key <= frame)
    keep++;
  if (keep == keys->len)
    return;
  if (keep > 0 && g_array_index (keys, TressNiffChannelKey, keep - 1).key == frame)
    {
      g_array_set_size (keys, keep);
      return;
    }
  k = g_array_index (keys, TressNiffChannelKey, keep > 0 ? keep - 1 : 0);
  k.key = frame;
  for (guint v = 0; v < nc; v++)
    {
      double value = tress_niff_channel_eval (keys, ch, v, frame), slope = 0;

      if (keep > 0)
        {
          const TressNiffChannelKey *a = &g_array_index (keys, TressNiffChannelKey, keep - 1);
          const TressNiffChannelKey *b = a + 1;

          if (a->interp == TRESS_NIFF_CHANNEL_HERMITE)
            hermite_at (a, b, v, frame, &value, &slope);
          else if (a->interp != TRESS_NIFF_CHANNEL_CONST)
            slope = (niff_f32 (b->value[v]) - niff_f32 (a->value[v])) / ((double)b->key - a->key);
        }
      k.value[v] = niff_bits ((float)value);
      k.diff[v] = niff_bits ((float)slope);
    }
  g_array_set_size (keys, keep);
  g_array_append_val (keys, k);
}

gboolean
tress_niff_set_group_end (TressNiffFile *file, guint group, guint32 frame, gboolean trim,
                          GPtrArray *notes, GError **error)
{
  g_autoptr (TressNiffGroup) c = NULL;
  g_autoptr (GString) past = g_string_new (NULL);
  const TressNiffGroup *g;
  const char *name;
  double end;
  guint n_past = 0;

  g_return_val_if_fail (file != NULL, FALSE);
  if (group >= file->groups->len)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, "No AnimGroup %u (the file has %u)",
                   group, file->groups->len);
      return FALSE;
    }
  g = g_ptr_array_index (file->groups, group);
  name = group_name (file, group);
  end = tress_niff_group_get_frame_count (file, group);
  if (frame >= end)
    {
      if (frame == end)
        g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                     "AnimGroup \"%s\" already ends at frame %u", name, frame);
      else
        g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                     "AnimGroup \"%s\" ends at frame %g: a NIFF animation lasts until its last "
                     "key and stores no frame count to raise (add a key at frame %u instead)",
                     name, end, frame);
      return FALSE;
    }
  /* What lies past @frame. */
  {
    guint n = 0;

    for (guint i = 0; i < g->records->len; i++)
      {
        const TressNiffRecord *r = &g_array_index (g->records, TressNiffRecord, i);

        n += (r->tag == TRESS_NIFF_RECORD_KEY && r->key > frame)
             || (r->tag == TRESS_NIFF_RECORD_FULL && i > frame);
      }
    if (n > 0)
      {
        n_past += n;
        g_string_append_printf (past, "%u record%s", n, n == 1 ? "" : "s");
      }
    for (guint ch = 0; g->has_ext && ch < TRESS_NIFF_N_CHANNELS; ch++)
      {
        GArray *keys = g->channels[ch];

        n = 0;
        for (guint i = keys->len;
             i > 0 && g_array_index (keys, TressNiffChannelKey, i - 1).key > frame; i--)
          n++;
        if (n == 0)
          continue;
        n_past += n;
        g_string_append_printf (past, "%s%s %u key%s", past->len ? ", " : "",
                                tress_niff_channel_name (ch), n, n == 1 ? "" : "s");
      }
  }
  if (!trim)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "AnimGroup \"%s\" has %u key%s past frame %u (%s): --trim cuts them, each "
                   "curve ending with a key at frame %u",
                   name, n_past, n_past == 1 ? "" : "s", frame, past->str, frame);
      return FALSE;
    }
  c = niff_group_copy (g);
  if (c->records->len > 0
      && g_array_index (c->records, TressNiffRecord, 0).tag == TRESS_NIFF_RECORD_FULL)
    g_array_set_size (c->records, MIN (c->records->len, frame + 1));
  else if (c->records->len > 0
           && g_array_index (c->records, TressNiffRecord, 0).tag == TRESS_NIFF_RECORD_KEY
           && !cut_key_records (c, frame, name, error))
    return FALSE;
  for (guint ch = 0; c->has_ext && ch < TRESS_NIFF_N_CHANNELS; ch++)
    cut_channel (c, ch, frame);
  tress_niff_group_free (g_ptr_array_index (file->groups, group));
  g_ptr_array_index (file->groups, group) = g_steal_pointer (&c);
  tress_niff_group_changed (file, group);
  if (notes != NULL)
    g_ptr_array_add (notes,
                     g_strdup_printf ("AnimGroup \"%s\": ends at frame %u (was %g); %u "
                                      "key%s past it cut (%s), each curve ending with a "
                                      "key there",
                                      name, frame, end, n_past, n_past == 1 ? "" : "s", past->str));
  return TRUE;
}
