/* test-curve-clipboard.c: copied keys and where a paste puts them, without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "core/tress-curve-clipboard.h"
#include "core/tress-error.h"
#include "tress-test-utils.h"

/* Copies, for each path, keys at frames @first, @first + 5, … (@n each). */
static TressCurveClipboard *
copy_of (const char *const *paths, guint n_curves, guint n, double first)
{
  TressCurveClipboard *clip = tress_curve_clipboard_new ();
  g_autofree guint *counts = g_new (guint, n_curves);
  g_autoptr (GArray) keys = g_array_new (FALSE, TRUE, sizeof (TressKey));

  for (guint i = 0; i < n_curves; i++)
    {
      counts[i] = n;
      for (guint k = 0; k < n; k++)
        {
          TressKey key = { .frame = first + 5.0 * k + i, .value = 10.0 * i + k };

          g_array_append_val (keys, key);
        }
    }
  tress_curve_clipboard_set (clip, paths, counts, n_curves, (const TressKey *)keys->data);
  return clip;
}

static void
on_changed (TressCurveClipboard *clip, guint *count)
{
  (*count)++;
}

static void
test_copy_relative (void)
{
  const char *paths[] = { "Walk/Hip/Rotate X", "Walk/Hip/Rotate Y" };
  g_autoptr (TressCurveClipboard) clip = tress_curve_clipboard_new ();
  guint changed = 0, n = 0;
  const guint counts[] = { 2, 1 };
  const TressKey keys[]
      = { { .frame = 12, .value = 1 }, { .frame = 20, .value = 2 }, { .frame = 10, .value = 3 } };
  const TressKey *got;

  g_signal_connect (clip, "changed", G_CALLBACK (on_changed), &changed);
  g_assert_true (tress_curve_clipboard_is_empty (clip));
  tress_curve_clipboard_set (clip, paths, counts, 2, keys);
  g_assert_cmpuint (changed, ==, 1);
  g_assert_false (tress_curve_clipboard_is_empty (clip));
  g_assert_cmpuint (tress_curve_clipboard_get_n_curves (clip), ==, 2);
  g_assert_cmpuint (tress_curve_clipboard_get_n_keys (clip), ==, 3);
  g_assert_cmpfloat (tress_curve_clipboard_get_first_frame (clip), ==, 10);
  got = tress_curve_clipboard_get_keys (clip, 0, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpfloat (got[0].frame, ==, 2);
  g_assert_cmpfloat (got[1].frame, ==, 10);
  g_assert_cmpfloat (got[1].value, ==, 2);
  got = tress_curve_clipboard_get_keys (clip, 1, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpfloat (got[0].frame, ==, 0);
  g_assert_cmpstr (tress_curve_clipboard_get_path (clip, 1), ==, "Walk/Hip/Rotate Y");
  tress_curve_clipboard_clear (clip);
  g_assert_cmpuint (changed, ==, 2);
  g_assert_true (tress_curve_clipboard_is_empty (clip));
}

static void
test_paths (void)
{
  g_autofree char *b = tress_curve_path_dup_bone ("Walk/Hip/Rotate X");
  g_autofree char *c = tress_curve_path_dup_channel ("Walk/Hip/Rotate X");
  g_autofree char *b0 = tress_curve_path_dup_bone ("Alone");
  g_autofree char *c0 = tress_curve_path_dup_channel ("Alone");

  g_assert_cmpstr (b, ==, "Walk/Hip");
  g_assert_cmpstr (c, ==, "Rotate X");
  g_assert_cmpstr (b0, ==, "");
  g_assert_cmpstr (c0, ==, "Alone");
}

/* Copied from Hip, pasted onto Hip: each channel onto itself, whatever the order. */
static void
test_same_bone (void)
{
  const char *src[] = { "Walk/Hip/Rotate X", "Walk/Hip/Rotate Z" };
  const char *dst[] = { "Walk/Hip/Rotate Z", "Walk/Hip/Rotate Y", "Walk/Hip/Rotate X" };
  g_autoptr (TressCurveClipboard) clip = copy_of (src, 2, 3, 4);
  g_autofree char *onto = NULL;
  int map[3];

  g_assert_cmpuint (tress_curve_clipboard_map (clip, dst, 3, map, &onto, NULL), ==, 6);
  g_assert_cmpint (map[0], ==, 1);
  g_assert_cmpint (map[1], ==, -1);
  g_assert_cmpint (map[2], ==, 0);
  g_assert_cmpstr (onto, ==, "Hip");
}

/* Copied from Hip, pasted onto Leg_2_R of another animation: by channel name. */
static void
test_other_bone (void)
{
  const char *src[] = { "Walk/Hip/Rotate X", "Walk/Hip/Translate X" };
  const char *dst[] = { "Run/Leg_2_R/Translate X", "Run/Leg_2_R/Rotate X", "Run/Leg_2_R/Rotate Y" };
  g_autoptr (TressCurveClipboard) clip = copy_of (src, 2, 2, 0);
  g_autofree char *onto = NULL;
  int map[3];

  g_assert_cmpuint (tress_curve_clipboard_map (clip, dst, 3, map, &onto, NULL), ==, 4);
  g_assert_cmpint (map[0], ==, 1);
  g_assert_cmpint (map[1], ==, 0);
  g_assert_cmpint (map[2], ==, -1);
  g_assert_cmpstr (onto, ==, "Leg_2_R");
}

/* One copied bone onto several: every one of them takes the keys. */
static void
test_one_onto_several (void)
{
  const char *src[] = { "Walk/Hip/Rotate X", "Walk/Hip/Rotate Y" };
  const char *dst[] = { "Walk/Leg_1_L/Rotate X", "Walk/Leg_1_L/Rotate Y", "Walk/Leg_2_R/Rotate Y",
                        "Walk/Leg_2_R/Rotate X" };
  g_autoptr (TressCurveClipboard) clip = copy_of (src, 2, 3, 0);
  g_autofree char *onto = NULL;
  int map[4];

  g_assert_cmpuint (tress_curve_clipboard_map (clip, dst, 4, map, &onto, NULL), ==, 12);
  g_assert_cmpint (map[0], ==, 0);
  g_assert_cmpint (map[1], ==, 1);
  g_assert_cmpint (map[2], ==, 1);
  g_assert_cmpint (map[3], ==, 0);
  g_assert_cmpstr (onto, ==, "Leg_1_L, Leg_2_R");
}

/* Several copied bones: onto the bones of the same names, else in order. */
static void
test_several_bones (void)
{
  const char *src[] = { "Walk/Hip/Rotate X", "Walk/Neck/Rotate X" };
  const char *same[] = { "Run/Neck/Rotate X", "Run/Tail/Rotate X", "Run/Hip/Rotate X" };
  const char *other[] = { "Walk/Leg_1/Rotate X", "Walk/Leg_2/Rotate X" };
  const char *three[] = { "Walk/A/Rotate X", "Walk/B/Rotate X", "Walk/C/Rotate X" };
  g_autoptr (TressCurveClipboard) clip = copy_of (src, 2, 2, 0);
  g_autoptr (GError) error = NULL;
  g_autofree char *onto = NULL;
  int map[3];

  g_assert_cmpuint (tress_curve_clipboard_map (clip, same, 3, map, &onto, NULL), ==, 4);
  g_assert_cmpint (map[0], ==, 1);
  g_assert_cmpint (map[1], ==, -1);
  g_assert_cmpint (map[2], ==, 0);
  g_assert_cmpstr (onto, ==, "Neck, Hip");
  g_clear_pointer (&onto, g_free);

  g_assert_cmpuint (tress_curve_clipboard_map (clip, other, 2, map, &onto, NULL), ==, 4);
  g_assert_cmpint (map[0], ==, 0);
  g_assert_cmpint (map[1], ==, 1);

  g_assert_cmpuint (tress_curve_clipboard_map (clip, three, 3, map, NULL, &error), ==, 0);
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "2 bones"));
  g_assert_nonnull (strstr (error->message, "3 bones"));
  for (guint i = 0; i < 3; i++)
    g_assert_cmpint (map[i], ==, -1);
}

