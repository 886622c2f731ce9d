/* test-cha-cli.c: tress-cli on creature-fur files, as a user runs it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "cha-test.h"

#include <errno.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

static char *
tmp_path (const char *name)
{
  return g_build_filename (tress_test_tmpdir (), name, NULL);
}

static int
run (char **out, char **err, ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  const char *a;
  va_list ap;
  int status;

  va_start (ap, err);
  while ((a = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, (gpointer)a);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  status = tress_test_run_cli ((const char *const *)args->pdata, out, err);
  return status;
}

static TressChaFile *
load (const char *path)
{
  g_autofree char *contents = NULL;
  gsize len;
  g_autoptr (GBytes) bytes = NULL;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  bytes = g_bytes_new_take (g_steal_pointer (&contents), len);
  return cha_test_parse (bytes);
}

static char *demo_path;

static const char *
demo (void)
{
  if (demo_path == NULL)
    {
      g_autofree char *err = NULL;
      demo_path = tmp_path ("demo.cha");
      g_assert_cmpint (run (NULL, &err, "generate-demo", "cha", "-o", demo_path, NULL), ==, 0);
    }
  return demo_path;
}

static void
test_generate_demo (void)
{
  g_autofree char *again = tmp_path ("again.cha");
  g_autofree char *gorilla = tmp_path ("gorilla.cha");
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *err = NULL;
  gsize la, lb;
  g_autoptr (TressChaFile) file = NULL;
  g_autoptr (TressChaFile) g = NULL;

  g_assert_cmpint (run (NULL, NULL, "generate-demo", "cha", "-o", again, NULL), ==, 0);
  g_assert_true (g_file_get_contents (demo (), &a, &la, NULL));
  g_assert_true (g_file_get_contents (again, &b, &lb, NULL));
  g_assert_cmpmem (a, la, b, lb); /* deterministic */
  file = load (demo ());
  g_assert_cmpuint (file->radeon->materials[0].n_ribbons + file->radeon->materials[1].n_ribbons, >=,
                    2000);

  g_assert_cmpint (run (NULL, NULL, "generate-demo", "cha", "--ribbons", "300", "--moralities", "0",
                        "--variant", "whole-size", "-o", gorilla, NULL),
                   ==, 0);
  g = load (gorilla);
  g_assert_cmpuint (g->radeon->n_moralities, ==, 0);
  g_assert_cmpint (g->size_convention, ==, TRESS_CHA_SIZE_WHOLE);

  g_assert_cmpint (
      run (NULL, &err, "generate-demo", "cha", "--moralities", "1", "-o", gorilla, NULL), ==, 2);
  g_assert_nonnull (strstr (err, "--moralities"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (
      run (NULL, &err, "generate-demo", "cha", "--variant", "bogus", "-o", gorilla, NULL), ==, 2);
  g_assert_nonnull (strstr (err, "bogus"));
}

static void
test_info_validate_resave (void)
{
  g_autofree char *out = NULL;
  g_autofree char *resaved = tmp_path ("resaved.cha");
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  gsize la, lb;

  g_assert_cmpint (run (&out, NULL, "info", demo (), NULL), ==, 0);
  g_assert_nonnull (strstr (out, "Morphs: fat, thin, strong, weak"));
  g_assert_nonnull (strstr (out, "Moralities: evil, good"));
  g_assert_nonnull (strstr (out, "Section hybrid"));
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (&out, NULL, "validate", demo (), NULL), ==, 0);
  g_assert_nonnull (strstr (out, "0 errors, 0 warnings"));
  g_assert_cmpint (run (NULL, NULL, "resave", demo (), "-o", resaved, NULL), ==, 0);
  g_assert_true (g_file_get_contents (demo (), &a, &la, NULL));
  g_assert_true (g_file_get_contents (resaved, &b, &lb, NULL));
  g_assert_cmpmem (a, la, b, lb);
}

