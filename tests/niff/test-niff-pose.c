/* test-niff-pose.c: object transforms of NIFF scenes, checked against hand computations
 *
 * The sample checks read the keys straight from the file's bytes and work the
 * interpolation and the matrices out here, with their own formulas.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "formats/niff/tress-niff-animator.h"
#include "formats/niff/tress-niff-pose.h"
#include "niff-test-samples.h"
#include "tress-test-utils.h"

static const TressFormat *fmt = &tress_format_niff;

/* ---- raw access ---- */

/* The keys of NIFF2 channel @ch of the group at @group: their offset and count. */
static gsize
raw_channel (const guint8 *d, gsize group, guint ch, guint32 *count)
{
  static const guint key_sizes[8] = { 40, 16, 16, 16, 56, 32, 32, 32 };
  gsize rec = group + 48, at;

  for (guint r = 0; r < niff_be32 (d + group + 0x1C); r++)
    rec += niff_be32 (d + rec + 8);
  at = rec + 148;
  for (guint c = 0; c < ch; c++)
    at += niff_be32 (d + rec + 4 + 4 * c) * key_sizes[c];
  *count = niff_be32 (d + rec + 4 + 4 * ch);
  return at;
}

/* Component @c of channel keys of @size bytes at @at (@n of them) at @frame,
 * by the format's Hermite: p = (u−1)²(2u+1)·p0 + u²(3−2u)·p1 + h(u−1)²u·v0 + h(u−1)u²·v1. */
static double
hand_channel (const guint8 *d, gsize at, guint32 n, gsize size, guint n_comp, guint c, double frame)
{
  for (guint32 i = 0; i + 1 < n; i++)
    {
      const guint8 *a = d + at + size * i, *b = a + size;
      double k0 = niff_be32 (a + 4), k1 = niff_be32 (b + 4);

      if (frame < k0 && i == 0)
        return niff_bef (a + 8 + 4 * c);
      if (frame >= k1)
        continue;
      {
        double h = k1 - k0, u = (frame - k0) / h;
        double p0 = niff_bef (a + 8 + 4 * c), p1 = niff_bef (b + 8 + 4 * c);
        double v0 = niff_bef (a + 8 + 4 * (n_comp + c)), v1 = niff_bef (b + 8 + 4 * (n_comp + c));

        g_assert_cmpuint (niff_be32 (a), ==, 3); /* Hermite, as every Rings rotation key */
        return (u - 1) * (u - 1) * (2 * u + 1) * p0 + u * u * (3 - 2 * u) * p1
               + h * (u - 1) * (u - 1) * u * v0 + h * (u - 1) * u * u * v1;
      }
    }
  return niff_bef (d + at + size * (n - 1) + 8 + 4 * c);
}

/* p' = T + Rz·Ry·Rx·(S ⊙ p), the XYZ order written out. */
static void
hand_transform (const double t[3], const double r[3], const double s[3], const double p[3],
                double out[3])
{
  double x = p[0] * s[0], y = p[1] * s[1], z = p[2] * s[2], y2, z2, x2;

  y2 = y * cos (r[0]) - z * sin (r[0]);
  z2 = y * sin (r[0]) + z * cos (r[0]);
  y = y2, z = z2;
  x2 = x * cos (r[1]) + z * sin (r[1]);
  z2 = -x * sin (r[1]) + z * cos (r[1]);
  x = x2, z = z2;
  x2 = x * cos (r[2]) - y * sin (r[2]);
  y2 = x * sin (r[2]) + y * cos (r[2]);
  out[0] = x2 + t[0];
  out[1] = y2 + t[1];
  out[2] = z + t[2];
}

static void
assert_point (const graphene_matrix_t *m, const double p[3], const double want[3], double eps)
{
  graphene_point3d_t in = GRAPHENE_POINT3D_INIT ((float)p[0], (float)p[1], (float)p[2]), out;

  graphene_matrix_transform_point3d (m, &in, &out);
  g_assert_cmpfloat_with_epsilon (out.x, want[0], eps);
  g_assert_cmpfloat_with_epsilon (out.y, want[1], eps);
  g_assert_cmpfloat_with_epsilon (out.z, want[2], eps);
}

static TressNiffScene *
scene_ok (TressNiffFile *file)
{
  g_autoptr (GError) error = NULL;
  TressNiffScene *scene = tress_niff_scene_new (file, &error);

  g_assert_no_error (error);
  return scene;
}

/* ---- Rings: Hermite Euler channels, UniqueScale, a child camera ---- */

static void
test_rings (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/Rings.niff");
  g_autoptr (TressNiffScene) scene = NULL;
  g_autoptr (TressNiffPose) pose = NULL;
  const double frames[3] = { 70.25, 143.5, 249 }; /* Z only; X, Y and Z; the end */
  const double corner[3] = { 5.5, 0, 1.385 };     /* roughly the first vertex of each ring */
  const guint8 *d;
  gsize size;
  TressNiffFile *file;

  if (bytes == NULL)
    return;
  d = g_bytes_get_data (bytes, &size);
  file = niff_parse_ok (bytes);
  scene = scene_ok (file);
  pose = tress_niff_pose_new (scene, file);
  for (guint f = 0; f < G_N_ELEMENTS (frames); f++)
    {
      tress_niff_pose_evaluate (pose, scene, file, frames[f], NULL, NULL);
      /* The three rings: objects 1…3 use AnimGroups 0…2 below the unanimated root. */
      for (guint obj = 1; obj <= 3; obj++)
        {
          gsize group = niff_raw_group (d, size, obj - 1);
          double t[3], r[3], s[3], want[3];
          guint32 n;
          gsize at;

          g_assert_cmpuint (scene->objects[obj].anim_group, ==, obj - 1);
          for (guint c = 0; c < 3; c++)
            {
              at = raw_channel (d, group, 1 + c, &n); /* RotateX, Y, Z */
              r[c] = hand_channel (d, at, n, 16, 1, 0, frames[f]);
              at = raw_channel (d, group, 5, &n); /* Translation: one key */
              g_assert_cmpuint (n, ==, 1);
              t[c] = niff_bef (d + at + 8 + 4 * c);
              at = raw_channel (d, group, 6, &n); /* UniqueScale: one key */
              s[c] = niff_bef (d + at + 8 + 4 * c);
            }
          hand_transform (t, r, s, corner, want);
          g_test_message ("frame %g object %u: rotate (%g, %g, %g) -> (%g, %g, %g)", frames[f], obj,
                          r[0], r[1], r[2], want[0], want[1], want[2]);
          assert_point (&pose->world[obj], corner, want, 1e-4);
        }
      /* Camera_up hangs below Camera_pos: their translations add. */
      {
        const double origin[3] = { 0, 0, 0 };
        double want[3];
        guint32 n;
        gsize pos = raw_channel (d, niff_raw_group (d, size, 3), 5, &n);
        gsize up = raw_channel (d, niff_raw_group (d, size, 5), 5, &n);

        for (guint c = 0; c < 3; c++)
          want[c] = niff_bef (d + pos + 8 + 4 * c) + niff_bef (d + up + 8 + 4 * c);
        g_assert_cmpfloat_with_epsilon (want[1], 4.038 + 1, 1e-3);
        assert_point (&pose->world[4], origin, want, 1e-4);
      }
    }
  /* At frame 70.25 the first ring has turned about Z by between its keys at 62 and 82. */
  tress_niff_pose_evaluate (pose, scene, file, 70.25, NULL, NULL);
  g_assert_cmpfloat (pose->locals[1].euler[2], <, -1.167);
  g_assert_cmpfloat (pose->locals[1].euler[2], >, -2.962);
  g_assert_true (pose->locals[1].unique_scale);
  fmt->free (file);
}

