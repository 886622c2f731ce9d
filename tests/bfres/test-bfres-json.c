/* test-bfres-json.c: BFRES (and its Yaz0 and SARC containers) through dump →
 * build, exactly; key edits in the JSON land the bytes set-key, insert-key and
 * delete-key give; the stored form is read-only
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "core/tress-yaz0.h"
#include "formats/bfres/tress-bfres.h"
#include "tress-test-json.h"

/* The bytes under any Yaz0 layers (the containers a build recompresses). */
static GBytes *
decompressed (GBytes *bytes)
{
  gsize n;
  const guint8 *d = g_bytes_get_data (bytes, &n);
  g_autoptr (GError) error = NULL;
  GBytes *inner;

  if (!tress_yaz0_is_compressed (d, n))
    return g_bytes_ref (bytes);
  inner = tress_yaz0_decompress (d, n, 0, &error);
  g_assert_no_error (error);
  return inner;
}

/* dump → build of @file's bytes, compared after decompression; an
 * uncompressed file must come back byte for byte. */
static void
round_trip_bytes (GBytes *file)
{
  g_autoptr (GError) error = NULL;
  gpointer model = tress_format_bfres.parse (file, "test", &error);
  g_autoptr (GBytes) text = NULL, rebuilt = NULL, a = NULL, b = NULL;
  g_autoptr (GPtrArray) problems = NULL;

  g_assert_no_error (error);
  text = tress_test_dump (&tress_format_bfres, model);
  tress_format_bfres.free (model);
  rebuilt = tress_test_build (&tress_format_bfres, text, &problems);
  for (guint i = 0; rebuilt == NULL && i < problems->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (problems, i);
      g_test_message ("%s: %s", p->location, p->message);
    }
  g_assert_nonnull (rebuilt);
  a = decompressed (file);
  b = decompressed (rebuilt);
  tress_test_assert_bytes_equal (a, b);
  if (g_bytes_equal (a, file)) /* not compressed: identical as it is */
    tress_test_assert_bytes_equal (file, rebuilt);
}

/* Every file of the shared samples' bfres folder (plain, Yaz0 .sbfres, and
 * whatever is added there later). */
static void
test_samples (void)
{
  const char *root = g_getenv ("TRESS_SAMPLES_DIR");
  g_autofree char *dir = root != NULL ? g_build_filename (root, "bfres", NULL) : NULL;
  g_autoptr (GDir) d = dir != NULL ? g_dir_open (dir, 0, NULL) : NULL;
  const char *name;
  guint n = 0;

  if (d == NULL)
    {
      g_test_skip ("the shared samples are not there");
      return;
    }
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr (GBytes) file = tj_read (path);

      if (!tress_format_bfres.probe (g_bytes_get_data (file, NULL), g_bytes_get_size (file)))
        continue;
      g_test_message ("%s", name);
      round_trip_bytes (file);
      n++;
    }
  g_assert_cmpuint (n, >=, 4);
}

/* The editor's demo, and the builder's and fuzzers' files: every curve type,
 * v3.3 headers, Yaz0, a SARC archive, Yaz0 over SARC. */
static void
test_demo_and_corpus (void)
{
  g_autofree char *demo = tj_tmp ("demo.bfres");
  g_autofree char *corpus = g_test_build_filename (G_TEST_DIST, "bfres", "corpus", NULL);
  g_autoptr (GDir) dir = g_dir_open (corpus, 0, NULL);
  g_autoptr (GBytes) demo_bytes = NULL;
  const char *name;
  guint n = 0;

  g_assert_cmpint (tj_run (NULL, NULL, "generate-demo", "bfres", "-o", demo, NULL), ==, 0);
  demo_bytes = tj_read (demo);
  round_trip_bytes (demo_bytes);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (corpus, name, NULL);
      g_autoptr (GBytes) file = tj_read (path);
      g_autoptr (GError) error = NULL;
      gpointer model = tress_format_bfres.parse (file, name, &error);

      if (model == NULL)
        continue; /* a damaged seed: nothing to dump */
      tress_format_bfres.free (model);
      g_test_message ("%s", name);
      round_trip_bytes (file);
      n++;
    }
  g_assert_cmpuint (n, >=, 6);
}

