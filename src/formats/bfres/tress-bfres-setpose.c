/* tress-bfres-setpose.c: a bone's local transform at one frame, as keys
 *
 * The request is turned into one value per component (continuous angles,
 * the quaternion on the near side), the components that only have a base
 * value and change get their curves first (one rewrite of the FSKA, every
 * other curve passed through as it is), then every component with a curve is
 * edited through the curve edit operations and stored through
 * tress_curve_commit, as the graph and `tress-cli set-key` store an edit.
 * The FRES bytes before are kept and put back on any refusal.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-bfres-setpose.h"

#include <math.h>
#include <string.h>

#include "core/tress-error.h"
#include "tress-bfres-pose.h"
#include "tress-bfres-private.h"
#include "tress-bfres-skeletal.h"

const char *
tress_bfres_channel_label (TressBfresChannel ch)
{
  static const char *const labels[TRESS_BFRES_N_CHANNELS]
      = { "Scale X",     "Scale Y",  "Scale Z",  "Translate X", "Translate Y",
          "Translate Z", "Rotate X", "Rotate Y", "Rotate Z",    "Rotate W" };

  return ch >= 0 && ch < TRESS_BFRES_N_CHANNELS ? labels[ch] : "?";
}

/* What is known of the bone and its animation. */
typedef struct
{
  TressBfres *b;
  guint anim;
  const char *anim_name;
  int frame_count;
  gboolean euler;
  TressBfresAnims *anims;
  const TressBfresSkeletalAnim *fska;
  const TressBfresBoneAnim *ba;
  guint ba_index;
  /* The bone in the skeleton the animation plays on, or NULL: the value of
   * a component the BoneAnim stores neither a curve nor a base value for. */
  const TressBfresBone *bind;
  int curve[TRESS_BFRES_N_CHANNELS]; /* the component's curve, or −1 */
} Target;

static void
target_clear (Target *t)
{
  g_clear_pointer (&t->anims, tress_bfres_anims_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Target, target_clear)

/* The FSKA of @anim as read now, its BoneAnim for @bone and the curve of each
 * component. FALSE with an error naming what is missing. */
static gboolean
target_read (Target *t, TressBfres *b, guint anim, const char *bone, GError **error)
{
  const BfresAnim *a;

  target_clear (t);
  t->b = b;
  t->anim = anim;
  if (anim >= b->anims->len)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                   "there is no animation %u (the file has %u)", anim, b->anims->len);
      return FALSE;
    }
  a = bfres_anim (b, anim);
  t->anim_name = a->name;
  if (a->group != 2)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                   "\"%s\" is a %s animation: only skeletal animations pose bones", a->name,
                   a->kind);
      return FALSE;
    }
  t->frame_count = a->frame_count;
  t->euler = ((a->flags >> 12) & 7) == TRESS_BFRES_ROTATION_EULER_XYZ;
  t->anims = tress_bfres_anims_parse (b->d, b->size, error);
  if (t->anims == NULL)
    {
      g_prefix_error (error, "the file's skeletal animations cannot be read: ");
      return FALSE;
    }
  t->fska = NULL;
  for (guint i = 0; i < t->anims->n_skeletal; i++)
    if (t->anims->skeletal[i].pos == a->pos)
      t->fska = &t->anims->skeletal[i];
  if (t->fska == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED,
                   "skeletal animation \"%s\" is not where the parser found it", a->name);
      return FALSE;
    }
  t->ba = NULL;
  for (guint i = 0; i < t->fska->n_bone_anims && t->ba == NULL; i++)
    if (g_strcmp0 (t->fska->bone_anims[i].name, bone) == 0)
      {
        t->ba = &t->fska->bone_anims[i];
        t->ba_index = i;
      }
  if (t->ba == NULL)
    {
      g_autoptr (GString) list = g_string_new (NULL);

      for (guint i = 0; i < t->fska->n_bone_anims && i < 40; i++)
        g_string_append_printf (list, "%s%s", i ? ", " : "", t->fska->bone_anims[i].name);
      if (t->fska->n_bone_anims > 40)
        g_string_append_printf (list, ", … (%u in all)", t->fska->n_bone_anims);
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                   "animation \"%s\" does not animate a bone \"%s\"; its bones: %s", a->name, bone,
                   list->len > 0 ? list->str : "none");
      return FALSE;
    }
  for (guint c = 0; c < TRESS_BFRES_N_CHANNELS; c++)
    t->curve[c] = -1;
  for (guint k = 0; k < t->ba->n_curves; k++)
    {
      TressBfresChannel ch = tress_bfres_channel_from_target (t->ba->curves[k].target);

      for (guint i = a->first_curve;
           ch != TRESS_BFRES_CHANNEL_NONE && i < a->first_curve + a->n_curves; i++)
        if (bfres_curve (b, i)->pos == t->ba->curves[k].header_pos)
          t->curve[ch] = (int)i;
    }
  return TRUE;
}

