/* tress-race-file.h: a local file another program writes at the worst moment
 *
 * A GFile standing for a local file in every respect but one: once armed, the
 * next query of its times (what a document does to see whether the file
 * changed on disk, just before writing it) answers with the file as it was
 * and then lets another program replace it with @theirs (a new file renamed
 * into place, with a later time). For tests of what a save does when the file
 * changes between its check and its write.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

GFile *tress_race_file_new (const char *path);
/* The next query of the file's times lets the other program write @theirs. */
void tress_race_file_arm (GFile *file, GBytes *theirs);
/* Whether the other program has written since the file was armed. */
gboolean tress_race_file_fired (GFile *file);

G_END_DECLS
