/* bench-budget.c: what damaged files cost, against what their size allows
 *
 * Every format's files (the shared samples and the demo generators' output)
 * are damaged many ways: cut at many lengths, and one to three aligned u32
 * fields set to values that matter to a reader (0, 1, 2, 0xFF, 0xFFFF,
 * 0x7FFFFFFF, 0xFFFFFFFF, a random count, a random self-relative offset),
 * both byte orders. Each damaged file is parsed, validated and described as
 * tress-cli validate / info do, and measured:
 *
 *   - heap: the peak of live heap bytes during that work above what was live
 *     before (the file's own bytes excluded), less 64 KiB, as a multiple of
 *     the file size, through a counting malloc in this program;
 *   - time: CPU time against the same work on the undamaged file (at least
 *     0.2 ms: a clock tick is a large part of a tiny file's time).
 *
 * The worst case of each format is printed with what it was. The budgets the
 * formats promise: heap at most 3x the file + a constant (4x with the file's
 * own bytes), time linear in the file.
 *
 *   meson test -C build --benchmark --suite budget -v
 *   build/tests/bench-budget [N_DAMAGES_PER_FILE]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "formats/bfres/tress-bfres-builder.h"
#include "formats/cha/tress-cha-demo.h"
#include "formats/niff/tress-niff.h"
#include "formats/tress-format.h"
#include "tress-test-utils.h"

/* ---- a counting allocator ------------------------------------------------ */

extern void *__libc_malloc (size_t size);
extern void *__libc_calloc (size_t n, size_t size);
extern void *__libc_realloc (void *p, size_t size);
extern void *__libc_memalign (size_t align, size_t size);
extern void __libc_free (void *p);

static gsize live, peak;

static inline void
count_add (void *p)
{
  if (p != NULL)
    {
      live += malloc_usable_size (p);
      if (live > peak)
        peak = live;
    }
}

static inline void
count_sub (void *p)
{
  if (p != NULL)
    live -= MIN (live, malloc_usable_size (p));
}

void *
malloc (size_t size)
{
  void *p = __libc_malloc (size);
  count_add (p);
  return p;
}

void *
calloc (size_t n, size_t size)
{
  void *p = __libc_calloc (n, size);
  count_add (p);
  return p;
}

void *
realloc (void *old, size_t size)
{
  void *p;

  count_sub (old);
  p = __libc_realloc (old, size);
  count_add (p != NULL ? p : (size == 0 ? NULL : old));
  return p;
}

void *
memalign (size_t align, size_t size)
{
  void *p = __libc_memalign (align, size);
  count_add (p);
  return p;
}

void *
aligned_alloc (size_t align, size_t size)
{
  return memalign (align, size);
}

int
posix_memalign (void **out, size_t align, size_t size)
{
  void *p = __libc_memalign (align, size);
  if (p == NULL)
    return 12; /* ENOMEM */
  count_add (p);
  *out = p;
  return 0;
}

void
free (void *p)
{
  count_sub (p);
  __libc_free (p);
}

/* ---- damage ---------------------------------------------------------------- */

/* The constant part of the budgets (tables of fixed size, a scratch buffer). */
#define CONSTANT (64 * 1024)

typedef struct
{
  const char *name;
  GBytes *bytes;
} Input;

typedef struct
{
  double heap_ratio;
  double time_ratio;
  char heap_case[160];
  char time_case[160];
  guint n_cases, n_parsed;
} Worst;

static void
put32 (guint8 *d, gsize at, guint32 v, gboolean big)
{
  if (big)
    d[at] = v >> 24, d[at + 1] = v >> 16, d[at + 2] = v >> 8, d[at + 3] = v;
  else
    d[at] = v, d[at + 1] = v >> 8, d[at + 2] = v >> 16, d[at + 3] = v >> 24;
}

static guint32
interesting (GRand *rand, gsize at, gsize size)
{
  static const guint32 values[]
      = { 0, 1, 2, 3, 0x10, 0xFF, 0x100, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF };
  guint k = g_rand_int_range (rand, 0, G_N_ELEMENTS (values) + 3);

  if (k < G_N_ELEMENTS (values))
    return values[k];
  if (k == G_N_ELEMENTS (values))
    return g_rand_int (rand);
  if (k == G_N_ELEMENTS (values) + 1)
    return (guint32)g_rand_int_range (rand, 0, (gint32)MIN (size, G_MAXINT32));
  /* Self-relative: to somewhere else in the file. */
  return (guint32)((gint64)g_rand_int_range (rand, 0, (gint32)MIN (size, G_MAXINT32)) - (gint64)at);
}

