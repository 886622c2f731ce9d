/* test-fur-mesh.c: the preview's ribbon strips, colours and picking
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "app/fur/tress-fur-mesh.h"

/* A tiny hand-made model: one material, two ribbons along +x apart, morph 0
 * moving everything up by 1, moralities base and one more (twice as long). */
typedef struct
{
  TressChaFile file;
  TressChaSection section;
  TressChaRadeon radeon;
  TressChaMaterial mat;
  TressChaLine lines[6];
  float base[12], morph[12], *morph_arrays[1], len0[2], len1[2], *lengths[2];
  guint32 n_sections[2], quality[2], attach[2], first_line[2], n_ribbon_lines[2], applied[2];
} Fixture;

static void
fixture_init (Fixture *f)
{
  memset (f, 0, sizeof *f);
  f->file.radeon = &f->radeon;
  f->file.sections = &f->section;
  f->file.n_sections = 1;
  f->section.radeon = &f->radeon;
  f->radeon.n_morphs = 1;
  f->radeon.n_moralities = 1;
  f->radeon.n_materials = 1;
  f->radeon.materials = &f->mat;
  f->mat.n_applied = 2;
  f->mat.applied = f->applied;
  f->applied[0] = 4;
  f->applied[1] = 9;
  f->mat.n_lines = 6;
  f->mat.lines = f->lines;
  f->mat.n_ribbons = 2;
  f->mat.base_points = f->base;
  f->mat.morph_points = f->morph_arrays;
  f->morph_arrays[0] = f->morph;
  f->mat.n_sections = f->n_sections;
  f->mat.quality = f->quality;
  f->mat.lengths = f->lengths;
  f->lengths[0] = f->len0;
  f->lengths[1] = f->len1;
  f->mat.attach = f->attach;
  f->mat.first_line = f->first_line;
  f->mat.n_ribbon_lines = f->n_ribbon_lines;

  /* Ribbon 0: base (0,0,0)-(1,0,0), 1 section pointing -z, length 2. */
  f->base[3] = 1;
  f->n_sections[0] = 1;
  f->first_line[0] = 0;
  f->n_ribbon_lines[0] = 2;
  f->lines[0].direction[2] = -4; /* normalised */
  f->lines[1].direction[2] = -1;
  f->len0[0] = 2;
  f->len1[0] = 4;
  /* Ribbon 1: base (5,0,0)-(6,0,0), 2 sections: -z then +y; length 2. */
  f->base[6] = 5;
  f->base[9] = 6;
  f->n_sections[1] = 2;
  f->first_line[1] = 2;
  f->n_ribbon_lines[1] = 4;
  f->lines[2].direction[2] = -1;
  f->lines[3].direction[2] = -1;
  f->lines[4].direction[1] = 1;
  f->lines[5].direction[1] = 1;
  f->len0[1] = 2;
  f->len1[1] = 2;
  f->quality[1] = 2;
  f->attach[0] = 4;
  f->attach[1] = 9;
  /* Weights: ribbon 0 follows applied[0] (part 4) fully; ribbon 1 half. */
  for (guint i = 0; i < 6; i++)
    {
      f->lines[i].refs[0] = 0;
      f->lines[i].refs[1] = 3;
      f->lines[i].weights[2] = i < 2 ? 255 : 128; /* weight of reference 0 */
      f->lines[i].weights[1] = i < 2 ? 0 : 127;
    }
  for (guint i = 0; i < 12; i += 3)
    f->morph[i + 1] = 1;
}

static void
assert_vec (const float *p, float x, float y, float z)
{
  g_assert_cmpfloat_with_epsilon (p[0], x, 1e-5);
  g_assert_cmpfloat_with_epsilon (p[1], y, 1e-5);
  g_assert_cmpfloat_with_epsilon (p[2], z, 1e-5);
}

/* Vertex @v as the GPU gets it (tress_fur_mesh_fill) and as picking sees it. */
static const float *
vertex_at (TressFurMesh *mesh, guint v)
{
  static float p[3];
  g_autofree float *all = g_new (float, 3 * (gsize)mesh->n_vertices);
  float again[3];

  g_assert_true (tress_fur_mesh_fill (mesh, all, NULL));
  memcpy (p, all + 3 * (gsize)v, sizeof p);
  tress_fur_mesh_vertex (mesh, v, NULL, again);
  g_assert_cmpmem (p, sizeof p, again, sizeof again);
  return p;
}

