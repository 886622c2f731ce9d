/* tress-gltf-import-run.h: one import of glTF animations into a BFRES, as
 * tress-cli import-gltf and the editor's Import Animation from glTF run it
 *
 * Which glTF animations go where (by name), every one built from the file
 * as it was read, the changed ones stored in one batch
 * (tress_bfres_replace_skeletals, the file untouched when one cannot be),
 * and what each one made, in lines the CLI and the dialog show.
 *
 * GLib and GIO only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "tress-gltf-import.h"

G_BEGIN_DECLS

/* Names shown in a list before "and N more". */
#define TRESS_GLTF_IMPORT_SHOWN_NAMES 12

/* "a, b, c and 4 more" of at most TRESS_GLTF_IMPORT_SHOWN_NAMES names
 * (char *); "none" for none. */
char *tress_gltf_import_list_names (GPtrArray *names);

/* Every named animation of @doc paired with the skeletal animation of its
 * name (the first of each name): pairs of guint, glTF index and file index
 * (tress_gltf_import_find_anim). @skipped (may be NULL) gets a line
 * ("not imported: …") for each animation left out. */
GArray *tress_gltf_import_pair_all (const TressGltfDocument *doc, TressGltfImport *imp,
                                    GPtrArray *skipped);

typedef struct
{
  double fps;
  GPtrArray *anims; /* TressGltfImportAnim, one a pair, in the pairs' order */
  GPtrArray *notes; /* per anim: GPtrArray of lines (char *) its storing said */
  guint n_changed;  /* anims not unchanged */
  gboolean stored;
  int failed;                    /* the anim that could not be stored, or −1 */
  gsize size_before, size_after; /* the FRES bytes around the storing */
} TressGltfImportResult;

void tress_gltf_import_result_free (TressGltfImportResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressGltfImportResult, tress_gltf_import_result_free)

/* Builds the animation of each pair of @pairs (tress_gltf_import_build), in
 * order; *@done (may be NULL; atomic) counts those built. NULL with an error
 * when one cannot be built or @cancellable is cancelled. */
TressGltfImportResult *tress_gltf_import_build_all (TressGltfImport *imp, GArray *pairs,
                                                    GCancellable *cancellable, gint *done,
                                                    GError **error);

/* Stores every changed animation of @result into @bfres (the file @imp was
 * made for) in one go, with their notes. FALSE with an error ("“Name”
 * cannot be stored: …") and result->failed set when one cannot be: @bfres
 * is then untouched. */
gboolean tress_gltf_import_store (TressGltfImportResult *result, TressBfres *bfres, GError **error);

/* What importing anim @i of @result made, in lines (char *): frames and
 * rate, bones matched, added and kept; curves added, removed, kept and
 * refitted; the error against the glTF; curves cut; poses holding a shear;
 * an unchanged animation said so; then what storing it said. */
GPtrArray *tress_gltf_import_describe (const TressGltfImportResult *result, guint i);

G_END_DECLS
