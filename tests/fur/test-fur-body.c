/* test-fur-body.c: the ellipsoids fitted under the fur
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/fur/tress-fur-body.h"

/* One material on parts 7, 2 and 5 (applied list in that order), two morphs:
 * "move" shifts every root by +1 along x, "fat" pushes part 7's roots away
 * from its centre (doubles its radii at weight 1). One line per ribbon. */
#define MAX_RIBBONS 16

typedef struct
{
  TressChaFile file;
  TressChaSection section;
  TressChaRadeon radeon;
  TressChaMaterial mat;
  TressChaLine lines[MAX_RIBBONS];
  float base[6 * MAX_RIBBONS], move[6 * MAX_RIBBONS], fat[6 * MAX_RIBBONS], *morphs[2];
  guint32 n_sections[MAX_RIBBONS], first_line[MAX_RIBBONS], n_ribbon_lines[MAX_RIBBONS];
  guint32 attach[MAX_RIBBONS], applied[3];
} Fixture;

/* Part 7's ellipsoid: centre (1, 2, 3), semi-axes 3, 2, 1 along e1, e2, e3
 * (a rotation of 30° about z). */
static const float centre[3] = { 1, 2, 3 };
static const float radii[3] = { 3, 2, 1 };
static float axes[3][3];

static void
add_ribbon (Fixture *f, const float root[3], guint16 ref0, guint8 w0, guint16 ref1, guint8 w1)
{
  guint r = f->mat.n_ribbons++;

  g_assert_cmpuint (r, <, MAX_RIBBONS);
  /* The two base points straddle the root (their middle is the root). */
  for (guint k = 0; k < 3; k++)
    {
      f->base[6 * r + k] = root[k] - (k == 2 ? 0.25f : 0);
      f->base[6 * r + 3 + k] = root[k] + (k == 2 ? 0.25f : 0);
      f->move[6 * r + k] = f->move[6 * r + 3 + k] = k == 0 ? 1.0f : 0.0f;
    }
  f->n_sections[r] = 1;
  f->first_line[r] = r;
  f->n_ribbon_lines[r] = 1;
  f->lines[r].refs[0] = ref0;
  f->lines[r].refs[1] = ref1;
  f->lines[r].weights[2] = w0; /* reversed: byte 26 weights reference 0 */
  f->lines[r].weights[1] = w1;
  f->mat.n_lines++;
}

static void
fixture_init (Fixture *f)
{
  const double angle = G_PI / 6;

  memset (f, 0, sizeof *f);
  memset (axes, 0, sizeof axes);
  axes[0][0] = (float)cos (angle), axes[0][1] = (float)sin (angle);
  axes[1][0] = (float)-sin (angle), axes[1][1] = (float)cos (angle);
  axes[2][2] = 1;
  f->file.radeon = &f->radeon;
  f->file.sections = &f->section;
  f->file.n_sections = 1;
  f->section.radeon = &f->radeon;
  f->radeon.n_morphs = 2;
  f->radeon.n_materials = 1;
  f->radeon.materials = &f->mat;
  f->mat.n_applied = 3;
  f->mat.applied = f->applied;
  f->applied[0] = 7, f->applied[1] = 2, f->applied[2] = 5;
  f->mat.lines = f->lines;
  f->mat.base_points = f->base;
  f->mat.morph_points = f->morphs;
  f->morphs[0] = f->move;
  f->morphs[1] = f->fat;
  f->mat.n_sections = f->n_sections;
  f->mat.attach = f->attach;
  f->mat.first_line = f->first_line;
  f->mat.n_ribbon_lines = f->n_ribbon_lines;

  /* Part 7: the six ends of the semi-axes, fully weighted. The spread of
   * ±a along an axis is a²/3: the fit must give a back exactly. */
  for (guint i = 0; i < 3; i++)
    for (int s = -1; s <= 1; s += 2)
      {
        float p[3];
        guint r = f->mat.n_ribbons;

        for (guint k = 0; k < 3; k++)
          p[k] = centre[k] + (float)s * radii[i] * axes[i][k];
        add_ribbon (f, p, 0, 255, 3, 0);
        for (guint k = 0; k < 3; k++)
          f->fat[6 * r + k] = f->fat[6 * r + 3 + k] = p[k] - centre[k];
      }
  /* Part 2: a root at the origin fully, one at (4, 0, 0) with a third of its
   * weight (the rest on part 5): the weighted centre is (1, 0, 0). */
  add_ribbon (f, (const float[3]){ 0, 0, 0 }, 3, 255, 0, 0);
  add_ribbon (f, (const float[3]){ 4, 0, 0 }, 3, 85, 6, 170);
  /* A reference outside the applied list (3 × 9) and a zero weight: skipped. */
  add_ribbon (f, (const float[3]){ 50, 50, 50 }, 27, 255, 0, 0);
}

static const TressFurBodyPart *
find_part (const TressFurBody *body, guint32 part)
{
  for (guint i = 0; i < tress_fur_body_get_n_parts (body); i++)
    if (tress_fur_body_get_part (body, i)->part == part)
      return tress_fur_body_get_part (body, i);
  g_error ("no ellipsoid for part %u", part);
}

