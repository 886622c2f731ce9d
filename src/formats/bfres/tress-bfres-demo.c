/* tress-bfres-demo.c: the demo file, and generated animations for tests and benchmarks
 *
 * The demo is a small figure standing on its legs, Y up and facing +Z: a
 * round body, two arms, a head with eyes and a nose. Its skeleton holds the
 * bones the "Wave" animation moves (Root bobbing, Arm_L and Arm_R waving,
 * Head turning) and an Eyelid bone under the head that the "Blink" bone
 * visibility animation hides for a moment. The body is one mesh skinned to
 * two bones per vertex, the weights blended over the shoulders and the neck
 * so that the joints bend smoothly; the eyes follow the Eyelid bone and the
 * nose the Head (whole shapes, in their bone's space, as BFRES stores them).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-bfres-builder.h"

#include <math.h>

/* The figure's measures (model space, bind pose). */
#define SHOULDER_X 0.42
#define SHOULDER_Y 1.05
#define NECK_Y 1.35
#define HEAD_RADIUS 0.42
#define HEAD_CENTRE (NECK_Y + 0.37) /* the Eyelid bone */

enum
{
  BONE_ROOT,
  BONE_ARM_L,
  BONE_ARM_R,
  BONE_HEAD,
  BONE_EYELID,
};

enum
{
  MATERIAL_FACE, /* the eyes; the "Eyes" texture-pattern animation's material */
  MATERIAL_BODY,
  MATERIAL_NOSE,
};

/* ---- meshes ------------------------------------------------------------------ */

typedef struct
{
  GArray *positions; /* float, 3 per vertex */
  GArray *normals;   /* float, 3 per vertex */
  GArray *bones;     /* guint8, 2 per vertex */
  GArray *weights;   /* float, 2 per vertex */
  GArray *triangles; /* guint32, 3 per triangle */
} Mesh;

/* The two bones (and their weights, summing to 1) a vertex at @p follows. */
typedef void (*SkinFunc) (const double p[3], guint8 bones[2], float weights[2]);

static void
mesh_init (Mesh *m)
{
  m->positions = g_array_new (FALSE, FALSE, sizeof (float));
  m->normals = g_array_new (FALSE, FALSE, sizeof (float));
  m->bones = g_array_new (FALSE, FALSE, sizeof (guint8));
  m->weights = g_array_new (FALSE, FALSE, sizeof (float));
  m->triangles = g_array_new (FALSE, FALSE, sizeof (guint32));
}

static void
mesh_clear (Mesh *m)
{
  g_array_unref (m->positions);
  g_array_unref (m->normals);
  g_array_unref (m->bones);
  g_array_unref (m->weights);
  g_array_unref (m->triangles);
}

static guint
mesh_n_vertices (const Mesh *m)
{
  return m->positions->len / 3;
}

static void
add_vertex (Mesh *m, const double p[3], const double n[3], SkinFunc skin)
{
  double len = sqrt (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);

  for (guint k = 0; k < 3; k++)
    {
      float pk = (float)p[k], nk = (float)(len > 0 ? n[k] / len : k == 1);

      g_array_append_val (m->positions, pk);
      g_array_append_val (m->normals, nk);
    }
  if (skin != NULL)
    {
      guint8 bones[2];
      float weights[2];

      skin (p, bones, weights);
      g_array_append_vals (m->bones, bones, 2);
      g_array_append_vals (m->weights, weights, 2);
    }
}

/* Triangles joining @n_rings rings of @n_around vertices each, from @first,
 * turning counter-clockwise seen from outside when the rings go from top to
 * bottom and each ring around counter-clockwise seen from its top. */
