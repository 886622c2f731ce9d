/* tress-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-error.h"

G_DEFINE_QUARK (tress - error - quark, tress_error)
