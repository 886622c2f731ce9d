/* test-cli-diff.c: tress-cli diff reports exactly what the CLI's edit commands changed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "formats/bfres/tress-bfres.h"
#include "formats/cha/tress-cha-model.h"
#include "formats/tress-diff.h"
#include "tress-test-utils.h"

static char *
tmp (const char *name)
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

/* `tress-cli diff --json A B`: the exit status, the report parsed. */
static int
diff_json (const char *a, const char *b, JsonNode **report)
{
  g_autofree char *out = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  int status = run (&out, NULL, "diff", "--json", a, b, NULL);

  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  *report = json_node_copy (json_parser_get_root (parser));
  return status;
}

static JsonArray *
differences (JsonNode *report)
{
  return json_object_get_array_member (json_node_get_object (report), "differences");
}

/* The one difference at @path, asserting there is one. */
static JsonObject *
find (JsonNode *report, const char *path)
{
  JsonArray *d = differences (report);
  JsonObject *found = NULL;

  for (guint i = 0; i < json_array_get_length (d); i++)
    {
      JsonObject *o = json_array_get_object_element (d, i);
      if (strcmp (json_object_get_string_member (o, "path"), path) == 0)
        {
          g_assert_null (found);
          found = o;
        }
    }
  if (found == NULL)
    g_error ("no difference at %s", path);
  return found;
}

/* The names of an item's "members", comma separated. */
static char *
member_names (JsonObject *item)
{
  g_autoptr (GList) names
      = json_object_get_members (json_object_get_object_member (item, "members"));
  g_autoptr (GString) s = g_string_new (NULL);

  for (GList *l = names; l != NULL; l = l->next)
    g_string_append_printf (s, "%s%s", s->len ? "," : "", (const char *)l->data);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static char *
make_demo (const char *name, const char *ribbons)
{
  char *path = tmp (name);

  g_assert_cmpint (run (NULL, NULL, "generate-demo", "cha", "--ribbons", ribbons, "-o", path, NULL),
                   ==, 0);
  return path;
}

/* ---- same, unreadable ------------------------------------------------------ */

static void
test_same_and_unreadable (void)
{
  g_autofree char *a = make_demo ("same.cha", "50");
  g_autofree char *missing = tmp ("missing.cha");
  g_autofree char *bfres = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (JsonNode) report = NULL;

  g_assert_cmpint (run (&out, NULL, "diff", a, a, NULL), ==, 0);
  g_assert_cmpstr (out, ==, "");
  g_assert_cmpint (diff_json (a, a, &report), ==, 0);
  g_assert_true (json_object_get_boolean_member (json_node_get_object (report), "same"));
  g_assert_cmpuint (json_array_get_length (differences (report)), ==, 0);

  g_assert_cmpint (run (NULL, &err, "diff", a, missing, NULL), ==, 2);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "diff", a, NULL), ==, 2);
  g_clear_pointer (&err, g_free);
  if (bfres != NULL)
    {
      g_assert_cmpint (run (NULL, &err, "diff", a, bfres, NULL), ==, 2);
      g_assert_nonnull (strstr (err, "of one format"));
    }
}

/* ---- creature fur ---------------------------------------------------------- */

static void
test_cha_set_weights (void)
{
  g_autofree char *a = make_demo ("weights.cha", "300");
  g_autofree char *b = tmp ("weights-edited.cha");
  g_autofree char *text = NULL;
  g_autoptr (JsonNode) report = NULL;
  g_autofree char *names = NULL;
  JsonObject *item;
  JsonArray *w;
  JsonObject *o;
  const char *path;

  g_assert_cmpint (
      run (NULL, NULL, "set-weights", a, "--line", "0/12/3", "0", "55", "200", "-o", b, NULL), ==,
      0);
  g_assert_cmpint (diff_json (a, b, &report), ==, 1);
  g_assert_cmpuint (json_array_get_length (differences (report)), ==, 1);
  item = json_array_get_object_element (differences (report), 0);
  path = json_object_get_string_member (item, "path");
  g_assert_true (g_str_has_prefix (path, "/materials/0/lines/"));
  g_assert_cmpstr (json_object_get_string_member (item, "kind"), ==, "line");
  names = member_names (item);
  g_assert_cmpstr (names, ==, "weights");
  o = json_object_get_object_member (json_object_get_object_member (item, "members"), "weights");
  w = json_object_get_array_member (o, "b");
  g_assert_cmpint (json_array_get_int_element (w, 0), ==, 0);
  g_assert_cmpint (json_array_get_int_element (w, 1), ==, 55);
  g_assert_cmpint (json_array_get_int_element (w, 2), ==, 200);

  /* the text says the same: the summary, then one line */
  g_assert_cmpint (run (&text, NULL, "diff", a, b, NULL), ==, 1);
  g_assert_true (g_str_has_prefix (text, "1 difference: 1 line\n"));
  {
    const char *detail = strchr (text, '\n') + 1;

    g_assert_true (g_str_has_prefix (detail, path));
    g_assert_nonnull (strstr (detail, "weights"));
    g_assert_nonnull (strstr (detail, "→ [0, 55, 200]"));
    g_assert_cmpuint (strchr (detail, '\n') - text + 1, ==, strlen (text));
  }
}

