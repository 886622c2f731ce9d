/* tress-niff-json.c: NIFF as JSON and back (dump and build)
 *
 * The schema is docs/json.md's "NIFF". The dump carries the file exactly:
 * the file header and every list but the AnimList as base64 at their
 * offsets, the AnimList as its AnimGroups' numbers (records and NIFF2
 * channel keys, floats to the bit). That stored form is read-only (SHA-256
 * digests tell build whether it was changed). What build applies are the
 * edits an editor makes: the keys of "curves", through the format's
 * set_curve. Names, owners, the scene and the problems are derived and
 * checked against what the rebuilt file gives.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-niff-private.h"
#include "tress-niff-scene.h"

#include <string.h>

#include "formats/tress-json-curves.h"

#define NIFF_JSON_VERSION 1

static const char *const record_kinds[] = { "STATIC", "FULL", "KEY", "BILLBOARD" };
static const guint32 record_tags[] = { TRESS_NIFF_RECORD_STATIC, TRESS_NIFF_RECORD_FULL,
                                       TRESS_NIFF_RECORD_KEY, TRESS_NIFF_RECORD_BILLBOARD };

static void
group_digest (const TressNiffGroup *g, char out[17])
{
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  g_autofree char *sum = NULL;

  tress_niff_group_write (g, bytes);
  sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, bytes->data, bytes->len);
  g_strlcpy (out, sum, 17);
}

/* ---- dump ----------------------------------------------------------------- */

static void
dump_floats (TressJsonWriter *w, const char *name, const guint32 *bits, guint n)
{
  tress_json_member (w, name);
  tress_json_begin_array_compact (w);
  for (guint i = 0; i < n; i++)
    tress_json_add_float_bits (w, bits[i]);
  tress_json_end_array (w);
}

static void
dump_u32_or_null (TressJsonWriter *w, const char *name, guint32 v)
{
  tress_json_member (w, name);
  if (v == NIFF_NONE)
    tress_json_add_null (w);
  else
    tress_json_add_int (w, v);
}

static void
dump_name_or_number (TressJsonWriter *w, const char *member, const char *name, guint32 v)
{
  if (name != NULL)
    tress_json_string_member (w, member, name);
  else
    tress_json_int_member (w, member, v);
}

