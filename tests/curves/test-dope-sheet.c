/* test-dope-sheet.c: the dope sheet in the curve editor, with a real pointer
 *
 * Opens a copy of Animal_Dog_Animation.bfres at 960 × 640, turns the graph
 * into the dope sheet with its toggle and works on it with XTest pointer and
 * key events: a column select and a drag by two frames (the saved file read
 * back with the format page's reading in tests/bfres/, every byte outside
 * the moved curves unchanged); a box selection that the graph shows
 * selected; a scale by 2 about frame 0, with ] and with the pointer (S), and
 * its undo, which gives back the original bytes; the keys of one bone at a
 * frame copied (Ctrl+C) and pasted (Ctrl+V) onto another bone at the
 * playhead, read back likewise, and undone to the original bytes. The rows
 * themselves are tested in test-dope-sheet-groups.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "dope-sheet-fixture.h"

/* -------------------------------------------------------------- tests -- */

/* Alt+click on the summary at a frame selects every key there; a drag by
 * two frames moves exactly those keys, one undo step saying so. */
static void
test_column_move (void)
{
  Fixture f = { 0 };
  g_autoptr (GBytes) saved = NULL;
  g_autoptr (GPtrArray) before = NULL, after = NULL;
  g_autoptr (GArray) allowed = g_array_new (FALSE, FALSE, sizeof (RefRange));
  g_autofree char *expected = NULL;
  double frame, x, y;
  guint n;

  if (!fixture_open (&f, 960, 640))
    return;
  show_node (&f, "Wait");
  frame = free_frame (&f, 1, 2);
  n = count_keys_at (&f, frame);
  g_test_message ("moving the %u keys at frame %g by 2 frames", n, frame);
  x = sheet_x (&f, frame);
  y = sheet_y (&f, 0);
  tress_test_pointer_key (GDK_KEY_Alt_L, TRUE);
  tress_test_pointer_click (GTK_WIDGET (f.sheet), x, y);
  tress_test_pointer_key (GDK_KEY_Alt_L, FALSE);
  WAIT_FOR (tress_curve_view_get_n_selected_keys (f.view) == n);
  {
    const double points[]
        = { x, y, x + 4, y, (x + sheet_x (&f, frame + 2)) / 2, y, sheet_x (&f, frame + 2), y };

    tress_test_pointer_drag (GTK_WIDGET (f.sheet), 1, points, 4);
  }
  WAIT_FOR (tress_document_get_modified (f.tw.document));
  expected = g_strdup_printf ("Move %u keys by 2 frames", n);
  g_assert_cmpstr (tress_history_get_undo_label (tress_document_get_history (f.tw.document)), ==,
                   expected);
  /* The selection moved with its keys. */
  g_assert_cmpuint (count_keys_at (&f, frame + 2), >=, n);
  save (&f);
  saved = read_saved (&f);
  g_assert_cmpuint (g_bytes_get_size (saved), ==, g_bytes_get_size (f.original));
  before = ref_frames (f.original, "Wait", allowed);
  after = ref_frames (saved, "Wait", NULL);
  g_assert_cmpuint (assert_moved (before, after, frame, frame + 2), ==, n);
  /* Nothing outside the moved animation's curves changed. */
  ref_assert_same_except (f.original, saved, allowed);
  fixture_close (&f);
}

/* A locked curve's keys and a hidden curve's take no part in a column
 * select; the hidden one's row draws no mark. */
