/* tress-cha-json.c: creature fur as JSON and back (dump and build)
 *
 * The schema is docs/json.md's "Creature fur". Every value of the file is a
 * member written as stored, so build sets them as given; what the format's
 * rules say (weights sum to 255, a body part is in the material's applied
 * list, counts agree…) is checked on the result by the same validate pass
 * the editor and every CLI edit use, and an error the dumped file did not
 * have (its "problems") is refused at the member's JSON Pointer. Members that
 * follow from others ("section" from "mask", "body_parts" beside explicit
 * "refs", section offsets) are checked, not applied.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-cha-json-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* ---- JSON Pointers of places in the file ---------------------------------- */

static const char *
line_member (gsize byte, gboolean explicit_refs)
{
  if (byte < 12)
    return "direction";
  if (byte == 12)
    return "ambient";
  if (byte < 15)
    return "colour";
  if (byte == 15)
    return "ambient_copy";
  if (byte < 22)
    return explicit_refs ? "refs" : "body_parts";
  if (byte < 24)
    return "unknown";
  if (byte < 27)
    return "weights";
  if (byte == 27)
    return "pad";
  return "mask";
}

/* Whether a line's references are what its body parts give (3 × the first
 * place of each in the applied list): then the dump writes body parts only. */
static gboolean
refs_canonical (const TressChaMaterial *m, const TressChaLine *l)
{
  for (guint k = 0; k < 3; k++)
    {
      guint ref = l->refs[k];

      if (ref % 3 != 0 || ref / 3 >= m->n_applied
          || tress_cha_material_find_applied (m, m->applied[ref / 3]) != (int)(ref / 3))
        return FALSE;
    }
  return TRUE;
}

