/* tress-gltf-objects.c: glTF nodes, skins and animations, and their poses
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-gltf-reader-private.h"

#include <math.h>
#include <string.h>

#define FLOAT 5126
/* An affine matrix's last row, and a unit quaternion, within this. */
#define AFFINE_EPS 1e-4

/* ---- nodes ------------------------------------------------------------------ */

static void
quaternion_matrix (const double q[4], TressBfresMatrix *out)
{
  TressBfresSrt srt = { .rotation = { q[0], q[1], q[2], q[3] },
                        .rotation_mode = TRESS_BFRES_ROTATION_QUATERNION };

  tress_bfres_rotation_matrix (&srt, out);
}

static void
trs_matrix (const double t[3], const double q[4], const double s[3], TressBfresMatrix *out)
{
  quaternion_matrix (q, out);
  for (guint r = 0; r < 3; r++)
    {
      for (guint c = 0; c < 3; c++)
        out->m[r][c] *= s[c];
      out->m[r][3] = t[r];
    }
}

/* Column-major 4×4 @v (checked affine) as a matrix. */
static gboolean
affine_of (const double v[16], TressBfresMatrix *out)
{
  for (guint r = 0; r < 3; r++)
    for (guint c = 0; c < 4; c++)
      out->m[r][c] = v[4 * c + r];
  return fabs (v[3]) <= AFFINE_EPS && fabs (v[7]) <= AFFINE_EPS && fabs (v[11]) <= AFFINE_EPS
         && fabs (v[15] - 1) <= AFFINE_EPS;
}

static gboolean
normalize_quaternion (double q[4])
{
  double n = sqrt (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);

  if (!(n > 1e-12) || !isfinite (n))
    return FALSE;
  for (guint k = 0; k < 4; k++)
    q[k] /= n;
  return TRUE;
}

static gboolean
read_node (TressGltfDocument *doc, JsonObject *o, guint i, GError **error)
{
  TressGltfNode *node = &doc->nodes[i];
  g_autofree char *path = g_strdup_printf ("nodes[%u]", i);
  JsonNode *children = json_object_get_member (o, "children");
  const char *name;
  double m[16];

  node->scale[0] = node->scale[1] = node->scale[2] = 1;
  node->rotation[3] = 1;
  if (!reader_get_string (o, path, "name", &name, error)
      || !reader_get_numbers (o, path, "translation", 3, node->translation, error)
      || !reader_get_numbers (o, path, "rotation", 4, node->rotation, error)
      || !reader_get_numbers (o, path, "scale", 3, node->scale, error))
    return FALSE;
  node->name = g_strdup (name);
  if (!normalize_quaternion (node->rotation))
    return reader_member_error (error, path, "rotation",
                                "expected a unit quaternion, found (0, 0, 0, 0)");
  node->has_matrix = json_object_has_member (o, "matrix");
  if (node->has_matrix)
    {
      if (json_object_has_member (o, "translation") || json_object_has_member (o, "rotation")
          || json_object_has_member (o, "scale"))
        return reader_error (error, path, "has both a matrix and translation, rotation or scale");
      if (!reader_get_numbers (o, path, "matrix", 16, m, error))
        return FALSE;
      if (!affine_of (m, &node->matrix))
        return reader_member_error (
            error, path, "matrix",
            "expected an affine matrix (last row 0 0 0 1), found %g %g %g %g", m[3], m[7], m[11],
            m[15]);
    }
  else
    trs_matrix (node->translation, node->rotation, node->scale, &node->matrix);
  if (children == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (children))
    return reader_member_error (error, path, "children", "expected an array of node indices");
  node->n_children = json_array_get_length (json_node_get_array (children));
  node->children = g_new0 (guint, node->n_children + 1);
  for (guint k = 0; k < node->n_children; k++)
    {
      JsonNode *e = json_array_get_element (json_node_get_array (children), k);
      gint64 c;

      if (!JSON_NODE_HOLDS_VALUE (e) || json_node_get_value_type (e) != G_TYPE_INT64
          || (c = json_node_get_int (e)) < 0 || c >= (gint64)doc->n_nodes)
        {
          g_autofree char *found = reader_describe (e);
          return reader_element_error (error, path, "children", k,
                                       "expected an index into nodes (%u of them), found %s",
                                       doc->n_nodes, found);
        }
      if (c == (gint64)i)
        return reader_element_error (error, path, "children", k, "the node is its own child");
      if (doc->nodes[c].parent >= 0)
        return reader_element_error (
            error, path, "children", k,
            "node %" G_GINT64_FORMAT
            " is a child of node %d already (nodes form a forest: one parent "
            "each)",
            c, doc->nodes[c].parent);
      doc->nodes[c].parent = (int)i;
      node->children[k] = (guint)c;
    }
  return TRUE;
}

