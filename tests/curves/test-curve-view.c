/* test-curve-view.c: TressCurveView driven through its actions, and its pixels
 *
 * Runs under Xvfb. Each test opens the test curve document, shows some of its
 * curves in a window and drives the view with gtk_widget_activate_action(), the
 * way keyboard shortcuts and menus do; then checks the document, the undo
 * history (one step per action, labelled), and what is drawn.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "core/tress-curve-edit.h"
#include "curves/tress-curve-view.h"
#include "document/tress-curve-document.h"
#include "tress-fake-curves.h"
#include "tress-test-pointer.h"
#include "tress-test-utils.h"
#include "tress-test-window.h"

enum
{
  TX,
  TY,
  TZ,
  RW,
  VIS,
  BAKED,
  FIXED
};

typedef struct
{
  TressCurveDocument *doc;
  TressHistory *history;
  GtkWidget *window;
  TressCurveView *view;
  GBytes *original;
} Fixture;

static void
iterate (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
show_curves (Fixture *f, const guint *idx, guint n)
{
  TressCurveViewport vp;

  tress_curve_view_set_curves (f->view, idx, n);
  /* A fixed view: frames −5…45 over 500 px (10 px a frame), values −4…4 over 400 px. */
  tress_curve_view_get_viewport (f->view, &vp);
  vp.frame_min = -5;
  vp.frame_max = 45;
  vp.value_min = -4;
  vp.value_max = 4;
  tress_curve_view_set_viewport (f->view, &vp);
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  static const guint xyzw[] = { TX, TY, TZ, RW };

  f->original = tress_fake_curves_build_demo ();
  f->doc = TRESS_CURVE_DOCUMENT (tress_document_new_from_bytes (f->original, "demo.fcrv", &error));
  g_assert_no_error (error);
  f->history = tress_document_get_history (TRESS_DOCUMENT (f->doc));
  f->view = TRESS_CURVE_VIEW (tress_curve_view_new ());
  tress_curve_view_set_document (f->view, f->doc);
  f->window = tress_test_present (GTK_WIDGET (f->view), 500, 400);
  show_curves (f, xyzw, 4);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  tress_test_present_close (&f->window, &f->doc);
  g_bytes_unref (f->original);
}

static const TressCurve *
curve (Fixture *f, guint i)
{
  return tress_curve_document_get_curve (f->doc, i);
}

static const TressKey *
key (Fixture *f, guint c, guint k)
{
  return tress_curve_get_key (curve (f, c), k);
}

static void
point (Fixture *f, guint c, guint k, TressCurvePart part, double *x, double *y)
{
  g_assert_true (tress_curve_view_get_point (f->view, c, k, part, x, y));
}

static void
act (Fixture *f, const char *name, const char *format, ...)
{
  va_list args;
  GVariant *param = NULL;

  if (format != NULL)
    {
      va_start (args, format);
      param = g_variant_new_va (format, NULL, &args);
      va_end (args);
    }
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (f->view), name, param));
}

static GBytes *
serialize (Fixture *f)
{
  TressDocument *d = TRESS_DOCUMENT (f->doc);
  return tress_document_get_format (d)->serialize (tress_document_get_model (d), NULL);
}

/* Undo must give back the exact original bytes, redo the edited ones. */
static void
check_undo_redo (Fixture *f, const char *label)
{
  g_autoptr (GBytes) edited = serialize (f);
  g_autoptr (GBytes) undone = NULL, redone = NULL;

  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 1);
  g_assert_cmpstr (tress_history_get_undo_label (f->history), ==, label);
  g_assert_true (tress_history_undo (f->history));
  undone = serialize (f);
  tress_test_assert_bytes_equal (undone, f->original);
  g_assert_true (tress_history_redo (f->history));
  redone = serialize (f);
  tress_test_assert_bytes_equal (redone, edited);
}

/* ---------------------------------------------------------- selection -- */

static void
test_click_select (Fixture *f, gconstpointer data)
{
  double x, y, x2, y2;

  point (f, TX, 1, TRESS_CURVE_PART_KEY, &x, &y);
  g_assert_cmpfloat_with_epsilon (x, 150, 1e-9); /* frame 10 */
  g_assert_cmpfloat_with_epsilon (y, 100, 1e-9); /* value 2 */
  act (f, "curve.click", "(ddb)", x + 2, y - 2, FALSE);
  g_assert_true (tress_curve_view_is_selected (f->view, TX, 1, TRESS_CURVE_PART_KEY));
  g_assert_cmpuint (tress_curve_view_get_n_selected_keys (f->view), ==, 1);

  /* Shift-click adds, plain click replaces, shift-click on a selected key removes it. */
  point (f, TY, 2, TRESS_CURVE_PART_KEY, &x2, &y2);
  act (f, "curve.click", "(ddb)", x2, y2, TRUE);
  g_assert_cmpuint (tress_curve_view_get_n_selected_keys (f->view), ==, 2);
  g_assert_true (tress_curve_view_is_selected (f->view, TY, 2, TRESS_CURVE_PART_KEY));
  act (f, "curve.click", "(ddb)", x, y, TRUE);
  g_assert_cmpuint (tress_curve_view_get_n_selected_keys (f->view), ==, 1);
  g_assert_false (tress_curve_view_is_selected (f->view, TX, 1, TRESS_CURVE_PART_KEY));
  act (f, "curve.click", "(ddb)", x, y, FALSE);
  g_assert_cmpuint (tress_curve_view_get_n_selected_keys (f->view), ==, 1);
  g_assert_true (tress_curve_view_is_selected (f->view, TX, 1, TRESS_CURVE_PART_KEY));

  /* A click on nothing clears. */
  act (f, "curve.click", "(ddb)", 490.0, 10.0, FALSE);
  g_assert_cmpuint (tress_curve_view_get_n_selected_keys (f->view), ==, 0);

  /* Select all / none. */
  act (f, "curve.select-all", NULL);
  g_assert_cmpuint (tress_curve_view_get_n_selected_keys (f->view), ==, 5 + 5 + 5 + 3);
  act (f, "curve.select-none", NULL);
  g_assert_cmpuint (tress_curve_view_get_n_selected_keys (f->view), ==, 0);
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 0);
}

static void
test_box_select (Fixture *f, gconstpointer data)
{
  /* Frames 8…22, values −1.5…1.5: TX key 2 (20, 1) but not key 1 (10, 2), TY keys 1
   * (10, 0) and 2 (20, −1), TZ keys 1 (10, −1) and 2 (20, 0), RW key 1 (20, 1). */
  double x0 = 8 * 10 + 50, x1 = 22 * 10 + 50, y0 = (4 - 1.5) * 50, y1 = (4 + 1.5) * 50;

  act (f, "curve.box-select", "(ddddb)", x1, y1, x0, y0, FALSE);
  g_assert_cmpuint (tress_curve_view_get_n_selected_keys (f->view), ==, 6);
  g_assert_true (tress_curve_view_is_selected (f->view, TZ, 1, TRESS_CURVE_PART_KEY));
  g_assert_true (tress_curve_view_is_selected (f->view, TX, 2, TRESS_CURVE_PART_KEY));
  g_assert_false (tress_curve_view_is_selected (f->view, TX, 1, TRESS_CURVE_PART_KEY));
  g_assert_true (tress_curve_view_is_selected (f->view, TY, 1, TRESS_CURVE_PART_KEY));
  g_assert_true (tress_curve_view_is_selected (f->view, TY, 2, TRESS_CURVE_PART_KEY));
  g_assert_true (tress_curve_view_is_selected (f->view, TZ, 2, TRESS_CURVE_PART_KEY));
  g_assert_true (tress_curve_view_is_selected (f->view, RW, 1, TRESS_CURVE_PART_KEY));

  /* A locked curve is drawn but never selected; a hidden one neither. */
  act (f, "curve.lock", "(ub)", (guint)TY, TRUE);
  act (f, "curve.hide", "(ub)", (guint)RW, TRUE);
  act (f, "curve.box-select", "(ddddb)", x0, y0, x1, y1, FALSE);
  g_assert_cmpuint (tress_curve_view_get_n_selected_keys (f->view), ==, 3);
  act (f, "curve.select-key", "(uub)", (guint)TY, 0u, FALSE);
  g_assert_nonnull (strstr (tress_curve_view_get_message (f->view), "locked"));
  g_assert_false (tress_curve_view_is_selected (f->view, TY, 0, TRESS_CURVE_PART_KEY));
}

/* --------------------------------------------------------------- drag -- */

static void
test_drag_key (Fixture *f, gconstpointer data)
{
  double x, y;

  /* Drag TX key 1 (10, 2) by 3.4 frames and −0.5 in value: snapped to frame 13. */
  point (f, TX, 1, TRESS_CURVE_PART_KEY, &x, &y);
  act (f, "curve.drag", "(ddddb)", x, y, x + 34, y + 25, FALSE);
  g_assert_cmpfloat (key (f, TX, 1)->frame, ==, 13);
  g_assert_cmpfloat_with_epsilon (key (f, TX, 1)->value, 1.5, 1e-9);
  g_assert_true (tress_curve_view_is_selected (f->view, TX, 1, TRESS_CURVE_PART_KEY));
  /* The other curves did not change. */
  g_assert_cmpfloat (key (f, TY, 1)->frame, ==, 10);
  check_undo_redo (f, "Move 1 key of Walk/Hip/Translate X");
}

