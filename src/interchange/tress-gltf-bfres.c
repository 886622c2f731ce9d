/* tress-gltf-bfres.c: a BFRES model and its skeletal animations as glTF 2.0
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-gltf-bfres-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "core/tress-error.h"
#include "core/tress-progress.h"
#include "formats/bfres/tress-bfres-scene.h"
#include "formats/tress-format.h"

#define NOTE_NAMES 8

static void note (Export *e, const char *format, ...) G_GNUC_PRINTF (2, 3);

static void
note (Export *e, const char *format, ...)
{
  va_list args;

  if (e->notes == NULL)
    return;
  va_start (args, format);
  g_ptr_array_add (e->notes, g_strdup_vprintf (format, args));
  va_end (args);
}

static const char *
scaling_name (TressBfresScaling scaling)
{
  static const char *const names[] = { "none", "standard", "Maya", "Softimage" };

  return names[scaling & 3];
}

static const char *
rotation_name (TressBfresRotation rotation)
{
  return rotation == TRESS_BFRES_ROTATION_QUATERNION ? "quaternion" : "Euler XYZ";
}

static JsonArray *
doubles_array (const double *v, guint n)
{
  JsonArray *a = json_array_new ();

  for (guint i = 0; i < n; i++)
    json_array_add_double_element (a, isfinite (v[i]) ? v[i] : 0);
  return a;
}

/* {"bfres": {…}} for an object's "extras". */
static JsonObject *
extras_of (JsonObject *object)
{
  JsonObject *extras = json_object_new (), *bfres = json_object_new ();

  json_object_set_object_member (extras, "bfres", bfres);
  json_object_set_object_member (object, "extras", extras);
  return bfres;
}

/* Sets TRS members from @trs (as floats: the quaternion normalized again
 * where float rounding moved it). */
static void
set_trs (JsonObject *node, const TressGltfTrs *trs)
{
  double t[3], r[4], s[3], n = 0;

  for (guint k = 0; k < 3; k++)
    {
      t[k] = (float)trs->translation[k];
      s[k] = (float)trs->scale[k];
    }
  for (guint k = 0; k < 4; k++)
    {
      r[k] = (float)trs->rotation[k];
      n += r[k] * r[k];
    }
  if (!(n > 0) || !isfinite (n))
    r[0] = r[1] = r[2] = 0, r[3] = 1;
  json_object_set_array_member (node, "translation", doubles_array (t, 3));
  json_object_set_array_member (node, "rotation", doubles_array (r, 4));
  json_object_set_array_member (node, "scale", doubles_array (s, 3));
}

/* ---- skeleton and skin ---------------------------------------------------- */