/* ---- kirikobu: NIFF1-style KEY records in a NIFF2 file, a two-level hierarchy ---- */

static void
test_kirikobu (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/kirikobu.niff");
  g_autoptr (TressNiffScene) scene = NULL;
  g_autoptr (TressNiffPose) pose = NULL;
  g_autoptr (GPtrArray) missing = NULL;
  const double frames[3] = { 0, 37.5, 121 };
  const guint8 *d;
  gsize size;
  TressNiffFile *file;

  if (bytes == NULL)
    return;
  d = g_bytes_get_data (bytes, &size);
  file = niff_parse_ok (bytes);
  scene = scene_ok (file);
  pose = tress_niff_pose_new (scene, file);
  for (guint f = 0; f < G_N_ELEMENTS (frames); f++)
    {
      const double origin[3] = { 0, 0, 0 };
      gsize group = niff_raw_group (d, size, 0), rec = group + 48;
      guint32 n = niff_be32 (d + group + 0x1C);
      double want[3] = { 0, 0, 0 };

      tress_niff_pose_evaluate (pose, scene, file, frames[f], NULL, NULL);
      /* upvector: KEY records (frame at +12, LINEAR interpolation at +20,
       * translation at +24), straight lines between the records around the frame. */
      g_assert_cmpuint (scene->objects[1].anim_group, ==, 0);
      for (guint32 i = 0; i + 1 < n; i++)
        {
          gsize next = rec + niff_be32 (d + rec + 8);
          double k0 = niff_be32 (d + rec + 12), k1 = niff_be32 (d + next + 12);

          if (frames[f] >= k0 && frames[f] <= k1)
            {
              double u = (frames[f] - k0) / (k1 - k0);
              g_assert_cmpuint (niff_be32 (d + rec + 20), ==, 1);
              for (guint c = 0; c < 3; c++)
                want[c] = niff_bef (d + rec + 24 + 4 * c) * (1 - u)
                          + niff_bef (d + next + 24 + 4 * c) * u;
              break;
            }
          rec = next;
        }
      g_test_message ("frame %g: upvector at (%g, %g, %g)", frames[f], want[0], want[1], want[2]);
      assert_point (&pose->world[1], origin, want, 1e-5);

      /* null1 (STATIC, translate -2.5, 0.6, 0) below kirikabu_1 (STATIC identity). */
      {
        gsize stat = niff_raw_group (d, size, 2) + 48, parent = niff_raw_group (d, size, 1) + 48;
        const double p[3] = { 1, 1, 1 };
        for (guint c = 0; c < 3; c++)
          want[c] = 1 + niff_bef (d + stat + 12 + 4 * c) + niff_bef (d + parent + 12 + 4 * c);
        g_assert_cmpfloat_with_epsilon (want[0], 1 - 2.5, 1e-6);
        assert_point (&pose->world[3], p, want, 1e-5);
      }
      /* The chain root turns a quarter about Y below null1: its X axis is world −Z. */
      {
        const double x[3] = { 1, 0, 0 };
        double at_root[3];
        graphene_point3d_t o;
        graphene_matrix_transform_point3d (&pose->chain_roots[0], graphene_point3d_zero (), &o);
        at_root[0] = o.x, at_root[1] = o.y, at_root[2] = o.z - 1;
        assert_point (&pose->chain_roots[0], x, at_root, 1e-4);
      }
    }
  missing = tress_niff_pose_not_shown (scene, file);
  g_assert_cmpuint (missing->len, ==, 0);
  fmt->free (file);
}

/* kirikobu's IK chain: at frame 0 (close to the pose the skin was bound in)
 * the positions every weighted vertex stores in the space of each of its
 * three nodes (null1 and the two joints) land within a quarter unit of
 * one another, which only holds when the joints are solved; the chain lies
 * in the plane through its root, the effector and the up-vector object. */
static void
test_kirikobu_ik (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/kirikobu.niff");
  g_autoptr (TressNiffScene) scene = NULL;
  g_autoptr (TressNiffPose) pose = NULL;
  const TressNiffWeightedPart *w;
  TressNiffFile *file;
  graphene_point3d_t root, j1, eff, up, far;
  graphene_vec3_t a, b, normal, bone;
  float spread01 = 0, spread12 = 0;

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  scene = scene_ok (file);
  pose = tress_niff_pose_new (scene, file);
  tress_niff_pose_evaluate (pose, scene, file, 0, NULL, NULL);
  w = &scene->envelopes[0].weighted[0];
  for (guint32 v = 0; v < scene->vtx[w->vtx[0]].n; v++)
    {
      graphene_point3d_t at[3];

      for (guint k = 0; k < 3; k++)
        {
          const float *p = scene->vtx[w->vtx[k]].v + 3 * v;
          const graphene_matrix_t *m = w->nodes[k].kind == TRESS_NIFF_TAG_OBJ_LIST
                                           ? &pose->world[w->nodes[k].index]
                                           : &pose->joints[w->nodes[k].index];
          graphene_matrix_transform_point3d (m, &GRAPHENE_POINT3D_INIT (p[0], p[1], p[2]), &at[k]);
        }
      spread01 = MAX (spread01, graphene_point3d_distance (&at[0], &at[1], NULL));
      spread12 = MAX (spread12, graphene_point3d_distance (&at[1], &at[2], NULL));
    }
  g_test_message ("largest distance null1-jnt11_1 %g, jnt11_1-jnt11_2 %g", spread01, spread12);
  /* Without the solve (joints at their rest) they are over a unit apart. */
  g_assert_cmpfloat (spread01, <, 0.25);
  g_assert_cmpfloat (spread12, <, 0.05);
  graphene_matrix_transform_point3d (&pose->joints[0], graphene_point3d_zero (), &root);
  graphene_matrix_transform_point3d (&pose->joints[1], graphene_point3d_zero (), &j1);
  graphene_matrix_transform_point3d (&pose->effectors[0], graphene_point3d_zero (), &eff);
  graphene_matrix_transform_point3d (&pose->world[1], graphene_point3d_zero (), &up);
  /* The first bone is as long as the second joint's offset (1.8). */
  g_assert_cmpfloat_with_epsilon (graphene_point3d_distance (&root, &j1, NULL), 1.8, 1e-3);
  /* Out of reach (1.8 + 1.412 × 0.74 < 3.06): the chain points straight at the effector. */
  graphene_matrix_transform_point3d (&pose->joints[1], &GRAPHENE_POINT3D_INIT (1, 0, 0), &far);
  graphene_vec3_init (&a, eff.x - j1.x, eff.y - j1.y, eff.z - j1.z);
  graphene_vec3_init (&bone, far.x - j1.x, far.y - j1.y, far.z - j1.z);
  graphene_vec3_normalize (&a, &a);
  graphene_vec3_normalize (&bone, &bone);
  g_assert_cmpfloat (graphene_vec3_dot (&a, &bone), >, 0.999);
  /* Root, effector and up-vector object span the plane the joints' Z axes are normal to. */
  graphene_vec3_init (&a, eff.x - root.x, eff.y - root.y, eff.z - root.z);
  graphene_vec3_init (&b, up.x - root.x, up.y - root.y, up.z - root.z);
  graphene_vec3_cross (&a, &b, &normal);
  graphene_vec3_normalize (&normal, &normal);
  {
    graphene_vec4_t row;
    graphene_vec3_t z;
    graphene_matrix_get_row (&pose->joints[0], 2, &row);
    graphene_vec4_get_xyz (&row, &z);
    graphene_vec3_normalize (&z, &z);
    g_assert_cmpfloat (fabsf (graphene_vec3_dot (&z, &normal)), >, 0.999);
  }
  /* Later the effector comes within reach and the chain bends: the elbow
   * leaves the line from the root to the effector. */
  {
    gboolean bent = FALSE;
    for (double f = 0; f <= 159 && !bent; f += 1)
      {
        double dist;
        tress_niff_pose_evaluate (pose, scene, file, f, NULL, NULL);
        graphene_matrix_transform_point3d (&pose->joints[0], graphene_point3d_zero (), &root);
        graphene_matrix_transform_point3d (&pose->joints[1], graphene_point3d_zero (), &j1);
        graphene_matrix_transform_point3d (&pose->effectors[0], graphene_point3d_zero (), &eff);
        dist = graphene_point3d_distance (&root, &eff, NULL);
        g_assert_cmpfloat_with_epsilon (graphene_point3d_distance (&root, &j1, NULL), 1.8, 1e-3);
        if (dist < 2.7)
          {
            /* Both bones keep their lengths and the second ends at the effector. */
            g_assert_cmpfloat_with_epsilon (graphene_point3d_distance (&j1, &eff, NULL),
                                            1.412 * 0.74, 1e-2);
            bent = TRUE;
          }
      }
    g_assert_true (bent);
  }
  fmt->free (file);
}

