/* tress-cha-model.c: parse and serialize creature-fur files
 *
 * Parsing is bounds checks plus bulk copies: every count is checked against
 * the bytes left before anything is allocated, and each array is one memcpy
 * (plus a byte swap on big-endian hosts). Values that break a rule but leave
 * the layout decodable are kept for validate to report; only bytes that cannot
 * be laid out at all make parse fail, with the field and offset.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-cha-private.h"

#include <math.h>
#include <string.h>

#include "core/tress-progress.h"
#include "core/tress-reader.h"

static const guint8 section_bytes[TRESS_CHA_MAX_SECTIONS] = { 2, 1, 0, 3, 6, 5, 4 };
static const guint8 ambient_steps[TRESS_CHA_MAX_SECTIONS] = { 0, 64, 112, 147, 174, 194, 210 };
static const float max_lengths[TRESS_CHA_MAX_SECTIONS + 1] = {
  0.14285715f, 0.14285715f, 0.14285715f, 0.28571431f,
  0.42857144f, 0.57142862f, 0.71428576f, 0.85714289f,
};

/* ---- helpers -------------------------------------------------------------- */

gboolean
tress_cha_probe (const guint8 *data, gsize size)
{
  return data != NULL && size >= 16
         && g_ascii_strncasecmp ((const char *)data, "lionheadcreature", 16) == 0;
}

guint
tress_cha_mask_byte (guint section)
{
  g_return_val_if_fail (section >= 1 && section <= TRESS_CHA_MAX_SECTIONS, 0);
  return section_bytes[section - 1];
}

guint
tress_cha_line_section (const TressChaLine *line)
{
  guint found = 0;

  for (guint b = 0; b < 8; b++)
    {
      if (line->mask[b] == 0)
        continue;
      if (line->mask[b] != 255 || found != 0 || b == 7)
        return 0;
      for (guint s = 0; s < TRESS_CHA_MAX_SECTIONS; s++)
        if (section_bytes[s] == b)
          found = s + 1;
    }
  return found;
}

guint8
tress_cha_ambient_step (guint section)
{
  g_return_val_if_fail (section >= 1 && section <= TRESS_CHA_MAX_SECTIONS, 0);
  return ambient_steps[section - 1];
}

float
tress_cha_max_length (guint n_sections)
{
  return max_lengths[MIN (n_sections, TRESS_CHA_MAX_SECTIONS)];
}

guint64
tress_cha_uv_points (guint32 rows, guint32 groups, guint32 pieces)
{
  guint64 per, total;

  /* Σ (2n + 2) for n = 1 … rows = rows² + 3 rows */
  per = (guint64)rows * rows + 3 * (guint64)rows;
  if (!g_uint64_checked_mul (&total, per, groups) || !g_uint64_checked_mul (&total, total, pieces))
    return G_MAXUINT64;
  return total;
}

char *
tress_cha_section_get_name (const TressChaSection *section)
{
  return g_strndup ((const char *)section->name, TRESS_CHA_NAME_SIZE);
}

gboolean
tress_cha_material_line_counts_fit (const TressChaMaterial *m)
{
  guint64 sum = 0;

  for (guint32 r = 0; r < m->n_ribbons; r++)
    sum += m->n_ribbon_lines[r];
  return sum == m->n_lines;
}

gboolean
tress_cha_material_ribbon_lines (const TressChaMaterial *m, guint ribbon, guint *first, guint *n)
{
  if (m->lines == NULL || ribbon >= m->n_ribbons)
    return FALSE;
  if (m->first_line[ribbon] > m->n_lines
      || m->n_ribbon_lines[ribbon] > m->n_lines - m->first_line[ribbon])
    return FALSE;
  if (first)
    *first = m->first_line[ribbon];
  if (n)
    *n = m->n_ribbon_lines[ribbon];
  return TRUE;
}

int
tress_cha_material_find_ribbon_of_line (const TressChaMaterial *m, guint line)
{
  guint lo = 0, hi = m->n_ribbons;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (m->first_line[mid] <= line)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return -1;
  lo--;
  return line < (guint64)m->first_line[lo] + m->n_ribbon_lines[lo] && lo <= G_MAXINT ? (int)lo : -1;
}

int
tress_cha_material_find_applied (const TressChaMaterial *m, guint32 body_part)
{
  for (guint32 i = 0; i < m->n_applied && i < G_MAXINT; i++)
    if (m->applied[i] == body_part)
      return (int)i;
  return -1;
}

gint64
tress_cha_material_ref_body_part (const TressChaMaterial *m, const TressChaLine *line, guint k)
{
  guint16 ref = line->refs[k];

  if (ref % 3 != 0 || ref / 3 >= m->n_applied)
    return -1;
  return m->applied[ref / 3];
}

