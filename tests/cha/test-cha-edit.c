/* test-cha-edit.c: every edit operation, its undo, and a long random sequence
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "cha-test.h"

#include <math.h>

typedef struct
{
  TressChaFile *file;
  TressHistory *history;
  GBytes *original;
  guint n_changes;
  TressChaChange last;
  gboolean last_undo;
} Fixture;

static void
on_change (TressChaFile *file, const TressChaChange *change, gboolean undo, gpointer data)
{
  Fixture *f = data;

  f->n_changes++;
  f->last = *change;
  f->last_undo = undo;
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  f->file = cha_test_small (GPOINTER_TO_UINT (data) ? GPOINTER_TO_UINT (data) : 80);
  f->history = tress_history_new (f->file);
  f->original = tress_cha_file_serialize (f->file);
  tress_cha_file_set_change_func (f->file, on_change, f, NULL);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  g_clear_object (&f->history);
  g_clear_pointer (&f->file, tress_cha_file_free);
  g_clear_pointer (&f->original, g_bytes_unref);
}

static GBytes *
bytes_of (Fixture *f)
{
  return tress_cha_file_serialize (f->file);
}

static void
assert_clean (const TressChaFile *file)
{
  g_autoptr (GPtrArray) problems = tress_cha_file_validate (file);

  if (problems->len > 0)
    cha_test_print_problems (problems);
  g_assert_cmpuint (problems->len, ==, 0);
}

/* The edit just performed: valid result, undo gives the original bytes back,
 * redo the edited ones. */
static void
check_undo_redo (Fixture *f, const char *label)
{
  g_autoptr (GBytes) edited = bytes_of (f);
  g_autoptr (GBytes) undone = NULL;
  g_autoptr (GBytes) redone = NULL;

  g_assert_false (g_bytes_equal (edited, f->original));
  assert_clean (f->file);
  if (label != NULL)
    g_assert_cmpstr (tress_history_get_undo_label (f->history), ==, label);
  g_assert_true (tress_history_undo (f->history));
  g_assert_true (f->last_undo);
  undone = bytes_of (f);
  tress_test_assert_bytes_equal (f->original, undone);
  g_assert_true (tress_history_redo (f->history));
  redone = bytes_of (f);
  tress_test_assert_bytes_equal (edited, redone);
  {
    /* what is in memory is what a reader of the written file sees */
    g_autoptr (TressChaFile) back = cha_test_parse (redone);
    g_autoptr (GBytes) again = tress_cha_file_serialize (back);
    tress_test_assert_bytes_equal (redone, again);
  }
}

static TressChaMaterial *
mat (Fixture *f, guint i)
{
  return &f->file->radeon->materials[i];
}

/* ---- weights ---------------------------------------------------------------- */

static void
test_rebalance (void)
{
  guint8 out[3];
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);

  tress_cha_rebalance_weights ((const guint8[]){ 0, 100, 155 }, 0, 55, out);
  g_assert_cmpuint (out[0], ==, 55);
  g_assert_cmpuint (out[1], ==, 78); /* 200 × 100/255 = 78.4 */
  g_assert_cmpuint (out[2], ==, 122);
  tress_cha_rebalance_weights ((const guint8[]){ 255, 0, 0 }, 0, 100, out);
  g_assert_cmpuint (out[1] + out[2], ==, 155);
  g_assert_cmpuint (out[1], ==, 78); /* split evenly, the earlier gets the odd unit */
  tress_cha_rebalance_weights ((const guint8[]){ 10, 20, 225 }, 2, 255, out);
  g_assert_cmpuint (out[0], ==, 0);
  g_assert_cmpuint (out[1], ==, 0);
  for (guint i = 0; i < 20000; i++)
    {
      guint8 old[3];
      guint k = g_rand_int_range (rand, 0, 3);
      guint8 v = (guint8)g_rand_int_range (rand, 0, 256);
      old[0] = (guint8)g_rand_int_range (rand, 0, 256);
      old[1] = (guint8)g_rand_int_range (rand, 0, 256 - old[0]);
      old[2] = (guint8)(255 - old[0] - old[1]);
      tress_cha_rebalance_weights (old, k, v, out);
      g_assert_cmpuint (out[0] + out[1] + out[2], ==, 255);
      g_assert_cmpuint (out[k], ==, v);
      {
        guint a = k == 0 ? 1 : 0, b = k == 2 ? 1 : 2;
        /* the order of the other two is kept */
        if (old[a] > old[b])
          g_assert_cmpuint (out[a], >=, out[b]);
        else if (old[a] < old[b])
          g_assert_cmpuint (out[a], <=, out[b]);
      }
    }
}

static void
test_set_weight (Fixture *f, gconstpointer data)
{
  TressChaLineId lines[12];
  TressChaMaterial *m = mat (f, 0);

  for (guint i = 0; i < 12; i++)
    lines[i] = (TressChaLineId){ 0, 3 * i };
  g_assert_true (tress_cha_set_weight (f->file, f->history, lines, 12, 1, 100, NULL));
  for (guint i = 0; i < 12; i++)
    {
      const TressChaLine *l = &m->lines[3 * i];
      g_assert_cmpuint (tress_cha_line_get_weight (l, 1), ==, 100);
      g_assert_cmpuint (l->weights[0] + l->weights[1] + l->weights[2], ==, 255);
    }
  g_assert_cmpuint (f->last.flags & TRESS_CHA_CHANGE_LINES, !=, 0);
  g_assert_cmpuint (f->last.n_lines, ==, 12);
  g_assert_cmpint (f->last.material, ==, 0);
  g_assert_cmpuint (f->last.n_ribbons, >, 0);
  /* References count from 1 in labels, as in the inspector ("Reference 2"). */
  check_undo_redo (f, "Set weight 2 of 12 lines");
}

