/* tress-bfres.c: the BFRES entry in the format registry, and the public API
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-bfres-private.h"

#include <math.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "core/tress-yaz0.h"
#include "tress-bfres-model.h"

static float
bits_to_float (guint32 bits)
{
  float f;
  memcpy (&f, &bits, 4);
  return f;
}

/* ---- public API ----------------------------------------------------------- */

gboolean
tress_bfres_get_curve_info (TressBfres *b, guint index, TressBfresCurveInfo *info)
{
  BfresCurve *c;
  BfresAnim *a;

  g_return_val_if_fail (b != NULL && info != NULL, FALSE);
  if (index >= b->curves->len)
    return FALSE;
  c = bfres_curve (b, index);
  a = bfres_anim (b, c->anim);
  memset (info, 0, sizeof *info);
  info->path = c->path;
  info->kind = a->kind;
  info->component = c->component;
  info->anim = c->anim;
  info->anim_name = a->name;
  info->flags = c->flags;
  info->n_keys = c->n_keys;
  info->target_offset = c->target;
  info->frame_type = bfres_curve_frame_type (c);
  info->key_type = bfres_curve_key_type (c);
  info->curve_type = bfres_curve_type (c);
  info->pre_wrap = (c->flags >> 8) & 3;
  info->post_wrap = (c->flags >> 12) & 3;
  info->start = c->start;
  info->end = c->end;
  info->scale = bits_to_float (c->scale_bits);
  info->offset = bits_to_float (c->offset_bits);
  info->int_offset = (gint32)c->offset_bits;
  info->delta = c->delta;
  info->header_pos = c->pos;
  info->frames_pos = c->frames_pos;
  info->keys_pos = c->keys_pos;
  return TRUE;
}

guint
tress_bfres_get_n_curves (TressBfres *b)
{
  return b->curves->len;
}

int
tress_bfres_find_curve (TressBfres *b, const char *path)
{
  for (guint i = 0; i < b->curves->len; i++)
    if (g_strcmp0 (bfres_curve (b, i)->path, path) == 0)
      return (int)i;
  return -1;
}

guint
tress_bfres_get_n_anims (TressBfres *b)
{
  return b->anims->len;
}

gboolean
tress_bfres_get_anim_info (TressBfres *b, guint index, TressBfresAnimInfo *info)
{
  BfresAnim *a;

  g_return_val_if_fail (b != NULL && info != NULL, FALSE);
  if (index >= b->anims->len)
    return FALSE;
  a = bfres_anim (b, index);
  info->name = a->name;
  info->kind = a->kind;
  info->frame_count = a->frame_count;
  info->first_curve = a->first_curve;
  info->n_curves = a->n_curves;
  info->loops = a->loops;
  return TRUE;
}

/* Animations other than @index with @index's name. */
static guint
anim_namesakes (TressBfres *b, guint index)
{
  guint n = 0;

  for (guint i = 0; i < b->anims->len; i++)
    n += i != index && g_strcmp0 (bfres_anim (b, i)->name, bfres_anim (b, index)->name) == 0;
  return n;
}

char *
tress_bfres_dup_anim_spec (TressBfres *b, guint index)
{
  BfresAnim *a;

  g_return_val_if_fail (index < b->anims->len, NULL);
  a = bfres_anim (b, index);
  if (anim_namesakes (b, index) == 0)
    return g_strdup (a->name);
  return g_strconcat (a->kind, "/", a->name, NULL);
}

/* TRUE when @spec names animation @a: its name, or "Kind/name". */
static gboolean
anim_named (const BfresAnim *a, const char *spec)
{
  gsize kl = strlen (a->kind);

  return g_strcmp0 (a->name, spec) == 0
         || (g_ascii_strncasecmp (spec, a->kind, kl) == 0 && spec[kl] == '/'
             && g_strcmp0 (spec + kl + 1, a->name) == 0);
}

int
tress_bfres_find_anim (TressBfres *b, const char *spec, GPtrArray *candidates)
{
  int found = -1;
  guint n = 0;

  for (guint i = 0; i < b->anims->len; i++)
    if (anim_named (bfres_anim (b, i), spec) && n++ == 0)
      found = (int)i;
  if (n > 1 && candidates != NULL)
    for (guint i = 0; i < b->anims->len; i++)
      if (anim_named (bfres_anim (b, i), spec))
        g_ptr_array_add (candidates, tress_bfres_dup_anim_spec (b, i));
  return n == 1 ? found : -1;
}

guint32
tress_bfres_get_version (TressBfres *b)
{
  return b->version;
}

const char *
tress_bfres_get_container (TressBfres *b)
{
  return b->container;
}

