/* test-cha-paint.c: weight painting on the model, without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "cha-test.h"

#include "formats/cha/tress-cha-paint.h"

static guint
sum_of (const guint *v, guint n)
{
  guint s = 0;

  for (guint i = 0; i < n; i++)
    s += v[i];
  return s;
}

static void
test_apportion (void)
{
  guint out[3];

  tress_cha_apportion (255, (const double[]){ 1, 1, 1 }, 3, out);
  g_assert_cmpuint (sum_of (out, 3), ==, 255);
  g_assert_cmpuint (out[0], ==, 85);
  g_assert_cmpuint (out[2], ==, 85);
  /* 10 in thirds: the remainder goes to the lowest index. */
  tress_cha_apportion (10, (const double[]){ 1, 1, 1 }, 3, out);
  g_assert_cmpuint (out[0], ==, 4);
  g_assert_cmpuint (out[1], ==, 3);
  g_assert_cmpuint (out[2], ==, 3);
  /* Largest remainder: 7 × (0.45, 0.35, 0.2) = 3.15, 2.45, 1.4 → 3, 3, 1. */
  tress_cha_apportion (7, (const double[]){ 45, 35, 20 }, 3, out);
  g_assert_cmpuint (out[0], ==, 3);
  g_assert_cmpuint (out[1], ==, 3);
  g_assert_cmpuint (out[2], ==, 1);
  /* No shares: everything to the first. */
  tress_cha_apportion (9, (const double[]){ 0, 0 }, 2, out);
  g_assert_cmpuint (out[0], ==, 9);
  g_assert_cmpuint (out[1], ==, 0);
  for (guint i = 0; i < 2000; i++)
    {
      double shares[3] = { g_test_rand_double_range (0, 300), g_test_rand_double_range (0, 1),
                           g_test_rand_int_range (0, 2) * g_test_rand_double_range (0, 1e6) };
      guint total = (guint)g_test_rand_int_range (0, 256);

      tress_cha_apportion (total, shares, 3, out);
      g_assert_cmpuint (sum_of (out, 3), ==, total);
      for (guint k = 0; k < 3; k++)
        if (shares[k] == 0 && shares[0] + shares[1] + shares[2] > 0)
          g_assert_cmpuint (out[k], ==, 0);
    }
}

/* A material whose applied list is (7, 5, 9, 5) and one line on it. */
typedef struct
{
  TressChaMaterial m;
  guint32 applied[4];
  TressChaLine line;
} OneLine;

static void
one_line_init (OneLine *o, guint e0, guint e1, guint e2, guint w0, guint w1, guint w2)
{
  memset (o, 0, sizeof *o);
  o->applied[0] = 7;
  o->applied[1] = 5;
  o->applied[2] = 9;
  o->applied[3] = 5;
  o->m.applied = o->applied;
  o->m.n_applied = 4;
  o->line.refs[0] = (guint16)(3 * e0);
  o->line.refs[1] = (guint16)(3 * e1);
  o->line.refs[2] = (guint16)(3 * e2);
  o->line.weights[2] = (guint8)w0;
  o->line.weights[1] = (guint8)w1;
  o->line.weights[0] = (guint8)w2;
}

#define ASSERT_W(out, a, b, c)                                                                     \
  G_STMT_START                                                                                     \
  {                                                                                                \
    g_assert_cmpuint ((out)[0], ==, (a));                                                          \
    g_assert_cmpuint ((out)[1], ==, (b));                                                          \
    g_assert_cmpuint ((out)[2], ==, (c));                                                          \
  }                                                                                                \
  G_STMT_END

