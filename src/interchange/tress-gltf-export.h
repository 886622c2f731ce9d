/* tress-gltf-export.h: exporting a document as glTF, one table per format
 *
 * What an export (the editor's Export as glTF dialog) needs of a format, in a
 * TressGltfExporter:
 *   - the file's animations and which of them glTF can carry, read from the
 *     document's model in the caller's thread (quick);
 *   - a snapshot: a copy of what the export reads of the model, taken in the
 *     caller's thread, which worker threads then read while the document
 *     stays the UI's to change;
 *   - the model the animations play on, found as the preview finds it or read
 *     from a file the user chose, checked and described (a worker);
 *   - the export itself (a worker), reporting to the thread's TressProgress
 *     and stopped by its cancellation.
 * tress_gltf_export_to_file() runs the export and writes the file.
 *
 * A format is added with its table (as tress-gltf-export-bfres.c) and one
 * line in tress_gltf_exporter_find().
 *
 * GLib, GIO and json-glib only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "tress-gltf-writer.h"

G_BEGIN_DECLS

/* One animation of the file. */
typedef struct
{
  guint index; /* the format's numbering of the file's animations */
  char *name;
  char *kind;          /* the format's word for its kind ("Skeletal", "Bone visibility") */
  double frame_count;  /* its length in frames */
  gboolean exportable; /* glTF can carry it */
} TressGltfExportAnimation;

void tress_gltf_export_animation_clear (TressGltfExportAnimation *animation);

/* The model the animations play on. */
typedef struct
{
  char *name;         /* the model's own name ("Bass") */
  char *source;       /* where it was found, for people ("Animal_Bass.bfres") */
  gboolean chosen;    /* read from a file the user chose, not found */
  gboolean own;       /* found in the document's own file */
  guint n_joints;     /* bones or objects the export writes as joints */
  guint n_meshes;     /* shapes the export writes as meshes */
  GPtrArray *missing; /* char *: what the animations move that the model lacks */
  gpointer data;      /* the format's: what the export reads the model from */
  GDestroyNotify data_free;
} TressGltfModel;

void tress_gltf_model_free (TressGltfModel *model);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressGltfModel, tress_gltf_model_free)

/* What an export writes. */
typedef struct
{
  const guint *anims; /* the animations (their index); NULL: every exportable one */
  guint n_anims;
  double fps;     /* frames per second */
  gboolean split; /* one glTF animation per animation chosen (split_label) */
} TressGltfExportOptions;

typedef struct _TressGltfExporter TressGltfExporter;

struct _TressGltfExporter
{
  const char *format_id;
  /* The file holds the scene its animations move: no model is chosen. */
  gboolean own_scene;
  /* The format's animations play together as one (NIFF's AnimGroups): the
   * label of the choice to write one glTF animation for each instead
   * (TressGltfExportOptions.split; untranslated, N_()), else NULL. */
  const char *split_label;
  /* The caller's thread: every animation of @model (the document's),
   * TressGltfExportAnimation with a clear function. */
  GArray *(*list_animations) (gpointer model);
  /* The caller's thread: a copy of what the members below read of @model
   * (the document's), opened from @file (NULL for a file not on disk). */
  gpointer (*snapshot) (gpointer model, GFile *file);
  void (*snapshot_free) (gpointer snapshot);
  /* A worker: the model, read from @chosen (a file the user picked) or found
   * (@chosen NULL), checked against the animations. NULL with an error when
   * it cannot be read or used; NULL without one when nothing was found, and
   * *looked_for says what was looked for. */
  TressGltfModel *(*find_model) (gpointer snapshot, GFile *chosen, char **looked_for,
                                 GError **error);
  /* A worker: the glTF document of the animations @options chooses,
   * posing @model; @notes (may be NULL) gets a line for everything the file
   * does not carry. */
  TressGltfWriter *(*export) (gpointer snapshot, const TressGltfModel *model,
                              const TressGltfExportOptions *options, GPtrArray *notes,
                              GError **error);
};

/* The exporter of format @format_id, or NULL when it has none. */
const TressGltfExporter *tress_gltf_exporter_find (const char *format_id);

extern const TressGltfExporter tress_gltf_exporter_bfres;
extern const TressGltfExporter tress_gltf_exporter_niff;

/* What an export wrote. */
typedef struct
{
  GFile *file;     /* the .glb, or the .gltf */
  GFile *bin_file; /* the .gltf's .bin, or NULL */
  guint64 size;    /* bytes written, both files */
  guint n_animations, n_joints, n_meshes;
  double fps;
  GPtrArray *notes; /* char *: what the file does not carry */
} TressGltfExportResult;

void tress_gltf_export_result_free (TressGltfExportResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressGltfExportResult, tress_gltf_export_result_free)

/* A worker: exports with @exporter (as its export member) and writes @file
 * (tress_gltf_writer_save: a GLB, or a .gltf with its .bin). Reports to the
 * thread's TressProgress: the export's phase, then "Writing". NULL with an
 * error when the export or the write fails, or G_IO_ERROR_CANCELLED when
 * @cancellable (the progress's) was cancelled before the file was in place:
 * then nothing was written. */
TressGltfExportResult *tress_gltf_export_to_file (const TressGltfExporter *exporter,
                                                  gpointer snapshot, const TressGltfModel *model,
                                                  const TressGltfExportOptions *options,
                                                  GFile *file, GCancellable *cancellable,
                                                  GError **error);

G_END_DECLS
