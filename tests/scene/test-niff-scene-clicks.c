/* test-niff-scene-clicks.c: a NIFF scene moved by a user's clicks, seen on the screen
 *
 * Opens Rings.niff in a TressWindow of the default size (960×640) under Xvfb
 * and drives it with the X server's own pointer and keyboard (XTest): a click
 * on a tree row chooses the RotateX channel of Sweep15_3's AnimGroup, a click
 * on the timeline scrubs, "." puts the playhead on the next key (and selects
 * it), and a drag of that key moves the ring on screen: what the X server
 * shows in the preview's place (XGetImage, the pixels a screenshot takes) is
 * compared before and after. A click on the "Bones" toggle hides the sticks
 * and a click on HightRight's ring selects its curves. Skipped without X11,
 * XTest or GL.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gtk/gtk.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <gdk/x11/gdkx.h>
#include <string.h>

#include "curves/tress-curve-editor.h"
#include "scene/tress-scene-pane.h"
#include "scene/tress-scene-renderer.h"
#include "tress-application.h"
#include "tress-document-page.h"
#include "tress-test-pointer.h"
#include "tress-test-utils.h"
#include "tress-window.h"

static TressApplication *app;

#define WAIT_FOR(cond) TRESS_TEST_WAIT_FOR (cond)

typedef struct
{
  TressWindow *window;
  TressCurveEditor *editor;
  TressCurveView *view;
  TressCurveDocument *doc;
  TressScenePane *pane;
  TressScenePreview *preview;
  GtkWidget *area;
} Fixture;

/* The mapped label showing @text highest up in @w (list rows are not kept in order). */
static GtkWidget *
find_top_label (GtkWidget *w, const char *text, GtkWidget *root, double *best_y)
{
  GtkWidget *found = NULL;

  if (GTK_IS_LABEL (w) && gtk_widget_get_mapped (w)
      && g_strcmp0 (gtk_label_get_text (GTK_LABEL (w)), text) == 0)
    {
      graphene_rect_t b;

      if (gtk_widget_compute_bounds (w, root, &b) && b.origin.y < *best_y)
        {
          *best_y = b.origin.y;
          found = w;
        }
    }
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *in = find_top_label (c, text, root, best_y);

      if (in != NULL)
        found = in;
    }
  return found;
}

static GtkWidget *
find_type (GtkWidget *w, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (w, type) && gtk_widget_get_mapped (w))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *in = find_type (c, type);

      if (in != NULL)
        return in;
    }
  return NULL;
}

/* The mapped button labelled @label, or (@label NULL) bound to @action. */
static GtkWidget *
find_button (GtkWidget *w, const char *label, const char *action)
{
  if (GTK_IS_BUTTON (w) && gtk_widget_get_mapped (w)
      && (label != NULL
              ? g_strcmp0 (gtk_button_get_label (GTK_BUTTON (w)), label) == 0
              : g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (w)), action) == 0))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *in = find_button (c, label, action);

      if (in != NULL)
        return in;
    }
  return NULL;
}

static void
click (GtkWidget *widget, double x, double y)
{
  tress_test_pointer_move (widget, x, y);
  tress_test_pointer_button (1, TRUE);
  tress_test_pointer_button (1, FALSE);
}

static void
click_middle (GtkWidget *widget)
{
  click (widget, gtk_widget_get_width (widget) / 2.0, gtk_widget_get_height (widget) / 2.0);
}

static void
press_key (guint keyval)
{
  tress_test_pointer_key (keyval, TRUE);
  tress_test_pointer_key (keyval, FALSE);
}

static const char *
shown_path (Fixture *f)
{
  if (tress_curve_view_get_n_curves (f->view) != 1)
    return NULL;
  return tress_curve_document_get_curve (f->doc, tress_curve_view_get_curve_index (f->view, 0))
      ->path;
}

