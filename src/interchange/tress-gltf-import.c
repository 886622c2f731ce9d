/* tress-gltf-import.c: glTF 2.0 skeletal animations brought into a BFRES
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-gltf-import-private.h"

#include <math.h>
#include <string.h>

#include "core/tress-error.h"
#include "formats/bfres/tress-bfres-scene.h"
#include "formats/tress-format.h"

double
import_sample_curve (gpointer data, guint curve, double frame)
{
  return tress_bfres_evaluate (data, curve, frame);
}

/* ---- setting up: skin, joints, bones ---------------------------------------- */

/* Whether node @n is named after a bone: the bone, or −1. */
static int
bone_of (TressGltfImport *imp, guint n)
{
  const char *name = imp->doc->nodes[n].name;

  return name != NULL ? tress_bfres_skeleton_find_bone (&imp->model->skeleton, name) : -1;
}

/* The skin with the most joints named after bones (−1: none has one). */
static int
choose_skin (TressGltfImport *imp)
{
  int best = -1;
  guint most = 0;

  for (guint s = 0; s < imp->doc->n_skins; s++)
    {
      guint n = 0;

      for (guint j = 0; j < imp->doc->skins[s].n_joints; j++)
        n += bone_of (imp, imp->doc->skins[s].joints[j]) >= 0;
      if (n > most)
        most = n, best = (int)s;
    }
  return best;
}

static void
match_joint (TressGltfImport *imp, guint node, const TressBfresMatrix *ibm)
{
  int b = bone_of (imp, node);
  const char *name = imp->doc->nodes[node].name;

  if (b < 0)
    {
      g_ptr_array_add (imp->unmatched_joints,
                       name != NULL ? g_strdup (name) : g_strdup_printf ("node %u", node));
      return;
    }
  if (imp->joint[b] >= 0)
    {
      g_ptr_array_add (imp->unmatched_joints, g_strdup_printf ("%s (a second joint of that name, "
                                                               "node %u)",
                                                               name, node));
      return;
    }
  imp->joint[b] = (int)node;
  imp->ibm[b] = *ibm;
}

static gboolean
match_joints (TressGltfImport *imp, GError **error)
{
  const TressBfresSkeleton *sk = &imp->model->skeleton;
  const TressGltfDocument *doc = imp->doc;
  int skin = choose_skin (imp);
  guint matched = 0;

  for (guint b = 0; b < sk->n_bones; b++)
    imp->joint[b] = -1;
  if (skin >= 0)
    {
      const TressGltfSkin *s = &doc->skins[skin];

      imp->skin_label = s->name != NULL ? g_strdup_printf ("skins[%d] (%s)", skin, s->name)
                                        : g_strdup_printf ("skins[%d]", skin);
      for (guint j = 0; j < s->n_joints; j++)
        match_joint (imp, s->joints[j], &s->inverse_bind[j]);
    }
  else
    {
      /* No skin names the bones: nodes named after them, their pose as
       * they stand taken for the bind pose. */
      g_autofree TressBfresMatrix *rest = g_new0 (TressBfresMatrix, doc->n_nodes + 1);

      imp->skin_label = g_strdup ("no skin: the nodes named after bones, as they stand for the "
                                  "bind pose");
      tress_gltf_document_pose (doc, -1, 0, NULL, rest);
      for (guint n = 0; n < doc->n_nodes; n++)
        if (bone_of (imp, n) >= 0)
          {
            TressBfresMatrix inv;

            tress_bfres_matrix_invert (&rest[n], &inv);
            match_joint (imp, n, &inv);
          }
    }
  for (guint b = 0; b < sk->n_bones; b++)
    if (imp->joint[b] >= 0)
      {
        imp->needed[imp->joint[b]] = 1;
        matched++;
      }
  if (matched == 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                   "no joint of the glTF is named after a bone of %s (%u bones: %s%s…)",
                   imp->model->name, sk->n_bones, sk->n_bones > 0 ? sk->bones[0].name : "",
                   sk->n_bones > 1 ? ", " : "");
      return FALSE;
    }
  for (int at = 0; at < (int)doc->n_nodes; at++)
    if (imp->needed[at])
      for (int p = doc->nodes[at].parent; p >= 0 && !imp->needed[p]; p = doc->nodes[p].parent)
        imp->needed[p] = 1;
  for (guint n = 0; n < doc->n_nodes; n++)
    imp->n_needed += imp->needed[n];
  return TRUE;
}

/* Bones in an order that puts parents first (a loop in the parents, which
 * the pose code cuts, is cut here the same way). */
