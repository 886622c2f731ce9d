/* tress-niff.c: N64 NIFF files: parse, validate, serialize, describe, dump
 *
 * Lists are walked by tag and size (a list of size 0 is absent); the Obj and
 * Name lists are read for labels, the AnimList into the model; every other
 * byte is kept as read. See shared/formats/niff.md.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "core/tress-progress.h"
#include "tress-niff-private.h"
#include "tress-niff-scene.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

static const struct
{
  guint32 tag;
  guint header_offset; /* where the file header stores this list's size */
  const char *name;
} list_kinds[] = {
  { 0x00010000, 0x10, "Scene" },        { 0x00100000, 0x14, "Env" },
  { 0x000e0000, 0x18, "Cam" },          { 0x000f0000, 0x1c, "Light" },
  { 0x00020000, 0x20, "Obj" },          { 0x00030000, 0x24, "Shape" },
  { 0x00040000, 0x28, "Vtx" },          { 0x00050000, 0x2c, "Color" },
  { 0x00060000, 0x30, "Vector" },       { 0x00070000, 0x34, "St" },
  { 0x00080000, 0x38, "Tri" },          { 0x00090000, 0x3c, "Part" },
  { 0x000a0000, 0x40, "Mat" },          { 0x000b0000, 0x44, "Tex" },
  { 0x00120000, 0x48, "TexImg" },       { 0x000c0000, 0x4c, "Anim" },
  { 0x000d0000, 0x50, "Coll" },         { 0x00130000, 0x54, "Switch" },
  { 0x00110000, 0x58, "Name" },         { 0x00200000, 0x64, "CiImg" },
  { 0x00210000, 0x68, "ColorPalette" }, { 0x00220000, 0x6c, "Envelope" },
  { 0x00280000, 0x70, "Cluster" },      { 0x00230000, 0x74, "Weight" },
  { 0x00240000, 0x78, "ChainRoot" },    { 0x00250000, 0x7c, "Joint" },
  { 0x00260000, 0x80, "Effector" },     { 0x00270000, 0x84, "ExternalName" },
};

static int list_kind (guint32 tag);

const char *
tress_niff_list_name (guint32 tag)
{
  int k = list_kind (tag);
  return k >= 0 ? list_kinds[k].name : "?";
}

static int
list_kind (guint32 tag)
{
  for (guint i = 0; i < G_N_ELEMENTS (list_kinds); i++)
    if (list_kinds[i].tag == tag)
      return (int)i;
  return -1;
}

static const char *const constraint_names[TRESS_NIFF_N_CONSTRAINTS] = {
  "orientation", "direction",    "upvector",        "preferred axis",
  "position",    "unique scale", "classical scale",
};

const char *
tress_niff_constraint_name (guint k)
{
  return k < TRESS_NIFF_N_CONSTRAINTS ? constraint_names[k] : "?";
}

static void
niff_free (gpointer model)
{
  TressNiffFile *file = model;

  if (file == NULL)
    return;
  g_clear_pointer (&file->bytes, g_bytes_unref);
  g_clear_pointer (&file->lists, g_array_unref);
  g_clear_pointer (&file->anim_list_ext, g_bytes_unref);
  g_clear_pointer (&file->groups, g_ptr_array_unref);
  if (file->name_texts != NULL)
    for (guint i = 0; i < file->name_spans->len; i++)
      g_free (file->name_texts[i]);
  g_clear_pointer (&file->name_texts, g_free);
  g_clear_pointer (&file->name_spans, g_array_unref);
  g_clear_pointer (&file->name_cache, g_hash_table_unref);
  g_clear_pointer (&file->group_paths, g_ptr_array_unref);
  g_clear_pointer (&file->group_owners, g_ptr_array_unref);
  g_clear_pointer (&file->objects, g_array_unref);
  g_clear_pointer (&file->curve_refs, g_array_unref);
  g_clear_pointer (&file->group_frames, g_free);
  g_free (file);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressNiffFile, niff_free)

static gboolean
niff_probe (const guint8 *data, gsize size)
{
  guint32 version, header_size;

  if (size < 16)
    return FALSE;
  version = niff_word (data) & 0xFFFF;
  header_size = niff_word (data + 12);
  return (version == 0x0100 || version == 0x0200) && niff_word (data + 8) == NIFF_TAG_HEADER
         && (header_size == NIFF1_HEADER_SIZE || header_size == NIFF2_HEADER_SIZE);
}

/* The element table of a list: count, then the per-element sizes. Checks that
 * the header size and the element sizes add up to the list size. */
static gboolean
list_elements (const guint8 *data, const TressNiffList *list, const char *name, guint32 *count,
               const guint8 **sizes, gsize *first, guint32 *nin, guint32 *usr, GError **error)
{
  const guint8 *l = data + list->offset;
  guint32 hsize = niff_word (l + 4);
  guint32 n = niff_word (l + 12);
  guint64 total;

  /* Field names are only formatted for an error: this runs on every open. */
  if (n > (list->size - 24) / 4)
    {
      g_autofree char *field = g_strdup_printf ("%s list element count", name);
      return tress_field_error (error, TRESS_ERROR_BAD_COUNT, list->offset + 12, field,
                                "a count whose size table fits in the list",
                                "%u in a list of %" G_GSIZE_FORMAT " bytes", n, list->size);
    }
  if (hsize != 24 + 4 * n)
    {
      g_autofree char *field = g_strdup_printf ("%s list header size", name);
      return tress_field_error (error, TRESS_ERROR_BAD_VALUE, list->offset + 4, field,
                                "24 + 4 * element count", "%u for %u elements", hsize, n);
    }
  *nin = niff_word (l + 16);
  *usr = niff_word (l + 20);
  total = (guint64)hsize + *nin + *usr;
  for (guint i = 0; i < n; i++)
    {
      guint32 s = niff_word (l + 24 + 4 * i);
      if (s % 4 != 0)
        {
          g_autofree char *field = g_strdup_printf ("%s element %u size", name, i);
          return tress_field_error (error, TRESS_ERROR_BAD_VALUE, list->offset + 24 + 4 * i, field,
                                    "a multiple of 4", "%u", s);
        }
      total += s;
    }
  if (total != list->size)
    {
      g_autofree char *field = g_strdup_printf ("%s list size", name);
      return tress_field_error (error, TRESS_ERROR_BAD_VALUE, list->offset + 8, field,
                                "header + elements + extension blocks",
                                "%" G_GSIZE_FORMAT " (they add up to %" G_GUINT64_FORMAT ")",
                                list->size, total);
    }
  *count = n;
  *sizes = l + 24;
  *first = list->offset + hsize;
  return TRUE;
}

