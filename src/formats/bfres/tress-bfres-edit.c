/* tress-bfres-edit.c: curves to and from the neutral curve model, re-encoding
 * with the format's quantization rule, and the patch-in-place / append writer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-bfres-private.h"

#include <math.h>
#include <string.h>

static float
bits_to_float (guint32 bits)
{
  float f;
  memcpy (&f, &bits, 4);
  return f;
}

static guint32
float_to_bits (float f)
{
  guint32 bits;
  memcpy (&bits, &f, 4);
  return bits;
}

/* ---- reading into the curve model ---------------------------------------- */

/* "Cubic, u8 frames, s16 keys" */
static char *
build_type_label (TressBfresCurveType ct, TressBfresFrameType ft, TressBfresKeyType kt)
{
  const char *keys = kt == TRESS_BFRES_KEY_32 ? (bfres_curve_type_is_float (ct) ? "f32" : "s32")
                                              : tress_bfres_key_type_to_string (kt);
  if (bfres_curve_type_is_bool (ct))
    return g_strconcat (tress_bfres_curve_type_to_string (ct), ", ",
                        tress_bfres_frame_type_to_string (ft), " frames", NULL);
  return g_strconcat (tress_bfres_curve_type_to_string (ct), ", ",
                      tress_bfres_frame_type_to_string (ft), " frames, ", keys, " keys", NULL);
}

/* The label for the type bits of curve flags (bits 0-6), built once per
 * process for all 128 combinations (the labels are never freed). */
static const char *
type_label (guint16 flags)
{
  static const char **labels;

  if (g_once_init_enter (&labels))
    {
      const char **t = g_new (const char *, 128);
      for (guint i = 0; i < 128; i++)
        t[i] = build_type_label ((i >> 4) & 7, i & 3, (i >> 2) & 3);
      g_once_init_leave (&labels, t);
    }
  return labels[flags & 0x7F];
}

/* Why a curve of type @ct stores no slopes (for the editor and tress-cli to
 * refuse slope edits with); NULL for Cubic, whose coefficients hold them. */
static const char *
no_slopes_reason (TressBfresCurveType ct)
{
  switch (ct)
    {
    case TRESS_BFRES_CURVE_CUBIC:
      return NULL;
    case TRESS_BFRES_CURVE_LINEAR:
      return "a Linear curve stores no slopes (its segments are straight lines)";
    case TRESS_BFRES_CURVE_BAKED_FLOAT:
      return "a BakedFloat curve stores no slopes (one sample a frame)";
    case TRESS_BFRES_CURVE_STEP_INT:
      return "a StepInt curve stores no slopes";
    case TRESS_BFRES_CURVE_BAKED_INT:
      return "a BakedInt curve stores no slopes (one sample a frame)";
    case TRESS_BFRES_CURVE_STEP_BOOL:
      return "a StepBool curve stores no slopes";
    case TRESS_BFRES_CURVE_BAKED_BOOL:
      return "a BakedBool curve stores no slopes (one sample a frame)";
    default:
      return "a curve of this type stores no slopes";
    }
}

/* The frames of @c into keys[i].frame. */
static void
decode_frames_into_keys (const TressBfres *b, const BfresCurve *c, TressKey *keys)
{
  const guint8 *p = b->d + c->frames_pos;
  guint n = c->n_keys;

  switch (bfres_curve_frame_type (c))
    {
    case TRESS_BFRES_FRAME_F32:
      for (guint i = 0; i < n; i++, p += 4)
        {
          guint32 u = (guint32)p[0] << 24 | (guint32)p[1] << 16 | (guint32)p[2] << 8 | p[3];
          float f;
          memcpy (&f, &u, 4);
          keys[i].frame = f;
        }
      break;
    case TRESS_BFRES_FRAME_S10_5:
      for (guint i = 0; i < n; i++, p += 2)
        keys[i].frame = (gint16)(guint16)(p[0] << 8 | p[1]) / 32.0;
      break;
    default:
      for (guint i = 0; i < n; i++)
        keys[i].frame = p[i];
      break;
    }
}

/* Element @i of a float (cubic/linear) curve's key array, raw. @kt is a
 * constant where this is inlined, so each key type gets its own loop. */
G_ALWAYS_INLINE static inline double
raw_float_elem (const guint8 *p, gsize i, TressBfresKeyType kt)
{
  switch (kt)
    {
    case TRESS_BFRES_KEY_32:
      {
        guint32 u;
        float f;
        memcpy (&u, p + 4 * i, 4);
        u = GUINT32_FROM_BE (u);
        memcpy (&f, &u, 4);
        return f;
      }
    case TRESS_BFRES_KEY_S16:
      {
        guint16 u;
        memcpy (&u, p + 2 * i, 2);
        return (gint16)GUINT16_FROM_BE (u);
      }
    default:
      return (gint8)p[i];
    }
}

/* Cubic (@per 4) or linear (@per 2) keys straight from the key array into
 * @keys, whose frames are already set: value, Hermite slopes, the broken flag
 * and, where a segment's own end misses the next key's value (each coefficient
 * is rounded on its own), the gap the game plays there. Inlined with constant
 * @kt and @per. */
G_ALWAYS_INLINE static inline void
decode_segments (TressKey *keys, guint n, const guint8 *p, TressBfresKeyType kt, guint per,
                 double scale, double offset, guint16 native)
{
  TressInterp interp = per == 4 ? TRESS_INTERP_HERMITE : TRESS_INTERP_LINEAR;
  double prev_in = 0.0;
  float gap = 0.0f;
  double r0 = raw_float_elem (p, 0, kt);
  guint i;

  for (i = 0; i + 1 < n; i++)
    {
      gsize e = (gsize)i * per;
      double frame = keys[i].frame, d = keys[i + 1].frame - frame;
      double r1 = raw_float_elem (p, e + 1, kt);
      double r2 = per == 4 ? raw_float_elem (p, e + 2, kt) : 0;
      double r3 = per == 4 ? raw_float_elem (p, e + 3, kt) : 0;
      double next = raw_float_elem (p, e + per, kt);
      double c1 = r1 * scale, c2 = r2 * scale, c3 = r3 * scale;
      double in, out;

      /* Branch-free: key spacing and broken tangents follow no pattern a
       * branch predictor could learn. */
      double r = 1.0 / d, inv = d > 0 ? r : 1.0;
      gboolean broken;

      out = c1 * inv;
      in = prev_in;
      prev_in = (c1 + 2 * c2 + 3 * c3) * inv;
      broken = fabs (in - out) > 1e-6 * MAX (1.0, fabs (out));
      keys[i] = (TressKey){ .frame = keys[i].frame,
                            .value = r0 * scale + offset,
                            .in_slope = in,
                            .out_slope = out,
                            .in_gap = gap,
                            .interp = interp,
                            .flags = broken ? TRESS_KEY_BROKEN : 0,
                            .native_interp = native,
                            .origin = i + 1 };
      /* Where this segment's own end lies from the next key's value. */
      gap = (float)((((r0 + r1) + r2) + r3 - next) * scale);
      r0 = next;
    }
  /* The first key's incoming slope is its outgoing one (so it is never broken). */
  if (n > 1)
    {
      keys[0].in_slope = keys[0].out_slope;
      keys[0].flags = 0;
    }
  /* The last key continues its incoming slope (a lone key is flat). */
  keys[i] = (TressKey){ .frame = keys[i].frame,
                        .value = r0 * scale + offset,
                        .in_slope = prev_in,
                        .out_slope = prev_in,
                        .in_gap = gap,
                        .interp = interp,
                        .native_interp = native,
                        .origin = i + 1 };
}

