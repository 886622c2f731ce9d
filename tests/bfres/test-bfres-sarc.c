/* test-bfres-sarc.c: a BFRES inside a Yaz0-compressed SARC archive opens,
 * lists the archive, and saves back with every other file byte-identical
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "bfres-test-common.h"
#include "core/tress-yaz0.h"
#include "formats/bfres/tress-bfres-builder.h"
#include "formats/bfres/tress-sarc.h"
#include "tress-test-utils.h"

typedef struct
{
  const char *name;
  GBytes *data;
  gsize align;
} File;

static void
put32 (GByteArray *a, gsize pos, guint32 v)
{
  a->data[pos] = v >> 24, a->data[pos + 1] = v >> 16, a->data[pos + 2] = v >> 8,
  a->data[pos + 3] = v;
}

static void
put16 (GByteArray *a, gsize pos, guint16 v)
{
  a->data[pos] = v >> 8, a->data[pos + 1] = v & 0xFF;
}

static void
grow (GByteArray *a, gsize to)
{
  gsize old = a->len;
  g_byte_array_set_size (a, to);
  memset (a->data + old, 0, to - old);
}

/* A big-endian SARC, written here from the layout alone. */
static GBytes *
make_sarc (const File *files, guint n)
{
  GByteArray *a = g_byte_array_new ();
  gsize names_at, data_at;
  g_autofree gsize *name_off = g_new (gsize, n);

  grow (a, 0x20 + 16 * (gsize)n + 8);
  memcpy (a->data, "SARC", 4);
  put16 (a, 4, 0x14);
  put16 (a, 6, 0xFEFF);
  put16 (a, 0x10, 0x0100);
  memcpy (a->data + 0x14, "SFAT", 4);
  put16 (a, 0x18, 0x0C);
  put16 (a, 0x1A, (guint16)n);
  put32 (a, 0x1C, 0x65);
  names_at = 0x20 + 16 * (gsize)n;
  memcpy (a->data + names_at, "SFNT", 4);
  put16 (a, names_at + 4, 8);
  for (guint i = 0; i < n; i++)
    {
      name_off[i] = a->len - (names_at + 8);
      g_byte_array_append (a, (const guint8 *)files[i].name, strlen (files[i].name) + 1);
      grow (a, (a->len + 3) & ~(gsize)3);
    }
  grow (a, (a->len + 0xFF) & ~(gsize)0xFF);
  data_at = a->len;
  put32 (a, 0x0C, (guint32)data_at);
  for (guint i = 0; i < n; i++)
    {
      gsize start;
      grow (a, (a->len + files[i].align - 1) & ~(files[i].align - 1));
      start = a->len - data_at;
      g_byte_array_append (a, g_bytes_get_data (files[i].data, NULL),
                           g_bytes_get_size (files[i].data));
      put32 (a, 0x20 + 16 * i, 0x1000 + i);
      put32 (a, 0x20 + 16 * i + 4, 0x01000000 | (guint32)(name_off[i] / 4));
      put32 (a, 0x20 + 16 * i + 8, (guint32)start);
      put32 (a, 0x20 + 16 * i + 12, (guint32)(a->len - data_at));
    }
  put32 (a, 8, a->len);
  return g_byte_array_free_to_bytes (a);
}

/* A reading of a big-endian SARC written here from the layout alone (as
 * make_sarc above), not through tress-sarc.c: header "SARC", u16 header size
 * 0x14, BOM, u32 archive size, u32 data offset; "SFAT", u16 header size 0x0C,
 * u16 node count, u32 hash key; nodes of 16 bytes {u32 hash, u32 attributes
 * (0x01000000 | name offset / 4), u32 data start, u32 data end}, start and end
 * counted from the data offset; "SFNT", u16 header size 8, names after it. */
typedef struct
{
  char *name;
  gsize start, end; /* from the archive's start */
} RefEntry;

typedef struct
{
  gsize size, declared, data_offset;
  guint n;
  RefEntry *e;
} RefSarc;

static void
ref_sarc_clear (RefSarc *r)
{
  for (guint i = 0; i < r->n; i++)
    g_free (r->e[i].name);
  g_free (r->e);
}