char **
tress_bfres_list_archive (TressBfres *b)
{
  for (guint i = 0; i < b->layers->len; i++)
    {
      BfresLayer *l = &g_array_index (b->layers, BfresLayer, i);
      if (l->kind == BFRES_LAYER_SARC)
        {
          GStrvBuilder *sb = g_strv_builder_new ();
          char **out;
          for (guint k = 0; k < tress_sarc_get_n_files (l->sarc); k++)
            g_strv_builder_add (sb, tress_sarc_get_entry (l->sarc, k)->name);
          out = g_strv_builder_end (sb);
          g_strv_builder_unref (sb);
          return out;
        }
    }
  return NULL;
}

void
tress_bfres_set_tolerance (TressBfres *b, double tolerance)
{
  b->tolerance = tolerance > 0 ? tolerance : 0;
}

static gboolean
bfres_unchanged (TressBfres *b)
{
  gsize size;
  const guint8 *d = g_bytes_get_data (b->original, &size);
  return b->data == NULL || (size == b->size && memcmp (d, b->d, size) == 0);
}

GBytes *
tress_bfres_serialize (TressBfres *b, GError **error)
{
  GBytes *cur;

  if (bfres_unchanged (b))
    return g_bytes_ref (b->file);
  cur = tress_bfres_get_bfres_bytes (b);
  for (guint i = b->layers->len; i-- > 0;)
    {
      BfresLayer *l = &g_array_index (b->layers, BfresLayer, i);
      GBytes *next;
      gsize size;
      const guint8 *d = g_bytes_get_data (cur, &size);

      if (l->kind == BFRES_LAYER_YAZ0)
        next = tress_yaz0_compress (d, size, l->reserved);
      else
        next = tress_sarc_replace_file (l->sarc, l->sarc_index, cur, error);
      g_bytes_unref (cur);
      if (next == NULL)
        return NULL;
      cur = next;
    }
  return cur;
}

/* Bakes or un-bakes the curve's keys for a type change within its family. */
static TressCurve *
convert_keys (TressBfres *b, guint index, TressBfresCurveType to, GError **error)
{
  BfresCurve *c = bfres_curve (b, index);
  TressBfresCurveType from = bfres_curve_type (c);
  gboolean from_baked = from == TRESS_BFRES_CURVE_BAKED_FLOAT || from == TRESS_BFRES_CURVE_BAKED_INT
                        || from == TRESS_BFRES_CURVE_BAKED_BOOL;
  gboolean to_baked = to == TRESS_BFRES_CURVE_BAKED_FLOAT || to == TRESS_BFRES_CURVE_BAKED_INT
                      || to == TRESS_BFRES_CURVE_BAKED_BOOL;
  TressCurve *curve = bfres_get_curve (b, index);
  TressInterp interp = to == TRESS_BFRES_CURVE_CUBIC    ? TRESS_INTERP_HERMITE
                       : to == TRESS_BFRES_CURVE_LINEAR ? TRESS_INTERP_LINEAR
                       : to_baked                       ? TRESS_INTERP_BAKED
                                                        : TRESS_INTERP_STEP;
  guint n;

  if (to_baked && !from_baked && c->n_keys > 0)
    {
      double first = ceil (c->start), last = floor (c->end);

      /* One sample a frame, counted in 16 bits: refuse before baking. */
      if (!(last - first < 0xFFFF))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "%s spans frames %g to %g: baked, that is more than the 65,535 keys a "
                       "curve holds",
                       c->path, first, last);
          tress_curve_unref (curve);
          return NULL;
        }
      g_array_set_size (curve->keys, 0);
      for (double f = first; f <= last; f++)
        {
          TressKey k = { 0 };
          k.frame = f;
          k.value = tress_bfres_evaluate (b, index, f);
          tress_curve_append_key (curve, &k);
        }
    }
  else if (from_baked && !to_baked && !bfres_curve_type_is_float (to))
    {
      /* Step: keep only the samples where the value changes. */
      for (guint i = tress_curve_get_n_keys (curve) - 1; i >= 1 && i < G_MAXUINT; i--)
        if (tress_curve_get_key (curve, i)->value == tress_curve_get_key (curve, i - 1)->value)
          tress_curve_remove_key (curve, i);
    }
  n = tress_curve_get_n_keys (curve);
  for (guint i = 0; i < n; i++)
    {
      TressKey *k = tress_curve_get_key (curve, i);
      k->interp = interp;
      if (to == TRESS_BFRES_CURVE_CUBIC && from != TRESS_BFRES_CURVE_CUBIC)
        {
          /* Slopes toward the neighbours (Catmull-Rom), flat at the ends. */
          if (i > 0 && i + 1 < n)
            {
              TressKey *p = tress_curve_get_key (curve, i - 1),
                       *q = tress_curve_get_key (curve, i + 1);
              k->in_slope = k->out_slope = (q->value - p->value) / (q->frame - p->frame);
            }
          else
            k->in_slope = k->out_slope = 0;
        }
    }
  return curve;
}

