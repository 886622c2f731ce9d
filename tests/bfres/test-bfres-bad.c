/* test-bfres-bad.c: damaged input gets a clear error, never a crash
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "bfres-test-common.h"
#include "core/tress-yaz0.h"
#include "formats/bfres/tress-bfres-builder.h"
#include "tress-test-utils.h"

static GBytes *
demo_bytes (void)
{
  g_autoptr (GError) error = NULL;
  GBytes *bytes = tress_bfres_build_demo (&error);
  g_assert_no_error (error);
  return bytes;
}

static void
put_u32 (guint8 *d, gsize pos, guint32 v)
{
  d[pos] = v >> 24, d[pos + 1] = v >> 16, d[pos + 2] = v >> 8, d[pos + 3] = v;
}

/* Parses @data and returns the error (asserting there is one, in TRESS_ERROR). */
static GError *
parse_error (const guint8 *data, gsize size)
{
  g_autoptr (GBytes) bytes = g_bytes_new (data, size);
  GError *error = NULL;
  TressBfres *b = tress_bfres_parse (bytes, "bad", &error);

  g_assert_null (b);
  g_assert_nonnull (error);
  g_assert_true (error->domain == TRESS_ERROR);
  return error;
}

static void
test_truncations (void)
{
  g_autoptr (GBytes) demo = demo_bytes ();
  gsize size;
  const guint8 *d = g_bytes_get_data (demo, &size);

  for (gsize len = 0; len < size; len += 1 + len / 64)
    {
      g_autoptr (GError) error = parse_error (d, len);
      g_assert_nonnull (strstr (error->message, len < 4 ? "BFRES" : "offset"));
    }
}

static void
test_offsets_outside_and_loops (void)
{
  g_autoptr (GBytes) demo = demo_bytes ();
  gsize size = g_bytes_get_size (demo);
  g_autofree guint8 *d = g_memdup2 (g_bytes_get_data (demo, NULL), size);
  g_autofree guint8 *orig = g_memdup2 (d, size);
  guint32 group = 0x28 + (gint32)ref_u32 (d, 0x28);
  gsize node1 = group + 8 + 16;

  /* The skeletal group's offset points past the end. */
  put_u32 (d, 0x28, 0x7FFFFF00);
  {
    g_autoptr (GError) error = parse_error (d, size);
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET);
    g_assert_nonnull (strstr (error->message, "index group 2"));
    g_assert_nonnull (strstr (error->message, "0x28"));
  }
  memcpy (d, orig, size);
  /* ... or backwards before the file. */
  put_u32 (d, 0x28, (guint32)-0x100);
  {
    g_autoptr (GError) error = parse_error (d, size);
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET);
  }
  memcpy (d, orig, size);
  /* The animation's data offset points at the index group itself: a loop. */
  put_u32 (d, node1 + 12, (guint32)(group - (node1 + 12)));
  {
    g_autoptr (GError) error = parse_error (d, size);
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET);
    g_assert_nonnull (strstr (error->message, "second time"));
  }
  memcpy (d, orig, size);
  /* Two groups sharing one index group. */
  put_u32 (d, 0x34, (guint32)(group - 0x34));
  {
    g_autoptr (GError) error = parse_error (d, size);
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET);
  }
  memcpy (d, orig, size);
  /* A name offset into nowhere. */
  put_u32 (d, 0x14, 0x7FFFFFF0);
  {
    g_autoptr (GError) error = parse_error (d, size);
    g_assert_nonnull (strstr (error->message, "file name"));
  }
}

