/* tress-bfres-scene.c: BFRES models and animations as a TressScene
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-bfres-scene.h"

#include <string.h>

#include "core/tress-error.h"
#include "core/tress-yaz0.h"
#include "formats/tress-problem.h"
#include "tress-bfres-anim.h"
#include "tress-bfres-pose.h"
#include "tress-sarc.h"

#define MAX_UNWRAP 4
#define NOTE_NAMES 8

/* ---- finding the model ---------------------------------------------------- */

static gboolean
is_fres (GBytes *bytes)
{
  gsize size;
  const guint8 *d = g_bytes_get_data (bytes, &size);

  return size >= 4 && memcmp (d, "FRES", 4) == 0;
}

static gboolean
fres_has_shapes (GBytes *fres)
{
  gsize size;
  const guint8 *d = g_bytes_get_data (fres, &size);
  g_autoptr (TressBfresModels) models = tress_bfres_models_parse (d, size, NULL);

  for (guint i = 0; models != NULL && i < models->n_models; i++)
    if (models->models[i].n_shapes > 0)
      return TRUE;
  return FALSE;
}

/* tress_bfres_unwrap(), every Yaz0 stream met (entries looked into too)
 * drawn from @budget: an archive of Yaz0 "bombs" costs no more than it. */
static GBytes *
unwrap_within (GBytes *file, const char *entry, TressYaz0Budget *budget, GError **error)
{
  g_autoptr (GBytes) cur = g_bytes_ref (file);

  for (guint depth = 0; depth <= MAX_UNWRAP; depth++)
    {
      gsize size;
      const guint8 *d = g_bytes_get_data (cur, &size);

      if (is_fres (cur))
        return g_steal_pointer (&cur);
      if (tress_yaz0_is_compressed (d, size))
        {
          guint8 head[4];
          GBytes *inner;

          /* Only what starts as a BFRES or an archive is worth inflating. */
          if (tress_yaz0_peek (d, size, head, 4) == 4 && memcmp (head, "FRES", 4) != 0
              && memcmp (head, "SARC", 4) != 0)
            {
              g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                           "Yaz0 data at offset 0x10: expected a BFRES or a SARC archive inside, "
                           "found %02X %02X %02X %02X",
                           head[0], head[1], head[2], head[3]);
              return NULL;
            }
          inner = tress_yaz0_decompress_budget (d, size, budget, error);

          if (inner == NULL)
            return NULL;
          g_bytes_unref (cur);
          cur = inner;
        }
      else if (tress_sarc_probe (d, size))
        {
          g_autoptr (TressSarc) sarc = tress_sarc_parse (cur, error);
          GBytes *found = NULL;

          if (sarc == NULL)
            return NULL;
          for (guint i = 0; i < tress_sarc_get_n_files (sarc) && found == NULL; i++)
            {
              const TressSarcEntry *e = tress_sarc_get_entry (sarc, i);
              g_autoptr (GBytes) f = NULL, inner = NULL;

              if (entry != NULL && g_strcmp0 (e->name, entry) != 0)
                continue;
              f = tress_sarc_get_file (sarc, i);
              inner = entry != NULL ? g_bytes_ref (f) : unwrap_within (f, NULL, budget, NULL);
              if (entry != NULL || (inner != NULL && fres_has_shapes (inner)))
                found = g_steal_pointer (&inner);
            }
          if (found == NULL)
            {
              g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED,
                           entry != NULL ? "The archive has no file “%s”"
                                         : "The archive holds no BFRES with a model%s",
                           entry != NULL ? entry : "");
              return NULL;
            }
          g_bytes_unref (cur);
          cur = found;
          entry = NULL;
        }
      else
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                       "BFRES magic at offset 0x0: expected \"FRES\", \"Yaz0\" or \"SARC\", "
                       "found %u bytes of something else",
                       (guint)MIN (size, 4));
          return NULL;
        }
    }
  g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED,
               "More than %d nested containers around the BFRES", MAX_UNWRAP);
  return NULL;
}

GBytes *
tress_bfres_unwrap (GBytes *file, const char *entry, GError **error)
{
  TressYaz0Budget budget;

  tress_yaz0_budget_init (&budget);
  return unwrap_within (file, entry, &budget, error);
}

/* "Animal_Bass_Animation.sbfres" → "Animal_Bass"; NULL when the name does
 * not end in "_Animation" before its extension. */
