/* tress-cha.c: placeholder registry entry until the cha parser lands; it
 * recognises no file, so the format is simply unavailable.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-cha.h"

static gboolean
cha_probe (const guint8 *data, gsize size)
{
  return FALSE;
}

const TressFormat tress_format_cha = {
  .id = "cha",
  .display_name = "CHA",
  .probe = cha_probe,
};
