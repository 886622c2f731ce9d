/* test-json.c: the JSON writer and pull reader behind dump and build
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/tress-json.h"
#include "tress-test-utils.h"

static char *
float_text (float f)
{
  TressJsonWriter *w = tress_json_writer_new ();
  g_autoptr (GBytes) text = NULL;
  gsize n;
  const char *s;

  tress_json_add_float (w, f);
  text = tress_json_writer_free_to_bytes (w);
  s = g_bytes_get_data (text, &n);
  return g_strndup (s, n - 1); /* without the final newline */
}

static guint32
bits_of (float f)
{
  guint32 b;
  memcpy (&b, &f, 4);
  return b;
}

/* Floats read back to the same bits, through any reader that rounds the text
 * to the nearest double and then to float (strtod here), and through ours. */
static void
test_float_round_trip (void)
{
  GRand *rand = g_rand_new_with_seed (20240601);
  TressJsonWriter *w = tress_json_writer_new ();
  g_autoptr (GBytes) text = NULL;
  g_autoptr (TressJsonReader) r = NULL;
  g_autoptr (GArray) want = g_array_new (FALSE, FALSE, 4);
  const guint n = 300000;
  gsize len;
  const char *s;
  guint i = 0;

  tress_json_begin_array (w);
  for (guint k = 0; k < n; k++)
    {
      guint32 b = k < 1000 ? k : k < 2000 ? 0x7f7fffffu - (k - 1000) : g_rand_int (rand);
      float f;

      memcpy (&f, &b, 4);
      if (!isfinite (f))
        continue;
      g_array_append_val (want, b);
      tress_json_add_float_bits (w, b);
    }
  tress_json_end_array (w);
  text = tress_json_writer_free_to_bytes (w);
  s = g_bytes_get_data (text, &len);

  /* strtod, number by number */
  for (const char *p = s + 1; *p != ']' && *p != '\0'; i++)
    {
      char *end;
      float f = (float)g_ascii_strtod (p, &end);

      g_assert_cmphex (bits_of (f), ==, g_array_index (want, guint32, i));
      p = end;
      while (*p == ',' || *p == ' ')
        p++;
    }
  g_assert_cmpuint (i, ==, want->len);

  /* the reader */
  r = tress_json_reader_new (s, len);
  i = 0;
  g_assert_true (tress_json_reader_begin_array (r));
  while (tress_json_reader_next_element (r))
    {
      float f = 0;
      g_assert_true (tress_json_reader_read_float (r, &f));
      g_assert_cmphex (bits_of (f), ==, g_array_index (want, guint32, i));
      i++;
    }
  g_assert_cmpuint (i, ==, want->len);
  g_assert_true (tress_json_reader_ok (r));
  g_rand_free (rand);
}

