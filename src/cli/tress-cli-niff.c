/* tress-cli-niff.c: niff-specific commands
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-cli.h"

#include "formats/niff/tress-niff.h"

static char *opt_output;

static int
cmd_generate_demo (int argc, char **argv)
{
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_output, "Write the demo file to OUT", "OUT" },
    { NULL },
  };
  g_autoptr (GBytes) bytes = NULL;

  if (!tress_cli_parse (&argc, &argv, entries, "-o OUT",
                        "Write a NIFF2 demo file: a few objects with Hermite channels."))
    return TRESS_CLI_UNREADABLE;
  if (argc != 1 || opt_output == NULL)
    {
      tress_cli_error ("generate-demo niff needs -o OUT");
      return TRESS_CLI_UNREADABLE;
    }
  bytes = tress_niff_build_demo ();
  if (bytes == NULL)
    {
      tress_cli_error ("the NIFF demo could not be built");
      return TRESS_CLI_INVALID;
    }
  return tress_cli_write_atomic (opt_output, bytes) ? TRESS_CLI_OK : TRESS_CLI_UNWRITTEN;
}

const TressCliCommand tress_cli_niff_commands[] = {
  { "generate-demo", "-o OUT", "Write a NIFF2 demo file (objects with Hermite channels)",
    cmd_generate_demo },
  { NULL },
};