/* Flat and smooth shading: dragon.nif's materials are both (shade_type 0
 * and 0x202 without the smooth bit 0x10, and 0x10). Each mesh of the
 * preview's scene keeps to one: smooth ones carry the file's normals, flat
 * ones none (drawn with face normals), and both kinds are there. */
static void
test_dragon_shading (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/dragon.nif");
  g_autoptr (TressNiffScene) scene = NULL;
  g_autoptr (GError) error = NULL;
  TressSceneAnimator *animator;
  TressNiffFile *file;
  guint flat = 0, smooth = 0, flat_mats = 0, smooth_mats = 0;

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  scene = scene_ok (file);
  for (guint i = 0; i < scene->n_mats; i++)
    {
      if (scene->mats[i].shade & TRESS_NIFF_SHADE_SMOOTH)
        smooth_mats++;
      else
        flat_mats++;
    }
  g_assert_cmpuint (flat_mats, >, 0);
  g_assert_cmpuint (smooth_mats, >, 0);
  animator = tress_niff_animator_new (file, "dragon.nif", &error);
  g_assert_no_error (error);
  for (guint m = 0; m < animator->scene->meshes->len; m++)
    {
      const TressSceneMesh *mesh = tress_scene_get_mesh (animator->scene, m);

      if (mesh->normals != NULL)
        smooth++;
      else
        flat++;
    }
  g_test_message ("materials: %u flat, %u smooth; meshes: %u flat, %u smooth", flat_mats,
                  smooth_mats, flat, smooth);
  g_assert_cmpuint (flat, >, 0);
  g_assert_cmpuint (smooth, >, 0);
  tress_scene_animator_free (animator);
  fmt->free (file);
}

/* dragon.nif: FULL records, one per frame, 30 objects deep in groups. */
static void
test_dragon_full (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/dragon.nif");
  g_autoptr (TressNiffScene) scene = NULL;
  g_autoptr (TressNiffPose) pose = NULL;
  graphene_matrix_t at5, at6, at55;
  TressNiffFile *file;

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  scene = scene_ok (file);
  pose = tress_niff_pose_new (scene, file);
  tress_niff_pose_evaluate (pose, scene, file, 5, NULL, NULL);
  at5 = pose->world[18];
  tress_niff_pose_evaluate (pose, scene, file, 6, NULL, NULL);
  at6 = pose->world[18];
  tress_niff_pose_evaluate (pose, scene, file, 5.5, NULL, NULL);
  at55 = pose->world[18];
  /* Between two frames the head moves between its two poses (each level is
   * linear, so the composition is close to the midpoint for a small step). */
  for (guint i = 0; i < 16; i++)
    {
      float a = ((float *)&at5)[i], b = ((float *)&at6)[i], m = ((float *)&at55)[i];
      g_assert_cmpfloat (m, >=, MIN (a, b) - 0.05f);
      g_assert_cmpfloat (m, <=, MAX (a, b) + 0.05f);
    }
  g_assert_false (graphene_matrix_equal_fast (&at5, &at6));
  fmt->free (file);
}

/* ---- built files: every channel and rule ---- */

typedef struct
{
  TressNiffFile *file;
  TressNiffScene *scene;
  TressNiffPose *pose;
} Posed;

static void
posed_free (Posed *p)
{
  tress_niff_pose_free (p->pose);
  tress_niff_scene_free (p->scene);
  fmt->free (p->file);
}

static void
posed_init (Posed *p, TressNiffBuilder *b)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = tress_niff_builder_finish (b, &error);

  g_assert_no_error (error);
  p->file = niff_parse_ok (bytes);
  p->scene = scene_ok (p->file);
  p->pose = tress_niff_pose_new (p->scene, p->file);
}

static void
test_rotation_order (void)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (FALSE, 0);
  const float trs[9] = { 0, 0, 0, 0.3f, -0.7f, 1.1f, 1, 1, 1 };
  static const struct
  {
    guint32 order;
    const char *axes; /* in the order they turn */
  } orders[] = { { 0x00010203, "xyz" }, { 0x00010302, "xzy" }, { 0x00020103, "yxz" },
                 { 0x00030102, "yzx" }, { 0x00020301, "zxy" }, { 0x00030201, "zyx" } };
  Posed p;

  for (guint i = 0; i < G_N_ELEMENTS (orders); i++)
    {
      guint g = tress_niff_builder_add_group (b, 0, TRESS_NIFF_ANIM_STATIC, 30, 0);
      tress_niff_builder_add_static (b, g, trs);
      tress_niff_builder_set_rotation_order (b, g, orders[i].order);
      tress_niff_builder_add_object (b, 0, g);
    }
  posed_init (&p, b);
  tress_niff_pose_evaluate (p.pose, p.scene, p.file, 0, NULL, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (orders); i++)
    {
      double v[3] = { 0.2, 0.5, -0.9 };

      /* Turn the point about each axis in turn, by hand. */
      for (const char *a = orders[i].axes; *a; a++)
        {
          guint k = *a - 'x';
          guint u = (k + 1) % 3, w = (k + 2) % 3;
          double angle = trs[3 + k], vu = v[u], vw = v[w];

          v[u] = vu * cos (angle) - vw * sin (angle);
          v[w] = vu * sin (angle) + vw * cos (angle);
        }
      {
        const double in[3] = { 0.2, 0.5, -0.9 };
        g_test_message ("order %s", orders[i].axes);
        assert_point (&p.pose->world[i], in, v, 1e-5);
      }
    }
  posed_free (&p);
}