static void
dump_group (TressNiffFile *file, guint gi, TressJsonWriter *w)
{
  const TressNiffGroup *g = g_ptr_array_index (file->groups, gi);
  g_autofree char *owner = tress_niff_group_owner (file, gi);
  char digest[17];

  tress_json_begin_object (w);
  tress_json_string_member (w, "name", tress_niff_file_get_name (file, g->name_index));
  tress_json_string_member (w, "used_by", owner);
  tress_json_int_member (w, "index", g->index);
  tress_json_int_member (w, "header_size", g->header_size);
  tress_json_int_member (w, "name_index", g->name_index);
  dump_name_or_number (w, "anim_type", tress_niff_anim_type_name (g->anim_type), g->anim_type);
  tress_json_int_member (w, "frame_rate", g->frame_rate);
  tress_json_int_member (w, "loop", g->loop);
  dump_name_or_number (w, "rotation_order", tress_niff_rot_order_name (g->rot_order), g->rot_order);
  tress_json_member (w, "records");
  tress_json_begin_array (w);
  for (guint i = 0; i < g->records->len; i++)
    {
      const TressNiffRecord *r = &g_array_index (g->records, TressNiffRecord, i);
      guint kind = 0;

      while (kind < 3 && record_tags[kind] != r->tag)
        kind++;
      tress_json_begin_object_compact (w);
      tress_json_string_member (w, "kind", record_kinds[kind]);
      tress_json_int_member (w, "index", r->index);
      if (r->tag == TRESS_NIFF_RECORD_BILLBOARD)
        {
          tress_json_int_member (w, "look_at", r->look_at);
          tress_json_int_member (w, "up", r->up);
        }
      else
        {
          if (r->tag == TRESS_NIFF_RECORD_KEY)
            {
              tress_json_int_member (w, "key", r->key);
              dump_u32_or_null (w, "next_key", r->next);
              tress_json_int_member (w, "interpolation", r->interp);
            }
          dump_floats (w, "translate", r->trs, 3);
          dump_floats (w, "rotate", r->trs + 3, 3);
          tress_json_int_member (w, "expand", r->expand);
          dump_floats (w, "scale", r->trs + 6, 3);
        }
      tress_json_end_object (w);
    }
  tress_json_end_array (w);
  if (g->has_ext)
    {
      tress_json_member (w, "nintendo_extension");
      tress_json_begin_object (w);
      tress_json_int_member (w, "channel_bits", g->channel_bits);
      tress_json_member (w, "constraints");
      tress_json_begin_array (w);
      for (guint k = 0; k < TRESS_NIFF_N_CONSTRAINTS; k++)
        {
          tress_json_begin_object_compact (w);
          tress_json_string_member (w, "name", tress_niff_constraint_name (k));
          tress_json_int_member (w, "kind", g->constraints[2 * k]);
          tress_json_int_member (w, "node", g->constraints[2 * k + 1]);
          tress_json_int_member (w, "external_file_name", g->external_names[2 * k]);
          tress_json_int_member (w, "external_obj_name", g->external_names[2 * k + 1]);
          tress_json_end_object (w);
        }
      tress_json_end_array (w);
      tress_json_member (w, "channels");
      tress_json_begin_object (w);
      for (guint c = 0; c < TRESS_NIFF_N_CHANNELS; c++)
        {
          guint nc = tress_niff_channel_n_components (c);

          tress_json_member (w, tress_niff_channel_name (c));
          tress_json_begin_array (w);
          for (guint i = 0; i < g->channels[c]->len; i++)
            {
              const TressNiffChannelKey *k
                  = &g_array_index (g->channels[c], TressNiffChannelKey, i);

              tress_json_begin_object_compact (w);
              tress_json_int_member (w, "interpolation", k->interp);
              tress_json_int_member (w, "key", k->key);
              dump_floats (w, "value", k->value, nc);
              dump_floats (w, "differential", k->diff, nc);
              tress_json_end_object (w);
            }
          tress_json_end_array (w);
        }
      tress_json_end_object (w);
      if (g->other != NULL)
        {
          gsize n;
          const guint8 *d = g_bytes_get_data (g->other, &n);
          tress_json_base64_member (w, "other_base64", d, n);
        }
      tress_json_end_object (w);
    }
  if (g->user != NULL)
    {
      gsize n;
      const guint8 *d = g_bytes_get_data (g->user, &n);
      tress_json_base64_member (w, "user_base64", d, n);
    }
  group_digest (g, digest);
  tress_json_string_member (w, "stored_digest", digest);
  tress_json_end_object (w);
}

