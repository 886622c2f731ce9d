/* test-cha-validate.c: one file per broken rule of the format page
 *
 * Each case breaks one rule in a small generated creature, writes the file,
 * reads it back and checks that validate names the rule at the right place:
 * location path, severity, the fix offered, and a byte offset computed here
 * independently from the format page (and, for u32 fields, that the file holds
 * the broken value at that offset). Then every fix is applied and the problem
 * must be gone where a fix was offered.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "cha-test.h"

#include <math.h>
#include <stdio.h>

/* Offsets of material 0's fields, from the format page's tables. */
typedef struct
{
  gsize body, three, mat, applied, line_size, line_array_size, lines, morphs_plus_one, base,
      ribbons_again, sections, quality, uv, moralities_plus_one, lengths, ribbons_third, zsort,
      attach, first_line, n_rlines, lines_again, end;
} Offsets;

static Offsets
offsets_of (const TressChaFile *file)
{
  const TressChaRadeon *rad = file->radeon;
  const TressChaMaterial *m = &rad->materials[0];
  gsize nr = m->n_ribbons;
  Offsets o;

  o.body = 0x30 + 32 + 4;
  o.three = o.body + 4 + 32 * rad->n_morphs + 4 + 32 * rad->n_moralities;
  o.mat = o.three + 12;
  o.applied = o.mat + 4 + 384 + 4;
  o.line_size = o.applied + 4 * m->n_applied;
  o.line_array_size = o.line_size + 8;
  o.lines = o.line_size + 12;
  o.morphs_plus_one = o.lines + (gsize)m->line_size * m->n_lines + 4;
  o.base = o.morphs_plus_one + 4;
  o.ribbons_again = o.base + 24 * nr * (1 + rad->n_morphs);
  o.sections = o.ribbons_again + 4;
  o.quality = o.sections + 4 * nr;
  o.uv = o.quality + 4 * nr + 12;
  o.moralities_plus_one = o.uv + 4 * m->n_uv_floats;
  o.lengths = o.moralities_plus_one + 4;
  o.ribbons_third = o.lengths + 4 * nr * (rad->n_moralities + 1);
  o.zsort = o.ribbons_third + 4;
  o.attach = o.zsort + 12 * nr;
  o.first_line = o.attach + 4 * nr;
  o.n_rlines = o.first_line + 4 * nr;
  o.lines_again = o.n_rlines + 4 * nr;
  o.end = o.lines_again + 4;
  return o;
}

typedef struct
{
  char *location;
  gsize offset;
  TressSeverity severity;
  int fix_id; /* -1: no fix */
  const char *needle;
  gboolean check_u32; /* the u32 at offset holds @value */
  guint32 value;
} Expect;

typedef void (*BreakFunc) (TressChaFile *file, const Offsets *o, Expect *e);

#define M0 (&file->radeon->materials[0])

static void
set_expect (Expect *e, const char *location, gsize offset, TressSeverity severity, int fix_id,
            const char *needle)
{
  e->location = g_strdup (location);
  e->offset = offset;
  e->severity = severity;
  e->fix_id = fix_id;
  e->needle = needle;
}

static void
line_expect (Expect *e, TressChaFile *file, const Offsets *o, guint ribbon, guint k, gsize field,
             TressSeverity severity, int fix_id, const char *needle)
{
  g_autofree char *loc = g_strdup_printf ("radeon/material 0/ribbon %u/line %u", ribbon, k);

  set_expect (e, loc, o->lines + 36 * ((gsize)M0->first_line[ribbon] + k) + field, severity, fix_id,
              needle);
}

static TressChaLine *
line_of (TressChaFile *file, guint ribbon, guint k)
{
  return &M0->lines[M0->first_line[ribbon] + k];
}

static void
b_header_four (TressChaFile *file, const Offsets *o, Expect *e)
{
  file->header_four = 5;
  set_expect (e, "header", 0x28, TRESS_SEVERITY_ERROR, TRESS_CHA_FIX_COUNTS, "always 4");
  e->check_u32 = TRUE, e->value = 5;
}

static void
b_version (TressChaFile *file, const Offsets *o, Expect *e)
{
  file->version = 9034;
  set_expect (e, "header", 0x2c, TRESS_SEVERITY_ERROR, TRESS_CHA_FIX_COUNTS, "9035");
  e->check_u32 = TRUE, e->value = 9034;
}