static void
test_paint_line (void)
{
  OneLine o;
  guint8 out[3];

  /* Parts (7, 5, 9) weighted (155, 100, 0). */
  one_line_init (&o, 0, 1, 2, 155, 100, 0);
  /* Toward 5 by half: 5 gains half of the 155 the others hold (78), taken
   * from 7 (the only other part holding weight). */
  g_assert_true (tress_cha_paint_line (&o.m, &o.line, TRESS_CHA_PAINT_ADD, 5, 0.5, out));
  ASSERT_W (out, 77, 178, 0);
  /* Toward 9, which holds nothing yet: it gains from 7 and 5 in proportion. */
  g_assert_true (tress_cha_paint_line (&o.m, &o.line, TRESS_CHA_PAINT_ADD, 9, 0.2, out));
  ASSERT_W (out, 124, 80, 51);
  /* All the way. */
  g_assert_true (tress_cha_paint_line (&o.m, &o.line, TRESS_CHA_PAINT_ADD, 9, 1.0, out));
  ASSERT_W (out, 0, 0, 255);
  /* A light touch still moves one step. */
  g_assert_true (tress_cha_paint_line (&o.m, &o.line, TRESS_CHA_PAINT_ADD, 5, 0.001, out));
  ASSERT_W (out, 154, 101, 0);
  /* Away from 7: its weight goes to 5, the other part holding weight. */
  g_assert_true (tress_cha_paint_line (&o.m, &o.line, TRESS_CHA_PAINT_SUBTRACT, 7, 1.0, out));
  ASSERT_W (out, 0, 255, 0);
  /* A part the line does not reference: left alone. */
  g_assert_false (tress_cha_paint_line (&o.m, &o.line, TRESS_CHA_PAINT_ADD, 3, 1.0, out));
  ASSERT_W (out, 155, 100, 0);
  g_assert_false (tress_cha_paint_line (&o.m, &o.line, TRESS_CHA_PAINT_ADD, 5, 0.0, out));

  /* Everything on 7: subtracting finds no other weighted part to move it to. */
  one_line_init (&o, 0, 1, 2, 255, 0, 0);
  g_assert_false (tress_cha_paint_line (&o.m, &o.line, TRESS_CHA_PAINT_SUBTRACT, 7, 1.0, out));
  ASSERT_W (out, 255, 0, 0);
  g_assert_false (tress_cha_paint_line (&o.m, &o.line, TRESS_CHA_PAINT_ADD, 7, 1.0, out));

  /* Part 5 twice (applied entries 1 and 3): both count as the target, and
   * keep their split. */
  one_line_init (&o, 1, 0, 3, 60, 135, 60);
  g_assert_true (tress_cha_paint_line (&o.m, &o.line, TRESS_CHA_PAINT_ADD, 5, 1.0, out));
  ASSERT_W (out, 128, 0, 127);
  g_assert_true (tress_cha_paint_line (&o.m, &o.line, TRESS_CHA_PAINT_SUBTRACT, 5, 0.5, out));
  ASSERT_W (out, 30, 195, 30);

  /* A broken triple is not painted (the validator's fix handles it). */
  one_line_init (&o, 0, 1, 2, 100, 100, 100);
  g_assert_false (tress_cha_paint_line (&o.m, &o.line, TRESS_CHA_PAINT_ADD, 5, 1.0, out));
}

static void
test_smooth_line (void)
{
  OneLine o;
  guint8 out[3];

  one_line_init (&o, 0, 1, 2, 255, 0, 0);
  /* Neighbours hold 7 and 5 half and half. */
  g_assert_true (
      tress_cha_paint_smooth_line (&o.m, &o.line, (const double[]){ 127.5, 127.5, 0 }, 1.0, out));
  ASSERT_W (out, 128, 127, 0);
  g_assert_true (
      tress_cha_paint_smooth_line (&o.m, &o.line, (const double[]){ 127.5, 127.5, 0 }, 0.5, out));
  ASSERT_W (out, 191, 64, 0);
  /* Neighbours on none of the line's parts: nothing to average with. */
  g_assert_false (
      tress_cha_paint_smooth_line (&o.m, &o.line, (const double[]){ 0, 0, 0 }, 1.0, out));
  ASSERT_W (out, 255, 0, 0);
}

/* Line @l of @m on applied entries (e0, e1, e2) weighted (w0, w1, w2), in
 * reference order. */
static void
set_line (TressChaMaterial *m, guint l, guint e0, guint e1, guint e2, guint w0, guint w1, guint w2)
{
  TressChaLine *line = &m->lines[l];

  line->refs[0] = (guint16)(3 * e0);
  line->refs[1] = (guint16)(3 * e1);
  line->refs[2] = (guint16)(3 * e2);
  line->weights[2] = (guint8)w0;
  line->weights[1] = (guint8)w1;
  line->weights[0] = (guint8)w2;
}

