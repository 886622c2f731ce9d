/* tress-bfres.c: placeholder registry entry until the bfres parser lands; it
 * recognises no file, so the format is simply unavailable.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-bfres.h"

static gboolean
bfres_probe (const guint8 *data, gsize size)
{
  return FALSE;
}

const TressFormat tress_format_bfres = {
  .id = "bfres",
  .display_name = "BFRES",
  .probe = bfres_probe,
};