static void
test_drag_axis_lock_and_reorder (Fixture *f, gconstpointer data)
{
  double x, y;

  /* With the frame axis locked only frames change. */
  act (f, "curve.axis-lock", "s", "frame");
  point (f, TX, 1, TRESS_CURVE_PART_KEY, &x, &y);
  act (f, "curve.drag", "(ddddb)", x, y, x + 20, y + 80, FALSE);
  g_assert_cmpfloat (key (f, TX, 1)->frame, ==, 12);
  g_assert_cmpfloat (key (f, TX, 1)->value, ==, 2);
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 1);

  /* A drag that snaps back to where it began records nothing. */
  point (f, TX, 1, TRESS_CURVE_PART_KEY, &x, &y);
  act (f, "curve.drag", "(ddddb)", x, y, x + 4, y, FALSE);
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 1);

  /* Dragging past a neighbour reorders the keys and keeps the moved one selected. */
  act (f, "curve.axis-lock", "s", "none");
  point (f, TX, 1, TRESS_CURVE_PART_KEY, &x, &y);
  act (f, "curve.drag", "(ddddb)", x, y, x + 130, y, FALSE); /* 12 → 25 */
  g_assert_cmpfloat (key (f, TX, 1)->frame, ==, 20);
  g_assert_cmpfloat (key (f, TX, 2)->frame, ==, 25);
  g_assert_cmpfloat (key (f, TX, 2)->value, ==, 2);
  g_assert_true (tress_curve_view_is_selected (f->view, TX, 2, TRESS_CURVE_PART_KEY));
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 2);

  /* Onto another key's frame: refused, with the reason, and nothing changes. */
  point (f, TX, 2, TRESS_CURVE_PART_KEY, &x, &y);
  act (f, "curve.drag", "(ddddb)", x, y, x + 50, y, FALSE); /* 25 → 30 */
  g_assert_nonnull (strstr (tress_curve_view_get_message (f->view), "share a frame"));
  g_assert_cmpfloat (key (f, TX, 2)->frame, ==, 25);
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 2);
}

static void
test_drag_handle (Fixture *f, gconstpointer data)
{
  double x, y;

  /* TX key 1 has flat slopes: its out handle sits at frame 10 + 10/3, value 2. */
  point (f, TX, 1, TRESS_CURVE_PART_OUT_HANDLE, &x, &y);
  g_assert_cmpfloat_with_epsilon (x, 150 + 100.0 / 3, 1e-9);
  g_assert_cmpfloat_with_epsilon (y, 100, 1e-9);
  /* Up by 50 px = +1 in value: slope 1 / (10/3) = 0.3. */
  act (f, "curve.drag", "(ddddb)", x, y, x + 7, y - 50, FALSE);
  g_assert_cmpfloat_with_epsilon (key (f, TX, 1)->out_slope, 0.3, 1e-6);
  g_assert_cmpfloat_with_epsilon (key (f, TX, 1)->in_slope, 0.3, 1e-6); /* unified */
  g_assert_cmpfloat (key (f, TX, 1)->frame, ==, 10);
  g_assert_cmpfloat (key (f, TX, 1)->value, ==, 2);
  check_undo_redo (f, "Change slope of Walk/Hip/Translate X");

  /* Broken tangents: only the dragged side changes. */
  act (f, "curve.select-key", "(uub)", (guint)TX, 2u, FALSE);
  act (f, "curve.set-tangent", "s", "broken");
  point (f, TX, 2, TRESS_CURVE_PART_IN_HANDLE, &x, &y);
  act (f, "curve.drag", "(ddddb)", x, y, x, y + 50, FALSE);
  g_assert_cmpfloat_with_epsilon (key (f, TX, 2)->in_slope, 0.3, 1e-6);
  g_assert_cmpfloat (key (f, TX, 2)->out_slope, ==, 0);
}

/* ---------------------------------------------------------- key edits -- */

static void
test_nudge_scale (Fixture *f, gconstpointer data)
{
  act (f, "curve.select-key", "(uub)", (guint)TY, 1u, FALSE);
  act (f, "curve.nudge", "(ii)", 1, 0);
  g_assert_cmpfloat (key (f, TY, 1)->frame, ==, 11);
  act (f, "curve.nudge", "(ii)", -10, 0); /* Shift+Left */
  g_assert_cmpfloat (key (f, TY, 1)->frame, ==, 1);
  /* The value step is a tenth of the grid's spacing, what the toolbar shows;
   * one set by hand is used as it is. */
  {
    double step = tress_curve_view_get_nudge_step (f->view);

    g_assert_cmpfloat (step, >, 0);
    g_assert_cmpfloat (step, <, 1);
    act (f, "curve.nudge", "(ii)", 0, 1);
    /* On the nearest value the fake format stores (sixty-fourths). */
    g_assert_cmpfloat_with_epsilon (key (f, TY, 1)->value, step, 1.0 / 128 + 1e-12);
    act (f, "curve.nudge", "(ii)", 0, -1);
    tress_curve_view_set_nudge_step (f->view, 1);
    act (f, "curve.nudge", "(ii)", 0, 1);
    g_assert_cmpfloat (key (f, TY, 1)->value, ==, 1);
    tress_curve_view_set_nudge_step (f->view, 0);
  }
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 5);
  g_assert_cmpstr (tress_history_get_undo_label (f->history), ==,
                   "Move 1 key of Walk/Hip/Translate Y");
  for (int i = 0; i < 5; i++)
    g_assert_true (tress_history_undo (f->history));
  g_assert_cmpfloat (key (f, TY, 1)->frame, ==, 10);

  /* Scale keys 1…3 of TZ (frames 10…30, values −1…1) by 2 around their centre. */
  act (f, "curve.select-key", "(uub)", (guint)TZ, 1u, FALSE);
  act (f, "curve.select-key", "(uub)", (guint)TZ, 3u, TRUE);
  act (f, "curve.scale", "(ddb)", 1.5, 2.0, FALSE);
  g_assert_cmpfloat (key (f, TZ, 1)->frame, ==, 5);
  g_assert_cmpfloat (key (f, TZ, 3)->frame, ==, 35);
  g_assert_cmpfloat (key (f, TZ, 1)->value, ==, -2);
  g_assert_cmpfloat (key (f, TZ, 3)->value, ==, 2);
  g_assert_cmpfloat (key (f, TZ, 2)->frame, ==, 20); /* not selected */
}

static void
curve_point_of (Fixture *f, guint c, double frame, double *x, double *y)
{
  TressCurveViewport vp;

  tress_curve_view_get_viewport (f->view, &vp);
  *x = tress_curve_viewport_frame_to_x (&vp, frame);
  *y = tress_curve_viewport_value_to_y (&vp, tress_curve_evaluate (curve (f, c), frame));
}

static void
test_bool_values (Fixture *f, gconstpointer data)
{
  static const guint vis[] = { VIS };
  double x, y;
  g_autoptr (GError) error = NULL;

  /* A drag of a boolean key lands on 0 or 1, never between. */
  show_curves (f, vis, 1);
  point (f, VIS, 1, TRESS_CURVE_PART_KEY, &x, &y);          /* (15, 0) */
  act (f, "curve.drag", "(ddddb)", x, y, x, y - 40, FALSE); /* +0.8 */
  g_assert_cmpfloat (key (f, VIS, 1)->value, ==, 1);
  act (f, "curve.move", "(dd)", 0.0, -0.3); /* rounds back to 1: no step */
  g_assert_cmpfloat (key (f, VIS, 1)->value, ==, 1);
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 1);
  act (f, "curve.move", "(dd)", 0.0, -0.7);
  g_assert_cmpfloat (key (f, VIS, 1)->value, ==, 0);
  /* The arrow keys move whole-number keys by at least one (with values −0.5…1.5
   * in view the grid's step is 0.2, which would round back). */
  {
    TressCurveViewport vp;

    tress_curve_view_get_viewport (f->view, &vp);
    vp.value_min = -0.5;
    vp.value_max = 1.5;
    tress_curve_view_set_viewport (f->view, &vp);
  }
  act (f, "curve.select-key", "(uub)", (guint)VIS, 1u, FALSE);
  act (f, "curve.nudge", "(ii)", 0, 1);
  g_assert_cmpfloat (key (f, VIS, 1)->value, ==, 1);
  g_assert_true (tress_history_undo (f->history));
  g_assert_cmpfloat (key (f, VIS, 1)->value, ==, 0);
  /* A typed value the format cannot hold is refused with the reason. */
  {
    TressKey k = *key (f, VIS, 1);

    k.value = 0.5;
    g_assert_false (tress_curve_view_set_key (f->view, VIS, 1, &k, &error));
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  }
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 2);
}

static void
test_insert_keeps_shape (Fixture *f, gconstpointer data)
{
  double before[41];

  for (int fr = 0; fr <= 40; fr++)
    before[fr] = tress_curve_evaluate (curve (f, TY), fr);
  act (f, "curve.select-key", "(uub)", (guint)TY, 0u, FALSE);
  act (f, "curve.insert-key", "d", 15.0);
  g_assert_cmpuint (tress_curve_get_n_keys (curve (f, TY)), ==, 6);
  g_assert_cmpfloat (key (f, TY, 2)->frame, ==, 15);
  g_assert_true (tress_curve_view_is_selected (f->view, TY, 2, TRESS_CURVE_PART_KEY));
  /* Values are stored in 1/64 steps, so the shape holds to that quantum. */
  for (int fr = 0; fr <= 40; fr++)
    g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (curve (f, TY), fr), before[fr], 1.0 / 64);
  check_undo_redo (f, "Insert key at frame 15 of Walk/Hip/Translate Y");

  /* On the curve under the pointer (a double click): TZ at frame 33 (x 380). */
  {
    double x, y;

    curve_point_of (f, TZ, 33, &x, &y);
    act (f, "curve.insert-on-curve", "(dd)", x + 1, y - 3);
    g_assert_cmpuint (tress_curve_get_n_keys (curve (f, TZ)), ==, 6);
    g_assert_cmpfloat (key (f, TZ, 4)->frame, ==, 33);
    g_assert_true (tress_curve_view_is_selected (f->view, TZ, 4, TRESS_CURVE_PART_KEY));
    act (f, "curve.insert-on-curve", "(dd)", 400.0, 20.0); /* nothing there */
    g_assert_cmpuint (tress_curve_get_n_keys (curve (f, TZ)), ==, 6);
    g_assert_true (tress_history_undo (f->history));
  }

  /* At the playhead, into the active curve. */
  act (f, "curve.select-key", "(uub)", (guint)TY, 0u, FALSE);
  act (f, "curve.goto-frame", "d", 25.0);
  act (f, "curve.insert-at-playhead", NULL);
  g_assert_cmpuint (tress_curve_get_n_keys (curve (f, TY)), ==, 7);
  g_assert_cmpfloat (key (f, TY, 4)->frame, ==, 25);
  g_assert_cmpuint (tress_curve_get_n_keys (curve (f, TX)), ==, 5);
}

