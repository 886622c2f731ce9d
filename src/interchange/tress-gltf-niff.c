/* tress-gltf-niff.c: a NIFF scene and its animation as glTF 2.0
 *
 * The nodes and the animation. Every sample poses the preview's animator
 * and turns each node's world matrix into a glTF transform: the local matrix
 * that carries its parent's glTF world matrix to it, decomposed into T · R · S.
 * Where the NIFF local transforms compose by glTF's rule (no UniqueScale
 * passed down unevenly, no IK) that is the object's own transform; an IK
 * joint gets the transform the solver gave it; under a non-uniform
 * UniqueScale a child's local matrix may hold a shear no glTF transform can,
 * and it gets the nearest one (tress_gltf_trs_decompose), placed exactly.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-gltf-niff-private.h"

#include <math.h>
#include <string.h>

#include "core/tress-error.h"
#include "core/tress-progress.h"
#include "formats/niff/tress-niff-pose.h"
#include "tress-gltf-trs.h"

#define NONE TRESS_NIFF_NONE
#define PLACE_EPS 1e-5 /* relative: a glTF world matrix this close is the preview's */
#define NOTE_NAMES 8

typedef struct
{
  TressGltfNiffExport e;
  TressCurve **curves; /* per curve of the file, as the editor holds them */
  guint n_curves;
  gboolean *chosen; /* per AnimGroup: animated (else held at frame 0) */
  double fps;
  double size;            /* of the scene at frame 0, for comparing positions */
  int *parent;            /* per node: its glTF parent, −1 at the root */
  guint *order;           /* the nodes, parents first */
  TressGltfMatrix *world; /* per node: its glTF world matrix at the current sample */
  TressGltfTrs *trs;      /* per node: its glTF transform at the current sample */
  gboolean *off;          /* per node: some sample placed it with the nearest axes */
  guint64 singular;       /* node samples under a parent with no inverse */
  guint64 non_finite;     /* transform values that were not finite numbers */
} Export;

void
tress_gltf_niff_note (TressGltfNiffExport *e, const char *format, ...)
{
  va_list args;

  if (e->notes == NULL)
    return;
  va_start (args, format);
  g_ptr_array_add (e->notes, g_strdup_vprintf (format, args));
  va_end (args);
}

JsonObject *
tress_gltf_niff_extras (JsonObject *object)
{
  JsonObject *extras = json_object_new (), *niff = json_object_new ();

  json_object_set_object_member (extras, "niff", niff);
  json_object_set_object_member (object, "extras", extras);
  return niff;
}

guint
tress_gltf_niff_next_extra (TressGltfNiffExport *e)
{
  return tress_scene_get_n_nodes (e->scene) + e->extra_nodes->len;
}

/* ---- posing ------------------------------------------------------------------ */

/* The preview's curve values; AnimGroups left out hold their frame 0. */
static double
sample_curve (gpointer data, guint curve, double frame)
{
  Export *x = data;

  if (curve >= x->n_curves || x->curves[curve] == NULL)
    return NAN; /* the animator keeps the file's value */
  if (!x->chosen[tress_niff_curve_get_group (x->e.file, curve)])
    frame = 0;
  return tress_curve_evaluate (x->curves[curve], frame);
}

/* graphene's row-vector matrix as a column-vector one. */
static void
from_graphene (const graphene_matrix_t *g, TressGltfMatrix *out)
{
  for (guint r = 0; r < 3; r++)
    for (guint c = 0; c < 4; c++)
      out->m[r][c] = graphene_matrix_get_value (g, c, r);
}

/* Whether @a is not @b: entries apart by more than PLACE_EPS of the
 * matrix's own size (axes) or of the scene's (positions). */
static gboolean
placed_apart (const Export *x, const TressGltfMatrix *a, const TressGltfMatrix *b)
{
  double axes = 1;

  for (guint r = 0; r < 3; r++)
    for (guint c = 0; c < 3; c++)
      axes = MAX (axes, fabs (b->m[r][c]));
  for (guint r = 0; r < 3; r++)
    for (guint c = 0; c < 4; c++)
      if (!(fabs (a->m[r][c] - b->m[r][c]) <= PLACE_EPS * (c == 3 ? x->size : axes)))
        return TRUE;
  return FALSE;
}