gboolean
tress_bfres_set_curve_types (TressBfres *b, guint index, TressBfresCurveType curve_type,
                             TressBfresFrameType frame_type, TressBfresKeyType key_type,
                             double *max_error, GError **error)
{
  g_autoptr (TressCurve) curve = NULL;

  if (index >= b->curves->len)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, "No curve %u (the file has %u)", index,
                   b->curves->len);
      return FALSE;
    }
  if ((int)curve_type == 3 || (int)curve_type > 7 || (int)frame_type > 2 || (int)key_type > 2)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, "Unknown curve, frame or key type");
      return FALSE;
    }
  curve = convert_keys (b, index, curve_type, error);
  if (curve == NULL)
    return FALSE;
  return bfres_set_curve (b, index, curve, curve_type, frame_type, key_type, max_error, error);
}

gboolean
tress_bfres_raise_frame_count (TressBfres *b, guint index, int frame_count, GError **error)
{
  BfresCurve *c;
  BfresAnim *a;

  if (index >= b->curves->len)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, "No curve %u (the file has %u)", index,
                   b->curves->len);
      return FALSE;
    }
  c = bfres_curve (b, index);
  a = bfres_anim (b, c->anim);
  if (frame_count <= a->frame_count)
    return TRUE;
  if (a->frame_count_size == 2 && frame_count > 0xFFFF)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "%s: %d frames do not fit this version's 16-bit frame count", a->name,
                   frame_count);
      return FALSE;
    }
  if (a->frame_count_size == 2)
    bfres_put_u16 (b, a->frame_count_pos, (guint16)frame_count);
  else
    bfres_put_u32 (b, a->frame_count_pos, (guint32)frame_count);
  a->frame_count = frame_count;
  return TRUE;
}

/* ---- the format table ----------------------------------------------------- */

static gboolean
bfres_probe (const guint8 *data, gsize size)
{
  if (size >= 4 && memcmp (data, "FRES", 4) == 0)
    return TRUE;
  if (tress_yaz0_is_compressed (data, size))
    {
      /* Look at the first decompressed bytes: a literal group starts FRES/SARC. */
      guint8 head[8];
      gsize o = 0, in = TRESS_YAZ0_HEADER_SIZE;
      while (o < sizeof head && in < size)
        {
          guint8 code = data[in++];
          for (int bit = 7; bit >= 0 && o < sizeof head; bit--)
            {
              if (!(code & (1u << bit)))
                return FALSE; /* a back-reference this early: not one of ours */
              if (in >= size)
                return FALSE;
              head[o++] = data[in++];
            }
        }
      return o >= 4 && (memcmp (head, "FRES", 4) == 0 || memcmp (head, "SARC", 4) == 0);
    }
  if (tress_sarc_probe (data, size))
    {
      g_autoptr (GBytes) bytes = g_bytes_new_static (data, size);
      g_autoptr (TressSarc) sarc = tress_sarc_parse (bytes, NULL);
      if (sarc == NULL)
        return FALSE;
      for (guint i = 0; i < tress_sarc_get_n_files (sarc); i++)
        {
          const TressSarcEntry *e = tress_sarc_get_entry (sarc, i);
          if (e->end - e->start >= 4
              && (memcmp (data + e->start, "FRES", 4) == 0
                  || memcmp (data + e->start, "Yaz0", 4) == 0))
            return TRUE;
        }
    }
  return FALSE;
}

static gpointer
bfres_parse (GBytes *bytes, const char *filename, GError **error)
{
  return tress_bfres_parse (bytes, filename, error);
}

static void
bfres_free (gpointer model)
{
  tress_bfres_free (model);
}

static GBytes *
bfres_serialize (gpointer model, GError **error)
{
  return tress_bfres_serialize (model, error);
}

/* Follows an index group's trie bits for @name (format page: bit ref of the
 * name, bytes from its start, 0 past its end); returns the node reached. */