static char *
model_stem (const char *basename)
{
  g_autofree char *stem = g_strdup (basename);
  char *dot = strrchr (stem, '.');
  gsize len;

  if (dot != NULL)
    *dot = '\0';
  len = strlen (stem);
  if (len <= 10 || g_ascii_strcasecmp (stem + len - 10, "_Animation") != 0)
    return NULL;
  stem[len - 10] = '\0';
  return g_steal_pointer (&stem);
}

/* X.bfres or X.sbfres beside X_Animation.* (or inside the same archive). */
static GBytes *
find_sibling (const char *const *archive, GFile *anim_file, char **source, GError **error)
{
  static const char *const extensions[] = { ".bfres", ".sbfres" };
  g_autofree char *basename = NULL, *stem = NULL;

  if (anim_file == NULL)
    return NULL;
  basename = g_file_get_basename (anim_file);
  /* In an archive: X_Animation.bfres next to X.bfres. */
  for (guint i = 0; archive != NULL && archive[i] != NULL; i++)
    {
      g_autofree char *entry_base = g_path_get_basename (archive[i]);
      g_autofree char *entry_stem = model_stem (entry_base);
      g_autofree char *dir = g_path_get_dirname (archive[i]);

      if (entry_stem == NULL)
        continue;
      for (guint k = 0; k < G_N_ELEMENTS (extensions); k++)
        {
          g_autofree char *name = g_strconcat (entry_stem, extensions[k], NULL);
          g_autofree char *path
              = strcmp (dir, ".") == 0 ? g_strdup (name) : g_build_path ("/", dir, name, NULL);

          for (guint j = 0; archive[j] != NULL; j++)
            if (strcmp (archive[j], path) == 0)
              {
                g_autoptr (GBytes) file = g_file_load_bytes (anim_file, NULL, NULL, error);
                GBytes *fres;

                if (file == NULL)
                  return NULL;
                fres = tress_bfres_unwrap (file, path, error);
                if (fres != NULL)
                  *source = g_strdup_printf ("%s in %s", path, basename);
                return fres;
              }
        }
    }
  stem = model_stem (basename);
  if (stem == NULL)
    return NULL;
  for (guint k = 0; k < G_N_ELEMENTS (extensions); k++)
    {
      g_autofree char *name = g_strconcat (stem, extensions[k], NULL);
      g_autoptr (GFile) parent = g_file_get_parent (anim_file);
      g_autoptr (GFile) sibling = parent != NULL ? g_file_get_child (parent, name) : NULL;
      g_autoptr (GBytes) bytes = NULL;
      g_autoptr (GError) local = NULL;

      if (sibling == NULL)
        continue;
      bytes = g_file_load_bytes (sibling, NULL, NULL, &local);
      if (bytes == NULL)
        {
          if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
            continue;
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      *source = g_strdup (name);
      return tress_bfres_unwrap (bytes, NULL, error);
    }
  return NULL;
}

GBytes *
tress_bfres_find_model (TressBfres *anims, GFile *anim_file, char **source, GError **error)
{
  g_autoptr (GBytes) own = tress_bfres_get_bfres_bytes (anims);
  g_auto (GStrv) archive = tress_bfres_list_archive (anims);

  return tress_bfres_find_model_in (own, (const char *const *)archive, anim_file, source, error);
}

GBytes *
tress_bfres_find_model_in (GBytes *own_fres, const char *const *archive, GFile *anim_file,
                           char **source, GError **error)
{
  g_autoptr (GBytes) own = g_bytes_ref (own_fres);
  /* A document not on disk (a demo) is "this file" to people. */
  g_autofree char *name
      = anim_file != NULL ? g_file_get_basename (anim_file) : g_strdup ("this file");
  GBytes *found;
  g_autoptr (GError) local = NULL;
  gsize size;
  const guint8 *d = g_bytes_get_data (own, &size);
  g_autoptr (TressBfresModels) models = NULL;

  *source = NULL;
  if (fres_has_shapes (own))
    {
      *source = g_strdup (name);
      return g_steal_pointer (&own);
    }
  found = find_sibling (archive, anim_file, source, &local);
  if (found != NULL)
    return found;
  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  /* The file's own skeleton without shapes: bones only. */
  models = tress_bfres_models_parse (d, size, NULL);
  if (models != NULL && models->n_models > 0)
    {
      *source = g_strdup_printf ("%s (skeleton only)", name);
      return g_steal_pointer (&own);
    }
  return NULL;
}

char *
tress_bfres_describe_model_search (TressBfres *anims, GFile *anim_file)
{
  g_auto (GStrv) archive = tress_bfres_list_archive (anims);

  return tress_bfres_describe_model_search_in ((const char *const *)archive, anim_file);
}

char *
tress_bfres_describe_model_search_in (const char *const *archive, GFile *anim_file)
{
  g_autofree char *name = anim_file != NULL ? g_file_get_basename (anim_file) : NULL;
  g_autofree char *stem = name != NULL ? model_stem (name) : NULL;
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "no model or skeleton in %s", name != NULL ? name : "the file");
  if (name == NULL)
    return g_string_free (s, FALSE);
  if (stem != NULL)
    g_string_append_printf (s, ", no %s.bfres or %s.sbfres beside it", stem, stem);
  else
    g_string_append (s, ", and its name does not end in “_Animation”, so no X.bfres beside an "
                        "X_Animation.bfres was looked for");
  if (archive != NULL)
    g_string_append (s, ", and no X.bfres beside an X_Animation.bfres in its archive");
  return g_string_free (s, FALSE);
}