static void
add_skeleton (Export *e)
{
  const TressBfresSkeleton *sk = &e->model->skeleton;
  g_autofree TressBfresSrt *srt = g_new0 (TressBfresSrt, sk->n_bones + 1);
  g_autofree TressGltfTrs *trs = g_new0 (TressGltfTrs, sk->n_bones + 1);
  g_autofree float *ibm = g_new0 (float, 16 * (gsize)sk->n_bones + 16);
  TressBfresScaling scaling;
  JsonObject *skin;
  JsonArray *joints;
  int root = -1;
  guint n_roots = 0, approximated;

  scaling = tress_bfres_animator_pose_srt (e->animator, -1, 0, NULL, NULL, srt);
  tress_bfres_pose_world (sk, srt, scaling, e->bind_world);
  approximated = tress_gltf_bfres_trs (sk, srt, scaling, trs);
  if (approximated > 0)
    note (e,
          "bind pose: %u bones sit under a non-uniform scale with %s scaling, a shear glTF "
          "cannot hold; their nodes are placed exactly with the nearest axes",
          approximated, scaling_name (scaling));
  for (guint i = 0; i < sk->n_bones; i++)
    {
      const TressBfresBone *b = &sk->bones[i];
      JsonObject *node = json_object_new (), *x;
      JsonArray *children = json_array_new ();

      json_object_set_string_member (node, "name", b->name);
      set_trs (node, &trs[i]);
      for (guint c = 0; c < sk->n_bones; c++)
        if (sk->bones[c].parent == (int)i && c != i)
          json_array_add_int_element (children, c);
      if (json_array_get_length (children) > 0)
        json_object_set_array_member (node, "children", children);
      else
        json_array_unref (children);
      x = extras_of (node);
      json_object_set_string_member (x, "bone", b->name);
      json_object_set_int_member (x, "index", i);
      tress_gltf_writer_add (e->writer, "nodes", node);
      if (b->parent < 0 || (guint)b->parent >= sk->n_bones || b->parent == (int)i)
        {
          root = (int)i;
          n_roots++;
        }
    }

  /* Inverse bind matrices (column-major): the model's where it has them. */
  for (guint i = 0; i < sk->n_bones; i++)
    {
      const TressBfresBone *b = &sk->bones[i];
      TressBfresMatrix inv;

      if (b->smooth_matrix >= 0 && (guint)b->smooth_matrix < sk->n_smooth)
        tress_bfres_matrix_from_3x4 (sk->inverse_model + 12 * b->smooth_matrix, &inv);
      else
        tress_bfres_matrix_invert (&e->bind_world[i], &inv);
      for (guint c = 0; c < 4; c++)
        for (guint r = 0; r < 3; r++)
          ibm[16 * i + 4 * c + r] = (float)inv.m[r][c];
      ibm[16 * i + 15] = 1;
    }
  skin = json_object_new ();
  joints = json_array_new ();
  for (guint i = 0; i < sk->n_bones; i++)
    json_array_add_int_element (joints, i);
  json_object_set_string_member (skin, "name", e->model->name);
  json_object_set_array_member (skin, "joints", joints);
  json_object_set_int_member (skin, "inverseBindMatrices",
                              tress_gltf_writer_add_accessor (e->writer, ibm, TRESS_GLTF_FLOAT,
                                                              TRESS_GLTF_MAT4, sk->n_bones, 0,
                                                              FALSE));
  if (n_roots == 1)
    json_object_set_int_member (skin, "skeleton", root);
  tress_gltf_writer_add (e->writer, "skins", skin);
}

/* ---- meshes ---------------------------------------------------------------- */

/* p' = M · p (point) or the normal transformed by M's inverse transpose. */
static void
transform (const TressBfresMatrix *m, const TressBfresMatrix *normal_m, float *p, float *n)
{
  double v[3];

  for (guint r = 0; r < 3; r++)
    v[r] = m->m[r][0] * p[0] + m->m[r][1] * p[1] + m->m[r][2] * p[2] + m->m[r][3];
  for (guint r = 0; r < 3; r++)
    p[r] = (float)v[r];
  if (n == NULL)
    return;
  /* (M⁻¹)ᵀ · n: column r of the inverse. */
  for (guint r = 0; r < 3; r++)
    v[r] = normal_m->m[0][r] * n[0] + normal_m->m[1][r] * n[1] + normal_m->m[2][r] * n[2];
  for (guint r = 0; r < 3; r++)
    n[r] = (float)v[r];
}

static void
normalize3 (float *n)
{
  double l = sqrt ((double)n[0] * n[0] + (double)n[1] * n[1] + (double)n[2] * n[2]);

  if (!(l > 1e-12) || !isfinite (l))
    {
      n[0] = n[1] = 0;
      n[2] = 1;
      return;
    }
  for (guint k = 0; k < 3; k++)
    n[k] = (float)(n[k] / l);
}

/* The bone a skinning matrix index names, or −1. */
static int
matrix_bone (const TressBfresSkeleton *sk, guint matrix)
{
  if (matrix >= sk->n_smooth + sk->n_rigid)
    return -1;
  if (sk->matrix_to_bone[matrix] >= sk->n_bones)
    return -1;
  return sk->matrix_to_bone[matrix];
}