static void
test_dump (void)
{
  g_autofree char *out = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *small = tmp_path ("small.cha");
  g_autoptr (TressChaFile) file = NULL;
  JsonObject *root, *material, *ribbon, *line;
  JsonArray *ribbons, *weights;
  const TressChaMaterial *m;
  const TressChaLine *l;

  /* a smaller creature: the JSON of every line is some 20 times the file */
  g_assert_cmpint (run (NULL, NULL, "generate-demo", "cha", "--ribbons", "200", "-o", small, NULL),
                   ==, 0);
  file = load (small);
  m = &file->radeon->materials[0];
  l = &m->lines[m->first_line[12] + 3];
  g_assert_cmpint (run (&out, NULL, "dump", small, NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "cha");
  g_assert_cmpint (json_object_get_int_member (root, "version"), ==, 1);
  material = json_array_get_object_element (json_object_get_array_member (root, "materials"), 0);
  ribbons = json_object_get_array_member (material, "ribbons");
  g_assert_cmpuint (json_array_get_length (ribbons), ==, m->n_ribbons);
  ribbon = json_array_get_object_element (ribbons, 12);
  /* first lines are the running sum of line counts: written only where they are not */
  g_assert_false (json_object_has_member (ribbon, "first_line"));
  g_assert_cmpint (json_object_get_int_member (ribbon, "line_count"), ==, m->n_ribbon_lines[12]);
  line = json_array_get_object_element (json_object_get_array_member (material, "lines"),
                                        m->first_line[12] + 3);
  weights = json_object_get_array_member (line, "weights");
  for (guint k = 0; k < 3; k++)
    g_assert_cmpint (json_array_get_int_element (weights, k), ==, tress_cha_line_get_weight (l, k));
  g_assert_cmpint (
      json_array_get_int_element (json_object_get_array_member (line, "body_parts"), 0), ==,
      m->applied[l->refs[0] / 3]);
  g_assert_false (json_object_has_member (line, "refs"));
  g_assert_cmpint (json_object_get_int_member (line, "section"), ==, 2);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (material, "uv")), ==,
                    1680);
}

static void
test_set_weights (void)
{
  g_autofree char *out_path = tmp_path ("weights.cha");
  g_autofree char *bad_path = tmp_path ("bad-weights.cha");
  g_autofree char *err = NULL;
  g_autoptr (TressChaFile) file = NULL;
  const TressChaMaterial *m;
  const TressChaLine *l;

  g_assert_cmpint (run (NULL, NULL, "set-weights", demo (), "--line",
                        "radeon/material 0/ribbon 12/line 3", "0", "55", "200", "-o", out_path,
                        NULL),
                   ==, 0);
  file = load (out_path);
  m = &file->radeon->materials[0];
  l = &m->lines[m->first_line[12] + 3];
  g_assert_cmpuint (tress_cha_line_get_weight (l, 0), ==, 0);
  g_assert_cmpuint (tress_cha_line_get_weight (l, 1), ==, 55);
  g_assert_cmpuint (tress_cha_line_get_weight (l, 2), ==, 200);

  /* a sum other than 255 is refused and writes nothing */
  g_assert_cmpint (run (NULL, &err, "set-weights", demo (), "--line", "0/12/3", "0", "55", "201",
                        "-o", bad_path, NULL),
                   ==, 1);
  g_assert_nonnull (strstr (err, "255"));
  g_assert_false (g_file_test (bad_path, G_FILE_TEST_EXISTS));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "set-weights", demo (), "--line", "0/99999/3", "0", "55", "200",
                        "-o", bad_path, NULL),
                   ==, 1);
  g_assert_false (g_file_test (bad_path, G_FILE_TEST_EXISTS));
}

static void
test_retarget (void)
{
  g_autofree char *out_path = tmp_path ("retarget.cha");
  g_autofree char *out = NULL;
  g_autoptr (TressChaFile) before = load (demo ());
  g_autoptr (TressChaFile) after = NULL;
  const TressChaMaterial *m;
  guint32 from = before->radeon->materials[0].attach[0];
  g_autofree char *from_s = g_strdup_printf ("%u", from);
  guint n_lines = 0;

  g_assert_cmpint (run (&out, NULL, "retarget", demo (), "--from", from_s, "--to", "15",
                        "--material", "0", "-o", out_path, NULL),
                   ==, 0);
  g_assert_nonnull (strstr (out, "retargeted"));
  after = load (out_path);
  m = &after->radeon->materials[0];
  for (guint r = 0; r < m->n_ribbons; r++)
    g_assert_cmpuint (m->attach[r], !=, from);
  for (guint i = 0; i < m->n_lines; i++)
    for (guint k = 0; k < 3; k++)
      {
        g_assert_cmpint (tress_cha_material_ref_body_part (m, &m->lines[i], k), !=, from);
        n_lines += tress_cha_material_ref_body_part (m, &m->lines[i], k) == 15;
      }
  g_assert_cmpuint (n_lines, >, 0);
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (&out, NULL, "validate", out_path, NULL), ==, 0);

  /* a ribbon list */
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (&out, NULL, "retarget", demo (), "--from", from_s, "--to", "15",
                        "--ribbons", "0-2,5", "-o", out_path, NULL),
                   ==, 0);
  g_assert_nonnull (strstr (out, "ribbons"));
  /* a body part beyond BODY_PART_MAX is refused */
  g_assert_cmpint (
      run (NULL, NULL, "retarget", demo (), "--from", from_s, "--to", "999", "-o", out_path, NULL),
      ==, 1);
}

