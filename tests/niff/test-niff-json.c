/* test-niff-json.c: NIFF through dump → build, exactly; key edits in the JSON
 * land the bytes set-key and delete-key give; the stored form is read-only
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "formats/niff/tress-niff-private.h"
#include "formats/niff/tress-niff.h"
#include "tress-test-json.h"

/* Seeds may be damaged on purpose (skipped); shared samples must parse. */
static void
round_trip_dir (const char *dir, gboolean all_parse, guint *n)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr (GBytes) file = NULL;
      g_autoptr (GError) error = NULL;
      gpointer model;

      if (!g_str_has_suffix (name, ".nif") && !g_str_has_suffix (name, ".niff"))
        continue;
      file = tj_read (path);
      model = tress_format_niff.parse (file, name, &error);
      if (model == NULL && all_parse)
        g_error ("%s does not parse: %s", name, error->message);
      if (model == NULL)
        continue; /* a damaged fuzzing seed */
      tress_format_niff.free (model);
      g_test_message ("%s", name);
      {
        g_autoptr (GBytes) text = tress_test_assert_json_round_trip (&tress_format_niff, file);
      }
      (*n)++;
    }
}

/* Every shared sample, the demo and the fuzzing seeds. */
static void
test_round_trip (void)
{
  g_autofree char *corpus = g_test_build_filename (G_TEST_DIST, "niff", "corpus", NULL);
  g_autofree char *demo = tj_tmp ("demo.niff");
  const char *dir = g_getenv ("TRESS_SAMPLES_DIR");
  g_autofree char *samples = dir != NULL ? g_build_filename (dir, "niff", NULL) : NULL;
  g_autoptr (GBytes) demo_bytes = NULL;
  guint n = 0;

  g_assert_cmpint (tj_run (NULL, NULL, "generate-demo", "niff", "-o", demo, NULL), ==, 0);
  demo_bytes = tj_read (demo);
  {
    g_autoptr (GBytes) text = tress_test_assert_json_round_trip (&tress_format_niff, demo_bytes);
  }
  round_trip_dir (corpus, FALSE, &n);
  g_assert_cmpuint (n, >=, 5);
  if (samples != NULL && g_file_test (samples, G_FILE_TEST_IS_DIR))
    {
      n = 0;
      round_trip_dir (samples, TRUE, &n);
      g_assert_cmpuint (n, ==, 8);
    }
}

static char *
sample_or_demo (const char *name)
{
  g_autofree char *sample = NULL;
  const char *dir = g_getenv ("TRESS_SAMPLES_DIR");
  char *demo;

  if (dir != NULL)
    {
      sample = g_build_filename (dir, "niff", name, NULL);
      if (g_file_test (sample, G_FILE_TEST_EXISTS))
        return g_steal_pointer (&sample);
    }
  demo = tj_tmp ("edit-demo.niff");
  g_assert_cmpint (tj_run (NULL, NULL, "generate-demo", "niff", "-o", demo, NULL), ==, 0);
  return demo;
}

static JsonObject *
key_object (JsonNode *root, guint curve, guint key)
{
  g_autofree char *p = g_strdup_printf ("/curves/%u/keys/%u", curve, key);
  return tj_object (root, p);
}

static void
assert_same_as_cli (JsonNode *root, GBytes *by_cli)
{
  g_autoptr (GBytes) by_json = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (tj_build (root, "niff", &by_json, &err), ==, 0);
  g_assert_nonnull (by_json);
  tress_test_assert_bytes_equal (by_cli, by_json);
}

/* The first curve with at least @n keys. */
static guint
curve_with_keys (JsonNode *root, guint n)
{
  JsonArray *curves = tj_array (root, "/curves");

  for (guint i = 0; i < json_array_get_length (curves); i++)
    if (json_array_get_length (
            json_object_get_array_member (json_array_get_object_element (curves, i), "keys"))
        >= n)
      return i;
  g_assert_not_reached ();
}