static guint
group_lookup (TressBfres *b, gsize group, guint n, const char *name)
{
  gsize len = strlen (name);
  guint32 prev = G_MAXUINT32;
  guint idx = bfres_get_u16 (b, group + 8 + 4), steps = 0;

  while (idx <= n && steps++ <= n + 1)
    {
      gsize node = group + 8 + 16 * (gsize)idx;
      guint32 bit = bfres_get_u32 (b, node);
      int dir;
      if (bit >= prev)
        return idx;
      prev = bit;
      dir = (bit >> 3) < len ? ((guint8)name[bit >> 3] >> (bit & 7)) & 1 : 0;
      idx = bfres_get_u16 (b, node + (dir ? 6 : 4));
    }
  return G_MAXUINT;
}

static GPtrArray *
bfres_validate (gpointer model)
{
  TressBfres *b = model;
  /* Bounded: a corrupted file breaks a rule thousands of times. */
  TressProblemCollector *out = tress_problem_collector_new ();
  guint32 file_size = bfres_get_u32 (b, 0x0C);
  gsize orig_size = g_bytes_get_size (b->original);

  if (file_size != b->size)
    tress_problem_collect (out, TRESS_SEVERITY_WARNING, "header", 0x0C, NULL, -1,
                           "The header's file size is %u, the file holds %" G_GSIZE_FORMAT " bytes",
                           file_size, b->size);
  if (b->size > orig_size)
    tress_problem_collect (out, TRESS_SEVERITY_INFO, "header", 0x0C, NULL, -1,
                           "The BFRES grew from %" G_GSIZE_FORMAT " to %" G_GSIZE_FORMAT
                           " bytes: Breath of the Wild also needs its resource "
                           "size table (RSTB) entry raised",
                           orig_size, b->size);
  for (int g = 0; g < BFRES_N_GROUPS; g++)
    for (guint i = 0; b->groups[g].pos != 0 && i < b->groups[g].count; i++)
      if (group_lookup (b, b->groups[g].pos, b->groups[g].count, b->groups[g].names[i]) != i + 1)
        {
          g_autofree char *loc = g_strdup_printf ("index group %d (%s)", g, bfres_group_kind (g));
          BfresShownName buf;

          tress_problem_collect (out, TRESS_SEVERITY_WARNING, loc, b->groups[g].pos, NULL, -1,
                                 "Entry %u \"%s\" cannot be found through the "
                                 "group's search bits; the game would not find it",
                                 i + 1, bfres_shown_name (b->groups[g].names[i], buf));
        }
  for (guint i = 0; i < b->notes->len; i++)
    tress_problem_collect (out, TRESS_SEVERITY_INFO, NULL, G_MAXSIZE, NULL, -1, "%s",
                           (const char *)g_ptr_array_index (b->notes, i));
  /* The archives around the BFRES, as read: "SARC", "Yaz0 → SARC", … */
  {
    g_autoptr (GString) where = g_string_new (NULL);

    for (guint i = 0; i < b->layers->len; i++)
      {
        const BfresLayer *l = &g_array_index (b->layers, BfresLayer, i);

        if (i > 0)
          g_string_append (where, " → ");
        if (l->kind == BFRES_LAYER_YAZ0)
          {
            g_string_append (where, "Yaz0");
            continue;
          }
        g_string_append (where, "SARC");
        tress_sarc_validate (l->sarc, where->str, out);
        g_string_append_printf (where, " entry “%s”",
                                tress_sarc_get_entry (l->sarc, l->sarc_index)->name);
      }
  }

  for (guint ai = 0; ai < b->anims->len; ai++)
    {
      BfresAnim *a = bfres_anim (b, ai);
      guint32 baked = 0, stored = bfres_get_u32 (b, a->baked_size_pos);
      BfresShownName buf;
      g_autofree char *loc = g_strdup_printf ("%s/%s", a->kind, bfres_shown_name (a->name, buf));

      if (a->declared_curves != a->n_curves)
        tress_problem_collect (out, TRESS_SEVERITY_WARNING, loc, a->pos, NULL, -1,
                               "The animation declares %u curves, its parts hold %u",
                               a->declared_curves, a->n_curves);
      for (guint k = 0; k < a->n_curves; k++)
        {
          BfresCurve *c = bfres_curve (b, a->first_curve + k);
          TressBfresCurveType ct = bfres_curve_type (c);
          baked += bfres_baked_contribution (ct, bfres_curve_key_type (c), c->start, c->end);
          if (c->n_keys == 0)
            {
              tress_problem_collect (out, TRESS_SEVERITY_ERROR, c->path, c->pos, NULL, -1,
                                     "The curve has no keys");
              continue;
            }
          if (a->textures != NULL && a->n_textures > 0 && !bfres_curve_type_is_float (ct)
              && !bfres_curve_type_is_bool (ct))
            {
              /* A texture pattern's value picks one of the animation's textures. */
              g_autoptr (TressCurve) tc = bfres_get_curve (b, a->first_curve + k);

              for (guint i = 0; i < tress_curve_get_n_keys (tc); i++)
                {
                  double v = tress_curve_get_key (tc, i)->value;

                  if (v < 0 || v >= a->n_textures)
                    {
                      tress_problem_collect (
                          out, TRESS_SEVERITY_ERROR, c->path, c->keys_pos, NULL, -1,
                          "Key %u picks texture %g, but the animation has %u (0 to "
                          "%u)",
                          i, v, a->n_textures, a->n_textures - 1);
                      break;
                    }
                }
            }
          for (guint i = 1; i < c->n_keys; i++)
            if (!(bfres_frame_at (b, c, i) > bfres_frame_at (b, c, i - 1)))
              {
                tress_problem_collect (out, TRESS_SEVERITY_ERROR, c->path, c->frames_pos, NULL, -1,
                                       "Key %u (frame %g) is not after key %u (frame %g)", i,
                                       bfres_frame_at (b, c, i), i - 1,
                                       bfres_frame_at (b, c, i - 1));
                break;
              }
          if (c->start != (float)bfres_frame_at (b, c, 0)
              || c->end != (float)bfres_frame_at (b, c, c->n_keys - 1))
            tress_problem_collect (out, TRESS_SEVERITY_WARNING, c->path, c->pos + 8, NULL, -1,
                                   "Start/end frames %g..%g differ from the keys' %g..%g", c->start,
                                   c->end, bfres_frame_at (b, c, 0),
                                   bfres_frame_at (b, c, c->n_keys - 1));
        }
      if (a->n_curves > 0 && baked != stored)
        tress_problem_collect (out, TRESS_SEVERITY_WARNING, loc, a->baked_size_pos, NULL, -1,
                               "bakedSize is %u, the curves need %u", stored, baked);
    }
  for (guint i = 0; i < b->clashes->len; i++)
    {
      const BfresClash *k = &g_array_index (b->clashes, BfresClash, i);
      const BfresCurve *c = bfres_curve (b, k->curve);

      tress_problem_collect (out, TRESS_SEVERITY_WARNING, c->path,
                             k->keys ? c->keys_pos : c->frames_pos, NULL, -1,
                             "The curve's %s array lies over other data of the file (from "
                             "offset 0x%" G_GSIZE_MODIFIER
                             "x): an edit writes a new array instead of changing those bytes",
                             k->keys ? "key" : "frame", k->structure);
    }
  return tress_problem_collector_finish (out);
}