gboolean
cha_name_is_plausible (const guint8 *name)
{
  guint i;

  for (i = 0; i < TRESS_CHA_NAME_SIZE && name[i] != 0; i++)
    if (name[i] < 0x20 || name[i] > 0x7e)
      return FALSE;
  return i > 0 && i < TRESS_CHA_NAME_SIZE;
}

/* ---- byte order ----------------------------------------------------------- */

static void
copy_le32 (void *dst, const guint8 *src, gsize n)
{
  memcpy (dst, src, n * 4);
#if G_BYTE_ORDER == G_BIG_ENDIAN
  {
    guint32 *d = dst;
    for (gsize i = 0; i < n; i++)
      d[i] = GUINT32_SWAP_LE_BE (d[i]);
  }
#endif
}

/* Compiled on every host (only a big-endian one calls it), so that the tests
 * check it where they run. */
void
cha_line_swap_bytes (TressChaLine *line)
{
  guint32 d[3];

  memcpy (d, line->direction, sizeof d);
  for (guint k = 0; k < 3; k++)
    {
      d[k] = GUINT32_SWAP_LE_BE (d[k]);
      line->refs[k] = GUINT16_SWAP_LE_BE (line->refs[k]);
    }
  memcpy (line->direction, d, sizeof d);
}

static void
copy_lines (TressChaLine *dst, const guint8 *src, gsize n)
{
  memcpy (dst, src, n * TRESS_CHA_LINE_SIZE);
#if G_BYTE_ORDER == G_BIG_ENDIAN
  for (gsize i = 0; i < n; i++)
    cha_line_swap_bytes (&dst[i]);
#endif
}

static void
write_le32 (TressWriter *w, const void *src, gsize n)
{
#if G_BYTE_ORDER == G_BIG_ENDIAN
  const guint32 *s = src;
  for (gsize i = 0; i < n; i++)
    tress_writer_u32 (w, s[i]);
#else
  tress_writer_bytes (w, src, n * 4);
#endif
}

static void
write_lines (TressWriter *w, const TressChaLine *lines, gsize n)
{
#if G_BYTE_ORDER == G_BIG_ENDIAN
  for (gsize i = 0; i < n; i++)
    {
      TressChaLine l = lines[i];
      cha_line_swap_bytes (&l);
      tress_writer_bytes (w, &l, sizeof l);
    }
#else
  tress_writer_bytes (w, lines, n * TRESS_CHA_LINE_SIZE);
#endif
}

/* ---- parse ---------------------------------------------------------------- */

typedef struct
{
  TressReader *r;
  char field[128];
  guint material;
} Ctx;

static const char *
fld (Ctx *c, const char *name)
{
  g_snprintf (c->field, sizeof c->field, "radeon/material %u %s", c->material, name);
  return c->field;
}

static gboolean
read_array32 (Ctx *c, gsize n, const char *name, void **out, GError **error)
{
  const guint8 *p;

  if (!tress_reader_check_count (c->r, n, 4, fld (c, name), c->r->pos, error)
      || !tress_reader_bytes (c->r, n * 4, fld (c, name), &p, error))
    return FALSE;
  *out = g_malloc (MAX (n, 1) * 4);
  copy_le32 (*out, p, n);
  return TRUE;
}

static gboolean
read_u32 (Ctx *c, const char *name, guint32 *out, GError **error)
{
  return tress_reader_u32 (c->r, fld (c, name), out, error);
}