/* Through the CLI, as a user runs it: the .sbfres comes back compressed, the
 * same after decompression. */
static void
test_cli_compressed (void)
{
  g_autofree char *corpus
      = g_test_build_filename (G_TEST_DIST, "bfres", "corpus", "demo.szs", NULL);
  g_autofree char *json = tj_tmp ("szs.json");
  g_autofree char *out = tj_tmp ("szs-back.szs");
  g_autoptr (GBytes) a = NULL, b = NULL, da = NULL, db = NULL;
  gsize n;

  g_assert_cmpint (tj_run (NULL, NULL, "dump", corpus, "-o", json, NULL), ==, 0);
  g_assert_cmpint (tj_run (NULL, NULL, "build", json, "-o", out, NULL), ==, 0);
  a = tj_read (corpus);
  b = tj_read (out);
  g_assert_true (tress_yaz0_is_compressed (g_bytes_get_data (b, &n), n));
  da = decompressed (a);
  db = decompressed (b);
  tress_test_assert_bytes_equal (da, db);
}

/* ---- edits ----------------------------------------------------------------- */

static char *
sample_or_demo (void)
{
  g_autofree char *sample = NULL;
  const char *dir = g_getenv ("TRESS_SAMPLES_DIR");
  char *demo;

  if (dir != NULL)
    {
      sample = g_build_filename (dir, "bfres", "Animal_Bass_Animation.bfres", NULL);
      if (g_file_test (sample, G_FILE_TEST_EXISTS))
        return g_steal_pointer (&sample);
    }
  demo = tj_tmp ("edit-demo.bfres");
  g_assert_cmpint (tj_run (NULL, NULL, "generate-demo", "bfres", "-o", demo, NULL), ==, 0);
  return demo;
}

/* The curve whose index is @index: its object in the JSON. */
static JsonObject *
curve_object (JsonNode *root, guint index, char **pointer)
{
  JsonArray *anims = tj_array (root, "/animations");

  for (guint a = 0; a < json_array_get_length (anims); a++)
    {
      JsonArray *curves
          = json_object_get_array_member (json_array_get_object_element (anims, a), "curves");

      for (guint k = 0; k < json_array_get_length (curves); k++)
        {
          JsonObject *c = json_array_get_object_element (curves, k);

          if (json_object_get_int_member (c, "index") == index)
            {
              if (pointer != NULL)
                *pointer = g_strdup_printf ("/animations/%u/curves/%u", a, k);
              return c;
            }
        }
    }
  g_assert_not_reached ();
}

static JsonObject *
key_object (JsonNode *root, guint curve, guint key)
{
  return json_array_get_object_element (
      json_object_get_array_member (curve_object (root, curve, NULL), "keys"), key);
}

/* The first curve from @from on with 3 keys or more, the first two at least
 * 2 frames apart; *frame gets the whole frame after its first key. */
static guint
curve_with_gap (JsonNode *root, guint from, double *frame)
{
  for (guint c = from;; c++)
    {
      JsonArray *keys = json_object_get_array_member (curve_object (root, c, NULL), "keys");
      double f0, f1;

      if (json_array_get_length (keys) < 3)
        continue;
      f0 = json_object_get_double_member (json_array_get_object_element (keys, 0), "frame");
      f1 = json_object_get_double_member (json_array_get_object_element (keys, 1), "frame");
      if (f1 - f0 >= 2 && f0 == floor (f0))
        {
          *frame = f0 + 1;
          return c;
        }
    }
}

static void
assert_same_as_cli (JsonNode *root, GBytes *by_cli)
{
  g_autoptr (GBytes) by_json = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (tj_build (root, "bfres", &by_json, &err), ==, 0);
  g_assert_nonnull (by_json);
  tress_test_assert_bytes_equal (by_cli, by_json);
}

