/* tress-gltf-trs.c: glTF node transforms from affine matrices
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-gltf-trs.h"

#include <math.h>
#include <string.h>

/* Columns whose dot products are within this are taken as orthogonal: the
 * rotation they make lies within about this many radians of the polar
 * factor (a float holds 6e-8). */
#define ORTHOGONAL 1e-12

static double
det3 (const double m[3][4])
{
  return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
         - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
         + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

double
tress_gltf_matrix_distance (const TressGltfMatrix *a, const TressGltfMatrix *b, double size)
{
  double d = 0;

  for (guint r = 0; r < 3; r++)
    for (guint c = 0; c < 4; c++)
      {
        double e = fabs (a->m[r][c] - b->m[r][c]) / (c == 3 ? MAX (size, 1e-30) : 1);

        /* NaN counts as far. */
        d = isnan (e) ? INFINITY : MAX (d, e);
      }
  return d;
}

void
tress_gltf_trs_matrix (const TressGltfTrs *trs, TressGltfMatrix *out)
{
  double x = trs->rotation[0], y = trs->rotation[1], z = trs->rotation[2], w = trs->rotation[3];
  double n = sqrt (x * x + y * y + z * z + w * w);
  double (*r)[4] = out->m;

  if (!(n > 1e-12) || !isfinite (n))
    x = y = z = 0, w = n = 1;
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
  for (guint i = 0; i < 3; i++)
    {
      for (guint j = 0; j < 3; j++)
        r[i][j] *= trs->scale[j];
      r[i][3] = trs->translation[i];
    }
}

static void
identity_quaternion (double q[4])
{
  q[0] = q[1] = q[2] = 0;
  q[3] = 1;
}

void
tress_gltf_matrix_quaternion (const double r[3][4], double q[4])
{
  double tr = r[0][0] + r[1][1] + r[2][2], s, n;

  if (tr > 0)
    {
      s = 2 * sqrt (tr + 1);
      q[3] = s / 4;
      q[0] = (r[2][1] - r[1][2]) / s;
      q[1] = (r[0][2] - r[2][0]) / s;
      q[2] = (r[1][0] - r[0][1]) / s;
    }
  else if (r[0][0] > r[1][1] && r[0][0] > r[2][2])
    {
      s = 2 * sqrt (1 + r[0][0] - r[1][1] - r[2][2]);
      q[3] = (r[2][1] - r[1][2]) / s;
      q[0] = s / 4;
      q[1] = (r[0][1] + r[1][0]) / s;
      q[2] = (r[0][2] + r[2][0]) / s;
    }
  else if (r[1][1] > r[2][2])
    {
      s = 2 * sqrt (1 + r[1][1] - r[0][0] - r[2][2]);
      q[3] = (r[0][2] - r[2][0]) / s;
      q[0] = (r[0][1] + r[1][0]) / s;
      q[1] = s / 4;
      q[2] = (r[1][2] + r[2][1]) / s;
    }
  else
    {
      s = 2 * sqrt (1 + r[2][2] - r[0][0] - r[1][1]);
      q[3] = (r[1][0] - r[0][1]) / s;
      q[0] = (r[0][2] + r[2][0]) / s;
      q[1] = (r[1][2] + r[2][1]) / s;
      q[2] = s / 4;
    }
  n = sqrt (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (!(n > 1e-12) || !isfinite (n))
    identity_quaternion (q);
  else
    for (guint k = 0; k < 4; k++)
      q[k] /= n;
}

/* Whether the unit columns of @r are orthogonal to within ORTHOGONAL. */
static gboolean
orthogonal (const double r[3][4])
{
  for (guint a = 0; a < 3; a++)
    for (guint b = a + 1; b < 3; b++)
      if (!(fabs (r[0][a] * r[0][b] + r[1][a] * r[1][b] + r[2][a] * r[2][b]) <= ORTHOGONAL))
        return FALSE;
  return TRUE;
}

/* The rotation by Newton's iteration R ← (R + R⁻ᵀ) / 2, which converges to
 * the orthogonal factor of the polar decomposition; unit columns already
 * orthogonal (a rotation times a scale, no shear: what poses compose to)
 * are that factor as they are, up to rounding. */
void
tress_gltf_trs_decompose (const double m[3][4], TressGltfTrs *out)
{
  TressGltfMatrix r, inv;
  double det = det3 (m);

  memset (&r, 0, sizeof r);
  for (guint k = 0; k < 3; k++)
    out->translation[k] = m[k][3];
  for (guint j = 0; j < 3; j++)
    {
      double n = sqrt (m[0][j] * m[0][j] + m[1][j] * m[1][j] + m[2][j] * m[2][j]);

      out->scale[j] = j == 0 && det < 0 ? -n : n;
      for (guint k = 0; k < 3; k++)
        r.m[k][j] = n > 1e-12 && isfinite (n) ? m[k][j] / out->scale[j] : (k == j);
    }
  for (guint it = 0; it < 32 && !orthogonal (r.m); it++)
    {
      double change = 0;

      if (!tress_gltf_matrix_invert (&r, &inv))
        {
          tress_gltf_matrix_identity (&r);
          break;
        }
      for (guint k = 0; k < 3; k++)
        for (guint j = 0; j < 3; j++)
          {
            double v = (r.m[k][j] + inv.m[j][k]) / 2;

            change = MAX (change, fabs (v - r.m[k][j]));
            r.m[k][j] = v;
          }
      if (change < 1e-15)
        break;
    }
  tress_gltf_matrix_quaternion (r.m, out->rotation);
}
