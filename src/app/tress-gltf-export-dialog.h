/* tress-gltf-export-dialog.h: File → Export as glTF…
 *
 * A modal window over the editor for the current document: its animations
 * glTF can carry, each with a check box (all checked; Select All, Select
 * None), the frame rate (frame / fps = time), the model they play on and
 * where it was found (as the preview finds it, or the one chosen for the
 * preview; Choose Model… picks another; when none is found or it cannot be
 * used, the dialog says why and Export waits for a model), and the file to
 * write (.glb, or .gltf with its .bin; an existing file is replaced only once
 * the user said so). The model is looked for, and the export runs, off the UI
 * thread on a copy of the document (TressGltfExporter): the document stays
 * editable, the export shows its progress, and Cancel (or closing the
 * window) stops it leaving no file behind. A summary follows: the file
 * written and its size, the animations, and what glTF does not carry. Errors
 * are said in the dialog, the form kept for another try.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/tress-document.h"

G_BEGIN_DECLS

#define TRESS_TYPE_GLTF_EXPORT_DIALOG (tress_gltf_export_dialog_get_type ())
G_DECLARE_FINAL_TYPE (TressGltfExportDialog, tress_gltf_export_dialog, TRESS, GLTF_EXPORT_DIALOG,
                      GtkWindow)

/* Whether @document can be exported as glTF; when not, *why (may be NULL)
 * gets a short reason for people, for the menu item ("not for Creature fur
 * files"). */
gboolean tress_gltf_export_dialog_supports (TressDocument *document, char **why);

/* A dialog for @document (one that tress_gltf_export_dialog_supports()),
 * transient for @parent; present it. */
GtkWidget *tress_gltf_export_dialog_new (GtkWindow *parent, TressDocument *document);

/* What the dialog is doing. */
typedef enum
{
  TRESS_GLTF_EXPORT_LOOKING, /* for the model */
  TRESS_GLTF_EXPORT_READY,   /* the form, Export enabled or saying why not */
  TRESS_GLTF_EXPORT_RUNNING,
  TRESS_GLTF_EXPORT_DONE, /* the summary */
} TressGltfExportState;

TressGltfExportState tress_gltf_export_dialog_get_state (TressGltfExportDialog *self);

/* The file Export writes (a .glb or a .gltf), and setting it as Choose File…
 * does (a name with neither extension gets the chosen format's). An existing
 * file set here has been confirmed: it is replaced without asking. */
GFile *tress_gltf_export_dialog_get_output (TressGltfExportDialog *self);
void tress_gltf_export_dialog_set_output (TressGltfExportDialog *self, GFile *file);

/* Reads the model from @file (NULL: finds it again), as Choose Model… does. */
void tress_gltf_export_dialog_set_model_file (TressGltfExportDialog *self, GFile *file);

/* Why Export is disabled, or NULL when it is enabled (its tooltip). */
const char *tress_gltf_export_dialog_get_blocked (TressGltfExportDialog *self);

G_END_DECLS
