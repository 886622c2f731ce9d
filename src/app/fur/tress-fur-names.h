/* tress-fur-names.h: names the user gives to body parts, per creature file
 *
 * Body parts are only numbers in a .cha file. Names typed in the inspector are
 * kept in a key file in the user data folder ($XDG_DATA_HOME/tress/
 * body-part-names.ini), one group per creature file (keyed by its URI, or its
 * title for a file not on disk), and come back when the file is opened again.
 * Every view that shows a body part shows its name with it ("5 · left leg"),
 * and follows "changed" (guint part) when one is set.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define TRESS_TYPE_FUR_NAMES (tress_fur_names_get_type ())
G_DECLARE_FINAL_TYPE (TressFurNames, tress_fur_names, TRESS, FUR_NAMES, GObject)

TressFurNames *tress_fur_names_new (const char *file_key);
/* The name of @part, or NULL. */
const char *tress_fur_names_get (TressFurNames *names, guint32 part);
/* Sets (or with NULL/"" removes) a name and writes the key file; FALSE with
 * @error when it cannot be written (the name is still used in this session).
 * Emits "changed" when the name changed. */
gboolean tress_fur_names_set (TressFurNames *names, guint32 part, const char *name, GError **error);
/* "5 · left leg" or "5". */
char *tress_fur_names_label (TressFurNames *names, guint32 part);
/* The parts whose names contain @text (in any case), ascending. */
GArray *tress_fur_names_find (TressFurNames *names, const char *text);
/* The key file's path. */
const char *tress_fur_names_get_path (TressFurNames *names);

G_END_DECLS