TressCurve *
bfres_get_curve (TressBfres *b, guint index)
{
  BfresCurve *c = bfres_curve (b, index);
  BfresAnim *a = bfres_anim (b, c->anim);
  TressBfresCurveType ct = bfres_curve_type (c);
  TressCurve *curve = tress_curve_new ();
  double scale = bits_to_float (c->scale_bits), offset = bits_to_float (c->offset_bits);
  gint32 ioff = (gint32)c->offset_bits;
  guint n = c->n_keys, per = bfres_values_per_key (ct);

  tress_curve_limits_init_unbounded (&curve->limits);
  /* The frames the stored type holds: a frame between them needs a wider
   * type, which is done on request (the editor asks first). */
  switch (bfres_curve_frame_type (c))
    {
    case TRESS_BFRES_FRAME_U8:
      curve->limits.frame_step = 1;
      break;
    case TRESS_BFRES_FRAME_S10_5:
      curve->limits.frame_step = 1.0 / 32;
      break;
    default:
      curve->limits.frame_step = 0;
      break;
    }
  curve->limits.frame_min = 0;
  curve->limits.frame_max = MAX ((double)a->frame_count, (double)c->end);
  curve->limits.uniform_interp = TRUE;
  curve->limits.tied_tangents = FALSE;
  curve->limits.fixed_key_count = FALSE;
  curve->limits.no_slopes = no_slopes_reason (ct);
  if (bfres_curve_type_is_float (ct))
    {
      curve->limits.value_kind = TRESS_VALUE_FLOAT;
      /* Stored as 32-bit floats (or scale and offset that are): nothing larger. */
      curve->limits.value_min = -G_MAXFLOAT;
      curve->limits.value_max = G_MAXFLOAT;
      curve->limits.interp_mask = TRESS_INTERP_MASK (TRESS_INTERP_HERMITE)
                                  | TRESS_INTERP_MASK (TRESS_INTERP_LINEAR)
                                  | TRESS_INTERP_MASK (TRESS_INTERP_BAKED);
    }
  else
    {
      curve->limits.value_kind = bfres_curve_type_is_bool (ct) ? TRESS_VALUE_BOOL : TRESS_VALUE_INT;
      curve->limits.interp_mask
          = TRESS_INTERP_MASK (TRESS_INTERP_STEP) | TRESS_INTERP_MASK (TRESS_INTERP_BAKED);
      if (bfres_curve_type_is_bool (ct))
        {
          curve->limits.value_min = 0;
          curve->limits.value_max = 1;
        }
      else
        {
          curve->limits.value_min = G_MININT32;
          curve->limits.value_max = G_MAXINT32;
        }
    }

  if (n > 0)
    {
      TressKey *keys;

      /* A key array that is not cleared on growth: every key is written whole below. */
      g_array_unref (curve->keys);
      curve->keys = g_array_sized_new (FALSE, FALSE, sizeof (TressKey), n);
      g_array_set_size (curve->keys, n);
      keys = (TressKey *)(void *)curve->keys->data;
      if (ct == TRESS_BFRES_CURVE_CUBIC || ct == TRESS_BFRES_CURVE_LINEAR)
        {
          const guint8 *p = b->d + c->keys_pos;

          decode_frames_into_keys (b, c, keys);
          if (ct == TRESS_BFRES_CURVE_CUBIC)
            switch (bfres_curve_key_type (c))
              {
              case TRESS_BFRES_KEY_32:
                decode_segments (keys, n, p, TRESS_BFRES_KEY_32, 4, scale, offset, ct);
                break;
              case TRESS_BFRES_KEY_S16:
                decode_segments (keys, n, p, TRESS_BFRES_KEY_S16, 4, scale, offset, ct);
                break;
              default:
                decode_segments (keys, n, p, TRESS_BFRES_KEY_S8, 4, scale, offset, ct);
                break;
              }
          else
            switch (bfres_curve_key_type (c))
              {
              case TRESS_BFRES_KEY_32:
                decode_segments (keys, n, p, TRESS_BFRES_KEY_32, 2, scale, offset, ct);
                break;
              case TRESS_BFRES_KEY_S16:
                decode_segments (keys, n, p, TRESS_BFRES_KEY_S16, 2, scale, offset, ct);
                break;
              default:
                decode_segments (keys, n, p, TRESS_BFRES_KEY_S8, 2, scale, offset, ct);
                break;
              }
        }
      else
        {
          g_autofree double *fr = g_new (double, n);
          g_autofree double *el = g_new (double, (gsize)n *per);
          gboolean baked = ct == TRESS_BFRES_CURVE_BAKED_FLOAT || ct == TRESS_BFRES_CURVE_BAKED_INT
                           || ct == TRESS_BFRES_CURVE_BAKED_BOOL;
          TressInterp interp = baked ? TRESS_INTERP_BAKED : TRESS_INTERP_STEP;
          double mul = ct == TRESS_BFRES_CURVE_BAKED_FLOAT ? scale : 1.0;
          double add = ct == TRESS_BFRES_CURVE_BAKED_FLOAT ? offset
                       : bfres_curve_type_is_bool (ct)     ? 0.0
                                                           : (double)ioff;

          bfres_decode_frames (b, c, fr);
          bfres_decode_elems (b, c, el);
          for (guint i = 0; i < n; i++)
            {
              TressKey *k = &keys[i];
              *k = (TressKey){ .frame = fr[i],
                               .value = el[i] * mul + add,
                               .interp = interp,
                               .native_interp = ct,
                               .origin = i + 1 };
            }
        }
    }

  curve->pre_wrap = (c->flags >> 8) & 3;
  curve->post_wrap = (c->flags >> 12) & 3;
  /* A new curve's description fields are all NULL: no set_text needed. */
  curve->path = g_strdup (c->path);
  curve->kind = g_strdup (a->kind);
  curve->owner = g_strdup (a->name);
  curve->component = g_strdup (c->component);
  curve->type_label = g_strdup (type_label (c->flags));
  if (a->textures != NULL && a->n_textures > 0)
    {
      GString *note = g_string_new ("Value = texture index:");

      /* A texture pattern's values pick a texture of the list: nothing else. */
      if (curve->limits.value_kind == TRESS_VALUE_INT)
        {
          curve->limits.value_min = 0;
          curve->limits.value_max = a->n_textures - 1;
        }
      for (guint i = 0; i < a->n_textures; i++)
        g_string_append_printf (note, " %u %s%s", i, a->textures[i],
                                i + 1 < a->n_textures ? "," : "");
      tress_curve_set_text (&curve->note, note->str);
      g_string_free (note, TRUE);
    }
  curve->frame_count = a->frame_count;
  curve->fps = 0; /* BFRES stores no rate: the editor plays at its default */
  curve->loops = a->loops;
  if (bfres_curve_type_is_float (ct) && bfres_curve_key_type (c) != TRESS_BFRES_KEY_32 && scale > 0
      && isfinite (scale))
    {
      curve->value_step = scale;
      curve->value_base = offset;
      curve->value_steps = bfres_curve_key_type (c) == TRESS_BFRES_KEY_S16 ? 32767 : 127;
    }
  /* A skeletal animation in Euler mode (FSKA flags bits 12-14 = 1) turns its
   * bones by Rotate X, Y, Z in radians, X first (T · Rz · Ry · Rx · S); in
   * quaternion mode the four Rotate curves are no angles. */
  if (a->magic != NULL && strcmp (a->magic, "FSKA") == 0 && ((a->flags >> 12) & 7) == 1
      && c->target >= 0x20 && c->target <= 0x28 && c->target % 4 == 0)
    {
      const char *slash = strrchr (c->path, '/');

      curve->angle = TRUE;
      curve->euler_order = TRESS_EULER_XYZ;
      curve->euler_axis = (c->target - 0x20) / 4;
      curve->euler_group = slash != NULL ? g_strndup (c->path, slash - c->path) : NULL;
    }
  return curve;
}

/* ---- encoding ------------------------------------------------------------- */

typedef struct
{
  TressBfresCurveType ct;
  TressBfresFrameType ft;
  TressBfresKeyType kt;
  guint n;
  double *frames;
  double *keyv; /* n requested key values */
  guint32 scale_bits, offset_bits;
  double error;
  GByteArray *fbytes, *kbytes;
  guint32 *lineage; /* float curves: the lineage to store with the new keys */
  GString *notice;  /* what changed beyond the values asked for, said to the user */
  /* float curves: the largest move of a value or arrival the edit left
   * alone, measured on the elements written, and the step before and after */
  double moved, step_before, step_after;
} Plan;

