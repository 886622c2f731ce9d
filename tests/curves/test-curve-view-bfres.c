/* test-curve-view-bfres.c: the curve view's drag path on the shared BFRES files
 *
 * Runs under Xvfb. One key of 50 s8 and s16 cubic curves is dragged with the
 * view's "curve.drag" action (the path a pointer drag takes) by 2.37 of the
 * curve's steps, less than its stored range holds; the document's bytes then
 * keep the file's size, types, scale and offset, every segment not meeting at
 * the key, and the value lands within half a step (bfres-test-common.h reads
 * the bytes independently). Each drag is one undo step that gives the original
 * bytes back.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../bfres/bfres-test-common.h"
#include "curves/tress-curve-store-question.h"
#include "curves/tress-curve-view.h"
#include "document/tress-curve-document.h"
#include "tress-test-utils.h"
#include "tress-test-window.h"

static GBytes *
document_bytes (TressCurveDocument *doc)
{
  TressDocument *d = TRESS_DOCUMENT (doc);
  g_autoptr (GError) error = NULL;
  GBytes *bytes = tress_document_get_format (d)->serialize (tress_document_get_model (d), &error);

  g_assert_no_error (error);
  return bytes;
}

/* A view of @doc alone in a window of @width × @height, once it has that
 * size; *@window gets the window (tress_test_present_close() it after). */
static TressCurveView *
present_view (TressCurveDocument *doc, int width, int height, GtkWidget **window)
{
  TressCurveView *view = TRESS_CURVE_VIEW (tress_curve_view_new ());

  tress_curve_view_set_document (view, doc);
  *window = tress_test_present (GTK_WIDGET (view), width, height);
  return view;
}

/* Drags key @k of curve @index by @steps of its stored step: the view shows
 * that curve alone with 8 pixels a step, so the drag is a whole number of
 * pixels, straight up or down (the frame stays). */
static void
drag_by_steps (TressCurveView *view, TressCurveDocument *doc, guint index, guint k, double steps)
{
  const TressCurve *c = tress_curve_document_get_curve (doc, index);
  const TressKey *key = tress_curve_get_key (c, k);
  TressCurveViewport vp;
  double x, y, px = 8 * steps, ds;

  tress_curve_view_set_curves (view, &index, 1);
  ds = tress_curve_view_get_display_scale (view, index);
  tress_curve_view_get_viewport (view, &vp);
  vp.frame_min = key->frame - 10;
  vp.frame_max = key->frame + 10;
  /* In the units shown: degrees for rotations (BFRES Euler angles). */
  vp.value_min = (key->value - c->value_step * vp.height / 16) * ds;
  vp.value_max = (key->value + c->value_step * vp.height / 16) * ds;
  tress_curve_view_set_viewport (view, &vp);
  g_assert_true (tress_curve_view_get_point (view, index, k, TRESS_CURVE_PART_KEY, &x, &y));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "curve.drag", "(ddddb)", x, y, x,
                                             y - px, FALSE));
}