static void
ref_sarc_read (GBytes *bytes, RefSarc *r)
{
  const guint8 *d = g_bytes_get_data (bytes, &r->size);
  gsize names;

  g_assert_cmpuint (r->size, >=, 0x28);
  g_assert_cmpmem (d, 4, "SARC", 4);
  g_assert_cmpuint ((guint)d[4] << 8 | d[5], ==, 0x14);
  g_assert_cmpuint ((guint)d[6] << 8 | d[7], ==, 0xFEFF);
  r->declared = ref_u32 (d, 8);
  r->data_offset = ref_u32 (d, 0x0C);
  g_assert_cmpmem (d + 0x14, 4, "SFAT", 4);
  r->n = (guint)d[0x1A] << 8 | d[0x1B];
  names = 0x20 + 16 * (gsize)r->n;
  g_assert_cmpuint (names + 8, <=, r->data_offset);
  g_assert_cmpmem (d + names, 4, "SFNT", 4);
  r->e = g_new0 (RefEntry, MAX (r->n, 1));
  for (guint i = 0; i < r->n; i++)
    {
      gsize node = 0x20 + 16 * (gsize)i;
      guint32 attrs = ref_u32 (d, node + 4);
      gsize name = names + 8 + (gsize)(attrs & 0xFFFFFF) * 4;

      g_assert_cmpuint (attrs >> 24, ==, 1);
      g_assert_cmpuint (name, <, r->data_offset);
      r->e[i].name = g_strndup ((const char *)d + name, r->data_offset - name);
      r->e[i].start = r->data_offset + ref_u32 (d, node + 8);
      r->e[i].end = r->data_offset + ref_u32 (d, node + 12);
      g_assert_cmpuint (r->e[i].start, <=, r->e[i].end);
    }
}

/* Every entry of @r lies within the archive (as its header gives it, which
 * is its size), no two share a byte, each starts on @align[i] and holds
 * @data[i]. */
static void
ref_sarc_check (GBytes *archive, const RefSarc *r, GBytes *const *data, const gsize *align,
                const char *const *names)
{
  const guint8 *d = g_bytes_get_data (archive, NULL);

  g_assert_cmpuint (r->declared, ==, r->size);
  for (guint i = 0; i < r->n; i++)
    {
      const RefEntry *e = &r->e[i];

      g_assert_cmpstr (e->name, ==, names[i]);
      g_assert_cmpuint (e->end, <=, r->size);
      if (e->start % align[i] != 0)
        g_error ("entry %u (%s) starts at 0x%" G_GSIZE_MODIFIER "x, not on 0x%" G_GSIZE_MODIFIER
                 "x",
                 i, e->name, e->start, align[i]);
      g_assert_cmpmem (d + e->start, e->end - e->start, g_bytes_get_data (data[i], NULL),
                       g_bytes_get_size (data[i]));
      for (guint k = 0; k < r->n; k++)
        if (k != i && e->end > e->start && r->e[k].end > r->e[k].start)
          g_assert_true (e->end <= r->e[k].start || r->e[k].end <= e->start);
    }
}

/* Problems tress_sarc_validate() finds in @archive, as text, one a line. */
static char *
sarc_problems (GBytes *archive, guint *n_errors, guint *n_warnings)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TressSarc) sarc = tress_sarc_parse (archive, &error);
  TressProblemCollector *out = tress_problem_collector_new ();
  g_autoptr (GPtrArray) problems = NULL;
  GString *text = g_string_new (NULL);

  g_assert_no_error (error);
  tress_sarc_validate (sarc, "SARC", out);
  problems = tress_problem_collector_finish (out);
  *n_errors = tress_problem_list_count (problems, TRESS_SEVERITY_ERROR);
  *n_warnings = tress_problem_list_count (problems, TRESS_SEVERITY_WARNING) - *n_errors;
  for (guint i = 0; i < problems->len; i++)
    {
      g_autofree char *line = tress_problem_to_string (g_ptr_array_index (problems, i));
      g_string_append_printf (text, "%s\n", line);
    }
  return g_string_free (text, FALSE);
}

