/* test-cha-model.c: parse, serialize, demo generator, and bad input
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "cha-test.h"

#include <math.h>

#include "formats/tress-format.h"

typedef struct
{
  const char *name;
  const char *variants; /* comma-separated */
  guint n_ribbons;
  guint n_materials; /* 0: default */
} Shape;

static const Shape shapes[] = {
  { "creature", "creature", 0, 0 },
  { "no-morality", "gorilla", 300, 0 },
  { "one-material", "single", 200, 0 },
  { "three-materials", "creature", 300, 3 },
  { "four-materials", "creature", 300, 4 },
  { "whole-size", "whole-size,trailing", 200, 0 },
  { "body-size-trailing", "trailing", 200, 0 },
  { "seed-magic", "seed-magic", 100, 0 },
  { "upper-magic", "upper-magic,gorilla,whole-size", 100, 0 },
  { "one-ribbon", "single", 1, 0 },
};

static GBytes *
shape_bytes (const Shape *s, TressChaDemoOptions *o)
{
  g_auto (GStrv) names = g_strsplit (s->variants, ",", -1);

  tress_cha_demo_options_init (o);
  for (guint i = 0; names[i] != NULL; i++)
    g_assert_true (tress_cha_demo_options_apply_variant (o, names[i]));
  if (s->n_ribbons)
    o->n_ribbons = s->n_ribbons;
  if (s->n_materials)
    o->n_materials = s->n_materials;
  return tress_cha_demo_generate_bytes (o);
}

/* Every generated shape parses into what was generated, validates clean, and
 * writes back byte for byte. */
static void
test_roundtrip_shapes (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      TressChaDemoOptions o;
      g_autoptr (GBytes) bytes = shape_bytes (&shapes[i], &o);
      g_autoptr (TressChaFile) file = cha_test_parse (bytes);
      g_autoptr (GBytes) again = tress_cha_file_serialize (file);
      g_autoptr (GPtrArray) problems = tress_cha_file_validate (file);
      guint n_opaque = 0, n_ribbons = 0;

      g_test_message ("shape %s: %" G_GSIZE_FORMAT " bytes", shapes[i].name,
                      g_bytes_get_size (bytes));
      tress_test_assert_bytes_equal (bytes, again);
      g_assert_cmpuint (tress_cha_file_serialized_size (file), ==, g_bytes_get_size (bytes));
      cha_test_print_problems (problems);
      g_assert_cmpuint (problems->len, ==, 0);

      g_assert_cmpint (file->size_convention, ==, o.size_convention);
      g_assert_nonnull (file->radeon);
      g_assert_cmpuint (file->radeon->n_moralities, ==, o.n_moralities);
      g_assert_cmpuint (file->radeon->n_materials, ==, o.n_materials);
      for (guint m = 0; m < file->radeon->n_materials; m++)
        n_ribbons += file->radeon->materials[m].n_ribbons;
      g_assert_cmpuint (n_ribbons, ==, o.n_ribbons);
      g_assert_cmpmem (file->magic, 16, o.magic ? o.magic : "LiOnHeAdCreature", 16);
      for (guint k = 0; k < file->n_sections; k++)
        n_opaque += file->sections[k].opaque != NULL;
      g_assert_cmpuint (n_opaque, ==, (o.hybrid ? 1 : 0) + (o.trailing_section ? 1 : 0));
      if (o.hybrid)
        {
          g_autofree char *name = tress_cha_section_get_name (&file->sections[1]);
          g_assert_cmpstr (name, ==, "hybrid");
        }
      /* a copy writes the same bytes too */
      {
        g_autoptr (TressChaFile) copy = tress_cha_file_copy (file);
        g_autoptr (GBytes) copied = tress_cha_file_serialize (copy);
        tress_test_assert_bytes_equal (bytes, copied);
      }
    }
}

/* Materials without ribbons: nothing is kept per morph or morality for them
 * (a file of many empty materials and many morph names must not cost memory by
 * the product of the two), and they write back byte for byte. */