static void
test_channels (void)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (TRUE, 0);
  const float rest[9] = { 1, 2, 3, 0, 0, 0, 1, 1, 1 };
  const float zero[6] = { 0 };
  guint g_axis, g_orient, g_rest, g_full, g_orient_z;
  Posed p;

  /* RotateAxis: a quarter turn about Z at frame 10, held. */
  g_axis = tress_niff_builder_add_group (b, 0, TRESS_NIFF_ANIM_STATIC, 30, 0);
  {
    const float k0[4] = { 0, 0, 1, 0 }, k1[4] = { 0, 0, 1, (float)G_PI_2 };
    tress_niff_builder_add_channel_key (b, g_axis, TRESS_NIFF_ROTATE_AXIS,
                                        TRESS_NIFF_CHANNEL_LINEAR, 0, k0, zero);
    tress_niff_builder_add_channel_key (b, g_axis, TRESS_NIFF_ROTATE_AXIS,
                                        TRESS_NIFF_CHANNEL_LINEAR, 10, k1, zero);
  }
  tress_niff_builder_add_object (b, 0, g_axis);
  /* OrientationXY: X towards +Y, Y towards −X (not quite perpendicular: made so). */
  g_orient = tress_niff_builder_add_group (b, 0, TRESS_NIFF_ANIM_STATIC, 30, 0);
  {
    const float k[6] = { 0, 2, 0, -1, 0.1f, 0 };
    tress_niff_builder_add_channel_key (b, g_orient, TRESS_NIFF_ORIENTATION_XY,
                                        TRESS_NIFF_CHANNEL_CONST, 0, k, zero);
  }
  tress_niff_builder_add_object (b, 0, g_orient);
  /* A STATIC record gives the rest; only RotateZ has keys. */
  g_rest = tress_niff_builder_add_group (b, 0, TRESS_NIFF_ANIM_STATIC, 30, 0);
  tress_niff_builder_add_static (b, g_rest, rest);
  {
    const float z0 = 0, z1 = (float)G_PI;
    tress_niff_builder_add_channel_key (b, g_rest, TRESS_NIFF_ROTATE_Z, TRESS_NIFF_CHANNEL_LINEAR,
                                        0, &z0, zero);
    tress_niff_builder_add_channel_key (b, g_rest, TRESS_NIFF_ROTATE_Z, TRESS_NIFF_CHANNEL_LINEAR,
                                        20, &z1, zero);
  }
  tress_niff_builder_add_object (b, 0, g_rest);
  /* FULL records: frame i is record i. */
  g_full = tress_niff_builder_add_group (b, 0, TRESS_NIFF_ANIM_FULL, 30, 0);
  for (guint i = 0; i < 4; i++)
    {
      const float trs[9] = { (float)(i * i), 0, 0, 0, 0, 0, 1, 1, 1 };
      tress_niff_builder_add_full (b, g_full, trs);
    }
  tress_niff_builder_add_object (b, 0, g_full);
  /* OrientationXY: X towards +Z, Y stays +Y (Z = X × Y is −X). */
  g_orient_z = tress_niff_builder_add_group (b, 0, TRESS_NIFF_ANIM_STATIC, 30, 0);
  {
    const float k[6] = { 0, 0, 1, 0, 1, 0 };
    tress_niff_builder_add_channel_key (b, g_orient_z, TRESS_NIFF_ORIENTATION_XY,
                                        TRESS_NIFF_CHANNEL_CONST, 0, k, zero);
  }
  tress_niff_builder_add_object (b, 0, g_orient_z);
  posed_init (&p, b);

  tress_niff_pose_evaluate (p.pose, p.scene, p.file, 5, NULL, NULL);
  {
    const double x[3] = { 1, 0, 0 };
    const double half[3] = { cos (G_PI_4), sin (G_PI_4), 0 };
    const double turned[3] = { 0, 1, 0 };
    const double rest_at[3] = { 1 + cos (G_PI_4), 2 + sin (G_PI_4), 3 };
    const double o[3] = { 0, 0, 0 };
    const double full_at[3] = { 9, 0, 0 }; /* past the last record: held */

    assert_point (&p.pose->world[0], x, half, 1e-5);
    assert_point (&p.pose->world[1], x, turned, 1e-5);
    assert_point (&p.pose->world[2], x, rest_at, 1e-5);
    assert_point (&p.pose->world[3], o, full_at, 1e-5);
  }
  tress_niff_pose_evaluate (p.pose, p.scene, p.file, 1.5, NULL, NULL);
  {
    const double o[3] = { 0, 0, 0 };
    const double full_at[3] = { 2.5, 0, 0 }; /* between 1 and 4 */
    const double y[3] = { 0, 1, 0 };
    const double y_turned[3] = { -1, 0, 0 };
    assert_point (&p.pose->world[3], o, full_at, 1e-5);
    assert_point (&p.pose->world[1], y, y_turned, 1e-5);
  }
  /* Half a frame after the last FULL record: there is no record 4 to go
   * towards, the last one holds. */
  tress_niff_pose_evaluate (p.pose, p.scene, p.file, 3.5, NULL, NULL);
  {
    const double o[3] = { 0, 0, 0 }, full_at[3] = { 9, 0, 0 };
    const double x[3] = { 1, 0, 0 }, y[3] = { 0, 1, 0 }, z[3] = { 0, 0, 1 };
    const double minus_x[3] = { -1, 0, 0 };

    assert_point (&p.pose->world[3], o, full_at, 1e-5);
    assert_point (&p.pose->world[4], x, z, 1e-5);
    assert_point (&p.pose->world[4], y, y, 1e-5);
    assert_point (&p.pose->world[4], z, minus_x, 1e-5);
  }
  posed_free (&p);
}

/* A UniqueScale passes to the children along their own axes; a classical one shears. */
static void
test_unique_scale (void)
{
  const float zero[3] = { 0 };
  Posed p[2];

  for (int unique = 0; unique <= 1; unique++)
    {
      g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (TRUE, 0);
      const float s[3] = { 2, 1, 1 };
      const float t[3] = { 1, 0, 0 };
      const float quarter = (float)G_PI_2;
      guint gp = tress_niff_builder_add_group (b, 0, TRESS_NIFF_ANIM_STATIC, 30, 0);
      guint gc = tress_niff_builder_add_group (b, 0, TRESS_NIFF_ANIM_STATIC, 30, 0);
      guint parent, child;

      tress_niff_builder_add_channel_key (
          b, gp, unique ? TRESS_NIFF_UNIQUE_SCALE : TRESS_NIFF_CLASSICAL_SCALE,
          TRESS_NIFF_CHANNEL_CONST, 0, s, zero);
      tress_niff_builder_add_channel_key (b, gc, TRESS_NIFF_TRANSLATION, TRESS_NIFF_CHANNEL_CONST,
                                          0, t, zero);
      tress_niff_builder_add_channel_key (b, gc, TRESS_NIFF_ROTATE_Z, TRESS_NIFF_CHANNEL_CONST, 0,
                                          &quarter, zero);
      parent = tress_niff_builder_add_object (b, 0, gp);
      child = tress_niff_builder_add_object (b, 0, gc);
      tress_niff_builder_set_parent (b, child, parent);
      posed_init (&p[unique], b);
      tress_niff_pose_evaluate (p[unique].pose, p[unique].scene, p[unique].file, 0, NULL, NULL);
    }
  {
    const double x[3] = { 1, 0, 0 };
    const double classical[3] = { 2, 1, 0 }; /* turned to +Y, then stretched along world X */
    const double unique[3] = { 2, 2, 0 };    /* stretched along its own X, then turned */
    const double o[3] = { 0, 0, 0 };
    const double origin[3] = { 2, 0, 0 }; /* the parent's scale moves the child's origin */

    assert_point (&p[0].pose->world[1], x, classical, 1e-5);
    assert_point (&p[1].pose->world[1], x, unique, 1e-5);
    assert_point (&p[0].pose->world[1], o, origin, 1e-5);
    assert_point (&p[1].pose->world[1], o, origin, 1e-5);
  }
  posed_free (&p[0]);
  posed_free (&p[1]);
}

/* A sampler's value replaces the file's for its curve (a drag in progress). */
static gboolean
sample_half_pi (gpointer data, guint curve, double frame, double *value)
{
  if (curve != GPOINTER_TO_UINT (data))
    return FALSE;
  *value = G_PI_2;
  return TRUE;
}