static void
test_cha_retarget (void)
{
  g_autofree char *a = make_demo ("retarget.cha", "300");
  g_autofree char *b = tmp ("retarget-edited.cha");
  g_autofree char *json = tmp ("retarget.json");
  g_autoptr (JsonNode) report = NULL, dump = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *mat;
  JsonArray *lines, *ribbons;
  guint expected = 1, from;
  char from_s[16];

  /* the body part of ribbon 0 of material 0 moves to 4 */
  g_assert_cmpint (run (NULL, NULL, "dump", a, "-o", json, NULL), ==, 0);
  json_parser_load_from_file (parser, json, &error);
  g_assert_no_error (error);
  dump = json_node_copy (json_parser_get_root (parser));
  mat = json_array_get_object_element (
      json_object_get_array_member (json_node_get_object (dump), "materials"), 0);
  ribbons = json_object_get_array_member (mat, "ribbons");
  lines = json_object_get_array_member (mat, "lines");
  from = (guint)json_object_get_int_member (json_array_get_object_element (ribbons, 0), "attach");
  g_snprintf (from_s, sizeof from_s, "%u", from);
  g_assert_cmpint (run (NULL, NULL, "retarget", a, "--from", from_s, "--to", "4", "--material", "0",
                        "-o", b, NULL),
                   ==, 0);
  g_assert_cmpint (diff_json (a, b, &report), ==, 1);

  /* the applied list, and nothing else of the material */
  {
    g_autofree char *names = member_names (find (report, "/materials/0"));
    g_assert_cmpstr (names, ==, "applied");
  }
  /* every line on the body part: its body parts, nothing else */
  for (guint i = 0; i < json_array_get_length (lines); i++)
    {
      JsonArray *bp
          = json_object_get_array_member (json_array_get_object_element (lines, i), "body_parts");
      gboolean on = FALSE;

      for (guint k = 0; k < 3; k++)
        on |= json_array_get_int_element (bp, k) == from;
      if (on)
        {
          g_autofree char *p = g_strdup_printf ("/materials/0/lines/%u", i);
          g_autofree char *names = member_names (find (report, p));
          g_assert_cmpstr (names, ==, "body_parts");
          expected++;
        }
    }
  /* every ribbon attached to it: the attachment */
  for (guint i = 0; i < json_array_get_length (ribbons); i++)
    if (json_object_get_int_member (json_array_get_object_element (ribbons, i), "attach") == from)
      {
        g_autofree char *p = g_strdup_printf ("/materials/0/ribbons/%u", i);
        JsonObject *item = find (report, p);
        g_autofree char *names = member_names (item);
        JsonObject *attach = json_object_get_object_member (
            json_object_get_object_member (item, "members"), "attach");

        g_assert_cmpstr (names, ==, "attach");
        g_assert_cmpint (json_object_get_int_member (attach, "a"), ==, from);
        g_assert_cmpint (json_object_get_int_member (attach, "b"), ==, 4);
        expected++;
      }
  g_assert_cmpuint (expected, >, 2);
  g_assert_cmpuint (json_array_get_length (differences (report)), ==, expected);

  /* As text: a summary first, then at most 20 of each kind and how many more;
   * --all lists every one. */
  {
    g_autofree char *out = NULL, *all = NULL, *want = NULL;
    g_auto (GStrv) lines_out = NULL, lines_all = NULL;

    g_assert_cmpint (run (&out, NULL, "diff", a, b, NULL), ==, 1);
    g_assert_cmpint (run (&all, NULL, "diff", "--all", a, b, NULL), ==, 1);
    lines_out = g_strsplit (out, "\n", -1);
    lines_all = g_strsplit (all, "\n", -1);
    want = g_strdup_printf ("%u differences: ", expected);
    g_assert_true (g_str_has_prefix (lines_out[0], want));
    g_assert_nonnull (strstr (lines_out[0], " lines"));
    g_assert_cmpuint (expected, >, 60);
    g_assert_cmpuint (g_strv_length (lines_out), <, 50);
    g_assert_nonnull (strstr (out, "more of kind line (--all lists every one)"));
    /* the summary, one line per difference, the closing newline */
    g_assert_cmpuint (g_strv_length (lines_all), ==, expected + 2);
  }
}

/* A whole-file retarget of a 100,000-ribbon file differs in some 400,000
 * lines: the plain output is still a summary and 20 of each kind. */
static void
test_cha_big_retarget (void)
{
  g_autofree char *a = make_demo ("big.cha", "100000");
  g_autofree char *b = tmp ("big-retarget.cha");
  g_autofree char *said = NULL, *out = NULL;
  g_auto (GStrv) lines = NULL;
  guint n_lines = 0, n_ribbons = 0;
  const char *p;

  g_assert_cmpint (run (&said, NULL, "retarget", a, "--from", "2", "--to", "4", "-o", b, NULL), ==,
                   0);
  p = strstr (said, "retargeted ");
  g_assert_nonnull (p);
  g_assert_cmpint (sscanf (p, "retargeted %u lines and %u ribbons", &n_lines, &n_ribbons), ==, 2);
  g_assert_cmpuint (n_lines, >, 100000);

  g_assert_cmpint (run (&out, NULL, "diff", a, b, NULL), ==, 1);
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), <, 50);
  /* the summary: the applied list of the material, the ribbons attached to
   * the body part, every line the retarget changed */
  {
    guint total = 0, members = 0, ribbons = 0, n = 0;

    g_assert_cmpint (sscanf (lines[0], "%u differences: %u member, %u ribbons, %u lines", &total,
                             &members, &ribbons, &n),
                     ==, 4);
    g_assert_cmpuint (members, ==, 1);
    g_assert_cmpuint (ribbons, >, 1000);
    g_assert_cmpuint (n, ==, n_lines);
    g_assert_cmpuint (total, ==, members + ribbons + n);
  }
  g_assert_nonnull (strstr (out, "more of kind line (--all lists every one)\n"));
  g_assert_nonnull (strstr (out, "more of kind ribbon (--all lists every one)\n"));
}

/* One body part renumbered in the applied list (part P becomes P − 1), the
 * lines' bytes the same: the material's applied list differs, and every line
 * that references that entry shows its body parts changed. */