/* The JSON Pointer of the member holding byte @off of the file. */
static char *
pointer_of_offset (const TressChaFile *file, const ChaLayout *layout, gsize off)
{
  if (off == G_MAXSIZE)
    return g_strdup ("");
  if (off < CHA_HEADER_SIZE)
    return g_strdup (off >= 0x2c ? "/file_version" : off >= 0x28 ? "/header_four" : "/magic");
  for (guint i = 0; i < file->n_sections; i++)
    {
      gsize start = layout->section_starts[i], end = layout->section_starts[i + 1];
      const TressChaSection *s = &file->sections[i];
      const TressChaRadeon *rad = s->radeon;

      if (off < start || off >= end)
        continue;
      if (off < start + TRESS_CHA_NAME_SIZE)
        return g_strdup_printf ("/sections/%u/name", i);
      if (off < start + CHA_SECTION_PREFIX)
        return g_strdup_printf ("/sections/%u/size", i);
      if (rad == NULL || rad != file->radeon)
        return g_strdup_printf ("/sections/%u/base64", i);
      if (off < layout->always_three)
        {
          gsize p = layout->radeon_body;

          if (off < p + 4)
            return g_strdup ("/morphs");
          p += 4;
          if (off < p + 32 * (gsize)rad->n_morphs)
            return g_strdup_printf ("/morphs/%" G_GSIZE_FORMAT, (off - p) / 32);
          p += 32 * (gsize)rad->n_morphs;
          if (off < p + 4)
            return g_strdup ("/moralities");
          p += 4;
          return g_strdup_printf ("/moralities/%" G_GSIZE_FORMAT, (off - p) / 32);
        }
      if (off < layout->always_three + 4)
        return g_strdup ("/always_three");
      if (off < layout->always_three + 8)
        return g_strdup ("/body_part_max");
      if (off < layout->always_three + 12)
        return g_strdup ("/materials");
      if (off >= layout->tail)
        return g_strdup ("/tail_base64");
      for (guint mi = 0; mi < layout->n_materials; mi++)
        {
          const ChaMaterialLayout *l = &layout->materials[mi];
          const TressChaMaterial *m = &rad->materials[mi];
          gsize n = m->n_ribbons;
          const char *one = NULL;

          if (off < l->start || off >= l->end)
            continue;
#define IN(field, size) (off >= l->field && off < l->field + (size))
          if (IN (always_one, 4))
            one = "always_one";
          else if (off < l->n_applied)
            one = "description_base64";
          else if (IN (n_applied, 4))
            one = "applied";
          else if (IN (applied, 4 * (gsize)m->n_applied))
            return g_strdup_printf ("/materials/%u/applied/%" G_GSIZE_FORMAT, mi,
                                    (off - l->applied) / 4);
          else if (IN (line_size, 4))
            one = "line_size";
          else if (IN (n_lines, 4))
            one = m->lines != NULL ? "lines" : "line_count";
          else if (IN (line_array_size, 4))
            one = "counts/line_array_size";
          else if (IN (lines, (gsize)m->n_lines * m->line_size))
            {
              gsize rel = off - l->lines;

              if (m->lines == NULL)
                one = "raw_lines_base64";
              else
                return g_strdup_printf (
                    "/materials/%u/lines/%" G_GSIZE_FORMAT "/%s", mi, rel / TRESS_CHA_LINE_SIZE,
                    line_member (rel % TRESS_CHA_LINE_SIZE,
                                 !refs_canonical (m, &m->lines[rel / TRESS_CHA_LINE_SIZE])));
            }
          else if (IN (n_ribbons, 4))
            one = "ribbons";
          else if (IN (morphs_plus_one, 4))
            one = "counts/morph_count_plus_one";
          else if (IN (base_points, 24 * n))
            return g_strdup_printf ("/materials/%u/ribbons/%" G_GSIZE_FORMAT "/base_points", mi,
                                    (off - l->base_points) / 24);
          else if (IN (morph_points, 24 * n * rad->n_morphs))
            return g_strdup_printf (
                "/materials/%u/ribbons/%" G_GSIZE_FORMAT "/morph_points/%" G_GSIZE_FORMAT, mi,
                (off - l->morph_points) / 24 % n, (off - l->morph_points) / 24 / n);
          else if (IN (n_ribbons_again, 4))
            one = "counts/ribbon_count_again";
          else if (IN (n_sections, 4 * n))
            return g_strdup_printf ("/materials/%u/ribbons/%" G_GSIZE_FORMAT "/sections", mi,
                                    (off - l->n_sections) / 4);
          else if (IN (quality, 4 * n))
            return g_strdup_printf ("/materials/%u/ribbons/%" G_GSIZE_FORMAT "/quality", mi,
                                    (off - l->quality) / 4);
          else if (IN (uv_rows, 4))
            one = "uv_rows";
          else if (IN (uv_rows, 8))
            one = "uv_groups_per_row";
          else if (IN (uv_rows, 12))
            one = "uv_pieces_per_group";
          else if (IN (uv, 4 * (gsize)m->n_uv_floats))
            return g_strdup_printf ("/materials/%u/uv/%" G_GSIZE_FORMAT, mi, (off - l->uv) / 4);
          else if (IN (moralities_plus_one, 4))
            one = "counts/morality_count_plus_one";
          else if (IN (lengths, 4 * n * (rad->n_moralities + 1)))
            return g_strdup_printf ("/materials/%u/ribbons/%" G_GSIZE_FORMAT
                                    "/lengths/%" G_GSIZE_FORMAT,
                                    mi, (off - l->lengths) / 4 % n, (off - l->lengths) / 4 / n);
          else if (IN (n_ribbons_third, 4))
            one = "counts/ribbon_count_third";
          else if (IN (zsort, 12 * n))
            return g_strdup_printf ("/materials/%u/ribbons/%" G_GSIZE_FORMAT "/zsort", mi,
                                    (off - l->zsort) / 12);
          else if (IN (attach, 4 * n))
            return g_strdup_printf ("/materials/%u/ribbons/%" G_GSIZE_FORMAT "/attach", mi,
                                    (off - l->attach) / 4);
          else if (IN (first_line, 4 * n))
            return g_strdup_printf ("/materials/%u/ribbons/%" G_GSIZE_FORMAT "/first_line", mi,
                                    (off - l->first_line) / 4);
          else if (IN (n_ribbon_lines, 4 * n))
            return g_strdup_printf ("/materials/%u/ribbons/%" G_GSIZE_FORMAT "/line_count", mi,
                                    (off - l->n_ribbon_lines) / 4);
          else
            one = "counts/line_count_again";
#undef IN
          return g_strdup_printf ("/materials/%u/%s", mi, one);
        }
      return g_strdup ("/materials");
    }
  return g_strdup ("");
}

/* Every problem of @file (none left out), each with its JSON Pointer in the
 * problem's location. */
GPtrArray *
_tress_cha_json_problems_with_pointers (const TressChaFile *file)
{
  GPtrArray *problems = cha_file_validate_all (file);
  ChaLayout layout;

  cha_layout_compute (file, &layout);
  for (guint i = 0; i < problems->len; i++)
    {
      TressProblem *p = g_ptr_array_index (problems, i);

      g_free (p->location);
      p->location = pointer_of_offset (file, &layout, p->offset);
    }
  cha_layout_clear (&layout);
  return problems;
}

/* ---- dump ----------------------------------------------------------------- */

/* A NUL-padded name: its text when that is all there is (valid UTF-8, no
 * control characters, zeros after it), else {"base64": the bytes}. */
