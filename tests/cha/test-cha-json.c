/* test-cha-json.c: creature fur through dump → build, exactly, and edits in the JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "cha-test.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "formats/cha/tress-cha.h"

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

  va_start (ap, err);
  while ((a = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, (gpointer)a);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  return tress_test_run_cli ((const char *const *)args->pdata, out, err);
}

static void
write_file (const char *path, GBytes *bytes)
{
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize)g_bytes_get_size (bytes), NULL));
}

static JsonNode *
parse_json (GBytes *text)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  json_parser_load_from_data (parser, g_bytes_get_data (text, NULL),
                              (gssize)g_bytes_get_size (text), &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static GBytes *
json_text (JsonNode *node)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  gsize len = 0;
  char *text;

  json_generator_set_root (gen, node);
  text = json_generator_to_data (gen, &len);
  return g_bytes_new_take (text, len);
}

static JsonObject *
material (JsonNode *root, guint m)
{
  return json_array_get_object_element (
      json_object_get_array_member (json_node_get_object (root), "materials"), m);
}

static JsonObject *
line_of (JsonNode *root, guint m, guint i)
{
  return json_array_get_object_element (json_object_get_array_member (material (root, m), "lines"),
                                        i);
}

static void
set_array (JsonObject *o, const char *member, const gint64 *v, guint n)
{
  JsonArray *a = json_array_new ();

  for (guint i = 0; i < n; i++)
    json_array_add_int_element (a, v[i]);
  json_object_set_array_member (o, member, a);
}

static GBytes *
generate (const char *variant, guint n_ribbons, guint n_moralities)
{
  TressChaDemoOptions o;

  tress_cha_demo_options_init (&o);
  if (variant != NULL)
    g_assert_true (tress_cha_demo_options_apply_variant (&o, variant));
  o.n_ribbons = n_ribbons;
  o.n_moralities = n_moralities;
  return tress_cha_demo_generate_bytes (&o);
}

/* ---- round trips ---------------------------------------------------------- */

static void
test_round_trip_variants (void)
{
  static const char *const variants[] = { "creature",   "gorilla",     "small",    "whole-size",
                                          "seed-magic", "upper-magic", "trailing", "single" };
  g_autoptr (GDir) dir = NULL;
  g_autofree char *corpus = g_test_build_filename (G_TEST_DIST, "cha", "corpus", NULL);
  const char *name;

  for (guint i = 0; i < G_N_ELEMENTS (variants); i++)
    for (guint moralities = 0; moralities <= 2; moralities += 2)
      {
        g_autoptr (GBytes) file = generate (variants[i], 120, moralities);
        g_autoptr (GBytes) text = tress_test_assert_json_round_trip (&tress_format_cha, file);

        g_assert_cmpuint (g_bytes_get_size (text), >, 0);
      }
  /* the fuzzing corpus: the generator's odd shapes */
  dir = g_dir_open (corpus, 0, NULL);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (corpus, name, NULL);
      g_autoptr (GBytes) file = tress_test_read_file (path);
      g_autoptr (GBytes) text = tress_test_assert_json_round_trip (&tress_format_cha, file);
    }
}

/* The editor's demo file through the CLI as a user runs it (dump and build
 * as processes, files on disk). */
static void
test_round_trip_cli (void)
{
  g_autofree char *cha = tmp_path ("round.cha");
  g_autofree char *json = tmp_path ("round.json");
  g_autofree char *back = tmp_path ("round-back.cha");
  g_autofree char *err = NULL;
  g_autoptr (GBytes) a = NULL, b = NULL;

  g_assert_cmpint (run (NULL, NULL, "generate-demo", "cha", "-o", cha, NULL), ==, 0);
  g_assert_cmpint (run (NULL, &err, "dump", cha, "-o", json, NULL), ==, 0);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "build", json, "-o", back, NULL), ==, 0);
  a = tress_test_read_file (cha);
  b = tress_test_read_file (back);
  tress_test_assert_bytes_equal (a, b);
  g_unlink (cha);
  g_unlink (json);
  g_unlink (back);
}

/* The 100,000-ribbon creature (`tress-cli generate-demo cha --ribbons
 * 100000`) through the same dump and build the CLI runs, in memory: its
 * 280 MB of JSON are not written to disk and read back, which under load cost
 * the test most of its time. */