static char *
version_string (guint32 v)
{
  return g_strdup_printf ("%u.%u.%u.%u", v >> 24, (v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF);
}

static char *
bfres_describe (gpointer model)
{
  TressBfres *b = model;
  GString *s = g_string_new (NULL);
  g_autofree char *ver = version_string (b->version);

  g_string_append_printf (s, "Version: %s (Wii U, big-endian)\n", ver);
  {
    BfresShownName buf;

    g_string_append_printf (s, "Name: %s\n", bfres_shown_name (b->name, buf));
  }
  g_string_append_printf (s, "BFRES size: %" G_GSIZE_FORMAT " bytes\n", b->size);
  if (b->container[0])
    g_string_append_printf (s, "Container: %s\n", b->container);
  for (guint i = 0; i < b->layers->len; i++)
    {
      BfresLayer *l = &g_array_index (b->layers, BfresLayer, i);
      if (l->kind == BFRES_LAYER_SARC)
        g_string_append_printf (s, "Archive file: %s (%u files in the archive)\n",
                                tress_sarc_get_entry (l->sarc, l->sarc_index)->name,
                                tress_sarc_get_n_files (l->sarc));
    }
  for (int g = 0; g < BFRES_N_GROUPS; g++)
    if (b->groups[g].count > 0)
      {
        guint n_curves = 0;
        for (guint ai = 0; ai < b->anims->len; ai++)
          if (bfres_anim (b, ai)->group == g)
            n_curves += bfres_anim (b, ai)->n_curves;
        if (g >= 2 && g <= 8)
          g_string_append_printf (s, "%s animations: %u (%u curves)\n", bfres_group_kind (g),
                                  b->groups[g].count, n_curves);
        else
          g_string_append_printf (s, "%s entries: %u%s\n", bfres_group_kind (g), b->groups[g].count,
                                  g == 9 || g == 10 ? " (not editable)" : "");
      }
  g_string_append_printf (s, "Curves: %u\n", b->curves->len);
  tress_bfres_models_describe_bytes (b->d, b->size, s);
  return g_string_free (s, FALSE);
}

static guint
ops_n_curves (gpointer model)
{
  return tress_bfres_get_n_curves (model);
}

static TressCurve *
ops_get_curve (gpointer model, guint index)
{
  TressBfres *b = model;
  g_return_val_if_fail (index < b->curves->len, NULL);
  return bfres_get_curve (b, index);
}

static void
ops_peek_curve (gpointer model, guint index, TressCurvePeek *out)
{
  TressBfres *b = model;
  const BfresCurve *c;
  const BfresAnim *a;

  g_return_if_fail (index < b->curves->len);
  c = bfres_curve (b, index);
  a = bfres_anim (b, c->anim);
  *out = (TressCurvePeek){ c->path, a->kind, a->name, c->n_keys };
}

static gboolean
ops_set_curve (gpointer model, guint index, const TressCurve *curve, double *max_error,
               GError **error)
{
  TressBfres *b = model;
  if (index >= b->curves->len)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, "No curve %u (the file has %u)", index,
                   b->curves->len);
      return FALSE;
    }
  return bfres_set_curve (b, index, curve, -1, -1, -1, max_error, error);
}

