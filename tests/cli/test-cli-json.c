/* test-cli-json.c: dump's JSON after the tools people edit it with, and
 * refusals that fit on a screen, through tress-cli as a user runs it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "core/tress-yaz0.h"
#include "tress-test-json.h"

/* What Python's json module writes for the text it reads: another spacing,
 * "-0" as 0, exponents as "1e-07", every non-ASCII character escaped. */
static const char python_round_trip[]
    = "import json, sys; json.dump(json.load(open(sys.argv[1])), open(sys.argv[2], 'w'))";

/* The bytes under any Yaz0 layer (build compresses again, as the editor saves). */
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

/* Builds @edited, a dump of @path gone through a tool: the file's bytes again
 * (after decompression for a compressed file, whose rebuilt bytes are then
 * those a build of the unedited dump @json gives). */
static void
assert_rebuilds (const char *path, const char *json, const char *edited, const char *tool)
{
  g_autofree char *out = tj_tmp ("tool.out");
  g_autofree char *direct = tj_tmp ("tool-direct.out");
  g_autofree char *err = NULL;
  g_autoptr (GBytes) original = tj_read (path);
  g_autoptr (GBytes) rebuilt = NULL, a = NULL, b = NULL;

  if (tj_run (NULL, &err, "build", edited, "-o", out, NULL) != 0)
    g_error ("%s: the JSON after %s does not build:\n%s", path, tool, err);
  rebuilt = tj_read (out);
  a = decompressed (original);
  b = decompressed (rebuilt);
  tress_test_assert_bytes_equal (a, b);
  if (g_bytes_equal (a, original))
    tress_test_assert_bytes_equal (original, rebuilt);
  else
    {
      g_autoptr (GBytes) same = NULL;

      g_assert_cmpint (tj_run (NULL, NULL, "build", json, "-o", direct, NULL), ==, 0);
      same = tj_read (direct);
      tress_test_assert_bytes_equal (same, rebuilt);
    }
}

/* dump @path; the JSON through Python, and with every number spelled
 * another way ("%.17e"); each builds the same file. */
static void
assert_tool_round_trips (const char *python, const char *path)
{
  g_autofree char *json = tj_tmp ("tool.json");
  g_autofree char *edited = tj_tmp ("tool-python.json");
  g_autofree char *respelled = tj_tmp ("tool-respelled.json");
  const char *argv[] = { python, "-c", python_round_trip, json, edited, NULL };
  g_autoptr (GBytes) text = NULL, other = NULL;
  g_autoptr (GError) error = NULL;
  int status = 0;

  g_test_message ("%s", path);
  g_assert_cmpint (tj_run (NULL, NULL, "dump", path, "-o", json, NULL), ==, 0);
  g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status,
                &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  assert_rebuilds (path, json, edited, "Python's json");
  text = tj_read (json);
  other = tress_test_rewrite_numbers (text, TRESS_TEST_RESPELL, NULL);
  tj_write (respelled, other);
  assert_rebuilds (path, json, respelled, "spelling every number as %.17e");
}

/* A generated creature with a negative zero in a line's direction (a value
 * of the file, built from the JSON as given). */
static char *
creature_with_negative_zero (void)
{
  g_autofree char *cha = tj_tmp ("generated.cha");
  g_autofree char *json = tj_tmp ("generated.json");
  char *out = tj_tmp ("negative-zero.cha");
  g_autoptr (GBytes) text = NULL;
  g_autofree char *edited = NULL;
  const char *s, *at, *comma;

  g_assert_cmpint (tj_run (NULL, NULL, "generate-demo", "cha", "--ribbons", "200", "-o", cha, NULL),
                   ==, 0);
  g_assert_cmpint (tj_run (NULL, NULL, "dump", cha, "-o", json, NULL), ==, 0);
  text = tj_read (json);
  s = g_bytes_get_data (text, NULL);
  at = strstr (s, "\"direction\": [") + strlen ("\"direction\": [");
  comma = strchr (at, ',');
  edited = g_strdup_printf ("%.*s-0.0%s", (int)(at - s), s, comma);
  g_assert_true (g_file_set_contents (json, edited, -1, NULL));
  g_assert_cmpint (tj_run (NULL, NULL, "build", json, "-o", out, NULL), ==, 0);
  return out;
}

/* Every shared sample (bfres and niff folders) and a generated creature with
 * a negative zero: what Python's json module and other spellings of the
 * numbers give builds the same file. */