static void
test_round_trip_stress (void)
{
  TressChaDemoOptions o;
  g_autoptr (GBytes) file = NULL, text = NULL;

  tress_cha_demo_options_init (&o);
  o.n_ribbons = 100000;
  file = tress_cha_demo_generate_bytes (&o);
  g_assert_cmpuint (g_bytes_get_size (file), >, 50000000);
  text = tress_test_assert_json_round_trip (&tress_format_cha, file);
  g_assert_cmpuint (g_bytes_get_size (text), >, g_bytes_get_size (file));
}

/* A file that breaks rules and holds what only the bytes can say comes back
 * as it was; an edit elsewhere keeps its problems; a new problem is refused. */
static void
test_broken_file (void)
{
  g_autoptr (TressChaFile) file = cha_test_small (40);
  TressChaMaterial *m = &file->radeon->materials[0];
  TressChaMaterial *m1 = &file->radeon->materials[1];
  g_autoptr (GBytes) bytes = NULL, text = NULL, rebuilt = NULL, edited = NULL;
  g_autoptr (GPtrArray) problems = NULL;
  g_autoptr (JsonNode) root = NULL;
  guint32 *applied;
  float nan_bits;
  const guint32 qnan = 0x7fc01234u;
  const gint64 new_weights[3] = { 100, 100, 100 };
  const gint64 ok_weights[3] = { 100, 100, 55 };

  m->lines[0].weights[0] ^= 3;   /* the sum is off */
  m->first_line[1]++;            /* not the running sum */
  m->lines[2].refs[1] = 4;       /* not a multiple of 3 */
  m->lines[3].mask[5] = 255;     /* two bytes set */
  m->lines[4].ambient_copy ^= 1; /* a warning */
  m->lines[5].pad = 9;           /* kept */
  memcpy (&nan_bits, &qnan, 4);
  m->lines[6].direction[1] = nan_bits; /* a NaN with a payload */
  m->lines[7].direction[2] = -0.0f;
  m->n_ribbons_again++; /* a repeated count off */
  m->line_array_size = 7;
  file->radeon->morph_names[1][20] = 'x';    /* bytes after the NUL */
  file->radeon->morality_names[0][0] = 0xC3; /* not UTF-8 */
  /* a duplicate in the applied list: references to the second place are kept */
  applied = g_new (guint32, m1->n_applied + 1);
  memcpy (applied, m1->applied, 4 * (gsize)m1->n_applied);
  applied[m1->n_applied] = m1->applied[0];
  g_free (m1->applied);
  m1->applied = applied;
  m1->lines[0].refs[2] = (guint16)(3 * m1->n_applied);
  m1->n_applied++;
  file->radeon->tail_size = 5;
  file->radeon->tail = g_memdup2 ("\1\2\3\4\5", 5);

  bytes = tress_cha_file_serialize (file);
  text = tress_test_assert_json_round_trip (&tress_format_cha, bytes);
  g_assert_nonnull (strstr (g_bytes_get_data (text, NULL), "\"0x7fc01234\""));
  g_assert_nonnull (strstr (g_bytes_get_data (text, NULL), "-0.0]"));

  /* an edit elsewhere: the old problems stay, the edit lands */
  root = parse_json (text);
  set_array (line_of (root, 0, 20), "weights", ok_weights, 3);
  edited = json_text (root);
  rebuilt = tress_test_build (&tress_format_cha, edited, &problems);
  g_assert_nonnull (rebuilt);
  {
    g_autoptr (TressChaFile) back = cha_test_parse (rebuilt);
    const TressChaLine *l = &back->radeon->materials[0].lines[20];

    g_assert_cmpuint (tress_cha_line_get_weight (l, 0), ==, 100);
    g_assert_cmpuint (tress_cha_line_get_weight (l, 2), ==, 55);
    g_assert_cmpuint (back->radeon->materials[0].lines[0].weights[0], ==, m->lines[0].weights[0]);
  }
  g_clear_pointer (&problems, g_ptr_array_unref);
  g_clear_pointer (&rebuilt, g_bytes_unref);
  g_clear_pointer (&edited, g_bytes_unref);

  /* a new broken sum is refused at its place */
  set_array (line_of (root, 0, 21), "weights", new_weights, 3);
  edited = json_text (root);
  rebuilt = tress_test_build (&tress_format_cha, edited, &problems);
  g_assert_null (rebuilt);
  g_assert_true (tress_test_has_problem (problems, "/materials/0/lines/21/weights", "not 255"));
}

/* A file whose radeon section comes after the hybrid one: the radeon section
 * is found where it stands and the file comes back byte for byte; a second
 * section named "radeon" without bytes is refused at its place. */