static void
test_empty_materials (void)
{
  TressChaDemoOptions o;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressChaFile) file = NULL;
  g_autoptr (GBytes) again = NULL;
  guint n_empty = 0;

  tress_cha_demo_options_init (&o);
  o.n_materials = 4;
  o.n_ribbons = 1;
  bytes = tress_cha_demo_generate_bytes (&o);
  file = cha_test_parse (bytes);
  for (guint i = 0; i < file->radeon->n_materials; i++)
    {
      const TressChaMaterial *m = &file->radeon->materials[i];

      if (m->n_ribbons > 0)
        continue;
      n_empty++;
      g_assert_null (m->morph_points);
      g_assert_null (m->lengths);
    }
  g_assert_cmpuint (n_empty, >, 0);
  again = tress_cha_file_serialize (file);
  tress_test_assert_bytes_equal (bytes, again);
  {
    g_autoptr (TressChaFile) copy = tress_cha_file_copy (file);
    g_autoptr (GBytes) copied = tress_cha_file_serialize (copy);

    tress_test_assert_bytes_equal (bytes, copied);
  }
}

/* Values that break rules are kept as they are, and so are unknown bytes. */
static void
test_roundtrip_broken_values (void)
{
  g_autoptr (TressChaFile) file = cha_test_small (40);
  TressChaRadeon *rad = file->radeon;
  TressChaMaterial *m = &rad->materials[0];
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressChaFile) back = NULL;
  g_autoptr (GBytes) again = NULL;
  static const guint8 tail[5] = { 1, 2, 3, 4, 5 };

  file->header_four = 5;
  file->version = 1;
  rad->always_three = 7;
  m->always_one = 0;
  m->lines[0].weights[0] = 99;
  m->lines[1].unknown[0] = 0xAB;
  m->lines[1].pad = 0xCD;
  m->lines[2].colour[1] = 0x11;
  m->lines[3].ambient_copy = 1;
  m->n_ribbons_again = 3;
  m->n_lines_again = 7;
  m->line_array_size = 12;
  m->morphs_plus_one = 9;
  m->moralities_plus_one = 0;
  m->first_line[2] = 999999;
  m->quality[1] = 77;
  m->uv[5] = -3.0f;
  m->description[100] = 0xEE;
  rad->tail = g_memdup2 (tail, sizeof tail);
  rad->tail_size = sizeof tail;

  bytes = tress_cha_file_serialize (file);
  back = cha_test_parse (bytes);
  again = tress_cha_file_serialize (back);
  tress_test_assert_bytes_equal (bytes, again);
  g_assert_cmpuint (back->radeon->materials[0].lines[1].unknown[0], ==, 0xAB);
  g_assert_cmpuint (back->radeon->materials[0].lines[1].pad, ==, 0xCD);
  g_assert_cmpuint (back->radeon->materials[0].first_line[2], ==, 999999);
  g_assert_cmpuint (back->radeon->tail_size, ==, 5);
}

/* A material whose LINE_SIZE is not 36 keeps its lines as bytes. */
static void
test_roundtrip_undecoded_lines (void)
{
  g_autoptr (TressChaFile) file = cha_test_small (20);
  TressChaMaterial *m = &file->radeon->materials[0];
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressChaFile) back = NULL;
  g_autoptr (GBytes) again = NULL;

  m->raw_lines = g_memdup2 (m->lines, (gsize)m->n_lines * 36);
  g_clear_pointer (&m->lines, g_free);
  m->line_size = 18;
  m->n_lines *= 2;
  bytes = tress_cha_file_serialize (file);
  back = cha_test_parse (bytes);
  g_assert_null (back->radeon->materials[0].lines);
  g_assert_nonnull (back->radeon->materials[0].raw_lines);
  again = tress_cha_file_serialize (back);
  tress_test_assert_bytes_equal (bytes, again);

  /* LINE_SIZE 0: an empty line array, whatever LINE_COUNT says */
  {
    TressChaMaterial *b = &back->radeon->materials[0];
    g_autoptr (GBytes) zero = NULL;
    g_autoptr (TressChaFile) z = NULL;
    g_autoptr (GBytes) zero_again = NULL;
    g_autoptr (GPtrArray) problems = NULL;

    b->line_size = 0;
    zero = tress_cha_file_serialize (back);
    z = cha_test_parse (zero);
    g_assert_cmpuint (z->radeon->materials[0].n_lines, ==, b->n_lines);
    zero_again = tress_cha_file_serialize (z);
    tress_test_assert_bytes_equal (zero, zero_again);
    problems = tress_cha_file_validate (z);
    g_assert_cmpuint (cha_test_count (problems, TRESS_SEVERITY_ERROR), >, 0);
  }
}