static gboolean
frames_fit (const Plan *p, TressBfresFrameType ft)
{
  for (guint i = 0; i < p->n; i++)
    {
      double f = p->frames[i];
      if (ft == TRESS_BFRES_FRAME_U8 && (f != floor (f) || f < 0 || f > 255))
        return FALSE;
      if (ft == TRESS_BFRES_FRAME_S10_5
          && (f * 32 != floor (f * 32) || f * 32 < -32768 || f * 32 > 32767))
        return FALSE;
      if (ft == TRESS_BFRES_FRAME_F32 && (double)(float)f != f)
        return FALSE;
    }
  return TRUE;
}

/* An array of @len bytes of elements, zeros after them up to a multiple of 4. */
static GByteArray *
padded_array (gsize len)
{
  gsize padded = (len + 3) & ~(gsize)3;
  GByteArray *a = g_byte_array_sized_new ((guint)padded);

  g_byte_array_set_size (a, (guint)padded);
  memset (a->data + len, 0, padded - len);
  return a;
}

static void
encode_frames (Plan *p)
{
  guint es = p->ft == TRESS_BFRES_FRAME_U8 ? 1 : p->ft == TRESS_BFRES_FRAME_S10_5 ? 2 : 4;
  GByteArray *a = padded_array ((gsize)p->n * es);

  for (guint i = 0; i < p->n; i++)
    {
      guint8 *buf = a->data + (gsize)i * es;
      double f = p->frames[i];
      if (p->ft == TRESS_BFRES_FRAME_U8)
        buf[0] = (guint8)f;
      else if (p->ft == TRESS_BFRES_FRAME_S10_5)
        {
          gint16 v = (gint16)lround (f * 32);
          buf[0] = (guint16)v >> 8;
          buf[1] = (guint16)v & 0xFF;
        }
      else
        {
          guint32 u = float_to_bits ((float)f);
          buf[0] = u >> 24, buf[1] = u >> 16, buf[2] = u >> 8, buf[3] = u;
        }
    }
  p->fbytes = a;
}

/* @v as an integer for the key arithmetic, saturated at ±2^40: far outside
 * every key type (so still refused as out of range), small enough that the
 * sums below cannot overflow; NaN is 0. (Converting a double outside gint64
 * is undefined behaviour: a fuzzed curve reached it.) */
#define KEY_INT_LIMIT ((gint64)1 << 40)

static gint64
key_int (double v)
{
  if (isnan (v))
    return 0;
  if (v <= (double)-KEY_INT_LIMIT)
    return -KEY_INT_LIMIT;
  if (v >= (double)KEY_INT_LIMIT)
    return KEY_INT_LIMIT;
  return (gint64)v;
}

static guint
elem_size (TressBfresKeyType kt)
{
  return kt == TRESS_BFRES_KEY_S8 ? 1 : kt == TRESS_BFRES_KEY_S16 ? 2 : 4;
}

/* Element @i of a key array of @kt (sized for it by padded_array). */
static void
put_elem (GByteArray *a, gsize i, TressBfresKeyType kt, gint64 iv, float fv, gboolean is_float)
{
  guint8 *buf = a->data + i * elem_size (kt);
  if (kt == TRESS_BFRES_KEY_S8)
    buf[0] = (guint8)(gint8)iv;
  else if (kt == TRESS_BFRES_KEY_S16)
    {
      guint16 u = (guint16)(gint16)iv;
      buf[0] = u >> 8, buf[1] = u & 0xFF;
    }
  else
    {
      guint32 u = is_float ? float_to_bits (fv) : (guint32)(gint32)iv;
      buf[0] = u >> 24, buf[1] = u >> 16, buf[2] = u >> 8, buf[3] = u;
    }
}

/* Adds a sentence to what an edit says it changed. */
G_GNUC_PRINTF (2, 3)
static void
notice_add (GString *notice, const char *format, ...)
{
  va_list args;

  if (notice->len > 0)
    g_string_append (notice, "; ");
  va_start (args, format);
  g_string_append_vprintf (notice, format, args);
  va_end (args);
}

/* ---- float curves: local edits in the file's precision -------------------- */

/* Where the keys of an edited float curve come from. Each key's lineage says
 * which key and segment of the file as it was read it still holds unchanged:
 * 1 + that key's index in the low 16 bits (its value), 1 + that segment's in
 * the high 16 bits (the segment starting at it), 0 where an edit changed it.
 * A curve never edited has no lineage stored: each key is its own. When an
 * edit needs a new scale, unchanged keys are quantized again from the file's
 * own coefficients, so that edits after edits do not add up their rounding. */
#define LINEAGE_VALUE(l) ((l)&0xFFFFu)
#define LINEAGE_SEGMENT(l) ((l) >> 16)

/* The curve as the file was read (the header never moves: it is at the same
 * place in the original bytes). */
typedef struct
{
  gboolean valid;
  guint n;
  TressBfresKeyType kt;
  double scale, offset;
  const guint8 *keys;
} OrigCurve;

static void
orig_curve (TressBfres *b, const BfresCurve *c, OrigCurve *o)
{
  gsize size, hs = b->curve_header_size;
  const guint8 *d = g_bytes_get_data (b->original, &size);
  guint16 flags;
  gsize field, pos, bytes;
  gint32 rel;

  memset (o, 0, sizeof *o);
  if (c->pos + hs > size)
    return;
  flags = tress_get_u16 (d + c->pos, TRESS_BIG_ENDIAN);
  if (((flags >> 4) & 7) != bfres_curve_type (c))
    return;
  o->n = tress_get_u16 (d + c->pos + 2, TRESS_BIG_ENDIAN);
  o->kt = (flags >> 2) & 3;
  o->scale = bits_to_float (tress_get_u32 (d + c->pos + 16, TRESS_BIG_ENDIAN));
  o->offset = bits_to_float (tress_get_u32 (d + c->pos + 20, TRESS_BIG_ENDIAN));
  field = c->pos + hs - 4;
  rel = (gint32)tress_get_u32 (d + field, TRESS_BIG_ENDIAN);
  bytes = (gsize)o->n * bfres_values_per_key (bfres_curve_type (c)) * bfres_key_size (o->kt);
  if (rel == 0 || (rel < 0 && (gsize) - (gint64)rel > field))
    return;
  pos = (gsize)((gint64)field + rel);
  if (pos > size || bytes > size - pos || !isfinite (o->scale) || !isfinite (o->offset))
    return;
  o->keys = d + pos;
  o->valid = TRUE;
}

static double
key_elem (const guint8 *p, TressBfresKeyType kt, gsize i)
{
  switch (kt)
    {
    case TRESS_BFRES_KEY_32:
      return raw_float_elem (p, i, TRESS_BFRES_KEY_32);
    case TRESS_BFRES_KEY_S16:
      return raw_float_elem (p, i, TRESS_BFRES_KEY_S16);
    default:
      return raw_float_elem (p, i, TRESS_BFRES_KEY_S8);
    }
}

static double
key_type_max (TressBfresKeyType kt)
{
  return kt == TRESS_BFRES_KEY_S16 ? 32767 : 127;
}

/* One key of an edited float curve: the exact real coefficients of the
 * segment starting at it (c[0] its value, offset included; c[1..] scaled), the
 * value that segment ends at (the next key's arrival), what was asked for, and
 * what the stored curve holds of it unchanged. */
typedef struct
{
  double c[4];
  double end;
  double length; /* frames to the next key (0 for the last) */
  double want_value, want_end;
  int same_value;   /* the stored key whose value this one keeps, or -1 */
  int same_segment; /* the stored key whose whole segment this one keeps, or -1 */
  /* The edit left the key's value (its segment's arrival) exactly as stored:
   * what moves there is a cost the user did not ask for. */
  gboolean untouched_value, untouched_end;
} FloatKey;

typedef struct
{
  guint n, per;
  FloatKey *k;
  /* the curve as stored now */
  TressBfresKeyType kt;
  double scale, offset;
  gboolean scale_usable;
  const guint8 *p;
  guint stored_n;
} FloatPlan;

/* A real value as a raw element of key type @kt at scale @s. */
static double
quantize (double v, double s, TressBfresKeyType kt)
{
  return kt == TRESS_BFRES_KEY_32 ? (double)(float)(v / s) : round (v / s);
}