/* ---- the animator --------------------------------------------------------- */

typedef struct
{
  TressSceneAnimator parent;
  TressBfresModels *models;
  const TressBfresModel *model; /* in models */
  TressBfresAnims *anims;
  int **bone_anims;     /* per skeletal animation: per bone, its bone animation or −1 */
  int **vis_nodes;      /* per visibility animation: per name, the bone node or −1 */
  int **vis_materials;  /* per visibility animation: per name, the material or −1 */
  GHashTable *curve_at; /* curve header position → curve index + 1 */
  /* Per skeletal animation: the curve index (or −1) of each curve reference
   * of its bone animations, one after the other (looked up once, not at
   * every frame), and where each bone animation's start. */
  int **curve_of;
  guint **curve_first;
  TressBfresSrt *srt; /* scratch, per bone */
  TressBfresMatrix *world;
  graphene_matrix_t *locals;
  gboolean *material_visible;
  int override_bone; /* a gizmo's pose, or −1 */
  gboolean override_rotates, override_moves;
  double override_euler[3];
  double override_translation[3];
  /* The last pose (for tress_bfres_animator_repose): its scaling, and
   * whether self->srt holds it. */
  TressBfresScaling posed_scaling;
  gboolean posed;
  guint8 *below; /* per bone: posed again by the last repose */

  /* While posing. */
  guint posing; /* the skeletal animation */
  TressSceneSampleFunc sample;
  gpointer sample_data;
  double frame;
} BfresAnimator;

static int
curve_index (BfresAnimator *self, gsize header_pos)
{
  return GPOINTER_TO_INT (g_hash_table_lookup (self->curve_at, GSIZE_TO_POINTER (header_pos))) - 1;
}

static gboolean
bone_curve_value (gpointer data, guint bone_anim, const TressBfresAnimCurveRef *ref, double *value)
{
  BfresAnimator *self = data;
  const TressBfresBoneAnim *ba = &self->anims->skeletal[self->posing].bone_anims[bone_anim];
  int curve = self->curve_of[self->posing][self->curve_first[self->posing][bone_anim]
                                           + (guint)(ref - ba->curves)];

  if (curve < 0)
    return FALSE;
  *value = self->sample (self->sample_data, (guint)curve, self->frame);
  return TRUE;
}

static void
apply_visibility (BfresAnimator *self, guint v)
{
  const TressBfresVisibilityAnim *a = &self->anims->visibility[v];
  TressScene *scene = self->parent.scene;

  for (guint i = 0; i < a->n_names; i++)
    {
      gboolean visible = a->base_visible[i];

      for (guint k = 0; k < a->n_curves; k++)
        if (a->curves[k].target == i)
          {
            int curve = curve_index (self, a->curves[k].header_pos);

            if (curve >= 0)
              visible = self->sample (self->sample_data, (guint)curve, self->frame) > 0.5;
          }
      if (self->vis_nodes[v][i] >= 0)
        tress_scene_get_node (scene, (guint)self->vis_nodes[v][i])->visible = visible;
      if (self->vis_materials[v][i] >= 0)
        self->material_visible[self->vis_materials[v][i]] = visible;
    }
}

