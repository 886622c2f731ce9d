/* test-gltf-niff.c: glTF export of NIFF scenes and their animation
 *
 * The files are read back with this folder's own decoder
 * (gltf-test-reader.c) and compared with the preview: an animator the test
 * builds from the same file, posed through the curves as the preview samples
 * them, gives every node's world matrix at every whole frame, and its meshes
 * the triangles, their normals and the colours the preview draws.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "core/tress-progress.h"
#include "formats/niff/tress-niff-animator.h"
#include "formats/niff/tress-niff-scene.h"
#include "interchange/tress-gltf-niff.h"
#include "../niff/niff-test-samples.h"
#include "gltf-test-reader.h"
#include "tress-test-utils.h"

/* ---- the preview ---------------------------------------------------------------- */

typedef struct
{
  TressNiffFile *file;
  TressSceneAnimator *animator;
  TressCurve **curves;
  guint n_curves;
} Preview;

static double
preview_sample (gpointer data, guint curve, double frame)
{
  Preview *p = data;

  return tress_curve_evaluate (p->curves[curve], frame);
}

static void
preview_init (Preview *p, TressNiffFile *file, const char *source)
{
  g_autoptr (GError) error = NULL;

  p->file = file;
  p->animator = tress_niff_animator_new (file, source, &error);
  g_assert_no_error (error);
  p->n_curves = tress_format_niff.curves->n_curves (file);
  p->curves = g_new0 (TressCurve *, p->n_curves + 1);
  for (guint c = 0; c < p->n_curves; c++)
    p->curves[c] = tress_format_niff.curves->get_curve (file, c);
}

static void
preview_clear (Preview *p)
{
  for (guint c = 0; c < p->n_curves; c++)
    tress_curve_unref (p->curves[c]);
  g_free (p->curves);
  tress_scene_animator_free (p->animator);
}

static void
preview_pose (Preview *p, double frame)
{
  const guint anim = 0;

  tress_scene_animator_pose (p->animator, &anim, 1, frame, preview_sample, p);
}

static void
m4_from_graphene (const graphene_matrix_t *g, M4 *out)
{
  /* graphene's row vectors: row r of it is column r here. */
  for (guint r = 0; r < 4; r++)
    for (guint c = 0; c < 4; c++)
      out->m[r][c] = graphene_matrix_get_value (g, c, r);
}

/* ---- the file ---------------------------------------------------------------------- */

typedef struct
{
  guint node;
  guint path; /* 0 translation, 1 rotation, 2 scale */
  double *out;
} Track;

static void
node_trs (JsonObject *node, double trs[10])
{
  static const char *const names[3] = { "translation", "rotation", "scale" };
  static const guint at[3] = { 0, 3, 7 }, n[3] = { 3, 4, 3 };

  /* Absent: the identity (the skinned meshes' nodes). */
  for (guint p = 0; p < 3; p++)
    {
      JsonArray *a = json_object_has_member (node, names[p])
                         ? json_object_get_array_member (node, names[p])
                         : NULL;

      g_assert_true (a == NULL || json_array_get_length (a) == n[p]);
      for (guint k = 0; k < n[p]; k++)
        trs[at[p] + k] = a != NULL ? json_array_get_double_element (a, k)
                                   : (p != 0 && k == n[p] - 1) || p == 2;
    }
}

/* Every track of @anim, and its times in *times (one input for all). */
static GArray *
tracks_of (Gltf *g, JsonObject *anim, double **times, guint *n_times)
{
  JsonArray *channels = json_object_get_array_member (anim, "channels");
  JsonArray *samplers = json_object_get_array_member (anim, "samplers");
  GArray *tracks = g_array_new (FALSE, FALSE, sizeof (Track));
  int input = -1;

  for (guint i = 0; i < json_array_get_length (channels); i++)
    {
      JsonObject *c = json_array_get_object_element (channels, i);
      JsonObject *t = json_object_get_object_member (c, "target");
      JsonObject *s
          = json_array_get_object_element (samplers, json_object_get_int_member (c, "sampler"));
      const char *path = json_object_get_string_member (t, "path");
      Track track = { json_object_get_int_member (t, "node"), 0, NULL };
      guint n, comps;

      g_assert_cmpstr (json_object_get_string_member (s, "interpolation"), ==, "LINEAR");
      if (input < 0)
        input = json_object_get_int_member (s, "input");
      g_assert_cmpint (json_object_get_int_member (s, "input"), ==, input);
      track.path = g_str_equal (path, "translation") ? 0 : g_str_equal (path, "rotation") ? 1 : 2;
      g_assert_true (track.path != 2 || g_str_equal (path, "scale"));
      track.out = gltf_accessor (g, json_object_get_int_member (s, "output"), &n, &comps);
      g_assert_cmpuint (comps, ==, track.path == 1 ? 4 : 3);
      g_array_append_val (tracks, track);
    }
  if (input >= 0)
    {
      guint comps;

      *times = gltf_accessor (g, input, n_times, &comps);
    }
  return tracks;
}

static void
tracks_free (GArray *tracks)
{
  for (guint i = 0; i < tracks->len; i++)
    g_free (g_array_index (tracks, Track, i).out);
  g_array_unref (tracks);
}

/* Every node's glTF world matrix at sample @i of @tracks (−1: the nodes' own transforms). */
static void
worlds_at (Gltf *g, GArray *tracks, int i, M4 *world)
{
  guint n = gltf_count (g, "nodes");
  g_autofree double *trs = g_new (double, 10 * (gsize)n);
  g_autofree M4 *local = g_new (M4, n);

  for (guint k = 0; k < n; k++)
    node_trs (gltf_get (g, "nodes", k), trs + 10 * k);
  for (guint k = 0; i >= 0 && tracks != NULL && k < tracks->len; k++)
    {
      const Track *t = &g_array_index (tracks, Track, k);
      static const guint at[3] = { 0, 3, 7 }, comps[3] = { 3, 4, 3 };

      memcpy (trs + 10 * t->node + at[t->path], t->out + comps[t->path] * i,
              comps[t->path] * sizeof (double));
    }
  for (guint k = 0; k < n; k++)
    m4_trs (trs + 10 * k, trs + 10 * k + 3, trs + 10 * k + 7, &local[k]);
  gltf_worlds (g, local, world, n);
}

/* ---- comparing ------------------------------------------------------------------------ */

/* How far @a is from @b: positions relative to @size, axes to their own length. */
static void
distance (const M4 *a, const M4 *b, double size, double *position, double *axes)
{
  double scale = 1;

  for (guint r = 0; r < 3; r++)
    for (guint c = 0; c < 3; c++)
      scale = MAX (scale, fabs (b->m[r][c]));
  for (guint r = 0; r < 3; r++)
    {
      *position = MAX (*position, fabs (a->m[r][3] - b->m[r][3]) / size);
      for (guint c = 0; c < 3; c++)
        *axes = MAX (*axes, fabs (a->m[r][c] - b->m[r][c]) / scale);
    }
}

