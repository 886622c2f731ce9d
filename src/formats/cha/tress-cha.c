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
  .dump = cha_dump_json,
  .build = cha_build_json,
  .diff = cha_diff,
  .fix_all = cha_fix_all,
  .curves = NULL,
};
