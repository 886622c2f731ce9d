/* tress-bfres-skeletal.c: rewriting the bone animations of one FSKA
 *
 * The FRES gets, appended (4-aligned), the new bind indices, BoneAnim
 * array, base values, curve headers and names, and the FSKA header is
 * re-pointed to them. Those bytes are parsed where they lie, and every curve
 * is filled through the encoder edits use (bfres_set_curve), in the file's
 * precision: a component that had a curve starts from its old header and
 * arrays, so that what does not change keeps its bytes (the arrays are
 * rewritten where they stand when they fit, else appended). A batch works on
 * one copy of the file, each animation appended to what the one before left;
 * the result is parsed once more into the model, whose containers stay
 * (tress-bfres-adopt.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-bfres-skeletal.h"

#include <math.h>
#include <string.h>

#include "tress-bfres-private.h"

#define BONE_ANIM_SIZE 0x18
/* A longer name is shown cut by the parser (a damaged offset): refused. */
#define BONE_NAME_MAX 1024
#define N_SLOTS 10
/* What every BoneAnim of the samples holds (BfresLibrary writes the same). */
#define BEGIN_ROTATE 3
#define BEGIN_TRANSLATE 6
#define BEGIN_BASE_TRANSLATE 7
#define BONE_ANIM_BASE_ALL                                                                         \
  (TRESS_BFRES_BONE_ANIM_BASE_SCALE | TRESS_BFRES_BONE_ANIM_BASE_ROTATE                            \
   | TRESS_BFRES_BONE_ANIM_BASE_TRANSLATE)
#define BONE_ANIM_HINTS                                                                            \
  (TRESS_BFRES_BONE_ANIM_SCALE_UNIFORM | TRESS_BFRES_BONE_ANIM_SCALE_VOLUME_ONE                    \
   | TRESS_BFRES_BONE_ANIM_ROTATE_ZERO | TRESS_BFRES_BONE_ANIM_TRANSLATE_ZERO)

/* The components in the order of their BoneAnim flag bits (6 … 15): the
 * order of a bone's curves in real files, and of its base values. */
static const TressBfresChannel slot_channel[N_SLOTS] = {
  TRESS_BFRES_CHANNEL_SCALE_X,     TRESS_BFRES_CHANNEL_SCALE_Y,     TRESS_BFRES_CHANNEL_SCALE_Z,
  TRESS_BFRES_CHANNEL_ROTATE_X,    TRESS_BFRES_CHANNEL_ROTATE_Y,    TRESS_BFRES_CHANNEL_ROTATE_Z,
  TRESS_BFRES_CHANNEL_ROTATE_W,    TRESS_BFRES_CHANNEL_TRANSLATE_X, TRESS_BFRES_CHANNEL_TRANSLATE_Y,
  TRESS_BFRES_CHANNEL_TRANSLATE_Z,
};

static guint32
channel_target (TressBfresChannel ch)
{
  if (ch <= TRESS_BFRES_CHANNEL_SCALE_Z)
    return 0x04 + 4 * (guint32)(ch - TRESS_BFRES_CHANNEL_SCALE_X);
  if (ch <= TRESS_BFRES_CHANNEL_TRANSLATE_Z)
    return 0x10 + 4 * (guint32)(ch - TRESS_BFRES_CHANNEL_TRANSLATE_X);
  return 0x20 + 4 * (guint32)(ch - TRESS_BFRES_CHANNEL_ROTATE_X);
}

static const char *
channel_label (TressBfresChannel ch)
{
  static const char *const labels[TRESS_BFRES_N_CHANNELS]
      = { "Scale X",     "Scale Y",  "Scale Z",  "Translate X", "Translate Y",
          "Translate Z", "Rotate X", "Rotate Y", "Rotate Z",    "Rotate W" };

  return labels[ch];
}

/* 0 scale, 1 translation, 2 rotation. */
static guint
channel_group (TressBfresChannel ch)
{
  return ch <= TRESS_BFRES_CHANNEL_SCALE_Z ? 0 : ch <= TRESS_BFRES_CHANNEL_TRANSLATE_Z ? 1 : 2;
}

typedef struct
{
  TressBfresChannel channel;
  const TressCurve *curve;
  TressBfresCurveType ct;
  TressBfresFrameType ft; /* the types the curve starts from */
  TressBfresKeyType kt;
  gsize old_header;              /* the component's old curve header, or 0 */
  guint32 old_scale, old_offset; /* its scale and offset fields, as they were */
  gsize header;                  /* in the new bytes */
} PlanCurve;

typedef struct
{
  const TressBfresBoneAnimSpec *spec;
  guint32 flags;
  gsize name; /* where the name's characters are; 0: to be appended */
  guint16 bind;
  guint n_curves;
  PlanCurve curves[N_SLOTS];
  gsize pos, base, headers;
} PlanBone;