/* Orders the nodes so that each comes after its parent; an error on a
 * cycle (a node its own ancestor), naming a node of it. */
static gboolean
order_nodes (TressGltfDocument *doc, GError **error)
{
  GltfPrivate *p = GLTF_PRIV (doc);
  g_autofree guint8 *state = g_new0 (guint8, doc->n_nodes + 1); /* 1 walking, 2 placed */
  g_autofree guint *chain = g_new (guint, doc->n_nodes + 1);
  guint placed = 0;

  p->order = g_new (guint, doc->n_nodes + 1);
  for (guint i = 0; i < doc->n_nodes; i++)
    {
      guint n = 0;
      int at = (int)i;

      /* Up to a placed node or a root, then place the chain from the top. */
      while (at >= 0 && state[at] == 0)
        {
          state[at] = 1;
          chain[n++] = (guint)at;
          at = doc->nodes[at].parent;
        }
      if (at >= 0 && state[at] == 1)
        {
          g_autofree char *path = g_strdup_printf ("nodes[%d]", at);
          return reader_error (error, path,
                               "the node is its own ancestor (a cycle through its children)");
        }
      while (n > 0)
        {
          guint c = chain[--n];

          state[c] = 2;
          p->order[placed++] = c;
        }
    }
  return TRUE;
}

static gboolean
read_nodes (TressGltfDocument *doc, GError **error)
{
  JsonArray *a;

  if (!reader_get_objects (GLTF_PRIV (doc)->root, "nodes", &a, error))
    return FALSE;
  doc->n_nodes = a != NULL ? json_array_get_length (a) : 0;
  doc->nodes = g_new0 (TressGltfNode, doc->n_nodes + 1);
  for (guint i = 0; i < doc->n_nodes; i++)
    {
      doc->nodes[i].parent = -1;
      doc->nodes[i].rotation[3] = 1;
    }
  for (guint i = 0; i < doc->n_nodes; i++)
    if (!read_node (doc, reader_element (a, i), i, error))
      return FALSE;
  return order_nodes (doc, error);
}

/* ---- skins ------------------------------------------------------------------ */