static const TressSceneAnimatorClass bfres_animator_class;

static BfresAnimator *
bfres_animator (TressSceneAnimator *animator)
{
  g_return_val_if_fail (animator != NULL && animator->klass == &bfres_animator_class, NULL);
  return (BfresAnimator *)animator;
}

const TressBfresModel *
tress_bfres_animator_get_model (TressSceneAnimator *animator)
{
  BfresAnimator *self = bfres_animator (animator);

  return self != NULL ? self->model : NULL;
}

const TressBfresAnims *
tress_bfres_animator_get_anims (TressSceneAnimator *animator)
{
  BfresAnimator *self = bfres_animator (animator);

  return self != NULL ? self->anims : NULL;
}

static void
apply_override (BfresAnimator *self, TressBfresSrt *srt)
{
  TressBfresSrt *s;

  if (self->override_bone < 0)
    return;
  s = &srt[self->override_bone];
  if (self->override_moves)
    memcpy (s->translation, self->override_translation, sizeof self->override_translation);
  if (!self->override_rotates)
    return;
  if (s->rotation_mode == TRESS_BFRES_ROTATION_EULER_XYZ)
    memcpy (s->rotation, self->override_euler, sizeof self->override_euler);
  else
    tress_bfres_euler_to_quaternion (self->override_euler, s->rotation);
}

/* The world matrices from self->srt into the scene: every bone's, or (@below
 * ≥ 0) those of bone @below and the bones below it. */
static void
set_worlds (BfresAnimator *self, TressBfresScaling scaling, int below)
{
  const TressBfresSkeleton *sk = &self->model->skeleton;
  TressScene *scene = self->parent.scene;

  if (below >= 0)
    tress_bfres_pose_world_below (sk, self->srt, scaling, self->world, (guint)below, self->below);
  else
    tress_bfres_pose_world (sk, self->srt, scaling, self->world);
  for (guint i = 0; i < sk->n_bones; i++)
    if (below < 0 || self->below[i])
      tress_bfres_matrix_to_graphene (&self->world[i], &tress_scene_get_node (scene, i)->world);
  scene->pose_serial++;
}

TressBfresScaling
tress_bfres_animator_pose_srt (TressSceneAnimator *animator, int skeletal, double frame,
                               TressSceneSampleFunc sample, gpointer user_data, TressBfresSrt *srt)
{
  BfresAnimator *self = bfres_animator (animator);
  const TressBfresSkeleton *sk;
  const TressBfresSkeletalAnim *skel;

  g_return_val_if_fail (self != NULL, TRESS_BFRES_SCALING_NONE);
  sk = &self->model->skeleton;
  if (skeletal < 0 || (guint)skeletal >= self->anims->n_skeletal)
    {
      tress_bfres_bind_srt (sk, srt);
      apply_override (self, srt);
      return sk->scaling;
    }
  skel = &self->anims->skeletal[skeletal];
  self->posing = (guint)skeletal;
  self->sample = sample;
  self->sample_data = user_data;
  self->frame = frame;
  tress_bfres_pose_srt (sk, skel, self->bone_anims[skeletal], bone_curve_value, self, srt);
  self->sample = NULL;
  self->sample_data = NULL;
  apply_override (self, srt);
  return skel->scaling != TRESS_BFRES_SCALING_NONE ? skel->scaling : sk->scaling;
}

void
tress_bfres_animator_set_override (TressSceneAnimator *animator, int bone, const double euler[3],
                                   const double translation[3])
{
  BfresAnimator *self = bfres_animator (animator);

  g_return_if_fail (self != NULL);
  self->override_bone = bone >= 0 && (guint)bone < self->model->skeleton.n_bones
                                && (euler != NULL || translation != NULL)
                            ? bone
                            : -1;
  self->override_rotates = self->override_bone >= 0 && euler != NULL;
  self->override_moves = self->override_bone >= 0 && translation != NULL;
  if (self->override_rotates)
    memcpy (self->override_euler, euler, sizeof self->override_euler);
  if (self->override_moves)
    memcpy (self->override_translation, translation, sizeof self->override_translation);
}

