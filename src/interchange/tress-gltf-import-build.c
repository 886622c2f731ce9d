/* tress-gltf-import-build.c: one glTF animation sampled into BFRES bone animations
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-gltf-import-private.h"

#include <math.h>
#include <string.h>

#include "core/tress-error.h"
#include "formats/bfres/tress-bfres-scene.h"

/* A glTF world matrix differing from what the bone composes to by more than
 * this (of the skeleton's size; radians) counts as a shear BFRES cannot hold. */
#define SHEAR_EPS 1e-6

typedef struct
{
  TressGltfImport *imp;
  TressGltfImportAnim *out;
  const TressBfresSkeletalAnim *sa;
  guint skeletal;
  guint nb, nf;
  TressBfresScaling scaling;
  double *values;       /* (bone × channel) × frame */
  TressBfresSrt *orig0; /* the original animation's pose at frame 0 */
  /* The original pose at every frame of the bones without a joint, frame ×
   * such bone (free_slot: each bone's place there, or −1 for the bones with
   * a joint, whose pose pose_spec takes from frame 0), and which bones with
   * a joint the original moves off their frame-0 pose. */
  TressBfresSrt *orig_free;
  int *free_slot;
  guint n_free;
  guint8 *orig_varies;
  int *spec_bone; /* each spec's bone in the skeleton, or −1 */
  /* Each matched bone's target at each frame, frame × bone: sampled once,
   * compared with twice. */
  ImportPlacement *targets;
  double tolerance[TRESS_BFRES_N_CHANNELS];
  guint bones_room; /* out->bones allocated */
} Build;

static double *
values_of (Build *b, guint bone, TressBfresChannel c)
{
  return b->values + ((gsize)bone * TRESS_BFRES_N_CHANNELS + (gsize)c) * b->nf;
}

static double
srt_component (const TressBfresSrt *s, TressBfresChannel c)
{
  if (c <= TRESS_BFRES_CHANNEL_SCALE_Z)
    return s->scale[c - TRESS_BFRES_CHANNEL_SCALE_X];
  if (c <= TRESS_BFRES_CHANNEL_TRANSLATE_Z)
    return s->translation[c - TRESS_BFRES_CHANNEL_TRANSLATE_X];
  return s->rotation[c - TRESS_BFRES_CHANNEL_ROTATE_X];
}

static void
set_component (TressBfresSrt *s, TressBfresChannel c, double v)
{
  if (c <= TRESS_BFRES_CHANNEL_SCALE_Z)
    s->scale[c - TRESS_BFRES_CHANNEL_SCALE_X] = v;
  else if (c <= TRESS_BFRES_CHANNEL_TRANSLATE_Z)
    s->translation[c - TRESS_BFRES_CHANNEL_TRANSLATE_X] = v;
  else
    s->rotation[c - TRESS_BFRES_CHANNEL_ROTATE_X] = v;
}

/* The matched bone's target: world_gltf(joint) · IBM · bind_world. */
static void
target_of (TressGltfImport *imp, guint bone, const TressBfresMatrix *gworld, TressBfresMatrix *out)
{
  TressBfresMatrix a;

  tress_bfres_matrix_multiply (&gworld[imp->joint[bone]], &imp->ibm[bone], &a);
  tress_bfres_matrix_multiply (&a, &imp->bind_world[bone], out);
}

/* Whether @srt's rotation is within @tolerance (radians) of the unit
 * quaternion @q. */
static gboolean
same_rotation (const TressBfresSrt *srt, const double q[4], double tolerance)
{
  double r[4], dot = 0;

  if (srt->rotation_mode == TRESS_BFRES_ROTATION_EULER_XYZ)
    tress_bfres_euler_to_quaternion (srt->rotation, r);
  else
    {
      double n = 0;

      for (guint k = 0; k < 4; k++)
        n += srt->rotation[k] * srt->rotation[k];
      n = sqrt (n);
      if (!(n > 0))
        return FALSE;
      for (guint k = 0; k < 4; k++)
        r[k] = srt->rotation[k] / n;
    }
  for (guint k = 0; k < 4; k++)
    dot += r[k] * q[k];
  return 2 * acos (MIN (fabs (dot), 1.0)) <= tolerance;
}

