/* tress-cha-validate.c: every rule of the format page, with where and how to fix
 *
 * Offsets are those of the bytes serialize would write for the current model,
 * which are the bytes as read for a model nobody edited. A rule broken in many
 * places of one material is listed up to MAX_PER_RULE times, then summed up in
 * one more problem, so a badly broken file still gives a readable list.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>

#include "tress-cha-private.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_PER_RULE 100

typedef enum
{
  R_HEADER,
  R_NO_RADEON,
  R_THREE,
  R_ONE,
  R_APPLIED,
  R_LINE_SIZE,
  R_LINE_ARRAY_SIZE,
  R_COUNTS,
  R_SECTIONS,
  R_QUALITY,
  R_LENGTH_BAD,
  R_LENGTH_MAX,
  R_ZSORT,
  R_ATTACH,
  R_FIRST_LINE,
  R_RANGE,
  R_LINE_TOTAL,
  R_LINES_PER_SECTION,
  R_UV,
  R_POINTS,
  R_WEIGHTS,
  R_REF_MULTIPLE,
  R_REF_RANGE,
  R_AMBIENT,
  R_MASK,
  R_MASK_ORDER,
  R_DIRECTION,
  R_TAIL,
  N_RULES
} Rule;

typedef struct
{
  const char *kind; /* of the first problem past the limit */
  TressSeverity severity;
  int fix_id;
} Dropped;

typedef struct
{
  GPtrArray *list;
  guint count[N_RULES];
  Dropped dropped[N_RULES];
  const char *section;
  guint material;
  int ribbon; /* the ribbon being checked, −1 outside one */
  guint max_per_rule;
  GHashTable *tally; /* counting only (list NULL): (material << 32 | ribbon) → problems */
} V;

/* A problem's location, made only when the problem is listed. */
#define LISTING(v, expr) ((v)->list != NULL ? (expr) : NULL)

/* The key of a ribbon in the counts of tress_cha_file_count_ribbon_problems(). */
static inline gint64
ribbon_key (guint material, guint ribbon)
{
  return ((gint64)material << 32) | ribbon;
}

static void
tally_add (GHashTable *tally, guint material, guint ribbon)
{
  gint64 key = ribbon_key (material, ribbon);
  gint64 *stored = g_hash_table_lookup (tally, &key);

  if (stored == NULL)
    {
      stored = g_new0 (gint64, 2);
      stored[0] = key;
      g_hash_table_add (tally, stored);
    }
  stored[1]++;
}

static void G_GNUC_PRINTF (8, 9)
    add (V *v, Rule rule, TressSeverity severity, const char *location, gsize offset,
         const char *fix, int fix_id, const char *format, ...)
{
  va_list args;

  if (v->tally != NULL)
    {
      if (v->ribbon >= 0)
        tally_add (v->tally, v->material, (guint)v->ribbon);
      return;
    }
  if (++v->count[rule] > v->max_per_rule)
    {
      if (v->count[rule] == v->max_per_rule + 1)
        v->dropped[rule] = (Dropped){ format, severity, fix != NULL ? fix_id : -1 };
      return;
    }
  va_start (args, format);
  g_ptr_array_add (
      v->list, tress_problem_new_valist (severity, location, offset, fix, fix_id, format, args));
  va_end (args);
}

/* After a material: one summary row ("and 300 more of this kind", counted as
 * those problems) per rule that went over the limit. */
static void
flush_counts (V *v, const char *location)
{
  for (guint r = 0; r < N_RULES; r++)
    {
      if (v->count[r] > v->max_per_rule)
        {
          const Dropped *d = &v->dropped[r];
          TressProblem *p
              = tress_problem_new_summary (d->severity, d->kind, v->count[r] - v->max_per_rule);

          p->location = g_strdup (location);
          p->fix_id = d->fix_id;
          g_ptr_array_add (v->list, p);
        }
      v->count[r] = 0;
    }
}

static char *
loc_ribbon (const V *v, guint ribbon)
{
  return g_strdup_printf ("%s/material %u/ribbon %u", v->section, v->material, ribbon);
}