static gboolean
parse_names (TressNiffFile *file, const guint8 *data, const TressNiffList *list, GError **error)
{
  guint32 n, nin, usr;
  const guint8 *sizes;
  gsize pos;

  if (!list_elements (data, list, "Name", &n, &sizes, &pos, &nin, &usr, error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      guint32 s = niff_word (sizes + 4 * i);
      const guint8 *e = data + pos;

      if (s < 16)
        return tress_field_error (error, TRESS_ERROR_BAD_VALUE, (gsize)(sizes - data) + 4 * i,
                                  "NameList size of element", "at least 16", "%u", s);
      if (niff_word (e) != NIFF_TAG_NAME_ELEMENT)
        return tress_field_error (error, TRESS_ERROR_BAD_VALUE, pos, "Name element tag",
                                  "0x00110100", "0x%08x", niff_word (e));
      if (niff_word (e + 12) != s)
        return tress_field_error (error, TRESS_ERROR_BAD_VALUE, pos + 12, "Name element size",
                                  "the size the NameList gives", "%u (the list says %u)",
                                  niff_word (e + 12), s);
      {
        TressNiffNameSpan span = { niff_word (e + 4), (guint32)(pos + 16), 0 };
        const guint8 *text = e + 16;
        const guint8 *nul = memchr (text, 0, s - 16);

        span.length = nul != NULL ? (guint32)(nul - text) : s - 16;
        g_array_append_val (file->name_spans, span);
      }
      pos += s;
    }
  return TRUE;
}

static gboolean
parse_objects (TressNiffFile *file, const guint8 *data, const TressNiffList *list, GError **error)
{
  guint32 n, nin, usr;
  const guint8 *sizes;
  gsize pos;

  if (!list_elements (data, list, "Obj", &n, &sizes, &pos, &nin, &usr, error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      guint32 s = niff_word (sizes + 4 * i);
      TressNiffObject obj = { i, NIFF_NONE, NIFF_NONE };

      if (s >= 16)
        {
          obj.index = niff_word (data + pos + 4);
          obj.name_index = niff_word (data + pos + 12);
        }
      if (s >= 76)
        obj.anim_link = niff_word (data + pos + 72);
      g_array_append_val (file->objects, obj);
      pos += s;
    }
  return TRUE;
}

static gboolean
parse_anim_list (TressNiffFile *file, const guint8 *data, const TressNiffList *list, GError **error)
{
  guint32 n;
  const guint8 *sizes;
  gsize pos;

  if (!list_elements (data, list, "Anim", &n, &sizes, &pos, &file->anim_list_nin,
                      &file->anim_list_usr, error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      guint32 s = niff_word (sizes + 4 * i);
      TressNiffGroup *g;

      if (s < NIFF_GROUP_HEADER_SIZE)
        {
          g_autofree char *field = g_strdup_printf ("AnimList size of AnimGroup %u", i);

          return tress_field_error (error, TRESS_ERROR_BAD_VALUE, (gsize)(sizes - data) + 4 * i,
                                    field, "at least 48", "%u", s);
        }
      if (!tress_progress_check (error))
        return FALSE;
      g = tress_niff_group_parse (data + pos, s, pos, error);

      if (g == NULL)
        {
          g_prefix_error (error, "AnimGroup %u: ", i);
          return FALSE;
        }
      g_ptr_array_add (file->groups, g);
      pos += s;
    }
  if (file->anim_list_nin + file->anim_list_usr > 0)
    file->anim_list_ext = g_bytes_new (data + pos, file->anim_list_nin + file->anim_list_usr);
  return TRUE;
}

/* @name as one level of a curve path: '/' becomes '_'. */
static char *
path_level (const char *name)
{
  char *level = g_strdup (name);

  for (char *p = strchr (level, '/'); p != NULL; p = strchr (p + 1, '/'))
    *p = '_';
  return level;
}

static gpointer
niff_parse (GBytes *bytes, const char *filename, GError **error)
{
  g_autoptr (TressNiffFile) file = memset (g_new (TressNiffFile, 1), 0, sizeof (TressNiffFile));
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  const TressNiffList *names = NULL, *objs = NULL;
  guint32 seen = 0; /* bit per list_kinds entry already met */
  gsize pos;

  G_STATIC_ASSERT (G_N_ELEMENTS (list_kinds) <= 32);

  file->bytes = g_bytes_ref (bytes);
  file->lists = g_array_sized_new (FALSE, FALSE, sizeof (TressNiffList), 32);
  file->groups = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_niff_group_free);
  file->name_spans = g_array_sized_new (FALSE, FALSE, sizeof (TressNiffNameSpan), 64);
  file->group_paths = g_ptr_array_new_with_free_func (g_free);
  file->group_owners = g_ptr_array_new_with_free_func (g_free);
  file->objects = g_array_sized_new (FALSE, FALSE, sizeof (TressNiffObject), 16);
  file->curve_refs = g_array_sized_new (FALSE, FALSE, sizeof (TressNiffCurveRef), 64);
  file->anim_list = -1;

  if (size < 16)
    {
      tress_field_error (error, TRESS_ERROR_TRUNCATED, 0, "NIFF file header", "at least 100 bytes",
                         "%" G_GSIZE_FORMAT " bytes", size);
      return NULL;
    }
  file->version = niff_word (data);
  if ((file->version & 0xFFFF) != 0x0100 && (file->version & 0xFFFF) != 0x0200)
    {
      tress_field_error (error, TRESS_ERROR_UNKNOWN_FORMAT, 0, "NIFF version",
                         "a version ending 0100 or 0200", "0x%08x", file->version);
      return NULL;
    }
  if (niff_word (data + 8) != NIFF_TAG_HEADER)
    {
      tress_field_error (error, TRESS_ERROR_BAD_VALUE, 8, "NIFF header tag", "0x00000000", "0x%08x",
                         niff_word (data + 8));
      return NULL;
    }
  file->header_size = niff_word (data + 12);
  if (file->header_size != NIFF1_HEADER_SIZE && file->header_size != NIFF2_HEADER_SIZE)
    {
      tress_field_error (error, TRESS_ERROR_BAD_VALUE, 12, "NIFF header size",
                         "100 (NIFF1) or 136 (NIFF2)", "%u", file->header_size);
      return NULL;
    }
  if (niff_word (data + 4) != size)
    {
      tress_field_error (
          error, size < niff_word (data + 4) ? TRESS_ERROR_TRUNCATED : TRESS_ERROR_BAD_VALUE, 4,
          "NIFF file size", "the file's length", "%u (the file holds %" G_GSIZE_FORMAT " bytes)",
          niff_word (data + 4), size);
      return NULL;
    }
  if (size < file->header_size)
    {
      tress_field_error (error, TRESS_ERROR_TRUNCATED, 0, "NIFF file header", "the whole header",
                         "%" G_GSIZE_FORMAT " bytes", size);
      return NULL;
    }
  file->niff2 = (file->version & 0xFFFF) == 0x0200;

  pos = file->header_size;
  while (pos < size)
    {
      TressNiffList list = { 0 };
      guint32 hsize;
      int kind;

      if (size - pos < 24)
        {
          tress_field_error (error, TRESS_ERROR_TRUNCATED, pos, "list header", "24 bytes",
                             "%" G_GSIZE_FORMAT " bytes before the end", size - pos);
          return NULL;
        }
      list.tag = niff_word (data + pos);
      list.offset = pos;
      list.size = niff_word (data + pos + 8);
      hsize = niff_word (data + pos + 4);
      kind = list_kind (list.tag);
      if (kind < 0)
        {
          g_autofree char *field = NULL;

          if (file->lists->len > 0)
            {
              const TressNiffList *prev
                  = &g_array_index (file->lists, TressNiffList, file->lists->len - 1);
              field = g_strdup_printf ("list tag (after the %s list of %" G_GSIZE_FORMAT
                                       " bytes at 0x%" G_GSIZE_MODIFIER "x)",
                                       list_kinds[list_kind (prev->tag)].name, prev->size,
                                       prev->offset);
            }
          tress_field_error (error, TRESS_ERROR_BAD_VALUE, pos, field != NULL ? field : "list tag",
                             "a NIFF list tag", "0x%08x", list.tag);
          return NULL;
        }
      for (guint i = 0; (seen >> kind) & 1 && i < file->lists->len; i++)
        if (g_array_index (file->lists, TressNiffList, i).tag == list.tag)
          {
            g_autofree char *field = g_strdup_printf ("%s list tag", list_kinds[kind].name);
            tress_field_error (error, TRESS_ERROR_BAD_VALUE, pos, field, "each list once",
                               "a second %s list (the first is at 0x%" G_GSIZE_MODIFIER "x)",
                               list_kinds[kind].name,
                               g_array_index (file->lists, TressNiffList, i).offset);
            return NULL;
          }
      if (list.size < 24 || list.size % 4 != 0 || list.size > size - pos)
        {
          g_autofree char *field = g_strdup_printf ("%s list size", list_kinds[kind].name);
          g_set_error (error, TRESS_ERROR,
                       list.size > size - pos ? TRESS_ERROR_TRUNCATED : TRESS_ERROR_BAD_VALUE,
                       "%s at offset 0x%" G_GSIZE_MODIFIER "x: expected a multiple of 4 from 24 "
                       "to the %" G_GSIZE_FORMAT " bytes left, found %" G_GSIZE_FORMAT,
                       field, pos + 8, size - pos, list.size);
          return NULL;
        }
      if (hsize < 24 || hsize % 4 != 0 || hsize > list.size)
        {
          g_autofree char *field = g_strdup_printf ("%s list header size", list_kinds[kind].name);
          tress_field_error (error, TRESS_ERROR_BAD_VALUE, pos + 4, field,
                             "a multiple of 4 from 24 to the list size",
                             "%u (list size %" G_GSIZE_FORMAT ")", hsize, list.size);
          return NULL;
        }
      seen |= 1u << kind;
      if (list.tag == NIFF_TAG_ANIM)
        file->anim_list = (int)file->lists->len;
      g_array_append_val (file->lists, list);
      pos += list.size;
    }

  for (guint i = 0; i < file->lists->len; i++)
    {
      const TressNiffList *l = &g_array_index (file->lists, TressNiffList, i);
      if (l->tag == NIFF_TAG_NAME)
        names = l;
      else if (l->tag == NIFF_TAG_OBJ)
        objs = l;
    }
  if (names != NULL && !parse_names (file, data, names, error))
    return NULL;
  if (objs != NULL && !parse_objects (file, data, objs, error))
    return NULL;
  if (file->anim_list >= 0
      && !parse_anim_list (file, data, &g_array_index (file->lists, TressNiffList, file->anim_list),
                           error))
    return NULL;

  for (guint i = 0; i < file->groups->len; i++)
    {
      const TressNiffGroup *g = g_ptr_array_index (file->groups, i);
      const char *name = tress_niff_file_get_name (file, g->name_index);

      g_ptr_array_add (file->group_paths,
                       name != NULL ? path_level (name) : g_strdup_printf ("AnimGroup %u", i));
    }
  /* The objects that use each group, in one pass over the objects. */
  g_ptr_array_set_size (file->group_owners, (guint)file->groups->len);
  for (guint i = 0; i < file->objects->len; i++)
    {
      const TressNiffObject *o = &g_array_index (file->objects, TressNiffObject, i);
      const char *name = tress_niff_file_get_name (file, o->name_index);
      char **owner;
      char *more;

      if (o->anim_link >= file->groups->len)
        continue;
      owner = (char **)&g_ptr_array_index (file->group_owners, o->anim_link);
      more = name != NULL ? g_strdup (name) : g_strdup_printf ("object %u", i);
      if (*owner != NULL)
        {
          char *joined = g_strconcat (*owner, ", ", more, NULL);

          g_free (more);
          more = joined;
          g_free (*owner);
        }
      *owner = more;
    }
  tress_niff_build_curve_refs (file);
  (void)filename;
  return g_steal_pointer (&file);
}

static inline guint8 *
put_at (guint8 *p, guint32 v)
{
  guint32 be = GUINT32_TO_BE (v);
  memcpy (p, &be, 4);
  return p + 4;
}

static GBytes *
niff_serialize (gpointer model, GError **error)
{
  TressNiffFile *file = model;
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (file->bytes, &size);
  const TressNiffList *anim;
  guint n = file->groups->len;
  gsize ext, anim_size, before, after, total;
  guint8 *out, *p;

  if (file->anim_list < 0)
    return g_bytes_ref (file->bytes); /* nothing here is rebuilt */

  /* The header and the lists are contiguous: copy what precedes and follows
   * the AnimList in one piece each and rebuild the AnimList between. */
  anim = &g_array_index (file->lists, TressNiffList, file->anim_list);
  ext = file->anim_list_ext != NULL ? g_bytes_get_size (file->anim_list_ext) : 0;
  anim_size = 24 + 4 * (gsize)n + ext;
  for (guint g = 0; g < n; g++)
    anim_size += tress_niff_group_size (g_ptr_array_index (file->groups, g));
  before = anim->offset;
  after = size - (anim->offset + anim->size);
  total = before + anim_size + after;
  if (anim_size > G_MAXUINT32 || total > G_MAXUINT32)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED,
                   "The file would exceed the 4 GiB a NIFF size field can state");
      return NULL;
    }

  out = g_malloc (total);
  memcpy (out, data, before);
  p = out + before;
  p = put_at (p, NIFF_TAG_ANIM);
  p = put_at (p, 24 + 4 * n);
  p = put_at (p, (guint32)anim_size);
  p = put_at (p, n);
  p = put_at (p, file->anim_list_nin);
  p = put_at (p, file->anim_list_usr);
  for (guint g = 0; g < n; g++)
    p = put_at (p, (guint32)tress_niff_group_size (g_ptr_array_index (file->groups, g)));
  for (guint g = 0; g < n; g++)
    p = tress_niff_group_write_to (g_ptr_array_index (file->groups, g), p);
  if (ext > 0)
    {
      memcpy (p, g_bytes_get_data (file->anim_list_ext, NULL), ext);
      p += ext;
    }
  g_assert (p == out + before + anim_size);
  memcpy (p, data + anim->offset + anim->size, after);

  put_at (out + 4, (guint32)total);
  put_at (out + NIFF_HEADER_ANIM_SIZE_OFFSET, (guint32)anim_size);
  return g_bytes_new_take (out, total);
}

