/* test-fur-texture.c: strand textures under the UV map
 *
 * The texture fills UV 0…1 exactly: at the middle of every hair piece's box
 * of the demo's UV table, the drawn pixel is the texture's pixel at that UV
 * (PNG and uncompressed DDS, of a size that is not square). In the editor,
 * Ctrl+L opens the chooser, and a name typed in the UV map's path field,
 * relative (beside the creature) or absolute, then Return, loads that very
 * file, not another of the same name in a subfolder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gtk/gtk.h>
#include <string.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "formats/cha/tress-cha-demo.h"
#include "fur/tress-fur-editor.h"
#include "fur/tress-uv-map.h"
#include "tress-application.h"
#include "tress-test-pointer.h"
#include "tress-test-utils.h"
#include "tress-test-window.h"
#include "tress-window.h"

#define TEX_W 64
#define TEX_H 32

/* RGBA of a texture whose red says u and green says v (blue: @blue). */
static guint8 *
gradient_pixels (guint8 blue)
{
  guint8 *px = g_malloc (TEX_W * TEX_H * 4);

  for (int y = 0; y < TEX_H; y++)
    for (int x = 0; x < TEX_W; x++)
      {
        guint8 *p = px + 4 * (y * TEX_W + x);

        p[0] = (guint8)(x * 255 / (TEX_W - 1));
        p[1] = (guint8)(y * 255 / (TEX_H - 1));
        p[2] = blue;
        p[3] = 255;
      }
  return px;
}

static void
write_png (const char *path, guint8 blue)
{
  g_autofree guint8 *px = gradient_pixels (blue);
  g_autoptr (GBytes) bytes = g_bytes_new (px, TEX_W * TEX_H * 4);
  g_autoptr (GdkTexture) texture
      = gdk_memory_texture_new (TEX_W, TEX_H, GDK_MEMORY_R8G8B8A8, bytes, TEX_W * 4);

  g_assert_true (gdk_texture_save_to_png (texture, path));
}

static void
put32 (guint8 *p, guint32 v)
{
  p[0] = v & 0xff;
  p[1] = (v >> 8) & 0xff;
  p[2] = (v >> 16) & 0xff;
  p[3] = (v >> 24) & 0xff;
}

/* An uncompressed 32-bit DDS (A8R8G8B8: bytes B, G, R, A), top row first. */
static void
write_dds (const char *path, guint8 blue)
{
  g_autofree guint8 *px = gradient_pixels (blue);
  gsize size = 128 + TEX_W * TEX_H * 4;
  g_autofree guint8 *file = g_malloc0 (size);

  memcpy (file, "DDS ", 4);
  put32 (file + 4, 124);
  put32 (file + 8, 0x100f);
  put32 (file + 12, TEX_H);
  put32 (file + 16, TEX_W);
  put32 (file + 20, TEX_W * 4);
  put32 (file + 28, 1);
  put32 (file + 76, 32);
  put32 (file + 80, 0x41); /* RGB | alpha */
  put32 (file + 88, 32);
  put32 (file + 92, 0x00ff0000);
  put32 (file + 96, 0x0000ff00);
  put32 (file + 100, 0x000000ff);
  put32 (file + 104, 0xff000000);
  put32 (file + 108, 0x1000);
  for (int i = 0; i < TEX_W * TEX_H; i++)
    {
      file[128 + 4 * i] = px[4 * i + 2];
      file[128 + 4 * i + 1] = px[4 * i + 1];
      file[128 + 4 * i + 2] = px[4 * i];
      file[128 + 4 * i + 3] = px[4 * i + 3];
    }
  g_assert_true (g_file_set_contents (path, (const char *)file, (gssize)size, NULL));
}

typedef struct
{
  int width, height;
  guint8 *data; /* cairo ARGB32: B, G, R, A */
} Shot;