/* Undo and redo move the selection with its keys: after undoing an insert,
 * the inserted key's index must not select the key that now has it. */
static void
test_selection_follows_undo (Fixture *f, gconstpointer data)
{
  guint n;

  act (f, "curve.select-key", "(uub)", (guint)TY, 3u, FALSE); /* the key after frame 15 */
  act (f, "curve.insert-key", "d", 15.0);
  g_assert_true (tress_curve_view_is_selected (f->view, TY, 2, TRESS_CURVE_PART_KEY));
  n = tress_curve_get_n_keys (curve (f, TY));
  g_assert_true (tress_history_undo (f->history));
  g_assert_cmpuint (tress_curve_get_n_keys (curve (f, TY)), ==, n - 1);
  /* The inserted key is gone, and with it its selection. */
  g_assert_cmpuint (tress_curve_view_get_n_selected_keys (f->view), ==, 0);
  act (f, "curve.delete", NULL);
  g_assert_cmpuint (tress_curve_get_n_keys (curve (f, TY)), ==, n - 1);

  /* A selected key stays selected at its new index when an undo inserts a key
   * before it. */
  g_assert_true (tress_history_redo (f->history));
  act (f, "curve.select-key", "(uub)", (guint)TY, 3u, FALSE);
  {
    double frame = key (f, TY, 3)->frame;

    g_assert_true (tress_history_undo (f->history)); /* the key at 15 goes: index 3 → 2 */
    g_assert_true (tress_curve_view_is_selected (f->view, TY, 2, TRESS_CURVE_PART_KEY));
    g_assert_cmpfloat (key (f, TY, 2)->frame, ==, frame);
    g_assert_true (tress_history_redo (f->history)); /* back: index 2 → 3 */
    g_assert_true (tress_curve_view_is_selected (f->view, TY, 3, TRESS_CURVE_PART_KEY));
    g_assert_cmpfloat (key (f, TY, 3)->frame, ==, frame);
  }
}

static void
test_delete_duplicate (Fixture *f, gconstpointer data)
{
  static const guint fixed[] = { FIXED };

  act (f, "curve.select-key", "(uub)", (guint)TX, 1u, FALSE);
  act (f, "curve.select-key", "(uub)", (guint)TX, 3u, TRUE);
  act (f, "curve.delete", NULL);
  g_assert_cmpuint (tress_curve_get_n_keys (curve (f, TX)), ==, 3);
  g_assert_cmpfloat (key (f, TX, 1)->frame, ==, 20);
  g_assert_cmpuint (tress_curve_view_get_n_selected_keys (f->view), ==, 0);
  check_undo_redo (f, "Delete 2 keys of Walk/Hip/Translate X");
  g_assert_true (tress_history_undo (f->history));

  /* Duplicate keys 1 and 2 (frames 10, 20) with the playhead at 10, among
   * them: copies one frame after the last, at 21 and 31 (both free). */
  act (f, "curve.select-key", "(uub)", (guint)TY, 1u, FALSE);
  act (f, "curve.select-key", "(uub)", (guint)TY, 2u, TRUE);
  act (f, "curve.goto-frame", "d", 10.0);
  act (f, "curve.duplicate", NULL);
  g_assert_cmpuint (tress_curve_get_n_keys (curve (f, TY)), ==, 7);
  g_assert_cmpfloat (key (f, TY, 3)->frame, ==, 21);
  g_assert_cmpfloat (key (f, TY, 3)->value, ==, 0);
  g_assert_cmpfloat (key (f, TY, 5)->frame, ==, 31);
  g_assert_cmpfloat (key (f, TY, 5)->value, ==, -1);
  g_assert_true (tress_curve_view_is_selected (f->view, TY, 3, TRESS_CURVE_PART_KEY));
  g_assert_true (tress_curve_view_is_selected (f->view, TY, 5, TRESS_CURVE_PART_KEY));
  g_assert_cmpstr (tress_history_get_undo_label (f->history), ==,
                   "Duplicate 2 keys of Walk/Hip/Translate Y");
  g_assert_true (tress_history_undo (f->history));
  /* With the playhead elsewhere, the copies start there: 45 and 55. */
  act (f, "curve.select-key", "(uub)", (guint)TY, 1u, FALSE);
  act (f, "curve.select-key", "(uub)", (guint)TY, 2u, TRUE);
  act (f, "curve.goto-frame", "d", 45.0);
  act (f, "curve.duplicate", NULL);
  g_assert_cmpuint (tress_curve_get_n_keys (curve (f, TY)), ==, 7);
  g_assert_cmpfloat (key (f, TY, 5)->frame, ==, 45);
  g_assert_cmpfloat (key (f, TY, 5)->value, ==, 0);
  g_assert_cmpfloat (key (f, TY, 6)->frame, ==, 55);
  g_assert_cmpfloat (key (f, TY, 6)->value, ==, -1);

  /* A curve whose format keeps its key count refuses, and says why. */
  show_curves (f, fixed, 1);
  act (f, "curve.select-key", "(uub)", (guint)FIXED, 1u, FALSE);
  act (f, "curve.delete", NULL);
  g_assert_nonnull (strstr (tress_curve_view_get_message (f->view), "fixed number of keys"));
  g_assert_cmpuint (tress_curve_get_n_keys (curve (f, FIXED)), ==, 3);
}

static void
test_copy_paste (Fixture *f, gconstpointer data)
{
  /* Copy TX keys 1, 2 (frames 10, 20; values 2, 1) and paste into TY at the playhead. */
  act (f, "curve.select-key", "(uub)", (guint)TX, 1u, FALSE);
  act (f, "curve.select-key", "(uub)", (guint)TX, 2u, TRUE);
  act (f, "curve.copy", NULL);
  act (f, "curve.select-key", "(uub)", (guint)TY, 4u, FALSE);
  act (f, "curve.goto-frame", "d", 42.0);
  act (f, "curve.paste", "b", TRUE);
  g_assert_cmpuint (tress_curve_get_n_keys (curve (f, TY)), ==, 7);
  g_assert_cmpfloat (key (f, TY, 5)->frame, ==, 42);
  g_assert_cmpfloat (key (f, TY, 5)->value, ==, 2);
  g_assert_cmpfloat (key (f, TY, 6)->frame, ==, 52);
  g_assert_cmpfloat (key (f, TY, 6)->value, ==, 1);
  g_assert_cmpuint (tress_curve_get_n_keys (curve (f, TX)), ==, 5);
  check_undo_redo (f, "Paste 2 keys onto Hip at frame 42");
  g_assert_true (tress_history_undo (f->history));

  /* Several curves copy by component: X → X, Y → Y (in place into the same curves fails:
   * the frames are taken, and the refusal names them). */
  act (f, "curve.select-key", "(uub)", (guint)TX, 4u, FALSE);
  act (f, "curve.select-key", "(uub)", (guint)TY, 4u, TRUE);
  act (f, "curve.copy", NULL);
  act (f, "curve.paste", "b", FALSE);
  g_assert_nonnull (strstr (tress_curve_view_get_message (f->view), "already sits at frame 40"));
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 0);
  act (f, "curve.goto-frame", "d", 44.0);
  act (f, "curve.paste", "b", TRUE);
  g_assert_cmpuint (tress_curve_get_n_keys (curve (f, TX)), ==, 6);
  g_assert_cmpfloat (key (f, TX, 5)->value, ==, 0);
  g_assert_cmpfloat (key (f, TY, 5)->value, ==, 1);
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 1);
}

static void
test_interp_tangents (Fixture *f, gconstpointer data)
{
  act (f, "curve.select-key", "(uub)", (guint)TX, 1u, FALSE);
  act (f, "curve.select-key", "(uub)", (guint)TX, 2u, TRUE);
  act (f, "curve.set-interpolation", "s", "linear");
  g_assert_cmpint (key (f, TX, 1)->interp, ==, TRESS_INTERP_LINEAR);
  g_assert_cmpint (key (f, TX, 2)->interp, ==, TRESS_INTERP_LINEAR);
  g_assert_cmpint (key (f, TX, 0)->interp, ==, TRESS_INTERP_HERMITE);
  g_assert_cmpfloat (tress_curve_evaluate (curve (f, TX), 15), ==, 1.5);
  check_undo_redo (f, "Set interpolation of 2 keys of Walk/Hip/Translate X to linear");
  g_assert_true (tress_history_undo (f->history));

  /* Auto (Catmull-Rom) on key 1 of TX: slope (1 − 0) / 20 = 0.05; then flat. */
  act (f, "curve.set-tangent", "s", "auto");
  g_assert_cmpfloat_with_epsilon (key (f, TX, 1)->out_slope, 0.05, 1e-6);
  g_assert_cmpfloat_with_epsilon (key (f, TX, 1)->in_slope, 0.05, 1e-6);
  g_assert_cmpstr (tress_history_get_undo_label (f->history), ==,
                   "Set tangents of 2 keys of Walk/Hip/Translate X to auto");
  act (f, "curve.set-tangent", "s", "flat");
  g_assert_cmpfloat (key (f, TX, 1)->out_slope, ==, 0);
  g_assert_cmpfloat (key (f, TX, 2)->in_slope, ==, 0);
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 2);
}

