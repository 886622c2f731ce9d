/* fuzz-cha.c: libFuzzer target for the creature-fur parser
 *
 * Whatever the bytes, parse gives an error or a model; a model validates,
 * writes back exactly the bytes it came from, and survives every fix.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/cha/tress-cha-edit.h"
#include "formats/cha/tress-cha-model.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressChaFile) file = tress_cha_file_parse (bytes, &error);
  g_autoptr (GBytes) again = NULL;
  g_autoptr (GPtrArray) problems = NULL;
  g_autoptr (TressChaFile) fixed = NULL;

  if (file == NULL)
    {
      if (error == NULL || error->domain != TRESS_ERROR || error->message == NULL)
        abort ();
      return 0;
    }
  problems = tress_cha_file_validate (file);
  again = tress_cha_file_serialize (file);
  if (!g_bytes_equal (bytes, again))
    abort (); /* open → save must give the same bytes */

  fixed = tress_cha_file_copy (file);
  tress_cha_fix_all (fixed, NULL, NULL);
  {
    g_autoptr (GBytes) out = tress_cha_file_serialize (fixed);
    g_autoptr (TressChaFile) back = tress_cha_file_parse (out, NULL);
    if (back == NULL)
      abort (); /* a fixed file always reads back */
  }
  return 0;
}
