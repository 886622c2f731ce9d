/* render-icon.c: renders the scalable application icon to a PNG at build time
 *
 *   render-icon ICON.svg SIZE OUT.png
 *
 * The editor ships these renderings in its resources next to the SVG, so that
 * showing its icon at start-up (window icon, welcome page) decodes a small PNG
 * instead of loading an SVG renderer.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <stdlib.h>

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkPixbuf) pixbuf = NULL;
  long size;

  if (argc != 4)
    {
      g_printerr ("usage: render-icon ICON.svg SIZE OUT.png\n");
      return 2;
    }
  size = strtol (argv[2], NULL, 10);
  if (size <= 0 || size > 4096)
    {
      g_printerr ("render-icon: bad size %s\n", argv[2]);
      return 2;
    }
  pixbuf = gdk_pixbuf_new_from_file_at_size (argv[1], (int)size, (int)size, &error);
  if (pixbuf == NULL || !gdk_pixbuf_save (pixbuf, argv[3], "png", &error, NULL))
    {
      g_printerr ("render-icon: %s\n", error->message);
      return 1;
    }
  return 0;
}
