/* tress-bfres-pose.c: skeleton poses of BFRES models
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-bfres-pose.h"

#include <math.h>
#include <string.h>

#include "formats/tress-problem.h"

void
tress_bfres_matrix_identity (TressBfresMatrix *out)
{
  memset (out, 0, sizeof *out);
  out->m[0][0] = out->m[1][1] = out->m[2][2] = 1;
}

void
tress_bfres_matrix_multiply (const TressBfresMatrix *a, const TressBfresMatrix *b,
                             TressBfresMatrix *out)
{
  TressBfresMatrix r;

  for (guint i = 0; i < 3; i++)
    {
      for (guint j = 0; j < 4; j++)
        r.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] + a->m[i][2] * b->m[2][j];
      r.m[i][3] += a->m[i][3];
    }
  *out = r;
}

gboolean
tress_bfres_matrix_invert (const TressBfresMatrix *a, TressBfresMatrix *out)
{
  const double (*m)[4] = a->m;
  double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
               - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
               + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  TressBfresMatrix r;

  if (!isfinite (det) || fabs (det) < 1e-300)
    {
      tress_bfres_matrix_identity (out);
      return FALSE;
    }
  r.m[0][0] = (m[1][1] * m[2][2] - m[1][2] * m[2][1]) / det;
  r.m[0][1] = (m[0][2] * m[2][1] - m[0][1] * m[2][2]) / det;
  r.m[0][2] = (m[0][1] * m[1][2] - m[0][2] * m[1][1]) / det;
  r.m[1][0] = (m[1][2] * m[2][0] - m[1][0] * m[2][2]) / det;
  r.m[1][1] = (m[0][0] * m[2][2] - m[0][2] * m[2][0]) / det;
  r.m[1][2] = (m[0][2] * m[1][0] - m[0][0] * m[1][2]) / det;
  r.m[2][0] = (m[1][0] * m[2][1] - m[1][1] * m[2][0]) / det;
  r.m[2][1] = (m[0][1] * m[2][0] - m[0][0] * m[2][1]) / det;
  r.m[2][2] = (m[0][0] * m[1][1] - m[0][1] * m[1][0]) / det;
  for (guint i = 0; i < 3; i++)
    r.m[i][3] = -(r.m[i][0] * m[0][3] + r.m[i][1] * m[1][3] + r.m[i][2] * m[2][3]);
  *out = r;
  return TRUE;
}

void
tress_bfres_matrix_to_graphene (const TressBfresMatrix *a, graphene_matrix_t *out)
{
  float v[16];

  /* Row r of the row-vector matrix is column r of the column-vector one. */
  for (guint r = 0; r < 4; r++)
    for (guint c = 0; c < 3; c++)
      v[4 * r + c] = (float)a->m[c][r];
  v[3] = v[7] = v[11] = 0;
  v[15] = 1;
  graphene_matrix_init_from_float (out, v);
}

void
tress_bfres_matrix_from_3x4 (const float v[12], TressBfresMatrix *out)
{
  for (guint i = 0; i < 3; i++)
    for (guint j = 0; j < 4; j++)
      out->m[i][j] = v[4 * i + j];
}

void
tress_bfres_rotation_matrix (const TressBfresSrt *srt, TressBfresMatrix *out)
{
  double (*r)[4] = out->m;

  memset (out, 0, sizeof *out);
  if (srt->rotation_mode == TRESS_BFRES_ROTATION_QUATERNION)
    {
      double x = srt->rotation[0], y = srt->rotation[1], z = srt->rotation[2], w = srt->rotation[3];
      double n = sqrt (x * x + y * y + z * z + w * w);

      if (!(n > 1e-12) || !isfinite (n))
        {
          tress_bfres_matrix_identity (out);
          return;
        }
      /* Interpolated curves need not keep the quaternion a unit one. */
      x /= n, y /= n, z /= n, w /= n;
      r[0][0] = 1 - 2 * (y * y + z * z);
      r[0][1] = 2 * (x * y - z * w);
      r[0][2] = 2 * (x * z + y * w);
      r[1][0] = 2 * (x * y + z * w);
      r[1][1] = 1 - 2 * (x * x + z * z);
      r[1][2] = 2 * (y * z - x * w);
      r[2][0] = 2 * (x * z - y * w);
      r[2][1] = 2 * (y * z + x * w);
      r[2][2] = 1 - 2 * (x * x + y * y);
    }
  else
    {
      double cx = cos (srt->rotation[0]), sx = sin (srt->rotation[0]);
      double cy = cos (srt->rotation[1]), sy = sin (srt->rotation[1]);
      double cz = cos (srt->rotation[2]), sz = sin (srt->rotation[2]);

      /* Rz · Ry · Rx */
      r[0][0] = cy * cz;
      r[0][1] = sx * sy * cz - cx * sz;
      r[0][2] = cx * sy * cz + sx * sz;
      r[1][0] = cy * sz;
      r[1][1] = sx * sy * sz + cx * cz;
      r[1][2] = cx * sy * sz - sx * cz;
      r[2][0] = -sy;
      r[2][1] = sx * cy;
      r[2][2] = cx * cy;
    }
}