static void
test_radeon_not_first (void)
{
  g_autoptr (TressChaFile) file = cha_test_small (30);
  g_autoptr (GBytes) bytes = NULL, text = NULL, edited = NULL, rebuilt = NULL;
  g_autoptr (TressChaFile) back = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (GPtrArray) problems = NULL;
  TressChaSection first;
  JsonObject *hybrid;

  g_assert_cmpuint (file->n_sections, ==, 2);
  g_assert_nonnull (file->sections[1].opaque);
  first = file->sections[0];
  file->sections[0] = file->sections[1];
  file->sections[1] = first;
  bytes = tress_cha_file_serialize (file);
  back = cha_test_parse (bytes);
  g_assert_nonnull (back->sections[0].opaque);
  g_assert_true (back->radeon == back->sections[1].radeon);
  g_assert_nonnull (back->radeon);

  text = tress_test_assert_json_round_trip (&tress_format_cha, bytes);
  root = parse_json (text);
  hybrid = json_array_get_object_element (
      json_object_get_array_member (json_node_get_object (root), "sections"), 0);
  g_assert_true (json_object_has_member (hybrid, "base64"));
  json_object_set_string_member (hybrid, "name", "radeon");
  json_object_remove_member (hybrid, "base64");
  edited = json_text (root);
  rebuilt = tress_test_build (&tress_format_cha, edited, &problems);
  g_assert_null (rebuilt);
  g_assert_true (
      tress_test_has_problem (problems, "/sections/1", "only the first section named \"radeon\""));
}

/* ---- edits: the same bytes as the CLI's edit commands ---------------------- */

static char *demo_path;
static char *demo_json;

static void
ensure_demo (void)
{
  if (demo_path != NULL)
    return;
  demo_path = tmp_path ("demo.cha");
  demo_json = tmp_path ("demo.json");
  g_assert_cmpint (
      run (NULL, NULL, "generate-demo", "cha", "--ribbons", "300", "-o", demo_path, NULL), ==, 0);
  g_assert_cmpint (run (NULL, NULL, "dump", demo_path, "-o", demo_json, NULL), ==, 0);
}

static JsonNode *
demo_root (void)
{
  g_autoptr (GBytes) text = NULL;

  ensure_demo ();
  text = tress_test_read_file (demo_json);
  return parse_json (text);
}

/* Builds @root through the CLI; returns the exit status, the bytes in *out. */
static int
build_cli (JsonNode *root, GBytes **out, char **err)
{
  g_autofree char *json = tmp_path ("edited.json");
  g_autofree char *cha = tmp_path ("edited.cha");
  g_autoptr (GBytes) text = json_text (root);
  int status;

  g_unlink (cha);
  write_file (json, text);
  status = run (NULL, err, "build", json, "-o", cha, NULL);
  if (out != NULL)
    *out = g_file_test (cha, G_FILE_TEST_EXISTS) ? tress_test_read_file (cha) : NULL;
  return status;
}

static void
test_edit_weights (void)
{
  g_autoptr (JsonNode) root = demo_root ();
  g_autoptr (TressChaFile) file = NULL;
  g_autofree char *cli_out = tmp_path ("set-weights.cha");
  g_autoptr (GBytes) by_cli = NULL, by_json = NULL, original = NULL;
  const gint64 w[3] = { 0, 55, 200 };
  guint line;

  original = tress_test_read_file (demo_path);
  file = cha_test_parse (original);
  line = file->radeon->materials[0].first_line[12] + 3;
  g_assert_cmpint (run (NULL, NULL, "set-weights", demo_path, "--line", "0/12/3", "0", "55", "200",
                        "-o", cli_out, NULL),
                   ==, 0);
  by_cli = tress_test_read_file (cli_out);
  set_array (line_of (root, 0, line), "weights", w, 3);
  g_assert_cmpint (build_cli (root, &by_json, NULL), ==, 0);
  tress_test_assert_bytes_equal (by_cli, by_json);
  g_assert_false (g_bytes_equal (by_json, original));
}

