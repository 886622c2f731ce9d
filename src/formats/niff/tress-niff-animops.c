/* tress-niff-animops.c: finding, renaming, duplicating and deleting AnimGroups,
 * and their loop count (retiming and cutting: tress-niff-retime.c)
 *
 * An operation that changes more than one group's keys works on the file as
 * it would be saved: serialized, parsed again, changed there (the groups in
 * the model, other lists in the bytes, which keep their places), serialized,
 * the name added to the NameList, and parsed once more; the result becomes
 * the file's model.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-niff-animops.h"

#include <string.h>

#include "tress-niff-private.h"
#include "tress-niff-scene.h"

#define NIFF_HEADER_NAME_SIZE_OFFSET 0x58u

TressNiffGroup *niff_group_copy (const TressNiffGroup *g);

static const char *
stored_name (TressNiffFile *file, guint group)
{
  const TressNiffGroup *g = g_ptr_array_index (file->groups, group);

  return tress_niff_file_get_name (file, g->name_index);
}

char *
tress_niff_dup_group_spec (TressNiffFile *file, guint group)
{
  const char *name = stored_name (file, group);
  guint same = 0;

  for (guint i = 0; name != NULL && i < file->groups->len; i++)
    same += g_strcmp0 (stored_name (file, i), name) == 0;
  return name != NULL && same == 1 && name[0] != '#' ? g_strdup (name)
                                                     : g_strdup_printf ("#%u", group);
}

int
tress_niff_find_group (TressNiffFile *file, const char *spec, GPtrArray *candidates)
{
  int found = -1;
  guint n = 0;

  g_return_val_if_fail (file != NULL && spec != NULL, -1);
  if (spec[0] == '#' && g_ascii_isdigit (spec[1]))
    {
      char *end = NULL;
      guint64 i = g_ascii_strtoull (spec + 1, &end, 10);

      if (*end == '\0' && i < file->groups->len)
        return (int)i;
    }
  for (guint i = 0; i < file->groups->len; i++)
    if (g_strcmp0 (stored_name (file, i), spec) == 0 && n++ == 0)
      found = (int)i;
  if (n == 1)
    return found;
  for (guint i = 0; candidates != NULL && n > 1 && i < file->groups->len; i++)
    if (g_strcmp0 (stored_name (file, i), spec) == 0)
      g_ptr_array_add (candidates, tress_niff_dup_group_spec (file, i));
  return -1;
}

static gboolean
group_ok (TressNiffFile *file, guint group, GError **error)
{
  if (group < file->groups->len)
    return TRUE;
  g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, "No AnimGroup %u (the file has %u)", group,
               file->groups->len);
  return FALSE;
}

gboolean
tress_niff_set_group_loop (TressNiffFile *file, guint group, guint32 loop_count, GPtrArray *notes,
                           GError **error)
{
  TressNiffGroup *g;

  g_return_val_if_fail (file != NULL, FALSE);
  if (!group_ok (file, group, error))
    return FALSE;
  g = g_ptr_array_index (file->groups, group);
  if (notes != NULL && g->loop != loop_count)
    g_ptr_array_add (notes,
                     g_strdup_printf ("AnimGroup \"%s\": loop count %u → %u (0: endless)",
                                      (const char *)g_ptr_array_index (file->group_paths, group),
                                      g->loop, loop_count));
  g->loop = loop_count;
  tress_niff_group_changed (file, group);
  return TRUE;
}

/* ---- the file as saved ---------------------------------------------------------------- */

gboolean
tress_niff_file_restore (TressNiffFile *file, GBytes *bytes, GError **error)
{
  TressNiffFile *n;
  TressNiffFile swap;

  g_return_val_if_fail (file != NULL && bytes != NULL, FALSE);
  n = tress_format_niff.parse (bytes, NULL, error);
  if (n == NULL)
    return FALSE;
  swap = *file;
  *file = *n;
  *n = swap;
  tress_format_niff.free (n);
  return TRUE;
}

/* @file serialized and parsed again: the lists where serialize puts them. */
static TressNiffFile *
reparse (TressNiffFile *file, GError **error)
{
  g_autoptr (GBytes) bytes = tress_format_niff.serialize (file, error);

  return bytes != NULL ? tress_format_niff.parse (bytes, NULL, error) : NULL;
}

