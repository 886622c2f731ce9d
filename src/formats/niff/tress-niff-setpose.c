/* tress-niff-setpose.c: an object's local transform at one frame, as keys
 *
 * Works through the curve operations only (TressCurveOps of the NIFF
 * format): each component's curve is found by its path, as the curve tree
 * shows it, and set with tress_curve_commit_value_at. The group's state is
 * saved first and put back on any refusal.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-niff-setpose.h"

#include <math.h>
#include <string.h>

#include "core/tress-error.h"

/* Components: translation X Y Z, rotation X Y Z, scale X Y Z. The NIFF2
 * channels that replace the NIFF1 records when they have keys, then the
 * NIFF1 records' curves. */
static const char *const niff2_paths[9][2] = { { "Translation/X", NULL },
                                               { "Translation/Y", NULL },
                                               { "Translation/Z", NULL },
                                               { "RotateX/X", NULL },
                                               { "RotateY/Y", NULL },
                                               { "RotateZ/Z", NULL },
                                               { "UniqueScale/X", "ClassicalScale/X" },
                                               { "UniqueScale/Y", "ClassicalScale/Y" },
                                               { "UniqueScale/Z", "ClassicalScale/Z" } };
static const char *const niff1_paths[9]
    = { "Translate/X", "Translate/Y", "Translate/Z", "Rotate/X", "Rotate/Y",
        "Rotate/Z",    "Scale/X",     "Scale/Y",     "Scale/Z" };

/* The part of @path after the group's name and '/'. */
static const char *
channel_of (const TressCurve *curve)
{
  const char *slash = curve->path != NULL ? strchr (curve->path, '/') : NULL;

  return slash != NULL ? slash + 1 : "";
}

/* Whether @object is among @owners ("A, B": the objects using a group). */
static gboolean
uses (const char *owners, const char *object)
{
  g_auto (GStrv) names = owners != NULL ? g_strsplit (owners, ", ", -1) : NULL;

  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    if (g_strcmp0 (names[i], object) == 0)
      return TRUE;
  return FALSE;
}

/* The curves of AnimGroup @group per component, the object names using it
 * (to free) and, where the rotation is not one Euler XYZ angles can set, a
 * curve of the channel that turns it instead. */
static void
find_curves (TressNiffFile *file, guint group, int curve[9], int *first, int *rotate_other,
             char **owners, const char *object, gboolean *owned, const char *group_name)
{
  const TressCurveOps *ops = tress_format_niff.curves;
  guint n = ops->n_curves (file);

  for (guint c = 0; c < 9; c++)
    curve[c] = -1;
  *first = -1;
  *rotate_other = -1;
  /* Each component's curve: a NIFF2 channel with keys, else the records. */
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < n; i++)
      {
        g_autoptr (TressCurve) c = NULL;
        const char *ch;

        if (tress_niff_curve_get_group (file, i) != group)
          continue;
        c = ops->get_curve (file, i);
        if (*first < 0)
          *first = (int)i;
        if (owners != NULL && *owners == NULL && c->owner != NULL)
          *owners = g_strdup (c->owner);
        if (object != NULL && (uses (c->owner, object) || g_strcmp0 (group_name, object) == 0))
          *owned = TRUE;
        if (tress_curve_get_n_keys (c) == 0)
          continue;
        ch = channel_of (c);
        if (g_str_has_prefix (ch, "RotateAxis/") || g_str_has_prefix (ch, "OrientationXY/"))
          *rotate_other = (int)i;
        for (guint k = 0; k < 9; k++)
          if (curve[k] < 0
              && (pass == 0 ? g_strcmp0 (ch, niff2_paths[k][0]) == 0
                                  || g_strcmp0 (ch, niff2_paths[k][1]) == 0
                            : g_strcmp0 (ch, niff1_paths[k]) == 0))
            curve[k] = (int)i;
      }
}

/* Why the rotation of @info's group cannot be set as Euler XYZ angles, or NULL. */
static char *
rotation_refusal (TressNiffFile *file, const TressNiffGroupInfo *info, const int curve[9],
                  int rotate_other)
{
  const char *name = info->name != NULL ? info->name : "";

  if (rotate_other >= 0)
    return g_strdup_printf ("AnimGroup \"%s\" rotates through its RotateAxis or OrientationXY "
                            "channel, not Euler angles",
                            name);
  for (guint k = 3; k < 6; k++)
    if (curve[k] >= 0)
      {
        g_autoptr (TressCurve) c = tress_format_niff.curves->get_curve (file, (guint)curve[k]);

        if (c->euler_order != TRESS_EULER_XYZ && c->euler_order != TRESS_EULER_NONE)
          return g_strdup_printf ("AnimGroup \"%s\" turns its Euler angles in another order "
                                  "than XYZ",
                                  name);
      }
  return NULL;
}

