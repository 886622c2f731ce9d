/* tress-niff-animops.h: operations on whole AnimGroups of a NIFF file
 *
 * Retiming, the end frame, the loop count, renaming, duplicating and deleting
 * one AnimGroup (shared/formats/niff.md). A NIFF animation has no frame count
 * (it lasts until its last key) and stores whole frames (u32) only, so there
 * is no wider frame type to move to: a frame that would not be whole is
 * refused, naming it.
 *
 * Names live in the NameList: a new name is a new NameList element appended
 * after the others (index: one past the highest), since other nodes may share
 * the group's old name; the old element stays.
 *
 * AnimGroups are referred to by their place in the AnimList: objects (word 18)
 * and the NIFF2 IK nodes (ChainRoot, Joint, Effector) name the group they
 * move. A duplicate is appended, so no place changes; deleting a group that
 * nothing refers to moves the later ones down, and the references to them
 * (and their own index fields) follow; a group something refers to is not
 * deleted (the message names who).
 *
 * One operation is one undo step for the editor: serialize the file before
 * and after, and put either back with tress_niff_file_restore(). On failure
 * the file is untouched. Notes (char *, in @notes when not NULL) say what else
 * changed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-niff.h"

G_BEGIN_DECLS

#define TRESS_NIFF_GROUP_NAME_MAX 1024

/* The AnimGroup @spec names: its name, or "#N" (its place, from 0). -1 when
 * none or several do; for several, @candidates (may be NULL) gets the form
 * that names each alone (strings to free). */
int tress_niff_find_group (TressNiffFile *file, const char *spec, GPtrArray *candidates);
/* The shortest form that names AnimGroup @group alone (its name, else "#N"). */
char *tress_niff_dup_group_spec (TressNiffFile *file, guint group);

/* Makes AnimGroup @group play at frame @scale · f what it played at f: key
 * frames (KEY records, NIFF2 channel keys) are multiplied by @scale, and
 * each slope (differential, value per frame) divided by it; interpolation
 * between keys is over the segment's own length, so the values in between
 * follow. A frame that would not be whole is refused. FULL samples (NIFF1
 * records, NIFF2 FULL keys) hold one value a frame: a whole @scale puts the
 * values the group passes through between them (straight lines, as played),
 * any other is refused. STATIC and BILLBOARD groups have nothing to retime. */
gboolean tress_niff_retime (TressNiffFile *file, guint group, double scale, GPtrArray *notes,
                            GError **error);

/* Makes AnimGroup @group end at frame @frame: keys past it are refused,
 * counted, unless @trim, which cuts them, each curve ending with a key at
 * @frame that holds what played there (a segment whose easing has no stored
 * slopes, a NIFF1 SLOW kind, cannot be cut without changing its shape: refused
 * with how much). A group that ends before @frame is refused: NIFF stores no
 * frame count to raise. */
gboolean tress_niff_set_group_end (TressNiffFile *file, guint group, guint32 frame, gboolean trim,
                                   GPtrArray *notes, GError **error);

/* The loop count (0: endless). */
gboolean tress_niff_set_group_loop (TressNiffFile *file, guint group, guint32 loop_count,
                                    GPtrArray *notes, GError **error);

/* Renames @group; refused when another AnimGroup has @name, when the file has
 * no NameList, or for a name that is no UTF-8 text of 1 to
 * TRESS_NIFF_GROUP_NAME_MAX bytes without control characters. */
gboolean tress_niff_rename_group (TressNiffFile *file, guint group, const char *name,
                                  GPtrArray *notes, GError **error);

/* Appends a copy of @group named @name (no object uses it yet). */
gboolean tress_niff_duplicate_group (TressNiffFile *file, guint group, const char *name,
                                     GPtrArray *notes, GError **error);

/* Removes @group (see above). */
gboolean tress_niff_delete_group (TressNiffFile *file, guint group, GPtrArray *notes,
                                  GError **error);

/* Makes @bytes (a NIFF file, e.g. serialized before an operation) the file's
 * model. FALSE with an error, the file untouched, when they do not parse. */
gboolean tress_niff_file_restore (TressNiffFile *file, GBytes *bytes, GError **error);

G_END_DECLS
