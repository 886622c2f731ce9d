/* gltf-import-test.c: what the import tests share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "gltf-import-test.h"

#include <math.h>
#include <string.h>

#include "tress-test-utils.h"

/* ---- the BFRES side ------------------------------------------------------------ */

static double
sample (gpointer data, guint curve, double frame)
{
  return tress_bfres_evaluate (data, curve, frame);
}

void
bfres_open (Bfres *b, GBytes *file, const char *path)
{
  bfres_open_model (b, file, path, NULL);
}

void
bfres_open_model (Bfres *b, GBytes *file, const char *path, GBytes *model_fres)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) gfile = path != NULL ? g_file_new_for_path (path) : NULL;
  g_autofree TressBfresSrt *srt = NULL;
  const TressBfresSkeleton *sk;
  double lo[3] = { G_MAXDOUBLE, G_MAXDOUBLE, G_MAXDOUBLE };
  double hi[3] = { -G_MAXDOUBLE, -G_MAXDOUBLE, -G_MAXDOUBLE };
  TressBfresScaling scaling;

  memset (b, 0, sizeof *b);
  b->bfres = tress_bfres_parse (file, path, &error);
  g_assert_no_error (error);
  if (model_fres != NULL)
    {
      b->model_fres = g_bytes_ref (model_fres);
      b->source = g_strdup ("the model given");
    }
  else
    b->model_fres = tress_bfres_find_model (b->bfres, gfile, &b->source, &error);
  g_assert_no_error (error);
  g_assert_nonnull (b->model_fres);
  b->animator = tress_bfres_animator_new (b->bfres, b->model_fres, b->source, &error);
  g_assert_no_error (error);
  b->model = tress_bfres_animator_get_model (b->animator);
  sk = &b->model->skeleton;
  srt = g_new0 (TressBfresSrt, sk->n_bones + 1);
  b->bind_world = g_new0 (TressBfresMatrix, sk->n_bones + 1);
  scaling = tress_bfres_animator_pose_srt (b->animator, -1, 0, NULL, NULL, srt);
  tress_bfres_pose_world (sk, srt, scaling, b->bind_world);
  for (guint i = 0; i < sk->n_bones; i++)
    for (guint k = 0; k < 3; k++)
      {
        lo[k] = MIN (lo[k], b->bind_world[i].m[k][3]);
        hi[k] = MAX (hi[k], b->bind_world[i].m[k][3]);
      }
  for (guint k = 0; k < 3; k++)
    b->size = MAX (b->size, hi[k] - lo[k]);
}

void
bfres_clear (Bfres *b)
{
  g_clear_pointer (&b->animator, tress_scene_animator_free);
  g_clear_pointer (&b->bfres, tress_bfres_free);
  g_clear_pointer (&b->model_fres, g_bytes_unref);
  g_clear_pointer (&b->source, g_free);
  g_clear_pointer (&b->bind_world, g_free);
}

/* Index among the animator's skeletal animations of the one named @name. */
int
skeletal_named (Bfres *b, const char *name)
{
  const TressBfresAnims *anims = tress_bfres_animator_get_anims (b->animator);

  for (guint k = 0; k < anims->n_skeletal; k++)
    if (g_str_equal (anims->skeletal[k].name, name))
      return (int)k;
  return -1;
}

/* The original animation's world matrices at @frame. */
void
original_pose (Bfres *b, int skeletal, double frame, TressBfresMatrix *world)
{
  const TressBfresSkeleton *sk = &b->model->skeleton;
  g_autofree TressBfresSrt *srt = g_new0 (TressBfresSrt, sk->n_bones + 1);
  TressBfresScaling scaling;

  scaling = tress_bfres_animator_pose_srt (b->animator, skeletal, frame, sample, b->bfres, srt);
  tress_bfres_pose_world (sk, srt, scaling, world);
}

static void
set_channel (TressBfresSrt *s, guint c, double v)
{
  if (c <= TRESS_BFRES_CHANNEL_SCALE_Z)
    s->scale[c] = v;
  else if (c <= TRESS_BFRES_CHANNEL_TRANSLATE_Z)
    s->translation[c - TRESS_BFRES_CHANNEL_TRANSLATE_X] = v;
  else
    s->rotation[c - TRESS_BFRES_CHANNEL_ROTATE_X] = v;
}

/* What the import's bone animations pose at @frame: each imported bone's
 * components from its base values and curves, every other bone as the
 * original animation has it. */
