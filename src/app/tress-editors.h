/* tress-editors.h: registration of the built-in editors (called from start-up)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void tress_editors_register_builtin (void);

G_END_DECLS
