/* test-curve-editor-bfres.c: the curve editor keeps a BFRES file's precision
 *
 * Runs under Xvfb, the editor in a 960x640 window on the shared
 * Animal_Bass_Animation.bfres (skipped without it). Opening it warns of
 * nothing; the key panel and the drag tooltip show the value the file stores
 * and its step; nudging keys 5-8 of "Put_Down/Spine_3/Rotate Y" (s8 keys)
 * leaves key 0 and every segment not meeting those keys byte-identical and
 * the file its size; a frame typed between the u8 frames it stores is refused
 * with the cost of a wider frame type, and widened only when asked; widening
 * the key type from the key panel grows the file by what its button says.
 * On the generated demo file, the key panel's slope fields are off, with the
 * reason, where the curve stores no slopes.
 * bfres-test-common.h reads the bytes independently of the parser.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "../bfres/bfres-test-common.h"
#include "curves/tress-curve-editor.h"
#include "formats/bfres/tress-bfres-builder.h"
#include "tress-editor.h"
#include "tress-test-utils.h"
#include "tress-test-window.h"

#define CURVE_PATH "Put_Down/Spine_3/Rotate Y"

static GBytes *
document_bytes (TressDocument *doc)
{
  g_autoptr (GError) error = NULL;
  GBytes *bytes
      = tress_document_get_format (doc)->serialize (tress_document_get_model (doc), &error);

  g_assert_no_error (error);
  return bytes;
}

/* The text of a button's label child. */
static const char *
button_text (GtkWidget *button)
{
  GtkWidget *child = gtk_button_get_child (GTK_BUTTON (button));

  return GTK_IS_LABEL (child) ? gtk_label_get_text (GTK_LABEL (child))
                              : gtk_button_get_label (GTK_BUTTON (button));
}

/* "… the file grows by N bytes" → N, or -1. */
static int
stated_growth (const char *text)
{
  const char *at = text != NULL ? strstr (text, "grows by ") : NULL;

  return at != NULL ? atoi (at + strlen ("grows by ")) : -1;
}

typedef struct
{
  char *near_text; /* the last text next to the pointer during the drag */
} DragWatch;

static void
on_drag_error_seen (TressCurveView *view, GParamSpec *pspec, DragWatch *w)
{
  char *t = tress_curve_view_dup_drag_error_text (view);

  if (t == NULL)
    return;
  g_free (w->near_text);
  w->near_text = t;
}

static gboolean
raise_to_400 (gpointer model, guint index, gpointer data, double *max_error, GError **error)
{
  return tress_format_bfres.curves->set_frame_count (model, index, 400, error);
}

/* @editor alone in a window of the default size (960×640), once its graph
 * has a size; *@window gets the window (tress_test_present_close() it after). */
static TressCurveView *
present_editor (TressCurveEditor *editor, GtkWidget **window)
{
  TressCurveView *view = tress_curve_editor_get_view (editor);

  *window = tress_test_present (GTK_WIDGET (editor), 960, 640);
  TRESS_TEST_WAIT_FOR (gtk_widget_get_width (GTK_WIDGET (view)) > 1);
  return view;
}

