/* tress-fur-mesh.c: ribbon strips, colours and picking for the 3D preview
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-fur-mesh.h"

#include "app/gl/tress-gl-camera.h"

#include <math.h>
#include <string.h>

static const float default_direction[3] = { 0.f, -0.70710678f, -0.70710678f };

static guint
ribbon_sections (const TressChaMaterial *m, guint r)
{
  return CLAMP (m->n_sections[r], 1, TRESS_CHA_MAX_SECTIONS);
}

/* The ribbon's lines when they are decoded and in range. */
static const TressChaLine *
ribbon_lines (const TressChaMaterial *m, guint r, guint *n)
{
  guint64 first, count;

  *n = 0;
  if (m->lines == NULL || m->first_line == NULL || m->n_ribbon_lines == NULL)
    return NULL;
  first = m->first_line[r];
  count = m->n_ribbon_lines[r];
  if (first > m->n_lines || count > m->n_lines - first)
    return NULL;
  *n = (guint)count;
  return m->lines + first;
}

static void
line_direction (const TressChaLine *lines, guint n, guint index, float out[3])
{
  float len;

  if (index >= n)
    {
      memcpy (out, default_direction, sizeof default_direction);
      return;
    }
  memcpy (out, lines[index].direction, 3 * sizeof (float));
  len = sqrtf (out[0] * out[0] + out[1] * out[1] + out[2] * out[2]);
  if (!(len > 1e-12f) || !isfinite (len))
    memcpy (out, default_direction, sizeof default_direction);
  else
    {
      float inv = 1.0f / len;

      for (guint c = 0; c < 3; c++)
        out[c] *= inv;
    }
}

/* Whether global ribbon @g still is ribbon @r of material @mi with @n points in
 * the file (a mesh outlives edits until it is rebuilt): else it is drawn and
 * picked as a point at the origin rather than read out of bounds. */
static const TressChaMaterial *
ribbon_material (const TressFurMesh *mesh, guint mi, guint r, guint n)
{
  const TressChaRadeon *rad = mesh->file != NULL ? mesh->file->radeon : NULL;
  const TressChaMaterial *mat;

  if (rad == NULL || mi >= rad->n_materials)
    return NULL;
  mat = &rad->materials[mi];
  if (r >= mat->n_ribbons || 2 * (ribbon_sections (mat, r) + 1) != n)
    return NULL;
  return mat;
}

/* The points of global ribbon @g (material @mat, ribbon @r): left, right, left…
 * from the base, 2 × (sections + 1) of them, into @out (3 floats each). */
static void
ribbon_points (const TressFurMesh *mesh, const TressChaMaterial *mat, guint r, float *out)
{
  guint morality = MIN (mesh->morality, mesh->file->radeon->n_moralities);
  const float *lengths = mat->lengths != NULL ? mat->lengths[morality] : NULL;
  guint s = ribbon_sections (mat, r), n_lines, side, k, c;
  const TressChaLine *lines = ribbon_lines (mat, r, &n_lines);
  float len = lengths != NULL && isfinite (lengths[r]) ? lengths[r] : 0.f;
  float seg = len / s;
  float p[2][3];

  for (side = 0; side < 2; side++)
    for (k = 0; k < 3; k++)
      {
        float x = mat->base_points[6 * (gsize)r + 3 * side + k];
        p[side][k] = isfinite (x) ? x : 0.f;
      }
  for (k = 0; k <= s; k++)
    for (side = 0; side < 2; side++)
      {
        memcpy (out + 3 * (2 * k + side), p[side], sizeof p[side]);
        if (k < s)
          {
            float d[3];

            line_direction (lines, n_lines, 2 * k + side, d);
            for (c = 0; c < 3; c++)
              p[side][c] += d[c] * seg;
          }
      }
}

static void
copy_displacement (TressFurMesh *mesh, const TressChaMaterial *mat, guint r, guint g)
{
  for (guint m = 0; m < mesh->n_morphs; m++)
    {
      const float *src = mat->morph_points != NULL && mat->morph_points[m] != NULL
                             ? mat->morph_points[m] + 6 * (gsize)r
                             : NULL;
      float *dst = mesh->displacement + ((gsize)m * 2 * mesh->n_ribbons + 2 * g) * 3;

      for (guint k = 0; k < 6; k++)
        dst[k] = src != NULL && isfinite (src[k]) ? src[k] : 0.f;
    }
}

