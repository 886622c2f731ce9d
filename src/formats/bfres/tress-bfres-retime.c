/* tress-bfres-retime.c: an animation played faster or slower
 *
 * Every curve of the animation plays at frame F·f what it played at f. A cubic
 * or linear segment stores coefficients over t = 0…1 from its key to the
 * next, and step curves hold values: scaling the frames keeps them exactly,
 * so their key arrays stay byte for byte and only the frames move. Baked
 * curves are sampled once a frame, so they are sampled again (a whole F only).
 * The plan is made with every widening a frame needs, built, and refused with
 * its cost when widening was needed and not asked for.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-bfres-animops.h"

#include <math.h>
#include <string.h>

#include "tress-bfres-private.h"

/* A frame this close to the type's grid (in frames, relative above 1) is on it. */
#define GRID_SLACK 1e-9
/* Frames named per curve, and curves named, in a refusal. */
#define SHOWN_FRAMES 4
#define SHOWN_CURVES 6

typedef struct
{
  guint index;
  TressBfresFrameType ft; /* as stored after */
  TressBfresKeyType kt;
  guint n;        /* keys after */
  double *frames; /* n, as stored after */
  float start, end;
  GByteArray *keys; /* the new key array where sampled again, else NULL */
  float scale, offset;
  /* What widening costs and why (against the old types). */
  guint n_off; /* keys whose frame the old frame type cannot hold */
  double off[SHOWN_FRAMES];
  guint n_between;  /* baked float: samples put between the old ones */
  guint n_unstored; /* … of which fall between the key type's steps */
  double key_error; /* the largest distance of those from a step, in values */
} RetimeCurve;

typedef struct
{
  TressBfres *b;
  const BfresAnim *a;
  double scale;
  RetimeCurve *curves;
  guint n;
  gint64 frame_count;
  double exact_count; /* F · old frame count */
} Retime;

