/* tress-niff-builder.c: valid NIFF1 and NIFF2 files from nothing
 *
 * The file holds every list a NIFF reader expects, in the physical order of
 * the SDK's files: a Scene listing the objects, the Obj list (each object
 * linked to its AnimGroup), empty geometry and material lists, the AnimList,
 * the NameList and, for NIFF2, the nine NIFF2 lists (empty).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-niff-private.h"

#include <math.h>
#include <string.h>

struct _TressNiffBuilder
{
  gboolean niff2;
  guint32 version;
  GPtrArray *names;  /* char * */
  GPtrArray *groups; /* TressNiffGroup */
  GArray *objects;   /* TressNiffObject */
  char *error;       /* the first misuse, reported by finish */
};

TressNiffBuilder *
tress_niff_builder_new (gboolean niff2, guint32 version)
{
  TressNiffBuilder *b = g_new0 (TressNiffBuilder, 1);

  b->niff2 = niff2;
  b->version = version != 0 ? version : (niff2 ? 0xff000200u : 0xff000100u);
  b->names = g_ptr_array_new_with_free_func (g_free);
  b->groups = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_niff_group_free);
  b->objects = g_array_new (FALSE, FALSE, sizeof (TressNiffObject));
  return b;
}

void
tress_niff_builder_free (TressNiffBuilder *b)
{
  if (b == NULL)
    return;
  g_ptr_array_unref (b->names);
  g_ptr_array_unref (b->groups);
  g_array_unref (b->objects);
  g_free (b->error);
  g_free (b);
}

static void misuse (TressNiffBuilder *b, const char *format, ...) G_GNUC_PRINTF (2, 3);

static void
misuse (TressNiffBuilder *b, const char *format, ...)
{
  va_list args;

  if (b->error != NULL)
    return;
  va_start (args, format);
  b->error = g_strdup_vprintf (format, args);
  va_end (args);
}

guint
tress_niff_builder_add_name (TressNiffBuilder *b, const char *name)
{
  g_ptr_array_add (b->names, g_strdup (name));
  return b->names->len - 1;
}

guint
tress_niff_builder_add_group (TressNiffBuilder *b, guint name_index, TressNiffAnimType type,
                              guint32 frame_rate, guint32 loop)
{
  TressNiffGroup *g = tress_niff_group_new ();

  g->index = b->groups->len;
  g->name_index = name_index;
  g->anim_type = type;
  g->frame_rate = frame_rate;
  g->loop = loop;
  g->has_ext = b->niff2;
  g_ptr_array_add (b->groups, g);
  return b->groups->len - 1;
}

guint
tress_niff_builder_add_object (TressNiffBuilder *b, guint name_index, guint32 group)
{
  TressNiffObject o = { b->objects->len, name_index, group };

  g_array_append_val (b->objects, o);
  return b->objects->len - 1;
}

static TressNiffGroup *
get_group (TressNiffBuilder *b, guint group)
{
  if (group >= b->groups->len)
    {
      misuse (b, "AnimGroup %u does not exist (%u groups)", group, b->groups->len);
      return NULL;
    }
  return g_ptr_array_index (b->groups, group);
}

static void
add_record (TressNiffBuilder *b, guint group, guint32 tag, guint32 frame, guint32 interp,
            const float trs[9])
{
  TressNiffGroup *g = get_group (b, group);
  TressNiffRecord r = { 0 };

  if (g == NULL)
    return;
  r.tag = tag;
  r.index = g->records->len;
  r.key = frame;
  r.interp = interp;
  r.next = NIFF_NONE;
  for (guint k = 0; k < 9 && trs != NULL; k++)
    r.trs[k] = niff_bits (trs[k]);
  g_array_append_val (g->records, r);
}

void
tress_niff_builder_add_static (TressNiffBuilder *b, guint group, const float trs[9])
{
  add_record (b, group, TRESS_NIFF_RECORD_STATIC, 0, 0, trs);
}

void
tress_niff_builder_add_full (TressNiffBuilder *b, guint group, const float trs[9])
{
  add_record (b, group, TRESS_NIFF_RECORD_FULL, 0, 0, trs);
}

void
tress_niff_builder_add_key (TressNiffBuilder *b, guint group, guint32 frame,
                            TressNiffKeyInterp interp, const float trs[9])
{
  add_record (b, group, TRESS_NIFF_RECORD_KEY, frame, interp, trs);
}

void
tress_niff_builder_add_billboard (TressNiffBuilder *b, guint group, guint32 look_at, guint32 up)
{
  TressNiffGroup *g = get_group (b, group);
  TressNiffRecord r = { 0 };

  if (g == NULL)
    return;
  r.tag = TRESS_NIFF_RECORD_BILLBOARD;
  r.index = g->records->len;
  r.look_at = look_at;
  r.up = up;
  g_array_append_val (g->records, r);
}