/* Samples every matched bone's local transform at every frame; FALSE
 * with an error where one is no number a 32-bit float holds. */
static gboolean
sample (Build *b, GError **error)
{
  TressGltfImport *imp = b->imp;
  g_autofree TressBfresSrt *orig = g_new0 (TressBfresSrt, b->nb + 1);
  g_autofree TressBfresSrt *srt = g_new0 (TressBfresSrt, b->nb + 1);
  g_autofree ImportPosed *posed = g_new0 (ImportPosed, b->nb + 1);
  g_autofree TressBfresMatrix *gworld = g_new0 (TressBfresMatrix, imp->doc->n_nodes + 1);
  g_autofree double *previous = g_new0 (double, 4 * (gsize)b->nb + 4);

  for (guint f = 0; f < b->nf; f++)
    {
      b->scaling = tress_bfres_animator_pose_srt (imp->animator, (int)b->skeletal, f,
                                                  import_sample_curve, imp->bfres, orig);
      if (f == 0)
        memcpy (b->orig0, orig, b->nb * sizeof *orig);
      for (guint bone = 0; bone < b->nb; bone++)
        if (b->free_slot[bone] >= 0)
          b->orig_free[(gsize)f * b->n_free + (guint)b->free_slot[bone]] = orig[bone];
        else if (memcmp (&orig[bone], &b->orig0[bone], sizeof *orig) != 0)
          b->orig_varies[bone] = 1;
      tress_gltf_document_pose (imp->doc, (int)b->out->gltf_anim, f / imp->fps, imp->needed,
                                gworld);
      for (guint i = 0; i < b->nb; i++)
        {
          guint bone = imp->order[i];
          int p = import_parent_of (imp, bone);
          const ImportPosed *pp = p >= 0 ? &posed[p] : NULL;
          const TressBfresSrt *ps = p >= 0 ? &srt[p] : NULL;
          TressBfresMatrix target;
          double q[4], *prev = previous + 4 * (gsize)bone, pos, angle;

          srt[bone] = orig[bone];
          if (imp->joint[bone] < 0)
            {
              import_compose (b->scaling, pp, ps, &srt[bone], &posed[bone]);
              continue;
            }
          target_of (imp, bone, gworld, &target);
          import_solve_local (&target, b->scaling, pp, ps, &srt[bone], q);
          if (f == 0)
            memcpy (prev, orig[bone].rotation, 4 * sizeof (double));
          if (same_rotation (&orig[bone], q, b->tolerance[TRESS_BFRES_CHANNEL_ROTATE_X] / 2))
            {
              /* The file's own angles where they turn the bone as the glTF
               * does: near Y = ±90° a rotation that moved by a rounding error
               * reads as other X and Z angles, which would refit a curve
               * nobody changed. */
              memcpy (srt[bone].rotation, orig[bone].rotation, 4 * sizeof (double));
            }
          else if (b->out->rotation_mode == TRESS_BFRES_ROTATION_EULER_XYZ)
            {
              import_euler_near (q, prev, srt[bone].rotation);
              srt[bone].rotation[3] = 1;
            }
          else
            {
              double dot = 0;

              for (guint k = 0; k < 4; k++)
                dot += q[k] * prev[k];
              for (guint k = 0; k < 4; k++)
                srt[bone].rotation[k] = dot < 0 ? -q[k] : q[k];
            }
          memcpy (prev, srt[bone].rotation, 4 * sizeof (double));
          import_compose (b->scaling, pp, ps, &srt[bone], &posed[bone]);
          {
            ImportPlacement *t = &b->targets[(gsize)f * b->nb + bone];

            import_placement (&target, t);
            import_placement_error (&posed[bone].world, t, &pos, &angle);
          }
          if (pos > SHEAR_EPS * imp->size || angle > SHEAR_EPS)
            b->out->n_sheared++;
          for (guint c = 0; c < TRESS_BFRES_N_CHANNELS; c++)
            {
              double v = srt_component (&srt[bone], c);

              if (!(fabs (v) <= G_MAXFLOAT))
                {
                  g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                               "animations[%u] (“%s”): at frame %u, the %s of bone %s comes to "
                               "%g, which no 32-bit float holds (the glTF's values overflow)",
                               b->out->gltf_anim, b->out->name, f,
                               c <= TRESS_BFRES_CHANNEL_SCALE_Z       ? "scale"
                               : c <= TRESS_BFRES_CHANNEL_TRANSLATE_Z ? "translation"
                                                                      : "rotation",
                               imp->model->skeleton.bones[bone].name, v);
                  return FALSE;
                }
              values_of (b, bone, c)[f] = v;
            }
        }
    }
  return TRUE;
}