/* The base value of component @c, FALSE when the BoneAnim stores none. */
static gboolean
base_value (const TressBfresBoneAnim *ba, TressBfresChannel c, float *out)
{
  if (c <= TRESS_BFRES_CHANNEL_SCALE_Z)
    {
      *out = ba->scale[c - TRESS_BFRES_CHANNEL_SCALE_X];
      return (ba->flags & TRESS_BFRES_BONE_ANIM_BASE_SCALE) != 0;
    }
  if (c <= TRESS_BFRES_CHANNEL_TRANSLATE_Z)
    {
      *out = ba->translation[c - TRESS_BFRES_CHANNEL_TRANSLATE_X];
      return (ba->flags & TRESS_BFRES_BONE_ANIM_BASE_TRANSLATE) != 0;
    }
  *out = ba->rotation[c - TRESS_BFRES_CHANNEL_ROTATE_X];
  return (ba->flags & TRESS_BFRES_BONE_ANIM_BASE_ROTATE) != 0;
}

/* What the file plays for component @c at @frame; FALSE when it comes from
 * the skeleton's bind pose (no curve, no base value). */
/* Component @c of the bind pose; FALSE when unknown (no skeleton, or a
 * rotation stored in the other mode). */
static gboolean
bind_value (const Target *t, TressBfresChannel c, float *out)
{
  if (t->bind == NULL)
    return FALSE;
  if (c <= TRESS_BFRES_CHANNEL_SCALE_Z)
    *out = t->bind->scale[c - TRESS_BFRES_CHANNEL_SCALE_X];
  else if (c <= TRESS_BFRES_CHANNEL_TRANSLATE_Z)
    *out = t->bind->translation[c - TRESS_BFRES_CHANNEL_TRANSLATE_X];
  else if ((t->bind->rotation_mode == TRESS_BFRES_ROTATION_EULER_XYZ) == t->euler)
    *out = t->euler && c == TRESS_BFRES_CHANNEL_ROTATE_W
               ? 1
               : t->bind->rotation[c - TRESS_BFRES_CHANNEL_ROTATE_X];
  else
    return FALSE;
  return TRUE;
}

/* What the file plays for component @c at @frame: its curve, else its base
 * value, else the bind pose; FALSE when that is unknown. */
static gboolean
current_value (const Target *t, TressBfresChannel c, double frame, double *out)
{
  float base;

  if (t->curve[c] >= 0)
    {
      *out = tress_bfres_evaluate (t->b, (guint)t->curve[c], frame);
      return TRUE;
    }
  if (!base_value (t->ba, c, &base) && !bind_value (t, c, &base))
    return FALSE;
  *out = base;
  return TRUE;
}

static gboolean
all_finite (const double *v, guint n)
{
  for (guint i = 0; i < n; i++)
    if (!isfinite (v[i]))
      return FALSE;
  return TRUE;
}

