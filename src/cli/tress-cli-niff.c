/* tress-cli-niff.c: niff-specific commands (placeholder until the format lands)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-cli.h"

const TressCliCommand tress_cli_niff_commands[] = {
  { NULL },
};