static gboolean
parse_material (Ctx *c, const TressChaRadeon *rad, TressChaMaterial *m, GError **error)
{
  TressReader *r = c->r;
  const guint8 *p;
  guint64 per_ribbon, uv_points;
  gsize pos;

  if (!read_u32 (c, "always-1 value", &m->always_one, error)
      || !tress_reader_bytes (r, TRESS_CHA_DESCRIPTION_SIZE, fld (c, "description"), &p, error))
    return FALSE;
  memcpy (m->description, p, TRESS_CHA_DESCRIPTION_SIZE);
  if (!tress_reader_count (r, 4, 0, fld (c, "APPLIED_COUNT"), &m->n_applied, error)
      || !read_array32 (c, m->n_applied, "applied list", (void **)&m->applied, error))
    return FALSE;
  if (!read_u32 (c, "LINE_SIZE", &m->line_size, error))
    return FALSE;
  pos = r->pos;
  if (!read_u32 (c, "LINE_COUNT", &m->n_lines, error)
      || !tress_reader_check_count (r, m->n_lines, MAX (m->line_size, 1), fld (c, "LINE_COUNT"),
                                    pos, error)
      || !read_u32 (c, "line array size", &m->line_array_size, error))
    return FALSE;
  if (!tress_reader_bytes (r, (gsize)m->n_lines * m->line_size, fld (c, "line array"), &p, error))
    return FALSE;
  if (m->line_size == TRESS_CHA_LINE_SIZE)
    {
      m->lines = g_new (TressChaLine, MAX (m->n_lines, 1));
      copy_lines (m->lines, p, m->n_lines);
    }
  else
    {
      /* never less than one byte allocated, never more than the array read */
      m->raw_lines = g_malloc (MAX ((gsize)m->n_lines * m->line_size, 1));
      memcpy (m->raw_lines, p, (gsize)m->n_lines * m->line_size);
    }

  /* Every ribbon takes at least these bytes in the arrays that follow. */
  per_ribbon
      = 24 + 24 * (guint64)rad->n_morphs + 8 + 4 * ((guint64)rad->n_moralities + 1) + 12 + 12;
  pos = r->pos;
  if (!read_u32 (c, "RIBBON_COUNT", &m->n_ribbons, error)
      || !tress_reader_check_count (r, m->n_ribbons, per_ribbon, fld (c, "RIBBON_COUNT"), pos,
                                    error))
    return FALSE;
  if (!read_u32 (c, "MORPH_COUNT + 1", &m->morphs_plus_one, error)
      || !read_array32 (c, 6 * (gsize)m->n_ribbons, "base points", (void **)&m->base_points, error))
    return FALSE;
  /* The per-morph and per-morality arrays exist only for a material with
   * ribbons: the file spends no byte on them otherwise, and a file of many
   * empty materials and many morph names must not cost memory or time by the
   * product of the two. */
  if (m->n_ribbons > 0)
    {
      m->morph_points = g_new0 (float *, MAX (rad->n_morphs, 1));
      for (guint32 k = 0; k < rad->n_morphs; k++)
        if (!read_array32 (c, 6 * (gsize)m->n_ribbons, "morph displacements",
                           (void **)&m->morph_points[k], error))
          return FALSE;
    }
  if (!read_u32 (c, "second RIBBON_COUNT", &m->n_ribbons_again, error)
      || !read_array32 (c, m->n_ribbons, "sections per ribbon", (void **)&m->n_sections, error)
      || !read_array32 (c, m->n_ribbons, "texture quality", (void **)&m->quality, error)
      || !read_u32 (c, "UV_ROWS", &m->uv_rows, error)
      || !read_u32 (c, "UV_GROUPS_PER_ROW", &m->uv_groups, error))
    return FALSE;
  pos = r->pos;
  if (!read_u32 (c, "UV_PIECES_PER_GROUP", &m->uv_pieces, error))
    return FALSE;
  uv_points = tress_cha_uv_points (m->uv_rows, m->uv_groups, m->uv_pieces);
  if (uv_points > G_MAXUINT32 / 2
      || !tress_reader_check_count (r, uv_points, 8, fld (c, "UV table size"), pos, error))
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT,
                     "%s at offset 0x%" G_GSIZE_MODIFIER
                     "x: expected a UV table that fits the file, found %u × %u × %u",
                     fld (c, "UV table size"), r->base + pos - 8, m->uv_rows, m->uv_groups,
                     m->uv_pieces);
      return FALSE;
    }
  m->n_uv_floats = (guint32)(uv_points * 2);
  if (!read_array32 (c, m->n_uv_floats, "UV table", (void **)&m->uv, error)
      || !read_u32 (c, "MORALITY_COUNT + 1", &m->moralities_plus_one, error))
    return FALSE;
  if (m->n_ribbons > 0)
    {
      m->lengths = g_new0 (float *, (gsize)rad->n_moralities + 1);
      for (guint32 k = 0; k <= rad->n_moralities; k++)
        if (!read_array32 (c, m->n_ribbons, "ribbon lengths", (void **)&m->lengths[k], error))
          return FALSE;
    }
  if (!read_u32 (c, "third RIBBON_COUNT", &m->n_ribbons_third, error)
      || !read_array32 (c, 3 * (gsize)m->n_ribbons, "z-sort points", (void **)&m->zsort, error)
      || !read_array32 (c, m->n_ribbons, "attachment body parts", (void **)&m->attach, error)
      || !read_array32 (c, m->n_ribbons, "first-line indices", (void **)&m->first_line, error)
      || !read_array32 (c, m->n_ribbons, "line counts", (void **)&m->n_ribbon_lines, error)
      || !read_u32 (c, "second LINE_COUNT", &m->n_lines_again, error))
    return FALSE;
  return TRUE;
}

