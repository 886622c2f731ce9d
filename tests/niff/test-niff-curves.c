/* test-niff-curves.c: which curves a NIFF file offers and what they say about
 * themselves, and how an edited curve finds its way back into the records
 * (matching by frame, the error reported for slopes the records cannot keep,
 * keys other components still need)
 *
 * The files are built here (tress_niff_builder) and, where a reader's
 * bound is tested, patched by hand.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "formats/niff/tress-niff.h"
#include "niff-test-samples.h"
#include "tress-test-utils.h"

static const TressFormat *fmt = &tress_format_niff;

static GBytes *
finish_ok (TressNiffBuilder *b)
{
  g_autoptr (GError) error = NULL;
  GBytes *bytes = tress_niff_builder_finish (b, &error);

  g_assert_no_error (error);
  return bytes;
}

/* The index of the curve at @path, or -1. */
static int
curve_index (TressNiffFile *file, const char *path)
{
  for (guint i = 0; i < fmt->curves->n_curves (file); i++)
    {
      g_autoptr (TressCurve) c = fmt->curves->get_curve (file, i);
      if (g_strcmp0 (c->path, path) == 0)
        return (int)i;
    }
  return -1;
}

static TressCurve *
curve_at (TressNiffFile *file, const char *path)
{
  int i = curve_index (file, path);

  g_assert_cmpint (i, >=, 0);
  return fmt->curves->get_curve (file, (guint)i);
}

static double
set_curve_ok (TressNiffFile *file, const char *path, const TressCurve *c)
{
  g_autoptr (GError) error = NULL;
  double err = -1;

  g_assert_true (fmt->curves->set_curve (file, (guint)curve_index (file, path), c, &err, &error));
  g_assert_no_error (error);
  return err;
}

/* ---- the curves a group offers ---- */

/* Channels the format forbids beside one that has keys are not offered:
 * RotateAxis keys leave out RotateX/Y/Z and OrientationXY (all four), the
 * channels that may join it stay. */
static void
test_forbidden_channels_hidden (void)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (TRUE, 0);
  g_autoptr (GBytes) bytes = NULL;
  const float axis[4] = { 0, 0, 1, 0.5f }, zero[4] = { 0 };
  static const char *const hidden[]
      = { "turn/RotateX/X", "turn/RotateY/Y", "turn/RotateZ/Z", "turn/OrientationXY/X axis X" };
  static const char *const offered[]
      = { "turn/RotateAxis/Axis X", "turn/RotateAxis/Angle", "turn/Translation/X",
          "turn/UniqueScale/X", "turn/ClassicalScale/X" };
  TressNiffFile *file;
  guint g;

  tress_niff_builder_add_name (b, "scene");
  g = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "turn"),
                                    TRESS_NIFF_ANIM_STATIC, 30, 0);
  tress_niff_builder_add_channel_key (b, g, TRESS_NIFF_ROTATE_AXIS, TRESS_NIFF_CHANNEL_LINEAR, 0,
                                      axis, zero);
  tress_niff_builder_add_object (b, 0, g);
  bytes = finish_ok (b);
  file = niff_parse_ok (bytes);
  for (guint i = 0; i < G_N_ELEMENTS (hidden); i++)
    g_assert_cmpint (curve_index (file, hidden[i]), ==, -1);
  for (guint i = 0; i < G_N_ELEMENTS (offered); i++)
    g_assert_cmpint (curve_index (file, offered[i]), >=, 0);
  fmt->free (file);
}

/* NIFF1 FULL and KEY records: the three Rotate components are the angles of
 * an Euler rotation (X, Y, Z in the group's order); translate and scale are not. */
static void
test_record_euler_components (void)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (FALSE, 0);
  g_autoptr (GBytes) bytes = NULL;
  static const char *const groups[2] = { "baked", "keyed" };
  static const char *const vectors[3] = { "Translate", "Rotate", "Scale" };
  TressNiffFile *file;
  guint full, key;

  tress_niff_builder_add_name (b, "scene");
  full = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, groups[0]),
                                       TRESS_NIFF_ANIM_FULL, 30, 0);
  key = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, groups[1]),
                                      TRESS_NIFF_ANIM_KEY, 30, 0);
  for (guint i = 0; i < 3; i++)
    {
      const float trs[9] = { (float)i, 0, 0, 0.1f * (float)i, 0, 0, 1, 1, 1 };
      tress_niff_builder_add_full (b, full, trs);
      tress_niff_builder_add_key (b, key, 10 * i, TRESS_NIFF_KEY_LINEAR, trs);
    }
  tress_niff_builder_add_object (b, 0, full);
  tress_niff_builder_add_object (b, 0, key);
  bytes = finish_ok (b);
  file = niff_parse_ok (bytes);
  for (guint g = 0; g < 2; g++)
    for (guint c = 0; c < 9; c++)
      {
        g_autofree char *path
            = g_strdup_printf ("%s/%s/%c", groups[g], vectors[c / 3], 'X' + c % 3);
        g_autoptr (TressCurve) curve = curve_at (file, path);
        gboolean rotation = c / 3 == 1;

        g_test_message ("%s", path);
        g_assert_cmpint (curve->angle, ==, rotation);
        g_assert_cmpint (curve->euler_order != TRESS_EULER_NONE, ==, rotation);
        if (rotation)
          {
            g_assert_cmpint (curve->euler_order, ==, TRESS_EULER_XYZ);
            g_assert_cmpuint (curve->euler_axis, ==, c % 3);
            g_assert_cmpstr (curve->euler_group, ==, groups[g]);
            g_assert_nonnull (strstr (curve->note, "radians"));
          }
        else
          {
            g_assert_null (curve->euler_group);
            g_assert_null (strstr (curve->note, "radians"));
          }
      }
  fmt->free (file);
}