/* One triangle corner, as the preview draws it or as the file holds it. */
typedef struct
{
  float pos[3];
  int rgb[3];
  gboolean has_nrm;
  float nrm[3];
  guint id; /* where it came from */
} Corner;

static int
compare_triangles (gconstpointer a, gconstpointer b)
{
  const Corner *x = a, *y = b;

  for (guint c = 0; c < 3; c++)
    for (guint k = 0; k < 3; k++)
      if (x[c].pos[k] != y[c].pos[k])
        return x[c].pos[k] < y[c].pos[k] ? -1 : 1;
  for (guint c = 0; c < 3; c++)
    for (guint k = 0; k < 3; k++)
      if (x[c].rgb[k] != y[c].rgb[k])
        return x[c].rgb[k] - y[c].rgb[k];
  return 0;
}

static void
unit (float v[3])
{
  float n = sqrtf (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);

  for (guint k = 0; k < 3 && n > 0; k++)
    v[k] /= n;
}

/* The preview's triangles of the meshes following node @node (−1: the skinned ones). */
static GArray *
preview_corners (TressScene *scene, int node)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (Corner));

  for (guint m = 0; m < scene->meshes->len; m++)
    {
      const TressSceneMesh *mesh = tress_scene_get_mesh (scene, m);

      if (node >= 0 ? (mesh->joints != NULL || mesh->node != node) : mesh->joints == NULL)
        continue;
      for (guint i = 0; i < 3 * mesh->n_triangles; i++)
        {
          guint v = mesh->triangles[i];
          Corner c = { { 0 } };

          memcpy (c.pos, mesh->positions + 3 * v, sizeof c.pos);
          for (guint k = 0; k < 3; k++)
            c.rgb[k] = mesh->colours[4 * v + k];
          c.has_nrm = mesh->normals != NULL;
          if (c.has_nrm)
            {
              memcpy (c.nrm, mesh->normals + 3 * v, sizeof c.nrm);
              unit (c.nrm);
            }
          c.id = v;
          g_array_append_val (out, c);
        }
    }
  return out;
}

/* The triangles of glTF mesh @mesh: colour = baseColorFactor × COLOR_0 in
 * the preview's bytes. *ids get (primitive << 24 | vertex). */
static GArray *
file_corners (Gltf *g, guint mesh)
{
  JsonArray *prims = json_object_get_array_member (gltf_get (g, "meshes", mesh), "primitives");
  GArray *out = g_array_new (FALSE, TRUE, sizeof (Corner));

  for (guint p = 0; p < json_array_get_length (prims); p++)
    {
      JsonObject *prim = json_array_get_object_element (prims, p);
      JsonObject *attrs = json_object_get_object_member (prim, "attributes");
      double base[4] = { 1, 1, 1, 1 };
      guint n, nc, ni, comps;
      g_autofree double *pos
          = gltf_accessor (g, json_object_get_int_member (attrs, "POSITION"), &n, &comps);
      g_autofree double *idx
          = gltf_accessor (g, json_object_get_int_member (prim, "indices"), &ni, &comps);
      g_autofree double *col = NULL, *nrm = NULL;

      g_assert_cmpint (json_object_get_int_member (prim, "mode"), ==, 4);
      if (json_object_has_member (prim, "material"))
        {
          JsonObject *pbr = json_object_get_object_member (
              gltf_get (g, "materials", json_object_get_int_member (prim, "material")),
              "pbrMetallicRoughness");
          JsonArray *f = json_object_get_array_member (pbr, "baseColorFactor");

          for (guint k = 0; k < 4; k++)
            base[k] = json_array_get_double_element (f, k);
        }
      if (json_object_has_member (attrs, "COLOR_0"))
        {
          col = gltf_accessor (g, json_object_get_int_member (attrs, "COLOR_0"), &nc, &comps);
          g_assert_cmpuint (nc, ==, n);
          g_assert_cmpuint (comps, ==, 3);
        }
      if (json_object_has_member (attrs, "NORMAL"))
        nrm = gltf_accessor (g, json_object_get_int_member (attrs, "NORMAL"), &nc, &comps);
      for (guint i = 0; i < ni; i++)
        {
          guint v = (guint)idx[i];
          Corner c = { { 0 } };

          g_assert_cmpuint (v, <, n);
          for (guint k = 0; k < 3; k++)
            {
              c.pos[k] = (float)pos[3 * v + k];
              c.rgb[k] = (int)lrint (base[k] * (col != NULL ? col[3 * v + k] : 1) * 255);
            }
          c.has_nrm = nrm != NULL;
          for (guint k = 0; k < 3 && c.has_nrm; k++)
            c.nrm[k] = (float)nrm[3 * v + k];
          c.id = p << 24 | v;
          g_array_append_val (out, c);
        }
    }
  return out;
}

/* The triangles of @file_tris and @preview_tris are the same (in some order):
 * positions, colours within a step of 255, normals where the preview has them. */
static void
assert_same_triangles (GArray *file_tris, GArray *preview_tris)
{
  g_assert_cmpuint (file_tris->len, ==, preview_tris->len);
  g_assert_cmpuint (file_tris->len % 3, ==, 0);
  qsort (file_tris->data, file_tris->len / 3, 3 * sizeof (Corner), compare_triangles);
  qsort (preview_tris->data, preview_tris->len / 3, 3 * sizeof (Corner), compare_triangles);
  for (guint i = 0; i < file_tris->len; i++)
    {
      const Corner *a = &g_array_index (file_tris, Corner, i);
      const Corner *b = &g_array_index (preview_tris, Corner, i);

      for (guint k = 0; k < 3; k++)
        {
          g_assert_cmpfloat (a->pos[k], ==, b->pos[k]);
          g_assert_cmpint (abs (a->rgb[k] - b->rgb[k]), <=, 1);
        }
      g_assert_cmpint (a->has_nrm, ==, b->has_nrm);
      for (guint k = 0; k < 3 && a->has_nrm; k++)
        g_assert_cmpfloat_with_epsilon (a->nrm[k], b->nrm[k], 1e-5);
    }
}

/* ---- the samples -------------------------------------------------------------------- */

typedef struct
{
  double size;     /* of the scene, for comparing positions */
  double position; /* the largest differences seen */
  double axes;
  double skin;
} Errors;

static double
member_double (JsonObject *o, const char *member)
{
  return json_object_get_double_member (o, member);
}

/* The enveloped mesh on glTF node @node: at bind as the preview's, every
 * vertex's weights summing to 1, and skinned at every whole frame where the
 * preview's skinning puts it. */