/* The slope elements r[1..m] of a segment whose two end values are fixed
 * (their raw sum is @sum): as close to the exact @want[1..m] as elements of at
 * most @maxraw allow, in least squares: each is its wish moved by one shared
 * amount and clipped, then rounded so that the sum stays exact. FALSE when no
 * such elements exist. */
static gboolean
solve_within_type (double *r, const double *want, guint m, double sum, double maxraw)
{
  double lo = -4 * maxraw - fabs (sum), hi = 4 * maxraw + fabs (sum), left;
  double x[4];

  for (guint e = 1; e <= m; e++)
    {
      lo -= fabs (want[e]);
      hi += fabs (want[e]);
    }
  if (!(fabs (sum) <= m * maxraw))
    return FALSE;
  /* The shared shift, by bisection on the clipped sum (nondecreasing in it). */
  for (int it = 0; it < 200 && hi - lo > 1e-9; it++)
    {
      double mid = (lo + hi) / 2, t = 0;

      for (guint e = 1; e <= m; e++)
        t += CLAMP (want[e] + mid, -maxraw, maxraw);
      if (t < sum)
        lo = mid;
      else
        hi = mid;
    }
  left = sum;
  for (guint e = 1; e <= m; e++)
    {
      x[e] = CLAMP (want[e] + (lo + hi) / 2, -maxraw, maxraw);
      r[e] = round (x[e]);
      left -= r[e];
    }
  /* Whole steps the rounding left over go where rounding cost least. */
  while (left != 0)
    {
      double dir = left > 0 ? 1 : -1, best_cost = G_MAXDOUBLE;
      guint best = 0;

      for (guint e = 1; e <= m; e++)
        {
          double cost = fabs (r[e] + dir - x[e]);

          if (fabs (r[e] + dir) <= maxraw && cost < best_cost)
            best_cost = cost, best = e;
        }
      if (best == 0)
        return FALSE;
      r[best] += dir;
      left -= dir;
    }
  return TRUE;
}

/* What quantize_float_keys had to give up within the type it was given. */
typedef struct
{
  int unfit_key;      /* the first key whose value or arrival lies outside the type, or -1 */
  double slope_moved; /* the largest change of a slope, in value per frame */
  int slope_segment;  /* the segment where it is, or -1 */
} FitInfo;

/* Raw elements (n × per into @raw) for key type @kt, scale @fs and offset @fo;
 * with @copy (the stored type, scale and offset) what an edit left alone keeps
 * its stored elements. A segment that is re-encoded ends on the step nearest
 * its end, so that it joins the next key when the two are meant to meet.
 * FALSE when a value falls outside the type. *err: the largest distance of a
 * key's value or arrival from what was asked for. */
static gboolean
quantize_float_keys (const FloatPlan *fp, TressBfresKeyType kt, double fs, double fo, gboolean copy,
                     double *raw, double *err, FitInfo *fit)
{
  guint n = fp->n, per = fp->per;
  double maxraw = key_type_max (kt), worst = 0;
  gboolean exact = kt == TRESS_BFRES_KEY_32;

  *fit = (FitInfo){ -1, 0, -1 };

  for (guint j = 0; j < n; j++)
    {
      const FloatKey *k = &fp->k[j];
      double *r = raw + (gsize)j * per;
      gboolean fresh = FALSE;

      if (copy && k->same_segment >= 0)
        for (guint e = 0; e < per; e++)
          r[e] = key_elem (fp->p, fp->kt, (gsize)k->same_segment * per + e);
      else
        {
          fresh = TRUE;
          r[0] = copy && k->same_value >= 0 ? key_elem (fp->p, fp->kt, (gsize)k->same_value * per)
                                            : quantize (k->c[0] - fo, fs, kt);
          if (per > 1 && j + 1 < n)
            {
              double e = quantize (k->end - fo, fs, kt), last;

              /* The last element takes up what the others leave of the end
               * value: for Linear that is the whole change to the next key. */
              if (per == 4)
                {
                  r[1] = quantize (k->c[1], fs, kt);
                  r[2] = quantize (k->c[2], fs, kt);
                  last = e - r[0] - r[1] - r[2];
                }
              else
                last = e - r[0];
              if (exact)
                last = (double)(float)last;
              r[per - 1] = last;
              if (!exact && !(fabs (r[0]) <= maxraw))
                {
                  if (fit->unfit_key < 0)
                    fit->unfit_key = (int)j;
                  return FALSE;
                }
              if (!exact
                  && !(fabs (r[1]) <= maxraw && fabs (r[per - 1]) <= maxraw
                       && fabs (r[per == 4 ? 2 : 1]) <= maxraw))
                {
                  /* Both ends fit but a slope coefficient does not: the ends
                   * stay exact and the slopes come as close as the type allows
                   * (the scale and offset stay; nothing else moves). */
                  double want[4] = { 0 }, m0, m1, d = k->length > 0 ? k->length : 1;

                  for (guint el = 1; el < per; el++)
                    want[el] = k->c[el] / fs;
                  if (!solve_within_type (r, want, per - 1, e - r[0], maxraw))
                    {
                      /* The next key's arrival is too far for any elements. */
                      if (fit->unfit_key < 0)
                        fit->unfit_key = (int)j + 1;
                      return FALSE;
                    }
                  /* The slopes the segment now has against those asked for. */
                  m0 = fabs (r[1] - want[1]) * fs / d;
                  m1 = per == 4 ? fabs ((r[1] + 2 * r[2] + 3 * r[3])
                                        - (want[1] + 2 * want[2] + 3 * want[3]))
                                      * fs / d
                                : 0;
                  if (MAX (m0, m1) > fit->slope_moved)
                    {
                      fit->slope_moved = MAX (m0, m1);
                      fit->slope_segment = (int)j;
                    }
                }
            }
          else
            for (guint e = 1; e < per; e++)
              r[e] = 0;
        }
      if (fresh && !exact)
        for (guint e = 0; e < per; e++)
          if (!(fabs (r[e]) <= maxraw))
            {
              /* (only a value can: slopes were brought within the type) */
              if (fit->unfit_key < 0)
                fit->unfit_key = (int)j;
              return FALSE;
            }
      worst = MAX (worst, fabs (r[0] * fs + fo - k->want_value));
      if (per > 1 && j + 1 < n)
        {
          double sum = per == 4 ? ((r[0] + r[1]) + r[2]) + r[3] : r[0] + r[1];
          worst = MAX (worst, fabs (sum * fs + fo - k->want_end));
        }
    }
  *err = worst;
  return TRUE;
}

/* Scale and offset for key type @kt by the rule of the files (format page):
 * offset the middle of the values, scale the largest coefficient over the
 * type's range. FALSE when no float scale covers the spread. */
static gboolean
float_scale_for (const FloatPlan *fp, TressBfresKeyType kt, double *fs_out, double *fo_out)
{
  double lo = G_MAXDOUBLE, hi = -G_MAXDOUBLE, m = 0, maxraw = key_type_max (kt);
  float fo, fs;

  if (kt == TRESS_BFRES_KEY_32)
    {
      *fs_out = 1.0, *fo_out = 0.0;
      return TRUE;
    }
  for (guint j = 0; j < fp->n; j++)
    {
      lo = MIN (lo, fp->k[j].c[0]);
      hi = MAX (hi, fp->k[j].c[0]);
    }
  fo = (float)((lo + hi) / 2);
  for (guint j = 0; j < fp->n; j++)
    {
      m = MAX (m, fabs (fp->k[j].c[0] - fo));
      for (guint e = 1; e < fp->per && j + 1 < fp->n; e++)
        m = MAX (m, fabs (fp->k[j].c[e]));
    }
  fs = (float)(m / maxraw);
  if (!(fs > 0) || !isfinite (fs))
    fs = 1.0f;
  /* Float rounding of the scale must not push a raw value out of range. */
  while (m / fs > maxraw && fs < G_MAXFLOAT)
    fs = nextafterf (fs, G_MAXFLOAT);
  if (!(m / fs <= maxraw))
    return FALSE;
  *fs_out = fs, *fo_out = fo;
  return TRUE;
}