static void
add_rings (Mesh *m, guint first, guint n_rings, guint n_around)
{
  for (guint r = 0; r + 1 < n_rings; r++)
    for (guint q = 0; q < n_around; q++)
      {
        guint32 a = first + r * n_around + q, b = first + r * n_around + (q + 1) % n_around;
        guint32 c = a + n_around, d = b + n_around;
        guint32 tri[6] = { a, c, d, a, d, b };

        g_array_append_vals (m->triangles, tri, 6);
      }
}

/* An axis-aligned ellipsoid around @c with radii @r: rings from the top (+Y)
 * to the bottom, the poles closed by rings of nearly zero radius. */
static void
add_ellipsoid (Mesh *m, const double c[3], const double r[3], guint n_rings, guint n_around,
               SkinFunc skin)
{
  guint first = mesh_n_vertices (m);

  for (guint i = 0; i < n_rings; i++)
    {
      /* Not quite at the poles, so that no triangle is degenerate. */
      double theta = G_PI * (0.002 + 0.996 * i / (n_rings - 1));

      for (guint q = 0; q < n_around; q++)
        {
          double phi = 2 * G_PI * q / n_around;
          double s[3] = { sin (theta) * sin (phi), cos (theta), sin (theta) * cos (phi) };
          double p[3], n[3];

          for (guint k = 0; k < 3; k++)
            {
              p[k] = c[k] + r[k] * s[k];
              n[k] = s[k] / r[k];
            }
          add_vertex (m, p, n, skin);
        }
    }
  add_rings (m, first, n_rings, n_around);
}

/* Two unit vectors at right angles to each other and to the unit vector @d,
 * turning counter-clockwise seen from the tip of @d. */