static void
add_fixed_text (TressJsonWriter *w, const guint8 *bytes, gsize n)
{
  gsize len = 0;
  gboolean plain = TRUE;

  while (len < n && bytes[len] != 0)
    {
      if (bytes[len] < 0x20 || bytes[len] == 0x7f)
        plain = FALSE;
      len++;
    }
  for (gsize i = len; i < n; i++)
    if (bytes[i] != 0)
      plain = FALSE;
  if (plain && g_utf8_validate_len ((const char *)bytes, len, NULL))
    {
      tress_json_add_string_len (w, (const char *)bytes, len);
      return;
    }
  tress_json_begin_object_compact (w);
  tress_json_base64_member (w, "base64", bytes, n);
  tress_json_end_object (w);
}

static void
dump_line (TressJsonWriter *w, const TressChaMaterial *m, const TressChaLine *l)
{
  guint8 weights[3] = { l->weights[2], l->weights[1], l->weights[0] };
  guint section = tress_cha_line_section (l);
  gboolean canonical = refs_canonical (m, l);

  tress_json_begin_object_compact (w);
  tress_json_floats_member (w, "direction", l->direction, 3);
  tress_json_int_member (w, "ambient", l->ambient);
  tress_json_u8s_member (w, "colour", l->colour, 2);
  tress_json_int_member (w, "ambient_copy", l->ambient_copy);
  tress_json_member (w, "body_parts");
  tress_json_begin_array_compact (w);
  for (guint k = 0; k < 3; k++)
    {
      gint64 bp = tress_cha_material_ref_body_part (m, l, k);
      if (bp < 0)
        tress_json_add_null (w);
      else
        tress_json_add_int (w, bp);
    }
  tress_json_end_array (w);
  if (!canonical)
    {
      tress_json_member (w, "refs");
      tress_json_begin_array_compact (w);
      for (guint k = 0; k < 3; k++)
        tress_json_add_int (w, l->refs[k]);
      tress_json_end_array (w);
    }
  tress_json_u8s_member (w, "unknown", l->unknown, 2);
  tress_json_u8s_member (w, "weights", weights, 3);
  if (l->pad != 0)
    tress_json_int_member (w, "pad", l->pad);
  tress_json_u8s_member (w, "mask", l->mask, 8);
  tress_json_member (w, "section");
  if (section == 0)
    tress_json_add_null (w);
  else
    tress_json_add_int (w, section);
  tress_json_end_object (w);
}

static void
dump_material (TressJsonWriter *w, const TressChaRadeon *rad, const TressChaMaterial *m)
{
  guint64 running = 0;
  gboolean any_count = FALSE;

  tress_json_begin_object (w);
  tress_json_int_member (w, "always_one", m->always_one);
  tress_json_base64_member (w, "description_base64", m->description, TRESS_CHA_DESCRIPTION_SIZE);
  tress_json_u32s_member (w, "applied", m->applied, m->n_applied);
  tress_json_int_member (w, "line_size", m->line_size);
  tress_json_int_member (w, "uv_rows", m->uv_rows);
  tress_json_int_member (w, "uv_groups_per_row", m->uv_groups);
  tress_json_int_member (w, "uv_pieces_per_group", m->uv_pieces);
  tress_json_floats_member (w, "uv", m->uv, m->n_uv_floats);

  /* The repeated counts, only where they disagree with what they repeat. */
#define COUNT(name, value, expected)                                                               \
  if ((guint64)(value) != (guint64)(expected))                                                     \
    {                                                                                              \
      if (!any_count)                                                                              \
        {                                                                                          \
          tress_json_member (w, "counts");                                                         \
          tress_json_begin_object_compact (w);                                                     \
          any_count = TRUE;                                                                        \
        }                                                                                          \
      tress_json_int_member (w, name, value);                                                      \
    }
  COUNT ("line_array_size", m->line_array_size, (guint64)m->line_size * m->n_lines);
  COUNT ("morph_count_plus_one", m->morphs_plus_one, (guint64)rad->n_morphs + 1);
  COUNT ("ribbon_count_again", m->n_ribbons_again, m->n_ribbons);
  COUNT ("morality_count_plus_one", m->moralities_plus_one, (guint64)rad->n_moralities + 1);
  COUNT ("ribbon_count_third", m->n_ribbons_third, m->n_ribbons);
  COUNT ("line_count_again", m->n_lines_again, m->n_lines);
#undef COUNT
  if (any_count)
    tress_json_end_object (w);

  tress_json_member (w, "ribbons");
  tress_json_begin_array (w);
  for (guint32 r = 0; r < m->n_ribbons; r++)
    {
      tress_json_begin_object_compact (w);
      tress_json_int_member (w, "sections", m->n_sections[r]);
      tress_json_int_member (w, "line_count", m->n_ribbon_lines[r]);
      if (m->first_line[r] != running)
        tress_json_int_member (w, "first_line", m->first_line[r]);
      running += m->n_ribbon_lines[r];
      tress_json_int_member (w, "quality", m->quality[r]);
      tress_json_int_member (w, "attach", m->attach[r]);
      tress_json_floats_member (w, "base_points", &m->base_points[6 * (gsize)r], 6);
      tress_json_member (w, "morph_points");
      tress_json_begin_array_compact (w);
      for (guint32 k = 0; k < rad->n_morphs; k++)
        {
          tress_json_begin_array_compact (w);
          for (guint i = 0; i < 6; i++)
            tress_json_add_float (w, m->morph_points[k][6 * (gsize)r + i]);
          tress_json_end_array (w);
        }
      tress_json_end_array (w);
      tress_json_member (w, "lengths");
      tress_json_begin_array_compact (w);
      for (guint32 k = 0; k <= rad->n_moralities; k++)
        tress_json_add_float (w, m->lengths[k][r]);
      tress_json_end_array (w);
      tress_json_floats_member (w, "zsort", &m->zsort[3 * (gsize)r], 3);
      tress_json_end_object (w);
    }
  tress_json_end_array (w);

  if (m->lines != NULL)
    {
      tress_json_member (w, "lines");
      tress_json_begin_array (w);
      for (guint32 i = 0; i < m->n_lines; i++)
        dump_line (w, m, &m->lines[i]);
      tress_json_end_array (w);
    }
  else
    {
      tress_json_int_member (w, "line_count", m->n_lines);
      tress_json_base64_member (w, "raw_lines_base64", m->raw_lines,
                                (gsize)m->n_lines * m->line_size);
    }
  tress_json_end_object (w);
}