static void
test_sampler (void)
{
  g_autoptr (GBytes) bytes = tress_niff_build_demo ();
  g_autoptr (TressNiffScene) scene = NULL;
  g_autoptr (TressNiffPose) pose = NULL;
  TressNiffFile *file = niff_parse_ok (bytes);
  guint n = fmt->curves->n_curves (file), swing = G_MAXUINT;
  const double down[3] = { 0, -1, 0 };
  double want[3];

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (TressCurve) c = fmt->curves->get_curve (file, i);
      if (g_strcmp0 (c->path, "Swing.anim/RotateZ/Z") == 0)
        swing = i;
    }
  g_assert_cmpuint (swing, <, n);
  g_assert_cmpuint (tress_niff_curve_get_group (file, swing), ==, 2);
  scene = scene_ok (file);
  pose = tress_niff_pose_new (scene, file);
  /* The pendulum hangs from (-2.5, 3.5, 0); turned a quarter about Z, its tip points +X. */
  tress_niff_pose_evaluate (pose, scene, file, 0, sample_half_pi, GUINT_TO_POINTER (swing));
  want[0] = -2.5 + 1, want[1] = 3.5, want[2] = 0;
  assert_point (&pose->world[2], down, want, 1e-5);
  /* Without the sampler: the file's 0.6 rad at frame 0. */
  tress_niff_pose_evaluate (pose, scene, file, 0, NULL, NULL);
  want[0] = -2.5 + sin (0.6), want[1] = 3.5 - cos (0.6);
  assert_point (&pose->world[2], down, want, 1e-5);
  /* The bob is the pendulum's child: it swings with it. */
  g_assert_true (graphene_matrix_equal_fast (&pose->world[3], &pose->world[2]));
  {
    g_autoptr (GPtrArray) missing = tress_niff_pose_not_shown (scene, file);
    g_assert_cmpuint (missing->len, ==, 0);
  }
  fmt->free (file);
}

/* Every sample poses at a spread of frames, with finite matrices. */
static void
test_samples_finite (void)
{
  static const char *const samples[] = {
    "niff/3hedra.niff",         "niff/Rings.niff",       "niff/blend2niff-cube.nif",
    "niff/dragon.nif",          "niff/kirikobu.niff",    "niff/synthetic-all-channels.nif",
    "niff/synthetic-niff1.nif", "niff/yellow-cube.niff",
  };

  for (guint s = 0; s < G_N_ELEMENTS (samples); s++)
    {
      g_autoptr (GBytes) bytes = tress_test_load_sample (samples[s]);
      g_autoptr (TressNiffScene) scene = NULL;
      g_autoptr (TressNiffPose) pose = NULL;
      TressNiffFile *file;

      if (bytes == NULL)
        return;
      file = niff_parse_ok (bytes);
      scene = scene_ok (file);
      pose = tress_niff_pose_new (scene, file);
      for (double f = -3; f < 300; f += 7.25)
        {
          tress_niff_pose_evaluate (pose, scene, file, f, NULL, NULL);
          for (guint32 i = 0; i < pose->n_objects; i++)
            for (guint k = 0; k < 16; k++)
              g_assert_true (isfinite (((float *)&pose->world[i])[k]));
        }
      fmt->free (file);
    }
}

/* Two chain roots, each linked by its own object (a scene made by hand): each
 * hangs below the object that links it. */
static void
test_two_chain_roots (void)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (FALSE, 0);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressNiffPose) pose = NULL;
  const float trs[2][9] = { { 1, 0, 0, 0, 0, 0, 1, 1, 1 }, { 0, 2, 0, 0, 0, 0, 1, 1, 1 } };
  const double origin[3] = { 0, 0, 0 };
  guint32 links[2] = { 0, 1 };
  TressNiffSceneObject objects[2];
  TressNiffIkNode roots[2];
  TressNiffScene scene;
  TressNiffFile *file;

  memset (objects, 0, sizeof objects);
  memset (roots, 0, sizeof roots);
  memset (&scene, 0, sizeof scene);
  for (guint i = 0; i < 2; i++)
    {
      guint g = tress_niff_builder_add_group (b, 0, TRESS_NIFF_ANIM_STATIC, 30, 0);
      tress_niff_builder_add_static (b, g, trs[i]);
      tress_niff_builder_add_object (b, 0, g);
      objects[i].parent = objects[i].shape = objects[i].mat = TRESS_NIFF_NONE;
      objects[i].anim_group = g;
      objects[i].n_chain_roots = 1;
      objects[i].chain_roots = &links[i];
      roots[i].anim_group = roots[i].joint = roots[i].effector = TRESS_NIFF_NONE;
    }
  scene.n_objects = 2;
  scene.objects = objects;
  scene.n_chain_roots = 2;
  scene.chain_roots = roots;
  bytes = tress_niff_builder_finish (b, NULL);
  file = niff_parse_ok (bytes);
  pose = tress_niff_pose_new (&scene, file);
  tress_niff_pose_evaluate (pose, &scene, file, 0, NULL, NULL);
  for (guint c = 0; c < 2; c++)
    {
      const double at[3] = { trs[c][0], trs[c][1], trs[c][2] };
      assert_point (&pose->chain_roots[c], origin, at, 1e-6);
    }
  fmt->free (file);
}

/* The offset of the nintendo extension block of the group at @group. */
static gsize
raw_ext (const guint8 *d, gsize group)
{
  gsize rec = group + 48;

  for (guint r = 0; r < niff_be32 (d + group + 0x1C); r++)
    rec += niff_be32 (d + rec + 8);
  return rec;
}

static void
pose_joints (GBytes *bytes, double frame, graphene_matrix_t out[2])
{
  TressNiffFile *file = niff_parse_ok (bytes);
  g_autoptr (TressNiffScene) scene = scene_ok (file);
  g_autoptr (TressNiffPose) pose = tress_niff_pose_new (scene, file);

  tress_niff_pose_evaluate (pose, scene, file, frame, NULL, NULL);
  g_assert_cmpuint (pose->n_joints, ==, 2);
  out[0] = pose->joints[0];
  out[1] = pose->joints[1];
  fmt->free (file);
}

/* kirikobu's first joint sets its IK plane by an up-vector constraint (on
 * object 1). Pointed at joint 2 of a chain of two, it points nowhere: the
 * chain root's Z gives the plane, as without the constraint. */
static void
test_up_vector_nowhere (void)
{
  g_autoptr (GBytes) original = tress_test_load_sample ("niff/kirikobu.niff");
  g_autoptr (GBytes) nowhere = NULL, without = NULL;
  gsize size, ext;
  const guint8 *d;
  guint8 *a, *b;
  gboolean up_used = FALSE;

  if (original == NULL)
    return;
  d = g_bytes_get_data (original, &size);
  ext = raw_ext (d, niff_raw_group (d, size, 4));              /* jnt11_1's AnimGroup */
  g_assert_cmpuint (niff_be32 (d + ext) & 0x400, !=, 0);       /* up-vector bit */
  g_assert_cmpuint (niff_be32 (d + ext + 52), ==, 0x00020000); /* kind: Obj */
  g_assert_cmpuint (niff_be32 (d + ext + 56), ==, 1);          /* node */
  a = g_memdup2 (d, size);
  niff_put32 (a + ext + 52, TRESS_NIFF_TAG_JOINT_LIST);
  niff_put32 (a + ext + 56, 2);
  nowhere = g_bytes_new_take (a, size);
  b = g_memdup2 (d, size);
  niff_put32 (b + ext, niff_be32 (d + ext) & ~0x400u);
  without = g_bytes_new_take (b, size);
  for (double frame = 0; frame <= 150; frame += 30)
    {
      graphene_matrix_t j_file[2], j_nowhere[2], j_without[2];

      pose_joints (original, frame, j_file);
      pose_joints (nowhere, frame, j_nowhere);
      pose_joints (without, frame, j_without);
      for (guint j = 0; j < 2; j++)
        {
          g_assert_true (graphene_matrix_near (&j_nowhere[j], &j_without[j], 1e-5f));
          up_used |= !graphene_matrix_near (&j_file[j], &j_without[j], 1e-3f);
        }
    }
  g_assert_true (up_used); /* the constraint as stored does turn the plane */
}