static void
test_float_text (void)
{
  static const struct
  {
    float f;
    const char *text;
  } cases[] = {
    { 0.1f, "0.1" },
    { 1.5f, "1.5" },
    { 100.0f, "100" },
    { -0.0f, "-0.0" },
    { 0.0f, "0" },
    { 1e-7f, "1e-7" },
    { 0.3f, "0.3" },
    { 16777216.0f, "16777216" },
    { 3.4028235e38f, "3.4028235e38" },
    { 0.14285715f, "0.14285715" },
  };
  guint32 nan_bits = 0x7fc01234u;
  float nan_f;
  g_autofree char *nan_text = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *t = float_text (cases[i].f);
      g_assert_cmpstr (t, ==, cases[i].text);
    }
  memcpy (&nan_f, &nan_bits, 4);
  nan_text = float_text (nan_f);
  g_assert_cmpstr (nan_text, ==, "\"0x7fc01234\"");
  {
    const char *text = "[\"0x7fc01234\", \"0xff800000\", -0]";
    g_autoptr (TressJsonReader) r = tress_json_reader_new (text, strlen (text));
    float f = 1;

    tress_json_reader_begin_array (r);
    g_assert_true (tress_json_reader_next_element (r));
    g_assert_true (tress_json_reader_read_float (r, &f));
    g_assert_cmphex (bits_of (f), ==, nan_bits);
    g_assert_true (tress_json_reader_next_element (r));
    g_assert_true (tress_json_reader_read_float (r, &f));
    g_assert_true (isinf (f) && f < 0);
    g_assert_true (tress_json_reader_next_element (r));
    g_assert_true (tress_json_reader_read_float (r, &f));
    g_assert_cmphex (bits_of (f), ==, 0x80000000u);
    g_assert_false (tress_json_reader_next_element (r));
  }
  /* a double (a curve key's) takes the bits form too, finite */
  {
    const char *text = "[\"0x3e800000\", \"0x7fc00000\", \"0.25\"]";
    g_autoptr (TressJsonReader) r = tress_json_reader_new (text, strlen (text));
    GPtrArray *problems = tress_json_reader_get_problems (r);
    double d = 0;

    tress_json_reader_begin_array (r);
    g_assert_true (tress_json_reader_next_element (r));
    g_assert_true (tress_json_reader_read_double (r, &d));
    g_assert_cmpfloat (d, ==, 0.25);
    g_assert_true (tress_json_reader_next_element (r));
    g_assert_false (tress_json_reader_read_double (r, &d));
    g_assert_true (tress_test_has_problem (problems, "/1", "finite number, found NaN"));
    g_assert_true (tress_json_reader_next_element (r));
    g_assert_false (tress_json_reader_read_double (r, &d));
    g_assert_true (tress_test_has_problem (problems, "/2", "8 hex digits, found \"0.25\""));
    g_assert_false (tress_json_reader_next_element (r));
  }
}

static void
test_double_round_trip (void)
{
  GRand *rand = g_rand_new_with_seed (7);

  for (guint k = 0; k < 20000; k++)
    {
      guint64 b = ((guint64)g_rand_int (rand) << 32) | g_rand_int (rand);
      double d, back = 0;
      TressJsonWriter *w;
      g_autoptr (GBytes) text = NULL;
      g_autoptr (TressJsonReader) r = NULL;

      memcpy (&d, &b, 8);
      if (!isfinite (d))
        continue;
      w = tress_json_writer_new ();
      tress_json_add_double (w, d);
      text = tress_json_writer_free_to_bytes (w);
      r = tress_json_reader_new (g_bytes_get_data (text, NULL), g_bytes_get_size (text));
      g_assert_true (tress_json_reader_read_double (r, &back));
      g_assert_true (memcmp (&back, &d, 8) == 0);
    }
  g_rand_free (rand);
}

static GBytes *
write_sample (void)
{
  TressJsonWriter *w = tress_json_writer_new ();

  tress_json_begin_object (w);
  tress_json_string_member (w, "format", "test");
  tress_json_member (w, "list");
  tress_json_begin_array (w);
  for (int i = 0; i < 3; i++)
    {
      tress_json_begin_object_compact (w);
      tress_json_int_member (w, "n", i);
      tress_json_member (w, "v");
      tress_json_begin_array_compact (w);
      tress_json_add_int (w, i);
      tress_json_add_string (w, "a\"b\n");
      tress_json_end_array (w);
      tress_json_end_object (w);
    }
  tress_json_end_array (w);
  tress_json_member (w, "empty");
  tress_json_begin_object (w);
  tress_json_end_object (w);
  tress_json_end_object (w);
  return tress_json_writer_free_to_bytes (w);
}