typedef struct
{
  TressBfres *b;
  const BfresAnim *a;
  TressBfresSkeletalAnim *fska; /* as read now, from @anims */
  TressBfresAnims *anims;
  TressBfresModels *models; /* NULL when the file's models cannot be read */
  gboolean euler;
  /* Frame and key types used by the animation's curves: [group][type] for
   * scale, translation, rotation, then [3] all of them; [4] the file's
   * skeletal curves. */
  guint ft_count[5][3], kt_count[5][3];
  PlanBone *bones;
  guint n_bones, n_curves;
} Plan;

static void
plan_clear (Plan *p)
{
  g_clear_pointer (&p->anims, tress_bfres_anims_free);
  g_clear_pointer (&p->models, tress_bfres_models_free);
  g_clear_pointer (&p->bones, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Plan, plan_clear)

/* ---- checking the request ----------------------------------------------------- */

static TressBfresCurveType
curve_type_of (TressInterp interp, gboolean *ok)
{
  *ok = TRUE;
  switch (interp)
    {
    case TRESS_INTERP_HERMITE:
      return TRESS_BFRES_CURVE_CUBIC;
    case TRESS_INTERP_LINEAR:
      return TRESS_BFRES_CURVE_LINEAR;
    case TRESS_INTERP_BAKED:
      return TRESS_BFRES_CURVE_BAKED_FLOAT;
    default:
      *ok = FALSE;
      return TRESS_BFRES_CURVE_CUBIC;
    }
}

static gboolean
float_fits (double v)
{
  return fabs (v) <= G_MAXFLOAT;
}

/* The curve's keys as the format can hold them; *ct its curve type. */
static gboolean
check_curve (const char *bone, TressBfresChannel ch, const TressCurve *curve, int frame_count,
             gboolean euler, TressBfresCurveType *ct, GError **error)
{
  guint n = tress_curve_get_n_keys (curve);
  const char *label = channel_label (ch);
  gboolean ok;

  if (ch == TRESS_BFRES_CHANNEL_ROTATE_W && euler)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "Bone \"%s\" Rotate W: an Euler XYZ animation has no Rotate W curve (only "
                   "quaternion animations do)",
                   bone);
      return FALSE;
    }
  if (n == 0 || n > 0xFFFF)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   n == 0 ? "Bone \"%s\" %s: the curve has no keys (a component that stays at its "
                            "base value has no curve)"
                          : "Bone \"%s\" %s: %u keys do not fit the 16-bit key count",
                   bone, label, n);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      const TressKey *k = tress_curve_get_key (curve, i);

      if (!(isfinite (k->frame) && float_fits (k->value) && float_fits (k->in_slope)
            && float_fits (k->out_slope) && isfinite (k->in_gap)
            && float_fits (tress_key_in_value (k))))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "Bone \"%s\" %s: key %u (frame %g, value %g, slopes %g %g) is not a number "
                       "a 32-bit float holds",
                       bone, label, i, k->frame, k->value, k->in_slope, k->out_slope);
          return FALSE;
        }
      if (k->frame < 0 || k->frame > frame_count)
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "Bone \"%s\" %s: key %u at frame %g lies outside the animation's frames "
                       "(0 to %d)",
                       bone, label, i, k->frame, frame_count);
          return FALSE;
        }
      if (i > 0 && !(k->frame > tress_curve_get_key (curve, i - 1)->frame))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "Bone \"%s\" %s: key %u (frame %g) is not after key %u (frame %g)", bone,
                       label, i, k->frame, i - 1, tress_curve_get_key (curve, i - 1)->frame);
          return FALSE;
        }
      /* Every segment of a curve has the same kind (the last key starts none). */
      if (i > 0 && i + 1 < n && k->interp != tress_curve_get_key (curve, 0)->interp)
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "Bone \"%s\" %s: key %u is %s, key 0 %s: a BFRES curve's segments are all "
                       "of one kind",
                       bone, label, i, tress_interp_to_string (k->interp),
                       tress_interp_to_string (tress_curve_get_key (curve, 0)->interp));
          return FALSE;
        }
    }
  *ct = curve_type_of (tress_curve_get_key (curve, 0)->interp, &ok);
  if (!ok)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "Bone \"%s\" %s: %s keys: a bone curve is Cubic (Hermite keys), Linear or "
                   "BakedFloat",
                   bone, label, tress_interp_to_string (tress_curve_get_key (curve, 0)->interp));
      return FALSE;
    }
  return TRUE;
}