static gboolean
read_skin (TressGltfDocument *doc, JsonObject *o, guint i, GError **error)
{
  TressGltfSkin *skin = &doc->skins[i];
  g_autofree char *path = g_strdup_printf ("skins[%u]", i);
  JsonNode *joints = json_object_get_member (o, "joints");
  g_autofree guint8 *seen = g_new0 (guint8, doc->n_nodes + 1);
  const char *name;
  int ibm;

  if (!reader_get_string (o, path, "name", &name, error)
      || !reader_get_index (o, path, "skeleton", doc->n_nodes, "nodes", FALSE, &skin->skeleton,
                            error)
      || !reader_get_index (o, path, "inverseBindMatrices", GLTF_PRIV (doc)->n_accessors,
                            "accessors", FALSE, &ibm, error))
    return FALSE;
  skin->name = g_strdup (name);
  if (joints == NULL || !JSON_NODE_HOLDS_ARRAY (joints)
      || json_array_get_length (json_node_get_array (joints)) == 0)
    return reader_member_error (error, path, "joints", "expected an array of node indices");
  skin->n_joints = json_array_get_length (json_node_get_array (joints));
  skin->joints = g_new0 (guint, skin->n_joints + 1);
  skin->inverse_bind = g_new0 (TressBfresMatrix, skin->n_joints + 1);
  for (guint k = 0; k < skin->n_joints; k++)
    {
      JsonNode *e = json_array_get_element (json_node_get_array (joints), k);
      gint64 j;

      if (!JSON_NODE_HOLDS_VALUE (e) || json_node_get_value_type (e) != G_TYPE_INT64
          || (j = json_node_get_int (e)) < 0 || j >= (gint64)doc->n_nodes)
        {
          g_autofree char *found = reader_describe (e);
          return reader_element_error (error, path, "joints", k,
                                       "expected an index into nodes (%u of them), found %s",
                                       doc->n_nodes, found);
        }
      if (seen[j]++)
        return reader_element_error (error, path, "joints", k,
                                     "node %" G_GINT64_FORMAT " is a joint twice", j);
      skin->joints[k] = (guint)j;
      tress_bfres_matrix_identity (&skin->inverse_bind[k]);
    }
  if (ibm >= 0)
    {
      g_autofree char *user = g_strconcat (path, ".inverseBindMatrices", NULL);
      const GltfAccessor *acc = reader_accessor (doc, (guint)ibm);
      const double *v;
      gsize count;
      guint comps;

      if (acc->n_components != 16 || acc->component_type != FLOAT)
        return reader_error (error, user, "accessors[%d]: expected MAT4 of FLOAT", ibm);
      if (acc->count < skin->n_joints)
        return reader_error (
            error, user, "accessors[%d]: expected a matrix per joint (%u), found %" G_GSIZE_FORMAT,
            ibm, skin->n_joints, acc->count);
      v = reader_read_accessor (doc, (guint)ibm, user, &count, &comps, error);
      if (v == NULL)
        return FALSE;
      for (guint k = 0; k < skin->n_joints; k++)
        if (!affine_of (v + 16 * k, &skin->inverse_bind[k]))
          return reader_error (
              error, user,
              "matrix %u: expected an affine matrix (last row 0 0 0 1), found %g %g "
              "%g %g",
              k, v[16 * k + 3], v[16 * k + 7], v[16 * k + 11], v[16 * k + 15]);
    }
  return TRUE;
}

/* ---- animations ------------------------------------------------------------- */

static const char *const target_names[] = { "translation", "rotation", "scale", "weights" };

static gboolean
read_sampler (TressGltfDocument *doc, JsonObject *o, const char *path, TressGltfSampler *s,
              GError **error)
{
  GltfPrivate *p = GLTF_PRIV (doc);
  const char *interp;
  int input, output;

  if (!reader_get_index (o, path, "input", p->n_accessors, "accessors", TRUE, &input, error)
      || !reader_get_index (o, path, "output", p->n_accessors, "accessors", TRUE, &output, error)
      || !reader_get_string (o, path, "interpolation", &interp, error))
    return FALSE;
  s->input = (guint)input;
  s->output = (guint)output;
  if (interp == NULL || g_str_equal (interp, "LINEAR"))
    s->interpolation = TRESS_GLTF_INTERP_LINEAR;
  else if (g_str_equal (interp, "STEP"))
    s->interpolation = TRESS_GLTF_INTERP_STEP;
  else if (g_str_equal (interp, "CUBICSPLINE"))
    s->interpolation = TRESS_GLTF_INTERP_CUBICSPLINE;
  else
    return reader_member_error (error, path, "interpolation",
                                "expected LINEAR, STEP or CUBICSPLINE, found \"%s\"", interp);
  return TRUE;
}

