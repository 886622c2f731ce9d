/* tress-cha.c: the creature-fur format's entry in the registry
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-cha.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tress-cha-edit.h"
#include "tress-cha-private.h"

static gpointer
cha_parse (GBytes *bytes, const char *filename, GError **error)
{
  return tress_cha_file_parse (bytes, error);
}

static void
cha_free (gpointer model)
{
  tress_cha_file_free (model);
}

static GPtrArray *
cha_validate (gpointer model)
{
  return tress_cha_file_validate (model);
}

static GBytes *
cha_serialize (gpointer model, GError **error)
{
  return tress_cha_file_serialize (model);
}

static char *
name_string (const guint8 *name, gsize n)
{
  g_autofree char *raw = g_strndup ((const char *)name, n);
  return g_utf8_make_valid (raw, -1);
}

static void
append_names (GString *s, const guint8 (*names)[TRESS_CHA_NAME_SIZE], guint32 n)
{
  for (guint32 i = 0; i < n; i++)
    {
      g_autofree char *name = name_string (names[i], TRESS_CHA_NAME_SIZE);
      g_string_append_printf (s, "%s%s", i > 0 ? ", " : "", name);
    }
  if (n == 0)
    g_string_append (s, "none");
}

static char *
cha_describe (gpointer model)
{
  const TressChaFile *file = model;
  GString *s = g_string_new (NULL);
  g_autofree char *magic = name_string (file->magic, TRESS_CHA_MAGIC_SIZE);

  g_string_append_printf (s, "Magic: %s\nVersion: %u\n", magic, file->version);
  g_string_append_printf (s, "Section sizes: %s\n",
                          file->size_convention == TRESS_CHA_SIZE_BODY
                              ? "count the bytes after the size field"
                              : "count the whole section");
  for (guint i = 0; i < file->n_sections; i++)
    {
      const TressChaSection *sec = &file->sections[i];
      g_autofree char *name = name_string (sec->name, TRESS_CHA_NAME_SIZE);

      if (sec->radeon != NULL)
        g_string_append_printf (s, "Section %s: %" G_GSIZE_FORMAT " bytes, decoded\n", name,
                                cha_radeon_body_size (sec->radeon));
      else
        g_string_append_printf (s, "Section %s: %" G_GSIZE_FORMAT " bytes, kept as they are\n",
                                name, g_bytes_get_size (sec->opaque));
    }
  if (file->radeon != NULL)
    {
      const TressChaRadeon *rad = file->radeon;
      guint64 ribbons = 0, lines = 0;

      g_string_append (s, "Morphs: ");
      append_names (s, (const guint8 (*)[TRESS_CHA_NAME_SIZE])rad->morph_names, rad->n_morphs);
      g_string_append (s, "\nMoralities: ");
      append_names (s, (const guint8 (*)[TRESS_CHA_NAME_SIZE])rad->morality_names,
                    rad->n_moralities);
      g_string_append_printf (s, "\nBody parts: %u\nMaterials: %u\n", rad->body_part_max,
                              rad->n_materials);
      for (guint32 i = 0; i < rad->n_materials; i++)
        {
          const TressChaMaterial *m = &rad->materials[i];
          g_string_append_printf (s, "Material %u: %u ribbons, %u lines, on body parts", i,
                                  m->n_ribbons, m->n_lines);
          for (guint32 k = 0; k < m->n_applied; k++)
            g_string_append_printf (s, " %u", m->applied[k]);
          g_string_append_printf (s, ", UV %u×%u×%u\n", m->uv_rows, m->uv_groups, m->uv_pieces);
          ribbons += m->n_ribbons;
          lines += m->n_lines;
        }
      g_string_append_printf (s, "Ribbons: %" G_GUINT64_FORMAT "\nLines: %" G_GUINT64_FORMAT "\n",
                              ribbons, lines);
    }
  return g_string_free (s, FALSE);
}

static void
add_floats (JsonBuilder *b, const char *member, const float *v, gsize n)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (gsize i = 0; i < n; i++)
    json_builder_add_double_value (b, v[i]);
  json_builder_end_array (b);
}

static void
add_u32s (JsonBuilder *b, const char *member, const guint32 *v, gsize n)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (gsize i = 0; i < n; i++)
    json_builder_add_int_value (b, v[i]);
  json_builder_end_array (b);
}

static void
add_bytes (JsonBuilder *b, const char *member, const guint8 *v, gsize n)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (gsize i = 0; i < n; i++)
    json_builder_add_int_value (b, v[i]);
  json_builder_end_array (b);
}

static void
add_int (JsonBuilder *b, const char *member, gint64 v)
{
  json_builder_set_member_name (b, member);
  json_builder_add_int_value (b, v);
}

static void
add_string (JsonBuilder *b, const char *member, const char *v)
{
  json_builder_set_member_name (b, member);
  json_builder_add_string_value (b, v);
}

static void
dump_line (JsonBuilder *b, const TressChaMaterial *m, guint index)
{
  const TressChaLine *l = &m->lines[index];
  guint8 w[3] = { l->weights[2], l->weights[1], l->weights[0] };
  guint32 refs[3] = { l->refs[0], l->refs[1], l->refs[2] };

  json_builder_begin_object (b);
  add_int (b, "index", index);
  add_floats (b, "direction", l->direction, 3);
  add_int (b, "ambient", l->ambient);
  add_bytes (b, "colour", l->colour, 2);
  add_int (b, "ambient_copy", l->ambient_copy);
  add_u32s (b, "refs", refs, 3);
  json_builder_set_member_name (b, "body_parts");
  json_builder_begin_array (b);
  for (guint k = 0; k < 3; k++)
    json_builder_add_int_value (b, tress_cha_material_ref_body_part (m, l, k));
  json_builder_end_array (b);
  add_bytes (b, "unknown", l->unknown, 2);
  add_bytes (b, "weights", w, 3);
  add_int (b, "pad", l->pad);
  add_bytes (b, "mask", l->mask, 8);
  add_int (b, "section", tress_cha_line_section (l));
  json_builder_end_object (b);
}

static void
dump_material (JsonBuilder *b, const TressChaRadeon *rad, const TressChaMaterial *m)
{
  g_autofree char *desc = g_base64_encode (m->description, TRESS_CHA_DESCRIPTION_SIZE);

  json_builder_begin_object (b);
  add_int (b, "always_one", m->always_one);
  add_string (b, "description_base64", desc);
  add_u32s (b, "applied", m->applied, m->n_applied);
  add_int (b, "line_size", m->line_size);
  add_int (b, "line_count", m->n_lines);
  add_int (b, "line_array_size", m->line_array_size);
  add_int (b, "ribbon_count", m->n_ribbons);
  add_int (b, "morph_count_plus_one", m->morphs_plus_one);
  add_int (b, "ribbon_count_again", m->n_ribbons_again);
  add_int (b, "uv_rows", m->uv_rows);
  add_int (b, "uv_groups_per_row", m->uv_groups);
  add_int (b, "uv_pieces_per_group", m->uv_pieces);
  add_floats (b, "uv", m->uv, m->n_uv_floats);
  add_int (b, "morality_count_plus_one", m->moralities_plus_one);
  add_int (b, "ribbon_count_third", m->n_ribbons_third);
  add_int (b, "line_count_again", m->n_lines_again);
  if (m->raw_lines != NULL)
    {
      g_autofree char *raw = g_base64_encode (m->raw_lines, (gsize)m->n_lines * m->line_size);
      add_string (b, "raw_lines_base64", raw);
    }
  json_builder_set_member_name (b, "ribbons");
  json_builder_begin_array (b);
  for (guint32 r = 0; r < m->n_ribbons; r++)
    {
      guint first, n;

      json_builder_begin_object (b);
      add_int (b, "index", r);
      add_int (b, "sections", m->n_sections[r]);
      add_int (b, "quality", m->quality[r]);
      add_int (b, "attach", m->attach[r]);
      add_int (b, "first_line", m->first_line[r]);
      add_int (b, "line_count", m->n_ribbon_lines[r]);
      add_floats (b, "base_points", &m->base_points[6 * (gsize)r], 6);
      json_builder_set_member_name (b, "morph_points");
      json_builder_begin_array (b);
      for (guint32 k = 0; k < rad->n_morphs; k++)
        {
          json_builder_begin_array (b);
          for (guint i = 0; i < 6; i++)
            json_builder_add_double_value (b, m->morph_points[k][6 * (gsize)r + i]);
          json_builder_end_array (b);
        }
      json_builder_end_array (b);
      json_builder_set_member_name (b, "lengths");
      json_builder_begin_array (b);
      for (guint32 k = 0; k <= rad->n_moralities; k++)
        json_builder_add_double_value (b, m->lengths[k][r]);
      json_builder_end_array (b);
      add_floats (b, "zsort", &m->zsort[3 * (gsize)r], 3);
      json_builder_set_member_name (b, "lines");
      json_builder_begin_array (b);
      if (tress_cha_material_ribbon_lines (m, r, &first, &n))
        for (guint k = 0; k < n; k++)
          dump_line (b, m, first + k);
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
cha_dump (gpointer model, JsonBuilder *b)
{
  const TressChaFile *file = model;
  g_autofree char *magic = name_string (file->magic, TRESS_CHA_MAGIC_SIZE);

  json_builder_begin_object (b);
  add_string (b, "format", "cha");
  add_string (b, "magic", magic);
  add_int (b, "header_four", file->header_four);
  add_int (b, "version", file->version);
  add_string (b, "section_size_convention",
              file->size_convention == TRESS_CHA_SIZE_BODY ? "body" : "whole");
  json_builder_set_member_name (b, "sections");
  json_builder_begin_array (b);
  for (guint i = 0; i < file->n_sections; i++)
    {
      const TressChaSection *sec = &file->sections[i];
      g_autofree char *name = name_string (sec->name, TRESS_CHA_NAME_SIZE);

      json_builder_begin_object (b);
      add_string (b, "name", name);
      if (sec->radeon != NULL)
        {
          const TressChaRadeon *rad = sec->radeon;

          json_builder_set_member_name (b, "morphs");
          json_builder_begin_array (b);
          for (guint32 k = 0; k < rad->n_morphs; k++)
            {
              g_autofree char *n = name_string (rad->morph_names[k], TRESS_CHA_NAME_SIZE);
              json_builder_add_string_value (b, n);
            }
          json_builder_end_array (b);
          json_builder_set_member_name (b, "moralities");
          json_builder_begin_array (b);
          for (guint32 k = 0; k < rad->n_moralities; k++)
            {
              g_autofree char *n = name_string (rad->morality_names[k], TRESS_CHA_NAME_SIZE);
              json_builder_add_string_value (b, n);
            }
          json_builder_end_array (b);
          add_int (b, "always_three", rad->always_three);
          add_int (b, "body_part_max", rad->body_part_max);
          json_builder_set_member_name (b, "materials");
          json_builder_begin_array (b);
          for (guint32 k = 0; k < rad->n_materials; k++)
            dump_material (b, rad, &rad->materials[k]);
          json_builder_end_array (b);
          if (rad->tail_size > 0)
            {
              g_autofree char *tail = g_base64_encode (rad->tail, rad->tail_size);
              add_string (b, "tail_base64", tail);
            }
        }
      else
        {
          gsize n = 0;
          const guint8 *data = g_bytes_get_data (sec->opaque, &n);
          g_autofree char *body = g_base64_encode (data, n);

          add_int (b, "size", n);
          add_string (b, "opaque_base64", body);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static guint
cha_fix_all (gpointer model, TressHistory *history, GError **error)
{
  return tress_cha_fix_all (model, history, error);
}

static const char *const cha_extensions[] = { "cha", NULL };

const TressFormat tress_format_cha = {
  .id = "cha",
  .display_name = N_ ("Creature fur"),
  .extensions = cha_extensions,
  .mime_type = "application/x-lionhead-creature",
  .probe = tress_cha_probe,
  .parse = cha_parse,
  .free = cha_free,
  .validate = cha_validate,
  .serialize = cha_serialize,
  .describe = cha_describe,
  .dump = cha_dump,
  .fix_all = cha_fix_all,
  .curves = NULL,
};
