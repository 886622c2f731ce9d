/* fuzz-niff.c: libFuzzer target for the NIFF reader, writer and curve adapter
 *
 * Whatever parses must validate, describe, dump and serialize; when its header
 * already states the AnimList's true size, the bytes written back are the bytes
 * read. Every curve is built, evaluated, written back unchanged and restored.
 * Then every automatic fix is applied and leaves nothing fixable behind.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <string.h>

#include "formats/niff/tress-niff.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const TressFormat *fmt = &tress_format_niff;
  g_autoptr (GBytes) bytes = g_bytes_new (data, size);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) problems = NULL;
  g_autoptr (GBytes) out = NULL;
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;
  TressNiffFile *file;
  gsize anim_offset = 0, anim_size = 0;
  guint32 header_anim = 0;
  guint n;

  fmt->probe (data, size);
  file = fmt->parse (bytes, "fuzz", &error);
  if (file == NULL)
    {
      g_assert (error != NULL && error->domain == TRESS_ERROR);
      return 0;
    }
  problems = fmt->validate (file);
  text = fmt->describe (file);
  fmt->dump (file, builder);
  root = json_builder_get_root (builder);
  out = fmt->serialize (file, &error);
  g_assert_no_error (error);
  if (size >= 0x50)
    memcpy (&header_anim, data + 0x4C, 4);
  if (!tress_niff_file_get_anim_list_span (file, &anim_offset, &anim_size)
      || GUINT32_FROM_BE (header_anim) == anim_size)
    g_assert (g_bytes_equal (bytes, out));

  n = MIN (fmt->curves->n_curves (file), 64u);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (TressCurve) c = fmt->curves->get_curve (file, i);
      g_autoptr (GBytes) state = fmt->curves->save_state (file, i);
      g_autoptr (GBytes) again = NULL;
      g_autoptr (GError) set_error = NULL;
      double err = 0;

      tress_curve_evaluate (c, 0);
      tress_curve_evaluate (c, c->frame_count / 2);
      if (fmt->curves->set_curve (file, i, c, &err, &set_error))
        g_assert (err == 0);
      fmt->curves->restore_state (file, i, state);
      again = fmt->serialize (file, NULL);
      g_assert (g_bytes_equal (again, out));
    }

  /* Every fix offered is applied, and what is written reads back without one. */
  {
    g_autoptr (GPtrArray) left = NULL;
    g_autoptr (GBytes) fixed = NULL;
    g_autoptr (GError) fix_error = NULL;
    TressNiffFile *again;

    fmt->fix_all (file, NULL, &fix_error);
    g_assert_no_error (fix_error);
    left = fmt->validate (file);
    for (guint i = 0; i < left->len; i++)
      g_assert (((TressProblem *)g_ptr_array_index (left, i))->fix == NULL);
    fixed = fmt->serialize (file, &fix_error);
    g_assert_no_error (fix_error);
    again = fmt->parse (fixed, "fuzz", &fix_error);
    g_assert_no_error (fix_error);
    fmt->free (again);
  }
  fmt->free (file);
  return 0;
}
