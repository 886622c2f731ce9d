/* cha-test.h: small helpers shared by the cha test programs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>

#include "formats/cha/tress-cha-demo.h"
#include "formats/cha/tress-cha-edit.h"
#include "formats/cha/tress-cha-model.h"
#include "formats/cha/tress-cha-private.h"
#include "tress-test-utils.h"

/* A small creature: @n_ribbons ribbons, the default shape otherwise. */
static inline TressChaFile *
cha_test_small (guint n_ribbons)
{
  TressChaDemoOptions o;

  tress_cha_demo_options_init (&o);
  o.n_ribbons = n_ribbons;
  return tress_cha_demo_generate (&o);
}

static inline TressChaFile *
cha_test_parse (GBytes *bytes)
{
  g_autoptr (GError) error = NULL;
  TressChaFile *file = tress_cha_file_parse (bytes, &error);

  g_assert_no_error (error);
  g_assert_nonnull (file);
  return file;
}

/* serialize → parse: the model as a reader of the file would see it */
static inline TressChaFile *
cha_test_reparse (const TressChaFile *file)
{
  g_autoptr (GBytes) bytes = tress_cha_file_serialize (file);

  return cha_test_parse (bytes);
}

static inline guint
cha_test_count (GPtrArray *problems, TressSeverity min)
{
  return tress_problem_list_count (problems, min);
}

/* Prints the problems (for failing assertions). */
static inline void
cha_test_print_problems (GPtrArray *problems)
{
  for (guint i = 0; i < problems->len; i++)
    {
      g_autofree char *s = tress_problem_to_string (g_ptr_array_index (problems, i));
      g_test_message ("%s", s);
    }
}

static inline guint32
cha_test_u32_at (GBytes *bytes, gsize offset)
{
  gsize size;
  const guint8 *d = g_bytes_get_data (bytes, &size);

  g_assert_cmpuint (offset + 4, <=, size);
  return (guint32)d[offset] | (guint32)d[offset + 1] << 8 | (guint32)d[offset + 2] << 16
         | (guint32)d[offset + 3] << 24;
}
