/* test-scene-window.c: the animation preview in the application window
 *
 * Opens Animal_Bass_Animation.bfres in a TressWindow under Xvfb: the Bass
 * model is found beside it, the preview draws the mesh (pixels other than the
 * background where the model is), scrubbing and a key drag change the drawn
 * pose (the drag before it is committed), selecting curves highlights their
 * bones, clicking a bone selects its curves in the tree, a model that cannot
 * be read is an error in the preview's place while curve editing goes on.
 * With GDK_DEBUG=gl-disable (the "scene-window-nogl" test) the preview says
 * GL is unavailable and the rest works.
 *
 * /scene-window/real-pointer (the "scene-window-pointer" test) drives the
 * editor as a user does, with xdotool on the X server, in a 960×640 window:
 * it selects an animation in the tree, clicks a bone, drags a key and
 * compares the pixels the X server shows (XGetImage of the window) before,
 * during and after; then orbits, zooms, pans and frames the model again. With
 * TRESS_SCENE_SCREENSHOT=FILE.png it also writes the window as the README shows it (the bone
 * clicked, at POINTER_FRAME). /scene-window/visibility: visibility animations (FVIS) hide a bone's
 * shape and a material's shape in the drawn picture at the playhead.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gtk/gtk.h>
#ifdef GDK_WINDOWING_X11
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <gdk/x11/gdkx.h>
#endif
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "curves/tress-curve-editor.h"
#include "formats/bfres/tress-bfres-builder.h"
#include "formats/bfres/tress-bfres-model.h"
#include "scene/tress-scene-pane.h"
#include "scene/tress-scene-renderer.h"
#include "tress-application.h"
#include "tress-document-page.h"
#include "tress-png.h"
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
} Fixture;

static gboolean
open_window (Fixture *f, const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);

  f->window = tress_window_new (GTK_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (f->window), 960, 640);
  gtk_window_present (GTK_WINDOW (f->window));
  WAIT_FOR (gtk_widget_get_mapped (GTK_WIDGET (f->window)));
  tress_window_open_file (f->window, file);
  WAIT_FOR (tress_window_get_n_documents (f->window) == 1 && !tress_window_get_busy (f->window));
  f->editor = TRESS_CURVE_EDITOR (
      tress_document_page_get_editor (tress_window_get_current_page (f->window)));
  f->view = tress_curve_editor_get_view (f->editor);
  f->doc = tress_curve_editor_get_document (f->editor);
  f->pane = TRESS_SCENE_PANE (tress_curve_editor_get_preview (f->editor));
  g_assert_nonnull (f->pane);
  f->preview = tress_scene_pane_get_preview (f->pane);
  WAIT_FOR (gtk_widget_get_mapped (GTK_WIDGET (f->preview)));
  return TRUE;
}

static void
close_window (Fixture *f)
{
  g_object_add_weak_pointer (G_OBJECT (f->window), (gpointer *)&f->window);
  gtk_window_destroy (GTK_WINDOW (f->window));
  WAIT_FOR (f->window == NULL);
}

static gboolean
is_background (const guint8 *p)
{
  return abs (p[0] - TRESS_SCENE_BACKGROUND_R) <= 2 && abs (p[1] - TRESS_SCENE_BACKGROUND_G) <= 2
         && abs (p[2] - TRESS_SCENE_BACKGROUND_B) <= 2;
}

static guint
count_model_pixels (GBytes *pixels)
{
  gsize n;
  const guint8 *d = g_bytes_get_data (pixels, &n);
  guint count = 0;

  for (gsize i = 0; i + 3 < n; i += 4)
    if (!is_background (d + i))
      count++;
  return count;
}

static guint
count_different (GBytes *a, GBytes *b)
{
  gsize n, m;
  const guint8 *x = g_bytes_get_data (a, &n), *y = g_bytes_get_data (b, &m);
  guint count = 0;

  g_assert_cmpuint (n, ==, m);
  for (gsize i = 0; i + 3 < n; i += 4)
    if (memcmp (x + i, y + i, 3) != 0)
      count++;
  return count;
}

static int
curve_by_path (TressCurveDocument *doc, const char *path)
{
  for (guint i = 0; i < tress_curve_document_get_n_curves (doc); i++)
    if (g_strcmp0 (tress_curve_document_get_curve (doc, i)->path, path) == 0)
      return (int)i;
  return -1;
}

static void
show_curve (Fixture *f, const char *path)
{
  int c = curve_by_path (f->doc, path);
  guint u;

  g_assert_cmpint (c, >=, 0);
  u = (guint)c;
  tress_curve_view_set_curves (f->view, &u, 1);
}

/* What is drawn after the next frame. */
static GBytes *
grab (Fixture *f)
{
  GBytes *pixels;
  int w, h;

  /* Once the area has its size (the first frames of a window). */
  WAIT_FOR ((pixels = tress_scene_preview_grab (f->preview, &w, &h)) != NULL);
  return pixels;
}

typedef struct
{
  Fixture *f;
  GBytes *during; /* the picture while the drag is in progress */
  gboolean modified_during;
} DragWatch;

static void
on_drag_update (TressCurveView *view, DragWatch *watch)
{
  if (watch->during != NULL)
    return;
  watch->during = grab (watch->f);
  watch->modified_during = tress_document_get_modified (TRESS_DOCUMENT (watch->f->doc));
}

