/* test-scene-hierarchy.c: the curves tree nested as the skeleton, and the
 * play range, driven with the X server's pointer and keyboard (XTest) in a
 * 960×640 window on Animal_Bass_Animation.bfres (its model beside it)
 *
 * /scene-hierarchy/tree: Spine_2's row is nested under Spine_1's; typing a
 * bone's name into the filter keeps its ancestors' rows and hides other
 * bones; a click on the bone in the preview (where there is GL) reveals its
 * row: its folded ancestors unfold, the row is selected and scrolled to.
 * /scene-hierarchy/dog: Animal_Dog_Animation.bfres has no model beside it
 * but carries its skeleton: its 4,464 curves nest, and rebuilding the tree
 * and filtering it are timed.
 * /scene-hierarchy/play-range: S and E set the range at the playhead, the
 * markers drawn on the ruler are dragged, playing loops within the range
 * (the playhead never leaves it), another animation has its own range and
 * Alt+P clears it. TRESS_HIERARCHY_SCREENSHOT and TRESS_RANGE_SCREENSHOT
 * name PNGs to write of the window.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "tress-test-pointer.h"
#include "tress-test-scene.h"
#include "tress-test-utils.h"
#include "tress-test-window.h"

typedef TressTestScene Fixture;

static GListModel *
tree_rows (Fixture *f)
{
  return G_LIST_MODEL (tress_curve_editor_get_tree_selection (f->editor));
}

/* The first row shown named @name below a row named @under (NULL: any). */
static GtkTreeListRow *
find_row (Fixture *f, const char *name, const char *under, guint *position)
{
  GListModel *rows = tree_rows (f);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (TressCurveNode) node = gtk_tree_list_row_get_item (row);
      gboolean inside = under == NULL;

      if (g_strcmp0 (tress_curve_node_get_name (node), name) != 0)
        continue;
      for (GtkTreeListRow *p = gtk_tree_list_row_get_parent (row); p != NULL && !inside;)
        {
          g_autoptr (TressCurveNode) pn = gtk_tree_list_row_get_item (p);
          GtkTreeListRow *next = gtk_tree_list_row_get_parent (p);

          inside = g_strcmp0 (tress_curve_node_get_name (pn), under) == 0;
          g_object_unref (p);
          p = next;
        }
      if (!inside)
        continue;
      if (position != NULL)
        *position = i;
      return g_steal_pointer (&row);
    }
  return NULL;
}

/* Whether a curve's row directly under a row named @name is shown. */
static gboolean
curve_row_under (Fixture *f, const char *name)
{
  GListModel *rows = tree_rows (f);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (GtkTreeListRow) parent = gtk_tree_list_row_get_parent (row);
      g_autoptr (TressCurveNode) node = gtk_tree_list_row_get_item (row);
      g_autoptr (TressCurveNode) pn = parent ? gtk_tree_list_row_get_item (parent) : NULL;

      if (tress_curve_node_get_curve_index (node) >= 0 && pn != NULL
          && g_strcmp0 (tress_curve_node_get_name (pn), name) == 0)
        return TRUE;
    }
  return FALSE;
}

static char *
parent_name (GtkTreeListRow *row)
{
  g_autoptr (GtkTreeListRow) parent = gtk_tree_list_row_get_parent (row);
  g_autoptr (TressCurveNode) node = parent ? gtk_tree_list_row_get_item (parent) : NULL;

  return node ? g_strdup (tress_curve_node_get_name (node)) : NULL;
}

/* The curves tree: the column view showing the animations' rows. */
static GtkWidget *the_tree;

static GtkWidget *
tree_widget (Fixture *f)
{
  GtkWidget *label;

  if (the_tree != NULL)
    return the_tree;
  label = tress_test_find_label (GTK_WIDGET (f->editor), "Skeletal", GTK_WIDGET (f->window),
                                 &(double){ G_MAXDOUBLE });

  g_assert_nonnull (label);
  the_tree = gtk_widget_get_ancestor (label, GTK_TYPE_COLUMN_VIEW);
  g_object_add_weak_pointer (G_OBJECT (the_tree), (gpointer *)&the_tree);
  return the_tree;
}