/* The values asked for, by component (NAN: not asked for). */
static gboolean
wanted_values (const Target *t, const TressBfresBonePose *pose, double frame,
               double want[TRESS_BFRES_N_CHANNELS], GError **error)
{
  for (guint c = 0; c < TRESS_BFRES_N_CHANNELS; c++)
    want[c] = NAN;
  if (pose->has_scale)
    for (guint k = 0; k < 3; k++)
      want[TRESS_BFRES_CHANNEL_SCALE_X + k] = pose->scale[k];
  if (pose->has_translation)
    for (guint k = 0; k < 3; k++)
      want[TRESS_BFRES_CHANNEL_TRANSLATE_X + k] = pose->translation[k];
  if (pose->has_rotation && t->euler)
    for (guint k = 0; k < 3; k++)
      {
        TressBfresChannel c = TRESS_BFRES_CHANNEL_ROTATE_X + k;
        double now, r = pose->rotation[k];

        /* Of the angles a whole turn apart, the one nearest what plays now. */
        if (current_value (t, c, frame, &now) && isfinite (now))
          r += 2 * G_PI * round ((now - r) / (2 * G_PI));
        want[c] = r;
      }
  else if (pose->has_rotation)
    {
      double q[4], now[4], dot = 0;
      gboolean known = TRUE;

      tress_bfres_euler_to_quaternion (pose->rotation, q);
      for (guint k = 0; k < 4; k++)
        known &= current_value (t, TRESS_BFRES_CHANNEL_ROTATE_X + k, frame, &now[k]);
      for (guint k = 0; known && k < 4; k++)
        dot += q[k] * now[k];
      for (guint k = 0; k < 4; k++)
        want[TRESS_BFRES_CHANNEL_ROTATE_X + k] = dot < 0 ? -q[k] : q[k];
    }
  for (guint c = 0; c < TRESS_BFRES_N_CHANNELS; c++)
    if (!isnan (want[c]) && !(fabs (want[c]) <= G_MAXFLOAT))
      {
        g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                     "%s %g is not a value a 32-bit float holds", tress_bfres_channel_label (c),
                     want[c]);
        return FALSE;
      }
  return TRUE;
}

/* ---- components with a base value only: new curves ------------------------------- */

/* Keys at 0, @frame and the last frame: the base value at the ends, @value
 * at @frame, flat slopes (Hermite, stored as Cubic). */
static TressCurve *
new_curve (double base, double frame, double value, int frame_count)
{
  TressCurve *curve = tress_curve_new ();
  double frames[3] = { 0, frame, frame_count }, values[3] = { base, value, base };

  for (guint i = 0; i < 3; i++)
    {
      TressKey key = { .frame = frames[i],
                       .value = values[i],
                       .interp = TRESS_INTERP_HERMITE,
                       .tangent = TRESS_TANGENT_FLAT };

      if (i > 0 && frames[i] <= frames[i - 1])
        {
          /* @frame at an end: that end holds @value. */
          if (frames[i] == frames[i - 1] && i == 1)
            tress_curve_get_key (curve, 0)->value = value;
          continue;
        }
      tress_curve_insert_key (curve, &key);
    }
  return curve;
}

static void
spec_clear (TressBfresBoneAnimSpec *specs, guint n)
{
  for (guint i = 0; i < n; i++)
    for (guint c = 0; c < TRESS_BFRES_N_CHANNELS; c++)
      g_clear_pointer (&specs[i].curves[c], tress_curve_unref);
  g_free (specs);
}

/* Adds a curve to each component marked in @add, every other bone and curve
 * passed through as it is. */