void
tress_bfres_srt_matrix (const TressBfresSrt *srt, TressBfresMatrix *out)
{
  tress_bfres_rotation_matrix (srt, out);
  for (guint i = 0; i < 3; i++)
    {
      for (guint j = 0; j < 3; j++)
        out->m[i][j] *= srt->scale[j];
      out->m[i][3] = srt->translation[i];
    }
}

void
tress_bfres_euler_to_quaternion (const double e[3], double q[4])
{
  double cx = cos (e[0] / 2), sx = sin (e[0] / 2);
  double cy = cos (e[1] / 2), sy = sin (e[1] / 2);
  double cz = cos (e[2] / 2), sz = sin (e[2] / 2);

  /* q = qz · qy · qx */
  q[0] = sx * cy * cz - cx * sy * sz;
  q[1] = cx * sy * cz + sx * cy * sz;
  q[2] = cx * cy * sz - sx * sy * cz;
  q[3] = cx * cy * cz + sx * sy * sz;
}

static void
quaternion_to_euler (const double q[4], double e[3])
{
  TressBfresSrt srt = { .rotation = { q[0], q[1], q[2], q[3] },
                        .rotation_mode = TRESS_BFRES_ROTATION_QUATERNION };
  TressBfresMatrix m;
  double sy;

  tress_bfres_rotation_matrix (&srt, &m);
  sy = CLAMP (-m.m[2][0], -1.0, 1.0);
  e[1] = asin (sy);
  if (fabs (sy) < 1 - 1e-9)
    {
      e[0] = atan2 (m.m[2][1], m.m[2][2]);
      e[2] = atan2 (m.m[1][0], m.m[0][0]);
    }
  else
    {
      /* Gimbal lock: X and Z turn about the same axis; put it all in X. */
      e[0] = atan2 (-m.m[1][2], m.m[1][1]);
      e[2] = 0;
    }
}

/* Rewrites @srt's rotation in @mode. */
static void
convert_rotation (TressBfresSrt *srt, TressBfresRotation mode)
{
  double r[4];

  if (srt->rotation_mode == mode)
    return;
  if (mode == TRESS_BFRES_ROTATION_QUATERNION)
    tress_bfres_euler_to_quaternion (srt->rotation, r);
  else
    {
      quaternion_to_euler (srt->rotation, r);
      r[3] = 1;
    }
  memcpy (srt->rotation, r, sizeof r);
  srt->rotation_mode = mode;
}

void
tress_bfres_bind_srt (const TressBfresSkeleton *skeleton, TressBfresSrt *srt)
{
  for (guint i = 0; i < skeleton->n_bones; i++)
    {
      const TressBfresBone *b = &skeleton->bones[i];

      for (guint k = 0; k < 3; k++)
        {
          srt[i].scale[k] = b->scale[k];
          srt[i].translation[k] = b->translation[k];
        }
      for (guint k = 0; k < 4; k++)
        srt[i].rotation[k] = b->rotation[k];
      srt[i].rotation_mode = b->rotation_mode;
      srt[i].segment_scale_compensate = (b->flags & TRESS_BFRES_BONE_SEGMENT_SCALE_COMPENSATE) != 0;
    }
}

typedef struct
{
  const TressBfresSkeleton *sk;
  const TressBfresSrt *srt;
  TressBfresScaling scaling;
  TressBfresMatrix *world;
  /* Softimage: the accumulated rotation (in world[]'s 3×3 until scaled) and scale. */
  TressBfresMatrix *rot;
  double *scale; /* 3 per bone */
  guint8 *done;
} Compose;