void
cha_dump_json (gpointer model, TressJsonWriter *w)
{
  const TressChaFile *file = model;
  const TressChaRadeon *rad = file->radeon;
  g_autoptr (GPtrArray) problems = _tress_cha_json_problems_with_pointers (file);
  ChaLayout layout;

  cha_layout_compute (file, &layout);
  tress_json_begin_object (w);
  tress_json_string_member (w, "format", "cha");
  tress_json_int_member (w, "version", CHA_JSON_VERSION);
  tress_json_member (w, "magic");
  add_fixed_text (w, file->magic, TRESS_CHA_MAGIC_SIZE);
  tress_json_int_member (w, "header_four", file->header_four);
  tress_json_int_member (w, "file_version", file->version);
  tress_json_string_member (w, "section_size_convention",
                            file->size_convention == TRESS_CHA_SIZE_BODY ? "body" : "whole");
  tress_json_member (w, "sections");
  tress_json_begin_array (w);
  for (guint i = 0; i < file->n_sections; i++)
    {
      const TressChaSection *s = &file->sections[i];

      tress_json_begin_object_compact (w);
      tress_json_member (w, "name");
      add_fixed_text (w, s->name, TRESS_CHA_NAME_SIZE);
      tress_json_int_member (w, "offset", layout.section_starts[i]);
      tress_json_int_member (
          w, "size", layout.section_starts[i + 1] - layout.section_starts[i] - CHA_SECTION_PREFIX);
      if (s->radeon == NULL)
        {
          gsize n = 0;
          const guint8 *data = g_bytes_get_data (s->opaque, &n);
          tress_json_base64_member (w, "base64", data, n);
        }
      tress_json_end_object (w);
    }
  tress_json_end_array (w);
  if (rad != NULL)
    {
      tress_json_member (w, "morphs");
      tress_json_begin_array_compact (w);
      for (guint32 k = 0; k < rad->n_morphs; k++)
        add_fixed_text (w, rad->morph_names[k], TRESS_CHA_NAME_SIZE);
      tress_json_end_array (w);
      tress_json_member (w, "moralities");
      tress_json_begin_array_compact (w);
      for (guint32 k = 0; k < rad->n_moralities; k++)
        add_fixed_text (w, rad->morality_names[k], TRESS_CHA_NAME_SIZE);
      tress_json_end_array (w);
      tress_json_int_member (w, "always_three", rad->always_three);
      tress_json_int_member (w, "body_part_max", rad->body_part_max);
      if (rad->tail_size > 0)
        tress_json_base64_member (w, "tail_base64", rad->tail, rad->tail_size);
    }
  tress_json_problems_member (w, "problems", problems);
  if (rad != NULL)
    {
      tress_json_member (w, "materials");
      tress_json_begin_array (w);
      for (guint32 k = 0; k < rad->n_materials; k++)
        dump_material (w, rad, &rad->materials[k]);
      tress_json_end_array (w);
    }
  tress_json_end_object (w);
  cha_layout_clear (&layout);
}