static TressChaRadeon *
parse_radeon (TressReader *r, GError **error)
{
  g_autoptr (GError) local = NULL;
  TressChaRadeon *rad = g_new0 (TressChaRadeon, 1);
  const guint8 *p;
  Ctx c = { r, { 0 }, 0 };
  const gsize min_material = 4 + TRESS_CHA_DESCRIPTION_SIZE + 4 * 13;

  if (!tress_reader_count (r, TRESS_CHA_NAME_SIZE, 0, "radeon MORPH_COUNT", &rad->n_morphs, &local)
      || !tress_reader_bytes (r, (gsize)rad->n_morphs * TRESS_CHA_NAME_SIZE, "radeon morph names",
                              &p, &local))
    goto fail;
  rad->morph_names = g_malloc0 (MAX ((gsize)rad->n_morphs, 1) * TRESS_CHA_NAME_SIZE);
  memcpy (rad->morph_names, p, (gsize)rad->n_morphs * TRESS_CHA_NAME_SIZE);
  if (!tress_reader_count (r, TRESS_CHA_NAME_SIZE, 0, "radeon MORALITY_COUNT", &rad->n_moralities,
                           &local)
      || !tress_reader_bytes (r, (gsize)rad->n_moralities * TRESS_CHA_NAME_SIZE,
                              "radeon morality names", &p, &local))
    goto fail;
  rad->morality_names = g_malloc0 (MAX ((gsize)rad->n_moralities, 1) * TRESS_CHA_NAME_SIZE);
  memcpy (rad->morality_names, p, (gsize)rad->n_moralities * TRESS_CHA_NAME_SIZE);
  if (!tress_reader_u32 (r, "radeon always-3 value", &rad->always_three, &local)
      || !tress_reader_u32 (r, "radeon BODY_PART_MAX", &rad->body_part_max, &local)
      || !tress_reader_count (r, min_material, 0, "radeon MATERIAL_COUNT", &rad->n_materials,
                              &local))
    goto fail;
  rad->materials = g_new0 (TressChaMaterial, MAX (rad->n_materials, 1));
  for (guint32 i = 0; i < rad->n_materials; i++)
    {
      c.material = i;
      /* A cancelled load stops here (the read before took the time). */
      if (!tress_progress_check (&local) || !parse_material (&c, rad, &rad->materials[i], &local))
        goto fail;
    }
  rad->tail_size = tress_reader_remaining (r);
  if (rad->tail_size > 0)
    rad->tail = g_memdup2 (r->data + r->pos, rad->tail_size);
  return rad;

fail:
  cha_radeon_free (rad);
  g_propagate_error (error, g_steal_pointer (&local));
  return NULL;
}

/* Walks the section chain under one size convention. Returns TRUE when it lands
 * exactly on the end of the file with a plausible name at every step; otherwise
 * *fail_pos / *fail_msg tell where and why it stopped. */
static gboolean
walk_sections (const guint8 *data, gsize size, TressChaSizeConvention conv, gsize *fail_pos,
               char **fail_msg)
{
  gsize pos = CHA_HEADER_SIZE;

  while (pos < size)
    {
      guint32 sz;
      gsize next;

      if (size - pos < CHA_SECTION_PREFIX)
        {
          *fail_pos = pos;
          *fail_msg = g_strdup_printf ("section at offset 0x%" G_GSIZE_MODIFIER
                                       "x: expected a 36-byte name and size, found %" G_GSIZE_FORMAT
                                       " bytes before the end of the file",
                                       pos, size - pos);
          return FALSE;
        }
      if (!cha_name_is_plausible (data + pos))
        {
          *fail_pos = pos;
          *fail_msg = g_strdup_printf ("section name at offset 0x%" G_GSIZE_MODIFIER
                                       "x: expected a printable NUL-padded name, found bytes "
                                       "%02X %02X %02X %02X",
                                       pos, data[pos], data[pos + 1], data[pos + 2], data[pos + 3]);
          return FALSE;
        }
      sz = tress_get_u32 (data + pos + TRESS_CHA_NAME_SIZE, TRESS_LITTLE_ENDIAN);
      if (conv == TRESS_CHA_SIZE_BODY)
        next = (sz <= size - pos - CHA_SECTION_PREFIX) ? pos + CHA_SECTION_PREFIX + sz : G_MAXSIZE;
      else
        next = (sz >= CHA_SECTION_PREFIX && sz <= size - pos) ? pos + sz : G_MAXSIZE;
      if (next == G_MAXSIZE)
        {
          *fail_pos = pos + TRESS_CHA_NAME_SIZE;
          *fail_msg = g_strdup_printf ("section size at offset 0x%" G_GSIZE_MODIFIER
                                       "x: expected a size that ends within the %" G_GSIZE_FORMAT
                                       " bytes of the file (%s), found %u",
                                       pos + TRESS_CHA_NAME_SIZE, size,
                                       conv == TRESS_CHA_SIZE_BODY
                                           ? "counting the bytes after the size field"
                                           : "counting the whole section",
                                       sz);
          return FALSE;
        }
      pos = next;
    }
  return TRUE;
}