/* ---- model access ---- */

guint32
tress_niff_file_get_version (const TressNiffFile *file)
{
  return file->version;
}

guint
tress_niff_file_get_n_groups (const TressNiffFile *file)
{
  return file->groups->len;
}

gboolean
tress_niff_file_get_anim_list_span (const TressNiffFile *file, gsize *offset, gsize *size)
{
  const TressNiffList *l;

  if (file->anim_list < 0)
    return FALSE;
  l = &g_array_index (file->lists, TressNiffList, file->anim_list);
  if (offset)
    *offset = l->offset;
  if (size)
    *size = l->size;
  return TRUE;
}

/* The text of @span, valid UTF-8 (copied as is when it already is). */
static char *
name_text (const TressNiffFile *file, const TressNiffNameSpan *span)
{
  const char *text = (const char *)g_bytes_get_data (file->bytes, NULL) + span->offset;
  g_autofree char *raw = NULL;

  if (g_utf8_validate_len (text, span->length, NULL))
    return g_strndup (text, span->length);
  raw = g_strndup (text, span->length);
  return g_utf8_make_valid (raw, -1);
}

const char *
tress_niff_file_get_name (const TressNiffFile *file, guint32 index)
{
  TressNiffFile *self = (TressNiffFile *)file; /* the caches are not part of the model */
  const TressNiffNameSpan *span = NULL;
  char *name;

  /* Usually a name's index is its place in the NameList. */
  if (index < file->name_spans->len
      && g_array_index (file->name_spans, TressNiffNameSpan, index).index == index)
    {
      if (self->name_texts == NULL)
        self->name_texts = g_new0 (char *, file->name_spans->len);
      if (self->name_texts[index] == NULL)
        self->name_texts[index]
            = name_text (file, &g_array_index (file->name_spans, TressNiffNameSpan, index));
      return self->name_texts[index];
    }
  if (file->name_cache != NULL
      && (name = g_hash_table_lookup (file->name_cache, GUINT_TO_POINTER (index))) != NULL)
    return name;
  for (guint i = 0; span == NULL && i < file->name_spans->len; i++)
    if (g_array_index (file->name_spans, TressNiffNameSpan, i).index == index)
      span = &g_array_index (file->name_spans, TressNiffNameSpan, i);
  if (span == NULL)
    return NULL;
  name = name_text (file, span);
  if (self->name_cache == NULL)
    self->name_cache = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_hash_table_insert (self->name_cache, GUINT_TO_POINTER (index), name);
  return name;
}