static void
test_edit_keys (void)
{
  g_autofree char *file = sample_or_demo ();
  g_autofree char *cli = tj_tmp ("cli.bfres");
  g_autoptr (GBytes) original = tj_read (file);

  /* a value: quantized in the curve's precision, as set-key does */
  {
    g_autoptr (JsonNode) root = tj_dump (file);
    g_autoptr (GBytes) by_cli = NULL;

    g_assert_cmpint (
        tj_run (NULL, NULL, "set-key", file, "1", "1", "--value", "0.25", "-o", cli, NULL), ==, 0);
    by_cli = tj_read (cli);
    g_assert_false (g_bytes_equal (by_cli, original));
    json_object_set_double_member (key_object (root, 1, 1), "value", 0.25);
    assert_same_as_cli (root, by_cli);
    /* the same value as the bits of a 32-bit float, the form docs/json.md
     * accepts wherever a float goes */
    json_object_set_string_member (key_object (root, 1, 1), "value", "0x3e800000");
    assert_same_as_cli (root, by_cli);
  }
  /* a frame (a whole one: the frames this file stores) and both slopes */
  {
    g_autoptr (JsonNode) root = tj_dump (file);
    g_autoptr (GBytes) by_cli = NULL;
    double f = 0;
    guint c = curve_with_gap (root, 0, &f);
    JsonObject *k = key_object (root, c, 1);
    char fs[G_ASCII_DTOSTR_BUF_SIZE], cs[16];

    g_ascii_dtostr (fs, sizeof fs, f);
    g_snprintf (cs, sizeof cs, "%u", c);
    g_assert_cmpint (tj_run (NULL, NULL, "set-key", file, cs, "1", "--frame", fs, "--in", "0.5",
                             "--out", "-0.5", "-o", cli, NULL),
                     ==, 0);
    by_cli = tj_read (cli);
    json_object_set_double_member (k, "frame", f);
    json_object_set_double_member (k, "in_slope", 0.5);
    json_object_set_double_member (k, "out_slope", -0.5);
    assert_same_as_cli (root, by_cli);
  }
  /* a key deleted */
  {
    g_autoptr (JsonNode) root = tj_dump (file);
    g_autoptr (GBytes) by_cli = NULL;

    g_assert_cmpint (tj_run (NULL, NULL, "delete-key", file, "3", "1", "-o", cli, NULL), ==, 0);
    by_cli = tj_read (cli);
    json_array_remove_element (json_object_get_array_member (curve_object (root, 3, NULL), "keys"),
                               1);
    assert_same_as_cli (root, by_cli);
  }
  /* a key inserted where the curve already goes (insert-key keeps the shape) */
  {
    g_autoptr (JsonNode) root = tj_dump (file);
    g_autoptr (GBytes) by_cli = NULL;
    g_autoptr (TressCurve) curve = NULL;
    g_autoptr (GError) error = NULL;
    gpointer model = tress_format_bfres.parse (original, "test", &error);
    JsonArray *keys;
    JsonObject *nk = json_object_new ();
    double f = 0;
    guint c = curve_with_gap (root, 0, &f);
    int at;
    char fs[G_ASCII_DTOSTR_BUF_SIZE], cs[16];

    curve = tress_format_bfres.curves->get_curve (model, c);
    at = tress_curve_insert_on_curve (curve, f, &error);
    g_assert_no_error (error);
    g_ascii_dtostr (fs, sizeof fs, f);
    g_snprintf (cs, sizeof cs, "%u", c);
    g_assert_cmpint (tj_run (NULL, NULL, "insert-key", file, cs, fs, "-o", cli, NULL), ==, 0);
    by_cli = tj_read (cli);
    json_object_set_double_member (nk, "frame", f);
    json_object_set_double_member (nk, "value", tress_curve_get_key (curve, at)->value);
    json_object_set_double_member (nk, "in_slope", tress_curve_get_key (curve, at)->in_slope);
    json_object_set_double_member (nk, "out_slope", tress_curve_get_key (curve, at)->out_slope);
    json_object_set_string_member (
        nk, "interp", tress_interp_to_string (tress_curve_get_key (curve, at)->interp));
    keys = json_object_get_array_member (curve_object (root, c, NULL), "keys");
    {
      /* json-glib appends only: rebuild the array with the new key at @at */
      JsonArray *with = json_array_new ();
      for (guint i = 0; i < json_array_get_length (keys); i++)
        {
          if (i == (guint)at)
            json_array_add_object_element (with, json_object_ref (nk));
          json_array_add_element (with, json_node_copy (json_array_get_element (keys, i)));
        }
      json_object_set_array_member (curve_object (root, c, NULL), "keys", with);
    }
    json_object_unref (nk);
    tress_format_bfres.free (model);
    assert_same_as_cli (root, by_cli);
  }
}