static void
test_drag_keeps_precision (void)
{
  static const struct
  {
    const char *file;
    guint stride, want;
  } files[] = { { "bfres/Animal_Bass_Animation.bfres", 4, 20 },
                { "bfres/Animal_Dog_Animation.bfres", 149, 30 } };
  guint done = 0;

  tress_curve_document_register_types ();
  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autoptr (GBytes) original = tress_test_load_sample (files[f].file);
      g_autoptr (GError) error = NULL;
      g_autoptr (TressCurveDocument) doc = NULL;
      TressHistory *history;
      TressCurveView *view;
      GtkWidget *window;
      const guint8 *d;
      guint picked = 0;

      if (original == NULL)
        return;
      d = g_bytes_get_data (original, NULL);
      doc = TRESS_CURVE_DOCUMENT (tress_document_new_from_bytes (original, files[f].file, &error));
      g_assert_no_error (error);
      history = tress_document_get_history (TRESS_DOCUMENT (doc));
      view = present_view (doc, 500, 400, &window);

      for (guint i = 0; i < tress_curve_document_get_n_curves (doc) && picked < files[f].want;
           i += files[f].stride)
        {
          g_autoptr (TressBfres) b = tress_bfres_parse (original, files[f].file, &error);
          g_autoptr (GBytes) after = NULL, undone = NULL;
          g_autoptr (TressCurve) before = NULL;
          TressBfresCurveInfo info;
          RefCurve rc;
          guint k;
          double steps, want;

          g_assert_no_error (error);
          tress_bfres_get_curve_info (b, i, &info);
          ref_curve_read (d, info.header_pos, TRUE, &rc);
          if (!ref_pick_edit (&rc, 2.37, &k, &steps))
            continue;
          /* 2.37 steps are 18.96 pixels: the drag moves by 19, 2.375 steps. */
          steps = round (8 * steps) / 8;
          want = tress_curve_get_key (tress_curve_document_get_curve (doc, i), k)->value
                 + steps * rc.scale;
          before = tress_curve_copy (tress_curve_document_get_curve (doc, i));
          drag_by_steps (view, doc, i, k, steps);
          g_assert_cmpuint (tress_history_get_n_undo (history), ==, 1);
          {
            g_autofree char *label = g_strdup_printf ("Move 1 key of %s", bfres_test_path (b, i));

            g_assert_cmpstr (tress_history_get_undo_label (history), ==, label);
          }
          after = document_bytes (doc);
          ref_check_local_edit (original, info.header_pos, after, info.header_pos, k, want);
          /* The view shows what the file stores: the step nearest the value
           * asked for. */
          g_assert_cmpfloat (
              tress_curve_get_key (tress_curve_document_get_curve (doc, i), k)->value, ==,
              tress_curve_stored_value (before, want, NULL));
          g_assert_cmpfloat (tress_curve_document_get_quant_error (doc, i), <=,
                             rc.scale / 2 * (1 + 1e-6));
          g_assert_true (tress_history_undo (history));
          undone = document_bytes (doc);
          tress_test_assert_bytes_equal (undone, original);
          tress_history_clear (history);
          picked++;
        }
      g_assert_cmpuint (picked, ==, files[f].want);
      done += picked;
      tress_test_present_close (&window, &doc);
    }
  g_assert_cmpuint (done, ==, 50);
}

/* The question a lossy store asks, if it is on screen. */
static GtkWidget *
shown_question (void)
{
  GListModel *tops = gtk_window_get_toplevels ();

  for (guint t = 0; t < g_list_model_get_n_items (tops); t++)
    {
      g_autoptr (GtkWidget) w = g_list_model_get_item (tops, t);

      if (GTK_IS_MESSAGE_DIALOG (w) && gtk_widget_get_mapped (w))
        return w;
    }
  return NULL;
}

/* The question, once it is on screen. */
static GtkWidget *
find_question (void)
{
  GtkWidget *dialog;

  TRESS_TEST_WAIT_FOR ((dialog = shown_question ()) != NULL);
  return dialog;
}

static const char *
button_label (GtkWidget *dialog, int response)
{
  GtkWidget *b = gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), response);

  g_assert_nonnull (b);
  return gtk_button_get_label (GTK_BUTTON (b));
}

/* Drags key 1 of Dog's s8 curve Damage/Spine_1/Rotate X about 140° up, far
 * outside what its step (0.008°) holds, at 960×640: the editor asks before
 * storing, with both costs. Cancel leaves the file as it was; Widen (the
 * default) stores 32-bit float keys, every other key within half its old step
 * and the file grown by the bytes the question said; Keep stays s8 with a
 * coarser step. Each is one undo step back to the original bytes. */