/* Up to four influences of vertex @v of @s (bone, weight), merged by bone,
 * normalized to a float sum of 1; *rigid gets the bone whose space the
 * vertex is in (rigid and unskinned shapes), else −1. Returns the count, 0
 * when the vertex names no bone. */
static guint
influences (const TressBfresSkeleton *sk, const TressBfresShape *s,
            const TressBfresVertexBuffer *vb, guint v, guint16 joints[4], float weights[4],
            int *rigid)
{
  int bone[4];
  double w[4], sum = 0;
  guint n = 0, big = 0;
  float rest = 0;

  *rigid = -1;
  if (s->skin_count == 0 || vb->skin_indices == NULL)
    {
      if (s->bone >= sk->n_bones)
        return 0;
      bone[n] = s->bone, w[n++] = 1;
      *rigid = s->bone;
    }
  else if (s->skin_count == 1)
    {
      int b = matrix_bone (sk, vb->skin_indices[4 * (gsize)v]);

      if (b < 0)
        return 0;
      bone[n] = b, w[n++] = 1;
      *rigid = b;
    }
  else
    for (guint k = 0; k < MIN (s->skin_count, 4); k++)
      {
        double wk = vb->skin_weights[4 * (gsize)v + k];
        int b = matrix_bone (sk, vb->skin_indices[4 * (gsize)v + k]);
        guint j;

        if (!(wk > 0) || !isfinite (wk) || b < 0)
          continue;
        for (j = 0; j < n && bone[j] != b; j++)
          ;
        if (j == n)
          bone[n] = b, w[n++] = 0;
        w[j] += wk;
      }
  for (guint k = 0; k < n; k++)
    sum += w[k];
  if (n == 0 || !(sum > 0))
    return 0;
  for (guint k = 0; k < 4; k++)
    {
      joints[k] = k < n ? (guint16)bone[k] : 0;
      weights[k] = k < n ? (float)(w[k] / sum) : 0;
      if (k < n && weights[k] > weights[big])
        big = k;
    }
  /* The largest takes what float rounding left over. */
  for (guint k = 0; k < n; k++)
    if (k != big)
      rest += weights[k];
  weights[big] = 1 - rest;
  return n;
}

static int
material_of (Export *e, guint index)
{
  JsonObject *m, *pbr, *x;

  if (index >= e->model->n_materials)
    return -1;
  if (e->material[index] >= 0)
    return e->material[index];
  m = json_object_new ();
  pbr = json_object_new ();
  json_object_set_string_member (m, "name", e->model->materials[index]);
  json_object_set_double_member (pbr, "metallicFactor", 0);
  json_object_set_double_member (pbr, "roughnessFactor", 1);
  json_object_set_object_member (m, "pbrMetallicRoughness", pbr);
  x = extras_of (m);
  json_object_set_string_member (x, "material", e->model->materials[index]);
  json_object_set_int_member (x, "index", index);
  e->material[index] = (int)tress_gltf_writer_add (e->writer, "materials", m);
  return e->material[index];
}