/* Decodes the keys of sampler @si of animation @a for a channel of @target. */
static gboolean
decode_sampler (TressGltfDocument *doc, guint a, guint si, TressGltfTarget target,
                const char *channel_path, GError **error)
{
  GltfPrivate *p = GLTF_PRIV (doc);
  TressGltfSampler *s = &doc->animations[a].samplers[si];
  g_autofree char *in_path = g_strdup_printf ("animations[%u].samplers[%u].input", a, si);
  g_autofree char *out_path = g_strdup_printf ("animations[%u].samplers[%u].output", a, si);
  const GltfAccessor *in = reader_accessor (doc, s->input), *out = reader_accessor (doc, s->output);
  guint want = target == TRESS_GLTF_TARGET_ROTATION ? 4 : 3;
  guint per_key = s->interpolation == TRESS_GLTF_INTERP_CUBICSPLINE ? 3 : 1;
  gboolean ok_type;
  gsize n, m;
  guint comps;

  if (s->decoded)
    {
      if (s->n_components != want)
        return reader_error (error, channel_path,
                             "path %s: samplers[%u] already serves a channel with %u components",
                             target_names[target], si, s->n_components);
      return TRUE;
    }
  if (in->n_components != 1 || in->component_type != FLOAT || in->normalized)
    return reader_error (error, in_path, "accessors[%u]: expected SCALAR FLOAT key times",
                         s->input);
  if (out->n_components != want || out->rows != want)
    return reader_error (error, out_path, "accessors[%u]: expected VEC%u values for the %s of %s",
                         s->output, want, target_names[target], channel_path);
  /* glTF allows normalized integers for rotations; KHR_mesh_quantization
   * integers for translations and scales too. */
  ok_type = out->component_type == FLOAT
            || (target == TRESS_GLTF_TARGET_ROTATION && out->normalized)
            || (target != TRESS_GLTF_TARGET_ROTATION && p->quantized);
  if (!ok_type)
    return reader_error (error, out_path, "accessors[%u]: %s%s components are not allowed for a %s",
                         s->output, out->normalized ? "normalized " : "",
                         reader_component_name (out->component_type), target_names[target]);
  if (s->interpolation == TRESS_GLTF_INTERP_CUBICSPLINE && in->count < 2)
    return reader_error (error, in_path,
                         "accessors[%u]: a CUBICSPLINE sampler needs two keys or more", s->input);
  if (out->count / per_key != in->count || out->count % per_key != 0)
    return reader_error (error, out_path,
                         "accessors[%u]: expected %s%" G_GSIZE_FORMAT
                         " values (one per key time of "
                         "accessors[%u]), found %" G_GSIZE_FORMAT,
                         s->output, per_key == 3 ? "3 × " : "", in->count, s->input, out->count);
  if (in->count > G_MAXUINT32)
    return reader_error (error, in_path, "accessors[%u]: too many keys", s->input);
  s->times = reader_read_accessor (doc, s->input, in_path, &n, &comps, error);
  if (s->times == NULL)
    return FALSE;
  for (gsize k = 0; k < n; k++)
    if (s->times[k] < 0 || (k > 0 && !(s->times[k] > s->times[k - 1])))
      return reader_error (error, in_path,
                           "accessors[%u]: key %" G_GSIZE_FORMAT
                           " at %.9g s: expected times from 0, "
                           "strictly increasing",
                           s->input, k, s->times[k]);
  s->values = reader_read_accessor (doc, s->output, out_path, &m, &comps, error);
  if (s->values == NULL)
    return FALSE;
  s->n_keys = (guint)n;
  s->n_components = want;
  s->decoded = TRUE;
  return TRUE;
}

