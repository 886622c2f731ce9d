/* tress-application.c: the Tress application
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-application.h"

#include <glib/gi18n.h>

#include "tress-editors.h"
#include "tress-png.h"

struct _TressApplication
{
  GtkApplication parent_instance;

  char *screenshot_path;
  gboolean open_demo;
  int exit_status;
};

G_DEFINE_FINAL_TYPE (TressApplication, tress_application, GTK_TYPE_APPLICATION)

/* ---- screenshot -------------------------------------------------------- */

gboolean
tress_window_render_png (GtkWindow *window, const char *path, GError **error)
{
  GtkWidget *widget = GTK_WIDGET (window);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr (GdkPaintable) paintable = NULL;
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  GtkSnapshot *snapshot;
  GskRenderer *renderer;

  if (width <= 0 || height <= 0 || !gtk_widget_get_mapped (widget))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "The window is not shown yet, so it cannot be rendered");
      return FALSE;
    }

  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL)
    {
      /* The paintable draws nothing while a new layout is pending. */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK, "The window drew nothing");
      return FALSE;
    }
  renderer = gtk_native_get_renderer (GTK_NATIVE (window));
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (texture == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Could not render the window");
      return FALSE;
    }
  return tress_texture_save_png (texture, path, error);
}

typedef struct
{
  TressApplication *app;
  guint resizes;
  guint retries;
  int resized_from_width, resized_from_height; /* the size when a resize was last asked for */
} ScreenshotState;

static gboolean
screenshot_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer user_data)
{
  ScreenshotState *state = user_data;
  TressApplication *self = state->app;
  g_autoptr (GError) error = NULL;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);

  /* Wait for the files to be read and for the first layout; after asking for
   * a resize, wait for the new size. */
  if (tress_window_get_busy (TRESS_WINDOW (widget)) || width == 0 || height == 0
      || (state->resizes > 0 && width == state->resized_from_width
          && height == state->resized_from_height && ++state->retries < 100))
    {
      gtk_widget_queue_draw (widget);
      return G_SOURCE_CONTINUE;
    }

  /* The picture has exactly the size of a new window's content. The default
   * size was grown by the window's frame before it was shown; should the frame
   * turn out different, correct by the difference. */
  {
    int dw = TRESS_WINDOW_DEFAULT_WIDTH - width;
    int dh = TRESS_WINDOW_DEFAULT_HEIGHT - height;

    if ((dw != 0 || dh != 0) && state->resizes < 3)
      {
        int default_width, default_height;

        gtk_window_get_default_size (GTK_WINDOW (widget), &default_width, &default_height);
        gtk_window_set_default_size (GTK_WINDOW (widget), default_width + dw, default_height + dh);
        state->resizes++;
        state->retries = 0;
        state->resized_from_width = width;
        state->resized_from_height = height;
        gtk_widget_queue_resize (widget);
        return G_SOURCE_CONTINUE;
      }
  }

  if (!tress_window_render_png (GTK_WINDOW (widget), self->screenshot_path, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK) && ++state->retries < 100)
        {
          gtk_widget_queue_draw (widget);
          return G_SOURCE_CONTINUE;
        }
      g_printerr ("tress: %s\n", error->message);
      self->exit_status = 1;
    }
  g_application_quit (G_APPLICATION (self));
  return G_SOURCE_REMOVE;
}

static void
screenshot_state_free (gpointer data)
{
  g_free (data);
}

static void
schedule_screenshot (TressApplication *self, TressWindow *window)
{
  ScreenshotState *state = g_new0 (ScreenshotState, 1);

  state->app = self;
  /* The default size counts the frame the window draws around its content
   * (client-side borders): realize the window, ask how far its content sits
   * inside the surface, and grow the default size by that on each side, so
   * that the first frame already has the final size. */
  {
    double sx = 0, sy = 0;

    gtk_widget_realize (GTK_WIDGET (window));
    gtk_native_get_surface_transform (GTK_NATIVE (window), &sx, &sy);
    gtk_window_set_default_size (GTK_WINDOW (window), TRESS_WINDOW_DEFAULT_WIDTH + 2 * (int)sx,
                                 TRESS_WINDOW_DEFAULT_HEIGHT + 2 * (int)sy);
  }
  gtk_widget_add_tick_callback (GTK_WIDGET (window), screenshot_tick, state, screenshot_state_free);
}

/* ---- windows ----------------------------------------------------------- */