/* The first label showing @text in @w that lies wholly in the tree's
 * visible rows (below its header), or NULL. */
static GtkWidget *
label_in_view (GtkWidget *w, const char *text, GtkWidget *tree, double header)
{
  double x, y;

  if (!gtk_widget_get_mapped (w))
    return NULL;
  if (GTK_IS_LABEL (w) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (w)), text) == 0
      && gtk_widget_get_width (w) > 0 && gtk_widget_translate_coordinates (w, tree, 0, 0, &x, &y)
      && x > 0 && y >= header && y + gtk_widget_get_height (w) <= gtk_widget_get_height (tree))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = label_in_view (c, text, tree, header);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The label of a row shown for @name on the screen, or NULL. */
static GtkWidget *
visible_label (Fixture *f, const char *name)
{
  GtkWidget *tree = tree_widget (f);
  GtkWidget *list = tress_test_find_type (tree, GTK_TYPE_LIST_VIEW);
  double x, y;

  /* The rows' list starts below the header. */
  if (list == NULL || !gtk_widget_translate_coordinates (list, tree, 0, 0, &x, &y) || y <= 0)
    return NULL;
  return label_in_view (list, name, tree, y);
}

/* Turns the wheel over the tree until row @pos is near its top. */
static void
scroll_tree_to (Fixture *f, guint pos)
{
  GtkWidget *tree = tree_widget (f);
  GtkAdjustment *adj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (tree));
  double row, want;

  /* Once the rows are laid out. */
  TRESS_TEST_WAIT_FOR (gtk_adjustment_get_upper (adj) > 0);
  row = gtk_adjustment_get_upper (adj) / g_list_model_get_n_items (tree_rows (f));
  want = MIN (MAX (0, pos * row - row),
              gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj));

  tress_test_pointer_move (tree, gtk_widget_get_width (tree) / 2.0,
                           gtk_widget_get_height (tree) / 2.0);
  for (int i = 0; i < 200 && fabs (gtk_adjustment_get_value (adj) - want) > row; i++)
    {
      double before = gtk_adjustment_get_value (adj);

      tress_test_pointer_scroll (gtk_adjustment_get_value (adj) < want ? 1 : -1);
      /* Past it: stop. */
      if ((before < want) != (gtk_adjustment_get_value (adj) < want))
        break;
    }
}

static void
type_text (const char *text)
{
  for (const char *p = text; *p; p++)
    {
      guint keyval = gdk_unicode_to_keyval ((guint)*p);

      if (*p == '_')
        {
          tress_test_pointer_key (GDK_KEY_Shift_L, TRUE);
          tress_test_pointer_key (GDK_KEY_minus, TRUE);
          tress_test_pointer_key (GDK_KEY_minus, FALSE);
          tress_test_pointer_key (GDK_KEY_Shift_L, FALSE);
          continue;
        }
      tress_test_pointer_key (keyval, TRUE);
      tress_test_pointer_key (keyval, FALSE);
    }
}

static void
press_key (guint keyval, guint modifier)
{
  if (modifier != 0)
    tress_test_pointer_key (modifier, TRUE);
  tress_test_pointer_key (keyval, TRUE);
  tress_test_pointer_key (keyval, FALSE);
  if (modifier != 0)
    tress_test_pointer_key (modifier, FALSE);
}