static void
test_writer_layout (void)
{
  g_autoptr (GBytes) text = write_sample ();
  g_autoptr (JsonParser) parser = json_parser_new ();

  g_assert_cmpstr (g_bytes_get_data (text, NULL), ==,
                   "{\n"
                   "  \"format\": \"test\",\n"
                   "  \"list\": [\n"
                   "    {\"n\": 0, \"v\": [0, \"a\\\"b\\n\"]},\n"
                   "    {\"n\": 1, \"v\": [1, \"a\\\"b\\n\"]},\n"
                   "    {\"n\": 2, \"v\": [2, \"a\\\"b\\n\"]}\n"
                   "  ],\n"
                   "  \"empty\": {}\n"
                   "}\n");
  /* and any JSON reader agrees */
  g_assert_true (json_parser_load_from_data (parser, g_bytes_get_data (text, NULL), -1, NULL));
}

/* Reads @text as {"a": [u8, u8], "b": {"c": string}} and returns the problems. */
static GPtrArray *
read_problems (const char *text)
{
  static const char *const names[] = { "a", "b", NULL };
  g_autoptr (TressJsonReader) r = tress_json_reader_new (text, strlen (text));
  guint64 seen = 0;
  int which;

  if (tress_json_reader_begin_object (r))
    while ((which = tress_json_reader_next_known (r, names, &seen)) != -2)
      {
        if (which == 0)
          {
            guint8 v[2];
            tress_json_reader_read_u8s (r, v, 2);
          }
        else if (which == 1)
          {
            const char *name;
            if (tress_json_reader_begin_object (r))
              while ((name = tress_json_reader_next_member (r)) != NULL)
                {
                  g_autofree char *s = tress_json_reader_read_string (r);
                }
          }
        else
          tress_json_reader_skip (r);
      }
  tress_json_reader_require (r, names, 3, seen, "");
  return g_ptr_array_ref (tress_json_reader_get_problems (r));
}

static void
assert_problem (const char *text, const char *path, const char *words)
{
  g_autoptr (GPtrArray) problems = read_problems (text);

  if (!tress_test_has_problem (problems, path, words))
    g_error ("%s: expected a problem at \"%s\" (%s)", text, path, words);
}

static void
test_reader_refusals (void)
{
  g_autoptr (GPtrArray) none = read_problems ("{\"a\": [1, 2], \"b\": {\"c\": \"x\"}}");
  g_autofree char *deep = NULL;

  g_assert_cmpuint (none->len, ==, 0);
  assert_problem ("{\"a\": [1, 256], \"b\": {}}", "/a/1", "from 0 to 255, found 256");
  assert_problem ("{\"a\": [1, 2.5], \"b\": {}}", "/a/1", "found 2.5");
  assert_problem ("{\"a\": \"x\", \"b\": {}}", "/a", "expected an array, found a string");
  assert_problem ("{\"a\": [1], \"b\": {}}", "/a", "expected 2");
  assert_problem ("{\"a\": [1, 2], \"b\": {\"c\": 3}}", "/b/c", "expected a string");
  assert_problem ("{\"b\": {}}", "/a", "missing");
  assert_problem ("{\"a\": [1, 2], \"a\": [1, 2], \"b\": {}}", "/a", "given twice");
  assert_problem ("{\"a\": [1, 2], \"b\": {\"c/d~\": 4}}", "/b/c~1d~0", "expected a string");
  /* broken syntax stops the reading, naming where it was */
  assert_problem ("{\"a\": [1, 2], \"b\": {\"c\": \"x", "/b/c", "not closed");
  assert_problem ("{\"a\": [1, 2,], \"b\": {}}", "/a/1", "',' before the end");
  assert_problem ("{\"a\": [1 2], \"b\": {}}", "/a/0", "expected ','");
  assert_problem ("{\"a\": [01, 2], \"b\": {}}", "/a/0", "expected ','");
  assert_problem ("{\"a\": [1, 2], \"b\": {\"c\": \"\\ud800\"}}", "/b/c", "surrogate");
  assert_problem ("{\"a\": [1, 2], \"b\": {\"c\": \"\xff\"}}", "/b/c", "UTF-8");
  assert_problem ("{\"a\": [1, 2], \"b\": {}", "/b", "ends inside an object");
  /* nesting is bounded, skipped values included */
  deep = g_strnfill (100000, '[');
  {
    g_autofree char *text = g_strconcat ("{\"x\": ", deep, NULL);
    assert_problem (text, "/x", "nested more than");
  }
}