static void
test_edit_retarget (void)
{
  g_autoptr (JsonNode) root = demo_root ();
  g_autoptr (GBytes) original = NULL, by_cli = NULL, by_json = NULL;
  g_autoptr (TressChaFile) file = NULL;
  g_autofree char *cli_out = tmp_path ("retarget.cha");
  g_autofree char *from_s = NULL;
  const TressChaMaterial *m;
  JsonObject *mo = material (root, 0);
  JsonArray *lines, *ribbons;
  guint32 from;
  const guint32 to = 4;

  original = tress_test_read_file (demo_path);
  file = cha_test_parse (original);
  m = &file->radeon->materials[0];
  from = m->attach[0];
  from_s = g_strdup_printf ("%u", from);
  g_assert_cmpint (tress_cha_material_find_applied (m, to), <, 0);
  g_assert_cmpint (run (NULL, NULL, "retarget", demo_path, "--from", from_s, "--to", "4",
                        "--material", "0", "-o", cli_out, NULL),
                   ==, 0);
  by_cli = tress_test_read_file (cli_out);

  /* In the JSON: add 4 to the applied list, then replace the body part in
   * every line and attachment of the material. */
  json_array_add_int_element (json_object_get_array_member (mo, "applied"), to);
  lines = json_object_get_array_member (mo, "lines");
  for (guint i = 0; i < json_array_get_length (lines); i++)
    {
      JsonObject *l = json_array_get_object_element (lines, i);
      JsonArray *bp = json_object_get_array_member (l, "body_parts");
      gint64 v[3];

      for (guint k = 0; k < 3; k++)
        {
          v[k] = json_array_get_int_element (bp, k);
          if (v[k] == from)
            v[k] = to;
        }
      set_array (l, "body_parts", v, 3);
    }
  ribbons = json_object_get_array_member (mo, "ribbons");
  for (guint i = 0; i < json_array_get_length (ribbons); i++)
    {
      JsonObject *r = json_array_get_object_element (ribbons, i);
      if (json_object_get_int_member (r, "attach") == from)
        json_object_set_int_member (r, "attach", to);
    }
  g_assert_cmpint (build_cli (root, &by_json, NULL), ==, 0);
  tress_test_assert_bytes_equal (by_cli, by_json);
}

/* ---- refusals -------------------------------------------------------------- */

static void
assert_refused (JsonNode *root, int status, const char *path, const char *words)
{
  g_autofree char *err = NULL;
  g_autoptr (GBytes) out = NULL;

  g_assert_cmpint (build_cli (root, &out, &err), ==, status);
  g_assert_null (out); /* nothing written */
  if (strstr (err, path) == NULL || (words != NULL && strstr (err, words) == NULL))
    g_error ("expected a refusal at %s (%s), got:\n%s", path, words, err);
  g_assert_nonnull (strstr (err, "nothing written"));
}