static void
check_skin (Gltf *g, Preview *p, guint node, GArray *tracks, const double *times, guint n_times,
            double fps, double frames, Errors *err)
{
  TressScene *scene = p->animator->scene;
  JsonObject *n = gltf_get (g, "nodes", node);
  JsonObject *skin = gltf_get (g, "skins", json_object_get_int_member (n, "skin"));
  JsonArray *joints = json_object_get_array_member (skin, "joints");
  guint mesh = json_object_get_int_member (n, "mesh"), n_joints = json_array_get_length (joints);
  JsonArray *prims = json_object_get_array_member (gltf_get (g, "meshes", mesh), "primitives");
  guint n_prims = json_array_get_length (prims), count, comps, n_nodes = gltf_count (g, "nodes");
  g_autoptr (GArray) file = file_corners (g, mesh);
  g_autoptr (GArray) preview = preview_corners (scene, -1);
  g_autofree double *ibm
      = gltf_accessor (g, json_object_get_int_member (skin, "inverseBindMatrices"), &count, &comps);
  g_autofree M4 *world = g_new (M4, n_nodes);
  g_autofree M4 *inv = g_new (M4, n_joints);
  g_autofree double **jnt = g_new0 (double *, n_prims);
  g_autofree double **wts = g_new0 (double *, n_prims);
  const TressSceneMesh *sm = NULL;

  for (guint m = 0; m < scene->meshes->len; m++)
    if (tress_scene_get_mesh (scene, m)->joints != NULL)
      sm = tress_scene_get_mesh (scene, m);
  g_assert_nonnull (sm);
  g_assert_cmpuint (count, ==, n_joints);
  for (guint j = 0; j < n_joints; j++)
    for (guint r = 0; r < 4; r++)
      for (guint c = 0; c < 4; c++)
        inv[j].m[r][c] = ibm[16 * j + 4 * c + r]; /* column-major */
  assert_same_triangles (file, preview);
  for (guint k = 0; k < n_prims; k++)
    {
      JsonObject *attrs
          = json_object_get_object_member (json_array_get_object_element (prims, k), "attributes");
      guint nv;

      jnt[k] = gltf_accessor (g, json_object_get_int_member (attrs, "JOINTS_0"), &nv, &comps);
      wts[k] = gltf_accessor (g, json_object_get_int_member (attrs, "WEIGHTS_0"), &nv, &comps);
      for (guint v = 0; v < nv; v++)
        {
          double sum = 0;

          for (guint i = 0; i < 4; i++)
            {
              g_assert_cmpfloat (jnt[k][4 * v + i], <, n_joints);
              g_assert_cmpfloat (wts[k][4 * v + i], >=, 0);
              sum += wts[k][4 * v + i];
            }
          g_assert_cmpfloat_with_epsilon (sum, 1, 1e-6);
        }
    }
  for (double f = 0; f <= frames; f++)
    {
      int at = tracks != NULL ? sample_at (times, n_times, f, fps) : -1;

      worlds_at (g, tracks, at, world);
      preview_pose (p, f);
      for (guint j = 0; f == 0 && j < n_joints; j++)
        {
          M4 prod, id = { { { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 }, { 0, 0, 0, 1 } } };

          /* Bound in the pose at frame 0: each joint's world × its inverse bind matrix is 1. */
          m4_mul (&world[json_array_get_int_element (joints, j)], &inv[j], &prod);
          g_assert_cmpfloat (m4_distance (&prod, &id), <, 1e-5);
        }
      for (guint i = 0; i < file->len; i++)
        {
          const Corner *c = &g_array_index (file, Corner, i);
          guint k = c->id >> 24, v = c->id & 0xFFFFFF;
          float want[3];
          double got[3] = { 0, 0, 0 };

          for (guint s = 0; s < 4; s++)
            {
              M4 mj;
              double w = wts[k][4 * v + s];
              guint j = (guint)jnt[k][4 * v + s];

              m4_mul (&world[json_array_get_int_element (joints, j)], &inv[j], &mj);
              for (guint r = 0; r < 3; r++)
                got[r] += w
                          * (mj.m[r][0] * c->pos[0] + mj.m[r][1] * c->pos[1]
                             + mj.m[r][2] * c->pos[2] + mj.m[r][3]);
            }
          tress_scene_vertex_position (scene, sm, g_array_index (preview, Corner, i).id, want);
          for (guint r = 0; r < 3; r++)
            err->skin = MAX (err->skin, fabs (got[r] - want[r]) / err->size);
        }
    }
  for (guint k = 0; k < n_prims; k++)
    {
      g_free (jnt[k]);
      g_free (wts[k]);
    }
}

/* Node names listed by the note about nodes placed with the nearest axes. */
static gboolean
approximated (GPtrArray *notes, const char *name)
{
  g_autofree char *needle = g_strdup_printf ("(%s", name),
                  *needle2 = g_strdup_printf (", %s", name);

  for (guint i = 0; i < notes->len; i++)
    if (strstr (notes->pdata[i], "nearest axes") != NULL
        && (strstr (notes->pdata[i], needle) != NULL || strstr (notes->pdata[i], needle2) != NULL))
      return TRUE;
  return FALSE;
}

/* Whether a note of @notes holds @words. */
static gboolean
has_note (GPtrArray *notes, const char *words)
{
  for (guint i = 0; i < notes->len; i++)
    if (strstr (notes->pdata[i], words) != NULL)
      return TRUE;
  return FALSE;
}