static void
retime_clear (Retime *r)
{
  for (guint i = 0; r->curves != NULL && i < r->n; i++)
    {
      g_free (r->curves[i].frames);
      if (r->curves[i].keys != NULL)
        g_byte_array_unref (r->curves[i].keys);
    }
  g_clear_pointer (&r->curves, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Retime, retime_clear)

static gboolean
close_to (double a, double b)
{
  return fabs (a - b) <= GRID_SLACK * MAX (1.0, fabs (b));
}

/* Whether frame type @ft holds frame @f; *stored gets the frame it stores. */
static gboolean
frame_fits (TressBfresFrameType ft, double f, double *stored)
{
  double per = ft == TRESS_BFRES_FRAME_U8 ? 1 : 32, r;

  if (!isfinite (f))
    return FALSE;
  if (ft == TRESS_BFRES_FRAME_F32)
    {
      if (fabs (f) > G_MAXFLOAT)
        return FALSE;
      *stored = (float)f;
      return TRUE;
    }
  r = round (f * per);
  if (!close_to (r / per, f))
    return FALSE;
  if (ft == TRESS_BFRES_FRAME_U8 ? r < 0 || r > 255 : r < -32768 || r > 32767)
    return FALSE;
  *stored = r / per;
  return TRUE;
}

static const char *
frame_type_name (TressBfresFrameType ft)
{
  return tress_bfres_frame_type_to_string (ft);
}

static const char *
key_type_name (TressBfresCurveType ct, TressBfresKeyType kt)
{
  if (kt == TRESS_BFRES_KEY_32)
    return bfres_curve_type_is_float (ct) ? "f32" : "s32";
  return tress_bfres_key_type_to_string (kt);
}

/* ---- planning one curve ------------------------------------------------------ */

static void
put_elem (GByteArray *out, TressBfresCurveType ct, TressBfresKeyType kt, guint i, double v)
{
  guint8 *p = out->data;

  if (bfres_curve_type_is_bool (ct))
    {
      if (v != 0)
        p[4 * (i / 32) + 3 - (i % 32) / 8] |= (guint8)(1u << (i % 8));
      return;
    }
  switch (kt)
    {
    case TRESS_BFRES_KEY_32:
      if (bfres_curve_type_is_float (ct))
        tress_put_f32 (p + 4 * (gsize)i, (float)v, TRESS_BIG_ENDIAN);
      else
        tress_put_u32 (p + 4 * (gsize)i, (guint32)(gint32)v, TRESS_BIG_ENDIAN);
      break;
    case TRESS_BFRES_KEY_S16:
      tress_put_u16 (p + 2 * (gsize)i, (guint16)(gint16)v, TRESS_BIG_ENDIAN);
      break;
    default:
      p[i] = (guint8)(gint8)v;
      break;
    }
}

/* A baked curve sampled @k times as often: its samples repeated (int and
 * bool curves hold), or the values a float curve passes through. */
static gboolean
plan_baked (Retime *r, RetimeCurve *rc, const BfresCurve *c, const double *frames, guint k,
            GError **error)
{
  TressBfresCurveType ct = bfres_curve_type (c);
  guint n = c->n_keys;
  guint64 n_new = ((guint64)n - 1) * k + 1;
  g_autofree double *raw = g_new (double, (gsize)n + 1);
  g_autofree double *v = NULL;

  for (guint i = 0; i + 1 < n; i++)
    if (frames[i + 1] - frames[i] != 1)
      {
        g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                     "%s: a %s curve whose keys are not one a frame (frames %g and %g): its "
                     "samples cannot be spread",
                     c->path, tress_bfres_curve_type_to_string (ct), frames[i], frames[i + 1]);
        return FALSE;
      }
  if (n_new > 0xFFFF)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "%s: ×%g needs %" G_GUINT64_FORMAT " samples, more than a curve's 65,535 keys",
                   c->path, r->scale, n_new);
      return FALSE;
    }
  bfres_decode_elems (r->b, c, raw);
  rc->n = (guint)n_new;
  rc->frames = g_new (double, rc->n);
  v = g_new (double, rc->n);
  for (guint j = 0; j < rc->n; j++)
    {
      guint i = j / k, s = j % k;

      rc->frames[j] = frames[0] * k + j;
      v[j] = raw[i];
      if (s == 0 || !bfres_curve_type_is_float (ct))
        continue;
      /* Where the curve passes at old frame i + s/k (straight lines between
       * samples), in raw steps. */
      v[j] = raw[i] + (raw[i + 1] - raw[i]) * s / k;
      rc->n_between++;
      if (rc->kt != TRESS_BFRES_KEY_32 && v[j] != round (v[j]))
        {
          float scale;

          memcpy (&scale, &c->scale_bits, 4);
          rc->n_unstored++;
          rc->key_error = MAX (rc->key_error, fabs (v[j] - round (v[j])) * fabs (scale));
        }
    }
  if (rc->n_unstored > 0)
    {
      /* f32 keys with scale 1 and offset 0 hold the values themselves. */
      for (guint j = 0; j < rc->n; j++)
        v[j] = v[j] * rc->scale + rc->offset;
      rc->kt = TRESS_BFRES_KEY_32;
      rc->scale = 1.0f;
      rc->offset = 0.0f;
    }
  rc->keys = g_byte_array_new ();
  g_byte_array_set_size (rc->keys, bfres_keys_bytes (ct, rc->kt, rc->n));
  memset (rc->keys->data, 0, rc->keys->len);
  for (guint j = 0; j < rc->n; j++)
    put_elem (rc->keys, ct, rc->kt, j, v[j]);
  return TRUE;
}

