/* test-bfres-yaz0.c: Yaz0 decompression and compression
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "core/tress-error.h"
#include "core/tress-yaz0.h"
#include "tress-test-utils.h"

static void
round_trip (const guint8 *data, gsize size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) z = tress_yaz0_compress (data, size, (const guint8 *)"\0\0\x20\0\0\0\0\0");
  g_autoptr (GBytes) back = NULL;
  const guint8 *zd = g_bytes_get_data (z, NULL);

  g_assert_cmpmem (zd, 4, "Yaz0", 4);
  g_assert_cmpuint (tress_yaz0_get_size (zd, g_bytes_get_size (z)), ==, size);
  g_assert_cmpuint (zd[10], ==, 0x20); /* reserved bytes kept */
  back = tress_yaz0_decompress (zd, g_bytes_get_size (z), 0, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (back, NULL), g_bytes_get_size (back), data, size);
}

static void
test_round_trips (void)
{
  guint8 buf[70000];
  GRand *rand = g_rand_new_with_seed (7);

  round_trip (buf, 0);
  memset (buf, 'a', sizeof buf);
  round_trip (buf, 1);
  round_trip (buf, 3);
  round_trip (buf, sizeof buf); /* long runs: 3-byte references */
  for (gsize i = 0; i < sizeof buf; i++)
    buf[i] = (guint8)g_rand_int (rand);
  round_trip (buf, sizeof buf); /* incompressible: all literals */
  for (gsize i = 0; i < sizeof buf; i++)
    buf[i] = "abcabdabcabe"[i % 12] + (i % 4096 == 0);
  round_trip (buf, sizeof buf);
  g_rand_free (rand);
}

/* The format as the page says it, one item at a time: what the decoder's
 * unchecked fast path must agree with. */
static gsize
plain_decode (const guint8 *z, gsize zsize, guint8 *out, gsize want)
{
  gsize in = 16, o = 0;

  while (o < want && in < zsize)
    {
      guint8 code = z[in++];
      for (int bit = 7; bit >= 0 && o < want; bit--)
        if (code & (1u << bit))
          out[o++] = z[in++];
        else
          {
            guint dist = (((z[in] & 0x0F) << 8) | z[in + 1]) + 1;
            guint len = (z[in] >> 4) ? (z[in] >> 4) + 2u : z[in + 2] + 0x12u;
            in += (z[in] >> 4) ? 2 : 3;
            for (guint k = 0; k < len && o < want; k++, o++)
              out[o] = out[o - dist];
          }
    }
  return o;
}

/* Streams of random items (literal runs, references of every distance class
 * and length, overlapping ones), written here, decode as the plain reading
 * does; a reference before the start deep in a stream is refused by offset. */
