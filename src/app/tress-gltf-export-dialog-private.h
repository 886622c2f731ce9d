/* tress-gltf-export-dialog-private.h: what the export dialog's files share
 *
 * tress-gltf-export-dialog.c: the form (animations, model, file) and the
 * window; tress-gltf-export-dialog-run.c: the export's run (the question
 * before replacing a file, the worker, progress and Cancel, the summary).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "interchange/tress-gltf-export.h"
#include "tress-gltf-export-dialog.h"

G_BEGIN_DECLS

/* What the workers read: the exporter's copy of the document, shared by the
 * dialog and its tasks (which may outlive it). */
typedef struct
{
  const TressGltfExporter *exporter;
  gpointer data;
} Snapshot;

struct _TressGltfExportDialog
{
  GtkWindow parent_instance;

  /* Template children */
  GtkStack *stack;
  GtkWidget *form;
  GtkButton *select_all;
  GtkButton *select_none;
  GtkListView *animations;
  GtkListItemFactory *factory;
  GtkLabel *animations_note;
  GtkSpinButton *fps;
  GtkLabel *duration;
  GtkCheckButton *split; /* shown where the exporter has a split_label */
  GtkSpinner *model_spinner;
  GtkLabel *model_label;
  GtkButton *choose_model;
  GtkLabel *output_label;
  GtkButton *choose_output;
  GtkDropDown *format;
  GtkLabel *message;
  GtkWidget *progress_box;
  GtkLabel *progress_label;
  GtkProgressBar *progress;
  GtkButton *cancel;
  GtkButton *export;
  GtkLabel *done_title;
  GtkLabel *done_details;
  GtkLabel *notes_heading;
  GtkWidget *notes_scroller;
  GtkListView *notes;
  GtkListItemFactory *notes_factory;
  GtkButton *close;
  GtkWidget *done_buttons;

  TressDocument *document;
  const TressGltfExporter *exporter;
  Snapshot *snapshot;
  GListStore *items; /* TressGltfAnimationItem: the animations glTF can carry */
  GPtrArray *others; /* char *: "Blink (bone visibility)", the ones it cannot */
  TressGltfExportState state;
  char *blocked; /* why Export is disabled, or NULL */

  /* The model: found or read (model), or why there is none (model_problem). */
  TressGltfModel *model;
  char *model_problem;
  char *preview_problem;      /* why the preview's model was not used, or NULL */
  GFile *model_file;          /* the file chosen, or NULL: found */
  gboolean model_for_preview; /* model_file is the one chosen for the preview */
  GCancellable *lookup;       /* the running lookup */
  gboolean focused_export;    /* the first lookup gave Export the focus */

  GFile *output;
  GFile *confirmed; /* an existing output the user agreed to replace */
  GtkFileChooserNative *chooser;
  GtkWidget *question; /* "Replace …?" */

  /* The running export. */
  GCancellable *cancellable;
  TressProgress *export_progress;
  guint progress_id;
  gboolean close_when_stopped;
  gboolean disposed;
};

Snapshot *_tress_gltf_export_snapshot_ref (Snapshot *snapshot);
void _tress_gltf_export_snapshot_unref (Snapshot *snapshot);

/* The animations checked: their indices (and the longest one's frames). */
GArray *_tress_gltf_export_dialog_chosen (TressGltfExportDialog *self, double *longest);
/* Enables, labels and shows everything from the state. */
void _tress_gltf_export_dialog_update (TressGltfExportDialog *self);

/* Export clicked: asks before replacing a file, then runs the export. */
void _tress_gltf_export_dialog_export (TressGltfExportDialog *self);
/* Cancel clicked, or the window closed: stops the running export; FALSE
 * when none runs. */
gboolean _tress_gltf_export_dialog_stop (TressGltfExportDialog *self);
/* The notes list's factory. */
void _tress_gltf_export_dialog_init_summary (TressGltfExportDialog *self);

G_END_DECLS