static void
check_line (V *v, const TressChaMaterial *m, const ChaMaterialLayout *l, guint index, int ribbon,
            guint k)
{
  const TressChaLine *line = &m->lines[index];
  gsize off = l->lines + (gsize)index * TRESS_CHA_LINE_SIZE;
  g_autofree char *loc = NULL;
  guint sum = line->weights[0] + line->weights[1] + line->weights[2];
  guint section;

#define LOC()                                                                                      \
  (loc != NULL                                                                                     \
       ? loc                                                                                       \
       : LISTING (v, (loc = ribbon >= 0 ? g_strdup_printf ("%s/material %u/ribbon %d/line %u",     \
                                                           v->section, v->material, ribbon, k)     \
                                        : g_strdup_printf ("%s/material %u/line %u", v->section,   \
                                                           v->material, index))))

  if (sum != TRESS_CHA_WEIGHT_SUM)
    add (v, R_WEIGHTS, TRESS_SEVERITY_ERROR, LOC (), off + 24,
         _ ("rescale the weights to sum to 255"), TRESS_CHA_FIX_WEIGHTS,
         _ ("the weights %u + %u + %u sum to %u, not 255"), line->weights[2], line->weights[1],
         line->weights[0], sum);
  for (guint r = 0; r < 3; r++)
    {
      guint ref = line->refs[r];
      if (ref % 3 != 0)
        add (v, R_REF_MULTIPLE, TRESS_SEVERITY_ERROR, LOC (), off + 16 + 2 * r, NULL, -1,
             _ ("body-part reference %u is %u, not a multiple of 3"), r, ref);
      else if (ref / 3 >= m->n_applied)
        add (v, R_REF_RANGE, TRESS_SEVERITY_ERROR, LOC (), off + 16 + 2 * r, NULL, -1,
             _ ("body-part reference %u is %u (applied-list entry %u), but the material's applied "
                "list has %u entries"),
             r, ref, ref / 3, m->n_applied);
    }
  if (line->ambient_copy != line->ambient)
    add (v, R_AMBIENT, TRESS_SEVERITY_WARNING, LOC (), off + 15, _ ("copy byte 12 to byte 15"),
         TRESS_CHA_FIX_AMBIENT_COPY, _ ("ambient copy (byte 15) is %u but ambient (byte 12) is %u"),
         line->ambient_copy, line->ambient);
  section = tress_cha_line_section (line);
  /* Lines past the seventh section's pair have no usual section: no standard
   * mask to offer (and the mask fix leaves them alone). */
  if (section == 0)
    add (v, R_MASK, TRESS_SEVERITY_ERROR, LOC (), off + 28,
         ribbon >= 0 && k / 2 < 7 ? _ ("set the standard mask for the line's place in the ribbon")
                                  : NULL,
         ribbon >= 0 && k / 2 < 7 ? TRESS_CHA_FIX_MASKS : -1,
         _ ("section mask [%u %u %u %u %u %u %u %u] is not one byte 255 among bytes 0-6 and zeros"),
         line->mask[0], line->mask[1], line->mask[2], line->mask[3], line->mask[4], line->mask[5],
         line->mask[6], line->mask[7]);
  else if (ribbon >= 0 && k / 2 < 7 && section != k / 2 + 1)
    add (v, R_MASK_ORDER, TRESS_SEVERITY_INFO, LOC (), off + 28,
         _ ("set the standard mask for the line's place in the ribbon"), TRESS_CHA_FIX_MASKS,
         _ ("line %u of the ribbon is marked as section %u, the usual order gives section %u "
            "(works, but gives odd shapes)"),
         k, section, k / 2 + 1);
  if (!isfinite (line->direction[0]) || !isfinite (line->direction[1])
      || !isfinite (line->direction[2]))
    add (v, R_DIRECTION, TRESS_SEVERITY_ERROR, LOC (), off, NULL, -1,
         _ ("the direction is not a finite vector"));
#undef LOC
}