static void
test_frame_zoom_pan (Fixture *f, gconstpointer data)
{
  TressCurveViewport vp;

  act (f, "curve.frame-all", NULL);
  tress_curve_view_get_viewport (f->view, &vp);
  g_assert_cmpfloat (vp.frame_min, <, 0);
  g_assert_cmpfloat (vp.frame_max, >, 40);
  g_assert_cmpfloat (vp.value_min, <, -2);
  g_assert_cmpfloat (vp.value_max, >, 3);
  g_assert_cmpfloat (vp.frame_max - vp.frame_min, <, 50);

  act (f, "curve.select-key", "(uub)", (guint)TX, 1u, FALSE);
  act (f, "curve.select-key", "(uub)", (guint)TX, 2u, TRUE);
  act (f, "curve.frame-selected", NULL);
  tress_curve_view_get_viewport (f->view, &vp);
  g_assert_cmpfloat (vp.frame_min, <, 10);
  g_assert_cmpfloat (vp.frame_min, >, 8);
  g_assert_cmpfloat (vp.frame_max, >, 20);
  g_assert_cmpfloat (vp.frame_max, <, 22);

  /* Zoom one axis only. */
  {
    double fspan = vp.frame_max - vp.frame_min, vspan = vp.value_max - vp.value_min;

    act (f, "curve.zoom", "(dd)", 2.0, 1.0);
    tress_curve_view_get_viewport (f->view, &vp);
    g_assert_cmpfloat_with_epsilon (vp.frame_max - vp.frame_min, fspan / 2, 1e-9);
    g_assert_cmpfloat_with_epsilon (vp.value_max - vp.value_min, vspan, 1e-9);
    act (f, "curve.pan", "(dd)", 100.0, 0.0);
    tress_curve_view_get_viewport (f->view, &vp);
    g_assert_cmpfloat_with_epsilon (vp.frame_max - vp.frame_min, fspan / 2, 1e-9);
  }
}

static void
test_normalized (Fixture *f, gconstpointer data)
{
  double x, y;

  /* TZ goes from −2 to 2: normalized, its last key is drawn at +1. */
  g_object_set (f->view, "normalized", TRUE, NULL);
  act (f, "curve.frame-all", NULL);
  {
    TressCurveViewport vp;

    tress_curve_view_get_viewport (f->view, &vp);
    point (f, TZ, 4, TRESS_CURVE_PART_KEY, &x, &y);
    g_assert_cmpfloat_with_epsilon (tress_curve_viewport_y_to_value (&vp, y), 1, 1e-6);
    point (f, TZ, 0, TRESS_CURVE_PART_KEY, &x, &y);
    g_assert_cmpfloat_with_epsilon (tress_curve_viewport_y_to_value (&vp, y), -1, 1e-6);
    /* RW spans 0.5…1: its top key at +1 too. */
    point (f, RW, 1, TRESS_CURVE_PART_KEY, &x, &y);
    g_assert_cmpfloat_with_epsilon (tress_curve_viewport_y_to_value (&vp, y), 1, 1e-6);

    /* Dragging in the normalized view moves by the curve's own units:
     * RW's span 0.5 is drawn as 2, so −0.5 shown is −0.125 stored. */
    act (f, "curve.drag", "(ddddb)", x, y, x, tress_curve_viewport_value_to_y (&vp, 0.5), FALSE);
    g_assert_cmpfloat_with_epsilon (key (f, RW, 1)->value, 0.875, 1e-6);
  }
  g_object_set (f->view, "normalized", FALSE, NULL);
}

static void
test_bake_fit (Fixture *f, gconstpointer data)
{
  static const guint baked[] = { BAKED, TX };

  show_curves (f, baked, 2);
  g_assert_cmpuint (tress_curve_get_n_keys (curve (f, BAKED)), ==, 61);
  /* Edit one sample as a key. */
  act (f, "curve.select-key", "(uub)", (guint)BAKED, 30u, FALSE);
  act (f, "curve.move", "(dd)", 0.0, 0.5);
  g_assert_cmpfloat_with_epsilon (key (f, BAKED, 30)->value, 0.5, 1.0 / 64);
  g_assert_true (tress_history_undo (f->history));

  /* Samples → keys (one explicit step), and back. */
  act (f, "curve.select-key", "(uub)", (guint)BAKED, 0u, FALSE);
  act (f, "curve.fit", "d", 0.02);
  g_assert_cmpuint (tress_curve_get_n_keys (curve (f, BAKED)), <, 20);
  g_assert_cmpuint (tress_curve_get_n_keys (curve (f, BAKED)), >=, 2);
  g_assert_cmpint (key (f, BAKED, 0)->interp, ==, TRESS_INTERP_HERMITE);
  for (int fr = 0; fr <= 60; fr++)
    g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (curve (f, BAKED), fr),
                                    round (sin (fr / 60.0 * 2 * G_PI) * 64) / 64, 0.02 + 1.0 / 64);
  g_assert_cmpstr (tress_history_get_undo_label (f->history), ==,
                   "Convert samples to keys (tolerance 0.02)");
  act (f, "curve.bake", NULL);
  g_assert_cmpuint (tress_curve_get_n_keys (curve (f, BAKED)), ==, 61);
  g_assert_cmpint (key (f, BAKED, 7)->interp, ==, TRESS_INTERP_BAKED);
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 2);
  g_assert_true (tress_history_undo (f->history));
  g_assert_true (tress_history_undo (f->history));
  {
    g_autoptr (GBytes) now = serialize (f);
    tress_test_assert_bytes_equal (now, f->original);
  }
}

static void
test_playback (Fixture *f, gconstpointer data)
{
  double first, last;
  gboolean playing;

  tress_curve_view_get_frame_range (f->view, &first, &last);
  g_assert_cmpfloat (first, ==, 0);
  g_assert_cmpfloat (last, ==, 40);
  g_assert_cmpfloat (tress_curve_view_get_fps (f->view), ==, 30);

  act (f, "curve.goto-frame", "d", 12.0);
  act (f, "curve.next-key", NULL);
  g_assert_cmpfloat (tress_curve_view_get_playhead (f->view), ==, 20);
  act (f, "curve.previous-key", NULL);
  g_assert_cmpfloat (tress_curve_view_get_playhead (f->view), ==, 10);
  act (f, "curve.previous-key", NULL);
  g_assert_cmpfloat (tress_curve_view_get_playhead (f->view), ==, 0);

  act (f, "curve.goto-frame", "d", 38.0);
  act (f, "curve.play", NULL);
  g_object_get (f->view, "playing", &playing, NULL);
  g_assert_true (playing);
  /* At 30 frames a second it passes frame 40 within 70 ms and loops around
   * (waited for, not timed: frames come late on a busy machine). */
  TRESS_TEST_WAIT_FOR (tress_curve_view_get_playhead (f->view) < 38);
  g_object_get (f->view, "playing", &playing, NULL);
  g_assert_true (playing);
  act (f, "curve.pause", NULL);
  g_object_get (f->view, "playing", &playing, NULL);
  g_assert_false (playing);

  /* Without loop it stops at the end. */
  g_object_set (f->view, "loop", FALSE, NULL);
  act (f, "curve.goto-frame", "d", 39.0);
  act (f, "curve.toggle-play", NULL);
  g_object_get (f->view, "playing", &playing, NULL);
  g_assert_true (playing);
  TRESS_TEST_WAIT_FOR ((g_object_get (f->view, "playing", &playing, NULL), !playing));
  g_assert_cmpfloat (tress_curve_view_get_playhead (f->view), ==, 40);
}

static void
test_save_reopen (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (tress_test_tmpdir (), "view-saved.fcrv", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressDocument) again = NULL;
  double x, y;

  point (f, TZ, 2, TRESS_CURVE_PART_KEY, &x, &y);
  act (f, "curve.drag", "(ddddb)", x, y, x + 30, y - 25, FALSE);
  act (f, "curve.set-interpolation", "s", "step");
  g_assert_true (tress_document_save (TRESS_DOCUMENT (f->doc), file, FALSE, NULL, &error));
  g_assert_no_error (error);
  again = tress_document_load (file, NULL, &error);
  g_assert_no_error (error);
  for (guint c = 0; c < tress_curve_document_get_n_curves (f->doc); c++)
    {
      const TressCurve *a = curve (f, c);
      const TressCurve *b = tress_curve_document_get_curve (TRESS_CURVE_DOCUMENT (again), c);

      g_assert_cmpuint (tress_curve_get_n_keys (a), ==, tress_curve_get_n_keys (b));
      for (guint k = 0; k < tress_curve_get_n_keys (a); k++)
        {
          g_assert_cmpfloat (tress_curve_get_key (a, k)->frame, ==,
                             tress_curve_get_key (b, k)->frame);
          g_assert_cmpfloat (tress_curve_get_key (a, k)->value, ==,
                             tress_curve_get_key (b, k)->value);
          g_assert_cmpint (tress_curve_get_key (a, k)->interp, ==,
                           tress_curve_get_key (b, k)->interp);
        }
    }
  g_assert_cmpfloat (
      tress_curve_get_key (tress_curve_document_get_curve (TRESS_CURVE_DOCUMENT (again), TZ), 2)
          ->frame,
      ==, 23);
  g_assert_cmpfloat (
      tress_curve_get_key (tress_curve_document_get_curve (TRESS_CURVE_DOCUMENT (again), TZ), 2)
          ->value,
      ==, 0.5);
}

