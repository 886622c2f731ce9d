/* fuzz-bfres.c: libFuzzer target for the BFRES reader, raw and Yaz0
 *
 * Each input is parsed as given (FRES, Yaz0 or SARC), and once more wrapped
 * in Yaz0, so the decompressor and every container path see fuzzed data. A
 * parsed file goes through validate, describe, dump, every curve's get/set and
 * undo state, and serialize.
 *
 * The custom mutator (fuzz-bfres-mutator.h) reaches inside the containers
 * (Yaz0 inflated and compressed again, one SARC entry put back) and mutates
 * a curve's header or arrays in place.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "../fuzz/tress-fuzz.h"
#include "core/tress-yaz0.h"
#include "formats/bfres/tress-bfres.h"
#include "formats/bfres/tress-sarc.h"
#include "fuzz-bfres-mutator.h"

static void
exercise (GBytes *bytes)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TressBfres) b = tress_bfres_parse (bytes, "fuzz", &error);
  const TressCurveOps *ops = tress_format_bfres.curves;

  if (b == NULL)
    {
      g_assert (error != NULL && error->domain == TRESS_ERROR);
      return;
    }
  {
    g_autoptr (GPtrArray) problems = tress_format_bfres.validate (b);
    g_autofree char *text = tress_format_bfres.describe (b);
    g_autoptr (TressJsonWriter) jw = tress_json_writer_new ();
    tress_format_bfres.dump (b, jw);
    g_assert (problems != NULL && text != NULL);
  }
  for (guint i = 0; i < ops->n_curves (b) && i < 64; i++)
    {
      g_autoptr (TressCurve) curve = ops->get_curve (b, i);
      g_autoptr (GBytes) state = ops->save_state (b, i);
      g_autoptr (GError) set_error = NULL;
      double err = 0;

      (void)tress_bfres_evaluate (b, i, 1.5);
      if (ops->set_curve (b, i, curve, &err, &set_error))
        ops->restore_state (b, i, state);
    }
  {
    g_autoptr (GBytes) out = tress_format_bfres.serialize (b, NULL);
    (void)out;
  }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GBytes) raw = g_bytes_new (data, size);
  g_autoptr (GBytes) z = NULL;
  g_autoptr (GBytes) dec = NULL;

  if (size > (4u << 20))
    return 0;
  (void)tress_format_bfres.probe (data, size);
  exercise (raw);
  dec = tress_yaz0_decompress (data, size, 16u << 20, NULL);
  z = tress_yaz0_compress (data, size, NULL);
  exercise (z);
  return 0;
}