/* The file's curve of @ba for channel @c, or NULL. */
static TressCurve *
original_curve (TressGltfImport *imp, const TressBfresBoneAnim *ba, TressBfresChannel c)
{
  for (guint k = 0; ba != NULL && k < ba->n_curves; k++)
    if (tress_bfres_channel_from_target (ba->curves[k].target) == c)
      {
        guint i = GPOINTER_TO_UINT (
            g_hash_table_lookup (imp->curve_at, GSIZE_TO_POINTER (ba->curves[k].header_pos)));

        if (i > 0)
          return tress_format_bfres.curves->get_curve (imp->bfres, i - 1);
      }
  return NULL;
}

static TressBfresBoneAnimSpec *
add_spec (Build *b, const char *bone)
{
  TressGltfImportAnim *out = b->out;
  char *name = g_strdup (bone);

  g_ptr_array_add (out->names, name);
  if (out->n_bones == b->bones_room)
    {
      /* (grown by half: not copied again for every bone) */
      b->bones_room = MAX (16, b->bones_room + b->bones_room / 2);
      out->bones = g_renew (TressBfresBoneAnimSpec, out->bones, b->bones_room);
    }
  memset (&out->bones[out->n_bones], 0, sizeof out->bones[0]);
  out->bones[out->n_bones].bone = name;
  return &out->bones[out->n_bones++];
}

/* A matched bone's components as base values and curves. */
static void
build_matched (Build *b, guint bone, const TressBfresBoneAnim *ba)
{
  TressBfresBoneAnimSpec *spec = add_spec (b, b->imp->model->skeleton.bones[bone].name);
  TressGltfImportAnim *out = b->out;

  for (guint c = 0; c < TRESS_BFRES_N_CHANNELS; c++)
    {
      g_autoptr (TressCurve) original = NULL;
      TressCurve *curve = NULL;
      double base;
      ImportOutcome what;

      if (c == TRESS_BFRES_CHANNEL_ROTATE_W && out->rotation_mode == TRESS_BFRES_ROTATION_EULER_XYZ)
        {
          spec->base[c] = 1;
          continue;
        }
      original = original_curve (b->imp, ba, c);
      what = import_component (values_of (b, bone, c), b->nf, b->tolerance[c], original,
                               srt_component (&b->orig0[bone], c), &base, &curve);
      spec->base[c] = (float)base;
      spec->curves[c] = curve;
      if (what == IMPORT_BASE)
        {
          out->base_values++;
          out->curves_removed += original != NULL;
          if (original != NULL || spec->base[c] != (float)srt_component (&b->orig0[bone], c))
            out->unchanged = FALSE;
        }
      else if (what == IMPORT_KEPT)
        out->curves_kept++;
      else
        {
          out->unchanged = FALSE;
          if (original != NULL)
            out->curves_refit++;
          else
            out->curves_added++;
          out->n_keys += tress_curve_get_n_keys (curve);
        }
    }
  /* A translation left at the bind pose's, as the original (or a bone not
   * animated before) had it, is not stored: the game takes the bind pose's. */
  if (ba == NULL || !(ba->flags & TRESS_BFRES_BONE_ANIM_BASE_TRANSLATE))
    {
      gboolean bind = TRUE;

      for (guint c = TRESS_BFRES_CHANNEL_TRANSLATE_X; c <= TRESS_BFRES_CHANNEL_TRANSLATE_Z; c++)
        bind &= spec->curves[c] == NULL
                && spec->base[c] == (float)srt_component (&b->orig0[bone], c);
      spec->bind_translation = bind;
    }
}

/* Cuts @curve (a copy) at frame @end, the shape before it kept (a key put
 * there on the curve). FALSE when it ends by @end already. Where every key
 * lies past @end, *@base gets the value it holds before them and the curve
 * is emptied. */
