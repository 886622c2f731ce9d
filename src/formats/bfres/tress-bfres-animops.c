/* tress-bfres-animops.c: frame count, loop flag, rename, duplicate and delete
 * of one animation (retiming: tress-bfres-retime.c)
 *
 * Each operation copies the FRES bytes, changes the copy and makes it the
 * model's bytes (bfres_adopt_fres), so that a refusal or a failure leaves the
 * model as it was. Index groups are written with the trie the builder writes
 * (Nintendo's: the same bits for the same names in the same order).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-bfres-animops.h"

#include <math.h>
#include <string.h>

#include "core/tress-curve-edit.h"
#include "tress-bfres-private.h"

/* Curves named in a refusal. */
#define SHOWN_CURVES 6

static gboolean
anim_ok (TressBfres *b, guint anim, GError **error)
{
  if (anim < b->anims->len)
    return TRUE;
  g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, "No animation %u (the file has %u)", anim,
               b->anims->len);
  return FALSE;
}

static GByteArray *
copy_bytes (const TressBfres *b)
{
  GByteArray *out = g_byte_array_sized_new (b->size + b->size / 16 + 256);

  g_byte_array_append (out, b->d, b->size);
  return out;
}

/* Makes @out the model's bytes; adds the growth to @said and @said to @notes. */
static gboolean
finish (TressBfres *b, GByteArray *out, GPtrArray *said, GPtrArray *notes, GError **error)
{
  gsize before = b->size, after = out->len;
  g_autoptr (GBytes) bytes = NULL;

  tress_put_u32 (out->data + 0x0C, out->len, TRESS_BIG_ENDIAN);
  bytes = g_byte_array_free_to_bytes (out);
  if (!bfres_adopt_fres (b, bytes, error))
    {
      g_prefix_error (error, "The new file cannot be read back: ");
      return FALSE;
    }
  if (after != before)
    g_ptr_array_add (said, g_strdup_printf ("The file grows by %" G_GSIZE_FORMAT
                                            " bytes (%" G_GSIZE_FORMAT " → %" G_GSIZE_FORMAT ")",
                                            after - before, before, after));
  for (guint i = 0; notes != NULL && i < said->len; i++)
    g_ptr_array_add (notes, g_strdup (g_ptr_array_index (said, i)));
  return TRUE;
}

/* ---- index groups ------------------------------------------------------------------ */

/* Animation @anim's group as it stands: its entries' names (the model's), and
 * where their names and data are. */
typedef struct
{
  int group;
  gsize pos;
  guint n;
  guint entry; /* @anim's, 0-based */
  const char **names;
  gsize *name_at, *data_at;
  gsize root_name, root_data;
} Group;

static void
group_clear (Group *g)
{
  g_clear_pointer (&g->names, g_free);
  g_clear_pointer (&g->name_at, g_free);
  g_clear_pointer (&g->data_at, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Group, group_clear)

static gboolean
group_read (TressBfres *b, guint anim, Group *g, GError **error)
{
  const BfresAnim *a = bfres_anim (b, anim);
  const BfresGroupInfo *info = &b->groups[a->group];

  g->group = a->group;
  g->pos = info->pos;
  g->n = info->count;
  g->entry = G_MAXUINT;
  g->names = g_new0 (const char *, (gsize)g->n + 2);
  g->name_at = g_new0 (gsize, (gsize)g->n + 2);
  g->data_at = g_new0 (gsize, (gsize)g->n + 2);
  g->root_name = bfres_target (b->d, b->size, g->pos + 8 + 8);
  g->root_data = bfres_target (b->d, b->size, g->pos + 8 + 12);
  for (guint k = 0; k < g->n; k++)
    {
      gsize node = g->pos + 8 + 16 * ((gsize)k + 1);

      g->names[k] = info->names[k];
      g->name_at[k] = bfres_target (b->d, b->size, node + 8);
      g->data_at[k] = bfres_target (b->d, b->size, node + 12);
      if (g->data_at[k] == a->pos)
        g->entry = k;
    }
  if (g->entry == G_MAXUINT)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED,
                   "Animation \"%s\" is not an entry of index group %d", a->name, a->group);
      return FALSE;
    }
  return TRUE;
}