static gboolean
check_request (const TressBfresBoneAnimSpec *bones, guint n_bones, int frame_count,
               double tolerance, gboolean euler, GError **error)
{
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);

  if (frame_count < 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "A frame count of %d: an animation has 0 frames or more", frame_count);
      return FALSE;
    }
  if (!(tolerance >= 0) || !isfinite (tolerance))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "A tolerance of %g: it is 0 (keep the types) or a positive number", tolerance);
      return FALSE;
    }
  if (n_bones > 0xFFFF)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "%u bone animations do not fit the FSKA's 16-bit count (65,535 at most)",
                   n_bones);
      return FALSE;
    }
  for (guint i = 0; i < n_bones; i++)
    {
      const TressBfresBoneAnimSpec *s = &bones[i];
      BfresShownName buf;
      const char *shown;

      if (!bfres_name_ok (s->bone, BONE_NAME_MAX))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "Bone animation %u: a bone name is UTF-8 text of 1 to %d bytes without "
                       "control characters",
                       i, BONE_NAME_MAX);
          return FALSE;
        }
      shown = bfres_shown_name (s->bone, buf);
      if (g_hash_table_contains (names, s->bone))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "Bone \"%s\" is given twice (bone animations %u and %u): a bone has one "
                       "animation",
                       shown, GPOINTER_TO_UINT (g_hash_table_lookup (names, s->bone)) - 1, i);
          return FALSE;
        }
      g_hash_table_insert (names, (gpointer)s->bone, GUINT_TO_POINTER (i + 1));
      for (guint c = 0; c < TRESS_BFRES_N_CHANNELS; c++)
        {
          TressBfresCurveType ct;

          if (!float_fits (s->base[c]))
            {
              g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                           "Bone \"%s\" %s: base value %g is not a number a 32-bit float holds",
                           shown, channel_label (c), s->base[c]);
              return FALSE;
            }
          if (s->curves[c] != NULL
              && !check_curve (shown, c, s->curves[c], frame_count, euler, &ct, error))
            return FALSE;
          if (s->curves[c] != NULL && s->bind_translation && channel_group (c) == 1)
            {
              g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                           "Bone \"%s\" %s: a translation taken from the bind pose has no curve",
                           shown, channel_label (c));
              return FALSE;
            }
        }
    }
  return TRUE;
}

/* ---- planning ---------------------------------------------------------------------- */

/* The most used type code (0-2) of @count, the wider (smaller code) on a
 * tie, or -1 when none is used. */
static int
most_used (const guint count[3])
{
  int best = -1;

  for (int t = 0; t < 3; t++)
    if (count[t] > 0 && (best < 0 || count[t] > count[best]))
      best = t;
  return best;
}

static void
count_types (Plan *p)
{
  TressBfres *b = p->b;

  for (guint ai = 0; ai < b->anims->len; ai++)
    {
      const BfresAnim *a = bfres_anim (b, ai);

      if (a->group != 2)
        continue;
      for (guint k = 0; k < a->n_curves; k++)
        {
          const BfresCurve *c = bfres_curve (b, a->first_curve + k);
          TressBfresChannel ch = tress_bfres_channel_from_target (c->target);
          TressBfresFrameType ft = bfres_curve_frame_type (c);
          TressBfresKeyType kt = bfres_curve_key_type (c);

          if (!bfres_curve_type_is_float (bfres_curve_type (c)) || ch == TRESS_BFRES_CHANNEL_NONE)
            continue;
          p->ft_count[4][ft]++, p->kt_count[4][kt]++;
          if (a != p->a)
            continue;
          p->ft_count[3][ft]++, p->kt_count[3][kt]++;
          p->ft_count[channel_group (ch)][ft]++, p->kt_count[channel_group (ch)][kt]++;
        }
    }
}

/* The types a new curve of group @g starts from. */
static void
new_curve_types (const Plan *p, guint g, TressBfresFrameType *ft, TressBfresKeyType *kt)
{
  const guint levels[3] = { g, 3, 4 };
  int f = -1, k = -1;

  for (guint i = 0; i < 3 && f < 0; i++)
    f = most_used (p->ft_count[levels[i]]);
  for (guint i = 0; i < 3 && k < 0; i++)
    k = most_used (p->kt_count[levels[i]]);
  *ft = f >= 0 ? (TressBfresFrameType)f : TRESS_BFRES_FRAME_U8;
  *kt = k >= 0 ? (TressBfresKeyType)k : TRESS_BFRES_KEY_S16;
}

/* Where the name field at @field points, or 0. */
static gsize
name_target (const TressBfres *b, gsize field)
{
  gint32 rel = (gint32)bfres_get_u32 (b, field);
  gint64 at = (gint64)field + rel;

  return rel != 0 && at >= 4 && at < (gint64)b->size ? (gsize)at : 0;
}

/* Bit 23 of a new BoneAnim: the bone's own in a skeleton of the file, else
 * its BoneAnim's in another skeletal animation, else 0. */
static guint32
segment_scale_compensate (const Plan *p, const char *bone)
{
  for (guint m = 0; p->models != NULL && m < p->models->n_models; m++)
    {
      const TressBfresSkeleton *sk = &p->models->models[m].skeleton;
      int i = tress_bfres_skeleton_find_bone (sk, bone);

      if (i >= 0)
        return sk->bones[i].flags & TRESS_BFRES_BONE_ANIM_SEGMENT_SCALE_COMPENSATE;
    }
  for (guint s = 0; s < p->anims->n_skeletal; s++)
    for (guint i = 0; &p->anims->skeletal[s] != p->fska && i < p->anims->skeletal[s].n_bone_anims;
         i++)
      if (strcmp (p->anims->skeletal[s].bone_anims[i].name, bone) == 0)
        return p->anims->skeletal[s].bone_anims[i].flags
               & TRESS_BFRES_BONE_ANIM_SEGMENT_SCALE_COMPENSATE;
  return 0;
}