/* @trs as the file will hold it: floats, a unit quaternion; values that
 * are not finite (a file's NaN) become 0 (the quaternion: no rotation), and
 * are counted. */
static void
round_trs (Export *x, TressGltfTrs *trs)
{
  double n = 0;

  for (guint k = 0; k < 3; k++)
    {
      x->non_finite += !isfinite ((float)trs->translation[k]) + !isfinite ((float)trs->scale[k]);
      trs->translation[k] = isfinite ((float)trs->translation[k]) ? (float)trs->translation[k] : 0;
      trs->scale[k] = isfinite ((float)trs->scale[k]) ? (float)trs->scale[k] : 0;
    }
  for (guint k = 0; k < 4; k++)
    {
      trs->rotation[k] = (float)trs->rotation[k];
      n += trs->rotation[k] * trs->rotation[k];
    }
  if (!isfinite (n))
    x->non_finite += 4;
  if (!(n > 0.5) || !isfinite (n))
    {
      trs->rotation[0] = trs->rotation[1] = trs->rotation[2] = 0;
      trs->rotation[3] = 1;
    }
}

/* Poses the preview at @frame and sets every node's glTF transform. */
static void
pose_at (Export *x, double frame)
{
  TressScene *scene = x->e.scene;
  guint n = tress_scene_get_n_nodes (scene);
  const guint anim = 0;

  tress_scene_animator_pose (x->e.animator, &anim, 1, frame, sample_curve, x);
  for (guint k = 0; k < n; k++)
    {
      guint i = x->order[k];
      int p = x->parent[i];
      TressGltfMatrix want, local, inverse;
      gboolean keep = FALSE;

      from_graphene (&tress_scene_get_node (scene, i)->world, &want);
      if (p < 0)
        local = want;
      else if (tress_gltf_matrix_invert (&x->world[p], &inverse))
        tress_gltf_matrix_multiply (&inverse, &want, &local);
      else
        {
          /* Nothing carries a parent scaled to nothing anywhere: the
           * transform of the sample before holds. */
          x->singular++;
          keep = TRUE;
        }
      if (!keep)
        {
          tress_gltf_trs_decompose (local.m, &x->trs[i]);
          round_trs (x, &x->trs[i]);
        }
      tress_gltf_trs_matrix (&x->trs[i], &local);
      if (p < 0)
        x->world[i] = local;
      else
        tress_gltf_matrix_multiply (&x->world[p], &local, &x->world[i]);
      x->off[i] |= placed_apart (x, &x->world[i], &want);
    }
}

/* The glTF parent of every node (the scene's, a loop cut) and the nodes
 * in an order that puts parents first. */
static void
order_nodes (Export *x)
{
  TressScene *scene = x->e.scene;
  guint n = tress_scene_get_n_nodes (scene), done = 0;
  g_autofree guint8 *placed = g_malloc0 (n + 1);

  for (guint i = 0; i < n; i++)
    {
      int p = tress_scene_get_node (scene, i)->parent;

      x->parent[i] = p >= 0 && (guint)p < n && (guint)p != i ? p : -1;
    }
  while (done < n)
    {
      guint before = done;

      for (guint i = 0; i < n; i++)
        if (!placed[i] && (x->parent[i] < 0 || placed[x->parent[i]]))
          {
            placed[i] = 1;
            x->order[done++] = i;
          }
      /* A loop: its first node becomes a root. */
      for (guint i = 0; done == before && i < n; i++)
        if (!placed[i])
          {
            x->parent[i] = -1;
            break;
          }
    }
}

/* ---- nodes --------------------------------------------------------------------- */

static JsonArray *
doubles_array (const double *v, guint n)
{
  JsonArray *a = json_array_new ();

  for (guint i = 0; i < n; i++)
    json_array_add_double_element (a, v[i]);
  return a;
}