TressChaFile *
tress_cha_file_parse (GBytes *bytes, GError **error)
{
  g_autoptr (TressChaFile) file = NULL;
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  TressReader r;
  gsize fail_pos[2] = { 0, 0 };
  char *fail_msg[2] = { NULL, NULL };
  gboolean ok[2];
  gsize pos;
  guint n;

  tress_reader_init (&r, data, size, TRESS_LITTLE_ENDIAN);
  if (size < CHA_HEADER_SIZE)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_TRUNCATED,
                   "header at offset 0x0: expected %d bytes, found %" G_GSIZE_FORMAT,
                   CHA_HEADER_SIZE, size);
      return NULL;
    }
  if (!tress_cha_probe (data, size))
    {
      g_autofree char *raw = g_strndup ((const char *)data, 16);
      g_autofree char *found = g_strescape (raw, NULL);
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNKNOWN_FORMAT,
                   "magic at offset 0x0: expected \"LionheadCreature\" (any case), found \"%s\"",
                   found);
      return NULL;
    }

  file = g_new0 (TressChaFile, 1);
  memcpy (file->magic, data, TRESS_CHA_MAGIC_SIZE);
  file->header_four = tress_get_u32 (data + 0x28, TRESS_LITTLE_ENDIAN);
  file->version = tress_get_u32 (data + 0x2c, TRESS_LITTLE_ENDIAN);

  ok[0] = walk_sections (data, size, TRESS_CHA_SIZE_BODY, &fail_pos[0], &fail_msg[0]);
  ok[1] = walk_sections (data, size, TRESS_CHA_SIZE_WHOLE, &fail_pos[1], &fail_msg[1]);
  if (!ok[0] && !ok[1])
    {
      /* Report the reading that got further through the file. */
      guint best = fail_pos[1] > fail_pos[0] ? 1 : 0;
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                   "%s (the section sizes fit neither reading: after the size field, or the "
                   "whole section)",
                   fail_msg[best]);
      g_free (fail_msg[0]);
      g_free (fail_msg[1]);
      return NULL;
    }
  g_free (fail_msg[0]);
  g_free (fail_msg[1]);
  file->size_convention = ok[0] ? TRESS_CHA_SIZE_BODY : TRESS_CHA_SIZE_WHOLE;
  /* With no section at all both readings trivially fit: nothing to report. */
  file->size_convention_ambiguous = ok[0] && ok[1] && size > CHA_HEADER_SIZE;

  /* Count, then decode. */
  n = 0;
  for (pos = CHA_HEADER_SIZE; pos < size; n++)
    {
      guint32 sz = tress_get_u32 (data + pos + TRESS_CHA_NAME_SIZE, TRESS_LITTLE_ENDIAN);
      pos += file->size_convention == TRESS_CHA_SIZE_BODY ? CHA_SECTION_PREFIX + sz : sz;
    }
  file->n_sections = n;
  file->sections = g_new0 (TressChaSection, MAX (n, 1));
  pos = CHA_HEADER_SIZE;
  for (guint i = 0; i < n; i++)
    {
      TressChaSection *s = &file->sections[i];
      guint32 sz = tress_get_u32 (data + pos + TRESS_CHA_NAME_SIZE, TRESS_LITTLE_ENDIAN);
      gsize body = file->size_convention == TRESS_CHA_SIZE_BODY ? sz : sz - CHA_SECTION_PREFIX;
      gsize body_pos = pos + CHA_SECTION_PREFIX;

      memcpy (s->name, data + pos, TRESS_CHA_NAME_SIZE);
      if (file->radeon == NULL && strncmp ((const char *)s->name, "radeon", 7) == 0)
        {
          TressReader sub;

          if (!tress_reader_sub (&r, body_pos, body, "radeon section", &sub, error))
            return NULL;
          s->radeon = parse_radeon (&sub, error);
          if (s->radeon == NULL)
            return NULL;
          file->radeon = s->radeon;
        }
      else /* (a piece of @bytes, not a copy: a section may be most of the file) */
        s->opaque = g_bytes_new_from_bytes (bytes, body_pos, body);
      pos = body_pos + body;
    }
  return g_steal_pointer (&file);
}

/* ---- free and copy ---------------------------------------------------------- */

void
cha_material_clear (TressChaMaterial *m, guint32 n_morphs, guint32 n_moralities)
{
  g_free (m->applied);
  g_free (m->lines);
  g_free (m->raw_lines);
  g_free (m->base_points);
  if (m->morph_points != NULL)
    for (guint32 k = 0; k < n_morphs; k++)
      g_free (m->morph_points[k]);
  g_free (m->morph_points);
  g_free (m->n_sections);
  g_free (m->quality);
  g_free (m->uv);
  if (m->lengths != NULL)
    for (guint32 k = 0; k <= n_moralities; k++)
      g_free (m->lengths[k]);
  g_free (m->lengths);
  g_free (m->zsort);
  g_free (m->attach);
  g_free (m->first_line);
  g_free (m->n_ribbon_lines);
  memset (m, 0, sizeof *m);
}