static gboolean
add_curves (Target *t, const gboolean add[TRESS_BFRES_N_CHANNELS],
            const double want[TRESS_BFRES_N_CHANNELS], double frame, TressCommitConsent consent,
            GPtrArray *notes, GError **error)
{
  const TressCurveOps *ops = tress_format_bfres.curves;
  const TressBfresSkeletalAnim *fska = t->fska;
  TressBfresBoneAnimSpec *specs = g_new0 (TressBfresBoneAnimSpec, fska->n_bone_anims + 1);
  g_autoptr (GPtrArray) said = g_ptr_array_new_with_free_func (g_free);
  gboolean ok;

  for (guint i = 0; i < fska->n_bone_anims; i++)
    {
      const TressBfresBoneAnim *ba = &fska->bone_anims[i];

      /* A rewrite stores base scale and rotation for every bone: a bone
       * that has none would change pose. No real file has such a bone. */
      if ((ba->flags & (TRESS_BFRES_BONE_ANIM_BASE_SCALE | TRESS_BFRES_BONE_ANIM_BASE_ROTATE))
          != (TRESS_BFRES_BONE_ANIM_BASE_SCALE | TRESS_BFRES_BONE_ANIM_BASE_ROTATE))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED,
                       "bone \"%s\" of \"%s\" stores no base scale or rotation: adding a curve "
                       "rewrites the animation's bones, which would change its pose",
                       ba->name, t->anim_name);
          spec_clear (specs, fska->n_bone_anims);
          return FALSE;
        }
      specs[i].bone = ba->name;
      specs[i].bind_translation = !(ba->flags & TRESS_BFRES_BONE_ANIM_BASE_TRANSLATE);
      for (guint c = 0; c < TRESS_BFRES_N_CHANNELS; c++)
        {
          float base = 0;

          base_value (ba, c, &base);
          specs[i].base[c] = base;
        }
      for (guint k = 0; k < ba->n_curves; k++)
        {
          TressBfresChannel ch = tress_bfres_channel_from_target (ba->curves[k].target);
          const BfresAnim *a = bfres_anim (t->b, t->anim);

          for (guint ci = a->first_curve;
               ch != TRESS_BFRES_CHANNEL_NONE && ci < a->first_curve + a->n_curves; ci++)
            if (bfres_curve (t->b, ci)->pos == ba->curves[k].header_pos)
              specs[i].curves[ch] = ops->get_curve (t->b, ci);
        }
      /* A translation added where the bind pose gave it: the bind pose's
       * becomes the stored base (the pose stays). */
      if (i == t->ba_index && specs[i].bind_translation
          && (add[TRESS_BFRES_CHANNEL_TRANSLATE_X] || add[TRESS_BFRES_CHANNEL_TRANSLATE_Y]
              || add[TRESS_BFRES_CHANNEL_TRANSLATE_Z]))
        {
          specs[i].bind_translation = FALSE;
          for (guint c = TRESS_BFRES_CHANNEL_TRANSLATE_X; c <= TRESS_BFRES_CHANNEL_TRANSLATE_Z; c++)
            bind_value (t, c, &specs[i].base[c]);
        }
      if (i == t->ba_index)
        for (guint c = 0; c < TRESS_BFRES_N_CHANNELS; c++)
          if (add[c])
            specs[i].curves[c] = new_curve (specs[i].base[c], frame, want[c], t->frame_count);
    }
  ok = tress_bfres_replace_skeletal (t->b, t->anim, specs, fska->n_bone_anims, t->frame_count, 0,
                                     said, error);
  spec_clear (specs, fska->n_bone_anims);
  if (!ok)
    return FALSE;
  /* Frames the animation's frame type does not hold: a wider one, said and
   * agreed to first. */
  for (guint i = 0; i < said->len; i++)
    if (strstr (said->pdata[i], ": frames ") != NULL && !(consent & TRESS_COMMIT_WIDEN_FRAMES))
      {
        g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                     "frame %g is not one the animation's frame type stores: the new curve "
                     "needs a wider one (%s)",
                     frame, (const char *)said->pdata[i]);
        return FALSE;
      }
  for (guint i = 0; notes != NULL && i < said->len; i++)
    g_ptr_array_add (notes, g_strdup (said->pdata[i]));
  return TRUE;
}

/* ---- the entry point ---------------------------------------------------------------- */