static void
test_preview (void)
{
  g_autofree char *path = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *model = tress_test_sample_path ("bfres/Animal_Bass.bfres");
  Fixture f = { 0 };
  TressSceneAnimator *animator;
  g_autoptr (GBytes) rest = NULL, scrubbed = NULL, after = NULL;
  int curve, spine2, head;
  guint total;
  double x, y;

  if (path == NULL || model == NULL)
    return;
  open_window (&f, path);
  /* The Bass model is found beside the animation file. */
  WAIT_FOR (tress_scene_pane_get_animator (f.pane) != NULL
            || tress_scene_preview_get_message (f.preview) != NULL);
  animator = tress_scene_pane_get_animator (f.pane);
  g_assert_nonnull (animator);
  g_assert_null (tress_scene_preview_get_message (f.preview));
  g_assert_cmpstr (animator->scene->name, ==, "Bass");
  g_assert_cmpstr (animator->source, ==, "Animal_Bass.bfres");

  WAIT_FOR (tress_scene_preview_get_gl_ready (f.preview)
            || tress_scene_preview_get_gl_error (f.preview) != NULL);
  if (!tress_scene_preview_get_gl_ready (f.preview))
    {
      /* Without GL the pane says so, and the editor still edits. */
      g_assert_nonnull (strstr (tress_scene_preview_get_gl_error (f.preview), "unavailable"));
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "curve.select-key", "(uub)",
                                                 tress_curve_view_get_curve_index (f.view, 0), 1u,
                                                 FALSE));
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "curve.nudge", "(ii)", 0, 1));
      g_assert_true (tress_document_get_modified (TRESS_DOCUMENT (f.doc)));
      close_window (&f);
      return;
    }

  /* The mesh is drawn: many pixels other than the background. */
  show_curve (&f, "Dead/Skl_Root/Rotate Z");
  tress_curve_view_set_playhead (f.view, 0);
  WAIT_FOR (tress_scene_preview_is_highlighted (
      f.preview, (guint)tress_scene_find_node (animator->scene, "Skl_Root")));
  rest = grab (&f);
  g_assert_nonnull (rest);
  total = (guint)(g_bytes_get_size (rest) / 4);
  g_test_message ("preview: %u of %u pixels show the model", count_model_pixels (rest), total);
  g_assert_cmpuint (count_model_pixels (rest), >, total / 50);
  /* The bones alone draw far less than the mesh. */
  tress_scene_preview_set_show_mesh (f.preview, FALSE);
  {
    g_autoptr (GBytes) bones = grab (&f);

    g_assert_cmpuint (count_model_pixels (bones), <, count_model_pixels (rest) / 3);
    g_assert_cmpuint (count_model_pixels (bones), >, 20);
  }
  tress_scene_preview_set_show_mesh (f.preview, TRUE);

  /* Scrubbing: Dead turns the fish on its side by frame 25. */
  tress_curve_view_set_playhead (f.view, 25);
  scrubbed = grab (&f);
  g_assert_cmpuint (count_different (rest, scrubbed), >, total / 100);
  g_assert_cmpint (tress_scene_pane_get_animation (f.pane), >=, 0);
  g_assert_cmpstr (animator->anim_names[tress_scene_pane_get_animation (f.pane)], ==, "Dead");

  /* Playback poses every frame it plays. */
  {
    guint poses = tress_scene_pane_get_n_poses (f.pane);

    g_object_set (f.view, "playing", TRUE, NULL);
    WAIT_FOR (tress_scene_pane_get_n_poses (f.pane) >= poses + 3);
    g_object_set (f.view, "playing", FALSE, NULL);
    tress_curve_view_set_playhead (f.view, 25);
  }

  /* The shown curve's bone is highlighted, the others not. */
  g_assert_true (tress_scene_preview_is_highlighted (
      f.preview, (guint)tress_scene_find_node (animator->scene, "Skl_Root")));
  head = tress_scene_find_node (animator->scene, "Head");
  g_assert_false (tress_scene_preview_is_highlighted (f.preview, (guint)head));

  /* A key drag changes the drawn pose before it is committed. */
  {
    DragWatch watch = { &f, NULL, TRUE };
    guint poses_at_commit;
    gulong id;
    guint c;

    curve = curve_by_path (f.doc, "Dead/Skl_Root/Rotate Z");
    c = (guint)curve;
    /* The key nearest the playhead, dragged up by a third of the graph. */
    {
      const TressCurve *cv = tress_curve_document_get_curve (f.doc, c);
      guint k = 0;

      for (guint i = 0; i < tress_curve_get_n_keys (cv); i++)
        if (fabs (tress_curve_get_key (cv, i)->frame - 25)
            < fabs (tress_curve_get_key (cv, k)->frame - 25))
          k = i;
      g_assert_true (tress_curve_view_get_point (f.view, c, k, TRESS_CURVE_PART_KEY, &x, &y));
      id = g_signal_connect (f.view, "drag-update", G_CALLBACK (on_drag_update), &watch);
      g_assert_true (gtk_widget_activate_action (
          GTK_WIDGET (f.view), "curve.drag", "(ddddb)", x, y, x,
          y - gtk_widget_get_height (GTK_WIDGET (f.view)) / 3.0, FALSE));
      g_signal_handler_disconnect (f.view, id);
      poses_at_commit = tress_scene_pane_get_n_poses (f.pane);
    }
    g_assert_nonnull (watch.during);
    g_assert_false (watch.modified_during); /* not yet committed */
    g_assert_cmpuint (count_different (scrubbed, watch.during), >, total / 200);
    g_assert_true (tress_document_get_modified (TRESS_DOCUMENT (f.doc)));
    /* The committed curve is posed before the next frame. */
    WAIT_FOR (tress_scene_pane_get_n_poses (f.pane) > poses_at_commit);
    after = grab (&f);
    g_assert_cmpuint (count_different (scrubbed, after), >, total / 200);
    /* Undo brings the picture back (posed before the next frame). */
    {
      guint poses = tress_scene_pane_get_n_poses (f.pane);

      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.window), "win.undo", NULL));
      WAIT_FOR (tress_scene_pane_get_n_poses (f.pane) > poses);
    }
    {
      g_autoptr (GBytes) undone = grab (&f);

      g_assert_cmpuint (count_different (scrubbed, undone), ==, 0);
    }
    g_bytes_unref (watch.during);
  }

  /* Clicking a bone selects its curves in the tree (and the graph shows them). */
  spine2 = tress_scene_find_node (animator->scene, "Spine_2");
  g_assert_true (tress_scene_preview_node_position (f.preview, (guint)spine2, &x, &y));
  {
    double px, py;
    int spine1 = tress_scene_find_node (animator->scene, "Spine_1");

    g_assert_true (tress_scene_preview_node_position (f.preview, (guint)spine1, &px, &py));
    /* On the stick from Spine_1 to Spine_2, past the middle. */
    g_assert_cmpint (tress_scene_preview_pick (f.preview, px + (x - px) * 0.7, py + (y - py) * 0.7),
                     ==, spine2);
    g_signal_emit_by_name (f.preview, "node-clicked", spine2, (GdkModifierType)0);
  }
  /* The highlight follows the graph's new curves before the next frame. */
  WAIT_FOR (tress_scene_preview_is_highlighted (f.preview, (guint)spine2));
  g_assert_cmpuint (tress_curve_view_get_n_curves (f.view), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      const TressCurve *c
          = tress_curve_document_get_curve (f.doc, tress_curve_view_get_curve_index (f.view, i));

      g_assert_true (g_str_has_prefix (c->path, "Dead/Spine_2/"));
    }
  {
    GtkSelectionModel *sel = tress_curve_editor_get_tree_selection (f.editor);
    g_autoptr (GtkBitset) set = gtk_selection_model_get_selection (sel);
    g_autoptr (GtkTreeListRow) row = NULL;
    g_autoptr (TressCurveNode) node = NULL;

    g_assert_cmpuint (gtk_bitset_get_size (set), ==, 1);
    row = g_list_model_get_item (G_LIST_MODEL (sel), gtk_bitset_get_nth (set, 0));
    node = gtk_tree_list_row_get_item (row);
    g_assert_cmpstr (tress_curve_node_get_name (node), ==, "Spine_2");
  }
  g_assert_true (tress_scene_preview_is_highlighted (f.preview, (guint)spine2));
  g_assert_false (tress_scene_preview_is_highlighted (f.preview, (guint)head));
  close_window (&f);
}