/* The scene node's AnimGroup, or NONE. */
static guint32
node_group (const TressNiffScene *s, guint32 id, guint32 *index, const char **kind)
{
  guint32 i = id & 0xFFFFFF;

  switch (id & 0xFF000000u)
    {
    case TRESS_NIFF_NODE_CHAIN_ROOT:
      *kind = "chainRoot";
      *index = i;
      return i < s->n_chain_roots ? s->chain_roots[i].anim_group : NONE;
    case TRESS_NIFF_NODE_JOINT:
      *kind = "joint";
      *index = i;
      return i < s->n_joints ? s->joints[i].anim_group : NONE;
    case TRESS_NIFF_NODE_EFFECTOR:
      *kind = "effector";
      *index = i;
      return i < s->n_effectors ? s->effectors[i].anim_group : NONE;
    default:
      *kind = "object";
      *index = id;
      return id < s->n_objects ? s->objects[id].anim_group : NONE;
    }
}

static void
make_nodes (Export *x)
{
  TressGltfNiffExport *e = &x->e;
  guint n = tress_scene_get_n_nodes (e->scene);

  for (guint i = 0; i < n; i++)
    {
      const TressSceneNode *sn = tress_scene_get_node (e->scene, i);
      JsonObject *node = json_object_new (), *ex;
      JsonArray *children = json_array_new ();
      const char *kind;
      guint32 index, group = node_group (e->niff, sn->id, &index, &kind);
      TressNiffGroupInfo info;

      json_object_set_string_member (node, "name", sn->name);
      json_object_set_array_member (node, "translation", doubles_array (x->trs[i].translation, 3));
      json_object_set_array_member (node, "rotation", doubles_array (x->trs[i].rotation, 4));
      json_object_set_array_member (node, "scale", doubles_array (x->trs[i].scale, 3));
      for (guint c = 0; c < n; c++)
        if (x->parent[c] == (int)i)
          json_array_add_int_element (children, c);
      if (json_array_get_length (children) > 0)
        json_object_set_array_member (node, "children", children);
      else
        json_array_unref (children);
      ex = tress_gltf_niff_extras (node);
      json_object_set_int_member (ex, kind, index);
      if (tress_niff_group_get_info (e->file, group, &info))
        {
          json_object_set_int_member (ex, "animGroupIndex", group);
          if (info.name != NULL)
            json_object_set_string_member (ex, "animGroup", info.name);
        }
      if (g_str_equal (kind, "object") && index < e->niff->n_objects
          && e->niff->objects[index].camera)
        json_object_set_boolean_member (ex, "camera", TRUE);
      e->nodes[i] = node;
      if (x->parent[i] < 0)
        json_array_add_int_element (e->roots, i);
    }
}

/* ---- the animation ------------------------------------------------------------- */

/* Whether the @ns values of @comps floats (@data) differ from the first
 * (else the node's own transform holds them, and no channel is needed). */
static gboolean
moves (const float *data, guint comps, guint ns)
{
  for (guint f = 1; f < ns; f++)
    if (memcmp (data, data + (gsize)comps * f, comps * sizeof (float)) != 0)
      return TRUE;
  return FALSE;
}

/* Adds a channel of @ns values of @comps floats (@data) for node @node and
 * @path, when they move. */
static void
add_channel (Export *x, JsonArray *samplers, JsonArray *channels, guint input, guint node,
             const char *path, const float *data, guint comps, guint ns)
{
  JsonObject *sampler, *channel, *target;

  if (!moves (data, comps, ns))
    return;
  sampler = json_object_new ();
  channel = json_object_new ();
  target = json_object_new ();
  json_object_set_int_member (sampler, "input", input);
  json_object_set_int_member (sampler, "output",
                              tress_gltf_writer_add_accessor (x->e.writer, data, TRESS_GLTF_FLOAT,
                                                              (TressGltfType)comps, ns, 0, FALSE));
  json_object_set_string_member (sampler, "interpolation", "LINEAR");
  json_object_set_int_member (channel, "sampler", json_array_get_length (samplers));
  json_array_add_object_element (samplers, sampler);
  json_object_set_int_member (target, "node", node);
  json_object_set_string_member (target, "path", path);
  json_object_set_object_member (channel, "target", target);
  json_array_add_object_element (channels, channel);
}

