/* tress-gltf-import-solve.c: local transforms, Euler angles and curves of the glTF import
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-gltf-import-private.h"

#include <math.h>
#include <string.h>

#include "tress-gltf-trs.h"

/* An Euler X angle is kept from the frame before where that costs at most
 * this much of the rotation (radians). */
#define KEEP_X 1e-7

static void
set_trs (TressBfresSrt *srt, const TressGltfTrs *trs, double q[4])
{
  for (guint k = 0; k < 3; k++)
    {
      srt->translation[k] = trs->translation[k];
      srt->scale[k] = trs->scale[k];
    }
  memcpy (q, trs->rotation, 4 * sizeof (double));
}

void
import_solve_local (const TressBfresMatrix *target, TressBfresScaling scaling,
                    const ImportPosed *parent, const TressBfresSrt *parent_srt, TressBfresSrt *srt,
                    double q[4])
{
  TressGltfTrs trs, rot;
  TressBfresMatrix m, inv;

  if (scaling == TRESS_BFRES_SCALING_SOFTIMAGE)
    {
      /* W = T_w · R_w · S_w with R_w = R_w(parent) · R, S_w = S_w(parent) ∘ S,
       * T_w = T_w(parent) + R_w(parent) · (S_w(parent) ∘ T). */
      tress_gltf_trs_decompose (target->m, &trs);
      if (parent == NULL)
        {
          set_trs (srt, &trs, q);
          return;
        }
      {
        TressBfresSrt as
            = { .rotation = { trs.rotation[0], trs.rotation[1], trs.rotation[2], trs.rotation[3] },
                .rotation_mode = TRESS_BFRES_ROTATION_QUATERNION };
        TressBfresMatrix rw, back;
        double d[3];

        tress_bfres_rotation_matrix (&as, &rw);
        memset (&back, 0, sizeof back);
        for (guint r = 0; r < 3; r++)
          for (guint c = 0; c < 3; c++)
            back.m[r][c] = parent->rotation.m[c][r]; /* R_w(parent)ᵀ */
        tress_bfres_matrix_multiply (&back, &rw, &m);
        tress_gltf_trs_decompose (m.m, &rot);
        memcpy (q, rot.rotation, sizeof rot.rotation);
        for (guint k = 0; k < 3; k++)
          d[k] = trs.translation[k] - parent->world.m[k][3];
        for (guint k = 0; k < 3; k++)
          {
            double ps = parent->scale[k] != 0 ? parent->scale[k] : 1;

            srt->scale[k] = trs.scale[k] / ps;
            srt->translation[k]
                = (back.m[k][0] * d[0] + back.m[k][1] * d[1] + back.m[k][2] * d[2]) / ps;
          }
      }
      return;
    }
  if (parent != NULL)
    {
      tress_bfres_matrix_invert (&parent->world, &inv);
      tress_bfres_matrix_multiply (&inv, target, &m);
    }
  else
    m = *target;
  /* Maya compensation: Wp⁻¹ · W = T · S(parent)⁻¹ · R · S. */
  if (scaling == TRESS_BFRES_SCALING_MAYA && srt->segment_scale_compensate && parent != NULL)
    for (guint k = 0; k < 3; k++)
      if (parent_srt->scale[k] != 0)
        for (guint j = 0; j < 3; j++)
          m.m[k][j] *= parent_srt->scale[k];
  tress_gltf_trs_decompose (m.m, &trs);
  set_trs (srt, &trs, q);
}

void
import_compose (TressBfresScaling scaling, const ImportPosed *parent,
                const TressBfresSrt *parent_srt, const TressBfresSrt *srt, ImportPosed *out)
{
  TressBfresMatrix local;

  if (scaling == TRESS_BFRES_SCALING_SOFTIMAGE)
    {
      TressBfresMatrix r;
      double t[3];

      tress_bfres_rotation_matrix (srt, &r);
      if (parent != NULL)
        tress_bfres_matrix_multiply (&parent->rotation, &r, &out->rotation);
      else
        out->rotation = r;
      for (guint k = 0; k < 3; k++)
        {
          double ps = parent != NULL ? parent->scale[k] : 1;

          out->scale[k] = ps * srt->scale[k];
          t[k] = ps * srt->translation[k];
        }
      out->world = out->rotation;
      for (guint k = 0; k < 3; k++)
        {
          const TressBfresMatrix *pr = parent != NULL ? &parent->rotation : NULL;
          double moved
              = pr != NULL ? pr->m[k][0] * t[0] + pr->m[k][1] * t[1] + pr->m[k][2] * t[2] : t[k];

          out->world.m[k][3] = (parent != NULL ? parent->world.m[k][3] : 0) + moved;
          for (guint j = 0; j < 3; j++)
            out->world.m[k][j] *= out->scale[j];
        }
      return;
    }
  tress_bfres_srt_matrix (srt, &local);
  if (scaling == TRESS_BFRES_SCALING_MAYA && srt->segment_scale_compensate && parent != NULL)
    for (guint k = 0; k < 3; k++)
      if (parent_srt->scale[k] != 0)
        for (guint j = 0; j < 3; j++)
          local.m[k][j] /= parent_srt->scale[k];
  if (parent != NULL)
    tress_bfres_matrix_multiply (&parent->world, &local, &out->world);
  else
    out->world = local;
  tress_bfres_matrix_identity (&out->rotation);
  out->scale[0] = out->scale[1] = out->scale[2] = 1;
}