static void
test_locked_and_hidden (void)
{
  Fixture f = { 0 };
  GArray *curves;
  int locked = -1, hidden = -1;
  double frame, x, y;
  guint n;

  if (!fixture_open (&f, 960, 640))
    return;
  show_node (&f, "Wait");
  frame = free_frame (&f, 1, 2);
  n = count_keys_at (&f, frame);
  g_assert_cmpuint (n, >=, 3);
  curves = shown_curves (&f);
  for (guint i = 0; i < curves->len && hidden < 0; i++)
    {
      guint index = g_array_index (curves, guint, i);

      if (tress_curve_find_key (tress_curve_document_get_curve (f.cd, index), frame, 1e-6) < 0)
        continue;
      if (locked < 0)
        locked = (int)index;
      else
        hidden = (int)index;
    }
  tress_curve_view_set_curve_locked (f.view, (guint)locked, TRUE);
  tress_curve_view_set_curve_visible (f.view, (guint)hidden, FALSE);
  tress_test_spin (50);
  x = sheet_x (&f, frame);
  y = sheet_y (&f, 0);
  tress_test_pointer_key (GDK_KEY_Alt_L, TRUE);
  tress_test_pointer_click (GTK_WIDGET (f.sheet), x, y);
  tress_test_pointer_key (GDK_KEY_Alt_L, FALSE);
  WAIT_FOR (tress_curve_view_get_n_selected_keys (f.view) > 0);
  tress_test_spin (50);
  g_assert_cmpuint (tress_curve_view_get_n_selected_keys (f.view), ==, n - 2);
  g_assert_false (
      tress_curve_selection_has_curve (tress_curve_view_get_selection (f.view), (guint)locked));
  g_assert_false (
      tress_curve_selection_has_curve (tress_curve_view_get_selection (f.view), (guint)hidden));
  fixture_close (&f);
}

/* An orange pixel (a selected key's fill, or the active key's ring) within
 * 5 pixels of (x, y); the texture in memory order B, G, R, A. */
static gboolean
orange_near (const guint8 *data, gsize stride, int width, int height, double x, double y)
{
  for (int dy = -5; dy <= 5; dy++)
    for (int dx = -5; dx <= 5; dx++)
      {
        int px = (int)x + dx, py = (int)y + dy;
        const guint8 *p;

        if (px < 0 || py < 0 || px >= width || py >= height)
          continue;
        p = data + (gsize)py * stride + (gsize)px * 4;
        if (p[2] > 230 && p[1] > 110 && p[1] < 170 && p[0] < 60)
          return TRUE;
      }
  return FALSE;
}

/* Whether a key of channel row @row is drawn within @px of x. */
static gboolean
key_near (Fixture *f, guint row, double x, double px)
{
  const TressCurve *c = tress_curve_document_get_curve (
      f->cd, (guint)tress_dope_sheet_get_row_channel (f->sheet, row));

  for (guint k = 0; k < tress_curve_get_n_keys (c); k++)
    if (fabs (sheet_x (f, tress_curve_get_key (c, k)->frame) - x) < px)
      return TRUE;
  return FALSE;
}

/* A box dragged over channel rows selects their keys in its span; the
 * graph, turned back on, has exactly those keys selected and draws them so. */