void
cha_radeon_free (TressChaRadeon *rad)
{
  if (rad == NULL)
    return;
  for (guint32 i = 0; rad->materials != NULL && i < rad->n_materials; i++)
    cha_material_clear (&rad->materials[i], rad->n_morphs, rad->n_moralities);
  g_free (rad->materials);
  g_free (rad->morph_names);
  g_free (rad->morality_names);
  g_free (rad->tail);
  g_free (rad);
}

void
tress_cha_file_free (TressChaFile *file)
{
  if (file == NULL)
    return;
  if (file->change_destroy != NULL)
    file->change_destroy (file->change_data);
  for (guint i = 0; i < file->n_sections; i++)
    {
      cha_radeon_free (file->sections[i].radeon);
      g_clear_pointer (&file->sections[i].opaque, g_bytes_unref);
    }
  g_free (file->sections);
  g_free (file);
}

static gpointer
dup4 (const void *p, gsize n)
{
  return p != NULL ? g_memdup2 (p, MAX (n, 1) * 4) : NULL;
}

void
cha_material_copy (TressChaMaterial *dst, const TressChaMaterial *src, guint32 n_morphs,
                   guint32 n_moralities)
{
  gsize n = src->n_ribbons;

  *dst = *src;
  dst->applied = dup4 (src->applied, src->n_applied);
  dst->lines
      = src->lines ? g_memdup2 (src->lines, MAX (src->n_lines, 1) * sizeof (TressChaLine)) : NULL;
  dst->raw_lines = src->raw_lines
                       ? g_memdup2 (src->raw_lines, MAX ((gsize)src->n_lines * src->line_size, 1))
                       : NULL;
  dst->base_points = dup4 (src->base_points, 6 * n);
  dst->morph_points = NULL;
  if (src->morph_points != NULL)
    {
      dst->morph_points = g_new0 (float *, MAX (n_morphs, 1));
      for (guint32 k = 0; k < n_morphs; k++)
        dst->morph_points[k] = dup4 (src->morph_points[k], 6 * n);
    }
  dst->n_sections = dup4 (src->n_sections, n);
  dst->quality = dup4 (src->quality, n);
  dst->uv = dup4 (src->uv, src->n_uv_floats);
  dst->lengths = NULL;
  if (src->lengths != NULL)
    {
      dst->lengths = g_new0 (float *, (gsize)n_moralities + 1);
      for (guint32 k = 0; k <= n_moralities; k++)
        dst->lengths[k] = dup4 (src->lengths[k], n);
    }
  dst->zsort = dup4 (src->zsort, 3 * n);
  dst->attach = dup4 (src->attach, n);
  dst->first_line = dup4 (src->first_line, n);
  dst->n_ribbon_lines = dup4 (src->n_ribbon_lines, n);
}

TressChaRadeon *
cha_radeon_copy (const TressChaRadeon *src)
{
  TressChaRadeon *dst = g_new0 (TressChaRadeon, 1);

  *dst = *src;
  dst->morph_names = g_memdup2 (src->morph_names, MAX ((gsize)src->n_morphs, 1) * 32);
  dst->morality_names = g_memdup2 (src->morality_names, MAX ((gsize)src->n_moralities, 1) * 32);
  dst->materials = g_new0 (TressChaMaterial, MAX (src->n_materials, 1));
  for (guint32 i = 0; i < src->n_materials; i++)
    cha_material_copy (&dst->materials[i], &src->materials[i], src->n_morphs, src->n_moralities);
  dst->tail = src->tail ? g_memdup2 (src->tail, src->tail_size) : NULL;
  return dst;
}

TressChaFile *
tress_cha_file_copy (const TressChaFile *src)
{
  TressChaFile *dst = g_new0 (TressChaFile, 1);

  memcpy (dst->magic, src->magic, sizeof dst->magic);
  dst->header_four = src->header_four;
  dst->version = src->version;
  dst->size_convention = src->size_convention;
  dst->size_convention_ambiguous = src->size_convention_ambiguous;
  dst->n_sections = src->n_sections;
  dst->sections = g_new0 (TressChaSection, MAX (src->n_sections, 1));
  for (guint i = 0; i < src->n_sections; i++)
    {
      memcpy (dst->sections[i].name, src->sections[i].name, TRESS_CHA_NAME_SIZE);
      if (src->sections[i].radeon != NULL)
        {
          dst->sections[i].radeon = cha_radeon_copy (src->sections[i].radeon);
          if (src->sections[i].radeon == src->radeon)
            dst->radeon = dst->sections[i].radeon;
        }
      if (src->sections[i].opaque != NULL)
        dst->sections[i].opaque = g_bytes_ref (src->sections[i].opaque);
    }
  return dst;
}