static guint
weight_of (const TressChaMaterial *m, guint l, guint k)
{
  return tress_cha_line_get_weight (&m->lines[l], k);
}

/* A line is painted whichever of its references names the target: the
 * first, the second or the third alone. */
static void
test_target_at_each_reference (void)
{
  g_autoptr (TressChaFile) file = cha_test_small (60);
  TressChaMaterial *m = &file->radeon->materials[0];
  const TressChaLineId lines[3] = { { 0, 0 }, { 0, 1 }, { 0, 2 } };
  const float amounts[3] = { 1.f, 1.f, 1.f };
  g_autoptr (GArray) changed = g_array_new (FALSE, FALSE, sizeof (TressChaLineId));
  TressChaPaintStroke *s;

  g_assert_cmpuint (m->n_applied, >=, 2);
  set_line (m, 0, 0, 1, 1, 100, 155, 0);
  set_line (m, 1, 1, 0, 1, 155, 100, 0);
  set_line (m, 2, 1, 1, 0, 155, 0, 100);
  s = tress_cha_paint_stroke_new (file, TRESS_CHA_PAINT_ADD, m->applied[0]);
  g_assert_cmpuint (tress_cha_paint_stroke_dab (s, lines, amounts, 3, changed), ==, 3);
  g_assert_cmpuint (changed->len, ==, 3);
  g_assert_cmpuint (tress_cha_paint_stroke_get_n_skipped (s), ==, 0);
  /* all the way toward the target: its reference holds everything */
  g_assert_cmpuint (weight_of (m, 0, 0), ==, 255);
  g_assert_cmpuint (weight_of (m, 1, 1), ==, 255);
  g_assert_cmpuint (weight_of (m, 2, 2), ==, 255);
  tress_cha_paint_stroke_cancel (s);
  g_assert_cmpuint (weight_of (m, 0, 0), ==, 100);
}

/* A dab paints the @n lines it is given, not one more of the arrays. */
static void
test_dab_count (void)
{
  g_autoptr (TressChaFile) file = cha_test_small (60);
  TressChaMaterial *m = &file->radeon->materials[0];
  const TressChaLineId lines[3] = { { 0, 0 }, { 0, 1 }, { 0, 2 } };
  const float amounts[3] = { 1.f, 1.f, 1.f };
  TressChaPaintStroke *s;

  for (guint l = 0; l < 3; l++)
    set_line (m, l, 0, 1, 1, 100, 155, 0);
  s = tress_cha_paint_stroke_new (file, TRESS_CHA_PAINT_ADD, m->applied[0]);
  g_assert_cmpuint (tress_cha_paint_stroke_dab (s, lines, amounts, 2, NULL), ==, 2);
  g_assert_cmpuint (tress_cha_paint_stroke_get_n_changed (s), ==, 2);
  g_assert_cmpuint (weight_of (m, 1, 0), ==, 255);
  g_assert_cmpuint (weight_of (m, 2, 0), ==, 100);
  g_assert_cmpuint (weight_of (m, 2, 1), ==, 155);
  tress_cha_paint_stroke_cancel (s);
}

/* Smoothing two lines of a material: each is the other's neighbour, and at
 * full strength takes the other's weights. */
static void
test_smooth_two_lines (void)
{
  g_autoptr (TressChaFile) file = cha_test_small (60);
  TressChaMaterial *m = &file->radeon->materials[0];
  const TressChaLineId lines[2] = { { 0, 0 }, { 0, 1 } };
  const float amounts[2] = { 1.f, 1.f };
  g_autoptr (GArray) changed = g_array_new (FALSE, FALSE, sizeof (TressChaLineId));
  TressChaPaintStroke *s;

  g_assert_cmpuint (m->n_applied, >=, 3);
  set_line (m, 0, 0, 1, 2, 255, 0, 0);
  set_line (m, 1, 0, 1, 2, 0, 255, 0);
  s = tress_cha_paint_stroke_new (file, TRESS_CHA_PAINT_SMOOTH, 0);
  g_assert_cmpuint (tress_cha_paint_stroke_dab (s, lines, amounts, 2, changed), ==, 2);
  g_assert_cmpuint (changed->len, ==, 2);
  g_assert_cmpuint (weight_of (m, 0, 0), ==, 0);
  g_assert_cmpuint (weight_of (m, 0, 1), ==, 255);
  g_assert_cmpuint (weight_of (m, 1, 0), ==, 255);
  g_assert_cmpuint (weight_of (m, 1, 1), ==, 0);
  tress_cha_paint_stroke_cancel (s);
}

