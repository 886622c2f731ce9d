/* tress-test-scene.h: the animation preview in a window, for UI tests
 *
 * A TressWindow with one document open in the curve editor and its scene
 * preview; the widgets a test clicks found by what they show; what the X
 * server shows of a widget (XGetImage: the pixels a screenshot takes) and
 * counts over pictures. Beside tress-test-pointer.h, which moves the pointer.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "curves/tress-curve-editor.h"
#include "scene/tress-scene-pane.h"
#include "tress-application.h"
#include "tress-test-window.h"
#include "tress-window.h"

G_BEGIN_DECLS

typedef struct
{
  TressWindow *window;
  TressCurveEditor *editor;
  TressCurveView *view;
  TressCurveDocument *doc;
  TressScenePane *pane;
  TressScenePreview *preview;
  GtkWidget *area; /* the preview's GL area, where a test sets it */
} TressTestScene;

/* g_test_init(), gtk_init() and the application the windows belong to
 * (registered, not unique; GTK's animations off). */
TressApplication *tress_test_scene_init (int *argc, char ***argv);

/* A window of 960×640 presented and mapped, then tress_test_scene_load(). */
void tress_test_scene_open (TressTestScene *f, const char *path);
/* Opens @path in @f->window (presented): waits for the document, fills @f
 * and waits until the preview is mapped. */
void tress_test_scene_load (TressTestScene *f, const char *path);
/* Waits until the preview shows a scene or a message in its place. */
void tress_test_scene_wait_scene (TressTestScene *f);
/* Waits until the preview has GL or says why not; TRUE where it has GL. */
gboolean tress_test_scene_wait_gl (TressTestScene *f);
/* Destroys the window and asserts that it and its documents are finalized
 * (tress_test_window_destroy()). */
void tress_test_scene_close (TressTestScene *f);

/* The index of the curve at @path in @f's document, or -1. */
int tress_test_scene_curve (TressTestScene *f, const char *path);
/* Selects key @key of the first shown curve and nudges it (the curves edit):
 * asserts the document is modified. */
void tress_test_scene_nudge_key (TressTestScene *f, guint key);
/* What the X server shows of the GL area (@f->area) once the preview has drawn
 * a frame after now and the screen has stopped changing (two grabs alike). */
GBytes *tress_test_scene_settled_screen (TressTestScene *f);

/* ---- widgets found by what they show ---- */

/* The mapped label showing @text highest up in @w (in @root's coordinates,
 * above *@best_y, which it lowers): list rows are not kept in order. */
GtkWidget *tress_test_find_label (GtkWidget *w, const char *text, GtkWidget *root, double *best_y);
/* The widget with the tooltip @tooltip in @w. */
GtkWidget *tress_test_find_tooltip (GtkWidget *w, const char *tooltip);
/* The mapped button labelled @label, or (@label NULL) bound to @action. */
GtkWidget *tress_test_find_button (GtkWidget *w, const char *label, const char *action);

/* ---- what the X server shows ---- */

/* What the X server shows in @widget's place: RGB, 3 bytes a pixel, rows top
 * to bottom. */
GBytes *tress_test_screen_pixels (GtkWidget *widget, int *width, int *height);
/* Waits until what the X server shows of @widget differs from @before in more
 * than @min pixels (tolerance 6); returns that picture. */
GBytes *tress_test_screen_changed (GtkWidget *widget, GBytes *before, guint min);
/* Writes the whole X window of @window (its frame included) as a PNG. */
void tress_test_screen_save_png (GtkWidget *window, const char *path);

/* ---- counts over pictures of @bpp bytes a pixel (RGB first) ---- */

/* Pixels whose red, green and blue differ by more than @tolerance in all. */
guint tress_test_pixels_different (GBytes *a, GBytes *b, guint bpp, guint tolerance);
/* Pixels other than the preview's background (more than 2 off in a channel). */
guint tress_test_pixels_drawn (GBytes *pixels, guint bpp);
/* Pixels of a cyan (green and blue high, red low) or (@cyan FALSE) a deep
 * blue (blue high, green and red low). */
guint tress_test_pixels_cyan_or_blue (GBytes *pixels, guint bpp, gboolean cyan);

G_END_DECLS