static GBytes *
random_bytes (GRand *rand, gsize n)
{
  guint8 *p = g_malloc (MAX (n, 1));

  for (gsize i = 0; i < n; i++)
    p[i] = (guint8)g_rand_int (rand);
  return g_bytes_new_take (p, n);
}

/* Replacing an entry by more bytes than the padding before the next one holds
 * moves every later entry by a multiple of its alignment: after re-reading
 * (by the reader above), each entry holds its own bytes, on its alignment,
 * inside the archive, sharing no byte with another, and validate finds
 * nothing. Each entry in turn grows to exactly its padding, one byte past it,
 * far past it, and shrinks. */
static void
test_grow_past_padding (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) demo = tress_bfres_build_demo (&error);
  GRand *rand = g_rand_new_with_seed (11);
  g_autoptr (GBytes) a = random_bytes (rand, 13), b = random_bytes (rand, 0x45);
  g_autoptr (GBytes) c = random_bytes (rand, 0x101), e = random_bytes (rand, 3);
  File files[] = { { "a.txt", a, 4 },
                   { "b.bin", b, 0x80 },
                   { "c.bin", c, 0x100 },
                   { "Model/demo.bfres", demo, 0x2000 },
                   { "e.txt", e, 4 } };
  const guint n = G_N_ELEMENTS (files);
  g_autoptr (GBytes) archive = make_sarc (files, n);
  g_autoptr (TressSarc) sarc = NULL;
  const char *names[G_N_ELEMENTS (files)];
  gsize align[G_N_ELEMENTS (files)];
  RefSarc before = { 0 };

  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    names[i] = files[i].name, align[i] = files[i].align;
  sarc = tress_sarc_parse (archive, &error);
  g_assert_no_error (error);
  ref_sarc_read (archive, &before);
  {
    GBytes *data[G_N_ELEMENTS (files)];
    guint n_errors, n_warnings;
    g_autofree char *text = sarc_problems (archive, &n_errors, &n_warnings);

    for (guint i = 0; i < n; i++)
      data[i] = files[i].data;
    ref_sarc_check (archive, &before, data, align, names);
    g_assert_cmpstr (text, ==, "");
  }

  for (guint i = 0; i < n; i++)
    {
      /* The bytes free after the entry: up to the next start, or none at the end. */
      gsize len = before.e[i].end - before.e[i].start, room = before.size - before.e[i].end;
      gsize sizes[5];

      for (guint k = 0; k < n; k++)
        if (before.e[k].start >= before.e[i].end && k != i)
          room = MIN (room, before.e[k].start - before.e[i].end);
      sizes[0] = len + room;
      sizes[1] = len + room + 1;
      sizes[2] = len + room + 0x1234;
      sizes[3] = len + room + 0x2001;
      sizes[4] = len / 2;
      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
        {
          g_autoptr (GBytes) grown = random_bytes (rand, sizes[s]);
          g_autoptr (GBytes) out = tress_sarc_replace_file (sarc, i, grown, &error);
          GBytes *data[G_N_ELEMENTS (files)];
          RefSarc after = { 0 };
          guint n_errors, n_warnings;
          g_autofree char *text = NULL;

          g_assert_no_error (error);
          g_test_message ("entry %u: %" G_GSIZE_FORMAT " → %" G_GSIZE_FORMAT " bytes", i, len,
                          sizes[s]);
          for (guint k = 0; k < n; k++)
            data[k] = k == i ? grown : files[k].data;
          ref_sarc_read (out, &after);
          g_assert_cmpuint (after.n, ==, n);
          g_assert_cmpuint (after.data_offset, ==, before.data_offset);
          ref_sarc_check (out, &after, data, align, names);
          /* Nothing before the replaced entry moved. */
          for (guint k = 0; k < n; k++)
            if (before.e[k].start < before.e[i].start)
              g_assert_cmpuint (after.e[k].start, ==, before.e[k].start);
          /* In place when it fits; else the archive grows by what it needs. */
          if (sizes[s] <= len + room)
            g_assert_cmpuint (after.size, ==, before.size);
          text = sarc_problems (out, &n_errors, &n_warnings);
          if (text[0] != '\0')
            g_error ("validate: %s", text);
          ref_sarc_clear (&after);
        }
    }
  ref_sarc_clear (&before);
  g_rand_free (rand);
}

