/* tress-fur-screen.c: projected ribbons in a grid of screen cells
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-fur-screen.h"

#include <math.h>
#include <string.h>

#include "app/gl/tress-gl-camera.h"

#define CELL 16
#define PICK_TOLERANCE 4.0
/* A ribbon spread over more cells than this is listed in the catch-all list
 * instead (a long ribbon across the view would fill the grid). */
#define MAX_CELLS_PER_RIBBON 4096

struct _TressFurScreen
{
  const TressFurMesh *mesh;
  float mvp[16];
  float weights[TRESS_FUR_MESH_MAX_MORPHS];
  double width, height;

  double *points; /* n_vertices × 3: x, y (pixels), depth; NAN when behind the eye */
  guint cols, rows;
  guint *cell_first; /* cols × rows + 1, into cell_ribbons */
  guint *cell_ribbons;
  GArray *wide; /* guint: ribbons over too many cells, always candidates */
  guint *stamp; /* per ribbon: the query that last listed it */
  guint query;
};

static gboolean
ribbon_box (const TressFurScreen *self, guint g, double box[4])
{
  const TressFurMesh *m = self->mesh;
  guint v0 = m->ribbon_vertex[g], v1 = m->ribbon_vertex[g + 1];

  gboolean any = FALSE;

  /* Over the points in front of the eye: a ribbon partly behind it still
   * has lines and triangles on screen. */
  box[0] = box[1] = G_MAXDOUBLE;
  box[2] = box[3] = -G_MAXDOUBLE;
  for (guint v = v0; v < v1; v++)
    {
      const double *p = self->points + 3 * (gsize)v;

      if (isnan (p[0]))
        continue;
      box[0] = MIN (box[0], p[0]);
      box[1] = MIN (box[1], p[1]);
      box[2] = MAX (box[2], p[0]);
      box[3] = MAX (box[3], p[1]);
      any = TRUE;
    }
  return any;
}

/* The cells a box (grown by @grow) covers, clamped to the grid; FALSE when
 * it misses the grid. */
static gboolean
cell_range (const TressFurScreen *self, const double box[4], double grow, guint range[4])
{
  double x0 = floor ((box[0] - grow) / CELL), y0 = floor ((box[1] - grow) / CELL);
  double x1 = floor ((box[2] + grow) / CELL), y1 = floor ((box[3] + grow) / CELL);

  if (x1 < 0 || y1 < 0 || x0 >= self->cols || y0 >= self->rows)
    return FALSE;
  range[0] = (guint)MAX (x0, 0);
  range[1] = (guint)MAX (y0, 0);
  range[2] = (guint)MIN (x1, self->cols - 1.0);
  range[3] = (guint)MIN (y1, self->rows - 1.0);
  return TRUE;
}