static void
test_demo_creature (void)
{
  TressChaDemoOptions o;
  g_autoptr (GBytes) a = NULL;
  g_autoptr (GBytes) b = NULL;
  g_autoptr (GBytes) c = NULL;
  g_autoptr (TressChaFile) file = NULL;
  TressChaRadeon *rad;
  guint n_ribbons = 0;
  gboolean furred[64] = { FALSE };
  guint n_furred = 0;
  static const char *const morphs[] = { "fat", "thin", "strong", "weak" };

  tress_cha_demo_options_init (&o);
  a = tress_cha_demo_generate_bytes (&o);
  b = tress_cha_demo_generate_bytes (&o);
  tress_test_assert_bytes_equal (a, b); /* deterministic */
  o.seed++;
  c = tress_cha_demo_generate_bytes (&o);
  g_assert_false (g_bytes_equal (a, c));

  file = cha_test_parse (a);
  rad = file->radeon;
  g_assert_cmpuint (rad->n_morphs, ==, 4);
  for (guint k = 0; k < 4; k++)
    g_assert_cmpstr ((const char *)rad->morph_names[k], ==, morphs[k]);
  g_assert_cmpuint (rad->n_moralities, ==, 2);
  g_assert_cmpstr ((const char *)rad->morality_names[0], ==, "evil");
  g_assert_cmpstr ((const char *)rad->morality_names[1], ==, "good");
  g_assert_cmpuint (rad->always_three, ==, 3);
  g_assert_cmpuint (rad->body_part_max, <=, 64);
  for (guint mi = 0; mi < rad->n_materials; mi++)
    {
      const TressChaMaterial *m = &rad->materials[mi];

      g_assert_cmpuint (m->uv_rows, ==, 7);
      g_assert_cmpuint (m->uv_groups, ==, 3);
      g_assert_cmpuint (m->uv_pieces, ==, 4);
      g_assert_cmpuint (m->n_uv_floats, ==, 1680);
      n_ribbons += m->n_ribbons;
      for (guint r = 0; r < m->n_ribbons; r++)
        {
          const float *bp = &m->base_points[6 * r];
          if (!furred[m->attach[r]])
            n_furred++;
          furred[m->attach[r]] = TRUE;
          /* the fat morph pushes the fur outwards, thin pulls it in */
          g_assert_true (m->morph_points[0][6 * r] * m->morph_points[1][6 * r] <= 0.0f);
          g_assert_true (isfinite (bp[0]) && isfinite (bp[5]));
          for (guint k = 0; k < m->n_ribbon_lines[r]; k++)
            g_assert_cmpint (tress_cha_material_find_ribbon_of_line (m, m->first_line[r] + k), ==,
                             (int)r);
        }
    }
  g_assert_cmpint (
      tress_cha_material_find_ribbon_of_line (&rad->materials[0], rad->materials[0].n_lines), ==,
      -1);
  g_assert_cmpuint (n_ribbons, >=, 2000);
  g_assert_cmpuint (n_furred, >=, 10);
  g_assert_cmpuint (n_furred, <, rad->body_part_max); /* some parts are bare (the toes) */
  g_assert_cmpuint (file->n_sections, ==, 2);
}