/* The mesh of shape @si and its node; FALSE when it has nothing to draw. */
static gboolean
add_shape (Export *e, guint si, JsonArray *scene_nodes, guint *unbound)
{
  const TressBfresModel *m = e->model;
  const TressBfresSkeleton *sk = &m->skeleton;
  const TressBfresShape *s = &m->shapes[si];
  const TressBfresVertexBuffer *vb;
  const TressBfresMesh *lod;
  guint nv;
  g_autofree float *pos = NULL, *nrm = NULL, *wts = NULL;
  g_autofree guint16 *jnt = NULL;
  g_autofree TressBfresMatrix *normal_m = NULL;
  JsonObject *mesh, *prim, *attrs, *node, *x;
  JsonArray *prims;
  gboolean skinned = sk->n_bones > 0;
  int material;

  if (s->vertex_buffer >= m->n_vertex_buffers || s->n_meshes == 0)
    return FALSE;
  vb = &m->vertex_buffers[s->vertex_buffer];
  lod = &s->meshes[0];
  nv = vb->n_vertices;
  if (nv == 0 || lod->n_triangles == 0 || vb->positions == NULL)
    return FALSE;

  pos = g_memdup2 (vb->positions, 3 * sizeof (float) * nv);
  if (vb->normals != NULL)
    nrm = g_memdup2 (vb->normals, 3 * sizeof (float) * nv);
  if (skinned)
    {
      jnt = g_new0 (guint16, 4 * (gsize)nv);
      wts = g_new0 (float, 4 * (gsize)nv);
      normal_m = g_new0 (TressBfresMatrix, sk->n_bones + 1);
      for (guint b = 0; b < sk->n_bones; b++)
        tress_bfres_matrix_invert (&e->bind_world[b], &normal_m[b]);
    }
  for (guint v = 0; skinned && v < nv; v++)
    {
      int rigid;

      if (influences (sk, s, vb, v, jnt + 4 * (gsize)v, wts + 4 * (gsize)v, &rigid) == 0)
        {
          /* Bound to the shape's bone (else the first), where it stands. */
          jnt[4 * (gsize)v] = s->bone < sk->n_bones ? s->bone : 0;
          wts[4 * (gsize)v] = 1;
          (*unbound)++;
        }
      else if (rigid >= 0)
        /* Rigid and unskinned vertices are in their bone's space: to model space. */
        transform (&e->bind_world[rigid], &normal_m[rigid], pos + 3 * (gsize)v,
                   nrm != NULL ? nrm + 3 * (gsize)v : NULL);
    }
  for (guint v = 0; nrm != NULL && v < nv; v++)
    normalize3 (nrm + 3 * (gsize)v);

  attrs = json_object_new ();
  json_object_set_int_member (attrs, "POSITION",
                              tress_gltf_writer_add_accessor (e->writer, pos, TRESS_GLTF_FLOAT,
                                                              TRESS_GLTF_VEC3, nv,
                                                              TRESS_GLTF_ARRAY_BUFFER, TRUE));
  if (nrm != NULL)
    json_object_set_int_member (attrs, "NORMAL",
                                tress_gltf_writer_add_accessor (e->writer, nrm, TRESS_GLTF_FLOAT,
                                                                TRESS_GLTF_VEC3, nv,
                                                                TRESS_GLTF_ARRAY_BUFFER, FALSE));
  if (vb->uvs != NULL)
    json_object_set_int_member (
        attrs, "TEXCOORD_0",
        tress_gltf_writer_add_accessor (e->writer, vb->uvs, TRESS_GLTF_FLOAT, TRESS_GLTF_VEC2, nv,
                                        TRESS_GLTF_ARRAY_BUFFER, FALSE));
  if (skinned)
    {
      json_object_set_int_member (
          attrs, "JOINTS_0",
          tress_gltf_writer_add_accessor (e->writer, jnt, TRESS_GLTF_UNSIGNED_SHORT,
                                          TRESS_GLTF_VEC4, nv, TRESS_GLTF_ARRAY_BUFFER, FALSE));
      json_object_set_int_member (attrs, "WEIGHTS_0",
                                  tress_gltf_writer_add_accessor (e->writer, wts, TRESS_GLTF_FLOAT,
                                                                  TRESS_GLTF_VEC4, nv,
                                                                  TRESS_GLTF_ARRAY_BUFFER, FALSE));
    }
  prim = json_object_new ();
  json_object_set_object_member (prim, "attributes", attrs);
  if (nv <= G_MAXUINT16)
    {
      g_autofree guint16 *idx = g_new (guint16, 3 * (gsize)lod->n_triangles);

      for (gsize i = 0; i < 3 * (gsize)lod->n_triangles; i++)
        idx[i] = (guint16)lod->triangles[i];
      json_object_set_int_member (
          prim, "indices",
          tress_gltf_writer_add_accessor (e->writer, idx, TRESS_GLTF_UNSIGNED_SHORT,
                                          TRESS_GLTF_SCALAR, 3 * (gsize)lod->n_triangles,
                                          TRESS_GLTF_ELEMENT_ARRAY_BUFFER, FALSE));
    }
  else
    json_object_set_int_member (
        prim, "indices",
        tress_gltf_writer_add_accessor (e->writer, lod->triangles, TRESS_GLTF_UNSIGNED_INT,
                                        TRESS_GLTF_SCALAR, 3 * (gsize)lod->n_triangles,
                                        TRESS_GLTF_ELEMENT_ARRAY_BUFFER, FALSE));
  material = material_of (e, s->material);
  if (material >= 0)
    json_object_set_int_member (prim, "material", material);
  json_object_set_int_member (prim, "mode", 4);
  prims = json_array_new ();
  json_array_add_object_element (prims, prim);
  mesh = json_object_new ();
  json_object_set_string_member (mesh, "name", s->name);
  json_object_set_array_member (mesh, "primitives", prims);
  x = extras_of (mesh);
  json_object_set_string_member (x, "shape", s->name);
  json_object_set_int_member (x, "index", si);
  if (s->material < m->n_materials)
    json_object_set_string_member (x, "material", m->materials[s->material]);
  json_object_set_int_member (x, "skinCount", s->skin_count);

  node = json_object_new ();
  json_object_set_string_member (node, "name", s->name);
  json_object_set_int_member (node, "mesh", tress_gltf_writer_add (e->writer, "meshes", mesh));
  if (skinned)
    json_object_set_int_member (node, "skin", 0);
  json_array_add_int_element (scene_nodes, tress_gltf_writer_add (e->writer, "nodes", node));
  return TRUE;
}

