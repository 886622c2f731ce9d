/* test-single-instance.c: files given to a second `tress` go to the running one
 *
 * This test is the running instance: it registers the application on a private
 * session bus (dbus-run-session), then runs the real `tress FILE` and
 * `tress --demo`, which hand their work over and exit, and checks its own
 * window shows the file and the demo.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gtk/gtk.h>

#include "tress-application.h"
#include "tress-demo.h"
#include "tress-document-page.h"
#include "tress-test-format.h"
#include "tress-test-utils.h"
#include "tress-window.h"

static TressApplication *app;

typedef struct
{
  gboolean exited;
  int status;
} Child;

static void
on_child_exit (GPid pid, int status, gpointer user_data)
{
  Child *child = user_data;

  child->exited = TRUE;
  child->status = status;
  g_spawn_close_pid (pid);
}

/* Runs `tress @arg` and iterates the main loop (serving it) until it exits. */
static void
run_second_instance (const char *arg)
{
  const char *argv[] = { g_getenv ("TRESS_APP"), arg, NULL };
  g_autoptr (GError) error = NULL;
  Child child = { FALSE, 0 };
  GPid pid;
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  g_assert_nonnull (argv[0]);
  g_spawn_async (NULL, (char **)argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, &error);
  g_assert_no_error (error);
  g_child_watch_add (pid, on_child_exit, &child);
  while (!child.exited)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
  g_spawn_check_wait_status (child.status, &error);
  g_assert_no_error (error);
}

static TressWindow *
the_window (void)
{
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (app));

  for (GList *l = windows; l != NULL; l = l->next)
    if (TRESS_IS_WINDOW (l->data))
      return l->data;
  return NULL;
}

static void
wait_for_documents (guint n)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (the_window () == NULL || tress_window_get_n_documents (the_window ()) < n
         || tress_window_get_busy (the_window ()))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (1000);
    }
}

static void
test_open_goes_to_running_instance (void)
{
  static const guint32 values[] = { 17, 18 };
  g_autoptr (GBytes) bytes = tress_test_format_build (values, 2);
  g_autofree char *path = g_build_filename (tress_test_tmpdir (), "forwarded.trsstest", NULL);
  g_autoptr (GError) error = NULL;
  TressDocument *doc;

  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  g_assert_false (g_application_get_is_remote (G_APPLICATION (app)));

  run_second_instance (path);
  wait_for_documents (1);
  doc = tress_window_get_current_document (the_window ());
  g_assert_cmpstr (tress_document_get_title (doc), ==, "forwarded.trsstest");
  g_assert_cmpuint (tress_test_model_get_value (tress_document_get_model (doc), 0), ==, 17);
}

static void
test_demo_goes_to_running_instance (void)
{
  g_auto (GStrv) demos = tress_demo_list ();
  guint before = tress_window_get_n_documents (the_window ());

  run_second_instance ("--demo");
  if (demos[0] == NULL)
    {
      g_test_skip ("this build has no demo files yet");
      return;
    }
  wait_for_documents (before + g_strv_length (demos));
  g_assert_cmpuint (tress_window_get_n_documents (the_window ()), ==,
                    before + g_strv_length (demos));
}

int
main (int argc, char *argv[])
{
  g_autoptr (GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("DBUS_SESSION_BUS_ADDRESS") == NULL)
    {
      g_test_skip ("no session bus (run under dbus-run-session)");
      return g_test_run ();
    }
  gtk_init ();
  tress_test_format_register ();
  app = tress_application_new ();
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  g_test_add_func ("/app/single-instance/open", test_open_goes_to_running_instance);
  g_test_add_func ("/app/single-instance/demo", test_demo_goes_to_running_instance);
  status = g_test_run ();

  {
    GList *windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (app)));

    for (GList *l = windows; l != NULL; l = l->next)
      gtk_window_destroy (GTK_WINDOW (l->data));
    g_list_free (windows);
  }
  g_object_unref (app);
  return status;
}
