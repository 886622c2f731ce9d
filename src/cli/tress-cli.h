/* tress-cli.h: shared pieces of tress-cli's commands
 *
 * Exit codes: 0 success (validate: valid or warnings only), 1 the file has errors
 * or the edit was refused, 2 unreadable input or bad usage.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "formats/tress-format.h"

G_BEGIN_DECLS

enum
{
  TRESS_CLI_OK = 0,
  TRESS_CLI_INVALID = 1,    /* the file has errors, or the edit was refused */
  TRESS_CLI_UNREADABLE = 2, /* unreadable input, or bad usage */
  TRESS_CLI_UNWRITTEN = 3,  /* OUT could not be written (nothing was) */
};

typedef struct
{
  const char *name;
  const char *usage;   /* "FILE --from A --to B -o OUT" */
  const char *summary; /* one line */
  /* argv[0] is the command name; returns an exit code. */
  int (*run) (int argc, char **argv);
} TressCliCommand;

/* Format-specific command tables, terminated by an entry with a NULL name. */
extern const TressCliCommand tress_cli_cha_commands[];
extern const TressCliCommand tress_cli_bfres_commands[];
extern const TressCliCommand tress_cli_niff_commands[];
extern const TressCliCommand tress_cli_curve_commands[];
extern const TressCliCommand tress_cli_json_commands[];
extern const TressCliCommand tress_cli_gltf_commands[];
extern const TressCliCommand tress_cli_gltf_import_commands[];
extern const TressCliCommand tress_cli_anim_commands[];
extern const TressCliCommand tress_cli_pose_commands[];
/* "tress-cli generate-demo FMT …" runs the command named "generate-demo" of
 * FMT's table with argv[0] = "generate-demo". */

typedef struct
{
  const TressFormat *format;
  gpointer model;
  GBytes *bytes;
  char *path;
} TressCliFile;

/* Reads and parses @path; on failure prints "tress-cli: PATH: message" and returns FALSE. */
gboolean tress_cli_file_load (TressCliFile *file, const char *path);
void tress_cli_file_clear (TressCliFile *file);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TressCliFile, tress_cli_file_clear)
/* Serializes the model, parses the result again to check it, and writes @out_path
 * atomically (temporary file + rename): a failure leaves no partial file. */
gboolean tress_cli_file_save (TressCliFile *file, const char *out_path);
/* Writes bytes to @path through a new file renamed into place (a failure leaves
 * nothing half-written; an existing file's permissions and links are kept, a
 * non-regular file is refused); prints the error and returns FALSE on failure.
 * When @path is the file @input_path (read by the command), a `~` backup of it
 * is kept. */
gboolean tress_cli_write (const char *path, GBytes *bytes, const char *input_path);
/* tress_cli_write() of a file made from nothing (no input to keep a backup of). */
gboolean tress_cli_write_atomic (const char *path, GBytes *bytes);
/* CURVE of a curve command: an index, a path as `tress-cli curves` prints it,
 * or "Kind/path" where animations of different kinds share the path. Prints
 * why and returns FALSE when it names no curve or several. */
gboolean tress_cli_find_curve (TressCliFile *file, const char *spec, guint *out);
/* ANIMATION of a command: a BFRES animation's name (or "Kind/name"), a NIFF
 * AnimGroup's name (or "#N"). Prints why, with the candidates, and returns
 * FALSE when it names none or several. */
gboolean tress_cli_find_anim (TressCliFile *file, const char *spec, guint *out);
/* Prints "tress-cli: " + message to stderr. */
void tress_cli_error (const char *format, ...) G_GNUC_PRINTF (1, 2);
/* Parses argv with @entries; prints errors and usage; returns FALSE on bad usage. */
gboolean tress_cli_parse (int *argc, char ***argv, const GOptionEntry *entries,
                          const char *parameter_string, const char *summary);
/* Prints a JsonNode pretty to stdout. */
void tress_cli_print_json (JsonNode *node);

G_END_DECLS