/* Exports @rel as tress-cli does and compares everything with the preview. */
static void
test_sample (gconstpointer data)
{
  const char *rel = data;
  g_autoptr (GBytes) bytes = tress_test_load_sample (rel);
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressGltfWriter) w = NULL;
  g_autoptr (GBytes) glb = NULL;
  g_autofree char *source = g_path_get_basename (rel);
  g_autofree double *times = NULL;
  g_autofree M4 *world = NULL;
  GArray *tracks = NULL;
  TressNiffFile *file;
  TressScene *scene;
  Preview p;
  Gltf g;
  guint nn, n_times = 0;
  double frames = 0, fps;
  Errors err = { 1, 0, 0, 0 };
  gint64 t0;

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  preview_init (&p, file, source);
  scene = p.animator->scene;
  nn = tress_scene_get_n_nodes (scene);
  t0 = g_get_monotonic_time ();
  w = tress_gltf_niff_export (file, source, NULL, notes, &error);
  g_assert_no_error (error);
  glb = tress_gltf_writer_to_glb (w, &error);
  g_assert_no_error (error);
  g_test_message ("%s: %.1f ms, %" G_GSIZE_FORMAT " bytes", rel,
                  (g_get_monotonic_time () - t0) / 1000.0, g_bytes_get_size (glb));
  gltf_read_glb (&g, glb);
  world = g_new (M4, gltf_count (&g, "nodes"));

  /* The scene's nodes first, named and linked as in the preview. */
  g_assert_cmpuint (gltf_count (&g, "nodes"), >=, nn);
  for (guint i = 0; i < nn; i++)
    {
      JsonObject *node = gltf_get (&g, "nodes", i);
      int parent = tress_scene_get_node (scene, i)->parent;

      g_assert_cmpstr (json_object_get_string_member (node, "name"), ==,
                       tress_scene_get_node (scene, i)->name);
      if (json_object_has_member (node, "children"))
        {
          JsonArray *c = json_object_get_array_member (node, "children");

          for (guint k = 0; k < json_array_get_length (c); k++)
            g_assert_cmpint (
                tress_scene_get_node (scene, json_array_get_int_element (c, k))->parent, ==,
                (int)i);
        }
      if (parent < 0)
        g_assert_true (json_array_get_length (
                           json_object_get_array_member (gltf_get (&g, "scenes", 0), "nodes"))
                       > 0);
    }

  /* One animation, the whole scene's, at every whole frame. */
  fps = p.animator->anim_fps[0] > 0 ? p.animator->anim_fps[0] : 30;
  if (gltf_count (&g, "animations") > 0)
    {
      JsonObject *anim = gltf_get (&g, "animations", 0);
      JsonObject *x
          = json_object_get_object_member (json_object_get_object_member (anim, "extras"), "niff");

      g_assert_cmpuint (gltf_count (&g, "animations"), ==, 1);
      g_assert_cmpstr (json_object_get_string_member (anim, "name"), ==, p.animator->anim_names[0]);
      frames = member_double (x, "frameCount");
      g_assert_cmpfloat (frames, ==, p.animator->anim_frames[0]);
      g_assert_cmpfloat (member_double (x, "fps"), ==, fps);
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (x, "animGroups")), ==,
                        tress_niff_file_get_n_groups (file));
      tracks = tracks_of (&g, anim, &times, &n_times);
      g_assert_cmpuint (n_times, ==, (guint)frames + 1);
      for (guint i = 1; i < n_times; i++)
        g_assert_cmpfloat (times[i], >, times[i - 1]);
      /* Rotations the short way from sample to sample. */
      for (guint k = 0; k < tracks->len; k++)
        {
          const Track *t = &g_array_index (tracks, Track, k);

          for (guint i = 1; t->path == 1 && i < n_times; i++)
            g_assert_cmpfloat (
                t->out[4 * i] * t->out[4 * i - 4] + t->out[4 * i + 1] * t->out[4 * i - 3]
                    + t->out[4 * i + 2] * t->out[4 * i - 2] + t->out[4 * i + 3] * t->out[4 * i - 1],
                >=, 0);
        }
    }
  else
    g_assert_cmpfloat (p.animator->anim_frames[0], <, 1);

  /* Every node's world matrix at every whole frame is the preview's. */
  preview_pose (&p, 0);
  for (guint i = 0; i < nn; i++)
    {
      const graphene_matrix_t *m = &tress_scene_get_node (scene, i)->world;

      for (guint r = 0; r < 3; r++)
        err.size = MAX (err.size, fabs (graphene_matrix_get_value (m, 3, r)));
    }
  for (double f = 0; f <= frames; f++)
    {
      int at = tracks != NULL ? sample_at (times, n_times, f, fps) : -1;

      g_assert_true (tracks == NULL || at >= 0);
      worlds_at (&g, tracks, at, world);
      preview_pose (&p, f);
      for (guint i = 0; i < nn; i++)
        {
          M4 want;
          double axes = 0;

          m4_from_graphene (&tress_scene_get_node (scene, i)->world, &want);
          distance (&world[i], &want, err.size, &err.position, &axes);
          if (!approximated (notes, tress_scene_get_node (scene, i)->name))
            err.axes = MAX (err.axes, axes);
        }
    }

  /* The meshes: rigid ones on their object's node, as the preview draws
   * them; envelopes skinned on nodes of their own. */
  for (guint i = 0; i < gltf_count (&g, "nodes"); i++)
    {
      JsonObject *node = gltf_get (&g, "nodes", i);

      if (json_object_has_member (node, "skin"))
        {
          g_assert_cmpuint (i, >=, nn);
          check_skin (&g, &p, i, tracks, times, n_times, fps, frames, &err);
        }
      else if (json_object_has_member (node, "mesh"))
        {
          g_autoptr (GArray) a = file_corners (&g, json_object_get_int_member (node, "mesh"));
          g_autoptr (GArray) b = preview_corners (scene, (int)i);

          g_assert_cmpuint (i, <, nn);
          assert_same_triangles (a, b);
        }
      else if (i < nn)
        {
          /* No mesh: nor in the preview. */
          g_autoptr (GArray) b = preview_corners (scene, (int)i);

          g_assert_cmpuint (b->len, ==, 0);
        }
    }
  g_test_message ("%s: %u nodes, %.0f frames at %g fps; largest difference from the preview: "
                  "position %.2g (of the scene's size %.3g), axes %.2g, skinned vertices %.2g",
                  rel, nn, frames, fps, err.position, err.size, err.axes, err.skin);
  for (guint i = 0; i < notes->len; i++)
    g_test_message ("%s: not carried: %s", rel, (const char *)notes->pdata[i]);
  g_assert_cmpfloat (err.position, <, 1e-5);
  g_assert_cmpfloat (err.axes, <, 1e-5);
  g_assert_cmpfloat (err.skin, <, 1e-5);
  if (tracks != NULL)
    tracks_free (tracks);
  gltf_clear (&g);
  preview_clear (&p);
  tress_format_niff.free (file);
}

/* ---- what the samples hold ----------------------------------------------------------- */

static GBytes *
export_glb (TressNiffFile *file, const TressGltfNiffOptions *options, GPtrArray *notes)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TressGltfWriter) w = tress_gltf_niff_export (file, "test", options, notes, &error);
  GBytes *glb;

  g_assert_no_error (error);
  glb = tress_gltf_writer_to_glb (w, &error);
  g_assert_no_error (error);
  return glb;
}

static JsonObject *
niff_extras (JsonObject *o)
{
  return json_object_get_object_member (json_object_get_object_member (o, "extras"), "niff");
}

static guint
find_node (Gltf *g, const char *name)
{
  for (guint i = 0; i < gltf_count (g, "nodes"); i++)
    if (g_strcmp0 (json_object_get_string_member (gltf_get (g, "nodes", i), "name"), name) == 0)
      return i;
  g_assert_not_reached ();
  return 0;
}

static void
base_colour (Gltf *g, JsonObject *prim, double rgba[4])
{
  JsonObject *m = gltf_get (g, "materials", json_object_get_int_member (prim, "material"));
  JsonArray *f = json_object_get_array_member (
      json_object_get_object_member (m, "pbrMetallicRoughness"), "baseColorFactor");

  for (guint k = 0; k < 4; k++)
    rgba[k] = json_array_get_double_element (f, k);
}

static const char *
material_name (Gltf *g, JsonObject *prim)
{
  return json_object_get_string_member (
      gltf_get (g, "materials", json_object_get_int_member (prim, "material")), "name");
}

/* Rings.niff: the Sweep's three Parts are three primitives in their
 * materials' diffuse colours; the materials are lit (no unlit extension). */