void
spec_pose (Bfres *b, const TressGltfImportAnim *a, double frame, TressBfresMatrix *world)
{
  const TressBfresSkeleton *sk = &b->model->skeleton;
  g_autofree TressBfresSrt *srt = g_new0 (TressBfresSrt, sk->n_bones + 1);
  TressBfresScaling scaling;

  scaling
      = tress_bfres_animator_pose_srt (b->animator, (int)a->skeletal, frame, sample, b->bfres, srt);
  for (guint i = 0; i < a->n_bones; i++)
    {
      int bone = tress_bfres_skeleton_find_bone (sk, a->bones[i].bone);

      if (bone < 0)
        continue;
      for (guint c = 0; c < TRESS_BFRES_N_CHANNELS; c++)
        set_channel (&srt[bone], c,
                     a->bones[i].curves[c] != NULL
                         ? tress_curve_evaluate (a->bones[i].curves[c], frame)
                         : a->bones[i].base[c]);
    }
  tress_bfres_pose_world (sk, srt, scaling, world);
}

/* ---- comparing poses --------------------------------------------------------- */

/* Angle (degrees) between the rotations of two affine matrices (their
 * columns made unit; for matrices without shear). */
double
angle_between (const double a[3][4], const double b[3][4])
{
  double trace = 0;

  for (guint j = 0; j < 3; j++)
    {
      double na = 0, nb = 0, dot = 0;

      for (guint i = 0; i < 3; i++)
        {
          na += a[i][j] * a[i][j];
          nb += b[i][j] * b[i][j];
        }
      for (guint i = 0; i < 3; i++)
        dot += a[i][j] * b[i][j];
      trace += dot / sqrt (na * nb);
    }
  return acos (CLAMP ((trace - 1) / 2, -1.0, 1.0)) * 180 / G_PI;
}

double
position_between (const double a[3][4], const double b[3][4])
{
  double d = 0;

  for (guint i = 0; i < 3; i++)
    d += (a[i][3] - b[i][3]) * (a[i][3] - b[i][3]);
  return sqrt (d);
}

void
worst_add (Worst *w, const double a[3][4], const double b[3][4], double size)
{
  w->position = MAX (w->position, position_between (a, b) / size);
  w->rotation = MAX (w->rotation, angle_between (a, b));
}

/* ---- the glTF side ------------------------------------------------------------- */

static guint32
le32 (const guint8 *p)
{
  return (guint32)p[0] | (guint32)p[1] << 8 | (guint32)p[2] << 16 | (guint32)p[3] << 24;
}

void
edit_open (Edit *e, GBytes *glb)
{
  gsize size;
  const guint8 *d = g_bytes_get_data (glb, &size);
  guint32 jl = le32 (d + 12);
  g_autoptr (GError) error = NULL;

  e->parser = json_parser_new ();
  json_parser_load_from_data (e->parser, (const char *)d + 20, jl, &error);
  g_assert_no_error (error);
  e->root = json_node_get_object (json_parser_get_root (e->parser));
  e->bin = g_byte_array_new ();
  g_assert_cmpuint (le32 (d + 24 + jl), ==, 0x004E4942);
  g_byte_array_append (e->bin, d + 28 + jl, le32 (d + 20 + jl));
}

void
edit_clear (Edit *e)
{
  g_clear_object (&e->parser);
  g_clear_pointer (&e->bin, g_byte_array_unref);
}

GBytes *
edit_to_glb (Edit *e)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *json = NULL;
  GByteArray *out = g_byte_array_new ();
  gsize jl, jpad;
  guint32 w;

  json_node_set_object (node, e->root);
  json_generator_set_root (gen, node);
  json = json_generator_to_data (gen, &jl);
  jpad = (4 - jl % 4) % 4;
  g_byte_array_append (out, (const guint8 *)"glTF\2\0\0\0\0\0\0\0", 12);
  w = GUINT32_TO_LE ((guint32)(jl + jpad));
  g_byte_array_append (out, (const guint8 *)&w, 4);
  g_byte_array_append (out, (const guint8 *)"JSON", 4);
  g_byte_array_append (out, (const guint8 *)json, (guint)jl);
  g_byte_array_append (out, (const guint8 *)"   ", (guint)jpad);
  w = GUINT32_TO_LE (e->bin->len);
  g_byte_array_append (out, (const guint8 *)&w, 4);
  g_byte_array_append (out, (const guint8 *)"BIN\0", 4);
  g_byte_array_append (out, e->bin->data, e->bin->len);
  w = GUINT32_TO_LE (out->len);
  memcpy (out->data + 8, &w, 4);
  return g_byte_array_free_to_bytes (out);
}

JsonObject *
edit_get (Edit *e, const char *array, guint i)
{
  return json_array_get_object_element (json_object_get_array_member (e->root, array), i);
}

int
edit_node (Edit *e, const char *name)
{
  JsonArray *nodes = json_object_get_array_member (e->root, "nodes");

  for (guint i = 0; i < json_array_get_length (nodes); i++)
    if (g_strcmp0 (json_object_get_string_member_with_default (
                       json_array_get_object_element (nodes, i), "name", NULL),
                   name)
        == 0)
      return (int)i;
  return -1;
}

