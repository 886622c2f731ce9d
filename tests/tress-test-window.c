/* tress-test-window.c: windows for UI tests, and proof that closing them frees everything
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-test-window.h"

#include <string.h>

#include "tress-test-utils.h"

/* How long GTK may take, main loop running, to let go of a destroyed window
 * (pending frames, idles): far more than it needs, so a failure is a leak. */
#define FINALIZE_TIMEOUT_S 10

static TressApplication *app;

/* GTK names a widget it cannot draw ("Trying to snapshot GtkButton 0x…
 * without a current allocation") by type and address only. Before such a
 * warning fails the test, say where that widget sits: its ancestors' types,
 * names, labels and states, so a failure seen once can be traced. */
static void
describe_widget_at (const char *message)
{
  const char *at = strstr (message, " 0x");
  GtkWidget *w;

  if (!g_str_has_prefix (message, "Trying to snapshot ") || at == NULL
      || strstr (message, "without a current allocation") == NULL)
    return;
  w = GSIZE_TO_POINTER ((gsize)g_ascii_strtoull (at + 1, NULL, 16));
  if (!GTK_IS_WIDGET (w))
    return;
  g_printerr ("The widget, then its ancestors:\n");
  for (; w != NULL; w = gtk_widget_get_parent (w))
    {
      const char *label = GTK_IS_BUTTON (w)  ? gtk_button_get_label (GTK_BUTTON (w))
                          : GTK_IS_LABEL (w) ? gtk_label_get_text (GTK_LABEL (w))
                                             : NULL;

      g_printerr ("  %s name=%s label=%s tooltip=%s visible=%d child-visible=%d mapped=%d "
                  "%d×%d\n",
                  G_OBJECT_TYPE_NAME (w), gtk_widget_get_name (w), label ? label : "-",
                  gtk_widget_get_tooltip_text (w) ? gtk_widget_get_tooltip_text (w) : "-",
                  gtk_widget_get_visible (w), gtk_widget_get_child_visible (w),
                  gtk_widget_get_mapped (w), gtk_widget_get_width (w), gtk_widget_get_height (w));
    }
}

static GLogWriterOutput
log_writer (GLogLevelFlags level, const GLogField *fields, gsize n_fields, gpointer data)
{
  if (level & (G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL))
    for (gsize i = 0; i < n_fields; i++)
      if (g_str_equal (fields[i].key, "MESSAGE") && fields[i].length < 0)
        describe_widget_at (fields[i].value);
  return g_log_writer_default (level, fields, n_fields, data);
}

TressApplication *
tress_test_window_init (int *argc, char ***argv)
{
  g_autoptr (GError) error = NULL;

  g_test_init (argc, argv, NULL);
  g_log_set_writer_func (log_writer, NULL, NULL);
  gtk_init ();
  app = tress_application_new ();
  g_application_set_flags (G_APPLICATION (app),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  return app;
}

TressApplication *
tress_test_window_get_app (void)
{
  g_assert_nonnull (app);
  return app;
}

/* ---- finalization ------------------------------------------------------ */

typedef struct
{
  GObject *object; /* a weak pointer: NULL once finalized */
  char *what;
  const char *type;
  gconstpointer address;
} Watched;

static void
watch (GArray *watched, gpointer object, const char *what)
{
  Watched w = { G_OBJECT (object), g_strdup (what), G_OBJECT_TYPE_NAME (object), object };

  g_array_append_val (watched, w);
}

static void
watched_clear (gpointer data)
{
  Watched *w = data;

  if (w->object != NULL)
    g_object_remove_weak_pointer (w->object, (gpointer *)&w->object);
  g_free (w->what);
}

static GArray *
watched_new (guint n)
{
  GArray *watched = g_array_sized_new (FALSE, TRUE, sizeof (Watched), n);

  g_array_set_clear_func (watched, watched_clear);
  return watched;
}

/* The weak pointers live in the array: it must not grow after this. */
static void
watched_arm (GArray *watched)
{
  for (guint i = 0; i < watched->len; i++)
    {
      Watched *w = &g_array_index (watched, Watched, i);

      g_object_add_weak_pointer (w->object, (gpointer *)&w->object);
    }
}

static gboolean
all_finalized (GArray *watched)
{
  for (guint i = 0; i < watched->len; i++)
    if (g_array_index (watched, Watched, i).object != NULL)
      return FALSE;
  return TRUE;
}

/* Runs the main loop until every watched object is finalized, or fails
 * naming those still alive (@after: what should have let go of them). */
static void
await_finalized (GArray *watched, const char *after)
{
  gint64 deadline = g_get_monotonic_time () + FINALIZE_TIMEOUT_S * G_USEC_PER_SEC;
  g_autoptr (GString) alive = NULL;

  while (!all_finalized (watched) && g_get_monotonic_time () < deadline)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
  if (all_finalized (watched))
    return;
  alive = g_string_new (NULL);
  for (guint i = 0; i < watched->len; i++)
    {
      Watched *w = &g_array_index (watched, Watched, i);

      if (w->object != NULL)
        g_string_append_printf (alive, "%s%s (%s %p, %u references)", alive->len > 0 ? ", " : "",
                                w->what, w->type, w->address, w->object->ref_count);
    }
  g_error ("still alive %d s after %s: %s", FINALIZE_TIMEOUT_S, after, alive->str);
}

void
tress_test_assert_finalized (gpointer object, gboolean unref, const char *what)
{
  g_autoptr (GArray) watched = watched_new (1);

  g_assert_true (G_IS_OBJECT (object));
  watch (watched, object, what);
  watched_arm (watched);
  if (unref)
    g_object_unref (object);
  await_finalized (watched, unref ? "its last reference was dropped" : "it was let go of");
}

/* Watches the windows transient for @window (its dialogs): each must go with
 * it, as a user closing the window sees them go, and take what it holds along. */
static void
watch_transients (GArray *watched, GtkWindow *window)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (w != window && gtk_window_get_transient_for (w) == window)
        {
          g_autofree char *what
              = g_strdup_printf ("its dialog “%s”", gtk_window_get_title (w) ?: "");

          watch (watched, w, what);
        }
    }
}

