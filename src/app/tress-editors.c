/* tress-editors.c: the editors built into Tress
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-editors.h"

#include "curves/tress-curve-editor.h"
#include "fur/tress-fur-editor.h"
#include "tress-editor.h"

void
tress_editors_register_builtin (void)
{
  /* ---- Editors of the formats: one tress_editor_register() call each. ----
   * The fur editor (src/app/fur/) and the curve editor (src/app/curves/) add
   * their calls here, e.g.
   *   tress_editor_register ("cha", tress_fur_editor_new);
   *   tress_editor_register ("bfres", tress_curve_editor_new);
   *   tress_editor_register ("niff", tress_curve_editor_new);
   * A format without a call gets the generic TressInfoView. */
  tress_curve_editor_register (); /* "bfres", "niff" and their curve documents */
  tress_fur_editor_register ();
}