static void
test_random_streams (void)
{
  GRand *rand = g_rand_new_with_seed (1207);

  for (int round = 0; round < 200; round++)
    {
      gsize want = 1 + g_rand_int_range (rand, 0, 40000);
      g_autoptr (GByteArray) z = g_byte_array_new ();
      g_autofree guint8 *expect = g_malloc (want + 0x111), *out = NULL;
      g_autoptr (GBytes) got = NULL;
      g_autoptr (GError) error = NULL;
      gsize o = 0, code_at = 0;
      int items = 8;
      guint8 header[16] = "Yaz0";

      header[4] = want >> 24, header[5] = want >> 16, header[6] = want >> 8, header[7] = want;
      g_byte_array_append (z, header, 16);
      while (o < want)
        {
          guint8 item[3];

          if (items == 8)
            {
              code_at = z->len;
              g_byte_array_append (z, (const guint8 *)"", 1);
              z->data[code_at] = 0;
              items = 0;
            }
          if (o == 0 || g_rand_int_range (rand, 0, 3) == 0)
            {
              z->data[code_at] |= 0x80 >> items;
              item[0] = (guint8)g_rand_int (rand);
              g_byte_array_append (z, item, 1);
              o++;
            }
          else
            {
              guint max_dist = MIN (o, (gsize)0x1000);
              guint dist = g_rand_boolean (rand)
                               ? 1 + g_rand_int_range (rand, 0, MIN (max_dist, 9u))
                               : 1 + g_rand_int_range (rand, 0, max_dist);
              guint len = g_rand_boolean (rand) ? g_rand_int_range (rand, 3, 0x12)
                                                : g_rand_int_range (rand, 0x12, 0x112);
              if (len <= 0x11)
                {
                  item[0] = ((len - 2) << 4) | ((dist - 1) >> 8);
                  item[1] = (dist - 1) & 0xFF;
                  g_byte_array_append (z, item, 2);
                }
              else
                {
                  item[0] = (dist - 1) >> 8;
                  item[1] = (dist - 1) & 0xFF;
                  item[2] = len - 0x12;
                  g_byte_array_append (z, item, 3);
                }
              o += len;
            }
          items++;
        }
      g_assert_cmpuint (plain_decode (z->data, z->len, expect, want), ==, want);
      got = tress_yaz0_decompress (z->data, z->len, 0, &error);
      g_assert_no_error (error);
      g_assert_cmpmem (g_bytes_get_data (got, NULL), g_bytes_get_size (got), expect, want);

      if (want > 20000)
        {
          /* The first reference turned to reach 0x1000 back, from less than
           * 0x1000 bytes written, where the fast path reads: refused, naming
           * its offset. */
          gsize in = 16;
          gboolean found = FALSE;
          g_autoptr (GError) bad = NULL;

          o = 0;
          while (!found && o < 0x1000)
            {
              guint8 code = z->data[in++];
              for (int bit = 7; bit >= 0 && !found && o < 0x1000; bit--)
                if (code & (1u << bit))
                  in++, o++;
                else
                  found = TRUE;
            }
          if (!found)
            continue;
          z->data[in] = (z->data[in] & 0xF0) | 0x0F;
          z->data[in + 1] = 0xFF;
          g_assert_null (tress_yaz0_decompress (z->data, z->len, 0, &bad));
          g_assert_error (bad, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET);
          {
            g_autofree char *where = g_strdup_printf ("offset 0x%" G_GSIZE_MODIFIER "x", in);
            g_assert_nonnull (strstr (bad->message, where));
          }
        }
    }
  g_rand_free (rand);
}

static void
test_sample_ratio (void)
{
  g_autoptr (GBytes) z = tress_test_load_sample ("bfres/Animal_Bass_Animation.sbfres");
  g_autoptr (GBytes) raw = tress_test_load_sample ("bfres/Animal_Bass_Animation.bfres");
  g_autoptr (GBytes) dec = NULL, again = NULL;
  g_autoptr (GError) error = NULL;

  if (z == NULL || raw == NULL)
    return;
  dec = tress_yaz0_decompress (g_bytes_get_data (z, NULL), g_bytes_get_size (z), 0, &error);
  g_assert_no_error (error);
  tress_test_assert_bytes_equal (dec, raw);
  again = tress_yaz0_compress (g_bytes_get_data (raw, NULL), g_bytes_get_size (raw),
                               (const guint8 *)g_bytes_get_data (z, NULL) + 8);
  g_test_message ("sample: %" G_GSIZE_FORMAT " bytes compressed by Nintendo, %" G_GSIZE_FORMAT
                  " by us",
                  g_bytes_get_size (z), g_bytes_get_size (again));
  g_assert_cmpuint (g_bytes_get_size (again) * 100, <=, g_bytes_get_size (z) * 105);
}

static void
test_broken (void)
{
  guint8 hdr[16] = "Yaz0";
  g_autoptr (GError) e1 = NULL, e2 = NULL, e3 = NULL, e4 = NULL;

  g_assert_null (tress_yaz0_decompress (hdr, 8, 0, &e1));
  g_assert_error (e1, TRESS_ERROR, TRESS_ERROR_TRUNCATED);
  hdr[7] = 10; /* 10 bytes announced, none present */
  g_assert_null (tress_yaz0_decompress (hdr, 16, 0, &e2));
  g_assert_error (e2, TRESS_ERROR, TRESS_ERROR_BAD_COUNT);
  {
    guint8 s[20] = "Yaz0";
    s[7] = 10;
    s[16] = 0xFF;
    s[17] = 'x';
    g_assert_null (tress_yaz0_decompress (s, 18, 0, &e3));
    g_assert_error (e3, TRESS_ERROR, TRESS_ERROR_TRUNCATED);
    g_assert_nonnull (strstr (e3->message, "offset"));
  }
  {
    guint8 s[20] = "Yaz0";
    s[7] = 4;
    s[16] = 0x7F; /* a reference first */
    s[17] = 0x20;
    s[18] = 0x00;
    g_assert_null (tress_yaz0_decompress (s, 20, 0, &e4));
    g_assert_error (e4, TRESS_ERROR, TRESS_ERROR_BAD_OFFSET);
  }
}