static void
test_refusals (void)
{
  const gint64 sum_254[3] = { 100, 100, 54 };
  const gint64 outside[3] = { 0, 5, 1 };

  {
    g_autoptr (JsonNode) root = demo_root ();
    json_object_set_string_member (line_of (root, 0, 12), "weights", "x");
    assert_refused (root, 1, "/materials/0/lines/12/weights: expected an array, found a string",
                    NULL);
  }
  {
    g_autoptr (JsonNode) root = demo_root ();
    set_array (line_of (root, 0, 12), "weights", sum_254, 3);
    assert_refused (root, 1, "/materials/0/lines/12/weights", "sum to 254, not 255");
  }
  {
    g_autoptr (JsonNode) root = demo_root ();
    const gint64 too_big[3] = { 256, 0, 0 };
    set_array (line_of (root, 0, 12), "weights", too_big, 3);
    assert_refused (root, 1, "/materials/0/lines/12/weights/0", "from 0 to 255, found 256");
  }
  {
    /* a body part that is not in the material's list (5 is on material 1 only) */
    g_autoptr (JsonNode) root = demo_root ();
    set_array (line_of (root, 0, 12), "body_parts", outside, 3);
    assert_refused (root, 1, "/materials/0/lines/12/body_parts/1",
                    "body part 5 is not in the material's applied list");
  }
  {
    g_autoptr (JsonNode) root = demo_root ();
    json_object_set_int_member (line_of (root, 0, 12), "section", 7);
    assert_refused (root, 1, "/materials/0/lines/12/section", "edit the mask instead");
  }
  {
    g_autoptr (JsonNode) root = demo_root ();
    json_object_set_int_member (line_of (root, 0, 3), "colur", 7);
    assert_refused (root, 1, "/materials/0/lines/3/colur", "not a member Tress writes here");
  }
  {
    g_autoptr (JsonNode) root = demo_root ();
    json_object_remove_member (line_of (root, 0, 3), "mask");
    assert_refused (root, 1, "/materials/0/lines/3/mask", "missing");
  }
  {
    /* the names as something else than a list: refused there, the rest not
     * put together without them (it crashed, found by the json fuzz target) */
    g_autoptr (JsonNode) root = demo_root ();
    json_object_set_double_member (json_node_get_object (root), "morphs", 0.5);
    assert_refused (root, 1, "/morphs: expected an array, found a number", NULL);
  }
  {
    g_autoptr (JsonNode) root = demo_root ();
    json_object_set_object_member (json_node_get_object (root), "moralities", json_object_new ());
    assert_refused (root, 1, "/moralities: expected an array, found an object", NULL);
  }
  {
    /* several at once, each named */
    g_autoptr (JsonNode) root = demo_root ();
    g_autofree char *err = NULL;
    set_array (line_of (root, 0, 12), "weights", sum_254, 3);
    set_array (line_of (root, 1, 40), "weights", sum_254, 3);
    json_object_set_int_member (
        json_array_get_object_element (json_object_get_array_member (material (root, 0), "ribbons"),
                                       2),
        "quality", 9);
    g_assert_cmpint (build_cli (root, NULL, &err), ==, 1);
    g_assert_nonnull (strstr (err, "/materials/0/lines/12/weights"));
    g_assert_nonnull (strstr (err, "/materials/1/lines/40/weights"));
    g_assert_nonnull (strstr (err, "/materials/0/ribbons/2/quality"));
  }
  {
    /* every line's weights broken: a screenful, each kind summed up after its
     * first ones, and the count of all of them */
    g_autoptr (JsonNode) root = demo_root ();
    g_autofree char *err = NULL;
    g_autofree char *refused = NULL;
    g_auto (GStrv) lines = NULL;
    guint n = 0;

    for (guint m = 0; m < 2; m++)
      {
        JsonArray *all = json_object_get_array_member (material (root, m), "lines");

        for (guint i = 0; i < json_array_get_length (all); i++, n++)
          set_array (json_array_get_object_element (all, i), "weights", sum_254, 3);
      }
    g_assert_cmpuint (n, >, 1000);
    g_assert_cmpint (build_cli (root, NULL, &err), ==, 1);
    lines = g_strsplit (err, "\n", -1);
    g_assert_cmpuint (g_strv_length (lines), <, 50);
    g_assert_nonnull (strstr (err, "/materials/0/lines/0/weights"));
    g_assert_nonnull (strstr (err, "more of this kind"));
    refused = g_strdup_printf ("nothing written (%u refused)", n);
    g_assert_nonnull (strstr (err, refused));
  }
  {
    /* truncated text: unreadable, with where it broke */
    g_autoptr (GBytes) text = NULL;
    g_autofree char *json = tmp_path ("truncated.json");
    g_autofree char *cha = tmp_path ("truncated.cha");
    g_autofree char *err = NULL;
    gsize len;

    ensure_demo ();
    text = tress_test_read_file (demo_json);
    len = g_bytes_get_size (text);
    g_assert_true (
        g_file_set_contents (json, g_bytes_get_data (text, NULL), (gssize)(len / 2), NULL));
    g_assert_cmpint (run (NULL, &err, "build", json, "-o", cha, NULL), ==, 2);
    g_assert_nonnull (strstr (err, "/materials/"));
    g_assert_nonnull (strstr (err, "the JSON text is broken"));
    g_assert_false (g_file_test (cha, G_FILE_TEST_EXISTS));
  }
  {
    /* another format's name, and a newer schema */
    g_autoptr (JsonNode) root = demo_root ();
    json_object_set_int_member (json_node_get_object (root), "version", 99);
    assert_refused (root, 1, "/version", "99");
  }
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cha/json/round-trip", test_round_trip_variants);
  g_test_add_func ("/cha/json/round-trip-cli", test_round_trip_cli);
  g_test_add_func ("/cha/json/round-trip-100000", test_round_trip_stress);
  g_test_add_func ("/cha/json/broken-file", test_broken_file);
  g_test_add_func ("/cha/json/radeon-not-first", test_radeon_not_first);
  g_test_add_func ("/cha/json/edit-weights", test_edit_weights);
  g_test_add_func ("/cha/json/edit-retarget", test_edit_retarget);
  g_test_add_func ("/cha/json/refusals", test_refusals);
  status = g_test_run ();
  g_free (demo_path);
  g_free (demo_json);
  return status;
}