/* Bits 24-27 from the bone's curves and base values. */
static guint32
hint_flags (const TressBfresBoneAnimSpec *s, gboolean euler)
{
  const float *v = s->base;
  guint32 h = 0;
  gboolean sc = FALSE, rc = FALSE, tc = FALSE;

  for (guint c = 0; c < TRESS_BFRES_N_CHANNELS; c++)
    {
      if (s->curves[c] == NULL)
        continue;
      if (channel_group (c) == 0)
        sc = TRUE;
      else if (channel_group (c) == 1)
        tc = TRUE;
      else
        rc = TRUE;
    }
  if (!sc && v[TRESS_BFRES_CHANNEL_SCALE_X] == v[TRESS_BFRES_CHANNEL_SCALE_Y]
      && v[TRESS_BFRES_CHANNEL_SCALE_Y] == v[TRESS_BFRES_CHANNEL_SCALE_Z])
    h |= TRESS_BFRES_BONE_ANIM_SCALE_UNIFORM;
  if (!sc
      && v[TRESS_BFRES_CHANNEL_SCALE_X] * v[TRESS_BFRES_CHANNEL_SCALE_Y]
                 * v[TRESS_BFRES_CHANNEL_SCALE_Z]
             == 1.0f)
    h |= TRESS_BFRES_BONE_ANIM_SCALE_VOLUME_ONE;
  if (!rc && v[TRESS_BFRES_CHANNEL_ROTATE_X] == 0 && v[TRESS_BFRES_CHANNEL_ROTATE_Y] == 0
      && v[TRESS_BFRES_CHANNEL_ROTATE_Z] == 0 && (euler || v[TRESS_BFRES_CHANNEL_ROTATE_W] == 1))
    h |= TRESS_BFRES_BONE_ANIM_ROTATE_ZERO;
  if (!tc && !s->bind_translation && v[TRESS_BFRES_CHANNEL_TRANSLATE_X] == 0
      && v[TRESS_BFRES_CHANNEL_TRANSLATE_Y] == 0 && v[TRESS_BFRES_CHANNEL_TRANSLATE_Z] == 0)
    h |= TRESS_BFRES_BONE_ANIM_TRANSLATE_ZERO;
  return h;
}

static void
plan_bone (Plan *p, GHashTable *old_bones, const TressBfresBoneAnimSpec *s, PlanBone *pb)
{
  TressBfres *b = p->b;
  const TressBfresBoneAnim *old = g_hash_table_lookup (old_bones, s->bone);
  gsize bind_at = 0;
  guint32 flags;

  pb->spec = s;
  pb->bind = 0xFFFF;
  if (old != NULL)
    {
      gint32 rel = (gint32)bfres_get_u32 (b, p->fska->pos + 0x28);
      guint index = (guint)(old - p->fska->bone_anims);

      pb->name = name_target (b, old->pos + 4);
      flags = old->flags & ~(BONE_ANIM_BASE_ALL | TRESS_BFRES_BONE_ANIM_CURVES | BONE_ANIM_HINTS);
      if (rel != 0)
        bind_at = (gsize)((gint64)p->fska->pos + 0x28 + rel + 2 * (gint64)index);
      if (rel != 0 && bind_at >= 0x28 && bind_at + 2 <= b->size)
        pb->bind = bfres_get_u16 (b, bind_at);
    }
  else
    flags = segment_scale_compensate (p, s->bone);
  if (pb->name == 0)
    pb->name = bfres_pool_find (b, s->bone);

  flags |= TRESS_BFRES_BONE_ANIM_BASE_SCALE | TRESS_BFRES_BONE_ANIM_BASE_ROTATE;
  if (!s->bind_translation)
    flags |= TRESS_BFRES_BONE_ANIM_BASE_TRANSLATE;
  flags |= hint_flags (s, p->euler);
  for (guint slot = 0; slot < N_SLOTS; slot++)
    {
      TressBfresChannel ch = slot_channel[slot];
      PlanCurve *pc;
      gboolean ok;

      if (s->curves[ch] == NULL)
        continue;
      flags |= 1u << (6 + slot);
      pc = &pb->curves[pb->n_curves++];
      pc->channel = ch;
      pc->curve = s->curves[ch];
      pc->ct = curve_type_of (tress_curve_get_key (pc->curve, 0)->interp, &ok);
      new_curve_types (p, channel_group (ch), &pc->ft, &pc->kt);
      for (guint k = 0; old != NULL && k < old->n_curves; k++)
        {
          gsize h = old->curves[k].header_pos;
          guint16 cf;

          if (old->curves[k].target != channel_target (ch) || h + b->curve_header_size > b->size)
            continue;
          cf = bfres_get_u16 (b, h);
          /* A float curve's header: its types and arrays are where this one
           * starts from. */
          if (bfres_curve_type_is_float ((cf >> 4) & 7) && (cf & 3) != 3 && ((cf >> 2) & 3) != 3)
            {
              pc->old_header = h;
              pc->old_scale = bfres_get_u32 (b, h + 16);
              pc->old_offset = bfres_get_u32 (b, h + 20);
              pc->ft = cf & 3;
              pc->kt = (cf >> 2) & 3;
            }
          break;
        }
    }
  pb->flags = flags;
}