static void
compose_bone (Compose *c, guint i)
{
  const TressBfresSrt *s = &c->srt[i];
  int p = c->sk->bones[i].parent;
  TressBfresMatrix local;

  c->done[i] = 1;
  if (p >= 0 && !c->done[p])
    compose_bone (c, (guint)p);
  if (c->scaling == TRESS_BFRES_SCALING_SOFTIMAGE)
    {
      TressBfresMatrix r;
      double ps[3] = { 1, 1, 1 }, t[3];

      tress_bfres_rotation_matrix (s, &r);
      if (p >= 0)
        {
          memcpy (ps, c->scale + 3 * p, sizeof ps);
          tress_bfres_matrix_multiply (&c->rot[p], &r, &c->rot[i]);
        }
      else
        c->rot[i] = r;
      for (guint k = 0; k < 3; k++)
        {
          c->scale[3 * i + k] = ps[k] * s->scale[k];
          t[k] = ps[k] * s->translation[k];
        }
      c->world[i] = c->rot[i];
      for (guint k = 0; k < 3; k++)
        {
          const TressBfresMatrix *pr = p >= 0 ? &c->rot[p] : NULL;
          double moved
              = pr != NULL ? pr->m[k][0] * t[0] + pr->m[k][1] * t[1] + pr->m[k][2] * t[2] : t[k];

          c->world[i].m[k][3] = (p >= 0 ? c->world[p].m[k][3] : 0) + moved;
          for (guint j = 0; j < 3; j++)
            c->world[i].m[k][j] *= c->scale[3 * i + j];
        }
      return;
    }
  tress_bfres_srt_matrix (s, &local);
  if (c->scaling == TRESS_BFRES_SCALING_MAYA && s->segment_scale_compensate && p >= 0)
    {
      const double *ps = c->srt[p].scale;

      /* T · S(parent)⁻¹ · R · S: scale row k of the 3×3 part. */
      for (guint k = 0; k < 3; k++)
        if (ps[k] != 0)
          for (guint j = 0; j < 3; j++)
            local.m[k][j] /= ps[k];
    }
  if (p >= 0)
    tress_bfres_matrix_multiply (&c->world[p], &local, &c->world[i]);
  else
    c->world[i] = local;
}

void
tress_bfres_pose_world (const TressBfresSkeleton *skeleton, const TressBfresSrt *srt,
                        TressBfresScaling scaling, TressBfresMatrix *world)
{
  g_autofree guint8 *done = g_new0 (guint8, skeleton->n_bones + 1);
  g_autofree TressBfresMatrix *rot = NULL;
  g_autofree double *scale = NULL;
  Compose c = { skeleton, srt, scaling, world, NULL, NULL, done };

  if (scaling == TRESS_BFRES_SCALING_SOFTIMAGE)
    {
      rot = g_new0 (TressBfresMatrix, skeleton->n_bones + 1);
      scale = g_new0 (double, 3 * (gsize)skeleton->n_bones + 3);
      c.rot = rot;
      c.scale = scale;
    }
  for (guint i = 0; i < skeleton->n_bones; i++)
    if (!done[i])
      compose_bone (&c, i);
}

gboolean
tress_bfres_bone_is_below (const TressBfresSkeleton *skeleton, guint bone, guint top)
{
  for (guint steps = 0; bone < skeleton->n_bones && steps <= skeleton->n_bones; steps++)
    {
      int p;

      if (bone == top)
        return TRUE;
      p = skeleton->bones[bone].parent;
      if (p < 0)
        return FALSE;
      bone = (guint)p;
    }
  return FALSE;
}

void
tress_bfres_pose_world_below (const TressBfresSkeleton *skeleton, const TressBfresSrt *srt,
                              TressBfresScaling scaling, TressBfresMatrix *world, guint top,
                              guint8 *below)
{
  g_autofree guint8 *done = g_new0 (guint8, skeleton->n_bones + 1);
  Compose c = { skeleton, srt, scaling, world, NULL, NULL, done };

  /* Parents usually come first: one pass, else the walk up. */
  for (guint i = 0; i < skeleton->n_bones; i++)
    {
      int p = skeleton->bones[i].parent;

      below[i]
          = i == top
            || (p >= 0 && (guint)p < i ? below[p] : tress_bfres_bone_is_below (skeleton, i, top));
    }
  /* Softimage scaling carries each bone's rotation and scale down apart from
   * its matrix: everything again. */
  if (scaling == TRESS_BFRES_SCALING_SOFTIMAGE)
    {
      tress_bfres_pose_world (skeleton, srt, scaling, world);
      memset (below, 1, skeleton->n_bones);
      return;
    }
  for (guint i = 0; i < skeleton->n_bones; i++)
    done[i] = !below[i];
  for (guint i = 0; i < skeleton->n_bones; i++)
    if (!done[i])
      compose_bone (&c, i);
}