/* Refuses a name the group cannot take for animation @anim (G_MAXUINT: a new one). */
static gboolean
name_free (TressBfres *b, guint anim, int group, const char *name, GError **error)
{
  BfresShownName buf;

  if (!bfres_name_ok (name, TRESS_BFRES_ANIM_NAME_MAX))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "An animation name is UTF-8 text of 1 to %d bytes without control characters",
                   TRESS_BFRES_ANIM_NAME_MAX);
      return FALSE;
    }
  for (guint i = 0; i < b->anims->len; i++)
    {
      const BfresAnim *o = bfres_anim (b, i);

      if (o->group != group || strcmp (o->name, name) != 0)
        continue;
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   i == anim ? "%s animation \"%s\" already has that name"
                             : "Another %s animation is named \"%s\": the names of an index "
                               "group are unique",
                   bfres_group_kind (group), bfres_shown_name (name, buf));
      return FALSE;
    }
  return TRUE;
}

/* Where @name's characters are: the pool's string, else one appended. */
static gsize
name_string (TressBfres *b, GByteArray *out, const char *name, GPtrArray *said)
{
  gsize at = bfres_pool_find (b, name);

  if (at != 0)
    return at;
  at = bfres_append_name (out, name);
  g_ptr_array_add (said, g_strdup_printf ("The name is appended after the file's end in the "
                                          "string pool's form (%" G_GSIZE_FORMAT " bytes)",
                                          (strlen (name) + 4 + 1 + 3) & ~(gsize)3));
  return at;
}

/* ---- frame count and loop ---------------------------------------------------------- */

/* Curve @idx of @t cut at @frames: a key there playing what played there, none
 * after it. */
static gboolean
cut_curve (TressBfres *t, guint idx, int frames, double *error_out, GError **error)
{
  g_autoptr (TressCurve) curve = bfres_get_curve (t, idx);
  const BfresCurve *c = bfres_curve (t, idx);
  int at;

  if (((c->flags >> 8) & 3) != TRESS_WRAP_CLAMP && bfres_frame_at (t, c, 0) > 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "%s repeats its keys before its first one (frame %g): cutting its end would "
                   "change what it plays there",
                   c->path, bfres_frame_at (t, c, 0));
      return FALSE;
    }
  for (at = 0; at < (int)tress_curve_get_n_keys (curve)
               && tress_curve_get_key (curve, (guint)at)->frame != frames;
       at++)
    ;
  if (at == (int)tress_curve_get_n_keys (curve))
    at = tress_curve_insert_on_curve (curve, frames, error);
  if (at < 0)
    {
      g_prefix_error (error, "%s: ", c->path);
      return FALSE;
    }
  while (tress_curve_get_n_keys (curve) > (guint)at + 1)
    tress_curve_remove_key (curve, tress_curve_get_n_keys (curve) - 1);
  g_clear_pointer (&t->notice, g_free);
  return bfres_set_curve (t, idx, curve, -1, -1, -1, error_out, error);
}