static gboolean
cut_at (TressCurve *curve, double end, float *base)
{
  guint n = tress_curve_get_n_keys (curve);

  if (n == 0 || tress_curve_get_key (curve, n - 1)->frame <= end)
    return FALSE;
  if (tress_curve_get_key (curve, 0)->frame > end)
    {
      *base = (float)tress_curve_evaluate (curve, end);
      g_array_set_size (curve->keys, 0);
      return TRUE;
    }
  if (tress_curve_find_key (curve, end, 1e-9) < 0)
    {
      TressKey k = *tress_curve_get_key (curve, (guint)tress_curve_find_segment (curve, end));

      /* A Hermite segment is the same cubic between its ends' values and
       * slopes, so the part kept plays as before. */
      k.frame = end;
      k.value = tress_curve_evaluate (curve, end);
      k.in_slope = k.out_slope = tress_curve_slope (curve, end);
      k.in_gap = 0;
      k.origin = 0;
      tress_curve_insert_key (curve, &k);
    }
  while (tress_curve_get_key (curve, tress_curve_get_n_keys (curve) - 1)->frame > end)
    tress_curve_remove_key (curve, tress_curve_get_n_keys (curve) - 1);
  return TRUE;
}

/* A bone animation without a joint, as it was (its curves cut at the new
 * end where they pass it). */
static void
build_kept (Build *b, const TressBfresBoneAnim *ba, int bone)
{
  TressBfresBoneAnimSpec *spec = add_spec (b, ba->name);
  TressBfresSrt s = { .scale = { 1, 1, 1 }, .rotation = { 0, 0, 0, 1 } };

  /* What the pose uses where no curve is: base values, else the bind pose
   * (unknown for a bone the model lacks: then no scale, rotation or
   * translation). */
  if (bone >= 0)
    s = b->orig0[bone];
  if (ba->flags & TRESS_BFRES_BONE_ANIM_BASE_SCALE)
    for (guint k = 0; k < 3; k++)
      s.scale[k] = ba->scale[k];
  if (ba->flags & TRESS_BFRES_BONE_ANIM_BASE_ROTATE)
    for (guint k = 0; k < 4; k++)
      s.rotation[k] = ba->rotation[k];
  if (ba->flags & TRESS_BFRES_BONE_ANIM_BASE_TRANSLATE)
    for (guint k = 0; k < 3; k++)
      s.translation[k] = ba->translation[k];
  for (guint c = 0; c < TRESS_BFRES_N_CHANNELS; c++)
    {
      spec->base[c] = (float)srt_component (&s, c);
      spec->curves[c] = original_curve (b->imp, ba, c);
      b->out->curves_kept += spec->curves[c] != NULL;
      if (spec->curves[c] != NULL && cut_at (spec->curves[c], b->nf - 1, &spec->base[c]))
        {
          b->out->curves_cut++;
          b->out->unchanged = FALSE;
          if (tress_curve_get_n_keys (spec->curves[c]) == 0)
            g_clear_pointer (&spec->curves[c], tress_curve_unref);
        }
    }
  spec->bind_translation = !(ba->flags & TRESS_BFRES_BONE_ANIM_BASE_TRANSLATE)
                           && spec->curves[TRESS_BFRES_CHANNEL_TRANSLATE_X] == NULL
                           && spec->curves[TRESS_BFRES_CHANNEL_TRANSLATE_Y] == NULL
                           && spec->curves[TRESS_BFRES_CHANNEL_TRANSLATE_Z] == NULL;
  g_ptr_array_add (b->out->kept_bones,
                   bone >= 0 ? g_strdup (ba->name)
                             : g_strdup_printf ("%s (not in %s)", ba->name, b->imp->model->name));
}

/* Whether the samples of a matched bone without a bone animation leave its
 * bind pose. */
static gboolean
moves (Build *b, guint bone)
{
  for (guint c = 0; c < TRESS_BFRES_N_CHANNELS; c++)
    {
      const double *v = values_of (b, bone, c);
      double rest = srt_component (&b->orig0[bone], c);

      if (c == TRESS_BFRES_CHANNEL_ROTATE_W
          && b->out->rotation_mode == TRESS_BFRES_ROTATION_EULER_XYZ)
        continue;
      for (guint f = 0; f < b->nf; f++)
        if (fabs (v[f] - rest) > b->tolerance[c])
          return TRUE;
    }
  return FALSE;
}