static gboolean
read_animation (TressGltfDocument *doc, JsonObject *o, guint a, GError **error)
{
  TressGltfAnimation *anim = &doc->animations[a];
  g_autofree char *path = g_strdup_printf ("animations[%u]", a);
  g_autoptr (GHashTable) targets = g_hash_table_new (NULL, NULL);
  JsonNode *channels = json_object_get_member (o, "channels");
  JsonNode *samplers = json_object_get_member (o, "samplers");
  JsonArray *ca, *sa;
  const char *name;

  if (!reader_get_string (o, path, "name", &name, error))
    return FALSE;
  anim->name = g_strdup (name);
  if (channels == NULL || !JSON_NODE_HOLDS_ARRAY (channels)
      || json_array_get_length (json_node_get_array (channels)) == 0)
    return reader_member_error (error, path, "channels", "expected a non-empty array");
  if (samplers == NULL || !JSON_NODE_HOLDS_ARRAY (samplers)
      || json_array_get_length (json_node_get_array (samplers)) == 0)
    return reader_member_error (error, path, "samplers", "expected a non-empty array");
  ca = json_node_get_array (channels);
  sa = json_node_get_array (samplers);
  anim->n_samplers = json_array_get_length (sa);
  anim->samplers = g_new0 (TressGltfSampler, anim->n_samplers + 1);
  for (guint s = 0; s < anim->n_samplers; s++)
    {
      g_autofree char *spath = g_strdup_printf ("%s.samplers[%u]", path, s);

      if (!JSON_NODE_HOLDS_OBJECT (json_array_get_element (sa, s)))
        return reader_error (error, spath, "expected an object");
      if (!read_sampler (doc, json_array_get_object_element (sa, s), spath, &anim->samplers[s],
                         error))
        return FALSE;
    }
  anim->n_channels = json_array_get_length (ca);
  anim->channels = g_new0 (TressGltfChannel, anim->n_channels + 1);
  for (guint c = 0; c < anim->n_channels; c++)
    {
      g_autofree char *cpath = g_strdup_printf ("%s.channels[%u]", path, c);
      g_autofree char *tpath = g_strconcat (cpath, ".target", NULL);
      TressGltfChannel *ch = &anim->channels[c];
      JsonObject *co, *to;
      JsonNode *target;
      const char *target_path;
      int sampler;
      gpointer key;

      if (!JSON_NODE_HOLDS_OBJECT (json_array_get_element (ca, c)))
        return reader_error (error, cpath, "expected an object");
      co = json_array_get_object_element (ca, c);
      target = json_object_get_member (co, "target");
      if (!reader_get_index (co, cpath, "sampler", anim->n_samplers, "the animation's samplers",
                             TRUE, &sampler, error))
        return FALSE;
      if (target == NULL || !JSON_NODE_HOLDS_OBJECT (target))
        return reader_member_error (error, cpath, "target", "expected an object");
      to = json_node_get_object (target);
      if (!reader_get_index (to, tpath, "node", doc->n_nodes, "nodes", FALSE, &ch->node, error)
          || !reader_get_string (to, tpath, "path", &target_path, error))
        return FALSE;
      if (target_path == NULL)
        return reader_error (error, tpath, "path is missing");
      ch->sampler = (guint)sampler;
      ch->target = TRESS_GLTF_TARGET_OTHER;
      for (guint k = 0; k < G_N_ELEMENTS (target_names); k++)
        if (g_str_equal (target_path, target_names[k]))
          ch->target = (TressGltfTarget)k;
      if (ch->target > TRESS_GLTF_TARGET_SCALE || ch->node < 0)
        continue;
      if (doc->nodes[ch->node].has_matrix)
        return reader_error (error, tpath,
                             "node %d has a matrix; glTF animates nodes with translation, rotation "
                             "and scale only",
                             ch->node);
      key = GUINT_TO_POINTER (((guint)ch->node << 2 | ch->target) + 1);
      if (g_hash_table_contains (targets, key))
        return reader_error (error, tpath,
                             "the %s of node %d is animated by an earlier channel too",
                             target_names[ch->target], ch->node);
      g_hash_table_add (targets, key);
      if (!decode_sampler (doc, a, ch->sampler, ch->target, cpath, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
reader_read_objects (TressGltfDocument *doc, GError **error)
{
  GltfPrivate *p = GLTF_PRIV (doc);
  JsonArray *skins, *anims;

  if (!read_nodes (doc, error) || !reader_get_objects (p->root, "skins", &skins, error)
      || !reader_get_objects (p->root, "animations", &anims, error))
    return FALSE;
  doc->n_skins = skins != NULL ? json_array_get_length (skins) : 0;
  doc->skins = g_new0 (TressGltfSkin, doc->n_skins + 1);
  for (guint i = 0; i < doc->n_skins; i++)
    if (!read_skin (doc, reader_element (skins, i), i, error))
      return FALSE;
  doc->n_animations = anims != NULL ? json_array_get_length (anims) : 0;
  doc->animations = g_new0 (TressGltfAnimation, doc->n_animations + 1);
  for (guint i = 0; i < doc->n_animations; i++)
    if (!read_animation (doc, reader_element (anims, i), i, error))
      return FALSE;
  return TRUE;
}

void
reader_free_objects (TressGltfDocument *doc)
{
  for (guint i = 0; i < doc->n_nodes; i++)
    {
      g_free (doc->nodes[i].name);
      g_free (doc->nodes[i].children);
    }
  g_free (doc->nodes);
  for (guint i = 0; i < doc->n_skins; i++)
    {
      g_free (doc->skins[i].name);
      g_free (doc->skins[i].joints);
      g_free (doc->skins[i].inverse_bind);
    }
  g_free (doc->skins);
  for (guint i = 0; i < doc->n_animations; i++)
    {
      g_free (doc->animations[i].name);
      g_free (doc->animations[i].channels);
      g_free (doc->animations[i].samplers);
    }
  g_free (doc->animations);
  if (doc->priv != NULL)
    g_free (GLTF_PRIV (doc)->order);
}

/* ---- poses ------------------------------------------------------------------ */

int
tress_gltf_document_find_animation (const TressGltfDocument *doc, const char *name)
{
  for (guint i = 0; i < doc->n_animations; i++)
    if (g_strcmp0 (doc->animations[i].name, name) == 0)
      return (int)i;
  return -1;
}

double
tress_gltf_animation_get_end (const TressGltfAnimation *anim)
{
  double end = 0;

  for (guint c = 0; c < anim->n_channels; c++)
    {
      const TressGltfSampler *s = &anim->samplers[anim->channels[c].sampler];

      if (anim->channels[c].target <= TRESS_GLTF_TARGET_SCALE && anim->channels[c].node >= 0
          && s->decoded && s->n_keys > 0)
        end = MAX (end, s->times[s->n_keys - 1]);
    }
  return end;
}

/* Within a float's precision of a whole number of samples. */
#define SAMPLE_RATE_SLACK 1e-3

double
tress_gltf_animation_get_sample_rate (const TressGltfAnimation *anim)
{
  double step = G_MAXDOUBLE, rate;

  for (guint c = 0; c < anim->n_channels; c++)
    {
      const TressGltfSampler *s = &anim->samplers[anim->channels[c].sampler];

      if (anim->channels[c].target > TRESS_GLTF_TARGET_SCALE || anim->channels[c].node < 0
          || !s->decoded)
        continue;
      for (guint k = 1; k < s->n_keys; k++)
        step = MIN (step, s->times[k] - s->times[k - 1]);
    }
  if (step == G_MAXDOUBLE || !(step > 0))
    return 0;
  rate = 1 / step;
  if (fabs (rate - round (rate)) < SAMPLE_RATE_SLACK * rate)
    rate = round (rate);
  for (guint c = 0; c < anim->n_channels; c++)
    {
      const TressGltfSampler *s = &anim->samplers[anim->channels[c].sampler];

      if (anim->channels[c].target > TRESS_GLTF_TARGET_SCALE || anim->channels[c].node < 0
          || !s->decoded)
        continue;
      for (guint k = 0; k < s->n_keys; k++)
        if (fabs (s->times[k] * rate - round (s->times[k] * rate)) > SAMPLE_RATE_SLACK)
          return 0;
    }
  return rate;
}

static void
slerp (const double *a, const double *b, double u, double *out)
{
  double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  double sign = d < 0 ? -1 : 1, wa, wb;

  d = fabs (d);
  if (d > 1 - 1e-9)
    wa = 1 - u, wb = u;
  else
    {
      double theta = acos (MIN (d, 1.0)), s = sin (theta);

      wa = sin ((1 - u) * theta) / s;
      wb = sin (u * theta) / s;
    }
  for (guint k = 0; k < 4; k++)
    out[k] = wa * a[k] + sign * wb * b[k];
}

void
tress_gltf_sampler_evaluate (const TressGltfSampler *s, TressGltfTarget target, double t,
                             double *out)
{
  guint n = s->n_keys, k = s->n_components, lo = 0, hi;
  gboolean cubic = s->interpolation == TRESS_GLTF_INTERP_CUBICSPLINE;
  const double *v0, *v1;
  double d, u;

#define VALUE(i) (s->values + (cubic ? (3 * (gsize)(i) + 1) : (gsize)(i)) * k)
  if (n == 0)
    return;
  if (n == 1 || !(t > s->times[0]))
    memcpy (out, VALUE (0), k * sizeof (double));
  else if (t >= s->times[n - 1])
    memcpy (out, VALUE (n - 1), k * sizeof (double));
  else
    {
      /* The key lo with times[lo] ≤ t < times[lo + 1]. */
      hi = n - 1;
      while (hi - lo > 1)
        {
          guint mid = lo + (hi - lo) / 2;

          if (s->times[mid] <= t)
            lo = mid;
          else
            hi = mid;
        }
      d = s->times[lo + 1] - s->times[lo];
      u = (t - s->times[lo]) / d;
      v0 = VALUE (lo);
      v1 = VALUE (lo + 1);
      if (s->interpolation == TRESS_GLTF_INTERP_STEP)
        memcpy (out, v0, k * sizeof (double));
      else if (cubic)
        {
          const double *b0 = s->values + (3 * (gsize)lo + 2) * k; /* out-tangent of lo */
          const double *a1 = s->values + (3 * (gsize)lo + 3) * k; /* in-tangent of lo + 1 */
          double u2 = u * u, u3 = u2 * u;

          for (guint c = 0; c < k; c++)
            out[c] = (2 * u3 - 3 * u2 + 1) * v0[c] + (u3 - 2 * u2 + u) * d * b0[c]
                     + (-2 * u3 + 3 * u2) * v1[c] + (u3 - u2) * d * a1[c];
        }
      else if (target == TRESS_GLTF_TARGET_ROTATION)
        slerp (v0, v1, u, out);
      else
        for (guint c = 0; c < k; c++)
          out[c] = v0[c] + (v1[c] - v0[c]) * u;
    }
#undef VALUE
  if (target == TRESS_GLTF_TARGET_ROTATION && !normalize_quaternion (out))
    out[0] = out[1] = out[2] = 0, out[3] = 1;
}

typedef struct
{
  double t[3], r[4], s[3];
  gboolean moved;
} Local;

void
tress_gltf_document_pose (const TressGltfDocument *doc, int anim, double t, const guint8 *needed,
                          TressBfresMatrix *world)
{
  const guint *order = GLTF_PRIV (doc)->order;
  g_autofree Local *local = g_new0 (Local, doc->n_nodes + 1);
  g_autofree guint8 *need = g_new0 (guint8, doc->n_nodes + 1);

  /* What is needed: the nodes asked for and their ancestors. */
  for (guint i = 0; i < doc->n_nodes; i++)
    for (int at = (int)i; at >= 0 && (needed == NULL || needed[i]) && !need[at];
         at = doc->nodes[at].parent)
      need[at] = 1;
  if (anim >= 0 && (guint)anim < doc->n_animations)
    {
      const TressGltfAnimation *a = &doc->animations[anim];

      for (guint c = 0; c < a->n_channels; c++)
        {
          const TressGltfChannel *ch = &a->channels[c];
          const TressGltfSampler *s = &a->samplers[ch->sampler];
          Local *l;
          double *into;

          if (ch->node < 0 || ch->target > TRESS_GLTF_TARGET_SCALE || !s->decoded
              || !need[ch->node])
            continue;
          l = &local[ch->node];
          if (!l->moved)
            {
              const TressGltfNode *node = &doc->nodes[ch->node];

              memcpy (l->t, node->translation, sizeof l->t);
              memcpy (l->r, node->rotation, sizeof l->r);
              memcpy (l->s, node->scale, sizeof l->s);
              l->moved = TRUE;
            }
          into = ch->target == TRESS_GLTF_TARGET_TRANSLATION ? l->t
                 : ch->target == TRESS_GLTF_TARGET_ROTATION  ? l->r
                                                             : l->s;
          tress_gltf_sampler_evaluate (s, ch->target, t, into);
        }
    }
  for (guint k = 0; k < doc->n_nodes; k++)
    {
      guint i = order[k];
      const TressGltfNode *node = &doc->nodes[i];
      TressBfresMatrix m;

      if (!need[i])
        continue;
      if (local[i].moved)
        trs_matrix (local[i].t, local[i].r, local[i].s, &m);
      else
        m = node->matrix;
      if (node->parent >= 0)
        tress_bfres_matrix_multiply (&world[node->parent], &m, &world[i]);
      else
        world[i] = m;
    }
}