TressFurScreen *
tress_fur_screen_new (const TressFurMesh *mesh, const float mvp[16], const float *weights,
                      double width, double height)
{
  TressFurScreen *self = g_new0 (TressFurScreen, 1);
  float pts[2 * (TRESS_CHA_MAX_SECTIONS + 1) * 3];
  g_autofree guint *count = NULL;
  guint g, cells, total = 0;

  self->mesh = mesh;
  memcpy (self->mvp, mvp, sizeof self->mvp);
  if (weights != NULL)
    memcpy (self->weights, weights, sizeof (float) * mesh->n_morphs);
  self->width = width;
  self->height = height;
  self->cols = (guint)MAX (ceil (width / CELL), 1);
  self->rows = (guint)MAX (ceil (height / CELL), 1);
  cells = self->cols * self->rows;
  self->points = g_new (double, 3 * (gsize)mesh->n_vertices + 1);
  self->stamp = g_new0 (guint, mesh->n_ribbons + 1);
  self->wide = g_array_new (FALSE, FALSE, sizeof (guint));
  self->cell_first = g_new0 (guint, cells + 1);
  count = g_new0 (guint, cells + 1);

  for (g = 0; g < mesh->n_ribbons; g++)
    {
      guint v0 = mesh->ribbon_vertex[g];
      guint n = tress_fur_mesh_ribbon_points (mesh, g, self->weights, pts);

      for (guint i = 0; i < n; i++)
        {
          double *out = self->points + 3 * ((gsize)v0 + i);

          if (!tress_gl_project (mvp, pts + 3 * i, width, height, out))
            out[0] = out[1] = out[2] = NAN;
        }
    }
  /* Two passes: count the ribbons of each cell, then list them. */
  for (int pass = 0; pass < 2; pass++)
    {
      for (g = 0; g < mesh->n_ribbons; g++)
        {
          double box[4];
          guint range[4];

          if (!ribbon_box (self, g, box) || !cell_range (self, box, 0, range))
            continue;
          if ((gsize)(range[2] - range[0] + 1) * (range[3] - range[1] + 1) > MAX_CELLS_PER_RIBBON)
            {
              if (pass == 0)
                g_array_append_val (self->wide, g);
              continue;
            }
          for (guint cy = range[1]; cy <= range[3]; cy++)
            for (guint cx = range[0]; cx <= range[2]; cx++)
              {
                guint c = cy * self->cols + cx;

                if (pass == 0)
                  count[c]++;
                else
                  self->cell_ribbons[self->cell_first[c] + count[c]++] = g;
              }
        }
      if (pass == 0)
        {
          for (guint c = 0; c < cells; c++)
            {
              self->cell_first[c] = total;
              total += count[c];
              count[c] = 0;
            }
          self->cell_first[cells] = total;
          self->cell_ribbons = g_new (guint, total + 1);
        }
    }
  return self;
}

void
tress_fur_screen_free (TressFurScreen *self)
{
  if (self == NULL)
    return;
  g_free (self->points);
  g_free (self->cell_first);
  g_free (self->cell_ribbons);
  g_free (self->stamp);
  g_array_unref (self->wide);
  g_free (self);
}

gboolean
tress_fur_screen_matches (const TressFurScreen *self, const TressFurMesh *mesh, const float mvp[16],
                          const float *weights, double width, double height)
{
  return self != NULL && self->mesh == mesh && self->width == width && self->height == height
         && memcmp (self->mvp, mvp, sizeof self->mvp) == 0
         && (weights == NULL
             || memcmp (self->weights, weights, sizeof (float) * mesh->n_morphs) == 0);
}

/* Calls @func on every ribbon listed in the cells around a box, each once. */
typedef gboolean (*Visit) (TressFurScreen *self, guint g, gpointer data);

static void
visit (TressFurScreen *self, const double box[4], double grow, Visit func, gpointer data)
{
  guint range[4];

  if (++self->query == 0)
    {
      memset (self->stamp, 0, sizeof (guint) * self->mesh->n_ribbons);
      self->query = 1;
    }
  for (guint i = 0; i < self->wide->len; i++)
    {
      guint g = g_array_index (self->wide, guint, i);

      self->stamp[g] = self->query;
      if (!func (self, g, data))
        return;
    }
  if (!cell_range (self, box, grow, range))
    return;
  for (guint cy = range[1]; cy <= range[3]; cy++)
    for (guint cx = range[0]; cx <= range[2]; cx++)
      {
        guint c = cy * self->cols + cx;

        for (guint k = self->cell_first[c]; k < self->cell_first[c + 1]; k++)
          {
            guint g = self->cell_ribbons[k];

            if (self->stamp[g] == self->query)
              continue;
            self->stamp[g] = self->query;
            if (!func (self, g, data))
              return;
          }
      }
}

typedef struct
{
  double x, y;
  double best_depth, best_dist;
  int inside, near;
} Pick;