static void
build_specs (Build *b)
{
  TressGltfImport *imp = b->imp;
  const TressBfresSkeleton *sk = &imp->model->skeleton;
  g_autofree guint8 *animated = g_new0 (guint8, b->nb + 1);

  for (guint a = 0; a < b->sa->n_bone_anims; a++)
    {
      const TressBfresBoneAnim *ba = &b->sa->bone_anims[a];
      int bone = tress_bfres_skeleton_find_bone (sk, ba->name);

      if (bone >= 0 && !animated[bone] && imp->joint[bone] >= 0)
        build_matched (b, (guint)bone, ba);
      else
        build_kept (b, ba, bone);
      if (bone >= 0)
        animated[bone] = 1;
    }
  for (guint bone = 0; bone < b->nb; bone++)
    if (!animated[bone] && imp->joint[bone] >= 0 && moves (b, bone))
      {
        build_matched (b, bone, NULL);
        b->out->n_added_bones++;
        b->out->unchanged = FALSE;
      }
}

/* Fills the local transforms of every bone of the model at @frame. */
typedef void (*PoseFunc) (gpointer data, double frame, TressBfresSrt *srt);

/* Poses from @pose against the glTF's at every frame of @out: the largest
 * errors (of the skeleton's size; degrees) and where. */
static void
compare (TressGltfImport *imp, const TressGltfImportAnim *out, PoseFunc pose, gpointer data,
         const ImportPlacement *targets, double *max_position, double *max_rotation,
         char **worst_position, char **worst_rotation)
{
  const TressBfresSkeleton *sk = &imp->model->skeleton;
  guint nb = sk->n_bones;
  g_autofree TressBfresSrt *srt = g_new0 (TressBfresSrt, nb + 1);
  g_autofree TressBfresMatrix *world = g_new0 (TressBfresMatrix, nb + 1);
  g_autofree TressBfresMatrix *gworld = g_new0 (TressBfresMatrix, imp->doc->n_nodes + 1);

  *max_position = *max_rotation = 0;
  for (int f = 0; f <= out->frame_count; f++)
    {
      pose (data, f, srt);
      tress_bfres_pose_world (sk, srt, out->scaling, world);
      if (targets == NULL)
        tress_gltf_document_pose (imp->doc, (int)out->gltf_anim, f / imp->fps, imp->needed, gworld);
      for (guint bone = 0; bone < nb; bone++)
        {
          TressBfresMatrix target;
          double pos, angle;

          if (imp->joint[bone] < 0)
            continue;
          if (targets != NULL)
            import_placement_error (&world[bone], &targets[(gsize)f * nb + bone], &pos, &angle);
          else
            {
              target_of (imp, bone, gworld, &target);
              import_matrix_error (&world[bone], &target, &pos, &angle);
            }
          pos /= imp->size;
          angle *= 180 / G_PI;
          if (pos > *max_position || *worst_position == NULL)
            {
              *max_position = pos;
              g_free (*worst_position);
              *worst_position = g_strdup_printf ("%s at frame %d", sk->bones[bone].name, f);
            }
          if (angle > *max_rotation || *worst_rotation == NULL)
            {
              *max_rotation = angle;
              g_free (*worst_rotation);
              *worst_rotation = g_strdup_printf ("%s at frame %d", sk->bones[bone].name, f);
            }
        }
    }
}

/* Whether the poses sample() kept give pose_spec the original pose: every
 * bone with a joint that the original moves has a spec that sets all its
 * components. */
static gboolean
poses_kept (Build *b)
{
  g_autofree guint8 *covered = g_new0 (guint8, b->nb + 1);

  for (guint i = 0; i < b->out->n_bones; i++)
    if (b->spec_bone[i] >= 0)
      covered[b->spec_bone[i]] = 1;
  for (guint bone = 0; bone < b->nb; bone++)
    if (b->orig_varies[bone] && !covered[bone])
      return FALSE;
  return TRUE;
}

