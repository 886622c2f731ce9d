/* tress-cha-json-build.c: the sections and problems of a creature fur dump, and the build
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-cha-json-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

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
              _tress_cha_json_read_fixed_text (r, s.name, TRESS_CHA_NAME_SIZE);
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
          _tress_cha_json_read_fixed_text (r, file->magic, TRESS_CHA_MAGIC_SIZE);
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
          morphs = _tress_cha_json_read_names (&b);
          b.have_morphs = morphs != NULL;
          break;
        case T_MORALITIES:
          moralities = _tress_cha_json_read_names (&b);
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
              _tress_cha_json_read_materials (&b);
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
          _tress_cha_json_read_materials (&b);
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
          rad->materials = _tress_cha_json_take (g_steal_pointer (&b.materials));
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
  tress_json_reader_check_unknown (r, cha_dump_json, check, _tress_cha_json_hint_for);

  /* The format's rules, on the result: an error the dumped file did not
   * have at the same place is refused; a new warning is noted. */
  refused = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < tress_json_reader_get_problems (r)->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (tress_json_reader_get_problems (r), i);
      if (p->severity >= TRESS_SEVERITY_ERROR)
        g_hash_table_add (refused, p->location);
    }
  after = _tress_cha_json_problems_with_pointers (check);
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
