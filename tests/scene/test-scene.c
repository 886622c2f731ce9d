/* test-scene.c: the format-neutral scene and the preview's skeleton overlay
 * (no display): world matrices down a hierarchy given in any order, skinned
 * and rigid vertices, bounds, the overlay's geometry and picking.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "app/gl/tress-gl-camera.h"
#include "app/scene/tress-scene-sticks.h"
#include "formats/tress-scene.h"

static void
translation (graphene_matrix_t *m, float x, float y, float z)
{
  graphene_point3d_t p;

  graphene_matrix_init_translate (m, graphene_point3d_init (&p, x, y, z));
}

/* Three nodes: a root at (1, 0, 0), a child one further along X turned 90°
 * about Z, and its child one along the child's X (so +Y in the world).
 * Listed child first: parents may come after their children. */
static TressScene *
make_scene (void)
{
  TressScene *scene = tress_scene_new ("test");
  graphene_matrix_t locals[3], rot, move;
  graphene_vec3_t z;

  tress_scene_add_node (scene, "tip", 2, 7);
  tress_scene_add_node (scene, "root", -1, 8);
  tress_scene_add_node (scene, "mid", 1, 9);
  translation (&locals[1], 1, 0, 0);
  graphene_matrix_init_rotate (&rot, 90, graphene_vec3_init (&z, 0, 0, 1));
  translation (&move, 1, 0, 0);
  /* Row vectors: rotate, then move. */
  graphene_matrix_multiply (&rot, &move, &locals[2]);
  translation (&locals[0], 1, 0, 0);
  tress_scene_set_local_matrices (scene, locals);
  return scene;
}

static void
assert_point (const float p[3], float x, float y, float z)
{
  g_assert_cmpfloat_with_epsilon (p[0], x, 1e-5);
  g_assert_cmpfloat_with_epsilon (p[1], y, 1e-5);
  g_assert_cmpfloat_with_epsilon (p[2], z, 1e-5);
}

static void
test_hierarchy (void)
{
  g_autoptr (TressScene) scene = make_scene ();
  float p[3];
  guint serial = scene->pose_serial;

  g_assert_cmpint (tress_scene_find_node (scene, "mid"), ==, 2);
  g_assert_cmpint (tress_scene_find_node (scene, "none"), ==, -1);
  tress_scene_node_position (scene, 1, p);
  assert_point (p, 1, 0, 0);
  tress_scene_node_position (scene, 2, p);
  assert_point (p, 2, 0, 0);
  tress_scene_node_position (scene, 0, p);
  assert_point (p, 2, 1, 0);
  /* A loop is cut rather than followed forever. */
  tress_scene_get_node (scene, 1)->parent = 0;
  {
    graphene_matrix_t locals[3];

    for (guint i = 0; i < 3; i++)
      translation (&locals[i], 1, 0, 0);
    tress_scene_set_local_matrices (scene, locals);
  }
  g_assert_cmpuint (scene->pose_serial, >, serial);
}

