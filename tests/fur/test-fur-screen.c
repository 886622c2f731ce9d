/* test-fur-screen.c: picking and brushing through the projected grid agree
 * with the exact answers over every ribbon
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "app/fur/tress-fur-screen.h"
#include "app/gl/tress-gl-camera.h"
#include "formats/cha/tress-cha-demo.h"

#define W 480
#define H 360

typedef struct
{
  TressChaFile *file;
  TressFurMesh *mesh;
  float mvp[16];
  float weights[TRESS_FUR_MESH_MAX_MORPHS];
} View;

static void
view_init (View *v, guint n_ribbons, double yaw, double zoom)
{
  TressChaDemoOptions o;
  TressGlCamera cam;
  float lo[3], hi[3];

  tress_cha_demo_options_init (&o);
  o.n_ribbons = n_ribbons;
  v->file = tress_cha_demo_generate (&o);
  v->mesh = tress_fur_mesh_new (v->file, 0);
  memset (v->weights, 0, sizeof v->weights);
  v->weights[0] = 0.5f;
  tress_gl_camera_init (&cam, 3, yaw, 20);
  g_assert_true (tress_fur_mesh_bounds (v->mesh, NULL, 0, v->weights, lo, hi));
  g_assert_true (tress_gl_camera_frame (&cam, lo, hi));
  tress_gl_camera_zoom (&cam, zoom);
  tress_gl_camera_mvp (&cam, W, H, v->mvp);
}

static void
view_clear (View *v)
{
  tress_fur_mesh_free (v->mesh);
  tress_cha_file_free (v->file);
}

/* Over a grid of points: the same ribbon as the exact pick over all of them. */
static void
test_pick_matches (void)
{
  static const double views[][2] = { { 35, 1 }, { 200, 0.4 }, { 90, 2.5 } };

  for (guint k = 0; k < G_N_ELEMENTS (views); k++)
    {
      View v;
      g_autoptr (TressFurScreen) screen = NULL;
      guint hits = 0;

      view_init (&v, 300, views[k][0], views[k][1]);
      screen = tress_fur_screen_new (v.mesh, v.mvp, v.weights, W, H);
      g_assert_true (tress_fur_screen_matches (screen, v.mesh, v.mvp, v.weights, W, H));
      for (double y = 1.5; y < H; y += 9)
        for (double x = 2.25; x < W; x += 9)
          {
            int exact = tress_fur_mesh_pick (v.mesh, v.mvp, v.weights, W, H, x, y);

            g_assert_cmpint (tress_fur_screen_pick (screen, x, y), ==, exact);
            hits += exact >= 0;
          }
      g_assert_cmpuint (hits, >, 30);
      view_clear (&v);
    }
}

static int
compare_id (gconstpointer a, gconstpointer b)
{
  const TressChaLineId *x = a, *y = b;

  if (x->material != y->material)
    return x->material < y->material ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

/* The lines whose edge middles lie within the circle and the view, by brute
 * force. */
static GArray *
brush_exact (const View *v, double bx, double by, double radius)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (TressChaLineId));
  float pts[2 * (TRESS_CHA_MAX_SECTIONS + 1) * 3];

  for (guint g = 0; g < v->mesh->n_ribbons; g++)
    {
      guint n = tress_fur_mesh_ribbon_points (v->mesh, g, v->weights, pts), mi, r, first, nl;

      g_assert_true (tress_fur_mesh_ribbon_id (v->mesh, g, &mi, &r));
      g_assert_true (
          tress_cha_material_ribbon_lines (&v->file->radeon->materials[mi], r, &first, &nl));
      for (guint i = 0; i < nl && i + 2 < n; i++)
        {
          double p[3], q[3], mx, my;
          TressChaLineId id = { mi, first + i };

          if (!tress_gl_project (v->mvp, pts + 3 * i, W, H, p)
              || !tress_gl_project (v->mvp, pts + 3 * (i + 2), W, H, q))
            continue;
          mx = (p[0] + q[0]) / 2;
          my = (p[1] + q[1]) / 2;

          if (mx >= 0 && my >= 0 && mx < W && my < H && hypot (mx - bx, my - by) < radius)
            g_array_append_val (out, id);
        }
    }
  g_array_sort (out, compare_id);
  return out;
}