TressFurMesh *
tress_fur_mesh_new (const TressChaFile *file, guint morality)
{
  TressFurMesh *mesh = g_new0 (TressFurMesh, 1);
  const TressChaRadeon *rad = file != NULL ? file->radeon : NULL;
  guint mi, g, v = 0;

  mesh->file = file;
  mesh->n_materials = rad != NULL ? rad->n_materials : 0;
  mesh->material_first = g_new0 (guint, mesh->n_materials + 1);
  for (mi = 0; mi < mesh->n_materials; mi++)
    {
      const TressChaMaterial *mat = &rad->materials[mi];

      mesh->material_first[mi + 1] = mesh->material_first[mi] + mat->n_ribbons;
      for (guint r = 0; r < mat->n_ribbons; r++)
        {
          guint s = ribbon_sections (mat, r);

          mesh->n_vertices += 2 * (s + 1);
          mesh->n_triangles += 2 * s;
        }
    }
  mesh->n_ribbons = mesh->material_first[mesh->n_materials];
  mesh->ribbon_vertex = g_new (guint32, mesh->n_ribbons + 1);
  mesh->n_morphs = rad != NULL ? MIN (rad->n_morphs, TRESS_FUR_MESH_MAX_MORPHS) : 0;
  mesh->displacement = g_new0 (float, (gsize)mesh->n_morphs * 2 * mesh->n_ribbons * 3 + 1);
  mesh->morality = rad != NULL ? MIN (morality, rad->n_moralities) : 0;

  g = 0;
  for (mi = 0; mi < mesh->n_materials; mi++)
    {
      const TressChaMaterial *mat = &rad->materials[mi];

      for (guint r = 0; r < mat->n_ribbons; r++, g++)
        {
          mesh->ribbon_vertex[g] = v;
          v += 2 * (ribbon_sections (mat, r) + 1);
          copy_displacement (mesh, mat, r, g);
        }
    }
  mesh->ribbon_vertex[mesh->n_ribbons] = v;
  return mesh;
}

gboolean
tress_fur_mesh_fill (TressFurMesh *mesh, float *positions, guint32 *point_ids)
{
  float pts[2 * (TRESS_CHA_MAX_SECTIONS + 1) * 3];
  float lo[3] = { G_MAXFLOAT, G_MAXFLOAT, G_MAXFLOAT };
  float hi[3] = { -G_MAXFLOAT, -G_MAXFLOAT, -G_MAXFLOAT };
  guint mi, g = 0, c;

  for (mi = 0; mi < mesh->n_materials; mi++)
    {
      guint n_ribbons = mesh->material_first[mi + 1] - mesh->material_first[mi];

      for (guint r = 0; r < n_ribbons; r++, g++)
        {
          guint32 v0 = mesh->ribbon_vertex[g], n = mesh->ribbon_vertex[g + 1] - v0;
          const TressChaMaterial *mat = ribbon_material (mesh, mi, r, n);

          if (mat != NULL)
            ribbon_points (mesh, mat, r, pts);
          else
            memset (pts, 0, 3 * sizeof (float) * n);
          for (guint i = 0; i < n; i++)
            for (c = 0; c < 3; c++)
              {
                lo[c] = MIN (lo[c], pts[3 * i + c]);
                hi[c] = MAX (hi[c], pts[3 * i + c]);
              }
          if (positions != NULL)
            memcpy (positions + 3 * (gsize)v0, pts, 3 * sizeof (float) * n);
          if (point_ids != NULL)
            for (guint i = 0; i < n; i++)
              point_ids[v0 + i] = 2 * g + (i & 1);
        }
    }
  for (c = 0; c < 3; c++)
    {
      mesh->min[c] = mesh->n_vertices > 0 ? lo[c] : 0;
      mesh->max[c] = mesh->n_vertices > 0 ? hi[c] : 0;
    }
  mesh->bounds_known = TRUE;
  return mesh->n_vertices > 0;
}

