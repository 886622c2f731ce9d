/* tress-gltf-export-bfres.c: the glTF export of BFRES documents
 *
 * The skeletal animations are exported (tress_gltf_bfres_export); the model is
 * the one the preview finds (tress_bfres_find_model_in) or a BFRES, SBFRES or
 * SZS file the user chose. The snapshot is a copy of the FRES bytes and of
 * the archive's entry names, parsed again by each worker.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-gltf-export.h"

#include "formats/bfres/tress-bfres-scene.h"
#include "tress-gltf-bfres.h"

typedef struct
{
  GBytes *fres;   /* the document's FRES as it is now, edits included */
  char **archive; /* the entries of the archive it came from, or NULL */
  GFile *file;    /* where it was opened from, or NULL */
  char *name;     /* its name, for the parser's messages */
} Snapshot;

static GArray *
bfres_list_animations (gpointer model)
{
  TressBfres *bfres = model;
  guint n = tress_bfres_get_n_anims (bfres);
  GArray *out = g_array_sized_new (FALSE, TRUE, sizeof (TressGltfExportAnimation), n);

  g_array_set_clear_func (out, (GDestroyNotify)tress_gltf_export_animation_clear);
  for (guint i = 0; i < n; i++)
    {
      TressBfresAnimInfo info;
      TressGltfExportAnimation a = { 0 };

      if (!tress_bfres_get_anim_info (bfres, i, &info))
        continue;
      a.index = i;
      a.name = g_strdup (info.name);
      a.kind = g_strdup (info.kind);
      a.frame_count = MAX (info.frame_count, 0);
      a.exportable = g_strcmp0 (info.kind, "Skeletal") == 0;
      g_array_append_val (out, a);
    }
  return out;
}

static gpointer
bfres_snapshot (gpointer model, GFile *file)
{
  Snapshot *s = g_new0 (Snapshot, 1);

  s->fres = tress_bfres_get_bfres_bytes (model);
  s->archive = tress_bfres_list_archive (model);
  s->file = file != NULL ? g_object_ref (file) : NULL;
  s->name = file != NULL ? g_file_get_basename (file) : g_strdup ("this file");
  return s;
}

static void
bfres_snapshot_free (gpointer data)
{
  Snapshot *s = data;

  g_bytes_unref (s->fres);
  g_strfreev (s->archive);
  g_clear_object (&s->file);
  g_free (s->name);
  g_free (s);
}

/* The FRES bytes in the file the user chose (plain, Yaz0, SARC). */
static GBytes *
read_chosen (GFile *file, GError **error)
{
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                                  G_FILE_QUERY_INFO_NONE, NULL, NULL);

  if (info != NULL && g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    {
      g_autofree char *name = g_file_get_parse_name (file);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE, "%s is not a regular file",
                   name);
      return NULL;
    }
  bytes = g_file_load_bytes (file, NULL, NULL, error);
  return bytes != NULL ? tress_bfres_unwrap (bytes, NULL, error) : NULL;
}

/* The bones the skeletal animations move that @model lacks. */
static GPtrArray *
missing_bones (TressSceneAnimator *animator)
{
  const TressBfresModel *model = tress_bfres_animator_get_model (animator);
  const TressBfresAnims *anims = tress_bfres_animator_get_anims (animator);
  g_autoptr (GHashTable) bones = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *missing = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < model->skeleton.n_bones; i++)
    g_hash_table_add (bones, model->skeleton.bones[i].name);
  for (guint k = 0; k < anims->n_skeletal; k++)
    for (guint j = 0; j < anims->skeletal[k].n_bone_anims; j++)
      {
        char *name = anims->skeletal[k].bone_anims[j].name;

        if (name != NULL && !g_hash_table_contains (bones, name))
          {
            /* (added to the set, so that each is listed once) */
            g_hash_table_add (bones, name);
            g_ptr_array_add (missing, g_strdup (name));
          }
      }
  return missing;
}

static TressGltfModel *
bfres_find_model (gpointer data, GFile *chosen, char **looked_for, GError **error)
{
  Snapshot *s = data;
  g_autoptr (GBytes) fres = NULL;
  g_autoptr (TressBfres) anims = NULL;
  g_autoptr (TressSceneAnimator) animator = NULL;
  g_autofree char *source = NULL;
  const TressBfresModel *m;
  TressGltfModel *model;

  *looked_for = NULL;
  if (chosen != NULL)
    {
      fres = read_chosen (chosen, error);
      source = g_file_get_basename (chosen);
    }
  else
    {
      GError *local = NULL;

      fres = tress_bfres_find_model_in (s->fres, (const char *const *)s->archive, s->file, &source,
                                        &local);
      if (fres == NULL && local == NULL)
        {
          *looked_for
              = tress_bfres_describe_model_search_in ((const char *const *)s->archive, s->file);
          return NULL;
        }
      if (local != NULL)
        g_propagate_error (error, local);
    }
  if (fres == NULL)
    return NULL;
  /* The animations and the model read as the export reads them: a model
   * that fails here would fail the export. */
  anims = tress_bfres_parse (s->fres, s->name, error);
  if (anims == NULL)
    return NULL;
  animator = tress_bfres_animator_new (anims, fres, source, error);
  if (animator == NULL)
    return NULL;
  m = tress_bfres_animator_get_model (animator);
  model = g_new0 (TressGltfModel, 1);
  model->name = g_strdup (m->name);
  model->source = g_steal_pointer (&source);
  model->chosen = chosen != NULL;
  /* (tress_bfres_find_model_in gives the document's own bytes back) */
  model->own = chosen == NULL && fres == s->fres;
  model->n_joints = m->skeleton.n_bones;
  model->n_meshes = m->n_shapes;
  model->missing = missing_bones (animator);
  model->data = g_steal_pointer (&fres);
  model->data_free = (GDestroyNotify)g_bytes_unref;
  return model;
}

static TressGltfWriter *
bfres_export (gpointer data, const TressGltfModel *model, const TressGltfExportOptions *o,
              GPtrArray *notes, GError **error)
{
  Snapshot *s = data;
  g_autoptr (TressBfres) bfres = tress_bfres_parse (s->fres, s->name, error);
  TressGltfBfresOptions options = { o->fps, o->anims, o->n_anims };

  if (bfres == NULL)
    return NULL;
  return tress_gltf_bfres_export (bfres, model->data, model->source, &options, notes, error);
}

const TressGltfExporter tress_gltf_exporter_bfres = {
  .format_id = "bfres",
  .own_scene = FALSE,
  .split_label = NULL, /* each skeletal animation is a glTF animation of its own */
  .list_animations = bfres_list_animations,
  .snapshot = bfres_snapshot,
  .snapshot_free = bfres_snapshot_free,
  .find_model = bfres_find_model,
  .export = bfres_export,
};