/* Microseconds of this thread's CPU: a busy machine adds less noise than to
 * wall time. */
static gint64
cpu_usec (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Parse, validate, describe: what tress-cli validate and info do. Returns
 * whether it parsed; @usec and @heap what it took. */
static gboolean
work (const guint8 *data, gsize size, gint64 *usec, gsize *heap)
{
  g_autoptr (GBytes) bytes = g_bytes_new (data, size);
  const TressFormat *format;
  gpointer model;
  gsize before;
  gint64 t0;

  before = live;
  peak = live;
  t0 = cpu_usec ();
  format = tress_format_detect (data, size, NULL);
  model = format != NULL ? format->parse (bytes, "bench", NULL) : NULL;
  if (model != NULL)
    {
      GPtrArray *problems = format->validate != NULL ? format->validate (model) : NULL;
      char *text = format->describe != NULL ? format->describe (model) : NULL;

      g_free (text);
      if (problems != NULL)
        g_ptr_array_unref (problems);
      format->free (model);
    }
  *usec = cpu_usec () - t0;
  *heap = peak - before;
  return model != NULL;
}

static gint64
clean_time (const Input *in)
{
  gint64 best = G_MAXINT64;
  gsize heap;

  for (guint r = 0; r < 5; r++)
    {
      gint64 t;

      work (g_bytes_get_data (in->bytes, NULL), g_bytes_get_size (in->bytes), &t, &heap);
      best = MIN (best, t);
    }
  /* A floor: below it a clock tick is a large part of a tiny file's time. */
  return MAX (best, 200);
}

static void
measure (const Input *in, const guint8 *d, gsize size, gsize file_size, gint64 clean,
         const char *what, Worst *w)
{
  gint64 t = 0;
  gsize heap = 0;
  double hr, tr;

  w->n_cases++;
  w->n_parsed += work (d, size, &t, &heap);
  /* Beyond the constant part: what grows with the file. */
  hr = (double)(heap > CONSTANT ? heap - CONSTANT : 0) / (double)file_size;
  tr = (double)t / (double)clean;
  if (hr > w->heap_ratio)
    {
      w->heap_ratio = hr;
      g_snprintf (w->heap_case, sizeof w->heap_case, "%s (%" G_GSIZE_FORMAT " bytes) %s (%.2f MB)",
                  in->name, file_size, what, heap / 1e6);
    }
  /* A slow moment of the machine makes one run slow: a case counts as slow
   * only if it is slow again. */
  if (tr > w->time_ratio && tr > 2)
    {
      gint64 again = 0;

      work (d, size, &again, &heap);
      tr = MIN (tr, (double)again / (double)clean);
    }
  if (tr > w->time_ratio)
    {
      w->time_ratio = tr;
      g_snprintf (w->time_case, sizeof w->time_case, "%s %s (%.2f ms, clean %.2f ms)", in->name,
                  what, t / 1000.0, clean / 1000.0);
    }
}

static void
damage (const Input *in, guint n, Worst *w)
{
  gsize size = g_bytes_get_size (in->bytes);
  const guint8 *orig = g_bytes_get_data (in->bytes, NULL);
  g_autofree guint8 *d = g_memdup2 (orig, size);
  GRand *rand = g_rand_new_with_seed (0x7e55 ^ (guint32)size);
  gint64 clean = clean_time (in);

  /* Cuts: at 64 evenly spread lengths and at the first 64 bytes. */
  for (guint i = 0; i < 128 && size > 0; i++)
    {
      gsize len = i < 64 ? i : (size * (i - 64)) / 64;
      char what[64];

      g_snprintf (what, sizeof what, "cut to %" G_GSIZE_FORMAT " bytes", len);
      measure (in, orig, len, size, clean, what, w);
    }
  for (guint i = 0; i < n && size >= 8; i++)
    {
      GString *what = g_string_new (NULL);
      guint fields = g_rand_int_range (rand, 1, 4);
      gboolean big = g_rand_boolean (rand);
      /* Most structure sits near the start: half the fields there. */
      gsize span = g_rand_boolean (rand) ? MIN (size, 4096) : size;

      for (guint f = 0; f < fields; f++)
        {
          gsize at = (gsize)g_rand_int_range (rand, 0, (gint32)((span - 4) / 4 + 1)) * 4;
          guint32 v = interesting (rand, at, size);

          put32 (d, at, v, big);
          g_string_append_printf (what, "%s0x%" G_GSIZE_MODIFIER "X=0x%08X", f ? " " : "", at, v);
        }
      g_string_append (what, big ? " (BE)" : " (LE)");
      measure (in, d, size, size, clean, what->str, w);
      memcpy (d, orig, size);
      g_string_free (what, TRUE);
    }
  g_rand_free (rand);
}

static void
add_sample (GPtrArray *inputs, const char *rel)
{
  const char *dir = g_getenv ("TRESS_SAMPLES_DIR");
  g_autofree char *path = dir != NULL ? g_build_filename (dir, rel, NULL) : NULL;
  char *contents = NULL;
  gsize len = 0;
  Input *in;

  if (path == NULL || !g_file_get_contents (path, &contents, &len, NULL))
    return;
  in = g_new0 (Input, 1);
  in->name = g_path_get_basename (rel);
  in->bytes = g_bytes_new_take (contents, len);
  g_ptr_array_add (inputs, in);
}

static void
add_bytes (GPtrArray *inputs, const char *name, GBytes *bytes)
{
  Input *in;

  if (bytes == NULL)
    return;
  in = g_new0 (Input, 1);
  in->name = g_strdup (name);
  in->bytes = bytes;
  g_ptr_array_add (inputs, in);
}

int
main (int argc, char **argv)
{
  static const char *const samples[] = {
    "bfres/Animal_Dog_Animation.bfres",
    "bfres/Animal_Bass_Animation.bfres",
    "bfres/Animal_Bass_Animation.sbfres",
    "bfres/Animal_Bass.bfres",
    "niff/Rings.niff",
    "niff/3hedra.niff",
    "niff/dragon.nif",
    "niff/kirikobu.niff",
    "niff/synthetic-all-channels.nif",
    "niff/synthetic-niff1.nif",
    "niff/yellow-cube.niff",
    "niff/blend2niff-cube.nif",
  };
  g_autoptr (GPtrArray) inputs = g_ptr_array_new ();
  guint n = argc > 1 ? (guint)g_ascii_strtoull (argv[1], NULL, 10) : 400;
  const TressFormat *const *formats = tress_formats_get_all ();

  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    add_sample (inputs, samples[i]);
  add_bytes (inputs, "demo.bfres", tress_bfres_build_demo (NULL));
  add_bytes (inputs, "demo.nif", tress_niff_build_demo ());
  {
    TressChaDemoOptions options;

    tress_cha_demo_options_init (&options);
    add_bytes (inputs, "demo.cha", tress_cha_demo_generate_bytes (&options));
    tress_cha_demo_options_apply_variant (&options, "small");
    add_bytes (inputs, "small.cha", tress_cha_demo_generate_bytes (&options));
  }

  printf ("%u damaged copies of each file, and 128 cuts\n", n);
  for (guint f = 0; formats[f] != NULL; f++)
    {
      Worst w = { 0 };

      for (guint i = 0; i < inputs->len; i++)
        {
          Input *in = g_ptr_array_index (inputs, i);
          const guint8 *d = g_bytes_get_data (in->bytes, NULL);

          if (tress_format_detect (d, g_bytes_get_size (in->bytes), NULL) == formats[f])
            damage (in, n, &w);
        }
      if (w.n_cases == 0)
        continue;
      printf ("%s: %u cases (%u parsed)\n", formats[f]->id, w.n_cases, w.n_parsed);
      printf ("  heap  worst %.2fx the file: %s\n", w.heap_ratio, w.heap_case);
      printf ("  time  worst %.1fx the clean file's: %s\n", w.time_ratio, w.time_case);
    }
  return 0;
}