/* A model that cannot be read is an error in the preview's place, naming
 * field and offset; the curves still edit. */
static void
test_bad_model (void)
{
  g_autoptr (GBytes) anims = tress_test_load_sample ("bfres/Animal_Bass_Animation.bfres");
  g_autoptr (GBytes) model = tress_test_load_sample ("bfres/Animal_Bass.bfres");
  g_autofree char *dir = NULL, *anim_path = NULL, *model_path = NULL;
  g_autoptr (GByteArray) broken = g_byte_array_new ();
  Fixture f = { 0 };
  const char *message;

  if (anims == NULL || model == NULL)
    return;
  dir = g_build_filename (tress_test_tmpdir (), "bad", NULL);
  g_mkdir_with_parents (dir, 0755);
  anim_path = g_build_filename (dir, "Animal_Bass_Animation.bfres", NULL);
  model_path = g_build_filename (dir, "Animal_Bass.bfres", NULL);
  g_assert_true (g_file_set_contents (anim_path, g_bytes_get_data (anims, NULL),
                                      g_bytes_get_size (anims), NULL));
  /* The model cut inside its vertex data. */
  g_byte_array_append (broken, g_bytes_get_data (model, NULL), 0x11000);
  g_assert_true (g_file_set_contents (model_path, (const char *)broken->data, broken->len, NULL));

  open_window (&f, anim_path);
  WAIT_FOR (tress_scene_preview_get_message (f.preview) != NULL);
  message = tress_scene_preview_get_message (f.preview);
  g_test_message ("%s", message);
  g_assert_nonnull (strstr (message, "offset 0x"));
  g_assert_null (tress_scene_pane_get_animator (f.pane));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "curve.select-key", "(uub)",
                                             tress_curve_view_get_curve_index (f.view, 0), 1u,
                                             FALSE));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "curve.nudge", "(ii)", 0, 1));
  g_assert_true (tress_document_get_modified (TRESS_DOCUMENT (f.doc)));

  /* Choosing the good model (as "Model…" does) shows it, and is remembered. */
  {
    g_autofree char *good = tress_test_sample_path ("bfres/Animal_Bass.bfres");
    g_autoptr (GFile) file = g_file_new_for_path (good);

    tress_scene_pane_load (f.pane, file);
    g_assert_nonnull (tress_scene_pane_get_animator (f.pane));
    g_assert_null (tress_scene_preview_get_message (f.preview));
  }
  close_window (&f);
  open_window (&f, anim_path);
  WAIT_FOR (tress_scene_pane_get_animator (f.pane) != NULL
            || tress_scene_preview_get_message (f.preview) != NULL);
  g_assert_nonnull (tress_scene_pane_get_animator (f.pane));
  close_window (&f);
}

/* A skeleton that fails the bind check is an error naming the bone in the
 * preview's place; the curves still edit. */