static void
test_reader_strings (void)
{
  const char *text = "[\"caf\\u00e9 \\ud83d\\ude00 \\\"q\\\" \\\\ \\/\", \"aGVsbG8=\", \"a*b=\"]";
  g_autoptr (TressJsonReader) r = tress_json_reader_new (text, strlen (text));
  g_autofree char *s = NULL;
  g_autoptr (GBytes) b = NULL, bad = NULL;

  tress_json_reader_begin_array (r);
  tress_json_reader_next_element (r);
  s = tress_json_reader_read_string (r);
  g_assert_cmpstr (s, ==, "café 😀 \"q\" \\ /");
  tress_json_reader_next_element (r);
  b = tress_json_reader_read_base64 (r, 0);
  g_assert_cmpmem (g_bytes_get_data (b, NULL), g_bytes_get_size (b), "hello", 5);
  tress_json_reader_next_element (r);
  bad = tress_json_reader_read_base64 (r, 0);
  g_assert_null (bad);
  g_assert_true (tress_test_has_problem (tress_json_reader_get_problems (r), "/2", "not base64"));
}

/* base64 as dump writes it is decoded from the text itself; with escapes
 * (some tools write "/" as "\\/") from the string read first; both refuse
 * what is not base64 the same way. */
static void
test_reader_base64 (void)
{
  const char *text = "[\"/+8AAQ==\", \"\\/+8AAQ==\", \"\", \"\\u0041QID\", \"AQ=I\", \"A\\/=I\", "
                     "\"AAAA\" ]";
  static const guint8 want[] = { 0xFF, 0xEF, 0x00, 0x01 };
  g_autoptr (TressJsonReader) r = tress_json_reader_new (text, strlen (text));
  GPtrArray *problems = tress_json_reader_get_problems (r);

  tress_json_reader_begin_array (r);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr (GBytes) b = NULL;

      g_assert_true (tress_json_reader_next_element (r));
      b = tress_json_reader_read_base64 (r, 0);
      g_assert_nonnull (b);
      g_assert_cmpmem (g_bytes_get_data (b, NULL), g_bytes_get_size (b), want, 4);
    }
  {
    g_autoptr (GBytes) empty = NULL, abc = NULL;

    g_assert_true (tress_json_reader_next_element (r));
    empty = tress_json_reader_read_base64 (r, 0);
    g_assert_cmpuint (g_bytes_get_size (empty), ==, 0);
    g_assert_true (tress_json_reader_next_element (r));
    abc = tress_json_reader_read_base64 (r, 0);
    g_assert_cmpmem (g_bytes_get_data (abc, NULL), g_bytes_get_size (abc), "\x01\x02\x03", 3);
  }
  for (guint i = 4; i < 6; i++)
    {
      g_autofree char *path = g_strdup_printf ("/%u", i);

      g_assert_true (tress_json_reader_next_element (r));
      g_assert_null (tress_json_reader_read_base64 (r, 0));
      g_assert_true (tress_test_has_problem (problems, path, "the character '=' at place 2"));
    }
  /* more than the place holds */
  g_assert_true (tress_json_reader_next_element (r));
  g_assert_null (tress_json_reader_read_base64 (r, 1));
  g_assert_true (tress_test_has_problem (problems, "/6", "more than the 1 this place holds"));
  g_assert_false (tress_json_reader_next_element (r));
  g_assert_true (tress_json_reader_ok (r));
}

/* The size base64 decodes to is checked against what the place holds for
 * each padding: no '=', one, two. Each is taken at exactly the limit and
 * refused one byte below it, naming its size. */