static TressWindow *
get_window (TressApplication *self, gboolean *created)
{
  GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (self));
  TressWindow *window;

  *created = FALSE;
  if (TRESS_IS_WINDOW (active))
    return TRESS_WINDOW (active);

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    if (TRESS_IS_WINDOW (l->data))
      return TRESS_WINDOW (l->data);

  window = tress_window_new (GTK_APPLICATION (self));
  *created = TRUE;
  if (self->screenshot_path != NULL)
    {
      /* The picture shows the final state, not a transition. */
      g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
      tress_window_set_remember_size (window, FALSE);
      tress_window_set_use_recent_files (window, FALSE);
      schedule_screenshot (self, window);
    }
  return window;
}

static void
tress_application_activate (GApplication *app)
{
  TressApplication *self = TRESS_APPLICATION (app);
  gboolean created;
  TressWindow *window = get_window (self, &created);

  if (self->open_demo)
    {
      self->open_demo = FALSE;
      tress_window_open_demo (window);
    }
  gtk_window_present (GTK_WINDOW (window));
}

static void
tress_application_open (GApplication *app, GFile **files, int n_files, const char *hint)
{
  TressApplication *self = TRESS_APPLICATION (app);
  gboolean created;
  TressWindow *window = get_window (self, &created);

  if (self->open_demo)
    {
      self->open_demo = FALSE;
      tress_window_open_demo (window);
    }
  for (int i = 0; i < n_files; i++)
    tress_window_open_file (window, files[i]);
  gtk_window_present (GTK_WINDOW (window));
}

/* ---- application actions ----------------------------------------------- */

static void
action_new_window (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  TressWindow *window = tress_window_new (GTK_APPLICATION (user_data));

  gtk_window_present (GTK_WINDOW (window));
}

static void
action_open_demo (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  TressApplication *self = TRESS_APPLICATION (user_data);
  gboolean created;
  TressWindow *window = get_window (self, &created);

  tress_window_open_demo (window);
  gtk_window_present (GTK_WINDOW (window));
}

static void
action_about (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  static const char *authors[] = { "The Tress developers", NULL };

  gtk_show_about_dialog (gtk_application_get_active_window (app), "program-name", _ ("Tress"),
                         "logo-icon-name", TRESS_APP_ID, "version", TRESS_VERSION, "comments",
                         _ ("Edit creature fur, BFRES animation curves and NIFF animations of "
                            "old games"),
                         "license-type", GTK_LICENSE_GPL_3_0, "authors", authors,
                         /* Translators: your name(s), one a line */
                         "translator-credits", _ ("translator-credits"), "website",
                         "https://github.com/tress/tress", NULL);
}

static void
action_quit (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  GList *windows = g_list_copy (gtk_application_get_windows (app));

  /* Each window asks about its own unsaved documents. */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (GTK_WINDOW (l->data));
  g_list_free (windows);
}

static const GActionEntry app_actions[] = {
  { .name = "new-window", .activate = action_new_window },
  { .name = "open-demo", .activate = action_open_demo },
  { .name = "about", .activate = action_about },
  { .name = "quit", .activate = action_quit },
};

/* ---- start-up ---------------------------------------------------------- */

/* GTK 4.8 leaves a window's "compute-size" handler on the window's surface when
 * it unrealizes the window, and the surface can outlive the window (under Xvfb
 * every closed window's did, one reference held inside GDK): a size computation
 * queued for that surface then runs into the freed window ("invalid unclassed
 * pointer in cast to 'GtkWindow'", then a crash). So every toplevel, GTK's own
 * dialogs too, takes the handlers left for it off its surface as it unrealizes. */
static void
on_toplevel_unrealize (GtkWidget *window, gpointer data)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));

  if (surface != NULL && GDK_IS_TOPLEVEL (surface))
    g_signal_handlers_disconnect_matched (surface, G_SIGNAL_MATCH_ID | G_SIGNAL_MATCH_DATA,
                                          g_signal_lookup ("compute-size", GDK_TYPE_TOPLEVEL), 0,
                                          NULL, NULL, window);
}

static void
guard_toplevels (GListModel *toplevels, guint position, guint removed, guint added, gpointer data)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr (GObject) window = g_list_model_get_item (toplevels, i);

      if (g_object_get_data (window, "tress-surface-guard") != NULL)
        continue;
      g_object_set_data (window, "tress-surface-guard", GINT_TO_POINTER (TRUE));
      g_signal_connect (window, "unrealize", G_CALLBACK (on_toplevel_unrealize), NULL);
    }
}