static void
test_skinning (void)
{
  g_autoptr (TressScene) scene = make_scene ();
  TressSceneMesh *skinned, *rigid;
  graphene_matrix_t inv;
  float p[3], lo[3], hi[3];
  guint serial = scene->geometry_serial;

  /* Joint on "mid" whose bind pose was (2, 0, 0) unturned: its inverse. */
  translation (&inv, -2, 0, 0);
  tress_scene_add_joint (scene, 2, &inv);
  translation (&inv, -1, 0, 0);
  tress_scene_add_joint (scene, 1, &inv);
  skinned = tress_scene_add_mesh (scene, "skin", 2, 0, FALSE, FALSE, TRUE);
  g_assert_cmpuint (scene->geometry_serial, >, serial);
  /* Vertex 0: all on mid, one along X from its bind origin → turned to +Y. */
  skinned->positions[0] = 3;
  skinned->joints[0] = 0;
  skinned->weights[0] = 1;
  /* Vertex 1: half mid, half root (which did not move). */
  skinned->positions[3] = 3;
  skinned->joints[4] = 0;
  skinned->joints[5] = 1;
  skinned->weights[4] = 0.5f;
  skinned->weights[5] = 0.5f;
  tress_scene_vertex_position (scene, skinned, 0, p);
  assert_point (p, 2, 1, 0);
  tress_scene_vertex_position (scene, skinned, 1, p);
  assert_point (p, 2.5f, 0.5f, 0);

  rigid = tress_scene_add_mesh (scene, "rigid", 1, 0, FALSE, FALSE, FALSE);
  rigid->node = 0;
  rigid->positions[1] = 1;
  tress_scene_vertex_position (scene, rigid, 0, p);
  assert_point (p, 1, 1, 0); /* tip's +Y is the world's −X */

  g_assert_true (tress_scene_bounds (scene, lo, hi));
  assert_point (lo, 1, 0, 0);
  assert_point (hi, 2.5f, 1, 0);
  rigid->visible = FALSE;
  tress_scene_get_node (scene, 1)->visible = FALSE;
  g_assert_true (tress_scene_bounds (scene, lo, hi));
  assert_point (lo, 2, 0, 0);
}

static void
test_sticks (void)
{
  g_autoptr (TressScene) scene = make_scene ();
  g_autoptr (GArray) out = g_array_new (FALSE, FALSE, sizeof (TressStickVertex));
  const TressStickColours colours = { { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 } };
  TressGlCamera cam;
  float mvp[16];
  double x, y, ax, ay, bx, by;
  guint8 highlight[3] = { 0, 0, 1 };
  const float lo[3] = { 1, 0, 0 }, hi[3] = { 2, 1, 0 };

  tress_gl_camera_init (&cam, 1, 0, 0);
  tress_gl_camera_frame (&cam, lo, hi);
  tress_gl_camera_mvp (&cam, 400, 300, mvp);
  /* Two sticks (6 vertices each) and three squares (6 each). */
  tress_scene_sticks_build (scene, mvp, 400, 300, highlight, -1, &colours, out);
  g_assert_cmpuint (out->len, ==, 2 * 6 + 3 * 6);
  /* The highlighted node ("mid": its stick and square) comes last. */
  g_assert_cmpfloat (g_array_index (out, TressStickVertex, out->len - 1).colour[1], ==, 1);
  g_assert_cmpfloat (g_array_index (out, TressStickVertex, 0).colour[0], ==, 1);
  /* Every vertex lies in front of the eye. */
  for (guint i = 0; i < out->len; i++)
    g_assert_cmpfloat (g_array_index (out, TressStickVertex, i).clip[3], >, 0);

  /* Picking: the middle of the stick root → mid picks mid, the middle of
   * mid → tip picks tip, far away nothing. */
  g_assert_true (tress_scene_node_screen_position (scene, 1, mvp, 400, 300, &ax, &ay));
  g_assert_true (tress_scene_node_screen_position (scene, 2, mvp, 400, 300, &bx, &by));
  g_assert_cmpint (tress_scene_sticks_pick (scene, mvp, 400, 300, (ax + bx) / 2, (ay + by) / 2 + 2),
                   ==, 2);
  g_assert_true (tress_scene_node_screen_position (scene, 0, mvp, 400, 300, &x, &y));
  g_assert_cmpint (tress_scene_sticks_pick (scene, mvp, 400, 300, (bx + x) / 2 - 2, (by + y) / 2),
                   ==, 0);
  g_assert_cmpint (tress_scene_sticks_pick (scene, mvp, 400, 300, x + 3, y), ==, 0);
  g_assert_cmpint (tress_scene_sticks_pick (scene, mvp, 400, 300, 5, 5), ==, -1);
  /* A hidden node is neither drawn nor picked, nor is its stick. */
  tress_scene_get_node (scene, 0)->visible = FALSE;
  g_assert_cmpint (tress_scene_sticks_pick (scene, mvp, 400, 300, x + 3, y), ==, -1);
  g_array_set_size (out, 0);
  tress_scene_sticks_build (scene, mvp, 400, 300, NULL, -1, &colours, out);
  g_assert_cmpuint (out->len, ==, 6 + 2 * 6);
}