static void
order_bones (TressGltfImport *imp)
{
  const TressBfresSkeleton *sk = &imp->model->skeleton;
  g_autofree guint8 *state = g_new0 (guint8, sk->n_bones + 1);
  g_autofree guint *chain = g_new (guint, sk->n_bones + 1);
  guint placed = 0;

  imp->order = g_new (guint, sk->n_bones + 1);
  for (guint i = 0; i < sk->n_bones; i++)
    {
      guint n = 0;
      int at = (int)i;

      while (at >= 0 && (guint)at < sk->n_bones && state[at] == 0)
        {
          state[at] = 1;
          chain[n++] = (guint)at;
          at = sk->bones[at].parent;
        }
      while (n > 0)
        {
          guint c = chain[--n];

          state[c] = 2;
          imp->order[placed++] = c;
        }
    }
}

int
import_parent_of (TressGltfImport *imp, guint b)
{
  int p = imp->model->skeleton.bones[b].parent;

  return p >= 0 && (guint)p < imp->model->skeleton.n_bones && p != (int)b ? p : -1;
}

TressGltfImport *
tress_gltf_import_new (TressBfres *bfres, GBytes *model_fres, const char *source,
                       const TressGltfDocument *doc, const TressGltfImportOptions *options,
                       GError **error)
{
  g_autoptr (TressGltfImport) imp = g_new0 (TressGltfImport, 1);
  const TressBfresSkeleton *sk;
  g_autofree TressBfresSrt *srt = NULL;
  TressBfresScaling scaling;
  double lo[3] = { G_MAXDOUBLE, G_MAXDOUBLE, G_MAXDOUBLE },
         hi[3] = { -G_MAXDOUBLE, -G_MAXDOUBLE, -G_MAXDOUBLE };

  imp->bfres = bfres;
  imp->doc = doc;
  imp->fps = options != NULL && options->fps > 0 && isfinite (options->fps)
                 ? options->fps
                 : TRESS_GLTF_IMPORT_DEFAULT_FPS;
  imp->tolerance = options != NULL && options->tolerance > 0 ? options->tolerance : 0;
  imp->unmatched_joints = g_ptr_array_new_with_free_func (g_free);
  imp->curve_at = g_hash_table_new (NULL, NULL);
  imp->animator = tress_bfres_animator_new (bfres, model_fres, source, error);
  if (imp->animator == NULL)
    return NULL;
  imp->model = tress_bfres_animator_get_model (imp->animator);
  imp->anims = tress_bfres_animator_get_anims (imp->animator);
  sk = &imp->model->skeleton;
  imp->joint = g_new0 (int, sk->n_bones + 1);
  imp->ibm = g_new0 (TressBfresMatrix, sk->n_bones + 1);
  imp->bind_world = g_new0 (TressBfresMatrix, sk->n_bones + 1);
  imp->needed = g_new0 (guint8, doc->n_nodes + 1);
  srt = g_new0 (TressBfresSrt, sk->n_bones + 1);
  scaling = tress_bfres_animator_pose_srt (imp->animator, -1, 0, NULL, NULL, srt);
  tress_bfres_pose_world (sk, srt, scaling, imp->bind_world);
  for (guint b = 0; b < sk->n_bones; b++)
    for (guint k = 0; k < 3; k++)
      {
        lo[k] = MIN (lo[k], imp->bind_world[b].m[k][3]);
        hi[k] = MAX (hi[k], imp->bind_world[b].m[k][3]);
      }
  for (guint k = 0; k < 3 && sk->n_bones > 0; k++)
    imp->size = MAX (imp->size, hi[k] - lo[k]);
  if (!(imp->size > 0))
    imp->size = 1;
  order_bones (imp);
  for (guint i = 0; i < tress_bfres_get_n_curves (bfres); i++)
    {
      TressBfresCurveInfo info;

      if (tress_bfres_get_curve_info (bfres, i, &info))
        g_hash_table_insert (imp->curve_at, GSIZE_TO_POINTER (info.header_pos),
                             GUINT_TO_POINTER (i + 1));
    }
  if (!match_joints (imp, error))
    return NULL;
  return g_steal_pointer (&imp);
}

void
tress_gltf_import_free (TressGltfImport *imp)
{
  if (imp == NULL)
    return;
  g_clear_pointer (&imp->animator, tress_scene_animator_free);
  g_free (imp->skin_label);
  g_clear_pointer (&imp->unmatched_joints, g_ptr_array_unref);
  g_free (imp->joint);
  g_free (imp->ibm);
  g_free (imp->bind_world);
  g_free (imp->order);
  g_free (imp->needed);
  g_clear_pointer (&imp->curve_at, g_hash_table_unref);
  g_free (imp);
}

