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
#include "tress-cha-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define CHA_JSON_VERSION 1

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
static GPtrArray *
problems_with_pointers (const TressChaFile *file)
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
  g_autoptr (GPtrArray) problems = problems_with_pointers (file);
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

/* ---- build ---------------------------------------------------------------- */

typedef struct
{
  guint32 body_parts[3];
  gboolean has_body_parts;
  gboolean bp_null[3];
  gboolean has_refs;
  gboolean has_section;
  gint64 section; /* -1: null */
} LineExtra;

typedef struct
{
  TressJsonReader *r;
  gboolean have_morphs, have_moralities;
  guint32 n_morphs, n_moralities;
  guint8 (*morph_names)[TRESS_CHA_NAME_SIZE];
  guint8 (*morality_names)[TRESS_CHA_NAME_SIZE];
  GArray *materials; /* TressChaMaterial */
  gboolean materials_read;
  gboolean materials_broken; /* one could not be put together */
} Build;

static const char *
hint_for (const char *name)
{
  if (g_str_equal (name, "section"))
    return "it follows from \"mask\": edit the mask instead";
  if (g_str_equal (name, "offset") || g_str_equal (name, "size"))
    return "section offsets and sizes follow from the contents";
  if (g_str_equal (name, "index"))
    return "the place in the array is the index";
  return NULL;
}

/* A NUL-padded name of @n bytes: a string of at most @n bytes, or
 * {"base64": exactly @n bytes}. */
static gboolean
read_fixed_text (TressJsonReader *r, guint8 *out, gsize n)
{
  if (tress_json_reader_peek (r) == TRESS_JSON_OBJECT)
    {
      static const char *const names[] = { "base64", NULL };
      g_autofree char *path = tress_json_reader_path (r);
      const char *name;
      gboolean ok = FALSE, seen = FALSE;

      tress_json_reader_begin_object (r);
      while ((name = tress_json_reader_next_member (r)) != NULL)
        {
          if (g_str_equal (name, "base64"))
            {
              g_autoptr (GBytes) b = tress_json_reader_read_base64 (r, n);

              seen = TRUE;
              if (b != NULL && g_bytes_get_size (b) != n)
                tress_json_reader_refuse (
                    r, "expected %" G_GSIZE_FORMAT " bytes, found %" G_GSIZE_FORMAT, n,
                    g_bytes_get_size (b));
              else if (b != NULL)
                {
                  memcpy (out, g_bytes_get_data (b, NULL), n);
                  ok = TRUE;
                }
            }
          else
            {
              tress_json_reader_refuse (
                  r, "a name is a string or {\"base64\": its %" G_GSIZE_FORMAT " bytes}", n);
              tress_json_reader_skip (r);
            }
        }
      tress_json_reader_require (r, names, 1, seen ? 1 : 0, path);
      return ok;
    }
  else
    {
      g_autofree char *s = tress_json_reader_read_string (r);
      gsize len;

      if (s == NULL)
        return FALSE;
      len = strlen (s);
      if (len > n)
        {
          g_autofree char *q = tress_json_quote (s, (gssize)len);
          return tress_json_reader_refuse (
              r, "%s is longer than the %" G_GSIZE_FORMAT " bytes this name holds", q, n);
        }
      memset (out, 0, n);
      memcpy (out, s, len);
      return TRUE;
    }
}

static GArray *
read_names (Build *b)
{
  GArray *names = g_array_new (FALSE, TRUE, TRESS_CHA_NAME_SIZE);

  if (!tress_json_reader_begin_array (b->r))
    {
      g_array_unref (names);
      return NULL;
    }
  while (tress_json_reader_next_element (b->r))
    {
      guint8 name[TRESS_CHA_NAME_SIZE];

      if (read_fixed_text (b->r, name, TRESS_CHA_NAME_SIZE))
        g_array_append_vals (names, name, 1);
      else
        g_array_set_size (names, names->len + 1);
    }
  return names;
}

enum
{
  L_DIRECTION,
  L_AMBIENT,
  L_COLOUR,
  L_AMBIENT_COPY,
  L_BODY_PARTS,
  L_REFS,
  L_UNKNOWN,
  L_WEIGHTS,
  L_PAD,
  L_MASK,
  L_SECTION,
};

static const char *const line_names[] = {
  "direction", "ambient", "colour", "ambient_copy", "body_parts", "refs",
  "unknown",   "weights", "pad",    "mask",         "section",    NULL,
};