static GBytes *
ops_save_state (gpointer model, guint index)
{
  TressBfres *b = model;
  g_return_val_if_fail (index < b->curves->len, NULL);
  return bfres_save_state (b, index);
}

static void
ops_restore_state (gpointer model, guint index, GBytes *state)
{
  TressBfres *b = model;
  g_return_if_fail (index < b->curves->len && state != NULL);
  bfres_restore_state (b, index, state);
}

static gboolean
ops_preview_error (gpointer model, guint index, const TressCurve *curve, double *max_error,
                   GError **error)
{
  TressBfres *b = model;
  BfresEncodeResult res;

  if (index >= b->curves->len)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, "No curve %u (the file has %u)", index,
                   b->curves->len);
      return FALSE;
    }
  if (!bfres_preview_curve (b, index, curve, -1, &res, error))
    return FALSE;
  if (max_error)
    *max_error = res.error;
  return TRUE;
}

/* The narrowest key type wider than curve @index's in which storing @curve
 * keeps what the edit left alone within half the step it has now; -1 when
 * none (or the curve is exact already). */
static int
wide_key_type_for (TressBfres *b, guint index, const TressCurve *curve, double tolerance,
                   BfresEncodeResult *res)
{
  TressBfresCurveInfo info;

  if (!tress_bfres_get_curve_info (b, index, &info) || !bfres_curve_type_is_float (info.curve_type))
    return -1;
  for (int kt = (int)info.key_type - 1; kt >= TRESS_BFRES_KEY_32; kt--)
    if (bfres_preview_curve (b, index, curve, kt, res, NULL)
        && (res->moved <= tolerance * (1 + 1e-6) || kt == TRESS_BFRES_KEY_32))
      return kt;
  return -1;
}

/* What a store may move the keys an edit left alone by without asking: half
 * the step the curve's values have now (0 for 32-bit floats and whole
 * numbers, which have none). */
static double
store_tolerance (const TressBfresCurveInfo *info)
{
  return bfres_curve_type_is_float (info->curve_type) && info->key_type != TRESS_BFRES_KEY_32
             ? info->scale / 2
             : 0;
}

static gboolean
ops_preview_store (gpointer model, guint index, const TressCurve *curve, TressStoreCost *cost,
                   GError **error)
{
  TressBfres *b = model;
  BfresEncodeResult res, wide;
  TressBfresCurveInfo info;
  int kt;

  memset (cost, 0, sizeof *cost);
  if (!tress_bfres_get_curve_info (b, index, &info))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, "No curve %u (the file has %u)", index,
                   b->curves->len);
      return FALSE;
    }
  if (!bfres_preview_curve (b, index, curve, -1, &res, error))
    return FALSE;
  cost->moved = res.moved;
  cost->step = res.step_before;
  cost->new_step = res.step_after;
  cost->tolerance = store_tolerance (&info);
  cost->type = g_strdup (tress_bfres_key_type_to_string (info.key_type));
  if (!tress_store_cost_is_lossy (cost))
    return TRUE;
  kt = wide_key_type_for (b, index, curve, cost->tolerance, &wide);
  if (kt >= 0)
    {
      cost->wide_type = g_strdup (kt == TRESS_BFRES_KEY_32 ? "32-bit float"
                                                           : tress_bfres_key_type_to_string (kt));
      cost->wide_moved = wide.moved;
      cost->wide_step = wide.step_after;
      cost->wide_growth = wide.growth;
    }
  return TRUE;
}