/* The map's own snapshot, rendered in software: the pixels a frame shows. */
static void
shoot (GtkWidget *map, Shot *shot)
{
  g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GskRenderer) renderer = gsk_cairo_renderer_new ();
  g_autoptr (GdkTexture) texture = NULL;
  g_autoptr (GError) error = NULL;
  graphene_rect_t vp
      = GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (map), gtk_widget_get_height (map));

  GTK_WIDGET_GET_CLASS (map)->snapshot (map, snapshot);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);
  g_assert_true (gsk_renderer_realize (renderer, NULL, &error));
  texture = gsk_renderer_render_texture (renderer, node, &vp);
  shot->width = gdk_texture_get_width (texture);
  shot->height = gdk_texture_get_height (texture);
  shot->data = g_malloc ((gsize)shot->width * shot->height * 4);
  gdk_texture_download (texture, shot->data, (gsize)shot->width * 4);
  gsk_renderer_unrealize (renderer);
}

/* At the middle of every hair piece's box: the texture's pixel at that UV
 * (the gradient of blue @blue). Returns the boxes checked. */
static guint
assert_boxes_show_texture (TressUvMap *map, const TressUvLayout *layout, const float *uv,
                           gsize n_floats, guint8 blue)
{
  Shot shot;
  TressUvView view;
  TressUvPiece p;
  guint n = 0;

  shoot (GTK_WIDGET (map), &shot);
  tress_uv_map_get_view (map, &view);
  for (p.row = 0; p.row < layout->rows; p.row++)
    for (p.group = 0; p.group < layout->groups; p.group++)
      for (p.piece = 0; p.piece < layout->pieces; p.piece++)
        {
          double u0, v0, u1, v1, u, v;
          TressFurPoint q;
          const guint8 *px;
          int x, y;

          if (!tress_uv_piece_bounds (layout, uv, n_floats, &p, &u0, &v0, &u1, &v1))
            continue;
          u = (u0 + u1) / 2;
          v = (v0 + v1) / 2;
          q = tress_uv_view_to_widget (&view, u, v);
          x = (int)q.x;
          y = (int)q.y;
          g_assert_cmpint (x, >=, 0);
          g_assert_cmpint (y, >=, 0);
          g_assert_cmpint (x, <, shot.width);
          g_assert_cmpint (y, <, shot.height);
          px = shot.data + 4 * ((gsize)y * shot.width + x);
          /* red says u, green v, across the whole texture (one texel of slack
           * for the scaling filter) */
          g_assert_cmpint (ABS ((int)px[2] - (int)(u * 255)), <=, 255 / (TEX_W - 1) + 2);
          g_assert_cmpint (ABS ((int)px[1] - (int)(v * 255)), <=, 255 / (TEX_H - 1) + 2);
          g_assert_cmpint (ABS ((int)px[0] - (int)blue), <=, 2);
          n++;
        }
  g_free (shot.data);
  return n;
}

static TressChaFile *
demo_file (void)
{
  TressChaDemoOptions options;

  tress_cha_demo_options_init (&options);
  return tress_cha_demo_generate (&options);
}