/* A key moved past the end needs the animation lengthened first, as set-key
 * needs --extend. */
static void
test_edit_frame_count (void)
{
  g_autofree char *file = sample_or_demo ();
  g_autofree char *cli = tj_tmp ("extend.bfres");
  g_autoptr (JsonNode) root = tj_dump (file);
  g_autoptr (GBytes) by_cli = NULL;
  g_autofree char *pointer = NULL;
  JsonObject *c = curve_object (root, 0, &pointer);
  JsonArray *keys = json_object_get_array_member (c, "keys");
  JsonObject *last = json_array_get_object_element (keys, json_array_get_length (keys) - 1);
  g_auto (GStrv) parts = g_strsplit (pointer, "/", -1);
  g_autofree char *anim = g_strdup_printf ("/animations/%s", parts[2]);
  gint64 frames = json_object_get_int_member (tj_object (root, anim), "frame_count");
  char fs[32], ks[16];
  g_autofree char *keys_path = g_strconcat (pointer, "/keys", NULL);

  g_snprintf (fs, sizeof fs, "%" G_GINT64_FORMAT, frames + 10);
  json_object_set_double_member (last, "frame", (double)(frames + 10));
  tj_assert_refused (root, "bfres", keys_path, "frame_count");

  g_snprintf (ks, sizeof ks, "%u", json_array_get_length (keys) - 1);
  g_assert_cmpint (
      tj_run (NULL, NULL, "set-key", file, "0", ks, "--frame", fs, "--extend", "-o", cli, NULL), ==,
      0);
  by_cli = tj_read (cli);
  json_object_set_int_member (tj_object (root, anim), "frame_count", frames + 10);
  assert_same_as_cli (root, by_cli);

  json_object_set_int_member (tj_object (root, anim), "frame_count", frames - 1);
  {
    g_autofree char *fc = g_strconcat (anim, "/frame_count", NULL);
    tj_assert_refused (root, "bfres", fc, "only lengthens");
  }
}

/* FTXP keys name their texture: the name can be edited instead of the index. */
static void
test_edit_texture (void)
{
  g_autofree char *demo = tj_tmp ("texture.bfres");
  g_autofree char *cli = tj_tmp ("texture-cli.bfres");
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (GBytes) by_cli = NULL;
  JsonArray *anims;
  JsonObject *key = NULL;
  guint curve = 0;
  g_autofree char *key_path = NULL;

  g_assert_cmpint (tj_run (NULL, NULL, "generate-demo", "bfres", "-o", demo, NULL), ==, 0);
  root = tj_dump (demo);
  anims = tj_array (root, "/animations");
  for (guint a = 0; a < json_array_get_length (anims) && key == NULL; a++)
    {
      JsonObject *ao = json_array_get_object_element (anims, a);
      JsonArray *curves = json_object_get_array_member (ao, "curves");

      if (!json_object_has_member (ao, "textures"))
        continue;
      key = json_array_get_object_element (
          json_object_get_array_member (json_array_get_object_element (curves, 0), "keys"), 0);
      curve
          = (guint)json_object_get_int_member (json_array_get_object_element (curves, 0), "index");
      key_path = g_strdup_printf ("/animations/%u/curves/0/keys/0/texture", a);
    }
  g_assert_nonnull (key);
  g_assert_cmpstr (json_object_get_string_member (key, "texture"), ==, "Eye_Open");
  {
    g_autofree char *c = g_strdup_printf ("%u", curve);
    g_assert_cmpint (tj_run (NULL, NULL, "set-key", demo, c, "0", "--value", "2", "-o", cli, NULL),
                     ==, 0);
  }
  by_cli = tj_read (cli);
  json_object_set_string_member (key, "texture", "Eye_Closed");
  assert_same_as_cli (root, by_cli);
  /* a name and an index that disagree */
  json_object_set_int_member (key, "value", 1);
  tj_assert_refused (root, "bfres", key_path, "not texture 1");
  json_object_set_string_member (key, "texture", "Eye_Shut");
  json_object_set_int_member (key, "value", 0);
  tj_assert_refused (root, "bfres", key_path, "not among the animation's textures");
}