static void
test_bad_bind (void)
{
  g_autoptr (GBytes) anims = tress_test_load_sample ("bfres/Animal_Bass_Animation.bfres");
  g_autoptr (GBytes) model = tress_test_load_sample ("bfres/Animal_Bass.bfres");
  g_autofree char *dir = NULL, *anim_path = NULL, *model_path = NULL;
  g_autoptr (GByteArray) broken = g_byte_array_new ();
  g_autoptr (TressBfresModels) models = NULL;
  Fixture f = { 0 };
  const char *message;
  float moved = 0.25f;
  guint32 u;
  gsize at;

  if (anims == NULL || model == NULL)
    return;
  models
      = tress_bfres_models_parse (g_bytes_get_data (model, NULL), g_bytes_get_size (model), NULL);
  g_assert_nonnull (models);
  /* Spine_2's inverse model matrix, row 0, column 3 (as in test-bfres-model). */
  at = tress_bfres_models_find (models, "Bass")->skeleton.inverse_pos + 48 * 2 + 12;
  dir = g_build_filename (tress_test_tmpdir (), "bad-bind", NULL);
  g_mkdir_with_parents (dir, 0755);
  anim_path = g_build_filename (dir, "Animal_Bass_Animation.bfres", NULL);
  model_path = g_build_filename (dir, "Animal_Bass.bfres", NULL);
  g_assert_true (g_file_set_contents (anim_path, g_bytes_get_data (anims, NULL),
                                      g_bytes_get_size (anims), NULL));
  g_byte_array_append (broken, g_bytes_get_data (model, NULL), g_bytes_get_size (model));
  memcpy (&u, &moved, 4);
  u = GUINT32_TO_BE (u);
  memcpy (broken->data + at, &u, 4);
  g_assert_true (g_file_set_contents (model_path, (const char *)broken->data, broken->len, NULL));

  open_window (&f, anim_path);
  WAIT_FOR (tress_scene_preview_get_message (f.preview) != NULL);
  message = tress_scene_preview_get_message (f.preview);
  g_test_message ("%s", message);
  g_assert_nonnull (strstr (message, "Spine_2"));
  g_assert_null (tress_scene_pane_get_animator (f.pane));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "curve.select-key", "(uub)",
                                             tress_curve_view_get_curve_index (f.view, 0), 1u,
                                             FALSE));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "curve.nudge", "(ii)", 0, 1));
  g_assert_true (tress_document_get_modified (TRESS_DOCUMENT (f.doc)));
  close_window (&f);
}

/* ---- a user's pointer (xdotool) and what the X server shows ----------------- */

#ifdef GDK_WINDOWING_X11
/* The GL area inside the preview. */
static GtkWidget *
find_type (GtkWidget *w, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (w, type))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_type (c, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The mapped label showing @text highest up in @w. */
static GtkWidget *
find_label (GtkWidget *w, const char *text, GtkWidget *root, double *best_y)
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
      GtkWidget *in = find_label (c, text, root, best_y);

      if (in != NULL)
        found = in;
    }
  return found;
}

static GtkWidget *
find_tooltip (GtkWidget *w, const char *tooltip)
{
  if (g_strcmp0 (gtk_widget_get_tooltip_text (w), tooltip) == 0)
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_tooltip (c, tooltip);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* (@x, @y) of @widget in the X window's pixels. */
static void
to_surface (GtkWidget *widget, double x, double y, int *sx, int *sy)
{
  GtkNative *native = gtk_widget_get_native (widget);
  graphene_point_t p;
  double dx = 0, dy = 0;

  g_assert_true (
      gtk_widget_compute_point (widget, GTK_WIDGET (native), &GRAPHENE_POINT_INIT (x, y), &p));
  gtk_native_get_surface_transform (native, &dx, &dy);
  *sx = (int)lround (p.x + dx);
  *sy = (int)lround (p.y + dy);
}

static void
xdotool (const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  int status = 0;

  g_ptr_array_add (argv, (gpointer) "xdotool");
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer)args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **)argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

/* Moves the X pointer onto (@x, @y) of @widget (xdotool mousemove --sync). */
static void
pointer_to (GtkWidget *widget, double x, double y)
{
  GdkSurface *surface = gtk_native_get_surface (gtk_widget_get_native (widget));
  g_autofree char *xid = g_strdup_printf ("%lu", (unsigned long)gdk_x11_surface_get_xid (surface));
  char sx[16], sy[16];
  int ix, iy;

  to_surface (widget, x, y, &ix, &iy);
  g_snprintf (sx, sizeof sx, "%d", ix);
  g_snprintf (sy, sizeof sy, "%d", iy);
  xdotool ((const char *[]){ "mousemove", "--sync", "--window", xid, sx, sy, NULL });
  tress_test_spin (50);
}

static void
click_at (GtkWidget *widget, double x, double y)
{
  pointer_to (widget, x, y);
  xdotool ((const char *[]){ "click", "1", NULL });
  tress_test_spin (100);
}

/* What the X server shows of @widget's rectangle (RGB, 3 bytes a pixel). */
static GBytes *
x_shot (GtkWidget *widget, int *width, int *height)
{
  GdkSurface *surface = gtk_native_get_surface (gtk_widget_get_native (widget));
  Display *dpy = gdk_x11_display_get_xdisplay (gtk_widget_get_display (widget));
  int x0, y0, x1, y1, w, h;
  XImage *image;
  guint8 *rgb;

  to_surface (widget, 0, 0, &x0, &y0);
  to_surface (widget, gtk_widget_get_width (widget), gtk_widget_get_height (widget), &x1, &y1);
  w = x1 - x0;
  h = y1 - y0;
  XSync (dpy, False);
  image = XGetImage (dpy, gdk_x11_surface_get_xid (surface), x0, y0, (unsigned)w, (unsigned)h,
                     AllPlanes, ZPixmap);
  g_assert_nonnull (image);
  rgb = g_malloc ((gsize)w * h * 3);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        unsigned long px = XGetPixel (image, x, y);
        guint8 *d = rgb + ((gsize)y * w + x) * 3;

        d[0] = (guint8)((px & image->red_mask) >> __builtin_ctzl (image->red_mask));
        d[1] = (guint8)((px & image->green_mask) >> __builtin_ctzl (image->green_mask));
        d[2] = (guint8)((px & image->blue_mask) >> __builtin_ctzl (image->blue_mask));
      }
  XDestroyImage (image);
  *width = w;
  *height = h;
  return g_bytes_new_take (rgb, (gsize)w * h * 3);
}