static void
add_meshes (Export *e, JsonArray *scene_nodes)
{
  const TressBfresModel *m = e->model;
  g_autoptr (GPtrArray) skipped = g_ptr_array_new ();
  guint unbound = 0, more_lods = 0;

  for (guint i = 0; i < m->n_shapes; i++)
    {
      if (!add_shape (e, i, scene_nodes, &unbound))
        g_ptr_array_add (skipped, m->shapes[i].name);
      else if (m->shapes[i].n_meshes > 1)
        more_lods++;
    }
  if (m->n_shapes == 0)
    note (e, "model %s has no shapes: the skeleton only, no mesh", m->name);
  for (guint i = 0; i < skipped->len; i++)
    note (e,
          "shape %s: no triangles to export (empty, or a GX2 primitive type other than "
          "triangles, strips and fans)",
          (const char *)skipped->pdata[i]);
  if (more_lods > 0)
    note (e, "%u shapes have further levels of detail: only the most detailed is exported",
          more_lods);
  if (unbound > 0)
    note (e,
          "%u vertices name no bone of the skeleton (or only zero weights): bound to their "
          "shape's bone as they stand",
          unbound);
}

/* ---- animations ------------------------------------------------------------ */

static gboolean
add_animation (Export *e, guint k, GError **error)
{
  const TressBfresSkeletalAnim *sa = &e->anims->skeletal[k];
  const TressBfresSkeleton *sk = &e->model->skeleton;
  guint nb = sk->n_bones;
  double frame_count = MAX (sa->frame_count, 0);
  g_autoptr (GArray) frames = NULL;
  g_autofree TressBfresSrt *srt = g_new0 (TressBfresSrt, nb + 1);
  g_autofree TressGltfTrs *trs = g_new0 (TressGltfTrs, nb + 1);
  g_autofree float *times = NULL, *t = NULL, *r = NULL, *s = NULL;
  JsonObject *extras, *x;
  guint input, ns, approximated = 0;

  if ((frame_count + 1) * nb > (double)e->samples_left)
    {
      note (e,
            "“%s”: %.0f frames × %u bones pass the export's budget of %u bone samples; not "
            "exported",
            sa->name, frame_count + 1, nb, TRESS_GLTF_BFRES_MAX_SAMPLES);
      return TRUE;
    }
  frames = tress_gltf_bfres_sample_frames (e, k, frame_count);
  ns = frames->len;
  if ((guint64)ns * nb > e->samples_left)
    {
      note (e,
            "“%s”: %u samples × %u bones pass the export's budget of %u bone samples; not "
            "exported",
            sa->name, ns, nb, TRESS_GLTF_BFRES_MAX_SAMPLES);
      return TRUE;
    }
  e->samples_left -= (guint64)ns * nb;
  times = g_new (float, ns);
  t = g_new (float, 3 * (gsize)ns * nb);
  r = g_new (float, 4 * (gsize)ns * nb);
  s = g_new (float, 3 * (gsize)ns * nb);
  for (guint f = 0; f < ns; f++)
    {
      double frame = g_array_index (frames, double, f);
      TressBfresScaling scaling;

      times[f] = (float)(frame / e->fps);
      scaling = tress_bfres_animator_pose_srt (e->animator, (int)k, frame,
                                               tress_gltf_bfres_sample_curve, e->bfres, srt);
      approximated = MAX (approximated, tress_gltf_bfres_trs (sk, srt, scaling, trs));
      for (guint b = 0; b < nb; b++)
        {
          gsize at = (gsize)b * ns + f;
          float *q = r + 4 * at;
          double dot = 0;

          for (guint c = 0; c < 3; c++)
            {
              t[3 * at + c] = (float)trs[b].translation[c];
              s[3 * at + c] = (float)trs[b].scale[c];
            }
          for (guint c = 0; c < 4; c++)
            {
              q[c] = (float)trs[b].rotation[c];
              if (f > 0)
                dot += (double)q[c] * (q - 4)[c];
            }
          /* Sign-continuous: the short way to the next sample. */
          if (dot < 0)
            for (guint c = 0; c < 4; c++)
              q[c] = -q[c];
        }
      /* Progress counts whole frames (the total the phase announced). */
      if (frame == floor (frame) && !tress_progress_advance (nb, error))
        return FALSE;
    }

  tress_gltf_writer_begin_animation (e->writer, sa->name);
  tress_gltf_writer_begin_view (e->writer, 0);
  input = tress_gltf_writer_add_accessor (e->writer, times, TRESS_GLTF_FLOAT, TRESS_GLTF_SCALAR, ns,
                                          0, TRUE);
  for (guint b = 0; b < nb; b++)
    {
      static const char *const paths[] = { "translation", "rotation", "scale" };
      const float *data[] = { t + 3 * (gsize)b * ns, r + 4 * (gsize)b * ns, s + 3 * (gsize)b * ns };
      static const TressGltfType types[] = { TRESS_GLTF_VEC3, TRESS_GLTF_VEC4, TRESS_GLTF_VEC3 };

      for (guint p = 0; p < 3; p++)
        tress_gltf_writer_add_channel (e->writer, input,
                                       tress_gltf_writer_add_accessor (e->writer, data[p],
                                                                       TRESS_GLTF_FLOAT, types[p],
                                                                       ns, 0, FALSE),
                                       b, paths[p], "LINEAR");
    }
  tress_gltf_writer_end_view (e->writer);
  x = json_object_new ();
  extras = json_object_new ();
  json_object_set_object_member (extras, "bfres", x);
  json_object_set_string_member (x, "name", sa->name);
  json_object_set_int_member (x, "frameCount", sa->frame_count);
  json_object_set_boolean_member (x, "loop", sa->loops);
  json_object_set_double_member (x, "fps", e->fps);
  json_object_set_string_member (x, "scaling", scaling_name (sa->scaling));
  json_object_set_string_member (x, "rotation", rotation_name (sa->rotation_mode));
  json_object_set_int_member (x, "samples", ns);
  tress_gltf_writer_end_animation (e->writer, extras);

  if (e->animator->anim_notes[k] != NULL)
    note (e, "“%s”: %s; their curves are not exported", sa->name, e->animator->anim_notes[k]);
  if (approximated > 0)
    note (e,
          "“%s”: up to %u bones sit under a non-uniform scale with %s scaling, a shear glTF "
          "cannot hold; they are placed exactly with the nearest axes",
          sa->name, approximated, scaling_name (sa->scaling));
  return TRUE;
}