static void
basis_around (const double d[3], double u[3], double v[3])
{
  double ref[3] = { 0, 0, 1 }, len;

  if (fabs (d[2]) > 0.9)
    ref[0] = 1, ref[2] = 0;
  /* u = ref × d, v = d × u */
  u[0] = ref[1] * d[2] - ref[2] * d[1];
  u[1] = ref[2] * d[0] - ref[0] * d[2];
  u[2] = ref[0] * d[1] - ref[1] * d[0];
  len = sqrt (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  for (guint k = 0; k < 3; k++)
    u[k] /= len;
  v[0] = d[1] * u[2] - d[2] * u[1];
  v[1] = d[2] * u[0] - d[0] * u[2];
  v[2] = d[0] * u[1] - d[1] * u[0];
}

/* A capsule from @a (radius @ra) to @b (radius @rb): a tube of @n_tube
 * segments (rings along it, for the skinning to bend) with a half sphere of
 * @n_cap rings on each end. */
static void
add_capsule (Mesh *m, const double a[3], double ra, const double b[3], double rb, guint n_cap,
             guint n_tube, guint n_around, SkinFunc skin)
{
  guint first = mesh_n_vertices (m), n_rings = 0;
  double d[3], u[3], v[3], len = 0;

  for (guint k = 0; k < 3; k++)
    {
      d[k] = b[k] - a[k];
      len += d[k] * d[k];
    }
  len = sqrt (len);
  for (guint k = 0; k < 3; k++)
    d[k] /= len;
  basis_around (d, u, v);
  /* From the tip at @b to the tip at @a: the half sphere around @b down to
   * its equator, the tube's rings, the half sphere around @a. */
  for (guint i = 0; i <= 2 * n_cap + n_tube; i++, n_rings++)
    {
      double theta, radius, c[3], t;

      if (i <= n_cap)
        {
          theta = G_PI / 2 * (0.004 + 0.996 * i / n_cap);
          radius = rb;
          t = 1;
        }
      else if (i < n_cap + n_tube)
        {
          theta = G_PI / 2;
          t = 1 - (double)(i - n_cap) / n_tube;
          radius = ra + (rb - ra) * t;
        }
      else
        {
          theta = G_PI / 2 * (1 + 0.996 * (i - n_cap - n_tube) / n_cap);
          radius = ra;
          t = 0;
        }
      for (guint k = 0; k < 3; k++)
        c[k] = a[k] + (b[k] - a[k]) * t;
      for (guint q = 0; q < n_around; q++)
        {
          double phi = 2 * G_PI * q / n_around, p[3], n[3];

          for (guint k = 0; k < 3; k++)
            {
              n[k] = d[k] * cos (theta) + sin (theta) * (u[k] * cos (phi) + v[k] * sin (phi));
              p[k] = c[k] + radius * n[k];
            }
          add_vertex (m, p, n, skin);
        }
    }
  add_rings (m, first, n_rings, n_around);
}

/* ---- skinning ---------------------------------------------------------------- */

static double
smoothstep (double edge0, double edge1, double x)
{
  double t = CLAMP ((x - edge0) / (edge1 - edge0), 0.0, 1.0);

  return t * t * (3 - 2 * t);
}

static void
skin_pair (guint8 a, guint8 b, double weight_b, guint8 bones[2], float weights[2])
{
  bones[0] = a;
  bones[1] = b;
  weights[1] = (float)weight_b;
  weights[0] = 1 - weights[1];
}

static void
skin_root (const double p[3], guint8 bones[2], float weights[2])
{
  skin_pair (BONE_ROOT, BONE_HEAD, 0, bones, weights);
}

/* The arms turn from the shoulder: Root inside the body, the arm past it. */
static void
skin_arm (const double p[3], guint8 bones[2], float weights[2])
{
  double out = fabs (p[0]);

  skin_pair (BONE_ROOT, p[0] > 0 ? BONE_ARM_L : BONE_ARM_R,
             smoothstep (SHOULDER_X - 0.12, SHOULDER_X + 0.14, out), bones, weights);
}

/* The head turns on the neck: Root below it, the head above. */
static void
skin_head (const double p[3], guint8 bones[2], float weights[2])
{
  skin_pair (BONE_ROOT, BONE_HEAD, smoothstep (NECK_Y - 0.08, NECK_Y + 0.14, p[1]), bones, weights);
}

/* Body, legs, arms and head: one mesh, two bones per vertex. */
static void
build_body (Mesh *m)
{
  static const double body_c[3] = { 0, 0.74, 0 }, body_r[3] = { 0.5, 0.74, 0.4 };
  static const double head_c[3] = { 0, HEAD_CENTRE, 0 };
  static const double head_r[3] = { HEAD_RADIUS, HEAD_RADIUS * 0.95, HEAD_RADIUS };

  add_ellipsoid (m, body_c, body_r, 14, 20, skin_root);
  add_ellipsoid (m, head_c, head_r, 14, 20, skin_head);
  for (int side = -1; side <= 1; side += 2)
    {
      double hip[3] = { side * 0.22, 0.2, 0 }, ankle[3] = { side * 0.25, -0.5, 0.02 };
      double foot_c[3] = { side * 0.25, -0.6, 0.1 }, foot_r[3] = { 0.15, 0.09, 0.22 };
      double shoulder[3] = { side * (SHOULDER_X - 0.14), SHOULDER_Y, 0 };
      double wrist[3] = { side * (SHOULDER_X + 0.78), SHOULDER_Y, 0 };
      double hand_c[3] = { side * (SHOULDER_X + 0.9), SHOULDER_Y, 0 };
      double hand_r[3] = { 0.15, 0.15, 0.15 };

      add_capsule (m, ankle, 0.12, hip, 0.15, 4, 4, 12, skin_root);
      add_ellipsoid (m, foot_c, foot_r, 8, 12, skin_root);
      add_capsule (m, shoulder, 0.15, wrist, 0.1, 4, 10, 12, skin_arm);
      add_ellipsoid (m, hand_c, hand_r, 8, 12, skin_arm);
    }
}

static void
add_mesh_shape (TressBfresBuilder *b, const char *name, guint material, const Mesh *m,
                guint skin_count, guint bone)
{
  TressBfresBuilderShape shape = { 0 };

  shape.name = name;
  shape.material = material;
  shape.n_vertices = mesh_n_vertices (m);
  shape.positions = (const float *)m->positions->data;
  shape.normals = (const float *)m->normals->data;
  shape.skin_count = skin_count;
  shape.bone = bone;
  shape.skin_bones = skin_count > 0 ? (const guint8 *)m->bones->data : NULL;
  shape.skin_weights = skin_count > 0 ? (const float *)m->weights->data : NULL;
  shape.n_triangles = m->triangles->len / 3;
  shape.triangles = (const guint32 *)m->triangles->data;
  tress_bfres_builder_add_shape (b, &shape);
}

static void
add_demo_model (TressBfresBuilder *b)
{
  /* Euler XYZ radians; translations from the parent. */
  static const TressBfresBuilderBone bones[] = {
    { "Root", -1, { 1, 1, 1 }, { 0, 0, 0 }, { 0, 0, 0 } },
    { "Arm_L", BONE_ROOT, { 1, 1, 1 }, { 0, 0, 0 }, { SHOULDER_X, SHOULDER_Y, 0 } },
    { "Arm_R", BONE_ROOT, { 1, 1, 1 }, { 0, 0, 0 }, { -SHOULDER_X, SHOULDER_Y, 0 } },
    { "Head", BONE_ROOT, { 1, 1, 1 }, { 0, 0, 0 }, { 0, NECK_Y, 0 } },
    { "Eyelid", BONE_HEAD, { 1, 1, 1 }, { 0, 0, 0 }, { 0, HEAD_CENTRE - NECK_Y, 0 } },
  };
  Mesh body, eyes, nose;

  tress_bfres_builder_begin_model (b, "Demo");
  for (guint i = 0; i < G_N_ELEMENTS (bones); i++)
    tress_bfres_builder_add_model_bone (b, &bones[i]);
  tress_bfres_builder_add_model_material (b, "Face");
  tress_bfres_builder_add_model_material (b, "Body");
  tress_bfres_builder_add_model_material (b, "Nose");

  mesh_init (&body);
  build_body (&body);
  add_mesh_shape (b, "Body", MATERIAL_BODY, &body, 2, BONE_ROOT);
  mesh_clear (&body);

  /* The eyes in the Eyelid bone's space (the head's centre), the nose in the
   * Head bone's (the neck). */
  mesh_init (&eyes);
  for (int side = -1; side <= 1; side += 2)
    {
      double c[3] = { side * 0.16, 0.08, 0.34 }, r[3] = { 0.11, 0.13, 0.1 };

      add_ellipsoid (&eyes, c, r, 8, 12, NULL);
    }
  add_mesh_shape (b, "Eyes", MATERIAL_FACE, &eyes, 0, BONE_EYELID);
  mesh_clear (&eyes);

  mesh_init (&nose);
  {
    double c[3] = { 0, HEAD_CENTRE - NECK_Y - 0.1, HEAD_RADIUS - 0.02 }, r[3] = { 0.1, 0.08, 0.1 };

    add_ellipsoid (&nose, c, r, 8, 12, NULL);
  }
  add_mesh_shape (b, "Nose", MATERIAL_NOSE, &nose, 0, BONE_HEAD);
  mesh_clear (&nose);
}

/* ---- animations -------------------------------------------------------------- */

/* One loop of a sine of @amplitude over @frames, in five cubic keys. */
static void
add_wave (TressBfresBuilder *b, guint32 target, double amplitude, double phase, int frames)
{
  TressKey keys[5];
  TressBfresBuilderCurve c = { 0 };

  for (int i = 0; i < 5; i++)
    {
      double f = frames * i / 4.0, w = 2 * G_PI / frames;
      keys[i] = (TressKey){ 0 };
      keys[i].frame = f;
      keys[i].value = amplitude * sin (w * f + phase);
      keys[i].in_slope = keys[i].out_slope = amplitude * w * cos (w * f + phase);
    }
  c.curve_type = TRESS_BFRES_CURVE_CUBIC;
  c.frame_type = frames <= 255 ? TRESS_BFRES_FRAME_U8 : TRESS_BFRES_FRAME_F32;
  c.key_type = TRESS_BFRES_KEY_S16;
  c.target_offset = target;
  c.n_keys = 5;
  c.keys = keys;
  c.pre_wrap = c.post_wrap = TRESS_WRAP_REPEAT;
  tress_bfres_builder_add_curve (b, &c);
}

void
tress_bfres_builder_add_test_anims (TressBfresBuilder *b, guint n_bones, guint n_anims,
                                    int n_frames)
{
  for (guint a = 0; a < n_anims; a++)
    {
      g_autofree char *name = g_strdup_printf ("Anim_%03u", a);

      tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_SKELETAL, name, n_frames, TRUE);
      for (guint i = 0; i < n_bones; i++)
        {
          g_autofree char *bone = i == 0 ? g_strdup ("Root") : g_strdup_printf ("Bone_%03u", i);

          tress_bfres_builder_add_bone (b, bone);
          /* Each animation turns every bone its own way. */
          add_wave (b, 0x28, 0.3, 0.2 * i + 0.7 * a, n_frames);
          add_wave (b, 0x20, 0.15, 0.1 * i - 0.3 * a, n_frames);
        }
    }
}