/* @a moved by whole turns to lie within π of @near. */
static double
wrap_near (double a, double near)
{
  return a + 2 * G_PI * round ((near - a) / (2 * G_PI));
}

void
import_euler_near (const double q[4], const double previous[3], double out[3])
{
  TressBfresSrt srt = { .rotation = { q[0], q[1], q[2], q[3] },
                        .rotation_mode = TRESS_BFRES_ROTATION_QUATERNION };
  TressBfresMatrix rm;
  const double (*r)[4];
  double cy, cand[2][3], best = G_MAXDOUBLE;

  tress_bfres_rotation_matrix (&srt, &rm);
  r = rm.m;
  /* X kept where it was, Y and Z from M = R · Rx⁻¹ = Rz · Ry (whose middle
   * row and column hold them alone), when that costs no more than KEEP_X of
   * the rotation (M's element 2,1 is cos y · sin ΔX): near Y = ±90°, where
   * X and Z turn about nearly one axis and the angles of a rotation read from
   * float data swing, this keeps them steady. */
  {
    double cx = cos (previous[0]), sx = sin (previous[0]), m[3][3];

    for (guint i = 0; i < 3; i++)
      {
        m[i][0] = r[i][0];
        m[i][1] = r[i][1] * cx - r[i][2] * sx;
        m[i][2] = r[i][1] * sx + r[i][2] * cx;
      }
    if (fabs (m[2][1]) <= KEEP_X)
      {
        out[0] = previous[0];
        out[1] = wrap_near (atan2 (-m[2][0], m[2][2]), previous[1]);
        out[2] = wrap_near (atan2 (-m[0][1], m[1][1]), previous[2]);
        return;
      }
  }
  cy = hypot (r[0][0], r[1][0]);
  cand[0][0] = atan2 (r[2][1], r[2][2]);
  cand[0][1] = atan2 (-r[2][0], cy);
  cand[0][2] = atan2 (r[1][0], r[0][0]);
  /* The same rotation: X and Z half a turn further, Y mirrored about 90°. */
  cand[1][0] = cand[0][0] + G_PI;
  cand[1][1] = G_PI - cand[0][1];
  cand[1][2] = cand[0][2] + G_PI;
  for (guint c = 0; c < 2; c++)
    {
      double d = 0, e[3];

      for (guint k = 0; k < 3; k++)
        {
          e[k] = wrap_near (cand[c][k], previous[k]);
          d += (e[k] - previous[k]) * (e[k] - previous[k]);
        }
      if (d < best)
        {
          best = d;
          memcpy (out, e, sizeof e);
        }
    }
}

void
import_placement (const TressBfresMatrix *m, ImportPlacement *out)
{
  TressGltfTrs t;

  tress_gltf_trs_decompose (m->m, &t);
  for (guint k = 0; k < 3; k++)
    out->translation[k] = m->m[k][3];
  memcpy (out->rotation, t.rotation, sizeof out->rotation);
}

void
import_placement_error (const TressBfresMatrix *a, const ImportPlacement *b, double *position,
                        double *angle)
{
  TressGltfTrs ta;
  double d = 0, dot = 0;

  for (guint k = 0; k < 3; k++)
    d += (a->m[k][3] - b->translation[k]) * (a->m[k][3] - b->translation[k]);
  *position = sqrt (d);
  tress_gltf_trs_decompose (a->m, &ta);
  for (guint k = 0; k < 4; k++)
    dot += ta.rotation[k] * b->rotation[k];
  *angle = 2 * acos (MIN (fabs (dot), 1.0));
}

void
import_matrix_error (const TressBfresMatrix *a, const TressBfresMatrix *b, double *position,
                     double *angle)
{
  ImportPlacement pb;

  import_placement (b, &pb);
  import_placement_error (a, &pb, position, angle);
}

ImportOutcome
import_component (const double *samples, guint n, double tolerance, const TressCurve *original,
                  double original_base, double *base, TressCurve **curve)
{
  g_autoptr (TressCurve) baked = NULL;
  double lo = samples[0], hi = samples[0];
  gboolean fits;

  *curve = NULL;
  *base = samples[0];
  if (original != NULL && tress_curve_get_n_keys (original) > 0
      && tress_curve_get_key (original, tress_curve_get_n_keys (original) - 1)->frame
             <= (double)(n - 1))
    {
      fits = TRUE;
      for (guint f = 0; f < n && fits; f++)
        fits = fabs (tress_curve_evaluate (original, f) - samples[f]) <= tolerance;
      if (fits)
        {
          *curve = tress_curve_copy (original);
          return IMPORT_KEPT;
        }
    }
  for (guint f = 1; f < n; f++)
    {
      lo = MIN (lo, samples[f]);
      hi = MAX (hi, samples[f]);
    }
  if (hi - lo <= 2 * tolerance)
    {
      fits = TRUE;
      for (guint f = 0; f < n && fits; f++)
        fits = fabs (original_base - samples[f]) <= tolerance;
      *base = fits ? original_base : (lo + hi) / 2;
      return IMPORT_BASE;
    }
  baked = tress_curve_new ();
  /* (sized once: the keys are set in place, not appended one by one) */
  g_array_set_size (baked->keys, n);
  for (guint f = 0; f < n; f++)
    {
      TressKey k = { .frame = f, .value = samples[f], .interp = TRESS_INTERP_BAKED };

      g_array_index (baked->keys, TressKey, f) = k;
    }
  *curve = tress_curve_fit (baked, tolerance / 2, TRESS_INTERP_HERMITE);
  return IMPORT_CURVE;
}