static void
test_reader_base64_limit (void)
{
  static const struct
  {
    const char *text;
    gsize size;
  } cases[] = { { "AQID", 3 }, { "AQIDBA==", 4 }, { "AQIDBAU=", 5 } };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    for (gsize max = cases[i].size - 1; max <= cases[i].size; max++)
      {
        g_autofree char *text = g_strdup_printf ("[\"%s\"]", cases[i].text);
        g_autoptr (TressJsonReader) r = tress_json_reader_new (text, strlen (text));
        g_autoptr (GBytes) b = NULL;

        g_test_message ("%s in %" G_GSIZE_FORMAT " bytes", cases[i].text, max);
        tress_json_reader_begin_array (r);
        g_assert_true (tress_json_reader_next_element (r));
        b = tress_json_reader_read_base64 (r, max);
        if (max < cases[i].size)
          {
            g_autofree char *want = g_strdup_printf (
                "%" G_GSIZE_FORMAT " bytes of base64, more than the %" G_GSIZE_FORMAT
                " this place holds",
                cases[i].size, max);

            g_assert_null (b);
            g_assert_true (tress_test_has_problem (tress_json_reader_get_problems (r), "/0", want));
          }
        else
          {
            g_assert_nonnull (b);
            g_assert_cmpuint (g_bytes_get_size (b), ==, cases[i].size);
            g_assert_true (tress_json_reader_ok (r));
          }
      }
}

static void
test_capture_and_unknown (void)
{
  g_autoptr (GBytes) text = write_sample ();
  g_autoptr (GHashTable) paths = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (TressJsonWriter) w = NULL;
  JsonNode *node;

  g_hash_table_add (paths, "/list/1/v");
  g_hash_table_add (paths, "/format");
  g_hash_table_add (paths, "/nothing/here");
  w = tress_json_writer_new_capture (paths);
  /* the same calls as write_sample, into no text */
  tress_json_begin_object (w);
  tress_json_string_member (w, "format", "test");
  tress_json_member (w, "list");
  tress_json_begin_array (w);
  for (int i = 0; i < 3; i++)
    {
      tress_json_begin_object_compact (w);
      tress_json_int_member (w, "n", i);
      tress_json_member (w, "v");
      tress_json_begin_array_compact (w);
      tress_json_add_int (w, i);
      tress_json_add_string (w, "a\"b\n");
      tress_json_end_array (w);
      tress_json_end_object (w);
    }
  tress_json_end_array (w);
  tress_json_end_object (w);
  node = tress_json_writer_get_captured (w, "/list/1/v");
  g_assert_nonnull (node);
  g_assert_cmpint (json_array_get_int_element (json_node_get_array (node), 0), ==, 1);
  g_assert_cmpstr (json_node_get_string (tress_json_writer_get_captured (w, "/format")), ==,
                   "test");
  g_assert_null (tress_json_writer_get_captured (w, "/nothing/here"));
}

/* A small dump: {"format", "skipme": [...], "list": [{"n", "v": [n, "x"], "deep": {"w"}}, …]}
 * with element @odd's "w" made different. */
static void
write_pieces (TressJsonWriter *w, int odd)
{
  tress_json_begin_object (w);
  tress_json_string_member (w, "format", "test");
  tress_json_member (w, "skipme");
  tress_json_begin_array (w);
  tress_json_add_int (w, odd);
  tress_json_end_array (w);
  tress_json_member (w, "list");
  tress_json_begin_array (w);
  for (int i = 0; i < 3; i++)
    {
      tress_json_begin_object_compact (w);
      tress_json_int_member (w, "n", i);
      tress_json_member (w, "v");
      tress_json_begin_array_compact (w);
      tress_json_add_int (w, i);
      tress_json_add_string (w, "x");
      tress_json_end_array (w);
      tress_json_member (w, "deep");
      tress_json_begin_object (w);
      tress_json_int_member (w, "w", i == odd ? 100 : i);
      tress_json_end_object (w);
      tress_json_end_object (w);
    }
  tress_json_end_array (w);
  tress_json_end_object (w);
}

