/* fuzz-replay.c: runs a fuzz target over files and folders given on the command
 * line (each file once, whole), so every `meson test` exercises the targets on
 * their seed corpus and on past crashers without libFuzzer. A target with a
 * custom mutator also runs on REPLAY_MUTATIONS mutations of each file, made
 * by that mutator with the plain LLVMFuzzerMutate() below (deterministic:
 * the same files give the same runs).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-fuzz.h"

#define REPLAY_MUTATIONS 16

/* Defined by the targets that have one. */
size_t LLVMFuzzerCustomMutator (uint8_t *data, size_t size, size_t max_size, unsigned int seed)
    __attribute__ ((weak));

static guint n_run;
static guint32 mutate_state = 1;

/* A stand-in for libFuzzer's mutation: a few bytes changed, and sometimes
 * some inserted or dropped. */
size_t
LLVMFuzzerMutate (uint8_t *data, size_t size, size_t max_size)
{
  guint n = 1 + tress_fuzz_next (&mutate_state) % 4;

  for (guint i = 0; i < n && size > 0; i++)
    {
      size_t at = tress_fuzz_next (&mutate_state) % size;

      switch (tress_fuzz_next (&mutate_state) % 4)
        {
        case 0:
          data[at] ^= (uint8_t)(1u << (tress_fuzz_next (&mutate_state) % 8));
          break;
        case 1:
          data[at] = (uint8_t)tress_fuzz_next (&mutate_state);
          break;
        case 2:
          if (size < max_size)
            {
              memmove (data + at + 1, data + at, size - at);
              data[at] = (uint8_t)tress_fuzz_next (&mutate_state);
              size++;
            }
          break;
        default:
          memmove (data + at, data + at + 1, size - at - 1);
          size--;
          break;
        }
    }
  return size;
}

static void
run_mutations (const guint8 *contents, gsize len)
{
  gsize max_size = 2 * len + 64;
  g_autofree guint8 *buf = g_malloc (max_size);

  for (guint k = 0; k < REPLAY_MUTATIONS; k++)
    {
      size_t n;

      memcpy (buf, contents, len);
      mutate_state = (guint32)(len * 2654435761u + k);
      n = LLVMFuzzerCustomMutator (buf, len, max_size, (unsigned int)(k * 7919 + len));
      g_assert (n <= max_size);
      LLVMFuzzerTestOneInput (buf, n);
      n_run++;
    }
}

static void
run_path (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          run_path (child);
        }
      return;
    }
  else
    {
      g_autofree char *contents = NULL;
      gsize len = 0;

      if (!g_file_get_contents (path, &contents, &len, NULL))
        return;
      LLVMFuzzerTestOneInput ((const uint8_t *)contents, len);
      n_run++;
      if (LLVMFuzzerCustomMutator != NULL && len > 0)
        run_mutations ((const guint8 *)contents, len);
    }
}

int
main (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    run_path (argv[i]);
  /* Plain closing line: every input ran without a crash. */
  g_print ("%u passed, 0 failed\n", n_run);
  return n_run > 0 ? 0 : 1;
}