static guint
x_different (GBytes *a, GBytes *b)
{
  gsize n, m;
  const guint8 *x = g_bytes_get_data (a, &n), *y = g_bytes_get_data (b, &m);
  guint count = 0;

  g_assert_cmpuint (n, ==, m);
  for (gsize i = 0; i + 2 < n; i += 3)
    if (abs (x[i] - y[i]) + abs (x[i + 1] - y[i + 1]) + abs (x[i + 2] - y[i + 2]) > 6)
      count++;
  return count;
}

static guint
x_model_pixels (GBytes *rgb)
{
  gsize n;
  const guint8 *d = g_bytes_get_data (rgb, &n);
  guint count = 0;

  for (gsize i = 0; i + 2 < n; i += 3)
    if (abs (d[i] - TRESS_SCENE_BACKGROUND_R) > 2 || abs (d[i + 1] - TRESS_SCENE_BACKGROUND_G) > 2
        || abs (d[i + 2] - TRESS_SCENE_BACKGROUND_B) > 2)
      count++;
  return count;
}

/* Waits until what the X server shows of @area differs from @before in more
 * than @min pixels (the frame GTK draws after an event reaches the server a
 * little later); returns that picture. */
static gboolean
x_shot_differs (GtkWidget *area, GBytes *before, guint min, GBytes **now)
{
  int w, h;

  if (*now != NULL)
    g_bytes_unref (*now);
  *now = x_shot (area, &w, &h);
  return x_different (before, *now) > min;
}

static GBytes *
x_shot_changed (GtkWidget *area, GBytes *before, guint min)
{
  GBytes *now = NULL;

  WAIT_FOR (x_shot_differs (area, before, min, &now));
  return now;
}

static void
write_x_shot (GtkWidget *window, const char *path)
{
  g_autoptr (GBytes) rgb = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  g_autoptr (GError) error = NULL;
  int w, h;

  /* The whole X window, its frame included. */
  {
    GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));
    Display *dpy = gdk_x11_display_get_xdisplay (gtk_widget_get_display (window));
    XImage *image;
    guint8 *d;

    w = gdk_surface_get_width (surface);
    h = gdk_surface_get_height (surface);
    XSync (dpy, False);
    image = XGetImage (dpy, gdk_x11_surface_get_xid (surface), 0, 0, (unsigned)w, (unsigned)h,
                       AllPlanes, ZPixmap);
    g_assert_nonnull (image);
    d = g_malloc ((gsize)w * h * 3);
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        {
          unsigned long px = XGetPixel (image, x, y);
          guint8 *q = d + ((gsize)y * w + x) * 3;

          q[0] = (guint8)((px & image->red_mask) >> __builtin_ctzl (image->red_mask));
          q[1] = (guint8)((px & image->green_mask) >> __builtin_ctzl (image->green_mask));
          q[2] = (guint8)((px & image->blue_mask) >> __builtin_ctzl (image->blue_mask));
        }
    XDestroyImage (image);
    rgb = g_bytes_new_take (d, (gsize)w * h * 3);
  }
  texture = gdk_memory_texture_new (w, h, GDK_MEMORY_R8G8B8, rgb, (gsize)w * 3);
  g_assert_true (tress_texture_save_png (texture, path, &error));
  g_assert_no_error (error);
}

/* The key of @curve nearest @frame that no other shown curve's key covers. */
static guint
key_near (Fixture *f, guint curve, double frame, double *kx, double *ky)
{
  const TressCurve *cv = tress_curve_document_get_curve (f->doc, curve);
  double best = G_MAXDOUBLE;
  guint best_k = G_MAXUINT;

  for (guint k = 0; k < tress_curve_get_n_keys (cv); k++)
    {
      double x, y, nearest = G_MAXDOUBLE, d = fabs (tress_curve_get_key (cv, k)->frame - frame);

      if (d >= best || !tress_curve_view_get_point (f->view, curve, k, TRESS_CURVE_PART_KEY, &x, &y)
          || y < 10 || y > gtk_widget_get_height (GTK_WIDGET (f->view)) - 10)
        continue;
      for (guint i = 0; i < tress_curve_view_get_n_curves (f->view); i++)
        {
          guint other = tress_curve_view_get_curve_index (f->view, i);
          const TressCurve *o = tress_curve_document_get_curve (f->doc, other);

          for (guint j = 0; other != curve && j < tress_curve_get_n_keys (o); j++)
            {
              double ox, oy;

              if (tress_curve_view_get_point (f->view, other, j, TRESS_CURVE_PART_KEY, &ox, &oy))
                nearest = MIN (nearest, hypot (ox - x, oy - y));
            }
        }
      if (nearest > 10)
        {
          best = d;
          best_k = k;
          *kx = x;
          *ky = y;
        }
    }
  g_assert_cmpuint (best_k, !=, G_MAXUINT);
  return best_k;
}
#endif

/* The playhead: Jump's fish is in the air, wholly in view. */
#define POINTER_FRAME 3