/* ---- the preview's scene ---- */

typedef struct
{
  TressNiffFile *file;
  GPtrArray *curves; /* TressCurve per curve index, as the editor holds them */
  guint overridden;  /* a curve to replace by a constant, or G_MAXUINT */
  double constant;
} Sampler;

static double
sample_document (gpointer data, guint curve, double frame)
{
  Sampler *s = data;

  if (curve == s->overridden)
    return s->constant;
  return tress_curve_evaluate (g_ptr_array_index (s->curves, curve), frame);
}

static void
sampler_init (Sampler *s, TressNiffFile *file)
{
  guint n = fmt->curves->n_curves (file);

  s->file = file;
  s->curves = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_curve_unref);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (s->curves, fmt->curves->get_curve (file, i));
  s->overridden = G_MAXUINT;
}

static void
assert_vertex (const TressScene *scene, const TressSceneMesh *mesh, guint v, const double want[3],
               double eps)
{
  float at[3];

  tress_scene_vertex_position (scene, mesh, v, at);
  g_assert_cmpfloat_with_epsilon (at[0], want[0], eps);
  g_assert_cmpfloat_with_epsilon (at[1], want[1], eps);
  g_assert_cmpfloat_with_epsilon (at[2], want[2], eps);
}

/* Rings in the preview: three ring meshes in their materials' colours, the
 * curves of each AnimGroup on their object's node, and the drawn vertices
 * where the hand computation puts them, through the editor's curves too. */
static void
test_animator_rings (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/Rings.niff");
  g_autoptr (TressSceneAnimator) animator = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) curves = g_array_new (FALSE, FALSE, sizeof (guint));
  const guint anim = 0;
  TressScene *scene;
  const TressSceneMesh *sweep;
  Sampler sampler;
  TressNiffFile *file;
  const guint8 *d;
  gsize size;

  if (bytes == NULL)
    return;
  d = g_bytes_get_data (bytes, &size);
  file = niff_parse_ok (bytes);
  animator = tress_niff_animator_new (file, "Rings.niff", &error);
  g_assert_no_error (error);
  scene = animator->scene;
  g_assert_cmpstr (scene->name, ==, "Braid001");
  g_assert_cmpuint (tress_scene_get_n_nodes (scene), ==, 7);
  g_assert_cmpint (tress_scene_get_node (scene, 4)->parent, ==, 6); /* Camera_up below Camera_pos */
  /* The camera's eye, look-at and up objects are hidden; the rest shows. */
  for (guint i = 0; i < 7; i++)
    g_assert_cmpint (tress_scene_get_node (scene, i)->visible, ==, i < 4);
  g_assert_cmpuint (scene->meshes->len, ==, 3);
  sweep = tress_scene_get_mesh (scene, 0);
  g_assert_cmpint (sweep->node, ==, 1);
  g_assert_cmpuint (sweep->n_vertices, ==, 3 * 400);
  g_assert_nonnull (sweep->normals); /* smooth (shade 0x12) */
  /* Triangles 0…99 mat2, 100…299 mat1 (Part_1), 300…399 mat3 (Part_2): diffuse colours. */
  g_assert_cmpuint (sweep->colours[4 * 3 * 0 + 1], ==, 124);   /* 0.486 */
  g_assert_cmpuint (sweep->colours[4 * 3 * 150 + 1], ==, 178); /* 0.7 */
  g_assert_cmpuint (sweep->colours[4 * 3 * 350 + 2], ==, 255); /* 1.0 */
  g_assert_cmpuint (animator->n_anims, ==, 1);
  g_assert_cmpfloat (animator->anim_frames[0], ==, 249);
  g_assert_null (animator->anim_notes[0]);
  tress_scene_animator_node_curves (animator, 0, 1, curves);
  g_assert_cmpuint (curves->len, ==, 9); /* RotateX/Y/Z, Translation, UniqueScale xyz */
  for (guint i = 0; i < curves->len; i++)
    g_assert_cmpuint (tress_niff_curve_get_group (file, g_array_index (curves, guint, i)), ==, 0);

  sampler_init (&sampler, file);
  for (guint pass = 0; pass < 2; pass++)
    {
      const double frame = 143.5;
      gsize group = niff_raw_group (d, size, 0);
      gsize vtx = niff_raw_find_list (d, size, 0x00040000);
      gsize vg = vtx + niff_be32 (d + vtx + 4);
      gsize tri = niff_raw_find_list (d, size, 0x00080000);
      gsize t0 = tri + niff_be32 (d + tri + 4) + 32 + 24;
      double t[3], r[3], sc[3], p[3], want[3];
      guint32 n;

      /* Pass 0: the file's own keys; pass 1: the editor's curves. */
      tress_scene_animator_pose (animator, &anim, 1, frame, sample_document, &sampler);
      if (pass == 0)
        {
          /* The same as the pose maths without a sampler. */
          g_autoptr (TressNiffScene) niff = scene_ok (file);
          g_autoptr (TressNiffPose) pose = tress_niff_pose_new (niff, file);
          tress_niff_pose_evaluate (pose, niff, file, frame, NULL, NULL);
          g_assert_true (graphene_matrix_near (&pose->world[1],
                                               &tress_scene_get_node (scene, 1)->world, 1e-5f));
        }
      for (guint c = 0; c < 3; c++)
        {
          gsize at = raw_channel (d, group, 1 + c, &n);
          r[c] = hand_channel (d, at, n, 16, 1, 0, frame);
          at = raw_channel (d, group, 5, &n);
          t[c] = niff_bef (d + at + 8 + 4 * c);
          at = raw_channel (d, group, 6, &n);
          sc[c] = niff_bef (d + at + 8 + 4 * c);
        }
      /* Vertex 1 of the mesh is corner 1 of triangle 0: vertex index at +36. */
      for (guint c = 0; c < 3; c++)
        p[c] = niff_bef (d + vg + 24 + 12 * niff_be32 (d + t0 + 36) + 4 * c);
      hand_transform (t, r, sc, p, want);
      assert_vertex (scene, sweep, 1, want, 1e-4);
    }
  /* A curve being dragged: its value replaces the keys (Sweep15_3's RotateX). */
  {
    guint rotate_x = g_array_index (curves, guint, 0);
    float before[3], after[3];
    g_autoptr (TressCurve) c = fmt->curves->get_curve (file, rotate_x);

    g_assert_cmpstr (c->path, ==, "Sweep15_3_Animation/RotateX/X");
    tress_scene_animator_pose (animator, &anim, 1, 70, sample_document, &sampler);
    tress_scene_vertex_position (scene, sweep, 1, before);
    sampler.overridden = rotate_x;
    sampler.constant = 1.0;
    tress_scene_animator_pose (animator, &anim, 1, 70, sample_document, &sampler);
    tress_scene_vertex_position (scene, sweep, 1, after);
    g_assert_cmpfloat (fabsf (before[1] - after[1]) + fabsf (before[2] - after[2]), >, 0.1);
  }
  g_ptr_array_unref (sampler.curves);
  g_clear_pointer (&animator, tress_scene_animator_free);
  fmt->free (file);
}