void
niff_dump_json (gpointer model, TressJsonWriter *w)
{
  TressNiffFile *file = model;
  const TressCurveOps *ops = &tress_niff_curve_ops;
  g_autoptr (GBytes) bytes = tress_format_niff.serialize (file, NULL);
  gsize size = 0;
  const guint8 *d = g_bytes_get_data (bytes, &size);
  g_autofree char *digest = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, bytes);
  char buf[16];
  gssize shift = 0;

  tress_json_begin_object (w);
  tress_json_string_member (w, "format", "niff");
  tress_json_int_member (w, "version", NIFF_JSON_VERSION);
  tress_json_int_member (w, "niff", file->niff2 ? 2 : 1);
  g_snprintf (buf, sizeof buf, "0x%08x", file->version);
  tress_json_string_member (w, "file_version", buf);
  tress_json_int_member (w, "file_size", (gint64)size);
  tress_json_base64_member (w, "header_base64", d, file->header_size);
  tress_json_member (w, "lists");
  tress_json_begin_array (w);
  for (guint i = 0; i < file->lists->len; i++)
    {
      const TressNiffList *l = &g_array_index (file->lists, TressNiffList, i);
      gsize offset = (gsize)((gssize)l->offset + shift);
      gsize lsize = l->size;

      tress_json_begin_object_compact (w);
      tress_json_string_member (w, "name", tress_niff_list_name (l->tag));
      g_snprintf (buf, sizeof buf, "0x%08x", l->tag);
      tress_json_string_member (w, "tag", buf);
      if ((int)i == file->anim_list)
        {
          gsize ext = file->anim_list_ext != NULL ? g_bytes_get_size (file->anim_list_ext) : 0;

          lsize = 24 + 4 * (gsize)file->groups->len + ext;
          for (guint g = 0; g < file->groups->len; g++)
            lsize += tress_niff_group_size (g_ptr_array_index (file->groups, g));
          shift += (gssize)lsize - (gssize)l->size;
          tress_json_int_member (w, "offset", (gint64)offset);
          tress_json_int_member (w, "size", (gint64)lsize);
          tress_json_int_member (w, "nintendo_ext_size", file->anim_list_nin);
          tress_json_int_member (w, "user_ext_size", file->anim_list_usr);
          tress_json_base64_member (
              w, "extension_base64",
              ext > 0 ? g_bytes_get_data (file->anim_list_ext, NULL) : (gconstpointer) "", ext);
        }
      else
        {
          tress_json_int_member (w, "offset", (gint64)offset);
          tress_json_int_member (w, "size", (gint64)lsize);
          tress_json_base64_member (w, "base64", d + offset, lsize);
        }
      tress_json_end_object (w);
    }
  tress_json_end_array (w);
  tress_json_string_member (w, "stored_digest", digest);

  tress_json_member (w, "objects");
  tress_json_begin_array (w);
  for (guint i = 0; i < file->objects->len; i++)
    {
      const TressNiffObject *o = &g_array_index (file->objects, TressNiffObject, i);

      tress_json_begin_object_compact (w);
      tress_json_int_member (w, "index", o->index);
      tress_json_string_member (w, "name", tress_niff_file_get_name (file, o->name_index));
      dump_u32_or_null (w, "anim_group", o->anim_link);
      tress_json_end_object (w);
    }
  tress_json_end_array (w);

  tress_json_member (w, "anim_groups");
  tress_json_begin_array (w);
  for (guint gi = 0; gi < file->groups->len; gi++)
    dump_group (file, gi, w);
  tress_json_end_array (w);

  tress_json_member (w, "curves");
  tress_json_begin_array (w);
  for (guint i = 0; i < ops->n_curves (file); i++)
    {
      g_autoptr (TressCurve) curve = ops->get_curve (file, i);

      tress_json_begin_object (w);
      tress_json_int_member (w, "index", i);
      tress_json_string_member (w, "path", curve->path);
      tress_json_keys_member (w, curve, NULL, NULL);
      tress_json_end_object (w);
    }
  tress_json_end_array (w);

  {
    g_autoptr (GError) error = NULL;
    g_autoptr (TressNiffScene) scene = tress_niff_scene_new (file, &error);

    tress_json_member (w, "scene");
    if (scene != NULL)
      tress_niff_scene_dump (scene, w);
    else
      {
        tress_json_begin_object (w);
        tress_json_string_member (w, "error", error->message);
        tress_json_end_object (w);
      }
  }
  {
    /* the validate pass's problems, summed up per kind */
    g_autoptr (GPtrArray) problems = tress_format_niff.validate (file);

    tress_problem_list_aggregate (problems);
    tress_json_problems_member (w, "problems", problems);
  }
  tress_json_end_object (w);
}

/* ---- build ---------------------------------------------------------------- */

typedef struct
{
  guint32 tag;
  GBytes *bytes; /* NULL: the AnimList */
  guint32 nin, usr;
  GBytes *ext;
} ListIn;

static void
list_in_clear (gpointer p)
{
  ListIn *l = p;

  g_clear_pointer (&l->bytes, g_bytes_unref);
  g_clear_pointer (&l->ext, g_bytes_unref);
}

static gboolean
read_u32_or_null (TressJsonReader *r, guint32 *out)
{
  if (tress_json_reader_peek (r) == TRESS_JSON_NULL)
    {
      tress_json_reader_skip (r);
      *out = NIFF_NONE;
      return TRUE;
    }
  return tress_json_reader_read_u32 (r, out);
}

static void
read_name_or_number (TressJsonReader *r, const char *(*name_of) (guint32), const guint32 *values,
                     guint n_values, guint32 *out)
{
  if (tress_json_reader_peek (r) == TRESS_JSON_STRING)
    {
      g_autofree char *s = tress_json_reader_read_string (r);

      for (guint i = 0; s != NULL && i < n_values; i++)
        if (g_str_equal (name_of (values[i]), s))
          {
            *out = values[i];
            return;
          }
      if (s != NULL)
        {
          g_autofree char *q = tress_json_quote (s, -1);
          tress_json_reader_refuse (r, "%s is not a name this value has (give a number)", q);
        }
      return;
    }
  tress_json_reader_read_u32 (r, out);
}

static void
read_float_bits (TressJsonReader *r, guint32 *out, guint n)
{
  float f[6] = { 0 };

  if (tress_json_reader_read_floats (r, f, n))
    for (guint i = 0; i < n; i++)
      memcpy (&out[i], &f[i], 4);
}