gboolean
tress_bfres_animator_repose (TressSceneAnimator *animator)
{
  BfresAnimator *self = bfres_animator (animator);

  g_return_val_if_fail (self != NULL, FALSE);
  if (!self->posed || self->override_bone < 0)
    return FALSE;
  apply_override (self, self->srt);
  set_worlds (self, self->posed_scaling, self->override_bone);
  return TRUE;
}

const TressBfresBoneAnim *
tress_bfres_animator_get_bone_anim (TressSceneAnimator *animator, int skeletal, guint bone)
{
  BfresAnimator *self = bfres_animator (animator);
  int i;

  g_return_val_if_fail (self != NULL, NULL);
  if (skeletal < 0 || (guint)skeletal >= self->anims->n_skeletal
      || bone >= self->model->skeleton.n_bones)
    return NULL;
  i = self->bone_anims[skeletal][bone];
  return i >= 0 ? &self->anims->skeletal[skeletal].bone_anims[i] : NULL;
}

static void
bfres_animator_pose (TressSceneAnimator *animator, const guint *anims, guint n_anims, double frame,
                     TressSceneSampleFunc sample, gpointer user_data)
{
  BfresAnimator *self = (BfresAnimator *)animator;
  const TressBfresSkeleton *sk = &self->model->skeleton;
  TressScene *scene = animator->scene;
  int skel_index = -1;
  TressBfresScaling scaling;

  for (guint i = 0; i < n_anims && skel_index < 0; i++)
    if (anims[i] < self->anims->n_skeletal)
      skel_index = (int)anims[i];
  /* The local transforms as exporters read them, composed by the scaling mode. */
  scaling
      = tress_bfres_animator_pose_srt (animator, skel_index, frame, sample, user_data, self->srt);
  set_worlds (self, scaling, -1);
  self->posed_scaling = scaling;
  self->posed = TRUE;
  self->sample = sample;
  self->sample_data = user_data;
  self->frame = frame;

  for (guint i = 0; i < sk->n_bones; i++)
    tress_scene_get_node (scene, i)->visible = (sk->bones[i].flags & TRESS_BFRES_BONE_VISIBLE) != 0;
  for (guint i = 0; i < self->model->n_materials; i++)
    self->material_visible[i] = TRUE;
  for (guint i = 0; i < n_anims; i++)
    if (anims[i] >= self->anims->n_skeletal
        && anims[i] < self->anims->n_skeletal + self->anims->n_visibility)
      apply_visibility (self, anims[i] - self->anims->n_skeletal);
  for (guint i = 0; i < self->model->n_shapes; i++)
    {
      const TressBfresShape *s = &self->model->shapes[i];

      tress_scene_get_mesh (scene, i)->visible
          = self->material_visible[s->material] && tress_scene_get_node (scene, s->bone)->visible;
    }
  self->sample = NULL;
  self->sample_data = NULL;
}

static void
bfres_animator_free (TressSceneAnimator *animator)
{
  BfresAnimator *self = (BfresAnimator *)animator;

  for (guint i = 0; self->anims != NULL && i < self->anims->n_skeletal; i++)
    {
      g_free (self->bone_anims[i]);
      g_free (self->curve_of[i]);
      g_free (self->curve_first[i]);
    }
  g_free (self->curve_of);
  g_free (self->curve_first);
  for (guint i = 0; self->anims != NULL && i < self->anims->n_visibility; i++)
    {
      g_free (self->vis_nodes[i]);
      g_free (self->vis_materials[i]);
    }
  g_free (self->bone_anims);
  g_free (self->vis_nodes);
  g_free (self->vis_materials);
  g_clear_pointer (&self->curve_at, g_hash_table_unref);
  g_free (self->srt);
  g_free (self->world);
  g_free (self->below);
  g_free (self->locals);
  g_free (self->material_visible);
  tress_bfres_anims_free (self->anims);
  tress_bfres_models_free (self->models);
  tress_scene_animator_clear (animator);
  g_free (self);
}

static const TressSceneAnimatorClass bfres_animator_class = {
  bfres_animator_pose,
  bfres_animator_free,
};

/* How many of the bones @anims animates @model has (−1 for a model without
 * shapes, so that any model with a mesh comes first). */
static int
model_score (const TressBfresModel *model, const TressBfresAnims *anims)
{
  int score = 0;

  for (guint i = 0; i < anims->n_skeletal; i++)
    for (guint k = 0; k < anims->skeletal[i].n_bone_anims; k++)
      if (tress_bfres_skeleton_find_bone (&model->skeleton, anims->skeletal[i].bone_anims[k].name)
          >= 0)
        score++;
  return model->n_shapes > 0 ? score : score - (1 << 24);
}