static void
b_three (TressChaFile *file, const Offsets *o, Expect *e)
{
  file->radeon->always_three = 2;
  set_expect (e, "radeon", o->three, TRESS_SEVERITY_WARNING, TRESS_CHA_FIX_COUNTS, "always 3");
  e->check_u32 = TRUE, e->value = 2;
}

static void
b_one (TressChaFile *file, const Offsets *o, Expect *e)
{
  M0->always_one = 4;
  set_expect (e, "radeon/material 0", o->mat, TRESS_SEVERITY_WARNING, TRESS_CHA_FIX_COUNTS,
              "always 1");
  e->check_u32 = TRUE, e->value = 4;
}

static void
b_applied (TressChaFile *file, const Offsets *o, Expect *e)
{
  M0->applied[1] = file->radeon->body_part_max + 3;
  set_expect (e, "radeon/material 0/applied 1", o->applied + 4, TRESS_SEVERITY_ERROR, -1,
              "BODY_PART_MAX");
  e->check_u32 = TRUE, e->value = file->radeon->body_part_max + 3;
}

static void
b_line_size (TressChaFile *file, const Offsets *o, Expect *e)
{
  TressChaMaterial *m = M0;

  m->raw_lines = g_memdup2 (m->lines, (gsize)m->n_lines * 36);
  g_clear_pointer (&m->lines, g_free);
  m->line_size = 12;
  m->n_lines *= 3;
  m->n_lines_again = m->n_lines;
  m->line_array_size = 12 * m->n_lines;
  set_expect (e, "radeon/material 0", o->line_size, TRESS_SEVERITY_ERROR, -1, "LINE_SIZE is 12");
  e->check_u32 = TRUE, e->value = 12;
}

static void
b_line_array_size (TressChaFile *file, const Offsets *o, Expect *e)
{
  M0->line_array_size += 36;
  set_expect (e, "radeon/material 0", o->line_array_size, TRESS_SEVERITY_ERROR,
              TRESS_CHA_FIX_COUNTS, "line array size");
  e->check_u32 = TRUE, e->value = M0->line_array_size;
}

static void
b_morphs_plus_one (TressChaFile *file, const Offsets *o, Expect *e)
{
  M0->morphs_plus_one = 4;
  set_expect (e, "radeon/material 0", o->morphs_plus_one, TRESS_SEVERITY_ERROR,
              TRESS_CHA_FIX_COUNTS, "MORPH_COUNT + 1");
  e->check_u32 = TRUE, e->value = 4;
}

static void
b_ribbons_again (TressChaFile *file, const Offsets *o, Expect *e)
{
  M0->n_ribbons_again++;
  set_expect (e, "radeon/material 0", o->ribbons_again, TRESS_SEVERITY_ERROR, TRESS_CHA_FIX_COUNTS,
              "second RIBBON_COUNT");
  e->check_u32 = TRUE, e->value = M0->n_ribbons + 1;
}

static void
b_moralities_plus_one (TressChaFile *file, const Offsets *o, Expect *e)
{
  M0->moralities_plus_one = 2;
  set_expect (e, "radeon/material 0", o->moralities_plus_one, TRESS_SEVERITY_ERROR,
              TRESS_CHA_FIX_COUNTS, "MORALITY_COUNT + 1");
  e->check_u32 = TRUE, e->value = 2;
}

static void
b_ribbons_third (TressChaFile *file, const Offsets *o, Expect *e)
{
  M0->n_ribbons_third = 0;
  set_expect (e, "radeon/material 0", o->ribbons_third, TRESS_SEVERITY_ERROR, TRESS_CHA_FIX_COUNTS,
              "third RIBBON_COUNT");
  e->check_u32 = TRUE, e->value = 0;
}

static void
b_lines_again (TressChaFile *file, const Offsets *o, Expect *e)
{
  M0->n_lines_again--;
  set_expect (e, "radeon/material 0", o->lines_again, TRESS_SEVERITY_ERROR, TRESS_CHA_FIX_COUNTS,
              "second LINE_COUNT");
  e->check_u32 = TRUE, e->value = M0->n_lines - 1;
}

static void
b_sections (TressChaFile *file, const Offsets *o, Expect *e)
{
  M0->n_sections[4] = 9;
  set_expect (e, "radeon/material 0/ribbon 4", o->sections + 16, TRESS_SEVERITY_ERROR, -1,
              "9 sections");
  e->check_u32 = TRUE, e->value = 9;
}