/* ---------------------------------------------------------- pixels -- */

typedef struct
{
  guint8 *data;
  gsize stride;
  int width;
  int height;
} Shot;

static void
take_shot (Fixture *f, Shot *shot)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GskRenderer) renderer = gsk_cairo_renderer_new ();
  g_autoptr (GdkTexture) texture = NULL;
  g_autoptr (GError) error = NULL;
  graphene_rect_t vp = GRAPHENE_RECT_INIT (0, 0, 500, 400);

  iterate ();
  /* The widget's own snapshot(), rendered in software: the pixels a frame shows. */
  GTK_WIDGET_GET_CLASS (f->view)->snapshot (GTK_WIDGET (f->view), snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  g_assert_true (gsk_renderer_realize (renderer, NULL, &error));
  g_assert_no_error (error);
  texture = gsk_renderer_render_texture (renderer, node, &vp);
  shot->width = gdk_texture_get_width (texture);
  shot->height = gdk_texture_get_height (texture);
  shot->stride = (gsize)shot->width * 4;
  shot->data = g_malloc (shot->stride * shot->height);
  gdk_texture_download (texture, shot->data, shot->stride);
  gsk_renderer_unrealize (renderer);
}

/* Cairo's ARGB32 in memory order B, G, R, A (little-endian). */
static void
pixel (const Shot *shot, int x, int y, int rgb[3])
{
  const guint8 *p = shot->data + (gsize)y * shot->stride + (gsize)x * 4;

  rgb[0] = p[2];
  rgb[1] = p[1];
  rgb[2] = p[0];
}

static gboolean
near_color (const int rgb[3], double r, double g, double b, int tol)
{
  return abs (rgb[0] - (int)(r * 255)) <= tol && abs (rgb[1] - (int)(g * 255)) <= tol
         && abs (rgb[2] - (int)(b * 255)) <= tol;
}

/* TRUE if a pixel within @radius of (x, y) has the colour. */
static gboolean
find_color (const Shot *shot, double x, double y, int radius, double r, double g, double b, int tol)
{
  for (int dy = -radius; dy <= radius; dy++)
    for (int dx = -radius; dx <= radius; dx++)
      {
        int px = (int)floor (x) + dx, py = (int)floor (y) + dy, rgb[3];

        if (px < 0 || py < 0 || px >= shot->width || py >= shot->height)
          continue;
        pixel (shot, px, py, rgb);
        if (near_color (rgb, r, g, b, tol))
          return TRUE;
      }
  return FALSE;
}

static void
curve_point (Fixture *f, guint c, double frame, double *x, double *y)
{
  TressCurveViewport vp;

  tress_curve_view_get_viewport (f->view, &vp);
  *x = tress_curve_viewport_frame_to_x (&vp, frame);
  *y = tress_curve_viewport_value_to_y (&vp, tress_curve_evaluate (curve (f, c), frame));
}

static void
test_screenshot_colors (Fixture *f, gconstpointer data)
{
  Shot shot;
  double x, y;
  static const struct
  {
    guint curve;
    double frame;
    double rgb[3];
  } checks[] = {
    { TX, 5, { 0.93, 0.26, 0.26 } },  /* X red */
    { TY, 25, { 0.36, 0.80, 0.30 } }, /* Y green */
    { TZ, 15, { 0.30, 0.52, 1.00 } }, /* Z blue */
    { RW, 30, { 0.95, 0.85, 0.20 } }, /* W yellow */
  };

  take_shot (f, &shot);
  g_assert_cmpint (shot.width, ==, 500);
  for (guint i = 0; i < G_N_ELEMENTS (checks); i++)
    {
      curve_point (f, checks[i].curve, checks[i].frame, &x, &y);
      if (!find_color (&shot, x, y, 1, checks[i].rgb[0], checks[i].rgb[1], checks[i].rgb[2], 40))
        g_error ("curve %u is not drawn in its colour near (%g, %g)", checks[i].curve, x, y);
    }
  /* The background far from every curve. */
  {
    int rgb[3];
    pixel (&shot, 495, 5, rgb);
    g_assert_true (near_color (rgb, 0.16, 0.16, 0.17, 8));
  }
  /* Hidden curves are not drawn. */
  g_free (shot.data);
  act (f, "curve.hide", "(ub)", (guint)TX, TRUE);
  take_shot (f, &shot);
  curve_point (f, TX, 5, &x, &y);
  g_assert_false (find_color (&shot, x, y, 1, 0.93, 0.26, 0.26, 40));
  g_free (shot.data);
}

/* A frame number's grey on the ruler (not a curve's colour, not the box). */
static gboolean
is_label_grey (const int rgb[3])
{
  int lo = MIN (rgb[0], MIN (rgb[1], rgb[2])), hi = MAX (rgb[0], MAX (rgb[1], rgb[2]));

  return lo > 60 && hi - lo < 16;
}

/* The values along the left stay readable where curves run through them:
 * they are drawn over the curves, on a plate. Curves swept across the label
 * column (the frames panned two at a time) leave every glyph pixel as it is
 * with no curve shown. */
static void
test_value_labels_over_curves (Fixture *f, gconstpointer data)
{
  static const guint shown[] = { TX, TY, TZ, RW };
  guint glyph_pixels = 0, crossings = 0;

  for (double shift = 0; shift <= 40; shift += 2)
    {
      TressCurveViewport vp;
      Shot bare, full;

      tress_curve_view_get_viewport (f->view, &vp);
      vp.frame_min = shift - 5;
      vp.frame_max = shift + 45;
      tress_curve_view_set_viewport (f->view, &vp);
      for (guint i = 0; i < G_N_ELEMENTS (shown); i++)
        act (f, "curve.hide", "(ub)", shown[i], TRUE);
      take_shot (f, &bare);
      for (guint i = 0; i < G_N_ELEMENTS (shown); i++)
        act (f, "curve.hide", "(ub)", shown[i], FALSE);
      take_shot (f, &full);
      for (int y = 0; y < bare.height - 30; y++)
        for (int x = 0; x < 40; x++)
          {
            int b[3], c[3];

            pixel (&bare, x, y, b);
            pixel (&full, x, y, c);
            if (MAX (c[0], MAX (c[1], c[2])) - MIN (c[0], MIN (c[1], c[2])) > 60)
              crossings++; /* a curve's colour in the label column */
            if (MIN (b[0], MIN (b[1], b[2])) < 150 || !is_label_grey (b))
              continue; /* not the core of a glyph */
            glyph_pixels++;
            if (abs (b[0] - c[0]) > 6 || abs (b[1] - c[1]) > 6 || abs (b[2] - c[2]) > 6)
              g_error ("a value label's pixel (%d, %d) is (%d, %d, %d) with the curves shown, "
                       "(%d, %d, %d) without (frames %g to %g)",
                       x, y, c[0], c[1], c[2], b[0], b[1], b[2], vp.frame_min, vp.frame_max);
          }
      g_free (bare.data);
      g_free (full.data);
    }
  g_assert_cmpuint (glyph_pixels, >, 100);
  g_assert_cmpuint (crossings, >, 100);
}

/* The playhead's frame box on the ruler and the frame numbers never touch:
 * the number under the box is left out (the box names the frame), the others
 * stay. */
static void
test_ruler_playhead_clear (Fixture *f, gconstpointer data)
{
  TressCurveViewport vp;
  guint n_frames = 0;

  act (f, "curve.frame-all", NULL);
  tress_curve_view_get_viewport (f->view, &vp);
  for (double frame = ceil (vp.frame_min); frame <= vp.frame_max; frame += 0.5)
    {
      Shot shot;
      int left = -1, right = -1, rgb[3], y_box;
      guint far_labels = 0;

      tress_curve_view_set_playhead (f->view, frame);
      take_shot (f, &shot);
      /* The box: its purple along the ruler's middle row. */
      y_box = shot.height - 10;
      for (int x = 0; x < shot.width; x++)
        {
          pixel (&shot, x, y_box, rgb);
          if (near_color (rgb, 0.60, 0.22, 0.60, 10))
            {
              if (left < 0)
                left = x;
              right = x;
            }
        }
      if (left < 0)
        g_error ("no frame box on the ruler for the playhead at %g", frame);
      /* Two to four pixels beside it, in the ruler's rows: no digit. */
      for (int y = shot.height - 19; y < shot.height - 1; y++)
        for (int d = 2; d <= 4; d++)
          {
            if (left - d >= 0)
              {
                pixel (&shot, left - d, y, rgb);
                if (is_label_grey (rgb))
                  g_error ("playhead at %g: a frame number touches its box (%d..%d) at x %d", frame,
                           left, right, left - d);
              }
            if (right + d < shot.width)
              {
                pixel (&shot, right + d, y, rgb);
                if (is_label_grey (rgb))
                  g_error ("playhead at %g: a frame number touches its box (%d..%d) at x %d", frame,
                           left, right, right + d);
              }
          }
      /* The other frame numbers are still there. */
      for (int y = shot.height - 19; y < shot.height - 1; y++)
        for (int x = 0; x < shot.width; x++)
          if (x < left - 40 || x > right + 40)
            {
              pixel (&shot, x, y, rgb);
              far_labels += is_label_grey (rgb);
            }
      g_assert_cmpuint (far_labels, >, 0);
      g_free (shot.data);
      n_frames++;
    }
  g_assert_cmpuint (n_frames, >, 10);
}