/* The brush at (@x, @y) through the grid finds exactly the lines a scan over
 * every ribbon finds; returns how many. */
static guint
check_brush (const View *v, TressFurScreen *screen, double x, double y, double radius)
{
  {
    g_autoptr (GArray) lines = g_array_new (FALSE, FALSE, sizeof (TressChaLineId));
    g_autoptr (GArray) falloff = g_array_new (FALSE, FALSE, sizeof (float));
    g_autoptr (GArray) ribbons = g_array_new (FALSE, FALSE, sizeof (guint));
    g_autoptr (GArray) exact = brush_exact (v, x, y, radius);
    guint n = tress_fur_screen_brush (screen, x, y, radius, lines, falloff, ribbons);

    g_assert_cmpuint (n, ==, lines->len);
    g_assert_cmpuint (falloff->len, ==, lines->len);
    for (guint k = 0; k < falloff->len; k++)
      {
        float f = g_array_index (falloff, float, k);

        g_assert_cmpfloat (f, >, 0);
        g_assert_cmpfloat (f, <=, 1);
      }
    /* Each ribbon listed once, and only ribbons with a line under the brush. */
    for (guint k = 0; k < ribbons->len; k++)
      for (guint j = 0; j < k; j++)
        g_assert_cmpuint (g_array_index (ribbons, guint, j), !=, g_array_index (ribbons, guint, k));
    g_assert_cmpuint (ribbons->len, <=, lines->len);
    g_array_sort (lines, compare_id);
    g_assert_cmpuint (lines->len, ==, exact->len);
    g_assert_cmpmem (lines->data, lines->len * sizeof (TressChaLineId), exact->data,
                     exact->len * sizeof (TressChaLineId));
    return n;
  }
}

static void
test_brush_matches (void)
{
  View v;
  g_autoptr (TressFurScreen) screen = NULL;
  guint total = 0;

  view_init (&v, 500, 35, 1);
  screen = tress_fur_screen_new (v.mesh, v.mvp, v.weights, W, H);
  for (guint i = 0; i < 30; i++)
    {
      double x = g_test_rand_double_range (-20, W + 20), y = g_test_rand_double_range (-20, H + 20);

      total += check_brush (&v, screen, x, y, g_test_rand_double_range (1, 80));
    }
  g_assert_cmpuint (total, >, 100);
  /* Another view is another screen. */
  v.mvp[0] += 0.01f;
  g_assert_false (tress_fur_screen_matches (screen, v.mesh, v.mvp, v.weights, W, H));
  view_clear (&v);
}

/* Big brushes (up to the whole view) over views near and far, where ribbons
 * cross many cells or lie behind the eye: still exactly the scan's lines. */
static void
test_brush_big (void)
{
  static const double views[][2] = { { 35, 1 }, { 200, 0.4 }, { 90, 6 } };
  guint total = 0;

  for (guint k = 0; k < G_N_ELEMENTS (views); k++)
    {
      View v;
      g_autoptr (TressFurScreen) screen = NULL;

      view_init (&v, 2000, views[k][0], views[k][1]);
      screen = tress_fur_screen_new (v.mesh, v.mvp, v.weights, W, H);
      for (guint i = 0; i < 8; i++)
        {
          double x = g_test_rand_double_range (0, W), y = g_test_rand_double_range (0, H);

          total += check_brush (&v, screen, x, y, g_test_rand_double_range (80, 1.2 * W));
        }
      g_clear_pointer (&screen, tress_fur_screen_free);
      view_clear (&v);
    }
  g_assert_cmpuint (total, >, 10000);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fur-screen/pick-matches", test_pick_matches);
  g_test_add_func ("/fur-screen/brush-matches", test_brush_matches);
  g_test_add_func ("/fur-screen/brush-big", test_brush_big);
  return g_test_run ();
}
