/* tress-fur-body.c: ellipsoids fitted to each body part's ribbon roots
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-fur-body.h"

#include <math.h>
#include <string.h>

typedef struct
{
  guint32 part;
  double weight;  /* Σ a */
  double *first;  /* dim: Σ a q */
  double *second; /* dim × dim: Σ a q qᵀ (upper triangle gathered, mirrored once) */
} Moments;

struct _TressFurBody
{
  guint n_morphs;
  guint dim;       /* 3 × (n_morphs + 1) */
  GArray *moments; /* Moments, ascending part */
  GArray *fitted;  /* TressFurBodyPart, same order */
};

static Moments *
moments_for (TressFurBody *body, GHashTable *index, guint32 part)
{
  gpointer found;

  if (!g_hash_table_lookup_extended (index, GUINT_TO_POINTER (part), NULL, &found))
    {
      Moments m
          = { part, 0, g_new0 (double, body->dim), g_new0 (double, (gsize)body->dim * body->dim) };

      found = GUINT_TO_POINTER (body->moments->len);
      g_array_append_val (body->moments, m);
      g_hash_table_insert (index, GUINT_TO_POINTER (part), found);
    }
  return &g_array_index (body->moments, Moments, GPOINTER_TO_UINT (found));
}

static int
compare_moments (gconstpointer a, gconstpointer b)
{
  guint32 pa = ((const Moments *)a)->part, pb = ((const Moments *)b)->part;

  return pa < pb ? -1 : pa > pb;
}

/* The ribbon's share of each part it references (weights summed over its
 * lines, 0…1 per line), into @parts/@shares; returns how many parts. */
static guint
ribbon_shares (const TressChaMaterial *mat, guint r, guint32 *parts, double *shares, guint max)
{
  guint n = 0;
  guint32 first = mat->first_line[r], count = mat->n_ribbon_lines[r];

  if (mat->lines == NULL || first > mat->n_lines || count > mat->n_lines - first)
    return 0;
  for (guint32 l = first; l < first + count; l++)
    for (guint k = 0; k < 3; k++)
      {
        const TressChaLine *line = &mat->lines[l];
        guint8 w = line->weights[2 - k]; /* reversed */
        guint32 entry = line->refs[k] / 3u, part;
        guint i;

        if (w == 0 || line->refs[k] % 3u != 0 || entry >= mat->n_applied)
          continue;
        part = mat->applied[entry];
        for (i = 0; i < n && parts[i] != part; i++)
          ;
        if (i == n)
          {
            if (n == max)
              continue;
            parts[n] = part;
            shares[n++] = 0;
          }
        shares[i] += w / 255.0;
      }
  return n;
}

TressFurBody *
tress_fur_body_new (const TressChaFile *file)
{
  TressFurBody *body = g_new0 (TressFurBody, 1);
  const TressChaRadeon *rad = file != NULL ? file->radeon : NULL;
  g_autoptr (GHashTable) index = g_hash_table_new (NULL, NULL);
  g_autofree double *q = NULL;

  body->n_morphs = rad != NULL ? MIN (rad->n_morphs, TRESS_FUR_BODY_MAX_MORPHS) : 0;
  body->dim = 3 * (body->n_morphs + 1);
  body->moments = g_array_new (FALSE, FALSE, sizeof (Moments));
  body->fitted = g_array_new (FALSE, TRUE, sizeof (TressFurBodyPart));
  q = g_new (double, body->dim);
  for (guint mi = 0; rad != NULL && mi < rad->n_materials; mi++)
    {
      const TressChaMaterial *mat = &rad->materials[mi];

      if (mat->base_points == NULL || mat->first_line == NULL || mat->n_ribbon_lines == NULL)
        continue;
      for (guint r = 0; r < mat->n_ribbons; r++)
        {
          guint32 parts[3 * 2 * TRESS_CHA_MAX_SECTIONS];
          double shares[G_N_ELEMENTS (parts)];
          guint n = ribbon_shares (mat, r, parts, shares, G_N_ELEMENTS (parts));
          const float *bp = &mat->base_points[6 * (gsize)r];

          if (n == 0)
            continue;
          /* q = (root, d₁, …, dₙ), each the middle of the ribbon's two points. */
          for (guint k = 0; k < 3; k++)
            q[k] = 0.5 * ((double)bp[k] + bp[3 + k]);
          for (guint m = 0; m < body->n_morphs; m++)
            {
              const float *d = mat->morph_points != NULL && mat->morph_points[m] != NULL
                                   ? &mat->morph_points[m][6 * (gsize)r]
                                   : NULL;
              for (guint k = 0; k < 3; k++)
                q[3 * (m + 1) + k] = d != NULL ? 0.5 * ((double)d[k] + d[3 + k]) : 0.0;
            }
          for (guint i = 0; i < n; i++)
            {
              Moments *mo = moments_for (body, index, parts[i]);
              double a = shares[i];

              mo->weight += a;
              for (guint x = 0; x < body->dim; x++)
                {
                  double aq = a * q[x];
                  double *row = &mo->second[(gsize)x * body->dim];

                  mo->first[x] += aq;
                  for (guint y = x; y < body->dim; y++)
                    row[y] += aq * q[y];
                }
            }
        }
    }
  g_array_sort (body->moments, compare_moments);
  for (guint i = 0; i < body->moments->len; i++)
    {
      Moments *mo = &g_array_index (body->moments, Moments, i);

      for (guint x = 0; x < body->dim; x++)
        for (guint y = 0; y < x; y++)
          mo->second[(gsize)x * body->dim + y] = mo->second[(gsize)y * body->dim + x];
    }
  g_array_set_size (body->fitted, body->moments->len);
  tress_fur_body_fit (body, NULL, 0);
  return body;
}