static void
test_far_drag_asks (void)
{
  const char *file = "bfres/Animal_Dog_Animation.bfres";
  g_autoptr (GBytes) original = tress_test_load_sample (file);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressCurveDocument) doc = NULL;
  g_autoptr (TressBfres) b = NULL;
  TressBfresCurveInfo info;
  TressHistory *history;
  TressCurveView *view;
  GtkWidget *window;
  RefCurve rc;
  int index;

  if (original == NULL)
    return;
  tress_curve_document_register_types ();
  b = tress_bfres_parse (original, file, &error);
  g_assert_no_error (error);
  index = tress_bfres_find_curve (b, "Damage/Spine_1/Rotate X");
  g_assert_cmpint (index, >=, 0);
  tress_bfres_get_curve_info (b, (guint)index, &info);
  ref_curve_read (g_bytes_get_data (original, NULL), info.header_pos, TRUE, &rc);
  g_assert_cmpuint (rc.kt, ==, 2);
  doc = TRESS_CURVE_DOCUMENT (tress_document_new_from_bytes (original, file, &error));
  g_assert_no_error (error);
  history = tress_document_get_history (TRESS_DOCUMENT (doc));
  view = present_view (doc, 960, 640, &window);

  for (int answer = 0; answer < 3; answer++)
    {
      const int responses[]
          = { GTK_RESPONSE_CANCEL, TRESS_STORE_RESPONSE_WIDEN, TRESS_STORE_RESPONSE_KEEP };
      const TressCurve *c = tress_curve_document_get_curve (doc, (guint)index);
      const TressKey *key = tress_curve_get_key (c, 1);
      g_autoptr (GBytes) after = NULL, undone = NULL;
      GtkWidget *dialog, *button;
      TressCurveViewport vp;
      double x, y, ds, grows = 0;
      guint gi = (guint)index;
      RefCurve ac;

      tress_curve_view_set_curves (view, &gi, 1);
      ds = tress_curve_view_get_display_scale (view, gi);
      tress_curve_view_get_viewport (view, &vp);
      vp.frame_min = key->frame - 5;
      vp.frame_max = key->frame + 5;
      vp.value_min = (key->value - 0.5) * ds;
      vp.value_max = (key->value + 3) * ds;
      tress_curve_view_set_viewport (view, &vp);
      g_assert_true (tress_curve_view_get_point (view, gi, 1, TRESS_CURVE_PART_KEY, &x, &y));
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "curve.drag", "(ddddb)", x, y,
                                                 x, y - 0.7 * vp.height, FALSE));
      dialog = find_question ();
      g_assert_nonnull (dialog);
      /* Nothing is stored while the question is up. */
      g_assert_cmpuint (tress_history_get_n_undo (history), ==, 0);
      g_assert_cmpstr (button_label (dialog, TRESS_STORE_RESPONSE_KEEP), ==, "Keep s8");
      g_assert_cmpstr (button_label (dialog, TRESS_STORE_RESPONSE_WIDEN), ==,
                       "Widen to 32-bit float");
      g_assert_true (
          gtk_window_get_default_widget (GTK_WINDOW (dialog))
          == gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), TRESS_STORE_RESPONSE_WIDEN));
      {
        GValue v = G_VALUE_INIT;
        const char *text, *at;

        g_value_init (&v, G_TYPE_STRING);
        g_object_get_property (G_OBJECT (dialog), "secondary-text", &v);
        text = g_value_get_string (&v);
        g_test_message ("%s", text);
        g_assert_nonnull (strstr (text, "Damage/Spine_1/Rotate X stores s8 values"));
        g_assert_nonnull (strstr (text, "°"));
        at = strstr (text, "the file grows by ");
        g_assert_nonnull (at);
        grows = g_ascii_strtod (at + strlen ("the file grows by "), NULL);
        g_value_unset (&v);
      }
      /* Activated as the keyboard does (a button's press shows for a moment
       * before it clicks): the dialog goes once answered. */
      button = gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), responses[answer]);
      g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *)&dialog);
      gtk_widget_activate (button);
      TRESS_TEST_WAIT_FOR (dialog == NULL);
      after = document_bytes (doc);
      ref_curve_read (g_bytes_get_data (after, NULL), info.header_pos, TRUE, &ac);
      if (answer == 0)
        {
          g_autofree char *msg = NULL;

          tress_test_assert_bytes_equal (after, original);
          g_assert_cmpuint (tress_history_get_n_undo (history), ==, 0);
          g_object_get (view, "message", &msg, NULL);
          g_assert_cmpstr (msg, ==,
                           "Move 1 key of Damage/Spine_1/Rotate X cancelled: nothing changed");
          continue;
        }
      g_assert_cmpuint (tress_history_get_n_undo (history), ==, 1);
      g_assert_cmpfloat (ref_eval (&ac, 1), >, ref_eval (&rc, 1) + 1);
      for (guint k = 0; k < rc.n; k++)
        if (k != 1)
          {
            double moved
                = fabs (ref_eval (&ac, ref_frame (&ac, k)) - ref_eval (&rc, ref_frame (&rc, k)));

            if (answer == 1)
              g_assert_cmpfloat (moved, <=, rc.scale / 2);
          }
      if (answer == 1)
        {
          g_assert_cmpuint (ac.kt, ==, 0);
          g_assert_cmpuint (g_bytes_get_size (after), ==,
                            g_bytes_get_size (original) + (gsize)grows);
        }
      else
        {
          g_assert_cmpuint (ac.kt, ==, 2);
          g_assert_cmpfloat (ac.scale, >, rc.scale);
          g_assert_cmpuint (g_bytes_get_size (after), ==, g_bytes_get_size (original));
        }
      g_assert_true (tress_history_undo (history));
      undone = document_bytes (doc);
      tress_test_assert_bytes_equal (undone, original);
      tress_history_clear (history);
    }
  tress_test_present_close (&window, &doc);
}