static void
assert_ellipsoid (const TressFurBodyPart *p, const float c[3], float scale)
{
  for (guint k = 0; k < 3; k++)
    g_assert_cmpfloat_with_epsilon (p->centre[k], c[k], 1e-4);
  for (guint i = 0; i < 3; i++)
    {
      float dot = 0;

      g_assert_cmpfloat_with_epsilon (p->radius[i], scale * radii[i], 1e-4);
      /* The same axis, either way round. */
      for (guint k = 0; k < 3; k++)
        dot += p->axis[i][k] * axes[i][k];
      g_assert_cmpfloat_with_epsilon (fabsf (dot), 1.0, 1e-4);
    }
}

static void
test_body_known_cloud (void)
{
  Fixture f;
  g_autoptr (TressFurBody) body = NULL;
  const TressFurBodyPart *p7, *p2, *p5;

  fixture_init (&f);
  body = tress_fur_body_new (&f.file);
  /* Parts 2, 5 and 7 are referenced (ascending); the bad reference adds none. */
  g_assert_cmpuint (tress_fur_body_get_n_parts (body), ==, 3);
  g_assert_cmpuint (tress_fur_body_get_part (body, 0)->part, ==, 2);
  g_assert_cmpuint (tress_fur_body_get_part (body, 1)->part, ==, 5);
  g_assert_cmpuint (tress_fur_body_get_part (body, 2)->part, ==, 7);

  p7 = find_part (body, 7);
  g_assert_cmpfloat_with_epsilon (p7->weight, 6.0, 1e-9);
  assert_ellipsoid (p7, centre, 1.0f);

  /* Weighted by the weights referencing it: 1 × (0,0,0) + ⅓ × (4,0,0). */
  p2 = find_part (body, 2);
  g_assert_cmpfloat_with_epsilon (p2->weight, 1.0 + 85.0 / 255.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (p2->centre[0], 1.0, 1e-5);
  g_assert_cmpfloat_with_epsilon (p2->centre[1], 0.0, 1e-5);
  /* Its roots lie on a line: the other radii are kept at the minimum share. */
  g_assert_cmpfloat (p2->radius[0], >, 0);
  g_assert_cmpfloat_with_epsilon (p2->radius[1], TRESS_FUR_BODY_MIN_RADIUS_SHARE * p2->radius[0],
                                  1e-5);

  /* Part 5: one root, a point. */
  p5 = find_part (body, 5);
  g_assert_cmpfloat_with_epsilon (p5->centre[0], 4.0, 1e-5);
  g_assert_cmpfloat_with_epsilon (p5->radius[0], 0.0, 1e-5);
}

static void
test_body_morphs (void)
{
  Fixture f;
  g_autoptr (TressFurBody) body = NULL;
  float moved[3] = { centre[0] + 0.5f, centre[1], centre[2] };

  fixture_init (&f);
  body = tress_fur_body_new (&f.file);

  /* "move" at one half: every centre moves by 0.5 along x, the shape stays. */
  tress_fur_body_fit (body, (const float[]){ 0.5f, 0 }, 2);
  assert_ellipsoid (find_part (body, 7), moved, 1.0f);
  g_assert_cmpfloat_with_epsilon (find_part (body, 2)->centre[0], 1.5, 1e-5);

  /* "fat" at one: part 7 twice as big, same centre; with both, both. */
  tress_fur_body_fit (body, (const float[]){ 0, 1 }, 2);
  assert_ellipsoid (find_part (body, 7), centre, 2.0f);
  tress_fur_body_fit (body, (const float[]){ 0.5f, 0.25f }, 2);
  assert_ellipsoid (find_part (body, 7), moved, 1.25f);

  /* Back to no morph: the first fit again (weights past the morphs ignored). */
  tress_fur_body_fit (body, (const float[]){ 0, 0, 7 }, 3);
  assert_ellipsoid (find_part (body, 7), centre, 1.0f);
}

static void
test_body_broken (void)
{
  Fixture f;
  g_autoptr (TressFurBody) empty = tress_fur_body_new (NULL);
  g_autoptr (TressFurBody) body = NULL;

  g_assert_cmpuint (tress_fur_body_get_n_parts (empty), ==, 0);
  fixture_init (&f);
  /* A ribbon whose lines run past the line array, undecoded lines: skipped. */
  f.n_ribbon_lines[0] = 100;
  f.first_line[1] = 1000;
  body = tress_fur_body_new (&f.file);
  g_assert_cmpfloat_with_epsilon (find_part (body, 7)->weight, 4.0, 1e-9);
  tress_fur_body_free (g_steal_pointer (&body));
  f.mat.lines = NULL;
  body = tress_fur_body_new (&f.file);
  g_assert_cmpuint (tress_fur_body_get_n_parts (body), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fur-body/known-cloud", test_body_known_cloud);
  g_test_add_func ("/fur-body/morphs", test_body_morphs);
  g_test_add_func ("/fur-body/broken", test_body_broken);
  return g_test_run ();
}