static void
test_absurd_counts (void)
{
  g_autoptr (GBytes) demo = demo_bytes ();
  gsize size = g_bytes_get_size (demo);
  g_autofree guint8 *d = g_memdup2 (g_bytes_get_data (demo, NULL), size);
  g_autofree guint8 *orig = g_memdup2 (d, size);
  guint32 group = 0x28 + (gint32)ref_u32 (d, 0x28);
  gsize fska = group + 8 + 16 + 12 + (gint32)ref_u32 (d, group + 8 + 16 + 12);

  put_u32 (d, group + 4, 0x7FFFFFFF);
  {
    g_autoptr (GError) error = parse_error (d, size);
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT);
  }
  memcpy (d, orig, size);
  d[fska + 0x14] = 0xFF, d[fska + 0x15] = 0xFF; /* 65535 bone animations */
  {
    g_autoptr (GError) error = parse_error (d, size);
    g_assert_nonnull (strstr (error->message, "Skeletal animation \"Wave\""));
  }
  memcpy (d, orig, size);
  /* A curve's key count larger than its arrays. */
  {
    gsize bones = fska + 0x20 + (gint32)ref_u32 (d, fska + 0x20);
    gsize curves = bones + 0x10 + (gint32)ref_u32 (d, bones + 0x10);
    d[curves + 2] = 0xFF, d[curves + 3] = 0xFF;
    {
      g_autoptr (GError) error = parse_error (d, size);
      g_assert_error (error, TRESS_ERROR, TRESS_ERROR_TRUNCATED);
      g_assert_nonnull (strstr (error->message, "Wave/Root/Translate Y"));
    }
    memcpy (d, orig, size);
    d[curves + 1] = 0x30; /* curve type 3 does not exist */
    {
      g_autoptr (GError) error = parse_error (d, size);
      g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE);
      g_assert_nonnull (strstr (error->message, "curve flags"));
    }
  }
}

static void
test_switch_and_magic (void)
{
  guint8 sw[0x100] = "FRES    ";
  guint8 le[0x100] = "FRES";
  guint8 junk[16] = "JUNKJUNKJUNKJUNK";

  sw[0x0C] = 0xFF, sw[0x0D] = 0xFE;
  {
    g_autoptr (GError) error = parse_error (sw, sizeof sw);
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED);
    g_assert_nonnull (strstr (error->message, "Switch"));
  }
  le[8] = 0xFF, le[9] = 0xFE;
  {
    g_autoptr (GError) error = parse_error (le, sizeof le);
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED);
  }
  {
    g_autoptr (GError) error = parse_error (junk, sizeof junk);
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE);
  }
  g_assert_false (tress_format_bfres.probe (junk, sizeof junk));
}

static void
test_broken_yaz0 (void)
{
  g_autoptr (GBytes) demo = demo_bytes ();
  g_autoptr (GBytes) z
      = tress_yaz0_compress (g_bytes_get_data (demo, NULL), g_bytes_get_size (demo), NULL);
  gsize zs = g_bytes_get_size (z);
  g_autofree guint8 *d = g_memdup2 (g_bytes_get_data (z, NULL), zs);

  g_assert_true (tress_format_bfres.probe (d, zs));
  /* Stream cut short. */
  {
    g_autoptr (GError) error = parse_error (d, zs / 2);
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_TRUNCATED);
    g_assert_nonnull (strstr (error->message, "Yaz0"));
  }
  /* Announces far more than the stream can hold. */
  put_u32 (d, 4, 0xFFFFFFF0);
  {
    g_autoptr (GError) error = parse_error (d, zs);
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT);
  }
  /* A back-reference before the start: code byte 0 (all references) first. */
  {
    guint8 bad[24] = "Yaz0";
    g_autoptr (GError) error = NULL;
    bad[7] = 16;
    bad[16] = 0x00;
    bad[17] = 0x10;
    bad[18] = 0x05;
    error = parse_error (bad, sizeof bad);
    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET);
  }
}

/* A wrong search bit in an index group: the file opens, validate warns. */
static void
test_broken_trie (void)
{
  g_autoptr (TressBfresBuilder) builder = tress_bfres_builder_new ("Trie", 0x04050003);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL, bad = NULL;
  g_autoptr (TressBfres) b = NULL;
  g_autoptr (GPtrArray) problems = NULL;
  static const char *const names[] = { "Walk", "Run", "Jump" };
  TressKey keys[2] = { { .frame = 0, .value = 0, .interp = TRESS_INTERP_LINEAR },
                       { .frame = 1, .value = 1, .interp = TRESS_INTERP_LINEAR } };
  TressBfresBuilderCurve c = { .curve_type = TRESS_BFRES_CURVE_LINEAR,
                               .frame_type = TRESS_BFRES_FRAME_U8,
                               .key_type = TRESS_BFRES_KEY_S16,
                               .target_offset = 0x10,
                               .n_keys = 2,
                               .keys = keys };
  gsize size, group;
  g_autofree guint8 *d = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      tress_bfres_builder_begin_anim (builder, TRESS_BFRES_ANIM_SKELETAL, names[i], 1, FALSE);
      tress_bfres_builder_add_bone (builder, "Root");
      tress_bfres_builder_add_curve (builder, &c);
    }
  bytes = tress_bfres_builder_finish (builder, &error);
  g_assert_no_error (error);
  size = g_bytes_get_size (bytes);
  d = g_memdup2 (g_bytes_get_data (bytes, NULL), size);
  group = 0x28 + (gint32)ref_u32 (d, 0x28);
  /* Node 1's bit: point it at a bit where the names do not differ. */
  put_u32 (d, group + 8 + 16, 0);
  bad = g_bytes_new (d, size);
  b = tress_bfres_parse (bad, "trie", &error);
  g_assert_no_error (error);
  problems = tress_format_bfres.validate (b);
  g_assert_cmpuint (tress_problem_list_count (problems, TRESS_SEVERITY_WARNING), >, 0);
}