/* Distinct colours per material, muted so that lighting reads well. */
static void
material_colour (guint material, float rgba[4])
{
  static const float palette[][3] = {
    { 0.78f, 0.74f, 0.66f }, { 0.55f, 0.70f, 0.85f }, { 0.85f, 0.60f, 0.55f },
    { 0.60f, 0.80f, 0.60f }, { 0.80f, 0.72f, 0.45f }, { 0.70f, 0.60f, 0.82f },
  };
  const float *c = palette[material % G_N_ELEMENTS (palette)];

  rgba[0] = c[0];
  rgba[1] = c[1];
  rgba[2] = c[2];
  rgba[3] = 1;
}

static void
build_scene (BfresAnimator *self, TressScene *scene)
{
  const TressBfresModel *m = self->model;
  const TressBfresSkeleton *sk = &m->skeleton;
  guint n_matrices = sk->n_smooth + sk->n_rigid;
  g_autofree int *smooth_joint = g_new (int, n_matrices + 1);
  g_autofree int *rigid_joint = g_new (int, n_matrices + 1);
  graphene_matrix_t identity;

  graphene_matrix_init_identity (&identity);
  for (guint i = 0; i < n_matrices; i++)
    smooth_joint[i] = rigid_joint[i] = -1;
  for (guint i = 0; i < sk->n_bones; i++)
    tress_scene_add_node (scene, sk->bones[i].name, sk->bones[i].parent, i);
  /* The bind pose, for the inverse of bones without an inverse matrix. */
  tress_bfres_bind_srt (sk, self->srt);
  tress_bfres_pose_world (sk, self->srt, sk->scaling, self->world);

  for (guint i = 0; i < m->n_shapes; i++)
    {
      const TressBfresShape *s = &m->shapes[i];
      const TressBfresVertexBuffer *vb = &m->vertex_buffers[s->vertex_buffer];
      const TressBfresMesh *lod = &s->meshes[0];
      gboolean skinned = s->skin_count > 0;
      TressSceneMesh *mesh = tress_scene_add_mesh (scene, s->name, vb->n_vertices, lod->n_triangles,
                                                   vb->normals != NULL, FALSE, skinned);

      mesh->id = i;
      material_colour (s->material, mesh->colour);
      /* (An empty array may have no data: memcpy from NULL is undefined even
       * for 0 bytes; a fuzzed model had a mesh without triangles.) */
      if (vb->n_vertices > 0)
        memcpy (mesh->positions, vb->positions, 3 * sizeof (float) * vb->n_vertices);
      if (vb->normals != NULL && vb->n_vertices > 0)
        memcpy (mesh->normals, vb->normals, 3 * sizeof (float) * vb->n_vertices);
      if (lod->n_triangles > 0)
        memcpy (mesh->triangles, lod->triangles, 3 * sizeof (guint32) * lod->n_triangles);
      if (!skinned)
        {
          mesh->node = s->bone;
          continue;
        }
      for (guint v = 0; v < vb->n_vertices; v++)
        for (guint k = 0; k < TRESS_SCENE_MAX_INFLUENCES; k++)
          {
            gsize at = TRESS_SCENE_MAX_INFLUENCES * (gsize)v + k;
            guint matrix = vb->skin_indices[at];
            float w = s->skin_count == 1 ? (k == 0 ? 1 : 0)
                                         : (k < s->skin_count ? vb->skin_weights[at] : 0);
            int *joints = s->skin_count == 1 ? rigid_joint : smooth_joint;

            mesh->weights[at] = 0;
            if (w == 0 || matrix >= n_matrices)
              continue;
            if (joints[matrix] < 0)
              {
                guint bone = sk->matrix_to_bone[matrix];
                TressBfresMatrix inv;
                graphene_matrix_t g;

                /* Rigid skinning: vertices in the bone's own space. Smooth:
                 * in model space, brought to the bone by its inverse model
                 * matrix (a rigid matrix used smoothly by the bind pose). */
                if (s->skin_count == 1)
                  g = identity;
                else
                  {
                    if (matrix < sk->n_smooth)
                      tress_bfres_matrix_from_3x4 (sk->inverse_model + 12 * matrix, &inv);
                    else
                      tress_bfres_matrix_invert (&self->world[bone], &inv);
                    tress_bfres_matrix_to_graphene (&inv, &g);
                  }
                joints[matrix] = (int)tress_scene_add_joint (scene, (int)bone, &g);
              }
            mesh->joints[at] = (guint16)joints[matrix];
            mesh->weights[at] = w;
          }
    }
}

