/* tress-file.h: replacing a file's contents so that a failure leaves it as it was
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The largest file Tress reads (the editor and tress-cli alike). */
#define TRESS_FILE_MAX_SIZE ((goffset)512 * 1024 * 1024)

/* Writes @contents over @file as g_file_replace_contents() does (a new file
 * renamed into place, the old one's permissions, @etag checked, a `~` backup
 * when @backup), except that a failed write (a full disk, a quota, a network
 * error) or a cancellation before the rename leaves the original untouched and
 * no temporary file: GLib 2.74's g_file_replace_contents() renames the partly
 * written file into place when the write fails. Through a symbolic link the
 * link's target is written the same way (GIO would rewrite it in place) and
 * the link kept. Anything but a regular file is refused. Once the new file is
 * in place the call no longer reports a cancellation. */
gboolean tress_file_replace (GFile *file, const char *contents, gsize len, const char *etag,
                             gboolean backup, char **new_etag, GCancellable *cancellable,
                             GError **error);

G_END_DECLS
