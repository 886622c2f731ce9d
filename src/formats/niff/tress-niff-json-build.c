/* tress-niff-json-build.c: a NIFF dump's stored form put back together, and the build
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-niff-json-private.h"

#include <string.h>

#include "formats/tress-json-curves.h"

static gboolean
check_bytes (TressJsonReader *r, GBytes *header, GArray *lists)
{
  gsize n;
  const guint8 *d = g_bytes_get_data (header, &n);
  gboolean ok = TRUE;

  if (n < 16 || niff_word (d + 12) != n || (n != NIFF1_HEADER_SIZE && n != NIFF2_HEADER_SIZE))
    ok = tress_json_reader_refuse_at (r, "/header_base64",
                                      "%" G_GSIZE_FORMAT " bytes; the file header is %u (NIFF1) or "
                                      "%u (NIFF2) bytes, as its size field at 12 says (read-only, "
                                      "as dumped)",
                                      n, NIFF1_HEADER_SIZE, NIFF2_HEADER_SIZE);
  for (guint i = 0; i < lists->len; i++)
    {
      const ListIn *l = &g_array_index (lists, ListIn, i);
      g_autofree char *path = NULL;

      if (l->tag == NIFF_TAG_ANIM || l->bytes == NULL)
        continue;
      d = g_bytes_get_data (l->bytes, &n);
      path = g_strdup_printf ("/lists/%u/base64", i);
      if (n < 24)
        ok = tress_json_reader_refuse_at (r, path,
                                          "%" G_GSIZE_FORMAT " bytes; a list holds at least its "
                                          "24-byte header (read-only, as dumped)",
                                          n);
      else if (niff_word (d) != l->tag)
        ok = tress_json_reader_refuse_at (r, path,
                                          "the bytes begin with the tag 0x%08x, not the list's "
                                          "\"tag\" 0x%08x (read-only, as dumped)",
                                          niff_word (d), l->tag);
      else if (niff_word (d + 8) != n)
        ok = tress_json_reader_refuse_at (r, path,
                                          "%" G_GSIZE_FORMAT " bytes, where the list's size "
                                          "field says %u (read-only, as dumped)",
                                          n, niff_word (d + 8));
    }
  return ok;
}

/* The file the stored form describes: as serialize writes it. */
static GBytes *
put_together (GBytes *header, GArray *lists, GArray *groups)
{
  GByteArray *out = g_byte_array_new ();
  gsize anim_size = 0;
  gboolean has_anim = FALSE;

  g_byte_array_append (out, g_bytes_get_data (header, NULL), (guint)g_bytes_get_size (header));
  for (guint i = 0; i < lists->len; i++)
    {
      const ListIn *l = &g_array_index (lists, ListIn, i);

      if (l->tag != NIFF_TAG_ANIM)
        {
          g_byte_array_append (out, g_bytes_get_data (l->bytes, NULL),
                               (guint)g_bytes_get_size (l->bytes));
          continue;
        }
      {
        guint n = groups->len;
        gsize ext = l->ext != NULL ? g_bytes_get_size (l->ext) : 0;
        gsize start = out->len;
        guint8 w[4];

        has_anim = TRUE;
        anim_size = 24 + 4 * (gsize)n + ext;
        for (guint g = 0; g < n; g++)
          anim_size += tress_niff_group_size (g_array_index (groups, GroupIn, g).group);
#define PUT(v) (tress_put_u32 (w, (guint32)(v), TRESS_BIG_ENDIAN), g_byte_array_append (out, w, 4))
        PUT (NIFF_TAG_ANIM);
        PUT (24 + 4 * n);
        PUT (anim_size);
        PUT (n);
        PUT (l->nin);
        PUT (l->usr);
        for (guint g = 0; g < n; g++)
          PUT (tress_niff_group_size (g_array_index (groups, GroupIn, g).group));
#undef PUT
        for (guint g = 0; g < n; g++)
          tress_niff_group_write (g_array_index (groups, GroupIn, g).group, out);
        if (ext > 0)
          g_byte_array_append (out, g_bytes_get_data (l->ext, NULL), (guint)ext);
        g_assert (out->len - start == anim_size);
      }
    }
  if (has_anim && out->len >= 0x50)
    {
      tress_put_u32 (out->data + 4, out->len, TRESS_BIG_ENDIAN);
      tress_put_u32 (out->data + NIFF_HEADER_ANIM_SIZE_OFFSET, (guint32)anim_size,
                     TRESS_BIG_ENDIAN);
    }
  return g_byte_array_free_to_bytes (out);
}

typedef struct
{
  const GroupIn *gi;
  GPtrArray *zeros; /* guint32 *: the group's floats that are +0 */
} ZeroSearch;

static void
flip_zero (gpointer data, guint i, gboolean negative)
{
  ZeroSearch *z = data;

  *(guint32 *)g_ptr_array_index (z->zeros, i) = negative ? 0x80000000u : 0;
}