static inline gboolean
finite_bits (float f)
{
  guint32 bits;

  memcpy (&bits, &f, 4);
  return (bits & 0x7f800000u) != 0x7f800000u;
}

/* Fast path for the common case: a line that breaks no rule at its place k of
 * a ribbon. Anything else goes through check_line for the details. */
static inline gboolean
line_is_clean (const TressChaLine *line, guint k, guint32 ref_limit)
{
  guint64 mask, expected;

  if (k / 2 >= TRESS_CHA_MAX_SECTIONS)
    return FALSE;
  /* the usual one-hot mask of section k/2 + 1, as the 8 bytes read in host order */
  expected = GUINT64_FROM_LE (G_GUINT64_CONSTANT (0xff) << (8 * tress_cha_mask_byte (k / 2 + 1)));
  memcpy (&mask, line->mask, 8);
  return line->weights[0] + line->weights[1] + line->weights[2] == TRESS_CHA_WEIGHT_SUM
         && line->ambient == line->ambient_copy && mask == expected && line->refs[0] % 3 == 0
         && line->refs[0] < ref_limit && line->refs[1] % 3 == 0 && line->refs[1] < ref_limit
         && line->refs[2] % 3 == 0 && line->refs[2] < ref_limit && finite_bits (line->direction[0])
         && finite_bits (line->direction[1]) && finite_bits (line->direction[2]);
}

