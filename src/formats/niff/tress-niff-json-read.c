/* tress-niff-json-read.c: reading the records, AnimGroups and lists of a NIFF dump
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-niff-json-private.h"

#include <string.h>

#include "formats/tress-json-curves.h"

/* ---- build ---------------------------------------------------------------- */

void
_tress_niff_json_list_in_clear (gpointer p)
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

          while (kind != NULL && k < 4 && !g_str_equal (_tress_niff_json_record_kinds[k], kind))
            k++;
          if (kind != NULL && k == 4)
            {
              g_autofree char *q = tress_json_quote (kind, -1);
              tress_json_reader_refuse (r, "expected STATIC, FULL, KEY or BILLBOARD, found %s", q);
            }
          else if (kind != NULL)
            rec->tag = _tress_niff_json_record_tags[k];
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

      while (kind < 3 && _tress_niff_json_record_tags[kind] != rec->tag)
        kind++;
      tress_json_reader_require (r, names, members, seen, path);
      for (guint i = 2; names[i] != NULL; i++)
        if (((seen & ~members) >> i) & 1)
          {
            GString *p = g_string_new (path);

            tress_json_pointer_append (p, names[i]);
            tress_json_reader_refuse_at (r, p->str, "a %s record has no \"%s\"",
                                         _tress_niff_json_record_kinds[kind], names[i]);
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

void
_tress_niff_json_group_in_clear (gpointer p)
{
  GroupIn *g = p;

  tress_niff_group_free (g->group);
  g_free (g->digest);
  g_free (g->path);
}

void
_tress_niff_json_read_group (TressJsonReader *r, GroupIn *gi)
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

void
_tress_niff_json_read_lists (TressJsonReader *r, GArray *lists)
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
