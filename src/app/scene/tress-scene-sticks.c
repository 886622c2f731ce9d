/* tress-scene-sticks.c: the skeleton overlay of the 3D preview, and picking it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-scene-sticks.h"

#include <math.h>
#include <string.h>

#include "app/gl/tress-gl-camera.h"

static void
to_clip (const float m[16], const float p[3], float clip[4])
{
  for (guint j = 0; j < 4; j++)
    clip[j] = p[0] * m[j] + p[1] * m[4 + j] + p[2] * m[8 + j] + m[12 + j];
}

static void
push (GArray *out, const float clip[4], const float colour[4])
{
  TressStickVertex v;

  memcpy (v.clip, clip, sizeof v.clip);
  memcpy (v.colour, colour, sizeof v.colour);
  g_array_append_val (out, v);
}

/* A quad from @a to @b (clip space, both in front of the eye), @width pixels
 * wide, as two triangles. */
static void
push_stick (GArray *out, const float a[4], const float b[4], double width, double height,
            double pixels, const float colour[4])
{
  /* Screen-space direction, in pixels. */
  double ax = a[0] / a[3] * width / 2, ay = a[1] / a[3] * height / 2;
  double bx = b[0] / b[3] * width / 2, by = b[1] / b[3] * height / 2;
  double dx = bx - ax, dy = by - ay, len = hypot (dx, dy);
  double nx, ny;
  float c[4][4];

  if (len < 1e-6)
    {
      dx = 1;
      dy = 0;
      len = 1;
    }
  /* The perpendicular, half the width, in NDC units. */
  nx = -dy / len * pixels / 2 * 2 / width;
  ny = dx / len * pixels / 2 * 2 / height;
  for (guint k = 0; k < 4; k++)
    {
      c[0][k] = c[1][k] = a[k];
      c[2][k] = c[3][k] = b[k];
    }
  c[0][0] += (float)(nx * a[3]), c[0][1] += (float)(ny * a[3]);
  c[1][0] -= (float)(nx * a[3]), c[1][1] -= (float)(ny * a[3]);
  c[2][0] += (float)(nx * b[3]), c[2][1] += (float)(ny * b[3]);
  c[3][0] -= (float)(nx * b[3]), c[3][1] -= (float)(ny * b[3]);
  push (out, c[0], colour);
  push (out, c[1], colour);
  push (out, c[2], colour);
  push (out, c[1], colour);
  push (out, c[3], colour);
  push (out, c[2], colour);
}

void
tress_scene_sticks_push_line (GArray *out, const float a[4], const float b[4], double width,
                              double height, double pixels, const float colour[4])
{
  push_stick (out, a, b, MAX (width, 1), MAX (height, 1), pixels, colour);
}

static void
push_square (GArray *out, const float p[4], double width, double height, double pixels,
             const float colour[4])
{
  float c[4][4];
  double hx = pixels / width * p[3], hy = pixels / height * p[3];

  for (guint k = 0; k < 4; k++)
    for (guint i = 0; i < 4; i++)
      c[k][i] = p[i];
  c[0][0] -= (float)hx, c[0][1] -= (float)hy;
  c[1][0] += (float)hx, c[1][1] -= (float)hy;
  c[2][0] += (float)hx, c[2][1] += (float)hy;
  c[3][0] -= (float)hx, c[3][1] += (float)hy;
  push (out, c[0], colour);
  push (out, c[1], colour);
  push (out, c[2], colour);
  push (out, c[0], colour);
  push (out, c[2], colour);
  push (out, c[3], colour);
}

static gboolean
node_clip (const TressScene *scene, guint n, const float mvp[16], float clip[4])
{
  float p[3];

  tress_scene_node_position (scene, n, p);
  to_clip (mvp, p, clip);
  return clip[3] > 1e-6;
}

void
tress_scene_sticks_build (const TressScene *scene, const float mvp[16], double width, double height,
                          const guint8 *highlight, int hover, const TressStickColours *colours,
                          GArray *out)
{
  guint n = tress_scene_get_n_nodes (scene);

  width = MAX (width, 1);
  height = MAX (height, 1);
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < n; i++)
      {
        const TressSceneNode *node = tress_scene_get_node (scene, i);
        gboolean hi = highlight != NULL && highlight[i];
        const float *colour = hi                ? colours->highlight
                              : (int)i == hover ? colours->hover
                                                : colours->normal;
        float a[4], b[4];

        if (!node->visible || hi != (pass == 1) || !node_clip (scene, i, mvp, b))
          continue;
        if (node->parent >= 0 && (guint)node->parent < n
            && tress_scene_get_node (scene, (guint)node->parent)->visible
            && node_clip (scene, (guint)node->parent, mvp, a))
          push_stick (out, a, b, width, height,
                      (int)i == hover || hi ? TRESS_SCENE_STICK_WIDTH + 1.5
                                            : TRESS_SCENE_STICK_WIDTH,
                      colour);
        push_square (out, b, width, height, TRESS_SCENE_JOINT_SIZE / 2 * (hi ? 1.3 : 1), colour);
      }
}