static void
b_lines_per_section (TressChaFile *file, const Offsets *o, Expect *e)
{
  M0->n_sections[4] = M0->n_sections[4] == 7 ? 6 : M0->n_sections[4] + 1;
  set_expect (e, "radeon/material 0/ribbon 4", o->n_rlines + 16, TRESS_SEVERITY_WARNING, -1,
              "2 per section");
  e->check_u32 = TRUE, e->value = M0->n_ribbon_lines[4];
}

static void
b_quality (TressChaFile *file, const Offsets *o, Expect *e)
{
  M0->quality[5] = 3;
  set_expect (e, "radeon/material 0/ribbon 5", o->quality + 20, TRESS_SEVERITY_ERROR,
              TRESS_CHA_FIX_QUALITY, "texture quality is 3");
  e->check_u32 = TRUE, e->value = 3;
}

static void
b_length_negative (TressChaFile *file, const Offsets *o, Expect *e)
{
  M0->lengths[0][6] = -0.5f;
  set_expect (e, "radeon/material 0/ribbon 6", o->lengths + 24, TRESS_SEVERITY_ERROR, -1,
              "not a length");
}

static void
b_length_max (TressChaFile *file, const Offsets *o, Expect *e)
{
  M0->lengths[2][6] = 0.9f;
  set_expect (e, "radeon/material 0/ribbon 6", o->lengths + 4 * (2 * (gsize)M0->n_ribbons + 6),
              TRESS_SEVERITY_WARNING, TRESS_CHA_FIX_LENGTHS, "above the maximum");
}

static void
b_zsort (TressChaFile *file, const Offsets *o, Expect *e)
{
  M0->zsort[3 * 7 + 1] += 0.5f;
  set_expect (e, "radeon/material 0/ribbon 7", o->zsort + 84, TRESS_SEVERITY_INFO,
              TRESS_CHA_FIX_ZSORT, "z-sort");
}

static void
b_attach (TressChaFile *file, const Offsets *o, Expect *e)
{
  guint32 part = 0;

  while (tress_cha_material_find_applied (M0, part) >= 0)
    part++;
  g_assert_cmpuint (part, <, file->radeon->body_part_max);
  M0->attach[8] = part;
  set_expect (e, "radeon/material 0/ribbon 8", o->attach + 32, TRESS_SEVERITY_ERROR,
              TRESS_CHA_FIX_ATTACH, "not in the material's applied list");
  e->check_u32 = TRUE, e->value = part;
}

static void
b_first_line (TressChaFile *file, const Offsets *o, Expect *e)
{
  M0->first_line[9] += 2;
  set_expect (e, "radeon/material 0/ribbon 9", o->first_line + 36, TRESS_SEVERITY_ERROR,
              TRESS_CHA_FIX_FIRST_LINES, "running sum");
  e->check_u32 = TRUE, e->value = M0->first_line[9];
}

static void
b_range (TressChaFile *file, const Offsets *o, Expect *e)
{
  guint last = M0->n_ribbons - 1;
  g_autofree char *loc = g_strdup_printf ("radeon/material 0/ribbon %u", last);

  M0->first_line[last] = M0->n_lines - 1;
  set_expect (e, loc, o->first_line + 4 * (gsize)last, TRESS_SEVERITY_ERROR, -1,
              "outside the line array");
}

static void
b_line_total (TressChaFile *file, const Offsets *o, Expect *e)
{
  guint last = M0->n_ribbons - 1;

  M0->n_ribbon_lines[last] += 2;
  M0->n_sections[last] += M0->n_sections[last] < 7 ? 1 : 0;
  set_expect (e, "radeon/material 0", o->n_rlines, TRESS_SEVERITY_ERROR, -1, "sum to");
}

static void
b_uv (TressChaFile *file, const Offsets *o, Expect *e)
{
  M0->uv[3] = 1.5f;
  set_expect (e, "radeon/material 0/uv 3", o->uv + 12, TRESS_SEVERITY_WARNING, TRESS_CHA_FIX_UV,
              "outside 0…1");
}

static void
b_base_points (TressChaFile *file, const Offsets *o, Expect *e)
{
  M0->base_points[6 * 10 + 2] = NAN;
  set_expect (e, "radeon/material 0/ribbon 10", o->base + 240, TRESS_SEVERITY_ERROR, -1,
              "not finite");
}