/* Whether @asked lands on the very step that stores @stored: a value edited by
 * less than half a step keeps the stored elements (and the file its bytes). */
static gboolean
same_stored (const FloatPlan *fp, double stored, double asked)
{
  if (stored == asked)
    return TRUE;
  if (!fp->scale_usable || fp->kt == TRESS_BFRES_KEY_32)
    return FALSE;
  return quantize (stored - fp->offset, fp->scale, fp->kt)
         == quantize (asked - fp->offset, fp->scale, fp->kt);
}

/* The exact coefficients of every key of @curve (the edit) for curve @c, and
 * what of the stored curve @stored each keeps (format page, "Editing in the
 * file's precision"); *lineage gets the keys' new lineage. */
static void
float_plan_build (TressBfres *b, guint index, const TressCurve *curve, TressBfresCurveType ct,
                  FloatPlan *fp, guint32 *lineage)
{
  BfresCurve *c = bfres_curve (b, index);
  g_autoptr (TressCurve) stored = bfres_get_curve (b, index);
  const guint32 *old = g_hash_table_lookup (b->lineage, GUINT_TO_POINTER (index));
  guint n = tress_curve_get_n_keys (curve), sn = tress_curve_get_n_keys (stored);
  guint per = bfres_values_per_key (ct);
  gboolean same_type = ct == bfres_curve_type (c);
  OrigCurve o;

  orig_curve (b, c, &o);
  fp->n = n;
  fp->per = per;
  fp->k = g_new0 (FloatKey, n);
  fp->kt = bfres_curve_key_type (c);
  fp->scale = bits_to_float (c->scale_bits);
  fp->offset = bits_to_float (c->offset_bits);
  fp->scale_usable = same_type && fp->scale > 0 && isfinite (fp->scale) && isfinite (fp->offset);
  fp->p = b->d + c->keys_pos;
  fp->stored_n = sn;
  for (guint j = 0; j < n; j++)
    {
      const TressKey *k = tress_curve_get_key (curve, j);
      const TressKey *k1 = j + 1 < n ? tress_curve_get_key (curve, j + 1) : NULL;
      FloatKey *f = &fp->k[j];
      guint oi = k->origin - 1;
      gboolean known = same_type && k->origin > 0 && oi < sn;
      const TressKey *s = known ? tress_curve_get_key (stored, oi) : NULL;
      guint32 was = 0, lv = 0, ls = 0;

      f->same_value = f->same_segment = -1;
      f->want_value = k->value;
      f->want_end = k1 != NULL ? tress_key_in_value (k1) : k->value;
      if (known)
        was = old != NULL ? old[oi] : (oi < 0xFFFF ? (oi + 1) | (oi + 1) << 16 : 0);
      f->length = k1 != NULL ? k1->frame - k->frame : 0;
      f->untouched_value = known && s->value == k->value;
      if (known && same_stored (fp, s->value, k->value))
        {
          f->same_value = (int)oi;
          lv = LINEAGE_VALUE (was);
        }
      if (f->same_value >= 0 && s->frame == k->frame)
        {
          if (k1 == NULL)
            {
              /* The last key: the whole record (zeros or whatever the file has there). */
              if (oi + 1 == sn)
                f->same_segment = (int)oi;
            }
          else if (k1->origin == k->origin + 1 && oi + 1 < sn && per > 1)
            {
              const TressKey *s1 = tress_curve_get_key (stored, oi + 1);

              gboolean slopes
                  = per == 2 || (s->out_slope == k->out_slope && s1->in_slope == k1->in_slope);

              if (s1->frame == k1->frame
                  && same_stored (fp, tress_key_in_value (s1), tress_key_in_value (k1)) && slopes)
                f->same_segment = (int)oi;
              f->untouched_end = f->untouched_value && s1->frame == k1->frame
                                 && tress_key_in_value (s1) == tress_key_in_value (k1) && slopes;
            }
          else if (per == 1)
            f->same_segment = (int)oi;
        }
      if (f->same_segment >= 0)
        ls = LINEAGE_SEGMENT (was);

      /* The exact coefficients: the file's own where this key still holds
       * them, else the stored ones where unchanged, else from the edit. */
      f->c[0] = lv > 0 && o.valid && lv <= o.n
                    ? key_elem (o.keys, o.kt, (gsize)(lv - 1) * per) * o.scale + o.offset
                    : k->value;
      f->end = f->want_end;
      if (k1 == NULL || per == 1)
        ;
      else if (ls > 0 && o.valid && ls < o.n)
        {
          double sum = 0;

          for (guint e = 0; e < per; e++)
            {
              double r = key_elem (o.keys, o.kt, (gsize)(ls - 1) * per + e);

              sum += r;
              if (e > 0)
                f->c[e] = r * o.scale;
            }
          f->end = sum * o.scale + o.offset;
        }
      else if (f->same_segment >= 0)
        for (guint e = 1; e < per; e++)
          f->c[e] = key_elem (fp->p, fp->kt, (gsize)oi * per + e) * fp->scale;
      else if (per == 4)
        {
          double d = k1->frame - k->frame, p0 = k->value, p1 = tress_key_in_value (k1);
          double m0 = k->out_slope, m1 = k1->in_slope;

          f->c[1] = m0 * d;
          f->c[2] = 3 * (p1 - p0) - (2 * m0 + m1) * d;
          f->c[3] = 2 * (p0 - p1) + (m0 + m1) * d;
        }
      else
        f->c[1] = tress_key_in_value (k1) - k->value;
      lineage[j] = lv | ls << 16;
    }
}

/* Quantizes the float curve of @fp into p->kbytes: the stored key type, scale
 * and offset while the values fit them (what an edit left alone keeps its
 * bytes); else a new scale and offset in the same type from the exact
 * coefficients; a wider key type only when asked (@min_kt) or when the model's
 * tolerance needs it. */
static void
encode_float_curve (Plan *p, const FloatPlan *fp, const char *path, int min_kt, double tolerance)
{
  guint per = fp->per, n = fp->n;
  g_autofree double *raw = g_new (double, (gsize)n *per);
  TressBfresKeyType kt = fp->kt;
  double fs = fp->scale, fo = fp->offset, err = 0, moved = 0;
  gboolean done = FALSE;
  FitInfo fit, first_fit = { -1, 0, -1 };

  if (min_kt >= 0 && min_kt < (int)kt)
    kt = min_kt;
  if (kt == fp->kt && fp->scale_usable)
    {
      done = quantize_float_keys (fp, kt, fs, fo, TRUE, raw, &err, &fit);
      first_fit = fit;
    }
  for (;;)
    {
      if (!done)
        {
          if (!float_scale_for (fp, kt, &fs, &fo)
              || !quantize_float_keys (fp, kt, fs, fo, FALSE, raw, &err, &fit))
            {
              err = INFINITY;
              if (kt == TRESS_BFRES_KEY_32)
                break;
            }
          else
            done = TRUE;
        }
      if (done && (!(tolerance > 0) || err <= tolerance || kt == TRESS_BFRES_KEY_32))
        break;
      kt--;
      done = FALSE;
    }

  /* What the stored result did to what the edit left alone. */
  for (guint j = 0; j < n; j++)
    {
      const double *r = raw + (gsize)j * per;

      if (fp->k[j].untouched_value)
        moved = MAX (moved, fabs (r[0] * fs + fo - fp->k[j].want_value));
      if (fp->k[j].untouched_end && j + 1 < n)
        {
          double sum = per == 4 ? ((r[0] + r[1]) + r[2]) + r[3] : r[0] + r[1];

          moved = MAX (moved, fabs (sum * fs + fo - fp->k[j].want_end));
        }
    }

  if (kt != fp->kt)
    notice_add (
        p->notice,
        "%s: %s keys widened to %s%s, keys not edited moved by up to " TRESS_NOTICE_VALUE_FORMAT,
        path, tress_bfres_key_type_to_string (fp->kt),
        kt == TRESS_BFRES_KEY_32 ? "32-bit float" : tress_bfres_key_type_to_string (kt),
        kt == TRESS_BFRES_KEY_32 ? " (exact)" : "", moved);
  else if (float_to_bits ((float)fs) != float_to_bits ((float)fp->scale)
           || float_to_bits ((float)fo) != float_to_bits ((float)fp->offset))
    {
      g_autofree char *what = NULL;

      if (!fp->scale_usable)
        what = g_strdup ("no usable stored scale");
      else if (first_fit.unfit_key >= 0)
        what = g_strdup_printf (
            "key %d's value " TRESS_NOTICE_VALUE_FORMAT " lies outside what the stored scale and "
            "offset hold",
            first_fit.unfit_key,
            first_fit.unfit_key < (int)n ? fp->k[first_fit.unfit_key].want_value : 0.0);
      else
        what = g_strdup ("the values do not fit the stored scale and offset");
      notice_add (p->notice,
                  "%s: %s; the curve's %s keys are quantized anew (step " TRESS_NOTICE_VALUE_FORMAT
                  ", was " TRESS_NOTICE_VALUE_FORMAT
                  "), keys not edited moved by up to " TRESS_NOTICE_VALUE_FORMAT,
                  path, what, tress_bfres_key_type_to_string (kt), fs, fp->scale, moved);
    }
  else if (fit.slope_segment >= 0)
    notice_add (p->notice,
                "%s: the segment after key %d keeps its ends but its slopes moved by up "
                "to " TRESS_NOTICE_VALUE_FORMAT " a frame to fit %s coefficients",
                path, fit.slope_segment, fit.slope_moved, tress_bfres_key_type_to_string (kt));

  p->kbytes = padded_array ((gsize)n * per * elem_size (kt));
  for (gsize i = 0; i < (gsize)n * per; i++)
    put_elem (p->kbytes, i, kt, key_int (raw[i]), (float)raw[i], TRUE);
  p->kt = kt;
  p->scale_bits = float_to_bits ((float)fs);
  p->offset_bits = float_to_bits ((float)fo);
  p->error = err;
  p->moved = moved;
  p->step_before = fp->kt == TRESS_BFRES_KEY_32 ? 0 : fp->scale;
  p->step_after = kt == TRESS_BFRES_KEY_32 ? 0 : fs;
}