/* The demo creature looks like an animal: four legs reach the ground (one
 * furred part per corner: left/right × front/hind), a tail behind the body,
 * a head above and in front of it; the fur is shorter than the torso is thick
 * (0.35–0.40), so the shape shows; every morality lengthens every ribbon and
 * stays within the maximum for its sections. */
static void
test_demo_animal (void)
{
  TressChaDemoOptions o;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressChaFile) file = NULL;
  const TressChaRadeon *rad;
  guint corners[4] = { 0 }, n_tail = 0, n_head = 0;
  gint64 corner_part[4] = { -1, -1, -1, -1 };

  tress_cha_demo_options_init (&o);
  bytes = tress_cha_demo_generate_bytes (&o);
  file = tress_cha_file_parse (bytes, NULL);
  g_assert_nonnull (file);
  rad = file->radeon;
  g_assert_cmpuint (rad->n_moralities, ==, 2);
  for (guint mi = 0; mi < rad->n_materials; mi++)
    {
      const TressChaMaterial *m = &rad->materials[mi];

      for (guint r = 0; r < m->n_ribbons; r++)
        {
          const float *bp = &m->base_points[6 * r];
          float max = tress_cha_max_length (m->n_sections[r]);

          g_assert_cmpfloat (m->lengths[0][r], >, 0.0f);
          g_assert_cmpfloat (m->lengths[0][r], <, 0.35f);
          for (guint k = 1; k <= rad->n_moralities; k++)
            {
              g_assert_cmpfloat (m->lengths[k][r], >, m->lengths[0][r]);
              g_assert_cmpfloat (m->lengths[k][r], <=, max);
            }
          if (bp[1] < 0.3f)
            {
              /* a leg near the ground: which corner */
              guint c = (bp[0] > 0 ? 0 : 1) + (bp[2] > 0 ? 0 : 2);

              g_assert_true (fabsf (bp[0]) > 0.1f);
              if (corner_part[c] < 0)
                corner_part[c] = m->attach[r];
              g_assert_cmpint (corner_part[c], ==, m->attach[r]);
              corners[c]++;
            }
          n_tail += bp[2] < -0.95f && bp[1] < 1.0f;
          n_head += bp[1] > 1.3f && bp[2] > 1.0f;
        }
    }
  for (guint c = 0; c < 4; c++)
    g_assert_cmpuint (corners[c], >, 10);
  g_assert_cmpuint (n_tail, >, 10);
  g_assert_cmpuint (n_head, >, 10);
}

/* Each ribbon of the demo creature: its texture quality follows its length in
 * sections (1–2 low, 3–4 medium, 5–7 high), its lines follow its own body
 * part first and name a neighbouring part second (the one it blends into
 * near a joint: every furred part has one). */
static void
test_demo_ribbons (void)
{
  g_autoptr (TressChaFile) file = cha_test_small (400);
  const TressChaRadeon *rad = file->radeon;
  guint n_quality[3] = { 0 }, n_blended = 0;

  for (guint mi = 0; mi < rad->n_materials; mi++)
    {
      const TressChaMaterial *m = &rad->materials[mi];

      for (guint r = 0; r < m->n_ribbons; r++)
        {
          guint s = m->n_sections[r];
          guint quality = s <= 2 ? 0 : s <= 4 ? 1 : 2;

          g_assert_cmpuint (m->quality[r], ==, quality);
          n_quality[quality]++;
          for (guint k = 0; k < m->n_ribbon_lines[r]; k++)
            {
              const TressChaLine *l = &m->lines[m->first_line[r] + k];
              gint64 own = tress_cha_material_ref_body_part (m, l, 0);
              gint64 neighbour = tress_cha_material_ref_body_part (m, l, 1);

              g_assert_cmpint (own, ==, m->attach[r]);
              g_assert_cmpint (neighbour, >=, 0);
              g_assert_cmpint (neighbour, !=, own);
              n_blended += tress_cha_line_get_weight (l, 1) > 0;
            }
        }
    }
  for (guint q = 0; q < 3; q++)
    g_assert_cmpuint (n_quality[q], >, 0);
  g_assert_cmpuint (n_blended, >, 0);
}