static void
test_real_pointer (void)
{
#ifdef GDK_WINDOWING_X11
  g_autofree char *path = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *model = tress_test_sample_path ("bfres/Animal_Bass.bfres");
  const char *screenshot = g_getenv ("TRESS_SCENE_SCREENSHOT");
  Fixture f = { 0 };
  TressSceneAnimator *animator;
  GtkWidget *area, *tree, *label;
  g_autoptr (GBytes) dead = NULL, jump = NULL, clicked = NULL, during = NULL, after = NULL;
  double best, x, y, px, py;
  int w, h, spine2, spine1;
  guint total, curve = G_MAXUINT, k;
  float before_value;

  if (path == NULL || model == NULL)
    return;
  open_window (&f, path);
  if (!GDK_IS_X11_DISPLAY (gtk_widget_get_display (GTK_WIDGET (f.window)))
      || g_find_program_in_path ("xdotool") == NULL)
    {
      g_test_skip ("needs an X11 display and xdotool");
      close_window (&f);
      return;
    }
  WAIT_FOR (tress_scene_pane_get_animator (f.pane) != NULL
            || tress_scene_preview_get_message (f.preview) != NULL);
  animator = tress_scene_pane_get_animator (f.pane);
  g_assert_nonnull (animator);
  WAIT_FOR (tress_scene_preview_get_gl_ready (f.preview)
            || tress_scene_preview_get_gl_error (f.preview) != NULL);
  if (!tress_scene_preview_get_gl_ready (f.preview))
    {
      g_test_skip ("needs GL");
      close_window (&f);
      return;
    }
  /* The X window is 960×640 (the window's frame included). */
  {
    GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (f.window));

    WAIT_FOR (gtk_widget_get_width (GTK_WIDGET (f.window)) > 0);
    g_test_message ("window %d×%d, its content %d×%d", gdk_surface_get_width (surface),
                    gdk_surface_get_height (surface), gtk_widget_get_width (GTK_WIDGET (f.window)),
                    gtk_widget_get_height (GTK_WIDGET (f.window)));
    g_assert_cmpint (gdk_surface_get_width (surface), ==, 960);
    g_assert_cmpint (gdk_surface_get_height (surface), ==, 640);
  }
  area = find_type (GTK_WIDGET (f.preview), GTK_TYPE_GL_AREA);
  g_assert_nonnull (area);
  tree = gtk_widget_get_ancestor (find_label (GTK_WIDGET (f.editor), "Dead (Dead)",
                                              GTK_WIDGET (f.window), &(double){ G_MAXDOUBLE }),
                                  GTK_TYPE_COLUMN_VIEW);
  g_assert_nonnull (tree);
  tress_curve_view_set_playhead (f.view, POINTER_FRAME);
  /* The pointer away from the preview (no hover highlight, no tooltip). */
  pointer_to (GTK_WIDGET (f.view), 5, 5);
  WAIT_FOR (tress_scene_preview_grab (f.preview, &w, &h) != NULL);
  tress_test_spin (300);
  dead = x_shot (area, &w, &h);
  total = (guint)(w * h);
  g_assert_cmpint (tress_scene_pane_get_animation (f.pane), >=, 0);
  g_assert_cmpstr (animator->anim_names[tress_scene_pane_get_animation (f.pane)], ==, "Dead");

  /* Select another animation: fold Dead (its row's expander), click Jump. */
  best = G_MAXDOUBLE;
  label = find_label (tree, "Dead (Dead)", GTK_WIDGET (f.window), &best);
  {
    GtkWidget *expander = gtk_widget_get_ancestor (label, GTK_TYPE_TREE_EXPANDER);
    GtkWidget *arrow = gtk_widget_get_first_child (expander);

    while (arrow != NULL && strcmp (gtk_widget_get_css_name (arrow), "expander") != 0)
      arrow = gtk_widget_get_next_sibling (arrow);
    g_assert_nonnull (arrow);
    click_at (arrow, gtk_widget_get_width (arrow) / 2.0, gtk_widget_get_height (arrow) / 2.0);
  }
  best = G_MAXDOUBLE;
  WAIT_FOR ((label = find_label (tree, "Jump (Jump)", GTK_WIDGET (f.window), &best)) != NULL);
  click_at (label, gtk_widget_get_width (label) / 2.0, gtk_widget_get_height (label) / 2.0);
  WAIT_FOR (tress_scene_pane_get_animation (f.pane) >= 0
            && g_strcmp0 (animator->anim_names[tress_scene_pane_get_animation (f.pane)], "Jump")
                   == 0);
  pointer_to (GTK_WIDGET (f.view), 5, 5);
  /* Jump there is another pose than Dead's. */
  jump = x_shot_changed (area, dead, total / 200);
  g_test_message ("Dead → Jump at frame %d: %u of %u preview pixels changed", POINTER_FRAME,
                  x_different (dead, jump), total);

  /* Click the bone Spine_2 (on its stick, past the middle): its curves are
   * selected in the tree and shown in the graph, and it is highlighted. */
  spine2 = tress_scene_find_node (animator->scene, "Spine_2");
  spine1 = tress_scene_find_node (animator->scene, "Spine_1");
  g_assert_true (tress_scene_preview_node_position (f.preview, (guint)spine2, &x, &y));
  g_assert_true (tress_scene_preview_node_position (f.preview, (guint)spine1, &px, &py));
  x = px + (x - px) * 0.7;
  y = py + (y - py) * 0.7;
  g_assert_cmpint (tress_scene_preview_pick (f.preview, x, y), ==, spine2);
  click_at (area, x, y);
  /* Jump animates Spine_2 by one curve (all 11 of Jump's were shown). */
  WAIT_FOR (tress_curve_view_get_n_curves (f.view) == 1);
  /* The highlight follows before the next frame: Spine_2 only. */
  WAIT_FOR (!tress_scene_preview_is_highlighted (
      f.preview, (guint)tress_scene_find_node (animator->scene, "Head")));
  g_assert_true (tress_scene_preview_is_highlighted (f.preview, (guint)spine2));
  curve = tress_curve_view_get_curve_index (f.view, 0);
  g_assert_cmpstr (tress_curve_document_get_curve (f.doc, curve)->path, ==,
                   "Jump/Spine_2/Rotate Y");
  g_assert_cmpuint (curve, !=, G_MAXUINT);
  {
    GtkSelectionModel *sel = tress_curve_editor_get_tree_selection (f.editor);
    g_autoptr (GtkBitset) set = gtk_selection_model_get_selection (sel);
    g_autoptr (GtkTreeListRow) row = NULL;
    g_autoptr (TressCurveNode) node = NULL;

    g_assert_cmpuint (gtk_bitset_get_size (set), ==, 1);
    row = g_list_model_get_item (G_LIST_MODEL (sel), gtk_bitset_get_nth (set, 0));
    node = gtk_tree_list_row_get_item (row);
    g_assert_cmpstr (tress_curve_node_get_name (node), ==, "Spine_2");
  }
  pointer_to (GTK_WIDGET (f.view), 5, 5);
  /* The highlight is drawn: the bone and the vertices it moves change colour. */
  clicked = x_shot_changed (area, jump, total / 500);
  g_test_message ("bone clicked: %u pixels changed", x_different (jump, clicked));
  if (screenshot != NULL)
    {
      tress_test_spin (500);
      write_x_shot (GTK_WIDGET (f.window), screenshot);
      g_test_message ("wrote %s", screenshot);
      g_clear_pointer (&clicked, g_bytes_unref);
      clicked = x_shot (area, &w, &h);
    }

  /* Drag a key of Spine_2's Rotate Y near the playhead a third of the graph
   * up: the bone moves while the button is down (nothing committed yet), and
   * the release commits the edit. */
  k = key_near (&f, curve, POINTER_FRAME, &x, &y);
  before_value = tress_curve_get_key (tress_curve_document_get_curve (f.doc, curve), k)->value;
  {
    double up = gtk_widget_get_height (GTK_WIDGET (f.view)) / 3.0;

    pointer_to (GTK_WIDGET (f.view), x, y);
    xdotool ((const char *[]){ "mousedown", "1", NULL });
    tress_test_spin (100);
    for (int step = 1; step <= 4; step++)
      pointer_to (GTK_WIDGET (f.view), x, y - (up * step) / 4);
    during = x_shot_changed (area, clicked, total / 200);
    g_assert_false (tress_document_get_modified (TRESS_DOCUMENT (f.doc)));
    xdotool ((const char *[]){ "mouseup", "1", NULL });
  }
  g_test_message ("during the drag: %u pixels changed", x_different (clicked, during));
  WAIT_FOR (tress_document_get_modified (TRESS_DOCUMENT (f.doc)));
  g_assert_cmpfloat (tress_curve_get_key (tress_curve_document_get_curve (f.doc, curve), k)->value,
                     !=, before_value);
  pointer_to (GTK_WIDGET (f.view), 5, 5);
  after = x_shot_changed (area, clicked, total / 200);
  g_test_message ("after the release: %u pixels changed", x_different (clicked, after));

  /* The camera as in the fur preview: a drag off the bones orbits, the wheel
   * zooms, Shift+drag pans, "Frame the whole model" frames it again. */
  {
    g_autoptr (GBytes) orbited = NULL, zoomed = NULL, panned = NULL, framed = NULL;
    GtkWidget *frame = find_tooltip (GTK_WIDGET (f.preview), "Frame the whole model");
    double aw = gtk_widget_get_width (area), ah = gtk_widget_get_height (area);

    g_assert_nonnull (frame);
    /* Off the bones, and away from the panes' handles. */
    g_assert_cmpint (tress_scene_preview_pick (f.preview, aw * 0.1, ah * 0.85), <, 0);
    pointer_to (area, aw * 0.1, ah * 0.85);
    xdotool ((const char *[]){ "mousedown", "1", NULL });
    for (int step = 1; step <= 4; step++)
      pointer_to (area, aw * (0.1 + 0.1 * step), ah * 0.85);
    xdotool ((const char *[]){ "mouseup", "1", NULL });
    pointer_to (GTK_WIDGET (f.view), 5, 5);
    orbited = x_shot_changed (area, after, total / 100);
    pointer_to (area, aw / 2, ah / 2);
    xdotool ((const char *[]){ "click", "--repeat", "3", "5", NULL }); /* wheel down */
    pointer_to (GTK_WIDGET (f.view), 5, 5);
    zoomed = x_shot_changed (area, orbited, total / 100);
    g_assert_cmpint (tress_scene_preview_pick (f.preview, aw * 0.1, ah * 0.15), <, 0);
    pointer_to (area, aw * 0.1, ah * 0.15);
    xdotool ((const char *[]){ "keydown", "shift", "mousedown", "1", NULL });
    for (int step = 1; step <= 4; step++)
      pointer_to (area, aw * (0.1 + 0.05 * step), ah * (0.15 + 0.05 * step));
    xdotool ((const char *[]){ "mouseup", "1", "keyup", "shift", NULL });
    pointer_to (GTK_WIDGET (f.view), 5, 5);
    panned = x_shot_changed (area, zoomed, total / 100);
    click_at (frame, gtk_widget_get_width (frame) / 2.0, gtk_widget_get_height (frame) / 2.0);
    pointer_to (GTK_WIDGET (f.view), 5, 5);
    /* Framed again: the model fills about what it filled after the orbit
     * (framing takes the posed model's bounds, the angle is kept). */
    framed = x_shot_changed (area, panned, total / 100);
    g_assert_cmpuint (x_model_pixels (framed), >, x_model_pixels (orbited) / 2);
    g_assert_cmpuint (x_model_pixels (framed), <, x_model_pixels (orbited) * 2);
    g_test_message ("camera: orbit %u, zoom %u, pan %u pixels changed; the model on %u pixels "
                    "after the orbit, %u zoomed, %u framed again",
                    x_different (after, orbited), x_different (orbited, zoomed),
                    x_different (zoomed, panned), x_model_pixels (orbited), x_model_pixels (zoomed),
                    x_model_pixels (framed));
    g_assert_cmpuint (x_model_pixels (zoomed), <, x_model_pixels (orbited));
  }
  close_window (&f);