static void
test_rings_materials (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/Rings.niff");
  g_autoptr (GBytes) glb = NULL;
  static const char *const names[3] = { "mat2", "mat1", "mat3" };
  static const double green[3] = { 0.4858759939670563, 0.699999988079071, 0.16949200630187988 };
  TressNiffFile *file;
  JsonArray *prims;
  Gltf g;

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  glb = export_glb (file, NULL, NULL);
  gltf_read_glb (&g, glb);
  g_assert_cmpstr (json_object_get_string_member (gltf_get (&g, "nodes", 1), "name"), ==,
                   "Sweep15_3");
  g_assert_cmpint (json_object_get_int_member (gltf_get (&g, "nodes", 1), "mesh"), ==, 0);
  prims = json_object_get_array_member (gltf_get (&g, "meshes", 0), "primitives");
  g_assert_cmpuint (json_array_get_length (prims), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      JsonObject *prim = json_array_get_object_element (prims, i);
      JsonObject *attrs = json_object_get_object_member (prim, "attributes");
      JsonObject *m = gltf_get (&g, "materials", json_object_get_int_member (prim, "material"));
      double rgba[4];
      guint n, comps;
      g_autofree double *idx
          = gltf_accessor (&g, json_object_get_int_member (prim, "indices"), &n, &comps);

      g_assert_cmpstr (material_name (&g, prim), ==, names[i]);
      base_colour (&g, prim, rgba);
      g_assert_cmpfloat_with_epsilon (rgba[0], 0, 1e-7);
      g_assert_cmpfloat_with_epsilon (rgba[1], green[i], 1e-7);
      /* Triangles 0…99, 100…299 (Part 1), 300…399 (Part 2). */
      g_assert_cmpuint (n, ==, 3 * (i == 1 ? 200 : 100));
      /* Lit, smooth: normals; the colour is the material's alone. */
      g_assert_true (json_object_has_member (attrs, "NORMAL"));
      g_assert_false (json_object_has_member (attrs, "COLOR_0"));
      g_assert_false (json_object_has_member (m, "extensions"));
      g_assert_false (json_object_has_member (m, "doubleSided")); /* shape type 0x15: culled */
      g_assert_cmpstr (json_object_get_string_member (niff_extras (m), "type"), ==, "N64");
    }
  /* Welded: the Sweep's 400 triangles share their 400 positions. */
  {
    guint total = 0;

    for (guint i = 0; i < 3; i++)
      {
        JsonObject *attrs = json_object_get_object_member (json_array_get_object_element (prims, i),
                                                           "attributes");

        total += json_object_get_int_member (
            gltf_get (&g, "accessors", json_object_get_int_member (attrs, "POSITION")), "count");
      }
    g_assert_cmpuint (total, <, 3 * 400);
  }
  gltf_clear (&g);
  tress_format_niff.free (file);
}

/* dragon.nif: the skin material multiplies vertex colours only: a white
 * base (its orange primitive colour plays no part) and COLOR_0; the eye is
 * unlit; the wings (shape type 0x05) are drawn on both sides. */
static void
test_dragon_materials (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/dragon.nif");
  g_autoptr (GBytes) glb = NULL;
  TressNiffFile *file;
  gboolean skin = FALSE, eye = FALSE, wing = FALSE;
  Gltf g;

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  glb = export_glb (file, NULL, NULL);
  gltf_read_glb (&g, glb);
  for (guint m = 0; m < gltf_count (&g, "meshes"); m++)
    {
      JsonArray *prims = json_object_get_array_member (gltf_get (&g, "meshes", m), "primitives");

      for (guint i = 0; i < json_array_get_length (prims); i++)
        {
          JsonObject *prim = json_array_get_object_element (prims, i);
          JsonObject *attrs = json_object_get_object_member (prim, "attributes");
          JsonObject *mat
              = gltf_get (&g, "materials", json_object_get_int_member (prim, "material"));
          const char *name = material_name (&g, prim);
          double rgba[4];

          base_colour (&g, prim, rgba);
          if (g_str_equal (name, "skin"))
            {
              skin = TRUE;
              g_assert_cmpfloat (rgba[0] + rgba[1] + rgba[2], ==, 3);
              g_assert_true (json_object_has_member (attrs, "COLOR_0"));
              g_assert_true (json_object_has_member (attrs, "NORMAL")); /* smooth (0x10) */
            }
          else if (g_str_equal (name, "eye"))
            {
              eye = TRUE;
              g_assert_true (json_object_has_member (
                  json_object_get_object_member (mat, "extensions"), "KHR_materials_unlit"));
              g_assert_false (json_object_has_member (attrs, "NORMAL")); /* flat */
            }
          else if (g_str_equal (name, "wing"))
            {
              wing = TRUE;
              g_assert_true (json_object_get_boolean_member (mat, "doubleSided"));
            }
        }
    }
  g_assert_true (skin && eye && wing);
  g_assert_cmpstr (
      json_array_get_string_element (json_object_get_array_member (g.root, "extensionsUsed"), 0),
      ==, "KHR_materials_unlit");
  gltf_clear (&g);
  tress_format_niff.free (file);
}

/* kirikobu.niff: the envelope's skin is over null1 and the two IK joints;
 * the effector, hung below the second joint's rest, is the one node whose
 * frame glTF cannot hold. */
static void
test_kirikobu_skin (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/kirikobu.niff");
  g_autoptr (GBytes) glb = NULL;
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GString) joint_names = g_string_new (NULL);
  TressNiffFile *file;
  JsonArray *joints;
  JsonObject *node;
  Gltf g;

  if (bytes == NULL)
    return;
  file = niff_parse_ok (bytes);
  glb = export_glb (file, NULL, notes);
  gltf_read_glb (&g, glb);
  g_assert_cmpuint (gltf_count (&g, "skins"), ==, 1);
  node = gltf_get (&g, "nodes", gltf_count (&g, "nodes") - 1);
  g_assert_cmpstr (json_object_get_string_member (node, "name"), ==, "kirikabu_1_AnimatedShape");
  g_assert_false (json_object_has_member (node, "translation"));
  joints = json_object_get_array_member (gltf_get (&g, "skins", 0), "joints");
  for (guint j = 0; j < json_array_get_length (joints); j++)
    g_string_append_printf (
        joint_names, "%s%s", j ? " " : "",
        json_object_get_string_member (
            gltf_get (&g, "nodes", json_array_get_int_element (joints, j)), "name"));
  g_assert_cmpstr (joint_names->str, ==, "jnt11_1 jnt11_2 null1");
  /* Texture coordinates from the parts' St groups (the weighted parts'
   * included), t turned over. */
  {
    g_autoptr (TressNiffScene) niff = tress_niff_scene_new (file, NULL);
    JsonArray *prims = json_object_get_array_member (gltf_get (&g, "meshes", 0), "primitives");

    for (guint p = 0; p < json_array_get_length (prims); p++)
      {
        JsonObject *attrs = json_object_get_object_member (json_array_get_object_element (prims, p),
                                                           "attributes");
        guint n, comps;
        g_autofree double *st
            = gltf_accessor (&g, json_object_get_int_member (attrs, "TEXCOORD_0"), &n, &comps);

        for (guint v = 0; v < n; v++)
          {
            gboolean found = FALSE;

            for (guint k = 0; k < niff->n_sts && !found; k++)
              for (guint i = 0; i < niff->sts[k].n && !found; i++)
                found = (float)st[2 * v] == niff->sts[k].v[2 * i]
                        && (float)st[2 * v + 1] == 1 - niff->sts[k].v[2 * i + 1];
            g_assert_true (found);
          }
      }
  }
  g_assert_true (approximated (notes, "eff11"));
  g_assert_false (approximated (notes, "jnt11_1"));
  g_assert_cmpstr (
      json_object_get_string_member (
          niff_extras (gltf_get (&g, "nodes", find_node (&g, "jnt11_1"))), "animGroup"),
      ==, "jnt11_1_Animation");
  gltf_clear (&g);
  tress_format_niff.free (file);
}