static void
test_uv_pixels (void)
{
  g_autoptr (TressChaFile) file = demo_file ();
  const TressChaMaterial *m = &file->radeon->materials[0];
  TressUvLayout layout = { m->uv_rows, m->uv_groups, m->uv_pieces };
  g_autofree char *png = g_build_filename (tress_test_tmpdir (), "strand.png", NULL);
  g_autofree char *dds = g_build_filename (tress_test_tmpdir (), "t_strand.dds", NULL);
  g_autoptr (GFile) png_file = g_file_new_for_path (png);
  g_autoptr (GFile) dds_file = g_file_new_for_path (dds);
  g_autoptr (GError) error = NULL;
  GtkWidget *map = tress_uv_map_new ();
  GtkWidget *window;
  double umin = 1, umax = 0;

  /* the table reaches the texture's edges (else the check says little) */
  for (guint32 i = 0; i + 1 < m->n_uv_floats; i += 2)
    {
      umin = MIN (umin, m->uv[i]);
      umax = MAX (umax, m->uv[i]);
    }
  g_assert_cmpfloat (umin, <, 0.05);
  g_assert_cmpfloat (umax, >, 0.95);
  write_png (png, 40);
  write_dds (dds, 200);
  tress_uv_map_set_table (TRESS_UV_MAP (map), &layout, m->uv, m->n_uv_floats);
  window = tress_test_present (map, 500, 420);
  tress_test_wait_frame (map);

  g_assert_true (tress_uv_map_load_background (TRESS_UV_MAP (map), png_file, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (
      assert_boxes_show_texture (TRESS_UV_MAP (map), &layout, m->uv, m->n_uv_floats, 40), >=, 20);
  g_assert_true (tress_uv_map_load_background (TRESS_UV_MAP (map), dds_file, &error));
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (tress_uv_map_get_background (TRESS_UV_MAP (map))), ==,
                   TEX_W);
  g_assert_cmpuint (
      assert_boxes_show_texture (TRESS_UV_MAP (map), &layout, m->uv, m->n_uv_floats, 200), >=, 20);
  tress_test_present_close (&window, NULL);
}

/* ---- typed in the chooser, in the editor ---------------------------------- */

static GtkWindow *
find_window (const char *title)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (g_strcmp0 (gtk_window_get_title (w), title) == 0
          && gtk_widget_get_visible (GTK_WIDGET (w)))
        return w;
    }
  return NULL;
}

static void
key (guint keyval)
{
  tress_test_pointer_key_unwatched (keyval, TRUE);
  tress_test_pointer_key_unwatched (keyval, FALSE);
}

/* Types @text (lower-case letters, digits, '/', '.', '-', '_') into the
 * focused window. */
static void
type_text (const char *text)
{
  for (const char *c = text; *c; c++)
    {
      if (*c == '_')
        {
          tress_test_pointer_key_unwatched (GDK_KEY_Shift_L, TRUE);
          key (GDK_KEY_minus);
          tress_test_pointer_key_unwatched (GDK_KEY_Shift_L, FALSE);
        }
      else
        key (gdk_unicode_to_keyval ((guint32)*c));
      tress_test_wait_idle ();
    }
}

/* The path field of the UV map clicked, its text selected and replaced by
 * @text typed, Return. */
static void
load_typed (GtkWidget *entry, const char *text)
{
  TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (entry) && gtk_widget_get_width (entry) > 0);
  tress_test_pointer_click (entry, 20, gtk_widget_get_height (entry) / 2.0);
  TRESS_TEST_WAIT_FOR (gtk_widget_has_focus (gtk_widget_get_first_child (entry))
                       || gtk_widget_has_focus (entry));
  tress_test_pointer_key_unwatched (GDK_KEY_Control_L, TRUE);
  key (GDK_KEY_a);
  tress_test_pointer_key_unwatched (GDK_KEY_Control_L, FALSE);
  type_text (text);
  TRESS_TEST_WAIT_FOR (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (entry)), text) == 0);
  key (GDK_KEY_Return);
  tress_test_wait_idle ();
}

/* Ctrl+L over the editor opens the chooser; it is closed again. */
static void
assert_chooser_opens (GtkWidget *over)
{
  GtkWindow *chooser = NULL;

  tress_test_pointer_move (over, 20, 20);
  /* (the chooser may take the releases: they are not waited for) */
  tress_test_pointer_key (GDK_KEY_Control_L, TRUE);
  tress_test_pointer_key_unwatched (GDK_KEY_l, TRUE);
  tress_test_pointer_key_unwatched (GDK_KEY_l, FALSE);
  tress_test_pointer_key_unwatched (GDK_KEY_Control_L, FALSE);
  TRESS_TEST_WAIT_FOR ((chooser = find_window ("Strand texture")) != NULL
                       && gtk_widget_get_mapped (GTK_WIDGET (chooser)));
  g_assert_true (GTK_IS_FILE_CHOOSER (chooser));
  gtk_window_close (chooser);
  TRESS_TEST_WAIT_FOR (find_window ("Strand texture") == NULL);
}