/* What animation @group (−1: every AnimGroup chosen) is made of, for its extras. */
static JsonArray *
groups_json (Export *x, int group)
{
  TressGltfNiffExport *e = &x->e;
  JsonArray *list = json_array_new ();
  guint n = tress_niff_file_get_n_groups (e->file);

  for (guint g = 0; g < n; g++)
    {
      JsonObject *o;
      TressNiffGroupInfo info;

      if (!x->chosen[g] || (group >= 0 && g != (guint)group)
          || !tress_niff_group_get_info (e->file, g, &info))
        continue;
      o = json_object_new ();
      json_object_set_int_member (o, "index", g);
      if (info.name != NULL)
        json_object_set_string_member (o, "name", info.name);
      json_object_set_int_member (o, "animType", info.anim_type);
      json_object_set_int_member (o, "frameRate", info.frame_rate);
      json_object_set_int_member (o, "loopCount", info.loop);
      json_object_set_double_member (o, "frameCount",
                                     tress_niff_group_get_frame_count (e->file, g));
      json_array_add_object_element (list, o);
    }
  return list;
}

/* Every node's transform at every sample of the animation. */
typedef struct
{
  guint ns;         /* samples: every whole frame, and the end */
  double frames;    /* the last sample's frame */
  float *times;     /* per sample */
  float *t, *r, *s; /* node × sample × 3, 4, 3 */
  guint *last;      /* per node: the last sample that differs from the one before, or 0 */
} Samples;

static void
samples_clear (Samples *smp)
{
  g_free (smp->times);
  g_free (smp->t);
  g_free (smp->r);
  g_free (smp->s);
  g_free (smp->last);
}

/* Poses every sample from frame 0 to @frame_count. */
static gboolean
sample_all (Export *x, double frame_count, Samples *smp, GError **error)
{
  guint nn = tress_scene_get_n_nodes (x->e.scene), ns;

  /* Every whole frame, and the end (NIFF keys are whole frames). */
  ns = smp->ns = (guint)floor (frame_count) + 1 + (frame_count != floor (frame_count));
  smp->frames = frame_count;
  smp->times = g_new (float, ns);
  smp->t = g_new (float, 3 * (gsize)ns * nn);
  smp->r = g_new (float, 4 * (gsize)ns * nn);
  smp->s = g_new (float, 3 * (gsize)ns * nn);
  smp->last = g_new0 (guint, nn + 1);
  tress_progress_phase ("Exporting animations", (guint64)ns * nn, TRESS_PROGRESS_ENTRIES);
  for (guint f = 0; f < ns; f++)
    {
      double frame = MIN ((double)f, frame_count);

      smp->times[f] = (float)(frame / x->fps);
      pose_at (x, frame);
      for (guint i = 0; i < nn; i++)
        {
          gsize at = (gsize)i * ns + f;
          float *t = smp->t + 3 * at, *q = smp->r + 4 * at, *s = smp->s + 3 * at;
          double dot = 0;

          for (guint c = 0; c < 3; c++)
            {
              t[c] = (float)x->trs[i].translation[c];
              s[c] = (float)x->trs[i].scale[c];
            }
          for (guint c = 0; c < 4; c++)
            {
              q[c] = (float)x->trs[i].rotation[c];
              if (f > 0)
                dot += (double)q[c] * (q - 4)[c];
            }
          /* Sign-continuous: the short way to the next sample. */
          if (dot < 0)
            for (guint c = 0; c < 4; c++)
              q[c] = -q[c];
          if (f > 0
              && (memcmp (t, t - 3, 3 * sizeof (float)) != 0
                  || memcmp (q, q - 4, 4 * sizeof (float)) != 0
                  || memcmp (s, s - 3, 3 * sizeof (float)) != 0))
            smp->last[i] = f;
        }
      if (!tress_progress_advance (nn, error))
        return FALSE;
    }
  return TRUE;
}

/* Writes an animation named @name of the first @n samples of the nodes
 * @in selects (per node), each channel only where it moves: FALSE when
 * nothing moves (nothing written). @group: the AnimGroup it is (−1: those
 * chosen, or none when @others) for its extras. */