static void
test_edit_keys (void)
{
  /* NIFF2 channels (Hermite, one slope a key) and NIFF1 KEY records */
  static const char *const files[] = { "Rings.niff", "kirikobu.niff" };

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *file = sample_or_demo (files[f]);
      g_autofree char *cli = tj_tmp ("cli.niff");
      g_autoptr (GBytes) original = tj_read (file);
      g_autoptr (JsonNode) root = tj_dump (file);
      guint c = curve_with_keys (root, 4);
      g_autofree char *cs = g_strdup_printf ("%u", c);

      {
        g_autoptr (GBytes) by_cli = NULL;

        g_assert_cmpint (
            tj_run (NULL, NULL, "set-key", file, cs, "2", "--value", "0.75", "-o", cli, NULL), ==,
            0);
        by_cli = tj_read (cli);
        g_assert_false (g_bytes_equal (by_cli, original));
        json_object_set_double_member (key_object (root, c, 2), "value", 0.75);
        assert_same_as_cli (root, by_cli);
      }
      {
        g_autoptr (JsonNode) again = tj_dump (file);
        g_autoptr (GBytes) by_cli = NULL;
        g_autofree char *keys = g_strdup_printf ("/curves/%u/keys", c);

        g_assert_cmpint (tj_run (NULL, NULL, "delete-key", file, cs, "1", "-o", cli, NULL), ==, 0);
        by_cli = tj_read (cli);
        json_array_remove_element (tj_array (again, keys), 1);
        assert_same_as_cli (again, by_cli);
      }
    }
}

static void
test_refusals (void)
{
  g_autofree char *file = sample_or_demo ("Rings.niff");

  {
    /* the stored form is read-only */
    g_autoptr (JsonNode) root = tj_dump (file);

    json_object_set_int_member (tj_object (root, "/anim_groups/0"), "frame_rate", 60);
    tj_assert_refused (root, "niff", "/anim_groups/0", "read-only");
  }
  {
    g_autoptr (JsonNode) root = tj_dump (file);
    JsonObject *list = json_array_get_object_element (tj_array (root, "/lists"), 0);
    g_autofree char *b64 = g_strdup (json_object_get_string_member (list, "base64"));

    b64[10] = b64[10] == 'A' ? 'B' : 'A';
    json_object_set_string_member (list, "base64", b64);
    tj_assert_refused (root, "niff", "/lists", "read-only");
  }
  {
    /* another schema version, or another format's JSON */
    g_autoptr (JsonNode) root = tj_dump (file);

    json_object_set_int_member (json_node_get_object (root), "version", 2);
    tj_assert_refused (root, "niff", "/version",
                       "this is version 2 of the NIFF JSON; this Tress reads version 1");
  }
  {
    /* derived members are checked */
    g_autoptr (JsonNode) root = tj_dump (file);

    json_object_set_string_member (tj_object (root, "/curves/0"), "path", "Else/Where");
    tj_assert_refused (root, "niff", "/curves/0/path", "derived from the file");
  }
  {
    g_autoptr (JsonNode) root = tj_dump (file);
    guint c = curve_with_keys (root, 2);
    g_autofree char *p = g_strdup_printf ("/curves/%u/keys/0/interp", c);

    json_object_set_string_member (key_object (root, c, 0), "interp", "bouncy");
    tj_assert_refused (root, "niff", p, "expected step, linear, hermite or baked");
  }
  {
    g_autoptr (JsonNode) root = tj_dump (file);

    json_array_remove_element (tj_array (root, "/curves"), 0);
    tj_assert_refused (root, "niff", "/curves", "curves follow from the AnimGroups");
  }
}

/* The floats of @g that are +0: record values, channel keys' values and
 * differentials (guint32 * into @g). */
static GPtrArray *
group_zeros (TressNiffGroup *g)
{
  GPtrArray *zeros = g_ptr_array_new ();

  for (guint i = 0; i < g->records->len; i++)
    {
      TressNiffRecord *rec = &g_array_index (g->records, TressNiffRecord, i);

      for (guint k = 0; rec->tag != TRESS_NIFF_RECORD_BILLBOARD && k < 9; k++)
        if (rec->trs[k] == 0)
          g_ptr_array_add (zeros, &rec->trs[k]);
    }
  for (guint c = 0; g->has_ext && c < TRESS_NIFF_N_CHANNELS; c++)
    for (guint i = 0; i < g->channels[c]->len; i++)
      {
        TressNiffChannelKey *k = &g_array_index (g->channels[c], TressNiffChannelKey, i);

        for (guint j = 0; j < tress_niff_channel_n_components (c); j++)
          if (k->value[j] == 0)
            g_ptr_array_add (zeros, &k->value[j]);
      }
  return zeros;
}

