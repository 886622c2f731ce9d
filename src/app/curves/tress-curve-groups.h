/* tress-curve-groups.h: the curves' paths as groups, and which groups are open, without GTK
 *
 * A curve's path names its place ("Wait/Hip/Rotate X": an animation, a bone,
 * a channel). The channel list and the dope sheet both show the shown curves
 * as groups of these path levels, which the user opens and closes; the
 * state is one TressCurveGroups, shared by both through the graph
 * (tress_curve_view_get_groups), so a bone opened in one is open in the
 * other. A group is known by its key: its path up to and with its level
 * ("Wait/Hip"). A group nobody opened or closed takes the default its list
 * gives (open when few curves are shown).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* ---------------------------------------------------------------- paths -- */

/* The @level-th '/'-separated part of @path (its length in *len), or NULL. */
const char *tress_curve_path_part (const char *path, guint level, gsize *len);
/* Whether the curve's name starts at @level: its last part, or the last two
 * when the last is only a component ("RotateX/X"). */
gboolean tress_curve_path_is_leaf (const char *path, guint level);
/* Whether @a and @b have the same part at @level. */
gboolean tress_curve_path_same_part (const char *a, const char *b, guint level);
/* The key of the group of @path at @level: its path up to and with that
 * level. A new string. */
char *tress_curve_path_group_key (const char *path, guint level);
/* The path levels every one of @paths shares above its leaf (left out of
 * the rows). */
guint tress_curve_paths_common_levels (const char *const *paths, guint n);

/* --------------------------------------------------------------- groups -- */

#define TRESS_TYPE_CURVE_GROUPS (tress_curve_groups_get_type ())
G_DECLARE_FINAL_TYPE (TressCurveGroups, tress_curve_groups, TRESS, CURVE_GROUPS, GObject)

TressCurveGroups *tress_curve_groups_new (void);
/* Whether the group @key is open; @fallback when nobody said. */
gboolean tress_curve_groups_get_open (TressCurveGroups *self, const char *key, gboolean fallback);
/* Opens or closes the group @key; emits "changed" when that changes it. */
void tress_curve_groups_set_open (TressCurveGroups *self, const char *key, gboolean open);

/* Signals: "changed" (no arguments) when a group opens or closes. */

G_END_DECLS
