/* tress-curve-clipboard.h: copied keys, and where a paste puts them
 *
 * The keys Ctrl+C copies in the curve editor (the graph and the dope sheet
 * share one clipboard), with their channels' layout: each copied curve is
 * kept with its bone (its path less the last level, "Walk/Hip") and its
 * channel (the last level, "Rotate X"), its keys' frames relative to the
 * earliest key copied.
 *
 * A paste maps the copied curves onto target curves:
 * - one copied curve onto one target curve: whatever their channels;
 * - otherwise channel by name (Rotate X onto Rotate X), bone by bone: the
 *   keys of one copied bone go onto every target bone; several copied bones
 *   go onto the target bones of the same names, else, as many target bones as
 *   copied ones, in order;
 * - a copied channel a target bone lacks refuses the whole paste, naming
 *   the bone and the channels (nothing is pasted in part).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "core/tress-curve.h"

G_BEGIN_DECLS

#define TRESS_TYPE_CURVE_CLIPBOARD (tress_curve_clipboard_get_type ())
G_DECLARE_FINAL_TYPE (TressCurveClipboard, tress_curve_clipboard, TRESS, CURVE_CLIPBOARD, GObject)

TressCurveClipboard *tress_curve_clipboard_new (void);
/* The one every curve view shares (keys copy across documents too). */
TressCurveClipboard *tress_curve_clipboard_get_default (void);

/* Replaces the content by the keys @keys (@n, in frame order) of the curves
 * @paths (@n_curves of them; n[i] keys each, laid one after another in
 * @keys). Curves without keys are left out. Emits "changed". */
void tress_curve_clipboard_set (TressCurveClipboard *self, const char *const *paths, const guint *n,
                                guint n_curves, const TressKey *keys);
void tress_curve_clipboard_clear (TressCurveClipboard *self);

gboolean tress_curve_clipboard_is_empty (TressCurveClipboard *self);
guint tress_curve_clipboard_get_n_curves (TressCurveClipboard *self);
guint tress_curve_clipboard_get_n_keys (TressCurveClipboard *self);
/* The frame the earliest copied key came from. */
double tress_curve_clipboard_get_first_frame (TressCurveClipboard *self);
/* Copied curve @i: its path and keys (frames relative to the first frame). */
const char *tress_curve_clipboard_get_path (TressCurveClipboard *self, guint i);
const TressKey *tress_curve_clipboard_get_keys (TressCurveClipboard *self, guint i, guint *n);

/* Where a paste onto the curves @paths (@n_targets) goes: for each target,
 * the copied curve pasted onto it or -1, in @map (n_targets ints). Returns
 * how many keys land; 0 with @error set when the paste is refused (nothing
 * to paste, bones that do not match, channels a target bone lacks). With
 * @onto, the target bones' names for a label ("Leg_2_R", "Leg_2_R, Leg_2_L"
 * or "5 bones"). */
guint tress_curve_clipboard_map (TressCurveClipboard *self, const char *const *paths,
                                 guint n_targets, int *map, char **onto, GError **error);

/* The bone part of @path ("Walk/Hip" of "Walk/Hip/Rotate X"; "" without a
 * '/') and its channel part ("Rotate X"), newly allocated. */
char *tress_curve_path_dup_bone (const char *path);
char *tress_curve_path_dup_channel (const char *path);

G_END_DECLS