static void
test_cha_applied_renumbered (void)
{
  g_autofree char *a = make_demo ("applied.cha", "40");
  g_autofree char *b = tmp ("applied-renumbered.cha");
  g_autoptr (GBytes) bytes = tress_test_read_file (a);
  g_autoptr (GBytes) edited = NULL;
  g_autoptr (TressChaFile) file = NULL;
  g_autoptr (JsonNode) report = NULL;
  g_autoptr (GError) error = NULL;
  TressChaMaterial *m;
  guint j, n_on = 0;
  guint32 from;

  file = tress_cha_file_parse (bytes, &error);
  g_assert_no_error (error);
  m = &file->radeon->materials[0];
  /* an entry whose part less one is no other entry's */
  for (j = 0; j < m->n_applied; j++)
    {
      gboolean taken = m->applied[j] == 0;

      for (guint i = 0; i < m->n_applied && !taken; i++)
        taken = m->applied[i] == m->applied[j] - 1;
      if (!taken)
        break;
    }
  g_assert_cmpuint (j, <, m->n_applied);
  from = m->applied[j];
  m->applied[j] = from - 1;
  edited = tress_cha_file_serialize (file);
  g_assert_true (g_file_set_contents (b, g_bytes_get_data (edited, NULL),
                                      (gssize)g_bytes_get_size (edited), NULL));
  g_assert_cmpint (diff_json (a, b, &report), ==, 1);
  {
    g_autofree char *names = member_names (find (report, "/materials/0"));
    g_assert_cmpstr (names, ==, "applied");
  }
  for (guint l = 0; l < m->n_lines; l++)
    {
      const TressChaLine *line = &m->lines[l];
      g_autofree char *p = NULL;
      g_autofree char *names = NULL;
      JsonObject *item;
      JsonArray *parts;
      gboolean on = FALSE;

      for (guint k = 0; k < 3; k++)
        on |= line->refs[k] == 3 * j;
      if (!on)
        continue;
      n_on++;
      p = g_strdup_printf ("/materials/0/lines/%u", l);
      item = find (report, p);
      names = member_names (item);
      g_assert_cmpstr (names, ==, "body_parts");
      parts = json_object_get_array_member (
          json_object_get_object_member (json_object_get_object_member (item, "members"),
                                         "body_parts"),
          "b");
      on = FALSE;
      for (guint k = 0; k < 3; k++)
        on |= json_array_get_int_element (parts, k) == from - 1;
      g_assert_true (on);
    }
  g_assert_cmpuint (n_on, >, 0);
  g_assert_cmpuint (json_array_get_length (differences (report)), ==, 1 + n_on);
}

/* `diff FILE FILE~`: what the last save over FILE changed. */
static void
test_cha_backup (void)
{
  g_autofree char *a = make_demo ("saved.cha", "40");
  g_autofree char *backup = g_strconcat (a, "~", NULL);
  g_autofree char *text = NULL;

  g_assert_cmpint (
      run (NULL, NULL, "set-weights", a, "--line", "1/2/0", "85", "85", "85", "-o", a, NULL), ==,
      0);
  g_assert_true (g_file_test (backup, G_FILE_TEST_EXISTS));
  g_assert_cmpint (run (&text, NULL, "diff", backup, a, NULL), ==, 1);
  g_assert_true (g_str_has_prefix (text, "1 difference: 1 line\n/materials/1/lines/"));
  g_assert_nonnull (strstr (text, "→ [85, 85, 85]"));
}

/* ---- curves ---------------------------------------------------------------- */

/* set-key on curve @curve key @key of @sample: the diff names that curve and
 * key only; other differences only under @also (the stored form of the same
 * key: NIFF records), or none when @also is NULL. */
static void
check_set_key (const char *sample, const char *curve, guint key, const char *value,
               const char *also)
{
  g_autofree char *a = tress_test_sample_path (sample);
  g_autofree char *ext = NULL;
  g_autofree char *b = NULL;
  g_autofree char *curve_path = NULL;
  g_autofree char *key_s = g_strdup_printf ("%u", key);
  g_autofree char *text = NULL;
  g_autoptr (JsonNode) report = NULL;
  JsonArray *d, *changed;
  JsonObject *item, *k = NULL;
  guint n_curve = 0;

  if (a == NULL)
    return;
  ext = g_strdup (strrchr (a, '.'));
  b = tmp (ext);
  g_assert_cmpint (run (NULL, NULL, "set-key", a, curve, key_s, "--value", value, "-o", b, NULL),
                   ==, 0);
  g_assert_cmpint (diff_json (a, b, &report), ==, 1);
  d = differences (report);
  curve_path = g_strconcat ("/curves/", curve, NULL);
  for (guint i = 0; i < json_array_get_length (d); i++)
    {
      JsonObject *o = json_array_get_object_element (d, i);
      const char *p = json_object_get_string_member (o, "path");

      if (strcmp (p, curve_path) == 0)
        n_curve++;
      else if (also == NULL || !g_str_has_prefix (p, also))
        g_error ("%s: a difference the edit did not make: %s: %s", sample, p,
                 json_object_get_string_member (o, "text"));
    }
  g_assert_cmpuint (n_curve, ==, 1);
  item = find (report, curve_path);
  g_assert_cmpstr (json_object_get_string_member (item, "kind"), ==, "curve");
  changed = json_object_get_array_member (item, "keys_changed");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (item, "keys_added")), ==,
                    0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (item, "keys_removed")), ==,
                    0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (item, "keys_moved")), ==,
                    0);
  /* The key set, and where the format stores each segment on its own
   * (BFRES), the slopes its neighbours reach it with, re-rounded with the
   * segments that start or end at it: their frames and values stay. */
  for (guint i = 0; i < json_array_get_length (changed); i++)
    {
      JsonObject *c = json_array_get_object_element (changed, i);
      JsonObject *ka = json_object_get_object_member (c, "a");
      JsonObject *kb = json_object_get_object_member (c, "b");
      gint64 at = json_object_get_int_member (c, "key");

      if (at == key)
        {
          k = c;
          continue;
        }
      g_assert_cmpint (ABS (at - (gint64)key), ==, 1);
      g_assert_cmpfloat (json_object_get_double_member (ka, "frame"), ==,
                         json_object_get_double_member (kb, "frame"));
      g_assert_cmpfloat (json_object_get_double_member (ka, "value"), ==,
                         json_object_get_double_member (kb, "value"));
    }
  g_assert_nonnull (k);
  g_assert_cmpfloat_with_epsilon (
      json_object_get_double_member (json_object_get_object_member (k, "b"), "value"),
      g_ascii_strtod (value, NULL), 1e-3);
  g_assert_cmpfloat (json_object_get_double_member (item, "largest_difference"), >, 0);
  /* the largest difference of a moved value is at that key (or a frame next to it) */
  {
    double at = json_object_get_double_member (item, "at_frame");
    double f = json_object_get_double_member (json_object_get_object_member (k, "a"), "frame");
    g_assert_cmpfloat (fabs (at - f), <, 1.0 + 1e-9);
  }
  g_assert_cmpint (run (&text, NULL, "diff", a, b, NULL), ==, 1);
  /* the summary names the curve with the largest difference, then its line */
  g_assert_true (g_str_has_prefix (text, "1 difference: 1 curve; the largest curve difference is ")
                 || (also != NULL && strstr (text, "differences: 1 curve") != NULL));
  g_assert_nonnull (strstr (strchr (text, '\n'), curve_path));
  g_assert_nonnull (strstr (text, "largest difference"));
}