static gboolean
encode_int_keys (Plan *p, TressBfresKeyType kt, gint32 cur_offset)
{
  gint64 lo = G_MAXINT64, hi = G_MININT64, off = cur_offset;
  gint64 rmin = kt == TRESS_BFRES_KEY_S8 ? -128 : kt == TRESS_BFRES_KEY_S16 ? -32768 : G_MININT32;
  gint64 rmax = kt == TRESS_BFRES_KEY_S8 ? 127 : kt == TRESS_BFRES_KEY_S16 ? 32767 : G_MAXINT32;
  GByteArray *a;

  for (guint i = 0; i < p->n; i++)
    {
      lo = MIN (lo, key_int (p->keyv[i]));
      hi = MAX (hi, key_int (p->keyv[i]));
    }
  if (lo - off < rmin || hi - off > rmax)
    {
      off = lo - rmin; /* smallest raw at the type's minimum: keeps small indices small */
      if (lo >= 0 && lo <= rmax && hi <= rmax)
        off = 0;
      if (hi - off > rmax)
        return FALSE;
    }
  a = padded_array ((gsize)p->n * elem_size (kt));
  for (guint i = 0; i < p->n; i++)
    put_elem (a, i, kt, key_int (p->keyv[i]) - off, 0, FALSE);
  p->kt = kt;
  p->kbytes = a;
  p->offset_bits = (guint32)(gint32)off;
  p->error = 0;
  return TRUE;
}

static void
encode_bool_keys (Plan *p)
{
  guint words = (p->n + 31) / 32;
  GByteArray *a = g_byte_array_new ();
  g_byte_array_set_size (a, words * 4);
  memset (a->data, 0, a->len);
  for (guint i = 0; i < p->n; i++)
    if (p->keyv[i] != 0)
      {
        guint8 *w = a->data + 4 * (i >> 5);
        guint32 bit = 1u << (i & 31);
        w[0] |= bit >> 24, w[1] |= (bit >> 16) & 0xFF, w[2] |= (bit >> 8) & 0xFF,
            w[3] |= bit & 0xFF;
      }
  p->kbytes = a;
  p->error = 0;
}

static TressBfresCurveType
type_for_interp (TressBfresCurveType current, TressInterp interp, gboolean *ok)
{
  *ok = TRUE;
  if (bfres_curve_type_is_float (current))
    {
      if (interp == TRESS_INTERP_HERMITE)
        return TRESS_BFRES_CURVE_CUBIC;
      if (interp == TRESS_INTERP_LINEAR)
        return TRESS_BFRES_CURVE_LINEAR;
      if (interp == TRESS_INTERP_BAKED)
        return TRESS_BFRES_CURVE_BAKED_FLOAT;
    }
  else if (bfres_curve_type_is_bool (current))
    {
      if (interp == TRESS_INTERP_STEP)
        return TRESS_BFRES_CURVE_STEP_BOOL;
      if (interp == TRESS_INTERP_BAKED)
        return TRESS_BFRES_CURVE_BAKED_BOOL;
    }
  else
    {
      if (interp == TRESS_INTERP_STEP)
        return TRESS_BFRES_CURVE_STEP_INT;
      if (interp == TRESS_INTERP_BAKED)
        return TRESS_BFRES_CURVE_BAKED_INT;
    }
  *ok = FALSE;
  return current;
}

static gboolean
same_family (TressBfresCurveType a, TressBfresCurveType b)
{
  if (bfres_curve_type_is_float (a) || bfres_curve_type_is_float (b))
    return bfres_curve_type_is_float (a) && bfres_curve_type_is_float (b);
  return bfres_curve_type_is_bool (a) == bfres_curve_type_is_bool (b);
}

/* Writes @bytes at the array whose offset field is @field_pos: in place when it
 * fits the old space (zeroing the rest), else appended 4-aligned and re-pointed. */
static void
place_array (TressBfres *b, gsize field_pos, gsize *pos, gsize *cap, GByteArray *bytes)
{
  if (*cap > 0 && bytes->len <= *cap)
    {
      guint8 *w = bfres_writable (b);
      memcpy (w + *pos, bytes->data, bytes->len);
      memset (w + *pos + bytes->len, 0, *cap - bytes->len);
    }
  else
    {
      gsize len = b->size, at = (len + 3) & ~(gsize)3;
      bfres_writable (b);
      g_byte_array_set_size (b->data, at);
      memset (b->data->data + len, 0, at - len);
      g_byte_array_append (b->data, bytes->data, bytes->len);
      bfres_sync (b);
      *pos = at;
      *cap = bytes->len;
    }
  bfres_put_u32 (b, field_pos, (guint32)(gint32)((gint64)*pos - (gint64)field_pos));
}

gsize
bfres_growth (TressBfres *b, guint index, gsize frames_len, gsize keys_len)
{
  BfresCurve *c = bfres_curve (b, index);
  gsize size = b->size;

  /* As place_array does it: the frames first, then the keys. */
  if (!(c->frames_cap > 0 && frames_len <= c->frames_cap))
    size = ((size + 3) & ~(gsize)3) + frames_len;
  if (!(c->keys_cap > 0 && keys_len <= c->keys_cap))
    size = ((size + 3) & ~(gsize)3) + keys_len;
  return size - b->size;
}

gboolean
bfres_widening_step (TressBfres *b, guint index, TressBfresKeyType kt, double *step)
{
  BfresCurve *c = bfres_curve (b, index);
  g_autoptr (TressCurve) stored = NULL;
  g_autofree guint32 *lineage = NULL;
  FloatPlan fp = { 0 };
  double fo = 0;
  gboolean ok;

  if (!bfres_curve_type_is_float (bfres_curve_type (c)) || c->n_keys == 0)
    return FALSE;
  stored = bfres_get_curve (b, index);
  lineage = g_new0 (guint32, c->n_keys);
  float_plan_build (b, index, stored, bfres_curve_type (c), &fp, lineage);
  ok = float_scale_for (&fp, kt, step, &fo);
  g_free (fp.k);
  return ok;
}

/* Encodes @curve for curve @index; writes it only when @store (else only
 * *max_error is computed: a preview of set_curve). */
