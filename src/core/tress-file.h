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
 * renamed into place, the old one's permissions and, where this process may,
 * its owner, @etag checked, a `~` backup when @backup), except that nothing
 * can be half done: a failed write (a full disk, a quota, the file size
 * limit), a cancellation before the rename or a kill at any moment leaves the
 * original untouched, or for a new file no file at all. GLib 2.74's
 * g_file_replace_contents() renames a partly written file into place when the
 * write fails, writes a file that does not exist yet straight under its name,
 * and leaves ".goutputstream-*" files when killed.
 *
 * A local file is written to an unnamed O_TMPFILE in its folder (a named
 * ".NAME.tress-XXXXXX" where the filesystem has none), flushed to disk, and
 * linked (a new file) or renamed (over an old one) into place; the folder is
 * flushed after. Temporary files an interrupted earlier save of the same file
 * left (a kill in the instant between an unnamed file getting its temporary
 * name and the rename, or any time for a named one) are removed by the next
 * save. Hard links to the old file keep the old contents (as the backup does).
 * Through a symbolic link the link's target is written the same way and the
 * link kept. Anything but a regular file is refused. Once the new file is in
 * place the call no longer reports a cancellation. */
gboolean tress_file_replace (GFile *file, const char *contents, gsize len, const char *etag,
                             gboolean backup, char **new_etag, GCancellable *cancellable,
                             GError **error);

/* Makes a file size limit (ulimit -f) a write error (EFBIG) that
 * tress_file_replace() reports, instead of the SIGXFSZ that kills the process
 * by default. Call once at start-up. */
void tress_file_ignore_size_limit_signal (void);

G_END_DECLS