GBytes *
tress_bfres_build_test_file (guint n_bones, guint n_vertices, guint n_anims, int n_frames,
                             GError **error)
{
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("Test", 0x04050003);

  /* No vertices: the animations alone (a file of nothing but curves). */
  if (n_vertices > 0)
    tress_bfres_builder_add_test_model (b, "Creature", n_bones, n_vertices);
  tress_bfres_builder_add_test_anims (b, MAX (n_bones, 2), n_anims, n_frames);
  return tress_bfres_builder_finish (b, error);
}

/* Bone curve targets: scale, rotate and translate components. */
static const guint32 many_targets[]
    = { 0x04, 0x08, 0x0C, 0x10, 0x14, 0x18, 0x20, 0x24, 0x28, 0x2C };

/* One short curve of @n_keys keys over @frames frames, of a kind picked by
 * @kind: cubic f32, cubic on 8-bit frames and 16-bit keys, linear f32 or
 * linear 16-bit, as real files mix them. */
static void
add_short_curve (TressBfresBuilder *b, guint32 target, guint n_keys, guint kind, int frames,
                 GRand *rand)
{
  TressKey keys[TRESS_BFRES_MANY_MAX_KEYS];
  TressBfresBuilderCurve c = { 0 };

  for (guint i = 0; i < n_keys; i++)
    {
      keys[i] = (TressKey){ 0 };
      keys[i].frame = (double)(frames * (int)i / (int)(n_keys - 1));
      keys[i].value = g_rand_double_range (rand, -1.5, 1.5);
      keys[i].in_slope = keys[i].out_slope = g_rand_double_range (rand, -0.1, 0.1);
    }
  c.curve_type = kind % 2 == 0 ? TRESS_BFRES_CURVE_CUBIC : TRESS_BFRES_CURVE_LINEAR;
  c.frame_type = kind == 2 ? TRESS_BFRES_FRAME_U8 : TRESS_BFRES_FRAME_F32;
  c.key_type = kind >= 2 ? TRESS_BFRES_KEY_S16 : TRESS_BFRES_KEY_32;
  c.target_offset = target;
  c.n_keys = n_keys;
  c.keys = keys;
  c.pre_wrap = c.post_wrap = TRESS_WRAP_CLAMP;
  tress_bfres_builder_add_curve (b, &c);
}