/* A shape animation (no sample exists): listed as not editable, bytes kept. */
static void
test_shape_kept (void)
{
  g_autoptr (GBytes) demo = demo_bytes ();
  gsize size = g_bytes_get_size (demo), at = (size + 3) & ~(gsize)3;
  g_autoptr (GByteArray) a = g_byte_array_new ();
  g_autoptr (GBytes) bytes = NULL, out = NULL;
  g_autoptr (TressBfres) b = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) problems = NULL;
  g_autofree char *text = NULL;
  gsize group, name, fsha;
  gboolean noted = FALSE;

  g_byte_array_append (a, g_bytes_get_data (demo, NULL), size);
  g_byte_array_set_size (a, at + 0x80);
  memset (a->data + size, 0, at + 0x80 - size);
  group = at;       /* index group with one entry */
  name = at + 0x30; /* u32 length + "Morph" */
  fsha = at + 0x40; /* the sub-file: only its magic here */
  put_u32 (a->data, group, 8 + 16 * 2);
  put_u32 (a->data, group + 4, 1);
  put_u32 (a->data, group + 8, 0xFFFFFFFF);
  a->data[group + 8 + 5] = 1;
  put_u32 (a->data, group + 24, 0x26); /* highest set bit of "Morph" */
  a->data[group + 24 + 7] = 1;
  put_u32 (a->data, group + 24 + 8, (guint32)(name + 4 - (group + 24 + 8)));
  put_u32 (a->data, group + 24 + 12, (guint32)(fsha - (group + 24 + 12)));
  put_u32 (a->data, name, 5);
  memcpy (a->data + name + 4, "Morph", 5);
  memcpy (a->data + fsha, "FSHA", 4);
  put_u32 (a->data, 0x20 + 4 * 9, (guint32)(group - (0x20 + 4 * 9)));
  a->data[0x50 + 2 * 9 + 1] = 1;
  put_u32 (a->data, 0x0C, a->len);
  bytes = g_bytes_new (a->data, a->len);

  b = tress_bfres_parse (bytes, "shape", &error);
  g_assert_no_error (error);
  text = tress_format_bfres.describe (b);
  g_assert_nonnull (strstr (text, "Shape entries: 1 (not editable)"));
  problems = tress_format_bfres.validate (b);
  for (guint i = 0; i < problems->len; i++)
    {
      TressProblem *p = g_ptr_array_index (problems, i);
      g_assert_cmpint (p->severity, <, TRESS_SEVERITY_WARNING);
      if (strstr (p->message, "\"Morph\": kept as is, not editable"))
        noted = TRUE;
    }
  g_assert_true (noted);
  /* An edit elsewhere keeps the shape's bytes. */
  {
    g_autoptr (TressCurve) curve = tress_format_bfres.curves->get_curve (b, 0);
    tress_curve_get_key (curve, 1)->value += 0.1;
    g_assert_true (tress_format_bfres.curves->set_curve (b, 0, curve, NULL, &error));
  }
  out = tress_format_bfres.serialize (b, &error);
  g_assert_no_error (error);
  g_assert_cmpmem ((const guint8 *)g_bytes_get_data (out, NULL) + at, 0x80, a->data + at, 0x80);
}