/* The fuzzing seed corpus is the generator's own output (the options are
 * those tests/cha/meson.build names): the generator still writes those very
 * bytes, as it promises to everywhere. */
static void
test_demo_corpus (void)
{
  static const struct
  {
    const char *name;
    const char *variants;
    guint n_ribbons;
    guint n_moralities;
  } seeds[] = {
    { "single-2.cha", "single", 2, 2 },
    { "two-materials-whole-size.cha", "whole-size,trailing", 4, 2 },
    { "gorilla-upper.cha", "upper-magic,single", 3, 0 },
    { "hybrid-seed-magic.cha", "seed-magic", 8, 2 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (seeds); i++)
    {
      g_autofree char *path
          = g_test_build_filename (G_TEST_DIST, "cha", "corpus", seeds[i].name, NULL);
      g_autoptr (GBytes) stored = tress_test_read_file (path);
      g_auto (GStrv) names = g_strsplit (seeds[i].variants, ",", -1);
      g_autoptr (GBytes) made = NULL;
      TressChaDemoOptions o;

      g_test_message ("%s", seeds[i].name);
      tress_cha_demo_options_init (&o);
      for (guint k = 0; names[k] != NULL; k++)
        g_assert_true (tress_cha_demo_options_apply_variant (&o, names[k]));
      o.n_ribbons = seeds[i].n_ribbons;
      o.n_moralities = seeds[i].n_moralities;
      made = tress_cha_demo_generate_bytes (&o);
      tress_test_assert_bytes_equal (stored, made);
    }
}

/* The 100,000-ribbon stress file is plain to make and to read back. */
static void
test_demo_stress (void)
{
  TressChaDemoOptions o;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressChaFile) file = NULL;
  g_autoptr (GPtrArray) problems = NULL;

  if (!g_test_slow ())
    {
      g_test_skip ("the 100,000-ribbon file is checked with -m slow and by the benchmark");
      return;
    }
  tress_cha_demo_options_init (&o);
  g_assert_true (tress_cha_demo_options_apply_variant (&o, "stress"));
  bytes = tress_cha_demo_generate_bytes (&o);
  file = cha_test_parse (bytes);
  problems = tress_cha_file_validate (file);
  g_assert_cmpuint (problems->len, ==, 0);
  g_assert_cmpuint (file->radeon->materials[0].n_ribbons + file->radeon->materials[1].n_ribbons, ==,
                    100000);
}

/* What a big-endian host does to each line it reads or writes: the three
 * direction floats and the three references reversed byte by byte, every
 * other byte kept; twice gives the line back. */
static void
test_line_byte_order (void)
{
  TressChaLine line, swapped;
  guint8 a[TRESS_CHA_LINE_SIZE], b[TRESS_CHA_LINE_SIZE];

  G_STATIC_ASSERT (sizeof (TressChaLine) == TRESS_CHA_LINE_SIZE);
  for (guint i = 0; i < TRESS_CHA_LINE_SIZE; i++)
    a[i] = (guint8)(i + 1);
  memcpy (&line, a, sizeof line);
  swapped = line;
  cha_line_swap_bytes (&swapped);
  memcpy (b, &swapped, sizeof b);
  for (guint i = 0; i < TRESS_CHA_LINE_SIZE; i++)
    {
      guint from = i;

      if (i < 12)
        from = i / 4 * 4 + 3 - i % 4; /* f32 × 3 */
      else if (i >= 16 && i < 22)
        from = i ^ 1; /* u16 × 3 */
      if (b[i] != a[from])
        g_error ("byte %u of the swapped line is %u, expected byte %u's %u", i, b[i], from,
                 a[from]);
    }
  cha_line_swap_bytes (&swapped);
  g_assert_cmpmem (&swapped, sizeof swapped, &line, sizeof line);
}

