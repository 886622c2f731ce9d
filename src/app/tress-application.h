/* tress-application.h: the Tress application (io.github.tress.Tress)
 *
 * Single instance: files given on the command line or by the file manager are
 * opened by the running instance (G_APPLICATION_HANDLES_OPEN). Options:
 *   --demo              open the demo files
 *   --screenshot=FILE   render the window once to a PNG and exit (own instance)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "tress-window.h"

G_BEGIN_DECLS

#define TRESS_TYPE_APPLICATION (tress_application_get_type ())
G_DECLARE_FINAL_TYPE (TressApplication, tress_application, TRESS, APPLICATION, GtkApplication)

TressApplication *tress_application_new (void);
/* The status main() returns: non-zero when a screenshot could not be written. */
int tress_application_get_exit_status (TressApplication *self);

/* Renders @window as it is now into a PNG at @path (its size in pixels is the
 * window's size). G_IO_ERROR_WOULD_BLOCK: nothing to draw until the next frame
 * (a layout is pending); try again then. */
gboolean tress_window_render_png (GtkWindow *window, const char *path, GError **error);

G_END_DECLS