static void
tress_application_startup (GApplication *app)
{
  static const struct
  {
    const char *action;
    const char *accels[3];
  } accels[] = {
    { "app.new-window", { "<Primary>n", NULL } },
    { "app.quit", { "<Primary>q", NULL } },
    { "win.open", { "<Primary>o", NULL } },
    { "win.save", { "<Primary>s", NULL } },
    { "win.save-as", { "<Primary><Shift>s", NULL } },
    { "win.export-gltf", { "<Primary>e", NULL } },
    { "win.undo", { "<Primary>z", NULL } },
    { "win.redo", { "<Primary><Shift>z", "<Primary>y", NULL } },
    { "win.close-document", { "<Primary>w", NULL } },
    { "win.next-document", { "<Primary>Page_Down", NULL } },
    { "win.previous-document", { "<Primary>Page_Up", NULL } },
    { "win.select-document(0)", { "<Alt>1", NULL } },
    { "win.select-document(1)", { "<Alt>2", NULL } },
    { "win.select-document(2)", { "<Alt>3", NULL } },
    { "win.select-document(3)", { "<Alt>4", NULL } },
    { "win.select-document(4)", { "<Alt>5", NULL } },
    { "win.select-document(5)", { "<Alt>6", NULL } },
    { "win.select-document(6)", { "<Alt>7", NULL } },
    { "win.select-document(7)", { "<Alt>8", NULL } },
    { "win.select-document(8)", { "<Alt>9", NULL } },
    { "win.show-help-overlay", { "<Primary>question", NULL } },
  };
  g_autoptr (GtkCssProvider) css = gtk_css_provider_new ();

  G_APPLICATION_CLASS (tress_application_parent_class)->startup (app);

  {
    GListModel *toplevels = gtk_window_get_toplevels (); /* one for the process */
    static gboolean guarded;

    if (!guarded)
      {
        guarded = TRUE;
        guard_toplevels (toplevels, 0, 0, g_list_model_get_n_items (toplevels), NULL);
        g_signal_connect (toplevels, "items-changed", G_CALLBACK (guard_toplevels), NULL);
      }
  }

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions),
                                   app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action,
                                           accels[i].accels);

  gtk_css_provider_load_from_resource (css, "/io/github/tress/Tress/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  gtk_window_set_default_icon_name (TRESS_APP_ID);

  tress_editors_register_builtin ();
}

static int
tress_application_handle_local_options (GApplication *app, GVariantDict *options)
{
  TressApplication *self = TRESS_APPLICATION (app);
  g_autoptr (GError) error = NULL;

  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("tress %s\n", TRESS_VERSION);
      return 0;
    }

  if (g_variant_dict_lookup (options, "screenshot", "^ay", &self->screenshot_path))
    {
      /* A screenshot is this process's own window, never the running instance's. */
      g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);
      /* Software rendering gives the same pixels on every machine (and starts
       * faster than a GL context); GSK_RENDERER set by the caller wins. */
      g_setenv ("GSK_RENDERER", "cairo", FALSE);
    }

  if (g_variant_dict_contains (options, "demo"))
    {
      if (!g_application_register (app, NULL, &error))
        {
          g_printerr ("tress: %s\n", error->message);
          return 1;
        }
      if (g_application_get_is_remote (app))
        {
          g_action_group_activate_action (G_ACTION_GROUP (app), "open-demo", NULL);
          return -1; /* files on the command line still go to the running instance */
        }
      self->open_demo = TRUE;
    }
  return -1;
}

static void
tress_application_finalize (GObject *object)
{
  TressApplication *self = TRESS_APPLICATION (object);

  g_free (self->screenshot_path);
  G_OBJECT_CLASS (tress_application_parent_class)->finalize (object);
}

static void
tress_application_class_init (TressApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = tress_application_finalize;
  app_class->startup = tress_application_startup;
  app_class->activate = tress_application_activate;
  app_class->open = tress_application_open;
  app_class->handle_local_options = tress_application_handle_local_options;
}

static void
tress_application_init (TressApplication *self)
{
  static const GOptionEntry entries[] = {
    { "demo", 0, 0, G_OPTION_ARG_NONE, NULL, N_ ("Open the demo files"), NULL },
    { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, NULL,
      N_ ("Render the window once to a PNG file and exit"), N_ ("FILE") },
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_ ("Print the version and exit"), NULL },
    { NULL },
  };

  g_application_add_main_option_entries (G_APPLICATION (self), entries);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _ ("[FILE…]"));
  g_application_set_option_context_summary (
      G_APPLICATION (self),
      _ ("Edit Black & White 2 creature fur, Wii U BFRES animations and N64 NIFF animations."));
}

TressApplication *
tress_application_new (void)
{
  return g_object_new (TRESS_TYPE_APPLICATION, "application-id", TRESS_APP_ID, "flags",
                       G_APPLICATION_HANDLES_OPEN, "resource-base-path", "/io/github/tress/Tress",
                       NULL);
}

int
tress_application_get_exit_status (TressApplication *self)
{
  g_return_val_if_fail (TRESS_IS_APPLICATION (self), 1);
  return self->exit_status;
}