/* The skeletal animation (index into anims->skeletal) that is the file's
 * animation @index, or −1 with an error. */
static int
skeletal_of (Export *e, guint index, GError **error)
{
  TressBfresAnimInfo info;
  guint n = tress_bfres_get_n_anims (e->bfres);
  int k = 0;

  if (!tress_bfres_get_anim_info (e->bfres, index, &info))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, "No animation %u (the file has %u)",
                   index, n);
      return -1;
    }
  if (g_strcmp0 (info.kind, "Skeletal") != 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED,
                   "“%s” is a %s animation: glTF carries skeletal ones", info.name, info.kind);
      return -1;
    }
  /* The skeletal animations come in the file's order in both lists. */
  for (guint i = 0; i < index; i++)
    {
      TressBfresAnimInfo other;

      if (tress_bfres_get_anim_info (e->bfres, i, &other)
          && g_strcmp0 (other.kind, "Skeletal") == 0)
        k++;
    }
  if ((guint)k >= e->anims->n_skeletal || g_strcmp0 (e->anims->skeletal[k].name, info.name) != 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED,
                   "The skeletal animation “%s” could not be read for posing", info.name);
      return -1;
    }
  return k;
}

/* Lists the file's animations glTF has no place for. */
static void
note_other_anims (Export *e)
{
  guint n = tress_bfres_get_n_anims (e->bfres);

  for (guint i = 0; i < n; i++)
    {
      TressBfresAnimInfo info;
      g_autofree char *kind = NULL;

      if (!tress_bfres_get_anim_info (e->bfres, i, &info) || g_strcmp0 (info.kind, "Skeletal") == 0)
        continue;
      kind = g_ascii_strdown (info.kind, -1);
      note (e, "“%s”: a %s animation (%u curve%s): glTF has no place for it; not exported",
            info.name, kind, info.n_curves, info.n_curves == 1 ? "" : "s");
    }
}