static void
test_box_select_shows_in_graph (void)
{
  Fixture f = { 0 };
  g_autoptr (GArray) expected_curves = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) expected_keys = g_array_new (FALSE, FALSE, sizeof (guint));
  guint first_row = 0, last_row;
  double f0 = 2, x0, x1, y0, y1;
  GtkWidget *button;
  graphene_rect_t r;

  if (!fixture_open (&f, 960, 640))
    return;
  show_node (&f, "Wait");
  /* Three channel rows in a row with keys in the span; scrolled to the top. */
  for (guint row = 1; row + 2 < tress_dope_sheet_get_n_rows (f.sheet) && first_row == 0; row++)
    {
      guint in_span = 0;

      for (guint r2 = row; r2 <= row + 2; r2++)
        {
          int index = tress_dope_sheet_get_row_channel (f.sheet, r2);
          const TressCurve *c
              = index >= 0 ? tress_curve_document_get_curve (f.cd, (guint)index) : NULL;

          if (c == NULL)
            {
              in_span = 0;
              break;
            }
          for (guint k = 0; k < tress_curve_get_n_keys (c); k++)
            in_span += tress_curve_get_key (c, k)->frame >= f0;
        }
      if (in_span > 0)
        first_row = row;
    }
  g_assert_cmpuint (first_row, >, 0);
  tress_dope_sheet_set_first_row (f.sheet, first_row - 1);
  tress_test_spin (50);
  last_row = first_row + 2;
  /* The box starts on empty space (a press on a mark grabs the keys): right
   * of the animation's last frame, and is dragged back to between frames. */
  x0 = sheet_x (&f, last_frame (&f)) + 10;
  x1 = sheet_x (&f, f0 - 0.5);
  g_assert_cmpfloat (x0, <, gtk_widget_get_width (GTK_WIDGET (f.sheet)) - 1);
  g_assert_false (key_near (&f, first_row, x0, 9));
  for (guint row = first_row; row <= last_row; row++)
    {
      guint index = (guint)tress_dope_sheet_get_row_channel (f.sheet, row);
      const TressCurve *c = tress_curve_document_get_curve (f.cd, index);

      for (guint k = 0; k < tress_curve_get_n_keys (c); k++)
        {
          double kx = sheet_x (&f, tress_curve_get_key (c, k)->frame);

          if (kx > x1 && kx < x0)
            {
              g_array_append_val (expected_curves, index);
              g_array_append_val (expected_keys, k);
            }
        }
    }
  g_assert_cmpuint (expected_keys->len, >, 0);
  y0 = sheet_y (&f, first_row) - 8;
  y1 = sheet_y (&f, last_row) + 8;
  {
    const double points[] = { x0, y0, x0 - 5, y0 + 5, x1, y1 };

    tress_test_pointer_drag (GTK_WIDGET (f.sheet), 1, points, 3);
  }
  WAIT_FOR (tress_curve_view_get_n_selected_keys (f.view) == expected_keys->len);
  for (guint i = 0; i < expected_keys->len; i++)
    g_assert_true (tress_curve_view_is_selected (f.view, g_array_index (expected_curves, guint, i),
                                                 g_array_index (expected_keys, guint, i),
                                                 TRESS_CURVE_PART_KEY));

  /* Back to the graph: the same keys, drawn selected (orange). */
  button = tress_test_find_named_type (GTK_WIDGET (f.editor), "dope-sheet-toggle",
                                       GTK_TYPE_TOGGLE_BUTTON);
  g_assert_true (gtk_widget_compute_bounds (button, button, &r));
  tress_test_pointer_click (button, r.size.width / 2, r.size.height / 2);
  WAIT_FOR (!tress_curve_editor_get_dope_sheet_shown (f.editor)
            && gtk_widget_get_mapped (GTK_WIDGET (f.view)));
  tress_test_spin (50);
  g_assert_cmpuint (tress_curve_view_get_n_selected_keys (f.view), ==, expected_keys->len);
  {
    GtkSnapshot *snapshot = gtk_snapshot_new ();
    g_autoptr (GskRenderNode) node = NULL;
    g_autoptr (GskRenderer) renderer = gsk_cairo_renderer_new ();
    g_autoptr (GdkTexture) texture = NULL;
    g_autoptr (GError) error = NULL;
    int width = gtk_widget_get_width (GTK_WIDGET (f.view));
    int height = gtk_widget_get_height (GTK_WIDGET (f.view));
    g_autofree guint8 *data = g_malloc ((gsize)width * 4 * height);
    guint seen = 0, in_view = 0;

    GTK_WIDGET_GET_CLASS (f.view)->snapshot (GTK_WIDGET (f.view), snapshot);
    node = gtk_snapshot_free_to_node (snapshot);
    g_assert_true (gsk_renderer_realize (renderer, NULL, &error));
    texture
        = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
    gdk_texture_download (texture, data, (gsize)width * 4);
    gsk_renderer_unrealize (renderer);
    for (guint i = 0; i < expected_keys->len; i++)
      {
        double x, y;

        guint index = g_array_index (expected_curves, guint, i);
        double frame = tress_curve_get_key (tress_curve_document_get_curve (f.cd, index),
                                            g_array_index (expected_keys, guint, i))
                           ->frame;

        /* At the last frame every curve has a key, drawn over one another. */
        if (frame >= last_frame (&f))
          continue;
        if (!tress_curve_view_get_point (f.view, g_array_index (expected_curves, guint, i),
                                         g_array_index (expected_keys, guint, i),
                                         TRESS_CURVE_PART_KEY, &x, &y)
            || x < 0 || y < 0 || x >= width || y >= height)
          continue;
        in_view++;
        seen += orange_near (data, (gsize)width * 4, width, height, x, y);
      }
    g_test_message ("%u of %u selected keys in the graph's view drawn selected", seen, in_view);
    g_assert_cmpuint (in_view, >, 0);
    g_assert_cmpuint (seen, ==, in_view);
  }
  fixture_close (&f);
}

