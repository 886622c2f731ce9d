/* tress-cli-bfres.c: bfres-specific commands (placeholder until the format lands)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-cli.h"

const TressCliCommand tress_cli_bfres_commands[] = {
  { NULL },
};