static void
read_record (TressJsonReader *r, TressNiffRecord *rec)
{
  static const char *const names[]
      = { "kind",  "index",   "key", "next_key", "interpolation", "translate", "rotate", "expand",
          "scale", "look_at", "up",  NULL };
  g_autofree char *path = tress_json_reader_path (r);
  guint64 seen = 0;
  int which;

  memset (rec, 0, sizeof *rec);
  rec->next = NIFF_NONE;
  if (!tress_json_reader_begin_object (r))
    return;
  while ((which = tress_json_reader_next_known (r, names, &seen)) != -2)
    switch (which)
      {
      case 0:
        {
          g_autofree char *kind = tress_json_reader_read_string (r);
          guint k = 0;

          while (kind != NULL && k < 4 && !g_str_equal (record_kinds[k], kind))
            k++;
          if (kind != NULL && k == 4)
            {
              g_autofree char *q = tress_json_quote (kind, -1);
              tress_json_reader_refuse (r, "expected STATIC, FULL, KEY or BILLBOARD, found %s", q);
            }
          else if (kind != NULL)
            rec->tag = record_tags[k];
          break;
        }
      case 1:
        tress_json_reader_read_u32 (r, &rec->index);
        break;
      case 2:
        tress_json_reader_read_u32 (r, &rec->key);
        break;
      case 3:
        read_u32_or_null (r, &rec->next);
        break;
      case 4:
        tress_json_reader_read_u32 (r, &rec->interp);
        break;
      case 5:
        read_float_bits (r, rec->trs, 3);
        break;
      case 6:
        read_float_bits (r, rec->trs + 3, 3);
        break;
      case 7:
        tress_json_reader_read_u32 (r, &rec->expand);
        break;
      case 8:
        read_float_bits (r, rec->trs + 6, 3);
        break;
      case 9:
        tress_json_reader_read_u32 (r, &rec->look_at);
        break;
      case 10:
        tress_json_reader_read_u32 (r, &rec->up);
        break;
      default:
        tress_json_reader_keep_unknown (r);
        break;
      }
  /* the members of the record's kind (key, next_key, interpolation: KEY;
   * translate, rotate, expand, scale: all but BILLBOARD; look_at, up:
   * BILLBOARD), and no others */
  if (tress_json_reader_require (r, names, 3, seen, path) && rec->tag != 0)
    {
      guint64 members = rec->tag == TRESS_NIFF_RECORD_BILLBOARD ? 0x600
                        : rec->tag == TRESS_NIFF_RECORD_KEY     ? 0x1FC
                                                                : 0x1E0;
      guint kind = 0;

      while (kind < 3 && record_tags[kind] != rec->tag)
        kind++;
      tress_json_reader_require (r, names, members, seen, path);
      for (guint i = 2; names[i] != NULL; i++)
        if (((seen & ~members) >> i) & 1)
          {
            GString *p = g_string_new (path);

            tress_json_pointer_append (p, names[i]);
            tress_json_reader_refuse_at (r, p->str, "a %s record has no \"%s\"", record_kinds[kind],
                                         names[i]);
            g_string_free (p, TRUE);
          }
    }
  if (rec->tag == 0)
    rec->tag = TRESS_NIFF_RECORD_STATIC; /* refused above; keeps the record writable */
}

