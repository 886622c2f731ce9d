/* tress-bfres.h: the bfres format's entry in the registry
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "formats/tress-format.h"

G_BEGIN_DECLS

extern const TressFormat tress_format_bfres;

G_END_DECLS