/* Clicks the row's expander arrow (folds or unfolds it). */
static void
click_expander (GtkWidget *label)
{
  GtkWidget *expander = gtk_widget_get_ancestor (label, GTK_TYPE_TREE_EXPANDER);
  GtkWidget *arrow = gtk_widget_get_first_child (expander);

  while (arrow != NULL && strcmp (gtk_widget_get_css_name (arrow), "expander") != 0)
    arrow = gtk_widget_get_next_sibling (arrow);
  g_assert_nonnull (arrow);
  tress_test_pointer_click (arrow, gtk_widget_get_width (arrow) / 2.0,
                            gtk_widget_get_height (arrow) / 2.0);
}

static GtkTreeListRow *
selected_row (Fixture *f)
{
  GtkSelectionModel *sel = tress_curve_editor_get_tree_selection (f->editor);
  g_autoptr (GtkBitset) set = gtk_selection_model_get_selection (sel);

  if (gtk_bitset_get_size (set) != 1)
    return NULL;
  return g_list_model_get_item (G_LIST_MODEL (sel), gtk_bitset_get_nth (set, 0));
}

static gboolean
selected_is (Fixture *f, const char *name)
{
  g_autoptr (GtkTreeListRow) row = selected_row (f);
  g_autoptr (TressCurveNode) node = row ? gtk_tree_list_row_get_item (row) : NULL;

  return node != NULL && g_strcmp0 (tress_curve_node_get_name (node), name) == 0;
}

