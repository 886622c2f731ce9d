/* tress-fuzz.h: what the fuzz targets share
 *
 * A target defines LLVMFuzzerTestOneInput() and, where plain byte flips
 * cannot get past the format's outer checks (a Yaz0 stream, section and list
 * sizes, JSON syntax), LLVMFuzzerCustomMutator(), which mutates the inside
 * and keeps the outside consistent. LLVMFuzzerMutate() is libFuzzer's own
 * mutation in fuzzing builds, a simple one of fuzz-replay.c otherwise (so
 * that every `meson test` runs the custom mutators too).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator (uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerMutate (uint8_t *data, size_t size, size_t max_size);

/* Mutates @len bytes at @at in place, keeping the length: the sizes and
 * counts around them stay true. */
static inline void
tress_fuzz_mutate_region (uint8_t *data, size_t at, size_t len)
{
  guint8 *copy;
  size_t n;

  if (len == 0)
    return;
  copy = g_malloc (len);
  memcpy (copy, data + at, len);
  n = LLVMFuzzerMutate (copy, len, len);
  memcpy (data + at, copy, MIN (n, len));
  g_free (copy);
}

/* A small generator for the mutators' choices, from libFuzzer's seed. */
static inline guint32
tress_fuzz_next (guint32 *state)
{
  *state = *state * 1664525u + 1013904223u;
  return *state >> 8;
}