/* Archives damaged by hand: validate names the entry and its offset, and
 * tress-cli validate exits 1 on them (0 on the sound one). */
static void
test_validate_layout (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) demo = tress_bfres_build_demo (&error);
  g_autoptr (GBytes) txt = g_bytes_new_static ("course settings\n", 16);
  g_autoptr (GBytes) tail = g_bytes_new_static ("TAIL-DATA-0123456789", 20);
  File files[3]
      = { { "course.txt", txt, 4 }, { "Model/demo.bfres", demo, 0x2000 }, { "z.bin", tail, 0x80 } };
  g_autoptr (GBytes) sound = make_sarc (files, 3);
  gsize size = g_bytes_get_size (sound);
  const guint8 *d = g_bytes_get_data (sound, NULL);
  gsize data_at = ref_u32 (d, 0x0C);
  /* SFAT nodes: course.txt 0, the BFRES 1, z.bin 2 (start +8, end +12) */
  gsize bfres_start = data_at + ref_u32 (d, 0x30 + 8), bfres_end = data_at + ref_u32 (d, 0x30 + 12);
  struct
  {
    const char *what;
    gsize node_field; /* the u32 changed */
    guint32 value;
    const char *needle;
  } cases[] = {
    /* z.bin pointing into the BFRES's last bytes, as a grown entry leaves it */
    { "overlap", 0x40 + 8, (guint32)(bfres_end - 0x40 - data_at), "SARC entry “z.bin” (offset 0x" },
    { "overlap", 0x40 + 8, (guint32)(bfres_end - 0x40 - data_at),
      "overlaps that of entry “Model/demo.bfres”" },
    /* the header's archive size cutting z.bin off */
    { "past the end", 0x08, (guint32)(size - 8), "past the end of the archive" },
    /* the BFRES moved off its 0x2000 by 0x100 (its bytes moved with it) */
    { "misaligned", 0, 0x100, "not on the 0x2000-byte alignment its header asks for" },
  };
  g_autofree char *sound_path = g_build_filename (tress_test_tmpdir (), "sound.sarc", NULL);
  g_autofree char *out = NULL;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (sound_path, (const char *)d, (gssize)size, NULL));
  {
    const char *argv[] = { "validate", sound_path, NULL };
    g_assert_cmpint (tress_test_run_cli (argv, &out, NULL), ==, 0);
    g_assert_nonnull (strstr (out, "0 errors"));
  }

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (GByteArray) bad = g_byte_array_new ();
      g_autoptr (GBytes) bytes = NULL;
      g_autofree char *path = NULL, *text = NULL, *cli_out = NULL;
      guint n_errors, n_warnings;

      g_byte_array_append (bad, d, size);
      if (c == G_N_ELEMENTS (cases) - 1)
        {
          /* Room before the BFRES: 0x100 more bytes, the BFRES and all after
           * it 0x100 later, node starts and ends and the size to match. */
          g_byte_array_set_size (bad, size + 0x100);
          memmove (bad->data + bfres_start + 0x100, bad->data + bfres_start, size - bfres_start);
          memset (bad->data + bfres_start, 0, 0x100);
          for (guint k = 1; k < 3; k++)
            for (guint f = 8; f <= 12; f += 4)
              put32 (bad, 0x20 + 16 * k + f, ref_u32 (bad->data, 0x20 + 16 * k + f) + 0x100);
          put32 (bad, 8, bad->len);
        }
      else
        put32 (bad, cases[c].node_field, cases[c].value);
      bytes = g_byte_array_free_to_bytes (g_steal_pointer (&bad));
      text = sarc_problems (bytes, &n_errors, &n_warnings);
      g_test_message ("%s:\n%s", cases[c].what, text);
      g_assert_cmpuint (n_errors, >=, 1);
      if (strstr (text, cases[c].needle) == NULL)
        g_error ("%s: “%s” is not in:\n%s", cases[c].what, cases[c].needle, text);

      path = g_strdup_printf ("%s/bad-%u.sarc", tress_test_tmpdir (), c);
      g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                          (gssize)g_bytes_get_size (bytes), NULL));
      {
        const char *argv[] = { "validate", path, NULL };
        g_assert_cmpint (tress_test_run_cli (argv, &cli_out, NULL), ==, 1);
        if (strstr (cli_out, cases[c].needle) == NULL)
          g_error ("%s: “%s” is not in the output of tress-cli validate:\n%s", cases[c].what,
                   cases[c].needle, cli_out);
      }
    }
}

