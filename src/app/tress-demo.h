/* tress-demo.h: the demo files compiled into the application
 *
 * The build runs `tress-cli generate-demo FMT -o OUT` for every format listed in
 * src/app/demo/meson.build and stores the results in the GResource under
 * /io/github/tress/Tress/demo/. A format whose generator is not available yet
 * leaves an empty entry, which is skipped here.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "document/tress-document.h"

G_BEGIN_DECLS

#define TRESS_DEMO_RESOURCE_PATH "/io/github/tress/Tress/demo/"

/* Names of the non-empty demo files ("demo.cha", …), sorted; NULL-terminated. */
char **tress_demo_list (void);
/* A new document (without file) holding the demo file @name. */
TressDocument *tress_demo_open (const char *name, GError **error);

G_END_DECLS