static void
b_weights (TressChaFile *file, const Offsets *o, Expect *e)
{
  TressChaLine *l = line_of (file, 12, 3);

  l->weights[0] = l->weights[0] == 255 ? 0 : l->weights[0] + 1;
  line_expect (e, file, o, 12, 3, 24, TRESS_SEVERITY_ERROR, TRESS_CHA_FIX_WEIGHTS, "not 255");
}

/* 200 + 100 + 45: the first two less the third would make 255. */
static void
b_weights_345 (TressChaFile *file, const Offsets *o, Expect *e)
{
  TressChaLine *l = line_of (file, 12, 3);

  l->weights[0] = 200;
  l->weights[1] = 100;
  l->weights[2] = 45;
  line_expect (e, file, o, 12, 3, 24, TRESS_SEVERITY_ERROR, TRESS_CHA_FIX_WEIGHTS,
               "sum to 345, not 255");
}

static void
b_ref_multiple (TressChaFile *file, const Offsets *o, Expect *e)
{
  line_of (file, 12, 2)->refs[1] = 4;
  line_expect (e, file, o, 12, 2, 18, TRESS_SEVERITY_ERROR, -1, "not a multiple of 3");
}

/* The first reference, 4: a multiple of 4, not of 3. */
static void
b_ref_first_multiple (TressChaFile *file, const Offsets *o, Expect *e)
{
  g_assert_cmpuint (M0->n_applied, >, 2);
  line_of (file, 12, 2)->refs[0] = 4;
  line_expect (e, file, o, 12, 2, 16, TRESS_SEVERITY_ERROR, -1,
               "reference 0 is 4, not a multiple of 3");
}

static void
b_ref_range (TressChaFile *file, const Offsets *o, Expect *e)
{
  line_of (file, 12, 2)->refs[2] = (guint16)(3 * M0->n_applied);
  line_expect (e, file, o, 12, 2, 20, TRESS_SEVERITY_ERROR, -1, "applied list has");
}

static void
b_ambient (TressChaFile *file, const Offsets *o, Expect *e)
{
  line_of (file, 11, 1)->ambient_copy ^= 1;
  line_expect (e, file, o, 11, 1, 15, TRESS_SEVERITY_WARNING, TRESS_CHA_FIX_AMBIENT_COPY,
               "ambient copy");
}

static void
b_mask (TressChaFile *file, const Offsets *o, Expect *e)
{
  line_of (file, 11, 0)->mask[7] = 255;
  line_expect (e, file, o, 11, 0, 28, TRESS_SEVERITY_ERROR, TRESS_CHA_FIX_MASKS, "section mask");
}

static void
b_mask_order (TressChaFile *file, const Offsets *o, Expect *e)
{
  TressChaLine *l = line_of (file, 11, 0);

  memset (l->mask, 0, 8);
  l->mask[tress_cha_mask_byte (5)] = 255;
  line_expect (e, file, o, 11, 0, 28, TRESS_SEVERITY_INFO, TRESS_CHA_FIX_MASKS, "section 5");
}

static void
b_direction (TressChaFile *file, const Offsets *o, Expect *e)
{
  line_of (file, 10, 1)->direction[1] = INFINITY;
  line_expect (e, file, o, 10, 1, 0, TRESS_SEVERITY_ERROR, -1, "direction");
}

static void
b_tail (TressChaFile *file, const Offsets *o, Expect *e)
{
  gsize end = o->body;
  const TressChaRadeon *rad = file->radeon;

  /* the tail sits after the last material */
  end = o->end;
  for (guint i = 1; i < rad->n_materials; i++)
    {
      const TressChaMaterial *m = &rad->materials[i];
      gsize nr = m->n_ribbons;
      end += 4 + 384 + 4 + 4 * (gsize)m->n_applied + 12 + 36 * (gsize)m->n_lines + 8
             + 24 * nr * (1 + rad->n_morphs) + 4 + 8 * nr + 12 + 4 * (gsize)m->n_uv_floats + 4
             + 4 * nr * (rad->n_moralities + 1) + 4 + 12 * nr + 12 * nr + 4;
    }
  file->radeon->tail = g_malloc0 (7);
  file->radeon->tail_size = 7;
  set_expect (e, "radeon", end, TRESS_SEVERITY_INFO, -1, "7 unknown bytes");
}