gboolean
tress_bfres_set_anim_frame_count (TressBfres *bfres, guint anim, int frame_count, gboolean trim,
                                  GPtrArray *notes, GError **error)
{
  g_autoptr (GPtrArray) said = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GString) past = g_string_new (NULL);
  g_autoptr (TressBfres) t = NULL;
  g_autoptr (GBytes) now = NULL;
  const BfresAnim *a;
  BfresShownName buf;
  const char *name;
  guint n_keys = 0, n_curves = 0;
  double worst = 0;

  g_return_val_if_fail (bfres != NULL, FALSE);
  if (!anim_ok (bfres, anim, error))
    return FALSE;
  a = bfres_anim (bfres, anim);
  name = bfres_shown_name (a->name, buf);
  if (frame_count < 0 || (a->frame_count_size == 2 && frame_count > 0xFFFF))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "%d frames: the frame count of \"%s\" holds 0 to %d", frame_count, name,
                   a->frame_count_size == 2 ? 0xFFFF : G_MAXINT32);
      return FALSE;
    }
  for (guint i = 0; i < a->n_curves; i++)
    {
      const BfresCurve *c = bfres_curve (bfres, a->first_curve + i);
      guint n = 0;

      for (guint k = c->n_keys; k > 0 && bfres_frame_at (bfres, c, k - 1) > frame_count; k--)
        n++;
      if (n == 0)
        continue;
      if (n_curves++ < SHOWN_CURVES)
        g_string_append_printf (past, "%s%s (%u key%s, frames %g–%g)", n_curves > 1 ? "; " : "",
                                c->path, n, n == 1 ? "" : "s",
                                bfres_frame_at (bfres, c, c->n_keys - n),
                                bfres_frame_at (bfres, c, c->n_keys - 1));
      n_keys += n;
    }
  if (n_curves > SHOWN_CURVES)
    g_string_append_printf (past, "; and %u more", n_curves - SHOWN_CURVES);
  if (n_keys > 0 && !trim)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "\"%s\" has %u key%s past frame %d in %u curve%s: %s. --trim cuts them, each "
                   "curve ending with a key at frame %d",
                   name, n_keys, n_keys == 1 ? "" : "s", frame_count, n_curves,
                   n_curves == 1 ? "" : "s", past->str, frame_count);
      return FALSE;
    }

  now = tress_bfres_get_bfres_bytes (bfres);
  t = tress_bfres_parse (now, bfres->filename, error);
  if (t == NULL)
    return FALSE;
  for (guint i = 0; n_keys > 0 && i < a->n_curves; i++)
    {
      guint idx = a->first_curve + i;
      const BfresCurve *c = bfres_curve (t, idx);
      double err = 0;

      if (c->n_keys == 0 || bfres_frame_at (t, c, c->n_keys - 1) <= frame_count)
        continue;
      if (!cut_curve (t, idx, frame_count, &err, error))
        return FALSE;
      worst = MAX (worst, err);
      if (t->notice != NULL)
        {
          g_autofree char *text = tress_notice_render (t->notice, 1, "");

          g_ptr_array_add (said, g_strdup_printf ("%s: %s", bfres_curve (t, idx)->path, text));
        }
    }
  a = bfres_anim (t, anim);
  if (a->frame_count_size == 2)
    bfres_put_u16 (t, a->frame_count_pos, (guint16)frame_count);
  else
    bfres_put_u32 (t, a->frame_count_pos, (guint32)frame_count);
  g_ptr_array_insert (said, 0,
                      g_strdup_printf ("%s: %d → %d frames", name,
                                       bfres_anim (bfres, anim)->frame_count, frame_count));
  if (n_keys > 0)
    g_ptr_array_insert (said, 1,
                        g_strdup_printf ("%u key%s past frame %d cut in %u curve%s, each ending "
                                         "with a key at frame %d (the largest change of a value "
                                         "stored there: %.3g)",
                                         n_keys, n_keys == 1 ? "" : "s", frame_count, n_curves,
                                         n_curves == 1 ? "" : "s", frame_count, worst));
  {
    g_autoptr (GBytes) result = tress_bfres_get_bfres_bytes (t);
    GByteArray *out = g_byte_array_new ();

    g_byte_array_append (out, g_bytes_get_data (result, NULL), g_bytes_get_size (result));
    return finish (bfres, out, said, notes, error);
  }
}

gboolean
tress_bfres_set_anim_loop (TressBfres *bfres, guint anim, gboolean loop, GError **error)
{
  const BfresAnim *a;
  GByteArray *out;
  g_autoptr (GPtrArray) said = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (bfres != NULL, FALSE);
  if (!anim_ok (bfres, anim, error))
    return FALSE;
  a = bfres_anim (bfres, anim);
  if (a->loops == !!loop)
    return TRUE;
  out = copy_bytes (bfres);
  /* Skeletal and the FSHU kinds: u32 flags; texture pattern and visibility: u16. */
  if (a->group <= 5)
    tress_put_u32 (out->data + a->pos + 0x0C, loop ? a->flags | 4u : a->flags & ~4u,
                   TRESS_BIG_ENDIAN);
  else
    tress_put_u16 (out->data + a->pos + 0x0C, (guint16)(loop ? a->flags | 4u : a->flags & ~4u),
                   TRESS_BIG_ENDIAN);
  return finish (bfres, out, said, NULL, error);
}