/* The model-level property test: a thousand random strokes on the demo
 * creature (random mode, target, brush, lines and amounts). After every dab
 * each triple sums to 255, no byte but the weights ever differs from the
 * original, lines outside the dabs keep their weights, and lines without the
 * target are left alone; each stroke is one undo step with its count in the
 * label; undoing everything gives the original bytes back. */
static void
test_random_strokes (void)
{
  g_autoptr (TressChaFile) file = cha_test_small (400);
  g_autoptr (TressHistory) history = tress_history_new (file);
  g_autoptr (GBytes) original = tress_cha_file_serialize (file);
  g_autoptr (TressChaFile) reference = tress_cha_file_copy (file);
  g_autoptr (GArray) lines = g_array_new (FALSE, FALSE, sizeof (TressChaLineId));
  g_autoptr (GArray) amounts = g_array_new (FALSE, FALSE, sizeof (float));
  g_autoptr (GArray) changed = g_array_new (FALSE, FALSE, sizeof (TressChaLineId));
  const TressChaRadeon *rad = file->radeon;
  guint stroke, n_steps = 0, n_painted = 0;

  tress_history_set_limits (history, 0, 0);
  g_assert_cmpuint (rad->n_materials, >=, 2);
  for (stroke = 0; stroke < 1000; stroke++)
    {
      TressChaPaintMode mode = (TressChaPaintMode)g_test_rand_int_range (0, 3);
      guint mi = (guint)g_test_rand_int_range (0, (gint32)rad->n_materials);
      const TressChaMaterial *m = &rad->materials[mi];
      guint32 target = m->applied[g_test_rand_int_range (0, (gint32)m->n_applied)];
      TressChaPaintStroke *s = tress_cha_paint_stroke_new (file, mode, target);
      guint n_dabs = (guint)g_test_rand_int_range (1, 6), dab, n;
      g_autoptr (GHashTable) touched = g_hash_table_new (g_direct_hash, g_direct_equal);
      g_autofree char *label = NULL;

      for (dab = 0; dab < n_dabs; dab++)
        {
          /* A run of nearby lines (a brush over neighbouring ribbons), in one
           * or both materials, some listed twice or out of range. */
          guint first = (guint)g_test_rand_int_range (0, (gint32)m->n_lines);
          guint count = (guint)g_test_rand_int_range (1, 120);

          g_array_set_size (lines, 0);
          g_array_set_size (amounts, 0);
          for (guint i = 0; i < count; i++)
            {
              TressChaLineId id = { mi, MIN (first + i, m->n_lines - 1) };
              float a = g_test_rand_bit () ? 1.f : (float)g_test_rand_double_range (0, 1);

              if (g_test_rand_int_range (0, 50) == 0)
                id.line = m->n_lines + 3; /* out of range: ignored */
              if (g_test_rand_int_range (0, 20) == 0)
                id.material = 1 - mi;
              if (id.material < rad->n_materials && id.line < rad->materials[id.material].n_lines)
                g_hash_table_add (touched, GUINT_TO_POINTER ((id.material << 24 | id.line) + 1));
              g_array_append_val (lines, id);
              g_array_append_val (amounts, a);
            }
          g_array_set_size (changed, 0);
          n = tress_cha_paint_stroke_dab (s, (const TressChaLineId *)(gpointer)lines->data,
                                          (const float *)(gpointer)amounts->data, lines->len,
                                          changed);
          g_assert_cmpuint (n, ==, changed->len);

          for (guint k = 0; k < rad->n_materials; k++)
            {
              const TressChaMaterial *a = &rad->materials[k];
              const TressChaMaterial *b = &reference->radeon->materials[k];

              for (guint l = 0; l < a->n_lines; l++)
                {
                  const TressChaLine *x = &a->lines[l], *y = &b->lines[l];
                  gsize w = G_STRUCT_OFFSET (TressChaLine, weights);
                  gboolean has_target = FALSE;

                  g_assert_cmpuint (x->weights[0] + x->weights[1] + x->weights[2], ==, 255);
                  /* References and every other byte stay. */
                  g_assert_cmpmem (x, w, y, w);
                  g_assert_cmpmem ((const guint8 *)x + w + 3, TRESS_CHA_LINE_SIZE - w - 3,
                                   (const guint8 *)y + w + 3, TRESS_CHA_LINE_SIZE - w - 3);
                  if (memcmp (x->weights, y->weights, 3) == 0)
                    continue;
                  /* Changed: only lines this stroke touched (the reference
                   * is updated after each stroke), and with the target
                   * among their references unless smoothing. */
                  g_assert_true (
                      g_hash_table_contains (touched, GUINT_TO_POINTER ((k << 24 | l) + 1)));
                  for (guint r = 0; r < 3; r++)
                    has_target |= tress_cha_material_ref_body_part (a, x, r) == (gint64)target;
                  g_assert_true (has_target || mode == TRESS_CHA_PAINT_SMOOTH);
                }
            }
        }
      n = tress_cha_paint_stroke_get_n_changed (s);
      label = tress_cha_paint_stroke_get_label (s);
      if (g_test_rand_int_range (0, 10) == 0)
        {
          /* Cancelled: the lines are as before. */
          tress_cha_paint_stroke_cancel (s);
          for (guint k = 0; k < rad->n_materials; k++)
            g_assert_cmpmem (rad->materials[k].lines,
                             TRESS_CHA_LINE_SIZE * rad->materials[k].n_lines,
                             reference->radeon->materials[k].lines,
                             TRESS_CHA_LINE_SIZE * reference->radeon->materials[k].n_lines);
          continue;
        }
      g_assert_cmpuint (tress_cha_paint_stroke_finish (s, history), ==, n);
      if (n > 0)
        {
          n_steps++;
          n_painted += n;
          g_assert_cmpstr (tress_history_get_undo_label (history), ==, label);
          g_assert_cmpuint (tress_history_get_n_undo (history), ==, n_steps);
        }
      for (guint k = 0; k < rad->n_materials; k++)
        memcpy (reference->radeon->materials[k].lines, rad->materials[k].lines,
                TRESS_CHA_LINE_SIZE * (gsize)rad->materials[k].n_lines);
    }
  g_test_message ("%u strokes recorded, %u line changes", n_steps, n_painted);
  g_assert_cmpuint (n_steps, >, 500);
  {
    g_autoptr (GBytes) painted = tress_cha_file_serialize (file);
    g_autoptr (GBytes) undone = NULL;
    g_autoptr (GBytes) redone = NULL;
    g_autoptr (GPtrArray) problems = tress_cha_file_validate (file);

    g_assert_cmpuint (problems->len, ==, 0);
    g_assert_false (g_bytes_equal (painted, original));
    while (tress_history_undo (history))
      ;
    undone = tress_cha_file_serialize (file);
    tress_test_assert_bytes_equal (original, undone);
    while (tress_history_redo (history))
      ;
    redone = tress_cha_file_serialize (file);
    tress_test_assert_bytes_equal (painted, redone);
  }
}