/* The ribbon a vertex belongs to. */
static guint
vertex_ribbon (const TressFurMesh *mesh, guint v)
{
  guint lo = 0, hi = mesh->n_ribbons;

  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (mesh->ribbon_vertex[mid] <= v)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

guint32
tress_fur_mesh_point_id (const TressFurMesh *mesh, guint v)
{
  guint g = vertex_ribbon (mesh, v);

  return 2 * g + ((v - mesh->ribbon_vertex[g]) & 1);
}

/* The points of global ribbon @g with the morph weights applied; returns how many. */
static guint ribbon_vertices (const TressFurMesh *mesh, guint g, const float *weights, float *out);

guint
tress_fur_mesh_ribbon_points (const TressFurMesh *mesh, guint g, const float *weights, float *out)
{
  if (g >= mesh->n_ribbons)
    return 0;
  return ribbon_vertices (mesh, g, weights, out);
}

static guint
ribbon_vertices (const TressFurMesh *mesh, guint g, const float *weights, float *out)
{
  guint material, ribbon, n = mesh->ribbon_vertex[g + 1] - mesh->ribbon_vertex[g];
  const TressChaMaterial *mat;

  if (!tress_fur_mesh_ribbon_id (mesh, g, &material, &ribbon))
    return 0;
  mat = ribbon_material (mesh, material, ribbon, n);
  if (mat != NULL)
    ribbon_points (mesh, mat, ribbon, out);
  else
    memset (out, 0, 3 * sizeof (float) * n);
  for (guint m = 0; weights != NULL && m < mesh->n_morphs; m++)
    {
      const float *d = mesh->displacement + ((gsize)m * 2 * mesh->n_ribbons + 2 * g) * 3;

      if (weights[m] == 0)
        continue;
      for (guint i = 0; i < n; i++)
        for (guint c = 0; c < 3; c++)
          out[3 * i + c] += weights[m] * d[3 * (i & 1) + c];
    }
  return n;
}

guint
tress_fur_mesh_update_ribbon (TressFurMesh *mesh, guint g, float *positions)
{
  guint material, ribbon, n;
  const TressChaMaterial *mat;

  if (!tress_fur_mesh_ribbon_id (mesh, g, &material, &ribbon))
    return 0;
  n = mesh->ribbon_vertex[g + 1] - mesh->ribbon_vertex[g];
  mat = ribbon_material (mesh, material, ribbon, n);
  if (mat == NULL || mesh->file->radeon->n_materials != mesh->n_materials
      || mat->n_ribbons != mesh->material_first[material + 1] - mesh->material_first[material]
      || MIN (mesh->file->radeon->n_morphs, TRESS_FUR_MESH_MAX_MORPHS) != mesh->n_morphs)
    return 0;
  copy_displacement (mesh, mat, ribbon, g);
  if (positions != NULL)
    ribbon_points (mesh, mat, ribbon, positions);
  mesh->bounds_known = FALSE;
  return n;
}

gsize
tress_fur_mesh_strip_indices (const TressFurMesh *mesh, guint stride, guint32 *out,
                              guint *n_ribbons)
{
  gsize n = 0;
  guint g, strips = 0;

  stride = MAX (stride, 1);
  for (g = 0; g < mesh->n_ribbons; g += stride)
    {
      guint32 v0 = mesh->ribbon_vertex[g], v1 = mesh->ribbon_vertex[g + 1];

      if (v1 - v0 < 4)
        continue;
      if (strips > 0)
        {
          if (out != NULL)
            out[n] = TRESS_FUR_MESH_RESTART;
          n++;
        }
      if (out != NULL)
        for (guint32 v = v0; v < v1; v++)
          out[n + (v - v0)] = v;
      n += v1 - v0;
      strips++;
      if (g > G_MAXUINT - stride)
        break;
    }
  if (n_ribbons != NULL)
    *n_ribbons = strips;
  return n;
}

void
tress_fur_mesh_free (TressFurMesh *mesh)
{
  if (mesh == NULL)
    return;
  g_free (mesh->material_first);
  g_free (mesh->ribbon_vertex);
  g_free (mesh->displacement);
  g_free (mesh);
}

gboolean
tress_fur_mesh_ribbon_id (const TressFurMesh *mesh, guint global, guint *material, guint *ribbon)
{
  guint lo = 0, hi = mesh->n_materials;

  if (global >= mesh->n_ribbons)
    return FALSE;
  /* The last material whose first ribbon is ≤ global (empty ones are skipped). */
  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;

      if (mesh->material_first[mid] <= global)
        lo = mid;
      else
        hi = mid;
    }
  while (lo + 1 < mesh->n_materials && mesh->material_first[lo + 1] <= global)
    lo++;
  *material = lo;
  *ribbon = global - mesh->material_first[lo];
  return TRUE;
}

guint
tress_fur_mesh_global (const TressFurMesh *mesh, guint material, guint ribbon)
{
  if (material >= mesh->n_materials
      || ribbon >= mesh->material_first[material + 1] - mesh->material_first[material])
    return G_MAXUINT;
  return mesh->material_first[material] + ribbon;
}