static void
free_file (TressNiffFile *file)
{
  tress_format_niff.free (file);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressNiffFile, free_file)

/* Appends NameList element @name (index @index) to the NIFF @bytes. */
static GBytes *
add_name (GBytes *bytes, const char *name, guint32 index, GError **error)
{
  gsize size, len = strlen (name), text = (len + 3) & ~(gsize)3, pos, elem = 16 + text;
  const guint8 *d = g_bytes_get_data (bytes, &size);
  guint32 n, hsize, lsize, nin, usr;
  GByteArray *out;

  pos = niff_word (d + 12);
  while (pos + 24 <= size && niff_word (d + pos) != NIFF_TAG_NAME)
    pos += niff_word (d + pos + 8);
  if (pos + 24 > size)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "The file has no NameList to hold the name \"%s\"", name);
      return NULL;
    }
  hsize = niff_word (d + pos + 4);
  lsize = niff_word (d + pos + 8);
  n = niff_word (d + pos + 12);
  nin = niff_word (d + pos + 16);
  usr = niff_word (d + pos + 20);
  if ((guint64)size + 4 + elem > G_MAXUINT32)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED,
                   "The file would exceed the 4 GiB a NIFF size field can state");
      return NULL;
    }
  out = g_byte_array_sized_new (size + 4 + elem);
  /* Header and size table, one more size; the elements; the new one; the
   * list's extension blocks; the lists after it. */
  g_byte_array_append (out, d, pos + hsize);
  g_byte_array_set_size (out, out->len + 4);
  tress_put_u32 (out->data + out->len - 4, (guint32)elem, TRESS_BIG_ENDIAN);
  g_byte_array_append (out, d + pos + hsize, lsize - hsize - nin - usr);
  g_byte_array_set_size (out, out->len + elem);
  memset (out->data + out->len - elem, 0, elem);
  tress_put_u32 (out->data + out->len - elem, NIFF_TAG_NAME_ELEMENT, TRESS_BIG_ENDIAN);
  tress_put_u32 (out->data + out->len - elem + 4, index, TRESS_BIG_ENDIAN);
  tress_put_u32 (out->data + out->len - elem + 8, 16, TRESS_BIG_ENDIAN);
  tress_put_u32 (out->data + out->len - elem + 12, (guint32)elem, TRESS_BIG_ENDIAN);
  memcpy (out->data + out->len - elem + 16, name, len);
  g_byte_array_append (out, d + pos + lsize - nin - usr, (guint)(size - (pos + lsize - nin - usr)));
  tress_put_u32 (out->data + pos + 4, hsize + 4, TRESS_BIG_ENDIAN);
  tress_put_u32 (out->data + pos + 8, (guint32)(lsize + 4 + elem), TRESS_BIG_ENDIAN);
  tress_put_u32 (out->data + pos + 12, n + 1, TRESS_BIG_ENDIAN);
  tress_put_u32 (out->data + NIFF_HEADER_NAME_SIZE_OFFSET, (guint32)(lsize + 4 + elem),
                 TRESS_BIG_ENDIAN);
  tress_put_u32 (out->data + 4, out->len, TRESS_BIG_ENDIAN);
  return g_byte_array_free_to_bytes (out);
}

/* Refuses a name no other group may have. */
static gboolean
name_free (TressNiffFile *file, guint group, const char *name, GError **error)
{
  gboolean ok = name[0] != '\0' && strlen (name) <= TRESS_NIFF_GROUP_NAME_MAX
                && g_utf8_validate (name, -1, NULL);

  for (const char *c = name; ok && *c != '\0'; c++)
    ok = (guchar)*c >= 0x20 && *c != 0x7F;
  if (!ok)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "An AnimGroup name is UTF-8 text of 1 to %d bytes without control characters",
                   TRESS_NIFF_GROUP_NAME_MAX);
      return FALSE;
    }
  for (guint i = 0; i < file->groups->len; i++)
    if (g_strcmp0 (stored_name (file, i), name) == 0)
      {
        g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                     i == group ? "AnimGroup %u is already named \"%s\""
                                : "AnimGroup %u is named \"%s\" already: give another name",
                     i, name);
        return FALSE;
      }
  return TRUE;
}