/* Deterministic byte flips: anything that still parses survives every operation. */
static void
test_mutations (void)
{
  g_autoptr (GBytes) demo = demo_bytes ();
  gsize size;
  const guint8 *orig = g_bytes_get_data (demo, &size);
  GRand *rand = g_rand_new_with_seed (1234);
  guint parsed = 0;

  for (int round = 0; round < 400; round++)
    {
      g_autofree guint8 *d = g_memdup2 (orig, size);
      g_autoptr (GBytes) bytes = NULL;
      g_autoptr (TressBfres) b = NULL;
      g_autoptr (GError) error = NULL;
      int flips = 1 + g_rand_int_range (rand, 0, 4);

      for (int k = 0; k < flips; k++)
        d[g_rand_int_range (rand, 0, (gint32)size)] = (guint8)g_rand_int (rand);
      bytes = g_bytes_new (d, size);
      b = tress_bfres_parse (bytes, "mutated", &error);
      if (b == NULL)
        {
          g_assert_true (error != NULL && error->domain == TRESS_ERROR);
          continue;
        }
      parsed++;
      {
        g_autoptr (GPtrArray) problems = tress_format_bfres.validate (b);
        g_autofree char *text = tress_format_bfres.describe (b);
        g_autoptr (TressJsonWriter) jb = tress_json_writer_new ();
        g_autoptr (GBytes) out = NULL;
        tress_format_bfres.dump (b, jb);
        g_assert_nonnull (problems);
        g_assert_nonnull (text);
        for (guint i = 0; i < tress_bfres_get_n_curves (b); i++)
          {
            g_autoptr (TressCurve) curve = tress_format_bfres.curves->get_curve (b, i);
            (void)tress_bfres_evaluate (b, i, 3.5);
            if (tress_curve_get_n_keys (curve) > 0)
              tress_format_bfres.curves->set_curve (b, i, curve, NULL, NULL);
          }
        out = tress_format_bfres.serialize (b, &error);
        g_assert_nonnull (out);
      }
    }
  g_rand_free (rand);
  g_assert_cmpuint (parsed, >, 0);
}

/* A skeletal animation with @n_bones bones of one curve each; the last bone's
 * name is @long_len bytes long. */
static GBytes *
bones_file (guint n_bones, gsize long_len)
{
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("Bones", 0x03040004);
  g_autoptr (GError) error = NULL;
  g_autofree char *long_name = g_strnfill (long_len, 'n');
  TressKey keys[2] = { { .frame = 0, .value = 0 }, { .frame = 10, .value = 1 } };
  TressBfresBuilderCurve c = { .curve_type = TRESS_BFRES_CURVE_LINEAR,
                               .frame_type = TRESS_BFRES_FRAME_F32,
                               .key_type = TRESS_BFRES_KEY_32,
                               .target_offset = 0x10,
                               .n_keys = 2,
                               .keys = keys };
  GBytes *bytes;

  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_SKELETAL, "Wave", 10, FALSE);
  for (guint i = 0; i < n_bones; i++)
    {
      g_autofree char *name = g_strdup_printf ("bone%u", i);

      tress_bfres_builder_add_bone (b, i + 1 == n_bones ? long_name : name);
      tress_bfres_builder_add_curve (b, &c);
    }
  bytes = tress_bfres_builder_finish (b, &error);
  g_assert_no_error (error);
  return bytes;
}

/* Structures reached twice, and names copied past what the file can hold,
 * are errors with their offsets, not hangs or allocations without bound; a
 * name too long to be one is kept cut. */
