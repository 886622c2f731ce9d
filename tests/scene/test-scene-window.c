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
 * editor as a user does, with the X server's pointer (XTest), in a 960×640 window:
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
#include <math.h>
#include <string.h>

#include "formats/bfres/tress-bfres-builder.h"
#include "formats/bfres/tress-bfres-model.h"
#include "tress-test-pointer.h"
#include "tress-test-scene.h"
#include "tress-test-utils.h"

typedef TressTestScene Fixture;

static void
show_curve (Fixture *f, const char *path)
{
  int c = tress_test_scene_curve (f, path);
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
  TRESS_TEST_WAIT_FOR ((pixels = tress_scene_preview_grab (f->preview, &w, &h)) != NULL);
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
  tress_test_scene_open (&f, path);
  /* The Bass model is found beside the animation file. */
  tress_test_scene_wait_scene (&f);
  animator = tress_scene_pane_get_animator (f.pane);
  g_assert_nonnull (animator);
  g_assert_null (tress_scene_preview_get_message (f.preview));
  g_assert_cmpstr (animator->scene->name, ==, "Bass");
  g_assert_cmpstr (animator->source, ==, "Animal_Bass.bfres");

  if (!tress_test_scene_wait_gl (&f))
    {
      /* Without GL the pane says so, and the editor still edits. */
      g_assert_nonnull (strstr (tress_scene_preview_get_gl_error (f.preview), "unavailable"));
      tress_test_scene_nudge_key (&f, 1u);
      tress_test_scene_close (&f);
      return;
    }

  /* The mesh is drawn: many pixels other than the background. */
  show_curve (&f, "Dead/Skl_Root/Rotate Z");
  tress_curve_view_set_playhead (f.view, 0);
  TRESS_TEST_WAIT_FOR (tress_scene_preview_is_highlighted (
      f.preview, (guint)tress_scene_find_node (animator->scene, "Skl_Root")));
  rest = grab (&f);
  g_assert_nonnull (rest);
  total = (guint)(g_bytes_get_size (rest) / 4);
  g_test_message ("preview: %u of %u pixels show the model", tress_test_pixels_drawn (rest, 4),
                  total);
  g_assert_cmpuint (tress_test_pixels_drawn (rest, 4), >, total / 50);
  /* The bones alone draw far less than the mesh. */
  tress_scene_preview_set_show_mesh (f.preview, FALSE);
  {
    g_autoptr (GBytes) bones = grab (&f);

    g_assert_cmpuint (tress_test_pixels_drawn (bones, 4), <, tress_test_pixels_drawn (rest, 4) / 3);
    g_assert_cmpuint (tress_test_pixels_drawn (bones, 4), >, 20);
  }
  tress_scene_preview_set_show_mesh (f.preview, TRUE);

  /* Scrubbing: Dead turns the fish on its side by frame 25. */
  tress_curve_view_set_playhead (f.view, 25);
  scrubbed = grab (&f);
  g_assert_cmpuint (tress_test_pixels_different (rest, scrubbed, 4, 0), >, total / 100);
  g_assert_cmpint (tress_scene_pane_get_animation (f.pane), >=, 0);
  g_assert_cmpstr (animator->anim_names[tress_scene_pane_get_animation (f.pane)], ==, "Dead");

  /* Playback poses every frame it plays. */
  {
    guint poses = tress_scene_pane_get_n_poses (f.pane);

    g_object_set (f.view, "playing", TRUE, NULL);
    TRESS_TEST_WAIT_FOR (tress_scene_pane_get_n_poses (f.pane) >= poses + 3);
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

    curve = tress_test_scene_curve (&f, "Dead/Skl_Root/Rotate Z");
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
    g_assert_cmpuint (tress_test_pixels_different (scrubbed, watch.during, 4, 0), >, total / 200);
    g_assert_true (tress_document_get_modified (TRESS_DOCUMENT (f.doc)));
    /* The committed curve is posed before the next frame. */
    TRESS_TEST_WAIT_FOR (tress_scene_pane_get_n_poses (f.pane) > poses_at_commit);
    after = grab (&f);
    g_assert_cmpuint (tress_test_pixels_different (scrubbed, after, 4, 0), >, total / 200);
    /* Undo brings the picture back (posed before the next frame). */
    {
      guint poses = tress_scene_pane_get_n_poses (f.pane);

      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.window), "win.undo", NULL));
      TRESS_TEST_WAIT_FOR (tress_scene_pane_get_n_poses (f.pane) > poses);
    }
    {
      g_autoptr (GBytes) undone = grab (&f);

      g_assert_cmpuint (tress_test_pixels_different (scrubbed, undone, 4, 0), ==, 0);
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
  TRESS_TEST_WAIT_FOR (tress_scene_preview_is_highlighted (f.preview, (guint)spine2));
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
  tress_test_scene_close (&f);
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

  tress_test_scene_open (&f, anim_path);
  TRESS_TEST_WAIT_FOR (tress_scene_preview_get_message (f.preview) != NULL);
  message = tress_scene_preview_get_message (f.preview);
  g_test_message ("%s", message);
  g_assert_nonnull (strstr (message, "offset 0x"));
  g_assert_null (tress_scene_pane_get_animator (f.pane));
  tress_test_scene_nudge_key (&f, 1u);

  /* Choosing the good model (as "Model…" does) shows it, and is remembered. */
  {
    g_autofree char *good = tress_test_sample_path ("bfres/Animal_Bass.bfres");
    g_autoptr (GFile) file = g_file_new_for_path (good);

    tress_scene_pane_load (f.pane, file);
    g_assert_nonnull (tress_scene_pane_get_animator (f.pane));
    g_assert_null (tress_scene_preview_get_message (f.preview));
  }
  tress_test_scene_close (&f);
  tress_test_scene_open (&f, anim_path);
  tress_test_scene_wait_scene (&f);
  g_assert_nonnull (tress_scene_pane_get_animator (f.pane));
  tress_test_scene_close (&f);
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

  tress_test_scene_open (&f, anim_path);
  TRESS_TEST_WAIT_FOR (tress_scene_preview_get_message (f.preview) != NULL);
  message = tress_scene_preview_get_message (f.preview);
  g_test_message ("%s", message);
  g_assert_nonnull (strstr (message, "Spine_2"));
  g_assert_null (tress_scene_pane_get_animator (f.pane));
  tress_test_scene_nudge_key (&f, 1u);
  tress_test_scene_close (&f);
}