static void
check_material (V *v, const TressChaRadeon *rad, guint mi, const ChaMaterialLayout *l)
{
  const TressChaMaterial *m = &rad->materials[mi];
  g_autofree char *mloc = g_strdup_printf ("%s/material %u", v->section, mi);
  g_autofree guint8 *checked = NULL;
  guint64 running = 0, total = 0;
  guint32 ref_limit = (guint32)MIN ((guint64)m->n_applied * 3, G_MAXUINT32);
  gboolean counts_fit = tress_cha_material_line_counts_fit (m);

  v->material = mi;
  if (m->always_one != 1)
    add (v, R_ONE, TRESS_SEVERITY_WARNING, mloc, l->always_one, _ ("set it to 1"),
         TRESS_CHA_FIX_COUNTS, _ ("the value that is always 1 is %u"), m->always_one);
  for (guint32 i = 0; i < m->n_applied; i++)
    if (m->applied[i] >= rad->body_part_max)
      {
        g_autofree char *loc = LISTING (v, g_strdup_printf ("%s/applied %u", mloc, i));
        add (v, R_APPLIED, TRESS_SEVERITY_ERROR, loc, l->applied + 4 * (gsize)i, NULL, -1,
             _ ("applied body part %u is not below BODY_PART_MAX %u"), m->applied[i],
             rad->body_part_max);
      }
  if (m->line_size != TRESS_CHA_LINE_SIZE)
    add (v, R_LINE_SIZE, TRESS_SEVERITY_ERROR, mloc, l->line_size, NULL, -1,
         _ ("LINE_SIZE is %u; lines are only decoded at 36 bytes, so they are kept as bytes and "
            "cannot be edited"),
         m->line_size);
  if ((guint64)m->line_array_size != (guint64)m->line_size * m->n_lines)
    add (v, R_LINE_ARRAY_SIZE, TRESS_SEVERITY_ERROR, mloc, l->line_array_size,
         _ ("set it to LINE_SIZE × LINE_COUNT"), TRESS_CHA_FIX_COUNTS,
         _ ("the line array size is %u, but LINE_SIZE × LINE_COUNT is %llu"), m->line_array_size,
         (unsigned long long)m->line_size * m->n_lines);
  if (m->morphs_plus_one != rad->n_morphs + 1)
    add (v, R_COUNTS, TRESS_SEVERITY_ERROR, mloc, l->morphs_plus_one,
         _ ("set it to MORPH_COUNT + 1"), TRESS_CHA_FIX_COUNTS,
         _ ("MORPH_COUNT + 1 is %u, but the file has %u morphs"), m->morphs_plus_one,
         rad->n_morphs);
  if (m->n_ribbons_again != m->n_ribbons)
    add (v, R_COUNTS, TRESS_SEVERITY_ERROR, mloc, l->n_ribbons_again, _ ("set it to RIBBON_COUNT"),
         TRESS_CHA_FIX_COUNTS, _ ("the second RIBBON_COUNT is %u, the first is %u"),
         m->n_ribbons_again, m->n_ribbons);
  if (m->moralities_plus_one != rad->n_moralities + 1)
    add (v, R_COUNTS, TRESS_SEVERITY_ERROR, mloc, l->moralities_plus_one,
         _ ("set it to MORALITY_COUNT + 1"), TRESS_CHA_FIX_COUNTS,
         _ ("MORALITY_COUNT + 1 is %u, but the file has %u moralities"), m->moralities_plus_one,
         rad->n_moralities);
  if (m->n_ribbons_third != m->n_ribbons)
    add (v, R_COUNTS, TRESS_SEVERITY_ERROR, mloc, l->n_ribbons_third, _ ("set it to RIBBON_COUNT"),
         TRESS_CHA_FIX_COUNTS, _ ("the third RIBBON_COUNT is %u, the first is %u"),
         m->n_ribbons_third, m->n_ribbons);
  if (m->n_lines_again != m->n_lines)
    add (v, R_COUNTS, TRESS_SEVERITY_ERROR, mloc, l->n_lines_again, _ ("set it to LINE_COUNT"),
         TRESS_CHA_FIX_COUNTS, _ ("the second LINE_COUNT is %u, the first is %u"), m->n_lines_again,
         m->n_lines);

  for (guint32 i = 0; i < m->n_uv_floats; i++)
    if (!(m->uv[i] >= 0.0f && m->uv[i] <= 1.0f))
      {
        g_autofree char *loc = LISTING (v, g_strdup_printf ("%s/uv %u", mloc, i));
        add (v, R_UV, TRESS_SEVERITY_WARNING, loc, l->uv + 4 * (gsize)i, _ ("clamp to 0…1"),
             TRESS_CHA_FIX_UV, _ ("UV coordinate %g is outside 0…1"), (double)m->uv[i]);
      }

  if (m->lines != NULL)
    checked = g_malloc0 (m->n_lines / 8 + 1);
  for (guint32 r = 0; r < m->n_ribbons; r++)
    {
      g_autofree char *loc = NULL;
      guint32 s = m->n_sections[r];
      guint32 nl = m->n_ribbon_lines[r];
      guint first, n;
      const float *bp = &m->base_points[6 * (gsize)r];

#define RLOC() (loc != NULL ? loc : LISTING (v, (loc = loc_ribbon (v, r))))
      v->ribbon = (int)r;
      if (s < 1 || s > TRESS_CHA_MAX_SECTIONS)
        add (v, R_SECTIONS, TRESS_SEVERITY_ERROR, RLOC (), l->n_sections + 4 * (gsize)r, NULL, -1,
             _ ("the ribbon has %u sections, expected 1 to 7"), s);
      else if (nl != 2 * s)
        add (v, R_LINES_PER_SECTION, TRESS_SEVERITY_WARNING, RLOC (),
             l->n_ribbon_lines + 4 * (gsize)r, NULL, -1,
             _ ("the ribbon has %u lines for %u sections, usually 2 per section"), nl, s);
      if (m->quality[r] > 2)
        add (v, R_QUALITY, TRESS_SEVERITY_ERROR, RLOC (), l->quality + 4 * (gsize)r,
             _ ("set it to 2 (high)"), TRESS_CHA_FIX_QUALITY,
             _ ("texture quality is %u, expected 0 (low), 1 (medium) or 2 (high)"), m->quality[r]);
      for (guint32 k = 0; k <= rad->n_moralities; k++)
        {
          float len = m->lengths[k][r];
          gsize off = l->lengths + 4 * ((gsize)k * m->n_ribbons + r);
          const char *which = k == 0 ? _ ("base") : _ ("morality");

          if (!isfinite (len) || len < 0.0f)
            add (v, R_LENGTH_BAD, TRESS_SEVERITY_ERROR, RLOC (), off, NULL, -1,
                 _ ("the %s length %g is not a length"), which, (double)len);
          else if (len > tress_cha_max_length (s))
            add (v, R_LENGTH_MAX, TRESS_SEVERITY_WARNING, RLOC (), off,
                 _ ("clamp it to the maximum"), TRESS_CHA_FIX_LENGTHS,
                 _ ("the %s length %.8g is above the maximum %.8g for %u sections"), which,
                 (double)len, (double)tress_cha_max_length (s), s);
        }
      for (guint i = 0; i < 6; i++)
        if (!isfinite (bp[i]))
          {
            add (v, R_POINTS, TRESS_SEVERITY_ERROR, RLOC (), l->base_points + 24 * (gsize)r, NULL,
                 -1, _ ("the base points are not finite"));
            break;
          }
      if (memcmp (&m->zsort[3 * (gsize)r], bp, 12) != 0)
        add (v, R_ZSORT, TRESS_SEVERITY_INFO, RLOC (), l->zsort + 12 * (gsize)r,
             _ ("set it to the first base point"), TRESS_CHA_FIX_ZSORT,
             _ ("the z-sort point is not the ribbon's first base point"));
      if (tress_cha_material_find_applied (m, m->attach[r]) < 0)
        add (v, R_ATTACH, TRESS_SEVERITY_ERROR, RLOC (), l->attach + 4 * (gsize)r,
             m->attach[r] < rad->body_part_max ? _ ("add the body part to the applied list") : NULL,
             m->attach[r] < rad->body_part_max ? TRESS_CHA_FIX_ATTACH : -1,
             _ ("the ribbon is attached to body part %u, which is not in the material's applied "
                "list"),
             m->attach[r]);
      if (m->first_line[r] != running)
        add (v, R_FIRST_LINE, TRESS_SEVERITY_ERROR, RLOC (), l->first_line + 4 * (gsize)r,
             counts_fit ? _ ("recompute the first-line indices") : NULL,
             counts_fit ? TRESS_CHA_FIX_FIRST_LINES : -1,
             counts_fit ? _ ("the first line is %u, expected %llu (the running sum of line "
                             "counts)")
                        : _ ("the first line is %u, expected %llu (the running sum of line "
                             "counts, which do not add up to LINE_COUNT: a count may be the "
                             "damaged field)"),
             m->first_line[r], (unsigned long long)running);
      running += nl;
      total += nl;
      if (m->lines != NULL)
        {
          if (!tress_cha_material_ribbon_lines (m, r, &first, &n))
            add (v, R_RANGE, TRESS_SEVERITY_ERROR, RLOC (), l->first_line + 4 * (gsize)r, NULL, -1,
                 _ ("lines %u to %llu lie outside the line array of %u lines"), m->first_line[r],
                 (unsigned long long)m->first_line[r] + nl, m->n_lines);
          else
            for (guint k = 0; k < n; k++)
              {
                guint idx = first + k;
                if (checked[idx / 8] & (1u << (idx % 8)))
                  continue;
                checked[idx / 8] |= (guint8)(1u << (idx % 8));
                if (!line_is_clean (&m->lines[idx], k, ref_limit))
                  check_line (v, m, l, idx, (int)r, k);
              }
        }
#undef RLOC
    }
  v->ribbon = -1;
  if (total != m->n_lines)
    add (v, R_LINE_TOTAL, TRESS_SEVERITY_ERROR, mloc, l->n_ribbon_lines, NULL, -1,
         _ ("the ribbons' line counts sum to %llu, but LINE_COUNT is %u"),
         (unsigned long long)total, m->n_lines);
  if (m->lines != NULL)
    for (guint32 i = 0; i < m->n_lines; i++)
      if (!(checked[i / 8] & (1u << (i % 8))))
        check_line (v, m, l, i, -1, 0);
  flush_counts (v, mloc);
}