static void
test_bass (void)
{
  const char *rel = "bfres/Animal_Bass_Animation.bfres";
  g_autoptr (GBytes) original = tress_test_load_sample (rel);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressDocument) doc = NULL;
  g_autoptr (TressBfres) b = NULL;
  TressCurveDocument *cd;
  TressCurveEditor *editor;
  TressCurveView *view;
  TressHistory *history;
  GtkWidget *window, *widen, *widen_frames;
  TressBfresCurveInfo info;
  const guint8 *d;
  gsize size;
  int index = -1;
  RefCurve before;

  if (original == NULL)
    return;
  d = g_bytes_get_data (original, &size);
  g_assert_cmpuint (size, ==, 26260);
  tress_curve_editor_register ();
  doc = tress_document_new_from_bytes (original, rel, &error);
  g_assert_no_error (error);
  cd = TRESS_CURVE_DOCUMENT (doc);
  history = tress_document_get_history (doc);
  editor = TRESS_CURVE_EDITOR (tress_editor_create (doc));
  view = present_editor (editor, &window);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (view)), >, 100);

  /* Nobody edited the file: no curve is off, nothing is warned of. */
  for (guint i = 0; i < tress_curve_document_get_n_curves (cd); i++)
    {
      const TressCurve *c = tress_curve_document_get_curve (cd, i);

      g_assert_cmpfloat (tress_curve_document_get_quant_error (cd, i), ==, 0);
      if (c->path != NULL && g_str_has_suffix (c->path, CURVE_PATH))
        index = (int)i;
    }
  g_assert_null (tress_curve_editor_get_warning (editor));
  g_assert_cmpint (index, >=, 0);
  b = tress_bfres_parse (original, rel, &error);
  g_assert_no_error (error);
  g_assert_true (tress_bfres_get_curve_info (b, (guint)index, &info));
  ref_curve_read (d, info.header_pos, TRUE, &before);
  g_assert_cmpint (before.kt, ==, 2); /* s8 keys */
  g_assert_cmpint (before.ft, ==, 2); /* u8 frames */
  g_assert_cmpuint (before.n, ==, 18);
  {
    guint t = (guint)index;

    tress_curve_view_set_curves (view, &t, 1);
  }
  gtk_widget_activate_action (GTK_WIDGET (view), "curve.frame-all", NULL);
  g_assert_cmpint (tress_curve_editor_get_table_curve (editor), ==, index);

  /* The key panel: the stored value and the step, in the degrees the panel's
   * fields show the rotation in (not the radians the file stores), and finer
   * steps on request with their cost. */
  gtk_widget_activate_action (GTK_WIDGET (view), "curve.select-key", "(uub)", (guint)index, 2u,
                              FALSE);
  g_test_message ("key panel: %s", tress_curve_editor_get_key_panel_text (editor));
  {
    const TressCurve *c = tress_curve_document_get_curve (cd, (guint)index);
    const TressKey *k = tress_curve_get_key (c, 2);
    gboolean fits = FALSE;
    g_autofree char *want = g_strdup_printf ("step %.4g°", before.scale * 180 / G_PI);
    g_autofree char *want_value = g_strdup_printf (
        "Stored %.7g°", tress_curve_stored_value (c, k->value, &fits) * 180 / G_PI);

    g_assert_true (c->angle);
    g_assert_true (fits);
    g_assert_nonnull (strstr (tress_curve_editor_get_key_panel_text (editor), want));
    g_assert_nonnull (strstr (tress_curve_editor_get_key_panel_text (editor), want_value));
    /* The value field shows the same degrees. */
    g_assert_cmpfloat_with_epsilon (gtk_spin_button_get_value (GTK_SPIN_BUTTON (
                                        tress_test_find_named (GTK_WIDGET (editor), "value"))),
                                    k->value * 180 / G_PI, 1e-3);
  }
  g_assert_nonnull (strstr (tress_curve_editor_get_key_panel_text (editor), "Stored "));
  /* Seen without scrolling the key panel at this size: in the value field's
   * tooltip and the status line. */
  {
    GtkWidget *value = tress_test_find_named (GTK_WIDGET (editor), "value");
    GtkWidget *status = tress_test_find_named (GTK_WIDGET (editor), "status");
    GtkWidget *summary = gtk_widget_get_first_child (status);

    g_assert_nonnull (value);
    g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (value), "Stored "));
    g_assert_true (GTK_IS_LABEL (summary));
    g_test_message ("status line: %s", gtk_label_get_text (GTK_LABEL (summary)));
    g_assert_nonnull (
        strstr (gtk_label_get_text (GTK_LABEL (summary)), "1 key selected · Stored "));
  }
  widen = tress_test_find_named (GTK_WIDGET (editor), "widen");
  g_assert_nonnull (widen);
  g_assert_true (gtk_widget_get_visible (widen));
  g_test_message ("widen button: %s", button_text (widen));
  g_assert_nonnull (strstr (button_text (widen), "16-bit keys"));
  g_assert_cmpint (stated_growth (button_text (widen)), >, 0);

  /* Nudging keys 5-8 down by one stored step (Alt+Down; the move fits the
   * stored range):
   * key 0 and every segment that neither starts nor ends at one of them stay
   * byte for byte, and so does the rest of the file. */
  {
    const TressCurve *c = tress_curve_document_get_curve (cd, (guint)index);
    TressKey key0 = *tress_curve_get_key (c, 0);
    double was[18], asked;
    g_autoptr (GBytes) after = NULL, undone = NULL;
    const guint8 *da;
    gsize sa;
    RefCurve now;
    TressCurveViewport vp;

    for (guint k = 0; k < before.n; k++)
      was[k] = ref_elem (&before, 4 * k) * before.scale + before.offset;
    tress_curve_view_get_viewport (view, &vp);
    /* In the units shown: degrees for rotations. */
    vp.value_min = (was[6] - 5 * before.scale) * tress_curve_view_get_display_scale (view, index);
    vp.value_max = (was[6] + 5 * before.scale) * tress_curve_view_get_display_scale (view, index);
    tress_curve_view_set_viewport (view, &vp);
    for (guint k = 5; k <= 8; k++)
      gtk_widget_activate_action (GTK_WIDGET (view), "curve.select-key", "(uub)", (guint)index, k,
                                  k > 5);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "curve.nudge-stored", "i", -1));
    g_assert_cmpuint (tress_history_get_n_undo (history), ==, 1);
    c = tress_curve_document_get_curve (cd, (guint)index);
    asked = was[5] - (was[5] - tress_curve_get_key (c, 5)->value);
    after = document_bytes (doc);
    da = g_bytes_get_data (after, &sa);
    g_assert_cmpuint (sa, ==, size);
    ref_curve_read (da, info.header_pos, TRUE, &now);
    g_assert_cmpmem (da + info.header_pos, 0x24, d + info.header_pos, 0x24);
    for (guint s = 0; s < before.n; s++)
      if (s + 1 < 5 || s > 8)
        g_assert_cmpmem (now.keys + 4 * s, 4, before.keys + 4 * s, 4);
    g_assert_cmpmem (tress_curve_get_key (c, 0), sizeof key0, &key0, sizeof key0);
    for (guint k = 5; k <= 8; k++)
      {
        double v = ref_elem (&now, 4 * k) * now.scale + now.offset;

        g_test_message ("key %u: %g -> %g", k, was[k], v);
        g_assert_cmpfloat (fabs (v - (was[k] - before.scale)), <=, before.scale * 1e-3);
        g_assert_cmpfloat (fabs (v - tress_curve_get_key (c, k)->value), <=, 1e-6);
      }
    (void)asked;
    /* Nothing else in the file moved. */
    for (gsize i = 0; i < size; i++)
      if (da[i] != d[i] && !(da + i >= now.keys && da + i < now.keys + 4 * before.n))
        g_error ("byte 0x%" G_GSIZE_MODIFIER "x outside the curve's keys changed", i);
    g_assert_true (tress_history_undo (history));
    undone = document_bytes (doc);
    tress_test_assert_bytes_equal (undone, original);
    tress_history_clear (history);
  }

  /* Ten nudges up (Shift+Up) with the whole curve in view move the keys by
   * about 17 steps, which the stored range holds, but segment 8's c2 is at
   * -127 already: that segment keeps its ends and its slopes give, said in the
   * status line; the scale, offset and types stay, the file keeps its size,
   * and key 0 keeps its value. */
  {
    const TressCurve *c = tress_curve_document_get_curve (cd, (guint)index);
    TressKey key0 = *tress_curve_get_key (c, 0);
    g_autoptr (GBytes) after = NULL, undone = NULL;
    const guint8 *da;
    gsize sa;
    RefCurve now;
    double v0;

    gtk_widget_activate_action (GTK_WIDGET (view), "curve.frame-all", NULL);
    for (guint k = 5; k <= 8; k++)
      gtk_widget_activate_action (GTK_WIDGET (view), "curve.select-key", "(uub)", (guint)index, k,
                                  k > 5);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "curve.nudge", "(ii)", 0, 10));
    g_assert_cmpuint (tress_history_get_n_undo (history), ==, 1);
    g_test_message ("status: %s", tress_curve_view_get_message (view));
    g_assert_nonnull (tress_curve_view_get_message (view));
    g_assert_nonnull (strstr (tress_curve_view_get_message (view), "slopes moved by up to"));
    /* In the unit the rotation is shown in, as everything else on screen. */
    g_assert_nonnull (strstr (tress_curve_view_get_message (view), "° a frame"));
    after = document_bytes (doc);
    da = g_bytes_get_data (after, &sa);
    g_assert_cmpuint (sa, ==, size);
    ref_curve_read (da, info.header_pos, TRUE, &now);
    g_assert_cmpint (now.kt, ==, before.kt);
    g_assert_cmpint (now.ft, ==, before.ft);
    g_assert_cmpfloat (now.scale, ==, before.scale);
    g_assert_cmpfloat (now.offset, ==, before.offset);
    v0 = ref_elem (&now, 0) * now.scale + now.offset;
    g_assert_cmpfloat (v0, ==, key0.value);
    g_assert_cmpfloat (ref_elem (&now, 4 * 5), >, ref_elem (&before, 4 * 5) + 10);
    g_assert_cmpfloat (
        tress_curve_get_key (tress_curve_document_get_curve (cd, (guint)index), 0)->frame, ==,
        key0.frame);
    g_assert_true (tress_history_undo (history));
    undone = document_bytes (doc);
    tress_test_assert_bytes_equal (undone, original);
    /* Undone, the curve is as it was: the line about its new step goes. */
    g_assert_null (tress_curve_view_get_message (view));
    tress_history_clear (history);
  }

  /* The drag tooltip: the value the file would store for the grabbed key, and
   * the step. */
  {
    DragWatch watch = { 0 };
    gulong id;
    double x, y, key2_before;

    gtk_widget_activate_action (GTK_WIDGET (view), "curve.frame-all", NULL);
    g_assert_true (
        tress_curve_view_get_point (view, (guint)index, 2, TRESS_CURVE_PART_KEY, &x, &y));
    key2_before = tress_curve_get_key (tress_curve_document_get_curve (cd, (guint)index), 2)->value
                  * 180 / G_PI;
    id = g_signal_connect (view, "notify::drag-error", G_CALLBACK (on_drag_error_seen), &watch);
    gtk_widget_activate_action (GTK_WIDGET (view), "curve.drag", "(ddddb)", x, y, x, y - 12, FALSE);
    g_signal_handler_disconnect (view, id);
    g_test_message ("drag tooltip: %s", watch.near_text ? watch.near_text : "(none)");
    g_assert_nonnull (watch.near_text);
    g_assert_nonnull (strstr (watch.near_text, "Stored "));
    g_assert_nonnull (strstr (watch.near_text, "step"));
    /* The stored value, its step and the error in degrees, as the graph shows
     * the rotation: "Stored 12.3456° (step 0.0123°) · Stored error 0.004°". */
    {
      g_auto (GStrv) parts = g_strsplit (watch.near_text, "·", -1);
      double shown = g_ascii_strtod (watch.near_text + strlen ("Stored "), NULL);
      const TressCurve *c = tress_curve_document_get_curve (cd, (guint)index);
      /* What the key is stored as after the drag, in the graph's degrees
       * (not radians, 57 times smaller), up to 12 pixels up from where it was. */
      double now = tress_curve_get_key (c, 2)->value * 180 / G_PI;
      double px12;
      TressCurveViewport vp;

      g_assert_cmpuint (g_strv_length (parts), ==, 2);
      g_assert_nonnull (strstr (parts[0], "° (step "));
      g_assert_true (g_str_has_suffix (g_strstrip (parts[0]), "°)"));
      g_assert_true (g_str_has_suffix (g_strstrip (parts[1]), "°"));
      tress_curve_view_get_viewport (view, &vp);
      px12 = 12 * (vp.value_max - vp.value_min) / vp.height;
      g_test_message ("key 2 from %g° to %g°, shown stored %g°, 12 px = %g°", key2_before, now,
                      shown, px12);
      g_assert_cmpfloat (fabs (shown - now), <=, before.scale * 180 / G_PI);
      g_assert_cmpfloat (shown, >, key2_before);
      g_assert_cmpfloat (shown, <=, key2_before + px12 + before.scale * 180 / G_PI);
    }
    g_assert_null (strstr (watch.near_text, "over the tolerance"));
    g_free (watch.near_text);
    /* Within the curve's own precision: no warning after it either. */
    g_assert_null (tress_curve_editor_get_warning (editor));
    g_assert_cmpuint (tress_history_get_n_undo (history), ==, 1);
    g_assert_true (tress_history_undo (history));
    tress_history_clear (history);
  }

  /* A frame between the whole frames the curve stores: refused, the cost of
   * a wider frame type said, nothing widened until asked. */
  {
    const TressCurve *c = tress_curve_document_get_curve (cd, (guint)index);
    double f3 = tress_curve_get_key (c, 3)->frame, f4 = tress_curve_get_key (c, 4)->frame;
    char text[G_ASCII_DTOSTR_BUF_SIZE];
    g_autoptr (GBytes) unchanged = NULL, widened = NULL, undone = NULL;
    const char *cost = NULL;
    int growth;

    g_assert_cmpfloat (f4 - f3, >, 0.5);
    g_ascii_formatd (text, sizeof text, "%g", f3 + 0.5);
    g_assert_false (tress_curve_editor_edit_cell (editor, 3, "frame", text, &error));
    g_test_message ("frame %s: %s", text, error->message);
    g_clear_error (&error);
    g_assert_cmpuint (tress_history_get_n_undo (history), ==, 0);
    unchanged = document_bytes (doc);
    tress_test_assert_bytes_equal (unchanged, original);
    g_assert_true (tress_curve_view_get_frame_widening (view, &cost));
    g_assert_nonnull (strstr (cost, "s10.5"));
    g_assert_nonnull (strstr (tress_curve_view_get_message (view), "between the frames"));
    widen_frames = tress_test_find_named (GTK_WIDGET (editor), "widen-frames");
    g_assert_nonnull (widen_frames);
    g_assert_true (gtk_widget_get_visible (widen_frames));
    g_assert_cmpstr (gtk_widget_get_tooltip_text (widen_frames), ==, cost);
    growth = stated_growth (cost);
    g_assert_cmpint (growth, >, 0);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (editor), "curves.widen-frames", NULL));
    g_assert_cmpuint (tress_history_get_n_undo (history), ==, 1);
    g_assert_false (tress_curve_view_get_frame_widening (view, NULL));
    g_assert_false (gtk_widget_get_visible (widen_frames));
    c = tress_curve_document_get_curve (cd, (guint)index);
    g_assert_cmpfloat (tress_curve_get_key (c, 3)->frame, ==, f3 + 0.5);
    widened = document_bytes (doc);
    g_assert_cmpuint (g_bytes_get_size (widened), ==, size + (gsize)growth);
    {
      g_autoptr (TressBfres) wb = tress_bfres_parse (widened, rel, &error);
      TressBfresCurveInfo wi;

      g_assert_no_error (error);
      g_assert_true (tress_bfres_get_curve_info (wb, (guint)index, &wi));
      g_assert_cmpint (wi.frame_type, ==, TRESS_BFRES_FRAME_S10_5);
      g_assert_cmpint (wi.key_type, ==, info.key_type);
    }
    g_assert_true (tress_history_undo (history));
    undone = document_bytes (doc);
    tress_test_assert_bytes_equal (undone, original);
    tress_history_clear (history);
  }

  /* The last key (frame 20) typed to frame 300: past the animation's end and
   * beyond what u8 frames hold. The refusal offers the longer animation and
   * says that the frames widen and what that costs; asked, both happen as one
   * step, and the file grows by the stated bytes. */
  {
    guint last = before.n - 1;
    g_autoptr (GBytes) widened = NULL, undone = NULL;
    double end = 0;
    const char *m;
    int growth;

    g_assert_false (tress_curve_editor_edit_cell (editor, last, "frame", "300", &error));
    g_clear_error (&error);
    m = tress_curve_view_get_message (view);
    g_test_message ("frame 300: %s", m);
    g_assert_nonnull (strstr (m, "past the end"));
    g_assert_nonnull (strstr (m, "with wider frames (Frames in steps of 1/32 (s10.5)"));
    g_assert_true (tress_curve_view_get_pending_end (view, &end));
    g_assert_cmpfloat (end, ==, 300);
    growth = stated_growth (m);
    g_assert_cmpint (growth, >, 0);
    g_assert_cmpuint (tress_history_get_n_undo (history), ==, 0);
    g_assert_true (
        gtk_widget_activate_action (GTK_WIDGET (editor), "curves.lengthen-animation", NULL));
    g_assert_cmpuint (tress_history_get_n_undo (history), ==, 1);
    g_assert_cmpfloat (
        tress_curve_get_key (tress_curve_document_get_curve (cd, (guint)index), last)->frame, ==,
        300);
    widened = document_bytes (doc);
    g_assert_cmpuint (g_bytes_get_size (widened), ==, size + (gsize)growth);
    {
      g_autoptr (TressBfres) wb = tress_bfres_parse (widened, rel, &error);
      TressBfresCurveInfo wi;

      g_assert_no_error (error);
      g_assert_true (tress_bfres_get_curve_info (wb, (guint)index, &wi));
      g_assert_cmpint (wi.frame_type, ==, TRESS_BFRES_FRAME_S10_5);
      g_assert_cmpint (wi.key_type, ==, info.key_type);
    }
    g_assert_true (tress_history_undo (history));
    undone = document_bytes (doc);
    tress_test_assert_bytes_equal (undone, original);
    tress_history_clear (history);
  }

  /* Within a 400-frame animation, frame 300 is no longer past the end, but
   * u8 frames still cannot hold it: refused with the cost of s10.5 frames,
   * widened only when asked. */
  {
    guint last = before.n - 1;
    g_autoptr (GBytes) longer = NULL, widened = NULL, undone = NULL;
    const char *cost = NULL;
    int growth;

    g_assert_true (tress_curve_document_apply_model_edit (cd, (guint)index, "Lengthen",
                                                          raise_to_400, NULL, &error));
    g_assert_no_error (error);
    longer = document_bytes (doc);
    g_assert_false (tress_curve_editor_edit_cell (editor, last, "frame", "300", &error));
    g_clear_error (&error);
    g_test_message ("frame 300 of 400: %s", tress_curve_view_get_message (view));
    g_assert_nonnull (strstr (tress_curve_view_get_message (view), "beyond the frames"));
    g_assert_false (tress_curve_view_get_pending_end (view, NULL));
    g_assert_true (tress_curve_view_get_frame_widening (view, &cost));
    g_assert_nonnull (strstr (cost, "s10.5"));
    growth = stated_growth (cost);
    g_assert_cmpuint (tress_history_get_n_undo (history), ==, 1);
    {
      g_autoptr (GBytes) same = document_bytes (doc);

      tress_test_assert_bytes_equal (same, longer);
    }
    g_assert_true (gtk_widget_get_visible (widen_frames));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (editor), "curves.widen-frames", NULL));
    g_assert_cmpuint (tress_history_get_n_undo (history), ==, 2);
    g_assert_cmpfloat (
        tress_curve_get_key (tress_curve_document_get_curve (cd, (guint)index), last)->frame, ==,
        300);
    widened = document_bytes (doc);
    g_assert_cmpuint (g_bytes_get_size (widened), ==, g_bytes_get_size (longer) + (gsize)growth);
    g_assert_true (tress_history_undo (history));
    g_assert_true (tress_history_undo (history));
    undone = document_bytes (doc);
    tress_test_assert_bytes_equal (undone, original);
    tress_history_clear (history);
  }

  /* Finer steps from the key panel: the file grows by what the button says. */
  {
    g_autoptr (GBytes) widened = NULL, undone = NULL;
    int growth;

    gtk_widget_activate_action (GTK_WIDGET (view), "curve.select-key", "(uub)", (guint)index, 2u,
                                FALSE);
    while (g_main_context_iteration (NULL, FALSE))
      ;
    growth = stated_growth (button_text (widen));
    g_assert_cmpint (growth, >, 0);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (editor), "curves.widen-key-type", NULL));
    g_assert_cmpuint (tress_history_get_n_undo (history), ==, 1);
    widened = document_bytes (doc);
    g_assert_cmpuint (g_bytes_get_size (widened), ==, size + (gsize)growth);
    {
      g_autoptr (TressBfres) wb = tress_bfres_parse (widened, rel, &error);
      TressBfresCurveInfo wi;

      g_assert_no_error (error);
      g_assert_true (tress_bfres_get_curve_info (wb, (guint)index, &wi));
      g_assert_cmpint (wi.key_type, ==, TRESS_BFRES_KEY_S16);
      g_assert_cmpint (wi.frame_type, ==, info.frame_type);
    }
    /* The panel now offers the next step, 32-bit keys. */
    TRESS_TEST_WAIT_FOR (strstr (button_text (widen), "32-bit") != NULL);
    g_test_message ("widen button now: %s", button_text (widen));
    g_assert_nonnull (strstr (button_text (widen), "32-bit"));
    g_assert_true (tress_history_undo (history));
    undone = document_bytes (doc);
    tress_test_assert_bytes_equal (undone, original);
  }

  tress_test_present_close (&window, &doc);
}