static void
test_shared_structures (void)
{
  g_autoptr (GBytes) file = bones_file (8, 200000);
  gsize size = g_bytes_get_size (file);
  g_autofree guint8 *d = g_memdup2 (g_bytes_get_data (file, NULL), size);
  g_autofree guint8 *orig = g_memdup2 (d, size);
  guint32 group = 0x28 + (gint32)ref_u32 (d, 0x28);
  gsize fska = group + 8 + 16 + 12 + (gint32)ref_u32 (d, group + 8 + 16 + 12);
  gsize bones = fska + 0x20 + (gint32)ref_u32 (d, fska + 0x20);
  gsize long_name = bones + 7 * 0x18 + 4 + (gint32)ref_u32 (d, bones + 7 * 0x18 + 4);

  /* Every bone named by the one 200,000-byte name: each copy is cut to 1,024
   * bytes (the paths to less), and one note says so. */
  for (guint i = 0; i < 8; i++)
    put_u32 (d, bones + i * 0x18 + 4, (guint32)(long_name - (bones + i * 0x18 + 4)));
  {
    g_autoptr (GBytes) bytes = g_bytes_new (d, size);
    g_autoptr (GError) error = NULL;
    g_autoptr (TressBfres) b = tress_bfres_parse (bytes, "long names", &error);
    g_autoptr (GPtrArray) problems = NULL;
    TressBfresCurveInfo info;
    guint notes = 0;

    g_assert_no_error (error);
    g_assert_cmpuint (tress_bfres_get_n_curves (b), ==, 8);
    g_assert_true (tress_bfres_get_curve_info (b, 0, &info));
    g_assert_cmpuint (strlen (info.path), <, 200);
    g_assert_true (g_str_has_prefix (info.path, "Wave/nnnn"));
    problems = tress_format_bfres.validate (b);
    for (guint i = 0; i < problems->len; i++)
      notes += strstr (((TressProblem *)g_ptr_array_index (problems, i))->message,
                       "names 200000 bytes")
               != NULL;
    g_assert_cmpuint (notes, ==, 1);
  }
  memcpy (d, orig, size);

  /* 3,000 bones named by it: the copies would pass the model's budget. */
  {
    g_autoptr (GBytes) many = bones_file (3000, 200000);
    gsize n = g_bytes_get_size (many);
    g_autofree guint8 *m = g_memdup2 (g_bytes_get_data (many, NULL), n);
    gsize mgroup = 0x28 + (gint32)ref_u32 (m, 0x28);
    gsize mfska = mgroup + 8 + 16 + 12 + (gint32)ref_u32 (m, mgroup + 8 + 16 + 12);
    gsize mbones = mfska + 0x20 + (gint32)ref_u32 (m, mfska + 0x20);
    gsize last = mbones + 2999 * 0x18 + 4;
    gsize mlong = last + (gint32)ref_u32 (m, last);

    for (guint i = 0; i < 3000; i++)
      put_u32 (m, mbones + i * 0x18 + 4, (guint32)(mlong - (mbones + i * 0x18 + 4)));
    {
      g_autoptr (GError) error = parse_error (m, n);
      g_autofree char *budget
          = g_strdup_printf ("memory budget of %" G_GSIZE_FORMAT " bytes", 2 * n + 65536);

      g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT);
      g_assert_nonnull (strstr (error->message, "bone animation name at offset 0x"));
      g_assert_nonnull (strstr (error->message, budget));
    }
  }

  /* Bone 1 animates bone 0's curves as well: a curve header reached twice. */
  {
    gsize curves0 = bones + 0x10 + (gint32)ref_u32 (d, bones + 0x10);
    gsize field = bones + 0x18 + 0x10;
    g_autofree char *at
        = g_strdup_printf ("offset 0x%" G_GSIZE_MODIFIER "x is reached a second time", curves0);

    put_u32 (d, field, (guint32)(curves0 - field));
    {
      g_autoptr (GError) error = parse_error (d, size);
      g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET);
      g_assert_nonnull (strstr (error->message, at));
    }
  }
  memcpy (d, orig, size);

  /* A null curve table under a count names the offset field, not offset 0. */
  {
    gsize field = bones + 0x10;
    g_autofree char *at = g_strdup_printf ("offset 0x%" G_GSIZE_MODIFIER "x", field);

    put_u32 (d, field, 0);
    {
      g_autoptr (GError) error = parse_error (d, size);
      g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET);
      g_assert_nonnull (strstr (error->message, at));
      g_assert_nonnull (strstr (error->message, "found null"));
    }
  }
}

/* A key array lying over the curve's own header: reported, and an edit writes
 * a new array instead of changing the header. */
static void
test_array_over_header (void)
{
  g_autoptr (GBytes) demo = demo_bytes ();
  gsize size = g_bytes_get_size (demo);
  g_autofree guint8 *d = g_memdup2 (g_bytes_get_data (demo, NULL), size);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressBfres) b = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) problems = NULL;
  g_autoptr (TressCurve) c = NULL;
  g_autoptr (GBytes) out = NULL;
  const TressFormat *fmt = &tress_format_bfres;
  TressBfresCurveInfo info;
  gboolean reported = FALSE;
  guint index = 0;

  {
    g_autoptr (TressBfres) probe = tress_bfres_parse (demo, "demo", &error);
    g_assert_no_error (error);
    for (index = 0; index < tress_bfres_get_n_curves (probe); index++)
      {
        tress_bfres_get_curve_info (probe, index, &info);
        if (info.n_keys >= 2)
          break;
      }
  }
  /* The key array offset (last field of the 0x24 header) aims at the target field. */
  put_u32 (d, info.header_pos + 0x20, (guint32)((info.header_pos + 4) - (info.header_pos + 0x20)));
  bytes = g_bytes_new (d, size);
  b = tress_bfres_parse (bytes, "over", &error);
  g_assert_no_error (error);
  problems = fmt->validate (b);
  for (guint i = 0; i < problems->len; i++)
    if (strstr (((TressProblem *)g_ptr_array_index (problems, i))->message, "lies over other data")
        != NULL)
      reported = TRUE;
  g_assert_true (reported);

  c = fmt->curves->get_curve (b, index);
  tress_curve_get_key (c, 0)->value += 1;
  g_assert_true (fmt->curves->set_curve (b, index, c, NULL, &error));
  g_assert_no_error (error);
  out = fmt->serialize (b, &error);
  g_assert_no_error (error);
  /* The header's target field keeps its bytes. */
  g_assert_cmpmem ((const guint8 *)g_bytes_get_data (out, NULL) + info.header_pos + 4, 4,
                   d + info.header_pos + 4, 4);
}