static const double TX_RGB[3] = { 0.93, 0.26, 0.26 };

/* Whether the graph shows @c's line, as drawn now (the drag's copy during a
 * drag), in @rgb at @frame. */
static gboolean
line_shown (Fixture *f, const Shot *shot, guint c, double frame, const double rgb[3])
{
  TressCurveViewport vp;
  const TressCurve *shown = tress_curve_view_get_shown_curve (f->view, c);

  tress_curve_view_get_viewport (f->view, &vp);
  return find_color (shot, tress_curve_viewport_frame_to_x (&vp, frame),
                     tress_curve_viewport_value_to_y (&vp, tress_curve_evaluate (shown, frame)), 1,
                     rgb[0], rgb[1], rgb[2], 40);
}

/* The other curves, which no drag moves, in their colours. */
static void
assert_still_drawn (Fixture *f, const Shot *shot)
{
  static const double y_rgb[3] = { 0.36, 0.80, 0.30 }, z_rgb[3] = { 0.30, 0.52, 1.00 },
                      w_rgb[3] = { 0.95, 0.85, 0.20 };

  g_assert_true (line_shown (f, shot, TY, 25, y_rgb));
  g_assert_true (line_shown (f, shot, TZ, 15, z_rgb));
  g_assert_true (line_shown (f, shot, RW, 30, w_rgb));
}

/* Where @c's line is drawn at @frame, in widget pixels. */
static double
line_y (Fixture *f, guint c, double frame)
{
  TressCurveViewport vp;

  tress_curve_view_get_viewport (f->view, &vp);
  return tress_curve_viewport_value_to_y (
      &vp, tress_curve_evaluate (tress_curve_view_get_shown_curve (f->view, c), frame));
}

/* A key dragged with the pointer: at every step the dragged curve is drawn
 * where the drag has it, and only there, with the curves it does not move
 * drawn as before; after the release the curve is drawn where the document
 * has it, also after a drag the format refuses. A box drawn with the pointer
 * leaves every line drawn. */
static void
test_drag_redraws (Fixture *f, gconstpointer data)
{
  Shot shot;
  double x, y, before, step1;

  if (!tress_test_pointer_available (f->window))
    return;
  /* TX key 1 (frame 10, value 2) pulled down 3, then 4 values (50 px each). */
  point (f, TX, 1, TRESS_CURVE_PART_KEY, &x, &y);
  before = line_y (f, TX, 6);
  tress_test_pointer_move (GTK_WIDGET (f->view), x, y);
  tress_test_pointer_button (1, TRUE);
  tress_test_pointer_move (GTK_WIDGET (f->view), x, y + 150);
  step1 = line_y (f, TX, 6);
  g_assert_cmpfloat (fabs (step1 - before), >, 10);
  take_shot (f, &shot);
  g_assert_true (line_shown (f, &shot, TX, 6, TX_RGB));
  g_assert_false (find_color (&shot, 110, before, 1, TX_RGB[0], TX_RGB[1], TX_RGB[2], 40));
  assert_still_drawn (f, &shot);
  g_free (shot.data);

  tress_test_pointer_move (GTK_WIDGET (f->view), x, y + 200);
  g_assert_cmpfloat (fabs (line_y (f, TX, 6) - step1), >, 5);
  take_shot (f, &shot);
  g_assert_true (line_shown (f, &shot, TX, 6, TX_RGB));
  g_assert_false (find_color (&shot, 110, step1, 1, TX_RGB[0], TX_RGB[1], TX_RGB[2], 40));
  assert_still_drawn (f, &shot);
  g_free (shot.data);

  tress_test_pointer_button (1, FALSE);
  g_assert_cmpfloat (key (f, TX, 1)->value, ==, -2);
  take_shot (f, &shot);
  g_assert_true (line_shown (f, &shot, TX, 6, TX_RGB));
  assert_still_drawn (f, &shot);
  g_free (shot.data);

  /* TX key 3 (frame 30) onto key 4's frame: refused. The curve is drawn as
   * the document keeps it again, not as the drag had it. */
  point (f, TX, 3, TRESS_CURVE_PART_KEY, &x, &y);
  before = line_y (f, TX, 34);
  tress_test_pointer_move (GTK_WIDGET (f->view), x, y);
  tress_test_pointer_button (1, TRUE);
  tress_test_pointer_move (GTK_WIDGET (f->view), x + 50, y);
  tress_test_pointer_move (GTK_WIDGET (f->view), x + 100, y);
  step1 = line_y (f, TX, 34);
  g_assert_cmpfloat (fabs (step1 - before), >, 5);
  tress_test_pointer_button (1, FALSE);
  g_assert_nonnull (strstr (tress_curve_view_get_message (f->view), "share a frame"));
  g_assert_cmpfloat (key (f, TX, 3)->frame, ==, 30);
  take_shot (f, &shot);
  g_assert_true (line_shown (f, &shot, TX, 34, TX_RGB));
  g_assert_false (find_color (&shot, 390, step1, 1, TX_RGB[0], TX_RGB[1], TX_RGB[2], 40));
  g_free (shot.data);

  /* A box from the top left corner, where no key is: drawn, every line too. */
  tress_test_pointer_move (GTK_WIDGET (f->view), 5, 5);
  tress_test_pointer_button (1, TRUE);
  tress_test_pointer_move (GTK_WIDGET (f->view), 60, 40);
  tress_test_pointer_move (GTK_WIDGET (f->view), 120, 80);
  take_shot (f, &shot);
  {
    int rgb[3];

    /* Its outline, white at 60 %, on the background. */
    pixel (&shot, 60, 5, rgb);
    g_assert_cmpint (rgb[0], >, 150);
  }
  g_assert_true (line_shown (f, &shot, TX, 6, TX_RGB));
  assert_still_drawn (f, &shot);
  g_free (shot.data);
  tress_test_pointer_button (1, FALSE);
}

/* The ruler with the pointer: a press puts the playhead on the frame under
 * it, a drag moves it along (whole frames), and the graph under the ruler
 * takes no part: the selected key stays selected, no box is drawn. */
static void
test_ruler_pointer (Fixture *f, gconstpointer data)
{
  TressCurveViewport vp;
  int h = gtk_widget_get_height (GTK_WIDGET (f->view));

  if (!tress_test_pointer_available (f->window))
    return;
  act (f, "curve.select-key", "(uub)", (guint)TY, 2u, FALSE);
  tress_curve_view_get_viewport (f->view, &vp);
  tress_test_pointer_move (GTK_WIDGET (f->view), tress_curve_viewport_frame_to_x (&vp, 12.3),
                           h - 6);
  tress_test_pointer_button (1, TRUE);
  g_assert_cmpfloat (tress_curve_view_get_playhead (f->view), ==, 12);
  tress_test_pointer_move (GTK_WIDGET (f->view), tress_curve_viewport_frame_to_x (&vp, 20), h - 8);
  tress_test_pointer_move (GTK_WIDGET (f->view), tress_curve_viewport_frame_to_x (&vp, 31.8),
                           h - 30);
  g_assert_cmpfloat (tress_curve_view_get_playhead (f->view), ==, 32);
  tress_test_pointer_button (1, FALSE);
  g_assert_cmpfloat (tress_curve_view_get_playhead (f->view), ==, 32);
  g_assert_cmpuint (tress_curve_view_get_n_selected_keys (f->view), ==, 1);
  g_assert_true (tress_curve_view_is_selected (f->view, TY, 2, TRESS_CURVE_PART_KEY));
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 0);
}

static void
test_screenshot_selection_handles (Fixture *f, gconstpointer data)
{
  Shot shot;
  double x, y;
  int rgb[3];

  act (f, "curve.select-key", "(uub)", (guint)TX, 1u, FALSE);
  act (f, "curve.select-key", "(uub)", (guint)TX, 2u, TRUE);
  take_shot (f, &shot);
  /* A selected key is orange inside a white outline (it stands out on a red
   * curve too); an unselected one has its curve's colour. */
  point (f, TX, 1, TRESS_CURVE_PART_KEY, &x, &y);
  pixel (&shot, (int)x, (int)y, rgb);
  g_assert_true (near_color (rgb, 1.0, 0.55, 0.10, 12));
  pixel (&shot, (int)x + 4, (int)y, rgb);
  g_assert_true (near_color (rgb, 1, 1, 1, 12));
  point (f, TX, 3, TRESS_CURVE_PART_KEY, &x, &y);
  pixel (&shot, (int)x, (int)y, rgb);
  g_assert_true (near_color (rgb, 0.93, 0.26, 0.26, 12));
  /* The active key (the one clicked last, the key panel's) is white in an orange ring. */
  point (f, TX, 2, TRESS_CURVE_PART_KEY, &x, &y);
  pixel (&shot, (int)x, (int)y, rgb);
  g_assert_true (near_color (rgb, 1, 1, 1, 12));
  pixel (&shot, (int)x + 5, (int)y, rgb);
  g_assert_true (near_color (rgb, 1.0, 0.55, 0.10, 12));

  /* Hermite keys have handles (grey squares at a third of the segment)… */
  point (f, TZ, 1, TRESS_CURVE_PART_OUT_HANDLE, &x, &y);
  pixel (&shot, (int)x, (int)y, rgb);
  g_assert_true (near_color (rgb, 0.80, 0.80, 0.80, 12));
  /* …linear keys none: where RW key 1's out handle would be, nothing grey. */
  {
    TressCurveViewport vp;
    tress_curve_view_get_viewport (f->view, &vp);
    x = tress_curve_viewport_frame_to_x (&vp, 20 + 20.0 / 3);
    y = tress_curve_viewport_value_to_y (&vp, 1);
    g_assert_false (find_color (&shot, x, y, 3, 0.80, 0.80, 0.80, 12));
  }
  g_free (shot.data);
}