/* ---- the application window -------------------------------------------- */

TressWindow *
tress_test_window_new (int width, int height)
{
  TressWindow *window = tress_window_new (GTK_APPLICATION (tress_test_window_get_app ()));

  if (width > 0 && height > 0)
    {
      tress_window_set_remember_size (window, FALSE);
      gtk_window_set_default_size (GTK_WINDOW (window), width, height);
    }
  gtk_window_present (GTK_WINDOW (window));
  TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (GTK_WIDGET (window)));
  return window;
}

/* The page showing @file in @window, or NULL. */
static TressDocumentPage *
page_of (TressWindow *window, GFile *file)
{
  for (guint i = 0; i < tress_window_get_n_documents (window); i++)
    {
      TressDocumentPage *page = tress_window_get_page (window, i);
      GFile *f = tress_document_get_file (tress_document_page_get_document (page));

      if (f != NULL && g_file_equal (f, file))
        return page;
    }
  return NULL;
}

TressDocumentPage *
tress_test_window_open_file (TressWindow *window, const char *path, GType editor_type)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *uri = g_file_get_uri (file);
  TressDocumentPage *page = NULL;
  GtkWidget *editor = NULL;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.open-uri", "s", uri));
  TRESS_TEST_WAIT_FOR (!tress_window_get_busy (window) && (page = page_of (window, file)) != NULL
                       && tress_window_get_current_page (window) == page
                       && (editor = tress_document_page_get_editor (page)) != NULL
                       && gtk_widget_get_mapped (editor));
  if (editor_type != G_TYPE_NONE && !G_TYPE_CHECK_INSTANCE_TYPE (editor, editor_type))
    g_error ("%s opened in a %s, not a %s", path, G_OBJECT_TYPE_NAME (editor),
             g_type_name (editor_type));
  return page;
}

void
tress_test_window_destroy (TressWindow *window)
{
  guint n = tress_window_get_n_documents (window);
  g_autoptr (GArray) watched
      = watched_new (n + 1 + g_list_model_get_n_items (gtk_window_get_toplevels ()));

  g_assert_true (TRESS_IS_WINDOW (window));
  watch (watched, window, "the window");
  for (guint i = 0; i < n; i++)
    {
      TressDocument *doc = tress_document_page_get_document (tress_window_get_page (window, i));
      g_autofree char *what = g_strdup_printf ("the document %s", tress_document_get_title (doc));

      watch (watched, doc, what);
    }
  watch_transients (watched, GTK_WINDOW (window));
  watched_arm (watched);
  gtk_window_destroy (GTK_WINDOW (window));
  await_finalized (watched, "its window was destroyed");
}

void
tress_test_window_open (TressTestWindow *tw, const char *path, GType editor_type, int width,
                        int height)
{
  tw->window = tress_test_window_new (width, height);
  tw->page = tress_test_window_open_file (tw->window, path, editor_type);
  tw->editor = tress_document_page_get_editor (tw->page);
  tw->document = tress_document_page_get_document (tw->page);
}

void
tress_test_window_close (TressTestWindow *tw)
{
  if (tw->window != NULL)
    tress_test_window_destroy (tw->window);
  *tw = (TressTestWindow){ NULL };
}