/* ---- rename and delete --------------------------------------------------------------- */

gboolean
tress_bfres_rename_anim (TressBfres *bfres, guint anim, const char *name, GPtrArray *notes,
                         GError **error)
{
  g_auto (Group) g = { 0 };
  g_autoptr (GPtrArray) said = g_ptr_array_new_with_free_func (g_free);
  const BfresAnim *a;
  GByteArray *out;
  gsize at;

  g_return_val_if_fail (bfres != NULL && name != NULL, FALSE);
  if (!anim_ok (bfres, anim, error))
    return FALSE;
  a = bfres_anim (bfres, anim);
  if (!name_free (bfres, anim, a->group, name, error) || !group_read (bfres, anim, &g, error))
    return FALSE;
  out = copy_bytes (bfres);
  at = name_string (bfres, out, name, said);
  g.names[g.entry] = name;
  g.name_at[g.entry] = at;
  /* Same entries, same size: the group is written where it stands. */
  bfres_write_group (out, g.pos, g.names, g.name_at, g.data_at, g.n, g.root_name, g.root_data);
  bfres_put_offset (out, a->pos + 4, at);
  return finish (bfres, out, said, notes, error);
}

gboolean
tress_bfres_delete_anim (TressBfres *bfres, guint anim, GPtrArray *notes, GError **error)
{
  g_auto (Group) g = { 0 };
  g_autoptr (GPtrArray) said = g_ptr_array_new_with_free_func (g_free);
  GByteArray *out;
  BfresShownName buf;
  const BfresAnim *a;

  g_return_val_if_fail (bfres != NULL, FALSE);
  if (!anim_ok (bfres, anim, error) || !group_read (bfres, anim, &g, error))
    return FALSE;
  a = bfres_anim (bfres, anim);
  out = copy_bytes (bfres);
  memmove (g.names + g.entry, g.names + g.entry + 1, sizeof (char *) * (g.n - g.entry - 1));
  memmove (g.name_at + g.entry, g.name_at + g.entry + 1, sizeof (gsize) * (g.n - g.entry - 1));
  memmove (g.data_at + g.entry, g.data_at + g.entry + 1, sizeof (gsize) * (g.n - g.entry - 1));
  tress_put_u16 (out->data + 0x50 + 2 * g.group, (guint16)(g.n - 1), TRESS_BIG_ENDIAN);
  if (g.n == 1)
    {
      /* No group for a kind the file no longer has, as files without one. */
      bfres_put_offset (out, 0x20 + 4 * (gsize)g.group, 0);
      g_ptr_array_add (said, g_strdup_printf ("Index group %d (%s) had no other entry: the "
                                              "header no longer points to it",
                                              g.group, bfres_group_kind (g.group)));
    }
  else
    {
      bfres_write_group (out, g.pos, g.names, g.name_at, g.data_at, g.n - 1, g.root_name,
                         g.root_data);
      memset (out->data + g.pos + 8 + 16 * (gsize)g.n, 0, 16);
    }
  g_ptr_array_add (
      said,
      g_strdup_printf ("%s animation \"%s\" removed from its index group; its %" G_GSIZE_FORMAT
                       "-byte header and its tables and curves stay in the file, "
                       "unreferenced",
                       a->kind, bfres_shown_name (a->name, buf),
                       a->group == 2   ? (gsize)0x30
                       : a->group <= 5 ? (gsize)0x34
                       : a->group == 6 ? (gsize)0x38
                                       : (gsize)0x34));
  return finish (bfres, out, said, notes, error);
}

/* ---- duplicate ----------------------------------------------------------------------- */

/* What a copy of a sub-file takes: its blocks (header, tables, curve headers
 * and arrays) and the offset fields inside them. */
typedef struct
{
  gsize src, len, dst;
} Block;

typedef struct
{
  const TressBfres *b;
  GArray *blocks; /* Block */
  GArray *fields; /* gsize, in the source */
} Walk;

