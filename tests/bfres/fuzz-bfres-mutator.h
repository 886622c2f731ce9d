/* fuzz-bfres-mutator.h: the BFRES fuzz targets' structure-aware mutator
 *
 * Included once by each BFRES target (fuzz-bfres.c, fuzz-bfres-model.c). It
 * reaches inside the containers: a Yaz0 input is inflated, mutated and
 * compressed again; a SARC has one entry mutated (inside its Yaz0, if any)
 * and put back; a plain BFRES half of the time has one curve's header or
 * arrays mutated in place (their sizes and offsets stay true).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "../fuzz/tress-fuzz.h"
#include "core/tress-yaz0.h"
#include "formats/bfres/tress-bfres.h"
#include "formats/bfres/tress-sarc.h"

/* @bytes mutated: a Yaz0 stream's inside, a SARC entry, or plain bytes. */
static GBytes *mutate_bytes (GBytes *bytes, size_t max_size, guint32 *state, guint depth);

static GBytes *
mutate_plain (GBytes *bytes, size_t max_size)
{
  gsize size = g_bytes_get_size (bytes);
  gsize cap = MAX (size, MIN (max_size, 2 * size + 64));
  guint8 *buf = g_malloc (cap + 1);
  size_t n;

  memcpy (buf, g_bytes_get_data (bytes, NULL), size);
  n = LLVMFuzzerMutate (buf, size, cap);
  return g_bytes_new_take (buf, n);
}

static GBytes *
mutate_yaz0 (GBytes *bytes, size_t max_size, guint32 *state, guint depth)
{
  gsize size = 0;
  const guint8 *d = g_bytes_get_data (bytes, &size);
  g_autoptr (GBytes) inner = tress_yaz0_decompress (d, size, 1u << 20, NULL);
  g_autoptr (GBytes) changed = NULL;

  if (inner == NULL)
    return mutate_plain (bytes, max_size);
  /* The inside may grow: compression gives some room back. */
  changed = mutate_bytes (inner, 2 * MAX (max_size, size), state, depth + 1);
  return tress_yaz0_compress (g_bytes_get_data (changed, NULL), g_bytes_get_size (changed), d + 8);
}

static GBytes *
mutate_sarc (GBytes *bytes, size_t max_size, guint32 *state, guint depth)
{
  g_autoptr (TressSarc) sarc = tress_sarc_parse (bytes, NULL);
  g_autoptr (GBytes) entry = NULL, changed = NULL;
  GBytes *out;
  guint i;

  if (sarc == NULL || tress_sarc_get_n_files (sarc) == 0)
    return mutate_plain (bytes, max_size);
  i = tress_fuzz_next (state) % tress_sarc_get_n_files (sarc);
  entry = tress_sarc_get_file (sarc, i);
  changed = mutate_bytes (entry, max_size, state, depth + 1);
  out = tress_sarc_replace_file (sarc, i, changed, NULL);
  return out != NULL ? out : mutate_plain (bytes, max_size);
}

/* One curve's header, frame array or key array mutated in place. */
static GBytes *
mutate_curve (GBytes *bytes, size_t max_size, guint32 *state)
{
  g_autoptr (TressBfres) b = tress_bfres_parse (bytes, "mutate", NULL);
  TressBfresCurveInfo info;
  gsize size = 0;
  guint8 *d;
  gsize at, len;
  guint n;

  if (b == NULL || (n = tress_bfres_get_n_curves (b)) == 0
      || !tress_bfres_get_curve_info (b, tress_fuzz_next (state) % n, &info))
    return mutate_plain (bytes, max_size);
  d = g_memdup2 (g_bytes_get_data (bytes, &size), g_bytes_get_size (bytes));
  switch (tress_fuzz_next (state) % 3)
    {
    case 0:
      at = info.header_pos, len = 0x24;
      break;
    case 1:
      at = info.frames_pos, len = 4 * (gsize)MAX (info.n_keys, 1);
      break;
    default:
      at = info.keys_pos, len = 4 * (gsize)MAX (info.n_keys, 1);
      break;
    }
  if (at < size)
    tress_fuzz_mutate_region (d, at, MIN (len, size - at));
  return g_bytes_new_take (d, size);
}

static GBytes *
mutate_bytes (GBytes *bytes, size_t max_size, guint32 *state, guint depth)
{
  gsize size = 0;
  const guint8 *d = g_bytes_get_data (bytes, &size);
  gboolean structured = depth < 3 && tress_fuzz_next (state) % 4 != 0;

  if (structured && tress_yaz0_is_compressed (d, size))
    return mutate_yaz0 (bytes, max_size, state, depth);
  if (structured && tress_sarc_probe (d, size))
    return mutate_sarc (bytes, max_size, state, depth);
  if (structured && size >= 4 && memcmp (d, "FRES", 4) == 0 && tress_fuzz_next (state) % 2)
    return mutate_curve (bytes, max_size, state);
  return mutate_plain (bytes, max_size);
}

size_t
LLVMFuzzerCustomMutator (uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
  g_autoptr (GBytes) in = g_bytes_new (data, size);
  g_autoptr (GBytes) out = NULL;
  guint32 state = seed;

  out = mutate_bytes (in, max_size, &state, 0);
  if (out == NULL || g_bytes_get_size (out) > max_size)
    return LLVMFuzzerMutate (data, size, max_size);
  memcpy (data, g_bytes_get_data (out, NULL), g_bytes_get_size (out));
  return g_bytes_get_size (out);
}