static void
test_probe_and_registry (void)
{
  g_autoptr (TressChaFile) file = cha_test_small (5);
  g_autoptr (GBytes) bytes = tress_cha_file_serialize (file);
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  g_autoptr (GError) error = NULL;

  g_assert_true (tress_cha_probe (data, size));
  g_assert_true (tress_cha_probe ((const guint8 *)"lionheadcreature", 16));
  g_assert_false (tress_cha_probe ((const guint8 *)"LionheadCreatur", 15));
  g_assert_false (tress_cha_probe ((const guint8 *)"Yaz0................", 19));
  g_assert_true (tress_format_detect (data, size, &error) == tress_format_lookup ("cha"));
  g_assert_no_error (error);
}

static void
assert_parse_error (GBytes *bytes, int code, const char *needle)
{
  g_autoptr (GError) error = NULL;
  TressChaFile *file = tress_cha_file_parse (bytes, &error);

  g_assert_null (file);
  g_assert_error (error, TRESS_ERROR, code);
  g_test_message ("error: %s", error->message);
  if (needle != NULL && strstr (error->message, needle) == NULL)
    g_error ("“%s” does not mention “%s”", error->message, needle);
}

static GBytes *
patched (GBytes *bytes, gsize offset, guint32 value)
{
  gsize size;
  guint8 *d = g_bytes_unref_to_data (g_bytes_ref (bytes), &size);

  d[offset] = value & 0xff;
  d[offset + 1] = (value >> 8) & 0xff;
  d[offset + 2] = (value >> 16) & 0xff;
  d[offset + 3] = value >> 24;
  return g_bytes_new_take (d, size);
}

static void
test_parse_errors (void)
{
  g_autoptr (TressChaFile) file = cha_test_small (10);
  g_autoptr (GBytes) bytes = tress_cha_file_serialize (file);
  /* radeon body starts after the header and its 36-byte prefix */
  gsize body = 0x30 + 36;
  gsize materials = body + 4 + 4 * 32 + 4 + 2 * 32 + 12;
  gsize n_applied = materials + 4 + 384;
  guint32 applied = file->radeon->materials[0].n_applied;
  gsize line_count = n_applied + 4 + 4 * applied + 4;
  gsize ribbon_count = line_count + 8 + 36 * (gsize)file->radeon->materials[0].n_lines;

  {
    g_autoptr (GBytes) b = g_bytes_new ("LionheadCreature", 16);
    assert_parse_error (b, TRESS_ERROR_TRUNCATED, "header");
  }
  {
    gsize size;
    g_autofree guint8 *d = g_memdup2 (g_bytes_get_data (bytes, &size), g_bytes_get_size (bytes));
    g_autoptr (GBytes) b = NULL;
    d[3] = 'X';
    b = g_bytes_new (d, size);
    assert_parse_error (b, TRESS_ERROR_UNKNOWN_FORMAT, "magic");
  }
  {
    g_autoptr (GBytes) b = patched (bytes, 0x30 + 32, 0x7fffffff);
    assert_parse_error (b, TRESS_ERROR_BAD_VALUE, "section size at offset 0x50");
  }
  {
    g_autoptr (GBytes) b = patched (bytes, body, 0xffffffff);
    assert_parse_error (b, TRESS_ERROR_BAD_COUNT, "MORPH_COUNT");
  }
  {
    g_autoptr (GBytes) b = patched (bytes, n_applied, 0x40000000);
    assert_parse_error (b, TRESS_ERROR_BAD_COUNT, "APPLIED_COUNT");
  }
  {
    g_autoptr (GBytes) b = patched (bytes, line_count, 0xffffffff);
    assert_parse_error (b, TRESS_ERROR_BAD_COUNT, "LINE_COUNT");
  }
  {
    g_autoptr (GBytes) b = patched (bytes, ribbon_count, 0xfffffff0);
    assert_parse_error (b, TRESS_ERROR_BAD_COUNT, "RIBBON_COUNT");
  }
  {
    /* one ribbon more than the arrays hold: the layout runs off the section */
    g_autoptr (GBytes) b = patched (bytes, ribbon_count, file->radeon->materials[0].n_ribbons + 1);
    g_autoptr (GError) error = NULL;
    g_assert_null (tress_cha_file_parse (b, &error));
    g_assert_nonnull (error);
    g_test_message ("error: %s", error->message);
    g_assert_nonnull (strstr (error->message, "offset"));
  }
}

