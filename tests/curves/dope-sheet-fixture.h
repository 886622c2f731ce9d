/* dope-sheet-fixture.h: what the dope sheet's UI tests share
 *
 * A copy of Animal_Dog_Animation.bfres (or another sample) opened at a size
 * with the dope sheet turned on by a click on its toggle; the rows and the
 * frames where a click lands; the frames of a skeletal animation read back
 * from a saved file with the format page's reading in tests/bfres/.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <stdlib.h>
#include <string.h>

#include "../bfres/bfres-anim-ref.h"
#include "curves/tress-curve-channel-list.h"
#include "curves/tress-curve-editor.h"
#include "curves/tress-curve-store-question.h"
#include "curves/tress-dope-sheet.h"
#include "tress-test-pointer.h"
#include "tress-test-utils.h"
#include "tress-test-window.h"

#define WAIT_FOR(cond) TRESS_TEST_WAIT_FOR (cond)
#define SAMPLE "bfres/Animal_Dog_Animation.bfres"

typedef struct
{
  TressTestWindow tw;
  TressCurveEditor *editor;
  TressCurveView *view;
  TressDopeSheet *sheet;
  TressCurveDocument *cd;
  GBytes *original;
  char *path;
} Fixture;

static inline void
fixture_close (Fixture *f)
{
  tress_test_window_close (&f->tw);
  g_clear_pointer (&f->original, g_bytes_unref);
  if (f->path != NULL)
    g_unlink (f->path);
  g_clear_pointer (&f->path, g_free);
}

/* The tree row of the node named @name (an animation shows as "Wait" or
 * "Wait (…)"), or -1. */
static inline int
tree_row (Fixture *f, const char *name)
{
  GListModel *rows = G_LIST_MODEL (tress_curve_editor_get_tree_selection (f->editor));

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      TressCurveNode *node = gtk_tree_list_row_get_item (row);
      const char *n = tress_curve_node_get_name (node);
      gsize len = strlen (name);
      gboolean match = strncmp (n, name, len) == 0 && (n[len] == '\0' || n[len] == ' ');

      g_object_unref (node);
      if (match)
        return (int)i;
    }
  return -1;
}

/* Opens a copy of the sample at @width × @height and turns the dope sheet on
 * with a click on its toggle; FALSE (the test skipped) without the sample or
 * a real pointer. */
static inline gboolean
fixture_open_sample (Fixture *f, const char *sample, const char *name, int width, int height)
{
  g_autoptr (GError) error = NULL;
  GtkWidget *button;
  graphene_rect_t r;

  f->original = tress_test_load_sample (sample);
  if (f->original == NULL)
    return FALSE;
  /* The graph first, whatever an earlier test left in the settings. */
  {
    g_autoptr (GSettings) settings = g_settings_new ("io.github.tress.Tress.CurveEditor");

    g_settings_reset (settings, "dope-sheet-visible");
  }
  f->path = g_build_filename (tress_test_tmpdir (), name, NULL);
  g_assert_true (g_file_set_contents (f->path, g_bytes_get_data (f->original, NULL),
                                      (gssize)g_bytes_get_size (f->original), &error));
  tress_test_window_open (&f->tw, f->path, TRESS_TYPE_CURVE_EDITOR, width, height);
  f->editor = TRESS_CURVE_EDITOR (f->tw.editor);
  f->view = tress_curve_editor_get_view (f->editor);
  f->sheet = tress_curve_editor_get_dope_sheet (f->editor);
  f->cd = tress_curve_editor_get_document (f->editor);
  WAIT_FOR (tress_curve_view_get_n_curves (f->view) > 0
            && gtk_widget_get_width (GTK_WIDGET (f->view)) > 0);
  if (!tress_test_pointer_available (GTK_WIDGET (f->view)))
    {
      fixture_close (f);
      return FALSE;
    }
  g_assert_false (tress_curve_editor_get_dope_sheet_shown (f->editor));
  button = tress_test_find_named_type (GTK_WIDGET (f->editor), "dope-sheet-toggle",
                                       GTK_TYPE_TOGGLE_BUTTON);
  g_assert_true (gtk_widget_compute_bounds (button, button, &r));
  tress_test_pointer_click (button, r.size.width / 2, r.size.height / 2);
  WAIT_FOR (tress_curve_editor_get_dope_sheet_shown (f->editor)
            && gtk_widget_get_mapped (GTK_WIDGET (f->sheet))
            && gtk_widget_get_width (GTK_WIDGET (f->sheet)) > 0);
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (f->view)));
  tress_test_spin (50);
  return TRUE;
}

static inline gboolean
fixture_open (Fixture *f, int width, int height)
{
  return fixture_open_sample (f, SAMPLE, "Dope_Dog.bfres", width, height);
}

/* Shows the tree row of @name (selected as a click does) and waits for the sheet to draw it. */
static inline void
show_node (Fixture *f, const char *name)
{
  int row = tree_row (f, name);

  g_assert_cmpint (row, >=, 0);
  tress_curve_editor_click_row (f->editor, (guint)row, FALSE, FALSE);
  WAIT_FOR (tress_dope_sheet_get_n_rows (f->sheet) > 1);
  tress_test_spin (50);
}

static inline double
sheet_x (Fixture *f, double frame)
{
  return tress_dope_sheet_frame_to_x (f->sheet, frame);
}

static inline double
sheet_y (Fixture *f, guint row)
{
  double y = 0;

  g_assert_true (tress_dope_sheet_get_row_y (f->sheet, row, &y));
  return y;
}

/* The shown curves (the summary row's). */
static inline GArray *
shown_curves (Fixture *f)
{
  GArray *curves = tress_dope_sheet_get_row_curves (f->sheet, 0);

  g_assert_nonnull (curves);
  return curves;
}

