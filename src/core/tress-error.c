/* tress-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-error.h"

GQuark
tress_error_quark (void)
{
  return g_quark_from_static_string ("tress-error-quark");
}