/* A channel the target bone lacks: refused, naming the bone and the channels. */
static void
test_mismatch (void)
{
  const char *src[] = { "Walk/Hip/Rotate X", "Walk/Hip/Translate Y", "Walk/Hip/Scale Z" };
  const char *dst[] = { "Walk/Leg_2_R/Rotate X", "Walk/Leg_2_R/Rotate Y" };
  g_autoptr (TressCurveClipboard) clip = copy_of (src, 3, 2, 0);
  g_autoptr (GError) error = NULL;
  int map[2];

  g_assert_cmpuint (tress_curve_clipboard_map (clip, dst, 2, map, NULL, &error), ==, 0);
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "Leg_2_R has no Translate Y, Scale Z"));
  g_assert_nonnull (strstr (error->message, "nothing was pasted"));
  g_assert_cmpint (map[0], ==, -1);
  g_assert_cmpint (map[1], ==, -1);
}

/* One channel onto one channel: whatever their names. */
static void
test_single_channel (void)
{
  const char *src[] = { "Walk/Hip/Rotate X" };
  const char *dst[] = { "Walk/Tail/Scale Y" };
  const char *two[] = { "Walk/Tail/Scale Y", "Walk/Tail/Scale Z" };
  g_autoptr (TressCurveClipboard) clip = copy_of (src, 1, 4, 7);
  g_autoptr (GError) error = NULL;
  g_autofree char *onto = NULL;
  int map[2];

  g_assert_cmpuint (tress_curve_clipboard_map (clip, dst, 1, map, &onto, NULL), ==, 4);
  g_assert_cmpint (map[0], ==, 0);
  g_assert_cmpstr (onto, ==, "Tail");
  /* Among two channels neither of which is Rotate X: refused. */
  g_assert_cmpuint (tress_curve_clipboard_map (clip, two, 2, map, NULL, &error), ==, 0);
  g_assert_nonnull (strstr (error->message, "Tail has no Rotate X"));
}