GPtrArray *
tress_bfres_check_bind (const TressBfresModel *model, double tolerance)
{
  const TressBfresSkeleton *sk = &model->skeleton;
  GPtrArray *problems = tress_problem_list_new ();
  g_autofree TressBfresSrt *srt = g_new0 (TressBfresSrt, sk->n_bones + 1);
  g_autofree TressBfresMatrix *world = g_new0 (TressBfresMatrix, sk->n_bones + 1);
  double size = 1;

  if (tolerance <= 0)
    tolerance = 1e-4;
  tress_bfres_bind_srt (sk, srt);
  tress_bfres_pose_world (sk, srt, sk->scaling, world);
  for (guint i = 0; i < sk->n_bones; i++)
    for (guint k = 0; k < 3; k++)
      size = MAX (size, fabs (world[i].m[k][3]));
  for (guint i = 0; i < sk->n_bones; i++)
    {
      const TressBfresBone *b = &sk->bones[i];
      TressBfresMatrix inv, prod;
      double worst = 0;
      guint wr = 0, wc = 0;

      if (b->smooth_matrix < 0)
        continue;
      tress_bfres_matrix_from_3x4 (sk->inverse_model + 12 * b->smooth_matrix, &inv);
      tress_bfres_matrix_multiply (&world[i], &inv, &prod);
      for (guint r = 0; r < 3; r++)
        for (guint c = 0; c < 4; c++)
          {
            double want = r == c ? 1 : 0;
            double off = fabs (prod.m[r][c] - want) / (c == 3 ? size : 1);

            if (off > worst)
              worst = off, wr = r, wc = c;
          }
      if (worst > tolerance)
        g_ptr_array_add (
            problems, tress_problem_new (TRESS_SEVERITY_ERROR, b->name,
                                         sk->inverse_pos + 48 * (gsize)b->smooth_matrix, NULL, -1,
                                         "bone \"%s\": its bind world matrix times its inverse "
                                         "model matrix (smooth matrix %d) is not the identity: "
                                         "row %u, column %u is %.6g",
                                         b->name, b->smooth_matrix, wr, wc, prod.m[wr][wc]));
    }
  return problems;
}

void
tress_bfres_pose_srt (const TressBfresSkeleton *skeleton, const TressBfresSkeletalAnim *anim,
                      const int *bone_anims, TressBfresCurveValueFunc value, gpointer user_data,
                      TressBfresSrt *srt)
{
  tress_bfres_bind_srt (skeleton, srt);
  for (guint i = 0; i < skeleton->n_bones; i++)
    {
      TressBfresSrt *s = &srt[i];
      const TressBfresBoneAnim *ba;
      int a = bone_anims != NULL ? bone_anims[i] : -1;

      convert_rotation (s, anim->rotation_mode);
      if (a < 0 || (guint)a >= anim->n_bone_anims)
        continue;
      ba = &anim->bone_anims[a];
      s->segment_scale_compensate
          = (ba->flags & TRESS_BFRES_BONE_ANIM_SEGMENT_SCALE_COMPENSATE) != 0;
      if (ba->flags & TRESS_BFRES_BONE_ANIM_BASE_SCALE)
        for (guint k = 0; k < 3; k++)
          s->scale[k] = ba->scale[k];
      if (ba->flags & TRESS_BFRES_BONE_ANIM_BASE_ROTATE)
        for (guint k = 0; k < 4; k++)
          s->rotation[k] = ba->rotation[k];
      if (ba->flags & TRESS_BFRES_BONE_ANIM_BASE_TRANSLATE)
        for (guint k = 0; k < 3; k++)
          s->translation[k] = ba->translation[k];
      for (guint k = 0; k < ba->n_curves; k++)
        {
          TressBfresChannel ch = tress_bfres_channel_from_target (ba->curves[k].target);
          double v;

          if (ch == TRESS_BFRES_CHANNEL_NONE || !value (user_data, (guint)a, &ba->curves[k], &v)
              || !isfinite (v))
            continue;
          if (ch <= TRESS_BFRES_CHANNEL_SCALE_Z)
            s->scale[ch - TRESS_BFRES_CHANNEL_SCALE_X] = v;
          else if (ch <= TRESS_BFRES_CHANNEL_TRANSLATE_Z)
            s->translation[ch - TRESS_BFRES_CHANNEL_TRANSLATE_X] = v;
          else
            s->rotation[ch - TRESS_BFRES_CHANNEL_ROTATE_X] = v;
        }
    }
}
