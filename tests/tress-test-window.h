/* tress-test-window.h: windows for UI tests, and proof that closing them frees everything
 *
 * A TressWindow opened on a file, waited for (a condition, not a sleep) until
 * its editor is shown; or a widget alone in a plain GtkWindow, waited for until
 * it has its size. Closing either destroys the window and asserts that the
 * window and the document are finalized (the effect of
 * g_assert_finalize_object, with a bounded wait for what GTK lets go of from
 * the main loop): a widget, a signal handler or a closure that keeps the
 * document alive fails the test, naming what stayed alive.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "tress-application.h"
#include "tress-document-page.h"
#include "tress-window.h"

G_BEGIN_DECLS

/* g_test_init(), gtk_init() and the application the windows belong to
 * (registered, not unique; GTK's animations off). */
TressApplication *tress_test_window_init (int *argc, char ***argv);
/* The application from tress_test_window_init(). */
TressApplication *tress_test_window_get_app (void);

/* A TressWindow presented and mapped. @width × @height (both > 0): its size,
 * neither read from nor kept in GSettings; 0 × 0: the size a user's new
 * window gets. */
TressWindow *tress_test_window_new (int width, int height);
/* Opens @path in @window (activating win.open-uri, as a user does) and waits
 * until its page is the current one and its editor, of @editor_type
 * (G_TYPE_NONE: any), is mapped. Returns the page. */
TressDocumentPage *tress_test_window_open_file (TressWindow *window, const char *path,
                                                GType editor_type);
/* Destroys @window and asserts that the window, every document it had open
 * and every window transient for it (a dialog left open goes with it, as the
 * user sees it) are finalized. */
void tress_test_window_destroy (TressWindow *window);

/* A window on one file, for a fixture. */
typedef struct
{
  TressWindow *window;
  TressDocumentPage *page;
  GtkWidget *editor;
  TressDocument *document; /* the window's: the test holds no reference */
} TressTestWindow;

/* tress_test_window_new (@width, @height), then tress_test_window_open_file()
 * and @tw filled in. */
void tress_test_window_open (TressTestWindow *tw, const char *path, GType editor_type, int width,
                             int height);
/* tress_test_window_destroy() of @tw's window (if any) and @tw cleared. */
void tress_test_window_close (TressTestWindow *tw);

/* ---- a widget in a plain window ---- */

/* @child alone in a new GtkWindow of @width × @height, presented; returns the
 * window once @child is mapped with that size (or, @width and @height 0, with
 * any size). */
GtkWidget *tress_test_present (GtkWidget *child, int width, int height);
/* Destroys *@window (from tress_test_present(), if not NULL), drops the
 * caller's reference to *@document (if not NULL) and asserts that both, and
 * the windows transient for it, are finalized; clears both pointers. */
void tress_test_present_close (GtkWidget **window, gpointer document);

/* ---- finalization ---- */

/* Drops the caller's reference to @object (@unref) or not, then waits, main
 * loop running, until it is finalized; fails after 10 s naming @what, its
 * type and the references still held. */
void tress_test_assert_finalized (gpointer object, gboolean unref, const char *what);

/* ---- waiting ---- */

/* Waits until @widget's frame clock has painted a frame that began after now
 * (a layout and a draw have happened, whatever was queued before). */
void tress_test_wait_frame (GtkWidget *widget);
/* Runs the main loop until the idles queued before now (of any priority
 * above G_PRIORITY_LOW) have run, and the events already received: for what
 * an action defers, and for checking that nothing more comes of it. */
void tress_test_wait_idle (void);

/* ---- finding widgets ---- */

/* The first mapped widget of @type in @w (@w itself included), depth-first,
 * or NULL. */
GtkWidget *tress_test_find_type (GtkWidget *w, GType type);
/* The first widget, depth-first from @root itself, whose name
 * (gtk_widget_set_name()) is @name, or NULL. */
GtkWidget *tress_test_find_named (GtkWidget *root, const char *name);
/* tress_test_find_named(), asserting that there is one and that it is a
 * @type. */
GtkWidget *tress_test_find_named_type (GtkWidget *root, const char *name, GType type);
/* The first GtkLabel, depth-first from @root itself, whose text is @text
 * (mapped or not), or NULL. For the topmost mapped one, see
 * tress_test_find_label() in tests/app/tress-test-scene.h. */
GtkWidget *tress_test_find_label_text (GtkWidget *root, const char *text);

/* ---- finding windows and menu items ---- */

/* A mapped toplevel of @type (or a type derived from it), or NULL. */
GtkWindow *tress_test_find_toplevel (GType type);
/* The label of @window's primary menu item for @action ("win.…"), searching
 * its sections and submenus, or NULL. */
char *tress_test_menu_label (TressWindow *window, const char *action);

G_END_DECLS