static void
read_line (Build *b, TressChaLine *l, LineExtra *x)
{
  TressJsonReader *r = b->r;
  g_autofree char *path = tress_json_reader_path (r);
  guint64 seen = 0;
  int which;
  const guint64 required = (1u << L_DIRECTION) | (1u << L_AMBIENT) | (1u << L_COLOUR)
                           | (1u << L_AMBIENT_COPY) | (1u << L_UNKNOWN) | (1u << L_WEIGHTS)
                           | (1u << L_MASK);

  memset (l, 0, sizeof *l);
  memset (x, 0, sizeof *x);
  if (!tress_json_reader_begin_object (r))
    return;
  while ((which = tress_json_reader_next_known (r, line_names, &seen)) != -2)
    switch (which)
      {
      case L_DIRECTION:
        tress_json_reader_read_floats (r, l->direction, 3);
        break;
      case L_AMBIENT:
        tress_json_reader_read_u8 (r, &l->ambient);
        break;
      case L_AMBIENT_COPY:
        tress_json_reader_read_u8 (r, &l->ambient_copy);
        break;
      case L_BODY_PARTS:
        {
          guint k = 0;

          x->has_body_parts = TRUE;
          if (!tress_json_reader_begin_array (r))
            break;
          while (tress_json_reader_next_element (r))
            {
              if (k < 3 && tress_json_reader_peek (r) == TRESS_JSON_NULL)
                {
                  x->bp_null[k] = TRUE;
                  tress_json_reader_skip (r);
                }
              else if (k < 3)
                tress_json_reader_read_u32 (r, &x->body_parts[k]);
              else
                tress_json_reader_skip (r);
              k++;
            }
          if (k != 3)
            tress_json_reader_refuse (r, "expected 3 body parts, found %u", k);
          break;
        }
      case L_REFS:
        {
          guint k = 0;

          x->has_refs = TRUE;
          if (!tress_json_reader_begin_array (r))
            break;
          while (tress_json_reader_next_element (r))
            {
              gint64 v;

              if (k < 3 && tress_json_reader_read_int (r, 0, G_MAXUINT16, &v))
                l->refs[k] = (guint16)v;
              else if (k >= 3)
                tress_json_reader_skip (r);
              k++;
            }
          if (k != 3)
            tress_json_reader_refuse (r, "expected 3 references, found %u", k);
          break;
        }
      case L_UNKNOWN:
        tress_json_reader_read_u8s (r, l->unknown, 2);
        break;
      case L_WEIGHTS:
        {
          guint8 w[3] = { 0, 0, 0 };

          /* reference order: weights[0] of refs[0] is byte 26 */
          tress_json_reader_read_u8s (r, w, 3);
          l->weights[0] = w[2];
          l->weights[1] = w[1];
          l->weights[2] = w[0];
          break;
        }
      case L_PAD:
        tress_json_reader_read_u8 (r, &l->pad);
        break;
      case L_MASK:
        tress_json_reader_read_u8s (r, l->mask, 8);
        break;
      case L_SECTION:
        x->has_section = TRUE;
        x->section = -1;
        if (tress_json_reader_peek (r) == TRESS_JSON_NULL)
          tress_json_reader_skip (r);
        else
          tress_json_reader_read_int (r, 0, 7, &x->section);
        break;
      case L_COLOUR:
        tress_json_reader_read_u8s (r, l->colour, 2);
        break;
      default:
        tress_json_reader_keep_unknown (r);
        break;
      }
  tress_json_reader_require (r, line_names, required, seen, path);
  if (!x->has_body_parts && !x->has_refs && tress_json_reader_ok (r))
    {
      g_autofree char *p = g_strconcat (path, "/body_parts", NULL);
      tress_json_reader_refuse_at (r, p, "the member \"body_parts\" is missing");
    }
}

typedef struct
{
  GArray *n_sections, *n_lines, *first_line, *quality, *attach, *base, *zsort;
  GArray **morph;         /* n_morphs arrays of 6 floats a ribbon */
  GArray **lengths;       /* n_moralities + 1 */
  GArray *explicit_first; /* gboolean per ribbon */
} Ribbons;

enum
{
  R_SECTIONS,
  R_LINE_COUNT,
  R_FIRST_LINE,
  R_QUALITY,
  R_ATTACH,
  R_BASE,
  R_MORPH,
  R_LENGTHS,
  R_ZSORT,
};

static const char *const ribbon_names[] = {
  "sections",    "line_count",   "first_line", "quality", "attach",
  "base_points", "morph_points", "lengths",    "zsort",   NULL,
};

static void
read_ribbon (Build *b, Ribbons *rb)
{
  TressJsonReader *r = b->r;
  g_autofree char *path = tress_json_reader_path (r);
  guint64 seen = 0;
  int which;
  guint32 sections = 0, lines = 0, first = 0, quality = 0, attach = 0;
  gboolean explicit_first = FALSE;
  float base[6] = { 0 }, zsort[3] = { 0 };
  const guint64 required = ((1u << 9) - 1) & ~(1u << R_FIRST_LINE);
  guint n_morph = 0, n_len = 0;

  if (tress_json_reader_begin_object (r))
    while ((which = tress_json_reader_next_known (r, ribbon_names, &seen)) != -2)
      switch (which)
        {
        case R_SECTIONS:
          tress_json_reader_read_u32 (r, &sections);
          break;
        case R_LINE_COUNT:
          tress_json_reader_read_u32 (r, &lines);
          break;
        case R_FIRST_LINE:
          explicit_first = tress_json_reader_read_u32 (r, &first);
          break;
        case R_QUALITY:
          tress_json_reader_read_u32 (r, &quality);
          break;
        case R_ATTACH:
          tress_json_reader_read_u32 (r, &attach);
          break;
        case R_BASE:
          tress_json_reader_read_floats (r, base, 6);
          break;
        case R_ZSORT:
          tress_json_reader_read_floats (r, zsort, 3);
          break;
        case R_MORPH:
          if (!tress_json_reader_begin_array (r))
            break;
          while (tress_json_reader_next_element (r))
            {
              float d[6] = { 0 };

              tress_json_reader_read_floats (r, d, 6);
              if (n_morph < b->n_morphs)
                g_array_append_vals (rb->morph[n_morph], d, 6);
              n_morph++;
            }
          if (n_morph != b->n_morphs)
            tress_json_reader_refuse (r,
                                      "expected one displacement for each of the %u morphs, "
                                      "found %u",
                                      b->n_morphs, n_morph);
          break;
        case R_LENGTHS:
          if (!tress_json_reader_begin_array (r))
            break;
          while (tress_json_reader_next_element (r))
            {
              float v = 0;

              tress_json_reader_read_float (r, &v);
              if (n_len <= b->n_moralities)
                g_array_append_val (rb->lengths[n_len], v);
              n_len++;
            }
          if (n_len != b->n_moralities + 1)
            tress_json_reader_refuse (r,
                                      "expected %u lengths (the base one, then one for each "
                                      "morality), found %u",
                                      b->n_moralities + 1, n_len);
          break;
        default:
          tress_json_reader_keep_unknown (r);
          break;
        }
  tress_json_reader_require (r, ribbon_names, required, seen, path);
  /* Keep every array at the ribbon count, whatever was missing. */
  for (guint k = n_morph; k < b->n_morphs; k++)
    g_array_set_size (rb->morph[k], rb->n_sections->len * 6 + 6);
  for (guint k = n_len; k <= b->n_moralities; k++)
    g_array_set_size (rb->lengths[k], rb->n_sections->len + 1);
  g_array_append_val (rb->n_sections, sections);
  g_array_append_val (rb->n_lines, lines);
  g_array_append_val (rb->first_line, first);
  g_array_append_val (rb->explicit_first, explicit_first);
  g_array_append_val (rb->quality, quality);
  g_array_append_val (rb->attach, attach);
  g_array_append_vals (rb->base, base, 6);
  g_array_append_vals (rb->zsort, zsort, 3);
}