/* An object element only 76 bytes long still ends with its AnimGroup link
 * (word 18): the group's curves name the object. The builder's 88-byte
 * element is cut to 76 in the Obj list's size table, its last 12 bytes
 * becoming the list's nintendo extension block. */
static void
test_short_object_links_group (void)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (FALSE, 0);
  g_autoptr (GBytes) bytes = NULL, cut = NULL;
  const float trs[9] = { 0, 0, 0, 0, 0, 0, 1, 1, 1 };
  guint8 *d;
  gsize size, obj;
  TressNiffFile *file;
  guint g;

  tress_niff_builder_add_name (b, "scene");
  g = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "walk"), TRESS_NIFF_ANIM_KEY,
                                    30, 0);
  tress_niff_builder_add_key (b, g, 0, TRESS_NIFF_KEY_LINEAR, trs);
  tress_niff_builder_add_key (b, g, 10, TRESS_NIFF_KEY_LINEAR, trs);
  tress_niff_builder_add_object (b, tress_niff_builder_add_name (b, "Walker"), g);
  bytes = finish_ok (b);
  d = g_bytes_unref_to_data (g_steal_pointer (&bytes), &size);
  obj = niff_raw_find_list (d, size, 0x00020000);
  g_assert_cmpuint (niff_be32 (d + obj + 12), ==, 1); /* one element */
  g_assert_cmpuint (niff_be32 (d + obj + 24), ==, 88);
  g_assert_cmpuint (niff_be32 (d + obj + 28 + 72), ==, g); /* word 18: the AnimGroup */
  niff_put32 (d + obj + 24, 76);
  niff_put32 (d + obj + 16, 12);
  cut = g_bytes_new_take (d, size);
  file = niff_parse_ok (cut);
  {
    g_autoptr (TressCurve) c = curve_at (file, "walk/Translate/X");
    g_assert_cmpstr (c->owner, ==, "Walker");
  }
  fmt->free (file);
}

/* ---- edits back into the records ---- */

static GBytes *
build_key_group (TressNiffKeyInterp interp, const float tx[], guint n, guint step)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (FALSE, 0);
  guint g;

  tress_niff_builder_add_name (b, "scene");
  g = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "keys"), TRESS_NIFF_ANIM_KEY,
                                    30, 0);
  for (guint i = 0; i < n; i++)
    {
      /* translate X as given, rotate Y and scale X their own per record */
      const float trs[9] = { tx[i], 0, 0, 0, 0.25f * (float)i, 0, 1 + (float)i, 1, 1 };
      tress_niff_builder_add_key (b, g, step * i, interp, trs);
    }
  tress_niff_builder_add_object (b, 0, g);
  return finish_ok (b);
}

/* Keys that do not say which record they came from (origin 0: a curve made
 * elsewhere, pasted or imported) find their records by frame: each record
 * keeps its other components. */
static void
test_keys_matched_by_frame (void)
{
  const float tx[4] = { 5, 6, 7, 8 };
  g_autoptr (GBytes) bytes = build_key_group (TRESS_NIFF_KEY_LINEAR, tx, 4, 10);
  TressNiffFile *file = niff_parse_ok (bytes);
  g_autoptr (TressCurve) scale = curve_at (file, "keys/Scale/X");

  g_assert_cmpuint (tress_curve_get_n_keys (scale), ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      TressKey *k = tress_curve_get_key (scale, i);
      g_assert_cmpuint (k->origin, ==, i + 1);
      k->origin = 0;
      k->value = 10 + i;
    }
  g_assert_cmpfloat (set_curve_ok (file, "keys/Scale/X", scale), ==, 0);
  {
    g_autoptr (TressCurve) t = curve_at (file, "keys/Translate/X");
    g_autoptr (TressCurve) r = curve_at (file, "keys/Rotate/Y");
    g_autoptr (TressCurve) s = curve_at (file, "keys/Scale/X");

    g_assert_cmpuint (tress_curve_get_n_keys (t), ==, 4);
    for (guint i = 0; i < 4; i++)
      {
        g_assert_cmpfloat (tress_curve_get_key (t, i)->frame, ==, 10 * i);
        g_assert_cmpfloat (tress_curve_get_key (t, i)->value, ==, tx[i]);
        g_assert_cmpfloat (tress_curve_get_key (r, i)->value, ==, 0.25f * (float)i);
        g_assert_cmpfloat (tress_curve_get_key (s, i)->value, ==, 10 + i);
      }
  }
  fmt->free (file);
}

