/* tress-niff-group.c: one AnimGroup, read and written
 *
 * An AnimGroup is a 48-byte header, the NIFF1 records, the nintendo extension
 * block (NIFF2 channels: 148 fixed bytes, the channel keys, "other extension
 * data") and the user extension block.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-niff-private.h"

#include <string.h>

static const struct
{
  const char *name;
  guint n_components;
  const char *components[6];
} channel_info[TRESS_NIFF_N_CHANNELS] = {
  { "RotateAxis", 4, { "Axis X", "Axis Y", "Axis Z", "Angle" } },
  { "RotateX", 1, { "X" } },
  { "RotateY", 1, { "Y" } },
  { "RotateZ", 1, { "Z" } },
  { "OrientationXY",
    6,
    { "X axis X", "X axis Y", "X axis Z", "Y axis X", "Y axis Y", "Y axis Z" } },
  { "Translation", 3, { "X", "Y", "Z" } },
  { "UniqueScale", 3, { "X", "Y", "Z" } },
  { "ClassicalScale", 3, { "X", "Y", "Z" } },
};

guint
tress_niff_record_size (guint32 tag)
{
  switch (tag)
    {
    case TRESS_NIFF_RECORD_STATIC:
    case TRESS_NIFF_RECORD_FULL:
      return 52;
    case TRESS_NIFF_RECORD_KEY:
      return 64;
    case TRESS_NIFF_RECORD_BILLBOARD:
      return 20;
    default:
      return 0;
    }
}

const char *
tress_niff_channel_name (guint ch)
{
  return ch < TRESS_NIFF_N_CHANNELS ? channel_info[ch].name : "?";
}

const char *
tress_niff_channel_component_name (guint ch, guint component)
{
  if (ch >= TRESS_NIFF_N_CHANNELS || component >= channel_info[ch].n_components)
    return "?";
  return channel_info[ch].components[component];
}

TressNiffGroup *
tress_niff_group_new (void)
{
  TressNiffGroup *g = memset (g_new (TressNiffGroup, 1), 0, sizeof (TressNiffGroup));

  g->offset = G_MAXSIZE;
  g->header_size = NIFF_GROUP_HEADER_SIZE;
  g->rot_order = 0x00010203;
  g->records = g_array_new (FALSE, TRUE, sizeof (TressNiffRecord));
  for (guint c = 0; c < TRESS_NIFF_N_CHANNELS; c++)
    g->channels[c] = g_array_new (FALSE, TRUE, sizeof (TressNiffChannelKey));
  for (guint i = 0; i < 14; i++)
    g->constraints[i] = g->external_names[i] = NIFF_NONE;
  return g;
}

void
tress_niff_group_free (TressNiffGroup *g)
{
  if (g == NULL)
    return;
  g_clear_pointer (&g->records, g_array_unref);
  for (guint c = 0; c < TRESS_NIFF_N_CHANNELS; c++)
    g_clear_pointer (&g->channels[c], g_array_unref);
  g_clear_pointer (&g->other, g_bytes_unref);
  g_clear_pointer (&g->user, g_bytes_unref);
  g_free (g);
}

static gsize
records_size (const TressNiffGroup *g)
{
  gsize n = 0;

  for (guint i = 0; i < g->records->len; i++)
    n += tress_niff_record_size (g_array_index (g->records, TressNiffRecord, i).tag);
  return n;
}

static gsize
ext_size (const TressNiffGroup *g)
{
  gsize n;

  if (!g->has_ext)
    return 0;
  n = NIFF_EXT_FIXED_SIZE;
  for (guint c = 0; c < TRESS_NIFF_N_CHANNELS; c++)
    n += (gsize)g->channels[c]->len * tress_niff_channel_key_size (c);
  if (g->other != NULL)
    n += g_bytes_get_size (g->other);
  return n;
}

gsize
tress_niff_group_size (const TressNiffGroup *g)
{
  return NIFF_GROUP_HEADER_SIZE + records_size (g) + ext_size (g)
         + (g->user != NULL ? g_bytes_get_size (g->user) : 0);
}

static inline guint8 *
put (guint8 *p, guint32 v)
{
  guint32 be = GUINT32_TO_BE (v);
  memcpy (p, &be, 4);
  return p + 4;
}

guint8 *
tress_niff_group_write_to (const TressNiffGroup *g, guint8 *p)
{
  gsize user = g->user != NULL ? g_bytes_get_size (g->user) : 0;

  p = put (p, NIFF_TAG_ANIM_GROUP);
  p = put (p, g->index);
  p = put (p, g->header_size);
  p = put (p, (guint32)tress_niff_group_size (g));
  p = put (p, g->name_index);
  p = put (p, g->anim_type);
  p = put (p, g->frame_rate);
  p = put (p, g->records->len);
  p = put (p, g->loop);
  p = put (p, g->rot_order);
  p = put (p, (guint32)ext_size (g));
  p = put (p, (guint32)user);

  for (guint i = 0; i < g->records->len; i++)
    {
      const TressNiffRecord *r = &g_array_index (g->records, TressNiffRecord, i);

      p = put (p, r->tag);
      p = put (p, r->index);
      p = put (p, tress_niff_record_size (r->tag));
      switch (r->tag)
        {
        case TRESS_NIFF_RECORD_KEY:
          p = put (p, r->key);
          p = put (p, r->next);
          p = put (p, r->interp);
          G_GNUC_FALLTHROUGH;
        case TRESS_NIFF_RECORD_STATIC:
        case TRESS_NIFF_RECORD_FULL:
          for (guint k = 0; k < 6; k++)
            p = put (p, r->trs[k]);
          p = put (p, r->expand);
          for (guint k = 6; k < 9; k++)
            p = put (p, r->trs[k]);
          break;
        case TRESS_NIFF_RECORD_BILLBOARD:
          p = put (p, r->look_at);
          p = put (p, r->up);
          break;
        default:
          g_assert_not_reached ();
        }
    }

  if (g->has_ext)
    {
      p = put (p, g->channel_bits);
      for (guint c = 0; c < TRESS_NIFF_N_CHANNELS; c++)
        p = put (p, g->channels[c]->len);
      for (guint i = 0; i < 14; i++)
        p = put (p, g->constraints[i]);
      for (guint i = 0; i < 14; i++)
        p = put (p, g->external_names[i]);
      for (guint c = 0; c < TRESS_NIFF_N_CHANNELS; c++)
        {
          guint nc = tress_niff_channel_n_components (c);

          for (guint i = 0; i < g->channels[c]->len; i++)
            {
              const TressNiffChannelKey *k
                  = &g_array_index (g->channels[c], TressNiffChannelKey, i);

              p = put (p, k->interp);
              p = put (p, k->key);
              for (guint j = 0; j < nc; j++)
                p = put (p, k->value[j]);
              for (guint j = 0; j < nc; j++)
                p = put (p, k->diff[j]);
            }
        }
      if (g->other != NULL)
        {
          memcpy (p, g_bytes_get_data (g->other, NULL), g_bytes_get_size (g->other));
          p += g_bytes_get_size (g->other);
        }
    }
  if (user > 0)
    {
      memcpy (p, g_bytes_get_data (g->user, NULL), user);
      p += user;
    }
  return p;
}

void
tress_niff_group_write (const TressNiffGroup *g, GByteArray *out)
{
  gsize start = out->len;
  gsize size = tress_niff_group_size (g);
  guint8 *end;

  g_byte_array_set_size (out, start + size);
  end = tress_niff_group_write_to (g, out->data + start);
  g_assert (end == out->data + start + size);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressNiffGroup, tress_niff_group_free)

TressNiffGroup *
tress_niff_group_parse (const guint8 *data, gsize size, gsize base, GError **error)
{
  g_autoptr (TressNiffGroup) g = NULL;
  guint32 n_records, nin, usr;
  gsize pos, end_records;

  if (size < NIFF_GROUP_HEADER_SIZE)
    {
      tress_field_error (error, TRESS_ERROR_TRUNCATED, base, "AnimGroup size", "at least 48 bytes",
                         "%" G_GSIZE_FORMAT, size);
      return NULL;
    }
  if (niff_word (data) != NIFF_TAG_ANIM_GROUP)
    {
      tress_field_error (error, TRESS_ERROR_BAD_VALUE, base, "AnimGroup tag", "0x000c0100",
                         "0x%08x", niff_word (data));
      return NULL;
    }
  if (niff_word (data + 0x0C) != size)
    {
      tress_field_error (error, TRESS_ERROR_BAD_VALUE, base + 0x0C, "AnimGroup size",
                         "the size the AnimList gives",
                         "%u (the AnimList says %" G_GSIZE_FORMAT ")", niff_word (data + 0x0C),
                         size);
      return NULL;
    }

  /* Arrays are made at their final size once the counts are known. */
  g = memset (g_new (TressNiffGroup, 1), 0, sizeof (TressNiffGroup));
  for (guint i = 0; i < 14; i++)
    g->constraints[i] = g->external_names[i] = NIFF_NONE;
  g->offset = base;
  g->index = niff_word (data + 0x04);
  g->header_size = niff_word (data + 0x08);
  g->name_index = niff_word (data + 0x10);
  g->anim_type = niff_word (data + 0x14);
  g->frame_rate = niff_word (data + 0x18);
  n_records = niff_word (data + 0x1C);
  g->loop = niff_word (data + 0x20);
  g->rot_order = niff_word (data + 0x24);
  nin = niff_word (data + 0x28);
  usr = niff_word (data + 0x2C);

  /* The smallest record is 20 bytes: bound the count before allocating. */
  if (n_records > (size - NIFF_GROUP_HEADER_SIZE) / 20)
    {
      tress_field_error (error, TRESS_ERROR_BAD_COUNT, base + 0x1C, "AnimGroup record count",
                         "at most (group size - 48) / 20",
                         "%u in a group of %" G_GSIZE_FORMAT " bytes", n_records, size);
      return NULL;
    }
  g->records = g_array_sized_new (FALSE, TRUE, sizeof (TressNiffRecord), n_records);
  g_array_set_size (g->records, n_records);
  pos = NIFF_GROUP_HEADER_SIZE;
  for (guint i = 0; i < n_records; i++)
    {
      TressNiffRecord *r = &g_array_index (g->records, TressNiffRecord, i);
      guint rsize;

      if (size - pos < 12)
        {
          tress_field_error (error, TRESS_ERROR_TRUNCATED, base + pos, "AnimGroup record",
                             "a record inside the group", "the group's end after %u of %u records",
                             i, n_records);
          return NULL;
        }
      r->tag = niff_word (data + pos);
      r->index = niff_word (data + pos + 4);
      rsize = tress_niff_record_size (r->tag);
      if (rsize == 0)
        {
          tress_field_error (
              error, TRESS_ERROR_BAD_VALUE, base + pos, "Anim record tag",
              "STATIC 0x000c0101, FULL 0x000c0103, KEY 0x000c0104 or BILLBOARD 0x000c0105",
              "0x%08x", r->tag);
          return NULL;
        }
      if (niff_word (data + pos + 8) != rsize)
        {
          tress_field_error (error, TRESS_ERROR_BAD_VALUE, base + pos + 8, "Anim record size",
                             "the record's size", "%u (a record with tag 0x%08x is %u bytes)",
                             niff_word (data + pos + 8), r->tag, rsize);
          return NULL;
        }
      if (size - pos < rsize)
        {
          tress_field_error (error, TRESS_ERROR_TRUNCATED, base + pos, "Anim record",
                             "a record inside the group",
                             "%u bytes needed, %" G_GSIZE_FORMAT " left", rsize, size - pos);
          return NULL;
        }
      {
        const guint8 *p = data + pos + 12;

        switch (r->tag)
          {
          case TRESS_NIFF_RECORD_KEY:
            r->key = niff_word (p);
            r->next = niff_word (p + 4);
            r->interp = niff_word (p + 8);
            p += 12;
            G_GNUC_FALLTHROUGH;
          case TRESS_NIFF_RECORD_STATIC:
          case TRESS_NIFF_RECORD_FULL:
            for (guint k = 0; k < 6; k++)
              r->trs[k] = niff_word (p + 4 * k);
            r->expand = niff_word (p + 24);
            for (guint k = 6; k < 9; k++)
              r->trs[k] = niff_word (p + 4 + 4 * k);
            break;
          default:
            r->look_at = niff_word (p);
            r->up = niff_word (p + 4);
            break;
          }
      }
      pos += rsize;
    }
  end_records = pos;

  if ((guint64)end_records + nin + usr != size)
    {
      tress_field_error (error, TRESS_ERROR_BAD_VALUE, base + 0x0C, "AnimGroup size",
                         "48 + records + nintendo ext + user ext",
                         "%" G_GSIZE_FORMAT " (records end at +%" G_GSIZE_FORMAT
                         ", nintendo ext %u, user ext %u)",
                         size, end_records, nin, usr);
      return NULL;
    }

  if (nin > 0)
    {
      const guint8 *e = data + pos;
      guint64 channel_bytes = 0;
      gsize cpos;

      if (nin < NIFF_EXT_FIXED_SIZE)
        {
          tress_field_error (error, TRESS_ERROR_BAD_VALUE, base + 0x28,
                             "AnimGroup nintendo extension size", "0 or at least 148", "%u", nin);
          return NULL;
        }
      g->has_ext = TRUE;
      g->channel_bits = niff_word (e);
      for (guint c = 0; c < TRESS_NIFF_N_CHANNELS; c++)
        {
          guint32 n = niff_word (e + 4 + 4 * c);

          channel_bytes += (guint64)n * tress_niff_channel_key_size (c);
          if (channel_bytes > nin - NIFF_EXT_FIXED_SIZE)
            {
              g_autofree char *field
                  = g_strdup_printf ("%s key count", tress_niff_channel_name (c));
              tress_field_error (error, TRESS_ERROR_BAD_COUNT, base + pos + 4 + 4 * c, field,
                                 "a count whose keys fit in the extension block",
                                 "%u (the block holds %u bytes)", n, nin);
              return NULL;
            }
        }
      for (guint i = 0; i < 14; i++)
        g->constraints[i] = niff_word (e + 36 + 4 * i);
      for (guint i = 0; i < 14; i++)
        g->external_names[i] = niff_word (e + 92 + 4 * i);
      cpos = NIFF_EXT_FIXED_SIZE;
      for (guint c = 0; c < TRESS_NIFF_N_CHANNELS; c++)
        {
          guint32 n = niff_word (e + 4 + 4 * c);
          guint nc = tress_niff_channel_n_components (c);

          g->channels[c] = g_array_sized_new (FALSE, TRUE, sizeof (TressNiffChannelKey), n);
          g_array_set_size (g->channels[c], n);
          for (guint i = 0; i < n; i++)
            {
              TressNiffChannelKey *k = &g_array_index (g->channels[c], TressNiffChannelKey, i);
              const guint8 *p = e + cpos;

              k->interp = niff_word (p);
              k->key = niff_word (p + 4);
              for (guint j = 0; j < nc; j++)
                {
                  k->value[j] = niff_word (p + 8 + 4 * j);
                  k->diff[j] = niff_word (p + 8 + 4 * nc + 4 * j);
                }
              cpos += tress_niff_channel_key_size (c);
            }
        }
      if (cpos < nin)
        g->other = g_bytes_new (e + cpos, nin - cpos);
      pos += nin;
    }
  if (usr > 0)
    g->user = g_bytes_new (data + pos, usr);
  for (guint c = 0; c < TRESS_NIFF_N_CHANNELS; c++)
    if (g->channels[c] == NULL)
      g->channels[c] = g_array_new (FALSE, TRUE, sizeof (TressNiffChannelKey));

  return g_steal_pointer (&g);
}