static void
walk_clear (Walk *w)
{
  g_clear_pointer (&w->blocks, g_array_unref);
  g_clear_pointer (&w->fields, g_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Walk, walk_clear)

static gsize
walk_target (const Walk *w, gsize field)
{
  return bfres_target (w->b->d, w->b->size, field);
}

/* The block of @len bytes that offset field @field points to (nothing when
 * null or empty). */
static gboolean
walk_block (Walk *w, gsize field, gsize len, const char *what, GError **error)
{
  gsize pos = field != 0 ? walk_target (w, field) : 0;
  Block blk = { pos, len, 0 };

  if (len == 0 || pos == 0)
    return TRUE;
  if (len > w->b->size - pos)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET,
                   "The %s at 0x%" G_GSIZE_MODIFIER "x (%" G_GSIZE_FORMAT
                   " bytes) runs past the file's end",
                   what, pos, len);
      return FALSE;
    }
  g_array_append_val (w->blocks, blk);
  return TRUE;
}

static void
walk_fields (Walk *w, gsize first, guint n, gsize stride)
{
  for (guint i = 0; i < n; i++)
    {
      gsize f = first + stride * i;

      g_array_append_val (w->fields, f);
    }
}

static guint16
walk_u16 (const Walk *w, gsize pos)
{
  return pos + 2 <= w->b->size ? bfres_get_u16 (w->b, pos) : 0;
}