void
tress_cha_file_set_change_func (TressChaFile *file, TressChaChangeFunc func, gpointer user_data,
                                GDestroyNotify destroy)
{
  if (file->change_destroy != NULL)
    file->change_destroy (file->change_data);
  file->change_func = func;
  file->change_data = user_data;
  file->change_destroy = destroy;
}

/* ---- layout and serialize --------------------------------------------------- */

static gsize
material_layout (const TressChaMaterial *m, guint32 n_morphs, guint32 n_moralities, gsize start,
                 ChaMaterialLayout *l)
{
  gsize n = m->n_ribbons;
  gsize pos = start;

  l->start = pos;
  l->always_one = pos;
  pos += 4 + TRESS_CHA_DESCRIPTION_SIZE;
  l->n_applied = pos;
  pos += 4;
  l->applied = pos;
  pos += 4 * (gsize)m->n_applied;
  l->line_size = pos;
  l->n_lines = pos + 4;
  l->line_array_size = pos + 8;
  pos += 12;
  l->lines = pos;
  pos += (gsize)m->n_lines * m->line_size;
  l->n_ribbons = pos;
  l->morphs_plus_one = pos + 4;
  pos += 8;
  l->base_points = pos;
  pos += 24 * n;
  l->morph_points = pos;
  pos += 24 * n * n_morphs;
  l->n_ribbons_again = pos;
  pos += 4;
  l->n_sections = pos;
  pos += 4 * n;
  l->quality = pos;
  pos += 4 * n;
  l->uv_rows = pos;
  pos += 12;
  l->uv = pos;
  pos += 4 * (gsize)m->n_uv_floats;
  l->moralities_plus_one = pos;
  pos += 4;
  l->lengths = pos;
  pos += 4 * n * (n_moralities + 1);
  l->n_ribbons_third = pos;
  pos += 4;
  l->zsort = pos;
  pos += 12 * n;
  l->attach = pos;
  pos += 4 * n;
  l->first_line = pos;
  pos += 4 * n;
  l->n_ribbon_lines = pos;
  pos += 4 * n;
  l->n_lines_again = pos;
  pos += 4;
  l->end = pos;
  return pos - start;
}

gsize
cha_material_size (const TressChaMaterial *m, guint32 n_morphs, guint32 n_moralities)
{
  ChaMaterialLayout l;
  return material_layout (m, n_morphs, n_moralities, 0, &l);
}

gsize
cha_radeon_body_size (const TressChaRadeon *rad)
{
  gsize size = 4 + 32 * (gsize)rad->n_morphs + 4 + 32 * (gsize)rad->n_moralities + 12;

  for (guint32 i = 0; i < rad->n_materials; i++)
    size += cha_material_size (&rad->materials[i], rad->n_morphs, rad->n_moralities);
  return size + rad->tail_size;
}

static gsize
section_body_size (const TressChaSection *s)
{
  return s->radeon != NULL ? cha_radeon_body_size (s->radeon) : g_bytes_get_size (s->opaque);
}

gsize
tress_cha_file_serialized_size (const TressChaFile *file)
{
  gsize size = CHA_HEADER_SIZE;

  for (guint i = 0; i < file->n_sections; i++)
    size += CHA_SECTION_PREFIX + section_body_size (&file->sections[i]);
  return size;
}

void
cha_layout_compute (const TressChaFile *file, ChaLayout *layout)
{
  gsize pos = CHA_HEADER_SIZE;

  memset (layout, 0, sizeof *layout);
  layout->radeon_body = G_MAXSIZE;
  layout->always_three = G_MAXSIZE;
  layout->tail = G_MAXSIZE;
  layout->section_starts = g_new (gsize, file->n_sections + 1);
  for (guint i = 0; i < file->n_sections; i++)
    {
      const TressChaSection *s = &file->sections[i];

      layout->section_starts[i] = pos;
      if (s->radeon != NULL && s->radeon == file->radeon)
        {
          const TressChaRadeon *rad = s->radeon;
          gsize p = pos + CHA_SECTION_PREFIX;

          layout->radeon_body = p;
          p += 4 + 32 * (gsize)rad->n_morphs + 4 + 32 * (gsize)rad->n_moralities;
          layout->always_three = p;
          p += 12;
          layout->n_materials = rad->n_materials;
          layout->materials = g_new0 (ChaMaterialLayout, MAX (rad->n_materials, 1));
          for (guint32 k = 0; k < rad->n_materials; k++)
            p += material_layout (&rad->materials[k], rad->n_morphs, rad->n_moralities, p,
                                  &layout->materials[k]);
          layout->tail = p;
        }
      pos += CHA_SECTION_PREFIX + section_body_size (s);
    }
  layout->section_starts[file->n_sections] = pos;
}

