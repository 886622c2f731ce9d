/* fuzz-bfres.c: libFuzzer target for the BFRES reader, raw and Yaz0
 *
 * Each input is parsed as given (FRES, Yaz0 or SARC), and once more wrapped
 * in Yaz0 (literals only), so the decompressor and every container path see
 * fuzzed data. A parsed file goes through validate, describe, dump, every
 * curve's get/set and undo state, and serialize; and its first animation
 * through each whole-animation operation, which refuses with a TRESS_ERROR
 * or leaves bytes that validate and serialize.
 *
 * The custom mutator (fuzz-bfres-mutator.h) reaches inside the containers
 * (Yaz0 inflated and compressed again, one SARC entry put back) and mutates
 * a curve's header or arrays in place.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "../fuzz/tress-fuzz.h"
#include "core/tress-yaz0.h"
#include "formats/bfres/tress-bfres-animops.h"
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

static void
exercise_animops (GBytes *bytes)
{
  for (guint op = 0; op < 8; op++)
    {
      g_autoptr (TressBfres) b = tress_bfres_parse (bytes, "fuzz", NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
      TressBfresAnimInfo info;
      gboolean ok = FALSE;

      if (b == NULL || !tress_bfres_get_anim_info (b, 0, &info))
        return;
      switch (op)
        {
        case 0:
          ok = tress_bfres_retime (b, 0, 2, TRUE, notes, &error);
          break;
        case 1:
          ok = tress_bfres_retime (b, 0, 0.5, TRUE, notes, &error);
          break;
        case 2:
          ok = tress_bfres_retime (b, 0, 3, FALSE, notes, &error);
          break;
        case 3:
          ok = tress_bfres_set_anim_frame_count (b, 0, info.frame_count / 2, TRUE, notes, &error);
          break;
        case 4:
          ok = tress_bfres_set_anim_loop (b, 0, !info.loops, &error);
          break;
        case 5:
          ok = tress_bfres_rename_anim (b, 0, "Fuzz_Renamed", notes, &error);
          break;
        case 6:
          ok = tress_bfres_duplicate_anim (b, 0, "Fuzz_Copy", notes, &error);
          break;
        default:
          ok = tress_bfres_delete_anim (b, 0, notes, &error);
          break;
        }
      if (!ok)
        {
          g_assert (error != NULL && error->domain == TRESS_ERROR);
          continue;
        }
      {
        g_autoptr (GPtrArray) problems = tress_format_bfres.validate (b);
        g_autoptr (GBytes) out = tress_format_bfres.serialize (b, NULL);

        g_assert (problems != NULL);
      }
    }
}

/* @data in a Yaz0 stream of literals only: the container path at the cost
 * of a copy (the real compressor, searching for matches, would cost more
 * than everything else an input does; saving a Yaz0 input runs it anyway). */
static GBytes *
wrap_stored (const uint8_t *data, size_t size)
{
  guint8 *out = g_malloc (TRESS_YAZ0_HEADER_SIZE + size + (size + 7) / 8), *o = out;

  memcpy (o, "Yaz0", 4);
  o[4] = size >> 24, o[5] = size >> 16, o[6] = size >> 8, o[7] = size;
  memset (o + 8, 0, TRESS_YAZ0_HEADER_SIZE - 8);
  o += TRESS_YAZ0_HEADER_SIZE;
  for (size_t at = 0; at < size; at += 8)
    {
      size_t n = MIN (size - at, 8);

      *o++ = 0xFF; /* eight literals */
      memcpy (o, data + at, n);
      o += n;
    }
  return g_bytes_new_take (out, o - out);
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
  exercise_animops (raw);
  dec = tress_yaz0_decompress (data, size, 16u << 20, NULL);
  z = wrap_stored (data, size);
  exercise (z);
  {
    /* The compressor on (a bounded prefix of) the bytes: they come back. */
    gsize n = MIN (size, 1024);
    g_autoptr (GBytes) c = tress_yaz0_compress (data, n, NULL);
    g_autoptr (GBytes) back
        = tress_yaz0_decompress (g_bytes_get_data (c, NULL), g_bytes_get_size (c), n, NULL);

    g_assert (back != NULL && g_bytes_get_size (back) == n
              && memcmp (g_bytes_get_data (back, NULL), data, n) == 0);
  }
  return 0;
}