/* ---- the new bytes ------------------------------------------------------------------ */

static void
write_curve_header (const Plan *p, GByteArray *out, const PlanCurve *pc)
{
  gsize hs = p->b->curve_header_size, h = pc->header;
  guint16 wraps = (guint16)((pc->curve->pre_wrap & 3) << 8 | (pc->curve->post_wrap & 3) << 12);
  guint8 *w = out->data + h;

  if (pc->old_header != 0)
    {
      /* The old header (@out holds the file's bytes before what is
       * appended), its arrays where they are. */
      memcpy (w, out->data + pc->old_header, hs);
      for (gsize field = hs - 8; field < hs; field += 4)
        {
          gint32 rel = (gint32)tress_get_u32 (out->data + pc->old_header + field, TRESS_BIG_ENDIAN);

          bfres_put_offset (out, h + field, rel != 0 ? pc->old_header + field + rel : 0);
        }
      tress_put_u16 (w, (tress_get_u16 (w, TRESS_BIG_ENDIAN) & ~0x3300) | wraps, TRESS_BIG_ENDIAN);
      return;
    }
  /* No keys yet: the encoder fills the arrays and the fields. */
  tress_put_u16 (w, (guint16)(pc->ft | pc->kt << 2 | pc->ct << 4) | wraps, TRESS_BIG_ENDIAN);
  tress_put_u32 (w + 4, channel_target (pc->channel), TRESS_BIG_ENDIAN);
  if (pc->kt == TRESS_BFRES_KEY_32)
    tress_put_f32 (w + 16, 1.0f, TRESS_BIG_ENDIAN);
}

/* Appends the new structure to @out (the bytes of p->b, which are not read
 * again: @out may move) and re-points the FSKA; curves not filled yet. */
static void
build_structure (Plan *p, GByteArray *out, int frame_count)
{
  TressBfres *b = p->b;
  gsize hs = b->curve_header_size, fska = p->a->pos, bind = 0, bones = 0;
  guint n = p->n_bones, total = 0;

  g_assert (out->len == b->size);
  if (n > 0)
    {
      bind = bfres_append_zeros (out, (2 * (gsize)n + 3) & ~(gsize)3);
      bones = bfres_append_zeros (out, BONE_ANIM_SIZE * (gsize)n);
    }
  for (guint i = 0; i < n; i++)
    {
      PlanBone *pb = &p->bones[i];
      gsize n_base = pb->spec->bind_translation ? 7 : 10;

      pb->pos = bones + BONE_ANIM_SIZE * (gsize)i;
      pb->base = bfres_append_zeros (out, 4 * n_base);
      pb->headers = pb->n_curves > 0 ? bfres_append_zeros (out, hs * pb->n_curves) : 0;
      for (guint k = 0; k < pb->n_curves; k++)
        pb->curves[k].header = pb->headers + hs * k;
    }
  /* Names the file lacks, in the string pool's form. */
  for (guint i = 0; i < n; i++)
    {
      PlanBone *pb = &p->bones[i];

      if (pb->name == 0)
        pb->name = bfres_append_name (out, pb->spec->bone);
    }

  for (guint i = 0; i < n; i++)
    {
      PlanBone *pb = &p->bones[i];
      const float *v = pb->spec->base;
      guint8 *w = out->data + pb->pos;

      tress_put_u16 (out->data + bind + 2 * (gsize)i, pb->bind, TRESS_BIG_ENDIAN);
      tress_put_u32 (w, pb->flags, TRESS_BIG_ENDIAN);
      bfres_put_offset (out, pb->pos + 4, pb->name);
      w[8] = BEGIN_ROTATE;
      w[9] = BEGIN_TRANSLATE;
      w[10] = (guint8)pb->n_curves;
      w[11] = BEGIN_BASE_TRANSLATE;
      /* beginCurve: little-endian, as the files have it. */
      tress_put_u32 (w + 12, total, TRESS_LITTLE_ENDIAN);
      bfres_put_offset (out, pb->pos + 0x10, pb->headers);
      bfres_put_offset (out, pb->pos + 0x14, pb->base);
      for (guint k = 0; k < (pb->spec->bind_translation ? 7u : 10u); k++)
        tress_put_f32 (out->data + pb->base + 4 * k, v[slot_channel[k]], TRESS_BIG_ENDIAN);
      for (guint k = 0; k < pb->n_curves; k++)
        write_curve_header (p, out, &pb->curves[k]);
      total += pb->n_curves;
    }

  /* FSKA (≥ 3.4): frameCount, boneAnimCount, curveCount; bakedSize once the
   * curves are filled. */
  tress_put_u32 (out->data + fska + 0x10, (guint32)frame_count, TRESS_BIG_ENDIAN);
  tress_put_u16 (out->data + fska + 0x14, (guint16)n, TRESS_BIG_ENDIAN);
  tress_put_u32 (out->data + fska + 0x18, total, TRESS_BIG_ENDIAN);
  bfres_put_offset (out, fska + 0x20, bones);
  bfres_put_offset (out, fska + 0x28, bind);
  tress_put_u32 (out->data + 0x0C, out->len, TRESS_BIG_ENDIAN);
  p->n_curves = total;
}

