/* main.c: the tress program
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n.h>
#include <locale.h>

#include "core/tress-file.h"
#include "tress-application.h"

int
main (int argc, char *argv[])
{
  g_autoptr (TressApplication) app = NULL;
  int status;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_application_name (_ ("Tress"));
  /* A file size limit makes a save fail with a message, not kill the editor. */
  tress_file_ignore_size_limit_signal ();

  app = tress_application_new ();
  status = g_application_run (G_APPLICATION (app), argc, argv);
  return status != 0 ? status : tress_application_get_exit_status (app);
}