#else
  g_test_skip ("needs X11");
#endif
}

/* Shows @n curves and waits until the pane has posed with them. */
static void
show_and_pose (Fixture *f, const guint *curves, guint n)
{
  guint poses = tress_scene_pane_get_n_poses (f->pane);

  tress_curve_view_set_curves (f->view, curves, n);
  WAIT_FOR (tress_scene_pane_get_n_poses (f->pane) > poses);
}

static guint
grab_count (Fixture *f)
{
  g_autoptr (GBytes) p = grab (f);

  return count_model_pixels (p);
}

/* Visibility animations (FVIS) in the drawn picture: a bone's visibility
 * curve hides the shape that follows the bone, a material's hides its shape,
 * at the playhead. */
static void
test_visibility (void)
{
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("Vis", 0x04050003);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autofree char *dir = NULL, *file = NULL;
  static const float cube[]
      = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1 };
  static const guint32 tri[] = { 0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                                 2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3 };
  TressBfresBuilderBone root = { "Root", -1, { 1, 1, 1 }, { 0, 0, 0 }, { 0, 0, 0 } };
  TressBfresBuilderBone arm = { "Arm", 0, { 1, 1, 1 }, { 0, 0, 0 }, { 1.5f, 0, 0 } };
  TressBfresBuilderShape box = { .name = "Box",
                                 .n_vertices = 8,
                                 .positions = cube,
                                 .bone = 1,
                                 .n_triangles = 12,
                                 .triangles = tri };
  TressKey keys[2] = { { .frame = 0, .value = 1 }, { .frame = 5, .value = 0 } };
  TressBfresBuilderCurve c = { .curve_type = TRESS_BFRES_CURVE_STEP_BOOL,
                               .frame_type = TRESS_BFRES_FRAME_U8,
                               .key_type = TRESS_BFRES_KEY_S8,
                               .n_keys = 2,
                               .keys = keys };
  Fixture f = { 0 };
  guint shown[2], all, arm_hidden, none;
  int w, h;

  tress_bfres_builder_begin_model (b, "Thing");
  tress_bfres_builder_add_model_bone (b, &root);
  tress_bfres_builder_add_model_bone (b, &arm);
  tress_bfres_builder_add_model_material (b, "Mt_Box");
  tress_bfres_builder_add_model_material (b, "Mt_Glass");
  tress_bfres_builder_add_shape (b, &box);
  box.name = "Glass";
  box.material = 1;
  box.bone = 0;
  tress_bfres_builder_add_shape (b, &box);
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_BONE_VISIBILITY, "HideArm", 10, FALSE);
  c.name = "Arm";
  tress_bfres_builder_add_curve (b, &c);
  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_MAT_VISIBILITY, "HideGlass", 10, FALSE);
  c.name = "Mt_Glass";
  tress_bfres_builder_add_curve (b, &c);
  bytes = tress_bfres_builder_finish (b, &error);
  g_assert_no_error (error);
  dir = g_build_filename (tress_test_tmpdir (), "vis", NULL);
  g_mkdir_with_parents (dir, 0755);
  file = g_build_filename (dir, "Vis.bfres", NULL);
  g_assert_true (
      g_file_set_contents (file, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));

  open_window (&f, file);
  WAIT_FOR (tress_scene_pane_get_animator (f.pane) != NULL
            || tress_scene_preview_get_message (f.preview) != NULL);
  g_assert_nonnull (tress_scene_pane_get_animator (f.pane));
  WAIT_FOR (tress_scene_preview_get_gl_ready (f.preview)
            || tress_scene_preview_get_gl_error (f.preview) != NULL);
  if (!tress_scene_preview_get_gl_ready (f.preview))
    {
      g_test_skip ("needs GL");
      close_window (&f);
      return;
    }
  tress_scene_preview_set_show_bones (f.preview, FALSE);
  shown[0] = (guint)curve_by_path (f.doc, "HideArm/Arm");
  shown[1] = (guint)curve_by_path (f.doc, "HideGlass/Mt_Glass");
  show_and_pose (&f, shown, 2);
  tress_curve_view_set_playhead (f.view, 2);
  WAIT_FOR (tress_scene_preview_grab (f.preview, &w, &h) != NULL);
  all = grab_count (&f);
  /* Frame 7: both curves are 0; only the bone's animation shown: the box on
   * Arm goes, the glass stays. */
  show_and_pose (&f, shown, 1);
  tress_curve_view_set_playhead (f.view, 7);
  arm_hidden = grab_count (&f);
  /* Both animations: nothing is left. */
  show_and_pose (&f, shown, 2);
  none = grab_count (&f);
  g_test_message ("visibility: %u pixels drawn at frame 2, %u with Arm hidden, %u with both", all,
                  arm_hidden, none);
  g_assert_cmpuint (all, >, 1000);
  g_assert_cmpuint (arm_hidden, <, all * 3 / 4);
  g_assert_cmpuint (arm_hidden, >, all / 4);
  g_assert_cmpuint (none, ==, 0);
  /* Back at frame 2 both are shown again. */
  tress_curve_view_set_playhead (f.view, 2);
  g_assert_cmpuint (grab_count (&f), ==, all);
  close_window (&f);
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
  g_test_add_func ("/scene-window/preview", test_preview);
  g_test_add_func ("/scene-window/bad-model", test_bad_model);
  g_test_add_func ("/scene-window/bad-bind", test_bad_bind);
  g_test_add_func ("/scene-window/visibility", test_visibility);
  g_test_add_func ("/scene-window/real-pointer", test_real_pointer);
  return g_test_run ();
}