void
tress_fur_body_part_colour (guint32 part, guint8 rgb[3])
{
  double h = fmod (part * 0.618033988749895 + 0.08, 1.0) * 6, s = 0.65, val = 0.92;
  int i = (int)h;
  double f = h - i, p = val * (1 - s), q = val * (1 - s * f), t = val * (1 - s * (1 - f));
  double r, g, b;

  switch (i % 6)
    {
    case 0:
      r = val, g = t, b = p;
      break;
    case 1:
      r = q, g = val, b = p;
      break;
    case 2:
      r = p, g = val, b = t;
      break;
    case 3:
      r = p, g = q, b = val;
      break;
    case 4:
      r = t, g = p, b = val;
      break;
    default:
      r = val, g = p, b = q;
      break;
    }
  rgb[0] = (guint8)lround (r * 255);
  rgb[1] = (guint8)lround (g * 255);
  rgb[2] = (guint8)lround (b * 255);
}

static double
ribbon_weight_of (const TressChaMaterial *mat, guint r, guint32 part)
{
  guint n, i, k;
  const TressChaLine *lines = ribbon_lines (mat, r, &n);
  double sum = 0;

  if (lines == NULL || n == 0)
    return 0;
  for (i = 0; i < n; i++)
    for (k = 0; k < 3; k++)
      {
        guint16 ref = lines[i].refs[k];

        if (ref % 3 == 0 && ref / 3 < mat->n_applied && mat->applied[ref / 3] == part)
          sum += tress_cha_line_get_weight (&lines[i], k);
      }
  return sum / (255.0 * n);
}

static const guint8 quality_colours[4][3]
    = { { 196, 120, 64 }, { 96, 200, 96 }, { 80, 140, 240 }, { 255, 0, 255 } };
static const guint8 problem_colour[3] = { 230, 40, 30 }, no_problem_colour[3] = { 150, 150, 150 };

void
tress_fur_weight_colour (double w, guint8 rgb[3])
{
  /* Navy to red through purple: clear of the selection's yellow. */
  w = CLAMP (w, 0, 1);
  rgb[0] = (guint8)lround (40 + 215 * w);
  rgb[1] = (guint8)lround (50 - 20 * w);
  rgb[2] = (guint8)lround (120 - 60 * w);
}

void
tress_fur_quality_colour (guint32 quality, guint8 rgb[3])
{
  memcpy (rgb, quality_colours[MIN (quality, 3u)], 3);
}

void
tress_fur_problem_colour (gboolean problem, guint8 rgb[3])
{
  memcpy (rgb, problem ? problem_colour : no_problem_colour, 3);
}

void
tress_fur_mesh_ribbon_colour (const TressFurMesh *mesh, const TressChaFile *file,
                              TressFurColourMode mode, guint32 part, const guint8 *problem_ribbons,
                              guint g, guint8 rgba[4])
{
  guint mi, r;
  const TressChaMaterial *mat;

  rgba[3] = 255;
  if (!tress_fur_mesh_ribbon_id (mesh, g, &mi, &r) || file->radeon == NULL
      || mi >= file->radeon->n_materials || r >= file->radeon->materials[mi].n_ribbons)
    {
      memset (rgba, 0, 3);
      return;
    }
  mat = &file->radeon->materials[mi];
  switch (mode)
    {
    case TRESS_FUR_COLOUR_WEIGHT:
      tress_fur_weight_colour (ribbon_weight_of (mat, r, part), rgba);
      break;
    case TRESS_FUR_COLOUR_QUALITY:
      tress_fur_quality_colour (mat->quality[r], rgba);
      break;
    case TRESS_FUR_COLOUR_PROBLEMS:
      tress_fur_problem_colour (problem_ribbons != NULL && problem_ribbons[g], rgba);
      break;
    case TRESS_FUR_COLOUR_BODY_PART:
    default:
      tress_fur_body_part_colour (mat->attach[r], rgba);
      break;
    }
}

void
tress_fur_mesh_colours (const TressFurMesh *mesh, const TressChaFile *file, TressFurColourMode mode,
                        guint32 part, const guint8 *problem_ribbons, guint8 *rgba)
{
  for (guint g = 0; g < mesh->n_ribbons; g++)
    tress_fur_mesh_ribbon_colour (mesh, file, mode, part, problem_ribbons, g, rgba + 4 * (gsize)g);
}