static void
test_typed_path (void)
{
  g_autofree char *dir = g_strdup_printf ("/tmp/tress-tex-%d", (int)getpid ());
  g_autofree char *sub = g_build_filename (dir, "textures", NULL);
  g_autofree char *cha = g_build_filename (dir, "creature.cha", NULL);
  g_autofree char *beside = g_build_filename (dir, "strand.png", NULL);
  g_autofree char *other = g_build_filename (sub, "strand.png", NULL);
  g_autofree char *dds = g_build_filename (sub, "t_strand.dds", NULL);
  g_autoptr (TressChaFile) file = demo_file ();
  g_autoptr (GBytes) bytes = tress_cha_file_serialize (file);
  const TressChaMaterial *m = &file->radeon->materials[0];
  TressUvLayout layout = { m->uv_rows, m->uv_groups, m->uv_pieces };
  TressTestWindow tw;
  TressFurEditor *editor;
  GtkWidget *map, *notebook, *entry;
  GdkTexture *first;

  g_assert_cmpint (g_mkdir_with_parents (sub, 0700), ==, 0);
  g_assert_true (g_file_set_contents (cha, g_bytes_get_data (bytes, NULL),
                                      (gssize)g_bytes_get_size (bytes), NULL));
  write_png (beside, 90);
  write_png (other, 160); /* same name, elsewhere: must not be the one loaded */
  write_dds (dds, 230);
  tress_test_window_open (&tw, cha, TRESS_TYPE_FUR_EDITOR, 960, 640);
  if (!tress_test_pointer_available (GTK_WIDGET (tw.window)))
    {
      tress_test_window_close (&tw);
      g_test_skip ("no XTest");
      return;
    }
  editor = TRESS_FUR_EDITOR (tw.editor);
  map = GTK_WIDGET (tress_fur_editor_get_uv_map (editor));
  notebook = gtk_widget_get_ancestor (map, GTK_TYPE_NOTEBOOK);
  {
    /* The "UV map" tab, clicked (the keys then go to the editor). */
    GtkWidget *tab = gtk_notebook_get_tab_label (
        GTK_NOTEBOOK (notebook), gtk_notebook_get_nth_page (GTK_NOTEBOOK (notebook), 1));

    TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (tab) && gtk_widget_get_width (tab) > 0);
    tress_test_pointer_click (tab, gtk_widget_get_width (tab) / 2.0,
                              gtk_widget_get_height (tab) / 2.0);
  }
  TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (map) && gtk_widget_get_width (map) > 0);
  g_assert_cmpint (gtk_notebook_get_current_page (GTK_NOTEBOOK (notebook)), ==, 1);

  assert_chooser_opens (map);
  entry = tress_test_find_named_type (GTK_WIDGET (editor), "texture_path", GTK_TYPE_ENTRY);

  /* A relative name: the file beside the creature. */
  load_typed (entry, "strand.png");
  TRESS_TEST_WAIT_FOR ((first = tress_uv_map_get_background (TRESS_UV_MAP (map))) != NULL);
  assert_boxes_show_texture (TRESS_UV_MAP (map), &layout, m->uv, m->n_uv_floats, 90);

  /* An absolute path, to a DDS elsewhere. */
  load_typed (entry, dds);
  TRESS_TEST_WAIT_FOR (tress_uv_map_get_background (TRESS_UV_MAP (map)) != first);
  assert_boxes_show_texture (TRESS_UV_MAP (map), &layout, m->uv, m->n_uv_floats, 230);

  tress_test_pointer_move (GTK_WIDGET (tw.window), 1, 1);
  tress_test_window_close (&tw);
  g_unlink (beside);
  g_unlink (other);
  g_unlink (dds);
  g_unlink (cha);
  g_rmdir (sub);
  g_rmdir (dir);
}

int
main (int argc, char *argv[])
{
  tress_test_window_init (&argc, &argv);
  g_test_add_func ("/fur/texture/uv-pixels", test_uv_pixels);
  g_test_add_func ("/fur/texture/typed-path", test_typed_path);
  return g_test_run ();
}