static gboolean
write_animation (Export *x, const Samples *smp, const char *name, guint n, const gboolean *in,
                 int group, gboolean others)
{
  TressGltfNiffExport *e = &x->e;
  guint nn = tress_scene_get_n_nodes (e->scene), ns = smp->ns, n_groups, input;
  gboolean loops = TRUE, moving = FALSE;
  JsonObject *anim, *ex;
  JsonArray *samplers, *channels;

  for (guint i = 0; i < nn && !moving; i++)
    moving = in[i] && smp->last[i] > 0; /* (n passes every node's last change) */
  if (!moving)
    return FALSE;
  n_groups = tress_niff_file_get_n_groups (e->file);
  for (guint g = 0; g < n_groups; g++)
    if (x->chosen[g] && (group < 0 || g == (guint)group))
      {
        TressNiffGroupInfo info;

        loops &= tress_niff_group_get_info (e->file, g, &info) && info.loop == 0;
      }
  samplers = json_array_new ();
  channels = json_array_new ();
  tress_gltf_writer_begin_view (e->writer, 0);
  input = tress_gltf_writer_add_accessor (e->writer, smp->times, TRESS_GLTF_FLOAT,
                                          TRESS_GLTF_SCALAR, n, 0, TRUE);
  for (guint i = 0; i < nn; i++)
    if (in[i])
      {
        add_channel (x, samplers, channels, input, i, "translation", smp->t + 3 * (gsize)i * ns, 3,
                     n);
        add_channel (x, samplers, channels, input, i, "rotation", smp->r + 4 * (gsize)i * ns, 4, n);
        add_channel (x, samplers, channels, input, i, "scale", smp->s + 3 * (gsize)i * ns, 3, n);
      }
  tress_gltf_writer_end_view (e->writer);
  anim = json_object_new ();
  json_object_set_string_member (anim, "name", name);
  json_object_set_array_member (anim, "channels", channels);
  json_object_set_array_member (anim, "samplers", samplers);
  ex = tress_gltf_niff_extras (anim);
  json_object_set_string_member (ex, "name", name);
  json_object_set_double_member (ex, "frameCount", MIN ((double)(n - 1), smp->frames));
  json_object_set_boolean_member (ex, "loop", loops);
  json_object_set_double_member (ex, "fps", x->fps);
  json_object_set_int_member (ex, "samples", n);
  json_object_set_array_member (ex, "animGroups",
                                others ? json_array_new () : groups_json (x, group));
  tress_gltf_writer_add (e->writer, "animations", anim);
  return TRUE;
}

/* "A, B, C and 4 more" of @names (char *). */
static char *
name_list (GPtrArray *names)
{
  GString *list = g_string_new (NULL);

  for (guint i = 0; i < names->len && i < NOTE_NAMES; i++)
    g_string_append_printf (list, "%s%s", i ? ", " : "", (const char *)names->pdata[i]);
  if (names->len > NOTE_NAMES)
    g_string_append_printf (list, " and %u more", names->len - NOTE_NAMES);
  return g_string_free (list, FALSE);
}

/* One animation per AnimGroup chosen, named after it, of its nodes: its own
 * frames (0 to its frame count), and on to the last sample where one of
 * them still moves (an IK joint following an effector of another
 * AnimGroup). Nodes that move though no AnimGroup chosen holds them (IK
 * joints of AnimGroups left out) go into one more animation, named @name. */