static gboolean
plan_curve (Retime *r, RetimeCurve *rc, guint index, GError **error)
{
  TressBfres *b = r->b;
  const BfresCurve *c = bfres_curve (b, index);
  TressBfresCurveType ct = bfres_curve_type (c);
  TressBfresFrameType old_ft = bfres_curve_frame_type (c);
  g_autofree double *frames = g_new (double, (gsize)c->n_keys + 1);
  gboolean baked = ct == TRESS_BFRES_CURVE_BAKED_FLOAT || ct == TRESS_BFRES_CURVE_BAKED_INT
                   || ct == TRESS_BFRES_CURVE_BAKED_BOOL;
  double want_start = r->scale * c->start, want_end = r->scale * c->end, stored;
  int ft;

  rc->index = index;
  rc->ft = old_ft;
  rc->kt = bfres_curve_key_type (c);
  memcpy (&rc->scale, &c->scale_bits, 4);
  memcpy (&rc->offset, &c->offset_bits, 4);
  bfres_decode_frames (b, c, frames);
  if (baked && c->n_keys >= 2 && r->scale != 1)
    {
      double k = round (r->scale);

      if (k < 1 || !close_to (k, r->scale))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "%s: a %s curve holds one sample a frame; ×%g would %s them (a whole "
                       "factor spreads them). Convert it first (tress-cli bfres-set-type FILE "
                       "CURVE --curve-type %s)",
                       c->path, tress_bfres_curve_type_to_string (ct), r->scale,
                       r->scale < 1 ? "drop some of" : "need values between",
                       ct == TRESS_BFRES_CURVE_BAKED_FLOAT ? "Linear"
                       : ct == TRESS_BFRES_CURVE_BAKED_INT ? "StepInt"
                                                           : "StepBool");
          return FALSE;
        }
      if (!plan_baked (r, rc, c, frames, (guint)k, error))
        return FALSE;
    }
  else
    {
      rc->n = c->n_keys;
      rc->frames = g_new (double, (gsize)rc->n + 1);
      for (guint i = 0; i < rc->n; i++)
        rc->frames[i] = r->scale * frames[i];
    }

  /* The narrowest frame type, from the curve's own, that holds every frame. */
  for (guint i = 0; i < rc->n; i++)
    if (!frame_fits (old_ft, rc->frames[i], &stored) && rc->n_off++ < SHOWN_FRAMES)
      rc->off[rc->n_off - 1] = rc->frames[i];
  for (ft = old_ft; ft >= 0; ft--)
    {
      guint i = 0;

      while (i < rc->n && frame_fits (ft, rc->frames[i], &stored))
        i++;
      if (i == rc->n)
        break;
    }
  if (ft < 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "%s: ×%g puts a key at frame %g, past what a 32-bit float frame holds", c->path,
                   r->scale, rc->frames[rc->n - 1]);
      return FALSE;
    }
  rc->ft = ft;
  for (guint i = 0; i < rc->n; i++)
    {
      frame_fits (rc->ft, rc->frames[i], &rc->frames[i]);
      if (i > 0 && !(rc->frames[i] > rc->frames[i - 1]))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "%s: ×%g puts keys %u and %u on the same stored frame %g", c->path, r->scale,
                       i - 1, i, rc->frames[i]);
          return FALSE;
        }
    }
  /* Start and end: the first and last frame in real files; kept on the
   * frames' grid where they were on the old one. */
  rc->start = frame_fits (rc->ft, want_start, &stored) ? (float)stored : (float)want_start;
  rc->end = frame_fits (rc->ft, want_end, &stored) ? (float)stored : (float)want_end;
  return TRUE;
}

/* ---- writing ---------------------------------------------------------------------- */

static GByteArray *
encode_frames (const RetimeCurve *rc)
{
  GByteArray *out = g_byte_array_new ();

  g_byte_array_set_size (out, (gsize)rc->n * bfres_frame_size (rc->ft));
  for (guint i = 0; i < rc->n; i++)
    {
      double f = rc->frames[i];

      if (rc->ft == TRESS_BFRES_FRAME_F32)
        tress_put_f32 (out->data + 4 * (gsize)i, (float)f, TRESS_BIG_ENDIAN);
      else if (rc->ft == TRESS_BFRES_FRAME_S10_5)
        tress_put_u16 (out->data + 2 * (gsize)i, (guint16)(gint16)round (f * 32), TRESS_BIG_ENDIAN);
      else
        out->data[i] = (guint8)f;
    }
  return out;
}

/* Writes @bytes as the array of offset field @field: where the old one stands
 * when it fits its own space (@cap, 0 when shared), else appended. Arrays
 * shared by several curves are appended once per content (@moved: old
 * position → GBytes of what was appended, and where). */
static void
write_array (GByteArray *out, gsize field, gsize old_pos, gsize cap, GByteArray *bytes,
             GHashTable *moved)
{
  gsize at;
  GBytes *was;

  if (bytes->len > 0 && bytes->len <= cap)
    {
      memcpy (out->data + old_pos, bytes->data, bytes->len);
      memset (out->data + old_pos + bytes->len, 0, cap - bytes->len);
      return;
    }
  if (bytes->len == 0)
    {
      /* Nothing to point at: the old array stays (a curve of no keys). */
      return;
    }
  was = g_hash_table_lookup (moved, GSIZE_TO_POINTER (old_pos));
  if (was != NULL && g_bytes_get_size (was) == bytes->len + sizeof (gsize)
      && memcmp (g_bytes_get_data (was, NULL), bytes->data, bytes->len) == 0)
    {
      memcpy (&at, (const guint8 *)g_bytes_get_data (was, NULL) + bytes->len, sizeof (gsize));
      bfres_put_offset (out, field, at);
      return;
    }
  at = bfres_append_zeros (out, (bytes->len + 3) & ~(gsize)3);
  memcpy (out->data + at, bytes->data, bytes->len);
  bfres_put_offset (out, field, at);
  {
    GByteArray *memo = g_byte_array_sized_new (bytes->len + sizeof (gsize));

    g_byte_array_append (memo, bytes->data, bytes->len);
    g_byte_array_append (memo, (const guint8 *)&at, sizeof (gsize));
    g_hash_table_insert (moved, GSIZE_TO_POINTER (old_pos), g_byte_array_free_to_bytes (memo));
  }
}