static gboolean
bfres_encode_curve (TressBfres *b, guint index, const TressCurve *curve, int want_type,
                    int min_frame_type, int min_key_type, gboolean store, BfresEncodeResult *res,
                    GError **error)
{
  BfresCurve *c = bfres_curve (b, index);
  BfresAnim *a = bfres_anim (b, c->anim);
  TressBfresCurveType old_ct = bfres_curve_type (c), ct = old_ct;
  TressBfresKeyType old_kt = bfres_curve_key_type (c);
  guint n = tress_curve_get_n_keys (curve);
  Plan p = { 0 };
  gboolean ok = FALSE;
  gsize hs = b->curve_header_size, old_len = b->size;
  float old_start = c->start, old_end = c->end;
  double old_first = 0, old_last = 0;
  gboolean old_ends_known = FALSE;
  guint32 baked;

  if (n == 0)
    {
      g_set_error (
          error, TRESS_ERROR, TRESS_ERROR_REFUSED,
          "%s: a BFRES curve needs at least one key (removing whole curves is not supported)",
          c->path);
      return FALSE;
    }
  if (n > 0xFFFF)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "%s: %u keys do not fit the 16-bit key count", c->path, n);
      return FALSE;
    }
  /* Values the file cannot hold, whoever asks (the editors check the limits
   * first; this keeps the encoder itself safe). */
  for (guint i = 0; i < n; i++)
    {
      const TressKey *k = tress_curve_get_key (curve, i);

      if (bfres_curve_type_is_float (old_ct)
          && !(fabs (k->value) <= G_MAXFLOAT && fabs (k->in_slope) <= G_MAXFLOAT
               && fabs (k->out_slope) <= G_MAXFLOAT))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "%s: key %u (value %g) is beyond what a 32-bit float holds", c->path, i,
                       k->value);
          return FALSE;
        }
      if (a->textures != NULL && a->n_textures > 0 && !bfres_curve_type_is_float (old_ct)
          && !bfres_curve_type_is_bool (old_ct) && (k->value < 0 || k->value >= a->n_textures))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "%s: key %u picks texture %g, but the animation has %u (0 to %u)", c->path,
                       i, k->value, a->n_textures, a->n_textures - 1);
          return FALSE;
        }
    }

  /* The curve type: asked for, or from the keys' (uniform) interpolation. */
  if (want_type >= 0)
    {
      ct = want_type;
      if (ct == 3 || ct > 7 || !same_family (ct, old_ct))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "%s: a %s curve cannot become %s (only types of the same family)", c->path,
                       tress_bfres_curve_type_to_string (old_ct),
                       tress_bfres_curve_type_to_string (ct));
          return FALSE;
        }
    }
  else if (n > 1)
    {
      TressInterp interp = tress_curve_get_key (curve, 0)->interp;
      gboolean family_ok;
      for (guint i = 1; i + 1 < n; i++)
        if (tress_curve_get_key (curve, i)->interp != interp)
          {
            g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                         "%s: every segment of a BFRES curve uses the same interpolation (key %u "
                         "differs from key 0)",
                         c->path, i);
            return FALSE;
          }
      ct = type_for_interp (old_ct, interp, &family_ok);
      if (!family_ok)
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "%s: a %s curve cannot hold %s segments", c->path,
                       tress_bfres_curve_type_to_string (old_ct), tress_interp_to_string (interp));
          return FALSE;
        }
    }

  p.ct = ct;
  p.n = n;
  p.frames = g_new (double, n);
  p.keyv = g_new (double, n);
  p.notice = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    {
      const TressKey *k = tress_curve_get_key (curve, i);
      p.frames[i] = k->frame;
      p.keyv[i] = k->value;
      if (!isfinite (k->frame) || !isfinite (k->value) || !isfinite (k->in_slope)
          || !isfinite (k->out_slope))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, "%s: key %u is not a finite number",
                       c->path, i);
          goto out;
        }
      if (i > 0 && !(p.frames[i] > p.frames[i - 1]))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "%s: key %u (frame %g) is not after key %u (frame %g)", c->path, i,
                       p.frames[i], i - 1, p.frames[i - 1]);
          goto out;
        }
      if (!bfres_curve_type_is_float (ct))
        {
          p.keyv[i] = bfres_curve_type_is_bool (ct) ? (k->value != 0) : round (k->value);
          if (!bfres_curve_type_is_bool (ct) && (p.keyv[i] < G_MININT32 || p.keyv[i] > G_MAXINT32))
            {
              g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                           "%s: key %u value %g does not fit a 32-bit integer", c->path, i,
                           k->value);
              goto out;
            }
        }
    }
  if (a->frame_count > 0 && p.frames[n - 1] > a->frame_count)
    {
      g_autofree char *name = tress_bfres_dup_anim_spec (b, c->anim);
      g_autofree char *name_q = g_shell_quote (name);
      g_autofree char *base = g_path_get_basename (b->filename ? b->filename : "FILE");
      g_autofree char *file_q = g_shell_quote (base);

      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "%s: key %u at frame %g is past the end of \"%s\" (%d frames); raise the "
                   "animation's frame count first (tress-cli bfres-set-frame-count %s %s "
                   "%g -o OUT)",
                   c->path, n - 1, p.frames[n - 1], name, a->frame_count, file_q, name_q,
                   ceil (p.frames[n - 1]));
      goto out;
    }
  if (ct == TRESS_BFRES_CURVE_BAKED_FLOAT || ct == TRESS_BFRES_CURVE_BAKED_INT
      || ct == TRESS_BFRES_CURVE_BAKED_BOOL)
    for (guint i = 0; i < n; i++)
      if (p.frames[i] != floor (p.frames[i]) || (i > 0 && p.frames[i] != p.frames[i - 1] + 1))
        {
          g_set_error (
              error, TRESS_ERROR, TRESS_ERROR_REFUSED,
              "%s: a baked curve needs one key on every whole frame (key %u is at frame %g)",
              c->path, i, p.frames[i]);
          goto out;
        }

  /* Frame type: at least as wide as asked, widened until every frame fits
   * (a frame the stored type cannot hold at all: the editor asks first). */
  p.ft = bfres_curve_frame_type (c);
  if (min_frame_type >= 0 && min_frame_type < (int)p.ft)
    p.ft = min_frame_type;
  while (p.ft > TRESS_BFRES_FRAME_F32 && !frames_fit (&p, p.ft))
    p.ft--;
  if (p.ft != bfres_curve_frame_type (c))
    notice_add (p.notice, "%s: %s frames widened to %s", c->path,
                tress_bfres_frame_type_to_string (bfres_curve_frame_type (c)),
                tress_bfres_frame_type_to_string (p.ft));
  /* f32 frames round: accepted, and counted in the error below. */
  encode_frames (&p);

  /* Keys. */
  p.kt = old_kt;
  if (min_key_type >= 0 && min_key_type < (int)p.kt)
    p.kt = min_key_type;
  p.scale_bits = c->scale_bits;
  p.offset_bits = c->offset_bits;
  if (bfres_curve_type_is_float (ct))
    {
      FloatPlan fp = { 0 };

      p.lineage = g_new0 (guint32, n);
      float_plan_build (b, index, curve, ct, &fp, p.lineage);
      encode_float_curve (&p, &fp, c->path, min_key_type, b->tolerance);
      g_free (fp.k);
    }
  else if (bfres_curve_type_is_bool (ct))
    encode_bool_keys (&p);
  else
    {
      TressBfresKeyType kt = p.kt;
      while (!encode_int_keys (&p, kt, (gint32)c->offset_bits))
        kt--;
    }
  if (p.ft == TRESS_BFRES_FRAME_F32)
    for (guint i = 0; i < n; i++)
      p.error = MAX (p.error, fabs ((double)(float)p.frames[i] - p.frames[i]));

  if (res != NULL)
    *res = (BfresEncodeResult){ .error = p.error,
                                .moved = p.moved,
                                .step_before = p.step_before,
                                .step_after = p.step_after,
                                .key_type = p.kt,
                                .growth = bfres_growth (b, index, p.fbytes->len, p.kbytes->len) };
  if (!store)
    {
      ok = TRUE;
      goto out;
    }

  if (c->n_keys > 0 && hs >= 0x24)
    {
      g_autoptr (TressCurve) before = bfres_get_curve (b, index);

      old_first = tress_curve_get_key (before, 0)->value;
      old_last = tress_curve_get_key (before, tress_curve_get_n_keys (before) - 1)->value;
      old_ends_known = TRUE;
    }
  /* Write: arrays, then the header, the animation's baked size, the file size. */
  place_array (b, c->pos + hs - 8, &c->frames_pos, &c->frames_cap, p.fbytes);
  place_array (b, c->pos + hs - 4, &c->keys_pos, &c->keys_cap, p.kbytes);
  /* Arrays over other data were appended, not written there: no longer over it. */
  for (guint i = b->clashes->len; i-- > 0;)
    if (g_array_index (b->clashes, BfresClash, i).curve == index)
      g_array_remove_index (b->clashes, i);
  c->flags = (c->flags & ~0x7F) | (guint16)(p.ct << 4) | (guint16)(p.kt << 2) | (guint16)p.ft;
  bfres_put_u16 (b, c->pos, c->flags);
  bfres_put_u16 (b, c->pos + 2, (guint16)n);
  bfres_put_f32 (b, c->pos + 8, (float)p.frames[0]);
  bfres_put_f32 (b, c->pos + 12, (float)p.frames[n - 1]);
  bfres_put_u32 (b, c->pos + 16, p.scale_bits);
  bfres_put_u32 (b, c->pos + 20, p.offset_bits);
  bfres_curve_reload (b, index);
  /* The value change over the curve, from the values the file now holds; the
   * stored one is kept while both end values are (some files hold one worked
   * out before quantization, a few steps off the keys). */
  if (hs >= 0x24)
    {
      g_autoptr (TressCurve) now = bfres_get_curve (b, index);
      double first = tress_curve_get_key (now, 0)->value;
      double last = tress_curve_get_key (now, tress_curve_get_n_keys (now) - 1)->value;

      if (!(old_ends_known && first == old_first && last == old_last))
        {
          bfres_put_f32 (b, c->pos + 24, (float)(last - first));
          bfres_curve_reload (b, index);
        }
    }

  baked = bfres_get_u32 (b, a->baked_size_pos);
  baked = baked - bfres_baked_contribution (old_ct, old_kt, old_start, old_end)
          + bfres_baked_contribution (p.ct, p.kt, c->start, c->end);
  bfres_put_u32 (b, a->baked_size_pos, baked);
  if (b->size != old_len)
    {
      bfres_put_u32 (b, 0x0C, (guint32)b->size);
      notice_add (p.notice, "the file grows by %" G_GSIZE_FORMAT " bytes", b->size - old_len);
    }
  if (p.lineage != NULL)
    g_hash_table_insert (b->lineage, GUINT_TO_POINTER (index), g_steal_pointer (&p.lineage));
  else
    g_hash_table_remove (b->lineage, GUINT_TO_POINTER (index));
  g_free (b->notice);
  b->notice = p.notice->len > 0 ? g_strdup (p.notice->str) : NULL;

  ok = TRUE;