/* A double click selects a column; with the playhead put on frame 0 on the
 * ruler, ] scales the keys by 2 about it (whole frames, in the saved file);
 * undo, saved, gives back the original file byte for byte. */
static void
test_scale_undo (void)
{
  Fixture f = { 0 };
  g_autoptr (GBytes) scaled = NULL, restored = NULL;
  g_autoptr (GPtrArray) before = NULL, after = NULL;
  g_autofree char *expected = NULL;
  double frame, x, y;
  guint n;

  if (!fixture_open (&f, 960, 640))
    return;
  show_node (&f, "Wait");
  frame = free_frame (&f, 2, 0);
  n = count_keys_at (&f, frame);
  g_test_message ("scaling the %u keys at frame %g by 2 about frame 0", n, frame);
  /* The playhead to frame 0, on the ruler. */
  tress_curve_view_set_playhead (f.view, 5);
  tress_test_pointer_click (GTK_WIDGET (f.sheet), sheet_x (&f, 0), 8);
  WAIT_FOR (tress_curve_view_get_playhead (f.view) == 0);
  x = sheet_x (&f, frame);
  y = sheet_y (&f, 0);
  tress_test_pointer_click (GTK_WIDGET (f.sheet), x, y);
  tress_test_pointer_click (GTK_WIDGET (f.sheet), x, y);
  WAIT_FOR (tress_curve_view_get_n_selected_keys (f.view) == n);
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (f.sheet)));
  tress_test_pointer_key (GDK_KEY_bracketright, TRUE);
  tress_test_pointer_key (GDK_KEY_bracketright, FALSE);
  WAIT_FOR (tress_document_get_modified (f.tw.document));
  expected = g_strdup_printf ("Scale %u keys in time by 2 about frame 0", n);
  g_assert_cmpstr (tress_history_get_undo_label (tress_document_get_history (f.tw.document)), ==,
                   expected);
  save (&f);
  scaled = read_saved (&f);
  before = ref_frames (f.original, "Wait", NULL);
  after = ref_frames (scaled, "Wait", NULL);
  g_assert_cmpuint (assert_moved (before, after, frame, frame * 2), ==, n);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.tw.window), "win.undo", NULL));
  g_assert_true (tress_document_get_modified (f.tw.document));
  save (&f);
  restored = read_saved (&f);
  g_assert_true (g_bytes_equal (restored, f.original));
  fixture_close (&f);
}

/* The group row of bone @name, or -1. */
static int
bone_row (Fixture *f, const char *name)
{
  for (guint r = 0; r < tress_dope_sheet_get_n_rows (f->sheet); r++)
    if (tress_dope_sheet_get_row_channel (f->sheet, r) < 0
        && g_strcmp0 (tress_dope_sheet_get_row_name (f->sheet, r), name) == 0)
      return (int)r;
  return -1;
}

/* The BoneAnims of skeletal animation @anim, read with the format page's
 * reading: each one's name, curve-presence flags and first curve (position
 * among the animation's curve headers). */
typedef struct
{
  const char *name;
  guint flags, first, n;
} RefBone;