static gboolean
pick_ribbon (TressFurScreen *self, guint g, gpointer data)
{
  Pick *p = data;
  const TressFurMesh *m = self->mesh;
  guint v0 = m->ribbon_vertex[g], n = m->ribbon_vertex[g + 1] - v0;

  for (guint v = 0; v + 3 < n; v += 2)
    {
      /* The quad of one section: v, v+1 (near edge), v+2, v+3 (far edge). */
      const double *q = self->points + 3 * ((gsize)v0 + v);

      if (isnan (q[0]) || isnan (q[3]) || isnan (q[6]) || isnan (q[9]))
        continue;
      for (guint t = 0; t < 2; t++)
        {
          const double *a = q + 3 * t, *b = q + 3 * (t + 1), *c = q + 3 * (t + 2);
          double depth;

          if (tress_gl_triangle_hit (a, b, c, p->x, p->y, &depth))
            {
              if (depth < p->best_depth || (depth == p->best_depth && (int)g < p->inside))
                {
                  p->best_depth = depth;
                  p->inside = (int)g;
                }
              continue;
            }
          if (p->inside < 0)
            {
              double d = MIN (tress_gl_segment_distance (a, b, p->x, p->y),
                              MIN (tress_gl_segment_distance (b, c, p->x, p->y),
                                   tress_gl_segment_distance (a, c, p->x, p->y)));

              if (d < p->best_dist || (d == p->best_dist && (int)g < p->near))
                {
                  p->best_dist = d;
                  p->near = (int)g;
                }
            }
        }
    }
  return TRUE;
}

int
tress_fur_screen_pick (TressFurScreen *self, double x, double y)
{
  Pick p = { x, y, G_MAXDOUBLE, PICK_TOLERANCE, -1, -1 };
  double box[4] = { x, y, x, y };

  visit (self, box, PICK_TOLERANCE, pick_ribbon, &p);
  return p.inside >= 0 ? p.inside : p.near;
}

typedef struct
{
  double x, y, r2;
  GArray *lines, *falloff, *ribbons;
  guint n;
} Brush;

static gboolean
brush_ribbon (TressFurScreen *self, guint g, gpointer data)
{
  Brush *b = data;
  const TressFurMesh *m = self->mesh;
  const TressChaRadeon *rad = m->file != NULL ? m->file->radeon : NULL;
  guint v0 = m->ribbon_vertex[g], n_points = m->ribbon_vertex[g + 1] - v0;
  guint mi, r, first, n_lines;
  gboolean listed = FALSE;

  if (rad == NULL || !tress_fur_mesh_ribbon_id (m, g, &mi, &r) || mi >= rad->n_materials
      || !tress_cha_material_ribbon_lines (&rad->materials[mi], r, &first, &n_lines))
    return TRUE;
  /* Line i: the edge from vertex i to vertex i + 2 of the strip. */
  for (guint i = 0; i < n_lines && i + 2 < n_points; i++)
    {
      const double *p = self->points + 3 * ((gsize)v0 + i), *q = p + 6;
      double mx, my, dx, dy, d2, f;
      TressChaLineId id = { mi, first + i };
      float falloff;

      if (isnan (p[0]) || isnan (q[0]))
        continue;
      mx = (p[0] + q[0]) / 2;
      my = (p[1] + q[1]) / 2;
      /* Only what the view shows: a brush over the edge paints nothing past it. */
      if (!(mx >= 0 && my >= 0 && mx < self->width && my < self->height))
        continue;
      dx = mx - b->x;
      dy = my - b->y;
      d2 = dx * dx + dy * dy;
      if (d2 >= b->r2)
        continue;
      f = 1 - d2 / b->r2;
      falloff = (float)(f * f);
      g_array_append_val (b->lines, id);
      g_array_append_val (b->falloff, falloff);
      b->n++;
      if (!listed && b->ribbons != NULL)
        g_array_append_val (b->ribbons, g);
      listed = TRUE;
    }
  return TRUE;
}

guint
tress_fur_screen_brush (TressFurScreen *self, double x, double y, double radius, GArray *lines,
                        GArray *falloff, GArray *ribbons)
{
  Brush b = { x, y, radius * radius, lines, falloff, ribbons, 0 };
  double box[4] = { x - radius, y - radius, x + radius, y + radius };

  if (!(radius > 0))
    return 0;
  /* A line's middle lies within its ribbon's box: the cells under the circle
   * list every ribbon that can have one there. */
  visit (self, box, 0, brush_ribbon, &b);
  return b.n;
}
