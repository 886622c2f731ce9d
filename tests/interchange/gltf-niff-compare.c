/* gltf-niff-compare.c: the NIFF glTF tests' view of the preview and of the file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "gltf-niff-compare.h"

#include <math.h>
#include <string.h>

/* ---- the preview ---------------------------------------------------------------- */

static double
preview_sample (gpointer data, guint curve, double frame)
{
  Preview *p = data;

  return tress_curve_evaluate (p->curves[curve], frame);
}

void
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

void
preview_clear (Preview *p)
{
  for (guint c = 0; c < p->n_curves; c++)
    tress_curve_unref (p->curves[c]);
  g_free (p->curves);
  tress_scene_animator_free (p->animator);
}

void
preview_pose (Preview *p, double frame)
{
  const guint anim = 0;

  tress_scene_animator_pose (p->animator, &anim, 1, frame, preview_sample, p);
}

void
m4_from_graphene (const graphene_matrix_t *g, M4 *out)
{
  /* graphene's row vectors: row r of it is column r here. */
  for (guint r = 0; r < 4; r++)
    for (guint c = 0; c < 4; c++)
      out->m[r][c] = graphene_matrix_get_value (g, c, r);
}

/* ---- the file ---------------------------------------------------------------------- */

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
GArray *
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

void
tracks_free (GArray *tracks)
{
  for (guint i = 0; i < tracks->len; i++)
    g_free (g_array_index (tracks, Track, i).out);
  g_array_unref (tracks);
}

/* Every node's glTF world matrix at sample @i of @tracks (−1: the nodes' own transforms). */
void
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
void
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
GArray *
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
GArray *
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
void
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

/* Node names listed by the note about nodes placed with the nearest axes. */
gboolean
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
gboolean
has_note (GPtrArray *notes, const char *words)
{
  for (guint i = 0; i < notes->len; i++)
    if (strstr (notes->pdata[i], words) != NULL)
      return TRUE;
  return FALSE;
}

/* ---- exporting ---------------------------------------------------------------- */

GBytes *
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

JsonObject *
niff_extras (JsonObject *o)
{
  return json_object_get_object_member (json_object_get_object_member (o, "extras"), "niff");
}

guint
find_node (Gltf *g, const char *name)
{
  for (guint i = 0; i < gltf_count (g, "nodes"); i++)
    if (g_strcmp0 (json_object_get_string_member (gltf_get (g, "nodes", i), "name"), name) == 0)
      return i;
  g_assert_not_reached ();
  return 0;
}