void
tress_niff_builder_add_channel_key (TressNiffBuilder *b, guint group, TressNiffChannel channel,
                                    TressNiffChannelInterp interp, guint32 frame,
                                    const float *values, const float *diffs)
{
  TressNiffGroup *g = get_group (b, group);
  TressNiffChannelKey k = { 0 };

  if (g == NULL)
    return;
  if (!b->niff2)
    {
      misuse (b, "NIFF1 files have no animation channels");
      return;
    }
  if (channel >= TRESS_NIFF_N_CHANNELS)
    {
      misuse (b, "channel %u does not exist", channel);
      return;
    }
  k.interp = interp;
  k.key = frame;
  for (guint j = 0; j < tress_niff_channel_n_components (channel); j++)
    {
      k.value[j] = niff_bits (values[j]);
      k.diff[j] = niff_bits (diffs != NULL ? diffs[j] : 0.0f);
    }
  g_array_append_val (g->channels[channel], k);
  g->channel_bits |= 1u << channel;
}

void
tress_niff_builder_set_constraint (TressNiffBuilder *b, guint group, guint which, guint32 kind,
                                   guint32 node)
{
  TressNiffGroup *g = get_group (b, group);

  if (g == NULL)
    return;
  if (!b->niff2 || which >= TRESS_NIFF_N_CONSTRAINTS)
    {
      misuse (b, "constraint %u cannot be set%s", which, b->niff2 ? "" : " in a NIFF1 file");
      return;
    }
  g->constraints[2 * which] = kind;
  g->constraints[2 * which + 1] = node;
  g->channel_bits |= 0x100u << which;
}

void
tress_niff_builder_add_other_data (TressNiffBuilder *b, guint group, const guint8 *data, gsize size)
{
  TressNiffGroup *g = get_group (b, group);
  GByteArray *all;

  if (g == NULL)
    return;
  if (!b->niff2 || size % 4 != 0)
    {
      misuse (b, "other extension data needs a NIFF2 file and a multiple of 4 bytes");
      return;
    }
  all = g_byte_array_new ();
  if (g->other != NULL)
    g_byte_array_append (all, g_bytes_get_data (g->other, NULL), g_bytes_get_size (g->other));
  g_byte_array_append (all, data, size);
  g_clear_pointer (&g->other, g_bytes_unref);
  g->other = g_byte_array_free_to_bytes (all);
}

/* ---- writing ---- */

static inline void
put (GByteArray *out, guint32 v)
{
  guint32 be = GUINT32_TO_BE (v);
  g_byte_array_append (out, (const guint8 *)&be, 4);
}

static void
patch (GByteArray *out, gsize pos, guint32 v)
{
  tress_put_u32 (out->data + pos, v, TRESS_BIG_ENDIAN);
}

static void
empty_list (GByteArray *out, guint32 tag, gboolean two_counts)
{
  guint32 size = two_counts ? 28 : 24;

  put (out, tag);
  put (out, size);
  put (out, size);
  put (out, 0);
  if (two_counts)
    put (out, 0);
  put (out, 0);
  put (out, 0);
}

/* Header field offsets of each list written, in physical order. */
static const struct
{
  guint32 tag;
  guint header_offset;
  gboolean niff2_only;
} physical[] = {
  { 0x00010000, 0x10 },       { 0x00100000, 0x14 },       { 0x000e0000, 0x18 },
  { 0x000f0000, 0x1c },       { 0x00020000, 0x20 },       { 0x00030000, 0x24 },
  { 0x00040000, 0x28 },       { 0x00080000, 0x38 },       { 0x00050000, 0x2c },
  { 0x00060000, 0x30 },       { 0x00070000, 0x34 },       { 0x00090000, 0x3c },
  { 0x000a0000, 0x40 },       { 0x000b0000, 0x44 },       { 0x00120000, 0x48 },
  { 0x000c0000, 0x4c },       { 0x000d0000, 0x50 },       { 0x00130000, 0x54 },
  { 0x00110000, 0x58 },       { 0x00200000, 0x64, TRUE }, { 0x00210000, 0x68, TRUE },
  { 0x00220000, 0x6c, TRUE }, { 0x00280000, 0x70, TRUE }, { 0x00230000, 0x74, TRUE },
  { 0x00240000, 0x78, TRUE }, { 0x00250000, 0x7c, TRUE }, { 0x00260000, 0x80, TRUE },
  { 0x00270000, 0x84, TRUE },
};