void
cha_layout_clear (ChaLayout *layout)
{
  g_clear_pointer (&layout->materials, g_free);
  g_clear_pointer (&layout->section_starts, g_free);
}

static void
write_material (TressWriter *w, const TressChaMaterial *m, guint32 n_morphs, guint32 n_moralities)
{
  gsize n = m->n_ribbons;

  tress_writer_u32 (w, m->always_one);
  tress_writer_bytes (w, m->description, TRESS_CHA_DESCRIPTION_SIZE);
  tress_writer_u32 (w, m->n_applied);
  write_le32 (w, m->applied, m->n_applied);
  tress_writer_u32 (w, m->line_size);
  tress_writer_u32 (w, m->n_lines);
  tress_writer_u32 (w, m->line_array_size);
  if (m->lines != NULL)
    write_lines (w, m->lines, m->n_lines);
  else
    tress_writer_bytes (w, m->raw_lines, (gsize)m->n_lines * m->line_size);
  tress_writer_u32 (w, m->n_ribbons);
  tress_writer_u32 (w, m->morphs_plus_one);
  write_le32 (w, m->base_points, 6 * n);
  for (guint32 k = 0; n > 0 && k < n_morphs; k++)
    write_le32 (w, m->morph_points[k], 6 * n);
  tress_writer_u32 (w, m->n_ribbons_again);
  write_le32 (w, m->n_sections, n);
  write_le32 (w, m->quality, n);
  tress_writer_u32 (w, m->uv_rows);
  tress_writer_u32 (w, m->uv_groups);
  tress_writer_u32 (w, m->uv_pieces);
  write_le32 (w, m->uv, m->n_uv_floats);
  tress_writer_u32 (w, m->moralities_plus_one);
  for (guint32 k = 0; n > 0 && k <= n_moralities; k++)
    write_le32 (w, m->lengths[k], n);
  tress_writer_u32 (w, m->n_ribbons_third);
  write_le32 (w, m->zsort, 3 * n);
  write_le32 (w, m->attach, n);
  write_le32 (w, m->first_line, n);
  write_le32 (w, m->n_ribbon_lines, n);
  tress_writer_u32 (w, m->n_lines_again);
}

void
cha_radeon_write_body (const TressChaRadeon *rad, TressWriter *w)
{
  tress_writer_u32 (w, rad->n_morphs);
  tress_writer_bytes (w, rad->morph_names, 32 * (gsize)rad->n_morphs);
  tress_writer_u32 (w, rad->n_moralities);
  tress_writer_bytes (w, rad->morality_names, 32 * (gsize)rad->n_moralities);
  tress_writer_u32 (w, rad->always_three);
  tress_writer_u32 (w, rad->body_part_max);
  tress_writer_u32 (w, rad->n_materials);
  for (guint32 i = 0; i < rad->n_materials; i++)
    write_material (w, &rad->materials[i], rad->n_morphs, rad->n_moralities);
  if (rad->tail_size > 0)
    tress_writer_bytes (w, rad->tail, rad->tail_size);
}

GBytes *
tress_cha_file_serialize (const TressChaFile *file)
{
  TressWriter w;
  GBytes *out;

  tress_writer_init (&w, TRESS_LITTLE_ENDIAN, tress_cha_file_serialized_size (file));
  tress_writer_bytes (&w, file->magic, TRESS_CHA_MAGIC_SIZE);
  tress_writer_u32 (&w, file->header_four);
  tress_writer_u32 (&w, file->version);
  for (guint i = 0; i < file->n_sections; i++)
    {
      const TressChaSection *s = &file->sections[i];
      gsize size_pos, body_start;
      gsize body;

      tress_writer_bytes (&w, s->name, TRESS_CHA_NAME_SIZE);
      size_pos = tress_writer_tell (&w);
      tress_writer_u32 (&w, 0);
      body_start = tress_writer_tell (&w);
      if (s->radeon != NULL)
        cha_radeon_write_body (s->radeon, &w);
      else
        tress_writer_bytes (&w, g_bytes_get_data (s->opaque, NULL), g_bytes_get_size (s->opaque));
      body = tress_writer_tell (&w) - body_start;
      if (file->size_convention == TRESS_CHA_SIZE_WHOLE)
        body += CHA_SECTION_PREFIX;
      tress_writer_patch_u32 (&w, size_pos, (guint32)MIN (body, G_MAXUINT32));
    }
  out = tress_writer_finish (&w);
  tress_writer_clear (&w);
  return out;
}