static void
test_refusals (void)
{
  g_autofree char *file = sample_or_demo ();
  g_autofree char *c0 = NULL;

  {
    /* the stored form is read-only */
    g_autoptr (JsonNode) root = tj_dump (file);
    JsonObject *c = curve_object (root, 0, &c0);
    JsonArray *raw = json_object_get_array_member (c, "raw_keys");
    double v = json_array_get_double_element (raw, 0);

    json_array_remove_element (raw, 0);
    {
      JsonArray *with = json_array_new ();
      json_array_add_double_element (with, v + 1);
      for (guint i = 0; i < json_array_get_length (raw); i++)
        json_array_add_element (with, json_node_copy (json_array_get_element (raw, i)));
      json_object_set_array_member (c, "raw_keys", with);
    }
    tj_assert_refused (root, "bfres", c0, "read-only");
  }
  {
    g_autoptr (JsonNode) root = tj_dump (file);
    JsonObject *chunk = json_array_get_object_element (tj_array (root, "/bytes"), 0);
    g_autofree char *b64 = g_strdup (json_object_get_string_member (chunk, "base64"));

    b64[8] = b64[8] == 'A' ? 'B' : 'A';
    json_object_set_string_member (chunk, "base64", b64);
    tj_assert_refused (root, "bfres", "/bytes", "read-only");
  }
  {
    /* derived members are checked */
    g_autoptr (JsonNode) root = tj_dump (file);
    g_autofree char *p = NULL;
    JsonObject *c = curve_object (root, 0, &p);
    g_autofree char *path = g_strconcat (p, "/path", NULL);

    json_object_set_string_member (c, "path", "Somewhere/Else");
    tj_assert_refused (root, "bfres", path, "derived from the file");
  }
  {
    g_autoptr (JsonNode) root = tj_dump (file);
    g_autofree char *p = NULL;
    g_autofree char *path = NULL;

    curve_object (root, 0, &p);
    path = g_strconcat (p, "/keys/1/value", NULL);
    json_object_set_string_member (key_object (root, 0, 1), "value", "high");
    tj_assert_refused (root, "bfres", path, "expected a number, or the bits of a 32-bit float");
  }
  {
    g_autoptr (JsonNode) root = tj_dump (file);
    g_autofree char *p = NULL;
    g_autofree char *path = NULL;
    JsonObject *k0, *k1;

    curve_object (root, 0, &p);
    path = g_strconcat (p, "/keys/1", NULL);
    k0 = key_object (root, 0, 0);
    k1 = key_object (root, 0, 1);
    json_object_set_double_member (k1, "frame", json_object_get_double_member (k0, "frame"));
    tj_assert_refused (root, "bfres", path, "a key already sits at frame");
  }
  {
    g_autoptr (JsonNode) root = tj_dump (file);
    json_object_set_int_member (json_node_get_object (root), "extra_member", 1);
    tj_assert_refused (root, "bfres", "/extra_member", "not a member Tress writes here");
  }
}

/* Whether @problems holds a note at @path whose message contains @words. */
static gboolean
has_note (GPtrArray *problems, const char *path, const char *words)
{
  for (guint i = 0; i < problems->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (problems, i);

      if (p->severity < TRESS_SEVERITY_WARNING && g_strcmp0 (p->location, path) == 0
          && strstr (p->message, words) != NULL)
        return TRUE;
    }
  return FALSE;
}

/* A value that reads back equal is no edit, and the file keeps its bits:
 * negative zeros a tool wrote back as 0 (here in curve headers, read-only:
 * one curve with two, one with one), every number in another spelling. */