static void
write_list (TressNiffBuilder *b, GByteArray *out, guint32 tag)
{
  guint n;
  gsize sizes;

  switch (tag)
    {
    case NIFF_TAG_SCENE:
      n = b->objects->len;
      put (out, tag);
      put (out, 44);
      put (out, 44 + 4 * n + (b->niff2 ? 20 : 0));
      put (out, 24);
      put (out, 0); /* the scene's name: NameList entry 0 */
      put (out, n);
      put (out, 0);
      put (out, 0);
      put (out, 0);
      put (out, b->niff2 ? 20 : 0);
      put (out, 0);
      for (guint i = 0; i < n; i++)
        put (out, i);
      if (b->niff2)
        for (guint i = 0; i < 5; i++)
          put (out, 0);
      break;

    case NIFF_TAG_OBJ:
      n = b->objects->len;
      put (out, tag);
      put (out, 24 + 4 * n);
      put (out, 24 + 4 * n + n * (b->niff2 ? 116 : 88));
      put (out, n);
      put (out, 0);
      put (out, 0);
      for (guint i = 0; i < n; i++)
        put (out, b->niff2 ? 116 : 88);
      for (guint i = 0; i < n; i++)
        {
          const TressNiffObject *o = &g_array_index (b->objects, TressNiffObject, i);
          const guint32 words[20] = {
            NIFF_TAG_OBJ_ELEMENT,
            i,
            b->niff2 ? 116 : 88,
            o->name_index,
            1,
            0,
            0,
            0,
            0,
            0x00d00000,
            NIFF_NONE,
            NIFF_NONE,
            0,
            0,
            0,
            NIFF_NONE,
            NIFF_NONE,
            NIFF_NONE,
            o->anim_link,
            NIFF_NONE,
          };
          for (guint k = 0; k < 20; k++)
            put (out, words[k]);
          put (out, b->niff2 ? 28 : 0);
          put (out, 0);
          if (b->niff2)
            {
              const guint32 ext[7] = { 0, 0x00d00000, NIFF_NONE, NIFF_NONE, 0, 0, 0 };
              for (guint k = 0; k < 7; k++)
                put (out, ext[k]);
            }
        }
      break;

    case NIFF_TAG_ANIM:
      n = b->groups->len;
      put (out, tag);
      put (out, 24 + 4 * n);
      put (out, 0);
      put (out, n);
      put (out, 0);
      put (out, 0);
      sizes = out->len;
      for (guint i = 0; i < n; i++)
        put (out, (guint32)tress_niff_group_size (g_ptr_array_index (b->groups, i)));
      for (guint i = 0; i < n; i++)
        tress_niff_group_write (g_ptr_array_index (b->groups, i), out);
      patch (out, sizes - 16, (guint32)(out->len - (sizes - 24)));
      break;

    case NIFF_TAG_NAME:
      n = b->names->len;
      put (out, tag);
      put (out, 24 + 4 * n);
      put (out, 0);
      put (out, n);
      put (out, 0);
      put (out, 0);
      sizes = out->len;
      for (guint i = 0; i < n; i++)
        put (out, 0);
      for (guint i = 0; i < n; i++)
        {
          const char *name = g_ptr_array_index (b->names, i);
          gsize len = strlen (name);
          gsize padded = (len + 4) / 4 * 4; /* always NUL-terminated, as the SDK's NIFF2 files */
          static const guint8 zeros[4] = { 0 };

          put (out, NIFF_TAG_NAME_ELEMENT);
          put (out, i);
          put (out, 16);
          put (out, (guint32)(16 + padded));
          g_byte_array_append (out, (const guint8 *)name, len);
          g_byte_array_append (out, zeros, padded - len);
          patch (out, sizes + 4 * i, (guint32)(16 + padded));
        }
      patch (out, sizes - 16, (guint32)(out->len - (sizes - 24)));
      break;

    case NIFF_TAG_COLOR:
    case NIFF_TAG_VECTOR:
      empty_list (out, tag, TRUE);
      break;

    default:
      empty_list (out, tag, FALSE);
      break;
    }
}