GBytes *
tress_bfres_build_many_curves_file (guint n_curves, guint min_keys, guint max_keys, GError **error)
{
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("Many", 0x03040004);
  g_autoptr (GRand) rand = g_rand_new_with_seed (33);
  guint made = 0;

  g_return_val_if_fail (
      min_keys >= 2 && min_keys <= max_keys && max_keys <= TRESS_BFRES_MANY_MAX_KEYS, NULL);
  /* Animations of 120 bones, each bone moved by 1 to 4 curves (the keys'
   * kinds weighted to 32-bit floats, as in the files this mimics). */
  for (guint a = 0; made < n_curves; a++)
    {
      g_autofree char *name = g_strdup_printf ("Npc_%04u", a);
      int frames = 30 + 10 * (int)(a % 10);

      tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_SKELETAL, name, frames, a % 3 != 0);
      for (guint i = 0; i < 120 && made < n_curves; i++)
        {
          g_autofree char *bone = g_strdup_printf ("Bone_%03u", i);
          guint n = MIN ((guint)g_rand_int_range (rand, 1, 5), n_curves - made);
          guint first = (guint)g_rand_int_range (rand, 0, 11 - (gint32)n);

          tress_bfres_builder_add_bone (b, bone);
          for (guint k = 0; k < n; k++, made++)
            add_short_curve (b, many_targets[first + k],
                             (guint)g_rand_int_range (rand, (gint32)min_keys, (gint32)max_keys + 1),
                             (guint)g_rand_int_range (rand, 0, 6) % 4, frames, rand);
        }
    }
  return tress_bfres_builder_finish (b, error);
}