static void
test_mesh_build (void)
{
  Fixture f;
  g_autoptr (TressFurMesh) mesh = NULL;
  g_autoptr (TressFurMesh) longer = NULL;
  const float up[1] = { 1 };
  float p[3];
  guint m, r;

  fixture_init (&f);
  mesh = tress_fur_mesh_new (&f.file, 0);
  g_assert_cmpuint (mesh->n_ribbons, ==, 2);
  /* 1 section: 4 vertices, 2 triangles; 2 sections: 6 vertices, 4 triangles. */
  g_assert_cmpuint (mesh->n_vertices, ==, 10);
  g_assert_cmpuint (mesh->n_triangles, ==, 6);
  g_assert_cmpuint (mesh->ribbon_vertex[1], ==, 4);
  assert_vec (vertex_at (mesh, 1), 1, 0, 0);
  assert_vec (vertex_at (mesh, 2), 0, 0, -2); /* left tip, normalised direction */
  assert_vec (vertex_at (mesh, 3), 1, 0, -2);
  /* Ribbon 1: each section 1 long: down -z then up +y. */
  assert_vec (vertex_at (mesh, 8), 5, 1, -1);
  assert_vec (vertex_at (mesh, 9), 6, 1, -1);
  g_assert_cmpuint (tress_fur_mesh_point_id (mesh, 9), ==, 3);
  g_assert_cmpuint (tress_fur_mesh_point_id (mesh, 4), ==, 2);
  {
    g_autofree guint32 *ids = g_new (guint32, mesh->n_vertices);

    g_assert_true (tress_fur_mesh_fill (mesh, NULL, ids));
    for (guint v = 0; v < mesh->n_vertices; v++)
      g_assert_cmpuint (ids[v], ==, tress_fur_mesh_point_id (mesh, v));
  }
  {
    /* The strips: 0 1 2 3 | 4 5 6 7 8 9; every second ribbon: ribbon 0 only. */
    static const guint32 all[] = { 0, 1, 2, 3, TRESS_FUR_MESH_RESTART, 4, 5, 6, 7, 8, 9 };
    guint32 out[G_N_ELEMENTS (all)];
    guint strips = 0;

    g_assert_cmpuint (tress_fur_mesh_strip_indices (mesh, 1, NULL, &strips), ==,
                      G_N_ELEMENTS (all));
    g_assert_cmpuint (strips, ==, 2);
    g_assert_cmpuint (tress_fur_mesh_strip_indices (mesh, 0, out, NULL), ==, G_N_ELEMENTS (all));
    g_assert_cmpmem (out, sizeof out, all, sizeof all);
    g_assert_cmpuint (tress_fur_mesh_strip_indices (mesh, 2, out, &strips), ==, 4);
    g_assert_cmpuint (strips, ==, 1);
    g_assert_cmpmem (out, 4 * sizeof (guint32), all, 4 * sizeof (guint32));
  }
  assert_vec (mesh->min, 0, 0, -2);
  assert_vec (mesh->max, 6, 1, 0);

  /* The morality's lengths: ribbon 0 twice as long. */
  longer = tress_fur_mesh_new (&f.file, 1);
  assert_vec (vertex_at (longer, 2), 0, 0, -4);
  /* A ribbon gone from the file before the mesh is rebuilt reads as the
   * origin, nothing past the arrays. */
  f.mat.n_ribbons = 1;
  {
    float q[3], lo[3], hi[3];

    tress_fur_mesh_vertex (longer, 9, NULL, q);
    assert_vec (q, 0, 0, 0);
    g_assert_true (tress_fur_mesh_bounds (longer, NULL, 0, NULL, lo, hi));
    assert_vec (lo, 0, 0, -4);
  }
  f.mat.n_ribbons = 2;
  /* A morality past the file's is clamped to the last. */
  tress_fur_mesh_free (tress_fur_mesh_new (&f.file, 7));

  /* Morph displacement moves every vertex of a side by the point's offset. */
  tress_fur_mesh_vertex (mesh, 9, up, p);
  assert_vec (p, 6, 2, -1);
  tress_fur_mesh_vertex (mesh, 9, NULL, p);
  assert_vec (p, 6, 1, -1);

  g_assert_true (tress_fur_mesh_ribbon_id (mesh, 1, &m, &r));
  g_assert_cmpuint (r, ==, 1);
  g_assert_false (tress_fur_mesh_ribbon_id (mesh, 2, &m, &r));
  g_assert_cmpuint (tress_fur_mesh_global (mesh, 0, 1), ==, 1);
  g_assert_cmpuint (tress_fur_mesh_global (mesh, 1, 0), ==, G_MAXUINT);
}

static void
test_mesh_broken_model (void)
{
  Fixture f;
  g_autoptr (TressFurMesh) mesh = NULL;

  fixture_init (&f);
  /* Out-of-range line indices, a bad section count and a NaN length: the
   * ribbon is still drawn with default directions, nothing is read outside. */
  f.first_line[1] = 5;
  f.n_ribbon_lines[1] = 40;
  f.n_sections[0] = 99;
  f.len0[1] = NAN;
  mesh = tress_fur_mesh_new (&f.file, 0);
  g_assert_cmpuint (mesh->ribbon_vertex[1], ==, 2 * (TRESS_CHA_MAX_SECTIONS + 1));
  {
    g_autofree float *positions = g_new (float, 3 * (gsize)mesh->n_vertices);

    g_assert_true (tress_fur_mesh_fill (mesh, positions, NULL));
    for (guint i = 0; i < 3 * mesh->n_vertices; i++)
      g_assert_true (isfinite (positions[i]));
  }
}