/* The original animation, each imported bone's components from the spec.
 * The original pose is the one sample() took at that frame: the bones
 * without a joint as it kept them, the others' as at frame 0 (where that
 * is their pose at every frame, or the spec sets every component: see
 * poses_kept), their rotation mode and scale compensation the same at
 * every frame. */
static void
pose_spec (gpointer data, double frame, TressBfresSrt *srt)
{
  Build *b = data;
  TressGltfImport *imp = b->imp;
  guint f = (guint)frame;

  if (b->orig_free == NULL)
    tress_bfres_animator_pose_srt (imp->animator, (int)b->skeletal, frame, import_sample_curve,
                                   imp->bfres, srt);
  else
    for (guint bone = 0; bone < b->nb; bone++)
      srt[bone] = b->free_slot[bone] >= 0
                      ? b->orig_free[(gsize)f * b->n_free + (guint)b->free_slot[bone]]
                      : b->orig0[bone];
  for (guint i = 0; i < b->out->n_bones; i++)
    {
      const TressBfresBoneAnimSpec *spec = &b->out->bones[i];
      int bone = b->spec_bone[i];

      if (bone < 0 || imp->joint[bone] < 0)
        continue;
      for (guint c = 0; c < TRESS_BFRES_N_CHANNELS; c++)
        set_component (&srt[bone], c,
                       spec->curves[c] != NULL ? tress_curve_evaluate (spec->curves[c], frame)
                                               : spec->base[c]);
    }
}

typedef struct
{
  TressSceneAnimator *animator;
  TressBfres *bfres;
  int skeletal;
} Stored;

static void
pose_stored (gpointer data, double frame, TressBfresSrt *srt)
{
  Stored *s = data;

  tress_bfres_animator_pose_srt (s->animator, s->skeletal, frame, import_sample_curve, s->bfres,
                                 srt);
}

gboolean
tress_gltf_import_measure_stored (TressGltfImport *imp, TressSceneAnimator *animator,
                                  TressBfres *bfres, TressGltfImportAnim *anim, GError **error)
{
  const TressBfresAnims *anims = tress_bfres_animator_get_anims (animator);
  Stored s = { animator, bfres, -1 };

  for (guint k = 0; k < anims->n_skeletal; k++)
    if (g_strcmp0 (anims->skeletal[k].name, anim->name) == 0)
      s.skeletal = (int)k;
  if (s.skeletal < 0
      || tress_bfres_animator_get_model (animator)->skeleton.n_bones
             != imp->model->skeleton.n_bones)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED,
                   "“%s” cannot be posed again from the file written", anim->name);
      return FALSE;
    }
  compare (imp, anim, pose_stored, &s, NULL, &anim->stored_position_error,
           &anim->stored_rotation_error, &anim->worst_stored_position,
           &anim->worst_stored_rotation);
  anim->stored_measured = TRUE;
  return TRUE;
}

/* The skeletal animation (among those the animator read) that is the
 * file's animation @file_anim, or −1 with an error. */
static int
skeletal_of (TressGltfImport *imp, guint file_anim, GError **error)
{
  TressBfresAnimInfo info;
  int k = 0;

  if (!tress_bfres_get_anim_info (imp->bfres, file_anim, &info)
      || g_strcmp0 (info.kind, "Skeletal") != 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, "animation %u is not a skeletal one",
                   file_anim);
      return -1;
    }
  for (guint i = 0; i < file_anim; i++)
    {
      TressBfresAnimInfo other;

      if (tress_bfres_get_anim_info (imp->bfres, i, &other)
          && g_strcmp0 (other.kind, "Skeletal") == 0)
        k++;
    }
  if ((guint)k >= imp->anims->n_skeletal
      || g_strcmp0 (imp->anims->skeletal[k].name, info.name) != 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED,
                   "the skeletal animation “%s” could not be read for posing", info.name);
      return -1;
    }
  return k;
}