/* ------------------------------------------- curves that share keys -- */

/* A view on a real NIFF file (the SDK-style sample with every channel): the
 * components of one channel share their keys' frames and kinds, so an edit of
 * keys on two of them commits both without one undoing the other. */
typedef struct
{
  GBytes *original;
  TressCurveDocument *doc;
  GtkWidget *window;
  TressCurveView *view;
} NiffView;

static gboolean
niff_view_open (NiffView *v, const char *sample, const guint *curves, guint n)
{
  g_autoptr (GError) error = NULL;

  v->original = tress_test_load_sample (sample);
  if (v->original == NULL)
    return FALSE;
  tress_curve_document_register_types ();
  v->doc = TRESS_CURVE_DOCUMENT (tress_document_new_from_bytes (v->original, sample, &error));
  g_assert_no_error (error);
  v->view = TRESS_CURVE_VIEW (tress_curve_view_new ());
  tress_curve_view_set_document (v->view, v->doc);
  v->window = tress_test_present (GTK_WIDGET (v->view), 500, 400);
  tress_curve_view_set_curves (v->view, curves, n);
  return TRUE;
}

static void
niff_view_close (NiffView *v)
{
  tress_test_present_close (&v->window, &v->doc);
  g_clear_pointer (&v->original, g_bytes_unref);
}

/* The frames of a curve's keys, as "0 10 30". */
static char *
frames_of (NiffView *v, guint c)
{
  const TressCurve *curve = tress_curve_document_get_curve (v->doc, c);
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < tress_curve_get_n_keys (curve); i++)
    g_string_append_printf (s, "%s%g", i ? " " : "", tress_curve_get_key (curve, i)->frame);
  return g_string_free (s, FALSE);
}

static void
niff_act (NiffView *v, const char *name, GVariant *param)
{
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (v->view), name, param));
}

/* Translation X and Y of euler_hermite (curves 34, 35): keys at 0 10 20 30. */
static const guint translation[] = { 34, 35, 36 };

static void
test_shared_keys_delete (void)
{
  NiffView v = { 0 };
  g_autofree char *z = NULL, *all = NULL;
  g_autoptr (TressCurve) x_asked = NULL;
  g_autoptr (TressCurve) y_asked = NULL;
  g_autoptr (TressCurve) z_before = NULL;

  if (!niff_view_open (&v, "niff/synthetic-all-channels.nif", translation, 3))
    return;
  /* What deleting the keys asks for: X without its key at 10, Y without its
   * key at 20, Z untouched. */
  x_asked = tress_curve_copy (tress_curve_document_get_curve (v.doc, 34));
  tress_curve_remove_key (x_asked, 1);
  y_asked = tress_curve_copy (tress_curve_document_get_curve (v.doc, 35));
  tress_curve_remove_key (y_asked, 2);
  z_before = tress_curve_copy (tress_curve_document_get_curve (v.doc, 36));

  /* The records are shared by X, Y and Z: they stay while another component
   * needs them, and each curve gets the shape asked for. */
  tress_curve_view_select_key (v.view, 34, 1, TRESS_CURVE_PART_KEY, FALSE);
  tress_curve_view_select_key (v.view, 35, 2, TRESS_CURVE_PART_KEY, TRUE);
  niff_act (&v, "curve.delete", NULL);
  for (double f = 0; f <= 30; f += 0.5)
    {
      g_assert_cmpfloat_with_epsilon (
          tress_curve_evaluate (tress_curve_document_get_curve (v.doc, 34), f),
          tress_curve_evaluate (x_asked, f), 1e-5);
      g_assert_cmpfloat_with_epsilon (
          tress_curve_evaluate (tress_curve_document_get_curve (v.doc, 35), f),
          tress_curve_evaluate (y_asked, f), 1e-5);
      g_assert_cmpfloat_with_epsilon (
          tress_curve_evaluate (tress_curve_document_get_curve (v.doc, 36), f),
          tress_curve_evaluate (z_before, f), 1e-6);
    }
  z = frames_of (&v, 36);
  g_assert_cmpstr (z, ==, "0 10 20 30");
  /* One step, undone to the very bytes. */
  {
    TressHistory *h = tress_document_get_history (TRESS_DOCUMENT (v.doc));
    TressDocument *d = TRESS_DOCUMENT (v.doc);
    g_autoptr (GBytes) back = NULL;

    g_assert_cmpuint (tress_history_get_n_undo (h), ==, 1);
    g_assert_true (tress_history_undo (h));
    back = tress_document_get_format (d)->serialize (tress_document_get_model (d), NULL);
    tress_test_assert_bytes_equal (back, v.original);
  }

  /* The key at 10 deleted on all three components: no one needs the record. */
  for (guint i = 0; i < 3; i++)
    tress_curve_view_select_key (v.view, translation[i], 1, TRESS_CURVE_PART_KEY, i > 0);
  niff_act (&v, "curve.delete", NULL);
  all = g_strdup_printf ("%s|%s|%s", frames_of (&v, 34), frames_of (&v, 35), frames_of (&v, 36));
  g_assert_cmpstr (all, ==, "0 20 30|0 20 30|0 20 30");
  niff_view_close (&v);
}

static void
test_shared_keys_interpolation (void)
{
  NiffView v = { 0 };
  const TressCurve *c;

  if (!niff_view_open (&v, "niff/synthetic-all-channels.nif", translation, 3))
    return;
  tress_curve_view_select_key (v.view, 34, 1, TRESS_CURVE_PART_KEY, FALSE);
  tress_curve_view_select_key (v.view, 35, 2, TRESS_CURVE_PART_KEY, TRUE);
  niff_act (&v, "curve.set-interpolation", g_variant_new_string ("linear"));
  c = tress_curve_document_get_curve (v.doc, 36);
  g_assert_cmpint (tress_curve_get_key (c, 1)->interp, ==, TRESS_INTERP_LINEAR);
  g_assert_cmpint (tress_curve_get_key (c, 2)->interp, ==, TRESS_INTERP_LINEAR);
  g_assert_cmpint (tress_curve_get_key (c, 0)->interp, ==, TRESS_INTERP_HERMITE);
  niff_view_close (&v);
}

static void
test_shared_keys_move (void)
{
  NiffView v = { 0 };
  g_autofree char *x = NULL, *z = NULL;

  if (!niff_view_open (&v, "niff/synthetic-all-channels.nif", translation, 3))
    return;
  /* Nudged two frames later: both records move, every component with them. */
  tress_curve_view_select_key (v.view, 34, 1, TRESS_CURVE_PART_KEY, FALSE);
  tress_curve_view_select_key (v.view, 35, 2, TRESS_CURVE_PART_KEY, TRUE);
  niff_act (&v, "curve.nudge", g_variant_new ("(ii)", 1, 0));
  niff_act (&v, "curve.nudge", g_variant_new ("(ii)", 1, 0));
  x = frames_of (&v, 34);
  z = frames_of (&v, 36);
  g_assert_cmpstr (x, ==, "0 12 22 30");
  g_assert_cmpstr (z, ==, "0 12 22 30");
  niff_view_close (&v);
}

/* Fit keeps within its tolerance of the curve's shape: keys that are not
 * samples are sampled first, and a format that derives slopes (NIFF1 KEY
 * records, whose Hermite is an ease) gets linear keys. */
static void
test_fit_keeps_shape (void)
{
  static const guint rot_y[] = { 4 };
  NiffView v = { 0 };
  double before[30], worst = 0;
  const TressCurve *c;

  if (!niff_view_open (&v, "niff/3hedra.niff", rot_y, 1))
    return;
  c = tress_curve_document_get_curve (v.doc, 4);
  for (int f = 0; f < 30; f++)
    before[f] = tress_curve_evaluate (c, f);
  niff_act (&v, "curve.fit", g_variant_new_double (0.001));
  c = tress_curve_document_get_curve (v.doc, 4);
  for (int f = 0; f < 30; f++)
    worst = MAX (worst, fabs (tress_curve_evaluate (c, f) - before[f]));
  g_assert_cmpfloat (worst, <=, 0.001 + 1e-6);
  niff_view_close (&v);
}

/* Cubic BFRES keys pasted into a NIFF1 KEY curve (which derives its slopes)
 * would change shape: refused, nothing changes. */
static void
test_paste_into_derived_slopes (void)
{
  static const guint bass[] = { 23 }, tx[] = { 0 };
  NiffView b = { 0 }, n = { 0 };
  TressDocument *d;
  g_autoptr (GBytes) after = NULL;

  if (!niff_view_open (&b, "bfres/Animal_Bass_Animation.bfres", bass, 1))
    return;
  tress_curve_view_select_key (b.view, 23, 1, TRESS_CURVE_PART_KEY, FALSE);
  tress_curve_view_select_key (b.view, 23, 2, TRESS_CURVE_PART_KEY, TRUE);
  niff_act (&b, "curve.copy", NULL);
  g_assert_true (niff_view_open (&n, "niff/3hedra.niff", tx, 1));
  tress_curve_view_set_playhead (n.view, 40);
  niff_act (&n, "curve.paste", g_variant_new_boolean (TRUE));
  g_assert_nonnull (strstr (tress_curve_view_get_message (n.view), "stores no slopes"));
  d = TRESS_DOCUMENT (n.doc);
  g_assert_cmpuint (tress_history_get_n_undo (tress_document_get_history (d)), ==, 0);
  after = tress_document_get_format (d)->serialize (tress_document_get_model (d), NULL);
  tress_test_assert_bytes_equal (after, n.original);
  niff_view_close (&n);
  niff_view_close (&b);
}