static inline guint
count_keys_at (Fixture *f, double frame)
{
  GArray *curves = shown_curves (f);
  guint n = 0;

  for (guint i = 0; i < curves->len; i++)
    {
      const TressCurve *c
          = tress_curve_document_get_curve (f->cd, g_array_index (curves, guint, i));

      n += tress_curve_find_key (c, frame, 1e-6) >= 0;
    }
  return n;
}

/* The shown animation's last frame. */
static inline double
last_frame (Fixture *f)
{
  GArray *curves = shown_curves (f);
  double last = 0;

  for (guint i = 0; i < curves->len; i++)
    last = MAX (
        last,
        tress_curve_document_get_curve (f->cd, g_array_index (curves, guint, i))->frame_count);
  return last;
}

/* A frame of the shown animation at which keys lie, none of whose curves
 * holds a key at @dest (frame * @scale + @add) or would pass the animation's
 * end there: moving the keys there is no collision. */
static inline double
free_frame (Fixture *f, double scale, double add)
{
  GArray *curves = shown_curves (f);
  double last = 0;

  for (guint i = 0; i < curves->len; i++)
    last = MAX (
        last,
        tress_curve_document_get_curve (f->cd, g_array_index (curves, guint, i))->frame_count);
  for (double frame = 1; frame <= last; frame++)
    {
      double dest = frame * scale + add;
      gboolean ok = dest <= last && count_keys_at (f, frame) > 0;

      for (guint i = 0; i < curves->len && ok; i++)
        {
          const TressCurve *c
              = tress_curve_document_get_curve (f->cd, g_array_index (curves, guint, i));

          ok = tress_curve_find_key (c, frame, 1e-6) < 0
               || tress_curve_find_key (c, dest, 1e-6) < 0;
        }
      if (ok)
        return frame;
    }
  g_error ("no frame to move keys from");
  return -1;
}

static inline void
save (Fixture *f)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->tw.window), "win.save", NULL));
  WAIT_FOR (!tress_window_get_busy (f->tw.window) && !tress_document_get_modified (f->tw.document));
}

static inline GBytes *
read_saved (Fixture *f)
{
  g_autoptr (GError) error = NULL;
  char *data = NULL;
  gsize size = 0;

  g_assert_true (g_file_get_contents (f->path, &data, &size, &error));
  g_assert_no_error (error);
  return g_bytes_new_take (data, size);
}

/* The frames of every curve of skeletal animation @anim, read with the
 * format page's reading: an array per curve, in file order. */
static inline GPtrArray *
ref_frames (GBytes *file, const char *anim, GArray *allowed)
{
  const guint8 *d = g_bytes_get_data (file, NULL);
  gsize pos = ref_anim_find (d, 2, anim);
  g_autoptr (GArray) headers = NULL;
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);

  g_assert_cmpuint (pos, !=, 0);
  headers = ref_anim_curves (d, 2, pos);
  for (guint i = 0; i < headers->len; i++)
    {
      gsize h = g_array_index (headers, gsize, i);
      GArray *frames = g_array_new (FALSE, FALSE, sizeof (double));
      RefCurve c;

      ref_curve_read (d, h, TRUE, &c);
      for (guint k = 0; k < c.n; k++)
        {
          double fr = ref_frame (&c, k);

          g_array_append_val (frames, fr);
        }
      g_ptr_array_add (out, frames);
      if (allowed != NULL)
        {
          /* What a move of keys may change: the curve's header, frames and keys. */
          ref_allow (allowed, h, 0x24);
          ref_allow (allowed, (gsize)(c.frames - d), ref_frames_len (&c));
          ref_allow (allowed, (gsize)(c.keys - d), ref_keys_len (&c));
        }
    }
  return out;
}

static inline gboolean
has_frame (GArray *frames, double frame)
{
  for (guint k = 0; k < frames->len; k++)
    if (fabs (g_array_index (frames, double, k) - frame) < 1e-6)
      return TRUE;
  return FALSE;
}

/* Every curve of @before that had a key at @from has one at @to instead,
 * and the others are as they were. Returns the keys moved. */
static inline guint
assert_moved (GPtrArray *before, GPtrArray *after, double from, double to)
{
  guint moved = 0;

  g_assert_cmpuint (before->len, ==, after->len);
  for (guint i = 0; i < before->len; i++)
    {
      GArray *b = g_ptr_array_index (before, i), *a = g_ptr_array_index (after, i);

      g_assert_cmpuint (a->len, ==, b->len);
      for (guint k = 0; k < b->len; k++)
        {
          double fr = g_array_index (b, double, k);

          if (fabs (fr - from) < 1e-6)
            {
              g_assert_true (has_frame (a, to));
              g_assert_false (has_frame (a, from));
              moved++;
            }
          else
            g_assert_true (has_frame (a, fr));
        }
    }
  return moved;
}

static inline void
key_with (guint mods, guint keyval)
{
  /* (a key an action takes is not waited for) */
  if (mods != 0)
    tress_test_pointer_key (mods, TRUE);
  tress_test_pointer_key_unwatched (keyval, TRUE);
  tress_test_pointer_key_unwatched (keyval, FALSE);
  if (mods != 0)
    tress_test_pointer_key_unwatched (mods, FALSE);
  tress_test_spin (30);
}

/* Copies the keys of one bone at a frame (a click on its row's mark, Ctrl+C),
 * selects another bone with the same channels (a click on its name), puts
 * the playhead on a free frame on the ruler and pastes (Ctrl+V): the saved
 * file, read back, has a key at that frame on each of the other bone's
 * matching channels, with the copied values, and every other curve as it
 * was; one undo step names it, and undo gives back the original bytes. */