/* One skeletal animation "Anim" of 12 frames with one F32 linear curve
 * (Translate X of "Bone") keyed at frames 0, 4 and 10, as bytes to damage. */
static guint8 *
three_key_file (gsize *size, TressBfresCurveInfo *info)
{
  g_autoptr (TressBfresBuilder) builder = tress_bfres_builder_new ("Three", 0x04050003);
  TressKey keys[3]
      = { { .frame = 0, .value = 0 }, { .frame = 4, .value = 1 }, { .frame = 10, .value = 3 } };
  TressBfresBuilderCurve c = { .curve_type = TRESS_BFRES_CURVE_LINEAR,
                               .frame_type = TRESS_BFRES_FRAME_F32,
                               .key_type = TRESS_BFRES_KEY_32,
                               .target_offset = 0x10,
                               .n_keys = 3,
                               .keys = keys };
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressBfres) b = NULL;

  tress_bfres_builder_begin_anim (builder, TRESS_BFRES_ANIM_SKELETAL, "Anim", 12, FALSE);
  tress_bfres_builder_add_bone (builder, "Bone");
  tress_bfres_builder_add_curve (builder, &c);
  bytes = tress_bfres_builder_finish (builder, &error);
  g_assert_no_error (error);
  b = tress_bfres_parse (bytes, "three", &error);
  g_assert_no_error (error);
  g_assert_cmpint (tress_bfres_find_curve (b, "Anim/Bone/Translate X"), ==, 0);
  g_assert_true (tress_bfres_get_curve_info (b, 0, info));
  g_assert_cmpuint (info->n_keys, ==, 3);
  return g_memdup2 (g_bytes_get_data (bytes, NULL), *size = g_bytes_get_size (bytes));
}

/* A header whose end frame is not its last key's: validate warns, giving
 * both ranges, the keys' from the first and the last key. */
static void
test_end_frame_differs (void)
{
  TressBfresCurveInfo info;
  gsize size;
  g_autofree guint8 *d = three_key_file (&size, &info);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressBfres) b = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) problems = NULL;
  const TressProblem *found = NULL;

  g_assert_cmpfloat (info.start, ==, 0);
  g_assert_cmpfloat (info.end, ==, 10);
  put_u32 (d, info.header_pos + 12, 0x41400000); /* end = 12.0f */
  bytes = g_bytes_new (d, size);
  b = tress_bfres_parse (bytes, "end", &error);
  g_assert_no_error (error);
  problems = tress_format_bfres.validate (b);
  for (guint i = 0; i < problems->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (problems, i);

      if (g_str_has_prefix (p->message, "Start/end frames"))
        found = p;
    }
  g_assert_nonnull (found);
  g_assert_cmpint (found->severity, ==, TRESS_SEVERITY_WARNING);
  g_assert_cmpstr (found->location, ==, "Anim/Bone/Translate X");
  g_assert_cmpuint (found->offset, ==, info.header_pos + 8);
  g_assert_cmpstr (found->message, ==, "Start/end frames 0..12 differ from the keys' 0..10");
}

/* A curve without keys whose arrays are null offsets: it opens, and the
 * arrays as stored (what `tress-cli diff` compares) are empty, not bytes
 * read from the file's start. */