int
tress_scene_sticks_pick (const TressScene *scene, const float mvp[16], double width, double height,
                         double x, double y)
{
  guint n = tress_scene_get_n_nodes (scene);
  double best = TRESS_SCENE_PICK_TOLERANCE;
  int found = -1;

  for (guint i = 0; i < n; i++)
    {
      const TressSceneNode *node = tress_scene_get_node (scene, i);
      float p[3];
      double b[3], a[3], d;

      if (!node->visible)
        continue;
      tress_scene_node_position (scene, i, p);
      if (!tress_gl_project (mvp, p, width, height, b))
        continue;
      /* The square counts a little more than a stick through the same spot. */
      d = hypot (b[0] - x, b[1] - y) * 0.75;
      if (node->parent >= 0 && (guint)node->parent < n
          && tress_scene_get_node (scene, (guint)node->parent)->visible)
        {
          tress_scene_node_position (scene, (guint)node->parent, p);
          if (tress_gl_project (mvp, p, width, height, a))
            d = MIN (d, tress_gl_segment_distance (a, b, x, y));
        }
      if (d < best)
        {
          best = d;
          found = (int)i;
        }
    }
  return found;
}

gboolean
tress_scene_node_screen_position (const TressScene *scene, guint node, const float mvp[16],
                                  double width, double height, double *x, double *y)
{
  float p[3];
  double out[3];

  if (node >= tress_scene_get_n_nodes (scene))
    return FALSE;
  tress_scene_node_position (scene, node, p);
  if (!tress_gl_project (mvp, p, width, height, out))
    return FALSE;
  *x = out[0];
  *y = out[1];
  return TRUE;
}

/* The node a vertex follows: its mesh's node, or its heaviest joint's. */
static int
vertex_node (const TressScene *scene, const TressSceneMesh *mesh, guint v)
{
  const guint16 *joints;
  const float *weights;
  guint best = 0;

  if (mesh->joints == NULL)
    return mesh->node;
  joints = mesh->joints + TRESS_SCENE_MAX_INFLUENCES * (gsize)v;
  weights = mesh->weights + TRESS_SCENE_MAX_INFLUENCES * (gsize)v;
  for (guint k = 1; k < TRESS_SCENE_MAX_INFLUENCES; k++)
    if (weights[k] > weights[best])
      best = k;
  if (!(weights[best] > 0) || joints[best] >= scene->joints->len)
    return -1;
  return tress_scene_get_joint (scene, joints[best])->node;
}

int
tress_scene_mesh_pick (const TressScene *scene, const float mvp[16], double width, double height,
                       double x, double y)
{
  double best = G_MAXDOUBLE;
  int found = -1;

  for (guint m = 0; m < scene->meshes->len; m++)
    {
      const TressSceneMesh *mesh = tress_scene_get_mesh (scene, m);
      g_autofree double *screen = NULL;
      g_autofree guint8 *front = NULL;

      if (!mesh->visible || mesh->n_vertices == 0)
        continue;
      screen = g_new (double, 3 * (gsize)mesh->n_vertices);
      front = g_new (guint8, mesh->n_vertices);
      for (guint v = 0; v < mesh->n_vertices; v++)
        {
          float p[3];

          tress_scene_vertex_position (scene, mesh, v, p);
          front[v] = tress_gl_project (mvp, p, width, height, screen + 3 * (gsize)v);
        }
      for (guint t = 0; t < mesh->n_triangles; t++)
        {
          const guint32 *tri = mesh->triangles + 3 * (gsize)t;
          double depth;

          if (tri[0] >= mesh->n_vertices || tri[1] >= mesh->n_vertices || tri[2] >= mesh->n_vertices
              || !front[tri[0]] || !front[tri[1]] || !front[tri[2]])
            continue;
          if (tress_gl_triangle_hit (screen + 3 * (gsize)tri[0], screen + 3 * (gsize)tri[1],
                                     screen + 3 * (gsize)tri[2], x, y, &depth)
              && depth < best)
            {
              int node = vertex_node (scene, mesh, tri[0]);

              if (node >= 0 && (guint)node < tress_scene_get_n_nodes (scene)
                  && tress_scene_get_node (scene, (guint)node)->visible)
                {
                  best = depth;
                  found = node;
                }
            }
        }
    }
  return found;
}
