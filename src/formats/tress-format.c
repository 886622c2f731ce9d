/* tress-format.c: the format registry
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-format.h"

#include <string.h>

#include "bfres/tress-bfres.h"
#include "cha/tress-cha.h"
#include "niff/tress-niff.h"

#define MAX_FORMATS 16

static const TressFormat *all_formats[MAX_FORMATS + 1] = {
  &tress_format_cha,
  &tress_format_bfres,
  &tress_format_niff,
  NULL,
};

void
tress_formats_register (const TressFormat *format)
{
  guint n = 0;

  while (all_formats[n] != NULL)
    {
      if (all_formats[n] == format)
        return;
      n++;
    }
  g_return_if_fail (n < MAX_FORMATS);
  all_formats[n] = format;
  all_formats[n + 1] = NULL;
}

const TressFormat *const *
tress_formats_get_all (void)
{
  return (const TressFormat *const *)all_formats;
}

const TressFormat *
tress_format_lookup (const char *id)
{
  for (guint i = 0; all_formats[i] != NULL; i++)
    if (g_strcmp0 (all_formats[i]->id, id) == 0)
      return all_formats[i];
  return NULL;
}

const TressFormat *
tress_format_detect (const guint8 *data, gsize size, GError **error)
{
  for (guint i = 0; all_formats[i] != NULL; i++)
    if (all_formats[i]->probe != NULL && all_formats[i]->probe (data, size))
      return all_formats[i];

  if (size < 4)
    g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNKNOWN_FORMAT,
                 "Unknown file format: the file holds only %" G_GSIZE_FORMAT " bytes", size);
  else
    g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNKNOWN_FORMAT,
                 "Unknown file format: the first bytes %02X %02X %02X %02X match no creature fur "
                 "(.cha), BFRES (.bfres, .sbfres, .szs) or NIFF (.niff, .nif) file",
                 data[0], data[1], data[2], data[3]);
  return NULL;
}

void
tress_store_cost_clear (TressStoreCost *cost)
{
  g_clear_pointer (&cost->type, g_free);
  g_clear_pointer (&cost->wide_type, g_free);
}

gboolean
tress_store_cost_is_lossy (const TressStoreCost *cost)
{
  /* A hair over half a step is the rounding of the step itself. */
  return cost->moved > cost->tolerance * (1 + 1e-6) + 1e-12;
}

char *
tress_notice_render (const char *notice, double scale, const char *unit)
{
  GString *out;
  const char *p;

  if (notice == NULL)
    return NULL;
  out = g_string_new (NULL);
  for (p = notice; *p != '\0';)
    {
      const char *end;
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      if (*p != '\x1f' || (end = strchr (p + 1, '\x1f')) == NULL)
        {
          g_string_append_c (out, *p++);
          continue;
        }
      g_ascii_formatd (buf, sizeof buf, "%.3g", g_ascii_strtod (p + 1, NULL) * scale);
      g_string_append (out, buf);
      g_string_append (out, unit != NULL ? unit : "");
      p = end + 1;
    }
  return g_string_free (out, FALSE);
}