static gboolean
ops_set_curve_wide (gpointer model, guint index, const TressCurve *curve, double *max_error,
                    GError **error)
{
  TressBfres *b = model;
  TressBfresCurveInfo info;
  BfresEncodeResult wide;
  int kt = -1;

  /* The choice preview_store offered, against the same tolerance. */
  if (tress_bfres_get_curve_info (b, index, &info))
    kt = wide_key_type_for (b, index, curve, store_tolerance (&info), &wide);
  if (kt < 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   _ ("No wider value type would keep the other keys where they are"));
      return FALSE;
    }
  return bfres_set_curve (b, index, curve, -1, -1, kt, max_error, error);
}

/* "the file grows by 144 bytes" / "the file keeps its size" */
static char *
growth_text (gsize growth)
{
  if (growth == 0)
    return g_strdup (_ ("the file keeps its size"));
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "the file grows by %" G_GSIZE_FORMAT " byte",
                                       "the file grows by %" G_GSIZE_FORMAT " bytes", growth),
                          growth);
}

/* The key type one step wider than curve @index's (s8 → s16 → 32-bit). */
static gboolean
wider_key_type (TressBfres *b, guint index, TressBfresCurveInfo *info, TressBfresKeyType *kt,
                GError **error)
{
  if (!tress_bfres_get_curve_info (b, index, info))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, "No curve %u (the file has %u)", index,
                   b->curves->len);
      return FALSE;
    }
  if (!bfres_curve_type_is_float (info->curve_type))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   /* TRANSLATORS: %s is a curve's path */
                   _ ("%s: whole-number and true/false values are stored exactly already"),
                   info->path);
      return FALSE;
    }
  if (info->key_type == TRESS_BFRES_KEY_32 || info->n_keys == 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   /* TRANSLATORS: %s is a curve's path */
                   _ ("%s: the values are stored as 32-bit numbers already, the widest type BFRES "
                      "has"),
                   info->path);
      return FALSE;
    }
  *kt = info->key_type - 1;
  return TRUE;
}

static gboolean
ops_widen_types (gpointer model, guint index, double *max_error, GError **error)
{
  TressBfres *b = model;
  TressBfresCurveInfo info;
  TressBfresKeyType kt;

  if (!wider_key_type (b, index, &info, &kt, error))
    return FALSE;
  return tress_bfres_set_curve_types (b, index, info.curve_type, info.frame_type, kt, max_error,
                                      error);
}

static char *
ops_describe_widening (gpointer model, guint index)
{
  TressBfres *b = model;
  TressBfresCurveInfo info;
  TressBfresKeyType kt;
  g_autofree char *grows = NULL;
  double step = 0;

  if (!wider_key_type (b, index, &info, &kt, NULL))
    return NULL;
  grows = growth_text (bfres_growth (b, index, bfres_frames_bytes (info.frame_type, info.n_keys),
                                     bfres_keys_bytes (info.curve_type, kt, info.n_keys)));
  if (kt == TRESS_BFRES_KEY_32)
    return g_strdup_printf (bfres_curve_type_is_float (info.curve_type)
                                ? _ ("32-bit float keys: exact, %s")
                                : _ ("32-bit keys: %s"),
                            grows);
  if (bfres_widening_step (b, index, kt, &step))
    return g_strdup_printf (_ ("16-bit keys: exact to %.2g, %s"), step / 2, grows);
  return g_strdup_printf (_ ("16-bit keys: %s"), grows);
}

/* The narrowest frame type wider than curve @index's that holds @frame, or -1
 * when @frame needs none (or none holds it). */
static int
frame_type_for (TressBfres *b, guint index, double frame)
{
  TressBfresCurveInfo info;

  if (!tress_bfres_get_curve_info (b, index, &info) || !isfinite (frame))
    return -1;
  for (int ft = info.frame_type; ft >= TRESS_BFRES_FRAME_F32; ft--)
    {
      gboolean fits
          = ft == TRESS_BFRES_FRAME_U8 ? frame == floor (frame) && frame >= 0 && frame <= 255
            : ft == TRESS_BFRES_FRAME_S10_5
                ? frame * 32 == floor (frame * 32) && frame * 32 >= -32768 && frame * 32 <= 32767
                : fabs (frame) <= G_MAXFLOAT;
      if (fits)
        return ft == (int)info.frame_type ? -1 : ft;
    }
  return -1;
}

static gboolean
ops_widen_frames (gpointer model, guint index, double frame, GError **error)
{
  TressBfres *b = model;
  TressBfresCurveInfo info;
  int ft = frame_type_for (b, index, frame);

  if (ft < 0 || !tress_bfres_get_curve_info (b, index, &info))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   _ ("Frame %g needs no wider frame type, or none holds it"), frame);
      return FALSE;
    }
  return tress_bfres_set_curve_types (b, index, info.curve_type, ft, info.key_type, NULL, error);
}

