/* tress-gltf-export.c: exporting a document as glTF, one table per format
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-gltf-export.h"

#include <glib/gi18n-lib.h>

#include "core/tress-progress.h"

void
tress_gltf_export_animation_clear (TressGltfExportAnimation *animation)
{
  g_clear_pointer (&animation->name, g_free);
  g_clear_pointer (&animation->kind, g_free);
}

void
tress_gltf_model_free (TressGltfModel *model)
{
  if (model == NULL)
    return;
  g_free (model->name);
  g_free (model->source);
  g_clear_pointer (&model->missing, g_ptr_array_unref);
  if (model->data_free != NULL)
    model->data_free (model->data);
  g_free (model);
}

void
tress_gltf_export_result_free (TressGltfExportResult *result)
{
  if (result == NULL)
    return;
  g_clear_object (&result->file);
  g_clear_object (&result->bin_file);
  g_clear_pointer (&result->notes, g_ptr_array_unref);
  g_free (result);
}

const TressGltfExporter *
tress_gltf_exporter_find (const char *format_id)
{
  static const TressGltfExporter *const exporters[] = {
    &tress_gltf_exporter_bfres,
    &tress_gltf_exporter_niff,
  };

  for (guint i = 0; format_id != NULL && i < G_N_ELEMENTS (exporters); i++)
    if (g_strcmp0 (exporters[i]->format_id, format_id) == 0)
      return exporters[i];
  return NULL;
}

TressGltfExportResult *
tress_gltf_export_to_file (const TressGltfExporter *exporter, gpointer snapshot,
                           const TressGltfModel *model, const TressGltfExportOptions *options,
                           GFile *file, GCancellable *cancellable, GError **error)
{
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (TressGltfWriter) writer = NULL;
  TressGltfExportResult *result;
  guint64 size = 0;

  g_return_val_if_fail (exporter != NULL && model != NULL && options != NULL && G_IS_FILE (file),
                        NULL);

  writer = exporter->export(snapshot, model, options, notes, error);
  if (writer == NULL)
    return NULL;
  /* TRANSLATORS: a phase of exporting a file, shown with a progress bar */
  tress_progress_phase (N_ ("Writing the file"), 0, TRESS_PROGRESS_BYTES);
  if (!tress_progress_check (error))
    return NULL;
  if (!tress_gltf_writer_save (writer, file, cancellable, &size, error))
    return NULL;

  result = g_new0 (TressGltfExportResult, 1);
  result->file = g_object_ref (file);
  result->bin_file = tress_gltf_file_is_split (file) ? tress_gltf_bin_file_for (file) : NULL;
  result->size = size;
  result->n_animations = tress_gltf_writer_count (writer, "animations");
  result->n_meshes = tress_gltf_writer_count (writer, "meshes");
  result->n_joints = model->n_joints;
  result->fps = options->fps;
  result->notes = g_steal_pointer (&notes);
  return result;
}
