/* tress-bfres-json-build.c: a BFRES dump's edits applied, and the build
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-bfres-json-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "core/tress-yaz0.h"
#include "formats/tress-json-curves.h"
#include "tress-bfres-model.h"

/* ---- the edits ---- */

/* A texture name given with a key: the value follows it when only the name
 * was changed; a name that does not match the value is refused otherwise. */
static gboolean
resolve_texture (TressJsonReader *r, const char *key_path, TressJsonKey *j, const TressKey *was,
                 gpointer data)
{
  BfresAnim *a = data;
  g_autofree char *p = NULL;
  const char *named;

  if (j->extra == NULL)
    return TRUE;
  p = g_strconcat (key_path, "/texture", NULL);
  if (a->textures == NULL)
    return tress_json_reader_refuse_at (r, p, "this curve's animation has no textures");
  named = was != NULL && was->value >= 0 && was->value < a->n_textures
              ? a->textures[(guint)was->value]
              : NULL;
  if (was != NULL && g_strcmp0 (named, j->extra) != 0 && (!j->has_value || j->value == was->value))
    {
      /* the name changed, the value did not: the value follows the name */
      for (guint t = 0; t < a->n_textures; t++)
        if (g_str_equal (a->textures[t], j->extra))
          {
            j->value = t;
            j->has_value = TRUE;
            return TRUE;
          }
      {
        g_autofree char *q = tress_json_quote (j->extra, -1);
        return tress_json_reader_refuse_at (r, p, "%s is not among the animation's textures", q);
      }
    }
  {
    double v = j->has_value ? j->value : was != NULL ? was->value : -1;
    const char *wanted
        = v >= 0 && v < a->n_textures && v == trunc (v) ? a->textures[(guint)v] : NULL;

    if (g_strcmp0 (wanted, j->extra) != 0)
      {
        g_autofree char *q = tress_json_quote (j->extra, -1);
        return tress_json_reader_refuse_at (r, p,
                                            "%s is not texture %g (%s); the texture follows "
                                            "from the value: change one of the two",
                                            q, v, wanted != NULL ? wanted : "none");
      }
  }
  return TRUE;
}

static gboolean
apply_edits (TressJsonReader *r, TressBfres *b, GArray *anims, guint *n_edits)
{
  const TressCurveOps *ops = tress_format_bfres.curves;
  gboolean ok = TRUE;

  for (guint ai = 0; ai < anims->len; ai++)
    {
      AnimIn *ain = &g_array_index (anims, AnimIn, ai);
      BfresAnim *a = bfres_anim (b, ai);

      if (ain->has_frame_count && ain->frame_count != a->frame_count)
        {
          g_autoptr (GError) error = NULL;
          g_autofree char *p = g_strconcat (ain->path, "/frame_count", NULL);

          if (ain->frame_count < a->frame_count)
            ok = tress_json_reader_refuse_at (r, p,
                                              "%" G_GINT64_FORMAT " is shorter than the %d frames "
                                              "the animation has; an edit only lengthens an "
                                              "animation",
                                              ain->frame_count, a->frame_count);
          else if (a->n_curves == 0)
            ok = tress_json_reader_refuse_at (r, p, "an animation without curves keeps its length");
          else if (!ops->set_frame_count (b, a->first_curve, (double)ain->frame_count, &error))
            ok = tress_json_reader_refuse_at (r, p, "%s", error->message);
          else
            (*n_edits)++;
        }
    }
  for (guint ai = 0; ai < anims->len; ai++)
    {
      AnimIn *ain = &g_array_index (anims, AnimIn, ai);
      BfresAnim *a = bfres_anim (b, ai);
      g_autofree char *fc_path = g_strconcat (ain->path, "/frame_count", NULL);

      for (guint k = 0; k < ain->curves->len; k++)
        {
          CurveIn *ci = &g_array_index (ain->curves, CurveIn, k);
          g_autofree char *keys_path = g_strconcat (ci->path, "/keys", NULL);
          gboolean edited = FALSE;

          if (ci->keys == NULL)
            continue;
          if (!tress_json_apply_keys (r, ops, b, a->first_curve + k, keys_path, ci->keys,
                                      resolve_texture, a, fc_path, &edited))
            ok = FALSE;
          *n_edits += edited;
        }
    }
  return ok;
}

enum
{
  T_FORMAT,
  T_VERSION,
  T_SIZE,
  T_CONTAINER,
  T_DIGEST,
  T_ANIMATIONS,
  T_BYTES,
};

static const char *const top_names[] = {
  "format", "version", "size", "container", "stored_digest", "animations", "bytes", NULL,
};