static void
b_no_radeon (TressChaFile *file, const Offsets *o, Expect *e)
{
  /* a file whose only fur section has another name: kept, but no fur */
  TressWriter w;

  tress_writer_init (&w, TRESS_LITTLE_ENDIAN, 0);
  cha_radeon_write_body (file->radeon, &w);
  cha_radeon_free (file->radeon);
  file->radeon = file->sections[0].radeon = NULL;
  file->sections[0].opaque = tress_writer_finish (&w);
  tress_writer_clear (&w);
  memcpy (file->sections[0].name, "radeox", 6);
  set_expect (e, "", G_MAXSIZE, TRESS_SEVERITY_WARNING, -1, "no radeon section");
}

typedef struct
{
  const char *name;
  BreakFunc func;
} Case;

static const Case cases[] = {
  { "header-four", b_header_four },
  { "version", b_version },
  { "always-three", b_three },
  { "always-one", b_one },
  { "applied-body-part", b_applied },
  { "line-size", b_line_size },
  { "line-array-size", b_line_array_size },
  { "morph-count", b_morphs_plus_one },
  { "ribbon-count-again", b_ribbons_again },
  { "morality-count", b_moralities_plus_one },
  { "ribbon-count-third", b_ribbons_third },
  { "line-count-again", b_lines_again },
  { "sections", b_sections },
  { "lines-per-section", b_lines_per_section },
  { "quality", b_quality },
  { "length-negative", b_length_negative },
  { "length-max", b_length_max },
  { "zsort", b_zsort },
  { "attachment", b_attach },
  { "first-line", b_first_line },
  { "line-range", b_range },
  { "line-total", b_line_total },
  { "uv", b_uv },
  { "base-points", b_base_points },
  { "weights", b_weights },
  { "weights-345", b_weights_345 },
  { "ref-multiple", b_ref_multiple },
  { "ref-first-multiple", b_ref_first_multiple },
  { "ref-range", b_ref_range },
  { "ambient-copy", b_ambient },
  { "mask", b_mask },
  { "mask-order", b_mask_order },
  { "direction", b_direction },
  { "tail", b_tail },
  { "no-radeon", b_no_radeon },
};

static const TressProblem *
find_problem (GPtrArray *problems, const Expect *e)
{
  for (guint i = 0; i < problems->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (problems, i);
      if (g_str_equal (p->location, e->location) && strstr (p->message, e->needle) != NULL)
        return p;
    }
  return NULL;
}

/* The counts read off a problem list are those counted in the file. */
static void
assert_counts_from_list (const TressChaFile *file, GPtrArray *problems)
{
  g_autoptr (GHashTable) counted = tress_cha_file_count_ribbon_problems (file, NULL);
  g_autoptr (GHashTable) read = tress_cha_file_count_ribbon_problems (file, problems);
  GHashTableIter iter;
  const gint64 *stored;

  g_assert_cmpuint (g_hash_table_size (read), ==, g_hash_table_size (counted));
  g_hash_table_iter_init (&iter, counted);
  while (g_hash_table_iter_next (&iter, (gpointer *)&stored, NULL))
    g_assert_cmpuint (
        tress_cha_ribbon_problems_lookup (read, (guint)(stored[0] >> 32), (guint)stored[0]), ==,
        stored[1]);
}

static void
test_rule (gconstpointer data)
{
  const Case *c = data;
  g_autoptr (TressChaFile) made = cha_test_small (40);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressChaFile) file = NULL;
  g_autoptr (GPtrArray) problems = NULL;
  g_autoptr (GPtrArray) after = NULL;
  g_autoptr (GPtrArray) clean = tress_cha_file_validate (made);
  Offsets o = offsets_of (made);
  Expect e = { 0 };
  const TressProblem *p;

  g_assert_cmpuint (clean->len, ==, 0);
  g_assert_cmpuint (made->radeon->materials[0].n_ribbons, >, 13);
  c->func (made, &o, &e);
  bytes = tress_cha_file_serialize (made);
  file = cha_test_parse (bytes);
  problems = tress_cha_file_validate (file);
  cha_test_print_problems (problems);
  p = find_problem (problems, &e);
  if (p == NULL)
    g_error ("no problem at “%s” mentions “%s”", e.location, e.needle);
  g_assert_cmpint (p->severity, ==, e.severity);
  g_assert_cmpuint (p->offset, ==, e.offset);
  g_assert_cmpint (p->fix_id, ==, e.fix_id);
  g_assert_true ((p->fix != NULL) == (e.fix_id >= 0));
  if (e.check_u32)
    g_assert_cmpuint (cha_test_u32_at (bytes, e.offset), ==, e.value);
  /* a problem of a ribbon or its lines is counted against the ribbon */
  {
    g_autoptr (GHashTable) counts = tress_cha_file_count_ribbon_problems (file, NULL);
    const char *r = strstr (e.location, "/ribbon ");
    guint material = 0, ribbon = 0;

    if (r != NULL && sscanf (e.location, "radeon/material %u", &material) == 1
        && sscanf (r, "/ribbon %u", &ribbon) == 1)
      g_assert_cmpuint (tress_cha_ribbon_problems_lookup (counts, material, ribbon), >, 0);
    assert_counts_from_list (file, problems);
  }

  /* a fix that is offered takes the problem away, and the result reads back */
  if (e.fix_id >= 0)
    {
      g_autoptr (GError) error = NULL;
      g_assert_cmpuint (tress_cha_fix_all (file, NULL, &error), >, 0);
      g_assert_no_error (error);
      after = tress_cha_file_validate (file);
      g_assert_null (find_problem (after, &e));
      {
        g_autoptr (TressChaFile) back = cha_test_reparse (file);
        g_assert_nonnull (back);
      }
    }
  g_free (e.location);
}

