/* tress-gltf-import-dialog.h: File → Import Animation from glTF…
 *
 * A modal window over the editor for the current BFRES document: the glTF
 * file (.glb or .gltf; Choose File…) and the frames per second (30 at first),
 * then Import. Every animation of the glTF named like a skeletal animation
 * of the document replaces it, sampled at that rate within the default
 * tolerances, on the model
 * the preview uses (tress_bfres_find_model), as `tress-cli import-gltf`
 * does. The import runs off the UI thread on a copy of the document, with
 * its progress and Cancel; its result goes into the document as one undo
 * step ("Import 3 Animations from glTF") whose undo puts back the very same
 * bytes. A summary follows, the facts the CLI prints: per animation the
 * bones matched, joints without a bone, curves added, removed and kept, the
 * frame count's change, what the file's storage widened, and the file's
 * growth. Errors (no animation of a BFRES name: both lists of names) are
 * said in the dialog, the document untouched.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/tress-document.h"

G_BEGIN_DECLS

#define TRESS_TYPE_GLTF_IMPORT_DIALOG (tress_gltf_import_dialog_get_type ())
G_DECLARE_FINAL_TYPE (TressGltfImportDialog, tress_gltf_import_dialog, TRESS, GLTF_IMPORT_DIALOG,
                      GtkWindow)

/* Whether glTF animations can be imported into @document; when not, *why
 * (may be NULL) gets a short reason for the menu item ("only into BFRES
 * files"). */
gboolean tress_gltf_import_dialog_supports (TressDocument *document, char **why);

/* A dialog for @document (one that tress_gltf_import_dialog_supports()),
 * transient for @parent; present it. */
GtkWidget *tress_gltf_import_dialog_new (GtkWindow *parent, TressDocument *document);

/* Opens the file chooser (Choose File…). */
void tress_gltf_import_dialog_choose_file (TressGltfImportDialog *self);
/* The glTF file Import reads, and setting it as the chooser does. */
GFile *tress_gltf_import_dialog_get_file (TressGltfImportDialog *self);
void tress_gltf_import_dialog_set_file (TressGltfImportDialog *self, GFile *file);

typedef enum
{
  TRESS_GLTF_IMPORT_READY,   /* the form: Import enabled once a file is chosen */
  TRESS_GLTF_IMPORT_RUNNING, /* progress and Cancel */
  TRESS_GLTF_IMPORT_DONE,    /* the summary (imported, or why not) */
} TressGltfImportState;

TressGltfImportState tress_gltf_import_dialog_get_state (TressGltfImportDialog *self);
/* Import clicked: runs the import of the file set. */
void tress_gltf_import_dialog_import (TressGltfImportDialog *self);
/* The summary's title ("Imported 2 animations from Bass.glb", or "Nothing
 * imported") and its text, as shown. */
const char *tress_gltf_import_dialog_get_title_text (TressGltfImportDialog *self);
const char *tress_gltf_import_dialog_get_summary (TressGltfImportDialog *self);

G_END_DECLS