/* Every truncation gives a clear error or a valid parse (cutting off whole
 * trailing sections leaves a valid file). */
static void
test_parse_truncations (void)
{
  TressChaDemoOptions o;
  g_autoptr (GBytes) bytes = NULL;
  gsize size;
  const guint8 *data;
  guint n_ok = 0;

  tress_cha_demo_options_init (&o);
  o.n_ribbons = 6;
  o.trailing_section = TRUE;
  bytes = tress_cha_demo_generate_bytes (&o);
  data = g_bytes_get_data (bytes, &size);
  for (gsize len = 0; len < size; len++)
    {
      g_autoptr (GBytes) cut = g_bytes_new_static (data, len);
      g_autoptr (GError) error = NULL;
      g_autoptr (TressChaFile) file = tress_cha_file_parse (cut, &error);

      if (file != NULL)
        {
          g_autoptr (GBytes) again = tress_cha_file_serialize (file);
          g_assert_no_error (error);
          tress_test_assert_bytes_equal (cut, again);
          n_ok++;
        }
      else
        {
          g_assert_nonnull (error);
          g_assert_true (error->domain == TRESS_ERROR);
          g_assert_nonnull (strstr (error->message, "offset"));
        }
    }
  /* the header alone, the file without hybrid+trailing, without trailing */
  g_assert_cmpuint (n_ok, ==, 3);
}

/* Random corruptions: an error naming an offset, or a model that validates,
 * fixes and writes back without crashing. */
static void
test_parse_corruptions (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (4242);
  g_autoptr (TressChaFile) small = cha_test_small (12);
  g_autoptr (GBytes) bytes = tress_cha_file_serialize (small);
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  guint n_parsed = 0, n_failed = 0;
  guint rounds = g_test_slow () ? 20000 : 3000;

  for (guint i = 0; i < rounds; i++)
    {
      g_autofree guint8 *copy = g_memdup2 (data, size);
      g_autoptr (GBytes) b = NULL;
      g_autoptr (GError) error = NULL;
      g_autoptr (TressChaFile) file = NULL;
      guint n = g_rand_int_range (rand, 1, 5);

      for (guint k = 0; k < n; k++)
        {
          gsize at = g_rand_int_range (rand, 0, (gint32)size);
          switch (g_rand_int_range (rand, 0, 4))
            {
            case 0:
              copy[at] = (guint8)g_rand_int (rand);
              break;
            case 1:
              copy[at] ^= (guint8)(1u << g_rand_int_range (rand, 0, 8));
              break;
            case 2:
              copy[at] = 0xff;
              break;
            default:
              if (at + 4 <= size)
                memset (copy + at, 0xff, 4);
              break;
            }
        }
      b = g_bytes_new (copy, size);
      file = tress_cha_file_parse (b, &error);
      if (file == NULL)
        {
          g_assert_nonnull (error);
          g_assert_nonnull (strstr (error->message, "offset"));
          n_failed++;
          continue;
        }
      n_parsed++;
      {
        g_autoptr (GBytes) again = tress_cha_file_serialize (file);
        g_autoptr (GPtrArray) problems = tress_cha_file_validate (file);
        g_autoptr (GPtrArray) after = NULL;
        g_autoptr (GError) fix_error = NULL;

        tress_test_assert_bytes_equal (b, again);
        tress_cha_fix_all (file, NULL, &fix_error);
        g_assert_no_error (fix_error);
        after = tress_cha_file_validate (file);
        /* whatever was fixed, the result still reads back */
        {
          g_autoptr (GBytes) fixed = tress_cha_file_serialize (file);
          g_autoptr (TressChaFile) reread = cha_test_parse (fixed);
          g_assert_nonnull (reread);
        }
        g_assert_nonnull (after);
        g_assert_nonnull (problems);
      }
    }
  g_test_message ("%u corruptions parsed, %u refused", n_parsed, n_failed);
  g_assert_cmpuint (n_parsed, >, 0);
  g_assert_cmpuint (n_failed, >, 0);
}