/* ---- built files ------------------------------------------------------------------------ */

static const float square[12] = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0 };
static const guint32 square_tris[6] = { 0, 1, 2, 0, 2, 3 };

/* A NIFF2 scene: "Parent" grows along X by a UniqueScale key (1 → 2 over 4
 * frames), "Child" below it turned 45° about Z; "Flat" beside them, a
 * flat-shaded square. Frame rate 60. */
static GBytes *
build_unique_scale (void)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (TRUE, 0);
  g_autoptr (GError) error = NULL;
  const float one[3] = { 1, 1, 1 }, two[3] = { 2, 1, 1 }, none[3] = { 0, 0, 0 };
  const float turn[1] = { (float)(G_PI / 4) }, zero[1] = { 0 }, at[3] = { 1, 0, 0 };
  const float red[4] = { 1, 0, 0, 1 };
  guint gp, gc, gf, parent, child, flat;
  GBytes *bytes;

  tress_niff_builder_add_name (b, "built");
  gp = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "Parent_anim"),
                                     TRESS_NIFF_ANIM_STATIC, 60, 0);
  gc = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "Child_anim"),
                                     TRESS_NIFF_ANIM_STATIC, 60, 0);
  gf = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "Flat_anim"),
                                     TRESS_NIFF_ANIM_STATIC, 60, 0);
  tress_niff_builder_add_channel_key (b, gp, TRESS_NIFF_UNIQUE_SCALE, TRESS_NIFF_CHANNEL_LINEAR, 0,
                                      one, none);
  tress_niff_builder_add_channel_key (b, gp, TRESS_NIFF_UNIQUE_SCALE, TRESS_NIFF_CHANNEL_LINEAR, 4,
                                      two, none);
  tress_niff_builder_add_channel_key (b, gc, TRESS_NIFF_ROTATE_Z, TRESS_NIFF_CHANNEL_LINEAR, 0,
                                      turn, zero);
  tress_niff_builder_add_channel_key (b, gc, TRESS_NIFF_TRANSLATION, TRESS_NIFF_CHANNEL_LINEAR, 0,
                                      at, none);
  tress_niff_builder_add_channel_key (b, gf, TRESS_NIFF_TRANSLATION, TRESS_NIFF_CHANNEL_LINEAR, 0,
                                      none, none);
  parent = tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "Parent"), gp);
  child = tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "Child"), gc);
  flat = tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "Flat"), gf);
  tress_niff_builder_set_parent (b, child, parent);
  tress_niff_builder_add_shape (b, child, tress_niff_builder_add_name (b, "ChildShape"), square, 4,
                                square_tris, 2, red, TRUE);
  tress_niff_builder_add_shape (b, flat, tress_niff_builder_add_name (b, "FlatShape"), square, 4,
                                square_tris, 2, red, FALSE);
  bytes = tress_niff_builder_finish (b, &error);
  g_assert_no_error (error);
  return bytes;
}

/* A UniqueScale that is not uniform shears the child's frame: the child is
 * placed exactly with the nearest axes, and said. The file's rate (60)
 * gives the time; --fps (options.fps) overrides it. AnimGroups left out hold
 * their frame 0. */
static void
test_unique_scale (void)
{
  g_autoptr (GBytes) bytes = build_unique_scale ();
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GBytes) glb = NULL;
  TressNiffFile *file = niff_parse_ok (bytes);
  g_autofree double *times = NULL;
  g_autofree M4 *world = NULL;
  GArray *tracks;
  Preview p;
  guint n_times;
  Gltf g;

  preview_init (&p, file, "built");
  glb = export_glb (file, NULL, notes);
  gltf_read_glb (&g, glb);
  g_assert_true (approximated (notes, "Child"));
  g_assert_false (approximated (notes, "Parent"));
  tracks = tracks_of (&g, gltf_get (&g, "animations", 0), &times, &n_times);
  g_assert_cmpuint (n_times, ==, 5);
  g_assert_cmpfloat_with_epsilon (times[1], 1 / 60.0, 1e-7);
  world = g_new (M4, gltf_count (&g, "nodes"));
  for (guint f = 0; f < 5; f++)
    {
      M4 want;
      double position = 0, axes = 0;

      worlds_at (&g, tracks, (int)f, world);
      preview_pose (&p, f);
      m4_from_graphene (&tress_scene_get_node (p.animator->scene, 1)->world, &want);
      distance (&world[1], &want, 1, &position, &axes);
      g_assert_cmpfloat (position, <, 1e-6);
      /* Exact at frame 0 (no scale yet), the nearest axes after. */
      if (f == 0)
        g_assert_cmpfloat (axes, <, 1e-6);
      else if (f == 4)
        g_assert_cmpfloat (axes, >, 0.1);
    }
  /* The flat square has no normals (glTF's readers shade it flat); the smooth one has. */
  for (guint m = 0; m < gltf_count (&g, "meshes"); m++)
    {
      JsonObject *mesh = gltf_get (&g, "meshes", m);
      JsonObject *prim
          = json_array_get_object_element (json_object_get_array_member (mesh, "primitives"), 0);

      g_assert_cmpint (
          json_object_has_member (json_object_get_object_member (prim, "attributes"), "NORMAL"), ==,
          g_str_equal (json_object_get_string_member (mesh, "name"), "ChildShape"));
    }
  tracks_free (tracks);
  gltf_clear (&g);
  g_clear_pointer (&glb, g_bytes_unref);

  /* --fps 24, and only the child's AnimGroup: the parent holds its frame 0,
   * so that nothing moves at all. */
  {
    const guint only[1] = { 1 };
    TressGltfNiffOptions options = { 24, only, 1 };

    g_ptr_array_set_size (notes, 0);
    glb = export_glb (file, &options, notes);
    gltf_read_glb (&g, glb);
    g_assert_cmpuint (gltf_count (&g, "animations"), ==, 0);
    g_assert_true (has_note (notes, "the AnimGroups named hold still: no animation is written"));
    gltf_clear (&g);
    g_clear_pointer (&glb, g_bytes_unref);
  }
  {
    const guint only[1] = { 0 };
    TressGltfNiffOptions options = { 24, only, 1 };
    JsonObject *x;

    glb = export_glb (file, &options, NULL);
    gltf_read_glb (&g, glb);
    g_clear_pointer (&times, g_free);
    tracks = tracks_of (&g, gltf_get (&g, "animations", 0), &times, &n_times);
    g_assert_cmpfloat_with_epsilon (times[1], 1 / 24.0, 1e-7);
    /* Parent's scale moves, and with it the child's nearest axes; Flat stays. */
    g_assert_cmpuint (g_array_index (tracks, Track, 0).node, ==, 0);
    g_assert_cmpuint (g_array_index (tracks, Track, 0).path, ==, 2);
    for (guint i = 1; i < tracks->len; i++)
      g_assert_cmpuint (g_array_index (tracks, Track, i).node, ==, 1);
    x = niff_extras (gltf_get (&g, "animations", 0));
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (x, "animGroups")), ==,
                      1);
    tracks_free (tracks);
    gltf_clear (&g);
  }
  preview_clear (&p);
  tress_format_niff.free (file);
}