/* Body parts run from 0 to BODY_PART_MAX − 1: retargeting to BODY_PART_MAX
 * itself is refused before anything is edited, as an edit refused (exit 1),
 * saying why, with nothing written; one below it is a body part. */
static void
test_retarget_body_part_max (void)
{
  g_autofree char *out_path = tmp_path ("retarget-max.cha");
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (TressChaFile) before = load (demo ());
  guint32 max = before->radeon->body_part_max;
  guint32 from = before->radeon->materials[0].attach[0];
  g_autofree char *from_s = g_strdup_printf ("%u", from);
  g_autofree char *max_s = g_strdup_printf ("%u", max);
  g_autofree char *last_s = g_strdup_printf ("%u", max - 1);
  g_autofree char *said
      = g_strdup_printf ("body part %u does not exist: BODY_PART_MAX is %u", max, max);

  g_assert_cmpuint (max, >, 1);
  g_assert_cmpuint (from, <, max - 1);
  g_assert_cmpint (g_unlink (out_path) == 0 || errno == ENOENT, ==, TRUE);
  g_assert_cmpint (
      run (&out, &err, "retarget", demo (), "--from", from_s, "--to", max_s, "-o", out_path, NULL),
      ==, 1);
  if (strstr (err, said) == NULL)
    g_error ("“%s” is not in the error “%s”", said, err);
  g_assert_null (strstr (out, "retargeted"));
  g_assert_null (strstr (err, "nothing written")); /* not the save's safety net */
  g_assert_false (g_file_test (out_path, G_FILE_TEST_EXISTS));

  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (
      run (&out, &err, "retarget", demo (), "--from", from_s, "--to", last_s, "-o", out_path, NULL),
      ==, 0);
  g_assert_nonnull (strstr (out, "retargeted"));
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (&out, NULL, "validate", out_path, NULL), ==, 0);
}

static void
test_fix_and_errors (void)
{
  g_autoptr (TressChaFile) file = cha_test_small (30);
  g_autofree char *broken = tmp_path ("broken.cha");
  g_autofree char *fixed = tmp_path ("fixed.cha");
  g_autofree char *garbage = tmp_path ("garbage.cha");
  g_autofree char *out = NULL;
  g_autoptr (GBytes) bytes = NULL;

  file->radeon->materials[0].lines[0].weights[0] ^= 3;
  file->radeon->materials[0].first_line[1]++;
  bytes = tress_cha_file_serialize (file);
  g_assert_true (g_file_set_contents (broken, g_bytes_get_data (bytes, NULL),
                                      (gssize)g_bytes_get_size (bytes), NULL));
  g_assert_cmpint (run (&out, NULL, "validate", broken, NULL), ==, 1);
  g_assert_nonnull (strstr (out, "radeon/material 0/ribbon 0/line 0"));
  g_assert_nonnull (strstr (out, "radeon/material 0/ribbon 1"));
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (&out, NULL, "fix", broken, "-o", fixed, NULL), ==, 0);
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (&out, NULL, "validate", fixed, NULL), ==, 0);

  g_assert_true (g_file_set_contents (garbage, "LionheadCreature but nothing else", -1, NULL));
  g_assert_cmpint (run (NULL, NULL, "validate", garbage, NULL), ==, 2);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cha/cli/generate-demo", test_generate_demo);
  g_test_add_func ("/cha/cli/info-validate-resave", test_info_validate_resave);
  g_test_add_func ("/cha/cli/dump", test_dump);
  g_test_add_func ("/cha/cli/set-weights", test_set_weights);
  g_test_add_func ("/cha/cli/retarget", test_retarget);
  g_test_add_func ("/cha/cli/retarget-body-part-max", test_retarget_body_part_max);
  g_test_add_func ("/cha/cli/fix", test_fix_and_errors);
  status = g_test_run ();
  g_free (demo_path);
  return status;
}