enum
{
  M_ALWAYS_ONE,
  M_DESCRIPTION,
  M_APPLIED,
  M_LINE_SIZE,
  M_LINES,
  M_RAW_LINES,
  M_LINE_COUNT,
  M_RIBBONS,
  M_UV_ROWS,
  M_UV_GROUPS,
  M_UV_PIECES,
  M_UV,
  M_COUNTS,
};

static const char *const material_names[] = {
  "always_one",
  "description_base64",
  "applied",
  "line_size",
  "lines",
  "raw_lines_base64",
  "line_count",
  "ribbons",
  "uv_rows",
  "uv_groups_per_row",
  "uv_pieces_per_group",
  "uv",
  "counts",
  NULL,
};

static const char *const count_names[] = {
  "line_array_size",
  "morph_count_plus_one",
  "ribbon_count_again",
  "morality_count_plus_one",
  "ribbon_count_third",
  "line_count_again",
  NULL,
};

static gpointer
take (GArray *a)
{
  gsize n = 0;
  gpointer p = g_array_steal (a, &n);

  g_array_unref (a);
  return p;
}

/* FALSE when the material cannot be put together (a member missing, or of
 * a size that does not fit); values refused one by one leave it whole. */
static gboolean
read_material (Build *b, TressChaMaterial *m)
{
  TressJsonReader *r = b->r;
  g_autofree char *path = tress_json_reader_path (r);
  guint64 seen = 0, counts_seen = 0;
  int which;
  guint32 counts[6] = { 0 };
  g_autoptr (GArray) lines = NULL;  /* TressChaLine */
  g_autoptr (GArray) extras = NULL; /* LineExtra */
  g_autoptr (GBytes) raw = NULL;
  g_autoptr (GArray) uv = NULL;
  g_autoptr (GArray) applied = NULL;
  Ribbons rb = { 0 };
  guint32 line_count = 0;
  gboolean have_line_count = FALSE;
  const guint64 required = (1u << M_ALWAYS_ONE) | (1u << M_DESCRIPTION) | (1u << M_APPLIED)
                           | (1u << M_LINE_SIZE) | (1u << M_RIBBONS) | (1u << M_UV_ROWS)
                           | (1u << M_UV_GROUPS) | (1u << M_UV_PIECES) | (1u << M_UV);
  guint64 uv_points;
  guint n_errors = tress_json_reader_n_errors (r);
  gboolean whole = FALSE;

  memset (m, 0, sizeof *m);
  m->line_size = TRESS_CHA_LINE_SIZE;
  rb.n_sections = g_array_new (FALSE, TRUE, 4);
  rb.n_lines = g_array_new (FALSE, TRUE, 4);
  rb.first_line = g_array_new (FALSE, TRUE, 4);
  rb.explicit_first = g_array_new (FALSE, TRUE, sizeof (gboolean));
  rb.quality = g_array_new (FALSE, TRUE, 4);
  rb.attach = g_array_new (FALSE, TRUE, 4);
  rb.base = g_array_new (FALSE, TRUE, 4);
  rb.zsort = g_array_new (FALSE, TRUE, 4);
  rb.morph = g_new0 (GArray *, MAX (b->n_morphs, 1));
  for (guint k = 0; k < b->n_morphs; k++)
    rb.morph[k] = g_array_new (FALSE, TRUE, 4);
  rb.lengths = g_new0 (GArray *, b->n_moralities + 1);
  for (guint k = 0; k <= b->n_moralities; k++)
    rb.lengths[k] = g_array_new (FALSE, TRUE, 4);

  if (tress_json_reader_begin_object (r))
    while ((which = tress_json_reader_next_known (r, material_names, &seen)) != -2)
      switch (which)
        {
        case M_ALWAYS_ONE:
          tress_json_reader_read_u32 (r, &m->always_one);
          break;
        case M_DESCRIPTION:
          {
            g_autoptr (GBytes) d = tress_json_reader_read_base64 (r, TRESS_CHA_DESCRIPTION_SIZE);

            if (d != NULL && g_bytes_get_size (d) != TRESS_CHA_DESCRIPTION_SIZE)
              tress_json_reader_refuse (r,
                                        "expected the %d bytes of a material description, "
                                        "found %" G_GSIZE_FORMAT,
                                        TRESS_CHA_DESCRIPTION_SIZE, g_bytes_get_size (d));
            else if (d != NULL)
              memcpy (m->description, g_bytes_get_data (d, NULL), TRESS_CHA_DESCRIPTION_SIZE);
            break;
          }
        case M_APPLIED:
          applied = tress_json_reader_read_u32_array (r, G_MAXUINT32);
          break;
        case M_LINE_SIZE:
          tress_json_reader_read_u32 (r, &m->line_size);
          break;
        case M_LINES:
          lines = g_array_new (FALSE, FALSE, sizeof (TressChaLine));
          extras = g_array_new (FALSE, FALSE, sizeof (LineExtra));
          if (!tress_json_reader_begin_array (r))
            break;
          while (tress_json_reader_next_element (r))
            {
              TressChaLine l;
              LineExtra x;

              read_line (b, &l, &x);
              g_array_append_val (lines, l);
              g_array_append_val (extras, x);
            }
          break;
        case M_RAW_LINES:
          raw = tress_json_reader_read_base64 (r, 0);
          break;
        case M_LINE_COUNT:
          have_line_count = tress_json_reader_read_u32 (r, &line_count);
          break;
        case M_RIBBONS:
          if (!tress_json_reader_begin_array (r))
            break;
          while (tress_json_reader_next_element (r))
            read_ribbon (b, &rb);
          break;
        case M_UV_ROWS:
          tress_json_reader_read_u32 (r, &m->uv_rows);
          break;
        case M_UV_GROUPS:
          tress_json_reader_read_u32 (r, &m->uv_groups);
          break;
        case M_UV_PIECES:
          tress_json_reader_read_u32 (r, &m->uv_pieces);
          break;
        case M_UV:
          uv = tress_json_reader_read_float_array (r, G_MAXUINT32);
          break;
        case M_COUNTS:
          if (tress_json_reader_begin_object (r))
            {
              int c;
              while ((c = tress_json_reader_next_known (r, count_names, &counts_seen)) != -2)
                if (c >= 0)
                  tress_json_reader_read_u32 (r, &counts[c]);
                else
                  tress_json_reader_keep_unknown (r);
            }
          break;
        default:
          tress_json_reader_keep_unknown (r);
          break;
        }
  if (!tress_json_reader_require (r, material_names, required, seen, path) || applied == NULL
      || uv == NULL)
    goto out;
  n_errors = tress_json_reader_n_errors (r);

  /* lines */
  if (m->line_size == TRESS_CHA_LINE_SIZE)
    {
      if (raw != NULL || have_line_count)
        tress_json_reader_refuse_at (r, path,
                                     "a material with 36-byte lines gives them as \"lines\", "
                                     "not as \"raw_lines_base64\" and \"line_count\"");
      else if (lines == NULL && tress_json_reader_ok (r))
        {
          g_autofree char *p = g_strconcat (path, "/lines", NULL);
          tress_json_reader_refuse_at (r, p, "the member \"lines\" is missing");
        }
    }
  else if (lines != NULL || raw == NULL || !have_line_count)
    tress_json_reader_refuse_at (r, path,
                                 "lines of %u bytes are not decoded: give them as "
                                 "\"raw_lines_base64\" with their \"line_count\", not as "
                                 "\"lines\"",
                                 m->line_size);
  else if ((guint64)line_count * m->line_size != g_bytes_get_size (raw))
    {
      g_autofree char *p = g_strconcat (path, "/raw_lines_base64", NULL);
      tress_json_reader_refuse_at (
          r, p, "%" G_GSIZE_FORMAT " bytes, but %u lines of %u bytes take %" G_GUINT64_FORMAT,
          g_bytes_get_size (raw), line_count, m->line_size, (guint64)line_count * m->line_size);
    }

  /* uv */
  uv_points = tress_cha_uv_points (m->uv_rows, m->uv_groups, m->uv_pieces);
  if (uv != NULL && (uv_points > G_MAXUINT32 / 2 || uv->len != uv_points * 2))
    {
      g_autofree char *p = g_strconcat (path, "/uv", NULL);
      tress_json_reader_refuse_at (r, p,
                                   "a %u × %u × %u UV table holds %" G_GUINT64_FORMAT
                                   " numbers (2 for each of its points), found %u",
                                   m->uv_rows, m->uv_groups, m->uv_pieces, uv_points * 2, uv->len);
    }

  if (tress_json_reader_n_errors (r) > n_errors || !tress_json_reader_ok (r))
    goto out;
  whole = TRUE;

  m->n_applied = applied->len;
  m->applied = take (g_steal_pointer (&applied));
  m->n_uv_floats = uv->len;
  m->uv = take (g_steal_pointer (&uv));
  if (lines != NULL)
    {
      /* Body parts become references to the first place of each in the
       * applied list; explicit references are kept as given. */
      for (guint i = 0; i < lines->len; i++)
        {
          TressChaLine *l = &g_array_index (lines, TressChaLine, i);
          const LineExtra *x = &g_array_index (extras, LineExtra, i);
          g_autofree char *lp = NULL;

          if (x->has_refs)
            {
              for (guint k = 0; x->has_body_parts && k < 3; k++)
                {
                  gint64 bp = tress_cha_material_ref_body_part (m, l, k);

                  if ((bp < 0) != x->bp_null[k] || (bp >= 0 && bp != x->body_parts[k]))
                    {
                      lp = g_strdup_printf ("%s/lines/%u/body_parts/%u", path, i, k);
                      tress_json_reader_refuse_at (
                          r, lp,
                          "does not match refs[%u] = %u (%s); with \"refs\" given, the body "
                          "parts follow from them and the applied list: edit one of the two, "
                          "or leave out \"refs\" to give body parts only",
                          k, l->refs[k],
                          bp < 0 ? "no entry of the applied list" : "see the applied list");
                      g_clear_pointer (&lp, g_free);
                    }
                }
            }
          else
            for (guint k = 0; k < 3; k++)
              {
                int place;

                if (x->bp_null[k])
                  {
                    lp = g_strdup_printf ("%s/lines/%u/body_parts/%u", path, i, k);
                    tress_json_reader_refuse_at (r, lp,
                                                 "null stands for a reference to no body part, "
                                                 "which needs the reference itself in \"refs\"");
                    g_clear_pointer (&lp, g_free);
                    continue;
                  }
                place = tress_cha_material_find_applied (m, x->body_parts[k]);
                if (place < 0 || (guint64)place * 3 > G_MAXUINT16)
                  {
                    GString *list = g_string_new (NULL);

                    for (guint32 a = 0; a < m->n_applied && a < 32; a++)
                      g_string_append_printf (list, "%s%u", a > 0 ? ", " : "", m->applied[a]);
                    if (m->n_applied > 32)
                      g_string_append (list, ", …");
                    lp = g_strdup_printf ("%s/lines/%u/body_parts/%u", path, i, k);
                    tress_json_reader_refuse_at (
                        r, lp,
                        "body part %u is not in the material's applied list (%s/applied: %s); "
                        "add it there first",
                        x->body_parts[k], path, list->str);
                    g_string_free (list, TRUE);
                    g_clear_pointer (&lp, g_free);
                    continue;
                  }
                l->refs[k] = (guint16)(3 * place);
              }
          if (x->has_section)
            {
              guint s = tress_cha_line_section (l);

              if ((x->section < 0 && s != 0) || (x->section >= 0 && (guint)x->section != s))
                {
                  char given[16], actual[16];

                  lp = g_strdup_printf ("%s/lines/%u/section", path, i);
                  g_snprintf (given, sizeof given, "%" G_GINT64_FORMAT, x->section);
                  g_snprintf (actual, sizeof actual, "%u", s);
                  tress_json_reader_refuse_at (
                      r, lp,
                      "is %s, but the mask stands for %s; the section follows from \"mask\": "
                      "edit the mask instead",
                      x->section < 0 ? "null" : given, s == 0 ? "no section" : actual);
                  g_clear_pointer (&lp, g_free);
                }
            }
        }
      m->n_lines = lines->len;
      m->lines = take (g_steal_pointer (&lines));
    }
  else if (raw != NULL)
    {
      m->n_lines = line_count;
      m->raw_lines = g_malloc (MAX (g_bytes_get_size (raw), 1));
      memcpy (m->raw_lines, g_bytes_get_data (raw, NULL), g_bytes_get_size (raw));
    }

  /* ribbons */
  m->n_ribbons = rb.n_sections->len;
  {
    guint64 running = 0;

    for (guint i = 0; i < m->n_ribbons; i++)
      {
        if (!g_array_index (rb.explicit_first, gboolean, i))
          g_array_index (rb.first_line, guint32, i) = (guint32)MIN (running, G_MAXUINT32);
        running += g_array_index (rb.n_lines, guint32, i);
      }
  }
  m->n_sections = take (g_steal_pointer (&rb.n_sections));
  m->n_ribbon_lines = take (g_steal_pointer (&rb.n_lines));
  m->first_line = take (g_steal_pointer (&rb.first_line));
  m->quality = take (g_steal_pointer (&rb.quality));
  m->attach = take (g_steal_pointer (&rb.attach));
  m->base_points = take (g_steal_pointer (&rb.base));
  m->zsort = take (g_steal_pointer (&rb.zsort));
  if (m->n_ribbons > 0)
    {
      m->morph_points = g_new0 (float *, MAX (b->n_morphs, 1));
      for (guint k = 0; k < b->n_morphs; k++)
        m->morph_points[k] = take (g_steal_pointer (&rb.morph[k]));
      m->lengths = g_new0 (float *, (gsize)b->n_moralities + 1);
      for (guint k = 0; k <= b->n_moralities; k++)
        m->lengths[k] = take (g_steal_pointer (&rb.lengths[k]));
    }

  /* counts: as given where given, else what they repeat */
  m->line_array_size
      = (counts_seen & 1) ? counts[0] : (guint32)((guint64)m->line_size * m->n_lines);
  m->morphs_plus_one = (counts_seen & 2) ? counts[1] : b->n_morphs + 1;
  m->n_ribbons_again = (counts_seen & 4) ? counts[2] : m->n_ribbons;
  m->moralities_plus_one = (counts_seen & 8) ? counts[3] : b->n_moralities + 1;
  m->n_ribbons_third = (counts_seen & 16) ? counts[4] : m->n_ribbons;
  m->n_lines_again = (counts_seen & 32) ? counts[5] : m->n_lines;

out:
  g_clear_pointer (&rb.n_sections, g_array_unref);
  g_clear_pointer (&rb.n_lines, g_array_unref);
  g_clear_pointer (&rb.first_line, g_array_unref);
  g_clear_pointer (&rb.explicit_first, g_array_unref);
  g_clear_pointer (&rb.quality, g_array_unref);
  g_clear_pointer (&rb.attach, g_array_unref);
  g_clear_pointer (&rb.base, g_array_unref);
  g_clear_pointer (&rb.zsort, g_array_unref);
  for (guint k = 0; k < b->n_morphs; k++)
    g_clear_pointer (&rb.morph[k], g_array_unref);
  g_free (rb.morph);
  for (guint k = 0; k <= b->n_moralities; k++)
    g_clear_pointer (&rb.lengths[k], g_array_unref);
  g_free (rb.lengths);
  if (!whole)
    cha_material_clear (m, b->n_morphs, b->n_moralities);
  return whole;
}