/* One past the highest NameList index. */
static guint32
next_name_index (const TressNiffFile *file)
{
  guint32 next = 0;

  for (guint i = 0; i < file->name_spans->len; i++)
    next = MAX (next, g_array_index (file->name_spans, TressNiffNameSpan, i).index + 1);
  return next;
}

/* Serializes @m, adds @name to its NameList (when not NULL) and makes the
 * result @file's model. */
static gboolean
finish (TressNiffFile *file, TressNiffFile *m, const char *name, guint32 name_index,
        GPtrArray *said, GPtrArray *notes, GError **error)
{
  g_autoptr (GBytes) bytes = tress_format_niff.serialize (m, error);
  g_autoptr (GBytes) named = NULL;
  gsize before = g_bytes_get_size (file->bytes);

  if (bytes == NULL)
    return FALSE;
  if (name != NULL)
    {
      named = add_name (bytes, name, name_index, error);
      if (named == NULL)
        return FALSE;
      g_ptr_array_add (said,
                       g_strdup_printf ("NameList element %u \"%s\" appended", name_index, name));
    }
  else
    named = g_bytes_ref (bytes);
  if (!tress_niff_file_restore (file, named, error))
    {
      g_prefix_error (error, "The new file cannot be read back: ");
      return FALSE;
    }
  g_ptr_array_add (
      said, g_strdup_printf ("The file %s %" G_GSIZE_FORMAT " bytes (%" G_GSIZE_FORMAT
                             " → %" G_GSIZE_FORMAT ")",
                             g_bytes_get_size (named) >= before ? "grows by" : "shrinks by",
                             g_bytes_get_size (named) >= before ? g_bytes_get_size (named) - before
                                                                : before - g_bytes_get_size (named),
                             before, g_bytes_get_size (named)));
  for (guint i = 0; notes != NULL && i < said->len; i++)
    g_ptr_array_add (notes, g_strdup (g_ptr_array_index (said, i)));
  return TRUE;
}

gboolean
tress_niff_rename_group (TressNiffFile *file, guint group, const char *name, GPtrArray *notes,
                         GError **error)
{
  g_autoptr (TressNiffFile) m = NULL;
  g_autoptr (GPtrArray) said = g_ptr_array_new_with_free_func (g_free);
  guint32 index;

  g_return_val_if_fail (file != NULL && name != NULL, FALSE);
  if (!group_ok (file, group, error) || !name_free (file, group, name, error))
    return FALSE;
  m = reparse (file, error);
  if (m == NULL)
    return FALSE;
  index = next_name_index (m);
  ((TressNiffGroup *)g_ptr_array_index (m->groups, group))->name_index = index;
  g_ptr_array_add (
      said,
      g_strdup_printf ("AnimGroup %u \"%s\" → \"%s\"; the old name stays in the "
                       "NameList (other nodes may use it)",
                       group, (const char *)g_ptr_array_index (file->group_paths, group), name));
  return finish (file, m, name, index, said, notes, error);
}

gboolean
tress_niff_duplicate_group (TressNiffFile *file, guint group, const char *name, GPtrArray *notes,
                            GError **error)
{
  g_autoptr (TressNiffFile) m = NULL;
  g_autoptr (GPtrArray) said = g_ptr_array_new_with_free_func (g_free);
  TressNiffGroup *copy;
  guint32 index;

  g_return_val_if_fail (file != NULL && name != NULL, FALSE);
  if (!group_ok (file, group, error) || !name_free (file, G_MAXUINT, name, error))
    return FALSE;
  m = reparse (file, error);
  if (m == NULL)
    return FALSE;
  index = next_name_index (m);
  copy = niff_group_copy (g_ptr_array_index (m->groups, group));
  copy->index = m->groups->len;
  copy->name_index = index;
  g_ptr_array_add (m->groups, copy);
  g_ptr_array_add (
      said, g_strdup_printf ("AnimGroup %u \"%s\" copied as AnimGroup %u \"%s\"; no "
                             "object uses it yet",
                             group, (const char *)g_ptr_array_index (file->group_paths, group),
                             m->groups->len - 1, name));
  return finish (file, m, name, index, said, notes, error);
}

/* ---- delete ----------------------------------------------------------------------------- */