/* The most the encoder may append for the plan's curves: each curve's
 * frame and key arrays at their widest (32-bit frames, four 32-bit
 * coefficients a key), each 4-aligned. */
static gsize
encoding_bound (const Plan *p)
{
  gsize n = 0;

  for (guint i = 0; i < p->n_bones; i++)
    for (guint k = 0; k < p->bones[i].n_curves; k++)
      n += (gsize)tress_curve_get_n_keys (p->bones[i].curves[k].curve) * (4 + 16) + 8;
  return n;
}

/* ---- filling the curves ------------------------------------------------------------- */

/* The first frame of @curve type @ft cannot hold. */
static double
first_unfit_frame (const TressCurve *curve, TressBfresFrameType ft)
{
  for (guint i = 0; i < tress_curve_get_n_keys (curve); i++)
    {
      double f = tress_curve_get_key (curve, i)->frame;

      if (ft == TRESS_BFRES_FRAME_U8 && (f != floor (f) || f > 255))
        return f;
      if (ft == TRESS_BFRES_FRAME_S10_5 && (f * 32 != floor (f * 32) || f * 32 > 32767))
        return f;
    }
  return 0;
}

/* An old curve kept in its key type may have needed a new scale (a coarser
 * step), or had to give up some of a slope (the encoder says so). */
static void
note_same_type (const PlanCurve *pc, const BfresCurve *c, const char *notice, const char *bone,
                GPtrArray *notes)
{
  guint32 old_scale = pc->old_scale, old_offset = pc->old_offset;

  if (pc->kt != TRESS_BFRES_KEY_32 && (c->scale_bits != old_scale || c->offset_bits != old_offset))
    {
      float step, was;

      memcpy (&step, &c->scale_bits, 4);
      memcpy (&was, &old_scale, 4);
      g_ptr_array_add (notes,
                       g_strdup_printf ("%s %s: %s keys quantized anew (step %.3g, was %.3g)", bone,
                                        channel_label (pc->channel),
                                        tress_bfres_key_type_to_string (pc->kt), step, was));
    }
  if (notice != NULL)
    {
      g_autofree char *text = tress_notice_render (notice, 1, "");
      g_auto (GStrv) parts = g_strsplit (text, "; ", -1);

      for (guint j = 0; parts[j] != NULL; j++)
        if (strstr (parts[j], "slopes moved") != NULL)
          g_ptr_array_add (notes, g_strdup (parts[j]));
    }
}

static gboolean
fill_curves (Plan *p, TressBfres *t, guint anim, double tolerance, GPtrArray *notes, GError **error)
{
  const BfresAnim *a = bfres_anim (t, anim);
  guint idx = a->first_curve;
  guint32 baked = 0;

  if (a->n_curves != p->n_curves)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED,
                   "The rewritten animation reads back with %u curves instead of %u", a->n_curves,
                   p->n_curves);
      return FALSE;
    }
  t->tolerance = tolerance;
  for (guint i = 0; i < p->n_bones; i++)
    for (guint k = 0; k < p->bones[i].n_curves; k++, idx++)
      {
        const PlanCurve *pc = &p->bones[i].curves[k];
        BfresCurve *c = bfres_curve (t, idx);
        BfresShownName buf;
        const char *bone = bfres_shown_name (p->bones[i].spec->bone, buf);

        if (c->pos != pc->header)
          {
            g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED,
                         "%s %s: the new curve header reads back at 0x%" G_GSIZE_MODIFIER
                         "x, not 0x%" G_GSIZE_MODIFIER "x",
                         bone, channel_label (pc->channel), c->pos, pc->header);
            return FALSE;
          }
        g_clear_pointer (&t->notice, g_free);
        if (!bfres_set_curve (t, idx, pc->curve, pc->ct, -1, -1, NULL, error))
          return FALSE;
        if (pc->old_header != 0 && bfres_curve_key_type (c) == pc->kt)
          note_same_type (pc, c, t->notice, bone, notes);
        if (bfres_curve_key_type (c) != pc->kt)
          g_ptr_array_add (
              notes,
              g_strdup_printf ("%s %s: keys %s → %s to stay within %g", bone,
                               channel_label (pc->channel), tress_bfres_key_type_to_string (pc->kt),
                               bfres_curve_key_type (c) == TRESS_BFRES_KEY_32
                                   ? "f32"
                                   : tress_bfres_key_type_to_string (bfres_curve_key_type (c)),
                               tolerance));
        if (bfres_curve_frame_type (c) != pc->ft)
          g_ptr_array_add (
              notes, g_strdup_printf ("%s %s: frames %s → %s to hold frame %g", bone,
                                      channel_label (pc->channel),
                                      tress_bfres_frame_type_to_string (pc->ft),
                                      tress_bfres_frame_type_to_string (bfres_curve_frame_type (c)),
                                      first_unfit_frame (pc->curve, pc->ft)));
        baked += bfres_baked_contribution (bfres_curve_type (c), bfres_curve_key_type (c), c->start,
                                           c->end);
      }
  bfres_put_u32 (t, a->baked_size_pos, baked);
  bfres_put_u32 (t, 0x0C, (guint32)t->size);
  return TRUE;
}