guint
tress_niff_group_get_n_records (const TressNiffFile *file, guint group)
{
  g_return_val_if_fail (group < file->groups->len, 0);
  return ((TressNiffGroup *)g_ptr_array_index (file->groups, group))->records->len;
}

guint
tress_niff_group_get_n_channel_keys (const TressNiffFile *file, guint group,
                                     TressNiffChannel channel)
{
  g_return_val_if_fail (group < file->groups->len && channel < TRESS_NIFF_N_CHANNELS, 0);
  return ((TressNiffGroup *)g_ptr_array_index (file->groups, group))->channels[channel]->len;
}

guint32
tress_niff_group_get_channel_bits (const TressNiffFile *file, guint group)
{
  g_return_val_if_fail (group < file->groups->len, 0);
  return ((TressNiffGroup *)g_ptr_array_index (file->groups, group))->channel_bits;
}

gboolean
tress_niff_group_get_info (const TressNiffFile *file, guint group, TressNiffGroupInfo *out)
{
  const TressNiffGroup *g;

  if (group >= file->groups->len)
    return FALSE;
  g = g_ptr_array_index (file->groups, group);
  out->name = tress_niff_file_get_name (file, g->name_index);
  out->anim_type = g->anim_type;
  out->frame_rate = g->frame_rate;
  out->loop = g->loop;
  return TRUE;
}

/* ---- validate ---- */

const char *
tress_niff_anim_type_name (guint32 type)
{
  switch (type)
    {
    case TRESS_NIFF_ANIM_STATIC:
      return "STATIC";
    case TRESS_NIFF_ANIM_FULL:
      return "FULL";
    case TRESS_NIFF_ANIM_KEY:
      return "KEY";
    case TRESS_NIFF_ANIM_BILLBOARD:
      return "BILLBOARD";
    default:
      return NULL;
    }
}

static guint32
anim_type_record_tag (guint32 type)
{
  switch (type)
    {
    case TRESS_NIFF_ANIM_STATIC:
      return TRESS_NIFF_RECORD_STATIC;
    case TRESS_NIFF_ANIM_FULL:
      return TRESS_NIFF_RECORD_FULL;
    case TRESS_NIFF_ANIM_KEY:
      return TRESS_NIFF_RECORD_KEY;
    case TRESS_NIFF_ANIM_BILLBOARD:
      return TRESS_NIFF_RECORD_BILLBOARD;
    default:
      return 0;
    }
}

/* The anim type every record of @g agrees on, or NIFF_NONE when there are no
 * records or they differ. */