static gboolean
digest_is_dumped (gpointer data)
{
  ZeroSearch *z = data;
  char mine[17];

  _tress_niff_json_group_digest (z->gi->group, mine);
  return g_strcmp0 (mine, z->gi->digest) == 0;
}

/* An AnimGroup whose stored form is not the one dumped: whether it is, with
 * some of its zeros negative (tress_json_find_negative_zeros). Noted when so. */
static gboolean
restore_negative_zeros (TressJsonReader *r, const GroupIn *gi, gsize *budget)
{
  g_autoptr (GPtrArray) zeros = g_ptr_array_new ();
  ZeroSearch z = { gi, zeros };
  TressNiffGroup *g = gi->group;
  guint n = 0;

  if (gi->digest == NULL || digest_is_dumped (&z))
    return FALSE;
  for (guint i = 0; i < g->records->len; i++)
    {
      TressNiffRecord *rec = &g_array_index (g->records, TressNiffRecord, i);

      for (guint k = 0; rec->tag != TRESS_NIFF_RECORD_BILLBOARD && k < 9; k++)
        if (rec->trs[k] == 0)
          g_ptr_array_add (zeros, &rec->trs[k]);
    }
  for (guint c = 0; g->has_ext && c < TRESS_NIFF_N_CHANNELS; c++)
    for (guint i = 0; i < g->channels[c]->len; i++)
      {
        TressNiffChannelKey *k = &g_array_index (g->channels[c], TressNiffChannelKey, i);

        for (guint j = 0; j < tress_niff_channel_n_components (c); j++)
          {
            if (k->value[j] == 0)
              g_ptr_array_add (zeros, &k->value[j]);
            if (k->diff[j] == 0)
              g_ptr_array_add (zeros, &k->diff[j]);
          }
      }
  if (!tress_json_find_negative_zeros (zeros->len, flip_zero, digest_is_dumped, &z,
                                       tress_niff_group_size (g), budget))
    return FALSE;
  for (guint i = 0; i < zeros->len; i++)
    n += *(guint32 *)g_ptr_array_index (zeros, i) != 0;
  tress_json_reader_note_at (r, gi->path,
                             "%u zero%s given as 0 kept negative, as stored (a tool dropped the "
                             "sign of zero)",
                             n, n == 1 ? "" : "s");
  return TRUE;
}

static const char *
hint_for (const char *name)
{
  if (g_str_equal (name, "name") || g_str_equal (name, "used_by"))
    return "names come from the NameList and the objects (in \"lists\")";
  if (g_str_equal (name, "offset") || g_str_equal (name, "size") || g_str_equal (name, "file_size"))
    return "offsets and sizes follow from the contents";
  if (g_str_equal (name, "path"))
    return "a curve's path follows from its AnimGroup and channel";
  return NULL;
}

enum
{
  T_FORMAT,
  T_VERSION,
  T_HEADER,
  T_LISTS,
  T_DIGEST,
  T_GROUPS,
  T_CURVES,
};

static const char *const top_names[] = {
  "format", "version", "header_base64", "lists", "stored_digest", "anim_groups", "curves", NULL,
};

