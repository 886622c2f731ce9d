/* test-fur-body-view.c: the body drawn under the fur, at 960×640
 *
 * With the Body button on, pixels that show the background when it is off
 * (no ribbon there) take a body part's legend colour, shaded; the ribbons
 * stay on top of it; the button, clicked with the pointer, hides it and the
 * choice is kept in the settings.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gtk/gtk.h>
#include <string.h>

#include "formats/cha/tress-cha-demo.h"
#include "fur/tress-fur-body.h"
#include "fur/tress-fur-editor.h"
#include "fur/tress-fur-mesh.h"
#include "fur/tress-fur-panes.h"
#include "fur/tress-fur-preview.h"
#include "tress-application.h"
#include "tress-test-pointer.h"
#include "tress-test-utils.h"
#include "tress-test-window.h"
#include "tress-window.h"

static gboolean
is_background (const guint8 *p)
{
  return p[0] == TRESS_FUR_BACKGROUND_R && p[1] == TRESS_FUR_BACKGROUND_G
         && p[2] == TRESS_FUR_BACKGROUND_B;
}

/* Whether @p is one of the parts' legend colours scaled by a light (0.2…1):
 * its channels in the same proportions, within rounding. */
static gboolean
is_shaded_part_colour (const guint8 *p, const TressFurBody *body)
{
  for (guint i = 0; i < tress_fur_body_get_n_parts (body); i++)
    {
      guint8 rgb[3];
      double light, worst = 0;

      tress_fur_body_part_colour (tress_fur_body_get_part (body, i)->part, rgb);
      light = (double)(p[0] + p[1] + p[2]) / (rgb[0] + rgb[1] + rgb[2]);
      if (light < 0.2 || light > 1.05)
        continue;
      for (guint k = 0; k < 3; k++)
        worst = MAX (worst, ABS (p[k] - light * rgb[k]));
      if (worst <= 3.0)
        return TRUE;
    }
  return FALSE;
}

static void
test_body_under_fur (void)
{
  g_autofree char *path = g_build_filename (tress_test_tmpdir (), "body.cha", NULL);
  g_autoptr (GSettings) settings = g_settings_new (TRESS_FUR_EDITOR_SCHEMA);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GBytes) shown = NULL;
  g_autoptr (GBytes) hidden = NULL;
  g_autoptr (GBytes) again = NULL;
  g_autoptr (TressFurBody) body = NULL;
  TressChaDemoOptions options;
  TressTestWindow tw;
  TressFurPreview *preview;
  GtkWidget *toggle;
  const guint8 *a, *b;
  gsize size;
  guint body_pixels = 0, body_coloured = 0, fur_pixels = 0, fur_kept = 0;
  int w, h, first = -1;

  tress_cha_demo_options_init (&options);
  bytes = tress_cha_demo_generate_bytes (&options);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize)g_bytes_get_size (bytes), NULL));
  g_settings_reset (settings, "show-body");
  tress_test_window_open (&tw, path, TRESS_TYPE_FUR_EDITOR, 960, 640);
  preview = tress_fur_editor_get_preview (TRESS_FUR_EDITOR (tw.editor));
  TRESS_TEST_WAIT_FOR (tress_fur_preview_get_gl_ready (preview)
                       || tress_fur_preview_get_gl_error (preview));
  if (!tress_fur_preview_get_gl_ready (preview) || !tress_test_pointer_available (tw.editor))
    {
      tress_test_window_close (&tw);
      g_test_skip ("no GL or no XTest");
      return;
    }
  body = tress_fur_body_new (tress_cha_document_get_cha (TRESS_CHA_DOCUMENT (tw.document)));
  toggle = tress_test_find_named_type (tw.editor, "show body", GTK_TYPE_TOGGLE_BUTTON);
  TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (toggle));
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (toggle)));
  TRESS_TEST_WAIT_FOR ((shown = tress_fur_preview_grab (preview, &w, &h)) != NULL);

  /* Off, by a click: the setting follows. */
  tress_test_pointer_click (toggle, gtk_widget_get_width (toggle) / 2.0,
                            gtk_widget_get_height (toggle) / 2.0);
  TRESS_TEST_WAIT_FOR (!gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (toggle)));
  g_assert_false (g_settings_get_boolean (settings, "show-body"));
  hidden = tress_fur_preview_grab (preview, &w, &h);
  g_assert_cmpuint (g_bytes_get_size (hidden), ==, g_bytes_get_size (shown));

  a = g_bytes_get_data (shown, &size);
  b = g_bytes_get_data (hidden, NULL);
  for (gsize i = 0; i + 3 < size; i += 4)
    {
      if (is_background (b + i))
        {
          /* No ribbon here: with the body on, a body part's colour or still
           * the background (outside the silhouette). */
          if (!is_background (a + i))
            {
              body_pixels++;
              if (is_shaded_part_colour (a + i, body))
                body_coloured++;
              if (first < 0)
                first = (int)(i / 4);
            }
        }
      else
        {
          fur_pixels++;
          if (memcmp (a + i, b + i, 3) == 0)
            fur_kept++;
        }
    }
  g_test_message ("%d×%d: %u pixels of body where no ribbon is (%u in a part colour), "
                  "%u of %u fur pixels unchanged; first at (%d, %d)",
                  w, h, body_pixels, body_coloured, fur_kept, fur_pixels, first % MAX (w, 1),
                  first / MAX (w, 1));
  /* The body shows between the ribbons (at least 1% of the picture), in the
   * legend colours; the ribbons are drawn over it (most fur pixels keep their
   * colour: only those behind the body are hidden). */
  g_assert_cmpuint (tress_fur_body_get_n_parts (body), >=, 5);
  g_assert_cmpuint (body_pixels, >, (guint)(w * h / 100));
  g_assert_cmpuint (body_coloured, >, body_pixels * 9 / 10);
  g_assert_cmpuint (fur_kept, >, fur_pixels / 2);

  /* On again: the same picture as before. */
  tress_test_pointer_click (toggle, gtk_widget_get_width (toggle) / 2.0,
                            gtk_widget_get_height (toggle) / 2.0);
  TRESS_TEST_WAIT_FOR (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (toggle)));
  g_assert_true (g_settings_get_boolean (settings, "show-body"));
  again = tress_fur_preview_grab (preview, &w, &h);
  g_assert_true (g_bytes_equal (again, shown));
  tress_test_pointer_move (GTK_WIDGET (tw.window), 1, 1);
  tress_test_window_close (&tw);
  g_settings_reset (settings, "show-body");
}

int
main (int argc, char *argv[])
{
  tress_test_window_init (&argc, &argv);
  g_test_add_func ("/fur/body/under-fur", test_body_under_fur);
  return g_test_run ();
}