gboolean
tress_bfres_set_pose (TressBfres *b, guint anim, const char *bone, double frame,
                      const TressBfresBonePose *pose, const TressBfresSkeleton *skeleton,
                      TressCommitConsent consent, GArray *changes, GPtrArray *notes, GError **error)
{
  g_auto (Target) t = { 0 };
  g_autoptr (GBytes) fres = NULL;
  g_autoptr (GPtrArray) said = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) done = g_array_new (FALSE, TRUE, sizeof (TressBfresPoseChange));
  double want[TRESS_BFRES_N_CHANNELS];
  gboolean add[TRESS_BFRES_N_CHANNELS] = { 0 }, any_add = FALSE;

  g_return_val_if_fail (b != NULL && bone != NULL && pose != NULL, FALSE);
  if ((pose->has_scale && !all_finite (pose->scale, 3))
      || (pose->has_rotation && !all_finite (pose->rotation, 3))
      || (pose->has_translation && !all_finite (pose->translation, 3)))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                   "the %s asked for is not a finite number",
                   pose->has_scale && !all_finite (pose->scale, 3)         ? "scale"
                   : pose->has_rotation && !all_finite (pose->rotation, 3) ? "rotation"
                                                                           : "translation");
      return FALSE;
    }
  if (!target_read (&t, b, anim, bone, error))
    return FALSE;
  for (guint i = 0; skeleton != NULL && i < skeleton->n_bones; i++)
    if (g_strcmp0 (skeleton->bones[i].name, bone) == 0)
      t.bind = &skeleton->bones[i];
  if (!(frame >= 0 && frame <= t.frame_count))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                   "frame %g lies outside animation \"%s\" (frames 0 to %d)", frame, t.anim_name,
                   t.frame_count);
      return FALSE;
    }
  if (!wanted_values (&t, pose, frame, want, error))
    return FALSE;

  /* Which components change, and how. */
  for (guint c = 0; c < TRESS_BFRES_N_CHANNELS; c++)
    {
      TressBfresPoseChange ch = { .channel = c,
                                  .requested = want[c],
                                  .curve = -1,
                                  .angle = t.euler && c >= TRESS_BFRES_CHANNEL_ROTATE_X
                                           && c <= TRESS_BFRES_CHANNEL_ROTATE_Z };
      double now;

      if (isnan (want[c]))
        continue;
      if (!current_value (&t, c, frame, &now))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED,
                       "bone \"%s\" takes its %s from the skeleton's bind pose in \"%s\" (no base "
                       "value is stored), and %s",
                       bone, tress_bfres_channel_label (c), t.anim_name,
                       skeleton == NULL ? "no skeleton was given to read it from"
                                        : "the skeleton given has no such bone");
          return FALSE;
        }
      if (t.curve[c] < 0)
        {
          add[c] = (float)want[c] != (float)now;
          any_add |= add[c];
          ch.action = add[c] ? TRESS_BFRES_POSE_ADDED : TRESS_BFRES_POSE_UNCHANGED;
        }
      else
        {
          g_autoptr (TressCurve) curve
              = tress_format_bfres.curves->get_curve (b, (guint)t.curve[c]);
          double half = curve->value_step > 0 ? curve->value_step / 2 : 0;

          ch.step = curve->value_step;
          /* Already played there (to the stored precision), with or without a key. */
          ch.action = (half > 0 ? fabs (want[c] - now) <= half : (float)want[c] == (float)now)
                          ? TRESS_BFRES_POSE_UNCHANGED
                          : TRESS_BFRES_POSE_MOVED;
        }
      g_array_append_val (done, ch);
    }

  fres = tress_bfres_get_bfres_bytes (b);
  if (any_add
      && (!add_curves (&t, add, want, frame, consent, said, error)
          || !target_read (&t, b, anim, bone, error)))
    {
      tress_bfres_restore_fres (b, fres, NULL);
      return FALSE;
    }
  for (guint i = 0; i < done->len; i++)
    {
      TressBfresPoseChange *ch = &g_array_index (done, TressBfresPoseChange, i);
      g_autofree char *what
          = g_strdup_printf ("%s %s", bone, tress_bfres_channel_label (ch->channel));

      gboolean inserted = FALSE;

      if (ch->action != TRESS_BFRES_POSE_MOVED)
        continue;
      if (!tress_curve_commit_value_at (tress_format_bfres.curves, b, (guint)t.curve[ch->channel],
                                        frame, want[ch->channel], consent, what, &inserted,
                                        &ch->max_error, said, error))
        {
          tress_bfres_restore_fres (b, fres, NULL);
          return FALSE;
        }
      if (inserted)
        ch->action = TRESS_BFRES_POSE_INSERTED;
    }
  /* What the file plays now. */
  for (guint i = 0; i < done->len; i++)
    {
      TressBfresPoseChange *ch = &g_array_index (done, TressBfresPoseChange, i);

      ch->curve = t.curve[ch->channel];
      current_value (&t, ch->channel, frame, &ch->stored);
      if (ch->curve >= 0)
        {
          g_autoptr (TressCurve) curve = tress_format_bfres.curves->get_curve (b, (guint)ch->curve);

          ch->step = curve->value_step;
          if (ch->action == TRESS_BFRES_POSE_ADDED)
            ch->max_error = fabs (ch->stored - ch->requested);
        }
    }
  if (changes != NULL)
    g_array_append_vals (changes, done->data, done->len);
  for (guint i = 0; notes != NULL && i < said->len; i++)
    g_ptr_array_add (notes, g_strdup (said->pdata[i]));
  return TRUE;
}