/* ---- the entry point ---------------------------------------------------------------- */

/* @data (FRES bytes) parsed where they lie, the model writing into them: no
 * copy. The model's "bytes as read" are @data as it is now, which the
 * encoder reads while it writes; nothing may move them before the model is
 * done with: the caller makes room first (encoding_bound). */
static TressBfres *
parse_over (GByteArray *data, const char *filename, GError **error)
{
  g_autoptr (GBytes) view = g_bytes_new_static (data->data, data->len);
  TressBfres *t = tress_bfres_parse (view, filename, error);

  if (t == NULL)
    return NULL;
  t->data = g_byte_array_ref (data);
  bfres_sync (t);
  return t;
}

/* Room for @extra more bytes in @data without moving it. */
static void
reserve (GByteArray *data, gsize extra)
{
  guint len = data->len;

  g_byte_array_set_size (data, len + (guint)extra);
  g_byte_array_set_size (data, len);
}

/* Rewrites skeletal animation @r->anim of @cur, whose bytes @data holds,
 * into a model of its own over @data: the structure appended to @data, the
 * bytes parsed where they are, the curves set. @cur is not read again once
 * this starts writing (its bytes may move); it goes on telling its size and
 * names. @models: the file's models, or NULL. The lines for @notes go to
 * @said. */
static TressBfres *
replace_one (TressBfres *cur, GByteArray *data, TressBfresModels *models,
             const TressBfresSkeletalReplacement *r, GPtrArray *said, GError **error)
{
  g_auto (Plan) p = { 0 };
  g_autoptr (GHashTable) old_bones = NULL;
  g_autoptr (TressBfres) t = NULL;
  const BfresAnim *a;
  guint anim = r->anim;
  const guint8 *at;
  gsize room;

  if (anim >= cur->anims->len)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, "No animation %u (the file has %u)",
                   anim, cur->anims->len);
      return NULL;
    }
  a = bfres_anim (cur, anim);
  if (a->group != 2)
    {
      BfresShownName buf;

      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "Animation %u \"%s\" is a %s animation, not a skeletal one", anim,
                   bfres_shown_name (a->name, buf), a->kind);
      return NULL;
    }
  if (cur->version < BFRES_V3_4)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED,
                   "BFRES version %u.%u.%u.%u: rewriting bone animations needs version 3.4 or "
                   "later (the FSKA layout of older files is not confirmed by any sample)",
                   cur->version >> 24, (cur->version >> 16) & 0xFF, (cur->version >> 8) & 0xFF,
                   cur->version & 0xFF);
      return NULL;
    }
  p.b = cur;
  p.a = a;
  p.euler = ((a->flags >> 12) & 7) == TRESS_BFRES_ROTATION_EULER_XYZ;
  if (!check_request (r->bones, r->n_bones, r->frame_count, r->tolerance, p.euler, error))
    return NULL;

  p.anims = tress_bfres_anims_parse (cur->d, cur->size, error);
  if (p.anims == NULL)
    {
      g_prefix_error (error, "The file's skeletal animations cannot be read: ");
      return NULL;
    }
  for (guint i = 0; i < p.anims->n_skeletal; i++)
    if (p.anims->skeletal[i].pos == a->pos)
      p.fska = &p.anims->skeletal[i];
  if (p.fska == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED,
                   "Skeletal animation \"%s\" is not where the parser found it", a->name);
      return NULL;
    }
  /* Only for the bones' conventions: a file whose models cannot be read
   * has none. Borrowed: the models' bytes are the same in every step. */
  p.models = models;
  old_bones = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = p.fska->n_bone_anims; i-- > 0;)
    g_hash_table_insert (old_bones, p.fska->bone_anims[i].name, &p.fska->bone_anims[i]);
  count_types (&p);
  p.n_bones = r->n_bones;
  p.bones = g_new0 (PlanBone, r->n_bones + 1);
  for (guint i = 0; i < r->n_bones; i++)
    plan_bone (&p, old_bones, &r->bones[i], &p.bones[i]);

  build_structure (&p, data, r->frame_count);
  room = encoding_bound (&p);
  if (data->len > G_MAXUINT / 2 || room > G_MAXUINT / 2 - data->len)
    {
      g_set_error (
          error, TRESS_ERROR, TRESS_ERROR_REFUSED,
          "Skeletal animation \"%s\": %u bone animations with curves of up to %" G_GSIZE_FORMAT
          " bytes would take the file past 2 GiB",
          a->name, r->n_bones, room);
      return NULL;
    }
  reserve (data, room);
  at = data->data;
  t = parse_over (data, cur->filename, error);
  if (t == NULL || !fill_curves (&p, t, anim, r->tolerance, said, error))
    {
      p.models = NULL;
      g_prefix_error (error, "Skeletal animation \"%s\": ", a->name);
      return NULL;
    }
  p.models = NULL;
  /* (the bound above holds: the bytes as read stayed where they were) */
  g_assert (data->data == at);
  g_ptr_array_add (said, g_strdup_printf ("The file grows by %" G_GSIZE_FORMAT
                                          " bytes (%" G_GSIZE_FORMAT " → %" G_GSIZE_FORMAT ")",
                                          t->size - cur->size, cur->size, t->size));
  return g_steal_pointer (&t);
}