static void
read_extension (TressJsonReader *r, TressNiffGroup *g)
{
  static const char *const names[]
      = { "channel_bits", "constraints", "channels", "other_base64", NULL };
  g_autofree char *path = tress_json_reader_path (r);
  guint64 seen = 0;
  int which;

  g->has_ext = TRUE;
  if (!tress_json_reader_begin_object (r))
    return;
  while ((which = tress_json_reader_next_known (r, names, &seen)) != -2)
    switch (which)
      {
      case 0:
        tress_json_reader_read_u32 (r, &g->channel_bits);
        break;
      case 1:
        {
          static const char *const cnames[]
              = { "kind", "node", "external_file_name", "external_obj_name", NULL };
          guint k = 0;

          if (!tress_json_reader_begin_array (r))
            break;
          while (tress_json_reader_next_element (r))
            {
              g_autofree char *cpath = tress_json_reader_path (r);
              guint64 cseen = 0;
              int c;

              if (k >= TRESS_NIFF_N_CONSTRAINTS)
                {
                  tress_json_reader_refuse (r, "an extension block holds 7 constraints");
                  tress_json_reader_skip (r);
                  continue;
                }

              if (tress_json_reader_begin_object (r))
                {
                  while ((c = tress_json_reader_next_known (r, cnames, &cseen)) != -2)
                    {
                      if (c == 0 || c == 1)
                        tress_json_reader_read_u32 (r, &g->constraints[2 * k + (guint)c]);
                      else if (c == 2 || c == 3)
                        tress_json_reader_read_u32 (r, &g->external_names[2 * k + (guint)c - 2]);
                      else
                        tress_json_reader_keep_unknown (r);
                    }
                  tress_json_reader_require (r, cnames, 0xF, cseen, cpath);
                }
              k++;
            }
          if (k != TRESS_NIFF_N_CONSTRAINTS)
            tress_json_reader_refuse (r, "expected the 7 constraints, found %u", k);
          break;
        }
      case 2:
        {
          g_autofree char *chpath = tress_json_reader_path (r);
          const char *name;
          guint64 channels_seen = 0;

          if (!tress_json_reader_begin_object (r))
            break;
          while ((name = tress_json_reader_next_member (r)) != NULL)
            {
              guint c = 0;
              guint nc;

              while (c < TRESS_NIFF_N_CHANNELS && !g_str_equal (tress_niff_channel_name (c), name))
                c++;
              if (c == TRESS_NIFF_N_CHANNELS)
                {
                  tress_json_reader_keep_unknown (r);
                  continue;
                }
              if ((channels_seen >> c) & 1)
                {
                  tress_json_reader_refuse (r, "the member \"%s\" is given twice", name);
                  tress_json_reader_skip (r);
                  continue;
                }
              channels_seen |= G_GUINT64_CONSTANT (1) << c;
              nc = tress_niff_channel_n_components (c);
              if (!tress_json_reader_begin_array (r))
                continue;
              while (tress_json_reader_next_element (r))
                {
                  static const char *const knames[]
                      = { "interpolation", "key", "value", "differential", NULL };
                  g_autofree char *kpath = tress_json_reader_path (r);
                  TressNiffChannelKey key = { 0 };
                  guint64 kseen = 0;
                  int kw;

                  if (tress_json_reader_begin_object (r))
                    {
                      while ((kw = tress_json_reader_next_known (r, knames, &kseen)) != -2)
                        {
                          if (kw == 0)
                            tress_json_reader_read_u32 (r, &key.interp);
                          else if (kw == 1)
                            tress_json_reader_read_u32 (r, &key.key);
                          else if (kw == 2)
                            read_float_bits (r, key.value, nc);
                          else if (kw == 3)
                            read_float_bits (r, key.diff, nc);
                          else
                            tress_json_reader_keep_unknown (r);
                        }
                      tress_json_reader_require (r, knames, 0xF, kseen, kpath);
                    }
                  g_array_append_val (g->channels[c], key);
                }
            }
          /* every channel, with or without keys */
          for (guint c = 0; tress_json_reader_ok (r) && c < TRESS_NIFF_N_CHANNELS; c++)
            if (!((channels_seen >> c) & 1))
              {
                GString *p = g_string_new (chpath);

                tress_json_pointer_append (p, tress_niff_channel_name (c));
                tress_json_reader_refuse_at (r, p->str, "the member \"%s\" is missing",
                                             tress_niff_channel_name (c));
                g_string_free (p, TRUE);
              }
          break;
        }
      case 3:
        g->other = tress_json_reader_read_base64 (r, 0);
        break;
      default:
        tress_json_reader_keep_unknown (r);
        break;
      }
  tress_json_reader_require (r, names, 7, seen, path);
}

typedef struct
{
  TressNiffGroup *group;
  char *digest;
  char *path;
} GroupIn;

static void
group_in_clear (gpointer p)
{
  GroupIn *g = p;

  tress_niff_group_free (g->group);
  g_free (g->digest);
  g_free (g->path);
}