static GBytes *
build (Retime *r)
{
  TressBfres *b = r->b;
  gsize hs = b->curve_header_size;
  GByteArray *out = g_byte_array_sized_new (b->size + b->size / 8 + 64);
  g_autoptr (GHashTable) moved_frames
      = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)g_bytes_unref);
  g_autoptr (GHashTable) moved_keys
      = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)g_bytes_unref);
  guint32 baked = 0, baked_before = 0;

  g_byte_array_append (out, b->d, b->size);
  for (guint i = 0; i < r->n; i++)
    {
      const RetimeCurve *rc = &r->curves[i];
      const BfresCurve *c = bfres_curve (b, rc->index);
      TressBfresCurveType ct = bfres_curve_type (c);
      g_autoptr (GByteArray) frames = encode_frames (rc);
      guint16 flags = (guint16)((c->flags & ~0xFu) | rc->ft | rc->kt << 2);

      write_array (out, c->pos + hs - 8, c->frames_pos, c->frames_cap, frames, moved_frames);
      if (rc->keys != NULL)
        write_array (out, c->pos + hs - 4, c->keys_pos, c->keys_cap, rc->keys, moved_keys);
      tress_put_u16 (out->data + c->pos, flags, TRESS_BIG_ENDIAN);
      tress_put_u16 (out->data + c->pos + 2, (guint16)rc->n, TRESS_BIG_ENDIAN);
      tress_put_f32 (out->data + c->pos + 8, rc->start, TRESS_BIG_ENDIAN);
      tress_put_f32 (out->data + c->pos + 12, rc->end, TRESS_BIG_ENDIAN);
      if (bfres_curve_type_is_float (ct))
        {
          tress_put_f32 (out->data + c->pos + 16, rc->scale, TRESS_BIG_ENDIAN);
          tress_put_f32 (out->data + c->pos + 20, rc->offset, TRESS_BIG_ENDIAN);
        }
      baked_before += bfres_baked_contribution (ct, bfres_curve_key_type (c), c->start, c->end);
      baked += bfres_baked_contribution (ct, rc->kt, rc->start, rc->end);
    }
  if (r->a->frame_count_size == 2)
    tress_put_u16 (out->data + r->a->frame_count_pos, (guint16)r->frame_count, TRESS_BIG_ENDIAN);
  else
    tress_put_u32 (out->data + r->a->frame_count_pos, (guint32)r->frame_count, TRESS_BIG_ENDIAN);
  /* bakedSize follows the curves (format page); a file whose sum was off
   * keeps its difference. */
  {
    guint32 stored = bfres_get_u32 (b, r->a->baked_size_pos);

    tress_put_u32 (out->data + r->a->baked_size_pos, stored - baked_before + baked,
                   TRESS_BIG_ENDIAN);
  }
  tress_put_u32 (out->data + 0x0C, out->len, TRESS_BIG_ENDIAN);
  return g_byte_array_free_to_bytes (out);
}

/* ---- what it says ------------------------------------------------------------------ */

static void
append_frames (GString *s, const RetimeCurve *rc)
{
  for (guint j = 0; j < MIN (rc->n_off, SHOWN_FRAMES); j++)
    g_string_append_printf (s, "%s%g", j ? ", " : "", rc->off[j]);
  if (rc->n_off > SHOWN_FRAMES)
    g_string_append (s, ", …");
}

/* The curves that need a wider type, with what they hold, and the types
 * --widen gives them (*to_out); NULL when none. */