/* A value that reads back equal is no edit, and the file keeps its bits:
 * negative zeros a tool wrote back as 0 (in AnimGroups, read-only: two in one,
 * one in another), every number in another spelling. */
static void
test_same_values (void)
{
  static const char *const files[] = { "kirikobu.niff", "Rings.niff" };

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *file = sample_or_demo (files[f]);
      g_autoptr (GBytes) original = tj_read (file);
      g_autoptr (GBytes) bytes = NULL, text = NULL, zeroed = NULL, respelled = NULL;
      g_autoptr (GBytes) rebuilt = NULL, again = NULL;
      g_autoptr (GPtrArray) problems = NULL;
      g_autoptr (GError) error = NULL;
      TressNiffFile *model = tress_format_niff.parse (original, "test", &error);
      guint flipped = 0, dropped = 0;

      g_assert_no_error (error);
      g_test_message ("%s", file);
      for (guint i = 0; i < model->groups->len && flipped < 3; i++)
        {
          g_autoptr (GPtrArray) zeros = group_zeros (g_ptr_array_index (model->groups, i));

          for (guint z = 0; z < zeros->len && z < (flipped == 0 ? 2u : 1u); z++)
            {
              *(guint32 *)g_ptr_array_index (zeros, z) = 0x80000000u;
              flipped++;
            }
        }
      g_assert_cmpuint (flipped, ==, 3);
      bytes = tress_format_niff.serialize (model, &error);
      g_assert_no_error (error);
      tress_format_niff.free (model);
      model = tress_format_niff.parse (bytes, "test", &error);
      g_assert_no_error (error);
      text = tress_test_dump (&tress_format_niff, model);
      tress_format_niff.free (model);
      g_assert_nonnull (strstr (g_bytes_get_data (text, NULL), "-0.0"));

      zeroed = tress_test_rewrite_numbers (text, TRESS_TEST_DROP_NEGATIVE_ZEROS, &dropped);
      g_assert_cmpuint (dropped, >=, flipped);
      rebuilt = tress_test_build (&tress_format_niff, zeroed, &problems);
      g_assert_nonnull (rebuilt);
      tress_test_assert_bytes_equal (bytes, rebuilt);
      g_clear_pointer (&problems, g_ptr_array_unref);

      respelled = tress_test_rewrite_numbers (text, TRESS_TEST_RESPELL, NULL);
      again = tress_test_build (&tress_format_niff, respelled, &problems);
      g_assert_nonnull (again);
      tress_test_assert_bytes_equal (bytes, again);
    }
}

/* The note @problems holds at @path, or NULL. */
static const char *
note_at (GPtrArray *problems, const char *path)
{
  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (problems, i);

      g_test_message ("%s at %s: %s", p->severity == TRESS_SEVERITY_INFO ? "note" : "problem",
                      p->location, p->message);
      if (p->severity == TRESS_SEVERITY_INFO && g_strcmp0 (p->location, path) == 0)
        return p->message;
    }
  return NULL;
}

/* Every channel of an extension block is listed, with or without keys:
 * RotateAxis, the first, as much as the others. */
