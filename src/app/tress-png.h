/* tress-png.h: writing textures as PNG files, fast
 *
 * `tress --screenshot` ends by encoding the window. GTK's own writer tries
 * every PNG row filter on every row at zlib's default level, which took as long
 * as drawing the window; this one uses one filter (Up) and a fast zlib level,
 * for about a third of the time and files about a quarter larger.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Writes @texture to @path as an 8-bit RGBA PNG, replacing the file atomically.
 * Returns FALSE with @error set when encoding or writing fails. */
gboolean tress_texture_save_png (GdkTexture *texture, const char *path, GError **error);

G_END_DECLS