static guint32
records_anim_type (const TressNiffGroup *g)
{
  static const guint32 types[] = { TRESS_NIFF_ANIM_STATIC, TRESS_NIFF_ANIM_FULL,
                                   TRESS_NIFF_ANIM_KEY, TRESS_NIFF_ANIM_BILLBOARD };
  guint32 tag;

  if (g->records->len == 0)
    return NIFF_NONE;
  tag = g_array_index (g->records, TressNiffRecord, 0).tag;
  for (guint i = 1; i < g->records->len; i++)
    if (g_array_index (g->records, TressNiffRecord, i).tag != tag)
      return NIFF_NONE;
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    if (anim_type_record_tag (types[i]) == tag)
      return types[i];
  return NIFF_NONE;
}

const char *
tress_niff_rot_order_name (guint32 order)
{
  switch (order)
    {
    case 0x00010203:
      return "XYZ";
    case 0x00010302:
      return "XZY";
    case 0x00020103:
      return "YXZ";
    case 0x00030102:
      return "YZX";
    case 0x00020301:
      return "ZXY";
    case 0x00030201:
      return "ZYX";
    default:
      return NULL;
    }
}

static char *
group_label (const TressNiffFile *file, guint i)
{
  const TressNiffGroup *g = g_ptr_array_index (file->groups, i);
  const char *name = tress_niff_file_get_name (file, g->name_index);

  return name != NULL ? g_strdup_printf ("AnimGroup %u (%s)", i, name)
                      : g_strdup_printf ("AnimGroup %u", i);
}

/* Rotation channels that exclude each other, and the two scales. */
static int
channel_class (guint ch)
{
  switch (ch)
    {
    case TRESS_NIFF_ROTATE_AXIS:
      return 0;
    case TRESS_NIFF_ROTATE_X:
    case TRESS_NIFF_ROTATE_Y:
    case TRESS_NIFF_ROTATE_Z:
      return 1;
    case TRESS_NIFF_ORIENTATION_XY:
      return 2;
    case TRESS_NIFF_UNIQUE_SCALE:
      return 10;
    case TRESS_NIFF_CLASSICAL_SCALE:
      return 11;
    default:
      return -1;
    }
}

gboolean
tress_niff_channels_conflict (guint a, guint b)
{
  int ca = channel_class (a), cb = channel_class (b);

  if (ca < 0 || cb < 0 || ca == cb)
    return FALSE;
  return (ca < 10) == (cb < 10);
}