typedef struct
{
  gsize at; /* the word naming an AnimGroup, in the file as read */
  guint32 group;
  const char *who; /* for a refusal */
  const char *name;
} GroupRef;

static void
add_ref (GArray *refs, gsize element, gsize word, guint32 group, const char *who, const char *name)
{
  GroupRef r = { element + word, group, who, name };

  if (group != NIFF_NONE)
    g_array_append_val (refs, r);
}

gboolean
tress_niff_delete_group (TressNiffFile *file, guint group, GPtrArray *notes, GError **error)
{
  g_autoptr (TressNiffFile) m = NULL;
  g_autoptr (TressNiffScene) scene = NULL;
  g_autoptr (GPtrArray) said = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) refs = g_array_new (FALSE, FALSE, sizeof (GroupRef));
  g_autoptr (GString) users = g_string_new (NULL);
  GByteArray *bytes;
  guint n_moved = 0;

  g_return_val_if_fail (file != NULL, FALSE);
  if (!group_ok (file, group, error))
    return FALSE;
  m = reparse (file, error);
  if (m == NULL)
    return FALSE;
  scene = tress_niff_scene_new (m, error);
  if (scene == NULL)
    {
      g_prefix_error (error, "The nodes that name AnimGroups cannot be read, so the groups after "
                             "it cannot be renumbered: ");
      return FALSE;
    }
  for (guint i = 0; i < scene->n_objects; i++)
    add_ref (refs, scene->objects[i].offset, 72, scene->objects[i].anim_group, "object",
             scene->objects[i].name);
  for (guint i = 0; i < scene->n_chain_roots; i++)
    add_ref (refs, scene->chain_roots[i].offset, 28, scene->chain_roots[i].anim_group, "ChainRoot",
             scene->chain_roots[i].name);
  for (guint i = 0; i < scene->n_joints; i++)
    add_ref (refs, scene->joints[i].offset, 52, scene->joints[i].anim_group, "Joint",
             scene->joints[i].name);
  for (guint i = 0; i < scene->n_effectors; i++)
    add_ref (refs, scene->effectors[i].offset, 28, scene->effectors[i].anim_group, "Effector",
             scene->effectors[i].name);
  for (guint i = 0; i < refs->len; i++)
    {
      const GroupRef *r = &g_array_index (refs, GroupRef, i);

      if (r->group == group)
        g_string_append_printf (users, "%s%s \"%s\"", users->len ? ", " : "", r->who,
                                r->name != NULL ? r->name : "?");
    }
  if (users->len > 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "AnimGroup %u \"%s\" moves %s: unlink it first (a NIFF node names the group "
                   "it uses by its place)",
                   group, (const char *)g_ptr_array_index (file->group_paths, group), users->str);
      return FALSE;
    }

  /* The words naming later groups, one place down, in the bytes serialize
   * copies around the AnimList (the lists keep their places). */
  bytes = g_byte_array_new ();
  g_byte_array_append (bytes, g_bytes_get_data (m->bytes, NULL), g_bytes_get_size (m->bytes));
  for (guint i = 0; i < refs->len; i++)
    {
      const GroupRef *r = &g_array_index (refs, GroupRef, i);

      if (r->group > group && r->group < m->groups->len && r->at + 4 <= bytes->len)
        {
          tress_put_u32 (bytes->data + r->at, r->group - 1, TRESS_BIG_ENDIAN);
          n_moved++;
        }
    }
  g_bytes_unref (m->bytes);
  m->bytes = g_byte_array_free_to_bytes (bytes);
  g_ptr_array_remove_index (m->groups, group);
  for (guint i = group; i < m->groups->len; i++)
    {
      TressNiffGroup *g = g_ptr_array_index (m->groups, i);

      if (g->index == i + 1)
        g->index = i;
    }
  g_ptr_array_add (
      said, g_strdup_printf ("AnimGroup %u \"%s\" removed; %u later group%s one place "
                             "down, %u reference%s to them renumbered; its name stays in "
                             "the NameList",
                             group, (const char *)g_ptr_array_index (file->group_paths, group),
                             m->groups->len - group, m->groups->len - group == 1 ? "" : "s",
                             n_moved, n_moved == 1 ? "" : "s"));
  return finish (file, m, NULL, 0, said, notes, error);
}