static guint n_calls;
static TressChaChangeFlags last_flags;
static guint last_n_lines;

static void
on_change (TressChaFile *file, const TressChaChange *change, gboolean undo, gpointer data)
{
  n_calls++;
  last_flags = change->flags;
  last_n_lines = change->n_lines;
}

/* A stroke: the label names the lines and the part, the change callback runs
 * once at the end (weights only), lines without the target are counted. */
static void
test_stroke_label (void)
{
  g_autoptr (TressChaFile) file = cha_test_small (60);
  g_autoptr (TressHistory) history = tress_history_new (file);
  const TressChaMaterial *m = &file->radeon->materials[0];
  g_autoptr (GArray) lines = g_array_new (FALSE, FALSE, sizeof (TressChaLineId));
  g_autoptr (GArray) amounts = g_array_new (FALSE, FALSE, sizeof (float));
  guint32 target = m->applied[0];
  guint expect_changed = 0, expect_skipped = 0, i;
  TressChaPaintStroke *s;
  g_autofree char *label = NULL;

  tress_cha_file_set_change_func (file, on_change, NULL, NULL);
  for (i = 0; i < m->n_lines; i++)
    {
      TressChaLineId id = { 0, i };
      float one = 1.f;
      gboolean has = FALSE;

      for (guint k = 0; k < 3; k++)
        has |= tress_cha_material_ref_body_part (m, &m->lines[i], k) == (gint64)target;
      if (!has)
        expect_skipped++;
      else
        for (guint k = 0; k < 3; k++)
          if (tress_cha_material_ref_body_part (m, &m->lines[i], k) != (gint64)target
              && tress_cha_line_get_weight (&m->lines[i], k) > 0)
            {
              expect_changed++;
              break;
            }
      g_array_append_val (lines, id);
      g_array_append_val (amounts, one);
    }
  g_assert_cmpuint (expect_changed, >, 0);
  g_assert_cmpuint (expect_skipped, >, 0);
  s = tress_cha_paint_stroke_new (file, TRESS_CHA_PAINT_ADD, target);
  tress_cha_paint_stroke_dab (s, (const TressChaLineId *)(gpointer)lines->data,
                              (const float *)(gpointer)amounts->data, lines->len, NULL);
  /* The same lines again: nothing left to move, nothing counted twice. */
  tress_cha_paint_stroke_dab (s, (const TressChaLineId *)(gpointer)lines->data,
                              (const float *)(gpointer)amounts->data, lines->len, NULL);
  g_assert_cmpuint (n_calls, ==, 0);
  g_assert_cmpuint (tress_cha_paint_stroke_get_n_changed (s), ==, expect_changed);
  g_assert_cmpuint (tress_cha_paint_stroke_get_n_skipped (s), ==, expect_skipped);
  label = g_strdup_printf ("Paint weights of %u lines toward part %u", expect_changed, target);
  g_assert_cmpuint (tress_cha_paint_stroke_finish (s, history), ==, expect_changed);
  g_assert_cmpstr (tress_history_get_undo_label (history), ==, label);
  g_assert_cmpuint (n_calls, ==, 1);
  g_assert_cmpuint (last_flags, ==, TRESS_CHA_CHANGE_LINES | TRESS_CHA_CHANGE_WEIGHTS);
  g_assert_cmpuint (last_n_lines, ==, expect_changed);
  for (i = 0; i < m->n_lines; i++)
    {
      guint on = 0;

      for (guint k = 0; k < 3; k++)
        if (tress_cha_material_ref_body_part (m, &m->lines[i], k) == (gint64)target)
          on += tress_cha_line_get_weight (&m->lines[i], k);
      g_assert_true (on == 0 || on == 255);
    }
  g_assert_true (tress_history_undo (history));
  g_assert_cmpuint (n_calls, ==, 2);

  /* A stroke that changes nothing records nothing. */
  s = tress_cha_paint_stroke_new (file, TRESS_CHA_PAINT_SMOOTH, 0);
  g_assert_cmpuint (tress_cha_paint_stroke_finish (s, history), ==, 0);
  g_assert_false (tress_history_can_undo (history));
  g_assert_cmpuint (n_calls, ==, 2);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cha/paint/apportion", test_apportion);
  g_test_add_func ("/cha/paint/line", test_paint_line);
  g_test_add_func ("/cha/paint/smooth-line", test_smooth_line);
  g_test_add_func ("/cha/paint/stroke-label", test_stroke_label);
  g_test_add_func ("/cha/paint/target-at-each-reference", test_target_at_each_reference);
  g_test_add_func ("/cha/paint/dab-count", test_dab_count);
  g_test_add_func ("/cha/paint/smooth-two-lines", test_smooth_two_lines);
  g_test_add_func ("/cha/paint/random-strokes", test_random_strokes);
  return g_test_run ();
}