/* What the X server shows in @widget's place: RGB, rows top to bottom. */
static GBytes *
screen_pixels (GtkWidget *widget, int *width, int *height)
{
  GtkNative *native = gtk_widget_get_native (widget);
  GdkSurface *surface = gtk_native_get_surface (native);
  Display *dpy = gdk_x11_display_get_xdisplay (gtk_widget_get_display (widget));
  graphene_rect_t b;
  double sx, sy;
  XImage *image;
  guint8 *rgb;

  g_assert_true (gtk_widget_compute_bounds (widget, GTK_WIDGET (native), &b));
  gtk_native_get_surface_transform (native, &sx, &sy);
  *width = (int)b.size.width;
  *height = (int)b.size.height;
  XSync (dpy, False);
  image
      = XGetImage (dpy, gdk_x11_surface_get_xid (surface), (int)(b.origin.x + sx),
                   (int)(b.origin.y + sy), (unsigned)*width, (unsigned)*height, AllPlanes, ZPixmap);
  g_assert_nonnull (image);
  rgb = g_malloc ((gsize)*width * (gsize)*height * 3);
  for (int y = 0; y < *height; y++)
    for (int x = 0; x < *width; x++)
      {
        unsigned long p = XGetPixel (image, x, y);
        guint8 *o = rgb + ((gsize)y * (gsize)*width + (gsize)x) * 3;

        o[0] = (guint8)((p & image->red_mask) >> __builtin_ctzl (image->red_mask));
        o[1] = (guint8)((p & image->green_mask) >> __builtin_ctzl (image->green_mask));
        o[2] = (guint8)((p & image->blue_mask) >> __builtin_ctzl (image->blue_mask));
      }
  XDestroyImage (image);
  return g_bytes_new_take (rgb, (gsize)*width * (gsize)*height * 3);
}

/* The screen once the preview has drawn a frame after now and what the server
 * shows has stopped changing (two grabs alike). */
static GBytes *
settled_screen (Fixture *f)
{
  guint frames = tress_scene_preview_get_n_frames (f->preview);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  GBytes *last = NULL;
  int w, h;

  gtk_gl_area_queue_render (GTK_GL_AREA (f->area));
  WAIT_FOR (tress_scene_preview_get_n_frames (f->preview) > frames);
  for (;;)
    {
      GBytes *now;

      tress_test_spin (50);
      now = screen_pixels (f->area, &w, &h);
      if (last != NULL && g_bytes_equal (last, now))
        {
          g_bytes_unref (now);
          return last;
        }
      if (g_get_monotonic_time () > deadline)
        g_error ("the preview on the screen did not settle within 20 s");
      if (last != NULL)
        g_bytes_unref (last);
      last = now;
    }
}

static guint
count_different (GBytes *a, GBytes *b)
{
  gsize n, m;
  const guint8 *x = g_bytes_get_data (a, &n), *y = g_bytes_get_data (b, &m);
  guint count = 0;

  g_assert_cmpuint (n, ==, m);
  for (gsize i = 0; i + 2 < n; i += 3)
    count += memcmp (x + i, y + i, 3) != 0;
  return count;
}

/* Cyan (green and blue high, red low) or deep blue (blue high, green and red
 * low): the colours of Reflection's and HightRight's materials. */
static guint
count_colour (GBytes *pixels, gboolean cyan)
{
  gsize n;
  const guint8 *d = g_bytes_get_data (pixels, &n);
  guint count = 0;

  for (gsize i = 0; i + 2 < n; i += 3)
    if (cyan ? d[i] < 60 && d[i + 1] > 120 && d[i + 2] > 120
             : d[i] < 60 && d[i + 1] < 90 && d[i + 2] > 120)
      count++;
  return count;
}