static void
test_tree (void)
{
  g_autofree char *path = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *model = tress_test_sample_path ("bfres/Animal_Bass.bfres");
  const char *screenshot = g_getenv ("TRESS_HIERARCHY_SCREENSHOT");
  Fixture f = { 0 };
  TressSceneAnimator *animator;
  g_autoptr (GtkTreeListRow) spine2 = NULL, spine1 = NULL;
  g_autofree char *parent = NULL;
  GtkWidget *entry, *l1, *l2;
  double x1, y1, x2, y2;

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
  g_assert_nonnull (tress_curve_document_get_skeleton (f.doc));

  /* Spine_2 of Dead under Spine_1, Spine_1 under Skl_Root, Skl_Root under
   * Root (a bone without curves of its own in Dead). */
  spine2 = find_row (&f, "Spine_2", "Dead (Dead)", NULL);
  g_assert_nonnull (spine2);
  parent = parent_name (spine2);
  g_assert_cmpstr (parent, ==, "Spine_1");
  spine1 = gtk_tree_list_row_get_parent (spine2);
  g_clear_pointer (&parent, g_free);
  parent = parent_name (spine1);
  g_assert_cmpstr (parent, ==, "Skl_Root");
  g_assert_cmpuint (gtk_tree_list_row_get_depth (spine2), ==,
                    gtk_tree_list_row_get_depth (spine1) + 1);
  /* On the screen: scrolled to, Spine_2's name is further right than Spine_1's. */
  {
    guint pos = 0;
    g_autoptr (GtkTreeListRow) row = find_row (&f, "Spine_1", "Dead (Dead)", &pos);

    /* The wheel over the tree, down to Spine_1. */
    scroll_tree_to (&f, pos);
    TRESS_TEST_WAIT_FOR ((l1 = visible_label (&f, "Spine_1")) != NULL
                         && (l2 = visible_label (&f, "Spine_2")) != NULL);
    g_assert_true (gtk_widget_translate_coordinates (l1, GTK_WIDGET (f.window), 0, 0, &x1, &y1));
    g_assert_true (gtk_widget_translate_coordinates (l2, GTK_WIDGET (f.window), 0, 0, &x2, &y2));
    g_test_message ("Spine_1's name at (%.0f, %.0f), Spine_2's at (%.0f, %.0f)", x1, y1, x2, y2);
    g_assert_cmpfloat (x2, >=, x1 + 6);
    g_assert_cmpfloat (y2, >, y1);
  }

  /* Type a bone's name into the filter: its ancestors stay, other bones go. */
  entry = tress_test_find_type (GTK_WIDGET (f.editor), GTK_TYPE_SEARCH_ENTRY);
  g_assert_nonnull (entry);
  tress_test_pointer_click (entry, gtk_widget_get_width (entry) / 2.0,
                            gtk_widget_get_height (entry) / 2.0);
  type_text ("spine_2");
  /* (The entry tells its text after a pause.) */
  TRESS_TEST_WAIT_FOR (find_row (&f, "Head", NULL, NULL) == NULL
                       && !curve_row_under (&f, "Spine_1"));
  {
    g_autoptr (GtkTreeListRow) s2 = find_row (&f, "Spine_2", "Dead (Dead)", NULL);
    g_autoptr (GtkTreeListRow) s1 = find_row (&f, "Spine_1", "Dead (Dead)", NULL);
    g_autoptr (GtkTreeListRow) root = find_row (&f, "Skl_Root", "Dead (Dead)", NULL);
    g_autoptr (GtkTreeListRow) tail = find_row (&f, "Chin", NULL, NULL);
    g_autoptr (GtkTreeListRow) rx = find_row (&f, "Rotate X", "Spine_2", NULL);
    g_autoptr (GtkTreeListRow) s1rx = NULL;

    g_assert_nonnull (s2);
    g_assert_nonnull (s1);
    g_assert_nonnull (root);
    g_assert_null (tail);
    g_assert_nonnull (rx);
    /* Spine_1's own curves do not match: only its way down to Spine_2 stays. */
    s1rx = gtk_tree_list_row_get_child_row (s1, 0);
    {
      g_autoptr (TressCurveNode) first = gtk_tree_list_row_get_item (s1rx);
      GListModel *rows = tree_rows (&f);
      guint n = g_list_model_get_n_items (rows);

      for (guint i = 0; i < n; i++)
        {
          g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
          g_autoptr (TressCurveNode) node = gtk_tree_list_row_get_item (row);

          g_assert_true (node != first || tress_curve_node_get_curve_index (node) < 0);
        }
      g_test_message ("filtered: %u rows", n);
    }
  }
  /* The ancestors are on the screen (the results start at the top). */
  TRESS_TEST_WAIT_FOR (visible_label (&f, "Skl_Root") != NULL
                       && visible_label (&f, "Spine_1") != NULL
                       && visible_label (&f, "Spine_2") != NULL);
  /* (The screenshot: the bone's way down from its animation, its curves in the graph.) */
  if (screenshot != NULL)
    {
      tress_test_pointer_move (GTK_WIDGET (f.view), 5, 5);
      tress_test_wait_frame (GTK_WIDGET (f.window));
      tress_test_screen_save_png (GTK_WIDGET (f.window), screenshot);
      g_test_message ("wrote %s", screenshot);
    }
  /* Clear the filter (Ctrl+A, Delete in the entry). */
  press_key (GDK_KEY_a, GDK_KEY_Control_L);
  press_key (GDK_KEY_BackSpace, 0);
  TRESS_TEST_WAIT_FOR (find_row (&f, "Head", NULL, NULL) != NULL);

  if (tress_test_scene_wait_gl (&f))
    {
      int n2 = tress_scene_find_node (animator->scene, "Spine_2");
      int n1 = tress_scene_find_node (animator->scene, "Spine_1");
      GtkWidget *area = tress_test_find_type (GTK_WIDGET (f.preview), GTK_TYPE_GL_AREA);
      double x, y, px, py;

      /* Fold Skl_Root of Dead and scroll to the top: Spine_2 is hidden. */
      {
        guint pos = 0;
        g_autoptr (GtkTreeListRow) row = find_row (&f, "Skl_Root", "Dead (Dead)", &pos);

        scroll_tree_to (&f, pos);
        TRESS_TEST_WAIT_FOR (visible_label (&f, "Skl_Root") != NULL);
        click_expander (visible_label (&f, "Skl_Root"));
        TRESS_TEST_WAIT_FOR (!gtk_tree_list_row_get_expanded (row));
        scroll_tree_to (&f, 0);
      }
      TRESS_TEST_WAIT_FOR (find_row (&f, "Spine_2", "Dead (Dead)", NULL) == NULL);
      g_assert_null (visible_label (&f, "Spine_2"));
      /* Show Dead in the preview (its first bone), then click Spine_2 there. */
      g_assert_nonnull (visible_label (&f, "Dead (Dead)"));
      TRESS_TEST_WAIT_FOR (tress_scene_preview_grab (f.preview, &(int){ 0 }, &(int){ 0 }) != NULL);
      g_assert_true (tress_scene_preview_node_position (f.preview, (guint)n2, &x, &y));
      g_assert_true (tress_scene_preview_node_position (f.preview, (guint)n1, &px, &py));
      x = px + (x - px) * 0.7;
      y = py + (y - py) * 0.7;
      g_assert_cmpint (tress_scene_preview_pick (f.preview, x, y), ==, n2);
      tress_test_pointer_click (area, x, y);
      g_test_message ("clicking Spine_2 in the preview at (%.0f, %.0f)", x, y);
      /* Revealed: unfolded, selected, and on the screen. */
      TRESS_TEST_WAIT_FOR (selected_is (&f, "Spine_2"));
      {
        g_autoptr (GtkTreeListRow) row = selected_row (&f);
        g_autofree char *p = parent_name (row);

        g_assert_cmpstr (p, ==, "Spine_1");
      }
      TRESS_TEST_WAIT_FOR (visible_label (&f, "Spine_2") != NULL);
      g_assert_cmpuint (tress_curve_view_get_n_curves (f.view), >, 0);
      for (guint i = 0; i < tress_curve_view_get_n_curves (f.view); i++)
        g_assert_true (g_str_has_prefix (
            tress_curve_document_get_curve (f.doc, tress_curve_view_get_curve_index (f.view, i))
                ->path,
            "Dead/Spine_2/"));
    }
  tress_test_scene_close (&f);
}