static void
test_same_values (void)
{
  g_autofree char *file = sample_or_demo ();
  g_autoptr (GBytes) original = tj_read (file);
  g_autoptr (GBytes) text = NULL, bytes = NULL, zeroed = NULL, respelled = NULL;
  g_autoptr (GBytes) rebuilt = NULL, again = NULL;
  g_autoptr (GPtrArray) problems = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *first = NULL, *second = NULL;
  gpointer model = tress_format_bfres.parse (original, "test", &error);
  JsonArray *anims;
  gsize n = g_bytes_get_size (original);
  guint8 *d = g_memdup2 (g_bytes_get_data (original, NULL), n);
  guint flipped = 0, dropped = 0;

  g_assert_no_error (error);
  text = tress_test_dump (&tress_format_bfres, model);
  tress_format_bfres.free (model);
  root = tj_parse (text);
  anims = tj_array (root, "/animations");
  for (guint a = 0; a < json_array_get_length (anims) && flipped < 3; a++)
    {
      JsonArray *curves
          = json_object_get_array_member (json_array_get_object_element (anims, a), "curves");

      for (guint k = 0; k < json_array_get_length (curves) && flipped < 3; k++)
        {
          JsonObject *c = json_array_get_object_element (curves, k);
          gsize pos = (gsize)json_object_get_int_member (c, "offset");
          char **path = first == NULL ? &first : &second;

          /* start (+8), then delta (+24, from version 3.4) when 0 as well */
          if (json_object_get_double_member (c, "start") != 0 || pos + 28 > n)
            continue;
          d[pos + 8] = 0x80;
          flipped++;
          if (flipped == 1 && json_object_has_member (c, "delta")
              && json_object_get_double_member (c, "delta") == 0)
            {
              d[pos + 24] = 0x80;
              flipped++;
            }
          *path = g_strdup_printf ("/animations/%u/curves/%u", a, k);
        }
    }
  g_assert_nonnull (second);
  bytes = g_bytes_new_take (d, n);
  model = tress_format_bfres.parse (bytes, "test", &error);
  g_assert_no_error (error);
  g_clear_pointer (&text, g_bytes_unref);
  text = tress_test_dump (&tress_format_bfres, model);
  tress_format_bfres.free (model);
  g_assert_nonnull (strstr (g_bytes_get_data (text, NULL), "\"start\": -0.0,"));

  /* every negative zero written back as 0: the same bytes, and a note */
  zeroed = tress_test_rewrite_numbers (text, TRESS_TEST_DROP_NEGATIVE_ZEROS, &dropped);
  g_assert_cmpuint (dropped, >=, flipped);
  rebuilt = tress_test_build (&tress_format_bfres, zeroed, &problems);
  g_assert_nonnull (rebuilt);
  tress_test_assert_bytes_equal (bytes, rebuilt);
  g_assert_true (has_note (problems, first, "kept negative"));
  g_assert_true (has_note (problems, second, "1 zero given as 0 kept negative"));
  g_clear_pointer (&problems, g_ptr_array_unref);

  /* every number as "%.17e" (1 as 1.00000000000000000e+00) */
  respelled = tress_test_rewrite_numbers (text, TRESS_TEST_RESPELL, NULL);
  again = tress_test_build (&tress_format_bfres, respelled, &problems);
  g_assert_nonnull (again);
  tress_test_assert_bytes_equal (bytes, again);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bfres/json/samples", test_samples);
  g_test_add_func ("/bfres/json/demo-and-corpus", test_demo_and_corpus);
  g_test_add_func ("/bfres/json/cli-compressed", test_cli_compressed);
  g_test_add_func ("/bfres/json/edit-keys", test_edit_keys);
  g_test_add_func ("/bfres/json/edit-frame-count", test_edit_frame_count);
  g_test_add_func ("/bfres/json/edit-texture", test_edit_texture);
  g_test_add_func ("/bfres/json/refusals", test_refusals);
  g_test_add_func ("/bfres/json/same-values", test_same_values);
  return g_test_run ();
}