GBytes *
tress_niff_builder_finish (TressNiffBuilder *b, GError **error)
{
  g_autoptr (GByteArray) out = g_byte_array_new ();
  guint header_size = b->niff2 ? NIFF2_HEADER_SIZE : NIFF1_HEADER_SIZE;
  g_autoptr (GBytes) bytes = NULL;
  gpointer check;

  for (guint i = 0; i < b->objects->len; i++)
    {
      const TressNiffObject *o = &g_array_index (b->objects, TressNiffObject, i);
      if (o->anim_link != NIFF_NONE && o->anim_link >= b->groups->len)
        misuse (b, "object %u uses AnimGroup %u, which does not exist", i, o->anim_link);
    }
  for (guint gi = 0; gi < b->groups->len; gi++)
    {
      TressNiffGroup *g = g_ptr_array_index (b->groups, gi);

      for (guint i = 0; i < g->records->len; i++)
        {
          TressNiffRecord *r = &g_array_index (g->records, TressNiffRecord, i);
          TressNiffRecord *next = i + 1 < g->records->len
                                      ? &g_array_index (g->records, TressNiffRecord, i + 1)
                                      : NULL;

          if (r->tag != TRESS_NIFF_RECORD_KEY)
            continue;
          if (next != NULL && next->key <= r->key)
            misuse (b, "AnimGroup %u: KEY frames must increase (%u then %u)", gi, r->key,
                    next->key);
          r->next = next != NULL ? next->key : NIFF_NONE;
        }
      for (guint c = 0; c < TRESS_NIFF_N_CHANNELS; c++)
        for (guint i = 1; i < g->channels[c]->len; i++)
          if (g_array_index (g->channels[c], TressNiffChannelKey, i).key
              <= g_array_index (g->channels[c], TressNiffChannelKey, i - 1).key)
            misuse (b, "AnimGroup %u: %s frames must increase", gi, tress_niff_channel_name (c));
    }
  if (b->names->len == 0)
    tress_niff_builder_add_name (b, "scene");
  if (b->error != NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_INVALID, "NIFF builder: %s", b->error);
      return NULL;
    }

  put (out, b->version);
  put (out, 0);
  put (out, NIFF_TAG_HEADER);
  put (out, header_size);
  while (out->len < header_size)
    put (out, 0);
  if (b->niff2)
    patch (out, 0x5C, 36);
  for (guint i = 0; i < G_N_ELEMENTS (physical); i++)
    {
      gsize start = out->len;

      if (physical[i].niff2_only && !b->niff2)
        continue;
      write_list (b, out, physical[i].tag);
      patch (out, physical[i].header_offset, (guint32)(out->len - start));
    }
  patch (out, 4, out->len);
  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&out));

  /* What we wrote must read back. */
  check = tress_format_niff.parse (bytes, "built file", error);
  if (check == NULL)
    return NULL;
  tress_format_niff.free (check);
  return g_steal_pointer (&bytes);
}

/* ---- the demo ---- */

GBytes *
tress_niff_build_demo (void)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (TRUE, 0);
  g_autoptr (GError) error = NULL;
  guint g;
  GBytes *bytes;

  tress_niff_builder_add_name (b, "tress_demo_scene");

  /* A top that spins on Y while it bobs up and down. */
  g = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "Spin.anim"),
                                    TRESS_NIFF_ANIM_STATIC, 30, 0);
  tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "Top"), g);
  for (guint i = 0; i <= 4; i++)
    {
      float angle = (float)(i * G_PI / 2 - G_PI);
      float slope = (float)(G_PI / 2 / 15);
      float pos[3] = { 0, (i % 2) ? 1.5f : 0.5f, 0 };
      float d[3] = { 0, 0, 0 };

      tress_niff_builder_add_channel_key (b, g, TRESS_NIFF_ROTATE_Y, TRESS_NIFF_CHANNEL_HERMITE,
                                          i * 15, &angle, &slope);
      tress_niff_builder_add_channel_key (b, g, TRESS_NIFF_TRANSLATION, TRESS_NIFF_CHANNEL_HERMITE,
                                          i * 15, pos, d);
    }

  /* A ball that bounces and squashes. */
  g = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "Bounce.anim"),
                                    TRESS_NIFF_ANIM_STATIC, 30, 0);
  tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "Ball"), g);
  {
    const float heights[3] = { 3, 0, 3 };
    const float slopes[3] = { 0, 0, 0 };
    const guint32 frames[3] = { 0, 20, 40 };

    for (guint i = 0; i < 3; i++)
      {
        float pos[3] = { 2, heights[i], 0 };
        float d[3] = { 0, slopes[i], 0 };
        float scale[3] = { 1, i == 1 ? 0.6f : 1.0f, 1 };
        float ds[3] = { 0, 0, 0 };

        tress_niff_builder_add_channel_key (b, g, TRESS_NIFF_TRANSLATION,
                                            TRESS_NIFF_CHANNEL_HERMITE, frames[i], pos, d);
        tress_niff_builder_add_channel_key (b, g, TRESS_NIFF_UNIQUE_SCALE,
                                            TRESS_NIFF_CHANNEL_LINEAR, frames[i], scale, ds);
      }
  }

  /* A pendulum swinging about Z. */
  g = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "Swing.anim"),
                                    TRESS_NIFF_ANIM_STATIC, 30, 0);
  tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "Pendulum"), g);
  for (guint i = 0; i <= 2; i++)
    {
      float angle = i == 1 ? -0.6f : 0.6f;
      float slope = 0;
      tress_niff_builder_add_channel_key (b, g, TRESS_NIFF_ROTATE_Z, TRESS_NIFF_CHANNEL_HERMITE,
                                          i * 24, &angle, &slope);
    }

  bytes = tress_niff_builder_finish (b, &error);
  if (bytes == NULL)
    g_warning ("The NIFF demo could not be built: %s", error->message);
  return bytes;
}
