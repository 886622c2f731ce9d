/* tress-error.h: the project's error domain
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define TRESS_ERROR (tress_error_quark ())

typedef enum
{
  TRESS_ERROR_TRUNCATED,   /* a read past the end of the data */
  TRESS_ERROR_BAD_VALUE,   /* a field holds a value the format forbids */
  TRESS_ERROR_BAD_OFFSET,  /* an offset points outside the data or into a loop */
  TRESS_ERROR_BAD_COUNT,   /* a count cannot fit in the bytes that are left */
  TRESS_ERROR_UNSUPPORTED, /* valid data this program does not handle (e.g. Switch BFRES) */
  TRESS_ERROR_UNKNOWN_FORMAT,
  TRESS_ERROR_INVALID, /* the model breaks a rule of the format (validate found errors) */
  TRESS_ERROR_REFUSED, /* an edit the format cannot hold */
  TRESS_ERROR_CHANGED_ON_DISK,
  TRESS_ERROR_FAILED,
} TressError;

GQuark tress_error_quark (void);

/* Sets "FIELD at offset 0xOFFSET: expected EXPECTED, found FOUND" and returns
 * FALSE, so a parser can write `return tress_field_error (…);`. */
gboolean tress_field_error (GError **error, TressError code, gsize offset, const char *field,
                            const char *expected, const char *found_format, ...)
    G_GNUC_PRINTF (6, 7);

G_END_DECLS
