/* test-cha-fix.c: a problem's own fix mends that problem only
 *
 * Every fixable problem of a damaged file is fixed on its own (as the Fix
 * button of its row does): the problem goes, every other problem stays, the
 * written bytes change only in the field the problem names, and undo gives
 * the damaged bytes back. The bytes are checked in the serialized file
 * itself, not through the model's reader.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "cha-test.h"

/* Damage of one kind in several places, and of other kinds beside it. */
static void
damage (TressChaFile *file)
{
  TressChaMaterial *m = &file->radeon->materials[0];

  m->lines[0].weights[0] = 40; /* three broken weight triples */
  m->lines[5].weights[1] = 0;
  m->lines[9].weights[0] = m->lines[9].weights[1] = m->lines[9].weights[2] = 0;
  m->lines[4].ambient_copy = (guint8)(m->lines[4].ambient + 1);
  m->lines[11].ambient_copy = (guint8)(m->lines[11].ambient + 3);
  m->zsort[0] += 1.0f;
  m->zsort[3 * 2 + 1] += 1.0f;
  m->n_ribbons_again++;
  m->quality[1] = 9;
  m->quality[3] = 7;
  m->lengths[0][2] = 3.0f;
  m->uv[0] = 2.0f;
  m->uv[3] = -1.0f;
  m->lines[6].mask[6] = 255; /* two bytes set */
  m->lines[14].mask[5] = 255;
  file->version = 1;
}

static gboolean
same_problem (const TressProblem *a, const TressProblem *b)
{
  return a->offset == b->offset && a->fix_id == b->fix_id
         && g_strcmp0 (a->message, b->message) == 0;
}

static guint
find_problem (GPtrArray *list, const TressProblem *p)
{
  for (guint i = 0; i < list->len; i++)
    if (same_problem (g_ptr_array_index (list, i), p))
      return i;
  return G_MAXUINT;
}

/* The bytes a fix may change from @offset on (the field the problem names). */
static gsize
field_size (TressChaFix fix)
{
  switch (fix)
    {
    case TRESS_CHA_FIX_WEIGHTS:
      return 3;
    case TRESS_CHA_FIX_AMBIENT_COPY:
      return 1;
    case TRESS_CHA_FIX_MASKS:
      return 8;
    case TRESS_CHA_FIX_ZSORT:
      return 12;
    default:
      return 4;
    }
}

static void
test_each_problem (void)
{
  g_autoptr (TressChaFile) probe = cha_test_small (40);
  g_autoptr (GPtrArray) problems = NULL;
  guint n_fixable = 0;

  damage (probe);
  problems = tress_cha_file_validate (probe);
  g_assert_cmpuint (problems->len, >=, 15);
  for (guint i = 0; i < problems->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (problems, i);
      g_autoptr (TressChaFile) file = NULL;
      g_autoptr (TressHistory) history = NULL;
      g_autoptr (GBytes) before = NULL;
      g_autoptr (GBytes) after = NULL;
      g_autoptr (GBytes) undone = NULL;
      g_autoptr (GPtrArray) left = NULL;
      const guint8 *a, *b;
      gsize size_a, size_b;
      guint n_fixed = 0;

      if (p->fix_id < 0 || p->offset == G_MAXSIZE)
        continue;
      n_fixable++;
      file = cha_test_small (40);
      damage (file);
      history = tress_history_new (file);
      before = tress_cha_file_serialize (file);
      g_assert_true (tress_cha_apply_fix_at (file, history, (TressChaFix)p->fix_id, 0, p->offset,
                                             &n_fixed, NULL));
      g_assert_cmpuint (n_fixed, ==, 1);
      g_assert_cmpuint (tress_history_get_n_undo (history), ==, 1);

      /* That problem gone, every other one still there. */
      left = tress_cha_file_validate (file);
      g_assert_cmpuint (find_problem (left, p), ==, G_MAXUINT);
      g_assert_cmpuint (left->len, ==, problems->len - 1);
      for (guint j = 0; j < problems->len; j++)
        if (j != i)
          g_assert_cmpuint (find_problem (left, g_ptr_array_index (problems, j)), !=, G_MAXUINT);

      /* Only the field's bytes changed, in the written file. */
      after = tress_cha_file_serialize (file);
      a = g_bytes_get_data (before, &size_a);
      b = g_bytes_get_data (after, &size_b);
      g_assert_cmpuint (size_a, ==, size_b);
      for (gsize k = 0; k < size_a; k++)
        if (a[k] != b[k])
          {
            g_assert_cmpuint (k, >=, p->offset);
            g_assert_cmpuint (k, <, p->offset + field_size ((TressChaFix)p->fix_id));
          }
      if (p->fix_id == TRESS_CHA_FIX_WEIGHTS)
        g_assert_cmpuint (b[p->offset] + b[p->offset + 1] + b[p->offset + 2], ==, 255);

      g_assert_true (tress_history_undo (history));
      undone = tress_cha_file_serialize (file);
      tress_test_assert_bytes_equal (before, undone);
    }
  g_assert_cmpuint (n_fixable, >=, 15);
}

/* A summed-up row ("and N more of this kind") fixes its kind in its
 * material; a whole-file fix leaves none of that kind. */
static void
test_summary_scope (void)
{
  g_autoptr (TressChaFile) file = cha_test_small (200);
  g_autoptr (TressHistory) history = tress_history_new (file);
  TressChaMaterial *m = &file->radeon->materials[0];
  g_autoptr (GPtrArray) problems = NULL;
  g_autoptr (GPtrArray) left = NULL;
  guint n_fixed = 0, n_broken = 0;

  for (guint32 i = 0; i < m->n_lines && n_broken < 150; i += 2, n_broken++)
    m->lines[i].weights[0] ^= 1;
  m->quality[0] = 9;
  problems = tress_cha_file_validate (file);
  {
    gboolean summed = FALSE;
    for (guint i = 0; i < problems->len; i++)
      summed |= ((TressProblem *)g_ptr_array_index (problems, i))->n_more > 0;
    g_assert_true (summed);
  }
  g_assert_true (
      tress_cha_apply_fix_at (file, history, TRESS_CHA_FIX_WEIGHTS, 0, G_MAXSIZE, &n_fixed, NULL));
  g_assert_cmpuint (n_broken, >, 100); /* past the listed ones: a summed-up row */
  g_assert_cmpuint (n_fixed, ==, n_broken);
  {
    g_autofree char *label = g_strdup_printf ("Fix weights (%u)", n_broken);
    g_assert_cmpstr (tress_history_get_undo_label (history), ==, label);
  }
  left = tress_cha_file_validate (file);
  g_assert_cmpuint (left->len, ==, 1);
  g_assert_cmpint (((TressProblem *)g_ptr_array_index (left, 0))->fix_id, ==,
                   TRESS_CHA_FIX_QUALITY);
  /* another material: nothing of this kind there */
  g_assert_true (
      tress_cha_apply_fix_at (file, history, TRESS_CHA_FIX_QUALITY, 1, G_MAXSIZE, &n_fixed, NULL));
  g_assert_cmpuint (n_fixed, ==, 0);
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cha/fix/each-problem", test_each_problem);
  g_test_add_func ("/cha/fix/summary-scope", test_summary_scope);
  return g_test_run ();
}