typedef struct
{
  GPtrArray *open;  /* pointers begun */
  GHashTable *seen; /* pointer → "digest size nested count" */
} Digests;

static void
digests_begin (gpointer data, const char *member, guint index, gboolean array)
{
  Digests *d = data;
  const char *parent = d->open->len > 0 ? d->open->pdata[d->open->len - 1] : NULL;
  char *path;

  if (parent == NULL)
    path = g_strdup ("");
  else if (member != NULL)
    path = g_strdup_printf ("%s/%s", parent, member);
  else
    path = g_strdup_printf ("%s/%u", parent, index);
  g_ptr_array_add (d->open, path);
}

static void
digests_end (gpointer data, const guint8 *digest, gsize size, gboolean nested, guint count)
{
  Digests *d = data;
  char *path = g_ptr_array_steal_index (d->open, d->open->len - 1);
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < TRESS_JSON_DIGEST_SIZE; i++)
    g_string_append_printf (s, "%02x", digest[i]);
  g_string_append_printf (s, " %" G_GSIZE_FORMAT " %d %u", size, nested, count);
  g_hash_table_insert (d->seen, path, g_string_free (s, FALSE));
}

static GHashTable *
digests_of (int odd)
{
  static const TressJsonDigestFuncs funcs = { digests_begin, digests_end };
  static const char *const skip[] = { "skipme", NULL };
  Digests d
      = { g_ptr_array_new (), g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free) };
  g_autoptr (TressJsonWriter) w = tress_json_writer_new_digest (&funcs, &d);

  tress_json_writer_capture_skip (w, skip);
  write_pieces (w, odd);
  g_assert_cmpuint (d.open->len, ==, 0);
  g_ptr_array_unref (d.open);
  return d.seen;
}

/* Digests: one per object and array, the same where the text is, and
 * members left out count for nothing. */
static void
test_digests (void)
{
  g_autoptr (GHashTable) a = digests_of (1);
  g_autoptr (GHashTable) b = digests_of (2);
  const char *same[] = { "/list/0", "/list/0/v", "/list/0/deep", "/list/1/v", "/list/2/v" };
  const char *other[] = { "", "/list", "/list/1", "/list/1/deep", "/list/2", "/list/2/deep" };

  /* "", /list, 3 elements with their v and deep; nothing of skipme */
  g_assert_cmpuint (g_hash_table_size (a), ==, 11);
  g_assert_false (g_hash_table_contains (a, "/skipme"));
  for (guint i = 0; i < G_N_ELEMENTS (same); i++)
    g_assert_cmpstr (g_hash_table_lookup (a, same[i]), ==, g_hash_table_lookup (b, same[i]));
  for (guint i = 0; i < G_N_ELEMENTS (other); i++)
    g_assert_cmpstr (g_hash_table_lookup (a, other[i]), !=, g_hash_table_lookup (b, other[i]));
  g_assert_true (g_str_has_suffix (g_hash_table_lookup (a, "/list/0/v"), " 0 2"));
  g_assert_true (g_str_has_suffix (g_hash_table_lookup (a, "/list/0"), " 1 3"));
  g_assert_true (g_str_has_suffix (g_hash_table_lookup (a, "/list"), " 1 3"));
}

/* A digest writer dropped with containers still open (a dump that stopped
 * half-way): nothing ends, and freeing it frees every open container's
 * checksum (the sanitizer build sees one left behind). */
