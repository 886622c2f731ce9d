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
#include "tress-niff-json-private.h"

#include <string.h>

#include "formats/tress-json-curves.h"

const char *const _tress_niff_json_record_kinds[] = { "STATIC", "FULL", "KEY", "BILLBOARD" };
const guint32 _tress_niff_json_record_tags[]
    = { TRESS_NIFF_RECORD_STATIC, TRESS_NIFF_RECORD_FULL, TRESS_NIFF_RECORD_KEY,
        TRESS_NIFF_RECORD_BILLBOARD };

void
_tress_niff_json_group_digest (const TressNiffGroup *g, char out[17])
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

      while (kind < 3 && _tress_niff_json_record_tags[kind] != r->tag)
        kind++;
      tress_json_begin_object_compact (w);
      tress_json_string_member (w, "kind", _tress_niff_json_record_kinds[kind]);
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
  _tress_niff_json_group_digest (g, digest);
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
