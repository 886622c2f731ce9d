/* tress-fur-names.h: names the user gives to body parts, per creature file
 *
 * Body parts are only numbers in a .cha file. Names typed in the inspector are
 * kept in a key file in the user data folder ($XDG_DATA_HOME/tress/
 * body-part-names.ini), one group per creature file (keyed by its URI, or its
 * title for a file not on disk), and come back when the file is opened again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _TressFurNames TressFurNames;

TressFurNames *tress_fur_names_new (const char *file_key);
void tress_fur_names_free (TressFurNames *names);
/* The name of @part, or NULL. */
const char *tress_fur_names_get (TressFurNames *names, guint32 part);
/* Sets (or with NULL/"" removes) a name and writes the key file; FALSE with
 * @error when it cannot be written (the name is still used in this session). */
gboolean tress_fur_names_set (TressFurNames *names, guint32 part, const char *name, GError **error);
/* "5 · left leg" or "5". */
char *tress_fur_names_label (TressFurNames *names, guint32 part);
/* The key file's path. */
const char *tress_fur_names_get_path (TressFurNames *names);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressFurNames, tress_fur_names_free)

G_END_DECLS