gboolean
tress_bfres_replace_skeletals (TressBfres *bfres, const TressBfresSkeletalReplacement *items,
                               guint n_items, guint *failed, GError **error)
{
  g_autoptr (TressBfresModels) models = NULL;
  g_autoptr (TressBfres) cur = NULL;
  g_autoptr (GByteArray) data = NULL;
  g_autoptr (GBytes) result = NULL;
  g_autoptr (GPtrArray) said = g_ptr_array_new_with_free_func (g_free);
  g_autofree guint *n_said = g_new0 (guint, n_items + 1);

  g_return_val_if_fail (bfres != NULL, FALSE);
  g_return_val_if_fail (items != NULL || n_items == 0, FALSE);
  for (guint i = 0; i < n_items; i++)
    g_return_val_if_fail (items[i].bones != NULL || items[i].n_bones == 0, FALSE);

  if (n_items == 0)
    return TRUE;
  if (bfres->size > G_MAXUINT / 2)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "A FRES of %" G_GSIZE_FORMAT " bytes is too large to rewrite", bfres->size);
      return FALSE;
    }
  models = tress_bfres_models_parse (bfres->d, bfres->size, NULL);
  /* One copy of the file, which every step appends to and rewrites in
   * place (each step's model parsed over it); only the end is adopted, so
   * the file stays untouched when any step fails. */
  data = g_byte_array_sized_new ((guint)(bfres->size + bfres->size / 4 + 64));
  g_byte_array_append (data, bfres->d, (guint)bfres->size);
  for (guint i = 0; i < n_items; i++)
    {
      TressBfres *next
          = replace_one (cur != NULL ? cur : bfres, data, models, &items[i], said, error);

      if (next == NULL)
        {
          if (failed != NULL)
            *failed = i;
          return FALSE;
        }
      g_clear_pointer (&cur, tress_bfres_free);
      cur = next;
      n_said[i] = said->len;
    }
  /* The models read the file's bytes: let them go before it changes. */
  g_clear_pointer (&models, tress_bfres_models_free);
  g_clear_pointer (&cur, tress_bfres_free);
  result = g_byte_array_free_to_bytes (g_steal_pointer (&data));
  if (!bfres_adopt_fres (bfres, result, error))
    {
      if (failed != NULL)
        *failed = n_items - 1;
      g_prefix_error (error, "The rewritten file cannot be read back: ");
      return FALSE;
    }
  for (guint i = 0, j = 0; i < n_items; i++)
    for (; j < n_said[i]; j++)
      if (items[i].notes != NULL)
        g_ptr_array_add (items[i].notes, g_strdup (g_ptr_array_index (said, j)));
  return TRUE;
}

gboolean
tress_bfres_replace_skeletal (TressBfres *bfres, guint anim, const TressBfresBoneAnimSpec *bones,
                              guint n_bones, int frame_count, double tolerance, GPtrArray *notes,
                              GError **error)
{
  TressBfresSkeletalReplacement r = { anim, bones, n_bones, frame_count, tolerance, notes };

  g_return_val_if_fail (bfres != NULL, FALSE);
  g_return_val_if_fail (bones != NULL || n_bones == 0, FALSE);
  return tress_bfres_replace_skeletals (bfres, &r, 1, NULL, error);
}

gboolean
tress_bfres_restore_fres (TressBfres *bfres, GBytes *fres, GError **error)
{
  g_return_val_if_fail (bfres != NULL && fres != NULL, FALSE);
  return bfres_adopt_fres (bfres, fres, error);
}