static GArray *
ref_bones (GBytes *file, const char *anim)
{
  const guint8 *d = g_bytes_get_data (file, NULL);
  gsize pos = ref_anim_find (d, 2, anim), bones;
  GArray *out = g_array_new (FALSE, FALSE, sizeof (RefBone));
  guint first = 0;

  g_assert_cmpuint (pos, !=, 0);
  bones = ref_target (d, pos + 0x20);
  for (guint i = 0; i < ref_u16 (d, pos + 0x14); i++)
    {
      gsize bp = bones + 0x18 * (gsize)i;
      RefBone b = { (const char *)d + ref_target (d, bp + 4), ref_u32 (d, bp) & 0xFFC0, first,
                    d[bp + 0x0A] };

      g_array_append_val (out, b);
      first += b.n;
    }
  return out;
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

static void
test_paste_other_bone (void)
{
  Fixture f = { 0 };
  g_autoptr (GBytes) pasted = NULL, restored = NULL;
  g_autoptr (GPtrArray) before = NULL, after = NULL;
  g_autoptr (GArray) bones = NULL;
  g_autofree char *expected = NULL;
  const RefBone *src = NULL, *dst = NULL;
  int src_row = -1, dst_row = -1;
  double from = -1, to = -1, last;
  guint n = 0;

  if (!fixture_open (&f, 960, 640))
    return;
  show_node (&f, "Wait");
  bones = ref_bones (f.original, "Wait");
  before = ref_frames (f.original, "Wait", NULL);
  last = last_frame (&f);
  /* Two bones with the same channels; a frame where the first has keys and a
   * whole frame where the second has none, within the animation. */
  for (guint i = 0; i < bones->len && dst == NULL; i++)
    for (guint j = 0; j < bones->len && dst == NULL; j++)
      {
        const RefBone *a = &g_array_index (bones, RefBone, i),
                      *b = &g_array_index (bones, RefBone, j);

        if (i == j || a->flags != b->flags || a->n < 2 || bone_row (&f, a->name) < 0
            || bone_row (&f, b->name) < 0)
          continue;
        from = -1;
        for (guint k = 0; k < ((GArray *)before->pdata[a->first])->len && from < 0; k++)
          {
            double fr = g_array_index ((GArray *)before->pdata[a->first], double, k);

            if (fr > 0)
              from = fr;
          }
        to = -1;
        for (double fr = 1; fr < last && to < 0 && from > 0; fr++)
          {
            gboolean free = TRUE;

            for (guint c = 0; c < b->n && free; c++)
              free = !has_frame (before->pdata[b->first + c], fr);
            if (free)
              to = fr;
          }
        if (from > 0 && to > 0)
          src = a, dst = b;
      }
  g_assert_nonnull (dst);
  for (guint c = 0; c < src->n; c++)
    n += has_frame (before->pdata[src->first + c], from);
  g_test_message ("copying the %u keys of %s at frame %g onto %s at frame %g", n, src->name, from,
                  dst->name, to);
  src_row = bone_row (&f, src->name);
  dst_row = bone_row (&f, dst->name);

  /* Copy: the bone's mark at the frame, then Ctrl+C. */
  tress_dope_sheet_set_first_row (f.sheet, (guint)src_row);
  tress_test_spin (30);
  tress_test_pointer_click (GTK_WIDGET (f.sheet), sheet_x (&f, from), sheet_y (&f, (guint)src_row));
  WAIT_FOR (tress_curve_view_get_n_selected_keys (f.view) == n);
  key_with (GDK_KEY_Control_L, GDK_KEY_c);
  WAIT_FOR (g_strcmp0 (tress_curve_view_get_message (f.view), NULL) != 0
            && strstr (tress_curve_view_get_message (f.view), "Copied") != NULL);

  /* The other bone (a click on its name selects its keys), the playhead on the ruler. */
  tress_dope_sheet_set_first_row (f.sheet, (guint)dst_row);
  tress_test_spin (30);
  tress_test_pointer_click (GTK_WIDGET (f.sheet), 30, sheet_y (&f, (guint)dst_row));
  WAIT_FOR (tress_curve_view_get_n_selected_keys (f.view) > n);
  tress_test_pointer_click (GTK_WIDGET (f.sheet), sheet_x (&f, to), 8);
  WAIT_FOR (tress_curve_view_get_playhead (f.view) == to);
  key_with (GDK_KEY_Control_L, GDK_KEY_v);
  /* Copied values a quantized curve cannot hold at its step: the question,
   * answered with the wider type (no other key moves). */
  WAIT_FOR (tress_document_get_modified (f.tw.document) || shown_question () != NULL);
  if (!tress_document_get_modified (f.tw.document))
    {
      GtkWidget *button = gtk_dialog_get_widget_for_response (GTK_DIALOG (shown_question ()),
                                                              TRESS_STORE_RESPONSE_WIDEN);

      g_test_message ("the paste asks: answered Widen");
      g_assert_nonnull (button);
      WAIT_FOR (gtk_widget_get_width (button) > 0);
      tress_test_pointer_click (button, gtk_widget_get_width (button) / 2.0,
                                gtk_widget_get_height (button) / 2.0);
    }
  WAIT_FOR (tress_document_get_modified (f.tw.document));
  expected = g_strdup_printf (n == 1 ? "Paste %u key onto %s at frame %g"
                                     : "Paste %u keys onto %s at frame %g",
                              n, dst->name, to);
  g_assert_cmpstr (tress_history_get_undo_label (tress_document_get_history (f.tw.document)), ==,
                   expected);
  save (&f);
  pasted = read_saved (&f);
  after = ref_frames (pasted, "Wait", NULL);
  g_assert_cmpuint (after->len, ==, before->len);
  {
    const guint8 *d0 = g_bytes_get_data (f.original, NULL), *d1 = g_bytes_get_data (pasted, NULL);
    g_autoptr (GArray) h0 = ref_anim_curves (d0, 2, ref_anim_find (d0, 2, "Wait"));
    g_autoptr (GArray) h1 = ref_anim_curves (d1, 2, ref_anim_find (d1, 2, "Wait"));

    for (guint i = 0; i < before->len; i++)
      {
        GArray *b = before->pdata[i], *a = after->pdata[i];
        gboolean onto = i >= dst->first && i < dst->first + dst->n
                        && has_frame (before->pdata[src->first + (i - dst->first)], from);

        g_assert_cmpuint (a->len, ==, b->len + (onto ? 1 : 0));
        for (guint k = 0; k < b->len; k++)
          g_assert_true (has_frame (a, g_array_index (b, double, k)));
        if (onto)
          {
            RefCurve cs, cd;
            double want, got;

            g_assert_true (has_frame (a, to));
            ref_curve_read (d0, g_array_index (h0, gsize, src->first + (i - dst->first)), TRUE,
                            &cs);
            ref_curve_read (d1, g_array_index (h1, gsize, i), TRUE, &cd);
            want = ref_eval (&cs, from);
            got = ref_eval (&cd, to);
            g_assert_cmpfloat_with_epsilon (got, want, 1e-3 * MAX (1.0, fabs (want)));
          }
      }
  }
  /* Another animation, untouched. */
  {
    g_autoptr (GPtrArray) other0 = ref_frames (f.original, "Damage", NULL);
    g_autoptr (GPtrArray) other1 = ref_frames (pasted, "Damage", NULL);

    g_assert_cmpuint (other0->len, ==, other1->len);
    for (guint i = 0; i < other0->len; i++)
      g_assert_cmpmem (
          ((GArray *)other0->pdata[i])->data, ((GArray *)other0->pdata[i])->len * sizeof (double),
          ((GArray *)other1->pdata[i])->data, ((GArray *)other1->pdata[i])->len * sizeof (double));
  }

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.tw.window), "win.undo", NULL));
  save (&f);
  restored = read_saved (&f);
  g_assert_true (g_bytes_equal (restored, f.original));
  fixture_close (&f);
}