/* A SLOW record eases in and out: its slopes are 0 and not stored. A slope
 * given only where the segment leaves its first key (frame 0) cannot be
 * stored: set_curve says how far the stored segment is from the given one,
 * sampled at eighths of the segment: h (u − 1)² u · m, largest at u = 3/8. */
static void
test_slow_out_slope_error (void)
{
  const float tx[3] = { 0, 1, 2 };
  g_autoptr (GBytes) bytes = build_key_group (TRESS_NIFF_KEY_SLOW, tx, 3, 8);
  TressNiffFile *file = niff_parse_ok (bytes);
  g_autoptr (TressCurve) c = curve_at (file, "keys/Translate/X");
  const double h = 8, m = 1, u = 3.0 / 8;

  g_assert_cmpfloat (tress_curve_get_key (c, 0)->out_slope, ==, 0);
  g_assert_cmpfloat (tress_curve_get_key (c, 1)->in_slope, ==, 0);
  g_assert_cmpfloat (set_curve_ok (file, "keys/Translate/X", c), ==, 0);
  tress_curve_get_key (c, 0)->out_slope = m;
  g_assert_cmpfloat_with_epsilon (set_curve_ok (file, "keys/Translate/X", c),
                                  h * (u - 1) * (u - 1) * u * m, 1e-9);
  fmt->free (file);
}

/* A channel key deleted on one component stays while another component
 * changes shape without it. Here the last key of a Translation: X is held
 * from frame 10, while Y, 0 at both frames 10 and 20, bulges between them
 * (Hermite, slope 1 leaving frame 10).
 *
 * Run as users run, without G_DEBUG=gc-friendly (which the test environment
 * sets): then GLib leaves a removed element's bytes past an array's end, and
 * an evaluation that read one key too far would find the deleted key there
 * and take the record for unneeded. */
static void
test_deleted_key_kept_for_others (void)
{
  g_autoptr (TressNiffBuilder) b = tress_niff_builder_new (TRUE, 0);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TressCurve) x = NULL;
  const float xyz[3][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 2, 0, 0 } };
  const float slopes[3][3] = { { 0, 0, 0 }, { 0, 1, 0 }, { 0, 0, 0 } };
  gboolean gc_friendly = g_mem_gc_friendly;
  TressNiffFile *file;
  guint g;

  tress_niff_builder_add_name (b, "scene");
  g = tress_niff_builder_add_group (b, tress_niff_builder_add_name (b, "move"),
                                    TRESS_NIFF_ANIM_STATIC, 30, 0);
  for (guint i = 0; i < 3; i++)
    tress_niff_builder_add_channel_key (b, g, TRESS_NIFF_TRANSLATION, TRESS_NIFF_CHANNEL_HERMITE,
                                        10 * i, xyz[i], slopes[i]);
  tress_niff_builder_add_object (b, 0, g);
  bytes = finish_ok (b);
  file = niff_parse_ok (bytes);
  x = curve_at (file, "move/Translation/X");
  g_assert_cmpuint (tress_curve_get_n_keys (x), ==, 3);
  g_array_set_size (x->keys, 2);

  g_mem_gc_friendly = FALSE;
  g_assert_cmpfloat (set_curve_ok (file, "move/Translation/X", x), <, 1e-12);
  g_mem_gc_friendly = gc_friendly;

  g_assert_cmpuint (tress_niff_group_get_n_channel_keys (file, 0, TRESS_NIFF_TRANSLATION), ==, 3);
  {
    g_autoptr (TressCurve) y = curve_at (file, "move/Translation/Y");
    g_autoptr (TressCurve) x2 = curve_at (file, "move/Translation/X");

    g_assert_cmpuint (tress_curve_get_n_keys (y), ==, 3);
    g_assert_cmpfloat (tress_curve_get_key (y, 2)->frame, ==, 20);
    /* h (u − 1)² u · m at u = 1/2 */
    g_assert_cmpfloat_with_epsilon (tress_curve_evaluate (y, 15), 10 * 0.25 * 0.5 * 1, 1e-9);
    /* X holds its value from frame 10 on, as asked */
    g_assert_cmpfloat (tress_curve_get_key (x2, 2)->value, ==, 1);
    g_assert_cmpfloat (tress_curve_evaluate (x2, 15), ==, 1);
  }
  fmt->free (file);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/niff-curves/offered/forbidden-channels-hidden",
                   test_forbidden_channels_hidden);
  g_test_add_func ("/niff-curves/offered/record-euler-components", test_record_euler_components);
  g_test_add_func ("/niff-curves/offered/short-object-links-group", test_short_object_links_group);
  g_test_add_func ("/niff-curves/edit/keys-matched-by-frame", test_keys_matched_by_frame);
  g_test_add_func ("/niff-curves/edit/slow-out-slope-error", test_slow_out_slope_error);
  g_test_add_func ("/niff-curves/edit/deleted-key-kept-for-others",
                   test_deleted_key_kept_for_others);
  return g_test_run ();
}