static void
test_bfres_set_key (void)
{
  check_set_key ("bfres/Animal_Bass_Animation.bfres", "0", 2, "0.05", NULL);
}

static void
test_niff_set_key (void)
{
  /* a KEY record carries the key's values: its record changes with it */
  check_set_key ("niff/synthetic-niff1.nif", "0", 1, "1.5", "/anim_groups/0/records/");
}

/* insert-key and delete-key: a key added or removed, the rest moved along. */
static void
test_bfres_insert_delete (void)
{
  g_autofree char *a = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *ins = tmp ("inserted.bfres");
  g_autofree char *del = tmp ("deleted.bfres");
  g_autoptr (JsonNode) r1 = NULL, r2 = NULL;
  JsonObject *item;

  if (a == NULL)
    return;
  g_assert_cmpint (run (NULL, NULL, "delete-key", a, "0", "3", "-o", del, NULL), ==, 0);
  g_assert_cmpint (diff_json (a, del, &r2), ==, 1);
  item = find (r2, "/curves/0");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (item, "keys_removed")), ==,
                    1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (item, "keys_changed")), ==,
                    0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (item, "keys_added")), ==,
                    0);
  (void)ins;
  (void)r1;
}

/* A file without AnimGroups against one with: how many were added, not the
 * groups as numbers. */
static void
test_niff_groups_added (void)
{
  g_autofree char *a = tress_test_sample_path ("niff/yellow-cube.niff");
  g_autofree char *b = tress_test_sample_path ("niff/Rings.niff");
  g_autofree char *text = NULL;
  g_autoptr (JsonNode) report = NULL;
  JsonObject *item;

  if (a == NULL || b == NULL)
    return;
  g_assert_cmpint (run (&text, NULL, "diff", "--all", a, b, NULL), ==, 1);
  g_assert_nonnull (strstr (text, "\n/anim_groups: 0 → 6 elements (added at the end)\n"));
  g_assert_cmpint (diff_json (b, a, &report), ==, 1);
  item = find (report, "/anim_groups");
  g_assert_cmpint (json_object_get_int_member (item, "count_a"), ==, 6);
  g_assert_cmpint (json_object_get_int_member (item, "count_b"), ==, 0);
}

/* ---- the last of everything ------------------------------------------------ */

/* A change in the last key, curve, byte or element, or only where a segment
 * ends, is named like any other (a loop that stops one short, or a value the
 * keys do not show, would leave it out and call the files the same). */

/* The one difference of `diff --json A B`, asserting there is exactly one
 * and that the plain output names it too. */
static JsonObject *
only_difference (const char *a, const char *b, JsonNode **report)
{
  g_autofree char *text = NULL;
  JsonArray *d;
  JsonObject *item;

  g_assert_cmpint (diff_json (a, b, report), ==, 1);
  d = differences (*report);
  g_assert_cmpuint (json_array_get_length (d), ==, 1);
  item = json_array_get_object_element (d, 0);
  g_assert_cmpint (run (&text, NULL, "diff", a, b, NULL), ==, 1);
  /* the summary counts it under its kind: "1 curve", "1 byte range" */
  {
    const char *kind = json_object_get_string_member (item, "kind");
    g_autofree char *want
        = g_strdup_printf ("1 difference: 1 %s", g_str_equal (kind, "bytes") ? "byte range" : kind);
    char end;

    g_assert_true (g_str_has_prefix (text, want));
    end = text[strlen (want)];
    g_assert_true (end == '\n' || end == ';');
  }
  g_assert_nonnull (strstr (text, json_object_get_string_member (item, "path")));
  return item;
}

typedef struct
{
  GBytes *bytes;
  TressBfres *bfres;
  guint8 *d; /* a copy of the bytes, to edit */
  gsize size;
  guint last; /* the last curve */
  TressBfresCurveInfo info;
} Bfres;

static gboolean
bfres_open (Bfres *f, const char *rel)
{
  g_autoptr (GError) error = NULL;

  f->bytes = tress_test_load_sample (rel);
  if (f->bytes == NULL)
    return FALSE;
  f->bfres = tress_bfres_parse (f->bytes, rel, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tress_bfres_get_container (f->bfres), ==, "");
  f->d = g_memdup2 (g_bytes_get_data (f->bytes, NULL), g_bytes_get_size (f->bytes));
  f->size = g_bytes_get_size (f->bytes);
  f->last = tress_bfres_get_n_curves (f->bfres) - 1;
  g_assert_true (tress_bfres_get_curve_info (f->bfres, f->last, &f->info));
  return TRUE;
}

static void
bfres_close (Bfres *f)
{
  g_clear_pointer (&f->bfres, tress_bfres_free);
  g_clear_pointer (&f->bytes, g_bytes_unref);
  g_clear_pointer (&f->d, g_free);
}

static gint16
get_s16 (const guint8 *p)
{
  return (gint16)(guint16)(p[0] << 8 | p[1]);
}

static void
put_s16 (guint8 *p, gint16 v)
{
  p[0] = (guint8)((guint16)v >> 8);
  p[1] = (guint8)v;
}

static void
add_f32 (guint8 *p, float add)
{
  guint32 u = (guint32)p[0] << 24 | (guint32)p[1] << 16 | (guint32)p[2] << 8 | p[3];
  float v;

  memcpy (&v, &u, 4);
  v += add;
  memcpy (&u, &v, 4);
  p[0] = (guint8)(u >> 24);
  p[1] = (guint8)(u >> 16);
  p[2] = (guint8)(u >> 8);
  p[3] = (guint8)u;
}