static void
test_szs (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) demo = tress_bfres_build_demo (&error);
  g_autoptr (GBytes) txt = g_bytes_new_static ("course settings\n", 16);
  g_autoptr (GBytes) tail = g_bytes_new_static ("TAIL-DATA-0123456789", 20);
  File files[3]
      = { { "course.txt", txt, 4 }, { "Model/demo.bfres", demo, 0x100 }, { "z.bin", tail, 0x80 } };
  g_autoptr (GBytes) sarc = make_sarc (files, 3);
  g_autoptr (GBytes) szs
      = tress_yaz0_compress (g_bytes_get_data (sarc, NULL), g_bytes_get_size (sarc), NULL);
  g_autoptr (TressBfres) b = NULL;
  g_autoptr (GBytes) same = NULL, saved = NULL, archive = NULL, edited = NULL;
  g_autoptr (TressSarc) out = NULL;
  g_autoptr (TressCurve) curve = NULL;
  g_auto (GStrv) list = NULL;
  g_autoptr (GBytes) f0 = NULL, f2 = NULL;

  g_assert_no_error (error);
  g_assert_true (tress_format_bfres.probe (g_bytes_get_data (szs, NULL), g_bytes_get_size (szs)));
  g_assert_true (tress_format_bfres.probe (g_bytes_get_data (sarc, NULL), g_bytes_get_size (sarc)));
  b = tress_bfres_parse (szs, "course.szs", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tress_bfres_get_container (b), ==, "Yaz0/SARC");
  list = tress_bfres_list_archive (b);
  g_assert_cmpuint (g_strv_length (list), ==, 3);
  g_assert_cmpstr (list[1], ==, "Model/demo.bfres");
  same = tress_bfres_serialize (b, &error);
  tress_test_assert_bytes_equal (same, szs);

  /* Grow the BFRES: more keys on a wave. */
  curve = tress_format_bfres.curves->get_curve (b, 1);
  for (double f = 5; f < 60; f += 10)
    tress_curve_insert_on_curve (curve, f, NULL);
  g_assert_true (tress_format_bfres.curves->set_curve (b, 1, curve, NULL, &error));
  g_assert_no_error (error);
  saved = tress_bfres_serialize (b, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (saved, NULL), 4, "Yaz0", 4);
  archive
      = tress_yaz0_decompress (g_bytes_get_data (saved, NULL), g_bytes_get_size (saved), 0, &error);
  g_assert_no_error (error);
  out = tress_sarc_parse (archive, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tress_sarc_get_n_files (out), ==, 3);
  edited = tress_sarc_get_file (out, 1);
  {
    g_autoptr (GBytes) inner = tress_bfres_get_bfres_bytes (b);
    tress_test_assert_bytes_equal (edited, inner);
    g_assert_cmpuint (g_bytes_get_size (inner), >, g_bytes_get_size (demo));
  }
  f0 = tress_sarc_get_file (out, 0);
  f2 = tress_sarc_get_file (out, 2);
  tress_test_assert_bytes_equal (f0, txt);
  tress_test_assert_bytes_equal (f2, tail);
  g_assert_cmpuint (tress_sarc_get_entry (out, 1)->start % 0x100, ==, 0);
  g_assert_cmpuint (tress_sarc_get_entry (out, 2)->start % 0x80, ==, 0);
  g_assert_cmpuint (ref_u32 (g_bytes_get_data (archive, NULL), 8), ==, g_bytes_get_size (archive));
  /* Everything before the BFRES is unchanged but the data offsets that
   * follow it: the BFRES's end (node 1, at 0x3C) and, where the growth passes
   * the next 0x80 boundary, z.bin's start and end (node 2, 0x48 and 0x4C),
   * which keep its length. */
  {
    const guint8 *a = g_bytes_get_data (archive, NULL), *o = g_bytes_get_data (sarc, NULL);
    gsize start = tress_sarc_get_entry (out, 1)->start;

    g_assert_cmpmem (a + 0x40, 8, o + 0x40, 8);
    g_assert_cmpmem (a + 0x50, start - 0x50, o + 0x50, start - 0x50);
    g_assert_cmpuint (ref_u32 (a, 0x4C) - ref_u32 (a, 0x48), ==, 20);
  }
  {
    g_autoptr (TressBfres) again = tress_bfres_parse (saved, "again", &error);
    g_assert_no_error (error);
    g_assert_cmpuint (tress_bfres_get_n_curves (again), ==, tress_bfres_get_n_curves (b));
  }
}

