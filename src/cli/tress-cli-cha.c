/* tress-cli-cha.c: creature-fur commands (placeholder until the .cha format lands)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-cli.h"

const TressCliCommand tress_cli_cha_commands[] = {
  { NULL },
};