static void
test_tool_round_trip (void)
{
  const char *root = g_getenv ("TRESS_SAMPLES_DIR");
  static const char *const folders[] = { "bfres", "niff" };
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *cha = NULL;
  guint n = 0;

  if (python == NULL)
    {
      g_test_skip ("python3 is not installed (tools/install-deps)");
      return;
    }
  cha = creature_with_negative_zero ();
  assert_tool_round_trips (python, cha);
  for (guint f = 0; root != NULL && f < G_N_ELEMENTS (folders); f++)
    {
      g_autofree char *dir = g_build_filename (root, folders[f], NULL);
      g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
      const char *name;

      while (d != NULL && (name = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *path = g_build_filename (dir, name, NULL);
          g_autofree char *info = NULL;

          /* (what tress-cli opens: a sample's notes and decompressed copies
           * that no format claims are left out) */
          if (tj_run (&info, NULL, "info", path, NULL) == 2)
            continue;
          assert_tool_round_trips (python, path);
          n++;
        }
    }
  if (n == 0)
    g_test_message ("the shared samples are not there: the generated creature only");
}

/* Builds @text (a file) and asserts it is refused in less than 1 KB of
 * messages that name @path. */
static void
assert_short_refusal (GBytes *text, const char *path)
{
  g_autofree char *json = tj_tmp ("long.json");
  g_autofree char *out = tj_tmp ("long.out");
  g_autofree char *err = NULL;
  int status;

  tj_write (json, text);
  status = tj_run (NULL, &err, "build", json, "-o", out, NULL);
  g_assert_cmpint (status, !=, 0);
  g_test_message ("%s", err);
  g_assert_cmpuint (strlen (err), <, 1024);
  g_assert_nonnull (strstr (err, path));
  g_assert_nonnull (strstr (err, " bytes)"));
}

/* A string of @n copies of @c. */
static JsonNode *
long_string (gsize n, char c)
{
  g_autofree char *s = g_malloc (n + 1);

  memset (s, c, n);
  s[n] = '\0';
  return json_node_init_string (json_node_alloc (), s);
}

/* A 20 MB name, format, interpolation or member name: each refusal quotes
 * the string cut, with its size. */
static void
test_long_strings (void)
{
  const gsize n = 20u << 20;
  g_autofree char *cha = tj_tmp ("names.cha");
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (GBytes) text = NULL;

  g_assert_cmpint (tj_run (NULL, NULL, "generate-demo", "cha", "--ribbons", "20", "-o", cha, NULL),
                   ==, 0);
  root = tj_dump (cha);

  /* a morph name (32 bytes in the file) */
  {
    JsonArray *morphs = tj_array (root, "/morphs");
    g_autoptr (JsonNode) was = json_node_copy (json_array_get_element (morphs, 0));

    json_array_remove_element (morphs, 0);
    json_array_add_element (morphs, long_string (n, 'A'));
    text = tj_text (root);
    assert_short_refusal (text, "/morphs/");
    g_clear_pointer (&text, g_bytes_unref);
    json_array_remove_element (morphs, json_array_get_length (morphs) - 1);
    json_array_add_element (morphs, g_steal_pointer (&was));
  }

  /* the format, then a member of that name */
  {
    JsonObject *top = json_node_get_object (root);
    g_autoptr (JsonNode) format = json_node_copy (json_object_get_member (top, "format"));
    g_autofree char *name = g_malloc (n + 1);

    json_object_set_member (top, "format", long_string (n, 'B'));
    text = tj_text (root);
    assert_short_refusal (text, "/format");
    g_clear_pointer (&text, g_bytes_unref);
    json_object_set_member (top, "format", g_steal_pointer (&format));

    memset (name, 'C', n);
    name[n] = '\0';
    json_object_set_int_member (top, name, 1);
    text = tj_text (root);
    assert_short_refusal (text, "/CCCC");
    g_clear_pointer (&text, g_bytes_unref);
    json_object_remove_member (top, name);
  }

  /* broken text after a long member name */
  {
    GString *broken = g_string_new ("{\"format\": \"cha\", \"");

    for (gsize i = 0; i < n; i++)
      g_string_append_c (broken, 'D');
    g_string_append (broken, "\" 1}");
    text = g_string_free_to_bytes (broken);
    assert_short_refusal (text, "/DDDD");
  }
}

/* `tress-cli build` of @root: the exit status, what it says on stdout (notes)
 * and stderr (refusals), and whether it wrote @file's bytes again. */
static int
build_json (JsonNode *root, const char *file, char **out, char **err, gboolean *same)
{
  g_autofree char *json = tj_tmp ("members.json");
  g_autofree char *built = tj_tmp ("members.out");
  g_autoptr (GBytes) text = tj_text (root);
  int status;

  g_unlink (built);
  tj_write (json, text);
  status = tj_run (out, err, "build", json, "-o", built, NULL);
  if (same != NULL)
    {
      g_autoptr (GBytes) a = tj_read (file);
      g_autoptr (GBytes) b = g_file_test (built, G_FILE_TEST_EXISTS) ? tj_read (built) : NULL;

      *same = b != NULL && g_bytes_equal (a, b);
    }
  return status;
}

/* @root without the member at @pointer ("/a/0/b") is refused, naming it. */
static void
assert_required (const char *file, const char *pointer)
{
  g_autoptr (JsonNode) root = tj_dump (file);
  g_autofree char *parent = g_strndup (pointer, (gsize)(strrchr (pointer, '/') - pointer));
  g_autofree char *words
      = g_strdup_printf ("%s: the member \"%s\" is missing", pointer, strrchr (pointer, '/') + 1);
  g_autofree char *out = NULL, *err = NULL;

  json_object_remove_member (tj_object (root, parent), strrchr (pointer, '/') + 1);
  g_assert_cmpint (build_json (root, file, &out, &err, NULL), ==, 1);
  if (strstr (err, words) == NULL)
    g_error ("expected \"%s\", got:\n%s", words, err);
}

/* @root without the member at @pointer builds @file's bytes, with a note
 * naming it. */
static void
assert_optional (const char *file, const char *pointer)
{
  g_autoptr (JsonNode) root = tj_dump (file);
  g_autofree char *parent = g_strndup (pointer, (gsize)(strrchr (pointer, '/') - pointer));
  g_autofree char *words
      = g_strdup_printf ("%s: the member \"%s\" is not given", pointer, strrchr (pointer, '/') + 1);
  g_autofree char *out = NULL, *err = NULL;
  gboolean same = FALSE;

  json_object_remove_member (parent[0] != '\0' ? tj_object (root, parent)
                                               : json_node_get_object (root),
                             strrchr (pointer, '/') + 1);
  if (build_json (root, file, &out, &err, &same) != 0 || !same)
    g_error ("%s left out: expected the same file, got:\n%s", pointer, err);
  if (strstr (out, words) == NULL)
    g_error ("expected the note \"%s\", got:\n%s", words, out);
}

/* A required member left out is refused at its own pointer; an optional one
 * is a note, and the file is built as without it (docs/json.md says which
 * are which). */
static void
test_missing_members (void)
{
  g_autofree char *bfres = tj_tmp ("members.bfres");
  g_autofree char *niff = tj_tmp ("members.niff");
  g_autofree char *cha = tj_tmp ("members.cha");
  g_autofree char *niff1
      = g_test_build_filename (G_TEST_DIST, "niff", "corpus", "niff1-all-records.nif", NULL);

  g_assert_cmpint (tj_run (NULL, NULL, "generate-demo", "bfres", "-o", bfres, NULL), ==, 0);
  g_assert_cmpint (tj_run (NULL, NULL, "generate-demo", "niff", "-o", niff, NULL), ==, 0);
  g_assert_cmpint (tj_run (NULL, NULL, "generate-demo", "cha", "--ribbons", "20", "-o", cha, NULL),
                   ==, 0);

  /* BFRES: a float curve's header values; the edited members */
  assert_required (bfres, "/animations/0/curves/0/scale");
  assert_required (bfres, "/animations/0/curves/0/delta");
  assert_required (bfres, "/animations/0/curves/0/raw_keys");
  assert_optional (bfres, "/animations/0/curves/0/keys");
  assert_optional (bfres, "/animations/0/frame_count");
  assert_optional (bfres, "/animations/0/curves/0/keys/0/interp");

  /* NIFF: what a record of its kind holds, a channel key's members, every
   * channel; the curves (their keys are the edits) */
  assert_required (niff1, "/anim_groups/0/records/0/translate");
  assert_required (niff, "/anim_groups/0/nintendo_extension/channels/RotateY/0/value");
  assert_required (niff, "/anim_groups/0/nintendo_extension/channels/RotateX");
  assert_optional (niff, "/curves");
  assert_optional (niff1, "/curves/0/keys");
  {
    g_autoptr (JsonNode) root = tj_dump (niff1);
    JsonObject *rec = tj_object (root, "/anim_groups/0/records/0");
    g_autofree char *out = NULL, *err = NULL;

    g_assert_false (json_object_has_member (rec, "look_at"));
    json_object_set_int_member (rec, "look_at", 1);
    g_assert_cmpint (build_json (root, niff1, &out, &err, NULL), ==, 1);
    g_assert_nonnull (strstr (err, "/anim_groups/0/records/0/look_at: a "));
  }

  /* a creature: a name given as bytes; the dumped file's problems */
  {
    g_autoptr (JsonNode) root = tj_dump (cha);
    g_autofree char *out = NULL, *err = NULL;
    JsonNode *empty = json_node_new (JSON_NODE_OBJECT);

    json_node_take_object (empty, json_object_new ());
    json_object_set_member (json_node_get_object (root), "magic", empty);
    g_assert_cmpint (build_json (root, cha, &out, &err, NULL), ==, 1);
    g_assert_nonnull (strstr (err, "/magic/base64: the member \"base64\" is missing"));
  }
  assert_optional (cha, "/problems");
}

/* A copy of @node of its own (json_node_copy shares the objects). */
static JsonNode *
deep_copy (JsonNode *node)
{
  g_autoptr (GBytes) text = tj_text (node);

  return tj_parse (text);
}

/* @root edited is refused, with a message at @path holding @words. */
static void
assert_refused_at (JsonNode *root, const char *file, const char *path, const char *words)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *where = g_strconcat (path, ": ", NULL);

  g_assert_cmpint (build_json (root, file, &out, &err, NULL), ==, 1);
  if (strstr (err, where) == NULL || strstr (err, words) == NULL)
    g_error ("expected a refusal at %s (%s), got:\n%s", path, words, err);
}