/* A cap on the decompressed size (what the fuzzers pass): a stream announcing
 * more is refused before anything is allocated, naming the size field and
 * both sizes; one announcing exactly the cap decompresses. */
static void
test_max_size (void)
{
  guint8 data[40];
  g_autoptr (GBytes) z = NULL;
  const guint8 *zd;
  gsize zsize;
  g_autoptr (GBytes) back = NULL;
  g_autoptr (GError) error = NULL;

  for (guint i = 0; i < sizeof data; i++)
    data[i] = (guint8)(i * 7);
  z = tress_yaz0_compress (data, sizeof data, NULL);
  zd = g_bytes_get_data (z, &zsize);

  g_assert_false (tress_yaz0_check (zd, zsize, 39, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT);
  g_assert_cmpstr (error->message, ==,
                   "Yaz0 decompressed size at offset 0x4: 40 bytes, more than the 39 allowed");
  g_clear_error (&error);
  g_assert_null (tress_yaz0_decompress (zd, zsize, 39, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT);
  g_clear_error (&error);

  g_assert_true (tress_yaz0_check (zd, zsize, 40, &error));
  back = tress_yaz0_decompress (zd, zsize, 40, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (back, NULL), g_bytes_get_size (back), data, sizeof data);
}

/* A Yaz0 decoder written from the format page alone, for the tests: code
 * byte, bits from the MSB, 1 a literal, 0 a reference b1 b2 (distance
 * ((b1 & 0x0F) << 8 | b2) + 1, length (b1 >> 4) + 2, or a third byte + 0x12
 * when b1 >> 4 is 0). Each reference is noted as (output position, distance,
 * length). NULL when the stream breaks a rule of the format. */
typedef struct
{
  gsize at;
  guint dist, len;
} Ref;

static GBytes *
ref_yaz0_decode (GBytes *z, GArray *refs)
{
  gsize size, in = 16, o = 0, want;
  const guint8 *d = g_bytes_get_data (z, &size);
  g_autofree guint8 *out = NULL;

  if (size < 16 || memcmp (d, "Yaz0", 4) != 0)
    return NULL;
  want = (gsize)d[4] << 24 | (gsize)d[5] << 16 | (gsize)d[6] << 8 | d[7];
  out = g_malloc (want + 1);
  while (o < want)
    {
      guint8 code;

      if (in >= size)
        return NULL;
      code = d[in++];
      for (int bit = 7; bit >= 0 && o < want; bit--)
        if (code >> bit & 1)
          {
            if (in >= size)
              return NULL;
            out[o++] = d[in++];
          }
        else
          {
            Ref r;

            if (in + 2 > size)
              return NULL;
            r.at = o;
            r.dist = ((d[in] & 0x0Fu) << 8 | d[in + 1]) + 1;
            if (d[in] >> 4 == 0)
              {
                if (in + 3 > size)
                  return NULL;
                r.len = d[in + 2] + 0x12u;
                in += 3;
              }
            else
              {
                r.len = (d[in] >> 4) + 2u;
                in += 2;
              }
            /* A reference before the start or past the end breaks the stream. */
            if (r.dist > o || r.len > want - o)
              return NULL;
            for (guint k = 0; k < r.len; k++, o++)
              out[o] = out[o - r.dist];
            g_array_append_val (refs, r);
          }
    }
  /* Nothing may follow the last item but the zero bits of its code byte. */
  if (in != size)
    return NULL;
  return g_bytes_new (out, want);
}

/* Compresses @data, decodes it with the decoder above and compares; returns
 * the references the compressor chose. */
static GArray *
round_trip_refs (const guint8 *data, gsize size)
{
  g_autoptr (GBytes) z = tress_yaz0_compress (data, size, NULL);
  GArray *refs = g_array_new (FALSE, FALSE, sizeof (Ref));
  g_autoptr (GBytes) back = ref_yaz0_decode (z, refs);

  g_assert_nonnull (back);
  g_assert_cmpmem (g_bytes_get_data (back, NULL), g_bytes_get_size (back), data, size);
  /* And the library's own decoder agrees. */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (GBytes) again
        = tress_yaz0_decompress (g_bytes_get_data (z, NULL), g_bytes_get_size (z), 0, &error);

    g_assert_no_error (error);
    tress_test_assert_bytes_equal (again, back);
  }
  return refs;
}

/* The longest reference at distance @dist starting at or after @from, before
 * @to. */
static guint
longest_at (GArray *refs, guint dist, gsize from, gsize to)
{
  guint best = 0;

  for (guint i = 0; i < refs->len; i++)
    {
      const Ref *r = &g_array_index (refs, Ref, i);

      if (r->dist == dist && r->at >= from && r->at < to)
        best = MAX (best, r->len);
    }
  return best;
}

static void
fill_random (GRand *rand, guint8 *p, gsize n)
{
  for (gsize i = 0; i < n; i++)
    p[i] = (guint8)g_rand_int (rand);
}

/* The window is 4096 bytes (distance 1 … 0x1000): a block repeated exactly
 * 4095 or 4096 bytes later is referenced at that distance; 4097 bytes later
 * it cannot be, and the stream must still decode to the input. Everything
 * else is random, so only the planted repeat can match at length. */
static void
test_window_edge (void)
{
  static const guint dists[] = { 4095, 4096, 4097 };
  const gsize block = 64, lead = 16, tail = 16;

  for (guint i = 0; i < G_N_ELEMENTS (dists); i++)
    {
      GRand *rand = g_rand_new_with_seed (100 + i);
      gsize size = lead + dists[i] + block + tail;
      g_autofree guint8 *data = g_malloc (size);
      g_autoptr (GArray) refs = NULL;
      gsize second = lead + dists[i];

      fill_random (rand, data, size);
      memcpy (data + second, data + lead, block);
      /* The bytes around the two copies differ: the match is exactly the block. */
      data[second - 1] = data[lead - 1] ^ 0xFF;
      data[second + block] = data[lead + block] ^ 0xFF;
      refs = round_trip_refs (data, size);
      for (guint k = 0; k < refs->len; k++)
        {
          g_assert_cmpuint (g_array_index (refs, Ref, k).dist, <=, 0x1000);
          g_assert_cmpuint (g_array_index (refs, Ref, k).len, <=, 0x111);
        }
      if (dists[i] <= 0x1000)
        g_assert_cmpuint (longest_at (refs, dists[i], second, second + 1), ==, block);
      else
        g_assert_cmpuint (longest_at (refs, 0x1000, second, second + block), <, 3);
      g_rand_free (rand);
    }
}

/* Lengths: 2 … 17 in the two-byte form, 18 … 273 (0x111) with a third byte.
 * A block of exactly 17, 18, 272 or 273 bytes repeated is one reference of
 * that length; 274 needs two items, the first of the longest length, 273. */
static void
test_length_edge (void)
{
  static const guint lengths[] = { 17, 18, 272, 273, 274 };
  const gsize lead = 16, gap = 300, tail = 16;

  for (guint i = 0; i < G_N_ELEMENTS (lengths); i++)
    {
      GRand *rand = g_rand_new_with_seed (200 + i);
      gsize len = lengths[i], dist = len + gap, second = lead + dist;
      gsize size = second + len + tail;
      g_autofree guint8 *data = g_malloc (size);
      g_autoptr (GArray) refs = NULL;
      guint longest = 0;

      fill_random (rand, data, size);
      memcpy (data + second, data + lead, len);
      data[second - 1] = data[lead - 1] ^ 0xFF;
      data[second + len] = data[lead + len] ^ 0xFF;
      refs = round_trip_refs (data, size);
      for (guint k = 0; k < refs->len; k++)
        longest = MAX (longest, g_array_index (refs, Ref, k).len);
      g_assert_cmpuint (longest, <=, 0x111);
      g_assert_cmpuint (longest_at (refs, (guint)dist, second, second + 1), ==, MIN (len, 0x111));
      g_rand_free (rand);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bfres/yaz0/round-trips", test_round_trips);
  g_test_add_func ("/bfres/yaz0/random-streams", test_random_streams);
  g_test_add_func ("/bfres/yaz0/sample-ratio", test_sample_ratio);
  g_test_add_func ("/bfres/yaz0/broken", test_broken);
  g_test_add_func ("/bfres/yaz0/max-size", test_max_size);
  g_test_add_func ("/bfres/yaz0/window-edge", test_window_edge);
  g_test_add_func ("/bfres/yaz0/length-edge", test_length_edge);
  return g_test_run ();
}