static void
test_curve_without_keys (void)
{
  TressBfresCurveInfo info;
  gsize size;
  g_autofree guint8 *d = three_key_file (&size, &info);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressBfres) b = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) frames = NULL, keys = NULL;

  d[info.header_pos + 2] = d[info.header_pos + 3] = 0; /* no keys */
  put_u32 (d, info.header_pos + 0x1C, 0);              /* frame array: null */
  put_u32 (d, info.header_pos + 0x20, 0);              /* key array: null */
  bytes = g_bytes_new (d, size);
  b = tress_bfres_parse (bytes, "keyless", &error);
  g_assert_no_error (error);
  g_assert_true (tress_bfres_get_curve_info (b, 0, &info));
  g_assert_cmpuint (info.n_keys, ==, 0);
  g_assert_cmpuint (info.frames_pos, ==, 0);
  g_assert_cmpuint (info.keys_pos, ==, 0);
  tress_format_bfres.curves->get_stored (b, 0, &frames, &keys);
  g_assert_cmpuint (g_bytes_get_size (frames), ==, 0);
  g_assert_cmpuint (g_bytes_get_size (keys), ==, 0);
}

/* One shader param animation (index group 3) with a linear 32-bit float curve. */
static GBytes *
shader_param_bytes (void)
{
  g_autoptr (TressBfresBuilder) b = tress_bfres_builder_new ("Param", 0x04050003);
  g_autoptr (GError) error = NULL;
  TressKey keys[3] = { { .frame = 0, .value = 1, .interp = TRESS_INTERP_LINEAR },
                       { .frame = 5, .value = 3, .interp = TRESS_INTERP_LINEAR },
                       { .frame = 9, .value = 2, .interp = TRESS_INTERP_LINEAR } };
  TressBfresBuilderCurve c = { .curve_type = TRESS_BFRES_CURVE_LINEAR,
                               .frame_type = TRESS_BFRES_FRAME_F32,
                               .key_type = TRESS_BFRES_KEY_32,
                               .target_offset = 4,
                               .n_keys = 3,
                               .keys = keys };
  GBytes *bytes;

  tress_bfres_builder_begin_anim (b, TRESS_BFRES_ANIM_SHADER_PARAM, "Glow", 9, TRUE);
  tress_bfres_builder_add_material (b, "Mat");
  tress_bfres_builder_add_param (b, "gsys_param");
  tress_bfres_builder_add_curve (b, &c);
  bytes = tress_bfres_builder_finish (b, &error);
  g_assert_no_error (error);
  return bytes;
}

/* An FSHU whose header runs past the end of the file (its magic the last
 * four bytes): refused as truncated, naming the header and its offset. */
static void
test_fshu_header_cut (void)
{
  g_autoptr (GBytes) bytes = shader_param_bytes ();
  gsize size = g_bytes_get_size (bytes), at = (size + 3) & ~(gsize)3;
  g_autofree guint8 *d = g_malloc0 (at + 4);
  gsize group, field;
  g_autofree char *want = NULL;

  memcpy (d, g_bytes_get_data (bytes, NULL), size);
  group = 0x2C + (gint32)ref_u32 (d, 0x2C); /* index group 3: shader params */
  field = group + 8 + 16 + 12;              /* node 1's data offset */
  memcpy (d + at, "FSHU", 4);
  put_u32 (d, field, (guint32)(at - field));
  {
    g_autoptr (GError) error = parse_error (d, at + 4);

    g_assert_error (error, TRESS_ERROR, TRESS_ERROR_TRUNCATED);
    want = g_strdup_printf ("FSHU header at offset 0x%" G_GSIZE_MODIFIER
                            "x: expected 52 bytes, found 4 before the end of the file",
                            at);
    g_assert_nonnull (strstr (error->message, want));
  }
}

/* A key array starting right where an index group ends (the group and the
 * array moved to the end of the file) lies over no structure: validate
 * reports nothing, the values read from there, and an edit rewrites the array
 * in place. */