/* @n curve headers at the target of @field, and their arrays. */
static gboolean
walk_curves (Walk *w, gsize field, guint n, GError **error)
{
  gsize hs = w->b->curve_header_size, at = walk_target (w, field);

  if (n == 0 || at == 0)
    return TRUE;
  if (!walk_block (w, field, hs * n, "curve headers", error))
    return FALSE;
  for (guint k = 0; k < n; k++)
    {
      gsize h = at + hs * k;
      guint16 flags = bfres_get_u16 (w->b, h);
      guint keys = bfres_get_u16 (w->b, h + 2);
      TressBfresCurveType ct = (flags >> 4) & 7;
      gsize frames_len = (gsize)keys * bfres_frame_size (flags & 3);
      gsize keys_len = bfres_curve_type_is_bool (ct) ? ((gsize)keys + 31) / 32 * 4
                                                     : (gsize)keys * bfres_values_per_key (ct)
                                                           * bfres_key_size ((flags >> 2) & 3);

      walk_fields (w, h + hs - 8, 2, 4);
      if (!walk_block (w, h + hs - 8, frames_len, "frame array", error)
          || !walk_block (w, h + hs - 4, keys_len, "key array", error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
walk_fska (Walk *w, gsize pos, GError **error)
{
  guint n = walk_u16 (w, pos + 0x14);
  gsize bones = walk_target (w, pos + 0x20);

  walk_fields (w, pos + 0x20, 4, 4);
  if (!walk_block (w, pos + 0x20, 0x18 * (gsize)n, "bone animation array", error)
      || !walk_block (w, pos + 0x28, 2 * (gsize)n, "bind index array", error))
    return FALSE;
  for (guint i = 0; bones != 0 && i < n; i++)
    {
      gsize bp = bones + 0x18 * (gsize)i;
      guint32 flags = bfres_get_u32 (w->b, bp);
      gsize n_base
          = 3 * !!(flags & (1u << 3)) + 4 * !!(flags & (1u << 4)) + 3 * !!(flags & (1u << 5));

      walk_fields (w, bp + 4, 1, 4);
      walk_fields (w, bp + 0x10, 2, 4);
      if (!walk_curves (w, bp + 0x10, w->b->d[bp + 0x0A], error)
          || !walk_block (w, bp + 0x14, 4 * n_base, "base values", error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
walk_fshu (Walk *w, gsize pos, GError **error)
{
  guint n = walk_u16 (w, pos + 0x14);
  gsize mats = walk_target (w, pos + 0x2C);

  walk_fields (w, pos + 0x24, 4, 4);
  if (!walk_block (w, pos + 0x28, 2 * (gsize)n, "bind index array", error)
      || !walk_block (w, pos + 0x2C, 0x20 * (gsize)n, "material animation array", error))
    return FALSE;
  for (guint m = 0; mats != 0 && m < n; m++)
    {
      gsize mp = mats + 0x20 * (gsize)m;
      guint n_params = walk_u16 (w, mp), n_curves = walk_u16 (w, mp + 2);
      guint n_consts = walk_u16 (w, mp + 4);
      gsize params = walk_target (w, mp + 0x14);

      walk_fields (w, mp + 0x10, 4, 4);
      if (!walk_block (w, mp + 0x14, 0x10 * (gsize)n_params, "parameter animation array", error)
          || !walk_curves (w, mp + 0x18, n_curves, error)
          || !walk_block (w, mp + 0x1C, 8 * (gsize)n_consts, "constant array", error))
        return FALSE;
      if (params != 0)
        walk_fields (w, params + 0x0C, n_params, 0x10);
    }
  return TRUE;
}

static gboolean
walk_ftxp (Walk *w, gsize pos, GError **error)
{
  guint n = walk_u16 (w, pos + 0x16);
  gsize mats = walk_target (w, pos + 0x2C);

  /* The texture list (0x30) is shared: the copy names the same textures. */
  walk_fields (w, pos + 0x24, 5, 4);
  if (!walk_block (w, pos + 0x28, 2 * (gsize)n, "bind index array", error)
      || !walk_block (w, pos + 0x2C, 0x1C * (gsize)n, "material animation array", error))
    return FALSE;
  for (guint m = 0; mats != 0 && m < n; m++)
    {
      gsize mp = mats + 0x1C * (gsize)m;
      guint n_pats = walk_u16 (w, mp), n_curves = walk_u16 (w, mp + 2);
      gsize pats = walk_target (w, mp + 0x10);

      walk_fields (w, mp + 0x0C, 4, 4);
      if (!walk_block (w, mp + 0x10, 8 * (gsize)n_pats, "pattern animation array", error)
          || !walk_curves (w, mp + 0x14, n_curves, error)
          || !walk_block (w, mp + 0x18, 2 * (gsize)n_pats, "base texture array", error))
        return FALSE;
      if (pats != 0)
        walk_fields (w, pats + 4, n_pats, 8);
    }
  return TRUE;
}

static gboolean
walk_fvis (Walk *w, gsize pos, GError **error)
{
  guint n_names = walk_u16 (w, pos + 0x14), n_curves = walk_u16 (w, pos + 0x16);
  gsize names = walk_target (w, pos + 0x24);

  walk_fields (w, pos + 0x1C, 6, 4);
  if (!walk_block (w, pos + 0x20, 2 * (gsize)n_names, "bind index array", error)
      || !walk_block (w, pos + 0x24, 4 * (gsize)n_names, "name array", error)
      || !walk_curves (w, pos + 0x28, n_curves, error)
      || !walk_block (w, pos + 0x2C, 4 * (((gsize)n_names + 31) / 32), "base value bits", error))
    return FALSE;
  if (names != 0)
    walk_fields (w, names, n_names, 4);
  return TRUE;
}

/* The block holding @pos, or NULL. */
static const Block *
block_of (const GArray *blocks, gsize pos)
{
  for (guint i = 0; i < blocks->len; i++)
    {
      const Block *blk = &g_array_index (blocks, Block, i);

      if (pos >= blk->src && pos - blk->src < blk->len)
        return blk;
    }
  return NULL;
}

/* Appends a copy of the sub-file at @pos (header of @header_size bytes);
 * returns where the copy's header is, 0 with an error. */
static gsize
append_copy (TressBfres *b, const BfresAnim *a, GByteArray *out, GError **error)
{
  static const gsize header_size[] = { 0, 0, 0x30, 0x34, 0x34, 0x34, 0x38, 0x34, 0x34 };
  g_auto (Walk) w = { b, g_array_new (FALSE, FALSE, sizeof (Block)),
                      g_array_new (FALSE, FALSE, sizeof (gsize)) };
  Block head = { a->pos, header_size[a->group], 0 };
  gboolean ok;

  g_array_append_val (w.blocks, head);
  walk_fields (&w, a->pos + 4, 2, 4);
  switch (a->group)
    {
    case 2:
      ok = walk_fska (&w, a->pos, error);
      break;
    case 3:
    case 4:
    case 5:
      ok = walk_fshu (&w, a->pos, error);
      break;
    case 6:
      ok = walk_ftxp (&w, a->pos, error);
      break;
    default:
      ok = walk_fvis (&w, a->pos, error);
      break;
    }
  if (!ok)
    return 0;
  /* A block met twice (an array two curves share) is copied once. */
  for (guint i = 0; i < w.blocks->len; i++)
    {
      Block *blk = &g_array_index (w.blocks, Block, i);
      const Block *first = block_of (w.blocks, blk->src);

      if (first != NULL && first != blk && first->src == blk->src && first->len >= blk->len)
        {
          blk->dst = first->dst;
          continue;
        }
      blk->dst = bfres_append_zeros (out, (blk->len + 3) & ~(gsize)3);
      memcpy (out->data + blk->dst, b->d + blk->src, blk->len);
    }
  /* Offsets into the copied blocks point into the copies; the others (names,
   * paths, the bind model, user data, the texture list) where they did. */
  for (guint i = 0; i < w.fields->len; i++)
    {
      gsize f = g_array_index (w.fields, gsize, i);
      const Block *in = block_of (w.blocks, f);
      gsize target = walk_target (&w, f);
      const Block *to = target != 0 ? block_of (w.blocks, target) : NULL;

      if (in == NULL || f + 4 > in->src + in->len)
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED,
                       "The offset at 0x%" G_GSIZE_MODIFIER "x lies outside what was copied", f);
          return 0;
        }
      bfres_put_offset (out, in->dst + (f - in->src),
                        to != NULL ? to->dst + (target - to->src) : target);
    }
  return g_array_index (w.blocks, Block, 0).dst;
}

gboolean
tress_bfres_duplicate_anim (TressBfres *bfres, guint anim, const char *name, GPtrArray *notes,
                            GError **error)
{
  g_auto (Group) g = { 0 };
  g_autoptr (GPtrArray) said = g_ptr_array_new_with_free_func (g_free);
  const BfresAnim *a;
  GByteArray *out;
  gsize copy, at, group;
  BfresShownName buf;

  g_return_val_if_fail (bfres != NULL && name != NULL, FALSE);
  if (!anim_ok (bfres, anim, error))
    return FALSE;
  a = bfres_anim (bfres, anim);
  if (bfres->version < BFRES_V3_4)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED,
                   "BFRES version %u.%u.%u.%u: duplicating an animation needs version 3.4 or "
                   "later (no sample confirms the sub-file layouts of older files)",
                   bfres->version >> 24, (bfres->version >> 16) & 0xFF,
                   (bfres->version >> 8) & 0xFF, bfres->version & 0xFF);
      return FALSE;
    }
  if (!name_free (bfres, G_MAXUINT, a->group, name, error) || !group_read (bfres, anim, &g, error))
    return FALSE;
  if (g.n >= 0xFFFF)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "Index group %d holds %u entries, as many as its 16-bit count allows", g.group,
                   g.n);
      return FALSE;
    }
  out = copy_bytes (bfres);
  copy = append_copy (bfres, a, out, error);
  if (copy == 0)
    {
      g_byte_array_unref (out);
      return FALSE;
    }
  at = name_string (bfres, out, name, said);
  bfres_put_offset (out, copy + 4, at);
  g.names[g.n] = name;
  g.name_at[g.n] = at;
  g.data_at[g.n] = copy;
  group = bfres_append_zeros (out, 8 + 16 * ((gsize)g.n + 2));
  bfres_write_group (out, group, g.names, g.name_at, g.data_at, g.n + 1, g.root_name, g.root_data);
  bfres_put_offset (out, 0x20 + 4 * (gsize)g.group, group);
  tress_put_u16 (out->data + 0x50 + 2 * g.group, (guint16)(g.n + 1), TRESS_BIG_ENDIAN);
  g_ptr_array_insert (
      said, 0,
      g_strdup_printf ("%s animation \"%s\" copied as \"%s\" (its curves, tables and arrays "
                       "copied; names, bind model and user data shared); index group %d "
                       "written anew with %u entries, the old one left unreferenced",
                       a->kind, bfres_shown_name (a->name, buf), name, g.group, g.n + 1));
  return finish (bfres, out, said, notes, error);
}