/* A parent scaled to nothing (NIFF1 records: the scale stays in its matrix)
 * at frame 2: its child's transform holds from the sample before, and that
 * is said; elsewhere the child is exact. */
static void
test_zero_scale (void)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (FALSE, 0);
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL, glb = NULL;
  const float rest[9] = { 0, 0, 0, 0, 0, 0, 1, 1, 1 }, gone[9] = { 0, 0, 0, 0, 0, 0, 0, 0, 0 };
  const float child_at[9] = { 0, 2, 0, 0.5f, 0, 0, 1, 1, 1 };
  guint gp, gc, parent, child;
  TressNiffFile *file;

  tress_niff_builder_add_name (b, "zero");
  gp = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "P"), TRESS_NIFF_ANIM_FULL,
                                     0, 0);
  gc = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "C"),
                                     TRESS_NIFF_ANIM_STATIC, 0, 0);
  tress_niff_builder_add_full (b, gp, rest);
  tress_niff_builder_add_full (b, gp, rest);
  tress_niff_builder_add_full (b, gp, gone);
  tress_niff_builder_add_full (b, gp, rest);
  tress_niff_builder_add_static (b, gc, child_at);
  parent = tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "P"), gp);
  child = tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "C"), gc);
  tress_niff_builder_set_parent (b, child, parent);
  bytes = tress_niff_builder_finish (b, &error);
  g_assert_no_error (error);
  file = niff_parse_ok (bytes);
  glb = export_glb (file, NULL, notes);
  g_assert_true (has_note (notes, "1 node samples lie under a parent scaled to nothing"));
  {
    Gltf g;
    Preview p;
    double *times = NULL;
    guint n_times;
    GArray *tracks;
    M4 world[2], want;

    gltf_read_glb (&g, glb);
    preview_init (&p, file, "zero");
    tracks = tracks_of (&g, gltf_get (&g, "animations", 0), &times, &n_times);
    g_assert_cmpuint (n_times, ==, 4);
    for (guint f = 0; f < 4; f++)
      {
        double position = 0, axes = 0;

        worlds_at (&g, tracks, (int)f, world);
        preview_pose (&p, f);
        m4_from_graphene (&tress_scene_get_node (p.animator->scene, 1)->world, &want);
        distance (&world[1], &want, 2, &position, &axes);
        g_assert_cmpfloat (position + axes, <, 1e-6);
      }
    g_free (times);
    tracks_free (tracks);
    preview_clear (&p);
    gltf_clear (&g);
  }
  tress_format_niff.free (file);
}

/* An animation whose frames are all alike: said, and not written. */
static void
test_still (void)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (FALSE, 0);
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL, glb = NULL;
  const float rest[9] = { 1, 2, 3, 0.1f, 0.2f, 0.3f, 1, 1, 1 };
  TressNiffFile *file;
  guint g;
  Gltf gltf;

  tress_niff_builder_add_name (b, "still");
  g = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "S"), TRESS_NIFF_ANIM_FULL,
                                    0, 0);
  for (guint f = 0; f < 3; f++)
    tress_niff_builder_add_full (b, g, rest);
  tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "S"), g);
  bytes = tress_niff_builder_finish (b, &error);
  g_assert_no_error (error);
  file = niff_parse_ok (bytes);
  glb = export_glb (file, NULL, notes);
  gltf_read_glb (&gltf, glb);
  g_assert_cmpuint (gltf_count (&gltf, "animations"), ==, 0);
  g_assert_false (json_object_has_member (gltf.root, "buffers"));
  g_assert_cmpuint (notes->len, ==, 1);
  g_assert_cmpstr (notes->pdata[0], ==,
                   "“still”: its 2 frames move nothing: no animation is written");
  gltf_clear (&gltf);
  tress_format_niff.free (file);
}

/* A key that is not a number: the file stays valid JSON and numbers, and it is said. */
static void
test_not_finite (void)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (FALSE, 0);
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL, glb = NULL;
  const float good[9] = { 0, 0, 0, 0, 0, 0, 1, 1, 1 };
  const float bad[9] = { NAN, 0, 0, 0, INFINITY, 0, 1, 1, 1 };
  TressNiffFile *file;
  guint g, n, comps;
  Gltf gltf;

  tress_niff_builder_add_name (b, "nan");
  g = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "N"), TRESS_NIFF_ANIM_FULL,
                                    0, 0);
  tress_niff_builder_add_full (b, g, bad);
  tress_niff_builder_add_full (b, g, good);
  tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "N"), g);
  bytes = tress_niff_builder_finish (b, &error);
  g_assert_no_error (error);
  file = niff_parse_ok (bytes);
  glb = export_glb (file, NULL, notes);
  gltf_read_glb (&gltf, glb);
  for (guint a = 0; a < gltf_count (&gltf, "accessors"); a++)
    {
      g_autofree double *v = gltf_accessor (&gltf, a, &n, &comps);

      for (guint i = 0; i < n * comps; i++)
        g_assert_true (isfinite (v[i]));
    }
  g_assert_true (has_note (notes, "values that were not finite numbers are written as 0"));
  gltf_clear (&gltf);
  tress_format_niff.free (file);
}

/* ---- tress-cli ------------------------------------------------------------------------------ */

static char *
tmp (const char *name)
{
  return g_build_filename (tress_test_tmpdir (), name, NULL);
}

/* export-gltf of a NIFF file: what it wrote and what it could not carry,
 * said; --animation names AnimGroups; .gltf with its .bin. */
