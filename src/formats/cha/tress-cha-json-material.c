/* tress-cha-json-material.c: a creature fur material put together from its dump
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-cha-json-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

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

gpointer
_tress_cha_json_take (GArray *a)
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

              _tress_cha_json_read_line (b, &l, &x);
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
            _tress_cha_json_read_ribbon (b, &rb);
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
  m->applied = _tress_cha_json_take (g_steal_pointer (&applied));
  m->n_uv_floats = uv->len;
  m->uv = _tress_cha_json_take (g_steal_pointer (&uv));
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
      m->lines = _tress_cha_json_take (g_steal_pointer (&lines));
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
  m->n_sections = _tress_cha_json_take (g_steal_pointer (&rb.n_sections));
  m->n_ribbon_lines = _tress_cha_json_take (g_steal_pointer (&rb.n_lines));
  m->first_line = _tress_cha_json_take (g_steal_pointer (&rb.first_line));
  m->quality = _tress_cha_json_take (g_steal_pointer (&rb.quality));
  m->attach = _tress_cha_json_take (g_steal_pointer (&rb.attach));
  m->base_points = _tress_cha_json_take (g_steal_pointer (&rb.base));
  m->zsort = _tress_cha_json_take (g_steal_pointer (&rb.zsort));
  if (m->n_ribbons > 0)
    {
      m->morph_points = g_new0 (float *, MAX (b->n_morphs, 1));
      for (guint k = 0; k < b->n_morphs; k++)
        m->morph_points[k] = _tress_cha_json_take (g_steal_pointer (&rb.morph[k]));
      m->lengths = g_new0 (float *, (gsize)b->n_moralities + 1);
      for (guint k = 0; k <= b->n_moralities; k++)
        m->lengths[k] = _tress_cha_json_take (g_steal_pointer (&rb.lengths[k]));
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

void
_tress_cha_json_read_materials (Build *b)
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