static void
split_animations (Export *x, const Samples *smp, const char *name)
{
  TressGltfNiffExport *e = &x->e;
  guint nn = tress_scene_get_n_nodes (e->scene), n_groups = tress_niff_file_get_n_groups (e->file);
  g_autofree guint *group = g_new (guint, nn + 1);
  g_autofree gboolean *in = g_new0 (gboolean, nn + 1);
  g_autoptr (GPtrArray) still = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) others = g_ptr_array_new ();
  gboolean any = FALSE;

  for (guint i = 0; i < nn; i++)
    {
      const char *kind;
      guint32 index;

      group[i] = node_group (e->niff, tress_scene_get_node (e->scene, i)->id, &index, &kind);
    }
  for (guint g = 0; g < n_groups; g++)
    {
      TressNiffGroupInfo info;
      g_autofree char *label = NULL;
      double frames = tress_niff_group_get_frame_count (e->file, g);
      guint n = (guint)MIN ((double)smp->ns, ceil (MAX (frames, 0)) + 1);

      if (!x->chosen[g])
        continue;
      for (guint i = 0; i < nn; i++)
        {
          in[i] = group[i] == g;
          if (in[i])
            n = MAX (n, smp->last[i] + 1);
        }
      tress_niff_group_get_info (e->file, g, &info);
      label = info.name != NULL ? g_strdup (info.name) : g_strdup_printf ("AnimGroup %u", g);
      if (write_animation (x, smp, label, n, in, (int)g, FALSE))
        any = TRUE;
      else
        g_ptr_array_add (still, g_steal_pointer (&label));
    }
  for (guint i = 0; i < nn; i++)
    {
      in[i] = (group[i] >= n_groups || !x->chosen[group[i]]) && smp->last[i] > 0;
      if (in[i])
        g_ptr_array_add (others, (gpointer)tress_scene_get_node (e->scene, i)->name);
    }
  if (others->len > 0)
    {
      g_autofree char *list = name_list (others);

      write_animation (x, smp, name, smp->ns, in, -1, TRUE);
      tress_gltf_niff_note (e,
                            "%u node%s (%s) move though no AnimGroup exported holds them (IK "
                            "joints follow their effector): they are animated in “%s”",
                            others->len, others->len == 1 ? "" : "s", list, name);
    }
  if (still->len > 0 && any)
    {
      g_autofree char *list = name_list (still);

      tress_gltf_niff_note (e, "%u AnimGroup%s (%s) move%s no node: no animation is written for %s",
                            still->len, still->len == 1 ? "" : "s", list,
                            still->len == 1 ? "s" : "", still->len == 1 ? "it" : "them");
    }
}

static gboolean
add_animation (Export *x, gboolean named, gboolean split, GError **error)
{
  TressGltfNiffExport *e = &x->e;
  guint nn = tress_scene_get_n_nodes (e->scene), n_groups = tress_niff_file_get_n_groups (e->file);
  double frame_count = 0;
  gboolean moving = FALSE;
  g_autofree gboolean *all = NULL;
  const char *name = e->animator->anim_names[0];
  Samples smp = { 0 };

  for (guint g = 0; g < n_groups; g++)
    if (x->chosen[g])
      frame_count = MAX (frame_count, tress_niff_group_get_frame_count (e->file, g));
  if (!(frame_count >= 1) || nn == 0)
    {
      if (named)
        tress_gltf_niff_note (e, "the AnimGroups named hold still: no animation is written");
      return TRUE;
    }
  if (frame_count + 1 > (double)TRESS_GLTF_NIFF_MAX_SAMPLES / nn)
    {
      tress_gltf_niff_note (e,
                            "“%s”: %.0f frames × %u nodes pass the export's budget of %u node "
                            "samples; not exported",
                            name, frame_count + 1, nn, TRESS_GLTF_NIFF_MAX_SAMPLES);
      return TRUE;
    }
  if (!sample_all (x, frame_count, &smp, error))
    {
      samples_clear (&smp);
      return FALSE;
    }
  for (guint i = 0; i < nn && !moving; i++)
    moving = smp.last[i] > 0;
  if (!moving)
    tress_gltf_niff_note (e, "“%s”: its %.0f frames move nothing: no animation is written", name,
                          frame_count);
  else if (split)
    split_animations (x, &smp, name);
  else
    {
      all = g_new (gboolean, nn);
      for (guint i = 0; i < nn; i++)
        all[i] = TRUE;
      write_animation (x, &smp, name, smp.ns, all, -1, FALSE);
    }
  samples_clear (&smp);
  return TRUE;
}

/* ---- what is not carried ------------------------------------------------------- */