/* ---- a widget in a plain window ---------------------------------------- */

GtkWidget *
tress_test_present (GtkWidget *child, int width, int height)
{
  GtkWidget *window = gtk_window_new ();

  if (width > 0 && height > 0)
    gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_set_child (GTK_WINDOW (window), child);
  gtk_window_present (GTK_WINDOW (window));
  if (width > 0 && height > 0)
    TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (child) && gtk_widget_get_width (child) == width
                         && gtk_widget_get_height (child) == height);
  else
    TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (child) && gtk_widget_get_width (child) > 0);
  return window;
}

void
tress_test_present_close (GtkWidget **window, gpointer document)
{
  GObject **doc = document;
  g_autoptr (GArray) watched
      = watched_new (2 + g_list_model_get_n_items (gtk_window_get_toplevels ()));

  if (*window != NULL)
    {
      watch (watched, *window, "the window");
      watch_transients (watched, GTK_WINDOW (*window));
    }
  if (doc != NULL && *doc != NULL)
    watch (watched, *doc, "the document");
  watched_arm (watched);
  if (*window != NULL)
    gtk_window_destroy (GTK_WINDOW (*window));
  *window = NULL;
  if (doc != NULL)
    g_clear_object (doc);
  await_finalized (watched, "the window was destroyed and the test's reference dropped");
}

/* ---- waiting ----------------------------------------------------------- */

static void
on_after_paint (GdkFrameClock *clock, gboolean *painted)
{
  *painted = TRUE;
}

void
tress_test_wait_frame (GtkWidget *widget)
{
  GdkFrameClock *clock;
  gboolean painted = FALSE;
  gulong id;

  TRESS_TEST_WAIT_FOR (gtk_widget_get_mapped (widget)
                       && gtk_widget_get_frame_clock (widget) != NULL);
  clock = gtk_widget_get_frame_clock (widget);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &painted);
  gtk_widget_queue_draw (widget);
  TRESS_TEST_WAIT_FOR (painted);
  g_signal_handler_disconnect (clock, id);
}

static gboolean
on_idle (gpointer data)
{
  *(gboolean *)data = TRUE;
  return G_SOURCE_REMOVE;
}

void
tress_test_wait_idle (void)
{
  gboolean done = FALSE;

  /* The main loop runs a source only when none of a higher priority is
   * ready: once this one has run, so have the idles queued before it. */
  g_idle_add_full (G_PRIORITY_LOW, on_idle, &done, NULL);
  TRESS_TEST_WAIT_FOR (done);
}

/* ---- finding widgets --------------------------------------------------- */

GtkWidget *
tress_test_find_type (GtkWidget *w, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (w, type) && gtk_widget_get_mapped (w))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *in = tress_test_find_type (c, type);

      if (in != NULL)
        return in;
    }
  return NULL;
}

GtkWidget *
tress_test_find_named (GtkWidget *root, const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (root), name) == 0)
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = tress_test_find_named (c, name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

GtkWidget *
tress_test_find_named_type (GtkWidget *root, const char *name, GType type)
{
  GtkWidget *found = tress_test_find_named (root, name);

  g_assert_nonnull (found);
  g_assert_true (G_TYPE_CHECK_INSTANCE_TYPE (found, type));
  return found;
}

GtkWidget *
tress_test_find_label_text (GtkWidget *root, const char *text)
{
  if (GTK_IS_LABEL (root) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (root)), text) == 0)
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = tress_test_find_label_text (c, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* ---- finding windows and menu items ---- */

GtkWindow *
tress_test_find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels (); /* transfer none */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) item = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (item, type) && gtk_widget_get_mapped (GTK_WIDGET (item)))
        return GTK_WINDOW (item);
    }
  return NULL;
}

static char *
menu_label_in (GMenuModel *model, const char *action)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autofree char *item_action = NULL, *label = NULL;
      g_autoptr (GMenuLinkIter) links = NULL;

      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &item_action)
          && g_strcmp0 (item_action, action) == 0
          && g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_LABEL, "s", &label))
        return g_steal_pointer (&label);
      links = g_menu_model_iterate_item_links (model, i);
      while (g_menu_link_iter_next (links))
        {
          g_autoptr (GMenuModel) link = g_menu_link_iter_get_value (links);
          char *found = menu_label_in (link, action);

          if (found != NULL)
            return found;
        }
    }
  return NULL;
}

char *
tress_test_menu_label (TressWindow *window, const char *action)
{
  GtkWidget *titlebar = gtk_window_get_titlebar (GTK_WINDOW (window));
  GtkWidget *button = tress_test_find_named_type (titlebar, "GtkMenuButton", GTK_TYPE_MENU_BUTTON);

  return menu_label_in (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (button)), action);
}