static char *
widening_list (const Retime *r, guint *n_out, char **to_out)
{
  GString *s = g_string_new (NULL);
  GString *t;
  guint shown = 0, n = 0, to[3] = { 0 }, baked = 0;
  gboolean u8 = FALSE, s10 = FALSE;

  for (guint i = 0; i < r->n; i++)
    {
      const RetimeCurve *rc = &r->curves[i];
      const BfresCurve *c = bfres_curve (r->b, rc->index);

      if (rc->n_off == 0 && rc->n_unstored == 0)
        continue;
      n++;
      if (rc->n_off > 0)
        {
          to[rc->ft]++;
          u8 |= bfres_curve_frame_type (c) == TRESS_BFRES_FRAME_U8;
          s10 |= bfres_curve_frame_type (c) == TRESS_BFRES_FRAME_S10_5;
        }
      baked += rc->n_unstored > 0;
      if (shown++ >= SHOWN_CURVES)
        continue;
      g_string_append_printf (s, "%s%s: ", shown > 1 ? "; " : "", c->path);
      if (rc->n_off > 0)
        {
          g_string_append_printf (s, "%u of %u keys at frames ", rc->n_off, rc->n);
          append_frames (s, rc);
          g_string_append_printf (s, " (%s)", frame_type_name (bfres_curve_frame_type (c)));
        }
      if (rc->n_unstored > 0)
        g_string_append_printf (s,
                                "%s%u of the %u samples put between the old ones fall between "
                                "the %s steps, by up to %.3g",
                                rc->n_off > 0 ? ", and " : "", rc->n_unstored, rc->n_between,
                                key_type_name (bfres_curve_type (c), bfres_curve_key_type (c)),
                                rc->key_error);
    }
  *n_out = n;
  if (n == 0)
    {
      g_string_free (s, TRUE);
      return NULL;
    }
  if (shown > SHOWN_CURVES)
    g_string_append_printf (s, "; and %u more", shown - SHOWN_CURVES);
  if (u8 || s10)
    g_string_append_printf (s, " (%s%s%s)", u8 ? "u8 frames hold whole frames 0 to 255" : "",
                            u8 && s10 ? "; " : "",
                            s10 ? "s10.5 frames hold steps of 1/32 up to 1023.97" : "");
  t = g_string_new (NULL);
  for (int ft = 0; ft < 3; ft++)
    if (to[ft] > 0)
      g_string_append_printf (t, "%s%s frames (%u curve%s)", t->len ? " and " : "",
                              frame_type_name (ft), to[ft], to[ft] == 1 ? "" : "s");
  if (baked > 0)
    g_string_append_printf (t, "%sf32 keys (%u baked curve%s)", t->len ? " and " : "", baked,
                            baked == 1 ? "" : "s");
  *to_out = g_string_free (t, FALSE);
  return g_string_free (s, FALSE);
}

static void
add_notes (const Retime *r, GPtrArray *notes, gsize before, gsize after)
{
  BfresShownName buf;
  const char *name = bfres_shown_name (r->a->name, buf);

  if (r->exact_count != (double)r->frame_count)
    g_ptr_array_add (notes, g_strdup_printf ("%s: %d frames × %g = %g, stored as %" G_GINT64_FORMAT
                                             " frames (a frame count is whole)%s",
                                             name, r->a->frame_count, r->scale, r->exact_count,
                                             r->frame_count,
                                             r->frame_count > floor (r->exact_count + 0.5)
                                                 ? ", raised to hold the last key"
                                                 : ""));
  else
    g_ptr_array_add (notes, g_strdup_printf ("%s: %d → %" G_GINT64_FORMAT " frames", name,
                                             r->a->frame_count, r->frame_count));
  for (guint i = 0; i < r->n; i++)
    {
      const RetimeCurve *rc = &r->curves[i];
      const BfresCurve *c = bfres_curve (r->b, rc->index);
      TressBfresCurveType ct = bfres_curve_type (c);

      if (rc->ft != bfres_curve_frame_type (c))
        g_ptr_array_add (notes, g_strdup_printf ("%s: frames %s → %s (%u keys)", c->path,
                                                 frame_type_name (bfres_curve_frame_type (c)),
                                                 frame_type_name (rc->ft), rc->n));
      if (rc->keys != NULL && rc->kt != bfres_curve_key_type (c))
        g_ptr_array_add (notes,
                         g_strdup_printf ("%s: %s sampled again, %u → %u samples; keys %s → f32 "
                                          "(scale 1, offset 0) to hold the %u between the steps",
                                          c->path, tress_bfres_curve_type_to_string (ct), c->n_keys,
                                          rc->n, key_type_name (ct, bfres_curve_key_type (c)),
                                          rc->n_unstored));
      else if (rc->keys != NULL)
        g_ptr_array_add (notes,
                         g_strdup_printf ("%s: %s sampled again, %u → %u samples", c->path,
                                          tress_bfres_curve_type_to_string (ct), c->n_keys, rc->n));
    }
  if (after > before)
    g_ptr_array_add (notes, g_strdup_printf ("The file grows by %" G_GSIZE_FORMAT
                                             " bytes (%" G_GSIZE_FORMAT " → %" G_GSIZE_FORMAT ")",
                                             after - before, before, after));
  else
    g_ptr_array_add (
        notes, g_strdup_printf ("The file keeps its size (%" G_GSIZE_FORMAT " bytes)", after));
}