/* Milliseconds since @start. */
static double
ms_since (gint64 start)
{
  return (g_get_monotonic_time () - start) / 1000.0;
}

static void
test_dog (void)
{
  g_autofree char *path = tress_test_sample_path ("bfres/Animal_Dog_Animation.bfres");
  Fixture f = { 0 };
  TressCurveSkeleton *skeleton;
  g_autoptr (GtkTreeListRow) skl = NULL;
  g_autofree char *parent = NULL;
  guint n_curves, nested = 0, n_rows, max_depth = 0;
  gint64 t;
  double flat_ms, nest_ms, filter_ms;

  if (path == NULL)
    return;
  tress_test_scene_open (&f, path);
  tress_test_scene_wait_scene (&f);
  /* No model beside it: the skeleton the animation file carries nests it. */
  g_assert_nonnull (tress_scene_pane_get_animator (f.pane));
  skeleton = (TressCurveSkeleton *)tress_curve_document_get_skeleton (f.doc);
  g_assert_nonnull (skeleton);
  n_curves = tress_curve_document_get_n_curves (f.doc);
  g_assert_cmpuint (n_curves, ==, 4464);
  skl = find_row (&f, "Skl_Root", NULL, NULL);
  g_assert_nonnull (skl);
  parent = parent_name (skl);
  g_assert_cmpstr (parent, ==, "Root");

  /* The tree rebuilt flat and nested again, each to its next frame drawn. */
  {
    g_autoptr (TressCurveSkeleton) copy = NULL;
    GListModel *rows = tree_rows (&f);
    guint n = tress_curve_skeleton_get_n_nodes (skeleton);
    g_autofree const char **names = g_new0 (const char *, n + 1);
    g_autofree int *parents = g_new (int, MAX (n, 1));
    g_autofree int *curve_node = g_new (int, n_curves);

    for (guint i = 0; i < n; i++)
      {
        names[i] = tress_curve_skeleton_get_name (skeleton, i);
        parents[i] = tress_curve_skeleton_get_parent (skeleton, i);
      }
    for (guint i = 0; i < n_curves; i++)
      curve_node[i] = tress_curve_skeleton_get_curve_node (skeleton, i);
    copy = tress_curve_skeleton_new (n, names, parents, n_curves, curve_node);
    t = g_get_monotonic_time ();
    g_assert_true (tress_curve_document_set_skeleton (f.doc, NULL));
    TRESS_TEST_WAIT_FOR (g_list_model_get_n_items (rows) > 0);
    tress_test_wait_frame (GTK_WIDGET (f.window));
    flat_ms = ms_since (t);
    g_assert_null (find_row (&f, "Skl_Root", "Root", NULL));
    t = g_get_monotonic_time ();
    g_assert_true (tress_curve_document_set_skeleton (f.doc, g_steal_pointer (&copy)));
    TRESS_TEST_WAIT_FOR (g_list_model_get_n_items (rows) > 0);
    tress_test_wait_frame (GTK_WIDGET (f.window));
    nest_ms = ms_since (t);
    g_assert_nonnull (find_row (&f, "Skl_Root", "Root", NULL));
    for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
      {
        g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
        g_autoptr (TressCurveNode) node = gtk_tree_list_row_get_item (row);

        nested += tress_curve_node_is_nested (node);
        max_depth = MAX (max_depth, gtk_tree_list_row_get_depth (row));
      }
    g_test_message ("Dog: %u curves, %u bones, %u rows (%u bone rows); tree rebuilt flat in "
                    "%.0f ms, nested in %.0f ms (to the next frame); %u levels",
                    n_curves, n, g_list_model_get_n_items (rows), nested, flat_ms, nest_ms,
                    max_depth + 1);
  }
  /* The filter on every row of the nested tree. */
  n_rows = g_list_model_get_n_items (tree_rows (&f));
  t = g_get_monotonic_time ();
  tress_curve_editor_set_filter (f.editor, "spine");
  tress_test_wait_frame (GTK_WIDGET (f.window));
  filter_ms = ms_since (t);
  g_test_message ("filter \"spine\": %u rows, %.0f ms to the next frame",
                  g_list_model_get_n_items (tree_rows (&f)), filter_ms);
  g_assert_nonnull (find_row (&f, "Skl_Root", "Root", NULL));
  g_assert_nonnull (find_row (&f, "Spine_1", "Skl_Root", NULL));
  g_assert_cmpuint (g_list_model_get_n_items (tree_rows (&f)), <, n_rows / 4);
  tress_curve_editor_set_filter (f.editor, NULL);
  /* Far from a second on a shared machine (an unoptimized build included). */
  g_assert_cmpfloat (nest_ms, <, 2000);
  g_assert_cmpfloat (filter_ms, <, 2000);
  tress_test_scene_close (&f);
}

