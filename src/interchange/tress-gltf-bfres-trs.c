/* tress-gltf-bfres-trs.c: BFRES local transforms as glTF node transforms
 *
 * glTF composes world = parent's world · T · R · S. The BFRES standard
 * scaling composes the same way, so a bone's own scale, rotation and
 * translation are its node's. Maya segment scale compensation undoes the
 * parent's scale: W = W(parent) · T · S(parent)⁻¹ · R · S, which is
 * T · R · (S / s) when the parent's scale is a uniform s. Softimage scaling
 * accumulates scale apart from rotation, the same as glTF's rule while the
 * accumulated parent scale is uniform. Otherwise the local matrix
 * W(parent)⁻¹ · W holds a shear glTF cannot hold: it is decomposed into the
 * nearest T · R · S (tress_gltf_trs_decompose) and counted.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-gltf-bfres.h"

#include <math.h>
#include <string.h>

#define UNIFORM_EPS 1e-6

static void
identity_quaternion (double q[4])
{
  q[0] = q[1] = q[2] = 0;
  q[3] = 1;
}

/* The rotation of @srt as a unit quaternion (as tress_bfres_rotation_matrix
 * reads it: a quaternion is normalized, a null one is no rotation). */
static void
srt_quaternion (const TressBfresSrt *srt, double q[4])
{
  double n;

  if (srt->rotation_mode == TRESS_BFRES_ROTATION_EULER_XYZ)
    tress_bfres_euler_to_quaternion (srt->rotation, q);
  else
    memcpy (q, srt->rotation, 4 * sizeof (double));
  n = sqrt (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (!(n > 1e-12) || !isfinite (n))
    {
      identity_quaternion (q);
      return;
    }
  for (guint k = 0; k < 4; k++)
    q[k] /= n;
}

static gboolean
uniform (const double s[3])
{
  double tol = UNIFORM_EPS * MAX (fabs (s[0]), 1e-30);

  return s[0] != 0 && isfinite (s[0]) && fabs (s[1] - s[0]) <= tol && fabs (s[2] - s[0]) <= tol;
}

/* The product of the scales of @bone's ancestors (Softimage), FALSE on a
 * loop in the parents. */
static gboolean
ancestor_scale (const TressBfresSkeleton *sk, const TressBfresSrt *srt, guint bone, double s[3])
{
  int p = sk->bones[bone].parent;
  guint steps = 0;

  s[0] = s[1] = s[2] = 1;
  while (p >= 0 && (guint)p < sk->n_bones)
    {
      if (++steps > sk->n_bones)
        return FALSE;
      for (guint k = 0; k < 3; k++)
        s[k] *= srt[p].scale[k];
      p = sk->bones[p].parent;
    }
  return TRUE;
}

typedef struct
{
  const TressBfresSkeleton *sk;
  const TressBfresSrt *srt;
  TressBfresScaling scaling;
  TressGltfTrs *out;
  TressBfresMatrix *world;  /* the BFRES world matrices */
  TressBfresMatrix *gworld; /* the glTF world matrices, where they differ */
  guint8 *state;            /* 0 not done, 1 in progress, 2 done */
  gboolean *off;            /* the glTF world differs from the BFRES one */
  guint n_off;
} Trs;

/* Whether bone @i's own transforms compose exactly by glTF's rule on its
 * parent's exact world matrix; *divide gets the scale to take out of the
 * bone's (Maya compensation of a uniform parent scale). */
static gboolean
exact (Trs *c, guint i, int p, double *divide)
{
  const TressBfresSrt *s = &c->srt[i];

  *divide = 1;
  if (p < 0)
    return TRUE;
  if (c->scaling == TRESS_BFRES_SCALING_MAYA && s->segment_scale_compensate)
    {
      *divide = c->srt[p].scale[0];
      return uniform (c->srt[p].scale);
    }
  if (c->scaling == TRESS_BFRES_SCALING_SOFTIMAGE)
    {
      double acc[3];

      return ancestor_scale (c->sk, c->srt, i, acc) && uniform (acc);
    }
  return TRUE;
}

static gboolean
matrices_differ (const TressBfresMatrix *a, const TressBfresMatrix *b)
{
  double size = 1;

  for (guint r = 0; r < 3; r++)
    size = MAX (size, fabs (a->m[r][3]));
  for (guint r = 0; r < 3; r++)
    for (guint k = 0; k < 4; k++)
      if (!(fabs (a->m[r][k] - b->m[r][k]) <= 1e-6 * (k == 3 ? size : 1)))
        return TRUE;
  return FALSE;
}

static void
trs_bone (Trs *c, guint i)
{
  int p = c->sk->bones[i].parent;
  const TressBfresMatrix *parent_world = NULL;
  TressBfresMatrix inv, local;
  TressBfresSrt as_srt = { .rotation_mode = TRESS_BFRES_ROTATION_QUATERNION };
  double divide;

  c->state[i] = 1;
  if (p >= 0 && ((guint)p >= c->sk->n_bones || c->state[p] == 1))
    p = -1; /* a loop in the parents is cut, as tress_bfres_pose_world does */
  if (p >= 0 && c->state[p] == 0)
    trs_bone (c, (guint)p);
  c->state[i] = 2;
  if ((p < 0 || !c->off[p]) && exact (c, i, p, &divide))
    {
      for (guint k = 0; k < 3; k++)
        {
          c->out[i].translation[k] = c->srt[i].translation[k];
          c->out[i].scale[k] = c->srt[i].scale[k] / divide;
        }
      srt_quaternion (&c->srt[i], c->out[i].rotation);
      return;
    }
  /* The local matrix that carries the parent's glTF world matrix to this
   * bone's BFRES one, without its shear: the position is exact, the axes
   * the nearest glTF can give. */
  if (c->world == NULL)
    {
      c->world = g_new0 (TressBfresMatrix, c->sk->n_bones + 1);
      c->gworld = g_new0 (TressBfresMatrix, c->sk->n_bones + 1);
      tress_bfres_pose_world (c->sk, c->srt, c->scaling, c->world);
    }
  if (p >= 0)
    parent_world = c->off[p] ? &c->gworld[p] : &c->world[p];
  if (parent_world != NULL)
    {
      tress_bfres_matrix_invert (parent_world, &inv);
      tress_bfres_matrix_multiply (&inv, &c->world[i], &local);
    }
  else
    local = c->world[i];
  tress_gltf_trs_decompose (local.m, &c->out[i]);
  /* What glTF makes of it. */
  for (guint k = 0; k < 3; k++)
    {
      as_srt.translation[k] = c->out[i].translation[k];
      as_srt.scale[k] = c->out[i].scale[k];
    }
  memcpy (as_srt.rotation, c->out[i].rotation, sizeof as_srt.rotation);
  tress_bfres_srt_matrix (&as_srt, &local);
  if (parent_world != NULL)
    tress_bfres_matrix_multiply (parent_world, &local, &c->gworld[i]);
  else
    c->gworld[i] = local;
  c->off[i] = matrices_differ (&c->gworld[i], &c->world[i]);
  c->n_off += c->off[i];
}

guint
tress_gltf_bfres_trs (const TressBfresSkeleton *sk, const TressBfresSrt *srt,
                      TressBfresScaling scaling, TressGltfTrs *out)
{
  g_autofree guint8 *state = g_new0 (guint8, sk->n_bones + 1);
  g_autofree gboolean *off = g_new0 (gboolean, sk->n_bones + 1);
  Trs c = { sk, srt, scaling, out, NULL, NULL, state, off, 0 };

  for (guint i = 0; i < sk->n_bones; i++)
    if (state[i] == 0)
      trs_bone (&c, i);
  g_free (c.world);
  g_free (c.gworld);
  return c.n_off;
}