static void
test_clicks (void)
{
  g_autofree char *path = tress_test_sample_path ("niff/Rings.niff");
  g_autoptr (GFile) file = NULL;
  g_autoptr (GBytes) start = NULL, before = NULL, after = NULL;
  Fixture fx = { 0 }, *f = &fx;
  GtkWidget *root, *row, *scale, *bones;
  TressSceneAnimator *animator;
  double best, x, y, key_value;
  int width, height, hight_right;
  guint total, curve, key, poses;

  if (path == NULL)
    return;
  file = g_file_new_for_path (path);
  f->window = tress_window_new (GTK_APPLICATION (app));
  tress_window_set_remember_size (f->window, FALSE);
  gtk_window_get_default_size (GTK_WINDOW (f->window), &width, &height);
  g_assert_cmpint (width, ==, 960);
  g_assert_cmpint (height, ==, 640);
  gtk_window_present (GTK_WINDOW (f->window));
  WAIT_FOR (gtk_widget_get_mapped (GTK_WIDGET (f->window)));
  root = GTK_WIDGET (f->window);
  if (!tress_test_pointer_available (root))
    {
      gtk_window_destroy (GTK_WINDOW (f->window));
      return;
    }
  tress_window_open_file (f->window, file);
  WAIT_FOR (tress_window_get_n_documents (f->window) == 1 && !tress_window_get_busy (f->window));
  f->editor = TRESS_CURVE_EDITOR (
      tress_document_page_get_editor (tress_window_get_current_page (f->window)));
  f->view = tress_curve_editor_get_view (f->editor);
  f->doc = tress_curve_editor_get_document (f->editor);
  f->pane = TRESS_SCENE_PANE (tress_curve_editor_get_preview (f->editor));
  f->preview = tress_scene_pane_get_preview (f->pane);
  WAIT_FOR (gtk_widget_get_mapped (GTK_WIDGET (f->preview)));
  WAIT_FOR (tress_scene_preview_get_gl_ready (f->preview)
            || tress_scene_preview_get_gl_error (f->preview) != NULL);
  if (!tress_scene_preview_get_gl_ready (f->preview))
    {
      g_test_skip ("the preview has no GL here");
      gtk_window_destroy (GTK_WINDOW (f->window));
      return;
    }
  animator = tress_scene_pane_get_animator (f->pane);
  g_assert_nonnull (animator);
  f->area = find_type (GTK_WIDGET (f->preview), GTK_TYPE_GL_AREA);
  g_assert_nonnull (f->area);
  WAIT_FOR (gtk_widget_get_width (f->area) > 0
            && tress_scene_preview_get_n_frames (f->preview) > 0);
  g_test_message ("window %d×%d, preview picture %d×%d", gtk_widget_get_width (root),
                  gtk_widget_get_height (root), gtk_widget_get_width (f->area),
                  gtk_widget_get_height (f->area));
  g_assert_cmpint (gtk_widget_get_width (f->area), >=, 120);
  g_assert_cmpint (gtk_widget_get_height (f->area), >=, 120);

  /* On the screen: the rings, in their materials' colours. */
  start = settled_screen (f);
  total = (guint)(g_bytes_get_size (start) / 3);
  g_test_message ("on screen: cyan %u, blue %u of %u", count_colour (start, TRUE),
                  count_colour (start, FALSE), total);
  g_assert_cmpuint (count_colour (start, TRUE), >, total / 500);
  g_assert_cmpuint (count_colour (start, FALSE), >, total / 500);

  /* Choosing a channel: a click on the RotateY row, then on the RotateX row
   * (Sweep15_3's, the topmost). */
  best = G_MAXDOUBLE;
  row = find_top_label (GTK_WIDGET (f->editor), "RotateY", root, &best);
  g_assert_nonnull (row);
  click_middle (row);
  WAIT_FOR (g_strcmp0 (shown_path (f), "Sweep15_3_Animation/RotateY/Y") == 0);
  best = G_MAXDOUBLE;
  row = find_top_label (GTK_WIDGET (f->editor), "RotateX", root, &best);
  g_assert_nonnull (row);
  click_middle (row);
  WAIT_FOR (g_strcmp0 (shown_path (f), "Sweep15_3_Animation/RotateX/X") == 0);
  curve = tress_curve_view_get_curve_index (f->view, 0);

  /* Scrubbing: a click on the timeline a little past its middle; then, with
   * the graph focused (a click on its empty top left, 40 px in: GtkPaned
   * takes presses a few pixels beside its handle), "." puts the playhead on
   * the next key and selects it. */
  scale = find_type (GTK_WIDGET (f->editor), GTK_TYPE_SCALE);
  g_assert_nonnull (scale);
  click (scale, gtk_widget_get_width (scale) * 0.55, gtk_widget_get_height (scale) / 2.0);
  WAIT_FOR (tress_curve_view_get_playhead (f->view) > 1);
  g_test_message ("timeline click: frame %.2f", tress_curve_view_get_playhead (f->view));
  click (GTK_WIDGET (f->view), 40, 12);
  WAIT_FOR (gtk_widget_is_focus (GTK_WIDGET (f->view)));
  {
    double scrubbed = tress_curve_view_get_playhead (f->view);

    press_key (GDK_KEY_period);
    WAIT_FOR (tress_curve_view_get_playhead (f->view) > scrubbed);
  }
  {
    const TressCurve *c = tress_curve_document_get_curve (f->doc, curve);
    double frame = tress_curve_view_get_playhead (f->view);

    key = tress_curve_lower_bound (c, frame);
    g_assert_cmpuint (key, <, tress_curve_get_n_keys (c));
    g_assert_cmpfloat (tress_curve_get_key (c, key)->frame, ==, frame);
    key_value = tress_curve_get_key (c, key)->value;
    g_test_message ("next key: %u at frame %g, value %g", key, frame, key_value);
  }
  before = settled_screen (f);

  /* Dragging that key up by a third of the graph, in steps, as a hand does. */
  g_assert_true (tress_curve_view_get_point (f->view, curve, key, TRESS_CURVE_PART_KEY, &x, &y));
  poses = tress_scene_pane_get_n_poses (f->pane);
  {
    double lift = gtk_widget_get_height (GTK_WIDGET (f->view)) / 3.0;
    double points[] = { x, y, x, y - 4, x, y - lift / 3, x, y - 2 * lift / 3, x, y - lift };

    tress_test_pointer_drag (GTK_WIDGET (f->view), 1, points, G_N_ELEMENTS (points) / 2);
  }
  g_assert_true (tress_document_get_modified (TRESS_DOCUMENT (f->doc)));
  g_test_message ("key value %g -> %g", key_value,
                  tress_curve_get_key (tress_curve_document_get_curve (f->doc, curve), key)->value);
  g_assert_cmpfloat (
      tress_curve_get_key (tress_curve_document_get_curve (f->doc, curve), key)->value, >,
      key_value + 0.5);
  WAIT_FOR (tress_scene_pane_get_n_poses (f->pane) > poses);
  after = settled_screen (f);
  g_test_message ("the ring moved: %u of %u screen pixels changed", count_different (before, after),
                  total);
  g_assert_cmpuint (count_different (before, after), >, total / 300);

  /* A click on "Bones" hides the sticks; a click on HightRight's ring
   * selects its nine curves. */
  bones = find_button (GTK_WIDGET (f->preview), "Bones", NULL);
  g_assert_nonnull (bones);
  click_middle (bones);
  WAIT_FOR (!tress_scene_preview_get_show_bones (f->preview));
  settled_screen (f);
  hight_right = tress_scene_find_node (animator->scene, "HightRight");
  g_assert_cmpint (hight_right, >=, 0);
  {
    int w = gtk_widget_get_width (f->area), h = gtk_widget_get_height (f->area);
    double found_x = -1, found_y = -1;

    /* A point of HightRight's ring whose neighbours 3 px around are the
     * ring too (away from its edges), on a 3 px grid. */
    for (int py = 3; py + 3 < h && found_x < 0; py += 3)
      for (int px = 3; px + 3 < w && found_x < 0; px += 3)
        if (tress_scene_preview_pick (f->preview, px, py) == hight_right
            && tress_scene_preview_pick (f->preview, px - 3, py) == hight_right
            && tress_scene_preview_pick (f->preview, px + 3, py) == hight_right
            && tress_scene_preview_pick (f->preview, px, py - 3) == hight_right
            && tress_scene_preview_pick (f->preview, px, py + 3) == hight_right)
          found_x = px, found_y = py;
    g_assert_cmpfloat (found_x, >=, 0);
    g_test_message ("clicking HightRight's ring at (%g, %g)", found_x, found_y);
    click (f->area, found_x, found_y);
  }
  WAIT_FOR (tress_scene_preview_is_highlighted (f->preview, (guint)hight_right));
  WAIT_FOR (tress_curve_view_get_n_curves (f->view) == 9);
  for (guint i = 0; i < 9; i++)
    g_assert_true (g_str_has_prefix (
        tress_curve_document_get_curve (f->doc, tress_curve_view_get_curve_index (f->view, i))
            ->path,
        "HightRight_Animation/"));

  /* Playback, looped: a click on the timeline near its end, a click on the
   * play button; the playhead wraps to the start (the loop toggle is on) and
   * the preview is posed on the way; a second click stops it. Rings' groups
   * store frame rate 1, not a rate: the editor plays 30 frames a second. */
  {
    GtkWidget *play = find_button (GTK_WIDGET (f->editor), NULL, "curve.playing");
    gboolean playing = FALSE;
    double near_end;

    g_assert_nonnull (play);
    click (scale, gtk_widget_get_width (scale) * 0.97, gtk_widget_get_height (scale) / 2.0);
    WAIT_FOR (tress_curve_view_get_playhead (f->view) > 200);
    near_end = tress_curve_view_get_playhead (f->view);
    g_assert_cmpfloat (tress_curve_view_get_fps (f->view), ==, 30);
    poses = tress_scene_pane_get_n_poses (f->pane);
    click_middle (play);
    g_object_get (f->view, "playing", &playing, NULL);
    g_assert_true (playing);
    WAIT_FOR (tress_curve_view_get_playhead (f->view) < near_end - 100);
    WAIT_FOR (tress_scene_pane_get_n_poses (f->pane) > poses + 2);
    g_test_message ("playback from %.1f wrapped to %.1f; %u poses", near_end,
                    tress_curve_view_get_playhead (f->view),
                    tress_scene_pane_get_n_poses (f->pane) - poses);
    click_middle (play);
    g_object_get (f->view, "playing", &playing, NULL);
    g_assert_false (playing);
  }

  g_object_add_weak_pointer (G_OBJECT (f->window), (gpointer *)&f->window);
  gtk_window_destroy (GTK_WINDOW (f->window));
  WAIT_FOR (f->window == NULL);
}

int
main (int argc, char *argv[])
{
  g_autoptr (GError) error = NULL;

  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  app = tress_application_new ();
  g_application_set_flags (G_APPLICATION (app),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  g_test_add_func ("/niff-scene-clicks/rings", test_clicks);
  return g_test_run ();
}