static void
note_not_carried (Export *x)
{
  TressGltfNiffExport *e = &x->e;
  const TressNiffScene *s = e->niff;
  g_autoptr (GPtrArray) not_shown = tress_niff_pose_not_shown (s, e->file);
  g_autoptr (GString) off = g_string_new (NULL);
  guint n_off = 0;

  for (guint i = 0; i < not_shown->len; i++)
    tress_gltf_niff_note (e, "%s (as in the preview)", (const char *)not_shown->pdata[i]);
  for (guint i = 0; i < s->notes->len; i++)
    tress_gltf_niff_note (e, "%s", (const char *)s->notes->pdata[i]);
  for (guint32 c = 0; c < s->n_chain_roots; c++)
    tress_gltf_niff_note (e,
                          "IK chain %s: glTF has no IK; its joints are written as the preview "
                          "solves them at every sample",
                          s->chain_roots[c].name != NULL ? s->chain_roots[c].name : "?");
  if (s->n_cameras > 0)
    tress_gltf_niff_note (e,
                          "%u camera%s: no glTF camera is written (the lens is not read); the "
                          "eye, look-at and up objects are empty nodes",
                          s->n_cameras, s->n_cameras == 1 ? "" : "s");
  if (s->n_lights > 0)
    tress_gltf_niff_note (e, "%u light%s: not read", s->n_lights, s->n_lights == 1 ? "" : "s");
  if (s->n_envs > 0)
    tress_gltf_niff_note (e, "%u environment%s (fog, ambient light): not read", s->n_envs,
                          s->n_envs == 1 ? "" : "s");
  if (s->n_textures > 0)
    tress_gltf_niff_note (e,
                          "%u texture%s and their images: not read; materials carry their "
                          "colours (texture coordinates are written)",
                          s->n_textures, s->n_textures == 1 ? "" : "s");
  for (guint i = 0; i < tress_scene_get_n_nodes (e->scene); i++)
    if (x->off[i])
      {
        if (n_off < NOTE_NAMES)
          g_string_append_printf (off, "%s%s", n_off ? ", " : "",
                                  tress_scene_get_node (e->scene, i)->name);
        n_off++;
      }
  if (n_off > NOTE_NAMES)
    g_string_append_printf (off, " and %u more", n_off - NOTE_NAMES);
  if (n_off > 0)
    tress_gltf_niff_note (e,
                          "%u node%s (%s): the parent's frame is sheared (a non-uniform scale "
                          "above), which glTF cannot hold; placed exactly with the nearest axes",
                          n_off, n_off == 1 ? "" : "s", off->str);
  if (x->singular > 0)
    tress_gltf_niff_note (e,
                          "%" G_GUINT64_FORMAT " node samples lie under a parent scaled to "
                          "nothing: their transform holds from the sample before",
                          x->singular);
  if (x->non_finite + tress_gltf_writer_get_n_non_finite (e->writer) > 0)
    tress_gltf_niff_note (
        e, "%" G_GUINT64_FORMAT " values that were not finite numbers are written as 0",
        x->non_finite + tress_gltf_writer_get_n_non_finite (e->writer));
}

/* ---- the whole ------------------------------------------------------------------ */

static void
export_clear (Export *x)
{
  for (guint i = 0; x->curves != NULL && i < x->n_curves; i++)
    if (x->curves[i] != NULL)
      tress_curve_unref (x->curves[i]);
  g_free (x->curves);
  g_free (x->chosen);
  g_free (x->parent);
  g_free (x->order);
  g_free (x->world);
  g_free (x->trs);
  g_free (x->off);
  for (guint i = 0; x->e.nodes != NULL && i < tress_scene_get_n_nodes (x->e.scene); i++)
    if (x->e.nodes[i] != NULL)
      json_object_unref (x->e.nodes[i]);
  g_free (x->e.nodes);
  g_clear_pointer (&x->e.extra_nodes, g_ptr_array_unref);
  g_clear_pointer (&x->e.roots, json_array_unref);
  g_clear_pointer (&x->e.animator, tress_scene_animator_free);
}

/* The scene's size at the current pose: the farthest node from the origin, at least 1. */
static double
scene_size (Export *x)
{
  double size = 1;

  for (guint i = 0; i < tress_scene_get_n_nodes (x->e.scene); i++)
    for (guint r = 0; r < 3; r++)
      if (isfinite (x->world[i].m[r][3]))
        size = MAX (size, fabs (x->world[i].m[r][3]));
  return size;
}