/* Read-only members are compared as the others: the bytes outside the
 * model emptied (pieces of zeros included, which the digest alone let
 * through), left out, moved, or a size changed, are refused where they are. */
static void
test_read_only (void)
{
  g_autofree char *bfres = tj_tmp ("read-only.bfres");
  g_autofree char *niff = tj_tmp ("read-only.niff");
  g_autofree char *szs = g_test_build_filename (G_TEST_DIST, "bfres", "corpus", "demo.szs", NULL);
  g_autoptr (JsonNode) dumped = NULL;
  guint n_pieces;

  g_assert_cmpint (tj_run (NULL, NULL, "generate-demo", "bfres", "-o", bfres, NULL), ==, 0);
  g_assert_cmpint (tj_run (NULL, NULL, "generate-demo", "niff", "-o", niff, NULL), ==, 0);
  dumped = tj_dump (bfres);
  n_pieces = json_array_get_length (tj_array (dumped, "/bytes"));
  g_assert_cmpuint (n_pieces, >=, 3);

  /* each piece of the BFRES bytes emptied, zeros or not */
  for (guint i = 0; i < n_pieces; i++)
    {
      g_autoptr (JsonNode) root = deep_copy (dumped);
      g_autofree char *at = g_strdup_printf ("/bytes/%u", i);
      g_autofree char *b64 = g_strdup_printf ("/bytes/%u/base64", i);

      json_object_set_string_member (tj_object (root, at), "base64", "");
      assert_refused_at (root, bfres, b64, "0 bytes, where the bytes outside the curves");
    }
  /* one left out, one moved, the size changed */
  {
    g_autoptr (JsonNode) root = deep_copy (dumped);

    json_array_remove_element (tj_array (root, "/bytes"), 1);
    assert_refused_at (root, bfres, "/bytes/1", "are missing before this piece");
  }
  {
    g_autoptr (JsonNode) root = deep_copy (dumped);
    JsonObject *piece = tj_object (root, "/bytes/1");

    json_object_set_int_member (piece, "offset", json_object_get_int_member (piece, "offset") + 1);
    assert_refused_at (root, bfres, "/bytes/1/offset", "where no piece");
  }
  {
    g_autoptr (JsonNode) root = deep_copy (dumped);
    JsonObject *top = json_node_get_object (root);
    g_autofree char *last = g_strdup_printf ("/bytes/%u/base64", n_pieces - 1);

    json_object_set_int_member (top, "size", json_object_get_int_member (top, "size") + 4);
    assert_refused_at (root, bfres, last, "or \"size\", were changed");
  }

  /* the archive around a BFRES: its bytes before the entry */
  {
    g_autoptr (JsonNode) root = tj_dump (szs);

    json_object_set_string_member (tj_object (root, "/container/1/bytes/0"), "base64", "");
    assert_refused_at (root, szs, "/container/1/bytes/0", "before its BFRES entry");
  }

  /* NIFF: the file header, a list */
  {
    g_autoptr (JsonNode) root = tj_dump (niff);

    json_object_set_string_member (json_node_get_object (root), "header_base64", "");
    assert_refused_at (root, niff, "/header_base64", "0 bytes; the file header");
  }
  {
    g_autoptr (JsonNode) root = tj_dump (niff);

    json_object_set_string_member (tj_object (root, "/lists/0"), "base64", "");
    assert_refused_at (root, niff, "/lists/0/base64", "0 bytes; a list holds");
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/json/tool-round-trip", test_tool_round_trip);
  g_test_add_func ("/cli/json/long-strings", test_long_strings);
  g_test_add_func ("/cli/json/missing-members", test_missing_members);
  g_test_add_func ("/cli/json/read-only", test_read_only);
  return g_test_run ();
}