static char *
ops_describe_frame_widening (gpointer model, guint index, double frame)
{
  TressBfres *b = model;
  TressBfresCurveInfo info;
  int ft = frame_type_for (b, index, frame);
  g_autofree char *grows = NULL;

  if (ft < 0 || !tress_bfres_get_curve_info (b, index, &info))
    return NULL;
  grows
      = growth_text (bfres_growth (b, index, bfres_frames_bytes (ft, info.n_keys),
                                   bfres_keys_bytes (info.curve_type, info.key_type, info.n_keys)));
  if (ft == TRESS_BFRES_FRAME_S10_5)
    return g_strdup_printf (_ ("Frames in steps of 1/32 (s10.5): %s"), grows);
  return g_strdup_printf (_ ("Frames of any value (32-bit float): %s"), grows);
}

static char *
ops_dup_notice (gpointer model)
{
  TressBfres *b = model;

  return g_strdup (b->notice);
}

static gboolean
ops_set_frame_count (gpointer model, guint index, double frame_count, GError **error)
{
  if (!(frame_count >= 0 && frame_count <= G_MAXINT32))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   _ ("%g frames is not a length a BFRES animation can have"), frame_count);
      return FALSE;
    }
  return tress_bfres_raise_frame_count (model, index, (int)ceil (frame_count), error);
}

/* An edit of a curve changes its own keys and its animation's header (the
 * frame count, the baked size): the curves of the same animation. */
static void
ops_linked_curves (gpointer model, guint index, GArray *out)
{
  TressBfres *b = model;
  guint anim;

  g_return_if_fail (index < b->curves->len);
  anim = bfres_curve (b, index)->anim;
  for (guint i = 0; i < b->curves->len; i++)
    if (i != index && bfres_curve (b, i)->anim == anim)
      g_array_append_val (out, i);
}

/* A span of the BFRES, empty where it does not lie inside. */
static GBytes *
stored_span (TressBfres *b, gsize pos, gsize len)
{
  if (pos > b->size || len > b->size - pos)
    len = 0;
  return g_bytes_new (len > 0 ? b->d + pos : NULL, len);
}

/* The arrays as stored: a cubic curve's last key holds [c0, c1, c2, c3] and
 * plays c0, a linear one's [c0, c1]; the keys show c0 only. */
static void
ops_get_stored (gpointer model, guint index, GBytes **frames, GBytes **keys)
{
  TressBfres *b = model;
  BfresCurve *c;
  TressBfresCurveType ct;
  gsize n;

  g_return_if_fail (index < b->curves->len);
  c = bfres_curve (b, index);
  ct = bfres_curve_type (c);
  n = c->n_keys;
  *frames = stored_span (
      b, c->frames_pos, c->frames_pos != 0 ? n * bfres_frame_size (bfres_curve_frame_type (c)) : 0);
  *keys = stored_span (b, c->keys_pos,
                       c->keys_pos == 0 ? 0
                       : bfres_curve_type_is_bool (ct)
                           ? (n + 31) / 32 * 4
                           : n * bfres_values_per_key (ct)
                                 * bfres_key_size (bfres_curve_key_type (c)));
}

static const TressCurveOps bfres_curve_ops = {
  .n_curves = ops_n_curves,
  .get_curve = ops_get_curve,
  .peek_curve = ops_peek_curve,
  .set_curve = ops_set_curve,
  .save_state = ops_save_state,
  .restore_state = ops_restore_state,
  .preview_error = ops_preview_error,
  .preview_store = ops_preview_store,
  .set_curve_wide = ops_set_curve_wide,
  .widen_types = ops_widen_types,
  .describe_widening = ops_describe_widening,
  .widen_frames = ops_widen_frames,
  .describe_frame_widening = ops_describe_frame_widening,
  .dup_notice = ops_dup_notice,
  .set_frame_count = ops_set_frame_count,
  .linked_curves = ops_linked_curves,
  .get_stored = ops_get_stored,
};

static const char *const bfres_extensions[] = { "bfres", "sbfres", "szs", NULL };

const TressFormat tress_format_bfres = {
  .id = "bfres",
  .display_name = N_ ("BFRES animation"),
  .extensions = bfres_extensions,
  .mime_type = "application/x-bfres",
  .probe = bfres_probe,
  .parse = bfres_parse,
  .free = bfres_free,
  .validate = bfres_validate,
  .serialize = bfres_serialize,
  .describe = bfres_describe,
  .dump = bfres_dump_json,
  .build = bfres_build_json,
  .fix_all = NULL,
  .curves = &bfres_curve_ops,
};