/* The label of the Keys column in tree row @row, if it is on screen. */
static GtkLabel *
keys_cell (GtkWidget *w, guint row)
{
  GtkListItem *item = g_object_get_data (G_OBJECT (w), "tress-item");

  if (GTK_IS_LABEL (w) && item != NULL
      && g_strcmp0 (g_object_get_data (G_OBJECT (w), "tress-column"), "keys") == 0
      && gtk_list_item_get_position (item) == row)
    return GTK_LABEL (w);
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkLabel *found = keys_cell (c, row);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Delete in the dope sheet updates the tree's Keys column of the shown
 * animation's row (a group: its curves' total), not only the curves' rows. */
static void
test_delete_updates_tree (void)
{
  Fixture f = { 0 };
  g_autofree char *expected = NULL;
  GtkLabel *cell;
  double frame;
  guint n, before;
  int row;

  if (!fixture_open (&f, 960, 640))
    return;
  show_node (&f, "Damage");
  row = tree_row (&f, "Damage");
  WAIT_FOR ((cell = keys_cell (GTK_WIDGET (f.editor), (guint)row)) != NULL);
  before = (guint)atoi (gtk_label_get_text (cell));
  g_assert_cmpuint (before, >, 0);
  for (frame = 1; count_keys_at (&f, frame) == 0; frame++)
    g_assert_cmpfloat (frame, <, last_frame (&f));
  n = count_keys_at (&f, frame);
  /* Alt+click on the summary selects the column, Delete deletes it. */
  tress_test_pointer_key (GDK_KEY_Alt_L, TRUE);
  tress_test_pointer_click (GTK_WIDGET (f.sheet), sheet_x (&f, frame), sheet_y (&f, 0));
  tress_test_pointer_key_unwatched (GDK_KEY_Alt_L, FALSE);
  WAIT_FOR (tress_curve_view_get_n_selected_keys (f.view) == n);
  tress_test_pointer_key_unwatched (GDK_KEY_Delete, TRUE);
  tress_test_pointer_key_unwatched (GDK_KEY_Delete, FALSE);
  WAIT_FOR (tress_document_get_modified (f.tw.document));
  expected = g_strdup_printf ("%u", before - n);
  tress_test_spin (30);
  cell = keys_cell (GTK_WIDGET (f.editor), (guint)row);
  g_assert_nonnull (cell);
  g_test_message ("Keys of Damage: %u, then %s after deleting %u", before,
                  gtk_label_get_text (cell), n);
  g_assert_cmpstr (gtk_label_get_text (cell), ==, expected);
  fixture_close (&f);
}