static void
run (V *v, const TressChaFile *file)
{
  ChaLayout layout;

  cha_layout_compute (file, &layout);
  if (file->header_four != CHA_HEADER_FOUR)
    add (v, R_HEADER, TRESS_SEVERITY_ERROR, "header", 0x28, _ ("set it to 4"), TRESS_CHA_FIX_COUNTS,
         _ ("the header value that is always 4 is %u (the game crashes otherwise)"),
         file->header_four);
  if (file->version != CHA_VERSION)
    add (v, R_HEADER, TRESS_SEVERITY_ERROR, "header", 0x2c, _ ("set it to 9035"),
         TRESS_CHA_FIX_COUNTS, _ ("the version is %u, the game needs 9035"), file->version);
  if (file->size_convention_ambiguous)
    add (v, R_HEADER, TRESS_SEVERITY_INFO, "", CHA_HEADER_SIZE + TRESS_CHA_NAME_SIZE, NULL, -1,
         _ ("the section sizes fit both readings (counting the bytes after the size field, or the "
            "whole section); they were read as counting the bytes after the size field"));
  if (file->radeon == NULL)
    add (v, R_NO_RADEON, TRESS_SEVERITY_WARNING, "", G_MAXSIZE, NULL, -1,
         _ ("the file has no radeon section, so the creature has no fur"));
  else
    {
      const TressChaRadeon *rad = file->radeon;

      if (rad->always_three != 3)
        add (v, R_THREE, TRESS_SEVERITY_WARNING, "radeon", layout.always_three, _ ("set it to 3"),
             TRESS_CHA_FIX_COUNTS,
             _ ("the value that is always 3 is %u (0-2 hide the fur, above 3 may crash the game)"),
             rad->always_three);
      for (guint32 i = 0; i < rad->n_materials; i++)
        check_material (v, rad, i, &layout.materials[i]);
      if (rad->tail_size > 0)
        add (v, R_TAIL, TRESS_SEVERITY_INFO, "radeon", layout.tail, NULL, -1,
             _ ("%zu unknown bytes after the last material are kept as they are"),
             (size_t)rad->tail_size);
    }
  flush_counts (v, "");
  cha_layout_clear (&layout);
}