/* The key panel's slope fields on the demo file: a StepInt curve stores no
 * slopes, so neither field is editable and each says why; a Cubic curve's
 * are, and say nothing. */
static void
test_slope_fields (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) demo = tress_bfres_build_demo (&error);
  g_autoptr (TressDocument) doc = NULL;
  TressCurveDocument *cd;
  TressCurveEditor *editor;
  TressCurveView *view;
  GtkWidget *window, *in, *out;
  int step = -1, cubic = -1;

  g_assert_no_error (error);
  tress_curve_editor_register ();
  doc = tress_document_new_from_bytes (demo, "demo.bfres", &error);
  g_assert_no_error (error);
  cd = TRESS_CURVE_DOCUMENT (doc);
  for (guint i = 0; i < tress_curve_document_get_n_curves (cd); i++)
    {
      const TressCurve *c = tress_curve_document_get_curve (cd, i);

      if (g_strcmp0 (c->path, "Eyes/Face/_a0") == 0)
        step = (int)i;
      else if (g_strcmp0 (c->path, "Wave/Arm_L/Rotate Z") == 0)
        cubic = (int)i;
    }
  g_assert_cmpint (step, >=, 0);
  g_assert_cmpint (cubic, >=, 0);
  editor = TRESS_CURVE_EDITOR (tress_editor_create (doc));
  view = present_editor (editor, &window);
  in = tress_test_find_named (GTK_WIDGET (editor), "in");
  out = tress_test_find_named (GTK_WIDGET (editor), "out");
  g_assert_nonnull (in);
  g_assert_nonnull (out);
  {
    guint shown[] = { (guint)step, (guint)cubic };

    tress_curve_view_set_curves (view, shown, 2);
  }
  gtk_widget_activate_action (GTK_WIDGET (view), "curve.select-key", "(uub)", (guint)step, 1u,
                              FALSE);
  g_assert_false (gtk_widget_get_sensitive (in));
  g_assert_false (gtk_widget_get_sensitive (out));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (in), ==, "a StepInt curve stores no slopes");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (out), ==, "a StepInt curve stores no slopes");
  gtk_widget_activate_action (GTK_WIDGET (view), "curve.select-key", "(uub)", (guint)cubic, 1u,
                              FALSE);
  g_assert_true (gtk_widget_get_sensitive (in));
  g_assert_true (gtk_widget_get_sensitive (out));
  g_assert_null (gtk_widget_get_tooltip_text (in));
  g_assert_null (gtk_widget_get_tooltip_text (out));

  tress_test_present_close (&window, &doc);
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/curves/editor-bfres/bass", test_bass);
  g_test_add_func ("/curves/editor-bfres/slope-fields", test_slope_fields);
  return g_test_run ();
}