static void
test_array_after_group (void)
{
  g_autoptr (GBytes) bytes = shader_param_bytes ();
  const TressFormat *fmt = &tress_format_bfres;
  gsize size = g_bytes_get_size (bytes), group, glen, at, keys, kb, total;
  const guint8 *src = g_bytes_get_data (bytes, NULL);
  g_autoptr (GBytes) moved = NULL, out = NULL;
  g_autoptr (TressBfres) b = NULL;
  g_autoptr (GPtrArray) problems = NULL;
  g_autoptr (TressCurve) c = NULL;
  g_autoptr (GError) error = NULL;
  TressBfresCurveInfo info;
  guint8 *d;
  guint n;

  {
    g_autoptr (TressBfres) probe = tress_bfres_parse (bytes, "param", &error);

    g_assert_no_error (error);
    g_assert_true (tress_bfres_get_curve_info (probe, 0, &info));
  }
  group = 0x2C + (gint32)ref_u32 (src, 0x2C);
  n = ref_u32 (src, group + 4);
  glen = 8 + 16 * ((gsize)n + 1);
  g_assert_cmpuint (ref_u32 (src, group), ==, glen);
  kb = (gsize)info.n_keys * 2 * 4;
  at = (size + 3) & ~(gsize)3;
  keys = at + glen;
  total = keys + kb;
  d = g_malloc0 (total);
  memcpy (d, src, size);
  memcpy (d + at, src + group, glen);
  /* Self-relative offsets in the moved nodes (names, data) keep their targets. */
  for (guint k = 0; k <= n; k++)
    for (gsize f = 8; f <= 12; f += 4)
      {
        gsize from = group + 8 + 16 * (gsize)k + f, to = at + 8 + 16 * (gsize)k + f;
        gint64 rel = (gint32)ref_u32 (src, from);

        if (rel != 0)
          put_u32 (d, to, (guint32)(gint32)((gint64)from + rel - (gint64)to));
      }
  put_u32 (d, 0x2C, (guint32)(at - 0x2C));
  memcpy (d + keys, src + info.keys_pos, kb);
  put_u32 (d, info.header_pos + 0x20, (guint32)(keys - (info.header_pos + 0x20)));
  put_u32 (d, 0x0C, (guint32)total);
  moved = g_bytes_new_take (d, total);

  b = tress_bfres_parse (moved, "moved", &error);
  g_assert_no_error (error);
  tress_bfres_get_curve_info (b, 0, &info);
  g_assert_cmpuint (info.keys_pos, ==, keys);
  g_assert_cmpfloat (tress_bfres_evaluate (b, 0, 5), ==, 3);
  problems = fmt->validate (b);
  for (guint i = 0; i < problems->len; i++)
    g_assert_null (strstr (((TressProblem *)g_ptr_array_index (problems, i))->message,
                           "lies over other data"));

  c = fmt->curves->get_curve (b, 0);
  tress_curve_get_key (c, 1)->value = 4;
  g_assert_true (fmt->curves->set_curve (b, 0, c, NULL, &error));
  g_assert_no_error (error);
  out = fmt->serialize (b, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (out), ==, total);
  g_assert_cmpfloat (ref_f32 (g_bytes_get_data (out, NULL), keys + 2 * 4), ==, 4);
}

/* What a failed parse returns can be freed like any other result. */
static void
test_free_null (void)
{
  static const guint8 junk[16] = "FRES";
  g_autoptr (GBytes) bytes = g_bytes_new_static (junk, sizeof junk);
  g_autoptr (GError) error = NULL;
  TressBfres *b = tress_bfres_parse (bytes, "junk", &error);

  g_assert_null (b);
  g_assert_nonnull (error);
  tress_bfres_free (b);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bfres/bad/truncations", test_truncations);
  g_test_add_func ("/bfres/bad/offsets-outside-and-loops", test_offsets_outside_and_loops);
  g_test_add_func ("/bfres/bad/absurd-counts", test_absurd_counts);
  g_test_add_func ("/bfres/bad/switch-and-magic", test_switch_and_magic);
  g_test_add_func ("/bfres/bad/broken-yaz0", test_broken_yaz0);
  g_test_add_func ("/bfres/bad/mutations", test_mutations);
  g_test_add_func ("/bfres/bad/broken-trie", test_broken_trie);
  g_test_add_func ("/bfres/bad/shape-kept", test_shape_kept);
  g_test_add_func ("/bfres/bad/shared-structures", test_shared_structures);
  g_test_add_func ("/bfres/bad/array-over-header", test_array_over_header);
  g_test_add_func ("/bfres/bad/end-frame-differs", test_end_frame_differs);
  g_test_add_func ("/bfres/bad/curve-without-keys", test_curve_without_keys);
  g_test_add_func ("/bfres/bad/fshu-header-cut", test_fshu_header_cut);
  g_test_add_func ("/bfres/bad/array-after-group", test_array_after_group);
  g_test_add_func ("/bfres/bad/free-null", test_free_null);
  return g_test_run ();
}