/* Archives mix the BFRES with other Yaz0 files (.sbyml, packs): the one that
 * holds a BFRES is opened, wherever it sorts, also inside a nested archive. */
static void
test_mixed_archive (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) demo = tress_bfres_build_demo (&error);
  g_autoptr (GBytes) byml = g_bytes_new_static ("BY\0\2 settings, not a BFRES......", 32);
  g_autoptr (GBytes) sbyml
      = tress_yaz0_compress (g_bytes_get_data (byml, NULL), g_bytes_get_size (byml), NULL);
  g_autoptr (GBytes) sbfres
      = tress_yaz0_compress (g_bytes_get_data (demo, NULL), g_bytes_get_size (demo), NULL);
  File files[2] = { { "Actor/a.sbyml", sbyml, 4 }, { "Model/x.sbfres", sbfres, 0x100 } };
  g_autoptr (GBytes) sarc = make_sarc (files, 2);
  g_autoptr (TressBfres) b = tress_bfres_parse (sarc, "mixed.sarc", &error);
  g_autoptr (GBytes) inner = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (tress_bfres_get_container (b), ==, "SARC/Yaz0");
  inner = tress_bfres_get_bfres_bytes (b);
  tress_test_assert_bytes_equal (inner, demo);

  /* One level down: a pack (Yaz0 SARC) beside the settings. */
  {
    File inner_files[2] = { { "Actor/b.sbyml", sbyml, 4 }, { "Model/x.sbfres", sbfres, 0x100 } };
    g_autoptr (GBytes) pack_sarc = make_sarc (inner_files, 2);
    g_autoptr (GBytes) pack = tress_yaz0_compress (g_bytes_get_data (pack_sarc, NULL),
                                                   g_bytes_get_size (pack_sarc), NULL);
    File outer[2] = { { "Actor/a.sbyml", sbyml, 4 }, { "Pack/x.sbactorpack", pack, 4 } };
    g_autoptr (GBytes) top = make_sarc (outer, 2);
    g_autoptr (TressBfres) nested = tress_bfres_parse (top, "nested.sarc", &error);

    g_assert_no_error (error);
    g_assert_cmpstr (tress_bfres_get_container (nested), ==, "SARC/Yaz0/SARC/Yaz0");
  }
  /* A broken BFRES inside: the error says whose offsets it gives. */
  {
    g_autoptr (GBytes) cut = g_bytes_new_from_bytes (demo, 0, 0x30);
    File broken[2] = { { "Actor/a.sbyml", sbyml, 4 }, { "Model/x.bfres", cut, 0x100 } };
    g_autoptr (GBytes) archive = make_sarc (broken, 2);
    g_autoptr (TressBfres) none = tress_bfres_parse (archive, "broken.sarc", &error);

    g_assert_null (none);
    g_assert_nonnull (strstr (error->message, "In the BFRES inside SARC entry “Model/x.bfres” "
                                              "(offsets count from its start)"));
    g_clear_error (&error);
  }
  /* No BFRES anywhere: said so. */
  {
    File none[1] = { { "Actor/a.sbyml", sbyml, 4 } };
    g_autoptr (GBytes) only = make_sarc (none, 1);
    g_autoptr (TressBfres) nothing = tress_bfres_parse (only, "none.sarc", &error);

    g_assert_null (nothing);
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED);
    g_assert_nonnull (strstr (error->message, "holds no BFRES"));
  }
}

/* An entry of exactly the four bytes "FRES" is taken for the BFRES (and is
 * then too short to be one); three bytes are no BFRES at all. */
