/* test-png.c: the screenshot PNG writer, without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "app/tress-png.h"
#include "tress-test-utils.h"

/* A texture with every kind of pixel: opaque gradients, translucent ones
 * (stored premultiplied), and fully transparent ones. */
static GdkTexture *
make_texture (int width, int height, guint8 **out_pixels)
{
  guint8 *pixels = g_malloc ((gsize)width * height * 4);
  g_autoptr (GBytes) bytes = NULL;

  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        guint8 *p = pixels + ((gsize)y * width + x) * 4;
        guint a = y < height / 2 ? 255 : (guint)((x * 7 + y * 3) % 256);
        guint r = (x * 5) % 256, g = (y * 11) % 256, b = (x ^ y) % 256;

        /* GDK_MEMORY_R8G8B8A8_PREMULTIPLIED: colour already times alpha. */
        p[0] = (guint8)((r * a + 127) / 255);
        p[1] = (guint8)((g * a + 127) / 255);
        p[2] = (guint8)((b * a + 127) / 255);
        p[3] = (guint8)a;
      }
  bytes = g_bytes_new (pixels, (gsize)width * height * 4);
  *out_pixels = pixels;
  return gdk_memory_texture_new (width, height, GDK_MEMORY_R8G8B8A8_PREMULTIPLIED, bytes,
                                 (gsize)width * 4);
}

static void
test_round_trip (void)
{
  const int width = 257, height = 130;
  g_autofree guint8 *pixels = NULL;
  g_autoptr (GdkTexture) texture = make_texture (width, height, &pixels);
  g_autofree char *path = g_build_filename (tress_test_tmpdir (), "round-trip.png", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkTexture) loaded = NULL;
  g_autofree guint8 *back = g_malloc ((gsize)width * height * 4);
  g_autofree guint8 *orig = g_malloc ((gsize)width * height * 4);
  int worst = 0;

  g_assert_true (tress_texture_save_png (texture, path, &error));
  g_assert_no_error (error);
  /* Read back by GTK's own PNG loader. */
  loaded = gdk_texture_new_from_filename (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (loaded), ==, width);
  g_assert_cmpint (gdk_texture_get_height (loaded), ==, height);
  gdk_texture_download (loaded, back, (gsize)width * 4);
  gdk_texture_download (texture, orig, (gsize)width * 4);
  /* Opaque pixels come back exactly; translucent ones within the rounding of
   * un-premultiplying and premultiplying again. */
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width * 4; x++)
      {
        gsize i = (gsize)y * width * 4 + x;
        int d = ABS ((int)back[i] - (int)orig[i]);

        if (y < height / 2)
          g_assert_cmpint (d, ==, 0);
        worst = MAX (worst, d);
      }
  g_assert_cmpint (worst, <=, 1);
}

static void
test_unwritable (void)
{
  g_autofree guint8 *pixels = NULL;
  g_autoptr (GdkTexture) texture = make_texture (8, 8, &pixels);
  g_autofree char *path = g_build_filename (tress_test_tmpdir (), "no-such-dir", "x.png", NULL);
  g_autoptr (GError) error = NULL;

  g_assert_false (tress_texture_save_png (texture, path, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "x.png"));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/png/round-trip", test_round_trip);
  g_test_add_func ("/app/png/unwritable", test_unwritable);
  return g_test_run ();
}