/* S scales the selection in time with the pointer, about the playhead: a
 * column selected at a frame, S with the pointer there, the pointer moved to
 * twice that frame shows a factor of 2 and changes nothing yet; the factor
 * keeps to whole frames unless Ctrl is held; Esc, and then a right click,
 * cancel (nothing changed); Enter applies it as one
 * undo step that names it; the saved file, read back, has those keys at
 * twice their frames; undo gives back the original bytes. */
static void
test_scale_interactive (void)
{
  Fixture f = { 0 };
  g_autoptr (GBytes) scaled = NULL, restored = NULL;
  g_autoptr (GPtrArray) before = NULL, after = NULL;
  g_autofree char *expected = NULL;
  double frame, x, x3, y, factor = 0;
  guint n;

  if (!fixture_open (&f, 960, 640))
    return;
  show_node (&f, "Wait");
  frame = free_frame (&f, 2, 0);
  n = count_keys_at (&f, frame);
  g_test_message ("scaling the %u keys at frame %g with the pointer", n, frame);
  /* Frames -2 … 3 × @frame + 2 across: the pointer's travel is many pixels. */
  tress_curve_view_set_frames (f.view, -2, frame * 3 + 2);
  tress_test_spin (30);
  /* The playhead to frame 0, on the ruler; the column at @frame. */
  tress_curve_view_set_playhead (f.view, 5);
  tress_test_pointer_click (GTK_WIDGET (f.sheet), sheet_x (&f, 0), 8);
  WAIT_FOR (tress_curve_view_get_playhead (f.view) == 0);
  x = sheet_x (&f, frame);
  y = sheet_y (&f, 0);
  tress_test_pointer_click (GTK_WIDGET (f.sheet), x, y);
  tress_test_pointer_click (GTK_WIDGET (f.sheet), x, y);
  WAIT_FOR (tress_curve_view_get_n_selected_keys (f.view) == n);

  /* Esc cancels. */
  key_with (0, GDK_KEY_s);
  g_assert_true (tress_dope_sheet_get_scaling (f.sheet, &factor));
  g_assert_cmpfloat (factor, ==, 1);
  tress_test_pointer_move (GTK_WIDGET (f.sheet), sheet_x (&f, frame * 3), y + 3);
  WAIT_FOR (tress_dope_sheet_get_scaling (f.sheet, &factor) && factor == 3);
  /* A third of a frame further: snapped, still 3; with Ctrl held, not. */
  x3 = sheet_x (&f, frame * 3 + 0.34);
  tress_test_pointer_move (GTK_WIDGET (f.sheet), x3, y + 3);
  tress_test_spin (30);
  g_assert_true (tress_dope_sheet_get_scaling (f.sheet, &factor));
  g_assert_cmpfloat (factor, ==, 3);
  tress_test_pointer_key (GDK_KEY_Control_L, TRUE);
  tress_test_pointer_move (GTK_WIDGET (f.sheet), x3 + 1, y + 3);
  WAIT_FOR (tress_dope_sheet_get_scaling (f.sheet, &factor) && factor > 3.2 / frame);
  g_test_message ("with Ctrl: ×%g", factor);
  tress_test_pointer_key_unwatched (GDK_KEY_Control_L, FALSE);
  WAIT_FOR (tress_dope_sheet_get_scaling (f.sheet, &factor) && factor == 3);
  key_with (0, GDK_KEY_Escape);
  g_assert_false (tress_dope_sheet_get_scaling (f.sheet, NULL));
  g_assert_false (tress_document_get_modified (f.tw.document));
  g_assert_cmpuint (tress_curve_view_get_n_selected_keys (f.view), ==, n);

  /* A right click cancels. */
  tress_test_pointer_move (GTK_WIDGET (f.sheet), x, y);
  key_with (0, GDK_KEY_s);
  g_assert_true (tress_dope_sheet_get_scaling (f.sheet, NULL));
  tress_test_pointer_move (GTK_WIDGET (f.sheet), sheet_x (&f, frame * 2), y + 3);
  WAIT_FOR (tress_dope_sheet_get_scaling (f.sheet, &factor) && factor == 2);
  tress_test_pointer_button (3, TRUE);
  tress_test_pointer_button (3, FALSE);
  g_assert_false (tress_dope_sheet_get_scaling (f.sheet, NULL));
  g_assert_false (tress_document_get_modified (f.tw.document));

  /* Enter applies: the frame under the pointer went from @frame to twice it. */
  tress_test_pointer_move (GTK_WIDGET (f.sheet), x, y);
  key_with (0, GDK_KEY_s);
  tress_test_pointer_move (GTK_WIDGET (f.sheet), sheet_x (&f, frame * 2), y + 3);
  WAIT_FOR (tress_dope_sheet_get_scaling (f.sheet, &factor) && factor == 2);
  g_assert_false (tress_document_get_modified (f.tw.document));
  key_with (0, GDK_KEY_Return);
  WAIT_FOR (tress_document_get_modified (f.tw.document));
  g_assert_false (tress_dope_sheet_get_scaling (f.sheet, NULL));
  expected = g_strdup_printf ("Scale %u keys in time by 2 about frame 0", n);
  g_assert_cmpstr (tress_history_get_undo_label (tress_document_get_history (f.tw.document)), ==,
                   expected);
  save (&f);
  scaled = read_saved (&f);
  before = ref_frames (f.original, "Wait", NULL);
  after = ref_frames (scaled, "Wait", NULL);
  g_assert_cmpuint (assert_moved (before, after, frame, frame * 2), ==, n);

  /* One undo step gives back the original file, byte for byte. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.tw.window), "win.undo", NULL));
  save (&f);
  restored = read_saved (&f);
  g_assert_true (g_bytes_equal (restored, f.original));
  fixture_close (&f);
}

int
main (int argc, char **argv)
{
  tress_test_window_init (&argc, &argv);
  g_test_add_func ("/dope-sheet/column-move", test_column_move);
  g_test_add_func ("/dope-sheet/box-select-shows-in-graph", test_box_select_shows_in_graph);
  g_test_add_func ("/dope-sheet/scale-undo", test_scale_undo);
  g_test_add_func ("/dope-sheet/scale-interactive", test_scale_interactive);
  g_test_add_func ("/dope-sheet/paste-other-bone", test_paste_other_bone);
  g_test_add_func ("/dope-sheet/delete-updates-tree", test_delete_updates_tree);
  g_test_add_func ("/dope-sheet/locked-and-hidden", test_locked_and_hidden);
  return g_test_run ();
}