/* kirikobu's skin in the preview: bound at frame 0, moved by the IK chain. */
static void
test_animator_kirikobu (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/kirikobu.niff");
  g_autoptr (TressSceneAnimator) animator = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree float *at0 = NULL;
  const guint anim = 0;
  const TressSceneMesh *skin;
  TressNiffFile *file;
  Sampler sampler;
  gboolean moved = FALSE;

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  animator = tress_niff_animator_new (file, "kirikobu.niff", &error);
  g_assert_no_error (error);
  /* 7 objects, a chain root, two joints, an effector. */
  g_assert_cmpuint (tress_scene_get_n_nodes (animator->scene), ==, 11);
  g_assert_cmpuint (tress_scene_get_node (animator->scene, 9)->id, ==, TRESS_NIFF_NODE_JOINT | 1);
  g_assert_cmpint (tress_scene_get_node (animator->scene, 10)->parent, ==, 9);
  g_assert_cmpuint (animator->scene->meshes->len, ==, 1);
  skin = tress_scene_get_mesh (animator->scene, 0);
  g_assert_nonnull (skin->joints);
  g_assert_cmpuint (animator->scene->joints->len, ==, 3); /* null1, jnt11_1, jnt11_2 */
  g_assert_cmpuint (skin->n_vertices, ==, 3 * 236);
  sampler_init (&sampler, file);
  tress_scene_animator_pose (animator, &anim, 1, 0, sample_document, &sampler);
  at0 = g_new (float, 3 * skin->n_vertices);
  for (guint v = 0; v < skin->n_vertices; v++)
    {
      tress_scene_vertex_position (animator->scene, skin, v, at0 + 3 * v);
      /* Bound at frame 0: drawn where the positions are. */
      g_assert_cmpfloat_with_epsilon (at0[3 * v], skin->positions[3 * v], 1e-4);
    }
  tress_scene_animator_pose (animator, &anim, 1, 100, sample_document, &sampler);
  for (guint v = 0; v < skin->n_vertices; v++)
    {
      float at[3];
      tress_scene_vertex_position (animator->scene, skin, v, at);
      g_assert_true (isfinite (at[0]) && isfinite (at[1]) && isfinite (at[2]));
      moved |= fabsf (at[1] - at0[3 * v + 1]) > 0.2f;
    }
  g_assert_true (moved); /* the effector's KEYs bend the arm */
  /* Every IK node of the scene (chain root, both joints, effector) is
   * where the pose maths put it at that frame. */
  {
    g_autoptr (TressNiffScene) niff = scene_ok (file);
    g_autoptr (TressNiffPose) pose = tress_niff_pose_new (niff, file);
    const struct
    {
      guint32 kind, n;
      const graphene_matrix_t *world;
    } ik[] = { { TRESS_NIFF_NODE_CHAIN_ROOT, pose->n_chain_roots, pose->chain_roots },
               { TRESS_NIFF_NODE_JOINT, pose->n_joints, pose->joints },
               { TRESS_NIFF_NODE_EFFECTOR, pose->n_effectors, pose->effectors } };
    guint node = niff->n_objects;

    tress_niff_pose_evaluate (pose, niff, file, 100, NULL, NULL);
    g_assert_cmpuint (pose->n_joints, ==, 2);
    for (guint k = 0; k < G_N_ELEMENTS (ik); k++)
      for (guint32 i = 0; i < ik[k].n; i++, node++)
        {
          const TressSceneNode *n = tress_scene_get_node (animator->scene, node);
          g_assert_cmpuint (n->id, ==, ik[k].kind | i);
          g_assert_true (graphene_matrix_near (&ik[k].world[i], &n->world, 1e-4f));
        }
  }
  g_ptr_array_unref (sampler.curves);
  g_clear_pointer (&animator, tress_scene_animator_free);
  fmt->free (file);
}

/* Triangles drawn without a material take their own colour, else their
 * corners' vertex colours, else grey. A quad built with one orange colour,
 * its Shape's material link cut (the object has none): triangle 0's colour
 * made blue; triangle 1 without a triangle colour, its third corner without a
 * vertex colour either. */
static void
test_animator_no_material (void)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (FALSE, 0);
  g_autoptr (GBytes) built = NULL, bytes = NULL;
  g_autoptr (TressSceneAnimator) animator = NULL;
  g_autoptr (GError) error = NULL;
  const float xyz[12] = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0 };
  const guint32 tris[6] = { 0, 1, 2, 0, 2, 3 };
  const float orange[4] = { 1, 0.5f, 0, 1 };
  static const guint8 want[6][3] = { { 0, 0, 255 },   { 0, 0, 255 },   { 0, 0, 255 },
                                     { 255, 128, 0 }, { 255, 128, 0 }, { 191, 191, 191 } };
  const TressSceneMesh *mesh;
  TressNiffFile *file;
  guint8 *d;
  gsize size, shape, color, tri, t1;

  tress_niff_builder_add_name (b, "scene");
  tress_niff_builder_add_object (b, 0, TRESS_NIFF_NONE);
  tress_niff_builder_add_shape (b, 0, 0, xyz, 4, tris, 2, orange, TRUE);
  built = tress_niff_builder_finish (b, &error);
  g_assert_no_error (error);
  size = g_bytes_get_size (built);
  d = g_memdup2 (g_bytes_get_data (built, NULL), size);
  shape = niff_raw_find_list (d, size, 0x00030000);
  shape += niff_be32 (d + shape + 4);
  g_assert_cmpuint (niff_be32 (d + shape + 24), ==, 0); /* Shape 0's material */
  niff_put32 (d + shape + 24, TRESS_NIFF_NONE);
  color = niff_raw_find_list (d, size, 0x00050000);
  color += niff_be32 (d + color + 4); /* the first TriColorGroup: colour 0 at +20 */
  g_assert_cmpuint (niff_be32 (d + color), ==, 0x00050100);
  niff_put32 (d + color + 20, 0);
  niff_put32 (d + color + 24, 0);
  niff_put32 (d + color + 28, 0x3f800000);
  tri = niff_raw_find_list (d, size, 0x00080000);
  t1 = tri + niff_be32 (d + tri + 4) + 32 + 24 + 76; /* triangle 1 */
  g_assert_cmpuint (niff_be32 (d + t1 + 16), ==, 1); /* its colour */
  niff_put32 (d + t1 + 16, TRESS_NIFF_NONE);
  niff_put32 (d + t1 + 20 + 2 * 16 + 12, TRESS_NIFF_NONE); /* corner 2's vertex colour */
  bytes = g_bytes_new_take (d, size);

  file = niff_parse_ok (bytes);
  animator = tress_niff_animator_new (file, "quad", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (animator->scene->meshes->len, ==, 1);
  mesh = tress_scene_get_mesh (animator->scene, 0);
  g_assert_cmpuint (mesh->n_vertices, ==, 6);
  for (guint v = 0; v < 6; v++)
    {
      g_test_message ("corner %u: %u %u %u", v, mesh->colours[4 * v], mesh->colours[4 * v + 1],
                      mesh->colours[4 * v + 2]);
      for (guint k = 0; k < 3; k++)
        g_assert_cmpuint (mesh->colours[4 * v + k], ==, want[v][k]);
      g_assert_cmpuint (mesh->colours[4 * v + 3], ==, 255);
    }
  g_clear_pointer (&animator, tress_scene_animator_free);
  fmt->free (file);
}

/* kirikobu with its materials unlit: the shade colour is the vertex colour.
 * A vertex of the skin's WeightedPart takes it from the groups of the part's
 * first node (VtxColorGroup 3; the other nodes' 4 and 5 are empty), made
 * blue here. */