static char *
bfres_write (Bfres *f, const char *name)
{
  char *path = tmp (name);

  g_assert_true (g_file_set_contents (path, (const char *)f->d, (gssize)f->size, NULL));
  return path;
}

static double
in_value (JsonObject *key)
{
  return json_object_has_member (key, "in_value") ? json_object_get_double_member (key, "in_value")
                                                  : json_object_get_double_member (key, "value");
}

/* Only where the last segment of the last curve ends: its c2 and c3 move by
 * one step each way, which keeps its slopes and moves its end by one step.
 * The game plays that end just before the last key. */
static void
test_bfres_end_gap (void)
{
  Bfres f = { 0 };
  g_autofree char *a = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *b = NULL, *path = NULL;
  g_autoptr (JsonNode) report = NULL;
  JsonObject *item, *k, *ka, *kb;
  JsonArray *changed;
  guint8 *seg;
  gint16 c2, c3;
  int step;

  if (!bfres_open (&f, "bfres/Animal_Bass_Animation.bfres"))
    return;
  g_assert_cmpint (f.info.curve_type, ==, TRESS_BFRES_CURVE_CUBIC);
  g_assert_cmpint (f.info.key_type, ==, TRESS_BFRES_KEY_S16);
  g_assert_cmpuint (f.info.n_keys, >, 2);
  seg = f.d + f.info.keys_pos + 2 * 4 * (gsize)(f.info.n_keys - 2);
  c2 = get_s16 (seg + 4);
  c3 = get_s16 (seg + 6);
  step = c2 <= 0 ? 1 : -1;
  put_s16 (seg + 4, (gint16)(c2 + 3 * step));
  put_s16 (seg + 6, (gint16)(c3 - 2 * step));
  b = bfres_write (&f, "end-gap.bfres");

  item = only_difference (a, b, &report);
  path = g_strdup_printf ("/curves/%u", f.last);
  g_assert_cmpstr (json_object_get_string_member (item, "path"), ==, path);
  g_assert_cmpstr (json_object_get_string_member (item, "kind"), ==, "curve");
  changed = json_object_get_array_member (item, "keys_changed");
  g_assert_cmpuint (json_array_get_length (changed), ==, 1);
  k = json_array_get_object_element (changed, 0);
  g_assert_cmpint (json_object_get_int_member (k, "key"), ==, f.info.n_keys - 1);
  ka = json_object_get_object_member (k, "a");
  kb = json_object_get_object_member (k, "b");
  /* the key leaves with the same value, on the same slopes; it is reached one step away */
  g_assert_cmpfloat (json_object_get_double_member (ka, "value"), ==,
                     json_object_get_double_member (kb, "value"));
  g_assert_cmpfloat (json_object_get_double_member (ka, "in_slope"), ==,
                     json_object_get_double_member (kb, "in_slope"));
  g_assert_cmpfloat_with_epsilon (fabs (in_value (kb) - in_value (ka)), f.info.scale,
                                  f.info.scale * 1e-3);
  g_assert_nonnull (strstr (json_object_get_string_member (item, "text"), "in_value"));
  /* and the played values differ there */
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (item, "largest_difference"),
                                  f.info.scale, f.info.scale * 1e-3);
  g_assert_cmpfloat (json_object_get_double_member (item, "at_frame"), ==,
                     json_object_get_double_member (ka, "frame"));
  bfres_close (&f);
}

/* The last key of a cubic curve stores [c0, c1, c2, c3] and plays c0 only: a
 * change of its c3 is a change of the file that no key shows. */
static void
test_bfres_last_key_unplayed (void)
{
  Bfres f = { 0 };
  g_autofree char *a = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *b = NULL, *path = NULL, *err = NULL;
  g_autoptr (JsonNode) report = NULL;
  JsonObject *item;
  gsize at;

  if (!bfres_open (&f, "bfres/Animal_Bass_Animation.bfres"))
    return;
  at = 2 * (4 * (gsize)f.info.n_keys - 1); /* the last element, the last key's c3 */
  g_assert_cmpint (get_s16 (f.d + f.info.keys_pos + at), ==, 0);
  put_s16 (f.d + f.info.keys_pos + at, 1);
  b = bfres_write (&f, "last-c3.bfres");

  item = only_difference (a, b, &report);
  path = g_strdup_printf ("/curves/%u", f.last);
  g_assert_cmpstr (json_object_get_string_member (item, "path"), ==, path);
  g_assert_cmpstr (json_object_get_string_member (item, "kind"), ==, "curve");
  g_assert_cmpstr (json_object_get_string_member (item, "stored"), ==, "keys");
  g_assert_cmpint (json_object_get_int_member (item, "bytes_differing"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (item, "first"), ==, at + 1);
  g_assert_cmpint (json_object_get_int_member (item, "size_a"), ==, 2 * 4 * f.info.n_keys);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (item, "keys_changed")), ==,
                    0);
  g_assert_cmpint (run (NULL, &err, "diff", a, b, NULL), ==, 1);
  g_assert_null (strstr (err, "same model"));
  bfres_close (&f);
}

/* The last curve's end frame (the frames after its last key) and delta, in
 * a small file (compared whole) and in Dog (compared a piece at a time). */
static void
check_last_curve_header (const char *rel, guint offset, const char *member)
{
  Bfres f = { 0 };
  g_autofree char *a = tress_test_sample_path (rel);
  g_autofree char *b = NULL, *path = NULL, *want = NULL;
  g_autoptr (JsonNode) report = NULL;
  TressBfresAnimInfo anim;
  JsonObject *item;

  if (!bfres_open (&f, rel))
    return;
  g_assert_true (tress_bfres_get_anim_info (f.bfres, tress_bfres_get_n_anims (f.bfres) - 1, &anim));
  g_assert_cmpuint (anim.first_curve + anim.n_curves - 1, ==, f.last);
  add_f32 (f.d + f.info.header_pos + offset, 1);
  b = bfres_write (&f, "header.bfres");
  item = only_difference (a, b, &report);
  path = g_strdup_printf ("/animations/%u/curves/%u", tress_bfres_get_n_anims (f.bfres) - 1,
                          anim.n_curves - 1);
  g_assert_cmpstr (json_object_get_string_member (item, "path"), ==, path);
  g_assert_cmpstr (json_object_get_string_member (item, "kind"), ==, "member");
  want = g_strdup_printf ("%s ", member);
  g_assert_true (g_str_has_prefix (json_object_get_string_member (item, "text"), want));
  bfres_close (&f);
}