/* The ruler's x of @frame in the view. */
static double
frame_x (Fixture *f, double frame)
{
  TressCurveViewport vp;

  tress_curve_view_get_viewport (f->view, &vp);
  return tress_curve_viewport_frame_to_x (&vp, frame);
}

typedef struct
{
  double lo, hi, min, max;
  guint n, wraps;
  double last;
} Watch;

static void
on_playhead (TressCurveView *view, GParamSpec *pspec, Watch *w)
{
  double p = tress_curve_view_get_playhead (view);

  w->min = MIN (w->min, p);
  w->max = MAX (w->max, p);
  if (w->n > 0 && p < w->last)
    w->wraps++;
  w->last = p;
  w->n++;
}

static gboolean
orange_at (GBytes *pixels, int width, int x, int y)
{
  const guint8 *p = (const guint8 *)g_bytes_get_data (pixels, NULL) + 3 * (y * width + x);

  return p[0] > 200 && p[1] > 120 && p[1] < 190 && p[2] < 90;
}

/* Whether the screen shows the start marker: its bar and its tab, orange. */
static gboolean
marker_shown (Fixture *f)
{
  int w = 0, h = 0;
  double x, y;
  g_autoptr (GBytes) pixels = NULL;

  if (!tress_curve_view_get_play_marker (f->view, FALSE, &x, &y))
    return FALSE;
  pixels = tress_test_screen_pixels (GTK_WIDGET (f->view), &w, &h);
  return orange_at (pixels, w, (int)x + 4, h - 2) && orange_at (pixels, w, (int)x, h - 10);
}