void
tress_fur_mesh_mark_problems (const TressFurMesh *mesh, GHashTable *ribbon_problems, guint8 *marks)
{
  GHashTableIter iter;
  const gint64 *stored;

  g_hash_table_iter_init (&iter, ribbon_problems);
  while (g_hash_table_iter_next (&iter, (gpointer *)&stored, NULL))
    {
      guint g = tress_fur_mesh_global (mesh, (guint)(stored[0] >> 32), (guint)stored[0]);

      if (g != G_MAXUINT)
        marks[g] = TRUE;
    }
}

void
tress_fur_mesh_vertex (const TressFurMesh *mesh, guint v, const float *weights, float out[3])
{
  float pts[2 * (TRESS_CHA_MAX_SECTIONS + 1) * 3];
  guint g = vertex_ribbon (mesh, v);

  ribbon_vertices (mesh, g, weights, pts);
  memcpy (out, pts + 3 * (v - mesh->ribbon_vertex[g]), 3 * sizeof (float));
}

int
tress_fur_mesh_pick (const TressFurMesh *mesh, const float mvp[16], const float *weights,
                     double width, double height, double x, double y)
{
  const double tolerance = 4;
  double best_depth = G_MAXDOUBLE, best_dist = tolerance;
  int inside = -1, near = -1;
  guint g;

  for (g = 0; g < mesh->n_ribbons; g++)
    {
      float pts[2 * (TRESS_CHA_MAX_SECTIONS + 1) * 3];
      guint n = ribbon_vertices (mesh, g, weights, pts), v;

      for (v = 0; v + 3 < n; v += 2)
        {
          /* The quad of one section: v, v+1 (near edge), v+2, v+3 (far edge). */
          double q[4][3];
          gboolean ok = TRUE;

          for (guint k = 0; k < 4 && ok; k++)
            ok = tress_gl_project (mvp, pts + 3 * (v + k), width, height, q[k]);
          if (!ok)
            continue;
          for (guint t = 0; t < 2; t++)
            {
              const double *a = q[t], *b = q[t + 1], *c = q[t + 2];
              double depth;

              if (tress_gl_triangle_hit (a, b, c, x, y, &depth))
                {
                  if (depth < best_depth)
                    {
                      best_depth = depth;
                      inside = (int)g;
                    }
                  continue;
                }
              if (inside < 0)
                {
                  double d = MIN (tress_gl_segment_distance (a, b, x, y),
                                  MIN (tress_gl_segment_distance (b, c, x, y),
                                       tress_gl_segment_distance (a, c, x, y)));

                  if (d < best_dist)
                    {
                      best_dist = d;
                      near = (int)g;
                    }
                }
            }
        }
    }
  return inside >= 0 ? inside : near;
}

gboolean
tress_fur_mesh_bounds (const TressFurMesh *mesh, const guint *ribbons, guint n,
                       const float *weights, float min[3], float max[3])
{
  guint count = n > 0 ? n : mesh->n_ribbons, i, c;
  gboolean any = FALSE, morphed = FALSE;

  for (i = 0; weights != NULL && i < mesh->n_morphs; i++)
    morphed |= weights[i] != 0;
  if (n == 0 && !morphed)
    {
      /* The whole mesh at rest: computed once (a mutable cache). */
      if (!mesh->bounds_known)
        tress_fur_mesh_fill ((TressFurMesh *)mesh, NULL, NULL);
      memcpy (min, mesh->min, sizeof mesh->min);
      memcpy (max, mesh->max, sizeof mesh->max);
      return mesh->n_vertices > 0;
    }

  for (c = 0; c < 3; c++)
    {
      min[c] = G_MAXFLOAT;
      max[c] = -G_MAXFLOAT;
    }
  for (i = 0; i < count; i++)
    {
      guint g = n > 0 ? ribbons[i] : i, v, nv;
      float pts[2 * (TRESS_CHA_MAX_SECTIONS + 1) * 3];

      if (g >= mesh->n_ribbons)
        continue;
      nv = ribbon_vertices (mesh, g, weights, pts);
      for (v = 0; v < nv; v++)
        {
          const float *p = pts + 3 * v;

          for (c = 0; c < 3; c++)
            {
              min[c] = MIN (min[c], p[c]);
              max[c] = MAX (max[c], p[c]);
            }
          any = TRUE;
        }
    }
  return any;
}