void
tress_fur_body_free (TressFurBody *body)
{
  if (body == NULL)
    return;
  for (guint i = 0; i < body->moments->len; i++)
    {
      Moments *mo = &g_array_index (body->moments, Moments, i);
      g_free (mo->first);
      g_free (mo->second);
    }
  g_array_unref (body->moments);
  g_array_unref (body->fitted);
  g_free (body);
}

/* Eigenvalues and unit eigenvectors (columns of @v) of the symmetric @a (cyclic Jacobi). */
static void
eigen_symmetric (double a[3][3], double values[3], double v[3][3])
{
  for (guint i = 0; i < 3; i++)
    for (guint j = 0; j < 3; j++)
      v[i][j] = i == j;
  for (guint sweep = 0; sweep < 50; sweep++)
    {
      double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
      double scale = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2];

      if (off <= 1e-30 * MAX (scale, 1e-300))
        break;
      for (guint p = 0; p < 2; p++)
        for (guint r = p + 1; r < 3; r++)
          {
            double theta, t, c, s;

            if (a[p][r] == 0)
              continue;
            theta = (a[r][r] - a[p][p]) / (2 * a[p][r]);
            t = (theta >= 0 ? 1 : -1) / (fabs (theta) + sqrt (theta * theta + 1));
            c = 1 / sqrt (t * t + 1);
            s = t * c;
            for (guint k = 0; k < 3; k++)
              {
                double akp = a[k][p], akr = a[k][r];
                a[k][p] = c * akp - s * akr;
                a[k][r] = s * akp + c * akr;
              }
            for (guint k = 0; k < 3; k++)
              {
                double apk = a[p][k], ark = a[r][k];
                a[p][k] = c * apk - s * ark;
                a[r][k] = s * apk + c * ark;
              }
            for (guint k = 0; k < 3; k++)
              {
                double vkp = v[k][p], vkr = v[k][r];
                v[k][p] = c * vkp - s * vkr;
                v[k][r] = s * vkp + c * vkr;
              }
          }
    }
  for (guint i = 0; i < 3; i++)
    values[i] = a[i][i];
}

static void
fit_part (const TressFurBody *body, const Moments *mo, const double *c, TressFurBodyPart *out)
{
  guint blocks = body->n_morphs + 1;
  double mean[3] = { 0 }, cov[3][3] = { { 0 } }, values[3], vec[3][3], largest;
  guint order[3] = { 0, 1, 2 };

  memset (out, 0, sizeof *out);
  out->part = mo->part;
  out->weight = mo->weight;
  if (mo->weight <= 0)
    return;
  for (guint i = 0; i < blocks; i++)
    if (c[i] != 0)
      for (guint k = 0; k < 3; k++)
        mean[k] += c[i] * mo->first[3 * i + k] / mo->weight;
  for (guint i = 0; i < blocks; i++)
    for (guint j = 0; j < blocks; j++)
      if (c[i] != 0 && c[j] != 0)
        for (guint x = 0; x < 3; x++)
          for (guint y = 0; y < 3; y++)
            cov[x][y] += c[i] * c[j] * mo->second[(gsize)(3 * i + x) * body->dim + 3 * j + y];
  for (guint x = 0; x < 3; x++)
    for (guint y = 0; y < 3; y++)
      cov[x][y] = cov[x][y] / mo->weight - mean[x] * mean[y];
  eigen_symmetric (cov, values, vec);
  /* Largest first. */
  for (guint i = 0; i < 3; i++)
    for (guint j = i + 1; j < 3; j++)
      if (values[order[j]] > values[order[i]])
        {
          guint t = order[i];
          order[i] = order[j];
          order[j] = t;
        }
  largest = sqrt (3 * MAX (values[order[0]], 0.0));
  for (guint i = 0; i < 3; i++)
    {
      double r = sqrt (3 * MAX (values[order[i]], 0.0));

      out->radius[i] = (float)MAX (r, TRESS_FUR_BODY_MIN_RADIUS_SHARE * largest);
      for (guint k = 0; k < 3; k++)
        out->axis[i][k] = (float)vec[k][order[i]];
    }
  /* Right-handed: the third axis is the cross product of the first two. */
  out->axis[2][0] = out->axis[0][1] * out->axis[1][2] - out->axis[0][2] * out->axis[1][1];
  out->axis[2][1] = out->axis[0][2] * out->axis[1][0] - out->axis[0][0] * out->axis[1][2];
  out->axis[2][2] = out->axis[0][0] * out->axis[1][1] - out->axis[0][1] * out->axis[1][0];
  for (guint k = 0; k < 3; k++)
    out->centre[k] = (float)mean[k];
}

void
tress_fur_body_fit (TressFurBody *body, const float *weights, guint n_weights)
{
  double c[TRESS_FUR_BODY_MAX_MORPHS + 1] = { 1 };

  for (guint m = 0; m < body->n_morphs; m++)
    c[m + 1] = weights != NULL && m < n_weights ? weights[m] : 0.0;
  for (guint i = 0; i < body->moments->len; i++)
    fit_part (body, &g_array_index (body->moments, Moments, i), c,
              &g_array_index (body->fitted, TressFurBodyPart, i));
}

guint
tress_fur_body_get_n_parts (const TressFurBody *body)
{
  return body->fitted->len;
}

const TressFurBodyPart *
tress_fur_body_get_part (const TressFurBody *body, guint i)
{
  g_return_val_if_fail (i < body->fitted->len, NULL);
  return &g_array_index (body->fitted, TressFurBodyPart, i);
}
