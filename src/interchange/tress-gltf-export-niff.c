/* tress-gltf-export-niff.c: the glTF export of NIFF documents
 *
 * A NIFF file holds its own scene, so no model is chosen: the "model" is the
 * file's scene, read again by each worker from the snapshot, the document's
 * bytes as they are now (edits included, tress_format_niff.serialize). Its
 * AnimGroups are the animations listed; those chosen are animated and the
 * others hold their first frame (tress_gltf_niff_export), in one glTF
 * animation or (split) one per AnimGroup.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-gltf-export.h"

#include <glib/gi18n-lib.h>

#include "formats/niff/tress-niff.h"
#include "tress-gltf-niff.h"

typedef struct
{
  GBytes *bytes; /* the document's file as it is now, or NULL when it could not be written */
  char *error;   /* why not */
  char *name;    /* its name, for the parser's messages and the file's extras */
} Snapshot;

static GArray *
niff_list_animations (gpointer model)
{
  TressNiffFile *file = model;
  guint n = tress_niff_file_get_n_groups (file);
  GArray *out = g_array_sized_new (FALSE, TRUE, sizeof (TressGltfExportAnimation), n);

  g_array_set_clear_func (out, (GDestroyNotify)tress_gltf_export_animation_clear);
  for (guint g = 0; g < n; g++)
    {
      TressNiffGroupInfo info;
      TressGltfExportAnimation a = { 0 };

      if (!tress_niff_group_get_info (file, g, &info))
        continue;
      a.index = g;
      a.name = info.name != NULL ? g_strdup (info.name) : g_strdup_printf ("AnimGroup %u", g);
      a.kind = g_strdup ("AnimGroup");
      a.frame_count = MAX (tress_niff_group_get_frame_count (file, g), 0);
      a.exportable = TRUE;
      g_array_append_val (out, a);
    }
  return out;
}

static gpointer
niff_snapshot (gpointer model, GFile *file)
{
  Snapshot *s = g_new0 (Snapshot, 1);
  g_autoptr (GError) error = NULL;

  s->bytes = tress_format_niff.serialize (model, &error);
  if (s->bytes == NULL)
    s->error = g_strdup (error->message);
  s->name = file != NULL ? g_file_get_basename (file) : g_strdup ("this file");
  return s;
}

static void
niff_snapshot_free (gpointer data)
{
  Snapshot *s = data;

  g_clear_pointer (&s->bytes, g_bytes_unref);
  g_free (s->error);
  g_free (s->name);
  g_free (s);
}

static TressNiffFile *
snapshot_parse (Snapshot *s, GError **error)
{
  if (s->bytes == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s could not be written: %s", s->name,
                   s->error);
      return NULL;
    }
  return tress_format_niff.parse (s->bytes, s->name, error);
}

/* The scene of the file itself: what its export writes, counted by an export
 * without animations (quick: no samples). */
static TressGltfModel *
niff_find_model (gpointer data, GFile *chosen, char **looked_for, GError **error)
{
  Snapshot *s = data;
  TressNiffFile *file;
  g_autoptr (TressGltfWriter) writer = NULL;
  TressGltfNiffOptions still = { 0, (const guint *)"", 0 }; /* no AnimGroup animated */
  TressGltfModel *model;

  (void)chosen; /* a NIFF file holds its own scene (own_scene) */
  *looked_for = NULL;
  file = snapshot_parse (s, error);
  if (file == NULL)
    return NULL;
  writer = tress_gltf_niff_export (file, s->name, &still, NULL, error);
  if (writer == NULL)
    {
      tress_format_niff.free (file);
      return NULL;
    }
  model = g_new0 (TressGltfModel, 1);
  model->name = g_strdup (s->name);
  model->source = g_strdup (s->name);
  model->own = TRUE;
  model->n_joints = tress_gltf_writer_count (writer, "nodes");
  model->n_meshes = tress_gltf_writer_count (writer, "meshes");
  model->missing = g_ptr_array_new_with_free_func (g_free);
  model->data = file;
  model->data_free = tress_format_niff.free;
  return model;
}

static TressGltfWriter *
niff_export (gpointer data, const TressGltfModel *model, const TressGltfExportOptions *o,
             GPtrArray *notes, GError **error)
{
  Snapshot *s = data;
  TressGltfNiffOptions options = { o->fps, o->anims, o->n_anims, o->split };

  return tress_gltf_niff_export (model->data, s->name, &options, notes, error);
}

const TressGltfExporter tress_gltf_exporter_niff = {
  .format_id = "niff",
  .own_scene = TRUE,
  /* TRANSLATORS: a choice of the Export as glTF dialog for NIFF files */
  .split_label = N_ ("_One animation per AnimGroup"),
  .list_animations = niff_list_animations,
  .snapshot = niff_snapshot,
  .snapshot_free = niff_snapshot_free,
  .find_model = niff_find_model,
  .export = niff_export,
};
