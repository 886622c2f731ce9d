/* tress-fur-texture.h: loading a strand texture under the UV map
 *
 * From the chooser (Load strand texture…, Ctrl+L) or from a path typed in the
 * UV map's path field: absolute, "~/…", or relative to the creature's folder
 * (where its textures usually are). Errors are shown in a message dialog
 * naming the file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "tress-uv-map.h"

G_BEGIN_DECLS

/* The file @typed names: absolute, "~/…" (the home folder), or relative to
 * @doc_file's folder (the current folder when @doc_file is NULL). NULL for an
 * empty text. */
GFile *tress_fur_texture_resolve (const char *typed, GFile *doc_file);
/* Loads @file into @map; on failure shows why over @parent's window and
 * returns FALSE. */
gboolean tress_fur_texture_load (GtkWidget *parent, TressUvMap *map, GFile *file);

G_END_DECLS