/* "3 animated bones are not in Bass: Chin, Arm_1_L, Arm_1_R", or NULL. */
static char *
missing_note (const char *model, GPtrArray *missing, const char *what)
{
  GString *s;

  if (missing->len == 0)
    return NULL;
  s = g_string_new (NULL);
  if (missing->len == 1)
    g_string_append_printf (s, "1 %s is not in %s: ", what, model);
  else
    g_string_append_printf (s, "%u %ss are not in %s: ", missing->len, what, model);
  for (guint i = 0; i < missing->len && i < NOTE_NAMES; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", (const char *)g_ptr_array_index (missing, i));
  if (missing->len > NOTE_NAMES)
    g_string_append_printf (s, " and %u more", missing->len - NOTE_NAMES);
  return g_string_free (s, FALSE);
}

TressSceneAnimator *
tress_bfres_animator_new (TressBfres *anims_file, GBytes *model_fres, const char *source,
                          GError **error)
{
  g_autoptr (GBytes) own = tress_bfres_get_bfres_bytes (anims_file);
  g_autoptr (TressBfresModels) models = NULL;
  g_autoptr (TressBfresAnims) anims = NULL;
  g_autoptr (GPtrArray) problems = NULL;
  const TressBfresModel *best = NULL;
  int best_score = G_MININT;
  BfresAnimator *self;
  TressScene *scene;
  guint n_curves = tress_bfres_get_n_curves (anims_file);
  gsize size;
  const guint8 *d;

  d = g_bytes_get_data (model_fres, &size);
  models = tress_bfres_models_parse (d, size, error);
  if (models == NULL)
    return NULL;
  d = g_bytes_get_data (own, &size);
  anims = tress_bfres_anims_parse (d, size, error);
  if (anims == NULL)
    return NULL;
  for (guint i = 0; i < models->n_models; i++)
    {
      int score = model_score (&models->models[i], anims);

      if (score > best_score)
        {
          best_score = score;
          best = &models->models[i];
        }
    }
  if (best == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED, "%s holds no model", source);
      return NULL;
    }
  problems = tress_bfres_check_bind (best, 0);
  if (problems->len > 0)
    {
      const TressProblem *p = g_ptr_array_index (problems, 0);

      g_set_error (
          error, TRESS_ERROR, TRESS_ERROR_INVALID,
          "Model “%s” fails its bind check: %s (inverse matrix at offset 0x%" G_GSIZE_MODIFIER
          "x)%s",
          best->name, p->message, p->offset, problems->len > 1 ? " and more bones" : "");
      return NULL;
    }

  self = g_new0 (BfresAnimator, 1);
  self->override_bone = -1;
  scene = tress_scene_new (best->name);
  tress_scene_animator_init (&self->parent, &bfres_animator_class, scene, source, n_curves,
                             anims->n_skeletal + anims->n_visibility);
  self->model = best;
  self->models = g_steal_pointer (&models);
  self->anims = g_steal_pointer (&anims);
  self->srt = g_new0 (TressBfresSrt, best->skeleton.n_bones + 1);
  self->world = g_new0 (TressBfresMatrix, best->skeleton.n_bones + 1);
  self->below = g_new0 (guint8, best->skeleton.n_bones + 1);
  self->locals = g_new0 (graphene_matrix_t, best->skeleton.n_bones + 1);
  self->material_visible = g_new0 (gboolean, best->n_materials + 1);
  build_scene (self, scene);

  /* Curves by header position. */
  self->curve_at = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < n_curves; i++)
    {
      TressBfresCurveInfo info;

      if (tress_bfres_get_curve_info (anims_file, i, &info))
        g_hash_table_insert (self->curve_at, GSIZE_TO_POINTER (info.header_pos),
                             GINT_TO_POINTER (i + 1));
    }

  self->bone_anims = g_new0 (int *, self->anims->n_skeletal + 1);
  self->curve_of = g_new0 (int *, self->anims->n_skeletal + 1);
  self->curve_first = g_new0 (guint *, self->anims->n_skeletal + 1);
  for (guint a = 0; a < self->anims->n_skeletal; a++)
    {
      const TressBfresSkeletalAnim *sa = &self->anims->skeletal[a];
      gsize n_refs = 0;

      self->curve_first[a] = g_new (guint, sa->n_bone_anims + 1);
      for (guint k = 0; k < sa->n_bone_anims; k++)
        {
          self->curve_first[a][k] = (guint)n_refs;
          n_refs += sa->bone_anims[k].n_curves;
        }
      self->curve_of[a] = g_new (int, n_refs + 1);
      for (guint k = 0; k < sa->n_bone_anims; k++)
        for (guint c = 0; c < sa->bone_anims[k].n_curves; c++)
          self->curve_of[a][self->curve_first[a][k] + c]
              = curve_index (self, sa->bone_anims[k].curves[c].header_pos);
    }
  for (guint a = 0; a < self->anims->n_skeletal; a++)
    {
      const TressBfresSkeletalAnim *sa = &self->anims->skeletal[a];
      g_autoptr (GPtrArray) missing = g_ptr_array_new ();

      self->parent.anim_names[a] = g_strdup (sa->name);
      self->parent.anim_frames[a] = sa->frame_count;
      self->bone_anims[a] = g_new (int, best->skeleton.n_bones + 1);
      for (guint b = 0; b < best->skeleton.n_bones; b++)
        self->bone_anims[a][b] = -1;
      for (guint k = 0; k < sa->n_bone_anims; k++)
        {
          const TressBfresBoneAnim *ba = &sa->bone_anims[k];
          int bone = tress_bfres_skeleton_find_bone (&best->skeleton, ba->name);

          if (bone < 0)
            g_ptr_array_add (missing, ba->name);
          else if (self->bone_anims[a][bone] < 0)
            self->bone_anims[a][bone] = (int)k;
          for (guint c = 0; c < ba->n_curves; c++)
            {
              int curve = curve_index (self, ba->curves[c].header_pos);

              if (curve < 0)
                continue;
              self->parent.curve_anim[curve] = (int)a;
              self->parent.curve_node[curve] = bone;
            }
        }
      self->parent.anim_notes[a] = missing_note (best->name, missing, "animated bone");
    }

  self->vis_nodes = g_new0 (int *, self->anims->n_visibility + 1);
  self->vis_materials = g_new0 (int *, self->anims->n_visibility + 1);
  for (guint v = 0; v < self->anims->n_visibility; v++)
    {
      const TressBfresVisibilityAnim *va = &self->anims->visibility[v];
      guint a = self->anims->n_skeletal + v;
      g_autoptr (GPtrArray) missing = g_ptr_array_new ();

      self->parent.anim_names[a] = g_strdup (va->name);
      self->parent.anim_frames[a] = va->frame_count;
      self->vis_nodes[v] = g_new (int, va->n_names + 1);
      self->vis_materials[v] = g_new (int, va->n_names + 1);
      for (guint i = 0; i < va->n_names; i++)
        {
          self->vis_nodes[v][i] = -1;
          self->vis_materials[v][i] = -1;
          if (!va->materials)
            self->vis_nodes[v][i] = tress_bfres_skeleton_find_bone (&best->skeleton, va->names[i]);
          else
            for (guint k = 0; k < best->n_materials; k++)
              if (g_strcmp0 (best->materials[k], va->names[i]) == 0)
                self->vis_materials[v][i] = (int)k;
          if (self->vis_nodes[v][i] < 0 && self->vis_materials[v][i] < 0)
            g_ptr_array_add (missing, va->names[i]);
        }
      for (guint c = 0; c < va->n_curves; c++)
        {
          int curve = curve_index (self, va->curves[c].header_pos);
          guint t = va->curves[c].target;

          if (curve < 0)
            continue;
          self->parent.curve_anim[curve] = (int)a;
          self->parent.curve_node[curve] = t < va->n_names ? self->vis_nodes[v][t] : -1;
        }
      self->parent.anim_notes[a]
          = missing_note (best->name, missing, va->materials ? "material" : "bone");
    }
  bfres_animator_pose (&self->parent, NULL, 0, 0, NULL, NULL);
  return &self->parent;
}