/* @off: where the group sits in the file as it would be written. */
static void
validate_group (const TressNiffFile *file, guint gi, gsize off, TressProblemCollector *problems)
{
  const TressNiffGroup *g = g_ptr_array_index (file->groups, gi);
  g_autofree char *loc = group_label (file, gi);
  gsize rec_off = off + NIFF_GROUP_HEADER_SIZE, key_off;
  guint32 want_tag = anim_type_record_tag (g->anim_type);
  guint32 fixed_type = records_anim_type (g);
  g_autofree char *type_fix = fixed_type != NIFF_NONE
                                  ? g_strdup_printf ("set the anim type to %s, as its records are",
                                                     tress_niff_anim_type_name (fixed_type))
                                  : NULL;

#define PROBLEM(sev, at, ...) tress_problem_collect (problems, sev, loc, at, NULL, -1, __VA_ARGS__)
#define FIXABLE(sev, at, fix, id, ...)                                                             \
  tress_problem_collect (problems, sev, loc, at, fix, id, __VA_ARGS__)

  if (g->index != gi)
    {
      g_autofree char *fix = g_strdup_printf ("set the index field to %u", gi);
      FIXABLE (TRESS_SEVERITY_WARNING, off + 4, fix, TRESS_NIFF_FIX_GROUP_INDEX,
               "the group's index field is %u, its place is %u", g->index, gi);
    }
  if (g->name_index != NIFF_NONE && tress_niff_file_get_name (file, g->name_index) == NULL)
    PROBLEM (TRESS_SEVERITY_WARNING, off + 0x10, "name index %u is not in the NameList",
             g->name_index);
  if (tress_niff_anim_type_name (g->anim_type) == NULL)
    FIXABLE (TRESS_SEVERITY_ERROR, off + 0x14, type_fix, TRESS_NIFF_FIX_ANIM_TYPE,
             "anim type %u is none of STATIC 0, FULL 2, KEY 3, BILLBOARD 4", g->anim_type);
  if (tress_niff_rot_order_name (g->rot_order) == NULL)
    PROBLEM (TRESS_SEVERITY_WARNING, off + 0x24, "rotation order 0x%08x is not a known order",
             g->rot_order);

  for (guint i = 0; i < g->records->len;
       rec_off += tress_niff_record_size (g_array_index (g->records, TressNiffRecord, i).tag), i++)
    {
      const TressNiffRecord *r = &g_array_index (g->records, TressNiffRecord, i);

      if (want_tag != 0 && r->tag != want_tag)
        FIXABLE (TRESS_SEVERITY_ERROR, rec_off, type_fix, TRESS_NIFF_FIX_ANIM_TYPE,
                 "record %u has tag 0x%08x but the group's anim type %s needs 0x%08x", i, r->tag,
                 tress_niff_anim_type_name (g->anim_type), want_tag);
      if (r->index != i)
        {
          g_autofree char *fix = g_strdup_printf ("set the record's index to %u", i);
          FIXABLE (TRESS_SEVERITY_WARNING, rec_off + 4, fix, TRESS_NIFF_FIX_RECORD_INDEX,
                   "record %u stores the index %u", i, r->index);
        }
      if (r->tag == TRESS_NIFF_RECORD_KEY)
        {
          const TressNiffRecord *next = i + 1 < g->records->len
                                            ? &g_array_index (g->records, TressNiffRecord, i + 1)
                                            : NULL;
          if (next != NULL && next->tag == TRESS_NIFF_RECORD_KEY && next->key <= r->key)
            PROBLEM (TRESS_SEVERITY_ERROR, rec_off + tress_niff_record_size (r->tag) + 12,
                     "KEY record %u at frame %u is not after record %u at frame %u", i + 1,
                     next->key, i, r->key);
          if (next != NULL && r->next != next->key)
            {
              g_autofree char *fix = g_strdup_printf ("set the next key to %u", next->key);
              FIXABLE (TRESS_SEVERITY_ERROR, rec_off + 16, fix, TRESS_NIFF_FIX_NEXT_KEY,
                       "KEY record %u says the next key is %u, but the next record is at frame %u",
                       i, r->next, next->key);
            }
          if (next == NULL && r->next != NIFF_NONE)
            FIXABLE (TRESS_SEVERITY_ERROR, rec_off + 16, "set the next key to 0xFFFFFFFF",
                     TRESS_NIFF_FIX_NEXT_KEY,
                     "the last KEY record says the next key is %u instead of 0xFFFFFFFF", r->next);
          if (r->interp != 0 && r->interp != 1 && r->interp != 2 && r->interp != 4
              && r->interp != 6)
            PROBLEM (TRESS_SEVERITY_WARNING, rec_off + 20,
                     "KEY record %u has interpolation %u, none of STATIC 0, LINEAR 1, SLOWIN 2, "
                     "SLOWOUT 4, SLOW 6",
                     i, r->interp);
        }
    }
  if (g->anim_type == TRESS_NIFF_ANIM_KEY && g->records->len > 0 && g->records->len < 2)
    PROBLEM (TRESS_SEVERITY_WARNING, off + 0x1C,
             "a KEY group holds %u record; it needs its initial and final records",
             g->records->len);

  if (file->niff2 && !g->has_ext)
    FIXABLE (TRESS_SEVERITY_ERROR, off + 0x28,
             "add an empty nintendo extension block (no channels, no constraints)",
             TRESS_NIFF_FIX_EXTENSION,
             "every AnimGroup of a NIFF2 file needs the nintendo extension block (148 bytes or "
             "more)");
  if (!file->niff2 && g->has_ext)
    PROBLEM (TRESS_SEVERITY_ERROR, off + 0x28,
             "a NIFF1 AnimGroup has no nintendo extension block (size 0), but this one holds "
             "%" G_GSIZE_FORMAT " bytes; its channels are ignored",
             tress_niff_group_size (g) - (rec_off - off)
                 - (g->user != NULL ? g_bytes_get_size (g->user) : 0));
  if (g->user != NULL && g_bytes_get_size (g->user) % 4 != 0)
    PROBLEM (TRESS_SEVERITY_ERROR, off + 0x2C,
             "the user extension size %" G_GSIZE_FORMAT " is not a multiple of 4",
             g_bytes_get_size (g->user));
  if (!g->has_ext)
    return;
  if (g->other != NULL && g_bytes_get_size (g->other) % 4 != 0)
    PROBLEM (TRESS_SEVERITY_ERROR, off + 0x28,
             "the nintendo extension size is not a multiple of 4 (its data after the channels "
             "holds %" G_GSIZE_FORMAT " bytes)",
             g_bytes_get_size (g->other));
  /* The extension block follows the records; the channels' keys follow its
   * 148 fixed bytes, channel after channel. */
  key_off = rec_off + NIFF_EXT_FIXED_SIZE;
  for (guint c = 0; c < TRESS_NIFF_N_CHANNELS;
       key_off += (gsize)g->channels[c]->len * tress_niff_channel_key_size (c), c++)
    {
      gboolean bit = (g->channel_bits >> c) & 1;
      GArray *keys = g->channels[c];
      gsize ks = tress_niff_channel_key_size (c);

      if (bit != (keys->len > 0))
        FIXABLE (TRESS_SEVERITY_ERROR, rec_off, bit ? "clear the bit" : "set the bit",
                 TRESS_NIFF_FIX_CHANNEL_BITS,
                 "%s: channel bit 0x%x is %s but the channel has %u keys",
                 tress_niff_channel_name (c), 1u << c, bit ? "set" : "clear", keys->len);
      for (guint c2 = c + 1; c2 < TRESS_NIFF_N_CHANNELS; c2++)
        if (keys->len > 0 && g->channels[c2]->len > 0 && tress_niff_channels_conflict (c, c2))
          PROBLEM (TRESS_SEVERITY_ERROR, rec_off,
                   "%s and %s are both used; the format forbids the combination",
                   tress_niff_channel_name (c), tress_niff_channel_name (c2));
      for (guint i = 0; i < keys->len; i++)
        {
          const TressNiffChannelKey *k = &g_array_index (keys, TressNiffChannelKey, i);

          gsize at = key_off + i * ks;

          if (i > 0 && k->key <= g_array_index (keys, TressNiffChannelKey, i - 1).key)
            PROBLEM (TRESS_SEVERITY_ERROR, at + 4,
                     "%s key %u at frame %u is not after key %u at frame %u",
                     tress_niff_channel_name (c), i, k->key, i - 1,
                     g_array_index (keys, TressNiffChannelKey, i - 1).key);
          if (k->interp > TRESS_NIFF_CHANNEL_HERMITE)
            PROBLEM (TRESS_SEVERITY_ERROR, at,
                     "%s key %u has interpolation %u, none of CONST 0, FULL 1, LINEAR 2, HERMITE 3",
                     tress_niff_channel_name (c), i, k->interp);
          if (k->interp == TRESS_NIFF_CHANNEL_FULL && i + 1 < keys->len
              && g_array_index (keys, TressNiffChannelKey, i + 1).key != k->key + 1)
            PROBLEM (TRESS_SEVERITY_ERROR, at + ks + 4,
                     "%s key %u at frame %u is FULL (one key per frame), but the next key is at "
                     "frame %u",
                     tress_niff_channel_name (c), i, k->key,
                     g_array_index (keys, TressNiffChannelKey, i + 1).key);
          for (guint j = 0; j < tress_niff_channel_n_components (c); j++)
            if (!isfinite (niff_f32 (k->value[j])) || !isfinite (niff_f32 (k->diff[j])))
              {
                PROBLEM (TRESS_SEVERITY_WARNING, at + 8,
                         "%s key %u holds a number that is not finite", tress_niff_channel_name (c),
                         i);
                break;
              }
        }
    }
  for (guint i = 0; i < TRESS_NIFF_N_CONSTRAINTS; i++)
    {
      gboolean bit = (g->channel_bits >> (8 + i)) & 1;
      gboolean node = g->constraints[2 * i + 1] != NIFF_NONE;

      if (bit && !node)
        PROBLEM (TRESS_SEVERITY_WARNING, rec_off + 4 + 4 * TRESS_NIFF_N_CHANNELS + 8 * i + 4,
                 "the %s constraint bit is set but no constraint node is given",
                 constraint_names[i]);
    }
  if (g->channel_bits >> 15)
    PROBLEM (TRESS_SEVERITY_WARNING, rec_off, "unknown channel bits 0x%x are set",
             g->channel_bits & ~0x7FFFu);
#undef PROBLEM
#undef FIXABLE
}