static void
test_cli (void)
{
  g_autofree char *dragon = tress_test_sample_path ("niff/dragon.nif");
  g_autofree char *glb = tmp ("dragon.glb"), *gltf = tmp ("dragon two.gltf");
  g_autofree char *bin = tmp ("dragon two.bin"), *out = NULL, *err = NULL;
  g_autoptr (GBytes) bytes = NULL;
  Gltf g;

  if (dragon == NULL)
    return;
  {
    const char *argv[] = { "export-gltf", dragon, "-o", glb, NULL };

    g_assert_cmpint (tress_test_run_cli (argv, &out, &err), ==, 0);
  }
  g_assert_nonnull (strstr (out, "dragon.nif: wrote "));
  g_assert_nonnull (strstr (out, ": 33 nodes, 21 meshes, 0 skins, 1 animation at 30 fps\n"));
  g_assert_nonnull (strstr (out, "dragon.nif: not carried: 3 textures and their images: not read"));
  g_assert_nonnull (strstr (out, "dragon.nif: not carried: 1 light: not read\n"));
  g_assert_nonnull (strstr (out, "dragon.nif: not carried: 1 camera: no glTF camera is written"));
  bytes = tress_test_read_file (glb);
  gltf_read_glb (&g, bytes);
  g_assert_cmpstr (json_object_get_string_member (gltf_get (&g, "animations", 0), "name"), ==,
                   "dragon");
  gltf_clear (&g);
  g_clear_pointer (&bytes, g_bytes_unref);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* One AnimGroup: only its object moves. */
  {
    const char *argv[]
        = { "export-gltf", dragon, "--animation", "Animation_for_head", "-o", gltf, NULL };
    JsonArray *channels;

    g_assert_cmpint (tress_test_run_cli (argv, &out, &err), ==, 0);
    g_assert_true (g_file_test (bin, G_FILE_TEST_IS_REGULAR));
    gltf_read_gltf (&g, gltf);
    channels = json_object_get_array_member (gltf_get (&g, "animations", 0), "channels");
    g_assert_cmpuint (json_array_get_length (channels), >, 0);
    for (guint i = 0; i < json_array_get_length (channels); i++)
      {
        JsonObject *t
            = json_object_get_object_member (json_array_get_object_element (channels, i), "target");

        g_assert_cmpstr (
            json_object_get_string_member (
                gltf_get (&g, "nodes", json_object_get_int_member (t, "node")), "name"),
            ==, "head");
      }
    gltf_clear (&g);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }

  /* Refusals: an AnimGroup the file lacks (listing them), --model. */
  {
    const char *argv[] = { "export-gltf", dragon, "--animation", "Fly", "-o", glb, NULL };

    g_assert_cmpint (tress_test_run_cli (argv, &out, &err), ==, 2);
    g_assert_nonnull (strstr (err, "no AnimGroup “Fly”; the AnimGroups: Animation_for_Dragon_All, "
                                   "Animation_for_dragon_Group,"));
    g_assert_nonnull (strstr (err, "and 21 more (tress-cli info "));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *argv[] = { "export-gltf", dragon, "--model", dragon, "-o", glb, NULL };

    g_assert_cmpint (tress_test_run_cli (argv, &out, &err), ==, 2);
    g_assert_nonnull (strstr (err, "--model is for BFRES animations; a NIFF file holds its own "
                                   "scene"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
}

/* A scene list that links nowhere: exit 1, the reader's words, nothing written. */
static void
test_cli_broken (void)
{
  g_autoptr (GBytes) bytes = tress_test_load_sample ("niff/dragon.nif");
  g_autofree char *path = tmp ("broken.nif"), *glb = tmp ("broken.glb"), *err = NULL;
  g_autofree guint8 *d = NULL;
  gsize size, obj;

  if (bytes == NULL)
    return;
  size = g_bytes_get_size (bytes);
  d = g_memdup2 (g_bytes_get_data (bytes, NULL), size);
  /* Dragon_All's first child link (after its 22 words; no LODs). */
  obj = niff_raw_element (d, niff_raw_find_list (d, size, 0x00020000), 0);
  g_assert_cmpuint (niff_be32 (d + obj + 0x38), ==, 1);
  niff_put32 (d + obj + 88, 0x7FFF);
  g_assert_true (g_file_set_contents (path, (const char *)d, size, NULL));
  {
    const char *argv[] = { "export-gltf", path, "-o", glb, NULL };

    g_assert_cmpint (tress_test_run_cli (argv, NULL, &err), ==, 1);
  }
  g_assert_nonnull (strstr (err, "broken.nif: "));
  g_assert_nonnull (strstr (err, "Obj 0 obj_child_link at offset 0x2a8: expected an index below 33 "
                                 "(the objects), found 32767"));
  g_assert_false (g_file_test (glb, G_FILE_TEST_EXISTS));
}

/* The export reports to the thread's progress and stops when it is cancelled. */
static void
test_progress (void)
{
  g_autoptr (GBytes) bytes = build_unique_scale ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (TressProgress) progress = tress_progress_new (cancellable);
  g_autoptr (TressGltfWriter) w = NULL;
  TressNiffFile *file = niff_parse_ok (bytes);
  const char *phase;
  guint64 done, total;
  TressProgressUnit unit;

  tress_progress_run_begin (progress);
  w = tress_gltf_niff_export (file, "built", NULL, NULL, &error);
  g_assert_no_error (error);
  tress_progress_get (progress, &phase, &done, &total, &unit);
  g_assert_cmpstr (phase, ==, "Exporting animations");
  g_assert_cmpuint (total, ==, 5 * 3); /* 5 frames × 3 nodes */
  g_assert_cmpuint (done, ==, total);
  g_clear_pointer (&w, tress_gltf_writer_free);
  g_cancellable_cancel (cancellable);
  w = tress_gltf_niff_export (file, "built", NULL, NULL, &error);
  tress_progress_run_end ();
  g_assert_null (w);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  /* An AnimGroup the file lacks. */
  {
    const guint bad[1] = { 3 };
    TressGltfNiffOptions options = { 0, bad, 1 };

    w = tress_gltf_niff_export (file, "built", &options, NULL, &error);
    g_assert_null (w);
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_FAILED);
    g_assert_cmpstr (error->message, ==, "No AnimGroup 3 (the file has 3)");
  }
  tress_format_niff.free (file);
}

int
main (int argc, char **argv)
{
  static const char *const samples[] = {
    "niff/Rings.niff",
    "niff/dragon.nif",
    "niff/kirikobu.niff",
    "niff/3hedra.niff",
    "niff/blend2niff-cube.nif",
    "niff/yellow-cube.niff",
    "niff/synthetic-all-channels.nif",
    "niff/synthetic-niff1.nif",
  };

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *name = g_path_get_basename (samples[i]);
      g_autofree char *path = g_strdup_printf ("/gltf-niff/sample/%s", name);

      g_test_add_data_func (path, samples[i], test_sample);
    }
  g_test_add_func ("/gltf-niff/rings-materials", test_rings_materials);
  g_test_add_func ("/gltf-niff/dragon-materials", test_dragon_materials);
  g_test_add_func ("/gltf-niff/kirikobu-skin", test_kirikobu_skin);
  g_test_add_func ("/gltf-niff/unique-scale", test_unique_scale);
  g_test_add_func ("/gltf-niff/zero-scale", test_zero_scale);
  g_test_add_func ("/gltf-niff/still", test_still);
  g_test_add_func ("/gltf-niff/not-finite", test_not_finite);
  g_test_add_func ("/gltf-niff/progress", test_progress);
  g_test_add_func ("/gltf-niff/cli", test_cli);
  g_test_add_func ("/gltf-niff/cli-broken", test_cli_broken);
  return g_test_run ();
}