/* Many broken lines: listed up to a limit, then summed up, never thousands. */
static void
test_many_problems (void)
{
  g_autoptr (TressChaFile) file = cha_test_small (400);
  TressChaMaterial *m = &file->radeon->materials[0];
  g_autoptr (GPtrArray) problems = NULL;
  const TressProblem *last;

  for (guint i = 0; i < m->n_lines; i++)
    m->lines[i].weights[0] ^= 1;
  problems = tress_cha_file_validate (file);
  g_assert_cmpuint (m->n_lines, >, 1000);
  g_assert_cmpuint (problems->len, ==, 101);
  last = g_ptr_array_index (problems, 100);
  g_assert_nonnull (strstr (last->message, "more of this kind"));
  g_assert_cmpuint (last->n_more, ==, m->n_lines - 100);
  g_assert_cmpint (last->severity, ==, TRESS_SEVERITY_ERROR);
  /* Counted as the problems it stands for. */
  g_assert_cmpuint (tress_problem_list_count (problems, TRESS_SEVERITY_ERROR), ==, m->n_lines);
}

/* The fur editor's marks: every broken ribbon counted, past the list's limit
 * too; problems of the material itself belong to no ribbon. */
static void
test_ribbon_counts (void)
{
  g_autoptr (TressChaFile) file = cha_test_small (400);
  TressChaMaterial *m = &file->radeon->materials[0];
  g_autoptr (GHashTable) clean = tress_cha_file_count_ribbon_problems (file, NULL);
  g_autoptr (GHashTable) counts = NULL;
  g_autoptr (GPtrArray) problems = NULL;
  guint last = m->n_ribbons - 1, listed_on_0 = 0;

  g_assert_cmpuint (g_hash_table_size (clean), ==, 0);
  for (guint i = 0; i < m->n_lines; i++)
    m->lines[i].weights[0] ^= 1;
  m->quality[last] = 5;
  m->always_one = 2;
  counts = tress_cha_file_count_ribbon_problems (file, NULL);
  problems = tress_cha_file_validate (file);
  g_assert_cmpuint (g_hash_table_size (counts), ==, m->n_ribbons);
  for (guint r = 0; r < m->n_ribbons; r++)
    g_assert_cmpuint (tress_cha_ribbon_problems_lookup (counts, 0, r), ==,
                      m->n_ribbon_lines[r] + (r == last));
  g_assert_cmpuint (tress_cha_ribbon_problems_lookup (counts, 1, 0), ==, 0);
  assert_counts_from_list (file, problems);
  /* where the list is complete, it agrees */
  for (guint i = 0; i < problems->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (problems, i);
      listed_on_0 += g_str_has_prefix (p->location, "radeon/material 0/ribbon 0/");
    }
  g_assert_cmpuint (listed_on_0, ==, tress_cha_ribbon_problems_lookup (counts, 0, 0));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/cha/validate/%s", cases[i].name);
      g_test_add_data_func (path, &cases[i], test_rule);
    }
  g_test_add_func ("/cha/validate/many-problems", test_many_problems);
  g_test_add_func ("/cha/validate/ribbon-counts", test_ribbon_counts);
  return g_test_run ();
}