/* NIFF1 KEY records: the final record cannot be deleted. Deleting it together
 * with another key is refused whole: nothing changes, no step is recorded. */
static void
test_shared_keys_refusal_changes_nothing (void)
{
  static const guint xy[] = { 0, 1 };
  NiffView v = { 0 };
  TressDocument *d;
  g_autoptr (GBytes) after = NULL;

  if (!niff_view_open (&v, "niff/3hedra.niff", xy, 2))
    return;
  d = TRESS_DOCUMENT (v.doc);
  tress_curve_view_select_key (v.view, 0, 2, TRESS_CURVE_PART_KEY, FALSE);
  tress_curve_view_select_key (v.view, 1, 4, TRESS_CURVE_PART_KEY, TRUE);
  niff_act (&v, "curve.delete", NULL);
  g_assert_nonnull (strstr (tress_curve_view_get_message (v.view), "refused"));
  g_assert_cmpuint (tress_history_get_n_undo (tress_document_get_history (d)), ==, 0);
  after = tress_document_get_format (d)->serialize (tress_document_get_model (d), NULL);
  tress_test_assert_bytes_equal (after, v.original);
  niff_view_close (&v);
}

/* Unwrap angles on a ring of Rings.niff (its X, Y, Z rotation and a
 * translation shown): the rotation loses its flips and jumps in one undo
 * step, the translation is left alone, and undo gives back the bytes. */
static void
test_unwrap_angles (void)
{
  static const guint ring[] = { 0, 1, 2, 3 }, translation_only[] = { 3 };
  NiffView v = { 0 };
  TressHistory *h;
  g_autoptr (TressCurve) t_before = NULL;
  g_autoptr (GBytes) back = NULL;
  TressDocument *d;

  if (!niff_view_open (&v, "niff/Rings.niff", ring, 4))
    return;
  d = TRESS_DOCUMENT (v.doc);
  h = tress_document_get_history (d);
  t_before = tress_curve_copy (tress_curve_document_get_curve (v.doc, 3));
  g_assert_true (tress_curve_view_unwrap_angles (v.view));
  g_assert_cmpuint (tress_history_get_n_undo (h), ==, 1);
  g_assert_cmpstr (tress_history_get_undo_label (h), ==, "Unwrap the angles of 3 curves");
  for (guint c = 0; c < 3; c++)
    for (double f = 0; f < 249; f += 1)
      {
        const TressCurve *now = tress_curve_document_get_curve (v.doc, c);
        g_assert_cmpfloat (fabs (tress_curve_evaluate (now, f + 1) - tress_curve_evaluate (now, f)),
                           <, 0.2);
      }
  g_assert_true (tress_curve_same_keys (tress_curve_document_get_curve (v.doc, 3), t_before));
  g_assert_true (tress_history_undo (h));
  back = tress_document_get_format (d)->serialize (tress_document_get_model (d), NULL);
  tress_test_assert_bytes_equal (back, v.original);

  /* Nothing to unwrap: said, and no step. */
  tress_curve_view_set_curves (v.view, translation_only, 1);
  g_assert_false (tress_curve_view_unwrap_angles (v.view));
  g_assert_nonnull (strstr (tress_curve_view_get_message (v.view), "No angle curves"));
  g_assert_cmpuint (tress_history_get_n_undo (h), ==, 0);
  niff_view_close (&v);
}

/* Unwrap Angles on one rotation channel shown alone (RotateX of the first
 * ring, whose changes between keys are all under half a turn): nothing to
 * do, and the status line says so; with key 14 set a turn up, the jump goes
 * in one step through the same operation as tress-cli unwrap, the view
 * frames the curve again, and the curve's hint to unwrap, shown while it has
 * the jump, is gone. */
static void
test_unwrap_one_channel (void)
{
  static const guint rotate_x[] = { 0 };
  NiffView v = { 0 };
  TressHistory *h;
  g_autoptr (TressCurve) before = NULL;
  g_autoptr (TressCurve) expected = NULL;
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GError) error = NULL;
  TressCurveViewport vp;
  TressKey k;

  if (!niff_view_open (&v, "niff/Rings.niff", rotate_x, 1))
    return;
  h = tress_document_get_history (TRESS_DOCUMENT (v.doc));
  before = tress_curve_copy (tress_curve_document_get_curve (v.doc, 0));
  g_assert_null (strstr (before->note, "not unwrapped"));
  g_assert_false (tress_curve_view_unwrap_angles (v.view));
  g_assert_cmpstr (tress_curve_view_get_message (v.view), ==,
                   "Unwrap Angles: nothing changed, no jump to remove in 1 angle curve");
  g_assert_cmpuint (tress_history_get_n_undo (h), ==, 0);

  k = *tress_curve_get_key (before, 14);
  k.value += 2 * G_PI;
  g_assert_true (tress_curve_view_set_key (v.view, 0, 14, &k, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (tress_curve_document_get_curve (v.doc, 0)->note,
                            "not unwrapped: Unwrap Angles removes their jumps"));
  /* What the core operation makes of it, as tress-cli unwrap runs it. */
  expected = tress_curve_copy (tress_curve_document_get_curve (v.doc, 0));
  g_assert_true (tress_curve_edit_unwrap (expected, keys, &error));
  tress_curve_view_get_viewport (v.view, &vp);
  vp.frame_min = 100;
  vp.frame_max = 110;
  vp.value_min = -5000;
  vp.value_max = 5000;
  tress_curve_view_set_viewport (v.view, &vp);

  g_assert_true (tress_curve_view_unwrap_angles (v.view));
  g_assert_cmpuint (tress_history_get_n_undo (h), ==, 2);
  g_assert_cmpstr (tress_history_get_undo_label (h), ==, "Unwrap the angles of 1 curve");
  {
    const TressCurve *now = tress_curve_document_get_curve (v.doc, 0);

    for (guint i = 0; i < tress_curve_get_n_keys (now); i++)
      {
        g_assert_cmpfloat_with_epsilon (tress_curve_get_key (now, i)->value,
                                        tress_curve_get_key (before, i)->value, 1e-6);
        g_assert_cmpfloat_with_epsilon (tress_curve_get_key (now, i)->value,
                                        tress_curve_get_key (expected, i)->value, 1e-6);
      }
    g_assert_null (strstr (now->note, "not unwrapped"));
  }
  /* Framed again, as Frame All does it. */
  {
    TressCurveViewport framed;

    tress_curve_view_get_viewport (v.view, &vp);
    niff_act (&v, "curve.frame-all", NULL);
    tress_curve_view_get_viewport (v.view, &framed);
    g_assert_cmpfloat (vp.frame_min, ==, framed.frame_min);
    g_assert_cmpfloat (vp.frame_max, ==, framed.frame_max);
    g_assert_cmpfloat (vp.value_min, ==, framed.value_min);
    g_assert_cmpfloat (vp.value_max, ==, framed.value_max);
    g_assert_cmpfloat (vp.value_max - vp.value_min, <, 1000);
  }
  niff_view_close (&v);
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  tress_fake_curves_register ();
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/curves/view/click-select", test_click_select);
  ADD ("/curves/view/box-select", test_box_select);
  ADD ("/curves/view/drag-key", test_drag_key);
  ADD ("/curves/view/drag-axis-lock-reorder", test_drag_axis_lock_and_reorder);
  ADD ("/curves/view/drag-handle", test_drag_handle);
  ADD ("/curves/view/nudge-scale", test_nudge_scale);
  ADD ("/curves/view/bool-values", test_bool_values);
  ADD ("/curves/view/insert-keeps-shape", test_insert_keeps_shape);
  ADD ("/curves/view/selection-follows-undo", test_selection_follows_undo);
  ADD ("/curves/view/delete-duplicate", test_delete_duplicate);
  ADD ("/curves/view/copy-paste", test_copy_paste);
  ADD ("/curves/view/interp-tangents", test_interp_tangents);
  ADD ("/curves/view/frame-zoom-pan", test_frame_zoom_pan);
  ADD ("/curves/view/normalized", test_normalized);
  ADD ("/curves/view/bake-fit", test_bake_fit);
  ADD ("/curves/view/playback", test_playback);
  ADD ("/curves/view/save-reopen", test_save_reopen);
  ADD ("/curves/view/screenshot-colors", test_screenshot_colors);
  ADD ("/curves/view/value-labels-over-curves", test_value_labels_over_curves);
  ADD ("/curves/view/screenshot-selection-handles", test_screenshot_selection_handles);
  ADD ("/curves/view/ruler-playhead-clear", test_ruler_playhead_clear);
  ADD ("/curves/view/drag-redraws", test_drag_redraws);
  ADD ("/curves/view/ruler-pointer", test_ruler_pointer);
  g_test_add_func ("/curves/view/shared-keys-delete", test_shared_keys_delete);
  g_test_add_func ("/curves/view/shared-keys-interpolation", test_shared_keys_interpolation);
  g_test_add_func ("/curves/view/shared-keys-move", test_shared_keys_move);
  g_test_add_func ("/curves/view/shared-keys-refusal", test_shared_keys_refusal_changes_nothing);
  g_test_add_func ("/curves/view/fit-keeps-shape", test_fit_keeps_shape);
  g_test_add_func ("/curves/view/paste-into-derived-slopes", test_paste_into_derived_slopes);
  g_test_add_func ("/curves/view/unwrap-angles", test_unwrap_angles);
  g_test_add_func ("/curves/view/unwrap-one-channel", test_unwrap_one_channel);
  return g_test_run ();
}