out:
  g_free (p.frames);
  g_free (p.keyv);
  g_free (p.lineage);
  if (p.notice)
    g_string_free (p.notice, TRUE);
  if (p.fbytes)
    g_byte_array_unref (p.fbytes);
  if (p.kbytes)
    g_byte_array_unref (p.kbytes);
  return ok;
}

gboolean
bfres_set_curve (TressBfres *b, guint index, const TressCurve *curve, int want_type,
                 int min_frame_type, int min_key_type, double *max_error, GError **error)
{
  BfresEncodeResult res;

  if (!bfres_encode_curve (b, index, curve, want_type, min_frame_type, min_key_type, TRUE, &res,
                           error))
    return FALSE;
  if (max_error)
    *max_error = res.error;
  return TRUE;
}

gboolean
bfres_preview_curve (TressBfres *b, guint index, const TressCurve *curve, int min_key_type,
                     BfresEncodeResult *res, GError **error)
{
  return bfres_encode_curve (b, index, curve, -1, -1, min_key_type, FALSE, res, error);
}

/* ---- exact undo state ------------------------------------------------------ */

#define STATE_MAGIC 0x42535431u /* "BST1" */
#define STATE_LINEAGE G_MAXUINT64

static void
state_put (GByteArray *s, const void *p, gsize n)
{
  g_byte_array_append (s, p, n);
}

static void
state_patch (GByteArray *s, TressBfres *b, gsize pos, gsize len)
{
  guint64 p64 = pos;
  guint32 l32 = (guint32)len;
  if (pos > b->size || len > b->size - pos)
    return;
  state_put (s, &p64, 8);
  state_put (s, &l32, 4);
  state_put (s, b->d + pos, len);
}

GBytes *
bfres_save_state (TressBfres *b, guint index)
{
  BfresCurve *c = bfres_curve (b, index);
  BfresAnim *a = bfres_anim (b, c->anim);
  GByteArray *s = g_byte_array_new ();
  guint32 magic = STATE_MAGIC, idx = index;
  guint64 len = b->size, fcap = c->frames_cap, kcap = c->keys_cap;

  state_put (s, &magic, 4);
  state_put (s, &idx, 4);
  state_put (s, &len, 8);
  state_put (s, &fcap, 8);
  state_put (s, &kcap, 8);
  state_patch (s, b, 0x0C, 4);
  state_patch (s, b, a->baked_size_pos, 4);
  state_patch (s, b, a->frame_count_pos, a->frame_count_size);
  state_patch (s, b, c->pos, b->curve_header_size);
  if (c->frames_cap)
    state_patch (s, b, c->frames_pos, c->frames_cap);
  if (c->keys_cap)
    state_patch (s, b, c->keys_pos, c->keys_cap);
  {
    const guint32 *lineage = g_hash_table_lookup (b->lineage, GUINT_TO_POINTER (index));

    /* The keys' lineage, as a patch at no position. */
    if (lineage != NULL)
      {
        guint64 none = STATE_LINEAGE;
        guint32 l32 = (guint32)c->n_keys * 4;

        state_put (s, &none, 8);
        state_put (s, &l32, 4);
        state_put (s, lineage, l32);
      }
  }
  return g_byte_array_free_to_bytes (s);
}

void
bfres_restore_state (TressBfres *b, guint index, GBytes *state)
{
  gsize size;
  const guint8 *s = g_bytes_get_data (state, &size);
  guint32 magic, idx;
  guint64 len, fcap, kcap;
  gsize pos = 32, lineage_at = 0;
  guint lineage_len = 0;
  BfresCurve *c = bfres_curve (b, index);

  if (size < 32)
    return;
  memcpy (&magic, s, 4);
  memcpy (&idx, s + 4, 4);
  memcpy (&len, s + 8, 8);
  memcpy (&fcap, s + 16, 8);
  memcpy (&kcap, s + 24, 8);
  g_return_if_fail (magic == STATE_MAGIC && idx == index);

  bfres_writable (b);
  if (len > b->size)
    {
      gsize old = b->size;
      g_byte_array_set_size (b->data, len);
      memset (b->data->data + old, 0, len - old);
    }
  else
    g_byte_array_set_size (b->data, len);
  bfres_sync (b);
  g_hash_table_remove (b->lineage, GUINT_TO_POINTER (index));
  while (pos + 12 <= size)
    {
      guint64 p;
      guint32 l;
      memcpy (&p, s + pos, 8);
      memcpy (&l, s + pos + 8, 4);
      pos += 12;
      if (l > size - pos)
        break;
      if (p == STATE_LINEAGE)
        lineage_len = l / 4, lineage_at = pos;
      else if (p <= b->size && l <= b->size - p)
        memcpy (b->data->data + p, s + pos, l); /* writable since the resize above */
      else
        break;
      pos += l;
    }
  bfres_curve_reload (b, index);
  c->frames_cap = fcap;
  c->keys_cap = kcap;
  if (lineage_len > 0 && lineage_len == c->n_keys)
    g_hash_table_insert (b->lineage, GUINT_TO_POINTER (index),
                         g_memdup2 (s + lineage_at, (gsize)lineage_len * 4));
}