static void
read_materials (Build *b)
{
  if (!tress_json_reader_begin_array (b->r))
    return;
  b->materials_read = TRUE;
  while (tress_json_reader_next_element (b->r))
    {
      TressChaMaterial m;

      if (!read_material (b, &m))
        b->materials_broken = TRUE;
      g_array_append_val (b->materials, m);
    }
}

typedef struct
{
  guint8 name[TRESS_CHA_NAME_SIZE];
  GBytes *opaque; /* NULL: the decoded radeon section */
  gint64 offset, size;
  gboolean has_offset, has_size;
} SectionIn;

static void
section_in_clear (gpointer p)
{
  SectionIn *s = p;
  g_clear_pointer (&s->opaque, g_bytes_unref);
}

static GArray *
read_sections (TressJsonReader *r)
{
  GArray *sections = g_array_new (FALSE, TRUE, sizeof (SectionIn));
  static const char *const names[] = { "name", "offset", "size", "base64", NULL };

  g_array_set_clear_func (sections, section_in_clear);
  if (!tress_json_reader_begin_array (r))
    return sections;
  while (tress_json_reader_next_element (r))
    {
      SectionIn s = { { 0 }, NULL, 0, 0, FALSE, FALSE };
      g_autofree char *path = tress_json_reader_path (r);
      guint64 seen = 0;
      int which;

      if (tress_json_reader_begin_object (r))
        while ((which = tress_json_reader_next_known (r, names, &seen)) != -2)
          switch (which)
            {
            case 0:
              read_fixed_text (r, s.name, TRESS_CHA_NAME_SIZE);
              break;
            case 1:
              s.has_offset = tress_json_reader_read_int (r, 0, G_MAXINT64, &s.offset);
              break;
            case 2:
              s.has_size = tress_json_reader_read_int (r, 0, G_MAXINT64, &s.size);
              break;
            case 3:
              s.opaque = tress_json_reader_read_base64 (r, 0);
              break;
            default:
              tress_json_reader_keep_unknown (r);
              break;
            }
      tress_json_reader_require (r, names, 1, seen, path);
      g_array_append_val (sections, s);
    }
  return sections;
}