/* Picking a mesh: the node a rigid mesh follows, the heaviest joint's node of
 * a skinned one, the one nearest the eye where two overlap, none elsewhere. */
static void
test_mesh_pick (void)
{
  g_autoptr (TressScene) scene = make_scene ();
  TressSceneMesh *near, *far;
  graphene_matrix_t identity;
  TressGlCamera cam;
  float mvp[16];
  const float lo[3] = { -1, -1, -1 }, hi[3] = { 3, 3, 1 };
  const float square[] = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0 };
  const guint32 tris[] = { 0, 1, 2, 0, 2, 3 };
  double cx, cy;
  float centre[3] = { 1.5f, 0.5f, 0.5f };
  double screen[3];

  /* A square in the root's space at z 0 (world x 1…2), and one skinned to
   * "mid" (70 %) and "tip" at z 0.5, nearer the eye, over the same spot. */
  far = tress_scene_add_mesh (scene, "far", 4, 2, FALSE, FALSE, FALSE);
  memcpy (far->positions, square, sizeof square);
  memcpy (far->triangles, tris, sizeof tris);
  far->node = 1;
  near = tress_scene_add_mesh (scene, "near", 4, 2, FALSE, FALSE, TRUE);
  graphene_matrix_init_identity (&identity);
  tress_scene_add_joint (scene, 2, &identity);
  tress_scene_add_joint (scene, 0, &identity);
  for (guint v = 0; v < 4; v++)
    {
      near->positions[3 * v] = square[3 * v] + 1;
      near->positions[3 * v + 1] = square[3 * v + 1];
      near->positions[3 * v + 2] = 0.5f;
      near->joints[4 * v] = 1;
      near->weights[4 * v] = 0.3f;
      near->joints[4 * v + 1] = 0;
      near->weights[4 * v + 1] = 0.7f;
    }
  memcpy (near->triangles, tris, sizeof tris);
  /* The skinned square at rest: its joints' inverse binds undo mid's and tip's worlds. */
  for (guint j = 0; j < 2; j++)
    {
      TressSceneJoint *joint = tress_scene_get_joint (scene, j);
      graphene_matrix_inverse (&tress_scene_get_node (scene, (guint)joint->node)->world,
                               &joint->inverse_bind);
    }
  tress_gl_camera_init (&cam, 1, 0, 0);
  tress_gl_camera_frame (&cam, lo, hi);
  tress_gl_camera_mvp (&cam, 400, 300, mvp);
  g_assert_true (tress_gl_project (mvp, centre, 400, 300, screen));
  cx = screen[0], cy = screen[1];
  g_assert_cmpint (tress_scene_mesh_pick (scene, mvp, 400, 300, cx, cy), ==, 2);
  near->visible = FALSE;
  g_assert_cmpint (tress_scene_mesh_pick (scene, mvp, 400, 300, cx, cy), ==, 1);
  tress_scene_get_node (scene, 1)->visible = FALSE;
  g_assert_cmpint (tress_scene_mesh_pick (scene, mvp, 400, 300, cx, cy), ==, -1);
  tress_scene_get_node (scene, 1)->visible = TRUE;
  g_assert_cmpint (tress_scene_mesh_pick (scene, mvp, 400, 300, 2, 2), ==, -1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/scene/hierarchy", test_hierarchy);
  g_test_add_func ("/scene/skinning", test_skinning);
  g_test_add_func ("/scene/sticks", test_sticks);
  g_test_add_func ("/scene/mesh-pick", test_mesh_pick);
  return g_test_run ();
}
