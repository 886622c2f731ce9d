/* tress-document.h: an open file, its model, its history and how it is saved
 *
 * The base of every format's document. Loading reads the file off the UI thread
 * (GTask) and picks the format by content. Saving serializes, parses the new
 * bytes again and validates them, then atomically replaces the file keeping a
 * "~" backup, and only then marks the history saved; if any step fails the file
 * on disk is untouched and the GError says why. If the file changed on disk
 * since it was read, saving fails with TRESS_ERROR_CHANGED_ON_DISK unless
 * @overwrite_changed is TRUE (the window asks first).
 *
 * Subclasses (one per format, registered with tress_document_register_type())
 * expose the model as GListModels for the views and emit precise change signals.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "core/tress-progress.h"
#include "formats/tress-format.h"

G_BEGIN_DECLS

#define TRESS_TYPE_DOCUMENT (tress_document_get_type ())
G_DECLARE_DERIVABLE_TYPE (TressDocument, tress_document, TRESS, DOCUMENT, GObject)

struct _TressDocumentClass
{
  GObjectClass parent_class;

  /* Called after the model was replaced (load, revert). Also called once at the
   * end of construction, so subclasses build their views of the model in one place. */
  void (*model_changed) (TressDocument *self);

  gpointer padding[8];
};

/* Makes documents of format @format_id instances of @type (a TressDocument subclass). */
void tress_document_register_type (const char *format_id, GType type);

/* Takes ownership of @model. @file and @original_bytes may be NULL (a new or demo document). */
TressDocument *tress_document_new (const TressFormat *format, gpointer model, GFile *file,
                                   GBytes *original_bytes);
/* Parses @bytes with the format chosen by content; @display_name names it in errors and the title.
 */
TressDocument *tress_document_new_from_bytes (GBytes *bytes, const char *display_name,
                                              GError **error);

void tress_document_load_async (GFile *file, GCancellable *cancellable,
                                GAsyncReadyCallback callback, gpointer user_data);
/* tress_document_load_async() whose work (reading, decompressing, parsing,
 * validating) reports to @progress (may be NULL), for a loading page to show;
 * @cancellable, or when NULL the progress's own, stops it at the next report
 * (the read of a megabyte, a decompressed megabyte, an animation, an archive
 * entry), and the result is G_IO_ERROR_CANCELLED. */
void tress_document_load_with_progress_async (GFile *file, TressProgress *progress,
                                              GCancellable *cancellable,
                                              GAsyncReadyCallback callback, gpointer user_data);
TressDocument *tress_document_load_finish (GAsyncResult *result, GError **error);
TressDocument *tress_document_load (GFile *file, GCancellable *cancellable, GError **error);

/* @file NULL = the document's own file (save), else save as (the document then refers to it). */
void tress_document_save_async (TressDocument *self, GFile *file, gboolean overwrite_changed,
                                GCancellable *cancellable, GAsyncReadyCallback callback,
                                gpointer user_data);
gboolean tress_document_save_finish (TressDocument *self, GAsyncResult *result, GError **error);
gboolean tress_document_save (TressDocument *self, GFile *file, gboolean overwrite_changed,
                              GCancellable *cancellable, GError **error);
/* Reads the file again, dropping every edit (the history is cleared). */
gboolean tress_document_revert (TressDocument *self, GCancellable *cancellable, GError **error);

const TressFormat *tress_document_get_format (TressDocument *self);
gpointer tress_document_get_model (TressDocument *self);
TressHistory *tress_document_get_history (TressDocument *self);
GFile *tress_document_get_file (TressDocument *self);
/* The file's base name, or the display name of a document without file. */
const char *tress_document_get_title (TressDocument *self);
gboolean tress_document_get_modified (TressDocument *self);
/* TRUE while tress_document_save_async() runs. */
gboolean tress_document_get_saving (TressDocument *self);
/* While held (a worker thread reads the model), the model is not replaced:
 * revert refuses. Holds nest. */
void tress_document_hold_model (TressDocument *self);
void tress_document_release_model (TressDocument *self);
/* The validate problems of the current model (recomputed after each change). */
GPtrArray *tress_document_get_problems (TressDocument *self);
/* TRUE when the file on disk differs (mtime/size/etag) from what was read or last saved. */
gboolean tress_document_changed_on_disk (TressDocument *self);
/* The bytes as read or last saved (NULL for a new document); transfer none. */
GBytes *tress_document_get_original_bytes (TressDocument *self);

/* Properties: "format" (pointer, construct-only), "file" (GFile), "title", "modified",
 * "history", "saving". Signal "changed" after every applied command, undo, redo, load and revert.
 */
/* Also construct-only: "model" (pointer, owned by the document), "original-bytes"
 * (GBytes) and "display-name" (the title of a document without file).
 * The history's target is the model. tress_document_get_problems() returns an
 * array owned by the document, valid until the next change. Saving refuses
 * with TRESS_ERROR_INVALID when the new bytes do not parse, have validate
 * errors, or do not serialize back to the same bytes; I/O failures keep their
 * G_IO_ERROR code with the file named in the message. */

G_END_DECLS