enum
{
  T_FORMAT,
  T_VERSION,
  T_MAGIC,
  T_HEADER_FOUR,
  T_FILE_VERSION,
  T_CONVENTION,
  T_SECTIONS,
  T_MORPHS,
  T_MORALITIES,
  T_THREE,
  T_BODY_PART_MAX,
  T_MATERIALS,
  T_TAIL,
  T_PROBLEMS,
};

static const char *const top_names[] = {
  "format",       "version",       "magic",
  "header_four",  "file_version",  "section_size_convention",
  "sections",     "morphs",        "moralities",
  "always_three", "body_part_max", "materials",
  "tail_base64",  "problems",      NULL,
};

/* "path\nmessage" of each error and warning the dumped file had. */
static GHashTable *
read_problems (TressJsonReader *r)
{
  GHashTable *set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  static const char *const names[] = { "location", "message", NULL };

  if (!tress_json_reader_begin_array (r))
    return set;
  while (tress_json_reader_next_element (r))
    {
      g_autofree char *path = NULL, *message = NULL;
      guint64 seen = 0;
      int which;

      if (!tress_json_reader_begin_object (r))
        continue;
      while ((which = tress_json_reader_next_known (r, names, &seen)) != -2)
        if (which == 0)
          path = tress_json_reader_read_string (r);
        else if (which == 1)
          message = tress_json_reader_read_string (r);
        else
          tress_json_reader_skip (r); /* severity, offset, fix */
      if (message != NULL)
        g_hash_table_add (set, g_strconcat (path != NULL ? path : "", "\n", message, NULL));
    }
  return set;
}