static void
test_bfres_last_curve_header (void)
{
  check_last_curve_header ("bfres/Animal_Bass_Animation.bfres", 0x0C, "end");
  check_last_curve_header ("bfres/Animal_Bass_Animation.bfres", 0x18, "delta");
  check_last_curve_header ("bfres/Animal_Dog_Animation.bfres", 0x0C, "end");
}

/* The file's last byte (padding after the string pool), outside the model. */
static void
test_bfres_last_byte (void)
{
  Bfres f = { 0 };
  g_autofree char *a = tress_test_sample_path ("bfres/Animal_Bass_Animation.bfres");
  g_autofree char *b = NULL;
  g_autoptr (JsonNode) report = NULL;
  JsonObject *item;

  if (!bfres_open (&f, "bfres/Animal_Bass_Animation.bfres"))
    return;
  g_assert_cmpint (f.d[f.size - 1], ==, 0);
  f.d[f.size - 1] = 1;
  b = bfres_write (&f, "last-byte.bfres");
  item = only_difference (a, b, &report);
  g_assert_cmpstr (json_object_get_string_member (item, "kind"), ==, "bytes");
  g_assert_cmpint (json_object_get_int_member (item, "bytes_differing"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (item, "first"), ==, f.size - 1);
  bfres_close (&f);
}

/* Creature fur: the last element of each array of the last material. */
typedef void (*ChaEdit) (TressChaFile *file);

static TressChaMaterial *
last_material (TressChaFile *file)
{
  return &file->radeon->materials[file->radeon->n_materials - 1];
}

static void
edit_line_mask (TressChaFile *file)
{
  TressChaMaterial *m = last_material (file);
  m->lines[m->n_lines - 1].mask[7] ^= 1;
}

static void
edit_line_direction (TressChaFile *file)
{
  TressChaMaterial *m = last_material (file);
  m->lines[m->n_lines - 1].direction[2] += 0.25f;
}

static void
edit_ribbon_zsort (TressChaFile *file)
{
  TressChaMaterial *m = last_material (file);
  m->zsort[3 * (gsize)m->n_ribbons - 1] += 0.25f;
}

static void
edit_ribbon_base_points (TressChaFile *file)
{
  TressChaMaterial *m = last_material (file);
  m->base_points[6 * (gsize)m->n_ribbons - 1] += 0.25f;
}

static void
edit_ribbon_morph_points (TressChaFile *file)
{
  TressChaMaterial *m = last_material (file);
  m->morph_points[file->radeon->n_morphs - 1][6 * (gsize)m->n_ribbons - 1] += 0.25f;
}

static void
edit_ribbon_lengths (TressChaFile *file)
{
  TressChaMaterial *m = last_material (file);
  m->lengths[file->radeon->n_moralities][m->n_ribbons - 1] += 0.25f;
}

static void
edit_ribbon_attach (TressChaFile *file)
{
  TressChaMaterial *m = last_material (file);
  m->attach[m->n_ribbons - 1] += 1;
}

static void
edit_uv (TressChaFile *file)
{
  TressChaMaterial *m = last_material (file);
  m->uv[m->n_uv_floats - 1] += 0.25f;
}

static void
edit_description (TressChaFile *file)
{
  last_material (file)->description[TRESS_CHA_DESCRIPTION_SIZE - 1] ^= 1;
}

static void
edit_morality_name (TressChaFile *file)
{
  guint8 *name = file->radeon->morality_names[file->radeon->n_moralities - 1];
  name[strnlen ((const char *)name, TRESS_CHA_NAME_SIZE) - 1] = 'x';
}

static void
edit_last_section (TressChaFile *file)
{
  TressChaSection *s = &file->sections[file->n_sections - 1];
  gsize n;
  g_autofree guint8 *d = NULL;

  g_assert_nonnull (s->opaque);
  d = g_memdup2 (g_bytes_get_data (s->opaque, NULL), g_bytes_get_size (s->opaque));
  n = g_bytes_get_size (s->opaque);
  d[n - 1] ^= 1;
  g_bytes_unref (s->opaque);
  s->opaque = g_bytes_new (d, n);
}

typedef enum
{
  AT_LINE,     /* the last line of the last material */
  AT_RIBBON,   /* its last ribbon */
  AT_MATERIAL, /* the material */
  AT_DESCRIPTION,
  AT_ROOT,
  AT_SECTION, /* the last section's bytes */
} ChaWhere;

static void
test_cha_last_elements (void)
{
  static const struct
  {
    const char *what;
    ChaEdit edit;
    ChaWhere where;
    const char *kind;
    const char *member; /* the item's only member, or NULL: a bytes item */
  } edits[] = {
    { "mask", edit_line_mask, AT_LINE, "line", "mask" },
    { "direction", edit_line_direction, AT_LINE, "line", "direction" },
    { "zsort", edit_ribbon_zsort, AT_RIBBON, "ribbon", "zsort" },
    { "base_points", edit_ribbon_base_points, AT_RIBBON, "ribbon", "base_points" },
    { "morph_points", edit_ribbon_morph_points, AT_RIBBON, "ribbon", "morph_points[3]" },
    { "lengths", edit_ribbon_lengths, AT_RIBBON, "ribbon", "lengths" },
    { "attach", edit_ribbon_attach, AT_RIBBON, "ribbon", "attach" },
    { "uv", edit_uv, AT_MATERIAL, "member", "uv[1679] (1 value differs)" },
    { "description", edit_description, AT_DESCRIPTION, "bytes", NULL },
    { "morality name", edit_morality_name, AT_ROOT, "member", "moralities" },
    { "last section", edit_last_section, AT_SECTION, "bytes", NULL },
  };
  g_autofree char *a = make_demo ("last.cha", "30");
  g_autoptr (GBytes) bytes = tress_test_read_file (a);

  for (guint i = 0; i < G_N_ELEMENTS (edits); i++)
    {
      g_autoptr (GError) error = NULL;
      TressChaFile *file = tress_cha_file_parse (bytes, &error);
      g_autoptr (GBytes) edited = NULL;
      g_autofree char *b = tmp ("last-edited.cha");
      g_autofree char *path = NULL;
      g_autoptr (JsonNode) report = NULL;
      JsonObject *item;
      guint m;

      g_assert_no_error (error);
      g_test_message ("the last %s", edits[i].what);
      m = file->radeon->n_materials - 1;
      switch (edits[i].where)
        {
        case AT_LINE:
          path = g_strdup_printf ("/materials/%u/lines/%u", m, last_material (file)->n_lines - 1);
          break;
        case AT_RIBBON:
          path = g_strdup_printf ("/materials/%u/ribbons/%u", m,
                                  last_material (file)->n_ribbons - 1);
          break;
        case AT_MATERIAL:
          path = g_strdup_printf ("/materials/%u", m);
          break;
        case AT_DESCRIPTION:
          path = g_strdup_printf ("/materials/%u/description_base64", m);
          break;
        case AT_ROOT:
          path = g_strdup ("");
          break;
        case AT_SECTION:
          path = g_strdup_printf ("/sections/%u/base64", file->n_sections - 1);
          break;
        }
      edits[i].edit (file);
      edited = tress_cha_file_serialize (file);
      tress_cha_file_free (file);
      g_assert_true (g_file_set_contents (b, g_bytes_get_data (edited, NULL),
                                          (gssize)g_bytes_get_size (edited), NULL));
      item = only_difference (a, b, &report);
      g_assert_cmpstr (json_object_get_string_member (item, "path"), ==, path);
      g_assert_cmpstr (json_object_get_string_member (item, "kind"), ==, edits[i].kind);
      if (edits[i].member != NULL)
        {
          g_autofree char *names = member_names (item);
          g_assert_cmpstr (names, ==, edits[i].member);
        }
      else
        g_assert_cmpint (json_object_get_int_member (item, "bytes_differing"), ==, 1);
    }
}

/* Curves whose format names no stored type: the same keys are no difference,
 * another key is one. */
static void
test_curve_without_type (void)
{
  g_autoptr (TressCurve) a = tress_curve_new ();
  g_autoptr (TressCurve) b = NULL;
  g_autoptr (TressDiff) diff = tress_diff_new ();
  TressKey k = { .frame = 0, .value = 1, .interp = TRESS_INTERP_LINEAR };

  tress_curve_append_key (a, &k);
  k.frame = 10;
  tress_curve_append_key (a, &k);
  b = tress_curve_copy (a);
  g_assert_null (a->type_label);
  g_assert_false (tress_diff_curve (a, b, "/curves/0", "c", diff));
  g_assert_cmpuint (tress_diff_get_n_items (diff), ==, 0);
  tress_curve_get_key (b, 1)->value = 2;
  g_assert_true (tress_diff_curve (a, b, "/curves/0", "c", diff));
  g_assert_cmpuint (tress_diff_get_n_items (diff), ==, 1);
}

static TressCurve *
curve_of (const TressKey *keys, guint n)
{
  TressCurve *c = tress_curve_new ();

  for (guint i = 0; i < n; i++)
    tress_curve_append_key (c, &keys[i]);
  return c;
}

/* One key added, the counts then differing: the keys are matched by frame,
 * the first one included, so only the new key is reported. On the same line
 * it changes no played value: the largest difference is 0, at the first
 * frame compared. */
static void
test_curve_key_added (void)
{
  static const TressKey ka[] = {
    { .frame = 4, .value = 0, .interp = TRESS_INTERP_LINEAR },
    { .frame = 12, .value = 8, .interp = TRESS_INTERP_LINEAR },
  };
  static const TressKey kb[] = {
    { .frame = 4, .value = 0, .interp = TRESS_INTERP_LINEAR },
    { .frame = 8, .value = 4, .interp = TRESS_INTERP_LINEAR },
    { .frame = 12, .value = 8, .interp = TRESS_INTERP_LINEAR },
  };
  g_autoptr (TressCurve) a = curve_of (ka, G_N_ELEMENTS (ka));
  g_autoptr (TressCurve) b = curve_of (kb, G_N_ELEMENTS (kb));
  g_autoptr (TressDiff) diff = tress_diff_new ();
  const TressDiffItem *item;
  double largest = -1, at = -1;

  g_assert_true (tress_diff_curve (a, b, "/curves/0", "c", diff));
  g_assert_cmpuint (tress_diff_get_n_items (diff), ==, 1);
  item = tress_diff_get_item (diff, 0);
  g_assert_cmpstr (item->text, ==, "c: key 1 at frame 8 added, value 4");
  g_assert_cmpuint (
      json_array_get_length (json_object_get_array_member (item->detail, "keys_added")), ==, 1);
  g_assert_cmpuint (
      json_array_get_length (json_object_get_array_member (item->detail, "keys_removed")), ==, 0);
  g_assert_cmpuint (
      json_array_get_length (json_object_get_array_member (item->detail, "keys_changed")), ==, 0);
  g_assert_cmpfloat (json_object_get_double_member (item->detail, "largest_difference"), ==, 0);
  g_assert_cmpfloat (json_object_get_double_member (item->detail, "at_frame"), ==, 4);
  g_assert_false (tress_diff_get_largest (diff, NULL, NULL, NULL));

  g_assert_true (tress_diff_curve_values (a, b, &largest, &at));
  g_assert_cmpfloat (largest, ==, 0);
  g_assert_cmpfloat (at, ==, 4);
}

/* The first key removed: reported as removed (the keys left are matched by
 * frame), with the difference that makes before the second key. */
static void
test_curve_first_key_removed (void)
{
  static const TressKey ka[] = {
    { .frame = 4, .value = 0, .interp = TRESS_INTERP_LINEAR },
    { .frame = 8, .value = 4, .interp = TRESS_INTERP_LINEAR },
    { .frame = 12, .value = 8, .interp = TRESS_INTERP_LINEAR },
  };
  g_autoptr (TressCurve) a = curve_of (ka, G_N_ELEMENTS (ka));
  g_autoptr (TressCurve) b = curve_of (ka + 1, G_N_ELEMENTS (ka) - 1);
  g_autoptr (TressDiff) diff = tress_diff_new ();
  const TressDiffItem *item;
  JsonArray *removed;

  g_assert_true (tress_diff_curve (a, b, "/curves/0", "c", diff));
  g_assert_cmpuint (tress_diff_get_n_items (diff), ==, 1);
  item = tress_diff_get_item (diff, 0);
  g_assert_cmpstr (item->text, ==, "c: key 0 at frame 4 removed (largest difference 4 at frame 4)");
  removed = json_object_get_array_member (item->detail, "keys_removed");
  g_assert_cmpuint (json_array_get_length (removed), ==, 1);
  g_assert_cmpfloat (
      json_object_get_double_member (json_array_get_object_element (removed, 0), "frame"), ==, 4);
  g_assert_cmpuint (
      json_array_get_length (json_object_get_array_member (item->detail, "keys_added")), ==, 0);
  g_assert_cmpuint (
      json_array_get_length (json_object_get_array_member (item->detail, "keys_changed")), ==, 0);
}

/* The frame of the largest difference is said "0", never "-0": where it is
 * found first on frame 0 reached from a negative frame (ceil (-0.5) is -0),
 * and where a key at frame 0 holds it and that frame is met again so. */
static void
test_curve_largest_at_zero (void)
{
  static const TressKey flat[] = {
    { .frame = -0.5, .value = 0, .interp = TRESS_INTERP_HERMITE },
    { .frame = 1.5, .value = 0, .interp = TRESS_INTERP_HERMITE },
  };
  /* rises from -0.5 and falls back by 1.5, highest near frame 0.17: of the
   * frames compared, 0 has the largest value */
  static const TressKey bump[] = {
    { .frame = -0.5, .value = 0, .out_slope = 1, .interp = TRESS_INTERP_HERMITE },
    { .frame = 1.5, .value = 0, .interp = TRESS_INTERP_HERMITE },
  };
  static const TressKey zero[] = {
    { .frame = -0.5, .value = 0, .interp = TRESS_INTERP_LINEAR },
    { .frame = 0, .value = 0, .interp = TRESS_INTERP_LINEAR },
    { .frame = 1, .value = 0, .interp = TRESS_INTERP_LINEAR },
  };
  static const TressKey peak[] = {
    { .frame = -0.5, .value = 0, .interp = TRESS_INTERP_LINEAR },
    { .frame = 0, .value = 2, .interp = TRESS_INTERP_LINEAR },
    { .frame = 1, .value = 0, .interp = TRESS_INTERP_LINEAR },
  };
  static const struct
  {
    const TressKey *a, *b;
    guint n;
    const char *text;
  } cases[] = {
    { flat, bump, 2, "key 0 out_slope 0 → 1 (largest difference 0.28125 at frame 0)" },
    { zero, peak, 3, "key 1 value 0 → 2 (largest difference 2 at frame 0)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (TressCurve) a = curve_of (cases[i].a, cases[i].n);
      g_autoptr (TressCurve) b = curve_of (cases[i].b, cases[i].n);
      g_autoptr (TressDiff) diff = tress_diff_new ();
      g_autofree char *want = g_strdup_printf ("c: %s", cases[i].text);
      g_autofree char *summary = NULL;
      const TressDiffItem *item;
      double largest = -1, at = -1;

      g_assert_true (tress_diff_curve (a, b, "/curves/0", "c", diff));
      item = tress_diff_get_item (diff, 0);
      g_assert_cmpstr (item->text, ==, want);
      g_assert_true (tress_diff_get_largest (diff, &largest, NULL, &at));
      g_assert_cmpfloat (at, ==, 0);
      g_assert_false (signbit (at));
      g_assert_false (signbit (json_object_get_double_member (item->detail, "at_frame")));
      summary = tress_diff_summary (diff);
      g_assert_true (g_str_has_suffix (summary, " at frame 0"));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/diff/same-and-unreadable", test_same_and_unreadable);
  g_test_add_func ("/cli/diff/cha-set-weights", test_cha_set_weights);
  g_test_add_func ("/cli/diff/cha-retarget", test_cha_retarget);
  g_test_add_func ("/cli/diff/cha-backup", test_cha_backup);
  g_test_add_func ("/cli/diff/cha-applied-renumbered", test_cha_applied_renumbered);
  g_test_add_func ("/cli/diff/cha-big-retarget", test_cha_big_retarget);
  g_test_add_func ("/cli/diff/bfres-set-key", test_bfres_set_key);
  g_test_add_func ("/cli/diff/niff-set-key", test_niff_set_key);
  g_test_add_func ("/cli/diff/bfres-delete-key", test_bfres_insert_delete);
  g_test_add_func ("/cli/diff/niff-groups-added", test_niff_groups_added);
  g_test_add_func ("/cli/diff/bfres-end-gap", test_bfres_end_gap);
  g_test_add_func ("/cli/diff/bfres-last-key-unplayed", test_bfres_last_key_unplayed);
  g_test_add_func ("/cli/diff/bfres-last-curve-header", test_bfres_last_curve_header);
  g_test_add_func ("/cli/diff/bfres-last-byte", test_bfres_last_byte);
  g_test_add_func ("/cli/diff/cha-last-elements", test_cha_last_elements);
  g_test_add_func ("/cli/diff/curve-without-type", test_curve_without_type);
  g_test_add_func ("/cli/diff/curve-key-added", test_curve_key_added);
  g_test_add_func ("/cli/diff/curve-first-key-removed", test_curve_first_key_removed);
  g_test_add_func ("/cli/diff/curve-largest-at-zero", test_curve_largest_at_zero);
  return g_test_run ();
}
