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

gboolean
tress_field_error (GError **error, TressError code, gsize offset, const char *field,
                   const char *expected, const char *found_format, ...)
{
  g_autofree char *found = NULL;
  va_list args;

  va_start (args, found_format);
  found = g_strdup_vprintf (found_format, args);
  va_end (args);
  g_set_error (error, TRESS_ERROR, code,
               "%s at offset 0x%" G_GSIZE_MODIFIER "x: expected %s, found %s", field, offset,
               expected, found);
  return FALSE;
}