static void
test_set_weights (Fixture *f, gconstpointer data)
{
  TressChaLineId lines[] = { { 0, 0 }, { 0, 5 }, { 1, 2 } };
  const guint8 w[3] = { 200, 50, 5 };
  const guint8 bad[3] = { 200, 50, 6 };
  g_autoptr (GError) error = NULL;

  g_assert_false (tress_cha_set_weights (f->file, f->history, lines, 3, bad, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_false (tress_history_can_undo (f->history));
  g_assert_true (tress_cha_set_weights (f->file, f->history, lines, 3, w, NULL));
  g_assert_cmpuint (mat (f, 0)->lines[5].weights[2], ==, 200); /* byte 26 weights ref 0 */
  g_assert_cmpuint (mat (f, 0)->lines[5].weights[0], ==, 5);
  g_assert_cmpint (f->last.material, ==, -1); /* two materials */
  check_undo_redo (f, "Set weights of 3 lines");
}

static void
test_set_ribbon_refs (Fixture *f, gconstpointer data)
{
  TressChaMaterial *m = mat (f, 0);
  const guint entries[3] = { 1, 2, 0 };
  const guint bad[3] = { 1, 2, 999 };
  guint first, n;
  g_autoptr (GError) error = NULL;

  g_assert_false (
      tress_cha_set_ribbon_refs (f->file, f->history, (TressChaRibbonId){ 0, 4 }, bad, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_true (
      tress_cha_set_ribbon_refs (f->file, f->history, (TressChaRibbonId){ 0, 4 }, entries, NULL));
  g_assert_true (tress_cha_material_ribbon_lines (m, 4, &first, &n));
  for (guint k = 0; k < n; k++)
    {
      g_assert_cmpuint (m->lines[first + k].refs[0], ==, 3);
      g_assert_cmpuint (m->lines[first + k].refs[1], ==, 6);
      g_assert_cmpuint (m->lines[first + k].refs[2], ==, 0);
    }
  check_undo_redo (f, "Set body parts of ribbon 4");
}

/* ---- retarget --------------------------------------------------------------- */

static guint
count_refs_to (const TressChaMaterial *m, guint32 part)
{
  guint n = 0;

  for (guint i = 0; i < m->n_lines; i++)
    for (guint k = 0; k < 3; k++)
      n += tress_cha_material_ref_body_part (m, &m->lines[i], k) == part;
  return n;
}

static void
test_retarget_material (Fixture *f, gconstpointer data)
{
  TressChaMaterial *m = mat (f, 0);
  TressChaScope scope = { 0, NULL, 0 };
  guint n_lines = 0, n_ribbons = 0;
  guint32 from = m->attach[0];
  g_autofree char *label = NULL;

  g_assert_true (tress_cha_retarget_count (f->file, &scope, from, 1, &n_lines, &n_ribbons, NULL));
  g_assert_cmpuint (n_lines, >, 0);
  g_assert_cmpuint (n_ribbons, >, 0);
  g_assert_cmpuint (f->n_changes, ==, 0); /* counting edits nothing */
  g_assert_true (tress_cha_retarget (f->file, f->history, &scope, from, 1, NULL));
  g_assert_cmpuint (count_refs_to (m, from), ==, 0);
  for (guint r = 0; r < m->n_ribbons; r++)
    g_assert_cmpuint (m->attach[r], !=, from);
  label = g_strdup_printf ("Retarget %u lines from %u to 1", n_lines, from);
  check_undo_redo (f, label);
}

/* Retargeting to a part the material does not list adds it to the list. */
static void
test_retarget_appends (Fixture *f, gconstpointer data)
{
  TressChaMaterial *m = mat (f, 1); /* the mane: neck, head and their neighbours */
  TressChaScope scope = { 1, NULL, 0 };
  guint32 from = m->attach[0];
  guint32 to = f->file->radeon->body_part_max - 1;
  guint n_applied = m->n_applied;

  g_assert_cmpint (tress_cha_material_find_applied (m, to), <, 0);
  g_assert_true (tress_cha_retarget (f->file, f->history, &scope, from, to, NULL));
  g_assert_cmpuint (m->n_applied, ==, n_applied + 1);
  g_assert_cmpuint (m->applied[n_applied], ==, to);
  g_assert_cmpuint (count_refs_to (m, to), >, 0);
  check_undo_redo (f, NULL);
  g_assert_true (tress_history_undo (f->history));
  g_assert_cmpuint (m->n_applied, ==, n_applied);
}

static void
test_retarget_ribbons_and_file (Fixture *f, gconstpointer data)
{
  TressChaMaterial *m = mat (f, 0);
  guint32 from = m->attach[2];
  guint32 to = from == 0 ? 1 : 0;
  guint list[] = { 2, 3 };
  TressChaScope scope = { 0, list, 2 };
  TressChaScope file_scope = { -1, NULL, 0 };
  guint n_lines, n_ribbons, n_file_lines, n_file_ribbons;
  g_autoptr (GError) error = NULL;
  guint bad[] = { 100000 };
  TressChaScope bad_scope = { 0, bad, 1 };

  g_assert_true (tress_cha_retarget_count (f->file, &scope, from, to, &n_lines, &n_ribbons, NULL));
  g_assert_cmpuint (n_ribbons, <=, 2);
  g_assert_cmpuint (n_ribbons, >=, 1);
  g_assert_true (tress_cha_retarget_count (f->file, &file_scope, from, to, &n_file_lines,
                                           &n_file_ribbons, NULL));
  g_assert_cmpuint (n_file_lines, >=, n_lines);
  g_assert_cmpuint (n_file_ribbons, >=, n_ribbons);
  g_assert_false (tress_cha_retarget (f->file, f->history, &bad_scope, from, to, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_true (tress_cha_retarget (f->file, f->history, &scope, from, to, NULL));
  g_assert_cmpuint (m->attach[2], ==, to);
  check_undo_redo (f, NULL);
  g_assert_true (tress_history_undo (f->history));
  g_assert_true (tress_cha_retarget (f->file, f->history, &file_scope, from, to, NULL));
  check_undo_redo (f, NULL);
}

/* ---- line bytes, directions, per-ribbon values ------------------------------- */

static void
test_line_bytes (Fixture *f, gconstpointer data)
{
  TressChaLineId lines[] = { { 0, 1 }, { 0, 2 } };
  const float dir[3] = { 0.0f, -1.0f, 0.5f };
  const float nan_dir[3] = { NAN, 0, 0 };
  TressChaLine *l = &mat (f, 0)->lines[1];
  g_autoptr (GError) error = NULL;

  g_assert_true (
      tress_cha_set_line_byte (f->file, f->history, lines, 2, TRESS_CHA_BYTE_AMBIENT, 33, NULL));
  g_assert_cmpuint (l->ambient, ==, 33);
  g_assert_cmpuint (l->ambient_copy, ==, 33);
  check_undo_redo (f, "Set ambient of 2 lines");
  g_assert_true (
      tress_cha_set_line_byte (f->file, f->history, lines, 2, TRESS_CHA_BYTE_COLOUR_1, 7, NULL));
  g_assert_cmpuint (l->colour[0], ==, 7);
  g_assert_true (
      tress_cha_set_line_byte (f->file, f->history, lines, 2, TRESS_CHA_BYTE_COLOUR_2, 9, NULL));
  g_assert_cmpuint (l->colour[1], ==, 9);
  g_assert_true (tress_cha_set_line_direction (f->file, f->history, lines, 1, dir, NULL));
  g_assert_cmpmem (l->direction, 12, dir, 12);
  g_assert_false (tress_cha_set_line_direction (f->file, f->history, lines, 1, nan_dir, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  /* three steps back to the original */
  for (guint i = 0; i < 4; i++)
    g_assert_true (tress_history_undo (f->history));
  {
    g_autoptr (GBytes) b = bytes_of (f);
    tress_test_assert_bytes_equal (f->original, b);
  }
}

static void
test_line_section (Fixture *f, gconstpointer data)
{
  TressChaLineId line = { 0, 0 };
  g_autoptr (GPtrArray) problems = NULL;

  g_assert_true (tress_cha_set_line_section (f->file, f->history, &line, 1, 3, NULL));
  g_assert_cmpuint (tress_cha_line_section (&mat (f, 0)->lines[0]), ==, 3);
  g_assert_cmpuint (mat (f, 0)->lines[0].mask[0], ==, 255); /* section 3 is byte 0 */
  /* out of the usual order: only a note */
  problems = tress_cha_file_validate (f->file);
  g_assert_cmpuint (cha_test_count (problems, TRESS_SEVERITY_WARNING), ==, 0);
  g_assert_cmpuint (problems->len, ==, 1);
  g_assert_true (tress_history_undo (f->history));
  {
    g_autoptr (GBytes) b = bytes_of (f);
    tress_test_assert_bytes_equal (f->original, b);
  }
}

static void
test_ribbon_values (Fixture *f, gconstpointer data)
{
  TressChaRibbonId rib = { 0, 7 };
  TressChaRibbonId ribs[] = { { 0, 7 }, { 1, 0 } };
  TressChaMaterial *m = mat (f, 0);
  const float pts[6] = { 1, 2, 3, 4, 5, 6 };
  const float disp[6] = { 0.1f, 0, 0, 0.1f, 0, 0 };
  const float uv[2] = { 0.25f, 0.75f };
  gboolean clamped = FALSE;
  guint32 other = m->applied[0] == m->attach[7] ? m->applied[1] : m->applied[0];
  g_autoptr (GError) error = NULL;

  g_assert_true (tress_cha_set_quality (f->file, f->history, ribs, 2, 0, NULL));
  g_assert_cmpuint (m->quality[7], ==, 0);
  g_assert_cmpuint (f->last.flags & TRESS_CHA_CHANGE_RIBBONS, !=, 0);
  check_undo_redo (f, "Set quality of 2 ribbons");
  g_assert_true (tress_history_undo (f->history));

  g_assert_true (tress_cha_set_base_points (f->file, f->history, rib, pts, NULL));
  g_assert_cmpmem (&m->zsort[21], 12, pts, 12); /* the z-sort point follows */
  check_undo_redo (f, "Move ribbon 7");
  g_assert_true (tress_history_undo (f->history));

  g_assert_true (tress_cha_set_morph_points (f->file, f->history, rib, 2, disp, NULL));
  g_assert_cmpmem (&m->morph_points[2][42], 24, disp, 24);
  check_undo_redo (f, "Set strong displacement of ribbon 7");
  g_assert_true (tress_history_undo (f->history));

  g_assert_true (tress_cha_set_length (f->file, f->history, rib, 1, 5.0f, &clamped, NULL));
  g_assert_true (clamped);
  g_assert_cmpfloat (m->lengths[1][7], ==, tress_cha_max_length (m->n_sections[7]));
  check_undo_redo (f, "Set length of ribbon 7");
  g_assert_true (tress_history_undo (f->history));
  g_assert_true (tress_cha_set_length (f->file, f->history, rib, 0, 0.01f, &clamped, NULL));
  g_assert_false (clamped);
  g_assert_cmpfloat (m->lengths[0][7], ==, 0.01f);
  g_assert_true (tress_history_undo (f->history));
  g_assert_false (tress_cha_set_length (f->file, f->history, rib, 3, 0.01f, NULL, &error));
  g_clear_error (&error);

  g_assert_true (tress_cha_set_attachment (f->file, f->history, rib, other, NULL));
  g_assert_cmpuint (m->attach[7], ==, other);
  check_undo_redo (f, NULL);
  g_assert_true (tress_history_undo (f->history));

  g_assert_true (tress_cha_set_uv (f->file, f->history, 0, 10, 2, uv, NULL));
  g_assert_cmpfloat (m->uv[11], ==, 0.75f);
  g_assert_cmpuint (f->last.flags & TRESS_CHA_CHANGE_MATERIAL, !=, 0);
  check_undo_redo (f, "Edit UV points");
  g_assert_true (tress_history_undo (f->history));
  g_assert_false (tress_cha_set_uv (f->file, f->history, 0, 1679, 2, uv, &error));
  g_clear_error (&error);
  g_assert_false (tress_cha_set_quality (f->file, f->history, ribs, 2, 3, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  {
    g_autoptr (GBytes) b = bytes_of (f);
    tress_test_assert_bytes_equal (f->original, b);
  }
}

static void
test_zsort (Fixture *f, gconstpointer data)
{
  const float p[3] = { 9, 9, 9 };

  g_assert_true (tress_cha_set_zsort (f->file, f->history, (TressChaRibbonId){ 1, 2 }, p, NULL));
  g_assert_cmpmem (&mat (f, 1)->zsort[6], 12, p, 12);
  g_assert_true (tress_history_undo (f->history));
  {
    g_autoptr (GBytes) b = bytes_of (f);
    tress_test_assert_bytes_equal (f->original, b);
  }
}

/* ---- structure -------------------------------------------------------------- */

static void
test_duplicate_delete (Fixture *f, gconstpointer data)
{
  TressChaMaterial *m = mat (f, 0);
  guint n = m->n_ribbons, lines = m->n_lines, nl = m->n_ribbon_lines[5];

  g_assert_true (
      tress_cha_duplicate_ribbon (f->file, f->history, (TressChaRibbonId){ 0, 5 }, NULL));
  g_assert_cmpuint (m->n_ribbons, ==, n + 1);
  g_assert_cmpuint (m->n_lines, ==, lines + nl);
  g_assert_cmpmem (&m->lines[m->first_line[5]], nl * 36, &m->lines[m->first_line[6]], nl * 36);
  g_assert_cmpuint (f->last.flags & TRESS_CHA_CHANGE_STRUCTURE, !=, 0);
  g_assert_cmpuint (f->last.n_ribbons, ==, 1);
  g_assert_cmpuint (f->last.ribbons[0], ==, 6);
  check_undo_redo (f, "Duplicate ribbon 5");
  g_assert_true (tress_history_undo (f->history));

  g_assert_true (tress_cha_delete_ribbon (f->file, f->history, (TressChaRibbonId){ 0, 0 }, NULL));
  g_assert_cmpuint (m->n_ribbons, ==, n - 1);
  g_assert_cmpuint (m->first_line[0], ==, 0);
  check_undo_redo (f, "Delete ribbon 0");
  g_assert_true (tress_history_undo (f->history));

  /* the last ribbon, and the last one of a material */
  g_assert_true (
      tress_cha_delete_ribbon (f->file, f->history, (TressChaRibbonId){ 0, n - 1 }, NULL));
  check_undo_redo (f, NULL);
}

/* Deleting a ribbon that does not exist, or from a material whose bookkeeping
 * is broken, is refused with the reason and changes nothing. */
static void
test_delete_refused (Fixture *f, gconstpointer data)
{
  TressChaMaterial *m = mat (f, 0);
  guint n = m->n_ribbons;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) after = NULL;

  g_assert_false (
      tress_cha_delete_ribbon (f->file, f->history, (TressChaRibbonId){ 0, n }, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "does not exist"));
  g_clear_error (&error);
  m->first_line[1]++;
  g_assert_false (
      tress_cha_delete_ribbon (f->file, f->history, (TressChaRibbonId){ 0, 0 }, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "first-line"));
  m->first_line[1]--;
  g_assert_cmpuint (m->n_ribbons, ==, n);
  g_assert_cmpuint (f->n_changes, ==, 0);
  g_assert_false (tress_history_can_undo (f->history));
  after = bytes_of (f);
  tress_test_assert_bytes_equal (f->original, after);
}

static void
test_sections (Fixture *f, gconstpointer data)
{
  TressChaMaterial *m = mat (f, 0);
  TressChaRibbonId rib = { 0, 3 };
  guint s = m->n_sections[3];
  guint first, n;
  g_autoptr (GError) error = NULL;

  if (s < 7)
    {
      g_assert_true (tress_cha_add_section (f->file, f->history, rib, NULL));
      g_assert_cmpuint (m->n_sections[3], ==, s + 1);
      g_assert_true (tress_cha_material_ribbon_lines (m, 3, &first, &n));
      g_assert_cmpuint (n, ==, 2 * (s + 1));
      g_assert_cmpuint (tress_cha_line_section (&m->lines[first + n - 1]), ==, s + 1);
      g_assert_cmpuint (m->lines[first + n - 1].ambient, ==, tress_cha_ambient_step (s + 1));
      check_undo_redo (f, "Add a section to ribbon 3");
      g_assert_true (tress_history_undo (f->history));
    }
  if (s > 1)
    {
      /* a length at the maximum is clamped to the shorter ribbon's maximum */
      g_assert_true (tress_cha_set_length (f->file, f->history, rib, 0, 1.0f, NULL, NULL));
      g_assert_true (tress_cha_remove_section (f->file, f->history, rib, NULL));
      g_assert_cmpuint (m->n_sections[3], ==, s - 1);
      g_assert_cmpfloat (m->lengths[0][3], ==, tress_cha_max_length (s - 1));
      assert_clean (f->file);
      g_assert_true (tress_history_undo (f->history));
      g_assert_true (tress_history_undo (f->history));
      {
        g_autoptr (GBytes) b = bytes_of (f);
        tress_test_assert_bytes_equal (f->original, b);
      }
    }
  /* a ribbon of 7 sections takes no more; broken bookkeeping refuses */
  m->first_line[1]++;
  g_assert_false (tress_cha_duplicate_ribbon (f->file, f->history, rib, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  m->first_line[1]--;
}

/* ---- fixes ------------------------------------------------------------------ */

static void
test_fixes (Fixture *f, gconstpointer data)
{
  TressChaMaterial *m = mat (f, 0);
  g_autoptr (GBytes) broken = NULL;
  g_autoptr (GPtrArray) before = NULL;
  g_autoptr (GPtrArray) after = NULL;
  guint n_fixed = 0;

  m->lines[0].weights[0] = 40; /* sum 295 */
  m->lines[3].weights[0] = 0;  /* may or may not change the sum */
  m->lines[3].weights[1] = 0;
  m->lines[3].weights[2] = 0; /* sum 0 */
  m->lines[4].ambient_copy = 1;
  m->first_line[2] += 2;
  m->zsort[0] += 1.0f;
  m->n_ribbons_again++;
  m->quality[1] = 9;
  m->lengths[0][2] = 3.0f;
  m->uv[0] = 2.0f;
  m->lines[6].mask[6] = 255; /* two bytes set */
  f->file->version = 1;
  broken = bytes_of (f);
  g_clear_pointer (&f->original, g_bytes_unref);
  f->original = g_bytes_ref (broken);
  before = tress_cha_file_validate (f->file);
  g_assert_cmpuint (cha_test_count (before, TRESS_SEVERITY_ERROR), >=, 7);

  g_assert_true (tress_cha_apply_fix (f->file, f->history, TRESS_CHA_FIX_WEIGHTS, &n_fixed, NULL));
  g_assert_cmpuint (n_fixed, ==, 2);
  g_assert_cmpuint (m->lines[3].weights[2], ==, 255);
  g_assert_cmpuint (m->lines[0].weights[0] + m->lines[0].weights[1] + m->lines[0].weights[2], ==,
                    255);
  g_assert_cmpstr (tress_history_get_undo_label (f->history), ==, "Fix weights (2)");
  g_assert_true (tress_history_undo (f->history));

  g_assert_cmpuint (tress_cha_fix_all (f->file, f->history, NULL), >=, 10);
  after = tress_cha_file_validate (f->file);
  if (after->len > 0)
    cha_test_print_problems (after);
  g_assert_cmpuint (after->len, ==, 0);
  g_assert_cmpuint (m->first_line[2], ==, m->first_line[1] + m->n_ribbon_lines[1]);
  g_assert_cmpuint (m->quality[1], ==, 2);
  g_assert_true (g_str_has_prefix (tress_history_get_undo_label (f->history), "Fix "));
  g_assert_true (tress_history_undo (f->history));
  {
    g_autoptr (GBytes) b = bytes_of (f);
    tress_test_assert_bytes_equal (broken, b);
  }
  /* a clean file has nothing to fix and records no step */
  g_assert_true (tress_history_redo (f->history));
  g_assert_cmpuint (tress_cha_fix_all (f->file, f->history, NULL), ==, 0);
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 1);
}

static void
on_applied (TressHistory *history, TressCommand *cmd, gboolean undo, gpointer data)
{
  const TressChaChange **out = data;

  *out = tress_cha_command_get_change (cmd);
}

/* Views can also learn what changed from the history's "applied" signal. */
static void
test_applied_signal (Fixture *f, gconstpointer data)
{
  const TressChaChange *change = NULL;
  TressChaRibbonId rib = { 1, 3 };

  g_signal_connect (f->history, "applied", G_CALLBACK (on_applied), &change);
  g_assert_true (tress_cha_delete_ribbon (f->file, f->history, rib, NULL));
  g_assert_nonnull (change);
  g_assert_cmpint (change->material, ==, 1);
  g_assert_cmpuint (change->flags & TRESS_CHA_CHANGE_STRUCTURE, !=, 0);
  g_assert_cmpuint (change->n_ribbons, ==, 1);
  g_assert_cmpuint (change->ribbons[0], ==, 3);
  change = NULL;
  g_assert_true (tress_history_undo (f->history));
  g_assert_nonnull (change);
  g_assert_cmpuint (change->ribbons[0], ==, 3);
  g_assert_true (f->last_undo);
  g_assert_null (tress_cha_command_get_change (NULL));
}

/* A drag: the same weight of the same lines, again and again, is one step. */
static void
test_merge (Fixture *f, gconstpointer data)
{
  TressChaLineId lines[] = { { 0, 4 }, { 0, 9 } };
  TressChaLineId other[] = { { 0, 5 } };

  for (guint v = 10; v <= 200; v += 10)
    g_assert_true (tress_cha_set_weight (f->file, f->history, lines, 2, 0, (guint8)v, NULL));
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 1);
  g_assert_cmpuint (tress_cha_line_get_weight (&mat (f, 0)->lines[9], 0), ==, 200);
  g_assert_true (tress_cha_set_weight (f->file, f->history, other, 1, 0, 7, NULL));
  g_assert_cmpuint (tress_history_get_n_undo (f->history), ==, 2);
  g_assert_true (tress_history_undo (f->history));
  g_assert_true (tress_history_undo (f->history));
  {
    g_autoptr (GBytes) b = bytes_of (f);
    tress_test_assert_bytes_equal (f->original, b);
  }
  g_assert_true (tress_history_redo (f->history));
  g_assert_cmpuint (tress_cha_line_get_weight (&mat (f, 0)->lines[9], 0), ==, 200);
}

static void
test_no_history (void)
{
  g_autoptr (TressChaFile) file = cha_test_small (20);
  TressChaLineId line = { 0, 0 };
  const guint8 w[3] = { 0, 255, 0 };

  g_assert_true (tress_cha_set_weights (file, NULL, &line, 1, w, NULL));
  g_assert_cmpuint (file->radeon->materials[0].lines[0].weights[1], ==, 255);
}

/* ---- a long random sequence --------------------------------------------------- */

static void
random_edit (TressChaFile *file, TressHistory *history, GRand *rand)
{
  guint mi = g_rand_int_range (rand, 0, (gint32)file->radeon->n_materials);
  TressChaMaterial *m = &file->radeon->materials[mi];
  TressChaRibbonId rib;
  TressChaLineId lines[8];
  guint n = g_rand_int_range (rand, 1, 9);
  g_autoptr (GError) error = NULL;
  gboolean ok = TRUE;

  if (m->n_ribbons == 0 || m->n_lines == 0)
    return;
  rib = (TressChaRibbonId){ mi, g_rand_int_range (rand, 0, (gint32)m->n_ribbons) };
  for (guint i = 0; i < n; i++)
    lines[i] = (TressChaLineId){ mi, (i * 37 + g_rand_int_range (rand, 0, 30)) % m->n_lines };
  /* distinct lines */
  for (guint i = 1; i < n; i++)
    for (guint j = 0; j < i; j++)
      if (lines[j].line == lines[i].line)
        {
          n = i;
          break;
        }

  switch (g_rand_int_range (rand, 0, 18))
    {
    case 0:
      ok = tress_cha_set_weight (file, history, lines, n, g_rand_int_range (rand, 0, 3),
                                 (guint8)g_rand_int_range (rand, 0, 256), &error);
      break;
    case 1:
      {
        guint8 w[3];
        w[0] = (guint8)g_rand_int_range (rand, 0, 256);
        w[1] = (guint8)g_rand_int_range (rand, 0, 256 - w[0]);
        w[2] = (guint8)(255 - w[0] - w[1]);
        ok = tress_cha_set_weights (file, history, lines, n, w, &error);
      }
      break;
    case 2:
      {
        guint e[3];
        for (guint k = 0; k < 3; k++)
          e[k] = g_rand_int_range (rand, 0, (gint32)m->n_applied);
        ok = tress_cha_set_ribbon_refs (file, history, rib, e, &error);
      }
      break;
    case 3:
      {
        TressChaScope scope = { g_rand_boolean (rand) ? (int)mi : -1, NULL, 0 };
        guint32 from = m->applied[g_rand_int_range (rand, 0, (gint32)m->n_applied)];
        guint32 to = g_rand_int_range (rand, 0, (gint32)file->radeon->body_part_max);
        ok = tress_cha_retarget (file, history, &scope, from, to, &error);
      }
      break;
    case 4:
      ok = tress_cha_set_line_byte (file, history, lines, n, g_rand_int_range (rand, 0, 3),
                                    (guint8)g_rand_int (rand), &error);
      break;
    case 5:
      {
        float d[3]
            = { (float)g_rand_double_range (rand, -1, 1), (float)g_rand_double_range (rand, -1, 1),
                (float)g_rand_double_range (rand, -1, 1) };
        ok = tress_cha_set_line_direction (file, history, lines, n, d, &error);
      }
      break;
    case 6:
      ok = tress_cha_set_attachment (
          file, history, rib, m->applied[g_rand_int_range (rand, 0, (gint32)m->n_applied)], &error);
      break;
    case 7:
      ok = tress_cha_set_quality (file, history, &rib, 1, g_rand_int_range (rand, 0, 3), &error);
      break;
    case 8:
      {
        float p[6];
        for (guint k = 0; k < 6; k++)
          p[k] = (float)g_rand_double_range (rand, -2, 2);
        ok = tress_cha_set_base_points (file, history, rib, p, &error);
      }
      break;
    case 9:
      {
        float p[6];
        for (guint k = 0; k < 6; k++)
          p[k] = (float)g_rand_double_range (rand, -0.1, 0.1);
        ok = tress_cha_set_morph_points (file, history, rib,
                                         g_rand_int_range (rand, 0, (gint32)file->radeon->n_morphs),
                                         p, &error);
      }
      break;
    case 10:
      ok = tress_cha_set_length (file, history, rib,
                                 g_rand_int_range (rand, 0, (gint32)file->radeon->n_moralities + 1),
                                 (float)g_rand_double_range (rand, 0, 1), NULL, &error);
      break;
    case 11:
      {
        float uv[3] = { (float)g_rand_double (rand), (float)g_rand_double (rand),
                        (float)g_rand_double (rand) };
        ok = tress_cha_set_uv (file, history, mi, g_rand_int_range (rand, 0, 1677), 3, uv, &error);
      }
      break;
    case 12:
      if (m->n_ribbons < 200)
        ok = tress_cha_duplicate_ribbon (file, history, rib, &error);
      break;
    case 13:
      if (m->n_ribbons > 20)
        ok = tress_cha_delete_ribbon (file, history, rib, &error);
      break;
    case 14:
      if (m->n_sections[rib.ribbon] < 7)
        ok = tress_cha_add_section (file, history, rib, &error);
      break;
    case 15:
      if (m->n_sections[rib.ribbon] > 1)
        ok = tress_cha_remove_section (file, history, rib, &error);
      break;
    case 16:
      {
        /* the standard section of the line's place, as the editor offers */
        guint first, count;
        if (tress_cha_material_ribbon_lines (m, rib.ribbon, &first, &count))
          {
            TressChaLineId id = { mi, first + count - 1 };
            ok = tress_cha_set_line_section (file, history, &id, 1, (count - 1) / 2 + 1, &error);
          }
      }
      break;
    default:
      g_assert_true (tress_history_can_undo (history));
      tress_history_undo (history);
      break;
    }
  g_assert_no_error (error);
  g_assert_true (ok);
}

static void
test_random_sequence (void)
{
  g_autoptr (TressChaFile) file = cha_test_small (120);
  g_autoptr (TressHistory) history = tress_history_new (file);
  g_autoptr (GBytes) original = tress_cha_file_serialize (file);
  g_autoptr (GRand) rand = g_rand_new_with_seed (31337);
  guint n_edits = 10000;

  tress_history_set_limits (history, 0, 0);
  for (guint i = 0; i < n_edits; i++)
    {
      g_autoptr (GPtrArray) problems = NULL;

      if (!tress_history_can_undo (history))
        tress_cha_set_quality (file, history, &(TressChaRibbonId){ 0, 0 }, 1,
                               (file->radeon->materials[0].quality[0] + 1) % 3, NULL);
      else
        random_edit (file, history, rand);
      problems = tress_cha_file_validate (file);
      if (problems->len > 0)
        {
          cha_test_print_problems (problems);
          g_error ("edit %u broke a rule (last: %s)", i, tress_history_get_undo_label (history));
        }
    }
  g_test_message ("%u steps to undo", tress_history_get_n_undo (history));
  while (tress_history_undo (history))
    ;
  {
    g_autoptr (GBytes) back = tress_cha_file_serialize (file);
    tress_test_assert_bytes_equal (original, back);
  }
}

/* A line count that no longer adds up blames the first-line indices after it;
 * they are the intact field, so recomputing them from the counts is neither
 * offered nor done. */
static void
test_fix_keeps_first_lines (Fixture *f, gconstpointer data)
{
  TressChaMaterial *m = mat (f, 0);
  g_autofree guint32 *first = g_memdup2 (m->first_line, m->n_ribbons * sizeof (guint32));
  g_autoptr (GPtrArray) problems = NULL;
  guint n_blamed = 0;

  m->n_ribbon_lines[5] += 1000;
  problems = tress_cha_file_validate (f->file);
  for (guint i = 0; i < problems->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (problems, i);

      if (strstr (p->message, "the first line is") != NULL)
        {
          n_blamed++;
          g_assert_cmpint (p->fix_id, ==, -1);
          g_assert_nonnull (strstr (p->message, "do not add up to LINE_COUNT"));
        }
    }
  g_assert_cmpuint (n_blamed, >, 0);
  tress_cha_fix_all (f->file, f->history, NULL);
  g_assert_cmpmem (m->first_line, m->n_ribbons * sizeof (guint32), first,
                   m->n_ribbons * sizeof (guint32));
}

/* Lines past the seventh section's pair have no usual section: no mask fix is
 * offered for them. */
static void
test_long_ribbon_masks (Fixture *f, gconstpointer data)
{
  TressChaMaterial *m = mat (f, 0);
  g_autoptr (GPtrArray) problems = NULL;
  guint r = 0;

  /* Lend ribbon r the first lines of ribbon r + 1 until it has 16. */
  while (r + 1 < m->n_ribbons
         && !(m->n_ribbon_lines[r] >= 6 && m->n_ribbon_lines[r + 1] > 16 - m->n_ribbon_lines[r]))
    r++;
  g_assert_cmpuint (r + 1, <, m->n_ribbons);
  {
    guint d = 16 - m->n_ribbon_lines[r];

    m->n_ribbon_lines[r] += d;
    m->n_ribbon_lines[r + 1] -= d;
    m->first_line[r + 1] += d;
  }
  problems = tress_cha_file_validate (f->file);
  for (guint i = 0; i < problems->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (problems, i);

      g_assert_null (strstr (p->message, "gives section 8"));
      if (p->fix_id == TRESS_CHA_FIX_MASKS)
        {
          /* Whatever is offered is done. */
          g_autoptr (GPtrArray) after = NULL;

          g_assert_true (
              tress_cha_apply_fix (f->file, f->history, TRESS_CHA_FIX_MASKS, NULL, NULL));
          after = tress_cha_file_validate (f->file);
          for (guint j = 0; j < after->len; j++)
            g_assert_cmpint (((const TressProblem *)g_ptr_array_index (after, j))->fix_id, !=,
                             TRESS_CHA_FIX_MASKS);
          break;
        }
    }
}

/* An applied list may name a body part twice: references through either
 * entry are retargeted (and counted). */
static void
test_retarget_duplicate_entry (Fixture *f, gconstpointer data)
{
  TressChaMaterial *m = mat (f, 0);
  TressChaScope scope = { 0, NULL, 0 };
  guint32 from = m->attach[0];
  guint32 to = from == 0 ? 1 : 0;
  int ai = tress_cha_material_find_applied (m, from);
  guint moved = 0, n_lines = 0, n_ribbons = 0;

  g_assert_cmpint (ai, >=, 0);
  m->applied = g_renew (guint32, m->applied, m->n_applied + 1);
  m->applied[m->n_applied++] = from;
  for (guint i = 0; i < m->n_lines && moved < 4; i++)
    for (guint k = 0; k < 3; k++)
      if (m->lines[i].refs[k] == 3 * (guint)ai)
        {
          m->lines[i].refs[k] = (guint16)(3 * (m->n_applied - 1));
          moved++;
          break;
        }
  g_assert_cmpuint (moved, ==, 4);
  g_assert_true (tress_cha_retarget_count (f->file, &scope, from, to, &n_lines, &n_ribbons, NULL));
  g_assert_true (tress_cha_retarget (f->file, f->history, &scope, from, to, NULL));
  g_assert_cmpuint (count_refs_to (m, from), ==, 0);
  g_assert_cmpuint (count_refs_to (m, to), >=, n_lines);
}

/* A reference is three times the entry's index in 16 bits: a target listed
 * past entry 21,845 cannot be referenced, and the retarget is refused. */
static void
test_retarget_reference_limit (Fixture *f, gconstpointer data)
{
  TressChaMaterial *m = mat (f, 0);
  TressChaScope scope = { 0, NULL, 0 };
  guint32 from = m->attach[0];
  guint32 to = 29999;
  guint old_n = m->n_applied;
  g_autoptr (GBytes) before = NULL;
  g_autoptr (GBytes) after = NULL;
  g_autoptr (GError) error = NULL;

  f->file->radeon->body_part_max = 30000;
  m->applied = g_renew (guint32, m->applied, 21900);
  for (guint i = old_n; i < 21900; i++)
    m->applied[i] = 3000 + i; /* never `to` (29999) before entry 21,880 */
  m->applied[21880] = to;
  m->n_applied = 21900;
  before = bytes_of (f);
  g_assert_false (tress_cha_retarget (f->file, f->history, &scope, from, to, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "21880"));
  after = bytes_of (f);
  tress_test_assert_bytes_equal (before, after);
}

/* The body parts are 0 … BODY_PART_MAX − 1: retargeting to BODY_PART_MAX or
 * attaching a ribbon to it is refused up front, counting included, and
 * changes nothing; BODY_PART_MAX − 1 is accepted. */
static void
test_body_part_max_edge (Fixture *f, gconstpointer data)
{
  TressChaMaterial *m = mat (f, 0);
  TressChaScope scope = { 0, NULL, 0 };
  TressChaRibbonId ribbon = { 0, 0 };
  guint32 max = f->file->radeon->body_part_max;
  guint32 from = m->attach[0];
  guint n_lines = 0, n_ribbons = 0;
  g_autoptr (GBytes) after = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_cmpuint (max, >, 1);
  g_assert_false (
      tress_cha_retarget_count (f->file, &scope, from, max, &n_lines, &n_ribbons, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "BODY_PART_MAX"));
  g_clear_error (&error);
  g_assert_false (tress_cha_retarget (f->file, f->history, &scope, from, max, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_clear_error (&error);
  g_assert_false (tress_cha_set_attachment (f->file, f->history, ribbon, max, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_clear_error (&error);
  g_assert_cmpuint (f->n_changes, ==, 0);
  g_assert_false (tress_history_can_undo (f->history));
  after = bytes_of (f);
  tress_test_assert_bytes_equal (f->original, after);

  g_assert_true (tress_cha_retarget (f->file, f->history, &scope, from, max - 1, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (m->attach[0], ==, max - 1);
  assert_clean (f->file);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn)                                                                              \
  g_test_add ("/cha/edit/" path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  g_test_add_func ("/cha/edit/rebalance", test_rebalance);
  ADD ("set-weight", test_set_weight);
  ADD ("set-weights", test_set_weights);
  ADD ("set-ribbon-refs", test_set_ribbon_refs);
  ADD ("retarget-material", test_retarget_material);
  ADD ("retarget-appends", test_retarget_appends);
  ADD ("retarget-ribbons-and-file", test_retarget_ribbons_and_file);
  ADD ("line-bytes", test_line_bytes);
  ADD ("line-section", test_line_section);
  ADD ("ribbon-values", test_ribbon_values);
  ADD ("zsort", test_zsort);
  ADD ("duplicate-delete", test_duplicate_delete);
  ADD ("delete-refused", test_delete_refused);
  ADD ("sections", test_sections);
  ADD ("fixes", test_fixes);
  ADD ("fix-keeps-first-lines", test_fix_keeps_first_lines);
  ADD ("long-ribbon-masks", test_long_ribbon_masks);
  ADD ("retarget-duplicate-entry", test_retarget_duplicate_entry);
  ADD ("retarget-reference-limit", test_retarget_reference_limit);
  ADD ("body-part-max-edge", test_body_part_max_edge);
  ADD ("merge", test_merge);
  ADD ("applied-signal", test_applied_signal);
  g_test_add_func ("/cha/edit/no-history", test_no_history);
  g_test_add_func ("/cha/edit/random-10000", test_random_sequence);
  return g_test_run ();
}