/* Whether @path, or a member or element of it or one it lies in, was
 * refused already (a value refused and left at its default breaks a rule
 * too: one refusal a place is enough). */
static gboolean
already_refused (GHashTable *refused, const char *path)
{
  GHashTableIter iter;
  gpointer key;
  gsize n = strlen (path);

  if (g_hash_table_size (refused) == 0)
    return FALSE;
  if (g_hash_table_contains (refused, path))
    return TRUE;
  g_hash_table_iter_init (&iter, refused);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      const char *k = key;
      gsize m = strlen (k);

      if (m > 0
          && ((m < n && strncmp (path, k, m) == 0 && path[m] == '/')
              || (n < m && strncmp (k, path, n) == 0 && k[n] == '/')))
        return TRUE;
    }
  return FALSE;
}

gboolean
cha_build_json (TressJsonReader *r, TressJsonBuild *out)
{
  Build b = { r };
  g_autoptr (TressChaFile) file = g_new0 (TressChaFile, 1);
  g_autoptr (TressChaFile) check = NULL;
  g_autoptr (GArray) sections = NULL;
  g_autoptr (GArray) morphs = NULL, moralities = NULL;
  g_autoptr (GHashTable) before = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) after = NULL;
  g_autoptr (GBytes) tail = NULL;
  g_autoptr (GHashTable) refused = NULL;
  guint32 three = 3, body_part_max = 0;
  guint64 seen = 0;
  int which;
  gboolean deferred = FALSE;
  const guint64 required = (1u << T_FORMAT) | (1u << T_VERSION) | (1u << T_MAGIC)
                           | (1u << T_HEADER_FOUR) | (1u << T_FILE_VERSION) | (1u << T_CONVENTION)
                           | (1u << T_SECTIONS);
  const guint64 radeon_members = (1u << T_MORPHS) | (1u << T_MORALITIES) | (1u << T_THREE)
                                 | (1u << T_BODY_PART_MAX) | (1u << T_MATERIALS);
  guint radeon_section = G_MAXUINT;
  guint n_value_errors;
  ChaLayout layout;

  b.materials = g_array_new (FALSE, TRUE, sizeof (TressChaMaterial));
  file->header_four = CHA_HEADER_FOUR;
  file->version = CHA_VERSION;

  if (tress_json_reader_begin_object (r))
    while ((which = tress_json_reader_next_known (r, top_names, &seen)) != -2)
      switch (which)
        {
        case T_MAGIC:
          read_fixed_text (r, file->magic, TRESS_CHA_MAGIC_SIZE);
          break;
        case T_HEADER_FOUR:
          tress_json_reader_read_u32 (r, &file->header_four);
          break;
        case T_FILE_VERSION:
          tress_json_reader_read_u32 (r, &file->version);
          break;
        case T_CONVENTION:
          {
            g_autofree char *c = tress_json_reader_read_string (r);

            if (g_strcmp0 (c, "body") == 0)
              file->size_convention = TRESS_CHA_SIZE_BODY;
            else if (g_strcmp0 (c, "whole") == 0)
              file->size_convention = TRESS_CHA_SIZE_WHOLE;
            else if (c != NULL)
              {
                g_autofree char *q = tress_json_quote (c, -1);
                tress_json_reader_refuse (r,
                                          "expected \"body\" (sizes count the bytes after the "
                                          "size field) or \"whole\" (the whole section), found %s",
                                          q);
              }
            break;
          }
        case T_SECTIONS:
          sections = read_sections (r);
          break;
        case T_MORPHS:
          morphs = read_names (&b);
          b.have_morphs = morphs != NULL;
          break;
        case T_MORALITIES:
          moralities = read_names (&b);
          b.have_moralities = moralities != NULL;
          break;
        case T_THREE:
          tress_json_reader_read_u32 (r, &three);
          break;
        case T_BODY_PART_MAX:
          tress_json_reader_read_u32 (r, &body_part_max);
          break;
        case T_MATERIALS:
          /* The materials need the morph and morality counts: read them in a
           * second pass when they come later in the text. */
          if (!b.have_morphs || !b.have_moralities)
            {
              deferred = TRUE;
              tress_json_reader_skip (r);
            }
          else
            {
              b.n_morphs = morphs->len;
              b.n_moralities = moralities->len;
              read_materials (&b);
            }
          break;
        case T_TAIL:
          tail = tress_json_reader_read_base64 (r, 0);
          break;
        case T_PROBLEMS:
          before = read_problems (r);
          break;
        case T_FORMAT:
          tress_json_reader_check_format (r, "cha");
          break;
        case T_VERSION:
          tress_json_reader_check_version (r, CHA_JSON_VERSION, "creature-fur");
          break;
        default:
          tress_json_reader_keep_unknown (r);
          break;
        }
  if (deferred && b.have_morphs && b.have_moralities && tress_json_reader_ok (r))
    {
      const char *name;

      b.n_morphs = morphs->len;
      b.n_moralities = moralities->len;
      tress_json_reader_rewind (r);
      tress_json_reader_begin_object (r);
      while ((name = tress_json_reader_next_member (r)) != NULL)
        if (g_str_equal (name, "materials") && !b.materials_read)
          read_materials (&b);
        else
          tress_json_reader_skip (r);
    }

  tress_json_reader_note_missing (r, top_names, 1u << T_PROBLEMS, seen, "",
                                  "the dumped file's errors are not known, and each one the "
                                  "file has is refused");
  n_value_errors = tress_json_reader_n_errors (r);
  if (!tress_json_reader_require (r, top_names, required, seen, ""))
    n_value_errors = G_MAXUINT - 1; /* below: nothing to put together */

  /* The sections: the radeon one is the first named "radeon" without bytes. */
  for (guint i = 0; sections != NULL && i < sections->len; i++)
    {
      SectionIn *s = &g_array_index (sections, SectionIn, i);

      if (s->opaque != NULL)
        continue;
      if (radeon_section != G_MAXUINT || strncmp ((const char *)s->name, "radeon", 7) != 0)
        {
          g_autofree char *p = g_strdup_printf ("/sections/%u", i);
          tress_json_reader_refuse_at (r, p,
                                       "only the first section named \"radeon\" is decoded; give "
                                       "this one's bytes as \"base64\"");
          continue;
        }
      radeon_section = i;
    }
  for (guint i = 0; sections != NULL && i < sections->len; i++)
    {
      SectionIn *s = &g_array_index (sections, SectionIn, i);

      if (s->opaque != NULL && radeon_section == G_MAXUINT
          && strncmp ((const char *)s->name, "radeon", 7) == 0)
        {
          g_autofree char *p = g_strdup_printf ("/sections/%u/base64", i);
          tress_json_reader_refuse_at (r, p,
                                       "the first section named \"radeon\" is the decoded one: "
                                       "give its contents as \"morphs\", \"materials\" and the "
                                       "members beside them, not as bytes");
        }
    }
  if (radeon_section != G_MAXUINT)
    tress_json_reader_require (r, top_names, radeon_members, seen, "");
  else if ((seen & radeon_members) != 0 || tail != NULL)
    tress_json_reader_refuse_at (r, "",
                                 "morphs, materials and the members beside them describe the "
                                 "radeon section, but \"sections\" lists none without bytes");

  /* Values refused one by one still leave a file to check for more; a part
   * missing does not (names given as something else than a list among them:
   * refused where they stand, there are none to count the materials by). */
  if (!tress_json_reader_ok (r) || b.materials_broken || sections == NULL
      || tress_json_reader_n_errors (r) != n_value_errors
      || (radeon_section != G_MAXUINT && (morphs == NULL || moralities == NULL)))
    {
      for (guint i = 0; i < b.materials->len; i++)
        cha_material_clear (&g_array_index (b.materials, TressChaMaterial, i), b.n_morphs,
                            b.n_moralities);
      g_array_unref (b.materials);
      return FALSE;
    }

  /* The model, then its bytes, then the model those bytes give: exactly
   * what opening the rebuilt file gives. */
  file->n_sections = sections->len;
  file->sections = g_new0 (TressChaSection, MAX (sections->len, 1));
  for (guint i = 0; i < sections->len; i++)
    {
      SectionIn *s = &g_array_index (sections, SectionIn, i);
      TressChaSection *d = &file->sections[i];

      memcpy (d->name, s->name, TRESS_CHA_NAME_SIZE);
      if (i == radeon_section)
        {
          TressChaRadeon *rad = g_new0 (TressChaRadeon, 1);

          rad->n_morphs = morphs->len;
          rad->morph_names = g_malloc0 (MAX ((gsize)morphs->len, 1) * TRESS_CHA_NAME_SIZE);
          /* An empty GArray has no data at all: memcpy must not see its NULL. */
          if (morphs->len > 0)
            memcpy (rad->morph_names, morphs->data, (gsize)morphs->len * TRESS_CHA_NAME_SIZE);
          rad->n_moralities = moralities->len;
          rad->morality_names = g_malloc0 (MAX ((gsize)moralities->len, 1) * TRESS_CHA_NAME_SIZE);
          if (moralities->len > 0)
            memcpy (rad->morality_names, moralities->data,
                    (gsize)moralities->len * TRESS_CHA_NAME_SIZE);
          rad->always_three = three;
          rad->body_part_max = body_part_max;
          rad->n_materials = b.materials->len;
          rad->materials = take (g_steal_pointer (&b.materials));
          if (rad->materials == NULL)
            rad->materials = g_new0 (TressChaMaterial, 1);
          if (tail != NULL && g_bytes_get_size (tail) > 0)
            {
              rad->tail_size = g_bytes_get_size (tail);
              rad->tail = g_memdup2 (g_bytes_get_data (tail, NULL), rad->tail_size);
            }
          d->radeon = rad;
          file->radeon = rad;
        }
      else
        d->opaque = g_bytes_ref (s->opaque);
    }
  if (b.materials != NULL)
    g_array_unref (b.materials);
  if (tress_cha_file_serialized_size (file) > G_MAXUINT32 + (gsize)CHA_HEADER_SIZE)
    return tress_json_reader_refuse_at (r, "", "the file would be larger than 4 GiB");
  bytes = tress_cha_file_serialize (file);
  check = tress_cha_file_parse (bytes, &error);
  if (check == NULL)
    return tress_json_reader_refuse_at (r, "", "the file this JSON describes does not open: %s",
                                        error->message);

  /* Members build does not apply must say what the file says. */
  tress_json_reader_check_unknown (r, cha_dump_json, check, hint_for);

  /* The format's rules, on the result: an error the dumped file did not
   * have at the same place is refused; a new warning is noted. */
  refused = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < tress_json_reader_get_problems (r)->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (tress_json_reader_get_problems (r), i);
      if (p->severity >= TRESS_SEVERITY_ERROR)
        g_hash_table_add (refused, p->location);
    }
  after = problems_with_pointers (check);
  for (guint i = 0; i < after->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (after, i);
      g_autofree char *key = g_strconcat (p->location, "\n", p->message, NULL);

      if (p->severity < TRESS_SEVERITY_WARNING
          || (before != NULL && g_hash_table_contains (before, key))
          || already_refused (refused, p->location))
        continue;
      if (p->severity >= TRESS_SEVERITY_ERROR)
        tress_json_reader_refuse_at (r, p->location, "%s", p->message);
      else
        tress_json_reader_note_at (r, p->location, "%s", p->message);
    }

  /* Offsets and sizes of sections follow from the contents: say where they
   * moved to. */
  cha_layout_compute (check, &layout);
  for (guint i = 0; i < sections->len && i < check->n_sections; i++)
    {
      SectionIn *s = &g_array_index (sections, SectionIn, i);
      gsize start = layout.section_starts[i];
      gsize size = layout.section_starts[i + 1] - start - CHA_SECTION_PREFIX;

      if ((s->has_offset && (gsize)s->offset != start) || (s->has_size && (gsize)s->size != size))
        {
          g_autofree char *p = g_strdup_printf ("/sections/%u", i);
          tress_json_reader_note_at (r, p,
                                     "the section is now %" G_GSIZE_FORMAT
                                     " bytes at offset %" G_GSIZE_FORMAT
                                     " (offsets and sizes follow from the contents)",
                                     size, start);
        }
    }
  cha_layout_clear (&layout);

  if (tress_json_reader_n_errors (r) > 0)
    return FALSE;
  out->model = g_steal_pointer (&check);
  /* the bytes of the model, which the problems were compared with above */
  out->original = g_steal_pointer (&bytes);
  out->n_edits = 0;
  return TRUE;
}