gboolean
bfres_build_json (TressJsonReader *r, TressJsonBuild *out)
{
  g_autoptr (GArray) anims = g_array_new (FALSE, TRUE, sizeof (AnimIn));
  g_autoptr (GArray) layers = g_array_new (FALSE, TRUE, sizeof (Layer));
  g_autoptr (GArray) chunks = NULL;
  g_autoptr (GArray) pieces = NULL;
  g_autofree char *digest = NULL, *actual = NULL;
  g_autofree guint8 *d = NULL;
  g_autoptr (GBytes) cur = NULL;
  g_autoptr (TressBfres) b = NULL;
  g_autoptr (GError) error = NULL;
  gint64 size = 0;
  guint64 seen = 0;
  int which;
  gsize hs;
  guint n_edits = 0;
  gboolean ok = TRUE;

  g_array_set_clear_func (anims, _tress_bfres_json_anim_in_clear);
  g_array_set_clear_func (layers, (GDestroyNotify)_tress_bfres_json_layer_clear);
  if (tress_json_reader_begin_object (r))
    while ((which = tress_json_reader_next_known (r, top_names, &seen)) != -2)
      switch (which)
        {
        case T_FORMAT:
          tress_json_reader_check_format (r, "bfres");
          break;
        case T_VERSION:
          tress_json_reader_check_version (r, BFRES_JSON_VERSION, "BFRES");
          break;
        case T_SIZE:
          tress_json_reader_read_int (r, 0x6C, 512 * 1024 * 1024, &size);
          break;
        case T_CONTAINER:
          if (tress_json_reader_begin_array (r))
            while (tress_json_reader_next_element (r))
              {
                Layer l;

                if (layers->len >= 4)
                  {
                    tress_json_reader_refuse (r, "at most 4 containers nest around a BFRES");
                    tress_json_reader_skip (r);
                    continue;
                  }
                _tress_bfres_json_read_layer (r, &l);
                g_array_append_val (layers, l);
              }
          break;
        case T_DIGEST:
          digest = tress_json_reader_read_string (r);
          break;
        case T_ANIMATIONS:
          if (tress_json_reader_begin_array (r))
            while (tress_json_reader_next_element (r))
              {
                AnimIn a;

                _tress_bfres_json_read_anim (r, &a);
                g_array_append_val (anims, a);
              }
          break;
        case T_BYTES:
          chunks = _tress_bfres_json_read_chunks (r);
          break;
        default:
          tress_json_reader_keep_unknown (r);
          break;
        }
  tress_json_reader_require (r, top_names, 0x7F, seen, "");
  if (!tress_json_reader_ok (r) || tress_json_reader_n_errors (r) > 0 || chunks == NULL)
    return FALSE;

  /* The stored form, put together (each piece's bytes given back once copied). */
  d = g_malloc0 ((gsize)size);
  pieces = g_array_sized_new (FALSE, FALSE, sizeof (Range), chunks->len);
  for (guint i = 0; i < chunks->len; i++)
    {
      Chunk *c = &g_array_index (chunks, Chunk, i);
      gsize n;
      const guint8 *p = g_bytes_get_data (c->bytes, &n);
      g_autofree char *path = g_strdup_printf ("/bytes/%u", i);
      Range piece = { c->offset, c->offset + n };

      if (_tress_bfres_json_check_span (r, path, c->offset, n, (gsize)size, "the bytes") && n > 0)
        memcpy (d + c->offset, p, n);
      g_array_append_val (pieces, piece);
      g_clear_pointer (&c->bytes, g_bytes_unref);
    }
  g_clear_pointer (&chunks, g_array_unref);
  hs = size >= 8 && tress_get_u32 (d + 4, TRESS_BIG_ENDIAN) >= BFRES_V3_4 ? 0x24 : 0x20;
  for (guint ai = 0; ai < anims->len; ai++)
    {
      AnimIn *a = &g_array_index (anims, AnimIn, ai);

      for (guint k = 0; k < a->curves->len; k++)
        {
          CurveIn *c = &g_array_index (a->curves, CurveIn, k);

          if (!tress_json_reader_require (
                  r, _tress_bfres_json_curve_names,
                  (1u << C_OFFSET) | (1u << C_FLAGS) | (1u << C_TARGET) | (1u << C_START)
                      | (1u << C_END) | (1u << C_FRAMES_OFFSET) | (1u << C_KEYS_OFFSET)
                      | (1u << C_RAW_FRAMES) | (1u << C_RAW_KEYS) | (1u << C_DIGEST),
                  c->seen, c->path)
              || c->raw_frames == NULL || c->raw_keys == NULL)
            continue;
          _tress_bfres_json_put_curve (r, c, d, (gsize)size, hs);
        }
    }
  if (tress_json_reader_n_errors (r) > 0)
    return FALSE;
  {
    g_autoptr (GArray) ranges = _tress_bfres_json_curve_ranges (anims, hs);

    if (!_tress_bfres_json_check_pieces (r, ranges, pieces, (gsize)size, "/bytes",
                                         "bytes outside the curves",
                                         "or a curve's offsets, or \"size\", were changed"))
      return FALSE;
  }

  /* Read-only: the stored form must be what the dump wrote; a negative zero
   * a tool wrote back as 0 is the same value, and keeps its bits. */
  actual = _tress_bfres_json_stored_digest ((const Layer *)(void *)layers->data, layers->len, d,
                                            (gsize)size);
  if (g_strcmp0 (actual, digest) != 0)
    {
      gsize budget = TRESS_JSON_ZERO_BUDGET;
      gboolean restored = FALSE;

      for (guint ai = 0; ai < anims->len; ai++)
        {
          AnimIn *a = &g_array_index (anims, AnimIn, ai);

          for (guint k = 0; k < a->curves->len; k++)
            restored |= _tress_bfres_json_restore_negative_zeros (
                r, d, hs, &g_array_index (a->curves, CurveIn, k), &budget);
        }
      if (restored)
        {
          g_free (actual);
          actual = _tress_bfres_json_stored_digest ((const Layer *)(void *)layers->data,
                                                    layers->len, d, (gsize)size);
        }
    }
  if (g_strcmp0 (actual, digest) != 0)
    {
      gboolean named = FALSE;

      for (guint ai = 0; ai < anims->len; ai++)
        {
          AnimIn *a = &g_array_index (anims, AnimIn, ai);

          for (guint k = 0; k < a->curves->len; k++)
            {
              CurveIn *c = &g_array_index (a->curves, CurveIn, k);
              char mine[17];

              _tress_bfres_json_curve_in_digest (d, hs, c, mine);
              if (g_strcmp0 (mine, c->digest) != 0)
                {
                  tress_json_reader_refuse_at (
                      r, c->path,
                      "the curve's stored members (offset, flags, target_offset, start, end, "
                      "scale, offset_value, delta, the array offsets, raw_frames, raw_keys) "
                      "were changed; they are the bytes the file holds and are read-only: edit "
                      "%s/keys instead",
                      c->path);
                  named = TRUE;
                }
            }
        }
      if (!named)
        tress_json_reader_refuse_at (
            r, "/bytes",
            "the file's bytes outside the curves (\"bytes\", \"size\" or \"container\") were "
            "changed; they are read-only: a BFRES build applies edits of curve keys and of "
            "animation frame counts");
      return FALSE;
    }

  /* The containers around it, innermost first: as the editor saves them. */
  cur = g_bytes_new_take (g_steal_pointer (&d), (gsize)size);
  for (guint i = layers->len; i-- > 0;)
    {
      Layer *l = &g_array_index (layers, Layer, i);
      g_autofree char *path = g_strdup_printf ("/container/%u", i);
      GBytes *next;

      if (l->yaz0)
        {
          gsize n;
          const guint8 *p = g_bytes_get_data (cur, &n);

          next = tress_yaz0_compress (p, n, l->reserved);
        }
      else
        {
          guint8 *arch = g_malloc0 (MAX (l->size, 1));
          g_autoptr (GBytes) skeleton = NULL;
          g_autoptr (TressSarc) sarc = NULL;

          for (guint k = 0; k < l->chunks->len; k++)
            {
              const Chunk *c = &g_array_index (l->chunks, Chunk, k);
              gsize n;
              const guint8 *p = g_bytes_get_data (c->bytes, &n);

              if (_tress_bfres_json_check_span (r, path, c->offset, n, l->size,
                                                "the archive's bytes")
                  && n > 0)
                memcpy (arch + c->offset, p, n);
            }
          skeleton = g_bytes_new_take (arch, l->size);
          sarc = tress_sarc_parse (skeleton, &error);
          if (sarc == NULL || l->entry >= tress_sarc_get_n_files (sarc))
            return tress_json_reader_refuse_at (r, path, "the archive does not open: %s",
                                                error != NULL ? error->message : "no such entry");
          next = tress_sarc_replace_file (sarc, l->entry, cur, &error);
          if (next == NULL)
            return tress_json_reader_refuse_at (r, path, "%s", error->message);
        }
      g_bytes_unref (cur);
      cur = next;
    }

  b = tress_bfres_parse (cur, "JSON", &error);
  if (b == NULL)
    return tress_json_reader_refuse_at (r, "", "the file this JSON describes does not open: %s",
                                        error->message);
  /* The curves the JSON lists are the file's, in order. */
  {
    guint n = 0;

    if (b->anims->len != anims->len)
      ok = FALSE;
    for (guint ai = 0; ok && ai < anims->len; ai++)
      {
        AnimIn *a = &g_array_index (anims, AnimIn, ai);
        BfresAnim *fa = bfres_anim (b, ai);

        if (fa->n_curves != a->curves->len)
          ok = FALSE;
        for (guint k = 0; ok && k < a->curves->len; k++, n++)
          ok = bfres_curve (b, fa->first_curve + k)->pos
               == (gsize)g_array_index (a->curves, CurveIn, k).pos;
      }
    if (!ok)
      return tress_json_reader_refuse_at (r, "/animations",
                                          "the animations and curves listed are not the ones the "
                                          "file holds, in its order");
  }

  /* What the dump derives must be what this file gives. */
  tress_json_reader_check_unknown (r, bfres_dump_json, b, _tress_bfres_json_hint_for);
  if (tress_json_reader_n_errors (r) > 0)
    return FALSE;

  out->original = g_bytes_ref (cur);
  if (!apply_edits (r, b, anims, &n_edits) || tress_json_reader_n_errors (r) > 0)
    {
      g_clear_pointer (&out->original, g_bytes_unref);
      return FALSE;
    }
  out->model = g_steal_pointer (&b);
  out->n_edits = n_edits;
  return TRUE;
}