GBytes *
tress_bfres_build_demo (GError **error)
{
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("Demo", 0x03040004);
  TressBfresBuilderCurve c = { 0 };
  TressKey vis[4] = { { .frame = 0, .value = 1 },
                      { .frame = 50, .value = 0 },
                      { .frame = 54, .value = 1 },
                      { .frame = 60, .value = 1 } };
  TressKey pat[4] = { { .frame = 0, .value = 0 },
                      { .frame = 48, .value = 1 },
                      { .frame = 51, .value = 2 },
                      { .frame = 54, .value = 0 } };

  add_demo_model (b);

  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_SKELETAL, "Wave", 60, TRUE);
  tress_bfres_builder_add_bone (b, "Root");
  add_wave (b, 0x14, 0.5, 0, 60);
  tress_bfres_builder_add_bone (b, "Arm_L");
  add_wave (b, 0x28, 1.2, 0, 60);
  add_wave (b, 0x20, 0.3, G_PI / 2, 60);
  tress_bfres_builder_add_bone (b, "Arm_R");
  add_wave (b, 0x28, -1.2, 0, 60);
  add_wave (b, 0x20, 0.3, -G_PI / 2, 60);
  tress_bfres_builder_add_bone (b, "Head");
  add_wave (b, 0x24, 0.4, G_PI / 4, 60);

  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_BONE_VISIBILITY, "Blink", 60, TRUE);
  c.curve_type = TRESS_BFRES_CURVE_STEP_BOOL;
  c.frame_type = TRESS_BFRES_FRAME_U8;
  c.key_type = TRESS_BFRES_KEY_32; /* bool keys are bits of u32 words, as real files store them */
  c.name = "Eyelid";
  c.n_keys = 4;
  c.keys = vis;
  tress_bfres_builder_add_curve (b, &c);

  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_TEX_PATTERN, "Eyes", 60, TRUE);
  tress_bfres_builder_add_texture (b, "Eye_Open");
  tress_bfres_builder_add_texture (b, "Eye_Half");
  tress_bfres_builder_add_texture (b, "Eye_Closed");
  tress_bfres_builder_add_material (b, "Face");
  c.curve_type = TRESS_BFRES_CURVE_STEP_INT;
  c.name = "_a0";
  c.keys = pat;
  tress_bfres_builder_add_curve (b, &c);

  return tress_bfres_builder_finish (b, error);
}