gboolean
tress_niff_pose_curves (TressNiffFile *file, guint group, int curves[9], char **no_rotation)
{
  TressNiffGroupInfo info;
  int first, rotate_other;
  gboolean owned = FALSE;
  g_autofree char *why = NULL;

  for (guint c = 0; c < 9; c++)
    curves[c] = -1;
  if (no_rotation != NULL)
    *no_rotation = NULL;
  if (!tress_niff_group_get_info (file, group, &info))
    return FALSE;
  find_curves (file, group, curves, &first, &rotate_other, NULL, NULL, &owned, info.name);
  why = rotation_refusal (file, &info, curves, rotate_other);
  if (why != NULL)
    {
      for (guint k = 3; k < 6; k++)
        curves[k] = -1;
      if (no_rotation != NULL)
        *no_rotation = g_steal_pointer (&why);
    }
  return TRUE;
}

gboolean
tress_niff_set_pose (TressNiffFile *file, guint group, const char *object, double frame,
                     const TressNiffObjectPose *pose, TressCommitConsent consent, GArray *changes,
                     GError **error)
{
  const TressCurveOps *ops = tress_format_niff.curves;
  int curve[9], first = -1, rotate_other = -1;
  gboolean owned = object == NULL;
  double want[9], length;
  TressNiffGroupInfo info;
  g_autoptr (GBytes) state = NULL;
  g_autoptr (GArray) done = g_array_new (FALSE, TRUE, sizeof (TressNiffPoseChange));
  g_autofree char *owners = NULL;

  if (!tress_niff_group_get_info (file, group, &info))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE, "there is no AnimGroup %u", group);
      return FALSE;
    }
  for (guint c = 0; c < 9; c++)
    {
      const double *v = c < 3 ? pose->translation : c < 6 ? pose->rotation : pose->scale;
      gboolean asked = c < 3 ? pose->has_translation : c < 6 ? pose->has_rotation : pose->has_scale;

      want[c] = asked ? v[c % 3] : NAN;
      if (asked && !(fabs (v[c % 3]) <= G_MAXFLOAT))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                       "%s %g is not a value a 32-bit float holds", niff1_paths[c], v[c % 3]);
          return FALSE;
        }
    }
  find_curves (file, group, curve, &first, &rotate_other, &owners, object, &owned, info.name);
  if (!owned)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                   "AnimGroup \"%s\" is not used by an object \"%s\" (%s%s)",
                   info.name != NULL ? info.name : "", object,
                   owners != NULL ? "its objects: " : "no object uses it",
                   owners != NULL ? owners : "");
      return FALSE;
    }
  length = tress_niff_group_get_frame_count (file, group);
  if (!(frame >= 0 && frame <= length))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                   "frame %g lies outside AnimGroup \"%s\" (frames 0 to %g)", frame,
                   info.name != NULL ? info.name : "", length);
      return FALSE;
    }
  if (frame != floor (frame))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED,
                   "frame %g is between whole frames: NIFF stores keys at whole frames only",
                   frame);
      return FALSE;
    }
  if (pose->has_rotation)
    {
      g_autofree char *why = rotation_refusal (file, &info, curve, rotate_other);

      if (why != NULL)
        {
          g_set_error_literal (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED, why);
          return FALSE;
        }
    }
  for (guint k = 0; k < 9; k++)
    {
      TressNiffPoseChange ch
          = { .requested = want[k], .curve = curve[k], .angle = k >= 3 && k < 6 };
      g_autoptr (TressCurve) c = NULL;
      double now;

      if (isnan (want[k]))
        continue;
      if (curve[k] < 0)
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED,
                       "AnimGroup \"%s\" has no keys for %s: adding a channel to a group is not "
                       "supported",
                       info.name != NULL ? info.name : "", niff1_paths[k]);
          return FALSE;
        }
      c = ops->get_curve (file, (guint)curve[k]);
      g_strlcpy (ch.label, channel_of (c), sizeof ch.label);
      now = tress_curve_evaluate (c, frame);
      if (ch.angle && isfinite (now))
        ch.requested += 2 * G_PI * round ((now - ch.requested) / (2 * G_PI));
      want[k] = ch.requested;
      /* Already played there (f32 values): left alone. */
      ch.action = (float)want[k] == (float)now ? 0 : 1;
      g_array_append_val (done, ch);
    }
  state = first >= 0 ? ops->save_state (file, (guint)first) : NULL;
  for (guint i = 0; i < done->len; i++)
    {
      TressNiffPoseChange *ch = &g_array_index (done, TressNiffPoseChange, i);
      g_autofree char *what
          = g_strdup_printf ("%s %s", info.name != NULL ? info.name : "", ch->label);
      gboolean inserted = FALSE;
      double max_error = 0;

      if (ch->action == 0)
        continue;
      if (!tress_curve_commit_value_at (ops, file, (guint)ch->curve, frame, ch->requested,
                                        consent & ~TRESS_COMMIT_LENGTHEN, what, &inserted,
                                        &max_error, NULL, error))
        {
          if (state != NULL)
            ops->restore_state (file, (guint)first, state);
          return FALSE;
        }
      ch->action = inserted ? 2 : 1;
    }
  for (guint i = 0; i < done->len; i++)
    {
      TressNiffPoseChange *ch = &g_array_index (done, TressNiffPoseChange, i);
      g_autoptr (TressCurve) c = ops->get_curve (file, (guint)ch->curve);

      ch->stored = tress_curve_evaluate (c, frame);
    }
  if (changes != NULL)
    g_array_append_vals (changes, done->data, done->len);
  return TRUE;
}