static void
test_animator_unlit_skin (void)
{
  g_autoptr (GBytes) original = tress_test_load_sample ("niff/kirikobu.niff");
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressSceneAnimator) animator = NULL;
  g_autoptr (TressNiffScene) scene = NULL;
  g_autoptr (GError) error = NULL;
  const TressNiffEnvelope *env;
  const TressSceneMesh *skin;
  TressNiffFile *file;
  guint8 *d;
  gsize size, part, colours;
  guint weighted = 0;

  if (original == NULL)
    return;
  file = niff_parse_ok (original);
  scene = scene_ok (file);
  fmt->free (file);
  size = g_bytes_get_size (original);
  d = g_memdup2 (g_bytes_get_data (original, NULL), size);
  for (guint32 m = 0; m < scene->n_mats; m++)
    {
      g_assert_cmpuint (niff_be32 (d + scene->mats[m].offset + 20), ==, 0x12); /* lit, smooth */
      niff_put32 (d + scene->mats[m].offset + 20, 0x10);
    }
  env = &scene->envelopes[0];
  g_assert_cmpuint (env->n_full, ==, 3);
  g_assert_cmpuint (env->n_weighted, ==, 1);
  part = env->offset + 44;
  for (guint i = 0; i < env->n_full; i++)
    part += niff_be32 (d + part + 8);
  g_assert_cmpuint (niff_be32 (d + part), ==, TRESS_NIFF_TAG_WEIGHTED_PART);
  /* Three nodes, no external ones: the VtxColorGroups of the nodes at +108. */
  g_assert_cmpuint (niff_be32 (d + part + 16), ==, 3);
  g_assert_cmpuint (niff_be32 (d + part + 24), ==, 0);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpuint (niff_be32 (d + part + 108 + 4 * i), ==, 3 + i);
  g_assert_cmpuint (scene->vtx_colors[3].n, ==, 1);
  g_assert_cmpuint (scene->vtx_colors[4].n, ==, 0);
  colours = scene->vtx_colors[3].offset + 20;
  niff_put32 (d + colours, 0);
  niff_put32 (d + colours + 4, 0);
  niff_put32 (d + colours + 8, 0x3f800000);
  bytes = g_bytes_new_take (d, size);

  file = niff_parse_ok (bytes);
  animator = tress_niff_animator_new (file, "kirikobu.niff", &error);
  g_assert_no_error (error);
  skin = tress_scene_get_mesh (animator->scene, 0);
  for (guint32 t = 0; t < env->n_tris; t++)
    for (guint c = 0; c < 3; c++)
      if (env->tris[t].v[c].part_kind == TRESS_NIFF_TAG_WEIGHTED_PART)
        {
          const guint8 *rgba = skin->colours + 4 * (3 * t + c);
          g_assert_cmpuint (env->tris[t].v[c].vtx_color, ==, 0);
          g_assert_cmpuint (rgba[0], ==, 0);
          g_assert_cmpuint (rgba[1], ==, 0);
          g_assert_cmpuint (rgba[2], ==, 255);
          weighted++;
        }
  g_assert_cmpuint (weighted, >, 200);
  g_clear_pointer (&animator, tress_scene_animator_free);
  fmt->free (file);
}

/* Every sample becomes a scene; blend2niff says what it leaves out. */
static void
test_animator_samples (void)
{
  static const struct
  {
    const char *sample;
    guint meshes;
  } samples[] = {
    { "niff/3hedra.niff", 3 },         { "niff/Rings.niff", 3 },
    { "niff/blend2niff-cube.nif", 1 }, { "niff/dragon.nif", 21 },
    { "niff/kirikobu.niff", 1 },       { "niff/synthetic-all-channels.nif", 0 },
    { "niff/synthetic-niff1.nif", 0 }, { "niff/yellow-cube.niff", 1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autoptr (GBytes) bytes = tress_test_load_sample (samples[i].sample);
      g_autoptr (TressSceneAnimator) animator = NULL;
      g_autoptr (GError) error = NULL;
      TressNiffFile *file;
      float lo[3], hi[3];
      guint meshes = 0;

      if (bytes == NULL)
        return;
      g_test_message ("%s", samples[i].sample);
      file = niff_parse_ok (bytes);
      animator = tress_niff_animator_new (file, samples[i].sample, &error);
      g_assert_no_error (error);
      tress_scene_animator_pose (animator, NULL, 0, 0, NULL, NULL);
      /* Shapes split by shading count once. */
      for (guint m = 0; m < animator->scene->meshes->len; m++)
        meshes += m == 0
                  || tress_scene_get_mesh (animator->scene, m)->id
                         != tress_scene_get_mesh (animator->scene, m - 1)->id;
      g_assert_cmpuint (meshes, ==, samples[i].meshes);
      g_assert_true (tress_scene_bounds (animator->scene, lo, hi));
      if (g_str_has_suffix (samples[i].sample, "blend2niff-cube.nif"))
        g_assert_nonnull (strstr (animator->anim_notes[0], "vtx_color_index1"));
      g_clear_pointer (&animator, tress_scene_animator_free);
      fmt->free (file);
    }
}

/* A broken scene list: an error naming it, and the file still has its curves. */
static void
test_animator_broken (void)
{
  g_autoptr (GBytes) demo = tress_niff_build_demo ();
  gsize size = g_bytes_get_size (demo);
  guint8 *d = g_memdup2 (g_bytes_get_data (demo, NULL), size);
  g_autoptr (GBytes) bad = NULL;
  g_autoptr (GError) error = NULL;
  TressNiffFile *file;
  gsize vtx = niff_raw_find_list (d, size, 0x00040000);
  gsize vg = vtx + niff_be32 (d + vtx + 4);

  d[vg + 20] = 0x40; /* the first VtxGroup's count */
  bad = g_bytes_new_take (d, size);
  file = niff_parse_ok (bad);
  g_assert_null (tress_niff_animator_new (file, "demo", &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT);
  g_assert_nonnull (strstr (error->message, "VtxGroup 0 count at offset 0x"));
  g_assert_cmpuint (fmt->curves->n_curves (file), >, 0);
  fmt->free (file);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/niff-pose/rings", test_rings);
  g_test_add_func ("/niff-pose/kirikobu", test_kirikobu);
  g_test_add_func ("/niff-pose/kirikobu-ik", test_kirikobu_ik);
  g_test_add_func ("/niff-pose/dragon-full", test_dragon_full);
  g_test_add_func ("/niff-pose/dragon-shading", test_dragon_shading);
  g_test_add_func ("/niff-pose/rotation-order", test_rotation_order);
  g_test_add_func ("/niff-pose/channels", test_channels);
  g_test_add_func ("/niff-pose/unique-scale", test_unique_scale);
  g_test_add_func ("/niff-pose/sampler", test_sampler);
  g_test_add_func ("/niff-pose/samples-finite", test_samples_finite);
  g_test_add_func ("/niff-pose/two-chain-roots", test_two_chain_roots);
  g_test_add_func ("/niff-pose/up-vector-nowhere", test_up_vector_nowhere);
  g_test_add_func ("/niff-pose/animator/rings", test_animator_rings);
  g_test_add_func ("/niff-pose/animator/kirikobu", test_animator_kirikobu);
  g_test_add_func ("/niff-pose/animator/no-material", test_animator_no_material);
  g_test_add_func ("/niff-pose/animator/unlit-skin", test_animator_unlit_skin);
  g_test_add_func ("/niff-pose/animator/samples", test_animator_samples);
  g_test_add_func ("/niff-pose/animator/broken", test_animator_broken);
  return g_test_run ();
}