static void
test_empty (void)
{
  const char *dst[] = { "Walk/Tail/Scale Y" };
  const char *src[] = { "Walk/Tail/Scale Y" };
  g_autoptr (TressCurveClipboard) clip = tress_curve_clipboard_new ();
  g_autoptr (TressCurveClipboard) full = copy_of (src, 1, 1, 0);
  g_autoptr (GError) error = NULL, error2 = NULL;
  int map[1] = { 5 };

  g_assert_cmpuint (tress_curve_clipboard_map (clip, dst, 1, map, NULL, &error), ==, 0);
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED);
  g_assert_cmpint (map[0], ==, -1);
  g_assert_cmpuint (tress_curve_clipboard_map (full, dst, 0, map, NULL, &error2), ==, 0);
  g_assert_error (error2, TRESS_ERROR, TRESS_ERROR_REFUSED);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/curve-clipboard/copy-relative", test_copy_relative);
  g_test_add_func ("/curve-clipboard/paths", test_paths);
  g_test_add_func ("/curve-clipboard/same-bone", test_same_bone);
  g_test_add_func ("/curve-clipboard/other-bone", test_other_bone);
  g_test_add_func ("/curve-clipboard/one-onto-several", test_one_onto_several);
  g_test_add_func ("/curve-clipboard/several-bones", test_several_bones);
  g_test_add_func ("/curve-clipboard/mismatch", test_mismatch);
  g_test_add_func ("/curve-clipboard/single-channel", test_single_channel);
  g_test_add_func ("/curve-clipboard/empty", test_empty);
  return g_test_run ();
}