TressGltfImportAnim *
tress_gltf_import_build (TressGltfImport *imp, guint gltf_anim, guint file_anim, GError **error)
{
  const TressGltfAnimation *ga = &imp->doc->animations[gltf_anim];
  g_autoptr (TressGltfImportAnim) out = NULL;
  g_autofree double *values = NULL;
  g_autofree TressBfresSrt *orig0 = NULL;
  g_autofree int *spec_bone = NULL;
  g_autofree ImportPlacement *targets = NULL;
  g_autofree guint8 *orig_varies = NULL;
  g_autofree int *free_slot = NULL;
  Build b = { imp };
  double end = tress_gltf_animation_get_end (ga), frames = round (end * imp->fps);
  int k = skeletal_of (imp, file_anim, error);

  if (k < 0)
    return NULL;
  b.nb = imp->model->skeleton.n_bones;
  if (!((frames + 1) * (b.nb + imp->n_needed) <= TRESS_GLTF_IMPORT_MAX_SAMPLES))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT,
                   "animations[%u] (“%s”): %.0f frames (last key at %.6g s, at %g fps) × %u bones "
                   "and %u nodes pass the import's budget of %u samples",
                   gltf_anim, ga->name ? ga->name : "", frames + 1, end, imp->fps, b.nb,
                   imp->n_needed, TRESS_GLTF_IMPORT_MAX_SAMPLES);
      return NULL;
    }
  b.nf = (guint)frames + 1;
  b.skeletal = (guint)k;
  b.sa = &imp->anims->skeletal[k];
  out = g_new0 (TressGltfImportAnim, 1);
  out->name = g_strdup (b.sa->name);
  out->gltf_anim = gltf_anim;
  out->file_anim = file_anim;
  out->skeletal = (guint)k;
  out->old_frame_count = b.sa->frame_count;
  out->frame_count = (int)frames;
  out->rotation_mode = b.sa->rotation_mode;
  out->skeleton_size = imp->size;
  out->unchanged = out->frame_count == out->old_frame_count;
  out->sample_rate = tress_gltf_animation_get_sample_rate (ga);
  out->names = g_ptr_array_new_with_free_func (g_free);
  out->unmatched_joints = g_ptr_array_new_with_free_func (g_free);
  out->kept_bones = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < imp->unmatched_joints->len; i++)
    g_ptr_array_add (out->unmatched_joints, g_strdup (imp->unmatched_joints->pdata[i]));
  for (guint bone = 0; bone < b.nb; bone++)
    out->n_matched += imp->joint[bone] >= 0;
  import_tolerances (imp, out);
  for (guint c = 0; c < TRESS_BFRES_N_CHANNELS; c++)
    b.tolerance[c] = import_channel_tolerance (out, c, imp->tolerance > 0);
  b.imp = imp;
  b.out = out;
  values = g_new0 (double, (gsize)b.nb *TRESS_BFRES_N_CHANNELS *b.nf + 1);
  orig0 = g_new0 (TressBfresSrt, b.nb + 1);
  /* (bounded as the values: 7 doubles a sample to their 10) */
  targets = g_new (ImportPlacement, (gsize)b.nb * b.nf + 1);
  b.free_slot = free_slot = g_new (int, b.nb + 1);
  for (guint bone = 0; bone < b.nb; bone++)
    free_slot[bone] = imp->joint[bone] < 0 ? (int)b.n_free++ : -1;
  b.orig_free = g_new (TressBfresSrt, (gsize)b.n_free * b.nf + 1);
  b.orig_varies = orig_varies = g_new0 (guint8, b.nb + 1);
  b.values = values;
  b.orig0 = orig0;
  b.targets = targets;
  if (!sample (&b, error))
    {
      g_free (b.orig_free);
      return NULL;
    }
  out->scaling = b.scaling;
  build_specs (&b);
  /* Looked up once, not at every frame of the comparison. */
  spec_bone = g_new0 (int, out->n_bones + 1);
  for (guint i = 0; i < out->n_bones; i++)
    spec_bone[i] = tress_bfres_skeleton_find_bone (&imp->model->skeleton, out->bones[i].bone);
  b.spec_bone = spec_bone;
  if (!poses_kept (&b))
    g_clear_pointer (&b.orig_free, g_free); /* pose_spec poses the original again */
  compare (imp, out, pose_spec, &b, targets, &out->max_position_error, &out->max_rotation_error,
           &out->worst_position, &out->worst_rotation);
  g_free (b.orig_free);
  return g_steal_pointer (&out);
}