static void
test_short_entries (void)
{
  g_autoptr (GBytes) text = g_bytes_new_static ("settings", 8);
  g_autoptr (GBytes) four = g_bytes_new_static ("FRES", 4);
  g_autoptr (GBytes) three = g_bytes_new_static ("FRE", 3);

  {
    File files[2] = { { "a.txt", text, 4 }, { "Model/x.bfres", four, 0x100 } };
    g_autoptr (GBytes) archive = make_sarc (files, 2);
    g_autoptr (GError) error = NULL;
    g_autoptr (TressBfres) b = tress_bfres_parse (archive, "four.sarc", &error);

    g_assert_null (b);
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_TRUNCATED);
    g_assert_nonnull (strstr (error->message, "In the BFRES inside SARC entry “Model/x.bfres”"));
    g_assert_nonnull (strstr (error->message, "BFRES header at offset 0x0"));
  }
  {
    File files[2] = { { "a.txt", text, 4 }, { "Model/x.bfres", three, 0x100 } };
    g_autoptr (GBytes) archive = make_sarc (files, 2);
    g_autoptr (GError) error = NULL;
    g_autoptr (TressBfres) b = tress_bfres_parse (archive, "three.sarc", &error);

    g_assert_null (b);
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED);
    g_assert_nonnull (strstr (error->message, "holds no BFRES"));
  }
}

static void
test_bad_sarc (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) demo = tress_bfres_build_demo (&error);
  File files[1] = { { "a.bfres", demo, 4 } };
  g_autoptr (GBytes) sarc = make_sarc (files, 1);
  gsize size = g_bytes_get_size (sarc);
  g_autofree guint8 *d = g_memdup2 (g_bytes_get_data (sarc, NULL), size);

  d[0x1A] = 0x7F; /* node count */
  {
    g_autoptr (GBytes) bytes = g_bytes_new (d, size);
    g_autoptr (GError) e = NULL;
    g_assert_null (tress_bfres_parse (bytes, "bad", &e));
    g_assert_error (e, TRESS_ERROR, TRESS_ERROR_BAD_COUNT);
  }
  d[0x1A] = 0x00;
  d[0x2C] = 0x7F; /* file end far past the archive */
  {
    g_autoptr (GBytes) bytes = g_bytes_new (d, size);
    g_autoptr (GError) e = NULL;
    g_assert_null (tress_bfres_parse (bytes, "bad", &e));
    g_assert_error (e, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET);
    /* The entry by name, where its range is and where it ends. */
    g_assert_nonnull (strstr (e->message, "offset 0x28: entry “a.bfres” runs from archive offset"));
    g_assert_nonnull (strstr (e->message, "which does not fit in the archive"));
  }
  /* One byte past the data is enough. */
  {
    guint32 end = (guint32)(size - ref_u32 (d, 0x0C));
    g_autoptr (GBytes) bytes = NULL;
    g_autoptr (GError) e = NULL;

    d[0x2C] = end >> 24, d[0x2D] = end >> 16, d[0x2E] = end >> 8, d[0x2F] = end;
    bytes = g_bytes_new (d, size);
    {
      g_autoptr (TressSarc) fits = tress_sarc_parse (bytes, &e);
      g_assert_no_error (e);
    }
    end++;
    d[0x2C] = end >> 24, d[0x2D] = end >> 16, d[0x2E] = end >> 8, d[0x2F] = end;
    g_clear_pointer (&bytes, g_bytes_unref);
    bytes = g_bytes_new (d, size);
    g_assert_null (tress_bfres_parse (bytes, "bad", &e));
    g_assert_error (e, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET);
    g_assert_nonnull (strstr (e->message, "“a.bfres”"));
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bfres/sarc/yaz0-sarc-edit", test_szs);
  g_test_add_func ("/bfres/sarc/mixed-archive", test_mixed_archive);
  g_test_add_func ("/bfres/sarc/bad", test_bad_sarc);
  g_test_add_func ("/bfres/sarc/short-entries", test_short_entries);
  g_test_add_func ("/bfres/sarc/grow-past-padding", test_grow_past_padding);
  g_test_add_func ("/bfres/sarc/validate-layout", test_validate_layout);
  return g_test_run ();
}
