/* test-niff-setpose.c: `tress-cli set-pose` on the N64 SDK's Rings.niff, the
 * result read with the independent reading of the format page
 * (niff-anim-ref.h): the object's Euler angles at the frame as asked (to
 * float precision, continuous with the keys around), the other frames as
 * before except on the segments meeting the key, the other channels and
 * AnimGroups and everything outside the AnimList byte-identical, validate
 * clean; then refusals.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>

#include "niff-anim-ref.h"
#include "tress-test-utils.h"

#define RINGS "niff/Rings.niff"
#define GROUP "Sweep15_3_Animation"
#define OBJECT "Sweep15_3"

/* The AnimGroup named @name, read; its index goes to @index. */
static void
group_named (const guint8 *d, gsize size, const char *name, NrGroup *g, guint *index)
{
  gsize list = niff_raw_find_list (d, size, 0x000c0000);
  guint n = niff_be32 (d + list + 12);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *gn = NULL;

      nr_group_read (d, size, i, g);
      gn = nr_name (d, size, g->name_index);
      if (g_strcmp0 (gn, name) == 0)
        {
          *index = i;
          return;
        }
      nr_group_clear (g);
    }
  g_error ("no AnimGroup %s", name);
}

static int
run_set_pose (const char *in, double frame, const double deg[3], const char *out, char **so,
              char **se)
{
  char f[G_ASCII_DTOSTR_BUF_SIZE], r[3][G_ASCII_DTOSTR_BUF_SIZE];
  const char *argv[]
      = { "set-pose", in, GROUP, OBJECT, f, "--rotate", r[0], r[1], r[2], "-o", out, NULL };

  g_ascii_formatd (f, sizeof f, "%.17g", frame);
  for (guint k = 0; k < 3; k++)
    g_ascii_formatd (r[k], sizeof r[k], "%.17g", deg[k]);
  return tress_test_run_cli (argv, so, se);
}

/* Sets the rotation at @frame to what plays there plus @delta (degrees) and
 * checks the result. Returns whether the frame had a key. */
static void
check_pose (GBytes *in, const char *path, double frame, const double delta[3], gboolean keyed,
            const char *name)
{
  gsize la, lb;
  const guint8 *d0 = g_bytes_get_data (in, &la);
  g_auto (NrGroup) g0 = { 0 };
  g_auto (NrGroup) g1 = { 0 };
  g_autofree char *out = g_build_filename (tress_test_tmpdir (), name, NULL);
  g_autofree char *so = NULL;
  g_autoptr (GBytes) res = NULL;
  const guint8 *d1;
  double want[3];
  guint index, index1;
  gsize list0, list1, size0, size1;

  group_named (d0, la, GROUP, &g0, &index);
  for (guint k = 0; k < 3; k++)
    {
      g_assert_cmpuint (g0.n_keys[1 + k], >, 0);
      want[k] = nr_channel_eval (&g0, 1 + k, 0, frame) * 180 / G_PI + delta[k];
      for (guint j = 0; j < g0.n_keys[1 + k]; j++)
        if (g0.keys[1 + k][j].key == frame)
          g_assert_true (keyed);
    }
  g_assert_cmpint (run_set_pose (path, frame, want, out, &so, NULL), ==, 0);
  g_assert_nonnull (strstr (so, keyed ? "key moved" : "key inserted"));
  res = tress_test_read_file (out);
  d1 = g_bytes_get_data (res, &lb);
  group_named (d1, lb, GROUP, &g1, &index1);
  g_assert_cmpuint (index1, ==, index);

  /* The angles at the frame: as asked, to float precision, and the turn
   * nearest what played there. */
  for (guint k = 0; k < 3; k++)
    {
      double now = nr_channel_eval (&g1, 1 + k, 0, frame),
             was = nr_channel_eval (&g0, 1 + k, 0, frame);
      double r = want[k] * G_PI / 180;

      g_assert_cmpfloat (fabs (remainder (now - r, 2 * G_PI)), <=, 4e-7 * MAX (1, fabs (r)));
      g_assert_cmpfloat (fabs (now - was), <=,
                         fabs (remainder (delta[k], 360)) * G_PI / 180 + 1e-6);
      g_assert_cmpuint (g1.n_keys[1 + k], ==, g0.n_keys[1 + k] + (keyed ? 0 : 1));
    }

  /* Every channel at every quarter frame: as before, but for the rotation
   * channels between the keys around the frame. */
  for (guint c = 0; c < 8; c++)
    {
      double lo = -G_MAXDOUBLE, hi = G_MAXDOUBLE, end = 0;

      g_assert_cmpuint (g1.n_keys[c] > 0, ==, g0.n_keys[c] > 0);
      if (g0.n_keys[c] == 0)
        continue;
      for (guint j = 0; j < g0.n_keys[c]; j++)
        {
          double f = g0.keys[c][j].key;

          end = MAX (end, f);
          if (f < frame)
            lo = MAX (lo, f);
          if (f > frame)
            hi = MIN (hi, f);
        }
      if (c < 1 || c > 3)
        lo = hi = frame;
      for (guint v = 0; v < nr_components[c]; v++)
        for (double f = 0; f <= end + 1; f += 0.25)
          {
            double a = nr_channel_eval (&g0, c, v, f), b = nr_channel_eval (&g1, c, v, f);

            if (f > lo && f < hi)
              continue;
            if (a != b)
              g_error ("channel %u.%u frame %g (outside %g … %g): %.9g → %.9g", c, v, f, lo, hi, a,
                       b);
          }
    }
  /* The records (NIFF1 part) unchanged. */
  g_assert_cmpuint (g1.n_rec, ==, g0.n_rec);
  g_assert_cmpmem (g1.rec, sizeof (NrRecord) * g1.n_rec, g0.rec, sizeof (NrRecord) * g0.n_rec);

  /* Outside the edited group: the same bytes (the list and file sizes, and
   * the group's own size in the AnimList header, aside). */
  list0 = niff_raw_find_list (d0, la, 0x000c0000);
  list1 = niff_raw_find_list (d1, lb, 0x000c0000);
  g_assert_cmpuint (list1, ==, list0);
  size0 = niff_be32 (d0 + list0 + 8);
  size1 = niff_be32 (d1 + list1 + 8);
  g_assert_cmpuint (lb - la, ==, size1 - size0);
  g_assert_cmpuint (niff_be32 (d1 + 4), ==, lb);
  for (gsize i = 0; i < list0; i++)
    if (d0[i] != d1[i] && !(i >= 4 && i < 8) && !(i >= 0x4C && i < 0x50))
      g_error ("byte 0x%" G_GSIZE_MODIFIER "x before the AnimList changed", i);
  g_assert_cmpmem (d1 + list1 + size1, lb - list1 - size1, d0 + list0 + size0, la - list0 - size0);
  {
    guint n = niff_be32 (d0 + list0 + 12);

    for (guint i = 0; i < n; i++)
      {
        gsize p0 = niff_raw_group (d0, la, i), p1 = niff_raw_group (d1, lb, i);
        gsize s0 = niff_be32 (d0 + p0 + 0x0C), s1 = niff_be32 (d1 + p1 + 0x0C);

        if (i == index)
          {
            g_assert_cmpuint (s1, ==, s0 + (keyed ? 0 : 3 * 16));
            continue;
          }
        g_assert_cmpmem (d1 + p1, s1, d0 + p0, s0);
      }
  }
  {
    const char *argv[] = { "validate", out, NULL };
    g_autofree char *vo = NULL;

    g_assert_cmpint (tress_test_run_cli (argv, &vo, NULL), ==, 0);
    g_assert_nonnull (strstr (vo, "0 errors"));
  }
}