static GPtrArray *
niff_validate (gpointer model)
{
  TressNiffFile *file = model;
  /* Bounded: at most TRESS_PROBLEM_MAX_PER_KIND of each kind, then summed up. */
  TressProblemCollector *problems = tress_problem_collector_new ();
  const guint8 *data = g_bytes_get_data (file->bytes, NULL);

  /* Sizes as read: a save rewrites the AnimList's and the file's own. */
  if (file->niff2 != (file->header_size == NIFF2_HEADER_SIZE))
    tress_problem_collector_add (
        problems, tress_problem_new (TRESS_SEVERITY_WARNING, "header", 12, NULL, -1,
                                     "version 0x%08x is NIFF%d but the header size is %u",
                                     file->version, file->niff2 ? 2 : 1, file->header_size));
  for (guint k = 0; k < G_N_ELEMENTS (list_kinds); k++)
    {
      guint32 want = 0, found;
      gboolean present = FALSE;

      if (list_kinds[k].header_offset + 4 > file->header_size)
        continue;
      for (guint i = 0; i < file->lists->len; i++)
        {
          const TressNiffList *l = &g_array_index (file->lists, TressNiffList, i);
          if (l->tag == list_kinds[k].tag)
            {
              want = (guint32)l->size;
              present = TRUE;
            }
        }
      found = niff_word (data + list_kinds[k].header_offset);
      if (found != want)
        {
          g_autofree char *fix = g_strdup_printf ("set the field to %u", want);
          tress_problem_collector_add (
              problems,
              tress_problem_new (
                  TRESS_SEVERITY_ERROR, "header", list_kinds[k].header_offset, fix,
                  TRESS_NIFF_FIX_HEADER_LIST_SIZE,
                  "the %s list size field says %u but the list %s%u%s", list_kinds[k].name, found,
                  present ? "is " : "is absent (expected ", want, present ? " bytes" : ")"));
        }
    }
  {
    /* Offsets as the file is laid out now: the AnimList stays where it is,
     * its groups follow its size table (the same as read until an edit). */
    gsize at = 0;

    if (tress_niff_file_get_anim_list_span (file, &at, NULL))
      at += 24 + 4 * (gsize)file->groups->len;
    for (guint i = 0; i < file->groups->len; i++)
      {
        validate_group (file, i, at, problems);
        at += tress_niff_group_size (g_ptr_array_index (file->groups, i));
      }
  }
  for (guint i = 0; i < file->objects->len; i++)
    {
      const TressNiffObject *o = &g_array_index (file->objects, TressNiffObject, i);
      if (o->anim_link != NIFF_NONE && o->anim_link >= file->groups->len)
        tress_problem_collector_add (
            problems, tress_problem_new (TRESS_SEVERITY_WARNING, "Obj list", G_MAXSIZE, NULL, -1,
                                         "object %u uses AnimGroup %u, but there are %u", i,
                                         o->anim_link, file->groups->len));
    }
  return tress_problem_collector_finish (problems);
}

/* ---- automatic fixes ---- */

/* One step of a fix: the bytes of AnimGroup @group (or of the file header when
 * @group is NIFF_NONE) before and after, restored exactly on undo and redo. */
typedef struct
{
  TressCommand parent;
  guint32 group;
  GBytes *before;
  GBytes *after;
} NiffFixCommand;

static void
niff_fix_apply (TressCommand *cmd, gpointer target, gboolean undo)
{
  NiffFixCommand *self = (NiffFixCommand *)cmd;
  TressNiffFile *file = target;
  GBytes *state = undo ? self->before : self->after;
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (state, &size);

  if (self->group == NIFF_NONE)
    {
      gsize total = 0;
      const guint8 *old = g_bytes_get_data (file->bytes, &total);
      guint8 *copy;

      g_return_if_fail (size <= total);
      copy = g_memdup2 (old, total);
      memcpy (copy, data, size);
      g_bytes_unref (file->bytes);
      file->bytes = g_bytes_new_take (copy, total);
    }
  else
    {
      g_autoptr (GError) error = NULL;
      TressNiffGroup *old, *g;

      g_return_if_fail (self->group < file->groups->len);
      old = g_ptr_array_index (file->groups, self->group);
      g = tress_niff_group_parse (data, size, old->offset, &error);
      g_return_if_fail (g != NULL); /* the bytes were written by tress_niff_group_write */
      g->offset = old->offset;
      g_ptr_array_index (file->groups, self->group) = g;
      tress_niff_group_free (old);
      tress_niff_group_changed (file, self->group);
    }
}

static gsize
niff_fix_size (const TressCommand *cmd)
{
  const NiffFixCommand *self = (const NiffFixCommand *)cmd;
  return g_bytes_get_size (self->before) + g_bytes_get_size (self->after);
}

static void
niff_fix_finalize (TressCommand *cmd)
{
  NiffFixCommand *self = (NiffFixCommand *)cmd;
  g_clear_pointer (&self->before, g_bytes_unref);
  g_clear_pointer (&self->after, g_bytes_unref);
}

static const TressCommandClass niff_fix_command_class = {
  .type_name = "NiffFix",
  .apply = niff_fix_apply,
  .size = niff_fix_size,
  .finalize = niff_fix_finalize,
};

static void
perform_fix (TressNiffFile *file, TressHistory *history, const char *label, guint32 group,
             GBytes *before, GBytes *after)
{
  NiffFixCommand *cmd
      = tress_command_alloc (sizeof (NiffFixCommand), &niff_fix_command_class, label, NULL);

  cmd->group = group;
  cmd->before = before;
  cmd->after = after;
  if (history != NULL)
    tress_history_perform (history, &cmd->parent);
  else
    {
      niff_fix_apply (&cmd->parent, file, FALSE);
      tress_command_free (&cmd->parent);
    }
}

/* Applies to @g (at place @gi) every fix validate_group offers; returns TRUE
 * if anything changed. */
static gboolean
fix_group (const TressNiffFile *file, guint gi, TressNiffGroup *g)
{
  gboolean changed = FALSE;
  guint32 type = records_anim_type (g);

  if (g->index != gi)
    {
      g->index = gi;
      changed = TRUE;
    }
  if (type != NIFF_NONE && type != g->anim_type)
    {
      g->anim_type = type;
      changed = TRUE;
    }
  for (guint i = 0; i < g->records->len; i++)
    {
      TressNiffRecord *r = &g_array_index (g->records, TressNiffRecord, i);
      const TressNiffRecord *next
          = i + 1 < g->records->len ? &g_array_index (g->records, TressNiffRecord, i + 1) : NULL;
      guint32 want_next = next != NULL ? next->key : NIFF_NONE;

      if (r->index != i)
        {
          r->index = i;
          changed = TRUE;
        }
      if (r->tag == TRESS_NIFF_RECORD_KEY && r->next != want_next)
        {
          r->next = want_next;
          changed = TRUE;
        }
    }
  if (file->niff2 && !g->has_ext)
    {
      g->has_ext = TRUE;
      g->channel_bits = 0;
      for (guint i = 0; i < 14; i++)
        g->constraints[i] = g->external_names[i] = NIFF_NONE;
      changed = TRUE;
    }
  if (g->has_ext)
    for (guint c = 0; c < TRESS_NIFF_N_CHANNELS; c++)
      {
        guint32 bits
            = g->channels[c]->len > 0 ? g->channel_bits | (1u << c) : g->channel_bits & ~(1u << c);
        if (bits != g->channel_bits)
          {
            g->channel_bits = bits;
            changed = TRUE;
          }
      }
  return changed;
}

