/* tress-play-range.h: the frames playback runs over, per animation
 *
 * A play range (start and end frame) is kept per animation while its
 * document is open: playing loops within it, and clearing it plays the
 * whole animation again. Animations are told apart by a key made from a
 * curve's kind and the first level of its path ("Skeletal", "Fly" for
 * "Fly/Spine_2/Rotate Z"), so every curve of one animation finds the same
 * range. The looping maths is here too, apart from any clock.
 *
 * GLib only, no GTK.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _TressPlayRanges TressPlayRanges;

TressPlayRanges *tress_play_ranges_new (void);
void tress_play_ranges_free (TressPlayRanges *ranges);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressPlayRanges, tress_play_ranges_free)

/* The key of the animation a curve of @kind (may be NULL) at @path (may be
 * NULL) belongs to. */
char *tress_play_range_key (const char *kind, const char *path);

/* The range of animation @key: FALSE when none is set (the whole
 * animation plays). */
gboolean tress_play_ranges_get (const TressPlayRanges *ranges, const char *key, double *start,
                                double *end);
/* Sets both ends (swapped when @end < @start). */
void tress_play_ranges_set (TressPlayRanges *ranges, const char *key, double start, double end);
/* Moves the start to @frame; without a range the end is @anim_last. An end
 * before the new start moves with it. */
void tress_play_ranges_set_start (TressPlayRanges *ranges, const char *key, double frame,
                                  double anim_last);
/* Moves the end to @frame; without a range the start is @anim_first. A
 * start after the new end moves with it. */
void tress_play_ranges_set_end (TressPlayRanges *ranges, const char *key, double frame,
                                double anim_first);
/* Forgets the range of @key: FALSE when there was none. */
gboolean tress_play_ranges_clear (TressPlayRanges *ranges, const char *key);

/* The frames playback runs over in an animation of frames @first to
 * @last: the range (when @has_range) cut to them, or all of them when it
 * is not set or lies outside them. */
void tress_play_range_bounds (gboolean has_range, double start, double end, double first,
                              double last, double *lo, double *hi);
/* Where playback starts from @playhead: there when it lies in [@lo, @hi),
 * else at @lo. */
double tress_play_range_start_frame (double lo, double hi, double playhead);
/* Where playback is @elapsed frames after it started at @from (in [@lo,
 * @hi]): past @hi it wraps to @lo when @loop (never leaving [@lo, @hi)),
 * else it stops at @hi and *@stopped is set. */
double tress_play_range_advance (double lo, double hi, double from, double elapsed, gboolean loop,
                                 gboolean *stopped);

G_END_DECLS