JsonObject *
edit_anim (Edit *e, const char *name)
{
  JsonArray *anims = json_object_get_array_member (e->root, "animations");

  for (guint i = 0; i < json_array_get_length (anims); i++)
    if (g_str_equal (
            json_object_get_string_member (json_array_get_object_element (anims, i), "name"), name))
      return json_array_get_object_element (anims, i);
  g_assert_not_reached ();
  return NULL;
}

/* The sampler (input or output accessor) of @anim's channel for @node's @path. */
guint
edit_accessor (JsonObject *anim, guint node, const char *path, const char *which)
{
  JsonArray *channels = json_object_get_array_member (anim, "channels");

  for (guint i = 0; i < json_array_get_length (channels); i++)
    {
      JsonObject *c = json_array_get_object_element (channels, i);
      JsonObject *t = json_object_get_object_member (c, "target");

      if (json_object_get_int_member (t, "node") == node
          && g_str_equal (json_object_get_string_member (t, "path"), path))
        return json_object_get_int_member (
            json_array_get_object_element (json_object_get_array_member (anim, "samplers"),
                                           json_object_get_int_member (c, "sampler")),
            which);
    }
  g_assert_not_reached ();
  return 0;
}

/* The floats of accessor @i in the BIN chunk (little-endian, as x86 has them). */
float *
edit_floats (Edit *e, guint i, guint *count)
{
  JsonObject *acc = edit_get (e, "accessors", i);
  JsonObject *view = edit_get (e, "bufferViews", json_object_get_int_member (acc, "bufferView"));
  gsize at = json_object_get_int_member_with_default (view, "byteOffset", 0)
             + json_object_get_int_member_with_default (acc, "byteOffset", 0);

  g_assert_cmpint (json_object_get_int_member (acc, "componentType"), ==, 5126);
  g_assert_false (json_object_has_member (view, "byteStride"));
  *count = json_object_get_int_member (acc, "count");
  return (float *)(e->bin->data + at);
}

/* The glTF's joints posed at @frame by the tests' own decoder, as BFRES
 * model-space matrices: world · IBM · bind_world of the bone named like the
 * joint (matched[bone] set). */
void
gltf_targets (Gltf *g, Bfres *b, const char *anim_name, double frame, double fps,
              TressBfresMatrix *out, gboolean *matched)
{
  guint n_nodes = gltf_count (g, "nodes"), n, comps;
  JsonObject *anim = NULL, *skin = gltf_get (g, "skins", 0);
  JsonArray *joints = json_object_get_array_member (skin, "joints");
  g_autofree M4 *local = g_new0 (M4, n_nodes), *world = g_new0 (M4, n_nodes);
  g_autofree double *ibm
      = gltf_accessor (g, json_object_get_int_member (skin, "inverseBindMatrices"), &n, &comps);
  const TressBfresSkeleton *sk = &b->model->skeleton;

  for (guint i = 0; i < gltf_count (g, "animations"); i++)
    if (g_str_equal (json_object_get_string_member (gltf_get (g, "animations", i), "name"),
                     anim_name))
      anim = gltf_get (g, "animations", i);
  g_assert_nonnull (anim);
  for (guint i = 0; i < n_nodes; i++)
    {
      JsonObject *node = gltf_get (g, "nodes", i);
      double t[3] = { 0, 0, 0 }, q[4] = { 0, 0, 0, 1 }, s[3] = { 1, 1, 1 };
      const char *paths[] = { "translation", "rotation", "scale" };
      double *into[] = { t, q, s };
      JsonArray *channels = json_object_get_array_member (anim, "channels");

      for (guint p = 0; p < 3; p++)
        {
          gboolean animated = FALSE;

          for (guint c = 0; c < json_array_get_length (channels); c++)
            {
              JsonObject *tgt = json_object_get_object_member (
                  json_array_get_object_element (channels, c), "target");

              animated |= json_object_get_int_member (tgt, "node") == i
                          && g_str_equal (json_object_get_string_member (tgt, "path"), paths[p]);
            }
          if (animated)
            {
              g_autofree double *times = NULL;
              g_autofree double *v = channel (g, anim, i, paths[p], &n, &times);
              int at = sample_at (times, n, frame, fps);

              g_assert_cmpint (at, >=, 0);
              memcpy (into[p], v + (p == 1 ? 4 : 3) * at, (p == 1 ? 4 : 3) * sizeof (double));
            }
          else if (json_object_has_member (node, paths[p]))
            {
              JsonArray *a = json_object_get_array_member (node, paths[p]);

              for (guint k = 0; k < json_array_get_length (a); k++)
                into[p][k] = json_array_get_double_element (a, k);
            }
        }
      m4_trs (t, q, s, &local[i]);
    }
  gltf_worlds (g, local, world, n_nodes);
  for (guint i = 0; i < sk->n_bones; i++)
    matched[i] = FALSE;
  for (guint j = 0; j < json_array_get_length (joints); j++)
    {
      guint node = json_array_get_int_element (joints, j);
      const char *name
          = json_object_get_string_member_with_default (gltf_get (g, "nodes", node), "name", "");
      int bone = tress_bfres_skeleton_find_bone (sk, name);
      M4 inv, bind, a, r;

      if (bone < 0)
        continue;
      for (guint r4 = 0; r4 < 4; r4++)
        for (guint c = 0; c < 4; c++)
          inv.m[r4][c] = ibm[16 * j + 4 * c + r4];
      memset (&bind, 0, sizeof bind);
      for (guint r3 = 0; r3 < 3; r3++)
        for (guint c = 0; c < 4; c++)
          bind.m[r3][c] = b->bind_world[bone].m[r3][c];
      bind.m[3][3] = 1;
      m4_mul (&world[node], &inv, &a);
      m4_mul (&a, &bind, &r);
      for (guint r3 = 0; r3 < 3; r3++)
        for (guint c = 0; c < 4; c++)
          out[bone].m[r3][c] = r.m[r3][c];
      matched[bone] = TRUE;
    }
}