static void
test_channel_missing (void)
{
  g_autoptr (GBytes) demo = tress_niff_build_demo ();
  g_autoptr (GError) error = NULL;
  gpointer model = tress_format_niff.parse (demo, "demo", &error);
  g_autoptr (GBytes) text = NULL, edited = NULL, rebuilt = NULL;
  g_autoptr (GPtrArray) problems = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonObject *channels;

  g_assert_no_error (error);
  text = tress_test_dump (&tress_format_niff, model);
  tress_format_niff.free (model);
  root = tj_parse (text);
  channels = tj_object (root, "/anim_groups/0/nintendo_extension/channels");
  g_assert_true (json_object_has_member (channels, "RotateAxis"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (channels, "RotateAxis")),
                    ==, 0);
  json_object_remove_member (channels, "RotateAxis");
  edited = tj_text (root);
  rebuilt = tress_test_build (&tress_format_niff, edited, &problems);
  g_assert_null (rebuilt);
  g_assert_true (tress_test_has_problem (problems,
                                         "/anim_groups/0/nintendo_extension/channels/RotateAxis",
                                         "the member \"RotateAxis\" is missing"));
}

/* Negative zeros a tool wrote back as 0 are looked for only in the AnimGroups
 * whose stored form changed. Group 0 is as dumped, with 180 zeros (30
 * Translation keys at rest): trying them would spend the search budget
 * before group 1 (larger: each try costs the group's size), whose
 * OrientationXY key lost the sign of its first differential, a zero read back
 * once (not again as a seventh value). */
static void
test_negative_zero_search (void)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (TRUE, 0);
  const float rest[3] = { 0, 0, 0 }, ones[3] = { 1, 1, 1 }, x_y[6] = { 1, 0, 0, 0, 1, 0 };
  const float diffs[6] = { -0.0f, 0, 0, 0, 0, 0 };
  g_autoptr (GBytes) bytes = NULL, text = NULL, zeroed = NULL, rebuilt = NULL;
  g_autoptr (GPtrArray) problems = NULL;
  g_autoptr (GError) error = NULL;
  const char *note;
  gpointer model;
  guint dropped = 0, still, turn;

  tress_niff_builder_add_name (b, "scene");
  still = tress_niff_builder_add_group (b, 0, TRESS_NIFF_ANIM_STATIC, 30, 0);
  for (guint i = 0; i < 30; i++)
    tress_niff_builder_add_channel_key (b, still, TRESS_NIFF_TRANSLATION, TRESS_NIFF_CHANNEL_LINEAR,
                                        i, rest, rest);
  tress_niff_builder_add_object (b, 0, still);
  turn = tress_niff_builder_add_group (b, 0, TRESS_NIFF_ANIM_STATIC, 30, 0);
  tress_niff_builder_add_channel_key (b, turn, TRESS_NIFF_ORIENTATION_XY, TRESS_NIFF_CHANNEL_CONST,
                                      0, x_y, diffs);
  for (guint i = 0; i < 31; i++)
    tress_niff_builder_add_channel_key (b, turn, TRESS_NIFF_TRANSLATION, TRESS_NIFF_CHANNEL_LINEAR,
                                        i, ones, ones);
  tress_niff_builder_add_object (b, 0, turn);
  bytes = tress_niff_builder_finish (b, &error);
  g_assert_no_error (error);

  model = tress_format_niff.parse (bytes, "test", &error);
  g_assert_no_error (error);
  text = tress_test_dump (&tress_format_niff, model);
  tress_format_niff.free (model);
  zeroed = tress_test_rewrite_numbers (text, TRESS_TEST_DROP_NEGATIVE_ZEROS, &dropped);
  g_assert_cmpuint (dropped, >=, 1); /* the stored one, and the curve's slopes */
  rebuilt = tress_test_build (&tress_format_niff, zeroed, &problems);
  note = note_at (problems, "/anim_groups/1");
  g_assert_nonnull (rebuilt);
  tress_test_assert_bytes_equal (bytes, rebuilt);
  g_assert_cmpstr (note, ==,
                   "1 zero given as 0 kept negative, as stored (a tool dropped the sign of zero)");
  g_assert_null (note_at (problems, "/anim_groups/0"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/niff/json/round-trip", test_round_trip);
  g_test_add_func ("/niff/json/edit-keys", test_edit_keys);
  g_test_add_func ("/niff/json/refusals", test_refusals);
  g_test_add_func ("/niff/json/same-values", test_same_values);
  g_test_add_func ("/niff/json/channel-missing", test_channel_missing);
  g_test_add_func ("/niff/json/negative-zero-search", test_negative_zero_search);
  return g_test_run ();
}