/* ---- the entry point ----------------------------------------------------------------- */

gboolean
tress_bfres_retime (TressBfres *bfres, guint anim, double scale, gboolean widen, GPtrArray *notes,
                    GError **error)
{
  g_auto (Retime) r = { 0 };
  g_autoptr (GBytes) result = NULL;
  g_autofree char *wide = NULL, *to = NULL;
  g_autoptr (GPtrArray) said = g_ptr_array_new_with_free_func (g_free);
  double last = 0;
  gint64 max_count;
  guint n_wide = 0;
  gsize before;

  g_return_val_if_fail (bfres != NULL, FALSE);
  if (anim >= bfres->anims->len)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, "No animation %u (the file has %u)",
                   anim, bfres->anims->len);
      return FALSE;
    }
  if (!(scale > 0) || !isfinite (scale))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                   "A time scale of %g: it is a number greater than 0 (2 plays half as fast)",
                   scale);
      return FALSE;
    }
  r.b = bfres;
  r.a = bfres_anim (bfres, anim);
  r.scale = scale;
  r.n = r.a->n_curves;
  r.curves = g_new0 (RetimeCurve, r.n + 1);
  for (guint i = 0; i < r.n; i++)
    {
      const BfresCurve *c = bfres_curve (bfres, r.a->first_curve + i);

      if (!plan_curve (&r, &r.curves[i], r.a->first_curve + i, error))
        return FALSE;
      /* The frame count holds the keys it held. */
      if (c->n_keys > 0 && r.curves[i].n > 0
          && bfres_frame_at (bfres, c, c->n_keys - 1) <= r.a->frame_count)
        last = MAX (last, r.curves[i].frames[r.curves[i].n - 1]);
    }

  r.exact_count = scale * r.a->frame_count;
  max_count = r.a->frame_count_size == 2 ? 0xFFFF : G_MAXINT32;
  if (!(r.exact_count < (double)max_count))
    {
      g_set_error (
          error, TRESS_ERROR, TRESS_ERROR_REFUSED,
          "%s: %d frames × %g = %g frames, more than the frame count field holds (%" G_GINT64_FORMAT
          ")",
          r.a->name, r.a->frame_count, scale, r.exact_count, max_count);
      return FALSE;
    }
  if (close_to (round (r.exact_count), r.exact_count))
    r.exact_count = round (r.exact_count);
  r.frame_count = (gint64)floor (r.exact_count + 0.5);
  if (r.frame_count < last && !close_to (r.frame_count, last))
    r.frame_count = (gint64)ceil (last);

  result = build (&r);
  wide = widening_list (&r, &n_wide, &to);
  if (wide != NULL && !widen)
    {
      BfresShownName buf;

      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "%s ×%g: %u curve%s would need a wider type: %s. --widen stores %s in %s; "
                   "the file grows by %" G_GSIZE_FORMAT " bytes",
                   bfres_shown_name (r.a->name, buf), scale, n_wide, n_wide == 1 ? "" : "s", wide,
                   n_wide == 1 ? "it" : "them", to, g_bytes_get_size (result) - bfres->size);
      return FALSE;
    }
  /* Said from the model as it was, kept until the bytes are taken. */
  before = bfres->size;
  add_notes (&r, said, before, g_bytes_get_size (result));
  if (!bfres_adopt_fres (bfres, result, error))
    {
      g_prefix_error (error, "The retimed file cannot be read back: ");
      return FALSE;
    }
  for (guint i = 0; notes != NULL && i < said->len; i++)
    g_ptr_array_add (notes, g_strdup (g_ptr_array_index (said, i)));
  return TRUE;
}