TressGltfWriter *
tress_gltf_niff_export (TressNiffFile *file, const char *source,
                        const TressGltfNiffOptions *options, GPtrArray *notes, GError **error)
{
  g_autoptr (TressGltfWriter) writer = NULL;
  g_autofree char *generator = g_strdup_printf ("Tress %s", TRESS_VERSION);
  g_autofree char *version_name = NULL;
  guint n_groups = tress_niff_file_get_n_groups (file), nn;
  gboolean named = options != NULL && options->anims != NULL;
  Export x = { 0 };
  JsonObject *scene, *ex;
  guint32 version = tress_niff_file_get_version (file);

  x.e.animator = tress_niff_animator_new (file, source, error);
  if (x.e.animator == NULL)
    return NULL;
  x.e.file = file;
  x.e.niff = tress_niff_animator_get_niff_scene (x.e.animator);
  x.e.scene = x.e.animator->scene;
  x.e.notes = notes;
  nn = tress_scene_get_n_nodes (x.e.scene);

  x.chosen = g_new0 (gboolean, n_groups + 1);
  for (guint i = 0; named && i < options->n_anims; i++)
    {
      if (options->anims[i] >= n_groups)
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, "No AnimGroup %u (the file has %u)",
                       options->anims[i], n_groups);
          export_clear (&x);
          return NULL;
        }
      x.chosen[options->anims[i]] = TRUE;
    }
  for (guint g = 0; !named && g < n_groups; g++)
    x.chosen[g] = TRUE;
  x.fps = TRESS_GLTF_NIFF_DEFAULT_FPS;
  if (options != NULL && options->fps > 0 && isfinite (options->fps))
    x.fps = options->fps;
  else if (x.e.animator->anim_fps[0] > 0)
    x.fps = x.e.animator->anim_fps[0]; /* the file's rate, as the preview takes it */
  x.n_curves = tress_format_niff.curves->n_curves (file);
  x.curves = g_new0 (TressCurve *, x.n_curves + 1);
  for (guint c = 0; c < x.n_curves; c++)
    x.curves[c] = tress_format_niff.curves->get_curve (file, c);
  x.parent = g_new (int, nn + 1);
  x.order = g_new (guint, nn + 1);
  x.world = g_new0 (TressGltfMatrix, nn + 1);
  x.trs = g_new0 (TressGltfTrs, nn + 1);
  x.off = g_new0 (gboolean, nn + 1);
  for (guint i = 0; i < nn; i++)
    x.trs[i].rotation[3] = x.trs[i].scale[0] = x.trs[i].scale[1] = x.trs[i].scale[2] = 1;
  x.e.nodes = g_new0 (JsonObject *, nn + 1);
  x.e.extra_nodes = g_ptr_array_new_with_free_func ((GDestroyNotify)json_object_unref);
  x.e.roots = json_array_new ();

  writer = tress_gltf_writer_new (generator);
  x.e.writer = writer;
  order_nodes (&x);
  /* The nodes in the pose at frame 0, twice: the first sizes the scene. */
  x.size = 1;
  pose_at (&x, 0);
  x.size = scene_size (&x);
  memset (x.off, 0, (nn + 1) * sizeof (gboolean));
  x.singular = x.non_finite = 0;
  pose_at (&x, 0);
  make_nodes (&x);
  tress_gltf_niff_add_meshes (&x.e);
  for (guint i = 0; i < nn; i++)
    tress_gltf_writer_add (writer, "nodes", g_steal_pointer (&x.e.nodes[i]));
  for (guint i = 0; i < x.e.extra_nodes->len; i++)
    tress_gltf_writer_add (writer, "nodes", json_object_ref (x.e.extra_nodes->pdata[i]));

  version_name = g_strdup_printf ("NIFF %u.%u", (version >> 8) & 0xFF, version & 0xFF);
  scene = json_object_new ();
  json_object_set_string_member (scene, "name", x.e.scene->name);
  if (json_array_get_length (x.e.roots) > 0)
    json_object_set_array_member (scene, "nodes", json_array_ref (x.e.roots));
  ex = tress_gltf_niff_extras (scene);
  json_object_set_string_member (ex, "scene", x.e.scene->name);
  json_object_set_string_member (ex, "source", source);
  json_object_set_string_member (ex, "version", version_name);
  json_object_set_int_member (tress_gltf_writer_get_root (writer), "scene",
                              tress_gltf_writer_add (writer, "scenes", scene));

  if (!add_animation (&x, named, options != NULL && options->split, error))
    {
      export_clear (&x);
      return NULL;
    }
  note_not_carried (&x);
  export_clear (&x);
  return g_steal_pointer (&writer);
}
