/* tress-play-range.c: the frames playback runs over, per animation
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-play-range.h"

#include <math.h>
#include <string.h>

typedef struct
{
  double start, end;
} Range;

struct _TressPlayRanges
{
  GHashTable *ranges; /* key → Range */
};

TressPlayRanges *
tress_play_ranges_new (void)
{
  TressPlayRanges *self = g_new0 (TressPlayRanges, 1);

  self->ranges = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  return self;
}

void
tress_play_ranges_free (TressPlayRanges *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->ranges);
  g_free (self);
}

char *
tress_play_range_key (const char *kind, const char *path)
{
  const char *slash = path != NULL ? strchr (path, '/') : NULL;
  gsize n = path == NULL ? 0 : slash != NULL ? (gsize)(slash - path) : strlen (path);

  return g_strdup_printf ("%s\x1f%.*s", kind != NULL ? kind : "", (int)n, path ? path : "");
}

gboolean
tress_play_ranges_get (const TressPlayRanges *self, const char *key, double *start, double *end)
{
  const Range *r;

  g_return_val_if_fail (self != NULL, FALSE);
  r = key != NULL ? g_hash_table_lookup (self->ranges, key) : NULL;
  if (r == NULL)
    return FALSE;
  if (start != NULL)
    *start = r->start;
  if (end != NULL)
    *end = r->end;
  return TRUE;
}

void
tress_play_ranges_set (TressPlayRanges *self, const char *key, double start, double end)
{
  Range *r;

  g_return_if_fail (self != NULL && key != NULL);
  g_return_if_fail (isfinite (start) && isfinite (end));
  r = g_new (Range, 1);
  r->start = MIN (start, end);
  r->end = MAX (start, end);
  g_hash_table_replace (self->ranges, g_strdup (key), r);
}

void
tress_play_ranges_set_start (TressPlayRanges *self, const char *key, double frame, double anim_last)
{
  double start, end = anim_last;

  g_return_if_fail (self != NULL && key != NULL);
  tress_play_ranges_get (self, key, &start, &end);
  tress_play_ranges_set (self, key, frame, MAX (frame, end));
}

void
tress_play_ranges_set_end (TressPlayRanges *self, const char *key, double frame, double anim_first)
{
  double start = anim_first, end;

  g_return_if_fail (self != NULL && key != NULL);
  tress_play_ranges_get (self, key, &start, &end);
  tress_play_ranges_set (self, key, MIN (start, frame), frame);
}

gboolean
tress_play_ranges_clear (TressPlayRanges *self, const char *key)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return key != NULL && g_hash_table_remove (self->ranges, key);
}

void
tress_play_range_bounds (gboolean has_range, double start, double end, double first, double last,
                         double *lo, double *hi)
{
  *lo = first;
  *hi = last;
  if (!has_range || start > last || end < first)
    return;
  *lo = MAX (start, first);
  *hi = MIN (end, last);
}

double
tress_play_range_start_frame (double lo, double hi, double playhead)
{
  if (playhead >= lo && playhead < hi)
    return playhead;
  return lo;
}

double
tress_play_range_advance (double lo, double hi, double from, double elapsed, gboolean loop,
                          gboolean *stopped)
{
  double frame = from + elapsed;

  *stopped = FALSE;
  if (frame < lo)
    frame = lo;
  if (frame < hi)
    return frame;
  if (loop && hi > lo)
    {
      double f = lo + fmod (frame - lo, hi - lo);

      /* fmod of a value just under a multiple may round up to the length. */
      return f < hi ? f : lo;
    }
  *stopped = TRUE;
  return hi;
}