/* ---- a user's pointer (XTest) and what the X server shows ------------------- */

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

/* The playhead: Jump's fish is in the air, wholly in view. */
#define POINTER_FRAME 3

static void
test_real_pointer (void)
{
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
  tress_test_scene_open (&f, path);
  if (!tress_test_pointer_available (GTK_WIDGET (f.window)))
    {
      tress_test_scene_close (&f);
      return;
    }
  tress_test_scene_wait_scene (&f);
  animator = tress_scene_pane_get_animator (f.pane);
  g_assert_nonnull (animator);
  if (!tress_test_scene_wait_gl (&f))
    {
      g_test_skip ("needs GL");
      tress_test_scene_close (&f);
      return;
    }
  /* The X window is 960×640 (the window's frame included). */
  {
    GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (f.window));

    TRESS_TEST_WAIT_FOR (gtk_widget_get_width (GTK_WIDGET (f.window)) > 0);
    g_test_message ("window %d×%d, its content %d×%d", gdk_surface_get_width (surface),
                    gdk_surface_get_height (surface), gtk_widget_get_width (GTK_WIDGET (f.window)),
                    gtk_widget_get_height (GTK_WIDGET (f.window)));
    g_assert_cmpint (gdk_surface_get_width (surface), ==, 960);
    g_assert_cmpint (gdk_surface_get_height (surface), ==, 640);
  }
  area = f.area = tress_test_find_type (GTK_WIDGET (f.preview), GTK_TYPE_GL_AREA);
  g_assert_nonnull (area);
  tree = gtk_widget_get_ancestor (tress_test_find_label (GTK_WIDGET (f.editor), "Dead (Dead)",
                                                         GTK_WIDGET (f.window),
                                                         &(double){ G_MAXDOUBLE }),
                                  GTK_TYPE_COLUMN_VIEW);
  g_assert_nonnull (tree);
  tress_curve_view_set_playhead (f.view, POINTER_FRAME);
  /* The pointer away from the preview (no hover highlight, no tooltip). */
  tress_test_pointer_move (GTK_WIDGET (f.view), 5, 5);
  TRESS_TEST_WAIT_FOR (tress_scene_preview_grab (f.preview, &w, &h) != NULL);
  /* What the screen shows once it has stopped changing. */
  g_bytes_unref (tress_test_scene_settled_screen (&f));
  dead = tress_test_screen_pixels (area, &w, &h);
  total = (guint)(w * h);
  g_assert_cmpint (tress_scene_pane_get_animation (f.pane), >=, 0);
  g_assert_cmpstr (animator->anim_names[tress_scene_pane_get_animation (f.pane)], ==, "Dead");

  /* Select another animation: fold Dead (its row's expander), click Jump. */
  best = G_MAXDOUBLE;
  label = tress_test_find_label (tree, "Dead (Dead)", GTK_WIDGET (f.window), &best);
  {
    GtkWidget *expander = gtk_widget_get_ancestor (label, GTK_TYPE_TREE_EXPANDER);
    GtkWidget *arrow = gtk_widget_get_first_child (expander);

    while (arrow != NULL && strcmp (gtk_widget_get_css_name (arrow), "expander") != 0)
      arrow = gtk_widget_get_next_sibling (arrow);
    g_assert_nonnull (arrow);
    tress_test_pointer_click (arrow, gtk_widget_get_width (arrow) / 2.0,
                              gtk_widget_get_height (arrow) / 2.0);
  }
  best = G_MAXDOUBLE;
  TRESS_TEST_WAIT_FOR (
      (label = tress_test_find_label (tree, "Jump (Jump)", GTK_WIDGET (f.window), &best)) != NULL);
  tress_test_pointer_click (label, gtk_widget_get_width (label) / 2.0,
                            gtk_widget_get_height (label) / 2.0);
  TRESS_TEST_WAIT_FOR (
      tress_scene_pane_get_animation (f.pane) >= 0
      && g_strcmp0 (animator->anim_names[tress_scene_pane_get_animation (f.pane)], "Jump") == 0);
  tress_test_pointer_move (GTK_WIDGET (f.view), 5, 5);
  /* Jump there is another pose than Dead's. */
  jump = tress_test_screen_changed (area, dead, total / 200);
  g_test_message ("Dead → Jump at frame %d: %u of %u preview pixels changed", POINTER_FRAME,
                  tress_test_pixels_different (dead, jump, 3, 6), total);

  /* Click the bone Spine_2 (on its stick, past the middle): its curves are
   * selected in the tree and shown in the graph, and it is highlighted. */
  spine2 = tress_scene_find_node (animator->scene, "Spine_2");
  spine1 = tress_scene_find_node (animator->scene, "Spine_1");
  g_assert_true (tress_scene_preview_node_position (f.preview, (guint)spine2, &x, &y));
  g_assert_true (tress_scene_preview_node_position (f.preview, (guint)spine1, &px, &py));
  x = px + (x - px) * 0.7;
  y = py + (y - py) * 0.7;
  g_assert_cmpint (tress_scene_preview_pick (f.preview, x, y), ==, spine2);
  tress_test_pointer_click (area, x, y);
  /* Jump animates Spine_2 by one curve (all 11 of Jump's were shown). */
  TRESS_TEST_WAIT_FOR (tress_curve_view_get_n_curves (f.view) == 1);
  /* The highlight follows before the next frame: Spine_2 only. */
  TRESS_TEST_WAIT_FOR (!tress_scene_preview_is_highlighted (
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
  tress_test_pointer_move (GTK_WIDGET (f.view), 5, 5);
  /* The highlight is drawn: the bone and the vertices it moves change colour. */
  clicked = tress_test_screen_changed (area, jump, total / 500);
  g_test_message ("bone clicked: %u pixels changed",
                  tress_test_pixels_different (jump, clicked, 3, 6));
  if (screenshot != NULL)
    {
      g_bytes_unref (tress_test_scene_settled_screen (&f));
      tress_test_screen_save_png (GTK_WIDGET (f.window), screenshot);
      g_test_message ("wrote %s", screenshot);
      g_clear_pointer (&clicked, g_bytes_unref);
      clicked = tress_test_screen_pixels (area, &w, &h);
    }

  /* Drag a key of Spine_2's Rotate Y near the playhead a third of the graph
   * up: the bone moves while the button is down (nothing committed yet), and
   * the release commits the edit. */
  k = key_near (&f, curve, POINTER_FRAME, &x, &y);
  before_value = tress_curve_get_key (tress_curve_document_get_curve (f.doc, curve), k)->value;
  {
    double up = gtk_widget_get_height (GTK_WIDGET (f.view)) / 3.0;

    tress_test_pointer_move (GTK_WIDGET (f.view), x, y);
    tress_test_pointer_button (1, TRUE);
    for (int step = 1; step <= 4; step++)
      tress_test_pointer_move (GTK_WIDGET (f.view), x, y - (up * step) / 4);
    during = tress_test_screen_changed (area, clicked, total / 200);
    g_assert_false (tress_document_get_modified (TRESS_DOCUMENT (f.doc)));
    tress_test_pointer_button (1, FALSE);
  }
  g_test_message ("during the drag: %u pixels changed",
                  tress_test_pixels_different (clicked, during, 3, 6));
  TRESS_TEST_WAIT_FOR (tress_document_get_modified (TRESS_DOCUMENT (f.doc)));
  g_assert_cmpfloat (tress_curve_get_key (tress_curve_document_get_curve (f.doc, curve), k)->value,
                     !=, before_value);
  tress_test_pointer_move (GTK_WIDGET (f.view), 5, 5);
  after = tress_test_screen_changed (area, clicked, total / 200);
  g_test_message ("after the release: %u pixels changed",
                  tress_test_pixels_different (clicked, after, 3, 6));

  /* The camera as in the fur preview: a drag off the bones orbits, the wheel
   * zooms, Shift+drag pans, "Frame the whole model" frames it again. */
  {
    g_autoptr (GBytes) orbited = NULL, zoomed = NULL, panned = NULL, framed = NULL;
    GtkWidget *frame = tress_test_find_tooltip (GTK_WIDGET (f.preview), "Frame the whole model");
    double aw = gtk_widget_get_width (area), ah = gtk_widget_get_height (area);

    g_assert_nonnull (frame);
    /* Off the bones, and away from the panes' handles. */
    g_assert_cmpint (tress_scene_preview_pick (f.preview, aw * 0.1, ah * 0.85), <, 0);
    tress_test_pointer_move (area, aw * 0.1, ah * 0.85);
    tress_test_pointer_button (1, TRUE);
    for (int step = 1; step <= 4; step++)
      tress_test_pointer_move (area, aw * (0.1 + 0.1 * step), ah * 0.85);
    tress_test_pointer_button (1, FALSE);
    tress_test_pointer_move (GTK_WIDGET (f.view), 5, 5);
    orbited = tress_test_screen_changed (area, after, total / 100);
    tress_test_pointer_move (area, aw / 2, ah / 2);
    tress_test_pointer_scroll (3); /* wheel down */
    tress_test_pointer_move (GTK_WIDGET (f.view), 5, 5);
    zoomed = tress_test_screen_changed (area, orbited, total / 100);
    g_assert_cmpint (tress_scene_preview_pick (f.preview, aw * 0.1, ah * 0.15), <, 0);
    tress_test_pointer_move (area, aw * 0.1, ah * 0.15);
    tress_test_pointer_key (GDK_KEY_Shift_L, TRUE);
    tress_test_pointer_button (1, TRUE);
    for (int step = 1; step <= 4; step++)
      tress_test_pointer_move (area, aw * (0.1 + 0.05 * step), ah * (0.15 + 0.05 * step));
    tress_test_pointer_button (1, FALSE);
    tress_test_pointer_key (GDK_KEY_Shift_L, FALSE);
    tress_test_pointer_move (GTK_WIDGET (f.view), 5, 5);
    panned = tress_test_screen_changed (area, zoomed, total / 100);
    tress_test_pointer_click (frame, gtk_widget_get_width (frame) / 2.0,
                              gtk_widget_get_height (frame) / 2.0);
    tress_test_pointer_move (GTK_WIDGET (f.view), 5, 5);
    /* Framed again: the model fills about what it filled after the orbit
     * (framing takes the posed model's bounds, the angle is kept). */
    framed = tress_test_screen_changed (area, panned, total / 100);
    g_assert_cmpuint (tress_test_pixels_drawn (framed, 3), >,
                      tress_test_pixels_drawn (orbited, 3) / 2);
    g_assert_cmpuint (tress_test_pixels_drawn (framed, 3), <,
                      tress_test_pixels_drawn (orbited, 3) * 2);
    g_test_message ("camera: orbit %u, zoom %u, pan %u pixels changed; the model on %u pixels "
                    "after the orbit, %u zoomed, %u framed again",
                    tress_test_pixels_different (after, orbited, 3, 6),
                    tress_test_pixels_different (orbited, zoomed, 3, 6),
                    tress_test_pixels_different (zoomed, panned, 3, 6),
                    tress_test_pixels_drawn (orbited, 3), tress_test_pixels_drawn (zoomed, 3),
                    tress_test_pixels_drawn (framed, 3));
    g_assert_cmpuint (tress_test_pixels_drawn (zoomed, 3), <, tress_test_pixels_drawn (orbited, 3));
  }
  tress_test_scene_close (&f);
}

/* Shows @n curves and waits until the pane has posed with them. */
static void
show_and_pose (Fixture *f, const guint *curves, guint n)
{
  guint poses = tress_scene_pane_get_n_poses (f->pane);

  tress_curve_view_set_curves (f->view, curves, n);
  TRESS_TEST_WAIT_FOR (tress_scene_pane_get_n_poses (f->pane) > poses);
}

static guint
grab_count (Fixture *f)
{
  g_autoptr (GBytes) p = grab (f);

  return tress_test_pixels_drawn (p, 4);
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

  tress_test_scene_open (&f, file);
  tress_test_scene_wait_scene (&f);
  g_assert_nonnull (tress_scene_pane_get_animator (f.pane));
  if (!tress_test_scene_wait_gl (&f))
    {
      g_test_skip ("needs GL");
      tress_test_scene_close (&f);
      return;
    }
  tress_scene_preview_set_show_bones (f.preview, FALSE);
  shown[0] = (guint)tress_test_scene_curve (&f, "HideArm/Arm");
  shown[1] = (guint)tress_test_scene_curve (&f, "HideGlass/Mt_Glass");
  show_and_pose (&f, shown, 2);
  tress_curve_view_set_playhead (f.view, 2);
  TRESS_TEST_WAIT_FOR (tress_scene_preview_grab (f.preview, &w, &h) != NULL);
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
  tress_test_scene_close (&f);
}

int
main (int argc, char *argv[])
{
  tress_test_scene_init (&argc, &argv);
  g_test_add_func ("/scene-window/preview", test_preview);
  g_test_add_func ("/scene-window/bad-model", test_bad_model);
  g_test_add_func ("/scene-window/bad-bind", test_bad_bind);
  g_test_add_func ("/scene-window/visibility", test_visibility);
  g_test_add_func ("/scene-window/real-pointer", test_real_pointer);
  return g_test_run ();
}