static GPtrArray *
validate (const TressChaFile *file, guint max_per_rule)
{
  V v = { tress_problem_list_new (), { 0 }, { { 0 } }, "radeon", 0, -1, max_per_rule, NULL };

  run (&v, file);
  return v.list;
}

GPtrArray *
tress_cha_file_validate (const TressChaFile *file)
{
  return validate (file, MAX_PER_RULE);
}

GPtrArray *
cha_file_validate_all (const TressChaFile *file)
{
  return validate (file, G_MAXUINT);
}

/* TRUE if @problems lists every problem (sums nothing up). */
static gboolean
list_is_whole (GPtrArray *problems)
{
  for (guint i = 0; i < problems->len; i++)
    if (((const TressProblem *)g_ptr_array_index (problems, i))->n_more > 0)
      return FALSE;
  return TRUE;
}

GHashTable *
tress_cha_file_count_ribbon_problems (const TressChaFile *file, GPtrArray *problems)
{
  V v = { NULL, { 0 }, { { 0 } }, "radeon", 0, -1, G_MAXUINT, NULL };

  v.tally = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  if (problems != NULL && list_is_whole (problems))
    {
      /* the usual case, a file with a few problems or none: read off the list */
      for (guint i = 0; i < problems->len; i++)
        {
          const TressProblem *p = g_ptr_array_index (problems, i);
          guint material, ribbon;

          if (p->location != NULL
              && sscanf (p->location, "radeon/material %u/ribbon %u", &material, &ribbon) == 2)
            tally_add (v.tally, material, ribbon);
        }
      return v.tally;
    }
  run (&v, file);
  return v.tally;
}

guint
tress_cha_ribbon_problems_lookup (GHashTable *counts, guint material, guint ribbon)
{
  gint64 key = ribbon_key (material, ribbon);
  const gint64 *stored = g_hash_table_lookup (counts, &key);

  return stored != NULL ? (guint)MIN (stored[1], G_MAXUINT) : 0;
}