static void
test_play_range (void)
{
  g_autofree char *path = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  const char *screenshot = g_getenv ("TRESS_RANGE_SCREENSHOT");
  Fixture f = { 0 };
  GtkWidget *view, *label, *play;
  double h, start, end, first, last;
  Watch watch = { 0 };
  gulong id;

  if (path == NULL)
    return;
  tress_test_scene_open (&f, path);
  if (!tress_test_pointer_available (GTK_WIDGET (f.window)))
    {
      tress_test_scene_close (&f);
      return;
    }
  tress_test_scene_wait_scene (&f);
  view = GTK_WIDGET (f.view);
  /* Dead's Skl_Root: click its row. */
  TRESS_TEST_WAIT_FOR ((label = visible_label (&f, "Skl_Root")) != NULL);
  tress_test_pointer_click (label, 5, gtk_widget_get_height (label) / 2.0);
  TRESS_TEST_WAIT_FOR (selected_is (&f, "Skl_Root"));
  tress_curve_view_get_frame_range (f.view, &first, &last);
  g_test_message ("Dead: frames %g to %g", first, last);
  g_assert_cmpfloat (last, >=, 30);
  g_object_set (f.view, "snap", TRUE, NULL);
  h = gtk_widget_get_height (view);
  {
    double x5 = frame_x (&f, 5), x25 = frame_x (&f, 25);

    g_assert_false (tress_curve_view_get_play_range (f.view, NULL, NULL));
    /* A click on the ruler at frame 5, S; at frame 25, E. */
    tress_test_pointer_click (view, x5, h - 8);
    TRESS_TEST_WAIT_FOR (tress_curve_view_get_playhead (f.view) == 5);
    press_key (GDK_KEY_s, 0);
    TRESS_TEST_WAIT_FOR (tress_curve_view_get_play_range (f.view, &start, &end));
    g_assert_cmpfloat (start, ==, 5);
    g_assert_cmpfloat (end, ==, last);
    tress_test_pointer_click (view, x25, h - 8);
    TRESS_TEST_WAIT_FOR (tress_curve_view_get_playhead (f.view) == 25);
    press_key (GDK_KEY_e, 0);
    TRESS_TEST_WAIT_FOR (tress_curve_view_get_play_range (f.view, &start, &end) && end == 25);
    g_assert_cmpfloat (start, ==, 5);
  }
  /* The markers are drawn on the ruler (orange where the X server shows it). */
  tress_test_pointer_move (view, 5, 5);
  TRESS_TEST_WAIT_FOR (marker_shown (&f));

  /* Drag the start marker to frame 10 and the end marker to frame 20. */
  {
    double sx, ex, y0, x10 = frame_x (&f, 10), x20 = frame_x (&f, 20);
    double pts[6];

    g_assert_true (tress_curve_view_get_play_marker (f.view, FALSE, &sx, &y0));
    g_assert_true (tress_curve_view_get_play_marker (f.view, TRUE, &ex, &y0));
    pts[0] = sx + 2, pts[1] = y0;
    pts[2] = (sx + x10) / 2, pts[3] = y0;
    pts[4] = x10 + 2, pts[5] = y0;
    tress_test_pointer_drag (view, 1, pts, 3);
    TRESS_TEST_WAIT_FOR (tress_curve_view_get_play_range (f.view, &start, &end) && start == 10);
    g_assert_cmpfloat (end, ==, 25);
    pts[0] = ex - 2, pts[1] = y0;
    pts[2] = (ex + x20) / 2, pts[3] = y0;
    pts[4] = x20 - 2, pts[5] = y0;
    tress_test_pointer_drag (view, 1, pts, 3);
    TRESS_TEST_WAIT_FOR (tress_curve_view_get_play_range (f.view, &start, &end) && end == 20);
    g_assert_cmpfloat (start, ==, 10);
    /* The drags moved the markers, not the playhead. */
    g_assert_cmpfloat (tress_curve_view_get_playhead (f.view), ==, 25);
  }
  if (screenshot != NULL)
    {
      tress_test_pointer_move (view, 5, 5);
      tress_test_screen_save_png (GTK_WIDGET (f.window), screenshot);
      g_test_message ("wrote %s", screenshot);
    }

  /* Play (the transport's button): from the range's start, looping in it. */
  play = tress_test_find_button (GTK_WIDGET (f.editor), NULL, "curve.playing");
  g_assert_nonnull (play);
  watch.min = G_MAXDOUBLE;
  watch.max = -G_MAXDOUBLE;
  id = g_signal_connect (f.view, "notify::playhead", G_CALLBACK (on_playhead), &watch);
  tress_test_pointer_click (play, gtk_widget_get_width (play) / 2.0,
                            gtk_widget_get_height (play) / 2.0);
  /* 10 frames at 30 fps: a third of a second a loop. */
  TRESS_TEST_WAIT_FOR (watch.wraps >= 2);
  tress_test_pointer_click (play, gtk_widget_get_width (play) / 2.0,
                            gtk_widget_get_height (play) / 2.0);
  g_signal_handler_disconnect (f.view, id);
  g_test_message ("played: %u playhead moves, %u loops, frames %g to %g", watch.n, watch.wraps,
                  watch.min, watch.max);
  g_assert_cmpfloat (watch.min, >=, 10);
  g_assert_cmpfloat (watch.max, <=, 20);
  g_assert_cmpfloat (watch.max, >, 15);

  /* Another animation has its own (none); Dead's comes back with it. */
  {
    int jump = tress_test_scene_curve (&f, "Jump/Skl_Root/Rotate Z");
    int dead = tress_test_scene_curve (&f, "Dead/Skl_Root/Rotate Z");
    guint u;

    g_assert_cmpint (jump, >=, 0);
    u = (guint)jump;
    tress_curve_view_set_curves (f.view, &u, 1);
    g_assert_false (tress_curve_view_get_play_range (f.view, NULL, NULL));
    u = (guint)dead;
    tress_curve_view_set_curves (f.view, &u, 1);
    g_assert_true (tress_curve_view_get_play_range (f.view, &start, &end));
    g_assert_cmpfloat (start, ==, 10);
    g_assert_cmpfloat (end, ==, 20);
  }
  /* Alt+P clears it: the whole animation plays again. */
  tress_test_pointer_click (view, 5, h - 8);
  press_key (GDK_KEY_p, GDK_KEY_Alt_L);
  TRESS_TEST_WAIT_FOR (!tress_curve_view_get_play_range (f.view, NULL, NULL));
  tress_curve_view_get_play_bounds (f.view, &start, &end);
  tress_curve_view_get_frame_range (f.view, &first, &last);
  g_assert_cmpfloat (start, ==, first);
  g_assert_cmpfloat (end, ==, last);
  tress_test_scene_close (&f);
}

int
main (int argc, char *argv[])
{
  tress_test_scene_init (&argc, &argv);
  g_test_add_func ("/scene-hierarchy/tree", test_tree);
  g_test_add_func ("/scene-hierarchy/dog", test_dog);
  g_test_add_func ("/scene-hierarchy/play-range", test_play_range);
  return g_test_run ();
}