static void
test_size_convention_detection (void)
{
  TressChaDemoOptions o;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressChaFile) file = NULL;

  tress_cha_demo_options_init (&o);
  o.n_ribbons = 10;
  o.size_convention = TRESS_CHA_SIZE_WHOLE;
  bytes = tress_cha_demo_generate_bytes (&o);
  file = cha_test_parse (bytes);
  g_assert_cmpint (file->size_convention, ==, TRESS_CHA_SIZE_WHOLE);
  /* the radeon size counts its own 36-byte prefix: the next name lies there */
  {
    gsize radeon_size = cha_test_u32_at (bytes, 0x30 + 32);
    gsize hybrid_at = 0x30 + radeon_size;
    g_autofree char *name
        = g_strndup ((const char *)g_bytes_get_data (bytes, NULL) + hybrid_at, 32);
    g_assert_cmpstr (name, ==, "hybrid");
  }
}

/* A file whose section sizes fit both readings is read one way and says so. */
static void
test_size_convention_ambiguous (void)
{
  guint8 data[192] = { 0 };
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressChaFile) file = NULL;
  g_autoptr (GPtrArray) problems = NULL;
  g_autoptr (GBytes) again = NULL;

  memcpy (data, "LiOnHeAdCreature", 16);
  data[0x28] = 4;
  data[0x2c] = 9035 & 0xff;
  data[0x2d] = 9035 >> 8;
  memcpy (data + 48, "first", 5); /* body of 72 bytes: the next name at 156 */
  data[48 + 32] = 72;
  memcpy (data + 120, "inner", 5); /* read as whole sizes, 72 lands here */
  data[120 + 32] = 72;
  memcpy (data + 156, "second", 6); /* empty body: the file ends at 192 */
  bytes = g_bytes_new (data, sizeof data);
  file = cha_test_parse (bytes);
  g_assert_cmpint (file->size_convention, ==, TRESS_CHA_SIZE_BODY);
  g_assert_true (file->size_convention_ambiguous);
  g_assert_cmpuint (file->n_sections, ==, 2);
  problems = tress_cha_file_validate (file);
  cha_test_print_problems (problems);
  g_assert_cmpuint (problems->len, ==, 2); /* the note, and no radeon section */
  g_assert_nonnull (
      strstr (((TressProblem *)g_ptr_array_index (problems, 0))->message, "both readings"));
  again = tress_cha_file_serialize (file);
  tress_test_assert_bytes_equal (bytes, again);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cha/model/roundtrip-shapes", test_roundtrip_shapes);
  g_test_add_func ("/cha/model/roundtrip-broken-values", test_roundtrip_broken_values);
  g_test_add_func ("/cha/model/empty-materials", test_empty_materials);
  g_test_add_func ("/cha/model/roundtrip-undecoded-lines", test_roundtrip_undecoded_lines);
  g_test_add_func ("/cha/model/demo-creature", test_demo_creature);
  g_test_add_func ("/cha/model/demo-ribbons", test_demo_ribbons);
  g_test_add_func ("/cha/model/demo-corpus", test_demo_corpus);
  g_test_add_func ("/cha/model/demo-animal", test_demo_animal);
  g_test_add_func ("/cha/model/demo-stress", test_demo_stress);
  g_test_add_func ("/cha/model/line-byte-order", test_line_byte_order);
  g_test_add_func ("/cha/model/probe", test_probe_and_registry);
  g_test_add_func ("/cha/model/parse-errors", test_parse_errors);
  g_test_add_func ("/cha/model/truncations", test_parse_truncations);
  g_test_add_func ("/cha/model/corruptions", test_parse_corruptions);
  g_test_add_func ("/cha/model/size-convention", test_size_convention_detection);
  g_test_add_func ("/cha/model/size-convention-ambiguous", test_size_convention_ambiguous);
  return g_test_run ();
}
