/* tress-niff.c: placeholder registry entry until the niff parser lands; it
 * recognises no file, so the format is simply unavailable.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-niff.h"

static gboolean
niff_probe (const guint8 *data, gsize size)
{
  return FALSE;
}

const TressFormat tress_format_niff = {
  .id = "niff",
  .display_name = "NIFF",
  .probe = niff_probe,
};