static guint
count_fixable (GPtrArray *problems)
{
  guint n = 0;

  for (guint i = 0; i < problems->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (problems, i);

      /* A summary row counts as the problems it stands for. */
      if (p->fix_id >= 0)
        n += p->n_more > 0 ? p->n_more : 1;
    }
  return n;
}

static guint
niff_fix_all (gpointer model, TressHistory *history, GError **error)
{
  TressNiffFile *file = model;
  g_autoptr (GPtrArray) before = niff_validate (file);
  g_autoptr (GPtrArray) after = NULL;
  guint n_before = count_fixable (before);
  gboolean grouped = FALSE;
  g_autofree char *label = NULL;

  if (n_before == 0)
    return 0;
  label = g_strdup_printf ("Fix %u problem%s", n_before, n_before == 1 ? "" : "s");
  if (history != NULL)
    {
      tress_history_begin_group (history, label);
      grouped = TRUE;
    }

  /* The file header's list size fields. */
  {
    gsize size = 0;
    const guint8 *data = g_bytes_get_data (file->bytes, &size);
    g_autofree guint8 *header = g_memdup2 (data, file->header_size);
    gboolean changed = FALSE;

    for (guint k = 0; k < G_N_ELEMENTS (list_kinds); k++)
      {
        guint32 want = 0;

        if (list_kinds[k].header_offset + 4 > file->header_size)
          continue;
        for (guint i = 0; i < file->lists->len; i++)
          {
            const TressNiffList *l = &g_array_index (file->lists, TressNiffList, i);
            if (l->tag == list_kinds[k].tag)
              want = (guint32)l->size;
          }
        if (niff_word (header + list_kinds[k].header_offset) != want)
          {
            put_at (header + list_kinds[k].header_offset, want);
            changed = TRUE;
          }
      }
    if (changed)
      perform_fix (file, history, label, NIFF_NONE, g_bytes_new (data, file->header_size),
                   g_bytes_new_take (g_steal_pointer (&header), file->header_size));
  }

  /* Each AnimGroup, fixed on a copy made from its own bytes. */
  for (guint gi = 0; gi < file->groups->len; gi++)
    {
      GByteArray *out = g_byte_array_new ();
      g_autoptr (GBytes) was = NULL;
      TressNiffGroup *copy;
      gsize size = 0;
      const guint8 *data;

      tress_niff_group_write (g_ptr_array_index (file->groups, gi), out);
      was = g_byte_array_free_to_bytes (out);
      data = g_bytes_get_data (was, &size);
      copy = tress_niff_group_parse (data, size, 0, error);
      if (copy == NULL)
        {
          g_prefix_error (error, "AnimGroup %u: ", gi);
          break;
        }
      if (fix_group (file, gi, copy))
        {
          out = g_byte_array_new ();
          tress_niff_group_write (copy, out);
          perform_fix (file, history, label, gi, g_steal_pointer (&was),
                       g_byte_array_free_to_bytes (out));
        }
      tress_niff_group_free (copy);
    }
  if (grouped)
    tress_history_end_group (history);

  after = niff_validate (file);
  return n_before - MIN (n_before, count_fixable (after));
}

/* ---- describe and dump ---- */

char *
tress_niff_group_owner (const TressNiffFile *file, guint group)
{
  g_return_val_if_fail (group < file->group_owners->len, NULL);
  return g_strdup (g_ptr_array_index (file->group_owners, group));
}

static char *
niff_describe (gpointer model)
{
  TressNiffFile *file = model;
  GString *s = g_string_new (NULL);
  guint n_curves = file->curve_refs->len;

  g_string_append_printf (s, "NIFF %d.0 (version 0x%08x), %" G_GSIZE_FORMAT " bytes\n",
                          file->niff2 ? 2 : 1, file->version, g_bytes_get_size (file->bytes));
  g_string_append_printf (s, "lists: %u present\n", file->lists->len);
  g_string_append_printf (s, "objects: %u, names: %u\n", file->objects->len, file->name_spans->len);
  g_string_append_printf (s, "AnimGroups: %u, curves: %u\n", file->groups->len, n_curves);
  for (guint i = 0; i < file->groups->len; i++)
    {
      const TressNiffGroup *g = g_ptr_array_index (file->groups, i);
      const char *name = tress_niff_file_get_name (file, g->name_index);
      g_autofree char *owner = tress_niff_group_owner (file, i);
      const char *type = tress_niff_anim_type_name (g->anim_type);

      g_string_append_printf (s, "group %u %s: %s, %u record%s", i, name ? name : "(unnamed)",
                              type ? type : "unknown type", g->records->len,
                              g->records->len == 1 ? "" : "s");
      if (owner != NULL)
        g_string_append_printf (s, ", used by %s", owner);
      if (g->has_ext)
        {
          gboolean any = FALSE;
          g_string_append (s, ", channels:");
          for (guint c = 0; c < TRESS_NIFF_N_CHANNELS; c++)
            if (g->channels[c]->len > 0)
              {
                g_string_append_printf (s, " %s(%u)", tress_niff_channel_name (c),
                                        g->channels[c]->len);
                any = TRUE;
              }
          if (!any)
            g_string_append (s, " none");
          for (guint k = 0; k < TRESS_NIFF_N_CONSTRAINTS; k++)
            if ((g->channel_bits >> (8 + k)) & 1)
              g_string_append_printf (s, ", %s constraint", constraint_names[k]);
        }
      g_string_append_c (s, '\n');
    }
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (TressNiffScene) scene = tress_niff_scene_new (file, &error);

    if (scene != NULL)
      tress_niff_scene_describe (scene, s);
    else
      g_string_append_printf (s, "scene not shown: %s\n", error->message);
  }
  return g_string_free (s, FALSE);
}

static const char *const niff_extensions[] = { "niff", "nif", NULL };

const TressFormat tress_format_niff = {
  .id = "niff",
  .display_name = N_ ("NIFF animation"),
  .extensions = niff_extensions,
  .mime_type = "application/x-niff",
  .probe = niff_probe,
  .parse = niff_parse,
  .free = niff_free,
  .validate = niff_validate,
  .serialize = niff_serialize,
  .describe = niff_describe,
  .dump = niff_dump_json,
  .build = niff_build_json,
  .fix_all = niff_fix_all,
  .curves = &tress_niff_curve_ops,
};