static void
read_group (TressJsonReader *r, GroupIn *gi)
{
  static const char *const names[] = {
    "index",          "header_size", "name_index",         "anim_type",   "frame_rate",    "loop",
    "rotation_order", "records",     "nintendo_extension", "user_base64", "stored_digest", NULL,
  };
  static const guint32 types[] = { TRESS_NIFF_ANIM_STATIC, TRESS_NIFF_ANIM_FULL,
                                   TRESS_NIFF_ANIM_KEY, TRESS_NIFF_ANIM_BILLBOARD };
  static const guint32 orders[]
      = { 0x00010203, 0x00010302, 0x00020103, 0x00030102, 0x00020301, 0x00030201 };
  TressNiffGroup *g = tress_niff_group_new ();
  guint64 seen = 0;
  int which;

  gi->group = g;
  gi->digest = NULL;
  gi->path = tress_json_reader_path (r);
  if (!tress_json_reader_begin_object (r))
    return;
  while ((which = tress_json_reader_next_known (r, names, &seen)) != -2)
    switch (which)
      {
      case 0:
        tress_json_reader_read_u32 (r, &g->index);
        break;
      case 1:
        tress_json_reader_read_u32 (r, &g->header_size);
        break;
      case 2:
        tress_json_reader_read_u32 (r, &g->name_index);
        break;
      case 3:
        read_name_or_number (r, tress_niff_anim_type_name, types, G_N_ELEMENTS (types),
                             &g->anim_type);
        break;
      case 4:
        tress_json_reader_read_u32 (r, &g->frame_rate);
        break;
      case 5:
        tress_json_reader_read_u32 (r, &g->loop);
        break;
      case 6:
        read_name_or_number (r, tress_niff_rot_order_name, orders, G_N_ELEMENTS (orders),
                             &g->rot_order);
        break;
      case 7:
        if (tress_json_reader_begin_array (r))
          while (tress_json_reader_next_element (r))
            {
              TressNiffRecord rec;

              read_record (r, &rec);
              g_array_append_val (g->records, rec);
            }
        break;
      case 8:
        read_extension (r, g);
        break;
      case 9:
        g->user = tress_json_reader_read_base64 (r, 0);
        break;
      case 10:
        gi->digest = tress_json_reader_read_string (r);
        break;
      default:
        tress_json_reader_keep_unknown (r);
        break;
      }
  tress_json_reader_require (r, names, 0x4FF, seen, gi->path);
}

static void
read_lists (TressJsonReader *r, GArray *lists)
{
  static const char *const names[]
      = { "tag", "base64", "nintendo_ext_size", "user_ext_size", "extension_base64", NULL };

  if (!tress_json_reader_begin_array (r))
    return;
  while (tress_json_reader_next_element (r))
    {
      ListIn l = { 0 };
      g_autofree char *path = tress_json_reader_path (r);
      guint64 seen = 0;
      int which;

      if (tress_json_reader_begin_object (r))
        while ((which = tress_json_reader_next_known (r, names, &seen)) != -2)
          switch (which)
            {
            case 0:
              {
                g_autofree char *s = tress_json_reader_read_string (r);
                guint64 v;

                if (s != NULL
                    && !(g_str_has_prefix (s, "0x")
                         && g_ascii_string_to_unsigned (s + 2, 16, 0, G_MAXUINT32, &v, NULL)))
                  tress_json_reader_refuse (r, "expected a tag as \"0x\" and hex digits");
                else if (s != NULL)
                  l.tag = (guint32)v;
                break;
              }
            case 1:
              l.bytes = tress_json_reader_read_base64 (r, 0);
              break;
            case 2:
              tress_json_reader_read_u32 (r, &l.nin);
              break;
            case 3:
              tress_json_reader_read_u32 (r, &l.usr);
              break;
            case 4:
              l.ext = tress_json_reader_read_base64 (r, 0);
              break;
            default:
              tress_json_reader_keep_unknown (r);
              break;
            }
      tress_json_reader_require (r, names, 1, seen, path);
      if (l.tag == NIFF_TAG_ANIM)
        tress_json_reader_require (r, names, 0x1D, seen, path);
      else
        tress_json_reader_require (r, names, 0x3, seen, path);
      g_array_append_val (lists, l);
    }
}

/* The file header's and the lists' bytes, read-only as the rest: what their
 * own size fields say (the digest alone names no place). */
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

  group_digest (z->gi->group, mine);
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

  g_array_set_clear_func (lists, list_in_clear);
  g_array_set_clear_func (groups, group_in_clear);
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
          read_lists (r, lists);
          break;
        case T_DIGEST:
          digest = tress_json_reader_read_string (r);
          break;
        case T_GROUPS:
          if (tress_json_reader_begin_array (r))
            while (tress_json_reader_next_element (r))
              {
                GroupIn g;

                read_group (r, &g);
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

          group_digest (g->group, mine);
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