gboolean
niff_build_json (TressJsonReader *r, TressJsonBuild *out)
{
  const TressCurveOps *ops = &tress_niff_curve_ops;
  g_autoptr (GArray) lists = g_array_new (FALSE, TRUE, sizeof (ListIn));
  g_autoptr (GArray) groups = g_array_new (FALSE, TRUE, sizeof (GroupIn));
  g_autoptr (GPtrArray) curve_paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) curve_keys
      = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_json_keys_free);
  g_autoptr (GBytes) header = NULL, bytes = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) before = NULL;
  g_autofree char *digest = NULL, *actual = NULL;
  TressNiffFile *file;
  guint64 seen = 0;
  int which;
  guint n_edits = 0;
  gboolean ok = TRUE;

  g_array_set_clear_func (lists, _tress_niff_json_list_in_clear);
  g_array_set_clear_func (groups, _tress_niff_json_group_in_clear);
  if (tress_json_reader_begin_object (r))
    while ((which = tress_json_reader_next_known (r, top_names, &seen)) != -2)
      switch (which)
        {
        case T_FORMAT:
          tress_json_reader_check_format (r, "niff");
          break;
        case T_VERSION:
          tress_json_reader_check_version (r, NIFF_JSON_VERSION, "NIFF");
          break;
        case T_HEADER:
          header = tress_json_reader_read_base64 (r, 0);
          break;
        case T_LISTS:
          _tress_niff_json_read_lists (r, lists);
          break;
        case T_DIGEST:
          digest = tress_json_reader_read_string (r);
          break;
        case T_GROUPS:
          if (tress_json_reader_begin_array (r))
            while (tress_json_reader_next_element (r))
              {
                GroupIn g;

                _tress_niff_json_read_group (r, &g);
                g_array_append_val (groups, g);
              }
          break;
        case T_CURVES:
          if (tress_json_reader_begin_array (r))
            while (tress_json_reader_next_element (r))
              {
                static const char *const cnames[] = { "keys", NULL };
                char *cpath = tress_json_reader_path (r);
                guint64 cseen = 0;
                GArray *keys = NULL;
                int c;

                g_ptr_array_add (curve_paths, cpath);
                if (tress_json_reader_begin_object (r))
                  {
                    while ((c = tress_json_reader_next_known (r, cnames, &cseen)) != -2)
                      {
                        if (c == 0)
                          keys = tress_json_read_keys (r, NULL);
                        else
                          tress_json_reader_keep_unknown (r);
                      }
                    tress_json_reader_note_missing (r, cnames, 1, cseen, cpath,
                                                    "the curve's keys stay as stored");
                  }
                g_ptr_array_add (curve_keys, keys);
              }
          break;
        default:
          tress_json_reader_keep_unknown (r);
          break;
        }
  tress_json_reader_require (r, top_names, 0x3F, seen, "");
  tress_json_reader_note_missing (r, top_names, 1u << T_CURVES, seen, "",
                                  "every curve stays as stored");
  if (!tress_json_reader_ok (r) || tress_json_reader_n_errors (r) > 0)
    return FALSE;
  if (header == NULL)
    return FALSE;

  /* Read-only: the stored form must be what the dump wrote; a negative zero
   * a tool wrote back as 0 is the same value, and keeps its bits. */
  if (!check_bytes (r, header, lists))
    return FALSE;
  bytes = put_together (header, lists, groups);
  actual = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, bytes);
  if (g_strcmp0 (actual, digest) != 0)
    {
      gsize budget = TRESS_JSON_ZERO_BUDGET;
      gboolean restored = FALSE;

      for (guint i = 0; i < groups->len; i++)
        restored |= restore_negative_zeros (r, &g_array_index (groups, GroupIn, i), &budget);
      if (restored)
        {
          g_bytes_unref (bytes);
          g_free (actual);
          bytes = put_together (header, lists, groups);
          actual = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, bytes);
        }
    }
  if (g_strcmp0 (actual, digest) != 0)
    {
      gboolean named = FALSE;

      for (guint i = 0; i < groups->len; i++)
        {
          const GroupIn *g = &g_array_index (groups, GroupIn, i);
          char mine[17];

          _tress_niff_json_group_digest (g->group, mine);
          if (g_strcmp0 (mine, g->digest) != 0)
            {
              tress_json_reader_refuse_at (r, g->path,
                                           "the AnimGroup's stored members (its header values, "
                                           "records and channel keys) were changed; they are "
                                           "read-only: edit the keys of its curves in "
                                           "/curves instead");
              named = TRUE;
            }
        }
      if (!named)
        tress_json_reader_refuse_at (r, "/lists",
                                     "the file's bytes outside the AnimGroups "
                                     "(\"header_base64\" or \"lists\") were changed; they are "
                                     "read-only: a NIFF build applies edits of curve keys");
      return FALSE;
    }

  file = tress_format_niff.parse (bytes, "JSON", &error);
  if (file == NULL)
    return tress_json_reader_refuse_at (r, "", "the file this JSON describes does not open: %s",
                                        error->message);
  if ((seen & (1u << T_CURVES)) && ops->n_curves (file) != curve_keys->len)
    {
      guint n = ops->n_curves (file);

      tress_format_niff.free (file);
      return tress_json_reader_refuse_at (r, "/curves",
                                          "the file has %u curves, the JSON lists %u; curves "
                                          "follow from the AnimGroups",
                                          n, curve_keys->len);
    }
  tress_json_reader_check_unknown (r, niff_dump_json, file, hint_for);
  if (tress_json_reader_n_errors (r) > 0)
    {
      tress_format_niff.free (file);
      return FALSE;
    }

  /* The edits: a curve whose keys differ from the file's goes through
   * set_curve (compared with the curves as read, before any edit: linked
   * curves move with an edited one). */
  before = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_curve_unref);
  for (guint i = 0; i < curve_keys->len; i++)
    g_ptr_array_add (before, ops->get_curve (file, i));
  for (guint i = 0; i < curve_keys->len; i++)
    {
      GArray *keys = g_ptr_array_index (curve_keys, i);
      g_autofree char *keys_path = NULL;
      gboolean edited = FALSE;

      if (keys == NULL || tress_json_keys_equal (g_ptr_array_index (before, i), keys))
        continue;
      keys_path = g_strconcat (g_ptr_array_index (curve_paths, i), "/keys", NULL);
      if (!tress_json_apply_keys (r, ops, file, i, keys_path, keys, NULL, NULL, NULL, &edited))
        ok = FALSE;
      n_edits += edited;
    }
  if (!ok || tress_json_reader_n_errors (r) > 0)
    {
      tress_format_niff.free (file);
      return FALSE;
    }
  out->model = file;
  out->original = g_steal_pointer (&bytes);
  out->n_edits = n_edits;
  return TRUE;
}