/* The same edits through tress-cli and through the editor's path give the
 * same bytes: a value in the stored range, a value far outside it widened
 * (--widen, the question's Widen) and re-quantized (--requantize, Keep), a
 * frame between the stored ones (--widen, the offer of wider frames) and a
 * key past the animation's end (--extend, the offer to lengthen, to whole
 * frames either way). */
static void
test_cli_and_editor_agree (void)
{
  static const char *const bass = "bfres/Animal_Bass_Animation.bfres";
  static const char *const dog = "bfres/Animal_Dog_Animation.bfres";
  static const struct
  {
    const char *file, *curve, *key, *frame, *value, *option1, *option2;
    int answer; /* the question's response, 0 when none */
    gboolean pending, frames;
  } edits[] = {
    { bass, "Put_Down/Spine_3/Rotate Y", "2", NULL, "0.156", NULL, NULL, 0, FALSE, FALSE },
    { bass, "Put_Down/Spine_3/Rotate Y", "2", NULL, "0.85", "--widen", NULL,
      TRESS_STORE_RESPONSE_WIDEN, FALSE, FALSE },
    { bass, "Put_Down/Spine_3/Rotate Y", "2", NULL, "0.85", "--requantize", NULL,
      TRESS_STORE_RESPONSE_KEEP, FALSE, FALSE },
    { bass, "Put_Down/Spine_3/Rotate Y", "2", "2.5", NULL, "--widen", NULL, 0, FALSE, TRUE },
    { bass, "Put_Down/Spine_3/Rotate Y", "17", "23", NULL, "--extend", NULL, 0, TRUE, FALSE },
    { dog, "Wait_Random_C/Skl_Root/Rotate X", "46", "593.5", NULL, "--extend", NULL, 0, TRUE,
      FALSE },
  };

  tress_curve_document_register_types ();
  for (guint e = 0; e < G_N_ELEMENTS (edits); e++)
    {
      const char *file = edits[e].file, *curve_path = edits[e].curve;
      g_autofree char *sample = tress_test_sample_path (file);
      g_autoptr (GBytes) original = tress_test_load_sample (file);
      g_autoptr (GError) error = NULL;
      g_autoptr (TressCurveDocument) doc = NULL;
      g_autoptr (TressBfres) b
          = original != NULL ? tress_bfres_parse (original, file, &error) : NULL;
      g_autoptr (GBytes) cli = NULL, editor = NULL;
      g_autofree char *out = g_build_filename (tress_test_tmpdir (), "agree.bfres", NULL);
      g_autofree char *o = NULL, *err = NULL;
      const char *argv[12];
      TressCurveView *view;
      GtkWidget *window;
      TressKey key;
      guint n = 0, index, k = (guint)atoi (edits[e].key);

      if (original == NULL)
        return;
      g_assert_no_error (error);
      index = (guint)tress_bfres_find_curve (b, curve_path);
      /* The CLI. */
      argv[n++] = "set-key";
      argv[n++] = sample;
      argv[n++] = curve_path;
      argv[n++] = edits[e].key;
      if (edits[e].frame != NULL)
        {
          argv[n++] = "--frame";
          argv[n++] = edits[e].frame;
        }
      if (edits[e].value != NULL)
        {
          argv[n++] = "--value";
          argv[n++] = edits[e].value;
        }
      if (edits[e].option1 != NULL)
        argv[n++] = edits[e].option1;
      if (edits[e].option2 != NULL)
        argv[n++] = edits[e].option2;
      argv[n++] = "-o";
      argv[n++] = out;
      argv[n] = NULL;
      g_assert_cmpint (tress_test_run_cli (argv, &o, &err), ==, 0);
      cli = tress_test_read_file (out);

      /* The editor. */
      doc = TRESS_CURVE_DOCUMENT (tress_document_new_from_bytes (original, file, &error));
      g_assert_no_error (error);
      view = present_view (doc, 960, 640, &window);
      tress_curve_view_set_curves (view, &index, 1);
      key = *tress_curve_get_key (tress_curve_document_get_curve (doc, index), k);
      if (edits[e].frame != NULL)
        key.frame = g_ascii_strtod (edits[e].frame, NULL);
      if (edits[e].value != NULL)
        key.value = g_ascii_strtod (edits[e].value, NULL);
      if (edits[e].answer != 0)
        {
          GtkWidget *dialog;

          g_assert_false (tress_curve_view_set_key (view, index, k, &key, NULL));
          dialog = find_question ();
          g_assert_nonnull (dialog);
          gtk_dialog_response (GTK_DIALOG (dialog), edits[e].answer);
        }
      else if (edits[e].frames)
        {
          g_assert_false (tress_curve_view_set_key (view, index, k, &key, NULL));
          g_assert_true (tress_curve_view_get_frame_widening (view, NULL));
          g_assert_true (tress_curve_view_commit_frame_widening (view, &error));
          g_assert_no_error (error);
        }
      else if (edits[e].pending)
        {
          double end = 0;

          g_assert_false (tress_curve_view_set_key (view, index, k, &key, NULL));
          g_assert_true (tress_curve_view_get_pending_end (view, &end));
          g_assert_true (tress_curve_view_commit_pending (view, &error));
          g_assert_no_error (error);
        }
      else
        {
          g_assert_true (tress_curve_view_set_key (view, index, k, &key, &error));
          g_assert_no_error (error);
        }
      editor = document_bytes (doc);
      g_test_message ("edit %u: %" G_GSIZE_FORMAT " bytes (the file %" G_GSIZE_FORMAT ")", e,
                      g_bytes_get_size (editor), g_bytes_get_size (original));
      g_assert_false (g_bytes_equal (editor, original));
      tress_test_assert_bytes_equal (editor, cli);
      tress_test_present_close (&window, &doc);
    }
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/curves/view-bfres/drag-keeps-precision", test_drag_keeps_precision);
  g_test_add_func ("/curves/view-bfres/far-drag-asks", test_far_drag_asks);
  g_test_add_func ("/curves/view-bfres/cli-and-editor-agree", test_cli_and_editor_agree);
  return g_test_run ();
}