static void
test_mesh_colours (void)
{
  Fixture f;
  g_autoptr (TressFurMesh) mesh = NULL;
  guint8 rgba[8], a[3], b[3], marks[2] = { 0 };
  g_autoptr (GHashTable) counts = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  gint64 *ribbon1 = g_new (gint64, 2), *elsewhere = g_new (gint64, 2);

  fixture_init (&f);
  mesh = tress_fur_mesh_new (&f.file, 0);
  tress_fur_mesh_colours (mesh, &f.file, TRESS_FUR_COLOUR_BODY_PART, 0, NULL, rgba);
  tress_fur_body_part_colour (4, a);
  tress_fur_body_part_colour (9, b);
  g_assert_cmpmem (rgba, 3, a, 3);
  g_assert_cmpmem (rgba + 4, 3, b, 3);
  g_assert_true (memcmp (a, b, 3) != 0);

  /* Weight of part 4: full on ribbon 0, about half on ribbon 1. */
  tress_fur_mesh_colours (mesh, &f.file, TRESS_FUR_COLOUR_WEIGHT, 4, NULL, rgba);
  g_assert_cmpuint (rgba[0], ==, 255);
  g_assert_cmpuint (rgba[4], >, 130);
  g_assert_cmpuint (rgba[4], <, 160);
  tress_fur_mesh_colours (mesh, &f.file, TRESS_FUR_COLOUR_QUALITY, 0, NULL, rgba);
  g_assert_true (memcmp (rgba, rgba + 4, 3) != 0);

  /* as tress_cha_file_count_ribbon_problems() counts: material 0 ribbon 1 has
   * two problems; material 3 is not in the mesh */
  ribbon1[0] = 1, ribbon1[1] = 2;
  elsewhere[0] = (gint64)3 << 32, elsewhere[1] = 1;
  g_hash_table_add (counts, ribbon1);
  g_hash_table_add (counts, elsewhere);
  tress_fur_mesh_mark_problems (mesh, counts, marks);
  g_assert_cmpuint (marks[0], ==, 0);
  g_assert_cmpuint (marks[1], ==, 1);
  tress_fur_mesh_colours (mesh, &f.file, TRESS_FUR_COLOUR_PROBLEMS, 0, marks, rgba);
  g_assert_cmpuint (rgba[4], >, rgba[5]);
  g_assert_cmpuint (rgba[0], ==, rgba[1]);
}

static void
test_mesh_pick_and_bounds (void)
{
  Fixture f;
  g_autoptr (TressFurMesh) mesh = NULL;
  /* Orthographic top-down view: x ∈ [−1, 7] → screen 0…800, z ∈ [−5, 3] → 0…800
   * (−z up the screen); y is depth. Row-vector layout: clip = v × M. */
  float mvp[16] = { 0 };
  const float up[1] = { 3 };
  float lo[3], hi[3];
  guint sel = 1;

  fixture_init (&f);
  mesh = tress_fur_mesh_new (&f.file, 0);
  mvp[0] = 2.f / 8;   /* x → clip x */
  mvp[12] = -3.f / 4; /* (x + 1) / 4 − 1 */
  mvp[9] = -2.f / 8;  /* z → clip y (−z up) */
  mvp[13] = -1.f / 4 - 0.f;
  mvp[6] = 0.1f; /* y → depth */
  mvp[15] = 1;
  /* clip y = −z/4 − 1/4: z = −1 → 0 (screen 400); x = 0.5 → clip −0.625 → 150. */
  g_assert_cmpint (tress_fur_mesh_pick (mesh, mvp, NULL, 800, 800, 150, 400), ==, 0);
  /* x = 5.5 → 650; z = −0.5 → clip y −0.125 → screen 450. */
  g_assert_cmpint (tress_fur_mesh_pick (mesh, mvp, NULL, 800, 800, 650, 450), ==, 1);
  /* Between the ribbons: nothing. */
  g_assert_cmpint (tress_fur_mesh_pick (mesh, mvp, NULL, 800, 800, 400, 400), ==, -1);
  /* Just off ribbon 0's edge (x = 1 → 200): within the tolerance. */
  g_assert_cmpint (tress_fur_mesh_pick (mesh, mvp, NULL, 800, 800, 203, 400), ==, 0);

  g_assert_true (tress_fur_mesh_bounds (mesh, &sel, 1, NULL, lo, hi));
  assert_vec (lo, 5, 0, -1);
  assert_vec (hi, 6, 1, 0);
  g_assert_true (tress_fur_mesh_bounds (mesh, &sel, 1, up, lo, hi));
  assert_vec (lo, 5, 3, -1);
  g_assert_true (tress_fur_mesh_bounds (mesh, NULL, 0, NULL, lo, hi));
  assert_vec (lo, 0, 0, -2);
  sel = 7;
  g_assert_false (tress_fur_mesh_bounds (mesh, &sel, 1, NULL, lo, hi));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fur-mesh/build", test_mesh_build);
  g_test_add_func ("/fur-mesh/broken-model", test_mesh_broken_model);
  g_test_add_func ("/fur-mesh/colours", test_mesh_colours);
  g_test_add_func ("/fur-mesh/pick-and-bounds", test_mesh_pick_and_bounds);
  return g_test_run ();
}