static void
test_digests_abandoned (void)
{
  static const TressJsonDigestFuncs funcs = { digests_begin, digests_end };
  Digests d = { g_ptr_array_new_with_free_func (g_free),
                g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free) };
  TressJsonWriter *w = tress_json_writer_new_digest (&funcs, &d);

  tress_json_begin_object (w);
  tress_json_member (w, "list");
  tress_json_begin_array (w);
  tress_json_begin_object (w);
  tress_json_int_member (w, "n", 1);
  tress_json_writer_free (w);
  /* begun: "", /list, /list/0; none ended */
  g_assert_cmpuint (d.open->len, ==, 3);
  g_assert_cmpstr (d.open->pdata[2], ==, "/list/0");
  g_assert_cmpuint (g_hash_table_size (d.seen), ==, 0);
  g_ptr_array_unref (d.open);
  g_hash_table_unref (d.seen);
}

/* Pruned containers are captured empty inside a capture, and on their own
 * where they are wanted too, however deep. */
static void
test_capture_prune (void)
{
  g_autoptr (GHashTable) wanted = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) prune = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (TressJsonWriter) w = NULL;
  JsonNode *root, *list, *one;
  JsonObject *o;

  g_hash_table_add (wanted, "");
  g_hash_table_add (wanted, "/list");
  g_hash_table_add (wanted, "/list/1");
  g_hash_table_add (wanted, "/list/1/deep");
  g_hash_table_add (prune, "/list");
  g_hash_table_add (prune, "/list/1");
  g_hash_table_add (prune, "/list/1/deep");
  g_hash_table_add (prune, "/list/2/deep");
  w = tress_json_writer_new_capture (wanted);
  tress_json_writer_capture_prune (w, prune);
  write_pieces (w, 1);

  root = tress_json_writer_get_captured (w, "");
  o = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (o, "format"), ==, "test");
  list = json_object_get_member (o, "list");
  g_assert_true (JSON_NODE_HOLDS_ARRAY (list));
  g_assert_cmpuint (json_array_get_length (json_node_get_array (list)), ==, 0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "skipme")), ==, 1);
  list = tress_json_writer_get_captured (w, "/list");
  g_assert_cmpuint (json_array_get_length (json_node_get_array (list)), ==, 3);
  o = json_array_get_object_element (json_node_get_array (list), 1);
  g_assert_cmpuint (json_object_get_size (o), ==, 0);
  o = json_array_get_object_element (json_node_get_array (list), 2);
  g_assert_cmpint (json_object_get_int_member (o, "n"), ==, 2);
  g_assert_cmpuint (json_object_get_size (json_object_get_object_member (o, "deep")), ==, 0);

  one = tress_json_writer_get_captured (w, "/list/1");
  g_assert_nonnull (one);
  o = json_node_get_object (one);
  g_assert_cmpint (json_object_get_int_member (o, "n"), ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "v")), ==, 2);
  g_assert_cmpuint (json_object_get_size (json_object_get_object_member (o, "deep")), ==, 0);
  o = json_node_get_object (tress_json_writer_get_captured (w, "/list/1/deep"));
  g_assert_cmpint (json_object_get_int_member (o, "w"), ==, 100);
  g_assert_null (tress_json_writer_get_captured (w, "/list/2"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json/float-round-trip", test_float_round_trip);
  g_test_add_func ("/json/float-text", test_float_text);
  g_test_add_func ("/json/double-round-trip", test_double_round_trip);
  g_test_add_func ("/json/writer-layout", test_writer_layout);
  g_test_add_func ("/json/reader-refusals", test_reader_refusals);
  g_test_add_func ("/json/reader-strings", test_reader_strings);
  g_test_add_func ("/json/reader-base64", test_reader_base64);
  g_test_add_func ("/json/reader-base64-limit", test_reader_base64_limit);
  g_test_add_func ("/json/capture", test_capture_and_unknown);
  g_test_add_func ("/json/digests", test_digests);
  g_test_add_func ("/json/digests-abandoned", test_digests_abandoned);
  g_test_add_func ("/json/capture-prune", test_capture_prune);
  return g_test_run ();
}