/* ---- running an import --------------------------------------------------------- */

GBytes *
export_glb (Bfres *b)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TressGltfWriter) writer
      = tress_gltf_bfres_export (b->bfres, b->model_fres, b->source, NULL, NULL, &error);
  GBytes *glb;

  g_assert_no_error (error);
  glb = tress_gltf_writer_to_glb (writer, &error);
  g_assert_no_error (error);
  return glb;
}

TressGltfImportAnim *
import_one (Bfres *b, TressGltfDocument *doc, const char *name, const TressGltfImportOptions *o)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TressGltfImport) imp
      = tress_gltf_import_new (b->bfres, b->model_fres, b->source, doc, o, &error);
  TressGltfImportAnim *a;
  int file_anim;

  g_assert_no_error (error);
  file_anim = tress_gltf_import_find_anim (imp, name);
  g_assert_cmpint (file_anim, >=, 0);
  a = tress_gltf_import_build (imp, tress_gltf_document_find_animation (doc, name),
                               (guint)file_anim, &error);
  g_assert_no_error (error);
  return a;
}

TressGltfDocument *
read_doc (GBytes *glb)
{
  g_autoptr (GError) error = NULL;
  TressGltfDocument *doc = tress_gltf_document_new (glb, NULL, &error);

  g_assert_no_error (error);
  return doc;
}

/* The spec's pose against the glTF's (through the tests' own decoder) at
 * every frame. */
Worst
check_against_gltf (Bfres *b, GBytes *glb, const TressGltfImportAnim *a, double fps)
{
  const TressBfresSkeleton *sk = &b->model->skeleton;
  g_autofree TressBfresMatrix *world = g_new0 (TressBfresMatrix, sk->n_bones + 1);
  g_autofree TressBfresMatrix *target = g_new0 (TressBfresMatrix, sk->n_bones + 1);
  g_autofree gboolean *matched = g_new0 (gboolean, sk->n_bones + 1);
  Gltf g = { 0 };
  Worst w = { 0, 0 };

  gltf_read_glb (&g, glb);
  for (int f = 0; f <= a->frame_count; f++)
    {
      spec_pose (b, a, f, world);
      gltf_targets (&g, b, a->name, f, fps, target, matched);
      for (guint i = 0; i < sk->n_bones; i++)
        if (matched[i])
          worst_add (&w, world[i].m, target[i].m, b->size);
    }
  gltf_clear (&g);
  g_assert_cmpfloat (w.position, <=, POSITION_LIMIT);
  g_assert_cmpfloat (w.rotation, <=, ROTATION_LIMIT);
  return w;
}

void
load_bass (Bfres *b)
{
  g_autofree char *path = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autoptr (GBytes) file = NULL;

  memset (b, 0, sizeof *b);
  if (path == NULL)
    return;
  file = tress_test_read_file (path);
  bfres_open (b, file, path);
}

/* R(axis, angle) as a quaternion. */
void
axis_angle (const double axis[3], double degrees, double q[4])
{
  double h = degrees * G_PI / 360;

  for (guint k = 0; k < 3; k++)
    q[k] = axis[k] * sin (h);
  q[3] = cos (h);
}

void
quat_mul (const double a[4], const double b[4], double out[4])
{
  double r[4] = {
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  };

  memcpy (out, r, sizeof r);
}