/* Once at a frame where RotateX, Y and Z have keys (they move), once
 * between keys (keys inserted), once a whole turn away (the stored angle
 * stays continuous). */
static void
test_rings (void)
{
  g_autoptr (GBytes) in = tress_test_load_sample (RINGS);
  g_autofree char *path = tress_test_sample_path (RINGS);
  g_auto (NrGroup) g = { 0 };
  gsize size;
  const guint8 *d;
  guint index;
  double keyed = -1, unkeyed = -1;
  const double small[3] = { 3, -4, 5 }, turn[3] = { 362, -361, 0.5 };

  if (in == NULL)
    return;
  d = g_bytes_get_data (in, &size);
  group_named (d, size, GROUP, &g, &index);
  /* A frame all three channels key, and a whole frame none does. */
  for (guint j = 1; j + 1 < g.n_keys[1] && (keyed < 0 || unkeyed < 0); j++)
    {
      guint32 f = g.keys[1][j].key, next = g.keys[1][j + 1].key;
      gboolean all = TRUE;

      for (guint c = 2; c <= 3; c++)
        {
          gboolean has = FALSE;

          for (guint k = 0; k < g.n_keys[c]; k++)
            has |= g.keys[c][k].key == f;
          all &= has;
        }
      if (all && keyed < 0)
        keyed = f;
      if (next > f + 1 && unkeyed < 0)
        {
          gboolean none = TRUE;

          for (guint c = 2; c <= 3; c++)
            for (guint k = 0; k < g.n_keys[c]; k++)
              none &= g.keys[c][k].key != f + 1;
          if (none)
            unkeyed = f + 1;
        }
    }
  g_assert_cmpfloat (keyed, >, 0);
  g_assert_cmpfloat (unkeyed, >, 0);
  check_pose (in, path, keyed, small, TRUE, "rings-key.niff");
  check_pose (in, path, unkeyed, small, FALSE, "rings-nokey.niff");
  check_pose (in, path, unkeyed, turn, FALSE, "rings-turn.niff");
}

/* What NIFF cannot hold or the request does not name: refused, saying so,
 * nothing written. */
static void
test_refusals (void)
{
  g_autofree char *path = tress_test_sample_path (RINGS);
  g_autofree char *out = g_build_filename (tress_test_tmpdir (), "refused.niff", NULL);
  static const struct
  {
    const char *group, *object, *frame;
    int rc;
    const char *says;
  } cases[] = {
    { GROUP, OBJECT, "100.5", 1, "whole frames" },
    { GROUP, OBJECT, "250", 2, "frame 250 lies outside" },
    { GROUP, OBJECT, "-3", 2, "frame -3 lies outside" },
    { GROUP, "Nobody", "100", 2, "its objects: " OBJECT },
    { "NoGroup", OBJECT, "100", 2, "NoGroup" },
  };

  if (path == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *argv[] = { "set-pose",
                             path,
                             cases[i].group,
                             cases[i].object,
                             cases[i].frame,
                             "--rotate",
                             "1",
                             "2",
                             "3",
                             "-o",
                             out,
                             NULL };
      g_autofree char *se = NULL;

      g_assert_cmpint (tress_test_run_cli (argv, NULL, &se), ==, cases[i].rc);
      if (strstr (se, cases[i].says) == NULL)
        g_error ("case %u: '%s' not in: %s", i, cases[i].says, se);
      /* Nothing the options could lift: none offered. */
      g_assert_null (strstr (se, "--widen"));
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/niff/setpose/rings", test_rings);
  g_test_add_func ("/niff/setpose/refusals", test_refusals);
  return g_test_run ();
}