/* The models of @fres besides the one exported. */
static void
note_other_models (Export *e, GBytes *fres, const char *source)
{
  gsize size;
  const guint8 *d = g_bytes_get_data (fres, &size);
  g_autoptr (TressBfresModels) models = tress_bfres_models_parse (d, size, NULL);
  g_autoptr (GString) names = g_string_new (NULL);
  guint n = 0;

  for (guint i = 0; models != NULL && i < models->n_models; i++)
    if (g_strcmp0 (models->models[i].name, e->model->name) != 0)
      {
        if (n < NOTE_NAMES)
          g_string_append_printf (names, "%s%s", n ? ", " : "", models->models[i].name);
        n++;
      }
  if (n > NOTE_NAMES)
    g_string_append_printf (names, " and %u more", n - NOTE_NAMES);
  if (n > 0)
    note (e,
          "%s holds %u more model%s (%s): only %s, the one the animations fit best, is "
          "exported",
          source, n, n == 1 ? "" : "s", names->str, e->model->name);
}

TressGltfWriter *
tress_gltf_bfres_export (TressBfres *bfres, GBytes *model_fres, const char *source,
                         const TressGltfBfresOptions *options, GPtrArray *notes, GError **error)
{
  g_autoptr (TressSceneAnimator) animator = NULL;
  g_autoptr (TressGltfWriter) writer = NULL;
  g_autofree TressBfresMatrix *bind_world = NULL;
  g_autofree int *material = NULL;
  g_autofree guint *chosen = NULL;
  g_autofree char *generator = g_strdup_printf ("Tress %s", TRESS_VERSION);
  Export e = { 0 };
  JsonObject *scene, *x;
  JsonArray *scene_nodes;
  guint n_chosen = 0;
  guint64 total = 0;

  animator = tress_bfres_animator_new (bfres, model_fres, source, error);
  if (animator == NULL)
    return NULL;
  e.bfres = bfres;
  e.animator = animator;
  e.model = tress_bfres_animator_get_model (animator);
  e.anims = tress_bfres_animator_get_anims (animator);
  e.notes = notes;
  e.fps = options != NULL && options->fps > 0 ? options->fps : TRESS_GLTF_BFRES_DEFAULT_FPS;
  e.samples_left = TRESS_GLTF_BFRES_MAX_SAMPLES;
  if (!isfinite (e.fps))
    e.fps = TRESS_GLTF_BFRES_DEFAULT_FPS;

  /* Which skeletal animations. */
  if (options != NULL && options->anims != NULL)
    {
      chosen = g_new0 (guint, options->n_anims + 1);
      for (guint i = 0; i < options->n_anims; i++)
        {
          int k = skeletal_of (&e, options->anims[i], error);
          gboolean twice = FALSE;

          if (k < 0)
            return NULL;
          for (guint j = 0; j < n_chosen; j++)
            twice |= chosen[j] == (guint)k;
          if (!twice)
            chosen[n_chosen++] = (guint)k;
        }
    }
  else
    {
      chosen = g_new0 (guint, e.anims->n_skeletal + 1);
      for (guint k = 0; k < e.anims->n_skeletal; k++)
        chosen[n_chosen++] = k;
    }

  writer = tress_gltf_writer_new (generator);
  e.writer = writer;
  bind_world = g_new0 (TressBfresMatrix, e.model->skeleton.n_bones + 1);
  material = g_new (int, e.model->n_materials + 1);
  for (guint i = 0; i < e.model->n_materials; i++)
    material[i] = -1;
  e.bind_world = bind_world;
  e.material = material;

  scene = json_object_new ();
  scene_nodes = json_array_new ();
  json_object_set_string_member (scene, "name", e.model->name);
  if (e.model->skeleton.n_bones > 0)
    add_skeleton (&e);
  for (guint i = 0; i < e.model->skeleton.n_bones; i++)
    {
      int p = e.model->skeleton.bones[i].parent;

      if (p < 0 || (guint)p >= e.model->skeleton.n_bones || p == (int)i)
        json_array_add_int_element (scene_nodes, i);
    }
  add_meshes (&e, scene_nodes);
  if (json_array_get_length (scene_nodes) > 0)
    json_object_set_array_member (scene, "nodes", scene_nodes);
  else
    json_array_unref (scene_nodes);
  x = extras_of (scene);
  json_object_set_string_member (x, "model", e.model->name);
  json_object_set_string_member (x, "source", source);
  json_object_set_string_member (x, "scaling", scaling_name (e.model->skeleton.scaling));
  json_object_set_string_member (x, "rotation", rotation_name (e.model->skeleton.rotation_mode));
  json_object_set_int_member (tress_gltf_writer_get_root (writer), "scene",
                              tress_gltf_writer_add (writer, "scenes", scene));

  for (guint i = 0; i < n_chosen; i++)
    total += ((guint64)MAX (e.anims->skeletal[chosen[i]].frame_count, 0) + 1)
             * e.model->skeleton.n_bones;
  /* TRANSLATORS: a phase of exporting a file, shown with a progress bar */
  tress_progress_phase (N_ ("Exporting animations"), total, TRESS_PROGRESS_ENTRIES);
  if (e.model->skeleton.n_bones == 0 && n_chosen > 0)
    note (&e, "model %s has no bones: no animation is exported", e.model->name);
  for (guint i = 0; i < n_chosen && e.model->skeleton.n_bones > 0; i++)
    if (!add_animation (&e, chosen[i], error))
      return NULL;
  note_other_anims (&e);
  note_other_models (&e, model_fres, source);
  if (tress_gltf_writer_get_n_non_finite (writer) > 0)
    note (&e, "%" G_GUINT64_FORMAT " values that were not finite numbers are written as 0",
          tress_gltf_writer_get_n_non_finite (writer));
  return g_steal_pointer (&writer);
}
