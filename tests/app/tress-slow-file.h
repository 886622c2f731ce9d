/* tress-slow-file.h: a local file read slowly, as over a slow network share
 *
 * A GFile standing for a local file in every respect but reading: its input
 * stream hands out at most @chunk bytes per read after a pause of @delay_ms
 * (cut short by a cancellation, which the read then reports). For tests of
 * what a long load looks like and of cancelling it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

GFile *tress_slow_file_new (const char *path, gsize chunk, guint delay_ms);
/* Reads asked for after their stream's cancellable was cancelled (should
 * stay 0), and the monotonic time of the last read that returned data. */
guint tress_slow_file_reads_after_cancel (void);
gint64 tress_slow_file_last_read_time (void);

G_END_DECLS