const char *
tress_gltf_import_get_model (TressGltfImport *imp)
{
  return imp->model->name;
}

const char *
tress_gltf_import_get_skin (TressGltfImport *imp)
{
  return imp->skin_label;
}

double
tress_gltf_import_get_fps (TressGltfImport *imp)
{
  return imp->fps;
}

int
tress_gltf_import_find_anim (TressGltfImport *imp, const char *name)
{
  guint n = tress_bfres_get_n_anims (imp->bfres);

  for (guint i = 0; i < n; i++)
    {
      TressBfresAnimInfo info;

      if (tress_bfres_get_anim_info (imp->bfres, i, &info) && g_strcmp0 (info.kind, "Skeletal") == 0
          && g_strcmp0 (info.name, name) == 0)
        return (int)i;
    }
  return -1;
}

void
import_tolerances (TressGltfImport *imp, TressGltfImportAnim *out)
{
  double store = G_MAXDOUBLE;

  if (imp->tolerance > 0)
    {
      for (guint k = 0; k < 3; k++)
        out->tolerance[k] = imp->tolerance;
    }
  else
    {
      out->tolerance[TRESS_GLTF_IMPORT_SCALE] = TRESS_GLTF_IMPORT_SCALE_TOLERANCE;
      out->tolerance[TRESS_GLTF_IMPORT_ROTATION] = TRESS_GLTF_IMPORT_ROTATION_TOLERANCE;
      out->tolerance[TRESS_GLTF_IMPORT_TRANSLATION]
          = TRESS_GLTF_IMPORT_TRANSLATION_TOLERANCE * imp->size;
    }
  /* Curves are fitted within half the tolerance; the file may store them
   * within the other half. */
  for (guint c = 0; c < TRESS_BFRES_N_CHANNELS; c++)
    store = MIN (store, import_channel_tolerance (out, c, imp->tolerance > 0) / 2);
  out->store_tolerance = store;
}

double
import_channel_tolerance (const TressGltfImportAnim *out, guint c, gboolean given)
{
  if (c <= TRESS_BFRES_CHANNEL_SCALE_Z)
    return out->tolerance[TRESS_GLTF_IMPORT_SCALE];
  if (c <= TRESS_BFRES_CHANNEL_TRANSLATE_Z)
    return out->tolerance[TRESS_GLTF_IMPORT_TRANSLATION];
  /* A quaternion component moves by about half the angle turned. */
  if (out->rotation_mode == TRESS_BFRES_ROTATION_QUATERNION && !given)
    return out->tolerance[TRESS_GLTF_IMPORT_ROTATION] / 2;
  return out->tolerance[TRESS_GLTF_IMPORT_ROTATION];
}

void
tress_gltf_import_anim_free (TressGltfImportAnim *anim)
{
  if (anim == NULL)
    return;
  g_free (anim->name);
  for (guint i = 0; i < anim->n_bones; i++)
    for (guint c = 0; c < TRESS_BFRES_N_CHANNELS; c++)
      g_clear_pointer (&anim->bones[i].curves[c], tress_curve_unref);
  g_free (anim->bones);
  g_clear_pointer (&anim->names, g_ptr_array_unref);
  g_clear_pointer (&anim->unmatched_joints, g_ptr_array_unref);
  g_clear_pointer (&anim->kept_bones, g_ptr_array_unref);
  g_free (anim->worst_position);
  g_free (anim->worst_rotation);
  g_free (anim->worst_stored_position);
  g_free (anim->worst_stored_rotation);
  g_free (anim);
}

GPtrArray *
tress_gltf_import_skeletal_names (TressBfres *bfres)
{
  GPtrArray *names = g_ptr_array_new ();
  guint n = tress_bfres_get_n_anims (bfres);

  for (guint i = 0; i < n; i++)
    {
      TressBfresAnimInfo info;

      if (tress_bfres_get_anim_info (bfres, i, &info) && g_strcmp0 (info.kind, "Skeletal") == 0)
        g_ptr_array_add (names, (gpointer)info.name);
    }
  return names;
}

GPtrArray *
tress_gltf_import_gltf_names (const TressGltfDocument *doc)
{
  GPtrArray *names = g_ptr_array_new ();

  for (guint i = 0; i < doc->n_animations; i++)
    if (doc->animations[i].name != NULL)
      g_ptr_array_add (names, doc->animations[i].name);
  return names;
}
